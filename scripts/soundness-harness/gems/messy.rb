# Written to trip as many of RuboCop's cops as one file can: layout,
# style, lint and metrics offenses, most of them autocorrectable.
require 'set'
class   Messy_Thing
  attr_accessor :name,:items
  def initialize( name,items=[] )
    @name=name;@items = items
    @cache = Hash.new
  end
  def add item
    if item != nil then
      @items << item
    end
    return self
  end
  def has_item?(x) ; @items.include?(x) == true ; end
  def total
    sum = 0
    for i in @items do
      sum = sum + i.to_i unless i.nil?
    end
    sum
  end
  def describe()
    "Thing: " + @name.to_s + " with #{ @items.length } items"
  end
  def lookup(key)
    @cache[key] ||= begin
      @items.select { |i| i.to_s == key.to_s }.map { |i| i.to_s }.first
    end
  end
  def risky
    begin
      Integer(@name)
    rescue Exception => e
      nil
    end
  end
  def nested(a, b, c)
    if a
      if b
        if c then :all else :two end
      else
        :one
      end
    else
      :none
    end
  end
  def strings
    x = 'single'
    y = "double"
    z = %w(a b c)
    [x, y, z, :"sym", 1.0/3, 0x1F, 1_000_000, 10000000]
  end
  def hash_styles
    { :a => 1, 'b' => 2, c: 3 }.each_pair { |k,v| puts k,v }
  end
  def unused_arg(used, unused)
    used.to_s
  end
  def long_line
    ['aaaaaaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbbbbbbbbbbb', 'cccccccccccccccccccccc', 'dddddddddddddddddddddd']
  end
  def guard(x)
    if x
      x * 2
    end
  end
  def self.build(*args) new(*args) end
end
module  Helpers end
$global_thing = Messy_Thing.build('x', [1, 2, nil])
puts $global_thing.describe
