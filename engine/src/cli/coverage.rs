//! `rigor coverage`: how precisely inference types the expressions of
//! some files, by tier (reference section 3).

use serde::Serialize;
use serde_json::{json, Map, Value};

use super::{usage_error, write_json, Format, Io, EXIT_FINDINGS, EXIT_OK};
use crate::config::{self, ConfigWarning};
use crate::files::{self, Target};
use crate::infer;
use crate::stack_guard;
use crate::syntax::node_kind::is_expression;
use crate::syntax::walk::all_nodes;
use crate::syntax::RubyVersion;
use crate::types::{Tier, Type};

#[derive(clap::Args)]
pub struct Args {
    /// Output format
    #[arg(long, value_enum, default_value_t)]
    format: Format,
    /// Exit 1 when the precise ratio is below this (0.0 to 1.0)
    #[arg(long, value_name = "RATIO")]
    threshold: Option<f64>,
    /// Analysis threads (default: one per core)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    workers: Option<u16>,
    /// Configuration file (default: .rigor.yml, else .rigor.dist.yml)
    #[arg(long, value_name = "PATH")]
    config: Option<String>,
    #[command(flatten)]
    cache: super::CacheArgs,
    /// Files and directories (default: the config's `paths`, else `lib`)
    paths: Vec<String>,
}

/// Expressions per tier, in `Tier::ALL` order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TierCounts([u64; 8]);

impl TierCounts {
    fn total(&self) -> u64 {
        self.0.iter().sum()
    }

    fn precise(&self) -> u64 {
        Tier::ALL.iter().filter(|t| t.is_precise()).map(|t| self.0[t.index()]).sum()
    }

    fn opaque(&self) -> u64 {
        Tier::ALL.iter().filter(|t| t.is_opaque()).map(|t| self.0[t.index()]).sum()
    }

    fn add(&mut self, other: &TierCounts) {
        for (mine, theirs) in self.0.iter_mut().zip(other.0) {
            *mine += theirs;
        }
    }
}

enum FileOutcome {
    Counted(TierCounts),
    Failed(Vec<String>),
}

/// Counts each expression of one file's source by the tier of its type,
/// inferred as a file of its project.
/// `kept`: the project's parse of these bytes, if it kept one.
pub fn count_in_project(
    source: &[u8],
    kept: Option<&mut infer::WalkedTree>,
    env: &crate::rbs::Environment,
    grammar: RubyVersion,
    link: Option<crate::infer::ProjectLink>,
    prior: Option<crate::infer::Prior>,
) -> Result<TierCounts, Vec<String>> {
    let outcome = stack_guard::guarded(|| {
        infer::on_parse(kept, source, grammar, |parsed, walk| {
            let errors = parsed.errors();
            if !errors.is_empty() {
                return Err(errors.into_iter().map(|(_, message)| message).collect());
            }
            let types = infer::types_in_project(parsed, env, link, prior, walk);
            let mut counts = TierCounts::default();
            let untyped = Type::untyped();
            for node in all_nodes(&parsed.root()) {
                if is_expression(&node) {
                    let ty = types.of(&node).unwrap_or(&untyped);
                    counts.0[Tier::of(ty).index()] += 1;
                }
            }
            Ok(counts)
        })
    });
    match outcome {
        Ok(result) => result,
        Err(stack_guard::Failure::TooDeep) => Err(vec!["nested too deeply to analyse".to_string()]),
        Err(stack_guard::Failure::Panic(message)) => Err(vec![format!("internal error: {message}")]),
    }
}

fn ratio(part: u64, whole: u64) -> f64 {
    let value = if whole == 0 { part as f64 } else { part as f64 / whole as f64 };
    (value * 1e4).round() / 1e4
}

/// `precise / total`, 1.0 for a file with no expressions.
fn precise_ratio(counts: &TierCounts) -> f64 {
    if counts.total() == 0 {
        1.0
    } else {
        ratio(counts.precise(), counts.total())
    }
}

fn by_tier(counts: &TierCounts) -> Value {
    let mut map = Map::new();
    for tier in Tier::ALL {
        let count = counts.0[tier.index()];
        map.insert(tier.key().into(), json!({"count": count, "ratio": ratio(count, counts.total())}));
    }
    Value::Object(map)
}

