//! Every node of a tree, once each, in pre-order. Prism's generic enter
//! hooks miss children held in concretely typed fields (a `DefNode`'s
//! `ParametersNode`, a `BeginNode`'s `RescueNode`), so those kinds are
//! collected by their own visit methods instead.

use ruby_prism::{Node, Visit};

use crate::stack_guard::ensure_room;

pub fn all_nodes<'pr>(root: &Node<'pr>) -> Vec<Node<'pr>> {
    let mut collector = Collector { nodes: Vec::new() };
    collector.visit(root);
    collector.nodes
}

struct Collector<'pr> {
    nodes: Vec<Node<'pr>>,
}

/// Kinds some parent holds in a concretely typed field.
fn reached_by_own_visit(node: &Node<'_>) -> bool {
    matches!(
        node,
        Node::ArgumentsNode { .. }
            | Node::BlockArgumentNode { .. }
            | Node::BlockNode { .. }
            | Node::CallNode { .. }
            | Node::ConstantPathNode { .. }
            | Node::ElseNode { .. }
            | Node::EnsureNode { .. }
            | Node::LocalVariableTargetNode { .. }
            | Node::ParametersNode { .. }
            | Node::RescueNode { .. }
            | Node::SplatNode { .. }
            | Node::StatementsNode { .. }
    )
}

macro_rules! collect_own {
    ($($method:ident, $walk:ident, $kind:ident;)*) => {
        $(
            fn $method(&mut self, node: &ruby_prism::$kind<'pr>) {
                ensure_room();
                self.nodes.push(node.as_node());
                ruby_prism::$walk(self, node);
            }
        )*
    };
}

impl<'pr> Visit<'pr> for Collector<'pr> {
    fn visit_branch_node_enter(&mut self, node: Node<'pr>) {
        ensure_room();
        if !reached_by_own_visit(&node) {
            self.nodes.push(node);
        }
    }

    fn visit_leaf_node_enter(&mut self, node: Node<'pr>) {
        if !reached_by_own_visit(&node) {
            self.nodes.push(node);
        }
    }

    collect_own! {
        visit_arguments_node, visit_arguments_node, ArgumentsNode;
        visit_block_argument_node, visit_block_argument_node, BlockArgumentNode;
        visit_block_node, visit_block_node, BlockNode;
        visit_call_node, visit_call_node, CallNode;
        visit_constant_path_node, visit_constant_path_node, ConstantPathNode;
        visit_else_node, visit_else_node, ElseNode;
        visit_ensure_node, visit_ensure_node, EnsureNode;
        visit_local_variable_target_node, visit_local_variable_target_node, LocalVariableTargetNode;
        visit_parameters_node, visit_parameters_node, ParametersNode;
        visit_rescue_node, visit_rescue_node, RescueNode;
        visit_splat_node, visit_splat_node, SplatNode;
        visit_statements_node, visit_statements_node, StatementsNode;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::{node_kind::class_name, ParsedFile};

    #[test]
    fn every_node_is_collected_once() {
        let parsed =
            ParsedFile::parse(b"def f(a)\n  g(a) rescue 1\nend\nbegin\n  x\nrescue => e\n  y\nensure\n  z\nend\n");
        let nodes = all_nodes(&parsed.root());
        let names: Vec<&str> = nodes.iter().map(class_name).collect();
        for kind in ["ParametersNode", "RescueNode", "EnsureNode", "StatementsNode", "CallNode", "ArgumentsNode"] {
            assert!(names.contains(&kind), "{kind} missing from {names:?}");
        }
        let mut keys: Vec<(u32, u32, &str)> =
            nodes.iter().map(|n| (n.location().start(), n.location().end(), class_name(n))).collect();
        let before = keys.len();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), before, "a node was collected twice");
    }
}
