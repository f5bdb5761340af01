//! Reusing the export pass's inference of single `def`s in a file's
//! analysis. A file whose exports read another file's method return is
//! inferred again once the exports are folded in; most of its `def`s read
//! nothing that changed, and a cold run inferred each of them already.
//!
//! The export pass records, per `def` it infers (a window), the project
//! facts read in it, and what else of the file it used, in order: other
//! `def`s' outcomes, constants, pass one's entries. The workspace keeps
//! the windows whose reads all answer the same against the folded index.
//! The analysis then takes such a `def`'s results at the very point a
//! cold inference would infer it, after making sure that what it used came
//! out the same, so the answer is the one a cold inference gives
//! (`RIGOR_REPLAY_CHECK` compares the two; `tests/def_replay.rs`).
//!
//! A window is not kept when its outcome may depend on the order the file
//! was walked in: a recursion through other `def`s or a constant reached
//! it, a node inside some `def` was recorded by another walk, or it spent
//! the loop budget.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::{FileTypes, IvarTable, NodeKey};
use crate::model::index::Dep;
use crate::types::{Name, Type};

/// Something of the file a window used, in the order first used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Use {
    /// A `def`'s return, yields and ivar facts, by its start offset.
    Def(usize),
    /// A constant's value, evaluated before the window asked.
    Const(Name),
    /// What pass one's table says of an instance variable (and whether
    /// there is a table at all).
    Ivar(super::IvarKey),
    /// An instance variable read while pass one had not learned the
    /// file's writes: answered `untyped` then, otherwise in pass two.
    Unlearned,
}

/// What pass one's walk of a `def` left besides types, in the order the
/// walk did it (each is added to something order may show in).
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// An instance variable assigned, or grown by a call, by the class and
    /// side of the frame it was in (the file's families map it to its key).
    Write(Name, super::Side, String, Type),
    Mutation(Name, super::Side, String, String, Vec<Type>),
    /// A call of a method: where it was made, and what it passed.
    Call((Name, super::Side, String), crate::model::params::EntrySite, crate::model::params::CallShape),
    /// A name something may call with arguments no call site shows.
    Escape(String),
}

impl Event {
    /// What pass one learns of instance variables (the rest is calls).
    pub fn is_ivars(&self) -> bool {
        matches!(self, Event::Write(..) | Event::Mutation(..))
    }
}

/// One `def`'s inference as the export pass walked it.
#[derive(Debug, Clone)]
pub struct Window {
    /// The facts it read, by number in the recording's `deps` (those of
    /// `def`s inferred within it included).
    pub reads: Vec<u32>,
    /// The nodes its own walk recorded (those inside its `def`) with
    /// their types, once the recording is settled (see
    /// [`Recording::settle`]).
    pub nodes: Vec<(NodeKey, Type)>,
    pub uses: Vec<Use>,
    /// Loop rounds its own walk spent.
    pub rounds: usize,
    /// Pass one's: what its own walk assigned and called, in order, each
    /// with how many of `uses` it came after.
    pub events: Vec<(u32, Event)>,
}

/// What a call of a `def` leaves standing of its caller's ivar facts:
/// `None`, none of them; else all but those of the ivars the `def` assigns
/// itself, sorted (empty: all of them).
pub type KeptIvars = Option<std::sync::Arc<[String]>>;

/// What the export pass recorded of a file's `def`s.
#[derive(Default)]
pub struct Recording {
    /// The facts read, each once (until [`Recording::renumber`]).
    pub deps: Vec<Dep>,
    pub windows: HashMap<usize, Window>,
    /// Each walked `def`'s ivar facts at its exit and whether it keeps its
    /// caller's, by start offset (the types carry the rest).
    pub exit_ivars: HashMap<usize, Option<HashMap<String, Type>>>,
    pub keeps_ivars: HashMap<usize, KeptIvars>,
    /// Every `def`'s byte range, by start (none holds another).
    defs: Vec<(u32, u32)>,
}

impl Recording {
    /// Keeps the windows whose reads all stand, by number.
    pub fn keep_standing(mut self, mut stands: impl FnMut(u32) -> bool) -> Recording {
        self.windows.retain(|_, window| window.reads.iter().all(|read| stands(*read)));
        self
    }

