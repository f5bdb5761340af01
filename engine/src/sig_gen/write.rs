//! `--write` and `--diff`: what the candidates change in `sig/`. New
//! declarations go to `sig/<path>.rbs` (the source path under its source
//! root, `.rb` → `.rbs`), inside the class's block when the file has one.
//! A tighter return replaces the declaration where it was written, and
//! only with `--overwrite`: every existing declaration is someone's.
//! Nothing is written that does not parse.

use std::path::{Component, Path};

use crate::rbs::Environment;

use super::namespace::ClassFacts;
use super::rbs_layout::{self, Decl};
use super::render;
use super::{Candidate, Classification, Kind, SkipReason};

pub struct Settings<'a> {
    pub cwd: &'a Path,
    /// The source root stripped from paths (`lib`: `lib/a/b.rb` → `sig/a/b.rbs`).
    pub source_root: &'a str,
    pub overwrite: bool,
}

/// One file's new contents.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// Relative to the project root (`sig/shop.rbs`).
    pub path: String,
    pub before: Option<String>,
    pub after: String,
    pub added: usize,
    pub replaced: usize,
}

/// A file left alone, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    pub path: String,
    pub reason: String,
}

#[derive(Debug, Default)]
pub struct Plan {
    pub changes: Vec<Change>,
    pub refusals: Vec<Refusal>,
}

/// The edits one file receives.
#[derive(Default)]
struct Edits {
    /// (start, end, text) in the file as it is.
    replacements: Vec<(usize, usize, String)>,
    /// Members for a class, in order of first mention.
    members: Vec<(String, Vec<String>)>,
}

impl Edits {
    fn add_member(&mut self, class: &str, line: String) {
        match self.members.iter_mut().find(|(name, _)| name == class) {
            Some((_, lines)) => lines.push(line),
            None => self.members.push((class.to_string(), vec![line])),
        }
    }
}

/// Works out every file change; candidates that turn out to replace an
/// authored declaration without `--overwrite` become skipped.
pub fn plan(candidates: &mut [Candidate], classes: &ClassFacts, env: &Environment, settings: &Settings<'_>) -> Plan {
    let mut plan = Plan::default();
    let mut sig_files = SigFiles::new(settings.cwd);
    let mut edits: Vec<(String, Edits)> = Vec::new();
    for candidate in candidates.iter_mut().filter(|c| c.classification.emits()) {
        let Some(line) = candidate.rbs.clone() else { continue };
        if candidate.classification == Classification::TighterReturn && declares_itself(env, candidate) {
            match sig_files.find_method(candidate) {
                Some((path, start, end)) if settings.overwrite => {
                    slot(&mut edits, &path).replacements.push((start, end, line));
                }
                _ => {
                    candidate.classification = Classification::Skipped;
                    candidate.skip_reason = Some(SkipReason::UserAuthored);
                }
            }
            continue;
        }
        match target_for(&candidate.file, settings.source_root) {
            Some(path) => slot(&mut edits, &path).add_member(&candidate.class, line),
            None => {
                let reason = format!("{} is outside the project: no sig/ file mirrors it", candidate.file);
                let path = candidate.file.clone();
                if !plan.refusals.iter().any(|r| r.path == path) {
                    plan.refusals.push(Refusal { path, reason });
                }
            }
        }
    }
    for (path, file_edits) in edits {
        match build(&path, file_edits, settings.cwd, classes, env) {
            Ok(Some(change)) => plan.changes.push(change),
            Ok(None) => {}
            Err(reason) => plan.refusals.push(Refusal { path, reason }),
        }
    }
    plan.changes.sort_by(|a, b| a.path.cmp(&b.path));
    plan
}

/// The edits of `path`, added in order of first mention.
fn slot<'e>(edits: &'e mut Vec<(String, Edits)>, path: &str) -> &'e mut Edits {
    let at = match edits.iter().position(|(p, _)| p == path) {
        Some(at) => at,
        None => {
            edits.push((path.to_string(), Edits::default()));
            edits.len() - 1
        }
    };
    &mut edits[at].1
}

/// Is the method declared in its own class's signatures (rather than
/// inherited)? Only then does a tighter return replace something.
fn declares_itself(env: &Environment, candidate: &Candidate) -> bool {
    env.class(&candidate.class).is_some_and(|decl| {
        let table = if candidate.kind == Kind::Singleton { &decl.singleton_methods } else { &decl.instance_methods };
        table.contains_key(&candidate.method)
    })
}

