//! `rigor sig-gen` as a user runs it: classifications for a table of Ruby
//! classes, the text and JSON shapes, `--write`, `--overwrite`, `--diff`
//! and `--params observed`. Every RBS the command prints or writes is
//! parsed again with the RBS parser.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

mod support;
use support::project;

fn rigor(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rigor")).args(args).current_dir(cwd).output().expect("rigor runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn assert_parses_as_rbs(text: &str) {
    if let Err(error) = ruby_rbs::node::parse(text) {
        panic!("not valid RBS ({error}):\n{text}");
    }
}

/// `sig-gen` over `lib` with extra flags: the JSON candidates, after
/// checking that the text output of the same run parses as RBS.
fn candidates(dir: &Path, extra: &[&str]) -> Vec<Value> {
    let mut text_args = vec!["sig-gen"];
    text_args.extend_from_slice(extra);
    text_args.push("lib");
    let text = rigor(dir, &text_args);
    assert_eq!(text.status.code(), Some(0), "{text:?}");
    assert_parses_as_rbs(&stdout(&text));
    let mut json_args = vec!["sig-gen", "--format=json"];
    json_args.extend_from_slice(extra);
    json_args.push("lib");
    let output = rigor(dir, &json_args);
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|_| panic!("{output:?}"));
    let list = report["candidates"].as_array().expect("candidates").clone();
    for candidate in &list {
        if let Some(rbs) = candidate["rbs"].as_str() {
            assert_parses_as_rbs(&format!("class Probe\n  {rbs}\nend\n"));
        }
    }
    list
}

/// (class, method, classification, rbs or skip reason) of each candidate.
fn summary(list: &[Value]) -> Vec<(String, String, String, String)> {
    list.iter()
        .map(|c| {
            let detail = c["rbs"].as_str().or(c["skip_reason"].as_str()).unwrap_or("").to_string();
            (
                c["class"].as_str().unwrap().to_string(),
                c["method"].as_str().unwrap().to_string(),
                c["classification"].as_str().unwrap().to_string(),
                detail,
            )
        })
        .collect()
}

type Expected<'a> = &'a [(&'a str, &'a str, &'a str, &'a str)];

