//! The persistent cache (`--cache-dir DIR`, `cache_dir:`): each project
//! file's derived values written to disk, so that a fresh process (after
//! a crash, a restart, a reboot) starts warm.
//!
//! `DIR/v<format>-<engine build>/` holds one entry per (root, path), named
//! by a hash of both, so a rewritten file replaces its entry and the cache
//! grows with the project, not with its history. An entry is a header
//! (magic, format, build, context, content hash, payload length and
//! checksum) and a postcard payload: the file's facts, and its exports and
//! report with the project facts each read. Loaded, an entry is exactly
//! what the workspace would hold had this process derived it, and is
//! reused under the same rules (content hash, then every dependency's
//! fingerprint against the current index), so a stale entry costs a
//! re-derivation, never a wrong answer.
//!
//! The context (root, settings, the engine build and a hash of the
//! signatures' bytes) is in the header: an entry written under another is
//! stale, not foreign. Anything unreadable (truncated, corrupt, another
//! format or build) is ignored with one warning per process and written
//! again; an unwritable directory warns once and the run goes on without it.
//! Entries are written to a temporary file in the same directory and
//! renamed over the old one, so a reader never sees half an entry.
//! Once per process, entries of the root's files that no longer exist are
//! removed (and temporary files a crashed writer left).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::{Cached, FileFacts, FileState, Workspace};
use crate::analysis::{self, FileReport};
use crate::cache_files::{build_id, frame, prune_other_builds, unframe, write_atomically};
use crate::diagnostic::{Diagnostic, EvidenceTier, Severity};
use crate::model::index::FileExports;
use crate::model::sources::{ContentHash, Source};

/// Bumped whenever the entry layout changes (the build id also changes
/// with every source change; this guards a layout change alone).
const FORMAT: u32 = 1;
const MAGIC: &[u8; 8] = b"RIGORC\x00\x01";

/// A workspace's cache directory for one context.
pub(super) struct DiskCache {
    /// `DIR/v<format>-<build>`.
    dir: PathBuf,
    /// The root, the settings and the signatures, hashed.
    context: u128,
    root: String,
    /// Cleared after a write fails: the run goes on without persisting.
    writable: AtomicBool,
    /// Whether vanished files' entries were looked for (see `sweep`).
    swept: AtomicBool,
}

