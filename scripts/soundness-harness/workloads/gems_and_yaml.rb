# RubyGems' version and requirement logic, Psych (YAML), Ripper, DidYouMean.
require "rubygems"
require "yaml"
require "ripper"
require "did_you_mean"

v = Gem::Version.new("1.2.3.pre")
v.prerelease?
v.release
v.bump
v.segments
v.canonical_segments
v.approximate_recommendation
(v <=> Gem::Version.new("1.2")) 
Gem::Version.correct?("1.0")
Gem::Version.create("2.0")
v.to_s
v.eql?(Gem::Version.new("1.2.3.pre"))
Gem::Version.new("1.10") > Gem::Version.new("1.9")
r = Gem::Requirement.new("~> 1.2", ">= 1.2.1")
r.satisfied_by?(Gem::Version.new("1.2.5"))
r.as_list
r.none?
r.exact?
r.specific?
Gem::Requirement.parse("= 1.0")
Gem::Requirement.default
Gem::Requirement.create(">= 0")
d = Gem::Dependency.new("rake", "~> 13.0")
d.match?("rake", "13.0.1")
d.to_s
d.requirement
d.runtime?
Gem::Platform.new("x86_64-linux")
Gem::Platform.local.to_s
Gem::Platform.new("x86_64-linux") == Gem::Platform.new("x86_64-linux")
Gem::Platform.new(["x86", "mingw32", nil]).to_a

doc = { "name" => "x", "list" => [1, 2.5, nil, true, :sym, "a: b"], "nested" => { "k" => "2001-01-01" } }
yaml = doc.to_yaml
YAML.load(yaml)
YAML.safe_load("- 1\n- two\n- 3.0\n- ~\n- true\n")
YAML.load_stream("--- 1\n--- 2\n")
YAML.dump([1, "two", { "three" => 3 }])
Psych.parse("a: [1, 2]").to_ruby
Psych::ScalarScanner.new(Psych::ClassLoader.new).tokenize("12")
Psych::ScalarScanner.new(Psych::ClassLoader.new).tokenize("1.5")
Psych::ScalarScanner.new(Psych::ClassLoader.new).tokenize("true")
Psych::ScalarScanner.new(Psych::ClassLoader.new).tokenize("null")
Psych::ScalarScanner.new(Psych::ClassLoader.new).tokenize("plain")
Psych::ScalarScanner.new(Psych::ClassLoader.new).tokenize(":sym")
Psych.safe_dump({ "a" => 1 })
YAML.load("x: 2020-01-02 03:04:05", permitted_classes: [Time]) rescue nil

src = "def m(a, b = 1) = a + b\nx = [1, 2].map { |y| y * 2 }\n"
Ripper.lex(src)
Ripper.tokenize(src)
Ripper.sexp(src)
Ripper.sexp_raw(src)
Ripper::Lexer.new(src).lex
Ripper::Lexer.new(src).scan
Ripper.slice("x = 1 + 2", "ident")

sc = DidYouMean::SpellChecker.new(dictionary: %w[apple apply ample maple])
sc.correct("appel")
DidYouMean::JaroWinkler.distance("martha", "marhta")
DidYouMean::Jaro.distance("dixon", "dicksonx")
DidYouMean::Levenshtein.distance("kitten", "sitting")
DidYouMean.formatter.message_for(["apple"]) rescue nil
DidYouMean::Formatter.message_for(["apple", "apply"]) rescue nil
