//! Flow-sensitive type inference over one parsed file: a type for every
//! expression node, keyed by the node's offset range and kind.
//!
//! The walk interprets each method body in order, tracking locals through
//! assignments, branches (joined into unions), loops (to a bounded
//! fixpoint) and narrowing conditions. Calls resolve through RBS for the
//! core library and through this file's own `def`s, whose return types are
//! inferred on demand. When unsure, a type is `untyped`.

mod assign;
mod block_runners;
mod blocks;
mod call_sites;
mod calls;
mod constants;
mod control;
mod expr;
mod flow;
mod fold;
mod index;
mod ivar_sites;
mod literal_rows;
mod literals;
mod lookup;
mod loop_exit;
mod methods;
mod named_groups;
mod narrow;
mod overloads;
mod query;
pub mod replay;
mod scope_writes;
mod signature;
mod walked;
mod yields;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::rc::Rc;

use ruby_prism::Node;

use crate::model::index::Dep;
use crate::rbs::Environment;
use crate::syntax::node_kind::{kind, NodeKind};
use crate::syntax::ParsedFile;
use crate::types::{join, Name, Type};
pub use call_sites::{escaped_names, restricted_defs, Visibility};
pub use flow::{Flow, State};
pub use index::{ProgramIndex, ProjectLink, Side, Superclass, OUTPUT_FUNCTIONS};
pub use lookup::Callee;
pub use query::Inference;
pub use signature::Relation;
pub use walked::{on_copy, on_parse, WalkedTree};

/// A node's identity: its byte range and kind.
pub type NodeKey = (u32, u32, NodeKind);

pub fn key_of(node: &Node<'_>) -> NodeKey {
    let location = node.location();
    (location.start(), location.end(), kind(node))
}

/// What inference learned about one file.
#[derive(Default)]
pub struct FileTypes {
    types: HashMap<NodeKey, Type>,
    /// Inferred return type of each `def`, by the def's start offset.
    returns: HashMap<usize, Type>,
    /// What each `def` that yields gives its block, when every `yield`
    /// is known (see `yields`), by the def's start offset.
    yields: HashMap<usize, Vec<Type>>,
    /// The types of the constants inference evaluated, by full name.
    pub constants: HashMap<Name, Type>,
    /// What the file assigns to instance variables, by family.
    pub ivars: HashMap<IvarKey, Type>,
    /// What its calls pass to the project's methods.
    pub calls: crate::model::params::CallLog,
}

impl FileTypes {
    pub fn of(&self, node: &Node<'_>) -> Option<&Type> {
        self.types.get(&key_of(node))
    }

    pub fn def_return(&self, def_start: usize) -> Option<&Type> {
        self.returns.get(&def_start)
    }

    pub fn def_yields(&self, def_start: usize) -> Option<&[Type]> {
        self.yields.get(&def_start).map(Vec::as_slice)
    }

    pub fn len(&self) -> usize {
        self.types.len()
    }

    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }
}

/// Infers every expression of a file that parsed.
pub fn infer_file(parsed: &ParsedFile<'_>, env: &Environment) -> FileTypes {
    infer_with_index(parsed, env).types
}

/// Infers a file and keeps its index, so rules can ask about methods the
/// way inference resolved them.
pub fn infer_with_index<'pr, 'e>(parsed: &'pr ParsedFile<'_>, env: &'e Environment) -> Inference<'pr, 'e> {
    infer_in_project(parsed, env, None)
}

/// Infers a file of a project: what the file does not define itself comes
/// from the project index behind `project`.
pub fn infer_in_project<'pr, 'e>(
    parsed: &'pr ParsedFile<'_>,
    env: &'e Environment,
    project: Option<ProjectLink>,
) -> Inference<'pr, 'e> {
    infer_from(parsed, env, project, None, Mode::Plain, None)
}

/// The export pass's inference of a file: as [`infer_in_project`], also
/// recording each `def`'s walk for the analysis to take (see `replay`).
pub fn infer_for_exports<'pr, 'e>(
    parsed: &'pr ParsedFile<'_>,
    env: &'e Environment,
    project: ProjectLink,
    walk: Option<ProgramIndex<'pr>>,
) -> Inference<'pr, 'e> {
    let check = replay::checking().then(|| project.again());
    let inference = infer_from(parsed, env, Some(project), None, Mode::Record, walk);
    if let Some(link) = check {
        let plain = infer_from(parsed, env, Some(link), None, Mode::Plain, None).types;
        replay::compare_exports(&inference.types, &plain, parsed.source, inference.replayed);
    }
    inference
}

