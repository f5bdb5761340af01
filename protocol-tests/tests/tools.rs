//! tools/list and tools/call through the real gateway and the real engine.

use protocol_tests::{diagnostics, fixtures, result_text, worker_pid, Mcp, TOOL_NAMES};
use serde_json::{json, Value};

#[test]
fn tools_list_is_the_worker_catalogue_without_private_fields() {
    let mut mcp = Mcp::start(&[]);
    let result = mcp.request_ok("tools/list", json!({}));
    let tools = result["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, TOOL_NAMES);
    for tool in tools {
        assert_eq!(tool["inputSchema"]["type"], json!("object"), "{tool}");
        assert!(tool["description"].as_str().unwrap().len() > 40, "{tool}");
        assert_eq!(
            tool["annotations"],
            json!({"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false})
        );
        assert!(tool.get("argv").is_none(), "private argv template leaked: {tool}");
    }
    assert_eq!(tools[0]["inputSchema"]["required"], json!(["paths"]));
}

#[test]
fn rigor_check_returns_real_diagnostics_as_text_and_structured_content() {
    let mut mcp = Mcp::start(&[]);
    let result = mcp.call_tool("rigor_check", json!({"paths": ["lib"]}));
    // Diagnostics found (exit 1) is a normal result, not an error.
    assert_eq!(result["isError"], json!(false), "{result}");
    let structured = &result["structuredContent"];
    assert_eq!(structured["error_count"], json!(1));
    assert_eq!(structured["success"], json!(false));
    let text: Value = serde_json::from_str(result_text(&result)).unwrap();
    assert_eq!(&text, structured);
    let found = diagnostics(&result);
    let expected = [
        ("flow.duplicate-hash-key", 3, 47),
        ("flow.always-raises", 11, 9),
        ("flow.return-in-ensure", 17, 5),
        ("flow.unreachable-branch", 22, 7),
        ("flow.dead-assignment", 28, 5),
    ];
    let got: Vec<(&str, u64, u64)> = found
        .iter()
        .map(|(rule, path, line, column)| {
            assert_eq!(path, "lib/bugs.rb");
            (rule.as_str(), *line, *column)
        })
        .collect();
    assert_eq!(got, expected);
    assert_eq!(result["_meta"]["rigor/worker"]["exit_code"], json!(1));
}

#[test]
fn a_clean_file_exits_zero_and_is_not_an_error() {
    let mut mcp = Mcp::start(&[]);
    let result = mcp.call_tool("rigor_check", json!({"paths": ["lib/clean.rb"]}));
    assert_eq!(result["isError"], json!(false));
    assert_eq!(result["structuredContent"]["diagnostics"], json!([]));
    assert_eq!(result["_meta"]["rigor/worker"]["exit_code"], json!(0));
}

#[test]
fn a_missing_file_is_a_diagnostic_not_a_tool_error() {
    let mut mcp = Mcp::start(&[]);
    let result = mcp.call_tool("rigor_check", json!({"paths": ["lib/nope.rb"]}));
    assert_eq!(result["isError"], json!(false), "{result}");
    let diagnostic = &result["structuredContent"]["diagnostics"][0];
    assert_eq!(diagnostic["rule"], Value::Null);
    assert_eq!(diagnostic["path"], json!("lib/nope.rb"));
    assert!(diagnostic["message"].as_str().unwrap().contains("no such file"), "{diagnostic}");
}

#[test]
fn rigor_explain_lists_rules_and_an_unknown_rule_is_a_tool_error() {
    let mut mcp = Mcp::start(&[]);
    let result = mcp.call_tool("rigor_explain", json!({}));
    assert_eq!(result["isError"], json!(false));
    let rules: Value = serde_json::from_str(result_text(&result)).unwrap();
    let ids: Vec<&str> = rules.as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "assert.type-mismatch",
            "call.argument-type-mismatch",
            "call.possible-nil-receiver",
            "call.raise-non-exception",
            "call.self-undefined-method",
            "call.undefined-method",
            "call.unresolved-toplevel",
            "call.wrong-arity",
            "def.ivar-write-mismatch",
            "def.method-visibility-mismatch",
            "def.override-param-narrowed",
            "def.override-return-widened",
            "def.override-visibility-reduced",
            "def.return-type-mismatch",
            "dump.type",
            "flow.always-raises",
            "flow.always-truthy-condition",
            "flow.dead-assignment",
            "flow.duplicate-hash-key",
            "flow.return-in-ensure",
            "flow.shadowed-rescue-clause",
            "flow.unreachable-branch",
            "flow.unreachable-clause",
            "static.value-use.void",
            "suppression.empty",
            "suppression.unknown-marker",
            "suppression.unknown-rule"
        ]
    );
    let one = mcp.call_tool("rigor_explain", json!({"rule": "dead-assignment"}));
    let one: Value = serde_json::from_str(result_text(&one)).unwrap();
    assert_eq!(one[0]["id"], json!("flow.dead-assignment"));

    // Exit 64 (usage) is the one engine outcome that is an error.
    let unknown = mcp.call_tool("rigor_explain", json!({"rule": "flow.no-such-rule"}));
    assert_eq!(unknown["isError"], json!(true), "{unknown}");
    assert!(result_text(&unknown).contains("flow.no-such-rule"), "{unknown}");
    assert_eq!(unknown["_meta"]["rigor/worker"]["exit_code"], json!(64));
}

#[test]
fn rigor_triage_summarises_the_same_diagnostics() {
    let mut mcp = Mcp::start(&[]);
    let result = mcp.call_tool("rigor_triage", json!({"paths": ["lib"], "top": 1}));
    assert_eq!(result["isError"], json!(false), "{result}");
    let triage = &result["structuredContent"];
    assert_eq!(triage["summary"], json!({"total": 5, "error": 1, "warning": 4, "info": 0}));
    assert_eq!(
        triage["hotspots"],
        json!([{"file": "lib/bugs.rb", "count": 5, "by_rule": {
            "flow.always-raises": 1, "flow.dead-assignment": 1, "flow.duplicate-hash-key": 1, "flow.return-in-ensure": 1, "flow.unreachable-branch": 1
        }}])
    );
    assert_eq!(triage["hints"][0]["id"], json!("genuine-bugs"));
}

#[test]
fn arguments_that_fail_the_schema_get_the_validators_message() {
    let mut mcp = Mcp::start(&[]);
    let cases = [
        (json!({"paths": "lib"}), "/paths"),
        (json!({}), "\"paths\" is a required property"),
        (json!({"paths": ["lib"], "colour": "red"}), "colour"),
    ];
    for (arguments, fragment) in cases {
        let result = mcp.call_tool("rigor_check", arguments.clone());
        assert_eq!(result["isError"], json!(true), "{arguments}: {result}");
        let text = result_text(&result);
        assert!(text.contains(fragment) && text.contains("rigor_check"), "{arguments}: {text}");
    }
    let triage = mcp.call_tool("rigor_triage", json!({"top": 0}));
    assert_eq!(triage["isError"], json!(true), "{triage}");
}

#[test]
fn malformed_tool_calls_are_invalid_params() {
    let mut mcp = Mcp::start(&[]);
    let cases = [
        json!({"name": "rigor_nope", "arguments": {}}),
        json!({"arguments": {}}),
        json!({"name": 42}),
        json!({"name": "rigor_check", "arguments": [1]}),
        json!([1, 2]),
    ];
    for params in cases {
        let answer = mcp.request("tools/call", params.clone());
        assert_eq!(answer["error"]["code"], json!(-32602), "{params}: {answer}");
    }
    let unknown = mcp.request("tools/call", json!({"name": "rigor_nope"}));
    assert!(
        unknown["error"]["message"].as_str().unwrap().contains("rigor_check"),
        "lists the available tools: {unknown}"
    );
}

#[test]
fn a_value_never_becomes_a_flag() {
    let mut mcp = Mcp::start(&[]);
    // After `--` in the template a dash-leading path is a path.
    let result = mcp.call_tool("rigor_check", json!({"paths": ["--version"]}));
    assert_eq!(result["isError"], json!(false), "{result}");
    assert_eq!(result["structuredContent"]["diagnostics"][0]["path"], json!("--version"));
    // A flag value uses the --flag=value form.
    let result = mcp.call_tool("rigor_check", json!({"paths": ["lib"], "config": "--help"}));
    assert_eq!(result["isError"], json!(true), "{result}");
    assert!(result_text(&result).contains("--help"), "{result}");
}

#[test]
fn one_worker_serves_every_call() {
    let mut mcp = Mcp::start(&[]);
    let mut pids = Vec::new();
    for round in 0..20 {
        let result = match round % 3 {
            0 => mcp.call_tool("rigor_check", json!({"paths": ["lib"]})),
            1 => mcp.call_tool("rigor_explain", json!({"rule": "flow"})),
            _ => mcp.call_tool("rigor_triage", json!({})),
        };
        pids.push(worker_pid(&result));
    }
    assert!(pids.iter().all(|pid| *pid == pids[0]), "{pids:?}");
    assert!(protocol_tests::process_alive(pids[0]));
    mcp.server.assert_stdout_is_protocol_only();
}

#[test]
fn the_session_config_is_the_default_and_a_calls_config_beats_it() {
    let strict = fixtures().join("project/strict.yml");
    let mut mcp = Mcp::start(&["--config", strict.to_str().unwrap()]);
    let severities = |result: &Value| -> Vec<String> {
        result["structuredContent"]["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["severity"].as_str().unwrap().to_string())
            .collect()
    };
    let strict_result = mcp.call_tool("rigor_check", json!({"paths": ["lib"]}));
    assert_eq!(severities(&strict_result), vec!["error"; 5]);
    let lenient_result = mcp.call_tool("rigor_check", json!({"paths": ["lib"], "config": "lenient.yml"}));
    assert_eq!(severities(&lenient_result), ["info", "warning", "info", "info", "info"]);
    assert_eq!(lenient_result["structuredContent"]["error_count"], json!(0));
}

#[test]
fn queued_calls_each_get_their_own_answer_once_and_ping_is_not_held_up() {
    let mut mcp = Mcp::start(&[]);
    let ids: Vec<Value> = (0..10).map(|_| mcp.next_id()).collect();
    for (index, id) in ids.iter().enumerate() {
        let rule = if index % 2 == 0 { "flow.always-raises" } else { "flow.dead-assignment" };
        mcp.server.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "rigor_explain", "arguments": {"rule": rule}}}));
    }
    let ping_id = mcp.next_id();
    mcp.server.send(&json!({"jsonrpc": "2.0", "id": ping_id, "method": "ping"}));
    let mut answers = std::collections::BTreeMap::new();
    while answers.len() < ids.len() + 1 {
        let message = mcp.server.receive();
        let id = message["id"].as_i64().expect("an answer");
        assert!(answers.insert(id, message).is_none(), "answered twice: {id}");
    }
    for (index, id) in ids.iter().enumerate() {
        let answer = &answers[&id.as_i64().unwrap()];
        let rule = if index % 2 == 0 { "flow.always-raises" } else { "flow.dead-assignment" };
        assert!(result_text(&answer["result"]).contains(rule), "{answer}");
    }
    assert!(mcp.server.receive_within(std::time::Duration::from_millis(200)).is_none(), "nothing more");
}
