//! What the whole set of checked files defines, gathered before any file is
//! checked: a method missing from one file's view may be defined in another
//! (a reopened core class, a module mixed in elsewhere, a DSL), and a call
//! rule must not report what the project itself provides.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use ruby_prism::{CallNode, Node, Visit};

use super::requires::{constant_spelling, requirement, LoadGraph, Required};
use crate::model::index::constant_tail;
use crate::stack_guard::ensure_room;
use crate::syntax::{constant_path_text, name, ParsedFile};

/// Which object a definition gives a method to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum Owner {
    /// Instances of the class.
    Instance,
    /// The class object itself (`def self.m`, `class << self`).
    Singleton,
}

#[derive(Debug, Default, Clone, serde::Serialize, serde::Deserialize)]
pub struct ProjectFacts {
    /// Methods defined directly in a `class` body: (class, side) -> names.
    by_class: HashMap<(String, Owner), HashSet<String>>,
    /// Methods whose receiver cannot be pinned down: module methods (a
    /// module can be mixed into anything), `define_method`, delegators,
    /// `def obj.m`, defs in blocks or at the top level.
    anywhere: HashSet<String>,
    /// Every name in `by_class` and `anywhere`.
    all_names: HashSet<String>,
    /// `def`s per method name over the project, whoever owns them.
    def_counts: HashMap<String, usize>,
    /// Files that open each class or module (`class A::B` counts for A::B).
    files_opening: HashMap<String, usize>,
    /// Classes and modules opened in the file their name points to
    /// (`Shop::Price` in `.../shop/price.rb`): where a library reopening
    /// them could not live beside the project under the same name.
    in_own_file: HashSet<String>,
    /// The last segments of `files_opening`'s names, made by `settle`.
    opened_last_segments: HashSet<String>,
    /// Classes whose methods cannot be listed: `method_missing`, or code
    /// evaluated from strings in their body.
    dynamic_classes: HashSet<String>,
    /// Modules whose instance methods define methods on `self` under names
    /// nobody can read (`def field(name) = attr_accessor(name)`): `self`
    /// there is whatever extends the module, so what does answers to
    /// methods nobody can list (see `settle`).
    makers: HashSet<String>,
    /// Modules mixed into a class by the project, as written: (class,
    /// side) -> modules. `include` at the top level mixes into Object.
    mixins: HashMap<(String, Owner), HashSet<String>>,
    /// Last segments of the superclasses project classes name (`< Base`,
    /// `Class.new(Base)`): those classes have subclasses somewhere.
    subclassed: HashSet<String>,
    /// Which files load code from outside the project (see `requires`).
    loads: LoadGraph,
    /// Top-level namespaces native extensions the project loads may
    /// define (`require "fiddle.so"`: `Fiddle`), lower-cased, `_` removed.
    native: HashSet<String>,
    /// Names made public other than in their class's own body
    /// (`K.send(:public, :y)`, `K.class_eval { public :y }`).
    made_public: HashSet<String>,
    /// Some `public` is given names computed at run time: any method may
    /// be made public.
    public_computed: bool,
    /// Who defines each name in a class body, sorted (made by `settle`).
    #[serde(skip)]
    owners_of: HashMap<String, Vec<(String, Owner)>>,
    /// Every `def` in a class body (not a module's, not in a block or
    /// another `def`), by name: what another file's call of it may pass.
    /// Sorted by `settle`.
    def_shapes: HashMap<String, Vec<DefShape>>,
    /// Names given to `private`, `protected` or `private_class_method`
    /// anywhere (a reopened class may hide a method another file defines).
    made_private: HashSet<String>,
    /// Some such call is given names computed at run time.
    private_computed: bool,
    /// Names given to `undef_method` or `remove_method` anywhere.
    removed: HashSet<String>,
    /// Modules mixed into single objects (`obj.extend(Comparable)`): a
    /// library module's methods answer ahead of the object's class.
    objects_extended: HashSet<String>,
    /// Modules included or prepended into classes no name shows (a hook's
    /// `base.include(M)`, `singleton_class.prepend(M)`, `k.include(M)` in
    /// a loop), as written: they answer ahead of some class's own methods.
    #[serde(default)]
    mixed_into_unnamed: HashSet<String>,
    /// Some module so mixed in is computed (`sub.prepend(Lenient.for(x))`).
    #[serde(default)]
    computed_into_unnamed: bool,
    /// Modules prepended to a named class (in its body or from outside),
    /// by target as written: they answer ahead of the class's own `def`s.
    #[serde(default)]
    prepended: HashMap<String, HashSet<String>>,
    /// Last segments of classes a constant names again (`Bar = Foo`):
    /// `class Bar` reopens `Foo` under another name.
    class_aliases: HashSet<String>,
    /// Code is evaluated from a string somewhere (`eval`, `class_eval
    /// "..."`, named as a value too): it may define or replace anything.
    evaluates_strings: bool,
    /// Methods under computed names are defined, aliased or removed on a
    /// class no name shows (`klass.define_method(n)`): any class's
    /// methods may be replaced (what the rules judging a `def`'s
    /// parameters must allow for; a missing method is another matter).
    defines_on_unknown: bool,
}

/// One `def` in a class body as calls from other files see it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct DefShape {
    /// The class as the file spells it in full (`Shop::Price`).
    pub class: String,
    pub side: Owner,
    /// The arguments it takes; `None` when it forwards (`...`).
    pub arity: Option<crate::syntax::arity::DefArity>,
    /// Private or protected where it is defined (or in a `class << self`
    /// body that changes visibility).
    pub restricted: bool,
    /// Not a statement of the body itself (in an `if`, a `begin`, after
    /// code that may raise): it may never be defined.
    pub conditional: bool,
}

impl ProjectFacts {
    /// Facts of one file at `path`; merge files' facts with
    /// [`ProjectFacts::merge`], then [`ProjectFacts::settle`].
    pub fn of_file(parsed: &ParsedFile<'_>, path: &str) -> ProjectFacts {
        let mut collector = Collector {
            facts: ProjectFacts::default(),
            lexical: Vec::new(),
            side: Owner::Instance,
            blocks: 0,
            opened: HashSet::default(),
            anonymous_modules: HashMap::default(),
            defs: 0,
            instance_defs: Vec::new(),
            block_selves: Vec::new(),
            required: Vec::new(),
            restricted: hidden_defs(parsed),
            singleton_restricted: false,
            direct_defs: Vec::new(),
            surely_opened: surely_opened(&parsed.root()),
            maybe_opened: 0,
            removed_here: Vec::new(),
        };
        collector.visit(&parsed.root());
        let opened = std::mem::take(&mut collector.opened);
        let removed = std::mem::take(&mut collector.removed_here);
        let required = std::mem::take(&mut collector.required);
        let mut facts = collector.facts;
        facts.removed.extend(removed);
        let names: Vec<String> = facts.anywhere.iter().chain(facts.by_class.values().flatten()).cloned().collect();
        facts.all_names.extend(names);
        for class in opened {
            if names_its_file(&class, path) {
                facts.in_own_file.insert(class.clone());
            }
            *facts.files_opening.entry(class).or_default() += 1;
        }
        for feature in &required {
            if let Required::Feature(feature) | Required::Relative(feature) = feature {
                if let Some(stem) = feature.strip_suffix(".so").or_else(|| feature.strip_suffix(".bundle")) {
                    let first = stem.split('/').next().unwrap_or(stem);
                    facts.native.insert(constant_spelling(first));
                }
            }
        }
        facts.loads.add(path, required);
        facts
    }

    /// May a native extension the project loads define classes under this
    /// top-level namespace?
    pub fn native_namespace(&self, root: &str) -> bool {
        self.native.contains(&constant_spelling(root))
    }

