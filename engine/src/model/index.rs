//! The project index: every file's classes, methods and constants merged
//! into one view per name, which each file's inference consults for what
//! it does not define itself.
//!
//! It is built in two strata, both pure functions of the files' facts:
//! the *structure* (classes, ancestry, method names; every other file's
//! method returns `untyped`) and the *exported* index, which adds the return
//! types, constant types and instance-variable writes that each file's
//! inference against the structure found ([`FileExports`]). One stratum
//! of exports is one round of cross-file propagation; every round is sound
//! on its own, so a bounded number of rounds needs no convergence.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use rayon::prelude::*;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet, FxHasher};

use super::classes::{
    add_mixin, MadeMethods, MadeOn, MadeOnTable, MethodEntry, PendingKind, Side, Superclass, UserClass,
};
use super::params::{add_shape, add_site, CallLog, CallShape, EntrySite, ParameterPolicy};
use crate::rbs::Environment;
use crate::types::{join_positions, union, Name, Type};

/// Which file of the project, by its place in the project's file list.
pub type FileId = u32;

/// Does a `def` in the core class `on` reach values of the core class
/// `class`? In `class` itself, and in `Object`, `Kernel`, `BasicObject`
/// or a module (`Enumerable`, `Comparable`; the index records any other
/// core module as `Object`): counted as reaching every class. Another
/// core class is not among its ancestors.
pub fn core_def_reaches(on: &str, class: &str) -> bool {
    on == class || matches!(on, "Object" | "Kernel" | "BasicObject" | "Enumerable" | "Comparable")
}

/// What one file defines for the others, read off its syntax: owned, so it
/// outlives the file's tree and can be cached by the file's content.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FileInterface {
    /// Its classes as the file opens them (method entries in the file's own
    /// numbering: `Def` ids and `Reader` indexes into `ivar_names`).
    pub classes: Vec<UserClass>,
    pub ivar_names: Vec<String>,
    /// Constants it assigns, by full name.
    pub constants: Vec<Name>,
    /// `instance_variable_set` or the like: its ivars cannot be listed.
    pub ivars_unknowable: bool,
    /// Ivars it writes in objects it cannot name, which may be any class's.
    pub outside_ivars: OutsideIvarWrites,
    /// Modules it mixes into objects or classes from outside any class
    /// body (`Quiet.prepend(Loud)`, `obj.extend(M)` at the top level), as
    /// written.
    pub top_object_extends: Vec<String>,
    /// Method names it defines on objects or classes it cannot name (`def
    /// obj.name`, a `def` in a block), sorted.
    pub object_defs: Vec<String>,
    /// (class, method) of each method it defines in classes the signatures
    /// declare (a reopened `String`), sorted.
    #[serde(default)]
    pub core_defs_on: Vec<(Name, String)>,
    /// Method names it defines at the top level (Object's private
    /// methods, ahead of Kernel's for every object), sorted.
    pub top_level_defs: Vec<String>,
    /// It assigns `$stdout`, `$stderr` or `$>`: what Kernel's printing
    /// functions write to may be the program's own object.
    #[serde(default)]
    pub redirects_output: bool,
    /// (class, method) it defines in a block run on a class the signatures
    /// declare (`refine String do def upcase`), sorted.
    pub core_replaced: Vec<(String, String)>,
    /// (class, module): modules it mixes into a class a receiver names
    /// (`String.prepend(Shout)`; the class as [`singleton_of`] spells it
    /// for `extend`), as written, sorted.
    #[serde(default)]
    pub class_mixins: Vec<(String, String)>,
    /// Constants it sets or removes by name (`M.const_set(:X, v)` as
    /// `M::X`, `remove_const(:X)` in `M`'s body too; `X` where the
    /// receiver has no name), sorted.
    pub rewritten_constants: Vec<String>,
    /// (namespace as written, name): constants it sets by name on a
    /// namespace written as a constant (`S.const_set(:KIND, v)`, `S::KIND =
    /// v`), sorted. Where `S` is a constant some file assigns, not a class
    /// or module any opens, it may hold any class: the name counts as set
    /// in every namespace.
    #[serde(default)]
    pub written_on: Vec<(String, String)>,
    /// The last part of the name of each constant whose value it mutates
    /// in place (`REGISTRY[k] = v`, `PORTS << x`), sorted.
    #[serde(default)]
    pub mutated_constants: Vec<String>,
    /// The names of readers whose value it mutates in place
    /// (`pool.ids << x`, `Reg.registry[k] = v`), sorted.
    #[serde(default)]
    pub mutated_readers: Vec<String>,
    /// Methods the signatures also name that it defines to run their block
    /// on another object (`def run(obj, &b) = obj.instance_exec(&b)`),
    /// sorted.
    #[serde(default)]
    pub block_runners: Vec<String>,
    /// (method, a method the signatures name that it hands its block to),
    /// for its methods of such names, sorted: a runner too when that one is.
    #[serde(default)]
    pub block_handoffs: Vec<(String, String)>,
    /// (method, ivar): ivars it writes in blocks given to methods the
    /// signatures name (`run(box) { @v = 1 }`), sorted. They are any
    /// class's where some file's method of that name runs its block
    /// elsewhere.
    #[serde(default)]
    pub kept_block_writes: Vec<(String, String)>,
    /// Methods it gives classes from outside their bodies under computed
    /// names, sorted (see [`MadeOn`]).
    #[serde(default)]
    pub made_on: Vec<MadeOn>,
}

/// Instance variables written in objects the writer cannot name
/// (`obj.instance_variable_set(:@x, v)`, `obj.instance_eval { @x = v }`,
/// `def obj.m = @x = v`): any class's ivar of such a name may hold what
/// they wrote.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct OutsideIvarWrites {
    /// The names written, sorted once the file is indexed.
    pub names: Vec<String>,
    /// A name computed at run time (`obj.instance_variable_set("@#{k}", v)`).
    pub any: bool,
    /// Classes given code computed as a string (`Gem.module_eval <<-RUBY`),
    /// as written (sorted): any ivar of theirs and their family's.
    pub classes: Vec<String>,
    /// A module's method taken unbound from a module nobody can name
    /// (`mod.instance_method(m).bind_call(obj)`): every module's writes may
    /// land in any object.
    #[serde(default)]
    pub modules: bool,
}

impl OutsideIvarWrites {
    /// One write: of a name, or (`None`) of a name nobody can read off.
    pub fn add(&mut self, name: Option<String>) {
        match name {
            Some(name) if !self.names.contains(&name) => self.names.push(name),
            Some(_) => {}
            None => self.any = true,
        }
    }

    /// Writes of these names, or (`None`) of any.
    pub fn add_all(&mut self, names: Option<Vec<String>>) {
        match names {
            Some(names) => names.into_iter().for_each(|name| self.add(Some(name))),
            None => self.any = true,
        }
    }

    pub fn add_class(&mut self, class: String) {
        if !self.classes.contains(&class) {
            self.classes.push(class);
        }
    }

    pub fn sorted(&self) -> OutsideIvarWrites {
        let (mut names, mut classes) = (self.names.clone(), self.classes.clone());
        names.sort();
        names.dedup();
        classes.sort();
        classes.dedup();
        OutsideIvarWrites { names, any: self.any, classes, modules: self.modules }
    }

    /// May `class`'s `ivar` be written so (its name, or the class itself)?
    pub fn includes(&self, ivar: &str, class: &str) -> bool {
        self.any || self.names.iter().any(|name| name == ivar) || constant_rewrites(&self.classes, class)
    }
}

impl PartialEq for UserClass {
    fn eq(&self, other: &Self) -> bool {
        canonical(self) == canonical(other)
    }
}

/// What one file's inference (against the structure) learned that other
/// files may read: each method's return type, each constant's type, and
/// what it writes to instance variables, keyed by class.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FileExports {
    pub methods: Vec<((Name, Side, String), Type)>,
    /// What its methods that yield give their block, when known.
    pub yields: Vec<((Name, Side, String), Vec<Type>)>,
    pub constants: Vec<(Name, Type)>,
    pub ivars: Vec<((Name, Side, String), Type)>,
    /// What its calls pass to project methods (`parameter_inference`).
    pub calls: CallLog,
}

/// What the project's calls pass to each method, when all are in view.
type MethodCalls = HashMap<(Name, Side, String), Vec<CallShape>>;

/// Where each method is called from, when all its calls are in view.
type MethodEntries = HashMap<(Name, Side, String), Vec<EntrySite>>;

/// One file's definition of a method as folding sees it: its return, and
/// what it yields when that is known.
type Defined<'e> = (&'e Type, Option<&'e [Type]>);

/// One method of the project as other files see it.
#[derive(Debug, Clone)]
pub struct ExternalMethod {
    pub returns: Type,
    /// What the class's own definitions return (every file's), without
    /// its subclasses' and mixins' overrides: what `super` from below
    /// reaches, which runs exactly this body.
    pub own: Type,
    /// What those own definitions yield, as `yields` says it.
    pub own_yields: Option<Vec<Type>>,
    /// What it yields its block, when every definition's yields are known
    /// and agree in number (see `infer::yields`).
    pub yields: Option<Vec<Type>>,
    /// Whose method it is, as a dependency names it.
    pub owner: Name,
    pub side: Side,
    pub name: String,
}

/// One method's answers once the exports are folded in (see
/// [`ExternalMethod`]).
struct Folded {
    id: u32,
    returns: Type,
    own: Type,
    yields: Option<Vec<Type>>,
    own_yields: Option<Vec<Type>>,
}

#[derive(Debug, Default, Clone)]
pub struct ProjectClass {
    /// Every file's part together, entries `External`.
    pub merged: Option<UserClass>,
    /// Each file's own part, entries `External`, names resolved.
    parts: Vec<(FileId, UserClass)>,
    /// For a class opened by many files (a namespace such as `RuboCop`
    /// is opened by every file): the parts merged from the first up to
    /// each, and from each to the last, so that the class as every other
    /// file defines it is one merge, not one per part.
    splits: Option<Arc<Splits>>,
}

/// One file's part of a class, fingerprinted: its shape and its method
/// tables apart, for `Dep::Class` and `Dep::Methods`.
#[derive(Debug, Clone)]
struct PartPrint {
    file: FileId,
    shape: u64,
    methods: u64,
}

/// A class's part prints, by file, with running hashes from either end:
/// the print of every part but one reader's is then two lookups, not a
/// walk over the parts (every file of rubocop opens `RuboCop`, and each
/// reads it leaving out its own part).
#[derive(Debug, Clone)]
struct ClassPrints {
    files: Vec<FileId>,
    shape: Chain,
    methods: Chain,
    /// Who else a class's shape takes in: its family's members, whether
    /// any file of it hides its ivars, its descendants. Hashed once, not
    /// for every reader (the family of rubocop's `Cop::Base` has hundreds
    /// of members, and every cop reads its own class's shape).
    relatives: u64,
}

impl ClassPrints {
    fn of(parts: Vec<PartPrint>, relatives: u64) -> ClassPrints {
        ClassPrints {
            files: parts.iter().map(|p| p.file).collect(),
            shape: Chain::of(parts.iter().map(|p| p.shape)),
            methods: Chain::of(parts.iter().map(|p| p.methods)),
            relatives,
        }
    }

    /// Where the reader's part is (parts are in file order).
    fn position(&self, reader: FileId) -> Option<usize> {
        self.files.binary_search(&reader).ok()
    }
}

/// Running hashes of a sequence: `prefix[k]` covers items `..k` and
/// `suffix[k]` items `k..`.
#[derive(Debug, Clone)]
struct Chain {
    prefix: Vec<u64>,
    suffix: Vec<u64>,
}

impl Chain {
    fn of(items: impl DoubleEndedIterator<Item = u64> + Clone) -> Chain {
        let step = |a: u64, b: u64| {
            let mut hasher = FxHasher::default();
            (a, b).hash(&mut hasher);
            hasher.finish()
        };
        let mut prefix = vec![0];
        for item in items.clone() {
            prefix.push(step(*prefix.last().expect("seeded"), item));
        }
        let mut suffix = vec![0];
        for item in items.rev() {
            suffix.push(step(item, *suffix.last().expect("seeded")));
        }
        suffix.reverse();
        Chain { prefix, suffix }
    }

    /// The items but the one at `at` (all of them for `None`).
    fn without(&self, at: Option<usize>) -> (u64, u64) {
        let last = self.prefix.len() - 1;
        match at {
            Some(at) => (self.prefix[at], self.suffix[at + 1]),
            None => (self.prefix[last], self.suffix[last]),
        }
    }
}

#[derive(Debug)]
struct Splits {
    prefix: Vec<UserClass>,
    suffix: Vec<UserClass>,
}

/// Parts from which a class keeps prefix and suffix merges.
const SPLIT_PARTS: usize = 16;

impl ProjectClass {
    fn split(&mut self) {
        self.splits = None;
        if self.parts.len() < SPLIT_PARTS {
            return;
        }
        let mut prefix: Vec<UserClass> = Vec::with_capacity(self.parts.len());
        for (_, part) in &self.parts {
            let next = match prefix.last() {
                Some(before) => {
                    let mut merged = before.clone();
                    merge_into(&mut merged, part);
                    merged
                }
                None => part.clone(),
            };
            prefix.push(next);
        }
        let mut suffix: Vec<UserClass> = Vec::with_capacity(self.parts.len());
        for (_, part) in self.parts.iter().rev() {
            let next = match suffix.last() {
                Some(after) => {
                    let mut merged = part.clone();
                    merge_into(&mut merged, after);
                    merged
                }
                None => part.clone(),
            };
            suffix.push(next);
        }
        suffix.reverse();
        self.splits = Some(Arc::new(Splits { prefix, suffix }));
    }

    /// The parts of every file but the one part at `at`, merged in order
    /// (merging is associative, so a prefix and a suffix make the same).
    fn without_part(&self, at: usize) -> Option<UserClass> {
        let splits = self.splits.as_ref()?;
        let last = self.parts.len() - 1;
        Some(match at {
            0 => splits.suffix[1].clone(),
            _ if at == last => splits.prefix[last - 1].clone(),
            _ => {
                let mut merged = splits.prefix[at - 1].clone();
                merge_into(&mut merged, &splits.suffix[at + 1]);
                merged
            }
        })
    }
}

