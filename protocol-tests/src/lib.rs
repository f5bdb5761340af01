//! Harness for black-box tests: spawns the built `rigor-mcp` and `rigor`
//! binaries and speaks MCP or the worker protocol to them over pipes.
//! Every line a server writes on stdout is checked to be JSON.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// The real engine's tools, in catalogue order.
pub const TOOL_NAMES: &[&str] = &[
    "rigor_check",
    "rigor_triage",
    "rigor_explain",
    "rigor_type_of",
    "rigor_annotate",
    "rigor_coverage",
    "rigor_sig_gen",
];

/// How long any single answer may take before a test fails.
pub const ANSWER_TIMEOUT: Duration = Duration::from_secs(30);

/// The directory holding the built binaries: `RIGOR_BIN_DIR`, else the
/// target directory this test executable was built into.
pub fn bin_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("RIGOR_BIN_DIR") {
        return PathBuf::from(dir);
    }
    let exe = std::env::current_exe().expect("test executable path");
    // target/<profile>/deps/<test> → target/<profile>
    exe.parent().and_then(Path::parent).expect("target directory").to_path_buf()
}

pub fn bin(name: &str) -> PathBuf {
    let path = bin_dir().join(name);
    assert!(
        path.is_file(),
        "{} is missing: build the binaries first (`cargo build --workspace`, which scripts/test does)",
        path.display()
    );
    path
}

/// The repository's protocol-tests/fixtures directory.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// The fixture Ruby project used by most tests.
pub fn fixture_project() -> PathBuf {
    fixtures().join("project")
}

/// Is a process with this pid still alive (and not a zombie)?
pub fn process_alive(pid: u32) -> bool {
    let stat = match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat,
        Err(_) => return false,
    };
    // The state follows the parenthesised command name.
    let state = stat.rsplit(')').next().and_then(|rest| rest.split_whitespace().next());
    !matches!(state, Some("Z") | Some("X") | None)
}

/// When the process with this pid started (clock ticks since boot), to
/// tell a process from a later one that reused its pid.
pub fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Field 22 overall; the 20th after the parenthesised command name.
    stat.rsplit(')').next()?.split_whitespace().nth(19)?.parse().ok()
}

/// Waits until `pid` is gone (exited, a zombie, or its pid now belongs to
/// another process); false if it is still alive after `limit`.
pub fn wait_gone(pid: u32, limit: Duration) -> bool {
    let born = start_time(pid);
    let gone = || !process_alive(pid) || start_time(pid) != born;
    let started = Instant::now();
    while started.elapsed() < limit {
        if gone() {
            return true;
        }
        thread::sleep(Duration::from_millis(10));
    }
    if gone() {
        return true;
    }
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    eprintln!("process {pid} still alive: stat {stat:?} cmdline {:?}", String::from_utf8_lossy(&cmdline));
    false
}

/// Pids of the children of `pid` that are zombies (exited, not reaped).
pub fn zombie_children(pid: u32) -> Vec<u32> {
    let mut zombies = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(child) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{child}/stat")) else { continue };
        let fields: Vec<&str> = stat.rsplit(')').next().unwrap_or("").split_whitespace().collect();
        if fields.first() == Some(&"Z") && fields.get(1).and_then(|p| p.parse::<u32>().ok()) == Some(pid) {
            zombies.push(child);
        }
    }
    zombies
}

/// Pids of the live (not zombie) children of `pid`.
pub fn live_children(pid: u32) -> Vec<u32> {
    let mut children = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(child) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{child}/stat")) else { continue };
        let fields: Vec<&str> = stat.rsplit(')').next().unwrap_or("").split_whitespace().collect();
        let alive = !matches!(fields.first(), Some(&"Z") | Some(&"X") | None);
        if alive && fields.get(1).and_then(|p| p.parse::<u32>().ok()) == Some(pid) {
            children.push(child);
        }
    }
    children
}

/// Waits until `pid` has a live child other than `except`; returns it.
pub fn wait_new_child(pid: u32, except: u32, limit: Duration) -> Option<u32> {
    let started = Instant::now();
    while started.elapsed() < limit {
        if let Some(child) = live_children(pid).into_iter().find(|c| *c != except) {
            return Some(child);
        }
        thread::sleep(Duration::from_millis(10));
    }
    None
}

/// The fake engine script (docs/worker-protocol.md in Python), copied into
/// `dir` so a test may edit it.
pub fn fake_engine_in(dir: &Path) -> PathBuf {
    let source = fixtures().join("fake-engine/fake-engine");
    let copy = dir.join("fake-engine");
    std::fs::copy(source, &copy).expect("copy the fake engine");
    copy
}

