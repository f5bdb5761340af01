//! Crash isolation: whatever the worker does, the gateway stays up, says
//! what happened, and the next call works (issue 4).

use std::time::{Duration, Instant};

use protocol_tests::{
    fake_engine_in, process_alive, result_text, signal, wait_gone, wait_new_child, worker_pid, zombie_children, Mcp,
};
use serde_json::{json, Value};

const FAILPOINTS: &str = "explain/fp.panic:panic,explain/fp.abort:abort,explain/fp.exit:exit,explain/fp.garbage:garbage,explain/fp.hang:hang";

fn explain(mcp: &mut Mcp, rule: &str) -> Value {
    mcp.call_tool("rigor_explain", json!({"rule": rule}))
}

#[test]
fn each_kind_of_worker_failure_is_reported_and_the_next_call_works() {
    let mut mcp = Mcp::start_with_env(&["--call-timeout", "2"], &[("RIGOR_FAILPOINT", FAILPOINTS)]);
    let cases = [
        ("fp.panic", "exited with code 101"),
        ("fp.abort", "signal 6 (SIGABRT)"),
        ("fp.exit", "exited with code 3"),
        ("fp.garbage", "not JSON"),
        ("fp.hang", "timed out after 2 s"),
    ];
    let mut previous = worker_pid(&explain(&mut mcp, "flow"));
    for (token, expected) in cases {
        let failed = explain(&mut mcp, token);
        assert_eq!(failed["isError"], json!(true), "{token}: {failed}");
        let text = result_text(&failed);
        assert!(text.contains(expected), "{token}: {text}");
        if token != "fp.garbage" && token != "fp.hang" {
            assert!(text.contains("failpoint explain:"), "{token}: the worker's last stderr lines are quoted: {text}");
        }
        let next = explain(&mut mcp, "flow");
        assert_eq!(next["isError"], json!(false), "after {token}: {next}");
        let pid = worker_pid(&next);
        assert_ne!(pid, previous, "after {token} a fresh worker serves");
        assert!(!process_alive(previous), "the failed worker {previous} is gone");
        previous = pid;
    }
    assert!(zombie_children(mcp.server.pid()).is_empty(), "every worker was reaped");
    mcp.server.assert_stdout_is_protocol_only();
}

#[test]
fn a_worker_killed_from_outside_is_reported_with_its_signal() {
    let mut mcp = Mcp::start_with_env(&[], &[("RIGOR_FAILPOINT", FAILPOINTS)]);
    let pid = worker_pid(&explain(&mut mcp, "flow"));
    let id = mcp.send_request("tools/call", json!({"name": "rigor_explain", "arguments": {"rule": "fp.hang"}}));
    std::thread::sleep(Duration::from_millis(300));
    signal(pid, libc::SIGKILL);
    let answer = mcp.server.answer_to(&id);
    assert_eq!(answer["result"]["isError"], json!(true));
    assert!(result_text(&answer["result"]).contains("signal 9 (SIGKILL)"), "{answer}");
    assert_eq!(explain(&mut mcp, "flow")["isError"], json!(false));
}

/// Ends the idle worker `pid` by `how`: a signal, or `pipes` (the fake
/// engine closes its stdin and stdout on SIGUSR1 and lingers).
fn end_idle_worker(pid: u32, how: i32) {
    signal(pid, how);
    // The fake closes its pipes in a signal handler, some time after the
    // signal: a call written before that lands in a pipe it never reads.
    // The case here is a worker that has closed them, so wait for that.
    let started = std::time::Instant::now();
    let open = |fd: u32| std::path::Path::new(&format!("/proc/{pid}/fd/{fd}")).exists();
    while how == libc::SIGUSR1 && (open(0) || open(1)) {
        assert!(started.elapsed() < Duration::from_secs(10), "worker {pid} keeps its pipes open");
        std::thread::sleep(Duration::from_millis(5));
    }
    // Rust's runtime takes the first SIGSEGV sent from outside for a
    // possible stack overflow and carries on; a later one is fatal. Two
    // sent before it runs count as one, so repeat until it is gone.
    let started = std::time::Instant::now();
    while how == libc::SIGSEGV && !wait_gone(pid, Duration::from_millis(200)) {
        assert!(started.elapsed() < Duration::from_secs(10), "worker {pid} survives SIGSEGV");
        signal(pid, libc::SIGSEGV);
    }
}

const IDLE_DEATHS: [(i32, &str); 3] =
    [(libc::SIGKILL, "SIGKILL"), (libc::SIGTERM, "SIGTERM"), (libc::SIGSEGV, "SIGSEGV")];

