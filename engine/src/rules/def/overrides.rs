//! `def.override-return-widened` and `def.override-param-narrowed`: an
//! RBS-declared override must keep its parent's RBS contract (returns may
//! only narrow, parameters may only widen).

use crate::diagnostic::{EvidenceTier, Severity};
use crate::infer::{Relation, Side};
use crate::rbs::ast::{MethodType, RType};
use crate::rules::def::signed::{signed_defs, SignedDef};
use crate::rules::{Finding, RuleContext, RuleInfo};
use crate::syntax::start;

pub static RETURN_WIDENED: RuleInfo = RuleInfo {
    id: "def.override-return-widened",
    aliases: &["override-return-widened"],
    summary: "An override whose RBS return type is wider than the parent's: callers relying on the parent's promise may get something else.",
    fires_when: &[
        "the signatures declare the method with one overload on the class of a `def` here and on an ancestor class",
        "both return plain classes and the override's is not the parent's nor a descendant of it; reported at the def's name",
    ],
    does_not_fire_when: &[
        "either side has several overloads, or returns anything but a plain class (unions, generics' variables, `self`, `void`)",
        "the classes' relation is unknown, or the method has no RBS declaration on one side",
    ],
    example: "# sig: class P\n#   def m: () -> Integer\n# class C < P\n#   def m: () -> Numeric\nclass C < P\n  def m = 1\nend",
    authored: Severity::Warning,
    by_profile: [None, Some(Severity::Warning), Some(Severity::Error)],
    evidence: EvidenceTier::High,
    since: "0.1.0",
    check: check_returns,
};

pub static PARAM_NARROWED: RuleInfo = RuleInfo {
    id: "def.override-param-narrowed",
    aliases: &["override-param-narrowed"],
    summary: "An override whose RBS parameter type is narrower than the parent's: callers passing what the parent accepts may be refused.",
    fires_when: &[
        "the signatures declare the method with one overload on the class of a `def` here and on an ancestor class",
        "at some required positional parameter both name plain classes and the parent's is not the override's nor a descendant of it; reported at the def's name",
    ],
    does_not_fire_when: &[
        "either side has several overloads, or the parameter is anything but a plain class",
        "the classes' relation is unknown, or the parameter counts differ",
    ],
    example: "# sig: class P\n#   def k: (Numeric) -> void\n# class C < P\n#   def k: (Integer) -> void\nclass C < P\n  def k(x) = x\nend",
    authored: Severity::Warning,
    by_profile: [None, Some(Severity::Warning), Some(Severity::Error)],
    evidence: EvidenceTier::High,
    since: "0.1.0",
    check: check_params,
};

/// The parent's single overload of the same method, from the nearest
/// ancestor class that declares it.
fn parent_overload<'c>(cx: &'c RuleContext<'_, '_>, signed: &SignedDef<'c>) -> Option<(String, &'c MethodType)> {
    if signed.side != Side::Instance || signed.overloads.len() != 1 {
        return None;
    }
    let ancestors = cx.env.ancestors(&signed.class);
    for ancestor in ancestors.iter().skip(1) {
        let decl = cx.env.class(&ancestor.name)?;
        if let Some(overloads) = decl.instance_methods.get(&signed.method) {
            return match overloads.as_slice() {
                [only] => Some((ancestor.name.to_string(), only)),
                _ => None,
            };
        }
    }
    None
}

fn plain_class(ty: &RType) -> Option<&str> {
    match ty {
        RType::Class { name, args } if args.is_empty() => Some(name),
        _ => None,
    }
}

fn check_returns(cx: &RuleContext<'_, '_>, out: &mut Vec<Finding>) {
    for signed in signed_defs(cx) {
        let Some((parent, overload)) = parent_overload(cx, &signed) else { continue };
        let (Some(child), Some(promised)) =
            (plain_class(&signed.overloads[0].function.returns), plain_class(&overload.function.returns))
        else {
            continue;
        };
        if cx.inference().relation(child, promised) == Relation::IsNot {
            out.push(Finding::new(
                &RETURN_WIDENED,
                start(&signed.def.name_loc()),
                format!("{}#{} returns {child}, wider than {parent}'s {promised}", signed.class, signed.method),
            ));
        }
    }
}

fn check_params(cx: &RuleContext<'_, '_>, out: &mut Vec<Finding>) {
    for signed in signed_defs(cx) {
        let Some((parent, overload)) = parent_overload(cx, &signed) else { continue };
        let (mine, theirs) = (&signed.overloads[0].function.required, &overload.function.required);
        if mine.len() != theirs.len() {
            continue;
        }
        let narrowed = mine.iter().zip(theirs).position(|(own, inherited)| {
            let (Some(own), Some(inherited)) = (plain_class(own), plain_class(inherited)) else { return false };
            cx.inference().relation(inherited, own) == Relation::IsNot
        });
        if let Some(index) = narrowed {
            out.push(Finding::new(
                &PARAM_NARROWED,
                start(&signed.def.name_loc()),
                format!(
                    "{}#{} narrows parameter {} from {parent}'s {}",
                    signed.class,
                    signed.method,
                    index + 1,
                    plain_class(&theirs[index]).unwrap_or("?")
                ),
            ));
        }
    }
}
