//! Inline suppression and the `suppression.*` rules, through `rigor check`:
//! each case is a Ruby file and the (rule, line, column) diagnostics left.

use std::process::Command;

use serde_json::Value;

/// `rigor check --format=json` on one file (and an optional config):
/// the diagnostics as (rule, line, column), sorted.
fn check(source: &str, config: Option<&str>) -> Vec<(String, u64, u64)> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.rb"), source).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_rigor"));
    command.args(["check", "--format=json", "--no-stats", "a.rb"]).current_dir(dir.path());
    if let Some(config) = config {
        std::fs::write(dir.path().join(".rigor.yml"), config).unwrap();
    }
    let output = command.output().unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|_| panic!("{output:?}"));
    let mut found: Vec<(String, u64, u64)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let rule = d["rule"].as_str().unwrap_or("<none>").to_string();
            (rule, d["line"].as_u64().unwrap(), d["column"].as_u64().unwrap())
        })
        .collect();
    found.sort();
    found
}

fn rules(found: &[(String, u64, u64)]) -> Vec<&str> {
    found.iter().map(|(rule, _, _)| rule.as_str()).collect()
}

/// Runs a table of (source, expected rules); reports every mismatch at once.
fn table(cases: &[(&str, &[&str])]) {
    let mut wrong = Vec::new();
    for (source, expected) in cases {
        let found = check(source, None);
        if rules(&found) != *expected {
            wrong.push(format!("{source:?}\n  expected {expected:?}\n  got      {found:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

const DEAD: &str = "def f\n  t = 1\n  2\nend\n";

#[test]
fn an_inline_marker_silences_its_own_line_only() {
    table(&[
        // Silenced by id, alias, family, `all`, and in a comma list.
        ("def f\n  t = 1 # rigor:disable flow.dead-assignment\n  2\nend\n", &[]),
        ("def f\n  t = 1 # rigor:disable dead-assignment\n  2\nend\n", &[]),
        ("def f\n  t = 1 # rigor:disable flow\n  2\nend\n", &[]),
        ("def f\n  t = 1 # rigor:disable all\n  2\nend\n", &[]),
        ("def f\n  t = 1 # rigor:disable call.undefined-method,flow.dead-assignment\n  2\nend\n", &[]),
        ("def f\n  t = 1 #rigor:disable   flow.return-in-ensure  flow.dead-assignment\n  2\nend\n", &[]),
        // Not silenced: another rule, another line, a marker in a string.
        ("def f\n  t = 1 # rigor:disable flow.return-in-ensure\n  2\nend\n", &["flow.dead-assignment"]),
        ("def f\n  t = 1\n  2 # rigor:disable flow.dead-assignment\nend\n", &["flow.dead-assignment"]),
        ("# rigor:disable flow.dead-assignment\ndef f\n  t = 1\n  2\nend\n", &["flow.dead-assignment"]),
        ("def f\n  t = \"# rigor:disable all\"\n  2\nend\n", &["flow.dead-assignment"]),
        ("def f\n  t = 1 # rigor:disabled flow\n  2\nend\n", &["flow.dead-assignment"]),
    ]);
}

#[test]
fn a_file_marker_silences_the_whole_file() {
    table(&[
        (&format!("# rigor:disable-file flow.dead-assignment\n{DEAD}"), &[]),
        (&format!("{DEAD}# rigor:disable-file dead-assignment\n"), &[]),
        (&format!("# rigor:disable-file flow\n{DEAD}{{ a: 1, a: 2 }}\n"), &[]),
        (&format!("# rigor:disable-file flow.duplicate-hash-key\n{DEAD}{{ a: 1, a: 2 }}\n"), &["flow.dead-assignment"]),
        (&format!("=begin\n# rigor:disable-file all\n=end\n{DEAD}"), &["flow.dead-assignment"]),
    ]);
}

#[test]
fn config_disable_and_profiles_switch_rules_off_too() {
    assert_eq!(check(DEAD, Some("disable: [flow.dead-assignment]\n")), vec![]);
    assert_eq!(check(DEAD, Some("severity_overrides:\n  flow: off\n")), vec![]);
    assert_eq!(rules(&check(DEAD, Some("disable: [flow.return-in-ensure]\n"))), ["flow.dead-assignment"]);
    // The suppression rules obey the same switches.
    assert_eq!(check("x = 1 # rigor:disable\n", Some("disable: [suppression]\n")), vec![]);
}

#[test]
fn unknown_rule_fires_at_the_comment_for_each_unknown_token() {
    let found = check("x = 1 # rigor:disable flow.dead-asignment, flw\n", None);
    assert_eq!(found, [("suppression.unknown-rule".to_string(), 1, 7), ("suppression.unknown-rule".to_string(), 1, 7)]);
    table(&[
        ("# rigor:disable-file call.undefined-metod\nx = 1\n", &["suppression.unknown-rule"]),
        // Prose after the tokens reads as more tokens: `--` and `reason`.
        ("x = 1 # rigor:disable flow -- reason\n", &["suppression.unknown-rule", "suppression.unknown-rule"]),
        ("x = 1 # rigor:disable All\n", &["suppression.unknown-rule"]),
    ]);
}

#[test]
fn unknown_rule_stays_quiet_for_anything_that_names_a_rule() {
    table(&[
        // Rules this engine does not implement are still Rigor rules.
        ("x = 1 # rigor:disable call.undefined-method def\n", &[]),
        ("x = 1 # rigor:disable undefined-method, assert-type\n", &[]),
        ("x = 1 # rigor:disable plugin.rails.some-rule\n", &[]),
        ("x = 1 # rigor:disable all suppression flow.dead-assignment\n", &[]),
        // A marker can acknowledge its own complaint.
        ("x = 1 # rigor:disable call.bogus suppression.unknown-rule\n", &[]),
    ]);
}

#[test]
fn empty_fires_on_markers_without_tokens() {
    table(&[
        ("x = 1 # rigor:disable\n", &["suppression.empty"]),
        ("# rigor:disable-file\nx = 1\n", &["suppression.empty"]),
        ("x = 1 # rigor:disable ,  ,\n", &["suppression.empty"]),
        ("x = 1 #rigor:disable-file\t\n", &["suppression.empty"]),
    ]);
    assert_eq!(check("y = 2\nx = 1 # rigor:disable\n", None), [("suppression.empty".to_string(), 2, 7)]);
}

#[test]
fn empty_stays_quiet_when_tokens_are_given_or_the_words_are_prose() {
    table(&[
        ("x = 1 # rigor:disable all\n", &[]),
        ("# rigor:disable-file flow\nx = 1\n", &[]),
        ("# rigor:disable: how to silence a rule\nx = 1\n", &[]),
        ("# Write rigor:disable to silence a rule\nx = 1\n", &[]),
        ("x = \"# rigor:disable\"\n", &[]),
    ]);
}

#[test]
fn unknown_marker_fires_on_look_alike_markers() {
    table(&[
        ("x = 1 # rigor:disable-next-line flow.dead-assignment\n", &["suppression.unknown-marker"]),
        ("x = 1 # rigor:enable flow\n", &["suppression.unknown-marker"]),
        ("x = 1 # rigor:enable\n", &["suppression.unknown-marker"]),
        ("# rigor:disable-line\nx = 1\n", &["suppression.unknown-marker"]),
        ("x = 1 # rigor:enable-file all\n", &["suppression.unknown-marker"]),
    ]);
    // The look-alike silences nothing.
    let found = check("def f\n  t = 1 # rigor:disable-next-line flow.dead-assignment\n  2\nend\n", None);
    assert_eq!(rules(&found), ["flow.dead-assignment", "suppression.unknown-marker"]);
}

#[test]
fn unknown_marker_stays_quiet_for_real_markers_and_prose() {
    table(&[
        ("x = 1 # rigor:disable flow\n", &[]),
        ("# rigor:disable-file flow\nx = 1\n", &[]),
        ("x = 1 # rigor:enable `<rule>` does not exist\n", &[]),
        ("x = 1 # see rigor:enable in the manual\n", &[]),
        ("x = 1 # rigor:disable-next-line suppression.unknown-marker\n", &["suppression.unknown-marker"]),
        // Not a rule list after the look-alike: the later real marker counts.
        ("x = 1 # rigor:disable-next-line flow # rigor:disable all\n", &[]),
    ]);
}

#[test]
fn suppression_rules_warn_in_every_profile() {
    for profile in ["lenient", "balanced", "strict"] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.rb"), "x = 1 # rigor:disable\n").unwrap();
        std::fs::write(dir.path().join(".rigor.yml"), format!("severity_profile: {profile}\n")).unwrap();
        let output = Command::new(env!("CARGO_BIN_EXE_rigor"))
            .args(["check", "--format=json", "a.rb"])
            .current_dir(dir.path())
            .output()
            .unwrap();
        let report: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(report["diagnostics"][0]["severity"], "warning", "{profile}");
        assert_eq!(output.status.code(), Some(0), "warnings do not fail the run");
    }
    let explain = Command::new(env!("CARGO_BIN_EXE_rigor")).args(["explain", "--format=json", "suppression"]).output();
    let explain: Value = serde_json::from_slice(&explain.unwrap().stdout).unwrap();
    let ids: Vec<&str> = explain.as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["suppression.empty", "suppression.unknown-marker", "suppression.unknown-rule"]);
    for rule in explain.as_array().unwrap() {
        assert_eq!(
            rule["severity_by_profile"],
            serde_json::json!({"lenient": "warning", "balanced": "warning", "strict": "warning"})
        );
    }
}
