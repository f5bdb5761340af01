//! Which named groups of a regexp literal every match passes through, read
//! off its source: `(?<size>\d+)(?<unit>px)?` always sets `size`, and sets
//! `unit` only sometimes. A group is optional when a quantifier that allows
//! zero (`?`, `*`, `{0,n}`, `{,n}`) follows it or a group around it, or an
//! alternation (`|`) sits beside it at some level around it. Anything this
//! reader does not follow (conditionals) answers `None`: nothing is known.

use std::collections::HashSet;

use ruby_prism::Node;

use crate::types::{Literal, Type};

/// A group being read: its name, whether an alternation is at its level,
/// and the named groups inside it so far, each with whether it is set by
/// every match of this group.
struct Open {
    /// The group's keys: its name, and its number among named groups
    /// (`#1`) or among plain ones (`~1`).
    keys: Vec<String>,
    alternation: bool,
    /// Lookarounds and absence groups: what is inside may not be set.
    uncertain: bool,
    inner: Vec<(String, bool)>,
}

impl Open {
    fn new(keys: Vec<String>, uncertain: bool) -> Open {
        Open { keys, alternation: false, uncertain, inner: Vec::new() }
    }
}

/// The names every match sets, when the source is understood.
pub fn mandatory(source: &str, extended: bool) -> Option<HashSet<String>> {
    let (keys, _, _) = mandatory_keys(source, extended)?;
    Some(keys.into_iter().filter(|k| !k.starts_with(['#', '~'])).collect())
}

/// The groups every match sets, by number (`m[1]`) and by name
/// (`m[:year]`), when the source is understood. Ruby numbers the named
/// groups when there are any (plain ones then capture nothing), else the
/// plain ones, each by where it opens.
pub fn mandatory_groups(source: &str, extended: bool) -> Option<Groups> {
    let (keys, named, plain) = mandatory_keys(source, extended)?;
    let prefix = if named > 0 { '#' } else { '~' };
    let numbers = keys.iter().filter_map(|k| k.strip_prefix(prefix)?.parse().ok()).collect();
    let names = keys.into_iter().filter(|k| !k.starts_with(['#', '~'])).collect();
    Some(Groups { numbers, names, count: if named > 0 { named } else { plain } })
}

/// What a regexp literal's match surely holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Groups {
    /// The numbered groups every match sets.
    pub numbers: HashSet<usize>,
    /// The named groups every match sets.
    pub names: HashSet<String>,
    /// How many groups `captures` gives.
    pub count: usize,
}

