//! Method calls: finding the method (this file's `def`s, attribute
//! readers, the signatures), picking overloads by argument types,
//! instantiating generics, running the block, and folding pure core
//! methods on literals.

use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

use ruby_prism::{CallNode, Node, Visit};

use super::blocks::{BlockPlan, BlockRun};
use super::flow::{join_states, State};
use super::index::Side;
use super::lookup::{Callee, GLOBAL_FUNCTIONS, MODULE_FUNCTIONS};
use super::overloads::{own_params_removed, Receiver};
use super::signature::TypeContext;
use super::{fold, Frame, Inferrer};
use crate::rbs::ast::{MethodType, RType};
use crate::rbs::FoundMethod;
use crate::syntax::name;
use crate::types::{join, join_positions, union, Literal, Name, Type};

/// One evaluated argument.
#[derive(Debug, Clone)]
pub enum Arg {
    Value(Type),
    /// `*rest` of unknown length.
    Splat,
    Keywords(Type),
    Forward,
}

/// The values a call hands a container it grows (`a.push(*r)`): what a
/// splat or forwarded arguments pass, nobody can list here.
fn passed_values(args: &[Arg]) -> Vec<Type> {
    args.iter()
        .map(|arg| match arg {
            Arg::Value(ty) | Arg::Keywords(ty) => ty.clone(),
            Arg::Splat | Arg::Forward => Type::untyped(),
        })
        .collect()
}

impl Arg {
    pub(super) fn positional(&self) -> Option<&Type> {
        match self {
            Arg::Value(ty) => Some(ty),
            _ => None,
        }
    }
}

/// What a call asks for: the method, its arguments, how it was written.
pub struct CallSite<'c> {
    pub method: &'c str,
    pub args: &'c [Arg],
    /// No receiver written: a call on `self`.
    pub implicit: bool,
    /// No receiver or `self.`: private methods answer too.
    pub on_self: bool,
    /// `self` is unknown here (inside a block another object may run).
    pub self_unknown: bool,
    /// The local variable the receiver is read from, if it is one.
    pub receiver_local: Option<&'c str>,
    /// The receiver is an enumerator that yields one array at a time
    /// (`each_cons(2)` with no block), not several values.
    pub receiver_yields_arrays: bool,
    /// The receiver is an enumerator made of a literal's rows here
    /// (`rows.map` in `rows.map.with_index { }`): the method that made it,
    /// and the rows.
    pub enumerated_rows: Option<(String, Type)>,
    /// An `each_with_object` whose first argument is an array literal (no
    /// splat): an object only the callee holds (`([[], []])`).
    pub fresh_first_array: bool,
}

/// The block a call passes.
pub enum BlockArg<'pr> {
    None,
    Literal(ruby_prism::BlockNode<'pr>),
    /// `&:name`
    Symbol(String),
    /// `&proc`
    Other,
    /// `&blk` whose value may be nil (an optional block passed on): the
    /// call may run with no block at all.
    Optional,
    /// The method's own `&block` passed on (it may be nil too): what this
    /// call yields to it is what the method yields (see `yields`).
    Forwarded,
}

impl BlockArg<'_> {
    pub(super) fn given(&self) -> bool {
        !matches!(self, BlockArg::None)
    }
}

/// How a call resolves for one receiver type.
pub(super) enum Plan<'e> {
    Fixed(Type),
    Rbs {
        overloads: Vec<&'e MethodType>,
        receiver: Receiver,
        owner_args: HashMap<Arc<str>, RType>,
    },
    Defs(Vec<usize>),
    /// A method of another file of the project (its number in the index),
    /// with every override below its class that a call may run.
    External(u32),
    /// The same method's own bodies alone: nothing below the receiver's
    /// class overrides it, or `super` reaches it.
    ExternalOwn(u32),
    Reader {
        ivar: String,
        class: Name,
        side: Side,
    },
}

/// Core methods that keep their block to call later (or never).
pub(super) const STORES_BLOCK: &[&str] = &[
    "define_method",
    "define_singleton_method",
    "lambda",
    "proc",
    "at_exit",
    "trap",
    "set_trace_func",
    "define_finalizer",
    "default_proc=",
    "lazy",
    "to_enum",
    "enum_for",
    "fork",
    "start",
    "new",
    "instance_method",
    "method_missing",
    "trace_var",
    "autoload",
];

/// `String?`, as `Module#name` answers.
fn string_or_nil() -> Type {
    union([Type::nominal("String"), Type::nil()])
}

/// Longest tuple whose `map` stays a tuple (one element type per slot).
const MAX_MAPPED_TUPLE: usize = 32;

/// Iteration methods (Enumerable, Array, Hash, String, IO, Integer):
/// their blocks run with the caller's `self` even when the receiver's
/// type is unknown.
const ITERATES: &[&str] = &[
    "each",
    "each_with_index",
    "each_with_object",
    "each_pair",
    "each_key",
    "each_value",
    "each_slice",
    "each_cons",
    "each_char",
    "each_line",
    "each_byte",
    "each_entry",
    "each_index",
    "map",
    "flat_map",
    "collect",
    "collect_concat",
    "select",
    "filter",
    "filter_map",
    "reject",
    "find",
    "detect",
    "find_index",
    "find_all",
    "any?",
    "all?",
    "none?",
    "one?",
    "count",
    "sum",
    "min_by",
    "max_by",
    "sort_by",
    "group_by",
    "partition",
    "inject",
    "reduce",
    "times",
    "upto",
    "downto",
    "step",
    "zip",
    "take_while",
    "drop_while",
    "chunk_while",
    "slice_when",
    "uniq",
    "delete_if",
    "keep_if",
    "map!",
    "collect!",
    "select!",
    "reject!",
    "sort",
    "sort!",
    "min",
    "max",
    "transform_values",
    "transform_keys",
    "fetch",
    "scan",
    "gsub",
    "sub",
    "tap",
    "then",
    "open",
    "synchronize",
];

/// Core methods that drop what their block gives: nobody keeps it.
const DROPS_BLOCK_VALUE: &[&str] = &[
    "each",
    "each_with_index",
    "each_with_object",
    "each_pair",
    "each_key",
    "each_value",
    "each_char",
    "each_byte",
    "each_line",
    "each_slice",
    "each_cons",
    "each_entry",
    "each_index",
    "reverse_each",
    "times",
    "upto",
    "downto",
    "step",
    "tap",
];

/// Core methods whose block runs with another `self`.
pub(super) const CHANGES_SELF: &[&str] =
    &["instance_eval", "instance_exec", "class_eval", "class_exec", "module_eval", "module_exec"];

/// Methods that never mutate their receiver nor hand it to anyone.
pub fn mutates_receiver(method: &str) -> bool {
    method.ends_with('!')
        || (method.ends_with('=') && !matches!(method, "==" | "!=" | "<=" | ">=" | "==="))
        // A match, not a list scan: this runs for every call in pass one.
        || matches!(
            method,
            "<<" | "push" | "append" | "pop" | "shift" | "unshift" | "prepend" | "insert" | "concat" | "[]="
            | "delete" | "delete_at" | "delete_if" | "keep_if" | "clear" | "replace" | "fill" | "store"
            | "update" | "force_encoding" | "setbyte" | "tap" | "then" | "yield_self" | "instance_eval"
            | "instance_exec" | "send" | "public_send" | "__send__" | "extend" | "instance_variable_set"
            | "default=" | "compare_by_identity" | "rehash" | "initialize_copy"
        )
}

/// What an array's elements may be: a tuple's, widened, or `Array[E]`'s.
fn array_element(array: &Type) -> Option<Type> {
    match array {
        Type::Tuple(elements) => Some(union(elements.iter().map(|e| crate::types::widen_literals(e.forget_exact())))),
        Type::Nominal { class, args } if &**class == "Array" && args.len() == 1 => Some(args[0].clone()),
        _ => None,
    }
}

/// The elements `flatten` leaves of an element of this type, when every
/// member is an array (unwrapped) or a core scalar, which has no `to_ary`.
fn flattened(element: &Type, depth: usize) -> Option<Type> {
    if depth > 8 {
        return None;
    }
    let mut out = Vec::new();
    for member in element.members() {
        match member {
            Type::Tuple(_) | Type::Nominal { .. } if member.class_name() == Some("Array") => {
                out.push(flattened(&array_element(member)?, depth + 1)?);
            }
            Type::Constant(_) | Type::IntRange { .. } => out.push(crate::types::widen_literals(member.clone())),
            Type::Nominal { class, args }
                if args.is_empty()
                    && matches!(
                        &**class,
                        "Integer" | "Float" | "String" | "Symbol" | "NilClass" | "TrueClass" | "FalseClass"
                    ) =>
            {
                out.push(member.clone())
            }
            _ => return None,
        }
    }
    Some(union(out))
}

/// Does `method` keep an argument itself in its receiver or result?
/// (`Array(x)`, `Hash(x)` and `String(x)` give `x` itself back.)
fn stores_arguments(method: &str) -> bool {
    matches!(
        method,
        "<<" | "push"
            | "append"
            | "unshift"
            | "prepend"
            | "[]="
            | "insert"
            | "store"
            | "add"
            | "add?"
            | "new"
            | "default="
            | "Array"
            | "Hash"
            | "String"
    )
}

/// Set's own mutators, beside the names every container shares.
pub const SET_MUTATORS: &[&str] = &["add", "add?", "merge", "subtract", "reset", "delete?"];

/// Does `method` change a receiver of this type?
pub fn mutates(receiver: &Type, method: &str) -> bool {
    mutates_receiver(method)
        || (SET_MUTATORS.contains(&method) && receiver.members().iter().any(|m| m.class_name() == Some("Set")))
}