/// What pass one learned of a file's instance-variable writes, and the
/// project facts it read to learn it: an inference against an index that
/// answers those reads the same learns the same, so it starts at pass two.
pub struct PassOne {
    pub reads: Vec<Dep>,
    /// `None`: pass one saw no write it could type.
    pub table: Option<IvarTable>,
    /// The export pass's record of pass one's `def` walks.
    pub first: Option<replay::FirstPass>,
}

/// What an earlier inference of the same bytes lets another skip.
pub enum Prior {
    /// All of it: every question it asked reads the same.
    Types(Box<FileTypes>),
    /// Pass one: the questions pass one asked read the same.
    PassOne(Option<IvarTable>),
    /// The `def`s whose questions read the same (and maybe pass one).
    Windows(Box<replay::Windows>),
}

/// What each instance variable is assigned in a file, by family.
pub type IvarTable = HashMap<IvarKey, Type>;

/// What an inference does besides inferring: nothing, record each `def`'s
/// walk (the export pass), or take the export pass's windows that stand.
enum Mode {
    Plain,
    Record,
    Replay(Box<replay::Windows>),
}

fn infer_from<'pr, 'e>(
    parsed: &'pr ParsedFile<'_>,
    env: &'e Environment,
    project: Option<ProjectLink>,
    learned: Option<Option<IvarTable>>,
    mode: Mode,
    walk: Option<ProgramIndex<'pr>>,
) -> Inference<'pr, 'e> {
    let root = parsed.root();
    let exporting = project.is_some();
    let index = ProgramIndex::completing(walk, &root, env, project);
    let families = Rc::new(methods::ivar_families(&index));
    // Pass one learns what each instance variable is assigned; pass two
    // reads instance variables through that table.
    let utf8 = literals::utf8_source(parsed.source);
    let recording = matches!(mode, Mode::Record) && index.project.is_some();
    let walk_alone = |ivar_table: Option<IvarTable>, replayer: Option<Box<replay::Replayer>>| {
        let mut alone = Inferrer::new(env, &index, families.clone(), ivar_table);
        alone.utf8_source = utf8;
        // About one typed node per dozen bytes of source: sized for half
        // that, the table grows once or twice, not a dozen times, and is
        // not kept (until the analysis reuses it) at twice its size.
        alone.types.reserve(parsed.source.len() / 24);
        if recording {
            alone.recorder = replay::Recorder::start(&index);
        }
        alone.replayer = replayer;
        alone.program(&root);
        if exporting {
            alone.evaluate_all_constants();
        }
        let recorded = alone.take_recording();
        (alone, recorded)
    };
    let sites = ivar_sites::collect(&root);
    let (learned, mut windows) = match mode {
        // Pass one's table stands: pass two starts at once.
        Mode::Replay(windows) if windows.table_stands => (Some(windows.table.clone()), Some(windows)),
        Mode::Replay(windows) => (learned, Some(windows)),
        _ => (learned, None),
    };
    // A pass one that runs again takes its own windows that stand.
    let first = windows
        .as_mut()
        .and_then(|windows| windows.first.take())
        .map(|first| Box::new(replay::Replayer::for_analysis(first.types, first.recording, None)));
    // Each window compares what it read of pass one's table with the table
    // pass two starts from.
    let replayer = windows
        .map(|windows| *windows)
        .filter(|windows| !windows.recording.is_empty())
        .map(|windows| Box::new(replay::Replayer::for_analysis(windows.types, windows.recording, windows.table)));
    // Nothing assigns an instance variable: there is nothing to learn, and
    // one walk does.
    if !sites.writes {
        let (walked, recorded) = walk_alone(None, replayer);
        let replayed = walked.replayed;
        let types = walked.finish();
        return Inference::new(types, index, env, families).with_recording(recorded).replaying(replayed);
    }
    let (table, mut pass_one) = match learned {
        Some(table) => (table, None),
        None => {
            let walk = PassOneWalk { index: &index, env, families: &families, utf8, root: &root };
            let check = (replay::checking() && first.is_some()).then(|| sites.defs.clone());
            let (table, first) = pass_one(walk, sites.defs, recording, first);
            if let Some(defs) = check {
                let (plain, _) = pass_one(walk, defs, false, None);
                replay::compare_tables(table.as_ref(), plain.as_ref());
            }
            // Kept when a later inference against another index may skip it.
            let kept = index.project.as_ref().map(|link| PassOne { reads: link.reads(), table: table.clone(), first });
            (table, kept)
        }
    };
    // The export pass's pass two takes pass one's walk of each `def` that
    // read nothing pass two answers otherwise (an instance variable pass
    // one had not learned); the analysis's pass one may take them after.
    let replayer = replayer.or_else(|| {
        let first = pass_one.as_mut()?.first.take()?;
        Some(Box::new(replay::Replayer::for_pass_two(first)))
    });
    let hand_back = |second: &mut Inferrer<'_, '_>, pass_one: &mut Option<PassOne>| {
        let kept = second.replayer.take().filter(|replayer| replayer.keep);
        if let (Some(pass), Some(replayer)) = (pass_one.as_mut(), kept) {
            pass.first = Some(replayer.into_first_pass());
        }
    };
    let Some(table) = table else {
        let (mut walked, recorded) = walk_alone(None, replayer);
        hand_back(&mut walked, &mut pass_one);
        let replayed = walked.replayed;
        let types = walked.finish();
        return Inference::new(types, index, env, families)
            .with_pass_one(pass_one)
            .with_recording(recorded)
            .replaying(replayed);
    };
    let (mut second, recorded) = walk_alone(Some(table), replayer);
    hand_back(&mut second, &mut pass_one);
    let mut ivars = second.ivar_table.take().unwrap_or_default();
    for (key, ty) in std::mem::take(&mut second.ivar_writes) {
        let entry = ivars.entry(key).or_insert(Type::Bot);
        *entry = join(entry, &ty);
    }
    let replayed = second.replayed;
    let mut types = second.finish();
    types.ivars = ivars;
    Inference::new(types, index, env, families).with_pass_one(pass_one).with_recording(recorded).replaying(replayed)
}

