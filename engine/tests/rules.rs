//! The five flow rules, table-driven: for each rule, snippets that fire (with
//! the exact 1-based line and byte column of every anchor and the balanced
//! severity) and snippets that must stay silent; then severity profiles,
//! `disabled` tokens and `overrides` through the library API.

use rigor_engine::analysis::{analyse_source, FileReport, Settings};
use rigor_engine::diagnostic::{Diagnostic, EvidenceTier, Severity};
use rigor_engine::rules::{self, Profile};

const ALWAYS_RAISES: &str = "flow.always-raises";
const DEAD_ASSIGNMENT: &str = "flow.dead-assignment";
const DUPLICATE_HASH_KEY: &str = "flow.duplicate-hash-key";
const RETURN_IN_ENSURE: &str = "flow.return-in-ensure";
const UNREACHABLE_BRANCH: &str = "flow.unreachable-branch";

/// A snippet and every (line, column) at which the rule under test reports.
type Firing = (&'static str, &'static [(usize, usize)]);

fn analyse(source: &str, settings: &Settings) -> FileReport {
    analyse_source("snippet.rb", source.as_bytes(), settings)
}

/// Diagnostics without a rule are parse errors (or a skipped analysis): a
/// snippet that has any is a broken test case, not a rule result.
fn assert_parses(source: &str, report: &FileReport) {
    let unruled: Vec<&Diagnostic> = report.diagnostics.iter().filter(|d| d.rule.is_none()).collect();
    assert!(unruled.is_empty(), "snippet does not parse cleanly:\n{source}\n{unruled:#?}");
    assert_eq!(report.parse_errors, 0, "{source}");
}

fn of_rule<'a>(report: &'a FileReport, rule: &str) -> Vec<&'a Diagnostic> {
    report.diagnostics.iter().filter(|d| d.rule == Some(rule)).collect()
}

fn check_table(rule: &str, severity: Severity, evidence: EvidenceTier, firing: &[Firing], silent: &[&str]) {
    assert!(firing.len() >= 5 && silent.len() >= 5, "{rule}: tables too small");
    let settings = Settings::default();
    for (source, expected) in firing {
        let report = analyse(source, &settings);
        assert_parses(source, &report);
        let found = of_rule(&report, rule);
        let positions: Vec<(usize, usize)> = found.iter().map(|d| (d.line, d.column)).collect();
        assert_eq!(positions, *expected, "{rule} anchors for:\n{source}\nall diagnostics: {:#?}", report.diagnostics);
        for d in found {
            assert_eq!(d.severity, severity, "{rule} severity for:\n{source}");
            assert_eq!(d.path, "snippet.rb");
            assert_eq!(d.source_family, "builtin");
            assert_eq!(d.evidence_tier, Some(evidence), "{rule}");
            let url = format!(
                "https://github.com/rigortype/rigor/blob/main/docs/manual/04-diagnostics.md#rule-{}",
                rule.replace('.', "-")
            );
            assert_eq!(d.documentation_url.as_deref(), Some(url.as_str()));
            assert!(!d.message.is_empty());
        }
    }
    for source in silent {
        let report = analyse(source, &settings);
        assert_parses(source, &report);
        let found = of_rule(&report, rule);
        assert!(found.is_empty(), "{rule} must not fire on:\n{source}\ngot: {found:#?}");
    }
}

#[test]
fn always_raises() {
    let firing: &[Firing] = &[
        // The reference's example: the anchor is the operator token.
        ("10 % 0", &[(1, 4)]),
        ("10 / 0", &[(1, 4)]),
        ("x = 5.div(0)", &[(1, 7)]),
        ("7.modulo(0)", &[(1, 3)]),
        ("(1 + 2).divmod(0)", &[(1, 9)]),
        ("-3 % 0x0", &[(1, 4)]),
        ("10 / (0)", &[(1, 4)]),
        ("10 /0", &[(1, 4)]),
        ("puts(1 * 2 % 00)", &[(1, 12)]),
        ("10.%(0)", &[(1, 4)]),
        ("(10 / 2) % 0", &[(1, 10)]),
        ("# comment\n\n  10.divmod 0\n", &[(3, 6)]),
        ("def m\n  n = 1 << 4\n  n + (1 << 4) / 0\nend\n", &[(3, 16)]),
        // Columns count bytes: "é" is two.
        ("x = \"é\"; 10 / 0", &[(1, 14)]),
        // The outer division builds on a quotient that never exists: only
        // the inner one is reported.
        ("x = (10 / 0) / 0", &[(1, 9)]),
        // A UTF-8 byte order mark is part of the first line's bytes.
        ("\u{feff}10 / 0", &[(1, 7)]),
    ];
    let silent = &[
        "1.0 / 0",
        "10.0 % 0",
        "x / 0",
        "def m(x)\n  x / 0\nend",
        "foo.bar / 0",
        "10 / 0.0",
        "10 / 1",
        "10 / n",
        "10.fdiv(0)",
        "10 ** 0",
        "10 * 0",
        "(2 ** y) / 0",
        "1r / 0",
        "10.divmod(0, 1)",
        "[1].sum { |x| x } / 0",
        // Only the core's operator raises: the project may redefine or
        // refine it to answer 0.
        "class Integer\n  def /(o) = o.zero? ? 0 : 1\nend\np 10 / 0",
        "module Safe\n  refine Integer do\n    def %(o) = 0\n  end\nend\nusing Safe\np 10 % 0",
    ];
    check_table(ALWAYS_RAISES, Severity::Error, EvidenceTier::High, firing, silent);
}

