//! Split-terminal testing: a gateway in terminal A with a control socket,
//! sessions attached from terminal B, traces, and one-shot calls.

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Stdio};
use std::time::Duration;

use protocol_tests::{bin, fake_engine_in, fixture_project, result_text, worker_pid, Mcp, Server, TOOL_NAMES};
use serde_json::{json, Value};

fn wait_for(path: &std::path::Path) {
    for _ in 0..200 {
        if path.exists() {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("{} never appeared", path.display());
}

fn run(args: &[&str], stdin: &str) -> (Option<i32>, String, String) {
    let mut child = Command::new(bin("rigor-mcp"))
        .args(args)
        .current_dir(fixture_project())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn attached_sessions_share_the_worker_and_keep_their_own_ids() {
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("rigor.sock");
    let mut a = Mcp::start(&["--control", socket.to_str().unwrap()]);
    wait_for(&socket);
    let mode = std::fs::metadata(&socket).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "only the owner may attach");
    let pid_a = worker_pid(&a.call_tool("rigor_explain", json!({"rule": "flow"})));

    // Terminal B, raw JSON-RPC: the same id 1 as terminal A used, no conflict.
    let requests = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "b", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "rigor_check", "arguments": {"paths": ["lib"]}}}),
    ];
    let input: String = requests.iter().map(|r| r.to_string() + "\n").collect();
    let (code, stdout, stderr) = run(&["attach", socket.to_str().unwrap()], &input);
    assert_eq!(code, Some(0), "{stderr}");
    let answers: Vec<Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(answers.len(), 2, "{stdout}");
    assert_eq!(answers[0]["id"], json!(1));
    assert_eq!(answers[1]["result"]["structuredContent"]["error_count"], json!(1));
    assert_eq!(worker_pid(&answers[1]["result"]), pid_a, "one worker for every session");

    // --call: a one-shot call through terminal A's gateway.
    let (code, stdout, _) =
        run(&["attach", socket.to_str().unwrap(), "--call", "rigor_explain", "rule=flow.always-raises"], "");
    assert_eq!(code, Some(0));
    assert!(stdout.contains("flow.always-raises"), "{stdout}");
    let (code, _, _) = run(&["attach", socket.to_str().unwrap(), "--call", "rigor_explain", "rule=nope"], "");
    assert_eq!(code, Some(1), "isError exits 1");

    // Terminal A still serves, and removes the socket when it ends.
    assert_eq!(a.call_tool("rigor_explain", json!({"rule": "flow"}))["isError"], json!(false));
    a.server.close_stdin();
    a.server.wait_exit(Duration::from_secs(3)).expect("gateway exits");
    assert!(!socket.exists(), "the socket is removed on exit");
}

#[test]
fn list_changes_reach_every_session() {
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("s");
    let engine = fake_engine_in(dir.path());
    let mut a = Mcp::start_in(
        dir.path(),
        &[
            "--engine",
            engine.to_str().unwrap(),
            "--watch",
            engine.to_str().unwrap(),
            "--control",
            socket.to_str().unwrap(),
        ],
        &[],
    );
    a.tool_names();
    wait_for(&socket);
    let mut b = Server::spawn(&bin("rigor-mcp"), &["attach", socket.to_str().unwrap()], dir.path());
    b.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "b", "version": "1"}}}));
    assert_eq!(b.answer_to(&json!(1))["result"]["serverInfo"]["name"], json!("rigor-mcp"));
    std::thread::sleep(Duration::from_millis(100));
    let text = std::fs::read_to_string(&engine).unwrap().replacen("EXTRA_TOOLS = []", "EXTRA_TOOLS = [\"added\"]", 1);
    std::fs::write(&engine, text).unwrap();
    assert_eq!(a.server.receive()["method"], json!("notifications/tools/list_changed"));
    assert_eq!(b.receive()["method"], json!("notifications/tools/list_changed"));
}

