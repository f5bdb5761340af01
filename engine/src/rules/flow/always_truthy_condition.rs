use ruby_prism::Node;

use crate::diagnostic::{EvidenceTier, Severity};
use crate::rules::{Finding, RuleContext, RuleInfo};
use crate::syntax::{literal_truthiness, name, unparenthesize};
use crate::types::{display, Literal, Type};

pub static RULE: RuleInfo = RuleInfo {
    id: "flow.always-truthy-condition",
    aliases: &["always-truthy-condition"],
    summary: "An `if`/`unless` condition that is not a literal but always has the same truthy value, so one branch is dead.",
    fires_when: &[
        "the condition of an `if`, `unless` or ternary is not itself a literal, and inference gives it one constant value other than nil and false (`x = 1; if x`)",
    ],
    does_not_fire_when: &[
        "the condition is a literal (that is flow.unreachable-branch), a constant (`if DEBUG` is a switch), or a call of `nil?`, `empty?`, `zero?`, `any?`, `none?`, `all?` or `respond_to?`",
        "the condition is inside a loop, a block or a `begin` that `retry` runs again, where its value may change between runs",
        "its type is anything but one constant (a union, a class, untyped)",
    ],
    example: "def m\n  x = 1\n  if x then 2 end\nend",
    authored: Severity::Warning,
    by_profile: [Some(Severity::Info), Some(Severity::Warning), Some(Severity::Error)],
    evidence: EvidenceTier::Medium,
    since: "0.1.0",
    check,
};

const PREDICATES: &[&str] = &["nil?", "empty?", "zero?", "any?", "none?", "all?", "respond_to?"];

fn check(cx: &RuleContext<'_, '_>, out: &mut Vec<Finding>) {
    let repeating: Vec<std::ops::Range<usize>> = cx
        .nodes()
        .iter()
        .filter(|node| {
            matches!(
                node,
                Node::WhileNode { .. }
                    | Node::UntilNode { .. }
                    | Node::ForNode { .. }
                    | Node::BlockNode { .. }
                    | Node::LambdaNode { .. }
            )
        })
        .map(|node| node.location().start() as usize..node.location().end() as usize)
        .chain(retried_bodies(cx))
        .collect();
    for node in cx.nodes() {
        let predicate = match node {
            Node::IfNode { .. } => node.as_if_node().map(|n| n.predicate()),
            Node::UnlessNode { .. } => node.as_unless_node().map(|n| n.predicate()),
            _ => None,
        };
        let Some(predicate) = predicate else { continue };
        let at = predicate.location().start() as usize;
        if repeating.iter().any(|r| r.contains(&at)) || !judged(&predicate) {
            continue;
        }
        let Some(Type::Constant(value)) = cx.type_of(&predicate) else { continue };
        if matches!(value, Literal::Nil | Literal::False) {
            continue;
        }
        let shown = display(&Type::Constant(value.clone()));
        out.push(Finding::new(&RULE, at, format!("this condition is always {shown}, so it is always truthy")));
    }
}

/// Conditions worth judging: not literals, constants or emptiness probes.
fn judged(predicate: &Node<'_>) -> bool {
    let bare = unparenthesize(crate::syntax::node_clone(predicate));
    if literal_truthiness(&bare).is_some() {
        return false;
    }
    match &bare {
        Node::ConstantReadNode { .. } | Node::ConstantPathNode { .. } | Node::DefinedNode { .. } => false,
        Node::CallNode { .. } => bare.as_call_node().is_some_and(|call| {
            let method = name(call.name());
            // `!DEBUG` is a switch too.
            let negated_constant = method == "!" && call.receiver().is_some_and(|r| !judged(&r));
            !PREDICATES.contains(&method.as_str()) && !negated_constant
        }),
        _ => true,
    }
}

/// `begin` bodies a `retry` runs again: their conditions repeat too.
fn retried_bodies(cx: &RuleContext<'_, '_>) -> Vec<std::ops::Range<usize>> {
    let retries: Vec<usize> = cx
        .nodes()
        .iter()
        .filter(|n| matches!(n, Node::RetryNode { .. }))
        .map(|n| n.location().start() as usize)
        .collect();
    cx.nodes()
        .iter()
        .filter(|n| matches!(n, Node::BeginNode { .. }))
        .map(|n| n.location().start() as usize..n.location().end() as usize)
        .filter(|range| retries.iter().any(|at| range.contains(at)))
        .collect()
}
