//! Signatures: RBS is the source of truth for the core library. Loaded
//! once per process and reused across worker calls, keyed by the set of
//! `.rbs` files with their stats, so an edited `sig/` file is seen on the
//! next call: as for source files (`model::sources`), a stat counts only
//! once it is safely older than the read it stands for, else the file is
//! hashed again (a same-size rewrite within one clock tick, or one whose
//! mtime a tool put back, leaves size and mtime as they were).

pub mod ast;
pub(crate) mod convert;
mod env;
mod legacy_syntax;
pub mod locate;
mod parsed_cache;
mod ruby_answer;
mod syntax_error;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

pub use env::{bind, Environment, FoundMethod};

use crate::model::sources::{now_ns, Stat};

/// What a command asks to load, beyond the core signatures.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// Directories of project signatures (`sig/`, `signature_paths`).
    pub directories: Vec<PathBuf>,
    /// Standard-library signature sets of the rbs gem (`libraries:`): one
    /// the gem lacks is worth a warning.
    pub libraries: Vec<String>,
    /// Sets loaded unasked (`signatures::DEFAULT_LIBRARIES`): one the
    /// installed gem lacks is skipped quietly.
    pub default_libraries: Vec<String>,
}

#[derive(Debug)]
pub struct Signatures {
    pub env: Environment,
    /// Said once per command: a missing rbs gem, unreadable or broken files.
    pub warnings: Vec<String>,
    pub files_loaded: usize,
    /// A hash of every file's path and bytes (and of the warnings): the
    /// same in every process for the same signatures, so a persistent
    /// cache can be keyed by it (see `workspace::persist`).
    pub content: u128,
}

/// One file of a cached set: its stat and content hash as the set read
/// it, and when that content was last known to be the file's.
struct SeenFile {
    path: PathBuf,
    stat: Option<Stat>,
    hash: Option<u128>,
    current_at_ns: i128,
}

/// A loaded set of signatures, with the files and warnings it came from.
struct CachedSet {
    files: Vec<SeenFile>,
    warnings: Vec<String>,
    signatures: Arc<Signatures>,
}

impl CachedSet {
    /// Do `files` (with their stats, taken at `now`) still hold what this
    /// set read? Each stat must be the one recorded; a file written within
    /// the clock's granularity of when its content was last confirmed is
    /// read and hashed again (and, the same, confirmed as of `now`).
    fn stands(&mut self, files: &[(PathBuf, Option<Stat>)], warnings: &[String], now: i128) -> bool {
        if self.warnings != warnings || self.files.len() != files.len() {
            return false;
        }
        let same_stats =
            self.files.iter().zip(files).all(|(seen, (path, stat))| seen.path == *path && seen.stat == *stat);
        if !same_stats {
            return false;
        }
        for seen in &mut self.files {
            let Some(stat) = seen.stat else { continue };
            if stat.trusted_since(seen.current_at_ns) {
                continue;
            }
            if std::fs::read(&seen.path).ok().map(|text| xxhash_rust::xxh3::xxh3_128(&text)) != seen.hash {
                return false;
            }
            seen.current_at_ns = now;
        }
        true
    }
}

/// Signature sets kept: a worker may serve a few projects (or configs).
const CACHED_SETS: usize = 4;

/// The signatures for `request`, from the cache when nothing changed.
pub fn load(request: &Request) -> Arc<Signatures> {
    static CACHE: Mutex<Vec<CachedSet>> = Mutex::new(Vec::new());
    let (files, core_files, mut warnings) = collect_files(request);
    // Taken before any file is read: a write after it shows in a later stat.
    let looked_at = now_ns();
    let stats: Vec<(PathBuf, Option<Stat>)> = files.iter().map(|f| (f.clone(), Stat::at(f))).collect();
    let mut cache = CACHE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(at) = cache.iter_mut().position(|cached| cached.stands(&stats, &warnings, looked_at)) {
        // Most recently used last.
        let entry = cache.remove(at);
        let signatures = entry.signatures.clone();
        cache.push(entry);
        return signatures;
    }
    let given_warnings = warnings.clone();
    let mut declarations = Vec::with_capacity(files.len() + 1);
    let mut content = xxhash_rust::xxh3::Xxh3::new();
    // The core alone is some 200 files: parsed in parallel, hashed and
    // combined in their order.
    let read: Vec<Parsed> = {
        use rayon::prelude::*;
        crate::analysis::on_analysis_thread(|| files.par_iter().map(|file| parse_file(file)).collect())
    };
    // The gem's files, then the core fixes, then the project's (from
    // `project_from` of the declarations: a file that failed is not one).
    let mut project_from = 0;
    let mut seen = Vec::with_capacity(files.len());
    for (at, ((file, stat), (text, parsed))) in stats.into_iter().zip(read).enumerate() {
        if at == core_files {
            push_core_fixes(&mut declarations, &mut content, core_files);
            project_from = declarations.len();
        }
        hash_file(&mut content, &file, text.as_deref());
        match parsed {
            Ok(decls) => declarations.push(decls),
            Err(problem) => warnings.push(format!("{}: {problem}", file.display())),
        }
        let hash = text.as_deref().map(xxhash_rust::xxh3::xxh3_128);
        seen.push(SeenFile { path: file, stat, hash, current_at_ns: looked_at });
    }
    if core_files == files.len() {
        push_core_fixes(&mut declarations, &mut content, core_files);
        project_from = declarations.len();
    }
    for warning in &warnings {
        content.update(warning.as_bytes());
        content.update(&[0]);
    }
    let content = content.digest128();
    let env = crate::stack_guard::guarded(|| Environment::build_layered(declarations, project_from)).unwrap_or_else(
        |failure| {
            warnings.push(format!("signatures could not be combined ({failure:?}); continuing without them"));
            Environment::default()
        },
    );
    let signatures = Arc::new(Signatures { env, warnings, files_loaded: files.len(), content });
    if cache.len() >= CACHED_SETS {
        cache.remove(0);
    }
    cache.push(CachedSet { files: seen, warnings: given_warnings, signatures: signatures.clone() });
    signatures
}

