//! A pre-pass over one file: the classes and modules it defines, their
//! methods, mixins and superclasses, and its constant assignments. Calls
//! between user methods and constant reads consult this index, so a method
//! defined further down the file is still known.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use ruby_prism::{CallNode, Node, Visit};

use crate::rbs::Environment;
use crate::stack_guard::ensure_room;
use crate::syntax::{constant_path_text, name, node_clone};
use crate::types::Name;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    Instance,
    Singleton,
}

/// How a class's superclass is known.
#[derive(Debug, Clone, PartialEq)]
pub enum Superclass {
    /// No `<`: Object (for classes), or none (for modules).
    Implicit,
    Known(Name),
    /// Something this file cannot resolve: its methods are unknown.
    Unknown,
}

/// What a method name maps to in a user class.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MethodEntry {
    Def(usize),
    /// `attr_reader`: returns the instance variable (index into `ivar_names`).
    Reader(usize),
    /// `attr_writer`: returns its argument.
    Writer,
    /// `define_method` and the like: exists, returns something unknown.
    Opaque,
}

pub struct UserClass {
    pub name: Name,
    pub is_module: bool,
    pub superclass: Superclass,
    pub includes: Vec<Name>,
    pub extends: Vec<Name>,
    pub prepends: Vec<Name>,
    /// A mixin this file cannot resolve: its methods could be anything.
    pub unknown_mixins: bool,
    pub instance_methods: HashMap<String, MethodEntry>,
    pub singleton_methods: HashMap<String, MethodEntry>,
    /// Instance variables others may set (`attr_writer`, `instance_variable_set`).
    pub ivars_set_from_outside: HashSet<String>,
    pub ivars_opaque: bool,
    /// Instance variables `initialize` assigns in its straight-line body.
    pub initialized_ivars: HashSet<String>,
    pub has_method_missing: bool,
    /// `extend self`: instance methods answer on the module too.
    pub extends_self: bool,
    /// Methods defined more than once (conditionally, or redefined): every
    /// `def` of the name, since any of them may be the one that runs.
    pub redefined: HashMap<(Side, String), Vec<usize>>,
    /// Written superclass and mixin paths, resolved once every class is known.
    pending: Vec<(PendingKind, String)>,
    lexical: Vec<Name>,
}

#[derive(Clone, Copy)]
enum PendingKind {
    Superclass,
    Include,
    Extend,
    Prepend,
}

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
}

impl<'pr> ProgramIndex<'pr> {
    pub fn build(root: &Node<'pr>, env: &Environment) -> ProgramIndex<'pr> {
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
        };
        let mut walker = Walker {
            index: &mut index,
            env,
            lexical: Vec::new(),
            side: Side::Instance,
            module_function: false,
            in_block: 0,
        };
        walker.visit(root);
        index.resolve_pending(env);
        index.mark_extended_self();
        index
    }

    pub fn class(&self, name: &str) -> Option<&UserClass> {
        self.classes.get(name)
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
    }

    /// Ruby's constant lookup, simplified: the lexical scopes innermost
    /// first, then the ancestors of the innermost class, then the top level.
    pub fn resolve_constant(&self, env: &Environment, lexical: &[Name], written: &str) -> Option<Name> {
        if let Some(absolute) = written.strip_prefix("::") {
            return self.is_known_constant(env, absolute).then(|| Name::from(absolute));
        }
        let (head, rest) = match written.split_once("::") {
            Some((head, rest)) => (head, Some(rest)),
            None => (written, None),
        };
        let head = self.resolve_head(env, lexical, head)?;
        match rest {
            None => Some(head),
            Some(rest) => {
                let full = format!("{head}::{rest}");
                self.is_known_constant(env, &full).then(|| Name::from(full))
            }
        }
    }

