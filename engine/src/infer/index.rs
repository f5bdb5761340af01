//! A pre-pass over one file: the classes and modules it defines, their
//! methods, mixins and superclasses, and its constant assignments. Calls
//! between user methods and constant reads consult this index, so a method
//! defined further down the file is still known.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use ruby_prism::{CallNode, Node, Visit};

use std::cell::RefCell;

use crate::model::index::{Dep, FileId, FileInterface, SharedIndex};
use crate::rbs::Environment;
use crate::stack_guard::ensure_room;
use crate::syntax::{constant_path_text, name, node_clone};
use crate::types::{Name, Type};

pub use crate::model::classes::{add_mixin, MethodEntry, PendingKind, Side, Superclass, UserClass};
use crate::model::classes::{MadeMethods, MadeOn};

/// One `def` the index found, with where it lives.
pub struct DefInfo<'pr> {
    pub node: Node<'pr>,
    /// The class or module it belongs to; `None` at the top level.
    pub owner: Option<(Name, Side)>,
    pub lexical: Vec<Name>,
    /// Also a module method (`module_function`, `extend self`): `self` is
    /// the module or an object that includes it.
    pub dual: bool,
}

/// A constant assignment: `NAME = value` inside `lexical`.
pub struct ConstantWrite<'pr> {
    pub value: Node<'pr>,
    pub lexical: Vec<Name>,
}

pub struct ProgramIndex<'pr> {
    pub classes: HashMap<Name, UserClass>,
    pub defs: Vec<DefInfo<'pr>>,
    pub def_at: HashMap<usize, usize>,
    /// Top-level `def`s: private methods of Object.
    pub top_methods: HashMap<String, usize>,
    /// Top-level methods defined more than once: all their `def`s.
    pub top_redefined: HashMap<String, Vec<usize>>,
    pub constants: HashMap<Name, Vec<ConstantWrite<'pr>>>,
    pub ivar_names: Vec<String>,
    /// The class a `class`/`module` node's constant path names, by offset.
    pub class_at: HashMap<usize, Name>,
    /// `instance_variable_set`, `instance_eval`-style code: ivars unknowable.
    pub ivars_unknowable: bool,
    /// Of those, the writes to objects this file cannot name: by any file
    /// of the project, to any class's ivar of the name.
    pub outside_ivars: crate::model::index::OutsideIvarWrites,
    /// The rest of the project, when the file is analysed as part of one.
    pub project: Option<ProjectLink>,
    /// The `def`s that are private or protected instance methods, by start
    /// offset, found from `root` when first asked (see [`Self::is_private_def`]).
    restricted_defs: std::cell::OnceCell<HashMap<usize, super::call_sites::Visibility>>,
    root: Option<Node<'pr>>,
    /// Constants resolved since the index was complete, by the name as
    /// written and then the lexical scope: inference asks the same few
    /// again and again. (The first resolution noted the project reads.)
    resolved: RefCell<HashMap<String, Vec<Resolved>>>,
    /// What `overrides_elsewhere` found, by (class, side, method). (The
    /// first answer noted the project reads.)
    overrides: RefCell<HashMap<(Name, Side, String), Overridden>>,
    /// What `ivar_written_outside` found, by (class, ivar): asked at every
    /// read of an ivar (the dependency is noted the first time).
    written_outside: RefCell<HashMap<(Name, String), bool>>,
    /// What `ProjectIndex::object_mixins_define` answered, by method: a
    /// walk of every module extended into objects, asked at every `C.new`.
    object_mixins: RefCell<HashMap<String, bool>>,
    complete: bool,
    /// Modules this file extends a class or an object with.
    pub(super) extended: HashSet<Name>,
    /// Modules this file mixes in from outside a class body
    /// (`obj.extend(M)`, `C.include(M)`, a hook's `base.extend(M)`).
    mixed_from_outside: HashSet<Name>,
    /// Modules mixed in from outside any class body, as written.
    pub(super) top_object_extends: Vec<String>,
    /// Constant names this file sets or removes by name (`const_set(:X,
    /// v)`, `remove_const(:X)`): a constant of that name may hold what the
    /// assignment does not say.
    rewritten_constants: HashSet<String>,
    /// See [`FileInterface::written_on`].
    written_on: HashSet<(String, String)>,
    /// See [`FileInterface::mutated_constants`].
    mutated_constants: HashSet<String>,
    /// See [`FileInterface::mutated_readers`].
    mutated_readers: HashSet<String>,
    /// Names this file defines on objects or classes it cannot name
    /// (`def obj.name`, a `def` in a block).
    pub(super) object_singleton_defs: HashSet<String>,
    /// See [`FileInterface::redirects_output`].
    redirects_output: bool,
    /// Names this file defines in classes the signatures declare, with
    /// the classes each is defined in.
    core_defs_on: HashMap<String, Vec<Name>>,
    /// Names this file defines at the top level: Object's (private)
    /// methods, ahead of Kernel's for every object.
    pub(super) top_level_defs: HashSet<String>,
    /// (class, method) this file defines in a block run on a class the
    /// signatures declare (`refine String do def upcase`, `String.class_eval
    /// do define_method(:strip)`): the core's own method is not certain.
    core_replaced: HashSet<(String, String)>,
    /// See [`FileInterface::made_on`].
    made_on: HashSet<MadeOn>,
    /// See [`FileInterface::class_mixins`].
    class_mixins: HashSet<(String, String)>,
    /// Names of the methods the signatures also name that this file
    /// defines to run their block on another object (see
    /// [`super::block_runners`]).
    block_runners: HashSet<String>,
    /// (method, the method the signatures name it hands its block to),
    /// for such methods of this file.
    block_handoffs: HashSet<(String, String)>,
    /// (method, ivar): ivars written in blocks given to a method the
    /// signatures name, taken to keep `self` (see `note_block_write`).
    kept_block_writes: HashSet<(String, String)>,
    /// Ivars this file's own code may write in any object, joined from the
    /// two above and `outside_ivars.modules` (the project joins them
    /// across files).
    joined_outside: HashSet<String>,
}

/// What descendants in other files return from their overrides of a
/// method (`None`: none overrides it).
type Overridden = Option<Vec<Type>>;

/// A constant resolved in one lexical scope, to what (`None`: nothing).
type Resolved = (Vec<Name>, Option<Name>);

/// A file's window onto the rest of its project: the project index, which
/// file this is, and the project facts its analysis read (so a cached
/// analysis is reused only while they read the same).
pub struct ProjectLink {
    pub index: SharedIndex,
    pub file: FileId,
    classes_read: RefCell<HashSet<Name>>,
    /// Classes whose shape was read with one method name looked up, and
    /// those names.
    methods_read: RefCell<HashMap<Name, HashSet<String>>>,
    /// Classes only asked about as constants: whether they exist.
    shapes_read: RefCell<HashSet<Name>>,
    constants_read: RefCell<HashSet<Name>>,
    other_reads: RefCell<HashSet<Dep>>,
    /// Method names asked whether the project gives them a body of its own.
    redefined_read: RefCell<HashSet<String>>,
    exported_read: std::cell::Cell<bool>,
    /// Whether a lookup asked what modules extended into objects make.
    object_made_read: std::cell::Cell<bool>,
    /// Whether [`ProjectLink::reads`] lists every read, or only those that
    /// folding the exports in may change (all a call whose model is
    /// dropped after it asks again: listing the rest cost more than a
    /// percent of a cold run).
    all_reads: bool,
    /// Every read folding the exports in may change, in order, repeats
    /// included, while the export pass records which `def` read what (see
    /// `super::replay`).
    journal: RefCell<Option<Journal>>,
}

/// Reads in order, each fact listed once and named by its number.
#[derive(Default)]
pub struct Journal {
    numbers: HashMap<Dep, u32>,
    constants: HashMap<Name, u32>,
    pub deps: Vec<Dep>,
    pub log: Vec<u32>,
}

impl Journal {
    fn note(&mut self, dep: &Dep) {
        let number = match self.numbers.get(dep) {
            Some(number) => *number,
            None => {
                let number = self.listed(dep.clone());
                self.numbers.insert(dep.clone(), number);
                number
            }
        };
        self.log.push(number);
    }

    /// A constant read, looked up by its name (a read is not worth a
    /// `Dep` built to look it up).
    fn note_constant(&mut self, name: &str) {
        let number = match self.constants.get(name) {
            Some(number) => *number,
            None => {
                let number = self.listed(Dep::Constant(Name::from(name)));
                self.constants.insert(Name::from(name), number);
                number
            }
        };
        self.log.push(number);
    }

    /// Lists a fact read for the first time: its number.
    fn listed(&mut self, dep: Dep) -> u32 {
        self.deps.push(dep);
        self.deps.len() as u32 - 1
    }
}

impl ProjectLink {
    pub fn new(index: SharedIndex, file: FileId) -> ProjectLink {
        ProjectLink {
            index,
            file,
            classes_read: RefCell::default(),
            methods_read: RefCell::default(),
            shapes_read: RefCell::default(),
            constants_read: RefCell::default(),
            other_reads: RefCell::default(),
            redefined_read: RefCell::default(),
            exported_read: Default::default(),
            object_made_read: Default::default(),
            all_reads: true,
            journal: RefCell::new(None),
        }
    }

    /// A fresh link to the same index for the same file.
    pub fn again(&self) -> ProjectLink {
        ProjectLink::new(self.index.clone(), self.file).keeping(self.all_reads)
    }

    /// Starts listing reads in order (see [`ProjectLink::journal_len`]).
    pub fn start_journal(&self) {
        *self.journal.borrow_mut() = Some(Journal::default());
    }

    /// How many reads the journal holds: a window of inference is the
    /// reads between two of these.
    pub fn journal_len(&self) -> usize {
        self.journal.borrow().as_ref().map_or(0, |journal| journal.log.len())
    }

    /// The facts read (by number) from `from` on, each once.
    pub fn journal_since(&self, from: usize) -> Vec<u32> {
        let journal = self.journal.borrow();
        let Some(journal) = journal.as_ref() else { return Vec::new() };
        let mut read = journal.log[from.min(journal.log.len())..].to_vec();
        read.sort_unstable();
        read.dedup();
        read
    }

    pub fn take_journal(&self) -> Journal {
        self.journal.borrow_mut().take().unwrap_or_default()
    }

    /// Lists again a read a replayed walk made (see `super::replay`).
    pub(crate) fn journal_read(&self, dep: &Dep) {
        self.journal(dep);
    }

    fn journal(&self, dep: &Dep) {
        if let Some(journal) = self.journal.borrow_mut().as_mut() {
            journal.note(dep);
        }
    }

    /// A link whose [`ProjectLink::reads`] keeps only what folding the
    /// exports in may change (see [`Dep::reads_exports`]), or everything.
    pub fn keeping(mut self, all_reads: bool) -> ProjectLink {
        self.all_reads = all_reads;
        self
    }

    fn read_class(&self, name: &str) {
        // Structural reads are listed only when all are (see `reads`).
        if self.all_reads {
            note_name(&self.classes_read, name);
        }
    }

    fn read_shape(&self, class: &str) {
        if self.all_reads {
            note_name(&self.shapes_read, class);
        }
    }

    /// (A lookup is a hot path: nothing is allocated for a read noted before.)
    fn read_method(&self, class: &str, method: &str) {
        if !self.all_reads || self.methods_read.borrow().get(class).is_some_and(|names| names.contains(method)) {
            return;
        }
        self.methods_read.borrow_mut().entry(Name::from(class)).or_default().insert(method.to_string());
    }

    /// Notes a structural read, made only when all reads are listed.
    fn read_structure(&self, dep: impl FnOnce() -> Dep) {
        if self.all_reads {
            self.other_reads.borrow_mut().insert(dep());
        }
    }

    /// Notes a read of what other files' method returns or ivar writes.
    pub fn read(&self, dep: Dep) {
        if dep.reads_exports() {
            self.journal(&dep);
        }
        if self.all_reads || dep.reads_exports() {
            self.other_reads.borrow_mut().insert(dep);
        }
    }

    /// Notes a read of whether the project gives `method` a body of its
    /// own (asked at every call: nothing is allocated for a name read before).
    fn read_redefined(&self, method: &str) {
        if self.all_reads && !self.redefined_read.borrow().contains(method) {
            self.redefined_read.borrow_mut().insert(method.to_string());
        }
    }

    /// Notes that the analysis asked whether the exports are in.
    pub fn read_exported(&self) {
        self.journal(&Dep::Exported);
        self.exported_read.set(true);
    }

    fn read_constant(&self, name: &str) {
        if let Some(journal) = self.journal.borrow_mut().as_mut() {
            journal.note_constant(name);
        }
        note_name(&self.constants_read, name);
    }

    /// What the analysis read of the project (see [`ProjectLink::keeping`]):
    /// sorted when only what folding may change is listed; when everything
    /// is, in no order and maybe with repeats (they are numbered later, and
    /// sorting so many facts was most of the cost of listing them).
    pub fn reads(&self) -> Vec<Dep> {
        if !self.all_reads {
            let mut deps: Vec<Dep> = self.constants_read.borrow().iter().cloned().map(Dep::Constant).collect();
            deps.extend(self.other_reads.borrow().iter().filter(|dep| dep.reads_exports()).cloned());
            if self.exported_read.get() {
                deps.push(Dep::Exported);
            }
            deps.sort_unstable();
            deps.dedup();
            return deps;
        }
        // A class taken as a whole: its shape and its method tables.
        let mut deps: Vec<Dep> =
            self.classes_read.borrow().iter().flat_map(|c| [Dep::Class(c.clone()), Dep::Methods(c.clone())]).collect();
        deps.extend(self.shapes_read.borrow().iter().cloned().map(Dep::Class));
        for (class, methods) in self.methods_read.borrow().iter() {
            deps.push(Dep::Class(class.clone()));
            deps.extend(methods.iter().map(|method| Dep::Method(class.clone(), method.clone())));
        }
        deps.extend(self.constants_read.borrow().iter().cloned().map(Dep::Constant));
        deps.extend(self.other_reads.borrow().iter().cloned());
        deps.extend(self.redefined_read.borrow().iter().cloned().map(Dep::Redefined));
        if self.object_made_read.get() {
            deps.push(Dep::ObjectMade);
        }
        if self.exported_read.get() {
            deps.push(Dep::Exported);
        }
        deps
    }
}

/// Adds `name` to a set of names read, allocating only the first time.
fn note_name(set: &RefCell<HashSet<Name>>, name: &str) {
    if !set.borrow().contains(name) {
        set.borrow_mut().insert(Name::from(name));
    }
}

impl<'pr> ProgramIndex<'pr> {
    pub fn build(root: &Node<'pr>, env: &Environment) -> ProgramIndex<'pr> {
        ProgramIndex::build_in(root, env, None)
    }

    /// Indexes a file of a project: its own classes, completed by what
    /// the project's other files add to them (a class reopened elsewhere,
    /// a superclass or mixin defined elsewhere). The walk itself never
    /// looks at the project, so what the file declares is its own fact.
    pub fn build_in(root: &Node<'pr>, env: &Environment, project: Option<ProjectLink>) -> ProgramIndex<'pr> {
        ProgramIndex::walk(root, env).completed(env, project)
    }

    /// What the file declares, walked from its tree: the part of the index
    /// that reads no other file, so one walk serves each of a file's passes
    /// ([`Self::walked_copy`]), each completing a copy for its project.
    pub fn walk(root: &Node<'pr>, env: &Environment) -> ProgramIndex<'pr> {
        let mut index = ProgramIndex {
            classes: HashMap::default(),
            defs: Vec::new(),
            def_at: HashMap::default(),
            top_methods: HashMap::default(),
            top_redefined: HashMap::default(),
            constants: HashMap::default(),
            ivar_names: Vec::new(),
            class_at: HashMap::default(),
            ivars_unknowable: false,
            outside_ivars: Default::default(),
            project: None,
            restricted_defs: std::cell::OnceCell::new(),
            root: None,
            resolved: RefCell::default(),
            overrides: RefCell::default(),
            written_outside: RefCell::default(),
            object_mixins: RefCell::default(),
            complete: false,
            extended: HashSet::default(),
            mixed_from_outside: HashSet::default(),
            object_singleton_defs: HashSet::default(),
            redirects_output: false,
            core_defs_on: HashMap::default(),
            top_level_defs: HashSet::default(),
            core_replaced: HashSet::default(),
            made_on: HashSet::default(),
            class_mixins: HashSet::default(),
            top_object_extends: Vec::new(),
            rewritten_constants: HashSet::default(),
            written_on: HashSet::default(),
            mutated_constants: HashSet::default(),
            mutated_readers: HashSet::default(),
            block_runners: HashSet::default(),
            block_handoffs: HashSet::default(),
            kept_block_writes: HashSet::default(),
            joined_outside: HashSet::default(),
        };
        let mut walker = Walker {
            index: &mut index,
            env,
            lexical: Vec::new(),
            side: Side::Instance,
            module_function: false,
            in_block: 0,
            in_def: 0,
            defs_on_other: 0,
            def_on_instance: Vec::new(),
            in_singleton_self: 0,
            blocks_make_new_classes: Vec::new(),
            block_targets: Vec::new(),
            eval_targets: Vec::new(),
            new_class_parents: Vec::new(),
            bodies_opened: HashMap::default(),
            other_singletons: Vec::new(),
            iterator_blocks: Vec::new(),
            literal_iterations: Vec::new(),
            def_bodies: Vec::new(),
            included_hooks: Vec::new(),
            kept_by_name: Vec::new(),
            blocks_of_unknown_self: 0,
            macro_names: Vec::new(),
            named_symbols: HashSet::default(),
            introspected: HashSet::default(),
            superclasses_named: Vec::new(),
        };
        walker.visit(root);
        walker.add_macro_names();
        walker.note_bodies_reopened();
        walker.note_opened_later();
        walker.note_own_calls_read();
        walker.note_writes_through_aliases();
        index.joined_outside = index.join_own_outside_writes();
        index.root = Some(crate::syntax::node_clone(root));
        index
    }

    /// `walk` (the file's, made by [`Self::walk`]) completed for
    /// `project`, or the file walked now when there is none: the same
    /// index either way.
    pub fn completing(
        walk: Option<ProgramIndex<'pr>>,
        root: &Node<'pr>,
        env: &Environment,
        project: Option<ProjectLink>,
    ) -> ProgramIndex<'pr> {
        walk.unwrap_or_else(|| ProgramIndex::walk(root, env)).completed(env, project)
    }

    /// Completes a walked index with what `project`'s other files add.
    pub fn completed(mut self, env: &Environment, project: Option<ProjectLink>) -> ProgramIndex<'pr> {
        debug_assert!(!self.complete, "completed once");
        let index = &mut self;
        index.project = project;
        index.merge_other_files();
        index.resolve_pending(env);
        index.mark_extended_self();
        index.complete = true;
        self
    }

    /// A copy of a walked index, to complete for another pass. Only a
    /// walked one: a completed index holds answers read from its project.
    pub fn walked_copy(&self) -> ProgramIndex<'pr> {
        assert!(!self.complete && self.project.is_none(), "only a walked index is copied");
        let defs = self.defs.iter().map(|def| DefInfo {
            node: node_clone(&def.node),
            owner: def.owner.clone(),
            lexical: def.lexical.clone(),
            dual: def.dual,
        });
        let constants = self.constants.iter().map(|(name, writes)| {
            let writes = writes
                .iter()
                .map(|write| ConstantWrite { value: node_clone(&write.value), lexical: write.lexical.clone() });
            (name.clone(), writes.collect())
        });
        ProgramIndex {
            classes: self.classes.clone(),
            defs: defs.collect(),
            def_at: self.def_at.clone(),
            top_methods: self.top_methods.clone(),
            top_redefined: self.top_redefined.clone(),
            constants: constants.collect(),
            ivar_names: self.ivar_names.clone(),
            class_at: self.class_at.clone(),
            ivars_unknowable: self.ivars_unknowable,
            outside_ivars: self.outside_ivars.clone(),
            project: None,
            // (Whatever the walk itself asked is answered as it was.)
            restricted_defs: self.restricted_defs.clone(),
            root: self.root.as_ref().map(node_clone),
            resolved: self.resolved.clone(),
            overrides: self.overrides.clone(),
            written_outside: self.written_outside.clone(),
            object_mixins: self.object_mixins.clone(),
            complete: false,
            extended: self.extended.clone(),
            mixed_from_outside: self.mixed_from_outside.clone(),
            object_singleton_defs: self.object_singleton_defs.clone(),
            redirects_output: self.redirects_output,
            core_defs_on: self.core_defs_on.clone(),
            top_level_defs: self.top_level_defs.clone(),
            core_replaced: self.core_replaced.clone(),
            made_on: self.made_on.clone(),
            class_mixins: self.class_mixins.clone(),
            top_object_extends: self.top_object_extends.clone(),
            rewritten_constants: self.rewritten_constants.clone(),
            written_on: self.written_on.clone(),
            mutated_constants: self.mutated_constants.clone(),
            mutated_readers: self.mutated_readers.clone(),
            block_runners: self.block_runners.clone(),
            block_handoffs: self.block_handoffs.clone(),
            kept_block_writes: self.kept_block_writes.clone(),
            joined_outside: self.joined_outside.clone(),
        }
    }

    /// A class this file opens, or one the rest of the project defines.
    pub fn class(&self, name: &str) -> Option<&UserClass> {
        self.class_reading(name, |project| project.read_class(name))
    }

    /// A class as its shape: whether it exists, its ancestry and flags;
    /// the caller reads none of its method tables.
    pub fn class_shape(&self, name: &str) -> Option<&UserClass> {
        self.class_reading(name, |project| project.read_shape(name))
    }

    /// A class as a method lookup reads it: its shape, and its method
    /// tables under `method` alone (either side); the caller reads no
    /// other entry.
    pub fn class_for_method(&self, name: &str, method: &str) -> Option<&UserClass> {
        self.class_reading(name, |project| project.read_method(name, method))
    }

    /// Does the class define any method, on either side? Reads whether
    /// other files' parts define any, not which.
    pub fn defines_any_method(&self, name: &str) -> bool {
        let note = |project: &ProjectLink| project.read_structure(|| Dep::AnyMethods(Name::from(name)));
        self.class_reading(name, note)
            .is_some_and(|class| !class.instance_methods.is_empty() || !class.singleton_methods.is_empty())
    }

    /// This file's class, or the project's, noting the read `note` says.
    fn class_reading(&self, name: &str, note: impl FnOnce(&ProjectLink)) -> Option<&UserClass> {
        if let Some(local) = self.classes.get(name) {
            return Some(local);
        }
        let project = self.project.as_ref()?;
        note(project);
        project.index.class(name)
    }

    /// Is the class opened by this file alone (so everything about it is in
    /// view here)? Classes of other files are known, but their bodies are not.
    pub fn is_local(&self, name: &str) -> bool {
        self.classes.get(name).is_some_and(|c| !c.spread)
    }

    /// Is the `def` starting at `start` a private instance method?
    /// Parameters from call sites (under the `private` policy) and calls
    /// Ruby refuses (a private method given a receiver) ask.
    pub fn is_private_def(&self, start: usize) -> bool {
        self.def_visibility(start) == Some(super::call_sites::Visibility::Private)
    }

    /// Is the `def` starting at `start` a protected instance method?
    pub fn is_protected_def(&self, start: usize) -> bool {
        self.def_visibility(start) == Some(super::call_sites::Visibility::Protected)
    }

    /// A `def`'s visibility when it is not public, found from `root`
    /// when first asked.
    fn def_visibility(&self, start: usize) -> Option<super::call_sites::Visibility> {
        self.restricted_defs
            .get_or_init(|| self.root.as_ref().map(super::call_sites::restricted_defs).unwrap_or_default())
            .get(&start)
            .copied()
    }

    /// What this file defines for the others (call on an index built
    /// without a project, so nothing of other files is mixed in).
    pub fn interface(&self) -> FileInterface {
        let mut classes: Vec<UserClass> = self.classes.values().cloned().collect();
        classes.sort_by(|a, b| a.name.cmp(&b.name));
        for class in &mut classes {
            class.ivars_written.sort();
        }
        let mut constants: Vec<Name> = self.constants.keys().cloned().collect();
        constants.sort();
        FileInterface {
            classes,
            ivar_names: self.ivar_names.clone(),
            constants,
            ivars_unknowable: self.ivars_unknowable,
            outside_ivars: self.outside_ivars.sorted(),
            top_object_extends: self.top_object_extends.clone(),
            object_defs: sorted(&self.object_singleton_defs),
            core_defs_on: {
                let mut on: Vec<(Name, String)> = self
                    .core_defs_on
                    .iter()
                    .flat_map(|(method, classes)| classes.iter().map(move |class| (class.clone(), method.clone())))
                    .collect();
                on.sort();
                on
            },
            top_level_defs: sorted(&self.top_level_defs),
            redirects_output: self.redirects_output,
            core_replaced: sorted(&self.core_replaced),
            class_mixins: sorted(&self.class_mixins),
            rewritten_constants: sorted(&self.rewritten_constants),
            written_on: sorted(&self.written_on),
            mutated_constants: sorted(&self.mutated_constants),
            mutated_readers: sorted(&self.mutated_readers),
            block_runners: sorted(&self.block_runners),
            block_handoffs: sorted(&self.block_handoffs),
            kept_block_writes: sorted(&self.kept_block_writes),
            made_on: sorted(&self.made_on),
        }
    }

