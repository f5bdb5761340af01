//! Soak test: thousands of tool calls through rigor-mcp with about 10%
//! injected faults (worker panics, aborts, exits, garbage, hangs,
//! cancellations, malformed lines, unknown tools). Prints what happened;
//! `unanswered`, `answered twice`, `non-JSON stdout lines` and `processes
//! left behind` must all be 0 (exit status 1 otherwise).
//!
//! Usage: soak [--calls N] [--seed S] [--bin-dir DIR]

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

const FAILPOINTS: &str = "explain/soak.panic:panic,explain/soak.abort:abort,explain/soak.exit:exit,explain/soak.garbage:garbage,explain/soak.hang:hang";
/// Requests outstanding at once.
const WINDOW: usize = 16;

/// A small deterministic generator (no dependency needed for a soak mix).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn percent(&mut self) -> f64 {
        (self.next() % 10_000) as f64 / 100.0
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
enum Kind {
    Check,
    Explain,
    Triage,
    Panic,
    Abort,
    Exit,
    Garbage,
    Hang,
    Cancelled,
    UnknownTool,
}

fn pick(rng: &mut Lcg) -> Kind {
    let roll = rng.percent();
    let table = [
        (2.0, Kind::Panic),
        (1.5, Kind::Abort),
        (1.5, Kind::Exit),
        (1.5, Kind::Garbage),
        (0.5, Kind::Hang),
        (1.5, Kind::Cancelled),
        (1.0, Kind::UnknownTool),
        (36.0, Kind::Check),
        (34.5, Kind::Explain),
        (20.0, Kind::Triage),
    ];
    let mut edge = 0.0;
    for (share, kind) in table {
        edge += share;
        if roll < edge {
            return kind;
        }
    }
    Kind::Explain
}

fn request(id: u64, kind: Kind) -> Value {
    let (name, arguments) = match kind {
        Kind::Check => ("rigor_check", json!({"paths": ["lib"]})),
        Kind::Triage => ("rigor_triage", json!({"top": 3})),
        Kind::Explain | Kind::Cancelled => ("rigor_explain", json!({"rule": "flow"})),
        Kind::Panic => ("rigor_explain", json!({"rule": "soak.panic"})),
        Kind::Abort => ("rigor_explain", json!({"rule": "soak.abort"})),
        Kind::Exit => ("rigor_explain", json!({"rule": "soak.exit"})),
        Kind::Garbage => ("rigor_explain", json!({"rule": "soak.garbage"})),
        Kind::Hang => ("rigor_explain", json!({"rule": "soak.hang"})),
        Kind::UnknownTool => ("rigor_nope", json!({})),
    };
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": arguments}})
}

fn cause(result: &Value) -> &'static str {
    let text = result["content"][0]["text"].as_str().unwrap_or("");
    if text.contains("exited with code 101") {
        "worker panicked"
    } else if text.contains("SIGABRT") {
        "worker aborted"
    } else if text.contains("exited with code 3") {
        "worker exited"
    } else if text.contains("not JSON") {
        "worker wrote garbage"
    } else if text.contains("timed out") {
        "call timed out"
    } else if text.contains("not available") {
        "engine unavailable"
    } else {
        "other"
    }
}

fn argument(args: &[String], name: &str) -> Option<String> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned()
}

/// Workers of this engine binary still running (orphans would be here).
fn workers_running(engine: &Path) -> Vec<u32> {
    let mut pids = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
        let Ok(cmdline) = std::fs::read(format!("/proc/{pid}/cmdline")) else { continue };
        let words: Vec<&[u8]> = cmdline.split(|b| *b == 0).collect();
        if words.first().is_some_and(|w| Path::new(std::str::from_utf8(w).unwrap_or("")) == engine)
            && words.get(1) == Some(&&b"worker"[..])
        {
            pids.push(pid);
        }
    }
    pids
}

