//! The signature environment: declarations merged over every loaded file,
//! names resolved, ancestors linearised, and the method lookups the
//! inferrer needs.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::sync::Arc;

use super::ast::{AliasDecl, ClassDecl, DeclKind, MethodType, RType, TypeApp};
use super::convert::FileDecls;
use crate::types::Name;

#[derive(Debug, Default)]
pub struct Environment {
    classes: HashMap<Name, ClassDecl>,
    aliases: HashMap<Name, AliasDecl>,
    constants: HashMap<Name, RType>,
    globals: HashMap<String, RType>,
    /// Instance-side ancestors of each class, itself first; each entry's
    /// arguments are written in the class's own type parameters.
    ancestors: HashMap<Name, Vec<TypeApp>>,
    /// Methods the project's own signatures declare (`sig/`,
    /// `signature_paths`): (class, singleton?, name). The rest describe
    /// the core's and libraries' own implementations.
    project_declared: HashSet<(Name, bool, String)>,
    /// Attribute readers some descendant declares again as a method
    /// (class, name): a receiver of the class may run that method.
    overridden_readers: HashSet<(Name, String)>,
    /// Every method name some class or module declares, either side.
    method_names: HashSet<String>,
    /// By instance method name, the classes and modules declaring it:
    /// "does a class below this one declare it again" reads a few, not
    /// every class of the signatures.
    instance_declarers: HashMap<String, Vec<Name>>,
}

/// A method found through an ancestor, with what its owner's type
/// parameters stand for in the receiver's class.
pub struct FoundMethod<'e> {
    pub owner: Name,
    pub overloads: &'e [MethodType],
    pub owner_args: HashMap<Arc<str>, RType>,
    /// A private instance method: only a call on `self` reaches it.
    pub private: bool,
}

/// Deep mixin chains in broken signatures must not recurse forever.
const MAX_ANCESTOR_DEPTH: usize = 64;

impl Environment {
    pub fn build(files: Vec<FileDecls>) -> Environment {
        Environment::build_layered(files, usize::MAX)
    }

    /// The environment of `files`, of which those from `project_from` on
    /// are the project's own signatures.
    pub fn build_layered(files: Vec<FileDecls>, project_from: usize) -> Environment {
        let mut env = Environment::default();
        let mut method_aliases = Vec::new();
        for (at, file) in files.into_iter().enumerate() {
            let overloading: HashSet<(Name, bool, String)> = file.overloading.into_iter().collect();
            if at >= project_from {
                for decl in &file.classes {
                    for (singleton, table) in [(false, &decl.instance_methods), (true, &decl.singleton_methods)] {
                        env.project_declared.extend(table.keys().map(|m| (decl.name.clone(), singleton, m.clone())));
                    }
                }
                for (class, singleton, new, _) in &file.method_aliases {
                    env.project_declared.insert((class.clone(), *singleton, new.clone()));
                }
            }
            for decl in file.classes {
                env.merge_class(decl, &overloading);
            }
            env.aliases.extend(file.aliases);
            env.constants.extend(file.constants);
            env.globals.extend(file.globals);
            method_aliases.extend(file.method_aliases);
        }
        env.resolve_names();
        for (class, singleton, new, old) in method_aliases {
            if let Some(decl) = env.classes.get_mut(&class) {
                let table = if singleton { &mut decl.singleton_methods } else { &mut decl.instance_methods };
                if let Some(overloads) = table.get(&old).cloned() {
                    table.entry(new).or_insert(overloads);
                }
            }
        }
        let names: Vec<Name> = env.classes.keys().cloned().collect();
        for name in names {
            let ancestors = env.linearize(&name, 0);
            env.ancestors.insert(name, ancestors);
        }
        env.overridden_readers = env.find_overridden_readers();
        env.method_names = env
            .classes
            .values()
            .flat_map(|decl| decl.instance_methods.keys().chain(decl.singleton_methods.keys()))
            .cloned()
            .collect();
        let mut declarers: HashMap<String, Vec<Name>> = HashMap::default();
        for (name, decl) in &env.classes {
            for method in decl.instance_methods.keys() {
                declarers.entry(method.clone()).or_default().push(name.clone());
            }
        }
        env.instance_declarers = declarers;
        env
    }

