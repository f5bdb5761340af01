//! Signatures written for older rbs releases that today's parser refuses.
//!
//! rbs 2.x (Debian's, for Ruby 3.1) accepts `void` anywhere a type goes:
//! its `fileutils` has `?void force` and its `benchmark` a block returning
//! `(Array[Tms] | void)`. The parser now allows `void` only as a return
//! type. Elsewhere it meant "any value, unused", which is `top`.

/// `text` with every `void` that is not a return type spelled `top`, or
/// `None` when there is none to change.
pub fn modernised(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with('#') {
            out.push_str(line);
            continue;
        }
        let mut rest = line;
        while let Some(at) = find_word(rest, "void") {
            let before = &rest[..at];
            out.push_str(before);
            let returned = before.trim_end().ends_with("->");
            out.push_str(if returned { "void" } else { "top" });
            changed |= !returned;
            rest = &rest[at + "void".len()..];
        }
        out.push_str(rest);
    }
    changed.then_some(out)
}

/// Where `word` first stands alone in `text` (not inside a longer name).
fn find_word(text: &str, word: &str) -> Option<usize> {
    let is_name = |c: char| c.is_alphanumeric() || c == '_';
    let mut from = 0;
    while let Some(found) = text[from..].find(word) {
        let at = from + found;
        let end = at + word.len();
        let alone_before = !text[..at].chars().next_back().is_some_and(is_name);
        let alone_after = !text[end..].chars().next().is_some_and(is_name);
        if alone_before && alone_after {
            return Some(at);
        }
        from = end;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn void_outside_a_return_becomes_top() {
        let text = "module FileUtils\n  def self?.rm: (path p, ?void force) -> void\n  # void here stays\n  def b: () { () -> (Array[T] | void) } -> voids\nend\n";
        let modern = modernised(text).unwrap();
        assert!(modern.contains("?top force) -> void\n"), "{modern}");
        assert!(modern.contains("(Array[T] | top)"), "{modern}");
        assert!(modern.contains("# void here stays"), "comments are left alone");
        assert!(modern.contains("-> voids"), "a longer name is not the word");
        assert_eq!(modernised("def a: () -> void\n"), None, "nothing to change");
    }

    #[test]
    fn the_rewritten_file_parses() {
        let text = "module M\n  def self?.rm: (String p, ?void force) -> void\nend\n";
        assert!(super::super::convert::convert_file(text).is_err(), "today's parser refuses void there");
        assert!(super::super::convert::convert_file(&modernised(text).unwrap()).is_ok());
    }
}
