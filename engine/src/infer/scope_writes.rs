//! Where a method body assigns each local: a block that may run later
//! (a lambda, a block handed to an unknown method) sees a local as it is
//! when the block runs, so a later assignment makes its reads unknown.

use rustc_hash::FxHashMap as HashMap;

use ruby_prism::{Node, Visit};

use super::named_groups::Groups;
use crate::stack_guard::ensure_room;
use crate::syntax::name;

/// Local name → start offsets of its assignments in `body`, not counting
/// nested `def`, `class` and `module` bodies (they have their own locals).
pub fn collect(body: &Node<'_>) -> HashMap<String, Vec<usize>> {
    collect_with_matches(body).0
}

/// The same, and the locals assigned once a regexp literal's match (`m =
/// /(\d+)-(\w+)/.match(s)`), with what each holds whenever it is not nil:
/// a MatchData never changes, so every read of such a local gives that
/// match or nil (see [`super::named_groups`]).
pub fn collect_with_matches(body: &Node<'_>) -> (HashMap<String, Vec<usize>>, HashMap<String, Groups>) {
    let mut collector = Collector { writes: HashMap::default(), matches: Vec::new() };
    collector.visit(body);
    let writes = collector.writes;
    let matches =
        collector.matches.into_iter().filter(|(local, _)| writes.get(local).is_some_and(|at| at.len() == 1)).collect();
    (writes, matches)
}

struct Collector {
    writes: HashMap<String, Vec<usize>>,
    matches: Vec<(String, Groups)>,
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
        if let Some(groups) = super::named_groups::literal_match(&node.value()) {
            self.matches.push((name(node.name()), groups));
        }
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
