//! Which files a command looks at: arguments in order, directories expanded
//! to their `.rb` files (sorted per directory, hidden entries skipped).

use rustc_hash::FxHashSet as HashSet;
use std::path::Path;

use globset::GlobSet;
use walkdir::WalkDir;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A file to analyse; `display` is the path as the user will see it,
    /// relative to the working directory when the argument was relative.
    File { display: String },
    /// An argument naming nothing readable.
    Missing { display: String, reason: String },
}

impl Target {
    pub fn display(&self) -> &str {
        match self {
            Target::File { display } | Target::Missing { display, .. } => display,
        }
    }
}

/// Expands arguments; each file appears once, at its first mention.
pub fn expand(arguments: &[String], cwd: &Path, exclude: &GlobSet) -> Vec<Target> {
    let mut seen = HashSet::default();
    let mut targets = Vec::new();
    let mut push = |target: Target| {
        if seen.insert(target.display().to_string()) {
            targets.push(target);
        }
    };
    for argument in arguments {
        let full = cwd.join(argument);
        match std::fs::metadata(&full) {
            Ok(meta) if meta.is_dir() => {
                for file in ruby_files_under(argument, cwd) {
                    if !exclude.is_match(&file) {
                        push(Target::File { display: file });
                    }
                }
            }
            Ok(_) => {
                if !exclude.is_match(argument) {
                    push(Target::File { display: argument.clone() });
                }
            }
            Err(error) => push(Target::Missing { display: argument.clone(), reason: describe_io_error(&error) }),
        }
    }
    targets
}

fn ruby_files_under(directory: &str, cwd: &Path) -> Vec<String> {
    let root = cwd.join(directory);
    WalkDir::new(&root)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|entry| entry.depth() == 0 || !entry.file_name().to_string_lossy().starts_with('.'))
        .filter_map(Result::ok)
        .filter(|entry| {
            entry.file_name().to_string_lossy().ends_with(".rb")
                && (entry.file_type().is_file() || entry.path().is_file())
        })
        .filter_map(|entry| {
            let relative = entry.path().strip_prefix(&root).ok()?;
            let joined = Path::new(directory).join(relative);
            Some(joined.to_string_lossy().into_owned())
        })
        .collect()
}

pub fn describe_io_error(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => error.to_string(),
    }
}

/// The files of the project a command's targets belong to: the config's
/// `paths` (default `lib`), then the targets, each once. Paths of the
/// config that name nothing are left out (only targets are reported).
pub fn project_files(config: &crate::config::Config, targets: &[Target], cwd: &Path) -> Vec<Target> {
    let configured = config.paths.clone().unwrap_or_else(|| vec!["lib".to_string()]);
    // A file named two ways (`lib/a.rb`, `./lib/a.rb`) is one file: the
    // target's spelling wins, since that is how it is reported.
    let mut at: rustc_hash::FxHashMap<std::path::PathBuf, usize> = Default::default();
    let mut out: Vec<Target> = Vec::new();
    let found = expand(&configured, cwd, &config.exclude);
    for (target, is_target) in found.into_iter().map(|t| (t, false)).chain(targets.iter().cloned().map(|t| (t, true))) {
        if !matches!(target, Target::File { .. }) {
            continue;
        }
        let key = lexical_absolute(cwd, target.display());
        match at.get(&key) {
            Some(&i) if is_target => out[i] = target,
            Some(_) => {}
            None => {
                at.insert(key, out.len());
                out.push(target);
            }
        }
    }
    out
}

/// `cwd/path` with `.` and `..` folded, without asking the filesystem.
fn lexical_absolute(cwd: &Path, path: &str) -> std::path::PathBuf {
    let mut out = std::path::PathBuf::new();
    for component in cwd.join(path).components() {
        match component {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn touch(root: &Path, relative: &str) {
        let path = root.join(relative);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, "").unwrap();
    }

    #[test]
    fn directories_expand_sorted_skipping_hidden_and_non_ruby() {
        let dir = tempfile::tempdir().unwrap();
        for f in ["lib/b.rb", "lib/a.rb", "lib/z/c.rb", "lib/.hidden/d.rb", "lib/.e.rb", "lib/notes.txt"] {
            touch(dir.path(), f);
        }
        let targets = expand(&["lib".into()], dir.path(), &GlobSet::empty());
        let shown: Vec<_> = targets.iter().map(Target::display).collect();
        assert_eq!(shown, ["lib/a.rb", "lib/b.rb", "lib/z/c.rb"]);
    }

    #[test]
    fn arguments_keep_their_order_and_missing_paths_are_reported_once() {
        let dir = tempfile::tempdir().unwrap();
        touch(dir.path(), "b.rb");
        touch(dir.path(), "a.rb");
        let args: Vec<String> = ["b.rb", "nope.rb", "a.rb", "b.rb"].iter().map(|s| s.to_string()).collect();
        let targets = expand(&args, dir.path(), &GlobSet::empty());
        assert_eq!(targets.len(), 3);
        assert_eq!(targets[0].display(), "b.rb");
        assert!(matches!(&targets[1], Target::Missing { reason, .. } if reason == "no such file or directory"));
        assert_eq!(targets[2].display(), "a.rb");
    }
}
