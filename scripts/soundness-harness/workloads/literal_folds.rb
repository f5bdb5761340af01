# Core methods the engine folds on literal receivers and arguments
# (engine/src/infer/fold.rs): each answer is an exact value, so each must
# be the value Ruby gives. Equality against identity (`eql?` wants one
# class, `equal?` one object), Integer against Float compared exactly,
# Float#% as fmod, fdiv past 2**53, Float#to_s at the fixed/exponent
# boundary, and Symbol#inspect of globals.

class Equal
  def a = 1.eql?(1.0)
  def b = 1.equal?(1.0)
  def c = "a".equal?("a")
  def d = (2**62).equal?(2**62)
  def e = 1e300.equal?(1e300)
  def f = 1.0.eql?(1)
  def g = 1.0.equal?(1.0)
  def h = :a.equal?(:a)
  def i = 3.equal?(3)
  def j = "b".eql?("b")
  def k = "a".equal?("b")
  def l = nil.equal?(false)
  def m = 1 == 1.0
  def n = 2.0.eql?(2.0)
  def o = -0.0.equal?(0.0)
end

class Mixed
  def a = 9007199254740993 == 9007199254740992.0
  def b = 9007199254740993 > 9007199254740992.0
  def c = 9007199254740992.0 < 9007199254740993
  def d = 9007199254740992.0 <=> 9007199254740993
  def e = 9007199254740993 <=> 9007199254740992.0
  def f = 2 < 2.5
  def g = -2 < -2.5
  def h = 9223372036854775807 < 9.3e18
  def i = 3 >= 3.0
  def j = 9007199254740993 != 9007199254740992.0
  def k = 1 + 0.5
  def l = 7 / 2.0
end

class FloatMod
  def a = 5.5 % 0.1
  def b = 5.5.modulo(0.1)
  def c = -5.5 % 0.1
  def d = 7 % 2.5
  def e = 10.0 % 3
  def f = -7.0 % 2
  def g = 7.0 % -2
  def h = 12.5 % 0.5
  def i = 0.3 % 0.1
  def j = 1.0 % Float::INFINITY
  def k = -1.0 % Float::INFINITY
  def l = 0.0 % 5.0
end

class Fdiv
  def a = 1.fdiv(4)
  def b = 4611686018427387903.fdiv(9007199254740993)
  def c = 1.fdiv(0)
  def d = -1.fdiv(0)
  def e = 9007199254740993.fdiv(1)
  def f = 7.fdiv(2.0)
end

class FloatText
  def a = 1e14.to_s
  def b = 1e15.to_s
  def c = (1e15 + 0.5).to_s
  def d = 1234567890123456.0.to_s
  def e = 999999999999999.0.to_s
  def f = 1e16.to_s
  def g = 0.0001.to_s
  def h = 0.00001.to_s
  def i = 5e15.inspect
  def j = -1e15.to_s
  def k = 100.0.to_s
  def l = 1e-7.to_s
end

class SymbolText
  def a = :"$1".inspect
  def b = :"$12".inspect
  def c = :"$0".inspect
  def d = :"$05".inspect
  def e = :"$~".inspect
  def f = :"$-w".inspect
  def g = :"$-ww".inspect
  def h = :"$".inspect
  def i = :"$%".inspect
  def j = :"$a".inspect
  def k = :"@1".inspect
  def l = :"foo bar".inspect
  def m = :"a?=".inspect
  def n = :[]=.inspect
end

[Equal, Mixed, FloatMod, Fdiv, FloatText, SymbolText].each do |klass|
  object = klass.new
  klass.instance_methods(false).sort.each do |name|
    object.public_send(name)
  rescue StandardError
    nil
  end
end
