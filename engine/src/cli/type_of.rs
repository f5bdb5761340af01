//! `rigor type-of FILE:LINE:COL…` (or `FILE LINE COL`): the inferred type of
//! the innermost expression at each position. Several positions answer
//! `{"results": [...]}` in the order given, each file parsed once.

use serde::Serialize;

use super::{usage_error, write_json, Format, Io, EXIT_FINDINGS, EXIT_OK};
use crate::config;
use crate::infer;
use crate::source::LineIndex;
use crate::stack_guard;
use crate::syntax::node_kind::{class_name, is_container};
use crate::syntax::walk::all_nodes;
use crate::syntax::ParsedFile;
use crate::types::{display, erase, Type};

#[derive(clap::Args)]
pub struct Args {
    /// Output format
    #[arg(long, value_enum, default_value_t)]
    format: Format,
    /// Configuration file (default: .rigor.yml, else .rigor.dist.yml)
    #[arg(long, value_name = "PATH")]
    config: Option<String>,
    #[command(flatten)]
    cache: super::CacheArgs,
    /// FILE:LINE:COL (several allowed), or FILE LINE COL (1-based; columns count bytes)
    #[arg(num_args = 1.., value_name = "POSITION")]
    position: Vec<String>,
}

#[derive(Serialize)]
struct Answer {
    file: String,
    line: usize,
    column: usize,
    node: String,
    #[serde(rename = "type")]
    ty: String,
    erased: String,
}

/// Why no type could be given for a file.
pub(super) enum Unavailable {
    ParseErrors(Vec<String>),
    TooDeep,
    Crashed(String),
}

impl Unavailable {
    pub(super) fn describe(&self, file: &str) -> String {
        match self {
            Unavailable::ParseErrors(errors) => format!("{file} does not parse: {}", errors.join("; ")),
            Unavailable::TooDeep => format!("{file} is nested too deeply to analyse"),
            Unavailable::Crashed(message) => format!("internal error while typing {file}: {message}"),
        }
    }
}

type Position = (String, usize, usize);

/// `FILE LINE COL` (three words, the last two numbers), else one
/// `FILE:LINE:COL` per word.
fn parse_positions(words: &[String]) -> Result<Vec<Position>, String> {
    if words.is_empty() {
        return Err("type-of needs a position: FILE:LINE:COL (several allowed) or FILE LINE COL".into());
    }
    let spaced = words.len() == 3
        && !words[0].contains(':')
        && words[1..].iter().all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()));
    if spaced {
        return parse_position(words).map(|position| vec![position]);
    }
    words.iter().map(|word| parse_position(std::slice::from_ref(word)).map_err(|e| format!("`{word}`: {e}"))).collect()
}

fn parse_position(words: &[String]) -> Result<Position, String> {
    let (file, line, column) = match words {
        [one] => {
            let mut parts = one.rsplitn(3, ':');
            let column = parts.next().unwrap_or_default();
            let line = parts.next().ok_or("expected FILE:LINE:COL")?;
            let file = parts.next().ok_or("expected FILE:LINE:COL")?;
            (file.to_string(), line.to_string(), column.to_string())
        }
        [file, line, column] => (file.clone(), line.clone(), column.clone()),
        _ => return Err("expected FILE:LINE:COL or FILE LINE COL".into()),
    };
    let number = |text: &str, what: &str| match text.parse::<usize>() {
        Ok(value) if value >= 1 => Ok(value),
        _ => Err(format!("{what} must be a positive integer, got `{text}`")),
    };
    Ok((file, number(&line, "line")?, number(&column, "column")?))
}

/// The byte offset of a 1-based line and byte column, when the position
/// lies within the file (a column may point just past a line's end).
pub(super) fn offset_of(source: &[u8], lines: &LineIndex, line: usize, column: usize) -> Result<usize, String> {
    if line > lines.line_count() {
        return Err(format!("line {line} is out of range (the file has {} lines)", lines.line_count()));
    }
    let start = lines.line_start(line);
    let length = source[start..].iter().position(|&b| b == b'\n').unwrap_or(source.len() - start);
    let length = if length > 0 && source[start + length - 1] == b'\r' { length - 1 } else { length };
    if column > length + 1 {
        return Err(format!("column {column} is out of range (line {line} has {length} bytes)"));
    }
    Ok(start + column - 1)
}

