//! The worker end of the private pipe protocol (docs/worker-protocol.md):
//! newline-delimited JSON on stdin/stdout; each call runs exactly the code
//! path of `rigor <argv>` with output captured in memory.

use std::fs::File;
use std::io::{BufRead, Write};
use std::os::fd::FromRawFd;
use std::path::PathBuf;
use std::time::Instant;

use serde::Deserialize;
use serde_json::{json, Value};

use crate::catalogue;
use crate::cli::{self, Io, Mode};

pub const PROTOCOL_VERSION: u32 = 1;

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Request {
    Call { id: Value, argv: Vec<String>, cwd: Option<PathBuf> },
    Shutdown,
}

/// Takes over stdin/stdout and serves requests until shutdown or EOF.
/// Returns the process exit code.
pub fn serve() -> i32 {
    crate::failpoint::at_startup();
    // The project model outlives each call: that is the worker's point.
    crate::workspace::keep_warm();
    let mut channel = match private_protocol_channel() {
        Ok(channel) => channel,
        Err(error) => {
            eprintln!("rigor worker: cannot set up the protocol channel: {error}");
            return cli::EXIT_UNAVAILABLE;
        }
    };
    if send(&mut channel, &hello()).is_err() {
        return cli::EXIT_FINDINGS;
    }
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            // EOF: the gateway is gone; exit at once.
            Ok(0) => return cli::EXIT_OK,
            Ok(_) => {}
            Err(error) => {
                eprintln!("rigor worker: cannot read requests: {error}");
                return cli::EXIT_FINDINGS;
            }
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let reply = match serde_json::from_slice::<Request>(&line) {
            Ok(Request::Shutdown) => return cli::EXIT_OK,
            Ok(Request::Call { id, argv, cwd }) => call(id, &argv, cwd),
            Err(error) => {
                let id = serde_json::from_slice::<Value>(&line).ok().and_then(|v| v.get("id").cloned());
                json!({"type": "error", "id": id, "message": format!("malformed request: {error}")})
            }
        };
        if send(&mut channel, &reply).is_err() {
            return cli::EXIT_FINDINGS;
        }
        // Answered: what is left of the call (settling what its answers
        // read) is not waited for. Should it fail, the worker goes on: an
        // answer left unsettled is only derived again.
        let idle = !request_within(AT_ONCE_MS);
        let after = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| crate::workspace::after_answer(idle)));
        if after.is_err() {
            eprintln!("rigor worker: the work after an answer failed; the next call derives what it needs again");
        }
    }
}

/// A call that follows its answer within this many milliseconds was sent
/// at once, by a script rather than an agent that reads the answer first:
/// the work left from the last call then waits until a call needs it.
const AT_ONCE_MS: i32 = 25;

/// Whether the next request is there to read within `millis` (the
/// gateway sends one at a time, so nothing of it sits in the reader's
/// buffer before it does).
fn request_within(millis: i32) -> bool {
    let mut stdin = libc::pollfd { fd: 0, events: libc::POLLIN, revents: 0 };
    // SAFETY: one pollfd, owned here.
    unsafe { libc::poll(&mut stdin, 1, millis) > 0 }
}

/// Keeps a private duplicate of fd 1 for the protocol and points fd 1 at
/// stderr, so nothing the engine prints can corrupt the protocol.
fn private_protocol_channel() -> std::io::Result<File> {
    // SAFETY: plain descriptor calls; the new descriptor is owned by the File.
    unsafe {
        let private = libc::fcntl(1, libc::F_DUPFD_CLOEXEC, 3);
        if private < 0 {
            return Err(std::io::Error::last_os_error());
        }
        if libc::dup2(2, 1) < 0 {
            return Err(std::io::Error::last_os_error());
        }
        crate::failpoint::set_protocol_fd(private);
        Ok(File::from_raw_fd(private))
    }
}

fn send(channel: &mut File, message: &Value) -> std::io::Result<()> {
    let mut line = serde_json::to_vec(message)?;
    line.push(b'\n');
    channel.write_all(&line)?;
    channel.flush()
}

pub fn hello() -> Value {
    json!({
        "type": "hello",
        "protocol": PROTOCOL_VERSION,
        "engine": {"name": "rigor", "version": env!("CARGO_PKG_VERSION"), "build": crate::BUILD},
        "pid": std::process::id(),
        "tools": catalogue::tools(),
        "server": catalogue::server(),
        // A check of the configured paths builds the project model that
        // every later call of this root reuses.
        "warm_up": {"tool": "rigor_check", "arguments": {"paths": []}},
    })
}

/// Runs one call; all state lives in this function's frame, so nothing
/// carries over to the next call.
pub fn call(id: Value, argv: &[String], cwd: Option<PathBuf>) -> Value {
    let cwd = match cwd {
        Some(dir) if dir.is_dir() => dir,
        Some(dir) => {
            return json!({"type": "error", "id": id, "message": format!("cwd {} is not a directory", dir.display())})
        }
        None => std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/")),
    };
    let started = Instant::now();
    // Figures belong to the call that made them.
    let _ = crate::workspace::take_last_figures();
    let mut out = Vec::new();
    let mut err = Vec::new();
    let exit_code = {
        let mut io = Io { out: &mut out, err: &mut err, cwd };
        cli::run(argv, &mut io, Mode::InWorker)
    };
    json!({
        "type": "result",
        "id": id,
        "exit_code": exit_code,
        "stdout": crate::syntax::decoded(&out),
        "stderr": crate::syntax::decoded(&err),
        "elapsed_ms": (started.elapsed().as_secs_f64() * 1e6).round() / 1e3,
        "meta": crate::workspace::take_last_figures().map(|cache| json!({"cache": cache})),
    })
}
