# RDoc: its Markdown parser (a generated packrat parser), the markup
# formatters, and the documentation generator run over real files.
require "rdoc"
require "tmpdir"

MARKDOWN = <<~MD
  # Title

  Some *emphasis*, **strong**, `code` and a [link](http://example.com).

  * one
  * two
    1. nested
    2. list

  > quoted
  > text

      indented code

  ```ruby
  def x = 1
  ```

  Term
  : definition

  Footnote[^1] and ~~strike~~.

  [^1]: the note
MD

# (A table is left out: RDoc 6.4's ToRdoc fails on one, in Ruby itself.)
document = RDoc::Markdown.parse(MARKDOWN)
document.accept(RDoc::Markup::ToHtml.new(RDoc::Options.new))
document.accept(RDoc::Markup::ToRdoc.new)
document.accept(RDoc::Markup::ToAnsi.new)
document.accept(RDoc::Markup::ToMarkdown.new)
document.accept(RDoc::Markup::ToBs.new)
document.accept(RDoc::Markup::ToTableOfContents.new)
RDoc::Markdown.parse("| a | b |\n|---|---|\n| 1 | 2 |\n").accept(RDoc::Markup::ToHtml.new(RDoc::Options.new))

rdoc_text = <<~RDOC
  = Heading

  Paragraph with +code+, *bold* and _em_.

  * item
  * item two

  [label] a labelled list

    verbatim
RDOC
RDoc::Markup.parse(rdoc_text).accept(RDoc::Markup::ToHtml.new(RDoc::Options.new))
RDoc::Markup::ToHtmlSnippet.new(RDoc::Options.new, 40).convert(rdoc_text)
RDoc::Markup::ToJoinedParagraph.new.start_accepting
RDoc::Comment.new("# hello *world*").parse

# The generator over real library files, into a scratch directory.
library = RbConfig::CONFIG["rubylibdir"]
sources = %w[set.rb tsort.rb observer.rb abbrev.rb].map { |name| File.join(library, name) }
Dir.mktmpdir do |out|
  RDoc::RDoc.new.document(["--quiet", "--op", File.join(out, "html"), *sources])
  RDoc::RDoc.new.document(["--quiet", "--op", File.join(out, "ri"), "--format", "ri", *sources])
end