#[derive(Debug, Default, Clone)]
pub struct ProjectIndex {
    classes: HashMap<Name, ProjectClass>,
    methods: Vec<ExternalMethod>,
    constants: HashMap<Name, (Vec<FileId>, Type)>,
    /// Instance-variable writes per (class, side, ivar), with the files.
    ivars: HashMap<(Name, Side, String), Vec<(FileId, Type)>>,
    /// The keys of `ivars`, by class, sorted.
    ivars_by_class: HashMap<Name, Vec<(Name, Side, String)>>,
    /// Classes linked by inheritance or mixins, project-wide: each class's
    /// representative.
    families: HashMap<Name, Name>,
    /// Each family's members, sorted, by representative.
    members: HashMap<Name, Vec<Name>>,
    /// Files whose instance variables cannot be listed.
    unknowable: HashSet<FileId>,
    /// Every file's writes to ivars of objects it cannot name.
    outside_ivars: OutsideIvarWrites,
    /// Direct subclasses and includers of each class.
    children: HashMap<Name, Vec<Name>>,
    /// Every class below each class that has one, sorted (computed once:
    /// a class like rubocop's `Cop::Base` has hundreds).
    descendants: HashMap<Name, Vec<Name>>,
    /// The project's files, by id (fingerprints name files by path, so
    /// adding a file does not disturb what others read).
    paths: Vec<Arc<str>>,
    /// Whether exports were folded in (the second stratum).
    pub exported: bool,
    /// Each class's parts' fingerprints, by file (see `seal`).
    part_prints: HashMap<Name, ClassPrints>,
    /// Which methods' parameters are typed from their call sites.
    pub policy: ParameterPolicy,
    /// Every call that may reach each method, by (class, side, name),
    /// when every such call is in view (see `model::params`).
    params: MethodCalls,
    /// Instance variables surely set when each method starts (only those
    /// with some), from the same calls.
    entry_ivars: HashMap<(Name, Side, String), Vec<String>>,
    /// Modules some code mixes into single objects (`obj.extend(M)`):
    /// their instance methods may answer on an object of any class.
    object_extended: Vec<Name>,
    /// What the modules mixed into objects anywhere but an `included`
    /// hook's includer (and the modules they include) make for whatever
    /// extends them ([`UserClass::made_for_extenders`]): some class
    /// nobody names may answer these names.
    object_made: Vec<MadeMethods>,
    /// What any module makes for whatever extends it, all together: a
    /// lookup walks the modules a class extends only for a name in here.
    extender_made: Vec<MadeMethods>,
    /// Every file's [`FileInterface::top_object_extends`].
    top_object_extends: Vec<String>,
    /// Every file's [`FileInterface::object_defs`]: some object of any
    /// class may answer these names its own way.
    object_defs: HashSet<String>,
    /// The instance methods library modules (ones the signatures declare,
    /// not the project) give a project class, on each side: mixed in by
    /// `include`/`prepend` (instance) or `extend` (singleton), directly or
    /// through a project module. Such a method answers ahead of a
    /// superclass's own `def` for the class's objects.
    library_mixed: HashMap<(Name, Side), HashSet<String>>,
    /// Some file's [`FileInterface::redirects_output`].
    output_redirected: bool,
    /// Every method a file defines in a core class or at the top level, or
    /// a module mixed into a core class (or from outside, into any class)
    /// gives: [`ProjectIndex::redefined`].
    core_defs: HashSet<String>,
    /// By method, the core classes some file defines it in (or mixes a
    /// module defining it into), sorted: [`ProjectIndex::redefined_on`].
    /// (`Object` for a module mixed into objects of any class.)
    core_defs_on: HashMap<String, Vec<Name>>,
    /// Every file's [`FileInterface::top_level_defs`].
    top_level_defs: HashSet<String>,
    /// Every file's [`FileInterface::core_replaced`].
    core_replaced: HashSet<(String, String)>,
    /// The classes some file mixes a module into from outside their
    /// bodies (`Parent.include(N)`, `K.prepend(M)`), as written: their
    /// ancestors are not all in view of a constant lookup.
    outside_mixed: Vec<String>,
    /// The modules those files mix in so, as written.
    outside_mixins: Vec<String>,
    /// Every file's [`FileInterface::made_on`], sorted.
    made_on: Vec<MadeOn>,
    /// Those of them that may reach a core value ([`MadeOn::reaches_core`]
    /// asks only these): [`ProjectIndex::redefined`] is asked at every call.
    core_made: Vec<MadeOn>,
    /// The same, by class, for [`ProjectIndex::made_on`].
    made_table: MadeOnTable,
    /// Every file's [`FileInterface::rewritten_constants`].
    rewritten_constants: RewrittenConstants,
    /// Every file's [`FileInterface::mutated_constants`].
    mutated_constants: HashSet<String>,
    /// Every file's [`FileInterface::mutated_readers`].
    mutated_readers: HashSet<String>,
    /// Modules some class extends, or some code extends an object with:
    /// the extended object's own singleton methods answer ahead of theirs.
    extended: HashSet<Name>,
    /// [`Self::mixins_below`], worked out once per class that has any.
    mixins_below: HashMap<Name, Vec<Name>>,
    /// By instance method name, the classes and modules defining it,
    /// sorted: [`Self::mixin_overriders`] and [`Self::overriding_parts`]
    /// ask at every call of a method of a class with hundreds of modules
    /// and subclasses below it.
    instance_definers: HashMap<String, Vec<Name>>,
    /// The same for singleton methods.
    singleton_definers: HashMap<String, Vec<Name>>,
}

/// A fact of the project a file's analysis read; the analysis is reused
/// only while each of these reads the same.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum Dep {
    /// A class or module's shape: its parts' ancestry and flags, family
    /// and descendants (absent counts too), all but its method tables.
    Class(Name),
    /// The method tables of a class's parts in other files, whole (read
    /// by whoever takes the class as a whole, such as a file reopening it).
    Methods(Name),
    /// What other files' parts of a class define under one method name,
    /// on either side (a lookup reads one name, not the table).
    Method(Name, String),
    /// Whether other files' parts of a class define any method at all, on
    /// either side (not which: read by whoever asks whether a class has
    /// methods, where a method added to a class that has some changes nothing).
    AnyMethods(Name),
    /// What other files' definitions of a method return.
    Return(Name, Side, String),
    /// What other files write to a class's instance variables.
    Ivars(Name),
    /// A constant (not a class): who assigns it and its type.
    Constant(Name),
    /// The rules' project facts as a whole (fingerprinted by the workspace).
    Facts,
    /// Whether the exports are in (read where nothing is known without them).
    Exported,
    /// What the project's calls pass to a method's parameters.
    Params(Name, Side, String),
    /// Which instance variables the project's calls of a method surely
    /// set before it starts.
    EntryIvars(Name, Side, String),
    /// Which modules mixed into single objects or into subclasses define
    /// a class's instance method, and what theirs return.
    MixinOverrides(Name, String),
    /// Which descendants of a class define a method in other files, and
    /// what theirs return (one read where a class with hundreds of
    /// descendants would need each one's tables).
    Overrides(Name, Side, String),
    /// What the rules' project facts say of one method name (fingerprinted
    /// by the workspace, from the facts, not the index).
    FactName(String),
    /// Whether some file gives the name a body the core's own may not be:
    /// on an object (`def obj.name`, a `def` in a block or a refinement),
    /// or in a class the signatures declare (a reopened `String`).
    Redefined(String),
    /// Whether some file sets or removes this constant (full name) by name
    /// (`M.const_set(:X, v)`, `remove_const(:X)`).
    ConstantRewritten(String),
    /// Whether some file writes an ivar of this name in objects it cannot
    /// name (`obj.instance_variable_set(:@x, v)`), or code given as a
    /// string writes in the class's family: (class, ivar).
    OutsideIvar(Name, String),
    /// What modules make for whatever extends them: those extended into
    /// objects (see [`ProjectIndex::objects_make`]) and any at all (see
    /// [`ProjectIndex::extenders_may_make`]), as a whole: read by every
    /// lookup in a project class, so one dependency, not one per name.
    ObjectMade,
    /// Whether some file assigns a constant of this full name, and which
    /// (not its type): what a constant path's resolution reads.
    ConstantNamed(Name),
    /// Whether a module extended into objects, or one it mixes in,
    /// defines this instance method (not what it returns).
    ObjectMixinsDefine(String),
    /// Whether some file mixes a module into this class from outside its
    /// body (see [`ProjectIndex::mixed_from_outside`]).
    OutsideMixed(Name),
}

/// Every method name of `runners`, with those that hand their block to one
/// (`handoffs`: (method, the method it hands its block to)), to a fixpoint.
pub fn run_elsewhere<'n>(
    runners: impl IntoIterator<Item = &'n str>,
    handoffs: &'n [(String, String)],
) -> HashSet<&'n str> {
    let mut found: HashSet<&str> = runners.into_iter().collect();
    loop {
        let before = found.len();
        for (method, callee) in handoffs {
            if found.contains(callee.as_str()) {
                found.insert(method.as_str());
            }
        }
        if found.len() == before {
            return found;
        }
    }
}

/// Does one of `written` (`X`, or `M::X` where the namespace was named)
/// name the constant `full`? A namespace written relative to where the
/// call stood may be any suffix of the full name.
pub fn constant_rewrites<'w>(written: impl IntoIterator<Item = &'w String>, full: &str) -> bool {
    written.into_iter().any(|w| names_constant(w, full))
}

/// Does `written` (see [`constant_rewrites`]) name the constant `full`?
fn names_constant(written: &str, full: &str) -> bool {
    match written.strip_suffix('*') {
        // A name computed at run time: any constant of that namespace
        // (`M::*`), or of any (`*`).
        Some(namespace) => {
            let parent = last_separator(full).map_or("", |at| &full[..at]);
            let owner = namespace.strip_suffix("::").unwrap_or(namespace);
            owner.is_empty() || ends_in_segments(parent, owner)
        }
        None => ends_in_segments(full, written),
    }
}

/// The constant names some file sets or removes by name (see
/// [`constant_rewrites`]), kept by their last part: every constant read
/// asks, and a project may write hundreds.
#[derive(Debug, Default, Clone)]
pub struct RewrittenConstants {
    by_tail: HashMap<String, Vec<String>>,
    /// Names computed at run time in a namespace (`M::*`), by the last
    /// part of the namespace: a constant's namespace can only end in
    /// segments whose last part is its own.
    computed_by_owner_tail: HashMap<String, Vec<String>>,
    /// Names computed at run time in any namespace (`*`), and the few
    /// whose namespace is spelt so oddly that its last part may not be
    /// the one a match ends in (stray colons): asked of every constant.
    computed_anywhere: Vec<String>,
}

impl RewrittenConstants {
    pub fn insert(&mut self, written: String) {
        let list = match written.strip_suffix('*') {
            Some(namespace) => {
                let owner = namespace.strip_suffix("::").unwrap_or(namespace);
                let plain = owner.split("::").all(|segment| !segment.is_empty() && !segment.contains(':'));
                if plain {
                    self.computed_by_owner_tail.entry(constant_tail(owner).to_string()).or_default()
                } else {
                    &mut self.computed_anywhere
                }
            }
            None => self.by_tail.entry(constant_tail(&written).to_string()).or_default(),
        };
        if !list.contains(&written) {
            list.push(written);
        }
    }

    pub fn covers(&self, full: &str) -> bool {
        if self.by_tail.get(constant_tail(full)).is_some_and(|written| constant_rewrites(written, full))
            || constant_rewrites(&self.computed_anywhere, full)
        {
            return true;
        }
        let parent = last_separator(full).map_or("", |at| &full[..at]);
        self.computed_by_owner_tail.get(constant_tail(parent)).is_some_and(|written| constant_rewrites(written, full))
    }
}

impl Dep {
    /// Does folding the exports in change what this reads as? The other
    /// reads (a class's shape, its method tables) are the structure's,
    /// which folding leaves as it was (see [`ProjectIndex::with_exports`]).
    pub fn reads_exports(&self) -> bool {
        match self {
            Dep::Return(..)
            | Dep::Ivars(_)
            | Dep::Constant(_)
            | Dep::Exported
            | Dep::Params(..)
            | Dep::EntryIvars(..)
            | Dep::MixinOverrides(..)
            | Dep::Overrides(..) => true,
            Dep::Class(_)
            | Dep::Methods(_)
            | Dep::Method(..)
            | Dep::AnyMethods(_)
            | Dep::Facts
            | Dep::FactName(_)
            | Dep::Redefined(_)
            | Dep::ConstantRewritten(_)
            | Dep::OutsideIvar(..)
            | Dep::ObjectMade
            | Dep::ConstantNamed(_)
            | Dep::ObjectMixinsDefine(_)
            | Dep::OutsideMixed(_) => false,
        }
    }
}

