//! `rigor type-of FILE:LINE:COL` (or `FILE LINE COL`): the inferred type of
//! the innermost expression at a position.

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
    /// FILE:LINE:COL, or FILE LINE COL (1-based; columns count bytes)
    #[arg(required = true, num_args = 1..=3, value_name = "POSITION")]
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

fn parse_position(words: &[String]) -> Result<(String, usize, usize), String> {
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
    let (file, line, column) = match parse_position(&args.position) {
        Ok(position) => position,
        Err(problem) => return usage_error(io, &problem),
    };
    let config = match config::load(&io.cwd, args.config.as_deref()) {
        Ok(config) => config,
        Err(error) => return usage_error(io, &format!("bad configuration: {error}")),
    };
    let source = match std::fs::read(io.cwd.join(&file)) {
        Ok(source) => source,
        Err(error) => {
            let problem = format!("cannot read {file}: {}", crate::files::describe_io_error(&error));
            return fail(io, args.format, (&file, line, column), &problem);
        }
    };
    let lines = LineIndex::new(&source);
    let offset = match offset_of(&source, &lines, line, column) {
        Ok(offset) => offset,
        Err(problem) => return usage_error(io, &format!("{file}:{line}:{column}: {problem}")),
    };
    let signatures = crate::signatures::load(&config, &io.cwd);
    for warning in &signatures.warnings {
        writeln!(io.err, "rigor: warning: {warning}")?;
    }
    let env = &signatures.signatures.env;
    let mut config = config;
    config.settings.signatures = Some(signatures.signatures.clone());
    let project =
        crate::workspace::project_of(&config, &[crate::files::Target::File { display: file.clone() }], &io.cwd);
    let grammar = config.settings.target_ruby;
    let found = crate::analysis::on_analysis_thread(|| {
        let outcome = stack_guard::guarded(|| {
            let parsed = ParsedFile::parse_as(&source, grammar);
            let errors = parsed.errors();
            if !errors.is_empty() {
                return Err(Unavailable::ParseErrors(errors.into_iter().map(|(_, m)| m).collect()));
            }
            let Some(node) = innermost_at(&parsed, offset) else { return Ok(None) };
            let types = infer::infer_in_project(&parsed, env, project.link(&file)).types;
            let ty = types.of(&node).cloned().unwrap_or_else(Type::untyped);
            Ok(Some((class_name(&node), display(&ty), erase(&ty))))
        });
        match outcome {
            Ok(result) => result,
            Err(stack_guard::Failure::TooDeep) => Err(Unavailable::TooDeep),
            Err(stack_guard::Failure::Panic(message)) => Err(Unavailable::Crashed(message)),
        }
    });
    let (node, ty, erased) = match found {
        Ok(Some(found)) => found,
        Ok(None) => {
            let problem = format!("no expression at {file}:{line}:{column}");
            return fail(io, args.format, (&file, line, column), &problem);
        }
        Err(unavailable) => return fail(io, args.format, (&file, line, column), &unavailable.describe(&file)),
    };
    let answer = Answer { file, line, column, node: format!("Prism::{node}"), ty, erased };
    match args.format {
        Format::Json => write_json(io.out, &answer)?,
        Format::Text => {
            writeln!(io.out, "{}:{}:{}", answer.file, answer.line, answer.column)?;
            writeln!(io.out, "node: {}", answer.node)?;
            writeln!(io.out, "type: {}", answer.ty)?;
            writeln!(io.out, "erased: {}", answer.erased)?;
        }
    }
    Ok(EXIT_OK)
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
