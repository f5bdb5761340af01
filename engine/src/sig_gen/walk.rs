//! One pass over a parsed file for sig-gen: every `def` a class or module
//! owns (with its visibility and parameter shape), and, when asked, the
//! argument types of calls whose receiver's class is known.

use rustc_hash::FxHashMap as HashMap;

use ruby_prism::{CallNode, Node, Visit};

use crate::infer::{FileTypes, ProgramIndex, Side};
use crate::stack_guard::ensure_room;
use crate::syntax::{constant_path_text, name};
use crate::types::{Name, Type};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Visibility {
    Public,
    Private,
    Protected,
}

/// One parameter of a `def`, as RBS needs to know it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Param {
    Required,
    Optional,
    Rest,
    /// Required after a rest parameter.
    Trailing,
    Keyword(String),
    OptionalKeyword(String),
    KeywordRest,
    /// `**nil`: no keywords accepted.
    NoKeywords,
    Block,
    /// `...`
    Forwarding,
}

/// A method definition sig-gen may describe.
#[derive(Debug, Clone)]
pub struct DefSite {
    /// Start offset of the `def` node (the key of its inferred return).
    pub offset: usize,
    pub line: usize,
    pub name: String,
    pub class: Name,
    pub side: Side,
    /// Under `module_function`: both an instance and a singleton method,
    /// `def self?.m` in RBS.
    pub module_function: bool,
    pub visibility: Visibility,
    pub params: Vec<Param>,
    /// The body's value is a literal written in the code (`"x"`, `1`), not
    /// computed: only then may a declared class be tightened to a literal.
    pub literal_body: bool,
    /// What inference bound each positional parameter to (required, then
    /// optional), where the project's calls typed it.
    pub bound: Vec<Option<Type>>,
}

/// Calls to a method, by (receiver class, side, method): the positional
/// argument types of each call.
pub type Observations = HashMap<(Name, Side, String), Vec<Vec<Type>>>;

/// Where calls that could not be tied to one method are noted, by name.
pub fn unresolved_key(method: String) -> (Name, Side, String) {
    (Name::from("?"), Side::Instance, method)
}

/// What the walk found in one file.
#[derive(Default)]
pub struct Found {
    pub defs: Vec<DefSite>,
    pub observations: Observations,
    /// Superclasses as written (`class A < B::C`; `None` when computed, as
    /// in `Struct.new(:a)`), with the lexical nesting of the `class` line.
    pub superclasses: HashMap<Name, (Option<String>, Vec<Name>)>,
}

pub fn walk(
    root: &Node<'_>,
    index: &ProgramIndex<'_>,
    types: Option<&FileTypes>,
    lines: &crate::source::LineIndex,
) -> Found {
    let mut walker = Walker {
        index,
        types,
        lines,
        found: Found::default(),
        scopes: vec![Scope::top()],
        lexical: Vec::new(),
        named_visibility: Vec::new(),
        pending_visibility: None,
    };
    walker.visit(root);
    walker.apply_named_visibility();
    walker.found
}

/// A class body, a `class << self` body, a method body or a block: where
/// `self` is and what a bare `private` changes.
#[derive(Clone)]
struct Scope {
    class: Option<Name>,
    side: Side,
    /// In a class body (not a method or block), where `private` etc. apply.
    body: bool,
    default_visibility: Visibility,
    module_function: bool,
}

impl Scope {
    fn top() -> Scope {
        Scope {
            class: None,
            side: Side::Instance,
            body: false,
            default_visibility: Visibility::Public,
            module_function: false,
        }
    }

    fn class_body(class: Option<Name>, side: Side) -> Scope {
        Scope { class, side, body: true, default_visibility: Visibility::Public, module_function: false }
    }
}