impl<'pr, 'a> Inferrer<'pr, 'a> {
    pub fn call(&mut self, call: &CallNode<'pr>, state: &mut State, frame: &Frame) -> Type {
        let method = crate::syntax::name_text(call.name());
        let receiver_node = call.receiver();
        let fresh_rows = self.fresh_enumerated_rows(call, state);
        let receiver = receiver_node.as_ref().map(|r| self.expr(r, state, frame));
        // An emptiness test left the receiver with elements (asked before
        // any argument or block runs).
        let filled = receiver_node.as_ref().is_some_and(|r| self.known_filled(r, state));

        // `x&.m`: nothing after the `&.` runs when x is nil.
        let safe = call.is_safe_navigation();
        let skipped = if safe && receiver.as_ref().is_some_and(Type::may_be_nil) { state.clone() } else { None };
        if let (true, Some(node)) = (safe, &receiver_node) {
            self.narrow_node(node, state, Type::without_nil);
        }

        let mut args = Vec::new();
        // Arguments that are the method's own parameters, passed on.
        let mut forwarded = Vec::new();
        // A method that keeps its argument itself (`a << x`, `Array.new(2,
        // x)`) makes a variable's value reachable two ways: a mutation
        // through either changes what both hold (as for `[x]`).
        let stores = call.arguments().is_some() && stores_arguments(&method);
        if let Some(arguments) = call.arguments() {
            for argument in arguments.arguments().iter() {
                let ty = self.expr(&argument, state, frame);
                let shared = super::assign::is_variable_read(&argument) || self.may_be_an_element(&argument);
                let ty = if stores && shared && ty.has_mutable_contents() {
                    ty.forget_contents()
                } else if shared && ty.has_nested_mutable_contents() {
                    // Whatever the call copies out of it (`[1] + x`,
                    // `a.zip(x)`) is held by `x` too: only their classes.
                    ty.forget_nested_contents()
                } else {
                    ty
                };
                self.escape(&argument, state);
                args.push(match (argument, ty) {
                    // `*[a, b]` passes exactly a and b.
                    (Node::SplatNode { .. }, Type::Tuple(elements)) => {
                        args.extend(elements.into_iter().map(Arg::Value));
                        continue;
                    }
                    (Node::SplatNode { .. }, _) => Arg::Splat,
                    (Node::KeywordHashNode { .. }, ty) => Arg::Keywords(ty),
                    (Node::ForwardingArgumentsNode { .. } | Node::BlockArgumentNode { .. }, _) => Arg::Forward,
                    (argument, ty) => {
                        let read = argument.as_local_variable_read_node();
                        // Not as it came once code may have rebound it unseen
                        // (`binding.local_variable_set(:x, v)`, `eval`).
                        let rebound = |local: &str| state.as_ref().is_some_and(|f| f.volatile.contains(local));
                        let param = read
                            .zip(frame.forwardable.as_ref())
                            .map(|(r, f)| (crate::syntax::name_text(r.name()), f))
                            .filter(|(local, _)| !rebound(local))
                            .and_then(|(local, f)| f.param(&local));
                        if let Some(param) = param {
                            forwarded.push((args.len(), param));
                        }
                        Arg::Value(ty)
                    }
                });
            }
        }
        // `block.call(...)` on the method's own `&block` runs it like `yield`.
        if receiver_node.as_ref().is_some_and(|r| matches!(&*method, "call" | "[]" | "yield") && self.is_own_block(r)) {
            let given: Option<Vec<Type>> = match call.block() {
                Some(_) => None,
                None => args.iter().map(|a| if let Arg::Value(ty) = a { Some(ty.clone()) } else { None }).collect(),
            };
            self.note_block_run(given);
        }
        let block = match call.block() {
            Some(Node::BlockNode { .. }) => {
                call.block().and_then(|b| b.as_block_node()).map_or(BlockArg::Other, BlockArg::Literal)
            }
            Some(Node::BlockArgumentNode { .. }) => {
                let argument = call.block().and_then(|b| b.as_block_argument_node());
                let expression = argument.as_ref().and_then(|a| a.expression());
                if let Some(block_node) = call.block() {
                    self.expr(&block_node, state, frame);
                }
                let passed = expression.as_ref().and_then(|e| self.recorded(e).cloned());
                let forwarded = expression.as_ref().is_some_and(|e| self.is_own_block(e));
                // `&:to_s` is a call of `to_s` only while `Symbol#to_proc` is
                // the core's.
                let symbol = expression.as_ref().and_then(|e| e.as_symbol_node());
                let symbol = symbol.filter(|_| !self.index.core_redefined("to_proc"));
                match symbol {
                    Some(symbol) => BlockArg::Symbol(crate::syntax::decoded(symbol.unescaped()).into_owned()),
                    None if forwarded => BlockArg::Forwarded,
                    None if passed.as_ref().is_none_or(|t| t.may_be_nil() || t.has_unknown()) => BlockArg::Optional,
                    None => BlockArg::Other,
                }
            }
            _ => BlockArg::None,
        };

        let implicit = receiver_node.is_none();
        let on_self = implicit || matches!(receiver_node, Some(Node::SelfNode { .. }));
        let receiver_type = match (&receiver, implicit) {
            (Some(ty), _) => ty.clone(),
            (None, _) if frame.self_known => frame.self_type.clone(),
            (None, _) => Type::untyped(),
        };
        let receiver_type = if safe { receiver_type.without_nil() } else { receiver_type };
        // `a.map { a << x }`: the block runs while the call walks `a`, so
        // what the call gives from `a` (its length, its elements) may be
        // what the block made of it, not what `a` held before.
        // The call may also give `a` back (`each`), a second name for what
        // the block changed, so `a` forgets its contents after the call.
        let block_reaches_receiver = receiver_type.has_mutable_contents()
            && matches!((&receiver_node, call.block().and_then(|b| b.as_block_node())),
                (Some(node), Some(block)) if block_reaches_local(&block, node));
        let receiver_type = if block_reaches_receiver { receiver_type.forget_contents() } else { receiver_type };

        let self_unknown = implicit && !frame.self_known;
        let given = super::call_sites::GivenBlock {
            surely: matches!(block, BlockArg::Literal(_) | BlockArg::Symbol(_) | BlockArg::Other),
            from: matches!(block, BlockArg::Forwarded).then(|| frame.entry_key.as_deref().cloned()).flatten(),
        };
        self.note_call(&method, on_self, &receiver_type, (&args, &given), (&forwarded, state, frame), self_unknown);
        let receiver_local = receiver_node
            .as_ref()
            .and_then(|r| r.as_local_variable_read_node())
            .map(|read| crate::syntax::name_text(read.name()));
        let site = CallSite {
            method: &method,
            args: &args,
            implicit,
            on_self,
            self_unknown,
            receiver_local: receiver_local.as_deref(),
            receiver_yields_arrays: receiver_node.as_ref().and_then(|r| r.as_call_node()).is_some_and(|r| {
                r.block().is_none()
                    && super::literal_rows::gives_fixed_width(&crate::syntax::decoded(r.name().as_slice()))
            }),
            enumerated_rows: match (&block, &receiver_node) {
                (BlockArg::Literal(_), Some(node)) => self.enumerated_rows(node, fresh_rows),
                _ => None,
            },
            fresh_first_array: &*method == "each_with_object"
                && call.arguments().and_then(|list| list.arguments().iter().next()).is_some_and(|first| {
                    first
                        .as_array_node()
                        .is_some_and(|array| array.elements().iter().all(|e| !matches!(e, Node::SplatNode { .. })))
                }),
        };
        let literal_bytes = match (&receiver_node, &block) {
            (Some(node), BlockArg::None) if &*method == "bytes" && args.is_empty() => {
                super::literals::literal_bytes(node)
            }
            _ => None,
        };
        let evaluates_here = reaches_caller_locals(&method, call);
        self.dispatched_quietly = false;
        let dispatched = self.dispatch(&receiver_type, &site, block, state, frame);
        if std::mem::take(&mut self.dispatched_quietly) {
            self.quiet_calls.insert(super::key_of(&call.as_node()));
        }
        let dispatched = literal_bytes.unwrap_or(dispatched);
        // `each_cons(2)` with no block: an enumerator of pairs.
        let dispatched = match call.block() {
            None => super::literal_rows::window_enumerator(&method, &args, &dispatched).unwrap_or(dispatched),
            Some(_) => dispatched,
        };
        // Inject without a start value gives nil only for no elements: a
        // literal array's are known (`[A, B].reduce(&:merge)`).
        // One element is the answer itself: the block never runs (`[nil].inject
        // { 1 }` is nil). What the core's signature says may be nil is not
        // for some receivers (below).
        // A local holding a regexp literal's match: the groups every match
        // sets hold a String (`m[2].upcase` after `m = /(\d+)-(\w+)/.match(s)`).
        let dispatched = match self.match_local_groups(receiver_node.as_ref(), &receiver_type, frame) {
            Some(groups) if call.block().is_none() => {
                super::named_groups::group_answer(&groups, &method, &args).unwrap_or(dispatched)
            }
            _ => dispatched,
        };
        let core_answer = !dispatched.has_unknown() && call.block().is_none();
        let pair_may_be_nil = matches!(&dispatched, Type::Tuple(pair) if pair.iter().any(Type::may_be_nil));
        let dispatched = match (&*method, &receiver_type) {
            ("inject" | "reduce", Type::Tuple(elements)) if elements.len() == 1 && args.is_empty() => {
                elements[0].forget_exact()
            }
            ("inject" | "reduce", Type::Tuple(elements)) if !elements.is_empty() && args.is_empty() => {
                dispatched.without_nil()
            }
            // A literal array's elements are there: `%w[a b].sample` is one.
            ("sample" | "min" | "max", Type::Tuple(elements))
                if !elements.is_empty() && args.is_empty() && core_answer && dispatched.may_be_nil() =>
            {
                union(elements.clone()).forget_exact()
            }
            // So is the one a block picks (`[a, b].min_by { }`), and the
            // end `pop` or `shift` takes (the array as it was before).
            ("min_by" | "max_by", Type::Tuple(elements))
                if !elements.is_empty()
                    && args.is_empty()
                    && matches!(call.block(), Some(Node::BlockNode { .. }))
                    && dispatched.may_be_nil() =>
            {
                union(elements.clone()).forget_exact()
            }
            ("pop" | "shift", Type::Tuple(elements))
                if !elements.is_empty() && args.is_empty() && core_answer && dispatched.may_be_nil() =>
            {
                let end = if method == "pop" { elements.last() } else { elements.first() };
                end.map_or_else(Type::nil, Type::forget_exact)
            }
            // `[1, 2].zip([3, 4])`: no row runs out, so no `nil` fills one.
            ("zip", Type::Tuple(elements)) if call.block().is_none() => {
                super::literal_rows::zipped_in_full(elements, &args, &dispatched).unwrap_or(dispatched)
            }
            ("minmax", Type::Tuple(elements))
                if !elements.is_empty() && args.is_empty() && core_answer && pair_may_be_nil =>
            {
                Type::Tuple(vec![union(elements.clone()).forget_exact(); 2])
            }
            // A variable an emptiness test found with elements: the pick is
            // one of them (`words.max_by(&:size)` under `unless words.empty?`).
            (_, _) if filled && args.is_empty() && self.picks_from_filled(&receiver_type, &method) => {
                match (&*method, dispatched) {
                    ("max_by" | "min_by", picked) if call.block().is_some() => picked.without_nil(),
                    ("first", picked) if call.block().is_none() => picked.without_nil(),
                    ("minmax", Type::Tuple(pair)) if call.block().is_none() => {
                        Type::Tuple(pair.iter().map(Type::without_nil).collect())
                    }
                    ("minmax_by", Type::Tuple(pair)) if call.block().is_some() => {
                        Type::Tuple(pair.iter().map(Type::without_nil).collect())
                    }
                    (_, other) => other,
                }
            }
            // `rand(1..6)`: a range written out that is not empty gives
            // one of its numbers (an empty one gives nil).
            ("rand", _) if nonempty_range_argument(call) && self.answered_by_kernel(&receiver_type, "rand") => {
                dispatched.without_nil()
            }
            // `a[0]`, `a[-1]` of an array an emptiness test found with
            // elements: as its `first` and `last` are, one of them.
            ("[]", _) if filled && self.indexes_filled_array(&receiver_type) && end_index(call) => {
                dispatched.without_nil()
            }
            // A slice by a range from 0 (`s[0..2]`, `a[0...i]`, `s[..2]`)
            // starts inside every string and array: never nil.
            ("[]" | "slice", _)
                if dispatched.may_be_nil()
                    && core_answer
                    && receiver_type.members().iter().all(is_core_string_or_array)
                    && !["String", "Array"].iter().any(|class| self.index.core_redefined_on(class, &method))
                    && self.range_from_zero(call) =>
            {
                dispatched.without_nil()
            }
            // A class written as a constant has a name (only an anonymous
            // class's is nil).
            ("name", Type::Singleton(class))
                if args.is_empty()
                    && core_answer
                    && dispatched == string_or_nil()
                    && self.singleton_chain_is_plain(class)
                    && matches!(self.lookup(class, Side::Singleton, "name"), Callee::Rbs(_)) =>
            {
                Type::nominal("String")
            }
            _ => dispatched,
        };
        if evaluates_here {
            self.unpin_locals(state, frame);
        }
        if let (Some(node), true) = (&receiver_node, gives_own_methods(&method)) {
            self.forget_object(node, state);
        }
        if let (Some(node), true) = (&receiver_node, block_reaches_receiver || hands_out_receiver(&method)) {
            self.escape(node, state);
        }
        // `a.b = v` and `a[i] = v` evaluate to `v`, whatever the method returns.
        let mut result = if call.is_attribute_write() {
            args.last().and_then(Arg::positional).cloned().unwrap_or_else(Type::untyped)
        } else {
            dispatched
        };

        // `rows.each.with_index { |row, i| }`: through an enumerator chain
        // the block is given the elements of the chain's source.
        let source = receiver_node.as_ref().and_then(|node| self.enumerator_source(node));
        let chained = source.is_some();
        // (The source's type is cloned only for a chain, rare; the
        // receiver's is borrowed, on this path every call takes.)
        let source_type = source.as_ref().map(|source| self.recorded(source).cloned().unwrap_or_else(Type::untyped));
        let elements_type = source_type.as_ref().unwrap_or(&receiver_type);
        let mut block_escaped = false;
        let elements = match elements_type.has_nested_mutable_contents() {
            true => source.or_else(|| call.receiver()),
            false => None,
        };
        if let Some(node) = elements {
            // `rows.each { |row| row << x }`: a block given the receiver's
            // elements may change them.
            // So may `&:chomp!`, or any other object given as the block.
            let takes_elements =
                call.block().is_some_and(|b| b.as_block_node().is_none_or(|b| b.parameters().is_some()));
            // Unless each row is taken apart at once (`pairs.map { |w, n| }`).
            let rows_whole = !chained
                && call.block().and_then(|b| b.as_block_node()).is_some_and(|block| {
                    super::literal_rows::rows_stay_whole(&method, &receiver_type, &block, holds_nested(state))
                });
            if takes_elements && !rows_whole {
                self.escape(&node, state);
                block_escaped = true;
                // A call that gives the receiver back (`[{a: 1}].each { |h|
                // h.delete(:a) }`) gives it as the block left it.
                if result.members().iter().any(|m| elements_type.members().contains(m)) {
                    result = result.forget_contents();
                }
            }
        }
        if let Some(node) = &receiver_node {
            if mutates(&receiver_type, &method) {
                let values = passed_values(&args);
                let span = call.location().start() as usize..call.location().end() as usize;
                self.mutate_variable(node, &method, &values, span, state, frame);
                // `rows.keep_if { |row| row << x }`: what is kept is what
                // the block changed, not the rows the receiver held before.
                // `a << a`: what it holds may be itself.
                if block_escaped || super::assign::stores_itself(node, call.arguments()) {
                    self.escape(node, state);
                }
            } else if let (Some(receiver), true) = (&receiver, super::assign::is_variable_read(node)) {
                // `t = s.itself`, `x = a.freeze`: the result is the receiver
                // itself, so the two names share one mutable object.
                let shares =
                    result.members().iter().any(|m| m.has_mutable_contents() && receiver.members().contains(m));
                if shares {
                    self.escape(node, state);
                    result = result.forget_contents();
                }
            }
        }
        let mut ivars_kept = true;
        // `connect! { break }` leaves the helper where its block breaks:
        // what it assigns after that point may never run.
        let runs_to_its_end = !call.block().and_then(|b| b.as_block_node()).is_some_and(|b| block_breaks_out(&b));
        let own_helper = match (&frame.class, on_self && frame.self_known && state.is_some() && runs_to_its_end) {
            (Some((class, Side::Instance)), true) => self.ivars_after_own_call(class, &method),
            _ => None,
        };
        // A helper of the object's own that can write none of its ivars
        // (`log("running")` between `return unless @path` and `@path.upcase`),
        // or only those it assigns itself (`bump` doing `@count += 1`).
        let own_keeps = match (&frame.class, on_self && frame.self_known && call.block().is_none()) {
            (Some((class, Side::Instance)), true) => self.own_call_keeps_ivars(class, &method),
            _ => None,
        };
        if let Some(flow) = state.as_mut() {
            // A project object may hold `self` and write its ivars; so may
            // any method `self` is passed to.
            let passes_self =
                call.arguments().is_some_and(|a| a.arguments().iter().any(|arg| matches!(arg, Node::SelfNode { .. })));
            // So may a project class's own method: it may reach `self`
            // through a registry it joined or a global (`Registry.notify`
            // calling back every registered object).
            let reaches_project = receiver_type.members().iter().any(|m| match m {
                Type::Singleton(class) => self.index.class_shape(class).is_some(),
                other => {
                    other.has_unknown()
                        || other.class_name().is_none_or(|c| self.index.class_shape(c).is_some())
                        || runs_code_it_holds(other)
                        || self.holds_project_objects(other)
                }
            });
            let quiet = self.quiet_calls.contains(&super::key_of(&call.as_node()));
            // A literal block run now was walked in this flow, which took
            // in what its own calls may do (one kept to run later clears
            // the facts itself).
            let block_walked = call.block().is_none_or(|b| matches!(b, Node::BlockNode { .. }));
            let keeps_but = own_keeps.filter(|_| !passes_self);
            let keeps_ivars = quiet
                || keeps_but.as_ref().is_some_and(|but| but.is_empty())
                || !on_self
                    && !matches!(receiver_type, Type::Dynamic(_) | Type::Top)
                    && block_walked
                    && !passes_self
                    && !reaches_project
                    && !calls_back_unseen(&receiver_type, &method, &args);
            match (keeps_ivars, keeps_but) {
                (true, _) => {}
                // The facts of the ivars it assigns go. (Its own caller's
                // facts of them too: that caller keeps none.)
                (false, Some(but)) => {
                    for ivar in but.iter() {
                        if flow.ivars.contains_key(ivar) {
                            flow.ivars.remove(ivar);
                        }
                    }
                    super::methods::changes_ivar_contents(flow);
                }
                (false, None) => flow.ivars.clear(),
            }
            ivars_kept = keeps_ivars;
            // Whatever else it did, a helper of the object's own that
            // surely assigns an ivar leaves it set (never unset again).
            if let (true, true, true, Some((class, Side::Instance))) =
                (on_self, frame.self_known, runs_to_its_end, &frame.class)
            {
                for ivar in self.assigned_by_own_call(class, &method).iter() {
                    flow.ivars_set.insert(ivar.clone());
                }
            }
            // What it leaves them holding, when that is known.
            if let (false, Some(exit)) = (quiet, own_helper) {
                for (ivar, ty) in exit.iter() {
                    flow.ivars.insert(ivar.clone(), ty.clone());
                }
            }
        }
        if let Some(node) = &receiver_node {
            self.narrow_after_call(call, node, &method, state, ivars_kept);
        }
        // `map` gives one value per element: a tuple's length stands
        // (`a, b = pair.map(&:to_h)` binds two hashes, not maybe-nils). A
        // new array, never the receiver (so after the sharing check above).
        if let (Type::Tuple(elements), "map" | "collect", Type::Nominal { class, args: element }) =
            (&receiver_type, &*method, &result)
        {
            let mapped = args.is_empty() && call.block().is_some() && elements.len() <= MAX_MAPPED_TUPLE;
            if mapped && &**class == "Array" && element.len() == 1 {
                result = Type::Tuple(vec![element[0].clone(); elements.len()]);
            }
        }
        if safe && receiver.as_ref().is_some_and(Type::may_be_nil) {
            *state = join_states(&skipped, state);
            result = union([result, Type::nil()]);
        }
        result
    }