    /// Once every file is merged: work out what loads unseen code.
    pub fn settle(mut self) -> ProjectFacts {
        self.loads.settle();
        self.opened_last_segments = self.files_opening.keys().map(|full| constant_tail(full).to_string()).collect();
        self.spread_makers();
        let mut owners_of: HashMap<String, Vec<(String, Owner)>> = HashMap::default();
        for ((class, side), names) in &self.by_class {
            for name in names {
                owners_of.entry(name.clone()).or_default().push((class.clone(), *side));
            }
        }
        for owners in owners_of.values_mut() {
            owners.sort_by(|a, b| (&a.0, a.1 as u8).cmp(&(&b.0, b.1 as u8)));
        }
        self.owners_of = owners_of;
        // Merged in the files' order: sorted, so that no order shows.
        for shapes in self.def_shapes.values_mut() {
            shapes.sort();
        }
        self
    }

    /// A class (or module) that extends a maker, or a module that includes
    /// one, makes methods nobody can list when the maker's method runs:
    /// it is dynamic. Modules are matched by their last segment, as
    /// written mixins may be relative.
    fn spread_makers(&mut self) {
        if self.makers.is_empty() {
            return;
        }
        let mut makers: HashSet<String> = self.makers.iter().map(|m| constant_tail(m).to_string()).collect();
        // A module including a maker makes methods as the maker does.
        loop {
            let grown: Vec<String> = self
                .mixins
                .iter()
                .filter(|((module, side), mixed)| {
                    *side == Owner::Instance
                        && !makers.contains(constant_tail(module))
                        && mixed.iter().any(|m| makers.contains(constant_tail(m)))
                })
                .map(|((module, _), _)| constant_tail(module).to_string())
                .collect();
            if grown.is_empty() {
                break;
            }
            makers.extend(grown);
        }
        let extenders: Vec<String> = self
            .mixins
            .iter()
            .filter(|((_, side), mixed)| {
                *side == Owner::Singleton && mixed.iter().any(|m| makers.contains(constant_tail(m)))
            })
            .map(|((class, _), _)| class.clone())
            .collect();
        self.dynamic_classes.extend(extenders);
    }

    /// Everything but what the project says of method names, as text to
    /// fingerprint: what answers the queries a [`FactsReader`] does not
    /// note by name. (One file's facts, before merging.)
    pub fn shape_text(&self) -> String {
        format!(
            "{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}",
            self.files_opening,
            self.in_own_file,
            self.dynamic_classes,
            self.makers,
            self.mixins,
            self.subclassed,
            self.loads,
            self.native,
            self.objects_extended,
            self.mixed_into_unnamed,
            self.computed_into_unnamed,
            self.prepended,
            self.class_aliases,
            self.evaluates_strings,
            self.defines_on_unknown
        )
    }

    /// A fingerprint of what the settled project says of one method name:
    /// who defines it in a class body, whether it is defined dynamically
    /// or anywhere at all, and how many `def`s it has.
    pub fn name_fingerprint(&self, method: &str) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = rustc_hash::FxHasher::default();
        self.owners_of
            .get(method)
            .map(|owners| owners.iter().map(|(class, side)| (class.as_str(), *side as u8)).collect::<Vec<_>>())
            .hash(&mut hasher);
        self.anywhere.contains(method).hash(&mut hasher);
        self.all_names.contains(method).hash(&mut hasher);
        self.def_count(method).hash(&mut hasher);
        self.made_public_elsewhere(method).hash(&mut hasher);
        self.def_shapes.get(method).hash(&mut hasher);
        self.made_private_anywhere(method).hash(&mut hasher);
        self.removed.contains(method).hash(&mut hasher);
        hasher.finish()
    }

    /// Modules the project mixes into single objects, as written.
    pub fn objects_extended(&self) -> impl Iterator<Item = &String> {
        self.objects_extended.iter()
    }

    /// Modules the project includes or prepends into classes no name
    /// shows, as written; `None` when one is computed (any module).
    pub fn mixed_into_unnamed(&self) -> Option<impl Iterator<Item = &String>> {
        (!self.computed_into_unnamed).then(|| self.mixed_into_unnamed.iter())
    }

    /// Does a constant name this class (its last segment) again, so that a
    /// `class` of the other name reopens it?
    pub fn aliased(&self, class: &str) -> bool {
        self.class_aliases.contains(constant_tail(class))
    }

    /// Is code evaluated from a string anywhere in the project?
    pub fn evaluates_strings(&self) -> bool {
        self.evaluates_strings
    }

    /// Does some file define or remove methods under computed names on a
    /// class no name shows?
    pub fn defines_on_unknown(&self) -> bool {
        self.defines_on_unknown
    }

    /// May some file make the method private or protected by name?
    pub fn made_private_anywhere(&self, method: &str) -> bool {
        self.private_computed || self.made_private.contains(method)
    }

    /// The one `def` of `method` in `class`'s body on `side`, when the
    /// project has exactly one there.
    pub fn only_def_in(&self, method: &str, class: &str, side: Owner) -> Option<&DefShape> {
        let mut found = self.def_shapes.get(method)?.iter().filter(|s| s.class == class && s.side == side);
        let only = found.next()?;
        found.next().is_none().then_some(only)
    }

    /// May the method be made public other than in its class's body (so
    /// a call from outside may be allowed whatever the body says)?
    pub fn made_public_elsewhere(&self, method: &str) -> bool {
        self.public_computed || self.made_public.contains(method)
    }

    /// May code outside the project and the standard library (a gem) have
    /// run before this file, adding methods the engine cannot see?
    pub fn sees_unseen_code(&self, path: &str) -> bool {
        self.loads.sees_unseen_code(path)
    }

    /// May such code have given `nil` this method (see `LoadGraph`)?
    pub fn unseen_code_may_give_nil(&self, path: &str, method: &str) -> bool {
        self.loads.unseen_code_may_give_nil(path, method)
    }

    pub fn merge(mut self, other: ProjectFacts) -> ProjectFacts {
        for (key, names) in other.by_class {
            self.by_class.entry(key).or_default().extend(names);
        }
        self.anywhere.extend(other.anywhere);
        self.all_names.extend(other.all_names);
        for (method, count) in other.def_counts {
            *self.def_counts.entry(method).or_default() += count;
        }
        for (class, count) in other.files_opening {
            *self.files_opening.entry(class).or_default() += count;
        }
        self.in_own_file.extend(other.in_own_file);
        self.dynamic_classes.extend(other.dynamic_classes);
        self.makers.extend(other.makers);
        self.subclassed.extend(other.subclassed);
        self.loads.merge(other.loads);
        self.native.extend(other.native);
        self.made_public.extend(other.made_public);
        self.public_computed |= other.public_computed;
        for (method, shapes) in other.def_shapes {
            self.def_shapes.entry(method).or_default().extend(shapes);
        }
        self.made_private.extend(other.made_private);
        self.removed.extend(other.removed);
        self.private_computed |= other.private_computed;
        self.objects_extended.extend(other.objects_extended);
        self.mixed_into_unnamed.extend(other.mixed_into_unnamed);
        self.computed_into_unnamed |= other.computed_into_unnamed;
        for (target, modules) in other.prepended {
            self.prepended.entry(target).or_default().extend(modules);
        }
        self.class_aliases.extend(other.class_aliases);
        self.evaluates_strings |= other.evaluates_strings;
        self.defines_on_unknown |= other.defines_on_unknown;
        for (key, modules) in other.mixins {
            self.mixins.entry(key).or_default().extend(modules);
        }
        self
    }

    /// Modules the project mixes into a class (instances) or its class
    /// object (singleton), as written.
    pub fn mixins_of(&self, class: &str, side: Owner) -> impl Iterator<Item = &String> {
        self.mixins.get(&(class.to_string(), side)).into_iter().flatten()
    }

    /// Modules prepended to `class`, in its body or from outside, matched
    /// by the last segment of the name (`Bag.prepend(M)` in `module Shop`
    /// is `Shop::Bag`'s).
    pub fn prepended_to<'s>(&'s self, class: &'s str) -> impl Iterator<Item = &'s String> {
        let tail = constant_tail(class);
        self.prepended.iter().filter(move |(target, _)| constant_tail(target) == tail).flat_map(|(_, modules)| modules)
    }

    /// Every module the project mixes into some class on `side`.
    pub fn modules_mixed(&self, side: Owner) -> impl Iterator<Item = &String> {
        self.mixins.iter().filter(move |((_, on), _)| *on == side).flat_map(|(_, modules)| modules)
    }

    /// Modules mixed into `class` on `side` anywhere, matched by the last
    /// segment of the name as [`Self::prepended_to`] is.
    pub fn mixed_into<'s>(&'s self, class: &'s str, side: Owner) -> impl Iterator<Item = &'s String> {
        let tail = constant_tail(class);
        self.mixins
            .iter()
            .filter(move |((target, on), _)| *on == side && constant_tail(target) == tail)
            .flat_map(|(_, modules)| modules)
    }

    /// Does some project class inherit from this one (matched by the last
    /// segment of its name, since a superclass is written relative)?
    pub fn has_subclasses(&self, class: &str) -> bool {
        self.subclassed.contains(constant_tail(class))
    }

    /// Could the project give `method` to an object whose class is one of
    /// `classes` (the receiver's class and all its ancestors)?
    pub fn may_define(&self, classes: &[&str], side: Owner, method: &str) -> bool {
        if self.anywhere.contains(method) {
            return true;
        }
        // Class objects are objects too: instance methods of Object, Module
        // and Class reach them.
        let extra: &[&str] = match side {
            Owner::Instance => &["Object", "Kernel", "BasicObject"],
            Owner::Singleton => &["Object", "Kernel", "BasicObject", "Module", "Class"],
        };
        let instance_owners = classes.iter().chain(extra);
        let defines = |class: &str, owner: Owner| {
            self.by_class.get(&(class.to_string(), owner)).is_some_and(|names| names.contains(method))
        };
        match side {
            Owner::Instance => instance_owners.clone().any(|c| defines(c, Owner::Instance)),
            Owner::Singleton => {
                classes.iter().any(|c| defines(c, Owner::Singleton))
                    || instance_owners.clone().any(|c| defines(c, Owner::Instance))
            }
        }
    }

    /// Does some project file open this class or module?
    pub fn opens(&self, class: &str) -> bool {
        self.files_opening.contains_key(class)
    }

    /// Does some project file open a class or module whose name ends like
    /// this one (a mixin is written relative to where it is mixed in)?
    pub fn opens_by_last_segment(&self, written: &str) -> bool {
        self.opened_last_segments.contains(constant_tail(written))
    }

    /// Is this class opened in more than one file, so no single file sees
    /// all of it?
    pub fn is_spread(&self, class: &str) -> bool {
        self.files_opening.get(class).copied().unwrap_or(0) > 1
    }

    /// Does some project file open a class or module inside this one's
    /// namespace (`module Hoe::Minitest` for `Hoe`)?
    pub fn opens_inside(&self, namespace: &str) -> bool {
        self.files_opening.keys().any(|name| name.strip_prefix(namespace).is_some_and(|rest| rest.starts_with("::")))
    }

    /// Is this class opened in the file its name points to (see
    /// `in_own_file`)?
    pub fn opened_in_own_file(&self, class: &str) -> bool {
        self.in_own_file.contains(class)
    }

    /// Do some of these classes answer to methods nobody can list?
    pub fn any_dynamic(&self, classes: &[&str]) -> bool {
        classes.iter().any(|c| self.dynamic_classes.contains(*c))
            || ["Object", "Kernel", "BasicObject"].iter().any(|c| self.dynamic_classes.contains(*c))
    }

    /// How many `def`s of this name the project has, in any class.
    pub fn def_count(&self, method: &str) -> usize {
        self.def_counts.get(method).copied().unwrap_or(0)
    }

    /// Is the name defined some way other than a `def` in a class body
    /// (a module, a macro, `define_method`, an alias, a block)?
    pub fn defined_dynamically(&self, method: &str) -> bool {
        self.anywhere.contains(method)
    }

    /// Is the name defined anywhere in the project, by anyone?
    pub fn defines_anywhere(&self, method: &str) -> bool {
        self.all_names.contains(method)
    }
}

