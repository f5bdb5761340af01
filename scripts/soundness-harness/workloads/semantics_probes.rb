# Probes of Ruby's semantics that inference must follow: flow (retry,
# redo, ensure, proc returns), rescue, aliasing, hash shapes, patterns,
# integer folds and conversions. Each was checked against Debian's ruby
# when it was written; the harness keeps checking them.

class ProbeFlows
  def retried
    tries = 0
    begin
      tries += 1
      raise "x" if tries < 3
      tries
    rescue
      retry
    end
  end
  def retry_value
    v = :first
    begin
      raise "x" if v == :first
      v
    rescue
      v = "second"
      retry
    end
  end
  def proc_return
    pr = proc { return :from_proc }
    pr.call
    :after
  end
  def lambda_return
    l = lambda { return :from_lambda }
    l.call
  end
  def proc_next = proc { next 5; 6 }.call
  def block_local
    y = 1
    [1].each { |x; y| y = "s" }
    y
  end
  def numbered = [1, 2].map { _1 * 2 }
  def redo_count
    n = 0
    [1].each do |x|
      n += 1
      redo if n < 3
    end
    n
  end
  def while_mod
    i = 0
    i += 1 while i < 5
    i
  end
  def begin_while
    i = 10
    begin
      i += 1
    end while i < 5
    i
  end
  def until_mod
    s = ""
    s += "a" until s.size >= 3
    s
  end
  def loop_stop
    e = [1, 2].each
    loop { e.next }
  end
  def ensure_value
    x = 1
    begin
      x = 2
      return x
    ensure
      x = 3
    end
  end
  def ensure_override
    begin
      return 1
    ensure
      return 2
    end
  end
  def case_splat
    a = [1, 2]
    case 2
    when *a then :in
    else :out
    end
  end
  def flip_flop = (1..10).select { |i| (i == 3)..(i == 5) }
  def defined_ivar = defined?(@nope)
  def defined_yield = defined?(yield)
  def op_assign_hash
    h = Hash.new(0)
    h[:a] += 1
    h[:a]
  end
  def safe_nav_chain(x = nil) = x&.length&.succ
  def and_assign
    a = 5
    a &&= "s"
    a
  end
  def multi_return = return 1, 2
  def string_freeze
    s = "ab".freeze
    s.frozen?
  end
  def dstr_frozen = "a#{1}".frozen?
  def sym_proc_lambda = :upcase.to_proc.lambda?
end

probeflows = ProbeFlows.new
ProbeFlows.instance_methods(false).sort.each { |m| probeflows.public_send(m) rescue nil }

class ProbeRescues
  def risky(x) = x ? Integer("z") : 1
  def rescue_local
    v = :start
    begin
      v = 1
      risky(true)
      v = 2
    rescue ArgumentError
      v
    end
  end
  def rescue_else
    begin
      v = 1
    rescue
      v = :r
    else
      v = "else"
    end
    v
  end
  def ensure_sees
    v = :start
    begin
      v = 1
      risky(true)
    rescue ArgumentError
      v = 2
    ensure
      return v
    end
  end
  def rescue_modifier = (Integer("q") rescue :bad)
  def nested_rescue
    begin
      begin
        raise TypeError
      rescue ArgumentError
        :inner
      end
    rescue TypeError
      :outer
    end
  end
  def rescue_in_block
    [1].map do |x|
      Integer("q")
    rescue ArgumentError
      :blk
    end
  end
  def raise_in_ensure
    begin
      1
    ensure
      nil
    end
  end
  def method_rescue_value
    x = 5
    Integer("q")
  rescue
    x
  end
  def exception_var
    begin
      raise IOError, "m"
    rescue IOError, SystemCallError => e
      e
    end
  end
  def catch_value = catch(:x) { throw :x }
  def catch_value2 = catch { |tag| throw tag, 7 }
  def loop_stop_iter
    e = [1].each
    loop { e.next }
  end
  def timeout_like
    r = nil
    t = Thread.new { r = 5 }
    t.join
    r
  end
  def ivar_in_thread
    @v = nil
    Thread.new { @v = 1 }.join
    @v
  end
  def proc_mutates_local
    x = 1
    pr = -> { x = "s" }
    pr.()
    x
  end
  def define_method_local
    x = 1
    self.class.send(:define_method, :probe_zz) { x = "s" }
    probe_zz
    x
  end
  def instance_exec_local
    x = 1
    instance_exec { x = "t" }
    x
  end
  def binding_local
    x = 1
    binding.local_variable_set(:x, "b")
    x
  end
  def tap_local
    x = 1
    5.tap { x = :t }
    x
  end
  def method_ref_local
    x = [1]
    m = x.method(:push)
    m.call("s")
    x
  end
  def object_send_mutation
    s = "ab"
    s.send(:<<, "c")
    s
  end
  def public_send_mut
    a = [1]
    a.public_send(:push, :x)
    a
  end
  def concat_self
    a = [1]
    a.concat(a)
    a
  end
  def replace_str
    s = "a"
    s.replace("bb")
    s
  end
  def clear_str
    s = "abc"
    s.clear
    s
  end
  def string_slice_bang
    s = "abc"
    s.slice!(0)
    s
  end
  def arr_sort_bang
    a = [3, 1]
    a.sort!
    a
  end
  def arr_map_bang_types
    a = [1, 2]
    a.map!(&:to_s)
    a
  end
  def freeze_then_dup
    a = [1].freeze
    b = a.dup
    b << "x"
    b
  end
  def hash_store_str
    h = { a: 1 }
    h.store(:b, "x")
    h
  end
  def default_proc_mut
    h = Hash.new { |hh, k| hh[k] = "v" }
    h[:z]
    h
  end
  def each_char_mut
    s = "ab"
    s.each_char { |c| s << c if s.size < 4 }
    s
  end
