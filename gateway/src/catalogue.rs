//! The tool catalogue, as the running worker announced it in its hello:
//! MCP definitions to list, input/output validators, argv templates.

use std::time::Duration;

use serde_json::{Map, Value};

use crate::argv::ArgvTemplate;
use crate::identity::ServerIdentity;

/// Tool fields that belong to MCP and are shown to clients; everything
/// else in the hello (argv, timeout_seconds…) is private to the gateway.
const PUBLIC_FIELDS: &[&str] =
    &["name", "title", "description", "inputSchema", "outputSchema", "annotations", "icons", "_meta"];

pub struct Tool {
    pub name: String,
    /// The MCP definition as `tools/list` shows it.
    pub definition: Value,
    pub template: ArgvTemplate,
    /// A per-tool deadline from the catalogue, overriding the gateway's.
    pub timeout: Option<Duration>,
    input: jsonschema::Validator,
    output: Option<jsonschema::Validator>,
}

impl Tool {
    fn from_definition(raw: &Value) -> Result<Tool, String> {
        let object = raw.as_object().ok_or("a tool must be an object")?;
        let name = object.get("name").and_then(Value::as_str).ok_or("a tool needs a string `name`")?.to_string();
        let problem = |what: String| format!("tool {name}: {what}");
        let input_schema = object.get("inputSchema").ok_or_else(|| problem("missing inputSchema".into()))?;
        if input_schema.get("type") != Some(&Value::String("object".into())) {
            return Err(problem("inputSchema must have \"type\": \"object\"".into()));
        }
        let input =
            jsonschema::validator_for(input_schema).map_err(|e| problem(format!("invalid inputSchema: {e}")))?;
        let output = match object.get("outputSchema") {
            Some(schema) => {
                Some(jsonschema::validator_for(schema).map_err(|e| problem(format!("invalid outputSchema: {e}")))?)
            }
            None => None,
        };
        let template =
            ArgvTemplate::parse(object.get("argv").ok_or_else(|| problem("missing argv".into()))?).map_err(problem)?;
        let timeout = match object.get("timeout_seconds") {
            None => None,
            Some(value) => Some(
                value
                    .as_f64()
                    .filter(|s| *s > 0.0 && s.is_finite())
                    .map(Duration::from_secs_f64)
                    .ok_or_else(|| problem("timeout_seconds must be a positive number".into()))?,
            ),
        };
        let definition: Map<String, Value> = object
            .iter()
            .filter(|(key, _)| PUBLIC_FIELDS.contains(&key.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        Ok(Tool { name, definition: Value::Object(definition), template, timeout, input, output })
    }

    /// Checks arguments against the input schema; the error lists every problem.
    pub fn check_input(&self, arguments: &Value) -> Result<(), String> {
        describe_errors(self.input.iter_errors(arguments))
    }

    pub fn has_output_schema(&self) -> bool {
        self.output.is_some()
    }

    pub fn check_output(&self, structured: &Value) -> Result<(), String> {
        match &self.output {
            Some(validator) => describe_errors(validator.iter_errors(structured)),
            None => Ok(()),
        }
    }
}

fn describe_errors<'a>(errors: impl Iterator<Item = jsonschema::ValidationError<'a>>) -> Result<(), String> {
    let problems: Vec<String> = errors
        .map(|error| {
            let at = error.instance_path().to_string();
            if at.is_empty() {
                error.to_string()
            } else {
                format!("at {at}: {error}")
            }
        })
        .collect();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

/// The engine that announced a catalogue.
#[derive(Debug, Clone, PartialEq)]
pub struct EngineInfo {
    pub name: String,
    pub version: String,
    /// Identifies the build (e.g. a source fingerprint), when the engine says.
    pub build: Option<String>,
}

impl std::fmt::Display for EngineInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.name, self.version)?;
        if let Some(build) = &self.build {
            write!(f, " ({build})")?;
        }
        Ok(())
    }
}

pub struct Catalogue {
    pub engine: EngineInfo,
    /// Who the server is, as the engine said. Shared, not copied: every answer reads it.
    pub server: std::sync::Arc<ServerIdentity>,
    tools: Vec<Tool>,
}

impl Catalogue {
    /// Builds a catalogue from a hello's `tools`. A broken tool definition is
    /// left out (and reported) rather than taking every tool down with it.
    pub fn build(engine: EngineInfo, server: ServerIdentity, raw_tools: &[Value]) -> (Catalogue, Vec<String>) {
        let mut tools: Vec<Tool> = Vec::new();
        let mut problems = Vec::new();
        for raw in raw_tools {
            match Tool::from_definition(raw) {
                Ok(tool) if tools.iter().any(|t| t.name == tool.name) => {
                    problems.push(format!("duplicate tool {}", tool.name))
                }
                Ok(tool) => tools.push(tool),
                Err(problem) => problems.push(problem),
            }
        }
        (Catalogue { engine, server: std::sync::Arc::new(server), tools }, problems)
    }

    pub fn get(&self, name: &str) -> Option<&Tool> {
        self.tools.iter().find(|tool| tool.name == name)
    }

    pub fn names(&self) -> Vec<&str> {
        self.tools.iter().map(|tool| tool.name.as_str()).collect()
    }

    /// The definitions `tools/list` returns.
    pub fn listing(&self) -> Vec<Value> {
        self.tools.iter().map(|tool| tool.definition.clone()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn engine() -> EngineInfo {
        EngineInfo { name: "fake".into(), version: "1".into(), build: None }
    }

    fn tool(name: &str) -> Value {
        json!({
            "name": name,
            "description": "d",
            "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"], "additionalProperties": false},
            "annotations": {"readOnlyHint": true},
            "argv": ["run", {"arg": "n"}],
            "timeout_seconds": 5
        })
    }

    #[test]
    fn listing_shows_only_public_fields() {
        let (catalogue, problems) = Catalogue::build(engine(), ServerIdentity::default(), &[tool("a")]);
        assert!(problems.is_empty());
        let listed = &catalogue.listing()[0];
        assert!(listed.get("argv").is_none() && listed.get("timeout_seconds").is_none());
        assert_eq!(listed["annotations"]["readOnlyHint"], json!(true));
        assert_eq!(catalogue.get("a").unwrap().timeout, Some(Duration::from_secs(5)));
    }

    #[test]
    fn broken_tools_are_left_out_and_reported() {
        let mut bad = tool("b");
        bad["inputSchema"] = json!({"type": "array"});
        let (catalogue, problems) =
            Catalogue::build(engine(), ServerIdentity::default(), &[tool("a"), bad, tool("a"), json!(3)]);
        assert_eq!(catalogue.names(), ["a"]);
        assert_eq!(problems.len(), 3, "{problems:?}");
    }

    #[test]
    fn input_errors_name_the_offending_field() {
        let (catalogue, _) = Catalogue::build(engine(), ServerIdentity::default(), &[tool("a")]);
        let a = catalogue.get("a").unwrap();
        assert!(a.check_input(&json!({"n": 1})).is_ok());
        let error = a.check_input(&json!({"n": "x"})).unwrap_err();
        assert!(error.contains("/n"), "{error}");
        let error = a.check_input(&json!({})).unwrap_err();
        assert!(error.contains("\"n\" is a required property"), "{error}");
        assert!(a.check_input(&json!({"n": 1, "zz": 2})).is_err());
    }
}
