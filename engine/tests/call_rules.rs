//! The call rules, table-driven: each fires at the method-name token with
//! the receiver type and method named, and stays silent where the engine
//! cannot be sure.

mod rule_table;

use rigor_engine::analysis::Settings;
use rigor_engine::diagnostic::Severity;
use rule_table::{analyse, check, of_rule, Firing};

#[test]
fn undefined_method() {
    let firing: &[Firing] = &[
        // An ivar nobody assigns, one slip from one the class writes.
        ("class A\n  def initialize = @name = \"x\"\n  def a = @nmae.upcase\nend", &[(3, 17)]),
        // The branch a literal condition takes is judged.
        ("if nil then 1 else \"s\".frob2 end", &[(1, 24)]),
        // The reference's example.
        ("\"hi\".shout", &[(1, 6)]),
        ("nil.upcase", &[(1, 5)]),
        ("[1, 2].frobnicate(3)", &[(1, 8)]),
        ("{ a: 1 }.zap", &[(1, 10)]),
        ("String.shout", &[(1, 8)]),
        ("x = 5\nx.upcase", &[(2, 3)]),
        ("def m\n  s = \"a\" + \"b\"\n  s.shout!\nend", &[(3, 5)]),
        // Keywords given to a class's `new` define nothing (but Struct's
        // and OpenStruct's do).
        ("require \"logger\"\nLogger.new($stdout, level: 1)\nl = Logger.new($stdout)\nl.lvl = 1", &[(4, 3)]),
        // A module the project gives methods is its own: `attr` is Module's.
        ("module Named\n  def self.x = 1\nend\nNamed.attr(:a).one_of", &[(4, 16)]),
        ("1.times { |i| i.zork }", &[(1, 17)]),
        // Names computed in a block run on Box make Box's methods unknown,
        // not Other's.
        (
            "class Box\nend\nclass Other\n  def initialize = nil\nend\nBox.class_exec(:v) { |n| attr_writer n }\nOther.new.v = 2",
            &[(7, 11)],
        ),
        // A signature module mixed in is asked, and lacks it.
        ("include Comparable\nnil.shout", &[(2, 5)]),
        // Standard libraries are seen.
        ("require \"set\"\nrequire \"json\"\n\"hi\".shout", &[(3, 6)]),
        // Features Ruby provides itself are no gem.
        ("require \"rational\"\nrequire \"thread\"\n\"hi\".shout", &[(3, 6)]),
        // A real bug found in a gem: Hash has no `<<`.
        ("def m(x)\n  tbl = {}\n  tbl << x\nend", &[(3, 7)]),
        // Columns count bytes: "é" is two.
        ("x = \"é\"; x.shout", &[(1, 13)]),
        ("x = \"a\"\nx&.shout", &[(2, 4)]),
        // A `Struct.new(...)` layout's `new` makes an instance, which has none.
        ("class P3 < Struct.new(:x)\nend\nP3.new(1).new", &[(3, 11)]),
        // A project class whose whole method set the model knows (Ruby:
        // NoMethodError), also through a known superclass.
        ("class Local\nend\nLocal.new.anything", &[(3, 11)]),
        ("class Price\n  def initialize = nil\n  def label = 1\nend\np = Price.new\np.lable", &[(6, 3)]),
        ("class Base\n  def label = 1\nend\nclass Price < Base\nend\nPrice.new.lable", &[(6, 11)]),
        // A module making class methods for whoever extends it leaves
        // other classes as they were.
        (
            "module CA\n  def class_attribute(n) = singleton_class.attr_accessor(n)\nend\nclass A < Object\n  extend CA\n  class_attribute :cfg\nend\nclass B < Object\nend\nB.cfg",
            &[(10, 3)],
        ),
        // Its class object too: its own and inherited class methods, then
        // Class's (Ruby: NoMethodError).
        ("class Price\n  def initialize = nil\n  def self.build = new\nend\nPrice.biuld", &[(5, 7)]),
        ("class Base\n  def self.build = new\nend\nclass Price < Base\nend\nPrice.biuld", &[(6, 7)]),
        // A Struct layout assigned to a constant is such a class: its
        // members, the block's `def`s and Struct's own methods, no more.
        ("Point = Struct.new(:x, :y)\nPoint.new(1, 2).z", &[(2, 17)]),
        (
            "module Geo\n  Point = Struct.new(:x) do\n    def norm = x.abs\n  end\nend\nGeo::Point.new(1).nrom",
            &[(6, 19)],
        ),
        ("KW = Struct.new(:a, keyword_init: true)\nKW.new(a: 1).b", &[(2, 14)]),
        // `send` by a computed name in an instance method calls an
        // instance method: it defines nothing (self is no class object).
        ("class Box\n  def initialize = nil\n  def get(name) = send(name)\n  def v = 1\nend\nBox.new.vv", &[(6, 9)]),
    ];
    let silent = &[
        // Not one slip from a written ivar, a plural of one (which may be
        // meant), nil's own method, or in a class a subclass may set it in.
        "class A\n  def initialize = @name = \"x\"\n  def a = @count.succ\nend",
        "class A\n  def initialize = @items = []\n  def a = @item.first\nend",
        "class A\n  def initialize = @name = \"x\"\n  def a = @nmae.to_s\nend",
        "class A\n  def initialize = @value = 1\n  def a = @valeu.succ\nend\nclass B < A\nend",
        // Guarded (a second mention: found probing against Ruby 3.1), or
        // in a class reopened under another name or given modules nobody
        // can name.
        "class A\n  def initialize = @name = \"x\"\n  def a = (@nmae.upcase if @nmae)\nend",
        "class A\n  def initialize = @name = \"x\"\n  def a = defined?(@nmae) ? @nmae.upcase : 1\nend",
        "class A\n  def initialize = @name = \"x\"\n  def a = instance_variable_defined?(:@nmae) ? 1 : 2\n  def b = @nmae.upcase\nend",
        "class A\n  def initialize = @name = \"x\"\n  def a = @nmae.upcase\nend\nB = A\nclass B\n  def prep = @nmae = \"y\"\nend",
        "module H\n  def prep = @nmae = \"y\"\nend\nclass A\n  [H].each { |m| include m }\n  def initialize = @name = \"x\"\n  def a = @nmae.upcase\nend",
        // Branches a literal condition never takes never run.
        "if false\n  \"s\".frob\nend",
        "unless true\n  \"s\".frob\nend",
        "z = true || nil.upcase",
        // A module's instance method makes names through the class of
        // whoever mixes it in: class methods for an extender, instance
        // methods for an includer (Ruby runs each).
        "module CA\n  def class_attribute(n) = singleton_class.attr_accessor(n)\nend\nclass A < Object\n  extend CA\n  class_attribute :cfg\nend\nA.cfg",
        "module CA\n  def setting(n) = singleton_class.send(:define_method, n) { 1 }\nend\nclass A < Object\n  extend CA\n  setting :cfg\nend\nA.cfg",
        "module IM\n  def remember(n) = self.class.send(:attr_accessor, n)\nend\nclass A < Object\n  include IM\n  def initialize = remember(:cfg)\nend\nA.new.cfg",
        "module IM\n  def remember = singleton_class.attr_accessor(:cfg)\nend\nclass A < Object\n  include IM\n  def initialize = remember\nend\nA.new.cfg",
        // Written for another Ruby: a branch on the version.
        "if RUBY_VERSION >= \"9\"\n  \"hi\".shout\nend",
        // `define_method`'s block runs on an instance: its ivars are the
        // instance's (found probing against Ruby 3.1).
        "class C\n  def initialize\n    @s = \"str\"\n  end\n\n  define_method(:go) do\n    x = @s\n    x.upcase\n  end\nend\nC.new.go",
        // Methods an instance makes on its class or itself, by names
        // computed at run time (Ruby runs each).
        "class Cart\n  def initialize(h)\n    h.each { |k, v| self.class.send(:attr_accessor, k); send(\"#{k}=\", v) }\n  end\nend\nCart.new(total: 5).total",
        "class Cart\n  def initialize(k) = self.class.attr_reader(k)\nend\nCart.new(:total).total",
        "class Cart\n  def initialize(k) = singleton_class.define_method(k) { 1 }\nend\nCart.new(:total).total",
        "class Cart\n  def initialize(k) = singleton_class.send(:define_method, k) { 1 }\nend\nCart.new(:total).total",
        "class Cart\n  def initialize = self.class.send(:attr_reader, :total)\nend\nCart.new.total",
        // A lazy enumerator's calls are lazy (data/rbs_core_fixes.rbs).
        "[1, 2].lazy.map { |v| v * 2 }.select(&:even?).force",
        "(1..Float::INFINITY).lazy.map { |v| v * 2 }.take(3).force.size",
        "\"hi\".upcase",
        "def m(x) = x.shout",
        "foo.shout",
        // Implicit self and `self.` are not judged here.
        "shout(1)",
        "class A\n  def m = self.shout\nend",
        // A union receiver.
        "x = rand > 0.5 ? 1 : \"s\"\nx.upcase",
        // The project reopens String.
        "class String\n  def shout = upcase\nend\n\"hi\".shout",
        // A module's method may be mixed into anything.
        "module Loud\n  def shout = 1\nend\n\"hi\".shout",
        "class Object\n  def method_missing(*) = 1\nend\n\"hi\".shout",
        "x = \"hi\"\nx.shout if x.respond_to?(:shout)",
        "begin\n  \"hi\".shout\nrescue NoMethodError\n  nil\nend",
        "\"hi\".shout rescue nil",
        "defined?(\"hi\".shout)",
        "using Shouting\n\"hi\".shout",
        "s = \"hi\"\ns.extend(Loud)\ns.shout",
        // Ruby defines these though the core signatures omit them.
        "proc { 1 }.ruby2_keywords",
        "File.foreach(\"x\")",
        // A standard library adds it (io/console).
        "IO.console",
        // One whose signatures leave it out (see data/rbs_stdlib_gaps.txt).
        "require \"bigdecimal/util\"\n1.5.to_d",
        // A project class with a method nobody can list.
        "class Local\n  def method_missing(*) = 1\nend\nLocal.new.anything",
        "class Local\n  def respond_to_missing?(*) = true\nend\nLocal.new.anything",
        // `method_missing` may come from outside the class body, as any
        // method may (Ruby prints 1 for each).
        "module Dyn\n  def method_missing(*) = 1\nend\nclass A\n  def initialize = nil\nend\nA.include(Dyn)\nA.new.dyn",
        "module Dyn\n  def method_missing(*) = 1\nend\nclass A\n  def initialize = nil\nend\nA.send(:prepend, Dyn)\nA.new.dyn",
        "module Dyn\n  def method_missing(*) = 1\nend\nclass B\nend\nclass A < B\n  def initialize = nil\nend\nB.include(Dyn)\nA.new.dyn",
        "class A\n  def initialize = nil\nend\nA.class_eval do\n  def method_missing(*) = 1\nend\nA.new.dyn",
        "class A\n  def initialize = nil\nend\nA.define_method(:method_missing) { |*| 1 }\nA.new.dyn",
        "class Local\n  define_method(name) { 1 }\nend\nLocal.new.anything",
        "class Local\n  include Unknown\nend\nLocal.new.anything",
        "class Local < Unknown\nend\nLocal.new.anything",
        "class Local\n  class_eval \"def anything; end\"\nend\nLocal.new.anything",
        // Attribute macros, aliases and literal define_method define names.
        "class Local\n  attr_reader :anything\nend\nLocal.new.anything",
        "class Local\n  def x = 1\n  alias anything x\nend\nLocal.new.anything",
        "class Local\n  define_method(:anything) { 1 }\nend\nLocal.new.anything",
        "Point = Struct.new(:anything)\nPoint.new(1).anything",
        "Point = Struct.new(:x)\np = Point.new(1)\np.x = 2\np.to_a\np.members\np == p",
        "Point = Struct.new(:x) do\n  def norm = x.abs\n  def self.origin = new(0)\nend\nPoint.new(1).norm\nPoint.origin",
        // A block that does more than `def` may define anything.
        "Point = Struct.new(:x) do\n  include Unknown\nend\nPoint.new(1).anything",
        "Point = Struct.new(:x) do\n  attr_reader :y\nend\nPoint.new(1).anything",
        // `Struct.new("Name", ...)` makes `Struct::Name`, not the constant.
        "Point = Struct.new(\"Pt\", :x)\nPoint.new(1).anything",
        // The project reopens it.
        "Point = Struct.new(:x)\nclass Point\n  def anything = 1\nend\nPoint.new(1).anything",
        // Since Ruby 3.0 the attribute macros return the names they define
        // (the rbs gem's core says nil: see data/rbs_core_fixes.rbs).
        "class Box\n  names = attr_accessor(:size)\n  names.first\nend",
        // `N < Struct`: `N.new(:a)` makes a struct class, whose `new` makes one.
        "class Note < Struct\n  def self.for(o = {})\n    new(*o.keys).new(*o.values)\n  end\nend",
        "module M\n  def anything = 1\nend\nclass Local\n  include M\nend\nLocal.new.anything",
        "class Base\n  def anything = 1\nend\nclass Local < Base\nend\nLocal.new.anything",
        // A class reopened here, created by code the project does not hold.
        "class Irb\n  def run = 1\nend\nIrb.new.eval_input",
        // A namespace the project only reopens is created by code it does
        // not see, which may give it an `attr` of its own (capybara's XPath).
        "module XPath\n  class Renderer\n  end\nend\nXPath.attr(:type).one_of(1)",
        // A gem may reopen the class.
        "require \"some_gem\"\nclass Local\nend\nLocal.new.anything",
        // `$!` is an Exception typed by its class: a subclass defines it.
        "begin\nrescue\n  $!.exit_value\nend",
        // A global's type is a promise others break ($stdout as a StringIO).
        "$stdout.string",
        // A value typed Class has singleton methods the type does not show.
        "k = Struct.new(:a)\nk[1]",
        // Modules' own methods are what C extensions add.
        "ObjectSpace.each_iseq",
        "String.class_eval(\"def shout; end\")\n\"hi\".shout",
        "x = \"hi\"\nx.send(:shout)",
        // Modules the project mixes in: an unknown one may provide anything,
        // a signature one is asked.
        "class Hash\n  include Unknown::Mixin\nend\n{ a: 1 }.zap",
        "include Enumerable\nnil.each_slice(2)",
        "Array.send(:define_method, name) { 1 }\n[1].anything",
        "m = Module.new {\n  include(Unknown)\n}\ninclude m\n\"hi\".shout",
        // A gem may add any method to any class (minitest's Object#stub).
        "require \"minitest/autorun\"\n\"foo\".stub(:x, 1)",
        "require_relative \"not_in_the_project\"\n\"hi\".shout",
        "require name\n\"hi\".shout",
        "Bundler.require\n\"hi\".shout",
        // A module whose method makes methods on `self` under names nobody
        // can read: whatever extends it (directly, or through a module
        // including it) answers to them (Ruby prints "a").
        "module Fields\n  def field(name) = attr_accessor(name)\nend\nclass User\n  extend Fields\n  field :email\n  def initialize = (@email = 1)\nend\nUser.new.email = \"a\"",
        "module Fields\n  def field(n) = define_method(n) { 1 }\nend\nmodule Dsl\n  include Fields\nend\nclass User\n  extend Dsl\n  field :age\n  def go = 1\nend\nUser.new.age",
        // `attr :name, true` (obsolete, still honoured) makes a writer.
        "class Gear\n  attr :ratio, true\n  def initialize = @ratio = 3\nend\nGear.new.ratio = 4",
        // A method sent to a class by a name nobody can read, or by a
        // string, may be `attr_writer` (Ruby runs both).
        "class Box\n  def initialize = nil\n  def v = 1\nend\nm = :attr_writer\nBox.send(m, :v)\nBox.new.v = 2",
        "class Box\n  def initialize = nil\n  def v = 1\nend\nBox.send(\"attr_writer\", :v)\nBox.new.v = 2",
        // A send of a send, and an alias of attr_writer, make writers too.
        "class Box\n  def initialize = nil\n  def v = 1\nend\nBox.send(:public_send, :attr_writer, :v)\nBox.new.v = 2",
        "class Box\n  def initialize = nil\n  def v = 1\n  class << self\n    alias_method :setter, :attr_writer\n  end\n  setter :v\nend\nBox.new.v = 2",
        "class Box\n  def initialize = nil\n  def v = 1\n  class << self\n    alias setter attr_writer\n  end\n  setter :v\nend\nBox.new.v = 2",
        // A method of Module reopened may make methods on any class.
        "class Module\n  def my_writer(n) = attr_writer(n)\nend\nclass Box\n  def initialize = nil\n  def v = 1\nend\nBox.my_writer(:v)\nBox.new.v = 2",
        // A computed send in a method of Module reopened reaches any class.
        "class Module\n  def make(m, n) = send(m, n)\nend\nclass Box\n  def initialize = nil\nend\nBox.make(:attr_writer, :v)\nBox.new.v = 2",
        // Computed names in a block run on the class (Ruby runs each).
        "class Box\n  def initialize = nil\n  def v = 1\nend\nBox.instance_exec(:v) { |n| attr_writer n }\nBox.new.v = 2",
        "class Box\n  def initialize = nil\n  def v = 1\nend\nBox.class_exec(:v) { |n| attr_writer n }\nBox.new.v = 2",
        "class Box\n  def initialize = nil\n  def v = 1\nend\nBox.class_eval { [:v].each { |n| attr_writer n } }\nBox.new.v = 2",
        "class Box\n  def initialize = nil\n  def v = 1\nend\nBox.instance_eval { n = :v; attr_writer n }\nBox.new.v = 2",
    ];
    check("call.undefined-method", Severity::Error, firing, silent, true);
}