#[test]
fn unreachable_branch() {
    let firing: &[Firing] = &[
        // The reference's example, reported at the dead branch.
        ("if nil\n  puts 1\nend", &[(2, 3)]),
        ("if true\n  1\nelse\n  2\nend", &[(4, 3)]),
        ("unless false\n  1\nelse\n  2\nend", &[(4, 3)]),
        ("unless true\n  a\nend", &[(2, 3)]),
        ("x = false ? 1 : 2", &[(1, 13)]),
        ("x = true ? 1 : 2", &[(1, 16)]),
        ("puts 1 if false", &[(1, 1)]),
        ("puts 1 unless true", &[(1, 1)]),
        ("if x\n  1\nelsif false\n  2\nend", &[(4, 3)]),
        // A dead `elsif` is reported at the keyword.
        ("if true\n  1\nelsif y\n  2\nend", &[(3, 1)]),
        ("if ((nil))\n  1\nend", &[(2, 3)]),
        ("if \"s\" then a else b end", &[(1, 20)]),
        ("if :sym\n  a\nelse\n  b\nend", &[(4, 3)]),
        // 0 is truthy in Ruby.
        ("if 0\n  a\nelse\n  b\nend", &[(4, 3)]),
        ("if 1.5\n  a\nelse\n  b\nend", &[(4, 3)]),
        // Reported once, at the outermost dead branch.
        ("if false\n  if nil\n    1\n  end\nend", &[(2, 3)]),
        // The live `elsif` is still checked.
        ("if false\n  1\nelsif true\n  2\nelse\n  3\nend", &[(2, 3), (6, 3)]),
        ("if nil\r\n  puts 1\r\nend\r\n", &[(2, 3)]),
    ];
    let silent = &[
        "if true\n  1\nend",
        "if false\nend",
        "if false\nelse\n  2\nend",
        "if true\n  1\nelse\n  # only a comment\nend",
        "unless nil\n  1\nend",
        "x = 1 if true",
        "if FOO\n  1\nelse\n  2\nend",
        "if foo?\n  1\nelse\n  2\nend",
        "if !true\n  1\nend",
        "x = true\nif x\n  1\nelse\n  2\nend",
        "def m\n  x = true\n  x ? 1 : 2\nend",
        "if \"a#{b}\"\n  1\nelse\n  2\nend",
        "if /re/\n  1\nend",
        "if [] then a else b end",
        "while false\n  1\nend",
        "until true\n  1\nend",
        "begin\n  puts 1\nend while false",
        "begin\n  work\nend until true",
        "case\nwhen false then 1\nend",
    ];
    check_table(UNREACHABLE_BRANCH, Severity::Warning, EvidenceTier::High, firing, silent);
}