/// Pass one: walks only the `def`s that may assign or grow an ivar (and
/// what they call), keeping only what was assigned to instance variables.
/// `record`: the export pass records each `def`'s walk (see `replay`);
/// `replayer`: an analysis takes those walks that stand.
fn pass_one(
    walk: PassOneWalk<'_, '_, '_>,
    defs: rustc_hash::FxHashSet<usize>,
    record: bool,
    replayer: Option<Box<replay::Replayer>>,
) -> (Option<IvarTable>, Option<replay::FirstPass>) {
    let PassOneWalk { index, env, families, utf8, root } = walk;
    let mut first = Inferrer::new(env, index, families.clone(), None);
    first.utf8_source = utf8;
    first.ivar_scan = Some(defs);
    if record {
        first.recorder = replay::Recorder::start(index);
    }
    first.replayer = replayer;
    first.program(root);
    if replay::checking() && first.replayer.is_some() {
        eprintln!("REPLAY-PASS-ONE-TAKEN {}", first.replayed);
    }
    let mut table = std::mem::take(&mut first.ivar_writes);
    let mutations = std::mem::take(&mut first.ivar_mutations);
    // Each window takes its nodes' types, for pass two to take; the rest
    // of pass one's node types go.
    let recorded = match first.take_recording().filter(|recording| !recording.is_empty()) {
        Some(mut recording) => {
            let mut nodes = FileTypes { types: std::mem::take(&mut first.types), ..FileTypes::default() };
            recording.settle(&mut nodes);
            Some(replay::FirstPass { types: first.outcomes(), recording })
        }
        None => None,
    };
    if table.is_empty() {
        return (None, recorded);
    }
    // Mutations pass one saw on instance variables it could not type yet
    // (`@items << x`) grow what the assignments put there.
    for _ in 0..2 {
        for (key, mutations) in &mutations {
            if let Some(assigned) = table.get(key).cloned() {
                let grown = mutations.iter().fold(assigned.clone(), |ty, (method, args)| {
                    join(&ty, &assign::mutated_container(&ty, method, args))
                });
                table.insert(key.clone(), grown);
            }
        }
    }
    (Some(table), recorded)
}

