//! From the handshake-era spec: logging/setLevel with notifications/message
//! for gateway events, and tools/list pagination.

use protocol_tests::{fake_engine_in, Mcp};
use serde_json::json;

fn fake(extra: &[&str]) -> (Mcp, tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let engine = fake_engine_in(dir.path());
    let mut args = vec!["--engine", engine.to_str().unwrap(), "--watch", engine.to_str().unwrap()];
    args.extend_from_slice(extra);
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mcp = Mcp::start_in(dir.path(), &args, &[]);
    (mcp, dir, engine)
}

fn edit(engine: &std::path::Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(engine).unwrap();
    std::fs::write(engine, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn set_level_chooses_which_gateway_events_arrive_as_log_messages() {
    let (mut mcp, _dir, engine) = fake(&[]);
    assert_eq!(mcp.request("logging/setLevel", json!({"level": "loud"}))["error"]["code"], json!(-32602));
    mcp.request_ok("logging/setLevel", json!({"level": "notice"}));
    edit(&engine, "ANSWER = \"v1\"", "ANSWER = \"v2\"");
    assert_eq!(mcp.call_tool("echo", json!({"text": "x"}))["content"][0]["text"], json!("v2:x"));
    let _ = mcp.request_ok("tools/list", json!({}));
    let logs = mcp.server.logs().to_vec();
    let reloaded = logs
        .iter()
        .find(|l| l["params"]["data"].as_str().unwrap_or("").contains("engine reloaded"))
        .unwrap_or_else(|| panic!("{logs:?}"));
    assert_eq!(reloaded["params"]["level"], json!("notice"));
    assert_eq!(reloaded["params"]["logger"], json!("rigor-mcp"));
    assert!(
        logs.iter().all(|l| l["params"]["level"] != json!("info") && l["params"]["level"] != json!("debug")),
        "nothing below notice: {logs:?}"
    );
}

#[test]
fn by_default_only_failures_are_logged_to_the_client() {
    let (mut mcp, _dir, engine) = fake(&[]);
    edit(&engine, "ANSWER = \"v1\"", "ANSWER = \"v2\"");
    mcp.call_tool("echo", json!({"text": "x"}));
    let _ = mcp.call_tool("close", json!({}));
    let _ = mcp.request_ok("tools/list", json!({}));
    let logs = mcp.server.logs();
    assert!(logs.iter().all(|l| l["params"]["level"] == json!("warning")), "{logs:?}");
    assert!(logs.iter().any(|l| l["params"]["data"].as_str().unwrap().contains("failed during a call")), "{logs:?}");
}

#[test]
fn tools_list_pages_follow_next_cursor() {
    let (mut mcp, _dir, _engine) = fake(&["--tools-page-size", "3"]);
    let mut names = Vec::new();
    let mut cursor = serde_json::Value::Null;
    let mut pages = 0;
    loop {
        let page = mcp.request_ok("tools/list", json!({"cursor": cursor}));
        pages += 1;
        let tools = page["tools"].as_array().unwrap();
        assert!(tools.len() <= 3);
        names.extend(tools.iter().map(|t| t["name"].as_str().unwrap().to_string()));
        match page.get("nextCursor") {
            Some(next) => cursor = next.clone(),
            None => break,
        }
    }
    assert_eq!(pages, 3);
    assert_eq!(names, ["echo", "sleep", "quick_sleep", "env", "close", "spawn_child", "die_after", "cat"]);
    for bad in [json!("nonsense"), json!(5), json!("tools:99")] {
        let answer = mcp.request("tools/list", json!({"cursor": bad}));
        assert_eq!(answer["error"]["code"], json!(-32602), "{bad}: {answer}");
    }
}
