//! The inference commands as a user runs them: exit codes, output shapes,
//! and where signatures come from (including no rbs gem at all).

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

mod support;
use support::project;

fn rigor(cwd: &Path, args: &[&str], rbs_path: Option<&str>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_rigor"));
    command.args(args).current_dir(cwd);
    if let Some(path) = rbs_path {
        command.env("RIGOR_RBS_PATH", path);
    }
    command.output().expect("rigor runs")
}

fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&output.stdout)))
}

/// What `type-of` says of the expression at `at` (FILE:LINE:COL) in `dir`.
fn type_at(dir: &Path, at: &str) -> String {
    let output = rigor(dir, &["type-of", "--format", "json", at], None);
    json(&output)["type"].as_str().unwrap_or_default().to_string()
}

#[test]
fn type_of_answers_in_text_and_json_with_both_position_spellings() {
    let dir = project(&[("a.rb", "x = [1, 2].map { |v| v.to_s }\n")]);
    let text = rigor(dir.path(), &["type-of", "a.rb:1:12"], None);
    assert_eq!(text.status.code(), Some(0), "{text:?}");
    assert_eq!(
        String::from_utf8_lossy(&text.stdout),
        "a.rb:1:12\nnode: Prism::CallNode\ntype: [String, String]\nerased: [String, String]\n"
    );
    let spaced = rigor(dir.path(), &["type-of", "--format", "json", "a.rb", "1", "1"], None);
    let answer = json(&spaced);
    assert_eq!(answer["node"], "Prism::LocalVariableWriteNode");
    assert_eq!(answer["type"], "[String, String]");
    let keys: Vec<&String> = answer.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["file", "line", "column", "node", "type", "erased"]);
}

#[test]
fn type_of_exit_codes_follow_the_reference() {
    let dir = project(&[("a.rb", "x = 1\n\n"), ("bad.rb", "def (\n")]);
    let code = |args: &[&str]| rigor(dir.path(), args, None).status.code();
    assert_eq!(code(&["type-of", "missing.rb:1:1"]), Some(1), "missing file");
    assert_eq!(code(&["type-of", "bad.rb:1:1"]), Some(1), "parse error");
    assert_eq!(code(&["type-of", "a.rb:2:1"]), Some(1), "no expression on a blank line");
    assert_eq!(code(&["type-of", "a.rb:9:1"]), Some(64), "line out of range");
    assert_eq!(code(&["type-of", "a.rb:1:99"]), Some(64), "column out of range");
    assert_eq!(code(&["type-of", "a.rb:0:1"]), Some(64), "positions are 1-based");
    assert_eq!(code(&["type-of", "a.rb", "1"]), Some(64), "FILE LINE without COL");
    assert_eq!(code(&["type-of", "a.rb:1:1"]), Some(0));
}

#[test]
fn annotate_prints_types_or_a_line_map() {
    let dir = project(&[("a.rb", "def one\n  1\nend\nx = one + 1 #=> stale\n")]);
    let text = rigor(dir.path(), &["annotate", "--no-color", "a.rb"], None);
    assert_eq!(text.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&text.stdout),
        "def one      #=> 1\n  1          #=> 1\nend          #=> :one\nx = one + 1  #=> 2\n"
    );
    let map = json(&rigor(dir.path(), &["annotate", "--format", "json", "a.rb"], None));
    assert_eq!(map, serde_json::json!({"annotations": {"1": "1", "2": "1", "3": ":one", "4": "2"}}));
    assert_eq!(rigor(dir.path(), &["annotate", "nope.rb"], None).status.code(), Some(1));
    // A `def` inside a line's statement is not the line's value (Ruby
    // gives `x` nil here, not the 3 `initialize` returns); one a call
    // takes (`private def y`) still shows what the method returns.
    let dir = project(&[(
        "a.rb",
        "x = Class.new { def initialize; @v = 3; end }.new.instance_variable_get(:@w)\nclass A\n  private def y = 1\nend\n",
    )]);
    let map = json(&rigor(dir.path(), &["annotate", "--format", "json", "a.rb"], None));
    assert_eq!(map["annotations"]["1"], "untyped", "{map}");
    assert_eq!(map["annotations"]["3"], "1", "{map}");
}

#[test]
fn coverage_counts_tiers_and_honours_the_threshold() {
    let dir = project(&[("lib/a.rb", "x = 1\ny = foo\n")]);
    let output = rigor(dir.path(), &["coverage", "--format", "json"], None);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let report = json(&output);
    assert_eq!(report["summary"]["expressions_typed"], 4);
    assert_eq!(report["summary"]["precise_count"], 2);
    assert_eq!(report["summary"]["precise_ratio"], 0.5);
    assert_eq!(report["by_tier"]["constant"]["count"], 2);
    assert_eq!(report["by_tier"]["dynamic_top"]["count"], 2);
    assert_eq!(rigor(dir.path(), &["coverage", "--threshold", "0.9"], None).status.code(), Some(1));
    assert_eq!(rigor(dir.path(), &["coverage", "--threshold", "0.5"], None).status.code(), Some(0));
    assert_eq!(rigor(dir.path(), &["coverage", "--threshold", "2"], None).status.code(), Some(64));
    assert_eq!(rigor(dir.path(), &["coverage", "nowhere"], None).status.code(), Some(64));
}

#[test]
fn without_an_rbs_gem_the_engine_says_so_once_and_carries_on() {
    let dir = project(&[("lib/a.rb", "a = 1 + 2\nb = \"x\".center(3)\n")]);
    let output = rigor(dir.path(), &["coverage", "--format", "json"], Some("/nonexistent/rbs"));
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.matches("holds no RBS core signatures").count(), 1, "said once: {stderr}");
    let report = json(&output);
    let warnings = report["config_warnings"].as_array().expect("a config warning");
    assert!(warnings.iter().any(|w| w["kind"] == "signatures"), "{warnings:?}");

    let folded = json(&rigor(dir.path(), &["type-of", "--format=json", "lib/a.rb:1:7"], Some("/nonexistent/rbs")));
    assert_eq!(folded["type"], "3", "literals still fold");
    let unknown = json(&rigor(dir.path(), &["type-of", "--format=json", "lib/a.rb:2:9"], Some("/nonexistent/rbs")));
    assert_eq!(unknown["type"], "untyped", "core methods are unknown without signatures");
    let known = json(&rigor(dir.path(), &["type-of", "--format=json", "lib/a.rb:2:9"], None));
    assert_eq!(known["type"], "String");
}

#[test]
fn project_signatures_come_from_sig_signature_paths_and_libraries() {
    let dir = project(&[
        ("lib/a.rb", "class Clock\n  def now = nil\nend\nClock.new.now\nVendor.make\nSet.new([1])\n"),
        ("sig/clock.rbs", "class Clock\n  def now: () -> Integer\nend\n"),
        ("vendor_sig/vendor.rbs", "class Vendor\n  def self.make: () -> Vendor\nend\n"),
        ("config/rigor.yml", "signature_paths: [../vendor_sig]\nlibraries: [set]\n"),
    ]);
    let type_at = |line: &str, config: bool| {
        let position = format!("lib/a.rb:{line}");
        let mut args = vec!["type-of", "--format=json"];
        if config {
            args.push("--config=config/rigor.yml");
        }
        args.push(&position);
        json(&rigor(dir.path(), &args, None))["type"].as_str().unwrap().to_string()
    };
    assert_eq!(type_at("4:11", false), "Integer", "sig/ is read without configuration");
    assert_eq!(type_at("5:8", false), "untyped");
    assert_eq!(type_at("5:8", true), "Vendor", "signature_paths resolve against the config file");
    assert_eq!(type_at("6:5", true), "Set[Integer]", "libraries load the rbs gem's stdlib signatures");

    std::fs::write(dir.path().join("sig/broken.rbs"), "class {\n").unwrap();
    let output = rigor(dir.path(), &["type-of", "lib/a.rb:4:11"], None);
    assert_eq!(output.status.code(), Some(0), "a broken signature file does not stop the command");
    assert!(String::from_utf8_lossy(&output.stderr).contains("broken.rbs"), "{output:?}");
}

#[test]
fn a_method_a_mixin_may_override_returns_what_either_returns() {
    // `db.extend(Methods)` and a subclass's `include` both put a module's
    // method ahead of the class's own (Ruby: `false`, and `:maybe`).
    let dir = project(&[
        ("lib/database.rb", "class Database\n  def supports_x? = true\n\n  def go\n    supports_x?\n  end\nend\n"),
        (
            "lib/adapter.rb",
            "module Adapter\n  module Methods\n    def supports_x? = false\n  end\n\n  def self.setup(db)\n    db.extend(Methods)\n  end\nend\n",
        ),
        (
            "lib/dataset.rb",
            "class Dataset\n  def feature? = true\n\n  def run\n    feature?\n  end\nend\n\nmodule MySQL\n  module DatasetMethods\n    def feature? = :maybe\n  end\n\n  class Dataset < ::Dataset\n    include DatasetMethods\n  end\nend\n",
        ),
        ("lib/use.rb", "x = Database.new.supports_x?\ny = Dataset.new.feature?\nz = Adapter.setup(1)\n"),
        ("lib/plain.rb", "class Plain\n  def on? = true\n\n  def go = on?\nend\n"),
    ]);
    let type_at = |at: &str| type_at(dir.path(), at);
    assert_eq!(type_at("lib/database.rb:5:5"), "bool", "same file, extended objects");
    assert_eq!(type_at("lib/use.rb:1:1"), "bool", "another file, extended objects");
    assert_eq!(type_at("lib/dataset.rb:5:5"), ":maybe | true", "a subclass includes the override");
    assert_eq!(type_at("lib/use.rb:2:1"), ":maybe | true");
    assert_eq!(type_at("lib/plain.rb:4:14"), "true", "nothing overrides it");
}