struct Walker<'w, 'pr> {
    index: &'w ProgramIndex<'pr>,
    types: Option<&'w FileTypes>,
    lines: &'w crate::source::LineIndex,
    found: Found,
    scopes: Vec<Scope>,
    /// Names of the enclosing `class` and `module` bodies, outermost first.
    lexical: Vec<Name>,
    /// `private :a, :b`, `module_function :a` and the like, applied once
    /// every def is known: (class, side, method, change).
    named_visibility: Vec<(Name, Side, String, Change)>,
    /// `private def m`: what happens to the def being visited.
    pending_visibility: Option<Change>,
}

/// What a visibility call with method names does to them.
#[derive(Debug, Clone, Copy)]
enum Change {
    To(Visibility),
    ModuleFunction,
}

fn visibility_of(method: &str) -> Option<Visibility> {
    match method {
        "private" => Some(Visibility::Private),
        "protected" => Some(Visibility::Protected),
        "public" => Some(Visibility::Public),
        _ => None,
    }
}

impl<'pr> Walker<'_, 'pr> {
    fn scope(&self) -> &Scope {
        self.scopes.last().expect("the top scope")
    }

    fn in_scope(&mut self, scope: Scope, walk: impl FnOnce(&mut Self)) {
        self.scopes.push(scope);
        walk(self);
        self.scopes.pop();
    }

    /// A `class` or `module` body.
    fn in_namespace(&mut self, full: Option<Name>, walk: impl FnOnce(&mut Self)) {
        let depth = self.lexical.len();
        if let Some(full) = &full {
            self.lexical.push(full.clone());
        }
        self.in_scope(Scope::class_body(full, Side::Instance), walk);
        self.lexical.truncate(depth);
    }

    /// `private`, `private :m`, `private def m`, `private_class_method :m`,
    /// `module_function`: returns true when the call was one of them.
    fn visibility_call(&mut self, call: &CallNode<'pr>) -> bool {
        let scope = self.scope().clone();
        if !scope.body || call.receiver().is_some() {
            return false;
        }
        let Some(class) = scope.class.clone() else { return false };
        let method = name(call.name());
        let arguments: Vec<Node<'pr>> = call.arguments().map(|a| a.arguments().iter().collect()).unwrap_or_default();
        let (change, side) = match method.as_str() {
            "private_class_method" => (Change::To(Visibility::Private), Side::Singleton),
            "public_class_method" => (Change::To(Visibility::Public), Side::Singleton),
            "module_function" => (Change::ModuleFunction, Side::Instance),
            other => match visibility_of(other) {
                Some(visibility) => (Change::To(visibility), scope.side),
                None => return false,
            },
        };
        if arguments.is_empty() {
            let top = self.scopes.last_mut().expect("a scope");
            match change {
                Change::ModuleFunction => top.module_function = true,
                // A later bare `private`/`public` ends a `module_function` section.
                Change::To(visibility) if side == top.side => {
                    top.default_visibility = visibility;
                    top.module_function = false;
                }
                Change::To(_) => {}
            }
            return true;
        }
        for argument in &arguments {
            match argument {
                Node::DefNode { .. } => {
                    self.pending_visibility = Some(change);
                    self.visit(argument);
                    self.pending_visibility = None;
                }
                Node::SymbolNode { .. } | Node::StringNode { .. } => {
                    if let Some(text) = symbol_text(argument) {
                        self.named_visibility.push((class.clone(), side, text, change));
                    }
                }
                other => self.visit(other),
            }
        }
        true
    }

    fn apply_named_visibility(&mut self) {
        for (class, side, method, change) in std::mem::take(&mut self.named_visibility) {
            for def in &mut self.found.defs {
                if def.class == class && def.side == side && def.name == method {
                    match change {
                        Change::To(visibility) => def.visibility = visibility,
                        Change::ModuleFunction => def.module_function = true,
                    }
                }
            }
        }
    }

    fn record_def(&mut self, def: &ruby_prism::DefNode<'pr>) {
        let node = def.as_node();
        let offset = node.location().start() as usize;
        let Some(id) = self.index.def_at.get(&offset) else { return };
        let Some((class, side)) = self.index.def(*id).owner.clone() else { return };
        let method = name(def.name());
        let pending = self.pending_visibility.take();
        let scope = self.scope();
        let module_function =
            side == Side::Instance && (scope.module_function || matches!(pending, Some(Change::ModuleFunction)));
        let visibility = match pending {
            Some(Change::To(visibility)) => visibility,
            _ if def.receiver().is_some() => Visibility::Public,
            _ if scope.side == side => scope.default_visibility,
            _ => Visibility::Public,
        };
        self.found.defs.push(DefSite {
            offset,
            line: self.lines.position(offset).0,
            name: method,
            class,
            side,
            module_function,
            visibility: if module_function { Visibility::Public } else { visibility },
            params: def.parameters().map(|p| parameters(&p)).unwrap_or_default(),
            literal_body: def.body().is_some_and(|body| ends_in_literal(&body)),
            bound: Vec::new(),
        });
    }

    /// Notes a call this walk cannot tie to one method: every method of
    /// that name may have callers with arguments nobody observed.
    fn unresolved(&mut self, method: String) {
        self.found.observations.entry(unresolved_key(method)).or_default();
    }

    fn observe(&mut self, call: &CallNode<'pr>) {
        let Some(types) = self.types else { return };
        let method = name(call.name());
        let called = if method == "new" { "initialize".to_string() } else { method.clone() };
        // `send(:m, ...)`, `method(:m)`, `public_send`: `m` is called, unseen.
        if matches!(method.as_str(), "send" | "__send__" | "public_send" | "method" | "instance_method") {
            let first = call.arguments().and_then(|a| a.arguments().iter().next());
            if let Some(symbol) = first.as_ref().and_then(|f| f.as_symbol_node()) {
                self.unresolved(crate::syntax::decoded(symbol.unescaped()).into_owned());
            }
        }
        let target = match call.receiver() {
            None | Some(Node::SelfNode { .. }) => {
                let scope = self.scope();
                let Some(class) = scope.class.clone() else { return };
                let side = if scope.body { Side::Singleton } else { scope.side };
                (class, side, method)
            }
            Some(receiver) => match types.of(&receiver) {
                Some(Type::Singleton(class)) if method == "new" => (class.clone(), Side::Instance, "initialize".into()),
                Some(Type::Singleton(class)) => (class.clone(), Side::Singleton, method),
                Some(ty) => match ty.class_name() {
                    Some(class) => (Name::from(class), Side::Instance, method),
                    None => return self.unresolved(called),
                },
                None => return self.unresolved(called),
            },
        };
        let mut arguments = Vec::new();
        for argument in call.arguments().map(|a| a.arguments().iter().collect::<Vec<_>>()).unwrap_or_default() {
            if matches!(
                argument,
                Node::SplatNode { .. }
                    | Node::KeywordHashNode { .. }
                    | Node::BlockArgumentNode { .. }
                    | Node::ForwardingArgumentsNode { .. }
            ) {
                let called = if target.2 == "new" { "initialize".to_string() } else { target.2 };
                return self.unresolved(called);
            }
            arguments.push(types.of(&argument).cloned().unwrap_or_else(Type::untyped));
        }
        self.found.observations.entry(target).or_default().push(arguments);
    }
}