    /// `rows.map` (no block, no argument) on a literal's rows, as the
    /// receiver of a call with a block: the method and the rows (see
    /// [`CallSite::enumerated_rows`]).
    /// `fresh`: what [`Self::fresh_enumerated_rows`] found before the
    /// receiver ran.
    fn enumerated_rows(&self, receiver: &Node<'pr>, fresh: Option<Type>) -> Option<(String, Type)> {
        let (inner, rows_node) = enumerator_of_rows(receiver)?;
        let rows = fresh.or_else(|| self.recorded(&rows_node).cloned())?;
        matches!(rows, Type::Tuple(_)).then_some((inner, rows))
    }

    /// The rows a literal gave the local `rows` is read from in
    /// `rows.map.with_index { }`, looked up before `rows.map` runs (an
    /// enumerator of it is one more way to reach it, so the local forgets
    /// them once it is made).
    fn fresh_enumerated_rows(&self, call: &CallNode<'pr>, state: &State) -> Option<Type> {
        call.block()?.as_block_node()?;
        let (_, rows_node) = enumerator_of_rows(&call.receiver()?)?;
        let local = crate::syntax::name(rows_node.as_local_variable_read_node()?.name());
        state.as_ref()?.reads.get(&super::literal_rows::rows_key(&local)).cloned()
    }

    /// After `binding`, `eval` or a string `instance_eval`, code this
    /// walk cannot see may assign any local of the scope, now or through
    /// a binding kept for later: no local's type is known from here on.
    fn unpin_locals(&mut self, state: &mut State, frame: &Frame) {
        if let Some(flow) = state.as_mut() {
            let locals: Vec<String> = flow.locals.keys().chain(frame.writes.keys()).cloned().collect();
            flow.volatile.extend(locals);
        }
    }

    /// The receiver an enumerator chain hands the elements of on: `rows`
    /// of `rows.each`, `rows.each_slice(2)`, `rows.select.each_with_index`
    /// (calls with no block, each typed an Enumerator). `None` when `node`
    /// is no such chain.
    pub(super) fn enumerator_source(&self, node: &Node<'pr>) -> Option<Node<'pr>> {
        let is_enumerator = |ty: &Type| {
            ty.members()
                .iter()
                .all(|member| matches!(member, Type::Nominal { class, .. } if class.starts_with("Enumerator")))
        };
        let step = |node: &Node<'pr>| {
            let call = node.as_call_node().filter(|call| call.block().is_none())?;
            self.recorded(node).is_some_and(is_enumerator).then(|| call.receiver()).flatten()
        };
        let mut current = step(node)?;
        while let Some(inner) = step(&current) {
            current = inner;
        }
        Some(current)
    }

    /// An object given methods of its own (`def s.size`,
    /// `s.define_singleton_method(:size)`, `s.extend(M)`) answers its
    /// class's names with other bodies: a local holding it is unknown.
    pub(super) fn forget_object(&mut self, node: &Node<'pr>, state: &mut State) {
        let (Some(read), Some(flow)) = (node.as_local_variable_read_node(), state.as_mut()) else { return };
        let local = name(read.name());
        if flow.locals.contains_key(&local) {
            flow.bind(&local, Type::untyped());
        }
    }

    /// A call with no node of its own (`x += 1`, `a, b.c = ...`).
    pub fn invoke(&mut self, receiver: &Type, method: &str, args: Vec<Type>, state: &mut State, frame: &Frame) -> Type {
        let args: Vec<Arg> = args.into_iter().map(Arg::Value).collect();
        let site = CallSite {
            method,
            args: &args,
            implicit: false,
            on_self: false,
            self_unknown: false,
            receiver_local: None,
            receiver_yields_arrays: false,
            enumerated_rows: None,
            fresh_first_array: false,
        };
        self.dispatch(receiver, &site, BlockArg::None, state, frame)
    }

    pub(super) fn dispatch(
        &mut self,
        receiver: &Type,
        site: &CallSite<'_>,
        block: BlockArg<'pr>,
        state: &mut State,
        frame: &Frame,
    ) -> Type {
        // `send(:name, ...)` with a literal name is a call of `name`, while
        // `send` is the core's (a class may define its own: a channel's).
        if matches!(site.method, "send" | "public_send" | "__send__") && self.sends_by_name(receiver, site.method) {
            if let Some(Arg::Value(Type::Constant(Literal::Sym(target)))) = site.args.first() {
                let target = target.clone();
                let forwarded = CallSite {
                    method: &target,
                    args: &site.args[1..],
                    receiver_local: None,
                    receiver_yields_arrays: false,
                    enumerated_rows: None,
                    fresh_first_array: false,
                    ..*site
                };
                return self.dispatch(receiver, &forwarded, block, state, frame);
            }
        }
        let members: Vec<Type> = if site.self_unknown { vec![Type::untyped()] } else { receiver.members().to_vec() };
        let mut plans: Vec<Plan<'a>> =
            members.iter().map(|m| self.plan(m, site.method, site.args, &block, site.implicit, site.on_self)).collect();
        let overriding: Vec<Plan<'a>> = members
            .iter()
            .zip(&plans)
            .filter(|(_, plan)| matches!(plan, Plan::Rbs { .. }))
            .filter_map(|(member, _)| self.core_overridden_below(member, site.method))
            .collect();
        plans.extend(overriding);
        if super::loop_exit::may_raise_stop(site.method, &plans, &block) {
            self.stop_risks += 1;
        }
        let looped = match &block {
            BlockArg::Literal(literal)
                if site.method == "loop" && plans.iter().all(|p| matches!(p, Plan::Rbs { .. })) =>
            {
                let location = literal.location();
                let implicit = super::loop_exit::calls_implicitly(literal);
                Some((location.start() as usize..location.end() as usize, implicit, self.stop_risks))
            }
            _ => None,
        };
        // `puts "x"` reaching Kernel's own function (no project body of
        // that name, here or in a subclass or a module mixed into one, and
        // nobody points `$stdout` elsewhere) runs none of the program's code.
        let quiet = site.implicit
            && !site.self_unknown
            && matches!(block, BlockArg::None)
            && super::narrow::quiet_function(site.method, site.args)
            && plans.iter().all(|p| matches!(p, Plan::Rbs { .. }))
            && !self.index.core_redefined(site.method)
            && !self.index.output_redirected(site.method)
            && members.iter().all(|member| self.defined_nowhere_below(member, site.method));
        let accumulates = !site.args.is_empty() || !matches!(block, BlockArg::None);
        let fresh_rows = matches!(&block, BlockArg::Literal(literal) if super::blocks::gives_fresh_rows(literal));
        let memo_after = match (&block, site.args) {
            (BlockArg::Literal(literal), [Arg::Value(memo)]) if site.method == "each_with_object" => {
                Some(memo_after_block(memo, literal, site.fresh_first_array))
            }
            _ => None,
        };
        let outcome = self.run_block(&plans, site, receiver, block, state, frame);
        let results: Vec<Type> = plans
            .iter()
            .enumerate()
            .map(|(at, plan)| {
                let result = self.finish_plan(plan, site.args, &outcome.value, fresh_rows);
                match (members.get(at), plan) {
                    (Some(member), Plan::Rbs { .. }) => self.as_the_subclass_may_make(member, result),
                    _ => result,
                }
            })
            .collect();
        let mut returned = union(results);
        if let (Some((block, implicit, risks_before)), Type::Bot) = (looped, &returned) {
            if implicit || self.stop_risks > risks_before {
                returned = self.stop_iteration_exit(block, state, frame);
            }
        }
        self.dispatched_quietly = quiet;
        // `each_with_object` gives back its memo as the block left it.
        if let (Some(memo), true) = (memo_after, plans.iter().all(|p| matches!(p, Plan::Rbs { .. }))) {
            returned = memo;
        }
        if site.method == "sum" && accumulates {
            // `sum(init)` binds its type variable to the initial value's
            // type, but adds to it: `(1..3).sum(0.0)` is 6.0, not `0.0`.
            returned = crate::types::widen_literals(returned);
        }
        self.after_breaks(returned, outcome, state)
    }

