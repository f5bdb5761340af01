//! What the engine's on-disk caches share: the build that wrote an entry,
//! an entry's header, writes no reader can see half done, the user's cache
//! directory, and pruning the directories of builds nobody uses any more.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The engine build an entry was written by: its sources and its locked
/// dependencies (the parsers among them).
pub fn build_id() -> &'static str {
    concat!(env!("RIGOR_SOURCE_FINGERPRINT"), "-", env!("RIGOR_LOCK_FINGERPRINT"))
}

/// `$XDG_CACHE_HOME/rigor`, else `~/.cache/rigor`: where caches the user
/// did not ask for by name live (`None` without a usable home).
pub fn user_cache_dir() -> Option<PathBuf> {
    let absolute = |value: std::ffi::OsString| Some(PathBuf::from(value)).filter(|p| p.is_absolute());
    let base = std::env::var_os("XDG_CACHE_HOME")
        .and_then(absolute)
        .or_else(|| std::env::var_os("HOME").and_then(absolute).map(|home| home.join(".cache")))?;
    Some(base.join("rigor"))
}

/// Writes to a temporary file in the same directory, renamed over `path`:
/// a reader sees the old entry or the new one, never half of one.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let unique = COUNTER.fetch_add(1, Ordering::Relaxed);
    let temporary = path.with_file_name(format!(".{name}.{}.{unique}.tmp", std::process::id()));
    let written = (|| {
        let mut file = std::fs::File::create(&temporary)?;
        file.write_all(bytes)?;
        std::fs::rename(&temporary, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

/// Each engine build writes a directory of its own (`v<format>-<build>`);
/// another build's that nobody wrote to for a week is removed, and so is
/// any past the [`OTHER_BUILDS_KEPT`] used most recently: rebuilds do not
/// pile up (a Rigor developer's hot-reload loop makes a build per edit).
pub fn prune_other_builds(root_dir: &Path, ours: &Path) {
    const UNUSED: std::time::Duration = std::time::Duration::from_secs(7 * 24 * 3600);
    let Ok(listing) = std::fs::read_dir(root_dir) else { return };
    let mut others: Vec<(std::time::SystemTime, PathBuf)> = Vec::new();
    for item in listing.flatten() {
        let path = item.path();
        let name = item.file_name().to_string_lossy().into_owned();
        let ours_or_foreign = path == ours || !name.starts_with('v') || !name.contains('-');
        if ours_or_foreign || !item.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let modified = item.metadata().and_then(|m| m.modified()).unwrap_or(std::time::UNIX_EPOCH);
        others.push((modified, path));
    }
    // Most recently used first (by name where equal, the same in every process).
    others.sort_by(|a, b| b.cmp(a));
    for (at, (modified, path)) in others.iter().enumerate() {
        let unused = modified.elapsed().is_ok_and(|age| age > UNUSED);
        if unused || at >= OTHER_BUILDS_KEPT {
            let _ = std::fs::remove_dir_all(path);
        }
    }
}

/// Other builds' directories kept beside this build's, however recent.
pub const OTHER_BUILDS_KEPT: usize = 8;

/// An entry: `magic`, `format`, the build id (its length in two bytes),
/// the `keys` it is filed under, the payload's length and xxh3 checksum,
/// then the payload.
pub fn frame(magic: &[u8; 8], format: u32, keys: &[u128], payload: &[u8]) -> Vec<u8> {
    let build = build_id().as_bytes();
    let mut bytes = Vec::with_capacity(payload.len() + 32 + build.len() + 16 * keys.len());
    bytes.extend_from_slice(magic);
    bytes.extend_from_slice(&format.to_le_bytes());
    bytes.extend_from_slice(&(build.len() as u16).to_le_bytes());
    bytes.extend_from_slice(build);
    for key in keys {
        bytes.extend_from_slice(&key.to_le_bytes());
    }
    bytes.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&xxhash_rust::xxh3::xxh3_64(payload).to_le_bytes());
    bytes.extend_from_slice(payload);
    bytes
}

/// The `K` keys and the payload of an entry [`frame`] wrote, when its
/// magic, format and build are these and the payload is whole; else why not.
pub fn unframe<'a, const K: usize>(
    bytes: &'a [u8],
    magic: &[u8; 8],
    format: u32,
) -> Result<([u128; K], &'a [u8]), String> {
    let mut reader = Reader(bytes);
    if reader.take(magic.len())? != magic {
        return Err("not a rigor cache entry".into());
    }
    let written = u32::from_le_bytes(reader.array()?);
    if written != format {
        return Err(format!("written in cache format {written}, not {format}"));
    }
    let build_len = u16::from_le_bytes(reader.array()?) as usize;
    let build = reader.take(build_len)?;
    if build != build_id().as_bytes() {
        return Err(format!("written by another engine build ({})", crate::syntax::decoded(build)));
    }
    let mut keys = [0u128; K];
    for key in &mut keys {
        *key = u128::from_le_bytes(reader.array()?);
    }
    let length = u64::from_le_bytes(reader.array()?);
    let checksum = u64::from_le_bytes(reader.array()?);
    let payload = reader.0;
    if payload.len() as u64 != length {
        return Err(format!("truncated ({} of {length} payload bytes)", payload.len()));
    }
    if xxhash_rust::xxh3::xxh3_64(payload) != checksum {
        return Err("checksum mismatch".into());
    }
    Ok((keys, payload))
}

/// The whole length of the entry [`frame`] wrote at the start of `bytes`
/// with `keys` keys, read from its header alone: `None` when the header
/// is not whole or not one. The payload may still be cut short.
pub fn framed_len(bytes: &[u8], magic: &[u8; 8], keys: usize) -> Option<usize> {
    let mut reader = Reader(bytes);
    if reader.take(magic.len()).ok()? != magic {
        return None;
    }
    reader.take(4).ok()?;
    let build_len = u16::from_le_bytes(reader.array().ok()?) as usize;
    reader.take(build_len + 16 * keys).ok()?;
    let length = usize::try_from(u64::from_le_bytes(reader.array().ok()?)).ok()?;
    reader.take(8).ok()?;
    (bytes.len() - reader.0.len()).checked_add(length)
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        if self.0.len() < n {
            return Err("truncated header".into());
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], String> {
        Ok(self.take(N)?.try_into().expect("N bytes"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, SystemTime};

    #[test]
    fn other_builds_past_the_most_recently_used_few_and_week_old_ones_are_pruned() {
        let dir = tempfile::tempdir().expect("scratch");
        let root = dir.path();
        let now = SystemTime::now();
        let make = |name: &str, age: u64| {
            let path = root.join(name);
            std::fs::create_dir(&path).expect("mkdir");
            std::fs::write(path.join("entry.bin"), b"x").expect("write");
            let opened = std::fs::File::open(&path).expect("open");
            opened.set_modified(now - Duration::from_secs(age)).expect("touch");
            path
        };
        // This build's own, however old, and what is no build's, stay.
        let ours = make("v2-ours", 30 * 24 * 3600);
        let foreign = make("notes", 30 * 24 * 3600);
        std::fs::write(root.join("v2-a-file"), b"").expect("write");
        let week_old = make("v2-old", 8 * 24 * 3600);
        let recent: Vec<PathBuf> = (0..12).map(|at| make(&format!("v2-b{at:02}"), 60 * (at + 1))).collect();
        prune_other_builds(root, &ours);
        assert!(ours.is_dir() && foreign.is_dir() && root.join("v2-a-file").is_file());
        assert!(!week_old.exists(), "unused for a week");
        for (at, path) in recent.iter().enumerate() {
            assert_eq!(path.is_dir(), at < OTHER_BUILDS_KEPT, "{} (newest first)", path.display());
        }
    }
}
