//! `rigor baseline generate|regenerate`: record the current findings in a
//! baseline file (default `.rigor-baseline.yml`), so `check` reports only
//! new ones. Only the CLI writes baselines; MCP tools only read them.

use super::check::analyse;
use super::{usage_error, Io, EXIT_FINDINGS, EXIT_OK};
use crate::baseline::{self, Baseline};
use crate::diagnostic::Diagnostic;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(clap::Subcommand)]
enum Action {
    /// Write a baseline of the current findings (refuses to overwrite one)
    Generate(Options),
    /// Rewrite the baseline from the current findings, after fixing some
    Regenerate(Options),
}

#[derive(clap::Args)]
struct Options {
    /// Where to write it
    #[arg(long, value_name = "PATH", default_value = baseline::DEFAULT_FILE)]
    output: String,
    /// Overwrite an existing file (`generate` only; `regenerate` always does)
    #[arg(long)]
    force: bool,
    /// Configuration file (default: .rigor.yml, else .rigor.dist.yml)
    #[arg(long, value_name = "PATH")]
    config: Option<String>,
    #[command(flatten)]
    cache: super::CacheArgs,
    /// Files and directories (default: the config's `paths`, else `lib`)
    paths: Vec<String>,
}

pub fn run(args: Args, io: &mut Io<'_>) -> std::io::Result<i32> {
    let (options, overwrite) = match args.action {
        Action::Generate(options) => {
            let force = options.force;
            (options, force)
        }
        Action::Regenerate(options) => (options, true),
    };
    let target = io.cwd.join(&options.output);
    if target.exists() && !overwrite {
        let problem = format!(
            "{} already exists; use `rigor baseline regenerate` (or `generate --force`) to rewrite it",
            options.output
        );
        return usage_error(io, &problem);
    }
    let analysed = match analyse(&options.paths, options.config.as_deref(), &options.cache, io)? {
        Ok(analysed) => analysed,
        Err(code) => return Ok(code),
    };
    let all: Vec<&Diagnostic> = analysed.reports.iter().flat_map(|r| &r.diagnostics).collect();
    let recorded = Baseline::from_diagnostics(&all);
    let written = target
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| std::fs::write(&target, recorded.to_yaml()));
    if let Err(error) = written {
        writeln!(io.err, "rigor: cannot write {}: {}", options.output, crate::files::describe_io_error(&error))?;
        return Ok(EXIT_FINDINGS);
    }
    let unrecorded = all.iter().filter(|d| d.rule.is_none()).count();
    writeln!(
        io.err,
        "rigor: wrote {} ({} row(s) covering {} finding(s){})",
        options.output,
        recorded.buckets.len(),
        recorded.total(),
        if unrecorded > 0 { format!("; {unrecorded} parse error(s) are never baselined") } else { String::new() }
    )?;
    Ok(EXIT_OK)
}
