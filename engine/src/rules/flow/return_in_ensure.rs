use ruby_prism::{
    visit_call_node, visit_class_node, visit_def_node, visit_ensure_node, visit_lambda_node, visit_module_node,
    visit_singleton_class_node, CallNode, ClassNode, DefNode, EnsureNode, LambdaNode, ModuleNode, Node, ReturnNode,
    SingletonClassNode, Visit,
};

use crate::diagnostic::{EvidenceTier, Severity};
use crate::rules::{Finding, RuleContext, RuleInfo};
use crate::stack_guard::ensure_room;
use crate::syntax::start;

pub static RULE: RuleInfo = RuleInfo {
    id: "flow.return-in-ensure",
    aliases: &["return-in-ensure"],
    summary: "`return` inside an `ensure` clause discards any exception in flight and overrides the method's result.",
    fires_when: &[
        "a `return` appears in the body of an `ensure` clause, including inside a `do`/`{}` block there (it still returns from the method)",
    ],
    does_not_fire_when: &[
        "the `return` is inside a method, lambda (`->` or `lambda { }`) or `define_method` / `define_singleton_method` block defined within the ensure clause",
        "the `return` is in the main body or a `rescue` clause",
    ],
    example: "def g\n  1\nensure\n  return 2\nend",
    authored: Severity::Warning,
    by_profile: [Some(Severity::Info), Some(Severity::Warning), Some(Severity::Error)],
    evidence: EvidenceTier::High,
    since: "0.1.0",
    check,
};

fn check(cx: &RuleContext<'_, '_>, out: &mut Vec<Finding>) {
    let file = cx.parsed;
    let mut finder = ReturnInEnsure { out, scopes: vec![false] };
    finder.visit(&file.root());
}

/// `scopes` holds, per enclosing scope that `return` would leave, whether we
/// are inside an `ensure` clause of it.
struct ReturnInEnsure<'f> {
    out: &'f mut Vec<Finding>,
    scopes: Vec<bool>,
}

impl ReturnInEnsure<'_> {
    fn in_new_scope(&mut self, walk: impl FnOnce(&mut Self)) {
        self.scopes.push(false);
        walk(self);
        self.scopes.pop();
    }
}

/// Blocks whose `return` leaves the block itself rather than the method:
/// `lambda { }`, and the body of a method defined with `define_method` or
/// `define_singleton_method`, with or without a receiver
/// (`klass.define_method(:m) { return 1 }`; public since Ruby 2.5).
fn block_is_own_scope(call: &CallNode<'_>) -> bool {
    match &*crate::syntax::name_text(call.name()) {
        "lambda" => call.receiver().is_none(),
        "define_method" | "define_singleton_method" => true,
        _ => false,
    }
}

impl<'pr> Visit<'pr> for ReturnInEnsure<'_> {
    fn visit_branch_node_enter(&mut self, _node: Node<'pr>) {
        ensure_room();
    }

    fn visit_ensure_node(&mut self, node: &EnsureNode<'pr>) {
        let outer = self.scopes.last().copied().unwrap_or(false);
        *self.scopes.last_mut().expect("root scope") = true;
        visit_ensure_node(self, node);
        *self.scopes.last_mut().expect("root scope") = outer;
    }

    fn visit_return_node(&mut self, node: &ReturnNode<'pr>) {
        if self.scopes.last() == Some(&true) {
            self.out.push(Finding::new(
                &RULE,
                start(&node.keyword_loc()),
                "`return` inside `ensure` swallows any exception being raised and replaces the method's return value",
            ));
        }
        ruby_prism::visit_return_node(self, node);
    }

    fn visit_def_node(&mut self, node: &DefNode<'pr>) {
        self.in_new_scope(|s| visit_def_node(s, node));
    }

    fn visit_lambda_node(&mut self, node: &LambdaNode<'pr>) {
        self.in_new_scope(|s| visit_lambda_node(s, node));
    }

    fn visit_class_node(&mut self, node: &ClassNode<'pr>) {
        self.in_new_scope(|s| visit_class_node(s, node));
    }

    fn visit_module_node(&mut self, node: &ModuleNode<'pr>) {
        self.in_new_scope(|s| visit_module_node(s, node));
    }

    fn visit_singleton_class_node(&mut self, node: &SingletonClassNode<'pr>) {
        self.in_new_scope(|s| visit_singleton_class_node(s, node));
    }

    fn visit_call_node(&mut self, node: &CallNode<'pr>) {
        if block_is_own_scope(node) {
            if let Some(receiver) = node.receiver() {
                self.visit(&receiver);
            }
            if let Some(arguments) = node.arguments() {
                self.visit_arguments_node(&arguments);
            }
            if let Some(block) = node.block() {
                self.in_new_scope(|s| s.visit(&block));
            }
        } else {
            visit_call_node(self, node);
        }
    }
}
