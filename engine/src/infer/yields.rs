//! What a project method's `yield`s give its block, position by position,
//! so that a block handed to the method binds its parameters to those
//! types (`bag.each_pair { |k, v| ... }`), in this file or another.
//!
//! Only where the method runs its block in ways seen here: `yield`,
//! `block.call(...)` (also `block.(...)`, `block[...]`, `block.yield`) on
//! its own `&block`, and that block passed on (`@items.each(&block)`: what
//! the callee yields). Any other use of the named block (stored, passed
//! as a value, reassigned), `&` or `...` forwarding, and `super` (which
//! hands the block to an ancestor's method) leave it unknown. Every run
//! must pass the same number of plain arguments, so that a block with
//! several parameters splats alike at all of them (`yield pair` and
//! `yield k, v` would not).

use ruby_prism::{DefNode, Node, Visit};

use super::Inferrer;
use crate::stack_guard::ensure_room;
use crate::types::{join_positions, Type};

/// The yields of the method being walked.
#[derive(Debug, Default)]
pub(crate) struct YieldCollector {
    /// The method's `&block`, by name.
    pub block: Option<String>,
    /// The body never assigns the `&block` local: after a `yield` (which
    /// raises with no block) it holds the block given.
    pub block_kept: bool,
    /// Something other than a plain `yield` may run the block.
    unknown: bool,
    /// Position by position, over every `yield` walked so far.
    positions: Option<Vec<Type>>,
}

impl YieldCollector {
    pub fn for_def(def: &DefNode<'_>) -> YieldCollector {
        let block = def
            .parameters()
            .and_then(|p| p.block())
            .and_then(|b| b.as_block_parameter_node()?.name())
            .map(crate::syntax::name);
        let block_kept = block.as_deref().is_some_and(|name| !assigns_local(def, name.as_bytes()));
        YieldCollector { block, block_kept, ..YieldCollector::default() }
    }

    /// What every `yield` of `def` gives, when all of them are known
    /// (`None` also when it never yields: its block's parameters stay
    /// unknown). The syntax is looked at only for a method that yields.
    pub fn finish(self, def: &DefNode<'_>) -> Option<Vec<Type>> {
        let positions = self.positions.filter(|_| !self.unknown)?;
        (!may_run_block_otherwise(def)).then_some(positions)
    }

    fn note(&mut self, given: Option<Vec<Type>>) {
        let joined = given.and_then(|given| join_positions(self.positions.take(), &given));
        self.unknown |= joined.is_none();
        self.positions = joined;
    }
}

/// Does the body of `def` write the local `name` anywhere (a plain or
/// operator write, or a target of multiple assignment, `rescue =>` or
/// `for`)?
pub(super) fn assigns_local(def: &DefNode<'_>, name: &[u8]) -> bool {
    struct Writes<'n> {
        name: &'n [u8],
        found: bool,
    }
    impl<'pr> Visit<'pr> for Writes<'_> {
        fn visit_branch_node_enter(&mut self, node: Node<'pr>) {
            let written = !matches!(node, Node::LocalVariableReadNode { .. });
            self.found |= written && crate::syntax::local_name(&node) == Some(self.name);
        }
        fn visit_leaf_node_enter(&mut self, node: Node<'pr>) {
            self.visit_branch_node_enter(node);
        }
    }
    let Some(body) = def.body() else { return false };
    let mut writes = Writes { name, found: false };
    writes.visit(&body);
    writes.found
}

/// Is `node` a read of the local `name`?
fn reads_local(node: &Node<'_>, name: &[u8]) -> bool {
    node.as_local_variable_read_node().is_some_and(|read| read.name().as_slice() == name)
}

impl<'pr> Inferrer<'pr, '_> {
    /// Is `node` a read of the walked method's own `&block`?
    pub(super) fn is_own_block(&self, node: &Node<'_>) -> bool {
        self.yields.last().and_then(|c| c.block.as_deref()).is_some_and(|block| reads_local(node, block.as_bytes()))
    }

    /// Notes a run of the walked method's block, by `yield` or otherwise,
    /// with what it is given (`None`: a splat, keywords, a block argument,
    /// or nothing known); dead code runs nothing.
    pub(super) fn note_block_run(&mut self, given: Option<Vec<Type>>) {
        if self.dead > 0 {
            return;
        }
        if let Some(collector) = self.yields.last_mut() {
            collector.note(given.map(|types| types.iter().map(Type::forget_mutable).collect()));
        }
    }
}

