//! A connection is frames in and messages out. Over a stream (stdin and
//! stdout when both are pipes, a control-socket client) the session reads
//! its own frames and each outbox writes its own messages: no reader or
//! writer task to wake. A terminal or a file gets a reader and a writer
//! thread instead, since tokio's stdin/stdout would hop through its
//! blocking pool on every read and write. `memory()` gives the other ends
//! to a caller (tests, one-shot calls, HTTP sessions).

use std::io::Write;
use std::sync::Arc;

use serde_json::Value;
use tokio::sync::mpsc;

use tokio::net::unix::pipe::{Receiver, Sender};

use super::framing::{BlockingLineReader, Frame, LineReader};
use super::jsonrpc::{self, RequestId, RpcError};

/// Messages waiting for a slow reader: bounded, so a client that stops
/// reading stalls us instead of growing memory.
const OUTGOING_CAPACITY: usize = 64;
const INCOMING_CAPACITY: usize = 16;

pub struct Connection {
    pub incoming: Inbox,
    pub outgoing: Outbox,
}

/// Where the client's frames come from.
pub enum Inbox {
    /// From a reader (a task or a thread) over a bounded queue.
    Queue(mpsc::Receiver<Frame>),
    /// Read by the session itself, which reads one frame after handling
    /// the last anyway: no reader task to wake.
    Stream(Box<LineReader<tokio::io::BufReader<Input>>>),
}

impl Inbox {
    /// The next frame; `None` once the input has ended (or failed).
    pub async fn recv(&mut self) -> Option<Frame> {
        match self {
            Inbox::Queue(frames) => frames.recv().await,
            Inbox::Stream(reader) => match reader.next_frame().await {
                Ok(frame) => frame,
                Err(error) => {
                    tracing::warn!("cannot read client input: {error}");
                    None
                }
            },
        }
    }
}

/// Where messages to the client go. Cloneable; each message is one line.
#[derive(Clone)]
pub struct Outbox {
    sink: Sink,
    /// The session's name, for logs and traces.
    name: Arc<str>,
}

#[derive(Clone)]
enum Sink {
    /// To a writer (a task or a thread) over a bounded queue.
    Queue(mpsc::Sender<String>),
    /// Written by the sender itself, one message at a time.
    Stream(Arc<StreamSink>),
}

type Input = Box<dyn tokio::io::AsyncRead + Unpin + Send>;
type Output = Box<dyn tokio::io::AsyncWrite + Unpin + Send>;

struct StreamSink {
    /// Held while one message is written: lines never interleave, and
    /// messages go out in the order their senders got here.
    output: tokio::sync::Mutex<Output>,
    /// Closed when the last outbox is gone: what `Writer::finish` waits for.
    _alive: mpsc::Sender<()>,
}

impl Outbox {
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Queues one message; waits while the client is not reading.
    pub async fn send(&self, message: Value) {
        crate::trace::outgoing(&self.name, &message);
        // serde_json escapes control characters, so the text has no newline.
        // (to_string, not Display: it writes to a buffer, not a Formatter.)
        let text = serde_json::to_string(&message).expect("a Value always serialises");
        self.send_text(text).await;
    }

    /// The answer to request `id`: its result, or its error. A result is
    /// written inside its envelope directly, with no tree built for it.
    pub async fn respond(&self, id: &RequestId, answer: Result<Value, RpcError>) {
        match answer {
            Ok(result) if !crate::trace::enabled() => {
                let envelope = jsonrpc::Response::new(id, &result);
                self.send_text(serde_json::to_string(&envelope).expect("a result always serialises")).await;
            }
            Ok(result) => self.send(jsonrpc::response(id, result)).await,
            Err(error) => self.send(jsonrpc::error_response(Some(id), &error)).await,
        }
    }

    async fn send_text(&self, mut text: String) {
        match &self.sink {
            Sink::Queue(sender) => {
                if sender.send(text).await.is_err() {
                    tracing::debug!("client output closed; message dropped");
                }
            }
            Sink::Stream(sink) => {
                use tokio::io::AsyncWriteExt;
                text.push('\n');
                // A full pipe (a client that stops reading) stalls this
                // sender and those behind it, as a full queue would.
                let mut output = sink.output.lock().await;
                if let Err(error) = output.write_all(text.as_bytes()).await {
                    tracing::debug!("client output closed: {error}; message dropped");
                }
            }
        }
    }
}

