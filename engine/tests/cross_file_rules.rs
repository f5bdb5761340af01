//! Call rules judging a call in one file by a `def` in another: the
//! project model gives every file the others' methods, so a call that
//! passes a method the wrong number of arguments is caught wherever the
//! method lives, and stays silent where another file may change it.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// `rule` findings of `rigor check lib` in `dir`: (path, line, column, message).
mod support;
use support::project;

fn findings(dir: &Path, rule: &str) -> Vec<(String, u64, u64, String)> {
    let output = Command::new(env!("CARGO_BIN_EXE_rigor"))
        .args(["check", "--format", "json", "--no-stats", "lib"])
        .current_dir(dir)
        .output()
        .expect("rigor runs");
    let report: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&output.stdout)));
    report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| d["rule"] == rule)
        .map(|d| {
            let text = |k: &str| d[k].as_str().unwrap_or_default().to_string();
            (text("path"), d["line"].as_u64().unwrap(), d["column"].as_u64().unwrap(), text("message"))
        })
        .collect()
}

const PRICE: &str = "module Shop
  class Price
    def initialize(amount)
      @amount = amount
    end

    def label(prefix, suffix = \"\")
      \"#{prefix}#{@amount}#{suffix}\"
    end

    def self.build(a, b) = new(a + b)

    def rest(a, *more) = more
  end
end
";

#[test]
fn wrong_arity_judges_a_call_by_the_def_in_another_file() {
    let dir = project(&[
        ("lib/shop/price.rb", PRICE),
        (
            "lib/use.rb",
            "require_relative \"shop/price\"\n\
             p = Shop::Price.new(1)\n\
             p.label\n\
             p.label(\"a\", \"b\", \"c\")\n\
             Shop::Price.build(1)\n\
             Shop::Price.new(1, 2)\n\
             p.label(\"a\")\n\
             p.label(\"a\", \"b\")\n\
             p.rest(1, 2, 3, 4)\n\
             Shop::Price.build(1, 2)\n",
        ),
    ]);
    let found = findings(dir.path(), "call.wrong-arity");
    let at: Vec<(&str, u64, u64)> = found.iter().map(|(p, l, c, _)| (p.as_str(), *l, *c)).collect();
    assert_eq!(
        at,
        [("lib/use.rb", 3, 3), ("lib/use.rb", 4, 3), ("lib/use.rb", 5, 13), ("lib/use.rb", 6, 13)],
        "{found:?}"
    );
    assert!(found[0].3.contains("given 0, expected 1..2"), "{}", found[0].3);
    assert!(found[2].3.contains("given 1, expected 2"), "{}", found[2].3);
    assert!(found[3].3.contains("given 2, expected 1"), "{}", found[3].3);
}

#[test]
fn wrong_arity_stays_silent_where_another_file_may_change_the_method() {
    let call = "require_relative \"shop/price\"\nShop::Price.new(1).label(1, 2, 3)\n";
    let cases: &[(&str, &str)] = &[
        // Another `def` of the name anywhere: either may be what runs.
        ("lib/other.rb", "class Sub < Shop::Price\n  def label(a, b, c) = a\nend\n"),
        // Made private by name elsewhere: a receiver cannot call it
        // (NoMethodError, or `method_missing` answers).
        ("lib/other.rb", "class Shop::Price\n  private :label\nend\n"),
        ("lib/other.rb", "Shop::Price.send(:protected, :label)\n"),
        // Given a body some other way.
        ("lib/other.rb", "class Shop::Price\n  define_method(:label) { |*a| a }\nend\n"),
        ("lib/other.rb", "class Shop::Price\n  alias_method :label, :to_s\nend\n"),
        ("lib/other.rb", "module Loud\n  def label(*) = \"!\"\nend\nShop::Price.prepend(Loud)\n"),
        ("lib/other.rb", "Shop::Price.class_eval \"def label(a, b, c) = a\"\n"),
    ];
    for (path, text) in cases {
        let dir = project(&[("lib/shop/price.rb", PRICE), ("lib/use.rb", call), (path, text)]);
        let found = findings(dir.path(), "call.wrong-arity");
        assert!(found.is_empty(), "with {text:?}: {found:?}");
    }
    // The same call with nothing else in the project fires (the cases
    // above are silent for their reason, not for the call's).
    let dir = project(&[("lib/shop/price.rb", PRICE), ("lib/use.rb", call)]);
    assert_eq!(findings(dir.path(), "call.wrong-arity").len(), 1);
}

#[test]
fn wrong_arity_leaves_alone_what_another_file_hides() {
    let defs = "class Vault
  def open(code) = code
  private :open

  def peek(a) = a
  protected :peek

  class << self
    private
    def forge(a) = a
  end

  private_class_method def self.mint(a) = a

  def method_missing(name, *args) = args
  def respond_to_missing?(*) = true
end
";
    let calls =
        "require_relative \"vault\"\nv = Vault.new\nv.open(1, 2)\nv.peek(1, 2)\nVault.forge(1, 2)\nVault.mint(1, 2)\n";
    let dir = project(&[("lib/vault.rb", defs), ("lib/use.rb", calls)]);
    assert_eq!(findings(dir.path(), "call.wrong-arity"), []);
}

#[test]
fn new_is_judged_by_initialize_in_another_file_only_when_it_is_the_only_one() {
    let base = "class Base\n  def initialize(a, b) = nil\nend\n";
    // Inherited from a class in another file.
    let dir = project(&[
        ("lib/base.rb", base),
        ("lib/leaf.rb", "require_relative \"base\"\nclass Leaf < Base\nend\n"),
        ("lib/use.rb", "require_relative \"leaf\"\nLeaf.new(1)\nLeaf.new(1, 2)\n"),
    ]);
    let found = findings(dir.path(), "call.wrong-arity");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!((found[0].1, found[0].2), (2, 6));
    // Redefined in the class's body: the last one runs, and the table
    // holds one of them.
    let twice = "class Base\n  def initialize(a, b) = nil\n  def initialize(a) = nil\nend\n";
    let dir = project(&[("lib/base.rb", twice), ("lib/use.rb", "require_relative \"base\"\nBase.new(1)\n")]);
    assert_eq!(findings(dir.path(), "call.wrong-arity"), []);
    // The class is reopened by another file: it may define `self.new`.
    let dir = project(&[
        ("lib/base.rb", base),
        ("lib/more.rb", "class Base\n  def self.make = 1\nend\n"),
        ("lib/use.rb", "require_relative \"base\"\nBase.new(1)\n"),
    ]);
    assert_eq!(findings(dir.path(), "call.wrong-arity"), []);
}

#[test]
fn new_is_left_alone_where_another_file_makes_it_private() {
    let foo = "require_relative \"base\"\nclass Foo < Base\n  def initialize(a); end\nend\n";
    let call = "require_relative \"foo\"\nrequire_relative \"more\"\nFoo.new(1, 2)\n";
    let bases: &[(&str, &str)] = &[
        ("class Base\n  private_class_method :new\nend\n", ""),
        ("class Base\n  class << self\n    private :new\n  end\nend\n", ""),
        ("require \"singleton\"\nclass Base\n  include Singleton\nend\n", ""),
        ("class Base\nend\n", "require \"singleton\"\nFoo.include(Singleton)\n"),
        ("class Base\nend\n", "Foo.singleton_class.send(:private, :new)\n"),
    ];
    for (base, more) in bases {
        let dir = project(&[("lib/base.rb", base), ("lib/foo.rb", foo), ("lib/more.rb", more), ("lib/use.rb", call)]);
        let found = findings(dir.path(), "call.wrong-arity");
        assert!(found.is_empty(), "with {base:?} and {more:?}: {found:?}");
    }
    let dir = project(&[
        ("lib/base.rb", "class Base\nend\n"),
        ("lib/foo.rb", foo),
        ("lib/more.rb", ""),
        ("lib/use.rb", call),
    ]);
    assert_eq!(findings(dir.path(), "call.wrong-arity").len(), 1, "the plain case fires");
}

#[test]
fn undefined_method_judges_a_class_in_the_file_its_name_points_to() {
    // No superclass, no `initialize`: `lib/shop/cart.rb` is where a
    // library keeping `Shop::Cart` would live, so nothing outside reopens it.
    let cart = "module Shop\n  class Cart\n    def total = 1\n    def self.open = new\n  end\nend\n";
    let call = "require_relative \"shop/cart\"\nShop::Cart.new.totl\nShop::Cart.opne\nShop::Cart.open.total\n";
    let dir = project(&[("lib/shop/cart.rb", cart), ("lib/use.rb", call)]);
    let found: Vec<(u64, u64)> =
        findings(dir.path(), "call.undefined-method").iter().map(|(_, line, column, _)| (*line, *column)).collect();
    assert_eq!(found, [(2, 16), (3, 12)]);
    // Elsewhere it may be a class a library creates and this file reopens.
    let dir =
        project(&[("lib/shop/extras.rb", cart), ("lib/use.rb", call.replace("shop/cart", "shop/extras").as_str())]);
    assert_eq!(findings(dir.path(), "call.undefined-method"), []);
    // Unless a namespace it is in is opened in its own file: `lib/shop.rb`
    // holding `module Shop` and its classes.
    let dir = project(&[("lib/shop.rb", cart), ("lib/use.rb", call.replace("shop/cart", "shop").as_str())]);
    assert_eq!(findings(dir.path(), "call.undefined-method").len(), 2);
}

#[test]
fn undefined_method_leaves_alone_an_empty_class_that_holds_a_namespace() {
    // A Hoe plugin: `class Hoe; end` makes the constant for the module
    // inside it; Hoe itself is the gem's, which loads the plugin.
    let plugin = "class Hoe\nend\n\nmodule Hoe::Minitest\n  def initialize_minitest\n    Hoe.add_include_dirs \"x\"\n  end\nend\n";
    let dir = project(&[("lib/hoe/minitest.rb", plugin)]);
    assert_eq!(findings(dir.path(), "call.undefined-method"), []);
    // Without the module inside, the empty class is the project's own.
    let alone = "class Hoe\nend\n\nmodule Minitest\n  def self.go = Hoe.add_include_dirs(\"x\")\nend\n";
    let dir = project(&[("lib/hoe/minitest.rb", alone)]);
    assert_eq!(findings(dir.path(), "call.undefined-method").len(), 1);
}