impl ProjectIndex {
    /// The structure: every file's interface merged, names resolved;
    /// methods return `untyped` until [`ProjectIndex::with_exports`].
    pub fn structure(files: &[(&str, &FileInterface)], env: &Environment) -> ProjectIndex {
        let mut index =
            ProjectIndex { paths: files.iter().map(|(path, _)| Arc::from(*path)).collect(), ..ProjectIndex::default() };
        let mut class_mixins: Vec<(String, String)> = Vec::new();
        let mut runners: Vec<&str> = Vec::new();
        let mut handoffs: Vec<(String, String)> = Vec::new();
        for (id, (_, file)) in files.iter().enumerate() {
            let id = id as FileId;
            if file.ivars_unknowable {
                index.unknowable.insert(id);
            }
            index.outside_ivars.any |= file.outside_ivars.any;
            index.outside_ivars.modules |= file.outside_ivars.modules;
            index.outside_ivars.classes.extend(file.outside_ivars.classes.iter().cloned());
            index.outside_ivars.names.extend(file.outside_ivars.names.iter().cloned());
            for class in &file.classes {
                let part = index.externalise(class);
                index.classes.entry(class.name.clone()).or_default().parts.push((id, part));
            }
            index.top_object_extends.extend(file.top_object_extends.iter().cloned());
            index.object_defs.extend(file.object_defs.iter().cloned());
            index.output_redirected |= file.redirects_output;
            // Top-level `def`s are Object's: counted as a core class's.
            index.core_defs.extend(file.core_defs_on.iter().map(|(_, method)| method.clone()));
            index.core_defs.extend(file.top_level_defs.iter().cloned());
            for (class, method) in &file.core_defs_on {
                index.core_defs_on.entry(method.clone()).or_default().push(class.clone());
            }
            index.top_level_defs.extend(file.top_level_defs.iter().cloned());
            index.core_replaced.extend(file.core_replaced.iter().cloned());
            index.made_on.extend(file.made_on.iter().cloned());
            class_mixins.extend(file.class_mixins.iter().cloned());
            for written in &file.rewritten_constants {
                index.rewritten_constants.insert(written.clone());
            }
            index.mutated_constants.extend(file.mutated_constants.iter().cloned());
            index.mutated_readers.extend(file.mutated_readers.iter().cloned());
            runners.extend(file.block_runners.iter().map(String::as_str));
            handoffs.extend(file.block_handoffs.iter().cloned());
            for constant in &file.constants {
                let entry = index.constants.entry(constant.clone()).or_insert_with(|| (Vec::new(), Type::untyped()));
                if !entry.0.contains(&id) {
                    entry.0.push(id);
                }
            }
        }
        // `S.const_set(:KIND, v)` where another file assigns `S = Sub`.
        for (_, file) in files {
            for (owner, constant) in &file.written_on {
                let (constants, classes) = (index.constants.keys().map(|n| &**n), index.classes.keys().map(|n| &**n));
                if names_an_alias(owner, constants, classes) {
                    index.rewritten_constants.insert(constant.clone());
                }
            }
        }
        // `run(box) { @v = 1 }` where some file's `run` runs its block on
        // another object: `@v` may be any class's.
        let runners = run_elsewhere(runners, &handoffs);
        for (_, file) in files {
            let written = file.kept_block_writes.iter().filter(|(method, _)| runners.contains(method.as_str()));
            index.outside_ivars.names.extend(written.map(|(_, ivar)| ivar.clone()));
        }
        index.made_on.sort();
        index.made_on.dedup();
        index.core_made = index.made_on.iter().filter(|made| made.core).cloned().collect();
        index.made_table = MadeOnTable::of(&index.made_on);
        // Leaves every class's parts merged (`merge_parts`).
        index.resolve_parts(env);
        index.add_mixed_in_ivar_writes();
        let mixed = index.core_mixin_methods(env);
        index.core_defs.extend(mixed.iter().map(|(_, method)| method.clone()));
        for (class, method) in mixed {
            index.core_defs_on.entry(method).or_default().push(class);
        }
        index.library_mixed = index.library_mixin_methods(env);
        // Instance side only: a constant lookup walks the class's own
        // ancestors, not its singleton class's.
        index.outside_mixed =
            class_mixins.iter().map(|(class, _)| class.clone()).filter(|class| !is_singleton_key(class)).collect();
        index.outside_mixed.sort();
        index.outside_mixed.dedup();
        index.outside_mixins = class_mixins.iter().map(|(_, module)| module.clone()).collect();
        index.outside_mixins.sort();
        index.outside_mixins.dedup();
        let replaced = index.mixed_into_classes(&class_mixins);
        index.core_defs.extend(replaced.iter().map(|(_, method)| method.clone()));
        for (class, method) in &replaced {
            // As written: a core class, a project class (no core value's),
            // or a name that may stand for either (`List = Array`).
            let written = class.strip_prefix("::").unwrap_or(class);
            let on = match (env.has_class(written), index.classes.contains_key(written)) {
                (true, _) if env.is_module(written) => "Object",
                (true, _) => written,
                (false, true) => continue,
                (false, false) => "Object",
            };
            index.core_defs_on.entry(method.clone()).or_default().push(Name::from(on));
        }
        for classes in index.core_defs_on.values_mut() {
            classes.sort();
            classes.dedup();
        }
        index.core_replaced.extend(replaced);
        index.families = index.compute_families();
        for (name, rep) in &index.families {
            index.members.entry(rep.clone()).or_default().push(name.clone());
        }
        for members in index.members.values_mut() {
            members.sort();
        }
        for class in index.classes.values_mut() {
            class.split();
        }
        index.children = index.subclasses(env);
        index.descendants =
            index.children.keys().map(|class| (class.clone(), descendants_of(&index.children, class))).collect();
        index.mixins_below = index
            .classes
            .keys()
            .map(|class| (class.clone(), index.compute_mixins_below(class)))
            .filter(|(_, below)| !below.is_empty())
            .collect();
        let owned = |definers: HashMap<&str, Vec<&Name>>| -> HashMap<String, Vec<Name>> {
            definers
                .into_iter()
                .map(|(method, names)| (method.to_string(), names.into_iter().cloned().collect()))
                .collect()
        };
        index.instance_definers = owned(index.method_definers(Side::Instance));
        index.singleton_definers = owned(index.method_definers(Side::Singleton));
        index.seal();
        index
    }

    /// Sets which methods' parameters are typed from their call sites.
    pub fn with_policy(mut self, policy: ParameterPolicy) -> ProjectIndex {
        self.policy = policy;
        self
    }

    /// Every call that may reach a method, when all of them are in view.
    pub fn parameter_calls(&self, class: &str, side: Side, method: &str) -> Option<&[CallShape]> {
        self.params.get(&(Name::from(class), side, method.to_string())).map(Vec::as_slice)
    }

    /// The instance variables surely set when a method starts, over every
    /// call of it (see [`super::params::resolve_entries`]), sorted.
    pub fn entry_ivars(&self, class: &str, side: Side, method: &str) -> &[String] {
        self.entry_ivars.get(&(Name::from(class), side, method.to_string())).map(Vec::as_slice).unwrap_or_default()
    }

    /// Every project class below this one (subclasses, includers), sorted.
    pub fn descendants(&self, class: &str) -> &[Name] {
        self.descendants.get(class).map(Vec::as_slice).unwrap_or_default()
    }

    /// Does a module mixed in from outside a class body (`obj.extend(M)`,
    /// `C.include(M)`, `C.prepend(M)`), or one it includes, define the
    /// instance method `method`? Then it may stand between a class and
    /// its superclass, and answer a `super`. (What the caller reads of
    /// this: `Dep::MixinOverrides`, whose modules are among these.)
    pub fn object_mixins_define(&self, method: &str) -> bool {
        let mut pending: Vec<&Name> = self.object_extended.iter().collect();
        let mut seen: HashSet<&Name> = HashSet::default();
        while let Some(module) = pending.pop() {
            if !seen.insert(module) || seen.len() > 256 {
                continue;
            }
            if self.defines_instance_method(module, method) {
                return true;
            }
            if let Some(user) = self.class(module) {
                pending.extend(user.includes.iter().chain(&user.prepends));
            }
        }
        false
    }

    /// Does some part of a class define this instance method?
    fn defines_instance_method(&self, class: &str, method: &str) -> bool {
        self.classes
            .get(class)
            .is_some_and(|c| c.parts.iter().any(|(_, part)| part.instance_methods.contains_key(method)))
    }

    /// By method name on `side`, the project's classes and modules that
    /// define it, sorted.
    fn method_definers(&self, side: Side) -> HashMap<&str, Vec<&Name>> {
        let mut definers: HashMap<&str, Vec<&Name>> = HashMap::default();
        for (name, class) in &self.classes {
            let mut defined: Vec<&str> =
                class.parts.iter().flat_map(|(_, part)| part.methods(side).keys().map(String::as_str)).collect();
            defined.sort_unstable();
            defined.dedup();
            for method in defined {
                definers.entry(method).or_default().push(name);
            }
        }
        for names in definers.values_mut() {
            names.sort();
        }
        definers
    }

    /// Modules that define this instance method and may answer it ahead
    /// of `class`'s own on some of its instances: mixed into single
    /// objects (`obj.extend(M)`), or into a subclass (with what they
    /// include in turn).
    fn mixin_overriders(&self, class: &str, method: &str) -> Vec<Name> {
        let Some(definers) = self.instance_definers.get(method) else { return Vec::new() };
        sorted_meet(self.mixins_below(class), definers).filter(|module| &***module != class).cloned().collect()
    }

    /// Every module mixed into single objects or into a subclass of
    /// `class`, with what they include in turn, sorted: where
    /// [`Self::mixin_overriders`] looks.
    fn mixins_below(&self, class: &str) -> &[Name] {
        match self.mixins_below.get(class) {
            Some(below) => below,
            // A class the project does not define has only the modules
            // mixed into single objects below it.
            None if !self.classes.contains_key(class) => &self.object_extended,
            None => &[],
        }
    }

    fn compute_mixins_below(&self, class: &str) -> Vec<Name> {
        // Mixed into single objects, or into a subclass (then ahead of
        // the class's own method for the subclass's instances).
        // A module the class already has is not included again below it
        // (Ruby's `include` skips it there), so it stays behind the class.
        let had = self.modules_of_class(class);
        let mut start: Vec<Name> = self.object_extended.clone();
        for descendant in self.descendants(class) {
            if let Some(user) = self.class(descendant) {
                start.extend(user.includes.iter().filter(|m| !had.contains(m)).cloned());
                start.extend(user.prepends.iter().cloned());
            }
        }
        let mut seen: Vec<Name> = Vec::new();
        while let Some(module) = start.pop() {
            if seen.contains(&module) || seen.len() > 256 {
                continue;
            }
            if let Some(user) = self.class(&module) {
                start.extend(user.includes.iter().filter(|m| !had.contains(m)).cloned());
                start.extend(user.prepends.iter().cloned());
            }
            seen.push(module);
        }
        seen.sort();
        seen
    }

    /// The project modules a class and its superclasses include or
    /// prepend, with what those include (none for a module: what its
    /// includers have is theirs).
    fn modules_of_class(&self, class: &str) -> Vec<Name> {
        let mut had: Vec<Name> = Vec::new();
        let mut pending: Vec<Name> = Vec::new();
        let mut current = self.class(class).filter(|user| !user.is_module);
        for _ in 0..64 {
            let Some(user) = current else { break };
            pending.extend(user.includes.iter().chain(&user.prepends).cloned());
            current = match &user.superclass {
                Superclass::Known(parent) => self.class(parent),
                _ => None,
            };
        }
        while let Some(module) = pending.pop() {
            if had.contains(&module) || had.len() > 256 {
                continue;
            }
            if let Some(user) = self.class(&module) {
                pending.extend(user.includes.iter().chain(&user.prepends).cloned());
            }
            had.push(module);
        }
        had
    }

    /// Each part, by file, of the modules that may answer `method` ahead
    /// of `class`'s own ([`Self::mixin_overriders`]), with its entry for it.
    fn mixin_override_parts(&self, class: &str, method: &str) -> Vec<(Name, FileId, &MethodEntry)> {
        let mut out = Vec::new();
        for module in self.mixin_overriders(class, method) {
            for (file, part) in &self.classes[&module].parts {
                out.extend(part.instance_methods.get(method).map(|entry| (module.clone(), *file, entry)));
            }
        }
        out
    }

    /// What project classes below `class`, in other files than `except`,
    /// return from their own definitions of `method`: a call on a `class`
    /// instance may run any of them. `None` when none overrides it.
    pub fn override_returns(&self, class: &str, side: Side, method: &str, except: FileId) -> Option<Vec<Type>> {
        let mut out = Vec::new();
        if side == Side::Instance {
            for (_, _, entry) in self.mixin_override_parts(class, method) {
                out.push(match entry {
                    MethodEntry::External(id) => self.methods[*id as usize].returns.clone(),
                    _ => Type::untyped(),
                });
            }
        }
        // (What the caller reads of this: `Dep::Overrides`.)
        if (side == Side::Instance && self.is_extended(class))
            || (side == Side::Singleton && self.extended_below(class, method))
            || self.object_defs.contains(method)
            || self.made_below(class, side, method)
            || self.library_mixed_below(class, side, method)
        {
            out.push(Type::untyped());
        }
        for (_, file, entry) in self.overriding_parts(class, side, method) {
            if file == except {
                continue;
            }
            out.push(match entry {
                MethodEntry::External(id) => self.methods[*id as usize].returns.clone(),
                _ => Type::untyped(),
            });
        }
        (!out.is_empty()).then_some(out)
    }

    /// The classes and modules defining `method` on `side`, sorted.
    fn definers(&self, side: Side, method: &str) -> &[Name] {
        let definers = match side {
            Side::Instance => &self.instance_definers,
            Side::Singleton => &self.singleton_definers,
        };
        definers.get(method).map_or(&[], Vec::as_slice)
    }

