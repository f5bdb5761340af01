//! What `check` reports: one diagnostic per finding, in the reference's JSON shape.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EvidenceTier {
    High,
    Medium,
    Low,
}

/// One reported problem. Field order is the reference's JSON key order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Diagnostic {
    pub path: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based byte column.
    pub column: usize,
    pub severity: Severity,
    /// `None` for parse errors and unreadable files.
    pub rule: Option<&'static str>,
    pub source_family: &'static str,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub receiver_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence_tier: Option<EvidenceTier>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub documentation_url: Option<String>,
}

impl Diagnostic {
    /// A diagnostic that belongs to no rule: a parse error, an unreadable file.
    pub fn without_rule(path: &str, line: usize, column: usize, message: String) -> Self {
        Diagnostic {
            path: path.to_string(),
            line,
            column,
            severity: Severity::Error,
            rule: None,
            source_family: "builtin",
            message,
            receiver_type: None,
            method_name: None,
            evidence_tier: None,
            documentation_url: None,
        }
    }

    /// Order within one file: by position, then rule id, then message.
    pub fn position_key(&self) -> (usize, usize, &str, &str) {
        (self.line, self.column, self.rule.unwrap_or(""), &self.message)
    }
}