    /// `loop` also ends when its block raises StopIteration (an
    /// enumerator's `next` past the end, or any call that lets one out),
    /// and then returns the exception's `result`: the core signature's
    /// `bot` is too strong. The raise may come from anywhere in the block,
    /// so what the block assigns to outer locals is unknown after it.
    fn stop_iteration_exit(&mut self, block: std::ops::Range<usize>, state: &mut State, frame: &Frame) -> Type {
        if let Some(flow) = state.as_mut() {
            for local in frame.written_in(block) {
                if flow.locals.contains_key(local) {
                    flow.bind(local, Type::untyped());
                }
            }
        }
        Type::untyped()
    }

    /// A call's value and flow given what its block's `break`s did: a
    /// method that never returns (`loop`) ends only through them.
    pub(super) fn after_breaks(&mut self, returned: Type, outcome: BlockRun, state: &mut State) -> Type {
        *state = if returned == Type::Bot { outcome.break_state } else { join_states(state, &outcome.break_state) };
        union(std::iter::once(returned).chain(outcome.breaks))
    }

    pub(super) fn run_block(
        &mut self,
        plans: &[Plan<'a>],
        site: &CallSite<'_>,
        receiver: &Type,
        block: BlockArg<'pr>,
        state: &mut State,
        frame: &Frame,
    ) -> BlockRun {
        let (method, args) = (site.method, site.args);
        match block {
            BlockArg::None => BlockRun::none(),
            BlockArg::Other | BlockArg::Optional => BlockRun::none(),
            BlockArg::Forwarded => {
                self.walk_yielding_defs(plans);
                let yielded = self.yielded_to(plans, args, true);
                self.note_block_run(yielded);
                BlockRun::none()
            }
            BlockArg::Symbol(symbol) => {
                // `map(&:to_s)`: the block calls `to_s` on what it is given.
                self.walk_yielding_defs(plans);
                let yielded = self.yielded_to(plans, args, false);
                let value = match yielded.as_ref().and_then(|y| y.first()) {
                    Some(first) => self.invoke(&first.clone(), &symbol, Vec::new(), state, frame),
                    None => Type::untyped(),
                };
                BlockRun { value, ..BlockRun::none() }
            }
            BlockArg::Literal(node) => {
                // A lazy enumerator runs its blocks when it is forced, later.
                let lazy =
                    receiver.members().iter().any(|m| Inferrer::class_of(m).is_some_and(|c| &*c == "Enumerator::Lazy"));
                // A block given to a Method or Proc object goes to whatever
                // body it stands for, which may keep it
                // (`method(:register).call { }`).
                let handed_on = matches!(method, "call" | "()" | "yield" | "===" | "[]")
                    && receiver.members().iter().any(|m| {
                        Inferrer::class_of(m).is_some_and(|c| matches!(&*c, "Method" | "UnboundMethod" | "Proc"))
                    });
                let synchronous = plans.iter().all(|p| matches!(p, Plan::Rbs { .. } | Plan::Fixed(Type::Bot)))
                    && !STORES_BLOCK.contains(&method)
                    && !lazy
                    && !handed_on;
                let changes_self = CHANGES_SELF.contains(&method)
                    || (method == "new"
                        && matches!(receiver, Type::Singleton(c) if matches!(&**c, "Class" | "Module" | "Struct" | "Data")));
                let self_type = if CHANGES_SELF.contains(&method) && !receiver.has_unknown() {
                    Some(receiver.clone())
                } else if method == "define_method" && frame.self_known {
                    match &frame.self_type {
                        Type::Singleton(class) => Some(self.instance_of(class)),
                        _ => None,
                    }
                } else {
                    None
                };
                let project_method =
                    plans.iter().any(|p| matches!(p, Plan::Defs(_) | Plan::External(_) | Plan::ExternalOwn(_)));
                if project_method && node.parameters().is_some() {
                    self.walk_yielding_defs(plans);
                }
                let mut yielded =
                    if synchronous || project_method { self.yielded_to(plans, args, false) } else { None };
                // A literal array's rows, taken apart (`|n, s|`) or held alone.
                if synchronous && !project_method {
                    let outer_nested = holds_nested(state);
                    // A local still holding the rows a literal gave it.
                    let fresh = site
                        .receiver_local
                        .and_then(|local| state.as_ref()?.reads.get(&super::literal_rows::rows_key(local)).cloned());
                    let rows = fresh.as_ref().unwrap_or(receiver);
                    let row = super::literal_rows::row_type(rows, method, yielded.as_deref(), &node, outer_nested)
                        .or_else(|| {
                            let (inner, rows) = site.enumerated_rows.as_ref()?;
                            let yielded = yielded.as_deref();
                            super::literal_rows::chained_row_type(rows, inner, method, yielded, &node, outer_nested)
                        });
                    if let Some(row) = row {
                        yielded = Some(row);
                    }
                    if let Some(window) = super::literal_rows::cons_window(method, args, yielded.as_deref()) {
                        yielded = Some(vec![window]);
                    }
                }
                // An enumerator over a method that yields two values
                // (`each_with_index`) gives a block of one parameter the
                // first (`map { |x| }`) or both as a pair (`find`), by
                // method: its element type, a pair, cannot tell which.
                let one_parameter = takes_one_parameter(&node);
                let enumerator = receiver
                    .members()
                    .iter()
                    .any(|m| Inferrer::class_of(m).is_some_and(|c| c.starts_with("Enumerator")));
                if let (true, true, false, Some([Type::Tuple(pair)])) =
                    (one_parameter, enumerator, site.receiver_yields_arrays, yielded.as_deref())
                {
                    if let Some(first) = pair.first() {
                        yielded = Some(vec![union([Type::Tuple(pair.clone()), first.clone()])]);
                    }
                }
                let fed_back = if synchronous { fed_back_positions(plans) } else { Vec::new() };
                // `inject(init)` gives its block's first run `init` itself
                // (later runs, what the block gave: fed back), not what a
                // type variable bound to it forgets (`inject([[], []]) {
                // |(a, b), x| ... }` takes a pair apart).
                if let (true, [Arg::Value(initial)], Some(given)) =
                    (matches!(method, "inject" | "reduce") && fed_back.first() == Some(&0), args, yielded.as_mut())
                {
                    if let Some(first) = given.first_mut() {
                        *first = initial.clone();
                    }
                }
                // `each_with_object([[], []]) { |n, (evens, odds)| }`: the
                // memo is a new array only the method holds, and the block
                // takes it apart (no name holds it whole), so its length
                // stays; what its elements hold may change.
                if let (true, [Arg::Value(Type::Tuple(elements))], Some(given)) =
                    (method == "each_with_object" && site.fresh_first_array, args, yielded.as_mut())
                {
                    if let (true, Some(memo)) = (memo_taken_apart(&node), given.get_mut(1)) {
                        *memo = Type::Tuple(elements.iter().map(Type::forget_mutable).collect());
                    }
                }
                let plan = BlockPlan {
                    // A project method's block runs when it yields, and
                    // only then (see `yields`), whenever that is.
                    yielded,
                    self_type: self_type.clone(),
                    // Iteration never evaluates its block against another
                    // object, whoever the receiver is.
                    self_unknown: self_type.is_none()
                        && (changes_self || (!synchronous && !ITERATES.contains(&method))),
                    another_self: self_type.is_some() && (method == "define_method" || !site.on_self),
                    stored: !synchronous,
                    fed_back,
                    value_dropped: synchronous && DROPS_BLOCK_VALUE.contains(&method),
                    thrown_out: method == "catch",
                    runs_before_return: synchronous && runs_block_before_return(receiver, method),
                };
                self.block(&node, plan, state, frame)
            }
        }
    }

    /// Walks the project methods of `plans` defined in this file, so that
    /// what they yield is known before their block is.
    fn walk_yielding_defs(&mut self, plans: &[Plan<'a>]) {
        for plan in plans {
            if let Plan::Defs(ids) = plan {
                for id in ids {
                    self.method_return(*id);
                }
            }
        }
    }

    /// What the block is given, position by position, when every plan
    /// knows; `given`: the block is there, so only overloads taking one count.
    pub(super) fn yielded_to(&self, plans: &[Plan<'a>], args: &[Arg], given: bool) -> Option<Vec<Type>> {
        let mut combined: Option<Vec<Type>> = None;
        // A project method's yields must agree in number with the others':
        // a block splats one argument, not several (see `yields`).
        let mut strict = false;
        for plan in plans {
            let yielded = match plan {
                Plan::Fixed(Type::Bot) => continue,
                Plan::Defs(ids) => {
                    strict = true;
                    let mut all: Option<Vec<Type>> = None;
                    for id in ids {
                        let start = self.index.def(*id).node.location().start() as usize;
                        self.note_def_read(start);
                        all = Some(join_positions(all, self.def_yields.get(&start)?)?);
                    }
                    all?
                }
                Plan::External(id) => {
                    strict = true;
                    self.index.external_yields(*id)?
                }
                Plan::ExternalOwn(id) => {
                    strict = true;
                    self.index.external_own_yields(*id)?
                }
                Plan::Rbs { overloads, receiver, owner_args } => {
                    let mut per_overload: Option<Vec<Type>> = None;
                    for overload in overloads {
                        if given && overload.block.is_none() {
                            continue;
                        }
                        let block = overload.block.as_ref()?;
                        if block.function.untyped_params {
                            return None;
                        }
                        let vars = self.method_vars(overload, receiver, owner_args, args, None, false);
                        let context = TypeContext {
                            self_type: &receiver.self_type,
                            instance: &receiver.instance,
                            class: &receiver.class,
                            vars: &vars,
                        };
                        let function = block.function.substitute(&own_params_removed(owner_args, overload));
                        let mut types: Vec<Type> = function
                            .required
                            .iter()
                            .chain(&function.optional)
                            .chain(&function.trailing)
                            .map(|t| self.rbs_type(t, &context))
                            .collect();
                        if function.rest.is_some() {
                            return None;
                        }
                        if types.is_empty() && function.required_keywords.is_empty() {
                            types = Vec::new();
                        }
                        per_overload = Some(merge_positions(per_overload, types));
                    }
                    per_overload?
                }
                _ => return None,
            };
            combined = Some(match strict {
                true => join_positions(combined, &yielded)?,
                false => merge_positions(combined, yielded),
            });
        }
        combined
    }

    /// `fresh_rows`: the block gives a new array literal each run
    /// ([`super::blocks::gives_fresh_rows`]).
    pub(super) fn finish_plan(&mut self, plan: &Plan<'a>, args: &[Arg], block_value: &Type, fresh_rows: bool) -> Type {
        match plan {
            Plan::Fixed(ty) => ty.clone(),
            Plan::Defs(defs) => union(defs.iter().map(|id| self.method_return(*id)).collect::<Vec<_>>()),
            Plan::External(id) => self.index.external_return(*id),
            Plan::ExternalOwn(id) => self.index.external_own_return(*id),
            Plan::Reader { ivar, class, side } => self.class_ivar_type(class, *side, ivar, false),
            Plan::Rbs { overloads, receiver, owner_args } => union(
                overloads
                    .iter()
                    .map(|overload| {
                        let block = if overload.block.is_some() { Some(block_value) } else { None };
                        let vars = self.method_vars(overload, receiver, owner_args, args, block, fresh_rows);
                        let context = TypeContext {
                            self_type: &receiver.self_type,
                            instance: &receiver.instance,
                            class: &receiver.class,
                            vars: &vars,
                        };
                        let returns = overload.function.returns.substitute(&own_params_removed(owner_args, overload));
                        self.rbs_type(&returns, &context)
                    })
                    .collect::<Vec<_>>(),
            ),
        }
    }

    /// Is the call's one argument a range literal starting at 0 or with
    /// no start (`0..2`, `0...i`, `..2`)?
    fn range_from_zero(&self, call: &CallNode<'pr>) -> bool {
        let arguments: Vec<Node<'pr>> = call.arguments().iter().flat_map(|a| a.arguments().iter()).collect();
        let [argument] = &arguments[..] else { return false };
        let Some(range) = argument.as_range_node() else { return false };
        match range.left() {
            None => true,
            Some(left) => matches!(self.recorded(&left), Some(Type::Constant(Literal::Int(0)))),
        }
    }

    /// The groups of the regexp literal's match a local read holds, when
    /// the read is a MatchData (not nil) of one (see `Frame::match_locals`).
    fn match_local_groups(
        &self,
        receiver: Option<&Node<'pr>>,
        receiver_type: &Type,
        frame: &Frame,
    ) -> Option<super::named_groups::Groups> {
        let read = receiver?.as_local_variable_read_node()?;
        let groups = frame.match_locals.as_ref()?.get(&name(read.name()))?;
        let match_data = |m: &Type| matches!(m, Type::Nominal { class, .. } if &**class == "MatchData");
        receiver_type.members().iter().all(match_data).then(|| groups.clone())
    }

    /// Is `send` (or `public_send`, `__send__`) of every value of this
    /// type the core's, which calls the method it names?
    fn sends_by_name(&self, receiver: &Type, method: &str) -> bool {
        receiver.members().iter().all(|member| match receiver_class(member) {
            Some((class, side)) => matches!(
                self.lookup(&class, side, method),
                Callee::Rbs(found) if matches!(&*found.owner, "Kernel" | "BasicObject" | "Object")
            ),
            None => true,
        })
    }

    /// Does the project replace the core's `method` for values of this
    /// type (a reopened `class Array; def size`)?
    fn replaced_for(&self, receiver: &Type, method: &str) -> bool {
        let Some((class, side)) = receiver_class(receiver) else { return false };
        self.env.has_class(&class) && matches!(self.lookup(&class, side, method), Callee::Opaque)
    }

    /// Resolves a call for one receiver type.
    pub(super) fn plan(
        &mut self,
        receiver: &Type,
        method: &str,
        args: &[Arg],
        block: &BlockArg<'pr>,
        implicit: bool,
        on_self: bool,
    ) -> Plan<'a> {
        match receiver {
            Type::Bot => return Plan::Fixed(Type::Bot),
            Type::Dynamic(_) | Type::Top => {
                // Whoever `self` is, a top-level def is one of its methods,
                // unless a class here defines the name too.
                if let (true, Some(id)) = (implicit, self.index.top_methods.get(method)) {
                    let redefined = self.index.classes.values().any(|c| c.instance_methods.contains_key(method));
                    if !redefined {
                        return Plan::Defs(self.all_definitions(*id, method));
                    }
                }
                if implicit && GLOBAL_FUNCTIONS.contains(&method) {
                    return self.rbs_plan(
                        self.env.instance_method("Object", method),
                        method,
                        Type::nominal("Object"),
                        args,
                        block,
                    );
                }
                return Plan::Fixed(Type::untyped());
            }
            _ => {}
        }
        // Folding runs the core's own methods on known values; where the
        // project may have given the name another body (`def s.upcase`, a
        // refinement, a reopened `String`), what it computes is not certain.
        let may_fold = !self.index.core_redefined(method);
        if !may_fold && self.replaced_for(receiver, method) {
            // The project's own body answers, not the core's (see lookup).
            return Plan::Fixed(Type::untyped());
        }
        // With a block, `"ab".chars { }` iterates and gives the string back.
        let block_changes_answer = !matches!(block, BlockArg::None) && fold::block_form_differs(method);
        if may_fold && !block_changes_answer {
            if let Some(folded) = fold::fold(receiver, method, args) {
                return Plan::Fixed(folded);
            }
        }
        if let Some(special) = self.special(receiver, method, args, block, may_fold) {
            return Plan::Fixed(special);
        }
        let Some((class, side)) = receiver_class(receiver) else { return Plan::Fixed(Type::untyped()) };
        if side == Side::Singleton && method == "new" {
            if let Some(instance) = self.constructed(&class) {
                let instance = match block {
                    BlockArg::None => self.constructed_with_args(&class, instance, args),
                    _ => instance,
                };
                return Plan::Fixed(instance);
            }
        }
        let found = self.lookup(&class, side, method);
        let found = match found {
            // A module the project opens only as a namespace may be created
            // by code it does not see (a gem's `module XPath`), whose
            // `extend`s shadow Module's methods: `XPath.attr` is the gem's.
            Callee::Rbs(_)
                if !implicit
                    && side == Side::Singleton
                    && !self.env.has_class(&class)
                    && self.namespace_only(&class) =>
            {
                Callee::Missing { complete: false }
            }
            Callee::Missing { complete: false }
                if side == Side::Singleton
                    && MODULE_FUNCTIONS.contains(&method)
                    && (implicit || !self.namespace_only(&class)) =>
            {
                // A class or module whose ancestry this file cannot see
                // still answers to Module's own definition methods (not
                // said of a namespace the project only reopens: the
                // code that creates it may define them).
                let meta = if self.is_module(&class) { "Module" } else { "Class" };
                match self.env.instance_method(meta, method) {
                    Some(found) => Callee::Rbs(found),
                    None => Callee::Missing { complete: false },
                }
            }
            Callee::Missing { .. } if implicit => self.implicit_fallback(method),
            other => other,
        };
        match found {
            // Ruby refuses a private method to a written receiver, so the
            // code that works calls a body the signatures omit (`YAML.load`
            // is Psych's, not Kernel's private `load`).
            Callee::Rbs(found) if found.private && !on_self => Plan::Fixed(Type::untyped()),
            Callee::Rbs(found) => self.rbs_plan(Some(found), method, receiver.clone(), args, block),
            // So it refuses this file's private method: the call raises, or
            // `method_missing` answers it (`private :foo` in a proxy).
            Callee::Def(id)
                if !on_self
                    && side == Side::Instance
                    && self.index.is_private_def(self.index.def(id).node.location().start() as usize) =>
            {
                Plan::Fixed(Type::untyped())
            }
            Callee::Def(id) => {
                let defs = self.all_definitions(id, method);
                self.with_overrides_below(defs, &class, side, method)
            }
            // Another file's method: what its own bodies return when no
            // class below the receiver's overrides it, here or elsewhere.
            Callee::External(id) => {
                let below = self.overrides(&class, side, method);
                let own_alone = below.defs.is_empty()
                    && !below.opaque
                    && self.index.overrides_elsewhere(&class, side, method).is_none();
                if own_alone {
                    Plan::ExternalOwn(id)
                } else {
                    Plan::External(id)
                }
            }
            Callee::Reader(ivar) => Plan::Reader { ivar, class, side },
            Callee::Writer => Plan::Fixed(args.last().and_then(Arg::positional).cloned().unwrap_or_else(Type::untyped)),
            Callee::Opaque => Plan::Fixed(Type::untyped()),
            // A method nil lacks raises NoMethodError: that path yields nothing.
            Callee::Missing { complete: true } if *receiver == Type::nil() => Plan::Fixed(Type::Bot),
            Callee::Missing { .. } => Plan::Fixed(Type::untyped()),
        }
    }

    /// What a core method answers for a project class below a core one
    /// (`class MyList < Array`): where the signatures say it makes the
    /// core class's instance (`MyList[5]`, `h.merge(o)` on `MyH < Hash`),
    /// Ruby makes the project class's, whose own methods then answer.
    fn as_the_subclass_may_make(&self, receiver: &Type, result: Type) -> Type {
        let Some((class, _)) = named_receiver(receiver) else { return result };
        if self.env.has_class(class) {
            return result;
        }
        let Some(core) = self.core_superclass(class) else { return result };
        let makes_core = result.members().iter().any(|m| matches!(m, Type::Nominal { class, .. } if *class == core));
        if makes_core {
            union([result, self.instance_of(class)])
        } else {
            result
        }
    }

    /// Is this signature class Exception or below it? (Remembered by name:
    /// asked of every receiver the signatures answer for.)
    fn is_exception_class(&self, class: &Name) -> bool {
        if let Some(known) = self.exception_classes.borrow().get(class) {
            return *known;
        }
        let is = self.relation(class, "Exception") == super::signature::Relation::Is;
        self.exception_classes.borrow_mut().insert(class.clone(), is);
        is
    }

    /// The nearest class above a project class that the signatures
    /// declare, other than Object and BasicObject (`Array` for `class
    /// MyList < Array`).
    fn core_superclass(&self, class: &str) -> Option<Name> {
        let mut current = Name::from(class);
        for _ in 0..64 {
            let user = self.index.class_shape(&current)?;
            let super::Superclass::Known(parent) = &user.superclass else { return None };
            if self.env.has_class(parent) {
                return (!matches!(&**parent, "Object" | "BasicObject")).then(|| parent.clone());
            }
            current = parent.clone();
        }
        None
    }

    /// A method the signatures answer for an instance (or the class
    /// object) of a project class, which a class below it overrides, here
    /// or in another file (`Sub#to_s`, `NotFound#message` below
    /// `AppError < StandardError`): the receiver may be one of those, so
    /// their bodies may answer too. (Asked of classes the project makes,
    /// and of the core's exceptions, which a bare `rescue => e` gives and
    /// projects subclass: other signature classes' subclasses are not
    /// followed.)
    fn core_overridden_below(&mut self, receiver: &Type, method: &str) -> Option<Plan<'a>> {
        let (class, side) = named_receiver(receiver)?;
        if self.env.has_class(class) {
            if !self.is_exception_class(class) {
                return None;
            }
        } else {
            self.index.class_shape(class)?;
        }
        match self.with_overrides_below(Vec::new(), class, side, method) {
            Plan::Defs(defs) if defs.is_empty() => None,
            plan => Some(plan),
        }
    }

    /// `defs` (this file's bodies a call runs) with every override below
    /// `class`, here or in another file: their bodies when all are this
    /// file's `def`s, else the union of what each returns (`untyped` for
    /// one nobody can list).
    fn with_overrides_below(&mut self, mut defs: Vec<usize>, class: &str, side: Side, method: &str) -> Plan<'a> {
        let below = self.overrides(class, side, method);
        defs.extend(below.defs);
        match (self.index.overrides_elsewhere(class, side, method), below.opaque) {
            (None, false) => Plan::Defs(defs),
            (elsewhere, opaque) => {
                let own = defs.iter().map(|id| self.method_return(*id)).collect::<Vec<_>>();
                let unknown = opaque.then(Type::untyped);
                Plan::Fixed(union(own.into_iter().chain(elsewhere.into_iter().flatten()).chain(unknown)))
            }
        }
    }

