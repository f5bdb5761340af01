//! Property tests of the MCP message layer: framing, classification, and
//! the session's promise that every request with an id gets exactly one
//! answer, whatever else arrives.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use proptest::prelude::*;
use rigor_gateway::argv::SessionDefaults;
use rigor_gateway::gateway::Gateway;
use rigor_gateway::mcp::connection::Connection;
use rigor_gateway::mcp::framing::{Frame, LineReader};
use rigor_gateway::mcp::id_scan::IdScanner;
use rigor_gateway::mcp::jsonrpc::{classify, Incoming, RequestId};
use rigor_gateway::session;
use rigor_gateway::supervisor::{SupervisorConfig, SupervisorHandle, WorkerEnvironment};
use serde_json::{json, Value};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

/// Frames read from `input` delivered in chunks of the given sizes.
fn read_frames(input: Vec<u8>, chunk: usize, limit: usize) -> Vec<Frame> {
    runtime().block_on(async move {
        let reader = tokio::io::BufReader::with_capacity(chunk.max(1), &input[..]);
        let mut lines = LineReader::new(reader, limit);
        let mut frames = Vec::new();
        while let Some(frame) = lines.next_frame().await.unwrap() {
            frames.push(frame);
        }
        frames
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn framing_recovers_every_line_whatever_the_chunking(
        lines in prop::collection::vec(prop::collection::vec(any::<u8>().prop_filter("no newline", |b| *b != b'\n'), 0..40), 0..20),
        crlf in any::<bool>(),
        chunk in 1usize..64,
        limit in 1usize..48,
    ) {
        let terminator: &[u8] = if crlf { b"\r\n" } else { b"\n" };
        let mut input = Vec::new();
        for line in &lines {
            input.extend_from_slice(line);
            input.extend_from_slice(terminator);
        }
        let expected: Vec<Frame> = lines
            .iter()
            .enumerate()
            .filter_map(|(index, line)| {
                let mut text = line.clone();
                let bytes = text.len() + usize::from(crlf);
                if bytes > limit {
                    let mut seen = text.clone();
                    if crlf {
                        seen.push(b'\r');
                    }
                    return Some(Frame::TooLong { bytes, id: IdScanner::scan(&seen).id().cloned() });
                }
                if index == 0 && text.starts_with(b"\xEF\xBB\xBF") {
                    text.drain(..3);
                }
                if !crlf && text.last() == Some(&b'\r') {
                    text.pop();
                }
                (!text.iter().all(u8::is_ascii_whitespace)).then_some(Frame::Line(text))
            })
            .collect();
        prop_assert_eq!(read_frames(input, chunk, limit), expected);
    }

    #[test]
    fn an_over_long_request_keeps_its_id_wherever_it_is_and_however_it_arrives(
        id in prop_oneof![any::<i64>().prop_map(|n| json!(n)), "[a-z0-9 \"\\\\]{0,12}".prop_map(|s| json!(s))],
        pad in 0usize..300,
        depth in 0usize..200,
        id_first in any::<bool>(),
        chunk in 1usize..64,
    ) {
        let nested = format!("{}\"{}\"{}", "[".repeat(depth), "x".repeat(pad), "]".repeat(depth));
        let line = if id_first {
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping","params":{{"p":{nested},"id":0}}}}"#)
        } else {
            format!(r#"{{"jsonrpc":"2.0","method":"ping","params":{{"id":0,"p":{nested}}},"id":{id}}}"#)
        };
        let limit = 40;
        let frames = read_frames(format!("{line}\n{{}}\n").into_bytes(), chunk, limit);
        prop_assert_eq!(frames, vec![Frame::TooLong { bytes: line.len(), id: Some(id) }, Frame::Line(b"{}".to_vec())]);
    }

    #[test]
    fn classification_never_panics_on_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = classify(&bytes);
    }

    #[test]
    fn well_formed_requests_round_trip(
        id in prop_oneof![any::<i64>().prop_map(RequestId::Number), "[a-z0-9-]{0,12}".prop_map(RequestId::Text)],
        method in "[a-z/]{1,20}",
        with_params in any::<bool>(),
    ) {
        let mut message = json!({"jsonrpc": "2.0", "id": id.to_value(), "method": method});
        if with_params {
            message["params"] = json!({"x": 1});
        }
        match classify(message.to_string().as_bytes()) {
            Incoming::Request { id: got, method: got_method, .. } => {
                prop_assert_eq!(got, id);
                prop_assert_eq!(got_method, method);
            }
            other => prop_assert!(false, "classified as {:?}", other),
        }
    }
}

/// One message of a random session.
#[derive(Debug, Clone)]
enum Step {
    Ping,
    Initialize,
    ToolsList,
    ToolsCall,
    UnknownMethod,
    Garbage,
    Notification,
    Cancel,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        Just(Step::Ping),
        Just(Step::Initialize),
        Just(Step::ToolsList),
        Just(Step::ToolsCall),
        Just(Step::UnknownMethod),
        Just(Step::Garbage),
        Just(Step::Notification),
        Just(Step::Cancel),
    ]
}

fn gateway_without_engine() -> Arc<Gateway> {
    let supervisor = SupervisorHandle::spawn(SupervisorConfig {
        engine: Some(PathBuf::from("/nonexistent/engine")),
        root: std::env::temp_dir(),
        hello_timeout: Duration::from_secs(1),
        call_timeout: Duration::from_secs(1),
        environment: WorkerEnvironment::default(),
        reload: None,
        warm_up: None,
    });

    Arc::new(Gateway {
        supervisor,
        root: std::env::temp_dir(),
        session_defaults: SessionDefaults::new(),
        max_line_bytes: 1 << 20,
        page_size: 50,
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn every_request_gets_exactly_one_answer(steps in prop::collection::vec(step(), 1..30)) {
        let garbage_steps = steps.iter().filter(|s| matches!(s, Step::Garbage)).count();
        let answers = runtime().block_on(async move {
            let (connection, mut client) = Connection::memory("property");
            let server = tokio::spawn(session::serve(connection, gateway_without_engine()));
            let mut expected: Vec<Value> = Vec::new();
            let mut cancelled: Vec<Value> = Vec::new();
            for (index, step) in steps.iter().enumerate() {
                let id = json!(index);
                let request = |method: &str, params: Value| json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
                let message = match step {
                    Step::Ping => request("ping", json!({})),
                    Step::Initialize => request("initialize", json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "p", "version": "1"}})),
                    Step::ToolsList => request("tools/list", json!({})),
                    Step::ToolsCall => request("tools/call", json!({"name": "rigor_check", "arguments": {"paths": ["lib"]}})),
                    Step::UnknownMethod => request("nope/nothing", json!({})),
                    Step::Garbage => json!("not an object"),
                    Step::Notification => json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
                    Step::Cancel => {
                        let target = json!(index.saturating_sub(1));
                        cancelled.push(target.clone());
                        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": target}})
                    }
                };
                if message.get("id").is_some() {
                    expected.push(id.clone());
                }
                client.send(&message).await;
            }
            drop(client.to_server);
            let mut answers: BTreeMap<String, usize> = BTreeMap::new();
            let mut null_ids = 0;
            while let Ok(Some(line)) = tokio::time::timeout(Duration::from_secs(5), client.from_server.recv()).await {
                let message: Value = serde_json::from_str(&line).unwrap();
                match message.get("id") {
                    Some(Value::Null) => null_ids += 1,
                    Some(id) => *answers.entry(id.to_string()).or_default() += 1,
                    None => {}
                }
            }
            let _ = server.await;
            (expected, cancelled, answers, null_ids)
        });
        let (expected, cancelled, answers, null_ids) = answers;
        let steps_with_null_id = |count: &usize| *count == garbage_steps;
        for id in &expected {
            let count = answers.get(&id.to_string()).copied().unwrap_or(0);
            if cancelled.contains(id) {
                prop_assert!(count <= 1, "cancelled {} answered {} times", id, count);
            } else {
                prop_assert_eq!(count, 1, "request {} answered {} times", id, count);
            }
        }
        let garbage = steps_with_null_id(&null_ids);
        prop_assert!(garbage, "malformed lines are answered with id null");
        prop_assert!(answers.keys().all(|k| k.parse::<u64>().is_ok_and(|n| expected.contains(&json!(n)))), "answers only to requests that were sent");
    }
}
