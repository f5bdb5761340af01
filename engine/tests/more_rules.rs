//! The rules beyond the four core call rules, table-driven: anchors,
//! severities under the balanced profile (or the profile that turns the
//! rule on), and the cases that stay silent.

mod rule_table;

use rigor_engine::analysis::{BleedingEdge, Settings};
use rigor_engine::diagnostic::Severity;
use rigor_engine::rules::Profile;
use rule_table::{check, check_with, Firing};

#[test]
fn raise_non_exception() {
    let firing: &[Firing] = &[
        ("raise 42", &[(1, 1)]),
        ("def m\n  fail :oops\nend", &[(2, 3)]),
        ("x = nil\nraise x", &[(2, 1)]),
        ("Kernel.raise [1]", &[(1, 8)]),
    ];
    let silent = &[
        "raise \"boom\"",
        "raise ArgumentError",
        "raise ArgumentError, \"bad\"",
        "raise ArgumentError.new(\"bad\")",
        "def m(e) = raise(e)",
        "x = rand > 0.5 ? 1 : \"s\"\nraise x",
        "obj.raise 42",
    ];
    check("call.raise-non-exception", Severity::Error, firing, silent, true);
}

#[test]
fn unresolved_toplevel() {
    let firing: &[Firing] =
        &[("frobnicate(1)", &[(1, 1)]), ("x = 1\nfrobnicate x", &[(2, 1)]), ("if rand > 0.5\n  zork\nend", &[(2, 3)])];
    let silent = &[
        "puts 1",
        "require \"set\"",
        "def helper = 1\nhelper",
        "class A\n  frobnicate\nend",
        "def m\n  frobnicate\nend",
        "[1].each { frobnicate }",
        "private",
        "x = 1\nx.frobnicate",
        // A gem's DSL (rake's `task`).
        "require \"rake\"\ntask(:default)",
    ];
    check("call.unresolved-toplevel", Severity::Warning, firing, silent, true);
}

#[test]
fn self_undefined_method_is_off_by_default_and_fires_when_asked() {
    let firing: &[Firing] = &[
        ("class B\n  def o = lid\nend", &[(2, 11)]),
        ("class B\n  def o\n    x = 1\n    frob(x)\n  end\nend", &[(4, 5)]),
        ("class B\n  def a = 1\n  def o = a + zap\nend", &[(3, 15)]),
    ];
    let silent = &[
        "class B\n  def o = lid\n  def lid = 1\nend",
        "class B < Base\n  def o = lid\nend",
        "class B\n  include Helpers\n  def o = lid\nend",
        "module M\n  def o = lid\nend",
        "class B\n  def o = [1].map { lid }\nend",
        "class B\n  def o = puts(1)\nend",
        "class B\n  def method_missing(*) = 1\n  def o = lid\nend",
    ];
    let on = Settings {
        overrides: vec![("call.self-undefined-method".into(), Some(Severity::Warning))],
        ..Settings::default()
    };
    check_with("call.self-undefined-method", &on, Severity::Warning, firing, silent, true);
    for profile in [Profile::Lenient, Profile::Balanced, Profile::Strict] {
        let settings = Settings { profile, ..Settings::default() };
        let report = rule_table::analyse("class B\n  def o = lid\nend", &settings);
        assert!(rule_table::of_rule(&report, "call.self-undefined-method").is_empty(), "{profile:?}");
    }
}

#[test]
fn dump_type() {
    let firing: &[Firing] = &[
        ("dump_type(1 + 2)", &[(1, 1)]),
        ("x = \"a\"\ndump_type(x)", &[(2, 1)]),
        ("Rigor::Testing.dump_type([1])", &[(1, 16)]),
    ];
    let silent = &["dump_type", "dump_type(1, 2)", "obj.dump_type(1)"];
    check("dump.type", Severity::Info, firing, silent, false);
    let report = rule_table::analyse("dump_type(1 + 2)", &Settings::default());
    assert_eq!(rule_table::of_rule(&report, "dump.type")[0].message, "3");
}

#[test]
fn assert_type_mismatch() {
    let firing: &[Firing] = &[
        ("assert_type(\"String\", 1)", &[(1, 1)]),
        ("x = [1]\nassert_type(\"Array[String]\", x)", &[(2, 1)]),
        ("Rigor::Testing.assert_type(\"2\", 1 + 2)", &[(1, 16)]),
    ];
    let silent = &[
        "assert_type(\"1\", 1)",
        "assert_type(\"3\", 1 + 2)",
        "assert_type(expected, 1)",
        "obj.assert_type(\"String\", 1)",
    ];
    check("assert.type-mismatch", Severity::Error, firing, silent, false);
}

