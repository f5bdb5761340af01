//! Asking the `rigor` binary for a type in a project on disk: the value of
//! a probe assignment (`name_probe = expression`) a fixture writes where
//! the type of interest is.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// The type `rigor type-of` gives the value of the first `needle = ...`
/// assignment in `file` (relative to `dir`, where it runs).
pub fn probed(dir: &Path, file: &str, needle: &str) -> String {
    let text = std::fs::read_to_string(dir.join(file)).unwrap();
    let (line, column) = text
        .lines()
        .enumerate()
        .find_map(|(i, l)| l.find(&format!("{needle} = ")).map(|c| (i + 1, c + needle.len() + 4)))
        .unwrap_or_else(|| panic!("{needle} is not in {file}"));
    let output = Command::new(env!("CARGO_BIN_EXE_rigor"))
        .args(["type-of", "--format", "json", &format!("{file}:{line}:{column}")])
        .current_dir(dir)
        .output()
        .expect("rigor runs");
    let answer: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&output.stdout)));
    answer["type"].as_str().unwrap_or_else(|| panic!("no type in {answer}")).to_string()
}
