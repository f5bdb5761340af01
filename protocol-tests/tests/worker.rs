//! The private worker protocol, spoken directly to `rigor worker`
//! (docs/worker-protocol.md).

use std::time::Duration;

use protocol_tests::{bin, fixture_project, Server};
use serde_json::{json, Value};

fn worker() -> (Server, Value) {
    let mut server = Server::spawn(&bin("rigor"), &["worker"], &fixture_project());
    let hello = server.receive();
    (server, hello)
}

#[test]
fn the_hello_announces_protocol_engine_pid_and_tools() {
    let (server, hello) = worker();
    assert_eq!(hello["type"], json!("hello"));
    assert_eq!(hello["protocol"], json!(1));
    assert_eq!(hello["engine"]["name"], json!("rigor"));
    assert_eq!(hello["pid"], json!(server.pid()));
    assert_eq!(hello["server"]["name"], json!("rigor-mcp"));
    assert_eq!(hello["server"]["env_prefix"], json!("RIGOR_"));
    assert_eq!(hello["server"]["meta_key"], json!("rigor/worker"));
    assert!(hello["server"]["instructions"].as_str().unwrap().contains("rigor_check"));
    let names: Vec<&str> = hello["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "rigor_check",
            "rigor_triage",
            "rigor_explain",
            "rigor_type_of",
            "rigor_annotate",
            "rigor_coverage",
            "rigor_sig_gen"
        ]
    );
    for tool in hello["tools"].as_array().unwrap() {
        assert!(tool["argv"].is_array(), "{tool}");
    }
}

#[test]
fn a_call_runs_the_cli_with_captured_output() {
    let (mut server, _) = worker();
    let project = fixture_project();
    server.send(&json!({"type": "call", "id": "a", "argv": ["check", "--format=json", "--no-stats", "--", "lib"], "cwd": project}));
    let result = server.receive();
    assert_eq!(result["type"], json!("result"));
    assert_eq!(result["id"], json!("a"));
    assert_eq!(result["exit_code"], json!(1));
    let report: Value = serde_json::from_str(result["stdout"].as_str().unwrap()).unwrap();
    assert_eq!(report["error_count"], json!(1));
    assert!(result["elapsed_ms"].as_f64().unwrap() >= 0.0);

    // The same argv on the command line gives the same output and exit code.
    let cli = std::process::Command::new(bin("rigor"))
        .args(["check", "--format=json", "--no-stats", "--", "lib"])
        .current_dir(&project)
        .output()
        .unwrap();
    assert_eq!(cli.status.code(), Some(1));
    assert_eq!(String::from_utf8(cli.stdout).unwrap(), result["stdout"].as_str().unwrap());
}

#[test]
fn usage_errors_come_back_as_exit_64_with_stderr() {
    let (mut server, _) = worker();
    server.send(&json!({"type": "call", "id": 1, "argv": ["check", "--frobnicate"]}));
    let result = server.receive();
    assert_eq!(result["exit_code"], json!(64));
    assert!(result["stderr"].as_str().unwrap().contains("--frobnicate"), "{result}");
    assert_eq!(result["stdout"], json!(""));
}

#[test]
fn bad_requests_get_an_error_and_the_worker_keeps_serving() {
    let (mut server, _) = worker();
    server.send_raw(b"this is not json\n");
    let error = server.receive();
    assert_eq!(error["type"], json!("error"));
    assert_eq!(error["id"], Value::Null);
    server.send(&json!({"type": "call", "id": 2, "argv": ["explain"], "cwd": "/nonexistent"}));
    let error = server.receive();
    assert_eq!((error["type"].clone(), error["id"].clone()), (json!("error"), json!(2)));
    server.send(&json!({"type": "call", "id": 3, "argv": ["worker"]}));
    let refused = server.receive();
    assert_eq!(refused["exit_code"], json!(64), "a worker must not start a worker: {refused}");
    server.send(&json!({"type": "call", "id": 4, "argv": ["explain", "flow"]}));
    assert_eq!(server.receive()["exit_code"], json!(0));
}

#[test]
fn shutdown_and_eof_both_end_the_worker_at_once() {
    let (mut server, _) = worker();
    server.send(&json!({"type": "shutdown"}));
    assert_eq!(server.wait_exit(Duration::from_secs(1)).and_then(|s| s.code()), Some(0));
    let (mut server, _) = worker();
    server.close_stdin();
    assert_eq!(server.wait_exit(Duration::from_secs(1)).and_then(|s| s.code()), Some(0));
}