#[test]
fn shadowed_rescue_clause() {
    let firing: &[Firing] = &[
        // The reference's example.
        ("begin\n  work\nrescue StandardError\n  1\nrescue ArgumentError\n  2\nend", &[(5, 1)]),
        ("begin\n  work\nrescue\n  1\nrescue TypeError, KeyError\n  2\nend", &[(5, 1)]),
        ("def m\n  work\nrescue Exception\n  1\nrescue IOError\n  2\nend", &[(5, 1)]),
        ("begin\n  w\nrescue ArgumentError\nrescue ArgumentError\nend", &[(4, 1)]),
        // An unknown clause between judges nothing, and hides nothing.
        ("begin\n  w\nrescue StandardError\nrescue *ERRORS\nrescue ArgumentError\nend", &[(5, 1)]),
        // A clause that cannot be judged does not stop the file's other
        // `begin`s from being judged.
        ("begin\n  w\nrescue *ERRORS\nend\nbegin\n  w\nrescue Exception\nrescue IOError\nend", &[(8, 1)]),
        // `::IOError` and `IOError` are one class where nothing shadows it.
        ("module Net\n  def self.f\n    w\n  rescue ::IOError\n  rescue IOError\n  end\nend", &[(5, 3)]),
    ];
    let silent = &[
        "begin\n  w\nrescue ArgumentError\n  1\nrescue StandardError\n  2\nend",
        "begin\n  w\nrescue TypeError\nrescue KeyError\nend",
        "begin\n  w\nrescue StandardError\nrescue Interrupt\nend",
        "begin\n  w\nrescue *ERRORS\nrescue ArgumentError\nend",
        "begin\n  w\nrescue MyError\nrescue ArgumentError\nend",
        "begin\n  w\nrescue StandardError\nrescue MyOwnError\nend",
        // The names resolve where they are written: each of these later
        // clauses runs (Ruby 3.1 prints the clause's symbol).
        "class Config\n  class KeyError < StandardError; end\n  def fetch!(key)\n    raise KeyError, key.to_s\n  rescue IndexError\n    :core\n  rescue KeyError\n    :config\n  end\nend",
        "module N\n  StandardError = ::ScriptError\n  def self.f\n    raise ::ArgumentError\n  rescue StandardError\n    :script\n  rescue ::ArgumentError\n    :argument\n  end\nend",
        "module M\n  class ArgumentError < Exception; end\n  def self.f\n    raise ArgumentError\n  rescue ::StandardError\n    :standard\n  rescue ArgumentError\n    :own\n  end\nend",
        "module Net2\n  class IOError < ::Exception; end\n  def self.f\n    raise IOError\n  rescue ::IOError\n    :core\n  rescue IOError\n    :own\n  end\nend",
    ];
    check("flow.shadowed-rescue-clause", Severity::Warning, firing, silent, false);
}

#[test]
fn always_truthy_condition() {
    let firing: &[Firing] = &[
        // The reference's example.
        ("def m\n  x = 1\n  if x then 2 end\nend", &[(3, 6)]),
        ("def m\n  s = \"a\"\n  puts 1 unless s\nend", &[(3, 17)]),
        ("def m\n  x = :k\n  x ? 1 : 2\nend", &[(3, 3)]),
    ];
    let silent = &[
        "def m(x)\n  if x then 2 end\nend",
        "if true then 1 end",
        "DEBUG = true\nif DEBUG then 1 end",
        "def m\n  x = []\n  if x.empty? then 1 end\nend",
        "def m\n  x = 1\n  [1].each { if x then 2 end }\nend",
        "def m\n  x = 1\n  while rand > 0.5\n    if x then 2 end\n  end\nend",
        "def m\n  x = nil\n  if x then 2 end\nend",
        // A key the hash may not hold (loofah's `MAP[name].new if MAP[name]`).
        "MAP = { a: String }\ndef m(k)\n  v = MAP[k]\n  if v then v.new end\nend",
        "def m\n  first = true\n  begin\n    w\n  rescue\n    if first\n      first = false\n      retry\n    end\n  end\nend",
    ];
    check("flow.always-truthy-condition", Severity::Warning, firing, silent, false);
}

