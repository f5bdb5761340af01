//! `rigor explain`: the catalogue of the rules this engine implements.

use std::io::Write;

use serde::Serialize;

use super::{usage_error, write_json, Format, Io, EXIT_OK};
use crate::diagnostic::{EvidenceTier, Severity};
use crate::rules::{self, Profile, RuleInfo};

#[derive(clap::Args)]
pub struct Args {
    /// Output format
    #[arg(long, value_enum, default_value_t)]
    format: Format,
    /// A rule id, legacy alias or family (e.g. `flow`); all rules when absent
    rule: Option<String>,
}

#[derive(Serialize)]
struct BySeverity {
    lenient: &'static str,
    balanced: &'static str,
    strict: &'static str,
}

#[derive(Serialize)]
struct Entry {
    id: &'static str,
    aliases: &'static [&'static str],
    summary: &'static str,
    fires_when: &'static [&'static str],
    does_not_fire_when: &'static [&'static str],
    severity_authored: &'static str,
    severity_by_profile: BySeverity,
    documentation_url: String,
    since: &'static str,
    evidence_tier: EvidenceTier,
    example: &'static str,
}

fn level(severity: Option<Severity>) -> &'static str {
    severity.map_or("off", Severity::as_str)
}

fn entry(rule: &RuleInfo) -> Entry {
    Entry {
        id: rule.id,
        aliases: rule.aliases,
        summary: rule.summary,
        fires_when: rule.fires_when,
        does_not_fire_when: rule.does_not_fire_when,
        example: rule.example,
        severity_authored: rule.authored.as_str(),
        severity_by_profile: BySeverity {
            lenient: level(rule.severity(Profile::Lenient)),
            balanced: level(rule.severity(Profile::Balanced)),
            strict: level(rule.severity(Profile::Strict)),
        },
        evidence_tier: rule.evidence,
        documentation_url: rule.documentation_url(),
        since: rule.since,
    }
}

pub fn run(args: Args, io: &mut Io<'_>) -> std::io::Result<i32> {
    let selected: Vec<&RuleInfo> = match &args.rule {
        None => rules::all().to_vec(),
        Some(token) => rules::matching(token),
    };
    if selected.is_empty() {
        let known: Vec<&str> = rules::all().iter().map(|r| r.id).collect();
        let token = args.rule.as_deref().unwrap_or_default();
        return usage_error(
            io,
            &format!(
                "unknown rule `{token}`; known rules: {} (families: {})",
                known.join(", "),
                rules::families().join(", ")
            ),
        );
    }
    let entries: Vec<Entry> = selected.into_iter().map(entry).collect();
    match args.format {
        Format::Json => write_json(io.out, &entries)?,
        Format::Text => {
            for (index, e) in entries.iter().enumerate() {
                if index > 0 {
                    writeln!(io.out)?;
                }
                write_text(io.out, e)?;
            }
        }
    }
    Ok(EXIT_OK)
}

fn write_text(out: &mut dyn Write, e: &Entry) -> std::io::Result<()> {
    let p = &e.severity_by_profile;
    writeln!(
        out,
        "{}  ({}; lenient {}, balanced {}, strict {})",
        e.id, e.severity_authored, p.lenient, p.balanced, p.strict
    )?;
    writeln!(out, "  {}", e.summary)?;
    if !e.aliases.is_empty() {
        writeln!(out, "  Aliases: {}", e.aliases.join(", "))?;
    }
    writeln!(out, "  Fires when:")?;
    for line in e.fires_when {
        writeln!(out, "    - {line}")?;
    }
    writeln!(out, "  Does not fire when:")?;
    for line in e.does_not_fire_when {
        writeln!(out, "    - {line}")?;
    }
    writeln!(out, "  Example:")?;
    for line in e.example.lines() {
        writeln!(out, "    {line}")?;
    }
    writeln!(out, "  Documentation: {}", e.documentation_url)
}