/// Signatures from explicit directories only, uncached.
pub fn load_directories(directories: &[PathBuf]) -> Signatures {
    let mut warnings = Vec::new();
    let mut declarations = Vec::new();
    let mut count = 0;
    let mut content = xxhash_rust::xxh3::Xxh3::new();
    for dir in directories {
        for file in locate::rbs_files(dir) {
            count += 1;
            match read_file(&file, &mut content) {
                Ok(decls) => declarations.push(decls),
                Err(problem) => warnings.push(format!("{}: {problem}", file.display())),
            }
        }
    }
    Signatures { env: Environment::build(declarations), warnings, files_loaded: count, content: content.digest128() }
}

/// Corrections to core signatures that refuse code Ruby runs, read after
/// the core (and libraries) and before the project's own signatures.
const CORE_FIXES: &str = include_str!("../../data/rbs_core_fixes.rbs");

/// The core fixes, when there is a core (`core_files` of the gem's) to fix.
fn push_core_fixes(
    declarations: &mut Vec<convert::FileDecls>,
    content: &mut xxhash_rust::xxh3::Xxh3,
    core_files: usize,
) {
    if core_files > 0 {
        content.update(CORE_FIXES.as_bytes());
        declarations.push(convert::convert_file(CORE_FIXES).expect("the core fixes parse"));
    }
}

/// The `.rbs` files a request reads, in the order they are read.
pub fn files(request: &Request) -> Vec<PathBuf> {
    collect_files(request).0
}

/// The files to read, and how many of them (first) are the rbs gem's.
/// Listing them walks some forty directories and reads the libraries'
/// manifests: a worker does it again only when one of those directories
/// (a file added or removed changes its mtime), a manifest, the request
/// or the rbs gem found changed.
fn collect_files(request: &Request) -> (Vec<PathBuf>, usize, Vec<String>) {
    static LISTED: Mutex<Vec<Listed>> = Mutex::new(Vec::new());
    let gem = locate::rbs_gem();
    let mut listed = LISTED.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let same = |(asked, found, _): &Listed| {
        asked.directories == request.directories
            && asked.libraries == request.libraries
            && asked.default_libraries == request.default_libraries
            && *found == gem
    };
    if let Some(at) = listed.iter().position(same) {
        let listing = &listed[at].2;
        if listing.stamps.iter().all(|(path, stamp)| Stat::at(path) == *stamp) {
            return (listing.files.clone(), listing.from_gem, listing.warnings.clone());
        }
        drop(listed.remove(at));
    }
    let listing = list_files(request, &gem);
    let answer = (listing.files.clone(), listing.from_gem, listing.warnings.clone());
    // A directory changed within a clock tick of the listing may change
    // again with the same mtime: such a listing is not kept.
    let now = now_ns();
    let settled = |(_, stamp): &(PathBuf, Option<Stat>)| stamp.is_none_or(|stat| stat.trusted_since(now));
    if listing.stamps.iter().all(settled) {
        if listed.len() >= CACHED_SETS {
            drop(listed.remove(0));
        }
        listed.push((request.clone(), gem, listing));
    }
    answer
}

/// A request, the rbs gem found for it, and what was listed.
type Listed = (Request, Result<PathBuf, String>, Listing);

