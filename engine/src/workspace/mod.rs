//! The warm project: the project model kept across a worker's calls and
//! brought up to date incrementally. A one-shot CLI run builds one and
//! drops it; the worker keeps one per root (see [`with_workspace`]).
//!
//! Each call:
//! 1. looks at every project file (`model::sources`: stat, and a hash
//!    when the stat changed or cannot be trusted);
//! 2. derives the facts of files whose content changed (their interface
//!    for the project index, the rules' project facts);
//! 3. merges them into the structure index;
//! 4. infers each file against the structure for its exports (method
//!    returns, constant types, ivar writes), reusing a file's exports
//!    while its content and every project fact it read are unchanged;
//! 5. folds the exports in, and analyses each target against that,
//!    with the same reuse rule.
//!
//! Every derived value is keyed by what it read, so a warm answer is the
//! one a cold run computes (`tests/warm_equals_cold.rs` proves it on real
//! code under random edits).

mod deps;
mod figures;
mod fingerprints;
mod kept;
mod persist;
mod unsettled;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rayon::prelude::*;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet, FxHasher};
use std::hash::{Hash, Hasher};

pub use figures::CacheFigures;

use deps::{DepId, DepTable, Numbering};
use fingerprints::Fingerprints;
use unsettled::{Reads, Unsettled};

use crate::analysis::{self, FileReport, Settings};
use crate::files::Target;
use crate::infer::replay::{self, FirstPass, Recording};
use crate::infer::{FileTypes, IvarTable, Prior, ProjectLink};
use crate::infer::{ProgramIndex, WalkedTree};
use crate::model::index::{Dep, FileExports, FileId, FileInterface, ProjectIndex, SharedIndex};
use crate::model::sources::{ContentHash, Look, Source, SourceStore};
use crate::rbs::{Environment, Signatures};
use crate::rules::project::ProjectFacts;
use crate::syntax::{ParsedFile, Tree};

/// How many files a workspace keeps by default: enough for a 20,000-file
/// project; past it the least recently used are dropped (and derived
/// again if asked for).
pub const DEFAULT_CAPACITY: usize = 20_000;

/// How much source a call keeps parsed between its passes. A tree takes
/// about eight times its source (libruby's 5.7 MB: 45 MiB), so this holds
/// at most some 130 MiB; it covers both benchmark corpora whole.
pub const TREE_BUDGET: usize = 16 << 20;

/// A value derived from a file, with the project facts it read and what
/// they read as at the time: numbered in the workspace's [`DepTable`]
/// (`D = Dep` where they are stored on disk).
#[derive(serde::Serialize, serde::Deserialize)]
struct Cached<T, D = DepId> {
    hash: ContentHash,
    deps: Vec<(D, u64)>,
    value: T,
    /// The index generation it was last found valid for.
    #[serde(skip)]
    validated: u64,
    /// Whether `deps` lists all the value read, or (until the workspace
    /// settles them: see `unsettled`) only what its own call asked.
    #[serde(skip)]
    settled: bool,
}

impl<T> Cached<T, Dep> {
    fn numbered(self, table: &mut DepTable) -> Cached<T> {
        let deps = table.numbered(self.deps);
        Cached { hash: self.hash, deps, value: self.value, validated: self.validated, settled: true }
    }
}

impl<T> Cached<T> {
    /// Whether the value may stand for `hash`: it is still valid as it
    /// was (`as_it_was`: nothing it may have read changed), or its reads,
    /// looked at by `reads_same`, read the same (never while unsettled).
    fn stands(&self, hash: ContentHash, as_it_was: bool, reads_same: impl FnOnce(&[(DepId, u64)]) -> bool) -> bool {
        self.hash == hash && (as_it_was || (self.settled && reads_same(&self.deps)))
    }

    /// Keys the value by all it read (not one derived again since).
    fn settle(&mut self, hash: ContentHash, deps: Vec<(DepId, u64)>) {
        if self.hash == hash && !self.settled {
            self.deps = deps;
            self.settled = true;
        }
    }
}

/// What a file defines, read off its syntax alone.
#[derive(serde::Serialize, serde::Deserialize)]
struct FileFacts {
    interface: FileInterface,
    rules: ProjectFacts,
    /// Fingerprint of `rules` but what it says of method names (which a
    /// report depends on name by name).
    shape_fingerprint: u64,
}

struct FileState {
    hash: ContentHash,
    source: Source,
    facts: Arc<FileFacts>,
    exports: Option<Cached<Arc<FileExports>>>,
    report: Option<Cached<Arc<FileReport>>>,
    /// What commands that read only inference derived (see `kept`).
    kept: kept::KeptValues,
    used: u64,
    /// Derived anew since the disk cache last had it.
    dirty: bool,
}

/// What the derived values depend on besides the files: the engine build,
/// the settings and the signatures. A change of any drops everything.
struct Context {
    cwd: PathBuf,
    settings: String,
    signatures: Option<Arc<Signatures>>,
}

impl Context {
    fn of(cwd: &Path, settings: &Settings) -> Context {
        let mut plain = settings.clone();
        let signatures = plain.signatures.take();
        Context { cwd: cwd.to_path_buf(), settings: format!("{}|{plain:?}", crate::BUILD), signatures }
    }

    fn same(&self, other: &Context) -> bool {
        self.cwd == other.cwd
            && self.settings == other.settings
            && match (&self.signatures, &other.signatures) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            }
    }
}

pub struct Workspace {
    context: Option<Context>,
    sources: SourceStore,
    files: HashMap<String, FileState>,
    tick: u64,
    capacity: usize,
    /// The last project built, reused whole while no file changed.
    last: Option<Last>,
    /// Counts the indexes built: a report validated against one
    /// generation needs no second look while it serves.
    generation: u64,
    /// The persistent cache asked for (`--cache-dir`), and the one open.
    cache_dir: Option<PathBuf>,
    disk: Option<persist::DiskCache>,
    /// Files dropped because they no longer exist: their entries go too.
    vanished: Vec<String>,
    /// Whether what a call derives is used after it (kept warm, or on
    /// disk): only then are reports keyed by what they read.
    outlives_call: bool,
    /// The facts the cached answers read, numbered.
    deps: DepTable,
    /// Reads of answers still to number and print (a kept model's: see
    /// [`Workspace::settle`]), the latest for each file's exports and
    /// report (an older one is of a value replaced since).
    unsettled: HashMap<(String, bool), Unsettled>,
    /// The index generation the unsettled reports were made against.
    unsettled_reports_of: Option<u64>,
}

/// What the last call built, and from which files.
struct Last {
    files: Vec<(String, ContentHash)>,
    /// The structure stratum, reused while no file's interface changes.
    structure: SharedIndex,
    index: SharedIndex,
    facts: Arc<ProjectFacts>,
    facts_fingerprint: u64,
    generation: u64,
}

impl Last {
    /// The last project again, for this call's files (the same paths in
    /// the same order, maybe with new content nobody else reads).
    fn project(&self, ids: HashMap<String, FileId>, present: Vec<(String, Source)>, figures: CacheFigures) -> Project {
        Project::new(
            self.index.clone(),
            self.facts.clone(),
            self.facts_fingerprint,
            ids,
            present,
            self.generation,
            figures,
        )
    }
}

/// What [`Workspace::look`] found: the project's files that could be
/// read, with what they hold, in the order asked.
pub struct Looked {
    present: Vec<(String, Source)>,
    reread: usize,
    rehashed: usize,
    millis: f64,
    /// The files whose parses the call keeps for its analyses.
    keep_trees: HashSet<String>,
    /// Work the call will want later that reads nothing of the project,
    /// run on an analysis thread while the structure is built (see
    /// [`Looked::meanwhile`]).
    meanwhile: Option<fn()>,
}

