//! Compares, in one run: a warm `tools/call` through the gateway; the same
//! CLI command spawned fresh per call (the design ADR-33 rejected); and the
//! floor: a JSON line relayed through two processes and back, the same
//! topology as client → gateway → worker, with no work done.
//!
//! A second scenario, type-of, shows an engine with real start-up work. A
//! third puts a minimal worker (this program, `bench-gateway worker`)
//! behind the gateway, so the gateway's own cost is measured apart from
//! Rigor's, next to the same answer given directly by one process.
//!
//! The third scenario runs twice: as the scheduler places the processes,
//! and with every process on one CPU. On a small VM a wake-up that crosses
//! CPUs costs tens of µs (a byte-copying C relay adds +50 µs there, +8 µs
//! on one CPU), so only the second isolates what a proxy's own work costs.
//!
//! Usage: bench-gateway [--calls N] [--spawns N] [--bin-dir DIR]
//!        bench-gateway --fake-only [--runs N] [--one-cpu] [--baseline OTHER-RIGOR-MCP]

#[path = "../bench_http.rs"]
mod bench_http;

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
        // One write: two would wake the reader twice, for half a line.
        let mut message = Vec::with_capacity(line.len() + 1);
        message.extend_from_slice(line.as_bytes());
        message.push(b'\n');
        self.stdin.write_all(&message).unwrap();
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

/// What `through` adds to `direct`, at the median and at p99.
fn added_to(through: Stats, direct: Stats) -> Stats {
    Stats { median_us: through.median_us - direct.median_us, p99_us: through.p99_us - direct.p99_us }
}

fn argument(args: &[String], name: &str, default: usize) -> usize {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// `--echo`: answer every line with itself. `--relay`: forward every line
/// to a child `--echo` and its answer back. `--byte-relay`: the same, the
/// bytes untouched (what a proxy costs with no work at all).
fn serve_role(role: &str) {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    if role == "--byte-relay" {
        let exe = std::env::current_exe().unwrap();
        let mut echo = Pipe::spawn(&exe, &["--echo"], Path::new("."));
        for line in stdin.lock().lines() {
            out.write_all(echo.round_trip(&line.unwrap()).as_bytes()).unwrap();
            out.flush().unwrap();
        }
        return;
    }
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

/// `worker`: a minimal engine worker (docs/worker-protocol.md) with one
/// tool, `echo`, that answers at once: what remains is the gateway's cost.
fn serve_worker() {
    let mut out = std::io::stdout().lock();
    let hello = json!({"type": "hello", "protocol": 1, "engine": {"name": "bench-echo", "version": "1"},
        "pid": std::process::id(), "server": {"name": "bench-echo", "env_prefix": "BENCH_", "meta_key": "bench/worker"},
        "tools": [{"name": "echo", "description": "echoes text",
            "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"], "additionalProperties": false},
            "argv": ["echo", "--", {"arg": "text"}]}]});
    writeln!(out, "{hello}").unwrap();
    out.flush().unwrap();
    for line in std::io::stdin().lock().lines() {
        let request: Value = serde_json::from_str(&line.unwrap()).unwrap();
        if request["type"] == json!("shutdown") {
            return;
        }
        let text = request["argv"].as_array().and_then(|argv| argv.last()).cloned().unwrap_or_default();
        let reply = json!({"type": "result", "id": request["id"], "exit_code": 0, "stdout": text, "stderr": "", "elapsed_ms": 0.0});
        writeln!(out, "{reply}").unwrap();
        out.flush().unwrap();
    }
}

/// Warm calls through the gateway in front of the minimal worker, and, in
/// the same loop, the same answer from one process directly (the echo) and
/// through a byte relay in front of it (the floor of any proxy).
/// With `--baseline GATEWAY`, a second gateway in front of its own minimal
/// worker, called in the same loop: a paired comparison, as ratios.
struct FakeWorkerSamples {
    through: Vec<Duration>,
    direct: Vec<Duration>,
    relayed: Vec<Duration>,
    baseline: Vec<Duration>,
}

fn fake_gateway(gateway_bin: &Path, root: &Path) -> Pipe {
    let exe = std::env::current_exe().unwrap();
    let args = ["--log-level", "error", "--root", root.to_str().unwrap(), "--engine", exe.to_str().unwrap()];
    let mut gateway = Pipe::spawn(gateway_bin, &args, root);
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}});
    gateway.round_trip(&init.to_string());
    gateway.stdin.write_all(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n").unwrap();
    gateway
}