/// The project's facts as one file's rules read them: queries by method
/// name are noted, so that a report stays valid until what the project
/// says of those names changes (adding a method elsewhere leaves the
/// reports that never asked about it alone). Every other query reads the
/// facts' shape, which the report's `Facts` dependency covers.
pub struct FactsReader<'a> {
    facts: &'a ProjectFacts,
    names: std::cell::RefCell<HashSet<String>>,
}

impl<'a> FactsReader<'a> {
    pub fn new(facts: &'a ProjectFacts) -> FactsReader<'a> {
        FactsReader { facts, names: Default::default() }
    }

    fn note(&self, method: &str) {
        if !self.names.borrow().contains(method) {
            self.names.borrow_mut().insert(method.to_string());
        }
    }

    /// The method names the rules asked about, sorted.
    pub fn names_read(&self) -> Vec<String> {
        let mut names: Vec<String> = self.names.borrow().iter().cloned().collect();
        names.sort();
        names
    }

    pub fn native_namespace(&self, root: &str) -> bool {
        self.facts.native_namespace(root)
    }

    pub fn sees_unseen_code(&self, path: &str) -> bool {
        self.facts.sees_unseen_code(path)
    }

    pub fn unseen_code_may_give_nil(&self, path: &str, method: &str) -> bool {
        self.facts.unseen_code_may_give_nil(path, method)
    }

    pub fn mixins_of(&self, class: &str, side: Owner) -> impl Iterator<Item = &'a String> {
        self.facts.mixins_of(class, side)
    }

    pub fn prepended_to(&self, class: &'a str) -> impl Iterator<Item = &'a String> {
        self.facts.prepended_to(class)
    }

    pub fn modules_mixed(&self, side: Owner) -> impl Iterator<Item = &'a String> {
        self.facts.modules_mixed(side)
    }

    pub fn mixed_into(&self, class: &'a str, side: Owner) -> impl Iterator<Item = &'a String> {
        self.facts.mixed_into(class, side)
    }

    pub fn has_subclasses(&self, class: &str) -> bool {
        self.facts.has_subclasses(class)
    }

    pub fn may_define(&self, classes: &[&str], side: Owner, method: &str) -> bool {
        self.note(method);
        self.facts.may_define(classes, side, method)
    }

    pub fn opens(&self, class: &str) -> bool {
        self.facts.opens(class)
    }

    pub fn opens_by_last_segment(&self, written: &str) -> bool {
        self.facts.opens_by_last_segment(written)
    }

    pub fn is_spread(&self, class: &str) -> bool {
        self.facts.is_spread(class)
    }

    pub fn opened_in_own_file(&self, class: &str) -> bool {
        self.facts.opened_in_own_file(class)
    }

    pub fn opens_inside(&self, namespace: &str) -> bool {
        self.facts.opens_inside(namespace)
    }

    pub fn aliased(&self, class: &str) -> bool {
        self.facts.aliased(class)
    }

    pub fn evaluates_strings(&self) -> bool {
        self.facts.evaluates_strings()
    }

    pub fn defines_on_unknown(&self) -> bool {
        self.facts.defines_on_unknown()
    }

    pub fn objects_extended(&self) -> impl Iterator<Item = &String> {
        self.facts.objects_extended()
    }

    pub fn mixed_into_unnamed(&self) -> Option<impl Iterator<Item = &'a String>> {
        self.facts.mixed_into_unnamed()
    }

    pub fn any_dynamic(&self, classes: &[&str]) -> bool {
        self.facts.any_dynamic(classes)
    }

    pub fn def_count(&self, method: &str) -> usize {
        self.note(method);
        self.facts.def_count(method)
    }

    pub fn defined_dynamically(&self, method: &str) -> bool {
        self.note(method);
        self.facts.defined_dynamically(method)
    }

    pub fn made_public_elsewhere(&self, method: &str) -> bool {
        self.note(method);
        self.facts.made_public_elsewhere(method)
    }

    pub fn defines_anywhere(&self, method: &str) -> bool {
        self.note(method);
        self.facts.defines_anywhere(method)
    }

    pub fn made_private_anywhere(&self, method: &str) -> bool {
        self.note(method);
        self.facts.made_private_anywhere(method)
    }

