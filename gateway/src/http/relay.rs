//! One HTTP session's link to its MCP session: frames go in over an
//! in-memory connection, and each message coming out is routed to where
//! the client waits for it. An answer, and the progress of a request or the
//! changes on a `subscriptions/listen`, go to that request's response;
//! anything else (list changes, log messages) to the newest open GET stream,
//! never to several (the spec forbids broadcasting a message).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::sync::mpsc;

use crate::gateway::Gateway;
use crate::mcp::connection::{Connection, MemoryClient};
use crate::mcp::framing::Frame;
use crate::mcp::jsonrpc::RequestId;
use crate::session::{self, era::SUBSCRIPTION_ID_KEY};

/// Messages a slow GET stream may fall behind by before some are dropped.
const STREAM_BACKLOG: usize = 256;

/// What a waiting request receives.
#[derive(Debug)]
pub enum Out {
    /// A notification about the request (progress, a listen's changes).
    Note(String),
    /// Its answer: the last message; `succeeded` when it is a result.
    Answer { line: String, succeeded: bool },
    /// The client cancelled it: there is no answer.
    Cancelled,
}

#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    /// A request with this id is still being answered in this session.
    Duplicate,
    /// The session has ended.
    Gone,
}

#[derive(Default)]
struct Routes {
    requests: HashMap<RequestId, mpsc::UnboundedSender<Out>>,
    /// Progress tokens (as JSON text, so 1 and "1" differ) to their request.
    progress: HashMap<String, RequestId>,
    /// GET streams, oldest first.
    streams: Vec<mpsc::Sender<String>>,
}

pub struct Relay {
    name: String,
    to_session: Mutex<Option<mpsc::Sender<Frame>>>,
    routes: Arc<Mutex<Routes>>,
    last_seen: Mutex<Instant>,
}