    /// The file's number in its project, if it is analysed as part of one.
    pub fn file_id(&self) -> Option<FileId> {
        self.project.as_ref().map(|p| p.file)
    }

    /// What another file of the project assigns to a constant this file
    /// does not assign.
    pub fn project_constant(&self, full: &str) -> Option<Type> {
        let project = self.project.as_ref()?;
        project.read_constant(full);
        project.index.constant(full, project.file).cloned()
    }

    /// Does this file or another set or remove the constant `full` by name
    /// (`M.const_set(:X, v)`, `remove_const(:X)` in `M`'s body)?
    pub fn constant_rewritten(&self, full: &str) -> bool {
        if crate::model::index::constant_rewrites(&self.rewritten_constants, full) {
            return true;
        }
        let Some(project) = self.project.as_ref() else { return false };
        project.read_structure(|| Dep::ConstantRewritten(full.to_string()));
        project.index.constant_rewritten(full)
    }

    /// Does this file or another mutate the value of a constant of this
    /// name in place (`REGISTRY[k] = v`, `PORTS << x`)? Then what it holds
    /// is not what its literal says.
    pub fn constant_mutated(&self, full: &str) -> bool {
        if self.mutated_constants.contains(crate::model::index::constant_tail(full)) {
            return true;
        }
        let Some(project) = self.project.as_ref() else { return false };
        project.read_structure(|| Dep::ConstantRewritten(full.to_string()));
        project.index.constant_mutated(full)
    }

    /// Does this file or another mutate in place what a reader of this
    /// name gives (`pool.ids << x`, `Reg.registry[k] = v`)? Then the ivar
    /// behind it may hold anything.
    pub fn reader_mutated(&self, name: &str) -> bool {
        if self.mutated_readers.contains(name) {
            return true;
        }
        let Some(project) = self.project.as_ref() else { return false };
        project.read_redefined(name);
        project.index.reader_mutated(name)
    }

    /// Does this file or another write an ivar of this name in objects it
    /// cannot name (`obj.instance_variable_set(:@x, v)`), so perhaps in
    /// any class's?
    pub fn ivar_written_outside(&self, class: &Name, ivar: &str) -> bool {
        if self.outside_ivars.includes(ivar, class) || self.joined_outside.contains(ivar) {
            return true;
        }
        let Some(project) = self.project.as_ref() else { return false };
        let key = (class.clone(), ivar.to_string());
        if let Some(known) = self.written_outside.borrow().get(&key) {
            return *known;
        }
        project.read(Dep::OutsideIvar(class.clone(), ivar.to_string()));
        let written = project.index.written_outside(class, ivar);
        self.written_outside.borrow_mut().insert(key, written);
        written
    }

    /// Is this file's top-level `def` of `method` surely the body
    /// Object's `method` has: no other file can say otherwise (a file
    /// analysed alone), and no core class or object here redefines it?
    pub fn top_level_def_stands(&self, method: &str) -> Option<usize> {
        let id = *self.top_methods.get(method)?;
        let alone = self.project.is_none()
            && !self.core_defs_on.contains_key(method)
            && !self.object_singleton_defs.contains(method)
            && !self.top_redefined.contains_key(method);
        alone.then_some(id)
    }

    /// Does the project give Object (or Kernel, BasicObject) a body of
    /// its own for `method`: a top-level `def` here or in another file, or
    /// one of those classes reopened?
    pub fn root_redefined(&self, method: &str) -> bool {
        // Those are core classes: a name no core class is given is none
        // of theirs (one read, asked first: most names are not), unless
        // one of them makes methods under computed names.
        const ROOTS: [&str; 3] = ["Object", "Kernel", "BasicObject"];
        let makes_some = || ROOTS.into_iter().any(|root| self.class(root).is_some_and(|c| !c.made_methods.is_empty()));
        if !self.core_redefined(method) && !makes_some() {
            return false;
        }
        if self.top_level_defs.contains(method) {
            return true;
        }
        if ROOTS.into_iter().any(|root| self.root_defines(root, method)) {
            return true;
        }
        let Some(project) = self.project.as_ref() else { return false };
        project.read_redefined(method);
        project.index.top_level_defined(method)
    }

    /// Does the project's reopened `root` (Object, Kernel, BasicObject)
    /// define or make the instance method `method`?
    pub fn root_defines(&self, root: &str, method: &str) -> bool {
        self.class_for_method(root, method)
            .is_some_and(|c| c.instance_methods.contains_key(method) || c.makes(Side::Instance, method))
    }

    /// Does this file or another give `method` a body of its own where a
    /// core value may reach it (`def obj.name`, a `def` in a block or in a
    /// refinement, a `def` in a reopened `String`)?
    pub fn core_redefined(&self, method: &str) -> bool {
        self.core_redefined_for(None, method)
    }

    /// As [`Self::core_redefined`], for a value of the core class `class`
    /// alone: a `def` in another reopened core class (`class Set; def
    /// shift`) does not reach it; one in `Object`, `Kernel` or a module
    /// does, as do those the question above counts for any object.
    pub fn core_redefined_on(&self, class: &str, method: &str) -> bool {
        self.core_redefined_for(Some(class), method)
    }

    /// The two above: `None` counts a `def` in any reopened core class.
    fn core_redefined_for(&self, class: Option<&str>, method: &str) -> bool {
        let reaches = |on: &Name| class.is_none_or(|class| crate::model::index::core_def_reaches(on, class));
        let made_reaches = |made: &MadeOn| match class {
            None => made.reaches_core(method),
            Some(class) => made.reaches_core_of(method, class),
        };
        if self.object_singleton_defs.contains(method)
            || self.core_defs_on.get(method).is_some_and(|ons| ons.iter().any(reaches))
            || self.top_level_defs.contains(method)
            || self.made_on.iter().any(made_reaches)
        {
            return true;
        }
        let Some(project) = self.project.as_ref() else { return false };
        project.read_redefined(method);
        match class {
            None => project.index.redefined(method),
            Some(class) => project.index.redefined_on(class, method),
        }
    }

    /// May a module this file or another defines make `method` for
    /// whatever extends it? (A cheap question before the walk of the
    /// modules a class extends, which reads each one's methods.)
    pub fn extenders_may_make(&self, side: Side, method: &str) -> bool {
        let covers = |class: &UserClass| class.made_for_extenders.iter().any(|made| made.covers(side, method));
        if self.classes.values().any(covers) {
            return true;
        }
        let Some(project) = self.project.as_ref() else { return false };
        project.object_made_read.set(true);
        project.index.extenders_may_make(side, method)
    }

    /// May a module mixed in from outside a class body (`Sub.include(M)`,
    /// `Base.prepend(M)`, `obj.extend(M)`), in this file or another,
    /// define `method`, and so answer a `super` of any class ahead of its
    /// superclass? (Asked of every class alike: which one it reaches is
    /// not told.)
    pub fn mixed_in_from_outside(&self, method: &str) -> bool {
        let defines = |m: &Name| self.classes.get(m).is_some_and(|c| c.instance_methods.contains_key(method));
        let here = self.mixed_from_outside.iter().any(defines);
        if here {
            return true;
        }
        let Some(project) = self.project.as_ref() else { return false };
        // Whether one defines it, not what it returns: what folding the
        // exports in leaves as it was.
        project.read_structure(|| Dep::ObjectMixinsDefine(method.to_string()));
        if let Some(known) = self.object_mixins.borrow().get(method) {
            return *known;
        }
        let defines = project.index.object_mixins_define(method);
        self.object_mixins.borrow_mut().insert(method.to_string(), defines);
        defines
    }

    /// May this file or another give `method` to `class` (or a class it
    /// is below) under a computed name from outside its body
    /// (`Foo.define_method(n)`, see [`MadeOn`])?
    pub fn made_on(&self, class: &str, side: Side, method: &str) -> bool {
        if MadeOn::any_covers(&self.made_on, class, side, method) {
            return true;
        }
        let Some(project) = self.project.as_ref() else { return false };
        project.object_made_read.set(true);
        project.index.made_on(class, side, method)
    }

    /// This file's [`MadeOn`]s that may answer `method` on `side` for a
    /// class below `class` (`below` tells), or for any class.
    pub(super) fn made_here_below(&self, side: Side, method: &str, below: impl Fn(&str) -> bool) -> bool {
        self.made_on.iter().any(|made| {
            made.made.covers(side, method) && (made.class == crate::model::index::ANY_CLASS || below(&made.class))
        })
    }

    /// May some class answer `method` with a body a module mixed into
    /// single objects makes for whatever extends it (see
    /// [`crate::model::index::ProjectIndex::objects_make`])?
    pub fn made_for_objects(&self, side: Side, method: &str) -> bool {
        let Some(project) = self.project.as_ref() else { return false };
        project.object_made_read.set(true);
        project.index.objects_make(side, method)
    }

    /// May Kernel's printing function `method` run the program's code
    /// here: does this file or another assign `$stdout` (or `$stderr`,
    /// `$>`)?
    pub fn output_redirected(&self, method: &str) -> bool {
        if !OUTPUT_FUNCTIONS.contains(&method) {
            return false;
        }
        if self.redirects_output {
            return true;
        }
        let Some(project) = self.project.as_ref() else { return false };
        project.read_redefined(method);
        project.index.output_redirected(method)
    }

    /// Does this file or another define `method` for instances of `class`
    /// in a block run on it (`refine String do def upcase`)?
    pub fn block_replaced(&self, class: &str, method: &str) -> bool {
        if crate::model::index::replaced_exactly(&self.core_replaced, class, method) {
            return true;
        }
        let Some(project) = self.project.as_ref() else { return false };
        project.read_redefined(method);
        project.index.block_replaced(class, method)
    }

    /// Is `method` given to some class object from outside its body
    /// (`Conf.extend(M)`, `def Conf.level` in another file)?
    pub fn class_objects_replace(&self, method: &str) -> bool {
        let singleton = |(class, m): &(String, String)| m == method && crate::model::index::is_singleton_key(class);
        if self.core_replaced.iter().any(singleton) {
            return true;
        }
        let Some(project) = self.project.as_ref() else { return false };
        project.read_redefined(method);
        project.index.class_objects_replace(method)
    }

    /// May objects of `class` be made without running the `initialize`
    /// its code shows: `method` (`initialize`, `new` or `allocate`) given
    /// a body of its own, or `allocate` called on it, here or elsewhere?
    pub fn construction_replaced(&self, class: &str, method: &str) -> bool {
        if crate::model::index::replaced_on(&self.core_replaced, class, method) {
            return true;
        }
        let Some(project) = self.project.as_ref() else { return false };
        project.read_redefined(method);
        project.index.construction_replaced(class, method)
    }

    /// What subclasses in other files return from their overrides of a
    /// method this file defines for `class`. Asked at every call of the
    /// method, so worked out once per inference (rubocop's `Cop::Base` has
    /// hundreds of descendants, each looked at).
    pub fn overrides_elsewhere(&self, class: &str, side: Side, method: &str) -> Option<Vec<Type>> {
        let project = self.project.as_ref()?;
        let key = (Name::from(class), side, method.to_string());
        if let Some(known) = self.overrides.borrow().get(&key) {
            // The answer is this inference's to reuse; the journal still
            // lists the read for the `def` asking now.
            project.journal(&Dep::Overrides(key.0.clone(), side, key.2.clone()));
            if side == Side::Instance {
                project.journal(&Dep::MixinOverrides(key.0.clone(), key.2.clone()));
            }
            return known.clone();
        }
        // Who the descendants are is the class's shape; which of them
        // define the method, and what theirs return, one read.
        project.read_shape(class);
        project.read(Dep::Overrides(Name::from(class), side, method.to_string()));
        if side == Side::Instance {
            project.read(Dep::MixinOverrides(Name::from(class), method.to_string()));
        }
        let found = project.index.override_returns(class, side, method, project.file);
        self.overrides.borrow_mut().insert(key, found.clone());
        found
    }

    /// Another file's method, its answers read (`Dep::Return` prints them
    /// all: its returns and yields, with and without the overrides below).
    fn read_external(&self, id: u32) -> Option<&crate::model::index::ExternalMethod> {
        let project = self.project.as_ref()?;
        let method = project.index.method(id);
        project.read(Dep::Return(method.owner.clone(), method.side, method.name.clone()));
        Some(method)
    }

    /// The return type another file's method has.
    pub fn external_return(&self, id: u32) -> Type {
        self.read_external(id).map_or_else(Type::untyped, |method| method.returns.clone())
    }

    /// What another file's method's own definitions return, without its
    /// overrides below (what `super` from a subclass reaches).
    pub fn external_own_return(&self, id: u32) -> Type {
        self.read_external(id).map_or_else(Type::untyped, |method| method.own.clone())
    }

    /// What another file's method yields its block, when known.
    pub fn external_yields(&self, id: u32) -> Option<Vec<Type>> {
        self.read_external(id)?.yields.clone()
    }

    /// What another file's method's own definitions yield its block, when
    /// known (see [`Self::external_own_return`]).
    pub fn external_own_yields(&self, id: u32) -> Option<Vec<Type>> {
        self.read_external(id)?.own_yields.clone()
    }

    /// Whose method another file's method is: the class (as the project
    /// names it) and side. (The lookup that found it read where it is.)
    pub fn external_owner(&self, id: u32) -> Option<(Name, Side)> {
        let method = self.project.as_ref()?.index.method(id);
        Some((method.owner.clone(), method.side))
    }

    /// Completes this file's classes with their parts in other files.
    fn merge_other_files(&mut self) {
        let Some(project) = &self.project else { return };
        let mut names: Vec<Name> = self.classes.keys().cloned().collect();
        names.sort();
        for name in names {
            project.read_class(&name);
            let Some(other) = project.index.class_without(&name, project.file) else { continue };
            let local = self.classes.get_mut(&name).expect("listed");
            local.spread = true;
            if local.superclass == Superclass::Implicit
                && other.written.iter().any(|(k, _)| *k == PendingKind::Superclass)
            {
                local.superclass = other.superclass.clone();
            }
            for (list, more) in [
                (&mut local.includes, &other.includes),
                (&mut local.extends, &other.extends),
                (&mut local.prepends, &other.prepends),
            ] {
                for module in more {
                    if !list.contains(module) {
                        list.push(module.clone());
                    }
                }
            }
            local.unknown_mixins |= other.unknown_mixins;
            local.written.extend(other.written.iter().cloned());
            local.has_method_missing |= other.has_method_missing;
            local.made_methods.extend(other.made_methods.iter().cloned());
            local.made_for_extenders.extend(other.made_for_extenders.iter().cloned());
            local.ivars_opaque |= other.ivars_opaque;
            local.extends_self |= other.extends_self;
            local.ivars_set_from_outside.extend(other.ivars_set_from_outside.iter().cloned());
            if !local.instance_methods.contains_key("initialize") {
                local.initialized_ivars.extend(other.initialized_ivars.iter().cloned());
            } else if other.instance_methods.contains_key("initialize") {
                // Defined here and elsewhere: the file loaded last wins.
                local.initialized_ivars.insert(INITIALIZE_REDEFINED.to_string());
            }
            for side in [Side::Instance, Side::Singleton] {
                let (table, more) = match side {
                    Side::Instance => (&mut local.instance_methods, &other.instance_methods),
                    Side::Singleton => (&mut local.singleton_methods, &other.singleton_methods),
                };
                for (method, entry) in more {
                    // Defined here and elsewhere: the file loaded last wins,
                    // so neither body can be trusted for the result.
                    let merged = if table.contains_key(method) { MethodEntry::Opaque } else { *entry };
                    table.insert(method.clone(), merged);
                }
            }
        }
    }

    pub fn def(&self, id: usize) -> &DefInfo<'pr> {
        &self.defs[id]
    }

    /// Is this constant path a class, module or constant this file or the
    /// signatures define?
    pub fn is_known_constant(&self, env: &Environment, full: &str) -> bool {
        self.classes.contains_key(full)
            || self.constants.contains_key(full)
            || env.has_class(full)
            || env.constant(full).is_some()
            || self.project.as_ref().is_some_and(|project| {
                // Whether it exists is part of its shape; a constant's, who
                // assigns it (not its type, which folding may change).
                project.read_shape(full);
                project.read_structure(|| Dep::ConstantNamed(Name::from(full)));
                project.index.class(full).is_some() || project.index.has_constant(full)
            })
    }

    /// Ruby's constant lookup, simplified: the lexical scopes innermost
    /// first, then the ancestors of the innermost class, then the top level.
    /// A place on the way that some file sets by name (`const_set`) may hold
    /// it first: then no answer is certain.
    pub fn resolve_constant(&self, env: &Environment, lexical: &[Name], written: &str) -> Option<Name> {
        if !self.complete {
            return self.resolve_anew(env, lexical, written, &[]);
        }
        let seen = self.resolved.borrow().get(written).and_then(|scopes| {
            scopes.iter().find(|(scope, _)| scope.as_slice() == lexical).map(|(_, found)| found.clone())
        });
        if let Some(found) = seen {
            return found;
        }
        let found = self.resolve_anew(env, lexical, written, &[]);
        self.resolved.borrow_mut().entry(written.to_string()).or_default().push((lexical.to_vec(), found.clone()));
        found
    }

    /// `unseen`: classes that do not exist yet where the path is written
    /// (see [`PendingKind::OpenedLater`]); the lookup goes past them.
    fn resolve_anew(&self, env: &Environment, lexical: &[Name], written: &str, unseen: &[Name]) -> Option<Name> {
        if let Some(absolute) = written.strip_prefix("::") {
            return self.is_known_constant(env, absolute).then(|| Name::from(absolute));
        }
        let (head, rest) = match written.split_once("::") {
            Some((head, rest)) => (head, Some(rest)),
            None => (written, None),
        };
        let head = match self.resolve_head(env, lexical, head, unseen) {
            Head::Found(head) => head,
            // Some module mixed in from outside may hold it first: no
            // answer is certain, so none is given.
            Head::Uncertain => return None,
            Head::Missing => {
                // A namespace nobody here defines (`class RDoc::Sub <
                // RDoc::Base`, `RDoc` being another file's): the whole path
                // may still name a known class, and then the namespace exists.
                rest?;
                let scoped = lexical.iter().rev().map(|scope| format!("{scope}::{written}"));
                return scoped
                    .chain([written.to_string()])
                    .find(|full| self.is_known_constant(env, full))
                    .map(Name::from);
            }
        };
        match rest {
            None => Some(head),
            Some(rest) => {
                let full = format!("{head}::{rest}");
                self.is_known_constant(env, &full).then(|| Name::from(full))
            }
        }
    }

    fn resolve_head(&self, env: &Environment, lexical: &[Name], head: &str, unseen: &[Name]) -> Head {
        let known = |full: &str| self.is_known_constant(env, full) && !unseen.iter().any(|n| &**n == full);
        let mut full = String::new();
        for scope in lexical.iter().rev().filter(|scope| &***scope != SINGLETON_OF_SELF) {
            if known(member_of(&mut full, scope, head)) {
                return Head::Found(Name::from(full));
            }
            // `const_set(:A, v)` in that scope may make it first.
            if self.constant_rewritten(&full) {
                return Head::Uncertain;
            }
        }
        // In `class << self` the innermost scope is the singleton class,
        // whose ancestors hold no constant of the class's own ancestors'.
        if let Some(innermost) = lexical.last().filter(|scope| &***scope != SINGLETON_OF_SELF) {
            if self.mixed_from_outside(innermost) {
                return Head::Uncertain;
            }
            for ancestor in self.ancestor_names(env, innermost) {
                if self.mixed_from_outside(&ancestor) {
                    return Head::Uncertain;
                }
                if known(member_of(&mut full, &ancestor, head)) {
                    return Head::Found(Name::from(full));
                }
                if self.constant_rewritten(&full) {
                    return Head::Uncertain;
                }
            }
        }
        match known(head) {
            true => Head::Found(Name::from(head)),
            false => Head::Missing,
        }
    }

    /// A constant under a known namespace: `Parent::NAME`, also through the
    /// parent's ancestors (`File::SEPARATOR` is `IO::...`-style inheritance).
    /// `None` also where a module mixed in from outside may answer first.
    pub fn resolve_member(&self, env: &Environment, parent: &str, member: &str) -> Option<Name> {
        let mut full = String::new();
        if self.is_known_constant(env, member_of(&mut full, parent, member)) {
            return Some(Name::from(full));
        }
        // `Sub.const_set(:KIND, v)`: `Sub::KIND` is that, not `Base::KIND`.
        if self.mixed_from_outside(parent) || self.constant_rewritten(&full) {
            return None;
        }
        for ancestor in self.ancestor_names(env, parent) {
            if self.mixed_from_outside(&ancestor) {
                return None;
            }
            if self.is_known_constant(env, member_of(&mut full, &ancestor, member)) {
                return Some(Name::from(full));
            }
            if self.constant_rewritten(&full) {
                return None;
            }
        }
        None
    }

    /// Does this file or another mix a module into `class` from outside
    /// its body (`Parent.include(N)`)? Then a constant lookup through its
    /// ancestors may find the module's constant first, which this index
    /// does not place: Ruby puts it ahead of the body's own mixins.
    fn mixed_from_outside(&self, class: &str) -> bool {
        let here = self.class_mixins.iter().any(|(key, _)| {
            !crate::model::index::is_singleton_key(key) && crate::model::index::may_name_class(key, class)
        });
        if here {
            return true;
        }
        let Some(project) = self.project.as_ref() else { return false };
        project.read_structure(|| Dep::OutsideMixed(Name::from(class)));
        project.index.mixed_from_outside(class)
    }

    /// Ancestor class and module names: this file's, then the signatures'.
    pub fn ancestor_names(&self, env: &Environment, class: &str) -> Vec<Name> {
        let mut out = Vec::new();
        let mut current = Some(Name::from(class));
        let mut guard = 0;
        while let Some(name) = current.take() {
            guard += 1;
            if guard > 64 {
                break;
            }
            match self.class_shape(&name) {
                Some(user) => {
                    out.extend(user.prepends.iter().rev().map(|m| (m.clone(), false)));
                    if guard > 1 {
                        out.push((name.clone(), false));
                    }
                    for include in user.includes.iter().rev() {
                        out.push((include.clone(), true));
                        out.extend(env.ancestors(include).iter().skip(1).map(|a| (a.name.clone(), true)));
                    }
                    if env.has_class(&name) {
                        // A reopened core class: the signatures know the rest.
                        out.extend(env.ancestors(&name).iter().skip(1).map(|a| (a.name.clone(), false)));
                        break;
                    }
                    current = match &user.superclass {
                        Superclass::Known(parent) => Some(parent.clone()),
                        Superclass::Implicit if !user.is_module => Some(Name::from("Object")),
                        _ => None,
                    };
                }
                None => {
                    let skip = usize::from(guard == 1);
                    out.extend(env.ancestors(&name).iter().skip(skip).map(|a| (a.name.clone(), false)));
                }
            }
        }
        crate::model::classes::drop_reincluded(out)
    }

    /// Instance methods of `extend self` modules run with either self.
    fn mark_extended_self(&mut self) {
        let ids: Vec<usize> = self
            .classes
            .values()
            .filter(|c| c.extends_self)
            .flat_map(|c| c.instance_methods.values())
            .filter_map(|entry| match entry {
                MethodEntry::Def(id) => Some(*id),
                _ => None,
            })
            .collect();
        for id in ids {
            self.defs[id].dual = true;
        }
    }

    /// What the project's structure joins across files (see
    /// `ProjectIndex::structure`), joined within this one for when it is
    /// analysed alone: writes in blocks its own methods run elsewhere, and
    /// its modules' writes when it binds an unnamed module's methods.
    fn join_own_outside_writes(&self) -> HashSet<String> {
        let handoffs = sorted(&self.block_handoffs);
        let runners = crate::model::index::run_elsewhere(self.block_runners.iter().map(String::as_str), &handoffs);
        let written = self.kept_block_writes.iter().filter(|(method, _)| runners.contains(method.as_str()));
        let mut names: HashSet<String> = written.map(|(_, ivar)| ivar.clone()).collect();
        if self.outside_ivars.modules {
            for module in self.classes.values().filter(|c| c.is_module) {
                names.extend(module.ivars_written.iter().chain(&module.ivars_set_from_outside).cloned());
            }
        }
        names
    }

    /// The classes a superclass line cannot name (see
    /// [`PendingKind::OpenedLater`]): opened further down this file, and
    /// neither declared by the signatures nor opened by another file.
    fn opened_later(&self, env: &Environment, pending: &[(PendingKind, String)]) -> Vec<Name> {
        let later = pending.iter().filter(|(kind, _)| *kind == PendingKind::OpenedLater);
        later
            .filter(|(_, name)| {
                !env.has_class(name)
                    && !self.project.as_ref().is_some_and(|project| {
                        project.read_shape(name);
                        project.index.opened_elsewhere(name, project.file)
                    })
            })
            .map(|(_, name)| Name::from(name.as_str()))
            .collect()
    }

    fn resolve_pending(&mut self, env: &Environment) {
        for written in self.top_object_extends.clone() {
            if let Some(name) = self.resolve_constant(env, &[], &written) {
                self.extended.insert(name.clone());
                self.mixed_from_outside.insert(name);
            }
        }
        let names: Vec<Name> = self.classes.keys().cloned().collect();
        for class in names {
            let (pending, lexical) = {
                let user = self.classes.get_mut(&class).expect("listed");
                user.written = user.pending.clone();
                (std::mem::take(&mut user.pending), user.lexical.clone())
            };
            // `obj.extend(M)` is written inside the class's body.
            let inside: Vec<Name> = lexical.iter().cloned().chain([class.clone()]).collect();
            let unseen = self.opened_later(env, &pending);
            for (kind, written) in pending {
                let scope = match kind {
                    PendingKind::OpenedLater => continue,
                    PendingKind::ObjectExtend | PendingKind::IncluderExtend => &inside,
                    _ => &lexical,
                };
                let resolved = match kind {
                    PendingKind::Superclass if !unseen.is_empty() => self.resolve_anew(env, scope, &written, &unseen),
                    _ => self.resolve_constant(env, scope, &written),
                };
                let resolved = resolved.filter(|n| *n != class);
                let user = self.classes.get_mut(&class).expect("listed");
                match (kind, resolved) {
                    (PendingKind::Superclass, Some(name)) => user.superclass = Superclass::Known(name),
                    (PendingKind::Superclass, None) => user.superclass = Superclass::Unknown,
                    // A module mixed in again stays where it was: Ruby
                    // skips it (`include A; include B; include A` finds B's
                    // methods first).
                    (PendingKind::Include, Some(name)) => add_mixin(&mut user.includes, name),
                    (PendingKind::Extend, Some(name)) => {
                        add_mixin(&mut user.extends, name.clone());
                        self.extended.insert(name);
                    }
                    (PendingKind::Prepend, Some(name)) => add_mixin(&mut user.prepends, name),
                    // What objects it reaches is the project's to say;
                    // that it is extended into some, the file's.
                    (PendingKind::ObjectExtend, Some(name)) => {
                        self.extended.insert(name.clone());
                        self.mixed_from_outside.insert(name);
                    }
                    (PendingKind::IncluderExtend, Some(name)) => {
                        user.includer_extends.push(name.clone());
                        self.extended.insert(name.clone());
                        self.mixed_from_outside.insert(name);
                    }
                    (PendingKind::ObjectExtend | PendingKind::IncluderExtend, None) => {}
                    // Read above, never resolved.
                    (PendingKind::OpenedLater, _) => {}
                    (_, None) => user.unknown_mixins = true,
                }
            }
        }
    }
}