    /// Is the name given to `undef_method` or `remove_method` anywhere?
    pub fn removed_anywhere(&self, method: &str) -> bool {
        self.note(method);
        self.facts.removed.contains(method)
    }

    /// See [`ProjectFacts::only_def_in`]; a method made private or
    /// protected by name anywhere counts as restricted.
    pub fn only_def_in(&self, method: &str, class: &str, side: Owner) -> Option<DefShape> {
        self.note(method);
        let mut shape = self.facts.only_def_in(method, class, side)?.clone();
        shape.restricted |= self.facts.made_private_anywhere(method);
        Some(shape)
    }
}

/// Calls whose symbol arguments name methods they define.
const DEFINING_CALLS: &[&str] = &[
    "attr",
    "attr_reader",
    "attr_writer",
    "attr_accessor",
    "define_method",
    "define_singleton_method",
    "alias_method",
    "def_delegator",
    "def_delegators",
    "def_instance_delegator",
    "def_instance_delegators",
    "def_single_delegator",
    "def_single_delegators",
    "delegate",
    "instance_delegate",
    "single_delegate",
    "def_node_matcher",
    "module_function",
    "member",
    "define",
    "new",
];

const MIXINS: &[&str] = &["include", "prepend", "extend"];

/// Defining calls whose computed argument is a method name nobody can read
/// (`module_function`, `new`, delegators take names of existing things).
const NAMES_METHODS: &[&str] = &[
    "attr",
    "attr_reader",
    "attr_writer",
    "attr_accessor",
    "define_method",
    "define_singleton_method",
    "alias_method",
];

const STRING_EVALS: &[&str] = &["class_eval", "module_eval", "instance_eval", "class_exec", "module_exec", "eval"];

/// Calls whose first argument names a method they call or hand out.
const NAMES_A_METHOD_TO_CALL: &[&str] =
    &["send", "__send__", "public_send", "method", "public_method", "instance_method", "to_proc"];

struct Collector {
    facts: ProjectFacts,
    /// Enclosing classes and modules: (qualified name, is a module).
    lexical: Vec<(String, bool)>,
    side: Owner,
    blocks: usize,
    opened: HashSet<String>,
    /// Locals assigned `Module.new { include X ... }`: the modules the
    /// anonymous one includes, so `include local` mixes those in.
    anonymous_modules: HashMap<Vec<u8>, Vec<String>>,
    /// Inside a method body: its `require`s are lazy (see `requires`).
    defs: usize,
    /// For each enclosing `def`: whether it is an instance method of the
    /// class or module around it (no receiver, outside `class << self`).
    instance_defs: Vec<bool>,
    /// For each enclosing block (within the innermost `def`), innermost
    /// last: what its `self` is.
    block_selves: Vec<BlockSelf>,
    required: Vec<Required>,
    /// The file's `def`s that are not public, by offset (see
    /// `infer::restricted_defs`, which reads class bodies alone).
    restricted: HashMap<usize, crate::infer::Visibility>,
    /// In a `class << self` body that calls `private` or `protected`.
    singleton_restricted: bool,
    /// For each class body being read (innermost last), the offsets of
    /// the `def`s that are its own statements (see [`DefShape::conditional`]).
    direct_defs: Vec<HashSet<usize>>,
    /// Class and module bodies that surely run when the file loads (see
    /// [`surely_opened`]), by offset.
    surely_opened: HashSet<usize>,
    /// How many bodies being read may not run (`if defined?(X)` around
    /// `class Item`): every `def` in them is conditional.
    maybe_opened: usize,
    /// Names given to `undef_method` or `remove_method`.
    removed_here: Vec<String>,
}

/// What `self` is in a block.
#[derive(Debug, Clone, PartialEq)]
enum BlockSelf {
    /// The one it was written under, as far as the rules follow it: an
    /// iterator's (`each`), a new class's (`Class.new do`), or a block
    /// given to another method (which may run it anywhere; such code is
    /// taken as written in place, as a call on an object with no name
    /// here is taken to define nothing nobody can list).
    Kept,
    /// A class written as a constant (`Box.class_exec do`).
    On(String),
    /// An object with no name here (`klass.class_eval do`).
    Unnamed,
}

/// Methods that run their block with the receiver as `self`.
const RUN_ON_RECEIVER: &[&str] =
    &["class_eval", "class_exec", "module_eval", "module_exec", "instance_eval", "instance_exec"];

impl Collector {
    fn qualified(&self, written: &str) -> String {
        if let Some(absolute) = written.strip_prefix("::") {
            return absolute.to_string();
        }
        match self.lexical.last() {
            Some((outer, _)) => format!("{outer}::{written}"),
            None => written.to_string(),
        }
    }

    fn add(&mut self, method: String, side: Owner) {
        match self.lexical.last() {
            Some((class, false)) if self.blocks == 0 => {
                self.facts.by_class.entry((class.clone(), side)).or_default().insert(method);
            }
            _ => {
                self.facts.anywhere.insert(method);
            }
        }
    }

    fn enter(&mut self, written: Option<String>, is_module: bool) -> bool {
        let Some(written) = written else { return false };
        let full = self.qualified(&written);
        self.opened.insert(full.clone());
        self.lexical.push((full, is_module));
        true
    }

    fn defining_call(&mut self, call: &CallNode<'_>) {
        let method = crate::syntax::name_text(call.name());
        if method == "new" && call.receiver().as_ref().and_then(constant_path_text).as_deref() == Some("Class") {
            let first = call.arguments().and_then(|a| a.arguments().iter().next());
            if let Some(written) = first.as_ref().and_then(constant_path_text) {
                self.facts.subclassed.insert(constant_tail(&written).to_string());
            }
        }
        // ERB's `def_method(klass, "name(args)")` compiles a template into
        // a method of any class.
        let compiles_template = method == "def_method" && call.receiver().is_some() && call.block().is_none();
        if (STRING_EVALS.contains(&&*method) && call.block().is_none()) || compiles_template {
            self.facts.evaluates_strings = true;
            self.string_eval(call, &method);
            return;
        }
        // Methods that run code or hide methods, named as a value
        // (`send(:class_eval, s)`, `method(:private).call(n)`).
        let named = call.arguments().and_then(|a| a.arguments().iter().next()).and_then(|first| {
            let symbol = first.as_symbol_node()?;
            Some(crate::syntax::decoded(symbol.unescaped()).into_owned())
        });
        if let Some(named) = named.filter(|_| NAMES_A_METHOD_TO_CALL.contains(&&*method)) {
            if STRING_EVALS.contains(&named.as_str()) || named == "binding" {
                self.facts.evaluates_strings = true;
            }
            if matches!(named.as_str(), "private" | "protected" | "private_class_method")
                && method != "send"
                && method != "__send__"
                && method != "public_send"
            {
                self.facts.private_computed = true;
            }
        }
        // `C.send(:define_method, ...)` defines like `define_method` on C.
        let arguments: Vec<Node<'_>> = call.arguments().map(|a| a.arguments().iter().collect()).unwrap_or_default();
        // Sends peeled one by one (`C.send(:public_send, :attr_writer, :v)`).
        let (mut method, mut skip) = (method, 0);
        while matches!(&*method, "send" | "__send__" | "public_send") {
            let Some(sent) = arguments.get(skip) else { return };
            let mut names = Vec::new();
            if sent.as_symbol_node().is_none() && sent.as_string_node().is_none() {
                // A method sent by a name nobody can read may be one that
                // defines (`Box.send(m, :v)` with `m = :attr_writer`): on a
                // class object, it makes methods nobody can list. (In an
                // instance method of a class, `self` is no class object.)
                if self.sends_to_a_class_object(call) {
                    self.mark_target_dynamic(call);
                }
                return;
            }
            literal_names(sent, &mut names);
            method = std::borrow::Cow::Owned(names.pop().unwrap_or_default());
            skip += 1;
        }
        // An alias of a method that makes methods (`alias_method :aw,
        // :attr_writer`, here or on a singleton class) makes them under a
        // name the rules do not follow: any class may then have any method.
        if method == "alias_method" && arguments.get(skip + 1).is_some_and(names_a_maker) {
            self.facts.dynamic_classes.insert("Object".to_string());
        }
        if MIXINS.contains(&&*method) {
            self.mixin(call, &method, &arguments[skip..]);
            return;
        }
        if method == "public" {
            self.made_public(call, &arguments[skip..], skip > 0);
            return;
        }
        if matches!(&*method, "private" | "protected" | "private_class_method") {
            self.made_private(&arguments[skip..]);
            return;
        }
        if matches!(&*method, "undef_method" | "remove_method") {
            // A method removed is not given to anyone: only what judges
            // a `def` by its parameters must know it may be gone.
            for argument in &arguments[skip..] {
                if !literal_names(argument, &mut self.removed_here) {
                    self.facts.defines_on_unknown = true;
                }
            }
            return;
        }
        if !DEFINING_CALLS.contains(&&*method) {
            return;
        }
        // `Struct.new(:a, :b)` and `OpenStruct.new(a: 1)` define readers
        // and writers; another class's `new` (`Logger.new(io, level: 1)`)
        // defines nothing.
        if method == "new" && skip == 0 {
            let receiver = call.receiver().as_ref().and_then(constant_path_text);
            if !receiver.as_deref().is_some_and(|r| matches!(constant_tail(r), "Struct" | "OpenStruct")) {
                return;
            }
        }
        let mut names = Vec::new();
        for argument in &arguments[skip..] {
            if !literal_names(argument, &mut names) && NAMES_METHODS.contains(&&*method) {
                // A computed name: the target may answer to anything.
                self.mark_target_dynamic(call);
            }
        }
        let writers = matches!(&*method, "attr_writer" | "attr_accessor" | "new" | "member" | "define");
        for name in names {
            if writers {
                self.facts.anywhere.insert(format!("{name}="));
            }
            self.facts.anywhere.insert(name);
        }
    }
}

