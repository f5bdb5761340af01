//! Blocks and lambdas. A block handed to a core method runs during the
//! call, any number of times: its body is walked to a fixpoint and its
//! assignments to outer locals join the flow after the call. A block that
//! may run later (a lambda, a block given to an unknown method) sees outer
//! locals that change afterwards as unknown, and makes the ones it assigns
//! unknown for the rest of the method.

use ruby_prism::{BlockNode, Node, ParametersNode};

use super::flow::{join_all, State};
use super::{Frame, Inferrer, JumpKind, JumpTarget};
use crate::syntax::{name, node_clone};
use crate::types::{union, Type};

pub struct BlockPlan {
    /// What the block is given, position by position; `None`: unknown.
    pub yielded: Option<Vec<Type>>,
    /// `self` inside the block, when the method changes it.
    pub self_type: Option<Type>,
    /// Someone else may decide `self` (`instance_eval` in an unknown method).
    pub self_unknown: bool,
    /// `self` in the block is another object than the caller's
    /// (`obj.instance_eval`, `define_method`'s instance): what the flow
    /// knows of the caller's ivars says nothing of its.
    pub another_self: bool,
    /// The block may run after the call (or never).
    pub stored: bool,
    /// Positions given the block's own value on later runs (`inject`'s
    /// accumulator: `{ (A, Elem) -> A }`).
    pub fed_back: Vec<usize>,
    /// The method drops the block's value (`each`): nobody keeps it.
    pub value_dropped: bool,
    /// The call also ends wherever a `throw` leaves the block (`catch`),
    /// which may be anywhere in it (a method it calls may throw).
    pub thrown_out: bool,
    /// The call returns only once the block has run (`tap`, `Mutex#synchronize`):
    /// what the block surely assigns is assigned after it.
    pub runs_before_return: bool,
}

/// The flow's name for the value a block gives its next run (see
/// [`BlockPlan::fed_back`]): no Ruby local can be spelled so.
const FED_BACK: &str = "<fed back>";

/// What running a block produced.
pub struct BlockRun {
    /// The block's value (its last expression or `next` values).
    pub value: Type,
    /// Values of `break`, which end the call itself.
    pub breaks: Vec<Type>,
    /// The flow where a `break` ends the call (the caller joins it with
    /// the flow of a normal return, when the method can return).
    pub break_state: State,
}

impl BlockRun {
    pub fn none() -> BlockRun {
        BlockRun { value: Type::untyped(), breaks: Vec::new(), break_state: None }
    }
}

