//! `rigor triage`: where the diagnostics are and what to do about them.
//! Built on exactly the diagnostics `check` reports for the same paths.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;

use serde::Serialize;

use super::check::analyse;
use super::{write_json, Format, Io, EXIT_OK};
use crate::diagnostic::{Diagnostic, EvidenceTier, Severity};

#[derive(clap::Args)]
pub struct Args {
    /// Output format
    #[arg(long, value_enum, default_value_t)]
    format: Format,
    /// How many hotspots and selectors to list
    #[arg(long, value_name = "N", default_value_t = 10)]
    top: usize,
    /// Configuration file (default: .rigor.yml, else .rigor.dist.yml)
    #[arg(long, value_name = "PATH")]
    config: Option<String>,
    #[command(flatten)]
    cache: super::CacheArgs,
    /// Print only the hints
    #[arg(long, conflicts_with_all = ["selectors_only", "no_hints"])]
    hints_only: bool,
    /// Print only the selectors
    #[arg(long)]
    selectors_only: bool,
    /// Leave out the hints
    #[arg(long)]
    no_hints: bool,
    /// Count info-severity diagnostics too
    #[arg(long)]
    include_info: bool,
    /// Files and directories (default: the config's `paths`, else `lib`)
    paths: Vec<String>,
}

/// Parse errors have no rule; maps keyed by rule name them this way.
const PARSE_ERROR_KEY: &str = "parse-error";

#[derive(Serialize, Default, PartialEq, Debug)]
struct Summary {
    total: usize,
    error: usize,
    warning: usize,
    info: usize,
}

#[derive(Serialize)]
struct RuleCount {
    rule: Option<&'static str>,
    count: usize,
}

#[derive(Serialize)]
struct Selector {
    receiver: String,
    method: String,
    count: usize,
    files: usize,
    rules: BTreeMap<&'static str, usize>,
}

#[derive(Serialize)]
struct Hotspot {
    file: String,
    count: usize,
    by_rule: BTreeMap<&'static str, usize>,
}

#[derive(Serialize)]
struct Hint {
    id: &'static str,
    confidence: &'static str,
    diagnostic_count: usize,
    summary: String,
    action: String,
}

#[derive(Serialize, Default)]
struct Triage {
    #[serde(skip_serializing_if = "Option::is_none")]
    summary: Option<Summary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    distribution: Option<Vec<RuleCount>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    selectors: Option<Vec<Selector>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hotspots: Option<Vec<Hotspot>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hints: Option<Vec<Hint>>,
}

pub fn run(args: Args, io: &mut Io<'_>) -> std::io::Result<i32> {
    let analysed = match analyse(&args.paths, args.config.as_deref(), &args.cache, io)? {
        Ok(analysed) => analysed,
        Err(code) => return Ok(code),
    };
    let diagnostics: Vec<&Diagnostic> = analysed
        .reports
        .iter()
        .flat_map(|r| &r.diagnostics)
        .filter(|d| args.include_info || d.severity != Severity::Info)
        .collect();
    let triage = build(&diagnostics, &args);
    match args.format {
        Format::Json => write_json(io.out, &triage)?,
        Format::Text => write_text(io.out, &triage)?,
    }
    // Triage describes; it never fails the build.
    Ok(EXIT_OK)
}

fn rule_key(d: &Diagnostic) -> &'static str {
    d.rule.unwrap_or(PARSE_ERROR_KEY)
}

fn build(diagnostics: &[&Diagnostic], args: &Args) -> Triage {
    let all_sections = !args.hints_only && !args.selectors_only;
    let mut triage = Triage::default();
    if all_sections {
        triage.summary = Some(summary(diagnostics));
        triage.distribution = Some(distribution(diagnostics));
        triage.hotspots = Some(hotspots(diagnostics, args.top));
    }
    if !args.hints_only {
        triage.selectors = Some(selectors(diagnostics, args.top));
    }
    if !args.selectors_only && !args.no_hints {
        triage.hints = Some(hints(diagnostics));
    }
    triage
}

