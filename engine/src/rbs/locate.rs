//! Where signatures come from: the core signatures of the installed `rbs`
//! gem, the project's `sig/`, and the configuration's `signature_paths`.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The environment variable naming the rbs gem (or its `core` directory).
pub const RBS_PATH_VARIABLE: &str = "RIGOR_RBS_PATH";

/// The rbs gem's directory that holds `core/` (and `stdlib/`), or why none
/// was found.
pub fn rbs_gem() -> Result<PathBuf, String> {
    if let Some(value) = std::env::var_os(RBS_PATH_VARIABLE).filter(|v| !v.is_empty()) {
        let path = PathBuf::from(&value);
        return gem_root(&path).ok_or_else(|| {
            format!(
                "{RBS_PATH_VARIABLE}={} holds no RBS core signatures (expected a `core/` directory of .rbs files)",
                path.display()
            )
        });
    }
    if let Some(root) = rbs_gem_of_ruby_on_path() {
        return Ok(root);
    }
    if let Some(root) = debian_rbs_gem() {
        return Ok(root);
    }
    Err(format!(
        "no rbs gem found (set {RBS_PATH_VARIABLE}, put a `ruby` with the rbs gem on PATH, or install Debian's `ruby` package); core library types are unknown"
    ))
}

/// Accepts the gem directory itself or its `core/` directory.
fn gem_root(path: &Path) -> Option<PathBuf> {
    if has_rbs_files(&path.join("core")) {
        return Some(path.to_path_buf());
    }
    if path.file_name().is_some_and(|n| n == "core") && has_rbs_files(path) {
        return path.parent().map(Path::to_path_buf);
    }
    None
}

fn has_rbs_files(dir: &Path) -> bool {
    std::fs::read_dir(dir)
        .map(|entries| entries.filter_map(Result::ok).any(|e| e.path().extension().is_some_and(|x| x == "rbs")))
        .unwrap_or(false)
}

/// Asks the `ruby` on PATH where its rbs gem is; once per process, and
/// across processes while nothing the answer depends on changes (see
/// `ruby_answer`), since starting Ruby costs tens of milliseconds.
fn rbs_gem_of_ruby_on_path() -> Option<PathBuf> {
    static ANSWER: OnceLock<Option<PathBuf>> = OnceLock::new();
    ANSWER
        .get_or_init(|| {
            let ruby = which::which("ruby").ok()?;
            gem_root(&super::ruby_answer::rbs_gem_dir(&ruby)?)
        })
        .clone()
}

/// Debian's `ruby` package: /usr/lib/ruby/gems/<version>/gems/rbs-<version>.
fn debian_rbs_gem() -> Option<PathBuf> {
    let mut candidates = Vec::new();
    for ruby in std::fs::read_dir("/usr/lib/ruby/gems").ok()?.filter_map(Result::ok) {
        let Ok(gems) = std::fs::read_dir(ruby.path().join("gems")) else { continue };
        for gem in gems.filter_map(Result::ok) {
            if gem.file_name().to_string_lossy().starts_with("rbs-") {
                candidates.push(gem.path());
            }
        }
    }
    // The newest version wins: compare numerically, segment by segment.
    candidates.sort_by_key(|path| version_key(path));
    candidates.into_iter().rev().find_map(|path| gem_root(&path))
}

fn version_key(path: &Path) -> Vec<u64> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    name.trim_start_matches("rbs-").split(['.', '-']).map(|s| s.parse().unwrap_or(0)).collect()
}

/// Every `.rbs` file under `dir`, sorted, so load order is stable.
pub fn rbs_files(dir: &Path) -> Vec<PathBuf> {
    rbs_files_listing(dir, &mut Vec::new())
}

/// [`rbs_files`], noting every directory it listed in `listed`.
pub fn rbs_files_listing(dir: &Path, listed: &mut Vec<PathBuf>) -> Vec<PathBuf> {
    listed.push(dir.to_path_buf());
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(dir).follow_links(true).max_depth(16).into_iter().filter_map(Result::ok) {
        if entry.file_type().is_dir() {
            if entry.depth() > 0 {
                listed.push(entry.into_path());
            }
        } else if entry.file_type().is_file() && entry.path().extension().is_some_and(|x| x == "rbs") {
            files.push(entry.into_path());
        }
    }
    files.sort();
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gem_directory_or_its_core_directory_is_accepted() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(gem_root(dir.path()), None);
        std::fs::create_dir(dir.path().join("core")).unwrap();
        std::fs::write(dir.path().join("core/object.rbs"), "class Object\nend\n").unwrap();
        assert_eq!(gem_root(dir.path()).as_deref(), Some(dir.path()));
        assert_eq!(gem_root(&dir.path().join("core")).as_deref(), Some(dir.path()));
    }

    #[test]
    fn versions_sort_numerically() {
        assert!(version_key(Path::new("rbs-2.10.0")) > version_key(Path::new("rbs-2.9.1")));
    }
}