#[test]
fn duplicate_hash_key() {
    let firing: &[Firing] = &[
        // The reference's example, reported at the second key.
        ("{ a: 1, a: 2 }", &[(1, 9)]),
        ("h = { \"a\" => 1, \"a\" => 2 }", &[(1, 17)]),
        ("h = { 'a' => 1, \"a\" => 2 }", &[(1, 17)]),
        // Integers compare by value.
        ("h = { 16 => :x, 0x10 => :y }", &[(1, 17)]),
        ("h = {\n  name: 1,\n  age: 2,\n  name: 3,\n}", &[(4, 3)]),
        ("foo(a: 1, a: 2)", &[(1, 11)]),
        ("h = { nil => 1, nil => 2 }", &[(1, 17)]),
        ("h = { true => 1, false => 2, true => 3 }", &[(1, 30)]),
        ("h = { :a => 1, a: 2 }", &[(1, 16)]),
        ("h = { \"a\": 1, a: 2 }", &[(1, 15)]),
        ("h = { :\"a b\" => 1, :\"a b\" => 2 }", &[(1, 20)]),
        // Every repeat after the first is reported.
        ("h = { a: 1, a: 2, a: 3 }", &[(1, 13), (1, 19)]),
        ("h = { a: 1, **other, a: 2 }", &[(1, 22)]),
    ];
    let silent = &[
        // Different kinds of key.
        "{ \"a\" => 1, a: 2 }",
        "h = { \"a\" => 1, a: 2 }",
        "h = { 1 => 1, 1.0 => 2 }",
        "h = { 1 => 1, -1 => 2 }",
        // Computed keys.
        "h = { \"a#{x}\" => 1, \"a#{x}\" => 2 }",
        "h = { \"#{x}\": 1, \"#{x}\": 2 }",
        "h = { x => 1, x => 2 }",
        "h = { foo => 1, foo => 2 }",
        "h = { [1] => 1, [1] => 2 }",
        // Different literals.
        "h = { a: 1 }\ng = { a: 2 }",
        "h = { a: { a: 1 } }",
        "foo(a: 1) + bar(a: 2)",
        "h = { \"a\" => 1, \"b\" => 2 }",
    ];
    check_table(DUPLICATE_HASH_KEY, Severity::Warning, EvidenceTier::High, firing, silent);
}

#[test]
fn return_in_ensure() {
    let firing: &[Firing] = &[
        // The reference's example, anchored on the `return` keyword.
        ("def g\n  1\nensure\n  return 2\nend", &[(4, 3)]),
        ("def g; 1; ensure; return 2; end", &[(1, 19)]),
        ("def g = begin; 1; ensure; return 2; end", &[(1, 27)]),
        ("def g\n  work\nensure\n  return if done?\nend", &[(4, 3)]),
        ("def g\n  1\nensure\n  next_thing\n  return(2)\nend", &[(5, 3)]),
        // A block in the ensure clause still returns from the method.
        ("def g\n  work\nensure\n  [1].each { |x| return x }\nend", &[(4, 18)]),
        ("def g\n  work\nrescue\n  retry_it\nensure\n  items.each do |i|\n    return i\n  end\nend", &[(7, 5)]),
        ("def g\n  work\nensure\n  x = proc { return 1 }\nend", &[(4, 14)]),
        ("def g\n  begin\n    work\n  ensure\n    cleanup\n    return\n  end\nend", &[(6, 5)]),
        ("def g\n  work\nensure\n  begin\n    a\n  rescue\n    return 3\n  end\nend", &[(7, 5)]),
        ("begin\n  work\nensure\n  return\nend", &[(4, 3)]),
    ];
    let silent = &[
        "def g\n  work\nensure\n  l = ->{ return }\nend",
        "def g\n  work\nensure\n  l = lambda { return 1 }\nend",
        "def g\n  work\nensure\n  lambda do\n    return 1\n  end\nend",
        "def g\n  work\nensure\n  -> { [1].each { return 1 } }\nend",
        "def g\n  work\nensure\n  define_method(:m) { return 1 }\nend",
        "def g\n  work\nensure\n  self.class.define_method(:m) { return 1 }\nend",
        "def g\n  work\nensure\n  define_singleton_method(:m) do\n    return 1\n  end\nend",
        "def g\n  work\nensure\n  def inner\n    return 1\n  end\nend",
        "def g\n  return 1\nensure\n  cleanup\nend",
        "def g\n  work\nrescue\n  return 2\nensure\n  cleanup\nend",
        "def outer\n  begin\n    a\n  ensure\n    b\n  end\n  return 1\nend",
    ];
    check_table(RETURN_IN_ENSURE, Severity::Warning, EvidenceTier::High, firing, silent);
}