fn summary(diagnostics: &[&Diagnostic]) -> Summary {
    let count = |severity| diagnostics.iter().filter(|d| d.severity == severity).count();
    Summary {
        total: diagnostics.len(),
        error: count(Severity::Error),
        warning: count(Severity::Warning),
        info: count(Severity::Info),
    }
}

fn distribution(diagnostics: &[&Diagnostic]) -> Vec<RuleCount> {
    let mut counts: BTreeMap<Option<&'static str>, usize> = BTreeMap::new();
    for d in diagnostics {
        *counts.entry(d.rule).or_default() += 1;
    }
    let mut rows: Vec<RuleCount> = counts.into_iter().map(|(rule, count)| RuleCount { rule, count }).collect();
    rows.sort_by(|a, b| b.count.cmp(&a.count).then(a.rule.unwrap_or("").cmp(b.rule.unwrap_or(""))));
    rows
}

/// Literal receivers (`1`, `"s"`, `:sym`) fold to their class.
fn fold_receiver(receiver: &str) -> String {
    let first = receiver.chars().next();
    match first {
        Some('"') | Some('\'') => "String".into(),
        Some(':') => "Symbol".into(),
        Some(c) if c.is_ascii_digit() || c == '-' => {
            if receiver.contains('.') {
                "Float".into()
            } else {
                "Integer".into()
            }
        }
        _ => receiver.to_string(),
    }
}

/// Diagnostics about one receiver#method, as they are gathered.
#[derive(Default)]
struct SelectorGroup<'a> {
    count: usize,
    files: BTreeSet<&'a str>,
    rules: BTreeMap<&'static str, usize>,
}

fn selectors(diagnostics: &[&Diagnostic], top: usize) -> Vec<Selector> {
    let mut groups: BTreeMap<(String, String), SelectorGroup<'_>> = BTreeMap::new();
    for d in diagnostics {
        let Some(method) = &d.method_name else { continue };
        let receiver = d.receiver_type.as_deref().map(fold_receiver).unwrap_or_default();
        let group = groups.entry((receiver, method.clone())).or_default();
        group.count += 1;
        group.files.insert(d.path.as_str());
        *group.rules.entry(rule_key(d)).or_default() += 1;
    }
    let mut rows: Vec<Selector> = groups
        .into_iter()
        .map(|((receiver, method), group)| Selector {
            receiver,
            method,
            count: group.count,
            files: group.files.len(),
            rules: group.rules,
        })
        .collect();
    rows.sort_by(|a, b| {
        b.count.cmp(&a.count).then_with(|| a.receiver.cmp(&b.receiver)).then_with(|| a.method.cmp(&b.method))
    });
    rows.truncate(top);
    rows
}

fn hotspots(diagnostics: &[&Diagnostic], top: usize) -> Vec<Hotspot> {
    let mut by_file: BTreeMap<&str, BTreeMap<&'static str, usize>> = BTreeMap::new();
    for d in diagnostics {
        *by_file.entry(&d.path).or_default().entry(rule_key(d)).or_default() += 1;
    }
    let mut rows: Vec<Hotspot> = by_file
        .into_iter()
        .map(|(file, by_rule)| Hotspot { file: file.to_string(), count: by_rule.values().sum(), by_rule })
        .collect();
    rows.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.file.cmp(&b.file)));
    rows.truncate(top);
    rows
}

