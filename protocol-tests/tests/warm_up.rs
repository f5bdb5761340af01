//! The gateway warms a fresh worker up: before any client call, it runs
//! the call the worker's hello names (Rigor: a check of the configured
//! paths), so the first real call finds the project model built. A warm-up
//! that breaks the worker is never repeated, and one that hangs holds the
//! calls behind it no longer than the call timeout.

use std::process::Command;
use std::time::{Duration, Instant};

use protocol_tests::{bin, diagnostics, fake_engine_in, fixture_project, result_text, save_by_rename, worker_pid, Mcp};
use serde_json::{json, Value};

/// What a call's answer says of the project model it used.
fn cache(result: &Value) -> &Value {
    &result["_meta"]["rigor/worker"]["cache"]
}

/// How many workers the gateway has started, once `expected` have (or
/// after a while: the log is read on its own thread, behind the answers).
fn worker_starts(mcp: &Mcp, expected: usize) -> usize {
    let starts = |stderr: &str| stderr.lines().filter(|line| line.contains("worker ready")).count();
    starts(&mcp.server.stderr_once(|stderr| starts(stderr) >= expected))
}

#[test]
fn the_first_call_finds_the_project_model_the_warm_up_built() {
    // Sent at once: it waits for the warm-up and is then answered from it.
    let mut warmed = Mcp::start(&[]);
    let first = warmed.call_tool("rigor_check", json!({"paths": []}));
    assert_eq!(cache(&first)["index"], json!("kept"), "{first}");
    assert_eq!(cache(&first)["facts_derived"], json!(0), "{first}");
    assert_eq!(cache(&first)["reanalysed"], json!(0), "{first}");

    let mut cold = Mcp::start(&["--no-warm-up"]);
    let unwarmed = cold.call_tool("rigor_check", json!({"paths": []}));
    assert_eq!(cache(&unwarmed)["index"], json!("rebuilt"), "{unwarmed}");
    assert!(cache(&unwarmed)["facts_derived"].as_u64().unwrap() > 0, "{unwarmed}");

    // The same answer, whoever built the model.
    assert!(!diagnostics(&first).is_empty());
    assert_eq!(diagnostics(&first), diagnostics(&unwarmed));
    assert_eq!(result_text(&first), result_text(&unwarmed));
    let stderr = warmed.server.stderr_with("worker warmed up with rigor_check");
    assert!(stderr.contains("worker warmed up with rigor_check"), "{stderr}");
    assert!(!cold.server.stderr().contains("warmed up"), "{}", cold.server.stderr());
}

#[test]
fn the_warm_up_checks_with_the_sessions_config() {
    // A model is kept per configuration: a warm-up without the session's
    // `--config` would build one the first call cannot use.
    let strict = fixture_project().join("strict.yml");
    let mut mcp = Mcp::start(&["--config", strict.to_str().unwrap()]);
    let first = mcp.call_tool("rigor_check", json!({"paths": []}));
    assert_eq!(cache(&first)["index"], json!("kept"), "{first}");
    let severities: Vec<&str> = first["structuredContent"]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["severity"].as_str().unwrap())
        .collect();
    assert!(!severities.is_empty() && severities.iter().all(|s| *s == "error"), "{severities:?}");
}

#[test]
fn a_warm_up_that_kills_the_worker_is_not_repeated() {
    let mut mcp = Mcp::start_with_env(&[], &[("RIGOR_FAILPOINT", "check:abort")]);
    // Other calls are served by the replacement, which is left unwarmed:
    // warming it would kill it again, and again.
    let explained = mcp.call_tool("rigor_explain", json!({"rule": "flow"}));
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(worker_starts(&mcp, 2), 2, "{}", mcp.server.stderr());
    let again = mcp.call_tool("rigor_explain", json!({"rule": "flow"}));
    assert_eq!(worker_pid(&explained), worker_pid(&again));
    let stderr = mcp.server.stderr_with("failed while warming up");
    assert!(stderr.contains("failed while warming up"), "{stderr}");
    assert!(!stderr.contains("worker warmed up"), "{stderr}");
    // A client's check still meets the fault, reported as such.
    let checked = mcp.call_tool("rigor_check", json!({"paths": []}));
    assert_eq!(checked["isError"], json!(true), "{checked}");
}

