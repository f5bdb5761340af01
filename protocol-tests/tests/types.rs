//! The inference tools end to end: rigor_type_of, rigor_annotate and
//! rigor_coverage through the real gateway and engine.

use protocol_tests::{result_text, Mcp};
use serde_json::{json, Value};

#[test]
fn rigor_type_of_reports_node_type_and_erasure() {
    let mut mcp = Mcp::start(&[]);
    let result = mcp.call_tool("rigor_type_of", json!({"file": "typed/inventory.rb", "line": 8, "col": 20}));
    assert_eq!(result["isError"], json!(false), "{result}");
    let answer = &result["structuredContent"];
    assert_eq!(answer["node"], json!("Prism::CallNode"), "{answer}");
    // `map` keeps the literal array's length.
    assert_eq!(answer["type"], json!("[String, String]"), "{answer}");
    assert_eq!(answer["erased"], json!("[String, String]"), "{answer}");
    assert_eq!((answer["line"].clone(), answer["column"].clone()), (json!(8), json!(20)));
    let text: Value = serde_json::from_str(result_text(&result)).unwrap();
    assert_eq!(&text, answer);

    let folded = mcp.call_tool("rigor_type_of", json!({"file": "typed/inventory.rb", "line": 21, "col": 11}));
    assert_eq!(folded["structuredContent"]["type"], json!("3"), "{folded}");
    let shape = mcp.call_tool("rigor_type_of", json!({"file": "typed/inventory.rb", "line": 22, "col": 1}));
    assert_eq!(shape["structuredContent"]["type"], json!("{ total: 3, names: [String, String] }"), "{shape}");
}

#[test]
fn rigor_type_of_failures_are_answers_and_bad_positions_are_errors() {
    let mut mcp = Mcp::start(&[]);
    // A file that does not parse, or a position with no expression: exit 1,
    // a normal result whose JSON says why.
    let broken = mcp.call_tool("rigor_type_of", json!({"file": "typed/broken.rb", "line": 1, "col": 1}));
    assert_eq!(broken["isError"], json!(false), "{broken}");
    assert_eq!(broken["_meta"]["rigor/worker"]["exit_code"], json!(1));
    assert!(broken["structuredContent"]["error"].as_str().unwrap().contains("does not parse"), "{broken}");
    let missing = mcp.call_tool("rigor_type_of", json!({"file": "typed/nope.rb", "line": 1, "col": 1}));
    assert!(missing["structuredContent"]["error"].as_str().unwrap().contains("no such file"), "{missing}");
    // A position outside the file is a usage error (exit 64).
    let outside = mcp.call_tool("rigor_type_of", json!({"file": "typed/inventory.rb", "line": 999, "col": 1}));
    assert_eq!(outside["isError"], json!(true), "{outside}");
    assert!(result_text(&outside).contains("out of range"), "{outside}");
    // The schema wants 1-based integers.
    let zero = mcp.call_tool("rigor_type_of", json!({"file": "typed/inventory.rb", "line": 0, "col": 1}));
    assert_eq!(zero["isError"], json!(true), "{zero}");
    let missing_col = mcp.call_tool("rigor_type_of", json!({"file": "typed/inventory.rb", "line": 1}));
    assert_eq!(missing_col["isError"], json!(true), "{missing_col}");
    assert!(result_text(&missing_col).contains("col"), "{missing_col}");
    let nothing = mcp.call_tool("rigor_type_of", json!({}));
    assert_eq!(nothing["isError"], json!(true), "{nothing}");
    assert!(result_text(&nothing).contains("needs a position"), "{nothing}");
}

#[test]
fn rigor_type_of_answers_several_positions_in_order() {
    let mut mcp = Mcp::start(&[]);
    let positions = json!([
        {"file": "typed/inventory.rb", "line": 21, "col": 11},
        {"file": "typed/nope.rb", "line": 1, "col": 1},
        {"file": "typed/inventory.rb", "line": 8, "col": 20},
        {"file": "typed/inventory.rb", "line": 999, "col": 1}
    ]);
    let result = mcp.call_tool("rigor_type_of", json!({"positions": positions}));
    assert_eq!(result["isError"], json!(false), "{result}");
    let results = result["structuredContent"]["results"].as_array().unwrap_or_else(|| panic!("{result}"));
    assert_eq!(results.len(), 4, "{result}");
    let mut single = |line, col| {
        mcp.call_tool("rigor_type_of", json!({"file": "typed/inventory.rb", "line": line, "col": col}))
            ["structuredContent"]
            .clone()
    };
    assert_eq!(results[0], single(21, 11), "the same answer as asked alone");
    assert_eq!(results[2], single(8, 20));
    assert!(results[1]["error"].as_str().unwrap().contains("no such file"), "{result}");
    assert!(results[3]["error"].as_str().unwrap().contains("out of range"), "{result}");
    // Positions outside the root are refused like a single file is.
    let outside = mcp.call_tool("rigor_type_of", json!({"positions": [{"file": "../x.rb", "line": 1, "col": 1}]}));
    assert_eq!(outside["isError"], json!(true), "{outside}");
}

