//! Finding a method: this file's `def`s, attribute readers and writers,
//! mixins and superclasses, then the signatures; what `self` answers to
//! when its class cannot be seen completely.

use super::index::{MethodEntry, Side, Superclass};
use super::Inferrer;
use crate::model::classes::{PendingKind, UserClass};
use crate::rbs::FoundMethod;
use crate::types::{Name, Type};

/// Where a method name leads for a receiver class.
pub enum Callee<'e> {
    Rbs(FoundMethod<'e>),
    Def(usize),
    Reader(String),
    Writer,
    /// Exists, but returns something this engine cannot know.
    Opaque,
    /// Defined in another file of the project (the project's method number).
    External(u32),
    /// Not found; `complete` when every ancestor was known, so the call
    /// would raise NoMethodError.
    Missing {
        complete: bool,
    },
}

/// Kernel functions every object answers to, even one whose class this
/// engine cannot see completely.
pub(super) const GLOBAL_FUNCTIONS: &[&str] = &[
    "raise",
    "fail",
    "require",
    "require_relative",
    "load",
    "autoload",
    "puts",
    "print",
    "p",
    "pp",
    "printf",
    "sprintf",
    "format",
    "putc",
    "gets",
    "warn",
    "abort",
    "exit",
    "exit!",
    "sleep",
    "rand",
    "srand",
    "loop",
    "lambda",
    "proc",
    "catch",
    "throw",
    "block_given?",
    "binding",
    "caller",
    "caller_locations",
    "at_exit",
    "Integer",
    "Float",
    "String",
    "Array",
    "Hash",
    "Rational",
    "Complex",
    "system",
    "spawn",
    "__method__",
    "__dir__",
    "trap",
    "fork",
    "exec",
    "select",
    "readlines",
    "readline",
    "local_variables",
    "global_variables",
    "test",
];

/// Module methods every class and module answers to: what class bodies
/// call to define themselves.
pub(super) const MODULE_FUNCTIONS: &[&str] = &[
    "attr_reader",
    "attr_writer",
    "attr_accessor",
    "attr",
    "include",
    "extend",
    "prepend",
    "private",
    "public",
    "protected",
    "module_function",
    "private_constant",
    "public_constant",
    "private_class_method",
    "public_class_method",
    "alias_method",
    "remove_method",
    "undef_method",
    "name",
    "to_s",
    "instance_method",
    "method_defined?",
    "public_method_defined?",
    "private_method_defined?",
    "const_get",
    "const_defined?",
    "include?",
    "ancestors",
    "instance_methods",
];

/// Whether a superclass already has a module mixed in again below it.
enum Inherited {
    No,
    /// The module itself: Ruby skipped it.
    Itself,
    /// A module it includes: that one stays in the superclass's place.
    Within,
}

