# Core methods whose result a signature overstates or a mutation changes:
# inject's block, Integer#pow, writes past an array's end, a hash's
# default; plus Struct members, closures, bang methods and numeric edges
# that are sound today and must stay so.

Point = Struct.new(:x, :y)
KPoint = Struct.new(:x, :y, keyword_init: true)

class Inj
  def a = [1, 2].inject { |a, b| a.to_s + b.to_s }
  def b = [].inject(:+)
  def c(xs) = xs.map(&:to_i).inject(:+)
  def d = [1, 2].reduce(0) { |acc, x| acc.to_s + x.to_s }
  def e = [1, 2].reduce(:+)
  def f = (1..3).inject { |s, x| s * x }
  def g = (1..0).inject { |s, x| s * x }
  def h = {a: 1}.inject { |m, kv| m.to_s }
  def i = [1.5, 2].inject(:+)
  def j = [[1], [2]].inject(:+)
  def k = [1, 2].sum { |x| x.to_s.size }
  def l = [1].each_cons(1).to_a
  def m = [1, 2].max(1)
  def n = [3, 4].first(1)
  def o = [1, 2].cycle.first(3)
  def p = [1, 2].product([3]) { |pair| pair }
  def q = [1, 2].product([3], ["a"]) { |triple| triple }
  def r = [1, 2].product([3])
  def s = Hash.new(5).shift
  def t = { a: 1 }.shift
  def u = Hash.new { |_, k| k.to_s }.shift
end
class Num
  def a = 2 ** -1
  def b(n) = 2 ** n
  def c = (-8) ** (1.0 / 3)
  def d = 4 ** 0.5
  def e = 2 ** Rational(1, 2)
  def f = Rational(1, 2) ** 2
  def g = Rational(4, 1) ** Rational(1, 2)
  def h = 10.pow(-2)
  def i = 7.0.divmod(2)
  def j = 7 % 2.5
  def k = 7.remainder(2.5)
  def l = 1.0.to_r
  def m = 0.1.rationalize(Rational(1, 100))
  def n = Integer.sqrt(17)
  def o = 2.0.floor
  def p = 2.5.truncate(1)
  def q = -7 / 2
  def r = 7.0.div(2)
  def s = 3.14.to_i
  def t = 1e400.class
  def u = 10.digits(16)
  def v = 2.0 ** 1024
  def w = 5.clamp(1, 3)
  def x = 5.0.clamp(1, 3)
  def y = 1.5.clamp(2, 3)
  def z = [1, 2.0].max
  def aa = 3.abs2
  def ab = -3.2.abs
  def ac = 1.i rescue :no
  def ad = 3.numerator
  def ae = 0.75.denominator
  def af = 10.0.to_s
  def ag = 1r + 1
  def ah = 1 + 1r
  def ai = 1.0 + 1r
  def aj = 1 + 1i
  def ak = 3 <=> "a"
  def al = 3.0 <=> Float::NAN
  def am = 2 ** 100
  def an(e) = 2 ** e
  def ao = 2.pow(3, 0) rescue :zero
  def ap = 10.to_c
  def aq = Complex(1, 2).abs
  def ar = Complex(3, 4).abs
  def as = 2 ** -2.0
  def at = 0 ** -1 rescue :zd
  def au = 0.0 ** -1
end
class Str
  def a = "abc".sub!("z", "y")
  def b = "abc".strip!
  def c = [1, 2].uniq!
  def d = [1, nil].compact!
  def e = [1, 2].delete(3)
  def f = [].pop
  def g = "abc".slice!(5)
  def h = {a: 1}.delete(:b)
  def i = [1, 2].fetch(5, "d")
  def j = {a: 1}.fetch(:b) { |k| k.to_s }
  def k = "a-b".scan(/(\w)-(\w)/)
  def l = "ab" =~ /z/
  def m = "ab".index("z")
  def n = "a,b,c".split(",", 2)
  def o = "abc".partition("z")
  def p = "abc".encode("UTF-16LE").encoding
  def q = [[1, [2]]].dig(0, 1, 0)
  def r = {a: {b: 1}}.dig(:a, :b)
  def s = Point.new(1, 2).x
  def t = Point.new(1).y
  def u = KPoint.new(x: 1).to_h
  def v = Point.new(1, 2).to_a
  def w = Point.members
  def x = Point.new(1, "s").each.to_a
  def y
    case [1, [2, 3]]
    in [Integer => a, [_, b]] then [a, b]
    end
  end
  def z
    case {name: "x", age: 3}
    in {name: String => nm} then nm
    end
  end
  def aa = "abc".each_char.with_index.map { |c, i| c * i }
  def ab = %w[a b].each_with_index.to_a
  def ac = [3, 1].sort!
  def ad = [1, 2].select! { true }
  def ae = [1, 2].reject! { false }
  def af = "abc".squeeze!
  def ag = "Abc".capitalize!
  def ah = "abc".downcase!
  def ai = [[1]].flatten!
  def aj = "abc".chomp!
  def ak = "abc".tr!("z", "y")
  def al = [1, 2].map!(&:to_s)
  def am = "abc".freeze.frozen?
  def an = :sym.to_proc.call("x") rescue $!.class
  def ao = [1, 2].sample
  def ap = [1, 2].shuffle.first
  def aq = "x".center(5).size
  def ar = "abc".bytes.sum
  def as = "abc".then { _1.size }
  def at = [1, 2].each_entry.to_a
  def au = Point.new(1, 2) == Point.new(1, 2)
  def av = Point.new(1, 2).to_h { |k, v| [k.to_s, v] }
  def aw = [1, 2].to_h { |x| [x, x.to_s] }
  def ax = {a: 1}.map { |k, v| [k, v] }.to_h
  def ay = {a: 1}.transform_values(&:to_s)
  def az = {a: 1}.filter_map { |k, v| k if v > 0 }
  def ba = {a: 1}.sum { |k, v| v }
  def bb = {a: 1}.find { |k, v| v > 5 }
  def bc = {a: 1, b: 2}.sort_by { |k, v| -v }.first
  def bd = {a: 1}.each_with_index.map { |(k, v), i| [k, v, i] }
  def be = {a: 1}.min_by(2) { |_, v| v }
  def bf = [3, 1, 2].max_by(2) { _1 }
  def bg = [1, 2].first(5)
  def bh = [1, 2].take(1)
  def bi = Struct.new(:a).new(5).a