    /// Each part of a descendant of `class` that defines `method` on
    /// `side`: the descendant, its file and the entry.
    fn overriding_parts<'s>(
        &'s self,
        class: &str,
        side: Side,
        method: &'s str,
    ) -> impl Iterator<Item = (&'s Name, FileId, &'s MethodEntry)> + 's {
        // Only the few that define the method are looked into.
        sorted_meet(self.descendants(class), self.definers(side, method)).flat_map(move |descendant| {
            self.classes.get(descendant).into_iter().flat_map(move |project_class| {
                project_class
                    .parts
                    .iter()
                    .filter_map(move |(file, part)| Some((descendant, *file, part.methods(side).get(method)?)))
            })
        })
    }

    /// The same structure with one round of exports folded in.
    pub fn with_exports(mut self, exports: &[Option<&FileExports>]) -> ProjectIndex {
        // Each defining file's return and yields (`None`: not known),
        // borrowed from the exports: this runs whenever one file's exports
        // change, over every file's.
        let mut returns: HashMap<(&str, Side, &str), Vec<Defined>> = HashMap::default();
        let mut constants: HashMap<Name, Vec<Type>> = HashMap::default();
        for (id, file) in exports.iter().enumerate() {
            let Some(file) = file else { continue };
            for (key, ty) in &file.methods {
                let yielded = file.yields.iter().find(|(k, _)| k == key).map(|(_, types)| types.as_slice());
                returns.entry((&key.0, key.1, &key.2)).or_default().push((ty, yielded));
            }
            for (name, ty) in &file.constants {
                constants.entry(name.clone()).or_default().push(ty.clone());
            }
            for (key, ty) in &file.ivars {
                self.ivars.entry(key.clone()).or_default().push((id as FileId, ty.clone()));
            }
        }
        // The calls and the returns fold apart, each class's returns on its
        // own: a widely used class's edit refolds every file's exports.
        let names: Vec<Name> = sorted_keys(&self.classes);
        let ((params, entries), folded) = rayon::join(
            || self.fold_calls(exports),
            || names.par_iter().flat_map_iter(|class| self.fold_returns(class, &returns)).collect::<Vec<_>>(),
        );
        self.params = params;
        super::params::resolve_forwarded(&mut self.params);
        super::params::resolve_forwarded_blocks(&mut self.params);
        self.entry_ivars = super::params::resolve_entries(&entries);
        for Folded { id, returns, own, yields, own_yields } in folded {
            self.methods[id as usize].returns = returns;
            self.methods[id as usize].own = own;
            self.methods[id as usize].own_yields = own_yields;
            self.methods[id as usize].yields = yields;
        }
        for (name, (_, ty)) in self.constants.iter_mut() {
            if let Some(found) = constants.get(name) {
                *ty = union(found.iter().cloned());
            }
        }
        for key in self.ivars.keys() {
            self.ivars_by_class.entry(key.0.clone()).or_default().push(key.clone());
        }
        for keys in self.ivars_by_class.values_mut() {
            keys.sort();
        }
        // The parts' prints stand as the structure sealed them: folding
        // exports in changes no part.
        self.exported = true;
        self
    }

    /// A class's methods as other files see them (`External` entries): each
    /// one's return, the union over every file defining it and over the
    /// project's overrides in subclasses (the receiver may be a subclass
    /// instance), and what it yields when every definition agrees.
    fn fold_returns(&self, class: &Name, returns: &HashMap<(&str, Side, &str), Vec<Defined>>) -> Vec<Folded> {
        let mut out = Vec::new();
        let descendants = self.descendants(class).to_vec();
        let parts: Vec<(String, Side, u32)> = self.classes[class]
            .parts
            .iter()
            .flat_map(|(_, part)| {
                [Side::Instance, Side::Singleton].into_iter().flat_map(move |side| {
                    part.methods(side).iter().filter_map(move |(method, entry)| match entry {
                        MethodEntry::External(id) => Some((method.clone(), side, *id)),
                        _ => None,
                    })
                })
            })
            .collect();
        let untyped = Type::untyped();
        let below = self.mixins_below(class);
        // What `made_below` asks, sifted once per class, not per method:
        // the computed-name entries that may make a method of a descendant.
        let made: Vec<&MadeMethods> = self.made_table.naming(&descendants).collect();
        for (method, side, id) in parts {
            let (own, own_yields) = match returns.get(&(class.as_ref(), side, method.as_str())) {
                Some(found) => (
                    union(found.iter().map(|(ty, _)| (*ty).clone())),
                    agreed_yields(&found.iter().map(|(_, yields)| *yields).collect::<Vec<_>>()),
                ),
                None => (Type::untyped(), None),
            };
            let mut all: Vec<&Type> = Vec::new();
            let mut yielded: Vec<Option<&[Type]>> = Vec::new();
            let mut add = |owner: &str| match returns.get(&(owner, side, method.as_str())) {
                Some(found) => {
                    all.extend(found.iter().map(|(ty, _)| *ty));
                    yielded.extend(found.iter().map(|(_, yields)| *yields));
                }
                None => {
                    all.push(&untyped);
                    yielded.push(None);
                }
            };
            add(class);
            let definers = self.definers(side, &method);
            if side == Side::Instance {
                // `mixin_overriders`.
                for module in in_both(below, definers).filter(|module| *module != class) {
                    add(module);
                }
            }
            for descendant in in_both(&descendants, definers) {
                add(descendant);
            }
            // Some object may answer it its own way (`def obj.name`, under
            // a computed name in a class below, or, for a class method, a
            // module a class below extends).
            if self.object_defs.contains(&method)
                || made.iter().any(|made| made.covers(side, &method))
                || (side == Side::Singleton && self.extended_below(class, &method))
            {
                all.push(&untyped);
                yielded.push(None);
            }
            let (returns, yields) = (union(all.into_iter().cloned()), agreed_yields(&yielded));
            out.push(Folded { id, returns, own, yields, own_yields });
        }
        out
    }

    /// Each project method's calls, from every class a call's receiver may
    /// share the method with (the class, its ancestors and descendants in
    /// the project), unless the name may be called unseen.
    fn fold_calls(&self, exports: &[Option<&FileExports>]) -> (MethodCalls, MethodEntries) {
        let mut out = HashMap::default();
        let mut entries_out = HashMap::default();
        if self.policy == ParameterPolicy::Off {
            return (out, entries_out);
        }
        // Every file's log, borrowed: a shape is copied only when some
        // method keeps it. Looked up once per method and related class
        // (hundreds for a base class with many subclasses).
        let (opaque, nothing_known) = (CallShape::opaque(), EntrySite::default());
        let mut calls: HashMap<(&str, Side, &str), Vec<&CallShape>> = HashMap::default();
        let mut entries: HashMap<(&str, Side, &str), Vec<&EntrySite>> = HashMap::default();
        let mut escaped: HashSet<&str> = HashSet::default();
        let mut prefixes: Vec<&str> = Vec::new();
        let mut suffixes: Vec<&str> = Vec::new();
        let mut infixes: Vec<&str> = Vec::new();
        for file in exports.iter().flatten() {
            for ((class, side, method), shapes) in &file.calls.calls {
                for shape in shapes {
                    add_shape(&mut calls, (&**class, *side, method.as_str()), shape, || &opaque);
                }
            }
            for ((class, side, method), sites) in &file.calls.entries {
                for site in sites {
                    add_site(&mut entries, (&**class, *side, method.as_str()), site, || &nothing_known);
                }
            }
            escaped.extend(file.calls.escaped.iter().map(String::as_str));
            prefixes.extend(file.calls.escaped_prefixes.iter().map(String::as_str));
            suffixes.extend(file.calls.escaped_suffixes.iter().map(String::as_str));
            infixes.extend(file.calls.escaped_infixes.iter().map(String::as_str));
        }
        for list in [&mut prefixes, &mut suffixes, &mut infixes] {
            list.sort_unstable();
            list.dedup();
        }
        // The names some call or entry is logged under: the others need
        // no look at every relative.
        let logged: HashSet<(Side, &str)> =
            calls.keys().chain(entries.keys()).map(|(_, side, method)| (*side, *method)).collect();
        // A call on a class the project does not define may reach a project
        // method through an ancestry only the signatures know.
        // So may a call on a class whose place in the hierarchy is not
        // known (`class D < (cond ? A : C)`, `class D < BASE` with `BASE =
        // C`, a class also assigned as a constant: `D = Class.new(C)`).
        let outside: HashSet<&str> = calls
            .keys()
            .filter(|(class, _, _)| self.class(class).is_none() || self.ancestry_unknown(class))
            .map(|(_, _, m)| *m)
            .collect();
        // Modules whose instance methods are also another object's
        // singleton methods (`extend`): left alone.
        let extended: HashSet<&Name> =
            self.classes.values().filter_map(|c| c.merged.as_ref()).flat_map(|c| &c.extends).collect();
        // Modules mixed in where no class body shows it: their callers
        // are not among any class's relatives.
        let unseen = self.modules_mixed_unseen();
        for class in sorted_keys(&self.classes) {
            let Some(merged) = self.class(&class) else { continue };
            let mut related = self.project_ancestors(&class);
            related.extend(self.descendants(&class).iter().cloned());
            related.push(class.clone());
            // Every object is an Object (a class's singleton methods are
            // Object's too): a method the project gives Object, Kernel or
            // BasicObject runs with any `self` (`class Object; def go =
            // helper(5)`), so its calls count for every class.
            for root in ["Object", "Kernel", "BasicObject"] {
                if !related.iter().any(|c| &**c == root) {
                    related.push(Name::from(root));
                }
            }
            if related.iter().any(|c| self.class(c).is_some_and(|c| c.has_method_missing)) {
                continue;
            }
            // Mixed into every object (`class Object; include M`): called
            // from any class, most of which are no relative of M's.
            let everyones =
                || self.descendants(&class).iter().any(|d| matches!(&**d, "Object" | "Kernel" | "BasicObject"));
            let shared = merged.is_module
                && (merged.extends_self || extended.contains(&class) || unseen.contains(&class) || everyones());
            for side in [Side::Instance, Side::Singleton] {
                if shared && side == Side::Instance {
                    continue;
                }
                let mut methods: Vec<&String> = merged.methods(side).keys().collect();
                methods.sort();
                for method in methods {
                    if !logged.contains(&(side, method.as_str()))
                        || escaped.contains(method.as_str())
                        || outside.contains(method.as_str())
                        || prefixes.iter().any(|p| method.starts_with(p))
                        || suffixes.iter().any(|p| method.ends_with(p))
                        || infixes.iter().any(|p| method.contains(p))
                    {
                        continue;
                    }
                    let mut shapes: Vec<CallShape> = Vec::new();
                    let mut sites: Vec<EntrySite> = Vec::new();
                    for receiver in &related {
                        let key = (&**receiver, side, method.as_str());
                        for shape in calls.get(&key).into_iter().flatten() {
                            if !shapes.contains(shape) {
                                shapes.push((*shape).clone());
                            }
                        }
                        for site in entries.get(&key).into_iter().flatten() {
                            if !sites.contains(site) {
                                sites.push((*site).clone());
                            }
                        }
                    }
                    if !shapes.is_empty() {
                        out.insert((class.clone(), side, method.clone()), shapes);
                        entries_out.insert((class.clone(), side, method.clone()), sites);
                    }
                }
            }
        }
        (out, entries_out)
    }

    /// Is where a project class stands unknown: a superclass nobody can
    /// resolve, one named by a constant that is no class, or the class's
    /// own name also assigned as a constant (another name for a class)?
    fn ancestry_unknown(&self, class: &str) -> bool {
        let Some(user) = self.class(class) else { return true };
        let aliased = |name: &str| self.constants.contains_key(name) && !self.classes.contains_key(name);
        self.constants.contains_key(class)
            || match &user.superclass {
                Superclass::Unknown => true,
                Superclass::Known(parent) => aliased(parent),
                Superclass::Implicit => false,
            }
    }

    /// The project classes a class inherits from or mixes in, transitively.
    fn project_ancestors(&self, class: &Name) -> Vec<Name> {
        let mut out: Vec<Name> = Vec::new();
        let mut queue = vec![class.clone()];
        while let Some(next) = queue.pop() {
            let Some(user) = self.class(&next) else { continue };
            let mut parents: Vec<Name> = user.includes.iter().chain(&user.prepends).cloned().collect();
            if let Superclass::Known(parent) = &user.superclass {
                parents.push(parent.clone());
            }
            for parent in parents {
                if &parent != class && !out.contains(&parent) && out.len() < 4096 {
                    out.push(parent.clone());
                    queue.push(parent);
                }
            }
        }
        out
    }

    /// A file's class as other files see it: entries point into the
    /// project's method table.
    fn externalise(&mut self, class: &UserClass) -> UserClass {
        let mut part = class.clone();
        part.redefined = HashMap::default();
        for side in [Side::Instance, Side::Singleton] {
            let (own, table) = match side {
                Side::Instance => (&class.instance_methods, &mut part.instance_methods),
                Side::Singleton => (&class.singleton_methods, &mut part.singleton_methods),
            };
            // Numbered in name order, whatever order the table keeps.
            let mut names: Vec<&String> = own.keys().collect();
            names.sort_unstable();
            for method in names {
                let entry = table.get_mut(method).expect("a copy holds every name");
                if let MethodEntry::Def(_) | MethodEntry::Reader(_) | MethodEntry::External(_) = entry {
                    self.methods.push(ExternalMethod {
                        returns: Type::untyped(),
                        own: Type::untyped(),
                        own_yields: None,
                        yields: None,
                        owner: class.name.clone(),
                        side,
                        name: method.clone(),
                    });
                    *entry = MethodEntry::External((self.methods.len() - 1) as u32);
                }
            }
        }
        part
    }

    /// Does the project define `name` as a class (not a module)?
    fn is_project_class(&self, name: &str) -> bool {
        self.classes.get(name).is_some_and(|c| !c.parts.is_empty() && c.parts.iter().all(|(_, p)| !p.is_module))
    }

    /// Does a file other than `file` open the class or module `name`?
    /// (What the caller reads of this: `Dep::Class`.)
    pub fn opened_elsewhere(&self, name: &str, file: FileId) -> bool {
        self.classes.get(name).is_some_and(|class| class.parts.iter().any(|(id, _)| *id != file))
    }

    /// The classes a part's superclass line cannot name (see
    /// [`PendingKind::OpenedLater`]): its file opens them further down,
    /// and neither the signatures nor another file define them.
    fn opened_later(&self, env: &Environment, written: &[(PendingKind, String)], file: FileId) -> Vec<Name> {
        written
            .iter()
            .filter(|(kind, name)| {
                *kind == PendingKind::OpenedLater && !env.has_class(name) && !self.opened_elsewhere(name, file)
            })
            .map(|(_, name)| Name::from(name.as_str()))
            .collect()
    }

    /// Resolves each part's written superclass and mixins against the
    /// whole project, in its own lexical scope, and merges each class's
    /// parts as they then stand.
    fn resolve_parts(&mut self, env: &Environment) {
        let names = sorted_keys(&self.classes);
        // Two sweeps: a superclass found in the first helps resolve
        // constants through ancestors in the second.
        // Modules extended into objects anywhere, not only into the
        // includers of a module.
        let mut objects_anywhere: Vec<Name> = Vec::new();
        for _ in 0..2 {
            self.object_extended.clear();
            objects_anywhere.clear();
            for class in &names {
                let count = self.classes[class].parts.len();
                for at in 0..count {
                    let (written, lexical) = {
                        let part = &self.classes[class].parts[at].1;
                        (part.written.clone(), part.lexical.clone())
                    };
                    let mut superclass = Superclass::Implicit;
                    let (mut includes, mut extends, mut prepends, mut unknown) =
                        (Vec::new(), Vec::new(), Vec::new(), false);
                    let mut object_extended = Vec::new();
                    let mut includer_extends = Vec::new();
                    let file = self.classes[class].parts[at].0;
                    let unseen = self.opened_later(env, &written, file);
                    for (kind, path) in &written {
                        // `obj.extend(M)` is written inside the class's body.
                        let resolved = match kind {
                            PendingKind::OpenedLater => continue,
                            PendingKind::ObjectExtend | PendingKind::IncluderExtend => {
                                let inside: Vec<Name> = lexical.iter().cloned().chain([class.clone()]).collect();
                                self.resolve_constant(env, &inside, path)
                            }
                            PendingKind::Superclass => self.resolve_constant_past(env, &lexical, path, &unseen),
                            _ => self.resolve_constant(env, &lexical, path),
                        };
                        let resolved = resolved.filter(|n| n != class);
                        match (kind, resolved) {
                            (PendingKind::Superclass, Some(name)) => superclass = Superclass::Known(name),
                            (PendingKind::Superclass, None) => superclass = Superclass::Unknown,
                            // Mixed in again: where it was (see `add_mixin`).
                            (PendingKind::Include, Some(name)) => add_mixin(&mut includes, name),
                            (PendingKind::Extend, Some(name)) => add_mixin(&mut extends, name),
                            (PendingKind::Prepend, Some(name)) => add_mixin(&mut prepends, name),
                            // Only a module can be mixed in, or have its
                            // methods bound to objects of any class.
                            (PendingKind::ObjectExtend | PendingKind::IncluderExtend, Some(name))
                                if self.is_project_class(&name) => {}
                            (PendingKind::ObjectExtend, Some(name)) => object_extended.push((name, true)),
                            (PendingKind::IncluderExtend, Some(name)) => {
                                includer_extends.push(name.clone());
                                object_extended.push((name, false));
                            }
                            // Not a project module: nothing to say of its methods.
                            (PendingKind::ObjectExtend | PendingKind::IncluderExtend, None) => {}
                            // Read above, never resolved.
                            (PendingKind::OpenedLater, _) => {}
                            (_, None) => unknown = true,
                        }
                    }
                    for (name, anywhere) in object_extended {
                        if anywhere && !objects_anywhere.contains(&name) {
                            objects_anywhere.push(name.clone());
                        }
                        if !self.object_extended.contains(&name) {
                            self.object_extended.push(name);
                        }
                    }
                    let part = &mut self.classes.get_mut(class).expect("listed").parts[at].1;
                    // A superclass the file could not write as a constant
                    // (`Struct.new(...)` is written as `::Struct`) stays.
                    if !matches!(part.superclass, Superclass::Unknown)
                        || written.iter().any(|(k, _)| *k == PendingKind::Superclass)
                    {
                        part.superclass = superclass;
                    }
                    part.includes = includes;
                    part.extends = extends;
                    part.prepends = prepends;
                    part.includer_extends = includer_extends;
                    part.unknown_mixins = unknown || part.computed_mixins;
                }
            }
            for written in &self.top_object_extends {
                if let Some(name) = self.resolve_constant(env, &[], written) {
                    if !objects_anywhere.contains(&name) {
                        objects_anywhere.push(name.clone());
                    }
                    if !self.object_extended.contains(&name) {
                        self.object_extended.push(name);
                    }
                }
            }
            self.merge_parts();
        }
        self.object_extended.sort();
        self.object_made = self.made_for_extended_objects(&objects_anywhere);
        self.extender_made = self.made_for_any_extender();
        self.extended = self.object_extended.iter().cloned().collect();
        for class in self.classes.values() {
            for (_, part) in &class.parts {
                self.extended.extend(part.extends.iter().cloned());
            }
        }
    }

    /// The instance methods of the library modules each project class
    /// mixes in, by side (see `library_mixed`).
    fn library_mixin_methods(&self, env: &Environment) -> HashMap<(Name, Side), HashSet<String>> {
        let mut out: HashMap<(Name, Side), HashSet<String>> = HashMap::default();
        for (name, class) in &self.classes {
            let Some(merged) = class.merged.as_ref() else { continue };
            let sides = [
                (Side::Instance, merged.includes.iter().chain(&merged.prepends).cloned().collect::<Vec<Name>>()),
                (Side::Singleton, merged.extends.clone()),
            ];
            for (side, mixins) in sides {
                let mut pending = mixins;
                let mut seen: HashSet<Name> = HashSet::default();
                let mut methods: HashSet<String> = HashSet::default();
                while let Some(module) = pending.pop() {
                    if !seen.insert(module.clone()) || seen.len() > 256 {
                        continue;
                    }
                    match self.classes.get(&module).and_then(|c| c.merged.as_ref()) {
                        // A project module: what it mixes in counts too.
                        Some(project) => pending.extend(project.includes.iter().chain(&project.prepends).cloned()),
                        None => {
                            let Some(declared) = env.class(&module) else { continue };
                            methods.extend(declared.instance_methods.keys().cloned());
                            pending.extend(declared.includes.iter().chain(&declared.prepends).map(|t| t.name.clone()));
                        }
                    }
                }
                if !methods.is_empty() {
                    out.insert((name.clone(), side), methods);
                }
            }
        }
        out
    }

    /// Does a class below the class `class` extend a project module that
    /// defines the instance method `method` (itself or through what it
    /// includes)? Then that class's `method` is the module's, ahead of
    /// `class`'s own class method (`class Cop < Base; extend AutoCorrector`).
    pub fn extended_below(&self, class: &str, method: &str) -> bool {
        // A module's own singleton methods reach no class that includes it.
        if self.class(class).is_some_and(|user| user.is_module) {
            return false;
        }
        let mut seen: HashSet<&Name> = HashSet::default();
        let mut pending: Vec<&Name> = self
            .descendants(class)
            .iter()
            .filter(|below| &***below != class)
            .filter_map(|below| self.class(below))
            .flat_map(|user| user.extends.iter())
            .collect();
        while let Some(module) = pending.pop() {
            if !seen.insert(module) {
                continue;
            }
            let Some(project_module) = self.classes.get(module) else { continue };
            if project_module.parts.iter().any(|(_, part)| part.instance_methods.contains_key(method)) {
                return true;
            }
            if let Some(user) = &project_module.merged {
                pending.extend(user.includes.iter().chain(&user.prepends));
            }
        }
        false
    }

    /// Does a class below `class` have a library module's `method` mixed
    /// in (see `library_mixed`), ahead of `class`'s own?
    pub fn library_mixed_below(&self, class: &str, side: Side, method: &str) -> bool {
        self.descendants(class)
            .iter()
            .any(|below| self.library_mixed.get(&(below.clone(), side)).is_some_and(|names| names.contains(method)))
    }

    /// The instance methods of project modules mixed into single objects
    /// (`s.extend(M)`, `String.prepend(M)`) or into a class the signatures
    /// declare (`class String; prepend M; end`), and of the modules those
    /// include: a core value may answer them the module's way.
    fn core_mixin_methods(&self, env: &Environment) -> Vec<(Name, String)> {
        // Each module with the core class it reaches (`Object`: any).
        let any = Name::from("Object");
        let mut pending: Vec<(Name, Name)> =
            self.object_extended.iter().map(|module| (module.clone(), any.clone())).collect();
        for (name, class) in &self.classes {
            if env.has_class(name) {
                for (_, part) in &class.parts {
                    // (A core module may be mixed into any class.)
                    let on = if env.is_module(name) { any.clone() } else { name.clone() };
                    pending.extend(part.includes.iter().chain(&part.prepends).map(|m| (m.clone(), on.clone())));
                }
            }
        }
        let mut seen: HashSet<(Name, Name)> = HashSet::default();
        let mut out = Vec::new();
        while let Some((module, on)) = pending.pop() {
            if !seen.insert((module.clone(), on.clone())) || seen.len() > 4096 {
                continue;
            }
            let Some(merged) = self.classes.get(&module).and_then(|c| c.merged.as_ref()) else { continue };
            out.extend(merged.instance_methods.keys().map(|method| (on.clone(), method.clone())));
            pending.extend(merged.includes.iter().chain(&merged.prepends).map(|m| (m.clone(), on.clone())));
        }
        out
    }

    /// (class, method) for every method a module mixed in through a
    /// receiver gives its class (`String.prepend(Shout)`: `String`'s
    /// `upcase`), with what the module includes: the signature's method
    /// may not be the one that runs. (Read as `core_replaced` is.)
    fn mixed_into_classes(&self, mixins: &[(String, String)]) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for (class, module) in mixins {
            let mut pending: Vec<Name> = vec![Name::from(module.as_str())];
            let mut seen: HashSet<Name> = HashSet::default();
            while let Some(module) = pending.pop() {
                if !seen.insert(module.clone()) || seen.len() > 256 {
                    continue;
                }
                let Some(merged) = self.classes.get(&module).and_then(|c| c.merged.as_ref()) else { continue };
                out.extend(merged.instance_methods.keys().map(|method| (class.clone(), method.clone())));
                pending.extend(merged.includes.iter().chain(&merged.prepends).cloned());
            }
        }
        out
    }

    /// The project modules whose instance methods run on objects whose
    /// ancestry no class body shows: mixed in from outside (`obj.extend(M)`,
    /// `C.include(M)` outside `C`, `class << o; include M`), and what those
    /// include in turn.
    fn modules_mixed_unseen(&self) -> HashSet<Name> {
        let mut pending: Vec<Name> = self.object_extended.clone();
        if !self.outside_mixins.is_empty() {
            let written = |class: &Name| self.outside_mixins.iter().any(|w| may_name_class(w, class));
            pending.extend(self.classes.keys().filter(|class| written(class)).cloned());
        }
        let mut out: HashSet<Name> = HashSet::default();
        while let Some(module) = pending.pop() {
            if out.len() > 4096 || !out.insert(module.clone()) {
                continue;
            }
            if let Some(user) = self.class(&module) {
                pending.extend(user.includes.iter().chain(&user.prepends).cloned());
            }
        }
        out
    }

    /// Is `module` extended into some class or object? Then a call on
    /// `self` in its methods may reach that object's own singleton method
    /// (Thor's `ClassMethods#start` calls `dispatch`, which `Thor`
    /// defines on itself), which nobody here can list.
    fn is_extended(&self, module: &str) -> bool {
        self.extended.contains(module)
    }

    /// Does some file set or remove the constant `full` by name?
    /// (What the caller reads of this: `Dep::ConstantRewritten`.)
    pub fn constant_rewritten(&self, full: &str) -> bool {
        self.rewritten_constants.covers(full)
    }

    /// Does some file mutate in place what a reader of this name gives
    /// (`pool.ids << x`)? (What the caller reads of this: `Dep::Redefined`.)
    pub fn reader_mutated(&self, name: &str) -> bool {
        self.mutated_readers.contains(name)
    }

    /// Does some file mutate the value of a constant named as `full` ends
    /// (its last part: `REGISTRY[k] = v` in any namespace)?
    /// (What the caller reads of this: `Dep::ConstantRewritten`.)
    pub fn constant_mutated(&self, full: &str) -> bool {
        !self.mutated_constants.is_empty() && self.mutated_constants.contains(constant_tail(full))
    }

    /// Does some file give `method` a body of its own where a core value
    /// may reach it: on an object (`def obj.name`, a `def` in a block or
    /// in a refinement) or in a class the signatures declare? Then what
    /// the core's own method computes is not certain.
    /// (What the caller reads of this: `Dep::Redefined`.)
    /// Does a module mixed into single objects make `method` for whatever
    /// extends it, so that some class may answer it with a body nobody
    /// can see? (What the caller reads of this: `Dep::ObjectMade`.)
    pub fn objects_make(&self, side: Side, method: &str) -> bool {
        self.object_made.iter().any(|made| made.covers(side, method))
    }

    /// May some module make `method` for whatever extends it (in a class
    /// or an object)? Only then is a class's extended modules' walk worth
    /// making. (What the caller reads of this: `Dep::ObjectMade`.)
    pub fn extenders_may_make(&self, side: Side, method: &str) -> bool {
        self.extender_made.iter().any(|made| made.covers(side, method))
    }

    fn made_for_any_extender(&self) -> Vec<MadeMethods> {
        let mut made: Vec<MadeMethods> = self
            .classes
            .values()
            .flat_map(|class| class.merged.iter().flat_map(|c| c.made_for_extenders.iter().cloned()))
            .collect();
        made.sort_by(|a, b| (a.side, &a.prefix, &a.suffix).cmp(&(b.side, &b.prefix, &b.suffix)));
        made.dedup();
        made
    }

    fn made_for_extended_objects(&self, extended: &[Name]) -> Vec<MadeMethods> {
        let mut made: Vec<MadeMethods> = Vec::new();
        let mut pending: Vec<&Name> = extended.iter().collect();
        let mut seen: HashSet<&Name> = HashSet::default();
        while let Some(module) = pending.pop() {
            if !seen.insert(module) {
                continue;
            }
            let Some(user) = self.class(module) else { continue };
            for each in &user.made_for_extenders {
                if !made.contains(each) {
                    made.push(each.clone());
                }
            }
            pending.extend(user.includes.iter());
        }
        made.sort_by(|a, b| (a.side, &a.prefix, &a.suffix).cmp(&(b.side, &b.prefix, &b.suffix)));
        made
    }

    /// May Kernel's printing function `method` write to the program's own
    /// object (some file assigns `$stdout`)? (What the caller reads of
    /// this: `Dep::Redefined`.)
    pub fn output_redirected(&self, method: &str) -> bool {
        self.output_redirected && crate::infer::OUTPUT_FUNCTIONS.contains(&method)
    }

    /// As [`ProjectIndex::redefined`], for a value of the core class
    /// `class` alone (see [`core_def_reaches`]). (What the caller reads of
    /// this: `Dep::Redefined`.)
    pub fn redefined_on(&self, class: &str, method: &str) -> bool {
        self.object_defs.contains(method)
            || self.core_made.iter().any(|made| made.reaches_core_of(method, class))
            || self.top_level_defs.contains(method)
            || self.core_defs_on.get(method).is_some_and(|ons| ons.iter().any(|on| core_def_reaches(on, class)))
    }

    /// Does some file give `method` a body where a core value may reach
    /// it? (What the caller reads of this: `Dep::Redefined`.)
    pub fn redefined(&self, method: &str) -> bool {
        self.made_for_any_object(method) || self.core_defs.contains(method)
    }

    /// Some object of any class, or one a core value may be, answers
    /// `method` its own way (`def obj.m`, a `define_method` that may reach
    /// a core class).
    fn made_for_any_object(&self, method: &str) -> bool {
        self.object_defs.contains(method) || self.core_made.iter().any(|made| made.reaches_core(method))
    }

    /// May some file give `class` (or a class it is below) `method` under
    /// a computed name from outside its body (`Foo.define_method(n)`)?
    /// (What the caller reads of this: `Dep::ObjectMade`.)
    pub fn made_on(&self, class: &str, side: Side, method: &str) -> bool {
        self.made_table.covers(class, side, method)
    }

    /// May some file so give `method` to a class below `class`, or to one
    /// nobody names? (What the caller reads of this: `Dep::Overrides`.)
    pub fn made_below(&self, class: &str, side: Side, method: &str) -> bool {
        self.made_table.covers_any_of(self.descendants(class), side, method)
    }

    /// Does some file define `method` at the top level, as Object's?
    /// (What the caller reads of this: `Dep::Redefined`.)
    pub fn top_level_defined(&self, method: &str) -> bool {
        self.top_level_defs.contains(method)
    }

    /// Does some file define `method` for instances of `class` in a block
    /// run on it (`refine String do def upcase`)?
    /// (What the caller reads of this: `Dep::Redefined`.)
    pub fn block_replaced(&self, class: &str, method: &str) -> bool {
        replaced_exactly(&self.core_replaced, class, method)
    }

    /// May objects of `class` be made without the `initialize` its code
    /// shows? True when some file gives it `method` (`initialize`, `new`
    /// or `allocate`) a body of its own, or calls `allocate` on it.
    /// (What the caller reads of this: `Dep::Redefined`.)
    pub fn construction_replaced(&self, class: &str, method: &str) -> bool {
        replaced_on(&self.core_replaced, class, method)
    }

    /// Does some file give `method` to a class object from outside its
    /// body? (What the caller reads of this: `Dep::Redefined`.)
    pub fn class_objects_replace(&self, method: &str) -> bool {
        self.core_replaced.iter().any(|(class, m)| m == method && is_singleton_key(class))
    }

    /// The classes some file's block gives `method` (sorted).
    fn block_replaced_classes(&self, method: &str) -> Vec<&str> {
        let mut classes: Vec<&str> =
            self.core_replaced.iter().filter(|(_, m)| m == method).map(|(c, _)| c.as_str()).collect();
        classes.sort_unstable();
        classes
    }

    fn merge_parts(&mut self) {
        for class in self.classes.values_mut() {
            let mut parts = class.parts.iter();
            let Some((_, first)) = parts.next() else { continue };
            let mut merged = first.clone();
            for (_, part) in parts {
                merge_into(&mut merged, part);
            }
            merged.spread = class.parts.len() > 1;
            class.merged = Some(merged);
        }
    }

    /// The class as every file but `file` defines it, if any other does.
    pub fn class_without(&self, name: &str, file: FileId) -> Option<UserClass> {
        let class = self.classes.get(name)?;
        let mut own = class.parts.iter().enumerate().filter(|(_, (id, _))| *id == file).map(|(at, _)| at);
        if let (Some(at), None) = (own.next(), own.next()) {
            if let Some(merged) = class.without_part(at) {
                return Some(merged);
            }
        }
        let mut others = class.parts.iter().filter(|(id, _)| *id != file);
        let (_, first) = others.next()?;
        let mut merged = first.clone();
        for (_, part) in others {
            merge_into(&mut merged, part);
        }
        Some(merged)
    }

    pub fn class(&self, name: &str) -> Option<&UserClass> {
        self.classes.get(name)?.merged.as_ref()
    }

    /// Files that open the class.
    pub fn files_of(&self, name: &str) -> impl Iterator<Item = FileId> + '_ {
        self.classes.get(name).into_iter().flat_map(|c| c.parts.iter().map(|(id, _)| *id))
    }

    /// Does some file mix a module into `class` from outside its body?
    /// (What the caller reads of this: `Dep::OutsideMixed`.)
    pub fn mixed_from_outside(&self, class: &str) -> bool {
        self.outside_mixed.iter().any(|written| may_name_class(written, class))
    }

    pub fn has_constant(&self, name: &str) -> bool {
        self.constants.contains_key(name)
    }

    /// A constant other files assign, with its type (`untyped` before exports).
    pub fn constant(&self, name: &str, except: FileId) -> Option<&Type> {
        let (files, ty) = self.constants.get(name)?;
        files.iter().any(|f| *f != except).then_some(ty)
    }

    pub fn method(&self, id: u32) -> &ExternalMethod {
        &self.methods[id as usize]
    }

    /// The project-wide family of a class: every class linked to it by
    /// inheritance or mixins (instance variables are shared along them).
    pub fn family(&self, name: &str) -> Vec<Name> {
        match self.families.get(name).and_then(|rep| self.members.get(rep)) {
            Some(members) => members.clone(),
            None => vec![Name::from(name)],
        }
    }

    /// What other files than `except` write to an instance variable of
    /// `class`; `None` when they write nothing the exports list.
    pub fn ivar_writes(&self, class: &str, side: Side, ivar: &str, except: FileId) -> Option<Type> {
        let writes = self.ivars.get(&(Name::from(class), side, ivar.to_string()))?;
        let others: Vec<Type> = writes.iter().filter(|(f, _)| *f != except).map(|(_, t)| t.clone()).collect();
        (!others.is_empty()).then(|| union(others))
    }

    /// May a file that opens this class set its instance variables in ways
    /// nobody can list?
    pub fn ivars_unknowable(&self, class: &str) -> bool {
        self.files_of(class).any(|f| self.unknowable.contains(&f))
    }

    /// What modules mixed into single objects or into classes from outside
    /// (`obj.extend(M)`, `Klass.include(M)`), and the modules they include,
    /// write or give writers of (`attr_writer`): ivars of objects of any
    /// class.
    fn add_mixed_in_ivar_writes(&mut self) {
        let mut pending: Vec<Name> = self.object_extended.clone();
        if self.outside_ivars.modules {
            let modules = self.classes.iter().filter(|(_, c)| c.parts.iter().any(|(_, p)| p.is_module));
            pending.extend(modules.map(|(name, _)| name.clone()));
            pending.sort();
        }
        let mut seen: Vec<Name> = Vec::new();
        while let Some(module) = pending.pop() {
            if seen.contains(&module) {
                continue;
            }
            seen.push(module.clone());
            let Some(class) = self.classes.get(&module) else { continue };
            for (_, part) in &class.parts {
                self.outside_ivars.names.extend(part.ivars_written.iter().cloned());
                // Its writers (`attr_writer :v`): the object's `@v`.
                self.outside_ivars.names.extend(part.ivars_set_from_outside.iter().cloned());
                self.outside_ivars.any |= part.ivars_opaque;
                pending.extend(part.includes.iter().chain(&part.prepends).cloned());
            }
        }
        self.outside_ivars = self.outside_ivars.sorted();
    }

    /// May some file write an ivar of this name in an object it cannot
    /// name (so in any class's)?
    /// (What the caller reads of this: `Dep::OutsideIvar`.)
    pub fn written_outside(&self, class: &str, ivar: &str) -> bool {
        let outside = &self.outside_ivars;
        if outside.any || outside.names.binary_search_by(|name| name.as_str().cmp(ivar)).is_ok() {
            return true;
        }
        // A family is hundreds of classes in rubocop: walked only when some
        // class is given code in a string.
        !outside.classes.is_empty()
            && (constant_rewrites(&outside.classes, class)
                || self.family(class).iter().any(|member| constant_rewrites(&outside.classes, member)))
    }

    /// Direct subclasses and includers of each class, by name.
    fn subclasses(&self, env: &Environment) -> HashMap<Name, Vec<Name>> {
        let mut out: HashMap<Name, Vec<Name>> = HashMap::default();
        for name in sorted_keys(&self.classes) {
            let Some(class) = self.class(&name) else { continue };
            let mut parents: Vec<Name> = class.includes.iter().chain(&class.prepends).cloned().collect();
            match &class.superclass {
                Superclass::Known(parent) => {
                    parents.push(parent.clone());
                    // Below a signature class (`E < RuntimeError`), it is
                    // below that one's ancestors too (`StandardError`), up
                    // to the roots every class is below.
                    if !self.classes.contains_key(parent) {
                        parents.extend(self.signature_ancestors(env, parent));
                    }
                }
                // A signature class the project reopens (`class String`)
                // sits below its signature superclasses: the nearest the
                // project also opens is its parent here (so `Object#m`
                // calling `duplicable?` may reach `Method#duplicable?`).
                Superclass::Implicit if !class.is_module => parents.extend(self.nearest_opened_ancestor(env, &name)),
                _ => {}
            }
            for parent in parents {
                out.entry(parent).or_default().push(name.clone());
            }
        }
        out
    }

    /// A signature class's superclasses short of `Object`.
    fn signature_ancestors(&self, env: &Environment, class: &str) -> Vec<Name> {
        let mut out = Vec::new();
        let mut current = env.class(class).and_then(|c| c.superclass.as_ref()).map(|s| s.name.clone());
        while let Some(name) = current.take() {
            if matches!(&*name, "Object" | "BasicObject") || out.len() >= 32 {
                break;
            }
            current = env.class(&name).and_then(|c| c.superclass.as_ref()).map(|s| s.name.clone());
            out.push(name);
        }
        out
    }

    fn nearest_opened_ancestor(&self, env: &Environment, class: &str) -> Option<Name> {
        let mut current = env.class(class)?.superclass.as_ref()?.name.clone();
        for _ in 0..32 {
            if self.classes.contains_key(&current) {
                return Some(current);
            }
            current = env.class(&current)?.superclass.as_ref()?.name.clone();
        }
        None
    }

    fn compute_families(&self) -> HashMap<Name, Name> {
        let mut parent: HashMap<Name, Name> = self.classes.keys().map(|k| (k.clone(), k.clone())).collect();
        fn find(parent: &HashMap<Name, Name>, name: &Name) -> Name {
            let mut current = name.clone();
            for _ in 0..256 {
                match parent.get(&current) {
                    Some(next) if *next != current => current = next.clone(),
                    _ => break,
                }
            }
            current
        }
        for name in sorted_keys(&self.classes) {
            let Some(class) = self.class(&name) else { continue };
            let mut related: Vec<Name> = class.includes.iter().chain(&class.prepends).cloned().collect();
            if let Superclass::Known(parent_class) = &class.superclass {
                related.push(parent_class.clone());
            }
            for other in related {
                if !parent.contains_key(&other) {
                    continue;
                }
                let a = find(&parent, &name);
                let b = find(&parent, &other);
                if a != b {
                    let (low, high) = if a < b { (a, b) } else { (b, a) };
                    parent.insert(high, low);
                }
            }
        }
        let names: Vec<Name> = parent.keys().cloned().collect();
        names.into_iter().map(|n| (n.clone(), find(&parent, &n))).collect()
    }

    /// Ruby's constant lookup over the project and the signatures: the
    /// lexical scopes innermost first, the innermost class's ancestors,
    /// then the top level.
    pub fn resolve_constant(&self, env: &Environment, lexical: &[Name], written: &str) -> Option<Name> {
        self.resolve_constant_past(env, lexical, written, &[])
    }

    /// [`ProjectIndex::resolve_constant`], going past the classes in
    /// `unseen`, which do not exist yet where the path is written (see
    /// [`PendingKind::OpenedLater`]).
    fn resolve_constant_past(
        &self,
        env: &Environment,
        lexical: &[Name],
        written: &str,
        unseen: &[Name],
    ) -> Option<Name> {
        let known = |full: &str| {
            (self.classes.contains_key(full)
                || self.constants.contains_key(full)
                || env.has_class(full)
                || env.constant(full).is_some())
                && !unseen.iter().any(|name| &**name == full)
        };
        if let Some(absolute) = written.strip_prefix("::") {
            return known(absolute).then(|| Name::from(absolute));
        }
        let (head, rest) = match written.split_once("::") {
            Some((head, rest)) => (head, Some(rest)),
            None => (written, None),
        };
        // One buffer for every `scope::head` tried (a format! each was half
        // of this function's cost).
        let mut full = String::new();
        let mut known_in = |scope: &str| {
            full.clear();
            full.push_str(scope);
            full.push_str("::");
            full.push_str(head);
            known(&full).then(|| Name::from(full.as_str()))
        };
        let mut found = lexical.iter().rev().find_map(|scope| known_in(scope));
        if found.is_none() {
            if let Some(innermost) = lexical.last() {
                found = self.ancestor_names(env, innermost).iter().find_map(|ancestor| known_in(ancestor));
            }
        }
        let head = match found {
            Some(found) => found,
            None if known(head) => Name::from(head),
            // A namespace nobody here defines: the whole path may still
            // name a known class (see `ProgramIndex::resolve_constant`).
            None => {
                rest?;
                let scoped = lexical.iter().rev().map(|scope| format!("{scope}::{written}"));
                return scoped.chain([written.to_string()]).find(|full| known(full)).map(Name::from);
            }
        };
        match rest {
            None => Some(head),
            Some(rest) => {
                let full = format!("{head}::{rest}");
                known(&full).then(|| Name::from(full))
            }
        }
    }

    /// Superclasses and mixins of a project class, then the signatures'.
    pub fn ancestor_names(&self, env: &Environment, class: &str) -> Vec<Name> {
        let mut out = Vec::new();
        let mut current = Some(Name::from(class));
        let mut guard = 0;
        while let Some(name) = current.take() {
            guard += 1;
            if guard > 64 {
                break;
            }
            match self.class(&name) {
                Some(user) => {
                    out.extend(user.prepends.iter().rev().map(|m| (m.clone(), false)));
                    if guard > 1 {
                        out.push((name.clone(), false));
                    }
                    out.extend(user.includes.iter().rev().map(|m| (m.clone(), true)));
                    if env.has_class(&name) {
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

    /// A fingerprint of what a dependency reads now; equal fingerprints
    /// mean an analysis that read it may be reused.
    pub fn fingerprint(&self, dep: &Dep, reader: FileId) -> u64 {
        let mut hasher = FxHasher::default();
        match dep {
            Dep::Methods(name) => {
                6u8.hash(&mut hasher);
                if let Some(prints) = self.part_prints.get(name) {
                    prints.methods.without(prints.position(reader)).hash(&mut hasher);
                }
            }
            Dep::Method(name, method) => {
                7u8.hash(&mut hasher);
                for (file, part) in self.classes.get(name).map(|c| c.parts.as_slice()).unwrap_or_default() {
                    if *file == reader {
                        continue;
                    }
                    (
                        self.paths.get(*file as usize),
                        part.instance_methods.get(method).map(entry_kind),
                        part.singleton_methods.get(method).map(entry_kind),
                        part.makes(Side::Instance, method),
                        part.makes(Side::Singleton, method),
                    )
                        .hash(&mut hasher);
                }
            }
            Dep::AnyMethods(name) => {
                21u8.hash(&mut hasher);
                let parts = self.classes.get(name).map(|c| c.parts.as_slice()).unwrap_or_default();
                parts
                    .iter()
                    .filter(|(file, _)| *file != reader)
                    .any(|(_, part)| !part.instance_methods.is_empty() || !part.singleton_methods.is_empty())
                    .hash(&mut hasher);
            }
            Dep::Class(name) => {
                0u8.hash(&mut hasher);
                match self.part_prints.get(name) {
                    None => 0u8.hash(&mut hasher),
                    Some(prints) => {
                        1u8.hash(&mut hasher);
                        // The reader's own part is its own content, which
                        // its cache key already holds.
                        prints.shape.without(prints.position(reader)).hash(&mut hasher);
                        prints.relatives.hash(&mut hasher);
                    }
                }
            }
            Dep::Return(owner, side, method) => {
                3u8.hash(&mut hasher);
                for (file, part) in self.classes.get(owner).map(|c| c.parts.as_slice()).unwrap_or_default() {
                    if *file == reader {
                        continue;
                    }
                    match part.methods(*side).get(method) {
                        Some(MethodEntry::External(id)) => {
                            let method = &self.methods[*id as usize];
                            let own = (&method.own, &method.own_yields);
                            (self.paths.get(*file as usize), &method.returns, own, &method.yields).hash(&mut hasher)
                        }
                        other => (self.paths.get(*file as usize), other.is_some()).hash(&mut hasher),
                    }
                }
            }
            Dep::Ivars(class) => {
                4u8.hash(&mut hasher);
                for key in self.ivars_by_class.get(class).into_iter().flatten() {
                    for (writer, ty) in &self.ivars[key] {
                        if *writer != reader {
                            (key, self.paths.get(*writer as usize), ty).hash(&mut hasher);
                        }
                    }
                }
            }
            Dep::Params(class, side, method) => {
                5u8.hash(&mut hasher);
                self.parameter_calls(class, *side, method).hash(&mut hasher);
            }
            Dep::EntryIvars(class, side, method) => {
                17u8.hash(&mut hasher);
                self.entry_ivars(class, *side, method).hash(&mut hasher);
            }
            // Answered by the workspace, from the rules' facts.
            Dep::Facts | Dep::FactName(_) => 2u8.hash(&mut hasher),
            Dep::Exported => self.exported.hash(&mut hasher),
            Dep::Redefined(method) => {
                13u8.hash(&mut hasher);
                self.redefined(method).hash(&mut hasher);
                self.core_defs_on.get(method).hash(&mut hasher);
                // Which classes' computed names reach it (`redefined_on`).
                let made: Vec<(&str, bool)> = self
                    .core_made
                    .iter()
                    .filter(|made| made.reaches_core(method))
                    .map(|made| (made.class.as_str(), made.everywhere))
                    .collect();
                made.hash(&mut hasher);
                self.top_level_defined(method).hash(&mut hasher);
                self.block_replaced_classes(method).hash(&mut hasher);
                self.output_redirected(method).hash(&mut hasher);
                self.reader_mutated(method).hash(&mut hasher);
            }
            Dep::ConstantRewritten(full) => {
                14u8.hash(&mut hasher);
                (self.constant_rewritten(full), self.constant_mutated(full)).hash(&mut hasher);
            }
            Dep::OutsideIvar(class, ivar) => {
                15u8.hash(&mut hasher);
                self.written_outside(class, ivar).hash(&mut hasher);
            }
            Dep::ObjectMade => {
                16u8.hash(&mut hasher);
                (&self.object_made, &self.extender_made, &self.made_on).hash(&mut hasher);
            }
            Dep::Overrides(class, side, method) => {
                12u8.hash(&mut hasher);
                (*side == Side::Instance && self.is_extended(class)).hash(&mut hasher);
                (*side == Side::Singleton && self.extended_below(class, method)).hash(&mut hasher);
                self.library_mixed_below(class, *side, method).hash(&mut hasher);
                self.object_defs.contains(method.as_str()).hash(&mut hasher);
                self.made_below(class, *side, method).hash(&mut hasher);
                for (descendant, file, entry) in self.overriding_parts(class, *side, method) {
                    if file == reader {
                        continue;
                    }
                    let returns = match entry {
                        MethodEntry::External(id) => Some(&self.methods[*id as usize].returns),
                        _ => None,
                    };
                    (descendant, self.paths.get(file as usize), returns).hash(&mut hasher);
                }
            }
            Dep::MixinOverrides(class, method) => {
                11u8.hash(&mut hasher);
                for (module, file, entry) in self.mixin_override_parts(class, method) {
                    let returns = match entry {
                        MethodEntry::External(id) => Some(&self.methods[*id as usize].returns),
                        _ => None,
                    };
                    (module, self.paths.get(file as usize), returns).hash(&mut hasher);
                }
            }
            Dep::Constant(name) => {
                1u8.hash(&mut hasher);
                self.hash_assigners(name, reader, &mut hasher);
                if let Some((files, ty)) = self.constants.get(name) {
                    files.iter().any(|f| *f != reader).then_some(ty).hash(&mut hasher);
                }
            }
            Dep::ConstantNamed(name) => {
                18u8.hash(&mut hasher);
                self.hash_assigners(name, reader, &mut hasher);
            }
            Dep::ObjectMixinsDefine(method) => {
                19u8.hash(&mut hasher);
                self.object_mixins_define(method).hash(&mut hasher);
            }
            Dep::OutsideMixed(class) => {
                20u8.hash(&mut hasher);
                self.mixed_from_outside(class).hash(&mut hasher);
            }
        }
        hasher.finish()
    }

    /// Who assigns the constant `name` besides `reader`, and whether a
    /// class has that name: what both constant deps read of it.
    fn hash_assigners(&self, name: &Name, reader: FileId, hasher: &mut FxHasher) {
        if let Some((files, _)) = self.constants.get(name) {
            for file in files.iter().filter(|f| **f != reader) {
                self.paths.get(*file as usize).hash(hasher);
            }
        }
        self.classes.contains_key(name).hash(hasher);
    }

    /// The files that own part of what `dep` reads (a reader's fingerprint
    /// of it leaves its own part out), sorted: worked out once per fact
    /// where many readers ask.
    pub fn touchers(&self, dep: &Dep) -> Vec<FileId> {
        let mut files: Vec<FileId> = match dep {
            Dep::Class(name)
            | Dep::Methods(name)
            | Dep::Method(name, _)
            | Dep::AnyMethods(name)
            | Dep::Return(name, _, _) => {
                return self.part_prints.get(name).map_or_else(Vec::new, |prints| prints.files.clone())
            }
            Dep::Constant(name) | Dep::ConstantNamed(name) => {
                self.constants.get(name).map_or_else(Vec::new, |(files, _)| files.clone())
            }
            Dep::Ivars(class) => self
                .ivars_by_class
                .get(class)
                .into_iter()
                .flatten()
                .flat_map(|key| self.ivars[key].iter().map(|(file, _)| *file))
                .collect(),
            Dep::Overrides(class, side, method) => {
                self.overriding_parts(class, *side, method).map(|(_, file, _)| file).collect()
            }
            Dep::Facts
            | Dep::FactName(_)
            | Dep::Exported
            | Dep::Params(..)
            | Dep::EntryIvars(..)
            | Dep::MixinOverrides(..)
            | Dep::Redefined(_)
            | Dep::ConstantRewritten(_)
            | Dep::OutsideIvar(..)
            | Dep::ObjectMade
            | Dep::ObjectMixinsDefine(_)
            | Dep::OutsideMixed(_) => Vec::new(),
        };
        files.sort_unstable();
        files.dedup();
        files
    }

    /// Does the reader own part of what `dep` reads? [`Self::touchers`]
    /// asked of one reader, written out apart to check it against.
    #[cfg(test)]
    pub fn touches(&self, dep: &Dep, reader: FileId) -> bool {
        match dep {
            Dep::Class(name) | Dep::Methods(name) | Dep::Method(name, _) | Dep::AnyMethods(name) => {
                self.part_prints.get(name).is_some_and(|prints| prints.position(reader).is_some())
            }
            Dep::Constant(name) | Dep::ConstantNamed(name) => {
                self.constants.get(name).is_some_and(|(files, _)| files.contains(&reader))
            }
            Dep::Return(owner, _, _) => {
                self.part_prints.get(owner).is_some_and(|prints| prints.position(reader).is_some())
            }
            Dep::Ivars(class) => self
                .ivars_by_class
                .get(class)
                .is_some_and(|keys| keys.iter().any(|k| self.ivars[k].iter().any(|(f, _)| *f == reader))),
            // The folded calls include the reader's own: its own calls were
            // inferred against the rest of the project.
            Dep::Overrides(class, side, method) => {
                self.overriding_parts(class, *side, method).any(|(_, file, _)| file == reader)
            }
            Dep::Facts
            | Dep::FactName(_)
            | Dep::Exported
            | Dep::Params(..)
            | Dep::EntryIvars(..)
            | Dep::MixinOverrides(..)
            | Dep::Redefined(_)
            | Dep::ConstantRewritten(_)
            | Dep::OutsideIvar(..)
            | Dep::ObjectMade
            | Dep::ObjectMixinsDefine(_)
            | Dep::OutsideMixed(_) => false,
        }
    }

    /// Fingerprints each file's part of each class: its shape and its
    /// method tables (entry kinds), apart.
    fn seal(&mut self) {
        let family_prints: HashMap<&Name, u64> = self
            .members
            .iter()
            .map(|(rep, members)| {
                let mut hasher = FxHasher::default();
                members.hash(&mut hasher);
                (rep, hasher.finish())
            })
            .collect();
        let mut prints: HashMap<Name, ClassPrints> = HashMap::default();
        for (name, class) in &self.classes {
            let relatives = {
                let mut hasher = FxHasher::default();
                let family = self.families.get(name).map(|rep| (rep, family_prints.get(rep).copied()));
                family.hash(&mut hasher);
                self.ivars_unknowable(name).hash(&mut hasher);
                self.descendants(name).hash(&mut hasher);
                hasher.finish()
            };
            let mut parts = Vec::with_capacity(class.parts.len());
            for (file, part) in &class.parts {
                let path = self.paths.get(*file as usize);
                let mut shape = FxHasher::default();
                path.hash(&mut shape);
                hash_shape(part, &mut shape);
                let mut methods = FxHasher::default();
                let tables = (entry_kinds(&part.instance_methods), entry_kinds(&part.singleton_methods));
                (path, tables, &part.made_methods, &part.made_for_extenders).hash(&mut methods);
                parts.push(PartPrint { file: *file, shape: shape.finish(), methods: methods.finish() });
            }
            prints.insert(name.clone(), ClassPrints::of(parts, relatives));
        }
        self.part_prints = prints;
    }
}

/// What every definition of a method yields, position by position, when
/// each is known and all pass the same number of arguments.
fn agreed_yields(all: &[Option<&[Type]>]) -> Option<Vec<Type>> {
    if all.is_empty() {
        return None;
    }
    all.iter().try_fold(None, |joined, yields| join_positions(joined, (*yields)?).map(Some))?
}

fn merge_into(merged: &mut UserClass, part: &UserClass) {
    if merged.superclass == Superclass::Implicit {
        merged.superclass = part.superclass.clone();
    } else if part.superclass == Superclass::Unknown {
        merged.superclass = Superclass::Unknown;
    }
    for (list, more) in [
        (&mut merged.includes, &part.includes),
        (&mut merged.extends, &part.extends),
        (&mut merged.prepends, &part.prepends),
    ] {
        for name in more {
            if !list.contains(name) {
                list.push(name.clone());
            }
        }
    }
    merged.unknown_mixins |= part.unknown_mixins;
    merged.written.extend(part.written.iter().cloned());
    merged.is_module |= part.is_module;
    for side in [Side::Instance, Side::Singleton] {
        let (table, more) = match side {
            Side::Instance => (&mut merged.instance_methods, &part.instance_methods),
            Side::Singleton => (&mut merged.singleton_methods, &part.singleton_methods),
        };
        // In name order: the merged table is laid out the same whatever
        // order the part's own table keeps.
        let mut entries: Vec<(&String, &MethodEntry)> = more.iter().collect();
        entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
        for (method, entry) in entries {
            // Defined in several files: whichever loads last wins, so
            // nothing can be said of what it returns.
            let merged_entry = match table.get(method) {
                Some(_) => MethodEntry::Opaque,
                None => *entry,
            };
            if side == Side::Instance && method == "initialize" && table.contains_key(method) {
                merged.initialized_ivars.insert(super::classes::INITIALIZE_REDEFINED.to_string());
            }
            table.insert(method.clone(), merged_entry);
        }
    }
    merged.ivars_set_from_outside.extend(part.ivars_set_from_outside.iter().cloned());
    merged.ivars_opaque |= part.ivars_opaque;
    merged.initialized_ivars.extend(part.initialized_ivars.iter().cloned());
    merged.has_method_missing |= part.has_method_missing;
    merged.made_methods.extend(part.made_methods.iter().cloned());
    merged.made_for_extenders.extend(part.made_for_extenders.iter().cloned());
    for module in &part.includer_extends {
        if !merged.includer_extends.contains(module) {
            merged.includer_extends.push(module.clone());
        }
    }
    merged.extends_self |= part.extends_self;
    merged.spread = true;
}

fn descendants_of(subclasses: &HashMap<Name, Vec<Name>>, class: &Name) -> Vec<Name> {
    let mut out: Vec<Name> = Vec::new();
    let mut seen: HashSet<&Name> = HashSet::default();
    let mut queue: Vec<&Name> = subclasses.get(class).into_iter().flatten().collect();
    while let Some(next) = queue.pop() {
        if next == class || out.len() > 4096 || !seen.insert(next) {
            continue;
        }
        queue.extend(subclasses.get(next).into_iter().flatten());
        out.push(next.clone());
    }
    out.sort();
    out
}

/// The names in both of two sorted lists that hold each name once, in
/// order: the shorter list filtered by a search of the longer. A base
/// class of plugins has hundreds of descendants and modules below it,
/// and a method only a few definers.
fn sorted_meet<'a>(a: &'a [Name], b: &'a [Name]) -> impl Iterator<Item = &'a Name> + 'a {
    let (few, many) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    few.iter().filter(move |name| many.binary_search(name).is_ok())
}

fn sorted_keys<V>(map: &HashMap<Name, V>) -> Vec<Name> {
    let mut keys: Vec<Name> = map.keys().cloned().collect();
    keys.sort();
    keys
}

/// A method table as a fingerprint sees it: names and kinds of entry. An
/// `External` entry's number is its place in this index's method list,
/// which a method added in an earlier file shifts; what the method returns
/// is a `Return` dependency of its own.
fn entry_kinds(table: &HashMap<String, MethodEntry>) -> Vec<(&String, MethodEntry)> {
    let mut entries: Vec<(&String, MethodEntry)> =
        table.iter().map(|(name, entry)| (name, entry_kind(entry))).collect();
    entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
    entries
}

/// One entry as a fingerprint sees it (see `entry_kinds`).
fn entry_kind(entry: &MethodEntry) -> MethodEntry {
    match entry {
        MethodEntry::External(_) => MethodEntry::External(0),
        other => *other,
    }
}

/// A class's facts in a canonical order, for comparing and hashing.
fn canonical(class: &UserClass) -> String {
    format!(
        "{}|{:?}|{:?}|{:?}|{:?}",
        canonical_shape(class),
        entry_kinds(&class.instance_methods),
        entry_kinds(&class.singleton_methods),
        class.made_methods,
        class.made_for_extenders,
    )
}

/// A class part's sets in a canonical order: the ivars set from outside,
/// what `initialize` sets, the methods defined twice.
type SortedSets<'c> = (Vec<&'c String>, Vec<&'c String>, Vec<(&'c (Side, String), &'c Vec<usize>)>);

fn sorted_sets(class: &UserClass) -> SortedSets<'_> {
    let mut ivars_outside: Vec<&String> = class.ivars_set_from_outside.iter().collect();
    ivars_outside.sort();
    let mut initialized: Vec<&String> = class.initialized_ivars.iter().collect();
    initialized.sort();
    let mut redefined: Vec<_> = class.redefined.iter().collect();
    redefined.sort_by(|a, b| a.0.cmp(b.0));
    (ivars_outside, initialized, redefined)
}

/// Hashes what [`canonical_shape`] prints, field by field: the same facts
/// in the same canonical order, without formatting them first.
fn hash_shape(class: &UserClass, hasher: &mut impl Hasher) {
    let (ivars_outside, initialized, redefined) = sorted_sets(class);
    (&class.name, class.is_module, &class.superclass, &class.includes, &class.extends).hash(hasher);
    (&class.includer_extends, &class.prepends, class.unknown_mixins, class.computed_mixins).hash(hasher);
    (ivars_outside, class.ivars_opaque, &class.ivars_written, initialized).hash(hasher);
    (class.has_method_missing, class.extends_self, redefined, &class.written, &class.lexical, class.spread)
        .hash(hasher);
}

/// A class's facts but its method tables, in a canonical order.
fn canonical_shape(class: &UserClass) -> String {
    let (ivars_outside, initialized, redefined) = sorted_sets(class);
    format!(
        "{}|{}|{:?}|{:?}|{:?}|{:?}|{:?}|{}|{}|{:?}|{}|{:?}|{:?}|{}|{}|{:?}|{:?}|{:?}|{}",
        class.name,
        class.is_module,
        class.superclass,
        class.includes,
        class.extends,
        class.includer_extends,
        class.prepends,
        class.unknown_mixins,
        class.computed_mixins,
        ivars_outside,
        class.ivars_opaque,
        class.ivars_written,
        initialized,
        class.has_method_missing,
        class.extends_self,
        redefined,
        class.written,
        class.lexical,
        class.spread,
    )
}

/// The names two sorted lists both hold, in order: the shorter one walked,
/// the longer searched (a method most classes define has hundreds of
/// definers; most classes have no descendant).
fn in_both<'a>(one: &'a [Name], other: &'a [Name]) -> impl Iterator<Item = &'a Name> + 'a {
    let (walked, searched) = if one.len() <= other.len() { (one, other) } else { (other, one) };
    walked.iter().filter(move |name| searched.binary_search(name).is_ok())
}

/// Shared ownership of an index between the files analysed against it.
pub type SharedIndex = Arc<ProjectIndex>;

/// Is (`class`, `method`) among `replaced`, the class written exactly so
/// (unlike [`replaced_on`])? Asked at every call with a block: a short set
/// (the usual: none or a few) is compared in place, allocating nothing.
pub fn replaced_exactly(replaced: &HashSet<(String, String)>, class: &str, method: &str) -> bool {
    if replaced.len() > 8 {
        return replaced.contains(&(class.to_string(), method.to_string()));
    }
    replaced.iter().any(|(c, m)| m == method && c == class)
}

/// Is `(class, method)` among `replaced`? A file writes a class as it
/// names it where it stands (`Price.class_eval` inside `module Shop`), so
/// the last segments are compared: a clash only makes the answer careful.
/// [`ANY_CLASS`] stands for a class nobody can name there.
pub fn replaced_on(replaced: &HashSet<(String, String)>, class: &str, method: &str) -> bool {
    // Asked at every `C.new`: compared in place, allocating nothing.
    let wanted = constant_tail(class);
    replaced.iter().any(|(c, m)| m == method && (c == ANY_CLASS || constant_tail(c) == wanted))
}

/// May `written`, a class named where it stands (`Base`, `A::Base`,
/// `::A::Base`), be the class `full`? A rooted name is that class; another
/// is any class whose name ends in its segments.
pub fn may_name_class(written: &str, full: &str) -> bool {
    match written.strip_prefix("::") {
        Some(rooted) => rooted == full,
        None => ends_in_segments(full, written),
    }
}

/// May `owner`, a namespace as written (`S` of `S.const_set(:KIND, v)`),
/// be a constant holding some class: it names one of `constants` and none
/// of the `classes` and modules opened? See [`FileInterface::written_on`].
pub fn names_an_alias<'n>(
    owner: &str,
    mut constants: impl Iterator<Item = &'n str>,
    mut classes: impl Iterator<Item = &'n str>,
) -> bool {
    constants.any(|full| may_name_class(owner, full)) && !classes.any(|full| may_name_class(owner, full))
}

