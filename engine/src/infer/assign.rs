//! Assignments and what they share: locals and instance variables bound
//! from values, `||=`/`&&=`, multiple assignment targets, and how a mutable
//! value's exact contents are forgotten once someone else may reach it
//! (aliasing, arguments) or grow when it is mutated (`a << x`).

use ruby_prism::Node;

use super::flow::State;
use super::{Frame, Inferrer};
use crate::syntax::name;
use crate::types::{join, union, Literal, Type};

pub fn is_variable_read(node: &Node<'_>) -> bool {
    match node {
        Node::LocalVariableReadNode { .. } | Node::InstanceVariableReadNode { .. } => true,
        Node::ParenthesesNode { .. } => node
            .as_parentheses_node()
            .and_then(|p| p.body())
            .and_then(|b| b.as_statements_node())
            .and_then(|s| s.body().iter().last())
            .is_some_and(|last| is_variable_read(&last)),
        _ => false,
    }
}

/// `a[2] = a`, `h[:self] = h`, `a << [a]`: does an argument hold the
/// receiver's own variable, itself or inside literals? The container then
/// holds itself, and an element read from it may be it: a write through
/// that element changes the container's own elements.
pub(super) fn stores_itself(receiver: &Node<'_>, arguments: Option<ruby_prism::ArgumentsNode<'_>>) -> bool {
    let same = |node: &Node<'_>| match (receiver, node) {
        (Node::LocalVariableReadNode { .. }, Node::LocalVariableReadNode { .. }) => {
            let (Some(a), Some(b)) = (receiver.as_local_variable_read_node(), node.as_local_variable_read_node())
            else {
                return false;
            };
            a.name().as_slice() == b.name().as_slice() && a.depth() == b.depth()
        }
        (Node::InstanceVariableReadNode { .. }, Node::InstanceVariableReadNode { .. }) => {
            let (Some(a), Some(b)) = (receiver.as_instance_variable_read_node(), node.as_instance_variable_read_node())
            else {
                return false;
            };
            a.name().as_slice() == b.name().as_slice()
        }
        _ => false,
    };
    fn holds(node: &Node<'_>, same: &dyn Fn(&Node<'_>) -> bool) -> bool {
        if same(node) {
            return true;
        }
        match node {
            Node::ArrayNode { .. } => {
                node.as_array_node().is_some_and(|a| a.elements().iter().any(|e| holds(&e, same)))
            }
            Node::HashNode { .. } => node.as_hash_node().is_some_and(|h| h.elements().iter().any(|e| holds(&e, same))),
            Node::KeywordHashNode { .. } => {
                node.as_keyword_hash_node().is_some_and(|h| h.elements().iter().any(|e| holds(&e, same)))
            }
            Node::AssocNode { .. } => {
                node.as_assoc_node().is_some_and(|a| holds(&a.key(), same) || holds(&a.value(), same))
            }
            Node::AssocSplatNode { .. } => {
                node.as_assoc_splat_node().and_then(|s| s.value()).is_some_and(|v| holds(&v, same))
            }
            Node::SplatNode { .. } => {
                node.as_splat_node().and_then(|s| s.expression()).is_some_and(|e| holds(&e, same))
            }
            Node::ParenthesesNode { .. } => node
                .as_parentheses_node()
                .and_then(|p| p.body())
                .and_then(|b| b.as_statements_node())
                .and_then(|s| s.body().iter().last())
                .is_some_and(|last| holds(&last, same)),
            _ => false,
        }
    }
    arguments.is_some_and(|args| args.arguments().iter().any(|arg| holds(&arg, &same)))
}

/// May a value of this type be changed in place (`<<`, `upcase!`)? Not
/// an Integer, Float, Symbol, nil, true, false or a class.
fn may_be_changed_in_place(ty: &Type) -> bool {
    ty.members().iter().any(|member| match member {
        Type::Constant(literal) => matches!(literal, Literal::Str(_)),
        Type::IntRange { .. } | Type::Singleton(_) | Type::Bot => false,
        Type::Nominal { class, .. } => !matches!(
            &**class,
            "Integer" | "Float" | "Symbol" | "NilClass" | "TrueClass" | "FalseClass" | "Rational" | "Complex"
        ),
        _ => true,
    })
}