#[test]
fn a_live_control_socket_is_not_taken_over_and_a_stale_one_is_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("s");
    let mut first = Mcp::start(&["--control", socket.to_str().unwrap()]);
    wait_for(&socket);
    let (code, stdout, stderr) = run(&["--control", socket.to_str().unwrap()], "");
    assert_eq!(code, Some(64), "{stderr}");
    assert!(stderr.contains("another gateway is listening"), "{stderr}");
    assert!(stdout.is_empty());
    // Killed without cleaning up: the socket file stays, but nobody listens.
    protocol_tests::signal(first.server.pid(), libc::SIGKILL);
    first.server.wait_exit(Duration::from_secs(2));
    assert!(socket.exists());
    let mut second = Mcp::start(&["--control", socket.to_str().unwrap()]);
    std::thread::sleep(Duration::from_millis(200));
    let (code, stdout, _) = run(&["attach", socket.to_str().unwrap(), "--call", "rigor_explain", "rule=flow"], "");
    assert_eq!(code, Some(0), "the stale socket was replaced: {stdout}");
    assert_eq!(second.tool_names(), TOOL_NAMES);
}

#[test]
fn a_trace_records_every_message_and_reads_back_readably() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("trace.jsonl");
    let mut mcp = Mcp::start(&["--trace", trace.to_str().unwrap()]);
    mcp.call_tool("rigor_explain", json!({"rule": "flow"}));
    mcp.server.send_raw(b"not json\n");
    mcp.server.receive();
    mcp.server.close_stdin();
    mcp.server.wait_exit(Duration::from_secs(3));
    let records: Vec<Value> =
        std::fs::read_to_string(&trace).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let directions: std::collections::BTreeSet<&str> = records.iter().map(|r| r["dir"].as_str().unwrap()).collect();
    assert_eq!(directions.into_iter().collect::<Vec<_>>(), ["from-worker", "in", "out", "to-worker"]);
    assert!(records.iter().all(|r| r["ts"].as_str().unwrap().ends_with('Z') && r["session"].is_string()));
    assert!(
        records.iter().any(|r| r["dir"] == json!("in") && r["message"] == json!("not json")),
        "malformed input is traced as text"
    );
    assert!(records.iter().any(|r| r["dir"] == json!("to-worker") && r["message"]["argv"][0] == json!("explain")));
    let output = Command::new(bin("rigor-mcp")).args(["trace", trace.to_str().unwrap()]).output().unwrap();
    let printed = String::from_utf8(output.stdout).unwrap();
    assert_eq!(printed.lines().count(), records.len());
    assert!(printed.contains("--> #2 tools/call"), "{printed}");
    // The worker's warm-up comes first, marked as the gateway's own.
    assert!(printed.contains("==> call 1 (warm-up): check --format=json"), "{printed}");
    assert!(printed.contains("==> call 2: explain --format=json -- flow"), "{printed}");
}

#[test]
fn one_shot_calls_exit_0_1_or_2() {
    let (code, stdout, _) = run(&["call", "rigor_check", "paths=lib"], "");
    assert_eq!(code, Some(0));
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["error_count"], json!(1), "diagnostics found is still exit 0");
    let (code, stdout, _) = run(&["call", "rigor_check", r#"{"paths":["lib/clean.rb"]}"#, "--json"], "");
    assert_eq!(code, Some(0));
    let whole: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(whole["structuredContent"]["diagnostics"], json!([]));
    let (code, _, _) = run(&["call", "rigor_explain", "rule=no.such"], "");
    assert_eq!(code, Some(1));
    let (code, _, stderr) = run(&["call", "rigor_nope"], "");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("unknown tool"), "{stderr}");
    let (code, _, stderr) = run(&["--engine", "/nonexistent", "tools"], "");
    assert_eq!(code, Some(2), "{stderr}");
    let (code, stdout, _) = run(&["tools"], "");
    assert_eq!(code, Some(0));
    assert!(stdout.starts_with("rigor_check  (paths, no_baseline, config)"), "{stdout}");
    let _ = result_text(&json!({"content": [{"text": ""}]}));
}