impl Looked {
    /// Keeps each parse of one of `targets` this call makes, for its
    /// analysis: parsed once instead of once per pass, at the price of
    /// holding the trees until then.
    /// Up to [`TREE_BUDGET`] bytes of source: past it, files are parsed
    /// once per pass as before.
    pub fn keeping_trees_of(self, targets: &[Target]) -> Looked {
        self.keeping_trees_within(targets, TREE_BUDGET)
    }

    fn keeping_trees_within(mut self, targets: &[Target], budget: usize) -> Looked {
        let sizes: HashMap<&str, usize> = self.present.iter().map(|(d, s)| (d.as_str(), s.bytes.len())).collect();
        let mut left = budget;
        let kept = targets.iter().filter_map(|target| match target {
            Target::File { display } => {
                let size = *sizes.get(display.as_str())?;
                (size <= left).then(|| {
                    left -= size;
                    display.clone()
                })
            }
            Target::Missing { .. } => None,
        });
        self.keep_trees = kept.collect();
        self
    }

    /// Runs `work` on an idle analysis thread while the structure is built
    /// (one thread's work, with the pool's threads waiting), if this call
    /// builds one. `work` must read nothing of the project, and leave
    /// nothing behind but what a later call of it would find.
    pub fn meanwhile(mut self, work: fn()) -> Looked {
        self.meanwhile = Some(work);
        self
    }
}

/// The project brought up to date for one call: its index with exports,
/// the rules' project facts, and each file's number and content.
pub struct Project {
    pub index: SharedIndex,
    pub facts: Arc<ProjectFacts>,
    /// The facts' shape (all but what they say of method names, which
    /// each report depends on name by name: `Dep::FactName`).
    facts_fingerprint: u64,
    ids: HashMap<String, FileId>,
    sources: HashMap<String, Source>,
    generation: u64,
    /// Fingerprints of what files read, under this project's index (kept
    /// by the reads settled after the call, too).
    fingerprints: Arc<Fingerprints>,
    /// What this call's export pass inferred of each file that the
    /// file's analysis would find again (everything, while the exports
    /// changed nothing the file read; else pass one, while they changed
    /// nothing pass one read): every command takes it instead.
    inferred: Mutex<HashMap<String, Reuse>>,
    /// The parses this call kept of files it will analyse.
    trees: Mutex<HashMap<String, WalkedTree>>,
    pub figures: CacheFigures,
}

impl Project {
    #[allow(clippy::too_many_arguments)]
    fn new(
        index: SharedIndex,
        facts: Arc<ProjectFacts>,
        facts_fingerprint: u64,
        ids: HashMap<String, FileId>,
        present: Vec<(String, Source)>,
        generation: u64,
        figures: CacheFigures,
    ) -> Project {
        let fingerprints = Arc::new(Fingerprints::new(index.clone()).with_facts(facts.clone()));
        Project {
            index,
            facts,
            facts_fingerprint,
            ids,
            sources: present.into_iter().collect(),
            generation,
            fingerprints,
            inferred: Mutex::new(HashMap::default()),
            trees: Mutex::new(HashMap::default()),
            figures,
        }
    }

    fn with_trees(mut self, trees: HashMap<String, WalkedTree>) -> Project {
        *self.trees.get_mut().unwrap_or_else(|p| p.into_inner()) = trees;
        self
    }

    /// The parse of `display` this call kept, if it did (once: the caller
    /// owns it).
    fn take_tree(&self, display: &str) -> Option<WalkedTree> {
        self.trees.lock().unwrap_or_else(|p| p.into_inner()).remove(display)
    }

    /// Keeps of what the export pass inferred what this project's index
    /// answers as the structure did: the types when all their reads do,
    /// else pass one's table when its reads do. What the reused part read
    /// goes with it (a kept model's analyses are keyed by that too).
    fn keep_standing(
        mut self,
        inferred: HashMap<String, Inferred>,
        files: &HashMap<String, FileState>,
        table: &DepTable,
    ) -> Project {
        let fingerprints = &self.fingerprints;
        let (sources, ids) = (&self.sources, &self.ids);
        let reuse = |(display, inferred): (String, Inferred)| -> Option<(String, Reuse)> {
            let state = files.get(&display)?;
            let id = *ids.get(&display)?;
            let exports = state.exports.as_ref().filter(|c| sources.get(&display).is_some_and(|s| s.hash == c.hash))?;
            if fingerprints.all_same_exports(table, &exports.deps, id) {
                let reads = inferred.reads;
                return Some((display, Reuse { prior: Prior::Types(Box::new(inferred.types)), reads }));
            }
            let pass_one_stands =
                inferred.pass_one.as_ref().map(|pass| fingerprints.all_same_exports(table, &pass.deps, id));
            // The `def`s whose every read stands, taken with the types. (A
            // window's reads are among the file's: the same link noted both.)
            // Looked at only where a window read it, each once.
            let mut standing: Vec<Option<bool>> = vec![None; exports.deps.len()];
            let mut keep = |recording: Recording| {
                let recording = recording.keep_standing(|read| {
                    let Some(known) = standing.get_mut(read as usize) else { return false };
                    *known.get_or_insert_with(|| fingerprints.stands(table, &exports.deps[read as usize], id))
                });
                (!recording.is_empty()).then_some(recording)
            };
            let windows = inferred.windows.and_then(&mut keep);
            let (pass_one, first) = match inferred.pass_one {
                // A pass one that runs again takes its own windows that stand.
                Some(PassOneFound { table, first: Some(first), reads, .. }) if pass_one_stands == Some(false) => {
                    let first = keep(first.recording).map(|recording| FirstPass { types: first.types, recording });
                    (Some((table, reads)), first)
                }
                Some(PassOneFound { table, reads, .. }) => (Some((table, reads)), None),
                None => (None, None),
            };
            if windows.is_some() || first.is_some() {
                // Reads the analysis does not make again are the export
                // pass's: all of them, for a report keyed by what it read.
                let reads = inferred.reads;
                let (ivar_table, table_stands) = match pass_one {
                    Some((ivar_table, _)) => (ivar_table, pass_one_stands == Some(true)),
                    None => (None, true),
                };
                let (mut types, mut recording) = (inferred.types, windows.unwrap_or_default());
                recording.settle(&mut types);
                let windows = replay::Windows { types, recording, table: ivar_table, table_stands, first };
                return Some((display, Reuse { prior: Prior::Windows(Box::new(windows)), reads }));
            }
            let (ivar_table, reads) = pass_one?;
            // The types fall here: freed on the analysis threads.
            drop(inferred.types);
            (pass_one_stands == Some(true)).then_some((display, Reuse { prior: Prior::PassOne(ivar_table), reads }))
        };
        let standing: HashMap<String, Reuse> =
            analysis::on_analysis_thread(|| inferred.into_par_iter().filter_map(reuse).collect());
        *self.inferred.get_mut().unwrap_or_else(|p| p.into_inner()) = standing;
        self
    }

    /// What the export pass found of `display` that stands, and what that
    /// part read (once: the caller owns them).
    fn take_reuse(&self, display: &str) -> Option<Reuse> {
        self.inferred.lock().unwrap_or_else(|p| p.into_inner()).remove(display)
    }

    /// What inferring `display` as one of the project's files takes: a
    /// link to the index, and the export pass's types when they stand for
    /// these very bytes (a file read again may have changed since).
    pub fn inference_inputs(&self, display: &str, source: &[u8]) -> (Option<ProjectLink>, Option<Prior>) {
        let same_bytes = self.sources.get(display).is_some_and(|known| *known.bytes == *source);
        (self.link(display), if same_bytes { self.take_reuse(display).map(|reuse| reuse.prior) } else { None })
    }