/// One file's derived values as read from disk.
pub(super) struct Loaded {
    pub facts: FileFacts,
    pub exports: Option<Cached<Arc<FileExports>>>,
    pub report: Option<Cached<Arc<FileReport>>>,
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

type EntryIn = Entry<FileFacts, Cached<Arc<FileExports>>, Cached<StoredReport>>;

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
        Some(DiskCache {
            dir,
            context: hasher.digest128(),
            root,
            writable: AtomicBool::new(true),
            swept: AtomicBool::new(false),
        })
    }

    pub fn same(&self, other: &DiskCache) -> bool {
        self.dir == other.dir && self.context == other.context
    }

    fn entry_path(&self, display: &str) -> PathBuf {
        let mut hasher = xxhash_rust::xxh3::Xxh3::new();
        hasher.update(self.root.as_bytes());
        hasher.update(&[0]);
        hasher.update(display.as_bytes());
        self.dir.join(format!("{:032x}", hasher.digest128()))
    }

    /// Entries for the files of `wanted` (path and current content), in
    /// parallel; files without a valid, current entry are left out.
    pub fn load_all(&self, wanted: &[(&str, ContentHash)]) -> Vec<(String, Loaded)> {
        wanted
            .par_iter()
            .filter_map(|(display, hash)| self.load(display, *hash).map(|loaded| (display.to_string(), loaded)))
            .collect()
    }

    fn load(&self, display: &str, hash: ContentHash) -> Option<Loaded> {
        let bytes = match std::fs::read(self.entry_path(display)) {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return None,
            Err(error) => {
                warn_unreadable(&format!("{}: {error}", self.entry_path(display).display()));
                return None;
            }
        };
        match self.decode(&bytes, display, hash) {
            Ok(found) => found,
            Err(problem) => {
                warn_unreadable(&format!("{}: {problem}", self.entry_path(display).display()));
                None
            }
        }
    }

    /// `Ok(None)`: a sound entry, but for other content or another context.
    fn decode(&self, bytes: &[u8], display: &str, hash: ContentHash) -> Result<Option<Loaded>, String> {
        let (context, content, payload) = unwrap_entry(bytes)?;
        if context != self.context || content != hash {
            return Ok(None);
        }
        let entry: EntryIn = postcard::from_bytes(payload).map_err(|e| format!("undecodable ({e})"))?;
        if entry.root != self.root || entry.path != display {
            // Two (root, path) pairs hashing alike: stale for this one.
            return Ok(None);
        }
        let report = match entry.report {
            Some(cached) => Some(Cached {
                hash: cached.hash,
                deps: cached.deps,
                value: Arc::new(cached.value.into_report(display)?),
                validated: 0,
            }),
            None => None,
        };
        Ok(Some(Loaded { facts: entry.facts, exports: entry.exports, report }))
    }

    /// Once per process and cache: removes the entries of this root's files
    /// that no longer exist (`known` are files the workspace holds),
    /// temporary files a crashed writer left, and other builds'
    /// directories unused for a week (not on every call: once is enough).
    pub fn sweep<'a>(&self, known: impl Iterator<Item = &'a str>) {
        if self.swept.swap(true, Ordering::Relaxed) {
            return;
        }
        if let Some(root_dir) = self.dir.parent() {
            prune_other_builds(root_dir, &self.dir);
        }
        let keep: rustc_hash::FxHashSet<PathBuf> = known.map(|display| self.entry_path(display)).collect();
        let Ok(listing) = std::fs::read_dir(&self.dir) else { return };
        for item in listing.flatten() {
            let path = item.path();
            if keep.contains(&path) {
                continue;
            }
            let name = item.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                let old = item.metadata().and_then(|m| m.modified()).ok().and_then(|t| t.elapsed().ok());
                if name.ends_with(".tmp") && old.is_some_and(|age| age.as_secs() > 600) {
                    let _ = std::fs::remove_file(&path);
                }
                continue;
            }
            let Ok(bytes) = std::fs::read(&path) else { continue };
            let Ok((_, _, payload)) = unwrap_entry(&bytes) else { continue };
            let Ok(((root, display), _)) = postcard::take_from_bytes::<(String, String)>(payload) else { continue };
            if root == self.root && !Path::new(&root).join(&display).exists() {
                let _ = std::fs::remove_file(&path);
            }
        }
    }

    /// Writes the entries of `states`, each whole or not at all. Entries
    /// are encoded in parallel but written one after another: creating
    /// files in one directory from several threads only contends for the
    /// directory's lock (on ext4, a third of a cold run's CPU went to
    /// spinning on it).
    pub fn store_all(&self, states: &[(&str, &FileState)]) {
        let encoded: Vec<(&str, std::io::Result<Vec<u8>>)> =
            states.par_iter().map(|(display, state)| (*display, self.encode(display, state))).collect();
        for (display, bytes) in encoded {
            if !self.writable.load(Ordering::Relaxed) {
                return;
            }
            if let Err(error) = bytes.and_then(|bytes| write_atomically(&self.entry_path(display), &bytes)) {
                self.writable.store(false, Ordering::Relaxed);
                warn_unwritable(&self.dir, &error);
            }
        }
    }

    fn encode(&self, display: &str, state: &FileState) -> std::io::Result<Vec<u8>> {
        let current = |hash: ContentHash| hash == state.hash;
        let report = state.report.as_ref().filter(|c| current(c.hash)).map(|cached| Cached {
            hash: cached.hash,
            deps: cached.deps.clone(),
            value: StoredReport::of(&cached.value),
            validated: 0,
        });
        let entry = Entry {
            root: self.root.clone(),
            path: display.to_string(),
            facts: &*state.facts,
            exports: state.exports.as_ref().filter(|c| current(c.hash)),
            report,
        };
        let payload = postcard::to_stdvec(&entry).map_err(std::io::Error::other)?;
        Ok(frame(MAGIC, FORMAT, &[self.context, state.hash], &payload))
    }

    /// Drops the entries of files that no longer exist.
    pub fn forget(&self, displays: &[String]) {
        for display in displays {
            let _ = std::fs::remove_file(self.entry_path(display));
        }
    }
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
                exports: loaded.exports,
                report: loaded.report,
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
        let Some(disk) = &self.disk else { return };
        disk.forget(&vanished);
        let dirty: Vec<(&str, &FileState)> = self
            .files
            .iter()
            .filter(|(_, state)| state.dirty)
            .map(|(display, state)| (display.as_str(), state))
            .collect();
        if !dirty.is_empty() {
            analysis::on_analysis_thread(|| disk.store_all(&dirty));
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