    /// Does a class or module of the signatures other than `class`, one
    /// that inherits or includes it, declare the instance method `method`?
    pub fn declared_below(&self, class: &str, method: &str) -> bool {
        self.instance_declarers
            .get(method)
            .is_some_and(|declarers| declarers.iter().any(|other| **other != *class && self.inherits(other, class)))
    }

    /// Does some class or module of the signatures declare a method so
    /// named?
    pub fn declares_method_named(&self, method: &str) -> bool {
        self.method_names.contains(method)
    }

    /// Each (ancestor, reader) that a class below it declares again as
    /// something other than a reader.
    fn find_overridden_readers(&self) -> HashSet<(Name, String)> {
        let mut found = HashSet::default();
        for (name, ancestors) in &self.ancestors {
            let Some(decl) = self.classes.get(name) else { continue };
            for ancestor in ancestors.iter().filter(|a| a.name != *name) {
                let Some(above) = self.classes.get(&ancestor.name) else { continue };
                for reader in &above.readers {
                    if decl.instance_methods.contains_key(reader) && !decl.readers.contains(reader) {
                        found.insert((ancestor.name.clone(), reader.clone()));
                    }
                }
            }
        }
        found
    }

    /// Does every instance of `class` answer `method` with a signature's
    /// attribute reader (no descendant declares it otherwise)?
    pub fn is_attribute_reader(&self, class: &str, method: &str) -> bool {
        let Some(found) = self.instance_method(class, method) else { return false };
        // A descendant of `class` is one of the owner's too.
        let owner = &found.owner;
        self.classes.get(owner).is_some_and(|decl| decl.readers.contains(method))
            && !self.overridden_readers.contains(&(owner.clone(), method.to_string()))
    }

    fn merge_class(&mut self, decl: ClassDecl, overloading: &HashSet<(Name, bool, String)>) {
        let Some(existing) = self.classes.get_mut(&decl.name) else {
            self.classes.insert(decl.name.clone(), decl);
            return;
        };
        if existing.type_params.is_empty() {
            existing.type_params = decl.type_params;
        }
        if existing.superclass.is_none() {
            existing.superclass = decl.superclass;
        }
        if decl.kind == DeclKind::Class {
            existing.kind = DeclKind::Class;
        }
        existing.includes.extend(decl.includes);
        existing.prepends.extend(decl.prepends);
        existing.extends.extend(decl.extends);
        existing.instance_variables.extend(decl.instance_variables);
        // A method declared again is a reader when declared last as one.
        for name in decl.instance_methods.keys() {
            if decl.readers.contains(name) {
                existing.readers.insert(name.clone());
            } else {
                existing.readers.remove(name);
            }
        }
        // A method declared again takes the visibility declared last.
        for name in decl.instance_methods.keys() {
            let extends = overloading.contains(&(decl.name.clone(), false, name.clone()));
            if decl.private_instance.contains(name) {
                existing.private_instance.insert(name.clone());
            } else if !extends {
                existing.private_instance.remove(name);
            }
        }
        for (singleton, methods) in [(false, decl.instance_methods), (true, decl.singleton_methods)] {
            let table = if singleton { &mut existing.singleton_methods } else { &mut existing.instance_methods };
            for (name, overloads) in methods {
                let key = (decl.name.clone(), singleton, name.clone());
                match table.get_mut(&name) {
                    Some(current) if overloading.contains(&key) => current.extend(overloads),
                    _ => {
                        table.insert(name, overloads);
                    }
                }
            }
        }
    }

