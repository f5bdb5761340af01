//! Embeds a fingerprint of the engine's sources, so the worker's hello (and
//! every MCP result's `_meta`) says exactly which code is serving.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::Path;

fn hash_tree(path: &Path, hasher: &mut DefaultHasher) {
    let Ok(entries) = std::fs::read_dir(path) else { return };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    for entry in entries {
        if entry.is_dir() {
            hash_tree(&entry, hasher);
        } else if let Ok(bytes) = std::fs::read(&entry) {
            entry.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(&entry).hash(hasher);
            bytes.hash(hasher);
        }
    }
}

fn main() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut hasher = DefaultHasher::new();
    hash_tree(&manifest.join("src"), &mut hasher);
    // The data the sources embed (signature fixes, gap lists, default
    // libraries) decides results as much as the code does.
    hash_tree(&manifest.join("data"), &mut hasher);
    std::fs::read(manifest.join("Cargo.toml")).unwrap_or_default().hash(&mut hasher);
    println!("cargo:rustc-env=RIGOR_SOURCE_FINGERPRINT={:012x}", hasher.finish() & 0xffff_ffff_ffff);
    // The locked dependency versions (the parsers among them) decide
    // results too: a persistent cache keys its entries by both.
    let mut lock = DefaultHasher::new();
    std::fs::read(manifest.join("../Cargo.lock")).unwrap_or_default().hash(&mut lock);
    println!("cargo:rustc-env=RIGOR_LOCK_FINGERPRINT={:012x}", lock.finish() & 0xffff_ffff_ffff);
    println!("cargo:rerun-if-changed=../Cargo.lock");
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=data");
    println!("cargo:rerun-if-changed=Cargo.toml");
}
