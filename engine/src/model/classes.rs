//! What is known of a class or module: its place in the hierarchy and its
//! methods. One file's `class` bodies build these (`infer::index`); the
//! project index merges every file's into one per name.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::types::Name;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum Side {
    Instance,
    Singleton,
}

/// How a class's superclass is known.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Superclass {
    /// No `<`: Object (for classes), or none (for modules).
    Implicit,
    Known(Name),
    /// Something nobody can resolve: its methods are unknown.
    Unknown,
}

/// What a method name maps to in a user class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum MethodEntry {
    Def(usize),
    /// `attr_reader`: returns the instance variable (index into `ivar_names`).
    Reader(usize),
    /// `attr_writer`: returns its argument.
    Writer,
    /// `define_method` and the like: exists, returns something unknown.
    Opaque,
    /// Defined in another file of the project: the project index's method
    /// number, whose return type that file's summary gave.
    External(u32),
}

/// Methods a class is given under names computed at run time
/// (`define_method("#{name}?")` in its body or its class methods, which
/// its subclasses call too): any name with this prefix and suffix (both
/// empty: any name at all) may have a body nobody can see, in the class and
/// in every class below it that does not define the name itself.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct MadeMethods {
    pub side: Side,
    pub prefix: String,
    pub suffix: String,
}

impl MadeMethods {
    pub fn covers(&self, side: Side, method: &str) -> bool {
        self.side == side
            && method.len() >= self.prefix.len() + self.suffix.len()
            && method.starts_with(&self.prefix)
            && method.ends_with(&self.suffix)
    }
}

/// Methods some code gives a class from outside its body under names
/// computed at run time (`Foo.define_method(n)`, `k.send(:alias_method,
/// "x_#{n}", :x)`, `define_method(n)` in `String.class_eval`), or takes
/// away (`remove_method`): the class, and every class below it that does
/// not define the name itself, may answer a covered name with a body
/// nobody can see.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct MadeOn {
    /// The class as written where the call is, or
    /// [`crate::model::index::ANY_CLASS`] when no name shows (`k.define_method`).
    pub class: String,
    /// Whether the signatures declare the class (or it may be any class):
    /// then a core value's method may be the one replaced.
    pub core: bool,
    /// Whether what it makes may reach a value of any class: it names no
    /// class, or `Object`, `Kernel`, `BasicObject` or a module the
    /// signatures declare (mixed into core classes).
    pub everywhere: bool,
    pub made: MadeMethods,
}

impl MadeOn {
    /// Does it cover `method` on `side` of `class` (compared as
    /// [`crate::model::index::replaced_on`] compares: by the last segment)?
    pub fn covers(&self, class: &str, side: Side, method: &str) -> bool {
        use crate::model::index::{constant_tail, ANY_CLASS};
        self.made.covers(side, method)
            && (self.class == ANY_CLASS || constant_tail(&self.class) == constant_tail(class))
    }

    /// Does any of `list` cover `method` on `side` of `class`? The class's
    /// last segment is worked out once, when an entry first needs it.
    pub fn any_covers<'m>(list: impl IntoIterator<Item = &'m MadeOn>, class: &str, side: Side, method: &str) -> bool {
        use crate::model::index::{constant_tail, ANY_CLASS};
        let mut tail = None;
        list.into_iter().any(|made| {
            made.made.covers(side, method)
                && (made.class == ANY_CLASS
                    || constant_tail(&made.class) == *tail.get_or_insert_with(|| constant_tail(class)))
        })
    }

    /// May it replace a core value's `method` (its class is one the
    /// signatures declare, or any)? Then the core's answer for the name
    /// is not certain, as after `def obj.name`.
    pub fn reaches_core(&self, method: &str) -> bool {
        self.core && self.made.covers(self.made.side, method)
    }

    /// As [`Self::reaches_core`], for a value of the core class `class`
    /// alone (`CSV.send(*args)` may replace CSV's methods, not String's).
    pub fn reaches_core_of(&self, method: &str, class: &str) -> bool {
        use crate::model::index::{constant_tail, core_def_reaches};
        self.reaches_core(method) && (self.everywhere || core_def_reaches(constant_tail(&self.class), class))
    }
}

