//! The persistent cache (`--cache-dir DIR`, `cache_dir:`): each project
//! file's derived values written to disk, so that a fresh process (after
//! a crash, a restart, a reboot) starts warm.
//!
//! `DIR/v<format>-<engine build>/<hash of the root>.pack` holds a project
//! root's entries, one after another: a call appends the entries it
//! derived anew, and the last entry of a path is the one that counts. One
//! file, not one per entry: creating hundreds of small files costs about
//! a millisecond each on a virtual machine's ext4 (most of a cold run),
//! writing the same bytes to one file a few milliseconds in all.
//!
//! An entry is a header (magic, format, build, context, content hash,
//! payload length and checksum) and a postcard payload: the file's facts,
//! and its exports and report with the project facts each read. Loaded,
//! an entry is exactly what the workspace would hold had this process
//! derived it, and is reused under the same rules (content hash, then
//! every dependency's fingerprint against the current index), so a stale
//! entry costs a re-derivation, never a wrong answer.
//!
//! The context (root, settings, the engine build and a hash of the
//! signatures' bytes) is in the header: an entry written under another is
//! stale, not foreign. A damaged stretch (cut short, corrupt, another
//! format or build) is skipped to the next entry with one warning per
//! process, and the pack is written again without it; an unwritable
//! directory warns once and the run goes on without it.
//!
//! Appends hold an exclusive `flock` on the pack and readers a shared
//! one, so no reader sees half an entry. The pack is rewritten whole (to
//! a temporary file, renamed over it) when superseded entries outgrow the
//! live ones, when it held damage, or when files it has entries for are
//! gone; an append racing a rewrite is lost, which costs a later miss.
//! Once per process, other builds' directories unused for a week go, and
//! so do any past the eight used most recently.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::deps::DepTable;
use super::{Cached, FileFacts, FileState, Workspace};
use crate::analysis::{self, FileReport};
use crate::cache_files::{build_id, frame, framed_len, prune_other_builds, unframe, write_atomically};
use crate::diagnostic::{Diagnostic, EvidenceTier, Severity};
use crate::model::index::Dep;
use crate::model::index::FileExports;
use crate::model::sources::{ContentHash, Source};

/// Bumped whenever the entry layout changes (the build id also changes
/// with every source change; this guards a layout change alone).
const FORMAT: u32 = 2;
const MAGIC: &[u8; 8] = b"RIGORC\x00\x01";

/// A workspace's cache directory for one context.
pub(super) struct DiskCache {
    /// `DIR/v<format>-<build>`.
    dir: PathBuf,
    /// `dir/<hash of the root>.pack`: this root's entries.
    pack: PathBuf,
    /// The root, the settings and the signatures, hashed.
    context: u128,
    root: String,
    /// Cleared after a write fails: the run goes on without persisting.
    writable: AtomicBool,
    /// Whether this process did its once-only tidying (see `sweep`).
    swept: AtomicBool,
    /// Entries in the pack as far as this process knows (read or
    /// appended): when superseded ones outgrow the live, it is rewritten.
    records: AtomicUsize,
    /// The pack held a damaged stretch, or entries of files now gone.
    rewrite: AtomicBool,
    /// The paths the pack held entries for when last read.
    on_disk: Mutex<Vec<String>>,
}

/// An entry as `scan` found it: its bytes (a rewrite copies them whole)
/// and its checked header's parts.
struct Found<'b> {
    bytes: &'b [u8],
    context: u128,
    content: ContentHash,
    payload: &'b [u8],
}

/// One file's derived values as read from disk.
pub(super) struct Loaded {
    pub facts: FileFacts,
    pub exports: Option<Cached<Arc<FileExports>, Dep>>,
    pub report: Option<Cached<Arc<FileReport>, Dep>>,
}