#[test]
fn a_library_module_a_subclass_mixes_in_may_answer_a_call_on_self() {
    // `List < Node` includes Enumerable: `List.new.go` runs Enumerable's
    // `first`, not Node's (Ruby: `[1, 2]`). From another file too, and
    // through a project module that includes the library's.
    let dir = project(&[
        ("lib/node.rb", "class Node\n  def go = first(2)\n  def first(n) = \"node\"\nend\n"),
        ("lib/list.rb", "class List < Node\n  include Enumerable\n  def each = (yield 1; yield 2)\nend\n"),
        ("lib/leaf.rb", "class Leaf\n  def go = size\n  def size = 1\nend\nmodule Counted\n  include Comparable\nend\n"),
        ("lib/twig.rb", "class Twig < Leaf\nend\nclass Stem\n  def go = sum\n  def sum = 0\nend\n"),
        ("lib/bough.rb", "class Bough < Stem\n  include Counted\nend\n"),
        ("lib/root.rb", "class Root\n  def go = clamp(1, 2)\n  def clamp(a, b) = 0\nend\nclass Shoot < Root\n  include Counted\nend\n"),
    ]);
    let type_at = |at: &str| type_at(dir.path(), at);
    assert_eq!(type_at("lib/node.rb:2:12"), "\"node\" | untyped");
    assert_eq!(type_at("lib/leaf.rb:2:12"), "1", "nothing below mixes a `size` in");
    assert_eq!(type_at("lib/twig.rb:4:12"), "0", "Comparable gives no `sum`");
    assert_eq!(type_at("lib/root.rb:2:12"), "0 | untyped", "Comparable's `clamp`, through a project module");
}

#[test]
fn a_subclass_written_under_a_namespace_nobody_defines_still_overrides() {
    // RDoc's files say `class RDoc::NormalModule < RDoc::ClassModule`
    // without `RDoc` in view: the superclass went unresolved, the
    // override unseen, and `aref` came out `bot` (Ruby: "module-Set").
    let dir = project(&[
        (
            "lib/class_module.rb",
            "class RX::ClassModule\n  def aref\n    \"#{aref_prefix}-x\"\n  end\n\n  def aref_prefix\n    raise NotImplementedError\n  end\n\n  def module? = false\n\n  def type\n    t = module? ? \"module\" : \"class\"\n  end\nend\n",
        ),
        ("lib/normal_module.rb", "class RX::NormalModule < RX::ClassModule\n  def aref_prefix = \"module\"\n  def module? = true\nend\n"),
    ]);
    let type_at = |at: &str| type_at(dir.path(), at);
    assert_eq!(type_at("lib/class_module.rb:3:5"), "String");
    assert_eq!(type_at("lib/class_module.rb:13:5"), "\"class\" | \"module\"");
}

#[test]
fn a_module_extended_in_another_file_gives_way_to_the_extenders_singleton_methods() {
    // Thor: `Thor::Base::ClassMethods#start` calls `dispatch`, which the
    // module leaves to `Thor` (`class << self; def dispatch`). It came out
    // `nil` (the module's own), though Ruby returns what Thor's gives.
    let dir = project(&[
        (
            "lib/class_methods.rb",
            "module ClassMethods\n  def start\n    x = dispatch\n  end\n\n  def dispatch = nil\nend\n",
        ),
        ("lib/cli.rb", "class Cli\n  extend ClassMethods\n\n  class << self\n    def dispatch = 1\n  end\nend\n"),
        ("lib/plain.rb", "module Plain\n  def start\n    x = dispatch\n  end\n\n  def dispatch = nil\nend\n"),
    ]);
    assert_eq!(type_at(dir.path(), "lib/class_methods.rb:3:5"), "untyped?");
    assert_eq!(type_at(dir.path(), "lib/plain.rb:3:5"), "nil", "nothing extends it");
}

#[test]
fn a_module_prepended_from_outside_any_class_overrides() {
    // `Quiet.prepend(Loud)` at the top level of a file: Ruby's `go` gives
    // "loud"; it came out `1`, the class's own.
    let dir = project(&[
        ("lib/quiet.rb", "class Quiet\n  def shout = 1\n\n  def go\n    x = shout\n  end\nend\n"),
        ("lib/loud.rb", "module Loud\n  def shout = \"loud\"\nend\n\nQuiet.prepend(Loud)\n"),
    ]);
    assert_eq!(type_at(dir.path(), "lib/quiet.rb:5:5"), "\"loud\" | 1");
}

#[test]
fn a_method_defined_in_a_block_in_another_file_may_answer_for_the_class() {
    // `Class.new(Base) do def step` in another file: `Base#run` and a call
    // of `step` from a third file may get the anonymous subclass's.
    let dir = project(&[
        ("lib/base.rb", "class Base\n  def run\n    x = step\n  end\n\n  def step = 1\nend\n"),
        ("lib/anon.rb", "Anon = Class.new(Base) do\n  def step = \"anon\"\nend\n"),
        ("lib/use.rb", "y = Base.new.step\n"),
    ]);
    assert_eq!(type_at(dir.path(), "lib/base.rb:3:5"), "1 | untyped");
    assert_eq!(type_at(dir.path(), "lib/use.rb:1:1"), "1 | untyped");
}

#[test]
fn super_reaches_an_ancestors_method_in_another_file_and_not_its_overrides() {
    // Ruby 3.1 prints :from_m, :from_p, 5, "base" and 1 for these: `super`
    // runs the next body up the ancestors (a module Mid includes, one Base
    // prepends), never an override below, so it is what that body returns,
    // as it is when every class is in one file. Sub's own overrides (the
    // pass that learns other files' returns sees them `untyped`) do not
    // widen it; a method two files define stays unknown.
    let dir = project(&[
        ("lib/p.rb", "module P\n  def pre = :from_p\nend\n"),
        (
            "lib/base.rb",
            "class Base\n  prepend P\n  def pre = 1\n  def foo = \"base\"\n  def one = 1\n  def self.create = 5\n  def twice = 1\nend\n",
        ),
        ("lib/again.rb", "class Base\n  def twice = 2.5\nend\n"),
        ("lib/m.rb", "module M\n  def foo = :from_m\nend\n"),
        ("lib/mid.rb", "class Mid < Base\n  include M\nend\n"),
        ("lib/plain.rb", "class Plain < Base\n  def foo = super\n  def one = super\nend\n"),
        (
            "lib/sub.rb",
            "class Sub < Mid\n  def foo = super\n  def pre = super\n  def self.create = super\n  def twice = super\nend\n",
        ),
    ]);
    assert_eq!(type_at(dir.path(), "lib/sub.rb:2:13"), ":from_m");
    assert_eq!(type_at(dir.path(), "lib/sub.rb:3:13"), ":from_p");
    assert_eq!(type_at(dir.path(), "lib/sub.rb:4:21"), "5");
    assert_eq!(type_at(dir.path(), "lib/plain.rb:2:13"), "\"base\"");
    assert_eq!(type_at(dir.path(), "lib/plain.rb:3:13"), "1");
    assert_eq!(type_at(dir.path(), "lib/sub.rb:5:15"), "untyped");
}

#[test]
fn a_call_on_a_class_nothing_below_overrides_runs_the_ancestors_body_alone() {
    // Ruby prints [1, "fix", 1, 1, :legacy]: `Leaf` has no class below it,
    // so `kind` on a `Leaf` is `Base#kind` and its block gets what that
    // body yields; on a `Base` it may be `Legacy`'s override too.
    let dir = project(&[
        ("lib/base.rb", "class Base\n  def kind = 1\n  def each_fix\n    yield \"fix\"\n  end\nend\n"),
        (
            "lib/subs.rb",
            "class Legacy < Base\n  def kind = :legacy\n  def each_fix\n    yield 2\n  end\nend\nclass Leaf < Base\nend\n",
        ),
        (
            "lib/use.rb",
            "class Leaf\n  def run = kind\n  def fixes = each_fix { |f| return f.bogus }\nend\nclass Base\n  def any = kind\nend\nx = Leaf.new.kind\ny = Base.new.kind\n",
        ),
    ]);
    assert_eq!(type_at(dir.path(), "lib/use.rb:2:13"), "1");
    assert_eq!(type_at(dir.path(), "lib/use.rb:3:37"), "String");
    assert_eq!(type_at(dir.path(), "lib/use.rb:8:1"), "1");
    assert_eq!(type_at(dir.path(), "lib/use.rb:6:13"), "1 | :legacy");
    assert_eq!(type_at(dir.path(), "lib/use.rb:9:1"), "1 | :legacy");
}