impl<'pr> Visit<'pr> for Walker<'_, 'pr> {
    fn visit_branch_node_enter(&mut self, _node: Node<'pr>) {
        ensure_room();
    }

    fn visit_class_node(&mut self, class: &ruby_prism::ClassNode<'pr>) {
        let path = class.constant_path();
        let full = self.index.class_at.get(&(path.location().start() as usize)).cloned();
        if let Some(superclass) = class.superclass() {
            if let Some(full) = &full {
                let written = (constant_path_text(&superclass), self.lexical.clone());
                self.found.superclasses.entry(full.clone()).or_insert(written);
            }
            self.visit(&superclass);
        }
        self.in_namespace(full, |walker| {
            if let Some(body) = class.body() {
                walker.visit(&body);
            }
        });
    }

    fn visit_module_node(&mut self, module: &ruby_prism::ModuleNode<'pr>) {
        let path = module.constant_path();
        let full = self.index.class_at.get(&(path.location().start() as usize)).cloned();
        self.in_namespace(full, |walker| {
            if let Some(body) = module.body() {
                walker.visit(&body);
            }
        });
    }

    fn visit_singleton_class_node(&mut self, singleton: &ruby_prism::SingletonClassNode<'pr>) {
        let on_self = matches!(singleton.expression(), Node::SelfNode { .. });
        let class = if on_self { self.scope().class.clone().filter(|_| self.scope().body) } else { None };
        self.visit(&singleton.expression());
        self.in_scope(Scope::class_body(class, Side::Singleton), |walker| {
            if let Some(body) = singleton.body() {
                walker.visit(&body);
            }
        });
    }