struct Walker<'i, 'pr, 'e> {
    index: &'i mut ProgramIndex<'pr>,
    env: &'e Environment,
    /// Enclosing classes and modules, outermost first.
    lexical: Vec<Name>,
    side: Side,
    /// After a bare `module_function`: defs are also singleton methods.
    module_function: bool,
    /// Inside a block or lambda: a `def` there belongs to whatever object
    /// runs the block (`Class.new do ... end`), not to the enclosing class.
    in_block: usize,
    /// Inside a `def`: its calls run later, on whatever `self` it gets.
    in_def: usize,
    /// Inside a `def` whose `self` is not the class being defined nor its
    /// instances (`def obj.m`, a `def` in a block or in `class << obj`).
    defs_on_other: usize,
    /// Where the symbols a call names its method with start (`send(:x)`,
    /// `method(:x)`): what they name is judged at the call.
    named_symbols: HashSet<usize>,
    /// Where `instance_method` calls start whose method is only looked at
    /// (`.owner`, `.arity`): it is bound to nothing.
    introspected: HashSet<usize>,
    /// Each class whose superclass is written as a relative constant path:
    /// where the path starts and its first segment (see
    /// [`PendingKind::OpenedLater`]).
    superclasses_named: Vec<(Name, usize, String)>,
    /// For each enclosing `def`, innermost last: is `self` there an
    /// instance of the class (not the class, nor another object)? Then
    /// `extend(M)`, `def self.x` and `define_singleton_method` change that
    /// one object, not the class.
    def_on_instance: Vec<bool>,
    /// Inside `class << self` bodies (see [`SINGLETON_OF_SELF`]).
    in_singleton_self: usize,
    /// For each enclosing call with a block, innermost last: does the
    /// block make a class no project class is above (`Struct.new do`,
    /// `Class.new do`, `Data.define do`)? Its `def`s answer for nobody else.
    blocks_make_new_classes: Vec<bool>,
    /// For each enclosing block, the class the signatures declare that it
    /// runs on, if any (see [`block_target`]).
    block_targets: Vec<Option<String>>,
    /// The same, for any class written as a constant (a project's too).
    eval_targets: Vec<Option<String>>,
    /// For each block being walked: the superclass written in `Class.new(A)
    /// do ... end`, whose `def initialize` makes A's objects without A's.
    new_class_parents: Vec<Option<String>>,
    /// How many `module` bodies open each module here.
    bodies_opened: HashMap<Name, u32>,
    /// `class << X` bodies: X as written when it is a constant path.
    other_singletons: Vec<Option<String>>,
    /// For each enclosing call with a block: where its block starts, and
    /// whether the call is a core iterator, which runs the block with the
    /// `self` it was written under (`each`, `map`, `times`).
    iterator_blocks: Vec<(usize, bool, Option<String>)>,
    /// For each enclosing call with a block: when it walks a literal list
    /// of names (`%i[a b].each do |name|`), the parameter and the names.
    literal_iterations: Vec<Option<(Vec<u8>, Vec<String>)>>,
    /// The bodies of the enclosing `def`s, innermost last.
    def_bodies: Vec<(Option<Node<'pr>>, Option<Node<'pr>>)>,
    /// For each `def` walked into: its parameter, when it is a module's
    /// `def self.included(base)` (see [`Walker::extends_the_includer`]).
    included_hooks: Vec<Option<String>>,
    /// Enclosing blocks taken to keep `self` because the signatures name
    /// their method (`each`, `run`): those names.
    kept_by_name: Vec<String>,
    /// Enclosing blocks (and lambdas) that may run with another `self`:
    /// any but an iterator's (`instance_eval` runs one on any object, and
    /// so may a method nobody can see).
    blocks_of_unknown_self: usize,
    /// Names a macro the signatures do not know was given in a class body
    /// (`def_node_matcher :name, ...`): it may define them.
    macro_names: Vec<(Name, Side, String)>,
}

fn sorted<T: Ord + Clone>(names: &HashSet<T>) -> Vec<T> {
    let mut names: Vec<T> = names.iter().cloned().collect();
    names.sort();
    names
}

/// `A` in `Class.new(A)` (written as a constant).
fn class_new_parent(call: &CallNode<'_>) -> Option<String> {
    let receiver = call.receiver().and_then(|r| written_class(&r))?;
    if call.name().as_slice() != b"new" || receiver != "Class" {
        return None;
    }
    written_class(&call.arguments()?.arguments().iter().next()?)
}

/// The class a block defines methods of, when the call names it:
/// `refine String do`, `String.class_eval do` (and `class_exec`,
/// `module_eval`, `module_exec`).
fn block_target(call: &CallNode<'_>) -> Option<String> {
    let written = match call.name().as_slice() {
        b"refine" => call.arguments()?.arguments().iter().next().and_then(|a| constant_path_text(&a)),
        b"class_eval" | b"class_exec" | b"module_eval" | b"module_exec" if call.arguments().is_none() => {
            constant_path_text(&call.receiver()?)
        }
        _ => None,
    }?;
    Some(written.trim_start_matches("::").to_string())
}

/// The class `Foo.instance_eval do` (or `instance_exec`) runs its block
/// on, when the receiver names one.
fn instance_eval_target(call: &CallNode<'_>) -> Option<String> {
    let runs_block = match call.name().as_slice() {
        b"instance_eval" => call.arguments().is_none(),
        b"instance_exec" => true,
        _ => false,
    };
    let written = constant_path_text(&call.receiver().filter(|_| runs_block)?)?;
    Some(written.trim_start_matches("::").to_string())
}

/// A call that makes methods, directly or sent (`define_method(n)`,
/// `send(:alias_method, n, :x)`), when the maker is one of `makers`: its
/// name, and the arguments that name what it makes (`define_method` and
/// `alias_method` name one).
fn maker_and_names<'a, 'pr>(
    method: &str,
    arguments: &'a [Node<'pr>],
    makers: &[&str],
) -> Option<(String, &'a [Node<'pr>])> {
    let (maker, names) = match (is_send(method), arguments.split_first()) {
        (true, Some((first, rest))) => (literal_name(first).unwrap_or_default(), rest),
        (true, None) => return None,
        (false, _) => (method.to_string(), arguments),
    };
    if !makers.contains(&maker.as_str()) {
        return None;
    }
    let names = match &*maker {
        "define_method" | "define_singleton_method" | "alias_method" => &names[..names.len().min(1)],
        _ => names,
    };
    Some((maker, names))
}

/// `singleton_class`, `self.singleton_class` or `self.class`: the class of
/// the object being run (see [`Walker::note_made_through_the_class`]).
fn through_the_class(receiver: &Node<'_>) -> bool {
    receiver.as_call_node().is_some_and(|inner| {
        let name = crate::syntax::name_text(inner.name());
        matches!(inner.receiver(), None | Some(Node::SelfNode { .. }))
            && (&*name == "singleton_class" || (&*name == "class" && inner.receiver().is_some()))
    })
}

/// See [`Walker::block_self`].
enum BlockSelf {
    Lexical,
    Class(String),
    Unknown,
}

/// A constant path as written, without a leading `::` (`::Foo` is `Foo`).
fn written_class(node: &Node<'_>) -> Option<String> {
    constant_path_text(node).map(|t| t.trim_start_matches("::").to_string())
}

/// The methods `Module.new { def a; define_method(:b) }` defines (not
/// those its methods' bodies or nested classes do); `None` for anything
/// else.
fn anonymous_module_defs(node: &Node<'_>) -> Option<Vec<String>> {
    let call = node.as_call_node()?;
    let receiver = call.receiver().and_then(|r| written_class(&r));
    if call.name().as_slice() != b"new" || receiver.as_deref() != Some("Module") {
        return None;
    }
    let block = call.block()?.as_block_node()?;
    let mut names = Vec::new();
    let statements: Vec<Node<'_>> = match block.body() {
        Some(Node::StatementsNode { .. }) => block.body()?.as_statements_node()?.body().iter().collect(),
        Some(body) => vec![body],
        None => Vec::new(),
    };
    for statement in statements {
        if let Some(def) = statement.as_def_node() {
            if def.receiver().is_none() {
                names.push(name(def.name()));
            }
        } else if let Some(made) = statement.as_call_node() {
            let maker = name(made.name());
            let makes = ["define_method", "alias_method", "attr_reader", "attr_writer", "attr_accessor", "attr"];
            if made.receiver().is_none() && makes.contains(&maker.as_str()) {
                let spelled = symbol_arguments(&made);
                let spelled = if maker == "alias_method" { spelled.into_iter().take(1).collect() } else { spelled };
                names.extend(spelled.iter().flat_map(|n| made_names(&maker, n)));
            }
        }
    }
    Some(names)
}

/// The class a receiver names, and the side of it a method defined there
/// lands on: `String` (instances), `String.singleton_class` (the class).
fn receiver_class(receiver: &Node<'_>) -> Option<(String, Side)> {
    if let Some(class) = written_class(receiver) {
        return Some((class, Side::Instance));
    }
    let call = receiver.as_call_node()?;
    let owner = call.receiver().filter(|_| call.name().as_slice() == b"singleton_class" && call.arguments().is_none());
    Some((written_class(&owner?)?, Side::Singleton))
}

/// `self.class`, `singleton_class` or `self.singleton_class`: the class
/// of the object `self` is, for what is called on it.
fn is_self_class(receiver: &Node<'_>) -> bool {
    let Some(call) = receiver.as_call_node() else { return false };
    matches!(call.name().as_slice(), b"class" | b"singleton_class")
        && call.arguments().is_none()
        && matches!(call.receiver(), None | Some(Node::SelfNode { .. }))
}

/// `x.singleton_class` (or a bare `singleton_class`).
fn is_singleton_class_call(receiver: &Node<'_>) -> bool {
    receiver
        .as_call_node()
        .is_some_and(|call| call.name().as_slice() == b"singleton_class" && call.arguments().is_none())
}

/// `Struct.new(...)`, `Data.define(...)` or a bare `Class.new`: a class
/// whose superclass is none of the project's.
fn makes_new_class(call: &CallNode<'_>) -> bool {
    let method = call.name().as_slice();
    let receiver = call.receiver().and_then(|r| constant_path_text(&r));
    match (receiver.as_deref().map(|r| r.trim_start_matches("::")), method) {
        (Some("Struct"), b"new") | (Some("Data"), b"define") => true,
        (Some("Class"), b"new") => call.arguments().is_none(),
        _ => false,
    }
}

/// The attributes an `attr_writer`, `attr_accessor` or `attr` (its
/// arguments from `skip` on) may make writers of: their names, and whether
/// those are all of them (no argument is computed). `None` when it makes
/// none: an `attr` of names, or names and `false` (`attr :v, true` makes
/// `v=` too, as may `attr :v, flag`).
fn attr_writer_names(call: &CallNode<'_>, kind: &str, skip: usize) -> Option<(Vec<String>, bool)> {
    let arguments: Vec<Node<'_>> =
        call.arguments().map(|a| a.arguments().iter().skip(skip).collect()).unwrap_or_default();
    let name_of = |a: &Node<'_>| match a {
        Node::SymbolNode { .. } => Some(crate::syntax::decoded(a.as_symbol_node()?.unescaped()).into_owned()),
        Node::StringNode { .. } => Some(crate::syntax::decoded(a.as_string_node()?.unescaped()).into_owned()),
        _ => None,
    };
    let names: Vec<String> = arguments.iter().filter_map(name_of).collect();
    let literal = |a: &Node<'_>| name_of(a).is_some() || matches!(a, Node::TrueNode { .. } | Node::FalseNode { .. });
    let complete = arguments.iter().all(literal);
    let writes = match kind {
        "attr_writer" | "attr_accessor" => true,
        _ => arguments.iter().any(|a| name_of(a).is_none() && !matches!(a, Node::FalseNode { .. })),
    };
    writes.then_some((names, complete))
}

/// `[:a, :b].each do |name|`, `%w[a b].each`: the block's one parameter,
/// and the names the list spells.
fn literal_iteration(call: &CallNode<'_>) -> Option<(Vec<u8>, Vec<String>)> {
    if !matches!(call.name().as_slice(), b"each" | b"each_with_index" | b"map") {
        return None;
    }
    let list = call.receiver()?;
    let list = list.as_array_node()?;
    let mut names = Vec::new();
    for element in list.elements().iter() {
        names.push(literal_name(&element)?);
    }
    let block = call.block()?;
    let parameters = block.as_block_node()?.parameters()?;
    let list = parameters.as_block_parameters_node()?.parameters()?;
    let first = list.requireds().iter().next()?;
    Some((first.as_required_parameter_node()?.name().as_slice().to_vec(), names))
}

/// The prefix and suffix every name a computed name argument may spell
/// has (`"#{name}?"`: "" and "?"; a variable: "" and ""); `None` for a
/// name written out.
fn computed_name(node: &Node<'_>) -> Option<(String, String)> {
    let literal = |part: Option<&Node<'_>>| {
        part.and_then(|p| p.as_string_node().map(|s| crate::syntax::decoded(s.unescaped()).into_owned()))
            .unwrap_or_default()
    };
    let parts: Vec<Node<'_>> = match node {
        // (`attr :v, true` says whether to make a writer.)
        Node::SymbolNode { .. } | Node::StringNode { .. } | Node::TrueNode { .. } | Node::FalseNode { .. } => {
            return None
        }
        Node::InterpolatedSymbolNode { .. } => node.as_interpolated_symbol_node()?.parts().iter().collect(),
        Node::InterpolatedStringNode { .. } => node.as_interpolated_string_node()?.parts().iter().collect(),
        _ => return Some((String::new(), String::new())),
    };
    let prefix = literal(parts.first());
    let suffix = if parts.len() > 1 { literal(parts.last()) } else { String::new() };
    Some((prefix, suffix))
}

/// What `puts` and its kin write to: assigned an object of the program's
/// own, their `write` may be the program's code.
const OUTPUT_GLOBALS: &[&[u8]] = &[b"$stdout", b"$stderr", b"$>"];

/// Kernel's functions that write to `$stdout`, `$stderr` or `$>`.
pub const OUTPUT_FUNCTIONS: &[&str] = &["puts", "print", "p", "pp", "warn", "printf", "putc", "display"];

/// `def self.included(base)`'s one parameter (or `def included(base)`'s
/// in `class << self`: `in_singleton`).
fn included_hook_parameter(def: &ruby_prism::DefNode<'_>, in_singleton: bool) -> Option<String> {
    let on_self = match def.receiver() {
        Some(Node::SelfNode { .. }) => true,
        None => in_singleton,
        Some(_) => false,
    };
    if def.name().as_slice() != b"included" || !on_self {
        return None;
    }
    let parameters = def.parameters()?;
    let requireds: Vec<Node<'_>> = parameters.requireds().iter().collect();
    let [first] = requireds.as_slice() else { return None };
    let name = first.as_required_parameter_node()?.name();
    Some(crate::syntax::decoded(name.as_slice()).into_owned())
}

/// A method name written as a symbol or a string (`:v`, `"v"`).
pub(super) fn literal_name(node: &Node<'_>) -> Option<String> {
    let text = |bytes: &[u8]| crate::syntax::decoded(bytes).into_owned();
    match node {
        Node::SymbolNode { .. } => Some(text(node.as_symbol_node()?.unescaped())),
        Node::StringNode { .. } => Some(text(node.as_string_node()?.unescaped())),
        _ => None,
    }
}

/// The methods a method maker makes under `name`: `attr_writer` the
/// writer, `attr_accessor` the reader and the writer, any other the name.
fn made_names(maker: &str, name: &str) -> Vec<String> {
    match maker {
        "attr_writer" => vec![format!("{name}=")],
        "attr_accessor" => vec![name.to_string(), format!("{name}=")],
        _ => vec![name.to_string()],
    }
}

fn is_send(method: &str) -> bool {
    matches!(method, "send" | "__send__" | "public_send")
}

/// Does Ruby make writers of instance variables with a method of this name?
fn is_writer_maker(method: &str) -> bool {
    matches!(method, "attr_writer" | "attr_accessor" | "attr")
}

fn symbol_arguments(call: &CallNode<'_>) -> Vec<String> {
    let Some(arguments) = call.arguments() else { return Vec::new() };
    arguments
        .arguments()
        .iter()
        .filter_map(|a| match &a {
            Node::SymbolNode { .. } => Some(crate::syntax::decoded(a.as_symbol_node()?.unescaped()).into_owned()),
            Node::StringNode { .. } => Some(crate::syntax::decoded(a.as_string_node()?.unescaped()).into_owned()),
            _ => None,
        })
        .collect()
}

impl<'pr> Walker<'_, 'pr, '_> {
    /// A class-body call of a method neither the signatures nor a rule
    /// here know, given a symbol first (`def_node_matcher :on_send, ...`,
    /// `define_predicate :x?`): it may define a method of that name, which
    /// then overrides an inherited or mixed-in one. Noted, and added as
    /// opaque where the class defines no such method itself.
    fn note_macro(&mut self, call: &CallNode<'pr>, method: &str) {
        if self.in_def > 0 || self.in_block > 0 || self.env.instance_method("Class", method).is_some() {
            return;
        }
        let Some(first) = call.arguments().and_then(|a| a.arguments().iter().next()) else { return };
        let Some(symbol) = first.as_symbol_node() else { return };
        let Some(class) = self.lexical.last().filter(|c| &***c != SINGLETON_OF_OTHER) else { return };
        let defined = crate::syntax::decoded(symbol.unescaped()).into_owned();
        self.macro_names.push((class.clone(), self.side, defined));
    }

    fn add_macro_names(&mut self) {
        for (class, side, method) in std::mem::take(&mut self.macro_names) {
            if let Some(class) = self.index.classes.get_mut(&class) {
                let table = match side {
                    Side::Instance => &mut class.instance_methods,
                    Side::Singleton => &mut class.singleton_methods,
                };
                table.entry(method).or_insert(MethodEntry::Opaque);
            }
        }
    }

    fn current(&mut self) -> Option<&mut UserClass> {
        let name = self.lexical.last()?.clone();
        self.index.classes.get_mut(&name)
    }

    /// Counts a `module` body of `full`, and notes the module object's
    /// ivars it assigns before anything else can run ([`CLASS_BODY_SET`]).
    /// (A class's are never trusted: a subclass has ivars of its own.)
    fn note_module_body(&mut self, full: &Name, body: Option<Node<'pr>>) {
        *self.bodies_opened.entry(full.clone()).or_default() += 1;
        if self.in_def > 0 || self.in_block > 0 {
            return;
        }
        let set = leading_class_ivar_writes(body);
        if let Some(class) = self.index.classes.get_mut(full) {
            class.initialized_ivars.extend(set.into_iter().map(|ivar| format!("{CLASS_BODY_SET}{ivar}")));
        }
    }

    /// Notes, for each superclass written as a relative path, the classes
    /// and modules its lookup would find that this file opens only further
    /// down (see [`PendingKind::OpenedLater`]): `class C < P` in `module N`
    /// is `::P` when `N::P` comes later.
    fn note_opened_later(&mut self) {
        if self.superclasses_named.is_empty() {
            return;
        }
        let mut first_opened: HashMap<&str, usize> = HashMap::default();
        for (at, name) in &self.index.class_at {
            let first = first_opened.entry(&**name).or_insert(*at);
            *first = (*first).min(*at);
        }
        let mut later: Vec<(Name, Name)> = Vec::new();
        for (class, at, head) in &self.superclasses_named {
            let Some(user) = self.index.classes.get(class) else { continue };
            let scopes = user.lexical.iter().filter(|scope| &***scope != SINGLETON_OF_SELF);
            let candidates = scopes.map(|scope| format!("{scope}::{head}")).chain([head.clone()]);
            for candidate in candidates {
                let opened_after = first_opened.get(candidate.as_str()).is_some_and(|first| first > at);
                if opened_after && !self.index.constants.contains_key(candidate.as_str()) {
                    later.push((class.clone(), Name::from(candidate)));
                }
            }
        }
        for (class, candidate) in later {
            let user = self.index.classes.get_mut(&class).expect("listed");
            let entry = (PendingKind::OpenedLater, candidate.to_string());
            if !user.pending.contains(&entry) {
                user.pending.push(entry);
            }
        }
    }

    /// For each class whose `initialize` calls methods of its own before
    /// it assigns an ivar ([`CALLS_OWN_ONLY`], [`AFTER_CALLS`]), notes what
    /// those methods, and what they call in turn, may read
    /// ([`OWN_CALLS_READ`]): another file's subclass has no bodies to look
    /// at. Only when every method reached is a `def` of the class here.
    fn note_own_calls_read(&mut self) {
        let mut notes: Vec<(Name, String)> = Vec::new();
        for (name, class) in &self.index.classes {
            let mut pending: Vec<String> = Vec::new();
            for marker in &class.initialized_ivars {
                let called = marker
                    .strip_prefix(CALLS_OWN_ONLY)
                    .or_else(|| marker.strip_prefix(AFTER_CALLS).and_then(|m| m.split_once('|')).map(|(c, _)| c));
                pending.extend(called.into_iter().flat_map(|c| c.split(',')).map(str::to_string));
            }
            if pending.is_empty() {
                continue;
            }
            if let Some(read) = self.own_calls_read(class, pending) {
                notes.push((name.clone(), read));
            }
        }
        for (name, read) in notes {
            self.index.classes.get_mut(&name).expect("listed").initialized_ivars.insert(read);
        }
    }

    /// [`OWN_CALLS_READ`]'s marker for the methods `pending` of `class`,
    /// closed over what their bodies call; `None` when one is not a `def`
    /// of the class here, or calls anything else.
    fn own_calls_read(&self, class: &UserClass, mut pending: Vec<String>) -> Option<String> {
        let mut names: Vec<String> = Vec::new();
        let mut ivars: Vec<String> = Vec::new();
        let mut kernel: Vec<&str> = Vec::new();
        while let Some(method) = pending.pop() {
            if names.contains(&method) {
                continue;
            }
            if names.len() >= 64 || method.starts_with(VIA_IVAR) || method.starts_with(NEW_OF) {
                return None;
            }
            let Some(MethodEntry::Def(id)) = class.instance_methods.get(method.as_str()) else { return None };
            // Defined twice: whichever runs, its body counts.
            let ids = class.redefined.get(&(Side::Instance, method.clone())).cloned().unwrap_or_else(|| vec![*id]);
            names.push(method);
            for id in ids {
                let Some(body) = self.index.defs.get(id)?.node.as_def_node()?.body() else { continue };
                ivars.extend(ivars_read_in(&body));
                kernel.extend(kernel_calls_in(&body));
                pending.extend(own_calls_of_body(&body)?);
            }
        }
        names.sort();
        ivars.sort();
        ivars.dedup();
        kernel.sort_unstable();
        kernel.dedup();
        Some(format!("{OWN_CALLS_READ}{}|{}|{}", names.join(","), ivars.join(","), kernel.join(",")))
    }

    /// `S = Sub; S.const_set(:KIND, v)` (or `S::KIND = v`) sets `Sub::KIND`:
    /// a namespace written as a constant this file assigns (not a class or
    /// module it opens) may be any class, so the name is taken as set in
    /// every namespace. (An alias another file assigns: see
    /// [`FileInterface::written_on`].)
    fn note_writes_through_aliases(&mut self) {
        let index = &mut *self.index;
        for (owner, constant) in &index.written_on {
            let (constants, classes) = (index.constants.keys().map(|n| &**n), index.classes.keys().map(|n| &**n));
            if crate::model::index::names_an_alias(owner, constants, classes) {
                index.rewritten_constants.insert(constant.clone());
            }
        }
    }

