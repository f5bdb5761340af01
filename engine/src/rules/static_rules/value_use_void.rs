use ruby_prism::Node;

use crate::diagnostic::{EvidenceTier, Severity};
use crate::rbs::ast::RType;
use crate::rules::call::callee::{resolve, Target};
use crate::rules::call::site::{shown, Call};
use crate::rules::{Finding, RuleContext, RuleInfo};

pub static RULE: RuleInfo = RuleInfo {
    id: "static.value-use.void",
    aliases: &["value-use.void"],
    summary: "The result of a method whose signature returns `void` is used as a value. Bleeding-edge: off unless `bleeding_edge` names it.",
    fires_when: &[
        "a call resolves to a signature method whose every overload that fits the call's block (given or not) returns `void`",
        "its result is assigned to a variable, passed as an argument, or used as a receiver",
    ],
    does_not_fire_when: &[
        "the result is discarded (a statement on its own), or some fitting overload returns anything but `void`",
        "the receiver is untyped or a union, or the project redefines the method",
        "`bleeding_edge` is off or does not name this rule",
    ],
    example: "r = [1].zip([2]) { |pair| pair }",
    authored: Severity::Warning,
    by_profile: [None, None, None],
    evidence: EvidenceTier::High,
    since: "0.1.0",
    check,
};

fn check(cx: &RuleContext<'_, '_>, out: &mut Vec<Finding>) {
    let mut used: Vec<Node<'_>> = Vec::new();
    for node in cx.nodes() {
        match node {
            Node::LocalVariableWriteNode { .. } => used.extend(node.as_local_variable_write_node().map(|w| w.value())),
            Node::InstanceVariableWriteNode { .. } => {
                used.extend(node.as_instance_variable_write_node().map(|w| w.value()))
            }
            Node::GlobalVariableWriteNode { .. } => {
                used.extend(node.as_global_variable_write_node().map(|w| w.value()))
            }
            Node::CallNode { .. } => {
                let call = node.as_call_node().expect("a call");
                used.extend(call.receiver());
                if let Some(arguments) = call.arguments() {
                    used.extend(arguments.arguments().iter());
                }
            }
            _ => {}
        }
    }
    for value in &used {
        let Some(call) = Call::of(value) else { continue };
        // `C.new` resolves to `initialize`, whose `void` is not new's result.
        if call.method == "new" {
            continue;
        }
        let Some((receiver, Target::Signature { class, overloads, .. })) = resolve(cx, &call) else { continue };
        let block_given = call.node.block().is_some();
        let fitting: Vec<&RType> = overloads
            .iter()
            .filter(|o| match &o.block {
                Some(block) => block_given || !block.required,
                None => !block_given,
            })
            .map(|o| &o.function.returns)
            .collect();
        if fitting.is_empty() || !fitting.iter().all(|r| matches!(r, RType::Void)) {
            continue;
        }
        let receiver_type = shown(&receiver);
        out.push(
            Finding::new(
                &RULE,
                call.anchor,
                format!("{class}#{} returns void; its result should not be used", call.method),
            )
            .on_call(&receiver_type, &call.method),
        );
    }
}
