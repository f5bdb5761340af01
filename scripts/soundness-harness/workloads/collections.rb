# Set, TSort, Matrix, Prime, OpenStruct, Forwardable, Delegate, Observable.
require "set"
require "tsort"
require "matrix"
require "prime"
require "ostruct"
require "forwardable"
require "delegate"
require "observer"

s = Set[3, 1, 2]
t = Set.new([2, 5])
s | t
s & t
s - t
s ^ t
s.subset?(Set[1, 2, 3, 4])
s.add?(9)
s.add?(9)
s.map { |x| x * 2 }
s.group_by(&:odd?)
s.classify(&:odd?)
s.divide { |a, b| (a - b).abs == 1 }
s.to_a.sort
s.include?(3)
s.min
s.sort_by { |x| -x }
s.delete(3)
s.each_slice(2).to_a
s.inspect
s.to_set.frozen?
Set.new([[1, 2]]).flatten
s == Set[1, 2, 9]
s.disjoint?(t)

class Graph
  include TSort

  def initialize(edges) = @edges = edges
  def tsort_each_node(&block) = @edges.each_key(&block)
  def tsort_each_child(node, &block) = @edges.fetch(node, []).each(&block)
end
graph = Graph.new({ 1 => [2, 3], 2 => [3], 3 => [], 4 => [1] })
graph.tsort
graph.strongly_connected_components
graph.each_strongly_connected_component { |c| c.size }

m = Matrix[[1, 2], [3, 4]]
m.determinant
m.transpose.to_a
(m * m).to_a
m.row(0).to_a
Vector[1, 2].inner_product(Vector[3, 4])
m.square?
m.rank

Prime.first(10)
Prime.prime?(97)
60.prime_division
Prime.each(30).to_a
Prime.int_from_prime_division([[2, 2], [3, 1]])

o = OpenStruct.new(name: "x", size: 3)
o.name
o[:size]
o.to_h
o.respond_to?(:name)
o.dig(:name)

class Queue2
  extend Forwardable
  def_delegators :@items, :size, :first, :<<, :empty?
  def_delegator :@items, :last, :peek_last
  def initialize = @items = []
end
q = Queue2.new
q << 1
q << 2
q.size
q.first
q.peek_last
q.empty?

class Loud < SimpleDelegator
  def upcase = __getobj__.upcase + "!"
end
Loud.new("hi").upcase
Loud.new("hi").length
DelegateClass(Array)

class Ticker
  include Observable
  def tick(n)
    changed
    notify_observers(n)
  end
end
class Watcher
  def update(n) = n * 2
end
ticker = Ticker.new
ticker.add_observer(Watcher.new)
ticker.tick(3)
ticker.count_observers
