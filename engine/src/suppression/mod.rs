//! Inline suppression: `# rigor:disable <tokens>` silences the named rules
//! on the comment's own line, `# rigor:disable-file <tokens>` in the whole
//! file. A token is a rule id, legacy alias, family or `all`.

pub mod known;
pub mod marker;

use rustc_hash::FxHashMap as HashMap;

use ruby_prism::CommentType;

use crate::rules::RuleInfo;
use crate::syntax::ParsedFile;
pub use marker::Marker;

/// A marker and where its comment starts.
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    /// Byte offset of the comment's `#`.
    pub offset: usize,
    pub line: usize,
    pub marker: Marker,
}

/// Every marker in a parsed file's comments, in source order.
pub fn markers(parsed: &ParsedFile<'_>) -> Vec<Placed> {
    parsed
        .result
        .comments()
        .filter(|comment| comment.type_() == CommentType::InlineComment)
        // Every marker has `rigor:` in it: most comments need no decoding.
        .filter(|comment| MARKER_WORD.with(|finder| finder.find(comment.text()).is_some()))
        .filter_map(|comment| {
            let text = crate::syntax::decoded(comment.text());
            let marker = marker::parse(&text)?;
            let offset = comment.location().start() as usize;
            Some(Placed { offset, line: parsed.lines().position(offset).0, marker })
        })
        .collect()
}

thread_local! {
    /// Built once: a search built per comment cost more than the search.
    static MARKER_WORD: memchr::memmem::Finder<'static> = memchr::memmem::Finder::new(b"rigor:");
}

/// What a file's markers silence.
#[derive(Debug, Default)]
pub struct Suppressions {
    by_line: HashMap<usize, Vec<String>>,
    file: Vec<String>,
}

impl Suppressions {
    pub fn of(markers: &[Placed]) -> Suppressions {
        let mut suppressions = Suppressions::default();
        for placed in markers.iter().cloned() {
            match placed.marker {
                Marker::Line(tokens) => suppressions.by_line.entry(placed.line).or_default().extend(tokens),
                Marker::File(tokens) => suppressions.file.extend(tokens),
                Marker::Unknown(_) => {}
            }
        }
        suppressions
    }

    /// Is `rule`, reported on `line`, silenced by a marker on that line or
    /// a file marker?
    pub fn covers(&self, rule: &RuleInfo, line: usize) -> bool {
        let names = |tokens: &[String]| tokens.iter().any(|token| rule.matches_token(token));
        self.by_line.get(&line).is_some_and(|tokens| names(tokens)) || names(&self.file)
    }
}