    /// The parse of `display` this call kept, if it parsed these very
    /// bytes: a command inferring the file takes it (and its walk) instead
    /// of parsing it again (see [`Looked::keeping_trees_of`]).
    pub fn take_parse(&self, display: &str, source: &[u8]) -> Option<WalkedTree> {
        let same_bytes = self.sources.get(display).is_some_and(|known| *known.bytes == *source);
        same_bytes.then(|| self.take_tree(display)).flatten()
    }

    /// A link for inferring `display` as one of the project's files.
    pub fn link(&self, display: &str) -> Option<ProjectLink> {
        let id = *self.ids.get(display)?;
        Some(ProjectLink::new(self.index.clone(), id))
    }

    pub fn source(&self, display: &str) -> Option<&Source> {
        self.sources.get(display)
    }
}

impl Default for Workspace {
    fn default() -> Self {
        Workspace::with_capacity(DEFAULT_CAPACITY)
    }
}

impl Workspace {
    pub fn with_capacity(capacity: usize) -> Workspace {
        Workspace {
            context: None,
            sources: SourceStore::default(),
            files: HashMap::default(),
            tick: 0,
            capacity,
            last: None,
            generation: 0,
            cache_dir: None,
            disk: None,
            vanished: Vec::new(),
            outlives_call: true,
            deps: DepTable::default(),
            unsettled: HashMap::default(),
            unsettled_reports_of: None,
        }
    }

    /// Brings the project made of `files` up to date (steps 1-4 above).
    pub fn project(&mut self, files: &[Target], cwd: &Path, settings: &Settings) -> Project {
        let looked = self.look(files, cwd);
        self.project_looked(looked, cwd, settings)
    }

    /// Step 1 alone: what each of `files` holds now. It needs neither the
    /// settings nor the signatures, so a command may look while they load
    /// (`signatures::load_beside`).
    pub fn look(&mut self, files: &[Target], cwd: &Path) -> Looked {
        let started = Instant::now();
        let mut looked = Looked {
            present: Vec::new(),
            reread: 0,
            rehashed: 0,
            millis: 0.0,
            keep_trees: HashSet::default(),
            meanwhile: None,
        };
        let displays: Vec<&String> = files
            .iter()
            .filter_map(|target| match target {
                Target::File { display } => Some(display),
                Target::Missing { .. } => None,
            })
            .collect();
        let paths: Vec<PathBuf> = displays.iter().map(|display| cwd.join(display)).collect();
        for (display, found) in displays.into_iter().zip(self.sources.look_all(&paths)) {
            // A file that cannot be read is no part of the project.
            let Ok((source, look)) = found else { continue };
            match look {
                Look::Unchanged => {}
                Look::Rehashed => looked.rehashed += 1,
                Look::Changed => looked.reread += 1,
            }
            looked.present.push((display.clone(), source));
        }
        looked.millis = started.elapsed().as_secs_f64() * 1e3;
        looked
    }

