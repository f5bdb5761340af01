use ruby_prism::{IfNode, Node, StatementsNode, UnlessNode, Visit};

use crate::diagnostic::{EvidenceTier, Severity};
use crate::rules::{Finding, RuleContext, RuleInfo};
use crate::stack_guard::ensure_room;
use crate::syntax::{literal_truthiness, node_clone, start, text, unparenthesize};

pub static RULE: RuleInfo = RuleInfo {
    id: "flow.unreachable-branch",
    aliases: &["unreachable-branch"],
    summary: "A branch of an `if`, `unless`, `elsif` or ternary can never run because its condition is a literal.",
    fires_when: &[
        "the condition is a literal whose truthiness is fixed by its spelling: nil, false, true, a number, a plain string or symbol (parentheses are looked through)",
        "the branch that can never run is not empty; reported at its first statement (or at `elsif`)",
    ],
    does_not_fire_when: &[
        "the condition is computed, even if it is always true at run time (a local holding a literal, a constant, a method call)",
        "the dead branch is empty (`if true then x end` has no else to report)",
        "the code is already inside a branch this rule reported (reported once, at the outermost dead branch)",
        "`while`/`until` loops (`begin … end while false` runs its body once)",
    ],
    example: "if nil\n  puts 1\nend",
    authored: Severity::Warning,
    by_profile: [Some(Severity::Info), Some(Severity::Warning), Some(Severity::Error)],
    evidence: EvidenceTier::High,
    since: "0.1.0",
    check,
};

fn check(cx: &RuleContext<'_, '_>, out: &mut Vec<Finding>) {
    let file = cx.parsed;
    let mut finder = UnreachableBranches { out };
    finder.visit(&file.root());
}

struct UnreachableBranches<'f> {
    out: &'f mut Vec<Finding>,
}

/// The branch of a conditional that is taken and the one that never is.
struct Split<'pr> {
    live: Option<Node<'pr>>,
    dead: Option<Node<'pr>>,
}

fn statements<'pr>(node: Option<StatementsNode<'pr>>) -> Option<Node<'pr>> {
    node.filter(|s| !s.body().is_empty()).map(|s| s.as_node())
}

/// Where to report a dead branch: its first statement, or `elsif` itself.
fn anchor(dead: &Node<'_>) -> Option<usize> {
    if let Some(statements) = dead.as_statements_node() {
        return statements.body().first().map(|first| start(&first.location()));
    }
    if let Some(else_node) = dead.as_else_node() {
        return else_node.statements().and_then(|s| s.body().first()).map(|first| start(&first.location()));
    }
    Some(start(&dead.location()))
}

impl<'pr> UnreachableBranches<'_> {
    fn report(&mut self, predicate: &Node<'pr>, truthy: bool, dead: &Node<'pr>) {
        let Some(offset) = anchor(dead) else { return };
        let shown = text(&unparenthesize(node_clone(predicate)).location());
        let verdict = if truthy { "truthy" } else { "falsy" };
        self.out.push(Finding::new(
            &RULE,
            offset,
            format!("this branch can never run: the condition `{shown}` is always {verdict}"),
        ));
    }

    fn walk_split(&mut self, predicate: Node<'pr>, truthy: Option<bool>, split: Split<'pr>) {
        self.visit(&predicate);
        match (truthy, split.dead) {
            (Some(value), Some(dead)) => {
                self.report(&predicate, value, &dead);
                if let Some(live) = split.live {
                    self.visit(&live);
                }
            }
            (_, dead) => {
                for branch in [split.live, dead].into_iter().flatten() {
                    self.visit(&branch);
                }
            }
        }
    }
}

impl<'pr> Visit<'pr> for UnreachableBranches<'_> {
    fn visit_branch_node_enter(&mut self, _node: Node<'pr>) {
        ensure_room();
    }

    fn visit_if_node(&mut self, node: &IfNode<'pr>) {
        let predicate = node.predicate();
        let truthy = literal_truthiness(&predicate);
        let then_branch = statements(node.statements());
        let else_branch = node.subsequent().filter(|n| match n.as_else_node() {
            Some(else_node) => statements(else_node.statements()).is_some(),
            None => true,
        });
        let split = match truthy {
            Some(false) => Split { live: else_branch, dead: then_branch },
            _ => Split { live: then_branch, dead: else_branch },
        };
        self.walk_split(predicate, truthy, split);
    }

    fn visit_unless_node(&mut self, node: &UnlessNode<'pr>) {
        let predicate = node.predicate();
        let truthy = literal_truthiness(&predicate);
        let then_branch = statements(node.statements());
        let else_branch = node.else_clause().filter(|e| statements(e.statements()).is_some()).map(|e| e.as_node());
        let split = match truthy {
            Some(true) => Split { live: else_branch, dead: then_branch },
            _ => Split { live: then_branch, dead: else_branch },
        };
        self.walk_split(predicate, truthy, split);
    }
}
