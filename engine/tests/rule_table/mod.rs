//! Table-driven rule tests: snippets that fire (at every exact 1-based line
//! and byte column, with the balanced severity) and snippets that must stay
//! silent, each analysed as a project of its own with the core signatures.

#![allow(dead_code)]

use rigor_engine::analysis::{analyse_source, FileReport, Settings};
use rigor_engine::diagnostic::{Diagnostic, Severity};

/// A snippet and every (line, column) at which the rule under test reports.
pub type Firing = (&'static str, &'static [(usize, usize)]);

pub fn analyse(source: &str, settings: &Settings) -> FileReport {
    analyse_source("snippet.rb", source.as_bytes(), settings)
}

pub fn of_rule<'a>(report: &'a FileReport, rule: &str) -> Vec<&'a Diagnostic> {
    report.diagnostics.iter().filter(|d| d.rule == Some(rule)).collect()
}

fn assert_parses(source: &str, report: &FileReport) {
    let unruled: Vec<&Diagnostic> = report.diagnostics.iter().filter(|d| d.rule.is_none()).collect();
    assert!(unruled.is_empty(), "snippet does not parse cleanly:\n{source}\n{unruled:#?}");
}

/// Checks a rule's table under `settings`; call rules must name the
/// receiver type and method.
pub fn check_with(
    rule: &str,
    settings: &Settings,
    severity: Severity,
    firing: &[Firing],
    silent: &[&str],
    names_call: bool,
) {
    assert!(firing.len() >= 3 && silent.len() >= 3, "{rule}: tables too small");
    for (source, expected) in firing {
        let report = analyse(source, settings);
        assert_parses(source, &report);
        let found = of_rule(&report, rule);
        let positions: Vec<(usize, usize)> = found.iter().map(|d| (d.line, d.column)).collect();
        assert_eq!(positions, *expected, "{rule} anchors for:\n{source}\nall diagnostics: {:#?}", report.diagnostics);
        for d in found {
            assert_eq!(d.severity, severity, "{rule} severity for:\n{source}");
            assert!(!d.message.is_empty());
            if names_call {
                assert!(d.receiver_type.is_some() && d.method_name.is_some(), "{rule} must name the call: {d:?}");
                assert!(d.message.contains(d.method_name.as_deref().unwrap()), "{}", d.message);
            }
        }
    }
    for source in silent {
        let report = analyse(source, settings);
        assert_parses(source, &report);
        let found = of_rule(&report, rule);
        assert!(found.is_empty(), "{rule} must not fire on:\n{source}\ngot: {found:#?}");
    }
}

pub fn check(rule: &str, severity: Severity, firing: &[Firing], silent: &[&str], names_call: bool) {
    check_with(rule, &Settings::default(), severity, firing, silent, names_call);
}
