//! The `rigor` command line, run in-process against temporary projects:
//! JSON shapes and key order, exit codes, usage errors, file expansion,
//! configuration, `explain` and `triage`.

use std::path::Path;

use rigor_engine::cli::{self, Io, Mode};
use serde_json::{json, Value};

struct Run {
    code: i32,
    out: String,
    err: String,
}

impl Run {
    fn json(&self) -> Value {
        serde_json::from_str(&self.out).unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", self.out))
    }

    /// A usage error: exit 64, nothing on stdout, one `rigor: …` line on stderr.
    fn assert_usage_error(&self) {
        assert_eq!(self.code, 64, "stdout: {}\nstderr: {}", self.out, self.err);
        assert_eq!(self.out, "");
        assert!(self.err.starts_with("rigor: "), "{:?}", self.err);
        assert!(self.err.ends_with('\n') && self.err.lines().count() == 1, "not one line: {:?}", self.err);
    }
}

fn rigor(cwd: &Path, args: &[&str]) -> Run {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let code = {
        let mut io = Io { out: &mut out, err: &mut err, cwd: cwd.to_path_buf() };
        cli::run(args.iter().copied(), &mut io, Mode::Process)
    };
    Run { code, out: String::from_utf8(out).unwrap(), err: String::from_utf8(err).unwrap() }
}

fn write(root: &Path, relative: &str, content: &str) {
    let path = root.join(relative);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, content).unwrap();
}

fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (relative, content) in files {
        write(dir.path(), relative, content);
    }
    dir
}

fn keys(value: &Value) -> Vec<&str> {
    value.as_object().unwrap_or_else(|| panic!("not an object: {value}")).keys().map(String::as_str).collect()
}

fn diagnostics(envelope: &Value) -> &Vec<Value> {
    envelope["diagnostics"].as_array().expect("diagnostics is an array")
}

