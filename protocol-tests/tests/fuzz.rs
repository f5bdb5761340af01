//! A seeded mutation fuzz of the gateway's input, sent as one stream:
//! valid messages with types swapped, truncated, bytes flipped, nested too
//! deep, huge numbers, odd ids, odd unicode, over the line limit. Every
//! request whose id is usable gets exactly one answer with that id, no id
//! is answered twice, stdout stays pure, and a real call works at the end.

use std::collections::BTreeMap;
use std::time::Duration;

use protocol_tests::{result_text, Mcp};
use serde_json::{json, Value};

const LINES: usize = 400;
const MAX_LINE_BYTES: usize = 4096;

/// xorshift64*: deterministic, so a failure replays exactly.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// A valid message of one of the kinds a client sends, with id `id`.
fn base(rng: &mut Rng, id: &Value) -> Value {
    let (method, params) = rng
        .pick(&[
            ("ping", json!({})),
            ("tools/list", json!({})),
            ("tools/call", json!({"name": "rigor_explain", "arguments": {"rule": "flow.dead-assignment"}})),
            ("tools/call", json!({"name": "rigor_explain", "arguments": {"rule": "flow"}})),
            ("tools/call", json!({"name": "rigor_type_of", "arguments": {"file": "lib/a.rb", "line": 1, "col": 1}})),
            ("logging/setLevel", json!({"level": "error"})),
            ("resources/list", json!({})),
            ("initialize", json!({"protocolVersion": "2025-06-18", "capabilities": {}})),
        ])
        .clone();
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// A value of another JSON type.
fn other_type(rng: &mut Rng) -> Value {
    rng.pick(&[json!(null), json!(true), json!(0), json!(-7.25), json!("s"), json!([]), json!({}), json!([{"a": [1]}])])
        .clone()
}

/// Ids a client might send, usable or not; unique per line.
fn odd_id(rng: &mut Rng, line: usize) -> Value {
    let i = line as i64;
    match rng.below(10) {
        0 => json!(-i - 1),
        1 => json!(i64::MAX - i),
        2 => json!(format!("ünï-{i}-😀\"\\\n\u{7}")),
        3 => json!(" ".repeat(line % 7 + 1) + &"x".repeat(line)),
        4 => json!(i as f64 + 0.5),
        5 => json!(u64::MAX - line as u64),
        6 => json!(null),
        7 => json!(line % 2 == 0),
        8 => json!({"id": i}),
        _ => json!([i]),
    }
}

/// One mutated line (no newline inside) and whether the test knows it is
/// valid JSON with a usable top-level id even where serde_json refuses it.
fn mutated(rng: &mut Rng, line: usize) -> (Vec<u8>, Option<Value>) {
    // Each line gets its own string id, with a check so that a flipped
    // byte cannot turn it into another line's id.
    let id = json!(format!("fz-{line}-{:x}", (line as u64).wrapping_mul(0x9E37_79B9) % 0xFFFF));
    let mut message = base(rng, &id);
    let text = |value: &Value| value.to_string().into_bytes();
    match rng.below(9) {
        0 => {
            let key = *rng.pick(&["jsonrpc", "method", "params", "id"]);
            message[key] = if key == "id" { odd_id(rng, line) } else { other_type(rng) };
            (text(&message), None)
        }
        1 => {
            let bytes = text(&message);
            let cut = rng.below(bytes.len());
            (bytes[..cut].to_vec(), None)
        }
        2 => {
            let mut bytes = text(&message);
            for _ in 0..=rng.below(3) {
                let at = rng.below(bytes.len());
                bytes[at] = match rng.next() as u8 {
                    b'\n' => b'?',
                    byte => byte,
                };
            }
            (bytes, None)
        }
        3 => {
            // Valid JSON that serde_json refuses for its depth.
            let depth = 129 + rng.below(900);
            let deep = format!("{}{}{}", "[".repeat(depth), rng.below(10), "]".repeat(depth));
            let method = &message["method"];
            let line = if rng.below(2) == 0 {
                format!(r#"{{"jsonrpc":"2.0","id":{id},"method":{method},"params":{{"deep":{deep}}}}}"#)
            } else {
                format!(r#"{{"jsonrpc":"2.0","method":{method},"params":{{"deep":{deep}}},"id":{id}}}"#)
            };
            (line.into_bytes(), Some(id))
        }
        4 => {
            let huge =
                rng.pick(&["1e400", "-1e400", "123456789012345678901234567890", "0.0000000000000000000001e-999"]);
            let line = message.to_string().replacen(r#""params":{"#, &format!(r#""params":{{"n":{huge},"#), 1);
            (line.into_bytes(), None)
        }
        5 => {
            message["id"] = odd_id(rng, line);
            (text(&message), None)
        }
        6 => {
            let odd = rng.pick(&["\\ud800", "\\udfff\\ud800", "\u{1F600}\u{200D}\u{0301}", "\\u0000", "\u{FEFF}"]);
            let line = message.to_string().replacen(r#""params":{"#, &format!(r#""params":{{"u":"{odd}","#), 1);
            (line.into_bytes(), None)
        }
        7 => {
            // Over the line limit, with the id before or after the padding.
            let pad = "p".repeat(MAX_LINE_BYTES + rng.below(4 * MAX_LINE_BYTES));
            message["params"]["pad"] = json!(pad);
            if rng.below(2) == 0 {
                let mut object = message.as_object().unwrap().clone();
                let id = object.remove("id").unwrap();
                object.insert("id".into(), id);
                message = Value::Object(object);
            }
            (text(&message), None)
        }
        _ => {
            // Raw bytes that are not UTF-8 inside a string.
            let mut bytes = text(&message);
            let at = bytes.iter().position(|b| *b == b'"').unwrap_or(0) + 1;
            bytes.splice(at..at, [0xFF, 0xC3, 0x28]);
            (bytes, None)
        }
    }
}

/// The id a correct server must answer this line with, from what the test
/// itself can parse: `None` when the line is not a request with a usable id.
fn expected_id(line: &[u8], known: Option<Value>) -> Option<Value> {
    if known.is_some() {
        return known;
    }
    let Ok(Value::Object(message)) = serde_json::from_slice::<Value>(line) else { return None };
    let id = message.get("id")?;
    let usable = id.is_string() || id.as_i64().is_some();
    let response = !message.contains_key("method") && (message.contains_key("result") || message.contains_key("error"));
    (usable && !response).then(|| id.clone())
}

#[test]
fn a_stream_of_mutated_messages_gets_one_answer_per_usable_id_and_the_gateway_keeps_serving() {
    let max = MAX_LINE_BYTES.to_string();
    let mut mcp = Mcp::start(&["--max-line-bytes", &max]);
    let mut rng = Rng(0x5EED_1D50_FF00_D00D);
    let mut stream = Vec::new();
    let mut expected: Vec<Value> = Vec::new();
    let mut kinds_refused = 0;
    for line in 0..LINES {
        let (bytes, known) = mutated(&mut rng, line);
        match expected_id(&bytes, known) {
            Some(id) => expected.push(id),
            None => kinds_refused += 1,
        }
        stream.extend_from_slice(&bytes);
        stream.push(b'\n');
    }
    assert!(expected.len() > LINES / 3 && kinds_refused > LINES / 4, "the mix covers both: {}", expected.len());
    // One stream, from a thread: the gateway's answers are read meanwhile.
    let mut stdin = mcp.server.take_stdin();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        stdin.write_all(&stream).unwrap();
        let last = json!({"jsonrpc": "2.0", "id": "final", "method": "tools/call", "params": {"name": "rigor_explain", "arguments": {"rule": "flow.dead-assignment"}}});
        stdin.write_all(format!("{last}\n").as_bytes()).unwrap();
        stdin
    });
    let mut answers: BTreeMap<String, usize> = BTreeMap::new();
    let final_answer = loop {
        let message = mcp.server.receive();
        if message.get("method").is_some() {
            continue;
        }
        assert!(message.get("result").is_some() != message.get("error").is_some(), "{message}");
        if message["id"] == json!("final") {
            break message;
        }
        *answers.entry(message["id"].to_string()).or_default() += 1;
    };
    // Calls are answered in order, but other answers may trail slightly.
    while let Some(message) = mcp.server.receive_within(Duration::from_millis(500)) {
        *answers.entry(message["id"].to_string()).or_default() += 1;
    }
    let _stdin = writer.join().unwrap();

    assert_eq!(final_answer["result"]["isError"], json!(false), "{final_answer}");
    assert!(result_text(&final_answer["result"]).contains("flow.dead-assignment"));
    for id in &expected {
        assert_eq!(answers.get(&id.to_string()), Some(&1), "request {id} gets exactly one answer");
    }
    for (id, count) in &answers {
        assert!(id == "null" || *count == 1, "{id} answered {count} times");
    }
    mcp.server.assert_stdout_is_protocol_only();
}