impl Relay {
    /// Starts an MCP session on `gateway` and the task routing its output.
    pub fn open(gateway: Arc<Gateway>, name: String) -> Arc<Relay> {
        let (connection, MemoryClient { to_server, from_server }) = Connection::memory(&name);
        tokio::spawn(session::serve(connection, gateway));
        let routes = Arc::new(Mutex::new(Routes::default()));
        tokio::spawn(route(from_server, routes.clone(), name.clone()));
        Arc::new(Relay { name, to_session: Mutex::new(Some(to_server)), routes, last_seen: Mutex::new(Instant::now()) })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Sends a request to the session; its answer (and, with `progress`,
    /// its progress) will arrive on the returned channel.
    pub async fn request(
        self: &Arc<Self>,
        id: &RequestId,
        progress: Option<&Value>,
        body: Vec<u8>,
    ) -> Result<Waiting, Refused> {
        let (tx, rx) = mpsc::unbounded_channel();
        {
            let mut routes = self.routes.lock().expect("routes");
            if routes.requests.contains_key(id) {
                return Err(Refused::Duplicate);
            }
            routes.requests.insert(id.clone(), tx);
            if let Some(token) = progress {
                routes.progress.insert(token.to_string(), id.clone());
            }
        }
        if self.forward(body).await.is_err() {
            self.forget(id);
            return Err(Refused::Gone);
        }
        Ok(Waiting { messages: rx, relay: self.clone(), id: id.clone(), settled: false })
    }

    /// The response waiting for `id` went away (its connection closed): no
    /// answer can reach the client any more, so the request is cancelled
    /// exactly as `notifications/cancelled` cancels it, and the one worker
    /// is not kept busy for nobody.
    fn abandoned(&self, id: &RequestId) {
        if self.forget(id).is_none() {
            return;
        }
        tracing::info!(session = %self.name, "the connection waiting for {id} closed; cancelling it");
        let cancel = serde_json::json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": id.to_value(), "reason": "the HTTP connection closed before the answer"}});
        let Some(sender) = self.to_session.lock().expect("session input").clone() else { return };
        if let Err(mpsc::error::TrySendError::Full(frame)) =
            sender.try_send(Frame::Line(cancel.to_string().into_bytes()))
        {
            tokio::spawn(async move { sender.send(frame).await });
        }
    }

    /// Sends a notification or a response from the client to the session.
    pub async fn forward(&self, body: Vec<u8>) -> Result<(), Refused> {
        self.touch();
        let sender = self.to_session.lock().expect("session input").clone().ok_or(Refused::Gone)?;
        sender.send(Frame::Line(body)).await.map_err(|_| Refused::Gone)
    }

    /// The client cancelled `id`: the session sends no answer, so its
    /// response ends now.
    pub fn cancelled(&self, id: &RequestId) {
        if let Some(waiting) = self.forget(id) {
            let _ = waiting.send(Out::Cancelled);
        }
    }

    fn forget(&self, id: &RequestId) -> Option<mpsc::UnboundedSender<Out>> {
        let mut routes = self.routes.lock().expect("routes");
        routes.progress.retain(|_, request| request != id);
        routes.requests.remove(id)
    }

    /// A GET stream: messages that belong to no request.
    pub fn open_stream(&self) -> mpsc::Receiver<String> {
        self.touch();
        let (tx, rx) = mpsc::channel(STREAM_BACKLOG);
        self.routes.lock().expect("routes").streams.push(tx);
        rx
    }

    pub fn touch(&self) {
        *self.last_seen.lock().expect("last seen") = Instant::now();
    }

    /// Nothing waiting, no open stream, and no request for `limit`.
    pub fn idle_for(&self, limit: Duration) -> bool {
        let mut routes = self.routes.lock().expect("routes");
        routes.streams.retain(|stream| !stream.is_closed());
        routes.requests.is_empty()
            && routes.streams.is_empty()
            && self.last_seen.lock().expect("last seen").elapsed() >= limit
    }

    /// Ends the session: its input closes (calls in flight still finish,
    /// within the session's drain grace) and its GET streams end.
    pub fn close(&self) {
        self.to_session.lock().expect("session input").take();
        self.routes.lock().expect("routes").streams.clear();
    }
}

/// Where a request's messages arrive. Dropped before the answer (the
/// client's connection closed), it cancels the request.
pub struct Waiting {
    messages: mpsc::UnboundedReceiver<Out>,
    relay: Arc<Relay>,
    id: RequestId,
    /// The answer (or the end) has arrived: nothing left to cancel.
    settled: bool,
}

impl Waiting {
    pub async fn recv(&mut self) -> Option<Out> {
        let out = self.messages.recv().await;
        if !matches!(out, Some(Out::Note(_))) {
            self.settled = true;
        }
        out
    }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        if !self.settled {
            self.relay.abandoned(&self.id);
        }
    }
}

/// Routes every message the session sends until it ends; then every
/// response still waiting ends too.
async fn route(mut from_session: mpsc::Receiver<String>, routes: Arc<Mutex<Routes>>, name: String) {
    while let Some(line) = from_session.recv().await {
        let Ok(message) = serde_json::from_str::<Envelope>(&line) else { continue };
        let mut routes = routes.lock().expect("routes");
        if let Some(id) = message.answered_id() {
            routes.progress.retain(|_, request| *request != id);
            match routes.requests.remove(&id) {
                Some(waiting) => {
                    let succeeded = message.result.is_some();
                    let _ = waiting.send(Out::Answer { line, succeeded });
                }
                None => tracing::debug!(session = %name, "the client stopped waiting for {id}; its answer was dropped"),
            }
            continue;
        }
        if let Some(id) = message.about_request(&routes.progress) {
            if let Some(waiting) = routes.requests.get(&id) {
                let _ = waiting.send(Out::Note(line));
                continue;
            }
        }
        routes.streams.retain(|stream| !stream.is_closed());
        match routes.streams.last() {
            Some(stream) => {
                if stream.try_send(line).is_err() {
                    tracing::warn!(session = %name, "a GET stream is not being read; a notification was dropped");
                }
            }
            None => tracing::debug!(session = %name, "no GET stream open; a notification was dropped"),
        }
    }
    let mut routes = routes.lock().expect("routes");
    routes.requests.clear();
    routes.streams.clear();
}

/// What routing needs of a message the session sends. A result (which can
/// be a whole project's diagnostics) is skipped over, not built into a tree.
#[derive(serde::Deserialize)]
struct Envelope {
    #[serde(default)]
    id: Option<Value>,
    #[serde(default)]
    method: Option<String>,
    #[serde(default)]
    result: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    error: Option<serde::de::IgnoredAny>,
    /// Only notifications have params: they are small.
    #[serde(default)]
    params: Option<Value>,
}

impl Envelope {
    /// The request this message answers, if it is an answer.
    fn answered_id(&self) -> Option<RequestId> {
        if self.method.is_some() || (self.result.is_none() && self.error.is_none()) {
            return None;
        }
        RequestId::from_value(self.id.as_ref()?)
    }

    /// The request a notification belongs to: a progress token's, or the
    /// listen request named by its subscription id.
    fn about_request(&self, progress: &HashMap<String, RequestId>) -> Option<RequestId> {
        let params = self.params.as_ref()?;
        if self.method.as_deref() == Some("notifications/progress") {
            return progress.get(&params.get("progressToken")?.to_string()).cloned();
        }
        RequestId::from_value(params.get("_meta")?.get(SUBSCRIPTION_ID_KEY)?)
    }
}
