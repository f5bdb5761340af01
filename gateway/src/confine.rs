//! Keeps file arguments inside the project root: no absolute paths
//! elsewhere, no `..` escapes, no symbolic links that lead out.

use std::path::{Component, Path, PathBuf};

/// Checks that `value`, a path argument, names something inside `root`
/// (which must be canonical). Paths that do not exist yet are judged by
/// their nearest existing ancestor.
pub fn check(root: &Path, value: &str) -> Result<(), String> {
    let outside = || format!("{value:?} is outside the project root {}", root.display());
    let candidate = root.join(value);
    let normalized = normalize(&candidate).ok_or_else(outside)?;
    if !normalized.starts_with(root) {
        return Err(outside());
    }
    let resolved = resolve_existing_prefix(&normalized);
    if !resolved.starts_with(root) {
        return Err(format!(
            "{value:?} leads outside the project root {} through a symbolic link (to {})",
            root.display(),
            resolved.display()
        ));
    }
    Ok(())
}

/// Resolves `.` and `..` lexically; `None` if `..` climbs above `/`.
fn normalize(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::Prefix(_) | Component::RootDir => out.push(component.as_os_str()),
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() || out.as_os_str().is_empty() {
                    return None;
                }
            }
            Component::Normal(part) => out.push(part),
        }
    }
    Some(out)
}

/// Canonicalizes the longest existing ancestor and appends the rest, so a
/// symlink anywhere along an existing prefix is followed.
fn resolve_existing_prefix(path: &Path) -> PathBuf {
    let mut existing = path.to_path_buf();
    let mut rest = Vec::new();
    loop {
        if let Ok(canonical) = std::fs::canonicalize(&existing) {
            let mut resolved = canonical;
            for part in rest.iter().rev() {
                resolved.push(part);
            }
            return resolved;
        }
        match (existing.file_name().map(|n| n.to_os_string()), existing.parent()) {
            (Some(name), Some(parent)) => {
                rest.push(name);
                existing = parent.to_path_buf();
            }
            _ => return path.to_path_buf(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_of_inside_and_outside_paths() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap().join("project");
        std::fs::create_dir_all(root.join("lib")).unwrap();
        std::fs::write(root.join("lib/a.rb"), "").unwrap();
        let outside = root.parent().unwrap().join("secret");
        std::fs::create_dir_all(&outside).unwrap();
        std::os::unix::fs::symlink(&outside, root.join("lib/escape")).unwrap();
        std::os::unix::fs::symlink(root.join("lib"), root.join("inner-link")).unwrap();

        let inside = ["lib", "lib/a.rb", ".", "lib/../lib/a.rb", "not/yet/there.rb", "inner-link/a.rb"];
        for value in inside {
            assert_eq!(check(&root, value), Ok(()), "{value}");
        }
        let absolute_inside = root.join("lib/a.rb");
        assert_eq!(check(&root, absolute_inside.to_str().unwrap()), Ok(()));

        let escapes = [
            "..",
            "../secret",
            "lib/../../secret",
            "/etc/passwd",
            "/",
            "lib/escape",
            "lib/escape/x.rb",
            "../../../../../../etc",
        ];
        for value in escapes {
            assert!(check(&root, value).is_err(), "{value} must be refused");
        }
        assert!(check(&root, "lib/escape").unwrap_err().contains("symbolic link"));
    }
}
