//! `rigor annotate FILE`: the file reprinted with an aligned `#=> type`
//! on each line that ends a statement (reference section 1).

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use super::type_of::Unavailable;
use super::{usage_error, write_json, Format, Io, EXIT_FINDINGS, EXIT_OK};
use crate::config;
use crate::infer::{self, FileTypes};
use crate::source::LineIndex;
use crate::stack_guard;
use crate::syntax::node_kind::is_container;
use crate::syntax::walk::all_nodes;
use crate::syntax::ParsedFile;
use crate::types::{display, Type};

#[derive(clap::Args)]
pub struct Args {
    /// Output format: the annotated file, or `{"annotations": {line: type}}`
    #[arg(long, value_enum, default_value_t)]
    format: Format,
    /// Dim the annotations with ANSI colour
    #[arg(long, overrides_with = "no_color")]
    color: bool,
    /// Plain text (the default)
    #[arg(long)]
    no_color: bool,
    /// Configuration file (default: .rigor.yml, else .rigor.dist.yml)
    #[arg(long, value_name = "PATH")]
    config: Option<String>,
    #[command(flatten)]
    cache: super::CacheArgs,
    /// The Ruby file to annotate
    file: String,
}

pub fn run(args: Args, io: &mut Io<'_>) -> std::io::Result<i32> {
    let config = match config::load(&io.cwd, args.config.as_deref()) {
        Ok(config) => config,
        Err(error) => return usage_error(io, &format!("bad configuration: {error}")),
    };
    let source = match std::fs::read(io.cwd.join(&args.file)) {
        Ok(source) => source,
        Err(error) => {
            writeln!(io.err, "rigor: cannot read {}: {}", args.file, crate::files::describe_io_error(&error))?;
            return Ok(EXIT_FINDINGS);
        }
    };
    let signatures = crate::signatures::load(&config, &io.cwd);
    for warning in &signatures.warnings {
        writeln!(io.err, "rigor: warning: {warning}")?;
    }
    let env = &signatures.signatures.env;
    let mut config = config;
    args.cache.apply(&mut config, &io.cwd);
    config.settings.signatures = Some(signatures.signatures.clone());
    let target = crate::files::Target::File { display: args.file.clone() };
    let project = crate::workspace::project_of(&config, &[target], &io.cwd);
    let grammar = config.settings.target_ruby;
    let (link, prior) = project.inference_inputs(&args.file, &source);
    let mut kept = project.take_parse(&args.file, &source);
    let annotations = crate::analysis::on_analysis_thread(|| {
        let outcome = stack_guard::guarded(|| {
            infer::on_parse(kept.as_mut(), &source, grammar, |parsed, walk| {
                let errors = parsed.errors();
                if !errors.is_empty() {
                    return Err(Unavailable::ParseErrors(errors.into_iter().map(|(_, m)| m).collect()));
                }
                let types = infer::types_in_project(parsed, env, link, prior, walk);
                Ok(line_types(parsed, &types))
            })
        });
        match outcome {
            Ok(result) => result,
            Err(stack_guard::Failure::TooDeep) => Err(Unavailable::TooDeep),
            Err(stack_guard::Failure::Panic(message)) => Err(Unavailable::Crashed(message)),
        }
    });
    let annotations = match annotations {
        Ok(annotations) => annotations,
        Err(unavailable) => {
            writeln!(io.err, "rigor: {}", unavailable.describe(&args.file))?;
            return Ok(EXIT_FINDINGS);
        }
    };
    match args.format {
        Format::Json => {
            let mut lines = Map::new();
            for (line, ty) in &annotations {
                lines.insert(line.to_string(), Value::String(ty.clone()));
            }
            write_json(io.out, &json!({ "annotations": lines }))?;
        }
        Format::Text => {
            let text = crate::syntax::decoded(&source);
            io.out.write_all(annotate(&text, &annotations, args.color && !args.no_color).as_bytes())?;
        }
    }
    Ok(EXIT_OK)
}

