//! Hostile input: nothing may panic or crash, and the result must be sane.
//! Deeply nested code is analysed on a thread with a small stack, so the
//! stack guard (`stack_guard.rs`) has to turn exhaustion into a warning.

use rigor_engine::analysis::{analyse_source, FileReport, Settings};
use rigor_engine::cli::{self, Io, Mode};
use rigor_engine::diagnostic::{Diagnostic, Severity};

/// Small enough that the deep cases below that parse overflow it without
/// the guard: checked once by making `ensure_room` a no-op, when every test
/// here that accepts the too-deep warning aborted with "has overflowed its
/// stack" in a debug build. (The 50 000-bracket and 5 000-`if` inputs never
/// reach the rules: Prism's own nesting limit makes them parse errors.)
const SMALL_STACK: usize = 8 * 1024 * 1024;

const TOO_DEEP: &str = "nested too deeply";

/// Analyses on a fresh thread with an 8 MiB stack. A panic escaping
/// `analyse_source` fails the test here; a stack overflow would abort the
/// whole test binary.
fn analyse_small_stack(source: Vec<u8>) -> FileReport {
    std::thread::Builder::new()
        .name("small-stack".into())
        .stack_size(SMALL_STACK)
        .spawn(move || analyse_source("hostile.rb", &source, &Settings::default()))
        .expect("spawn")
        .join()
        .expect("analyse_source panicked")
}

fn analyse(source: &[u8]) -> FileReport {
    analyse_source("hostile.rb", source, &Settings::default())
}

/// Every diagnostic is well-formed and points into the file; rule-less
/// errors are exactly the parse errors; no internal error was caught.
fn assert_sane(source: &[u8], report: &FileReport) {
    let line_starts: Vec<usize> =
        std::iter::once(0).chain(source.iter().enumerate().filter(|(_, &b)| b == b'\n').map(|(i, _)| i + 1)).collect();
    for d in &report.diagnostics {
        assert_eq!(d.path, "hostile.rb");
        assert!(d.line >= 1 && d.line <= line_starts.len(), "line out of range: {d:?}");
        let start = line_starts[d.line - 1];
        let end = line_starts.get(d.line).map_or(source.len(), |next| next - 1);
        assert!(d.column >= 1 && d.column <= end - start + 1, "column out of range: {d:?}");
        assert!(!d.message.contains("internal error"), "a panic was caught: {d:?}");
        assert!(!d.message.is_empty());
    }
    let parse_errors = report.diagnostics.iter().filter(|d| d.rule.is_none() && d.severity == Severity::Error).count();
    assert_eq!(parse_errors, report.parse_errors);
    // Rules run only on files that parse.
    if report.parse_errors > 0 {
        assert!(report.diagnostics.iter().all(|d| d.rule.is_none()), "rules ran on a broken file");
    }
    // Sorted by position within the file.
    let keys: Vec<_> = report.diagnostics.iter().map(Diagnostic::position_key).collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
}

/// (rule, line, column) of each diagnostic.
fn findings(report: &FileReport) -> Vec<(Option<&'static str>, usize, usize)> {
    report.diagnostics.iter().map(|d| (d.rule, d.line, d.column)).collect()
}

fn assert_too_deep(report: &FileReport) {
    assert_eq!(report.diagnostics.len(), 1, "{:#?}", &report.diagnostics[..report.diagnostics.len().min(3)]);
    let d = &report.diagnostics[0];
    assert_eq!((d.rule, d.severity, d.line, d.column), (None, Severity::Warning, 1, 1), "{d:?}");
    assert!(d.message.contains(TOO_DEEP), "{}", d.message);
    assert_eq!(report.parse_errors, 0);
}

