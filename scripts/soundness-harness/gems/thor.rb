# The soundness harness's thor workload: a command-line program written
# with Thor, started with several argument lists (help, options, errors,
# subcommands), and Thor's shell helpers.
require "stringio"
require "thor"

class Tasks < Thor
  def self.exit_on_failure? = false

  class_option :verbose, type: :boolean, aliases: "-v"

  desc "greet NAME", "Greets NAME"
  option :times, type: :numeric, default: 1
  option :style, type: :string, enum: %w[plain loud]
  def greet(name)
    options[:times].times { say(options[:style] == "loud" ? name.upcase : name) }
  end

  desc "list [ITEMS...]", "Lists items"
  option :sort, type: :boolean
  def list(*items)
    print_table(items.map { |i| [i, i.size] })
  end

  class Remote < Thor
    desc "add NAME URL", "Adds a remote"
    def add(name, url) = say("#{name} #{url}", :green)
  end
  desc "remote SUBCOMMAND", "Remotes"
  subcommand "remote", Remote
end

$stdout = StringIO.new
[%w[help], %w[help greet], %w[greet ann --times 2 --style loud], %w[list b a --sort -v],
 %w[greet], %w[greet ann --style wrong], %w[remote add origin http://x], %w[nope]].each do |args|
  Tasks.start(args)
rescue SystemExit
  nil
end
shell = Thor::Shell::Basic.new
shell.set_color("x", :red, :bold)
shell.print_wrapped("a long line of text " * 5, indent: 2)
Thor::Util.snake_case("SomeThing")
Thor::Util.camel_case("some_thing")
$stdout = STDOUT
