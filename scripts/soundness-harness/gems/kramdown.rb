# The soundness harness's kramdown workload: the Markdown files given
# (this repository's own documents) parsed by kramdown's parsers and
# written out by each of its converters.
require "kramdown"

ARGV.each do |path|
  text = File.read(path)
  document = Kramdown::Document.new(text, auto_ids: true, toc_levels: "1..3")
  document.to_html
  document.to_kramdown
  document.to_latex
  document.to_man
  document.to_remove_html_tags
  document.to_hash_ast
  document.warnings
  html = Kramdown::Document.new(text).to_html
  Kramdown::Document.new(html, input: "html").to_kramdown
  Kramdown::Document.new(text, input: "markdown").to_html
end