/// An entry's payload: generic so one layout serves writing (borrowed)
/// and reading (owned).
#[derive(Serialize, Deserialize)]
struct Entry<F, E, R> {
    root: String,
    path: String,
    facts: F,
    exports: Option<E>,
    report: Option<R>,
}

/// (The facts read are stored as themselves: a workspace's numbers for
/// them are its own.)
type EntryIn = Entry<FileFacts, Cached<Arc<FileExports>, Dep>, Cached<StoredReport, Dep>>;

/// A report as stored: `Diagnostic` holds `&'static` rule ids, found
/// again in the catalogue on reading.
#[derive(Serialize, Deserialize)]
struct StoredReport {
    diagnostics: Vec<StoredDiagnostic>,
    parse_errors: u64,
}

#[derive(Serialize, Deserialize)]
struct StoredDiagnostic {
    line: u64,
    column: u64,
    severity: u8,
    rule: Option<String>,
    source_family: String,
    message: String,
    receiver_type: Option<String>,
    method_name: Option<String>,
    evidence_tier: Option<u8>,
    documentation_url: Option<String>,
}

impl DiskCache {
    /// The cache under `root_dir` for this context, its directory made;
    /// `None` (after one warning) when it cannot be.
    pub fn open(root_dir: &Path, cwd: &Path, settings: &str, signatures: u128) -> Option<DiskCache> {
        let dir = root_dir.join(format!("v{FORMAT}-{}", build_id()));
        if let Err(error) = std::fs::create_dir_all(&dir) {
            warn_unwritable(&dir, &error);
            return None;
        }
        let root = cwd.to_string_lossy().into_owned();
        let mut hasher = xxhash_rust::xxh3::Xxh3::new();
        for part in [root.as_bytes(), settings.as_bytes(), build_id().as_bytes()] {
            hasher.update(&(part.len() as u64).to_le_bytes());
            hasher.update(part);
        }
        hasher.update(&signatures.to_le_bytes());
        let pack = dir.join(format!("{:032x}.pack", xxhash_rust::xxh3::xxh3_128(root.as_bytes())));
        Some(DiskCache {
            dir,
            pack,
            context: hasher.digest128(),
            root,
            writable: AtomicBool::new(true),
            swept: AtomicBool::new(false),
            records: AtomicUsize::new(0),
            rewrite: AtomicBool::new(false),
            on_disk: Mutex::new(Vec::new()),
        })
    }

    pub fn same(&self, other: &DiskCache) -> bool {
        self.dir == other.dir && self.context == other.context
    }

    /// Entries for the files of `wanted` (path and current content);
    /// files without a valid, current entry are left out.
    pub fn load_all(&self, wanted: &[(&str, ContentHash)]) -> Vec<(String, Loaded)> {
        let Some(bytes) = self.read_pack() else { return Vec::new() };
        let (latest, records) = self.scan(&bytes);
        self.records.store(records, Ordering::Relaxed);
        *self.on_disk.lock().expect("on-disk paths") = latest.keys().cloned().collect();
        wanted
            .par_iter()
            .filter_map(|(display, hash)| {
                let found = latest.get(*display)?;
                match self.decode(found, display, *hash) {
                    Ok(found) => found.map(|loaded| (display.to_string(), loaded)),
                    Err(problem) => {
                        warn_unreadable(&format!("{}: the entry of {display}: {problem}", self.pack.display()));
                        None
                    }
                }
            })
            .collect()
    }

    /// The pack's bytes, read under a shared lock; `None` when there is no
    /// pack (or, after a warning, it cannot be read).
    fn read_pack(&self) -> Option<Vec<u8>> {
        let mut file = match std::fs::File::open(&self.pack) {
            Ok(file) => file,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return None,
            Err(error) => {
                warn_unreadable(&format!("{}: {error}", self.pack.display()));
                return None;
            }
        };
        lock(&file, libc::LOCK_SH);
        let mut bytes = Vec::new();
        match file.read_to_end(&mut bytes) {
            Ok(_) => Some(bytes),
            Err(error) => {
                warn_unreadable(&format!("{}: {error}", self.pack.display()));
                None
            }
        }
    }

