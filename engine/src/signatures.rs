//! The signatures a command types code against: the rbs gem's core and
//! its default standard libraries, the project's `sig/`, and the
//! configuration's `signature_paths` and `libraries`. Problems are
//! reported once per command.

use std::path::Path;
use std::sync::Arc;

use crate::config::Config;
use crate::rbs::{self, Signatures};

/// The rbs gem's standard-library signature sets loaded for every project
/// (`data/default_libraries.txt`, which `scripts/rbs-core-gaps` reads too).
pub fn default_libraries() -> impl Iterator<Item = &'static str> {
    const LISTED: &str = include_str!("../data/default_libraries.txt");
    LISTED.lines().map(str::trim).filter(|line| !line.is_empty() && !line.starts_with('#'))
}

/// Every standard-library set a command loads: the defaults, then the
/// configuration's others.
pub fn libraries(config: &Config) -> Vec<String> {
    let mut all: Vec<String> = default_libraries().map(str::to_string).collect();
    for library in &config.libraries {
        if !all.contains(library) {
            all.push(library.clone());
        }
    }
    all
}

/// What every command loads: the core and the default libraries.
pub fn request() -> rbs::Request {
    rbs::Request { default_libraries: default_libraries().map(str::to_string).collect(), ..rbs::Request::default() }
}

pub struct ProjectSignatures {
    pub signatures: Arc<Signatures>,
    /// Everything worth saying once: no rbs gem, broken `.rbs` files,
    /// signature paths that do not exist.
    pub warnings: Vec<String>,
}

pub fn load(config: &Config, cwd: &Path) -> ProjectSignatures {
    let mut directories = Vec::new();
    let mut warnings = Vec::new();
    let project = cwd.join("sig");
    if project.is_dir() {
        directories.push(project);
    }
    for path in &config.signature_paths {
        if path.is_dir() {
            directories.push(path.clone());
        } else {
            warnings.push(format!("signature_paths: {} is not a directory", path.display()));
        }
    }
    let signatures = rbs::load(&rbs::Request { directories, libraries: config.libraries.clone(), ..request() });
    let mut all = signatures.warnings.clone();
    all.extend(warnings);
    ProjectSignatures { signatures, warnings: all }
}