    /// A module opened by more than one body here: any of them may run
    /// first, so none says what the module object's ivars hold.
    fn note_bodies_reopened(&mut self) {
        for (name, opened) in &self.bodies_opened {
            if *opened > 1 {
                if let Some(class) = self.index.classes.get_mut(name) {
                    class.initialized_ivars.insert(CLASS_BODY_REOPENED.to_string());
                }
            }
        }
    }

    fn open_class(&mut self, full: Name, is_module: bool) {
        let lexical = self.lexical.clone();
        self.index.classes.entry(full.clone()).or_insert_with(|| UserClass::new(full, is_module, lexical));
    }

    /// The full name a `class`/`module` header defines.
    fn declared_name(&self, path: &Node<'_>) -> Option<Name> {
        let written = constant_path_text(path)?;
        if let Some(absolute) = written.strip_prefix("::") {
            return Some(Name::from(absolute));
        }
        // `class A::B` reopens A as the lexical lookup finds it.
        if let Some((head, tail)) = written.rsplit_once("::") {
            let parent =
                self.index.resolve_constant(self.env, &self.lexical, head).unwrap_or_else(|| self.qualified(head));
            return Some(Name::from(format!("{parent}::{tail}")));
        }
        Some(self.qualified(&written))
    }

    fn qualified(&self, written: &str) -> Name {
        match self.lexical.last() {
            Some(outer) => Name::from(format!("{outer}::{written}")),
            None => Name::from(written),
        }
    }

    fn add_method(&mut self, method: String, entry: MethodEntry, side: Side) {
        let module_function = self.module_function && side == Side::Instance;
        let top_level = self.lexical.is_empty();
        if self.in_core_class() {
            self.note_core_def_on(&method);
        }
        self.note_own_construction(&method, side, matches!(entry, MethodEntry::Def(_)));
        match self.current() {
            Some(class) => {
                if method == "method_missing" {
                    class.has_method_missing = true;
                }
                let table =
                    if side == Side::Singleton { &mut class.singleton_methods } else { &mut class.instance_methods };
                let previous = table.insert(method.clone(), entry);
                note_redefinition(&mut class.redefined, side, &method, previous, entry);
                if module_function {
                    let previous = class.singleton_methods.insert(method.clone(), entry);
                    note_redefinition(&mut class.redefined, Side::Singleton, &method, previous, entry);
                }
            }
            None if side == Side::Instance && top_level => {
                // Object's method: other files' objects run it too.
                self.index.top_level_defs.insert(method.clone());
                if let MethodEntry::Def(id) = entry {
                    if let Some(previous) = self.index.top_methods.insert(method.clone(), id) {
                        let all = self.index.top_redefined.entry(method).or_insert_with(|| vec![previous]);
                        all.push(id);
                    }
                }
            }
            None => {}
        }
    }

    fn ivar(&mut self, name: String) -> usize {
        if let Some(i) = self.index.ivar_names.iter().position(|n| *n == name) {
            return i;
        }
        self.index.ivar_names.push(name);
        self.index.ivar_names.len() - 1
    }

    fn body(&mut self, full: Name, body: Option<Node<'pr>>) {
        let saved = (self.side, self.module_function, self.in_block);
        self.side = Side::Instance;
        self.module_function = false;
        self.in_block = 0;
        self.lexical.push(full);
        if let Some(body) = body {
            self.visit(&body);
        }
        self.lexical.pop();
        (self.side, self.module_function, self.in_block) = saved;
    }

    fn constant_write(&mut self, written: Option<String>, value: Node<'pr>) {
        let Some(written) = written else { return };
        let full = self.constant_name(&written);
        let lexical = self.lexical.clone();
        self.index.constants.entry(full).or_default().push(ConstantWrite { value, lexical });
    }

    /// A constant given a value computed from its own (`X += 1`): read as
    /// its writes' type or `untyped`, as one set by name is.
    fn constant_recomputed(&mut self, written: Option<String>) {
        let Some(written) = written else { return };
        let full = self.constant_name(&written);
        self.index.rewritten_constants.insert(full.to_string());
    }

    /// `Point = Struct.new(:x, :y)`: a class as `class Point < Struct.new(:x,
    /// :y)` makes one, its members readers and writers whose values nobody
    /// tracks. The `def`s of a block (`Struct.new(:x) do def norm ... end`)
    /// are its methods too, known to exist though not inferred here (the
    /// block's `self` is the new class); anything else in the block may
    /// define what it likes, so then the class is not closed. Only symbol
    /// members (`Struct.new("Name", ...)` makes `Struct::Name`), outside a
    /// method. Is `written = value` such a class?
    fn struct_class(&mut self, written: &str, value: &Node<'pr>) -> bool {
        let Some(layout) = struct_layout(value).filter(|_| self.in_def == 0) else { return false };
        let full = self.constant_name(written);
        self.open_class(full.clone(), false);
        let class = self.index.classes.get_mut(&full).expect("opened");
        class.pending.push((PendingKind::Superclass, "::Struct".into()));
        for member in layout.members {
            class.instance_methods.insert(format!("{member}="), MethodEntry::Opaque);
            class.instance_methods.insert(member, MethodEntry::Opaque);
        }
        for (method, side) in layout.defs {
            let table =
                if side == Side::Singleton { &mut class.singleton_methods } else { &mut class.instance_methods };
            table.insert(method, MethodEntry::Opaque);
        }
        if layout.open {
            class.unknown_mixins = true;
        }
        true
    }

    /// The full name a constant assignment to `written` defines.
    fn constant_name(&self, written: &str) -> Name {
        match written.strip_prefix("::") {
            Some(absolute) => Name::from(absolute),
            None => match written.rsplit_once("::") {
                Some((head, tail)) => {
                    let parent =
                        self.index.resolve_constant(self.env, &self.lexical, head).unwrap_or_else(|| Name::from(head));
                    Name::from(format!("{parent}::{tail}"))
                }
                None => self.qualified(written),
            },
        }
    }

    /// In the body of a class the signatures declare (a reopened `String`):
    /// a method defined here may not be the core's own that folding runs.
    fn in_core_class(&self) -> bool {
        self.lexical.last().is_some_and(|class| self.env.has_class(class))
    }

    /// A `def` (or alias) in the core class being reopened, by class.
    fn note_core_def_on(&mut self, method: &str) {
        if let Some(class) = self.lexical.last().cloned() {
            // A core module may be mixed into any class.
            let on = if self.env.is_module(&class) { Name::from("Object") } else { class };
            let classes = self.index.core_defs_on.entry(method.to_string()).or_default();
            if !classes.contains(&on) {
                classes.push(on);
            }
        }
    }

    /// The modules a call mixes into some object (`obj.extend(M)`,
    /// `C.prepend(M)`, `C.send(:include, M)`): their methods and ivar
    /// writes may reach objects of any class.
    fn note_object_extends(&mut self, call: &CallNode<'pr>) {
        let arguments: Vec<Node<'pr>> = call.arguments().map(|a| a.arguments().iter().collect()).unwrap_or_default();
        let written = arguments.iter().filter_map(constant_path_text);
        let kind =
            if self.extends_the_includer(call) { PendingKind::IncluderExtend } else { PendingKind::ObjectExtend };
        match self.current() {
            Some(class) => class.pending.extend(written.map(|w| (kind, w))),
            None => self.index.top_object_extends.extend(written),
        }
    }

    /// A module mixed in by its own hook (`M.prepend_features(C)`): its
    /// methods may reach objects of any class, as after `C.prepend(M)`.
    fn note_module_mixed_by_hook(&mut self, call: &CallNode<'pr>) {
        let Some(written) = call.receiver().as_ref().and_then(constant_path_text) else { return };
        match self.current() {
            Some(class) => class.pending.push((PendingKind::ObjectExtend, written)),
            None => self.index.top_object_extends.push(written),
        }
    }

    /// `base.extend(M)` directly in a module's `def self.included(base)`:
    /// the object extended is whatever class includes the module.
    fn extends_the_includer(&mut self, call: &CallNode<'pr>) -> bool {
        let Some(hook_parameter) = self.included_hooks.last().cloned().flatten() else { return false };
        let receiver = call.receiver();
        let on_parameter = receiver
            .as_ref()
            .and_then(|r| r.as_local_variable_read_node())
            .is_some_and(|local| local.name().as_slice() == hook_parameter.as_bytes() && local.depth() == 0);
        on_parameter
            && call.name().as_slice() == b"extend"
            && self.in_block == 0
            && self.blocks_of_unknown_self == 0
            && self.current().is_some_and(|c| c.is_module)
    }

    /// An ivar write in a block that may run on another object is any
    /// class's; one in a block given to a method the signatures name (`run
    /// { @v = 1 }`) is, when some project method of that name runs its
    /// block elsewhere (the project's whole is needed to tell).
    fn note_block_write(&mut self, node: &Node<'pr>) {
        if self.blocks_of_unknown_self == 0 && self.kept_by_name.is_empty() {
            return;
        }
        let Some(ivar) = ivar_written_by(node) else { return };
        if self.blocks_of_unknown_self > 0 {
            self.index.outside_ivars.add(Some(ivar));
            return;
        }
        for method in &self.kept_by_name {
            self.index.kept_block_writes.insert((method.clone(), ivar.clone()));
        }
    }

    /// `define_method(name)`, `attr_reader(*names)`, `alias_method(name,
    /// :x)` with names computed at run time, where `self` is the class
    /// being defined (its body, an iterator's block there, or one of its
    /// class methods, which its subclasses call too): the class (and what
    /// is below it) may answer any name the computation may spell with a
    /// body nobody can see. (In an instance method of a module `self` is
    /// whatever extends it: see [`Self::note_made_for_extenders`].)
    /// `undef_method`/`remove_method` take names away the same way.
    fn note_made_methods(&mut self, call: &CallNode<'pr>, method: &str) {
        let names: usize = match method {
            "define_method" | "define_singleton_method" | "alias_method" => 1,
            "attr_reader" | "attr_writer" | "attr_accessor" | "attr" | "undef_method" | "remove_method" => usize::MAX,
            _ => return,
        };
        let plain_self = self.on_known_self(call) && !self.in_new_class_block() && self.defs_on_other == 0;
        // A module's instance method: `self` is whatever class extends the
        // module (`extend Maker` then `flag :admin` in its body).
        let for_extenders =
            plain_self && self.def_on_instance.last() == Some(&true) && self.current().is_some_and(|c| c.is_module);
        if for_extenders {
            return self.note_made_for_extenders(call, method, names);
        }
        let self_is_the_class = plain_self && self.def_on_instance.last() != Some(&true);
        if !self_is_the_class {
            return;
        }
        let side = match (method, self.in_def > 0) {
            ("define_singleton_method", _) => Side::Singleton,
            // A class method's `self` is the class: its instances get them.
            (_, true) => Side::Instance,
            (_, false) => self.side,
        };
        let arguments: Vec<Node<'pr>> =
            call.arguments().map(|a| a.arguments().iter().take(names).collect()).unwrap_or_default();
        let mut made: Vec<MadeMethods> = Vec::new();
        let mut spelled: Vec<String> = Vec::new();
        for argument in &arguments {
            // `undef_method :v` (or `remove_method`): what answers `v` now,
            // `method_missing` or a superclass's body, is not the one here.
            if matches!(method, "undef_method" | "remove_method") {
                if let Some(name) = literal_name(argument) {
                    spelled.push(name);
                }
            }
            let Some((prefix, suffix)) = computed_name(argument) else { continue };
            // `name = "scan_#{type}".to_sym` then `define_method(name)`.
            let (prefix, suffix) = self.local_spelling(argument).unwrap_or((prefix, suffix));
            // `%i[a b].each { |n| define_method("#{n}?") }`: these names.
            match self.iterated_names(argument) {
                Some(names) => spelled.extend(names.iter().map(|n| format!("{prefix}{n}{suffix}"))),
                None => made.push(MadeMethods { side, prefix, suffix }),
            }
        }
        for name in spelled.iter().flat_map(|name| made_names(method, name)) {
            self.add_method(name, MethodEntry::Opaque, side);
        }
        // A class method runs with `self` whatever class calls it: a
        // subclass (`memoize :value` in `Calc < Base`) gets these names on
        // top of its own `def`s, as an extender of a maker module does.
        let for_subclasses = self.in_def > 0;
        let Some(class) = self.current() else { return };
        if for_subclasses {
            let named = spelled.iter().flat_map(|name| made_names(method, name));
            let named = named.map(|name| MadeMethods { side, prefix: name, suffix: String::new() });
            let patterns = made.iter().cloned().map(|mut made| {
                if method == "attr_writer" {
                    made.suffix.push('=');
                }
                made
            });
            for made in named.chain(patterns) {
                class.make_for_extenders(made);
            }
        }
        for mut made in made {
            if method == "attr_writer" {
                made.suffix.push('=');
            }
            class.make(made);
        }
    }

    /// `self.class.send(:attr_accessor, k)`, `singleton_class.define_method(k)`
    /// and the like in an instance method of a class: the object's class
    /// (this one or one below it) or the object itself gets the names, at
    /// run time. Names written out are the class's (maybe); a name computed
    /// may be any. In a module's instance method, `self` is whatever mixes
    /// the module in: a class that extends it gets class methods
    /// (`def class_attribute(n) = singleton_class.attr_accessor(n)`), an
    /// includer's instances get instance methods.
    fn note_made_through_the_class(&mut self, call: &CallNode<'pr>, method: &str) {
        const MAKERS: &[&str] =
            &["define_method", "attr_reader", "attr_writer", "attr_accessor", "attr", "alias_method"];
        let in_instance_method = self.def_on_instance.last() == Some(&true) && self.blocks_of_unknown_self == 0;
        if !in_instance_method || !(MAKERS.contains(&method) || is_send(method)) {
            return;
        }
        if !call.receiver().is_some_and(|receiver| through_the_class(&receiver)) {
            return;
        }
        let Some(in_module) = self.current().map(|c| c.is_module) else { return };
        let arguments: Vec<Node<'pr>> = call.arguments().map(|a| a.arguments().iter().collect()).unwrap_or_default();
        let Some((maker, names)) = maker_and_names(method, &arguments, MAKERS) else { return };
        let mut spelled = Vec::new();
        let mut computed = false;
        for name in names {
            match literal_name(name) {
                Some(name) => spelled.push(name),
                None => computed = true,
            }
        }
        if in_module {
            let mut prefixes: Vec<String> = spelled.iter().flat_map(|name| made_names(&maker, name)).collect();
            if computed {
                prefixes.push(String::new());
            }
            let Some(module) = self.current() else { return };
            for prefix in prefixes {
                let made = |side| MadeMethods { side, prefix: prefix.clone(), suffix: String::new() };
                module.make_for_extenders(made(Side::Singleton));
                module.make(made(Side::Instance));
            }
            return;
        }
        for name in spelled.iter().flat_map(|name| made_names(&maker, name)) {
            self.add_method(name, MethodEntry::Opaque, Side::Instance);
        }
        if let (true, Some(class)) = (computed, self.current()) {
            class.make(MadeMethods { side: Side::Instance, prefix: String::new(), suffix: String::new() });
        }
    }

    /// `Foo.define_method(n)`, `k.send(:alias_method, "x_#{n}", :x)`,
    /// `define_method(n)` in a `Foo.class_eval` block: names computed at
    /// run time given to, or taken from, a class other than the one being
    /// defined (whose own are [`Self::note_made_methods`]'s). Names a
    /// literal list spells count as names written out do. On a class no
    /// name shows, only names the computation partly spells are noted: a
    /// name that may be anything on a class that may be any would leave no
    /// method of any class known (README says so).
    fn note_made_elsewhere(&mut self, call: &CallNode<'pr>, method: &str) {
        const MAKERS: &[&str] = &[
            "define_method",
            "define_singleton_method",
            "alias_method",
            "attr_reader",
            "attr_writer",
            "attr_accessor",
            "attr",
            "remove_method",
            "undef_method",
        ];
        if !MAKERS.contains(&method) && !is_send(method) {
            return;
        }
        let arguments: Vec<Node<'pr>> = call.arguments().map(|a| a.arguments().iter().collect()).unwrap_or_default();
        // `Box.send(*args)`: what is sent, and what it names, may be any
        // maker and any name, on that class (either side).
        if is_send(method) && matches!(arguments.first(), Some(Node::SplatNode { .. })) {
            let receiver = call.receiver().filter(|r| !matches!(r, Node::SelfNode { .. }) && !through_the_class(r));
            if let Some((class, _)) = receiver.as_ref().and_then(receiver_class) {
                for side in [Side::Instance, Side::Singleton] {
                    let made = MadeMethods { side, prefix: String::new(), suffix: String::new() };
                    {
                        let made_on = self.made_on_for(&class, made);
                        self.index.made_on.insert(made_on);
                    }
                }
            }
            return;
        }
        let Some((maker, names)) = maker_and_names(method, &arguments, MAKERS) else { return };
        let computed: Vec<&Node<'pr>> = names.iter().filter(|name| computed_name(name).is_some()).collect();
        if computed.is_empty() {
            return;
        }
        // Whose: the receiver's as written, a block's class for `self`,
        // or (`None`) a class nobody can name here.
        let target: Option<(String, Side)> = match call.receiver() {
            None | Some(Node::SelfNode { .. }) => match self.block_self() {
                BlockSelf::Lexical => return,
                BlockSelf::Class(class) => Some((class, Side::Instance)),
                BlockSelf::Unknown => None,
            },
            // `self.class.send(:define_method, n)`: the class's own.
            Some(receiver) if through_the_class(&receiver) => return,
            Some(receiver) => receiver_class(&receiver),
        };
        let target = target.map(|(class, side)| match &*maker {
            "define_singleton_method" => (class, Side::Singleton),
            _ => (class, side),
        });
        for name in computed {
            let (prefix, suffix) = computed_name(name).unwrap_or_default();
            if let Some(spelled) = self.iterated_names(name).map(<[String]>::to_vec) {
                for defined in spelled.iter().flat_map(|n| made_names(&maker, &format!("{prefix}{n}{suffix}"))) {
                    if let Some((class, side)) = target.clone() {
                        self.note_replaced_on(class, side, &defined);
                    }
                    self.index.object_singleton_defs.insert(defined);
                }
                continue;
            }
            let (prefix, suffix) = self.local_spelling(name).unwrap_or((prefix, suffix));
            // On a class nobody names, a name spelled only as far as a
            // mark (`"#{n}?"`, `"#{n}="`) tells nothing either: it would
            // cover `nil?` and `==` of every object.
            let spells_a_word = |part: &str| part.chars().any(|c| c.is_alphanumeric() || c == '_');
            if target.is_none() && !spells_a_word(&prefix) && !spells_a_word(&suffix) {
                continue;
            }
            let (class, side) = target.clone().unwrap_or((crate::model::index::ANY_CLASS.to_string(), Side::Instance));
            let suffixes: Vec<String> = match &*maker {
                "attr_writer" => vec![format!("{suffix}=")],
                "attr_accessor" => vec![suffix.clone(), format!("{suffix}=")],
                _ => vec![suffix.clone()],
            };
            // A class nobody names may be either side's.
            let sides: &[Side] = if target.is_none() { &[Side::Instance, Side::Singleton] } else { &[side][..] };
            for suffix in suffixes {
                for &side in sides {
                    let made = MadeMethods { side, prefix: prefix.clone(), suffix: suffix.clone() };
                    {
                        let made_on = self.made_on_for(&class, made);
                        self.index.made_on.insert(made_on);
                    }
                }
            }
        }
    }

    /// What `self` is for code in the innermost block that may not run
    /// with the `self` it was written under: the class a `Foo.class_eval`
    /// block runs on, nobody knows whom for another block, or the
    /// lexical `self` when every enclosing block keeps it.
    fn block_self(&self) -> BlockSelf {
        let blocks = self.iterator_blocks.iter().zip(&self.eval_targets).zip(&self.blocks_make_new_classes);
        for (((_, keeps, _), target), new_class) in blocks.rev() {
            if *new_class {
                // `Class.new do`: its own methods answer for nobody else.
                return BlockSelf::Lexical;
            }
            if !keeps {
                return match target {
                    Some(class) => BlockSelf::Class(class.clone()),
                    None => BlockSelf::Unknown,
                };
            }
        }
        BlockSelf::Lexical
    }

    /// `define_method(name)` (or `attr_*`, `alias_method`, `undef_method`)
    /// in an instance method of a module: the classes that extend it may
    /// answer any name it may spell with a body nobody can see. A name
    /// written out counts as the names it begins (`attr_accessor(:v)`
    /// makes `v` and `v=`).
    fn note_made_for_extenders(&mut self, call: &CallNode<'pr>, method: &str, names: usize) {
        let side = if method == "define_singleton_method" { Side::Singleton } else { Side::Instance };
        let arguments: Vec<Node<'pr>> =
            call.arguments().map(|a| a.arguments().iter().take(names).collect()).unwrap_or_default();
        let mut made: Vec<MadeMethods> = Vec::new();
        for argument in &arguments {
            let (prefix, suffix) = match literal_name(argument) {
                Some(name) => (name, String::new()),
                None => match computed_name(argument) {
                    Some(spelled) => self.local_spelling(argument).unwrap_or(spelled),
                    None => continue,
                },
            };
            made.push(MadeMethods { side, prefix, suffix });
        }
        let Some(class) = self.current() else { return };
        for made in made {
            class.make_for_extenders(made);
        }
    }