    pub(super) fn rbs_plan(
        &self,
        found: Option<FoundMethod<'a>>,
        method: &str,
        receiver: Type,
        args: &[Arg],
        block: &BlockArg<'pr>,
    ) -> Plan<'a> {
        let Some(found) = found else { return Plan::Fixed(Type::untyped()) };
        // A method that mutates its receiver returns it changed: `self` is
        // then only its class (`[] << 1` is not `[]`).
        let receiver = if mutates(&receiver, method) {
            let values = passed_values(args);
            super::assign::mutated_container(&receiver, method, &values)
        } else {
            receiver
        };
        let receiver = self.receiver_context(&receiver);
        let overloads = self.select(found.overloads, &found.owner_args, &receiver, args, block);
        if overloads.is_empty() {
            return Plan::Fixed(Type::untyped());
        }
        Plan::Rbs { overloads, receiver, owner_args: found.owner_args }
    }

    /// Is this an instance of a project class (whose methods may reach
    /// back into the caller)?
    pub(super) fn is_project_object(&self, ty: &Type) -> bool {
        ty.class_name().is_some_and(|c| self.index.class_shape(c).is_some())
    }

    /// A container of project objects: its methods call theirs (`==` from
    /// `include?`, `<=>` from `max`, `to_s` from `join`).
    fn holds_project_objects(&self, ty: &Type) -> bool {
        let project = |t: &Type| t.members().iter().any(|m| self.is_project_object(m));
        match ty {
            Type::Nominal { args, .. } => args.iter().any(project),
            Type::Tuple(elements) => elements.iter().any(project),
            Type::Shape(shape) => shape.fields.iter().any(|f| project(&f.ty)),
            _ => false,
        }
    }

    /// Methods whose result the literal shape of the receiver decides
    /// (computed from a tuple's or shape's own values only when `may_fold`:
    /// see [`Inferrer::plan`]), and core methods whose signatures say less
    /// than they do (`IO#read` to the end is never nil).
    pub(super) fn special(
        &mut self,
        receiver: &Type,
        method: &str,
        args: &[Arg],
        block: &BlockArg<'pr>,
        may_fold: bool,
    ) -> Option<Type> {
        if block.given() {
            return None;
        }
        let positional: Vec<&Type> = args.iter().filter_map(Arg::positional).collect();
        if positional.len() != args.len() {
            return None;
        }
        if may_fold {
            if let Some(folded) = self.fold_shape(receiver, method, &positional) {
                return Some(folded);
            }
        }
        match (receiver, method, positional.as_slice()) {
            // Ends the current thread: nothing after it runs (the core
            // signature says it returns the thread).
            (Type::Singleton(class), "exit", []) if &**class == "Thread" => Some(Type::Bot),
            // `s[0, n]` with `n >= 0`: start 0 is never past the end, so a
            // string or array gives a (maybe empty) slice, never nil.
            (_, "[]" | "slice", [Type::Constant(Literal::Int(0)), Type::Constant(Literal::Int(n))]) if *n >= 0 => {
                match receiver {
                    Type::Constant(Literal::Str(_)) => Some(Type::nominal("String")),
                    Type::Nominal { class, .. } if &**class == "String" => Some(Type::nominal("String")),
                    Type::Nominal { class, args } if &**class == "Array" && args.len() == 1 => {
                        Some(Type::generic("Array", args.to_vec()))
                    }
                    Type::Tuple(elements) if !elements.is_empty() => Some(Type::generic(
                        "Array",
                        vec![crate::types::widen_literals(union(elements.iter().map(Type::forget_exact)))],
                    )),
                    _ => None,
                }
            }
            // An array of pairs makes a hash of their halves (any other
            // element raises); what they hold is held by both now.
            (Type::Tuple(_) | Type::Nominal { .. }, "to_h", []) if receiver.class_name() == Some("Array") => {
                // A literal array's own elements, not their widened union
                // (which would merge each pair's halves).
                let members: Vec<Type> = match receiver {
                    Type::Tuple(elements) => elements.iter().flat_map(|e| e.members().to_vec()).collect(),
                    _ => array_element(receiver)?.members().to_vec(),
                };
                let mut keys = Vec::new();
                let mut values = Vec::new();
                for member in &members {
                    match member {
                        Type::Tuple(pair) if pair.len() == 2 => {
                            keys.push(pair[0].clone());
                            values.push(pair[1].clone());
                        }
                        Type::Nominal { class, args } if &**class == "Array" && args.len() == 1 => {
                            keys.push(args[0].clone());
                            values.push(args[0].clone());
                        }
                        _ => return None,
                    }
                }
                let settle =
                    |types: Vec<Type>| crate::types::widen_literals(union(types).forget_exact()).forget_contents();
                Some(Type::generic("Hash", vec![settle(keys), settle(values)]))
            }
            // `flatten` unwraps nested arrays down to elements that are not
            // arrays and cannot become one (`to_ary`): core scalars only.
            (Type::Tuple(_) | Type::Nominal { .. }, "flatten", []) if receiver.class_name() == Some("Array") => {
                // A `to_ary` (or a `method_missing` answering it) given to a
                // core class, or to every object at the top level.
                if self.index.core_redefined("to_ary")
                    || self.index.core_redefined("method_missing")
                    || self.index.core_redefined("respond_to_missing?")
                    || self.index.top_methods.contains_key("to_ary")
                {
                    return None;
                }
                let element = flattened(&array_element(receiver)?, 0)?;
                let element = if element == Type::Bot { Type::untyped() } else { element };
                Some(Type::generic("Array", vec![element.forget_contents()]))
            }
            // `compact` drops the nils (RBS cannot say so: `Array[Elem]`).
            // A tuple keeps its shape only when each element surely is nil
            // or surely is not (`untyped` may be either).
            (Type::Tuple(elements), "compact", []) => {
                if elements.iter().all(|e| *e == Type::nil() || !e.may_be_nil()) {
                    Some(Type::Tuple(elements.iter().filter(|e| **e != Type::nil()).map(Type::forget_exact).collect()))
                } else {
                    let kept = elements.iter().map(Type::without_nil).map(crate::types::widen_literals);
                    Some(Type::generic("Array", vec![union(kept)]))
                }
            }
            (Type::Nominal { class, args }, "compact", []) if &**class == "Array" && args.len() == 1 => {
                Some(match args[0].without_nil() {
                    Type::Bot => Type::Tuple(Vec::new()),
                    element => Type::generic("Array", vec![element]),
                })
            }
            (Type::Nominal { class, args }, "compact", []) if &**class == "Hash" && args.len() == 2 => {
                let value = match args[1].without_nil() {
                    Type::Bot => Type::untyped(),
                    value => value,
                };
                Some(Type::generic("Hash", vec![args[0].clone(), value]))
            }
            (Type::Nominal { class, .. }, "size" | "length" | "bytesize", [])
                if matches!(&**class, "String" | "Array" | "Hash" | "Symbol") =>
            {
                Some(Type::non_negative_int())
            }
            (Type::Constant(Literal::Str(_)) | Type::Tuple(_) | Type::Shape(_), "size" | "length" | "bytesize", []) => {
                Some(Type::non_negative_int())
            }
            // Read to the end, `IO#read` gives "" at EOF, never nil (RBS: `String?`).
            (Type::Nominal { class, .. }, "read", []) if matches!(&**class, "IO" | "File" | "StringIO") => {
                Some(Type::nominal("String"))
            }
            // Group 0 is the whole match: always there.
            (Type::Nominal { class, .. }, "begin" | "end" | "[]", [Type::Constant(Literal::Int(0))])
                if &**class == "MatchData" =>
            {
                Some(Type::nominal(if method == "[]" { "String" } else { "Integer" }))
            }
            // Integer directives each repeated with `*` never run out of
            // data, so no element is nil (RBS: `Array[Integer | Float | String | nil]`).
            (Type::Nominal { class, .. }, "unpack", [Type::Constant(Literal::Str(format))])
                if &**class == "String" && integers_to_the_end(format) =>
            {
                Some(Type::generic("Array", vec![Type::nominal("Integer")]))
            }
            (Type::Constant(Literal::Str(_)), "unpack", [Type::Constant(Literal::Str(format))])
                if integers_to_the_end(format) =>
            {
                Some(Type::generic("Array", vec![Type::nominal("Integer")]))
            }
            (Type::Singleton(class), "class", []) => {
                Some(if self.is_module(class) { Type::singleton("Module") } else { Type::singleton("Class") })
            }
            // `1 <=> o` and `1 < o` ask `o.coerce` and give back what the
            // coerced operator answers; `"s" =~ o` gives back `o =~ "s"`.
            // Any of them may be anything when `o` is not the core's own
            // (RBS: `Integer?`, `bool`).
            (_, "<=>" | "<" | "<=" | ">" | ">=", [argument])
                if is_core_number(receiver)
                    && (!surely_core_value(argument) || self.index.core_redefined("coerce")) =>
            {
                Some(Type::untyped())
            }
            // `[a] <=> [b]` gives back the first of its elements' `<=>`
            // answers that is not 0, as it is.
            (_, "<=>", [argument])
                if receiver.class_name() == Some("Array")
                    && (!holds_only_core_values(receiver) || !holds_only_core_values(argument)) =>
            {
                Some(Type::untyped())
            }
            // `pr === x` runs the proc (RBS gives Proc no `===`, and
            // Object's answers `bool`).
            (_, "===", [_]) if receiver.class_name() == Some("Proc") => Some(Type::untyped()),
            (_, "=~", [argument])
                if matches!(receiver.class_name(), Some("String" | "Symbol")) && !surely_core_value(argument) =>
            {
                Some(Type::untyped())
            }
            _ => None,
        }
    }

    /// What the core's own method computes from a tuple's or a shape's
    /// known elements (`[1, 2].size` is `2`, `{a: 1}[:a]` is `1`).
    fn fold_shape(&self, receiver: &Type, method: &str, positional: &[&Type]) -> Option<Type> {
        if let Some(folded) = super::fold::collection(receiver, method, positional) {
            return Some(folded);
        }
        match (receiver, method, positional) {
            (Type::Tuple(elements), "size" | "length" | "count", []) => Some(Type::int(elements.len() as i64)),
            (Type::Tuple(elements), "empty?", []) => {
                Some(Type::Constant(if elements.is_empty() { Literal::True } else { Literal::False }))
            }
            (Type::Tuple(elements), "first", []) => Some(elements.first().map_or(Type::nil(), Type::forget_exact)),
            // A new array of the first `n` (`m.captures.first(3)`).
            (Type::Tuple(elements), "first" | "take", [Type::Constant(Literal::Int(n))]) if *n >= 0 => {
                Some(Type::Tuple(elements.iter().take(*n as usize).map(Type::forget_exact).collect()))
            }
            (Type::Tuple(elements), "last", []) => Some(elements.last().map_or(Type::nil(), Type::forget_exact)),
            (Type::Tuple(elements), "[]" | "at" | "fetch" | "slice" | "dig", [Type::Constant(Literal::Int(index))]) => {
                let len = elements.len() as i64;
                let index = if *index < 0 { len + index } else { *index };
                // Past either end (`[1, 2][-3]`, `[1, 2][2]`): no element.
                match usize::try_from(index).ok().and_then(|at| elements.get(at)) {
                    Some(element) => Some(element.forget_exact()),
                    None if method == "fetch" => Some(Type::Bot),
                    None => Some(Type::nil()),
                }
            }
            (Type::Tuple(_), "to_a" | "entries", []) => Some(receiver.clone()),
            // A new array of the same elements: reversed, or in some order.
            (Type::Tuple(elements), "reverse", []) => {
                Some(Type::Tuple(elements.iter().rev().map(Type::forget_exact).collect()))
            }
            (Type::Tuple(elements), "sort" | "shuffle" | "rotate", []) if elements.len() <= MAX_MAPPED_TUPLE => {
                let any = union(elements.iter().map(Type::forget_exact));
                Some(Type::Tuple(vec![any; elements.len()]))
            }
            // As many values (or keys) as fields; in whatever order the
            // hash came to hold them.
            (Type::Shape(shape), "values" | "keys", [])
                if !shape.open
                    && shape.fields.iter().all(|f| !f.optional)
                    && shape.fields.len() <= MAX_MAPPED_TUPLE =>
            {
                let any = if method == "values" {
                    union(shape.fields.iter().map(|f| f.ty.forget_exact()))
                } else {
                    union(shape.fields.iter().map(|f| Type::symbol(f.key.as_str())))
                };
                Some(Type::Tuple(vec![any; shape.fields.len()]))
            }
            (Type::Shape(shape), "[]" | "fetch" | "dig", [Type::Constant(Literal::Sym(key))]) if !shape.open => {
                match shape.fields.iter().find(|f| *f.key == **key) {
                    Some(field) if field.optional => Some(union([field.ty.forget_exact(), Type::nil()])),
                    Some(field) => Some(field.ty.forget_exact()),
                    None if method == "fetch" => None,
                    None => Some(Type::nil()),
                }
            }
            (Type::Shape(shape), "size" | "length" | "count", [])
                if !shape.open && shape.fields.iter().all(|f| !f.optional) =>
            {
                Some(Type::int(shape.fields.len() as i64))
            }
            (Type::Shape(shape), "empty?", []) if !shape.open && shape.fields.iter().all(|f| !f.optional) => {
                Some(Type::Constant(if shape.fields.is_empty() { Literal::True } else { Literal::False }))
            }
            (Type::Shape(shape), "key?" | "has_key?" | "include?" | "member?", [Type::Constant(Literal::Sym(key))])
                if !shape.open =>
            {
                match shape.fields.iter().find(|f| *f.key == **key) {
                    Some(field) if !field.optional => Some(Type::Constant(Literal::True)),
                    Some(_) => Some(Type::bool()),
                    None => Some(Type::Constant(Literal::False)),
                }
            }
            _ => None,
        }
    }

    /// Where a `super` call leads: the same method in the ancestors.
    pub fn super_call(&mut self, node: &Node<'pr>, state: &mut State, frame: &Frame) -> Type {
        let mut args = Vec::new();
        let mut block_node = None;
        let mut explicit = false;
        if let Some(sup) = node.as_super_node() {
            explicit = true;
            if let Some(arguments) = sup.arguments() {
                for argument in arguments.arguments().iter() {
                    let ty = self.expr(&argument, state, frame);
                    self.escape(&argument, state);
                    args.push(match argument {
                        Node::SplatNode { .. } => Arg::Splat,
                        Node::KeywordHashNode { .. } => Arg::Keywords(ty),
                        _ => Arg::Value(ty),
                    });
                }
            }
            block_node = sup.block();
        } else if let Some(sup) = node.as_forwarding_super_node() {
            block_node = sup.block().map(|b| b.as_node());
        }
        if !explicit {
            args.push(Arg::Forward);
        }
        let block = match block_node {
            Some(Node::BlockNode { .. }) => {
                block_node.as_ref().and_then(|b| b.as_block_node()).map_or(BlockArg::Other, BlockArg::Literal)
            }
            Some(other) => {
                self.expr(&other, state, frame);
                BlockArg::Other
            }
            None => BlockArg::None,
        };
        // `super` passes arguments to an ancestor's method of this name.
        if let Some(method) = &frame.method {
            self.note_escape(method);
        }
        let (Some(method), Some((class, side)), true) = (&frame.method, &frame.class, frame.self_known) else {
            if let Some(flow) = state.as_mut() {
                flow.ivars.clear();
            }
            let plan = BlockPlan {
                yielded: None,
                self_type: None,
                self_unknown: false,
                another_self: false,
                stored: true,
                fed_back: Vec::new(),
                value_dropped: false,
                thrown_out: false,
                runs_before_return: false,
            };
            if let BlockArg::Literal(block) = block {
                self.block(&block, plan, state, frame);
            }
            return Type::untyped();
        };
        let callee = self.super_lookup(class, *side, method);
        // An ancestor's `def` that can write none of the object's ivars
        // leaves the facts standing, as an own helper's does.
        let keeps = match (&callee, &block) {
            (Callee::Def(id), BlockArg::None) => self.def_keeps_ivars(*id),
            _ => false,
        };
        if let (Some(flow), false) = (state.as_mut(), keeps) {
            flow.ivars.clear();
        }
        let reaches_class_new = matches!(&callee, Callee::Rbs(found) if &*found.owner == "Class");
        let plan = match callee {
            Callee::Rbs(found) => self.rbs_plan(Some(found), method, frame.self_type.clone(), &args, &block),
            Callee::Def(id) => Plan::Defs(vec![id]),
            // An ancestor's method in another file: what its own bodies
            // return (`super` runs one of them, never an override below).
            Callee::External(id) => Plan::ExternalOwn(id),
            _ => Plan::Fixed(Type::untyped()),
        };
        let plans = vec![plan];
        let site = CallSite {
            method,
            args: &args,
            implicit: true,
            on_self: true,
            self_unknown: false,
            receiver_local: None,
            receiver_yields_arrays: false,
            enumerated_rows: None,
            fresh_first_array: false,
        };
        let outcome = self.run_block(&plans, &site, &frame.self_type, block, state, frame);
        let results: Vec<Type> = plans.iter().map(|p| self.finish_plan(p, &args, &outcome.value, false)).collect();
        let mut ty = self.after_breaks(union(results), outcome, state);
        // `super` in a `self.new` of its own that reaches `Class#new` makes
        // an instance of the receiver: this class or a subclass.
        if *side == Side::Singleton && &**method == "new" && reaches_class_new && self.singleton_chain_is_plain(class) {
            ty = Type::nominal(class);
        }
        self.note_super_ran(state, frame);
        ty
    }

    /// `a.b op= v`, `a[i] ||= v` and friends.
    pub fn call_write(&mut self, node: &Node<'pr>, state: &mut State, frame: &Frame) -> Type {
        enum Kind {
            Operator(String),
            Or,
            And,
        }
        let (receiver_node, read, arguments, value, kind, safe) = if let Some(w) = node.as_call_operator_write_node() {
            (
                w.receiver(),
                name(w.read_name()),
                None,
                w.value(),
                Kind::Operator(name(w.binary_operator())),
                w.is_safe_navigation(),
            )
        } else if let Some(w) = node.as_call_or_write_node() {
            (w.receiver(), name(w.read_name()), None, w.value(), Kind::Or, w.is_safe_navigation())
        } else if let Some(w) = node.as_call_and_write_node() {
            (w.receiver(), name(w.read_name()), None, w.value(), Kind::And, w.is_safe_navigation())
        } else if let Some(w) = node.as_index_operator_write_node() {
            (w.receiver(), "[]".to_string(), w.arguments(), w.value(), Kind::Operator(name(w.binary_operator())), false)
        } else if let Some(w) = node.as_index_or_write_node() {
            (w.receiver(), "[]".to_string(), w.arguments(), w.value(), Kind::Or, false)
        } else if let Some(w) = node.as_index_and_write_node() {
            (w.receiver(), "[]".to_string(), w.arguments(), w.value(), Kind::And, false)
        } else {
            return Type::untyped();
        };
        let receiver = match &receiver_node {
            Some(r) => self.expr(r, state, frame),
            None if frame.self_known => frame.self_type.clone(),
            None => Type::untyped(),
        };
        // `c&.n += 1` on nil skips the rest and gives nil.
        let skipped = (safe && receiver.may_be_nil()).then(|| state.clone());
        let receiver = if safe { receiver.without_nil() } else { receiver };
        let mut index_args = Vec::new();
        if let Some(arguments) = arguments {
            for argument in arguments.arguments().iter() {
                index_args.push(self.expr(&argument, state, frame));
            }
        }
        let current = self.invoke(&receiver, &read, index_args.clone(), state, frame);
        let result = match kind {
            Kind::Operator(operator) => {
                let value = self.expr(&value, state, frame);
                self.invoke(&current, &operator, vec![value], state, frame)
            }
            Kind::Or if !current.may_be_falsy() => {
                self.dead(&value, frame);
                current
            }
            Kind::Or => {
                let skipped = state.clone();
                let assigned = self.expr(&value, state, frame);
                // The element or attribute now holds the value too.
                self.escape(&value, state);
                *state = join_states(&skipped, state);
                join(&current.truthy_part(), &assigned)
            }
            Kind::And if !current.may_be_truthy() => {
                self.dead(&value, frame);
                current
            }
            Kind::And => {
                let skipped = state.clone();
                let assigned = self.expr(&value, state, frame);
                self.escape(&value, state);
                *state = join_states(&skipped, state);
                join(&current.falsy_part(), &assigned)
            }
        };
        let result = match skipped {
            Some(skipped) => {
                *state = join_states(&skipped, state);
                union([result, Type::nil()])
            }
            None => result,
        };
        // The writer is called with what is written (a private writer's
        // parameter is typed from its calls: `self.total += n` is one).
        let index = matches!(
            node,
            Node::IndexOperatorWriteNode { .. } | Node::IndexOrWriteNode { .. } | Node::IndexAndWriteNode { .. }
        );
        let writer = if index { "[]=".to_string() } else { format!("{read}=") };
        let mut written = index_args;
        written.push(result.clone());
        self.note_written(receiver_node.as_ref(), &receiver, &writer, written, frame);
        if let Some(receiver_node) = &receiver_node {
            self.escape(receiver_node, state);
        }
        if let Some(flow) = state.as_mut() {
            flow.ivars.clear();
        }
        result
    }
}

