//! Typing snippets in tests: the type of the last top-level statement, or
//! of the argument of the last `probe(...)` call when there is one.

#![allow(dead_code)]

use std::sync::Arc;

use rigor_engine::infer::infer_file;
use rigor_engine::rbs::{self, Signatures};
use rigor_engine::syntax::walk::all_nodes;
use rigor_engine::syntax::ParsedFile;
use rigor_engine::types::{display, erase, Type};
use ruby_prism::Node;

/// The installed core signatures (CI installs Debian's `ruby`, which
/// brings the rbs gem).
pub fn core() -> Arc<Signatures> {
    let signatures = rbs::load(&rbs::Request::default());
    assert!(
        signatures.env.has_class("Integer"),
        "core signatures are missing (install Debian's `ruby` or set RIGOR_RBS_PATH): {:?}",
        signatures.warnings
    );
    signatures
}

/// What every command loads: the core and the default standard libraries.
pub fn with_default_libraries() -> Arc<Signatures> {
    let signatures = rbs::load(&rigor_engine::signatures::request());
    assert!(signatures.warnings.is_empty(), "default libraries load quietly: {:?}", signatures.warnings);
    signatures
}

pub fn probe_type_with(source: &str, signatures: &Signatures) -> Type {
    let parsed = ParsedFile::parse(source.as_bytes());
    assert!(parsed.errors().is_empty(), "snippet does not parse: {source}\n{:?}", parsed.errors());
    let types = infer_file(&parsed, &signatures.env);
    let root = parsed.root();
    let target = probe_argument(&root).or_else(|| last_statement(&root)).expect("a statement");
    types.of(&target).cloned().unwrap_or_else(|| panic!("no type recorded for the probed node in {source}"))
}

/// Display and erasure of the probed expression.
pub fn probe(source: &str) -> (String, String) {
    let ty = probe_type_with(source, &core());
    (display(&ty), erase(&ty))
}

/// Expression nodes the walk left without a type (each counts as
/// untyped in coverage, so there should be none).
pub fn untyped_by_omission(source: &str, signatures: &Signatures) -> Vec<String> {
    let parsed = ParsedFile::parse(source.as_bytes());
    let types = infer_file(&parsed, &signatures.env);
    all_nodes(&parsed.root())
        .into_iter()
        .filter(|node| rigor_engine::syntax::node_kind::is_expression(node) && types.of(node).is_none())
        .map(|node| {
            let kind = rigor_engine::syntax::node_kind::class_name(&node);
            format!("{kind} `{}`", String::from_utf8_lossy(node.location().as_slice()))
        })
        .collect()
}

fn probe_argument<'pr>(root: &Node<'pr>) -> Option<Node<'pr>> {
    all_nodes(root)
        .into_iter()
        .filter_map(|node| {
            let call = node.as_call_node()?;
            if call.name().as_slice() != b"probe" || call.receiver().is_some() {
                return None;
            }
            call.arguments()?.arguments().iter().next()
        })
        .last()
}

fn last_statement<'pr>(root: &Node<'pr>) -> Option<Node<'pr>> {
    root.as_program_node()?.statements().body().iter().last()
}

/// A scratch project directory holding `files` (paths relative to it).
pub fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let full = dir.path().join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, text).unwrap();
    }
    dir
}