#[test]
fn undefined_method_names_the_receiver_type() {
    let report = analyse("\"hi\".shout", &Default::default());
    let found = of_rule(&report, "call.undefined-method");
    assert_eq!(found[0].receiver_type.as_deref(), Some("\"hi\""));
    assert_eq!(found[0].method_name.as_deref(), Some("shout"));
}

#[test]
fn wrong_arity() {
    let firing: &[Firing] = &[
        // A conditional on something else than the Ruby running is judged.
        ("v = \"1\"\nif v >= \"1.9\"\n  Regexp.quote(\"a\", \"n\")\nend", &[(3, 10)]),
        // The reference's example.
        ("[1, 2].rotate(1, 2)", &[(1, 8)]),
        ("\"abc\".center", &[(1, 7)]),
        ("\"abc\".center(1, \"a\", 3)", &[(1, 7)]),
        ("1.succ(2)", &[(1, 3)]),
        ("class Box\n  def rotate(a, b) = a\nend\n[1, 2].rotate(1, 2)", &[(4, 8)]),
        ("x = [3]\nx.push\nx.first(1, 2)", &[(3, 3)]),
        ("class K\n  def one(a) = a\n  def go\n    one(1, 2)\n  end\nend", &[(4, 5)]),
        ("class K\n  def one(a, b = 1) = a\nend\nK.new.one", &[(4, 7)]),
        ("class K\n  def one(a, b = 1) = a\nend\nK.new.one(1, 2, 3)", &[(4, 7)]),
        // `C.new` takes what `initialize` takes.
        ("Regexp.new", &[(1, 8)]),
        ("defined?(Encoding) && Encoding.find", &[(1, 32)]),
        ("Time.at(1, 2, 3, 4)", &[(1, 6)]),
        ("class K\n  def initialize(a) = nil\nend\nK.new", &[(4, 3)]),
        ("class K\n  def initialize(a) = nil\nend\nK.new(1, 2)", &[(4, 3)]),
        ("class K\n  def initialize(a) = nil\nend\nclass L < K\nend\nL.new", &[(6, 3)]),
    ];
    let silent = &[
        "if true\n  1\nelse\n  [1].rotate(1, 2)\nend",
        // Written for another Ruby (httpclient's hexdump.rb).
        "if RUBY_VERSION >= \"1.9\"\n  Regexp.quote(\"a\")\nelse\n  Regexp.quote(\"a\", \"n\")\nend",
        "case RUBY_ENGINE\nwhen \"jruby\" then Regexp.quote(\"a\", \"n\")\nend",
        "[1, 2].rotate(1)",
        // A subclass mixes in a library module ahead of the class's own
        // `def`: a call on `self` may run Enumerable's `sum` (found
        // probing against Ruby 3.1).
        "class A\n  def go = sum(5)\n  def sum(a, b) = a + b\nend\nclass B < A\n  include Enumerable\n  def each = yield(1)\nend",
        // Exceptions take their message alone (Ruby runs each).
        "Errno::ENOENT.new(\"path\")",
        "SystemCallError.new(\"boom\")",
        "UncaughtThrowError.new(:t, 1, \"m %p\")",
        // rbs 2.1 requires an argument; Ruby's `zip` takes none.
        "[1].zip",
        // ... nor more than one, on any Enumerable (found probing).
        "{ a: 1 }.zip",
        "{ a: 1 }.zip([1], [2])",
        "(1..2).zip",
        "[1].each_slice(1).zip",
        // Enumerable's predicates take a pattern.
        "{ a: 1 }.all?(Array)",
        "{ a: 1 }.none?(String)",
        "(1..3).any?(Integer)",
        "[1].each.one?(Integer)",
        // Ruby 3.0's hash of new keys.
        "{ a: 1 }.transform_keys({ a: :b })",
        "{ a: 1 }.transform_keys!({ a: :c })",
        "\"x\".center(*args)",
        "\"x\".center(3, **opts)",
        "[1].each_slice(2, &blk)",
        "def m(...) = \"x\".center(...)",
        "[1].push(1, 2, 3, 4)",
        "foo.rotate(1, 2, 3)",
        "class K\n  def one(*a) = a\nend\nK.new.one(1, 2, 3)",
        "class K\n  def one(a) = a\nend\nclass L < K\n  def one(a, b) = a\nend\nK.new.one(1, 2)",
        "class K\n  def one(a) = a\n  def go\n    [1].each { one(1, 2) }\n  end\nend",
        "class K\n  def one(...) = 1\nend\nK.new.one(1, 2)",
        "class Array\n  def rotate(*a) = a\nend\n[1].rotate(1, 2)",
        "x = rand > 0.5 ? [1] : \"s\"\nx.center(1, 2, 3, 4)",
        "require \"some_gem\"\n[1, 2].rotate(1, 2)",
        "Regexp.new(\"a\")",
        "RuntimeError.new(\"boom\")",
        // Struct.new is Struct's own (the signatures leave it out).
        "Point = Struct.new(:x, :y, :z)",
        "Thread.new(1) { |n| n }",
        "class K\n  def initialize(a) = nil\nend\nK.new(1)",
        "class K\n  def initialize(a) = nil\n  def again = self.class.new(1, 2)\nend",
        "class K\n  def initialize(a) = nil\nend\nclass L < K\n  def initialize(a, b) = nil\nend\nL.new(1, 2)",
        "class K\n  def self.new(*a) = 1\n  def initialize(a) = nil\nend\nK.new(1, 2)",
        "class K\n  include Unknown\n  def initialize(a) = nil\nend\nK.new(1, 2)",
        "class K\n  def initialize(a) = nil\nend\nclass K\n  def initialize(a, b) = nil\nend\nK.new(1, 2)",
        // The unit is optional (the rbs gem's core says not: see data/rbs_core_fixes.rbs).
        "Time.at(1, 500)",
        // A `defined?` operand is never evaluated.
        "def encoding(name = \"UTF-8\")\n  defined?(Encoding.find) && Encoding.find(name)\nend",
        // Kernel's private `load` and `sleep` are not what a written
        // receiver calls (Ruby refuses them there).
        "\"x\".load(\"a\", true, 3)",
        "[1].sleep(1, 2)",
        // Nor is a project's private method (`method_missing` may answer),
        // or a `def` a string evaluated on the class replaces.
        "class Foo\n  def m(a) = a\n  private :m\n  def method_missing(name, *args) = args\n  def respond_to_missing?(*) = true\nend\nFoo.new.m(1, 2)",
        "class Foo\n  protected def m(a) = a\n  def method_missing(name, *args) = args\n  def respond_to_missing?(*) = true\nend\nFoo.new.m(1, 2)",
        "class Foo\n  def m(a) = a\nend\nFoo.class_eval \"def m(a, b) = [a, b]\"\nFoo.new.m(1, 2)",
        "class Foo\n  def m(a) = a\nend\nFoo.module_eval \"def m(a, b) = [a, b]\"\nFoo.new.m(1, 2)",
        // Nor what Ruby may not run, found probing against Ruby 3.1: `new`
        // made private (`Singleton`, `private_class_method`), a library
        // module mixed in ahead (Math's `hypot`) or into the object, a
        // method of a class the signatures declare (a library loaded
        // later may define it again), a class reopened under another
        // name, a metaclass's method, code evaluated from strings, names
        // computed on a class or on one no name shows, a `def` in a
        // branch, a file loaded by `send(:require, ...)`.
        "require \"singleton\"\nclass Foo\n  include Singleton\n  def initialize; end\nend\nFoo.new(1)",
        "class Foo\n  def initialize(a); end\nend\nFoo.private_class_method(:new)\nFoo.new(1, 2)",
        "class Base\n  def hypot(a) = a\nend\nclass Foo < Base\n  include Math\n  def run = hypot(3, 4)\nend",
        "class Foo\n  def clamp(a) = a\nend\nf = Foo.new\nf.extend(Comparable)\nf.clamp(1, 2)",
        "class String\n  def to_d(a) = a\nend\n\"1.5\".to_d",
        "class Foo\n  def initialize(a); end\nend\nBar = Foo\nclass Bar\n  def initialize(a, b); end\nend\nFoo.new(1, 2)",
        "class Foo\n  class << self\n    def self.s(a) = a\n  end\nend\nFoo.s(1, 2)",
        "class Foo\n  def m(a) = a\nend\neval(\"class Foo; def m(a, b) = b; end\")\nFoo.new.m(1, 2)",
        "class Foo\n  def m(a) = a\nend\nname = :m\nFoo.define_method(name) { |a, b| b }\nFoo.new.m(1, 2)",
        "class Foo\n  def m(a) = a\nend\ndef wrap(k, n) = k.define_method(n) { |*a| a }\nwrap(Foo, :m)\nFoo.new.m(1, 2)",
        "class Foo\n  def m(a) = a\nend\ndef kill(k, n) = k.class_exec { remove_method n }\nkill(Foo, :m)\nFoo.new.m(1, 2)",
        "class Foo\n  if ENV[\"X\"]\n    def m(a) = a\n  end\nend\nFoo.new.m(1, 2)",
        "class Foo\n  def m(a) = a\nend\nsend(:require, File.expand_path(\"../patch\", __dir__))\nFoo.new.m(1, 2)",
        // The default libraries' signatures, as Ruby 3.1 takes them (see
        // data/rbs_core_fixes.rbs).
        "require \"set\"\n[1, 2].to_set(Set)\nSet[1].to_set(Set)",
        "require \"erb\"\nERB.new(\"x\", nil, \"-\")",
        "require \"csv\"\nCSV::Row.new([\"a\"], [\"1\"])",
        "require \"benchmark\"\nBenchmark::Tms.new(1.0, 2.0, 0, 0, 3.0, \"l\")",
        // Where something else may run (found probing keywords against
        // Ruby 3.1, each running there): a library module mixed in from
        // outside the class body, by a hook or in a `class_eval` block; a
        // computed module prepended by a hook; a `private` section of
        // `class << self`, or a `private` that may or may not run; `new`
        // on an implicit `self`, which may be a subclass's; a class body
        // that may never be opened; a method ERB compiles from a template.
        // F1_include_outside
        "class Base\n  def min(by:) = by\nend\nclass Bag < Base\n  def each = yield(3)\nend\nBag.include(Enumerable)\np Bag.new.min",
        // F1b_included_hook
        "module Listy\n  def self.included(base) = base.include(Enumerable)\nend\nclass Base\n  def min(by:) = by\nend\nclass Bag < Base\n  include Listy\n  def each = yield(3)\nend\np Bag.new.min",
        // F1c_inherited_prepend_computed
        "module Lenient\n  def self.for(names) = Module.new { names.each { |n| define_method(n) { |*a, **k| super(*a) } } }\nend\nclass Base\n  def self.inherited(sub)\n    super\n    sub.prepend(Lenient.for([:tag]))\n  end\nend\nclass Item < Base\n  def tag(color: 1) = color\nend\np Item.new.tag(colour: 2)",
        // F2_private_sclass
        "class Base\n  class << self\n    def method_missing(n, *a, **k) = [n, a, k]\n    def respond_to_missing?(*) = true\n  end\nend\nclass Widget < Base\n  class << self\n    private\n    def build(name:) = name\n  end\nend\np Widget.build(title: 1)",
        // F2b_private_new
        "class Widget\n  class << self\n    private\n    def new(name:) = super()\n  end\n  def self.method_missing(n, *a, **k) = [n, a, k]\n  def self.respond_to_missing?(*) = true\nend\np Widget.new(title: 1)",
        // F3_implicit_new
        "class Shape\n  def initialize(sides:) = @sides = sides\n  def self.default = new\nend\nclass Square < Shape\n  def self.new = super(sides: 4)\nend\np Square.default",
        // F4_private_modifier
        "class Root\n  def method_missing(n, *a, **k) = [n, a, k]\n  def respond_to_missing?(*) = true\nend\nclass Item < Root\n  private unless ENV[\"PUBLIC_API\"]\n  def tag(color:) = color\nend\np Item.new.tag(colour: 1)",
        // F5_class_body_guarded
        "class Root\n  def method_missing(n, *a, **k) = [n, a, k]\n  def respond_to_missing?(*) = true\nend\nclass Item < Root\nend\nif defined?(SomeOptionalLib)\n  class Item\n    def tag(color:) = color\n  end\nend\np Item.new.tag(colour: 1)",
        // F6_erb_def_method
        "require \"erb\"\nclass Item\n  def tag(color:) = color\nend\nERB.new(\"<%= colour %>\").def_method(Item, \"tag(colour: 1)\")\np Item.new.tag(colour: 2)",
        // 098_enum_classeval_include
        "class Base\n  def min(by:) = by\nend\nclass Bag < Base\n  def each\n    yield 3\n  end\nend\nBag.class_eval { include Enumerable }\np Bag.new.min\nclass Bag2 < Base\n  def each\n    yield 3\n  end\nend\nBag2.class_exec do\n  include Enumerable\nend\np Bag2.new.min\nclass Bag3 < Base\n  def each\n    yield 3\n  end\nend\nBag3.module_eval { include(Enumerable) }\np Bag3.new.min",
        // 104_include_outside_self_call
        "class Base\n  def min(by:) = by\n  def lowest = min\nend\nclass Bag < Base\n  def each\n    yield 3\n  end\nend\nBag.include(Enumerable)\np Bag.new.lowest",
    ];
    check("call.wrong-arity", Severity::Error, firing, silent, true);
}

