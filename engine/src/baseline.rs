//! Baselines: the findings a project already has, recorded so `check`
//! reports only new ones. The file is the reference's `.rigor-baseline.yml`:
//!
//! ```yaml
//! version: 1
//! ignored:
//! - file: lib/user.rb
//!   rule: call.undefined-method
//!   count: 3
//! - file: lib/sig.rb            # a message row: only messages matching
//!   rule: call.undefined-method #   the regular expression count
//!   message: "undefined method `merge'"
//!   count: 1
//! ```
//!
//! Rows count findings per (file, rule[, message]) bucket, with no lines,
//! so moving code within a file keeps them valid. A bucket whose findings
//! number at most its count hides them all; one with more shows them all
//! (which of them is new cannot be told). Diagnostics without a rule
//! (parse errors) are never hidden.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

use regex::Regex;
use serde::{Deserialize, Serialize};

use crate::diagnostic::Diagnostic;

/// The baseline `check` reads from the project root when it exists.
pub const DEFAULT_FILE: &str = ".rigor-baseline.yml";
const VERSION: u64 = 1;

#[derive(Debug, Clone)]
pub struct Bucket {
    pub file: String,
    pub rule: String,
    /// A message row's regular expression (its source is kept for output).
    pub message: Option<Regex>,
    pub count: usize,
}

#[derive(Debug, Clone, Default)]
pub struct Baseline {
    pub buckets: Vec<Bucket>,
}

/// A bucket that holds fewer findings than it records: some were fixed,
/// and `--baseline-strict` asks for the baseline to be tightened.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Stale {
    pub file: String,
    pub rule: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    pub count: usize,
    pub actual: usize,
}

/// The outcome of applying a baseline.
#[derive(Debug)]
pub struct Filtered<'a> {
    /// What is still reported, in the order given.
    pub shown: Vec<&'a Diagnostic>,
    pub hidden: usize,
    pub stale: Vec<Stale>,
}

#[derive(Debug, thiserror::Error)]
#[error("{path}: {problem}")]
pub struct BaselineError {
    pub path: String,
    pub problem: String,
}

#[derive(Deserialize, Serialize)]
struct RawFile {
    version: Option<u64>,
    #[serde(default)]
    ignored: Vec<RawRow>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct RawRow {
    file: String,
    rule: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    count: i64,
}

impl Baseline {
    /// Reads a baseline file; `shown` names it in errors.
    pub fn load(path: &Path, shown: &str) -> Result<Baseline, BaselineError> {
        let fail = |problem: String| BaselineError { path: shown.to_string(), problem };
        let text = std::fs::read(path).map_err(|e| fail(crate::files::describe_io_error(&e)))?;
        Baseline::parse(&text).map_err(fail)
    }

    fn parse(text: &[u8]) -> Result<Baseline, String> {
        let raw: RawFile = serde_yaml_ng::from_slice(text).map_err(|e| e.to_string())?;
        if raw.version != Some(VERSION) {
            let found = raw.version.map_or("none".to_string(), |v| v.to_string());
            return Err(format!("unsupported `version: {found}` (expected {VERSION})"));
        }
        let buckets = raw.ignored.into_iter().enumerate().map(|(index, row)| {
            let count = usize::try_from(row.count)
                .ok()
                .filter(|&count| count > 0)
                .ok_or_else(|| format!("ignored[{index}]: `count` must be a positive integer, got {}", row.count))?;
            let message = row
                .message
                .map(|source| Regex::new(&source).map_err(|e| format!("ignored[{index}]: bad `message` pattern: {e}")))
                .transpose()?;
            Ok(Bucket { file: normalize(&row.file), rule: row.rule, message, count })
        });
        Ok(Baseline { buckets: buckets.collect::<Result<_, String>>()? })
    }