end

proberescues = ProbeRescues.new
ProbeRescues.instance_methods(false).sort.each { |m| proberescues.public_send(m) rescue nil }

class ProbeAliases
  def elem_alias
    a = [1]
    b = [a]
    b[0] << "s"
    a
  end
  def hash_alias
    a = [1]
    h = { k: a }
    h[:k] << "s"
    a
  end
  def each_elem
    a = [1]
    [a].each { |y| y << "s" }
    a
  end
  def multi_alias
    a = [1]
    c, d = a, 2
    c << "s"
    a
  end
  def first_alias
    a = [1]
    c = [a].first
    c << "s"
    a
  end
  def or_alias(f = nil)
    a = [1]
    b = a || []
    b << "s"
    a
  end
  def ternary_alias(f = true)
    a = [1]
    b = f ? a : []
    b << "s"
    a
  end
  def nested_assign_alias
    a = [1]
    b = (x = a)
    b << "s"
    a
  end
  def begin_alias
    a = [1]
    b = begin
      a
    end
    b << "s"
    a
  end
  def case_alias
    a = [1]
    b = case 1 when 1 then a end
    b << "s"
    a
  end
  def to_a_alias
    a = [1]
    b = a.to_a
    b << "s"
    a
  end
  def to_s_alias
    a = +"x"
    b = a.to_s
    b << "y"
    a
  end
  def to_h_alias
    h = { a: 1 }
    g = h.to_h
    g[:b] = "s"
    h
  end
  def uniq_bang_alias
    a = [1, 2]
    b = a.uniq!
    a
  end
  def shovel_alias
    s = +"x"
    t = s << "y"
    t << "z"
    s
  end
  def push_alias
    a = [1]
    b = a.push(2)
    b << "s"
    a
  end
  def ivar_alias
    a = [1]
    @stash = a
    @stash << "s"
    a
  end
  def and_alias
    a = [1]
    b = true && a
    b << "s"
    a
  end
  def while_alias
    a = [1]
    b = nil
    b = a while b.nil?
    b << "s"
    a
  end
  def splat_alias
    a = [1]
    b, = [a]
    b << "s"
    a
  end
  def hash_values_alias
    a = [1]
    h = { k: a }
    h.values.first << "s"
    a
  end
  def dig_alias
    a = [1]
    h = { k: [a] }
    h.dig(:k, 0) << "s"
    a
  end
  def fetch_alias
    a = [1]
    h = { k: a }
    h.fetch(:k) << "s"
    a
  end
  def find_alias
    a = [1]
    [a].find { true } << "s"
    a
  end
  def struct_alias
    a = [1]
    st = Struct.new(:v).new(a)
    st.v << "s"
    a
  end
  def string_dup_frozen
    s = "x".dup
    s << "y"
    s
  end
  def max_by_alias
    a = [1]
    [a].max_by(&:size) << "s"
    a
  end
