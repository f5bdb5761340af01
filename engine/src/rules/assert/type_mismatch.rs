use crate::diagnostic::{EvidenceTier, Severity};
use crate::rules::dump::type_of::testing_call;
use crate::rules::{Finding, RuleContext, RuleInfo};
use crate::types::display;

pub static RULE: RuleInfo = RuleInfo {
    id: "assert.type-mismatch",
    aliases: &["assert-type"],
    summary: "`assert_type(\"T\", expr)` (from Rigor::Testing) where the type inferred for `expr` does not display as T.",
    fires_when: &["a call `assert_type(\"T\", e)` with a literal string first argument, and e's inferred type displays differently from T"],
    does_not_fire_when: &[
        "the displays are equal",
        "the expected type is not a plain string literal, or the call has a receiver other than `Rigor::Testing`",
    ],
    example: "assert_type(\"String\", 1)",
    authored: Severity::Error,
    by_profile: [Some(Severity::Error), Some(Severity::Error), Some(Severity::Error)],
    evidence: EvidenceTier::High,
    since: "0.1.0",
    check,
};

fn check(cx: &RuleContext<'_, '_>, out: &mut Vec<Finding>) {
    for node in cx.nodes() {
        let Some(call) = testing_call(node, "assert_type") else { continue };
        let Some([expected, actual]) = call.positional.as_deref() else { continue };
        let Some(expected) = expected.as_string_node() else { continue };
        let expected = crate::syntax::decoded(expected.unescaped()).into_owned();
        let Some(ty) = cx.type_of(actual) else { continue };
        let shown = display(ty);
        if shown != expected {
            out.push(Finding::new(&RULE, call.anchor, format!("expected type {expected}, inferred {shown}")));
        }
    }
}
