//! Which named groups of a regexp literal every match passes through, read
//! off its source: `(?<size>\d+)(?<unit>px)?` always sets `size`, and sets
//! `unit` only sometimes. A group is optional when a quantifier that allows
//! zero (`?`, `*`, `{0,n}`, `{,n}`) follows it or a group around it, or an
//! alternation (`|`) sits beside it at some level around it. Anything this
//! reader does not follow (conditionals) answers `None`: nothing is known.

use std::collections::HashSet;

/// A group being read: its name, whether an alternation is at its level,
/// and the named groups inside it so far, each with whether it is set by
/// every match of this group.
struct Open {
    name: Option<String>,
    alternation: bool,
    /// Lookarounds and absence groups: what is inside may not be set.
    uncertain: bool,
    inner: Vec<(String, bool)>,
}

impl Open {
    fn new(name: Option<String>, uncertain: bool) -> Open {
        Open { name, alternation: false, uncertain, inner: Vec::new() }
    }
}

/// The names every match sets, when the source is understood.
pub fn mandatory(source: &str, extended: bool) -> Option<HashSet<String>> {
    let chars: Vec<char> = source.chars().collect();
    let mut stack = vec![Open::new(None, false)];
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            '[' => i = skip_class(&chars, i)?,
            '#' if extended => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '|' => {
                stack.last_mut()?.alternation = true;
                i += 1;
            }
            '(' => {
                let rest: String = chars[i + 1..].iter().take(3).collect();
                if rest.starts_with("?#") {
                    while i < chars.len() && chars[i] != ')' {
                        i += 1;
                    }
                    i += 1;
                    continue;
                }
                if rest.starts_with("?(") {
                    return None;
                }
                let (name, uncertain, skip) = if rest.starts_with("?<=") || rest.starts_with("?<!") {
                    (None, true, 4)
                } else if rest.starts_with("?<") || rest.starts_with("?'") {
                    let close = if chars[i + 2] == '<' { '>' } else { '\'' };
                    let start = i + 3;
                    let end = start + chars[start..].iter().position(|c| *c == close)?;
                    (Some(chars[start..end].iter().collect()), false, end + 1 - i)
                } else if rest.starts_with("?=") || rest.starts_with("?!") || rest.starts_with("?~") {
                    (None, true, 3)
                } else {
                    (None, false, 1)
                };
                stack.push(Open::new(name, uncertain));
                i += skip;
            }
            ')' => {
                let closed = stack.pop()?;
                if stack.is_empty() {
                    return None;
                }
                i += 1;
                let (optional, after) = quantifier(&chars, i);
                i = after;
                let certain = !optional && !closed.uncertain;
                let parent = stack.last_mut()?;
                for (name, set) in closed.inner {
                    parent.inner.push((name, set && certain && !closed.alternation));
                }
                if let Some(name) = closed.name {
                    parent.inner.push((name, certain));
                }
            }
            _ => {
                i += 1;
            }
        }
    }
    let top = stack.pop()?;
    if !stack.is_empty() {
        return None;
    }
    // A name used twice is set when any of its groups must match.
    Some(top.inner.into_iter().filter(|(_, set)| *set && !top.alternation).map(|(name, _)| name).collect())
}

/// Past a character class starting at `at` (`[`), nested classes and
/// escapes included.
fn skip_class(chars: &[char], at: usize) -> Option<usize> {
    let mut depth = 0;
    let mut i = at;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Whether the quantifier at `at` (if any) allows zero repetitions, and
/// where what follows it starts.
fn quantifier(chars: &[char], at: usize) -> (bool, usize) {
    match chars.get(at) {
        Some('?') | Some('*') => (true, at + 1),
        Some('+') => (false, at + 1),
        Some('{') => {
            let Some(len) = chars[at..].iter().position(|c| *c == '}') else { return (false, at) };
            let inside: String = chars[at + 1..at + len].iter().collect();
            let low = inside.split(',').next().unwrap_or("").trim();
            let valid = !inside.is_empty() && inside.chars().all(|c| c.is_ascii_digit() || c == ',' || c == ' ');
            if !valid {
                return (false, at);
            }
            (low.is_empty() || low.parse::<u64>().map_or(true, |n| n == 0), at + len + 1)
        }
        _ => (false, at),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(source: &str) -> Option<Vec<String>> {
        mandatory(source, false).map(|set| {
            let mut names: Vec<String> = set.into_iter().collect();
            names.sort();
            names
        })
    }

    /// Each answer checked against Debian's ruby 3.1 on a matching string.
    #[test]
    fn groups_every_match_sets() {
        assert_eq!(names(r"\A(?<size>tiny|medium|long)(?:text|blob)").unwrap(), ["size"]);
        assert_eq!(names(r"(?<a>\d+)(?<b>px)?").unwrap(), ["a"]);
        assert_eq!(names(r"(?<a>x)|(?<b>y)").unwrap(), Vec::<String>::new());
        assert_eq!(names(r"(?:(?<a>x)|y)(?<b>z)").unwrap(), ["b"]);
        assert_eq!(names(r"((?<a>x)(?<b>y)*)+").unwrap(), ["a"]);
        assert_eq!(names(r"(?<a>x){0,2}(?<b>y){2}(?<c>z){,3}").unwrap(), ["b"]);
        assert_eq!(names(r"[(?<no>x)](?<yes>\))").unwrap(), ["yes"]);
        assert_eq!(names(r"(?=(?<a>x))(?<b>.)").unwrap(), ["b"]);
        assert_eq!(names(r"(?'q'x)(?# a note (?<c>)").unwrap(), ["q"]);
        assert_eq!(names(r"(?<a>x)(?(<a>)y|z)"), None);
        assert_eq!(names(r"(?<a>x"), None);
    }

    #[test]
    fn extended_mode_comments_hide_groups() {
        let set = mandatory("(?<a>x) # (?<b>y)\n(?<c>z)", true).unwrap();
        assert!(set.contains("a") && set.contains("c") && !set.contains("b"));
    }
}