#[test]
fn a_hanging_warm_up_holds_a_waiting_call_no_longer_than_the_call_timeout() {
    let started = Instant::now();
    let mut mcp = Mcp::start_with_env(&["--call-timeout", "2"], &[("RIGOR_FAILPOINT", "check:hang")]);
    let id = mcp.send_request(
        "tools/call",
        json!({"name": "rigor_explain", "arguments": {"rule": "flow"}, "_meta": {"progressToken": "t"}}),
    );
    // It waits behind the warm-up, and is told why.
    let mut progress = Vec::new();
    let answer = loop {
        let message = mcp.server.receive();
        if message["id"] == id {
            break message;
        }
        if message["method"] == json!("notifications/progress") {
            progress.push(message["params"]["message"].as_str().unwrap_or_default().to_string());
        }
    };
    let waited = started.elapsed();
    assert!(answer["result"]["isError"] != json!(true), "{answer}");
    assert!(progress.iter().any(|message| message.contains("warming up")), "{progress:?}");
    assert!(waited >= Duration::from_secs(2), "answered after {waited:?}, before the warm-up timed out");
    assert!(waited < Duration::from_secs(30), "answered after {waited:?}");
    assert_eq!(worker_starts(&mcp, 2), 2, "{}", mcp.server.stderr());
    let stderr = mcp.server.stderr_with("failed while warming up (timed out");
    assert!(stderr.contains("failed while warming up (timed out"), "{stderr}");
}

#[test]
fn one_shot_calls_do_not_warm_up() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("trace.jsonl");
    let project = fixture_project();
    let output = Command::new(bin("rigor-mcp"))
        .args(["--root", project.to_str().unwrap(), "--trace", trace.to_str().unwrap()])
        .args(["call", "rigor_explain", "rule=flow"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let calls: Vec<Value> = std::fs::read_to_string(&trace)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .filter(|record| record["dir"] == json!("to-worker") && record["message"]["type"] == json!("call"))
        .map(|record| record["message"].clone())
        .collect();
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert_eq!(calls[0]["argv"][0], json!("explain"));
}

/// The calls the workers got, in order, from a `--trace` file: the argv
/// as one string, and whether the call was marked as a warm-up.
fn worker_calls(trace: &std::path::Path) -> Vec<(String, bool)> {
    std::fs::read_to_string(trace)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .filter(|record| record["dir"] == json!("to-worker") && record["message"]["type"] == json!("call"))
        .map(|record| {
            let argv: Vec<&str> =
                record["message"]["argv"].as_array().unwrap().iter().map(|a| a.as_str().unwrap()).collect();
            (argv.join(" "), record["message"]["warm_up"] == json!(true))
        })
        .collect()
}

#[test]
fn any_engine_that_names_a_warm_up_gets_it_first_and_again_after_new_code() {
    // The warm-up is the protocol's, not Rigor's: the fake engine names
    // one of its own tools.
    let dir = tempfile::tempdir().unwrap();
    let engine = fake_engine_in(dir.path());
    save_by_rename(&engine, "WARM_UP = None", r#"WARM_UP = {"tool": "echo", "arguments": {"text": "warm"}}"#);
    let trace = dir.path().join("trace.jsonl");
    let args = ["--engine", engine.to_str().unwrap(), "--watch", engine.to_str().unwrap(), "--trace"];
    let mut args = args.to_vec();
    args.push(trace.to_str().unwrap());
    let mut mcp = Mcp::start_in(dir.path(), &args, &[]);
    let first = mcp.call_tool("echo", json!({"text": "x"}));
    assert_eq!(result_text(&first), "v1:x");
    // New code: the gateway restarts the worker at the save, and warms
    // the new one up while no call waits.
    save_by_rename(&engine, "ANSWER = \"v1\"", "ANSWER = \"v2\"");
    let deadline = Instant::now() + Duration::from_secs(20);
    while worker_calls(&trace).iter().filter(|(_, warm)| *warm).count() < 2 {
        assert!(Instant::now() < deadline, "no second warm-up: {:?}", worker_calls(&trace));
        std::thread::sleep(Duration::from_millis(20));
    }
    let second = mcp.call_tool("echo", json!({"text": "y"}));
    assert_eq!(result_text(&second), "v2:y");
    let calls = worker_calls(&trace);
    let expected = [("echo -- warm", true), ("echo -- x", false), ("echo -- warm", true), ("echo -- y", false)];
    let expected: Vec<(String, bool)> = expected.iter().map(|(argv, warm)| (argv.to_string(), *warm)).collect();
    assert_eq!(calls, expected);
}

#[test]
fn a_warm_up_the_worker_cannot_take_is_logged_and_skipped() {
    for warm_up in [r#"{"tool": 5}"#, r#"{"tool": "no_such_tool"}"#, r#"{"tool": "echo", "arguments": {"bogus": 1}}"#] {
        let dir = tempfile::tempdir().unwrap();
        let engine = fake_engine_in(dir.path());
        save_by_rename(&engine, "WARM_UP = None", &format!("WARM_UP = {warm_up}"));
        let trace = dir.path().join("trace.jsonl");
        let mut mcp =
            Mcp::start_in(dir.path(), &["--engine", engine.to_str().unwrap(), "--trace", trace.to_str().unwrap()], &[]);
        // The worker serves as if it had named none.
        assert_eq!(result_text(&mcp.call_tool("echo", json!({"text": "x"}))), "v1:x");
        let calls = worker_calls(&trace);
        assert_eq!(calls.len(), 1, "{warm_up}: {calls:?}");
        let stderr = mcp.server.stderr_with("warm");
        assert!(stderr.contains("warm"), "{warm_up}: {stderr}");
    }
}