/// Does the core's `method` on `receiver` return only after running its
/// block (once, for these)? Then nothing the block assigns is left as it
/// was before the call: `res = nil; @lock.synchronize { res = v }` leaves
/// `res` what the block gave it.
fn runs_block_before_return(receiver: &Type, method: &str) -> bool {
    if receiver.has_unknown() {
        return false;
    }
    let members = receiver.members();
    let all = |test: &dyn Fn(&Type) -> bool| !members.is_empty() && members.iter().all(test);
    let singleton_of =
        |names: &[&str]| all(&|m: &Type| matches!(m, Type::Singleton(class) if names.contains(&&**class)));
    let instance_of = |names: &[&str]| {
        all(&|m: &Type| Inferrer::class_of(m).is_some_and(|c| names.contains(&&*c)) && !matches!(m, Type::Singleton(_)))
    };
    match method {
        "tap" | "then" | "yield_self" | "instance_eval" | "instance_exec" | "catch" => true,
        "class_eval" | "module_eval" | "class_exec" | "module_exec" => all(&|m: &Type| matches!(m, Type::Singleton(_))),
        "synchronize" | "mon_synchronize" => instance_of(&["Mutex", "Thread::Mutex", "Monitor"]),
        "chdir" => singleton_of(&["Dir"]),
        "open" => singleton_of(&["File"]),
        "realtime" | "measure" => singleton_of(&["Benchmark"]),
        _ => false,
    }
}