fn fake_worker_calls(gateway_bin: &Path, baseline: Option<&Path>, root: &Path, rounds: usize) -> FakeWorkerSamples {
    let exe = std::env::current_exe().unwrap();
    let mut gateway = fake_gateway(gateway_bin, root);
    let mut other = baseline.map(|bin| fake_gateway(bin, root));
    let mut direct = Pipe::spawn(&exe, &["--echo"], root);
    let mut relay = Pipe::spawn(&exe, &["--byte-relay"], root);
    let warmup = 50;
    let mut samples = FakeWorkerSamples {
        through: Vec::with_capacity(rounds),
        direct: Vec::with_capacity(rounds),
        relayed: Vec::with_capacity(rounds),
        baseline: Vec::with_capacity(rounds),
    };
    let timed = |pipe: &mut Pipe, line: &str| {
        let started = Instant::now();
        let answer = pipe.round_trip(line);
        (started.elapsed(), answer)
    };
    // What a server answering directly sends: the gateway's own answer.
    let probe = |i: usize| {
        json!({"jsonrpc": "2.0", "id": i + 1, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "hello"}}}).to_string()
    };
    let answer = gateway.round_trip(&probe(0));
    let parsed: Value = serde_json::from_str(&answer).expect("a JSON answer");
    assert_eq!(parsed["result"]["content"][0]["text"], json!("hello"), "{answer}");
    let same = answer.trim_end().to_string();
    let targets = if other.is_some() { 4 } else { 3 };
    let mut order: Vec<usize> = (0..targets).collect();
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    for i in 1..=rounds + warmup {
        let call = probe(i);
        // A fresh order each round (seeded): which process runs first, and
        // after which, moves its latency by tens of µs on a small VM.
        for k in (1..targets).rev() {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            order.swap(k, (seed >> 33) as usize % (k + 1));
        }
        for &target in &order {
            match target {
                0 => {
                    let (through, answer) = timed(&mut gateway, &call);
                    assert!(answer.contains("\"hello\""), "{answer}");
                    if i > warmup {
                        samples.through.push(through);
                    }
                }
                1 => {
                    let (elapsed, _) = timed(&mut direct, &same);
                    if i > warmup {
                        samples.direct.push(elapsed);
                    }
                }
                2 => {
                    let (elapsed, _) = timed(&mut relay, &same);
                    if i > warmup {
                        samples.relayed.push(elapsed);
                    }
                }
                _ => {
                    let (elapsed, _) = timed(other.as_mut().expect("a baseline"), &call);
                    if i > warmup {
                        samples.baseline.push(elapsed);
                    }
                }
            }
        }
    }
    samples
}

/// Median and p99 of `rounds` warm calls of one tool through one gateway,
/// with the engine's own part (its reported elapsed time).
fn warm_calls(
    gateway_bin: &Path,
    root: &Path,
    tool: &str,
    arguments: Value,
    rounds: usize,
) -> (Vec<Duration>, Vec<Duration>) {
    let mut gateway = Pipe::spawn(gateway_bin, &["--log-level", "error", "--root", root.to_str().unwrap()], root);
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}});
    gateway.round_trip(&init.to_string());
    gateway.stdin.write_all(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n").unwrap();
    let warmup = 20;
    let (mut calls, mut engine) = (Vec::with_capacity(rounds), Vec::with_capacity(rounds));
    for i in 0..rounds + warmup {
        let call = json!({"jsonrpc": "2.0", "id": i + 1, "method": "tools/call", "params": {"name": tool, "arguments": arguments}});
        let line = call.to_string();
        let started = Instant::now();
        let answer = gateway.round_trip(&line);
        let elapsed = started.elapsed();
        let answer: Value = serde_json::from_str(&answer).expect("a JSON answer");
        assert_eq!(answer["result"]["isError"], json!(false), "{answer}");
        if i >= warmup {
            calls.push(elapsed);
            let engine_ms = answer["result"]["_meta"]["rigor/worker"]["elapsed_ms"].as_f64().unwrap();
            engine.push(Duration::from_secs_f64(engine_ms / 1e3));
        }
    }
    (calls, engine)
}

/// The same command as a fresh process each time.
fn spawned(rigor: &Path, root: &Path, argv: &[&str], rounds: usize) -> Vec<Duration> {
    (0..rounds)
        .map(|_| {
            let started = Instant::now();
            let output = Command::new(rigor).args(argv).current_dir(root).output().unwrap();
            assert!(output.status.code().is_some_and(|c| c <= 1), "{}", String::from_utf8_lossy(&output.stderr));
            started.elapsed()
        })
        .collect()
}

