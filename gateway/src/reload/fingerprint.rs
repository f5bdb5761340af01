//! A fingerprint of files: path, size, modification time and inode of
//! each file under the watched paths. Cheap enough to take before every
//! call (a stat per file), so a late or lost file event never means a
//! stale answer.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use walkdir::WalkDir;

/// Directories never worth watching: build output and VCS metadata.
const SKIPPED_DIRECTORIES: &[&str] = &["target", ".git", "node_modules", "__pycache__"];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fingerprint {
    hash: u64,
    pub files: usize,
}

impl Fingerprint {
    pub fn of(paths: &[PathBuf]) -> Fingerprint {
        let mut hasher = DefaultHasher::new();
        let mut files = 0;
        for root in paths {
            root.hash(&mut hasher);
            // A file on its own needs one stat, not a directory walk: this
            // runs before every call.
            match std::fs::metadata(root) {
                Ok(meta) if meta.is_file() => {
                    files += 1;
                    root.hash(&mut hasher);
                    hash_metadata(&meta, &mut hasher);
                    continue;
                }
                _ => {}
            }
            let walker = WalkDir::new(root).sort_by_file_name().into_iter().filter_entry(|entry| {
                entry.depth() == 0
                    || !(entry.file_type().is_dir()
                        && SKIPPED_DIRECTORIES.contains(&entry.file_name().to_string_lossy().as_ref()))
            });
            for entry in walker.filter_map(Result::ok) {
                if entry.file_type().is_dir() {
                    continue;
                }
                files += 1;
                describe(entry.path(), &mut hasher);
            }
        }
        Fingerprint { hash: hasher.finish(), files }
    }

    /// A short form for logs and `_meta`.
    pub fn short(&self) -> String {
        format!("{:012x}", self.hash & 0xffff_ffff_ffff)
    }
}

fn describe(path: &Path, hasher: &mut DefaultHasher) {
    path.hash(hasher);
    match std::fs::metadata(path) {
        Ok(meta) => hash_metadata(&meta, hasher),
        // Deleted between listing and stat: that is a change too.
        Err(_) => 0u8.hash(hasher),
    }
}

fn hash_metadata(meta: &std::fs::Metadata, hasher: &mut DefaultHasher) {
    (meta.len(), meta.mtime(), meta.mtime_nsec(), meta.ino()).hash(hasher);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_additions_removals_and_renames_change_it_and_target_does_not() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("src");
        std::fs::create_dir_all(src.join("target")).unwrap();
        std::fs::write(src.join("a.rs"), "one").unwrap();
        let paths = vec![src.clone()];
        let first = Fingerprint::of(&paths);
        assert_eq!(first, Fingerprint::of(&paths), "stable when nothing changes");
        assert_eq!(first.files, 1);

        std::fs::write(src.join("target/ignored.o"), "x").unwrap();
        assert_eq!(first, Fingerprint::of(&paths), "build output is not watched");

        std::fs::write(src.join("a.rs"), "two").unwrap();
        let edited = Fingerprint::of(&paths);
        assert_ne!(first, edited);

        std::fs::write(src.join("b.rs"), "").unwrap();
        let added = Fingerprint::of(&paths);
        assert_ne!(edited, added);

        std::fs::rename(src.join("b.rs"), src.join("c.rs")).unwrap();
        assert_ne!(added, Fingerprint::of(&paths));

        let single = vec![src.join("a.rs")];
        assert_eq!(Fingerprint::of(&single).files, 1, "a file can be watched on its own");
    }
}