#[test]
fn dead_assignment() {
    let firing: &[Firing] = &[
        // The reference's example, anchored on the variable name.
        ("def f\n  t = 1\n  2\nend", &[(2, 3)]),
        ("def f; t = 1; 2; end", &[(1, 8)]),
        ("def f(a)\n  result = a * 2\n  a\nend", &[(2, 3)]),
        ("def f\n  if c\n    x = 1\n    y\n  end\nend", &[(3, 5)]),
        ("def self.f\n  unused = compute\n  nil\nend", &[(2, 3)]),
        ("def f\n  [1].each do |i|\n    tmp = i\n    puts i\n  end\nend", &[(3, 5)]),
        ("def f\n  x = 1\n  x = 2\n  nil\nend", &[(2, 3), (3, 3)]),
        ("def f\n  x = 1\n  y = x\n  nil\nend", &[(3, 3)]),
        // An explicit `super()` passes nothing implicitly.
        ("def f(a)\n  a = 1\n  super()\n  2\nend", &[(2, 3)]),
        // A nested def has its own locals: its `x` is a method call.
        ("def f\n  x = 1\n  def g\n    x\n  end\n  2\nend", &[(2, 3)]),
        ("def f = (x = 1; 2)", &[(1, 10)]),
        ("def f; s = \"é\"; t = s; 0; end", &[(1, 18)]),
        // `binding` called on another object is not this method's binding.
        ("def f\n  x = 1\n  obj.binding\n  2\nend", &[(2, 3)]),
    ];
    let silent = &[
        "def f\n  _unused = 1\n  2\nend",
        "def f\n  a, b = 1, 2\n  3\nend",
        "def f(x)\n  x += 1\n  nil\nend",
        "def f\n  x = 0\n  x += 1\n  nil\nend",
        "def f\n  x ||= 1\n  nil\nend",
        "def f\n  x &&= 1\n  nil\nend",
        "def f\n  foo(x = 1)\n  2\nend",
        "def f\n  if (m = re.match(s))\n    1\n  end\n  2\nend",
        "def f\n  x = y = 1\n  x\nend",
        // Last statements are values.
        "def f\n  x = 1\nend",
        "def f\n  if c\n    x = 1\n  end\n  2\nend",
        "def f\n  begin\n    x = 1\n  rescue => e\n    2\n  end\n  nil\nend",
        // Implicit readers of locals.
        "def f\n  x = 1\n  binding\nend",
        "def f\n  x = 1\n  b = binding\n  b.local_variable_get(:x)\nend",
        "def f\n  x = 1\n  eval(\"x\")\n  nil\nend",
        "def f\n  x = 1\n  local_variables\nend",
        "def f\n  x = 1\n  b = send(:binding)\n  b.local_variable_get(:x)\nend",
        "def f\n  x = 1\n  method(:eval).call(\"x\")\n  nil\nend",
        "def f(a)\n  a = 1\n  super\nend",
        "def f(a)\n  a = 1\n  super\n  2\nend",
        // Reads anywhere in the method, blocks and interpolation included.
        "def f\n  x = 1\n  [1].each { puts x }\n  nil\nend",
        "def f\n  x = 1\n  \"#{x}\"\nend",
        "def f\n  x = 1\n  defined?(x)\nend",
        // Not writes by `x = …` statements.
        "def f\n  work\nrescue => e\n  1\nend",
        "def f\n  case v\n  in [a]\n    1\n  end\n  2\nend",
        // Outside any method.
        "x = 1\ny = 2",
        "class C\n  x = 1\n  y = 2\nend",
        "[1].each do |i|\n  t = i\n  puts i\nend",
    ];
    check_table(DEAD_ASSIGNMENT, Severity::Warning, EvidenceTier::Medium, firing, silent);
}

/// Each catalogue entry's own example fires exactly once, for that rule only.
#[test]
fn every_catalogue_example_fires_its_rule_once() {
    let ids: Vec<&str> = rules::all().iter().map(|r| r.id).collect();
    for id in [ALWAYS_RAISES, DEAD_ASSIGNMENT, DUPLICATE_HASH_KEY, RETURN_IN_ENSURE, UNREACHABLE_BRANCH] {
        assert!(ids.contains(&id), "{id} is in the catalogue");
    }
    // These five fire under default settings; tests/more_rules.rs covers
    // the examples that need signatures, an opt-in or bleeding_edge.
    let flow = [ALWAYS_RAISES, DEAD_ASSIGNMENT, DUPLICATE_HASH_KEY, RETURN_IN_ENSURE, UNREACHABLE_BRANCH];
    for rule in rules::all().iter().filter(|r| flow.contains(&r.id)) {
        let report = analyse(rule.example, &Settings::default());
        let fired: Vec<Option<&str>> = report.diagnostics.iter().map(|d| d.rule).collect();
        assert_eq!(fired, [Some(rule.id)], "example of {}:\n{}", rule.id, rule.example);
    }
}

