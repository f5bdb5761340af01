# Time parsing, Net::HTTP headers (no network), URI, JSON (Ruby parts),
# OptionParser, GetoptLong, Digest wrappers, IPAddr, Resolv literals.
require "time"
require "net/http"
require "uri"
require "json"
require "json/add/core"
require "optparse"
require "getoptlong"
require "digest"
require "ipaddr"
require "resolv"
require "cgi"
require "erb"

Time.parse("2020-01-02 03:04:05 UTC")
Time.iso8601("2020-01-02T03:04:05Z")
Time.rfc2822("Thu, 02 Jan 2020 03:04:05 +0000")
Time.httpdate("Thu, 02 Jan 2020 03:04:05 GMT")
Time.strptime("2020-01-02", "%Y-%m-%d")
Time.xmlschema("2020-01-02T03:04:05+09:00")
t = Time.at(0).utc
t.iso8601
t.xmlschema(3)
t.httpdate
t.rfc2822
Time.zone_offset("JST")
Time.zone_offset("+09:00")

req = Net::HTTP::Get.new(URI("http://example.com/a?b=1"))
req["Accept"] = "text/plain"
req["accept"]
req.each_header.to_a
req.key?("accept")
req.method
req.path
req.request_body_permitted?
req.content_type = "application/json"
req.content_type
req.main_type
req.sub_type
req.type_params
req.basic_auth("u", "p")
req.get_fields("accept")
req.to_hash
req.range = 0..10
req.range
req.content_length = 5
req.content_length
req.chunked?
Net::HTTP::Post.new("/x").request_body_permitted?
http = Net::HTTP.new("example.com", 443)
http.use_ssl = true
http.use_ssl?
http.port
http.address
http.started?
Net::HTTP.http_default_port
Net::HTTPResponse::CODE_TO_OBJ["404"]
Net::HTTPResponse::CODE_CLASS_TO_OBJ["2"]

u = URI.parse("https://user@example.com:8443/p/a?q=1#f")
u.host
u.port
u.path
u.query
u.fragment
u.userinfo
u.scheme
u.request_uri
u.to_s
u.route_to("https://user@example.com:8443/p/b")
u.merge("../c")
u.normalize
u.hostname
URI.join("http://a/b/", "c")
URI.encode_www_form(a: 1, b: [2, 3])
URI.decode_www_form("a=1&b=2")
URI.encode_www_form_component("a b")
URI.decode_www_form_component("a+b")
URI::HTTP.build(host: "h", path: "/p")
URI.split("http://h/p")
URI.extract("see http://a.b/c and ftp://d/e") rescue nil
URI.regexp rescue nil
URI("mailto:a@b.c").to
URI("ftp://h/p;type=a").typecode
URI::Generic.default_port
URI::HTTPS.default_port
u.default_port
URI("http://h").default_port

JSON.generate({ "a" => [1, nil] })
JSON.parse('{"a": [1, 2.5, "x", null, true]}')
JSON.parse('{"a": 1}', symbolize_names: true)
JSON.pretty_generate([1, { "b" => 2 }])
JSON.dump({ "c" => 1 })
JSON.load("[1]")
[1, 2].to_json
{ "k" => :v }.to_json
JSON.parse(JSON.generate(1..3)) rescue nil
(1..3).to_json
:sym.to_json
Time.at(0).to_json
JSON::State.new.indent
JSON.state rescue nil
JSON.create_id

options = {}
parser = OptionParser.new do |o|
  o.banner = "usage: x"
  o.on("-v", "--verbose") { |v| options[:v] = v }
  o.on("-nNAME", "--name NAME", String) { |n| options[:n] = n }
  o.on("-c", "--count N", Integer) { |c| options[:c] = c }
  o.on("--list A,B", Array) { |l| options[:l] = l }
  o.on("--[no-]color") { |c| options[:color] = c }
end
parser.parse(%w[-v --name x -c 3 --list a,b --no-color rest])
parser.help
parser.to_s
parser.summarize.to_a
parser.banner
parser.program_name
parser.getopts(%w[-a], "ab") rescue nil
OptionParser.new.parse!(%w[x y])

g = GetoptLong.new(["--alpha", "-a", GetoptLong::NO_ARGUMENT], ["--beta", "-b", GetoptLong::REQUIRED_ARGUMENT])
ARGV.replace(%w[-a --beta 2 left])
g.each { |opt, arg| [opt, arg] }
ARGV.replace([])

Digest::SHA256.hexdigest("x")
Digest::MD5.base64digest("y")
Digest::SHA1.new.update("a").hexdigest
Digest::SHA256.digest("z").bytesize
Digest.hexencode("ab")

ip = IPAddr.new("192.168.1.0/24")
ip.include?(IPAddr.new("192.168.1.7"))
ip.to_s
ip.to_range.first.to_s
ip.ipv4?
ip.ipv6?
ip.mask(16).to_s
ip.prefix
ip.succ.to_s
IPAddr.new("::1").ipv4_compat? rescue nil
IPAddr.new("::ffff:1.2.3.4").ipv4_mapped?
IPAddr.new("1.2.3.4").reverse
IPAddr.new("1.2.3.4").hton.bytesize
IPAddr.new("10.0.0.1").private?
IPAddr.new("127.0.0.1").loopback?
Resolv::IPv4.create("1.2.3.4").to_s
Resolv::IPv6.create("::1").to_s
Resolv::IPv4::Regex.match?("1.2.3.4")

CGI.escape("a b&c")
CGI.unescape("a+b%26c")
CGI.escapeHTML("<x>")
CGI.unescapeHTML("&lt;x&gt;")
CGI::Cookie.new("name", "value").to_s
CGI.rfc1123_date(Time.at(0))
CGI.pretty("<a><b></b></a>")
