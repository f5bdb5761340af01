//! JSON-RPC 2.0 messages as MCP uses them: classification of what arrives,
//! and builders for what we send.

use std::borrow::Cow;

use serde_json::{json, Map, Value};

use super::id_scan::IdScanner;

/// serde_json refuses nesting deeper than this.
const PARSER_DEPTH_LIMIT: u64 = 128;

/// Error codes, with the numbers JSON-RPC and MCP assign.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    ParseError,
    InvalidRequest,
    MethodNotFound,
    InvalidParams,
    InternalError,
    /// MCP 2026-07-28: the request's protocol version is not supported.
    UnsupportedProtocolVersion,
}

impl ErrorCode {
    pub fn code(self) -> i64 {
        match self {
            ErrorCode::ParseError => -32700,
            ErrorCode::InvalidRequest => -32600,
            ErrorCode::MethodNotFound => -32601,
            ErrorCode::InvalidParams => -32602,
            ErrorCode::InternalError => -32603,
            ErrorCode::UnsupportedProtocolVersion => -32022,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    pub code: ErrorCode,
    pub message: String,
    pub data: Option<Value>,
}

impl RpcError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        RpcError { code, message: message.into(), data: None }
    }

    pub fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }
}

/// A request id: a string or an integer, echoed back exactly as received.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RequestId {
    Number(i64),
    Text(String),
}

impl RequestId {
    pub fn from_value(value: &Value) -> Option<RequestId> {
        match value {
            Value::String(text) => Some(RequestId::Text(text.clone())),
            Value::Number(number) => number.as_i64().map(RequestId::Number),
            _ => None,
        }
    }

    pub fn to_value(&self) -> Value {
        match self {
            RequestId::Number(n) => Value::from(*n),
            RequestId::Text(s) => Value::from(s.as_str()),
        }
    }
}

impl std::fmt::Display for RequestId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RequestId::Number(n) => write!(f, "{n}"),
            RequestId::Text(s) => write!(f, "{s:?}"),
        }
    }
}

/// What one incoming line turned out to be.
#[derive(Debug, PartialEq)]
pub enum Incoming {
    Request {
        id: RequestId,
        method: String,
        params: Params,
    },
    Notification {
        method: String,
        params: Params,
    },
    /// A response to a request of ours (we send none); ignored.
    Response,
    /// Not a valid message; answer `error` to `id` (null when unknown).
    Invalid {
        id: Option<RequestId>,
        error: RpcError,
    },
}

/// Request parameters: absent, or an object. Anything else is kept so the
/// method can answer -32602 (params exist but have the wrong type).
#[derive(Debug, Clone, PartialEq)]
pub enum Params {
    None,
    Object(Map<String, Value>),
    Other(Value),
}

impl Params {
    /// The parameters as an object; absent parameters are an empty object.
    pub fn object(&self) -> Result<Cow<'_, Map<String, Value>>, RpcError> {
        match self {
            Params::None => Ok(Cow::Owned(Map::new())),
            Params::Object(map) => Ok(Cow::Borrowed(map)),
            Params::Other(value) => Err(RpcError::new(
                ErrorCode::InvalidParams,
                format!("params must be an object, not {}", kind_of(value)),
            )),
        }
    }
}

pub fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The id of a message the parser refused, if its top-level `id` member
/// can still be found and is a string or an integer.
pub fn recover_id(scanned: &IdScanner) -> Option<RequestId> {
    scanned.id().and_then(RequestId::from_value)
}

/// Classifies one line of input.
pub fn classify(line: &[u8]) -> Incoming {
    // Only an object: serde would also read a struct from an array.
    let object = line.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
    if let Some(message) = object.then(|| serde_json::from_slice::<WellFormed>(line).ok()).flatten() {
        return message.into_incoming();
    }
    classify_tree(line)
}

/// A request or notification with every member of the right type: read
/// straight from the line, with no tree for the envelope. Anything else
/// (a wrong type, a null id, a duplicate member, a response, bad JSON)
/// fails here and is classified from its tree, which words the error.
#[derive(serde::Deserialize)]
struct WellFormed<'a> {
    #[serde(borrow)]
    jsonrpc: Cow<'a, str>,
    #[serde(default, deserialize_with = "present_id")]
    id: Option<RequestId>,
    method: String,
    #[serde(default, deserialize_with = "present")]
    params: Option<Value>,
}

