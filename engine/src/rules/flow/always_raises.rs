use ruby_prism::{visit_call_node, CallNode, Node, Visit};

use crate::diagnostic::{EvidenceTier, Severity};
use crate::rules::{Finding, RuleContext, RuleInfo};
use crate::stack_guard::ensure_room;
use crate::syntax::{is_integer_zero, name, node_clone, start, unparenthesize};
use crate::types::{Literal, Type};

pub static RULE: RuleInfo = RuleInfo {
    id: "flow.always-raises",
    aliases: &["always-raises"],
    summary: "Integer division or modulo by a constant 0 always raises ZeroDivisionError.",
    fires_when: &[
        "the receiver is an Integer: an integer literal, integer arithmetic on integer literals, or an expression whose inferred type is exactly Integer (a local assigned an integer literal)",
        "the method is `/`, `%`, `div`, `modulo` or `divmod` and its only argument is the integer literal 0",
    ],
    does_not_fire_when: &[
        "the receiver is a Float or might be one (`1.0 / 0` is Infinity), its type is a union, or it is not known to be Integer",
        "the divisor is `0.0` or computed",
        "the project redefines or refines the operator on Integer (in any file)",
    ],
    example: "10 % 0",
    authored: Severity::Error,
    by_profile: [Some(Severity::Warning), Some(Severity::Error), Some(Severity::Error)],
    evidence: EvidenceTier::High,
    since: "0.1.0",
    check,
};

const DIVISIONS: &[&str] = &["/", "%", "div", "modulo", "divmod"];

/// Integer-closed operators: Integer op Integer is an Integer (`**` is not:
/// a negative exponent gives a Rational).
const INTEGER_CLOSED: &[&str] = &["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "div", "modulo"];

fn check(cx: &RuleContext<'_, '_>, out: &mut Vec<Finding>) {
    let file = cx.parsed;
    let mut found = Vec::new();
    let mut finder = AlwaysRaises { out: &mut found, typed_later: Vec::new() };
    finder.visit(&file.root());
    let typed_later = std::mem::take(&mut finder.typed_later);
    if found.is_empty() && typed_later.is_empty() {
        return;
    }
    // Only the core's Integer#/ raises: one the project redefines or
    // refines, in this file or another, may not (`def /(o) = o.zero? ?
    // Float::INFINITY : ...`). Asking is cheap: divisions by a literal 0
    // are rare, and the index is shared with the other rules.
    let index = &cx.inference().index;
    out.extend(found.into_iter().filter(|f| !f.method_name.as_deref().is_some_and(|m| index.core_redefined(m))));
    // Receivers whose syntax does not say Integer: ask inference (shared
    // with the other rules, run once per file and only when needed).
    let types = cx.types();
    for (receiver, anchor, method) in typed_later {
        if types.of(&receiver).is_some_and(is_exactly_integer) && !index.core_redefined(&method) {
            out.push(finding(anchor, &method));
        }
    }
}

struct AlwaysRaises<'f, 'pr> {
    out: &'f mut Vec<Finding>,
    /// Divisions by a literal 0 whose receiver only inference can type:
    /// (receiver, anchor offset, method).
    typed_later: Vec<(Node<'pr>, usize, String)>,
}

/// One Integer, not a union with anything else (a Float would not raise).
fn is_exactly_integer(ty: &Type) -> bool {
    matches!(ty, Type::Constant(Literal::Int(_)) | Type::IntRange { .. })
        || matches!(ty, Type::Nominal { class, .. } if &**class == "Integer")
}

fn finding(anchor: usize, method: &str) -> Finding {
    Finding::new(&RULE, anchor, format!("Integer#{method} with a constant 0 divisor always raises ZeroDivisionError"))
        .on_call("Integer", method)
}

/// Is this expression certainly an Integer, by its syntax alone?
fn is_integer_expression(node: &Node<'_>) -> bool {
    ensure_room();
    let node = unparenthesize(node_clone(node));
    if node.as_integer_node().is_some() {
        return true;
    }
    let Some(call) = node.as_call_node() else { return false };
    let Some(receiver) = call.receiver() else { return false };
    let method = name(call.name());
    let arguments: Vec<Node<'_>> = call.arguments().map(|a| a.arguments().iter().collect()).unwrap_or_default();
    if call.block().is_some() || !is_integer_expression(&receiver) {
        return false;
    }
    match arguments.as_slice() {
        [] => matches!(method.as_str(), "-@" | "+@" | "~" | "abs"),
        // Dividing by a literal zero is this rule's own finding; the
        // quotient never exists, so do not build on it.
        [argument] => {
            INTEGER_CLOSED.contains(&method.as_str())
                && is_integer_expression(argument)
                && !(DIVISIONS.contains(&method.as_str()) && is_integer_zero(argument))
        }
        _ => false,
    }
}

impl<'pr> Visit<'pr> for AlwaysRaises<'_, 'pr> {
    fn visit_branch_node_enter(&mut self, _node: Node<'pr>) {
        ensure_room();
    }

    fn visit_call_node(&mut self, node: &CallNode<'pr>) {
        let method = crate::syntax::name_text(node.name());
        if DIVISIONS.contains(&&*method) {
            let arguments: Vec<Node<'pr>> =
                node.arguments().map(|a| a.arguments().iter().collect()).unwrap_or_default();
            if let ([divisor], Some(receiver), Some(anchor)) =
                (arguments.as_slice(), node.receiver(), node.message_loc())
            {
                if is_integer_zero(divisor) {
                    if is_integer_expression(&receiver) {
                        self.out.push(finding(start(&anchor), &method));
                    } else {
                        self.typed_later.push((receiver, start(&anchor), method.to_string()));
                    }
                }
            }
        }
        visit_call_node(self, node);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::ParsedFile;

    fn lines(source: &str) -> Vec<usize> {
        let parsed = ParsedFile::parse(source.as_bytes());
        let env = crate::rbs::Environment::default();
        let project = crate::rules::project::ProjectFacts::default();
        let mut out = Vec::new();
        check(&RuleContext::new(&parsed, "t.rb", &env, &project), &mut out);
        out.iter().map(|f| parsed.lines().position(f.offset).0).collect()
    }

    #[test]
    fn literal_receivers_fire_as_before() {
        assert_eq!(lines("10 % 0\n(2 + 3).div(0)\n1.0 / 0\n10 / 0.0\n"), [1, 2]);
    }

    #[test]
    fn inferred_integer_receivers_fire_and_everything_else_does_not() {
        let source = "def a\n  x = 10\n  x / 0\nend\ndef b\n  y = 10 * 2\n  y.modulo(0)\nend\ndef m(p) = p / 0\nf = 1.5\nf / 0\nu = [1, 2.0].sample\nu / 0\nx = 1\nx / 1\n";
        assert_eq!(lines(source), [3, 7]);
    }
}