/// What pass one walks: the file, its index, and the environment.
#[derive(Clone, Copy)]
struct PassOneWalk<'w, 'pr, 'e> {
    index: &'w ProgramIndex<'pr>,
    env: &'e Environment,
    families: &'w Rc<HashMap<Name, Name>>,
    utf8: bool,
    root: &'w Node<'pr>,
}

/// The types of a file of a project, inferred against the index behind
/// `link`, or taken from `prior` where an earlier inference of the same
/// bytes asked questions that index answers the same.
/// `walk`: the file's index as walked already, if it was (see
/// [`on_parse`]).
pub fn types_in_project<'pr>(
    parsed: &'pr ParsedFile<'_>,
    env: &Environment,
    link: Option<ProjectLink>,
    prior: Option<Prior>,
    walk: Option<ProgramIndex<'pr>>,
) -> FileTypes {
    match prior {
        Some(Prior::Types(types)) => *types,
        Some(Prior::PassOne(table)) => infer_from(parsed, env, link, Some(table), Mode::Plain, walk).types,
        Some(prior @ Prior::Windows(_)) => infer_with_prior(parsed, env, link, Some(prior), walk).types,
        None => infer_from(parsed, env, link, None, Mode::Plain, walk).types,
    }
}

/// A file's inference, with what an earlier one lets it skip (see
/// [`types_in_project`]); the index is built again in any case.
/// `walk`: the file's index as walked already, if it was.
pub fn infer_with_prior<'pr, 'e>(
    parsed: &'pr ParsedFile<'_>,
    env: &'e Environment,
    project: Option<ProjectLink>,
    prior: Option<Prior>,
    walk: Option<ProgramIndex<'pr>>,
) -> Inference<'pr, 'e> {
    match prior {
        Some(Prior::Types(types)) => {
            let index = ProgramIndex::completing(walk, &parsed.root(), env, project);
            let families = Rc::new(methods::ivar_families(&index));
            Inference::new(*types, index, env, families)
        }
        Some(Prior::PassOne(table)) => infer_from(parsed, env, project, Some(table), Mode::Plain, walk),
        Some(Prior::Windows(windows)) => {
            let check = replay::checking().then(|| project.as_ref().map(ProjectLink::again)).flatten();
            let replayed = infer_from(parsed, env, project, None, Mode::Replay(windows), walk);
            if let Some(link) = check {
                let plain = infer_in_project(parsed, env, Some(link)).types;
                eprintln!("REPLAY-TAKEN {}", replayed.replayed);
                replay::compare(&replayed.types, &plain, parsed.source);
            }
            replayed
        }
        None => infer_from(parsed, env, project, None, Mode::Plain, walk),
    }
}

/// Instance variables are shared along inheritance and mixins within a
/// file: (family, side, name).
pub type IvarKey = (Name, Side, String);

/// Where a `break` or `next` goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum JumpKind {
    Loop,
    Block,
    Lambda,
}

pub(crate) struct JumpTarget {
    pub kind: JumpKind,
    pub breaks: Vec<(Type, Flow)>,
    pub nexts: Vec<(Type, Flow)>,
    /// A `redo` ran: its flow (among `nexts`, giving no value) starts the
    /// body again without the loop's condition or the block's arguments.
    pub redone: bool,
}

/// The scope a node is evaluated in: who `self` is, which class `def`s
/// and instance variables belong to, and the constant lookup nesting.
#[derive(Clone)]
pub(crate) struct Frame {
    pub self_type: Type,
    pub lexical: Rc<Vec<Name>>,
    pub class: Option<(Name, Side)>,
    /// False inside blocks that another object may `instance_eval`.
    pub self_known: bool,
    /// The method being inferred, for `super` and `initialize`.
    pub method: Option<Rc<str>>,
    /// Local writes of the enclosing method body, by name: offsets.
    pub writes: Rc<HashMap<String, Vec<usize>>>,
    /// The method's `&block` parameter, when the body never assigns it
    /// (and no block here shadows it): `block_given?` says whether it is nil.
    pub block_param: Option<Rc<str>>,
    /// The method's parameters its calls may pass on as they came.
    pub forwardable: Option<Rc<call_sites::Forwardable>>,
    /// The method being inferred, when all its calls are in view: its
    /// calls' variables set add to what its own calls set.
    pub entry_key: Option<Rc<(Name, Side, String)>>,
    /// Locals of the method holding a regexp literal's match (see
    /// [`scope_writes::collect_with_matches`]).
    pub match_locals: Option<Rc<HashMap<String, named_groups::Groups>>>,
}