/// Methods that may give back their receiver itself: Array's, String's
/// and Hash's that return `self` (a `!` one, `self` or nil), and Object's.
pub(super) fn gives_receiver_back(method: &str) -> bool {
    method.ends_with('!')
        || matches!(
            method,
            "<<" | "push"
                | "append"
                | "prepend"
                | "unshift"
                | "concat"
                | "insert"
                | "replace"
                | "clear"
                | "fill"
                | "keep_if"
                | "delete_if"
                | "update"
                | "force_encoding"
                | "compare_by_identity"
                | "rehash"
                | "to_a"
                | "to_ary"
                | "to_s"
                | "to_str"
                | "to_h"
                | "to_hash"
                | "itself"
                | "tap"
                | "freeze"
                | "each"
                | "each_with_index"
                | "each_pair"
                | "each_key"
                | "each_value"
                | "each_char"
                | "each_line"
                | "each_byte"
        )
}

/// The expressions whose value `node` may evaluate to, when it only hands
/// one on: either side of `&&`/`||`, the branches of `if`/`unless`/`case`,
/// the last statement of parentheses or a `begin` (or a rescue of it), the
/// value of an assignment.
fn values_it_may_be<'pr>(node: &Node<'pr>) -> Vec<Node<'pr>> {
    let last = |statements: Option<ruby_prism::StatementsNode<'pr>>| -> Vec<Node<'pr>> {
        statements.and_then(|s| s.body().iter().last()).into_iter().collect()
    };
    match node {
        Node::AndNode { .. } => node.as_and_node().map(|n| vec![n.left(), n.right()]).unwrap_or_default(),
        Node::OrNode { .. } => node.as_or_node().map(|n| vec![n.left(), n.right()]).unwrap_or_default(),
        Node::ParenthesesNode { .. } => node
            .as_parentheses_node()
            .and_then(|p| p.body())
            .map(|body| match body.as_statements_node() {
                Some(statements) => last(Some(statements)),
                None => vec![body],
            })
            .unwrap_or_default(),
        Node::IfNode { .. } => {
            let Some(branch) = node.as_if_node() else { return Vec::new() };
            let mut out = last(branch.statements());
            out.extend(branch.subsequent());
            out
        }
        Node::UnlessNode { .. } => {
            let Some(branch) = node.as_unless_node() else { return Vec::new() };
            let mut out = last(branch.statements());
            out.extend(branch.else_clause().map(|e| e.as_node()));
            out
        }
        Node::ElseNode { .. } => last(node.as_else_node().and_then(|e| e.statements())),
        Node::CaseNode { .. } => {
            let Some(case) = node.as_case_node() else { return Vec::new() };
            let mut out: Vec<Node<'pr>> = case
                .conditions()
                .iter()
                .flat_map(|when| last(when.as_when_node().and_then(|w| w.statements())))
                .collect();
            out.extend(case.else_clause().map(|e| e.as_node()));
            out
        }
        Node::BeginNode { .. } => {
            let Some(begin) = node.as_begin_node() else { return Vec::new() };
            let mut out = match begin.else_clause() {
                Some(otherwise) => vec![otherwise.as_node()],
                None => last(begin.statements()),
            };
            let mut rescue = begin.rescue_clause();
            while let Some(clause) = rescue {
                out.extend(last(clause.statements()));
                rescue = clause.subsequent();
            }
            out
        }
        Node::StatementsNode { .. } => last(node.as_statements_node()),
        Node::LocalVariableWriteNode { .. } => {
            node.as_local_variable_write_node().map(|w| vec![w.value()]).unwrap_or_default()
        }
        Node::InstanceVariableWriteNode { .. } => {
            node.as_instance_variable_write_node().map(|w| vec![w.value()]).unwrap_or_default()
        }
        _ => Vec::new(),
    }
}

/// Methods that add elements to an Array or entries to a Hash, taking
/// the new elements as arguments (the last, for `[]=` and `insert`).
pub(super) const ADDS_ARGUMENTS: &[&str] = &["<<", "push", "append", "unshift", "prepend"];

/// Marks, among an ivar's mutations, one of something it holds
/// (`@groups.fetch("admin") << user`).
pub const NESTED_MUTATION: &str = "<nested>";

/// The instance variable a chain of calls starts from (`@groups` of
/// `@groups.fetch("admin")`, and of `@groups` itself).
pub fn ivar_root(node: &Node<'_>) -> Option<String> {
    let mut current = crate::syntax::node_clone(node);
    for _ in 0..64 {
        if let Some(read) = current.as_instance_variable_read_node() {
            return Some(name(read.name()));
        }
        current = current.as_call_node()?.receiver()?;
    }
    None
}

/// Keys a hash of its own variable's grows to before it is only a Hash.
const MAX_SHAPE_FIELDS: usize = 64;