/// The offsets of the `def`s a class body runs as its own statements
/// (`private def x` among them), not inside a branch or a `begin`.
fn own_defs(body: &Node<'_>) -> HashSet<usize> {
    let mut out = HashSet::default();
    let mut note = |statement: &Node<'_>| {
        if let Some(def) = statement.as_def_node() {
            out.insert(def.as_node().location().start() as usize);
        }
        // `private def x`, `private_class_method def self.y`.
        if let Some(call) = statement.as_call_node().filter(|c| c.receiver().is_none()) {
            for argument in call.arguments().iter().flat_map(|a| a.arguments().iter()) {
                if let Some(def) = argument.as_def_node() {
                    out.insert(def.as_node().location().start() as usize);
                }
            }
        }
    };
    match body.as_statements_node() {
        Some(list) => list.body().iter().for_each(|statement| note(&statement)),
        None => note(body),
    }
    out
}

/// The class and module bodies a file surely opens when it loads: its own
/// statements, and theirs within such bodies, up to a statement that may
/// end the file early (`return unless defined?(X)`). One in an `if`, a
/// `begin`, a block or a method may never be opened.
fn surely_opened(root: &Node<'_>) -> HashSet<usize> {
    fn statements<'pr>(body: Option<Node<'pr>>) -> Vec<Node<'pr>> {
        match body {
            Some(body) => match body.as_statements_node() {
                Some(list) => list.body().iter().collect(),
                None => vec![body],
            },
            None => Vec::new(),
        }
    }
    fn walk(list: Vec<Node<'_>>, out: &mut HashSet<usize>, top: bool) {
        for statement in list {
            match &statement {
                Node::ClassNode { .. } => {
                    out.insert(statement.location().start() as usize);
                    walk(statements(statement.as_class_node().and_then(|c| c.body())), out, false);
                }
                Node::ModuleNode { .. } => {
                    out.insert(statement.location().start() as usize);
                    walk(statements(statement.as_module_node().and_then(|m| m.body())), out, false);
                }
                // A file may stop loading here.
                _ if top && may_return(&statement) => return,
                _ => {}
            }
        }
    }
    /// `return`, or an `if`/`unless` with one among its own statements.
    fn may_return(statement: &Node<'_>) -> bool {
        let returns = |body: Option<ruby_prism::StatementsNode<'_>>| {
            body.is_some_and(|list| list.body().iter().any(|s| matches!(s, Node::ReturnNode { .. })))
        };
        match statement {
            Node::ReturnNode { .. } => true,
            Node::IfNode { .. } => {
                let node = statement.as_if_node().expect("an if");
                returns(node.statements()) || node.subsequent().is_some_and(|other| may_return(&other))
            }
            Node::ElseNode { .. } => returns(statement.as_else_node().expect("an else").statements()),
            Node::UnlessNode { .. } => {
                let node = statement.as_unless_node().expect("an unless");
                returns(node.statements()) || node.else_clause().is_some_and(|other| returns(other.statements()))
            }
            _ => false,
        }
    }
    let mut out = HashSet::default();
    if let Some(program) = root.as_program_node() {
        walk(program.statements().body().iter().collect(), &mut out, true);
    }
    out
}

/// The file's `def`s that are not public (the scan is skipped where no
/// word could make one so).
fn hidden_defs(parsed: &ParsedFile<'_>) -> HashMap<usize, crate::infer::Visibility> {
    let mentions = |word: &[u8]| memchr::memmem::find(parsed.source, word).is_some();
    if mentions(b"private") || mentions(b"protected") {
        crate::infer::restricted_defs(&parsed.root())
    } else {
        HashMap::default()
    }
}

/// Does a `class << self` body call `private` or `protected` (in any
/// form)? Then which of its `def`s stay public is not worked out.
fn changes_visibility(body: &Node<'_>) -> bool {
    let hides = |statement: &Node<'_>| {
        statement.as_call_node().is_some_and(|call| {
            call.receiver().is_none() && matches!(&*crate::syntax::name_text(call.name()), "private" | "protected")
        })
    };
    match body.as_statements_node() {
        Some(list) => list.body().iter().any(|statement| hides(&statement)),
        None => hides(body),
    }
}

/// What `self` is in the block of `call`.
fn block_self(call: &CallNode<'_>) -> BlockSelf {
    let method = crate::syntax::name_text(call.name());
    if RUN_ON_RECEIVER.contains(&&*method) {
        return match call.receiver() {
            None | Some(Node::SelfNode { .. }) => BlockSelf::Kept,
            Some(receiver) => match constant_path_text(&receiver) {
                Some(class) => BlockSelf::On(class.trim_start_matches("::").to_string()),
                None => BlockSelf::Unnamed,
            },
        };
    }
    BlockSelf::Kept
}

/// Does the node name a method that makes methods (`:attr_writer`)?
fn names_a_maker(node: &Node<'_>) -> bool {
    let mut names = Vec::new();
    literal_names(node, &mut names);
    names.iter().any(|name| NAMES_METHODS.contains(&name.as_str()))
}

