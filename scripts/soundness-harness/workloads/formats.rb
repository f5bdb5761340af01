# Data formats: JSON, YAML (Psych), PStore, YAML::Store, Digest, Zlib.
require "json"
require "yaml"
require "pstore"
require "yaml/store"
require "tmpdir"
require "digest"
require "zlib"

data = { "name" => "x", "list" => [1, 2.5, nil, true], "nested" => { "k" => "v" } }
text = JSON.generate(data)
JSON.parse(text)
JSON.parse(text, symbolize_names: true)
JSON.pretty_generate(data)
JSON.dump([1, "a"])
[1, 2].to_json
"s".to_json
JSON.parse("[1]", object_class: Hash)

yaml = data.to_yaml
YAML.load(yaml)
YAML.safe_load("a: 1\nb: [x, y]\n")
YAML.dump([:a, 1])
Psych.parse("- a\n- b\n").to_ruby
YAML.load_stream("--- 1\n--- 2\n")

Dir.mktmpdir do |dir|
  store = PStore.new(File.join(dir, "p.store"))
  store.transaction { store[:a] = [1, 2] }
  store.transaction(true) { store[:a] }
  store.transaction(true) { store.roots }
  ystore = YAML::Store.new(File.join(dir, "y.store"))
  ystore.transaction { ystore["k"] = { "v" => 1 } }
  ystore.transaction(true) { ystore.fetch("k") }
end

Digest::SHA256.hexdigest("abc")
Digest::MD5.base64digest("abc")
Digest::SHA1.new.update("a").hexdigest
Zlib::Inflate.inflate(Zlib::Deflate.deflate("hello"))
Zlib.crc32("abc")
