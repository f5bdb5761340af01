use ruby_prism::Node;

use crate::diagnostic::{EvidenceTier, Severity};
use crate::infer::Relation;
use crate::rules::{Finding, RuleContext, RuleInfo};
use crate::syntax::constant_path_text;
use crate::syntax::start;
use crate::types::Type;

pub static RULE: RuleInfo = RuleInfo {
    id: "flow.shadowed-rescue-clause",
    aliases: &["shadowed-rescue-clause"],
    summary: "A `rescue` clause that can never run: every exception class it names is already caught by an earlier clause of the same `begin`.",
    fires_when: &[
        "each class a later `rescue` names is an earlier clause's class or a descendant of one (a bare `rescue` catches StandardError)",
    ],
    does_not_fire_when: &[
        "a class the later clause names is unknown (not in the signatures or this file), computed, or splatted (`rescue *ERRORS`)",
        "a name is the project's own class where it is written (`class Config; class KeyError < StandardError; end`: `rescue KeyError` there is `Config::KeyError`, no IndexError)",
        "the later clause catches something the earlier ones do not (`rescue ArgumentError` then `rescue StandardError`)",
    ],
    example: "begin\n  work\nrescue StandardError\n  1\nrescue ArgumentError\n  2\nend",
    authored: Severity::Warning,
    by_profile: [Some(Severity::Info), Some(Severity::Warning), Some(Severity::Error)],
    evidence: EvidenceTier::High,
    since: "0.1.0",
    check,
};

fn check(cx: &RuleContext<'_, '_>, out: &mut Vec<Finding>) {
    for node in cx.nodes() {
        let Some(begin) = node.as_begin_node() else { continue };
        let mut caught: Vec<String> = Vec::new();
        let mut clause = begin.rescue_clause();
        while let Some(rescue) = clause {
            clause = rescue.subsequent();
            let Some(names) = rescued_classes(cx, &rescue.exceptions().iter().collect::<Vec<_>>()) else {
                // Something unknown is caught here: it is judged by no
                // later clause, and judged itself by nothing.
                continue;
            };
            let shadowed = names.iter().all(|name| caught.iter().any(|earlier| is_a(cx, name, earlier)));
            if shadowed && !caught.is_empty() {
                out.push(Finding::new(
                    &RULE,
                    start(&rescue.keyword_loc()),
                    format!("this rescue of {} can never run: an earlier clause catches it", names.join(", ")),
                ));
            }
            caught.extend(names);
        }
    }
}

/// The classes a clause names, as the constants resolve where they are
/// written (`KeyError` inside `class Config` may be `Config::KeyError`);
/// a bare `rescue` is StandardError. `None` when one is not a constant
/// naming one known class.
fn rescued_classes(cx: &RuleContext<'_, '_>, exceptions: &[Node<'_>]) -> Option<Vec<String>> {
    if exceptions.is_empty() {
        return Some(vec!["StandardError".to_string()]);
    }
    exceptions
        .iter()
        .map(|e| {
            constant_path_text(e)?;
            match cx.type_of(e)? {
                Type::Singleton(class) => Some(class.to_string()),
                _ => None,
            }
        })
        .collect()
}

/// Is `class` surely `ancestor` or a descendant of it? Both must be known.
fn is_a(cx: &RuleContext<'_, '_>, class: &str, ancestor: &str) -> bool {
    if class == ancestor {
        return true;
    }
    let known = |name: &str| cx.env.has_class(name);
    known(class) && known(ancestor) && cx.inference().relation(class, ancestor) == Relation::Is
}
