//! The rule catalogue: what each rule is, how severe it is under each
//! profile, and the function that finds its violations in one parsed file.

pub mod assert;
pub mod call;
pub mod context;
pub mod def;
pub mod dump;
pub mod flow;
pub mod hazards;
pub mod project;
pub mod requires;
pub mod static_rules;
pub mod suppression;

pub use context::RuleContext;

use crate::diagnostic::{EvidenceTier, Severity};

/// A rule's raw result: where and what, before severity and path are applied.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    pub rule: &'static RuleInfo,
    /// Byte offset of the anchor (for call rules: the method-name token).
    pub offset: usize,
    pub message: String,
    pub receiver_type: Option<String>,
    pub method_name: Option<String>,
}

impl Finding {
    pub fn new(rule: &'static RuleInfo, offset: usize, message: impl Into<String>) -> Self {
        Finding { rule, offset, message: message.into(), receiver_type: None, method_name: None }
    }

    pub fn on_call(mut self, receiver_type: &str, method_name: &str) -> Self {
        self.receiver_type = Some(receiver_type.to_string());
        self.method_name = Some(method_name.to_string());
        self
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Profile {
    Lenient,
    #[default]
    Balanced,
    Strict,
}

impl Profile {
    pub fn parse(name: &str) -> Option<Profile> {
        match name {
            "lenient" => Some(Profile::Lenient),
            "balanced" => Some(Profile::Balanced),
            "strict" => Some(Profile::Strict),
            _ => None,
        }
    }
}

/// Severity under one profile; `None` means the rule is off.
pub type ProfileSeverity = Option<Severity>;

pub struct RuleInfo {
    pub id: &'static str,
    pub aliases: &'static [&'static str],
    pub summary: &'static str,
    pub fires_when: &'static [&'static str],
    pub does_not_fire_when: &'static [&'static str],
    pub example: &'static str,
    pub authored: Severity,
    /// Lenient, balanced, strict.
    pub by_profile: [ProfileSeverity; 3],
    pub evidence: EvidenceTier,
    pub since: &'static str,
    pub check: fn(&RuleContext<'_, '_>, &mut Vec<Finding>),
}

impl std::fmt::Debug for RuleInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id)
    }
}

impl PartialEq for RuleInfo {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl RuleInfo {
    pub fn family(&self) -> &'static str {
        self.id.split('.').next().unwrap_or(self.id)
    }

    pub fn severity(&self, profile: Profile) -> ProfileSeverity {
        self.by_profile[match profile {
            Profile::Lenient => 0,
            Profile::Balanced => 1,
            Profile::Strict => 2,
        }]
    }

    pub fn documentation_url(&self) -> String {
        format!(
            "https://github.com/rigortype/rigor/blob/main/docs/manual/04-diagnostics.md#rule-{}",
            self.id.replace('.', "-")
        )
    }

    /// Does a suppression or explain token (id, alias, family or `all`) name this rule?
    pub fn matches_token(&self, token: &str) -> bool {
        token == "all" || token == self.id || token == self.family() || self.aliases.contains(&token)
    }
}

/// Every rule this engine implements, sorted by id.
pub fn all() -> &'static [&'static RuleInfo] {
    static RULES: &[&RuleInfo] = &[
        &assert::type_mismatch::RULE,
        &call::argument_type_mismatch::RULE,
        &call::possible_nil_receiver::RULE,
        &call::raise_non_exception::RULE,
        &call::self_undefined_method::RULE,
        &call::undefined_method::RULE,
        &call::unresolved_toplevel::RULE,
        &call::wrong_arity::RULE,
        &def::ivar_write_mismatch::RULE,
        &def::method_visibility_mismatch::RULE,
        &def::overrides::PARAM_NARROWED,
        &def::overrides::RETURN_WIDENED,
        &def::override_visibility_reduced::RULE,
        &def::return_type_mismatch::RULE,
        &dump::type_of::RULE,
        &flow::always_raises::RULE,
        &flow::always_truthy_condition::RULE,
        &flow::dead_assignment::RULE,
        &flow::duplicate_hash_key::RULE,
        &flow::return_in_ensure::RULE,
        &flow::shadowed_rescue_clause::RULE,
        &flow::unreachable_branch::RULE,
        &flow::unreachable_clause::RULE,
        &static_rules::value_use_void::RULE,
        &suppression::empty::RULE,
        &suppression::unknown_marker::RULE,
        &suppression::unknown_rule::RULE,
    ];
    RULES
}

/// Rules that run only when `bleeding_edge` names them (off otherwise,
/// whatever the profile).
const BLEEDING_EDGE: &[&str] = &["static.value-use.void"];

pub fn is_bleeding_edge(rule: &RuleInfo) -> bool {
    BLEEDING_EDGE.contains(&rule.id)
}

/// Rules named by a token; empty when the token names nothing.
pub fn matching(token: &str) -> Vec<&'static RuleInfo> {
    all().iter().copied().filter(|rule| rule.matches_token(token)).collect()
}

pub fn families() -> Vec<&'static str> {
    let mut families: Vec<_> = all().iter().map(|rule| rule.family()).collect();
    families.dedup();
    families
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogue_is_sorted_unique_and_every_alias_is_unambiguous() {
        let ids: Vec<_> = all().iter().map(|r| r.id).collect();
        let mut sorted = ids.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(ids, sorted);
        for rule in all() {
            for alias in rule.aliases {
                assert_eq!(matching(alias).len(), 1, "alias {alias} names more than one rule");
            }
            assert!(!rule.fires_when.is_empty() && !rule.does_not_fire_when.is_empty());
        }
    }

    #[test]
    fn documentation_url_uses_dashes() {
        assert!(flow::dead_assignment::RULE.documentation_url().ends_with("#rule-flow-dead-assignment"));
    }
}
