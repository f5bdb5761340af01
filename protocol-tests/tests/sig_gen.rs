//! rigor_sig_gen end to end: through the real gateway and engine, its
//! candidates' RBS parses, `params` and `config` reach the engine, and the
//! tool never writes.

use protocol_tests::{fixture_project, result_text, Mcp};
use serde_json::{json, Value};

/// (method, classification, rbs or skip reason) of a result's candidates.
fn summary(result: &Value) -> Vec<(String, String, String)> {
    result["structuredContent"]["candidates"]
        .as_array()
        .unwrap_or_else(|| panic!("no candidates in {result}"))
        .iter()
        .map(|c| {
            let detail = c["rbs"].as_str().or(c["skip_reason"].as_str()).unwrap_or("").to_string();
            (c["method"].as_str().unwrap().to_string(), c["classification"].as_str().unwrap().to_string(), detail)
        })
        .collect()
}

fn owned(rows: &[(&str, &str, &str)]) -> Vec<(String, String, String)> {
    rows.iter().map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string())).collect()
}

#[test]
fn rigor_sig_gen_proposes_signatures_that_parse() {
    let mut mcp = Mcp::start(&[]);
    let result = mcp.call_tool("rigor_sig_gen", json!({"paths": ["siggen"]}));
    assert_eq!(result["isError"], json!(false), "{result}");
    assert_eq!(result["_meta"]["rigor/worker"]["argv"][0], json!("sig-gen"));
    assert_eq!(
        summary(&result),
        owned(&[
            ("label", "new_file", "def label: (untyped, untyped) -> String"),
            ("add", "skipped", "sig.skipped.untyped-return"),
            ("ready?", "new_file", "def ready?: () -> true"),
            ("zero", "new_file", "def self.zero: () -> 0"),
            ("split", "skipped", "sig.skipped.complex-shape"),
        ])
    );
    let text: Value = serde_json::from_str(result_text(&result)).unwrap();
    assert_eq!(&text, &result["structuredContent"]);
    for candidate in result["structuredContent"]["candidates"].as_array().unwrap() {
        if let Some(rbs) = candidate["rbs"].as_str() {
            let declaration = format!("class {}\n  {rbs}\nend\n", candidate["class"].as_str().unwrap());
            assert!(ruby_rbs::node::parse(&declaration).is_ok(), "does not parse: {declaration}");
        }
    }
    assert!(!fixture_project().join("sig").exists(), "the tool never writes");
}

#[test]
fn observed_params_come_from_the_calls() {
    let mut mcp = Mcp::start(&[]);
    let result = mcp.call_tool("rigor_sig_gen", json!({"paths": ["siggen/calc.rb"], "params": "observed"}));
    assert_eq!(result["isError"], json!(false), "{result}");
    assert_eq!(
        summary(&result)[0],
        ("label".into(), "new_file".into(), "def label: (String, Float | Integer) -> String".into())
    );
    let bad = mcp.call_tool("rigor_sig_gen", json!({"paths": ["siggen"], "params": "observed-strict"}));
    assert_eq!(bad["isError"], json!(true), "{bad}");
}

#[test]
fn a_calls_config_beats_the_sessions_and_a_bad_config_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let session = dir.path().join("session.yml");
    std::fs::write(&session, "paths: [siggen]\n").unwrap();

    let mut mcp = Mcp::start(&["--config", session.to_str().unwrap()]);
    let files = |result: &Value| -> Vec<String> {
        let mut files: Vec<String> = result["structuredContent"]["candidates"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["file"].as_str().unwrap().to_string())
            .collect();
        files.dedup();
        files
    };
    let default = mcp.call_tool("rigor_sig_gen", json!({}));
    assert_eq!(files(&default), ["siggen/calc.rb"], "{default}");
    // A call's config must lie inside the project root.
    let own = mcp.call_tool("rigor_sig_gen", json!({"config": "configs/typed.yml"}));
    assert_eq!(files(&own), ["typed/inventory.rb"], "{own}");

    let bad = mcp.call_tool("rigor_sig_gen", json!({"config": "configs/broken-target.yml"}));
    assert_eq!(bad["isError"], json!(true), "{bad}");
    assert!(result_text(&bad).contains("broken-target.yml:3:"), "{bad}");
}