/// Does the name `whole` end in the segments `tail`? (`A::B` ends in `B`
/// and in `A::B`, not `XA::B` in `A::B`.)
fn ends_in_segments(whole: &str, tail: &str) -> bool {
    whole == tail || whole.strip_suffix(tail).is_some_and(|head| head.ends_with("::"))
}

/// The last part of a constant's name (`A::B::LIST` is `LIST`).
pub fn constant_tail(full: &str) -> &str {
    match last_separator(full) {
        Some(at) => &full[at + 2..],
        None => full,
    }
}

/// Where the last `::` of a constant name starts, as `rsplit("::")` finds
/// it, by a plain scan from the end: names are short, and this is asked in
/// every method lookup, where the two-way string search was a visible cost.
fn last_separator(name: &str) -> Option<usize> {
    let bytes = name.as_bytes();
    (1..bytes.len()).rev().find(|&at| bytes[at] == b':' && bytes[at - 1] == b':').map(|at| at - 1)
}

/// A class written where `self` cannot be told (`allocate` in a block).
pub const ANY_CLASS: &str = "*";

/// How a class's singleton side is written among replaced methods
/// (Ruby's own spelling of the singleton class): `def Integer.sqrt`
/// replaces `#<Class:Integer>`'s `sqrt`.
pub fn singleton_of(class: &str) -> String {
    format!("#<Class:{class}>")
}

