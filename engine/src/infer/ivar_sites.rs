//! Where a file touches instance variables, found from the syntax alone,
//! so that pass one (which learns only what instance variables are
//! assigned) can leave out what cannot assign or grow one.

use rustc_hash::FxHashSet as HashSet;

use ruby_prism::{Node, Visit};

use crate::stack_guard::ensure_room;
use crate::syntax::node_kind::class_name;

#[derive(Default)]
pub struct IvarSites {
    /// Does any node assign an instance variable?
    pub writes: bool,
    /// Start offsets of the `def`s whose body mentions an instance variable.
    pub defs: HashSet<usize>,
}

pub fn collect(root: &Node<'_>) -> IvarSites {
    let mut collector = Collector { sites: IvarSites::default(), open: Vec::new() };
    collector.visit(root);
    collector.sites
}

struct Collector {
    sites: IvarSites,
    /// For each branch node being visited: the start of the `def` it is.
    open: Vec<Option<usize>>,
}

impl Collector {
    fn note(&mut self, node: &Node<'_>) {
        let kind = class_name(node);
        if !kind.starts_with("InstanceVariable") {
            return;
        }
        self.sites.writes |= kind != "InstanceVariableReadNode";
        self.sites.defs.extend(self.open.iter().flatten());
    }
}

impl<'pr> Visit<'pr> for Collector {
    fn visit_branch_node_enter(&mut self, node: Node<'pr>) {
        ensure_room();
        self.note(&node);
        self.open.push(node.as_def_node().map(|_| node.location().start() as usize));
    }

    fn visit_branch_node_leave(&mut self) {
        self.open.pop();
    }

    fn visit_leaf_node_enter(&mut self, node: Node<'pr>) {
        self.note(&node);
    }
}