/// Runs a table of (ruby, signatures, expected); reports every mismatch.
fn table(cases: &[(&str, Option<&str>, Expected<'_>)], extra: &[&str]) {
    let mut wrong = Vec::new();
    for (ruby, signatures, expected) in cases {
        let mut files = vec![("lib/code.rb", *ruby)];
        if let Some(rbs) = signatures {
            files.push(("sig/code.rbs", rbs));
        }
        let dir = project(&files);
        let got = summary(&candidates(dir.path(), extra));
        let expected: Vec<(String, String, String, String)> =
            expected.iter().map(|(a, b, c, d)| (a.to_string(), b.to_string(), c.to_string(), d.to_string())).collect();
        if got != expected {
            wrong.push(format!("{ruby}\n  expected {expected:?}\n  got      {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

#[test]
fn classifications_follow_the_reference_rules() {
    table(
        &[
            // Class unknown to the signatures: new_file.
            (
                "class Greeter\n  def hello = \"hi\"\nend\n",
                None,
                &[("Greeter", "hello", "new_file", "def hello: () -> \"hi\"")],
            ),
            // Class known, method not: new_method.
            (
                "class Greeter\n  def hello = \"hi\"\nend\n",
                Some("class Greeter\n  def other: () -> Integer\nend\n"),
                &[("Greeter", "hello", "new_method", "def hello: () -> \"hi\"")],
            ),
            // Declared return strictly wider: tighter_return.
            (
                "class Greeter\n  def hello = \"hi\"\nend\n",
                Some("class Greeter\n  def hello: () -> Object\nend\n"),
                &[("Greeter", "hello", "tighter_return", "def hello: () -> \"hi\"")],
            ),
            // Same type, or a computed literal against its class: equivalent, dropped.
            (
                "class Greeter\n  def hello = \"hi\"\nend\n",
                Some("class Greeter\n  def hello: () -> \"hi\"\nend\n"),
                &[],
            ),
            ("class Sum\n  def two = 1 + 1\nend\n", Some("class Sum\n  def two: () -> Integer\nend\n"), &[]),
            // Lost a declared member (nil): equivalent, not tighter.
            ("class Box\n  def v = 1\nend\n", Some("class Box\n  def v: () -> Integer?\nend\n"), &[]),
            // Unknown return: skipped.
            ("class Echo\n  def id(x) = x\nend\n", None, &[("Echo", "id", "skipped", "sig.skipped.untyped-return")]),
        ],
        &[],
    );
}

#[test]
fn parameters_other_than_required_positionals_are_complex_shapes() {
    let shapes = ["a = 1", "*rest", "k:", "k: 1", "**opts", "&blk", "...", "a, *r, b", "**nil"];
    for shape in shapes {
        let ruby = format!("class Shapes\n  def m({shape}) = 1\nend\n");
        let dir = project(&[("lib/code.rb", &ruby)]);
        let got = summary(&candidates(dir.path(), &[]));
        assert_eq!(
            got,
            [("Shapes".into(), "m".into(), "skipped".into(), "sig.skipped.complex-shape".into())],
            "{shape}"
        );
    }
    // Destructuring is still one required positional.
    table(&[("class D\n  def m((a, b)) = 1\nend\n", None, &[("D", "m", "new_file", "def m: (untyped) -> 1")])], &[]);
}

#[test]
fn initialize_is_void_and_keeps_every_parameter() {
    table(
        &[(
            "class Conn\n  private\n\n  def initialize(host, port = 80, *rest, tls:, timeout: 5, **opts, &blk)\n    @host = host\n  end\nend\n",
            None,
            &[(
                "Conn",
                "initialize",
                "new_file",
                "def initialize: (untyped, ?untyped, *untyped, tls: untyped, ?timeout: untyped, **untyped) ?{ (*untyped) -> untyped } -> void",
            )],
        )],
        &[],
    );
    // `...` is spelt out: RBS before 3.0 has no `(?)`.
    table(
        &[(
            "class Wrap\n  def initialize(...)\n    super(...)\n  end\nend\n",
            None,
            &[(
                "Wrap",
                "initialize",
                "new_file",
                "def initialize: (*untyped, **untyped) ?{ (*untyped) -> untyped } -> void",
            )],
        )],
        &[],
    );
}

#[test]
fn kinds_visibility_and_odd_names() {
    let ruby = "module Util\n  module_function\n  def twice = 2\nend\nclass Shape\n  def self.unit = new\n  def ok? = true\n  def []=(k, v)\n    nil\n  end\n  def +(other) = :sum\n  def quote = \"a\\\"b\\n\"\n  private\n  def secret = 42\n  public def open = 1\nend\n";
    let expected: Expected<'_> = &[
        ("Util", "twice", "new_file", "def self?.twice: () -> 2"),
        ("Shape", "unit", "new_file", "def self.unit: () -> Shape"),
        ("Shape", "ok?", "new_file", "def ok?: () -> true"),
        ("Shape", "[]=", "new_file", "def []=: (untyped, untyped) -> nil"),
        ("Shape", "+", "new_file", "def +: (untyped) -> :sum"),
        ("Shape", "quote", "new_file", "def quote: () -> \"a\\\"b\\n\""),
        ("Shape", "open", "new_file", "def open: () -> 1"),
    ];
    table(&[(ruby, None, expected)], &[]);
    let dir = project(&[("lib/code.rb", ruby)]);
    let with_private = summary(&candidates(dir.path(), &["--include-private"]));
    assert!(
        with_private.contains(&(
            "Shape".into(),
            "secret".into(),
            "new_file".into(),
            "private def secret: () -> 42".into()
        )),
        "{with_private:?}"
    );
    // Named visibility changes apply to earlier defs; a bare `private`
    // ends a `module_function` section.
    let named = "module Tools\n  module_function\n  def one = 1\n  private\n  def two = 2\nend\nclass Box\n  def a = 1\n  def b = 2\n  def self.c = 3\n  def d = 4\n  private :a\n  protected :b\n  private_class_method :c\n  module_function\nend\nmodule Named\n  def x = 1\n  module_function :x\nend\n";
    table(
        &[(
            named,
            None,
            &[
                ("Tools", "one", "new_file", "def self?.one: () -> 1"),
                ("Box", "d", "new_file", "def d: () -> 4"),
                ("Named", "x", "new_file", "def self?.x: () -> 1"),
            ],
        )],
        &[],
    );
    let list = candidates(dir.path(), &[]);
    assert_eq!(list[1]["kind"], "singleton");
    assert_eq!(list[0]["kind"], "instance");
    let keys: Vec<&String> = list[0].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["file", "class", "method", "kind", "classification", "rbs", "inferred_return"]);
}

#[test]
fn superclasses_and_namespaces_are_declared_or_the_class_is_skipped() {
    table(
        &[
            (
                "class Base\n  def a = 1\nend\nclass Child < Base\n  def b = 2\nend\n",
                None,
                &[("Base", "a", "new_file", "def a: () -> 1"), ("Child", "b", "new_file", "def b: () -> 2")],
            ),
            (
                "class Model < ActiveRecord::Base\n  def x = 1\nend\n",
                None,
                &[("Model", "x", "skipped", "sig.skipped.unresolvable-superclass")],
            ),
            (
                "class Point < Struct.new(:x)\n  def y = 1\nend\n",
                None,
                &[("Point", "y", "skipped", "sig.skipped.unresolvable-superclass")],
            ),
            // A return naming a class nothing declares: skipped.
            (
                "class Helper\n  def h(x) = x\nend\nclass User\n  def helper = Helper.new\nend\n",
                None,
                &[
                    ("Helper", "h", "skipped", "sig.skipped.untyped-return"),
                    ("User", "helper", "skipped", "sig.skipped.undeclared-type"),
                ],
            ),
        ],
        &[],
    );
    let dir = project(&[(
        "lib/code.rb",
        "module Shop\n  class Cart < Array\n    def total = 0\n  end\nend\nclass Array\n  def second = 2\nend\n",
    )]);
    let text = stdout(&rigor(dir.path(), &["sig-gen", "lib"]));
    assert!(
        text.contains("module Shop\n  class Cart < Array[untyped]\n    # [new]\n    def total: () -> 0\n"),
        "{text}"
    );
    assert!(text.contains("class Array[unchecked out Elem]\n  # [new]\n  def second: () -> 2\nend\n"), "{text}");
    assert_parses_as_rbs(&text);
}

#[test]
fn text_output_groups_by_file_and_class_with_tags() {
    let dir = project(&[
        ("lib/a.rb", "class Clock\n  def now = 5\n  def label = \"x\"\n  def id(x) = x\nend\n"),
        ("lib/b.rb", "class Other\n  def one = 1\nend\n"),
        ("sig/clock.rbs", "class Clock\n  def now: () -> Integer\nend\n"),
    ]);
    let output = rigor(dir.path(), &["sig-gen", "lib"]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        stdout(&output),
        "# lib/a.rb\nclass Clock\n  # [tighter, was: Integer]\n  def now: () -> 5\n  # [new]\n  def label: () -> \"x\"\nend\n# skipped Clock#id (sig.skipped.untyped-return)\n\n# lib/b.rb\nclass Other\n  # [new]\n  def one: () -> 1\nend\n"
    );
    let empty = project(&[("lib/a.rb", "x = 1\n")]);
    assert_eq!(stdout(&rigor(empty.path(), &["sig-gen", "lib"])), "# No candidates\n");
}

#[test]
fn observed_parameters_are_the_union_of_argument_types() {
    let ruby = "class Calc\n  def add(a, b) = 1\n  def unseen(x) = 2\n  def mixed(x) = 3\nend\ncalc = Calc.new\ncalc.add(1, 2.5)\ncalc.add(3, nil)\ncalc.mixed(\"s\")\ncalc.mixed(unknown_value)\n";
    table(
        &[(
            ruby,
            None,
            &[
                ("Calc", "add", "new_file", "def add: (Integer, Float?) -> 1"),
                ("Calc", "unseen", "new_file", "def unseen: (untyped) -> 2"),
                ("Calc", "mixed", "new_file", "def mixed: (untyped) -> 3"),
            ],
        )],
        &["--params", "observed"],
    );
    table(
        &[(
            ruby,
            None,
            &[
                ("Calc", "add", "new_file", "def add: (untyped, untyped) -> 1"),
                ("Calc", "unseen", "new_file", "def unseen: (untyped) -> 2"),
                ("Calc", "mixed", "new_file", "def mixed: (untyped) -> 3"),
            ],
        )],
        &["--params=untyped"],
    );
    let constructed = "class Pt\n  def initialize(x, y = 0)\n    @x = x\n  end\nend\nPt.new(1)\nPt.new(2, :a)\n";
    table(
        &[(constructed, None, &[("Pt", "initialize", "new_file", "def initialize: (Integer, ?Symbol) -> void")])],
        &["--params=observed"],
    );
    // Calls the walk cannot tie to one method may pass anything: a splat
    // (URI::Generic.build's `new(*tmp)`), an unknown receiver (IPAddr's
    // `self.class.new(addr, family)`), `send`, `super`.
    let unseen = "class Pt\n  def initialize(x) = @x = x\n  def self.copy(args) = new(*args)\nend\nPt.new(1)\n\nclass Q\n  def a(x) = 1\n  def b(x) = 2\n  def c(x) = 3\nend\nQ.new.a(1)\nQ.new.b(1)\nQ.new.c(1)\nsomething.a(\"s\")\nQ.new.send(:b, :sym)\nclass R < Q\n  def c(x) = super(x.to_s)\nend\n";
    table(
        &[(
            unseen,
            None,
            &[
                ("Pt", "initialize", "new_file", "def initialize: (untyped) -> void"),
                ("Pt", "copy", "new_file", "def self.copy: (untyped) -> Pt"),
                ("Q", "a", "new_file", "def a: (untyped) -> 1"),
                ("Q", "b", "new_file", "def b: (untyped) -> 2"),
                ("Q", "c", "new_file", "def c: (untyped) -> 3"),
                ("R", "c", "new_file", "def c: (untyped) -> 3"),
            ],
        )],
        &["--params=observed"],
    );
    // Calls the walk sees but not as calls of this method (each checked
    // against Debian's ruby): through a subclass or an alias, Ruby's own
    // (`===` from `case`), a writer given its value by `+=` or multiple
    // assignment.
    let hidden = "class P\n  def m(x) = 1\n  def n(x) = 2\n  alias n2 n\n  def ===(x) = true\n  attr_reader :v\n  def v=(x)\n    3\n  end\nend\nclass K < P\nend\np = P.new\np.m(1)\nK.new.m(\"s\")\np.n(1)\np.n2(\"s\")\np === 1\ncase \"s\"\nwhen p then 1\nend\np.v = 1\np.v += 1.5\n";
    table(
        &[(
            hidden,
            None,
            &[
                ("P", "m", "new_file", "def m: (untyped) -> 1"),
                ("P", "n", "new_file", "def n: (untyped) -> 2"),
                ("P", "===", "new_file", "def ===: (untyped) -> true"),
                ("P", "v=", "new_file", "def v=: (untyped) -> 3"),
            ],
        )],
        &["--params=observed"],
    );
}

#[test]
fn write_creates_sig_files_that_mirror_the_source_path() {
    let dir = project(&[
        ("lib/shop/cart.rb", "module Shop\n  class Cart\n    def total = 0\n    def id(x) = x\n  end\nend\n"),
        ("lib/shop.rb", "module Shop\n  def self.version = \"1.0\"\nend\n"),
    ]);
    let output = rigor(dir.path(), &["sig-gen", "--write", "lib"]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert_eq!(stdout(&output), "created sig/shop.rbs (+1 method(s))\ncreated sig/shop/cart.rbs (+1 method(s))\n");
    let cart = std::fs::read_to_string(dir.path().join("sig/shop/cart.rbs")).unwrap();
    assert_eq!(cart, "class Shop::Cart\n  def total: () -> 0\nend\n");
    let shop = std::fs::read_to_string(dir.path().join("sig/shop.rbs")).unwrap();
    assert_eq!(shop, "module Shop\n  def self.version: () -> \"1.0\"\nend\n");
    assert_parses_as_rbs(&cart);
    // What was written is now known: nothing left to write.
    let again = rigor(dir.path(), &["sig-gen", "--write", "lib"]);
    assert_eq!(stdout(&again), "No changes\n");
    let left = summary(&candidates(dir.path(), &[]));
    assert_eq!(left, [("Shop::Cart".into(), "id".into(), "skipped".into(), "sig.skipped.untyped-return".into())]);
}

#[test]
fn write_adds_to_existing_files_and_never_replaces_authored_rbs_without_overwrite() {
    let authored =
        "# Written by hand.\nclass Clock\n  def now: () -> Integer\n\n  def zone: () -> Object # keep\nend\n";
    let dir = project(&[
        ("lib/clock.rb", "class Clock\n  def now = 5\n  def zone = \"UTC\"\n  def tick = :tick\nend\nclass Alarm\n  def ring = true\nend\n"),
        ("sig/clock.rbs", authored),
    ]);
    let output = rigor(dir.path(), &["sig-gen", "--write", "--format=json", "lib"]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let skipped: Vec<(&str, &str)> = report["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["skip_reason"] == "sig.skipped.user-authored")
        .map(|c| (c["method"].as_str().unwrap(), c["declared_return_rbs"].as_str().unwrap()))
        .collect();
    assert_eq!(skipped, [("now", "Integer"), ("zone", "Object")]);
    assert_eq!(report["files"][0]["action"], "update");
    let written = std::fs::read_to_string(dir.path().join("sig/clock.rbs")).unwrap();
    assert_eq!(
        written,
        "# Written by hand.\nclass Clock\n  def now: () -> Integer\n\n  def zone: () -> Object # keep\n  def tick: () -> :tick\nend\n\nclass Alarm\n  def ring: () -> true\nend\n"
    );

    let output = rigor(dir.path(), &["sig-gen", "--write", "--overwrite", "lib"]);
    assert_eq!(stdout(&output), "updated sig/clock.rbs (+0 method(s), 2 replaced)\n", "{output:?}");
    let replaced = std::fs::read_to_string(dir.path().join("sig/clock.rbs")).unwrap();
    assert_eq!(
        replaced,
        "# Written by hand.\nclass Clock\n  def now: () -> 5\n\n  def zone: () -> \"UTC\" # keep\n  def tick: () -> :tick\nend\n\nclass Alarm\n  def ring: () -> true\nend\n"
    );
}

#[test]
fn a_tighter_return_declared_outside_sig_is_never_replaced() {
    // Integer#to_s is declared by the core signatures: nothing to edit.
    let dir = project(&[("lib/ext.rb", "class Integer\n  def to_s = \"n\"\nend\n")]);
    let listed = summary(&candidates(dir.path(), &[]));
    assert_eq!(listed, [("Integer".into(), "to_s".into(), "tighter_return".into(), "def to_s: () -> \"n\"".into())]);
    let output = rigor(dir.path(), &["sig-gen", "--write", "--overwrite", "--format=json", "lib"]);
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["candidates"][0]["skip_reason"], "sig.skipped.user-authored");
    assert!(!dir.path().join("sig").exists(), "nothing written");
}

#[test]
fn diff_shows_what_write_would_do_and_writes_nothing() {
    let dir = project(&[
        ("lib/clock.rb", "class Clock\n  def now = 5\n  def tick = :tick\nend\n"),
        ("sig/clock.rbs", "class Clock\n  def now: () -> Integer\nend\n"),
    ]);
    let diff = rigor(dir.path(), &["sig-gen", "--diff", "lib"]);
    assert_eq!(diff.status.code(), Some(0));
    assert_eq!(
        stdout(&diff),
        "--- a/sig/clock.rbs\n+++ b/sig/clock.rbs\n@@ -1,3 +1,4 @@\n class Clock\n   def now: () -> Integer\n+  def tick: () -> :tick\n end\n"
    );
    let overwrite = stdout(&rigor(dir.path(), &["sig-gen", "--diff", "--overwrite", "lib"]));
    assert!(overwrite.contains("-  def now: () -> Integer\n+  def now: () -> 5\n"), "{overwrite}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("sig/clock.rbs")).unwrap(),
        "class Clock\n  def now: () -> Integer\nend\n"
    );
    let fresh = project(&[("lib/a.rb", "class A\n  def one = 1\nend\n")]);
    assert_eq!(
        stdout(&rigor(fresh.path(), &["sig-gen", "--diff", "lib"])),
        "--- /dev/null\n+++ b/sig/a.rbs\n@@ -0,0 +1,3 @@\n+class A\n+  def one: () -> 1\n+end\n"
    );
    assert!(!fresh.path().join("sig").exists());
}

#[test]
fn a_broken_sig_file_is_left_alone() {
    let dir =
        project(&[("lib/a.rb", "class A\n  def one = 1\nend\n"), ("sig/a.rbs", "class A\n  def broken: (\nend\n")]);
    let output = rigor(dir.path(), &["sig-gen", "--write", "lib"]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("sig/a.rbs"), "{output:?}");
    assert_eq!(std::fs::read_to_string(dir.path().join("sig/a.rbs")).unwrap(), "class A\n  def broken: (\nend\n");
}

#[test]
fn usage_errors_and_missing_paths() {
    let dir = project(&[("lib/a.rb", "class A\n  def one = 1\nend\n")]);
    let code = |args: &[&str]| rigor(dir.path(), args).status.code();
    assert_eq!(code(&["sig-gen", "--params", "observed-strict", "lib"]), Some(64));
    assert_eq!(code(&["sig-gen", "--print", "--write", "lib"]), Some(64));
    assert_eq!(code(&["sig-gen", "--diff", "--write", "lib"]), Some(64));
    assert_eq!(code(&["sig-gen", "--format", "yaml", "lib"]), Some(64));
    assert_eq!(code(&["sig-gen", "lib", "nowhere"]), Some(1), "a missing path is a command failure");
    assert_eq!(code(&["sig-gen", "--print", "--", "lib"]), Some(0));
    assert_eq!(code(&["sig-gen"]), Some(0), "the default path is lib");
}

#[test]
fn files_that_do_not_parse_are_reported_and_skipped() {
    let dir = project(&[("lib/a.rb", "class A\n  def one = 1\nend\n"), ("lib/b.rb", "def (\n")]);
    let output = rigor(dir.path(), &["sig-gen", "--format=json", "lib"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&output.stderr).contains("lib/b.rb does not parse"), "{output:?}");
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["candidates"].as_array().unwrap().len(), 1);
}

/// Two files defining one method: which Ruby keeps is the load order's to
/// say, so a method whose definitions return different things is not
/// described; one whose definitions agree is.
#[test]
fn a_method_two_files_define_differently_is_skipped() {
    let dir = project(&[
        ("lib/a.rb", "require_relative \"z_legacy\"\nclass Foo\n  def name = \"foo\"\n  def size = 1\nend\n"),
        ("lib/z_legacy.rb", "class Foo\n  def name = :legacy\n  def size = 1\nend\n"),
    ]);
    let list = summary(&candidates(dir.path(), &[]));
    let of = |method: &str| list.iter().find(|c| c.1 == method).cloned().unwrap_or_else(|| panic!("{list:?}"));
    assert_eq!(of("name").2, "skipped");
    assert_eq!(of("name").3, "sig.skipped.untyped-return");
    assert_eq!(of("size").3, "def size: () -> 1");
}