#[derive(Serialize)]
struct ParseFailure<'a> {
    file: &'a str,
    errors: &'a [String],
}

pub fn run(args: Args, io: &mut Io<'_>) -> std::io::Result<i32> {
    if let Some(workers) = args.workers {
        super::check_ci::use_workers(workers.into(), io)?;
    }
    if let Some(threshold) = args.threshold {
        if !(0.0..=1.0).contains(&threshold) {
            return usage_error(io, &format!("--threshold must be between 0 and 1, got {threshold}"));
        }
    }
    let config = match config::load(&io.cwd, args.config.as_deref()) {
        Ok(config) => config,
        Err(error) => return usage_error(io, &format!("bad configuration: {error}")),
    };
    let paths = if !args.paths.is_empty() {
        args.paths.clone()
    } else {
        config.paths.clone().unwrap_or_else(|| vec!["lib".to_string()])
    };
    let targets = files::expand(&paths, &io.cwd, &config.exclude);
    if let Some(Target::Missing { display, reason }) = targets.iter().find(|t| matches!(t, Target::Missing { .. })) {
        return usage_error(io, &format!("cannot read {display}: {reason}"));
    }
    let signatures = crate::signatures::load(&config, &io.cwd);
    for warning in &signatures.warnings {
        writeln!(io.err, "rigor: warning: {warning}")?;
    }
    let env = &signatures.signatures.env;
    let mut config = config;
    args.cache.apply(&mut config, &io.cwd);
    config.settings.signatures = Some(signatures.signatures.clone());
    let grammar = config.settings.target_ruby;
    let cwd = io.cwd.clone();
    let displays: Vec<String> = targets.iter().map(|target| target.display().to_string()).collect();
    let outcomes: Vec<(String, FileOutcome)> =
        crate::workspace::with_project(&config, &targets, &io.cwd, |workspace, mut project| {
            // A warm model keeps each file's counts while its bytes and the
            // index stand: a second call counts only what changed.
            let counted = workspace.per_file(&mut project, &displays, "coverage", |project, display, source| {
                let (link, prior) = project.inference_inputs(display, &source.bytes);
                let mut kept = project.take_parse(display, &source.bytes);
                count_in_project(&source.bytes, kept.as_mut(), env, grammar, link, prior)
            });
            let outcomes = displays
                .iter()
                .zip(counted)
                .map(|(display, counted)| {
                    let outcome = match counted.as_deref() {
                        Some(Ok(counts)) => FileOutcome::Counted(counts.clone()),
                        Some(Err(errors)) => FileOutcome::Failed(errors.clone()),
                        // Not read with the project: say why, as `check` does.
                        None => FileOutcome::Failed(vec![match std::fs::metadata(cwd.join(display)) {
                            Ok(_) => "cannot be read".to_string(),
                            Err(error) => format!("cannot read: {}", files::describe_io_error(&error)),
                        }]),
                    };
                    (display.clone(), outcome)
                })
                .collect();
            crate::workspace::discard(project);
            outcomes
        });

    let mut total = TierCounts::default();
    let mut by_file = Vec::new();
    let mut failures = Vec::new();
    for (file, outcome) in &outcomes {
        match outcome {
            FileOutcome::Counted(counts) => {
                total.add(counts);
                by_file.push(json!({
                    "file": file,
                    "expressions_typed": counts.total(),
                    "precise_count": counts.precise(),
                    "precise_ratio": precise_ratio(counts),
                    "dynamic_opaque_count": counts.opaque(),
                    "dynamic_opaque_ratio": ratio(counts.opaque(), counts.total()),
                    "by_tier": by_tier(counts),
                }));
            }
            FileOutcome::Failed(errors) => failures.push(ParseFailure { file, errors }),
        }
    }
    let specific = total.0[Tier::DynamicSpecific.index()];
    let summary = json!({
        "files_processed": outcomes.len() - failures.len(),
        "parse_errors": failures.len(),
        "expressions_typed": total.total(),
        "precise_count": total.precise(),
        "precise_ratio": precise_ratio(&total),
        "dynamic_opaque_count": total.opaque(),
        "dynamic_opaque_ratio": ratio(total.opaque(), total.total()),
        "dynamic_specific_count": specific,
        "dynamic_specific_ratio": ratio(specific, total.total()),
    });
    let mut warnings: Vec<ConfigWarning> = config.warnings.clone();
    warnings.extend(signatures.warnings.iter().map(|w| ConfigWarning { kind: "signatures", message: w.clone() }));

    match args.format {
        Format::Json => {
            let mut report = json!({
                "summary": summary,
                "by_tier": by_tier(&total),
                "by_file": by_file,
                "parse_errors": failures,
            });
            if !warnings.is_empty() {
                report["config_warnings"] = json!(warnings);
            }
            write_json(io.out, &report)?;
        }
        Format::Text => write_text(io, &outcomes, &total, &failures, &config.warnings)?,
    }
    let below = args.threshold.is_some_and(|threshold| precise_ratio(&total) < threshold);
    Ok(if !failures.is_empty() || below { EXIT_FINDINGS } else { EXIT_OK })
}

