//! What a project method's `yield`s give its block, position by position,
//! so that a block handed to the method binds its parameters to those
//! types (`bag.each_pair { |k, v| ... }`), in this file or another.
//!
//! Only where `yield` is the one way the block can run: a method that
//! names its block (`&block`, `&`, `...`) may call or pass it on with
//! anything, and `super` hands the block to an ancestor's method. Every
//! `yield` must pass the same number of plain arguments, so that a block
//! with several parameters splats alike at all of them (`yield pair` and
//! `yield k, v` would not).

use ruby_prism::{DefNode, Node, Visit};

use super::Inferrer;
use crate::stack_guard::ensure_room;
use crate::types::{join, Type};

/// The yields of the method being walked.
#[derive(Debug, Default)]
pub(crate) struct YieldCollector {
    /// Something other than a plain `yield` may run the block.
    unknown: bool,
    /// Position by position, over every `yield` walked so far.
    positions: Option<Vec<Type>>,
}

impl YieldCollector {
    pub fn for_def(def: &DefNode<'_>) -> YieldCollector {
        YieldCollector { unknown: may_run_block_otherwise(def), positions: None }
    }

    /// What every `yield` gives, when all of them are known (`None` also
    /// when the method never yields: its block's parameters stay unknown).
    pub fn finish(self) -> Option<Vec<Type>> {
        if self.unknown {
            return None;
        }
        self.positions
    }

    fn note(&mut self, given: Option<Vec<Type>>) {
        let Some(given) = given else {
            self.unknown = true;
            return;
        };
        self.positions = match self.positions.take() {
            None => Some(given),
            Some(known) if known.len() == given.len() => {
                Some(known.iter().zip(&given).map(|(a, b)| join(a, b)).collect())
            }
            Some(_) => {
                self.unknown = true;
                None
            }
        };
    }
}

impl<'pr> Inferrer<'pr, '_> {
    /// Notes what one `yield` gives (`None`: a splat, keywords or a block
    /// argument), for the method being walked; dead code gives nothing.
    pub(super) fn note_yield(&mut self, given: Option<Vec<Type>>) {
        if self.dead > 0 {
            return;
        }
        if let Some(collector) = self.yields.last_mut() {
            collector.note(given.map(|types| types.iter().map(Type::forget_mutable).collect()));
        }
    }
}

/// Does the method name its block, or hand it to `super`?
fn may_run_block_otherwise(def: &DefNode<'_>) -> bool {
    if let Some(parameters) = def.parameters() {
        if parameters.block().is_some()
            || parameters.keyword_rest().is_some_and(|k| matches!(k, Node::ForwardingParameterNode { .. }))
        {
            return true;
        }
    }
    let Some(body) = def.body() else { return false };
    let mut finder = SuperFinder { found: false };
    finder.visit(&body);
    finder.found
}

/// Finds `super` outside nested `def`s (whose `super` is theirs).
struct SuperFinder {
    found: bool,
}

impl<'pr> Visit<'pr> for SuperFinder {
    fn visit_branch_node_enter(&mut self, node: Node<'pr>) {
        ensure_room();
        self.found |= matches!(node, Node::SuperNode { .. } | Node::ForwardingSuperNode { .. });
    }

    fn visit_leaf_node_enter(&mut self, node: Node<'pr>) {
        self.found |= matches!(node, Node::ForwardingSuperNode { .. });
    }

    fn visit_def_node(&mut self, _node: &DefNode<'pr>) {}
}
