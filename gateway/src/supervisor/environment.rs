//! The worker's environment: a small allowlist, every variable with the
//! engine's prefix (`RIGOR_*` unless its hello says otherwise), and what
//! the user asks for with `--pass-env`. Not everything the
//! gateway inherited from the IDE (tokens, credentials, unrelated config).

use std::ffi::OsString;

/// Variables a well-behaved program needs to run and print sensibly.
pub const ALLOWED: &[&str] =
    &["PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG", "LANGUAGE", "TZ", "TMPDIR", "RUST_BACKTRACE"];

#[derive(Debug, Clone, Default)]
pub struct WorkerEnvironment {
    /// Extra variable names to pass (`--pass-env NAME`).
    pub pass: Vec<String>,
}

impl WorkerEnvironment {
    /// Whether a variable of the gateway's environment reaches the worker.
    pub fn allows(&self, name: &str, prefix: &str) -> bool {
        ALLOWED.contains(&name)
            || name.starts_with("LC_")
            || name.starts_with(prefix)
            || self.pass.iter().any(|p| p == name)
    }

    /// The worker's variables, from the gateway's current environment.
    pub fn resolve(&self, prefix: &str) -> Vec<(OsString, OsString)> {
        std::env::vars_os().filter(|(name, _)| name.to_str().is_some_and(|name| self.allows(name, prefix))).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_allowlist_rigor_variables_and_passed_names_get_through() {
        let environment = WorkerEnvironment { pass: vec!["BUNDLE_GEMFILE".into()] };
        for name in ["PATH", "HOME", "LC_ALL", "RIGOR_FAILPOINT", "RIGOR_RBS_PATH", "BUNDLE_GEMFILE"] {
            assert!(environment.allows(name, "RIGOR_"), "{name}");
        }
        for name in ["AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN", "RUST_LOG", "rigor_lower", "LD_PRELOAD"] {
            assert!(!environment.allows(name, "RIGOR_"), "{name}");
        }
        assert!(environment.allows("FAKE_X", "FAKE_") && !environment.allows("RIGOR_FAILPOINT", "FAKE_"));
    }
}