/// (path, line, column, rule) of each diagnostic, in output order.
fn summary(envelope: &Value) -> Vec<(String, u64, u64, Option<String>)> {
    diagnostics(envelope)
        .iter()
        .map(|d| {
            (
                d["path"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap(),
                d["column"].as_u64().unwrap(),
                d["rule"].as_str().map(str::to_string),
            )
        })
        .collect()
}

fn paths(envelope: &Value) -> Vec<String> {
    summary(envelope).into_iter().map(|(path, ..)| path).collect()
}

const WARNING_ONLY: &str = "h = { a: 1, a: 2 }\n";
const ERROR: &str = "x = 10 % 0\n";
const BROKEN: &str = "def (\n";

// ---------------------------------------------------------------- check JSON

#[test]
fn check_json_envelope_has_the_reference_shape_and_key_order() {
    let dir = project(&[("warn.rb", WARNING_ONLY), ("err.rb", ERROR), ("broken.rb", BROKEN)]);
    let run =
        rigor(dir.path(), &["check", "--format", "json", "--no-stats", "warn.rb", "err.rb", "broken.rb", "nope.rb"]);
    assert_eq!(run.code, 1, "{}", run.err);
    assert_eq!(run.err, "");
    let envelope = run.json();
    assert_eq!(keys(&envelope), ["success", "error_count", "diagnostics", "fail_on"]);
    assert_eq!(envelope["success"], json!(false));
    assert_eq!(envelope["fail_on"], json!("error"));

    let all = diagnostics(&envelope);
    let errors = all.iter().filter(|d| d["severity"] == "error").count();
    assert_eq!(envelope["error_count"].as_u64(), Some(errors as u64));
    // One finding each in warn.rb and err.rb, at least one parse error, one missing file.
    assert!(all.len() >= 4, "{all:#?}");

    const RULE_KEYS: &[&str] = &[
        "path",
        "line",
        "column",
        "severity",
        "rule",
        "source_family",
        "message",
        "evidence_tier",
        "documentation_url",
    ];
    const CALL_RULE_KEYS: &[&str] = &[
        "path",
        "line",
        "column",
        "severity",
        "rule",
        "source_family",
        "message",
        "receiver_type",
        "method_name",
        "evidence_tier",
        "documentation_url",
    ];
    const UNRULED_KEYS: &[&str] = &["path", "line", "column", "severity", "rule", "source_family", "message"];
    for d in all {
        assert!(d["path"].is_string() && d["message"].is_string() && d["source_family"] == "builtin", "{d}");
        assert!(d["line"].as_u64().unwrap() >= 1 && d["column"].as_u64().unwrap() >= 1, "{d}");
        assert!(["error", "warning", "info"].contains(&d["severity"].as_str().unwrap()), "{d}");
        match d["rule"].as_str() {
            None => {
                assert!(d["rule"].is_null(), "{d}");
                assert_eq!(keys(d), UNRULED_KEYS);
                assert_eq!(d["severity"], "error");
            }
            Some("flow.always-raises") => {
                assert_eq!(keys(d), CALL_RULE_KEYS);
                assert_eq!((&d["receiver_type"], &d["method_name"]), (&json!("Integer"), &json!("%")));
            }
            Some(_) => assert_eq!(keys(d), RULE_KEYS),
        }
        if let Some(rule) = d["rule"].as_str() {
            assert!(["high", "medium", "low"].contains(&d["evidence_tier"].as_str().unwrap()));
            let url = format!(
                "https://github.com/rigortype/rigor/blob/main/docs/manual/04-diagnostics.md#rule-{}",
                rule.replace('.', "-")
            );
            assert_eq!(d["documentation_url"], json!(url));
        }
    }

    // Files in argument order; the rule findings at their anchors.
    let rows = summary(&envelope);
    assert_eq!(rows[0], ("warn.rb".into(), 1, 13, Some("flow.duplicate-hash-key".into())));
    assert_eq!(all[0]["severity"], "warning");
    assert_eq!(rows[1], ("err.rb".into(), 1, 8, Some("flow.always-raises".into())));
    assert_eq!(all[1]["severity"], "error");
    let broken: Vec<_> = rows[2..rows.len() - 1].iter().collect();
    assert!(broken.iter().all(|(path, _, _, rule)| path == "broken.rb" && rule.is_none()), "{broken:?}");
    let missing = all.last().unwrap();
    assert_eq!(rows.last().unwrap(), &("nope.rb".into(), 1, 1, None));
    assert!(missing["message"].as_str().unwrap().contains("nope.rb"), "{missing}");
}

#[test]
fn stats_are_present_unless_no_stats() {
    let dir = project(&[("a.rb", WARNING_ONLY), ("b.rb", "x = 1\n")]);
    for args in
        [&["check", "--format=json", "a.rb", "b.rb"][..], &["check", "--format=json", "--stats", "a.rb", "b.rb"]]
    {
        let run = rigor(dir.path(), args);
        assert_eq!(run.code, 0);
        let envelope = run.json();
        assert_eq!(keys(&envelope), ["success", "error_count", "diagnostics", "stats", "fail_on"], "{args:?}");
        let stats = &envelope["stats"];
        assert_eq!(keys(stats), ["target_files", "files_with_diagnostics", "wall_seconds", "peak_rss_bytes", "cache"]);
        // A one-shot run builds the project model from nothing.
        assert_eq!(stats["cache"]["reread"], stats["cache"]["project_files"]);
        assert_eq!(stats["cache"]["reanalysed"], json!(2));
        assert_eq!(stats["cache"]["index"], json!("rebuilt"));
        assert_eq!(stats["target_files"], json!(2));
        assert_eq!(stats["files_with_diagnostics"], json!(1));
        assert!(stats["wall_seconds"].as_f64().unwrap() >= 0.0);
        assert!(stats["peak_rss_bytes"].as_u64().unwrap() > 0);
    }
    let run = rigor(dir.path(), &["check", "--format=json", "--no-stats", "a.rb", "b.rb"]);
    assert!(run.json().get("stats").is_none());
}

#[test]
fn config_warnings_follow_fail_on() {
    let dir = project(&[(".rigor.yml", "frobnicate: 1\ncache: {}\n"), ("a.rb", "x = 1\n")]);
    let run = rigor(dir.path(), &["check", "--format=json", "--no-stats", "a.rb"]);
    assert_eq!(run.code, 0);
    let envelope = run.json();
    assert_eq!(keys(&envelope), ["success", "error_count", "diagnostics", "fail_on", "config_warnings"]);
    let warnings = envelope["config_warnings"].as_array().unwrap();
    let kinds: Vec<&str> = warnings.iter().map(|w| w["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["unknown_key", "unsupported_key"]);
    for w in warnings {
        assert_eq!(keys(w), ["kind", "message"]);
    }
}

// ---------------------------------------------------------------- exit codes

#[test]
fn exit_codes_follow_error_severity() {
    let dir = project(&[("warn.rb", WARNING_ONLY), ("err.rb", ERROR), ("clean.rb", "x = 1\n"), ("broken.rb", BROKEN)]);
    let table: &[(&[&str], i32, bool, u64)] = &[
        (&["clean.rb"], 0, true, 0),
        (&["warn.rb"], 0, true, 0),
        (&["err.rb"], 1, false, 1),
        (&["warn.rb", "err.rb"], 1, false, 1),
        (&["missing.rb"], 1, false, 1),
        (&["clean.rb", "missing.rb"], 1, false, 1),
    ];
    for (files, code, success, error_count) in table {
        let mut args = vec!["check", "--format=json", "--no-stats"];
        args.extend_from_slice(files);
        let run = rigor(dir.path(), &args);
        assert_eq!(run.code, *code, "{files:?}");
        let envelope = run.json();
        assert_eq!(envelope["success"], json!(success), "{files:?}");
        assert_eq!(envelope["error_count"], json!(error_count), "{files:?}");
    }
    // A parse error is an error; text output exits the same way.
    assert_eq!(rigor(dir.path(), &["check", "broken.rb"]).code, 1);
    assert_eq!(rigor(dir.path(), &["check", "warn.rb"]).code, 0);
    assert_eq!(rigor(dir.path(), &["check", "err.rb"]).code, 1);
}

#[test]
fn a_missing_file_is_a_rule_less_error_diagnostic() {
    let dir = project(&[]);
    let run = rigor(dir.path(), &["check", "--format", "json", "--no-stats", "gone/nope.rb"]);
    assert_eq!(run.code, 1);
    let envelope = run.json();
    let d = &diagnostics(&envelope)[0];
    assert_eq!(diagnostics(&envelope).len(), 1);
    assert_eq!(
        (&d["path"], &d["line"], &d["column"], &d["severity"], &d["rule"]),
        (&json!("gone/nope.rb"), &json!(1), &json!(1), &json!("error"), &Value::Null)
    );
}

#[test]
fn usage_errors_exit_64_with_one_line_on_stderr() {
    let dir = project(&[("a.rb", "x = 1\n")]);
    let cases: &[&[&str]] = &[
        &["check", "--bogus", "a.rb"],
        &["check", "--format", "xml", "a.rb"],
        &["check", "--format=xml", "a.rb"],
        &["check", "--format"],
        &["frobnicate"],
        &["explain", "--bogus"],
        &["explain", "--format=yaml"],
        &["triage", "--top=many"],
        &["triage", "--hints-only", "--no-hints"],
    ];
    for args in cases {
        let run = rigor(dir.path(), args);
        run.assert_usage_error();
        assert!(run.err.contains("rigor --help"), "{args:?}: {}", run.err);
    }
    let run = rigor(dir.path(), &["check", "--bogus"]);
    assert!(run.err.contains("--bogus"), "{}", run.err);
    let run = rigor(dir.path(), &["frobnicate"]);
    assert!(run.err.contains("frobnicate"), "{}", run.err);
    // No command at all: help on stderr, usage exit.
    let run = rigor(dir.path(), &[]);
    assert_eq!(run.code, 64);
    assert_eq!(run.out, "");
    assert!(run.err.contains("check"), "{}", run.err);
}

#[test]
fn flags_accept_both_the_equals_and_the_space_form() {
    let dir = project(&[("err.rb", ERROR)]);
    let equals = rigor(dir.path(), &["check", "--format=json", "--no-stats", "err.rb"]);
    let space = rigor(dir.path(), &["check", "--format", "json", "--no-stats", "err.rb"]);
    assert_eq!(equals.code, 1);
    assert_eq!(equals.out, space.out);
    assert_eq!(equals.json()["error_count"], json!(1));
}

#[test]
fn text_format_prints_one_line_per_diagnostic() {
    let dir = project(&[("err.rb", ERROR), ("clean.rb", "x = 1\n")]);
    let run = rigor(dir.path(), &["check", "--no-stats", "err.rb"]);
    assert_eq!(run.code, 1);
    let first = run.out.lines().next().unwrap();
    assert!(first.starts_with("err.rb:1:8: error: "), "{first}");
    assert!(first.ends_with(" [flow.always-raises]"), "{first}");
    assert_eq!(run.out.lines().nth(1), Some(""));
    let run = rigor(dir.path(), &["check", "--no-stats", "clean.rb"]);
    assert_eq!((run.code, run.out.as_str()), (0, "No diagnostics\n"));
}

// ------------------------------------------------------------ file expansion

#[test]
fn directories_expand_to_sorted_ruby_files_skipping_hidden_ones() {
    let files: Vec<(&str, &str)> = [
        "lib/z.rb",
        "lib/b.rb",
        "lib/a.rb",
        "lib/m/x.rb",
        "lib/.hidden/d.rb",
        "lib/.e.rb",
        "lib/notes.txt",
        "lib/script.rbx",
        "other/o.rb",
    ]
    .iter()
    .map(|path| (*path, WARNING_ONLY))
    .collect();
    let dir = project(&files);
    let run = rigor(dir.path(), &["check", "--format=json", "lib"]);
    assert_eq!(run.code, 0);
    let envelope = run.json();
    assert_eq!(paths(&envelope), ["lib/a.rb", "lib/b.rb", "lib/m/x.rb", "lib/z.rb"]);
    assert_eq!(envelope["stats"]["target_files"], json!(4));

    // Arguments keep their order; a file is checked once, where first named.
    let run = rigor(dir.path(), &["check", "--format=json", "--no-stats", "other", "lib/z.rb", "lib"]);
    assert_eq!(paths(&run.json()), ["other/o.rb", "lib/z.rb", "lib/a.rb", "lib/b.rb", "lib/m/x.rb"]);

    // A file named explicitly is checked whatever its name.
    let run = rigor(dir.path(), &["check", "--format=json", "--no-stats", "lib/.e.rb", "lib/notes.txt"]);
    assert_eq!(paths(&run.json()), ["lib/.e.rb", "lib/notes.txt"]);
}

#[test]
fn output_is_deterministic_across_runs() {
    let mut files = Vec::new();
    for i in 0..40 {
        let body = match i % 4 {
            0 => ERROR.to_string(),
            1 => format!("def m{i}\n  t = {i}\n  h = {{ k: 1, k: 2 }}\n  h\nend\n"),
            2 => "if nil\n  1\nelsif true\n  2\nelse\n  3\nend\n".to_string(),
            _ => BROKEN.to_string(),
        };
        files.push((format!("lib/f{i:02}.rb"), body));
    }
    let borrowed: Vec<(&str, &str)> = files.iter().map(|(p, c)| (p.as_str(), c.as_str())).collect();
    let dir = project(&borrowed);
    let first = rigor(dir.path(), &["check", "--format=json", "--no-stats", "lib"]);
    let second = rigor(dir.path(), &["check", "--format=json", "--no-stats", "lib"]);
    assert_eq!(first.code, 1);
    assert_eq!(first.out, second.out);
    let order: Vec<String> = paths(&first.json()).into_iter().fold(Vec::new(), |mut seen, p| {
        if seen.last() != Some(&p) {
            seen.push(p);
        }
        seen
    });
    let expected: Vec<String> = (0..40).map(|i| format!("lib/f{i:02}.rb")).collect();
    assert_eq!(order, expected);
    let text_first = rigor(dir.path(), &["check", "--no-stats", "lib"]);
    let text_second = rigor(dir.path(), &["check", "--no-stats", "lib"]);
    assert_eq!(text_first.out, text_second.out);
}

#[test]
fn no_paths_means_lib() {
    let dir = project(&[("lib/x.rb", WARNING_ONLY), ("app/y.rb", ERROR)]);
    let run = rigor(dir.path(), &["check", "--format=json", "--no-stats"]);
    assert_eq!(run.code, 0);
    assert_eq!(paths(&run.json()), ["lib/x.rb"]);

    // Without a lib directory, `lib` is reported missing.
    let empty = project(&[("app/y.rb", ERROR)]);
    let run = rigor(empty.path(), &["check", "--format=json", "--no-stats"]);
    assert_eq!(run.code, 1);
    assert_eq!(summary(&run.json()), [("lib".to_string(), 1, 1, None)]);
}

#[test]
fn config_paths_are_used_when_no_paths_are_given() {
    let dir = project(&[(".rigor.yml", "paths: [app]\n"), ("lib/x.rb", WARNING_ONLY), ("app/y.rb", ERROR)]);
    let run = rigor(dir.path(), &["check", "--format=json", "--no-stats"]);
    assert_eq!(run.code, 1);
    assert_eq!(paths(&run.json()), ["app/y.rb"]);
    // Explicit paths win over the configuration.
    let run = rigor(dir.path(), &["check", "--format=json", "--no-stats", "lib"]);
    assert_eq!(paths(&run.json()), ["lib/x.rb"]);

    // .rigor.dist.yml is read when there is no .rigor.yml, and .rigor.yml wins over it.
    let dist = project(&[(".rigor.dist.yml", "paths: [app]\n"), ("lib/x.rb", WARNING_ONLY), ("app/y.rb", ERROR)]);
    assert_eq!(paths(&rigor(dist.path(), &["check", "--format=json", "--no-stats"]).json()), ["app/y.rb"]);
    write(dist.path(), ".rigor.yml", "paths: [lib]\n");
    assert_eq!(paths(&rigor(dist.path(), &["check", "--format=json", "--no-stats"]).json()), ["lib/x.rb"]);
    // --config bypasses discovery.
    write(dist.path(), "custom.yml", "paths: [app, lib]\n");
    let run = rigor(dist.path(), &["check", "--format=json", "--no-stats", "--config", "custom.yml"]);
    assert_eq!(paths(&run.json()), ["app/y.rb", "lib/x.rb"]);
}

#[test]
fn a_bad_configuration_is_a_usage_error_naming_the_file_and_line() {
    let cases: &[(&str, &str, &[&str], &[&str])] = &[
        // Broken YAML on line 3; an unclosed bracket is found at the end of input.
        (".rigor.yml", "paths:\n  - lib\nexclude: a: b\n", &["check"], &[".rigor.yml:3:"]),
        (".rigor.yml", "paths:\n  - lib\nexclude: [a\n", &["check"], &[".rigor.yml:4:"]),
        // A value of the wrong type on line 2.
        (".rigor.yml", "paths: [lib]\nseverity_profile: [1]\n", &["check"], &[".rigor.yml:2:"]),
        (".rigor.yml", "severity_profile: loud\n", &["check", "--format=json"], &[".rigor.yml", "loud"]),
        (".rigor.yml", "severity_overrides:\n  flow: fatal\n", &["triage"], &[".rigor.yml", "fatal"]),
        ("custom.yml", "paths: [lib\n", &["check", "--config", "custom.yml"], &["custom.yml:2:"]),
        ("custom.yml", "", &["check", "--config", "absent.yml"], &["absent.yml", "no such file"]),
    ];
    for (name, content, args, mentions) in cases {
        let dir = project(&[(name, content), ("lib/x.rb", ERROR)]);
        let run = rigor(dir.path(), args);
        run.assert_usage_error();
        for mention in *mentions {
            assert!(run.err.contains(mention), "{args:?}: {:?} lacks {mention:?}", run.err);
        }
    }
}

#[test]
fn configuration_sets_profile_overrides_disable_and_exclude() {
    let fixture = include_str!("fixtures/all_rules.rb");
    let rules_and_severities = |config: &str| -> Vec<(String, String)> {
        let dir = project(&[(".rigor.yml", config), ("lib/all.rb", fixture), ("lib/gen/skip.rb", ERROR)]);
        let run = rigor(dir.path(), &["check", "--format=json", "--no-stats"]);
        assert!(run.code == 0 || run.code == 1, "{}", run.err);
        let mut rows: Vec<(String, String)> = diagnostics(&run.json())
            .iter()
            .map(|d| (d["rule"].as_str().unwrap().to_string(), d["severity"].as_str().unwrap().to_string()))
            .collect();
        rows.sort();
        rows
    };
    let rows = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
        pairs.iter().map(|(r, s)| (r.to_string(), s.to_string())).collect()
    };
    let exclude = "exclude: ['lib/gen/**']\n";
    assert_eq!(
        rules_and_severities(&format!("{exclude}severity_profile: lenient\n")),
        rows(&[
            ("flow.always-raises", "warning"),
            ("flow.dead-assignment", "info"),
            ("flow.duplicate-hash-key", "info"),
            ("flow.return-in-ensure", "info"),
            ("flow.unreachable-branch", "info"),
        ])
    );
    assert_eq!(
        rules_and_severities(&format!(
            "{exclude}severity_profile: strict\ndisable: [dead-assignment, flow.return-in-ensure]\n"
        )),
        rows(&[
            ("flow.always-raises", "error"),
            ("flow.duplicate-hash-key", "error"),
            ("flow.unreachable-branch", "error")
        ])
    );
    assert_eq!(
        rules_and_severities(&format!(
            "{exclude}severity_overrides:\n  flow: info\n  flow.always-raises: off\n  duplicate-hash-key: error\n"
        )),
        rows(&[
            ("flow.dead-assignment", "info"),
            ("flow.duplicate-hash-key", "error"),
            ("flow.return-in-ensure", "info"),
            ("flow.unreachable-branch", "info"),
        ])
    );
    assert_eq!(rules_and_severities("disable: [flow]\n"), rows(&[]));
    assert_eq!(rules_and_severities("disable: [all]\n"), rows(&[]));
    // Without the exclude, lib/gen/skip.rb is checked too.
    assert_eq!(
        rules_and_severities("disable: [dead-assignment, duplicate-hash-key, return-in-ensure, unreachable-branch]\n"),
        rows(&[("flow.always-raises", "error"), ("flow.always-raises", "error")])
    );
}

// ------------------------------------------------------------------- explain

/// Every rule the engine implements, sorted by id (explain's order).
fn rule_ids() -> Vec<&'static str> {
    let mut ids: Vec<&str> = rigor_engine::rules::all().iter().map(|r| r.id).collect();
    ids.sort_unstable();
    ids
}

fn explain_json(token: Option<&str>) -> Vec<Value> {
    let dir = project(&[]);
    let mut args = vec!["explain", "--format=json"];
    args.extend(token);
    let run = rigor(dir.path(), &args);
    assert_eq!(run.code, 0, "{}", run.err);
    run.json().as_array().expect("explain --format=json prints an array").clone()
}

fn ids(entries: &[Value]) -> Vec<&str> {
    entries.iter().map(|e| e["id"].as_str().unwrap()).collect()
}

#[test]
fn explain_lists_every_rule_sorted_by_id_with_the_reference_keys() {
    let entries = explain_json(None);
    assert_eq!(ids(&entries), rule_ids());
    for required in ["flow.always-raises", "flow.dead-assignment", "suppression.unknown-rule"] {
        assert!(rule_ids().contains(&required), "{required} is implemented");
    }
    let profiles: &[(&str, [&str; 3], &str)] = &[
        ("flow.always-raises", ["warning", "error", "error"], "high"),
        ("flow.dead-assignment", ["info", "warning", "error"], "medium"),
        ("flow.duplicate-hash-key", ["info", "warning", "error"], "high"),
        ("flow.return-in-ensure", ["info", "warning", "error"], "high"),
        ("flow.unreachable-branch", ["info", "warning", "error"], "high"),
    ];
    let mut expected_keys = vec![
        "id",
        "aliases",
        "summary",
        "fires_when",
        "does_not_fire_when",
        "severity_authored",
        "severity_by_profile",
        "documentation_url",
        "since",
        "evidence_tier",
        // Not in the reference: this engine adds the example.
        "example",
    ];
    expected_keys.sort();
    for (id, [lenient, balanced, strict], tier) in profiles {
        let entry = entries.iter().find(|e| e["id"] == json!(id)).unwrap_or_else(|| panic!("{id} listed"));
        let mut got = keys(entry);
        got.sort();
        assert_eq!(got, expected_keys, "{id}");
        assert_eq!(keys(entry)[0], "id");
        assert_eq!(entry["id"], json!(id));
        assert_eq!(entry["aliases"], json!([id.strip_prefix("flow.").unwrap()]));
        assert!(entry["summary"].as_str().is_some_and(|s| !s.is_empty()));
        for list in ["fires_when", "does_not_fire_when"] {
            let items = entry[list].as_array().unwrap();
            assert!(
                !items.is_empty() && items.iter().all(|i| i.as_str().is_some_and(|s| !s.is_empty())),
                "{id} {list}"
            );
        }
        let authored = if *id == "flow.always-raises" { "error" } else { "warning" };
        assert_eq!(entry["severity_authored"], json!(authored), "{id}");
        let by_profile = &entry["severity_by_profile"];
        assert_eq!(keys(by_profile), ["lenient", "balanced", "strict"]);
        assert_eq!(by_profile, &json!({"lenient": lenient, "balanced": balanced, "strict": strict}), "{id}");
        let url = format!(
            "https://github.com/rigortype/rigor/blob/main/docs/manual/04-diagnostics.md#rule-{}",
            id.replace('.', "-")
        );
        assert_eq!(entry["documentation_url"], json!(url));
        assert_eq!(entry["evidence_tier"], json!(tier), "{id}");
        assert!(entry["since"].as_str().is_some_and(|s| s.split('.').count() == 3), "{id}");
    }
}

#[test]
fn explain_selects_by_id_alias_family_and_all() {
    let all = rule_ids();
    let flow: Vec<&str> = all.iter().copied().filter(|id| id.starts_with("flow.")).collect();
    assert!(flow.len() >= 5 && flow.len() < all.len());
    let table: &[(&str, &[&str])] = &[
        ("flow", &flow),
        ("all", &all),
        ("flow.dead-assignment", &["flow.dead-assignment"]),
        ("dead-assignment", &["flow.dead-assignment"]),
        ("always-raises", &["flow.always-raises"]),
        ("flow.unreachable-branch", &["flow.unreachable-branch"]),
    ];
    for (token, expected) in table {
        assert_eq!(ids(&explain_json(Some(token))), *expected, "{token}");
    }
    let dir = project(&[]);
    let text = rigor(dir.path(), &["explain", "duplicate-hash-key"]);
    assert_eq!(text.code, 0);
    assert!(text.out.starts_with("flow.duplicate-hash-key"), "{}", text.out);
    assert!(!text.out.contains("flow.dead-assignment"));
}

#[test]
fn explain_of_an_unknown_rule_is_a_usage_error() {
    let dir = project(&[]);
    for token in ["nope", "flow.nope", "calls", "Flow"] {
        let run = rigor(dir.path(), &["explain", token]);
        run.assert_usage_error();
        assert!(run.err.contains(token), "{}", run.err);
        let run = rigor(dir.path(), &["explain", "--format=json", token]);
        run.assert_usage_error();
    }
}

// -------------------------------------------------------------------- triage

/// Four always-raises errors, two duplicate keys and two unreachable
/// branches (warnings) over four files.
fn triage_project(config: Option<&str>) -> tempfile::TempDir {
    let mut files = vec![
        ("lib/hot.rb", "h = { a: 1, a: 2, a: 3 }\nx = 10 / 0\n"),
        ("lib/b.rb", "y = 1 % 0\n"),
        ("lib/a.rb", "if nil\n  1\nend\nif false\n  2\nend\n"),
        ("lib/mid.rb", "z = 2.div(0)\nw = 3 / 0\n"),
    ];
    if let Some(config) = config {
        files.push((".rigor.yml", config));
    }
    project(&files)
}

fn triage(dir: &Path, extra: &[&str]) -> Value {
    let mut args = vec!["triage", "--format=json"];
    args.extend_from_slice(extra);
    let run = rigor(dir, &args);
    assert_eq!(run.code, 0, "triage always exits 0: {}", run.err);
    run.json()
}

#[test]
fn triage_summarises_sorts_and_hints() {
    let dir = triage_project(None);
    let t = triage(dir.path(), &[]);
    assert_eq!(keys(&t), ["summary", "distribution", "selectors", "hotspots", "hints"]);
    assert_eq!(t["summary"], json!({"total": 8, "error": 4, "warning": 4, "info": 0}));
    assert_eq!(keys(&t["summary"]), ["total", "error", "warning", "info"]);
    // (-count, rule): the two rules with 2 are ordered by name.
    assert_eq!(
        t["distribution"],
        json!([
            {"rule": "flow.always-raises", "count": 4},
            {"rule": "flow.duplicate-hash-key", "count": 2},
            {"rule": "flow.unreachable-branch", "count": 2},
        ])
    );
    // (-count, file): a.rb and mid.rb tie at 2.
    assert_eq!(
        t["hotspots"],
        json!([
            {"file": "lib/hot.rb", "count": 3, "by_rule": {"flow.always-raises": 1, "flow.duplicate-hash-key": 2}},
            {"file": "lib/a.rb", "count": 2, "by_rule": {"flow.unreachable-branch": 2}},
            {"file": "lib/mid.rb", "count": 2, "by_rule": {"flow.always-raises": 2}},
            {"file": "lib/b.rb", "count": 1, "by_rule": {"flow.always-raises": 1}},
        ])
    );
    assert_eq!(
        t["selectors"],
        json!([
            {"receiver": "Integer", "method": "/", "count": 2, "files": 2, "rules": {"flow.always-raises": 2}},
            {"receiver": "Integer", "method": "%", "count": 1, "files": 1, "rules": {"flow.always-raises": 1}},
            {"receiver": "Integer", "method": "div", "count": 1, "files": 1, "rules": {"flow.always-raises": 1}},
        ])
    );
    let hints = t["hints"].as_array().unwrap();
    assert_eq!(hints.len(), 1, "{hints:#?}");
    assert_eq!(keys(&hints[0]), ["id", "confidence", "diagnostic_count", "summary", "action"]);
    assert_eq!((&hints[0]["id"], &hints[0]["confidence"]), (&json!("genuine-bugs"), &json!("likely")));
    assert_eq!(hints[0]["diagnostic_count"], json!(4));

    // The same diagnostics as check, which fails on them.
    let check = rigor(dir.path(), &["check", "--format=json", "--no-stats"]);
    assert_eq!(check.code, 1);
    assert_eq!(diagnostics(&check.json()).len(), 8);
}

#[test]
fn triage_top_limits_hotspots_and_selectors() {
    let dir = triage_project(None);
    let t = triage(dir.path(), &["--top=2"]);
    let files: Vec<&str> = t["hotspots"].as_array().unwrap().iter().map(|h| h["file"].as_str().unwrap()).collect();
    assert_eq!(files, ["lib/hot.rb", "lib/a.rb"]);
    assert_eq!(t["selectors"].as_array().unwrap().len(), 2);
    // The summary and distribution are not limited.
    assert_eq!(t["summary"]["total"], json!(8));
    assert_eq!(t["distribution"].as_array().unwrap().len(), 3);
    let t = triage(dir.path(), &["--top", "1"]);
    assert_eq!(t["hotspots"].as_array().unwrap().len(), 1);
}

#[test]
fn triage_section_flags() {
    let dir = triage_project(None);
    assert_eq!(keys(&triage(dir.path(), &["--hints-only"])), ["hints"]);
    assert_eq!(keys(&triage(dir.path(), &["--selectors-only"])), ["selectors"]);
    assert_eq!(keys(&triage(dir.path(), &["--no-hints"])), ["summary", "distribution", "selectors", "hotspots"]);
}

#[test]
fn triage_excludes_info_unless_asked() {
    // Lenient: always-raises is a warning, the other rules are info.
    let dir = triage_project(Some("severity_profile: lenient\n"));
    let t = triage(dir.path(), &[]);
    assert_eq!(t["summary"], json!({"total": 4, "error": 0, "warning": 4, "info": 0}));
    assert_eq!(t["distribution"], json!([{"rule": "flow.always-raises", "count": 4}]));
    let hotspots: Vec<&str> = t["hotspots"].as_array().unwrap().iter().map(|h| h["file"].as_str().unwrap()).collect();
    assert_eq!(hotspots, ["lib/mid.rb", "lib/b.rb", "lib/hot.rb"]);
    // No error, so no genuine-bugs hint.
    assert_eq!(t["hints"], json!([]));

    let t = triage(dir.path(), &["--include-info"]);
    assert_eq!(t["summary"], json!({"total": 8, "error": 0, "warning": 4, "info": 4}));
    assert_eq!(t["distribution"].as_array().unwrap().len(), 3);
}

#[test]
fn triage_strict_makes_every_finding_a_high_evidence_error() {
    let dir = triage_project(Some("severity_profile: strict\n"));
    let t = triage(dir.path(), &[]);
    assert_eq!(t["summary"], json!({"total": 8, "error": 8, "warning": 0, "info": 0}));
    let hints = t["hints"].as_array().unwrap();
    assert_eq!(hints[0]["id"], json!("genuine-bugs"));
    assert_eq!(hints[0]["diagnostic_count"], json!(8));
}

#[test]
fn triage_reports_parse_errors_and_clusters() {
    let many_keys: String = (0..24).map(|_| "h = { a: 1, a: 2 }\n").collect();
    let dir = project(&[("lib/gen.rb", &many_keys), ("lib/small.rb", WARNING_ONLY), ("lib/broken.rb", BROKEN)]);
    let t = triage(dir.path(), &[]);
    let parse_errors = t["summary"]["error"].as_u64().unwrap();
    assert!(parse_errors >= 1);
    assert_eq!(t["summary"]["warning"], json!(25));
    let hint_ids: Vec<&str> = t["hints"].as_array().unwrap().iter().map(|h| h["id"].as_str().unwrap()).collect();
    assert_eq!(hint_ids, ["parse-errors", "systemic-file-cluster", "dominant-rule"]);
    // Parse errors have no rule: null in the distribution, "parse-error" in hotspots.
    let distribution = t["distribution"].as_array().unwrap();
    assert_eq!(distribution[0], json!({"rule": "flow.duplicate-hash-key", "count": 25}));
    assert_eq!(distribution[1], json!({"rule": null, "count": parse_errors}));
    assert_eq!(t["hotspots"][0]["file"], json!("lib/gen.rb"));
    let broken = t["hotspots"].as_array().unwrap().iter().find(|h| h["file"] == "lib/broken.rb").unwrap();
    assert_eq!(broken["by_rule"], json!({"parse-error": parse_errors}));
}