    /// The last entry of each of this root's paths in `bytes`, and how
    /// many entries there are. Each header and checksum is checked here,
    /// once. A damaged stretch is skipped to the next entry's magic, with
    /// one warning, and the pack marked for rewriting.
    fn scan<'b>(&self, bytes: &'b [u8]) -> (rustc_hash::FxHashMap<String, Found<'b>>, usize) {
        let mut latest = rustc_hash::FxHashMap::default();
        let mut records = 0;
        let mut at = 0;
        while at < bytes.len() {
            let rest = &bytes[at..];
            let checked = match framed_len(rest, MAGIC, 2).filter(|len| *len <= rest.len()) {
                Some(len) => unwrap_entry(&rest[..len]).map(|(context, content, payload)| Found {
                    bytes: &rest[..len],
                    context,
                    content,
                    payload,
                }),
                None => Err("cut short".to_string()),
            };
            let found = match checked {
                Ok(found) => found,
                Err(problem) => {
                    warn_unreadable(&format!("{}: the entry at byte {at}: {problem}", self.pack.display()));
                    self.rewrite.store(true, Ordering::Relaxed);
                    at += next_magic(&rest[1..]).map_or(rest.len(), |skip| skip + 1);
                    continue;
                }
            };
            records += 1;
            at += found.bytes.len();
            if let Ok(((root, path), _)) = postcard::take_from_bytes::<(String, String)>(found.payload) {
                if root == self.root {
                    latest.insert(path, found);
                }
            }
        }
        (latest, records)
    }

    /// `Ok(None)`: a sound entry, but for other content or another context.
    fn decode(&self, found: &Found<'_>, display: &str, hash: ContentHash) -> Result<Option<Loaded>, String> {
        if found.context != self.context || found.content != hash {
            return Ok(None);
        }
        // (`scan` filed it under its own root and path.)
        let entry: EntryIn = postcard::from_bytes(found.payload).map_err(|e| format!("undecodable ({e})"))?;
        let report = match entry.report {
            Some(cached) => Some(Cached {
                hash: cached.hash,
                deps: cached.deps,
                value: Arc::new(cached.value.into_report(display)?),
                validated: 0,
                settled: true,
            }),
            None => None,
        };
        Ok(Some(Loaded { facts: entry.facts, exports: entry.exports, report }))
    }

    /// After a call's writes: once per process, removes other builds'
    /// directories unused for a week and temporary files a crashed writer
    /// left; and rewrites the pack when it must (see the module's notes).
    /// `known` are the files the workspace holds.
    pub fn sweep<'a>(&self, known: impl ExactSizeIterator<Item = &'a str>) {
        let superseded = self.records.load(Ordering::Relaxed) > 2 * known.len() + 64;
        let first = !self.swept.swap(true, Ordering::Relaxed);
        if !(first || superseded || self.rewrite.load(Ordering::Relaxed)) {
            return;
        }
        let known: rustc_hash::FxHashSet<&str> = known.collect();
        if first {
            if let Some(root_dir) = self.dir.parent() {
                prune_other_builds(root_dir, &self.dir);
            }
            self.remove_stale_temporaries();
            let on_disk = std::mem::take(&mut *self.on_disk.lock().expect("on-disk paths"));
            let gone = |path: &String| !known.contains(path.as_str()) && !Path::new(&self.root).join(path).is_file();
            if on_disk.iter().any(gone) {
                self.rewrite.store(true, Ordering::Relaxed);
            }
        }
        if (superseded || self.rewrite.swap(false, Ordering::Relaxed)) && self.writable.load(Ordering::Relaxed) {
            if let Err(error) = self.rewrite_pack(&known) {
                self.writable.store(false, Ordering::Relaxed);
                warn_unwritable(&self.dir, &error);
            }
        }
    }

    fn remove_stale_temporaries(&self) {
        let Ok(listing) = std::fs::read_dir(&self.dir) else { return };
        for item in listing.flatten() {
            let name = item.file_name().to_string_lossy().into_owned();
            let old = item.metadata().and_then(|m| m.modified()).ok().and_then(|t| t.elapsed().ok());
            if name.starts_with('.') && name.ends_with(".tmp") && old.is_some_and(|age| age.as_secs() > 600) {
                let _ = std::fs::remove_file(item.path());
            }
        }
    }

    /// The pack again with only the last sound entry of each path that is
    /// known or still exists. The old pack stays locked while it is read
    /// and replaced, so no append lands in the stretch being copied.
    fn rewrite_pack(&self, known: &rustc_hash::FxHashSet<&str>) -> std::io::Result<()> {
        let mut file = match std::fs::File::open(&self.pack) {
            Ok(file) => file,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(error) => return Err(error),
        };
        lock(&file, libc::LOCK_EX);
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)?;
        let (latest, _) = self.scan(&bytes);
        let mut kept: Vec<(&String, &[u8])> = latest
            .iter()
            .filter(|(path, _)| known.contains(path.as_str()) || Path::new(&self.root).join(path).is_file())
            .map(|(path, found)| (path, found.bytes))
            .collect();
        kept.sort_unstable_by_key(|(path, _)| *path);
        let mut out = Vec::with_capacity(kept.iter().map(|(_, record)| record.len()).sum());
        for (_, record) in &kept {
            out.extend_from_slice(record);
        }
        write_atomically(&self.pack, &out)?;
        self.records.store(kept.len(), Ordering::Relaxed);
        // A stretch this scan found damaged is gone with the old pack.
        self.rewrite.store(false, Ordering::Relaxed);
        Ok(())
    }

    /// Appends the entries of `states` to the pack, in one write under an
    /// exclusive lock; they are encoded in parallel.
    pub fn store_all(&self, states: &[(&str, &FileState)], table: &DepTable) {
        if !self.writable.load(Ordering::Relaxed) {
            return;
        }
        let encoded: Vec<std::io::Result<Vec<u8>>> =
            states.par_iter().map(|(display, state)| self.encode(display, state, table)).collect();
        let appended = encoded.into_iter().collect::<std::io::Result<Vec<Vec<u8>>>>().and_then(|entries| {
            let mut file = std::fs::OpenOptions::new().append(true).create(true).open(&self.pack)?;
            lock(&file, libc::LOCK_EX);
            file.write_all(&entries.concat())
        });
        match appended {
            Ok(()) => {
                self.records.fetch_add(states.len(), Ordering::Relaxed);
            }
            Err(error) => {
                self.writable.store(false, Ordering::Relaxed);
                warn_unwritable(&self.dir, &error);
            }
        }
    }

    fn encode(&self, display: &str, state: &FileState, table: &DepTable) -> std::io::Result<Vec<u8>> {
        // (A value whose reads are not all listed is not kept.)
        let current = |hash: ContentHash, settled: bool| hash == state.hash && settled;
        let report = state.report.as_ref().filter(|c| current(c.hash, c.settled)).map(|cached| Cached {
            hash: cached.hash,
            deps: table.named(&cached.deps),
            value: StoredReport::of(&cached.value),
            validated: 0,
            settled: true,
        });
        let exports = state.exports.as_ref().filter(|c| current(c.hash, c.settled)).map(|cached| Cached {
            hash: cached.hash,
            deps: table.named(&cached.deps),
            value: &*cached.value,
            validated: 0,
            settled: true,
        });
        let entry = Entry { root: self.root.clone(), path: display.to_string(), facts: &*state.facts, exports, report };
        let payload = postcard::to_stdvec(&entry).map_err(std::io::Error::other)?;
        Ok(frame(MAGIC, FORMAT, &[self.context, state.hash], &payload))
    }

    /// Files that no longer exist: their entries go when the pack is
    /// next rewritten, which this asks for.
    pub fn forget(&self, displays: &[String]) {
        if !displays.is_empty() {
            self.rewrite.store(true, Ordering::Relaxed);
        }
    }
}

