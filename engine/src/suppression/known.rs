//! Which suppression tokens name something: a rule this engine implements,
//! or any rule of Rigor's reference catalogue (so a marker written for a
//! rule another engine reports, or a later version adds, is not a typo).

use crate::rules;

/// Rule ids of the reference catalogue.
const REFERENCE_IDS: &[&str] = &[
    "assert.type-mismatch",
    "call.argument-type-mismatch",
    "call.possible-nil-receiver",
    "call.raise-non-exception",
    "call.self-undefined-method",
    "call.undefined-method",
    "call.unresolved-toplevel",
    "call.wrong-arity",
    "def.ivar-write-mismatch",
    "def.method-visibility-mismatch",
    "def.override-param-narrowed",
    "def.override-return-widened",
    "def.override-visibility-reduced",
    "def.return-type-mismatch",
    "dump.type",
    "effect.envelope-exceeded",
    "flow.always-raises",
    "flow.always-truthy-condition",
    "flow.dead-assignment",
    "flow.duplicate-hash-key",
    "flow.return-in-ensure",
    "flow.shadowed-rescue-clause",
    "flow.unreachable-branch",
    "flow.unreachable-clause",
    "static.value-use.void",
    "suppression.empty",
    "suppression.unknown-marker",
    "suppression.unknown-rule",
];

/// Legacy aliases that are not simply the id without its family.
const SPECIAL_ALIASES: &[&str] = &["assert-type", "dump-type"];

/// Does `token` name a rule, alias or family, or everything?
pub fn is_known(token: &str) -> bool {
    token == "all"
        || token.starts_with("plugin.")
        || !rules::matching(token).is_empty()
        || SPECIAL_ALIASES.contains(&token)
        || REFERENCE_IDS.iter().any(|id| {
            let (family, rest) = id.split_once('.').unwrap_or((id, ""));
            token == *id || token == family || token == rest
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_aliases_families_and_plugins_are_known() {
        for token in [
            "all",
            "flow.dead-assignment",
            "dead-assignment",
            "flow",
            "call.undefined-method",
            "undefined-method",
            "call",
            "effect",
            "assert-type",
            "suppression.unknown-rule",
            "plugin.rails.anything",
        ] {
            assert!(is_known(token), "{token}");
        }
        for token in ["call.undefined-metod", "flw", "plugin", "All", "unknown", "flow."] {
            assert!(!is_known(token), "{token}");
        }
    }
}
