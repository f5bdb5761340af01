//! Bad input and shutdown: the gateway answers clearly and stays up.

use std::time::Duration;

use protocol_tests::{bin, fixture_project, process_alive, result_text, wait_gone, worker_pid, Mcp};
use serde_json::{json, Value};

#[test]
fn malformed_lines_get_json_rpc_errors_and_the_session_continues() {
    let mut mcp = Mcp::start(&[]);
    let cases: Vec<(&[u8], i64)> = vec![
        (b"{not json\n", -32700),
        (b"\xff\xfe\xfd\n", -32700),
        (b"[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]\n", -32600),
        (b"\"just a string\"\n", -32600),
        (b"{\"id\":5,\"method\":\"ping\"}\n", -32600),
        (b"{\"jsonrpc\":\"2.0\",\"id\":6}\n", -32600),
    ];
    for (line, code) in cases {
        mcp.server.send_raw(line);
        let answer = mcp.server.receive();
        assert_eq!(answer["error"]["code"], json!(code), "{:?}: {answer}", String::from_utf8_lossy(line));
    }
    let unknown = mcp.request("resources/list", json!({}));
    assert_eq!(unknown["error"]["code"], json!(-32601));
    // Unknown notifications are ignored: no answer at all.
    mcp.server.send(&json!({"jsonrpc": "2.0", "method": "notifications/whatever"}));
    assert_eq!(mcp.tool_names().len(), 7);
    mcp.server.assert_stdout_is_protocol_only();
}

#[test]
fn an_over_long_line_is_refused_and_skipped() {
    let mut mcp = Mcp::start(&["--max-line-bytes", "1000"]);
    let mut line = json!({"jsonrpc": "2.0", "id": 99, "method": "ping", "params": {"pad": "x".repeat(5000)}})
        .to_string()
        .into_bytes();
    line.push(b'\n');
    mcp.server.send_raw(&line);
    let answer = mcp.server.receive();
    assert_eq!(answer["id"], json!(99), "answered to the id found at the start of the line");
    assert_eq!(answer["error"]["code"], json!(-32600));
    assert!(answer["error"]["message"].as_str().unwrap().contains("1000"), "{answer}");
    assert_eq!(mcp.request("ping", json!({}))["result"], json!({}));
}

