//! Unified diffs of whole files (`--diff`), line by line, with three lines
//! of context, as `diff -u` and `git apply` read them.

const CONTEXT: usize = 3;
/// Beyond this many line pairs the longest-common-subsequence table is not
/// built: the whole file shows as replaced (still a correct diff).
const MAX_TABLE: usize = 4_000_000;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Op {
    Same(usize, usize),
    Removed(usize),
    Added(usize),
}

/// The diff turning `before` (`None`: the file does not exist) into `after`.
/// Empty when nothing changes.
pub fn unified(path: &str, before: Option<&str>, after: &str) -> String {
    let old: Vec<&str> = before.map(|text| text.split_inclusive('\n').collect()).unwrap_or_default();
    let new: Vec<&str> = after.split_inclusive('\n').collect();
    if before == Some(after) {
        return String::new();
    }
    let ops = edit_script(&old, &new);
    let from = if before.is_some() { format!("a/{path}") } else { "/dev/null".to_string() };
    let mut out = format!("--- {from}\n+++ b/{path}\n");
    for hunk in hunks(&ops) {
        let ops = &ops[hunk.0..hunk.1];
        let old_lines: Vec<usize> = ops
            .iter()
            .filter_map(|op| match op {
                Op::Same(i, _) | Op::Removed(i) => Some(*i),
                Op::Added(_) => None,
            })
            .collect();
        let new_lines: Vec<usize> = ops
            .iter()
            .filter_map(|op| match op {
                Op::Same(_, j) | Op::Added(j) => Some(*j),
                Op::Removed(_) => None,
            })
            .collect();
        let old_start = old_lines.first().map_or_else(|| position_before(ops, true), |i| i + 1);
        let new_start = new_lines.first().map_or_else(|| position_before(ops, false), |j| j + 1);
        out.push_str(&format!("@@ -{},{} +{},{} @@\n", old_start, old_lines.len(), new_start, new_lines.len()));
        for op in ops {
            let (mark, line) = match op {
                Op::Same(i, _) => (' ', old[*i]),
                Op::Removed(i) => ('-', old[*i]),
                Op::Added(j) => ('+', new[*j]),
            };
            out.push(mark);
            out.push_str(line);
            if !line.ends_with('\n') {
                out.push_str("\n\\ No newline at end of file\n");
            }
        }
    }
    out
}

/// For a hunk with no lines on one side: the line after which it applies.
fn position_before(ops: &[Op], old_side: bool) -> usize {
    match ops.first() {
        Some(Op::Added(j)) if !old_side => *j,
        Some(Op::Removed(i)) if old_side => *i,
        _ => 0,
    }
}

fn edit_script(old: &[&str], new: &[&str]) -> Vec<Op> {
    let (n, m) = (old.len(), new.len());
    if n.saturating_mul(m) > MAX_TABLE {
        return (0..n).map(Op::Removed).chain((0..m).map(Op::Added)).collect();
    }
    // lcs[i][j]: longest common subsequence of old[i..] and new[j..].
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if old[i] == new[j] { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut ops = Vec::with_capacity(n + m);
    while i < n || j < m {
        if i < n && j < m && old[i] == new[j] {
            ops.push(Op::Same(i, j));
            i += 1;
            j += 1;
        } else if i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]) {
            // Removals first, as `diff -u` shows a changed line.
            ops.push(Op::Removed(i));
            i += 1;
        } else {
            ops.push(Op::Added(j));
            j += 1;
        }
    }
    ops
}

/// Ranges of `ops` to print: each change with up to three lines of
/// context, touching ranges merged.
fn hunks(ops: &[Op]) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (index, op) in ops.iter().enumerate() {
        if matches!(op, Op::Same(..)) {
            continue;
        }
        let start = index.saturating_sub(CONTEXT);
        let end = (index + 1 + CONTEXT).min(ops.len());
        match out.last_mut() {
            Some(last) if start <= last.1 => last.1 = last.1.max(end),
            _ => out.push((start, end)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_file_is_all_added() {
        assert_eq!(
            unified("sig/a.rbs", None, "class A\nend\n"),
            "--- /dev/null\n+++ b/sig/a.rbs\n@@ -0,0 +1,2 @@\n+class A\n+end\n"
        );
    }

    #[test]
    fn an_insertion_shows_with_context() {
        let before = "class A\n  def a: () -> Integer\nend\n";
        let after = "class A\n  def a: () -> Integer\n  def b: () -> String\nend\n";
        assert_eq!(
            unified("sig/a.rbs", Some(before), after),
            "--- a/sig/a.rbs\n+++ b/sig/a.rbs\n@@ -1,3 +1,4 @@\n class A\n   def a: () -> Integer\n+  def b: () -> String\n end\n"
        );
        assert_eq!(unified("sig/a.rbs", Some(before), before), "");
    }

    #[test]
    fn distant_changes_make_separate_hunks() {
        let before: String = (1..=20).map(|n| format!("{n}\n")).collect();
        let after: String = (1..=20)
            .map(|n| match n {
                2 => "two\n".to_string(),
                19 => "nineteen\n".to_string(),
                n => format!("{n}\n"),
            })
            .collect();
        let diff = unified("f", Some(&before), &after);
        assert_eq!(diff.matches("@@ -").count(), 2, "{diff}");
        assert!(diff.contains("@@ -1,5 +1,5 @@\n 1\n-2\n+two\n"), "{diff}");
        assert!(diff.contains("@@ -16,5 +16,5 @@\n 16\n 17\n 18\n-19\n+nineteen\n 20\n"), "{diff}");
    }
}
