# What collections hold, element by element: the core's signatures say
# what each method gives, and folding on literals computes it. The
# recorder describes each array's and hash's first elements, so an element
# type that leaves out what Ruby put in is caught here.

module Elements
  module_function

  def zip_padded = [1, 2, 3].zip([:a])
  def each_slice_ragged = [1, 2, 3].each_slice(2).to_a
  def hash_to_a = { a: 1, b: "two" }.to_a
  def hash_find = { a: 1, b: 2 }.find { |_k, v| v > 1 }
  def hash_min_by = { a: 3, b: 2 }.min_by { |_k, v| v }
  def hash_sort_by = { b: 2, a: 1 }.sort_by { |k, _v| k }
  def hash_partition = { a: 1, b: 2 }.partition { |_k, v| v.odd? }
  def hash_group_by = { a: 1, b: 2 }.group_by { |_k, v| v.odd? }
  def hash_invert = { a: 1 }.invert
  def hash_transform = { a: 1 }.transform_values(&:to_s)
  def hash_map_to_h = { a: 1 }.to_h { |k, v| [v, k] }
  def hash_select = { a: 1, b: nil }.select { |_k, v| v }
  def hash_dig = { a: { b: [1, "x"] } }.dig(:a, :b, 1)
  def hash_sum = { a: 1, b: 2.5 }.sum { |_k, v| v }
  def hash_each_with_object = { a: 1 }.each_with_object([]) { |(k, v), acc| acc << k << v }
  def array_product = [1, 2].product([:a, "b"])
  def array_combination = [1, :b, "c"].combination(2).to_a
  def array_transpose = [[1, :a], [2, :b]].transpose
  def array_flatten_depth = [1, [2, [3, [:four]]]].flatten(1)
  def array_minmax = [3, 1, 2].minmax
  def array_minmax_empty = [].minmax
  def array_max_n = [3, 1, 2].max(2)
  def array_first_n_tuple = [1, "a", :b].first(2)
  def array_last_n = [1, "a", :b].last(2)
  def array_difference = [1, "a", :b] - [1]
  def array_union = [1] | ["a"]
  def array_to_h = [[1, :a], ["b", 2]].to_h
  def array_each_with_index_map = %w[a b].each_with_index.map { |s, i| [s, i] }
  def array_chunk_while = [1, 2, 4, 5].chunk_while { |a, b| b == a + 1 }.to_a
  def array_slice_when = [1, 2, 4].slice_when { |a, b| b != a + 1 }.to_a
  def array_cycle_first = [1, :a].cycle.first(5)
  def array_sample_n = [1, 2, 3].sample(2)
  def array_rotate = [1, "a", :b].rotate
  def array_assoc = [[1, :a], [2, :b]].assoc(2)
  def array_inject_strings = %w[a b c].inject(:+)
  def array_sum_mixed = [1, 2.5, 3r].sum
  def array_bsearch = [1, 3, 5].bsearch { |x| x >= 3 }
  def array_take_while = [1, 2, "c", 4].take_while { |x| x.is_a?(Integer) }
  def array_filter_map = [1, nil, 2].filter_map { |x| x && x * 2 }
  def array_each_cons = [1, 2, 3].each_cons(2).to_a
  def array_values_at = [1, "a"].values_at(0, 1, 5)
  def array_fetch_default = [1].fetch(5, :none)
  def array_dig = [[1, ["x"]]].dig(0, 1, 0)
  def array_compact_nested = [[nil, 1], nil].compact
  def array_uniq_by = [1, 1.0, "1"].uniq(&:to_s)
  def array_sort_mixed = [2, 1.5, 3r].sort
  def array_multiply_join = [1, :a] * "-"
  def array_pack = [65, 66].pack("C*")
  def string_scan_groups = "a1 b2".scan(/(\w)(\d)/)
  def string_scan_plain = "a1 b2".scan(/\d/)
  def string_split_limit = "a,b,,".split(",", -1)
  def string_chars_slices = "abcde".chars.each_slice(2).map(&:join)
  def string_unpack1 = "AB".unpack1("C")
  def string_bytes_slice = "hello".bytes.first(2)
  def string_captures = "ab12".match(/([a-z]+)(\d+)/)&.captures
  def string_named = "ab12".match(/(?<w>[a-z]+)/)&.named_captures
  def string_partition = "a=b".partition("=")
  def string_each_line = "a\nb".each_line.to_a
  def string_lines_chomp = "a\nb\n".lines(chomp: true)
  def integer_digits = 1234.digits
  def integer_divmod = 7.divmod(2)
  def float_divmod = 7.5.divmod(2)
  def integer_parse = Integer("0x1A", exception: false)
  def integer_parse_bad = Integer("zz", exception: false)
  def range_step = (1..10).step(4).to_a
  def range_letters = ("a".."e").to_a
  def range_lazy = (1..Float::INFINITY).lazy.map { |x| x * 2 }.first(3)
  def range_minmax = (1..3).minmax
  def range_sum_float = (1..3).sum(0.0)
  def struct_to_a = Struct.new(:a, :b).new(1, "x").to_a
  def hash_default_proc_list
    h = Hash.new { |hash, key| hash[key] = [] }
    h[:x] << 1
    h[:x]
  end
  def set_to_a
    require "set"
    Set[1, :a].to_a
  end
  def array_new_fill = Array.new(2, :x)
  def array_new_sized = Array.new(2)
  def hash_keys_mixed = { 1 => :a, "b" => 2 }.keys
  def hash_values_mixed = { 1 => :a, "b" => 2 }.values
  def hash_fetch_values = { a: 1, b: "x" }.fetch_values(:a, :b)
  def hash_values_at = { a: 1 }.values_at(:a, :zz)
  def hash_merge_block = { a: 1 }.merge({ a: 2.5 }) { |_k, x, y| x + y }
  def hash_update = { a: 1 }.update(b: "two")
  def hash_compare = { a: 1 } == { a: 1.0 }
  def each_entry_pairs = { a: 1 }.each_entry.to_a
  def enum_with_object = %w[a b].each_with_object({}) { |s, h| h[s] = s.size }
  def enum_zip_block = [1, 2].zip([3, 4]).map { |a, b| a * b }
  def flat_map_mixed = [1, 2].flat_map { |x| [x, x.to_s] }
  def sum_strings = %w[a b].sum("")
  def to_set_size
    require "set"
    [1, 1, 2].to_set.size
  end
end

Elements.methods(false).sort.each { |name| Elements.public_send(name) }