    /// What a local read as a name spells, when the method around it
    /// assigns that local once, from an interpolation (`m = "scan_#{t}"`,
    /// with `.to_sym` or `.intern` or not): its prefix and suffix.
    fn local_spelling(&self, argument: &Node<'pr>) -> Option<(String, String)> {
        let local = argument.as_local_variable_read_node()?.name();
        let (parameters, body) = self.def_bodies.last()?;
        let body = body.as_ref()?;
        // A parameter's own value may be anything.
        let named = |n: &Node<'_>| {
            let text = crate::syntax::text(&n.location());
            text.trim_start_matches(['*', '&']).split([':', '=', ' ']).next()
                == Some(&*crate::syntax::decoded(local.as_slice()))
        };
        if parameters.as_ref().is_some_and(|p| crate::syntax::walk::all_nodes(p).iter().any(named)) {
            return None;
        }
        let writes: Vec<Node<'_>> = crate::syntax::walk::all_nodes(body)
            .into_iter()
            .filter(|n| {
                n.as_local_variable_write_node().is_some_and(|w| w.name().as_slice() == local.as_slice())
                    || n.as_local_variable_target_node().is_some_and(|t| t.name().as_slice() == local.as_slice())
                    || n.as_local_variable_operator_write_node()
                        .is_some_and(|w| w.name().as_slice() == local.as_slice())
                    || n.as_local_variable_or_write_node().is_some_and(|w| w.name().as_slice() == local.as_slice())
                    || n.as_local_variable_and_write_node().is_some_and(|w| w.name().as_slice() == local.as_slice())
            })
            .collect();
        let [write] = writes.as_slice() else { return None };
        if write.location().start() > argument.location().start() {
            return None;
        }
        let mut value = write.as_local_variable_write_node()?.value();
        if let Some(call) = value.as_call_node() {
            let converts = matches!(call.name().as_slice(), b"to_sym" | b"intern" | b"to_s")
                && call.arguments().is_none()
                && call.block().is_none();
            value = if converts { call.receiver()? } else { return None };
        }
        match value {
            Node::InterpolatedSymbolNode { .. } | Node::InterpolatedStringNode { .. } => computed_name(&value),
            _ => None,
        }
    }

    /// `class_eval "def v = 'str'"` (or `module_eval`, `instance_eval`) on
    /// the class being defined: the `def`s the string spells replace the
    /// class's own (on the singleton side for `instance_eval`); a string
    /// whose names cannot be read may define any. On a class written as a
    /// constant (`Box.class_eval "..."` from another file), the names it
    /// spells are some object's own, as a `def` in a block run there is.
    fn note_evaluated_defs(&mut self, call: &CallNode<'pr>, method: &str) {
        if !matches!(method, "class_eval" | "module_eval" | "instance_eval") || call.block().is_some() {
            return;
        }
        let Some(code) = call.arguments().and_then(|a| a.arguments().iter().next()) else { return };
        let side = if method == "instance_eval" { Side::Singleton } else { Side::Instance };
        let on_the_class = self.on_known_self(call)
            && !self.in_new_class_block()
            && self.defs_on_other == 0
            && self.def_on_instance.last() != Some(&true);
        if on_the_class {
            // Code nobody can read may define anything.
            let patterns = crate::syntax::evaluated_definition_patterns(&code)
                .unwrap_or_else(|| vec![(String::new(), String::new(), false)]);
            for (prefix, suffix, exact) in patterns {
                if exact {
                    self.add_method(prefix, MethodEntry::Opaque, side);
                } else if let Some(class) = self.current() {
                    class.make(MadeMethods { side, prefix, suffix });
                }
            }
        } else if let Some(class) = call.receiver().as_ref().and_then(written_class) {
            // Code nobody can read may define anything.
            let patterns = crate::syntax::evaluated_definition_patterns(&code)
                .unwrap_or_else(|| vec![(String::new(), String::new(), false)]);
            for (prefix, suffix, exact) in patterns {
                if exact {
                    self.note_block_replaced(&prefix);
                    self.note_replaced_on(class.clone(), side, &prefix);
                    self.index.object_singleton_defs.insert(prefix);
                } else {
                    let made = MadeMethods { side, prefix, suffix };
                    {
                        let made_on = self.made_on_for(&class, made);
                        self.index.made_on.insert(made_on);
                    }
                }
            }
        }
    }

    /// The names a name argument takes when it is, or interpolates only,
    /// the parameter of an enclosing block that walks a literal list.
    fn iterated_names(&self, argument: &Node<'pr>) -> Option<&[String]> {
        let local = match argument {
            Node::LocalVariableReadNode { .. } => argument.as_local_variable_read_node()?.name(),
            Node::InterpolatedSymbolNode { .. } | Node::InterpolatedStringNode { .. } => {
                let parts: Vec<Node<'pr>> = match argument.as_interpolated_symbol_node() {
                    Some(symbol) => symbol.parts().iter().collect(),
                    None => argument.as_interpolated_string_node()?.parts().iter().collect(),
                };
                let embedded: Vec<Node<'pr>> =
                    parts.into_iter().filter(|p| !matches!(p, Node::StringNode { .. })).collect();
                let [single] = embedded.as_slice() else { return None };
                let statements = single.as_embedded_statements_node()?.statements()?;
                let body: Vec<Node<'pr>> = statements.body().iter().collect();
                let [read] = body.as_slice() else { return None };
                read.as_local_variable_read_node()?.name()
            }
            _ => return None,
        };
        let (parameter, names) = self.literal_iterations.iter().rev().flatten().next()?;
        (parameter.as_slice() == local.as_slice()).then_some(names.as_slice())
    }

    /// `M.instance_method(:set)`: a module's method, which `bind_call` or
    /// `define_method` may run on an object of any class (a class's binds
    /// only to its own family's). Taken as `obj.extend(M)` is; from a
    /// module nobody can name (`mod.instance_method(m)`, or `self`'s in a
    /// method), any module's.
    fn note_unbound(&mut self, call: &CallNode<'pr>) {
        if self.introspected.contains(&(call.location().start() as usize)) {
            return;
        }
        let written = call.receiver().as_ref().and_then(constant_path_text);
        match (written, self.current()) {
            (Some(written), Some(class)) => class.pending.push((PendingKind::ObjectExtend, written)),
            (Some(written), None) => self.index.top_object_extends.push(written),
            (None, _) => self.index.outside_ivars.modules = true,
        }
    }

    /// What lets objects of a class be made without running its
    /// `initialize`: `allocate` called on it or named as a symbol
    /// (`alias_method :new, :allocate`, `send(:allocate)`), and
    /// `define_method`/`alias_method` giving it an `initialize` (or
    /// `remove_method`/`undef_method` taking it away), directly or through
    /// `send` (`def`s and `alias` are noted where they add the
    /// method). A `new` of its own makes objects only through `super` or
    /// `allocate`, so it needs no note of its own.
    fn note_construction_bypass(&mut self, call: &CallNode<'pr>, method: &str, named: &[String]) {
        let (sent, names) = match named.split_first() {
            Some((sent, rest)) if is_send(method) => (sent.as_str(), rest),
            _ => (method, named),
        };
        let symbols;
        let names = if names.is_empty() && call.arguments().is_some() {
            symbols = symbol_arguments(call);
            symbols.as_slice()
        } else {
            names
        };
        let replaced = if sent == "allocate" || names.iter().any(|n| n == "allocate") {
            "allocate"
        } else if matches!(sent, "define_method" | "alias_method") && names.first().is_some_and(|n| n == "initialize") {
            "initialize"
        } else if (sent == "define_singleton_method" && names.first().is_some_and(|n| n == "new"))
            || (matches!(sent, "define_method" | "alias_method")
                && names.first().is_some_and(|n| n == "new")
                && call.receiver().as_ref().is_some_and(is_singleton_class_call))
        {
            // `Wrap.define_singleton_method(:new)`, `singleton_class.define_method(:new)`.
            "new"
        } else if matches!(sent, "remove_method" | "undef_method") && names.iter().any(|n| n == "initialize") {
            // The superclass's runs instead (or none).
            "initialize"
        } else {
            return;
        };
        let target = match call.receiver() {
            None | Some(Node::SelfNode { .. }) => Some(self.self_class_written()),
            Some(receiver) if is_self_class(&receiver) => Some(self.self_class_written()),
            // `Wrap.singleton_class.define_method(:new)`: Wrap's.
            Some(receiver) if is_singleton_class_call(&receiver) => {
                match receiver.as_call_node().and_then(|c| c.receiver()) {
                    Some(owner) => written_class(&owner).or_else(|| any_class_for(replaced)),
                    None => Some(self.self_class_written()),
                }
            }
            Some(receiver) => written_class(&receiver).or_else(|| any_class_for(replaced)),
        };
        // `klass.allocate` on a class nobody can name (a deserializer's) is
        // taken as `Marshal.load` is: outside.
        if let Some(target) = target {
            self.note_replaced(target, replaced);
        }
    }

    /// A `new` defined where the class body's own table does not show it:
    /// `def Wrap.new`, a `def new` in `class << Wrap` or in a block that
    /// may run on a class (`Wrap.singleton_class.class_eval`,
    /// `Wrap.instance_eval`). `Wrap.new` may then give anything.
    fn note_new_def(&mut self, def: &ruby_prism::DefNode<'pr>, in_other: bool) {
        let target = match def.receiver() {
            Some(Node::SelfNode { .. }) if !in_other => return,
            Some(Node::SelfNode { .. }) if self.in_new_class_block() => return,
            Some(Node::SelfNode { .. }) => Some(self.self_class_written()),
            Some(receiver) => written_class(&receiver),
            // In `class << self` the class's own table has it.
            None if !in_other => return,
            // `class << Wrap`: Wrap's; `class << obj`, an object's own
            // (an anonymous class's at most: no class this file names).
            None if self.in_block == 0 => self.other_singletons.last().cloned().flatten(),
            // `X.class_eval do def new`: an instance method of X.
            None if self.in_block > 0 && matches!(self.eval_targets.last(), Some(Some(_))) => return,
            None if self.in_new_class_block() => return,
            None => Some(crate::model::index::ANY_CLASS.to_string()),
        };
        if let Some(target) = target {
            self.note_replaced(target, "new");
        }
    }

    /// What a computed-name call makes on `class` (as written, or
    /// [`crate::model::index::ANY_CLASS`]): whether it may reach a core
    /// value, and a value of any class (see [`MadeOn`]).
    fn made_on_for(&self, class: &str, made: MadeMethods) -> MadeOn {
        let any = class == crate::model::index::ANY_CLASS;
        let tail = crate::model::index::constant_tail(class);
        MadeOn {
            class: class.to_string(),
            core: any || self.env.has_class(class),
            everywhere: any
                || matches!(tail, "Object" | "Kernel" | "BasicObject")
                || self.env.is_module(class.trim_start_matches("::")),
            made,
        }
    }

    /// The class `self` (or `self.class`) is here, as written: the class
    /// being defined, a block's `class_eval` target, else anyone's (`*`).
    fn self_class_written(&self) -> String {
        let class = if self.in_block > 0 {
            self.eval_targets.last().cloned().flatten()
        } else {
            self.lexical.last().filter(|c| &***c != SINGLETON_OF_OTHER).map(|c| c.to_string())
        };
        class.unwrap_or_else(|| crate::model::index::ANY_CLASS.to_string())
    }

    /// Notes, on the class being defined, an `initialize` that is not a
    /// `def` (`define_method`, an alias): what it assigns is not known.
    fn note_own_construction(&mut self, method: &str, side: Side, is_def: bool) {
        if side == Side::Instance && method == "initialize" && !is_def {
            let class = self.self_class_written();
            self.note_replaced(class, method);
        }
    }

    /// A constant read as the receiver of a mutation: its name's last
    /// part (which constant of that name it is may be another file's).
    fn note_constant_mutated(&mut self, receiver: &Node<'pr>) {
        // `(TAGS = {...}).default = x`: the constant just assigned.
        if let Some(written) = constant_path_text(receiver).or_else(|| constant_assigned_in(receiver)) {
            let tail = crate::model::index::constant_tail(&written).to_string();
            self.index.mutated_constants.insert(tail);
        }
        // `pool.ids << x`: a reader's value (an ivar's, maybe) changed.
        if let Some(read) = receiver.as_call_node() {
            if read.arguments().is_none() && read.block().is_none() {
                self.index.mutated_readers.insert(name(read.name()));
            }
        }
    }

    /// Notes that `method` of `class` (as written) has a body, or objects,
    /// its class body does not show (see `construction_replaced`).
    fn note_replaced(&mut self, class: String, method: &str) {
        self.index.core_replaced.insert((class, method.to_string()));
    }

    /// `method` given a body on `side` of the class a receiver names
    /// (`String.define_method(:length)`, `def Integer.sqrt`): a core
    /// class's signature no longer says what it does.
    fn note_replaced_on(&mut self, class: String, side: Side, method: &str) {
        let class = match side {
            Side::Instance => class,
            Side::Singleton => crate::model::index::singleton_of(&class),
        };
        self.note_replaced(class, method);
    }

    /// `Box.define_method(:m)`, `alias_method` or `attr_*` in a block, or
    /// one of those sent elsewhere: some object's `m` (the receiver's
    /// class's, when it is named) has a body this file cannot place.
    fn note_given_elsewhere(&mut self, call: &CallNode<'pr>, method: &str, on_self: bool) {
        let names = symbol_arguments(call);
        let names = if method == "alias_method" { names.into_iter().take(1).collect() } else { names };
        let target = if on_self { None } else { call.receiver().as_ref().and_then(receiver_class) };
        for defined in names.iter().flat_map(|name| made_names(method, name)) {
            if method != "define_singleton_method" {
                self.note_block_replaced(&defined);
            }
            if let Some((class, side)) = target.clone() {
                let side = if method == "define_singleton_method" { Side::Singleton } else { side };
                self.note_replaced_on(class, side, &defined);
            }
            self.index.object_singleton_defs.insert(defined);
        }
    }

    /// `undef m` or `alias m n` in a block: whatever the block runs on (a
    /// class the signatures declare, or any object) answers `m` otherwise.
    fn note_given_in_block(&mut self, method: String) {
        self.note_block_replaced(&method);
        self.index.object_singleton_defs.insert(method);
    }

    /// A method defined in the innermost block, when that block runs on a
    /// class the signatures declare.
    fn note_block_replaced(&mut self, method: &str) {
        if self.in_block == 0 {
            return;
        }
        if let Some(Some(class)) = self.block_targets.last().cloned() {
            self.note_replaced(class, method);
        }
    }

    /// Does the call run its block with the `self` it was written under?
    /// A core method does (`each`, `synchronize`, `open`), but for those
    /// that run code on another object (`instance_eval`, `class_exec`,
    /// `define_method`); a method the signatures do not know (a project's
    /// or a gem's) may `instance_exec` it anywhere. (A project method
    /// named as a core one is taken as the core one here; the project
    /// joins those that are not, see [`super::block_runners`].)
    fn block_keeps_self(&self, call: &CallNode<'pr>) -> bool {
        use super::block_runners::RUN_ELSEWHERE;
        let method = crate::syntax::name_text(call.name());
        // `proc { @v = x }`, `lambda { }`: an object that any code may run
        // with any `self` later (`Box.define_method(:set, pr)`,
        // `obj.instance_exec(&pr)`).
        if matches!(&*method, "proc" | "lambda") {
            return false;
        }
        if method == "new" {
            // `Thread.new { }`, `Hash.new { }`; but `Module.new do` runs on
            // the module it makes, `Proc.new` makes a proc, and a project
            // class's `new` runs anywhere.
            let receiver = call.receiver().and_then(|r| constant_path_text(&r));
            return receiver.is_some_and(|r| {
                let class = r.trim_start_matches("::");
                self.env.has_class(class) && !matches!(class, "Class" | "Module" | "Proc")
            });
        }
        // `Box.send(:define_method, :set) { @v = 1 }`: run as if called.
        if is_send(&method) && literal_argument(call, 0).is_some_and(|sent| RUN_ELSEWHERE.contains(&sent.as_str())) {
            return false;
        }
        !RUN_ELSEWHERE.contains(&&*method) && self.env.declares_method_named(&method)
    }

    /// `$stdout = obj`: Kernel's printing functions may run `obj`'s code
    /// (see [`ProgramIndex::output_redirected`]).
    fn note_output_redirected(&mut self, global: &[u8]) {
        if OUTPUT_GLOBALS.contains(&global) {
            self.index.redirects_output = true;
        }
    }

    /// Is the receiver of this call the `self` the code around it has (no
    /// receiver or `self`, outside any block that may run elsewhere)?
    fn on_known_self(&self, call: &CallNode<'pr>) -> bool {
        self.blocks_of_unknown_self == 0 && matches!(call.receiver(), None | Some(Node::SelfNode { .. }))
    }

    /// See [`crate::syntax::sends_to_a_class_object`].
    fn sends_to_a_class_object(&self, call: &CallNode<'pr>) -> bool {
        let in_instance_method = self.def_on_instance.last() == Some(&true);
        crate::syntax::sends_to_a_class_object(call.receiver(), in_instance_method, self.in_a_module_of_classes())
    }

    /// Is the body being walked a module's, or `Module`'s or `Class`'s:
    /// one whose instance methods run with a class object as `self`?
    fn in_a_module_of_classes(&self) -> bool {
        self.lexical.last().is_some_and(|c| {
            matches!(&**c, "Module" | "Class") || self.index.classes.get(c).is_some_and(|c| c.is_module)
        })
    }

    /// Is `self` here an instance of the class being defined (in an
    /// instance method's body, outside any block)?
    fn self_is_an_instance(&self) -> bool {
        self.in_block == 0 && self.def_on_instance.last().copied().unwrap_or(false)
    }

    /// Inside a `Struct.new`, `Data.define` or bare `Class.new` block: its
    /// methods answer for nobody else.
    fn in_new_class_block(&self) -> bool {
        self.in_block > 0 && self.blocks_make_new_classes.last() == Some(&true)
    }

    fn alias(&mut self, new: &str, old: &str) {
        // `alias_method :setter, :attr_writer` (on a class's singleton, or
        // in `Module`): writers made under a name followed nowhere, on any
        // class.
        if is_writer_maker(old) {
            self.index.outside_ivars.any = true;
        }
        let side = self.side;
        if self.in_core_class() {
            self.note_core_def_on(new);
        }
        // `class << File; alias basename hook`: that object answers `new`
        // its own way, as after a `def` there.
        if self.lexical.last().is_some_and(|c| &**c == SINGLETON_OF_OTHER) {
            self.index.object_singleton_defs.insert(new.to_string());
            if let Some(Some(class)) = self.other_singletons.last().cloned() {
                self.note_replaced_on(class, Side::Singleton, new);
            }
        }
        self.note_own_construction(new, side, false);
        if old == "allocate" {
            let class = self.self_class_written();
            self.note_replaced(class, old);
        }
        if let Some(class) = self.current() {
            let table =
                if side == Side::Singleton { &mut class.singleton_methods } else { &mut class.instance_methods };
            let entry = table.get(old).copied().unwrap_or(MethodEntry::Opaque);
            table.insert(new.to_string(), entry);
        }
    }

    /// An `attr_writer`, `attr_accessor` or `attr(name, true)`, called
    /// directly or through `send`: the writers it makes may store anything
    /// in the ivars they name. On the class being defined (no receiver, or
    /// `self`, where `self` is that class or its instance), they are that
    /// class's, as written (names nobody can read off, `attr_writer(*NAMES)`
    /// or `names.each { |n| attr_writer n }`, make all its ivars so). On
    /// another object (`Box.attr_writer :v`, `base.send(:attr_writer, :v)`,
    /// `Box.class_eval { attr_writer :v }`, `Module.new { attr_writer :v }`)
    /// they may be any class's ivars of those names (any ivar of the
    /// receiver's family, or of anyone's, when the names are computed).
    fn note_attr_writers(&mut self, call: &CallNode<'pr>, method: &str) {
        // Sends peeled one by one (`Box.send(:public_send, :attr_writer, :v)`).
        let mut peeled = 0;
        while is_send(method) && literal_argument(call, peeled).is_some_and(|sent| is_send(&sent)) {
            peeled += 1;
        }
        let (kind, skip) = match method {
            "attr_writer" | "attr_accessor" | "attr" => (method.to_string(), 0),
            // `Module.instance_method(:attr_writer).bind_call(Box, :v)`:
            // bound to a class nobody can name here, with names not seen.
            "instance_method" | "public_instance_method" => {
                if literal_argument(call, 0).is_some_and(|m| is_writer_maker(&m)) {
                    self.index.outside_ivars.any = true;
                }
                return;
            }
            "send" | "__send__" | "public_send" | "method" | "public_method" => match literal_argument(call, peeled) {
                Some(sent) if is_writer_maker(&sent) => (sent, peeled + 1),
                Some(_) => return,
                // A method sent to a class object by a name nobody can read
                // may be one that makes writers (`m = :attr_writer;
                // Box.send(m, :v)`), or `instance_variable_set` (`:@v`). An
                // instance method's own `send(name, v)` reaches no class object.
                None if is_send(method) && self.sends_to_a_class_object(call) => {
                    // `Box.send(*args)`: the splat holds the names too.
                    let splat = call.arguments().and_then(|a| a.arguments().iter().nth(peeled));
                    let splat = splat.is_some_and(|a| matches!(a, Node::SplatNode { .. }));
                    ("attr_writer".to_string(), if splat { peeled } else { peeled + 1 })
                }
                None => return,
            },
            _ => return,
        };
        // `Box.method(:attr_writer)`: called later, with names not seen here.
        let taken = matches!(method, "method" | "public_method");
        let made = match taken {
            true => Some((Vec::new(), false)),
            false => attr_writer_names(call, &kind, skip),
        };
        let Some((names, complete)) = made else { return };
        let ivars: Vec<String> = names.iter().map(|n| format!("@{}", n.trim_start_matches('@'))).collect();
        // In an instance method of a module, `self` is whatever extends it
        // (`def field(name) = attr_accessor(name)`): not the module; in one
        // of `Module` or `Class` reopened, any class.
        let in_module_method = self.def_on_instance.last() == Some(&true) && self.in_a_module_of_classes();
        let pinned = self.on_known_self(call)
            && !self.in_new_class_block()
            && self.defs_on_other == 0
            && !in_module_method
            && self.lexical.last().is_some_and(|c| &**c != SINGLETON_OF_OTHER);
        if pinned {
            if let Some(class) = self.current() {
                class.ivars_set_from_outside.extend(ivars);
                class.ivars_opaque |= !complete;
                return;
            }
        }
        self.index.outside_ivars.add_all(Some(ivars));
        if !complete {
            match call.receiver().as_ref().and_then(written_class) {
                Some(class) => self.index.outside_ivars.add_class(class),
                None => self.index.outside_ivars.any = true,
            }
        }
    }

    fn call(&mut self, call: &CallNode<'pr>) {
        let method = crate::syntax::name_text(call.name());
        let on_self = self.in_block == 0 && matches!(call.receiver(), None | Some(Node::SelfNode { .. }));
        // `const_set(:X, v)` or `remove_const(:X)`, also through `send`
        // (the arguments are read only for those: this runs at every call).
        let named = match &*method {
            "const_set" | "remove_const" | "send" | "__send__" | "public_send" => symbol_arguments(call),
            // `method(:remove_instance_variable).call(:@x)`: called later, as
            // if sent now.
            "method" | "public_method" | "instance_method" | "public_instance_method" => symbol_arguments(call),
            _ => Vec::new(),
        };
        if !named.is_empty() {
            if let Some(first) = call.arguments().and_then(|a| a.arguments().iter().next()) {
                self.named_symbols.insert(first.location().start() as usize);
            }
        }
        self.note_construction_bypass(call, &method, &named);
        self.note_attr_writers(call, &method);
        if matches!(&*method, "instance_method" | "public_instance_method") {
            self.note_unbound(call);
        }
        self.note_made_methods(call, &method);
        self.note_made_through_the_class(call, &method);
        self.note_made_elsewhere(call, &method);
        self.note_evaluated_defs(call, &method);
        // `k.instance_method(m).owner`: only looked at, never bound.
        const INTROSPECTION: &[&str] =
            &["owner", "arity", "parameters", "source_location", "name", "original_name", "inspect", "to_s"];
        if INTROSPECTION.contains(&&*method) {
            let unbound = call.receiver().filter(|r| {
                r.as_call_node().is_some_and(|inner| {
                    matches!(&*crate::syntax::name_text(inner.name()), "instance_method" | "public_instance_method")
                })
            });
            if let Some(unbound) = unbound {
                self.introspected.insert(unbound.location().start() as usize);
            }
        }
        // The constant's name, by its place (`const_set(:X, :v)`'s value
        // may be a symbol too); one computed at run time may be any (`*`).
        let rewrites = {
            let arguments: Vec<Node<'pr>> =
                call.arguments().map(|a| a.arguments().iter().collect()).unwrap_or_default();
            let rewriting = |name: &str| matches!(name, "const_set" | "remove_const");
            let at = match arguments.first().and_then(literal_name) {
                _ if rewriting(&method) => Some(0),
                Some(sent) if is_send(&method) && rewriting(&sent) => Some(1),
                _ => None,
            };
            at.and_then(|at| arguments.get(at)).map(|name| literal_name(name).unwrap_or_else(|| "*".to_string()))
        };
        // `String.prepend(Module.new { def upcase })`: what the anonymous
        // module defines, the class now answers (the object's own side
        // for `extend`).
        if matches!(&*method, "include" | "prepend" | "extend") {
            let in_body = self.in_block == 0 && self.defs_on_other == 0 && self.in_def == 0;
            let body_class = || self.lexical.last().filter(|c| &***c != SINGLETON_OF_OTHER).map(|c| c.to_string());
            let target = match call.receiver() {
                None | Some(Node::SelfNode { .. }) if in_body => body_class().map(|c| (c, self.side)),
                None | Some(Node::SelfNode { .. }) => None,
                // `singleton_class.prepend(M)` in the class body.
                Some(receiver)
                    if in_body
                        && is_singleton_class_call(&receiver)
                        && receiver
                            .as_call_node()
                            .is_some_and(|c| matches!(c.receiver(), None | Some(Node::SelfNode { .. }))) =>
                {
                    body_class().map(|c| (c, Side::Singleton))
                }
                Some(receiver) => receiver_class(&receiver),
            };
            if let Some((class, side)) = target {
                let side = if method == "extend" { Side::Singleton } else { side };
                let arguments = call.arguments().map(|a| a.arguments().iter().collect::<Vec<_>>()).unwrap_or_default();
                for defined in arguments.iter().filter_map(anonymous_module_defs).flatten() {
                    self.note_replaced_on(class.clone(), side, &defined);
                }
                // `String.prepend(Shout)`: Shout's methods, once the project
                // knows them; so `class << self; prepend M` (a class body's
                // own mixins say the rest, and a class's own methods stand
                // ahead of what it extends).
                let from_outside = call.receiver().is_some_and(|r| !matches!(r, Node::SelfNode { .. }));
                if from_outside || (side == Side::Singleton && method == "prepend") {
                    let key = match side {
                        Side::Instance => class,
                        Side::Singleton => crate::model::index::singleton_of(&class),
                    };
                    for module in arguments.iter().filter_map(written_class) {
                        self.index.class_mixins.insert((key.clone(), module));
                    }
                }
            }
        }
        // `C.send(:include, M)`: mixed in as `C.include(M)` is.
        if named.first().is_some_and(|sent| matches!(sent.as_str(), "include" | "extend" | "prepend")) {
            self.note_object_extends(call);
        }
        // `M.send(:prepend_features, C)`: M mixed in as `C.prepend(M)` is.
        if named.first().is_some_and(|sent| FEATURE_HOOKS.contains(&sent.as_str())) {
            self.note_module_mixed_by_hook(call);
        }
        // `C.send(:define_method, :v) { }`, `send(:alias_method, :v, :w)`:
        // a method of some object's, as if written directly (but the
        // object cannot be told here).
        if let [sent, defined @ ..] = named.as_slice() {
            let names: &[String] = match sent.as_str() {
                "alias_method" => defined.get(..1).unwrap_or(&[]),
                "define_method"
                | "define_singleton_method"
                | "attr_reader"
                | "attr_writer"
                | "attr_accessor"
                | "attr"
                | "remove_method"
                | "undef_method" => defined,
                _ => &[],
            };
            let target = call.receiver().as_ref().and_then(receiver_class);
            for defined in names.iter().flat_map(|name| made_names(sent, name)) {
                self.note_block_replaced(&defined);
                if let Some((class, side)) = target.clone() {
                    let side = if sent == "define_singleton_method" { Side::Singleton } else { side };
                    self.note_replaced_on(class, side, &defined);
                }
                self.index.object_singleton_defs.insert(defined);
            }
            if matches!(sent.as_str(), "instance_variable_set" | "remove_instance_variable") {
                self.index.ivars_unknowable = true;
                if !self.on_known_self(call) {
                    // `obj.send(:instance_variable_set, :@x, v)`.
                    self.index.outside_ivars.add(literal_argument(call, 1));
                }
            }
        }
        if let Some(constant) = rewrites {
            // In whose namespace: the receiver's, as written; `self`'s, the
            // class being defined; anyone's, for a receiver nobody can name.
            let owner = match call.receiver() {
                None | Some(Node::SelfNode { .. }) => {
                    Some(self.lexical.last().map(|c| c.to_string()).unwrap_or_default())
                }
                Some(receiver) => written_class(&receiver),
            };
            let written = match owner.as_deref() {
                // (Any constant of a namespace nobody can name: not followed,
                // as every constant would be unknown.)
                Some("" | "Object") | None if constant == "*" => None,
                Some("" | "Object") | None => Some(constant.clone()),
                Some(owner) => Some(format!("{owner}::{constant}")),
            };
            // (A name computed at run time on an alias: any constant of any
            // namespace, not followed, as for a receiver nobody can name.)
            if let (Some(owner), Some(Node::ConstantReadNode { .. } | Node::ConstantPathNode { .. }), false) =
                (owner.as_deref(), call.receiver(), constant == "*")
            {
                self.index.written_on.insert((owner.to_string(), constant.clone()));
            }
            if let Some(written) = written {
                self.index.rewritten_constants.insert(written);
            }
        }
        match &*method {
            "instance_variable_set" | "instance_variables" | "remove_instance_variable" => {
                self.index.ivars_unknowable = true;
                if !self.on_known_self(call) && method != "instance_variables" {
                    self.index.outside_ivars.add(literal_argument(call, 0));
                }
            }
            // Code run with another `self`, or given as a string: what it
            // assigns belongs to objects nobody can name here.
            "instance_eval" | "instance_exec" | "class_eval" | "class_exec" | "module_eval" | "module_exec"
                if call.arguments().is_some()
                    || call
                        .block()
                        .as_ref()
                        .is_some_and(|b| !matches!(b, Node::BlockNode { .. }) || writes_ivars(b)) =>
            {
                self.index.ivars_unknowable = true;
                // A block's writes, and a `&proc`'s, are noted where they
                // are written (code outside the project is assumed to write
                // none); the `_exec`s' arguments are the block's. Code given
                // as a string writes what it spells.
                let string_code = method.ends_with("_eval").then(|| call.arguments()).flatten();
                if let (Some(arguments), false) = (string_code, self.on_known_self(call)) {
                    let code = arguments.arguments().iter().next();
                    let written = code.and_then(|code| ivars_written_by_string(&code));
                    let receiver = call.receiver().and_then(|r| constant_path_text(&r));
                    match (written, receiver) {
                        (Some(names), _) => self.index.outside_ivars.add_all(Some(names)),
                        // `Gem.module_eval <<-RUBY`: that class's family.
                        (None, Some(class)) => {
                            self.index.outside_ivars.add_class(class.trim_start_matches("::").to_string())
                        }
                        (None, None) => self.index.outside_ivars.any = true,
                    }
                }
            }
            // `eval("@ns = v")` (or `binding.eval`, whose binding may be
            // another object's): code given as a string writes what it
            // spells, on objects this file cannot pin down.
            "eval" if call.arguments().is_some() => {
                // `self` is the binding's: with none given or `binding`, this
                // one (as for `instance_eval` with a string on `self`, the
                // file's classes' own); `TOPLEVEL_BINDING`'s is `main`, no
                // class's object; any other, an object nobody can name here.
                let arguments: Vec<Node<'pr>> =
                    call.arguments().map(|a| a.arguments().iter().collect()).unwrap_or_default();
                let own_binding = match arguments.get(1) {
                    None | Some(Node::NilNode { .. }) => true,
                    Some(binding) => binding.as_call_node().is_some_and(|b| {
                        b.receiver().is_none() && b.arguments().is_none() && name(b.name()) == "binding"
                    }),
                };
                let top_level = arguments
                    .get(1)
                    .and_then(constant_path_text)
                    .is_some_and(|b| b.trim_start_matches("::") == "TOPLEVEL_BINDING");
                if on_self && own_binding {
                    self.index.ivars_unknowable = true;
                } else if !(call.receiver().is_none() && top_level) {
                    self.index.ivars_unknowable = true;
                    let code = arguments.first();
                    self.index.outside_ivars.add_all(code.and_then(ivars_written_by_string));
                }
            }
            // A method body given as a block: its writes land on the
            // instances, not where the block's `self` says.
            "define_method" | "define_singleton_method" if call.block().as_ref().is_some_and(writes_ivars) => {
                match (on_self, self.current()) {
                    (true, Some(class)) => class.ivars_opaque = true,
                    _ => {
                        self.index.ivars_unknowable = true;
                        self.index.outside_ivars.add_all(call.block().map(|b| ivar_writes(&b)));
                    }
                }
                // The name is given a body all the same (`Base.define_method(:hook)
                // { @seen = x }`: `initialize`'s `hook` runs it).
                if !on_self && !self.in_new_class_block() {
                    self.note_given_elsewhere(call, &method, false);
                }
            }
            // `obj.extend(M)`: M's methods may override those of obj's class.
            // So may `Klass.prepend(M)` (and `Klass.include(M)` those of its
            // superclasses): taken the same way, ahead of everything. So
            // may `extend(M)` in an instance method (the object extends
            // itself).
            // `M.prepend_features(C)`, `M.append_features(C)`,
            // `M.extend_object(o)`: what `prepend`, `include` and `extend`
            // run, with the module as the receiver.
            hook if FEATURE_HOOKS.contains(&hook) => self.note_module_mixed_by_hook(call),
            // `class << o; include M; end` mixes M into `o` alone, as
            // `o.extend(M)` does.
            "extend" | "prepend" | "include"
                if call.receiver().is_some_and(|r| !matches!(r, Node::SelfNode { .. }))
                    || (method == "extend" && on_self && self.self_is_an_instance())
                    || (self.in_block > 0 && !self.in_new_class_block())
                    || self.lexical.last().is_some_and(|c| &**c == SINGLETON_OF_OTHER) =>
            {
                self.note_object_extends(call)
            }
            // In a block (`String.class_eval do define_method(:upcase)`), or
            // sent to another object: some object's own names, as a `def`
            // there is (unless the block makes a class of its own).
            "define_method"
            | "define_singleton_method"
            | "alias_method"
            | "attr_reader"
            | "attr_writer"
            | "attr_accessor"
            | "attr"
            // `Box.remove_method(:m)`: `m` is answered by another body now
            // (a superclass's, `method_missing`), as when sent.
            | "remove_method"
            | "undef_method"
                if (!on_self && !self.in_new_class_block())
                    || (method == "define_singleton_method" && on_self && self.self_is_an_instance()) =>
            {
                self.note_given_elsewhere(call, &method, on_self);
            }
            _ if !on_self => {}
            "attr_reader" | "attr_writer" | "attr_accessor" | "attr" => {
                // `attr :ratio, true` (obsolete, still honoured) makes a writer too.
                let writes = method == "attr_writer"
                    || method == "attr_accessor"
                    || (method == "attr" && attr_makes_writer(call));
                for attribute in symbol_arguments(call) {
                    let ivar = self.ivar(format!("@{attribute}"));
                    let side = self.side;
                    if method != "attr_writer" {
                        self.add_method(attribute.clone(), MethodEntry::Reader(ivar), side);
                    }
                    if writes {
                        self.add_method(format!("{attribute}="), MethodEntry::Writer, side);
                        if let Some(class) = self.current() {
                            class.ivars_set_from_outside.insert(format!("@{attribute}"));
                        }
                    }
                }
            }
            "define_method"
            | "define_singleton_method"
            | "attr_internal"
            | "delegate"
            | "def_delegator"
            | "def_delegators"
            | "def_instance_delegator"
            | "def_instance_delegators"
            | "forward" => {
                let side = if method == "define_singleton_method" { Side::Singleton } else { self.side };
                let names = symbol_arguments(call);
                let names = if method.starts_with("def_") { names.into_iter().skip(1).collect() } else { names };
                for defined in names {
                    self.add_method(defined, MethodEntry::Opaque, side);
                }
            }
            "alias_method" => {
                let names = symbol_arguments(call);
                if let [new, old] = names.as_slice() {
                    self.alias(new, old);
                }
            }
            "module_function" => {
                let names = symbol_arguments(call);
                if call.arguments().is_none() {
                    self.module_function = true;
                } else if let Some(class) = self.current() {
                    let mut dual = Vec::new();
                    for defined in names {
                        if let Some(entry) = class.instance_methods.get(&defined).copied() {
                            class.singleton_methods.insert(defined, entry);
                            if let MethodEntry::Def(id) = entry {
                                dual.push(id);
                            }
                        }
                    }
                    for id in dual {
                        self.index.defs[id].dual = true;
                    }
                }
            }
            "include" | "extend" | "prepend" => {
                let kind = match &*method {
                    "include" => PendingKind::Include,
                    "extend" => PendingKind::Extend,
                    _ => PendingKind::Prepend,
                };
                let arguments: Vec<Node<'pr>> =
                    call.arguments().map(|a| a.arguments().iter().collect()).unwrap_or_default();
                let side = self.side;
                let Some(class) = self.current() else {
                    // `include M` at the top level: M's methods are every
                    // object's, run from wherever.
                    if kind != PendingKind::Extend && self.lexical.is_empty() {
                        let written = arguments.iter().filter_map(constant_path_text);
                        self.index.top_object_extends.extend(written);
                    }
                    return;
                };
                // `include A, B` is `include B; include A`: A ends up
                // nearest the class.
                for argument in arguments.into_iter().rev() {
                    match (&argument, constant_path_text(&argument)) {
                        // `extend self`: instance methods are module methods too.
                        // `extend self`: every instance method, also those
                        // defined later, is a module method too.
                        (Node::SelfNode { .. }, _) if matches!(kind, PendingKind::Extend) => class.extends_self = true,
                        (_, Some(written)) if side == Side::Instance => class.pending.push((kind, written)),
                        // `class << self; include M`: M's methods run on the
                        // class object, where no class's ancestry shows it.
                        (_, Some(written)) if kind != PendingKind::Extend => {
                            class.pending.push((PendingKind::ObjectExtend, written));
                            class.unknown_mixins = true;
                            class.computed_mixins = true;
                        }
                        _ => {
                            class.unknown_mixins = true;
                            class.computed_mixins = true;
                        }
                    }
                }
            }
            _ => self.note_macro(call, &method),
        }
    }
}

