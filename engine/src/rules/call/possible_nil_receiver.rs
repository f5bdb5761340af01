use super::site::{guarded_elsewhere, receiver_class, shown, surely_missing, trusted_receiver, Call};
use crate::diagnostic::{EvidenceTier, Severity};
use crate::infer::Callee;
use crate::rules::{Finding, RuleContext, RuleInfo};
use crate::syntax::unparenthesize;
use crate::types::Type;
use ruby_prism::Node;

pub static RULE: RuleInfo = RuleInfo {
    id: "call.possible-nil-receiver",
    aliases: &["possible-nil-receiver"],
    summary: "A method called on a value that may be nil, where nil lacks the method: NoMethodError on the nil path.",
    fires_when: &[
        "the receiver is a local variable whose type at the call is `T | nil`: every other member is one known class that has the method",
        "the nil is written in this code: the local is assigned the literal `nil` in the same method, and no later unconditional write hides it",
        "NilClass does not have the method (nor does the project or a standard library add it), and the call is not `&.`",
    ],
    does_not_fire_when: &[
        "a guard narrowed nil away before the call (`if x`, `unless x.nil?`, `return unless x`, `x ||= ...`, `x && x.m`), or the call is `x&.m`",
        "nil has the method (`to_s`, `inspect`, `nil?`, ...), or some member of the type is untyped or lacks the method too",
        "the nil comes only from a signature's optional return (`String#index`, `Hash#[]`, `IO#read`), a global (`$~`, `$?`), an instance variable, or a conditional without `else` (often exhaustive): working code relies on invariants no type shows, so the engine is not sure",
        "the file probes the method with `respond_to?` or rescues NoMethodError around the call",
        "the file loads (itself or through the project files it requires) a library outside the project and Ruby's standard library: a gem may add or change methods of any class",
    ],
    example: "def m(flag)\n  s = nil\n  s = \"x\" if flag\n  s.upcase\nend",
    authored: Severity::Error,
    by_profile: [Some(Severity::Warning), Some(Severity::Error), Some(Severity::Error)],
    evidence: EvidenceTier::High,
    since: "0.1.0",
    check,
};

fn check(cx: &RuleContext<'_, '_>, out: &mut Vec<Finding>) {
    if cx.hazards().refines {
        return;
    }
    for node in cx.nodes() {
        let Some(call) = Call::of(node) else { continue };
        if call.is_safe_navigation() {
            continue;
        }
        let Some(receiver) = call.explicit_receiver() else { continue };
        if receiver.as_local_variable_read_node().is_none() {
            continue;
        }
        let Some(ty) = cx.type_of(receiver) else { continue };
        let Type::Union(members) = ty else { continue };
        let others: Vec<&Type> = members.iter().filter(|m| **m != Type::nil()).collect();
        if others.len() == members.len() || others.is_empty() {
            continue;
        }
        if !others.iter().all(|member| has_method(cx, member, &call.method)) {
            continue;
        }
        // Cheapest first: the walk back through the local's writes last.
        if !trusted_receiver(cx, receiver, ty)
            || !surely_missing(cx, &Type::nil(), &call.method)
            || !nil_written_here(cx, receiver)
            || guarded_elsewhere(cx, &call)
        {
            continue;
        }
        let receiver_type = shown(ty);
        out.push(
            Finding::new(
                &RULE,
                call.anchor,
                format!(
                    "`{}` is called on {receiver_type}, which may be nil; nil has no `{}`",
                    call.method, call.method
                ),
            )
            .on_call(&receiver_type, &call.method),
        );
    }
}

/// Is the method found for this (non-nil) member of the receiver type?
fn has_method(cx: &RuleContext<'_, '_>, member: &Type, method: &str) -> bool {
    let Some((class, side)) = receiver_class(member) else { return false };
    !matches!(cx.inference().lookup(&class, side, method), Callee::Missing { .. })
}

/// Does a `nil` this method writes reach the receiver? Walking back from
/// the read through the local's earlier writes: a write of `nil` answers
/// yes; a write that surely runs
/// before the read (no branch, loop, block or rescue holds it but not the
/// read) hides everything earlier; a conditional write does not.
fn nil_written_here(cx: &RuleContext<'_, '_>, receiver: &Node<'_>) -> bool {
    let Some(read) = receiver.as_local_variable_read_node() else { return false };
    let offset = receiver.location().start() as usize;
    let scope = enclosing_scope(cx.nodes(), offset);
    let mut writes: Vec<&Node<'_>> = cx
        .nodes()
        .iter()
        .filter(|node| within(node, &scope) && (node.location().end() as usize) <= offset)
        .filter(|node| {
            node.as_local_variable_write_node().is_some_and(|w| w.name().as_slice() == read.name().as_slice())
        })
        .collect();
    writes.sort_by_key(|node| node.location().start());
    for write in writes.iter().rev() {
        let value = unparenthesize(write.as_local_variable_write_node().expect("a local write").value());
        // Only a literal `nil`: a conditional without `else` is often
        // exhaustive by an invariant (`case type when A ... when B ... end`).
        if matches!(value, Node::NilNode { .. }) {
            return true;
        }
        if !runs_conditionally(cx.nodes(), write, offset) {
            return false;
        }
    }
    false
}

/// Is some branch, loop, block or rescue around `write` not around the
/// read at `offset`?
fn runs_conditionally(nodes: &[Node<'_>], write: &Node<'_>, offset: usize) -> bool {
    let at = write.location().start() as usize;
    nodes.iter().any(|node| {
        matches!(
            node,
            Node::IfNode { .. }
                | Node::UnlessNode { .. }
                | Node::CaseNode { .. }
                | Node::CaseMatchNode { .. }
                | Node::WhileNode { .. }
                | Node::UntilNode { .. }
                | Node::ForNode { .. }
                | Node::BlockNode { .. }
                | Node::LambdaNode { .. }
                | Node::RescueNode { .. }
                | Node::RescueModifierNode { .. }
                | Node::AndNode { .. }
                | Node::OrNode { .. }
                | Node::BeginNode { .. }
        ) && within_offset(node, at)
            && !within_offset(node, offset)
    })
}

/// The byte range of the innermost `def` around an offset, else the file.
fn enclosing_scope(nodes: &[Node<'_>], offset: usize) -> std::ops::Range<usize> {
    nodes
        .iter()
        .filter(|node| matches!(node, Node::DefNode { .. }) && within_offset(node, offset))
        .map(|node| node.location().start() as usize..node.location().end() as usize)
        .min_by_key(|range| range.len())
        .unwrap_or(0..usize::MAX)
}

fn within_offset(node: &Node<'_>, offset: usize) -> bool {
    let location = node.location();
    (location.start() as usize..location.end() as usize).contains(&offset)
}

fn within(node: &Node<'_>, scope: &std::ops::Range<usize>) -> bool {
    scope.contains(&(node.location().start() as usize))
}