/// Deep but valid code: either the rules ran and found exactly `expected`,
/// or the guard stopped them with the single too-deep warning.
fn assert_found_or_too_deep(report: &FileReport, expected: &[(Option<&'static str>, usize, usize)]) {
    if report.diagnostics.iter().any(|d| d.message.contains(TOO_DEEP)) {
        assert_too_deep(report);
    } else {
        assert_eq!(findings(report), expected);
    }
}

/// Parse errors only: Prism gave up, so no rule ran and nothing crashed.
fn assert_parse_errors_only(source: &[u8], report: &FileReport) {
    assert_sane(source, report);
    assert!(report.parse_errors > 0);
    assert_eq!(report.diagnostics.len(), report.parse_errors);
}

/// Knuth's MMIX linear congruential generator: reproducible junk without a crate.
struct Lcg(u64);

impl Lcg {
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n)
            .map(|_| {
                self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (self.0 >> 56) as u8
            })
            .collect()
    }
}

// ------------------------------------------------------------- small inputs

#[test]
fn empty_and_blank_files_have_no_diagnostics() {
    for source in ["", "\n", "   \n\t\n", "# just a comment", "=begin\n=end\n", "__END__\n((( not ruby"] {
        let report = analyse(source.as_bytes());
        assert!(report.diagnostics.is_empty(), "{source:?}: {:?}", report.diagnostics);
        assert_eq!(report.parse_errors, 0);
    }
}

#[test]
fn random_bytes_give_parse_errors_not_panics() {
    for seed in [1u64, 42, 0xDEAD_BEEF, 2024] {
        let source = Lcg(seed).bytes(64 * 1024);
        let report = analyse_small_stack(source.clone());
        assert_sane(&source, &report);
        assert!(report.parse_errors > 0, "seed {seed}: 64 KiB of junk parsed cleanly?");
        // Deterministic.
        assert_eq!(analyse(&source).diagnostics, report.diagnostics, "seed {seed}");
    }
}

#[test]
fn random_printable_ruby_ish_text_is_handled() {
    // Junk drawn from Ruby's own punctuation and keywords is nastier for a parser.
    const PIECES: &[&str] = &[
        "def ", "end", "if ", "(", ")", "[", "]", "{", "}", "|", "do ", "\n", " = ", "1", "x", ":", "\"", "#{", "'",
        "%w[", "<<~E\n", "E\n", "=begin\n", "\\", ".", "&.", "->", "ensure", "return", "rescue", "/", "0", ",", "*",
        "**",
    ];
    let mut rng = Lcg(7);
    for _ in 0..20 {
        let source: Vec<u8> = rng.bytes(4000).iter().flat_map(|b| PIECES[*b as usize % PIECES.len()].bytes()).collect();
        let report = analyse_small_stack(source.clone());
        assert_sane(&source, &report);
    }
}

#[test]
fn invalid_utf8() {
    // In a string literal: a parse error per bad byte, and no rule runs.
    let source = b"x = \"\xff\xfe\"\n10 / 0\n";
    let report = analyse(source);
    assert_parse_errors_only(source, &report);
    assert!(report.diagnostics.iter().all(|d| d.line == 1));

    // Bare bytes: one error each, at each byte's column.
    let report = analyse(b"\xff\xfe\xfd");
    assert_eq!(findings(&report), [(None, 1, 1), (None, 1, 2), (None, 1, 3)]);

    // In a comment it is harmless, and the rules still run.
    let report = analyse(b"# \xff\xfe comment\n10 / 0\n");
    assert_eq!(findings(&report), [(Some("flow.always-raises"), 2, 4)]);

    // With a binary source encoding the string literal is fine.
    let report = analyse(b"# encoding: ascii-8bit\nx = \"\xff\"\n10 / 0\n");
    assert_eq!(findings(&report), [(Some("flow.always-raises"), 3, 4)]);

    // Truncated multi-byte sequence at end of file.
    let source = b"x = 1\n\xe2\x82";
    assert_sane(source, &analyse(source));
}

