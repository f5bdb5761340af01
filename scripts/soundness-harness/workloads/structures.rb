# Set, OpenStruct, TSort, PrettyPrint, DelegateClass,
# Singleton, PStore, Tempfile, Tmpdir, FileUtils, Find, Random::Formatter.
require "set"
require "ostruct"
require "tsort"
require "prettyprint"
require "forwardable"
require "delegate"
require "observer"
require "singleton"
require "pstore"
require "tempfile"
require "tmpdir"
require "fileutils"
require "find"
require "random/formatter"
require "securerandom"
require "weakref"
require "timeout"
require "benchmark"
require "English"
require "open3"

s = Set[1, 2, 3]
s.add?(4)
s.add?(1)
s.subset?(Set[1, 2, 3, 4, 5])
s | Set[9]
s & [1, 2]
s - [1]
s ^ Set[1, 7]
s.map { |x| x * 2 }.to_set
s.group_by(&:odd?)
s.classify(&:odd?)
s.divide(&:odd?)
s.to_a
s.min
s.sum
s.include?(2)
s.delete_if(&:even?)
s.select! { |x| x > 1 }
s.inspect
s.to_s
s.disjoint?([100])
s.intersect?(Set[3])
s.each_slice(2).to_a
Set.new([1, [2, 3]]).flatten rescue nil
SortedSet rescue nil

os = OpenStruct.new(a: 1, b: "x")
os.a
os[:b]
os.c = 3
os.to_h
os.respond_to?(:a)
os.each_pair.to_a
os.dig(:a)
os.delete_field(:c)
os == OpenStruct.new(a: 1, b: "x")

# (A TSort class is in collections.rb; this is its functional form.)
TSort.tsort(->(&b) { [1, 2].each(&b) }, ->(n, &b) { (n == 1 ? [2] : []).each(&b) })

out = +""
pp = PrettyPrint.new(out, 10)
pp.group(1, "[", "]") { pp.text "abc"; pp.breakable; pp.text "defghijkl" }
pp.flush
PrettyPrint.format(+"", 20) { |q| q.text "x"; q.breakable; q.text "y" }
PrettyPrint.singleline_format(+"") { |q| q.text "z" }

# (Forwardable, Observable and a SimpleDelegator are in collections.rb.)
class Wrapper < SimpleDelegator; end
w = Wrapper.new([3, 1, 2])
w.sort
w.__getobj__
w.size
DelegateClass(Array)
dc = Class.new(DelegateClass(Hash)) { def initialize = super({}) }.new
dc[:a] = 1
dc.keys

class Conf
  include Singleton
  def value = 42
end
Conf.instance.value

Dir.mktmpdir do |dir|
  store = PStore.new(File.join(dir, "x.pstore"))
  store.transaction { store[:a] = [1, 2]; store[:b] = "s" }
  store.transaction(true) { store[:a]; store.roots; store.root?(:a); store.fetch(:b) }
  FileUtils.mkdir_p(File.join(dir, "a/b"))
  FileUtils.touch(File.join(dir, "a/b/c.txt"))
  FileUtils.cp(File.join(dir, "a/b/c.txt"), File.join(dir, "a/d.txt"))
  FileUtils.mv(File.join(dir, "a/d.txt"), File.join(dir, "a/e.txt"))
  FileUtils.rm_f(File.join(dir, "a/e.txt"))
  FileUtils.compare_file(File.join(dir, "a/b/c.txt"), File.join(dir, "a/b/c.txt"))
  FileUtils.uptodate?(File.join(dir, "a/b/c.txt"), [])
  Find.find(dir).to_a
  FileUtils.rm_rf(File.join(dir, "a"))
  Dir.tmpdir
end
tf = Tempfile.new("x")
tf.write("hi")
tf.path
tf.size
tf.close
tf.unlink
Tempfile.create("y") { |f| f.path }

SecureRandom.hex(4)
SecureRandom.uuid
SecureRandom.alphanumeric(5)
SecureRandom.base64(3)
SecureRandom.urlsafe_base64
SecureRandom.random_number(10)
SecureRandom.random_number
SecureRandom.random_bytes(2)
Random.new(1).hex(2) rescue nil
ref = WeakRef.new(+"str")
ref.weakref_alive?
Timeout.timeout(1) { :done }
Benchmark.measure { 1 + 1 }.real
Benchmark.realtime { 2 }
Open3.capture2("echo", "hi")
Open3.capture3("echo", "x")
Open3.capture2e("echo", "y")
