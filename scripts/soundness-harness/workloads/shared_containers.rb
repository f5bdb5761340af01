# Arrays and hashes of known elements reached two ways: through an alias
# of a non-literal container, an element taken out, an element put into
# another container, or a block given the elements. A mutation through
# one way changes what the other holds.

class Inner
  def a
    a = [[1]]
    b = a[0]
    b << "x"
    a
  end
  def b
    h = {k: [1]}
    h[:k] << :s
    h
  end
  def c
    a = [[1]]
    a.first.push("y")
    a
  end
  def d
    a = [[1], [2]]
    a.each { |row| row << "z" }
    a
  end
  def e
    h = {a: {b: 1}}
    h[:a][:c] = "s"
    h
  end
  def f
    a = [{x: 1}]
    a[0][:y] = "s"
    a
  end
  def g
    a = ["ab"]
    a[0] << 5.to_s
    a
  end
  def h
    a = [[1]]
    a.map { |r| r.concat(["q"]) }
    a
  end
  def i
    a = [[1]]
    b = a.dup
    b[0] << "dup"
    a
  end
  def j
    inner = [1]
    outer = [inner]
    inner << "late"
    outer
  end
  def k
    inner = {a: 1}
    outer = [inner]
    inner[:b] = "late"
    outer
  end
  def l
    s = "x"
    arr = [s]
    s << "y"
    arr
  end
  def m
    inner = [1]
    h = {k: inner}
    inner.push(:late)
    h
  end
  def n
    a = [1]
    b = [a, a]
    b[0] << "via"
    b[1]
  end
end

class Al
  def a
    a = [1]
    a << 2
    b = a
    b << "x"
    a
  end
  def b
    a = [1].map { _1 * 2 }
    b = a
    b << "y"
    a
  end
  def c
    h = {a: 1}.to_h
    g = h
    g[:b] = "s"
    h
  end
  def d
    a = [1].map { _1 }
    mutate(a)
    a
  end
  def mutate(x) = x << "m"
  def e
    a = Array.new(2, 0)
    b = a
    b[0] = "s"
    a
  end
end

[[Inner, []], [Al, %i[mutate]]].each do |klass, skip|
  object = klass.new
  (klass.instance_methods(false) - skip).sort.each { |name| object.public_send(name) }
end
