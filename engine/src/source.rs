//! Turning byte offsets into the 1-based line and byte column the reference uses.

/// Start offsets of every line of a source text.
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(source: &[u8]) -> Self {
        let mut starts = vec![0];
        starts.extend(memchr_newlines(source).map(|i| i + 1));
        LineIndex { starts }
    }

    /// 1-based (line, byte column) of a byte offset.
    pub fn position(&self, offset: usize) -> (usize, usize) {
        let line = self.starts.partition_point(|&start| start <= offset).max(1);
        (line, offset - self.starts[line - 1] + 1)
    }

    /// Byte offset where a 1-based line starts.
    pub fn line_start(&self, line: usize) -> usize {
        self.starts[line.clamp(1, self.starts.len()) - 1]
    }

    pub fn line_count(&self) -> usize {
        self.starts.len()
    }
}

fn memchr_newlines(source: &[u8]) -> impl Iterator<Item = usize> + '_ {
    memchr::memchr_iter(b'\n', source)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_one_based_lines_and_byte_columns() {
        let index = LineIndex::new("ab\né\nxyz".as_bytes());
        assert_eq!(index.position(0), (1, 1));
        assert_eq!(index.position(1), (1, 2));
        assert_eq!(index.position(3), (2, 1));
        // "é" is two bytes, so the newline after it is at byte 5.
        assert_eq!(index.position(6), (3, 1));
        assert_eq!(index.position(8), (3, 3));
        assert_eq!(index.line_count(), 3);
    }
}