/// Each way an idle worker can end: the next call, sent at once, succeeds;
/// and without any call the gateway has already started a fresh worker.
fn idle_deaths_cost_nothing(mut mcp: Mcp, call: fn(&mut Mcp) -> Value, deaths: &[(i32, &str)]) {
    let gateway = mcp.server.pid();
    for (how, name) in deaths {
        let pid = worker_pid(&call(&mut mcp));
        end_idle_worker(pid, *how);
        let next = call(&mut mcp);
        assert_eq!(next["isError"], json!(false), "{name}, next call at once: {next}");
        assert_ne!(worker_pid(&next), pid, "{name}: a fresh worker served");

        let pid = worker_pid(&next);
        end_idle_worker(pid, *how);
        let fresh = wait_new_child(gateway, pid, Duration::from_secs(5));
        let fresh = fresh.unwrap_or_else(|| panic!("{name}: no fresh worker started without a call"));
        let next = call(&mut mcp);
        assert_eq!(next["isError"], json!(false), "{name}, next call later: {next}");
        assert_eq!(worker_pid(&next), fresh, "{name}: the worker started in the background served");
    }
    assert!(zombie_children(gateway).is_empty(), "every worker was reaped");
    mcp.server.assert_stdout_is_protocol_only();
}

#[test]
fn an_idle_rigor_worker_killed_by_any_signal_is_replaced_unseen() {
    let mcp = Mcp::start(&[]);
    idle_deaths_cost_nothing(mcp, |mcp| explain(mcp, "flow"), &IDLE_DEATHS);
}

#[test]
fn an_idle_fake_worker_killed_or_closing_its_pipes_is_replaced_unseen() {
    let dir = tempfile::tempdir().unwrap();
    let engine = fake_engine_in(dir.path());
    let mcp = Mcp::start(&["--engine", engine.to_str().unwrap()]);
    let mut deaths = IDLE_DEATHS.to_vec();
    deaths.push((libc::SIGUSR1, "closed pipes"));
    idle_deaths_cost_nothing(mcp, |mcp| mcp.call_tool("echo", json!({"text": "x"})), &deaths);
}

#[test]
fn a_worker_that_dies_between_two_pipelined_calls_costs_the_second_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let engine = fake_engine_in(dir.path());
    let mut mcp = Mcp::start(&["--engine", engine.to_str().unwrap()]);
    for round in 0..8 {
        // die_after answers, then the worker kills itself with SIGKILL
        // while the next call is already on its way to it.
        let dying = mcp.send_request("tools/call", json!({"name": "die_after", "arguments": {}}));
        let next = mcp.send_request("tools/call", json!({"name": "echo", "arguments": {"text": round.to_string()}}));
        let first = mcp.server.answer_to(&dying);
        assert_eq!(result_text(&first["result"]), "dying", "{first}");
        let second = mcp.server.answer_to(&next);
        assert_eq!(second["result"]["isError"], json!(false), "round {round}: {second}");
        assert_eq!(result_text(&second["result"]), format!("v1:{round}"));
        assert_ne!(worker_pid(&second["result"]), worker_pid(&first["result"]));
    }
}

#[test]
fn queued_calls_are_served_by_the_new_worker_after_a_crash() {
    let mut mcp = Mcp::start_with_env(&[], &[("RIGOR_FAILPOINT", FAILPOINTS)]);
    let crash = mcp.send_request("tools/call", json!({"name": "rigor_explain", "arguments": {"rule": "fp.abort"}}));
    let queued: Vec<Value> = (0..5)
        .map(|_| mcp.send_request("tools/call", json!({"name": "rigor_check", "arguments": {"paths": ["lib"]}})))
        .collect();
    let crashed = mcp.server.answer_to(&crash);
    assert_eq!(crashed["result"]["isError"], json!(true));
    let mut pids = Vec::new();
    for id in &queued {
        let answer = mcp.server.answer_to(id);
        assert_eq!(answer["result"]["isError"], json!(false), "{answer}");
        pids.push(worker_pid(&answer["result"]));
    }
    assert!(pids.iter().all(|p| *p == pids[0]), "one new worker serves the queue: {pids:?}");
}

#[test]
fn a_worker_that_dies_at_start_up_is_retried_with_backoff_and_calls_fail_fast() {
    let mut mcp = Mcp::start_with_env(&[], &[("RIGOR_FAILPOINT", "startup:exit")]);
    for _ in 0..3 {
        let started = Instant::now();
        let result = mcp.call_tool("rigor_check", json!({"paths": ["lib"]}));
        assert!(started.elapsed() < Duration::from_secs(2), "a call does not wait out the backoff");
        assert_eq!(result["isError"], json!(true));
        let text = result_text(&result);
        assert!(text.contains("exited with code 3 before saying hello"), "{text}");
        assert!(text.contains("failpoint startup:exit fired"), "the worker's stderr is quoted: {text}");
        assert!(text.contains("tries again in"), "{text}");
    }
    let tools = mcp.request_ok("tools/list", json!({}));
    assert_eq!(tools["tools"], json!([]));
    assert!(zombie_children(mcp.server.pid()).is_empty());
}