    fn resolve_names(&mut self) {
        let resolver = NameTable::of(self.classes.keys().chain(self.aliases.keys()).map(|n| n.to_string()));
        for decl in self.classes.values_mut() {
            let own = decl.name.to_string();
            let context: Vec<&str> = own.split("::").collect();
            let mut fix = |name: &mut Name| *name = resolver.resolve(&context, name);
            for app in
                decl.superclass.iter_mut().chain(&mut decl.includes).chain(&mut decl.prepends).chain(&mut decl.extends)
            {
                fix(&mut app.name);
                app.args.iter_mut().for_each(|a| a.names_mut(&mut fix));
            }
            for overloads in decl.instance_methods.values_mut().chain(decl.singleton_methods.values_mut()) {
                overloads.iter_mut().for_each(|m| m.names_mut(&mut fix));
            }
            decl.instance_variables.values_mut().for_each(|t| t.names_mut(&mut fix));
        }
        let parent = |name: &Name| -> Vec<String> {
            let mut segments: Vec<String> = name.split("::").map(str::to_string).collect();
            segments.pop();
            segments
        };
        for (name, alias) in self.aliases.iter_mut() {
            let context = parent(name);
            let context: Vec<&str> = context.iter().map(String::as_str).collect();
            alias.ty.names_mut(&mut |n: &mut Name| *n = resolver.resolve(&context, n));
        }
        for (name, ty) in self.constants.iter_mut() {
            let context = parent(name);
            let context: Vec<&str> = context.iter().map(String::as_str).collect();
            ty.names_mut(&mut |n: &mut Name| *n = resolver.resolve(&context, n));
        }
        for ty in self.globals.values_mut() {
            ty.names_mut(&mut |n: &mut Name| *n = resolver.resolve(&[], n));
        }
    }

    /// Ruby's ancestor order: prepends, the class, its includes (last
    /// included first), then the superclass's ancestors.
    fn linearize(&self, name: &str, depth: usize) -> Vec<TypeApp> {
        let Some(decl) = self.classes.get(name) else { return Vec::new() };
        if depth > MAX_ANCESTOR_DEPTH {
            return Vec::new();
        }
        let mut out: Vec<TypeApp> = Vec::new();
        let push_all = |out: &mut Vec<TypeApp>, apps: Vec<TypeApp>| {
            for app in apps {
                if !out.iter().any(|a| a.name == app.name) {
                    out.push(app);
                }
            }
        };
        for prepend in decl.prepends.iter().rev() {
            push_all(&mut out, self.applied(prepend, depth));
        }
        let itself =
            TypeApp { name: decl.name.clone(), args: decl.type_params.iter().map(|p| RType::Var(p.clone())).collect() };
        push_all(&mut out, vec![itself]);
        for include in decl.includes.iter().rev() {
            push_all(&mut out, self.applied(include, depth));
        }
        if decl.kind == DeclKind::Class && name != "BasicObject" {
            let superclass = decl.superclass.clone().unwrap_or(TypeApp { name: "Object".into(), args: vec![] });
            if superclass.name.as_ref() != name {
                push_all(&mut out, self.applied(&superclass, depth));
            }
        }
        out
    }

    /// The ancestors of a mixin or superclass, in terms of the arguments it
    /// was applied with.
    fn applied(&self, app: &TypeApp, depth: usize) -> Vec<TypeApp> {
        let Some(decl) = self.classes.get(&app.name) else { return Vec::new() };
        let map = bind(&decl.type_params, &app.args);
        self.linearize(&app.name, depth + 1)
            .into_iter()
            .map(|a| TypeApp { name: a.name, args: a.args.iter().map(|t| t.substitute(&map)).collect() })
            .collect()
    }

    pub fn class(&self, name: &str) -> Option<&ClassDecl> {
        self.classes.get(name)
    }

    /// Does the project's own signature declare this method? Then it is a
    /// promise about the project's code; otherwise it describes the core's
    /// or a library's implementation, which a project body replaces.
    pub fn declared_by_project(&self, class: &str, singleton: bool, method: &str) -> bool {
        !self.project_declared.is_empty()
            && self.project_declared.contains(&(Name::from(class), singleton, method.to_string()))
    }

    pub fn has_class(&self, name: &str) -> bool {
        self.classes.get(name).is_some_and(|d| d.kind != DeclKind::Interface)
    }

    pub fn is_module(&self, name: &str) -> bool {
        self.classes.get(name).is_some_and(|d| d.kind == DeclKind::Module)
    }

    pub fn alias(&self, name: &str) -> Option<&AliasDecl> {
        self.aliases.get(name)
    }

