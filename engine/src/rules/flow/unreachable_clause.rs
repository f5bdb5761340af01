use crate::diagnostic::{EvidenceTier, Severity};
use crate::infer::Relation;
use crate::rules::{Finding, RuleContext, RuleInfo};
use crate::syntax::constant_path_text;
use crate::syntax::start;
use crate::types::display;

pub static RULE: RuleInfo = RuleInfo {
    id: "flow.unreachable-clause",
    aliases: &["unreachable-clause"],
    summary: "A `when` clause of `case local` that can never match: the local's class and the clause's class are unrelated.",
    fires_when: &[
        "the subject of `case` is a local variable typed as one signature class (a literal, or an instance)",
        "every value a `when` lists is a signature class that is neither the local's class, an ancestor of it, nor a descendant of it",
    ],
    does_not_fire_when: &[
        "the subject is not a local, or its type is a union, untyped, or a project class",
        "a `when` value is not a constant naming a signature class (a range, a regexp, a splat, a lambda, a project class)",
        "either class is a module (any class may include it)",
    ],
    example: "v = 5\ncase v\nwhen String then 1\nend",
    authored: Severity::Warning,
    by_profile: [Some(Severity::Info), Some(Severity::Info), Some(Severity::Warning)],
    evidence: EvidenceTier::Medium,
    since: "0.1.0",
    check,
};

fn check(cx: &RuleContext<'_, '_>, out: &mut Vec<Finding>) {
    for node in cx.nodes() {
        let Some(case) = node.as_case_node() else { continue };
        let Some(subject) = case.predicate() else { continue };
        if subject.as_local_variable_read_node().is_none() {
            continue;
        }
        let Some(ty) = cx.type_of(&subject) else { continue };
        let Some(class) = ty.class_name() else { continue };
        if !cx.env.has_class(class) || cx.env.is_module(class) || cx.project.opens(class) {
            continue;
        }
        for condition in case.conditions().iter() {
            let Some(when) = condition.as_when_node() else { continue };
            let unrelated = when.conditions().iter().all(|value| {
                let Some(written) = constant_path_text(&value) else { return false };
                let other = written.trim_start_matches("::");
                cx.env.has_class(other)
                    && !cx.env.is_module(other)
                    && !cx.project.opens(other)
                    && cx.inference().relation(class, other) == Relation::IsNot
                    && cx.inference().relation(other, class) == Relation::IsNot
            });
            if unrelated && !when.conditions().is_empty() {
                out.push(Finding::new(
                    &RULE,
                    start(&when.location()),
                    format!("this clause can never match: the subject is {}", display(ty)),
                ));
            }
        }
    }
}
