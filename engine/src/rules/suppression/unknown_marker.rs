use crate::diagnostic::{EvidenceTier, Severity};
use crate::rules::{Finding, RuleContext, RuleInfo};
use crate::suppression::Marker;

pub static RULE: RuleInfo = RuleInfo {
    id: "suppression.unknown-marker",
    aliases: &[],
    summary: "A comment looks like a suppression marker Rigor does not have (`rigor:disable-next-line`, `rigor:enable`), so it suppresses nothing.",
    fires_when: &[
        "a comment says `rigor:disable-<word>` with a word other than `file`, or `rigor:enable` / `rigor:enable-<word>`",
        "followed by nothing or by a rule list",
    ],
    does_not_fire_when: &[
        "the marker is `# rigor:disable` (its own line) or `# rigor:disable-file`",
        "the words are part of prose (`# rigor:enable `<rule>` is not supported`)",
    ],
    example: "x = 1 # rigor:disable-next-line flow",
    authored: Severity::Warning,
    by_profile: super::EVERY_PROFILE,
    evidence: EvidenceTier::High,
    since: "0.1.0",
    check,
};

fn check(context: &RuleContext<'_, '_>, out: &mut Vec<Finding>) {
    for placed in context.markers() {
        if let Marker::Unknown(word) = &placed.marker {
            out.push(Finding::new(
                &RULE,
                placed.offset,
                format!("`rigor:{word}` is not a Rigor marker, so this comment suppresses nothing; use `# rigor:disable <rules>` on the line itself or `# rigor:disable-file <rules>`"),
            ));
        }
    }
}