#[test]
fn a_class_method_a_module_extended_below_overrides_may_be_the_modules() {
    // Ruby prints "m": `D` extends `M`, whose `m` answers `D.m` ahead of
    // `C.m`, so `C.build`, run as `D.build`, may give either; the same when
    // every class is in one file.
    let dir = project(&[
        ("lib/a.rb", "class C\n  def self.m = 1\n  def self.local = m\nend\n"),
        ("lib/m.rb", "module M\n  def m = \"m\"\nend\n"),
        ("lib/d.rb", "class D < C\n  extend M\nend\n"),
        ("lib/e.rb", "class C\n  def self.build = m\nend\n"),
        (
            "lib/one.rb",
            "class P\n  def self.m = 1\n  def self.b = m\nend\nmodule Q\n  def m = \"q\"\nend\nclass R < P\n  extend Q\nend\n",
        ),
    ]);
    assert_eq!(type_at(dir.path(), "lib/e.rb:2:20"), "1 | untyped");
    assert_eq!(type_at(dir.path(), "lib/a.rb:3:20"), "1 | untyped");
    assert_eq!(type_at(dir.path(), "lib/one.rb:3:16"), "1 | untyped");
}

#[test]
fn a_core_method_the_project_redefines_is_not_the_cores() {
    // Ruby: `def s.swapcase = 2` makes `s.swapcase` 2; a reopened Array's
    // `size` makes `[1, 2].size` 7, an alias in a reopened Symbol makes
    // `:ab.length` a Proc, a module from another file prepended to String
    // makes `"ab".capitalize` its own, a refinement in force makes
    // `"a".upcase` 1, and `String.class_eval do define_method(:strip)`
    // makes `" ab ".strip` 1. The core's signature
    // describes the core's body, which these replace (maybe only once
    // their file is loaded), so such a call is untyped and never folded
    // (README: RBS and source).
    let dir = project(&[
        ("lib/shout.rb", "module Shout\n  refine String do\n    def upcase = 1\n  end\nend\n"),
        ("lib/use.rb", "class User\n  using Shout\n  def name\n    x = \"a\".upcase\n  end\nend\n"),
        ("lib/own.rb", "s = +\"a\"\ndef s.swapcase = 2\ny = s.swapcase\nz = \"b\".downcase\n"),
        ("lib/array.rb", "class Array\n  def size = 7\nend\nn = [1, 2].size\nm = [1, 2].first\n"),
        ("lib/symbol.rb", "class Symbol\n  alias_method :length, :to_proc\nend\nq = :ab.length\nr = :ab.to_s\n"),
        ("lib/loud.rb", "module Loud\n  def capitalize = \"loud\"\nend\n"),
        ("lib/prepend.rb", "class String\n  prepend Loud\nend\nc = \"ab\".capitalize\n"),
        ("lib/eval.rb", "String.class_eval do\n  define_method(:strip) { 1 }\nend\nk = \" ab \".strip\n"),
    ]);
    assert_eq!(type_at(dir.path(), "lib/own.rb:3:1"), "untyped");
    assert_eq!(type_at(dir.path(), "lib/array.rb:4:1"), "untyped");
    assert_eq!(type_at(dir.path(), "lib/symbol.rb:4:1"), "untyped");
    assert_eq!(type_at(dir.path(), "lib/prepend.rb:4:1"), "untyped");
    // So do a refinement's body (wherever `using` is in force) and a
    // `define_method` in a block run on the class.
    assert_eq!(type_at(dir.path(), "lib/use.rb:4:5"), "untyped");
    assert_eq!(type_at(dir.path(), "lib/eval.rb:4:1"), "untyped");
    // A name nobody redefines is still folded.
    assert_eq!(type_at(dir.path(), "lib/own.rb:4:1"), "\"b\"");
    assert_eq!(type_at(dir.path(), "lib/array.rb:5:1"), "1");
    assert_eq!(type_at(dir.path(), "lib/symbol.rb:5:1"), "\"ab\"");
}

#[test]
fn core_methods_replaced_through_a_receiver_or_an_ancestor_are_untyped() {
    // Each of these gives a core method another body from outside the
    // class's own reopening; Ruby 3.1 then runs that body (the comment
    // says what it gives), so the signature's answer is not certain.
    let dir = project(&[
        ("lib/a.rb", "String.define_method(:length) { -1 }\nl = \"abc\".length\n"),
        ("lib/b.rb", "String.alias_method(:swapcase, :to_sym)\ns = \"abc\".swapcase\n"),
        ("lib/c.rb", "String.class_eval \"def size = -7\"\nz = \"abc\".size\n"),
        ("lib/d.rb", "Array.prepend(Module.new { def sort = :sorted })\nt = [3, 1].sort\n"),
        ("lib/e.rb", "module Enumerable\n  def tally = :mine\nend\ny = [1, 1].tally\n"),
        ("lib/f.rb", "class Numeric\n  def clamp(*) = :mine\nend\nc = 5.clamp(1, 3)\n"),
        ("lib/g.rb", "def Integer.sqrt(x) = :mine\nq = Integer.sqrt(16)\n"),
        ("lib/h.rb", "class << Float\n  def sqrt(x) = :mine\nend\nf = Math.sqrt(4.0)\n"),
        ("lib/i.rb", "module Shout\n  def upcase = :shout\nend\nString.prepend(Shout)\nu = \"ab\".upcase\n"),
        ("lib/j.rb", "Integer.send(:define_method, :+) { |o| :plus }\np = 5 + 2\n"),
        ("lib/k.rb", "class Symbol\n  def to_proc = proc { :sp }\nend\nm = [1, 2].map(&:to_s)\n"),
        // The `alias` keyword in a block run on the class, as `alias_method`.
        ("lib/l.rb", "String.class_eval { alias size upcase }\nw = \"ab\".size\n"),
        // `instance_eval` on the class: `define_method` there is String's.
        ("lib/m.rb", "String.instance_eval { define_method(:center) { |*| :c } }\no = \"ab\".center(4)\n"),
        ("lib/n.rb", "Array.instance_exec { alias_method :size, :first }\nz = [7].size\n"),
        // Sent with the maker and the names in a splat.
        ("lib/o.rb", "String.send(*[:alias_method, :length, :upcase])\nq = \"ab\".length\n"),
    ]);
    assert_eq!(type_at(dir.path(), "lib/o.rb:2:1"), "untyped"); // "AB"
    assert_eq!(type_at(dir.path(), "lib/m.rb:2:1"), "untyped"); // :c
    assert_eq!(type_at(dir.path(), "lib/n.rb:2:1"), "untyped"); // 7
    assert_eq!(type_at(dir.path(), "lib/l.rb:2:1"), "untyped"); // "AB"
    assert_eq!(type_at(dir.path(), "lib/a.rb:2:1"), "untyped"); // -1
    assert_eq!(type_at(dir.path(), "lib/b.rb:2:1"), "untyped"); // :abc
    assert_eq!(type_at(dir.path(), "lib/c.rb:2:1"), "untyped"); // -7
    assert_eq!(type_at(dir.path(), "lib/d.rb:2:1"), "untyped"); // :sorted
    assert_eq!(type_at(dir.path(), "lib/e.rb:4:1"), "untyped"); // :mine
    assert_eq!(type_at(dir.path(), "lib/f.rb:4:1"), "untyped"); // :mine
    assert_eq!(type_at(dir.path(), "lib/g.rb:2:1"), "untyped"); // :mine
    assert_eq!(type_at(dir.path(), "lib/i.rb:5:1"), "untyped"); // :shout
    assert_eq!(type_at(dir.path(), "lib/j.rb:2:1"), "untyped"); // :plus
    assert_eq!(type_at(dir.path(), "lib/k.rb:4:1"), "[untyped, untyped]"); // [:sp, :sp]
                                                                           // Math.sqrt is Math's, not Float's: still the signature's.
    assert_eq!(type_at(dir.path(), "lib/h.rb:4:1"), "Float");
    // A method of a class above the signature's owner does not replace
    // it: Integer#abs is Integer's, ahead of Numeric's (not folded, as
    // any name some core class is given, but typed).
    let kept = project(&[("lib/n.rb", "class Numeric\n  def abs = :n\nend\nv = 5.abs\n")]);
    assert_eq!(type_at(kept.path(), "lib/n.rb:4:1"), "Integer");
}

#[test]
fn class_methods_given_from_outside_the_class_body_are_untyped() {
    // Ruby 3.1 runs Ext#level for each of these calls ("ext"): a module
    // extended into a subclass from outside (ahead of what it inherits),
    // prepended to a singleton class, or in `class << self`; and
    // `Base.show`'s `level` may be the subclass's.
    let dir = project(&[
        (
            "lib/a.rb",
            "class Base\n  def self.level = 1\n  def self.show = level\nend\nclass Conf < Base; end\n\
             class Plain\n  def self.level = 1\nend\nclass Body\n  def self.level = 1\nend\n\
             class Kept\n  def self.level = 1\nend\n",
        ),
        (
            "lib/b.rb",
            "module Ext\n  def level = \"ext\"\nend\nConf.extend(Ext)\nPlain.singleton_class.prepend(Ext)\n\
             class Body\n  class << self\n    prepend Ext\n  end\nend\nclass Kept\n  extend Ext\nend\n\
             c = Conf.level\np = Plain.level\nb = Body.level\nk = Kept.level\ns = Base.show\n",
        ),
    ]);
    assert_eq!(type_at(dir.path(), "lib/b.rb:14:1"), "untyped");
    assert_eq!(type_at(dir.path(), "lib/b.rb:15:1"), "untyped");
    assert_eq!(type_at(dir.path(), "lib/b.rb:16:1"), "untyped");
    // `Base.show` gives 1, but its `level` may be a subclass's
    // (`Conf.show` gives "ext").
    assert_eq!(type_at(dir.path(), "lib/b.rb:18:1"), "1 | untyped");
    // A class's own method stands ahead of a module it extends (Ruby: 1).
    assert_eq!(type_at(dir.path(), "lib/b.rb:17:1"), "1");
}

