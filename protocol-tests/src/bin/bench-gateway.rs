//! Compares, in one run: a warm `tools/call` through the gateway; the same
//! CLI command spawned fresh per call (the design ADR-33 rejected); and the
//! floor: a JSON line relayed through two processes and back, the same
//! topology as client → gateway → worker, with no work done.
//!
//! Usage: bench-gateway [--calls N] [--spawns N] [--bin-dir DIR]

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

struct Pipe {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Pipe {
    fn spawn(program: &Path, args: &[&str], cwd: &Path) -> Pipe {
        let mut child = Command::new(program)
            .args(args)
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.display()));
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Pipe { child, stdin, stdout }
    }

    fn round_trip(&mut self, line: &str) -> String {
        self.stdin.write_all(line.as_bytes()).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
        let mut answer = String::new();
        self.stdout.read_line(&mut answer).unwrap();
        answer
    }
}

impl Drop for Pipe {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[derive(Clone, Copy)]
struct Stats {
    median_us: f64,
    p99_us: f64,
}

fn stats(mut samples: Vec<Duration>) -> Stats {
    samples.sort();
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1e6;
    Stats { median_us: at(0.5), p99_us: at(0.99) }
}

fn argument(args: &[String], name: &str, default: usize) -> usize {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// `--echo`: answer every line with itself. `--relay`: forward every line
/// to a child `--echo` and its answer back.
fn serve_role(role: &str) {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut child = (role == "--relay").then(|| {
        let exe = std::env::current_exe().unwrap();
        Pipe::spawn(&exe, &["--echo"], Path::new("."))
    });
    for line in stdin.lock().lines() {
        let line = line.unwrap();
        // Parse and re-encode, as the gateway does with every message.
        let value: Value = serde_json::from_str(&line).unwrap();
        let reply = match child.as_mut() {
            Some(echo) => echo.round_trip(&value.to_string()),
            None => value.to_string() + "\n",
        };
        out.write_all(reply.as_bytes()).unwrap();
        out.flush().unwrap();
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(role) = args.get(1).filter(|a| *a == "--echo" || *a == "--relay") {
        return serve_role(role);
    }
    let calls = argument(&args, "--calls", 2000);
    let spawns = argument(&args, "--spawns", 200);
    let bin_dir = args
        .iter()
        .position(|a| a == "--bin-dir")
        .and_then(|i| args.get(i + 1))
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::current_exe().unwrap().parent().unwrap().to_path_buf());
    let project = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/project");
    let rigor = bin_dir.join("rigor");
    let gateway_bin = bin_dir.join("rigor-mcp");
    let cli_args = ["explain", "--format=json", "flow.dead-assignment"];

    // 1. Warm calls through the gateway.
    let mut gateway = Pipe::spawn(&gateway_bin, &["--log-level", "error"], &project);
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}});
    gateway.round_trip(&init.to_string());
    gateway.stdin.write_all(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n").unwrap();
    let mut call_samples = Vec::with_capacity(calls);
    let mut engine_samples = Vec::with_capacity(calls);
    for i in 0..calls + 50 {
        let call = json!({"jsonrpc": "2.0", "id": i + 1, "method": "tools/call", "params": {"name": "rigor_explain", "arguments": {"rule": "flow.dead-assignment"}}});
        let line = call.to_string();
        let started = Instant::now();
        let answer = gateway.round_trip(&line);
        let elapsed = started.elapsed();
        let answer: Value = serde_json::from_str(&answer).expect("a JSON answer");
        assert_eq!(answer["result"]["isError"], json!(false), "{answer}");
        if i >= 50 {
            call_samples.push(elapsed);
            let engine_ms = answer["result"]["_meta"]["rigor/worker"]["elapsed_ms"].as_f64().unwrap();
            engine_samples.push(Duration::from_secs_f64(engine_ms / 1e3));
        }
    }
    drop(gateway);

    // 2. A fresh process per call.
    let mut spawn_samples = Vec::with_capacity(spawns);
    for _ in 0..spawns {
        let started = Instant::now();
        let output = Command::new(&rigor).args(cli_args).current_dir(&project).output().unwrap();
        spawn_samples.push(started.elapsed());
        assert!(output.status.success());
    }

    // 3. The floor: the same JSON line relayed through two processes.
    let exe = std::env::current_exe().unwrap();
    let mut relay = Pipe::spawn(&exe, &["--relay"], &project);
    let mut echo = Pipe::spawn(&exe, &["--echo"], &project);
    let probe = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "rigor_explain", "arguments": {"rule": "flow.dead-assignment"}}}).to_string();
    let mut relay_samples = Vec::with_capacity(calls);
    let mut echo_samples = Vec::with_capacity(calls);
    for i in 0..calls + 50 {
        let started = Instant::now();
        relay.round_trip(&probe);
        let relayed = started.elapsed();
        let started = Instant::now();
        echo.round_trip(&probe);
        let echoed = started.elapsed();
        if i >= 50 {
            relay_samples.push(relayed);
            echo_samples.push(echoed);
        }
    }

    let warm = stats(call_samples.clone());
    let engine = stats(engine_samples);
    let spawn = stats(spawn_samples);
    let floor = stats(relay_samples);
    let echo = stats(echo_samples);
    let overhead_samples: Vec<Duration> =
        call_samples.iter().map(|d| d.saturating_sub(Duration::from_secs_f64(engine.median_us / 1e6))).collect();
    let overhead = stats(overhead_samples);

    println!("bench-gateway: {calls} warm calls, {spawns} spawns; tool rigor_explain (flow.dead-assignment)");
    println!("{:<44} {:>12} {:>12}", "", "median µs", "p99 µs");
    let row = |name: &str, s: Stats| println!("{name:<44} {:>12.1} {:>12.1}", s.median_us, s.p99_us);
    row("warm tools/call through rigor-mcp", warm);
    row("  of which engine work (worker elapsed_ms)", engine);
    row("  gateway overhead (call - engine median)", overhead);
    row("fresh `rigor explain` process per call", spawn);
    row("floor: JSON line relayed via 2 processes", floor);
    row("  (one process echo, for reference)", echo);
    println!();
    let speedup = spawn.median_us / warm.median_us;
    let overhead_ratio = overhead.median_us / floor.median_us;
    println!(
        "spawn-per-call / warm call      = {speedup:.1}x   (target >= 20x: {})",
        if speedup >= 20.0 { "met" } else { "MISSED" }
    );
    println!(
        "gateway overhead / relay floor  = {overhead_ratio:.2}x  (target <= 2x: {})",
        if overhead_ratio <= 2.0 { "met" } else { "MISSED" }
    );
}