pub fn run(args: Args, io: &mut Io<'_>) -> std::io::Result<i32> {
    let positions = match parse_positions(&args.position) {
        Ok(positions) => positions,
        Err(problem) => return usage_error(io, &problem),
    };
    let config = match config::load(&io.cwd, args.config.as_deref()) {
        Ok(config) => config,
        Err(error) => return usage_error(io, &format!("bad configuration: {error}")),
    };
    let signatures = crate::signatures::load(&config, &io.cwd);
    for warning in &signatures.warnings {
        writeln!(io.err, "rigor: warning: {warning}")?;
    }
    let env = &signatures.signatures.env;
    let mut config = config;
    args.cache.apply(&mut config, &io.cwd);
    config.settings.signatures = Some(signatures.signatures.clone());
    // Every file asked about is typed as part of its project.
    let targets: Vec<crate::files::Target> =
        positions.iter().map(|(file, _, _)| crate::files::Target::File { display: file.clone() }).collect();
    let project = crate::workspace::project_of(&config, &targets, &io.cwd);
    let grammar = config.settings.target_ruby;
    let answers = answer_all(&positions, &io.cwd, |file, source, offsets| {
        let (link, prior) = project.inference_inputs(file, source);
        let mut kept = project.take_parse(file, source);
        crate::analysis::on_analysis_thread(|| types_at(source, kept.as_mut(), offsets, grammar, env, link, prior))
    });
    if let [answer] = &answers[..] {
        return write_single(io, args.format, &positions[0], answer);
    }
    let failed = answers.iter().any(|answer| answer.is_err());
    for (position, answer) in positions.iter().zip(&answers) {
        if let Err(problem) = answer {
            writeln!(io.err, "rigor: {}", problem.describe(position))?;
        }
    }
    match args.format {
        Format::Json => {
            let results: Vec<serde_json::Value> =
                positions.iter().zip(&answers).map(|(position, answer)| answer_json(position, answer)).collect();
            write_json(io.out, &serde_json::json!({ "results": results }))?;
        }
        Format::Text => {
            for (index, answer) in answers.iter().enumerate() {
                if index > 0 {
                    writeln!(io.out)?;
                }
                match answer {
                    Ok(answer) => write_text(io, answer)?,
                    Err(problem) => {
                        let (file, line, column) = &positions[index];
                        writeln!(io.out, "{file}:{line}:{column}")?;
                        writeln!(io.out, "error: {}", problem.describe(&positions[index]))?;
                    }
                }
            }
        }
    }
    Ok(if failed { EXIT_FINDINGS } else { EXIT_OK })
}

/// Why a position has no type.
enum Problem {
    /// A position outside the file (a usage error when it is the only one).
    OutOfRange(String),
    Unreadable(String),
    NoExpression,
    Unavailable(String),
}

impl Problem {
    fn describe(&self, (file, line, column): &Position) -> String {
        match self {
            Problem::OutOfRange(problem) => format!("{file}:{line}:{column}: {problem}"),
            Problem::Unreadable(problem) | Problem::Unavailable(problem) => problem.clone(),
            Problem::NoExpression => format!("no expression at {file}:{line}:{column}"),
        }
    }
}

