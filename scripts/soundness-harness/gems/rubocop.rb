# The soundness harness's rubocop workload: runs Debian's RuboCop (from
# corpus/, its libraries on RUBYLIB) over the files given, the way a user
# would: an inspection with every cop on, then autocorrection of copies,
# so that the runner, the cops, their correctors and the formatters run.
require "fileutils"
require "rubocop"

inputs = ARGV
copies = File.join(Dir.pwd, "autocorrected")
FileUtils.mkdir_p(copies)
corrected = inputs.each_with_index.map do |input, index|
  copy = File.join(copies, "#{index}_#{File.basename(input)}")
  FileUtils.cp(input, copy)
  copy
end
quiet = ["--cache", "false", "--out", File::NULL]
RuboCop::CLI.new.run([*quiet, "--enable-pending-cops", "--format", "json", *inputs])
RuboCop::CLI.new.run([*quiet, "--format", "offenses", "--display-cop-names", *inputs])
RuboCop::CLI.new.run([*quiet, "--autocorrect-all", "--format", "progress", *corrected])