#[test]
fn nul_bytes() {
    // NUL ends the script, as in Ruby: what follows is never parsed.
    let report = analyse(b"10 / 0\0garbage ((( \n");
    assert_eq!(findings(&report), [(Some("flow.always-raises"), 1, 4)]);
    let report = analyse(b"x = 1\0\n10 / 0\n");
    assert_eq!(findings(&report), []);
    let report = analyse(b"\0\0\0");
    assert_eq!(findings(&report), []);
    // Inside a string literal it is just a byte.
    let report = analyse(b"s = \"a\0b\"\n10 / 0\n");
    assert_eq!(findings(&report), [(Some("flow.always-raises"), 2, 4)]);
    // Many NULs mixed with code and junk.
    let mut source = Vec::new();
    for i in 0..1000u32 {
        source.extend_from_slice(format!("x{i} = {i}\n").as_bytes());
        source.extend(std::iter::repeat_n(0u8, (i % 7) as usize));
    }
    assert_sane(&source, &analyse(&source));
}

// ------------------------------------------------------------- large inputs

#[test]
fn a_five_megabyte_file() {
    const SIZE: usize = 5 * 1024 * 1024;
    let mut source = String::with_capacity(SIZE + 100);
    let mut methods = 0;
    while source.len() < SIZE {
        // Per method: one dead assignment (line 2) and one duplicate key (line 3).
        source.push_str(&format!("def m{methods}(a)\n  t = a\n  h = {{ k: 1, k: 2 }}\n  h[:k] + a\nend\n"));
        methods += 1;
    }
    let report = analyse(source.as_bytes());
    assert_eq!(report.parse_errors, 0);
    assert_eq!(report.diagnostics.len(), 2 * methods);
    let last_def = 5 * (methods - 1) + 1;
    let tail: Vec<_> = findings(&report).split_off(2 * methods - 2);
    assert_eq!(
        tail,
        [(Some("flow.dead-assignment"), last_def + 1, 3), (Some("flow.duplicate-hash-key"), last_def + 2, 15)]
    );
    let dead = report.diagnostics.iter().filter(|d| d.rule == Some("flow.dead-assignment")).count();
    assert_eq!(dead, methods);
}

#[test]
fn a_one_megabyte_line() {
    let filler = "a".repeat(1024 * 1024);
    let source = format!("x = \"{filler}\"; 10 / 0\n");
    let report = analyse(source.as_bytes());
    // `x = "` is 5 bytes, the closing `"; 10 ` is 6 more.
    assert_eq!(findings(&report), [(Some("flow.always-raises"), 1, 5 + filler.len() + 6 + 1)]);
}

// -------------------------------------------------------------- deep input

#[test]
fn fifty_thousand_open_brackets() {
    let source = "[".repeat(50_000).into_bytes();
    let report = analyse_small_stack(source.clone());
    assert_parse_errors_only(&source, &report);
    // Prism stops descending and says so.
    assert!(report.diagnostics.iter().any(|d| d.message.contains("nesting too deep")));
}

#[test]
fn fifty_thousand_open_parentheses() {
    let source = "(".repeat(50_000).into_bytes();
    let report = analyse_small_stack(source.clone());
    assert_parse_errors_only(&source, &report);
}

#[test]
fn three_hundred_thousand_additions() {
    // Left-associative: Prism parses it without limit, the tree is 300 000 deep.
    let source = format!("x = {}1\n", "1 + ".repeat(300_000)).into_bytes();
    let report = analyse_small_stack(source);
    assert_too_deep(&report);
}

#[test]
fn two_hundred_thousand_chained_calls() {
    let source = format!("a{}\n", ".b".repeat(200_000)).into_bytes();
    let report = analyse_small_stack(source);
    assert_too_deep(&report);
}

#[test]
fn a_chained_division_by_zero_deep_inside() {
    // The finding sits at the bottom of a 100 000-deep receiver chain.
    let source = format!("(10 / 0){}\n", ".abs".repeat(100_000)).into_bytes();
    let report = analyse_small_stack(source);
    assert_found_or_too_deep(&report, &[(Some("flow.always-raises"), 1, 5)]);
}

#[test]
fn five_thousand_nested_ifs() {
    // Deeper than Prism's nesting limit: parse errors, nothing else.
    let depth = 5_000;
    let source = format!("{}1\n{}", "if x\n".repeat(depth), "end\n".repeat(depth)).into_bytes();
    let report = analyse_small_stack(source.clone());
    assert_parse_errors_only(&source, &report);
}