#[test]
fn a_5_mib_line_with_its_id_anywhere_is_answered_to_that_id() {
    let mut mcp = Mcp::start(&[]);
    let pad = "x".repeat(5 * 1024 * 1024);
    let lines = [
        (json!(11), format!(r#"{{"jsonrpc":"2.0","id":11,"method":"ping","params":{{"pad":"{pad}"}}}}"#)),
        (
            json!("late"),
            format!(r#"{{"jsonrpc":"2.0","method":"ping","params":{{"id":1,"pad":"{pad}"}},"id":"late"}}"#),
        ),
        (Value::Null, format!(r#"{{"jsonrpc":"2.0","method":"ping","params":{{"id":1,"pad":"{pad}"}}}}"#)),
    ];
    for (id, line) in lines {
        mcp.server.send_raw(format!("{line}\n").as_bytes());
        let answer = mcp.server.receive();
        assert_eq!(answer["id"], id, "{}", answer["error"]);
        assert_eq!(answer["error"]["code"], json!(-32600));
    }
    assert_eq!(mcp.request("ping", json!({}))["result"], json!({}));
}

#[test]
fn json_nested_deeper_than_the_parser_allows_is_answered_to_its_id() {
    let mut mcp = Mcp::start(&[]);
    let deep = format!(
        r#"{{"jsonrpc":"2.0","method":"tools/call","params":{{"name":"rigor_explain","arguments":{{"rule":{}1{}}}}},"id":12}}"#,
        "[".repeat(500),
        "]".repeat(500)
    );
    mcp.server.send_raw(format!("{deep}\n").as_bytes());
    let answer = mcp.server.receive();
    assert_eq!(answer["id"], json!(12), "{answer}");
    assert_eq!(answer["error"]["code"], json!(-32600));
    assert!(answer["error"]["message"].as_str().unwrap().contains("503 levels deep"), "{answer}");
    mcp.server.assert_stdout_is_protocol_only();
}

#[test]
fn a_duplicate_id_in_flight_is_refused_and_the_first_request_still_answered() {
    let mut mcp = Mcp::start(&[]);
    let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "rigor_check", "arguments": {"paths": ["lib"]}}});
    mcp.server.send(&call);
    mcp.server.send(&call);
    let first = mcp.server.receive();
    let second = mcp.server.receive();
    let (error, result) = if first.get("error").is_some() { (first, second) } else { (second, first) };
    assert_eq!(error["error"]["code"], json!(-32600), "{error}");
    assert_eq!(result["result"]["isError"], json!(false), "{result}");
}

#[test]
fn eof_on_stdin_stops_the_worker_and_exits_zero_promptly() {
    let mut mcp = Mcp::start(&[]);
    let result = mcp.call_tool("rigor_explain", json!({"rule": "flow"}));
    let worker = worker_pid(&result);
    assert!(process_alive(worker));
    mcp.server.close_stdin();
    let status = mcp.server.wait_exit(Duration::from_secs(2)).expect("the gateway exits after EOF");
    assert_eq!(status.code(), Some(0));
    assert!(wait_gone(worker, Duration::from_secs(1)), "worker {worker} still running");
}

#[test]
fn a_call_piped_before_eof_is_still_answered() {
    let mut mcp = Mcp::start(&[]);
    mcp.server.send(&json!({"jsonrpc": "2.0", "id": 50, "method": "tools/call", "params": {"name": "rigor_check", "arguments": {"paths": ["lib"]}}}));
    mcp.server.close_stdin();
    let answer = mcp.server.answer_to(&json!(50));
    assert_eq!(answer["result"]["isError"], json!(false), "{answer}");
    assert_eq!(mcp.server.wait_exit(Duration::from_secs(2)).and_then(|s| s.code()), Some(0));
}

#[test]
fn a_missing_engine_keeps_the_gateway_up_and_every_call_says_what_was_tried() {
    let mut mcp = Mcp::start(&["--engine", "/nonexistent/rigor"]);
    let list = mcp.request_ok("tools/list", json!({}));
    assert_eq!(list["tools"], json!([]));
    for _ in 0..2 {
        let result = mcp.call_tool("rigor_check", json!({"paths": ["lib"]}));
        assert_eq!(result["isError"], json!(true));
        assert!(result_text(&result).contains("/nonexistent/rigor"), "{result}");
    }
    assert_eq!(mcp.request("ping", json!({}))["result"], json!({}));
}

#[test]
fn an_engine_that_is_not_a_worker_is_reported() {
    // /bin/true exits at once without a hello.
    let mut mcp = Mcp::start(&["--engine", "/bin/true"]);
    let result = mcp.call_tool("rigor_check", json!({"paths": ["lib"]}));
    assert_eq!(result["isError"], json!(true));
    assert!(result_text(&result).contains("before saying hello"), "{result}");
}

#[test]
fn usage_errors_exit_64_with_one_line() {
    let cases: &[&[&str]] = &[
        &["--transport", "pigeon"],
        &["--transport", "http", "--host", "0.0.0.0"],
        &["--bogus"],
        &["--root", "/nonexistent-dir"],
        &["--call-timeout", "-1"],
    ];
    for args in cases {
        let output =
            std::process::Command::new(bin("rigor-mcp")).args(*args).current_dir(fixture_project()).output().unwrap();
        assert_eq!(output.status.code(), Some(64), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(stderr.trim().lines().count(), 1, "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}: stdout must stay clean");
    }
}

#[test]
fn rigor_mcp_through_the_engine_cli_is_the_same_server() {
    let mut server = protocol_tests::Server::spawn(&bin("rigor"), &["mcp", "--transport", "stdio"], &fixture_project());
    server.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2024-11-05", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}));
    let answer = server.answer_to(&json!(1));
    assert_eq!(answer["result"]["serverInfo"]["name"], json!("rigor-mcp"), "{answer}");
    assert_eq!(answer["result"]["protocolVersion"], json!("2024-11-05"));
}

#[test]
fn requests_from_a_file_are_served_through_the_threaded_stdio_path() {
    // A regular file on stdin is not a pipe: the gateway reads it on a thread.
    let dir = tempfile::tempdir().unwrap();
    let requests = dir.path().join("requests.jsonl");
    let lines = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "file", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "rigor_check", "arguments": {"paths": ["lib"]}}}),
    ];
    let text: String = lines.iter().map(|l| l.to_string() + "\n").collect();
    std::fs::write(&requests, text).unwrap();
    let output = std::process::Command::new(bin("rigor-mcp"))
        .current_dir(fixture_project())
        .stdin(std::fs::File::open(&requests).unwrap())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let answers: Vec<Value> =
        String::from_utf8(output.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(answers.len(), 2, "{answers:?}");
    assert_eq!(answers[0]["result"]["protocolVersion"], json!("2025-03-26"));
    assert_eq!(answers[1]["result"]["structuredContent"]["error_count"], json!(1));
}

#[test]
fn a_pipe_on_stdin_with_a_file_on_stdout_is_served() {
    // Only stdin is a pipe: the gateway must not make it non-blocking and
    // then read it with a blocking reader.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("answers.jsonl");
    let mut child = std::process::Command::new(bin("rigor-mcp"))
        .current_dir(fixture_project())
        .stdin(std::process::Stdio::piped())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
        writeln!(stdin, "{init}").unwrap();
        std::thread::sleep(Duration::from_millis(100));
        writeln!(stdin, "{}", json!({"jsonrpc": "2.0", "id": 2, "method": "ping"})).unwrap();
    }
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("cannot read client input"), "{stderr}");
    let answers = std::fs::read_to_string(&out).unwrap();
    assert_eq!(answers.lines().count(), 2, "{answers}\n{stderr}");
}