fn peak_rss_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let calls: u64 = argument(&args, "--calls").and_then(|v| v.parse().ok()).unwrap_or(10_000);
    let seed: u64 = argument(&args, "--seed").and_then(|v| v.parse().ok()).unwrap_or(2026);
    let bin_dir = argument(&args, "--bin-dir")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::current_exe().unwrap().parent().unwrap().to_path_buf());
    let engine = std::fs::canonicalize(bin_dir.join("rigor")).expect("the rigor binary");
    let project = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/project");
    let started = Instant::now();

    let mut gateway = Command::new(bin_dir.join("rigor-mcp"))
        .args([
            "--root",
            project.to_str().unwrap(),
            "--engine",
            engine.to_str().unwrap(),
            "--call-timeout",
            "0.5",
            "--log-level",
            "error",
        ])
        .env("RIGOR_FAILPOINT", FAILPOINTS)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start rigor-mcp");
    let gateway_pid = gateway.id();
    let mut stdin = gateway.stdin.take().unwrap();
    let stdout = gateway.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel::<Result<Value, String>>();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            let _ = tx.send(serde_json::from_str(&line).map_err(|_| line));
        }
    });
    let mut send = |message: &str| {
        stdin.write_all(message.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
    };
    send(&json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "soak", "version": "1"}}}).to_string());
    send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");

    let mut rng = Lcg(seed);
    let mut kinds: HashMap<u64, Kind> = HashMap::new();
    let mut answers: HashMap<u64, usize> = HashMap::new();
    let mut outstanding: HashSet<u64> = HashSet::new();
    let mut is_error: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut json_rpc_errors: BTreeMap<i64, usize> = BTreeMap::new();
    let mut sent_by_kind: BTreeMap<Kind, usize> = BTreeMap::new();
    let (mut non_json, mut null_id_errors, mut malformed_lines, mut normal_results) = (0usize, 0usize, 0usize, 0usize);
    let mut peak_rss = 0;

    let mut record = |message: Result<Value, String>,
                      answers: &mut HashMap<u64, usize>,
                      outstanding: &mut HashSet<u64>,
                      kinds: &HashMap<u64, Kind>| {
        let message = match message {
            Ok(message) => message,
            Err(_) => {
                non_json += 1;
                return;
            }
        };
        match message.get("id") {
            Some(Value::Null) => null_id_errors += 1,
            Some(id) => {
                let Some(id) = id.as_u64() else { return };
                if id == 0 {
                    return;
                }
                *answers.entry(id).or_default() += 1;
                outstanding.remove(&id);
                if let Some(code) = message["error"]["code"].as_i64() {
                    *json_rpc_errors.entry(code).or_default() += 1;
                } else if message["result"]["isError"] == json!(true) {
                    *is_error.entry(cause(&message["result"])).or_default() += 1;
                } else if kinds.contains_key(&id) {
                    normal_results += 1;
                }
            }
            None => {}
        }
    };

    let mut next_id = 1u64;
    while next_id <= calls {
        while outstanding.len() >= WINDOW {
            match rx.recv_timeout(Duration::from_secs(10)) {
                Ok(message) => record(message, &mut answers, &mut outstanding, &kinds),
                Err(_) => break,
            }
        }
        if rng.percent() < 1.0 {
            send("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": truncated");
            malformed_lines += 1;
        }
        let kind = pick(&mut rng);
        let id = next_id;
        next_id += 1;
        kinds.insert(id, kind);
        *sent_by_kind.entry(kind).or_default() += 1;
        send(&request(id, kind).to_string());
        if kind == Kind::Cancelled {
            send(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id, "reason": "soak"}}).to_string());
        } else {
            outstanding.insert(id);
        }
        if id % 500 == 0 {
            peak_rss = peak_rss.max(peak_rss_kb(gateway_pid));
        }
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    while !outstanding.is_empty() && Instant::now() < deadline {
        if let Ok(message) = rx.recv_timeout(Duration::from_millis(500)) {
            record(message, &mut answers, &mut outstanding, &kinds);
        }
    }
    // Late answers to cancelled calls may still be in the pipe.
    while let Ok(message) = rx.recv_timeout(Duration::from_millis(300)) {
        record(message, &mut answers, &mut outstanding, &kinds);
    }
    peak_rss = peak_rss.max(peak_rss_kb(gateway_pid));
    drop(stdin);
    let exited = (0..300).any(|_| {
        std::thread::sleep(Duration::from_millis(10));
        matches!(gateway.try_wait(), Ok(Some(_)))
    });
    std::thread::sleep(Duration::from_millis(200));
    let left_behind = workers_running(&engine).len() + usize::from(!exited);

    let cancelled: Vec<u64> = kinds.iter().filter(|(_, k)| **k == Kind::Cancelled).map(|(id, _)| *id).collect();
    let cancelled_answered = cancelled.iter().filter(|id| answers.contains_key(id)).count();
    let unanswered = kinds.iter().filter(|(id, kind)| **kind != Kind::Cancelled && !answers.contains_key(id)).count();
    let twice = answers.values().filter(|count| **count > 1).count();
    let faults: usize = sent_by_kind
        .iter()
        .filter(|(k, _)| !matches!(k, Kind::Check | Kind::Explain | Kind::Triage))
        .map(|(_, n)| n)
        .sum::<usize>()
        + malformed_lines;

    println!(
        "soak: {calls} tool calls (seed {seed}) in {:.1} s, {faults} injected faults ({:.1}%)",
        started.elapsed().as_secs_f64(),
        faults as f64 * 100.0 / calls as f64
    );
    println!(
        "  sent by kind: {}",
        sent_by_kind.iter().map(|(k, n)| format!("{k:?} {n}")).collect::<Vec<_>>().join(", ")
    );
    println!("  malformed lines sent: {malformed_lines} (answered with id null: {null_id_errors})");
    println!("  answered: {} (normal results {normal_results})", answers.len());
    println!("  isError by cause: {}", is_error.iter().map(|(c, n)| format!("{c} {n}")).collect::<Vec<_>>().join(", "));
    println!(
        "  JSON-RPC errors by code: {}",
        json_rpc_errors.iter().map(|(c, n)| format!("{c} {n}")).collect::<Vec<_>>().join(", ")
    );
    println!(
        "  cancelled: {} ({} finished before the cancellation arrived, {} silent)",
        cancelled.len(),
        cancelled_answered,
        cancelled.len() - cancelled_answered
    );
    println!("  unanswered: {unanswered}");
    println!("  answered twice: {twice}");
    println!("  non-JSON stdout lines: {non_json}");
    println!("  processes left behind: {left_behind}");
    println!("  gateway peak RSS: {:.1} MiB", peak_rss as f64 / 1024.0);
    let clean = unanswered == 0 && twice == 0 && non_json == 0 && left_behind == 0 && null_id_errors == malformed_lines;
    std::process::exit(if clean { 0 } else { 1 });
}