impl Frame {
    /// The frame for a block or lambda body declaring `locals`: the
    /// method's block parameter is no longer that name's if one shadows it.
    pub fn shadowed_by(&self, locals: &[String]) -> Frame {
        let mut inner = self.clone();
        if inner.block_param.as_deref().is_some_and(|p| locals.iter().any(|l| l == p)) {
            inner.block_param = None;
        }
        inner.forwardable = inner.forwardable.as_ref().and_then(|f| f.shadowed_by(locals));
        if inner.match_locals.as_ref().is_some_and(|m| locals.iter().any(|l| m.contains_key(l))) {
            let mut kept = HashMap::clone(inner.match_locals.as_ref().expect("checked"));
            kept.retain(|local, _| !locals.contains(local));
            inner.match_locals = Some(Rc::new(kept));
        }
        inner
    }

    /// The locals this body assigns somewhere in `span` (source offsets).
    pub fn written_in(&self, span: std::ops::Range<usize>) -> impl Iterator<Item = &String> {
        self.writes.iter().filter(move |(_, offsets)| offsets.iter().any(|o| span.contains(o))).map(|(local, _)| local)
    }
}

#[derive(Debug, Clone)]
enum MethodState {
    InProgress,
    Done(Type),
}

/// The ivars a call of one of the object's own methods surely assigns.
type OwnCallWrites = Rc<[String]>;

pub(crate) struct Inferrer<'pr, 'a> {
    pub env: &'a Environment,
    pub index: &'a ProgramIndex<'pr>,
    pub families: Rc<HashMap<Name, Name>>,
    types: HashMap<NodeKey, Type>,
    methods: HashMap<usize, MethodState>,
    /// Pass one's instance-variable table (None during pass one).
    pub ivar_table: Option<HashMap<IvarKey, Type>>,
    /// Instance-variable assignments seen in this pass.
    pub ivar_writes: HashMap<IvarKey, Type>,
    /// Mutating calls on instance variables: (method, argument types).
    pub ivar_mutations: HashMap<IvarKey, Vec<(String, Vec<Type>)>>,
    constants: HashMap<Name, Option<Type>>,
    pub jumps: Vec<JumpTarget>,
    /// Return types of the methods (and lambdas) being walked.
    pub returns: Vec<Vec<Type>>,
    /// The yields of the methods being walked (innermost last), and what
    /// each walked `def` yields, by its start offset.
    yields: Vec<yields::YieldCollector>,
    def_yields: HashMap<usize, Vec<Type>>,
    /// Per instance-variable family and side, what its classes say of them.
    family_facts: std::cell::RefCell<HashMap<(Name, Side), Rc<methods::FamilyFacts>>>,
    /// The Kernel functions a class's objects answer with a body of the
    /// project's, by class (asked at every ivar read).
    kernel_replaced: std::cell::RefCell<HashMap<Name, Rc<Vec<&'static str>>>>,
    member_unseen: std::cell::RefCell<HashMap<(Name, Side), bool>>,
    /// Per class and method, the ivars a call of it on `self` surely
    /// leaves assigned (see `methods::assigned_by_own_call`).
    own_call_writes: std::cell::RefCell<HashMap<(Name, String), OwnCallWrites>>,
    /// Per walked `def` (by start offset), what its instance variables
    /// surely hold when it returns (`None`: not known, as when it has a
    /// `return` of its own); see `methods::ivars_after_own_call`.
    exit_ivars: HashMap<usize, Option<Rc<HashMap<String, Type>>>>,
    /// By `def` offset: which of the caller's ivar facts a call of it
    /// leaves standing (see `Inferrer::own_call_keeps_ivars`).
    keeps_ivars: HashMap<usize, replay::KeptIvars>,
    /// Per method name, whether the project may give nil that method (see
    /// `narrow::project_gives_nil`): asked after every such call.
    nil_givers: std::cell::RefCell<HashMap<String, bool>>,
    /// Whether each signature class met as a receiver is an exception
    /// class, by name: asked at every call the signatures answer.
    exception_classes: std::cell::RefCell<HashMap<Name, bool>>,
    /// Local assignments inside `begin` bodies, for the `rescue` entry.
    pub assignment_logs: Vec<Vec<(String, Type)>>,
    /// Flows at `retry`, per enclosing `begin`.
    pub retries: Vec<Vec<Flow>>,
    /// Above zero while walking code no path reaches: nothing found there
    /// flows anywhere.
    pub dead: u32,
    /// Fixpoints (loops, blocks) being iterated, and rounds spent so far.
    pub loop_depth: usize,
    pub loop_rounds: usize,
    /// Calls walked so far that may raise StopIteration (see `loop_exit`).
    pub stop_risks: u32,
    /// Calls of Kernel functions that cannot reach the program's objects
    /// (`puts "x"`), by node key (a call and the call on its result start
    /// together): they keep narrowed reads.
    quiet_calls: HashSet<NodeKey>,
    /// Set by the last `dispatch` that found such a call.
    dispatched_quietly: bool,
    /// The conditions of the `if`/`elsif`s the `if` walked next is an
    /// `elsif` of, all falsy where it runs (see `control::if_node`).
    elsif_chain: Vec<Node<'pr>>,
    /// String literals are UTF-8 text (see `literals::utf8_source`).
    pub utf8_source: bool,
    /// Calls to project methods, for parameter inference.
    pub call_log: call_sites::CallRecorder,
    /// In pass one, which learns only instance-variable writes, the `def`s
    /// that mention one: the others are walked only when something calls them.
    pub ivar_scan: Option<rustc_hash::FxHashSet<usize>>,
    /// An ivar write in `initialize` the next statement guards (see
    /// `control::raise_guard`), by start offset, with what the guard lets
    /// through: the object exists only if the guard passed.
    pub guarded_write: Option<(usize, control::Narrowing)>,
    /// The export pass's record of each `def`'s walk (see `replay`).
    recorder: Option<std::cell::RefCell<replay::Recorder>>,
    /// The analysis's windows of the export pass to take.
    replayer: Option<Box<replay::Replayer>>,
    /// How many it took.
    replayed: usize,
}

