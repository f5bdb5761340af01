//! `check`'s options for CI: the output formats, `--fail-on`, baselines
//! and `--workers`; and how they decide what is shown and the exit code.

use std::io::Write;
use std::path::PathBuf;

use serde::Serialize;

use super::{usage_error, Io};
use crate::baseline::{self, Baseline, Source, Stale};
use crate::config::Config;
use crate::diagnostic::{Diagnostic, Severity};
use crate::report::CiFormat;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum CheckFormat {
    #[default]
    Text,
    Json,
    Sarif,
    Github,
    Gitlab,
    Checkstyle,
    Junit,
    Teamcity,
}

impl CheckFormat {
    pub fn ci(self) -> Option<CiFormat> {
        match self {
            CheckFormat::Text | CheckFormat::Json => None,
            CheckFormat::Sarif => Some(CiFormat::Sarif),
            CheckFormat::Github => Some(CiFormat::Github),
            CheckFormat::Gitlab => Some(CiFormat::Gitlab),
            CheckFormat::Checkstyle => Some(CiFormat::Checkstyle),
            CheckFormat::Junit => Some(CiFormat::Junit),
            CheckFormat::Teamcity => Some(CiFormat::Teamcity),
        }
    }
}

/// `--fail-on`: the lowest severity that makes the run fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum FailOn {
    #[default]
    Error,
    Warning,
    Info,
    Never,
}

impl FailOn {
    pub fn as_str(self) -> &'static str {
        match self {
            FailOn::Error => "error",
            FailOn::Warning => "warning",
            FailOn::Info => "info",
            FailOn::Never => "never",
        }
    }

    pub fn fails(self, severity: Severity) -> bool {
        match self {
            FailOn::Error => severity == Severity::Error,
            FailOn::Warning => severity != Severity::Info,
            FailOn::Info => true,
            FailOn::Never => false,
        }
    }
}

#[derive(clap::Args, Debug, Default)]
pub struct BaselineArgs {
    /// Baseline file of findings to hide (default: the config's `baseline:`,
    /// else .rigor-baseline.yml in the project root when it exists)
    #[arg(long, value_name = "PATH", conflicts_with = "no_baseline")]
    baseline: Option<String>,
    /// Report every finding, ignoring any baseline
    #[arg(long)]
    no_baseline: bool,
    /// Also fail when the baseline records findings that no longer occur
    #[arg(long, conflicts_with = "no_baseline")]
    baseline_strict: bool,
}

/// What the baseline did, for the JSON envelope and the summary line.
#[derive(Debug, Serialize)]
pub struct BaselineUse {
    pub path: String,
    pub hidden: usize,
    pub strict: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stale: Vec<Stale>,
}

pub struct Gated<'a> {
    pub diagnostics: Vec<&'a Diagnostic>,
    pub baseline: Option<BaselineUse>,
    /// The exit code is 1.
    pub failed: bool,
}

/// Applies the baseline, then `--fail-on`. A bad baseline is a usage
/// error: `Err(exit code)` after saying so.
pub fn apply<'a>(
    all: &[&'a Diagnostic],
    checked: &[String],
    args: &BaselineArgs,
    fail_on: FailOn,
    config: &Config,
    io: &mut Io<'_>,
) -> std::io::Result<Result<Gated<'a>, i32>> {
    let source = if args.no_baseline {
        Source::Off
    } else if let Some(path) = &args.baseline {
        Source::Explicit(PathBuf::from(path))
    } else {
        config.baseline.clone().unwrap_or_else(|| Source::IfPresent(PathBuf::from(baseline::DEFAULT_FILE)))
    };
    let found = match &source {
        Source::Off => None,
        Source::Explicit(path) => Some(path.clone()),
        Source::IfPresent(path) => Some(path.clone()).filter(|path| io.cwd.join(path).is_file()),
    };
    let Some(path) = found else {
        if args.baseline_strict {
            let problem = "--baseline-strict needs a baseline: none is configured and .rigor-baseline.yml does not exist (create one with `rigor baseline generate`)";
            return usage_error(io, problem).map(Err);
        }
        let failed = all.iter().any(|d| fail_on.fails(d.severity));
        return Ok(Ok(Gated { diagnostics: all.to_vec(), baseline: None, failed }));
    };
    let shown_path = path.to_string_lossy().into_owned();
    let loaded = match Baseline::load(&io.cwd.join(&path), &shown_path) {
        Ok(loaded) => loaded,
        Err(error) => return usage_error(io, &format!("bad baseline: {error}")).map(Err),
    };
    let filtered = loaded.filter(all, checked);
    let failed = filtered.shown.iter().any(|d| fail_on.fails(d.severity))
        || (args.baseline_strict && !filtered.stale.is_empty());
    let used =
        BaselineUse { path: shown_path, hidden: filtered.hidden, strict: args.baseline_strict, stale: filtered.stale };
    Ok(Ok(Gated { diagnostics: filtered.shown, baseline: Some(used), failed }))
}

/// `N finding(s) hidden by the baseline …`, and what is stale in it.
pub fn write_baseline_summary(out: &mut dyn Write, used: &BaselineUse) -> std::io::Result<()> {
    writeln!(out, "{} finding(s) hidden by the baseline {}", used.hidden, used.path)?;
    if !used.stale.is_empty() {
        let fixed: usize = used.stale.iter().map(|s| s.count - s.actual).sum();
        let verdict = if used.strict { "fails under --baseline-strict" } else { "can be tightened" };
        writeln!(
            out,
            "The baseline records {fixed} finding(s) that no longer occur ({verdict}; run `rigor baseline regenerate`):"
        )?;
        for stale in &used.stale {
            let message = stale.message.as_ref().map(|m| format!(" /{m}/")).unwrap_or_default();
            writeln!(
                out,
                "  {} [{}]{message}: {} recorded, {} found",
                stale.file, stale.rule, stale.count, stale.actual
            )?;
        }
    }
    Ok(())
}

/// `--workers=N`: sizes the analysis pool, or says why it cannot.
pub fn use_workers(workers: usize, io: &mut Io<'_>) -> std::io::Result<()> {
    if let Err(running) = crate::analysis::set_workers(workers) {
        writeln!(io.err, "rigor: --workers={workers} ignored: this process already analyses with {running} thread(s)")?;
    }
    Ok(())
}
