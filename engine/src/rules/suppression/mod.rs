//! `suppression.*`: markers that silently suppress nothing. They report
//! like any rule, so a marker can acknowledge its own complaint
//! (`# rigor:disable call.bogus suppression.unknown-rule`).

pub mod empty;
pub mod unknown_marker;
pub mod unknown_rule;

use crate::diagnostic::Severity;
use crate::rules::ProfileSeverity;

/// A marker that does nothing is as wrong under every profile.
const EVERY_PROFILE: [ProfileSeverity; 3] = [Some(Severity::Warning), Some(Severity::Warning), Some(Severity::Warning)];
