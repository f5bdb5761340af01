//! `rigor check`: diagnostics for Ruby files.

use std::time::Instant;

use serde::Serialize;

use super::check_ci::{self as gate, BaselineArgs, CheckFormat, FailOn, Gated};
use super::{usage_error, write_json, Io, EXIT_FINDINGS, EXIT_OK};
use crate::analysis::FileReport;
use crate::config::{self, Config, ConfigWarning};
use crate::diagnostic::{Diagnostic, Severity};
use crate::files;
use crate::report;
use crate::workspace::{self, CacheFigures};

#[derive(clap::Args)]
pub struct Args {
    /// Output format (sarif, github, gitlab, checkstyle, junit, teamcity: for CI)
    #[arg(long, value_enum, default_value_t)]
    format: CheckFormat,
    /// The lowest severity that fails the run (exit 1)
    #[arg(long, value_enum, default_value_t, value_name = "SEVERITY")]
    fail_on: FailOn,
    #[command(flatten)]
    baseline: BaselineArgs,
    /// Analysis threads (default: one per core)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    workers: Option<u16>,
    /// Include run statistics (the default)
    #[arg(long, overrides_with = "no_stats")]
    stats: bool,
    /// Leave out run statistics
    #[arg(long)]
    no_stats: bool,
    /// Configuration file (default: .rigor.yml, else .rigor.dist.yml)
    #[arg(long, value_name = "PATH")]
    config: Option<String>,
    #[command(flatten)]
    cache: super::CacheArgs,
    /// Files and directories (default: the config's `paths`, else `lib`)
    paths: Vec<String>,
}

/// The result of analysing what a command's arguments name.
pub(super) struct Analysed {
    pub config: Config,
    pub reports: Vec<FileReport>,
    /// What the project model reused and redid.
    pub figures: CacheFigures,
}

/// Loads the configuration and analyses the paths (shared with `triage`).
/// A bad configuration is a usage error: `Err(exit code)` after saying so.
pub(super) fn analyse(
    paths: &[String],
    config: Option<&str>,
    cache: &super::CacheArgs,
    io: &mut Io<'_>,
) -> std::io::Result<Result<Analysed, i32>> {
    let config = match config::load(&io.cwd, config) {
        Ok(config) => config,
        Err(error) => return usage_error(io, &format!("bad configuration: {error}")).map(Err),
    };
    let paths = if !paths.is_empty() {
        paths.to_vec()
    } else {
        config.paths.clone().unwrap_or_else(|| vec!["lib".to_string()])
    };
    let mut config = config;
    cache.apply(&mut config, &io.cwd);
    let cache_dir = config.cache_dir.clone();
    let (reports, figures) = workspace::with_workspace(&io.cwd, cache_dir.as_deref(), |workspace| {
        let (signatures, (targets, looked)) = crate::signatures::load_beside(&config, &io.cwd, || {
            let targets = files::expand(&paths, &io.cwd, &config.exclude);
            let project_files = files::project_files(&config, &targets, &io.cwd);
            // A missing method's judgement reads the standard library's
            // signatures: loaded while the structure is built.
            let stdlib = || {
                crate::rules::call::stdlib_methods::environment();
            };
            let looked = workspace.look(&project_files, &io.cwd).keeping_trees_of(&targets).meanwhile(stdlib);
            (targets, looked)
        });
        config
            .warnings
            .extend(signatures.warnings.iter().map(|w| ConfigWarning { kind: "signatures", message: w.clone() }));
        config.settings.signatures = Some(signatures.signatures);
        let mut project = workspace.project_looked(looked, &io.cwd, &config.settings);
        let reports = workspace.check(&mut project, &targets, &io.cwd, &config.settings);
        let figures = std::mem::take(&mut project.figures);
        workspace::discard(project);
        (reports, figures)
    });
    Ok(Ok(Analysed { config, reports, figures }))
}

#[derive(Serialize)]
struct Stats {
    target_files: usize,
    files_with_diagnostics: usize,
    wall_seconds: f64,
    peak_rss_bytes: u64,
    cache: CacheFigures,
}

#[derive(Serialize)]
struct Envelope<'a> {
    success: bool,
    error_count: usize,
    diagnostics: Vec<&'a Diagnostic>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stats: Option<Stats>,
    fail_on: &'static str,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    config_warnings: &'a [ConfigWarning],
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline: Option<&'a gate::BaselineUse>,
}