/// `sig/<path under the source root>.rbs`, or `None` for a path that
/// leaves the project.
pub fn target_for(file: &str, source_root: &str) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    for component in Path::new(file).components() {
        match component {
            Component::Normal(part) => parts.push(part.to_string_lossy().into_owned()),
            Component::CurDir => {}
            _ => return None,
        }
    }
    let root: Vec<&str> = source_root.split('/').filter(|s| !s.is_empty() && *s != ".").collect();
    if parts.len() > root.len() && !root.is_empty() && parts.iter().zip(&root).all(|(a, b)| a == b) {
        parts.drain(..root.len());
    }
    let last = parts.last_mut()?;
    *last = format!("{}.rbs", last.strip_suffix(".rb").unwrap_or(last));
    Some(format!("sig/{}", parts.join("/")))
}

/// The new contents of one file, `Ok(None)` when nothing changes, or why
/// it cannot be changed.
fn build(
    path: &str,
    edits: Edits,
    cwd: &Path,
    classes: &ClassFacts,
    env: &Environment,
) -> Result<Option<Change>, String> {
    let before = match std::fs::read(cwd.join(path)) {
        Ok(bytes) => Some(String::from_utf8(bytes).map_err(|_| "the existing file is not UTF-8".to_string())?),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
        Err(error) => return Err(crate::files::describe_io_error(&error)),
    };
    let text = before.clone().unwrap_or_default();
    let decls = rbs_layout::layout(&text).map_err(|e| format!("the existing file does not parse ({e}); left alone"))?;
    let mut splices: Vec<(usize, usize, String)> = edits.replacements.clone();
    let mut appended = Vec::new();
    let mut added = 0;
    for (class, lines) in &edits.members {
        let lines: Vec<String> = match decls.iter().find(|d| d.name == *class) {
            // A member the file already has stays as it is.
            Some(decl) => lines.iter().filter(|line| !declares(decl, line)).cloned().collect(),
            None => lines.clone(),
        };
        if lines.is_empty() {
            continue;
        }
        added += lines.len();
        match decls.iter().find(|d| d.name == *class) {
            Some(decl) => splices.push(insertion(&text, decl, &lines)),
            None => {
                let (wrappers, short) = classes.wrappers(env, class);
                appended.push(render::block(&wrappers, &short, &classes.header(env, class), &lines));
            }
        }
    }
    if added == 0 && edits.replacements.is_empty() {
        return Ok(None);
    }
    splices.sort_by_key(|splice| std::cmp::Reverse(splice.0));
    let mut after = text.clone();
    for (start, end, replacement) in &splices {
        after.replace_range(*start..*end, replacement);
    }
    for block in appended {
        if !after.is_empty() {
            if !after.ends_with('\n') {
                after.push('\n');
            }
            after.push('\n');
        }
        after.push_str(&block);
    }
    if let Err(error) = ruby_rbs::node::parse(&after) {
        return Err(format!("the result would not parse ({error}); left alone — please report this"));
    }
    Ok(Some(Change { path: path.to_string(), before, after, added, replaced: edits.replacements.len() }))
}

/// Does the declaration already have the method this line declares?
fn declares(decl: &Decl, line: &str) -> bool {
    let Some((name, singleton)) = declared_name(line) else { return false };
    decl.methods.iter().any(|m| m.name == name && if singleton { m.singleton } else { m.instance })
}

/// `def self.name: ...` → (`name`, singleton?).
fn declared_name(line: &str) -> Option<(String, bool)> {
    let rest = line.trim_start().trim_start_matches("private ").strip_prefix("def ")?;
    let (rest, singleton) = match rest.strip_prefix("self?.").or_else(|| rest.strip_prefix("self.")) {
        Some(rest) => (rest, true),
        None => (rest, false),
    };
    let name = rest.split(": ").next()?.trim_matches('`');
    Some((name.to_string(), singleton))
}