    /// Numbers the windows' reads by their place in `reads` (sorted: the
    /// file's reads, which the workspace keeps anyway) and drops the
    /// recording's own list. A read not found there gets `u32::MAX`,
    /// which stands for nothing.
    pub fn renumber(&mut self, reads: &[Dep]) {
        let places: Vec<u32> =
            self.deps.iter().map(|dep| reads.binary_search(dep).map_or(u32::MAX, |at| at as u32)).collect();
        for window in self.windows.values_mut() {
            for read in &mut window.reads {
                *read = places[*read as usize];
            }
        }
        self.deps = Vec::new();
    }

    pub fn is_empty(&self) -> bool {
        self.windows.is_empty()
    }

    /// Moves the types of the windows' nodes out of `types` into the
    /// windows (the nodes inside each one's `def`), and drops the rest of
    /// the node types: what an analysis waiting for its turn holds is
    /// what it may take, not the whole file.
    pub fn settle(&mut self, types: &mut FileTypes) {
        let defs = std::mem::take(&mut self.defs);
        for (key, ty) in std::mem::take(&mut types.types) {
            let after = defs.partition_point(|(start, _)| *start <= key.0);
            let Some(&(start, end)) = after.checked_sub(1).map(|at| &defs[at]) else { continue };
            if key.1 <= end && !around_def(&key, start, end) {
                if let Some(window) = self.windows.get_mut(&(start as usize)) {
                    window.nodes.push((key, ty));
                }
            }
        }
    }
}

/// What an analysis may take from the export pass: its types, the windows
/// that stand, and pass one's table as it learned it.
pub struct Windows {
    pub types: FileTypes,
    pub recording: Recording,
    /// Pass one's table, and whether it stands (its reads answer the same);
    /// if not, pass one runs again, and a window holds only where the
    /// entries it read ([`Use::Ivar`]) are the same.
    pub table: Option<IvarTable>,
    pub table_stands: bool,
    /// Pass one's own windows, for a pass one that runs again.
    pub first: Option<FirstPass>,
}

/// What the export pass's pass one recorded: its windows, and what it
/// found of the file's `def`s and constants. The windows hold their node
/// types (and calls) only until pass two has taken what it may.
pub struct FirstPass {
    pub types: FileTypes,
    pub recording: Recording,
}

/// An open window of the export pass: a `def`'s (`Use::Def`), or a
/// constant's evaluation (`Use::Const`), whose nodes are the class body's.
struct Open {
    what: Use,
    /// A `def`'s byte range, which its own walk records inside.
    range: (u32, u32),
    reads_start: usize,
    uses: Vec<Use>,
    events: Vec<(u32, Event)>,
    kept: bool,
    rounds_start: usize,
    inner_rounds: usize,
}

/// The export pass's recorder.
pub(crate) struct Recorder {
    /// Every `def`'s byte range, by start.
    defs: Vec<(u32, u32)>,
    open: Vec<Open>,
    closed: Vec<(usize, Window)>,
    /// A node was recorded inside a `def` by some other walk: which walk
    /// records last may differ, so no window of the file is kept.
    spoiled: bool,
}

impl Recorder {
    /// A recorder of a walk of the file behind `index`, with the project's
    /// journal of reads started (none outside a project).
    pub fn start(index: &super::ProgramIndex<'_>) -> Option<std::cell::RefCell<Recorder>> {
        index.project.as_ref()?.start_journal();
        let defs = index.defs.iter().map(|def| (def.node.location().start(), def.node.location().end())).collect();
        Some(std::cell::RefCell::new(Recorder::new(defs)))
    }

    pub fn new(mut defs: Vec<(u32, u32)>) -> Recorder {
        defs.sort_unstable();
        Recorder { defs, open: Vec::new(), closed: Vec::new(), spoiled: false }
    }

    /// A node recorded: inside the `def` whose window is innermost, or
    /// (outside every `def` window) inside no `def` at all.
    pub fn key(&mut self, key: NodeKey) {
        match self.open.last() {
            Some(top @ Open { what: Use::Def(_), .. }) => {
                if !(top.range.0 <= key.0 && key.1 <= top.range.1) {
                    self.spoiled = true;
                }
            }
            _ => {
                if self.strictly_inside_def(key) {
                    self.spoiled = true;
                }
            }
        }
    }

    /// Inside a `def`, and not recorded by the walk around it ([`around_def`]).
    fn strictly_inside_def(&self, key: NodeKey) -> bool {
        let after = self.defs.partition_point(|(start, _)| *start <= key.0);
        self.defs[..after].iter().rev().take(4).any(|&(start, end)| key.1 <= end && !around_def(&key, start, end))
    }