/// A container's type after `method(args)` mutated it.
pub fn mutated_container(ty: &Type, method: &str, args: &[Type]) -> Type {
    if method == NESTED_MUTATION {
        return ty.forget_nested_contents();
    }
    let widened = |t: &Type| crate::types::widen_literals(t.clone());
    union(ty.members().iter().map(|member| {
        // Its own hash given a key written out (`opts[:retries] = 3`): the
        // same keys and that one, each value's class.
        if let (Type::Shape(shape), "[]=" | "store", [Type::Constant(Literal::Sym(key)), value]) =
            (member, method, args)
        {
            if shape.fields.len() >= MAX_SHAPE_FIELDS {
                return Type::generic("Hash", vec![Type::untyped(), Type::untyped()]);
            }
            let mut shape = shape.clone();
            for field in &mut shape.fields {
                field.ty = widened(&field.ty);
            }
            match shape.fields.iter_mut().find(|f| *f.key == **key) {
                Some(field) if field.readonly => return Type::generic("Hash", vec![Type::untyped(), Type::untyped()]),
                Some(field) => {
                    field.ty = widened(value);
                    field.optional = false;
                }
                None => shape.fields.push(crate::types::ShapeField {
                    key: key.to_string(),
                    ty: widened(value),
                    optional: false,
                    readonly: false,
                }),
            }
            return Type::Shape(shape);
        }
        // An exact array's elements are all known: what is added joins them.
        let settled = match member {
            Type::Tuple(elements) => Type::generic("Array", vec![union(elements.iter().map(widened))]),
            // Its own hash, grown here: what it holds stays known.
            Type::Shape(_) => widened(member),
            other => other.forget_mutable(),
        };
        match (&settled, method) {
            (Type::Nominal { class, args: elements }, _) if &**class == "Array" && elements.len() == 1 => {
                let element = &elements[0];
                let added: Option<Vec<Type>> = match method {
                    m if ADDS_ARGUMENTS.contains(&m) => Some(args.iter().map(widened).collect()),
                    "[]=" | "insert" => Some(placed(method, args, known_length(member))),
                    "concat" | "replace" => Some(
                        args.iter()
                            .map(|a| match widened(a) {
                                Type::Nominal { class, args } if &*class == "Array" && args.len() == 1 => {
                                    args[0].clone()
                                }
                                _ => Type::untyped(),
                            })
                            .collect(),
                    ),
                    "pop" | "shift" | "delete" | "delete_at" | "delete_if" | "keep_if" | "clear" | "compact!"
                    | "uniq!" | "sort!" | "sort_by!" | "reverse!" | "rotate!" | "shuffle!" | "select!" | "reject!"
                    | "filter!" | "slice!" | "freeze" => Some(Vec::new()),
                    // `fill` may take its values from a block this does not
                    // see, and grow the array with nils: unknown.
                    _ => None,
                };
                match added {
                    Some(added) => Type::generic("Array", vec![union(std::iter::once(element.clone()).chain(added))]),
                    None => Type::generic("Array", vec![Type::untyped()]),
                }
            }
            (Type::Nominal { class, args: kv }, _) if &**class == "Hash" && kv.len() == 2 => match (method, args) {
                ("[]=" | "store", [key, value]) => Type::generic(
                    "Hash",
                    vec![union([kv[0].clone(), widened(key)]), union([kv[1].clone(), widened(value)])],
                ),
                // A missing key reads the new default (`h[:gone]`): it joins
                // what a read may give, as a value would. A default that is
                // not nil means a read never gives nil, which `Hash[K, V]`
                // cannot say (its `[]` gives `V?`): an untyped member keeps
                // the nil rule off, as after `Hash.new(default)`.
                ("default=", [value]) => {
                    let mut read = vec![kv[1].clone(), widened(value)];
                    if !value.may_be_nil() {
                        read.push(Type::untyped());
                    }
                    Type::generic("Hash", vec![kv[0].clone(), union(read)])
                }
                (
                    "delete"
                    | "delete_if"
                    | "keep_if"
                    | "clear"
                    | "select!"
                    | "reject!"
                    | "filter!"
                    | "compact!"
                    | "shift"
                    | "compare_by_identity"
                    | "rehash"
                    | "freeze",
                    _,
                ) => settled.clone(),
                _ => Type::generic("Hash", vec![Type::untyped(), Type::untyped()]),
            },
            (Type::Nominal { class, args: elements }, _) if &**class == "Set" && elements.len() == 1 => {
                match method {
                    "<<" | "add" | "add?" => Type::generic(
                        "Set",
                        vec![union(std::iter::once(elements[0].clone()).chain(args.iter().map(widened)))],
                    ),
                    // What only removes keeps the element type.
                    "delete"
                    | "delete?"
                    | "delete_if"
                    | "keep_if"
                    | "select!"
                    | "filter!"
                    | "reject!"
                    | "subtract"
                    | "clear"
                    | "reset"
                    | "compare_by_identity"
                    | "freeze" => settled.clone(),
                    // `merge`, `replace`, `map!`, `flatten!`: anything.
                    _ => Type::generic("Set", vec![Type::untyped()]),
                }
            }
            (Type::Nominal { class, .. }, _) if &**class == "String" => settled.clone(),
            _ => settled.clone(),
        }
    }))
}