impl<'pr> Visit<'pr> for Walker<'_, 'pr, '_> {
    fn visit_branch_node_enter(&mut self, node: Node<'pr>) {
        ensure_room();
        self.note_block_write(&node);
    }

    fn visit_leaf_node_enter(&mut self, node: Node<'pr>) {
        // `n = :remove_instance_variable; obj.send(n, :@x)`: the name, kept
        // to be sent later, to any object.
        if let Some(symbol) = node.as_symbol_node() {
            if matches!(symbol.unescaped(), b"remove_instance_variable" | b"instance_variable_set")
                && !self.named_symbols.contains(&(node.location().start() as usize))
            {
                self.index.ivars_unknowable = true;
                self.index.outside_ivars.add(None);
            }
        }
        self.note_block_write(&node);
    }

    fn visit_class_node(&mut self, class: &ruby_prism::ClassNode<'pr>) {
        let path = class.constant_path();
        let Some(full) = self.declared_name(&path) else { return ruby_prism::visit_class_node(self, class) };
        self.index.class_at.insert(path.location().start() as usize, full.clone());
        self.open_class(full.clone(), false);
        if let Some(superclass) = class.superclass() {
            self.visit(&superclass);
            let entry = self.index.classes.get_mut(&full).expect("opened");
            match constant_path_text(&superclass) {
                Some(written) => {
                    // A `class` in a block may run after the rest of the file.
                    if !written.starts_with("::") && self.in_block == 0 && self.in_def == 0 {
                        let head = written.split("::").next().unwrap_or(&written).to_string();
                        self.superclasses_named.push((full.clone(), superclass.location().start() as usize, head));
                    }
                    entry.pending.push((PendingKind::Superclass, written))
                }
                // `class Point < Struct.new(:x, :y)`: a Struct subclass.
                None if is_struct_new(&superclass) => entry.pending.push((PendingKind::Superclass, "::Struct".into())),
                None => entry.superclass = Superclass::Unknown,
            }
        }
        self.body(full, class.body());
    }

    fn visit_module_node(&mut self, module: &ruby_prism::ModuleNode<'pr>) {
        let path = module.constant_path();
        let Some(full) = self.declared_name(&path) else { return ruby_prism::visit_module_node(self, module) };
        self.index.class_at.insert(path.location().start() as usize, full.clone());
        self.open_class(full.clone(), true);
        self.note_module_body(&full, module.body());
        self.body(full, module.body());
    }

    fn visit_singleton_class_node(&mut self, singleton: &ruby_prism::SingletonClassNode<'pr>) {
        let on_self = matches!(singleton.expression(), Node::SelfNode { .. });
        let saved = (self.side, self.module_function);
        // `class << self` in `class << self`: its methods read the
        // singleton class's ivars, not the class's.
        if on_self && self.in_singleton_self > 0 {
            let module = self.lexical.last().and_then(|c| self.index.classes.get_mut(c)).filter(|c| c.is_module);
            if let Some(module) = module {
                module.initialized_ivars.insert(CLASS_BODY_REOPENED.to_string());
            }
        }
        if on_self {
            self.side = Side::Singleton;
            self.in_singleton_self += 1;
        } else {
            // `class << obj`: methods of some other object.
            self.visit(&singleton.expression());
            self.lexical.push(Name::from(SINGLETON_OF_OTHER));
            let written = written_class(&singleton.expression());
            self.other_singletons.push(written);
        }
        self.module_function = false;
        if let Some(body) = singleton.body() {
            self.visit(&body);
        }
        if on_self {
            self.in_singleton_self -= 1;
        } else {
            self.lexical.pop();
            self.other_singletons.pop();
        }
        (self.side, self.module_function) = saved;
    }

    fn visit_def_node(&mut self, def: &ruby_prism::DefNode<'pr>) {
        let node = def.as_node();
        let method = name(def.name());
        let side = match def.receiver() {
            None => Some(self.side),
            Some(Node::SelfNode { .. }) => Some(Side::Singleton),
            Some(_) => None,
        };
        let in_other = self.in_block > 0 || self.lexical.last().is_some_and(|c| &**c == SINGLETON_OF_OTHER);
        if method == "new" {
            self.note_new_def(def, in_other);
        }
        // `def self.x` run by an instance method gives that one object `x`.
        let on_an_instance = side == Some(Side::Singleton) && self.self_is_an_instance();
        // `def Integer.sqrt`, or a `def` in `class << Integer`: that class's.
        let class_object = match def.receiver() {
            Some(Node::SelfNode { .. }) => None,
            Some(receiver) => written_class(&receiver),
            None if self.in_block == 0 && self.lexical.last().is_some_and(|c| &**c == SINGLETON_OF_OTHER) => {
                self.other_singletons.last().cloned().flatten()
            }
            None => None,
        };
        if let Some(class) = class_object {
            self.note_replaced_on(class, Side::Singleton, &method);
        }
        let owner = match (self.lexical.last(), side) {
            (Some(class), Some(side)) if !in_other => Some((class.clone(), side)),
            _ => None,
        };
        if self.env.declares_method_named(&method) {
            let used = super::block_runners::block_use(def, self.env);
            if used.elsewhere {
                self.index.block_runners.insert(method.clone());
            }
            let handoffs = used.handed_to.into_iter().map(|callee| (method.clone(), callee));
            self.index.block_handoffs.extend(handoffs);
        }
        let id = self.index.defs.len();
        let dual = self.module_function && side == Some(Side::Instance) && !in_other;
        let mut lexical = self.lexical.clone();
        if self.in_singleton_self > 0 {
            lexical.push(Name::from(SINGLETON_OF_SELF));
        }
        self.index.defs.push(DefInfo { node: node_clone(&node), owner, lexical, dual });
        self.index.def_at.insert(node.location().start() as usize, id);
        if let (Some(side), false, false) = (side, in_other, on_an_instance) {
            self.add_method(method.clone(), MethodEntry::Def(id), side);
        }
        // `def obj.name`, or a `def` in a block (`Class.new(Base) do def
        // step`, `class_eval do`): some object answers `name` its own way,
        // ahead of its class (any class's, as far as this file can tell).
        let in_new_class = self.in_new_class_block();
        if on_an_instance {
            self.index.object_singleton_defs.insert(method.clone());
        }
        if side.is_none() || (in_other && !in_new_class) {
            self.index.object_singleton_defs.insert(method.clone());
            if def.receiver().is_none() {
                self.note_block_replaced(&method);
                // `K.class_eval do def initialize`: K's objects are made by it.
                if let (true, Some(Some(class))) = (method == "initialize", self.eval_targets.last().cloned()) {
                    self.note_replaced(class, &method);
                }
                // `Class.new(A) do def initialize`: objects of A made by it.
                if let (true, Some(Some(parent))) = (method == "initialize", self.new_class_parents.last().cloned()) {
                    self.note_replaced(parent, &method);
                }
            }
        }
        // A `def` in a block or in `class << obj` may define a method of
        // any class: its writes cannot be attributed.
        if in_other || side.is_none() {
            let written = def.body().map(|b| ivar_writes(&b)).unwrap_or_default();
            if !written.is_empty() {
                self.index.ivars_unknowable = true;
                if !in_new_class {
                    self.index.outside_ivars.add_all(Some(written));
                }
            }
        }
        // A module's writes land in whatever object it is mixed into.
        let in_module = self.current().is_some_and(|c| c.is_module);
        if side == Some(Side::Instance) && !in_other && in_module {
            let written = def.body().map(|b| ivar_writes(&b)).unwrap_or_default();
            if let Some(module) = self.current() {
                for ivar in written {
                    if !module.ivars_written.contains(&ivar) {
                        module.ivars_written.push(ivar);
                    }
                }
            }
        }
        // A root's instance methods run on every object (Module's and
        // Class's on every class object): what they write is any class's
        // (`class Object; def reset! = @v = nil`, then `box.reset!`).
        // So do top-level `def`s, Object's private methods.
        let in_root = self.lexical.is_empty()
            || self
                .current()
                .is_some_and(|c| matches!(&*c.name, "Object" | "Kernel" | "BasicObject" | "Module" | "Class"));
        if side == Some(Side::Instance) && !in_other && in_root {
            let written = def.body().map(|b| ivar_writes(&b)).unwrap_or_default();
            if !written.is_empty() {
                self.index.outside_ivars.add_all(Some(written));
            }
        }
        if method == "initialize" && side == Some(Side::Instance) && !in_other {
            let mut assigned = straight_line_ivar_writes(def.body());
            // `def initialize; end` runs nothing (unless a default value
            // does): a subclass's ivars assigned after its `super` into
            // this one are set before anything can read them.
            let no_defaults = def.parameters().is_none_or(|list| {
                list.optionals().iter().next().is_none()
                    && list.keywords().iter().all(|k| k.as_optional_keyword_parameter_node().is_none())
            });
            if def.body().is_none() && no_defaults {
                assigned.push(CALLS_NOTHING.to_string());
            }
            if only_keeps_arguments(def) {
                assigned.push(KEEPS_ARGUMENTS.to_string());
            }
            let kernel = def.body().map(|body| kernel_calls_in(&body)).unwrap_or_default();
            if !kernel.is_empty() {
                assigned.push(format!("{KERNEL_CALLS}{}", kernel.join(",")));
            }
            if let Some(class) = self.current() {
                class.initialized_ivars.extend(assigned);
                // Defined twice (conditionally, or reopened): either may run.
                if class.redefined.contains_key(&(Side::Instance, "initialize".to_string())) {
                    class.initialized_ivars.insert(INITIALIZE_REDEFINED.to_string());
                }
            }
        }
        let saved = self.module_function;
        self.module_function = false;
        self.in_def += 1;
        let on_other = usize::from(in_other || side.is_none());
        self.defs_on_other += on_other;
        self.def_on_instance.push(side == Some(Side::Instance) && !in_other && !on_an_instance);
        self.def_bodies.push((def.parameters().map(|p| p.as_node()), def.body()));
        let in_singleton =
            self.side == Side::Singleton && self.lexical.last().is_none_or(|c| &**c != SINGLETON_OF_OTHER);
        self.included_hooks.push(included_hook_parameter(def, in_singleton));
        ruby_prism::visit_def_node(self, def);
        self.included_hooks.pop();
        self.def_bodies.pop();
        self.def_on_instance.pop();
        self.defs_on_other -= on_other;
        self.in_def -= 1;
        self.module_function = saved;
    }

    fn visit_call_node(&mut self, call: &CallNode<'pr>) {
        self.call(call);
        // `REGISTRY[k] = v`, `PORTS << x`: the constant's value changes.
        if let Some(receiver) = call.receiver() {
            let method = crate::syntax::name_text(call.name());
            // (`merge` mutates a Set but not a Hash: not counted.)
            let set_mutator = method != "merge" && super::calls::SET_MUTATORS.contains(&&*method);
            if super::calls::mutates_receiver(&method) || set_mutator {
                self.note_constant_mutated(&receiver);
            }
        }
        let with_block = call.block().is_some_and(|b| matches!(b, Node::BlockNode { .. }));
        if with_block {
            self.blocks_make_new_classes.push(makes_new_class(call));
            let target = block_target(call);
            self.eval_targets.push(target.clone());
            self.new_class_parents.push(class_new_parent(call));
            // `String.instance_eval { define_method(:size) }` gives String's
            // instances the method too (its `def`s are String's own: only
            // a signature's certainty is at stake here, not where they go).
            let replaced_on = target.clone().or_else(|| instance_eval_target(call));
            self.block_targets.push(replaced_on.filter(|class| self.env.has_class(class)));
            let start = call.block().map_or(0, |b| b.location().start() as usize);
            let new_class = makes_new_class(call);
            let keeps = new_class || self.block_keeps_self(call);
            // Kept because the signatures name a method so: a project
            // method of that name may run it elsewhere all the same.
            let named = (keeps && !new_class).then(|| crate::syntax::name_text(call.name()).into_owned());
            self.iterator_blocks.push((start, keeps, named));
            self.literal_iterations.push(literal_iteration(call));
        }
        ruby_prism::visit_call_node(self, call);
        if with_block {
            self.blocks_make_new_classes.pop();
            self.block_targets.pop();
            self.eval_targets.pop();
            self.new_class_parents.pop();
            self.iterator_blocks.pop();
            self.literal_iterations.pop();
        }
    }

    fn visit_index_or_write_node(&mut self, node: &ruby_prism::IndexOrWriteNode<'pr>) {
        if let Some(receiver) = node.receiver() {
            self.note_constant_mutated(&receiver);
        }
        ruby_prism::visit_index_or_write_node(self, node);
    }

    fn visit_index_and_write_node(&mut self, node: &ruby_prism::IndexAndWriteNode<'pr>) {
        if let Some(receiver) = node.receiver() {
            self.note_constant_mutated(&receiver);
        }
        ruby_prism::visit_index_and_write_node(self, node);
    }

    fn visit_index_operator_write_node(&mut self, node: &ruby_prism::IndexOperatorWriteNode<'pr>) {
        if let Some(receiver) = node.receiver() {
            self.note_constant_mutated(&receiver);
        }
        ruby_prism::visit_index_operator_write_node(self, node);
    }

    fn visit_block_node(&mut self, block: &ruby_prism::BlockNode<'pr>) {
        let start = block.location().start() as usize;
        let innermost = self.iterator_blocks.last().filter(|(at, _, _)| *at == start);
        let iterator = innermost.is_some_and(|(_, keeps, _)| *keeps);
        let named = innermost.and_then(|(_, _, named)| named.clone());
        let pushed = named.is_some();
        self.kept_by_name.extend(named);
        self.in_block += 1;
        self.blocks_of_unknown_self += usize::from(!iterator);
        ruby_prism::visit_block_node(self, block);
        self.blocks_of_unknown_self -= usize::from(!iterator);
        self.in_block -= 1;
        if pushed {
            self.kept_by_name.pop();
        }
    }

    fn visit_lambda_node(&mut self, lambda: &ruby_prism::LambdaNode<'pr>) {
        self.in_block += 1;
        self.blocks_of_unknown_self += 1;
        ruby_prism::visit_lambda_node(self, lambda);
        self.blocks_of_unknown_self -= 1;
        self.in_block -= 1;
    }

    fn visit_constant_write_node(&mut self, write: &ruby_prism::ConstantWriteNode<'pr>) {
        let written = name(write.name());
        if !self.struct_class(&written, &write.value()) {
            self.constant_write(Some(written), write.value());
        }
        ruby_prism::visit_constant_write_node(self, write);
    }

    fn visit_constant_path_write_node(&mut self, write: &ruby_prism::ConstantPathWriteNode<'pr>) {
        let written = constant_path_text(&write.target().as_node());
        if let Some((owner, constant)) = written.as_deref().and_then(|w| w.rsplit_once("::")) {
            if !owner.is_empty() {
                self.index.written_on.insert((owner.to_string(), constant.to_string()));
            }
        }
        if !written.as_ref().is_some_and(|w| self.struct_class(w, &write.value())) {
            self.constant_write(written, write.value());
        }
        ruby_prism::visit_constant_path_write_node(self, write);
    }

    /// `X ||= v` assigns `v` when `X` is not set yet: one more write.
    fn visit_constant_or_write_node(&mut self, write: &ruby_prism::ConstantOrWriteNode<'pr>) {
        self.constant_write(Some(name(write.name())), write.value());
        ruby_prism::visit_constant_or_write_node(self, write);
    }

    fn visit_constant_path_or_write_node(&mut self, write: &ruby_prism::ConstantPathOrWriteNode<'pr>) {
        self.constant_write(constant_path_text(&write.target().as_node()), write.value());
        ruby_prism::visit_constant_path_or_write_node(self, write);
    }

    /// `X &&= v`, `X += 1`: what it holds then is computed from what it
    /// held, which the writes alone do not say.
    fn visit_constant_and_write_node(&mut self, write: &ruby_prism::ConstantAndWriteNode<'pr>) {
        self.constant_recomputed(Some(name(write.name())));
        ruby_prism::visit_constant_and_write_node(self, write);
    }

    fn visit_constant_operator_write_node(&mut self, write: &ruby_prism::ConstantOperatorWriteNode<'pr>) {
        self.constant_recomputed(Some(name(write.name())));
        ruby_prism::visit_constant_operator_write_node(self, write);
    }

    fn visit_constant_path_and_write_node(&mut self, write: &ruby_prism::ConstantPathAndWriteNode<'pr>) {
        self.constant_recomputed(constant_path_text(&write.target().as_node()));
        ruby_prism::visit_constant_path_and_write_node(self, write);
    }

    fn visit_constant_path_operator_write_node(&mut self, write: &ruby_prism::ConstantPathOperatorWriteNode<'pr>) {
        self.constant_recomputed(constant_path_text(&write.target().as_node()));
        ruby_prism::visit_constant_path_operator_write_node(self, write);
    }

    fn visit_global_variable_write_node(&mut self, write: &ruby_prism::GlobalVariableWriteNode<'pr>) {
        self.note_output_redirected(write.name().as_slice());
        ruby_prism::visit_global_variable_write_node(self, write);
    }

    fn visit_global_variable_target_node(&mut self, target: &ruby_prism::GlobalVariableTargetNode<'pr>) {
        self.note_output_redirected(target.name().as_slice());
        ruby_prism::visit_global_variable_target_node(self, target);
    }

    fn visit_global_variable_or_write_node(&mut self, write: &ruby_prism::GlobalVariableOrWriteNode<'pr>) {
        self.note_output_redirected(write.name().as_slice());
        ruby_prism::visit_global_variable_or_write_node(self, write);
    }

    fn visit_global_variable_and_write_node(&mut self, write: &ruby_prism::GlobalVariableAndWriteNode<'pr>) {
        self.note_output_redirected(write.name().as_slice());
        ruby_prism::visit_global_variable_and_write_node(self, write);
    }

    /// `alias $err $stderr`: a write of `$err` points `$stderr` elsewhere
    /// (and `alias $stdout $mine` makes `$stdout` whatever `$mine` holds).
    fn visit_alias_global_variable_node(&mut self, alias: &ruby_prism::AliasGlobalVariableNode<'pr>) {
        self.note_output_redirected(alias.new_name().location().as_slice());
        self.note_output_redirected(alias.old_name().location().as_slice());
        ruby_prism::visit_alias_global_variable_node(self, alias);
    }

    /// `undef v` in a class body: `v` is no longer the body written here
    /// (`method_missing` may answer it), as for `undef_method :v`.
    fn visit_undef_node(&mut self, undef: &ruby_prism::UndefNode<'pr>) {
        let in_the_body = self.blocks_of_unknown_self == 0
            && self.in_def == 0
            && !self.in_new_class_block()
            && self.defs_on_other == 0
            && self.current().is_some();
        if !in_the_body && self.in_block > 0 && !self.in_new_class_block() {
            // `Box.class_eval { undef m }`: taken from whatever the block
            // runs on, as `undef_method` there.
            for name in undef.names().iter().filter_map(|name| literal_name(&name)) {
                self.note_given_in_block(name);
            }
        }
        if in_the_body {
            for name in undef.names().iter() {
                match literal_name(&name) {
                    Some(name) => self.add_method(name, MethodEntry::Opaque, self.side),
                    None => {
                        let (prefix, suffix) = computed_name(&name).unwrap_or_default();
                        let side = self.side;
                        if let Some(class) = self.current() {
                            class.make(MadeMethods { side, prefix, suffix });
                        }
                    }
                }
            }
        }
        ruby_prism::visit_undef_node(self, undef);
    }

    fn visit_alias_method_node(&mut self, alias: &ruby_prism::AliasMethodNode<'pr>) {
        let symbol = |n: Node<'_>| n.as_symbol_node().map(|s| crate::syntax::decoded(s.unescaped()).into_owned());
        let (Some(new), Some(old)) = (symbol(alias.new_name()), symbol(alias.old_name())) else { return };
        if self.in_block > 0 {
            // `Box.class_eval { alias m n }`: the class the block runs on,
            // maybe not this one, answers `m` with another body, as for
            // `alias_method` there (`Class.new do`'s own class: nobody's).
            if !self.in_new_class_block() {
                self.note_given_in_block(new);
            }
            return;
        }
        self.alias(&new, &old);
    }
}