    /// One rule row per (file, rule) of `diagnostics`, in first-seen order.
    pub fn from_diagnostics(diagnostics: &[&Diagnostic]) -> Baseline {
        let mut buckets: Vec<Bucket> = Vec::new();
        let mut index: HashMap<(String, &str), usize> = HashMap::new();
        for d in diagnostics {
            let Some(rule) = d.rule else { continue };
            let file = normalize(&d.path);
            match index.get(&(file.clone(), rule)) {
                Some(&at) => buckets[at].count += 1,
                None => {
                    index.insert((file.clone(), rule), buckets.len());
                    buckets.push(Bucket { file, rule: rule.to_string(), message: None, count: 1 });
                }
            }
        }
        Baseline { buckets }
    }

    pub fn to_yaml(&self) -> String {
        let raw = RawFile {
            version: Some(VERSION),
            ignored: self
                .buckets
                .iter()
                .map(|b| RawRow {
                    file: b.file.clone(),
                    rule: b.rule.clone(),
                    message: b.message.as_ref().map(|m| m.as_str().to_string()),
                    count: b.count as i64,
                })
                .collect(),
        };
        serde_yaml_ng::to_string(&raw).expect("a baseline serializes")
    }

    pub fn total(&self) -> usize {
        self.buckets.iter().map(|b| b.count).sum()
    }

    /// Hides what the baseline covers. A finding belongs to the first
    /// message row of its (file, rule) whose pattern matches its message,
    /// else to the rule row. Only rows of `checked` files can be stale:
    /// checking part of a project says nothing of the rest.
    pub fn filter<'a>(&self, diagnostics: &[&'a Diagnostic], checked: &[String]) -> Filtered<'a> {
        let checked: std::collections::HashSet<String> = checked.iter().map(|path| normalize(path)).collect();
        let mut claimed: Vec<Option<usize>> = Vec::with_capacity(diagnostics.len());
        let mut actual = vec![0usize; self.buckets.len()];
        for d in diagnostics {
            let bucket = d.rule.and_then(|rule| self.claim(&normalize(&d.path), rule, &d.message));
            if let Some(at) = bucket {
                actual[at] += 1;
            }
            claimed.push(bucket);
        }
        let within = |at: usize| actual[at] <= self.buckets[at].count;
        let shown: Vec<&Diagnostic> = diagnostics
            .iter()
            .zip(&claimed)
            .filter(|(_, bucket)| !bucket.is_some_and(within))
            .map(|(d, _)| *d)
            .collect();
        let stale = self
            .buckets
            .iter()
            .zip(&actual)
            .filter(|(bucket, &actual)| actual < bucket.count && checked.contains(&bucket.file))
            .map(|(bucket, &actual)| Stale {
                file: bucket.file.clone(),
                rule: bucket.rule.clone(),
                message: bucket.message.as_ref().map(|m| m.as_str().to_string()),
                count: bucket.count,
                actual,
            })
            .collect();
        Filtered { hidden: diagnostics.len() - shown.len(), shown, stale }
    }

    fn claim(&self, file: &str, rule: &str, message: &str) -> Option<usize> {
        let mut rule_row = None;
        for (at, bucket) in self.buckets.iter().enumerate() {
            if bucket.file != file || bucket.rule != rule {
                continue;
            }
            match &bucket.message {
                Some(pattern) if pattern.is_match(message) => return Some(at),
                Some(_) => {}
                None => rule_row = rule_row.or(Some(at)),
            }
        }
        rule_row
    }
}

/// Where `check` finds the baseline.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    /// `--no-baseline` or `baseline: false`.
    Off,
    /// Named by `--baseline` (it must exist).
    Explicit(PathBuf),
    /// Named by the configuration's `baseline:`, or the default file in
    /// the root; used when it exists.
    IfPresent(PathBuf),
}

