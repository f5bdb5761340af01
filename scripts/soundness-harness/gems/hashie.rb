# The soundness harness's hashie workload: Mash's method access, Dash and
# Trash properties, Clash chains, Rash ranges and the mixin extensions.
require "hashie"

mash = Hashie::Mash.new(name: "Ann", address: { city: "Oslo", zip: "0150" }, tags: ["a", { b: 1 }])
mash.name
mash.address.city
mash.name?
mash.missing
mash.tags.last.b
mash.nested_!.value = 1
mash.deep_merge(address: { street: "Main" }).address.to_hash
mash.to_hash
mash.dig(:address, :zip)
mash.fetch(:name)
mash.key?(:name)
mash.update(extra: true).extra
Hashie::Mash.load rescue nil

class Person < Hashie::Dash
  property :name, required: true
  property :age, default: 0
  property :email, from: :mail
end
Person.new(name: "Bo", age: 3).to_h
begin
  Person.new(age: 1)
rescue ArgumentError => e
  e.message
end

class Renamed < Hashie::Trash
  property :first_name, from: :firstName
  property :count, from: :n, with: ->(value) { value.to_i }
end
Renamed.new(firstName: "C", n: "4").to_h

clash = Hashie::Clash.new
clash.where(abc: "def").order(:created_at).limit(5)
clash.to_h

rash = Hashie::Rash.new(1..5 => "small", 6..10 => "big", /ab/ => "regex")
[rash[3], rash[7], rash["xaby"], rash[99]]

class Settings < Hash
  include Hashie::Extensions::MergeInitializer
  include Hashie::Extensions::IndifferentAccess
  include Hashie::Extensions::DeepMerge
  include Hashie::Extensions::DeepFetch
  include Hashie::Extensions::MethodAccess
end
settings = Settings.new("a" => { "b" => 1 })
settings[:a]
settings.deep_fetch(:a, :b)
settings.deep_merge("a" => { "c" => 2 })
Hashie.symbolize_keys("x" => { "y" => 1 })
Hashie.stringify_keys(x: 1)