#[test]
fn unreachable_clause() {
    let firing: &[Firing] = &[
        // The reference's example.
        ("v = 5\ncase v\nwhen String then 1\nend", &[(3, 1)]),
        ("v = \"s\"\ncase v\nwhen Integer then 1\nwhen String then 2\nend", &[(3, 1)]),
        ("def m\n  v = [1]\n  case v\n  when Hash, Symbol then 1\n  end\nend", &[(4, 3)]),
    ];
    let silent = &[
        "v = 5\ncase v\nwhen Integer then 1\nend",
        "v = 5\ncase v\nwhen Numeric then 1\nend",
        "v = 5\ncase v\nwhen Comparable then 1\nend",
        "v = 5\ncase v\nwhen 1..3 then 1\nend",
        "def m(v)\n  case v\n  when String then 1\n  end\nend",
        "v = 5\ncase v\nwhen String, Integer then 1\nend",
        "v = 5\ncase v\nwhen MyClass then 1\nend",
    ];
    let strict = Settings { profile: Profile::Strict, ..Settings::default() };
    check_with("flow.unreachable-clause", &strict, Severity::Warning, firing, silent, false);
    let report = rule_table::analyse(firing[0].0, &Settings::default());
    assert_eq!(rule_table::of_rule(&report, "flow.unreachable-clause")[0].severity, Severity::Info);
}

#[test]
fn method_visibility_mismatch() {
    let firing: &[Firing] = &[
        // The reference's example.
        ("class Secret\n  private\n  def hidden = 1\nend\nSecret.new.hidden", &[(5, 12)]),
        ("class Secret\n  def hidden = 1\n  private :hidden\nend\ns = Secret.new\ns.hidden", &[(6, 3)]),
        ("class Secret\n  private def hidden = 1\nend\nSecret.new.hidden", &[(4, 12)]),
        // Another name made public elsewhere leaves this one private.
        ("class Secret\n  private def hidden = 1\n  private def other = 2\nend\nSecret.send(:public, :other)\nSecret.new.hidden", &[(6, 12)]),
    ];
    let silent = &[
        "class Secret\n  def hidden = 1\nend\nSecret.new.hidden",
        "class Secret\n  private\n  def hidden = 1\n  def open = self.hidden\nend",
        "class Secret\n  private\n  def hidden = 1\n  def open = hidden\nend",
        "class Secret\n  protected\n  def hidden = 1\nend\nSecret.new.hidden",
        "class Secret\n  private\n  def hidden = 1\nend\nclass Open < Secret\n  public :hidden\nend\nSecret.new.hidden",
        "class Secret\n  private\n  def hidden = 1\nend\nobj.hidden",
        // Made public outside the class's body (Ruby gives 1 for each).
        "class Secret\n  private def hidden = 1\nend\nSecret.send(:public, :hidden)\nSecret.new.hidden",
        "class Secret\n  private def hidden = 1\nend\nSecret.class_eval { public :hidden }\nSecret.new.hidden",
        "class Secret\n  private def hidden = 1\n  def self.expose!(*n) = public(*n)\nend\nSecret.expose!(:hidden)\nSecret.new.hidden",
        // `method_missing` answers it (Ruby gives "mm").
        "class Secret\n  private\n  def hidden = 1\n  def method_missing(*) = \"mm\"\nend\nSecret.new.hidden",
    ];
    check("def.method-visibility-mismatch", Severity::Error, firing, silent, true);
}

#[test]
fn override_visibility_reduced() {
    let firing: &[Firing] = &[
        // The reference's example, at the override's name.
        ("class A\n  def m = 1\nend\nclass C < A\n  private\n  def m = 2\nend", &[(6, 7)]),
        ("class A\n  def m = 1\nend\nclass C < A\n  protected def m = 2\nend", &[(5, 17)]),
        ("class A\n  def m = 1\nend\nclass B < A\nend\nclass C < B\n  def m = 2\n  private :m\nend", &[(7, 7)]),
    ];
    let silent = &[
        "class A\n  def m = 1\nend\nclass C < A\n  def m = 2\nend",
        "class A\n  private\n  def m = 1\nend\nclass C < A\n  def m = 2\nend",
        "class C < Unknown\n  private\n  def m = 2\nend",
        "class A\n  def m = 1\nend\nclass C < A\n  private\n  def other = 2\nend",
        "class A\n  def initialize = 1\nend\nclass C < A\n  private\n  def initialize = 2\nend",
    ];
    check("def.override-visibility-reduced", Severity::Warning, firing, silent, false);
}