impl Collector {
    /// `public` other than written plainly in a class body (whose own
    /// visibility the rules read there): through `send`, in a block run
    /// on the class, in a method, on a receiver.
    fn made_public(&mut self, call: &CallNode<'_>, names: &[Node<'_>], sent: bool) {
        let in_body = !sent
            && self.blocks == 0
            && self.defs == 0
            && !self.lexical.is_empty()
            && matches!(call.receiver(), None | Some(Node::SelfNode { .. }));
        if in_body {
            return;
        }
        let mut written = Vec::new();
        for name in names {
            if !literal_names(name, &mut written) {
                self.facts.public_computed = true;
            }
        }
        self.facts.made_public.extend(written);
    }

    /// Names hidden by name, wherever (`private :x`, `private_class_method
    /// :build`, `K.send(:private, :y)`); `private def x` is the scan's.
    fn made_private(&mut self, names: &[Node<'_>]) {
        let mut written = Vec::new();
        for name in names {
            // `private def x` is the scan's; `private attr_reader :x`
            // hides names that are not `def`s.
            let defines =
                name.as_call_node().is_some_and(|c| DEFINING_CALLS.contains(&&*crate::syntax::name_text(c.name())));
            if defines {
                continue;
            }
            if let Some(def) = name.as_def_node() {
                // The scan reads class bodies' instance methods alone.
                if def.receiver().is_some() {
                    written.push(crate::syntax::name(def.name()));
                }
                continue;
            }
            if !literal_names(name, &mut written) {
                self.facts.private_computed = true;
            }
        }
        self.facts.made_private.extend(written);
    }

    /// The `def` just entered, as calls from other files see it, when it
    /// is defined in a class body.
    fn note_shape(&mut self, node: &ruby_prism::DefNode<'_>, method: &str, side: Owner) {
        let Some((class, false)) = self.lexical.last() else { return };
        if self.blocks != 0 {
            return;
        }
        let offset = node.as_node().location().start() as usize;
        let restricted = match (node.receiver(), side) {
            (None, Owner::Instance) => self.restricted.contains_key(&offset),
            (None, Owner::Singleton) => self.singleton_restricted,
            _ => false,
        };
        let conditional =
            self.maybe_opened > 0 || !self.direct_defs.last().is_some_and(|direct| direct.contains(&offset));
        let arity = crate::syntax::arity::DefArity::of(node);
        let shape = DefShape { class: class.clone(), side, arity, restricted, conditional };
        self.facts.def_shapes.entry(method.to_string()).or_default().push(shape);
    }

    /// `Bar = Foo`: a class may be reopened under the other name.
    fn note_alias(&mut self, value: &Node<'_>) {
        if let Some(written) = constant_path_text(value) {
            self.facts.class_aliases.insert(constant_tail(&written).to_string());
        }
    }

    /// See [`crate::syntax::sends_to_a_class_object`].
    fn sends_to_a_class_object(&self, call: &CallNode<'_>) -> bool {
        let in_module_of_classes = self
            .lexical
            .last()
            .is_some_and(|(class, is_module)| *is_module || matches!(class.as_str(), "Module" | "Class"));
        crate::syntax::sends_to_a_class_object(call.receiver(), self.in_instance_method(), in_module_of_classes)
    }

    /// In an instance method of the class or module around it?
    fn in_instance_method(&self) -> bool {
        self.instance_defs.last() == Some(&true)
    }

    /// The class a defining call works on (`self`'s class in a class
    /// body, or a constant receiver) answers to methods nobody can list.
    fn mark_target_dynamic(&mut self, call: &CallNode<'_>) {
        let on_self = matches!(call.receiver(), None | Some(Node::SelfNode { .. }));
        // In a block run on a class written as a constant: that class's;
        // on one no name shows (`k.class_exec { remove_method n }`): any.
        match self.block_selves.iter().rev().find(|s| **s != BlockSelf::Kept) {
            Some(BlockSelf::On(class)) if on_self => {
                self.facts.dynamic_classes.insert(class.clone());
                return;
            }
            Some(BlockSelf::Unnamed) if on_self => {
                self.facts.defines_on_unknown = true;
                return;
            }
            _ => {}
        }
        let target = match call.receiver() {
            // At the top level, `self` is main: `include` there reaches Object.
            None if self.lexical.is_empty() && self.blocks == 0 => Some("Object".to_string()),
            None | Some(Node::SelfNode { .. }) => self.lexical.last().map(|(class, _)| class.clone()),
            Some(receiver) => constant_path_text(&receiver).map(|w| w.trim_start_matches("::").to_string()),
        };
        // In an instance method of a module, `self` is whatever extends it;
        // of `Module` or `Class` reopened, any class (then every class may
        // answer to methods nobody can list).
        match self.lexical.last() {
            Some((class, _))
                if on_self && self.in_instance_method() && matches!(class.as_str(), "Module" | "Class") =>
            {
                self.facts.dynamic_classes.insert("Object".to_string());
            }
            Some((module, true)) if on_self && self.in_instance_method() => {
                self.facts.makers.insert(module.clone());
            }
            _ => {}
        }
        match target {
            Some(target) => {
                self.facts.dynamic_classes.insert(target);
            }
            // A class no name shows (`klass.define_method(n)`, a hook's
            // `base`): any class's methods may be replaced.
            None if call.receiver().is_some() => {
                self.facts.defines_on_unknown = true;
            }
            None => {}
        }
    }

    /// `include M`, `C.prepend(M)`, `extend M`: remembered per target, so
    /// a rule can ask whether M provides a method. A computed module
    /// leaves the target's methods unknown.
    fn mixin(&mut self, call: &CallNode<'_>, method: &str, arguments: &[Node<'_>]) {
        let written: Vec<String> = arguments.iter().filter_map(constant_path_text).collect();
        // `Singleton` makes `new` private wherever it is mixed in.
        if written.iter().any(|m| constant_tail(m) == "Singleton") {
            self.facts.made_private.insert("new".to_string());
        }
        let on_self = matches!(call.receiver(), None | Some(Node::SelfNode { .. }));
        // In a block run on a class (`Bag.class_eval { include M }`): that
        // class's, or, on one no name shows, some class's.
        let block_self = self.block_selves.iter().rev().find(|s| **s != BlockSelf::Kept).cloned();
        let on_object =
            call.receiver().is_some_and(|r| !matches!(r, Node::SelfNode { .. }) && constant_path_text(&r).is_none())
                || (on_self && block_self == Some(BlockSelf::Unnamed));
        if on_object {
            let modules = written.iter().map(|m| m.trim_start_matches("::").to_string());
            match method {
                "extend" => self.facts.objects_extended.extend(modules),
                _ => self.facts.mixed_into_unnamed.extend(modules),
            }
            if written.len() < arguments.len() {
                self.facts.computed_into_unnamed = true;
            }
        }
        let target = match (call.receiver(), block_self) {
            (_, Some(BlockSelf::On(class))) if on_self => Some(class),
            (_, Some(BlockSelf::Unnamed)) if on_self => None,
            (None, _) if self.lexical.is_empty() && self.blocks == 0 => Some("Object".to_string()),
            (None | Some(Node::SelfNode { .. }), _) => self.lexical.last().map(|(class, _)| class.clone()),
            (Some(receiver), _) => constant_path_text(&receiver).map(|w| w.trim_start_matches("::").to_string()),
        };
        let Some(target) = target else { return };
        let side = if method == "extend" { Owner::Singleton } else { Owner::Instance };
        for argument in arguments {
            let anonymous = argument
                .as_local_variable_read_node()
                .and_then(|read| self.anonymous_modules.get(read.name().as_slice()));
            if let Some(included) = anonymous {
                let included = included.clone();
                self.facts.mixins.entry((target.clone(), side)).or_default().extend(included);
                continue;
            }
            match constant_path_text(argument) {
                Some(module) => {
                    let module = module.trim_start_matches("::").to_string();
                    if method == "prepend" {
                        self.facts.prepended.entry(target.clone()).or_default().insert(module.clone());
                    }
                    self.facts.mixins.entry((target.clone(), side)).or_default().insert(module);
                }
                None => {
                    self.facts.dynamic_classes.insert(target.clone());
                }
            }
        }
    }

    /// Code evaluated from a string: the methods its literal text defines
    /// are the target's; text we cannot read makes the target dynamic.
    fn string_eval(&mut self, call: &CallNode<'_>, method: &str) {
        let Some(code) = call.arguments().and_then(|a| a.arguments().iter().next()) else { return };
        let target = match call.receiver() {
            // Plain `eval` defines on `self` only at class-body level.
            None if method == "eval" && self.blocks > 0 => None,
            None | Some(Node::SelfNode { .. }) => self.lexical.last().map(|(class, _)| class.clone()),
            Some(receiver) => constant_path_text(&receiver).map(|w| w.trim_start_matches("::").to_string()),
        };
        let Some(target) = target else { return };
        match crate::syntax::evaluated_definitions(&code) {
            Some(names) => {
                for name in names {
                    self.facts.by_class.entry((target.clone(), Owner::Instance)).or_default().insert(name.clone());
                    self.facts.by_class.entry((target.clone(), Owner::Singleton)).or_default().insert(name);
                }
            }
            None => {
                self.facts.dynamic_classes.insert(target);
            }
        }
    }
}

