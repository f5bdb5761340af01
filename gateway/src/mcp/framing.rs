//! Splits a byte stream into lines without ever buffering more than the
//! line limit: an over-long line is reported and skipped, not accumulated.

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// Default bound on one incoming message.
pub const DEFAULT_MAX_LINE_BYTES: usize = 4 * 1024 * 1024;

const BOM: &[u8] = b"\xEF\xBB\xBF";

#[derive(Debug, PartialEq, Eq)]
pub enum Frame {
    /// One line without its terminator (`\n` or `\r\n`).
    Line(Vec<u8>),
    /// A line longer than the limit; its bytes were discarded.
    TooLong { bytes: usize },
}

pub struct LineReader<R> {
    inner: R,
    limit: usize,
    at_start: bool,
}

impl<R: AsyncBufRead + Unpin> LineReader<R> {
    pub fn new(inner: R, limit: usize) -> Self {
        LineReader { inner, limit, at_start: true }
    }

    /// The next non-empty frame, or `None` at end of input.
    pub async fn next_frame(&mut self) -> std::io::Result<Option<Frame>> {
        loop {
            match self.read_line().await? {
                None => return Ok(None),
                Some(Frame::Line(line)) if line.iter().all(u8::is_ascii_whitespace) => continue,
                Some(frame) => return Ok(Some(frame)),
            }
        }
    }

    async fn read_line(&mut self) -> std::io::Result<Option<Frame>> {
        let mut line = Vec::new();
        let mut total = 0usize;
        let mut overflowed = false;
        loop {
            let available = self.inner.fill_buf().await?;
            if available.is_empty() {
                if total == 0 {
                    return Ok(None);
                }
                break;
            }
            let (chunk, found_newline) = match available.iter().position(|&b| b == b'\n') {
                Some(index) => (&available[..index], true),
                None => (available, false),
            };
            total += chunk.len();
            if total > self.limit {
                overflowed = true;
                line = Vec::new();
            } else {
                line.extend_from_slice(chunk);
            }
            let consumed = chunk.len() + usize::from(found_newline);
            self.inner.consume(consumed);
            if found_newline {
                break;
            }
        }
        if overflowed {
            self.at_start = false;
            return Ok(Some(Frame::TooLong { bytes: total }));
        }
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        // Some Windows clients put a byte-order mark before the first message.
        if std::mem::replace(&mut self.at_start, false) && line.starts_with(BOM) {
            line.drain(..BOM.len());
        }
        Ok(Some(Frame::Line(line)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn frames(input: &[u8], limit: usize) -> Vec<Frame> {
        // A tiny buffer makes lines span many fill_buf calls.
        let reader = tokio::io::BufReader::with_capacity(3, input);
        let mut lines = LineReader::new(reader, limit);
        let mut out = Vec::new();
        while let Some(frame) = lines.next_frame().await.unwrap() {
            out.push(frame);
        }
        out
    }

    fn line(text: &str) -> Frame {
        Frame::Line(text.as_bytes().to_vec())
    }

    #[tokio::test]
    async fn splits_lines_strips_crlf_and_skips_blank_lines() {
        let got = frames(b"{\"a\":1}\r\n\n  \n{\"b\":2}\n{\"c\":3}", 100).await;
        assert_eq!(got, vec![line("{\"a\":1}"), line("{\"b\":2}"), line("{\"c\":3}")]);
    }

    #[tokio::test]
    async fn strips_a_bom_only_before_the_first_message() {
        let got = frames(b"\xEF\xBB\xBF{}\n\xEF\xBB\xBF{}\n", 100).await;
        assert_eq!(got, vec![line("{}"), Frame::Line(b"\xEF\xBB\xBF{}".to_vec())]);
    }

    #[tokio::test]
    async fn an_over_long_line_is_reported_and_the_next_line_still_arrives() {
        let mut input = vec![b'x'; 50];
        input.extend_from_slice(b"\n{}\n");
        let got = frames(&input, 10).await;
        assert_eq!(got, vec![Frame::TooLong { bytes: 50 }, line("{}")]);
    }

    #[tokio::test]
    async fn a_line_exactly_at_the_limit_is_kept() {
        let got = frames(b"0123456789\n", 10).await;
        assert_eq!(got, vec![line("0123456789")]);
    }
}