/// Heuristics over the whole set; each hint says what to do next.
fn hints(diagnostics: &[&Diagnostic]) -> Vec<Hint> {
    let mut hints = Vec::new();
    let total = diagnostics.len();

    let parse_errors: Vec<&&Diagnostic> =
        diagnostics.iter().filter(|d| d.rule.is_none() && d.severity == Severity::Error).collect();
    if !parse_errors.is_empty() {
        let files: BTreeSet<&str> = parse_errors.iter().map(|d| d.path.as_str()).collect();
        hints.push(Hint {
            id: "parse-errors",
            confidence: "likely",
            diagnostic_count: parse_errors.len(),
            summary: format!("{} file(s) cannot be read or parsed, so no rule ran on them: {}", files.len(), list(&files)),
            action: "fix the syntax errors first (`rigor check FILE` shows each one), or exclude the files in .rigor.yml if they are not Ruby".into(),
        });
    }

    let bugs: Vec<&&Diagnostic> = diagnostics
        .iter()
        .filter(|d| d.rule.is_some() && d.severity == Severity::Error && d.evidence_tier == Some(EvidenceTier::High))
        .collect();
    if !bugs.is_empty() {
        let rules: BTreeSet<&str> = bugs.iter().map(|d| rule_key(d)).collect();
        hints.push(Hint {
            id: "genuine-bugs",
            confidence: "likely",
            diagnostic_count: bugs.len(),
            summary: format!("{} high-evidence error(s) ({}) are most likely real bugs", bugs.len(), list(&rules)),
            action: "fix these first: each names the exact line, and `rigor explain RULE` says why it fires".into(),
        });
    }

    let mut per_file: BTreeMap<&str, usize> = BTreeMap::new();
    for d in diagnostics {
        *per_file.entry(&d.path).or_default() += 1;
    }
    if let Some((file, &count)) = per_file.iter().max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0))) {
        if count >= 10 && per_file.len() > 1 && count * 5 >= total * 2 {
            hints.push(Hint {
                id: "systemic-file-cluster",
                confidence: "possible",
                diagnostic_count: count,
                summary: format!("{file} holds {count} of {total} diagnostics; it may be generated or vendored code"),
                action: format!(
                    "if {file} is not hand-written, add it to `exclude:` in .rigor.yml; otherwise start there"
                ),
            });
        }
    }

    let rows = distribution(diagnostics);
    if let Some(top) = rows.first() {
        if let Some(rule) = top.rule {
            if top.count >= 20 && top.count * 2 > total {
                hints.push(Hint {
                    id: "dominant-rule",
                    confidence: "possible",
                    diagnostic_count: top.count,
                    summary: format!("{rule} produces {} of {total} diagnostics", top.count),
                    action: format!("if the pattern is intended here, set `severity_overrides: {{ {rule}: info }}` in .rigor.yml; otherwise the selectors and hotspots show where to fix it in bulk"),
                });
            }
        }
    }
    hints
}

fn list(items: &BTreeSet<&str>) -> String {
    const SHOWN: usize = 5;
    let mut text: Vec<&str> = items.iter().copied().take(SHOWN).collect::<Vec<_>>();
    if items.len() > SHOWN {
        text.push("…");
    }
    text.join(", ")
}

fn write_text(out: &mut dyn Write, t: &Triage) -> std::io::Result<()> {
    if let Some(s) = &t.summary {
        writeln!(out, "{} diagnostic(s): {} error(s), {} warning(s), {} info", s.total, s.error, s.warning, s.info)?;
    }
    if let Some(rows) = t.distribution.as_ref().filter(|r| !r.is_empty()) {
        writeln!(out, "\nBy rule:")?;
        for row in rows {
            writeln!(out, "  {:>5}  {}", row.count, row.rule.unwrap_or(PARSE_ERROR_KEY))?;
        }
    }
    if let Some(rows) = t.hotspots.as_ref().filter(|r| !r.is_empty()) {
        writeln!(out, "\nHotspots:")?;
        for row in rows {
            let rules: Vec<String> = row.by_rule.iter().map(|(rule, n)| format!("{rule} {n}")).collect();
            writeln!(out, "  {:>5}  {}  ({})", row.count, row.file, rules.join(", "))?;
        }
    }
    if let Some(rows) = t.selectors.as_ref().filter(|r| !r.is_empty()) {
        writeln!(out, "\nSelectors:")?;
        for row in rows {
            writeln!(out, "  {:>5}  {}#{}  ({} file(s))", row.count, row.receiver, row.method, row.files)?;
        }
    }
    if let Some(hints) = &t.hints {
        if !hints.is_empty() {
            writeln!(out, "\nHints:")?;
        }
        for hint in hints {
            writeln!(out, "  [{}] {}: {}", hint.confidence, hint.id, hint.summary)?;
            writeln!(out, "      -> {}", hint.action)?;
        }
    }
    Ok(())
}
