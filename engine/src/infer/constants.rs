//! Constants: classes and modules are `singleton(C)`; constants assigned
//! in this file have the type of their value (inferred on demand, mutable
//! contents forgotten unless the value is frozen); the signatures' constants
//! have their declared type.

use std::rc::Rc;

use ruby_prism::Node;

use super::flow::{Flow, State};
use super::index::Side;
use super::{scope_writes, Frame, Inferrer};
use crate::syntax::name;
use crate::types::{union, Name, Type};

impl<'pr> Inferrer<'pr, '_> {
    pub fn constant_read(&mut self, node: &Node<'pr>, state: &mut State, frame: &Frame) -> Type {
        if let Some(read) = node.as_constant_read_node() {
            let written = name(read.name());
            return match self.index.resolve_constant(self.env, &frame.lexical, &written) {
                Some(full) => self.constant_type(&full),
                None => Type::untyped(),
            };
        }
        let Some(path) = node.as_constant_path_node() else { return Type::untyped() };
        let Some(last) = path.name().map(name) else { return Type::untyped() };
        match path.parent() {
            None => match self.index.resolve_constant(self.env, &[], &format!("::{last}")) {
                Some(full) => self.constant_type(&full),
                None => Type::untyped(),
            },
            Some(parent) => match self.expr(&parent, state, frame) {
                Type::Singleton(namespace) => {
                    let found = match self.index.resolve_member(self.env, &namespace, &last) {
                        Some(full) => self.constant_type(&full),
                        None => Type::untyped(),
                    };
                    if self.may_be_subclass(&parent, &namespace, frame) {
                        // `self::X` in a method: a subclass may define its own X.
                        union([found, Type::untyped()])
                    } else {
                        found
                    }
                }
                _ => Type::untyped(),
            },
        }
    }

    /// Can the class a namespace expression evaluates to be a subclass of
    /// `namespace`? A constant names exactly its class; so does `self` in a
    /// class body or a module; anything else (`self` in a method, a local)
    /// may hold a subclass.
    fn may_be_subclass(&self, parent: &Node<'pr>, namespace: &str, frame: &Frame) -> bool {
        match parent {
            Node::ConstantReadNode { .. } | Node::ConstantPathNode { .. } => false,
            Node::SelfNode { .. } => frame.method.is_some() && !self.is_module(namespace),
            _ => !self.is_module(namespace),
        }
    }

    /// Walks the namespace part of an assignment target (`A::B = ...`).
    pub fn constant_path_parent(
        &mut self,
        target: &ruby_prism::ConstantPathNode<'pr>,
        state: &mut State,
        frame: &Frame,
    ) {
        if let Some(parent) = target.parent() {
            self.expr(&parent, state, frame);
        }
        self.record(&target.as_node(), &Type::untyped());
    }

    pub(super) fn constant_type_of(&mut self, full: &Name) -> Type {
        self.constant_type(full)
    }

    fn constant_type(&mut self, full: &Name) -> Type {
        let found = self.constant_type_as_written(full);
        // Set or removed by name somewhere (`remove_const(:X)` then
        // `const_set(:X, v)`): it may hold anything by now.
        if self.index.constant_rewritten(full) {
            return union([found, Type::untyped()]);
        }
        // Mutated in place somewhere (`REGISTRY[k] = v`): what it holds
        // may be anything by now. (A signature's constant says what its
        // value holds, whoever adds to it.)
        if found.has_mutable_contents() && self.assigned_in_source(full) && self.index.constant_mutated(full) {
            return found.forget_contents();
        }
        found
    }

    /// Does this file or another assign the constant (rather than only a
    /// signature declaring it)?
    fn assigned_in_source(&self, full: &Name) -> bool {
        self.index.constants.contains_key(full) || self.index.project_constant(full).is_some()
    }

    pub(super) fn constant_type_as_written(&mut self, full: &Name) -> Type {
        if !self.index.constants.contains_key(full) {
            // Assigned in another file of the project: what that file's
            // inference found (`untyped` before the exports are in).
            if let Some(ty) = self.index.project_constant(full) {
                return ty;
            }
        }
        let is_class = self.index.class_shape(full).is_some() || self.env.has_class(full);
        if is_class && !self.index.constants.contains_key(full) {
            return Type::Singleton(full.clone());
        }
        if let Some(writes) = self.index.constants.get(full) {
            if let Some(known) = self.constants.get(full) {
                let known = known.clone();
                match known {
                    Some(_) => self.note_use(super::replay::Use::Const(full.clone())),
                    None => self.note_in_progress(super::replay::Use::Const(full.clone())),
                }
                return known.unwrap_or_else(Type::untyped);
            }
            // A window around this uses the constant: a replay of it
            // evaluates the constant at the same point.
            self.open_constant_window(full);
            self.constants.insert(full.clone(), None);
            let writes: Vec<(Node<'pr>, Vec<Name>)> =
                writes.iter().map(|w| (crate::syntax::node_clone(&w.value), w.lexical.clone())).collect();
            let mut types = Vec::new();
            for (value, lexical) in writes {
                types.push(self.constant_value(&value, lexical));
            }
            // Assigned again in another file (`Cfg::LIMIT = "s"`, a warning
            // in Ruby, not an error): it holds either file's value.
            types.extend(self.index.project_constant(full));
            let ty = union(types);
            self.constants.insert(full.clone(), Some(ty.clone()));
            self.close_window();
            return ty;
        }
        if let Some(rtype) = self.env.constant(full) {
            return self.rbs_type_plain(rtype);
        }
        Type::untyped()
    }

    /// A constant's value, evaluated where it is assigned, apart from any
    /// method's locals (which a constant's value may not depend on anyway,
    /// except at the top level: those read as unknown).
    fn constant_value(&mut self, value: &Node<'pr>, lexical: Vec<Name>) -> Type {
        let frozen = is_frozen_literal(value);
        let self_type = match lexical.last() {
            Some(class) => Type::Singleton(class.clone()),
            None => Type::nominal("Object"),
        };
        let class = lexical.last().map(|c| (c.clone(), Side::Singleton));
        let frame = Frame {
            self_type,
            lexical: Rc::new(lexical),
            class,
            self_known: true,
            method: None,
            writes: Rc::new(scope_writes::collect(value)),
            block_param: None,
            forwardable: None,
            entry_key: None,
            match_locals: None,
        };
        let saved_jumps = std::mem::take(&mut self.jumps);
        let saved_logs = std::mem::take(&mut self.assignment_logs);
        let saved_dead = std::mem::replace(&mut self.dead, 0);
        let mut state: State = Some(Flow::default());
        self.returns.push(Vec::new());
        let ty = self.expr(value, &mut state, &frame);
        self.returns.pop();
        self.jumps = saved_jumps;
        self.assignment_logs = saved_logs;
        self.dead = saved_dead;
        if frozen {
            ty
        } else if is_frozen_container(value) {
            // `{ a: [1] }.freeze`: its own contents stay; what it holds may
            // still be mutated by anyone (`freeze` is shallow: `D[:a] << "s"`),
            // so the containers in it keep only their classes.
            ty.forget_nested_contents()
        } else if is_frozen(value) {
            // `NAMES.map { ... }.uniq.freeze`: nobody can add to it.
            ty.forget_mutable()
        } else {
            // Anyone may mutate what a constant holds: its exact contents
            // go, and the literals its element types spell widen to their
            // classes (`KINDS = Set[:a]; KINDS << :b`: `Set[Symbol]`).
            widen_contents(ty.forget_mutable())
        }
    }
}

