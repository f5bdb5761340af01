//! Finds the top-level `"id"` member of a message the parser refused (a line
//! over the limit, nesting deeper than serde_json allows, broken JSON), so
//! the error can still be answered to the request's id. Streaming and
//! iterative: it sees each byte once, keeps only a depth counter and the
//! few bytes of the current top-level key or id value, and never recurses.

use serde_json::Value;

/// Longest top-level key kept: `"id"`, even fully escaped, is far shorter.
const KEY_LIMIT: usize = 32;
/// Longest id kept; a longer one is treated as unusable.
const ID_LIMIT: usize = 4096;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// Before the opening `{` of the message.
    Open,
    Key,
    Colon,
    Value,
    /// After a member: `,` or `}`.
    Next,
    /// The top-level object has closed (or the input is not an object).
    Done,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token {
    None,
    /// A string; `escaped` after a backslash.
    Text {
        escaped: bool,
    },
    /// A number or a literal at depth 1.
    Bare,
}

#[derive(Debug)]
pub struct IdScanner {
    expect: Expect,
    /// Nesting depth: 1 inside the top-level object.
    depth: u64,
    max_depth: u64,
    token: Token,
    /// The raw bytes of the current top-level key, or of the id's value.
    raw: Vec<u8>,
    overflow: bool,
    /// The current top-level member is `id`.
    in_id: bool,
    /// An id value not yet followed by `,` or `}`: garbage after it would
    /// mean it was not the id the client wrote.
    pending: Option<Value>,
    /// The last `id` member seen (null when its value was not a scalar).
    found: Option<Value>,
}

impl Default for IdScanner {
    fn default() -> Self {
        IdScanner {
            expect: Expect::Open,
            depth: 0,
            max_depth: 0,
            token: Token::None,
            raw: Vec::new(),
            overflow: false,
            in_id: false,
            pending: None,
            found: None,
        }
    }
}

impl IdScanner {
    /// Scans a whole line at once.
    pub fn scan(line: &[u8]) -> IdScanner {
        let mut scanner = IdScanner::default();
        scanner.feed(line);
        scanner
    }

    /// The id found so far: `Some(value)` for the last top-level `id` member
    /// (`Value::Null` when it was not a readable scalar), `None` if none.
    pub fn id(&self) -> Option<&Value> {
        self.found.as_ref()
    }

    /// The deepest nesting seen (1 for a flat object).
    pub fn max_depth(&self) -> u64 {
        self.max_depth
    }

    pub fn feed(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            if self.expect == Expect::Done {
                return;
            }
            self.step(byte);
        }
    }

    fn step(&mut self, byte: u8) {
        match self.token {
            Token::Text { escaped } => return self.text_byte(byte, escaped),
            Token::Bare if is_bare(byte) => return self.keep(byte, ID_LIMIT),
            Token::Bare => self.end_bare(),
            Token::None => {}
        }
        if self.depth > 1 {
            return self.nested_byte(byte);
        }
        match (self.expect, byte) {
            (_, b' ' | b'\t' | b'\r' | b'\n') => {}
            // A byte-order mark before the message.
            (Expect::Open, 0xEF | 0xBB | 0xBF) => {}
            (Expect::Open, b'{') => self.open(Expect::Key),
            (Expect::Key, b'"') => self.begin_text(),
            (Expect::Key | Expect::Next, b'}') => {
                self.accept_pending();
                self.close();
            }
            (Expect::Colon, b':') => self.expect = Expect::Value,
            (Expect::Next, b',') => {
                self.accept_pending();
                self.expect = Expect::Key;
            }
            (Expect::Value, b'"') => self.begin_text(),
            (Expect::Value, b'{' | b'[') => {
                if self.in_id {
                    self.found = Some(Value::Null);
                }
                self.open(Expect::Next);
            }
            (Expect::Value, _) if is_bare(byte) => {
                self.token = Token::Bare;
                self.raw.clear();
                self.overflow = false;
                self.keep(byte, ID_LIMIT);
            }
            // Anything else: the structure is broken; stop where we are.
            _ => self.expect = Expect::Done,
        }
    }

    /// A byte inside a nested value: only strings and brackets matter.
    fn nested_byte(&mut self, byte: u8) {
        match byte {
            b'"' => self.token = Token::Text { escaped: false },
            b'{' | b'[' => self.open(self.expect),
            b'}' | b']' => {
                self.depth -= 1;
                if self.depth == 1 {
                    self.expect = Expect::Next;
                }
            }
            _ => {}
        }
    }

    fn text_byte(&mut self, byte: u8, escaped: bool) {
        let top = self.depth == 1;
        if top && self.expect == Expect::Key {
            self.keep(byte, KEY_LIMIT);
        } else if top && self.in_id {
            self.keep(byte, ID_LIMIT);
        }
        match (escaped, byte) {
            (false, b'\\') => self.token = Token::Text { escaped: true },
            (false, b'"') => {
                self.token = Token::None;
                match self.expect {
                    _ if !top => {}
                    Expect::Key => self.end_key(),
                    _ if self.in_id => self.finish_id(),
                    _ => self.expect = Expect::Next,
                }
            }
            _ => self.token = Token::Text { escaped: false },
        }
    }

    fn begin_text(&mut self) {
        self.token = Token::Text { escaped: false };
        self.raw.clear();
        self.overflow = false;
        self.raw.push(b'"');
    }

    fn end_key(&mut self) {
        let key = if self.overflow { None } else { serde_json::from_slice::<String>(&self.raw).ok() };
        self.in_id = key.as_deref() == Some("id");
        self.expect = Expect::Colon;
    }

    fn end_bare(&mut self) {
        self.token = Token::None;
        if self.in_id {
            self.finish_id();
        } else {
            self.expect = Expect::Next;
        }
    }

    fn finish_id(&mut self) {
        let value = if self.overflow { None } else { serde_json::from_slice::<Value>(&self.raw).ok() };
        self.pending = Some(value.unwrap_or(Value::Null));
        self.expect = Expect::Next;
    }

    fn accept_pending(&mut self) {
        if let Some(id) = self.pending.take() {
            self.found = Some(id);
        }
    }

    fn keep(&mut self, byte: u8, limit: usize) {
        if self.raw.len() < limit {
            self.raw.push(byte);
        } else {
            self.overflow = true;
        }
    }

    fn open(&mut self, after: Expect) {
        self.depth += 1;
        self.max_depth = self.max_depth.max(self.depth);
        self.expect = after;
    }

    fn close(&mut self) {
        self.depth -= 1;
        self.expect = Expect::Done;
    }
}

