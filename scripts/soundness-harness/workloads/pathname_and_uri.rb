# Pathname, URI, FileUtils and Tempfile, on a scratch directory.
require "pathname"
require "uri"
require "fileutils"
require "tmpdir"
require "tempfile"

Dir.mktmpdir do |dir|
  root = Pathname.new(dir)
  (root + "a").mkpath
  (root + "a/b.txt").write("hello\nworld\n")
  (root + "c.rb").write("puts 1\n")
  root.each_child { |child| child.basename.to_s }
  root.each_child(false).to_a
  root.children.map(&:extname)
  root.join("a", "b.txt").read.lines
  (root + "a/b.txt").relative_path_from(root).to_s
  root.descend { |p| p.to_s }
  root.ascend.first(2)
  (root + "a/../c.rb").cleanpath.to_s
  (root + "a/b.txt").sub_ext(".md").to_s
  Pathname("x/y/z.rb").each_filename.to_a
  Pathname("/usr/lib").relative?
  Pathname("lib/x.rb").parent.to_s
  root.find.count
  FileUtils.mkdir_p(File.join(dir, "d/e"))
  FileUtils.touch(File.join(dir, "d/e/f"))
  FileUtils.cp(File.join(dir, "c.rb"), File.join(dir, "d/c2.rb"))
  FileUtils.rm_rf(File.join(dir, "d"))
  Tempfile.create("x", dir) { |f| f.write("abc"); f.path }
end

%w[http://example.com/a?b=1 https://user@example.org:8443/x#frag ftp://ftp.example.net/pub/f.txt
   mailto:someone@example.com file:///etc/hosts].each do |text|
  uri = URI.parse(text)
  uri.scheme
  uri.host
  uri.port
  uri.default_port
  uri.class.default_port
  uri.path
  uri.query
  uri.to_s
  uri.normalize.to_s
  uri.userinfo
  uri.hierarchical?
end
URI.join("http://example.com/a/", "b/c").to_s
URI("http://example.com/x").route_to("http://example.com/y/z").to_s
URI.encode_www_form(a: 1, b: "x y")
URI.decode_www_form("a=1&b=x+y")
URI.encode_www_form_component("a b&c")
URI::HTTP.build(host: "example.com", path: "/p").to_s
URI.split("http://a.b/c?d")