/// Is `key` a singleton side so written (see [`singleton_of`])?
pub fn is_singleton_key(key: &str) -> bool {
    key.starts_with("#<Class:")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis;
    use crate::infer::ProjectLink;
    use crate::syntax::RubyVersion;

    /// The table answers what asking every written name would: its keys
    /// only choose which names to ask.
    #[test]
    fn rewritten_constants_answer_as_the_whole_list_does() {
        let written = ["LIST", "A::LIST", "B::C::X", "M::*", "A::M::*", "N::*", "*", "::R::*", "Q:::*", "::S"];
        let names = [
            "LIST",
            "A::LIST",
            "Z::A::LIST",
            "X",
            "C::X",
            "B::C::X",
            "Y::B::C::X",
            "M::K",
            "A::M::K",
            "M::M::K",
            "K",
            "M",
            "N",
            "N::K",
            "R::K",
            "::R::K",
            "Q:::K",
            "Q::K",
            "S",
            "::S",
            "A::S",
        ];
        for count in 0..=written.len() {
            let mut table = RewrittenConstants::default();
            let listed: Vec<String> = written[..count].iter().map(|w| w.to_string()).collect();
            for w in &listed {
                table.insert(w.clone());
            }
            for full in names {
                assert_eq!(table.covers(full), constant_rewrites(&listed, full), "{full} against {listed:?}");
            }
        }
    }

    #[test]
    fn constant_tail_is_what_follows_the_last_double_colon() {
        for name in ["A::B::LIST", "LIST", "::Top", "A:::B", "#<Class:Integer>", "A::#<Class:B>", "A::", "", ":"] {
            assert_eq!(constant_tail(name), name.rsplit("::").next().unwrap_or(name), "{name}");
            assert_eq!(last_separator(name).map(|at| (&name[..at], &name[at + 2..])), name.rsplit_once("::"), "{name}");
        }
    }

    /// `Dep::reads_exports` lets a reuse check skip the other reads: they
    /// must read the same before and after the exports are folded in.
    /// Three files' structure, and the same with their exports folded in.
    fn base_leaf_mod() -> (Arc<ProjectIndex>, ProjectIndex) {
        let files = [
            ("lib/base.rb", "class Base\n  include Mod\n  LIMIT = 3\n  def label = \"base\"\n  def initialize; @n = 1; end\nend\n"),
            ("lib/mod.rb", "module Mod\n  def shout = label.upcase\nend\n"),
            ("lib/leaf.rb", "class Leaf < Base\n  def label = \"leaf\"\n  def size = @n + LIMIT\nend\nclass Base\n  def extra = 2\nend\nLeaf.new.extend(Mod)\n"),
        ];
        let env = crate::rbs::Environment::default();
        let facts: Vec<FileInterface> = files
            .iter()
            .map(|(path, text)| analysis::facts_of(path, text.as_bytes(), RubyVersion::Latest, &env).0)
            .collect();
        let interfaces: Vec<(&str, &FileInterface)> = files.iter().map(|(p, _)| *p).zip(&facts).collect();
        let structure = Arc::new(ProjectIndex::structure(&interfaces, &env));
        let exports: Vec<FileExports> = files
            .iter()
            .enumerate()
            .map(|(id, (_, text))| {
                let link = ProjectLink::new(structure.clone(), id as FileId);
                analysis::exports_of(text.as_bytes(), RubyVersion::Latest, &env, link).exports
            })
            .collect();
        let folded = (*structure).clone().with_exports(&exports.iter().map(Some).collect::<Vec<_>>());
        (structure, folded)
    }

    #[test]
    fn the_files_a_fact_is_touched_by_are_those_touches_says() {
        let (_, folded) = base_leaf_mod();
        let mut touched = 0;
        for class in ["Base", "Leaf", "Mod", "Missing"] {
            let name = || Name::from(class);
            for dep in [
                Dep::Class(name()),
                Dep::Methods(name()),
                Dep::Method(name(), "label".to_string()),
                Dep::AnyMethods(name()),
                Dep::Return(name(), Side::Instance, "label".to_string()),
                Dep::Constant(Name::from(format!("{class}::LIMIT"))),
                Dep::ConstantNamed(Name::from(format!("{class}::LIMIT"))),
                Dep::Ivars(name()),
                Dep::Overrides(name(), Side::Instance, "label".to_string()),
                Dep::Params(name(), Side::Instance, "label".to_string()),
            ] {
                let touchers = folded.touchers(&dep);
                for reader in 0..3 {
                    assert_eq!(touchers.contains(&reader), folded.touches(&dep, reader), "{dep:?} for {reader}");
                    touched += usize::from(touchers.contains(&reader));
                }
            }
        }
        // Base's and Leaf's parts, Base's ivar and constant, Leaf's override.
        assert!(touched >= 10, "{touched}");
    }

    #[test]
    fn folding_exports_leaves_the_structural_reads_as_they_were() {
        let (structure, folded) = base_leaf_mod();
        let mut compared = 0;
        for class in ["Base", "Leaf", "Mod", "Missing"] {
            for dep in [
                Dep::Class(Name::from(class)),
                Dep::Methods(Name::from(class)),
                Dep::Method(Name::from(class), "label".to_string()),
                Dep::Method(Name::from(class), "extra".to_string()),
                Dep::ConstantNamed(Name::from(format!("{class}::LIMIT"))),
                Dep::ObjectMixinsDefine("shout".to_string()),
                Dep::OutsideMixed(Name::from(class)),
                Dep::AnyMethods(Name::from(class)),
            ] {
                assert!(!dep.reads_exports());
                for reader in 0..3 {
                    assert_eq!(
                        structure.fingerprint(&dep, reader),
                        folded.fingerprint(&dep, reader),
                        "{dep:?} for {reader}"
                    );
                    compared += 1;
                }
            }
        }
        assert_eq!(compared, 96);
        assert!(structure.object_mixins_define("shout"), "a read the test compares is not trivially empty");
        // And a read of the exports does change: the test can tell. Who
        // assigns a constant stands; its type comes with the exports.
        let limit = Dep::Constant(Name::from("Base::LIMIT"));
        assert!(limit.reads_exports());
        assert_ne!(structure.fingerprint(&limit, 2), folded.fingerprint(&limit, 2));
        let returns = Dep::Return(Name::from("Base"), Side::Instance, "label".to_string());
        assert!(returns.reads_exports());
        assert_ne!(structure.fingerprint(&returns, 1), folded.fingerprint(&returns, 1));
    }
}