/// Members spliced in just before the declaration's `end`.
fn insertion(text: &str, decl: &Decl, lines: &[String]) -> (usize, usize, String) {
    let line_start = |at: usize| text[..at].rfind('\n').map_or(0, |i| i + 1);
    let keyword_column = decl.start - line_start(decl.start);
    let indent = " ".repeat(keyword_column + 2);
    let block: String = lines.iter().map(|line| format!("{indent}{line}\n")).collect();
    let end_line = line_start(decl.end_keyword);
    if text[end_line..decl.end_keyword].trim().is_empty() {
        (end_line, end_line, block)
    } else {
        (decl.end_keyword, decl.end_keyword, format!("\n{block}"))
    }
}

/// Writes the planned files.
pub fn apply(plan: &Plan, cwd: &Path) -> std::io::Result<()> {
    for change in &plan.changes {
        let full = cwd.join(&change.path);
        if let Some(parent) = full.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(full, &change.after)?;
    }
    Ok(())
}

/// The project's `sig/` files, read when first needed.
struct SigFiles<'a> {
    cwd: &'a Path,
    layouts: Option<Vec<(String, Vec<Decl>)>>,
}

impl<'a> SigFiles<'a> {
    fn new(cwd: &'a Path) -> Self {
        SigFiles { cwd, layouts: None }
    }

    /// The file and byte range of the candidate's method declaration.
    fn find_method(&mut self, candidate: &Candidate) -> Option<(String, usize, usize)> {
        let cwd = self.cwd;
        let layouts = self.layouts.get_or_insert_with(|| read_layouts(cwd));
        let singleton = candidate.kind == Kind::Singleton;
        layouts.iter().find_map(|(path, decls)| {
            decls.iter().filter(|d| d.name == candidate.class).find_map(|decl| {
                decl.methods
                    .iter()
                    .find(|m| m.name == candidate.method && if singleton { m.singleton } else { m.instance })
                    .and_then(|m| m.range)
                    .map(|(start, end)| (path.clone(), start, end))
            })
        })
    }
}

fn read_layouts(cwd: &Path) -> Vec<(String, Vec<Decl>)> {
    let root = cwd.join("sig");
    crate::rbs::locate::rbs_files(&root)
        .into_iter()
        .filter_map(|file| {
            let text = std::fs::read_to_string(&file).ok()?;
            let decls = rbs_layout::layout(&text).ok()?;
            let relative = file.strip_prefix(cwd).ok()?.to_string_lossy().replace('\\', "/");
            Some((relative, decls))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_mirror_the_source_path_under_its_root() {
        assert_eq!(target_for("lib/shop/cart.rb", "lib").as_deref(), Some("sig/shop/cart.rbs"));
        assert_eq!(target_for("./lib/shop.rb", "lib").as_deref(), Some("sig/shop.rbs"));
        assert_eq!(target_for("app/models/user.rb", "lib").as_deref(), Some("sig/app/models/user.rbs"));
        assert_eq!(target_for("app/models/user.rb", "app/models").as_deref(), Some("sig/user.rbs"));
        assert_eq!(target_for("lib.rb", "lib").as_deref(), Some("sig/lib.rbs"));
        assert_eq!(target_for("../other/x.rb", "lib"), None);
        assert_eq!(target_for("/abs/x.rb", "lib"), None);
    }

    #[test]
    fn members_go_before_the_classes_end() {
        let text = "module A\n  class B\n    def x: () -> Integer\n  end\nend\n";
        let decls = rbs_layout::layout(text).unwrap();
        let (at, _, block) = insertion(text, &decls[1], &["def y: () -> String".into()]);
        let mut after = text.to_string();
        after.insert_str(at, &block);
        assert_eq!(after, "module A\n  class B\n    def x: () -> Integer\n    def y: () -> String\n  end\nend\n");
        let inline = "class C end\n";
        let decls = rbs_layout::layout(inline).unwrap();
        let (at, _, block) = insertion(inline, &decls[0], &["def y: () -> String".into()]);
        let mut after = inline.to_string();
        after.insert_str(at, &block);
        assert!(ruby_rbs::node::parse(&after).is_ok(), "{after}");
    }

    #[test]
    fn declared_names_read_back_from_lines() {
        assert_eq!(declared_name("def self.make: () -> A"), Some(("make".into(), true)));
        assert_eq!(declared_name("private def `class`: () -> A"), Some(("class".into(), false)));
        assert_eq!(declared_name("def []=: (untyped, untyped) -> A"), Some(("[]=".into(), false)));
    }
}