/// Runs `work` with this thread, and every process it spawns meanwhile,
/// on the first CPU it may use; the full set is restored after. `None`
/// where the affinity cannot be read or set.
fn on_one_cpu<T>(work: impl FnOnce() -> T) -> Option<T> {
    // SAFETY: cpu_set_t is plain data; the calls read and write only it.
    unsafe {
        let mut all: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut all) != 0 {
            return None;
        }
        let first = (0..libc::CPU_SETSIZE as usize).find(|&cpu| libc::CPU_ISSET(cpu, &all))?;
        let mut one: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(first, &mut one);
        if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &one) != 0 {
            return None;
        }
        let result = work();
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &all);
        Some(result)
    }
}

/// Whether rigor-mcp's added cost meets issue 11's target.
fn verdict(added: Stats) -> &'static str {
    if added.median_us <= 30.0 && added.p99_us <= 60.0 {
        "met"
    } else {
        "MISSED"
    }
}

fn row(name: &str, s: Stats) {
    println!("{name:<46} {:>12.1} {:>12.1}", s.median_us, s.p99_us);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(role) = args.get(1).filter(|a| ["--echo", "--relay", "--byte-relay"].contains(&a.as_str())) {
        return serve_role(role);
    }
    if args.get(1).is_some_and(|a| a == "worker") {
        return serve_worker();
    }
    let calls = argument(&args, "--calls", 2000);
    if args.iter().any(|a| a == "--fake-only") {
        // The gateway's own cost alone: quick, for profiling and repeats.
        // On a shared machine one run is noise: `--runs N` prints the
        // median over runs of each run's median and p99.
        let bin_dir = std::env::current_exe().unwrap().parent().unwrap().to_path_buf();
        let project = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/project");
        let baseline = args.iter().position(|a| a == "--baseline").and_then(|i| args.get(i + 1)).map(PathBuf::from);
        let mut runs = Vec::new();
        let one_cpu = args.iter().any(|a| a == "--one-cpu");
        for _ in 0..argument(&args, "--runs", 1).max(1) {
            let measure = || fake_worker_calls(&bin_dir.join("rigor-mcp"), baseline.as_deref(), &project, calls);
            let samples =
                if one_cpu { on_one_cpu(measure).expect("cannot pin this process to one CPU") } else { measure() };
            let (fake, direct, relayed) = (stats(samples.through), stats(samples.direct), stats(samples.relayed));
            let added = added_to(fake, direct);
            let relay_added = added_to(relayed, direct);
            row("warm tools/call through rigor-mcp (minimal worker)", fake);
            row("the same answer from one process directly", direct);
            row("  added by rigor-mcp", added);
            row("  added by a byte relay (the floor)", relay_added);
            let mut run = vec![fake, direct, added, relay_added];
            if !samples.baseline.is_empty() {
                let other = added_to(stats(samples.baseline), direct);
                row("  added by the --baseline gateway", other);
                run.push(other);
            }
            runs.push(run);
        }
        if runs.len() > 1 {
            let middle = |mut values: Vec<f64>| {
                values.sort_by(f64::total_cmp);
                values[values.len() / 2]
            };
            println!("median of {} runs:", runs.len());
            let names =
                ["through rigor-mcp", "directly", "added by rigor-mcp", "added by a byte relay", "added by --baseline"];
            for (index, name) in names.iter().enumerate().take(runs[0].len()) {
                let median = Stats {
                    median_us: middle(runs.iter().map(|r| r[index].median_us).collect()),
                    p99_us: middle(runs.iter().map(|r| r[index].p99_us).collect()),
                };
                row(&format!("  {name}"), median);
            }
        }
        return;
    }
    let spawns = argument(&args, "--spawns", 200);
    let bin_dir = args
        .iter()
        .position(|a| a == "--bin-dir")
        .and_then(|i| args.get(i + 1))
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::current_exe().unwrap().parent().unwrap().to_path_buf());
    let repository = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf();
    let project = repository.join("protocol-tests/fixtures/project");
    let shop = repository.join("examples/shop");
    let rigor = bin_dir.join("rigor");
    let gateway_bin = bin_dir.join("rigor-mcp");

    // 1. The specified comparison: rigor_explain of one rule.
    let (call_samples, engine_samples) =
        warm_calls(&gateway_bin, &project, "rigor_explain", json!({"rule": "flow.dead-assignment"}), calls);
    let http_samples = bench_http::warm_calls(
        &gateway_bin,
        &project,
        "rigor_explain",
        &json!({"rule": "flow.dead-assignment"}),
        calls,
    );
    let spawn_samples = spawned(&rigor, &project, &["explain", "--format=json", "flow.dead-assignment"], spawns);

    // The floor: the same JSON line relayed through two processes.
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

    // 2. A call whose engine has real start-up work: type-of reads the core
    //    RBS signatures, once per worker but once per process when spawned.
    let position = "lib/shop/cart.rb:16:7";
    let (typed_samples, _) = warm_calls(
        &gateway_bin,
        &shop,
        "rigor_type_of",
        json!({"file": "lib/shop/cart.rb", "line": 16, "col": 7}),
        calls / 4,
    );
    let typed_spawns = spawned(&rigor, &shop, &["type-of", "--format=json", position], (spawns / 8).max(5));

    // 3. The gateway's own cost: a minimal worker, against a direct answer.
    let fake_samples = fake_worker_calls(&gateway_bin, None, &project, calls);
    let pinned_samples = on_one_cpu(|| fake_worker_calls(&gateway_bin, None, &project, calls));

    let warm = stats(call_samples.clone());
    let engine = stats(engine_samples);
    let spawn = stats(spawn_samples);
    let floor = stats(relay_samples);
    let echo = stats(echo_samples);
    let overhead =
        stats(call_samples.iter().map(|d| d.saturating_sub(Duration::from_secs_f64(engine.median_us / 1e6))).collect());
    let typed_warm = stats(typed_samples);
    let typed_spawn = stats(typed_spawns);
    let fake = stats(fake_samples.through);
    let direct = stats(fake_samples.direct);
    let relayed = stats(fake_samples.relayed);

    println!("bench-gateway: {calls} warm calls, {spawns} spawns");
    println!("{:<46} {:>12} {:>12}", "", "median µs", "p99 µs");
    println!("1. rigor_explain (flow.dead-assignment)");
    row("   warm tools/call through rigor-mcp", warm);
    row("     of which engine work (worker elapsed_ms)", engine);
    row("     gateway overhead (call - engine median)", overhead);
    row("   warm tools/call over HTTP (--transport http)", stats(http_samples));
    row("   fresh `rigor explain` process per call", spawn);
    row("   floor: JSON line relayed via 2 processes", floor);
    row("     (one process echo, for reference)", echo);
    println!("2. rigor_type_of (reads the core RBS signatures)");
    row("   warm tools/call through rigor-mcp", typed_warm);
    row("   fresh `rigor type-of` process per call", typed_spawn);
    println!("3. gateway's own cost: a minimal worker (echo) behind rigor-mcp");
    row("   warm tools/call through rigor-mcp", fake);
    row("   the same answer from one process directly", direct);
    let added = added_to(fake, direct);
    row("     added by rigor-mcp", added);
    let relay_added = added_to(relayed, direct);
    row("     added by a byte relay (the floor)", relay_added);
    let pinned = pinned_samples.map(|samples| {
        let (through, direct, relayed) = (stats(samples.through), stats(samples.direct), stats(samples.relayed));
        println!("   the same, every process on one CPU (no cross-CPU wake-ups)");
        row("   warm tools/call through rigor-mcp", through);
        row("   the same answer from one process directly", direct);
        let added = added_to(through, direct);
        row("     added by rigor-mcp", added);
        row("     added by a byte relay (the floor)", added_to(relayed, direct));
        added
    });
    println!();
    let speedup = spawn.median_us / warm.median_us;
    let overhead_ratio = overhead.median_us / floor.median_us;
    println!(
        "1. spawn-per-call / warm call      = {speedup:.1}x   (target >= 20x: {})",
        if speedup >= 20.0 { "met" } else { "MISSED" }
    );
    println!(
        "1. gateway overhead / relay floor  = {overhead_ratio:.2}x  (target <= 2x: {})",
        if overhead_ratio <= 2.0 { "met" } else { "MISSED" }
    );
    println!("2. spawn-per-call / warm call      = {:.1}x", typed_spawn.median_us / typed_warm.median_us);
    println!(
        "3. added by rigor-mcp              = +{:.1} µs median, +{:.1} µs p99  (target <= +30 / +60: {}; a byte relay adds +{:.1})",
        added.median_us,
        added.p99_us,
        verdict(added),
        relay_added.median_us
    );
    if let Some(added) = pinned {
        println!(
            "3. the same on one CPU             = +{:.1} µs median, +{:.1} µs p99  (target <= +30 / +60: {})",
            added.median_us,
            added.p99_us,
            verdict(added)
        );
    }
}
