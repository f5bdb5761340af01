use ruby_prism::{visit_call_node, CallNode, Node, Visit};

use crate::diagnostic::{EvidenceTier, Severity};
use crate::rules::{Finding, RuleInfo};
use crate::stack_guard::ensure_room;
use crate::syntax::{is_integer_zero, name, node_clone, start, unparenthesize, ParsedFile};

pub static RULE: RuleInfo = RuleInfo {
    id: "flow.always-raises",
    aliases: &["always-raises"],
    summary: "Integer division or modulo by a constant 0 always raises ZeroDivisionError.",
    fires_when: &[
        "the receiver is an Integer (an integer literal, or integer arithmetic on integer literals)",
        "the method is `/`, `%`, `div`, `modulo` or `divmod` and its only argument is the integer literal 0",
    ],
    does_not_fire_when: &[
        "the receiver is a Float or might be one (`1.0 / 0` is Infinity), or its type is not known to be Integer",
        "the divisor is `0.0` or computed",
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

fn check(file: &ParsedFile<'_>, out: &mut Vec<Finding>) {
    let mut finder = AlwaysRaises { out };
    finder.visit(&file.root());
}

struct AlwaysRaises<'f> {
    out: &'f mut Vec<Finding>,
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

impl<'pr> Visit<'pr> for AlwaysRaises<'_> {
    fn visit_branch_node_enter(&mut self, _node: Node<'pr>) {
        ensure_room();
    }

    fn visit_call_node(&mut self, node: &CallNode<'pr>) {
        let method = name(node.name());
        if DIVISIONS.contains(&method.as_str()) {
            let arguments: Vec<Node<'pr>> =
                node.arguments().map(|a| a.arguments().iter().collect()).unwrap_or_default();
            let receiver_is_integer = node.receiver().is_some_and(|r| is_integer_expression(&r));
            if let ([divisor], true, Some(anchor)) = (arguments.as_slice(), receiver_is_integer, node.message_loc()) {
                if is_integer_zero(divisor) {
                    self.out.push(
                        Finding::new(
                            &RULE,
                            start(&anchor),
                            format!("Integer#{method} with a constant 0 divisor always raises ZeroDivisionError"),
                        )
                        .on_call("Integer", &method),
                    );
                }
            }
        }
        visit_call_node(self, node);
    }
}