#[test]
fn a_constant_mutated_in_place_elsewhere_holds_anything() {
    // Ruby 3.1: `Parsers.for("csv")` is CsvParser and PORTS ends with
    // "unix.sock", though the literals say JsonParser and Integers.
    let dir = project(&[
        (
            "lib/a.rb",
            "module Parsers\n  REGISTRY = { \"json\" => Integer }\n  def self.register(n, k) = REGISTRY[n] = k\n\
             def self.for(n) = REGISTRY.fetch(n)\nend\nPORTS = (8000..8001).to_a\nKEPT = (1..2).to_a\n",
        ),
        (
            "lib/b.rb",
            "Parsers.register(\"csv\", String)\nPORTS << \"unix.sock\"\np = PORTS\nk = KEPT\nr = Parsers.for(\"x\")\n",
        ),
    ]);
    assert_eq!(type_at(dir.path(), "lib/b.rb:3:1"), "Array[untyped]");
    assert_eq!(type_at(dir.path(), "lib/b.rb:5:1"), "untyped");
    // Nobody mutates KEPT: it keeps its element type.
    assert_eq!(type_at(dir.path(), "lib/b.rb:4:1"), "Array[Integer]");
}

#[test]
fn an_ivar_whose_reader_value_is_mutated_elsewhere_holds_anything() {
    // Ruby 3.1: `pool.ids << "spare"` in another file puts a String in
    // `@ids`, though `(1..3).to_a` made it Integers.
    let dir = project(&[
        (
            "lib/a.rb",
            "class Pool\n  attr_reader :ids, :kept\n  def initialize\n    @ids = (1..3).to_a\n    @kept = (1..3).to_a\n  end\n\
             def all = @ids\n  def safe = @kept\nend\n",
        ),
        ("lib/b.rb", "pool = Pool.new\npool.ids << \"spare\"\na = pool.all\nk = pool.safe\n"),
    ]);
    assert_eq!(type_at(dir.path(), "lib/b.rb:3:1"), "Array[untyped]");
    // Nobody mutates what `kept` gives: it keeps its element type.
    assert_eq!(type_at(dir.path(), "lib/b.rb:4:1"), "Array[Integer]");
}

#[test]
fn overloads_that_take_the_same_arguments_all_answer() {
    // A signature may declare one parameter list twice with two returns
    // (rbs 2.1's `Range#size`): the call may give either, not the first.
    let dir = project(&[
        ("sig/foo.rbs", "class Foo\n  def m: () -> Integer\n       | () -> String\n  def n: (Integer) -> Integer\n       | (String) -> String\nend\n"),
        ("lib/foo.rb", "class Foo\n  def m = 1\n  def n(x) = x\nend\na = Foo.new.m\nb = Foo.new.n(1)\n"),
    ]);
    assert_eq!(type_at(dir.path(), "lib/foo.rb:5:1"), "Integer | String");
    // Overloads that differ in what they take still choose.
    assert_eq!(type_at(dir.path(), "lib/foo.rb:6:1"), "Integer");
}

