//! Source lines of reported files, read once per file: SARIF counts
//! columns in UTF-16 code units and fingerprints hash a line's text, while
//! diagnostics carry only a byte column.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

pub struct SourceLines {
    root: PathBuf,
    files: HashMap<String, Option<Vec<u8>>>,
}

impl SourceLines {
    pub fn new(root: &Path) -> Self {
        SourceLines { root: root.to_path_buf(), files: HashMap::new() }
    }

    /// The bytes of 1-based `line` of `path` without its line break, or
    /// `None` when the file cannot be read or is shorter.
    pub fn line(&mut self, path: &str, line: usize) -> Option<&[u8]> {
        let root = &self.root;
        let text = self.files.entry(path.to_string()).or_insert_with(|| std::fs::read(root.join(path)).ok());
        let text = text.as_deref()?;
        let found = text.split(|&b| b == b'\n').nth(line.checked_sub(1)?)?;
        Some(found.strip_suffix(b"\r").unwrap_or(found))
    }

    /// A 1-based byte column of `line` as a 1-based column in UTF-16 code
    /// units (SARIF's default `columnKind`). Falls back to the byte column
    /// when the line is unknown.
    pub fn utf16_column(&mut self, path: &str, line: usize, byte_column: usize) -> usize {
        match self.line(path, line) {
            Some(text) => {
                let prefix = &text[..byte_column.saturating_sub(1).min(text.len())];
                let units: usize = crate::syntax::decoded(prefix).chars().map(char::len_utf16).sum();
                // A column just past the end of the line stays past it.
                units + 1 + byte_column.saturating_sub(1).saturating_sub(text.len())
            }
            None => byte_column,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_utf16_units_before_the_position() {
        let dir = tempfile::tempdir().unwrap();
        // "é" is 2 bytes and 1 unit; "😀" is 4 bytes and 2 units.
        std::fs::write(dir.path().join("a.rb"), "x = 1\r\ns = \"é😀\".foo\n").unwrap();
        let mut lines = SourceLines::new(dir.path());
        assert_eq!(lines.line("a.rb", 1), Some(&b"x = 1"[..]));
        assert_eq!(lines.utf16_column("a.rb", 1, 3), 3);
        // `.foo` starts at byte 12 (1-based), after 4 ASCII + quote + é + 😀 + quote.
        assert_eq!(lines.utf16_column("a.rb", 2, 13), 10);
        assert_eq!(lines.utf16_column("a.rb", 9, 7), 7);
        assert_eq!(lines.utf16_column("missing.rb", 1, 4), 4);
    }
}
