//! One-shot use without an IDE: `rigor-mcp call` and `rigor-mcp tools`
//! (and `attach PATH --call`) speak real MCP, through [`Client`], and print
//! the result for a person or a script.

use serde_json::{json, Map, Value};

use crate::client::Client;

/// Exit codes of `rigor-mcp call`.
pub const EXIT_OK: i32 = 0;
pub const EXIT_TOOL_ERROR: i32 = 1;
pub const EXIT_FAILURE: i32 = 2;

/// Calls `tool` with `words` (one JSON object, or key=value pairs) and
/// prints the result's text, or the whole result with `as_json`.
pub async fn call(client: Result<Client, String>, tool: &str, words: &[String], as_json: bool) -> i32 {
    let mut client = match client {
        Ok(client) => client,
        Err(error) => return fail(&error),
    };
    let tools = match client.request("tools/list", json!({})).await {
        Ok(tools) => tools,
        Err(error) => return fail(&error),
    };
    let schema = tools["tools"]
        .as_array()
        .and_then(|tools| tools.iter().find(|t| t["name"] == tool))
        .map(|t| t["inputSchema"].clone());
    let arguments = match parse_arguments(words, schema.as_ref()) {
        Ok(arguments) => arguments,
        Err(error) => return fail(&error),
    };
    let result = match client.request("tools/call", json!({"name": tool, "arguments": arguments})).await {
        Ok(result) => result,
        Err(error) => return fail(&error),
    };
    if as_json {
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

pub async fn tools(client: Result<Client, String>, as_json: bool) -> i32 {
    let mut client = match client {
        Ok(client) => client,
        Err(error) => return fail(&error),
    };
    let mut tools = Vec::new();
    let mut cursor = Value::Null;
    loop {
        let page = match client.request("tools/list", json!({"cursor": cursor})).await {
            Ok(page) => page,
            Err(error) => return fail(&error),
        };
        tools.extend(page["tools"].as_array().cloned().unwrap_or_default());
        match page.get("nextCursor") {
            Some(next) if next.is_string() => cursor = next.clone(),
            _ => break,
        }
    }
    if as_json {
        println!("{}", serde_json::to_string_pretty(&json!({"tools": tools})).unwrap_or_default());
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
