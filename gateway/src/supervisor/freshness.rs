//! Is the running worker built from the current code? Bookkeeping of
//! fingerprints: what the last successful build saw, what the running
//! worker was started from, and which states are known to fail (so they
//! are not retried until something changes again).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::reload::watcher::LastEvent;
use crate::reload::{BuildCommand, BuildFailure, Fingerprint};

/// Longest wait for a burst of file events to settle before rebuilding.
const LONGEST_SETTLE: Duration = Duration::from_secs(1);
/// Events this recent mean a burst may still be under way.
const SETTLE_QUIET: Duration = Duration::from_millis(20);

/// The code a worker runs: watched sources and the engine executable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CodeState {
    pub sources: Fingerprint,
    pub engine: Fingerprint,
}

#[derive(Default)]
pub struct Freshness {
    pub enabled: bool,
    pub watch: Vec<PathBuf>,
    pub build: Option<BuildCommand>,
    pub last_event: Option<LastEvent>,
    /// Sources of the last successful build.
    pub built: Option<Fingerprint>,
    /// The last build failed for these sources.
    pub build_failed: Option<(Fingerprint, BuildFailure)>,
    /// What the running worker was started from.
    pub serving: Option<CodeState>,
    /// A worker started from this code failed to start.
    pub start_failed: Option<(CodeState, String)>,
}

/// What `check` found.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    Current,
    /// Sources changed: build (if there is a build step), then restart.
    Rebuild,
    /// The engine (or unbuilt sources) changed: restart.
    Restart,
}

impl Freshness {
    pub fn sources(&self) -> Fingerprint {
        Fingerprint::of(&self.watch)
    }

    pub fn code(&self, engine: Option<&PathBuf>) -> CodeState {
        CodeState { sources: self.sources(), engine: Fingerprint::of(engine.map(std::slice::from_ref).unwrap_or(&[])) }
    }

    pub fn check(&self, now: CodeState) -> Verdict {
        if !self.enabled {
            return Verdict::Current;
        }
        if self.build.is_some() {
            let known_broken = self.build_failed.as_ref().is_some_and(|(fp, _)| *fp == now.sources);
            if self.built != Some(now.sources) && !known_broken {
                return Verdict::Rebuild;
            }
        }
        let Some(target) = self.target(now) else { return Verdict::Current };
        let failed_before = self.start_failed.as_ref().is_some_and(|(code, _)| *code == target);
        if self.serving == Some(target) || failed_before {
            Verdict::Current
        } else {
            Verdict::Restart
        }
    }

    /// The code a worker should run now: with a build step, the sources of
    /// the last successful build (never sources that failed to build);
    /// `None` if nothing was ever built.
    pub fn target(&self, now: CodeState) -> Option<CodeState> {
        match self.build {
            Some(_) => self.built.map(|sources| CodeState { sources, engine: now.engine }),
            None => Some(now),
        }
    }

    /// Waits while file events are still arriving (a save in progress, a
    /// checkout), so one burst gives one rebuild.
    pub async fn settle(&self) {
        let Some(last_event) = &self.last_event else { return };
        let started = Instant::now();
        while let Some(at) = last_event.get() {
            let since = at.elapsed();
            if since >= SETTLE_QUIET || started.elapsed() >= LONGEST_SETTLE {
                return;
            }
            tokio::time::sleep(SETTLE_QUIET - since).await;
        }
    }

    /// What every answer must say while the code it runs is not the latest.
    pub fn notice(&self) -> Option<String> {
        if let Some((_, failure)) = &self.build_failed {
            return Some(format!(
                "The engine's rebuild failed, so this answer comes from the last good build. First error: {failure}. Fix it and call again."
            ));
        }
        self.start_failed.as_ref().filter(|_| self.serving.is_some()).map(|(_, reason)| {
            format!("The rebuilt engine failed to start ({reason}), so this answer comes from the previous worker.")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fp(paths: &[PathBuf]) -> Fingerprint {
        Fingerprint::of(paths)
    }

    #[test]
    fn verdicts_follow_the_bookkeeping() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("src.rb");
        std::fs::write(&src, "1").unwrap();
        let engine = dir.path().join("engine");
        std::fs::write(&engine, "bin").unwrap();
        let build =
            BuildCommand { shell: "true".into(), directory: dir.path().into(), timeout: Duration::from_secs(5) };
        let mut freshness =
            Freshness { enabled: true, watch: vec![src.clone()], build: Some(build), ..Freshness::default() };
        let now = freshness.code(Some(&engine));
        assert_eq!(freshness.check(now), Verdict::Rebuild, "never built");
        freshness.built = Some(now.sources);
        assert_eq!(freshness.check(now), Verdict::Restart, "built, no worker yet");
        freshness.serving = Some(now);
        assert_eq!(freshness.check(now), Verdict::Current);

        std::fs::write(&src, "22").unwrap();
        let edited = freshness.code(Some(&engine));
        assert_eq!(freshness.check(edited), Verdict::Rebuild);
        let failure = BuildFailure { first_error: "src.rb:1: boom".into(), how: "exit 1".into() };
        freshness.build_failed = Some((edited.sources, failure));
        assert_eq!(freshness.check(edited), Verdict::Current, "a known-broken state is neither rebuilt nor restarted");

        assert!(freshness.notice().unwrap().contains("src.rb:1: boom"));

        std::fs::write(&engine, "new binary").unwrap();
        let relinked = CodeState { sources: edited.sources, engine: fp(std::slice::from_ref(&engine)) };
        assert_eq!(freshness.check(relinked), Verdict::Restart, "a new engine executable is picked up");
        assert_eq!(freshness.target(relinked).unwrap().sources, now.sources, "but built from the last good sources");

        freshness.enabled = false;
        assert_eq!(freshness.check(edited), Verdict::Current, "--no-reload");
    }
}