/// One method in which every rule fires once.
const ALL_RULES: &str = include_str!("fixtures/all_rules.rb");

/// (rule, line, column) of each finding in `fixtures/all_rules.rb`.
const ALL_RULES_FINDINGS: &[(&str, usize, usize)] = &[
    (DEAD_ASSIGNMENT, 2, 3),
    (DUPLICATE_HASH_KEY, 3, 15),
    (UNREACHABLE_BRANCH, 5, 5),
    (ALWAYS_RAISES, 7, 6),
    (RETURN_IN_ENSURE, 9, 3),
];

fn findings(settings: &Settings) -> Vec<(&'static str, Severity)> {
    let report = analyse(ALL_RULES, settings);
    assert_parses(ALL_RULES, &report);
    let mut found: Vec<(&'static str, Severity)> =
        report.diagnostics.iter().map(|d| (d.rule.expect("has a rule"), d.severity)).collect();
    found.sort();
    found
}

fn sorted(mut rows: Vec<(&'static str, Severity)>) -> Vec<(&'static str, Severity)> {
    rows.sort();
    rows
}

#[test]
fn fixture_fires_every_rule_at_known_positions() {
    let report = analyse(ALL_RULES, &Settings::default());
    let got: Vec<(&str, usize, usize)> =
        report.diagnostics.iter().map(|d| (d.rule.unwrap_or("<none>"), d.line, d.column)).collect();
    // Diagnostics of one file come sorted by position.
    assert_eq!(got, ALL_RULES_FINDINGS);
}

/// The reference's rule table: severity under lenient, balanced, strict.
const PROFILE_TABLE: &[(&str, [Severity; 3])] = {
    use Severity::{Error as E, Info as I, Warning as W};
    &[
        (ALWAYS_RAISES, [W, E, E]),
        (DEAD_ASSIGNMENT, [I, W, E]),
        (DUPLICATE_HASH_KEY, [I, W, E]),
        (RETURN_IN_ENSURE, [I, W, E]),
        (UNREACHABLE_BRANCH, [I, W, E]),
    ]
};

#[test]
fn profiles_set_severities_as_the_rule_table_says() {
    for (index, profile) in [Profile::Lenient, Profile::Balanced, Profile::Strict].into_iter().enumerate() {
        let settings = Settings { profile, ..Settings::default() };
        let expected: Vec<(&str, Severity)> = PROFILE_TABLE.iter().map(|(id, by)| (*id, by[index])).collect();
        assert_eq!(findings(&settings), sorted(expected), "{profile:?}");
    }
    // The default profile is balanced.
    assert_eq!(Profile::default(), Profile::Balanced);
    // The catalogue agrees with the table.
    for (id, by) in PROFILE_TABLE {
        let rule = rules::all().iter().find(|r| r.id == *id).unwrap();
        let catalogue = [Profile::Lenient, Profile::Balanced, Profile::Strict].map(|p| rule.severity(p));
        assert_eq!(catalogue, by.map(Some), "{id}");
    }
}

#[test]
fn disabled_tokens_switch_rules_off() {
    let all_ids: Vec<&str> = PROFILE_TABLE.iter().map(|(id, _)| *id).collect();
    let cases: &[(&[&str], &[&str])] = &[
        (&[], &[]),
        (&["flow.dead-assignment"], &[DEAD_ASSIGNMENT]),
        (&["dead-assignment"], &[DEAD_ASSIGNMENT]),
        (&["always-raises", "flow.return-in-ensure"], &[ALWAYS_RAISES, RETURN_IN_ENSURE]),
        (&["flow"], &all_ids),
        (&["all"], &all_ids),
        // Tokens naming nothing switch nothing off.
        (&["nothing", "call", "flow.dead"], &[]),
    ];
    for (tokens, off) in cases {
        let settings = Settings { disabled: tokens.iter().map(|t| t.to_string()).collect(), ..Settings::default() };
        let left: Vec<&str> = findings(&settings).into_iter().map(|(id, _)| id).collect();
        let expected: Vec<&str> = all_ids.iter().copied().filter(|id| !off.contains(id)).collect();
        assert_eq!(left, expected, "disabled {tokens:?}");
    }
}

#[test]
fn overrides_beat_the_profile_and_exact_ids_beat_families() {
    use Severity::{Error as E, Info as I, Warning as W};
    /// A profile, the overrides, and the (rule, severity) of every finding left.
    type Case = (Profile, &'static [(&'static str, Option<Severity>)], &'static [(&'static str, Severity)]);
    let table: &[Case] = &[
        // A family override covers every rule of the family, whatever the profile.
        (
            Profile::Strict,
            &[("flow", Some(I))],
            &[
                (ALWAYS_RAISES, I),
                (DEAD_ASSIGNMENT, I),
                (DUPLICATE_HASH_KEY, I),
                (RETURN_IN_ENSURE, I),
                (UNREACHABLE_BRANCH, I),
            ],
        ),
        // An exact id beats the family, in either order.
        (
            Profile::Balanced,
            &[("flow", Some(I)), ("flow.dead-assignment", Some(E))],
            &[
                (ALWAYS_RAISES, I),
                (DEAD_ASSIGNMENT, E),
                (DUPLICATE_HASH_KEY, I),
                (RETURN_IN_ENSURE, I),
                (UNREACHABLE_BRANCH, I),
            ],
        ),
        (
            Profile::Balanced,
            &[("flow.dead-assignment", Some(E)), ("flow", Some(I))],
            &[
                (ALWAYS_RAISES, I),
                (DEAD_ASSIGNMENT, E),
                (DUPLICATE_HASH_KEY, I),
                (RETURN_IN_ENSURE, I),
                (UNREACHABLE_BRANCH, I),
            ],
        ),
        // So does an alias.
        (
            Profile::Lenient,
            &[("flow", Some(W)), ("always-raises", Some(E))],
            &[
                (ALWAYS_RAISES, E),
                (DEAD_ASSIGNMENT, W),
                (DUPLICATE_HASH_KEY, W),
                (RETURN_IN_ENSURE, W),
                (UNREACHABLE_BRANCH, W),
            ],
        ),
        // `off` drops the rule; the others keep their profile severity.
        (
            Profile::Balanced,
            &[("flow.unreachable-branch", None), ("flow.duplicate-hash-key", Some(E))],
            &[(ALWAYS_RAISES, E), (DEAD_ASSIGNMENT, W), (DUPLICATE_HASH_KEY, E), (RETURN_IN_ENSURE, W)],
        ),
        // An exact id turns one rule back on under a family `off`.
        (Profile::Balanced, &[("flow", None), ("flow.return-in-ensure", Some(I))], &[(RETURN_IN_ENSURE, I)]),
    ];
    for (profile, overrides, expected) in table {
        let settings = Settings {
            profile: *profile,
            overrides: overrides.iter().map(|(t, s)| (t.to_string(), *s)).collect(),
            ..Settings::default()
        };
        assert_eq!(findings(&settings), sorted(expected.to_vec()), "{profile:?} {overrides:?}");
    }
}