fn note_redefinition(
    redefined: &mut HashMap<(Side, String), Vec<usize>>,
    side: Side,
    method: &str,
    previous: Option<MethodEntry>,
    entry: MethodEntry,
) {
    if let (Some(MethodEntry::Def(old)), MethodEntry::Def(new)) = (previous, entry) {
        let all = redefined.entry((side, method.to_string())).or_insert_with(|| vec![old]);
        if !all.contains(&new) {
            all.push(new);
        }
    }
}

/// What `Struct.new(:a, :b, keyword_init: true) do ... end` makes.
struct StructLayout {
    members: Vec<String>,
    /// The block's `def`s.
    defs: Vec<(String, Side)>,
    /// The block does more than `def`: it may define anything.
    open: bool,
}

fn struct_layout(value: &Node<'_>) -> Option<StructLayout> {
    let call = struct_new_call(value)?;
    let arguments: Vec<Node<'_>> = call.arguments()?.arguments().iter().collect();
    let (last, symbols) = arguments.split_last()?;
    let symbols = if matches!(last, Node::KeywordHashNode { .. }) { symbols } else { &arguments[..] };
    let members: Vec<String> = symbols
        .iter()
        .map(|a| a.as_symbol_node().map(|s| crate::syntax::decoded(s.unescaped()).into_owned()))
        .collect::<Option<_>>()?;
    if members.is_empty() {
        return None;
    }
    let mut layout = StructLayout { members, defs: Vec::new(), open: false };
    let body = match call.block() {
        None => return Some(layout),
        Some(block) => match block.as_block_node() {
            Some(block) => block.body(),
            None => {
                layout.open = true;
                return Some(layout);
            }
        },
    };
    match body.as_ref().map(|b| b.as_statements_node()) {
        None => {}
        Some(None) => layout.open = true,
        Some(Some(statements)) => {
            for statement in statements.body().iter() {
                match statement.as_def_node().map(|def| (name(def.name()), def.receiver())) {
                    Some((method, None)) => layout.defs.push((method, Side::Instance)),
                    Some((method, Some(Node::SelfNode { .. }))) => layout.defs.push((method, Side::Singleton)),
                    _ => layout.open = true,
                }
            }
        }
    }
    Some(layout)
}

/// `Struct.new(...)` (or `::Struct.new`), with or without a block.
fn struct_new_call<'pr>(node: &Node<'pr>) -> Option<CallNode<'pr>> {
    let call = node.as_call_node()?;
    let receiver = call.receiver().as_ref().and_then(constant_path_text)?;
    (call.name().as_slice() == b"new" && matches!(receiver.as_str(), "Struct" | "::Struct")).then_some(call)
}

/// `class Point < Struct.new(:x, :y)`: a superclass made on the spot.
fn is_struct_new(node: &Node<'_>) -> bool {
    struct_new_call(node).is_some_and(|call| call.block().is_none())
}

/// The lexical marker for `class << obj` bodies: nothing there is indexed.
const SINGLETON_OF_OTHER: &str = "<singleton>";

/// Ends the scope of a `def` in `class << self`, for constant lookup only
/// (see `resolve_head`): Ruby looks in the class's own constants, then in
/// the singleton class's ancestors, not the class's.
const SINGLETON_OF_SELF: &str = "<singleton-self>";

/// Instance variables `initialize` surely assigns before anything can
/// read them: the ivar writes among its leading statements, as long as no
/// statement so far can call back into the object (no call on `self`
/// but a few Kernel functions, no `self`, `yield` or instance variable
/// read) or leave early (`return`). The prefix may end in `super` (then
/// what the parent's `initialize` assigns counts: [`INHERITS_INITIALIZED`])
/// or in a bare call of a helper of the class ([`CALLS_HELPER`]), whose
/// own straight-line writes count.
pub fn straight_line_ivar_writes(body: Option<Node<'_>>) -> Vec<String> {
    straight_line_ivar_writes_given(body, &[])
}

/// [`straight_line_ivar_writes`], where the locals `truthy` hold truthy
/// values throughout (a helper's parameters whose default is a truthy
/// literal, the helper called bare and never assigning them): `if full`
/// on one of them runs its branch, `unless full` its `else`.
pub fn straight_line_ivar_writes_given(body: Option<Node<'_>>, truthy: &[String]) -> Vec<String> {
    let Some(body) = body else { return Vec::new() };
    let mut statements: Vec<Node<'_>> = Vec::new();
    run_in_order(body, &mut statements, truthy);
    let mut out = Vec::new();
    let mut after_super = false;
    // Methods of the object's own called so far: an ivar assigned after
    // them counts only if none of them can read it ([`AFTER_CALLS`]).
    let mut called: Vec<String> = Vec::new();
    // `@cb = method(:x)`: a Method object kept, not run; `x` counts as
    // called once something reads `@cb` ([`VIA_IVAR`]).
    let mut kept: Vec<(String, String)> = Vec::new();
    let mark = |ivar: String, after_super: bool, called: &[String], kept: &[(String, String)]| {
        let ivar = if after_super { format!("{AFTER_SUPER}{ivar}") } else { ivar };
        let names = called_names(called, kept);
        if names.is_empty() {
            ivar
        } else {
            format!("{AFTER_CALLS}{}|{ivar}", names.join(","))
        }
    };
    for statement in statements {
        // A statement that reads a kept Method object's ivar may run it.
        let by_name = !kept.is_empty() && reads_ivars_by_name(&statement);
        kept.retain(|(holder, method)| {
            let read = by_name || reads_ivar(&statement, holder);
            if read {
                called.push(method.clone());
            }
            !read
        });
        if let Some((holder, method)) = kept_method_object(&statement) {
            if !after_super {
                out.push(mark(holder.clone(), after_super, &called, &kept));
                kept.push((holder, method));
                continue;
            }
        }
        if let Some(write) = statement.as_instance_variable_write_node() {
            // `@x = (cached or return)`: not assigned on every path.
            if leaves_early(&write.value()) {
                return out;
            }
            // `@me = self` keeps the object; it runs nothing.
            let keeps_self = matches!(write.value(), Node::SelfNode { .. });
            if !keeps_self && may_call_back(&write.value()) {
                // (After `super` too: the marker then names both, and both
                // must not read it.)
                match own_calls_only(&write.value()) {
                    Some(names) => called.extend(names),
                    None => return out,
                }
            }
            out.push(mark(name(write.name()), after_super, &called, &kept));
            continue;
        }
        if !may_call_back(&statement) && !leaves_early(&statement) {
            // `if c then @x = 1 else @x = 2 end`: assigned on every path.
            let mut assigned: Vec<String> = surely_assigned(&statement).into_iter().collect();
            assigned.sort();
            for ivar in assigned {
                out.push(mark(ivar, after_super, &called, &kept));
            }
            continue;
        }
        if !called.is_empty() {
            // Past a call of its own, only more of the same keep the prefix.
            if let Some(helper) = bare_helper_call(&statement) {
                out.push(format!("{CALLS_HELPER_AFTER}{}|{helper}", called.join(",")));
            }
            match own_calls_only(&statement).filter(|_| !leaves_early(&statement)) {
                Some(names) => {
                    called.extend(names);
                    let mut assigned: Vec<String> = surely_assigned(&statement).into_iter().collect();
                    assigned.sort();
                    for ivar in assigned {
                        out.push(mark(ivar, after_super, &called, &kept));
                    }
                    continue;
                }
                None => return out,
            }
        }
        if after_super {
            return out;
        }
        if super_on_every_path(&statement) {
            // What follows counts too when the parent's `initialize` cannot
            // call back into the object.
            out.push(INHERITS_INITIALIZED.to_string());
            after_super = true;
            continue;
        }
        if let Some(helper) = bare_helper_call(&statement) {
            out.push(format!("{CALLS_HELPER}{helper}"));
        } else if let Some(helper) = helper_call_given_arguments(&statement) {
            out.push(format!("{CALLS_HELPER_GIVEN}{helper}"));
        }
        match own_calls_only(&statement).filter(|_| !leaves_early(&statement)) {
            Some(names) => {
                called.extend(names);
                let mut assigned: Vec<String> = surely_assigned(&statement).into_iter().collect();
                assigned.sort();
                for ivar in assigned {
                    out.push(mark(ivar, after_super, &called, &kept));
                }
            }
            None => return out,
        }
    }
    if called.is_empty() {
        // Nothing in the whole body can call back into the object (a
        // Method object it keeps is not run here).
        out.push(CALLS_NOTHING.to_string());
    } else {
        // Nothing but these methods of its own.
        out.push(format!("{CALLS_OWN_ONLY}{}", called_names(&called, &kept).join(",")));
    }
    out
}

/// What `prepend`, `include` and `extend` run on the module mixed in.
const FEATURE_HOOKS: &[&str] = &["prepend_features", "append_features", "extend_object"];

/// Marks an `initialize` that calls Kernel functions by name, as
/// `<kernel>puts,format`: they count as running no method of the object
/// only while the object's class gives none of them a body of its own.
pub const KERNEL_CALLS: &str = "<kernel>";

/// The [`KERNEL_FUNCTIONS`] a body calls without a receiver, sorted.
pub fn kernel_calls_in(node: &Node<'_>) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = crate::syntax::walk::all_nodes(node)
        .iter()
        .filter_map(|part| part.as_call_node())
        .filter(|call| call.receiver().is_none())
        .filter_map(|call| KERNEL_FUNCTIONS.iter().copied().find(|f| f.as_bytes() == call.name().as_slice()))
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// May `node` read an ivar named at run time (`instance_variable_get`,
/// `instance_variables`, `send`, `instance_eval`, `binding`)?
pub fn reads_ivars_by_name(node: &Node<'_>) -> bool {
    crate::syntax::walk::all_nodes(node).iter().any(|part| {
        part.as_call_node().is_some_and(|call| {
            matches!(
                call.name().as_slice(),
                b"instance_variable_get"
                    | b"instance_variables"
                    | b"send"
                    | b"__send__"
                    | b"public_send"
                    | b"instance_eval"
                    | b"instance_exec"
                    | b"binding"
                    | b"method"
                    | b"public_method"
            )
        })
    })
}

/// The methods called so far, then the Method objects kept unrun
/// ([`VIA_IVAR`]), as the markers list them.
fn called_names(called: &[String], kept: &[(String, String)]) -> Vec<String> {
    let kept = kept.iter().map(|(holder, method)| format!("{VIA_IVAR}{holder}>{method}"));
    called.iter().cloned().chain(kept).collect()
}

/// `@cb = method(:x)` (or `public_method`), a literal name: the ivar and
/// the method its Method object runs when called.
fn kept_method_object(statement: &Node<'_>) -> Option<(String, String)> {
    let write = statement.as_instance_variable_write_node()?;
    let call = write.value().as_call_node()?;
    let maker = name(call.name());
    if call.receiver().is_some() || call.block().is_some() || !matches!(maker.as_str(), "method" | "public_method") {
        return None;
    }
    if call.arguments()?.arguments().iter().count() != 1 {
        return None;
    }
    Some((name(write.name()), literal_argument(&call, 0)?))
}

/// The statements a body runs one after another, groupings opened: `(a;
/// b)`, `begin a; b end`, and a `begin` whose every `rescue` raises again
/// (an object whose `initialize` raised is never seen).
fn run_in_order<'pr>(node: Node<'pr>, out: &mut Vec<Node<'pr>>, truthy: &[String]) {
    if let Some(list) = node.as_statements_node() {
        for statement in list.body().iter() {
            run_in_order(statement, out, truthy);
        }
        return;
    }
    if let Some(body) = node.as_parentheses_node().and_then(|p| p.body()) {
        return run_in_order(body, out, truthy);
    }
    let known = |predicate: Node<'_>| {
        predicate
            .as_local_variable_read_node()
            .is_some_and(|read| truthy.iter().any(|t| t.as_bytes() == read.name().as_slice()))
    };
    if let Some(branch) = node.as_if_node().filter(|i| known(i.predicate())) {
        if let Some(statements) = branch.statements() {
            run_in_order(statements.as_node(), out, truthy);
        }
        return;
    }
    if let Some(branch) = node.as_unless_node().filter(|u| known(u.predicate())) {
        if let Some(statements) = branch.else_clause().and_then(|e| e.statements()) {
            run_in_order(statements.as_node(), out, truthy);
        }
        return;
    }
    if let Some(begin) = node.as_begin_node() {
        let mut rescues = std::iter::successors(begin.rescue_clause(), |r| r.subsequent());
        let reraises = rescues.all(|r| r.statements().is_some_and(|s| surely_raises(&s.as_node())));
        if let (true, None, None, Some(body)) =
            (reraises, begin.else_clause(), begin.ensure_clause(), begin.statements())
        {
            return run_in_order(body.as_node(), out, truthy);
        }
    }
    out.push(node);
}

/// Does this statement call `super` (with arguments that cannot call back
/// into the object, and no block) on every path, once: a plain `super`,
/// or one in each branch of an `if` or `unless` (a ternary too) whose
/// condition cannot call back?
fn super_on_every_path(statement: &Node<'_>) -> bool {
    let alone = |list: Option<ruby_prism::StatementsNode<'_>>| {
        let body: Vec<Node<'_>> = list.map(|l| l.body().iter().collect()).unwrap_or_default();
        matches!(body.as_slice(), [only] if super_on_every_path(only))
    };
    let otherwise = |node: Option<Node<'_>>| match node {
        Some(Node::ElseNode { .. }) => alone(node.and_then(|n| n.as_else_node()).and_then(|e| e.statements())),
        Some(elsif) => super_on_every_path(&elsif),
        None => false,
    };
    match statement {
        Node::SuperNode { .. } => statement.as_super_node().is_some_and(|call| {
            call.block().is_none() && call.arguments().is_none_or(|a| !may_call_back(&a.as_node()))
        }),
        Node::ForwardingSuperNode { .. } => {
            statement.as_forwarding_super_node().is_some_and(|call| call.block().is_none())
        }
        Node::IfNode { .. } => statement.as_if_node().is_some_and(|branch| {
            !may_call_back(&branch.predicate()) && alone(branch.statements()) && otherwise(branch.subsequent())
        }),
        Node::UnlessNode { .. } => statement.as_unless_node().is_some_and(|branch| {
            !may_call_back(&branch.predicate())
                && alone(branch.statements())
                && otherwise(branch.else_clause().map(|e| e.as_node()))
        }),
        _ => false,
    }
}

/// What a branch assigns on every path that goes on past it: `None` when
/// none does (it ends in `raise`), so any other branch decides.
fn branch_assigns(node: Option<Node<'_>>) -> Option<HashSet<String>> {
    let Some(node) = node else { return Some(HashSet::default()) };
    if surely_raises(&node) {
        return None;
    }
    Some(surely_assigned(&node))
}

/// Does the code end in `raise` or `fail` (of the Kernel's, with no
/// receiver), so that nothing after it runs?
fn surely_raises(node: &Node<'_>) -> bool {
    match node {
        Node::StatementsNode { .. } => node
            .as_statements_node()
            .and_then(|list| list.body().iter().last())
            .is_some_and(|last| surely_raises(&last)),
        Node::ElseNode { .. } => {
            node.as_else_node().and_then(|e| e.statements()).is_some_and(|s| surely_raises(&s.as_node()))
        }
        Node::CallNode { .. } => node
            .as_call_node()
            .is_some_and(|call| call.receiver().is_none() && matches!(call.name().as_slice(), b"raise" | b"fail")),
        _ => false,
    }
}

/// What every branch that goes on assigns (`None` for branches that all
/// raise).
fn every_branch(branches: impl IntoIterator<Item = Option<HashSet<String>>>) -> Option<HashSet<String>> {
    branches.into_iter().fold(None, |all, branch| match (all, branch) {
        (None, branch) => branch,
        (all, None) => all,
        (Some(all), Some(branch)) => Some(all.intersection(&branch).cloned().collect()),
    })
}

/// The ivars code assigns on every path through it (for code that cannot
/// call back nor leave early): plain writes (and `@x ||= v`), what every
/// branch of an `if`/`unless` with an `else`, a `case` with an `else` (or
/// a `case`/`in`, which raises when nothing matches), and a `begin` and
/// each of its `rescue`s assign; a branch that raises counts as any.
fn surely_assigned(node: &Node<'_>) -> HashSet<String> {
    let of = |n: Option<Node<'_>>| n.map(|n| surely_assigned(&n)).unwrap_or_default();
    match node {
        Node::InstanceVariableWriteNode { .. } => {
            node.as_instance_variable_write_node().map(|w| name(w.name())).into_iter().collect()
        }
        Node::InstanceVariableOrWriteNode { .. } => {
            node.as_instance_variable_or_write_node().map(|w| name(w.name())).into_iter().collect()
        }
        Node::CaseNode { .. } => {
            let Some(case) = node.as_case_node() else { return HashSet::default() };
            let mut out = of(case.predicate());
            if let Some(otherwise) = case.else_clause() {
                let whens = case.conditions().iter().map(|w| {
                    let body = w.as_when_node().and_then(|w| w.statements()).map(|s| s.as_node());
                    branch_assigns(body)
                });
                let all = every_branch(whens.chain([branch_assigns(Some(otherwise.as_node()))]));
                out.extend(all.unwrap_or_default());
            }
            out
        }
        Node::CaseMatchNode { .. } => {
            let Some(case) = node.as_case_match_node() else { return HashSet::default() };
            let mut out = of(case.predicate());
            let ins = case.conditions().iter().map(|w| {
                let body = w.as_in_node().and_then(|w| w.statements()).map(|s| s.as_node());
                branch_assigns(body)
            });
            let otherwise = case.else_clause().map(|e| branch_assigns(Some(e.as_node())));
            out.extend(every_branch(ins.chain(otherwise)).unwrap_or_default());
            out
        }
        Node::BeginNode { .. } => {
            let Some(begin) = node.as_begin_node() else { return HashSet::default() };
            // The body and its `else` run in full, or a `rescue` runs
            // (after the body's first part, which may have assigned
            // nothing); `ensure` runs either way.
            let mut main = of(begin.statements().map(|s| s.as_node()));
            main.extend(of(begin.else_clause().map(|e| e.as_node())));
            let mut rescues = Vec::new();
            let mut clause = begin.rescue_clause();
            while let Some(rescue) = clause {
                rescues.push(branch_assigns(rescue.statements().map(|s| s.as_node())));
                clause = rescue.subsequent();
            }
            let mut out = every_branch(std::iter::once(Some(main)).chain(rescues)).unwrap_or_default();
            out.extend(of(begin.ensure_clause().and_then(|e| e.statements()).map(|s| s.as_node())));
            out
        }
        Node::StatementsNode { .. } => node
            .as_statements_node()
            .map(|list| list.body().iter().flat_map(|s| surely_assigned(&s)).collect())
            .unwrap_or_default(),
        Node::IfNode { .. } => {
            let Some(branch) = node.as_if_node() else { return HashSet::default() };
            let mut out = surely_assigned(&branch.predicate());
            if let Some(otherwise) = branch.subsequent() {
                let then = branch_assigns(branch.statements().map(|s| s.as_node()));
                out.extend(every_branch([then, branch_assigns(Some(otherwise))]).unwrap_or_default());
            }
            out
        }
        Node::UnlessNode { .. } => {
            let Some(branch) = node.as_unless_node() else { return HashSet::default() };
            let mut out = surely_assigned(&branch.predicate());
            if let Some(otherwise) = branch.else_clause() {
                let then = branch_assigns(branch.statements().map(|s| s.as_node()));
                out.extend(every_branch([then, branch_assigns(Some(otherwise.as_node()))]).unwrap_or_default());
            }
            out
        }
        Node::ElseNode { .. } => of(node.as_else_node().and_then(|e| e.statements()).map(|s| s.as_node())),
        Node::ParenthesesNode { .. } => of(node.as_parentheses_node().and_then(|p| p.body())),
        // `@a, @b = args, {}`: every target is assigned (nil when the value
        // runs short, which the writes' types say).
        Node::MultiWriteNode { .. } => {
            let Some(multi) = node.as_multi_write_node() else { return HashSet::default() };
            let mut out = surely_assigned(&multi.value());
            let targets = multi.lefts().iter().chain(multi.rest()).chain(multi.rights().iter());
            for target in targets {
                ivar_targets(&target, &mut out);
            }
            out
        }
        _ => HashSet::default(),
    }
}

/// The instance variables a multiple assignment's target writes
/// (`@a`, `(@a, @b)`, `*@rest`).
fn ivar_targets(target: &Node<'_>, out: &mut HashSet<String>) {
    match target {
        Node::InstanceVariableTargetNode { .. } => {
            out.extend(target.as_instance_variable_target_node().map(|t| name(t.name())));
        }
        Node::MultiTargetNode { .. } => {
            if let Some(multi) = target.as_multi_target_node() {
                for inner in multi.lefts().iter().chain(multi.rest()).chain(multi.rights().iter()) {
                    ivar_targets(&inner, out);
                }
            }
        }
        Node::SplatNode { .. } => {
            if let Some(inner) = target.as_splat_node().and_then(|s| s.expression()) {
                ivar_targets(&inner, out);
            }
        }
        _ => {}
    }
}