impl<'a> Inferrer<'_, 'a> {
    /// Finds a method by name for instances (or the class object) of `class`.
    pub fn lookup(&self, class: &str, side: Side, method: &str) -> Callee<'a> {
        self.lookup_in(class, side, method, 0)
    }

    pub(super) fn lookup_in(&self, class: &str, side: Side, method: &str, depth: usize) -> Callee<'a> {
        if depth > 32 {
            return Callee::Missing { complete: false };
        }
        let env: &'a crate::rbs::Environment = self.env;
        if self.replaced_in_block(class, side, method) {
            return Callee::Opaque;
        }
        // Below, only `method`'s entries of the tables are read.
        let Some(user) = self.index.class_for_method(class, method) else {
            let found = match side {
                Side::Instance => env.instance_method(class, method),
                Side::Singleton => env.singleton_method(class, method),
            };
            return match found {
                Some(found) => self.signature_answer(class, found, method),
                None => match self.reopened_root_defining(class, method) {
                    // `class Object; def present?`: `nil.present?` runs it.
                    Some(root) => self.lookup_in(root, Side::Instance, method, depth + 1),
                    None => Callee::Missing { complete: env.has_class(class) },
                },
            };
        };
        let entry = |entry: &MethodEntry| match entry {
            MethodEntry::Def(id) => Callee::Def(*id),
            MethodEntry::Reader(ivar) => Callee::Reader(self.index.ivar_names[*ivar].clone()),
            MethodEntry::Writer => Callee::Writer,
            MethodEntry::Opaque => Callee::Opaque,
            MethodEntry::External(id) => Callee::External(*id),
        };
        let reopened = env.has_class(class);
        // A signature for the method itself beats its body: RBS is the
        // source of truth (a project's sig/ describes its own classes).
        // But the core's and libraries' signatures describe their own
        // bodies: one the project gives the method in their class
        // (`class Symbol; alias_method :length, :to_proc`) replaces it,
        // maybe only once some file is loaded, so neither is certain.
        if self.replaces_library_method(user, class, side, method, depth) {
            return Callee::Opaque;
        }
        if let Some(declared) = env.class(class) {
            let own = match side {
                Side::Instance => declared.instance_methods.contains_key(method),
                Side::Singleton => declared.singleton_methods.contains_key(method),
            };
            let found = match (own, side) {
                (false, _) => None,
                (true, Side::Instance) => env.instance_method(class, method),
                (true, Side::Singleton) => env.singleton_method(class, method),
            };
            if let Some(found) = found {
                return self.signature_answer(class, found, method);
            }
        }
        // `define_method("#{name}?")` here, or by a class method its
        // subclasses call: a body nobody can see, ahead of any other.
        if user.makes(side, method)
            || self.made_by_extension(user, side, method)
            || self.index.made_for_objects(side, method)
            || self.index.made_on(class, side, method)
        {
            return Callee::Opaque;
        }
        match side {
            Side::Instance => {
                // The last prepended runs first (`prepend B; prepend A`:
                // A, B, the class).
                for prepend in user.prepends.iter().rev() {
                    match self.lookup_in(prepend, Side::Instance, method, depth + 1) {
                        Callee::Missing { .. } => {}
                        found => return found,
                    }
                }
                if let Some(found) = user.instance_methods.get(method) {
                    return entry(found);
                }
                for include in user.includes.iter().rev() {
                    match self.lookup_in(include, Side::Instance, method, depth + 1) {
                        Callee::Missing { .. } => {}
                        found => match self.inherited_mixin(user, Side::Instance, include) {
                            Inherited::No => return found,
                            // Ruby skipped the include: the superclass's place answers.
                            Inherited::Itself => {}
                            Inherited::Within => return Callee::Opaque,
                        },
                    }
                }
                if reopened {
                    return match env.instance_method(class, method) {
                        Some(found) => self.signature_answer(class, found, method),
                        None => Callee::Missing { complete: !user.unknown_mixins && !user.has_method_missing },
                    };
                }
                if user.unknown_mixins || user.has_method_missing {
                    return Callee::Missing { complete: false };
                }
                match &user.superclass {
                    Superclass::Known(parent) => self.lookup_in(parent, Side::Instance, method, depth + 1),
                    // Within a project the model sees every class, so a
                    // class whose ancestors all are known is closed: what
                    // Object (as the project leaves it) lacks is missing.
                    Superclass::Implicit
                        if !user.is_module && self.index.project.is_some() && &*user.name != "Object" =>
                    {
                        self.lookup_in("Object", Side::Instance, method, depth + 1)
                    }
                    Superclass::Implicit if !user.is_module => match env.instance_method("Object", method) {
                        Some(found) => self.signature_answer("Object", found, method),
                        None => Callee::Missing { complete: false },
                    },
                    _ => Callee::Missing { complete: false },
                }
            }
            Side::Singleton => {
                if let Some(found) = user.singleton_methods.get(method) {
                    return entry(found);
                }
                if let Some(found) = user.instance_methods.get(method).filter(|_| user.extends_self) {
                    return entry(found);
                }
                for extend in user.extends.iter().rev() {
                    match self.lookup_in(extend, Side::Instance, method, depth + 1) {
                        Callee::Missing { .. } => {}
                        found => match self.inherited_mixin(user, Side::Singleton, extend) {
                            Inherited::No => return found,
                            Inherited::Itself => {}
                            Inherited::Within => return Callee::Opaque,
                        },
                    }
                }
                if reopened {
                    return match env.singleton_method(class, method) {
                        Some(found) => self.signature_answer(class, found, method),
                        None => Callee::Missing { complete: false },
                    };
                }
                if user.unknown_mixins {
                    return Callee::Missing { complete: false };
                }
                let meta = if user.is_module { "Module" } else { "Class" };
                match &user.superclass {
                    Superclass::Known(parent) => self.lookup_in(parent, Side::Singleton, method, depth + 1),
                    Superclass::Implicit => match env.instance_method(meta, method) {
                        Some(found) => self.signature_answer(meta, found, method),
                        // Within a project, a class object's methods end
                        // with Class's, as the project leaves it (and
                        // Object's, which `reopened_root_defining` asks).
                        None if !user.is_module && self.index.project.is_some() => {
                            self.lookup_in(meta, Side::Instance, method, depth + 1)
                        }
                        None => Callee::Missing { complete: false },
                    },
                    Superclass::Unknown => Callee::Missing { complete: false },
                }
            }
        }
    }

    /// Is `module`, mixed into `user` on `side`, one its superclasses
    /// already have? Ruby's `include`/`extend` skips such a module (and
    /// each of its own modules the superclasses have): `class B < A;
    /// include M` where A includes M leaves B's ancestors B, A, M, so A's
    /// methods come first.
    fn inherited_mixin(&self, user: &UserClass, side: Side, module: &str) -> Inherited {
        if user.is_module {
            return Inherited::No;
        }
        let inherited = self.superclass_modules(user, side);
        if inherited.is_empty() {
            return Inherited::No;
        }
        if inherited.iter().any(|m| &**m == module) {
            return Inherited::Itself;
        }
        // A module it brings along that the superclasses have stays in
        // their place: which of the two answers is not worked out here.
        let mut own = Vec::new();
        self.module_closure(module, &mut own, 0);
        if own.iter().skip(1).any(|m| inherited.contains(m)) {
            Inherited::Within
        } else {
            Inherited::No
        }
    }

    /// Every module the superclass chain of `user` has mixed in on `side`
    /// (included or prepended; extended for the singleton side), with the
    /// modules those include.
    fn superclass_modules(&self, user: &UserClass, side: Side) -> Vec<Name> {
        let mut out = Vec::new();
        let mut parent = match &user.superclass {
            Superclass::Known(parent) => parent.clone(),
            Superclass::Implicit if side == Side::Instance => Name::from("Object"),
            _ => return out,
        };
        for _ in 0..64 {
            let Some(ancestor) = self.index.class_shape(&parent) else {
                if side == Side::Instance {
                    out.extend(self.env.ancestors(&parent).iter().skip(1).map(|a| a.name.clone()));
                }
                break;
            };
            let mixed = match side {
                Side::Instance => ancestor.prepends.iter().chain(&ancestor.includes),
                Side::Singleton => ancestor.extends.iter().chain(&[]),
            };
            for module in mixed {
                self.module_closure(module, &mut out, 0);
            }
            if side == Side::Instance && self.env.has_class(&parent) {
                out.extend(self.env.ancestors(&parent).iter().skip(1).map(|a| a.name.clone()));
                break;
            }
            parent = match &ancestor.superclass {
                Superclass::Known(next) => next.clone(),
                Superclass::Implicit
                    if side == Side::Instance && !ancestor.is_module && &*ancestor.name != "Object" =>
                {
                    Name::from("Object")
                }
                _ => break,
            };
        }
        out
    }

    /// A module and the modules it includes or prepends, transitively.
    fn module_closure(&self, module: &str, out: &mut Vec<Name>, depth: usize) {
        if depth > 16 || out.iter().any(|m| &**m == module) {
            return;
        }
        out.push(Name::from(module));
        match self.index.class_shape(module) {
            Some(user) => {
                for inner in user.prepends.iter().chain(&user.includes) {
                    self.module_closure(inner, out, depth + 1);
                }
            }
            None => out.extend(self.env.ancestors(module).iter().skip(1).map(|a| a.name.clone())),
        }
    }

    /// What answers a method the signatures find for `class`: theirs,
    /// unless the project gives Object, Kernel or BasicObject a body of
    /// its own for a method found there (a top-level `def format` is
    /// Object's private method, ahead of Kernel's, for every object).
    fn signature_answer(&self, class: &str, found: FoundMethod<'a>, method: &str) -> Callee<'a> {
        // A class object's method from Module or Class, where the project
        // reopens one of them to define it (`class Module; def name`).
        if matches!(&*found.owner, "Module" | "Class")
            && ["Module", "Class"].into_iter().any(|root| self.index.root_defines(root, method))
        {
            return Callee::Opaque;
        }
        if !self.root_method_replaced(class, &found.owner, method) {
            return Callee::Rbs(found);
        }
        match self.index.top_level_def_stands(method) {
            Some(id) => Callee::Def(id),
            None => Callee::Opaque,
        }
    }

    /// Does the project give Object `method` (a top-level `def`, or a
    /// core class reopened, which may be Object, Kernel or BasicObject),
    /// where the signature found it in one of those roots for `class`?
    fn root_method_replaced(&self, class: &str, owner: &str, method: &str) -> bool {
        matches!(owner, "Object" | "Kernel" | "BasicObject")
            && !matches!(class, "Kernel" | "BasicObject")
            && self.index.root_redefined(method)
    }

    /// A class every object of a signature's class descends from
    /// (`Object`, `Kernel`, `BasicObject`), reopened by the project to
    /// define `method` (for class objects too: they are objects).
    fn reopened_root_defining(&self, class: &str, method: &str) -> Option<&'static str> {
        ["Object", "Kernel", "BasicObject"]
            .into_iter()
            .find(|root| *root != class && class != "BasicObject" && self.index.root_defines(root, method))
    }

    /// Does a module the class extends (or one that module includes, or
    /// one an included module's `included` hook extends it with) make
    /// `method` for it in an instance method (`extend Maker` then `flag
    /// :admin`, where `Maker#flag` calls `define_method`)?
    fn made_by_extension(&self, user: &UserClass, side: Side, method: &str) -> bool {
        if !self.index.extenders_may_make(side, method) {
            return false;
        }
        // The modules extended: by the class, and by the `included` hooks
        // of the modules it includes (`base.extend(ClassMethods)`); and by
        // its superclasses, whose class methods it inherits. A superclass's
        // own class method may make names too (`memoize :value` after
        // `def value`: `Base.memoize` calls `define_method(name)`).
        let mut extended: Vec<&str> = user.extends.iter().map(|m| &**m).collect();
        let mut included: Vec<&str> = user.includes.iter().map(|m| &**m).collect();
        let mut parent = &user.superclass;
        for _ in 0..64 {
            let Superclass::Known(name) = parent else { break };
            let Some(ancestor) = self.index.class_for_method(name, method) else { break };
            if ancestor.made_for_extenders.iter().any(|made| made.covers(side, method)) {
                return true;
            }
            extended.extend(ancestor.extends.iter().map(|m| &**m));
            included.extend(ancestor.includes.iter().map(|m| &**m));
            parent = &ancestor.superclass;
        }
        let mut seen_included: Vec<&str> = Vec::new();
        while let Some(module) = included.pop() {
            if seen_included.contains(&module) {
                continue;
            }
            seen_included.push(module);
            // Its shape (which holds what its hook extends) is read once,
            // not once per name looked up.
            let Some(module) = self.index.class_shape(module) else { continue };
            extended.extend(module.includer_extends.iter().map(|m| &**m));
            included.extend(module.includes.iter().map(|m| &**m));
        }
        let mut seen: Vec<&str> = Vec::new();
        while let Some(module) = extended.pop() {
            if seen.contains(&module) {
                continue;
            }
            seen.push(module);
            let Some(module) = self.index.class_for_method(module, method) else { continue };
            if module.made_for_extenders.iter().any(|made| made.covers(side, method)) {
                return true;
            }
            extended.extend(module.includes.iter().map(|m| &**m));
        }
        false
    }

    /// Does the project give `method` a body of its own in `class` (or a
    /// module prepended to it), where the core's or a library's signature
    /// declares it, and the project's own signatures do not?
    fn replaces_library_method(
        &self,
        user: &crate::model::classes::UserClass,
        class: &str,
        side: Side,
        method: &str,
        depth: usize,
    ) -> bool {
        let Some(declared) = self.env.class(class) else { return false };
        let singleton = side == Side::Singleton;
        let own = if singleton { &user.singleton_methods } else { &user.instance_methods };
        let library = if singleton { &declared.singleton_methods } else { &declared.instance_methods };
        if !library.contains_key(method) || self.env.declared_by_project(class, singleton, method) {
            return false;
        }
        own.contains_key(method)
            || (!singleton
                && user.prepends.iter().any(|prepend| {
                    // A module nobody here defines (`M = Module.new do`)
                    // may define it.
                    !matches!(
                        self.lookup_in(prepend, Side::Instance, method, depth + 1),
                        Callee::Missing { complete: true }
                    )
                }))
    }

    /// Does the project give `method` a body the signature found for
    /// `class` does not describe, where Ruby would run it first: in a
    /// block run on a class (`refine String do def upcase`), through a
    /// receiver (`String.define_method(:length)`, `def Integer.sqrt`,
    /// `Array.prepend(Module.new { def sort })`), or in a core module or
    /// class reopened between `class` and the signature's owner (`module
    /// Enumerable; def tally` for `[1].tally`)? Not when the project's own
    /// signatures declare it.
    fn replaced_in_block(&self, class: &str, side: Side, method: &str) -> bool {
        // Every name so given is also one some object may redefine: that
        // cheap test comes first, on this path of every lookup.
        if !self.index.core_redefined(method) {
            return false;
        }
        // `Conf.extend(M)`, `Conf.singleton_class.prepend(M)`, `def
        // Conf.level` from outside: the class object answers, maybe ahead
        // of what its own body or its superclass's gives it.
        if side == Side::Singleton
            && self.env.singleton_method(class, method).is_none()
            && (self.index.block_replaced(&crate::model::index::singleton_of(class), method)
                || self.index.made_on(class, side, method))
        {
            return true;
        }
        let found = match side {
            Side::Instance => self.env.instance_method(class, method),
            Side::Singleton => self.env.singleton_method(class, method),
        };
        let Some(found) = found else { return false };
        let singleton = side == Side::Singleton;
        if self.env.declared_by_project(&found.owner, singleton, method) {
            return false;
        }
        if singleton {
            let replaced = |c: &str| {
                self.index.block_replaced(&crate::model::index::singleton_of(c), method)
                    || self.index.made_on(c, side, method)
            };
            return replaced(class) || replaced(&found.owner);
        }
        for ancestor in self.env.ancestors(class) {
            let name = &*ancestor.name;
            if self.index.block_replaced(name, method) || self.index.made_on(name, side, method) {
                return true;
            }
            // The class's own reopening is its lookup's to read (a `def`
            // there is answered by its body).
            let reopened = name != class
                && self.index.class_for_method(name, method).is_some_and(|user| {
                    user.instance_methods.contains_key(method)
                        || user.makes(Side::Instance, method)
                        || !user.prepends.is_empty()
                });
            if reopened {
                return true;
            }
            if *name == *found.owner {
                break;
            }
        }
        false
    }

    /// Does the project give this module nothing but nested constants: no
    /// method on either side, no mixin, no `extend self`? (Reads its shape,
    /// and whether it has any method, not which.)
    pub(super) fn namespace_only(&self, module: &str) -> bool {
        self.index.class_shape(module).is_some_and(|user| {
            user.is_module
                && user.includes.is_empty()
                && user.extends.is_empty()
                && user.prepends.is_empty()
                && !user.extends_self
                && !user.computed_mixins
        }) && !self.index.defines_any_method(module)
    }

    /// This file's definitions of `method` on `side` in classes below
    /// `class`: a call on a `class` instance (or on the class, for the
    /// singleton side) may run any of them.
    pub(super) fn overrides(&self, class: &str, side: Side, method: &str) -> Overriders {
        // Extended into a class or object here, its methods give way to
        // that object's own singleton methods, whatever they are.
        let extended = side == Side::Instance && self.index.extended.contains(class);
        // So does any object given a method of that name of its own here.
        let single = self.index.object_singleton_defs.contains(method)
            || self
                .index
                .made_here_below(side, method, |made| self.relation(made, class) == super::signature::Relation::Is);
        // So does a class object given the name from outside its body
        // (`Conf.extend(M)`, `Conf.singleton_class.prepend(M)`).
        let single = single || (side == Side::Singleton && self.index.class_objects_replace(method));
        let mut found = Overriders { defs: Vec::new(), opaque: extended || single };
        for below in self.index.classes.values().filter(|c| &*c.name != class) {
            // A class below that extends a module answering the name
            // (`class Cop < Base; extend AutoCorrector`): its class method
            // is the module's, ahead of `class`'s own.
            if side == Side::Singleton
                && !self.is_module(class)
                && below
                    .extends
                    .iter()
                    .any(|module| !matches!(self.lookup(module, Side::Instance, method), Callee::Missing { .. }))
                && self.relation(&below.name, class) == super::signature::Relation::Is
            {
                found.opaque = true;
                continue;
            }
            // A class below that makes names at run time may make this one
            // (`define_method(:"set#{x}")`): its body cannot be seen.
            let made = below.makes(side, method);
            let entry = below.methods(side).get(method);
            if entry.is_none() && !made {
                continue;
            }
            // Below: a subclass, or a module mixed into one.
            let is = |sub: &str, ancestor: &str| self.relation(sub, ancestor) == super::signature::Relation::Is;
            let mixed_below = || {
                below.is_module
                    && self
                        .index
                        .classes
                        .values()
                        .any(|c| &*c.name != class && is(&c.name, class) && is(&c.name, &below.name))
            };
            if !is(&below.name, class) && !mixed_below() {
                continue;
            }
            match entry {
                Some(MethodEntry::Def(id)) if !made => found.defs.push(*id),
                // An attribute, an alias, a macro's method: not a body
                // inferred here.
                _ => found.opaque = true,
            }
        }
        found
    }

    /// Every `def` of the method `id` defines: a class or the top level
    /// may define a name more than once (under `if`, or redefined).
    pub(super) fn all_definitions(&self, id: usize, method: &str) -> Vec<usize> {
        let info = self.index.def(id);
        let all = match &info.owner {
            Some((class, side)) => {
                self.index.class_shape(class).and_then(|c| c.redefined.get(&(*side, method.to_string())))
            }
            None => self.index.top_redefined.get(method),
        };
        match all {
            Some(all) if all.contains(&id) => all.clone(),
            _ => vec![id],
        }
    }

    /// A call that found nothing on `self`: a top-level `def` (a private
    /// method of Object), else a Kernel function.
    pub(super) fn implicit_fallback(&self, method: &str) -> Callee<'a> {
        if let Some(id) = self.index.top_methods.get(method) {
            return Callee::Def(*id);
        }
        if GLOBAL_FUNCTIONS.contains(&method) {
            if let Some(found) = self.env.instance_method("Object", method) {
                return Callee::Rbs(found);
            }
        }
        Callee::Missing { complete: false }
    }

    /// `C.new`: an instance of C unless C makes `new` mean something else.
    pub(super) fn constructed(&mut self, class: &str) -> Option<Type> {
        match class {
            "Class" | "Struct" | "Data" => return Some(Type::nominal("Class")),
            "Module" => return Some(Type::nominal("Module")),
            _ => {}
        }
        // A module extended into an object nobody names (`k.extend(F)` in
        // an `inherited` hook) gives its `new` to whatever class that is.
        if self.is_module(class) || self.new_replaced(class) || self.index.mixed_in_from_outside("new") {
            return None;
        }
        match self.lookup(class, Side::Singleton, "new") {
            // `class N < Struct` (not `< Struct.new(...)`): `N.new(:a)`
            // makes a struct class, as `Struct.new` does.
            Callee::Rbs(found) if &*found.owner == "Class" && self.subclasses_struct(class) => {
                Some(Type::nominal("Class"))
            }
            Callee::Rbs(found) if &*found.owner == "Class" => Some(self.instance_of(class)),
            Callee::Missing { .. } if self.index.class_shape(class).is_some() => Some(self.instance_of(class)),
            _ => None,
        }
    }

    /// Does some file give `class` or a class above it a `new` its own
    /// table does not show (`def Wrap.new`, `define_singleton_method`)?
    fn new_replaced(&self, class: &str) -> bool {
        let mut current = Name::from(class);
        for _ in 0..64 {
            if self.index.construction_replaced(&current, "new") {
                return true;
            }
            let Some(user) = self.index.class_shape(&current) else { return false };
            let Superclass::Known(parent) = &user.superclass else { return false };
            current = parent.clone();
        }
        true
    }

    /// Does the class, or a project class above it, subclass `Struct`
    /// itself (written `< Struct`; a `Struct.new(...)` layout is written
    /// `::Struct`)?
    fn subclasses_struct(&self, class: &str) -> bool {
        let mut current = Name::from(class);
        for _ in 0..64 {
            let Some(user) = self.index.class_shape(&current) else { return false };
            let Superclass::Known(parent) = &user.superclass else { return false };
            if &**parent == "Struct" {
                return user.written.iter().any(|(kind, path)| *kind == PendingKind::Superclass && path == "Struct");
            }
            current = parent.clone();
        }
        false
    }

    pub(super) fn super_lookup(&self, class: &str, side: Side, method: &str) -> Callee<'a> {
        let Some(user) = self.index.class_shape(class) else { return Callee::Missing { complete: false } };
        if user.is_module || !user.includes.is_empty() || !user.prepends.is_empty() || user.unknown_mixins {
            return Callee::Missing { complete: false };
        }
        if self.env.has_class(class) {
            return Callee::Missing { complete: false };
        }
        // An extended module's methods come before the superclass's.
        if side == Side::Singleton && !user.extends.is_empty() {
            return Callee::Missing { complete: false };
        }
        // So may a module mixed in from outside the class's body
        // (`Sub.include(M)`), into it or an ancestor.
        if self.index.mixed_in_from_outside(method) {
            return Callee::Missing { complete: false };
        }
        match &user.superclass {
            Superclass::Known(parent) => self.lookup(parent, side, method),
            Superclass::Implicit => self.lookup("Object", side, method),
            Superclass::Unknown => Callee::Missing { complete: false },
        }
    }

    /// Do `class` and its superclasses, all the project's, extend no
    /// module (which could answer a singleton method such as `new` first)?
    pub(super) fn singleton_chain_is_plain(&self, class: &str) -> bool {
        let mut current = Name::from(class);
        for _ in 0..64 {
            let Some(user) = self.index.class_shape(&current) else { return false };
            if user.is_module || !user.extends.is_empty() || user.unknown_mixins || user.computed_mixins {
                return false;
            }
            current = match &user.superclass {
                Superclass::Known(parent) => parent.clone(),
                Superclass::Implicit => return true,
                Superclass::Unknown => return false,
            };
        }
        false
    }
}

/// The file's own definitions of a method below a class (subclasses,
/// includers), any of which a call on the class's instances may run.
#[derive(Default)]
pub(super) struct Overriders {
    pub defs: Vec<usize>,
    /// Some are not `def`s: they return what nobody here can say.
    pub opaque: bool,
}
