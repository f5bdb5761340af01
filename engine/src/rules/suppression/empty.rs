use crate::diagnostic::{EvidenceTier, Severity};
use crate::rules::{Finding, RuleContext, RuleInfo};
use crate::suppression::Marker;

pub static RULE: RuleInfo = RuleInfo {
    id: "suppression.empty",
    aliases: &[],
    summary: "A suppression marker lists no rules, so it suppresses nothing.",
    fires_when: &["a `# rigor:disable` or `# rigor:disable-file` comment has nothing after it but blanks or commas"],
    does_not_fire_when: &[
        "the marker names at least one token (`all` silences every rule)",
        "the marker word runs into prose (`# rigor:disable: how to silence a rule`)",
    ],
    example: "x = 1 # rigor:disable",
    authored: Severity::Warning,
    by_profile: super::EVERY_PROFILE,
    evidence: EvidenceTier::High,
    since: "0.1.0",
    check,
};

fn check(context: &RuleContext<'_, '_>, out: &mut Vec<Finding>) {
    for placed in context.markers() {
        if let Marker::Line(tokens) | Marker::File(tokens) = &placed.marker {
            if tokens.is_empty() {
                let spelling = placed.marker.spelling();
                out.push(Finding::new(
                    &RULE,
                    placed.offset,
                    format!("`# {spelling}` lists no rules, so it suppresses nothing; name them (`# {spelling} flow.dead-assignment`) or write `all`"),
                ));
            }
        }
    }
}
