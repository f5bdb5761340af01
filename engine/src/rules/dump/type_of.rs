use crate::diagnostic::{EvidenceTier, Severity};
use crate::rules::call::site::Call;
use crate::rules::{Finding, RuleContext, RuleInfo};
use crate::types::display;

pub static RULE: RuleInfo = RuleInfo {
    id: "dump.type",
    aliases: &["dump-type"],
    summary: "`dump_type(expr)` (from Rigor::Testing) reports the type the engine infers for `expr`.",
    fires_when: &[
        "a call `dump_type(e)` with no receiver (or `Rigor::Testing.`) and one argument: the message is e's type",
    ],
    does_not_fire_when: &["the call has a receiver other than `Rigor::Testing`, or not exactly one argument"],
    example: "dump_type(1 + 2)",
    authored: Severity::Info,
    by_profile: [Some(Severity::Info), Some(Severity::Info), Some(Severity::Error)],
    evidence: EvidenceTier::High,
    since: "0.1.0",
    check,
};

fn check(cx: &RuleContext<'_, '_>, out: &mut Vec<Finding>) {
    for node in cx.nodes() {
        let Some(call) = testing_call(node, "dump_type") else { continue };
        let Some([argument]) = call.positional.as_deref() else { continue };
        let Some(ty) = cx.type_of(argument) else { continue };
        out.push(Finding::new(&RULE, call.anchor, display(ty)));
    }
}

/// A Rigor::Testing helper call: no receiver, or `Rigor::Testing.`.
pub fn testing_call<'pr>(node: &ruby_prism::Node<'pr>, method: &str) -> Option<Call<'pr>> {
    // Asked of every node: the name is compared before anything is built.
    if node.as_call_node()?.name().as_slice() != method.as_bytes() {
        return None;
    }
    let call = Call::of(node)?;
    if call.method != method {
        return None;
    }
    match &call.receiver {
        None => Some(call),
        Some(receiver) => {
            let path = crate::syntax::constant_path_text(receiver)?;
            (path.trim_start_matches("::") == "Rigor::Testing").then_some(call)
        }
    }
}