/// Takes an advisory lock on `file` (`LOCK_SH` or `LOCK_EX`), released
/// when it closes. A filesystem without locks goes on unlocked: entries
/// are checksummed, so a torn one is skipped, never believed.
fn lock(file: &std::fs::File, how: libc::c_int) {
    use std::os::fd::AsRawFd;
    // SAFETY: flock only reads the descriptor, which `file` keeps open.
    let _ = unsafe { libc::flock(file.as_raw_fd(), how) };
}

/// Where the next entry's magic starts in `bytes`.
fn next_magic(bytes: &[u8]) -> Option<usize> {
    memchr::memmem::find(bytes, MAGIC)
}

/// The workspace's hooks: which directory, loading what it lacks, and
/// writing what it derived.
impl Workspace {
    /// Persists to `dir` from now on (`None`: not at all).
    pub fn use_cache_dir(&mut self, dir: Option<&Path>) {
        if self.cache_dir.as_deref() != dir {
            self.cache_dir = dir.map(Path::to_path_buf);
            self.disk = None;
        }
    }

    /// Opens the cache for the current context (after `self.context` is set).
    pub(super) fn open_disk(&mut self, cwd: &Path, signatures: u128) {
        let Some(dir) = &self.cache_dir else { return };
        let settings = self.context.as_ref().map_or("", |c| c.settings.as_str());
        let Some(opened) = DiskCache::open(dir, cwd, settings, signatures) else {
            self.disk = None;
            return;
        };
        if !self.disk.as_ref().is_some_and(|disk| disk.same(&opened)) {
            self.disk = Some(opened);
            // A cache new to this workspace gets everything it holds.
            for state in self.files.values_mut() {
                state.dirty = true;
            }
        }
    }