    /// Steps 2-4, on what [`Self::look`] found.
    pub fn project_looked(&mut self, looked: Looked, cwd: &Path, settings: &Settings) -> Project {
        let started = Instant::now();
        let mut phase = started;
        let mut figures = CacheFigures { reread: looked.reread, rehashed: looked.rehashed, ..CacheFigures::default() };
        let (present, looked_millis, keep, meanwhile) =
            (looked.present, looked.millis, looked.keep_trees, looked.meanwhile);
        let context = Context::of(cwd, settings);
        if !self.context.as_ref().is_some_and(|c| c.same(&context)) {
            // Everything derived goes. The files' bytes stay: they are keyed
            // by path and stat, not by settings or signatures.
            free_beside((std::mem::take(&mut self.files), self.last.take()));
            self.deps.clear();
            self.unsettled.clear();
            self.unsettled_reports_of = None;
        }
        if self.deps.wants_renumbering() {
            // Between calls: no number is held anywhere but in the files'.
            let kept = self.files.values_mut().flat_map(|state| {
                let exports = state.exports.iter_mut().map(|cached| &mut cached.deps);
                exports.chain(state.report.iter_mut().map(|cached| &mut cached.deps))
            });
            self.deps.renumber(kept);
        }
        self.context = Some(context);
        self.tick += 1;
        let signatures = analysis::signatures_of(settings);
        let env = &signatures.env;
        self.open_disk(cwd, signatures.content);

        // 1. Every file was looked at (`look`).
        figures.phases.look = looked_millis + lap(&mut phase);
        let key: Vec<(String, ContentHash)> = present.iter().map(|(d, s)| (d.clone(), s.hash)).collect();
        if let Some(last) = self.last.as_ref().filter(|last| last.files == key) {
            // Nothing changed: the last project stands as it was.
            for (display, _) in &present {
                if let Some(state) = self.files.get_mut(display) {
                    state.used = self.tick;
                }
            }
            figures.files_cached = self.files.len();
            figures.project_files = present.len();
            figures.index = "kept";
            figures.millis = looked_millis + started.elapsed().as_secs_f64() * 1e3;
            note_figures(&figures);
            let ids = present.iter().enumerate().map(|(i, (d, _))| (d.clone(), i as FileId)).collect();
            return last.project(ids, present, figures);
        }
        figures.disk_loaded = self.load_from_disk(&present);
        figures.phases.disk = lap(&mut phase);
        // 2. Facts of new and changed files.
        let stale: Vec<&(String, Source)> = present
            .iter()
            .filter(|(display, source)| self.files.get(display).is_none_or(|state| state.hash != source.hash))
            .collect();
        figures.facts_derived = stale.len();
        // Early cutoff: when the same files changed only inside their
        // bodies, the structure is the last one, bit for bit.
        let same_files = self.last.as_ref().is_some_and(|last| {
            last.files.len() == present.len() && last.files.iter().zip(&present).all(|((a, _), (b, _))| a == b)
        });
        // What came from disk was not compared with the last call's: no cutoff.
        let mut same_structure = same_files && figures.disk_loaded == 0;
        let mut same_rules = same_structure;
        // A target's parse and walk, made by the first pass that needs them
        // and kept for the others (`None` for other files, or if the walk
        // failed: each pass then meets the failure again, as before).
        let walked = |display: &String, source: &Source| -> Option<WalkedTree> {
            let walk = || WalkedTree::walk(Tree::parse(source.bytes.clone(), settings.target_ruby), env);
            keep.contains(display).then(walk).flatten()
        };
        let fresh: Vec<(String, Source, FileFacts, Option<WalkedTree>)> = analysis::on_analysis_thread(|| {
            stale
                .par_iter()
                .map(|(display, source)| {
                    let kept = walked(display, source);
                    let facts =
                        crate::infer::on_copy(kept.as_ref(), &source.bytes, settings.target_ruby, |parsed, walk| {
                            facts_of(display, parsed, walk, env)
                        });
                    (display.clone(), source.clone(), facts, kept)
                })
                .collect()
        });
        // The parses (and walks) kept for the analyses, taken by each pass.
        let mut trees: HashMap<String, WalkedTree> = HashMap::default();
        for (display, source, facts, tree) in fresh {
            if let Some(tree) = tree {
                trees.insert(display.clone(), tree);
            }
            let facts = Arc::new(facts);
            match self.files.get_mut(&display) {
                Some(state) => {
                    same_structure &= state.facts.interface == facts.interface;
                    // Printed only here, where an older state is at hand:
                    // a cold run never needs it.
                    same_rules = same_rules && rules_print(&state.facts.rules) == rules_print(&facts.rules);
                    state.hash = source.hash;
                    state.source = source;
                    state.facts = facts;
                    state.dirty = true;
                }
                None => {
                    same_structure = false;
                    let state = FileState {
                        hash: source.hash,
                        source,
                        facts,
                        exports: None,
                        report: None,
                        kept: Default::default(),
                        used: self.tick,
                        dirty: true,
                    };
                    self.files.insert(display, state);
                }
            }
        }
        for (display, _) in &present {
            if let Some(state) = self.files.get_mut(display) {
                state.used = self.tick;
            }
        }

        figures.phases.facts = lap(&mut phase);
        // 3. The structure.
        let facts_now: Vec<Arc<FileFacts>> =
            present.iter().map(|(display, _)| self.files[display].facts.clone()).collect();
        let interfaces: Vec<(&str, &FileInterface)> =
            present.iter().zip(&facts_now).map(|((display, _), facts)| (display.as_str(), &facts.interface)).collect();
        let reused_structure = self.last.as_ref().filter(|_| same_structure).map(|last| last.structure.clone());
        let structure = reused_structure.unwrap_or_else(|| {
            if let Some(work) = meanwhile {
                analysis::spawn_on_analysis_thread(work);
            }
            Arc::new(ProjectIndex::structure(&interfaces, env).with_policy(settings.parameter_inference))
        });
        let ids: HashMap<String, FileId> =
            present.iter().enumerate().map(|(i, (display, _))| (display.clone(), i as FileId)).collect();

        figures.phases.structure = lap(&mut phase);
        // 4. Exports against the structure. Under a new one, earlier exports
        // stand by what they read: all of it must be listed.
        if !same_structure {
            self.settle();
        }
        let memo = Arc::new(Fingerprints::new(structure.clone()));
        // Every file's reads are looked at when the structure changed: on
        // the analysis threads, as the work they decide.
        let (files, table) = (&self.files, &self.deps);
        let to_infer: Vec<(String, Source)> = analysis::on_analysis_thread(|| {
            present
                .par_iter()
                .filter(|(display, source)| {
                    // Under the last structure, what was valid stays valid.
                    !files[display].exports.as_ref().is_some_and(|c| {
                        c.stands(source.hash, same_structure, |deps| memo.all_same(table, deps, ids[display]))
                    })
                })
                .cloned()
                .collect()
        });
        figures.exports_derived = to_infer.len();
        let mut to_infer: Vec<(String, Source, Option<WalkedTree>)> = to_infer
            .into_iter()
            .map(|(display, source)| {
                let tree = trees.remove(&display);
                (display, source, tree)
            })
            .collect();
        largest_first(&mut to_infer, |(_, source, _)| source.bytes.len());
        let keyed = self.outlives_call;
        let numbering = Numbering::new(&self.deps);
        type Derived = (String, Cached<Arc<FileExports>>, Option<Inferred>, Option<WalkedTree>, Option<Unsettled>);
        let derived: Vec<Derived> = analysis::on_analysis_thread(|| {
            to_infer
                .into_par_iter()
                .with_max_len(1)
                .map(|(display, source, tree)| {
                    let display = &display;
                    // Only what folding may change is asked again in a
                    // call whose model is dropped after it.
                    let link = ProjectLink::new(structure.clone(), ids[display]).keeping(keyed);
                    let tree = tree.or_else(|| walked(display, &source));
                    let found =
                        crate::infer::on_copy(tree.as_ref(), &source.bytes, settings.target_ruby, |parsed, walk| {
                            analysis::exports_of_parsed(parsed, walk, env, link)
                        });
                    // This call asks only whether the folded exports read
                    // the same (`keep_standing`). A kept model keys the
                    // exports by all they read, too: settled after the
                    // answer (`unsettled`).
                    let (asked, all) = split_reads(found.reads, keyed);
                    let deps = memo.record(&numbering, &asked, ids[display]);
                    let pass_one = found.pass_one.map(|pass| {
                        let first = pass.first.map(|mut first| {
                            first.recording.renumber(&asked);
                            first
                        });
                        let (pass_asked, reads) = split_reads(pass.reads, keyed);
                        let deps = memo.record(&numbering, &pass_asked, ids[display]);
                        PassOneFound { deps, table: pass.table, first, reads }
                    });
                    let windows = found.recording.filter(|r| !r.is_empty()).map(|mut recording| {
                        recording.renumber(&asked);
                        recording
                    });
                    let unsettled = all.clone().map(|reads| Unsettled {
                        display: display.clone(),
                        hash: source.hash,
                        reader: ids[display],
                        memo: memo.clone(),
                        reads: Reads::Exports(reads),
                    });
                    let inferred = found.types.map(|types| Inferred { types, pass_one, windows, reads: all });
                    let value = Arc::new(found.exports);
                    let cached = Cached { hash: source.hash, deps, value, validated: 0, settled: false };
                    (display.clone(), cached, inferred, tree, unsettled)
                })
                .collect()
        });
        let new = numbering.into_new();
        self.deps.extend(new);
        let mut inferred: HashMap<String, Inferred> = HashMap::default();
        let mut same_exports = true;
        for (display, cached, found, tree, unsettled) in derived {
            if let Some(tree) = tree {
                trees.insert(display.clone(), tree);
            }
            self.keep_unsettled(unsettled);
            if let Some(state) = self.files.get_mut(&display) {
                same_exports &= state.exports.as_ref().is_some_and(|old| old.value == cached.value);
                state.exports = Some(cached);
                state.dirty = true;
            }
            if let Some(found) = found {
                inferred.insert(display, found);
            }
        }
        drop(memo);

        figures.phases.exports = lap(&mut phase);
        if same_structure && same_exports && same_rules {
            // Nothing another file reads changed: the last index stands,
            // and reports validated against it stay valid.
            drop(interfaces);
            figures.phases.fold = lap(&mut phase);
            self.evict();
            figures.files_cached = self.files.len();
            figures.project_files = present.len();
            figures.index = "cut off";
            figures.millis = looked_millis + started.elapsed().as_secs_f64() * 1e3;
            note_figures(&figures);
            let last = self.last.as_mut().expect("same files as the last call");
            last.files = key;
            let project = last.project(ids, present, figures).with_trees(trees);
            return project.keep_standing(inferred, &self.files, &self.deps);
        }
        // 5. Fold them in (the analyses in `check` read this).
        let exports: Vec<Option<&FileExports>> =
            present.iter().map(|(display, _)| self.files[display].exports.as_ref().map(|c| &*c.value)).collect();
        // A call whose model is dropped after it keeps no structure for the
        // next: the index is folded into the structure itself, uncopied.
        let (folded, structure) = if self.outlives_call {
            ((*structure).clone(), Some(structure))
        } else {
            (Arc::try_unwrap(structure).unwrap_or_else(|shared| (*shared).clone()), None)
        };
        let files = &self.files;
        let (index, facts) = analysis::on_analysis_thread(|| {
            rayon::join(
                || folded.with_exports(&exports),
                // Beside the fold, whose own parallel work leaves a thread
                // idle at times: merging the rules' facts is serial.
                || {
                    present
                        .iter()
                        .map(|(display, _)| files[display].facts.rules.clone())
                        .fold(ProjectFacts::default(), ProjectFacts::merge)
                        .settle()
                },
            )
        });
        let index = Arc::new(index);
        drop(exports);
        drop(interfaces);
        let mut hasher = FxHasher::default();
        for (display, _) in &present {
            self.files[display].facts.shape_fingerprint.hash(&mut hasher);
        }
        let facts_fingerprint = hasher.finish();

        figures.phases.fold = lap(&mut phase);
        self.evict();
        figures.files_cached = self.files.len();
        figures.project_files = present.len();
        figures.index = if same_structure { "refolded" } else { "rebuilt" };
        figures.millis = looked_millis + started.elapsed().as_secs_f64() * 1e3;
        note_figures(&figures);
        self.generation += 1;
        let facts = Arc::new(facts);
        self.last = structure.map(|structure| Last {
            files: key,
            structure,
            index: index.clone(),
            facts: facts.clone(),
            facts_fingerprint,
            generation: self.generation,
        });
        Project::new(index, facts, facts_fingerprint, ids, present, self.generation, figures)
            .with_trees(trees)
            .keep_standing(inferred, &self.files, &self.deps)
    }

