//! Type parameters as the signatures spell them (`[unchecked out Elem]`),
//! found by reading the RBS files that could declare the classes asked for.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::path::{Path, PathBuf};

use crate::config::Config;
use crate::rbs::locate;
use crate::types::Name;

use super::rbs_layout;

/// The `.rbs` files a command's signatures come from: the rbs gem's core
/// and standard libraries (default and requested), the project's `sig/` and `signature_paths`.
pub fn signature_files(config: &Config, cwd: &Path) -> Vec<PathBuf> {
    let mut directories = Vec::new();
    if let Ok(gem) = locate::rbs_gem() {
        directories.push(gem.join("core"));
        for library in crate::signatures::libraries(config) {
            if let Some(dir) = crate::rbs::library_directory(&gem, &library) {
                directories.push(dir);
            }
        }
    }
    directories.push(cwd.join("sig"));
    directories.extend(config.signature_paths.iter().cloned());
    directories.iter().filter(|d| d.is_dir()).flat_map(|d| locate::rbs_files(d)).collect()
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
