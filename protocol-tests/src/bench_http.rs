//! bench-gateway's HTTP row: warm `tools/call`s through `rigor-mcp
//! --transport http`, one keep-alive connection, one session.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

struct Gateway(Child);

impl Drop for Gateway {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Round-trip times of `rounds` warm calls (after a warm-up).
pub fn warm_calls(gateway_bin: &Path, root: &Path, tool: &str, arguments: &Value, rounds: usize) -> Vec<Duration> {
    let mut child = Command::new(gateway_bin)
        .args(["--transport", "http", "--port", "0", "--log-level", "error", "--root"])
        .arg(root)
        .current_dir(root)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn rigor-mcp --transport http");
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let gateway = Gateway(child);
    let mut line = String::new();
    let address = loop {
        line.clear();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "rigor-mcp printed no address");
        if let Some(rest) = line.trim().strip_prefix("rigor-mcp: serving MCP at http://") {
            break rest.trim_end_matches("/mcp").to_string();
        }
    };
    std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
    let stream = TcpStream::connect(&address).unwrap();
    stream.set_nodelay(true).unwrap();
    let mut client =
        Client { reader: BufReader::new(stream.try_clone().unwrap()), writer: stream, address, session: None };
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}});
    client.post(&init.to_string());
    client.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    let warmup = 20;
    let mut samples = Vec::with_capacity(rounds);
    for i in 0..rounds + warmup {
        let call = json!({"jsonrpc": "2.0", "id": i + 1, "method": "tools/call", "params": {"name": tool, "arguments": arguments}});
        let body = call.to_string();
        let started = Instant::now();
        let answer = client.post(&body);
        let elapsed = started.elapsed();
        let answer: Value = serde_json::from_str(&answer).expect("a JSON answer");
        assert_eq!(answer["result"]["isError"], json!(false), "{answer}");
        if i >= warmup {
            samples.push(elapsed);
        }
    }
    drop(gateway);
    samples
}

struct Client {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    address: String,
    session: Option<String>,
}

impl Client {
    /// One POST on the kept-alive connection; returns the body.
    fn post(&mut self, body: &str) -> String {
        let session = self.session.as_ref().map_or(String::new(), |s| format!("Mcp-Session-Id: {s}\r\n"));
        let request = format!(
            "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n{session}Content-Length: {}\r\n\r\n{body}",
            self.address,
            body.len()
        );
        self.writer.write_all(request.as_bytes()).unwrap();
        let mut length = 0;
        let mut line = String::new();
        loop {
            line.clear();
            self.reader.read_line(&mut line).unwrap();
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                match name.to_ascii_lowercase().as_str() {
                    "content-length" => length = value.trim().parse().unwrap(),
                    "mcp-session-id" => self.session = Some(value.trim().to_string()),
                    _ => {}
                }
            }
        }
        let mut answer = vec![0; length];
        self.reader.read_exact(&mut answer).unwrap();
        String::from_utf8(answer).unwrap()
    }
}