/// Symbol and string literals in an argument, also inside array and hash
/// literals (`delegate [:a, :b] => :target`). False when the argument is
/// computed, so the names it gives cannot be read.
fn literal_names(node: &Node<'_>, out: &mut Vec<String>) -> bool {
    ensure_room();
    match node {
        Node::SymbolNode { .. } => {
            if let Some(symbol) = node.as_symbol_node() {
                out.push(crate::syntax::decoded(symbol.unescaped()).into_owned());
            }
            true
        }
        Node::StringNode { .. } => {
            if let Some(string) = node.as_string_node() {
                out.push(crate::syntax::decoded(string.unescaped()).into_owned());
            }
            true
        }
        Node::ArrayNode { .. } => {
            let mut all = true;
            if let Some(array) = node.as_array_node() {
                for element in array.elements().iter() {
                    all &= literal_names(&element, out);
                }
            }
            all
        }
        Node::HashNode { .. } | Node::KeywordHashNode { .. } => {
            let elements: Vec<Node<'_>> = match (node.as_hash_node(), node.as_keyword_hash_node()) {
                (Some(hash), _) => hash.elements().iter().collect(),
                (_, Some(hash)) => hash.elements().iter().collect(),
                _ => Vec::new(),
            };
            let mut all = true;
            for element in elements {
                match element.as_assoc_node() {
                    Some(assoc) => {
                        all &= literal_names(&assoc.key(), out);
                        // Values name targets (`=> :@obj`), not methods.
                        literal_names(&assoc.value(), out);
                    }
                    None => all = false,
                }
            }
            all
        }
        // Values that are not names (`attr :x, true`, `def_delegators :@a`).
        Node::TrueNode { .. } | Node::FalseNode { .. } | Node::NilNode { .. } => true,
        // Blocks and procs define bodies, not names.
        Node::BlockArgumentNode { .. } | Node::LambdaNode { .. } => true,
        _ => false,
    }
}

/// `Module.new { include X; ... }`: the modules it includes, as written;
/// `None` for anything else (or a computed include inside).
fn anonymous_module(value: &Node<'_>) -> Option<Vec<String>> {
    let call = value.as_call_node()?;
    if name(call.name()) != "new" || call.receiver().as_ref().and_then(constant_path_text).as_deref() != Some("Module")
    {
        return None;
    }
    let block = call.block()?.as_block_node()?;
    let mut included = Vec::new();
    if let Some(body) = block.body() {
        let statements: Vec<Node<'_>> = match body.as_statements_node() {
            Some(list) => list.body().iter().collect(),
            None => Vec::new(),
        };
        for statement in statements {
            // Methods defined under computed names (`define_method(n)` in a
            // loop): it may give anything names nobody can list.
            if makes_computed_names(&statement) {
                return None;
            }
            let Some(inner) = statement.as_call_node() else { continue };
            if !matches!(name(inner.name()).as_str(), "include" | "prepend") {
                continue;
            }
            for argument in inner.arguments()?.arguments().iter() {
                included.push(constant_path_text(&argument)?.trim_start_matches("::").to_string());
            }
        }
    }
    Some(included)
}

