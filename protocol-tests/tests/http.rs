//! `rigor-mcp --transport http`, driven with plain HTTP/1.1 requests:
//! sessions share the one worker, and each security rule refuses what it
//! must (bad Origin, missing or wrong bearer token, unknown session id,
//! over-long body). The SDKs and the conformance suite cover the rest.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use protocol_tests::{bin, diagnostics, fake_engine_in, fixture_project, process_alive, signal, worker_pid};
use serde_json::{json, Value};

/// A gateway serving HTTP on a free port.
struct HttpGateway {
    child: Child,
    address: String,
    stderr: std::sync::Mutex<std::sync::mpsc::Receiver<String>>,
}

impl HttpGateway {
    fn start(args: &[&str]) -> HttpGateway {
        let mut child = Command::new(bin("rigor-mcp"))
            .args(["--transport", "http", "--port", "0", "--root"])
            .arg(fixture_project())
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn rigor-mcp");
        let (tx, stderr) = std::sync::mpsc::channel();
        let pipe = BufReader::new(child.stderr.take().unwrap());
        std::thread::spawn(move || {
            for line in pipe.lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if let Ok(line) = stderr.recv_timeout(Duration::from_millis(100)) {
                if let Some(rest) = line.strip_prefix("rigor-mcp: serving MCP at http://") {
                    let address = rest.trim_end_matches("/mcp").to_string();
                    return HttpGateway { child, address, stderr: std::sync::Mutex::new(stderr) };
                }
            }
        }
        let _ = child.kill();
        let _ = child.wait();
        panic!("rigor-mcp printed no address");
    }

    fn post(&self, headers: &[(&str, &str)], body: &Value) -> Reply {
        self.raw("POST", headers, body.to_string().as_bytes())
    }

    fn raw(&self, method: &str, headers: &[(&str, &str)], body: &[u8]) -> Reply {
        let mut stream = TcpStream::connect(&self.address).expect("connect");
        stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let host = headers.iter().find(|(k, _)| *k == "Host").map_or(self.address.as_str(), |(_, v)| v);
        let mut request = format!(
            "{method} /mcp HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\n",
            body.len()
        );
        for (name, value) in headers.iter().filter(|(k, _)| *k != "Host") {
            request.push_str(&format!("{name}: {value}\r\n"));
        }
        request.push_str("\r\n");
        stream.write_all(request.as_bytes()).unwrap();
        // The server may refuse before reading the whole body.
        let _ = stream.write_all(body);
        let mut raw = Vec::new();
        let _ = stream.read_to_end(&mut raw);
        Reply::parse(&raw)
    }

    /// `initialize` + `notifications/initialized`; returns the session id.
    fn session(&self, extra: &[(&str, &str)]) -> String {
        let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "http-test", "version": "1"}}});
        let reply = self.post(extra, &init);
        assert_eq!(reply.status, 200, "{}", reply.body);
        let session = reply.header("mcp-session-id").expect("a session id").to_string();
        let mut headers = extra.to_vec();
        headers.push(("Mcp-Session-Id", &session));
        let reply = self.post(&headers, &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        assert_eq!(reply.status, 202);
        session
    }

    fn call(&self, session: &str, id: u64, name: &str, arguments: Value) -> Value {
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": arguments}});
        let reply = self.post(&[("Mcp-Session-Id", session), ("MCP-Protocol-Version", "2025-11-25")], &body);
        assert_eq!(reply.status, 200, "{}", reply.body);
        let answer = reply.json();
        assert_eq!(answer["id"], json!(id), "{answer}");
        answer["result"].clone()
    }

    fn stderr_text(&self) -> String {
        self.stderr.lock().unwrap().try_iter().collect::<Vec<_>>().join("\n")
    }
}

