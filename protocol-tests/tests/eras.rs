//! MCP 2026-07-28 (stateless: `server/discover`, per-request envelopes,
//! `resultType`, `subscriptions/listen`) beside the handshake era.

use std::time::Duration;

use protocol_tests::{fake_engine_in, fixture_project, result_text, Mcp, TOOL_NAMES};
use serde_json::{json, Value};

const VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";
const CAPABILITIES_KEY: &str = "io.modelcontextprotocol/clientCapabilities";
const SUBSCRIPTION_KEY: &str = "io.modelcontextprotocol/subscriptionId";

fn envelope(mut params: Value) -> Value {
    params["_meta"] = json!({VERSION_KEY: "2026-07-28", CAPABILITIES_KEY: {}, "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"}});
    params
}

fn raw() -> Mcp {
    Mcp::start_raw(&[], &fixture_project())
}

#[test]
fn discover_then_stateless_requests_without_initialize() {
    let mut mcp = raw();
    let discover = mcp.request_ok("server/discover", envelope(json!({})));
    assert_eq!(discover["supportedVersions"], json!(["2026-07-28"]));
    assert_eq!(discover["capabilities"]["tools"]["listChanged"], json!(true));
    assert_eq!(discover["resultType"], json!("complete"));
    assert_eq!(discover["ttlMs"], json!(0));
    assert_eq!(discover["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], json!("rigor-mcp"));

    let list = mcp.request_ok("tools/list", envelope(json!({})));
    assert_eq!(list["tools"].as_array().unwrap().len(), TOOL_NAMES.len());
    assert_eq!(
        (list["resultType"].clone(), list["ttlMs"].clone(), list["cacheScope"].clone()),
        (json!("complete"), json!(0), json!("private"))
    );

    let call = mcp.request_ok("tools/call", envelope(json!({"name": "rigor_check", "arguments": {"paths": ["lib"]}})));
    assert_eq!(call["resultType"], json!("complete"));
    assert_eq!(call["structuredContent"]["error_count"], json!(1));
    assert!(
        call["_meta"]["rigor/worker"]["pid"].is_u64()
            && call["_meta"]["io.modelcontextprotocol/serverInfo"].is_object()
    );
    assert!(call.get("ttlMs").is_none(), "a call result is not cacheable");
}

#[test]
fn a_stateless_connection_holds_every_request_to_its_rules() {
    let mut mcp = raw();
    mcp.request_ok("tools/list", envelope(json!({})));
    let missing = mcp.request("tools/list", json!({}));
    assert_eq!(missing["error"]["code"], json!(-32602), "{missing}");
    let mut unsupported = envelope(json!({}));
    unsupported["_meta"][VERSION_KEY] = json!("2031-01-01");
    let answer = mcp.request("tools/list", unsupported);
    assert_eq!(answer["error"]["code"], json!(-32022));
    assert_eq!(answer["error"]["data"], json!({"supported": ["2026-07-28"], "requested": "2031-01-01"}));
    let initialize = mcp.request(
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "x", "version": "1"}}),
    );
    assert_eq!(initialize["error"]["code"], json!(-32022), "{initialize}");
    assert_eq!(initialize["error"]["data"]["requested"], json!("2025-06-18"));
}

#[test]
fn an_unsupported_first_envelope_is_refused_and_decides_nothing() {
    let mut mcp = raw();
    let mut params = envelope(json!({}));
    params["_meta"][VERSION_KEY] = json!("2099-01-01");
    let answer = mcp.request("server/discover", params);
    assert_eq!(answer["error"]["code"], json!(-32022));
    mcp.initialize("2025-11-25");
    assert_eq!(mcp.tool_names(), TOOL_NAMES);
}

#[test]
fn a_handshake_connection_refuses_envelopes_and_discover_without_one_is_harmless() {
    let mut mcp = raw();
    let probe = mcp.request_ok("server/discover", json!({}));
    assert_eq!(probe["supportedVersions"], json!(["2026-07-28"]));
    mcp.initialize("2025-06-18");
    let enveloped = mcp.request("tools/list", envelope(json!({})));
    assert_eq!(enveloped["error"]["code"], json!(-32600), "{enveloped}");
    assert_eq!(mcp.tool_names(), TOOL_NAMES, "handshake requests still work");
}

#[test]
fn listen_streams_carry_list_changes_and_close_with_the_session() {
    let dir = tempfile::tempdir().unwrap();
    let engine = fake_engine_in(dir.path());
    let mut mcp = Mcp::start_raw(
        &[
            "--root",
            dir.path().to_str().unwrap(),
            "--engine",
            engine.to_str().unwrap(),
            "--watch",
            engine.to_str().unwrap(),
        ],
        dir.path(),
    );
    // The worker is up before the edit, so the edit is a change.
    mcp.request_ok("tools/list", envelope(json!({})));
    let listen = mcp.send_request(
        "subscriptions/listen",
        envelope(json!({"notifications": {"toolsListChanged": true, "promptsListChanged": true}})),
    );
    let ack = mcp.server.receive();
    assert_eq!(ack["method"], json!("notifications/subscriptions/acknowledged"), "{ack}");
    assert_eq!(ack["params"]["notifications"], json!({"toolsListChanged": true}), "only what we honour");
    assert_eq!(ack["params"]["_meta"][SUBSCRIPTION_KEY], listen);

    let text = std::fs::read_to_string(&engine).unwrap().replacen("EXTRA_TOOLS = []", "EXTRA_TOOLS = [\"added\"]", 1);
    std::fs::write(&engine, text).unwrap();
    let changed = mcp.server.receive();
    assert_eq!(changed["method"], json!("notifications/tools/list_changed"), "{changed}");
    assert_eq!(changed["params"]["_meta"][SUBSCRIPTION_KEY], listen, "stamped with the stream");
    let names = mcp.request_ok("tools/list", envelope(json!({})));
    assert!(names["tools"].as_array().unwrap().iter().any(|t| t["name"] == json!("added")));

    // Graceful close: the stream's result is its last frame.
    mcp.server.close_stdin();
    let closing = mcp.server.answer_to(&listen);
    assert_eq!(closing["result"]["_meta"][SUBSCRIPTION_KEY], listen, "{closing}");
    assert_eq!(closing["result"]["resultType"], json!("complete"));
}

#[test]
fn a_cancelled_listen_stream_ends_without_an_answer() {
    let mut mcp = raw();
    let listen =
        mcp.send_request("subscriptions/listen", envelope(json!({"notifications": {"toolsListChanged": true}})));
    assert_eq!(mcp.server.receive()["method"], json!("notifications/subscriptions/acknowledged"));
    mcp.server.send(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": listen}}));
    mcp.server.close_stdin();
    assert!(mcp.server.receive_within(Duration::from_secs(2)).is_none(), "nothing more after a cancelled listen");
    assert_eq!(result_text(&json!({"content": [{"text": "x"}]})), "x");
}