end
class Flow
  def a
    x = 1
    pr = -> { x = "s" }
    pr.call
    x
  end
  def b
    x = 1
    [1].each { x = "s" }
    x
  end
  def c
    x = 1
    f = method(:helper_set)
    x
  end
  def helper_set = 1
  def d = [1, 2].each { |v| break v * 10 if v == 2 }
  def e = [1, 2].each { }
  def f = [1, 2].map { |v| next "skip" if v == 1; v }
  def g
    i = 0
    i += 1 while i < 5
  end
  def h
    for q in [1, 2]; end
    q
  end
  def i = defined?(foo)
  def j = defined?(String)
  def k = __method__
  def l
    x = nil
    x ||= "set"
    x
  end
  def m
    y = 5
    y &&= y.to_s
    y
  end
  def n
    z = [1, 2].each_with_index.select { |v, i| i > 0 }
    z
  end
  def o
    r = begin
      Integer("x")
    rescue ArgumentError => e
      e.message
    else
      :none
    end
    r
  end
  def p
    v = 1
    1.times do
      v = v.to_s
    end
    v
  end
  def q
    v = 1
    t = Thread.new { v = :thread }
    t.join
    v
  end
  def r
    acc = 0
    define_singleton_method(:bump) { acc = "bumped" }
    bump
    acc
  end
  def s
    w = 1
    blk = proc { w = w.to_s }
    run(blk)
    w
  end
  def run(b) = b.call
  def t
    w = 1
    save(proc { w = :later })
    fire
    w
  end
  def save(b) = @saved = b
  def fire = @saved.call
  def u
    x = 0
    loop do
      x += 1
      break if x > 2
    end
    x
  end
  def v
    o = Object.new
    def o.to_s = 5
    o.to_s
  end
  def w
    a = [1, 2]
    b, *c = a
    c
  end
  def x
    h = {a: 1}
    h => {a:}
    a
  end
  def y = [1, 2].each_slice(1).map(&:sum)
  def z
    s = +""
    s << "a"
    s
  end
  def aa
    arr = []
    arr.push(1)
    arr.unshift("s")
    arr
  end
  def ab
    n = 5
    n = n.to_s if n > 3
    n
  end
  def ac
    res = catch(:x) do
      10.times { |i| throw :x, i if i == 3 }
      :never
    end
    res
  end
  def ad
    val = [1, "a"].each do |e|
      return e if e.is_a?(String)
    end
    val
  end
  def ae
    counter = 0
    incr = counter.method(:+)
    incr.call(1)
  end
  def af = Comparable.instance_method(:clamp).owner
  def ag
    list = [1, 2, 3]
    list.each_with_index { |e, i| list[i] = e.to_s }
    list
  end
  def ah
    h = {a: 1}
    h.each { |k, v| h[k] = v.to_s }
    h
  end
  def ai
    s = "abc"
    s.replace(5.to_s)
    s
  end
  def aj
    a = [1, 2]
    a.map! { |e| e.to_s }
    a
  end
  def ak
    a = [1, 2]
    a.fill("x")
    a
  end
  def al
    a = [3, 1]
    a.sort!.reverse!
    a
  end
  def am
    a = [1, 2]
    a.concat(["s"])
    a
  end
  def an
    a = [1, 2]
    a.insert(1, :sym)
    a
  end
  def ao
    a = [1, 2]
    a[5] = "x"
    a
  end
  def ap
    h = {a: 1}
    h.store(:b, "s")
    h
  end
  def aq
    h = {a: 1}
    h.merge!(b: "s")
    h
  end
  def ar
    h = {a: 1}
    h.update(c: :d)
    h
  end
  def as
    h = {a: 1}
    h.default = "dflt"
    h[:zz]
  end
  def at
    a = [1, 2]
    a.replace(["x"])
    a
  end