/// Answers every position, reading and typing each file once.
fn answer_all(
    positions: &[Position],
    cwd: &std::path::Path,
    mut type_file: impl FnMut(&str, &[u8], &[usize]) -> Result<Vec<Option<Found>>, Unavailable>,
) -> Vec<Result<Answer, Problem>> {
    let mut answers: Vec<Option<Result<Answer, Problem>>> = positions.iter().map(|_| None).collect();
    for (first, (file, _, _)) in positions.iter().enumerate() {
        if answers[first].is_some() {
            continue;
        }
        let same_file: Vec<usize> = (first..positions.len()).filter(|&i| positions[i].0 == *file).collect();
        let source = match std::fs::read(cwd.join(file)) {
            Ok(source) => source,
            Err(error) => {
                let problem = format!("cannot read {file}: {}", crate::files::describe_io_error(&error));
                for &i in &same_file {
                    answers[i] = Some(Err(Problem::Unreadable(problem.clone())));
                }
                continue;
            }
        };
        let lines = LineIndex::new(&source);
        let mut typed = Vec::new();
        for &i in &same_file {
            let (_, line, column) = positions[i];
            match offset_of(&source, &lines, line, column) {
                Ok(offset) => typed.push((i, offset)),
                Err(problem) => answers[i] = Some(Err(Problem::OutOfRange(problem))),
            }
        }
        if typed.is_empty() {
            continue;
        }
        let offsets: Vec<usize> = typed.iter().map(|&(_, offset)| offset).collect();
        match type_file(file, &source, &offsets) {
            Ok(found) => {
                for ((i, _), found) in typed.into_iter().zip(found) {
                    let (file, line, column) = positions[i].clone();
                    answers[i] = Some(match found {
                        Some((node, ty, erased)) => {
                            Ok(Answer { file, line, column, node: format!("Prism::{node}"), ty, erased })
                        }
                        None => Err(Problem::NoExpression),
                    });
                }
            }
            Err(unavailable) => {
                for (i, _) in typed {
                    answers[i] = Some(Err(Problem::Unavailable(unavailable.describe(file))));
                }
            }
        }
    }
    answers.into_iter().map(|answer| answer.expect("every position answered")).collect()
}

