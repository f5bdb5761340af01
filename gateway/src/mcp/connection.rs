//! A connection is a pair of channels: frames in, messages out. `stdio()`
//! wires them to the process's stdin/stdout with a reader and a writer task;
//! `memory()` gives the other ends to a caller (tests, one-shot calls).

use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

use super::framing::{Frame, LineReader};

/// Messages waiting for a slow reader: bounded, so a client that stops
/// reading stalls us instead of growing memory.
const OUTGOING_CAPACITY: usize = 64;
const INCOMING_CAPACITY: usize = 16;

pub struct Connection {
    pub incoming: mpsc::Receiver<Frame>,
    pub outgoing: Outbox,
}

/// Where messages to the client go. Cloneable; each message is one line.
#[derive(Clone)]
pub struct Outbox {
    sender: mpsc::Sender<String>,
}

impl Outbox {
    /// Queues one message; waits while the client is not reading.
    pub async fn send(&self, message: Value) {
        // serde_json escapes control characters, so the text has no newline.
        let text = message.to_string();
        if self.sender.send(text).await.is_err() {
            tracing::debug!("client output closed; message dropped");
        }
    }
}

impl Connection {
    /// Reads frames from `input` and writes messages to `output`.
    /// The returned handle finishes once everything queued has been written.
    pub fn over<R, W>(input: R, output: W, max_line_bytes: usize) -> (Connection, tokio::task::JoinHandle<()>)
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (frame_tx, frame_rx) = mpsc::channel(INCOMING_CAPACITY);
        let (line_tx, line_rx) = mpsc::channel(OUTGOING_CAPACITY);
        tokio::spawn(read_frames(input, max_line_bytes, frame_tx));
        let writer = tokio::spawn(write_lines(output, line_rx));
        (Connection { incoming: frame_rx, outgoing: Outbox { sender: line_tx } }, writer)
    }

    pub fn stdio(max_line_bytes: usize) -> (Connection, tokio::task::JoinHandle<()>) {
        Connection::over(tokio::io::stdin(), tokio::io::stdout(), max_line_bytes)
    }

    /// An in-memory connection and the client's ends of it.
    pub fn memory() -> (Connection, MemoryClient) {
        let (frame_tx, frame_rx) = mpsc::channel(INCOMING_CAPACITY);
        let (line_tx, line_rx) = mpsc::channel(OUTGOING_CAPACITY);
        (
            Connection { incoming: frame_rx, outgoing: Outbox { sender: line_tx } },
            MemoryClient { to_server: frame_tx, from_server: line_rx },
        )
    }
}

/// The client side of an in-memory connection.
pub struct MemoryClient {
    pub to_server: mpsc::Sender<Frame>,
    pub from_server: mpsc::Receiver<String>,
}

impl MemoryClient {
    pub async fn send(&self, message: &Value) -> bool {
        self.to_server.send(Frame::Line(message.to_string().into_bytes())).await.is_ok()
    }

    /// The next message from the server, or `None` when it has finished.
    pub async fn receive(&mut self) -> Option<Value> {
        let line = self.from_server.recv().await?;
        Some(serde_json::from_str(&line).expect("the server writes JSON"))
    }
}

async fn read_frames<R: AsyncRead + Unpin>(input: R, limit: usize, frames: mpsc::Sender<Frame>) {
    let mut reader = LineReader::new(BufReader::with_capacity(64 * 1024, input), limit);
    loop {
        match reader.next_frame().await {
            Ok(Some(frame)) => {
                if frames.send(frame).await.is_err() {
                    return;
                }
            }
            Ok(None) => return,
            Err(error) => {
                tracing::warn!("cannot read client input: {error}");
                return;
            }
        }
    }
}

async fn write_lines<W: AsyncWrite + Unpin>(mut output: W, mut lines: mpsc::Receiver<String>) {
    while let Some(mut line) = lines.recv().await {
        line.push('\n');
        // One message per write and a flush after each: the client sees
        // every answer at once.
        if let Err(error) = async {
            output.write_all(line.as_bytes()).await?;
            output.flush().await
        }
        .await
        {
            tracing::debug!("client output closed: {error}");
            return;
        }
    }
}
