//! `rigor sig-gen`: RBS signatures for the methods of Ruby files, from
//! inferred return types. Prints them (`--print`, the default), shows what
//! `--write` would change in `sig/` (`--diff`), or writes it (`--write`).

use serde::Serialize;

use super::{usage_error, write_json, Format, Io, EXIT_FINDINGS, EXIT_OK};
use crate::config;
use crate::files::{self, Target};
use crate::sig_gen::{self, layout_scan, render, write, Candidate, Classification, Generation, Kind, ParamsMode};

#[derive(Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
enum Params {
    /// Every parameter is `untyped`
    #[default]
    Untyped,
    /// Parameter types from the calls the analysed files make
    Observed,
}

#[derive(clap::Args)]
pub struct Args {
    /// Print the signatures (the default)
    #[arg(long, conflicts_with_all = ["diff", "write"])]
    print: bool,
    /// Show, as a unified diff, what --write would change in sig/
    #[arg(long, conflicts_with = "write")]
    diff: bool,
    /// Write the signatures into sig/<path>.rbs
    #[arg(long)]
    write: bool,
    /// Let a tighter return replace the declaration written in sig/
    #[arg(long)]
    overwrite: bool,
    /// Also describe private and protected methods
    #[arg(long)]
    include_private: bool,
    /// Where parameter types come from
    #[arg(long, value_enum, default_value_t)]
    params: Params,
    /// Output format
    #[arg(long, value_enum, default_value_t)]
    format: Format,
    /// Configuration file (default: .rigor.yml, else .rigor.dist.yml)
    #[arg(long, value_name = "PATH")]
    config: Option<String>,
    #[command(flatten)]
    cache: super::CacheArgs,
    /// Files and directories (default: the config's `paths`, else `lib`)
    paths: Vec<String>,
}

#[derive(Serialize)]
struct Report<'a> {
    candidates: &'a [Candidate],
    #[serde(skip_serializing_if = "Option::is_none")]
    files: Option<Vec<FileReport>>,
}