impl<'pr> Inferrer<'pr, '_> {
    pub fn block(&mut self, block: &BlockNode<'pr>, plan: BlockPlan, state: &mut State, frame: &Frame) -> BlockRun {
        let node = block.as_node();
        let block_locals: Vec<String> = block.locals().iter().map(name).collect();
        let inner = Frame {
            self_type: match (&plan.self_type, plan.self_unknown) {
                (Some(ty), _) => ty.clone(),
                (None, true) => Type::untyped(),
                (None, false) => frame.self_type.clone(),
            },
            self_known: plan.self_type.is_some() || (frame.self_known && !plan.self_unknown),
            // A block run with another `self` (`define_method`'s, an
            // instance of the class) reads that object's ivars.
            class: match &plan.self_type {
                Some(Type::Nominal { class, .. }) => Some((class.clone(), super::Side::Instance)),
                Some(Type::Singleton(class)) => Some((class.clone(), super::Side::Singleton)),
                Some(_) => None,
                None => frame.class.clone(),
            },
            ..frame.shadowed_by(&block_locals)
        };
        let Some(outer) = state.clone() else {
            // Unreachable: still give its expressions types, knowing nothing.
            self.dead += 1;
            let mut scratch = Some(super::Flow::default());
            self.block(block, plan, &mut scratch, frame);
            self.dead -= 1;
            return BlockRun { value: Type::Bot, breaks: Vec::new(), break_state: None };
        };
        let start = node.location().start() as usize;
        let end = node.location().end() as usize;
        let mut entry = outer.clone();
        // A block runs later, or again: what guards said of reads is stale,
        // and its parameters may shadow what an implication names.
        entry.forget_reads();
        entry.forget_implied();
        let foreign_self = plan.another_self || plan.self_unknown;
        if foreign_self {
            entry.ivars.clear();
            entry.ivars_set.clear();
        }
        for local in &block_locals {
            entry.locals.remove(local);
        }
        if plan.stored {
            entry.ivars.clear();
            for local in frame.written_in(start + 1..usize::MAX) {
                if entry.locals.contains_key(local) {
                    entry.locals.insert(local.clone(), Type::untyped());
                }
            }
            // Either side may mutate what both can reach, at any time.
            forget_captured_contents(&mut entry);
            if let Some(flow) = state.as_mut() {
                forget_captured_contents(flow);
            }
        }
        let parameters = block.parameters();
        let body = block.body();
        let mut value = Type::Bot;
        let mut breaks: Vec<(Type, super::Flow)> = Vec::new();
        // A value fed back rides the flow as a local, so the fixpoint below
        // joins and widens it with the rest; its first run gets what the
        // call gives.
        let fed_back = match &plan.yielded {
            Some(yielded) if !plan.stored => plan.fed_back.iter().filter(|&&at| at < yielded.len()).copied().collect(),
            _ => Vec::new(),
        };
        if let (Some(yielded), false) = (&plan.yielded, fed_back.is_empty()) {
            entry.locals.insert(FED_BACK.to_string(), union(fed_back.iter().map(|&at| yielded[at].clone())));
        }
        let walk = |this: &mut Self, head: State, value: &mut Type, breaks: &mut Vec<(Type, super::Flow)>| -> State {
            this.jumps.push(JumpTarget { kind: JumpKind::Block, breaks: Vec::new(), nexts: Vec::new(), redone: false });
            let mut current = head;
            let given: Option<Vec<Type>> = match (&plan.yielded, current.as_ref()) {
                (Some(yielded), Some(flow)) if !fed_back.is_empty() => {
                    let previous = flow.locals.get(FED_BACK).cloned().unwrap_or_else(Type::untyped);
                    Some(
                        yielded
                            .iter()
                            .enumerate()
                            .map(|(at, ty)| if fed_back.contains(&at) { previous.clone() } else { ty.clone() })
                            .collect(),
                    )
                }
                _ => plan.yielded.clone(),
            };
            this.bind_block_parameters(parameters.as_ref(), given.as_deref(), &mut current, &inner);
            let body_value = this.body(body.as_ref().map(node_clone), &mut current, &inner);
            if let (Some(last), false) = (last_statement(body.as_ref()), plan.value_dropped) {
                // The block's value goes to the method: it may keep it.
                this.escape(&last, &mut current);
            }
            let target = this.jumps.pop().expect("pushed above");
            let reached = if current.is_some() { body_value } else { Type::Bot };
            *value = union(std::iter::once(reached).chain(target.nexts.iter().map(|(t, _)| t.clone())));
            *breaks = target.breaks;
            let mut end = join_all(std::iter::once(current).chain(target.nexts.into_iter().map(|(_, f)| Some(f))));
            if let Some(flow) = end.as_mut() {
                flow.forget_implied();
                for local in &block_locals {
                    flow.locals.remove(local);
                }
                if !fed_back.is_empty() {
                    flow.locals.insert(FED_BACK.to_string(), value.clone());
                }
            }
            end
        };
        if plan.stored {
            walk(self, Some(entry), &mut value, &mut breaks);
            // Whatever the block assigns may change whenever it runs.
            if let Some(flow) = state.as_mut() {
                for local in frame.written_in(start..end) {
                    if !block_locals.contains(local) {
                        flow.volatile.insert(local.clone());
                    }
                }
                flow.ivars.clear();
            }
            if foreign_self {
                keep_callers_ivars(state, &outer);
            }
        } else {
            let entry = Some(entry);
            if plan.thrown_out {
                self.assignment_logs.push(Vec::new());
            }
            // The flow after the block's last walk, from the loop's head:
            // what any run of it may leave.
            let mut after_a_run: State = None;
            let head = self.fixpoint(&entry, |this, head| {
                let end = walk(this, head, &mut value, &mut breaks);
                after_a_run = end.clone();
                end
            });
            // Left by `throw` anywhere: each outer local as it was before
            // the block or after any assignment in it, and what it holds
            // maybe changed (as a `rescue` sees them).
            let thrown = plan.thrown_out.then(|| {
                let log = self.assignment_logs.pop().unwrap_or_default();
                let thrown = outer.clone().left_anywhere(&log);
                if let Some(logs) = self.assignment_logs.last_mut() {
                    logs.extend(log);
                }
                thrown
            });
            // Outer locals a block parameter shadowed are the outer ones again.
            let restore = |mut flow: State| {
                if let Some(flow) = flow.as_mut() {
                    flow.forget_implied();
                    flow.locals.remove(FED_BACK);
                    for local in &block_locals {
                        match outer.locals.get(local) {
                            Some(ty) => {
                                flow.locals.insert(local.clone(), ty.clone());
                            }
                            None => {
                                flow.locals.remove(local);
                            }
                        }
                    }
                }
                flow
            };
            let broken = restore(join_all(breaks.iter().map(|(_, f)| Some(f.clone()))));
            *state = if plan.runs_before_return {
                restore(join_all([after_a_run, thrown]))
            } else {
                restore(join_all([Some(outer.clone()), head, thrown]))
            };
            if foreign_self {
                keep_callers_ivars(state, &outer);
            }
            self.record(&node, &Type::nominal("Proc"));
            return BlockRun { value, breaks: breaks.into_iter().map(|(t, _)| t).collect(), break_state: broken };
        }
        self.record(&node, &Type::nominal("Proc"));
        BlockRun { value, breaks: breaks.into_iter().map(|(t, _)| t).collect(), break_state: None }
    }

    pub fn lambda(&mut self, node: &Node<'pr>, state: &mut State, frame: &Frame) -> Type {
        let Some(lambda) = node.as_lambda_node() else { return Type::untyped() };
        let Some(outer) = state.clone() else { return Type::nominal("Proc") };
        let start = node.location().start() as usize;
        let end = node.location().end() as usize;
        let lambda_locals: Vec<String> = lambda.locals().iter().map(name).collect();
        let mut entry = outer;
        entry.ivars.clear();
        entry.forget_reads();
        entry.forget_implied();
        forget_captured_contents(&mut entry);
        if let Some(flow) = state.as_mut() {
            forget_captured_contents(flow);
        }
        for local in &lambda_locals {
            entry.locals.remove(local);
        }
        for local in frame.written_in(start + 1..usize::MAX) {
            if entry.locals.contains_key(local) {
                entry.locals.insert(local.clone(), Type::untyped());
            }
        }
        let mut current = Some(entry);
        self.jumps.push(JumpTarget { kind: JumpKind::Lambda, breaks: Vec::new(), nexts: Vec::new(), redone: false });
        self.returns.push(Vec::new());
        let inner = frame.shadowed_by(&lambda_locals);
        self.bind_block_parameters(lambda.parameters().as_ref(), None, &mut current, &inner);
        self.body(lambda.body(), &mut current, &inner);
        self.returns.pop();
        self.jumps.pop();
        if let Some(flow) = state.as_mut() {
            for local in frame.written_in(start..end) {
                if !lambda_locals.contains(local) {
                    flow.volatile.insert(local.clone());
                }
            }
        }
        Type::nominal("Proc")
    }

    /// Binds a block's parameters to what it is given, with the proc rule:
    /// one array given to a block taking several parameters is spread.
    fn bind_block_parameters(
        &mut self,
        parameters: Option<&Node<'pr>>,
        yielded: Option<&[Type]>,
        state: &mut State,
        frame: &Frame,
    ) {
        let Some(parameters) = parameters else { return };
        match parameters {
            Node::NumberedParametersNode { .. } => {
                let maximum = parameters.as_numbered_parameters_node().map_or(0, |n| n.maximum());
                let names: Vec<String> = (1..=maximum).map(|i| format!("_{i}")).collect();
                let values = spread(yielded, usize::from(maximum), maximum > 1);
                for (i, local) in names.iter().enumerate() {
                    let ty = values.positional(i);
                    self.assign_local(local, &ty, state);
                }
            }
            Node::ItParametersNode { .. } => {
                let ty = yielded.and_then(|y| y.first().cloned()).unwrap_or_else(|| {
                    if yielded.is_some() {
                        Type::nil()
                    } else {
                        Type::untyped()
                    }
                });
                self.assign_local("it", &ty, state);
            }
            Node::BlockParametersNode { .. } => {
                let Some(block_parameters) = parameters.as_block_parameters_node() else { return };
                for local in block_parameters.locals().iter() {
                    if let Some(local_node) = local.as_block_local_variable_node() {
                        self.assign_local(&name(local_node.name()), &Type::nil(), state);
                        self.record(&local, &Type::nil());
                    }
                }
                if let Some(list) = block_parameters.parameters() {
                    self.bind_parameter_list(&list, yielded, state, frame);
                }
            }
            _ => {}
        }
    }

    fn bind_parameter_list(
        &mut self,
        list: &ParametersNode<'pr>,
        yielded: Option<&[Type]>,
        state: &mut State,
        frame: &Frame,
    ) {
        let requireds: Vec<Node<'pr>> = list.requireds().iter().collect();
        let optionals: Vec<Node<'pr>> = list.optionals().iter().collect();
        let posts: Vec<Node<'pr>> = list.posts().iter().collect();
        let rest = list.rest();
        let positional = requireds.len() + optionals.len() + posts.len();
        let spreads =
            positional > 1 || (rest.is_some() && positional > 0) || matches!(rest, Some(Node::ImplicitRestNode { .. }));
        // `|a, k: 0|` and `|a, **kw|` take an array apart in Ruby 3.1 and
        // not from 3.2: `a` may be either, so it is not known.
        let keywords_decide = positional == 1
            && rest.is_none()
            && (list.keywords().iter().next().is_some() || list.keyword_rest().is_some());
        let values = if keywords_decide { Spread::Unknown } else { spread(yielded, positional, spreads) };
        let available = values.count();
        let mandatory = requireds.len() + posts.len();
        let optional_filled = available.map(|n| n.saturating_sub(mandatory).min(optionals.len()));
        for (i, required) in requireds.iter().enumerate() {
            let ty = values.positional(i);
            self.bind_parameter(required, &ty, state, frame);
        }
        for (j, optional) in optionals.iter().enumerate() {
            let Some(parameter) = optional.as_optional_parameter_node() else { continue };
            let default = self.parameter_default(&parameter.value(), state, frame);
            let ty = match (&values, optional_filled) {
                (Spread::Known(_), Some(filled)) if j < filled => values.positional(requireds.len() + j),
                (Spread::Known(_), _) => default,
                (Spread::Array(element), _) => union([element.clone(), default]),
                (Spread::Unknown, _) => Type::untyped(),
            };
            self.assign_local(&name(parameter.name()), &ty, state);
            self.record(optional, &ty);
        }
        if let Some(rest) = &rest {
            let ty = match (&values, available, optional_filled) {
                (Spread::Known(all), Some(n), Some(filled)) => {
                    let from = requireds.len() + filled;
                    let to = n.saturating_sub(posts.len()).max(from);
                    Type::Tuple(all.get(from..to).unwrap_or(&[]).iter().map(Type::forget_exact).collect())
                }
                (Spread::Array(element), _, _) => Type::generic("Array", vec![element.clone()]),
                _ => Type::generic("Array", vec![Type::untyped()]),
            };
            if let Some(parameter) = rest.as_rest_parameter_node() {
                if let Some(id) = parameter.name() {
                    self.assign_local(&name(id), &ty, state);
                }
            }
            self.record(rest, &ty);
        }
        for (k, post) in posts.iter().enumerate() {
            let index = match available {
                Some(n) if n >= mandatory => n - posts.len() + k,
                _ => requireds.len() + k,
            };
            let ty = values.positional(index);
            self.bind_parameter(post, &ty, state, frame);
        }
        self.bind_keyword_parameters(list, state, frame);
    }

    /// Keyword, keyword-rest and block parameters: nothing is known of
    /// what a caller passes.
    pub fn bind_keyword_parameters(&mut self, list: &ParametersNode<'pr>, state: &mut State, frame: &Frame) {
        for keyword in list.keywords().iter() {
            if let Some(parameter) = keyword.as_required_keyword_parameter_node() {
                self.assign_local(&name(parameter.name()), &Type::untyped(), state);
            } else if let Some(parameter) = keyword.as_optional_keyword_parameter_node() {
                let default = self.parameter_default(&parameter.value(), state, frame);
                self.assign_local(&name(parameter.name()), &super::methods::optional_parameter(&default), state);
            }
            self.record(&keyword, &Type::untyped());
        }
        if let Some(rest) = list.keyword_rest() {
            // Any key may arrive (`m("Content-Type" => v)`), not only symbols.
            let ty = Type::generic("Hash", vec![Type::untyped(), Type::untyped()]);
            if let Some(id) = rest.as_keyword_rest_parameter_node().and_then(|p| p.name()) {
                self.assign_local(&name(id), &ty, state);
            }
            self.record(&rest, &ty);
        }
        if let Some(block) = list.block() {
            let ty = union([Type::nominal("Proc"), Type::nil()]);
            if let Some(id) = block.as_block_parameter_node().and_then(|b| b.name()) {
                self.assign_local(&name(id), &ty, state);
            }
            self.record(&block, &ty);
        }
    }

    /// A required parameter: a name, or `(a, b)` destructuring.
    pub fn bind_parameter(&mut self, parameter: &Node<'pr>, ty: &Type, state: &mut State, frame: &Frame) {
        match parameter {
            Node::RequiredParameterNode { .. } => {
                if let Some(p) = parameter.as_required_parameter_node() {
                    self.assign_local(&name(p.name()), ty, state);
                }
                self.record(parameter, ty);
            }
            Node::MultiTargetNode { .. } => self.assign_target(parameter, ty, state, frame),
            _ => self.record(parameter, ty),
        }
    }
}

