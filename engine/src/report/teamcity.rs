//! TeamCity service messages: an `inspectionType` per rule that fired, then
//! an `inspection` per diagnostic, which the build's Inspections tab lists.

use std::io::Write;

use super::{rule_id, Run};
use crate::diagnostic::Severity;
use crate::rules;

pub fn write(run: &Run<'_>, out: &mut dyn Write) -> std::io::Result<()> {
    let mut declared: Vec<&str> = Vec::new();
    for d in run.diagnostics {
        let id = rule_id(d);
        if !declared.contains(&id) {
            declared.push(id);
            let rule = rules::all().iter().find(|rule| rule.id == id);
            let description = rule.map_or("The file does not parse or could not be analysed.", |rule| rule.summary);
            let category = rule.map_or("syntax", |rule| rule.family());
            message(
                out,
                "inspectionType",
                &[("id", id), ("name", id), ("category", category), ("description", description)],
            )?;
        }
        let line = d.line.to_string();
        let severity = match d.severity {
            Severity::Error => "ERROR",
            Severity::Warning => "WARNING",
            Severity::Info => "INFO",
        };
        message(
            out,
            "inspection",
            &[("typeId", id), ("message", &d.message), ("file", &d.path), ("line", &line), ("SEVERITY", severity)],
        )?;
    }
    Ok(())
}

fn message(out: &mut dyn Write, name: &str, attributes: &[(&str, &str)]) -> std::io::Result<()> {
    let pairs: Vec<String> = attributes.iter().map(|(key, value)| format!("{key}='{}'", escape(value))).collect();
    writeln!(out, "##teamcity[{name} {}]", pairs.join(" "))
}

/// TeamCity's escaping of service-message values (`|` is the escape character).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '|' => out.push_str("||"),
            '\'' => out.push_str("|'"),
            '\n' => out.push_str("|n"),
            '\r' => out.push_str("|r"),
            '[' => out.push_str("|["),
            ']' => out.push_str("|]"),
            '\u{0085}' => out.push_str("|x"),
            '\u{2028}' => out.push_str("|l"),
            '\u{2029}' => out.push_str("|p"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes_the_reserved_characters() {
        assert_eq!(super::escape("a|b'c\n[d]\r"), "a||b|'c|n|[d|]|r");
    }
}