impl WellFormed<'_> {
    fn into_incoming(self) -> Incoming {
        if self.jsonrpc != "2.0" {
            return Incoming::Invalid {
                id: self.id,
                error: RpcError::new(
                    ErrorCode::InvalidRequest,
                    "missing or wrong `jsonrpc`: it must be the string \"2.0\"",
                ),
            };
        }
        let params = match self.params {
            None => Params::None,
            Some(Value::Object(map)) => Params::Object(map),
            Some(other) => Params::Other(other),
        };
        match self.id {
            Some(id) => Incoming::Request { id, method: self.method, params },
            None => Incoming::Notification { method: self.method, params },
        }
    }
}

/// A member that is present, even as `null` (which `Option` would hide).
fn present<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    serde::Deserialize::deserialize(deserializer).map(Some)
}

/// An id that is a string or an integer; anything else (null included)
/// is refused, for the tree to word the error.
fn present_id<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<RequestId>, D::Error> {
    struct Id;
    impl serde::de::Visitor<'_> for Id {
        type Value = RequestId;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a string or an integer")
        }
        fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<RequestId, E> {
            Ok(RequestId::Number(n))
        }
        fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<RequestId, E> {
            i64::try_from(n).map(RequestId::Number).map_err(|_| E::custom("out of range"))
        }
        fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<RequestId, E> {
            Ok(RequestId::Text(text.to_string()))
        }
        fn visit_string<E: serde::de::Error>(self, text: String) -> Result<RequestId, E> {
            Ok(RequestId::Text(text))
        }
    }
    deserializer.deserialize_any(Id).map(Some)
}

/// Classifies a line from its JSON tree: every malformed case, worded.
fn classify_tree(line: &[u8]) -> Incoming {
    let value: Value = match serde_json::from_slice(line) {
        Ok(value) => value,
        Err(error) => {
            // Answer to the request's id whenever it can be found, so the
            // client is not left waiting on it.
            let scanned = IdScanner::scan(line);
            let id = recover_id(&scanned);
            if scanned.max_depth() > PARSER_DEPTH_LIMIT && error.to_string().contains("recursion limit") {
                let message = format!(
                    "the message nests {} levels deep; this server reads at most {PARSER_DEPTH_LIMIT}",
                    scanned.max_depth()
                );
                return Incoming::Invalid { id, error: RpcError::new(ErrorCode::InvalidRequest, message) };
            }
            let problem = if std::str::from_utf8(line).is_err() { "input is not valid UTF-8" } else { "invalid JSON" };
            return Incoming::Invalid {
                id,
                error: RpcError::new(ErrorCode::ParseError, format!("parse error: {problem} ({error})")),
            };
        }
    };
    let invalid = |id: Option<RequestId>, message: String| Incoming::Invalid {
        id,
        error: RpcError::new(ErrorCode::InvalidRequest, message),
    };
    let mut object = match value {
        Value::Object(object) => object,
        Value::Array(_) => {
            return invalid(None, "batches (JSON arrays) are not supported: send one JSON-RPC object per line".into())
        }
        other => return invalid(None, format!("a JSON-RPC message must be an object, not {}", kind_of(&other))),
    };
    let id = match object.get("id") {
        None => None,
        Some(raw) => match RequestId::from_value(raw) {
            Some(id) => Some(id),
            None => return invalid(None, format!("id must be a string or an integer, not {}", kind_of(raw))),
        },
    };
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return invalid(id, "missing or wrong `jsonrpc`: it must be the string \"2.0\"".into());
    }
    let method = match object.get("method") {
        Some(Value::String(method)) => method.clone(),
        Some(other) => return invalid(id, format!("method must be a string, not {}", kind_of(other))),
        None if id.is_some() && (object.contains_key("result") || object.contains_key("error")) => {
            return Incoming::Response
        }
        None => return invalid(id, "missing `method`".into()),
    };
    // Taken, not copied: this runs for every message.
    let params = match object.remove("params") {
        None => Params::None,
        Some(Value::Object(map)) => Params::Object(map),
        Some(other) => Params::Other(other),
    };
    match id {
        Some(id) => Incoming::Request { id, method, params },
        None => Incoming::Notification { method, params },
    }
}

