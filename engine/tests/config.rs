//! Configuration as a user meets it: which file wins, what every command
//! does with `--config`, bad files (exit 64 naming file and line) and
//! `target_ruby`.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

mod support;
use support::project;

fn rigor(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rigor")).args(args).current_dir(cwd).output().expect("rigor runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The severity `check` gives the dead assignment in `lib/a.rb`: lenient
/// says info, balanced warning, strict error.
fn dead_assignment_severity(cwd: &Path, extra: &[&str]) -> String {
    let mut args = vec!["check", "--format=json"];
    args.extend_from_slice(extra);
    let output = rigor(cwd, &args);
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|_| panic!("{output:?}"));
    report["diagnostics"][0]["severity"].as_str().unwrap_or_else(|| panic!("{report}")).to_string()
}

const DEAD: &str = "def f\n  t = 1\n  2\nend\n";

#[test]
fn rigor_yml_beats_rigor_dist_yml_and_config_beats_both() {
    let dir = project(&[
        ("lib/a.rb", DEAD),
        (".rigor.dist.yml", "severity_profile: lenient\n"),
        ("other.yml", "severity_profile: balanced\n"),
    ]);
    assert_eq!(dead_assignment_severity(dir.path(), &[]), "info", ".rigor.dist.yml alone is read");
    std::fs::write(dir.path().join(".rigor.yml"), "severity_profile: strict\n").unwrap();
    assert_eq!(dead_assignment_severity(dir.path(), &[]), "error", ".rigor.yml wins, not merged");
    assert_eq!(dead_assignment_severity(dir.path(), &["--config=other.yml"]), "warning", "--config beats both");
    assert_eq!(dead_assignment_severity(dir.path(), &["--config", "other.yml"]), "warning");
}

#[test]
fn the_first_file_found_is_not_merged_with_the_second() {
    // .rigor.yml says nothing about the profile: the default applies,
    // not .rigor.dist.yml's strict.
    let dir = project(&[
        ("lib/a.rb", DEAD),
        (".rigor.yml", "paths: [lib]\n"),
        (".rigor.dist.yml", "severity_profile: strict\n"),
    ]);
    assert_eq!(dead_assignment_severity(dir.path(), &[]), "warning");
}

#[test]
fn every_command_reads_config_and_a_bad_one_is_a_usage_error_naming_file_and_line() {
    let dir = project(&[("lib/a.rb", "x = 1\n"), ("bad.yml", "paths: [lib]\n\nseverity_profile: loud\n")]);
    let commands: &[&[&str]] = &[
        &["check", "--config=bad.yml", "lib"],
        &["triage", "--config=bad.yml", "lib"],
        &["coverage", "--config=bad.yml", "lib"],
        &["type-of", "--config=bad.yml", "lib/a.rb:1:1"],
        &["annotate", "--config=bad.yml", "lib/a.rb"],
        &["sig-gen", "--config=bad.yml", "lib"],
    ];
    for args in commands {
        let output = rigor(dir.path(), args);
        assert_eq!(output.status.code(), Some(64), "{args:?}: {output:?}");
        let message = stderr(&output);
        assert!(message.contains("bad.yml:3:") && message.contains("loud"), "{args:?}: {message}");
    }
    // The same file found by discovery is just as bad.
    std::fs::rename(dir.path().join("bad.yml"), dir.path().join(".rigor.yml")).unwrap();
    let output = rigor(dir.path(), &["check"]);
    assert_eq!(output.status.code(), Some(64));
    assert!(stderr(&output).contains(".rigor.yml:3:"), "{}", stderr(&output));
}

#[test]
fn broken_yaml_and_wrong_types_carry_their_line() {
    let cases = [
        ("paths: [lib\n", ".rigor.yml:2:"),
        ("paths: lib\n", ".rigor.yml:1: paths"),
        ("exclude:\n  - ok/**\n  - \"bad[\"\n", ".rigor.yml:3: exclude"),
        ("severity_overrides:\n  flow: loud\n", ".rigor.yml:2: severity_overrides.flow"),
        ("target_ruby: 9.9\n", ".rigor.yml:1: target_ruby"),
    ];
    for (text, expected) in cases {
        let dir = project(&[("lib/a.rb", "x = 1\n"), (".rigor.yml", text)]);
        let output = rigor(dir.path(), &["check"]);
        assert_eq!(output.status.code(), Some(64), "{text:?}");
        assert!(stderr(&output).contains(expected), "{text:?}: {}", stderr(&output));
    }
}