/// `rows.map` with no block and no argument, where `map` may enumerate a
/// literal's rows: the method, and the node of the rows.
fn enumerator_of_rows<'pr>(receiver: &Node<'pr>) -> Option<(String, Node<'pr>)> {
    let inner = receiver.as_call_node()?;
    let method = crate::syntax::decoded(inner.name().as_slice());
    if inner.block().is_some() || inner.arguments().is_some() || !super::literal_rows::enumerates_rows(&method) {
        return None;
    }
    Some((method.into_owned(), inner.receiver()?))
}

/// `|x|` or `|(a, b)|`: one parameter, which takes the first of several
/// values yielded (or, taken apart, the first's parts).
fn takes_one_parameter(block: &ruby_prism::BlockNode<'_>) -> bool {
    block.parameters().and_then(|p| p.as_block_parameters_node()).and_then(|p| p.parameters()).is_some_and(|p| {
        p.requireds().iter().count() == 1
            && p.requireds()
                .iter()
                .all(|r| matches!(r, Node::RequiredParameterNode { .. } | Node::MultiTargetNode { .. }))
            && p.optionals().iter().count() == 0
            && p.rest().is_none()
            && p.posts().iter().count() == 0
    })
}

/// A core value whose calls run code it holds: a block (Proc, Method,
/// Fiber, Thread, Enumerator), which may write the caller's ivars.
fn runs_code_it_holds(ty: &Type) -> bool {
    matches!(ty, Type::Nominal { class, .. }
        if matches!(&**class, "Proc" | "Method" | "UnboundMethod" | "Fiber" | "Thread" | "Enumerator" | "Enumerator::Lazy"))
}

/// Whether `call` may read and assign the caller's locals: `binding`
/// (of the scope, or `Proc#binding` of a block made in it), `eval` of a
/// string, and the string forms of `instance_eval`, `class_eval` and
/// `module_eval`, which see the caller's locals too.
///
/// Also either sent by a literal name (`send(:binding)`, `__send__(:eval,
/// code)`), or made a Method object that runs it later
/// (`method(:binding).call`): Kernel's `binding` and `eval` take the frame
/// of the method that called `send` (or made the Method). A name computed
/// at run time is not followed.
fn reaches_caller_locals(method: &str, call: &CallNode<'_>) -> bool {
    let arguments = call.arguments().is_some_and(|a| !a.arguments().is_empty());
    match method {
        "binding" => !arguments,
        "eval" => true,
        "instance_eval" | "class_eval" | "module_eval" => arguments && call.block().is_none(),
        "send" | "__send__" | "method" => {
            let first = call.arguments().and_then(|a| a.arguments().iter().next());
            let named = first.as_ref().and_then(|node| match node {
                Node::SymbolNode { .. } => node.as_symbol_node().map(|s| s.unescaped().to_vec()),
                Node::StringNode { .. } => node.as_string_node().map(|s| s.unescaped().to_vec()),
                _ => None,
            });
            matches!(named.as_deref(), Some(b"binding" | b"eval"))
        }
        _ => false,
    }
}

/// Does `block` mention the local that `receiver` reads, or run code
/// that may reach any local (`binding`, `eval`)? A block parameter of the
/// same name counts too: telling it from the outer local is not worth the
/// risk of a wrong answer.
fn block_reaches_local(block: &ruby_prism::BlockNode<'_>, receiver: &Node<'_>) -> bool {
    // A visitor, not a list of every node: this runs at every call with a
    // block on a local.
    struct Finder<'l> {
        local: &'l [u8],
        found: bool,
    }
    impl<'pr> ruby_prism::Visit<'pr> for Finder<'_> {
        fn visit_branch_node_enter(&mut self, node: Node<'pr>) {
            crate::stack_guard::ensure_room();
            self.found |= crate::syntax::local_name(&node).is_some_and(|name| name == self.local);
        }
        fn visit_leaf_node_enter(&mut self, node: Node<'pr>) {
            self.found |= crate::syntax::local_name(&node).is_some_and(|name| name == self.local);
        }
        fn visit_local_variable_target_node(&mut self, node: &ruby_prism::LocalVariableTargetNode<'pr>) {
            self.found |= node.name().as_slice() == self.local;
        }
        fn visit_call_node(&mut self, call: &CallNode<'pr>) {
            if self.found {
                return;
            }
            self.found |= reaches_caller_locals(&crate::syntax::name_text(call.name()), call);
            ruby_prism::visit_call_node(self, call);
        }
    }
    let Some(read) = receiver.as_local_variable_read_node() else { return false };
    let Some(body) = block.body() else { return false };
    let mut finder = Finder { local: read.name().as_slice(), found: false };
    ruby_prism::Visit::visit(&mut finder, &body);
    finder.found
}