    pub fn open(&mut self, def: usize, end: usize, reads_start: usize, rounds: usize) {
        self.open.push(Open {
            what: Use::Def(def),
            range: (def as u32, end as u32),
            reads_start,
            uses: Vec::new(),
            events: Vec::new(),
            kept: true,
            rounds_start: rounds,
            inner_rounds: 0,
        });
    }

    /// A constant's evaluation: a window of its own, never replayed alone,
    /// which the window around it uses.
    pub fn open_constant(&mut self, name: Name, reads_start: usize, rounds: usize) {
        self.open.push(Open {
            what: Use::Const(name),
            range: (0, 0),
            reads_start,
            uses: Vec::new(),
            events: Vec::new(),
            kept: true,
            rounds_start: rounds,
            inner_rounds: 0,
        });
    }

    /// Closes the innermost window; `reads`: the facts read in it.
    pub fn close(&mut self, reads: Vec<u32>, rounds: usize, budget_left: bool) {
        let Some(open) = self.open.pop() else { return };
        let spent = rounds - open.rounds_start;
        if let Some(parent) = self.open.last_mut() {
            parent.uses.push(open.what.clone());
            // Whatever made this window order-dependent marked the parent
            // too if it touched the parent's walk; else the parent only
            // uses this one's outcome, which a replay compares.
            parent.inner_rounds += spent;
        }
        let (Use::Def(def), true) = (&open.what, open.kept && budget_left) else { return };
        let def = *def;
        let window = Window {
            reads,
            nodes: Vec::new(),
            uses: open.uses,
            rounds: spent - open.inner_rounds,
            events: open.events,
        };
        self.closed.push((def, window));
    }

    pub fn reads_start(&self) -> Option<usize> {
        self.open.last().map(|open| open.reads_start)
    }

    /// A `def` or constant used as inferred before: the windows open now
    /// stand only while it comes out the same.
    pub fn used(&mut self, used: Use) {
        if let Some(top) = self.open.last_mut() {
            if !top.uses.contains(&used) {
                top.uses.push(used);
            }
        }
    }

    /// Pass one's walk assigned or grew an instance variable, or made a
    /// call: the innermost window's (a constant's is never replayed alone:
    /// a walk evaluating it again does it again).
    pub fn event(&mut self, event: Event) {
        if let Some(top) = self.open.last_mut() {
            top.events.push((top.uses.len() as u32, event));
        }
    }

    /// What the open windows found depends on the order of the walk.
    pub fn order_dependent(&mut self) {
        for open in &mut self.open {
            open.kept = false;
        }
    }

    /// The walk asked for what is being inferred (open) further out. A
    /// `def` calling itself meets itself in progress in any order; a
    /// recursion through others makes them all, from the one met on, find
    /// what they find because of where the walk entered it. The windows
    /// around that one only use its outcome, which a replay compares.
    pub fn met_in_progress(&mut self, met: &Use) {
        let at = self.open.iter().rposition(|open| open.what == *met);
        match at {
            Some(at) if at + 1 == self.open.len() && matches!(met, Use::Def(_)) => {}
            Some(at) => {
                for open in &mut self.open[at..] {
                    open.kept = false;
                }
            }
            None => self.order_dependent(),
        }
    }

    /// The windows kept (a `def` holding another is not: the nodes inside
    /// it are not all its own), with the `def`s' ranges to settle them by.
    pub fn finish(self, journal: crate::infer::index::Journal) -> Recording {
        let mut recording = Recording { deps: journal.deps, ..Recording::default() };
        if self.spoiled || self.closed.is_empty() {
            return recording;
        }
        let nested: HashSet<usize> = self
            .defs
            .windows(2)
            .filter(|pair| pair[1].1 <= pair[0].1)
            .flat_map(|pair| [pair[0].0 as usize, pair[1].0 as usize])
            .collect();
        recording.windows = self.closed.into_iter().filter(|(def, _)| !nested.contains(def)).collect();
        // A `def` holding others keeps no window, and its range goes: the
        // ranges left do not overlap.
        recording.defs = self.defs.into_iter().filter(|(start, _)| !nested.contains(&(*start as usize))).collect();
        recording
    }
}

