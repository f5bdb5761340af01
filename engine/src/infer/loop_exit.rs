//! Whether a `loop` block can end the loop by raising StopIteration (then
//! `loop` returns the exception's `result`, though its signature says
//! `bot`). Calls the walk dispatches are judged as they are made (see
//! `may_raise_stop`); code that calls methods without a call of its own
//! (a `yield`, `super`, an interpolation's `to_s`, a `case`'s `===`, a
//! splat's `to_a`) is found by syntax (`calls_implicitly`).
//!
//! Approximation, written down: a core method is taken not to raise
//! StopIteration unless it is one of the enumerator's own (`next`,
//! `peek`, ...) or `raise`, although a core method that calls back into
//! project code (`sort` calling a project `<=>`) could let one out.

use ruby_prism::{Node, Visit};

use super::calls::{BlockArg, Plan};
use crate::stack_guard::ensure_room;

/// Core methods that raise StopIteration, or anything they are given.
const RAISING: &[&str] = &["next", "peek", "next_values", "peek_values", "raise", "fail", "resume", "transfer"];

/// Whether a call, resolved to `plans`, may raise StopIteration: project
/// code and code of unknown receivers may do anything; of the core, the
/// methods above, and a `&:name` block calling a method by name.
pub(super) fn may_raise_stop(method: &str, plans: &[Plan<'_>], block: &BlockArg<'_>) -> bool {
    RAISING.contains(&method)
        || matches!(block, BlockArg::Symbol(_))
        || plans.iter().any(|plan| match plan {
            Plan::Rbs { .. } | Plan::Reader { .. } => false,
            Plan::Fixed(ty) => *ty != crate::types::Type::Bot,
            _ => true,
        })
}

/// Whether `block`'s own code calls methods with no call of its own.
pub fn calls_implicitly(block: &ruby_prism::BlockNode<'_>) -> bool {
    let mut scan = Scan { found: false };
    if let Some(parameters) = block.parameters() {
        scan.visit(&parameters);
    }
    if let Some(body) = block.body() {
        scan.visit(&body);
    }
    scan.found
}

struct Scan {
    found: bool,
}

impl Scan {
    fn look(&mut self, node: &Node<'_>) {
        if matches!(
            node,
            Node::YieldNode { .. }
                | Node::SuperNode { .. }
                | Node::ForwardingSuperNode { .. }
                | Node::InterpolatedStringNode { .. }
                | Node::InterpolatedSymbolNode { .. }
                | Node::InterpolatedRegularExpressionNode { .. }
                | Node::InterpolatedXStringNode { .. }
                | Node::XStringNode { .. }
                | Node::CaseNode { .. }
                | Node::CaseMatchNode { .. }
                | Node::MatchPredicateNode { .. }
                | Node::MatchRequiredNode { .. }
                | Node::MatchWriteNode { .. }
                | Node::SplatNode { .. }
                | Node::AssocSplatNode { .. }
                | Node::MultiWriteNode { .. }
                | Node::ForNode { .. }
                | Node::RangeNode { .. }
                | Node::FlipFlopNode { .. }
        ) {
            self.found = true;
        }
    }
}

impl<'pr> Visit<'pr> for Scan {
    fn visit_branch_node_enter(&mut self, node: Node<'pr>) {
        ensure_room();
        self.look(&node);
    }
    fn visit_leaf_node_enter(&mut self, node: Node<'pr>) {
        self.look(&node);
    }
}