/// The block parameters a signature feeds the block's own value on its
/// next run: those typed as the block returns, by a type variable
/// (`inject`: `[A] (A) { (A, Elem) -> A }`, `{ (Elem, Elem) -> Elem }`).
fn fed_back_positions(plans: &[Plan<'_>]) -> Vec<usize> {
    let mut positions = Vec::new();
    for plan in plans {
        let Plan::Rbs { overloads, .. } = plan else { continue };
        for block in overloads.iter().filter_map(|o| o.block.as_ref()) {
            let function = &block.function;
            if !matches!(function.returns, RType::Var(_)) {
                continue;
            }
            let params = function.required.iter().chain(&function.optional).chain(&function.trailing);
            for (at, param) in params.enumerate() {
                if *param == function.returns && !positions.contains(&at) {
                    positions.push(at);
                }
            }
        }
    }
    positions.sort_unstable();
    positions
}

/// Calls whose result holds the receiver, so that whoever gets it may
/// change the receiver later (`m = a.method(:push); m.call(x)`).
fn hands_out_receiver(method: &str) -> bool {
    matches!(method, "method" | "public_method" | "to_proc" | "to_enum" | "enum_for")
}

/// Calls that give their receiver methods of its own.
fn gives_own_methods(method: &str) -> bool {
    matches!(method, "define_singleton_method" | "extend" | "singleton_class")
}

/// An `unpack` format of integer directives, each with a `*` count.
fn integers_to_the_end(format: &str) -> bool {
    let mut chars = format.chars().filter(|c| !c.is_whitespace()).peekable();
    let mut any = false;
    while let Some(directive) = chars.next() {
        if !"CcSsLlQqJjNnVvUw".contains(directive) {
            return false;
        }
        while chars.peek().is_some_and(|c| matches!(c, '_' | '!' | '<' | '>')) {
            chars.next();
        }
        if chars.next() != Some('*') {
            return false;
        }
        any = true;
    }
    any
}

/// Position-wise union of what different overloads or receivers yield.
pub(super) fn merge_positions(current: Option<Vec<Type>>, next: Vec<Type>) -> Vec<Type> {
    let Some(current) = current else { return next };
    let len = current.len().max(next.len());
    (0..len)
        .map(|i| {
            let a = current.get(i).cloned().unwrap_or_else(Type::nil);
            let b = next.get(i).cloned().unwrap_or_else(Type::nil);
            join(&a, &b)
        })
        .collect()
}

/// The class whose methods answer a call on a value of this type, and on
/// which side (a class object answers with its singleton methods).
fn receiver_class(receiver: &Type) -> Option<(Name, Side)> {
    match receiver {
        Type::Singleton(class) => Some((class.clone(), Side::Singleton)),
        other => Inferrer::class_of(other).map(|class| (class, Side::Instance)),
    }
}

/// The class a receiver is typed by name (`Foo` or `singleton(Foo)`),
/// borrowed: a literal's or a tuple's is a core class the project does not
/// make.
fn named_receiver(receiver: &Type) -> Option<(&Name, Side)> {
    match receiver {
        Type::Nominal { class, .. } => Some((class, Side::Instance)),
        Type::Singleton(class) => Some((class, Side::Singleton)),
        _ => None,
    }
}

/// A core String or Array, by value or literal.
fn is_core_string_or_array(member: &Type) -> bool {
    match member {
        Type::Constant(Literal::Str(_)) | Type::Tuple(_) => true,
        Type::Nominal { class, .. } => matches!(&**class, "String" | "Array"),
        _ => false,
    }
}

/// Does a local of this flow hold nested containers (what a block reading
/// it could change the rows of)?
fn holds_nested(state: &State) -> impl Fn(&[u8]) -> bool + Copy + '_ {
    move |local: &[u8]| {
        let local = crate::syntax::decoded(local);
        state.as_ref().is_some_and(|flow| flow.local(&local).has_nested_mutable_contents())
    }
}

/// Does a `break` in this block leave the call it is given to (one not
/// inside a loop, block, lambda or `def` of its own)?
fn block_breaks_out(block: &ruby_prism::BlockNode<'_>) -> bool {
    struct Finder {
        found: bool,
    }
    impl<'pr> Visit<'pr> for Finder {
        fn visit_branch_node_enter(&mut self, _node: Node<'pr>) {
            crate::stack_guard::ensure_room();
        }
        fn visit_break_node(&mut self, _node: &ruby_prism::BreakNode<'pr>) {
            self.found = true;
        }
        fn visit_block_node(&mut self, _node: &ruby_prism::BlockNode<'pr>) {}
        fn visit_lambda_node(&mut self, _node: &ruby_prism::LambdaNode<'pr>) {}
        fn visit_def_node(&mut self, _node: &ruby_prism::DefNode<'pr>) {}
        fn visit_while_node(&mut self, node: &ruby_prism::WhileNode<'pr>) {
            // Its condition is outside the loop: a `break` there leaves the block's call.
            self.visit(&node.predicate());
        }
        fn visit_until_node(&mut self, node: &ruby_prism::UntilNode<'pr>) {
            self.visit(&node.predicate());
        }
        fn visit_for_node(&mut self, node: &ruby_prism::ForNode<'pr>) {
            self.visit(&node.collection());
        }
    }
    let mut finder = Finder { found: false };
    if let Some(body) = block.body() {
        finder.visit(&body);
    }
    finder.found
}

/// Core methods that call methods of the elements they hold: `to_s` or
/// `to_str` (`join`, `inspect`), `<=>` (`sort`, `max`), `hash` and `eql?`
/// (`uniq`, `-`, `to_set`), `==` (`include?`, `index`), `+` (`sum`),
/// `to_ary` (`flatten`, `to_h`).
const ELEMENT_CALLERS: &[&str] = &[
    "join",
    "inspect",
    "to_s",
    "sort",
    "sort!",
    "max",
    "min",
    "minmax",
    "uniq",
    "uniq!",
    "-",
    "&",
    "|",
    "difference",
    "union",
    "intersection",
    "intersect?",
    "to_set",
    "include?",
    "member?",
    "index",
    "find_index",
    "rindex",
    "delete",
    "count",
    "==",
    "!=",
    "eql?",
    "hash",
    "<=>",
    "sum",
    "flatten",
    "flatten!",
    "to_h",
    "tally",
    "assoc",
    "rassoc",
    "pack",
    "rehash",
];

/// Core methods that call no method of what they are given: they compare
/// it by identity, ask only the receiver, or take a class. Every other
/// core method may: `hash`/`eql?` of a key, `==` (`include?`), `coerce`
/// (`1 + o`), `to_str` (`"a" + o`, `s << o`), `to_int` (`s.center(o)`,
/// `a.first(o)`), `to_ary` (`[1] + o`).
const IGNORES_ARGUMENTS: &[&str] = &[
    "equal?",
    "is_a?",
    "kind_of?",
    "instance_of?",
    "instance_variable_get",
    "instance_variable_defined?",
    "respond_to?",
    "frozen?",
    "object_id",
    "__id__",
];

/// Array methods that only store what they are given, from this argument
/// on (`insert` takes an index first, which it asks `to_int`).
fn stores_from(method: &str) -> Option<usize> {
    match method {
        "push" | "<<" | "append" | "unshift" | "prepend" => Some(0),
        "insert" => Some(1),
        _ => None,
    }
}

/// May a core call on `receiver` run the project's code unseen, through
/// the methods it calls on the elements it holds or on its arguments,
/// where those are the project's objects or may be (unknown)? Such code
/// may reach `self` and write its ivars (a `Peer` holding it, whose `to_s`
/// clears one, joined).
fn calls_back_unseen(receiver: &Type, method: &str, args: &[Arg]) -> bool {
    let maybe_project = may_be_project_value;
    let holds = |ty: &Type| match ty {
        Type::Nominal { args, .. } => args.iter().any(maybe_project),
        Type::Tuple(elements) => elements.iter().any(maybe_project),
        Type::Shape(shape) => shape.fields.iter().any(|f| maybe_project(&f.ty)),
        _ => false,
    };
    let stored_from =
        stores_from(method).filter(|_| receiver.members().iter().all(|m| m.class_name() == Some("Array")));
    let asked = match stored_from {
        Some(from) => &args[..from.min(args.len())],
        None => args,
    };
    // A splat asks what it spreads for `to_a`, wherever it stands.
    (ELEMENT_CALLERS.contains(&method) && receiver.members().iter().any(holds))
        || args.iter().any(|arg| matches!(arg, Arg::Splat | Arg::Forward))
        || (!IGNORES_ARGUMENTS.contains(&method)
            && asked.iter().any(|arg| match arg {
                Arg::Value(ty) | Arg::Keywords(ty) => maybe_project(ty) || holds(ty),
                // (Counted above, wherever they stand.)
                Arg::Splat | Arg::Forward => false,
            }))
}

/// An Integer, Float, Rational or Complex (or a Numeric), whose operators
/// hand a value they do not know to its `coerce`.
fn is_core_number(ty: &Type) -> bool {
    matches!(ty.class_name(), Some("Integer" | "Float" | "Rational" | "Complex" | "Numeric"))
}

/// Does an array (or what may be one) hold core values only, each of
/// which answers `<=>` the core's way?
fn holds_only_core_values(ty: &Type) -> bool {
    ty.members().iter().all(|member| match member {
        Type::Tuple(elements) => elements.iter().all(surely_core_value),
        Type::Nominal { class, args } if &**class == "Array" => args.iter().all(surely_core_value),
        other => !other.has_unknown() && other.class_name().is_some_and(|c| c != "Array") && is_core_value(other),
    })
}

/// Is every value `ty` may be a core one, which answers the core's way?
fn surely_core_value(ty: &Type) -> bool {
    ty.members().iter().all(|m| !m.has_unknown() && is_core_value(m))
}

/// May a value of `ty` be one whose methods are the project's (or
/// unknown), so that the core asking it `to_ary` or `to_str` runs them?
pub(super) fn may_be_project_value(ty: &Type) -> bool {
    !surely_core_value(ty)
}

/// A value of a core class whose own methods never run the project's code
/// (the inert classes, and containers: what they hold is asked apart).
fn is_core_value(ty: &Type) -> bool {
    matches!(ty, Type::Constant(_) | Type::IntRange { .. } | Type::Tuple(_) | Type::Shape(_))
        || ty.class_name().is_some_and(|class| {
            super::narrow::INERT.contains(&class) || matches!(class, "Array" | "Hash" | "Range" | "Time" | "Proc")
        })
}

/// Does an `each_with_object` block take its memo apart (`|n, (evens,
/// odds)|`), so that no name in it holds the memo whole?
fn memo_taken_apart(block: &ruby_prism::BlockNode<'_>) -> bool {
    block
        .parameters()
        .and_then(|p| p.as_block_parameters_node())
        .and_then(|p| p.parameters())
        .is_some_and(|list| matches!(list.requireds().iter().nth(1), Some(Node::MultiTargetNode { .. })))
}

/// What `each_with_object(memo) { }` gives back: the memo, which the block
/// may have filled (`{ |n, acc| acc << n }` puts integers in `[[], []]`).
/// Only a new array the block takes apart keeps its length; what each
/// element holds may change.
fn memo_after_block(memo: &Type, block: &ruby_prism::BlockNode<'_>, fresh: bool) -> Type {
    match memo {
        Type::Tuple(elements) if fresh && memo_taken_apart(block) => {
            Type::Tuple(elements.iter().map(Type::forget_mutable).collect())
        }
        other => other.forget_mutable(),
    }
}

/// `a[0]` or `a[-1]`: one argument, an end's index written out.
fn end_index(call: &CallNode<'_>) -> bool {
    let arguments: Vec<Node<'_>> = call.arguments().map(|a| a.arguments().iter().collect()).unwrap_or_default();
    let [index] = arguments.as_slice() else { return false };
    let value: Option<i32> = index.as_integer_node().and_then(|i| i.value().try_into().ok());
    matches!(value, Some(0 | -1))
}

impl Inferrer<'_, '_> {
    /// Does Kernel's own `method` answer it on every value `ty` may be
    /// (`rand` on `self`, or `Kernel.rand`), no body of the project's?
    fn answered_by_kernel(&self, ty: &Type, method: &str) -> bool {
        !self.index.core_redefined(method)
            && ty.members().iter().all(|member| {
                let (class, side) = match member {
                    Type::Singleton(class) => (class.to_string(), Side::Singleton),
                    other => match other.class_name() {
                        Some(class) => (class.to_string(), Side::Instance),
                        None => return false,
                    },
                };
                matches!(self.lookup(&class, side, method), Callee::Rbs(found) if &*found.owner == "Kernel")
            })
    }
}

/// `rand(1..6)`, `rand(0...n)` with `n` a literal above 0: one argument, a
/// range literal of numbers written out that holds at least one.
fn nonempty_range_argument(call: &CallNode<'_>) -> bool {
    let arguments: Vec<Node<'_>> = call.arguments().map(|a| a.arguments().iter().collect()).unwrap_or_default();
    let [argument] = arguments.as_slice() else { return false };
    let Some(range) = crate::syntax::unparenthesize(crate::syntax::node_clone(argument)).as_range_node() else {
        return false;
    };
    let number = |node: Option<Node<'_>>| -> Option<f64> {
        let node = node?;
        match &node {
            Node::IntegerNode { .. } => {
                let value: i32 = node.as_integer_node()?.value().try_into().ok()?;
                Some(f64::from(value))
            }
            Node::FloatNode { .. } => Some(node.as_float_node()?.value()),
            _ => None,
        }
    };
    let (Some(low), Some(high)) = (number(range.left()), number(range.right())) else { return false };
    if range.is_exclude_end() {
        low < high
    } else {
        low <= high
    }
}