    /// Checks `targets` as files of `project`, reusing each file's report
    /// while its content, the project's facts and every project fact its
    /// analysis read are unchanged. Unreadable targets report so.
    pub fn check(
        &mut self,
        project: &mut Project,
        targets: &[Target],
        cwd: &Path,
        settings: &Settings,
    ) -> Vec<FileReport> {
        let started = Instant::now();
        let memo = &project.fingerprints;
        let facts_fingerprint = project.facts_fingerprint;
        let mut work: Vec<Reanalysis> = Vec::new();
        let mut out: Vec<Option<FileReport>> = vec![None; targets.len()];
        let generation = project.generation;
        let keyed = self.outlives_call;
        // Reports of an earlier index stand by what they read: all of it
        // must be listed.
        if self.unsettled_reports_of.is_some_and(|made| made != generation) {
            self.settle();
        }
        // Whether each target's report stands, worked out on the analysis
        // threads (every report's reads are looked at after a change).
        let (files, table) = (&self.files, &self.deps);
        let standing: Vec<bool> = analysis::on_analysis_thread(|| {
            targets
                .par_iter()
                .map(|target| {
                    let Target::File { display } = target else { return false };
                    let Some(source) = project.sources.get(display) else { return false };
                    files.get(display).and_then(|state| state.report.as_ref()).is_some_and(|cached| {
                        cached.stands(source.hash, cached.validated == generation, |deps| {
                            deps.first()
                                .is_some_and(|(id, print)| *print == facts_fingerprint && *table.dep(*id) == Dep::Facts)
                                && memo.all_same(table, &deps[1..], project.ids[display])
                        })
                    })
                })
                .collect()
        });
        for (at, target) in targets.iter().enumerate() {
            let display = match target {
                Target::File { display } => display,
                Target::Missing { display, reason } => {
                    out[at] = Some(analysis::unreadable(display, reason));
                    continue;
                }
            };
            let Some(source) = project.sources.get(display) else {
                let reason = match std::fs::metadata(cwd.join(display)) {
                    Ok(_) => "cannot be read".to_string(),
                    Err(error) => crate::files::describe_io_error(&error),
                };
                out[at] = Some(analysis::unreadable(display, &reason));
                continue;
            };
            let reusable = self.files.get_mut(display).and_then(|state| state.report.as_mut()).filter(|_| standing[at]);
            // Valid for this index: later calls on it need not look again.
            let reusable = reusable.map(|cached| {
                cached.validated = generation;
                &*cached
            });
            match reusable {
                Some(cached) => out[at] = Some((*cached.value).clone()),
                None => {
                    // What the export pass found carries what it read: the
                    // report read all of that too.
                    let (prior, taken) = match project.take_reuse(display) {
                        Some(reuse) => (Some(reuse.prior), reuse.reads),
                        None => (None, None),
                    };
                    let tree = project.take_tree(display);
                    work.push((at, display.clone(), source.clone(), tree, prior, taken))
                }
            }
        }
        project.inferred.lock().unwrap_or_else(|p| p.into_inner()).clear();
        project.figures.reinferred = work.iter().filter(|w| !matches!(w.4, Some(Prior::Types(_)))).count();
        project.figures.pass_one_reused = work
            .iter()
            .filter(|w| match &w.4 {
                Some(Prior::PassOne(_)) => true,
                Some(Prior::Windows(windows)) => windows.table_stands,
                _ => false,
            })
            .count();
        project.figures.defs_standing = work
            .iter()
            .map(|w| match &w.4 {
                Some(Prior::Windows(windows)) => windows.recording.windows.len(),
                _ => 0,
            })
            .sum();
        project.figures.pass_one_defs_standing = work
            .iter()
            .map(|w| match &w.4 {
                Some(Prior::Windows(windows)) => {
                    windows.first.as_ref().map_or(0, |first| first.recording.windows.len())
                }
                _ => 0,
            })
            .sum();
        project.figures.reanalysed = work.len();
        largest_first(&mut work, |w| w.2.bytes.len());
        let facts = project.facts.clone();
        let done: Vec<Reanalysed> = analysis::on_analysis_thread(|| {
            work.into_par_iter()
                .with_max_len(1)
                .map(|(at, display, source, mut tree, types, taken)| {
                    let link = project.link(&display).map(|link| link.keeping(keyed));
                    debug_assert!(tree.as_ref().is_none_or(|tree| tree.is_of(&source.bytes)));
                    let (report, reads) = analysis::analyse_with_link(
                        &display,
                        &source.bytes,
                        tree.as_mut(),
                        settings,
                        &facts,
                        link,
                        types,
                    );
                    // A kept model keys the report by all it read, and all
                    // the part of the export pass it took read: settled
                    // after the answer (`unsettled`).
                    let unsettled = keyed.then(|| Unsettled {
                        display: display.clone(),
                        hash: source.hash,
                        reader: project.ids[&display],
                        memo: project.fingerprints.clone(),
                        reads: Reads::Report { reads, taken, facts: facts_fingerprint },
                    });
                    (at, display, source.hash, report, unsettled)
                })
                .collect()
        });
        if keyed && !done.is_empty() {
            self.unsettled_reports_of = Some(project.generation);
        }
        for (at, display, hash, report, unsettled) in done {
            // Unkeyed reports are never looked at again: not kept at all.
            if let Some(state) = self.files.get_mut(&display).filter(|_| keyed) {
                let (value, generation) = (Arc::new(report.clone()), project.generation);
                state.report = Some(Cached { hash, deps: Vec::new(), value, validated: generation, settled: false });
                state.dirty = true;
            }
            self.keep_unsettled(unsettled);
            out[at] = Some(report);
        }
        project.figures.phases.analysis = started.elapsed().as_secs_f64() * 1e3;
        project.figures.millis += project.figures.phases.analysis;
        note_figures(&project.figures);
        out.into_iter().map(|r| r.expect("every target reported")).collect()
    }

    /// Numbers and prints the reads of the answers earlier calls left
    /// unsettled, and keys those answers by them (see `unsettled`).
    pub fn settle(&mut self) {
        self.unsettled_reports_of = None;
        if self.unsettled.is_empty() {
            return;
        }
        let unsettled: Vec<Unsettled> = std::mem::take(&mut self.unsettled).into_values().collect();
        let numbering = Numbering::new(&self.deps);
        let settled = analysis::on_analysis_thread(|| unsettled::settle_all(&unsettled, &numbering));
        let new = numbering.into_new();
        self.deps.extend(new);
        for (reads, deps) in unsettled.into_iter().zip(settled) {
            let Some(state) = self.files.get_mut(&reads.display) else { continue };
            match (reads.is_report(), state.report.as_mut(), state.exports.as_mut()) {
                (true, Some(report), _) => report.settle(reads.hash, deps),
                (false, _, Some(exports)) => exports.settle(reads.hash, deps),
                _ => {}
            }
        }
    }

    /// Keeps an answer's reads to settle, in place of those of the value
    /// it replaced.
    fn keep_unsettled(&mut self, unsettled: Option<Unsettled>) {
        if let Some(reads) = unsettled {
            self.unsettled.insert((reads.display.clone(), reads.is_report()), reads);
        }
    }