#[test]
fn undefined_method_names_what_was_meant() {
    for (source, expected) in [
        ("class Cart < Object\n  def total = 1\nend\nCart.new.totl", "for Cart (did you mean `total`?)"),
        ("[1].frist", "for [1] (did you mean `first`?)"),
        ("\"s\".starts_with?(\"a\")", "(did you mean `start_with?`?)"),
        ("1.upcase", "undefined method `upcase` for 1"),
        (
            "class A\n  def initialize = @name = \"x\"\n  def a = @nmae.upcase\nend",
            "for nil (`@nmae` is never assigned: did you mean `@name`?)",
        ),
    ] {
        let report = analyse(source, &Settings::default());
        let found = of_rule(&report, "call.undefined-method");
        assert_eq!(found.len(), 1, "{source}: {:?}", report.diagnostics);
        assert!(found[0].message.ends_with(expected), "{source}: {}", found[0].message);
    }
}

#[test]
fn unresolved_toplevel_names_what_was_meant() {
    // Kernel's private functions and this file's top-level `def`s.
    let source = "def helper_method(x) = x\npust \"x\"\nhelper_mehtod(1)\nfrobnicate(1)";
    let report = analyse(source, &Settings::default());
    let found: Vec<&str> = of_rule(&report, "call.unresolved-toplevel").iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        found,
        [
            "`pust` is called at the top level, but nothing defines it (did you mean `puts`?)",
            "`helper_mehtod` is called at the top level, but nothing defines it (did you mean `helper_method`?)",
            "`frobnicate` is called at the top level, but nothing defines it",
        ]
    );
}