end

probealiases = ProbeAliases.new
ProbeAliases.instance_methods(false).sort.each { |m| probealiases.public_send(m) rescue nil }

class ProbeShapes
  def shape_delete
    h = { a: 1, b: "s" }
    h.delete(:a)
    h
  end
  def shape_merge = { a: 1 }.merge(b: 2)
  def shape_merge_bang
    h = { a: 1 }
    h.merge!(a: "x")
    h
  end
  def shape_key_str = { "a" => 1 }["a"]
  def shape_missing = { a: 1 }[:b]
  def shape_fetch_default = { a: 1 }.fetch(:b, "d")
  def shape_dig = { a: { b: 1 } }.dig(:a, :b)
  def shape_to_a = { a: 1 }.to_a
  def shape_keys = { a: 1, b: 2 }.keys
  def shape_values = { a: 1, b: "s" }.values
  def shape_size = { a: 1, b: 2 }.size
  def shape_transform = { a: 1 }.transform_values(&:to_s)
  def shape_select = { a: 1, b: 2 }.select { |k, v| v > 1 }
  def shape_map = { a: 1 }.map { |k, v| [k, v] }
  def shape_each
    out = []
    { a: 1 }.each { |k, v| out << v }
    out
  end
  def shape_default
    h = { a: 1 }
    h.default = 5
    h[:zz]
  end
  def shape_compare_by_id
    h = { "a" => 1 }
    h.compare_by_identity
    h["a".dup]
  end
  def shape_update_in_block
    h = { n: 0 }
    [1, 2].each { h[:n] += 1 }
    h[:n]
  end
  def shape_store_in_method
    h = { n: 0 }
    bump(h)
    h[:n]
  end
  def bump(h) = h[:n] = "str"
  def kwsplat(**kw) = kw
  def kw_call = kwsplat(a: 1, **{ b: 2 })
  def any_key = { 1 => :a, nil => :b }[nil]
  def str_mut
    s = "abc"
    t = s
    t.upcase!
    s
  end
  def str_in_array
    s = "x"
    a = [s]
    a[0] << "y"
    s
  end
  def str_frozen_lit
    # frozen_string_literal comment absent; literal mutable
    s = "q"
    s << "r"
    s
  end
  def str_gsub_bang_nil = "abc".dup.gsub!("z", "y")
  def str_sub_bang = "abc".dup.sub!("a", "y")
  def sym_to_s_mut
    s = :abc.to_s
    s << "d"
    s
  end
  def int_to_s_mut
    s = 5.to_s
    s << "d"
    s
  end
  def array_join_mut
    s = [1, 2].join
    s << "x"
    s
  end
end

probeshapes = ProbeShapes.new
ProbeShapes.instance_methods(false).sort.each { |m| probeshapes.public_send(m) rescue nil }

class ProbeRanges
  def sz
    a = [1, 2]
    a.size - 5
  end
  def sz_neg
    a = [1]
    -a.size
  end
  def sz_mul
    a = [1, 2, 3]
    a.size * -2
  end
  def sz_div
    a = [1, 2, 3]
    a.size / 2
  end
  def sz_mod
    a = [1, 2, 3]
    a.size % 2
  end
  def idx
    a = [3, 4]
    a.index(4)
  end
  def cnt
    s = "aab"
    s.count("a") - 3
  end
  def len_cmp
    s = ""
    s.length > 0 ? s.length : -1
  end
  def abs_v
    x = -3
    x.abs
  end
  def pred_v
    a = []
    a.size.pred
  end
  def bitand
    a = [1, 2, 3]
    a.size & 1
  end
  def pow_v
    a = [1, 2]
    a.size ** 2
  end
  def rand_v = rand(3) - 1
  def times_v = 3.times.map { |i| i - 1 }
  def upto_v = 1.upto(3).to_a.map { |i| -i }
  def clamp_v
    a = [1]
    a.size.clamp(-2, 0)
  end
  def neg_sz
    a = [1]
    (0 - a.size)
  end
  def ord_v
    s = "a"
    s.ord - 200
  end
  def bytesize_v
    s = "é"
    s.bytesize - 3
  end
