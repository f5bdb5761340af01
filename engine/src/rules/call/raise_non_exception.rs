use super::site::shown;
use crate::diagnostic::{EvidenceTier, Severity};
use crate::rules::{Finding, RuleContext, RuleInfo};
use crate::types::{Literal, Type};

pub static RULE: RuleInfo = RuleInfo {
    id: "call.raise-non-exception",
    aliases: &["raise-non-exception"],
    summary: "`raise` given a value that is neither an exception, a class of one, a message String, nor anything with `#exception`: TypeError.",
    fires_when: &[
        "`raise` or `fail` (no receiver, or `Kernel.`) is called with a first argument typed as a literal number, symbol, `nil`, `true`/`false`, an array or a hash",
    ],
    does_not_fire_when: &[
        "the argument is a String (a RuntimeError message), an exception class or instance, untyped, or a union",
        "the argument is an instance of a class that may define `exception`",
        "the project defines its own `raise` or `fail`",
    ],
    example: "raise 42",
    authored: Severity::Error,
    by_profile: [Some(Severity::Warning), Some(Severity::Error), Some(Severity::Error)],
    evidence: EvidenceTier::High,
    since: "0.1.0",
    check,
};

fn check(cx: &RuleContext<'_, '_>, out: &mut Vec<Finding>) {
    for call in cx.calls() {
        if !matches!(&*call.method, "raise" | "fail") || cx.project.defines_anywhere(&call.method) {
            continue;
        }
        let on_kernel = match &call.receiver {
            None => true,
            Some(receiver) => crate::syntax::constant_path_text(receiver).as_deref() == Some("Kernel"),
        };
        let Some(first) = call.positional.as_ref().and_then(|args| args.first()) else { continue };
        let Some(ty) = cx.type_of(first) else { continue };
        if !on_kernel || !never_raisable(ty) {
            continue;
        }
        let shown_type = shown(ty);
        out.push(
            Finding::new(
                &RULE,
                call.anchor,
                format!("`{}` given {shown_type}, which is not an exception", call.method),
            )
            .on_call("Kernel", &call.method),
        );
    }
}

/// Values of core classes that have no `exception` method.
fn never_raisable(ty: &Type) -> bool {
    match ty {
        Type::Constant(literal) => !matches!(literal, Literal::Str(_)),
        Type::IntRange { .. } | Type::Tuple(_) | Type::Shape(_) => true,
        _ => false,
    }
}
