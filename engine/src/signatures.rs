//! The signatures a command types code against: the rbs gem's core, the
//! project's `sig/`, and the configuration's `signature_paths` and
//! `libraries`. Problems are reported once per command.

use std::path::Path;
use std::sync::Arc;

use crate::config::Config;
use crate::rbs::{self, Signatures};

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
    let signatures = rbs::load(&rbs::Request { directories, libraries: config.libraries.clone() });
    let mut all = signatures.warnings.clone();
    all.extend(warnings);
    ProjectSignatures { signatures, warnings: all }
}