end

proberanges = ProbeRanges.new
ProbeRanges.instance_methods(false).sort.each { |m| proberanges.public_send(m) rescue nil }

class ProbePatterns
  def arr(x) = (case x; in [Integer => a, *rest] then [a, rest]; in [] then :empty; else :other; end)
  def hsh(x) = (case x; in { name: String => n } then n; in { name: } then name; else :none; end)
  def find_pat(x) = (case x; in [*, Symbol => s, *] then s; else :no; end)
  def pin(x, y) = (case x; in ^y then :same; else :diff; end)
  def alt(x) = (case x; in Integer | Float => n then n; in String then :s; else :o; end)
  def guard(x) = (case x; in Integer => n if n > 5 then n; in Integer then :small; else :o; end)
  def nil_pat(x) = (case x; in nil then :nil; in _ then x; end)
  def deconstruct_obj(x) = (case x; in { a: [1, *] } then :ok; else :no; end)
  def in_bool(x) = (x in Integer)
  def rightward(x)
    x => [first, *]
    first
  end
  def is_a_union(x)
    v = x ? 1 : "s"
    v.is_a?(Numeric) ? v : v.size
  end
  def respond(x)
    x.respond_to?(:size) ? x.size : 0
  end
  def instance_of_sub
    v = [1, 1.5].sample
    v.instance_of?(Integer) ? v : :float
  end
  def kind_comparable(x = 3)
    x.is_a?(Comparable) ? x : :no
  end
  def eqq_class(x = "s")
    String === x ? x.upcase : :no
  end
  def case_class(x = [1, "s"].sample)
    case x
    when Integer, Float then x + 1
    when String then x.size
    end
  end
end

patterns = ProbePatterns.new
[patterns.arr([1, 2, 3]), patterns.arr([]), patterns.arr("x")]
[patterns.hsh({ name: "n" }), patterns.hsh({ name: 5 }), patterns.hsh({})]
[patterns.find_pat([1, :a, 2]), patterns.find_pat([1])]
[patterns.pin(1, 1), patterns.pin(1, 2)]
[patterns.alt(1), patterns.alt(1.5), patterns.alt("s"), patterns.alt(nil)]
[patterns.guard(9), patterns.guard(1), patterns.guard("x")]
[patterns.nil_pat(nil), patterns.nil_pat(3)]
[patterns.deconstruct_obj({ a: [1, 2] }), patterns.deconstruct_obj({})]
[patterns.in_bool(1), patterns.in_bool("s")]
[patterns.rightward([5, 6])]
[patterns.is_a_union(true), patterns.is_a_union(false)]
[patterns.respond("abc"), patterns.respond(5)]
[patterns.instance_of_sub]
[patterns.kind_comparable]
[patterns.eqq_class]
[patterns.case_class(1), patterns.case_class("ab"), patterns.case_class(1.5), patterns.case_class(nil)]

class ProbeParent
  def val(x = 1) = x
  def pair(a, b = :d) = [a, b]
  def kw(k: 1) = k
  def blk = yield(2)
  def self.cm = :parent
end
class ProbeKid < ProbeParent
  def val(x = 1)
    x = "reassigned"
    super
  end
  def pair(a, b = :kid)
    super
  end
  def kw(k: 2)
    super
  end
  def blk
    super { |v| v.to_s }
  end
  def self.cm = super
