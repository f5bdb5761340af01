//! Hot reload: an edit to the engine takes effect on the very next call
//! (issue 3). The engine here is the Python fake engine, copied into a
//! temporary directory and edited like a developer would.

use std::path::Path;
use std::time::{Duration, Instant};

use protocol_tests::{fake_engine_in, result_text, save_by_rename, worker_pid, Mcp};
use serde_json::{json, Value};

/// Rewrites the engine as an editor that saves by rename would.
fn edit(engine: &Path, from: &str, to: &str) {
    save_by_rename(engine, from, to);
}

fn echo(mcp: &mut Mcp, text: &str) -> Value {
    mcp.call_tool("echo", json!({"text": text}))
}

fn start(dir: &Path, extra: &[&str]) -> (Mcp, std::path::PathBuf) {
    let engine = fake_engine_in(dir);
    let mut args = vec!["--engine", engine.to_str().unwrap()];
    args.extend_from_slice(extra);
    (Mcp::start_in(dir, &args, &[]), engine)
}

#[test]
fn an_edit_is_answered_by_the_new_code_on_the_very_next_call() {
    let dir = tempfile::tempdir().unwrap();
    let engine_path = dir.path().join("fake-engine");
    let (mut mcp, engine) = start(dir.path(), &["--watch", engine_path.to_str().unwrap()]);
    assert_eq!(result_text(&echo(&mut mcp, "x")), "v1:x");
    let mut previous = "\"v1\"".to_string();
    for version in 2..=6 {
        let next = format!("\"v{version}\"");
        edit(&engine, &format!("ANSWER = {previous}"), &format!("ANSWER = {next}"));
        // At once: no sleep between the save and the call.
        let result = echo(&mut mcp, "x");
        assert_eq!(result_text(&result), format!("v{version}:x"), "{result}");
        assert!(result["_meta"]["rigor/worker"]["engine"].as_str().unwrap().contains(&format!("fake-v{version}")));
        previous = next;
    }
    mcp.server.assert_stdout_is_protocol_only();
}

#[test]
fn without_watch_a_new_engine_executable_is_still_picked_up() {
    let dir = tempfile::tempdir().unwrap();
    let (mut mcp, engine) = start(dir.path(), &[]);
    let first = echo(&mut mcp, "x");
    assert_eq!(result_text(&first), "v1:x");
    edit(&engine, "ANSWER = \"v1\"", "ANSWER = \"v2\"");
    let second = echo(&mut mcp, "x");
    assert_eq!(result_text(&second), "v2:x");
    assert_ne!(worker_pid(&first), worker_pid(&second));
}

#[test]
fn with_no_reload_the_running_worker_stays() {
    let dir = tempfile::tempdir().unwrap();
    let (mut mcp, engine) = start(dir.path(), &["--no-reload"]);
    assert_eq!(result_text(&echo(&mut mcp, "x")), "v1:x");
    edit(&engine, "ANSWER = \"v1\"", "ANSWER = \"v2\"");
    assert_eq!(result_text(&echo(&mut mcp, "x")), "v1:x");
}

/// A "build" that checks the script compiles, and counts its runs.
fn checked_build() -> String {
    "echo built >> builds.log && python3 -m py_compile fake-engine".to_string()
}

fn builds(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("builds.log")).unwrap_or_default().lines().count()
}

#[test]
fn a_failed_build_keeps_the_last_good_worker_and_every_answer_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let engine_path = dir.path().join("fake-engine");
    let build = checked_build();
    let (mut mcp, engine) = start(dir.path(), &["--watch", engine_path.to_str().unwrap(), "--build", &build]);
    assert_eq!(result_text(&echo(&mut mcp, "x")), "v1:x");
    assert_eq!(builds(dir.path()), 1, "built once at start-up");

    edit(&engine, "ANSWER = \"v1\"", "ANSWER = \"v2");
    for _ in 0..2 {
        let result = echo(&mut mcp, "x");
        assert_eq!(result["isError"], json!(false));
        let notice = result["content"][0]["text"].as_str().unwrap();
        assert!(notice.starts_with("NOTICE: The engine's rebuild failed"), "{result}");
        let line = std::fs::read_to_string(&engine).unwrap().lines().position(|l| l.starts_with("ANSWER")).unwrap() + 1;
        assert!(
            notice.contains(&format!("fake-engine:{line}: SyntaxError")),
            "the first error with file:line: {notice}"
        );
        assert_eq!(result["content"][1]["text"], json!("v1:x"), "the last good worker answers");
        assert!(result["_meta"]["rigor/worker"]["notice"].is_string());
    }
    assert_eq!(builds(dir.path()), 2, "a known-broken state is not rebuilt on every call");

    edit(&engine, "ANSWER = \"v2", "ANSWER = \"v3\"");
    let fixed = echo(&mut mcp, "x");
    assert_eq!(result_text(&fixed), "v3:x", "answers are normal again: {fixed}");
    assert!(fixed["_meta"]["rigor/worker"].get("notice").is_none());
    assert!(fixed["_meta"]["rigor/worker"]["reload"]["build_ms"].as_f64().unwrap() > 0.0);
}

#[test]
fn a_burst_of_saves_causes_one_rebuild() {
    let dir = tempfile::tempdir().unwrap();
    let engine_path = dir.path().join("fake-engine");
    let build = checked_build();
    let (mut mcp, engine) = start(dir.path(), &["--watch", engine_path.to_str().unwrap(), "--build", &build]);
    assert_eq!(result_text(&echo(&mut mcp, "x")), "v1:x");
    let mut previous = "v1".to_string();
    for step in 0..15 {
        let next = format!("burst{step}");
        edit(&engine, &format!("ANSWER = \"{previous}\""), &format!("ANSWER = \"{next}\""));
        previous = next;
        std::thread::sleep(Duration::from_millis(5));
    }
    std::thread::sleep(Duration::from_millis(800));
    assert_eq!(result_text(&echo(&mut mcp, "x")), "burst14:x");
    // One rebuild for the burst; on a loaded machine a stall inside the
    // burst longer than the debounce window may split it once, never more.
    let builds = builds(dir.path());
    assert!((2..=3).contains(&builds), "start-up build plus one for the whole burst, got {builds} builds");
}