#[test]
fn a_hang_hits_the_deadline_and_a_per_tool_timeout_overrides_the_default() {
    let dir = tempfile::tempdir().unwrap();
    let engine = fake_engine_in(dir.path());
    let mut mcp = Mcp::start(&["--engine", engine.to_str().unwrap(), "--call-timeout", "30"]);
    let started = Instant::now();
    // quick_sleep declares timeout_seconds 0.5 in the catalogue.
    let result = mcp.call_tool("quick_sleep", json!({"seconds": 20}));
    assert!(started.elapsed() < Duration::from_secs(5), "the tool's own deadline applied");
    assert!(result_text(&result).contains("timed out after 0.5 s"), "{result}");
    let echo = mcp.call_tool("echo", json!({"text": "still here"}));
    assert_eq!(result_text(&echo), "v1:still here");
}

#[test]
fn a_worker_that_closes_its_pipes_is_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let engine = fake_engine_in(dir.path());
    let mut mcp = Mcp::start(&["--engine", engine.to_str().unwrap()]);
    let result = mcp.call_tool("close", json!({}));
    assert_eq!(result["isError"], json!(true));
    assert!(result_text(&result).contains("closed its output"), "{result}");
    assert_eq!(result_text(&mcp.call_tool("echo", json!({"text": "x"}))), "v1:x");
}

#[test]
fn cancelling_a_running_call_stops_it_and_it_gets_no_answer() {
    let mut mcp = Mcp::start_with_env(&[], &[("RIGOR_FAILPOINT", FAILPOINTS)]);
    let first = worker_pid(&explain(&mut mcp, "flow"));
    let id = mcp.send_request("tools/call", json!({"name": "rigor_explain", "arguments": {"rule": "fp.hang"}}));
    std::thread::sleep(Duration::from_millis(200));
    mcp.server.send(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id, "reason": "user pressed stop"}}));
    let next = explain(&mut mcp, "flow");
    assert_eq!(next["isError"], json!(false));
    assert_ne!(worker_pid(&next), first, "the hung worker was replaced");
    assert!(wait_gone(first, Duration::from_secs(2)));
    assert!(mcp.server.receive_within(Duration::from_millis(300)).is_none(), "the cancelled call is never answered");
}

#[test]
fn cancelling_a_queued_call_removes_it_and_others_are_still_answered() {
    let mut mcp = Mcp::start_with_env(&[], &[("RIGOR_FAILPOINT", FAILPOINTS)]);
    let hung = mcp.send_request("tools/call", json!({"name": "rigor_explain", "arguments": {"rule": "fp.hang"}}));
    let queued =
        mcp.send_request("tools/call", json!({"name": "rigor_explain", "arguments": {"rule": "flow.always-raises"}}));
    let kept =
        mcp.send_request("tools/call", json!({"name": "rigor_explain", "arguments": {"rule": "flow.dead-assignment"}}));
    std::thread::sleep(Duration::from_millis(200));
    mcp.server.send(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": queued}}));
    mcp.server.send(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": hung}}));
    let answer = mcp.server.receive();
    assert_eq!(answer["id"], kept, "only the call that was not cancelled is answered: {answer}");
    assert!(result_text(&answer["result"]).contains("flow.dead-assignment"));
    assert!(mcp.server.receive_within(Duration::from_millis(300)).is_none());
    // Cancelling something unknown or finished is harmless.
    mcp.server.send(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 12345}}));
    assert_eq!(mcp.request("ping", json!({}))["result"], json!({}));
}

#[test]
fn path_arguments_are_confined_to_the_root() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("project");
    std::fs::create_dir_all(root.join("lib")).unwrap();
    std::fs::write(root.join("lib/a.rb"), "x = 1\n").unwrap();
    std::os::unix::fs::symlink("/etc", root.join("lib/etc")).unwrap();
    let engine = fake_engine_in(dir.path());
    let mut mcp = Mcp::start_in(&root, &["--engine", engine.to_str().unwrap()], &[]);
    for path in ["/etc/passwd", "../fake-engine", "lib/../../fake-engine", "lib/etc/passwd"] {
        let result = mcp.call_tool("cat", json!({"path": path}));
        assert_eq!(result["isError"], json!(true), "{path}");
        assert!(result_text(&result).contains("outside the project root"), "{path}: {result}");
    }
    let inside = mcp.call_tool("cat", json!({"path": "lib/a.rb"}));
    assert_eq!(result_text(&inside), "x = 1\n");
}