#[test]
fn overloads_are_chosen_by_their_type_arguments_and_literals_too() {
    // `Array[String]` is an Array but not an `Array[Integer]`: the first
    // overload does not fit `["a"]` (Ruby gives "a"). Nor is a Range the
    // literal `0` (`rand(1..2)` is only Integer).
    let dir = project(&[
        (
            "sig/foo.rbs",
            "class Foo
  def f: (Array[Integer]) -> Integer
       | (Array[String]) -> String
end
",
        ),
        (
            "lib/foo.rb",
            "class Foo
  def f(a) = a.first
end
a = Foo.new.f([\"a\"])
b = Foo.new.f([1])
c = rand(1.0..2.0)
d = rand(1..2)
",
        ),
    ]);
    assert_eq!(type_at(dir.path(), "lib/foo.rb:4:1"), "String");
    assert_eq!(type_at(dir.path(), "lib/foo.rb:5:1"), "Integer");
    assert_eq!(type_at(dir.path(), "lib/foo.rb:6:1"), "Float");
    assert_eq!(type_at(dir.path(), "lib/foo.rb:7:1"), "Integer");
}

#[test]
fn a_project_signature_still_wins_over_the_projects_body() {
    // The project's own sig/ is a promise about its code: a reopened core
    // method it declares keeps the declared type.
    let dir = project(&[
        ("sig/symbol.rbs", "class Symbol\n  def length: () -> Integer\nend\n"),
        ("lib/symbol.rb", "class Symbol\n  def length = 3\nend\nq = :ab.length\n"),
    ]);
    assert_eq!(type_at(dir.path(), "lib/symbol.rb:4:1"), "Integer");
}

#[test]
fn a_constant_set_or_removed_by_name_elsewhere_may_hold_anything() {
    // Ruby: after `M.send(:remove_const, :Z)` and `M.const_set(:Z, "z")`
    // in another file, `M::Z` is "z", not the 1 its assignment says.
    let dir = project(&[
        ("lib/m.rb", "module M\n  Z = 1\n  W = 2\nend\nmodule N\n  Z = 3\n  V = 4\n  remove_const :V\nend\n"),
        ("lib/reset.rb", "M.send(:remove_const, :Z)\nM.const_set(:Z, \"z\")\n"),
        ("lib/use.rb", "b = M::Z\nc = M::W\nd = N::Z\ne = N::V\n"),
    ]);
    assert_eq!(type_at(dir.path(), "lib/use.rb:1:1"), "1 | untyped");
    assert_eq!(type_at(dir.path(), "lib/use.rb:4:1"), "4 | untyped");
    // A constant nobody sets by name keeps its assignment's type, though
    // another namespace's of the same name is set.
    assert_eq!(type_at(dir.path(), "lib/use.rb:2:1"), "2");
    assert_eq!(type_at(dir.path(), "lib/use.rb:3:1"), "3");
}

#[test]
fn an_ivar_written_in_an_object_from_another_file_may_hold_what_was_written() {
    // Ruby: each of b.rb's writes reaches the Cfg object (`c.a` is :sym,
    // `c.b` 2.5, `c.c` "s", `c.d` [1], `c.e` "LOUD", `c.f` 1.5), though
    // Cfg's own writes say 1.
    let cfg = "class Cfg\n  def initialize\n    @a = @b = @c = @d = @e = @f = @g = 1\n  end\n\n  def a = @a\n  def b = @b\n  def c = @c\n  def d = @d\n  def e = @e\n  def f = @f\n  def g = @g\nend\n";
    let dir = project(&[
        ("lib/cfg.rb", cfg),
        ("lib/loud.rb", "module Loud\n  def shout! = @e = \"LOUD\"\nend\n"),
        (
            "lib/b.rb",
            "c = Cfg.new\nc.instance_eval { @a = :sym }\ndef c.poke = @b = 2.5\nc.define_singleton_method(:zz) { @c = \"s\" }\nc.send(:instance_variable_set, :@d, [1])\nc.extend(Loud)\nc.instance_eval(\"@f = 1.5\")\n[1].each { @g = 2 }\n",
        ),
    ]);
    for line in 6..=11 {
        assert_eq!(type_at(dir.path(), &format!("lib/cfg.rb:{line}:11")), "untyped", "line {line}");
    }
    // An iterator's block runs on the `self` it was written under (here
    // the main object): Cfg's @g is Cfg's own (nil too: only the chain's
    // first write counts as `initialize`'s).
    assert_eq!(type_at(dir.path(), "lib/cfg.rb:12:11"), "1?");

    // A name computed where the object cannot be named: any ivar at all.
    let dir =
        project(&[("lib/cfg.rb", cfg), ("lib/b.rb", "def revive(o, k, v) = o.instance_variable_set(\"@#{k}\", v)\n")]);
    assert_eq!(type_at(dir.path(), "lib/cfg.rb:12:11"), "untyped");

    // Code in a string for a named class: that class's ivars alone.
    let dir = project(&[
        ("lib/cfg.rb", cfg),
        ("lib/other.rb", "class Other\n  def initialize = @g = 1\n  def g = @g\nend\n"),
        ("lib/b.rb", "def patch(code) = Other.class_eval(code)\n"),
    ]);
    assert_eq!(type_at(dir.path(), "lib/other.rb:3:11"), "untyped");
    assert_eq!(type_at(dir.path(), "lib/cfg.rb:12:11"), "1?");
}

#[test]
fn an_ivar_an_attr_writer_made_from_another_file_may_hold_what_it_was_given() {
    // Ruby 3.1 prints ["v", "w", 1]: `Box.attr_writer :v` (public since
    // Ruby 3.0) and a module's `attr_writer :w` given to `b.extend` make
    // writers of Box's @v and @w, though Box's own writes say 1. @u has no
    // writer and keeps its type.
    let box_rb = "class Box\n  def initialize\n    @v = 1\n    @w = 1\n    @u = 1\n  end\n\n  def v = @v\n  def w = @w\n  def u = @u\nend\n";
    let dir = project(&[
        ("lib/box.rb", box_rb),
        ("lib/w.rb", "module W\n  attr_writer :w\nend\n"),
        ("lib/b.rb", "Box.attr_writer :v\nb = Box.new\nb.extend(W)\nb.v = \"v\"\nb.w = \"w\"\np [b.v, b.w, b.u]\n"),
    ]);
    assert_eq!(type_at(dir.path(), "lib/box.rb:8:11"), "untyped");
    assert_eq!(type_at(dir.path(), "lib/box.rb:9:11"), "untyped");
    assert_eq!(type_at(dir.path(), "lib/box.rb:10:11"), "1");

    // Names computed where the class cannot be named: any ivar at all.
    let dir = project(&[("lib/box.rb", box_rb), ("lib/b.rb", "def widen(k, names) = k.attr_accessor(*names)\n")]);
    assert_eq!(type_at(dir.path(), "lib/box.rb:10:11"), "untyped");

    // Code in a string that makes a writer: Box's ivars.
    let dir = project(&[("lib/box.rb", box_rb), ("lib/b.rb", "Box.class_eval(\"attr_writer :u\")\n")]);
    assert_eq!(type_at(dir.path(), "lib/box.rb:10:11"), "untyped");
}

#[test]
fn an_ivar_written_from_another_ivar_is_not_nil_when_the_family_spans_files() {
    // Pass one, which learns the file's own writes, read `@doc` as unset
    // (only the other files' writes and nil): `@node` came out `nil`,
    // though Ruby gives "1" here.
    let dir = project(&[
        ("lib/base.rb", "class Base\nend\n"),
        (
            "lib/child.rb",
            "class Child < Base\n  def setup(x)\n    @doc = x.to_s\n    helper\n    @node = @doc.upcase\n  end\n\n  def helper = nil\n\n  def check\n    @node\n  end\nend\n",
        ),
    ]);
    let ty = type_at(dir.path(), "lib/child.rb:11:5");
    assert!(ty.ends_with('?') && ty != "nil", "{ty}");
}

#[test]
fn a_reopened_core_class_overrides_what_its_signature_ancestors_define() {
    // Method < Object in the signatures: `deep_dup` on a Method runs
    // Method#duplicable?, defined in another file (Ruby: false).
    let dir = project(&[
        ("lib/dup.rb", "class Object\n  def deep_dup\n    duplicable? ? dup : self\n  end\nend\n"),
        (
            "lib/duplicable.rb",
            "class Object\n  def duplicable? = true\nend\n\nclass Method\n  def duplicable? = false\nend\n",
        ),
    ]);
    assert_eq!(type_at(dir.path(), "lib/dup.rb:3:5"), "bool");
    let check = rigor(dir.path(), &["check", "--format", "json", "lib"], None);
    assert_eq!(json(&check)["diagnostics"], serde_json::json!([]), "no always-truthy condition");
}

#[test]
fn a_struct_layout_assigned_to_a_constant_is_a_class_other_files_see() {
    let dir = project(&[
        ("lib/geo.rb", "module Geo\n  Point = Struct.new(:x, :y) do\n    def norm = 1\n  end\nend\n"),
        ("lib/use.rb", "pt = Geo::Point.new(1, 2)\npt.x\npt.nrom\n"),
    ]);
    assert_eq!(type_at(dir.path(), "lib/use.rb:1:1"), "Geo::Point");
    assert_eq!(type_at(dir.path(), "lib/use.rb:2:4"), "untyped");
    let check = rigor(dir.path(), &["check", "--format", "json", "lib"], None);
    let found: Vec<(u64, String)> = json(&check)["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["line"].as_u64().unwrap(), d["rule"].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(found, [(3, "call.undefined-method".to_string())]);
}

#[test]
fn a_constant_assigned_again_in_another_file_holds_either_value() {
    // Ruby warns and takes the later value (`Cfg.new.limit` is "s" once
    // lib/b.rb has run); the file's own assignment is not the whole story.
    let dir = project(&[
        ("lib/a.rb", "class Cfg\n  LIMIT = 10\n  def limit = LIMIT\nend\n"),
        ("lib/b.rb", "Cfg::LIMIT = \"s\"\n"),
    ]);
    let ty = type_at(dir.path(), "lib/a.rb:3:15");
    assert!(ty.contains("10") && (ty.contains("String") || ty.contains("untyped")), "{ty}");
    let alone = project(&[("lib/a.rb", "class Cfg\n  LIMIT = 10\n  def limit = LIMIT\nend\n")]);
    assert_eq!(type_at(alone.path(), "lib/a.rb:3:15"), "10");
}

/// `C.send(:include, M)` mixes M in as `C.include(M)` would: the ivars M's
/// methods write reach C's objects, so what C's own writes say of `@x` no
/// longer covers it (Ruby gives "z" here).
#[test]
fn a_module_mixed_in_through_send_writes_the_class_ivars() {
    let source = "class Guarded\n  def set!\n    @x = 1\n  end\n\n  def m\n    return 0 unless @x\n\n    hook\n    @x\n  end\nend\n\nmodule Hook\n  def hook\n    @x = \"z\"\n  end\nend\n\nGuarded.send(:include, Hook)\n";
    let dir = project(&[("lib/guarded.rb", source)]);
    let type_at = |position: &str| {
        json(&rigor(dir.path(), &["type-of", "--format=json", position], None))["type"].as_str().unwrap().to_string()
    };
    assert_eq!(type_at("lib/guarded.rb:10:5"), "untyped");
    std::fs::write(dir.path().join("lib/guarded.rb"), source.replace("Guarded.send(:include, Hook)\n", "")).unwrap();
    assert_eq!(type_at("lib/guarded.rb:10:5"), "1", "without the mixin, only its own write");
}

#[test]
fn an_object_made_without_initialize_in_another_file_may_lack_its_ivars() {
    // Ruby gives nil for `Box.allocate.size`, and for `Box.new.size` once
    // another file gives Box an `initialize` of its own.
    let box_rb = "class Box\n  def initialize\n    @size = 1\n  end\n\n  def size\n    @size\n  end\nend\n";
    for (other, what) in [
        ("Box.allocate\n", "allocate called on it"),
        ("class Crate < Box\nend\nCrate.allocate\n", "a subclass allocated"),
        ("class Box\n  def initialize; end\nend\n", "initialize defined again"),
        ("Box.class_eval { define_method(:initialize) {} }\n", "initialize given by define_method"),
        ("Box.send(:define_method, :initialize) {}\n", "initialize given through send"),
    ] {
        let dir = project(&[("lib/box.rb", box_rb), ("lib/other.rb", other)]);
        assert_eq!(type_at(dir.path(), "lib/box.rb:7:5"), "1?", "{what}");
    }
    let dir = project(&[("lib/box.rb", box_rb), ("lib/other.rb", "Box.new.size\n")]);
    assert_eq!(type_at(dir.path(), "lib/box.rb:7:5"), "1");
}

/// A file the exports change is inferred again, but from pass two on when
/// its pass one (which learns the ivar writes) read nothing that changed;
/// a file whose ivar writes read another file's method learns them anew.
#[test]
fn an_analysis_starts_after_pass_one_only_when_pass_one_read_nothing_the_exports_changed() {
    let dir = project(&[
        ("lib/other.rb", "class Other\n  def size = 3\nend\n"),
        (
            "lib/counter.rb",
            "class Counter\n  def initialize\n    @count = 0\n  end\n\n  def report = Other.new.size + @count\nend\n",
        ),
        (
            "lib/keeper.rb",
            "class Keeper\n  def initialize\n    @size = Other.new.size\n  end\n\n  def size = @size\nend\n",
        ),
    ]);
    let output = rigor(dir.path(), &["check", "--format", "json", "lib"], None);
    let cache = &json(&output)["stats"]["cache"];
    assert_eq!(cache["reinferred"], 2, "{cache}");
    assert_eq!(cache["pass_one_reused"], 1, "{cache}");
    // Counter's `initialize` and Keeper's `size` read nothing that changed;
    // Keeper's pass one learns `@size` anew (3, where the export pass had
    // `untyped`), so its `size` is inferred again all the same (below).
    assert_eq!(cache["defs_standing"], 2, "{cache}");
    // Counter's pass one (`@count = 0`) stands; Keeper's read Other#size.
    assert_eq!(type_at(dir.path(), "lib/counter.rb:6:26"), "3");
    assert_eq!(type_at(dir.path(), "lib/counter.rb:6:33"), "0");
    assert_eq!(type_at(dir.path(), "lib/keeper.rb:6:14"), "3");
}

/// Writes that reach a class's ivars from another file by routes that name
/// neither the class nor the ivar where they run: each checked against
/// the same project without the route (Ruby prints "str" with it).
#[test]
fn writes_through_unbound_module_methods_and_block_runners_reach_other_files_ivars() {
    let box_rb = "class Box\n  def initialize = (@v = 1)\n  def v = @v\nend\n";
    let routes = [
        // A module's method bound to a Box by define_method.
        (
            "module Setter\n  def set(x) = (@v = x)\nend\n",
            "Box.define_method(:set, Setter.instance_method(:set))\nBox.new.set(\"str\")\n",
        ),
        // A method named as a core one (Thread#run) that runs its block on
        // the object it is given.
        (
            "class Runner\n  def self.run(obj, &blk) = obj.instance_exec(&blk)\nend\n",
            "Runner.run(Box.new) { @v = \"str\" }\n",
        ),
    ];
    for (helper, use_it) in routes {
        let dir = project(&[("lib/box.rb", box_rb), ("lib/helper.rb", helper), ("lib/use.rb", use_it)]);
        assert_eq!(type_at(dir.path(), "lib/box.rb:3:11"), "untyped", "{helper}{use_it}");
        std::fs::write(dir.path().join("lib/use.rb"), "Box.new\n").unwrap();
        assert_eq!(type_at(dir.path(), "lib/box.rb:3:11"), "1", "without the route: {helper}");
    }
}

/// A literal array's rows as an iterating block gets them: taken apart,
/// each part is the literal's (widened); and a call that gives the array
/// back (`each`) gives it as the block left it (Ruby prints `[{}]`).
#[test]
fn a_literal_arrays_rows_reach_its_block_and_come_back_as_the_block_left_them() {
    let dir = project(&[(
        "lib/rows.rb",
        "[[1, \"a\"], [2, \"b\"]].each { |n, s| n }\n[[1, \"a\"], [2]].each { |n, s| s }\nx = [{ a: 1 }].each { |h| h.delete(:a) }\nx\n",
    )]);
    assert_eq!(type_at(dir.path(), "lib/rows.rb:1:36"), "Integer");
    assert_eq!(
        type_at(dir.path(), "lib/rows.rb:2:31"),
        "Integer | String | nil",
        "rows of two lengths: the element as any array"
    );
    assert_eq!(type_at(dir.path(), "lib/rows.rb:4:1"), "Array[untyped]");
}

/// Methods made under computed names replace what the class (or, made by
/// a class method its subclasses call, what a subclass) would answer:
/// Ruby prints `[true, "base", "dm", 2]`.
#[test]
fn methods_made_under_computed_names_are_not_the_defs_they_replace() {
    let dir = project(&[
        (
            "lib/base.rb",
            "class Base\n  def self.flag(n) = define_method(\"#{n}?\") { true }\n  def admin? = false\n  def name = \"base\"\nend\n",
        ),
        ("lib/sub.rb", "class Sub < Base\n  flag :admin\nend\n"),
        (
            "lib/use.rb",
            "r = Sub.new.admin?\ns = Sub.new.name\nclass A\n  def a = 1\n  def b = 2\n  [:a].each { |n| define_method(n) { \"dm\" } }\nend\nt = A.new.a\nu = A.new.b\n",
        ),
    ]);
    assert_eq!(type_at(dir.path(), "lib/use.rb:1:1"), "untyped", "Sub#admin? is flag's block");
    assert_eq!(type_at(dir.path(), "lib/use.rb:2:1"), "\"base\"", "no `?`: not one flag makes");
    assert_eq!(type_at(dir.path(), "lib/use.rb:8:1"), "untyped", "A#a is define_method's");
    assert_eq!(type_at(dir.path(), "lib/use.rb:9:1"), "2", "the list names only `a`");
    // A local spelled once from an interpolation gives its pattern.
    std::fs::write(
        dir.path().join("lib/scan.rb"),
        "class Scan\n  def self.add(t)\n    m = \"scan_#{t}\".to_sym\n    define_method(m) { 1 }\n  end\n  def scan_x = \"s\"\n  def other = 2\nend\nx = Scan.new.scan_x\ny = Scan.new.other\n",
    )
    .unwrap();
    assert_eq!(type_at(dir.path(), "lib/scan.rb:9:1"), "untyped", "scan_x may be add's");
    assert_eq!(type_at(dir.path(), "lib/scan.rb:10:1"), "2", "no scan_ prefix");
    // A class apart from Base keeps its own.
    std::fs::write(dir.path().join("lib/other.rb"), "class Other\n  def admin? = false\nend\nx = Other.new.admin?\n")
        .unwrap();
    assert_eq!(type_at(dir.path(), "lib/other.rb:4:1"), "false");
}

/// A `def` in a string evaluated on a class replaces its method: Ruby
/// prints `["str", 2, "str"]`.
#[test]
fn defs_in_evaluated_strings_replace_the_class_methods() {
    let dir = project(&[
        (
            "lib/a.rb",
            "class A\n  def v = 1\n  def w = 2\n  module_eval \"def v = 'str'\"\nend\nclass B\n  def v = 1\nend\n",
        ),
        ("lib/b.rb", "B.class_eval \"def v = 'str'\"\nx = A.new.v\ny = A.new.w\nz = B.new.v\n"),
    ]);
    assert_eq!(type_at(dir.path(), "lib/b.rb:2:1"), "untyped");
    assert_eq!(type_at(dir.path(), "lib/b.rb:3:1"), "2", "the string defines only v");
    assert_eq!(type_at(dir.path(), "lib/b.rb:4:1"), "1 | untyped", "B#v, or the string's");
}

/// A string that defines methods under interpolated names (`"def
/// on_#{t}(node)"`) replaces only the names of that shape.
#[test]
fn defs_spelled_by_interpolation_in_evaluated_strings_cover_their_shape() {
    let dir = project(&[(
        "lib/c.rb",
        "class C\n  def on_send = 1\n  def other = 2\n  %w[send].each { |t| class_eval(\"def on_#{t}; :made; end\") }\nend\nx = C.new.on_send\ny = C.new.other\n",
    )]);
    assert_eq!(type_at(dir.path(), "lib/c.rb:6:1"), "untyped");
    assert_eq!(type_at(dir.path(), "lib/c.rb:7:1"), "2");
}

/// `undef`, `undef_method` and `remove_method` take the body written in
/// the class away: `method_missing` answers instead, or the superclass's
/// body. Ruby prints `"mm"`, `"mm"`, `"s"`, `2`.
#[test]
fn undefined_and_removed_methods_lose_the_old_body() {
    let dir = project(&[
        (
            "lib/a.rb",
            "class A\n  def v = 1\n  def w = 1\n  def method_missing(*) = \"mm\"\n  undef v\nend\n\
             class P\n  def v = \"s\"\nend\nclass C < P\n  def v = 1\n  def w = 2\nend\n",
        ),
        (
            "lib/b.rb",
            "class A\n  undef_method :w\nend\n\
             class C\n  remove_method \"v\"\nend\na = A.new.v\nb = A.new.w\nc = C.new.v\nd = C.new.w\n",
        ),
    ]);
    assert_eq!(type_at(dir.path(), "lib/b.rb:7:1"), "untyped", "undef v");
    assert_eq!(type_at(dir.path(), "lib/b.rb:8:1"), "untyped", "undef_method :w in another file");
    assert_eq!(type_at(dir.path(), "lib/b.rb:9:1"), "untyped", "remove_method shows P#v");
    assert_eq!(type_at(dir.path(), "lib/b.rb:10:1"), "2", "C#w stays");
}

/// A module's instance method that makes methods under computed names
/// makes them for the classes that extend it: directly (`extend Maker`,
/// then a subclass calls `flag :admin`), or through an included module's
/// `included` hook (`base.extend(ClassMethods)`). Ruby prints `"str"`
/// and `"x"`; a class that extends neither keeps its own.
#[test]
fn methods_made_by_a_modules_instance_methods_reach_its_extenders() {
    let dir = project(&[
        (
            "lib/maker.rb",
            "module Maker\n  def flag(n) = define_method(\"#{n}?\") { \"str\" }\nend\n\
             module Concern\n  def self.included(base)\n    base.extend(ClassMethods)\n  end\n  \
             module ClassMethods\n    def field(n) = attr_accessor(n)\n  end\nend\n",
        ),
        (
            "lib/use.rb",
            "class Base\n  extend Maker\n  def admin? = false\nend\nclass Sub < Base\n  flag :admin\nend\n\
             class Rec\n  include Concern\n  def name = 1\n  field :name\nend\nclass Plain\n  def name = 1\nend\n\
             r = Rec.new\nr.name = \"x\"\na = Sub.new.admin?\nb = r.name\nc = Plain.new.name\n",
        ),
    ]);
    assert_eq!(type_at(dir.path(), "lib/use.rb:18:1"), "untyped", "Maker#flag made Sub#admin?");
    assert_eq!(type_at(dir.path(), "lib/use.rb:19:1"), "untyped", "ClassMethods#field made Rec#name");
    assert_eq!(type_at(dir.path(), "lib/use.rb:20:1"), "1");
}

/// A literal array given back by `each` after a block passed as an object
/// (`&:chomp!`, a lambda) had its elements: as the block left them. Ruby
/// prints `["a"]`, `[[]]`; a block that cannot change them keeps the literal.
#[test]
fn a_literal_given_back_after_a_block_object_had_its_elements_is_as_the_block_left_it() {
    let dir = project(&[(
        "lib/rows.rb",
        "x = [\"a\\n\"].each(&:chomp!)\ny = [[1]].each(&->(r) { r.pop })\nz = [1, 2].each(&:to_s)\nx\ny\nz\n",
    )]);
    assert_eq!(type_at(dir.path(), "lib/rows.rb:4:1"), "Array[untyped]");
    assert_eq!(type_at(dir.path(), "lib/rows.rb:5:1"), "Array[untyped]");
    assert_eq!(type_at(dir.path(), "lib/rows.rb:6:1"), "[1, 2]");
}

/// A module mixed in again stays where it was (Ruby skips it), in the
/// project's classes as in a file's own (see the inference table): Ruby
/// prints `["b", "e"]`.
#[test]
fn a_module_mixed_in_again_keeps_its_place() {
    let dir = project(&[
        (
            "lib/mixins.rb",
            "module A\n  def v = 1\nend\nmodule B\n  def v = \"b\"\nend\n\
             module E\n  def e = 1\nend\nmodule F\n  def e = \"e\"\nend\n",
        ),
        ("lib/c.rb", "class C\n  include A\n  include B\n  include A\n  extend E\n  extend F\n  extend E\nend\n"),
        ("lib/use.rb", "x = C.new.v\nz = C.e\n"),
    ]);
    // Ruby prints "b": the second `include A` is skipped, C's ancestors
    // are C, B, A. (What a call on a `B` may return has `A#v` join in, as
    // a class below `B` that includes `A` again would run it; no class
    // below `C` does, so a call on a `C` runs `B#v` alone.)
    assert_eq!(type_at(dir.path(), "lib/use.rb:1:1"), "\"b\"");
    assert_eq!(type_at(dir.path(), "lib/use.rb:2:1"), "\"e\"");
}

/// A module a superclass in another file already includes is not mixed in
/// again below it: Ruby prints `["a", 2]` (B's ancestors are B, A, M).
#[test]
fn a_module_the_superclass_has_is_not_mixed_in_again() {
    let dir = project(&[
        ("lib/m.rb", "module M\n  def v = 1\n  X = 1\nend\n"),
        ("lib/a.rb", "class A\n  include M\n  def v = \"a\"\n  X = 2\nend\n"),
        ("lib/b.rb", "class B < A\n  include M\nend\n"),
        ("lib/use.rb", "x = B.new.v\ny = B::X\n"),
    ]);
    assert_eq!(type_at(dir.path(), "lib/use.rb:1:1"), "\"a\"");
    assert_eq!(type_at(dir.path(), "lib/use.rb:2:1"), "2");
}

/// An `initialize` that ends by calling a hook (`setup`) assigns what the
/// hook a subclass defines assigns, for that subclass's objects: Ruby runs
/// `Button#setup` before anything can call `on_click`. A class below whose
/// hook assigns something else leaves the ivar possibly nil for its own
/// objects (Ruby: `Quiet.new.on_click` raises NoMethodError on nil).
#[test]
fn an_inherited_initialize_runs_the_subclass_hook_first() {
    let base = (
        "lib/component.rb",
        "class Component\n  def initialize(name)\n    @name = name\n    setup\n  end\n  def setup; end\nend\n",
    );
    let button = (
        "lib/button.rb",
        "class Button < Component\n  def setup\n    @handlers = []\n  end\n  def on_click = @handlers\nend\n",
    );
    let dir = project(&[base, button]);
    assert_eq!(type_at(dir.path(), "lib/button.rb:5:18"), "Array[untyped]");
    let output = rigor(dir.path(), &["check", "--format", "json", "lib"], None);
    assert_eq!(json(&output)["diagnostics"].as_array().map(Vec::len), Some(0), "{output:?}");
    let quiet = ("lib/quiet.rb", "class Quiet < Button\n  def setup\n    @other = 1\n  end\nend\n");
    let dir = project(&[base, button, quiet]);
    assert_eq!(type_at(dir.path(), "lib/button.rb:5:18"), "Array[untyped]?");
}

/// A class method that makes methods under a name it is given (a
/// decorator: `memoize :value`, a `method_added` hook) makes them on the
/// subclass that calls it, over the subclass's own `def`: Ruby prints
/// `["memo:1", :wrapped, 2]`.
#[test]
fn a_superclass_method_that_redefines_methods_reaches_the_subclass() {
    let dir = project(&[
        (
            "lib/base.rb",
            "class Base\n  def self.memoize(name)\n    orig = instance_method(name)\n    \
             define_method(name) { |*a| \"memo:#{orig.bind(self).call(*a)}\" }\n  end\nend\n\
             class Hooked\n  def self.method_added(name)\n    return if @wrapping || name != :value\n    \
             @wrapping = true\n    define_method(name) { :wrapped }\n    @wrapping = false\n  end\nend\n",
        ),
        (
            "lib/calc.rb",
            "class Calc < Base\n  def value = 1\n  memoize :value\nend\nclass Watched < Hooked\n  def value = 1\nend\n\
             class Plain\n  def value = 2\nend\n",
        ),
        ("lib/use.rb", "a = Calc.new.value\nb = Watched.new.value\nc = Plain.new.value\n"),
    ]);
    assert_eq!(type_at(dir.path(), "lib/use.rb:1:1"), "untyped");
    assert_eq!(type_at(dir.path(), "lib/use.rb:2:1"), "untyped");
    assert_eq!(type_at(dir.path(), "lib/use.rb:3:1"), "2");
}

/// A top-level `def` in one file is Object's method for every object in
/// the others, ahead of Kernel's: Ruby prints `[:custom_format, "not
/// random"]`.
#[test]
fn a_top_level_def_in_another_file_replaces_kernels() {
    let dir = project(&[
        ("lib/a.rb", "def format(*a) = :custom_format\ndef rand(*a) = \"not random\"\n"),
        ("lib/b.rb", "class Use\n  def go = [format(\"%d\", 1), rand(10)]\nend\nx = format(\"%d\", 1)\n"),
    ]);
    assert_eq!(type_at(dir.path(), "lib/b.rb:4:1"), "untyped");
    assert_eq!(type_at(dir.path(), "lib/b.rb:2:12"), "[untyped, untyped]");
}

/// `eval` given code as a string writes the ivars it spells, on whatever
/// `self` (or binding) it runs with: Ruby prints `:evaled`.
#[test]
fn an_ivar_written_by_eval_in_another_file_is_not_unset() {
    let dir = project(&[
        ("lib/a.rb", "class Box\n  def peek = @ns\nend\nx = Box.new.peek\n"),
        ("lib/b.rb", "class Box\n  def load! = eval(\"@ns = :evaled\")\nend\n"),
    ]);
    assert_eq!(type_at(dir.path(), "lib/a.rb:4:1"), "untyped");
}

/// Code of unknown text evaluated on `TOPLEVEL_BINDING` writes `main`'s
/// ivars, no class's; on some other binding, any object's.
#[test]
fn eval_writes_the_ivars_of_its_bindings_self() {
    let box_class = ("lib/a.rb", "class Box\n  def initialize = @n = 1\n  def n = @n\nend\nx = Box.new.n\n");
    let top = project(&[box_class, ("lib/b.rb", "def run(code) = eval(code, TOPLEVEL_BINDING)\n")]);
    assert_eq!(type_at(top.path(), "lib/a.rb:5:1"), "1");
    let other = project(&[box_class, ("lib/b.rb", "def run(code, b) = eval(code, b)\n")]);
    assert_eq!(type_at(other.path(), "lib/a.rb:5:1"), "untyped");
}

/// Names computed at run time given to a class from another file, by a
/// receiver that names it, a `class_eval` block on it, or a receiver no
/// name shows with a name partly spelled: Ruby 3.1 prints `Integer`,
/// `Float`, `Symbol` (Base's `val` once Foo's is removed), `Integer`,
/// `Integer` and `Integer` for each `Foo.new.val`, and `1` for
/// `"abc".upcase` after `String.define_method(n)`.
#[test]
fn methods_made_under_computed_names_in_another_file_answer_for_the_class() {
    let a = (
        "lib/a.rb",
        "class Base0\n  def val = :base\nend\nclass Foo < Base0\n  def val = \"str\"\n  def other = 1.5\nend\nclass Other\n  def val = :other\nend\n",
    );
    let used = ("lib/use.rb", "x = Foo.new.val\ny = Other.new.val\nd = \"abc\".upcase\ne = 1 + 2\n");
    let made = [
        "%i[val].each { |n| Foo.define_method(n) { 1 } }\n",
        "n = :val\nFoo.alias_method(n, :other)\n",
        "n = \"val\"\nFoo.send(:remove_method, n)\n",
        "n = :val\nFoo.class_eval { define_method(n) { 1 } }\n",
        "def redefine(k, n) = k.send(:define_method, \"v#{n}\") { 1 }\nredefine(Foo, :al)\n",
        "Foo.class_eval(ARGV.first || \"def val = 1\")\n",
    ];
    for b in made {
        let dir = project(&[a, used, ("lib/b.rb", b)]);
        let x = type_at(dir.path(), "lib/use.rb:1:1");
        assert!(x == "untyped" || x.contains("untyped"), "{b}: Foo.new.val is {x}");
    }
    // Only the class named (and those below it) gets them; a name nobody
    // spells on a class nobody names stays a hole README owns.
    let dir = project(&[a, used, ("lib/b.rb", "n = :val\nFoo.define_method(n) { 1 }\n")]);
    assert_eq!(type_at(dir.path(), "lib/use.rb:2:1"), ":other");
    let dir = project(&[a, used, ("lib/b.rb", "n = :upcase\nString.define_method(n) { 1 }\n")]);
    assert_eq!(type_at(dir.path(), "lib/use.rb:3:1"), "untyped");
}

/// `class C < P` in `module N` names `::P` when `N::P` is opened only
/// further down the file; when another file opens `N::P` it may have
/// loaded first, and `N::P` stays the answer (as it does from one file).
#[test]
fn a_superclass_is_not_a_class_the_file_opens_only_further_down() {
    let top = "class P\n  def initialize\n    show\n  end\nend\n\n";
    let sub = "module N\n  class C < P\n    def initialize\n      super\n      @v = \"s\"\n    end\n\n    def show = @v\n  end\nend\n";
    let later = "\nmodule N\n  class P\n    def initialize; end\n  end\nend\n";
    // Line 14 of a.rb: `def show = @v`; the ivar read at column 16.
    let at = "lib/a.rb:14:16";
    let alone = project(&[("lib/a.rb", &format!("{top}{sub}{later}"))]);
    assert_eq!(type_at(alone.path(), at), "String?", "`::P#initialize` calls `show` before `@v` is set");
    let elsewhere = project(&[("lib/a.rb", &format!("{top}{sub}")), ("lib/b.rb", later)]);
    assert_eq!(type_at(elsewhere.path(), at), "String", "another file's `N::P` may load first");
    // (Another file's part has no `initialize` of its own: two would make
    // neither certain to run.)
    let opened = "module N\n  class P\n  end\nend\n";
    let both = project(&[("lib/a.rb", &format!("{top}{sub}{later}")), ("lib/b.rb", opened)]);
    assert_eq!(type_at(both.path(), at), "String", "reopened here, but another file opens it too");
}

/// A module's instance method that writes `@x`, extended into a class by
/// another file, writes the class object's own `@x` when called on it: the
/// class's singleton method, in a third file, does not read nil alone
/// (Ruby gives 3).
#[test]
fn a_class_ivar_written_by_a_module_extended_in_another_file_is_not_nil() {
    let writer = ("lib/w.rb", "module W\n  def setup_x\n    @x = 3\n  end\nend\n");
    let reader = ("lib/c2.rb", "class C\n  def self.r = @x\nend\n");
    let dir = project(&[writer, ("lib/c1.rb", "class C\n  extend W\n  setup_x\nend\n"), reader]);
    assert_eq!(type_at(dir.path(), "lib/c2.rb:2:16"), "3?");
    // Extended with a module that does not write it: nil, as Ruby reads it.
    let dir = project(&[writer, ("lib/c1.rb", "class C\n  extend Comparable\nend\n"), reader]);
    assert_eq!(type_at(dir.path(), "lib/c2.rb:2:16"), "nil");
}

/// A parent's `initialize` (in another file) that calls methods of its own
/// before the subclass's assignments after `super`: the subclass's ivar
/// counts as set when none of those methods, nor what they call, reads
/// it, as it does when both classes are in one file. It does not when the
/// subclass overrides one of them, or one reads it (Ruby prints nil).
#[test]
fn a_parents_own_calls_in_another_file_are_judged_by_what_they_read() {
    let base = |validate: &str| {
        format!(
            "class Base\n  def initialize(opts)\n    validate(opts)\n    @opts = opts\n  end\n\n  def validate(opts)\n    {validate}\n  end\n\n  def check = @seen\nend\n"
        )
    };
    let child = |extra: &str| {
        format!("class Child < Base\n  def initialize(opts)\n    super\n    @items = []\n  end\n{extra}\n  def count = @items.size\nend\n")
    };
    // `def count = @items.size` is the last line but one; the ivar at column 15.
    let at = |source: &str| format!("lib/child.rb:{}:15", source.lines().count() - 1);
    let quiet = base("raise ArgumentError unless opts.is_a?(Hash)");
    let plain = child("");
    let dir = project(&[("lib/base.rb", &quiet), ("lib/child.rb", &plain)]);
    assert_eq!(type_at(dir.path(), &at(&plain)), "Array[untyped]");
    // The parent's own `@opts`, assigned after the call, is set too.
    let reader = child("\n  def opts = @opts\n");
    let dir = project(&[("lib/base.rb", &quiet), ("lib/child.rb", &reader)]);
    assert_eq!(type_at(dir.path(), "lib/child.rb:7:14"), "untyped");
    // The subclass overrides what the parent calls, and reads it there.
    let overrides = child("\n  def validate(opts) = p(@items)\n");
    let dir = project(&[("lib/base.rb", &quiet), ("lib/child.rb", &overrides)]);
    assert_eq!(type_at(dir.path(), &at(&overrides)), "Array[untyped]?");
    // What the parent calls calls on, and reads it.
    let reads = base("check\n    p @items");
    let dir = project(&[("lib/base.rb", &reads), ("lib/child.rb", &plain)]);
    assert_eq!(type_at(dir.path(), &at(&plain)), "Array[untyped]?");
}

/// `S.const_set(:KIND, v)` where another file assigns `S = Sub` sets
/// `Sub::KIND` (Ruby prints "five"): the name counts as set anywhere.
#[test]
fn a_constant_set_through_an_alias_another_file_assigns_is_not_as_written() {
    let files = |alias: &str| {
        project(&[
            ("lib/sub.rb", "class Sub\n  KIND = 1\nend\n"),
            ("lib/alias.rb", alias),
            ("lib/set.rb", "S.const_set(:KIND, \"five\")\n"),
            ("lib/use.rb", "v = Sub::KIND\n"),
        ])
    };
    assert_eq!(type_at(files("S = Sub\n").path(), "lib/use.rb:1:1"), "1 | untyped");
    // `S` a module of its own: `S::KIND` is its constant, not `Sub`'s.
    assert_eq!(type_at(files("module S\nend\n").path(), "lib/use.rb:1:1"), "1");
}

#[test]
fn an_alias_keyword_in_a_block_run_on_a_class_gives_its_method_another_body() {
    // Ruby 3.1 prints String for each `use`: the block's `alias` runs on
    // the class (or object) the block is evaluated on, not where it is
    // written.
    let dir = project(&[
        ("lib/box.rb", "class Box\n  def m = 1\n  def n = \"s\"\n  def use\n    m\n  end\nend\n"),
        ("lib/patch.rb", "Box.class_exec { alias m n }\n"),
        ("lib/base.rb", "class Base\n  def go\n    val\n  end\n  def val = 1\nend\n"),
        ("lib/one.rb", "O = Base.new.tap { |o| o.singleton_class.class_eval { alias val to_s } }\n"),
        // Outside any block the alias is the class's own, as written.
        ("lib/plain.rb", "class Plain\n  def j = \"s\"\n  alias k j\n  def use\n    k\n  end\nend\n"),
    ]);
    assert_eq!(type_at(dir.path(), "lib/box.rb:5:5"), "1 | untyped");
    assert_eq!(type_at(dir.path(), "lib/base.rb:3:5"), "1 | untyped");
    assert_eq!(type_at(dir.path(), "lib/plain.rb:5:5"), "\"s\"");
}

#[test]
fn a_method_taken_away_from_outside_its_class_loses_its_body() {
    // Ruby 3.1 runs `Object#m` (or `method_missing`) once the class's own
    // `m` is removed or undefined from another file: each `use` gives "s".
    let body = "  def m = 1\n  def use\n    m\n  end\n";
    let classes: String = ["A", "B", "C", "D", "E"].iter().map(|c| format!("class {c}\n{body}end\n")).collect();
    let dir = project(&[
        ("lib/classes.rb", &classes),
        ("lib/object.rb", "class Object\n  def m = \"s\"\n  def method_missing(*) = \"s\"\nend\n"),
        ("lib/remove.rb", "A.remove_method(:m)\nB.undef_method(:m)\n"),
        (
            "lib/blocks.rb",
            "C.class_eval { undef m }\nD.class_eval { remove_method :m }\nE.instance_eval { undef_method :m }\n",
        ),
        ("lib/core.rb", "String.class_eval { undef size }\nn = \"ab\".size\n"),
    ]);
    for class in 0..5 {
        let line = class * 6 + 4;
        assert_eq!(type_at(dir.path(), &format!("lib/classes.rb:{line}:5")), "1 | untyped", "class {class}");
    }
    assert_eq!(type_at(dir.path(), "lib/core.rb:2:1"), "untyped");
}

#[test]
fn a_hook_given_a_body_from_another_file_may_read_ivars_before_initialize_sets_them() {
    // `initialize` runs `hook` before `@x` is set, and the body another
    // file gives it (a block that writes an ivar of its own) reads `@x`:
    // Ruby 3.1 leaves `@seen` nil.
    let dir = project(&[
        ("lib/base.rb", "class Base\n  def initialize\n    hook\n    @x = 1\n  end\n\n  def x\n    @x\n  end\n\n  def hook = nil\nend\n"),
        ("lib/patch.rb", "Base.define_method(:hook) { @seen = x }\n"),
    ]);
    assert_eq!(type_at(dir.path(), "lib/base.rb:8:5"), "1?");
}

#[test]
fn a_broken_signature_file_is_named_from_the_root_with_where_the_parser_stopped() {
    let dir = project(&[("lib/a.rb", "class A\n  def x = 1\nend\n"), ("sig/a.rbs", "class A\n  def x: () -> \nend\n")]);
    let output = rigor(dir.path(), &["check", "lib"], None);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("sig/a.rbs: RBS syntax error at line 3, column 1: "), "{stderr}");
    let root = dir.path().to_string_lossy();
    assert!(!stderr.contains(&*root), "{stderr}");
}