    pub fn constant(&self, name: &str) -> Option<&RType> {
        self.constants.get(name)
    }

    pub fn global(&self, name: &str) -> Option<&RType> {
        self.globals.get(name)
    }

    /// Every class, module and interface name the signatures declare.
    pub fn class_names(&self) -> impl Iterator<Item = &Name> {
        self.classes.keys()
    }

    pub fn class_count(&self) -> usize {
        self.classes.len()
    }

    pub fn ancestors(&self, name: &str) -> &[TypeApp] {
        self.ancestors.get(name).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Is `sub` the class `sup` or does it inherit from or include it?
    pub fn inherits(&self, sub: &str, sup: &str) -> bool {
        sub == sup || self.ancestors(sub).iter().any(|a| &*a.name == sup)
    }

    /// An instance method of `class` (or of its ancestors).
    pub fn instance_method(&self, class: &str, method: &str) -> Option<FoundMethod<'_>> {
        for ancestor in self.ancestors(class) {
            let Some(decl) = self.classes.get(&ancestor.name) else { continue };
            if let Some(overloads) = decl.instance_methods.get(method) {
                return Some(FoundMethod {
                    owner: ancestor.name.clone(),
                    overloads,
                    owner_args: bind(&decl.type_params, &ancestor.args),
                    private: decl.private_instance.contains(method),
                });
            }
        }
        None
    }

    /// A singleton (class) method of `class`: its own and its superclasses'
    /// `def self.`s and extended modules, then `Class` or `Module`.
    pub fn singleton_method(&self, class: &str, method: &str) -> Option<FoundMethod<'_>> {
        let decl = self.classes.get(class)?;
        let chain: Vec<Name> = if decl.kind == DeclKind::Class {
            self.ancestors(class)
                .iter()
                .filter(|a| self.classes.get(&a.name).is_some_and(|d| d.kind == DeclKind::Class))
                .map(|a| a.name.clone())
                .collect()
        } else {
            vec![decl.name.clone()]
        };
        for owner in &chain {
            let Some(owner_decl) = self.classes.get(owner) else { continue };
            if let Some(overloads) = owner_decl.singleton_methods.get(method) {
                return Some(FoundMethod {
                    owner: owner.clone(),
                    overloads,
                    owner_args: HashMap::default(),
                    private: false,
                });
            }
            for extend in owner_decl.extends.iter().rev() {
                if let Some(found) = self.instance_method(&extend.name, method) {
                    let map =
                        self.classes.get(&extend.name).map(|d| bind(&d.type_params, &extend.args)).unwrap_or_default();
                    let owner_args = found.owner_args.iter().map(|(k, v)| (k.clone(), v.substitute(&map))).collect();
                    return Some(FoundMethod { owner_args, ..found });
                }
            }
        }
        let meta = if decl.kind == DeclKind::Class { "Class" } else { "Module" };
        self.instance_method(meta, method)
    }
}

/// Binds type parameters to arguments; missing arguments are `untyped`.
pub fn bind(params: &[Arc<str>], args: &[RType]) -> HashMap<Arc<str>, RType> {
    params.iter().enumerate().map(|(i, p)| (p.clone(), args.get(i).cloned().unwrap_or(RType::Untyped))).collect()
}

struct NameTable {
    known: HashSet<String>,
    /// Every segment but the first of a known name: a name whose first
    /// segment is not one of them is known nowhere inside another.
    inner_segments: HashSet<String>,
}

impl NameTable {
    fn of(known: impl Iterator<Item = String>) -> NameTable {
        let known: HashSet<String> = known.collect();
        let inner_segments = known.iter().flat_map(|name| name.split("::").skip(1)).map(str::to_string).collect();
        NameTable { known, inner_segments }
    }

