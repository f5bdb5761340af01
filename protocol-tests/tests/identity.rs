//! The engine owns its identity: the hello's `server` names the server
//! clients see, its instructions, the variables its worker gets and the
//! `_meta` key of results; the gateway knows nothing of Rigor by itself.

use protocol_tests::{fake_engine_in, fixture_project, result_text, worker_pid, Mcp};
use serde_json::json;

#[test]
fn an_engine_that_says_who_it_is_is_that_server_to_clients() {
    let dir = tempfile::tempdir().unwrap();
    let engine = fake_engine_in(dir.path());
    let script = std::fs::read_to_string(&engine).unwrap();
    let identity = r#"SERVER = {"name": "fake-mcp", "title": "Fake Engine", "version": "9.9", "instructions": "Call echo to hear yourself.", "env_prefix": "FAKE_", "meta_key": "fake/worker"}"#;
    std::fs::write(&engine, script.replacen("SERVER = None", identity, 1)).unwrap();
    let project = fixture_project();
    let env = [("FAKE_SETTING", "on"), ("RIGOR_SETTING", "not for this engine")];
    let args = ["--root", project.to_str().unwrap(), "--engine", engine.to_str().unwrap()];
    let mut mcp = Mcp::start_raw_with_env(&args, &project, &env);

    let init = mcp.initialize("2025-11-25");
    assert_eq!(init["serverInfo"], json!({"name": "fake-mcp", "title": "Fake Engine", "version": "9.9"}));
    assert_eq!(init["instructions"], json!("Call echo to hear yourself."));

    let echoed = mcp.call_tool("echo", json!({"text": "hi"}));
    assert_eq!(result_text(&echoed), "v1:hi");
    assert!(echoed["_meta"].get("rigor/worker").is_none(), "{echoed}");
    let pid = echoed["_meta"]["fake/worker"]["pid"].as_u64().unwrap_or_else(|| panic!("{echoed}"));
    assert!(pid > 0);

    let lookup = |mcp: &mut Mcp, name: &str| result_text(&mcp.call_tool("env", json!({"name": name}))).to_string();
    assert_eq!(lookup(&mut mcp, "FAKE_SETTING"), "on", "the engine's own prefix is passed");
    assert_eq!(lookup(&mut mcp, "RIGOR_SETTING"), "<unset>", "Rigor's is not");
    mcp.server.assert_stdout_is_protocol_only();
}

#[test]
fn an_engine_that_says_nothing_gets_rigors_identity() {
    let dir = tempfile::tempdir().unwrap();
    let engine = fake_engine_in(dir.path());
    let project = fixture_project();
    let args = ["--root", project.to_str().unwrap(), "--engine", engine.to_str().unwrap()];
    let mut mcp = Mcp::start_raw_with_env(&args, &project, &[("RIGOR_SETTING", "on")]);
    let init = mcp.initialize("2025-11-25");
    assert_eq!(init["serverInfo"]["name"], json!("rigor-mcp"));
    assert!(init["instructions"].as_str().unwrap().contains("rigor_check"));
    let echoed = mcp.call_tool("env", json!({"name": "RIGOR_SETTING"}));
    assert_eq!(result_text(&echoed), "on");
    assert!(worker_pid(&echoed) > 0, "results carry rigor/worker");
}