#[test]
fn unknown_keys_only_warn_and_show_in_checks_json() {
    let dir = project(&[("lib/a.rb", "x = 1\n"), (".rigor.yml", "frobnicate: true\ntarget_ruby: 3.4\n")]);
    let output = rigor(dir.path(), &["check", "--format=json"]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let warnings = report["config_warnings"].as_array().expect("config_warnings");
    assert_eq!(warnings.len(), 1, "target_ruby is a used key: {warnings:?}");
    assert_eq!(warnings[0]["kind"], "unknown_key");
    assert!(warnings[0]["message"].as_str().unwrap().contains("frobnicate"));
}

#[test]
fn target_ruby_chooses_the_grammar_for_check_and_type_of() {
    // Keyword arguments in an index assignment are valid Ruby 3.3 and a
    // syntax error from Ruby 3.4 on.
    let dir = project(&[
        ("lib/a.rb", "h = {}\nh[k: 1] = 2\n"),
        ("lib/b.rb", "[1].map { it }\n"),
        ("ruby33.yml", "target_ruby: 3.3\n"),
        ("ruby34.yml", "target_ruby: \"3.4\"\n"),
    ]);
    let check = |config: &str| rigor(dir.path(), &["check", config, "lib/a.rb"]).status.code();
    assert_eq!(check("--config=ruby33.yml"), Some(0));
    assert_eq!(check("--config=ruby34.yml"), Some(1), "a parse error under 3.4");
    assert_eq!(rigor(dir.path(), &["check", "lib/a.rb"]).status.code(), Some(1), "the default is the latest");

    // `it` is the block's parameter from 3.4 on; under 3.3 an unknown call.
    let type_of = |config: &str| {
        let output = rigor(dir.path(), &["type-of", "--format=json", config, "lib/b.rb:1:11"]);
        let answer: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|_| panic!("{output:?}"));
        (answer["node"].as_str().unwrap().to_string(), answer["type"].as_str().unwrap().to_string())
    };
    assert_eq!(type_of("--config=ruby34.yml"), ("Prism::ItLocalVariableReadNode".into(), "Integer".into()));
    assert_eq!(type_of("--config=ruby33.yml").0, "Prism::CallNode");
}

#[test]
fn an_older_target_ruby_is_parsed_with_the_oldest_grammar_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("lib")).unwrap();
    std::fs::write(dir.path().join("lib/a.rb"), "x = 1\n").unwrap();
    std::fs::write(dir.path().join(".rigor.yml"), "target_ruby: 3.1\n").unwrap();
    let mut out = Vec::new();
    let mut err = Vec::new();
    let code = {
        let mut io = rigor_engine::cli::Io { out: &mut out, err: &mut err, cwd: dir.path().to_path_buf() };
        rigor_engine::cli::run(["check", "--format=json", "--no-stats"], &mut io, rigor_engine::cli::Mode::Process)
    };
    assert_eq!(code, 0, "{}", String::from_utf8_lossy(&err));
    let report: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let warnings = report["config_warnings"].as_array().unwrap();
    assert!(
        warnings.iter().any(|w| w["kind"] == "target_ruby" && w["message"].as_str().unwrap().contains("3.3 grammar")),
        "{warnings:?}"
    );
}

#[test]
fn context_paths_are_read_into_the_model_but_never_checked() {
    // `vendor/thing/lib` stands for a dependency's sources: what it defines
    // types the project's calls, but its own mistakes are not the
    // project's, and a check with no paths checks `paths` alone.
    let files = [
        ("lib/use.rb", "class Use\n  def go = Vendor::Thing.new.name\nend\nUse.new.go.bogus_call\n"),
        (
            "vendor/thing/lib/vendor/thing.rb",
            "module Vendor\n  class Thing\n    def name = \"thing\"\n  end\nend\n1.bogus_in_vendor\n",
        ),
    ];
    let dir = project(&files);
    let check = |args: &[&str]| -> Value {
        let output = rigor(dir.path(), args);
        serde_json::from_slice(&output.stdout).unwrap_or_else(|_| panic!("{output:?}"))
    };
    let messages = |report: &Value| -> Vec<String> {
        let diagnostics = report["diagnostics"].as_array().unwrap();
        diagnostics
            .iter()
            .map(|d| format!("{}: {}", d["path"].as_str().unwrap(), d["message"].as_str().unwrap()))
            .collect()
    };
    // Without the context, `Vendor::Thing` is unknown: nothing to judge.
    let alone = check(&["check", "--format=json"]);
    assert!(messages(&alone).is_empty(), "{alone}");
    std::fs::write(dir.path().join(".rigor.yml"), "context_paths: [vendor/thing/lib]\n").unwrap();
    let with_context = check(&["check", "--format=json"]);
    assert_eq!(
        messages(&with_context),
        vec!["lib/use.rb: undefined method `bogus_call` for \"thing\"".to_string()],
        "{with_context}"
    );
    assert_eq!(with_context["stats"]["target_files"], 1, "{with_context}");
    let typed = check(&["type-of", "--format=json", "lib/use.rb:4:9"]);
    assert_eq!(typed["type"], "\"thing\"", "{typed}");
    // Named explicitly, a context file is checked like any other.
    let named = check(&["check", "--format=json", "vendor/thing/lib"]);
    assert!(messages(&named).iter().any(|m| m.contains("bogus_in_vendor")), "{named}");
}