#[test]
fn disabled_beats_an_override() {
    let settings = Settings {
        disabled: vec!["dead-assignment".into()],
        overrides: vec![("flow.dead-assignment".into(), Some(Severity::Error))],
        ..Settings::default()
    };
    let left: Vec<&str> = findings(&settings).into_iter().map(|(id, _)| id).collect();
    assert!(!left.contains(&DEAD_ASSIGNMENT), "{left:?}");
    assert_eq!(left.len(), 4);
}

/// Rules do not run on a file with parse errors; each Prism error is one
/// diagnostic without a rule, severity error, at the error's position.
#[test]
fn parse_errors_replace_rule_findings() {
    let report = analyse("10 / 0\ndef (\n", &Settings::default());
    assert!(report.parse_errors > 0);
    assert_eq!(report.diagnostics.len(), report.parse_errors);
    for d in &report.diagnostics {
        assert_eq!((d.rule, d.severity, d.evidence_tier, &d.documentation_url), (None, Severity::Error, None, &None));
        assert_eq!(d.line, 2, "{d:?}");
    }
}

#[test]
fn string_evals_that_can_read_locals_silence_dead_assignment() {
    for source in [
        "def m\n  x = 1\n  instance_eval(\"x\")\n  2\nend\n",
        "def m\n  x = 1\n  self.class.class_eval(code)\n  2\nend\n",
    ] {
        let report = rigor_engine::analysis::analyse_source("t.rb", source.as_bytes(), &Default::default());
        assert!(report.diagnostics.iter().all(|d| d.rule != Some("flow.dead-assignment")), "{source}");
    }
    let block_form = "def m\n  x = 1\n  instance_eval { 3 }\n  2\nend\n";
    let report = rigor_engine::analysis::analyse_source("t.rb", block_form.as_bytes(), &Default::default());
    assert!(report.diagnostics.iter().any(|d| d.rule == Some("flow.dead-assignment")), "a block is not a string eval");
}