/// Recorded at the `def`'s very span but by the walk around it: the `def`
/// node itself, or the statements (or program) holding nothing but that
/// `def` (`class E; def x; end; end`). The `def`'s body may span the same
/// bytes too (`def f; x; rescue; end`): that is the `def`'s own.
fn around_def(key: &NodeKey, start: u32, end: u32) -> bool {
    use crate::syntax::node_kind::NodeKind;
    (key.0, key.1) == (start, end)
        && matches!(key.2, NodeKind::DefNode | NodeKind::StatementsNode | NodeKind::ProgramNode)
}

/// The analysis's side: the windows it may take, and the export pass's
/// types to take them from.
pub(crate) struct Replayer {
    pub types: FileTypes,
    pub recording: Recording,
    /// The table the walk recorded read.
    pub table: Option<IvarTable>,
    /// The walk taking the windows keeps its call log (the export pass's
    /// pass two): the calls they made are made again, in order.
    pub calls_matter: bool,
    /// The windows stay for a later walk (the analysis's pass one), less
    /// their nodes.
    pub keep: bool,
}

impl Replayer {
    /// The windows of an analysis, which keeps no call log and leaves
    /// nothing for a later walk.
    pub fn for_analysis(types: FileTypes, recording: Recording, table: Option<IvarTable>) -> Replayer {
        Replayer { types, recording, table, calls_matter: false, keep: false }
    }

    /// Pass one's windows, for the export pass's pass two, which keeps its
    /// call log and hands the windows on to the analysis (see
    /// [`Replayer::into_first_pass`]).
    pub fn for_pass_two(first: FirstPass) -> Replayer {
        Replayer { types: first.types, recording: first.recording, table: None, calls_matter: true, keep: true }
    }

    pub fn take(&mut self, def: usize) -> Option<Window> {
        if !self.keep {
            return self.recording.windows.remove(&def);
        }
        let window = self.recording.windows.get_mut(&def)?;
        let nodes = std::mem::take(&mut window.nodes);
        Some(Window { nodes, ..window.clone() })
    }

    /// What stays of the windows for a later walk (see `keep`): an
    /// analysis keeps no call log, so the calls go with the nodes.
    pub fn into_first_pass(mut self) -> FirstPass {
        for window in self.recording.windows.values_mut() {
            window.nodes = Vec::new();
            window.events.retain(|(_, event)| event.is_ivars());
            window.events.shrink_to_fit();
        }
        FirstPass { types: self.types, recording: self.recording }
    }
}

impl super::Inferrer<'_, '_> {
    /// Opens the export pass's window for the `def` at `offset`.
    pub(super) fn open_window(&mut self, offset: usize, end: usize) {
        if let Some(recorder) = self.recorder.as_mut() {
            let reads = self.index.project.as_ref().map_or(0, |link| link.journal_len());
            recorder.get_mut().open(offset, end, reads, self.loop_rounds);
        }
    }

    /// Opens a window for evaluating the constant `name`.
    pub(super) fn open_constant_window(&mut self, name: &Name) {
        if let Some(recorder) = self.recorder.as_mut() {
            let reads = self.index.project.as_ref().map_or(0, |link| link.journal_len());
            recorder.get_mut().open_constant(name.clone(), reads, self.loop_rounds);
        }
    }

    pub(super) fn close_window(&mut self) {
        if let Some(recorder) = self.recorder.as_mut() {
            let recorder = recorder.get_mut();
            let reads = match (recorder.reads_start(), self.index.project.as_ref()) {
                (Some(start), Some(link)) => link.journal_since(start),
                _ => Vec::new(),
            };
            recorder.close(reads, self.loop_rounds, self.loop_rounds < super::control::LOOP_ROUND_BUDGET);
        }
    }

    /// Something of the file a window uses as found so far.
    pub(super) fn note_use(&self, used: Use) {
        if let Some(recorder) = self.recorder.as_ref() {
            recorder.borrow_mut().used(used);
        }
    }

    /// The walk met `met` still being inferred.
    pub(super) fn note_in_progress(&self, met: Use) {
        if let Some(recorder) = self.recorder.as_ref() {
            recorder.borrow_mut().met_in_progress(&met);
        }
    }

    /// The walk met what it found depend on its order.
    pub(super) fn note_order_dependent(&self) {
        if let Some(recorder) = self.recorder.as_ref() {
            recorder.borrow_mut().order_dependent();
        }
    }

    /// A read of what the `def` at `offset` left (its yields, its ivar
    /// facts) without asking for its return.
    pub(super) fn note_def_read(&self, offset: usize) {
        if self.recorder.is_none() {
            return;
        }
        match self.methods.get(&offset) {
            Some(super::MethodState::Done(_)) => self.note_use(Use::Def(offset)),
            _ => self.note_order_dependent(),
        }
    }

