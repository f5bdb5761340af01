# Control flow and mutation that a checker can get wrong: values leaving
# blocks early, literals changed in place, overridden constants and
# methods, optional blocks, ensure and rescue, and arithmetic that widens.

class Shape
  SIDES = 0
  def sides = self.class::SIDES
  def name = "shape"
  def describe = "#{name} with #{sides}"
  def self.build = new
  def me = self
  def scale(by) = by * 2
end

class Square < Shape
  SIDES = 4
  def name = :square
  def scale(by) = by.to_f / 3
end

class Counter
  def initialize = @count = nil
  def bump = (@count ||= 0) + 1
  def count = @count
  def set(n) = @count = n
  def reset! = @count = nil
end

module Flow
  module_function

  def first_even(list)
    list.each { |x| return x if x.even? }
    nil
  end

  def found(list)
    list.each do |x|
      return :found if x == 3
    end
  end

  def loop_break(n)
    i = 0
    loop do
      i += 1
      break i * 10 if i >= n
    end
  end

  def while_value(n)
    while n > 0
      n -= 1
    end
  end

  def until_break(n)
    until n > 5
      n += 1
      break "early" if n == 3
    end
  end

  def caught
    catch(:done) do
      10.times { |i| throw :done, i if i == 4 }
      :never
    end
  end

  def rescued(x)
    Integer(x)
  rescue ArgumentError
    :bad
  end

  def ensured
    return 1
  ensure
    2
  end

  def retried
    tries = 0
    begin
      tries += 1
      raise "x" if tries < 2
      tries
    rescue
      retry
    end
  end

  def case_no_else(x)
    case x
    when Integer then "int"
    when String then :str
    end
  end

  def if_no_else(flag) = (1 if flag)

  def ternary(flag) = flag ? [] : {}

  def appended
    s = ""
    s << "a"
    s
  end

  def concat_tuple
    t = [1, 2]
    t << 3
    t.push(4)
    t
  end

  def tuple_size
    t = [1, 2]
    t.concat([3])
    t.size
  end

  def mutated_hash
    h = { a: 1 }
    h[:b] = "two"
    h
  end

  def replace_string
    s = +"old"
    s.replace("new")
    s
  end

  def maybe_block(&b) = [1, 2].each(&b)

  def map_maybe(&b) = [1, 2].map(&b)

  def enum_or_array(block = nil)
    block ? [1].each(&block) : [1].each
  end

  def division(a, b) = a / b

  def sum_floats = [1, 2.5].sum

  def sum_ints = [1, 2, 3].sum

  def min_of = [3, 1, 2].min

  def first_of_empty = [].first

  def fetch_default(h, k) = h.fetch(k) { |key| key.to_s }

  def dig_deep(h) = h.dig(:a, :b)

  def formatted = format("%05.1f", 3.14159)

  def percent = "%s-%d" % ["a", 2]

  def frozen_lit = "abc".frozen?

  def next_value = [1, 2, 3].map { |x| next :skip if x == 2; x }

  def send_call(obj) = obj.send(:name)

  def public_send_call(obj) = obj.public_send(:sides)

  def method_obj(obj) = obj.method(:name).call

  def instance_get(obj) = obj.instance_variable_get(:@count)

  def self_or_nil(flag) = flag ? self : nil

  def string_or_sym(flag) = flag ? "s" : :s

  def integer_or_float(flag) = flag ? 1 : 1.0

  def range_to_a = (1..3).to_a

  def step_values = 1.step(10, 4).to_a

  def str_index = "hello".index("z")

  def str_slice = "hello"[10]

  def array_slice = [1, 2][5..]

  def hash_first = {}.first

  def each_with_object_value = [1, 2].each_with_object([]) { |x, acc| acc << x.to_s }

  def inject_value = [1, 2, 3].inject { |a, b| a * b }

  def inject_empty = [].inject(:+)

  def zip_value = [1, 2].zip([:a])

  def tally_value = %w[a b a].tally

  def group_value = [1, 2, 3].group_by(&:odd?)

  def partition_value = [1, 2, 3].partition(&:odd?)

  def minmax_value = [3, 1].minmax

  def sort_by_value = %w[bb a].sort_by(&:size)

  def compact_value = [1, nil].compact

  def flatten_value = [[1, [2]], 3].flatten

  def freeze_dup = "x".dup << "y"

  def struct_value
    point = Struct.new(:x, :y)
    point.new(1, "two").y
  end

  def object_tap = Object.new.tap { |o| o.instance_variable_set(:@v, 1) }.instance_variable_get(:@v)

  def then_value = 5.then { |x| x.to_s }

  def int_pow = 2**-1

  def int_div_float = 7.fdiv(2)

  def big_int = 2**64

  def rational_value = 1r / 3

  def complex_value = Complex(1, 2) * 2

  def bitwise = 5 & 3 | 8

  def string_mult = "ab" * 3

  def array_mult = [1] * 3

  def array_join = [1] * ","

  def nil_to_a = nil.to_a

  def obj_or_default(x) = x || "default"

  def and_value(x) = x && x.to_s

  def safe_nav(x) = x&.length

  def defined_value = defined?(@nothing)

  def method_defined = defined?(puts)

  def lambda_call = ->(x) { x * 2 }.call(3)

  def proc_return
    pr = proc { |x| x }
    pr.call(1, 2)
  end

  def splat_first(*args) = args.first

  def kwargs_value(**opts) = opts[:k]

  def block_given_value = block_given?

  def yield_value = yield(1)