#[test]
fn wrong_arity_says_the_counts_as_ruby_does() {
    // Overloads taking 1, 2 and 1 (`Hash#fetch`) are 1..2; ranges that
    // meet join, and apart they stay apart.
    for (source, expected) in [
        ("{ a: 1 }.fetch(:a, 1, 2)", "given 3, expected 1..2"),
        ("[1].rotate(1, 2)", "given 2, expected 0..1"),
        ("\"abc\".center", "given 0, expected 1..2"),
        ("1.clamp(1, 2, 3)", "given 3, expected 1..2"),
    ] {
        let report = analyse(source, &Settings::default());
        let found = of_rule(&report, "call.wrong-arity");
        assert_eq!(found.len(), 1, "{source}: {:?}", report.diagnostics);
        assert!(found[0].message.ends_with(expected), "{source}: {}", found[0].message);
    }
}

#[test]
fn wrong_arity_judges_keywords_as_ruby_3_binds_them() {
    // Each checked against Ruby 3.1: a finding where it raises
    // ArgumentError, with the words it says; silence where it runs (and
    // where the keys are not plain symbols, which is not judged).
    let class = "class K\n  def initialize(name:, price: 0) = nil\n  def tag(label, color: 1) = label\n  def rate(r:, floor: nil, **opts) = r\n  def plain(h) = h\n  def none(**nil) = 1\n  def opt(a, b = {}) = a\nend\n";
    let cases: &[(&str, Option<&str>)] = &[
        ("K.new(name: 1, cost: 3)", Some("unknown keyword: :cost (it takes name:, price:)")),
        ("K.new(price: 2)", Some("missing keyword: :name")),
        ("K.new", Some("missing keyword: :name")),
        ("K.new(\"c\", 2)", Some("given 2, expected 0; required keyword: name")),
        ("K.new(name: 1).tag(\"x\", colour: 2)", Some("unknown keyword: :colour (it takes color:)")),
        ("K.new(name: 1).tag(label: \"x\")", Some("given 0, expected 1")),
        ("K.new(name: 1).tag(\"x\", a: 1, b: 2)", Some("unknown keywords: :a, :b (it takes color:)")),
        ("K.new(name: 1).rate(0.5)", Some("given 1, expected 0; required keyword: r")),
        ("K.new(name: 1).plain(1, a: 2)", Some("given 2, expected 1")),
        ("K.new(name: 1).none(a: 1)", Some("no keywords accepted")),
        ("K.new(name: 1).tag(\"x\", {color: 2})", Some("given 2, expected 1")),
        ("K.new(name: 1, price: 2)", None),
        ("K.new(price: 2, name: 1)", None),
        ("K.new(name: 1).tag(\"x\", color: 2)", None),
        ("K.new(name: 1).rate(r: 1, anything: 2)", None),
        ("K.new(name: 1).plain(a: 2)", None),
        ("K.new(name: 1).plain(\"a\": 2, \"b-c\": 3)", None),
        ("K.new(name: 1).opt(1, x: 2)", None),
        ("o = { name: 1 }\nK.new(**o)", None),
        ("K.new(\"name\" => 1)", None),
        ("k = :name\nK.new(k => 1)", None),
        ("K.new(name: 1).none", None),
        ("def pr = proc { 1 }\nK.new(name: 1).rate(r: 1, &pr)", None),
    ];
    for (call, expected) in cases {
        let source = format!("{class}{call}");
        let report = analyse(&source, &Settings::default());
        let found = of_rule(&report, "call.wrong-arity");
        match expected {
            Some(expected) => {
                assert_eq!(found.len(), 1, "{call}: {:?}", report.diagnostics);
                assert!(found[0].message.ends_with(expected), "{call}: {}", found[0].message);
            }
            None => assert!(found.is_empty(), "{call}: {:?}", found),
        }
    }
}

#[test]
fn signatures_take_what_ruby_3_1_takes() {
    // Each ran under Ruby 3.1 (found probing operators and signatures);
    // rbs 2.1's signatures refused them (data/rbs_core_fixes.rbs).
    let sources = [
        "require \"ostruct\"\no = OpenStruct.new({ a: 1 })\nOpenStruct.new(nil)",
        "Time.at(0).localtime(3600)\nTime.at(0).localtime(nil)\nTime.at(0).getlocal(nil)",
        "IO.new(1, \"w\", autoclose: false)\nIO.new(1, nil, autoclose: false)",
        "r, w = IO.pipe\nr.sysread(1)\nr.fcntl(1)",
        "require \"stringio\"\nStringIO.new.write(\"a\", \"b\")",
        "Encoding::Converter.new(\"UTF-8\", \"UTF-16\")",
        "RUBY_REVISION + \"x\"\n\"rev: \" + RUBY_REVISION\nRUBY_REVISION.start_with?(\"4\")",
        "require \"date\"\nDate::GREGORIAN.nan?\nDate::JULIAN.infinite?",
        "f = File.open(__FILE__)\nf.seek(0, :SET)\nf.seek(0, :END)\nf.read(1, nil)\nf.readline(nil)\nf.set_encoding(nil)",
        "s = +\"ab\"\ns.chomp!(nil)\ns.scrub(nil)\n[[1]].flatten!(nil)",
        "File.expand_path(\"a\", nil)\nFile.absolute_path(\"a\", nil)\nDir.home(nil)\nMarshal.load(Marshal.dump(1), nil)",
        "require \"timeout\"\nrequire \"benchmark\"\nTimeout.timeout(1, nil) { 1 }\nBenchmark.bm(nil) { |x| x }",
        "require \"pathname\"\nrequire \"logger\"\nrequire \"csv\"\nrequire \"tempfile\"\npn = Pathname.new(\"/etc/hostname\")\nKernel.open(pn)\nFile::Stat.new(pn)\nLogger.new(pn)\nCSV.foreach(pn)\nTempfile.create(\"x\", Pathname.new(\"/tmp\"))",
    ];
    for source in sources {
        let report = analyse(source, &Settings::default());
        let calls: Vec<_> =
            report.diagnostics.iter().filter(|d| d.rule.is_some_and(|r| r.starts_with("call."))).collect();
        assert!(calls.is_empty(), "{source}: {calls:?}");
    }
}