    /// Fills in, from disk, files the workspace lacks or holds for other
    /// content; says how many.
    pub(super) fn load_from_disk(&mut self, present: &[(String, Source)]) -> usize {
        let Some(disk) = &self.disk else { return 0 };
        let wanted: Vec<(&str, ContentHash)> = present
            .iter()
            .filter(|(display, source)| self.files.get(display).is_none_or(|state| state.hash != source.hash))
            .map(|(display, source)| (display.as_str(), source.hash))
            .collect();
        if wanted.is_empty() {
            return 0;
        }
        let loaded = analysis::on_analysis_thread(|| disk.load_all(&wanted));
        let count = loaded.len();
        let sources: rustc_hash::FxHashMap<&str, &Source> = present.iter().map(|(d, s)| (d.as_str(), s)).collect();
        for (display, loaded) in loaded {
            let source = sources[display.as_str()].clone();
            let state = FileState {
                hash: source.hash,
                source,
                facts: Arc::new(loaded.facts),
                exports: loaded.exports.map(|cached| cached.numbered(&mut self.deps)),
                report: loaded.report.map(|cached| cached.numbered(&mut self.deps)),
                kept: Default::default(),
                used: self.tick,
                dirty: false,
            };
            self.files.insert(display, state);
        }
        count
    }

    /// Writes what this call derived anew, and forgets vanished files.
    pub fn flush(&mut self) {
        let vanished = std::mem::take(&mut self.vanished);
        if self.disk.is_none() {
            return;
        }
        // Entries are stored with all they read.
        self.settle();
        let Some(disk) = &self.disk else { return };
        disk.forget(&vanished);
        let dirty: Vec<(&str, &FileState)> = self
            .files
            .iter()
            .filter(|(_, state)| state.dirty)
            .map(|(display, state)| (display.as_str(), state))
            .collect();
        if !dirty.is_empty() {
            analysis::on_analysis_thread(|| disk.store_all(&dirty, &self.deps));
        }
        disk.sweep(self.files.keys().map(String::as_str));
        for state in self.files.values_mut() {
            state.dirty = false;
        }
    }
}

