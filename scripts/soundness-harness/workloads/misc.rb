# Assorted pure-Ruby libraries: Benchmark, Singleton, Monitor, Timeout,
# GetoptLong, Find, Open3, WeakRef, DidYouMean, Ripper, English, Comparable.
require "benchmark"
require "singleton"
require "monitor"
require "timeout"
require "getoptlong"
require "find"
require "open3"
require "weakref"
require "ripper"
require "English"
require "bigdecimal"
require "bigdecimal/util"

Benchmark.measure { 100.times { } }.real
Benchmark.realtime { 1 + 1 }
Benchmark.bm(3) { |x| x.report("a") { 10.times { } } } rescue nil

class Config1
  include Singleton
  def value = 42
end
Config1.instance.value

lock = Monitor.new
lock.synchronize { 1 }
lock.mon_locked?
Timeout.timeout(5) { :done }
begin
  Timeout.timeout(0.01) { sleep 1 }
rescue Timeout::Error => e
  e.message
end

ARGV.replace(%w[--name x -v rest])
opts = GetoptLong.new(["--name", GetoptLong::REQUIRED_ARGUMENT], ["-v", GetoptLong::NO_ARGUMENT])
opts.each { |name, arg| [name, arg] }
ARGV.clear

Find.find(RbConfig::CONFIG["rubylibdir"] + "/did_you_mean").first(3)
out, status = Open3.capture2("echo", "hi")
out.strip
status.success?
Open3.capture3("sh", "-c", "echo e >&2; echo o")
WeakRef.new("s").weakref_alive?

DidYouMean::SpellChecker.new(dictionary: %w[upcase downcase]).correct("upcse")
DidYouMean::JaroWinkler.distance("abc", "abd")
DidYouMean::Levenshtein.distance("kitten", "sitting")
Ripper.lex("a = 1 + 2").size
Ripper.sexp("def f(x) = x")
Ripper.tokenize("x.y(1)")
"abc" =~ /b/
$PREMATCH
$POSTMATCH
BigDecimal("1.5").to_s
"2.25".to_d.sqrt(4).to_s
1.5.to_d.round(1).to_s

class Version
  include Comparable
  attr_reader :parts
  def initialize(text) = @parts = text.split(".").map(&:to_i)
  def <=>(other) = parts <=> other.parts
end
Version.new("1.2") < Version.new("1.10")
[Version.new("2.0"), Version.new("1.9")].max.parts
Version.new("1.0").between?(Version.new("0.9"), Version.new("1.1"))
Version.new("1.5").clamp(Version.new("1.0"), Version.new("1.2")).parts
