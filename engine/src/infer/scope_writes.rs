//! Where a method body assigns each local: a block that may run later
//! (a lambda, a block handed to an unknown method) sees a local as it is
//! when the block runs, so a later assignment makes its reads unknown.

use rustc_hash::FxHashMap as HashMap;

use ruby_prism::{Node, Visit};

use crate::stack_guard::ensure_room;
use crate::syntax::name;

/// Local name → start offsets of its assignments in `body`, not counting
/// nested `def`, `class` and `module` bodies (they have their own locals).
pub fn collect(body: &Node<'_>) -> HashMap<String, Vec<usize>> {
    let mut collector = Collector { writes: HashMap::default() };
    collector.visit(body);
    collector.writes
}

struct Collector {
    writes: HashMap<String, Vec<usize>>,
}

impl Collector {
    fn add(&mut self, id: ruby_prism::ConstantId<'_>, node: &Node<'_>) {
        self.writes.entry(name(id)).or_default().push(node.location().start() as usize);
    }
}

impl<'pr> Visit<'pr> for Collector {
    fn visit_branch_node_enter(&mut self, _node: Node<'pr>) {
        ensure_room();
    }
    fn visit_def_node(&mut self, _node: &ruby_prism::DefNode<'pr>) {}
    fn visit_class_node(&mut self, _node: &ruby_prism::ClassNode<'pr>) {}
    fn visit_module_node(&mut self, _node: &ruby_prism::ModuleNode<'pr>) {}
    fn visit_singleton_class_node(&mut self, _node: &ruby_prism::SingletonClassNode<'pr>) {}

    fn visit_local_variable_write_node(&mut self, node: &ruby_prism::LocalVariableWriteNode<'pr>) {
        self.add(node.name(), &node.as_node());
        ruby_prism::visit_local_variable_write_node(self, node);
    }
    fn visit_local_variable_target_node(&mut self, node: &ruby_prism::LocalVariableTargetNode<'pr>) {
        self.add(node.name(), &node.as_node());
    }
    fn visit_local_variable_operator_write_node(&mut self, node: &ruby_prism::LocalVariableOperatorWriteNode<'pr>) {
        self.add(node.name(), &node.as_node());
        ruby_prism::visit_local_variable_operator_write_node(self, node);
    }
    fn visit_local_variable_or_write_node(&mut self, node: &ruby_prism::LocalVariableOrWriteNode<'pr>) {
        self.add(node.name(), &node.as_node());
        ruby_prism::visit_local_variable_or_write_node(self, node);
    }
    fn visit_local_variable_and_write_node(&mut self, node: &ruby_prism::LocalVariableAndWriteNode<'pr>) {
        self.add(node.name(), &node.as_node());
        ruby_prism::visit_local_variable_and_write_node(self, node);
    }
}