/// Does the method run or hand on its block in a way not followed here:
/// `super`, `&`/`...` forwarding, or its named block used otherwise than
/// called or passed on as a block?
fn may_run_block_otherwise(def: &DefNode<'_>) -> bool {
    let mut block = None;
    if let Some(parameters) = def.parameters() {
        if parameters.keyword_rest().is_some_and(|k| matches!(k, Node::ForwardingParameterNode { .. })) {
            return true;
        }
        if let Some(parameter) = parameters.block() {
            match parameter.as_block_parameter_node().and_then(|b| b.name()) {
                Some(name) => block = Some(name.as_slice().to_vec()),
                None => return true,
            }
        }
    }
    let Some(body) = def.body() else { return false };
    let mut finder = OtherUses { block, found: false, allowed: Vec::new() };
    finder.visit(&body);
    finder.found
}

/// Finds `super` outside nested `def`s (whose `super` is theirs), and uses
/// of the named block other than `block.call(...)`, `&block` and asking
/// whether it is there (`if block`, `block.nil?`, `!block`).
struct OtherUses {
    block: Option<Vec<u8>>,
    found: bool,
    /// Start offsets of the reads of the block that are allowed uses.
    allowed: Vec<usize>,
}

impl OtherUses {
    fn is_block(&self, node: &Node<'_>) -> bool {
        self.block.as_deref().is_some_and(|block| reads_local(node, block))
    }

    fn note(&mut self, node: &Node<'_>) {
        match node {
            Node::SuperNode { .. } | Node::ForwardingSuperNode { .. } => self.found = true,
            Node::IfNode { .. } | Node::UnlessNode { .. } => {
                // `return to_enum(:each) unless block`: asking whether it
                // was given does not run it.
                let predicate =
                    node.as_if_node().map(|n| n.predicate()).or_else(|| node.as_unless_node().map(|n| n.predicate()));
                if let Some(predicate) = predicate.filter(|p| self.is_block(p)) {
                    self.allowed.push(predicate.location().start() as usize);
                }
            }
            Node::CallNode { .. } => {
                let Some(call) = node.as_call_node() else { return };
                let harmless = matches!(call.name().as_slice(), b"call" | b"[]" | b"yield" | b"nil?" | b"!");
                if let Some(receiver) = call.receiver().filter(|r| harmless && self.is_block(r)) {
                    self.allowed.push(receiver.location().start() as usize);
                }
            }
            Node::BlockArgumentNode { .. } => {
                if let Some(expression) = node.as_block_argument_node().and_then(|b| b.expression()) {
                    if self.is_block(&expression) {
                        self.allowed.push(expression.location().start() as usize);
                    }
                }
            }
            Node::LocalVariableReadNode { .. } if self.is_block(node) => {
                self.found |= !self.allowed.contains(&(node.location().start() as usize));
            }
            _ => {
                // Any write to it (`block = ...`, `block ||= ...`, a
                // multiple assignment target) makes it another value.
                let written = node
                    .as_local_variable_write_node()
                    .map(|n| n.name())
                    .or_else(|| node.as_local_variable_target_node().map(|n| n.name()))
                    .or_else(|| node.as_local_variable_or_write_node().map(|n| n.name()))
                    .or_else(|| node.as_local_variable_and_write_node().map(|n| n.name()))
                    .or_else(|| node.as_local_variable_operator_write_node().map(|n| n.name()));
                if let (Some(written), Some(block)) = (written, &self.block) {
                    self.found |= written.as_slice() == block.as_slice();
                }
            }
        }
    }
}

impl<'pr> Visit<'pr> for OtherUses {
    fn visit_branch_node_enter(&mut self, node: Node<'pr>) {
        ensure_room();
        self.note(&node);
    }

    fn visit_leaf_node_enter(&mut self, node: Node<'pr>) {
        self.note(&node);
    }

    fn visit_def_node(&mut self, _node: &DefNode<'pr>) {}
}