#[test]
fn calls_made_during_a_rebuild_wait_for_it_and_get_progress() {
    let dir = tempfile::tempdir().unwrap();
    let engine_path = dir.path().join("fake-engine");
    let build = format!("sleep 1 && {}", checked_build());
    let (mut mcp, engine) = start(dir.path(), &["--watch", engine_path.to_str().unwrap(), "--build", &build]);
    assert_eq!(result_text(&echo(&mut mcp, "x")), "v1:x");
    edit(&engine, "ANSWER = \"v1\"", "ANSWER = \"v2\"");
    let with_progress = mcp.send_request(
        "tools/call",
        json!({"name": "echo", "arguments": {"text": "a"}, "_meta": {"progressToken": "tok-1"}}),
    );
    let plain = mcp.send_request("tools/call", json!({"name": "echo", "arguments": {"text": "b"}}));
    let mut progress = Vec::new();
    let mut answers = std::collections::BTreeMap::new();
    while answers.len() < 2 {
        let message = mcp.server.receive();
        if message["method"] == json!("notifications/progress") {
            progress.push(message["params"].clone());
        } else {
            answers.insert(message["id"].as_i64().unwrap(), message);
        }
    }
    assert_eq!(result_text(&answers[&with_progress.as_i64().unwrap()]["result"]), "v2:a");
    assert_eq!(result_text(&answers[&plain.as_i64().unwrap()]["result"]), "v2:b");
    assert!(!progress.is_empty(), "progress was reported");
    assert!(progress.iter().all(|p| p["progressToken"] == json!("tok-1")));
    assert!(progress.iter().any(|p| p["message"].as_str().unwrap().contains("rebuilding engine")), "{progress:?}");
    let counters: Vec<f64> = progress.iter().map(|p| p["progress"].as_f64().unwrap()).collect();
    assert!(counters.windows(2).all(|w| w[1] > w[0]), "progress increases: {counters:?}");
}

#[test]
fn the_rebuild_starts_at_the_save_not_at_the_next_call() {
    let dir = tempfile::tempdir().unwrap();
    let engine_path = dir.path().join("fake-engine");
    let build = format!("sleep 1 && {}", checked_build());
    let (mut mcp, engine) = start(dir.path(), &["--watch", engine_path.to_str().unwrap(), "--build", &build]);
    assert_eq!(result_text(&echo(&mut mcp, "x")), "v1:x");
    edit(&engine, "ANSWER = \"v1\"", "ANSWER = \"v2\"");
    std::thread::sleep(Duration::from_millis(1600));
    let started = Instant::now();
    assert_eq!(result_text(&echo(&mut mcp, "x")), "v2:x");
    assert!(started.elapsed() < Duration::from_millis(700), "the build had already run in the background");
}

#[test]
fn a_catalogue_change_sends_list_changed_and_tools_list_tells_the_truth() {
    let dir = tempfile::tempdir().unwrap();
    let engine_path = dir.path().join("fake-engine");
    let (mut mcp, engine) = start(dir.path(), &["--watch", engine_path.to_str().unwrap()]);
    let before = mcp.tool_names();
    assert!(!before.contains(&"added".to_string()));
    edit(&engine, "EXTRA_TOOLS = []", "EXTRA_TOOLS = [\"added\"]");
    // The watcher restarts the worker without any call; the client hears of it.
    let notification = mcp.server.receive();
    assert_eq!(notification["method"], json!("notifications/tools/list_changed"), "{notification}");
    let after = mcp.tool_names();
    assert!(after.contains(&"added".to_string()), "{after:?}");
    assert_eq!(result_text(&mcp.call_tool("added", json!({}))), "v1:added");
}

#[test]
fn tools_list_alone_reflects_an_edit_for_clients_that_ignore_notifications() {
    let dir = tempfile::tempdir().unwrap();
    // No --watch: only the executable is tracked, and nothing watches in
    // the background for a client that never calls a tool.
    let (mut mcp, engine) = start(dir.path(), &[]);
    assert!(!mcp.tool_names().contains(&"added".to_string()));
    edit(&engine, "EXTRA_TOOLS = []", "EXTRA_TOOLS = [\"added\"]");
    let names = mcp.tool_names();
    assert!(names.contains(&"added".to_string()), "{names:?}\n{}", mcp.server.stderr());
}

#[test]
fn a_new_engine_that_cannot_start_leaves_the_previous_worker_serving() {
    let dir = tempfile::tempdir().unwrap();
    let engine_path = dir.path().join("fake-engine");
    let (mut mcp, engine) = start(dir.path(), &["--watch", engine_path.to_str().unwrap()]);
    let first = echo(&mut mcp, "x");
    edit(&engine, "def main():\n", "def main():\n    sys.exit(5)\n");
    let result = echo(&mut mcp, "x");
    assert_eq!(result["content"][1]["text"], json!("v1:x"), "{result}");
    assert!(result["content"][0]["text"].as_str().unwrap().contains("failed to start"), "{result}");
    assert_eq!(worker_pid(&result), worker_pid(&first));
    edit(&engine, "    sys.exit(5)\n", "");
    assert_eq!(result_text(&echo(&mut mcp, "x")), "v1:x");
}