end
class ProbeConversions
  def arr_nil = Array(nil)
  def arr_hash = Array({ a: 1 })
  def arr_str = Array("s")
  def str_nil = String(nil)
  def int_str = Integer("42")
  def int_float = Integer(3.99)
  def float_int = Float(3)
  def hash_nil = Hash(nil)
  def hash_arr = Hash([[1, 2]])
  def rational_s = Rational("1/3")
  def complex_s = Complex("1+2i")
  def enc = "é".dup.force_encoding("ASCII-8BIT").size
  def enc_valid = "\xff".dup.valid_encoding?
  def bytes_sz = "é".bytes.size
  def chars_sz = "é".chars.size
  def upcase_uni = "é".upcase
  def sym_str = :"a b".to_s
  def str_mul_zero = "a" * 0
  def arr_mul = [1, 2] * 2
  def arr_mul_str = [1, 2] * ","
  def arr_minus = [1, 2, 2, 3] - [2]
  def arr_and = [1, 2, 2] & [2]
  def arr_or = [1, 1] | [2]
  def arr_plus = [1] + ["a"]
  def arr_cmp = ([1, 2] <=> [1, 3])
  def arr_flatten = [[1, [2]]].flatten
  def arr_flatten1 = [[1, [2]]].flatten(1)
  def arr_transpose = [[1, 2], [3, 4]].transpose
  def arr_product = [1, 2].product([3])
  def arr_combination = [1, 2, 3].combination(2).to_a
  def arr_rotate = [1, 2, 3].rotate
  def arr_sample_n = [1, 2].sample(5)
  def arr_first_neg = [1, 2].first(0)
  def arr_pack = [65, 66].pack("C*")
  def str_unpack = "AB".unpack("C*")
  def str_unpack1 = "AB".unpack1("C")
  def str_split_lim = "a,b,c".split(",", 2)
  def str_partition = "a=b".partition("=")
  def str_rpartition_miss = "ab".rpartition("=")
  def str_scan = "a1b2".scan(/\d/)
  def str_scan_groups = "a1b2".scan(/(\w)(\d)/)
  def str_tr = "hello".tr("el", "ip")
  def str_each_line = "a\nb".lines
  def str_succ_z = "z".succ
  def str_ljust = "a".ljust(3, "-")
  def str_casecmp = "a".casecmp?("A")
  def str_index_nil = "abc".index("z")
  def str_slice_range = "abc"[5..]
  def str_slice_at_len = "abc"[3..]
  def str_start_with_many = "abc".start_with?("x", "a")
end

kid = ProbeKid.new
[kid.val, kid.pair(1), kid.kw, kid.blk, ProbeKid.cm]

conversions = ProbeConversions.new
ProbeConversions.instance_methods(false).sort.each { |m| conversions.public_send(m) rescue nil }

# Stop 31's probes (three helpers' sweeps of collections and blocks,
# flow and dispatch, strings and numbers): each gave a type Ruby's value
# is not in on the engine this stop started from.
class ProbeSignatures
  def rand_zero = rand(0)
  def rand_six = rand(6)
  def p_none = p
  def protected_names = self.class.send(:protected)
  def source_of_symbol = :upcase.to_proc.source_location
  def c_parameters = 1.method(:+).parameters
  def hash_any_pair
    seen = nil
    { a: 1 }.any? { |pair| seen = pair }
    seen
  end
  def reject_all = [1, 2].reject { true }.size
  def reject_ints = [1, "a"].reject { |x| x.is_a?(Integer) }.first
  def hash_reject = { a: 1 }.reject { true }[:a]
  def permutation_back = (a = [1]; b = a.permutation(1) { }; b << "s"; a.last)
  def dump_control = "\0".dump
end

signatures = ProbeSignatures.new
ProbeSignatures.instance_methods(false).sort.each { |m| signatures.public_send(m) }

class ProbeSharing
  def global_write = (s = +"ab"; $probe_shared = s; $probe_shared << "c"; s)
  def class_var_write = (s = +"ab"; @@probe_shared = s; @@probe_shared << "c"; s)
  def chained = (a = b = [1]; b << "s"; a.last)
  def chained_paren = (b = (a = [1]); b << "s"; a.last)
  def chained_ivar = (a = @x = [1]; @x << "s"; a.last)
  def or_assigned = (a = [1]; b = nil; b ||= a; b << "s"; a.last)
  def and_assigned = (a = [1]; b = [0]; b &&= a; b << "s"; a.last)
  def ivar_or_assigned = (a = [1]; @d ||= a; @d << "s"; a.last)
  def index_or_assigned = (a = [1]; h = {}; h[:k] ||= a; h[:k] << "s"; a.last)
  def splat_first = (*a, b = 1; [a, b])
  def splat_both = (*a, b, c = 1; [a, b, c])
  def anonymous_splat = (*, b = "s"; b)
  def ensure_returned
    s = +"a"
    begin
      return s
    ensure
      s << "b"
    end
  end
  def ensure_value
    a = [1]
    begin
      a
    ensure
      a << "x"
    end
  end
  def ensure_method
    s = +"a"
    s
  ensure
    s << "b"
  end
  def thrown_write = (s = 1; catch(:x) { s = "str"; throw :x }; s)
  def thrown_mutation = (s = +"ab"; catch(:x) { s << "c"; throw :x }; s)
  def thrown_from_each = (s = 1; catch(:a) { [1, 2].each { s = "str"; throw :a } }; s)
