//! `check`'s machine formats for CI: each turns the run's diagnostics into
//! the shape one consumer reads (GitHub code scanning, workflow
//! annotations, GitLab Code Quality, Checkstyle readers, JUnit reports,
//! TeamCity inspections). Text and JSON stay with `check` itself.

mod checkstyle;
mod fingerprint;
mod github;
mod gitlab;
mod junit;
mod sarif;
mod source_lines;
mod teamcity;
mod xml;

use std::io::Write;
use std::path::Path;

use crate::analysis::Settings;
use crate::diagnostic::Diagnostic;

pub use source_lines::SourceLines;

/// The id the CI formats give diagnostics that belong to no rule (parse
/// errors, unreadable files, analysis failures), where a rule id is needed.
pub const NO_RULE_ID: &str = "rigor.parse-error";

/// A CI format of `check --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CiFormat {
    Sarif,
    Github,
    Gitlab,
    Checkstyle,
    Junit,
    Teamcity,
}

/// What a CI report is built from.
pub struct Run<'a> {
    /// The diagnostics to report, files in check order, each file's by position.
    pub diagnostics: &'a [&'a Diagnostic],
    /// Every file checked, in check order (JUnit and Checkstyle list clean ones too).
    pub files: &'a [String],
    /// The active settings: SARIF declares each rule's configured level.
    pub settings: &'a Settings,
    /// Where the diagnostics' relative paths resolve: source lines for
    /// columns and fingerprints are read from here.
    pub root: &'a Path,
}

/// Writes `run` in `format`.
pub fn write(format: CiFormat, run: &Run<'_>, out: &mut dyn Write) -> std::io::Result<()> {
    let mut lines = SourceLines::new(run.root);
    match format {
        CiFormat::Sarif => sarif::write(run, &mut lines, out),
        CiFormat::Github => github::write(run, &mut lines, out),
        CiFormat::Gitlab => gitlab::write(run, &mut lines, out),
        CiFormat::Checkstyle => checkstyle::write(run, out),
        CiFormat::Junit => junit::write(run, out),
        CiFormat::Teamcity => teamcity::write(run, out),
    }
}

/// The rule id a CI format shows for `diagnostic`.
fn rule_id(diagnostic: &Diagnostic) -> &'static str {
    diagnostic.rule.unwrap_or(NO_RULE_ID)
}

/// `message [rule]`, for formats without a rule field of their own.
fn message_with_rule(diagnostic: &Diagnostic) -> String {
    format!("{} [{}]", diagnostic.message, rule_id(diagnostic))
}