impl<'pr, 'a> Inferrer<'pr, 'a> {
    fn new(
        env: &'a Environment,
        index: &'a ProgramIndex<'pr>,
        families: Rc<HashMap<Name, Name>>,
        ivar_table: Option<HashMap<IvarKey, Type>>,
    ) -> Self {
        Inferrer {
            env,
            index,
            families,
            types: HashMap::default(),
            methods: HashMap::default(),
            ivar_table,
            ivar_writes: HashMap::default(),
            ivar_mutations: HashMap::default(),
            constants: HashMap::default(),
            jumps: Vec::new(),
            returns: Vec::new(),
            yields: Vec::new(),
            def_yields: HashMap::default(),
            family_facts: Default::default(),
            kernel_replaced: Default::default(),
            member_unseen: Default::default(),
            own_call_writes: Default::default(),
            exit_ivars: HashMap::default(),
            keeps_ivars: HashMap::default(),
            nil_givers: Default::default(),
            exception_classes: Default::default(),
            assignment_logs: Vec::new(),
            retries: Vec::new(),
            dead: 0,
            loop_depth: 0,
            stop_risks: 0,
            quiet_calls: HashSet::default(),
            dispatched_quietly: false,
            elsif_chain: Vec::new(),
            loop_rounds: 0,
            utf8_source: true,
            call_log: call_sites::CallRecorder::default(),
            ivar_scan: None,
            guarded_write: None,
            recorder: None,
            replayer: None,
            replayed: 0,
        }
    }

    /// What the recorder kept, with the journal of reads it points into.
    fn take_recording(&mut self) -> Option<replay::Recording> {
        let recorder = self.recorder.take()?;
        let journal = self.index.project.as_ref().map(|link| link.take_journal()).unwrap_or_default();
        let mut recording = recorder.into_inner().finish(journal);
        recording.exit_ivars =
            self.exit_ivars.iter().map(|(at, exit)| (*at, exit.as_ref().map(|map| HashMap::clone(map)))).collect();
        recording.keeps_ivars = self.keeps_ivars.clone();
        Some(recording)
    }

    fn finish(mut self) -> FileTypes {
        let types = std::mem::take(&mut self.types);
        let calls = std::mem::take(&mut self.call_log).into_log();
        FileTypes { types, calls, ..self.outcomes() }
    }