/// How many elements an array is known to hold (0 when unknown: every
/// array holds at least that many).
fn known_length(array: &Type) -> i64 {
    match array {
        Type::Tuple(elements) => elements.len() as i64,
        _ => 0,
    }
}

/// What `a[index] = value` or `a.insert(index, *values)` adds to an array
/// of at least `length` elements. An index past the end pads the gap with
/// nil (`a = [1]; a[3] = 2` is `[1, nil, nil, 2]`); a range or a start and
/// length (`a[0..1] = [x]`) splices an array's elements in.
fn placed(method: &str, args: &[Type], length: i64) -> Vec<Type> {
    let widened = |t: &Type| crate::types::widen_literals(t.clone());
    let (Some(index), values) = (args.first(), args.get(1..).unwrap_or(&[])) else { return Vec::new() };
    // A negative index never pads: it replaces, or raises IndexError.
    let no_gap = matches!(index, Type::Constant(Literal::Int(i)) if *i < 0 || *i <= length);
    let integer = |t: &Type| {
        matches!(t, Type::Constant(Literal::Int(_)) | Type::IntRange { .. })
            || matches!(t, Type::Nominal { class, .. } if &**class == "Integer")
    };
    let mut added: Vec<Type> = match (method, values) {
        ("[]=", [value]) if integer(index) => vec![widened(value)],
        ("[]=", _) => values.last().map(|value| spliced(&widened(value))).unwrap_or_default(),
        _ => values.iter().map(widened).collect(),
    };
    if values.is_empty() {
        return added;
    }
    if !no_gap || method == "[]=" && values.len() > 1 {
        added.push(Type::nil());
    }
    added
}

/// A value spliced into an array: an array's elements, or itself.
fn spliced(value: &Type) -> Vec<Type> {
    value
        .members()
        .iter()
        .flat_map(|member| match member {
            Type::Tuple(elements) => elements.clone(),
            Type::Nominal { class, args } if &**class == "Array" && args.len() == 1 => vec![args[0].clone()],
            Type::Dynamic(_) => vec![Type::untyped()],
            // `a[0..1] = nil` stores nil; anything not an array goes in whole.
            other => vec![other.clone()],
        })
        .collect()
}

/// What a multiple assignment binds: the targets before a splat, the
/// splat's array, the targets after it.
pub type Destructured = (Vec<Type>, Type, Vec<Type>);

/// Splits a value the way `a, *b, c = value` does.
pub fn destructure(value: &Type, lefts: usize, rights: usize) -> Destructured {
    match value {
        Type::Tuple(elements) => {
            let element = |i: usize| elements.get(i).cloned().unwrap_or_else(Type::nil).forget_exact();
            let left: Vec<Type> = (0..lefts).map(element).collect();
            let rest_end = elements.len().saturating_sub(rights).max(lefts);
            let rest: Vec<Type> = elements.get(lefts..rest_end).unwrap_or(&[]).iter().map(Type::forget_exact).collect();
            let right: Vec<Type> = (0..rights).map(|i| element(rest_end + i)).collect();
            (left, Type::Tuple(rest), right)
        }
        Type::Nominal { class, args } if &**class == "Array" => {
            let element = args.first().cloned().unwrap_or_else(Type::untyped);
            let maybe = union([element.clone(), Type::nil()]);
            (vec![maybe.clone(); lefts], value.clone(), vec![maybe; rights])
        }
        // One value that is not an array, nil too, is the one element of
        // `[value]` (`*a = nil` makes `a` `[nil]`):
        // the first target takes it, or the first after a splat when no
        // target stands before it (`*a, b = 1` leaves `a` empty, `b` 1).
        Type::Constant(_) | Type::Singleton(_) | Type::Shape(_) | Type::IntRange { .. } => {
            let element = |i: usize| if i == 0 { value.clone() } else { Type::nil() };
            let left: Vec<Type> = (0..lefts).map(element).collect();
            let rest_end = 1usize.saturating_sub(rights).max(lefts);
            let rest = Type::Tuple((lefts..rest_end).map(element).collect());
            let right: Vec<Type> = (0..rights).map(|i| element(rest_end + i)).collect();
            (left, rest, right)
        }
        // One of several shapes (`f ? [a, b] : [c, d]`): each position
        // holds what it holds in any of them. A member that may answer
        // `to_ary` its own way leaves it all unknown.
        Type::Union(members) if members.iter().all(destructures_plainly) => {
            let parts: Vec<Destructured> = members.iter().map(|m| destructure(m, lefts, rights)).collect();
            let at = |side: fn(&Destructured) -> &Vec<Type>, i: usize| union(parts.iter().map(|p| side(p)[i].clone()));
            let left = (0..lefts).map(|i| at(|p| &p.0, i)).collect();
            let right = (0..rights).map(|i| at(|p| &p.2, i)).collect();
            (left, union(parts.iter().map(|p| p.1.clone())), right)
        }
        _ => (vec![Type::untyped(); lefts], Type::untyped(), vec![Type::untyped(); rights]),
    }
}

