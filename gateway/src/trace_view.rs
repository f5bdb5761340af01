//! `rigor-mcp trace FILE [--follow]`: prints a `--trace` file readably, one
//! line per message: time, session, direction and a summary.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::time::Duration;

use serde_json::Value;

const WIDTH: usize = 160;

pub fn print(path: &Path, follow: bool) -> i32 {
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(error) => {
            eprintln!("rigor-mcp: {}: {error}", path.display());
            return 2;
        }
    };
    let mut reader = BufReader::new(file);
    let mut stdout = std::io::stdout().lock();
    let mut line = String::new();
    loop {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) if follow => std::thread::sleep(Duration::from_millis(200)),
            Ok(0) => return 0,
            Ok(_) if !line.ends_with('\n') && follow => {
                // A record still being written: wait for the rest of it.
                std::thread::sleep(Duration::from_millis(50));
                let mut rest = String::new();
                let _ = reader.read_line(&mut rest);
                line.push_str(&rest);
                if writeln!(stdout, "{}", render(&line)).is_err() {
                    return 0;
                }
            }
            Ok(_) => {
                if writeln!(stdout, "{}", render(&line)).is_err() {
                    return 0;
                }
            }
            Err(error) => {
                eprintln!("rigor-mcp: {}: {error}", path.display());
                return 2;
            }
        }
    }
}

/// One trace record as a line of text.
pub fn render(line: &str) -> String {
    let Ok(record) = serde_json::from_str::<Value>(line.trim_end()) else {
        return format!("?? {}", clip(line.trim_end()));
    };
    let time = record["ts"].as_str().and_then(|ts| ts.get(11..23)).unwrap_or("??:??:??.???");
    let session = record["session"].as_str().unwrap_or("?");
    let arrow = match record["dir"].as_str() {
        Some("in") => "-->",
        Some("out") => "<--",
        Some("to-worker") => "==>",
        Some("from-worker") => "<==",
        _ => "???",
    };
    let message = &record["message"];
    let summary = if record["dir"].as_str().is_some_and(|d| d.ends_with("worker")) {
        worker_summary(message)
    } else {
        mcp_summary(message)
    };
    format!("{time}  {session:<12} {arrow} {summary}")
}

fn mcp_summary(message: &Value) -> String {
    if let Value::String(text) = message {
        return format!("(not JSON) {}", clip(text));
    }
    let id = message.get("id").map(|id| format!("#{id} "));
    if let Some(method) = message["method"].as_str() {
        let params = message.get("params").map(compact).unwrap_or_default();
        return clip(&format!("{}{method} {params}", id.unwrap_or_default()));
    }
    let id = id.unwrap_or_else(|| "#? ".into());
    if let Some(error) = message.get("error") {
        return clip(&format!("{id}error {}: {}", error["code"], error["message"].as_str().unwrap_or("")));
    }
    let result = &message["result"];
    if let Some(content) = result["content"].as_array() {
        let first = content.first().and_then(|c| c["text"].as_str()).unwrap_or("");
        let flag = if result["isError"] == Value::Bool(true) { "isError " } else { "" };
        return clip(&format!("{id}result {flag}{}", first.replace('\n', " ")));
    }
    clip(&format!("{id}result {}", compact(result)))
}

fn worker_summary(message: &Value) -> String {
    if let Value::String(text) = message {
        return format!("(not JSON) {}", clip(text));
    }
    match message["type"].as_str() {
        Some("call") => {
            let argv: Vec<&str> = message["argv"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
            let warm_up = if message["warm_up"] == Value::Bool(true) { " (warm-up)" } else { "" };
            clip(&format!("call {}{warm_up}: {}", message["id"], argv.join(" ")))
        }
        Some("result") => format!(
            "result {}: exit {}, {:.1} ms, {} bytes out, {} bytes err",
            message["id"],
            message["exit_code"],
            message["elapsed_ms"].as_f64().unwrap_or(0.0),
            message["stdout"].as_str().map_or(0, str::len),
            message["stderr"].as_str().map_or(0, str::len)
        ),
        Some("hello") => format!(
            "hello: {} {}, {} tools, pid {}",
            message["engine"]["name"].as_str().unwrap_or("?"),
            message["engine"]["version"].as_str().unwrap_or("?"),
            message["tools"].as_array().map_or(0, Vec::len),
            message["pid"]
        ),
        Some(other) => clip(&format!("{other} {}", compact(message))),
        None => clip(&compact(message)),
    }
}

fn compact(value: &Value) -> String {
    value.to_string()
}

fn clip(text: &str) -> String {
    if text.chars().count() <= WIDTH {
        return text.to_string();
    }
    let cut: String = text.chars().take(WIDTH).collect();
    format!("{cut}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_render_as_one_readable_line() {
        let request = r#"{"ts":"2026-11-30T06:12:01.123Z","dir":"in","session":"stdio","message":{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"rigor_check"}}}"#;
        assert_eq!(render(request), r#"06:12:01.123  stdio        --> #3 tools/call {"name":"rigor_check"}"#);
        let answer = r#"{"ts":"2026-11-30T06:12:01.200Z","dir":"out","session":"stdio","message":{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"ok\nmore"}],"isError":true}}}"#;
        assert_eq!(render(answer), "06:12:01.200  stdio        <-- #3 result isError ok more");
        let worker = r#"{"ts":"2026-11-30T06:12:01.150Z","dir":"from-worker","session":"worker-7","message":{"type":"result","id":1,"exit_code":1,"stdout":"abc","stderr":"","elapsed_ms":2.5}}"#;
        assert_eq!(render(worker), "06:12:01.150  worker-7     <== result 1: exit 1, 2.5 ms, 3 bytes out, 0 bytes err");
        assert!(render("garbage").starts_with("??"));
    }
}