/// What [`collect_files`] found, and what says it still holds.
struct Listing {
    files: Vec<PathBuf>,
    from_gem: usize,
    warnings: Vec<String>,
    /// Every directory listed and manifest read, with its stat then.
    stamps: Vec<(PathBuf, Option<Stat>)>,
}

fn list_files(request: &Request, gem: &Result<PathBuf, String>) -> Listing {
    let mut files = Vec::new();
    let mut warnings = Vec::new();
    let mut consulted: Vec<PathBuf> = Vec::new();
    match gem {
        Ok(gem) => {
            files.extend(locate::rbs_files_listing(&gem.join("core"), &mut consulted));
            // Each library once, its dependencies (its `manifest.yaml`)
            // after it: `yaml` needs `dbm`'s classes, `resolv` `socket`'s.
            let mut loaded: Vec<String> = Vec::new();
            let asked = request.default_libraries.iter().map(|l| (l.clone(), true));
            let mut pending: Vec<(String, bool)> =
                asked.chain(request.libraries.iter().map(|l| (l.clone(), false))).rev().collect();
            while let Some((library, quiet)) = pending.pop() {
                if loaded.contains(&library) {
                    continue;
                }
                consulted.push(gem.join("stdlib").join(&library));
                match library_directory(gem, &library) {
                    Some(dir) => {
                        files.extend(locate::rbs_files_listing(&dir, &mut consulted));
                        consulted.push(dir.join("manifest.yaml"));
                        pending.extend(library_dependencies(&dir).into_iter().rev().map(|d| (d, true)));
                    }
                    None if quiet => {}
                    None => warnings.push(format!("libraries: no signatures for `{library}` in {}", gem.display())),
                }
                loaded.push(library);
            }
        }
        Err(problem) => {
            warnings.push(problem.clone());
            if !request.libraries.is_empty() {
                warnings.push("libraries: ignored without the rbs gem".to_string());
            }
        }
    }
    let from_gem = files.len();
    for dir in &request.directories {
        files.extend(locate::rbs_files_listing(dir, &mut consulted));
    }
    let stamps = consulted.into_iter().map(|path| {
        let stamp = Stat::at(&path);
        (path, stamp)
    });
    Listing { files, from_gem, warnings, stamps: stamps.collect() }
}

/// `stdlib/<name>/<version>/`: the highest version directory.
fn library_directory(gem: &Path, library: &str) -> Option<PathBuf> {
    if library.contains(['/', '\\']) || library.starts_with('.') {
        return None;
    }
    let base = gem.join("stdlib").join(library);
    let mut versions: Vec<PathBuf> =
        std::fs::read_dir(&base).ok()?.filter_map(Result::ok).map(|e| e.path()).filter(|p| p.is_dir()).collect();
    versions.sort();
    versions.pop()
}

/// The libraries a library's signatures name in its `manifest.yaml`
/// (`dependencies:` then `- name: socket` lines).
fn library_dependencies(directory: &Path) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(directory.join("manifest.yaml")) else { return Vec::new() };
    text.lines()
        .filter_map(|line| line.trim().strip_prefix("- name:"))
        .map(|name| name.trim().trim_matches(['"', '\'']).to_string())
        .filter(|name| !name.is_empty())
        .collect()
}

/// Reads and converts one file, adding its path and bytes to `content`.
fn read_file(path: &Path, content: &mut xxhash_rust::xxh3::Xxh3) -> Result<convert::FileDecls, String> {
    let (text, parsed) = parse_file(path);
    hash_file(content, path, text.as_deref());
    parsed
}

/// A file's text (if it could be read) and its declarations.
type Parsed = (Option<Vec<u8>>, Result<convert::FileDecls, String>);

fn parse_file(path: &Path) -> Parsed {
    let text = match std::fs::read(path) {
        Ok(text) => text,
        Err(error) => return (None, Err(crate::files::describe_io_error(&error))),
    };
    let content = xxhash_rust::xxh3::xxh3_128(&text);
    if let Some(decls) = parsed_cache::load(content) {
        return (Some(text), Ok(decls));
    }
    let Ok(utf8) = std::str::from_utf8(&text) else { return (Some(text), Err("not UTF-8".to_string())) };
    let parsed = match crate::stack_guard::guarded(|| {
        convert::convert_file(utf8).or_else(|problem| match legacy_syntax::modernised(utf8) {
            Some(modern) => convert::convert_file(&modern).map_err(|_| problem),
            None => Err(problem),
        })
    }) {
        Ok(Ok(decls)) => {
            parsed_cache::store(content, &decls);
            Ok(decls)
        }
        Ok(Err(message)) => Err(match crate::stack_guard::guarded(|| syntax_error::position(utf8)) {
            Ok(Some((line, column))) => format!("RBS syntax error at line {line}, column {column}: {message}"),
            _ => format!("RBS syntax error: {message}"),
        }),
        Err(failure) => Err(format!("the RBS parser failed on this file ({failure:?})")),
    };
    (Some(text), parsed)
}