impl Drop for HttpGateway {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Reply {
    fn parse(raw: &[u8]) -> Reply {
        let text = String::from_utf8_lossy(raw);
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let mut lines = head.lines();
        let status = lines.next().and_then(|l| l.split_whitespace().nth(1)).and_then(|s| s.parse().ok()).unwrap_or(0);
        let headers = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        Reply { status, headers, body: body.to_string() }
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

#[test]
fn two_concurrent_clients_are_both_answered_by_the_same_worker() {
    let gateway = HttpGateway::start(&[]);
    let sessions = [gateway.session(&[]), gateway.session(&[])];
    assert_ne!(sessions[0], sessions[1]);
    assert_eq!(sessions[0].len(), 32, "128 random bits in hex");
    let barrier = std::sync::Barrier::new(2);
    let results: Vec<Value> = std::thread::scope(|scope| {
        let handles: Vec<_> = sessions
            .iter()
            .map(|session| {
                let (gateway, barrier) = (&gateway, &barrier);
                // The same request id in both: ids are per session.
                scope.spawn(move || {
                    barrier.wait();
                    gateway.call(session, 2, "rigor_check", json!({"paths": ["lib"]}))
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for result in &results {
        assert_eq!(result["isError"], json!(false), "{result}");
        assert!(diagnostics(result).iter().any(|(rule, ..)| rule == "flow.always-raises"), "{result}");
    }
    assert_eq!(worker_pid(&results[0]), worker_pid(&results[1]), "one shared worker");
}

#[test]
fn a_bad_origin_or_host_gets_403_and_loopback_origins_pass() {
    let gateway = HttpGateway::start(&["--allow-origin", "https://app.example.com"]);
    let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
    let reply = gateway.post(&[("Origin", "http://evil.example.com")], &ping);
    assert_eq!(reply.status, 403);
    assert!(reply.json()["error"]["message"].as_str().unwrap().contains("--allow-origin"), "{}", reply.body);
    gateway.session(&[("Origin", "http://localhost:3000")]);
    gateway.session(&[("Origin", "https://app.example.com")]);
    let rebinding = gateway.raw("POST", &[("Host", "evil.example.com")], ping.to_string().as_bytes());
    assert_eq!(rebinding.status, 403);
}

#[test]
fn with_a_token_file_requests_need_the_bearer_token() {
    let dir = tempfile::tempdir().unwrap();
    let token_file = dir.path().join("token");
    std::fs::write(&token_file, "s3cret-token\n").unwrap();
    let gateway = HttpGateway::start(&["--auth-token-file", token_file.to_str().unwrap()]);
    let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25"}});
    for headers in [vec![], vec![("Authorization", "Bearer wrong")], vec![("Authorization", "Basic s3cret-token")]] {
        let reply = gateway.post(&headers, &ping);
        assert_eq!(reply.status, 401, "{headers:?}");
        assert_eq!(reply.header("www-authenticate"), Some("Bearer"));
    }
    gateway.session(&[("Authorization", "Bearer s3cret-token")]);
}

#[test]
fn a_non_loopback_host_without_a_token_is_refused_at_start() {
    let output = Command::new(bin("rigor-mcp"))
        .args(["--transport", "http", "--host", "0.0.0.0", "--port", "0", "--root"])
        .arg(fixture_project())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(64));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--auth-token-file"), "{stderr}");
    assert!(output.stdout.is_empty());
}

#[test]
fn unknown_and_deleted_sessions_get_404_and_bad_versions_400() {
    let gateway = HttpGateway::start(&[]);
    let ping = json!({"jsonrpc": "2.0", "id": 5, "method": "ping"});
    assert_eq!(gateway.post(&[("Mcp-Session-Id", "0123456789abcdef0123456789abcdef")], &ping).status, 404);
    assert_eq!(gateway.post(&[], &ping).status, 400, "no session id and no 2026-07-28 envelope");
    let session = gateway.session(&[]);
    let bogus = gateway.post(&[("Mcp-Session-Id", &session), ("MCP-Protocol-Version", "1999-01-01")], &ping);
    assert_eq!(bogus.status, 400);
    let pong = gateway.post(&[("Mcp-Session-Id", &session)], &ping);
    assert_eq!(pong.json(), json!({"jsonrpc": "2.0", "id": 5, "result": {}}));
    assert_eq!(gateway.raw("DELETE", &[("Mcp-Session-Id", &session)], b"").status, 200);
    assert_eq!(gateway.post(&[("Mcp-Session-Id", &session)], &ping).status, 404);
    assert_eq!(gateway.raw("DELETE", &[("Mcp-Session-Id", &session)], b"").status, 404);
}

#[test]
fn an_over_long_body_gets_413_and_the_server_keeps_serving() {
    let gateway = HttpGateway::start(&["--max-line-bytes", "2000"]);
    let session = gateway.session(&[]);
    let padding = "x".repeat(5000);
    let big = json!({"jsonrpc": "2.0", "id": 9, "method": "ping", "params": {"pad": padding}});
    let reply = gateway.post(&[("Mcp-Session-Id", &session)], &big);
    assert_eq!(reply.status, 413);
    assert!(reply.body.contains("--max-line-bytes"), "{}", reply.body);
    let result = gateway.call(&session, 10, "rigor_explain", json!({"rule": "flow.always-raises"}));
    assert_eq!(result["isError"], json!(false));
}

#[test]
fn stateless_2026_requests_are_served_without_a_session() {
    let gateway = HttpGateway::start(&[]);
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}});
    let list = json!({"jsonrpc": "2.0", "id": "a", "method": "tools/list", "params": {"_meta": meta}});
    let reply = gateway.post(&[], &list);
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("mcp-session-id"), None);
    let answer = reply.json();
    assert_eq!(answer["result"]["resultType"], json!("complete"));
    assert_eq!(answer["result"]["tools"].as_array().unwrap().len(), protocol_tests::TOOL_NAMES.len());
}

#[test]
fn sigterm_lets_a_call_in_flight_finish_then_exits_and_stops_the_worker() {
    let dir = tempfile::tempdir().unwrap();
    let engine = fake_engine_in(dir.path());
    let mut gateway = HttpGateway::start(&["--engine", engine.to_str().unwrap()]);
    let session = gateway.session(&[]);
    let warm = gateway.call(&session, 2, "sleep", json!({"seconds": 0}));
    let worker = worker_pid(&warm);
    let answer = std::thread::scope(|scope| {
        let call = scope.spawn(|| gateway.call(&session, 3, "sleep", json!({"seconds": 0.3})));
        std::thread::sleep(Duration::from_millis(100));
        signal(gateway.child.id(), libc::SIGTERM);
        call.join().unwrap()
    });
    assert_eq!(answer["content"][0]["text"], json!("slept"), "{answer}");
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = gateway.child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "no exit after SIGTERM: {}", gateway.stderr_text());
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(0));
    assert!(protocol_tests::wait_gone(worker, Duration::from_secs(5)), "worker {worker} left behind");
    assert!(!process_alive(worker));
}

/// Starts `tools/call` `id` (a 30 s sleep) on a connection of its own, waits
/// until the worker runs it, then closes that connection unanswered.
fn abandon_a_running_call(gateway: &HttpGateway, session: &str, id: u64, progress: bool) {
    let mut params = json!({"name": "sleep", "arguments": {"seconds": 30}});
    if progress {
        params["_meta"] = json!({"progressToken": "p1"});
    }
    let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}).to_string();
    let mut stream = TcpStream::connect(&gateway.address).unwrap();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Session-Id: {session}\r\nMCP-Protocol-Version: 2025-11-25\r\nContent-Length: {}\r\n\r\n{body}",
        gateway.address,
        body.len()
    );
    stream.write_all(request.as_bytes()).unwrap();
    // Long enough for the request to reach the worker; the assertions
    // below hold whatever the timing (a queued call is cancelled too).
    std::thread::sleep(Duration::from_millis(300));
    stream.shutdown(std::net::Shutdown::Both).unwrap();
}