end

sq = Square.new
sh = Shape.new
[sq.sides, sh.sides, sq.describe, sh.describe, Square.build, sq.me, sq.scale(3), sh.scale(3)]
c = Counter.new
[c.count, c.bump, c.set(5), c.count, c.bump, c.reset!, c.count]

Flow.first_even([1, 3, 4])
Flow.first_even([1, 3])
Flow.found([1, 2])
Flow.found([3])
Flow.loop_break(3)
Flow.while_value(2)
Flow.until_break(0)
Flow.until_break(9)
Flow.caught
Flow.rescued("12")
Flow.rescued("zz")
Flow.ensured
Flow.retried
Flow.case_no_else(1)
Flow.case_no_else("s")
Flow.case_no_else(1.5)
Flow.if_no_else(true)
Flow.if_no_else(false)
Flow.ternary(true)
Flow.ternary(false)
Flow.appended
Flow.concat_tuple
Flow.tuple_size
Flow.mutated_hash
Flow.replace_string
Flow.maybe_block
Flow.maybe_block { |x| x }
Flow.map_maybe
Flow.map_maybe { |x| x * 2 }
Flow.enum_or_array
Flow.enum_or_array(proc { |x| x })
Flow.division(7, 2)
Flow.division(7.0, 2)
Flow.division(7, 2r)
Flow.sum_floats
Flow.sum_ints
Flow.min_of
Flow.first_of_empty
Flow.fetch_default({ a: 1 }, :a)
Flow.fetch_default({}, :b)
Flow.dig_deep({ a: { b: [1] } })
Flow.dig_deep({})
Flow.formatted
Flow.percent
Flow.frozen_lit
Flow.next_value
Flow.send_call(sq)
Flow.public_send_call(sq)
Flow.method_obj(sh)
Flow.instance_get(c)
Flow.self_or_nil(true)
Flow.self_or_nil(false)
Flow.string_or_sym(true)
Flow.string_or_sym(false)
Flow.integer_or_float(true)
Flow.integer_or_float(false)
Flow.range_to_a
Flow.step_values
Flow.str_index
Flow.str_slice
Flow.array_slice
Flow.hash_first
Flow.each_with_object_value
Flow.inject_value
Flow.inject_empty
Flow.zip_value
Flow.tally_value
Flow.group_value
Flow.partition_value
Flow.minmax_value
Flow.sort_by_value
Flow.compact_value
Flow.flatten_value
Flow.freeze_dup
Flow.struct_value
Flow.object_tap
Flow.then_value
Flow.int_pow
Flow.int_div_float
Flow.big_int
Flow.rational_value
Flow.complex_value
Flow.bitwise
Flow.string_mult
Flow.array_mult
Flow.array_join
Flow.nil_to_a
Flow.obj_or_default(nil)
Flow.obj_or_default(false)
Flow.obj_or_default(3)
Flow.and_value(nil)
Flow.and_value(false)
Flow.and_value(4)
Flow.safe_nav(nil)
Flow.safe_nav("abc")
Flow.defined_value
Flow.method_defined
Flow.lambda_call
Flow.proc_return
Flow.splat_first
Flow.splat_first(1, 2)
Flow.kwargs_value
Flow.kwargs_value(k: "v")
Flow.block_given_value
Flow.block_given_value { 1 }
Flow.yield_value { |x| x.to_s }

# Core methods given another body: a refinement in force, and one object's
# own method. Folding `"a".upcase` to "A" would be wrong in both.
module Excited
  refine String do
    def upcase = "#{self}!"
  end
end

class Refined
  using Excited

  def shout = "a".upcase

  def own
    s = +"b"
    def s.swapcase = "own"
    s.swapcase
  end
end

Refined.new.shout
Refined.new.own