/// Every file's [`MadeOn`]s, by the last segment of the class each names:
/// a lookup, asked at every call of a method, then reads only the entries
/// that may cover its class, not every computed-name call of the project.
#[derive(Debug, Default, Clone)]
pub struct MadeOnTable {
    /// Those naming no class ([`crate::model::index::ANY_CLASS`]).
    any_class: Vec<MadeMethods>,
    by_tail: HashMap<String, Vec<MadeMethods>>,
}

impl MadeOnTable {
    pub fn of<'m>(list: impl IntoIterator<Item = &'m MadeOn>) -> MadeOnTable {
        use crate::model::index::{constant_tail, ANY_CLASS};
        let mut table = MadeOnTable::default();
        for made in list {
            if made.class == ANY_CLASS {
                table.any_class.push(made.made.clone());
            } else {
                table.by_tail.entry(constant_tail(&made.class).to_owned()).or_default().push(made.made.clone());
            }
        }
        table
    }

    /// What [`MadeOn::any_covers`] answers for the listed entries.
    pub fn covers(&self, class: &str, side: Side, method: &str) -> bool {
        self.naming(std::slice::from_ref(&class)).any(|made| made.covers(side, method))
    }

    /// Does an entry that may make a method of one of `classes` cover
    /// `method` on `side`? What `naming(classes).any(covers)` answers,
    /// walking whichever side is shorter: a base class of plugins has
    /// hundreds of classes below it, a project only a few such entries.
    pub fn covers_any_of<C: AsRef<str>>(&self, classes: &[C], side: Side, method: &str) -> bool {
        use crate::model::index::constant_tail;
        if self.by_tail.len() >= classes.len() {
            return self.naming(classes).any(|made| made.covers(side, method));
        }
        self.any_class.iter().any(|made| made.covers(side, method))
            || self.by_tail.iter().any(|(tail, made)| {
                made.iter().any(|made| made.covers(side, method))
                    && classes.iter().any(|class| constant_tail(class.as_ref()) == tail.as_str())
            })
    }

    /// The entries that may make a method of one of `classes` (each
    /// compared by its last segment), with those naming no class.
    pub fn naming<'t, C: AsRef<str>>(&'t self, classes: &'t [C]) -> impl Iterator<Item = &'t MadeMethods> + 't {
        let named =
            classes.iter().filter_map(|class| self.by_tail.get(crate::model::index::constant_tail(class.as_ref())));
        self.any_class.iter().chain(named.flatten())
    }
}

/// Marks, in [`UserClass::initialized_ivars`], a class whose `initialize`
/// has several bodies (defined twice, in one file or in two): none of them
/// can be said to be the one that runs.
pub const INITIALIZE_REDEFINED: &str = "<initialize-redefined>";