/// Every mandatory group's keys (see [`Open::keys`]), and how many named
/// and plain groups the source has.
fn mandatory_keys(source: &str, extended: bool) -> Option<(HashSet<String>, usize, usize)> {
    let chars: Vec<char> = source.chars().collect();
    let mut stack = vec![Open::new(Vec::new(), false)];
    let (mut named_count, mut plain_count) = (0, 0);
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
                // Conditionals, and extended mode switched inline (`(?x)`,
                // `(?x: ...)`, `(?-x)`), which this reader does not follow.
                if rest.starts_with("?(") || switches_extended(&chars[i + 1..]) {
                    return None;
                }
                let (keys, uncertain, skip) = if rest.starts_with("?<=") || rest.starts_with("?<!") {
                    (Vec::new(), true, 4)
                } else if rest.starts_with("?<") || rest.starts_with("?'") {
                    let close = if chars[i + 2] == '<' { '>' } else { '\'' };
                    let start = i + 3;
                    let end = start + chars[start..].iter().position(|c| *c == close)?;
                    named_count += 1;
                    (vec![chars[start..end].iter().collect(), format!("#{named_count}")], false, end + 1 - i)
                } else if rest.starts_with("?=") || rest.starts_with("?!") || rest.starts_with("?~") {
                    (Vec::new(), true, 3)
                } else if rest.starts_with('?') {
                    (Vec::new(), false, 1)
                } else {
                    plain_count += 1;
                    (vec![format!("~{plain_count}")], false, 1)
                };
                stack.push(Open::new(keys, uncertain));
                i += skip;
            }
            ')' => {
                let closed = stack.pop()?;
                if stack.is_empty() {
                    return None;
                }
                i += 1;
                let (optional, after) = quantifier(&chars, skip_ignored(&chars, i, extended));
                i = after;
                let certain = !optional && !closed.uncertain;
                let parent = stack.last_mut()?;
                for (name, set) in closed.inner {
                    parent.inner.push((name, set && certain && !closed.alternation));
                }
                for key in closed.keys {
                    parent.inner.push((key, certain));
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
    let keys = top.inner.into_iter().filter(|(_, set)| *set && !top.alternation).map(|(name, _)| name).collect();
    Some((keys, named_count, plain_count))
}

/// `RE.match(s)` or `s.match(RE)` with `RE` a regexp literal (no block,
/// no interpolation): the groups its match holds.
pub(super) fn literal_match(value: &Node<'_>) -> Option<Groups> {
    let call = value.as_call_node()?;
    if call.name().as_slice() != b"match" || call.block().is_some() {
        return None;
    }
    let first = call.arguments().and_then(|a| a.arguments().iter().next());
    let receiver = call.receiver()?;
    let regex = match (receiver.as_regular_expression_node(), first?.as_regular_expression_node()) {
        (Some(regex), _) | (None, Some(regex)) => regex,
        (None, None) => return None,
    };
    let source = crate::syntax::decoded(regex.content_loc().as_slice()).into_owned();
    mandatory_groups(&source, regex.is_extended())
}

/// What a call on a match holding `groups` gives where the signature
/// cannot tell: `m[2]` and `m[:year]` of a group every match sets are a
/// String, and `captures` is one String (or nil) per group.
pub fn group_answer(groups: &Groups, method: &str, args: &[super::calls::Arg]) -> Option<Type> {
    use super::calls::Arg;
    match (method, args) {
        ("[]", [Arg::Value(key)]) => {
            let set = match key {
                Type::Constant(Literal::Int(n)) => usize::try_from(*n).is_ok_and(|n| groups.numbers.contains(&n)),
                Type::Constant(Literal::Sym(name) | Literal::Str(name)) => groups.names.contains(&**name),
                _ => false,
            };
            set.then(|| Type::nominal("String"))
        }
        ("captures", []) if groups.count <= 16 => Some(Type::Tuple(
            (1..=groups.count)
                .map(|n| {
                    let group = Type::nominal("String");
                    if groups.numbers.contains(&n) {
                        group
                    } else {
                        crate::types::union([group, Type::nil()])
                    }
                })
                .collect(),
        )),
        _ => None,
    }
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

/// Past what the regexp engine ignores between a group and its
/// quantifier: `(?#...)` comments, and in extended mode whitespace and
/// `#` comments (`(\.\d+) ?  # fraction` makes the group optional).
fn skip_ignored(chars: &[char], at: usize, extended: bool) -> usize {
    let mut i = at;
    loop {
        match chars.get(i) {
            Some(c) if extended && c.is_whitespace() => i += 1,
            Some('#') if extended => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            Some('(') if chars.get(i + 1) == Some(&'?') && chars.get(i + 2) == Some(&'#') => {
                while i < chars.len() && chars[i] != ')' {
                    i += 1;
                }
                i += 1;
            }
            _ => return i,
        }
    }
}

/// Does the group opening before `after` set options that switch
/// extended mode (`?x)`, `?mx:`, `?-x)`)?
fn switches_extended(after: &[char]) -> bool {
    let Some(('?', rest)) = after.split_first().map(|(c, rest)| (*c, rest)) else { return false };
    let options: Vec<char> = rest.iter().take_while(|c| c.is_ascii_alphabetic() || **c == '-').copied().collect();
    options.contains(&'x') && matches!(rest.get(options.len()), Some(':' | ')'))
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

    fn numbers(source: &str) -> Option<Vec<usize>> {
        mandatory_groups(source, false).map(|groups| {
            let mut numbers: Vec<usize> = groups.numbers.into_iter().collect();
            numbers.sort();
            numbers
        })
    }

    /// Each answer checked against Debian's ruby 3.1 (`m[n]` nil or not).
    #[test]
    fn numbered_groups_every_match_sets() {
        assert_eq!(numbers(r"(\d+)-(\w+)").unwrap(), [1, 2]);
        assert_eq!(numbers(r"(\d+)(x)?").unwrap(), [1]);
        assert_eq!(numbers(r"(?:(a)|b)(c)").unwrap(), [2]);
        assert_eq!(numbers(r"(?i:(a))(?=(b))(c)*").unwrap(), [1]);
        // With named groups, plain ones capture nothing: 1 is `year`.
        assert_eq!(numbers(r"(?<year>\d+)(x)(?<tag>y)?").unwrap(), [1]);
        assert_eq!(numbers(r"(a)|(b)").unwrap(), Vec::<usize>::new());
        assert_eq!(numbers(r"[(](a)").unwrap(), [1]);
    }

    /// Each answer checked against Debian's ruby 3.1 (`m[n]` nil or not).
    #[test]
    fn what_the_engine_ignores_before_a_quantifier_still_makes_it_apply() {
        let numbers_x = |source: &str| {
            mandatory_groups(source, true).map(|groups| {
                let mut numbers: Vec<usize> = groups.numbers.into_iter().collect();
                numbers.sort();
                numbers
            })
        };
        assert_eq!(numbers_x("\n  (\\d+)   # integer\n  (\\.\\d+) ?  # fraction\n").unwrap(), [1]);
        assert_eq!(numbers_x("(a) # see ) note\n  (c)?").unwrap(), [1]);
        assert_eq!(numbers_x("(a)[ ]?c").unwrap(), [1]);
        assert_eq!(numbers_x("(a)\\ ?c").unwrap(), [1]);
        assert_eq!(numbers(r"(a)(?#optional)?c").unwrap(), Vec::<usize>::new());
        // Without extended mode a space is a character of its own.
        assert_eq!(numbers(r"(a) ?c").unwrap(), [1]);
        assert_eq!(numbers(r"(?x: (a) ? )c"), None);
        assert_eq!(numbers(r"(?x)(a) *c"), None);
        assert_eq!(numbers(r"(?mix)(a)"), None);
        assert_eq!(numbers(r"(?i:(a))(b)").unwrap(), [1, 2]);
    }

    #[test]
    fn extended_mode_comments_hide_groups() {
        let set = mandatory("(?<a>x) # (?<b>y)\n(?<c>z)", true).unwrap();
        assert!(set.contains("a") && set.contains("c") && !set.contains("b"));
    }
}
