//! Signature files as parsed, kept in the user's cache directory by their
//! content. The rbs gem's core and standard library are some 4 MB of RBS,
//! mostly documentation comments, and the RBS lexer reads them a character
//! at a time: parsing them was a tenth of a cold `check`'s instructions on
//! rubocop, and most of a small project's run.
//!
//! `<user cache>/signatures/v<format>-<engine build>/<content hash>.bin`
//! holds one file's declarations: a header (`cache_files::frame`: magic,
//! format, build, content hash, payload length and checksum) and a
//! postcard payload. An entry
//! is found by the xxh3-128 of the file's bytes, so an edited file never
//! meets an old entry, and another build never reads this one's. A
//! missing, truncated or corrupt entry is parsed again and written over;
//! a directory that cannot be written is simply not used. Files the
//! parser refuses are not kept (their warning comes from parsing).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::convert::FileDecls;
use crate::cache_files::{build_id, frame, prune_other_builds, unframe, user_cache_dir, write_atomically};

/// Bumped when the entry layout changes (2: the shared `cache_files::frame`).
const FORMAT: u32 = 2;
const MAGIC: &[u8; 8] = b"RIGORSG\x01";

/// This build's directory, made (and other builds' unused ones pruned)
/// once per process; `None` when there is no usable cache directory.
fn directory() -> Option<&'static Path> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| {
        let root = user_cache_dir()?.join("signatures");
        let ours = root.join(format!("v{FORMAT}-{}", build_id()));
        std::fs::create_dir_all(&ours).ok()?;
        // In use: not another build's week-old directory to prune.
        let _ = std::fs::File::open(&ours).and_then(|dir| dir.set_modified(std::time::SystemTime::now()));
        prune_other_builds(&root, &ours);
        Some(ours)
    })
    .as_deref()
}

fn entry_path(dir: &Path, content: u128) -> PathBuf {
    dir.join(format!("{content:032x}.bin"))
}

/// The declarations of a file whose bytes hash to `content`, if kept.
pub fn load(content: u128) -> Option<FileDecls> {
    let bytes = std::fs::read(entry_path(directory()?, content)).ok()?;
    decode(&bytes, content)
}

/// Keeps a file's declarations for the next process.
pub fn store(content: u128, decls: &FileDecls) {
    let Some(dir) = directory() else { return };
    if let Ok(payload) = postcard::to_stdvec(decls) {
        let _ = write_atomically(&entry_path(dir, content), &encode(content, &payload));
    }
}

fn encode(content: u128, payload: &[u8]) -> Vec<u8> {
    frame(MAGIC, FORMAT, &[content], payload)
}

/// The declarations in an entry, when every header field is this
/// build's, it was filed under `content` and the payload is whole.
fn decode(bytes: &[u8], content: u128) -> Option<FileDecls> {
    let ([filed], payload) = unframe(bytes, MAGIC, FORMAT).ok()?;
    (filed == content).then(|| postcard::from_bytes(payload).ok()).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "class Greeter[T] < Object\n  include Comparable\n  @name: String\n  def greet: (?Integer, *String, key: bool) { (T) -> void } -> (String | nil)\n  def self.make: () -> instance\nend\nFOO: Integer\ntype pair = [Integer, :a]\n";

    #[test]
    fn an_entry_gives_back_exactly_what_was_parsed() {
        let decls = super::super::convert::convert_file(TEXT).unwrap();
        let payload = postcard::to_stdvec(&decls).unwrap();
        let entry = encode(7, &payload);
        assert_eq!(decode(&entry, 7), Some(decls));
    }

    #[test]
    fn a_damaged_or_foreign_entry_is_no_entry() {
        let decls = super::super::convert::convert_file(TEXT).unwrap();
        let entry = encode(7, &postcard::to_stdvec(&decls).unwrap());
        assert!(decode(&entry, 8).is_none(), "another file's content");
        assert!(decode(&entry[..entry.len() - 1], 7).is_none(), "truncated");
        let mut flipped = entry.clone();
        let last = flipped.len() - 3;
        flipped[last] ^= 0x40;
        assert!(decode(&flipped, 7).is_none(), "a payload byte changed");
        let mut other_build = entry.clone();
        other_build[16] ^= 0x01;
        assert!(decode(&other_build, 7).is_none(), "another build");
        assert!(decode(b"garbage", 7).is_none());
    }
}
