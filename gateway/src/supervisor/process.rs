//! One engine worker process and the private pipe protocol spoken to it
//! (docs/worker-protocol.md): spawn, read the hello, run calls, stop.

use std::collections::VecDeque;
use std::os::fd::AsRawFd;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};

use super::CallFailure;
use crate::catalogue::EngineInfo;
use crate::identity::ServerIdentity;
use crate::mcp::framing::{Frame, LineReader};

/// The protocol version this gateway speaks.
pub const PROTOCOL_VERSION: u64 = 1;
/// Results can be large (a whole project's diagnostics), but not unbounded.
const MAX_WORKER_LINE: usize = 256 * 1024 * 1024;
/// How many of the worker's last stderr lines a failure report quotes.
const STDERR_TAIL_LINES: usize = 12;
/// How long a worker may take to exit after a shutdown request.
const EXIT_GRACE: Duration = Duration::from_millis(300);
/// A worker killed from outside this soon after a request was written may
/// have died before it could act on it (see `killed_from_outside`).
const KILL_RACE: Duration = Duration::from_millis(50);
/// How long output written just before a worker ended may take to arrive.
const EXIT_DRAIN: Duration = Duration::from_millis(200);

/// The worker's first message.
#[derive(Debug, Clone)]
pub struct Hello {
    pub engine: EngineInfo,
    pub pid: u32,
    pub tools: Vec<Value>,
    pub server: ServerIdentity,
    /// The call that warms a new worker up, if its hello names one.
    pub warm_up: Option<WarmUp>,
}

/// A tool call a new worker would like before any client's, so the first
/// real call finds its state built: a tool of its catalogue and arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct WarmUp {
    pub tool: String,
    pub arguments: Value,
}

impl WarmUp {
    /// The hello's `warm_up`: `None` when absent; a malformed one is
    /// logged and ignored (it is an optimisation, never worth a failed start).
    fn from_hello(value: Option<&Value>) -> Option<WarmUp> {
        let value = value?;
        let tool = value.get("tool").and_then(Value::as_str);
        let arguments = value.get("arguments").cloned().unwrap_or_else(|| Value::Object(Default::default()));
        match tool {
            Some(tool) if !tool.is_empty() && arguments.is_object() => {
                Some(WarmUp { tool: tool.to_string(), arguments })
            }
            _ => {
                tracing::error!(
                    "the hello's `warm_up` is not {{\"tool\": name, \"arguments\": {{…}}}}; no warm-up: {}",
                    clip(&value.to_string())
                );
                None
            }
        }
    }
}

/// A finished call as the worker reported it.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    pub exit_code: i32,
    pub stdout: String,
    pub stderr: String,
    pub elapsed_ms: f64,
    /// The result's optional `meta` object: the engine's own details of
    /// the call, passed on in the tool result's `_meta`.
    pub meta: Option<Value>,
}

enum WorkerLine {
    /// A well-formed result, read straight into its fields.
    Result {
        id: Option<u64>,
        reply: Reply,
    },
    Message(Value),
    NotJson(String),
    TooLong(usize),
}

/// What the worker wrote to stderr since the current call began (or since
/// it started), for failure reports: the first lines (where a panic message
/// or an error is) and the last ones (where it ended), not a flood.
#[derive(Clone, Default)]
struct StderrTail(Arc<Mutex<StderrLines>>);

#[derive(Default)]
struct StderrLines {
    head: Vec<String>,
    tail: VecDeque<String>,
    omitted: usize,
}

const STDERR_HEAD_LINES: usize = 8;

impl StderrTail {
    fn push(&self, line: String) {
        let mut lines = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if lines.head.len() < STDERR_HEAD_LINES {
            lines.head.push(line);
            return;
        }
        if lines.tail.len() == STDERR_TAIL_LINES {
            lines.tail.pop_front();
            lines.omitted += 1;
        }
        lines.tail.push_back(line);
    }

    /// Forgets earlier output: a new call begins.
    fn clear(&self) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = StderrLines::default();
    }

    fn render(&self) -> String {
        let lines = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let mut out: Vec<String> = lines.head.clone();
        if lines.omitted > 0 {
            out.push(format!("… ({} lines omitted) …", lines.omitted));
        }
        out.extend(lines.tail.iter().cloned());
        out.join("\n")
    }
}