end
class Arr
  def a
    a = [1, 2]
    a[5] = "x"
    a
  end
  def b
    a = [1, 2]
    a[1] = "x"
    a
  end
  def c
    a = [1, 2]
    a[0..0] = ["s"]
    a
  end
  def d
    a = [1, 2]
    a[0, 1] = [:q]
    a
  end
  def e
    a = [1]
    a.insert(3, :a, "b")
    a
  end
  def f
    a = [1]
    a.fill { |i| i.to_s }
    a
  end
  def g
    h = {a: 1}
    h.default = "dflt"
    h[:zz]
  end
  def h
    a = [1, 2]
    a[-1] = "z"
    a
  end
  def i(n)
    a = [1, 2]
    a[n] = "z"
    a
  end
end

class Rng
  def a = (1..0).min
  def b = (1.0..2.0).min
  def c = ("a".."c").size
  def d = (1..2).step(0.5).to_a
  def e = (1..3).sum
  def f = (1..Float::INFINITY).size
  def f2 = (1..).size
  def g = (1...1).max
  def h = (1..3).minmax
  def i = (1.5..3).to_a rescue $!.class
  def j = (1..10) % 3
  def k = ("a".."e").step(2).to_a
  def l = (1..3).each_slice(2).to_a
  def m = (1..3).include?(2.5)
  def n = (1..).first(2)
  def o = (..5).max rescue $!.class
  def p = (1..3).last(2)
  def q = (1..3).last
  def r = (1...3.5).last rescue $!.class
  def s = (1..3.5).max
  def t = Range.new(1, 3, true).to_a
  def u = (1..3).count(&:odd?)
  def v = (1..3).reduce(:*)
  def w = (1..3).cover?(1..2)
  def x = (0.1..0.3).step(0.1).map { _1 }
  def y = 1.step(2, 0.5).to_a
  def z = 1.upto(3).sum
  def aa = 3.downto(1).to_a
  def ab = 10.0.step(by: 2, to: 14).to_a
  def ac = (1..3).to_a.product([4])
  def ad = [1, 2] * ","
  def ae = [1, 2] * 2
  def af = [1, 2, 3].combination(2).count
  def ag = [[1, 2], [3, 4]].transpose
  def ah = [1, 2].pack("C*")
  def ai = [1, 2].sum(0.0)
  def aj = [0.1, 0.2].sum
  def ak = [1, 2].sum / 2
  def al = [1, 2].sum.fdiv(2)
  def am = [1, 2, 3].each_cons(2).map { |a, b| b - a }
  def an = [].max
  def ao = [].sum
  def ap = [].first
  def aq = [nil, 1].max rescue $!.class
  def ar = %w[b a].min
  def as = [1, 2].minmax_by { -_1 }
  def at = [1, [2, [3]]].flatten(1)
  def au = [3, 1].sort.reverse
  def av = [1, 2].cycle(2).to_a
  def aw = rand(10)
  def ax = rand(1.5)
  def ay = rand(1..6)
  def az = rand
  def ba = [1, 2].sum { _1 * 1.5 }
  def bb = 5.0.to_i.to_s(2)
  def bc = "10".to_i(2)
  def bd = "1e3".to_f
  def be = "0x1A".hex
  def bf = "777".oct
  def bg = "abc".sum
  def bh = "ab".unpack("C*")
  def bi = "héllo".bytesize
  def bj = "héllo".b.length
  def bk = "abc".encoding
  def bl = "a b".split
  def bm = "abc".chars.each_slice(2).map(&:join)
  def bn = "Hello World".scan(/o/).size
  def bo = "abc".match(/(?<x>b)/)[:x]
  def bp = "abc".match(/(z)?c/)[1]
  def bq = $~ && $~[0]
  def br = "a1b2".gsub(/\d/) { |d| (d.to_i * 2).to_s }
  def bs = "abc".tr("a-c", "A-C")
  def bt = "abc" <=> 5
  def bu = "abc".casecmp("ABC")
  def bv = "abc".casecmp?(5)
  def bw = "abc".start_with?("a", "z")
  def bx = "%s and %p" % ["a", nil]
  def by = "abc".each_byte.first
  def bz = "abc".unpack1("Z*")
end

class Pm
  def a = proc { |*| }.parameters
  def b = String.instance_method(:upcase).parameters
  def c = proc { |a, (b, c)| }.parameters
  def d = method(:a).parameters
end

[[Pm, []], [Rng, %i[aw ax ay az]], [Inj, %i[c]], [Num, %i[b an]], [Str, []], [Flow, %i[helper_set run save fire bump]], [Arr, %i[i]]].each do |klass, skip|
  object = klass.new
  (klass.instance_methods(false) - skip).sort.each do |name|
    object.public_send(name)
  rescue StandardError
    nil
  end
end
Inj.new.c(%w[1 2])
Inj.new.c([])
Num.new.b(-3)
Num.new.b(5)
Num.new.an(2)
Num.new.an(-1)
Arr.new.i(4)
Arr.new.i(0)
Arr.new.i(-1)
