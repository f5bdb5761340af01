# The soundness harness's rouge workload: each file given highlighted by
# the lexer rouge guesses for it, through several formatters; then a few
# languages from snippets.
require "rouge"

formatters = [Rouge::Formatters::HTML.new, Rouge::Formatters::Terminal256.new(Rouge::Themes::Monokai.new),
              Rouge::Formatters::HTMLTable.new(Rouge::Formatters::HTML.new), Rouge::Formatters::HTMLLegacy.new]
ARGV.each do |path|
  text = File.read(path)
  lexer = Rouge::Lexer.guess(filename: path, source: text)
  formatters.each { |formatter| formatter.format(lexer.lex(text)) }
  Rouge::Formatters::HTMLInline.new(Rouge::Themes::Github.new).format(lexer.lex(text))
end
{
  "json" => %({"a": [1, 2.5, true, null], "b": {"c": "d"}}),
  "yaml" => "a: 1\nb:\n  - x\n  - {y: z}\n",
  "shell" => "for f in *.rb; do echo \"$f\" | wc -l; done\n",
  "c" => "#include <stdio.h>\nint main(void) { printf(\"%d\\n\", 1); return 0; }\n",
  "python" => "def f(x: int) -> int:\n    return [i for i in range(x)][0]\n",
  "erb" => "<% if x %><%= y %><% end %>\n",
  "sql" => "SELECT a, COUNT(*) FROM t WHERE b > 1 GROUP BY a;\n",
}.each do |tag, source|
  Rouge::Formatters::HTML.new.format(Rouge::Lexer.find(tag).lex(source))
end
Rouge::Theme.find("base16").render(scope: ".highlight")
Rouge::Lexer.all.size
