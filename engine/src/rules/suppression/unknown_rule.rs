use crate::diagnostic::{EvidenceTier, Severity};
use crate::rules::{Finding, RuleContext, RuleInfo};
use crate::suppression::{known, Marker};

pub static RULE: RuleInfo = RuleInfo {
    id: "suppression.unknown-rule",
    aliases: &[],
    summary: "A suppression marker names a rule that does not exist, so it suppresses nothing (usually a typo).",
    fires_when: &[
        "a `# rigor:disable` or `# rigor:disable-file` token is not a rule id, legacy alias, family or `all`",
        "one diagnostic per unknown token, at the comment",
    ],
    does_not_fire_when: &[
        "the token names any rule of Rigor's catalogue, even one this engine does not implement",
        "the token starts with `plugin.` (plugin rules are not known here)",
        "the marker suppresses this rule itself on its line (`# rigor:disable call.bogus suppression.unknown-rule`)",
    ],
    example: "x = 1 # rigor:disable flow.dead-asignment",
    authored: Severity::Warning,
    by_profile: super::EVERY_PROFILE,
    evidence: EvidenceTier::High,
    since: "0.1.0",
    check,
};

fn check(context: &RuleContext<'_, '_>, out: &mut Vec<Finding>) {
    for placed in context.markers() {
        let (Marker::Line(tokens) | Marker::File(tokens)) = &placed.marker else { continue };
        for token in tokens.iter().filter(|token| !known::is_known(token)) {
            out.push(Finding::new(
                &RULE,
                placed.offset,
                format!(
                    "`{token}` in `# {}` names no rule, alias or family, so it suppresses nothing (`rigor explain` lists the rules)",
                    placed.marker.spelling()
                ),
            ));
        }
    }
}
