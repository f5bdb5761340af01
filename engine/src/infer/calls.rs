//! Method calls: finding the method (this file's `def`s, attribute
//! readers, the signatures), picking overloads by argument types,
//! instantiating generics, running the block, and folding pure core
//! methods on literals.

use std::collections::HashMap;
use std::sync::Arc;

use ruby_prism::{CallNode, Node};

use super::blocks::{BlockPlan, BlockRun};
use super::flow::{join_states, State};
use super::index::{MethodEntry, Side, Superclass};
use super::signature::{Fit, TypeContext};
use super::{fold, Frame, Inferrer};
use crate::rbs::ast::{MethodType, RType};
use crate::rbs::FoundMethod;
use crate::syntax::name;
use crate::types::{join, union, widen_literals, Literal, Name, Type};

/// Where a method name leads for a receiver class.
pub enum Callee<'e> {
    Rbs(FoundMethod<'e>),
    Def(usize),
    Reader(String),
    Writer,
    /// Exists, but returns something this engine cannot know.
    Opaque,
    /// Not found; `complete` when every ancestor was known, so the call
    /// would raise NoMethodError.
    Missing {
        complete: bool,
    },
}

/// One evaluated argument.
#[derive(Debug, Clone)]
pub enum Arg {
    Value(Type),
    /// `*rest` of unknown length.
    Splat,
    Keywords(Type),
    Forward,
}

impl Arg {
    fn positional(&self) -> Option<&Type> {
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
    /// `self` is unknown here (inside a block another object may run).
    pub self_unknown: bool,
}

/// The block a call passes.
pub enum BlockArg<'pr> {
    None,
    Literal(ruby_prism::BlockNode<'pr>),
    /// `&:name`
    Symbol(String),
    /// `&proc`
    Other,
}

impl BlockArg<'_> {
    fn given(&self) -> bool {
        !matches!(self, BlockArg::None)
    }
}

/// How a call resolves for one receiver type.
enum Plan<'e> {
    Fixed(Type),
    Rbs { overloads: Vec<&'e MethodType>, receiver: Receiver, owner_args: HashMap<Arc<str>, RType> },
    Defs(Vec<usize>),
    Reader { ivar: String, class: Name },
}

/// A receiver's meaning for signature instantiation.
#[derive(Clone)]
struct Receiver {
    self_type: Type,
    instance: Type,
    class: Type,
    vars: HashMap<Arc<str>, Type>,
}