#[test]
fn the_real_engine_refuses_paths_outside_the_root_too() {
    let mut mcp = Mcp::start(&[]);
    let result = mcp.call_tool("rigor_check", json!({"paths": ["/etc"]}));
    assert_eq!(result["isError"], json!(true));
    let result = mcp.call_tool("rigor_check", json!({"paths": ["lib"], "config": "../../../../etc/passwd"}));
    assert!(result_text(&result).contains("outside the project root"), "{result}");
}

#[test]
fn the_worker_gets_a_minimal_environment() {
    let dir = tempfile::tempdir().unwrap();
    let engine = fake_engine_in(dir.path());
    let env = [("SECRET_TOKEN", "hunter2"), ("RIGOR_SETTING", "on"), ("PASSED_ON", "yes")];
    let mut mcp = Mcp::start_with_env(&["--engine", engine.to_str().unwrap(), "--pass-env", "PASSED_ON"], &env);
    let lookup = |mcp: &mut Mcp, name: &str| result_text(&mcp.call_tool("env", json!({"name": name}))).to_string();
    assert_eq!(lookup(&mut mcp, "SECRET_TOKEN"), "<unset>");
    assert_eq!(lookup(&mut mcp, "RIGOR_SETTING"), "on");
    assert_eq!(lookup(&mut mcp, "PASSED_ON"), "yes");
    assert_ne!(lookup(&mut mcp, "PATH"), "<unset>");
}

fn shutdown_by(how: &str) {
    let dir = tempfile::tempdir().unwrap();
    let engine = fake_engine_in(dir.path());
    let mut mcp = Mcp::start(&["--engine", engine.to_str().unwrap()]);
    let child: u32 = result_text(&mcp.call_tool("spawn_child", json!({}))).parse().unwrap();
    let worker = worker_pid(&mcp.call_tool("echo", json!({"text": "x"})));
    assert!(process_alive(child) && process_alive(worker));
    let gateway = mcp.server.pid();
    match how {
        "eof" => mcp.server.close_stdin(),
        "term" => signal(gateway, libc::SIGTERM),
        "int" => signal(gateway, libc::SIGINT),
        _ => unreachable!(),
    }
    assert!(mcp.server.wait_exit(Duration::from_secs(2)).is_some(), "{how}: the gateway exits");
    assert!(wait_gone(worker, Duration::from_secs(2)), "{how}: worker {worker} gone");
    assert!(wait_gone(child, Duration::from_secs(2)), "{how}: the worker's child {child} gone");
}

#[test]
fn eof_sigterm_and_sigint_stop_the_worker_and_its_children() {
    for how in ["eof", "term", "int"] {
        shutdown_by(how);
    }
}

#[test]
fn a_gateway_killed_with_sigkill_takes_a_hung_worker_with_it() {
    let mut mcp = Mcp::start_with_env(&[], &[("RIGOR_FAILPOINT", FAILPOINTS)]);
    let worker = worker_pid(&explain(&mut mcp, "flow"));
    mcp.send_request("tools/call", json!({"name": "rigor_explain", "arguments": {"rule": "fp.hang"}}));
    std::thread::sleep(Duration::from_millis(200));
    signal(mcp.server.pid(), libc::SIGKILL);
    assert!(wait_gone(worker, Duration::from_secs(5)), "the hung worker {worker} outlived its gateway");
}

#[test]
fn a_client_that_stops_reading_does_not_grow_the_gateways_memory() {
    let mut mcp = Mcp::start(&[]);
    let gateway = mcp.server.pid();
    let rss = || -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{gateway}/status")).unwrap();
        status
            .lines()
            .find(|l| l.starts_with("VmRSS:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .unwrap()
            .parse()
            .unwrap()
    };
    let before = rss();
    // Flood requests from a thread while nobody reads the answers; the
    // writes block once the gateway stops reading, which is the point.
    let big = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "rigor_explain", "arguments": {}}});
    let mut flood = Vec::new();
    for id in 0..20_000 {
        let mut message = big.clone();
        message["id"] = json!(id + 1000);
        flood.extend_from_slice(message.to_string().as_bytes());
        flood.push(b'\n');
    }
    let writer = {
        let mut stdin = mcp.server.take_stdin();
        std::thread::spawn(move || {
            use std::io::Write;
            let _ = stdin.write_all(&flood);
        })
    };
    std::thread::sleep(Duration::from_secs(3));
    let during = rss();
    assert!(process_alive(gateway));
    assert!(during < before + 64 * 1024, "RSS grew from {before} kB to {during} kB while the client was not reading");
    // Once the client reads again, answers flow.
    let first = mcp.server.receive();
    assert!(first["result"]["content"].is_array(), "{first}");
    drop(writer);
}
