//! Who the server is, as the engine says in its hello (`server`): the name
//! and title clients see, the instructions for models, which environment
//! variables the worker gets, and the `_meta` key of call results. Each
//! field the hello leaves out takes Rigor's value, so an engine owns its
//! identity and older Rigor engines need not say anything.

use serde_json::{json, Value};

/// The gateway's defaults: Rigor's identity.
pub const DEFAULT_NAME: &str = "rigor-mcp";
pub const DEFAULT_TITLE: &str = "Rigor";
pub const DEFAULT_ENV_PREFIX: &str = "RIGOR_";
pub const DEFAULT_META_KEY: &str = "rigor/worker";
pub const DEFAULT_INSTRUCTIONS: &str = "Rigor is a Ruby type checker. Its tools analyse the Ruby files of the project root (paths are relative to it). Call rigor_check before proposing a refactor: it returns JSON diagnostics, and finding diagnostics is a normal result, not an error. rigor_type_of gives the inferred type of the expression at a file position, rigor_annotate shows a file with the type of each line, and rigor_coverage measures how precisely code is typed. rigor_triage summarises a whole project; rigor_explain describes a rule.";

#[derive(Debug, Clone, PartialEq)]
pub struct ServerIdentity {
    pub name: String,
    pub title: String,
    /// `serverInfo.version`; the gateway's own version unless the engine says.
    pub version: String,
    pub instructions: String,
    /// Variables starting with this reach the worker.
    pub env_prefix: String,
    /// Call results carry the worker's details under `_meta[meta_key]`.
    pub meta_key: String,
}

impl Default for ServerIdentity {
    fn default() -> Self {
        ServerIdentity {
            name: DEFAULT_NAME.into(),
            title: DEFAULT_TITLE.into(),
            version: env!("CARGO_PKG_VERSION").into(),
            instructions: DEFAULT_INSTRUCTIONS.into(),
            env_prefix: DEFAULT_ENV_PREFIX.into(),
            meta_key: DEFAULT_META_KEY.into(),
        }
    }
}

impl ServerIdentity {
    /// Reads the hello's `server` object (absent: all defaults).
    pub fn from_hello(server: Option<&Value>) -> Result<ServerIdentity, String> {
        let mut identity = ServerIdentity::default();
        let Some(server) = server else { return Ok(identity) };
        let server = server.as_object().ok_or("the hello's `server` must be an object")?;
        let fields = [
            ("name", &mut identity.name),
            ("title", &mut identity.title),
            ("version", &mut identity.version),
            ("instructions", &mut identity.instructions),
            ("env_prefix", &mut identity.env_prefix),
            ("meta_key", &mut identity.meta_key),
        ];
        for (key, slot) in fields {
            match server.get(key) {
                None => {}
                Some(Value::String(text)) if !text.is_empty() => *slot = text.clone(),
                Some(other) => {
                    return Err(format!("the hello's `server.{key}` must be a non-empty string, not {other}"))
                }
            }
        }
        let prefix_ok = identity.env_prefix.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        if !prefix_ok {
            return Err(format!(
                "the hello's `server.env_prefix` {:?} must be letters, digits and underscores",
                identity.env_prefix
            ));
        }
        Ok(identity)
    }

    /// `serverInfo` of `initialize` and of stateless-era results.
    pub fn server_info(&self) -> Value {
        json!({"name": self.name, "title": self.title, "version": self.version})
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absent_fields_take_rigors_values_and_bad_ones_are_refused() {
        assert_eq!(ServerIdentity::from_hello(None).unwrap(), ServerIdentity::default());
        let own = ServerIdentity::from_hello(Some(&json!({"name": "fake-mcp", "env_prefix": "FAKE_"}))).unwrap();
        assert_eq!((own.name.as_str(), own.env_prefix.as_str()), ("fake-mcp", "FAKE_"));
        assert_eq!(own.meta_key, DEFAULT_META_KEY);
        assert_eq!(own.server_info()["title"], json!("Rigor"));
        for bad in [json!(3), json!({"name": ""}), json!({"title": 1}), json!({"env_prefix": "A B"})] {
            assert!(ServerIdentity::from_hello(Some(&bad)).is_err(), "{bad}");
        }
    }
}