/// A call as the worker reads it (docs/worker-protocol.md).
#[derive(serde::Serialize)]
struct CallRequest<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    id: u64,
    argv: &'a [String],
    cwd: &'a Path,
    /// The gateway's own warm-up call (for logs and traces; a worker
    /// serves it as any call).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    warm_up: bool,
}

pub struct WorkerProcess {
    /// The buffer each request is written from.
    line: Vec<u8>,
    child: Child,
    pid: u32,
    stdin: Option<ChildStdin>,
    /// Read by whoever waits on the worker (a call, or the idle watch),
    /// not by a task of its own: one wake-up less per call.
    lines: ProtocolLines,
    stderr_tail: StderrTail,
    stderr_done: Option<tokio::task::JoinHandle<()>>,
}

#[derive(Debug, Clone)]
pub struct SpawnSpec {
    pub program: PathBuf,
    pub root: PathBuf,
    pub hello_timeout: Duration,
    /// The worker's whole environment.
    pub environment: Vec<(std::ffi::OsString, std::ffi::OsString)>,
}

impl WorkerProcess {
    /// Starts `<program> worker` in `root` and waits for its hello.
    pub async fn start(spec: &SpawnSpec) -> Result<(WorkerProcess, Hello), String> {
        let mut command = Command::new(&spec.program);
        command
            .arg("worker")
            .current_dir(&spec.root)
            .env_clear()
            .envs(spec.environment.iter().cloned())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Its own process group: stopping it can take its children too.
            .process_group(0)
            .kill_on_drop(true);
        // SAFETY: prctl is async-signal-safe. If the gateway dies without
        // stopping it (SIGKILL), the kernel kills the worker: no orphan.
        // (The signal follows the spawning thread; the runtime has one.)
        unsafe {
            command.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
        let mut child = command.spawn().map_err(|e| format!("cannot start {} worker: {e}", spec.program.display()))?;
        let pid = child.id().unwrap_or_default();
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let lines = ProtocolLines {
            reader: LineReader::new(BufReader::with_capacity(256 * 1024, stdout), MAX_WORKER_LINE),
            pid,
        };
        let stderr_tail = StderrTail::default();
        let stderr_done = Some(tokio::spawn(forward_stderr(stderr, pid, stderr_tail.clone())));
        let mut worker = WorkerProcess {
            line: Vec::with_capacity(1024),
            stdin: child.stdin.take(),
            child,
            pid,
            lines,
            stderr_tail,
            stderr_done,
        };
        let first = tokio::time::timeout(spec.hello_timeout, worker.lines.next()).await;
        let hello = match first {
            Err(_) => {
                worker.kill().await;
                return Err(format!("the worker sent no hello within {} s", spec.hello_timeout.as_secs_f64()));
            }
            Ok(Some(WorkerLine::Message(message))) => parse_hello(&message),
            Ok(Some(WorkerLine::Result { .. })) => Err("the worker's first message is a result, not a hello".into()),
            Ok(Some(WorkerLine::NotJson(text))) => Err(format!("the worker's first line is not JSON: {}", clip(&text))),
            Ok(Some(WorkerLine::TooLong(bytes))) => Err(format!("the worker's first line is too long ({bytes} bytes)")),
            Ok(None) => Err(worker.exit_report("before saying hello").await),
        };
        match hello {
            Ok(hello) => Ok((worker, hello)),
            Err(problem) => {
                worker.kill().await;
                Err(problem)
            }
        }
    }

    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// Sends one call and waits for its result. Any failure other than a
    /// clean per-request error leaves the worker unusable. A worker found
    /// dead before it read the request gives `NotDelivered`: the call can
    /// safely run elsewhere.
    pub async fn call(&mut self, id: u64, argv: &[String], cwd: &Path, warm_up: bool) -> Result<Reply, CallFailure> {
        let request = CallRequest { kind: "call", id, argv, cwd, warm_up };
        self.stderr_tail.clear();
        if let Ok(Some(_)) = self.child.try_wait() {
            return Err(CallFailure::NotDelivered(self.exit_report("before the call was sent").await));
        }
        if let Err(error) = self.send(&request).await {
            let when = format!("(writing the request failed: {error})");
            return Err(CallFailure::NotDelivered(self.exit_report(&when).await));
        }
        let sent = std::time::Instant::now();
        let mut exited = false;
        loop {
            let line = if exited {
                // What it wrote before it ended still counts.
                tokio::time::timeout(EXIT_DRAIN, self.lines.next()).await.unwrap_or(None)
            } else {
                tokio::select! {
                    biased;
                    line = self.lines.next() => line,
                    // Its output may outlive it (a child holding the pipe).
                    _ = self.child.wait() => {
                        exited = true;
                        continue;
                    }
                }
            };
            match line {
                Some(WorkerLine::Result { id: Some(answered), reply }) if answered == id => return Ok(reply),
                Some(WorkerLine::Result { id: other, .. }) => {
                    tracing::warn!(pid = self.pid, "ignoring a result for another request ({other:?})")
                }
                Some(WorkerLine::Message(message)) => {
                    let same_id = message.get("id").and_then(Value::as_u64) == Some(id);
                    match message.get("type").and_then(Value::as_str) {
                        Some("result") if same_id => return parse_reply(message).map_err(CallFailure::Protocol),
                        Some("error") if same_id || message.get("id") == Some(&Value::Null) => {
                            let text = message.get("message").and_then(Value::as_str).unwrap_or("no message");
                            return Err(CallFailure::Rejected(text.to_string()));
                        }
                        _ => tracing::warn!(
                            pid = self.pid,
                            "ignoring unexpected worker message: {}",
                            clip(&message.to_string())
                        ),
                    }
                }
                Some(WorkerLine::NotJson(text)) => {
                    return Err(CallFailure::Protocol(format!(
                        "the worker wrote a line that is not JSON: {}",
                        clip(&text)
                    )))
                }
                Some(WorkerLine::TooLong(bytes)) => {
                    return Err(CallFailure::Protocol(format!(
                        "the worker wrote a line of {bytes} bytes, over the limit"
                    )))
                }
                None => {
                    // Bytes of the request still in the pipe: it died before
                    // reading the request, which therefore did not kill it.
                    let unread = self.unread_input();
                    let killed_at_once = sent.elapsed() < KILL_RACE && self.killed_from_outside().await;
                    let report = self.exit_report("during the call").await;
                    return Err(if unread > 0 || killed_at_once {
                        CallFailure::NotDelivered(report)
                    } else {
                        CallFailure::WorkerDied(report)
                    });
                }
            }
        }
    }

    /// Whether it ended by a signal only another process sends. A kill
    /// that lands as the request is written can let the kernel hand the
    /// request to a process that is already dying: such a call is retried.
    async fn killed_from_outside(&mut self) -> bool {
        let status = tokio::time::timeout(EXIT_DRAIN, self.child.wait()).await;
        let signal = status.ok().and_then(Result::ok).and_then(|status| status.signal());
        matches!(signal, Some(libc::SIGKILL | libc::SIGTERM | libc::SIGINT | libc::SIGHUP))
    }

    /// Bytes written to the worker's stdin that it has not read.
    fn unread_input(&self) -> usize {
        let Some(stdin) = &self.stdin else { return 0 };
        let mut unread: libc::c_int = 0;
        // SAFETY: FIONREAD on a pipe end we own writes one int.
        let status = unsafe { libc::ioctl(stdin.as_raw_fd(), libc::FIONREAD, &mut unread) };
        if status == 0 {
            unread.max(0) as usize
        } else {
            0
        }
    }

    /// Resolves when an idle worker stops being usable: it exited, closed
    /// its output, or wrote something that is not a protocol message.
    /// Cancel-safe, so the supervisor can wait on it between calls.
    pub async fn lost(&mut self) -> String {
        loop {
            let line = tokio::select! {
                line = self.lines.next() => line,
                _ = self.child.wait() => None,
            };
            match line {
                Some(WorkerLine::Result { id, .. }) => {
                    tracing::warn!(pid = self.pid, "ignoring a result ({id:?}) from the idle worker")
                }
                Some(WorkerLine::Message(message)) => tracing::warn!(
                    pid = self.pid,
                    "ignoring a message from the idle worker: {}",
                    clip(&message.to_string())
                ),
                Some(WorkerLine::NotJson(text)) => {
                    return format!("the idle worker (pid {}) wrote a line that is not JSON: {}", self.pid, clip(&text))
                }
                Some(WorkerLine::TooLong(bytes)) => {
                    return format!("the idle worker (pid {}) wrote a line of {bytes} bytes", self.pid)
                }
                None => return self.exit_report("while idle").await,
            }
        }
    }

    /// Writes one message as one line, in one write: serialised straight
    /// from its fields into a buffer kept between calls.
    async fn send(&mut self, message: &impl serde::Serialize) -> std::io::Result<()> {
        if crate::trace::enabled() {
            crate::trace::to_worker(self.pid, &serde_json::to_value(message)?);
        }
        let stdin = self.stdin.as_mut().ok_or_else(|| std::io::Error::other("stdin already closed"))?;
        self.line.clear();
        serde_json::to_writer(&mut self.line, message)?;
        self.line.push(b'\n');
        stdin.write_all(&self.line).await
    }

    /// Asks the worker to exit, then kills its process group if it does not.
    pub async fn stop(mut self) {
        let _ = self.send(&json!({"type": "shutdown"})).await;
        self.stdin = None;
        if tokio::time::timeout(EXIT_GRACE, self.child.wait()).await.is_err() {
            tracing::debug!(pid = self.pid, "worker ignored shutdown; killing it");
        }
        self.kill().await;
    }

    /// Kills the worker's whole process group and reaps the worker.
    pub async fn kill(&mut self) {
        if self.pid != 0 {
            // SAFETY: signalling a process group we created; harmless if gone.
            unsafe {
                libc::killpg(self.pid as libc::pid_t, libc::SIGKILL);
            }
        }
        let _ = self.child.kill().await;
    }

    /// How the worker ended (waiting briefly for it), with its stderr.
    async fn exit_report(&mut self, when: &str) -> String {
        let status = tokio::time::timeout(Duration::from_secs(2), self.child.wait()).await;
        // The last stderr lines may still be in flight.
        if let Some(done) = self.stderr_done.take() {
            let _ = tokio::time::timeout(Duration::from_millis(500), done).await;
        }
        let how = match status {
            Ok(Ok(status)) => describe_exit(status),
            Ok(Err(error)) => format!("ended (cannot read its status: {error})"),
            Err(_) => "closed its output but is still running".to_string(),
        };
        let stderr = self.stderr_tail.render();
        let pid = self.pid;
        if stderr.is_empty() {
            format!("the worker {how} {when} (pid {pid}); it wrote nothing to stderr")
        } else {
            format!("the worker {how} {when} (pid {pid}); its stderr:\n{stderr}")
        }
    }
}

pub fn describe_exit(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exited with code {code}");
    }
    match status.signal() {
        Some(signal) => format!("was killed by signal {signal} ({})", signal_name(signal)),
        None => "ended".to_string(),
    }
}