/// The literals in a container's type arguments widened to their classes
/// (`Set[:a]` → `Set[Symbol]`); what holds nothing stays as it is.
fn widen_contents(ty: Type) -> Type {
    crate::types::union(ty.members().iter().map(|member| match member {
        Type::Nominal { class, args } if !args.is_empty() => Type::Nominal {
            class: class.clone(),
            args: args.iter().map(|arg| crate::types::widen_literals(arg.clone())).collect(),
        },
        other => other.clone(),
    }))
}

/// `x.freeze`: whatever it is, frozen itself.
fn is_frozen(node: &Node<'_>) -> bool {
    node.as_call_node().is_some_and(|call| {
        name(call.name()) == "freeze"
            && call.arguments().is_none()
            && call.block().is_none()
            && call.receiver().is_some()
    })
}

/// `[...].freeze` or `{...}.freeze`: a literal container frozen itself,
/// whatever its elements are.
fn is_frozen_container(node: &Node<'_>) -> bool {
    node.as_call_node().is_some_and(|call| {
        name(call.name()) == "freeze"
            && call.arguments().is_none()
            && call.block().is_none()
            && matches!(call.receiver(), Some(Node::ArrayNode { .. } | Node::HashNode { .. }))
    })
}

/// Is this value deeply frozen, so a constant holding it keeps its
/// exact contents? (`"a"` under `frozen_string_literal`, `[1, :b].freeze`.)
fn is_frozen_literal(node: &Node<'_>) -> bool {
    match node {
        Node::IntegerNode { .. }
        | Node::FloatNode { .. }
        | Node::SymbolNode { .. }
        | Node::NilNode { .. }
        | Node::TrueNode { .. }
        | Node::FalseNode { .. } => true,
        Node::StringNode { .. } => node.as_string_node().is_some_and(|s| s.is_frozen()),
        Node::ParenthesesNode { .. } => node
            .as_parentheses_node()
            .and_then(|p| p.body())
            .and_then(|b| b.as_statements_node())
            .is_some_and(|s| s.body().len() == 1 && s.body().iter().all(|n| is_frozen_literal(&n))),
        Node::CallNode { .. } => {
            let Some(call) = node.as_call_node() else { return false };
            if name(call.name()) != "freeze" || call.arguments().is_some() || call.block().is_some() {
                return false;
            }
            match call.receiver() {
                Some(Node::StringNode { .. }) => true,
                Some(Node::ArrayNode { .. }) => call
                    .receiver()
                    .and_then(|r| r.as_array_node())
                    .is_some_and(|a| a.elements().iter().all(|e| is_frozen_literal(&e))),
                Some(receiver) => is_frozen_literal(&receiver),
                None => false,
            }
        }
        _ => false,
    }
}