#[test]
fn rigor_annotate_returns_the_file_with_types() {
    let mut mcp = Mcp::start(&[]);
    let result = mcp.call_tool("rigor_annotate", json!({"file": "typed/inventory.rb"}));
    assert_eq!(result["isError"], json!(false), "{result}");
    assert!(result.get("structuredContent").is_none(), "plain text has no structured content: {result}");
    let text = result_text(&result);
    let line = |n: usize| text.lines().nth(n - 1).unwrap_or_default().to_string();
    // `map` keeps the literal array's length.
    assert!(line(7).starts_with("  def names") && line(7).ends_with("#=> [String, String]"), "{text}");
    assert!(line(9).ends_with("#=> :names"), "{text}");
    assert!(line(21).ends_with("#=> 3"), "{text}");
    assert!(!text.contains('\u{1b}'), "no colour codes: {text}");
    // Every annotation starts in the same column.
    let columns: Vec<usize> = text.lines().filter_map(|l| l.find("  #=> ")).collect();
    assert!(columns.len() > 5 && columns.iter().all(|c| *c == columns[0]), "{columns:?}");
}

#[test]
fn a_failed_annotate_says_why_instead_of_answering_nothing() {
    let mut mcp = Mcp::start(&[]);
    let missing = mcp.call_tool("rigor_annotate", json!({"file": "typed/nope.rb"}));
    assert_eq!(missing["_meta"]["rigor/worker"]["exit_code"], json!(1));
    let text = result_text(&missing);
    assert!(text.contains("typed/nope.rb"), "the reason from stderr: {missing}");
}

#[test]
fn rigor_coverage_reports_tiers_per_file_and_parse_errors() {
    let mut mcp = Mcp::start(&[]);
    let result = mcp.call_tool("rigor_coverage", json!({"paths": ["typed", "lib/clean.rb"]}));
    assert_eq!(result["isError"], json!(false), "{result}");
    // A file that does not parse makes the exit code 1: still an answer.
    assert_eq!(result["_meta"]["rigor/worker"]["exit_code"], json!(1));
    let report = &result["structuredContent"];
    let summary = &report["summary"];
    assert_eq!(summary["files_processed"], json!(2), "{summary}");
    assert_eq!(summary["parse_errors"], json!(1), "{summary}");
    let typed = summary["expressions_typed"].as_u64().unwrap();
    let precise = summary["precise_count"].as_u64().unwrap();
    assert!(typed > 20 && precise > typed / 2, "{summary}");
    let tiers: u64 = report["by_tier"].as_object().unwrap().values().map(|t| t["count"].as_u64().unwrap()).sum();
    assert_eq!(tiers, typed);
    let files: Vec<&str> = report["by_file"].as_array().unwrap().iter().map(|f| f["file"].as_str().unwrap()).collect();
    assert_eq!(files, ["typed/inventory.rb", "lib/clean.rb"]);
    assert_eq!(report["parse_errors"][0]["file"], json!("typed/broken.rb"));

    let clean = mcp.call_tool("rigor_coverage", json!({"paths": ["lib/clean.rb"]}));
    assert_eq!(clean["_meta"]["rigor/worker"]["exit_code"], json!(0), "{clean}");
    let nowhere = mcp.call_tool("rigor_coverage", json!({"paths": ["no/such/dir"]}));
    assert_eq!(nowhere["isError"], json!(true), "{nowhere}");
}

#[test]
fn a_broken_configuration_is_an_error_that_names_it_not_the_arguments() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("lib")).unwrap();
    std::fs::write(dir.path().join("lib/a.rb"), "x = 1\n").unwrap();
    std::fs::write(dir.path().join(".rigor.yml"), "paths: [lib\n").unwrap();
    let mut mcp = Mcp::start_in(dir.path(), &[], &[]);
    let result = mcp.call_tool("rigor_check", json!({"paths": ["lib"]}));
    assert_eq!(result["isError"], json!(true), "{result}");
    let text = result_text(&result);
    assert!(text.contains(".rigor.yml:2"), "the engine's message says where: {text}");
    assert!(text.contains("the project's configuration"), "a usage error may be the project's: {text}");
}