#[test]
fn argument_type_mismatch() {
    let firing: &[Firing] = &[
        // The reference's example.
        ("\"abc\".center(nil)", &[(1, 7)]),
        ("\"abc\".center(\"x\")", &[(1, 7)]),
        ("\"abc\".center(3, nil)", &[(1, 7)]),
        ("[1].rotate(:a)", &[(1, 5)]),
        ("\"a\".start_with?(:a)", &[(1, 5)]),
        ("x = nil\n\"abc\".center(x)", &[(2, 7)]),
        ("\"abc\".center(1..2)", &[(1, 7)]),
        // Another class's `center` does not change String's.
        ("class Box\n  def center(x) = x\nend\n\"abc\".center(nil)", &[(4, 7)]),
        // `to_path` converts only where a path is taken.
        ("require \"pathname\"\n\"abc\".start_with?(Pathname.new(\"a\"))", &[(2, 7)]),
        // Operators: only a number's coerce the argument, and only with
        // an argument that has `coerce` (Ruby raises TypeError or
        // ArgumentError on each).
        ("\"total: \" + 3", &[(1, 11)]),
        ("\"a\" + :b", &[(1, 5)]),
        ("[1] + 1", &[(1, 5)]),
        ("[1, 2] - nil", &[(1, 8)]),
        ("\"ab\" * \"c\"", &[(1, 6)]),
        ("Time.now - \"1\"", &[(1, 10)]),
        ("1 + \"a\"", &[(1, 3)]),
        ("1 < nil", &[(1, 3)]),
        ("2 ** nil", &[(1, 3)]),
        ("1.5 * \"a\"", &[(1, 5)]),
    ];
    let silent = &[
        "if false\n  p(1 + \"a\")\nend",
        "x = false && 1 + \"a\"",
        "y = true ? 1 : 1 + \"a\"",
        // Written for another Ruby.
        "x = ::RUBY_VERSION < \"2\" ? 1.fdiv(\"2\") : 1",
        "\"abc\".center(3)",
        // Paths convert with `to_path`; signatures rbs 2.1 has too narrow
        // (Ruby runs each).
        "require \"pathname\"\nFile.read(Pathname.new(__FILE__))",
        "require \"pathname\"\nDir.exist?(Pathname.new(\"/tmp\"))",
        "File.read(File.open(__FILE__))",
        "StandardError.new(42)",
        "ArgumentError.new(:sym)",
        "File.open(__FILE__) { |f| f.gets(5) }",
        "File.readlines(__FILE__, 10)",
        "\"a\\nb\".lines(nil)",
        "Time.now.getlocal(\"+09:00\")",
        "1.0.coerce(\"2.5\")",
        // Floats convert to integers.
        "\"abc\".center(1.5)",
        "\"abc\".center(n)",
        "x = rand > 0.5 ? 1 : nil\n\"abc\".center(x)",
        // A number's operators leave it to the argument's `coerce`; every
        // object answers an equality; `<=>` answers nil.
        "1 + 2.5",
        "require \"bigdecimal\"\n1 + BigDecimal(\"1\")",
        "3 <=> \"a\"",
        "1.5 <=> nil",
        "\"a\" == 1",
        "[1] != nil",
        "class Meters\n  def coerce(n) = [Meters.new, self]\nend\n1 + \"a\"",
        "[1].push(nil)",
        "{ a: 1 }.fetch(:b, nil)",
        "\"a\".start_with?(\"a\", \"b\")",
        // `zip` takes anything with `each`, which rbs 2.1 denies.
        "[1, 2].zip(1..2)",
        "[1].zip([1].each)",
        "[1].zip(1..2, 3..4) { |pair| pair }",
        "[1].zip",
        // A nil separator is `$,`'s; a nil `ifnone` is none.
        "[1, 2].join(nil)",
        "{ a: 1 }.find(nil) { |k, v| v > 5 }",
        "(1..3).detect(nil) { |x| x > 5 }",
        // A project class may define a conversion.
        "class Width\n  def to_int = 3\nend\n\"abc\".center(Width.new)",
        "class Symbol\n  def to_str = to_s\nend\n\"a\".start_with?(:a)",
        "\"abc\".center(*[nil])",
        // Arrays and hashes: C functions often flatten them.
        "File.join([\"a\", \"b\"])",
        "\"abc\".center([1])",
        "\"abc\".send(:center, nil)",
        "require \"some_gem\"\n\"abc\".center(nil)",
        // Ruby 3's idioms: visibility of the names an attribute macro returns.
        "class Box\n  private attr_reader :size\n  protected attr_writer :size\n  private_class_method [:new]\nend",
        // A named capture by Symbol (see data/rbs_core_fixes.rbs).
        "s = String.new(\"darwin13\")\ns[/darwin(?<major>\\d+)/, :major]\ns.slice(/(?<a>a)/, :a)\ns.slice!(/(?<a>a)/, :a)",
        // An error's name may be a Symbol.
        "raise NoMethodError.new(nil, :times)",
        // A class made at run time may be an exception class (celluloid).
        "DeadError = Class.new(StandardError)\nbegin\n  ::Kernel.raise DeadError, \"dead\"\nrescue DeadError\nend",
        // The default libraries' signatures, as Ruby 3.1 takes them.
        "require \"json\"\nJSON.load(nil)\nJSON.parse(\"[1]\", nil)\n1.to_json(nil)",
        "require \"pathname\"\nPathname.new(\"a\").expand_path(Pathname.new(\"/tmp\"))\nPathname.new(\"f\").utime(nil, nil)\nPathname.new(\"a\").write(Process.pid)",
        "require \"shellwords\"\nShellwords.escape(1)\nrequire \"securerandom\"\nSecureRandom.random_number(1..6)",
        "require \"strscan\"\ns = StringScanner.new(\"ab\")\ns.scan(/(?<n>a)/)\ns[:n]",
        "require \"logger\"\nl = Logger.new(nil)\nl.level = :info\nl.add(nil, \"x\")",
        "require \"date\"\nDateTime.now.new_offset(Rational(9, 24))\nDateTime.new(2020, 1, 1, 10, 0, 0, \"+09:00\")",
    ];
    check("call.argument-type-mismatch", Severity::Error, firing, silent, true);
}

