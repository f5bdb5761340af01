//! What a rule sees of one file: its syntax tree, and on demand the types
//! inference gives it (computed once per file, shared by every rule), the
//! signatures, and what the rest of the project defines.

use std::cell::{Cell, OnceCell};

use ruby_prism::Node;

use super::hazards::Hazards;
use super::project::{FactsReader, ProjectFacts};
use crate::infer::{infer_with_prior, FileTypes, Inference, Prior, ProgramIndex, ProjectLink};
use crate::rbs::Environment;
use crate::syntax::walk::all_nodes;
use crate::syntax::ParsedFile;
use crate::types::Type;

pub struct RuleContext<'f, 'src> {
    pub parsed: &'f ParsedFile<'src>,
    /// The file's path as reported.
    pub path: &'f str,
    pub env: &'f Environment,
    pub project: FactsReader<'f>,
    /// The project index this file's inference reads, taken on first use.
    link: Cell<Option<ProjectLink>>,
    /// What an earlier inference of the same file found, to reuse.
    reused: Cell<Option<Prior>>,
    /// The file's index as walked already, if it was: completed for the
    /// inference instead of walking the tree again.
    walk: Cell<Option<ProgramIndex<'f>>>,
    inference: OnceCell<Inference<'f, 'f>>,
    nodes: OnceCell<Vec<Node<'f>>>,
    calls: OnceCell<Vec<crate::rules::call::site::Call<'f>>>,
    block_spans: OnceCell<Vec<(usize, usize)>>,
    hazards: OnceCell<Hazards>,
    /// Whether code the engine cannot see may run before this file's: asked
    /// at every call a rule judges, the same answer for the whole file.
    unseen_code: OnceCell<bool>,
    /// The file's suppression markers: the rules about markers and the
    /// suppression of findings all read them.
    markers: OnceCell<Vec<crate::suppression::Placed>>,
    /// Each class's own `def`s with their visibility (two rules read it).
    visibilities: OnceCell<rustc_hash::FxHashMap<String, crate::rules::def::visibility::ClassMethods>>,
}

impl<'f, 'src> RuleContext<'f, 'src> {
    pub fn new(parsed: &'f ParsedFile<'src>, path: &'f str, env: &'f Environment, project: &'f ProjectFacts) -> Self {
        RuleContext {
            parsed,
            path,
            env,
            project: FactsReader::new(project),
            link: Cell::new(None),
            reused: Cell::new(None),
            walk: Cell::new(None),
            inference: OnceCell::new(),
            nodes: OnceCell::new(),
            calls: OnceCell::new(),
            block_spans: OnceCell::new(),
            hazards: OnceCell::new(),
            unseen_code: OnceCell::new(),
            markers: OnceCell::new(),
            visibilities: OnceCell::new(),
        }
    }

    /// Infers the file against the rest of its project, or takes the
    /// types an equivalent inference found.
    pub fn in_project(self, link: Option<ProjectLink>, reused: Option<Prior>) -> Self {
        self.link.set(link);
        self.reused.set(reused);
        self
    }

    /// Starts the inference's index from this walk of the file.
    pub fn walked(self, walk: Option<ProgramIndex<'f>>) -> Self {
        self.walk.set(walk);
        self
    }

    /// Inference over the file, run on first use only.
    pub fn inference(&self) -> &Inference<'f, 'f> {
        self.inference.get_or_init(|| {
            infer_with_prior(self.parsed, self.env, self.link.take(), self.reused.take(), self.walk.take())
        })
    }

    /// Every suppression marker in the file's comments, in source order.
    pub fn markers(&self) -> &[crate::suppression::Placed] {
        self.markers.get_or_init(|| crate::suppression::markers(self.parsed))
    }

    /// Each class the file opens (as written, qualified by nesting): its
    /// superclass as written and its own methods' visibility.
    pub fn visibilities(&self) -> &rustc_hash::FxHashMap<String, crate::rules::def::visibility::ClassMethods> {
        self.visibilities.get_or_init(|| crate::rules::def::visibility::collect(&self.parsed.root()))
    }

    /// The inference, if some rule asked for it.
    pub fn inference_if_run(&self) -> Option<&Inference<'f, 'f>> {
        self.inference.get()
    }

    pub fn types(&self) -> &FileTypes {
        &self.inference().types
    }

    pub fn type_of(&self, node: &Node<'_>) -> Option<&Type> {
        self.types().of(node)
    }

    /// Every node of the file, in pre-order.
    pub fn nodes(&self) -> &[Node<'f>] {
        self.nodes.get_or_init(|| all_nodes(&self.parsed.root()))
    }

    /// Every call with a method name (what [`Call::of`] reads) that may
    /// run, in node order, worked out once for all the rules that look at
    /// calls. Those inside a `defined?` operand never run
    /// (`defined?(Encoding.find) && Encoding.find(name)`).
    ///
    /// [`Call::of`]: crate::rules::call::site::Call::of
    pub fn calls(&self) -> &[crate::rules::call::site::Call<'f>] {
        self.calls.get_or_init(|| {
            let hazards = self.hazards();
            self.nodes()
                .iter()
                .filter(|node| !hazards.never_runs(node.location().start() as usize))
                .filter_map(crate::rules::call::site::Call::of)
                .collect()
        })
    }

    /// The calls of [`RuleContext::calls`] a rule judging them by the
    /// signatures may judge: not those in a conditional on the Ruby
    /// running (`if RUBY_VERSION >= "1.9"`), whose branches are written
    /// for Rubies whose core methods the signatures need not describe
    /// (`Regexp.quote(raw, "n")` on Ruby 1.8); nor those in a branch a
    /// literal condition never takes (`if false`), which never run
    /// (`flow.unreachable-branch` reports the branch).
    pub fn calls_for_this_ruby(&self) -> impl Iterator<Item = &crate::rules::call::site::Call<'f>> {
        let hazards = self.hazards();
        self.calls().iter().filter(|call| !hazards.version_switched(call.anchor) && !hazards.dead(call.anchor))
    }

    /// The byte ranges of the file's blocks and lambdas, by start.
    pub fn block_spans(&self) -> &[(usize, usize)] {
        self.block_spans.get_or_init(|| {
            self.nodes()
                .iter()
                .filter(|node| matches!(node, Node::BlockNode { .. } | Node::LambdaNode { .. }))
                .map(|node| (node.location().start() as usize, node.location().end() as usize))
                .collect()
        })
    }

    /// May a gem (code outside the project and the standard library) have
    /// added methods before this file runs? Then no call rule can be sure.
    pub fn sees_unseen_code(&self) -> bool {
        *self.unseen_code.get_or_init(|| self.project.sees_unseen_code(self.path))
    }

    /// May a gem have given `nil` this method before this file runs?
    pub fn unseen_code_may_give_nil(&self, method: &str) -> bool {
        self.project.unseen_code_may_give_nil(self.path, method)
    }

    pub fn hazards(&self) -> &Hazards {
        self.hazards.get_or_init(|| Hazards::of(self.nodes()))
    }
}