end

sharing = ProbeSharing.new
ProbeSharing.instance_methods(false).sort.each { |m| sharing.public_send(m) }

class ProbeOverloads
  def rand_float_range = rand(1.0..2.0)
  def random_float_range = Random.rand(1.0..2.0)
  def rand_int_range = rand(1..2)
end

overloads = ProbeOverloads.new
ProbeOverloads.instance_methods(false).sort.each { |m| overloads.public_send(m) }

module ProbeLoud
  def probe_greet = "LOUD"
end

class ProbeSelfExtended
  def initialize = extend(ProbeLoud)
  def probe_greet = :quiet
  def use = probe_greet
end

class ProbeSelfSingleton
  def setup
    def self.probe_hello = "singleton"
  end
  def probe_hello = :quiet
  def use = (setup; probe_hello)
end

class ProbeSelfDefined
  def setup = define_singleton_method(:probe_hi) { "dsm" }
  def probe_hi = :quiet
  def use = (setup; probe_hi)
end

[ProbeSelfExtended.new.use, ProbeSelfSingleton.new.use, ProbeSelfDefined.new.use]

class ProbeSentAlias
  def probe_sent_w = 1
  def probe_other = "other"
  def use = probe_sent_w
end
ProbeSentAlias.send(:alias_method, :probe_sent_w, :probe_other)

class ProbeMethodCallBlock
  def register(&b) = (@cb = b)
  def fire = @cb.call
  def stored_through_call
    s = 1
    method(:register).call { s = "str" }
    s = 2
    fire
    s
  end
end

[ProbeSentAlias.new.use, ProbeMethodCallBlock.new.stored_through_call]

class ProbeEnumerators
  def kept_then_grown = (a = [1]; e = a.each; a << "s"; e.to_a)
  def kept_then_shifted = (a = [1]; e = a.each; a.unshift("s"); e.next)
  def kept_hash = (h = { a: 1 }; e = h.each; h[:b] = "s"; e.to_a)
  def indexed_one_parameter = [1].each_with_index.map { |x| x }
  def with_object_one_parameter = [1].each_with_object([]).map { |x| x }
  def indexed_to_h = [1].each_with_index.to_h { |x| [x, 0] }
  def indexed_pairs = [1, 2].each_with_index.map { |x, i| x + i }
end

enumerators = ProbeEnumerators.new
ProbeEnumerators.instance_methods(false).sort.each { |m| enumerators.public_send(m) }

PROBE_SCOPE = :top

class ProbeScopeBase
  PROBE_SCOPE = :base
  def m = 1
end

class ProbeScopeKid < ProbeScopeBase
  class << self
    def scoped = PROBE_SCOPE
  end
  def self.inherited_scope = PROBE_SCOPE
end

[ProbeScopeKid.scoped, ProbeScopeKid.inherited_scope]

module ProbeGreeting
  def greet = probe_fmt(:hi)

  private

  def probe_fmt(x) = x
end

module ProbeFarewell
  def bye = probe_fmt("bye")
end

class ProbePerson
  include ProbeGreeting
  include ProbeFarewell
end

class ProbeJob
  def go = probe_hp(1)

  private

  def probe_hp(x) = x
end

module ProbeRetry
  def again = probe_hp("again")
end
ProbeJob.include(ProbeRetry)

[ProbePerson.new.greet, ProbePerson.new.bye, ProbeJob.new.go, ProbeJob.new.again]

class ProbeAlwaysEqual
  def ==(other) = true
  def !=(other) = false
end

class ProbeNullObject
  def nil? = true
end

class ProbeNarrowing
  def rebound_in_argument; x = [1]; x.push((x = :gone; 2)); x; end
  def rebound_in_block; x = +"a"; x.then { x = 2 }; x; end
  def rebound_in_index_write; x = { a: 1 }; x[:b] = (x = :gone; 2); x; end
  def own_equality; x = ProbeAlwaysEqual.new; x == nil ? x : :no; end
  def own_inequality; x = ProbeAlwaysEqual.new; x != nil ? :nonnil : x; end
  def own_nil_check; x = ProbeNullObject.new; x.nil? ? x : :no; end
