//! A file's tree kept with its walked index between one call's passes:
//! the facts, the exports and the analysis each complete a copy of one
//! walk for their project instead of walking the tree again.

use super::ProgramIndex;
use crate::rbs::Environment;
use crate::stack_guard;
use crate::syntax::{ParsedFile, RubyVersion, Tree};

/// The walk of a tree that parsed without errors (others are never
/// indexed: their analysis reports the errors alone).
type Walk<'t> = Option<ProgramIndex<'t>>;

self_cell::self_cell!(
    struct Kept {
        owner: Tree,
        #[not_covariant]
        dependent: Walk,
    }
);

pub struct WalkedTree(Kept);

// SAFETY: the index points only into its own tree (nodes of the tree's
// arena) and holds no `Rc`; the tree is `Send` (see `Tree`). Moving both
// together to another thread moves everything either points to.
unsafe impl Send for WalkedTree {}

impl WalkedTree {
    /// Walks `tree` once; `None` if the walk failed (nested too deeply),
    /// for the passes to meet the failure again and report it as before.
    pub fn walk(tree: Tree, env: &Environment) -> Option<WalkedTree> {
        stack_guard::guarded(|| {
            Kept::new(tree, |tree| {
                let parsed = tree.parsed();
                let parses = parsed.result.errors().next().is_none();
                parses.then(|| ProgramIndex::walk(&parsed.root(), env))
            })
        })
        .ok()
        .map(WalkedTree)
    }

    /// The parse and a copy of its walk, for a pass that keeps neither.
    pub fn with_copy<R>(&self, work: impl for<'t> FnOnce(&'t ParsedFile<'t>, Walk<'t>) -> R) -> R {
        self.0.with_dependent(|tree, walk| work(tree.parsed(), walk.as_ref().map(ProgramIndex::walked_copy)))
    }

    /// The parse and the walk itself, for the last pass: later ones would
    /// walk again.
    pub fn with_taken<R>(&mut self, work: impl for<'t> FnOnce(&'t ParsedFile<'t>, Walk<'t>) -> R) -> R {
        self.0.with_dependent_mut(|tree, walk| work(tree.parsed(), walk.take()))
    }

    /// Whether this parsed these very bytes (the same shared buffer).
    pub fn is_of(&self, source: &std::sync::Arc<[u8]>) -> bool {
        self.0.borrow_owner().is_of(source)
    }
}

/// Runs `work` on a file's parse: the one kept (with a copy of its walk,
/// for a pass that keeps neither), or one made now of `source` (no walk).
pub fn on_copy<R>(
    kept: Option<&WalkedTree>,
    source: &[u8],
    grammar: RubyVersion,
    work: impl for<'t> FnOnce(&'t ParsedFile<'t>, Walk<'t>) -> R,
) -> R {
    match kept {
        Some(kept) => kept.with_copy(work),
        None => work(&ParsedFile::parse_as(source, grammar), None),
    }
}

/// Runs `work` on a file's parse: the one kept (its walk taken), or one
/// made now of `source` (and no walk: the index is built as before).
pub fn on_parse<R>(
    kept: Option<&mut WalkedTree>,
    source: &[u8],
    grammar: RubyVersion,
    work: impl for<'t> FnOnce(&'t ParsedFile<'t>, Walk<'t>) -> R,
) -> R {
    match kept {
        Some(kept) => kept.with_taken(work),
        None => work(&ParsedFile::parse_as(source, grammar), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(text: &str) -> Tree {
        Tree::parse(text.as_bytes().to_vec().into(), RubyVersion::Latest)
    }

    #[test]
    fn each_copy_of_a_walk_completes_as_a_fresh_walk_does() {
        let env = crate::rbs::Environment::default();
        let source = "class A < B\n  include M\n  X = 1\n  def m(x) = @y = x\n  attr_reader :y\nend\nA.new.m(1)\n";
        let mut kept = WalkedTree::walk(tree(source), &env).expect("walked");
        let fresh = |parsed: &ParsedFile<'_>| {
            let index = ProgramIndex::build(&parsed.root(), &env);
            format!("{:?}", (index.interface(), index.defs.len(), index.ivar_names.clone()))
        };
        let completed = |index: ProgramIndex<'_>| {
            let index = index.completed(&env, None);
            format!("{:?}", (index.interface(), index.defs.len(), index.ivar_names.clone()))
        };
        let (first, expected) = kept.with_copy(|parsed, walk| (completed(walk.expect("parses")), fresh(parsed)));
        assert!(expected.contains("\"m\""), "{expected}");
        assert_eq!(first, expected);
        assert_eq!(kept.with_copy(|_, walk| completed(walk.expect("parses"))), expected, "copied again");
        assert_eq!(kept.with_taken(|_, walk| completed(walk.expect("parses"))), expected, "taken");
        assert!(kept.with_taken(|_, walk| walk.is_none()), "taken once");
        let broken = WalkedTree::walk(tree("def m(\n"), &env).expect("walked");
        assert!(broken.with_copy(|parsed, walk| walk.is_none() && !parsed.errors().is_empty()));
    }
}