#[test]
fn ivar_write_mismatch() {
    let firing: &[Firing] = &[
        // The reference's example, at the later write.
        ("class C\n  def a = @n = 0\n  def b = @n = \"x\"\nend", &[(3, 11)]),
        ("class C\n  def initialize\n    @items = []\n  end\n  def reset\n    @items = {}\n  end\nend", &[(6, 5)]),
        ("class C\n  def a\n    @s = :sym\n    @s = \"str\"\n  end\nend", &[(4, 5)]),
    ];
    let silent = &[
        "class C\n  def a = @n = 0\n  def b = @n = nil\nend",
        "class C\n  def a = @n = 0\n  def b = @n = 1.5\nend",
        "class C\n  def a = @done = false\n  def b = @done = true\nend",
        "class C\n  def a = @n = 0\nend\nclass D\n  def b = @n = \"x\"\nend",
        "class C\n  def a(x) = @n = x\n  def b = @n = \"x\"\nend",
        "class C\n  def a = @n = 0\n  def self.b = @n = \"x\"\nend",
        "class E < StandardError\nend\nclass C\n  def a = @e = StandardError.new\n  def b = @e = E.new\nend",
    ];
    let strict = Settings { profile: Profile::Strict, ..Settings::default() };
    check_with("def.ivar-write-mismatch", &strict, Severity::Error, firing, silent, false);
    let report = rule_table::analyse(firing[0].0, &Settings::default());
    assert_eq!(rule_table::of_rule(&report, "def.ivar-write-mismatch")[0].severity, Severity::Warning);
}

/// Settings whose signatures are what every command loads plus one project
/// `.rbs` file.
fn with_signatures(rbs_text: &str, settings: Settings) -> (tempfile::TempDir, Settings) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("project.rbs"), rbs_text).unwrap();
    let request = rigor_engine::rbs::Request {
        directories: vec![dir.path().to_path_buf()],
        ..rigor_engine::signatures::request()
    };
    let signatures = rigor_engine::rbs::load(&request);
    assert!(signatures.warnings.is_empty(), "{:?}", signatures.warnings);
    (dir, Settings { signatures: Some(signatures), ..settings })
}

const SIGNATURES: &str = "class Meter\n  def size: () -> Integer\n  def size=: (Integer) -> Integer\n  def name: () -> String?\n  def ratio: () -> Float\n  def label: () -> String\n  def done: () -> bool\n  def me: () -> self\nend\n\
class P\n  def m: () -> Integer\n  def k: (Numeric) -> void\n  def j: (Integer) -> Numeric\n  def many: (Integer) -> Integer | (String) -> String\nend\n\
class C < P\n  def m: () -> Numeric\n  def k: (Integer) -> void\n  def j: (Numeric) -> Integer\n  def many: (Integer) -> Numeric\nend\n\
class D < P\n  def m: () -> Integer\n  def k: (Numeric) -> void\nend\n\
class Quiet\n  def hush: () -> void\n  def loud: () -> Integer\nend\n";

#[test]
fn return_type_mismatch() {
    let (_dir, settings) = with_signatures(SIGNATURES, Settings::default());
    let firing: &[Firing] = &[
        // The reference's example.
        ("class Meter\n  def size = \"big\"\nend", &[(2, 7)]),
        ("class Meter\n  def size\n    :many\n  end\nend", &[(2, 7)]),
        ("class Meter\n  def ratio = 1\nend", &[(2, 7)]),
        ("class Meter\n  def label = nil\nend", &[(2, 7)]),
        ("class Meter\n  def name = 42\nend", &[(2, 7)]),
    ];
    let silent = &[
        "class Meter\n  def size = 3\nend",
        "class Meter\n  def name = nil\nend",
        "class Meter\n  def size = rand > 0.5 ? 1 : \"s\"\nend",
        "class Meter\n  def size = compute\nend",
        "class Meter\n  def done = 1\nend",
        "class Meter\n  def me = 1\nend",
        "class Meter\n  def size = raise(\"no\")\nend",
        "class Other\n  def size = \"big\"\nend",
        // A writer's call is worth its argument (rbs's own logger_output=).
        "class Meter\n  def size=(v)\n    @size = v\n    nil\n  end\nend",
    ];
    check_with("def.return-type-mismatch", &settings, Severity::Warning, firing, silent, false);
}