/// A JSON object of `entries`, moved in. `json!` would serialise every
/// interpolated value into a fresh copy (a whole tool result, each call).
pub fn object<const N: usize>(entries: [(&str, Value); N]) -> Value {
    let mut map = Map::with_capacity(N);
    for (key, value) in entries {
        map.insert(key.to_string(), value);
    }
    Value::Object(map)
}

/// A response envelope to serialise as it stands (see `Outbox::respond`).
#[derive(serde::Serialize)]
pub struct Response<'a> {
    jsonrpc: &'static str,
    id: &'a RequestId,
    result: &'a Value,
}

impl<'a> Response<'a> {
    pub fn new(id: &'a RequestId, result: &'a Value) -> Self {
        Response { jsonrpc: "2.0", id, result }
    }
}

impl serde::Serialize for RequestId {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            RequestId::Number(n) => serializer.serialize_i64(*n),
            RequestId::Text(s) => serializer.serialize_str(s),
        }
    }
}

pub fn response(id: &RequestId, result: Value) -> Value {
    object([("jsonrpc", "2.0".into()), ("id", id.to_value()), ("result", result)])
}

pub fn error_response(id: Option<&RequestId>, error: &RpcError) -> Value {
    let mut body = json!({"code": error.code.code(), "message": error.message});
    if let Some(data) = &error.data {
        body["data"] = data.clone();
    }
    json!({"jsonrpc": "2.0", "id": id.map_or(Value::Null, RequestId::to_value), "error": body})
}