pub fn run(args: Args, io: &mut Io<'_>) -> std::io::Result<i32> {
    let started = Instant::now();
    if let Some(workers) = args.workers {
        gate::use_workers(workers.into(), io)?;
    }
    let analysed = match analyse(&args.paths, args.config.as_deref(), &args.cache, io)? {
        Ok(analysed) => analysed,
        Err(code) => return Ok(code),
    };
    let all: Vec<&Diagnostic> = analysed.reports.iter().flat_map(|r| &r.diagnostics).collect();
    let files: Vec<String> = analysed.reports.iter().map(|r| r.path.clone()).collect();
    let Gated { diagnostics, baseline, failed } =
        match gate::apply(&all, &files, &args.baseline, args.fail_on, &analysed.config, io)? {
            Ok(gated) => gated,
            Err(code) => return Ok(code),
        };
    let error_count = diagnostics.iter().filter(|d| d.severity == Severity::Error).count();
    let stats = (!args.no_stats).then(|| Stats {
        target_files: analysed.reports.len(),
        files_with_diagnostics: analysed.reports.iter().filter(|r| !r.diagnostics.is_empty()).count(),
        wall_seconds: (started.elapsed().as_secs_f64() * 1e4).round() / 1e4,
        peak_rss_bytes: peak_rss_bytes(),
        cache: analysed.figures.clone(),
    });
    match args.format.ci() {
        None if args.format == CheckFormat::Json => write_json(
            io.out,
            &Envelope {
                success: !failed,
                error_count,
                diagnostics: diagnostics.clone(),
                stats,
                fail_on: args.fail_on.as_str(),
                config_warnings: &analysed.config.warnings,
                baseline: baseline.as_ref(),
            },
        )?,
        None => {
            write_text(io, &diagnostics, &analysed, stats.as_ref())?;
            if let Some(baseline) = &baseline {
                gate::write_baseline_summary(io.out, baseline)?;
            }
        }
        Some(format) => {
            for warning in &analysed.config.warnings {
                writeln!(io.err, "rigor: config warning: {}", warning.message)?;
            }
            let run = report::Run {
                diagnostics: &diagnostics,
                files: &files,
                settings: &analysed.config.settings,
                root: &io.cwd,
            };
            report::write(format, &run, io.out)?;
            if let Some(baseline) = &baseline {
                gate::write_baseline_summary(io.err, baseline)?;
            }
        }
    }
    Ok(if failed { EXIT_FINDINGS } else { EXIT_OK })
}

fn write_text(
    io: &mut Io<'_>,
    diagnostics: &[&Diagnostic],
    analysed: &Analysed,
    stats: Option<&Stats>,
) -> std::io::Result<()> {
    for warning in &analysed.config.warnings {
        writeln!(io.err, "rigor: config warning: {}", warning.message)?;
    }
    for d in diagnostics {
        let rule = d.rule.map(|r| format!(" [{r}]")).unwrap_or_default();
        writeln!(io.out, "{}:{}:{}: {}: {}{rule}", d.path, d.line, d.column, d.severity.as_str(), d.message)?;
    }
    let count = |severity| diagnostics.iter().filter(|d| d.severity == severity).count();
    if diagnostics.is_empty() {
        writeln!(io.out, "No diagnostics")?;
    } else {
        writeln!(io.out)?;
        writeln!(
            io.out,
            "{} error(s), {} warning(s), {} info in {} file(s)",
            count(Severity::Error),
            count(Severity::Warning),
            count(Severity::Info),
            analysed.reports.len()
        )?;
    }
    if let Some(stats) = stats {
        writeln!(io.out, "Checked {} file(s) in {:.2}s", stats.target_files, stats.wall_seconds)?;
    }
    Ok(())
}

/// Peak resident set size of this process so far (for a worker: its whole life).
fn peak_rss_bytes() -> u64 {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage fills the struct it is given.
    let ok = unsafe { libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) } == 0;
    if ok {
        let usage = unsafe { usage.assume_init() };
        u64::try_from(usage.ru_maxrss).unwrap_or(0) * 1024
    } else {
        0
    }
}