/// The type shown for each 1-based line.
pub fn line_types(parsed: &ParsedFile<'_>, types: &FileTypes) -> BTreeMap<usize, String> {
    let untyped = Type::untyped();
    let type_of = |node: &ruby_prism::Node<'_>| display(types.of(node).unwrap_or(&untyped));
    let end_line = |lines: &LineIndex, node: &ruby_prism::Node<'_>| {
        let location = node.location();
        lines.position((location.end() as usize).saturating_sub(1).max(location.start() as usize)).0
    };
    let nodes = all_nodes(&parsed.root());
    // A statement ending on a line wins; of those, the outermost and the
    // last sibling (sorted so they come last).
    let mut statements: Vec<ruby_prism::Node<'_>> = Vec::new();
    for node in &nodes {
        if let Some(list) = node.as_statements_node() {
            statements.extend(list.body().iter());
        }
    }
    statements.sort_by_key(|s| (s.location().end(), std::cmp::Reverse(s.location().start())));
    let mut by_line = BTreeMap::new();
    for statement in &statements {
        by_line.insert(end_line(parsed.lines(), statement), type_of(statement));
    }
    // Lines no statement ends (an `if` or block header) show the widest
    // expression ending there.
    let mut widest: BTreeMap<usize, (u32, &ruby_prism::Node<'_>)> = BTreeMap::new();
    for node in &nodes {
        if is_container(node) || !crate::syntax::node_kind::is_expression(node) {
            continue;
        }
        let line = end_line(parsed.lines(), node);
        let width = node.location().end() - node.location().start();
        if widest.get(&line).is_none_or(|(best, _)| width > *best) {
            widest.insert(line, (width, node));
        }
    }
    for (line, (_, node)) in widest {
        by_line.entry(line).or_insert_with(|| type_of(node));
    }
    // A `def` line shows what the method returns, unless the `def` is
    // inside a statement that starts on that line before it (`x =
    // Class.new { def initialize ... end }.new`: the line is `x`'s), other
    // than a call that takes the `def` itself (`private def x`).
    let takes_def = |statement: &ruby_prism::Node<'_>, def: &ruby_prism::Node<'_>| {
        statement.as_call_node().and_then(|call| call.arguments()).is_some_and(|arguments| {
            arguments.arguments().iter().any(|argument| argument.location().start() == def.location().start())
        })
    };
    for node in &nodes {
        if node.as_def_node().is_some() {
            let start = node.location().start() as usize;
            let line = parsed.lines().position(start).0;
            let inside = statements.iter().any(|statement| {
                let (from, to) = (statement.location().start() as usize, statement.location().end() as usize);
                from < start
                    && to >= node.location().end() as usize
                    && parsed.lines().position(from).0 == line
                    && !takes_def(statement, node)
            });
            if inside {
                continue;
            }
            match types.def_return(start) {
                Some(returns) => {
                    by_line.insert(line, display(returns));
                }
                None => {
                    by_line.remove(&line);
                }
            }
        }
    }
    by_line
}

/// Strips an earlier `#=>` annotation (one preceded by whitespace).
fn strip_annotation(line: &str) -> &str {
    let line = line.trim_end_matches(['\n', '\r']);
    match line.find("#=>") {
        Some(at) if at > 0 && line.as_bytes()[at - 1].is_ascii_whitespace() => line[..at].trim_end(),
        _ => line,
    }
}

fn annotate(source: &str, annotations: &BTreeMap<usize, String>, color: bool) -> String {
    let lines: Vec<&str> = source.split_inclusive('\n').collect();
    let width = lines
        .iter()
        .enumerate()
        .filter(|(i, _)| annotations.contains_key(&(i + 1)))
        .map(|(_, line)| strip_annotation(line).chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::with_capacity(source.len() * 2);
    for (i, line) in lines.iter().enumerate() {
        let ending = &line[line.trim_end_matches(['\n', '\r']).len()..];
        let code = strip_annotation(line);
        out.push_str(code);
        if let Some(ty) = annotations.get(&(i + 1)) {
            out.push_str(&" ".repeat(width - code.chars().count()));
            if color {
                out.push_str(&format!("  \u{1b}[2m#=> {ty}\u{1b}[0m"));
            } else {
                out.push_str("  #=> ");
                out.push_str(ty);
            }
        }
        out.push_str(ending);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotations_align_and_replace_old_ones() {
        let mut annotations = BTreeMap::new();
        annotations.insert(1, "1".to_string());
        annotations.insert(3, "\"long\"".to_string());
        let text = annotate("x = 1  #=> old\n# note\nlonger = \"long\"\n", &annotations, false);
        assert_eq!(text, "x = 1            #=> 1\n# note\nlonger = \"long\"  #=> \"long\"\n");
    }

    #[test]
    fn statements_defs_and_headers_pick_their_lines() {
        let source = "def greet(n)\n  \"hi\"\nend\nx = [1, 2].map do |v|\n  v.to_s\nend\n";
        let parsed = ParsedFile::parse(source.as_bytes());
        let env = crate::rbs::Environment::default();
        let types = infer::infer_file(&parsed, &env);
        let lines = line_types(&parsed, &types);
        assert_eq!(lines.get(&1).map(String::as_str), Some("\"hi\""));
        assert_eq!(lines.get(&2).map(String::as_str), Some("\"hi\""));
        assert_eq!(lines.get(&3).map(String::as_str), Some(":greet"));
        assert!(lines.contains_key(&4), "a block header shows its widest expression");
        assert!(lines.contains_key(&6));
    }
}