#[derive(Serialize)]
struct FileReport {
    path: String,
    action: &'static str,
    added: usize,
    replaced: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    diff: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

pub fn run(args: Args, io: &mut Io<'_>) -> std::io::Result<i32> {
    let config = match config::load(&io.cwd, args.config.as_deref()) {
        Ok(config) => config,
        Err(error) => return usage_error(io, &format!("bad configuration: {error}")),
    };
    let paths = if args.paths.is_empty() {
        config.paths.clone().unwrap_or_else(|| vec!["lib".to_string()])
    } else {
        args.paths.clone()
    };
    let mut failed = false;
    // The files are read once, with the project (those it could not read
    // are reported below).
    let mut displays = Vec::new();
    for target in files::expand(&paths, &io.cwd, &config.exclude) {
        match target {
            Target::File { display } => displays.push(display),
            Target::Missing { display, reason } => {
                writeln!(io.err, "rigor: cannot read {display}: {reason}")?;
                failed = true;
            }
        }
    }
    let signatures = crate::signatures::load(&config, &io.cwd);
    for warning in &signatures.warnings {
        writeln!(io.err, "rigor: warning: {warning}")?;
    }
    let env = &signatures.signatures.env;
    let options = sig_gen::Options {
        params: match args.params {
            Params::Untyped => ParamsMode::Untyped,
            Params::Observed => ParamsMode::Observed,
        },
        include_private: args.include_private,
        grammar: config.settings.target_ruby,
    };
    let mut config = config;
    args.cache.apply(&mut config, &io.cwd);
    config.settings.signatures = Some(signatures.signatures.clone());
    let targets: Vec<Target> = displays.iter().map(|display| Target::File { display: display.clone() }).collect();
    // A warm model keeps each file's part while its bytes and the index
    // stand, for each way of generating.
    let kind = match (options.params, options.include_private) {
        (ParamsMode::Untyped, false) => "sig-gen",
        (ParamsMode::Untyped, true) => "sig-gen --include-private",
        (ParamsMode::Observed, false) => "sig-gen --params=observed",
        (ParamsMode::Observed, true) => "sig-gen --params=observed --include-private",
    };
    let results = crate::workspace::with_project(&config, &targets, &io.cwd, |workspace, mut project| {
        let kept = workspace.per_file(&mut project, &displays, kind, |project, display, source| {
            sig_gen::analyse_in_project(project, display, &source.bytes, env, &options)
        });
        let mut results: Vec<sig_gen::FileResult> = Vec::new();
        let mut unread: Vec<&String> = Vec::new();
        for (kept, display) in kept.into_iter().zip(&displays) {
            match kept {
                Some(result) => results.push((*result).clone()),
                None => unread.push(display),
            }
        }
        crate::workspace::discard(project);
        (results, unread)
    });
    let (results, unread) = results;
    for display in unread {
        let reason = match std::fs::read(io.cwd.join(display)) {
            Err(error) => files::describe_io_error(&error),
            Ok(_) => "it changed while the project was read".to_string(),
        };
        writeln!(io.err, "rigor: cannot read {display}: {reason}")?;
        failed = true;
    }
    let mut generation = sig_gen::generate_from(results, env, &options);
    for problem in &generation.problems {
        writeln!(io.err, "rigor: {problem}")?;
    }
    let generic = generation.classes.generic_classes(env);
    if !generic.is_empty() {
        let files = layout_scan::signature_files(&config, &io.cwd);
        generation.classes.type_params = layout_scan::type_params(&generic, &files);
    }

    if !(args.diff || args.write) {
        match args.format {
            Format::Json => write_json(io.out, &Report { candidates: &generation.candidates, files: None })?,
            Format::Text => print_text(io, &generation, env)?,
        }
        return Ok(if failed { EXIT_FINDINGS } else { EXIT_OK });
    }

    let source_root = config.paths.as_ref().and_then(|p| p.first()).map_or("lib", String::as_str).to_string();
    let settings = write::Settings { cwd: &io.cwd, source_root: &source_root, overwrite: args.overwrite };
    let plan = write::plan(&mut generation.candidates, &generation.classes, env, &settings);
    if args.write {
        write::apply(&plan, &io.cwd)?;
    }
    failed |= !plan.refusals.is_empty();
    let reports = file_reports(&plan, args.diff);
    match args.format {
        Format::Json => write_json(io.out, &Report { candidates: &generation.candidates, files: Some(reports) })?,
        Format::Text if args.diff => {
            for change in &plan.changes {
                write!(io.out, "{}", sig_gen::diff::unified(&change.path, change.before.as_deref(), &change.after))?;
            }
            report_skips_and_refusals(io, &generation.candidates, &plan)?;
        }
        Format::Text => {
            for change in &plan.changes {
                let verb = if change.before.is_some() { "updated" } else { "created" };
                let replaced =
                    if change.replaced > 0 { format!(", {} replaced", change.replaced) } else { String::new() };
                writeln!(io.out, "{verb} {} (+{} method(s){replaced})", change.path, change.added)?;
            }
            if plan.changes.is_empty() {
                writeln!(io.out, "No changes")?;
            }
            report_skips_and_refusals(io, &generation.candidates, &plan)?;
        }
    }
    Ok(if failed { EXIT_FINDINGS } else { EXIT_OK })
}

fn file_reports(plan: &write::Plan, with_diff: bool) -> Vec<FileReport> {
    let mut reports: Vec<FileReport> = plan
        .changes
        .iter()
        .map(|change| FileReport {
            path: change.path.clone(),
            action: if change.before.is_some() { "update" } else { "create" },
            added: change.added,
            replaced: change.replaced,
            diff: with_diff.then(|| sig_gen::diff::unified(&change.path, change.before.as_deref(), &change.after)),
            reason: None,
        })
        .collect();
    reports.extend(plan.refusals.iter().map(|refusal| FileReport {
        path: refusal.path.clone(),
        action: "refuse",
        added: 0,
        replaced: 0,
        diff: None,
        reason: Some(refusal.reason.clone()),
    }));
    reports
}

fn report_skips_and_refusals(io: &mut Io<'_>, candidates: &[Candidate], plan: &write::Plan) -> std::io::Result<()> {
    for candidate in candidates.iter().filter(|c| c.skip_reason == Some(sig_gen::SkipReason::UserAuthored)) {
        writeln!(
            io.err,
            "rigor: kept {}: its declared return {} was written by hand; --overwrite replaces it when it is in sig/",
            method_label(candidate),
            candidate.declared_return_rbs.as_deref().unwrap_or("?")
        )?;
    }
    for refusal in &plan.refusals {
        writeln!(io.err, "rigor: left {} alone: {}", refusal.path, refusal.reason)?;
    }
    Ok(())
}

fn method_label(candidate: &Candidate) -> String {
    let separator = if candidate.kind == Kind::Singleton { "." } else { "#" };
    format!("{}{separator}{}", candidate.class, candidate.method)
}

/// `# <file>`, then a block per class with each method under its tag;
/// skipped methods as comments. Everything printed is valid RBS.
fn print_text(io: &mut Io<'_>, generation: &Generation, env: &crate::rbs::Environment) -> std::io::Result<()> {
    let candidates = &generation.candidates;
    if candidates.is_empty() {
        return writeln!(io.out, "# No candidates");
    }
    let mut files: Vec<&str> = Vec::new();
    for candidate in candidates {
        if !files.contains(&candidate.file.as_str()) {
            files.push(&candidate.file);
        }
    }
    for (index, file) in files.iter().enumerate() {
        if index > 0 {
            writeln!(io.out)?;
        }
        // A comment line stays one line whatever the file is called.
        writeln!(io.out, "# {}", file.replace(['\n', '\r'], "?"))?;
        let in_file: Vec<&Candidate> = candidates.iter().filter(|c| c.file == *file).collect();
        let mut classes: Vec<&str> = Vec::new();
        for candidate in in_file.iter().filter(|c| c.classification.emits()) {
            if !classes.contains(&candidate.class.as_str()) {
                classes.push(&candidate.class);
            }
        }
        for class in classes {
            let mut members = Vec::new();
            for candidate in in_file.iter().filter(|c| c.class == class && c.classification.emits()) {
                members.push(match candidate.classification {
                    Classification::TighterReturn => {
                        format!("# [tighter, was: {}]", candidate.declared_return_rbs.as_deref().unwrap_or("?"))
                    }
                    _ => "# [new]".to_string(),
                });
                members.push(candidate.rbs.clone().unwrap_or_default());
            }
            let (wrappers, short) = generation.classes.wrappers(env, class);
            let header = generation.classes.header(env, class);
            write!(io.out, "{}", render::block(&wrappers, &short, &header, &members))?;
        }
        for candidate in in_file.iter().filter(|c| c.classification == Classification::Skipped) {
            let reason = candidate.skip_reason.map_or("", |r| r.id());
            writeln!(io.out, "# skipped {} ({reason})", method_label(candidate))?;
        }
    }
    Ok(())
}