# A constant removed and set again by name: its assignment no longer says.
module Swappable
  LIMIT = 1
  def self.limit = LIMIT
end
Swappable.send(:remove_const, :LIMIT)
Swappable.const_set(:LIMIT, "many")
Swappable.limit

# After `x.size` returns, x was not nil; where the call raised, or something
# wrote x since, it still may be.
class AfterCall
  def a(flag = true)
    x = flag ? nil : [1]
    begin
      x.size
    rescue NoMethodError
      return x
    end
    :unreached
  end

  def b(flag = true)
    x = flag ? nil : "s"
    y = (x.upcase rescue x)
    [y, x]
  end

  def c(flag = false)
    x = flag ? nil : [1, 2]
    x.size
    x
  end

  def d(flag = true)
    x = flag ? nil : [1]
    x.push(1) rescue nil
    x
  end

  def e(flag = false, other = nil)
    x = flag ? nil : [1]
    x.push(x = other)
    x
  end
end
after = AfterCall.new
%i[a b c d e].each { |name| after.public_send(name) }

# Named captures: set by every match through a group that must match,
# maybe nil for an optional one, all nil when the match fails.
class Captures
  def a(s)
    if /\A(?<size>tiny|long)(?:text|blob)(?<rest>x)?/ =~ s
      [size, rest]
    else
      size
    end
  end

  def b(s)
    return unless /(?<num>\d+)/ =~ s
    num
  end

  def c(s)
    /(?<w>\w+)|(?<d>-)/ =~ s
    [w, d]
  end
end
captures = Captures.new
%w[tinytext longblobx nope -].each { |s| %i[a b c].each { |name| captures.public_send(name, s) } }

# A block that changes the array its call walks: `map` sees the new
# elements, so neither the length nor the element types are the old ones.
class GrowingReceiver
  def mapped
    a = [1, 2]
    a.map { |x| a << "s" if a.size < 4; x }
  end

  def mapped_size
    a = [1, 2]
    a.map { |x| a.push(9) if a.size < 3; x }.size
  end

  def given_back
    a = [1, 2]
    b = a.each { |_| a << :sym if a.size < 3 }
    b << 4.5
    a
  end

  def untouched
    a = [1, 2]
    a.map { |x| x * 2 }
  end
end
growing = GrowingReceiver.new
%i[mapped mapped_size given_back untouched].each { |name| growing.public_send(name) }

# A project that gives nil a method: a call of it returning says nothing
# of whether the receiver was nil.
class NilClass
  def each_key = self
end

class NilKeys
  def after(flag = true)
    x = flag ? nil : { a: 1 }
    x.each_key
    x
  end
end
NilKeys.new.after

# inject's accumulator is, after the first run, what the block gave last.
class Accumulates
  def counted = [1, 2, 3].inject(0) { |s, x| break s if x == 3; s + 10 }
  def stringed = [1, 2, 3].inject(0) { |s, x| break s if x == 3; s.to_s + "a" }
  def first_less = [1, 2, 3].inject { |s, x| break s if x == 3; "str" }
  def nested = [1, 2, 3].inject(:a) { |s, x| break s if x == 3; [s] }
end
accumulates = Accumulates.new
%i[counted stringed first_less nested].each { |name| accumulates.public_send(name) }

# `redo` runs the body again: a block with the same arguments, a loop
# without checking its condition.
class Redone
  def in_block
    n = 0
    [1].each do |_|
      n += 1
      redo if n < 3
    end
    n
  end

  def in_loop
    x = "s"
    n = 0
    out = :none
    while x
      n += 1
      out = x
      x = nil
      redo if n < 2
    end
    out
  end
end
redone = Redone.new
%i[in_block in_loop].each { |name| redone.public_send(name) }

# A Method object holds its receiver: whoever calls it changes the receiver.
class MethodHolds
  def pushed
    x = [1]
    m = x.method(:push)
    m.call("s")
    x
  end
end
MethodHolds.new.pushed

# Second names for one object, made without a plain `b = a`.
class SecondNames
  def anded
    a = [1]
    b = true && a
    b << "s"
    a
  end

  def pushed
    a = [1]
    b = a.push(2)
    b << "s"
    a
  end

  def hashed
    h = { a: 1 }
    g = h.to_h
    g[:b] = "s"
    h
  end

  def mapped
    a = [1]
    b = [2].map { a << :s }
    b[0] << 5
    a
  end

  def cased
    a = [1]
    b = case a.size when 1 then a end
    b << "s"
    a
  end
end
names = SecondNames.new
%i[anded pushed hashed mapped cased].each { |name| names.public_send(name) }
