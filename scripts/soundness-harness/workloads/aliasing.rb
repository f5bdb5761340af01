# Values that change behind a name: a literal mutated through another
# local or a block, a hash with a default, a local written by a closure or
# by eval, a sort in place. A checker that folds the literal it first saw
# answers wrongly for each.

module Aliasing
  module_function

  def string_through_alias
    s = "ab"
    t = s
    t << "c"
    s
  end

  def string_size_after_alias
    s = +"ab"
    t = s
    t << "c"
    s.size
  end

  def tuple_through_alias
    a = [1]
    b = a
    b << "x"
    a
  end

  def tuple_first_after_sort
    a = [3, 1, 2]
    a.sort!
    a.first
  end

  def tuple_after_map_bang
    a = [1, 2]
    a.map!(&:to_s)
    a
  end

  def tuple_mutated_in_block
    a = [1]
    [a].each { |x| x << 2 }
    a.size
  end

  def string_upcase_bang
    s = +"abc"
    s.upcase!
    s
  end

  def hash_through_alias
    h = { a: 1 }
    g = h
    g[:b] = "s"
    h
  end

  def hash_default_value
    h = Hash.new(5)
    h[:z]
  end

  def hash_default_set_later
    h = { a: 1 }
    h.default = 3
    h[:b]
  end

  def hash_default_block
    h = Hash.new { |hash, key| hash[key] = key.to_s * 2 }
    h[:ab]
  end

  def hash_by_identity
    h = { "a" => 1 }.compare_by_identity
    h["a".dup]
  end

  def local_written_by_block
    x = 5
    [1].each { x = "s" }
    x
  end

  def local_written_by_lambda
    x = 5
    l = -> { x = "s" }
    l.call
    x
  end

  def local_written_by_proc_passed_on(list)
    x = 5
    pr = proc { |_| x = nil }
    list.each(&pr)
    x
  end

  def local_written_by_eval
    x = 5
    eval("x = 's'")
    x
  end

  def local_set_through_binding
    x = 5
    binding.local_variable_set(:x, :sym)
    x
  end

  def for_loop_variable
    for i in [1, "two"]
    end
    i
  end

  def splat_nil
    a = *nil
    a
  end

  def masgn_short
    a, b = [1]
    [a, b]
  end

  def masgn_rest
    _first, *rest = 1, 2, 3
    rest
  end

  def ensure_return
    return 1
  ensure
    return "ensured"
  end

  def loop_result
    e = [1, 2].each
    loop { e.next }
  end

  def times_value = 3.times { nil }

  def each_value = [1, 2].each { nil }

  def negative_index = [1, 2, 3][-1]

  def tuple_first_n = [1, 2].first(1)

  def string_freeze_minus = (-"lit").frozen?

  def array_new_block = Array.new(3) { |i| i * 2 }

  def default_from_other(a, b = a.size) = b

  def string_slice_bang
    s = +"hello"
    s.slice!(0, 2)
    s
  end

  def array_delete_then_size
    a = [1, 2, 3]
    a.delete(2)
    a.size
  end

  def array_clear
    a = [1, 2]
    a.clear
    a.first
  end

  def string_clear
    s = +"abc"
    s.clear
    s.empty?
  end

  def hash_delete_then_key
    h = { a: 1, b: 2 }
    h.delete(:a)
    h[:a]
  end

  def hash_merge_bang
    h = { a: 1 }
    h.merge!(b: "two")
    h[:b]
  end

  def instance_exec_self = "str".instance_exec { self }

  def string_concat_method
    s = +"a"
    s.concat("b", "c")
    s.length
  end

  def ivar_alias
    @list = [1]
    grow(@list)
    @list.size
  end

  def grow(list) = list.push(:more)
end

Aliasing.string_through_alias
Aliasing.string_size_after_alias
Aliasing.tuple_through_alias
Aliasing.tuple_first_after_sort
Aliasing.tuple_after_map_bang
Aliasing.tuple_mutated_in_block
Aliasing.string_upcase_bang
Aliasing.hash_through_alias
Aliasing.hash_default_value
Aliasing.hash_default_set_later
Aliasing.hash_default_block
Aliasing.hash_by_identity
Aliasing.local_written_by_block
Aliasing.local_written_by_lambda
Aliasing.local_written_by_proc_passed_on([1])
Aliasing.local_written_by_eval
Aliasing.local_set_through_binding
Aliasing.for_loop_variable
Aliasing.splat_nil
Aliasing.masgn_short
Aliasing.masgn_rest
Aliasing.ensure_return
Aliasing.loop_result
Aliasing.times_value
Aliasing.each_value
Aliasing.negative_index
Aliasing.tuple_first_n
Aliasing.string_freeze_minus
Aliasing.array_new_block
Aliasing.default_from_other("abc")
Aliasing.string_slice_bang
Aliasing.array_delete_then_size
Aliasing.array_clear
Aliasing.string_clear
Aliasing.hash_delete_then_key
Aliasing.hash_merge_bang
Aliasing.instance_exec_self
Aliasing.string_concat_method
Aliasing.ivar_alias
