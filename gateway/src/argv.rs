//! Argv templates: how a tool call's arguments become the engine's argv.
//! The format is defined in docs/worker-protocol.md ("Argv templates").

use std::collections::BTreeMap;

use serde_json::{Map, Value};

/// Per-element options shared by every argument-bearing element.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ArgOptions {
    /// Values name files (relative to the root); the gateway may confine them.
    pub path: bool,
    /// When the argument is absent, use this session default instead.
    pub session_default: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Element {
    Literal(String),
    /// One word, or `--flag=value` (`--flag` alone for `true`) when `flag` is set.
    Arg {
        name: String,
        flag: Option<String>,
        options: ArgOptions,
    },
    /// Each element of an array argument as its own word; with `each`, an
    /// array of objects, each made one word by that pattern over its fields.
    Spread {
        name: String,
        each: Option<Vec<Part>>,
        options: ArgOptions,
    },
    /// One word built from a pattern such as `{file}:{line}:{col}`.
    Join {
        parts: Vec<Part>,
        options: ArgOptions,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    Text(String),
    Arg(String),
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct ArgvTemplate {
    elements: Vec<Element>,
}

/// Session-wide defaults (e.g. `config` from `rigor-mcp --config`).
pub type SessionDefaults = BTreeMap<String, String>;

/// A synthesized argv, plus the values from the call that name files.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Synthesized {
    pub argv: Vec<String>,
    pub paths: Vec<String>,
}

impl ArgvTemplate {
    pub fn parse(value: &Value) -> Result<ArgvTemplate, String> {
        let items = value.as_array().ok_or("argv must be an array")?;
        let elements =
            items.iter().enumerate().map(|(i, item)| parse_element(item).map_err(|e| format!("argv[{i}]: {e}")));
        Ok(ArgvTemplate { elements: elements.collect::<Result<_, _>>()? })
    }

    /// Builds argv from validated arguments. Fails when a value would be
    /// read as an option, or has a shape the template cannot place.
    pub fn synthesize(
        &self,
        arguments: &Map<String, Value>,
        defaults: &SessionDefaults,
    ) -> Result<Synthesized, String> {
        let mut out = Synthesized::default();
        let mut options_ended = false;
        // Values from the call itself; session defaults come from whoever
        // started the gateway and are not confined like call arguments.
        let lookup = |name: &str, options: &ArgOptions| -> Option<(Value, bool)> {
            match arguments.get(name) {
                Some(Value::Null) | None => options
                    .session_default
                    .as_ref()
                    .and_then(|key| defaults.get(key))
                    .map(|default| (Value::String(default.clone()), false)),
                Some(value) => Some((value.clone(), true)),
            }
        };
        for element in &self.elements {
            match element {
                Element::Literal(word) => {
                    options_ended |= word == "--";
                    out.argv.push(word.clone());
                }
                Element::Arg { name, flag: Some(flag), options } => match lookup(name, options) {
                    None | Some((Value::Bool(false), _)) => {}
                    Some((Value::Bool(true), _)) => out.argv.push(flag.clone()),
                    Some((value, from_call)) => {
                        let word = scalar_word(name, &value)?;
                        if options.path && from_call {
                            out.paths.push(word.clone());
                        }
                        // `--flag=value` keeps a value that starts with `-` a value.
                        out.argv.push(format!("{flag}={word}"));
                    }
                },
                Element::Arg { name, flag: None, options } => {
                    if let Some((value, from_call)) = lookup(name, options) {
                        let word = positional(name, scalar_word(name, &value)?, options_ended)?;
                        if options.path && from_call {
                            out.paths.push(word.clone());
                        }
                        out.argv.push(word);
                    }
                }
                Element::Spread { name, each, options } => match lookup(name, options) {
                    None => {}
                    Some((Value::Array(items), from_call)) => {
                        for (index, item) in items.iter().enumerate() {
                            let label = format!("{name}[{index}]");
                            let word = match each {
                                None => scalar_word(&label, item)?,
                                Some(parts) => fill_from_object(&label, parts, item)?,
                            };
                            let word = positional(name, word, options_ended)?;
                            if options.path && from_call {
                                out.paths.push(word.clone());
                            }
                            out.argv.push(word);
                        }
                    }
                    Some((other, _)) => return Err(format!("`{name}` must be an array, not {}", kind(&other))),
                },
                Element::Join { parts, options } => {
                    let mut word = String::new();
                    let mut complete = true;
                    let mut from_call = false;
                    for part in parts {
                        match part {
                            Part::Text(text) => word.push_str(text),
                            Part::Arg(name) => match lookup(name, options) {
                                Some((value, given)) => {
                                    from_call |= given;
                                    word.push_str(&scalar_word(name, &value)?)
                                }
                                None => complete = false,
                            },
                        }
                    }
                    if complete {
                        let word = positional("joined argument", word, options_ended)?;
                        if options.path && from_call {
                            out.paths.push(word.clone());
                        }
                        out.argv.push(word);
                    }
                }
            }
        }
        Ok(out)
    }
}

/// One word from `parts`, each placeholder replaced by a field of `item`.
fn fill_from_object(label: &str, parts: &[Part], item: &Value) -> Result<String, String> {
    let Value::Object(fields) = item else {
        return Err(format!("`{label}` must be an object, not {}", kind(item)));
    };
    let mut word = String::new();
    for part in parts {
        match part {
            Part::Text(text) => word.push_str(text),
            Part::Arg(field) => match fields.get(field) {
                Some(value) => word.push_str(&scalar_word(&format!("{label}.{field}"), value)?),
                None => return Err(format!("`{label}` has no `{field}`")),
            },
        }
    }
    Ok(word)
}

fn positional(name: &str, word: String, options_ended: bool) -> Result<String, String> {
    if word.starts_with('-') && !options_ended {
        return Err(format!("`{name}` value {word:?} starts with '-' and would be read as an option"));
    }
    Ok(word)
}

fn scalar_word(name: &str, value: &Value) -> Result<String, String> {
    match value {
        Value::String(text) => Ok(text.clone()),
        Value::Number(number) => Ok(number.to_string()),
        Value::Bool(flag) => Ok(flag.to_string()),
        other => Err(format!("`{name}` must be a string, number or boolean, not {}", kind(other))),
    }
}

fn kind(value: &Value) -> &'static str {
    crate::mcp::jsonrpc::kind_of(value)
}