/// What a block's positional parameters receive.
enum Spread {
    /// Exactly these values.
    Known(Vec<Type>),
    /// Elements of an array of unknown length.
    Array(Type),
    Unknown,
}

impl Spread {
    fn positional(&self, index: usize) -> Type {
        match self {
            Spread::Known(values) => values.get(index).cloned().unwrap_or_else(Type::nil),
            Spread::Array(element) => union([element.clone(), Type::nil()]),
            Spread::Unknown => Type::untyped(),
        }
    }

    fn count(&self) -> Option<usize> {
        match self {
            Spread::Known(values) => Some(values.len()),
            _ => None,
        }
    }
}

fn spread(yielded: Option<&[Type]>, _positional: usize, spreads: bool) -> Spread {
    let Some(yielded) = yielded else { return Spread::Unknown };
    match (yielded, spreads) {
        ([single], true) => match single {
            Type::Tuple(elements) => Spread::Known(elements.iter().map(Type::forget_exact).collect()),
            Type::Nominal { class, args } if &**class == "Array" => {
                Spread::Array(args.first().cloned().unwrap_or_else(Type::untyped))
            }
            Type::Dynamic(_) | Type::Top => Spread::Unknown,
            Type::Nominal { .. } | Type::Union(_) => Spread::Unknown,
            other => Spread::Known(vec![other.clone()]),
        },
        _ => Spread::Known(yielded.to_vec()),
    }
}