end

narrowing = ProbeNarrowing.new
ProbeNarrowing.instance_methods(false).sort.each { |m| narrowing.public_send(m) }

class ProbeObserver
  def initialize(owner) = @owner = owner
  def ==(other) = (@owner.zap; false)
  def to_s = (@owner.zap; "observer")
end

class ProbeIvarFacts
  def zap = @x = :zapped
  def through_lambda; l = -> { @x = :callback }; @x = "a"; l.call; @x; end
  def through_method; m = method(:zap); @x = "a"; m.call; @x; end
  def through_fiber; f = Fiber.new { @x = :fiber }; @x = "a"; f.resume; @x; end
  def through_enumerator; e = Enumerator.new { |y| @x = :enumerated; y << 1 }; @x = "a"; e.next; @x; end
  def through_element_equality; list = [ProbeObserver.new(self)]; @x = "a"; list.include?(:k); @x; end
  def through_interpolation; o = ProbeObserver.new(self); @x = "a"; "#{o}"; @x; end
end

ivar_facts = ProbeIvarFacts.new
%i[through_lambda through_method through_fiber through_enumerator through_element_equality through_interpolation].each { |m| ivar_facts.public_send(m) }

# The standard libraries loaded by default: values their rbs 2.1
# signatures excluded (engine/data/rbs_core_fixes.rbs).
require "set"
require "pathname"
require "tempfile"
require "securerandom"
require "json"
require "abbrev"
require "uri"
require "strscan"
require "time"
require "date"
require "csv"
require "bigdecimal"
require "bigdecimal/util"
require "objspace"
require "prettyprint"

class ProbeLibrarySignatures
  def set_reject_nothing = Set[1, 2].reject! { |x| x > 5 }
  def set_union_grows = (Set[1, 2] | ["a"]).to_a.last
  def set_added; s = Set[1, 2]; s << "a"; s.to_a.last; end
  def set_merged; s = Set[1, 2]; s.merge(["x"]); s.to_a.last; end
  def set_mapped; s = [1].to_set; s.map! { |x| x.to_s }; s.to_a.first; end
  def to_set_with_block = [1, 2].to_set { |x| x.to_s }.to_a.first
  def abbrev_keys = [:a].abbrev.keys.last
  def pathname_read_at_end = Pathname.new("/dev/null").read(10)
  def pathname_binread_at_end = Pathname.new("/dev/null").binread(4)
  def tempfile_ignores_block
    Tempfile.new("rigor") { |f| 1 }.tap(&:close!)
  end
  def secure_random_zero = SecureRandom.random_number(0)
  def secure_rand_zero = SecureRandom.rand(0)
  def json_state_prototype = JSON::FAST_STATE_PROTOTYPE
  def uri_merge_bang = URI.parse("http://a/b").merge!("c")
  def scanner_check_until_missing = StringScanner.new("ab").check_until(/x/)
  def scanner_pre_match_after_miss; s = StringScanner.new("ab"); s.scan(/x/); s.pre_match; end
  def scanner_size_after_miss; s = StringScanner.new("ab"); s.scan(/x/); s.size; end
  def unknown_zone_offset = Time.zone_offset("XYZ")
  def strptime_no_match = Date._strptime("x", "%Y")
  def parse_zone = Date._parse("2020-01-02 10:00 +09:00")[:zone]
  def csv_with_headers = CSV.parse("a,b\n1,2\n", headers: true)
  def csv_line_converted = CSV.parse_line("1,2", converters: :numeric).first
  def bigdecimal_round_to_tens = BigDecimal("15.5").round(-1)
  def nil_to_d = nil.to_d
  def untraced_source_file = ObjectSpace.allocation_sourcefile(Object.new)
  def reachable = ObjectSpace.reachable_objects_from([1, "a", "b"])
  def pretty_group
    PrettyPrint.new.tap { |q| q.group { q.breakable } }.group(1, "[", "]") { 1 }
  end
end

library_signatures = ProbeLibrarySignatures.new
ProbeLibrarySignatures.instance_methods(false).sort.each { |m| library_signatures.public_send(m) }
