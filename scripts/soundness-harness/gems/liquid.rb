# The soundness harness's liquid workload: templates with tags, filters,
# loops, partials and errors, parsed and rendered.
require "liquid"

class MemoryFiles
  def initialize(files) = @files = files
  def read_template_file(name) = @files.fetch(name)
end

Liquid::Template.file_system = MemoryFiles.new("item" => "<li>{{ item.name | capitalize }}: {{ item.price | times: 1.1 | round: 2 }}</li>")
source = <<~LIQUID
  {% assign total = 0 %}
  <h1>{{ title | upcase | truncate: 20 }}</h1>
  <ul>
  {% for item in items limit: 5 offset: 0 %}
    {% render 'item', item: item %}
    {% assign total = total | plus: item.price %}
    {% if forloop.first %}first{% elsif forloop.last %}last{% else %}{{ forloop.index }}{% endif %}
  {% else %}
    none
  {% endfor %}
  </ul>
  {% case mode %}{% when "a" %}A{% when "b", "c" %}BC{% else %}other{% endcase %}
  {% capture greeting %}Hello {{ user.name | default: "you" }}{% endcapture %}{{ greeting | strip }}
  {% unless hidden %}{{ tags | join: ", " | escape }}{% endunless %}
  {{ "2024-01-31" | date: "%b %d" }} {{ items | map: "name" | sort | first }} {{ total | divided_by: 2.0 }}
  {% raw %}{{ not rendered }}{% endraw %}{% comment %}gone{% endcomment %}
  {% cycle "odd", "even" %}{% cycle "odd", "even" %} {% increment n %}{% decrement n %}
  {% tablerow t in tags cols: 2 %}{{ t }}{% endtablerow %}
LIQUID
template = Liquid::Template.parse(source, error_mode: :strict)
assigns = { "title" => "a list of things", "mode" => "b", "hidden" => false, "user" => { "name" => "Ann" },
            "tags" => ["x", "<y>", "z"],
            "items" => [{ "name" => "pen", "price" => 2 }, { "name" => "ink", "price" => 5.5 }, { "name" => "pad", "price" => 3 }] }
template.render(assigns)
template.render!(assigns, strict_variables: false)
template.errors
Liquid::Template.parse("{{ missing | nope }}", error_mode: :lax).render({}, strict_filters: false)
begin
  Liquid::Template.parse("{% if %}", error_mode: :strict)
rescue Liquid::SyntaxError => e
  e.message
end
Liquid::Template.parse("{{ a.b.c }} {{ a['b'].c }} {{ (1..3) | join }}").render("a" => { "b" => { "c" => 1 } })
