//! The project's source files as last read: each file's bytes, content
//! hash and stat. A call re-reads a file only when its stat changed, or
//! when the stat cannot be trusted: a write within the filesystem clock's
//! granularity of the last look can leave size and mtime as they were
//! (mypy #12697), and tools may restore an mtime. Such a file is hashed
//! again on every look until its mtime is safely in the past.

use std::ffi::OsStr;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use rustc_hash::FxHashMap as HashMap;

/// How recent an mtime must be, relative to the look that recorded it, for
/// the stat alone to be untrustworthy. Two seconds covers the coarsest
/// common clocks (FAT's 2 s, ext3's 1 s, NFS attribute caching aside).
const RACY_WINDOW: Duration = Duration::from_secs(2);

/// What the filesystem says of a file without reading it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stat {
    pub size: u64,
    pub mtime_ns: i128,
    /// Changes on every write and cannot be set back by tools, unlike mtime.
    pub ctime_ns: i128,
    pub inode: u64,
    pub device: u64,
}

impl Stat {
    /// The file's stat, if it can be read.
    pub fn at(path: &Path) -> Option<Stat> {
        std::fs::metadata(path).ok().map(|meta| Stat::of(&meta))
    }

    /// Can this stat, the same as one recorded when the file's content was
    /// read at `read_at_ns`, stand for that content? Not when the file was
    /// written within the clock's granularity of that read.
    pub fn trusted_since(&self, read_at_ns: i128) -> bool {
        self.newest_ns() + (RACY_WINDOW.as_nanos() as i128) < read_at_ns
    }

    fn of(meta: &std::fs::Metadata) -> Stat {
        Stat {
            size: meta.size(),
            mtime_ns: i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec()),
            ctime_ns: i128::from(meta.ctime()) * 1_000_000_000 + i128::from(meta.ctime_nsec()),
            inode: meta.ino(),
            device: meta.dev(),
        }
    }

    fn newest_ns(&self) -> i128 {
        self.mtime_ns.max(self.ctime_ns)
    }
}

/// A file's identity: its content hash (128-bit xxh3).
pub type ContentHash = u128;

#[derive(Clone)]
pub struct Source {
    pub bytes: Arc<[u8]>,
    pub hash: ContentHash,
}

struct Entry {
    stat: Stat,
    source: Source,
    /// When the stat was taken, to judge whether it can be trusted.
    looked_at_ns: i128,
}

/// What one look at a file did, for the cache figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Look {
    /// Stat unchanged and trustworthy: nothing read.
    Unchanged,
    /// Read and hashed again; the content is the same.
    Rehashed,
    /// Read; new or different content.
    Changed,
}

#[derive(Default)]
pub struct SourceStore {
    /// Keyed by the path's bytes: hashing a `Path` walks its components,
    /// and this map is looked up for every project file on every call.
    /// Callers spell a file the same way each time (`cwd.join(display)`).
    files: HashMap<Arc<OsStr>, Entry>,
}

impl SourceStore {
    /// Each file's current content, reading a file only when needed; read
    /// and hashed in parallel (a cold call reads the whole project).
    pub fn look_all(&mut self, paths: &[std::path::PathBuf]) -> Vec<Result<(Source, Look), std::io::Error>> {
        use rayon::prelude::*;
        let store = &*self;
        let peeked: Vec<_> = crate::analysis::on_analysis_thread(|| paths.par_iter().map(|p| store.peek(p)).collect());
        paths
            .iter()
            .zip(peeked)
            .map(|(path, peeked)| {
                let (source, look, entry) = peeked?;
                if let Some(entry) = entry {
                    self.files.insert(Arc::from(path.as_os_str()), entry);
                }
                Ok((source, look))
            })
            .collect()
    }

    /// What a look at the file finds, and the entry to record for it when
    /// it had to be read.
    fn peek(&self, path: &Path) -> Result<(Source, Look, Option<Entry>), std::io::Error> {
        let meta = std::fs::metadata(path)?;
        let stat = Stat::of(&meta);
        let now = now_ns();
        let known = self.files.get(path.as_os_str());
        if let Some(entry) = known {
            let trusted = entry.stat == stat && stat.trusted_since(entry.looked_at_ns);
            if trusted {
                return Ok((entry.source.clone(), Look::Unchanged, None));
            }
        }
        let bytes: Arc<[u8]> = std::fs::read(path)?.into();
        let hash = xxhash_rust::xxh3::xxh3_128(&bytes);
        let source = Source { bytes, hash };
        let look = match known {
            Some(entry) if entry.source.hash == hash => Look::Rehashed,
            _ => Look::Changed,
        };
        Ok((source.clone(), look, Some(Entry { stat, source, looked_at_ns: now })))
    }

    /// Forgets files not in `keep` (deleted, or no longer in the project).
    pub fn retain(&mut self, keep: impl Fn(&Path) -> bool) {
        self.files.retain(|path, _| keep(Path::new(path)));
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

pub fn now_ns() -> i128 {
    SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map(|d| d.as_nanos() as i128).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    impl SourceStore {
        fn look(&mut self, path: &Path) -> Result<(Source, Look), std::io::Error> {
            self.look_all(&[path.to_path_buf()]).pop().expect("one look")
        }
    }

    #[test]
    fn a_same_size_rewrite_within_the_clock_tick_is_seen() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("a.rb");
        std::fs::write(&path, "x = 1\n").expect("write");
        let mut store = SourceStore::default();
        let (first, look) = store.look(&path).expect("look");
        assert_eq!(look, Look::Changed);
        // Same size, and the mtime set back to what it was: only the
        // content (and ctime) tell.
        let mtime = std::fs::metadata(&path).expect("meta").modified().expect("mtime");
        std::fs::write(&path, "x = 2\n").expect("write");
        std::fs::File::options().write(true).open(&path).expect("open").set_modified(mtime).expect("set mtime");
        let (second, look) = store.look(&path).expect("look");
        assert_eq!(look, Look::Changed);
        assert_ne!(first.hash, second.hash);
        assert_eq!(&*second.bytes, b"x = 2\n");
    }

    #[test]
    fn an_old_unchanged_file_is_not_read_again() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("a.rb");
        std::fs::write(&path, "x = 1\n").expect("write");
        let old = SystemTime::now() - Duration::from_secs(60);
        std::fs::File::options().write(true).open(&path).expect("open").set_modified(old).expect("set mtime");
        let mut store = SourceStore::default();
        store.look(&path).expect("look");
        // ctime is recent (the set_modified above), so the first looks
        // rehash; once it is old enough the stat is trusted.
        let (_, look) = store.look(&path).expect("look");
        assert!(matches!(look, Look::Rehashed | Look::Unchanged));
        let entry = store.files.get_mut(path.as_os_str()).expect("entry");
        entry.looked_at_ns += 10 * 1_000_000_000;
        let (_, look) = store.look(&path).expect("look");
        assert_eq!(look, Look::Unchanged);
    }
}
