//! `check` for CI, as a pipeline runs it: the machine formats, `--fail-on`
//! and exit codes, baselines (code moved, a file renamed, a finding fixed
//! under `--baseline-strict`), `--workers`, and several type-of positions.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

fn rigor(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rigor")).args(args).current_dir(cwd).output().expect("rigor runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(output)))
}

fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        write(dir.path(), path, text);
    }
    dir
}

fn write(root: &Path, path: &str, text: &str) {
    let full = root.join(path);
    std::fs::create_dir_all(full.parent().unwrap()).unwrap();
    std::fs::write(full, text).unwrap();
}

/// An error (call.undefined-method), a warning (flow.dead-assignment).
const FINDINGS: &str = "x = \"hi\".shout\ndef f\n  t = 1\n  2\nend\n";

#[test]
fn fail_on_decides_the_exit_code() {
    let dir =
        project(&[("lib/err.rb", FINDINGS), ("lib/warn.rb", "def f\n  t = 1\n  2\nend\n"), ("lib/ok.rb", "puts 1\n")]);
    let code = |args: &[&str]| rigor(dir.path(), args).status.code();
    assert_eq!(code(&["check", "lib/ok.rb"]), Some(0));
    assert_eq!(code(&["check", "lib/err.rb"]), Some(1), "errors fail by default");
    assert_eq!(code(&["check", "lib/warn.rb"]), Some(0), "warnings do not, by default");
    assert_eq!(code(&["check", "--fail-on=warning", "lib/warn.rb"]), Some(1));
    assert_eq!(code(&["check", "--fail-on=info", "lib/warn.rb"]), Some(1));
    assert_eq!(code(&["check", "--fail-on=never", "lib/err.rb"]), Some(0));
    assert_eq!(code(&["check", "--fail-on=loud", "lib/err.rb"]), Some(64));
    assert_eq!(code(&["check", "--format=yaml", "lib/err.rb"]), Some(64));
    let envelope = json(&rigor(dir.path(), &["check", "--format=json", "--fail-on=warning", "lib/warn.rb"]));
    assert_eq!(envelope["fail_on"], "warning");
    assert_eq!(envelope["success"], false, "success follows the exit code: {envelope}");
    assert_eq!(envelope["error_count"], 0);
    // Every format exits the same way.
    for format in ["text", "json", "sarif", "github", "gitlab", "checkstyle", "junit", "teamcity"] {
        assert_eq!(code(&["check", &format!("--format={format}"), "lib/err.rb"]), Some(1), "{format}");
        assert_eq!(code(&["check", &format!("--format={format}"), "lib/ok.rb"]), Some(0), "{format}");
    }
}