pub fn notification(method: &str, params: Value) -> Value {
    object([("jsonrpc", "2.0".into()), ("method", method.into()), ("params", params)])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn invalid_code(line: &str) -> (Option<RequestId>, i64) {
        match classify(line.as_bytes()) {
            Incoming::Invalid { id, error } => (id, error.code.code()),
            other => panic!("{line} classified as {other:?}"),
        }
    }

    #[test]
    fn malformed_messages_get_the_right_codes() {
        let cases: &[(&str, Option<RequestId>, i64)] = &[
            ("{", None, -32700),
            ("[1,2]", None, -32600),
            ("42", None, -32600),
            ("{\"id\":1,\"method\":\"ping\"}", Some(RequestId::Number(1)), -32600),
            ("{\"jsonrpc\":\"1.0\",\"id\":\"a\",\"method\":\"ping\"}", Some(RequestId::Text("a".into())), -32600),
            ("{\"jsonrpc\":\"2.0\",\"id\":7}", Some(RequestId::Number(7)), -32600),
            ("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}", None, -32600),
            ("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}", None, -32600),
            ("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":3}", Some(RequestId::Number(2)), -32600),
        ];
        for (line, id, code) in cases {
            assert_eq!(invalid_code(line), (id.clone(), *code), "{line}");
        }
        assert!(matches!(classify(b"\xff\xfe"), Incoming::Invalid { error, .. } if error.message.contains("UTF-8")));
    }

    #[test]
    fn refused_messages_are_answered_to_their_id_when_it_can_be_found() {
        let deep =
            format!(r#"{{"jsonrpc":"2.0","method":"ping","params":{}{},"id":11}}"#, "[".repeat(500), "]".repeat(500));
        assert_eq!(invalid_code(&deep), (Some(RequestId::Number(11)), -32600));
        let cases: &[(&str, Option<RequestId>, i64)] = &[
            (r#"{"jsonrpc":"2.0","id":"t","method":"pi"#, Some(RequestId::Text("t".into())), -32700),
            (r#"{"jsonrpc":"2.0","id":3,"method":"ping",}"#, Some(RequestId::Number(3)), -32700),
            (r#"{"jsonrpc":"2.0","id":3.5,"method":}"#, None, -32700),
            (r#"{"params":{"id":4},"method":}"#, None, -32700),
        ];
        for (line, id, code) in cases {
            assert_eq!(invalid_code(line), (id.clone(), *code), "{line}");
        }
    }

    #[test]
    fn requests_notifications_and_responses_are_told_apart() {
        assert_eq!(
            classify(br#"{"jsonrpc":"2.0","id":0,"method":"ping"}"#),
            Incoming::Request { id: RequestId::Number(0), method: "ping".into(), params: Params::None }
        );
        assert!(matches!(
            classify(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
            Incoming::Notification { .. }
        ));
        assert_eq!(classify(br#"{"jsonrpc":"2.0","id":"x","result":{}}"#), Incoming::Response);
        assert!(matches!(
            classify(br#"{"jsonrpc":"2.0","id":1,"method":"m","params":[1]}"#),
            Incoming::Request { params: Params::Other(_), .. }
        ));
    }

    #[test]
    fn the_direct_reading_agrees_with_the_tree() {
        let lines = [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":[1,{"b":null}]}}}"#,
            r#"{"jsonrpc":"2.0","id":"s","method":"ping","params":null}"#,
            r#"{"jsonrpc":"2.0","id":-7,"method":"m","params":[1,2]}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}"#,
            r#"{"jsonrpc":"2\u002e0","id":1,"method":"m","extra":{"id":9}}"#,
            r#"{"jsonrpc":"1.0","id":2,"method":"m"}"#,
            r#"{"jsonrpc":"2.0","id":null,"method":"m"}"#,
            r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"m"}"#,
            r#"{"jsonrpc":"2.0","id":9223372036854775808,"method":"m"}"#,
            r#"{"jsonrpc":"2.0","id":1.0,"method":"m"}"#,
            r#"{"jsonrpc":2,"id":1,"method":"m"}"#,
            r#"["2.0",1,"ping"]"#,
            r#"  {"jsonrpc":"2.0","id":1,"method":"m"}  "#,
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
        ];
        for line in lines {
            assert_eq!(classify(line.as_bytes()), classify_tree(line.as_bytes()), "{line}");
        }
        assert!(
            matches!(classify(br#"["2.0",1,"ping"]"#), Incoming::Invalid { error, .. } if error.message.contains("batches"))
        );
    }

    proptest::proptest! {
        /// Whatever the members' types, order, duplicates or absence, the
        /// direct reading classifies a message as its tree does.
        #[test]
        fn the_direct_reading_agrees_with_the_tree_on_any_envelope(
            chosen in proptest::collection::vec(proptest::option::weighted(0.7, 0usize..9), 5),
            duplicate in proptest::option::of((0usize..5, 0usize..9)),
            rotation in 0usize..6,
            leading_space in proptest::bool::ANY,
        ) {
            let names = ["jsonrpc", "id", "method", "params", "result"];
            // Mostly well-typed values, so that most messages are valid.
            let values = ["\"2.0\"", "\"m\"", "7", "null", "\"1.0\"", "1.5", "{\"a\":[1]}", "[1,2]", "-3"];
            let mut body: Vec<String> = chosen
                .iter()
                .zip(names)
                .filter_map(|(value, name)| value.map(|v| format!("\"{name}\":{}", values[v])))
                .collect();
            body.extend(duplicate.map(|(name, value)| format!("\"{}\":{}", names[name], values[value])));
            let turn = rotation % body.len().max(1);
            body.rotate_left(turn);
            let line = format!("{}{{{}}}", if leading_space { " " } else { "" }, body.join(","));
            proptest::prop_assert_eq!(classify(line.as_bytes()), classify_tree(line.as_bytes()), "{}", line);
        }
    }

    #[test]
    fn error_responses_echo_the_id_or_null() {
        let error = RpcError::new(ErrorCode::MethodNotFound, "no");
        assert_eq!(error_response(Some(&RequestId::Text("a".into())), &error)["id"], json!("a"));
        assert_eq!(error_response(None, &error)["id"], Value::Null);
        assert_eq!(error_response(None, &error)["error"]["code"], json!(-32601));
    }
}
