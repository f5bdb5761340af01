//! The signatures a command types code against: the rbs gem's core and
//! its default standard libraries, the project's `sig/`, and the
//! configuration's `signature_paths` and `libraries`. Problems are
//! reported once per command.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::config::Config;
use crate::rbs::{self, Signatures};

/// The rbs gem's standard-library signature sets loaded for every project
/// (`data/default_libraries.txt`, which `scripts/rbs-core-gaps` reads too).
pub fn default_libraries() -> impl Iterator<Item = &'static str> {
    const LISTED: &str = include_str!("../data/default_libraries.txt");
    LISTED.lines().map(str::trim).filter(|line| !line.is_empty() && !line.starts_with('#'))
}

/// What every command loads: the core and the default libraries.
pub fn request() -> rbs::Request {
    rbs::Request { default_libraries: default_libraries().map(str::to_string).collect(), ..rbs::Request::default() }
}

pub struct ProjectSignatures {
    pub signatures: Arc<Signatures>,
    /// Everything worth saying once: no rbs gem, broken `.rbs` files,
    /// signature paths that do not exist.
    pub warnings: Vec<String>,
}

pub fn load(config: &Config, cwd: &Path) -> ProjectSignatures {
    let (request, warnings) = request_for(config, cwd);
    let signatures = rbs::load(&request);
    let mut all: Vec<String> = signatures.warnings.iter().map(|w| within(cwd, w)).collect();
    all.extend(warnings);
    ProjectSignatures { signatures, warnings: all }
}

/// [`load`], while `work` runs on another thread: finding and reading a
/// project's files needs no signatures, and a cold run spends some ten
/// milliseconds on each, the signatures mostly on one thread.
pub fn load_beside<T: Send>(config: &Config, cwd: &Path, work: impl FnOnce() -> T + Send) -> (ProjectSignatures, T) {
    std::thread::scope(|scope| {
        let working = scope.spawn(work);
        // Here, not on the new thread: loading keeps the main stack.
        let signatures = load(config, cwd);
        let done = working.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (signatures, done)
    })
}

/// A warning as the project's files are named elsewhere: relative to its
/// root (`sig/a.rbs: RBS syntax error: ...`), where the path is under it.
fn within(cwd: &Path, warning: &str) -> String {
    let root = cwd.as_os_str().to_string_lossy();
    let root = root.trim_end_matches('/');
    match warning.strip_prefix(root).and_then(|rest| rest.strip_prefix('/')) {
        Some(relative) if !root.is_empty() => relative.to_string(),
        _ => warning.to_string(),
    }
}

/// The `.rbs` files [`load`] reads (what `sig-gen` looks type parameters
/// up in).
pub fn files(config: &Config, cwd: &Path) -> Vec<PathBuf> {
    rbs::files(&request_for(config, cwd).0)
}

/// What a configuration asks to load, and what is wrong with it.
fn request_for(config: &Config, cwd: &Path) -> (rbs::Request, Vec<String>) {
    let mut directories = Vec::new();
    let mut warnings = Vec::new();
    let project = cwd.join("sig");
    if project.is_dir() {
        directories.push(project);
    }
    for path in &config.signature_paths {
        if path.is_dir() {
            directories.push(path.clone());
        } else {
            warnings.push(format!("signature_paths: {} is not a directory", path.display()));
        }
    }
    (rbs::Request { directories, libraries: config.libraries.clone(), ..request() }, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warnings_name_files_under_the_root_relative_to_it() {
        let root = Path::new("/work/p");
        assert_eq!(within(root, "/work/p/sig/a.rbs: RBS syntax error: x"), "sig/a.rbs: RBS syntax error: x");
        assert_eq!(within(Path::new("/work/p/"), "/work/p/sig/a.rbs: e"), "sig/a.rbs: e");
        assert_eq!(within(root, "/work/pq/sig/a.rbs: e"), "/work/pq/sig/a.rbs: e");
        assert_eq!(within(root, "libraries: no signatures"), "libraries: no signatures");
    }

    #[test]
    fn loading_beside_work_gives_both_and_raises_the_works_panic() {
        let project = tempfile::tempdir().expect("a scratch directory");
        let config = Config::default();
        let (signatures, answer) = load_beside(&config, project.path(), || 41 + 1);
        assert_eq!(answer, 42);
        // The same set `load` gives (the process keeps one per fingerprint).
        assert!(Arc::ptr_eq(&signatures.signatures, &load(&config, project.path()).signatures));
        let raised = std::panic::catch_unwind(|| load_beside(&config, project.path(), || panic!("the look failed")));
        let Err(payload) = raised else { panic!("the work's panic should reach the caller") };
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"the look failed"));
    }
}