/// An entry's header checked (magic, format, build, length, checksum):
/// its context, content hash and payload.
fn unwrap_entry(bytes: &[u8]) -> Result<(u128, ContentHash, &[u8]), String> {
    let ([context, content], payload) = unframe(bytes, MAGIC, FORMAT)?;
    Ok((context, content, payload))
}

impl StoredReport {
    fn of(report: &FileReport) -> StoredReport {
        StoredReport {
            diagnostics: report
                .diagnostics
                .iter()
                .map(|d| StoredDiagnostic {
                    line: d.line as u64,
                    column: d.column as u64,
                    severity: match d.severity {
                        Severity::Error => 0,
                        Severity::Warning => 1,
                        Severity::Info => 2,
                    },
                    rule: d.rule.map(str::to_string),
                    source_family: d.source_family.to_string(),
                    message: d.message.clone(),
                    receiver_type: d.receiver_type.clone(),
                    method_name: d.method_name.clone(),
                    evidence_tier: d.evidence_tier.map(|tier| match tier {
                        EvidenceTier::High => 0,
                        EvidenceTier::Medium => 1,
                        EvidenceTier::Low => 2,
                    }),
                    documentation_url: d.documentation_url.clone(),
                })
                .collect(),
            parse_errors: report.parse_errors as u64,
        }
    }

    fn into_report(self, display: &str) -> Result<FileReport, String> {
        let mut diagnostics = Vec::with_capacity(self.diagnostics.len());
        for d in self.diagnostics {
            let rule = match d.rule {
                None => None,
                Some(id) => Some(
                    crate::rules::all()
                        .iter()
                        .find(|rule| rule.id == id)
                        .map(|rule| rule.id)
                        .ok_or_else(|| format!("names an unknown rule `{id}`"))?,
                ),
            };
            let source_family = match d.source_family.as_str() {
                "builtin" => "builtin",
                other => return Err(format!("names an unknown source family `{other}`")),
            };
            let severity = match d.severity {
                0 => Severity::Error,
                1 => Severity::Warning,
                2 => Severity::Info,
                other => return Err(format!("holds an unknown severity {other}")),
            };
            let evidence_tier = match d.evidence_tier {
                None => None,
                Some(0) => Some(EvidenceTier::High),
                Some(1) => Some(EvidenceTier::Medium),
                Some(2) => Some(EvidenceTier::Low),
                Some(other) => return Err(format!("holds an unknown evidence tier {other}")),
            };
            diagnostics.push(Diagnostic {
                path: display.to_string(),
                line: d.line as usize,
                column: d.column as usize,
                severity,
                rule,
                source_family,
                message: d.message,
                receiver_type: d.receiver_type,
                method_name: d.method_name,
                evidence_tier,
                documentation_url: d.documentation_url,
            });
        }
        Ok(FileReport { path: display.to_string(), diagnostics, parse_errors: self.parse_errors as usize })
    }
}

/// Reads a header field by field, failing on a short entry.
fn warn_unreadable(detail: &str) {
    static SAID: AtomicBool = AtomicBool::new(false);
    if !SAID.swap(true, Ordering::Relaxed) {
        eprintln!(
            "rigor: cache warning: ignoring unreadable cache entries (first: {detail}); they are derived and written again"
        );
    }
}

fn warn_unwritable(dir: &Path, error: &std::io::Error) {
    static SAID: AtomicBool = AtomicBool::new(false);
    if !SAID.swap(true, Ordering::Relaxed) {
        eprintln!(
            "rigor: cache warning: cannot write the cache in {} ({}); running without it",
            dir.display(),
            crate::files::describe_io_error(error)
        );
    }
}