/// The node class, type display and erasure at a position.
type Found = (&'static str, String, String);

/// Parses and types `source` once (or takes the project's parse of it,
/// `kept`), then finds each offset's expression.
fn types_at(
    source: &[u8],
    kept: Option<&mut infer::WalkedTree>,
    offsets: &[usize],
    grammar: crate::syntax::RubyVersion,
    env: &crate::rbs::Environment,
    link: Option<crate::infer::ProjectLink>,
    prior: Option<crate::infer::Prior>,
) -> Result<Vec<Option<Found>>, Unavailable> {
    let outcome = stack_guard::guarded(|| {
        infer::on_parse(kept, source, grammar, |parsed, walk| {
            let errors = parsed.errors();
            if !errors.is_empty() {
                return Err(Unavailable::ParseErrors(errors.into_iter().map(|(_, m)| m).collect()));
            }
            let types = infer::types_in_project(parsed, env, link, prior, walk);
            let found = offsets.iter().map(|&offset| {
                innermost_at(parsed, offset).map(|node| {
                    let ty = types.of(&node).cloned().unwrap_or_else(Type::untyped);
                    (class_name(&node), display(&ty), erase(&ty))
                })
            });
            Ok(found.collect())
        })
    });
    match outcome {
        Ok(result) => result,
        Err(stack_guard::Failure::TooDeep) => Err(Unavailable::TooDeep),
        Err(stack_guard::Failure::Panic(message)) => Err(Unavailable::Crashed(message)),
    }
}

/// One position: the answer alone, as before several were allowed.
fn write_single(
    io: &mut Io<'_>,
    format: Format,
    position: &Position,
    answer: &Result<Answer, Problem>,
) -> std::io::Result<i32> {
    let (file, line, column) = position;
    match answer {
        Ok(answer) => {
            match format {
                Format::Json => write_json(io.out, answer)?,
                Format::Text => write_text(io, answer)?,
            }
            Ok(EXIT_OK)
        }
        Err(problem @ Problem::OutOfRange(_)) => usage_error(io, &problem.describe(position)),
        Err(problem) => fail(io, format, (file, *line, *column), &problem.describe(position)),
    }
}

fn write_text(io: &mut Io<'_>, answer: &Answer) -> std::io::Result<()> {
    writeln!(io.out, "{}:{}:{}", answer.file, answer.line, answer.column)?;
    writeln!(io.out, "node: {}", answer.node)?;
    writeln!(io.out, "type: {}", answer.ty)?;
    writeln!(io.out, "erased: {}", answer.erased)
}

fn answer_json((file, line, column): &Position, answer: &Result<Answer, Problem>) -> serde_json::Value {
    match answer {
        Ok(answer) => serde_json::to_value(answer).expect("an answer serializes"),
        Err(problem) => serde_json::json!({
            "file": file, "line": line, "column": column,
            "error": problem.describe(&(file.clone(), *line, *column)),
        }),
    }
}

/// A position that names no expression (exit 1). JSON output says why
/// on stdout too, so a caller reading only stdout (an MCP client) learns it.
fn fail(
    io: &mut Io<'_>,
    format: Format,
    (file, line, column): (&str, usize, usize),
    problem: &str,
) -> std::io::Result<i32> {
    writeln!(io.err, "rigor: {problem}")?;
    if format == Format::Json {
        write_json(io.out, &serde_json::json!({"file": file, "line": line, "column": column, "error": problem}))?;
    }
    Ok(EXIT_FINDINGS)
}

/// The smallest node containing `offset`, skipping lists and clauses; of
/// nodes with the same range, the innermost.
pub(super) fn innermost_at<'pr>(parsed: &'pr ParsedFile<'pr>, offset: usize) -> Option<ruby_prism::Node<'pr>> {
    let mut best: Option<(usize, ruby_prism::Node<'pr>)> = None;
    for node in all_nodes(&parsed.root()) {
        if is_container(&node) {
            continue;
        }
        let location = node.location();
        let (start, end) = (location.start() as usize, location.end() as usize);
        if start > offset || offset >= end {
            continue;
        }
        let width = end - start;
        if best.as_ref().is_none_or(|(w, _)| width <= *w) {
            best = Some((width, node));
        }
    }
    best.map(|(_, node)| node)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn several_positions_and_the_spaced_form() {
        let words = |list: &[&str]| list.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        assert_eq!(parse_positions(&words(&["a.rb", "3", "5"])).unwrap(), [("a.rb".into(), 3, 5)]);
        assert_eq!(
            parse_positions(&words(&["a.rb:1:2", "b.rb:3:4", "a.rb:5:6"])).unwrap(),
            [("a.rb".into(), 1, 2), ("b.rb".into(), 3, 4), ("a.rb".into(), 5, 6)]
        );
        let error = parse_positions(&words(&["a.rb:1:2", "b.rb:0:1"])).unwrap_err();
        assert!(error.contains("b.rb:0:1"), "{error}");
        assert!(parse_positions(&words(&["a.rb", "3"])).is_err());
    }

    #[test]
    fn positions_parse_in_both_spellings() {
        assert_eq!(parse_position(&["a.rb:3:5".into()]).unwrap(), ("a.rb".into(), 3, 5));
        assert_eq!(parse_position(&["c:/x.rb:3:5".into()]).unwrap(), ("c:/x.rb".into(), 3, 5));
        assert_eq!(parse_position(&["a.rb".into(), "3".into(), "5".into()]).unwrap(), ("a.rb".into(), 3, 5));
        assert!(parse_position(&["a.rb:0:5".into()]).is_err());
        assert!(parse_position(&["a.rb:x:5".into()]).is_err());
        assert!(parse_position(&["a.rb".into(), "3".into()]).is_err());
    }

    #[test]
    fn offsets_stay_within_the_file() {
        let source = b"ab\r\ncde\n";
        let lines = LineIndex::new(source);
        assert_eq!(offset_of(source, &lines, 1, 1), Ok(0));
        assert_eq!(offset_of(source, &lines, 1, 3), Ok(2));
        assert!(offset_of(source, &lines, 1, 4).is_err());
        assert_eq!(offset_of(source, &lines, 2, 4), Ok(7));
        assert!(offset_of(source, &lines, 9, 1).is_err());
    }
}
