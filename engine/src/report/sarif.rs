//! SARIF 2.1.0 (OASIS), the format GitHub code scanning uploads: one run,
//! the rule catalogue as `tool.driver.rules`, one result per diagnostic.

use std::io::Write;

use serde_json::{json, Value};

use super::fingerprint::fingerprints;
use super::{rule_id, Run, SourceLines, NO_RULE_ID};
use crate::diagnostic::{Diagnostic, EvidenceTier, Severity};
use crate::rules::{self, RuleInfo};

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
const INFORMATION_URI: &str = "https://github.com/rigortype/rigor";
/// The key of our fingerprint in `partialFingerprints` (versioned, as the
/// spec asks, so a change of scheme is not mistaken for new findings).
const FINGERPRINT_KEY: &str = "rigorLineHash/v1";

pub fn write(run: &Run<'_>, lines: &mut SourceLines, out: &mut dyn Write) -> std::io::Result<()> {
    let descriptors: Vec<Value> =
        rules::all().iter().map(|rule| descriptor(rule, run)).chain([no_rule_descriptor()]).collect();
    let index_of = |id: &str| rules::all().iter().position(|rule| rule.id == id).unwrap_or(rules::all().len());
    let prints = fingerprints(run.diagnostics, lines);
    let results: Vec<Value> = run
        .diagnostics
        .iter()
        .zip(prints)
        .map(|(diagnostic, print)| result(diagnostic, index_of(rule_id(diagnostic)), &print, lines))
        .collect();
    let log = json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "Rigor",
                "informationUri": INFORMATION_URI,
                "version": env!("CARGO_PKG_VERSION"),
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "rules": descriptors,
            }},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": root_uri(run.root)}},
            "columnKind": "utf16CodeUnits",
            "results": results,
        }],
    });
    serde_json::to_writer_pretty(&mut *out, &log)?;
    writeln!(out)
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

fn descriptor(rule: &RuleInfo, run: &Run<'_>) -> Value {
    let configured = run.settings.severity_of(rule);
    let mut full = format!("{} Fires when: {}", rule.summary, rule.fires_when.join("; "));
    if !rule.does_not_fire_when.is_empty() {
        full.push_str(&format!(". Does not fire when: {}", rule.does_not_fire_when.join("; ")));
    }
    full.push('.');
    json!({
        "id": rule.id,
        "name": pascal_case(rule.id),
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": full},
        "helpUri": rule.documentation_url(),
        "help": {"text": format!("{full} Example: {}", rule.example)},
        "defaultConfiguration": {
            "enabled": configured.is_some(),
            "level": level(configured.unwrap_or(rule.authored)),
        },
        "properties": {
            "tags": [rule.family()],
            "precision": match rule.evidence {
                EvidenceTier::High => "high",
                EvidenceTier::Medium => "medium",
                EvidenceTier::Low => "low",
            },
        },
    })
}

/// Parse errors and files the engine could not analyse have no rule; SARIF
/// consumers (GitHub among them) want a rule id on every result.
fn no_rule_descriptor() -> Value {
    let text = "The file could not be analysed: it does not parse (one result per parser error), cannot be read, or the engine could not finish it. No rule ran on it.";
    json!({
        "id": NO_RULE_ID,
        "name": "ParseError",
        "shortDescription": {"text": "The file does not parse or could not be analysed."},
        "fullDescription": {"text": text},
        "help": {"text": text},
        "defaultConfiguration": {"enabled": true, "level": "error"},
        "properties": {"tags": ["syntax"]},
    })
}

fn result(diagnostic: &Diagnostic, rule_index: usize, fingerprint: &str, lines: &mut SourceLines) -> Value {
    let column = lines.utf16_column(&diagnostic.path, diagnostic.line, diagnostic.column);
    json!({
        "ruleId": rule_id(diagnostic),
        "ruleIndex": rule_index,
        "level": level(diagnostic.severity),
        "message": {"text": diagnostic.message},
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": relative_uri(&diagnostic.path), "uriBaseId": "%SRCROOT%"},
            "region": {"startLine": diagnostic.line, "startColumn": column},
        }}],
        "partialFingerprints": {FINGERPRINT_KEY: fingerprint},
    })
}

/// `call.undefined-method` → `CallUndefinedMethod` (SARIF's `name` is an
/// identifier-like label).
fn pascal_case(id: &str) -> String {
    id.split(['.', '-', '_'])
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map(|c| c.to_uppercase().chain(chars).collect::<String>()).unwrap_or_default()
        })
        .collect()
}

/// A relative path as a URI reference: forward slashes, each segment
/// percent-encoded where RFC 3986 requires it.
fn relative_uri(path: &str) -> String {
    let path = path.replace('\\', "/");
    let path = path.strip_prefix("./").unwrap_or(&path);
    path.split('/').map(encode_segment).collect::<Vec<_>>().join("/")
}

fn encode_segment(segment: &str) -> String {
    let mut out = String::new();
    for byte in segment.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// `file:///abs/root/`: the base the results' relative URIs resolve against.
fn root_uri(root: &std::path::Path) -> String {
    let absolute = std::path::absolute(root).unwrap_or_else(|_| root.to_path_buf());
    let text = absolute.to_string_lossy().replace('\\', "/");
    let encoded: Vec<String> = text.split('/').map(encode_segment).collect();
    let mut uri = format!("file://{}", encoded.join("/"));
    if !text.starts_with('/') {
        uri = format!("file:///{}", encoded.join("/"));
    }
    if !uri.ends_with('/') {
        uri.push('/');
    }
    uri
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_uris() {
        assert_eq!(pascal_case("call.undefined-method"), "CallUndefinedMethod");
        assert_eq!(relative_uri("./lib/a b%.rb"), "lib/a%20b%25.rb");
        assert_eq!(root_uri(std::path::Path::new("/tmp/x y")), "file:///tmp/x%20y/");
    }
}