impl Connection {
    /// The process's stdin and stdout. Pipes (how MCP clients start us) are
    /// driven by the async runtime directly; anything else (a terminal, a
    /// file) gets a reader and a writer thread, because tokio's stdin and
    /// stdout would hop through its blocking pool on every read and write.
    /// Returns the connection and the writer, which finishes once every
    /// queued message has been written (after all senders are dropped).
    pub fn stdio(max_line_bytes: usize) -> (Connection, Writer) {
        // Opening a pipe end for async use makes the shared file
        // description non-blocking, so open them only if both qualify.
        let pipes = if is_fifo(0) && is_fifo(1) { pipe_end::<Receiver>(0).zip(pipe_end::<Sender>(1)) } else { None };
        match pipes {
            Some((input, output)) => Connection::stream(Box::new(input), Box::new(output), max_line_bytes, "stdio"),
            None => {
                let (frame_tx, frame_rx) = mpsc::channel(INCOMING_CAPACITY);
                let (line_tx, line_rx) = mpsc::channel(OUTGOING_CAPACITY);
                let connection = Connection {
                    incoming: Inbox::Queue(frame_rx),
                    outgoing: Outbox { sink: Sink::Queue(line_tx), name: "stdio".into() },
                };
                std::thread::Builder::new()
                    .name("mcp-stdin".into())
                    .spawn(move || read_frames(std::io::stdin().lock(), max_line_bytes, frame_tx))
                    .expect("stdin thread");
                let writer = std::thread::Builder::new()
                    .name("mcp-stdout".into())
                    .spawn(move || write_lines(std::io::stdout(), line_rx))
                    .expect("stdout thread");
                (connection, Writer::Thread(writer))
            }
        }
    }

    /// An in-memory connection and the client's ends of it.
    pub fn memory(name: &str) -> (Connection, MemoryClient) {
        let (frame_tx, frame_rx) = mpsc::channel(INCOMING_CAPACITY);
        let (line_tx, line_rx) = mpsc::channel(OUTGOING_CAPACITY);
        (
            Connection {
                incoming: Inbox::Queue(frame_rx),
                outgoing: Outbox { sink: Sink::Queue(line_tx), name: name.into() },
            },
            MemoryClient { to_server: frame_tx, from_server: line_rx },
        )
    }

    /// A connection over a stream socket (the control socket).
    pub fn socket(stream: tokio::net::UnixStream, max_line_bytes: usize, name: &str) -> Connection {
        let (input, output) = stream.into_split();
        Connection::stream(Box::new(input), Box::new(output), max_line_bytes, name).0
    }

    /// Frames read by the session, messages written by their senders; the
    /// writer ends once the last outbox is dropped.
    fn stream(input: Input, output: Output, max_line_bytes: usize, name: &str) -> (Connection, Writer) {
        let reader = LineReader::new(tokio::io::BufReader::with_capacity(64 * 1024, input), max_line_bytes);
        let (alive, gone) = mpsc::channel(1);
        let sink = StreamSink { output: tokio::sync::Mutex::new(output), _alive: alive };
        let connection = Connection {
            incoming: Inbox::Stream(Box::new(reader)),
            outgoing: Outbox { sink: Sink::Stream(Arc::new(sink)), name: name.into() },
        };
        (connection, Writer::Direct(gone))
    }

    pub fn name(&self) -> &str {
        self.outgoing.name()
    }
}

/// What writes to the client: finishes after the last queued message.
pub enum Writer {
    /// The outboxes write themselves; this ends when the last is dropped.
    Direct(mpsc::Receiver<()>),
    Thread(std::thread::JoinHandle<()>),
}

impl Writer {
    /// Waits (up to `limit`) until everything queued has been written.
    pub async fn finish(self, limit: std::time::Duration) {
        let done = async {
            match self {
                Writer::Direct(mut gone) => {
                    let _ = gone.recv().await;
                }
                Writer::Thread(thread) => {
                    let _ = tokio::task::spawn_blocking(move || thread.join()).await;
                }
            }
        };
        let _ = tokio::time::timeout(limit, done).await;
    }
}

fn is_fifo(fd: i32) -> bool {
    // SAFETY: fstat only fills the struct.
    let mut stat = unsafe { std::mem::zeroed::<libc::stat>() };
    unsafe { libc::fstat(fd, &mut stat) == 0 && stat.st_mode & libc::S_IFMT == libc::S_IFIFO }
}

/// Opens descriptor `fd` (a pipe) as an async pipe end.
fn pipe_end<T: PipeEnd>(fd: i32) -> Option<T> {
    // SAFETY: a duplicate, so the File owns its own descriptor; stdio's stays.
    let duplicate = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 3) };
    if duplicate < 0 {
        return None;
    }
    let file = unsafe { <std::fs::File as std::os::fd::FromRawFd>::from_raw_fd(duplicate) };
    T::open(file)
}

trait PipeEnd: Sized {
    fn open(file: std::fs::File) -> Option<Self>;
}

impl PipeEnd for Receiver {
    fn open(file: std::fs::File) -> Option<Self> {
        Receiver::from_file(file).ok()
    }
}

impl PipeEnd for Sender {
    fn open(file: std::fs::File) -> Option<Self> {
        Sender::from_file(file).ok()
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

fn read_frames(input: impl std::io::BufRead, limit: usize, frames: mpsc::Sender<Frame>) {
    let mut reader = BlockingLineReader::new(input, limit);
    loop {
        match reader.next_frame() {
            Ok(Some(frame)) => {
                if frames.blocking_send(frame).is_err() {
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

fn write_lines(output: impl Write, mut lines: mpsc::Receiver<String>) {
    let mut output = output;
    while let Some(mut line) = lines.blocking_recv() {
        line.push('\n');
        // One message per write and a flush after each: the client sees
        // every answer at once.
        if let Err(error) = output.write_all(line.as_bytes()).and_then(|()| output.flush()) {
            tracing::debug!("client output closed: {error}");
            return;
        }
    }
}
