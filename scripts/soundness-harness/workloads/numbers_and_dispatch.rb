# Arithmetic whose result class depends on the values (a negative base to
# a fractional power is Complex), rounding whose result class depends on
# the digits asked for, and calls whose target is chosen at run time.

module Numbers
  module_function

  def negative_root = (-8) ** (1.0 / 3)
  def negative_float_root = (-8.0) ** 0.5
  def int_negative_power = 2 ** -2
  def int_float_power = 4 ** 0.5
  def rational_power = (1r / 4) ** 0.5
  def rational_int_power = (2r / 3) ** 2
  def float_round = 1.5.round
  def float_round_digits = 1.55.round(1)
  def float_round_negative = 155.5.round(-1)
  def int_round_negative = 155.round(-1)
  def float_floor_digits = 1.55.floor(1)
  def float_ceil = 1.2.ceil
  def int_fdiv = 10.fdiv(4)
  def int_div_float = 7 / 2.0
  def int_modulo_float = 7 % 2.5
  def int_divmod_float = 7.divmod(2.5)
  def float_to_r = 0.5.to_r
  def int_coerce = 1.coerce(2.5)
  def int_to_s_base = 255.to_s(2)
  def int_pow_mod = 3.pow(4, 5)
  def integer_sqrt = Integer.sqrt(17)
  def math_sqrt = Math.sqrt(16)
  def int_abs_negative = -5.abs
  def float_nan = 0.0 / 0.0
  def float_infinite = (1.0 / 0).infinite?
  def float_infinite_none = 1.0.infinite?
  def clamp_value = 15.clamp(1, 10)
  def clamp_float = 1.5.clamp(1, 3)
  def between = 5.between?(1, 10)
  def comparable_max = [1, 2.5].max
  def int_succ = 1.succ
  def string_ord = "a".ord
  def string_mul_zero = "abc" * 0
  def string_format_float = "%d" % 1.5
  def string_to_i_base = "ff".to_i(16)
  def string_to_f = "1e3".to_f
  def string_to_r = "1/3".to_r
  def string_to_c = "1+2i".to_c
  def numeric_step_float = 1.step(2, 0.5).to_a
  def range_float_step = (1.0..2.0).step(0.5).to_a
  def rand_range = rand(1..6)
  def rand_float = rand(1.5)
  def rand_int = rand(6)
  def sample_range = [1, 2].sample(random: Random.new(1))
end

module Dispatch
  module_function

  class Base
    def kind = :base
    def describe = "#{kind}!"
  end

  class Child < Base
    def kind = "child"
  end

  class Ghost
    def method_missing(name, *args) = name == :boo ? [:boo, *args] : super
    def respond_to_missing?(name, include_private = false) = name == :boo || super
  end

  def dynamic_send(name) = 5.send(name)
  def dynamic_public_send(obj, name) = obj.public_send(name)
  def method_object = 5.method(:to_s).call(2)
  def method_to_proc = [1, 2].map(&10.method(:+))
  def unbound = Integer.instance_method(:to_s).bind_call(255, 16)
  def ghost_call = Ghost.new.boo(1)
  def child_describe = Child.new.describe
  def base_kind_via_child(obj = Child.new) = obj.kind
  def curried = ->(a, b) { a + b }.curry[1][2]
  def proc_arity_lenient = proc { |a, b| [a, b] }.call(1)
  def proc_spread = proc { |a, b| [a, b] }.call([1, "x"])
  def lambda_kwargs = ->(k: 1) { k }.call(k: "s")
  def define_dynamic
    Dispatch.define_singleton_method(:made) { :made }
    Dispatch.made
  end
  def singleton_override
    s = +"x"
    s.define_singleton_method(:size) { "big" }
    s.size
  end
  def extended_object
    o = Object.new
    o.extend(Comparable)
    o.is_a?(Comparable)
  end
  def const_via_self_class(obj = Child.new) = obj.class.name
  def instance_variable_roundtrip
    o = Object.new
    o.instance_variable_set(:@x, [1, "y"])
    o.instance_variable_get(:@x)
  end
  def struct_kw = Struct.new(:a, keyword_init: true).new(a: "s").a
  def struct_setter
    s = Struct.new(:a).new(1)
    s.a = "now a string"
    s.a
  end
  def data_with
    d = Data.define(:x).new(x: 1) if defined?(Data)
    d ? d.with(x: "s").x : "s"
  end
  def frozen_error
    "lit".freeze.upcase!
  rescue FrozenError => e
    e.class
  end
  def rescue_value(x)
    Integer(x)
  rescue ArgumentError
    :bad
  end
  def retry_count
    tries = 0
    begin
      tries += 1
      raise "again" if tries < 3
      tries
    rescue RuntimeError
      retry
    end
  end
  def case_in_pattern(value)
    case value
    in [Integer => a, String => b] then [b, a]
    in { name: String => name } then name
    in Float | Rational => n then n
    else :other
    end
  end
  def throw_value = catch(:found) { [1, 2].each { |x| throw :found, x.to_s if x == 2 }; :none }
  def ensure_value
    x = 1
    begin
      x = "body"
    ensure
      x = :ensure
    end
    x
  end
  def super_default = Child.superclass.new.kind
end

Numbers.methods(false).sort.each { |name| Numbers.public_send(name) }
Dispatch.dynamic_send(:to_s)
Dispatch.dynamic_send(:succ)
Dispatch.dynamic_public_send("s", :upcase)
Dispatch.dynamic_public_send(3, :pred)
Dispatch.rescue_value("12")
Dispatch.rescue_value("zz")
Dispatch.case_in_pattern([1, "a"])
Dispatch.case_in_pattern({ name: "n" })
Dispatch.case_in_pattern(1.5)
Dispatch.case_in_pattern(2r)
Dispatch.case_in_pattern(nil)
Dispatch.base_kind_via_child
Dispatch.base_kind_via_child(Dispatch::Base.new)
Dispatch.const_via_self_class
(Dispatch.methods(false) - %i[dynamic_send dynamic_public_send rescue_value case_in_pattern]).sort.each do |name|
  Dispatch.public_send(name)
end