#[test]
fn override_return_widened() {
    let (_dir, settings) = with_signatures(SIGNATURES, Settings::default());
    let firing: &[Firing] = &[
        // The reference's example: parent `-> Integer`, child `-> Numeric`.
        ("class C < P\n  def m = 1\nend", &[(2, 7)]),
        ("class C < P\n  def m\n    2\n  end\nend", &[(2, 7)]),
        ("class P\nend\nclass C < P\n  def m = 1\nend", &[(4, 7)]),
    ];
    let silent = &[
        "class D < P\n  def m = 1\nend",
        "class C < P\n  def j(x) = 1\nend",
        "class C < P\n  def many(x) = 1\nend",
        "class C < P\n  def other = 1\nend",
        "class P\n  def m = 1\nend",
    ];
    check_with("def.override-return-widened", &settings, Severity::Warning, firing, silent, false);
}

#[test]
fn override_param_narrowed() {
    let (_dir, settings) = with_signatures(SIGNATURES, Settings::default());
    let firing: &[Firing] = &[
        // The reference's example: parent `(Numeric)`, child `(Integer)`.
        ("class C < P\n  def k(x) = x\nend", &[(2, 7)]),
        ("class C < P\n  def k(value)\n    value\n  end\nend", &[(2, 7)]),
        ("class P\nend\nclass C < P\n  def k(x) = nil\nend", &[(4, 7)]),
    ];
    let silent = &[
        "class D < P\n  def k(x) = x\nend",
        "class C < P\n  def j(x) = x\nend",
        "class C < P\n  def many(x) = x\nend",
        "class C < P\n  def m = 1\nend",
        "class P\n  def k(x) = x\nend",
    ];
    check_with("def.override-param-narrowed", &settings, Severity::Warning, firing, silent, false);
}

#[test]
fn value_use_void_runs_only_under_bleeding_edge() {
    let (_dir, on) = with_signatures(SIGNATURES, Settings { bleeding_edge: BleedingEdge::All, ..Settings::default() });
    let firing: &[Firing] = &[
        // The reference's example, on a core method returning void.
        ("r = [1].zip([2]) { |pair| pair }", &[(1, 9)]),
        ("q = Quiet.new\nx = q.hush", &[(2, 7)]),
        ("q = Quiet.new\nputs(q.hush)", &[(2, 8)]),
        ("q = Quiet.new\nq.hush.nil?", &[(2, 3)]),
    ];
    let silent = &[
        "q = Quiet.new\nq.hush",
        "q = Quiet.new\nx = q.loud",
        "r = [1].zip([2])",
        "[1].zip([2]) { |pair| pair }",
        "def m(q) = (x = q.hush)",
    ];
    check_with("static.value-use.void", &on, Severity::Warning, firing, silent, true);
    let only = Settings { bleeding_edge: BleedingEdge::Only(vec!["static.value-use.void".into()]), ..on.clone() };
    let report = rule_table::analyse(firing[0].0, &only);
    assert_eq!(rule_table::of_rule(&report, "static.value-use.void").len(), 1, "named by id");
    for settings in [
        Settings { bleeding_edge: BleedingEdge::Off, ..on.clone() },
        Settings { bleeding_edge: BleedingEdge::Only(vec!["flow".into()]), ..on.clone() },
        Settings { profile: Profile::Strict, bleeding_edge: BleedingEdge::Off, ..on.clone() },
    ] {
        let report = rule_table::analyse(firing[0].0, &settings);
        assert!(rule_table::of_rule(&report, "static.value-use.void").is_empty(), "{:?}", settings.bleeding_edge);
    }
    // An exact override beats bleeding-edge.
    let overridden = Settings { overrides: vec![("static.value-use.void".into(), Some(Severity::Info))], ..on };
    let report = rule_table::analyse(firing[0].0, &overridden);
    assert_eq!(rule_table::of_rule(&report, "static.value-use.void")[0].severity, Severity::Info);
}

/// Each catalogue example fires its own rule (switched on); the examples of
/// rules about project signatures fire with those signatures loaded.
#[test]
fn every_catalogue_example_fires_its_rule() {
    let (_dir, signed) = with_signatures(SIGNATURES, Settings::default());
    for rule in rigor_engine::rules::all() {
        assert!(!rule.summary.is_empty() && !rule.example.is_empty(), "{} is undocumented", rule.id);
        let base = if rule.example.starts_with("# sig:") { signed.clone() } else { Settings::default() };
        let settings = Settings {
            overrides: vec![(rule.id.to_string(), Some(Severity::Warning))],
            bleeding_edge: BleedingEdge::All,
            ..base
        };
        let report = rule_table::analyse(rule.example, &settings);
        assert!(
            !rule_table::of_rule(&report, rule.id).is_empty(),
            "example of {} does not fire:\n{}",
            rule.id,
            rule.example
        );
    }
}

