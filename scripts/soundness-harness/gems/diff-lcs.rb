# The soundness harness's diff-lcs workload: the files given diffed against
# edited copies of themselves, every way the library offers (LCS, diff,
# sdiff, traversals, patches, unified and context hunks).
require "diff/lcs"
require "diff/lcs/hunk"

ARGV.each do |path|
  old = File.readlines(path)
  new = old.each_with_index.filter_map do |line, index|
    next if (index % 17).zero?
    index % 11 == 0 ? line.upcase : line
  end
  new.insert(new.size / 2, "inserted\n")
  Diff::LCS.lcs(old, new).size
  diffs = Diff::LCS.diff(old, new)
  Diff::LCS.sdiff(old, new).map(&:action).tally
  Diff::LCS.patch(old, diffs) == new
  Diff::LCS.unpatch!(new, diffs) == old
  Diff::LCS.traverse_sequences(old, new, Class.new { def match(_) = nil; def discard_a(_) = nil; def discard_b(_) = nil }.new)
  Diff::LCS.traverse_balanced(old, new, Class.new { def match(_) = nil; def discard_a(_) = nil; def discard_b(_) = nil; def change(_) = nil }.new)
  Diff::LCS::Internals.lcs(old, new).compact.size
  offset = 0
  diffs.each do |piece|
    hunk = Diff::LCS::Hunk.new(old, new, piece, 3, offset)
    offset = hunk.file_length_difference
    hunk.diff(:unified)
    hunk.diff(:context)
    hunk.diff(:old)
  end
end
Diff::LCS.diff("abcdefgh".chars, "abxdefhij".chars).flatten(1).map(&:to_a)
Diff::LCS.sdiff("abc".chars, "axc".chars).map(&:to_a)
