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
    /// Start offsets of the `def`s whose body may assign or grow an
    /// instance variable: a write, or a mutating call on one (`@a << x`).
    /// Only reads, the rest of its uses, teach pass one nothing.
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
        let grows = kind.starts_with("InstanceVariable") && kind != "InstanceVariableReadNode";
        self.sites.writes |= grows;
        if grows || mutates_ivar(node) {
            self.sites.defs.extend(self.open.iter().flatten());
        }
    }
}

/// `@items << x`, `@h[k] = v`: a call pass one counts as growing the ivar
/// (what `Inferrer::mutate_variable` notes).
fn mutates_ivar(node: &Node<'_>) -> bool {
    node.as_call_node().is_some_and(|call| {
        call.receiver().is_some_and(|receiver| super::assign::ivar_root(&receiver).is_some()) && {
            let method = crate::syntax::name_text(call.name());
            super::calls::mutates_receiver(&method) || super::calls::SET_MUTATORS.contains(&&*method)
        }
    })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::ParsedFile;

    /// The names of the defs pass one must walk.
    fn walked(source: &str) -> (bool, Vec<&str>) {
        let parsed = ParsedFile::parse(source.as_bytes());
        let sites = collect(&parsed.root());
        let mut names: Vec<&str> = sites
            .defs
            .iter()
            .map(|start| source[*start..].trim_start_matches("def ").split([' ', ';', '(', '\n']).next().unwrap())
            .collect();
        names.sort();
        (sites.writes, names)
    }

    #[test]
    fn only_defs_that_assign_or_grow_an_ivar_are_walked_in_pass_one() {
        let source = "class A
def set; @a = 1; end
def grow; @list << 2; end
def store(k); @h[k] = 3; end
def cache; @c ||= [] ; end
def swap; @x, @y = @y, @x; end
def read; @a + 1; end
def ask; @list.size; end
def hand; other(@list); end
def inner; [1].each { @seen = true }; end
end
";
        let (writes, names) = walked(source);
        assert!(writes);
        assert_eq!(names, ["cache", "grow", "inner", "set", "store", "swap"]);
    }

    #[test]
    fn a_file_that_only_reads_ivars_writes_none() {
        let (writes, names) = walked("class A\ndef grow; @list.push(1); end\ndef read; @a; end\nend\n");
        assert!(!writes);
        assert_eq!(names, ["grow"]);
    }
}