#[test]
fn calls_leave_nothing_behind_for_the_next_call() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("lib")).unwrap();
    let file = dir.path().join("lib/a.rb");
    std::fs::write(&file, "x = 10 / 0\n").unwrap();
    let (mut server, _) = worker();
    let check = |server: &mut Server, id: i64| {
        server.send(
            &json!({"type": "call", "id": id, "argv": ["check", "--format=json", "--no-stats"], "cwd": dir.path()}),
        );
        let result = server.receive();
        serde_json::from_str::<Value>(result["stdout"].as_str().unwrap()).unwrap()["error_count"].as_u64().unwrap()
    };
    assert_eq!(check(&mut server, 1), 1);
    std::fs::write(&file, "x = 10 / 2\n").unwrap();
    assert_eq!(check(&mut server, 2), 0, "the edited file is read again");
    std::fs::write(dir.path().join(".rigor.yml"), "disable: [flow]\n").unwrap();
    std::fs::write(&file, "x = 10 / 0\n").unwrap();
    assert_eq!(check(&mut server, 3), 0, "a new config is seen on the next call");
    std::fs::remove_file(dir.path().join(".rigor.yml")).unwrap();
    assert_eq!(check(&mut server, 4), 1, "and its removal too");
}

/// A project whose `Greeter#hi` a signature in `sig/greeter.rbs` types as
/// String: the directory and the signature's path.
fn greeter_project() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("lib")).unwrap();
    std::fs::create_dir_all(dir.path().join("sig")).unwrap();
    std::fs::write(dir.path().join("lib/greeter.rb"), "class Greeter\n  def hi = :hi\nend\nGreeter.new.hi\n").unwrap();
    let signature = dir.path().join("sig/greeter.rbs");
    std::fs::write(&signature, "class Greeter\n  def hi: () -> String\nend\n").unwrap();
    (dir, signature)
}

/// The worker's type of `Greeter.new.hi` (line 4 of the greeter project).
fn greeting_type(server: &mut Server, id: i64, dir: &std::path::Path) -> String {
    let argv = ["type-of", "--format=json", "--", "lib/greeter.rb:4:13"];
    server.send(&json!({"type": "call", "id": id, "argv": argv, "cwd": dir}));
    let result = server.receive();
    assert_eq!(result["exit_code"], json!(0), "{result}");
    let answer: Value = serde_json::from_str(result["stdout"].as_str().unwrap()).unwrap();
    answer["type"].as_str().unwrap().to_string()
}

#[test]
fn an_edited_signature_is_seen_on_the_next_call() {
    let (dir, signature) = greeter_project();
    let (mut server, _) = worker();
    let mut type_at_line_4 = |id: i64| greeting_type(&mut server, id, dir.path());
    assert_eq!(type_at_line_4(1), "String", "the project's sig/ is the source of truth");
    assert_eq!(type_at_line_4(2), "String", "and stays so on the next call");
    std::fs::write(&signature, "class Greeter\n  def hi: () -> Integer\nend\n").unwrap();
    assert_eq!(type_at_line_4(3), "Integer", "an edited signature is read again");
    std::fs::remove_file(&signature).unwrap();
    assert_eq!(type_at_line_4(4), ":hi", "without a signature the body decides");
}

#[test]
fn a_signature_rewritten_with_its_size_and_mtime_kept_is_seen_on_the_next_call() {
    // Two saves within one clock tick, or a tool that puts the mtime back
    // (`cp -p`, `tar x`), leave size and mtime as they were: the worker
    // must not take the stat's word for the content.
    let (dir, signature) = greeter_project();
    let (mut server, _) = worker();
    let mut type_at_line_4 = |id: i64| greeting_type(&mut server, id, dir.path());
    assert_eq!(type_at_line_4(1), "String");
    let mtime = std::fs::metadata(&signature).unwrap().modified().unwrap();
    // `String` and `Float?` are both six bytes.
    std::fs::write(&signature, "class Greeter\n  def hi: () -> Float?\nend\n").unwrap();
    std::fs::File::options().write(true).open(&signature).unwrap().set_modified(mtime).unwrap();
    assert_eq!(std::fs::metadata(&signature).unwrap().modified().unwrap(), mtime);
    assert_eq!(type_at_line_4(2), "Float?", "the rewritten signature is read again");
    assert_eq!(type_at_line_4(3), "Float?", "and kept");
}