/// What the signatures' content hash takes of one file: its path, and its
/// length and bytes when it could be read.
fn hash_file(content: &mut xxhash_rust::xxh3::Xxh3, path: &Path, text: Option<&[u8]>) {
    content.update(path.as_os_str().as_encoded_bytes());
    content.update(&[0]);
    if let Some(text) = text {
        content.update(&(text.len() as u64).to_le_bytes());
        content.update(text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cached set of one file, as read at `current_at_ns` with `text`.
    fn cached(path: &Path, text: &str, current_at_ns: i128) -> CachedSet {
        let seen = SeenFile {
            path: path.to_path_buf(),
            stat: Stat::at(path),
            hash: Some(xxhash_rust::xxh3::xxh3_128(text.as_bytes())),
            current_at_ns,
        };
        let signatures = Signatures { env: Environment::default(), warnings: vec![], files_loaded: 1, content: 0 };
        CachedSet { files: vec![seen], warnings: vec![], signatures: Arc::new(signatures) }
    }

    #[test]
    fn a_stat_as_recent_as_the_read_is_not_taken_for_the_content() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("a.rbs");
        std::fs::write(&path, "class A\nend\n").expect("write");
        let stats = vec![(path.clone(), Stat::at(&path))];
        let now = now_ns();
        // Same stat, other content read within the clock's granularity of
        // the write: the file is hashed, and the set does not stand.
        assert!(!cached(&path, "class B\nend\n", now).stands(&stats, &[], now));
        assert!(cached(&path, "class A\nend\n", now).stands(&stats, &[], now));
        // A stat safely older than the read is trusted without reading.
        let later = now + 10 * 1_000_000_000;
        assert!(cached(&path, "class B\nend\n", later).stands(&stats, &[], later));
        // A confirmed content counts as of the confirmation.
        let mut set = cached(&path, "class A\nend\n", now);
        assert!(set.stands(&stats, &[], later));
        assert_eq!(set.files[0].current_at_ns, later);
        // Other warnings, or a changed stat, are another set.
        assert!(!cached(&path, "class A\nend\n", later).stands(&stats, &["w".to_string()], later));
        let other = vec![(path.clone(), None)];
        assert!(!cached(&path, "class A\nend\n", later).stands(&other, &[], later));
    }

    #[test]
    fn a_file_added_to_a_listed_directory_is_seen() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.rbs"), "class A\nend\n").unwrap();
        // Listed long after it last changed: the listing is kept.
        let past = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        std::fs::File::open(dir.path()).and_then(|d| d.set_modified(past)).unwrap();
        let request = Request { directories: vec![dir.path().to_path_buf()], ..Request::default() };
        assert!(load(&request).env.has_class("A"));
        assert!(!load(&request).env.has_class("B"));
        std::fs::write(dir.path().join("b.rbs"), "class B\nend\n").unwrap();
        assert!(load(&request).env.has_class("B"), "the directory's mtime moved: listed again");
    }

    #[test]
    fn a_library_names_its_dependencies_in_its_manifest() {
        let dir = tempfile::tempdir().unwrap();
        assert!(library_dependencies(dir.path()).is_empty(), "no manifest, no dependencies");
        std::fs::write(dir.path().join("manifest.yaml"), "dependencies:\n  - name: dbm\n  - name: \"pstore\"\n")
            .unwrap();
        assert_eq!(library_dependencies(dir.path()), ["dbm", "pstore"]);
    }

    #[test]
    fn signatures_are_reused_until_a_file_changes() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.rbs");
        std::fs::write(&file, "class A\n  def a: () -> Integer\nend\n").unwrap();
        let request = Request {
            directories: vec![dir.path().to_path_buf()],
            libraries: Vec::new(),
            default_libraries: Vec::new(),
        };
        let first = load(&request);
        assert!(first.env.has_class("A"));
        assert!(Arc::ptr_eq(&first, &load(&request)), "unchanged files: the same signatures");
        std::fs::write(&file, "class A\n  def a: () -> String\nend\nclass B\nend\n").unwrap();
        let second = load(&request);
        assert!(!Arc::ptr_eq(&first, &second), "an edited file: loaded again");
        assert!(second.env.has_class("B"));
        std::fs::write(dir.path().join("c.rbs"), "class C\nend\n").unwrap();
        assert!(load(&request).env.has_class("C"), "a new file: loaded again");
    }
}
