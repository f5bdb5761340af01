//! GitLab Code Quality (a subset of the Code Climate issue format): a JSON
//! array the merge request widget reads from a `codequality` report.

use std::io::Write;

use serde_json::{json, Value};

use super::fingerprint::fingerprints;
use super::{message_with_rule, rule_id, Run, SourceLines};
use crate::diagnostic::Severity;

pub fn write(run: &Run<'_>, lines: &mut SourceLines, out: &mut dyn Write) -> std::io::Result<()> {
    let prints = fingerprints(run.diagnostics, lines);
    let issues: Vec<Value> = run
        .diagnostics
        .iter()
        .zip(prints)
        .map(|(d, fingerprint)| {
            json!({
                "type": "issue",
                "description": message_with_rule(d),
                "check_name": rule_id(d),
                "categories": ["Bug Risk"],
                "fingerprint": fingerprint,
                "severity": match d.severity {
                    Severity::Error => "major",
                    Severity::Warning => "minor",
                    Severity::Info => "info",
                },
                "location": {"path": d.path.strip_prefix("./").unwrap_or(&d.path), "lines": {"begin": d.line}},
            })
        })
        .collect();
    serde_json::to_writer_pretty(&mut *out, &issues)?;
    writeln!(out)
}