/// Does the code call a method-defining method on `self` with a name it
/// computes (`define_method(n)`, `alias_method n, :x`), anywhere inside?
fn makes_computed_names(node: &Node<'_>) -> bool {
    struct Finder(bool);
    impl<'pr> Visit<'pr> for Finder {
        fn visit_call_node(&mut self, call: &CallNode<'pr>) {
            let on_self = matches!(call.receiver(), None | Some(Node::SelfNode { .. }));
            if on_self && NAMES_METHODS.contains(&&*crate::syntax::name_text(call.name())) {
                let mut names = Vec::new();
                let arguments = call.arguments().into_iter().flat_map(|a| a.arguments().iter());
                if arguments.into_iter().any(|argument| !literal_names(&argument, &mut names)) {
                    self.0 = true;
                }
            }
            ruby_prism::visit_call_node(self, call);
        }
        fn visit_def_node(&mut self, _node: &ruby_prism::DefNode<'pr>) {}
    }
    let mut finder = Finder(false);
    finder.visit(node);
    finder.0
}

impl<'pr> Visit<'pr> for Collector {
    fn visit_branch_node_enter(&mut self, _node: Node<'pr>) {
        ensure_room();
    }

    fn visit_class_node(&mut self, node: &ruby_prism::ClassNode<'pr>) {
        if let Some(superclass) = node.superclass() {
            if let Some(written) = constant_path_text(&superclass) {
                self.facts.subclassed.insert(constant_tail(&written).to_string());
            }
            self.visit(&superclass);
        }
        let entered = self.enter(constant_path_text(&node.constant_path()), false);
        let (side, blocks) = (self.side, self.blocks);
        (self.side, self.blocks) = (Owner::Instance, if entered { 0 } else { blocks + 1 });
        let maybe = !self.surely_opened.contains(&(node.as_node().location().start() as usize));
        self.maybe_opened += maybe as usize;
        self.direct_defs.push(node.body().map(|body| own_defs(&body)).unwrap_or_default());
        if let Some(body) = node.body() {
            self.visit(&body);
        }
        self.direct_defs.pop();
        self.maybe_opened -= maybe as usize;
        (self.side, self.blocks) = (side, blocks);
        if entered {
            self.lexical.pop();
        }
    }

    fn visit_module_node(&mut self, node: &ruby_prism::ModuleNode<'pr>) {
        let entered = self.enter(constant_path_text(&node.constant_path()), true);
        let (side, blocks) = (self.side, self.blocks);
        (self.side, self.blocks) = (Owner::Instance, if entered { 0 } else { blocks + 1 });
        let maybe = !self.surely_opened.contains(&(node.as_node().location().start() as usize));
        self.maybe_opened += maybe as usize;
        if let Some(body) = node.body() {
            self.visit(&body);
        }
        self.maybe_opened -= maybe as usize;
        (self.side, self.blocks) = (side, blocks);
        if entered {
            self.lexical.pop();
        }
    }

    fn visit_singleton_class_node(&mut self, node: &ruby_prism::SingletonClassNode<'pr>) {
        let on_self = matches!(node.expression(), Node::SelfNode { .. });
        let (side, blocks, restricted) = (self.side, self.blocks, self.singleton_restricted);
        // `class << self` inside another is the metaclass's: as unknown
        // an object as `class << obj`.
        if on_self && side == Owner::Instance {
            self.side = Owner::Singleton;
            self.singleton_restricted = node.body().is_some_and(|body| changes_visibility(&body));
        } else {
            // `class << obj`: methods for one object of any class.
            self.blocks += 1;
        }
        self.direct_defs.push(node.body().map(|body| own_defs(&body)).unwrap_or_default());
        if let Some(body) = node.body() {
            self.visit(&body);
        }
        self.direct_defs.pop();
        (self.side, self.blocks, self.singleton_restricted) = (side, blocks, restricted);
    }

    fn visit_def_node(&mut self, node: &ruby_prism::DefNode<'pr>) {
        let method = name(node.name());
        *self.facts.def_counts.entry(method.clone()).or_default() += 1;
        // `respond_to_missing?` comes with a `method_missing` somewhere
        // (perhaps a mixin's): the class answers to names nobody lists.
        let answers_anything = method == "method_missing" || method == "respond_to_missing?";
        if answers_anything && node.receiver().is_none() {
            match (self.lexical.last(), self.blocks) {
                (Some((class, _)), _) => {
                    self.facts.dynamic_classes.insert(class.clone());
                }
                (None, 0) => {
                    self.facts.dynamic_classes.insert("Object".to_string());
                }
                // In a block at the top level: some object's, not Object's.
                (None, _) => {}
            }
        }
        match node.receiver() {
            None => {
                self.note_shape(node, &method, self.side);
                self.add(method, self.side)
            }
            // `def self.x` in `class << self` is the metaclass's.
            Some(Node::SelfNode { .. }) if self.side == Owner::Singleton => {
                self.facts.anywhere.insert(method);
            }
            Some(Node::SelfNode { .. }) => {
                self.note_shape(node, &method, Owner::Singleton);
                self.add(method, Owner::Singleton)
            }
            Some(_) => {
                self.facts.anywhere.insert(method);
            }
        }
        // Defs inside a method body run later, for whoever calls it.
        self.blocks += 1;
        self.defs += 1;
        self.instance_defs.push(node.receiver().is_none() && self.side == Owner::Instance);
        // A method body has a `self` of its own, whatever blocks it is in.
        let block_selves = std::mem::take(&mut self.block_selves);
        ruby_prism::visit_def_node(self, node);
        self.block_selves = block_selves;
        self.instance_defs.pop();
        self.defs -= 1;
        self.blocks -= 1;
    }

    fn visit_alias_method_node(&mut self, node: &ruby_prism::AliasMethodNode<'pr>) {
        // `alias aw attr_writer` (in `class << self`): see `defining_call`.
        if names_a_maker(&node.old_name()) {
            self.facts.dynamic_classes.insert("Object".to_string());
        }
        let mut names = Vec::new();
        literal_names(&node.new_name(), &mut names);
        for name in names {
            self.add(name, self.side);
        }
    }

    fn visit_constant_write_node(&mut self, node: &ruby_prism::ConstantWriteNode<'pr>) {
        self.note_alias(&node.value());
        ruby_prism::visit_constant_write_node(self, node);
    }

    fn visit_constant_path_write_node(&mut self, node: &ruby_prism::ConstantPathWriteNode<'pr>) {
        self.note_alias(&node.value());
        ruby_prism::visit_constant_path_write_node(self, node);
    }

    fn visit_local_variable_write_node(&mut self, node: &ruby_prism::LocalVariableWriteNode<'pr>) {
        if let Some(included) = anonymous_module(&node.value()) {
            self.anonymous_modules.insert(node.name().as_slice().to_vec(), included);
        }
        ruby_prism::visit_local_variable_write_node(self, node);
    }

    fn visit_call_node(&mut self, node: &CallNode<'pr>) {
        if self.defs == 0 {
            self.required.extend(requirement(node));
        }
        self.defining_call(node);
        let with_block = node.block().is_some_and(|b| matches!(b, Node::BlockNode { .. }));
        if with_block {
            self.block_selves.push(block_self(node));
        }
        ruby_prism::visit_call_node(self, node);
        if with_block {
            self.block_selves.pop();
        }
    }

    fn visit_block_node(&mut self, node: &ruby_prism::BlockNode<'pr>) {
        self.blocks += 1;
        ruby_prism::visit_block_node(self, node);
        self.blocks -= 1;
    }

    fn visit_lambda_node(&mut self, node: &ruby_prism::LambdaNode<'pr>) {
        self.blocks += 1;
        ruby_prism::visit_lambda_node(self, node);
        self.blocks -= 1;
    }
}

/// Does `path` name the file a library would keep `class` in: its
/// segments, spelled as constants are (`rubo_cop` and `rubocop` both
/// `RuboCop`), ending the path (`lib/shop/price.rb` for `Shop::Price`)?
fn names_its_file(class: &str, path: &str) -> bool {
    let Some(stem) = path.strip_suffix(".rb") else { return false };
    let mut folders = stem.rsplit(['/', '\\']);
    class.rsplit("::").all(|segment| folders.next().is_some_and(|f| constant_spelling(f) == constant_spelling(segment)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(sources: &[&str]) -> ProjectFacts {
        sources
            .iter()
            .enumerate()
            .map(|(i, s)| ProjectFacts::of_file(&ParsedFile::parse(s.as_bytes()), &format!("f{i}.rb")))
            .fold(ProjectFacts::default(), ProjectFacts::merge)
            .settle()
    }

    #[test]
    fn class_bodies_give_methods_to_their_class_and_modules_to_anyone() {
        let f = facts(&[
            "class String\n  def shout; end\n  def self.make; end\nend\nmodule Loud\n  def roar; end\nend\n",
            "class A::B\n  attr_accessor :size\n  class << self\n    def build; end\n  end\nend\n",
        ]);
        assert!(f.may_define(&["String"], Owner::Instance, "shout"));
        assert!(!f.may_define(&["Integer"], Owner::Instance, "shout"));
        assert!(f.may_define(&["String"], Owner::Singleton, "make"));
        assert!(!f.may_define(&["String"], Owner::Instance, "make"));
        assert!(f.may_define(&["Integer"], Owner::Instance, "roar"), "module methods reach anything");
        assert!(f.may_define(&["Integer"], Owner::Instance, "size="), "attr_accessor writes are anyone's");
        assert!(f.may_define(&["A::B"], Owner::Singleton, "build"));
        assert!(!f.may_define(&["A::B"], Owner::Instance, "build"));
    }

    #[test]
    fn reopened_classes_string_evals_and_method_missing_are_noticed() {
        let f = facts(&[
            "class A\nend\nclass S\n  class_eval(code)\nend\n",
            "class A\n  def method_missing(*) = 1\nend\nString.class_eval \"def x; end\"\nArray.class_eval \"def #{n}; end\"\n",
        ]);
        assert!(f.is_spread("A"));
        assert!(!f.is_spread("S"));
        assert!(f.any_dynamic(&["A"]));
        assert!(f.any_dynamic(&["S"]));
        assert!(!f.any_dynamic(&["String"]), "literal code: its defs are read");
        assert!(f.may_define(&["String"], Owner::Instance, "x"));
        assert!(f.any_dynamic(&["Array"]), "an interpolated name: anything");
        assert!(!f.any_dynamic(&["Integer"]));
        assert_eq!(f.def_count("method_missing"), 1);
    }

    #[test]
    fn computed_names_and_mixins_make_their_target_dynamic() {
        let f = facts(&[
            "class String\n  NAMES.each { |n| define_method(n) { 1 } }\nend\nArray.send(:define_method, name) { 1 }\n",
            "class Hash\n  include Gem::Stuff\nend\nRange.include(Other)\nclass Symbol\n  attr_reader :label, :size\nend\n",
        ]);
        assert!(f.any_dynamic(&["Array"]), "send(:define_method) with a computed name");
        assert_eq!(f.mixins_of("Hash", Owner::Instance).collect::<Vec<_>>(), ["Gem::Stuff"]);
        assert_eq!(f.mixins_of("Range", Owner::Instance).collect::<Vec<_>>(), ["Other"]);
        assert!(!f.any_dynamic(&["Symbol"]), "literal attribute names are read");
        assert!(f.may_define(&["Integer"], Owner::Instance, "label"));
        // define_method in a block of a class body targets the class too.
        assert!(f.any_dynamic(&["String"]));
        assert!(!f.any_dynamic(&["Integer"]));
        let anonymous = facts(&["m = Module.new {\n  include(Helpers)\n}\ninclude m\n"]);
        assert_eq!(anonymous.mixins_of("Object", Owner::Instance).collect::<Vec<_>>(), ["Helpers"]);
        assert!(!anonymous.any_dynamic(&["Integer"]));
        let kernel = facts(&["module Kernel\n  module_function define_method(:warn) { |*m| 1 }\nend\n"]);
        assert!(!kernel.any_dynamic(&["Integer"]), "module_function of a computed name defines nothing new");
        let top = facts(&["include Comparable\nclass A\n  extend Forwardable\nend\n"]);
        assert_eq!(top.mixins_of("Object", Owner::Instance).collect::<Vec<_>>(), ["Comparable"]);
        assert_eq!(top.mixins_of("A", Owner::Singleton).collect::<Vec<_>>(), ["Forwardable"]);
    }

    #[test]
    fn defs_in_blocks_and_on_objects_belong_to_anyone() {
        let f =
            facts(&["class C\n  included do\n    def hidden; end\n  end\nend\nx = Object.new\ndef x.single; end\n"]);
        assert!(f.may_define(&["Integer"], Owner::Instance, "hidden"));
        assert!(f.may_define(&["Integer"], Owner::Instance, "single"));
    }
}