/// Kernel functions every object answers to, even one whose class this
/// engine cannot see completely.
const GLOBAL_FUNCTIONS: &[&str] = &[
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
const MODULE_FUNCTIONS: &[&str] = &[
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

/// Core methods that keep their block to call later (or never).
const STORES_BLOCK: &[&str] = &[
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

/// Core methods whose block runs with another `self`.
const CHANGES_SELF: &[&str] =
    &["instance_eval", "instance_exec", "class_eval", "class_exec", "module_eval", "module_exec"];

/// Methods that never mutate their receiver nor hand it to anyone.
pub fn mutates_receiver(method: &str) -> bool {
    const MUTATORS: &[&str] = &[
        "<<",
        "push",
        "append",
        "pop",
        "shift",
        "unshift",
        "prepend",
        "insert",
        "concat",
        "[]=",
        "delete",
        "delete_at",
        "delete_if",
        "keep_if",
        "clear",
        "replace",
        "fill",
        "store",
        "update",
        "force_encoding",
        "setbyte",
        "tap",
        "then",
        "yield_self",
        "instance_eval",
        "instance_exec",
        "send",
        "public_send",
        "__send__",
        "extend",
        "instance_variable_set",
        "default=",
        "compare_by_identity",
        "rehash",
        "initialize_copy",
    ];
    method.ends_with('!')
        || (method.ends_with('=') && !matches!(method, "==" | "!=" | "<=" | ">=" | "==="))
        || MUTATORS.contains(&method)
}

impl<'pr, 'a> Inferrer<'pr, 'a> {
    pub fn call(&mut self, call: &CallNode<'pr>, state: &mut State, frame: &Frame) -> Type {
        let method = name(call.name());
        let receiver_node = call.receiver();
        let receiver = receiver_node.as_ref().map(|r| self.expr(r, state, frame));

        // `x&.m`: nothing after the `&.` runs when x is nil.
        let safe = call.is_safe_navigation();
        let skipped = if safe && receiver.as_ref().is_some_and(Type::may_be_nil) { state.clone() } else { None };
        if let (true, Some(node)) = (safe, &receiver_node) {
            self.narrow_node(node, state, Type::without_nil);
        }

        let mut args = Vec::new();
        if let Some(arguments) = call.arguments() {
            for argument in arguments.arguments().iter() {
                let ty = self.expr(&argument, state, frame);
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
                    (_, ty) => Arg::Value(ty),
                });
            }
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
                match expression.as_ref().and_then(|e| e.as_symbol_node()) {
                    Some(symbol) => BlockArg::Symbol(String::from_utf8_lossy(symbol.unescaped()).into_owned()),
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

        let self_unknown = implicit && !frame.self_known;
        let site = CallSite { method: &method, args: &args, implicit, self_unknown };
        let dispatched = self.dispatch(&receiver_type, &site, block, state, frame);
        // `a.b = v` and `a[i] = v` evaluate to `v`, whatever the method returns.
        let mut result = if call.is_attribute_write() {
            args.last().and_then(Arg::positional).cloned().unwrap_or_else(Type::untyped)
        } else {
            dispatched
        };

        if let Some(node) = &receiver_node {
            if mutates_receiver(&method) {
                let values: Vec<Type> = args.iter().filter_map(Arg::positional).cloned().collect();
                self.mutate_variable(node, &method, &values, state, frame);
            } else if let (Some(receiver), true) = (&receiver, super::expr::is_variable_read(node)) {
                // `t = s.itself`, `x = a.freeze`: the result is the receiver
                // itself, so the two names share one mutable object.
                let shares = result.members().iter().any(|m| m.is_mutable_literal() && receiver.members().contains(m));
                if shares {
                    self.escape(node, state);
                    result = result.forget_mutable();
                }
            }
        }
        if let Some(flow) = state.as_mut() {
            let keeps_ivars =
                !on_self && !matches!(receiver_type, Type::Dynamic(_) | Type::Top) && call.block().is_none();
            if !keeps_ivars {
                flow.ivars.clear();
            }
        }
        if safe && receiver.as_ref().is_some_and(Type::may_be_nil) {
            *state = join_states(&skipped, state);
            result = union([result, Type::nil()]);
        }
        result
    }

    /// A call with no node of its own (`x += 1`, `a, b.c = ...`).
    pub fn invoke(&mut self, receiver: &Type, method: &str, args: Vec<Type>, state: &mut State, frame: &Frame) -> Type {
        let args: Vec<Arg> = args.into_iter().map(Arg::Value).collect();
        let site = CallSite { method, args: &args, implicit: false, self_unknown: false };
        self.dispatch(receiver, &site, BlockArg::None, state, frame)
    }

    fn dispatch(
        &mut self,
        receiver: &Type,
        site: &CallSite<'_>,
        block: BlockArg<'pr>,
        state: &mut State,
        frame: &Frame,
    ) -> Type {
        // `send(:name, ...)` with a literal name is a call of `name`.
        if matches!(site.method, "send" | "public_send" | "__send__") {
            if let Some(Arg::Value(Type::Constant(Literal::Sym(target)))) = site.args.first() {
                let target = target.clone();
                let forwarded = CallSite { method: &target, args: &site.args[1..], ..*site };
                return self.dispatch(receiver, &forwarded, block, state, frame);
            }
        }
        let members: Vec<Type> = if site.self_unknown { vec![Type::untyped()] } else { receiver.members().to_vec() };
        let plans: Vec<Plan<'a>> =
            members.iter().map(|m| self.plan(m, site.method, site.args, &block, site.implicit)).collect();
        let outcome = self.run_block(&plans, site, receiver, block, state, frame);
        let results: Vec<Type> = plans.iter().map(|plan| self.finish_plan(plan, site.args, &outcome.value)).collect();
        self.after_breaks(union(results), outcome, state)
    }

    /// A call's value and flow given what its block's `break`s did: a
    /// method that never returns (`loop`) ends only through them.
    fn after_breaks(&mut self, returned: Type, outcome: BlockRun, state: &mut State) -> Type {
        *state = if returned == Type::Bot { outcome.break_state } else { join_states(state, &outcome.break_state) };
        union(std::iter::once(returned).chain(outcome.breaks))
    }

    fn run_block(
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
            BlockArg::Other => BlockRun::none(),
            BlockArg::Symbol(symbol) => {
                // `map(&:to_s)`: the block calls `to_s` on what it is given.
                let yielded = self.yielded_types(plans, args);
                let value = match yielded.as_ref().and_then(|y| y.first()) {
                    Some(first) => self.invoke(&first.clone(), &symbol, Vec::new(), state, frame),
                    None => Type::untyped(),
                };
                BlockRun { value, ..BlockRun::none() }
            }
            BlockArg::Literal(node) => {
                let synchronous = plans.iter().all(|p| matches!(p, Plan::Rbs { .. } | Plan::Fixed(Type::Bot)))
                    && !STORES_BLOCK.contains(&method);
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
                let plan = BlockPlan {
                    yielded: if synchronous { self.yielded_types(plans, args) } else { None },
                    self_type: self_type.clone(),
                    self_unknown: self_type.is_none() && (changes_self || !synchronous),
                    stored: !synchronous,
                };
                self.block(&node, plan, state, frame)
            }
        }
    }

    /// What the block is given, position by position, when every plan knows.
    fn yielded_types(&self, plans: &[Plan<'a>], args: &[Arg]) -> Option<Vec<Type>> {
        let mut combined: Option<Vec<Type>> = None;
        for plan in plans {
            let yielded = match plan {
                Plan::Fixed(Type::Bot) => continue,
                Plan::Rbs { overloads, receiver, owner_args } => {
                    let mut per_overload: Option<Vec<Type>> = None;
                    for overload in overloads {
                        let block = overload.block.as_ref()?;
                        if block.function.untyped_params {
                            return None;
                        }
                        let vars = self.method_vars(overload, receiver, owner_args, args, None);
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
            combined = Some(merge_positions(combined, yielded));
        }
        combined
    }

    fn finish_plan(&mut self, plan: &Plan<'a>, args: &[Arg], block_value: &Type) -> Type {
        match plan {
            Plan::Fixed(ty) => ty.clone(),
            Plan::Defs(defs) => union(defs.iter().map(|id| self.method_return(*id)).collect::<Vec<_>>()),
            Plan::Reader { ivar, class } => self.class_ivar_type(class, Side::Instance, ivar, false),
            Plan::Rbs { overloads, receiver, owner_args } => union(
                overloads
                    .iter()
                    .map(|overload| {
                        let block = if overload.block.is_some() { Some(block_value) } else { None };
                        let vars = self.method_vars(overload, receiver, owner_args, args, block);
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

    /// The receiver's class variables and the method's own variables bound
    /// from arguments (and the block's value, for `map`'s `U`).
    fn method_vars(
        &self,
        overload: &MethodType,
        receiver: &Receiver,
        owner_args: &HashMap<Arc<str>, RType>,
        args: &[Arg],
        block_value: Option<&Type>,
    ) -> HashMap<Arc<str>, Type> {
        let mut vars = receiver.vars.clone();
        if overload.type_params.is_empty() {
            return vars;
        }
        for param in &overload.type_params {
            vars.remove(param);
        }
        let function = overload.function.substitute(&own_params_removed(owner_args, overload));
        let mut own = HashMap::new();
        let positional: Vec<&Type> = args.iter().filter_map(Arg::positional).collect();
        if let Some(params) = function.positional_types(positional.len()) {
            for (param, arg) in params.iter().zip(&positional) {
                self.bind_vars(param, arg, &mut own, &overload.type_params);
            }
        }
        if let (Some(block), Some(value)) = (&overload.block, block_value) {
            let returns = block.function.returns.substitute(&own_params_removed(owner_args, overload));
            self.bind_vars(&returns, value, &mut own, &overload.type_params);
        }
        vars.extend(own);
        vars
    }

    /// Resolves a call for one receiver type.
    fn plan(&mut self, receiver: &Type, method: &str, args: &[Arg], block: &BlockArg<'pr>, implicit: bool) -> Plan<'a> {
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
        if let Some(folded) = fold::fold(receiver, method, args) {
            return Plan::Fixed(folded);
        }
        if let Some(special) = self.special(receiver, method, args, block) {
            return Plan::Fixed(special);
        }
        let (class, side) = match receiver {
            Type::Singleton(class) => (class.clone(), Side::Singleton),
            other => match Inferrer::class_of(other) {
                Some(class) => (class, Side::Instance),
                None => return Plan::Fixed(Type::untyped()),
            },
        };
        if side == Side::Singleton && method == "new" {
            if let Some(instance) = self.constructed(&class) {
                return Plan::Fixed(instance);
            }
        }
        let found = self.lookup(&class, side, method);
        let found = match found {
            Callee::Missing { complete: false } if side == Side::Singleton && MODULE_FUNCTIONS.contains(&method) => {
                // A class or module whose ancestry this file cannot see
                // still answers to Module's own definition methods.
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
            Callee::Rbs(found) => self.rbs_plan(Some(found), method, receiver.clone(), args, block),
            Callee::Def(id) => {
                let mut defs = self.all_definitions(id, method);
                if side == Side::Instance {
                    defs.extend(self.overrides(&class, method));
                }
                Plan::Defs(defs)
            }
            Callee::Reader(ivar) => Plan::Reader { ivar, class },
            Callee::Writer => Plan::Fixed(args.last().and_then(Arg::positional).cloned().unwrap_or_else(Type::untyped)),
            Callee::Opaque => Plan::Fixed(Type::untyped()),
            // A method nil lacks raises NoMethodError: that path yields nothing.
            Callee::Missing { complete: true } if *receiver == Type::nil() => Plan::Fixed(Type::Bot),
            Callee::Missing { .. } => Plan::Fixed(Type::untyped()),
        }
    }

    /// Every `def` of the method `id` defines: a class or the top level
    /// may define a name more than once (under `if`, or redefined).
    fn all_definitions(&self, id: usize, method: &str) -> Vec<usize> {
        let info = self.index.def(id);
        let all = match &info.owner {
            Some((class, side)) => self.index.class(class).and_then(|c| c.redefined.get(&(*side, method.to_string()))),
            None => self.index.top_redefined.get(method),
        };
        match all {
            Some(all) if all.contains(&id) => all.clone(),
            _ => vec![id],
        }
    }

    /// A call that found nothing on `self`: a top-level `def` (a private
    /// method of Object), else a Kernel function.
    fn implicit_fallback(&self, method: &str) -> Callee<'a> {
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
    fn constructed(&mut self, class: &str) -> Option<Type> {
        match class {
            "Class" | "Struct" | "Data" => return Some(Type::nominal("Class")),
            "Module" => return Some(Type::nominal("Module")),
            _ => {}
        }
        if self.is_module(class) {
            return None;
        }
        match self.lookup(class, Side::Singleton, "new") {
            Callee::Rbs(found) if &*found.owner == "Class" => Some(self.instance_of(class)),
            Callee::Missing { .. } if self.index.class(class).is_some() => Some(self.instance_of(class)),
            _ => None,
        }
    }

    fn rbs_plan(
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
        let receiver = if mutates_receiver(method) {
            let values: Vec<Type> = args.iter().filter_map(Arg::positional).cloned().collect();
            super::expr::mutated_container(&receiver, method, &values)
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

    fn receiver_context(&self, receiver: &Type) -> Receiver {
        let (class, instance, class_type, args) = match receiver {
            Type::Singleton(class) => {
                let instance = self.instance_of(class);
                (Name::from("Class"), instance, Type::nominal("Class"), Vec::new())
            }
            Type::Nominal { class, args } => {
                (class.clone(), receiver.clone(), Type::Singleton(class.clone()), args.clone())
            }
            Type::Tuple(elements) => {
                let element = union(elements.iter().cloned().map(widen_literals));
                let element = if element == Type::Bot { Type::untyped() } else { element };
                let array = Type::generic("Array", vec![element.clone()]);
                (Name::from("Array"), array, Type::singleton("Array"), vec![element])
            }
            Type::Shape(shape) => {
                let (key, value) = if shape.fields.is_empty() || shape.open {
                    (Type::untyped(), Type::untyped())
                } else {
                    (Type::nominal("Symbol"), union(shape.fields.iter().map(|f| widen_literals(f.ty.clone()))))
                };
                let hash = Type::generic("Hash", vec![key.clone(), value.clone()]);
                (Name::from("Hash"), hash, Type::singleton("Hash"), vec![key, value])
            }
            other => {
                let class = Inferrer::class_of(other).unwrap_or_else(|| Name::from("Object"));
                (class.clone(), Type::Nominal { class: class.clone(), args: vec![] }, Type::Singleton(class), vec![])
            }
        };
        let vars = match self.env.class(&class) {
            Some(decl) => decl
                .type_params
                .iter()
                .enumerate()
                .map(|(i, p)| (p.clone(), args.get(i).cloned().unwrap_or_else(Type::untyped)))
                .collect(),
            None => HashMap::new(),
        };
        Receiver { self_type: receiver.clone(), instance, class: class_type, vars }
    }

    /// The overloads a call can take: the first that surely fits, else all
    /// that might.
    fn select(
        &self,
        overloads: &'a [MethodType],
        owner_args: &HashMap<Arc<str>, RType>,
        receiver: &Receiver,
        args: &[Arg],
        block: &BlockArg<'pr>,
    ) -> Vec<&'a MethodType> {
        let any_takes_block = overloads.iter().any(|o| o.block.is_some());
        let unknown_shape = args.iter().any(|a| matches!(a, Arg::Splat | Arg::Forward));
        let keywords = args.iter().find_map(|a| match a {
            Arg::Keywords(ty) => Some(ty),
            _ => None,
        });
        let positional: Vec<&Type> = args.iter().filter_map(Arg::positional).collect();
        let mut maybe = Vec::new();
        for overload in overloads {
            match (&overload.block, block.given()) {
                (None, true) if any_takes_block => continue,
                (Some(b), false) if b.required => continue,
                _ => {}
            }
            let function = &overload.function;
            if function.untyped_params || unknown_shape {
                maybe.push(overload);
                continue;
            }
            let takes_keywords = !function.required_keywords.is_empty()
                || !function.optional_keywords.is_empty()
                || function.rest_keywords.is_some();
            let mut positional = positional.clone();
            let keyword_hash;
            match keywords {
                Some(hash) if !takes_keywords => {
                    keyword_hash = hash.clone();
                    positional.push(&keyword_hash);
                }
                Some(hash) if !self.keywords_fit(function, hash) => continue,
                None if !function.required_keywords.is_empty() => continue,
                _ => {}
            }
            let Some(params) = function.positional_types(positional.len()) else { continue };
            let substituted: Vec<RType> =
                params.iter().map(|p| p.substitute(&own_params_removed(owner_args, overload))).collect();
            let fit = substituted.iter().zip(&positional).fold(Fit::Yes, |acc, (param, arg)| {
                let param = self.resolve_class_vars(param, receiver, overload);
                match (acc, self.fits(&param, arg, 0)) {
                    (Fit::No, _) | (_, Fit::No) => Fit::No,
                    (Fit::Maybe, _) | (_, Fit::Maybe) => Fit::Maybe,
                    _ => Fit::Yes,
                }
            });
            match fit {
                Fit::Yes if maybe.is_empty() => return vec![overload],
                Fit::Yes | Fit::Maybe => maybe.push(overload),
                Fit::No => {}
            }
        }
        maybe
    }

    /// A receiver's class variable in a parameter, when its argument is a
    /// plain class (so `Array[Integer]#push` wants an Integer).
    fn resolve_class_vars(&self, param: &RType, receiver: &Receiver, overload: &MethodType) -> RType {
        match param {
            RType::Var(var) if overload.type_params.contains(var) => RType::Untyped,
            RType::Var(var) => match receiver.vars.get(var) {
                Some(Type::Nominal { class, args }) if args.is_empty() => {
                    RType::Class { name: class.clone(), args: vec![] }
                }
                _ => RType::Untyped,
            },
            other => other.clone(),
        }
    }

    fn keywords_fit(&self, function: &crate::rbs::ast::Function, hash: &Type) -> bool {
        let Type::Shape(shape) = hash else { return true };
        let known =
            |key: &str| function.required_keywords.iter().chain(&function.optional_keywords).any(|(k, _)| k == key);
        let all_known = function.rest_keywords.is_some() || shape.fields.iter().all(|f| known(&f.key));
        let required_given = function.required_keywords.iter().all(|(k, _)| shape.fields.iter().any(|f| f.key == *k));
        all_known && (required_given || shape.open)
    }

    /// Finds a method by name for instances (or the class object) of `class`.
    pub fn lookup(&self, class: &str, side: Side, method: &str) -> Callee<'a> {
        self.lookup_in(class, side, method, 0)
    }

    fn lookup_in(&self, class: &str, side: Side, method: &str, depth: usize) -> Callee<'a> {
        if depth > 32 {
            return Callee::Missing { complete: false };
        }
        let env: &'a crate::rbs::Environment = self.env;
        let Some(user) = self.index.class(class) else {
            let found = match side {
                Side::Instance => env.instance_method(class, method),
                Side::Singleton => env.singleton_method(class, method),
            };
            return match found {
                Some(found) => Callee::Rbs(found),
                None => Callee::Missing { complete: env.has_class(class) },
            };
        };
        let entry = |entry: &MethodEntry| match entry {
            MethodEntry::Def(id) => Callee::Def(*id),
            MethodEntry::Reader(ivar) => Callee::Reader(self.index.ivar_names[*ivar].clone()),
            MethodEntry::Writer => Callee::Writer,
            MethodEntry::Opaque => Callee::Opaque,
        };
        let reopened = env.has_class(class);
        // A signature for the method itself beats its body: RBS is the
        // source of truth (a project's sig/ describes its own classes).
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
                return Callee::Rbs(found);
            }
        }
        match side {
            Side::Instance => {
                for prepend in &user.prepends {
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
                        found => return found,
                    }
                }
                if reopened {
                    return match env.instance_method(class, method) {
                        Some(found) => Callee::Rbs(found),
                        None => Callee::Missing { complete: !user.unknown_mixins && !user.has_method_missing },
                    };
                }
                if user.unknown_mixins || user.has_method_missing {
                    return Callee::Missing { complete: false };
                }
                match &user.superclass {
                    Superclass::Known(parent) => self.lookup_in(parent, Side::Instance, method, depth + 1),
                    Superclass::Implicit if !user.is_module => match env.instance_method("Object", method) {
                        Some(found) => Callee::Rbs(found),
                        None => Callee::Missing { complete: false },
                    },
                    _ => Callee::Missing { complete: false },
                }
            }
            Side::Singleton => {
                if let Some(found) = user.singleton_methods.get(method) {
                    return entry(found);
                }
                for extend in user.extends.iter().rev() {
                    match self.lookup_in(extend, Side::Instance, method, depth + 1) {
                        Callee::Missing { .. } => {}
                        found => return found,
                    }
                }
                if reopened {
                    return match env.singleton_method(class, method) {
                        Some(found) => Callee::Rbs(found),
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
                        Some(found) => Callee::Rbs(found),
                        None => Callee::Missing { complete: false },
                    },
                    Superclass::Unknown => Callee::Missing { complete: false },
                }
            }
        }
    }

    /// `def`s of the same name in this file's subclasses of `class`: a
    /// call on a `class` instance may run any of them.
    fn overrides(&self, class: &str, method: &str) -> Vec<usize> {
        self.index
            .classes
            .values()
            .filter(|c| &*c.name != class)
            .filter_map(|c| match c.instance_methods.get(method) {
                Some(MethodEntry::Def(id)) if self.relation(&c.name, class) == super::signature::Relation::Is => {
                    Some(*id)
                }
                _ => None,
            })
            .collect()
    }

    /// Methods whose result the literal shape of the receiver decides.
    fn special(&mut self, receiver: &Type, method: &str, args: &[Arg], block: &BlockArg<'pr>) -> Option<Type> {
        if block.given() {
            return None;
        }
        let positional: Vec<&Type> = args.iter().filter_map(Arg::positional).collect();
        if positional.len() != args.len() {
            return None;
        }
        match (receiver, method, positional.as_slice()) {
            (Type::Tuple(elements), "size" | "length" | "count", []) => Some(Type::int(elements.len() as i64)),
            (Type::Tuple(elements), "empty?", []) => {
                Some(Type::Constant(if elements.is_empty() { Literal::True } else { Literal::False }))
            }
            (Type::Tuple(elements), "first", []) => Some(elements.first().map_or(Type::nil(), Type::forget_mutable)),
            (Type::Tuple(elements), "last", []) => Some(elements.last().map_or(Type::nil(), Type::forget_mutable)),
            (Type::Tuple(elements), "[]" | "at" | "fetch", [Type::Constant(Literal::Int(index))]) => {
                let len = elements.len() as i64;
                let index = if *index < 0 { len + index } else { *index };
                match elements.get(usize::try_from(index).ok()?) {
                    Some(element) => Some(element.forget_mutable()),
                    None if method == "fetch" => Some(Type::Bot),
                    None => Some(Type::nil()),
                }
            }
            (Type::Tuple(_), "to_a" | "entries", []) => Some(receiver.clone()),
            (Type::Shape(shape), "[]" | "fetch" | "dig", [Type::Constant(Literal::Sym(key))]) if !shape.open => {
                match shape.fields.iter().find(|f| f.key == *key) {
                    Some(field) if field.optional => Some(union([field.ty.forget_mutable(), Type::nil()])),
                    Some(field) => Some(field.ty.forget_mutable()),
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
                match shape.fields.iter().find(|f| f.key == *key) {
                    Some(field) if !field.optional => Some(Type::Constant(Literal::True)),
                    Some(_) => Some(Type::bool()),
                    None => Some(Type::Constant(Literal::False)),
                }
            }
            (Type::Nominal { class, .. }, "size" | "length" | "bytesize", [])
                if matches!(&**class, "String" | "Array" | "Hash" | "Symbol") =>
            {
                Some(Type::non_negative_int())
            }
            (Type::Constant(Literal::Str(_)) | Type::Tuple(_) | Type::Shape(_), "size" | "length" | "bytesize", []) => {
                Some(Type::non_negative_int())
            }
            (Type::Singleton(class), "class", []) => {
                Some(if self.is_module(class) { Type::singleton("Module") } else { Type::singleton("Class") })
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
        if let Some(flow) = state.as_mut() {
            flow.ivars.clear();
        }
        let (Some(method), Some((class, side)), true) = (&frame.method, &frame.class, frame.self_known) else {
            let plan = BlockPlan { yielded: None, self_type: None, self_unknown: false, stored: true };
            if let BlockArg::Literal(block) = block {
                self.block(&block, plan, state, frame);
            }
            return Type::untyped();
        };
        let callee = self.super_lookup(class, *side, method);
        let plan = match callee {
            Callee::Rbs(found) => self.rbs_plan(Some(found), method, frame.self_type.clone(), &args, &block),
            Callee::Def(id) => Plan::Defs(vec![id]),
            _ => Plan::Fixed(Type::untyped()),
        };
        let plans = vec![plan];
        let site = CallSite { method, args: &args, implicit: true, self_unknown: false };
        let outcome = self.run_block(&plans, &site, &frame.self_type, block, state, frame);
        let results: Vec<Type> = plans.iter().map(|p| self.finish_plan(p, &args, &outcome.value)).collect();
        self.after_breaks(union(results), outcome, state)
    }

    fn super_lookup(&self, class: &str, side: Side, method: &str) -> Callee<'a> {
        let Some(user) = self.index.class(class) else { return Callee::Missing { complete: false } };
        if user.is_module || !user.includes.is_empty() || !user.prepends.is_empty() || user.unknown_mixins {
            return Callee::Missing { complete: false };
        }
        if self.env.has_class(class) {
            return Callee::Missing { complete: false };
        }
        match &user.superclass {
            Superclass::Known(parent) => self.lookup(parent, side, method),
            Superclass::Implicit => self.lookup("Object", side, method),
            Superclass::Unknown => Callee::Missing { complete: false },
        }
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
                *state = join_states(&skipped, state);
                join(&current.falsy_part(), &assigned)
            }
        };
        if let Some(receiver_node) = &receiver_node {
            self.escape(receiver_node, state);
        }
        if let Some(flow) = state.as_mut() {
            flow.ivars.clear();
        }
        result
    }
}

/// Owner arguments without the method's own type parameters (which
/// shadow the class's).
fn own_params_removed(owner_args: &HashMap<Arc<str>, RType>, overload: &MethodType) -> HashMap<Arc<str>, RType> {
    if overload.type_params.is_empty() {
        return owner_args.clone();
    }
    owner_args.iter().filter(|(k, _)| !overload.type_params.contains(k)).map(|(k, v)| (k.clone(), v.clone())).collect()
}

/// Position-wise union of what different overloads or receivers yield.
fn merge_positions(current: Option<Vec<Type>>, next: Vec<Type>) -> Vec<Type> {
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
