//! Type parameters as the signatures spell them (`[unchecked out Elem]`),
//! found by reading the RBS files that could declare the classes asked for.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::path::{Path, PathBuf};

use crate::config::Config;
use crate::types::Name;

use super::rbs_layout;

/// The `.rbs` files a command's signatures come from: the rbs gem's core
/// and standard libraries (default, requested and what they depend on),
/// the project's `sig/` and `signature_paths`.
pub fn signature_files(config: &Config, cwd: &Path) -> Vec<PathBuf> {
    crate::signatures::files(config, cwd)
}

/// The spelling of each wanted class's type parameters, from the first
/// declaration that writes them. Files are read only while some are missing.
pub fn type_params(wanted: &HashSet<Name>, files: &[PathBuf]) -> HashMap<Name, String> {
    let mut found = HashMap::default();
    for file in files {
        if found.len() == wanted.len() {
            break;
        }
        let Ok(text) = std::fs::read_to_string(file) else { continue };
        let Ok(decls) = rbs_layout::layout(&text) else { continue };
        for decl in decls {
            let name = Name::from(decl.name.as_str());
            if wanted.contains(&name) && !decl.type_params.is_empty() {
                found.entry(name).or_insert(decl.type_params);
            }
        }
    }
    found
}