    fn visit_def_node(&mut self, def: &ruby_prism::DefNode<'pr>) {
        self.record_def(def);
        // `super` in it calls an ancestor's method of this name, unobserved.
        if contains_super(&def.as_node()) {
            self.unresolved(name(def.name()));
        }
        let scope = self.scope().clone();
        let side = if def.receiver().is_some() { Side::Singleton } else { scope.side };
        let inner = Scope { body: false, side, ..scope };
        self.in_scope(inner, |walker| ruby_prism::visit_def_node(walker, def));
    }

    fn visit_block_node(&mut self, block: &ruby_prism::BlockNode<'pr>) {
        let inner = Scope { body: false, ..self.scope().clone() };
        self.in_scope(inner, |walker| ruby_prism::visit_block_node(walker, block));
    }

    fn visit_call_node(&mut self, call: &CallNode<'pr>) {
        if self.visibility_call(call) {
            return;
        }
        // `alias_method :m2, :m`: a call of `m2` runs `m`, unseen as such.
        if matches!(name(call.name()).as_str(), "alias_method" | "define_method") {
            for argument in call.arguments().iter().flat_map(|a| a.arguments().iter()) {
                if let Some(aliased) = symbol_text(&argument) {
                    self.unresolved(aliased);
                }
            }
        }
        self.observe(call);
        ruby_prism::visit_call_node(self, call);
    }

    fn visit_alias_method_node(&mut self, alias: &ruby_prism::AliasMethodNode<'pr>) {
        for aliased in [alias.new_name(), alias.old_name()] {
            if let Some(aliased) = symbol_text(&aliased) {
                self.unresolved(aliased);
            }
        }
        ruby_prism::visit_alias_method_node(self, alias);
    }

    // `s.v += 1`, `h[k] ||= v`, `s.v, b = 1, 2`: a writer called with a
    // value the walk does not see.
    fn visit_call_operator_write_node(&mut self, node: &ruby_prism::CallOperatorWriteNode<'pr>) {
        self.unresolved(name(node.write_name()));
        ruby_prism::visit_call_operator_write_node(self, node);
    }

    fn visit_call_or_write_node(&mut self, node: &ruby_prism::CallOrWriteNode<'pr>) {
        self.unresolved(name(node.write_name()));
        ruby_prism::visit_call_or_write_node(self, node);
    }

    fn visit_call_and_write_node(&mut self, node: &ruby_prism::CallAndWriteNode<'pr>) {
        self.unresolved(name(node.write_name()));
        ruby_prism::visit_call_and_write_node(self, node);
    }

    fn visit_index_operator_write_node(&mut self, node: &ruby_prism::IndexOperatorWriteNode<'pr>) {
        self.unresolved("[]=".to_string());
        ruby_prism::visit_index_operator_write_node(self, node);
    }

    fn visit_index_or_write_node(&mut self, node: &ruby_prism::IndexOrWriteNode<'pr>) {
        self.unresolved("[]=".to_string());
        ruby_prism::visit_index_or_write_node(self, node);
    }