#[test]
fn three_thousand_nested_ifs_that_parse() {
    // Within Prism's limit, but too deep for the rules on 8 MiB in a debug build.
    let depth = 3_000;
    let source = format!("{}10 / 0\n{}", "if $x\n".repeat(depth), "end\n".repeat(depth)).into_bytes();
    let report = analyse_small_stack(source);
    assert_found_or_too_deep(&report, &[(Some("flow.always-raises"), depth + 1, 4)]);
}

#[test]
fn three_thousand_nested_arrays_that_parse() {
    let depth = 3_000;
    let source = format!("x = {}10 / 0{}\n", "[".repeat(depth), "]".repeat(depth)).into_bytes();
    let report = analyse_small_stack(source);
    assert_found_or_too_deep(&report, &[(Some("flow.always-raises"), 1, depth + 8)]);
}

#[test]
fn deep_code_in_one_file_does_not_affect_the_next() {
    // The guard unwinds per file: a file analysed after a too-deep one is normal.
    std::thread::Builder::new()
        .stack_size(SMALL_STACK)
        .spawn(|| {
            let deep = format!("x = {}1\n", "1 + ".repeat(300_000));
            assert_too_deep(&analyse(deep.as_bytes()));
            assert_eq!(findings(&analyse(b"10 % 0")), [(Some("flow.always-raises"), 1, 4)]);
            assert_too_deep(&analyse(deep.as_bytes()));
        })
        .unwrap()
        .join()
        .unwrap();
}

/// Through the CLI, on the engine's own analysis threads: valid JSON, and
/// the deep file is at worst a warning, so the exit code is 0.
#[test]
fn the_cli_survives_hostile_files() {
    let dir = tempfile::tempdir().unwrap();
    let files: Vec<(&str, Vec<u8>)> = vec![
        ("deep.rb", format!("x = {}1\n", "1 + ".repeat(300_000)).into_bytes()),
        ("empty.rb", Vec::new()),
        ("junk.rb", Lcg(99).bytes(16 * 1024)),
        ("nul.rb", b"x = 1\0(((".to_vec()),
        ("utf8.rb", b"x = \"\xff\"\n".to_vec()),
    ];
    for (name, content) in &files {
        std::fs::write(dir.path().join(name), content).unwrap();
    }
    let mut args = vec!["check", "--format=json", "--no-stats", "deep.rb", "empty.rb", "nul.rb"];
    let mut out = Vec::new();
    let mut err = Vec::new();
    let code = {
        let mut io = Io { out: &mut out, err: &mut err, cwd: dir.path().to_path_buf() };
        cli::run(args.iter().copied(), &mut io, Mode::Process)
    };
    assert_eq!(code, 0, "{}", String::from_utf8_lossy(&err));
    let envelope: serde_json::Value = serde_json::from_slice(&out).unwrap();
    for d in envelope["diagnostics"].as_array().unwrap() {
        assert_eq!(
            (&d["path"], &d["severity"], &d["rule"]),
            (&"deep.rb".into(), &"warning".into(), &serde_json::Value::Null)
        );
        assert!(d["message"].as_str().unwrap().contains(TOO_DEEP));
    }

    // Junk and invalid UTF-8 are parse errors: exit 1, still valid JSON.
    args.extend(["junk.rb", "utf8.rb"]);
    let mut out = Vec::new();
    let mut err = Vec::new();
    let code = {
        let mut io = Io { out: &mut out, err: &mut err, cwd: dir.path().to_path_buf() };
        cli::run(args.iter().copied(), &mut io, Mode::Process)
    };
    assert_eq!(code, 1);
    let envelope: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let paths: std::collections::BTreeSet<&str> =
        envelope["diagnostics"].as_array().unwrap().iter().map(|d| d["path"].as_str().unwrap()).collect();
    assert!(paths.contains("junk.rb") && paths.contains("utf8.rb"), "{paths:?}");
}