    /// Drops the least recently used files past the capacity, and files
    /// of earlier calls that no longer exist.
    fn evict(&mut self) {
        let tick = self.tick;
        let cwd = self.context.as_ref().map(|c| c.cwd.clone()).unwrap_or_default();
        let vanished = &mut self.vanished;
        self.files.retain(|display, state| {
            let keep = state.used == tick || cwd.join(display).is_file();
            if !keep {
                vanished.push(display.clone());
            }
            keep
        });
        if self.files.len() > self.capacity {
            let mut by_age: Vec<(u64, String)> = self.files.iter().map(|(d, s)| (s.used, d.clone())).collect();
            by_age.sort();
            let excess = self.files.len() - self.capacity;
            for (_, display) in by_age.into_iter().take(excess) {
                self.files.remove(&display);
            }
        }
        // By the paths' bytes, as the store keys them.
        let keep: rustc_hash::FxHashSet<std::ffi::OsString> =
            self.files.keys().map(|d| cwd.join(d).into_os_string()).collect();
        self.sources.retain(|path| keep.contains(path.as_os_str()));
    }
}

/// A target to analyse again: its place, path, content, what of the export
/// pass's inference stands, and what that part read.
type Reanalysis = (usize, String, Source, Option<WalkedTree>, Option<Prior>, Option<Arc<[Dep]>>);

/// What the export pass inferred of a file: its types, and pass one's
/// table with what pass one read (recorded as the exports' reads are).
struct Inferred {
    types: FileTypes,
    pass_one: Option<PassOneFound>,
    /// Each `def`'s walk (its reads are among the exports').
    windows: Option<Recording>,
    /// All the export pass read, for a report keyed by what it read (a
    /// kept model's; `None` in a call whose model is dropped after it).
    reads: Option<Arc<[Dep]>>,
}

/// Pass one as the export pass ran it.
struct PassOneFound {
    /// What it read that folding the exports in may change.
    deps: Recorded,
    table: Option<IvarTable>,
    first: Option<FirstPass>,
    /// All it read (as [`Inferred::reads`]).
    reads: Option<Arc<[Dep]>>,
}

/// Reads, numbered, with what each read as.
type Recorded = Vec<(DepId, u64)>;

/// What a file's analysis takes from the export pass, and what that read.
pub struct Reuse {
    prior: Prior,
    reads: Option<Arc<[Dep]>>,
}

/// A target analysed again: its place, path, content hash, report and (a
/// kept model's) its reads to settle.
type Reanalysed = (usize, String, ContentHash, FileReport, Option<Unsettled>);

/// A file's reads: what the call that made them asks of them (only what
/// folding the exports in may change; sorted, as windows find their reads
/// in it), and all of them for a kept model (listed in no order).
fn split_reads(reads: Vec<Dep>, keyed: bool) -> (Vec<Dep>, Option<Arc<[Dep]>>) {
    if !keyed {
        return (reads.into_iter().filter(Dep::reads_exports).collect(), None);
    }
    let mut asked: Vec<Dep> = reads.iter().filter(|dep| dep.reads_exports()).cloned().collect();
    asked.sort_unstable();
    asked.dedup();
    (asked, Some(reads.into()))
}

/// Orders work by size, the largest first, each item a task of its own: a
/// large file started last would keep one thread busy after the others
/// ran out of work (rdoc's generated Markdown parser takes 100 ms).
fn largest_first<T>(work: &mut [T], size: impl Fn(&T) -> usize) {
    work.sort_by_key(|item| std::cmp::Reverse(size(item)));
}

/// Frees `value` on a thread of its own, at once: a whole model (every
/// file's facts, exports and report, the indexes) takes a large project
/// tens of milliseconds to free, which the call that replaces it need not
/// wait for; freed later, it would still be held while the new one grows.
fn free_beside<T: Send + 'static>(value: T) {
    // With no thread to be had, the closure and `value` are freed here.
    let _ = std::thread::Builder::new().name("rigor-free".into()).spawn(move || drop(value));
}

/// What a worker does once it has answered a call, when no request is
/// waiting already: settles the reads its answers are keyed by, so the
/// next call finds them settled. (A request sent at once, say a script's,
/// settles them itself if it needs them: not when it starts afresh, after
/// a `sig/` edit.)
pub fn after_answer(idle: bool) {
    crate::failpoint::at_command("after-answer", &[]);
    if idle {
        for (_, workspace) in WARM.lock().unwrap_or_else(|p| p.into_inner()).iter_mut() {
            workspace.settle();
        }
    }
}

/// Milliseconds since `phase`, which moves on to now.
fn lap(phase: &mut Instant) -> f64 {
    let now = Instant::now();
    let millis = (now - *phase).as_secs_f64() * 1e3;
    *phase = now;
    millis
}

fn facts_of<'t>(
    display: &str,
    parsed: &'t ParsedFile<'t>,
    walk: Option<ProgramIndex<'t>>,
    env: &Environment,
) -> FileFacts {
    let (interface, rules) = analysis::facts_of_parsed(display, parsed, walk, env);
    let shape_fingerprint = {
        let mut hasher = FxHasher::default();
        rules.shape_text().hash(&mut hasher);
        hasher.finish()
    };
    FileFacts { interface, rules, shape_fingerprint }
}

/// A fingerprint of a file's rules facts, so an unchanged one is recognised.
fn rules_print(rules: &ProjectFacts) -> u64 {
    let mut hasher = FxHasher::default();
    format!("{rules:?}").hash(&mut hasher);
    hasher.finish()
}

/// The project the command's targets belong to, up to date: what
/// `type-of`, `annotate`, `coverage` and `sig-gen` infer files against,
/// with the targets' parses kept for them ([`Project::take_parse`]).
/// `config.settings.signatures` must be loaded.
pub fn project_of(config: &crate::config::Config, targets: &[Target], cwd: &Path) -> Project {
    with_project(config, targets, cwd, |_, project| project)
}

/// Runs `work` with the project for `targets` and the workspace that
/// holds it (for [`Workspace::per_file`]).
pub fn with_project<T>(
    config: &crate::config::Config,
    targets: &[Target],
    cwd: &Path,
    work: impl FnOnce(&mut Workspace, Project) -> T,
) -> T {
    let files = crate::files::project_files(config, targets, cwd);
    with_workspace(cwd, config.cache_dir.as_deref(), |workspace| {
        let looked = workspace.look(&files, cwd).keeping_trees_of(targets);
        let project = workspace.project_looked(looked, cwd, &config.settings);
        work(workspace, project)
    })
}

/// Runs `work` with the workspace for `cwd`: the worker's warm one, kept
/// across calls, or a fresh one for a one-shot CLI run. With a cache
/// directory, what the workspace lacks is read from it first and what
/// `work` derived is written to it after (see `persist`).
pub fn with_workspace<T>(cwd: &Path, cache_dir: Option<&Path>, work: impl FnOnce(&mut Workspace) -> T) -> T {
    let work = |workspace: &mut Workspace| {
        workspace.use_cache_dir(cache_dir);
        let out = work(workspace);
        workspace.flush();
        out
    };
    if !KEEP_WARM.load(std::sync::atomic::Ordering::Relaxed) {
        let mut workspace = Workspace { outlives_call: cache_dir.is_some(), ..Workspace::default() };
        let out = work(&mut workspace);
        if ONE_SHOT.load(std::sync::atomic::Ordering::Relaxed) {
            // The process exits next: freeing the whole model first would
            // only delay it (1% of a cold check's instructions, serially).
            std::mem::forget(workspace);
        }
        return out;
    }
    let mut kept = WARM.lock().unwrap_or_else(|p| p.into_inner());
    let at = match kept.iter().position(|(root, _)| root == cwd) {
        Some(at) => at,
        None => {
            if kept.len() >= WARM_ROOTS {
                free_beside(kept.remove(0));
            }
            kept.push((cwd.to_path_buf(), Workspace::default()));
            kept.len() - 1
        }
    };
    // Most recently used last.
    let entry = kept.remove(at);
    kept.push(entry);
    let last = kept.len() - 1;
    work(&mut kept[last].1)
}

/// The cache figures of the last project a command brought up to date
/// (the worker reports them in its result's `meta`).
pub fn take_last_figures() -> Option<CacheFigures> {
    LAST_FIGURES.lock().unwrap_or_else(|p| p.into_inner()).take()
}