fn signal_name(signal: i32) -> &'static str {
    match signal {
        libc::SIGABRT => "SIGABRT",
        libc::SIGKILL => "SIGKILL",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGTERM => "SIGTERM",
        libc::SIGINT => "SIGINT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGFPE => "SIGFPE",
        libc::SIGPIPE => "SIGPIPE",
        _ => "signal",
    }
}

fn clip(text: &str) -> String {
    const LIMIT: usize = 200;
    if text.len() <= LIMIT {
        return text.to_string();
    }
    let mut end = LIMIT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

fn parse_hello(message: &Value) -> Result<Hello, String> {
    if message.get("type").and_then(Value::as_str) != Some("hello") {
        return Err(format!("the worker's first message is not a hello: {}", clip(&message.to_string())));
    }
    let protocol = message.get("protocol").and_then(Value::as_u64);
    if protocol != Some(PROTOCOL_VERSION) {
        return Err(format!(
            "the worker speaks protocol {}, this gateway speaks {PROTOCOL_VERSION}",
            message.get("protocol").map_or("(none)".to_string(), Value::to_string)
        ));
    }
    let engine = message.get("engine").ok_or("the hello has no `engine`")?;
    let text = |key: &str| engine.get(key).and_then(Value::as_str).map(str::to_string);
    Ok(Hello {
        engine: EngineInfo {
            name: text("name").ok_or("the hello's engine has no `name`")?,
            version: text("version").ok_or("the hello's engine has no `version`")?,
            build: text("build"),
        },
        pid: message.get("pid").and_then(Value::as_u64).unwrap_or_default() as u32,
        tools: message.get("tools").and_then(Value::as_array).cloned().ok_or("the hello has no `tools` array")?,
        server: ServerIdentity::from_hello(message.get("server"))?,
        warm_up: WarmUp::from_hello(message.get("warm_up")),
    })
}

/// The result's fields, taken out of the message (not copied: output can be large).
fn parse_reply(mut message: Value) -> Result<Reply, String> {
    let exit_code = message.get("exit_code").and_then(Value::as_i64).ok_or("a result without an integer exit_code")?;
    let mut text = |key: &str| match message.get_mut(key).map(Value::take) {
        Some(Value::String(text)) => text,
        _ => String::new(),
    };
    let (stdout, stderr) = (text("stdout"), text("stderr"));
    Ok(Reply {
        exit_code: i32::try_from(exit_code).map_err(|_| format!("exit_code {exit_code} out of range"))?,
        stdout,
        stderr,
        elapsed_ms: message.get("elapsed_ms").and_then(Value::as_f64).unwrap_or_default(),
        meta: message.get_mut("meta").map(Value::take).filter(Value::is_object),
    })
}

/// A result line as the protocol specifies it, read without a JSON tree.
/// Anything else (a hello, an error, a malformed result) is `None` and goes
/// the general way, which also explains what is wrong with it.
#[derive(serde::Deserialize)]
struct ResultLine {
    #[serde(rename = "type")]
    kind: String,
    id: Option<u64>,
    exit_code: i64,
    #[serde(default)]
    stdout: Option<String>,
    #[serde(default)]
    stderr: Option<String>,
    #[serde(default)]
    elapsed_ms: Option<f64>,
    #[serde(default)]
    meta: Option<Value>,
}

fn typed_result(bytes: &[u8]) -> Option<WorkerLine> {
    let line: ResultLine = serde_json::from_slice(bytes).ok()?;
    if line.kind != "result" {
        return None;
    }
    let reply = Reply {
        exit_code: i32::try_from(line.exit_code).ok()?,
        stdout: line.stdout.unwrap_or_default(),
        stderr: line.stderr.unwrap_or_default(),
        elapsed_ms: line.elapsed_ms.unwrap_or_default(),
        meta: line.meta.filter(Value::is_object),
    };
    Some(WorkerLine::Result { id: line.id, reply })
}

/// The worker's stdout, one protocol line at a time.
struct ProtocolLines {
    reader: LineReader<BufReader<tokio::process::ChildStdout>>,
    pid: u32,
}

impl ProtocolLines {
    /// The next line, or `None` at the end of the output. Cancel-safe: a
    /// line half read stays in the reader for the next call.
    async fn next(&mut self) -> Option<WorkerLine> {
        let frame = self.reader.next_frame().await.ok()??;
        Some(match frame {
            // Traced lines keep their whole tree, for the trace.
            Frame::Line(bytes) => match typed_result(&bytes).filter(|_| !crate::trace::enabled()) {
                Some(result) => result,
                None => match serde_json::from_slice::<Value>(&bytes) {
                    Ok(value) if value.is_object() => {
                        crate::trace::from_worker(self.pid, &value);
                        WorkerLine::Message(value)
                    }
                    _ => {
                        let text = String::from_utf8_lossy(&bytes).into_owned();
                        crate::trace::from_worker(self.pid, &Value::String(text.clone()));
                        WorkerLine::NotJson(text)
                    }
                },
            },
            Frame::TooLong { bytes, .. } => WorkerLine::TooLong(bytes),
        })
    }
}

/// Forwards the worker's stderr into our log, always draining it: a worker
/// blocked on a full stderr pipe would look hung.
async fn forward_stderr(stderr: tokio::process::ChildStderr, pid: u32, tail: StderrTail) {
    let mut reader = LineReader::new(BufReader::new(stderr), 64 * 1024);
    while let Ok(Some(frame)) = reader.next_frame().await {
        let line = match frame {
            Frame::Line(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Frame::TooLong { bytes, .. } => format!("<a stderr line of {bytes} bytes, not shown>"),
        };
        tracing::info!(target: "rigor_mcp::engine", pid, "{line}");
        tail.push(line);
    }
}
