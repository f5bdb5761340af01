use crate::diagnostic::{EvidenceTier, Severity};
use crate::rules::call::accepts::{rejects, Passing};
use crate::rules::def::signed::signed_defs;
use crate::rules::{Finding, RuleContext, RuleInfo};
use crate::syntax::start;
use crate::types::{display, Type};

pub static RULE: RuleInfo = RuleInfo {
    id: "def.return-type-mismatch",
    aliases: &["return-type-mismatch"],
    summary: "A method whose body returns a value its RBS signature's return type does not allow.",
    fires_when: &[
        "the signatures declare the method on the class the `def` belongs to, and the type inferred for the body's return is one concrete value (a literal, nil, or an instance of one signature class)",
        "no overload's return type admits that value's class (no implicit conversion happens on return)",
    ],
    does_not_fire_when: &[
        "the inferred return is untyped, a union, or an instance of a project class",
        "the declared return is `void`, `untyped`, `top`, `bool`, `self`, a type variable, a literal type or an intersection",
        "the method is `initialize` or a writer (`name=`, whose call is worth its argument), or the body never returns (always raises)",
    ],
    example: "# sig: class Meter\n#   def size: () -> Integer\nclass Meter\n  def size = \"big\"\nend",
    authored: Severity::Warning,
    by_profile: [Some(Severity::Warning), Some(Severity::Warning), Some(Severity::Error)],
    evidence: EvidenceTier::Medium,
    since: "0.1.0",
    check,
};

fn check(cx: &RuleContext<'_, '_>, out: &mut Vec<Finding>) {
    for signed in signed_defs(cx) {
        // `x.m = v` is `v` whatever `m=` returns.
        if signed.method == "initialize" || signed.method.ends_with('=') || signed.overloads.is_empty() {
            continue;
        }
        let def_start = signed.def.location().start() as usize;
        let Some(returned) = cx.types().def_return(def_start) else { continue };
        if !concrete(cx, returned) {
            continue;
        }
        if signed.overloads.iter().all(|o| rejects(cx, &o.function.returns, returned, Passing::Returned)) {
            out.push(Finding::new(
                &RULE,
                start(&signed.def.name_loc()),
                format!(
                    "{}#{} returns {} but its signature does not allow it",
                    signed.class,
                    signed.method,
                    display(returned)
                ),
            ));
        }
    }
}

/// One value of a signature class the project does not reopen.
fn concrete(cx: &RuleContext<'_, '_>, ty: &Type) -> bool {
    match ty {
        Type::Constant(_) | Type::IntRange { .. } | Type::Tuple(_) | Type::Shape(_) | Type::Nominal { .. } => {
            ty.class_name().is_some_and(|class| cx.env.has_class(class) && !cx.project.opens(class))
        }
        _ => false,
    }
}