fn parse_element(item: &Value) -> Result<Element, String> {
    let object = match item {
        Value::String(word) => return Ok(Element::Literal(word.clone())),
        Value::Object(object) => object,
        other => return Err(format!("an element must be a string or an object, not {}", kind(other))),
    };
    let text = |key: &str| -> Result<Option<String>, String> {
        match object.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(format!("`{key}` must be a string, not {}", kind(other))),
        }
    };
    let options = ArgOptions {
        path: match object.get("path") {
            None => false,
            Some(Value::Bool(flag)) => *flag,
            Some(other) => return Err(format!("`path` must be a boolean, not {}", kind(other))),
        },
        session_default: text("session_default")?,
    };
    if let Some(name) = text("arg")? {
        return Ok(Element::Arg { name, flag: text("flag")?, options });
    }
    if let Some(name) = text("spread")? {
        let each = text("join")?.map(|pattern| parse_pattern(&pattern)).transpose()?;
        return Ok(Element::Spread { name, each, options });
    }
    if let Some(pattern) = text("join")? {
        return Ok(Element::Join { parts: parse_pattern(&pattern)?, options });
    }
    Err("an object element needs one of `arg`, `spread` or `join`".into())
}

/// `{file}:{line}` → [Arg(file), Text(":"), Arg(line)]; `{{` and `}}` are braces.
fn parse_pattern(pattern: &str) -> Result<Vec<Part>, String> {
    let mut parts = Vec::new();
    let mut text = String::new();
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                text.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                text.push('}');
            }
            '{' => {
                let mut name = String::new();
                let mut closed = false;
                for c in chars.by_ref() {
                    if c == '}' {
                        closed = true;
                        break;
                    }
                    name.push(c);
                }
                if !closed || name.is_empty() {
                    return Err(format!("unclosed or empty placeholder in join pattern {pattern:?}"));
                }
                if !text.is_empty() {
                    parts.push(Part::Text(std::mem::take(&mut text)));
                }
                parts.push(Part::Arg(name));
            }
            '}' => return Err(format!("unmatched '}}' in join pattern {pattern:?}")),
            c => text.push(c),
        }
    }
    if !text.is_empty() {
        parts.push(Part::Text(text));
    }
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn synth(template: Value, args: Value) -> Result<Vec<String>, String> {
        let template = ArgvTemplate::parse(&template).unwrap();
        let defaults = SessionDefaults::from([("config".to_string(), "session.yml".to_string())]);
        template.synthesize(args.as_object().unwrap(), &defaults).map(|s| s.argv)
    }

    #[test]
    fn table_of_templates() {
        let check = json!(["check", "--format=json", {"flag": "--config", "arg": "config", "path": true, "session_default": "config"}, "--", {"spread": "paths", "path": true}]);
        type Case = (Value, Value, Result<Vec<&'static str>, &'static str>);
        let cases: Vec<Case> = vec![
            (
                check.clone(),
                json!({"paths": ["lib", "-x.rb"]}),
                Ok(vec!["check", "--format=json", "--config=session.yml", "--", "lib", "-x.rb"]),
            ),
            (
                check.clone(),
                json!({"paths": [], "config": "--evil"}),
                Ok(vec!["check", "--format=json", "--config=--evil", "--"]),
            ),
            (json!(["explain", {"arg": "rule"}]), json!({}), Ok(vec!["explain"])),
            (json!(["explain", {"arg": "rule"}]), json!({"rule": "--help"}), Err("starts with '-'")),
            (json!(["t", {"arg": "top", "flag": "--top"}]), json!({"top": 3}), Ok(vec!["t", "--top=3"])),
            (json!(["t", {"arg": "v", "flag": "--verbose"}]), json!({"v": true}), Ok(vec!["t", "--verbose"])),
            (json!(["t", {"arg": "v", "flag": "--verbose"}]), json!({"v": false}), Ok(vec!["t"])),
            (
                json!(["type-of", {"join": "{file}:{line}:{col}"}]),
                json!({"file": "a.rb", "line": 2, "col": 5}),
                Ok(vec!["type-of", "a.rb:2:5"]),
            ),
            (json!(["type-of", {"join": "{file}:{line}"}]), json!({"file": "a.rb"}), Ok(vec!["type-of"])),
            (json!(["x", {"spread": "paths"}]), json!({"paths": "lib"}), Err("must be an array")),
            (
                json!(["type-of", "--", {"spread": "at", "join": "{file}:{line}:{col}"}]),
                json!({"at": [{"file": "a.rb", "line": 1, "col": 2}, {"file": "-b.rb", "line": 3, "col": 4}]}),
                Ok(vec!["type-of", "--", "a.rb:1:2", "-b.rb:3:4"]),
            ),
            (
                json!(["type-of", {"spread": "at", "join": "{file}:{line}"}]),
                json!({"at": [{"file": "-b.rb", "line": 3}]}),
                Err("starts with '-'"),
            ),
            (
                json!(["t", {"spread": "at", "join": "{file}:{line}"}]),
                json!({"at": [{"file": "a.rb"}]}),
                Err("`at[0]` has no `line`"),
            ),
            (
                json!(["t", {"spread": "at", "join": "{file}"}]),
                json!({"at": ["a.rb"]}),
                Err("`at[0]` must be an object"),
            ),
            (json!(["t", {"spread": "at", "join": "{file}"}]), json!({"at": [{"file": [1]}]}), Err("at[0].file")),
            (json!(["t", {"spread": "at", "join": "{file}"}]), json!({}), Ok(vec!["t"])),
            (json!(["x", {"arg": "a"}]), json!({"a": {"b": 1}}), Err("string, number or boolean")),
        ];
        for (template, args, expected) in cases {
            let got = synth(template.clone(), args.clone());
            match expected {
                Ok(words) => assert_eq!(got, Ok(words.iter().map(|w| w.to_string()).collect()), "{template} {args}"),
                Err(fragment) => {
                    assert!(got.as_ref().is_err_and(|e| e.contains(fragment)), "{template} {args}: {got:?}")
                }
            }
        }
    }

    #[test]
    fn path_values_are_collected() {
        let template = ArgvTemplate::parse(
            &json!([{"arg": "c", "flag": "--config", "path": true}, "--", {"spread": "p", "path": true}, {"arg": "n"}]),
        )
        .unwrap();
        let args = json!({"c": "x.yml", "p": ["a", "b"], "n": "not-a-path"});
        let out = template.synthesize(args.as_object().unwrap(), &SessionDefaults::new()).unwrap();
        assert_eq!(out.paths, ["x.yml", "a", "b"]);
        let each =
            ArgvTemplate::parse(&json!(["--", {"spread": "at", "join": "{file}:{line}", "path": true}])).unwrap();
        let args = json!({"at": [{"file": "../x.rb", "line": 1}]});
        let out = each.synthesize(args.as_object().unwrap(), &SessionDefaults::new()).unwrap();
        assert_eq!(out.paths, ["../x.rb:1"], "each word is confined like a joined one");
    }

    #[test]
    fn bad_templates_are_rejected_with_the_element_index() {
        for (template, fragment) in [
            (json!("check"), "must be an array"),
            (json!(["a", 3]), "argv[1]"),
            (json!([{"nothing": 1}]), "one of `arg`"),
            (json!([{"join": "{a"}]), "argv[0]"),
            (json!([{"join": "a}"}]), "unmatched"),
            (json!([{"spread": "p", "join": "{a"}]), "argv[0]"),
        ] {
            let error = ArgvTemplate::parse(&template).unwrap_err();
            assert!(error.contains(fragment), "{template}: {error}");
        }
    }
}