fn write_text(
    io: &mut Io<'_>,
    outcomes: &[(String, FileOutcome)],
    total: &TierCounts,
    failures: &[ParseFailure<'_>],
    config_warnings: &[ConfigWarning],
) -> std::io::Result<()> {
    for warning in config_warnings {
        writeln!(io.err, "rigor: config warning: {}", warning.message)?;
    }
    let out = &mut *io.out;
    let percent = |part: u64| if total.total() == 0 { 0.0 } else { part as f64 * 100.0 / total.total() as f64 };
    writeln!(out, "Type coverage: {} file(s)", outcomes.len())?;
    writeln!(out, "  files processed:   {}", outcomes.len() - failures.len())?;
    writeln!(out, "  parse errors:      {}", failures.len())?;
    writeln!(out, "  expressions typed: {}", total.total())?;
    writeln!(out, "  precise:           {} ({:.1}%)", total.precise(), percent(total.precise()))?;
    writeln!(out, "  dynamic (opaque):  {} ({:.1}%)", total.opaque(), percent(total.opaque()))?;
    writeln!(out, "  precise ratio:     {:.4}", precise_ratio(total))?;
    writeln!(out, "\nBy tier:")?;
    for tier in Tier::ALL {
        let count = total.0[tier.index()];
        if count > 0 {
            writeln!(out, "  {:<18} {:>8} ({:.1}%)", tier.key(), count, percent(count))?;
        }
    }
    let counted: Vec<(&String, &TierCounts)> = outcomes
        .iter()
        .filter_map(|(file, outcome)| match outcome {
            FileOutcome::Counted(counts) if counts.total() > 0 => Some((file, counts)),
            _ => None,
        })
        .collect();
    if counted.len() > 1 {
        writeln!(out, "\nBy file (least precise first):")?;
        let mut rows = counted;
        rows.sort_by(|a, b| precise_ratio(a.1).total_cmp(&precise_ratio(b.1)).then(a.0.cmp(b.0)));
        for (file, counts) in rows {
            writeln!(
                out,
                "  {:>6.1}%  {file} ({}/{})",
                precise_ratio(counts) * 100.0,
                counts.precise(),
                counts.total()
            )?;
        }
    }
    if !failures.is_empty() {
        writeln!(out, "\nParse errors:")?;
        for failure in failures {
            writeln!(out, "  {}: {}", failure.file, failure.errors.join("; "))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_round_to_four_places_and_empty_files_are_precise() {
        assert_eq!(ratio(1, 3), 0.3333);
        assert_eq!(precise_ratio(&TierCounts::default()), 1.0);
        let env = crate::rbs::Environment::default();
        let counts = count_in_project(b"x = 1\nx\n", None, &env, RubyVersion::Latest, None, None).unwrap();
        assert_eq!(counts.total(), 3);
        assert_eq!(counts.0[Tier::Constant.index()], 3);
        assert!(count_in_project(b"def (", None, &env, RubyVersion::Latest, None, None).is_err());
    }
}