/// Bytes of a number or of `true`, `false`, `null`.
fn is_bare(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'+' | b'.')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn id_of(line: &str) -> Option<Value> {
        // Fed one byte at a time and all at once: the same answer.
        let mut bytewise = IdScanner::default();
        for byte in line.as_bytes() {
            bytewise.feed(std::slice::from_ref(byte));
        }
        let whole = IdScanner::scan(line.as_bytes());
        assert_eq!(bytewise.id(), whole.id(), "{line}");
        whole.id().cloned()
    }

    #[test]
    fn finds_top_level_ids_of_every_scalar_kind() {
        assert_eq!(id_of(r#"{"jsonrpc":"2.0","id":11,"method":"ping"}"#), Some(json!(11)));
        assert_eq!(id_of(r#" {"id" : "a\"b" , "x":1}"#), Some(json!("a\"b")));
        assert_eq!(id_of(r#"{"id":-3}"#), Some(json!(-3)));
        assert_eq!(id_of(r#"{"id":1.5}"#), Some(json!(1.5)));
        assert_eq!(id_of(r#"{"id":null}"#), Some(Value::Null));
        assert_eq!(id_of(r#"{"\u0069d":7}"#), Some(json!(7)), "an escaped key is still `id`");
        assert_eq!(id_of("\u{feff}{\"id\":8}"), Some(json!(8)), "after a byte-order mark");
    }

    #[test]
    fn ignores_nested_ids_and_lookalikes() {
        assert_eq!(id_of(r#"{"params":{"id":1,"s":"\"id\":2"},"x":"id","id":3}"#), Some(json!(3)));
        assert_eq!(id_of(r#"{"params":{"id":1}}"#), None);
        assert_eq!(id_of(r#"{"method":"id"}"#), None);
        assert_eq!(id_of(r#"[{"id":1}]"#), None, "not an object");
        assert_eq!(id_of(r#"{"id":{"n":1}}"#), Some(Value::Null), "present but not a scalar");
    }

    #[test]
    fn survives_depth_truncation_and_size() {
        let deep = format!(r#"{{"params":{}0{},"id":42}}"#, "[".repeat(100_000), "]".repeat(100_000));
        let scanner = IdScanner::scan(deep.as_bytes());
        assert_eq!(scanner.id(), Some(&json!(42)));
        assert_eq!(scanner.max_depth(), 100_001);
        assert_eq!(id_of(r#"{"jsonrpc":"2.0","id":9,"method":"pi"#), Some(json!(9)), "truncated after the id");
        assert_eq!(id_of(r#"{"jsonrpc":"2.0","id":9"#), None, "the number might go on");
        assert_eq!(id_of(r#"{"id":"unterminated"#), None);
        assert_eq!(id_of(r#"{"id":"fz-1"b","method":"ping"}"#), None, "garbage right after the id");
        assert_eq!(id_of(r#"{"id":"fz-1"}"#), Some(json!("fz-1")));
        let long_id = format!(r#"{{"id":"{}"}}"#, "x".repeat(ID_LIMIT));
        assert_eq!(id_of(&long_id), Some(Value::Null), "too long to keep");
    }
}