    fn resolve_head(&self, env: &Environment, lexical: &[Name], head: &str) -> Option<Name> {
        for scope in lexical.iter().rev() {
            let full = format!("{scope}::{head}");
            if self.is_known_constant(env, &full) {
                return Some(Name::from(full));
            }
        }
        if let Some(innermost) = lexical.last() {
            for ancestor in self.ancestor_names(env, innermost) {
                let full = format!("{ancestor}::{head}");
                if self.is_known_constant(env, &full) {
                    return Some(Name::from(full));
                }
            }
        }
        self.is_known_constant(env, head).then(|| Name::from(head))
    }

    /// A constant under a known namespace: `Parent::NAME`, also through the
    /// parent's ancestors (`File::SEPARATOR` is `IO::...`-style inheritance).
    pub fn resolve_member(&self, env: &Environment, parent: &str, member: &str) -> Option<Name> {
        let full = format!("{parent}::{member}");
        if self.is_known_constant(env, &full) {
            return Some(Name::from(full));
        }
        for ancestor in self.ancestor_names(env, parent) {
            let full = format!("{ancestor}::{member}");
            if self.is_known_constant(env, &full) {
                return Some(Name::from(full));
            }
        }
        None
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
            match self.classes.get(&name) {
                Some(user) => {
                    out.extend(user.prepends.iter().cloned());
                    if guard > 1 {
                        out.push(name.clone());
                    }
                    for include in user.includes.iter().rev() {
                        out.push(include.clone());
                        out.extend(env.ancestors(include).iter().skip(1).map(|a| a.name.clone()));
                    }
                    if env.has_class(&name) {
                        // A reopened core class: the signatures know the rest.
                        out.extend(env.ancestors(&name).iter().skip(1).map(|a| a.name.clone()));
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
                    out.extend(env.ancestors(&name).iter().skip(skip).map(|a| a.name.clone()));
                }
            }
        }
        out
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

    fn resolve_pending(&mut self, env: &Environment) {
        let names: Vec<Name> = self.classes.keys().cloned().collect();
        for class in names {
            let (pending, lexical) = {
                let user = self.classes.get_mut(&class).expect("listed");
                (std::mem::take(&mut user.pending), user.lexical.clone())
            };
            for (kind, written) in pending {
                let resolved = self.resolve_constant(env, &lexical, &written).filter(|n| *n != class);
                let user = self.classes.get_mut(&class).expect("listed");
                match (kind, resolved) {
                    (PendingKind::Superclass, Some(name)) => user.superclass = Superclass::Known(name),
                    (PendingKind::Superclass, None) => user.superclass = Superclass::Unknown,
                    (PendingKind::Include, Some(name)) => user.includes.push(name),
                    (PendingKind::Extend, Some(name)) => user.extends.push(name),
                    (PendingKind::Prepend, Some(name)) => user.prepends.push(name),
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
}

fn symbol_arguments(call: &CallNode<'_>) -> Vec<String> {
    let Some(arguments) = call.arguments() else { return Vec::new() };
    arguments
        .arguments()
        .iter()
        .filter_map(|a| match &a {
            Node::SymbolNode { .. } => Some(String::from_utf8_lossy(a.as_symbol_node()?.unescaped()).into_owned()),
            Node::StringNode { .. } => Some(String::from_utf8_lossy(a.as_string_node()?.unescaped()).into_owned()),
            _ => None,
        })
        .collect()
}

impl<'pr> Walker<'_, 'pr, '_> {
    fn current(&mut self) -> Option<&mut UserClass> {
        let name = self.lexical.last()?.clone();
        self.index.classes.get_mut(&name)
    }

    fn open_class(&mut self, full: Name, is_module: bool) {
        let lexical = self.lexical.clone();
        self.index.classes.entry(full.clone()).or_insert_with(|| UserClass {
            name: full,
            is_module,
            superclass: Superclass::Implicit,
            includes: Vec::new(),
            extends: Vec::new(),
            prepends: Vec::new(),
            unknown_mixins: false,
            instance_methods: HashMap::default(),
            singleton_methods: HashMap::default(),
            ivars_set_from_outside: HashSet::default(),
            ivars_opaque: false,
            initialized_ivars: HashSet::default(),
            has_method_missing: false,
            extends_self: false,
            redefined: HashMap::default(),
            pending: Vec::new(),
            lexical,
        });
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
        let full = match written.strip_prefix("::") {
            Some(absolute) => Name::from(absolute),
            None => match written.rsplit_once("::") {
                Some((head, tail)) => {
                    let parent =
                        self.index.resolve_constant(self.env, &self.lexical, head).unwrap_or_else(|| Name::from(head));
                    Name::from(format!("{parent}::{tail}"))
                }
                None => self.qualified(&written),
            },
        };
        let lexical = self.lexical.clone();
        self.index.constants.entry(full).or_default().push(ConstantWrite { value, lexical });
    }

    fn alias(&mut self, new: &str, old: &str) {
        let side = self.side;
        if let Some(class) = self.current() {
            let table =
                if side == Side::Singleton { &mut class.singleton_methods } else { &mut class.instance_methods };
            let entry = table.get(old).copied().unwrap_or(MethodEntry::Opaque);
            table.insert(new.to_string(), entry);
        }
    }

    fn call(&mut self, call: &CallNode<'pr>) {
        let method = name(call.name());
        let on_self = self.in_block == 0 && matches!(call.receiver(), None | Some(Node::SelfNode { .. }));
        match method.as_str() {
            "instance_variable_set" | "instance_variables" | "remove_instance_variable" => {
                self.index.ivars_unknowable = true;
            }
            _ if !on_self => {}
            "attr_reader" | "attr_writer" | "attr_accessor" | "attr" => {
                for attribute in symbol_arguments(call) {
                    let ivar = self.ivar(format!("@{attribute}"));
                    let side = self.side;
                    if method != "attr_writer" {
                        self.add_method(attribute.clone(), MethodEntry::Reader(ivar), side);
                    }
                    if method == "attr_writer" || method == "attr_accessor" {
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
                let kind = match method.as_str() {
                    "include" => PendingKind::Include,
                    "extend" => PendingKind::Extend,
                    _ => PendingKind::Prepend,
                };
                let arguments: Vec<Node<'pr>> =
                    call.arguments().map(|a| a.arguments().iter().collect()).unwrap_or_default();
                let side = self.side;
                let Some(class) = self.current() else { return };
                for argument in arguments {
                    match (&argument, constant_path_text(&argument)) {
                        // `extend self`: instance methods are module methods too.
                        // `extend self`: every instance method, also those
                        // defined later, is a module method too.
                        (Node::SelfNode { .. }, _) if matches!(kind, PendingKind::Extend) => class.extends_self = true,
                        (_, Some(written)) if side == Side::Instance => class.pending.push((kind, written)),
                        _ => class.unknown_mixins = true,
                    }
                }
            }
            _ => {}
        }
    }
}

impl<'pr> Visit<'pr> for Walker<'_, 'pr, '_> {
    fn visit_branch_node_enter(&mut self, _node: Node<'pr>) {
        ensure_room();
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
                Some(written) => entry.pending.push((PendingKind::Superclass, written)),
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
        self.body(full, module.body());
    }

    fn visit_singleton_class_node(&mut self, singleton: &ruby_prism::SingletonClassNode<'pr>) {
        let on_self = matches!(singleton.expression(), Node::SelfNode { .. });
        let saved = (self.side, self.module_function);
        if on_self {
            self.side = Side::Singleton;
        } else {
            // `class << obj`: methods of some other object.
            self.visit(&singleton.expression());
            self.lexical.push(Name::from(SINGLETON_OF_OTHER));
        }
        self.module_function = false;
        if let Some(body) = singleton.body() {
            self.visit(&body);
        }
        if !on_self {
            self.lexical.pop();
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
        let owner = match (self.lexical.last(), side) {
            (Some(class), Some(side)) if !in_other => Some((class.clone(), side)),
            _ => None,
        };
        let id = self.index.defs.len();
        let dual = self.module_function && side == Some(Side::Instance) && !in_other;
        self.index.defs.push(DefInfo { node: node_clone(&node), owner, lexical: self.lexical.clone(), dual });
        self.index.def_at.insert(node.location().start() as usize, id);
        if let (Some(side), false) = (side, in_other) {
            self.add_method(method.clone(), MethodEntry::Def(id), side);
        }
        if method == "initialize" && side == Some(Side::Instance) && !in_other {
            let assigned = straight_line_ivar_writes(def.body());
            if let Some(class) = self.current() {
                class.initialized_ivars.extend(assigned);
            }
        }
        let saved = self.module_function;
        self.module_function = false;
        ruby_prism::visit_def_node(self, def);
        self.module_function = saved;
    }

    fn visit_call_node(&mut self, call: &CallNode<'pr>) {
        self.call(call);
        ruby_prism::visit_call_node(self, call);
    }

    fn visit_block_node(&mut self, block: &ruby_prism::BlockNode<'pr>) {
        self.in_block += 1;
        ruby_prism::visit_block_node(self, block);
        self.in_block -= 1;
    }

    fn visit_lambda_node(&mut self, lambda: &ruby_prism::LambdaNode<'pr>) {
        self.in_block += 1;
        ruby_prism::visit_lambda_node(self, lambda);
        self.in_block -= 1;
    }

    fn visit_constant_write_node(&mut self, write: &ruby_prism::ConstantWriteNode<'pr>) {
        self.constant_write(Some(name(write.name())), write.value());
        ruby_prism::visit_constant_write_node(self, write);
    }

    fn visit_constant_path_write_node(&mut self, write: &ruby_prism::ConstantPathWriteNode<'pr>) {
        self.constant_write(constant_path_text(&write.target().as_node()), write.value());
        ruby_prism::visit_constant_path_write_node(self, write);
    }

    fn visit_alias_method_node(&mut self, alias: &ruby_prism::AliasMethodNode<'pr>) {
        let symbol = |n: Node<'_>| n.as_symbol_node().map(|s| String::from_utf8_lossy(s.unescaped()).into_owned());
        if let (Some(new), Some(old)) = (symbol(alias.new_name()), symbol(alias.old_name())) {
            self.alias(&new, &old);
        }
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

fn is_struct_new(node: &Node<'_>) -> bool {
    let Some(call) = node.as_call_node() else { return false };
    name(call.name()) == "new"
        && call.block().is_none()
        && call.receiver().as_ref().and_then(constant_path_text).is_some_and(|r| r == "Struct" || r == "::Struct")
}

/// The lexical marker for `class << obj` bodies: nothing there is indexed.
const SINGLETON_OF_OTHER: &str = "<singleton>";

/// Instance variables `initialize` surely assigns before anything can
/// read them: its leading statements, as long as each is an assignment
/// whose value cannot call back into the object (no call on `self`, no
/// `self`, `super`, `yield`, block or instance variable read).
fn straight_line_ivar_writes(body: Option<Node<'_>>) -> Vec<String> {
    let Some(body) = body else { return Vec::new() };
    let statements: Vec<Node<'_>> = match body.as_statements_node() {
        Some(statements) => statements.body().iter().collect(),
        None => return Vec::new(),
    };
    let mut out = Vec::new();
    for statement in statements {
        match statement.as_instance_variable_write_node() {
            Some(write) if !may_call_back(&write.value()) => out.push(name(write.name())),
            _ => break,
        }
    }
    out
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
            if call.receiver().is_none() || call.block().is_some() {
                self.found = true;
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
                    | Node::BlockNode { .. }
                    | Node::LambdaNode { .. }
                    | Node::InstanceVariableReadNode { .. }
            ) {
                self.found = true;
            }
        }
    }
    let mut finder = Finder { found: false };
    finder.visit(node);
    finder.found
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
        let source = "module A\n  class B < C\n    include M\n    def x; end\n    def self.y; end\n    attr_accessor :z\n  end\n  class C; end\n  module M; end\nend\nclass A::D; end\n";
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