#[test]
fn every_format_reports_rule_findings_and_parse_errors() {
    let dir = project(&[("lib/a.rb", FINDINGS), ("lib/broken.rb", "def (\n"), ("lib/ok.rb", "puts 1\n")]);
    let run = |format: &str| stdout(&rigor(dir.path(), &["check", &format!("--format={format}"), "lib"]));

    let sarif: Value = serde_json::from_str(&run("sarif")).unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let rules = sarif["runs"][0]["tool"]["driver"]["rules"].as_array().unwrap();
    assert!(rules.iter().any(|r| r["id"] == "call.undefined-method"
        && r["helpUri"].as_str().unwrap().contains("#rule-call-undefined-method")));
    for result in results {
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], result["ruleId"], "ruleIndex points at the rule: {result}");
    }
    let ids: Vec<&str> = results.iter().map(|r| r["ruleId"].as_str().unwrap()).collect();
    assert!(ids.contains(&"call.undefined-method") && ids.contains(&"flow.dead-assignment"), "{ids:?}");
    assert!(ids.contains(&"rigor.parse-error"), "parse errors are results too: {ids:?}");
    let levels: Vec<&str> = results.iter().map(|r| r["level"].as_str().unwrap()).collect();
    assert!(levels.contains(&"error") && levels.contains(&"warning"), "{levels:?}");

    let github = run("github");
    assert!(
        github.lines().any(|l| l.starts_with("::error file=lib/a.rb,line=1,col=10,title=call.undefined-method::")),
        "{github}"
    );
    assert!(github.lines().any(|l| l.starts_with("::warning file=lib/a.rb,line=3,col=3,")), "{github}");
    assert!(
        github.lines().any(|l| l.starts_with("::error file=lib/broken.rb,") && l.contains("title=rigor.parse-error")),
        "{github}"
    );

    let gitlab: Value = serde_json::from_str(&run("gitlab")).unwrap();
    let issues = gitlab.as_array().unwrap();
    assert!(issues
        .iter()
        .all(|i| i["fingerprint"].as_str().unwrap().len() == 64 && i["location"]["lines"]["begin"].is_u64()));
    assert!(issues.iter().any(|i| i["check_name"] == "rigor.parse-error" && i["severity"] == "major"));
    assert!(issues.iter().any(|i| i["check_name"] == "flow.dead-assignment" && i["severity"] == "minor"));
    let prints: std::collections::HashSet<&str> = issues.iter().map(|i| i["fingerprint"].as_str().unwrap()).collect();
    assert_eq!(prints.len(), issues.len(), "fingerprints are unique");

    let checkstyle = run("checkstyle");
    assert!(checkstyle.contains(r#"<file name="lib/ok.rb"/>"#), "clean files are listed: {checkstyle}");
    assert!(
        checkstyle.contains(r#"source="call.undefined-method""#)
            && checkstyle.contains(r#"source="rigor.parse-error""#)
    );

    let junit = run("junit");
    assert!(junit.contains(r#"tests="3" failures="2""#), "one case per file: {junit}");
    assert!(junit.contains(r#"<testcase name="lib/ok.rb" classname="lib/ok.rb"/>"#), "{junit}");

    let teamcity = run("teamcity");
    assert!(teamcity.lines().all(|l| l.starts_with("##teamcity[")), "{teamcity}");
    assert!(teamcity.contains("##teamcity[inspection typeId='call.undefined-method'"), "{teamcity}");
    assert!(teamcity.contains("typeId='rigor.parse-error'"), "{teamcity}");
}

#[test]
fn sarif_fingerprints_survive_moved_code_and_columns_count_utf16() {
    let dir = project(&[("lib/a.rb", "s = \"é😀\".shout\n")]);
    let sarif = |dir: &Path| -> Value { json(&rigor(dir, &["check", "--format=sarif", "lib"])) };
    let first = sarif(dir.path());
    let result = &first["runs"][0]["results"][0];
    assert_eq!(first["runs"][0]["columnKind"], "utf16CodeUnits");
    // `shout` is at byte column 14 and UTF-16 column 11 ("é" 2 bytes/1 unit, "😀" 4/2).
    assert_eq!(result["locations"][0]["physicalLocation"]["region"]["startColumn"], 11, "{result}");
    let github = stdout(&rigor(dir.path(), &["check", "--format=github", "lib"]));
    assert!(github.contains(",col=11,"), "{github}");
    let print = result["partialFingerprints"].clone();
    write(dir.path(), "lib/a.rb", "# a comment\n\nclass K\nend\n    s = \"é😀\".shout\n");
    let moved = sarif(dir.path());
    assert_eq!(moved["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"], 5);
    assert_eq!(moved["runs"][0]["results"][0]["partialFingerprints"], print, "moved and re-indented: same finding");
    write(dir.path(), "lib/a.rb", "s = \"é😀x\".shout\n");
    assert_ne!(sarif(dir.path())["runs"][0]["results"][0]["partialFingerprints"], print, "an edited line is new");
}

#[test]
fn github_commands_escape_data_and_properties() {
    // A file name with `,` and `:` and a message with `%` (from the code).
    let dir = project(&[("lib/a,b:c.rb", "x = \"100%\".shout\n")]);
    let out = stdout(&rigor(dir.path(), &["check", "--format=github", "lib"]));
    let line = out.lines().next().unwrap();
    assert!(line.starts_with("::error file=lib/a%2Cb%3Ac.rb,line=1,"), "{line}");
    let message = line.split_once("::").unwrap().1.split_once("::").unwrap().1;
    assert!(message.contains("100%25"), "{message}");
}

#[test]
fn a_baseline_hides_recorded_findings_even_when_code_moves() {
    let dir = project(&[("lib/a.rb", FINDINGS), ("lib/ok.rb", "puts 1\n")]);
    let generated = rigor(dir.path(), &["baseline", "generate", "lib"]);
    assert_eq!(generated.status.code(), Some(0), "{}", stderr(&generated));
    let written = std::fs::read_to_string(dir.path().join(".rigor-baseline.yml")).unwrap();
    assert!(written.starts_with("version: 1\nignored:\n"), "{written}");
    assert!(written.contains("file: lib/a.rb\n  rule: call.undefined-method\n  count: 1"), "{written}");
    // Read automatically from the root: nothing new, exit 0, and it says how many it hid.
    let checked = rigor(dir.path(), &["check", "lib"]);
    assert_eq!(checked.status.code(), Some(0), "{}", stdout(&checked));
    assert!(
        stdout(&checked).contains("2 finding(s) hidden by the baseline .rigor-baseline.yml"),
        "{}",
        stdout(&checked)
    );
    // The same code further down the file: still hidden.
    write(dir.path(), "lib/a.rb", &format!("# moved\n\n\n{FINDINGS}"));
    let moved = json(&rigor(dir.path(), &["check", "--format=json", "lib"]));
    assert_eq!(moved["diagnostics"], serde_json::json!([]), "{moved}");
    assert_eq!(moved["baseline"]["hidden"], 2);
    // A new finding is reported; the bucket it joins (now over its count) shows whole.
    write(dir.path(), "lib/ok.rb", "puts 1\n[1].frob\n");
    let new = json(&rigor(dir.path(), &["check", "--format=json", "lib"]));
    let shown: Vec<&str> = new["diagnostics"].as_array().unwrap().iter().map(|d| d["path"].as_str().unwrap()).collect();
    assert_eq!(shown, ["lib/ok.rb"], "{new}");
    assert_eq!(rigor(dir.path(), &["check", "lib"]).status.code(), Some(1));
    // --no-baseline shows everything; an unreadable --baseline is a usage error.
    let all = json(&rigor(dir.path(), &["check", "--format=json", "--no-baseline", "lib"]));
    assert_eq!(all["diagnostics"].as_array().unwrap().len(), 3, "{all}");
    assert!(all.get("baseline").is_none());
    assert_eq!(rigor(dir.path(), &["check", "--baseline=nope.yml", "lib"]).status.code(), Some(64));
    write(dir.path(), "bad.yml", "version: 7\n");
    let bad = rigor(dir.path(), &["check", "--baseline=bad.yml", "lib"]);
    assert_eq!(bad.status.code(), Some(64));
    assert!(stderr(&bad).contains("version: 7"), "{}", stderr(&bad));
    // generate will not overwrite; regenerate does.
    assert_eq!(rigor(dir.path(), &["baseline", "generate", "lib"]).status.code(), Some(64));
    assert_eq!(rigor(dir.path(), &["baseline", "regenerate", "lib"]).status.code(), Some(0));
    assert_eq!(rigor(dir.path(), &["check", "lib"]).status.code(), Some(0));
}

#[test]
fn a_renamed_file_brings_its_findings_back_and_strict_flags_the_stale_row() {
    let dir = project(&[("lib/old.rb", FINDINGS)]);
    assert_eq!(rigor(dir.path(), &["baseline", "generate", "lib"]).status.code(), Some(0));
    std::fs::rename(dir.path().join("lib/old.rb"), dir.path().join("lib/new.rb")).unwrap();
    // Rows are keyed by file: after a rename the findings are new again.
    let renamed = json(&rigor(dir.path(), &["check", "--format=json", "lib"]));
    let paths: Vec<&str> =
        renamed["diagnostics"].as_array().unwrap().iter().map(|d| d["path"].as_str().unwrap()).collect();
    assert_eq!(paths, ["lib/new.rb", "lib/new.rb"], "{renamed}");
    assert_eq!(renamed["baseline"]["hidden"], 0);
    // Regenerating records them under the new name.
    assert_eq!(rigor(dir.path(), &["baseline", "regenerate", "lib"]).status.code(), Some(0));
    let written = std::fs::read_to_string(dir.path().join(".rigor-baseline.yml")).unwrap();
    assert!(written.contains("lib/new.rb") && !written.contains("lib/old.rb"), "{written}");
    assert_eq!(rigor(dir.path(), &["check", "--baseline-strict", "lib"]).status.code(), Some(0));
}

#[test]
fn baseline_strict_fails_when_a_recorded_finding_was_fixed() {
    let dir = project(&[("lib/a.rb", FINDINGS), ("lib/b.rb", "[1].frob\n")]);
    assert_eq!(rigor(dir.path(), &["baseline", "generate", "--output=ci/base.yml", "lib"]).status.code(), Some(0));
    // Fix the undefined method in a.rb.
    write(dir.path(), "lib/a.rb", "x = \"hi\".upcase\ndef f\n  t = 1\n  2\nend\n");
    let lenient = rigor(dir.path(), &["check", "--baseline=ci/base.yml", "lib"]);
    assert_eq!(lenient.status.code(), Some(0), "without strict a fixed finding is fine: {}", stdout(&lenient));
    assert!(stdout(&lenient).contains("can be tightened"), "{}", stdout(&lenient));
    let strict = rigor(dir.path(), &["check", "--baseline=ci/base.yml", "--baseline-strict", "lib"]);
    assert_eq!(strict.status.code(), Some(1), "{}", stdout(&strict));
    assert!(stdout(&strict).contains("lib/a.rb [call.undefined-method]: 1 recorded, 0 found"), "{}", stdout(&strict));
    let envelope =
        json(&rigor(dir.path(), &["check", "--format=json", "--baseline=ci/base.yml", "--baseline-strict", "lib"]));
    assert_eq!(envelope["success"], false);
    assert_eq!(envelope["baseline"]["stale"][0]["rule"], "call.undefined-method", "{envelope}");
    // Checking only b.rb says nothing about a.rb's rows.
    let part = rigor(dir.path(), &["check", "--baseline=ci/base.yml", "--baseline-strict", "lib/b.rb"]);
    assert_eq!(part.status.code(), Some(0), "{}", stdout(&part));
    // Strict without any baseline is a usage error.
    let none = project(&[("lib/a.rb", "puts 1\n")]);
    assert_eq!(rigor(none.path(), &["check", "--baseline-strict", "lib"]).status.code(), Some(64));
}

#[test]
fn the_config_names_or_switches_off_the_baseline() {
    let dir = project(&[("lib/a.rb", FINDINGS)]);
    assert_eq!(rigor(dir.path(), &["baseline", "generate", "--output=conf/b.yml", "lib"]).status.code(), Some(0));
    write(dir.path(), "conf/rigor.yml", "baseline: b.yml\n");
    assert_eq!(
        rigor(dir.path(), &["check", "--config=conf/rigor.yml", "lib"]).status.code(),
        Some(0),
        "relative to the config"
    );
    std::fs::copy(dir.path().join("conf/b.yml"), dir.path().join(".rigor-baseline.yml")).unwrap();
    write(dir.path(), ".rigor.yml", "baseline: false\n");
    assert_eq!(rigor(dir.path(), &["check", "lib"]).status.code(), Some(1), "baseline: false ignores the default file");
    write(dir.path(), ".rigor.yml", "baseline: true\n");
    assert_eq!(rigor(dir.path(), &["check", "lib"]).status.code(), Some(64));
}

#[test]
fn workers_limit_the_analysis_threads_and_change_no_result() {
    let files: Vec<(String, String)> =
        (0..12).map(|i| (format!("lib/f{i}.rb"), format!("x{i} = \"s\".nope{i}\n"))).collect();
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let dir = project(&refs);
    let one = json(&rigor(dir.path(), &["check", "--format=json", "--no-stats", "--workers=1", "lib"]));
    let many = json(&rigor(dir.path(), &["check", "--format=json", "--no-stats", "--workers=3", "lib"]));
    assert_eq!(one, many);
    assert_eq!(one["error_count"], 12);
    let coverage = rigor(dir.path(), &["coverage", "--format=json", "--workers=1", "lib"]);
    assert_eq!(coverage.status.code(), Some(0), "{}", stderr(&coverage));
    assert_eq!(rigor(dir.path(), &["check", "--workers=0", "lib"]).status.code(), Some(64));
    assert_eq!(rigor(dir.path(), &["coverage", "--workers=x", "lib"]).status.code(), Some(64));
}

#[test]
fn type_of_answers_several_positions_in_order() {
    let dir = project(&[("a.rb", "x = [1, 2].map { |v| v.to_s }\ny = 3\n"), ("b.rb", "z = :sym\n")]);
    let out =
        rigor(dir.path(), &["type-of", "--format=json", "a.rb:2:5", "b.rb:1:5", "a.rb:1:5", "a.rb:9:1", "nope.rb:1:1"]);
    assert_eq!(out.status.code(), Some(1), "some positions failed");
    let results = json(&out)["results"].as_array().unwrap().clone();
    let types: Vec<Value> = results.iter().map(|r| r["type"].clone()).collect();
    assert_eq!(types[..3], [Value::from("3"), Value::from(":sym"), Value::from("[1, 2]")]);
    assert!(results[3]["error"].as_str().unwrap().contains("out of range"), "{results:?}");
    assert!(results[4]["error"].as_str().unwrap().contains("cannot read"), "{results:?}");
    // Each entry equals the single answer.
    let single = json(&rigor(dir.path(), &["type-of", "--format=json", "b.rb:1:5"]));
    assert_eq!(results[1], single);
    let ok = rigor(dir.path(), &["type-of", "a.rb:2:5", "b.rb:1:5"]);
    assert_eq!(ok.status.code(), Some(0));
    assert_eq!(stdout(&ok), "a.rb:2:5\nnode: Prism::IntegerNode\ntype: 3\nerased: 3\n\nb.rb:1:5\nnode: Prism::SymbolNode\ntype: :sym\nerased: :sym\n");
    assert_eq!(rigor(dir.path(), &["type-of", "a.rb:2:5", "b.rb:0:1"]).status.code(), Some(64), "a malformed position");
    assert_eq!(rigor(dir.path(), &["type-of"]).status.code(), Some(64));
}
