//! Splits a byte stream into lines without ever buffering more than the
//! line limit: an over-long line is reported and skipped, not accumulated
//! (its top-level `id` is still looked for as it streams past).

use serde_json::Value;
use tokio::io::{AsyncBufRead, AsyncBufReadExt};

use super::id_scan::IdScanner;

/// Default bound on one incoming message.
pub const DEFAULT_MAX_LINE_BYTES: usize = 4 * 1024 * 1024;

const BOM: &[u8] = b"\xEF\xBB\xBF";

#[derive(Debug, PartialEq)]
pub enum Frame {
    /// One line without its terminator (`\n` or `\r\n`).
    Line(Vec<u8>),
    /// A line longer than the limit; its bytes were discarded. `id` is its
    /// top-level `id` member, when one was found (see `IdScanner::id`).
    TooLong { bytes: usize, id: Option<Value> },
}

/// Assembles lines from chunks of bytes; knows nothing about I/O, so the
/// async and blocking readers below share it.
struct LineAssembler {
    limit: usize,
    line: Vec<u8>,
    /// Bytes of the current line so far, kept or not.
    total: usize,
    at_start: bool,
    /// Looks for the id of a line once it is over the limit.
    scanner: Option<Box<IdScanner>>,
}

impl LineAssembler {
    fn new(limit: usize) -> Self {
        LineAssembler { limit, line: Vec::new(), total: 0, at_start: true, scanner: None }
    }

    /// Takes bytes from `available`: returns how many were used and the
    /// frame, if a line ended among them.
    fn feed(&mut self, available: &[u8]) -> (usize, Option<Frame>) {
        let (chunk, ended) = match available.iter().position(|&b| b == b'\n') {
            Some(index) => (&available[..index], true),
            None => (available, false),
        };
        self.total += chunk.len();
        if self.total > self.limit {
            // Stop keeping bytes: an over-long line costs no memory.
            let scanner = self.scanner.get_or_insert_with(|| Box::new(IdScanner::scan(&self.line)));
            scanner.feed(chunk);
            self.line = Vec::new();
        } else {
            self.line.extend_from_slice(chunk);
        }
        let used = chunk.len() + usize::from(ended);
        (used, ended.then(|| self.take()))
    }

    /// The last line at end of input, if it had no terminator.
    fn finish(&mut self) -> Option<Frame> {
        (self.total > 0).then(|| self.take())
    }

    fn take(&mut self) -> Frame {
        let total = std::mem::take(&mut self.total);
        let at_start = std::mem::replace(&mut self.at_start, false);
        let mut line = std::mem::take(&mut self.line);
        if let Some(scanner) = self.scanner.take() {
            return Frame::TooLong { bytes: total, id: scanner.id().cloned() };
        }
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        // Some Windows clients put a byte-order mark before the first message.
        if at_start && line.starts_with(BOM) {
            line.drain(..BOM.len());
        }
        Frame::Line(line)
    }
}

/// What one step over buffered input produced.
enum Step {
    End,
    /// A blank line, or bytes of a line not finished yet.
    Nothing,
    Frame(Frame),
}

impl LineAssembler {
    /// One step over what a reader has buffered (empty at end of input):
    /// how many bytes were used, and what came of them.
    fn step(&mut self, available: &[u8]) -> (usize, Step) {
        let (used, frame) = if available.is_empty() {
            match self.finish() {
                None => return (0, Step::End),
                frame => (0, frame),
            }
        } else {
            self.feed(available)
        };
        let blank = |frame: &Frame| matches!(frame, Frame::Line(line) if line.iter().all(u8::is_ascii_whitespace));
        match frame {
            Some(frame) if !blank(&frame) => (used, Step::Frame(frame)),
            _ => (used, Step::Nothing),
        }
    }
}

/// Frames from an async byte stream.
pub struct LineReader<R> {
    inner: R,
    assembler: LineAssembler,
}

impl<R: AsyncBufRead + Unpin> LineReader<R> {
    pub fn new(inner: R, limit: usize) -> Self {
        LineReader { inner, assembler: LineAssembler::new(limit) }
    }

    /// The next non-blank frame, or `None` at end of input.
    pub async fn next_frame(&mut self) -> std::io::Result<Option<Frame>> {
        loop {
            let (used, step) = self.assembler.step(self.inner.fill_buf().await?);
            self.inner.consume(used);
            match step {
                Step::End => return Ok(None),
                Step::Frame(frame) => return Ok(Some(frame)),
                Step::Nothing => {}
            }
        }
    }
}

/// Frames from a blocking byte stream (the client's stdin, read on its own
/// thread: tokio's stdin would hop through the blocking pool per read).
pub struct BlockingLineReader<R> {
    inner: R,
    assembler: LineAssembler,
}

impl<R: std::io::BufRead> BlockingLineReader<R> {
    pub fn new(inner: R, limit: usize) -> Self {
        BlockingLineReader { inner, assembler: LineAssembler::new(limit) }
    }

    pub fn next_frame(&mut self) -> std::io::Result<Option<Frame>> {
        loop {
            let available = match self.inner.fill_buf() {
                Ok(available) => available,
                Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(error),
            };
            let (used, step) = self.assembler.step(available);
            self.inner.consume(used);
            match step {
                Step::End => return Ok(None),
                Step::Frame(frame) => return Ok(Some(frame)),
                Step::Nothing => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Frames from both readers, which must agree.
    async fn frames(input: &[u8], limit: usize) -> Vec<Frame> {
        // A tiny buffer makes lines span many fill_buf calls.
        let reader = tokio::io::BufReader::with_capacity(3, input);
        let mut lines = LineReader::new(reader, limit);
        let mut out = Vec::new();
        while let Some(frame) = lines.next_frame().await.unwrap() {
            out.push(frame);
        }
        let mut blocking = BlockingLineReader::new(std::io::BufReader::with_capacity(3, input), limit);
        let mut blocking_out = Vec::new();
        while let Some(frame) = blocking.next_frame().unwrap() {
            blocking_out.push(frame);
        }
        assert_eq!(out, blocking_out);
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
        assert_eq!(got, vec![Frame::TooLong { bytes: 50, id: None }, line("{}")]);
    }

    #[tokio::test]
    async fn an_over_long_line_keeps_its_id_even_when_it_comes_late() {
        let early = format!("{{\"id\":11,\"method\":\"ping\",\"pad\":\"{}\"}}\n", "x".repeat(500));
        let late = format!("{{\"pad\":[\"{}\",{{\"id\":1}}],\"id\":\"late\"}}\n", "x".repeat(500));
        let got = frames(format!("{early}{late}").as_bytes(), 100).await;
        assert_eq!(
            got,
            vec![
                Frame::TooLong { bytes: early.len() - 1, id: Some(serde_json::json!(11)) },
                Frame::TooLong { bytes: late.len() - 1, id: Some(serde_json::json!("late")) },
            ]
        );
    }

    #[tokio::test]
    async fn an_over_long_last_line_without_newline_is_reported() {
        assert_eq!(frames(b"{}\nxxxxxxxxxxxxxxxx", 10).await, vec![line("{}"), Frame::TooLong { bytes: 16, id: None }]);
    }

    #[tokio::test]
    async fn a_line_exactly_at_the_limit_is_kept() {
        let got = frames(b"0123456789\n", 10).await;
        assert_eq!(got, vec![line("0123456789")]);
    }
}