    fn resolve(&self, context: &[&str], written: &Name) -> Name {
        if let Some(absolute) = written.strip_prefix("::") {
            return Name::from(absolute);
        }
        let head = written.split("::").next().unwrap_or_default();
        if !self.inner_segments.contains(head) {
            // Most names: no scope holds one of that name.
            return written.clone();
        }
        let mut candidate = String::new();
        for depth in (1..=context.len()).rev() {
            candidate.clear();
            for part in &context[..depth] {
                candidate.push_str(part);
                candidate.push_str("::");
            }
            candidate.push_str(written);
            if self.known.contains(candidate.as_str()) {
                return Name::from(candidate.as_str());
            }
        }
        // At the top level the name is itself, known or not.
        written.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rbs::convert::convert_file;

    fn env(sources: &[&str]) -> Environment {
        Environment::build(sources.iter().map(|s| convert_file(s).unwrap()).collect())
    }

    #[test]
    fn names_resolve_from_the_innermost_scope_out() {
        let table = NameTable::of(["A::C", "C", "A::B::D", "E"].into_iter().map(String::from));
        let resolve = |context: &[&str], written: &str| table.resolve(context, &Name::from(written)).to_string();
        assert_eq!(resolve(&["A", "B"], "C"), "A::C");
        assert_eq!(resolve(&["A", "B"], "D"), "A::B::D");
        assert_eq!(resolve(&["A"], "D"), "D", "an unknown name stays as written");
        assert_eq!(resolve(&["A", "B"], "E"), "E");
        assert_eq!(resolve(&["A", "B"], "::C"), "C", "an absolute name is itself");
        assert_eq!(resolve(&[], "C"), "C");
        assert_eq!(resolve(&["A"], "B::D"), "A::B::D", "a path resolves by its whole spelling");
        assert_eq!(resolve(&["A", "B"], "B::D"), "A::B::D");
        assert_eq!(resolve(&["A", "B"], "B::C"), "B::C", "no scope holds it: as written");
    }

    #[test]
    fn ancestors_follow_ruby_order_with_arguments() {
        let e = env(&[
            "class BasicObject\nend\nclass Object < BasicObject\n  include Kernel\nend\nmodule Kernel\n  def puts: (*untyped) -> nil\nend\nmodule Enumerable[E]\n  def first: () -> E?\nend\nclass Array[Elem]\n  include Enumerable[Elem]\n  def size: () -> Integer\nend\n",
        ]);
        let names: Vec<&str> = e.ancestors("Array").iter().map(|a| a.name.as_ref()).collect();
        assert_eq!(names, ["Array", "Enumerable", "Object", "Kernel", "BasicObject"]);
        let found = e.instance_method("Array", "first").unwrap();
        assert_eq!(found.owner.as_ref(), "Enumerable");
        assert_eq!(found.owner_args[&Arc::<str>::from("E")], RType::Var("Elem".into()));
        assert!(e.instance_method("Array", "puts").is_some());
        assert!(e.inherits("Array", "Kernel"));
    }

    #[test]
    fn nested_names_resolve_innermost_first_and_files_merge() {
        let e = env(&[
            "module A\n  class B\n    def c: () -> C\n  end\n  class C\n  end\nend\nclass C\nend\n",
            "class A::B\n  def d: () -> Integer\n  def c: ...\nend\n",
        ]);
        let found = e.instance_method("A::B", "c").unwrap();
        assert_eq!(found.overloads.len(), 1);
        assert_eq!(found.overloads[0].function.returns, RType::Class { name: "A::C".into(), args: vec![] });
        assert!(e.instance_method("A::B", "d").is_some());
    }

    #[test]
    fn singleton_methods_come_from_the_class_chain_then_class() {
        let e = env(&[
            "class BasicObject\nend\nclass Object < BasicObject\nend\nclass Module\n  def name: () -> String?\nend\nclass Class < Module\n  def allocate: () -> untyped\nend\nclass P\n  def self.make: () -> P\nend\nclass Q < P\nend\nmodule M\nend\n",
        ]);
        assert_eq!(e.singleton_method("Q", "make").unwrap().owner.as_ref(), "P");
        assert_eq!(e.singleton_method("Q", "allocate").unwrap().owner.as_ref(), "Class");
        assert_eq!(e.singleton_method("M", "name").unwrap().owner.as_ref(), "Module");
        assert!(e.singleton_method("M", "allocate").is_none());
    }
}
