//! Which files a command looks at: arguments in order, directories expanded
//! to their `.rb` files (sorted per directory, hidden entries skipped).

use rustc_hash::FxHashSet as HashSet;
use std::path::Path;

use globset::GlobSet;

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
                for (file, nameable) in ruby_files_under(argument, cwd) {
                    if exclude.is_match(&file) {
                        continue;
                    }
                    push(match nameable {
                        true => Target::File { display: file },
                        // Every command names files by UTF-8 text, and the
                        // lossy spelling opens nothing: say so, not "no
                        // such file".
                        false => Target::Missing { display: file, reason: NOT_UTF8.to_string() },
                    });
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

/// Why a file whose path is not UTF-8 is not analysed.
pub const NOT_UTF8: &str = "its path is not valid UTF-8 (shown with U+FFFD); rename it to analyse it";

/// The `.rb` files under `directory` (each with whether its path is
/// valid UTF-8, and so can be named), depth first, each directory's
/// entries in byte order of their names, hidden entries skipped. Symlinks
/// to files count; symlinked directories are not entered. Unreadable
/// directories are skipped. (Hand-written rather than `walkdir`: this runs
/// for every project file on every call, and `walkdir` takes each name
/// apart from its path again to sort it.)
fn ruby_files_under(directory: &str, cwd: &Path) -> Vec<(String, bool)> {
    let prefix = match directory {
        "" => String::new(),
        _ if directory.ends_with('/') => directory.to_string(),
        _ => format!("{directory}/"),
    };
    let mut found = Vec::new();
    collect_ruby_files(&cwd.join(directory), &prefix, true, &mut found);
    found
}

fn collect_ruby_files(directory: &Path, shown: &str, nameable: bool, found: &mut Vec<(String, bool)>) {
    use std::os::unix::ffi::OsStrExt;
    let Ok(listing) = std::fs::read_dir(directory) else { return };
    let mut entries: Vec<(std::ffi::OsString, std::fs::FileType)> = listing
        .filter_map(Result::ok)
        .filter(|entry| !entry.file_name().as_bytes().starts_with(b"."))
        .filter_map(|entry| Some((entry.file_name(), entry.file_type().ok()?)))
        .collect();
    entries.sort_unstable_by(|(a, _), (b, _)| a.as_bytes().cmp(b.as_bytes()));
    for (name, kind) in entries {
        let text = crate::syntax::decoded(name.as_bytes());
        let nameable = nameable && name.to_str().is_some();
        if kind.is_dir() {
            collect_ruby_files(&directory.join(&name), &format!("{shown}{text}/"), nameable, found);
        } else if name.as_bytes().ends_with(b".rb") && (kind.is_file() || directory.join(&name).is_file()) {
            found.push((format!("{shown}{text}"), nameable));
        }
    }
}

pub fn describe_io_error(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => error.to_string(),
    }
}

/// The files of the project a command's targets belong to: the config's
/// `paths` (default `lib`) and `context_paths`, then the targets, each
/// once. Paths of the config that name nothing are left out (only targets
/// are reported).
pub fn project_files(config: &crate::config::Config, targets: &[Target], cwd: &Path) -> Vec<Target> {
    let configured = config.paths.clone().unwrap_or_else(|| vec!["lib".to_string()]);
    // A file named two ways (`lib/a.rb`, `./lib/a.rb`) is one file: the
    // target's spelling wins, since that is how it is reported.
    let mut at: rustc_hash::FxHashMap<std::ffi::OsString, usize> = Default::default();
    let mut out: Vec<Target> = Vec::new();
    // The context's files are the model's too, after the project's own.
    let mut found = expand(&configured, cwd, &config.exclude);
    found.extend(expand(&config.context_paths, cwd, &config.exclude));
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

/// `cwd/path` with `.` and `..` folded, without asking the filesystem:
/// the same as folding `Path::components`, on bytes.
fn lexical_absolute(cwd: &Path, path: &str) -> std::ffi::OsString {
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    let base: &[u8] = if path.starts_with('/') { b"" } else { cwd.as_os_str().as_bytes() };
    let mut kept: Vec<&[u8]> = Vec::new();
    for segment in base.split(|b| *b == b'/').chain(path.as_bytes().split(|b| *b == b'/')) {
        match segment {
            b"" | b"." => {}
            b".." => {
                kept.pop();
            }
            name => kept.push(name),
        }
    }
    let mut out = Vec::with_capacity(base.len() + path.len() + 1);
    for name in kept {
        out.push(b'/');
        out.extend_from_slice(name);
    }
    if out.is_empty() {
        out.push(b'/');
    }
    std::ffi::OsString::from_vec(out)
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
    fn a_directory_keeps_its_spelling_in_what_it_expands_to() {
        let dir = tempfile::tempdir().unwrap();
        touch(dir.path(), "lib/x/a.rb");
        for (argument, expected) in
            [("lib", "lib/x/a.rb"), ("lib/", "lib/x/a.rb"), ("./lib", "./lib/x/a.rb"), (".", "./lib/x/a.rb")]
        {
            let targets = expand(&[argument.into()], dir.path(), &GlobSet::empty());
            let shown: Vec<_> = targets.iter().map(Target::display).collect();
            assert_eq!(shown, [expected], "{argument}");
        }
    }

    #[test]
    fn folding_on_bytes_agrees_with_folding_components() {
        fn by_components(cwd: &Path, path: &str) -> std::path::PathBuf {
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
        let cwd = Path::new("/home/me/project");
        for path in [
            "lib/a.rb",
            "./lib/a.rb",
            "lib//a.rb",
            "lib/./x/../a.rb",
            "../other/b.rb",
            "../../../../../c.rb",
            "/abs/./d.rb",
            "/",
            ".",
            "",
        ] {
            assert_eq!(lexical_absolute(cwd, path), by_components(cwd, path).into_os_string(), "{path}");
        }
    }

    #[test]
    fn a_file_whose_name_is_not_utf8_is_reported_as_such_not_as_missing() {
        use std::os::unix::ffi::OsStrExt;
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("lib")).unwrap();
        touch(&dir.path().join("lib"), "a.rb");
        std::fs::write(dir.path().join("lib").join(std::ffi::OsStr::from_bytes(b"caf\xe9.rb")), "x = 1\n").unwrap();
        let bad_dir = dir.path().join("lib").join(std::ffi::OsStr::from_bytes(b"d\xff"));
        std::fs::create_dir_all(&bad_dir).unwrap();
        touch(&bad_dir, "b.rb");
        let targets = expand(&["lib".to_string()], dir.path(), &GlobSet::empty());
        assert_eq!(targets[0], Target::File { display: "lib/a.rb".to_string() });
        assert_eq!(targets.len(), 3, "{targets:?}");
        for target in &targets[1..] {
            assert!(matches!(target, Target::Missing { reason, .. } if reason == NOT_UTF8), "{target:?}");
        }
        assert_eq!(targets[1].display(), "lib/caf\u{fffd}.rb");
        assert_eq!(targets[2].display(), "lib/d\u{fffd}/b.rb");
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
