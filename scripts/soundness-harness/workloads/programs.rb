# Programs of the standard library run end to end, offline: DRb serves an
# object over a UNIX socket; Resolv encodes and decodes DNS messages; OpenSSL makes
# a certificate and talks TLS over a socket pair; FileUtils works a
# directory tree; Bundler reads a lockfile. (Debian's RubyGems loads from
# vendor_ruby, outside the traced library: it is left out.)
require "drb/drb"
require "drb/unix"
require "resolv"
require "openssl"
require "socket"
require "fileutils"
require "tmpdir"
require "bundler"

Dir.mktmpdir do |dir|
  # DRb: an object served and called.
  front = { "greeting" => "hi" }
  uri = "drbunix:#{dir}/drb.sock"
  DRb.start_service(uri, front)
  remote = DRbObject.new_with_uri(uri)
  remote["greeting"]
  remote.keys
  remote.size
  DRb.stop_service

  # Resolv: DNS messages encoded and decoded.
  message = Resolv::DNS::Message.new(1234)
  message.rd = 1
  message.add_question("example.com", Resolv::DNS::Resource::IN::A)
  message.add_answer("example.com", 300, Resolv::DNS::Resource::IN::A.new("93.184.216.34"))
  message.add_answer("example.com", 300, Resolv::DNS::Resource::IN::MX.new(10, Resolv::DNS::Name.create("mx.example.com.")))
  decoded = Resolv::DNS::Message.decode(message.encode)
  decoded.each_answer { |name, ttl, data| [name.to_s, ttl, data.class] }
  Resolv::IPv4.create("10.0.0.1").to_name.to_s
  Resolv::IPv6.create("::1").to_s
  File.write(File.join(dir, "hosts"), "127.0.0.1 localhost local\n::1 localhost\n")
  hosts = Resolv::Hosts.new(File.join(dir, "hosts"))
  hosts.getaddresses("localhost")
  hosts.getnames("127.0.0.1")
  hosts.getaddress("local")

  # OpenSSL: a self-signed certificate and a TLS round trip.
  key = OpenSSL::PKey::RSA.new(2048)
  name = OpenSSL::X509::Name.parse("/CN=localhost/O=Rigor")
  cert = OpenSSL::X509::Certificate.new
  cert.version = 2
  cert.serial = 1
  cert.subject = name
  cert.issuer = name
  cert.public_key = key.public_key
  cert.not_before = Time.now
  cert.not_after = Time.now + 3600
  extensions = OpenSSL::X509::ExtensionFactory.new
  extensions.subject_certificate = cert
  extensions.issuer_certificate = cert
  cert.add_extension(extensions.create_extension("basicConstraints", "CA:TRUE", true))
  cert.add_extension(extensions.create_extension("subjectAltName", "DNS:localhost"))
  cert.sign(key, OpenSSL::Digest.new("SHA256"))
  cert.to_pem
  name.to_s
  name.to_a
  server_side, client_side = UNIXSocket.pair
  server_context = OpenSSL::SSL::SSLContext.new
  server_context.cert = cert
  server_context.key = key
  server = Thread.new do
    ssl = OpenSSL::SSL::SSLSocket.new(server_side, server_context)
    ssl.accept
    ssl.puts(ssl.gets.upcase)
    ssl.close
  end
  client_context = OpenSSL::SSL::SSLContext.new
  client_context.set_params(verify_mode: OpenSSL::SSL::VERIFY_PEER, cert_store: OpenSSL::X509::Store.new.tap { |s| s.add_cert(cert) })
  client = OpenSSL::SSL::SSLSocket.new(client_side, client_context)
  client.hostname = "localhost"
  client.connect
  client.post_connection_check("localhost")
  client.puts("hello")
  client.gets
  client.read_nonblock(10, exception: false)
  client.close
  server.join
  OpenSSL::HMAC.hexdigest("SHA256", "key", "data")
  OpenSSL::PKCS5.pbkdf2_hmac("pw", "salt", 2, 16, "SHA256").bytesize

  # FileUtils: a tree made, copied, compared, moved and removed.
  tree = File.join(dir, "tree")
  FileUtils.mkdir_p(File.join(tree, "a/b"))
  FileUtils.touch(File.join(tree, "a/b/c.txt"))
  File.write(File.join(tree, "a/d.txt"), "data")
  FileUtils.cp_r(tree, File.join(dir, "copy"))
  FileUtils.compare_file(File.join(tree, "a/d.txt"), File.join(dir, "copy/a/d.txt"))
  FileUtils.mv(File.join(dir, "copy"), File.join(dir, "moved"))
  FileUtils.install(File.join(tree, "a/d.txt"), File.join(dir, "installed.txt"), mode: 0o644)
  FileUtils.ln_s(File.join(tree, "a"), File.join(dir, "link"))
  FileUtils.chmod_R(0o755, File.join(dir, "moved"))
  FileUtils.uptodate?(File.join(tree, "a/d.txt"), [File.join(dir, "installed.txt")])
  FileUtils.rm_rf([File.join(dir, "moved"), File.join(dir, "link")])
  FileUtils.remove_entry_secure(tree)

  # Bundler: a Gemfile evaluated and its lockfile parsed.
  gemfile = File.join(dir, "Gemfile")
  File.write(gemfile, <<~GEMFILE)
    source "https://rubygems.org"
    gem "rack", "~> 2.2"
    gem "rake", require: false
    group :test do
      gem "minitest", ">= 5"
    end
    platforms :ruby do
      gem "json"
    end
  GEMFILE
  ENV["BUNDLE_GEMFILE"] = gemfile
  dsl = Bundler::Dsl.new
  dsl.eval_gemfile(gemfile)
  dsl.dependencies.map { |d| [d.name, d.requirement.to_s, d.groups, d.autorequire] }
  lockfile = <<~LOCK
    GEM
      remote: https://rubygems.org/
      specs:
        rack (2.2.4)
        rake (13.0.6)
        tiny (0.1.0)
          json (>= 1.0)

    PLATFORMS
      x86_64-linux

    DEPENDENCIES
      rack (~> 2.2)
      rake

    BUNDLED WITH
       2.3.5
  LOCK
  parsed = Bundler::LockfileParser.new(lockfile)
  parsed.specs.map(&:full_name)
  parsed.dependencies.keys
  parsed.platforms.map(&:to_s)
  parsed.bundler_version
  Bundler::LockfileParser.sections_in_lockfile(lockfile)
end
