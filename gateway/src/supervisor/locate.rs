//! Finding the engine executable: `--engine`, else `rigor` beside this
//! executable, else `rigor` on PATH. Failures say everything that was tried.

use std::path::{Path, PathBuf};

pub const ENGINE_NAME: &str = "rigor";

pub fn locate(explicit: Option<&Path>) -> Result<PathBuf, String> {
    if let Some(path) = explicit {
        return locate_explicit(path);
    }
    let mut tried = Vec::new();
    if let Some(dir) = std::env::current_exe().ok().and_then(|exe| exe.parent().map(Path::to_path_buf)) {
        let beside = dir.join(ENGINE_NAME);
        if beside.is_file() {
            return Ok(beside);
        }
        tried.push(format!("{} (not found)", beside.display()));
    }
    match which::which(ENGINE_NAME) {
        Ok(path) => Ok(path),
        Err(_) => {
            tried.push(format!("`{ENGINE_NAME}` on PATH (not found)"));
            Err(format!(
                "no engine executable found; tried {}. Build it with `cargo build -p rigor-engine`, or pass --engine PATH",
                tried.join(" and ")
            ))
        }
    }
}

fn locate_explicit(path: &Path) -> Result<PathBuf, String> {
    let is_bare_name = path.components().count() == 1 && !path.to_string_lossy().contains('/');
    if is_bare_name {
        return which::which(path).map_err(|_| format!("--engine {}: not found on PATH", path.display()));
    }
    if !path.exists() {
        return Err(format!("--engine {}: no such file", path.display()));
    }
    if !path.is_file() {
        return Err(format!("--engine {}: not a file", path.display()));
    }
    // The worker runs in the root directory; a relative path must not be
    // resolved against that.
    std::fs::canonicalize(path).map_err(|e| format!("--engine {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_paths_are_checked_and_made_absolute() {
        let dir = tempfile::tempdir().unwrap();
        let engine = dir.path().join("engine");
        std::fs::write(&engine, "").unwrap();
        assert_eq!(locate(Some(&engine)).unwrap(), std::fs::canonicalize(&engine).unwrap());
        let missing = locate(Some(&dir.path().join("nope"))).unwrap_err();
        assert!(missing.contains("no such file"), "{missing}");
        let directory = locate(Some(dir.path())).unwrap_err();
        assert!(directory.contains("not a file"), "{directory}");
        let bare = locate(Some(Path::new("surely-no-such-engine-xyz"))).unwrap_err();
        assert!(bare.contains("not found on PATH"), "{bare}");
    }
}
