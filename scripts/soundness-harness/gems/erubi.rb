# The soundness harness's erubi workload: templates compiled to Ruby with
# each option, and run.
require "erubi"
require "erubi/capture_end" rescue nil

template = <<~ERB
  <h1><%= title %></h1>
  <%# a comment %>
  <% items.each do |item| -%>
    <li><%== item %></li>
  <% end -%>
  <%% literal %%>
ERB
title = "T & <b>"
items = ["<a>", "b"]
[{}, { escape: true }, { trim: false }, { freeze: true }, { bufvar: "@out" }, { escapefunc: "h" },
 { outvar: "_buf", chain_appends: true }, { freeze_template_literals: false }].each do |options|
  engine = Erubi::Engine.new(template, options)
  engine.src
  engine.filename
  engine.bufvar
  def h(text) = Erubi.h(text)
  eval(engine.src) rescue nil
end
Erubi.h("<&>\"'")