/// A project-relative path in one spelling: `./lib/a.rb` and `lib//a.rb`
/// are `lib/a.rb`, so a baseline matches however the paths were given.
pub fn normalize(path: &str) -> String {
    let parts: Vec<String> = Path::new(path)
        .components()
        .filter_map(|c| match c {
            Component::Normal(part) => Some(part.to_string_lossy().into_owned()),
            Component::ParentDir => Some("..".to_string()),
            Component::CurDir | Component::RootDir | Component::Prefix(_) => None,
        })
        .collect();
    let joined = parts.join("/");
    if path.starts_with('/') {
        format!("/{joined}")
    } else {
        joined
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Severity;

    fn diagnostic(path: &str, line: usize, rule: Option<&'static str>, message: &str) -> Diagnostic {
        let mut d = Diagnostic::without_rule(path, line, 1, message.to_string());
        d.rule = rule;
        d.severity = Severity::Error;
        d
    }

    #[test]
    fn generated_rows_round_trip_and_hide_moved_findings() {
        let before = [
            diagnostic("./lib/a.rb", 3, Some("call.undefined-method"), "undefined method `x'"),
            diagnostic("lib/a.rb", 9, Some("call.undefined-method"), "undefined method `y'"),
            diagnostic("lib/a.rb", 9, None, "syntax error"),
        ];
        let refs: Vec<&Diagnostic> = before.iter().collect();
        let yaml = Baseline::from_diagnostics(&refs).to_yaml();
        assert!(yaml.contains("version: 1"), "{yaml}");
        let baseline = Baseline::parse(yaml.as_bytes()).unwrap();
        assert_eq!(baseline.buckets.len(), 1);
        assert_eq!(baseline.total(), 2);
        // The same findings forty lines further down: still hidden.
        let moved = [
            diagnostic("lib/a.rb", 43, Some("call.undefined-method"), "undefined method `x'"),
            diagnostic("lib/a.rb", 49, Some("call.undefined-method"), "undefined method `y'"),
            diagnostic("lib/a.rb", 49, None, "syntax error"),
        ];
        let refs: Vec<&Diagnostic> = moved.iter().collect();
        let filtered = baseline.filter(&refs, &["lib/a.rb".into(), "b.rb".into()]);
        assert_eq!(filtered.hidden, 2);
        assert_eq!(filtered.shown.len(), 1, "parse errors are never hidden");
        assert!(filtered.stale.is_empty());
    }

    #[test]
    fn an_overfull_bucket_shows_all_and_an_underfull_one_is_stale() {
        let baseline = Baseline::parse(
            b"version: 1\nignored:\n- file: a.rb\n  rule: r.one\n  count: 1\n- file: b.rb\n  rule: r.one\n  count: 2\n",
        )
        .unwrap();
        let now = [
            diagnostic("a.rb", 1, Some("r.one"), "m"),
            diagnostic("a.rb", 2, Some("r.one"), "m"),
            diagnostic("b.rb", 1, Some("r.one"), "m"),
        ];
        let refs: Vec<&Diagnostic> = now.iter().collect();
        let filtered = baseline.filter(&refs, &["lib/a.rb".into(), "b.rb".into()]);
        assert_eq!(filtered.shown.len(), 2);
        assert_eq!(filtered.hidden, 1);
        assert_eq!(
            filtered.stale,
            [Stale { file: "b.rb".into(), rule: "r.one".into(), message: None, count: 2, actual: 1 }]
        );
    }

    #[test]
    fn message_rows_win_over_rule_rows() {
        let baseline = Baseline::parse(
            b"version: 1\nignored:\n- file: a.rb\n  rule: r\n  message: \"merge\"\n  count: 1\n- file: a.rb\n  rule: r\n  count: 1\n",
        )
        .unwrap();
        let now = [diagnostic("a.rb", 1, Some("r"), "no merge"), diagnostic("a.rb", 2, Some("r"), "other")];
        let refs: Vec<&Diagnostic> = now.iter().collect();
        assert_eq!(baseline.filter(&refs, &[]).hidden, 2);
    }

    #[test]
    fn bad_files_say_what_is_wrong() {
        for (text, fragment) in [
            (&b"ignored: []\n"[..], "version"),
            (b"version: 2\n", "version: 2"),
            (b"version: 1\nignored:\n- file: a.rb\n  rule: r\n  count: 0\n", "ignored[0]"),
            (b"version: 1\nignored:\n- file: a.rb\n  rule: r\n  message: \"(\"\n  count: 1\n", "pattern"),
            (b"version: 1\nignored: 3\n", "ignored"),
        ] {
            let error = Baseline::parse(text).unwrap_err();
            assert!(error.contains(fragment), "{error}");
        }
    }
}