/// The reference's rule table: severity authored, then under lenient,
/// balanced and strict (`None`: off), and the legacy alias.
#[test]
fn catalogue_severities_follow_the_reference_table() {
    use Severity::{Error as E, Info as I, Warning as W};
    type Row = (&'static str, Severity, [Option<Severity>; 3], &'static [&'static str]);
    let table: &[Row] = &[
        ("call.undefined-method", E, [Some(E), Some(E), Some(E)], &["undefined-method"]),
        ("call.wrong-arity", E, [Some(E), Some(E), Some(E)], &["wrong-arity"]),
        ("call.argument-type-mismatch", E, [Some(W), Some(E), Some(E)], &["argument-type-mismatch"]),
        ("call.possible-nil-receiver", E, [Some(W), Some(E), Some(E)], &["possible-nil-receiver"]),
        ("call.raise-non-exception", E, [Some(W), Some(E), Some(E)], &["raise-non-exception"]),
        ("call.unresolved-toplevel", W, [None, Some(W), Some(E)], &["unresolved-toplevel"]),
        ("call.self-undefined-method", W, [None, None, None], &["self-undefined-method"]),
        ("dump.type", I, [Some(I), Some(I), Some(E)], &["dump-type"]),
        ("assert.type-mismatch", E, [Some(E), Some(E), Some(E)], &["assert-type"]),
        ("flow.always-raises", E, [Some(W), Some(E), Some(E)], &["always-raises"]),
        ("flow.unreachable-branch", W, [Some(I), Some(W), Some(E)], &["unreachable-branch"]),
        ("flow.always-truthy-condition", W, [Some(I), Some(W), Some(E)], &["always-truthy-condition"]),
        ("flow.unreachable-clause", W, [Some(I), Some(I), Some(W)], &["unreachable-clause"]),
        ("flow.dead-assignment", W, [Some(I), Some(W), Some(E)], &["dead-assignment"]),
        ("flow.duplicate-hash-key", W, [Some(I), Some(W), Some(E)], &["duplicate-hash-key"]),
        ("flow.return-in-ensure", W, [Some(I), Some(W), Some(E)], &["return-in-ensure"]),
        ("flow.shadowed-rescue-clause", W, [Some(I), Some(W), Some(E)], &["shadowed-rescue-clause"]),
        ("def.return-type-mismatch", W, [Some(W), Some(W), Some(E)], &["return-type-mismatch"]),
        ("def.method-visibility-mismatch", E, [Some(W), Some(E), Some(E)], &["method-visibility-mismatch"]),
        ("def.override-visibility-reduced", W, [None, Some(W), Some(E)], &["override-visibility-reduced"]),
        ("def.override-return-widened", W, [None, Some(W), Some(E)], &["override-return-widened"]),
        ("def.override-param-narrowed", W, [None, Some(W), Some(E)], &["override-param-narrowed"]),
        ("def.ivar-write-mismatch", E, [Some(W), Some(W), Some(E)], &["ivar-write-mismatch"]),
        ("static.value-use.void", W, [None, None, None], &["value-use.void"]),
        ("suppression.unknown-rule", W, [Some(W), Some(W), Some(W)], &[]),
        ("suppression.empty", W, [Some(W), Some(W), Some(W)], &[]),
        ("suppression.unknown-marker", W, [Some(W), Some(W), Some(W)], &[]),
    ];
    let all = rigor_engine::rules::all();
    assert_eq!(all.len(), table.len(), "every implemented rule is in the table");
    for (id, authored, by_profile, alias) in table {
        let rule = all.iter().find(|r| r.id == *id).unwrap_or_else(|| panic!("{id} is not implemented"));
        assert_eq!(rule.authored, *authored, "{id}");
        let actual = [Profile::Lenient, Profile::Balanced, Profile::Strict].map(|p| rule.severity(p));
        assert_eq!(actual, *by_profile, "{id}");
        assert_eq!(rule.aliases, *alias, "{id}");
    }
}
