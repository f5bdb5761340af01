//! The MCP lifecycle as a client sees it: initialize, version negotiation,
//! ids, and requests that come too early or twice.

use protocol_tests::{fixture_project, Mcp};
use serde_json::json;

#[test]
fn every_supported_version_is_echoed_and_others_get_the_newest() {
    let cases = [
        ("2025-11-25", "2025-11-25"),
        ("2025-06-18", "2025-06-18"),
        ("2025-03-26", "2025-03-26"),
        ("2024-11-05", "2024-11-05"),
        ("2099-01-01", "2025-11-25"),
    ];
    for (requested, agreed) in cases {
        let mut mcp = Mcp::start_raw(&[], &fixture_project());
        let result = mcp.initialize(requested);
        assert_eq!(result["protocolVersion"], json!(agreed), "requested {requested}");
        assert_eq!(result["serverInfo"]["name"], json!("rigor-mcp"));
        assert_eq!(result["capabilities"]["tools"]["listChanged"], json!(true));
        mcp.server.assert_stdout_is_protocol_only();
    }
}

#[test]
fn ids_zero_and_strings_are_echoed_exactly() {
    let mut mcp = Mcp::start_raw(&[], &fixture_project());
    for id in [json!(0), json!("abc"), json!(""), json!(-7), json!("server-discover-probe-1")] {
        mcp.server.send(&json!({"jsonrpc": "2.0", "id": id, "method": "ping"}));
        let answer = mcp.server.answer_to(&id);
        assert_eq!(answer["result"], json!({}), "{answer}");
    }
}

#[test]
fn a_byte_order_mark_before_the_first_message_is_tolerated() {
    let mut mcp = Mcp::start_raw(&[], &fixture_project());
    let mut line = b"\xEF\xBB\xBF".to_vec();
    line.extend_from_slice(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bom", "version": "1"}}})
            .to_string()
            .as_bytes(),
    );
    line.push(b'\n');
    mcp.server.send_raw(&line);
    let answer = mcp.server.answer_to(&json!(1));
    assert_eq!(answer["result"]["protocolVersion"], json!("2025-06-18"), "{answer}");
}

#[test]
fn requests_before_initialize_are_refused_but_ping_works() {
    let mut mcp = Mcp::start_raw(&[], &fixture_project());
    let ping = mcp.request("ping", json!({}));
    assert_eq!(ping["result"], json!({}));
    for method in ["tools/list", "tools/call"] {
        let answer = mcp.request(method, json!({"name": "rigor_explain"}));
        assert_eq!(answer["error"]["code"], json!(-32600), "{answer}");
        assert!(answer["error"]["message"].as_str().unwrap().contains("initialize"), "{answer}");
    }
    // Unknown methods are -32601 at once, even before initialize, so
    // clients probing newer protocol methods fall back without waiting.
    let probe = mcp.request("server/discover", json!({}));
    assert_eq!(probe["error"]["code"], json!(-32601), "{probe}");
}

#[test]
fn a_second_initialize_is_an_error_and_the_session_continues() {
    let mut mcp = Mcp::start(&[]);
    let again = mcp.request(
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "x", "version": "1"}}),
    );
    assert_eq!(again["error"]["code"], json!(-32600), "{again}");
    assert_eq!(
        mcp.tool_names(),
        [
            "rigor_check",
            "rigor_triage",
            "rigor_explain",
            "rigor_type_of",
            "rigor_annotate",
            "rigor_coverage",
            "rigor_sig_gen"
        ]
    );
}

#[test]
fn initialize_without_a_version_is_invalid_params() {
    let mut mcp = Mcp::start_raw(&[], &fixture_project());
    let answer = mcp.request("initialize", json!({"capabilities": {}}));
    assert_eq!(answer["error"]["code"], json!(-32602), "{answer}");
    let answer = mcp.request("initialize", json!([1, 2]));
    assert_eq!(answer["error"]["code"], json!(-32602), "{answer}");
}