#[test]
fn possible_nil_receiver() {
    let firing: &[Firing] = &[
        ("def m(flag)\n  s = nil\n  s = \"x\" if flag\n  s.upcase\nend", &[(4, 5)]),
        ("def m(f)\n  n = nil\n  n = 1 if f\n  n + 1\nend", &[(4, 5)]),
        ("def m(f)\n  a = nil\n  if f\n    a = [1]\n  end\n  a.push(2)\nend", &[(6, 5)]),
        ("def m(f)\n  s = nil\n  s = \"a\" unless f\n  s.strip\nend", &[(4, 5)]),
        ("def m(f)\n  s = nil\n  while f\n    s = \"a\"\n  end\n  s.strip\nend", &[(6, 5)]),
        // The reference's example: a signature's optional return.
        ("def m\n  s = String.new\n  p = s.byteslice(0, 2)\n  p.upcase\nend", &[(4, 5)]),
        ("ENV[\"HOME\"].upcase", &[(1, 13)]),
        ("def m(s)\n  i = \"abc\".index(s)\n  i + 1\nend", &[(3, 5)]),
        // An attribute read again after other code ran, or a method that is
        // no reader, may give nil again.
        ("class Box\n  attr_reader :name\n  def initialize(f) = @name = f ? \"x\" : nil\nend\ndef m(f)\n  b = Box.new(f)\n  return unless b.name\n  puts \"x\"\n  b.name.upcase\nend", &[(9, 10)]),
        ("class Box\n  def initialize(f) = @f = f\n  def name = @f ? \"x\" : nil\nend\ndef m(f)\n  b = Box.new(f)\n  b.name.upcase if b.name\nend", &[(7, 10)]),
        ("require \"uri\"\ndef m(s)\n  u = URI.parse(s)\n  return unless u.host\n  u.host = nil\n  u.host.upcase\nend", &[(6, 10)]),
        ("require \"uri\"\ndef m(s)\n  u = URI.parse(s)\n  return unless u.user\n  u.userinfo = nil\n  u.user.upcase\nend", &[(6, 10)]),
        // A default library's signature (strscan): a scan that may fail.
        ("require \"strscan\"\ndef m(t)\n  s = StringScanner.new(t)\n  s.scan(/a/).upcase\nend", &[(4, 15)]),
        // One report per nil: after `a.push(2)` returns, `a` was not nil.
        ("def m(f)\n  a = f ? nil : [1]\n  a.push(2)\n  a.size\nend", &[(3, 5)]),
        ("class C\n  def initialize(f) = @a = f ? nil : [1]\n  def m\n    @a.first\n    @a.last\n  end\nend", &[(4, 8)]),
        // Any method nil lacks: a bang method, Proc's, IO's.
        ("def m(f)\n  s = f ? nil : String.new(\"x\")\n  s.upcase!\n  s.size\nend", &[(3, 5)]),
        ("def m(&blk)\n  blk.arity\n  blk.call\nend", &[(2, 7)]),
        ("def m(f)\n  io = f ? nil : File.open(f)\n  io.read\n  io.close\nend", &[(3, 6)]),
        // StringScanner's, and after a call whose argument is a regexp literal.
        ("require \"strscan\"\ndef m(f)\n  s = f ? nil : StringScanner.new(f)\n  s.pos\n  s.string\nend", &[(4, 5)]),
        ("require \"strscan\"\ndef m(f)\n  s = f ? nil : StringScanner.new(f)\n  s.check_until(/x/)\n  s.rest\nend", &[(4, 5)]),
        ("def m(f)\n  io = f ? nil : File.open(f)\n  io.flock(File::LOCK_EX)\n  io.close\nend", &[(3, 6)]),
        // But not where the call may have raised, or something wrote it since.
        // (The rescued call itself is not reported: it handles the error.)
        ("def m(f)\n  a = f ? nil : [1]\n  a.size rescue nil\n  a.first\nend", &[(4, 5)]),
        ("def m(f)\n  a = f ? nil : [1]\n  a.push(1)\n  [1].each { a = nil if f }\n  a.size\nend", &[(3, 5), (5, 5)]),
        ("def m(f, g)\n  a = f ? nil : [1]\n  a.push(a = g ? nil : [2])\n  a.size\nend", &[(3, 5), (4, 5)]),
        // Nor where the project gives nil the method: then only `size` raises.
        ("class NilClass\n  def push(*) = self\nend\ndef m(f)\n  a = f ? nil : [1]\n  a.push(2)\n  a.size\nend", &[(7, 5)]),
        // A nil default still reaches the read past a conditional write.
        ("def m(x = nil)\n  x = \"s\" if rand > 0.5\n  x.upcase\nend", &[(3, 5)]),
        // One of several shapes destructured: each place holds any of theirs.
        ("def m(f)\n  x, y = f ? [1] : [2, 3]\n  y + 1\nend", &[(3, 5)]),
        // A named group the match may skip.
        ("def m(s)\n  if /(?<n>\\d+)(?<u>px)?/ =~ s\n    u.upcase\n  end\nend", &[(3, 7)]),
        // (A literal's own elements are there: see the silent list.)
        ("def m(words)\n  [\"a\", \"b\"].first(1)\n  %w[a b].select(&:frozen?).sample.upcase\nend", &[(3, 36)]),
        // A block parameter is nil when no block is given.
        ("def m(&blk)\n  blk.arity\nend", &[(2, 7)]),
        // `block_given?` speaks of the block parameter only while it holds the block.
        ("def m(&blk)\n  blk = nil if rand > 0.5\n  blk.arity if block_given?\nend", &[(3, 7)]),
        // Conditionals without `else` give nil.
        ("def m(f)\n  s = (\"x\" if f)\n  s.upcase\nend", &[(3, 5)]),
        ("def m(b)\n  r = b.nil? ? nil : \"x\"\n  r.upcase\nend", &[(3, 5)]),
        // `ensure` runs after File.open raised too, with the local unset.
        ("def m(path)\n  f = File.open(path)\n  f.read\nensure\n  f.close\nend", &[(5, 5)]),
        // A guard on another variable guards nothing.
        ("def m\n  a = ENV[\"A\"]\n  b = ENV[\"B\"]\n  return unless a\n  b.upcase\nend", &[(5, 5)]),
        // Outside `initialize` a guard that raises leaves the object with nil.
        // (A constant hash not frozen may hold anything: only a frozen one
        // keeps what its literal says.)
        ("class T\n  MAP = { a: \"x\" }.freeze\n  def reset(k)\n    @v = MAP[k]\n    @v || raise(\"no\")\n  end\n  def m = @v.upcase\nend", &[(7, 14)]),
        // `key?` says the key is there, not that its value is not nil.
        ("def m(k)\n  h = { a: nil, b: 1 }\n  h[k] + 1 if h.key?(k)\nend", &[(3, 8)]),
        // A fluent setter `initialize` calls first, which reads the ivar.
        ("class C\n  def initialize\n    update\n    @a = []\n  end\n  def m = @a << 1\n  def update\n    m\n    self\n  end\nend", &[(6, 14)]),
        // A closure `initialize` calls before the write runs the object's code.
        ("class C\n  def initialize\n    @p = lambda { get }\n    @p.call\n    @y = [1]\n  end\n  def get = @y.size\nend", &[(7, 16)]),
        // A multiple assignment in a branch that may not run.
        ("class C\n  def initialize(f)\n    @a, @b = 1, [2] if f\n  end\n  def m = @b.size\nend", &[(5, 14)]),
        // A guard on a read says nothing once other code may have changed it.
        ("def m\n  if ENV[\"P\"]\n    puts \"hi\"\n    ENV[\"P\"].split\n  end\nend", &[(4, 14)]),
        ("def m\n  v = ENV[\"Z\"]\n  ENV[\"Z\"] = nil\n  ENV[\"Z\"].size if ENV[\"Z\"] || v\nend", &[(4, 12)]),
        ("def m\n  if ENV[\"A\"]\n    [1].each { ENV[\"A\"].size }\n  end\nend", &[(3, 25)]),
        // A key the hash may not hold gives nil (a literal hash has no default).
        ("def m(k)\n  v = { \"a\" => \"b\" }[k]\n  v.upcase\nend", &[(3, 5)]),
        ("TABLE = { \"a\" => 1 }\ndef m(k) = TABLE[k] + 1", &[(2, 21)]),
        // A nil default, and an instance variable that may be unset.
        ("def m(s = nil)\n  s = \"x\" if rand > 0.5\n  s.upcase\nend", &[(3, 5)]),
        ("class C\n  def set = @s = \"x\"\n  def m = @s.upcase\nend", &[(3, 14)]),
        // An emptiness guard holds until the array may change.
        ("def m\n  a = [1, 2].select(&:odd?)\n  return 0 if a.empty?\n  a.pop\n  a.first + 1\nend", &[(5, 11)]),
        ("def m(b)\n  a = [1, 2].select(&:odd?)\n  return 0 if b.empty?\n  a.first + 1\nend", &[(4, 11)]),
        ("def m\n  a = [1, 2].select(&:odd?)\n  a.size == 0 ? a.last * 2 : 0\nend", &[(3, 24)]),
        // Or while the project may give an Array (or every object) an
        // element read or take of its own: in Array, Enumerable, Object,
        // or through a name that may stand for Array.
        ("class Array\n  def shift = 1\nend\ndef m\n  a = [1].select(&:odd?)\n  a.first + 1 if a.size > 0\nend", &[(6, 11)]),
        // Nor where the count or the comparison is the project's (Ruby
        // 3.1 raises NoMethodError on nil here).
        ("class Array\n  def size = 1\nend\ndef m\n  a = [1].select(&:even?)\n  a.first + 1 if a.size > 0\nend", &[(6, 11)]),
        ("class Array\n  def length = 1\nend\ndef m\n  a = [1].select(&:even?)\n  a.last + 1 if a.length > 0\nend", &[(6, 10)]),
        ("class Integer\n  def >(other) = true\nend\ndef m\n  a = [1].select(&:even?)\n  a.first + 1 if a.size > 0\nend", &[(6, 11)]),
        ("module Enumerable\n  def first = (rand > 0.5 ? nil : 1)\nend\ndef m\n  a = [1].select(&:odd?)\n  a.first + 1 if a.size > 0\nend", &[(6, 11)]),
        ("class Object\n  def first = (rand > 0.5 ? nil : 1)\nend\ndef m\n  a = [1].select(&:odd?)\n  a.first + 1 if a.size > 0\nend", &[(6, 11)]),
        ("module M\n  def first = (rand > 0.5 ? nil : 1)\nend\nList = Array\nList.prepend(M)\ndef m\n  a = [1].select(&:odd?)\n  a.first + 1 if a.size > 0\nend", &[(8, 11)]),
        // Rows of a literal taken apart: a shorter row leaves nil.
        ("[[1, 2], [3]].each { |a, b| b + 1 }", &[(1, 31)]),
        // A hash row the block changed may lack the key.
        ("[{ a: 1 }].each { |h| h.delete(:a); h[:a] + 1 }", &[(1, 43)]),
        // Printing once `$stdout` may be the program's own object, or in a
        // top-level method (whose `self` may define `puts`), or a helper.
        ("$stdout = Object.new\nclass B\n  def m\n    a = [1, 3].select(&:odd?)\n    return if a.empty?\n    puts \"x\"\n    a.first + 1\n  end\nend", &[(7, 13)]),
        ("def m\n  a = [1, 3].select(&:odd?)\n  return if a.empty?\n  puts \"x\"\n  a.first + 1\nend", &[(5, 11)]),
        ("class B\n  def m\n    a = [1, 3].select(&:odd?)\n    return if a.empty?\n    helper\n    a.first + 1\n  end\n  def helper = 1\nend", &[(6, 13)]),
        // `warn`, like `puts`, runs no project code given core values,
        // unless the project gives `warn` a body (fixtures `nil_rule/*warn*`).
        ("class A\n  def initialize = @n = ENV[\"H\"]\n  def go\n    return unless @n\n    warn \"hi\"\n    @n.upcase\n  end\nend", &[]),
        ("def m\n  a = [1, 3].select(&:odd?)\n  return if a.empty?\n  a = [1].select(&:even?)\n  a.first + 1\nend", &[(5, 11)]),
        // A local's rows of two lengths, or rows read after code that may
        // change them ran.
        ("r = [[1, 2], [3]]\nr.each { |a, b| b + 1 }", &[(2, 19)]),
        ("r = [[1, 2], [3, 4]]\nr.size\nr.each { |a, b| b + 1 }", &[(3, 19)]),
        // A window that lost an element, or slices (the last may be short).
        ("[1, 2, 3].each_cons(2) { |w| w.pop; w.last + 1 }", &[(1, 44)]),
        ("[1, 2, 3].each_slice(2) { |a, b| a + b }", &[(1, 36)]),
        ("[1, 2, 3].each_slice(2).map { |a, b| a + b }", &[(1, 40)]),
        // A zip whose argument may run out fills the rest with nil.
        ("[1, 2, 3].zip([3, 4]).map { |a, b| b - a }", &[(1, 38)]),
        ("[1, 2].zip([nil, 4]).map { |a, b| b - a }", &[(1, 37)]),
        ("[[1, 2], [3]].each_with_index { |(a, b), i| b + i }", &[(1, 47)]),
        // An own helper that may return before it assigns leaves the ivar
        // as the class has it.
        ("class C\n  def initialize = @conn = nil\n  def maybe!(f)\n    return if f\n    @conn = \"m\"\n  end\n  def run(f)\n    maybe!(f)\n    @conn.upcase\n  end\nend", &[(9, 11)]),
        // `catch`'s block may be left by a `throw` before it assigns.
        ("def m(flag)\n  res = nil\n  catch(:x) { throw :x if flag; res = \"c\" }\n  res.upcase\nend", &[(4, 7)]),
        // Rows of different lengths through an enumerator: Ruby raises.
        ("[[\"x\", \"a\"], [\"y\"]].map.with_index(1) { |(n, s), i| s.upcase }", &[(1, 55)]),
        // A `&block` assigned in the method, or called where no `yield`
        // surely ran before, may be nil.
        ("def e(&b)\n  b = nil if rand > 2\n  yield 0\n  b.call(3)\nend", &[(4, 5)]),
        ("def g(&b)\n  yield 1 if rand > 0.5\n  b.call(2)\nend", &[(3, 5)]),
    ];
    let silent = &[
        // An emptiness guard: the element reads give an element (Ruby runs
        // each).
        // Another core class's `shift` or `first` is not Array's (stdlib's
        // `YAML::DBM#shift` turned the guard off for every array).
        "require \"set\"\nclass Set\n  def shift\n    x = first\n    delete(x)\n    x\n  end\nend\ndef m\n  a = [1].select(&:odd?)\n  a.first + 1 if a.size > 0\nend",
        "class Set\n  def [](*a) = a\nend\ndef m(s, n)\n  s = s.to_s\n  s[..n].size\nend",
        "def m\n  a = [1, 2].select(&:odd?)\n  return 0 if a.empty?\n  a.first + 1\nend",
        "def m\n  a = [1, 2].select(&:odd?)\n  a.empty? ? 0 : a.last + 1\nend",
        "def m\n  a = [1, 2].select(&:odd?)\n  a.any? ? a.max + 1 : 0\nend",
        "def m\n  a = [1, 2].select(&:odd?)\n  a.first + 1 unless a.empty?\nend",
        "def m\n  a = [1, 2].select(&:odd?)\n  a.min + 1 if !a.empty?\nend",
        "def m\n  a = [1, 2].select(&:odd?)\n  a.size > 0 ? a.last * 2 : 0\nend",
        "def m\n  a = [1, 2].select(&:odd?)\n  return 0 if a.length.zero?\n  a.first * 2\nend",
        "def m\n  a = [1, 2].select(&:odd?)\n  a.size == 2 ? a.first * 2 : 0\nend",
        // Rows of a literal array taken apart, or a hash row read as it is
        // (Ruby runs each).
        "[[1, \"a\"], [2, \"b\"]].to_h { |n, s| [s, n + 1] }",
        "[[1, \"a\"], [2, \"b\"]].map { |n, s| n + s.size }",
        "[{ name: \"a\", age: 1 }].sum { |u| u[:age] * 2 }",
        // Printing core values, or assigning another local, between the
        // guard and the read (Ruby runs each).
        "class B\n  def m\n    a = [1, 3].select(&:odd?)\n    return if a.empty?\n    puts \"x\"\n    print 1, :s\n    a.first + 1\n  end\nend",
        "def m\n  a = [1, 3].select(&:odd?)\n  return if a.empty?\n  x = \"abc\".size\n  a.first + x\nend",
        "class A\n  def initialize = @n = ENV[\"H\"]\n  def go\n    return unless @n\n    puts \"hi\"\n    @n.upcase\n  end\nend",
        // Picks from a literal array, a named class's name (Ruby runs each).
        "%w[a b c].sample.upcase",
        "mn, mx = [5, 3, 9].minmax\nmn + mx",
        "class Dog; end\nDog.name.downcase",
        // A local fresh from a literal of rows (Ruby runs each).
        "pairs = [[1, 2], [3, 4]]\npairs.each { |a, b| puts a + b }",
        "users = [{ name: \"a\", age: 30 }]\nusers.select { |u| u[:age] > 18 }",
        "def m\n  rows = [[1, \"a\"]]\n  x = 2\n  rows.map { |n, s| n * x + s.size }\nend",
        // `each_cons(n)` windows hold exactly n elements (Ruby runs each).
        "[1, 2, 3].each_cons(2) { |a, b| a + b }",
        "[1, 2, 3].each_cons(2) { |w| w.first + w.last }",
        // The same windows, pairs and rows through an enumerator.
        "[1, 2, 3].each_cons(2).map { |a, b| b - a }",
        "[1, 2, 3].each_cons(2).map { |w| w.last - w.first }",
        "[1, 2, 3].combination(2).map { |a, b| b - a }",
        "[1, 2, 3].permutation(2).select { |a, b| b > a }",
        "[1, 2, 3].combination(2) { |a, b| b - a }",
        "[1, 2].zip([3, 4]).map { |a, b| b - a }",
        "[[1, 2]].each_with_index { |(a, b), i| b - a + i }",
        // An own helper called just before leaves the ivar what it
        // assigned (Ruby runs each).
        "class C\n  def initialize = @conn = nil\n  def connect! = @conn = \"c\"\n  def run\n    connect!\n    @conn.upcase\n  end\nend",
        "class C\n  def initialize = @conn = nil\n  def ensure_conn\n    @conn ||= \"e\"\n  end\n  def run\n    ensure_conn\n    @conn.upcase\n  end\nend",
        "class C\n  def initialize = @conn = nil\n  def connect! = @conn = \"c\"\n  def run\n    connect! if @conn.nil?\n    @conn.upcase\n  end\nend",
        // A block the core runs before the call returns assigns for sure
        // (Ruby runs each).
        "def m(lock)\n  res = nil\n  Mutex.new.synchronize { res = \"sync\" }\n  res.upcase\nend",
        "def m\n  res = nil\n  tap { res = \"t\" }\n  res.upcase\nend",
        "def m\n  res = nil\n  Dir.chdir(\"/tmp\") { res = \"d\" }\n  res.upcase\nend",
        "def m\n  res = nil\n  File.open(\"/dev/null\") { |f| res = f.path }\n  res.upcase\nend",
        // Rows taken apart through an enumerator made of them there (Ruby
        // runs each; `each_with_index.map`'s block gets the row and the
        // index as two values).
        "[[1, \"a\"], [2, \"b\"]].map.with_index(1) { |(n, s), i| n + i }",
        "def m\n  rows = [[1, \"a\"]]\n  rows.each_with_index.map { |(n, s), i| n + i + s.size }\nend",
        "[[1, 2]].each.with_object([]) { |(a, b), acc| acc << b - a }",
        "[[1, 2]].select.with_index { |(a, b), i| a + b > i }",
        "[[1, \"a\"]].each_with_index.map { |(n, s)| s.upcase }",
        // Past a `yield` the method's `&block` holds the block given.
        "def d(&b)\n  yield 0\n  b.call(3)\nend",
        // An inherited `initialize` runs the subclass's hook first.
        "class Base\n  def initialize\n    after_init\n  end\n  def after_init; end\nend\nclass Kid < Base\n  def after_init\n    @list = []\n  end\n  def add(v) = @list << v\nend",
        "[[1, 2]].each_with_object([]) { |(a, b), acc| acc << b - a }",
        "def m = [3, 1, 2].sort.each_cons(3).to_a.size + [1, 2].each_cons(2) { |(a, b)| a * b }.size",
        "def m(flag)\n  s = nil\n  s = \"x\" if flag\n  s.upcase if s\nend",
        "def m(flag)\n  s = nil\n  s = \"x\" if flag\n  s&.upcase\nend",
        "def m(flag)\n  s = nil\n  s = \"x\" if flag\n  s.to_s\nend",
        "def m(flag)\n  s = nil\n  s = \"x\" if flag\n  return unless s\n  s.upcase\nend",
        "def m(flag)\n  s = nil\n  s = \"x\" if flag\n  s ||= \"y\"\n  s.upcase\nend",
        "def m(flag)\n  s = nil\n  s = \"x\"\n  s.upcase\nend",
        "def m(flag)\n  s = nil\n  s = \"x\" if flag\n  s.nil? ? 0 : s.size\nend",
        "def m(flag)\n  s = nil\n  s = foo if flag\n  s.upcase\nend",
        // Guards, each as the narrowing understands it.
        "def m\n  h = ENV[\"HOME\"]\n  h.upcase if h\nend",
        "def m\n  h = ENV[\"HOME\"]\n  h.upcase unless h.nil?\nend",
        "def m\n  h = ENV[\"HOME\"]\n  return if h.nil?\n  h.upcase\nend",
        "def m\n  h = ENV[\"HOME\"]\n  raise \"no\" unless h\n  h.upcase\nend",
        "def m\n  h = ENV[\"HOME\"] or raise \"no\"\n  h.upcase\nend",
        "def m\n  h = ENV[\"HOME\"] || return\n  h.upcase\nend",
        "def m\n  (h = ENV[\"HOME\"]) || return\n  h.upcase\nend",
        "def m\n  h = ENV[\"HOME\"]\n  h or return\n  h.upcase\nend",
        "def m\n  h = ENV[\"HOME\"]\n  h && h.upcase\nend",
        "def m\n  h = ENV[\"HOME\"]\n  g = ENV[\"G\"]\n  h && g && h.upcase + g.upcase\nend",
        "def m\n  h = ENV[\"HOME\"]\n  !h.nil? && h.upcase\nend",
        "def m\n  h = ENV[\"HOME\"]\n  h.upcase if !h.nil?\nend",
        "def m\n  h = ENV[\"HOME\"]\n  h.nil? ? \"\" : h.upcase\nend",
        "def m\n  h = ENV[\"HOME\"]\n  h ? h.upcase : \"\"\nend",
        "def m\n  h = ENV[\"HOME\"]\n  h.upcase if h.is_a?(String)\nend",
        "def m\n  h = ENV[\"HOME\"]\n  h.upcase if h.kind_of?(String)\nend",
        "def m\n  h = ENV[\"HOME\"]\n  h.upcase if h.instance_of?(String)\nend",
        "def m\n  h = ENV[\"HOME\"]\n  case h\n  when String then h.upcase\n  end\nend",
        "def m\n  h = ENV[\"HOME\"]\n  case h\n  in String then h.upcase\n  else nil\n  end\nend",
        "def m\n  h = ENV[\"HOME\"]\n  case h\n  in nil then 1\n  in x then x.upcase\n  end\nend",
        "def m(s)\n  if (m = /a/.match(s))\n    m.begin(1)\n  end\nend",
        "def m(s)\n  if (i = s.index(\"a\")) && i > 1\n    i + 1\n  end\nend",
        "def m(s)\n  while (line = s.gets)\n    line.chomp\n  end\nend",
        "def m(xs)\n  xs.each do |x|\n    h = ENV[x]\n    next unless h\n    h.upcase\n  end\nend",
        "def m(xs)\n  loop do\n    h = ENV[\"A\"]\n    break if h.nil?\n    h.upcase\n  end\nend",
        "def m\n  h = ENV[\"HOME\"]\n  unless h\n    raise ArgumentError\n  end\n  h.upcase\nend",
        "def m\n  h = ENV[\"HOME\"]\n  if h.nil?\n    return 0\n  else\n    h.upcase\n  end\nend",
        "def m\n  h = ENV[\"HOME\"]\n  h = \"x\" if h.nil?\n  h.upcase\nend",
        "def m\n  h = ENV.fetch(\"HOME\")\n  h.upcase\nend",
        "def m\n  h = ENV[\"A\"]\n  return if nil == h\n  h.upcase\nend",
        "def m\n  return if (h = ENV[\"A\"]).nil?\n  h.upcase\nend",
        "def m\n  h = ENV[\"A\"]\n  h.to_s.empty? ? nil : h.upcase\nend",
        "def m\n  h = ENV[\"A\"]\n  return if h.nil? || h.empty?\n  h.upcase\nend",
        "def m\n  h = ENV[\"A\"]\n  h.nil? and return\n  h.upcase\nend",
        "def m\n  h = ENV[\"A\"]\n  return unless h&.size\n  h.upcase\nend",
        // Making a closure runs none of it (sshkit's `@mapping_proc = case
        // mapping when Hash then lambda do ... end when Proc ... end`).
        "class C\n  def initialize(m)\n    @p = case m\n      when Hash then lambda { |x| m.find { |k, _| k == x } }\n      else proc { 1 }\n    end\n  end\n  def run(d) = @p.call(d)\nend",
        // A multiple assignment in `initialize` assigns every target
        // (commander's `@args, @commands, @aliases, @options = args, {}, {}, []`).
        "class C\n  def initialize(args)\n    @args, @commands, (@x, *@rest) = args, {}, [1]\n  end\n  def m(n) = @commands[n]\n  def r = @rest.size\nend",
        // An ivar `initialize` guards right after writing it: the object
        // exists only if the guard passed (chronic's `@range || raise(...)`).
        "class R\n  P = { am: 0..1 }.freeze\n  def initialize(t)\n    @range = P[t]\n    @range || raise(\"bad #{t}\")\n  end\n  def first = @range.begin\nend",
        "class S\n  MAP = { a: \"x\" }.freeze\n  def initialize(k)\n    @v = MAP[k]\n    raise ArgumentError unless @v\n    @w = MAP[k]\n    raise ArgumentError if @w.nil?\n  end\n  def m = @v.upcase + @w.upcase\nend",
        // `x&.include?(y)` true: x was not nil.
        "def m(x)\n  a = [1, 2] if x\n  a.size if a&.include?(1)\nend",
        // `h.key?(k)` says `h[k]` is a value the hash holds.
        "TYPES = { a: [1], b: [2] }.freeze\ndef m(from)\n  if TYPES.key? from\n    TYPES[from].each { |x| x }\n  end\nend",
        "def m(k)\n  r = { a: String }\n  raise ArgumentError unless r.has_key?(k)\n  r[k].new\nend",
        // A fluent setter (it returns `self`) that `initialize` calls before
        // assigning: it hands the object back to `initialize` alone.
        "class C\n  def initialize(r = 0)\n    update(r)\n    @a = []\n  end\n  def m = @a << 1\n  def update(x)\n    @x = x\n    self\n  end\nend",
        // A guard on a read that gives the same value until other code runs
        // (`[]` with literal or local keys on a constant, local or ivar).
        "def m\n  ENV[\"X\"] && !ENV[\"X\"].empty?\nend",
        "def m\n  return if ENV[\"T\"].nil? || ENV[\"T\"].empty?\n  ENV[\"T\"].upcase\nend",
        "def m\n  ENV[\"P\"].split(\",\") if ENV[\"P\"]\nend",
        "def m\n  return unless ENV[\"Q\"]\n  ENV[\"Q\"].size\nend",
        "def m(patterns, line)\n  patterns[:x] && patterns[:x].match?(line)\nend",
        "TABLE = { a: \"x\" }\ndef m(k)\n  TABLE[k].upcase if TABLE[k]\nend",
        // A nil-default parameter written over on every path holds what
        // was written (here untyped, from an untyped hash's `first`).
        "def m(role: nil, database: nil)\n  if database.is_a?(Hash)\n    role, database = database.first\n    role.to_sym\n  end\nend",
        // A named group every match passes through holds a String.
        "def m(s)\n  if /(?<n>\\d+)(?<u>px)?/ =~ s\n    n.succ\n  end\nend",
        "def m(s)\n  return unless /\\A(?<size>tiny|long)(?:text|blob)/ =~ s\n  size.to_sym\nend",
        // `block_given?` says the block parameter holds a Proc.
        "def m(&blk)\n  blk.arity if block_given?\nend",
        "def m(&blk)\n  return enum_for(:m) unless block_given?\n  blk.call(1)\nend",
        "def m(&blk)\n  block_given? ? blk.call : 0\nend",
        "def m(&blk)\n  [1].map { |x| blk.call(x) } if block_given?\nend",
        // The last match: set by a match the code checked.
        "def m(s)\n  return unless s =~ /(a)/\n  $1.upcase\nend",
        "def m(s)\n  return unless s =~ /(a)/\n  v = $1\n  v.upcase\nend",
        "def m(s)\n  return unless s =~ /(a)(b)/\n  a, b = $1, $2\n  a.upcase\nend",
        "def m(s)\n  s.gsub(/a/) { $&.upcase }\nend",
        "def m(s)\n  return unless s =~ /(a)/\n  Regexp.last_match(1).upcase\nend",
        "def m(h)\n  $~.begin(0)\nend",
        "def m(s)\n  return unless s =~ /(a)/\n  start, stop = $~.offset(1)\n  stop + 1\nend",
        "def m(s)\n  while s =~ /(a)/\n    r = Regexp.last_match(1).dup\n    r.sub!(\"a\", \"b\")\n  end\nend",
        // An attribute reader gives what it gave until other code runs.
        "class Box\n  attr_reader :name\n  def initialize(f) = @name = f ? \"x\" : nil\nend\ndef m(f)\n  b = Box.new(f)\n  b.name.upcase if b.name\n  b.name && b.name.size\n  return if b.name.nil?\n  b.name.strip\nend",
        "require \"uri\"\ndef m(s)\n  u = URI.parse(s)\n  u.host.upcase if u.host\n  return unless u.path\n  u.path.size\nend",
        // `user` and `password` are readers too (`def user; @user; end`).
        "require \"uri\"\ndef m(s)\n  u = URI.parse(s)\n  u.user && !u.user.empty?\n  u.password.size if u.password\nend",
        // A StringScanner's last match, read where the scan succeeded.
        "require \"strscan\"\ndef m(t)\n  s = StringScanner.new(t)\n  s.matched.upcase if s.scan(/a/)\n  s[1].size if s.scan(/(b)/)\n  s.pre_match.size if s.skip_until(/c/)\nend",
        // Group 0 is always there; `IO#read` to the end is never nil.
        "def m(s)\n  m = /a/.match(s)\n  return unless m\n  m.begin(0) + 1\nend",
        "def m(path)\n  File.open(path) { |f| f.read }.upcase\nend",
        // A literal that opens the body is set before anything can raise.
        "def m(path)\n  a = []\n  a << File.read(path)\nensure\n  a.clear\nend",
        // A parameter with a non-nil default is untyped until call sites are known.
        "def m(s = \"\")\n  s = \"x\" if rand > 0.5\n  s.upcase\nend",
        // A hash made with a default value or block has an untyped value type.
        "def m(k)\n  h = Hash.new(0)\n  h[k] += 1\n  g = Hash.new { |hh, kk| hh[kk] = [] }\n  g[k] << 1\nend",
        "def m(words)\n  counts = {}\n  words.each do |w|\n    counts[w] ||= 0\n    counts[w] += 1\n  end\nend",
        // Object state a subclass may set where this class cannot see.
        "class C\n  def set = @s = \"x\"\n  def m = @s.upcase\nend\nclass D < C; end",
        "class C\n  def initialize = @s = \"x\"\n  def m = @s.upcase\nend",
    ];
    check("call.possible-nil-receiver", Severity::Error, firing, silent, true);
}