fn note_figures(figures: &CacheFigures) {
    *LAST_FIGURES.lock().unwrap_or_else(|p| p.into_inner()) = Some(figures.clone());
}

static LAST_FIGURES: Mutex<Option<CacheFigures>> = Mutex::new(None);

/// Drops what a command is done with, unless the process exits right
/// after the command (see [`one_shot_process`]): a cold check's project
/// index is some hundred thousand allocations to free, serially.
pub fn discard<T>(value: T) {
    if ONE_SHOT.load(std::sync::atomic::Ordering::Relaxed) && !KEEP_WARM.load(std::sync::atomic::Ordering::Relaxed) {
        std::mem::forget(value);
    }
}

/// This process runs one command and exits (the `rigor` binary, not a
/// test calling the CLI in-process): its workspace need not be freed.
pub fn one_shot_process() {
    ONE_SHOT.store(true, std::sync::atomic::Ordering::Relaxed);
}

static ONE_SHOT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The worker keeps its workspaces; a CLI run does not.
pub fn keep_warm() {
    KEEP_WARM.store(true, std::sync::atomic::Ordering::Relaxed);
}

static KEEP_WARM: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
static WARM: Mutex<Vec<(PathBuf, Workspace)>> = Mutex::new(Vec::new());
/// Roots a worker keeps warm at once.
const WARM_ROOTS: usize = 4;

#[cfg(test)]
mod tests {
    use super::*;

    fn checked(workspace: &mut Workspace, root: &Path) -> String {
        checked_files(workspace, root, &["a.rb", "b.rb", "c.rb"])
    }

    fn checked_files(workspace: &mut Workspace, root: &Path, names: &[&str]) -> String {
        let targets = targets(names);
        let settings = Settings::default();
        let mut project = workspace.project(&targets, root, &settings);
        format!("{:?}", workspace.check(&mut project, &targets, root, &settings))
    }

    fn targets(names: &[&str]) -> Vec<Target> {
        names.iter().map(|d| Target::File { display: d.to_string() }).collect()
    }

    #[test]
    fn a_call_keeps_the_parses_of_its_targets_within_the_budget() {
        let present = [("a.rb", 40), ("b.rb", 30), ("c.rb", 20), ("d.rb", 10)].map(|(display, size)| {
            (display.to_string(), Source { bytes: vec![b'#'; size].into(), hash: size as u128 })
        });
        let looked = || Looked {
            present: present.to_vec(),
            reread: 0,
            rehashed: 0,
            millis: 0.0,
            keep_trees: HashSet::default(),
            meanwhile: None,
        };
        let kept = |looked: Looked| -> Vec<String> {
            let mut kept: Vec<String> = looked.keep_trees.into_iter().collect();
            kept.sort();
            kept
        };
        // Targets only, and only those that were read ("gone.rb" was not).
        let asked = targets(&["a.rb", "c.rb", "gone.rb"]);
        assert_eq!(kept(looked().keeping_trees_within(&asked, 1000)), ["a.rb", "c.rb"]);
        // In the order asked, while they fit: b (30) does not after a (40).
        let asked = targets(&["a.rb", "b.rb", "c.rb", "d.rb"]);
        assert_eq!(kept(looked().keeping_trees_within(&asked, 65)), ["a.rb", "c.rb"]);
        assert!(kept(looked().keeping_trees_within(&asked, 5)).is_empty());
    }

    #[test]
    fn a_check_on_the_parses_kept_answers_as_one_that_parses_each_pass() {
        let dir = tempfile::tempdir().expect("scratch");
        let root = dir.path();
        let write = |name: &str, text: &str| std::fs::write(root.join(name), text).expect("write");
        write("a.rb", "class Price < Object\n  def label = \"p\"\n  def n = @n\nend\n");
        write("b.rb", "class Use\n  def m = Price.new.label.bogus\nend\n");
        write("c.rb", "class Other\n  def n = Price.new.lable\nend\n");
        write("d.rb", "class Broken\n  def broken(\nend\n");
        let names = ["a.rb", "b.rb", "c.rb", "d.rb"];
        let settings = Settings::default();
        let kept_and_checked = |workspace: &mut Workspace| -> (usize, String) {
            let asked = targets(&names);
            let looked = workspace.look(&asked, root).keeping_trees_of(&asked);
            let mut project = workspace.project_looked(looked, root, &settings);
            let kept = project.trees.get_mut().expect("unpoisoned").len();
            let reports = workspace.check(&mut project, &asked, root, &settings);
            assert!(project.trees.get_mut().expect("unpoisoned").is_empty(), "the analyses took every tree");
            (kept, format!("{reports:?}"))
        };
        let mut warm = Workspace::with_capacity(100);
        let (kept, answer) = kept_and_checked(&mut warm);
        assert_eq!(kept, 4, "every target, the one that does not parse too");
        let parsed_each_pass = checked_files(&mut Workspace::with_capacity(100), root, &names);
        assert!(answer.contains("bogus") && answer.contains("lable") && answer.contains("parse_errors: 3"), "{answer}");
        assert_eq!(answer, parsed_each_pass);
        // Warm, after an edit: only what is parsed again is kept.
        write("b.rb", "class Use\n  def m = Price.new.label.bogus2\nend\n");
        let (kept, answer) = kept_and_checked(&mut warm);
        assert_eq!(kept, 1, "b.rb alone was parsed");
        assert_eq!(answer, checked_files(&mut Workspace::with_capacity(100), root, &names));
    }

    #[test]
    fn a_did_you_mean_follows_the_methods_other_files_give_the_class() {
        // The suggestion reads the class's whole method tables, not the
        // missing name alone: a method another file adds must change it
        // warm as cold, though the file calling it did not change.
        let dir = tempfile::tempdir().expect("scratch");
        let root = dir.path();
        let write = |name: &str, text: &str| std::fs::write(root.join(name), text).expect("write");
        write("a.rb", "class Cart < Object\n  def total = 1\nend\n");
        write("b.rb", "class Cart\n  def count = 2\nend\n");
        write("c.rb", "class Use\n  def m = Cart.new.totl\nend\n");
        let mut warm = Workspace::with_capacity(100);
        let answer = checked(&mut warm, root);
        assert!(answer.contains("did you mean `total`?"), "{answer}");
        write("b.rb", "class Cart\n  def count = 2\n  def tot = 3\nend\n");
        let answer = checked(&mut warm, root);
        assert!(answer.contains("did you mean `total` or `tot`?"), "{answer}");
        assert_eq!(answer, checked(&mut Workspace::with_capacity(100), root));
    }