    /// Takes the export pass's walk of the `def` at `offset` (marked in
    /// progress by the caller) when it stands: what it used comes out as it
    /// did, and the loop budget would not run out in it. Its return type.
    pub(super) fn replay_def(&mut self, offset: usize) -> Option<Type> {
        let window = self.replayer.as_mut()?.take(offset)?;
        let returned = self.replay_window(offset, window)?;
        self.replayed += 1;
        Some(returned)
    }

    fn replay_window(&mut self, offset: usize, window: Window) -> Option<Type> {
        // What the window did that this walk keeps (pass one's recorded
        // assignments, and calls where the call log is kept) is done again
        // after the uses are asked; in a cold walk, what came before some
        // use came before what asking it may do (infer a `def`, which does
        // such things too). So the uses after the first such event must be
        // settled already, as they came out before: asking them does nothing.
        let calls_matter = self.replayer.as_ref()?.calls_matter;
        let kept = |event: &Event| calls_matter || event.is_ivars();
        let first_event =
            window.events.iter().find(|(_, event)| kept(event)).map_or(usize::MAX, |(at, _)| *at as usize);
        let (asked, later) = window.uses.split_at(first_event.min(window.uses.len()));
        if !later.iter().all(|used| self.settled_as_before(used)) {
            return None;
        }
        // In the order the window first used them, as a cold walk would.
        for used in asked {
            match used {
                Use::Def(def) => {
                    if matches!(self.methods.get(def), Some(super::MethodState::InProgress)) {
                        return None;
                    }
                    let id = *self.index.def_at.get(def)?;
                    self.method_return(id);
                    if !self.same_def_outcome(*def) {
                        return None;
                    }
                }
                Use::Ivar(_) | Use::Unlearned => {
                    if !self.settled_as_before(used) {
                        return None;
                    }
                    self.note_use(used.clone());
                }
                Use::Const(name) => {
                    if matches!(self.constants.get(name), Some(None)) {
                        return None;
                    }
                    self.constant_type_as_written(name);
                    let before = self.replayer.as_ref()?.types.constants.get(name);
                    if self.constants.get(name).and_then(Option::as_ref) != before {
                        return None;
                    }
                }
            }
        }
        // A cold walk would ask the settled ones too: a window recording
        // this walk uses them.
        for used in later {
            self.note_use(used.clone());
        }
        if self.loop_rounds + window.rounds >= super::control::LOOP_ROUND_BUDGET {
            return None;
        }
        let replayer = self.replayer.as_ref()?;
        let before = &replayer.types;
        let returned = before.returns.get(&offset).cloned()?;
        for (key, ty) in window.nodes {
            self.types.insert(key, ty);
        }
        if let Some(yields) = before.yields.get(&offset) {
            self.def_yields.insert(offset, yields.clone());
        }
        if let Some(exit) = replayer.recording.exit_ivars.get(&offset) {
            self.exit_ivars.insert(offset, exit.clone().map(std::rc::Rc::new));
        }
        if let Some(keeps) = replayer.recording.keeps_ivars.get(&offset) {
            self.keeps_ivars.insert(offset, keeps.clone());
        }
        self.loop_rounds += window.rounds;
        // The facts it read, for a window recording this walk.
        if let Some(link) = self.index.project.as_ref() {
            for read in &window.reads {
                if let Some(dep) = replayer.recording.deps.get(*read as usize) {
                    link.journal_read(dep);
                }
            }
        }
        for (_, event) in window.events {
            if kept(&event) {
                self.apply_event(event);
            }
        }
        Some(returned)
    }

    /// Is what the window used already inferred (or evaluated, or read),
    /// as it was in the export pass?
    fn settled_as_before(&self, used: &Use) -> bool {
        let Some(replayer) = self.replayer.as_ref() else { return false };
        match used {
            Use::Def(def) => {
                matches!(self.methods.get(def), Some(super::MethodState::Done(_))) && self.same_def_outcome(*def)
            }
            Use::Ivar(key) => {
                self.ivar_table.as_ref().map(|table| table.get(key))
                    == replayer.table.as_ref().map(|table| table.get(key))
            }
            Use::Const(name) => match self.constants.get(name) {
                Some(Some(ty)) => replayer.types.constants.get(name) == Some(ty),
                _ => false,
            },
            // Pass one's answer, given again only by pass one.
            Use::Unlearned => self.ivar_scan.is_some(),
        }
    }