/// `attr :name, true`: Ruby's obsolete form that makes a writer as well.
fn attr_makes_writer(call: &CallNode<'_>) -> bool {
    let arguments: Vec<Node<'_>> = call.arguments().map(|a| a.arguments().iter().collect()).unwrap_or_default();
    matches!(arguments.as_slice(), [_, Node::TrueNode { .. }])
}

/// Marks an `initialize` whose straight-line prefix ends in `super`.
pub const INHERITS_INITIALIZED: &str = "<super>";

/// Prefixes an ivar assigned after `super` (see [`straight_line_ivar_writes`]).
pub const AFTER_SUPER: &str = "<after-super>";

/// Prefixes an ivar assigned after calls of the object's own methods, as
/// `<after-calls>name,name|@ivar`: it counts as assigned first when none
/// of those methods, nor what they call in turn, can read it.
pub const AFTER_CALLS: &str = "<after-calls>";

pub use crate::model::classes::INITIALIZE_REDEFINED;

/// Marks an `initialize` whose body (besides `super`) cannot call back.
pub const CALLS_NOTHING: &str = "<calls-nothing>";

/// Prefixes, in [`UserClass::initialized_ivars`], an ivar of the class
/// object that its body assigns before anything else runs (`@store = {}`
/// opening `class Registry`): its singleton methods cannot run first.
pub const CLASS_BODY_SET: &str = "<class-body>";

/// Marks a class opened by more than one body in a file, or with a
/// `class << self` nested in another.
pub const CLASS_BODY_REOPENED: &str = "<class-reopened>";

/// The ivars a class body's leading statements assign to the class object
/// with values that run nothing (`@store = {}`, `@count = 0`), up to the
/// first statement that is anything else.
fn leading_class_ivar_writes(body: Option<Node<'_>>) -> Vec<String> {
    let Some(statements) = body.as_ref().and_then(|b| b.as_statements_node()) else { return Vec::new() };
    let mut out = Vec::new();
    for statement in statements.body().iter() {
        let Some(write) = statement.as_instance_variable_write_node() else { break };
        // Any call may reach the class object (by its constant), and so
        // may a constant read (an autoload): a literal only.
        if !plain_literal(&write.value()) {
            break;
        }
        out.push(name(write.name()));
    }
    out
}

/// A literal whose evaluation runs no method: numbers, strings without
/// interpolation, symbols, `nil`, `true`, `false`, and arrays, hashes and
/// ranges of those.
fn plain_literal(node: &Node<'_>) -> bool {
    crate::syntax::walk::all_nodes(node).iter().all(|part| {
        matches!(
            part,
            Node::HashNode { .. }
                | Node::ArrayNode { .. }
                | Node::AssocNode { .. }
                | Node::StringNode { .. }
                | Node::SymbolNode { .. }
                | Node::IntegerNode { .. }
                | Node::FloatNode { .. }
                | Node::RationalNode { .. }
                | Node::ImaginaryNode { .. }
                | Node::NilNode { .. }
                | Node::TrueNode { .. }
                | Node::FalseNode { .. }
                | Node::RangeNode { .. }
        )
    })
}

/// Among the names an ivar is assigned after ([`AFTER_CALLS`],
/// [`CALLS_OWN_ONLY`]), a Method object kept in an ivar and not run yet,
/// as `<via>@cb>name`: `name` counts as called when one of the other
/// methods, or what they call in turn, reads `@cb`.
pub const VIA_IVAR: &str = "<via>";

/// Marks an `initialize` whose whole body (besides `super`) calls back
/// into the object only through methods of its own, as
/// `<calls-own>name,name`: a `super` running it cannot read an ivar that
/// none of those, nor what they call in turn, reads.
pub const CALLS_OWN_ONLY: &str = "<calls-own>";

/// What the methods of its own an `initialize` calls ([`CALLS_OWN_ONLY`],
/// [`AFTER_CALLS`]), and what they call in turn, may read, as
/// `<own-calls-read>names|@ivars|kernel functions` (each sorted, comma
/// separated): for a subclass in another file, which cannot see their
/// bodies, to judge as [`CALLS_OWN_ONLY`] says.
pub const OWN_CALLS_READ: &str = "<own-calls-read>";

/// Marks an `initialize` whose straight-line prefix ends in a call of a
/// method of its own (`reset`), followed by the method's name.
pub const CALLS_HELPER: &str = "<call>";

/// Marks a bare call of a helper of its own that `initialize` makes past
/// calls of other methods of its own, as `<call-after>name,name|helper`:
/// what the helper assigns first counts as assigned when none of those
/// methods, nor what they call in turn, can read it (`@mono = heredoc?`,
/// then `clear` assigning `@buffer`).
pub const CALLS_HELPER_AFTER: &str = "<call-after>";

/// Marks an `initialize` whose straight-line prefix ends in a call of a
/// method of its own given arguments that call nothing (`change(name)`),
/// followed by the method's name: what the method assigns first, whatever
/// its parameters hold, counts as assigned.
pub const CALLS_HELPER_GIVEN: &str = "<call-given>";

/// The name of a helper a statement calls bare (`reset`, `self.reset`):
/// no arguments, no block.
fn bare_helper_call(statement: &Node<'_>) -> Option<String> {
    statement
        .as_call_node()
        .filter(|call| {
            matches!(call.receiver(), None | Some(Node::SelfNode { .. }))
                && call.arguments().is_none()
                && call.block().is_none()
        })
        .map(|call| name(call.name()))
}

/// Do a `def`'s default values call nothing that may reach the object
/// (`x = []`, not `x = compute`)? A call leaving them out runs them first.
pub fn defaults_call_nothing(def: &ruby_prism::DefNode<'_>) -> bool {
    let Some(parameters) = def.parameters() else { return true };
    let optionals = parameters.optionals().iter().filter_map(|p| Some(p.as_optional_parameter_node()?.value()));
    let keywords = parameters.keywords().iter().filter_map(|p| Some(p.as_optional_keyword_parameter_node()?.value()));
    optionals.chain(keywords).all(|value| !may_call_back(&value))
}

/// `helper(a, b)` on `self`, no block, its arguments calling nothing that
/// may reach the object.
fn helper_call_given_arguments(statement: &Node<'_>) -> Option<String> {
    let call = statement.as_call_node()?;
    // (`&blk` is the call's block, not one of its arguments.)
    let plain =
        |argument: &Node<'_>| !may_call_back(argument) && !matches!(argument, Node::ForwardingArgumentsNode { .. });
    let arguments = call.arguments()?;
    (matches!(call.receiver(), None | Some(Node::SelfNode { .. }))
        && call.block().is_none()
        && arguments.arguments().iter().all(|a| plain(&a)))
    .then(|| name(call.name()))
}

/// Marks an `initialize` that calls nothing at all, not even on its
/// arguments: it only keeps them, or literals, in instance variables
/// (`def initialize(owner) = @owner = owner`). `X.new(self)` running it
/// cannot call back into the object passed.
pub const KEEPS_ARGUMENTS: &str = "<keeps-arguments>";

/// Prefixes, among the calls `initialize` makes before an ivar write
/// ([`AFTER_CALLS`]), a constructor it hands the object to (`X.new(self)`),
/// followed by the constant as written: it cannot call back when `X`'s
/// `initialize` [`KEEPS_ARGUMENTS`].
pub const NEW_OF: &str = "new:";

/// Does this `initialize` only keep its arguments or literals in instance
/// variables, calling nothing (defaults included)?
fn only_keeps_arguments(def: &ruby_prism::DefNode<'_>) -> bool {
    let plain = |value: &Node<'_>| {
        matches!(
            value,
            Node::LocalVariableReadNode { .. }
                | Node::NilNode { .. }
                | Node::TrueNode { .. }
                | Node::FalseNode { .. }
                | Node::IntegerNode { .. }
                | Node::FloatNode { .. }
                | Node::SymbolNode { .. }
                | Node::StringNode { .. }
        )
    };
    if let Some(parameters) = def.parameters() {
        let defaults =
            parameters.optionals().iter().filter_map(|p| p.as_optional_parameter_node().map(|p| p.value())).chain(
                parameters.keywords().iter().filter_map(|k| k.as_optional_keyword_parameter_node().map(|k| k.value())),
            );
        let forwarding = parameters.keyword_rest().is_some_and(|k| matches!(k, Node::ForwardingParameterNode { .. }));
        if forwarding || !defaults.into_iter().all(|value| plain(&value)) {
            return false;
        }
    }
    let Some(body) = def.body() else { return true };
    let Some(statements) = body.as_statements_node() else { return false };
    statements
        .body()
        .iter()
        .all(|statement| statement.as_instance_variable_write_node().is_some_and(|write| plain(&write.value())))
}

/// Can the statement end the method before the statements after it run
/// (other than by raising)?
fn leaves_early(node: &Node<'_>) -> bool {
    struct Finder {
        found: bool,
    }
    impl<'pr> Visit<'pr> for Finder {
        fn visit_branch_node_enter(&mut self, node: Node<'pr>) {
            ensure_room();
            self.found |= matches!(node, Node::ReturnNode { .. } | Node::DefNode { .. });
        }
        fn visit_leaf_node_enter(&mut self, node: Node<'pr>) {
            self.found |= matches!(node, Node::ReturnNode { .. } | Node::RetryNode { .. } | Node::RedoNode { .. });
        }
    }
    let mut finder = Finder { found: false };
    finder.visit(node);
    finder.found
}

/// The instance variable an assignment node writes (`@x = 1`, `@x ||= 1`,
/// `@x += 1`, the `@x` of `@x, y = pair`).
fn ivar_written_by(node: &Node<'_>) -> Option<String> {
    let written = match node {
        Node::InstanceVariableWriteNode { .. } => node.as_instance_variable_write_node()?.name(),
        Node::InstanceVariableOrWriteNode { .. } => node.as_instance_variable_or_write_node()?.name(),
        Node::InstanceVariableAndWriteNode { .. } => node.as_instance_variable_and_write_node()?.name(),
        Node::InstanceVariableOperatorWriteNode { .. } => node.as_instance_variable_operator_write_node()?.name(),
        Node::InstanceVariableTargetNode { .. } => node.as_instance_variable_target_node()?.name(),
        _ => return None,
    };
    Some(crate::syntax::name(written))
}

/// The instance variables a piece of code writes, by name.
pub(super) fn ivar_writes(node: &Node<'_>) -> Vec<String> {
    struct Finder {
        found: Vec<String>,
    }
    impl<'pr> Visit<'pr> for Finder {
        fn visit_branch_node_enter(&mut self, node: Node<'pr>) {
            ensure_room();
            self.found.extend(ivar_written_by(&node));
        }
        fn visit_leaf_node_enter(&mut self, node: Node<'pr>) {
            self.found.extend(ivar_written_by(&node));
        }
    }
    let mut finder = Finder { found: Vec::new() };
    finder.visit(node);
    finder.found
}

/// Does the code assign an instance variable anywhere inside?
pub(super) fn writes_ivars(node: &Node<'_>) -> bool {
    !ivar_writes(node).is_empty()
}

/// Does the code call `attr_writer`, `attr_accessor` or `attr` (directly or
/// by `send`), which make writers of ivars it does not assign itself?
fn makes_writers(node: &Node<'_>) -> bool {
    struct Finder {
        found: bool,
    }
    impl<'pr> Visit<'pr> for Finder {
        fn visit_call_node(&mut self, call: &CallNode<'pr>) {
            let method = call.name();
            let named = |m: &[u8]| matches!(m, b"attr_writer" | b"attr_accessor" | b"attr");
            self.found |=
                named(method.as_slice()) || literal_argument(call, 0).is_some_and(|sent| named(sent.as_bytes()));
            ruby_prism::visit_call_node(self, call);
        }
    }
    let mut finder = Finder { found: false };
    finder.visit(node);
    finder.found
}

/// The ivars a literal string of code writes (`%q{@a = 1}`), or `None`
/// when the code is computed or does not parse.
fn ivars_written_by_string(code: &Node<'_>) -> Option<Vec<String>> {
    let text = code.as_string_node()?.unescaped().to_vec();
    let parsed = ruby_prism::parse(&text);
    if parsed.errors().next().is_some() || makes_writers(&parsed.node()) {
        return None;
    }
    Some(ivar_writes(&parsed.node()))
}

/// The ivar name a call's argument at `at` spells (`:@x`, `"@x"`), if it
/// is written out.
fn literal_argument(call: &CallNode<'_>, at: usize) -> Option<String> {
    literal_name(&call.arguments()?.arguments().iter().nth(at)?)
}

/// Kernel's functions, which cannot reach the object being built.
pub const KERNEL_FUNCTIONS: &[&str] = &[
    "raise",
    "fail",
    // They end the program (`exit` by raising SystemExit): no object
    // comes out of an `initialize` they leave.
    "exit",
    "exit!",
    "abort",
    "format",
    "sprintf",
    "Integer",
    "Float",
    "String",
    "Array",
    "Hash",
    "Rational",
    "Complex",
    "warn",
    "puts",
    "print",
    "p",
    "require",
    "require_relative",
    "URI",
    "Pathname",
    "BigDecimal",
    // Making a closure runs none of it (its body is still looked at: a
    // call of the object's there may run once the closure is called).
    "lambda",
    "proc",
    // Kernel's and Object's own, which run no method of the object's.
    "rand",
    "srand",
    "sleep",
    "caller",
    "object_id",
    "frozen?",
    "block_given?",
    "is_a?",
    "kind_of?",
    "instance_of?",
    "instance_variable_defined?",
    "instance_variable_get",
    "instance_variables",
    "__method__",
    // Reflection, which lists names and runs nothing (while the class
    // gives none of them a body of its own).
    "methods",
    "public_methods",
    "private_methods",
    "protected_methods",
    "singleton_methods",
];

/// When the only way evaluating `node` can run code of the object is by
/// calling its methods by name (`helper(x)`, `self.helper`), those names;
/// `None` when it can in any other way (`self` passed on, `yield`, `super`).
pub fn own_calls_only(node: &Node<'_>) -> Option<Vec<String>> {
    struct Finder {
        names: Vec<String>,
        other: bool,
    }
    impl<'pr> Visit<'pr> for Finder {
        fn visit_branch_node_enter(&mut self, node: Node<'pr>) {
            ensure_room();
            self.note(&node);
        }
        fn visit_leaf_node_enter(&mut self, node: Node<'pr>) {
            self.note(&node);
        }
        fn visit_call_node(&mut self, call: &CallNode<'pr>) {
            let method = crate::syntax::name_text(call.name());
            // `X.new(self)`: the object handed to a constructor, which is
            // judged by what its `initialize` does ([`NEW_OF`]).
            let hands_self = call
                .arguments()
                .is_some_and(|a| a.arguments().iter().any(|argument| matches!(argument, Node::SelfNode { .. })));
            let constructor = match call.receiver() {
                Some(receiver) if method == "new" && hands_self && call.block().is_none() => {
                    constant_path_text(&receiver)
                }
                _ => None,
            };
            if let Some(class) = constructor {
                self.names.push(format!("{NEW_OF}{class}"));
                for argument in call.arguments().iter().flat_map(|a| a.arguments().iter()) {
                    if !matches!(argument, Node::SelfNode { .. }) {
                        self.visit(&argument);
                    }
                }
                return;
            }
            match call.receiver() {
                None if KERNEL_FUNCTIONS.contains(&&*method) => {}
                // `method(:handle)`: a Method object that may call `handle`
                // later (counted as a call of it); a name computed, any.
                None if matches!(&*method, "method" | "public_method") => {
                    match literal_argument(call, 0) {
                        Some(named) if call.block().is_none() => self.names.push(named),
                        _ => self.names.push(method.into_owned()),
                    }
                    return;
                }
                None => self.names.push(method.into_owned()),
                Some(Node::SelfNode { .. }) if method == "class" => return,
                Some(Node::SelfNode { .. }) => {
                    // The receiver is the object: a call by name, no more.
                    self.names.push(method.into_owned());
                    if let Some(arguments) = call.arguments() {
                        self.visit(&arguments.as_node());
                    }
                    if let Some(block) = call.block() {
                        self.visit(&block);
                    }
                    return;
                }
                Some(_) => {}
            }
            ruby_prism::visit_call_node(self, call);
        }
    }
    impl Finder {
        fn note(&mut self, node: &Node<'_>) {
            self.other |= matches!(
                node,
                Node::SelfNode { .. }
                    | Node::SuperNode { .. }
                    | Node::ForwardingSuperNode { .. }
                    | Node::YieldNode { .. }
                    | Node::BlockArgumentNode { .. }
            );
        }
    }
    let mut finder = Finder { names: Vec::new(), other: false };
    finder.visit(node);
    (!finder.other).then(|| {
        finder.names.sort();
        finder.names.dedup();
        finder.names
    })
}

/// [`own_calls_only`] of a method body whose value may be `self`: a
/// fluent setter (`def update(x) = (@x = x; self)`) hands the object back
/// to its caller only, which is judged on its own.
pub fn own_calls_of_body(body: &Node<'_>) -> Option<Vec<String>> {
    let Some(statements) = body.as_statements_node() else { return own_calls_only(body) };
    let all: Vec<Node<'_>> = statements.body().iter().collect();
    let kept = match all.split_last() {
        Some((Node::SelfNode { .. }, rest)) => rest,
        _ => &all[..],
    };
    let mut names = Vec::new();
    for statement in kept {
        names.extend(own_calls_only(statement)?);
    }
    names.sort();
    names.dedup();
    Some(names)
}

/// The instance variables `node` reads (or asks whether they are set), as
/// [`reads_ivar`] finds them.
fn ivars_read_in(node: &Node<'_>) -> Vec<String> {
    crate::syntax::walk::all_nodes(node).iter().filter_map(ivar_read).map(name).collect()
}

/// The instance variable a node reads, or asks whether it is set (`@x`,
/// `@x ||= v`, `@x &&= v`, `@x += 1`).
fn ivar_read<'pr>(node: &Node<'pr>) -> Option<ruby_prism::ConstantId<'pr>> {
    match node {
        Node::InstanceVariableReadNode { .. } => node.as_instance_variable_read_node().map(|n| n.name()),
        Node::InstanceVariableOrWriteNode { .. } => node.as_instance_variable_or_write_node().map(|n| n.name()),
        Node::InstanceVariableAndWriteNode { .. } => node.as_instance_variable_and_write_node().map(|n| n.name()),
        Node::InstanceVariableOperatorWriteNode { .. } => {
            node.as_instance_variable_operator_write_node().map(|n| n.name())
        }
        _ => None,
    }
}

/// Does `node` read the instance variable `ivar` (or ask whether it is set)?
pub fn reads_ivar(node: &Node<'_>, ivar: &str) -> bool {
    struct Finder<'a> {
        ivar: &'a str,
        found: bool,
    }
    impl<'pr> Visit<'pr> for Finder<'_> {
        fn visit_branch_node_enter(&mut self, node: Node<'pr>) {
            ensure_room();
            self.note(&node);
        }
        fn visit_leaf_node_enter(&mut self, node: Node<'pr>) {
            self.note(&node);
        }
    }
    impl Finder<'_> {
        fn note(&mut self, node: &Node<'_>) {
            self.found |= ivar_read(node).is_some_and(|n| name(n) == self.ivar);
        }
    }
    let mut finder = Finder { ivar, found: false };
    finder.visit(node);
    finder.found
}

/// Could evaluating this expression run code of the object being built?
fn may_call_back(node: &Node<'_>) -> bool {
    struct Finder {
        found: bool,
    }
    impl<'pr> Visit<'pr> for Finder {
        fn visit_branch_node_enter(&mut self, node: Node<'pr>) {
            ensure_room();
            self.note(&node);
        }
        fn visit_leaf_node_enter(&mut self, node: Node<'pr>) {
            self.note(&node);
        }
        fn visit_call_node(&mut self, call: &CallNode<'pr>) {
            if call.receiver().is_none() && !KERNEL_FUNCTIONS.contains(&&*crate::syntax::name_text(call.name())) {
                self.found = true;
            }
            // `self.class` reaches the class, not the object's state.
            if matches!(call.receiver(), Some(Node::SelfNode { .. })) && call.name().as_slice() == b"class" {
                return;
            }
            ruby_prism::visit_call_node(self, call);
        }
    }
    impl Finder {
        fn note(&mut self, node: &Node<'_>) {
            if matches!(
                node,
                Node::SelfNode { .. }
                    | Node::SuperNode { .. }
                    | Node::ForwardingSuperNode { .. }
                    | Node::YieldNode { .. }
            ) {
                self.found = true;
            }
        }
    }
    let mut finder = Finder { found: false };
    finder.visit(node);
    finder.found
}

/// What a constant path's first segment resolves to.
enum Head {
    Found(Name),
    Missing,
    /// Something may answer ahead of what is known: a module mixed in from
    /// outside, or a place some file sets the name on (`const_set`).
    Uncertain,
}

/// `parent::member`, written into `buffer` (reused across the candidates
/// a constant lookup tries: `format!` per candidate was a visible cost).
fn member_of<'b>(buffer: &'b mut String, parent: &str, member: &str) -> &'b str {
    buffer.clear();
    buffer.push_str(parent);
    buffer.push_str("::");
    buffer.push_str(member);
    buffer
}

/// The constant `(X = value)` or `(A::X = value)` assigns, as written: the
/// parentheses give the value, so a call on them is a call on the constant.
fn constant_assigned_in(node: &Node<'_>) -> Option<String> {
    let body = node.as_parentheses_node()?.body()?;
    let statements = body.as_statements_node()?;
    let mut statements = statements.body().iter();
    let (Some(only), None) = (statements.next(), statements.next()) else { return None };
    match &only {
        Node::ConstantWriteNode { .. } => Some(name(only.as_constant_write_node()?.name())),
        Node::ConstantPathWriteNode { .. } => {
            constant_path_text(&only.as_constant_path_write_node()?.target().as_node())
        }
        _ => None,
    }
}

/// Whose `new` a class nobody names gets (`sub.define_singleton_method(:new)`
/// in an `inherited` hook): any class's. (`allocate` and `initialize` on
/// such a class are taken as a deserializer's, outside.)
fn any_class_for(replaced: &str) -> Option<String> {
    (replaced == "new").then(|| crate::model::index::ANY_CLASS.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::ParsedFile;

    fn index_of(source: &str, check: impl FnOnce(&ProgramIndex<'_>, &Environment)) {
        let parsed = ParsedFile::parse(source.as_bytes());
        let env = Environment::default();
        let index = ProgramIndex::build(&parsed.root(), &env);
        check(&index, &env);
    }

    #[test]
    fn classes_resolve_in_their_lexical_scope() {
        let source = "module A\n  class C; end\n  module M; end\n  class B < C\n    include M\n    def x; end\n    def self.y; end\n    attr_accessor :z\n  end\nend\nclass A::D; end\n";
        index_of(source, |index, env| {
            let b = index.class("A::B").expect("A::B");
            assert_eq!(b.superclass, Superclass::Known(Name::from("A::C")));
            assert_eq!(b.includes, vec![Name::from("A::M")]);
            assert!(matches!(b.instance_methods.get("x"), Some(MethodEntry::Def(_))));
            assert!(matches!(b.singleton_methods.get("y"), Some(MethodEntry::Def(_))));
            assert!(matches!(b.instance_methods.get("z"), Some(MethodEntry::Reader(_))));
            assert!(matches!(b.instance_methods.get("z="), Some(MethodEntry::Writer)));
            assert!(b.ivars_set_from_outside.contains("@z"));
            assert!(index.class("A::D").is_some());
            let scope = [Name::from("A"), Name::from("A::B")];
            assert_eq!(index.resolve_constant(env, &scope, "C").as_deref(), Some("A::C"));
            assert_eq!(index.resolve_constant(env, &scope, "Nope"), None);
            assert_eq!(index.ancestor_names(env, "A::B"), vec![Name::from("A::M"), Name::from("A::C")]);
        });
        // `A::C` opened only further down does not exist when `B < C` runs
        // (Ruby raises NameError): the superclass is not known.
        let source = "module A\n  class B < C\n  end\n  class C; end\nend\n";
        index_of(source, |index, _| {
            assert_eq!(index.class("A::B").expect("A::B").superclass, Superclass::Unknown);
        });
        // A top-level `C` opened before is the one named.
        let source = "class C; end\nmodule A\n  class B < C\n  end\n  class C; end\nend\n";
        index_of(source, |index, _| {
            assert_eq!(index.class("A::B").expect("A::B").superclass, Superclass::Known(Name::from("C")));
        });
    }

    #[test]
    fn defs_in_blocks_and_other_objects_belong_to_no_class() {
        let source = "class K\n  included do\n    def in_block; end\n  end\n  class << self\n    def on_singleton; end\n  end\n  class << other\n    def elsewhere; end\n  end\nend\ndef top; end\n";
        index_of(source, |index, _| {
            let k = index.class("K").expect("K");
            assert!(!k.instance_methods.contains_key("in_block"));
            assert!(k.singleton_methods.contains_key("on_singleton"));
            assert!(!k.singleton_methods.contains_key("elsewhere") && !k.instance_methods.contains_key("elsewhere"));
            assert!(index.top_methods.contains_key("top"));
            assert!(!index.top_methods.contains_key("in_block"));
        });
    }
}