    #[test]
    fn a_command_takes_the_kept_parse_of_the_bytes_it_read_once_and_types_as_on_a_fresh_one() {
        let dir = tempfile::tempdir().expect("scratch");
        let root = dir.path();
        let write = |name: &str, text: &str| std::fs::write(root.join(name), text).expect("write");
        write("a.rb", "class Price < Object\n  LIMIT = 100\n  def label = \"p\"\nend\n");
        write("b.rb", "class Use\n  def m = Price.new.label\n  def n = Price::LIMIT\nend\nUse.new.m\n");
        let settings = Settings::default();
        let b = std::fs::read(root.join("b.rb")).expect("read");
        let signatures = analysis::signatures_of(&settings);
        // What the file's expressions are typed as, in order.
        let typed = |project: &Project, kept: Option<&mut WalkedTree>| -> String {
            let (link, prior) = project.inference_inputs("b.rb", &b);
            crate::infer::on_parse(kept, &b, settings.target_ruby, |parsed, walk| {
                let types = crate::infer::types_in_project(parsed, &signatures.env, link, prior, walk);
                let nodes = crate::syntax::walk::all_nodes(&parsed.root());
                let shown: Vec<String> = nodes.iter().filter_map(|n| types.of(n)).map(crate::types::display).collect();
                shown.join(", ")
            })
        };
        let mut workspace = Workspace::with_capacity(100);
        let looked = workspace.look(&targets(&["a.rb", "b.rb"]), root).keeping_trees_of(&targets(&["b.rb"]));
        let project = workspace.project_looked(looked, root, &settings);
        let a = std::fs::read(root.join("a.rb")).expect("read");
        assert!(project.take_parse("a.rb", &a).is_none(), "not a target: not kept");
        assert!(project.take_parse("b.rb", b"x = 1\n").is_none(), "other bytes: parsed again");
        let mut kept = project.take_parse("b.rb", &b).expect("the target's parse was kept");
        assert!(project.take_parse("b.rb", &b).is_none(), "taken once");
        let on_kept = typed(&project, Some(&mut kept));
        // Known only from a.rb: the class, its constant, its method's return.
        assert!(on_kept.contains(", Price,") && on_kept.contains("100") && on_kept.contains("\"p\""), "{on_kept}");
        let fresh = Workspace::with_capacity(100).project(&targets(&["a.rb", "b.rb"]), root, &settings);
        assert_eq!(on_kept, typed(&fresh, None));
    }

    #[test]
    fn a_kept_models_answers_are_keyed_by_all_they_read_once_settled_and_never_before() {
        let dir = tempfile::tempdir().expect("scratch");
        let root = dir.path();
        let write = |name: &str, text: &str| std::fs::write(root.join(name), text).expect("write");
        write("a.rb", "class Price < Object\n  def label = \"p\"\nend\n");
        write("b.rb", "class Use\n  def m = Price.new.lable\nend\n");
        write("c.rb", "class Other\n  def n = 1\nend\n");
        let settings = Settings::default();
        let asked = targets(&["a.rb", "b.rb", "c.rb"]);
        let mut warm = Workspace::with_capacity(100);
        let mut project = warm.project(&asked, root, &settings);
        let first = format!("{:?}", warm.check(&mut project, &asked, root, &settings));
        assert!(first.contains("lable"), "{first}");
        // Answered, not yet settled: b's report lists nothing it read.
        let report = |warm: &Workspace| warm.files["b.rb"].report.as_ref().map(|c| (c.settled, c.deps.len()));
        assert_eq!(report(&warm), Some((false, 0)));
        assert!(!warm.unsettled.is_empty());
        // Checked again on the same index before settling: each report is
        // valid as it was, with no read looked at.
        let again = format!("{:?}", warm.check(&mut project, &asked, root, &settings));
        assert_eq!(again, first);
        assert_eq!(project.figures.reanalysed, 0);
        assert!(!warm.unsettled.is_empty(), "nothing needed settling");
        // Where its reads would decide, an unsettled answer never stands,
        // however they would read.
        let cached = warm.files["b.rb"].report.as_ref().expect("report");
        assert!(!cached.stands(cached.hash, false, |_| true));
        assert!(cached.stands(cached.hash, true, |_| false));
        drop(project);
        warm.settle();
        assert!(warm.unsettled.is_empty());
        let (settled, listed) = report(&warm).expect("b has a report");
        assert!(settled && listed > 1, "the rules' facts and what b read of Price: {listed}");
        let lable = Dep::Method("Price".into(), "lable".to_string());
        let b_read = &warm.files["b.rb"].report.as_ref().expect("report").deps;
        assert!(b_read.iter().any(|(id, _)| *warm.deps.dep(*id) == lable), "b is keyed by Price#lable");
        assert!(warm.files["b.rb"].exports.as_ref().is_some_and(|c| c.settled), "its exports too");
        // Settled, the reads decide: Price gains `lable`, and only b, which
        // read it, is analysed again (a's content changed too).
        write("a.rb", "class Price < Object\n  def label = \"p\"\n  def lable = 1\nend\n");
        let mut project = warm.project(&asked, root, &settings);
        let after = format!("{:?}", warm.check(&mut project, &asked, root, &settings));
        assert!(!after.contains("lable"), "{after}");
        assert_eq!(project.figures.reanalysed, 2, "a (edited) and b (read Price#lable)");
        assert_eq!(after, checked(&mut Workspace::with_capacity(100), root));
    }

    #[test]
    fn work_meanwhile_runs_once_per_structure_built_and_changes_no_answer() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static RAN: AtomicUsize = AtomicUsize::new(0);
        let dir = tempfile::tempdir().expect("scratch");
        let root = dir.path();
        let write = |name: &str, text: &str| std::fs::write(root.join(name), text).expect("write");
        write("a.rb", "class Price < Object\n  def label = \"p\"\nend\n");
        write("b.rb", "class Use\n  def m = Price.new.lable\nend\n");
        let names = ["a.rb", "b.rb"];
        let settings = Settings::default();
        let counted = |workspace: &mut Workspace| -> String {
            let asked = targets(&names);
            let looked = workspace.look(&asked, root).meanwhile(|| {
                RAN.fetch_add(1, Ordering::SeqCst);
            });
            let mut project = workspace.project_looked(looked, root, &settings);
            format!("{:?}", workspace.check(&mut project, &asked, root, &settings))
        };
        // Spawned, not awaited: looked for until it has run (or long past).
        let ran_by = |count: usize| {
            let deadline = Instant::now() + std::time::Duration::from_secs(20);
            while RAN.load(Ordering::SeqCst) < count && Instant::now() < deadline {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            RAN.load(Ordering::SeqCst)
        };
        let mut warm = Workspace::with_capacity(100);
        let answer = counted(&mut warm);
        assert_eq!(ran_by(1), 1, "the structure was built: the work ran");
        assert_eq!(answer, checked_files(&mut Workspace::with_capacity(100), root, &names));
        assert!(answer.contains("lable"), "{answer}");
        // Nothing changed: the structure stands, and nothing runs.
        assert_eq!(counted(&mut warm), answer);
        // A body edit keeps the structure too.
        write("b.rb", "class Use\n  def m = Price.new.label\nend\n");
        let edited = counted(&mut warm);
        assert_eq!(edited, checked_files(&mut Workspace::with_capacity(100), root, &names));
        // A new class is a new structure.
        write("b.rb", "class Used\n  def m = Price.new.label\nend\n");
        counted(&mut warm);
        assert_eq!(ran_by(2), 2, "built again: the work ran again");
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert_eq!(RAN.load(Ordering::SeqCst), 2, "and only when built");
    }

    #[test]
    fn a_warm_answer_after_the_facts_read_are_renumbered_is_a_cold_one() {
        let dir = tempfile::tempdir().expect("scratch");
        let root = dir.path();
        let write = |name: &str, text: &str| std::fs::write(root.join(name), text).expect("write");
        write("a.rb", "class Price < Object\n  def label = \"p\"\nend\n");
        write("b.rb", "class Use\n  def m = Price.new.label.bogus\nend\n");
        write("c.rb", "class Other\n  def n = Price.new.lable\nend\n");
        let mut warm = Workspace::with_capacity(100);
        warm.deps = DepTable::renumbering_often();
        let before = checked(&mut warm, root);
        assert!(before.contains("lable") && before.contains("bogus"), "{before}");
        // (Content, not stat, tells the edit: same size, maybe the same tick.)
        write("a.rb", "class Price < Object\n  def label = 1\n  def lable = 2\nend\n");
        let warm_answer = checked(&mut warm, root);
        assert!(warm.deps.renumberings() > 0, "the table was built again");
        let cold_answer = checked(&mut Workspace::with_capacity(100), root);
        assert_eq!(warm_answer, cold_answer);
        assert!(!warm_answer.contains("lable"), "{warm_answer}");
        // And once more, on renumbered facts alone: nothing changed.
        assert_eq!(checked(&mut warm, root), cold_answer);
    }
}
