//! One-shot use without an IDE: `rigor-mcp call` and `rigor-mcp tools`
//! speak real MCP to an in-process session over an in-memory connection,
//! so they exercise exactly what a client would.

use std::sync::Arc;

use serde_json::{json, Map, Value};

use crate::gateway::Gateway;
use crate::mcp::connection::{Connection, MemoryClient};
use crate::options::CallArgs;
use crate::session;

/// Exit codes of `rigor-mcp call`.
pub const EXIT_OK: i32 = 0;
pub const EXIT_TOOL_ERROR: i32 = 1;
pub const EXIT_FAILURE: i32 = 2;

struct Client {
    inner: MemoryClient,
    next_id: i64,
}

impl Client {
    async fn connect(gateway: Arc<Gateway>) -> Result<Client, String> {
        let (connection, inner) = Connection::memory();
        tokio::spawn(session::serve(connection, gateway));
        let mut client = Client { inner, next_id: 0 };
        client
            .request(
                "initialize",
                json!({"protocolVersion": session::SUPPORTED_VERSIONS[0], "capabilities": {}, "clientInfo": {"name": "rigor-mcp-oneshot", "version": env!("CARGO_PKG_VERSION")}}),
            )
            .await?;
        client.inner.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await;
        Ok(client)
    }

    async fn request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        self.next_id += 1;
        let id = self.next_id;
        self.inner.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})).await;
        loop {
            let message = self.inner.receive().await.ok_or("the session ended without answering")?;
            if message.get("id") != Some(&json!(id)) {
                continue; // a notification
            }
            if let Some(error) = message.get("error") {
                return Err(format!(
                    "{method} failed: {} (code {})",
                    error["message"].as_str().unwrap_or("?"),
                    error["code"]
                ));
            }
            return Ok(message.get("result").cloned().unwrap_or(Value::Null));
        }
    }
}

pub async fn call(gateway: Arc<Gateway>, args: &CallArgs) -> i32 {
    let mut client = match Client::connect(gateway.clone()).await {
        Ok(client) => client,
        Err(error) => return fail(&error),
    };
    let tools = match client.request("tools/list", json!({})).await {
        Ok(tools) => tools,
        Err(error) => return fail(&error),
    };
    let schema = tools["tools"]
        .as_array()
        .and_then(|tools| tools.iter().find(|t| t["name"] == args.tool))
        .map(|t| t["inputSchema"].clone());
    let arguments = match parse_arguments(&args.arguments, schema.as_ref()) {
        Ok(arguments) => arguments,
        Err(error) => return fail(&error),
    };
    let result = match client.request("tools/call", json!({"name": args.tool, "arguments": arguments})).await {
        Ok(result) => result,
        Err(error) => return fail(&error),
    };
    gateway.supervisor.shutdown().await;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&result).unwrap_or_default());
    } else {
        for block in result["content"].as_array().into_iter().flatten() {
            if let Some(text) = block["text"].as_str() {
                print!("{text}");
                if !text.ends_with('\n') {
                    println!();
                }
            }
        }
    }
    if result["isError"] == json!(true) {
        EXIT_TOOL_ERROR
    } else {
        EXIT_OK
    }
}

pub async fn tools(gateway: Arc<Gateway>, as_json: bool) -> i32 {
    let mut client = match Client::connect(gateway.clone()).await {
        Ok(client) => client,
        Err(error) => return fail(&error),
    };
    let result = match client.request("tools/list", json!({})).await {
        Ok(result) => result,
        Err(error) => return fail(&error),
    };
    gateway.supervisor.shutdown().await;
    let tools = result["tools"].as_array().cloned().unwrap_or_default();
    if as_json {
        println!("{}", serde_json::to_string_pretty(&result).unwrap_or_default());
    } else if tools.is_empty() {
        eprintln!("rigor-mcp: no tools: the engine is not available (see the log above)");
        return EXIT_FAILURE;
    } else {
        for tool in &tools {
            let properties: Vec<String> =
                tool["inputSchema"]["properties"].as_object().map(|p| p.keys().cloned().collect()).unwrap_or_default();
            println!("{}  ({})", tool["name"].as_str().unwrap_or("?"), properties.join(", "));
            println!("    {}", tool["description"].as_str().unwrap_or(""));
        }
    }
    EXIT_OK
}

fn fail(error: &str) -> i32 {
    eprintln!("rigor-mcp: {error}");
    EXIT_FAILURE
}

/// One JSON object, or `key=value` pairs.
fn parse_arguments(words: &[String], schema: Option<&Value>) -> Result<Value, String> {
    if let [only] = words {
        if only.trim_start().starts_with('{') {
            let value: Value =
                serde_json::from_str(only).map_err(|e| format!("arguments are not a JSON object: {e}"))?;
            return Ok(value);
        }
    }
    let mut arguments = Map::new();
    for word in words {
        let (key, raw) =
            word.split_once('=').ok_or_else(|| format!("argument {word:?} is not key=value or a JSON object"))?;
        let mut value = serde_json::from_str::<Value>(raw).unwrap_or_else(|_| Value::String(raw.to_string()));
        let declared = schema.and_then(|s| s["properties"][key]["type"].as_str());
        if declared == Some("string") && !value.is_string() {
            value = Value::String(raw.to_string());
        }
        if declared == Some("array") && !value.is_array() {
            value = match arguments.remove(key) {
                Some(Value::Array(mut items)) => {
                    items.push(value);
                    Value::Array(items)
                }
                _ => json!([value]),
            };
        }
        arguments.insert(key.to_string(), value);
    }
    Ok(Value::Object(arguments))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_value_arguments_follow_the_schema() {
        let schema =
            json!({"properties": {"paths": {"type": "array"}, "rule": {"type": "string"}, "top": {"type": "integer"}}});
        let words: Vec<String> =
            ["paths=lib", "paths=app", "rule=123", "top=3"].iter().map(|s| s.to_string()).collect();
        let got = parse_arguments(&words, Some(&schema)).unwrap();
        assert_eq!(got, json!({"paths": ["lib", "app"], "rule": "123", "top": 3}));
        let got = parse_arguments(&[r#"{"paths":["x"]}"#.to_string()], Some(&schema)).unwrap();
        assert_eq!(got, json!({"paths": ["x"]}));
        assert!(parse_arguments(&["oops".to_string()], None).is_err());
    }
}
