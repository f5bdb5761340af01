# The soundness harness's rack workload: an application behind Rack's own
# middleware, called through Rack::MockRequest; and the utilities for
# queries, headers, cookies and multipart bodies.
require "rack"
require "rack/mock"

app = Rack::Builder.new do
  use Rack::Lint
  use Rack::ContentLength
  use Rack::ETag
  use Rack::ConditionalGet
  use Rack::Deflater
  use Rack::MethodOverride
  use Rack::Head
  use Rack::Runtime
  use Rack::Session::Cookie, secret: "s" * 64
  map "/hello" do
    run ->(env) {
      request = Rack::Request.new(env)
      request.session["seen"] = (request.session["seen"] || 0) + 1
      response = Rack::Response.new
      response.set_cookie("who", value: request.params["name"].to_s, path: "/")
      response.write("hello #{request.params['name']} #{request.request_method} #{request.path_info}")
      response.finish
    }
  end
  map "/files" do
    run Rack::Files.new(__dir__)
  end
  run ->(_env) { [404, { "content-type" => "text/plain" }, ["not found"]] }
end.to_app

mock = Rack::MockRequest.new(app)
mock.get("/hello?name=ann", "HTTP_ACCEPT_ENCODING" => "gzip").headers.to_h
mock.post("/hello", params: { "name" => "bob", "_method" => "PUT" }).body
mock.head("/hello").status
mock.get("/files/rack.rb").body.size
mock.get("/nothing").status
body = "--AaB03x\r\ncontent-disposition: form-data; name=\"field\"\r\n\r\nvalue\r\n" \
       "--AaB03x\r\ncontent-disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n" \
       "content-type: text/plain\r\n\r\ncontents\r\n--AaB03x--\r\n"
env = Rack::MockRequest.env_for("/upload", method: "POST", input: body,
                                "CONTENT_TYPE" => "multipart/form-data; boundary=AaB03x")
Rack::Request.new(env).params
Rack::Utils.parse_nested_query("a[b][]=1&a[b][]=2&c=3")
Rack::Utils.build_nested_query("a" => { "b" => [1, 2] }, "c" => "d e")
Rack::Utils.escape_html("<a href='x'>&</a>")
Rack::Utils.parse_cookies_header("a=1; b=2")
Rack::Utils.status_code(:not_found)
Rack::Utils.byte_ranges({ "HTTP_RANGE" => "bytes=0-9,20-" }, 100)
Rack::Utils::HeaderHash[{ "Content-Type" => "text/html" }]["content-type"]
Rack::MediaType.params("text/html; charset=utf-8")