    /// What the walk found of the file's `def`s and constants, without the
    /// node types and calls.
    fn outcomes(self) -> FileTypes {
        let returns = self
            .methods
            .into_iter()
            .filter_map(|(offset, state)| match state {
                MethodState::Done(ty) => Some((offset, ty)),
                MethodState::InProgress => None,
            })
            .collect();
        let constants = self.constants.into_iter().filter_map(|(name, ty)| Some((name, ty?))).collect();
        FileTypes { returns, yields: self.def_yields, constants, ..FileTypes::default() }
    }

    /// Evaluates the constants the file assigns that nothing read, so the
    /// project learns their types too.
    fn evaluate_all_constants(&mut self) {
        let mut names: Vec<Name> = self.index.constants.keys().cloned().collect();
        names.sort();
        for name in names {
            self.constant_type_of(&name);
        }
    }

    pub fn record(&mut self, node: &Node<'pr>, ty: &Type) {
        let key = key_of(node);
        if let Some(recorder) = self.recorder.as_mut() {
            recorder.get_mut().key(key);
        }
        self.types.insert(key, ty.clone());
    }

    pub fn recorded(&self, node: &Node<'pr>) -> Option<&Type> {
        self.types.get(&key_of(node))
    }

    fn program(&mut self, root: &Node<'pr>) {
        let Some(program) = root.as_program_node() else { return };
        let (writes, match_locals) = scope_writes::collect_with_matches(&program.statements().as_node());
        let frame = Frame {
            self_type: Type::nominal("Object"),
            lexical: Rc::new(Vec::new()),
            class: None,
            self_known: true,
            method: None,
            writes: Rc::new(writes),
            block_param: None,
            forwardable: None,
            entry_key: None,
            match_locals: (!match_locals.is_empty()).then(|| Rc::new(match_locals)),
        };
        let mut state: State = Some(Flow::default());
        self.returns.push(Vec::new());
        let ty = self.statements(Some(program.statements()), &mut state, &frame);
        self.returns.pop();
        self.record(&program.statements().as_node(), &ty);
        self.record(root, &ty);
    }

    /// Notes a mutating call on an instance variable of the frame's class.
    pub fn note_ivar_mutation(&mut self, frame: &Frame, name: &str, method: &str, args: &[Type]) {
        let Some((class, side)) = &frame.class else { return };
        self.apply_event(replay::Event::Mutation(
            class.clone(),
            *side,
            name.to_string(),
            method.to_string(),
            args.to_vec(),
        ));
    }

    /// Notes an assignment to an instance variable of the frame's class.
    pub fn note_ivar_write(&mut self, frame: &Frame, name: &str, ty: &Type) {
        let Some((class, side)) = &frame.class else { return };
        self.apply_event(replay::Event::Write(class.clone(), *side, name.to_string(), ty.forget_mutable()));
    }

    /// Adds to what this pass learns of instance variables and calls, and
    /// to the window recording it: pass one's are replayed, in order,
    /// where a later walk takes the window.
    /// Pass one of the export pass: each `def`'s window records what its
    /// walk did (see `replay::Event`).
    fn recording_events(&self) -> bool {
        self.recorder.is_some() && self.ivar_scan.is_some()
    }

    pub(crate) fn apply_event(&mut self, event: replay::Event) {
        // (Every walk comes here at every assignment and call: the event
        // is cloned only for a recording.)
        if self.recording_events() {
            if let Some(recorder) = self.recorder.as_mut() {
                recorder.get_mut().event(event.clone());
            }
        }
        match event {
            replay::Event::Write(class, side, name, settled) => {
                let family = self.families.get(&class).cloned().unwrap_or(class);
                let entry = self.ivar_writes.entry((family, side, name)).or_insert(Type::Bot);
                *entry = join(entry, &settled);
            }
            replay::Event::Mutation(class, side, name, method, args) => {
                let family = self.families.get(&class).cloned().unwrap_or(class);
                let entry = self.ivar_mutations.entry((family, side, name)).or_default();
                if entry.len() < 64 {
                    entry.push((method, args));
                }
            }
            replay::Event::Call(key, entry, shape) => self.call_log.add(key, entry, shape),
            replay::Event::Escape(method) => self.call_log.escape(method),
        }
    }
}