/// Locals holding containers (an array, a hash, a string) that a block
/// running at some later time may fill: their contents become unknown.
fn forget_captured_contents(flow: &mut super::Flow) {
    for ty in flow.locals.values_mut() {
        *ty = ty.forget_contents();
    }
}

/// Does every run of this block give a new array it writes out (`{ |w|
/// [w, w.size] }`: its last statement an array literal without splats, and
/// no `next` to give anything else)? Then what a method keeps of its
/// values (`map`) holds rows nobody else can reach, each of their shape.
pub fn gives_fresh_rows(block: &BlockNode<'_>) -> bool {
    let body = block.body();
    let Some(array) = last_statement(body.as_ref()).and_then(|n| n.as_array_node()) else { return false };
    !array.elements().is_empty()
        && array.elements().iter().all(|e| !matches!(e, Node::SplatNode { .. }))
        && body.is_some_and(|body| {
            !crate::syntax::walk::all_nodes(&body).iter().any(|n| matches!(n, Node::NextNode { .. }))
        })
}

fn last_statement<'pr>(body: Option<&Node<'pr>>) -> Option<Node<'pr>> {
    let body = body?;
    match body.as_statements_node() {
        Some(statements) => statements.body().iter().last(),
        None => None,
    }
}

/// After a block run with another `self`: the ivars it assigned are that
/// object's, so the caller's are set as they were before it; what they
/// hold is known no more (code in the block may reach the caller).
fn keep_callers_ivars(state: &mut State, before: &super::Flow) {
    if let Some(flow) = state.as_mut() {
        flow.ivars.clear();
        flow.ivars_set = before.ivars_set.clone();
    }
}