    fn visit_index_and_write_node(&mut self, node: &ruby_prism::IndexAndWriteNode<'pr>) {
        self.unresolved("[]=".to_string());
        ruby_prism::visit_index_and_write_node(self, node);
    }

    fn visit_call_target_node(&mut self, node: &ruby_prism::CallTargetNode<'pr>) {
        self.unresolved(name(node.name()));
        ruby_prism::visit_call_target_node(self, node);
    }

    fn visit_index_target_node(&mut self, node: &ruby_prism::IndexTargetNode<'pr>) {
        self.unresolved("[]=".to_string());
        ruby_prism::visit_index_target_node(self, node);
    }
}

fn symbol_text(node: &Node<'_>) -> Option<String> {
    match node {
        Node::SymbolNode { .. } => Some(crate::syntax::decoded(node.as_symbol_node()?.unescaped()).into_owned()),
        Node::StringNode { .. } => Some(crate::syntax::decoded(node.as_string_node()?.unescaped()).into_owned()),
        _ => None,
    }
}

fn parameters(list: &ruby_prism::ParametersNode<'_>) -> Vec<Param> {
    let mut params = Vec::new();
    params.extend(list.requireds().iter().map(|_| Param::Required));
    params.extend(list.optionals().iter().map(|_| Param::Optional));
    if list.rest().is_some() {
        params.push(Param::Rest);
    }
    params.extend(list.posts().iter().map(|_| Param::Trailing));
    for keyword in list.keywords().iter() {
        if let Some(required) = keyword.as_required_keyword_parameter_node() {
            params.push(Param::Keyword(keyword_name(required.name())));
        } else if let Some(optional) = keyword.as_optional_keyword_parameter_node() {
            params.push(Param::OptionalKeyword(keyword_name(optional.name())));
        }
    }
    match list.keyword_rest() {
        Some(Node::ForwardingParameterNode { .. }) => params.push(Param::Forwarding),
        Some(Node::NoKeywordsParameterNode { .. }) => params.push(Param::NoKeywords),
        Some(_) => params.push(Param::KeywordRest),
        None => {}
    }
    if list.block().is_some() {
        params.push(Param::Block);
    }
    params
}

/// `name:` is spelt with its colon by Prism.
fn keyword_name(id: ruby_prism::ConstantId<'_>) -> String {
    name(id).trim_end_matches(':').to_string()
}

/// Is the body's last expression a literal written out (`1`, `"x"`, `:a`,
/// `nil`, `true`, `1.5`)?
fn ends_in_literal(body: &Node<'_>) -> bool {
    let last = match body.as_statements_node() {
        Some(statements) => statements.body().iter().last(),
        None => Some(crate::syntax::node_clone(body)),
    };
    matches!(
        last,
        Some(
            Node::IntegerNode { .. }
                | Node::FloatNode { .. }
                | Node::StringNode { .. }
                | Node::SymbolNode { .. }
                | Node::TrueNode { .. }
                | Node::FalseNode { .. }
                | Node::NilNode { .. }
        )
    )
}

/// Does this node hold a `super` call (outside nested defs)?
fn contains_super(node: &Node<'_>) -> bool {
    struct Finder {
        found: bool,
        depth: usize,
    }
    impl<'pr> Visit<'pr> for Finder {
        fn visit_super_node(&mut self, _: &ruby_prism::SuperNode<'pr>) {
            self.found = true;
        }
        fn visit_forwarding_super_node(&mut self, _: &ruby_prism::ForwardingSuperNode<'pr>) {
            self.found = true;
        }
        fn visit_def_node(&mut self, def: &ruby_prism::DefNode<'pr>) {
            self.depth += 1;
            if self.depth == 1 {
                ruby_prism::visit_def_node(self, def);
            }
            self.depth -= 1;
        }
    }
    let mut finder = Finder { found: false, depth: 0 };
    finder.visit(node);
    finder.found
}
