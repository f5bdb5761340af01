# Text: Shellwords, StringIO, ERB, CSV, Base64, Abbrev, PP, Time, IPAddr.
require "shellwords"
require "stringio"
require "erb"
require "csv"
require "base64"
require "abbrev"
require "pp"
require "time"
require "ipaddr"
require "securerandom"
require "logger"
require "optparse"
require "cgi"

"a 'b c' d\\ e".shellsplit
Shellwords.escape("it's")
%w[a b c].shelljoin
Shellwords.split("x \"y z\"")

io = StringIO.new(+"")
io.puts("x")
io.write("abc")
io.string
StringIO.new("l1\nl2\n").each_line.to_a
StringIO.new("abc").read(2)

ERB.new("<%= 1 + 2 %> <% [1, 2].each do |x| %><%= x %><% end %>").result(binding)
ERB.new("a\n<%- if true -%>\nb\n<%- end -%>\n", trim_mode: "-").result
ERB::Util.html_escape("<a>")

csv = CSV.generate { |out| out << ["a", 1]; out << ["b,c", nil] }
CSV.parse(csv)
CSV.parse("h1,h2\n1,2\n", headers: true).map(&:to_h)
CSV.parse_line("x,y")
CSV.generate_line(["q", "r"])

Base64.strict_encode64("hello")
Base64.decode64("aGVsbG8=")
Base64.urlsafe_encode64("??>")
%w[ruby rules].abbrev
PP.pp({ a: [1, 2] }, +"")
[1, { b: 2 }].pretty_inspect

Time.parse("2024-01-02 03:04:05 UTC").iso8601
Time.iso8601("2024-01-02T03:04:05Z").to_i
Time.at(0).utc.httpdate
Time.rfc2822("Tue, 02 Jan 2024 03:04:05 +0000").year
Time.strptime("2024-05", "%Y-%m").month
Time.now.xmlschema(2)

ip = IPAddr.new("192.168.1.0/24")
ip.include?(IPAddr.new("192.168.1.7"))
ip.to_s
ip.to_range.first.to_s
IPAddr.new("::1").ipv6?
ip.mask(16).to_s
ip.succ.to_s

SecureRandom.hex(4).size
SecureRandom.uuid.size
SecureRandom.alphanumeric(5)

log = Logger.new(StringIO.new)
log.info("x")
log.level = Logger::WARN
log.debug?
log.formatter = proc { |sev, _t, _p, msg| "#{sev}: #{msg}\n" }
log.warn("careful")

options = {}
parser = OptionParser.new do |o|
  o.on("-v", "--verbose") { options[:verbose] = true }
  o.on("-nNAME", "--name NAME", String) { |v| options[:name] = v }
  o.on("--count N", Integer) { |v| options[:count] = v }
end
parser.parse(%w[-v --name x --count 3 rest])
parser.help
parser.summarize.to_a

CGI.escape("a b&c")
CGI.unescape("a+b%26c")
CGI.escapeHTML("<x>")
