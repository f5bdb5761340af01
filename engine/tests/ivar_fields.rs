//! Instance variables as fields and the nil rule's nil sources, from the
//! fixtures under `tests/fixtures/`: `ivar_types/*.rb` each name (first
//! line, `# type: T`) the type of their `probe(...)` argument;
//! `nil_rule/*.rb` each say where `call.possible-nil-receiver` fires
//! (`# fires: line:col ...`) or that it must stay silent (`# silent`).

mod rule_table;
mod support;

use std::path::PathBuf;

use rigor_engine::diagnostic::Severity;
use rigor_engine::types::display;
use rule_table::{analyse, of_rule};
use support::{core, probe_type_with};

fn fixtures(dir: &str) -> Vec<(String, String)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "rb"))
        .collect();
    files.sort();
    assert!(files.len() >= 6, "too few fixtures in {}", root.display());
    files
        .into_iter()
        .map(|path| {
            let source = std::fs::read_to_string(&path).expect("a readable fixture");
            (path.file_name().unwrap().to_string_lossy().into_owned(), source)
        })
        .collect()
}

fn header<'a>(source: &'a str, key: &str) -> Option<&'a str> {
    source.lines().next()?.strip_prefix("# ")?.strip_prefix(key)
}

#[test]
fn ivar_and_parameter_types_follow_the_fixtures() {
    let signatures = core();
    let mut wrong = Vec::new();
    for (file, source) in fixtures("ivar_types") {
        let expected = header(&source, "type: ").unwrap_or_else(|| panic!("{file}: no `# type:` header"));
        let got = display(&probe_type_with(&source, &signatures));
        if got != expected.trim() {
            wrong.push(format!("{file}: expected {expected}, got {got}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn nil_rule_fires_and_stays_silent_as_the_fixtures_say() {
    let settings = rigor_engine::analysis::Settings::default();
    let mut wrong = Vec::new();
    let (mut firing, mut silent) = (0, 0);
    for (file, source) in fixtures("nil_rule") {
        let expected: Vec<(usize, usize)> = if let Some(list) = header(&source, "fires: ") {
            firing += 1;
            list.split_whitespace()
                .map(|at| {
                    let (line, column) = at.split_once(':').expect("line:col");
                    (line.parse().expect("a line"), column.parse().expect("a column"))
                })
                .collect()
        } else {
            assert!(header(&source, "silent").is_some(), "{file}: no `# fires:` or `# silent` header");
            silent += 1;
            Vec::new()
        };
        let report = analyse(&source, &settings);
        let found = of_rule(&report, "call.possible-nil-receiver");
        let at: Vec<(usize, usize)> = found.iter().map(|d| (d.line, d.column)).collect();
        if at != expected {
            wrong.push(format!(
                "{file}: expected {expected:?}, got {at:?}: {:?}",
                found.iter().map(|d| &d.message).collect::<Vec<_>>()
            ));
        }
        for d in found {
            assert_eq!(d.severity, Severity::Error, "{file}: balanced profile severity");
        }
    }
    assert!(firing >= 3 && silent >= 3, "both kinds of fixture are needed");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