    /// Did the `def` at `offset` come out as in the export pass?
    fn same_def_outcome(&self, offset: usize) -> bool {
        let Some(replayer) = self.replayer.as_ref() else { return false };
        let (before, recording) = (&replayer.types, &replayer.recording);
        let returned = match self.methods.get(&offset) {
            Some(super::MethodState::Done(ty)) => ty,
            _ => return false,
        };
        before.returns.get(&offset) == Some(returned)
            && before.yields.get(&offset) == self.def_yields.get(&offset)
            && recording.keeps_ivars.get(&offset) == self.keeps_ivars.get(&offset)
            && match (recording.exit_ivars.get(&offset), self.exit_ivars.get(&offset)) {
                (Some(a), Some(b)) => a.as_ref() == b.as_deref(),
                (None, None) => true,
                _ => false,
            }
    }
}

/// Whether `RIGOR_REPLAY_CHECK` asks each analysis that takes windows to
/// infer the file again without them and say where the two differ (a
/// developer's check: the corpora must print nothing).
pub fn checking() -> bool {
    static CHECKING: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *CHECKING.get_or_init(|| std::env::var_os("RIGOR_REPLAY_CHECK").is_some())
}

/// Prints to stderr whether a pass one that took windows learned another
/// table than a plain one.
pub fn compare_tables(replayed: Option<&IvarTable>, plain: Option<&IvarTable>) {
    eprintln!("REPLAY-PASS-ONE");
    if replayed != plain {
        eprintln!("REPLAY-DIFF pass one's table: {replayed:?} vs {plain:?}");
    }
}

/// Prints to stderr where the export pass's inference, whose pass two took
/// pass one's walks, differs from a plain one: in the types, and in what
/// it exports of instance variables and calls.
pub fn compare_exports(replayed: &FileTypes, plain: &FileTypes, source: &[u8], taken: usize) {
    eprintln!("REPLAY-EXPORT-TAKEN {taken}");
    compare(replayed, plain, source);
    if replayed.ivars != plain.ivars {
        eprintln!("REPLAY-DIFF exported ivars differ");
    }
    if replayed.calls != plain.calls {
        eprintln!("REPLAY-DIFF exported calls differ");
    }
}