/// The relation a written constant path stands in to a class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum PendingKind {
    Superclass,
    Include,
    Extend,
    Prepend,
    /// `obj.extend(M)` in the class's code: M's methods answer on some
    /// objects of classes nobody can name, ahead of their own.
    ObjectExtend,
    /// `base.extend(M)` in the module's `def self.included(base)`: every
    /// class that includes the module extends M (and M may reach objects
    /// as through [`PendingKind::ObjectExtend`]).
    IncluderExtend,
    /// Not a relation but a fact for resolving the superclass: a class or
    /// module (full name) the file opens only after the `class` line that
    /// names the superclass. Ruby looks the superclass up when that line
    /// runs, so it is not this one, unless the signatures or another file
    /// define it (which may have loaded first).
    OpenedLater,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct UserClass {
    pub name: Name,
    pub is_module: bool,
    pub superclass: Superclass,
    pub includes: Vec<Name>,
    pub extends: Vec<Name>,
    pub prepends: Vec<Name>,
    /// A mixin nobody can resolve: its methods could be anything.
    pub unknown_mixins: bool,
    /// A mixin written as something other than a constant path.
    pub computed_mixins: bool,
    pub instance_methods: HashMap<String, MethodEntry>,
    pub singleton_methods: HashMap<String, MethodEntry>,
    /// Instance variables others may set (`attr_writer`, `instance_variable_set`).
    pub ivars_set_from_outside: HashSet<String>,
    pub ivars_opaque: bool,
    /// A module's: the instance variables its instance methods write
    /// (sorted), which land in any object it is mixed into.
    #[serde(default)]
    pub ivars_written: Vec<String>,
    /// Instance variables `initialize` assigns in its straight-line body.
    pub initialized_ivars: HashSet<String>,
    pub has_method_missing: bool,
    /// `extend self`: instance methods answer on the module too.
    pub extends_self: bool,
    /// Methods defined more than once (conditionally, or redefined): every
    /// `def` of the name, since any of them may be the one that runs.
    pub redefined: HashMap<(Side, String), Vec<usize>>,
    /// Superclass and mixin paths as written, in order; resolved once every
    /// class is known (in the file, then in the project).
    pub written: Vec<(PendingKind, String)>,
    pub(crate) pending: Vec<(PendingKind, String)>,
    /// The lexical scope the class was opened in (for resolving `written`).
    pub lexical: Vec<Name>,
    /// Also opened by another file of the project: this file does not see
    /// all of it.
    pub spread: bool,
    /// Names it is given at run time (see [`MadeMethods`]).
    #[serde(default)]
    pub made_methods: Vec<MadeMethods>,
    /// Names a module's instance methods give whatever extends it (see
    /// [`MadeMethods`]): `def flag(n) = define_method("#{n}?")`.
    #[serde(default)]
    pub made_for_extenders: Vec<MadeMethods>,
    /// Modules its `included` hook extends every includer with
    /// ([`PendingKind::IncluderExtend`]).
    #[serde(default)]
    pub includer_extends: Vec<Name>,
}

impl UserClass {
    pub fn new(name: Name, is_module: bool, lexical: Vec<Name>) -> UserClass {
        UserClass {
            name,
            is_module,
            superclass: Superclass::Implicit,
            includes: Vec::new(),
            extends: Vec::new(),
            prepends: Vec::new(),
            unknown_mixins: false,
            computed_mixins: false,
            instance_methods: HashMap::default(),
            singleton_methods: HashMap::default(),
            ivars_set_from_outside: HashSet::default(),
            ivars_opaque: false,
            ivars_written: Vec::new(),
            initialized_ivars: HashSet::default(),
            has_method_missing: false,
            extends_self: false,
            redefined: HashMap::default(),
            written: Vec::new(),
            pending: Vec::new(),
            lexical,
            spread: false,
            made_methods: Vec::new(),
            made_for_extenders: Vec::new(),
            includer_extends: Vec::new(),
        }
    }

    /// Notes names it is given at run time (once each).
    pub fn make(&mut self, made: MadeMethods) {
        if !self.made_methods.contains(&made) {
            self.made_methods.push(made);
        }
    }

    /// Notes names its methods make for whatever extends it (see
    /// `made_for_extenders`).
    pub fn make_for_extenders(&mut self, made: MadeMethods) {
        if !self.made_for_extenders.contains(&made) {
            self.made_for_extenders.push(made);
        }
    }

    /// Is `method` among the names it is given at run time?
    pub fn makes(&self, side: Side, method: &str) -> bool {
        self.made_methods.iter().any(|made| made.covers(side, method))
    }

    pub fn methods(&self, side: Side) -> &HashMap<String, MethodEntry> {
        match side {
            Side::Instance => &self.instance_methods,
            Side::Singleton => &self.singleton_methods,
        }
    }
}

/// An ancestor list built class by class, each entry marked when an
/// `include` put it there, as Ruby orders it: an included module that
/// comes again further up (a superclass includes it too) stays only there,
/// as `include` skips a module the class already has above it.
pub fn drop_reincluded(entries: Vec<(Name, bool)>) -> Vec<Name> {
    let keep: Vec<bool> = entries
        .iter()
        .enumerate()
        .map(|(at, (name, included))| !*included || !entries[at + 1..].iter().any(|(later, _)| later == name))
        .collect();
    entries.into_iter().zip(keep).filter_map(|((name, _), keep)| keep.then_some(name)).collect()
}

/// Adds a module to a class's mixins of one kind unless it is there: a
/// module mixed in again stays where it was (Ruby skips it).
pub fn add_mixin(list: &mut Vec<Name>, module: Name) {
    if !list.contains(&module) {
        list.push(module);
    }
}