/// Rewrites `path` as an editor that saves by rename would, replacing the
/// first `from` with `to` (the text must hold `from`).
pub fn save_by_rename(path: &Path, from: &str, to: &str) {
    use std::os::unix::fs::PermissionsExt;
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{from} not in {}", path.display());
    let temp = path.with_extension("swp");
    std::fs::write(&temp, text.replacen(from, to, 1)).unwrap();
    std::fs::set_permissions(&temp, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::rename(&temp, path).unwrap();
}

/// Sends a signal to a process.
pub fn signal(pid: u32, signal: i32) {
    // SAFETY: kill(2) with a pid we spawned.
    unsafe {
        libc::kill(pid as libc::pid_t, signal);
    }
}

/// A spawned server whose stdout is read line by line on a thread.
pub struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every stdout line, for the "only JSON on stdout" check.
    stdout_log: Arc<Mutex<Vec<String>>>,
    stderr_log: Arc<Mutex<String>>,
    logs: Vec<Value>,
}

impl Server {
    pub fn spawn(program: &Path, args: &[&str], cwd: &Path) -> Server {
        Server::spawn_with_env(program, args, cwd, &[])
    }

    /// Spawns with extra environment variables.
    pub fn spawn_with_env(program: &Path, args: &[&str], cwd: &Path, env: &[(&str, &str)]) -> Server {
        let mut child = Command::new(program)
            .args(args)
            .current_dir(cwd)
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.display()));
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let (line_tx, lines) = mpsc::channel();
        let stdout_log = Arc::new(Mutex::new(Vec::new()));
        let log = stdout_log.clone();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                log.lock().unwrap().push(line.clone());
                if line_tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr_log = Arc::new(Mutex::new(String::new()));
        let log = stderr_log.clone();
        thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                let mut log = log.lock().unwrap();
                log.push_str(&line);
                log.push('\n');
            }
        });
        Server { stdin: child.stdin.take(), child, lines, stdout_log, stderr_log, logs: Vec::new() }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to server");
        stdin.flush().expect("flush to server");
    }

    pub fn send(&mut self, message: &Value) {
        let mut line = message.to_string().into_bytes();
        line.push(b'\n');
        self.send_raw(&line);
    }

    /// The next stdout line as JSON; panics on timeout or non-JSON.
    pub fn receive(&mut self) -> Value {
        self.receive_within(ANSWER_TIMEOUT)
            .unwrap_or_else(|| panic!("no message within {ANSWER_TIMEOUT:?}; stderr:\n{}", self.stderr()))
    }

    /// Like `receive`, with a time limit. Log notifications
    /// (`notifications/message`) are skipped and kept in `logs()`.
    pub fn receive_within(&mut self, limit: Duration) -> Option<Value> {
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => return None,
            };
            let message: Value =
                serde_json::from_str(&line).unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {line:?}"));
            if message["method"] == json!("notifications/message") {
                self.logs.push(message);
                continue;
            }
            return Some(message);
        }
    }

    /// Log notifications received so far.
    pub fn logs(&self) -> &[Value] {
        &self.logs
    }

    /// The answer to request `id`, skipping notifications (which are kept).
    pub fn answer_to(&mut self, id: &Value) -> Value {
        loop {
            let message = self.receive();
            if message.get("id") == Some(id) && message.get("method").is_none() {
                return message;
            }
        }
    }

    /// Takes the stdin pipe (e.g. to write from another thread).
    pub fn take_stdin(&mut self) -> ChildStdin {
        self.stdin.take().expect("stdin open")
    }

    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    pub fn wait_exit(&mut self, limit: Duration) -> Option<ExitStatus> {
        let started = Instant::now();
        while started.elapsed() < limit {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return Some(status);
            }
            thread::sleep(Duration::from_millis(5));
        }
        None
    }

    pub fn stderr(&self) -> String {
        self.stderr_log.lock().unwrap().clone()
    }

    /// Stderr once `done` holds of it, or as it is after `ANSWER_TIMEOUT`.
    /// A log line written before an answer may still be in the pipe when
    /// the answer is read: stdout and stderr are read on separate threads.
    pub fn stderr_once(&self, done: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + ANSWER_TIMEOUT;
        loop {
            let stderr = self.stderr();
            if done(&stderr) || Instant::now() >= deadline {
                return stderr;
            }
            thread::sleep(Duration::from_millis(10));
        }
    }

    /// Stderr once it holds `needle` (see [`Server::stderr_once`]).
    pub fn stderr_with(&self, needle: &str) -> String {
        self.stderr_once(|stderr| stderr.contains(needle))
    }

    pub fn stdout_lines(&self) -> Vec<String> {
        self.stdout_log.lock().unwrap().clone()
    }

    /// Asserts every line written to stdout so far is a JSON-RPC object.
    pub fn assert_stdout_is_protocol_only(&self) {
        for line in self.stdout_lines() {
            let value: Value =
                serde_json::from_str(&line).unwrap_or_else(|e| panic!("non-JSON stdout line ({e}): {line:?}"));
            assert_eq!(value.get("jsonrpc"), Some(&json!("2.0")), "stdout line is not JSON-RPC: {line}");
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An MCP client over a spawned `rigor-mcp`.
pub struct Mcp {
    pub server: Server,
    next_id: i64,
}

impl Mcp {
    /// Starts `rigor-mcp ARGS` in `cwd` without initializing.
    pub fn start_raw(args: &[&str], cwd: &Path) -> Mcp {
        Mcp { server: Server::spawn(&bin("rigor-mcp"), args, cwd), next_id: 0 }
    }

    /// Starts `rigor-mcp ARGS` in `cwd` with extra environment variables,
    /// without initializing.
    pub fn start_raw_with_env(args: &[&str], cwd: &Path, env: &[(&str, &str)]) -> Mcp {
        Mcp { server: Server::spawn_with_env(&bin("rigor-mcp"), args, cwd, env), next_id: 0 }
    }

    /// Starts `rigor-mcp --root <fixture project> ARGS` and initializes.
    pub fn start(args: &[&str]) -> Mcp {
        Mcp::start_with_env(args, &[])
    }

    /// Like `start`, with extra environment variables for the gateway.
    pub fn start_with_env(args: &[&str], env: &[(&str, &str)]) -> Mcp {
        Mcp::start_in(&fixture_project(), args, env)
    }

    /// Starts `rigor-mcp --root <project> ARGS` and initializes.
    pub fn start_in(project: &Path, args: &[&str], env: &[(&str, &str)]) -> Mcp {
        let mut all = vec!["--root", project.to_str().unwrap()];
        all.extend_from_slice(args);
        let mut mcp = Mcp { server: Server::spawn_with_env(&bin("rigor-mcp"), &all, project, env), next_id: 0 };
        mcp.initialize("2025-06-18");
        mcp
    }

    /// Sends a request without waiting; returns its id.
    pub fn send_request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id();
        self.server.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    pub fn initialize(&mut self, version: &str) -> Value {
        let result = self.request_ok(
            "initialize",
            json!({"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "protocol-tests", "version": "1"}}),
        );
        self.server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        result
    }

    pub fn next_id(&mut self) -> Value {
        self.next_id += 1;
        json!(self.next_id)
    }

    /// Sends a request and returns the whole response message.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id();
        self.server.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.server.answer_to(&id)
    }

    /// Sends a request and returns its `result`, panicking on an error.
    pub fn request_ok(&mut self, method: &str, params: Value) -> Value {
        let response = self.request(method, params);
        assert!(response.get("error").is_none(), "{method} failed: {response}\nstderr:\n{}", self.server.stderr());
        response["result"].clone()
    }

    pub fn call_tool(&mut self, name: &str, arguments: Value) -> Value {
        self.request_ok("tools/call", json!({"name": name, "arguments": arguments}))
    }

    pub fn tool_names(&mut self) -> Vec<String> {
        let result = self.request_ok("tools/list", json!({}));
        result["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap().to_string()).collect()
    }
}

/// The text of a tool result's first content block.
pub fn result_text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_else(|| panic!("no text content in {result}"))
}

/// The worker pid recorded in a tool result's `_meta`.
pub fn worker_pid(result: &Value) -> u32 {
    result["_meta"]["rigor/worker"]["pid"].as_u64().unwrap_or_else(|| panic!("no worker pid in {result}")) as u32
}

/// Diagnostics of a rigor_check result as (rule, path, line, column).
pub fn diagnostics(result: &Value) -> Vec<(String, String, u64, u64)> {
    result["structuredContent"]["diagnostics"]
        .as_array()
        .unwrap_or_else(|| panic!("no diagnostics in {result}"))
        .iter()
        .map(|d| {
            (
                d["rule"].as_str().unwrap_or("").to_string(),
                d["path"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap(),
                d["column"].as_u64().unwrap(),
            )
        })
        .collect()
}
pub mod warm;
