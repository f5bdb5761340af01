# The soundness harness's builder workload: XML written through Builder's
# method_missing markup, its events interface and its escaping.
require "builder"

xml = Builder::XmlMarkup.new(indent: 2)
xml.instruct!
xml.declare! :DOCTYPE, :html, :PUBLIC, "-//W3C//DTD XHTML 1.0 Strict//EN"
xml.comment! "a feed"
xml.feed(xmlns: "http://www.w3.org/2005/Atom") do
  xml.title("Things & <stuff>", type: "text")
  xml.tag!("link", href: "http://example.com", rel: "self")
  3.times do |i|
    xml.entry do
      xml.id("urn:#{i}")
      xml.content { xml.cdata!("raw <b>#{i}</b>") }
      xml.author { |a| a.name("A #{i}"); a.email("a#{i}@example.com") }
      xml.text! "plain & text"
      xml << "<pre>verbatim</pre>"
    end
  end
  xml.empty
end
xml.target!
target = +""
Builder::XmlMarkup.new(target: target, margin: 1).a(b: 2) { |x| x.c("d") }
events = Class.new do
  def start_tag(tag, attrs) = [tag, attrs]
  def end_tag(tag) = tag
  def text(text) = text
end.new
Builder::XmlEvents.new(target: events).root { |x| x.child("v", k: 1) }
"Ünïcødé & <tags>".to_xs rescue nil
Builder::XChar::PREDEFINED.size
