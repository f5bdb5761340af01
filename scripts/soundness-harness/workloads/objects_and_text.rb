# Objects whose state others change (writers, subclasses, reopened
# classes), text whose result class depends on the arguments (a match or
# not, an index found or not, an encoding), and I/O at its edges.

require "stringio"
require "tempfile"

class Account
  attr_accessor :balance
  attr_reader :owner

  def initialize(owner)
    @owner = owner
    @balance = 0
    @history = []
  end

  def deposit(amount)
    @balance += amount
    @history << amount
    self
  end

  def last = @history.last
  def history = @history
  def balance_label = "#{owner}: #{balance}"
  def owner_size = @owner.size
end

class Savings < Account
  def initialize(owner, rate)
    super(owner)
    @rate = rate
  end

  def interest = @balance * @rate
end

class Reopened
  def value = 1
end

class Reopened
  def value = "reopened"
end

module Greeting
  def greet = "hello #{name}"
end

class Person
  include Greeting
  def name = :person
end

class Robot
  include Greeting
  def name = 42
end

module Text
  module_function

  def match_or_nil(s) = s =~ /x/
  def index_or_nil(s) = s.index("q")
  def slice_out(s) = s[5, 3]
  def sub_bang(s) = s.dup.sub!(/z/, "y")
  def squeeze_bang(s) = s.dup.squeeze!
  def encoding_name(s) = s.encoding.name
  def force_binary(s) = s.dup.force_encoding("BINARY").valid_encoding?
  def unicode_normalize(s) = s.unicode_normalize
  def each_grapheme(s) = s.each_grapheme_cluster.to_a
  def scan_block(s)
    found = []
    s.scan(/(a)(b)?/) { |a, b| found << [a, b] }
    found
  end
  def gsub_hash(s) = s.gsub(/[ab]/, "a" => 1, "b" => "two")
  def tr_count(s) = s.count("a-c")
  def center(s) = s.center(9, "*")
  def to_sym_round(s) = :upcase.to_proc.call(s)
  def succ_string(s) = s.succ
  def frozen_literal = "lit".frozen?
  def string_new_capacity = String.new(capacity: 10)
  def heredoc_lines
    <<~TEXT.lines.map(&:chomp)
      one
      two
    TEXT
  end
  def string_io_read
    io = StringIO.new("ab\ncd")
    [io.gets, io.read, io.gets, io.read]
  end
  def string_io_readpartial = StringIO.new("").read(5)
  def tempfile_roundtrip
    Tempfile.create("rigor") do |f|
      f.write("xyz")
      f.rewind
      f.read(2)
    end
  end
  def file_read_missing
    File.read("/nonexistent/#{rand}")
  rescue Errno::ENOENT => e
    e.errno
  end
  def time_parts
    t = Time.at(0).utc
    [t.year, t.zone, t.to_a.size, t.strftime("%Y")]
  end
  def fixed_offset_zone = Time.at(0, in: "+09:00").zone
  def fixed_offset_to_a = Time.at(0, in: "+09:00").to_a
  def time_minus = Time.at(10) - Time.at(4)
  def time_minus_number = Time.at(10) - 4
  def comparable_sort = %w[b a c].sort { |x, y| y <=> x }
  def regexp_match_data = /(?<n>\d+)/.match("a12")[:n]
  def regexp_last_match
    "k9" =~ /(\d)/
    $1
  end
  def regexp_union = Regexp.union("a", /b/).source
end

a = Account.new("ann").deposit(5).deposit(2.5)
a.balance = "reset"
[a.balance, a.last, a.history, a.balance_label, a.owner_size]
s = Savings.new(["b"], 0.5).deposit(10)
[s.interest, s.owner_size, s.last]
Reopened.new.value
[Person.new.greet, Robot.new.greet]
Text.methods(false).sort.each do |name|
  arity = Text.method(name).arity
  arity.zero? ? Text.public_send(name) : Text.public_send(name, "abcab xyz")
end
Text.match_or_nil("no")
Text.index_or_nil("q")
Text.slice_out("ab")