/// Is `ty` destructured by the cases above, without `to_ary` of its own?
fn destructures_plainly(ty: &Type) -> bool {
    match ty {
        Type::Tuple(_) | Type::Constant(_) | Type::Singleton(_) | Type::Shape(_) | Type::IntRange { .. } => true,
        Type::Nominal { class, .. } => &**class == "Array",
        _ => false,
    }
}

impl<'pr> Inferrer<'pr, '_> {
    /// A read of a local. A mutable literal read anywhere it may be
    /// mutated or kept (see `escape`) loses its exact contents.
    pub(super) fn read_local(&mut self, local: &str, _node: &Node<'pr>, state: &mut State) -> Type {
        state.as_ref().map_or(Type::untyped(), |flow| flow.local(local))
    }

    /// The value of `node` may now be mutated or kept by someone else: a
    /// local or instance variable it reads forgets exact mutable contents.
    /// So does one it may evaluate to (`a || []`, `f ? a : b`, a `case`'s
    /// or a `begin`'s last statement, `a.push(x)` which gives `a` back).
    /// Says whether it reached a variable.
    pub fn escape(&mut self, node: &Node<'pr>, state: &mut State) -> bool {
        let Some(flow) = state.as_mut() else { return false };
        match node {
            Node::LocalVariableReadNode { .. } => {
                if let Some(read) = node.as_local_variable_read_node() {
                    forget_local_contents(flow, &crate::syntax::name_text(read.name()));
                }
                true
            }
            Node::InstanceVariableReadNode { .. } => {
                if let Some(read) = node.as_instance_variable_read_node() {
                    flow.ivars.remove(&*crate::syntax::name_text(read.name()));
                }
                // Whoever has the object may change it: a caller of this
                // method that knew what the ivar held knows no longer.
                if self.recorded(node).is_none_or(may_be_changed_in_place) {
                    super::methods::changes_ivar_contents(flow);
                }
                true
            }
            // `a = b = [1]`, `a = (@b = [])`: the value written is the one
            // passed on, so the written variable shares it too.
            Node::LocalVariableWriteNode { .. } => {
                let Some(write) = node.as_local_variable_write_node() else { return false };
                forget_local_contents(flow, &crate::syntax::name_text(write.name()));
                self.escape(&write.value(), state);
                true
            }
            Node::InstanceVariableWriteNode { .. } => {
                let Some(write) = node.as_instance_variable_write_node() else { return false };
                flow.ivars.remove(&name(write.name()));
                self.escape(&write.value(), state);
                true
            }
            // A value kept in a global or a class variable, which any code
            // may reach (a write elsewhere is a write to this object).
            Node::GlobalVariableWriteNode { .. }
            | Node::ClassVariableWriteNode { .. }
            | Node::ConstantWriteNode { .. }
            | Node::IndexOrWriteNode { .. }
            | Node::CallOrWriteNode { .. } => {
                let value = match node {
                    Node::GlobalVariableWriteNode { .. } => node.as_global_variable_write_node().map(|w| w.value()),
                    Node::ClassVariableWriteNode { .. } => node.as_class_variable_write_node().map(|w| w.value()),
                    Node::ConstantWriteNode { .. } => node.as_constant_write_node().map(|w| w.value()),
                    _ => None,
                };
                if let Some(value) = value {
                    self.escape(&value, state);
                }
                true
            }
            // `a[0]`, `h.fetch(:k).first`: a value that may be one of the
            // receiver's own elements takes the receiver's contents along.
            Node::CallNode { .. }
                if self.recorded(node).is_some_and(Type::has_mutable_contents) && self.may_be_an_element(node) =>
            {
                match node.as_call_node().and_then(|c| c.receiver()) {
                    Some(receiver) => {
                        self.escape(&receiver, state);
                        true
                    }
                    None => false,
                }
            }
            // (Only a receiver with contents of its own to share: `5.to_s`
            // is a new string.)
            Node::CallNode { .. } => {
                let Some(call) = node.as_call_node() else { return false };
                // `a.fetch(k) { a }`, `a.delete(x) { a }`: the call may give
                // back what its block gives.
                let mut reached = false;
                if let Some(block) = call.block().and_then(|b| b.as_block_node()) {
                    let last = block.body().and_then(|body| match body.as_statements_node() {
                        Some(statements) => statements.body().iter().last(),
                        None => Some(body),
                    });
                    // (Only a variable from outside the block: its own
                    // parameters and locals are new names for new values.)
                    let outer = last.filter(|last| match last {
                        Node::LocalVariableReadNode { .. } => {
                            last.as_local_variable_read_node().is_some_and(|read| read.depth() > 0)
                        }
                        Node::InstanceVariableReadNode { .. } => true,
                        _ => false,
                    });
                    if let Some(outer) = outer {
                        reached |= self.escape(&outer, state);
                    }
                    // `a.each.with_index { }`, `a.keep_if.each { }` give `a`
                    // back, as `a.each { }` does: the chain's source.
                    let source = call.receiver().and_then(|receiver| self.enumerator_source(&receiver));
                    if let Some(source) = source {
                        if self.recorded(&source).is_some_and(Type::has_mutable_contents) {
                            return self.escape(&source, state) || reached;
                        }
                    }
                }
                if gives_receiver_back(&crate::syntax::name_text(call.name())) {
                    reached |= call.receiver().is_some_and(|receiver| {
                        self.recorded(&receiver).is_some_and(Type::has_mutable_contents)
                            && self.escape(&receiver, state)
                    });
                }
                reached
            }
            _ => {
                let mut reached = false;
                for value in values_it_may_be(node) {
                    reached |= self.escape(&value, state);
                }
                reached
            }
        }
    }

    /// `a.each` (or any call without a block giving an Enumerator) on a
    /// receiver whose contents its type describes: the enumerator, kept,
    /// yields whatever the receiver holds later, so its element types go,
    /// and the receiver is reachable through it.
    fn live_enumerator(&mut self, value: &Node<'pr>, ty: &Type, state: &mut State) -> Option<Type> {
        let call = value.as_call_node().filter(|c| c.block().is_none())?;
        let receiver = call.receiver()?;
        let holds = |t: &Type| t.has_mutable_contents() || t.has_nested_mutable_contents();
        if !self.recorded(&receiver).is_some_and(holds) {
            return None;
        }
        let forgotten = union(
            ty.members()
                .iter()
                .map(|member| match member {
                    Type::Nominal { class, args } if class.starts_with("Enumerator") && !args.is_empty() => {
                        Some(Type::generic(class, vec![Type::untyped(); args.len()]))
                    }
                    _ => None,
                })
                .collect::<Option<Vec<Type>>>()?,
        );
        self.escape(&receiver, state);
        Some(forgotten)
    }

    /// Is `node` a call whose result may be one of its receiver's own
    /// elements, which the receiver's type describes (`a[0]` of
    /// `[Array[Integer]]`)? Then the two share that element.
    pub(super) fn may_be_an_element(&self, node: &Node<'pr>) -> bool {
        node.as_call_node()
            .and_then(|c| c.receiver())
            .and_then(|receiver| self.recorded(&receiver))
            .is_some_and(Type::has_nested_mutable_contents)
    }

    /// `a[0] << x`, `h[:k][:j] = v`: a mutation of something reached from
    /// a variable changes what the variable holds.
    fn escape_root(&mut self, node: &Node<'pr>, state: &mut State) {
        match node.as_call_node().and_then(|c| c.receiver()) {
            Some(receiver) if matches!(receiver, Node::CallNode { .. }) => self.escape_root(&receiver, state),
            // `k << "q"` (`def k = @x`), `self.items.clear`: what a method of
            // the object gives may be what any of its ivars holds.
            None | Some(Node::SelfNode { .. }) => {
                // (Asked first: see `forget_local_contents`.)
                if let Some(flow) = state.as_mut() {
                    super::methods::changes_ivar_contents(flow);
                }
                if let Some(flow) = state.as_mut().filter(|f| f.ivars.values().any(Type::has_mutable_contents)) {
                    flow.ivars.retain(|_, held| !held.has_mutable_contents());
                }
            }
            Some(receiver) => {
                self.escape(&receiver, state);
            }
        }
    }

    /// `b = a`: both names now reach one object, and a mutation through
    /// either is invisible to the other, so neither keeps exact contents.
    pub fn alias_of(&mut self, value: &Node<'pr>, ty: &Type, state: &mut State) -> Type {
        // `e = a.each`: the enumerator walks `a` as it is when it runs, so
        // what it yields may be whatever `a` comes to hold.
        if let Some(live) = self.live_enumerator(value, ty, state) {
            return live;
        }
        // `b = a[0]` too: b may be one of a's elements, changed through
        // either; and `b = a || []`, `b = a.push(1)`. (Whatever `b`'s type:
        // `a.to_s` may be `untyped` where a file redefines `to_s`, and still
        // be `a` itself.)
        if self.escape(value, state) && ty.has_mutable_contents() {
            ty.forget_contents()
        } else {
            ty.clone()
        }
    }

    /// `a << x`, `h[k] = v`: what a variable holding a container may hold
    /// after a mutating call (element types grow; unknown mutators forget).
    pub fn mutate_variable(
        &mut self,
        node: &Node<'pr>,
        method: &str,
        args: &[Type],
        call_span: std::ops::Range<usize>,
        state: &mut State,
        frame: &Frame,
    ) {
        let Some(current) = self.recorded(node).cloned() else { return };
        let after = mutated_container(&current, method, args);
        match node {
            Node::LocalVariableReadNode { .. } => {
                if let (Some(read), Some(flow)) = (node.as_local_variable_read_node(), state.as_mut()) {
                    let local = name(read.name());
                    // `x.push((x = nil; 2))`, `x.tap { x = 1 }`: the call's
                    // arguments or block may bind `x` anew, and then `x`
                    // holds that, not the object changed.
                    let rebound = frame.written_in(call_span).any(|written| *written == local);
                    if flow.locals.contains_key(&local) {
                        let after = if rebound { crate::types::join(&flow.local(&local), &after) } else { after };
                        flow.bind(&local, after);
                    }
                }
            }
            Node::InstanceVariableReadNode { .. } => {
                if let Some(read) = node.as_instance_variable_read_node() {
                    let ivar = name(read.name());
                    // Other methods see what this one put in; this one goes
                    // on with the object it holds, changed.
                    self.note_ivar_mutation(frame, &ivar, method, args);
                    if let Some(flow) = state.as_mut() {
                        super::methods::changes_ivar_contents(flow);
                        if flow.ivars.contains_key(&ivar) {
                            flow.ivars.insert(ivar, after.settle_elements());
                        }
                    }
                }
            }
            Node::CallNode { .. } => {
                // `@groups.fetch("admin") << user`: what the ivar holds
                // holds something else now, here and in other methods.
                if let Some(ivar) = ivar_root(node) {
                    self.note_ivar_mutation(frame, &ivar, NESTED_MUTATION, &[]);
                    if let Some(flow) = state.as_mut() {
                        super::methods::changes_ivar_contents(flow);
                        if let Some(held) = flow.ivars.get(&ivar).cloned() {
                            flow.ivars.insert(ivar, held.forget_nested_contents());
                        }
                    }
                }
                self.escape_root(node, state)
            }
            _ => {
                self.escape(node, state);
            }
        }
    }

    pub fn assign_local(&mut self, local: &str, ty: &Type, state: &mut State) {
        if self.dead == 0 {
            if let Some(log) = self.assignment_logs.last_mut() {
                log.push((local.to_string(), ty.clone()));
            }
        }
        if let Some(flow) = state.as_mut() {
            flow.bind(local, ty.settle_elements());
        }
    }

    /// `x ||= v`: `v` runs only when `x` is falsy.
    pub(super) fn or_write(&mut self, current: &Type, value: &Node<'pr>, state: &mut State, frame: &Frame) -> Type {
        if !current.may_be_falsy() {
            self.dead(value, frame);
            return current.clone();
        }
        let skipped = state.clone();
        let assigned = self.expr(value, state, frame);
        // `b ||= a`: both names reach one object.
        let assigned = self.alias_of(value, &assigned, state);
        *state = super::flow::join_states(&skipped, state);
        join(&current.truthy_part(), &assigned)
    }

    /// `x &&= v`: `v` runs only when `x` is truthy.
    pub(super) fn and_write(&mut self, current: &Type, value: &Node<'pr>, state: &mut State, frame: &Frame) -> Type {
        if !current.may_be_truthy() {
            self.dead(value, frame);
            return current.clone();
        }
        let skipped = state.clone();
        let assigned = self.expr(value, state, frame);
        let assigned = self.alias_of(value, &assigned, state);
        *state = super::flow::join_states(&skipped, state);
        join(&current.falsy_part(), &assigned)
    }

    /// Binds each target of `a, (b, *c), d = value`.
    pub fn destructure_into(
        &mut self,
        value: &Type,
        lefts: &[Node<'pr>],
        rest: Option<Node<'pr>>,
        rights: &[Node<'pr>],
        state: &mut State,
        frame: &Frame,
    ) {
        let (left_types, rest_type, right_types) = destructure(value, lefts.len(), rights.len());
        for (target, ty) in lefts.iter().zip(left_types) {
            self.assign_target(target, &ty, state, frame);
        }
        if let Some(rest) = rest {
            if let Some(splat) = rest.as_splat_node() {
                if let Some(expression) = splat.expression() {
                    self.assign_target(&expression, &rest_type, state, frame);
                }
            }
            self.record(&rest, &rest_type);
        }
        for (target, ty) in rights.iter().zip(right_types) {
            self.assign_target(target, &ty, state, frame);
        }
    }

    /// Assigns `ty` to an assignment target and records it.
    pub fn assign_target(&mut self, target: &Node<'pr>, ty: &Type, state: &mut State, frame: &Frame) {
        match target {
            Node::LocalVariableTargetNode { .. } => {
                if let Some(t) = target.as_local_variable_target_node() {
                    self.assign_local(&name(t.name()), ty, state);
                }
            }
            Node::LocalVariableReadNode { .. } => {
                if let Some(t) = target.as_local_variable_read_node() {
                    self.assign_local(&name(t.name()), ty, state);
                }
            }
            Node::RequiredParameterNode { .. } => {
                if let Some(t) = target.as_required_parameter_node() {
                    self.assign_local(&name(t.name()), ty, state);
                }
            }
            Node::InstanceVariableTargetNode { .. } => {
                if let Some(t) = target.as_instance_variable_target_node() {
                    self.assign_ivar(&name(t.name()), ty, state, frame);
                }
            }
            Node::MultiTargetNode { .. } => {
                if let Some(t) = target.as_multi_target_node() {
                    let lefts: Vec<Node<'pr>> = t.lefts().iter().collect();
                    let rights: Vec<Node<'pr>> = t.rights().iter().collect();
                    self.destructure_into(ty, &lefts, t.rest(), &rights, state, frame);
                }
            }
            Node::SplatNode { .. } => {
                if let Some(expression) = target.as_splat_node().and_then(|s| s.expression()) {
                    self.assign_target(&expression, ty, state, frame);
                }
            }
            Node::CallTargetNode { .. } => {
                if let Some(t) = target.as_call_target_node() {
                    let receiver_node = t.receiver();
                    let receiver = self.expr(&receiver_node, state, frame);
                    self.invoke(&receiver, &name(t.name()), vec![ty.clone()], state, frame);
                    self.note_written(Some(&receiver_node), &receiver, &name(t.name()), vec![ty.clone()], frame);
                }
            }
            Node::IndexTargetNode { .. } => {
                if let Some(t) = target.as_index_target_node() {
                    let receiver_node = t.receiver();
                    let receiver = self.expr(&receiver_node, state, frame);
                    let mut args = Vec::new();
                    if let Some(arguments) = t.arguments() {
                        for argument in arguments.arguments().iter() {
                            args.push(self.expr(&argument, state, frame));
                        }
                    }
                    args.push(ty.clone());
                    self.invoke(&receiver, "[]=", args.clone(), state, frame);
                    self.note_written(Some(&receiver_node), &receiver, "[]=", args, frame);
                    self.escape(&receiver_node, state);
                }
            }
            Node::ConstantPathTargetNode { .. } => {
                if let Some(parent) = target.as_constant_path_target_node().and_then(|t| t.parent()) {
                    self.expr(&parent, state, frame);
                }
            }
            _ => {}
        }
        self.record(target, ty);
    }
}

/// A local's type forgets what its mutable value holds (another name may
/// change it). Asked first: a table shared with other flows is copied by
/// any write, even one that changes nothing.
fn forget_local_contents(flow: &mut super::flow::Flow, local: &str) {
    if flow.locals.get(local).is_some_and(Type::has_mutable_contents) {
        if let Some(ty) = flow.locals.get_mut(local) {
            *ty = ty.forget_contents();
        }
    }
}
