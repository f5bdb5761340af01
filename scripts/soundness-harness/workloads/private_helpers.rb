# Private helpers typed from their callers (parameter_inference): the
# recorder checks that what they really receive is what the engine binds.

module Padding
  private

  def pad(text, width, fill = " ")
    text.to_s.ljust(width, fill)
  end
end

class Table
  include Padding

  def initialize(rows)
    @rows = rows
  end

  def render
    @rows.map { |row| line(row, 12) }.join("\n")
  end

  def header(title)
    pad(title, 20, "-") + pad("|", 3)
  end

  private

  def line(row, width)
    cells(row).map { |cell| pad(cell, width) }.join
  end

  def cells(row)
    row.map { |value| format_value(value) }
  end

  def format_value(value, precision: 2)
    value.is_a?(Float) ? value.round(precision).to_s : value.to_s
  end
end

class Wide < Table
  def render
    super + tally(@rows.size, "rows")
  end

  private

  def tally(count, unit)
    "#{count} #{unit}"
  end
end

class Counter
  def initialize
    @counts = Hash.new(0)
  end

  def add_all(words)
    words.each { |word| bump(word) }
    bump(:total, words.size)
    self
  end

  def report = summarize(@counts, limit: 3)

  private

  def bump(key, by = 1)
    @counts[key] += by
  end

  def summarize(counts, limit:)
    counts.sort_by { |_, n| -n }.first(limit).map { |k, n| "#{k}=#{n}" }
  end
end

Table.new([[1, 2.5, "x"], [3, 4.25, :y]]).render
Table.new([]).header("title")
Wide.new([[1, "a"]]).render
Counter.new.add_all(%w[a b a c]).report
