//! Hot reload: an edit to the engine takes effect on the very next call.
//! Before each call (and at each debounced file event) the supervisor
//! compares a fingerprint of the watched files; on a change it runs the
//! build, if any, and replaces the worker with one built from the change.

pub mod build;
pub mod dev;
pub mod fingerprint;
pub mod watcher;

use std::path::PathBuf;

pub use build::{BuildCommand, BuildFailure};
pub use fingerprint::Fingerprint;

/// What to watch and how to rebuild.
#[derive(Debug, Clone, Default)]
pub struct ReloadConfig {
    /// Files and directories whose change means "new engine code".
    pub watch: Vec<PathBuf>,
    /// Run before restarting; the old worker keeps serving if it fails.
    pub build: Option<BuildCommand>,
}