/// Prints to stderr where a replayed inference differs from a plain one.
pub fn compare(replayed: &FileTypes, plain: &FileTypes, source: &[u8]) {
    let line = |at: u32| source[..at as usize].iter().filter(|b| **b == b'\n').count() + 1;
    let mut differences = Vec::new();
    for (key, ty) in &plain.types {
        if replayed.types.get(key) != Some(ty) {
            differences.push(format!("node {:?} line {}: {:?} vs {:?}", key, line(key.0), replayed.types.get(key), ty));
        }
    }
    for key in replayed.types.keys().filter(|key| !plain.types.contains_key(key)) {
        differences.push(format!("node {:?} line {} only replayed", key, line(key.0)));
    }
    if replayed.returns != plain.returns {
        differences.push("returns differ".into());
    }
    if replayed.yields != plain.yields {
        differences.push("yields differ".into());
    }
    if replayed.constants != plain.constants {
        differences.push("constants differ".into());
    }
    differences.sort();
    for difference in differences.iter().take(20) {
        eprintln!("REPLAY-DIFF {difference}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::node_kind::NodeKind;

    fn key(start: u32, end: u32) -> NodeKey {
        (start, end, NodeKind::CallNode)
    }

    fn types(keys: &[NodeKey]) -> HashMap<NodeKey, Type> {
        keys.iter().map(|k| (*k, Type::untyped())).collect()
    }

    /// The recording with each window's nodes out of `types`, sorted.
    fn settled(recorder: Recorder, types: HashMap<NodeKey, Type>) -> Recording {
        let mut recording = recorder.finish(Default::default());
        recording.settle(&mut FileTypes { types, ..FileTypes::default() });
        for window in recording.windows.values_mut() {
            window.nodes.sort_by_key(|(key, _)| *key);
        }
        recording
    }

    fn keys(window: &Window) -> Vec<NodeKey> {
        window.nodes.iter().map(|(key, _)| *key).collect()
    }

    /// Two `def`s, 10..50 and 60..90, the first calling the second.
    fn two_defs() -> Recorder {
        let mut recorder = Recorder::new(vec![(60, 90), (10, 50)]);
        recorder.open(10, 50, 0, 0);
        recorder.key(key(12, 20));
        recorder.open(60, 90, 0, 3);
        recorder.key(key(62, 70));
        recorder.close(vec![1], 5, true);
        recorder.key(key(22, 30));
        recorder
    }

    #[test]
    fn a_def_inferred_inside_another_is_a_use_with_its_own_nodes_and_rounds() {
        let mut recorder = two_defs();
        recorder.close(vec![0, 1], 9, true);
        let all = [key(12, 20), key(62, 70), key(22, 30)];
        let recording = settled(recorder, types(&all));
        let outer = &recording.windows[&10];
        assert_eq!(outer.uses, vec![Use::Def(60)]);
        assert_eq!(outer.rounds, 9 - 2, "the inner def's rounds are its own");
        assert_eq!(keys(outer), vec![key(12, 20), key(22, 30)]);
        assert_eq!(keys(&recording.windows[&60]), vec![key(62, 70)]);
    }

    #[test]
    fn a_walk_whose_order_mattered_keeps_no_window_around_it() {
        let mut recorder = Recorder::new(vec![(10, 50), (60, 90)]);
        recorder.open(10, 50, 0, 0);
        recorder.open(60, 90, 0, 0);
        recorder.order_dependent();
        recorder.close(Vec::new(), 0, true);
        recorder.close(Vec::new(), 0, true);
        let recording = settled(recorder, HashMap::default());
        assert!(recording.windows.is_empty());
    }

    #[test]
    fn a_def_calling_itself_stays_but_a_recursion_through_two_does_not() {
        let mut recorder = Recorder::new(vec![(10, 50), (60, 90)]);
        recorder.open(10, 50, 0, 0);
        recorder.met_in_progress(&Use::Def(10));
        recorder.close(Vec::new(), 0, true);
        // 10 calls 60, which calls 10 back: both found what they found
        // because the walk entered at 10.
        recorder.open(10, 50, 0, 0);
        recorder.open(60, 90, 0, 0);
        recorder.met_in_progress(&Use::Def(10));
        recorder.close(Vec::new(), 0, true);
        recorder.close(Vec::new(), 0, true);
        let recording = settled(recorder, HashMap::default());
        assert_eq!(recording.windows.keys().copied().collect::<Vec<_>>(), vec![10]);
        // Around a recursion, a window only uses its outcome.
        let mut recorder = Recorder::new(vec![(10, 50), (60, 90), (100, 120)]);
        recorder.open(100, 120, 0, 0);
        recorder.open(10, 50, 0, 0);
        recorder.open(60, 90, 0, 0);
        recorder.met_in_progress(&Use::Def(10));
        recorder.close(Vec::new(), 0, true);
        recorder.close(Vec::new(), 0, true);
        recorder.close(Vec::new(), 0, true);
        let recording = settled(recorder, HashMap::default());
        assert_eq!(recording.windows.keys().copied().collect::<Vec<_>>(), vec![100]);
        assert_eq!(recording.windows[&100].uses, vec![Use::Def(10)]);
    }

    #[test]
    fn a_node_inside_a_def_recorded_by_another_walk_spoils_the_file() {
        let mut recorder = two_defs();
        recorder.close(Vec::new(), 9, true);
        // The class body's walk records a node inside the second def.
        recorder.key(key(70, 80));
        let recording = settled(recorder, types(&[key(12, 20)]));
        assert!(recording.windows.is_empty());
        // Its own `def` node is the class body's to record.
        let mut recorder = two_defs();
        recorder.close(Vec::new(), 9, true);
        recorder.key((60, 90, NodeKind::DefNode));
        let recording = settled(recorder, types(&[key(12, 20)]));
        assert_eq!(recording.windows.len(), 2);
    }

    #[test]
    fn the_statements_holding_only_a_def_are_the_walk_arounds_not_the_defs() {
        // `class E; def x; 1; end; end`: the class body's statements span
        // exactly the `def` (10..50), and the class body's walk records
        // them after the `def`'s window closed.
        let mut recorder = Recorder::new(vec![(10, 50)]);
        recorder.open(10, 50, 0, 0);
        recorder.key(key(20, 30));
        recorder.close(Vec::new(), 0, true);
        let around = (10, 50, NodeKind::StatementsNode);
        recorder.key((10, 50, NodeKind::DefNode));
        recorder.key(around);
        let recording = settled(recorder, types(&[key(20, 30), around]));
        assert_eq!(keys(&recording.windows[&10]), vec![key(20, 30)], "the statements are not the window's");
        // A `def` whose body is a `begin` of the same span (`def f; x;
        // rescue; end`) has its body inside: the walk around may not record it.
        let mut recorder = Recorder::new(vec![(10, 50)]);
        recorder.open(10, 50, 0, 0);
        recorder.close(Vec::new(), 0, true);
        recorder.key((10, 50, NodeKind::BeginNode));
        assert!(settled(recorder, HashMap::default()).windows.is_empty());
    }

    #[test]
    fn a_constant_evaluated_inside_a_def_is_a_use_and_its_nodes_are_not_the_defs() {
        let mut recorder = Recorder::new(vec![(10, 50)]);
        recorder.open(10, 50, 0, 0);
        recorder.open_constant(Name::from("C::MSG"), 0, 0);
        recorder.key(key(2, 8));
        recorder.close(Vec::new(), 1, true);
        recorder.key(key(12, 20));
        recorder.close(Vec::new(), 1, true);
        let recording = settled(recorder, types(&[key(2, 8), key(12, 20)]));
        let window = &recording.windows[&10];
        assert_eq!(window.uses, vec![Use::Const(Name::from("C::MSG"))]);
        assert_eq!(keys(window), vec![key(12, 20)]);
        assert_eq!(window.rounds, 0);
    }

    fn write(ivar: &str) -> Event {
        Event::Write(Name::from("C"), crate::infer::Side::Instance, ivar.to_string(), Type::untyped())
    }

    #[test]
    fn pass_ones_assignments_are_the_innermost_walks_each_after_the_uses_before_it() {
        let mut recorder = Recorder::new(vec![(10, 50), (60, 90)]);
        recorder.open(10, 50, 0, 0);
        recorder.event(write("@a"));
        // The second `def`, inferred inside the first: its assignment is its own.
        recorder.open(60, 90, 0, 0);
        recorder.event(write("@b"));
        recorder.close(Vec::new(), 0, true);
        recorder.event(write("@c"));
        // A constant evaluated inside: what it assigns is done again by
        // whatever evaluates it again, not by the window around it.
        recorder.open_constant(Name::from("C::X"), 0, 0);
        recorder.event(write("@d"));
        recorder.close(Vec::new(), 0, true);
        recorder.close(Vec::new(), 0, true);
        // Outside every window: the class body's, walked again anyway.
        recorder.event(write("@e"));
        let recording = settled(recorder, HashMap::default());
        let outer = &recording.windows[&10];
        assert_eq!(outer.uses, vec![Use::Def(60), Use::Const(Name::from("C::X"))]);
        assert_eq!(outer.events, vec![(0, write("@a")), (1, write("@c"))]);
        assert_eq!(recording.windows[&60].events, vec![(0, write("@b"))]);
    }

    #[test]
    fn a_replayer_that_keeps_its_windows_hands_them_on_without_nodes_or_calls() {
        let mut recorder = Recorder::new(vec![(10, 50)]);
        recorder.open(10, 50, 0, 0);
        recorder.key(key(12, 20));
        recorder.event(write("@a"));
        let call = Event::Call((Name::from("C"), crate::infer::Side::Instance, "log".into()), Default::default(), {
            crate::model::params::CallShape::opaque()
        });
        recorder.event(call.clone());
        recorder.close(Vec::new(), 0, true);
        let recording = settled(recorder, types(&[key(12, 20)]));
        let mut replayer = Replayer::for_pass_two(FirstPass { types: FileTypes::default(), recording });
        let taken = replayer.take(10).expect("the window");
        assert_eq!(keys(&taken), vec![key(12, 20)]);
        assert_eq!(taken.events, vec![(0, write("@a")), (0, call)]);
        // Taken again by the analysis's pass one: no nodes, no calls.
        let first = replayer.into_first_pass();
        let kept = &first.recording.windows[&10];
        assert!(kept.nodes.is_empty());
        assert_eq!(kept.events, vec![(0, write("@a"))]);
    }

    #[test]
    fn a_def_holding_another_is_not_kept() {
        let mut recorder = Recorder::new(vec![(10, 90), (20, 40)]);
        recorder.open(10, 90, 0, 0);
        recorder.open(20, 40, 0, 0);
        recorder.close(Vec::new(), 0, true);
        recorder.close(Vec::new(), 0, true);
        let recording = settled(recorder, types(&[key(22, 30)]));
        assert!(!recording.windows.contains_key(&10));
    }
}