#[test]
fn a_call_whose_connection_closes_is_cancelled_once_and_leaves_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let engine = fake_engine_in(dir.path());
    let gateway = HttpGateway::start(&["--engine", engine.to_str().unwrap()]);
    let session = gateway.session(&[]);
    let mut worker = worker_pid(&gateway.call(&session, 2, "sleep", json!({"seconds": 0})));
    // A JSON answer, then an SSE stream (a call that asked for progress).
    for (id, progress) in [(3, false), (4, true)] {
        abandon_a_running_call(&gateway, &session, id, progress);
        // The 30 s sleep no longer holds the one worker: the next call is
        // answered by a fresh one, and the stopped worker is gone.
        let answer = gateway.call(&session, id + 10, "sleep", json!({"seconds": 0}));
        assert_eq!(answer["content"][0]["text"], json!("slept"), "{answer}");
        let fresh = worker_pid(&answer);
        assert_ne!(fresh, worker, "the running call was stopped, as a cancellation stops it");
        assert!(protocol_tests::wait_gone(worker, Duration::from_secs(5)), "worker {worker} left behind");
        worker = fresh;
    }
    // Nothing of the abandoned calls stayed in flight: their ids are free.
    for id in [3, 4] {
        let answer = gateway.call(&session, id, "sleep", json!({"seconds": 0}));
        assert_eq!(answer["content"][0]["text"], json!("slept"), "{answer}");
    }
    let log = gateway.stderr_text();
    assert_eq!(log.matches("closed; cancelling it").count(), 2, "{log}");
    assert!(!log.contains("panicked"), "{log}");
}

#[test]
fn a_control_socket_serves_beside_http_with_the_same_worker() {
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("rigor.sock");
    let gateway = HttpGateway::start(&["--control", socket.to_str().unwrap()]);
    let session = gateway.session(&[]);
    let over_http = worker_pid(&gateway.call(&session, 2, "rigor_explain", json!({"rule": "flow"})));

    let mut local = std::os::unix::net::UnixStream::connect(&socket).expect("the control socket is open");
    local.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let requests = [
        json!({"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "b", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "rigor_explain", "arguments": {"rule": "flow"}}}),
    ];
    for request in &requests {
        writeln!(local, "{request}").unwrap();
    }
    let mut lines = BufReader::new(local).lines();
    let init: Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
    assert_eq!(init["id"], json!(2), "{init}");
    let answer: Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
    assert_eq!(answer["id"], json!(3), "{answer}");
    assert_eq!(answer["result"]["isError"], json!(false), "{answer}");
    assert_eq!(worker_pid(&answer["result"]), over_http, "HTTP and control sessions share the one worker");
}
