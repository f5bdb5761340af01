//! Which Ruby grammar Prism parses with: the configuration's `target_ruby`,
//! else Prism's latest.

use std::sync::OnceLock;

use ruby_prism::{Options, ParseOptions, ParseResult, Version};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RubyVersion {
    #[default]
    Latest,
    Ruby3_3,
    Ruby3_4,
    Ruby4_0,
    Ruby4_1,
}

/// What `target_ruby` accepts, for messages.
pub const SUPPORTED: &str =
    "3.3, 3.4, 4.0 (also spelt 3.5) and 4.1, optionally with a patch level; older versions are parsed as 3.3";

impl RubyVersion {
    /// A `target_ruby` value: the grammar to parse with, and whether the
    /// version is older than any Prism knows (then 3.3's grammar, the
    /// oldest, stands in: older code is almost always valid 3.3).
    pub fn parse_target(text: &str) -> Option<(RubyVersion, bool)> {
        if let Some(version) = RubyVersion::parse(text) {
            return Some((version, false));
        }
        let mut parts = text.trim().split('.');
        let major: u32 = parts.next()?.parse().ok()?;
        let minor: u32 = parts.next()?.parse().ok()?;
        if parts.next().is_some_and(|patch| patch.parse::<u32>().is_err()) {
            return None;
        }
        let older = (1..=3).contains(&major) && (major, minor) < (3, 3);
        older.then_some((RubyVersion::Ruby3_3, true))
    }

    /// `3.4` or `3.4.1`: the grammars this Prism knows; anything else is `None`.
    pub fn parse(text: &str) -> Option<RubyVersion> {
        let mut parts = text.trim().split('.');
        let major = parts.next()?;
        let minor = parts.next()?;
        let patch = parts.next();
        let digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
        if parts.next().is_some() || !digits(major) || !digits(minor) || patch.is_some_and(|p| !digits(p)) {
            return None;
        }
        match (major, minor) {
            ("3", "3") => Some(RubyVersion::Ruby3_3),
            ("3", "4") => Some(RubyVersion::Ruby3_4),
            ("3", "5") | ("4", "0") => Some(RubyVersion::Ruby4_0),
            ("4", "1") => Some(RubyVersion::Ruby4_1),
            _ => None,
        }
    }

    /// Parses `source` with this grammar.
    pub fn parse_source(self, source: &[u8]) -> ParseResult<'_> {
        match self.options() {
            Some(options) => ruby_prism::parse_with_options(source, options),
            None => ruby_prism::parse(source),
        }
    }

    /// Built once per version and kept for the process: a parse result
    /// borrows its options, and every worker call may parse.
    fn options(self) -> Option<&'static ParseOptions> {
        const VERSIONS: [Version; 4] = [Version::CRuby3_3, Version::CRuby3_4, Version::CRuby4_0, Version::CRuby4_1];
        static TABLE: OnceLock<Vec<SharedOptions>> = OnceLock::new();
        let index = match self {
            RubyVersion::Latest => return None,
            RubyVersion::Ruby3_3 => 0,
            RubyVersion::Ruby3_4 => 1,
            RubyVersion::Ruby4_0 => 2,
            RubyVersion::Ruby4_1 => 3,
        };
        let table = TABLE.get_or_init(|| {
            VERSIONS.iter().map(|version| SharedOptions(Options::default().version(*version).build())).collect()
        });
        Some(&table[index].0)
    }
}

/// Prism options shared between analysis threads.
struct SharedOptions(ParseOptions);

// SAFETY: Prism reads parse options through a `const pm_options_t *` and
// never writes them; the options own their strings and are never dropped.
unsafe impl Send for SharedOptions {}
unsafe impl Sync for SharedOptions {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_parse_with_or_without_a_patch_level() {
        assert_eq!(RubyVersion::parse("3.3"), Some(RubyVersion::Ruby3_3));
        assert_eq!(RubyVersion::parse("3.4.2"), Some(RubyVersion::Ruby3_4));
        assert_eq!(RubyVersion::parse("3.5"), Some(RubyVersion::Ruby4_0));
        assert_eq!(RubyVersion::parse("4.1"), Some(RubyVersion::Ruby4_1));
        for bad in ["3.1", "2.7", "3", "3.4.x", "three", "3.4.1.1", ""] {
            assert_eq!(RubyVersion::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_grammar_follows_the_version() {
        // `it` as the implicit block parameter: Ruby 3.4 syntax. Under 3.3
        // it is an ordinary call; under 3.4 Prism makes it an ItParametersNode.
        let source = b"[1].map { it }\n";
        let shows_it = |version: RubyVersion| {
            let result = version.parse_source(source);
            let mut found = false;
            struct Finder<'f>(&'f mut bool);
            impl<'pr> ruby_prism::Visit<'pr> for Finder<'_> {
                fn visit_it_local_variable_read_node(&mut self, _: &ruby_prism::ItLocalVariableReadNode<'pr>) {
                    *self.0 = true;
                }
            }
            ruby_prism::Visit::visit(&mut Finder(&mut found), &result.node());
            found
        };
        assert!(!shows_it(RubyVersion::Ruby3_3));
        assert!(shows_it(RubyVersion::Ruby3_4));
        assert!(shows_it(RubyVersion::Latest));
    }
}
