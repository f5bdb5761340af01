//! One MCP client session: which protocol era it speaks, dispatch of each
//! message, and exactly one answer per request (a cancelled request gets
//! none; a `subscriptions/listen` stream is answered when it closes).

mod audience;
mod calls;
pub mod era;
mod in_flight;

use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long a handshake waits for the engine's hello (its identity).
const HELLO_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

use serde_json::{json, Map, Value};
use tokio::sync::mpsc;
use tokio::task::JoinSet;

use crate::events::LogLevel;
use crate::gateway::Gateway;
use crate::identity::ServerIdentity;
use crate::mcp::connection::{Connection, Outbox};
use crate::mcp::framing::Frame;
use crate::mcp::jsonrpc::{self, classify, ErrorCode, Incoming, Params, RequestId, RpcError};
use crate::supervisor::CatalogueState;
use crate::trace;
use audience::{Audience, SharedAudience};
use calls::QueuedCall;
use era::Era;
use in_flight::InFlight;

pub use era::{HANDSHAKE_VERSIONS, MODERN_VERSIONS};

/// How many calls may wait for validation before the session stops reading.
const CALL_QUEUE: usize = 256;

/// After the client's input ends, calls in flight get this long to finish.
const DRAIN_GRACE: Duration = Duration::from_millis(800);

/// How the answer to a request is shaped for its era.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    Handshake,
    /// Stateless era; `cacheable` results carry caching directives.
    Modern {
        cacheable: bool,
    },
}

impl Shape {
    fn finish(self, answer: Result<Value, RpcError>, server: &ServerIdentity) -> Result<Value, RpcError> {
        answer.map(|mut result| {
            if let Shape::Modern { cacheable } = self {
                era::decorate_modern(&mut result, cacheable, server);
            }
            result
        })
    }
}

struct Session {
    /// For logs and traces: `stdio`, `control-1`, `oneshot`…
    name: String,
    gateway: Arc<Gateway>,
    outbox: Outbox,
    era: Era,
    in_flight: InFlight,
    audience: SharedAudience,
    tasks: JoinSet<()>,
    /// `tools/call` requests in arrival order, to the call pipeline.
    calls: mpsc::Sender<QueuedCall>,
}

/// Serves one client until its input ends, then lets calls in flight finish
/// (for a short grace) so that piped input still gets its answers.
pub async fn serve(mut connection: Connection, gateway: Arc<Gateway>) {
    let name = connection.name().to_string();
    let name = name.as_str();

    let in_flight = InFlight::default();
    let audience: SharedAudience = Arc::new(Mutex::new(Audience::default()));
    let (calls, queue) = mpsc::channel(CALL_QUEUE);
    let outbox = connection.outgoing.clone();
    let pipeline =
        tokio::spawn(calls::pipeline(gateway.clone(), outbox.clone(), in_flight.clone(), queue, name.to_string()));
    let announcer = tokio::spawn(audience::announce(gateway.clone(), outbox.clone(), audience.clone()));
    let mut session = Session {
        name: name.to_string(),
        gateway,
        outbox,
        era: Era::Undecided,
        in_flight,
        audience,
        tasks: JoinSet::new(),
        calls,
    };
    while let Some(frame) = connection.incoming.recv().await {
        session.handle(frame).await;
        while session.tasks.try_join_next().is_some() {}
    }
    tracing::debug!(session = %session.name, "client input ended");
    drop(session.calls);
    let drained = tokio::time::timeout(DRAIN_GRACE, async {
        let _ = pipeline.await;
        while session.tasks.join_next().await.is_some() {}
    })
    .await;
    if drained.is_err() {
        tracing::warn!(session = %session.name, "calls still running after input ended were abandoned");
    }
    announcer.abort();
    // Listen streams end gracefully: their result is the final frame.
    let listens = std::mem::take(&mut session.audience.lock().expect("audience").listens);
    for id in listens {
        if session.in_flight.finish(&id) {
            let server = session.gateway.supervisor.identity();
            session.outbox.send(jsonrpc::response(&id, audience::listen_closed(&id, &server))).await;
        }
    }
}

impl Session {
    async fn handle(&mut self, frame: Frame) {
        let line = match frame {
            Frame::Line(line) => line,
            Frame::TooLong { bytes, id } => {
                trace::incoming(&self.name, &Value::String(format!("<a message of {bytes} bytes, over the limit>")));
                let id = id.as_ref().and_then(RequestId::from_value);
                let error = RpcError::new(
                    ErrorCode::InvalidRequest,
                    format!(
                        "message of {bytes} bytes exceeds the limit of {} bytes (--max-line-bytes); it was skipped",
                        self.gateway.max_line_bytes
                    ),
                );
                return self.outbox.send(jsonrpc::error_response(id.as_ref(), &error)).await;
            }
        };
        trace::incoming_bytes(&self.name, &line);
        match classify(&line) {
            Incoming::Invalid { id, error } => self.outbox.send(jsonrpc::error_response(id.as_ref(), &error)).await,
            Incoming::Response => tracing::debug!("ignoring a response from the client"),
            Incoming::Notification { method, params } => self.notification(&method, &params),
            Incoming::Request { id, method, params } => self.request(id, &method, params).await,
        }
    }

    fn notification(&mut self, method: &str, params: &Params) {
        match method {
            "notifications/initialized" => tracing::debug!(session = %self.name, "client initialized"),
            "notifications/cancelled" => self.cancel(params),
            other => tracing::debug!("ignoring notification {other}"),
        }
    }

    /// `notifications/cancelled`: a queued call is dropped, a running one is
    /// stopped (its worker replaced), a listen stream ends; none is answered.
    fn cancel(&mut self, params: &Params) {
        let Ok(params) = params.object() else { return };
        let Some(id) = params.get("requestId").and_then(RequestId::from_value) else {
            tracing::debug!("cancellation without a usable requestId ignored");
            return;
        };
        let reason = params.get("reason").and_then(Value::as_str).unwrap_or("no reason given");
        if self.in_flight.cancel(&id) {
            tracing::info!(session = %self.name, "request {id} cancelled by the client: {reason}");
            let mut audience = self.audience.lock().expect("audience");
            if let Some(index) = audience.listens.iter().position(|listen| *listen == id) {
                audience.listens.remove(index);
                drop(audience);
                self.in_flight.finish(&id);
            }
        } else {
            tracing::debug!("cancellation of {id}, which is not in flight, ignored");
        }
    }

    async fn request(&mut self, id: RequestId, method: &str, params: Params) {
        let Some(cancel) = self.in_flight.begin(&id) else {
            let error = RpcError::new(
                ErrorCode::InvalidRequest,
                format!("duplicate request id {id}: a request with this id is still in progress"),
            );
            // Answered with the id, but the first request keeps it.
            return self.outbox.send(jsonrpc::error_response(Some(&id), &error)).await;
        };
        let shape = match self.settle_era(method, &params) {
            Ok(shape) => shape,
            Err(error) => return self.answer(&id, Err(error)).await,
        };
        let ready = self.era != Era::Undecided;
        if matches!(method, "initialize" | "server/discover") {
            // Who we are comes from the engine's hello: wait for it, but
            // briefly: an engine still building (`--dev`) must not keep a
            // client's handshake past its timeout; Rigor's defaults stand in.
            let _ = tokio::time::timeout(HELLO_WAIT, self.gateway.supervisor.catalogue()).await;
        }
        let server = self.gateway.supervisor.identity();
        let immediate = match method {
            "ping" => Ok(json!({})),
            "initialize" => self.initialize(&params, &server),
            "server/discover" => Ok(discover(&server)),
            "logging/setLevel" if ready && shape == Shape::Handshake => self.set_level(&params),
            "subscriptions/listen" if ready && shape != Shape::Handshake => return self.listen(id, &params).await,
            "tools/list" if ready => {
                let gateway = self.gateway.clone();
                return self.spawn_answer(id, async move {
                    let listed = list_tools(gateway.clone(), params).await;
                    shape.finish(listed, &gateway.supervisor.identity())
                });
            }
            "tools/call" if ready => {
                // Through the pipeline, so calls reach the worker in arrival order.
                let call = QueuedCall { id: id.clone(), params, cancel, shape };
                if self.calls.send(call).await.is_err() {
                    let error = RpcError::new(ErrorCode::InternalError, "the call pipeline has stopped");
                    self.answer(&id, Err(error)).await;
                }
                return;
            }
            "tools/list" | "tools/call" | "logging/setLevel" | "subscriptions/listen" if !ready => Err(RpcError::new(
                ErrorCode::InvalidRequest,
                format!("not initialized: send `initialize` (or use 2026-07-28 request envelopes) before {method}"),
            )),
            other => Err(RpcError::new(ErrorCode::MethodNotFound, format!("method not found: {other}"))),
        };
        self.answer(&id, shape.finish(immediate, &server)).await;
    }

    /// Decides the era on the first request, and holds later requests to it.
    fn settle_era(&mut self, method: &str, params: &Params) -> Result<Shape, RpcError> {
        let enveloped = era::has_envelope(params) && method != "initialize";
        // Lists and discovery may be cached by the client; call results not.
        let cacheable = matches!(method, "tools/list" | "server/discover");

        match &self.era {
            Era::Modern if method == "initialize" => {
                let requested = params.object().ok().and_then(|p| p.get("protocolVersion").and_then(Value::as_str).map(str::to_string));
                Err(era::unsupported_version(requested.as_deref().unwrap_or("(none)")))
            }
            Era::Modern => era::check_envelope(params).map(|()| Shape::Modern { cacheable }),
            Era::Handshake { version } if enveloped => Err(RpcError::new(
                ErrorCode::InvalidRequest,
                format!("this connection uses the initialize handshake (protocol {version}); its requests cannot switch to 2026-07-28 envelopes"),
            )),
            Era::Handshake { .. } => Ok(Shape::Handshake),
            Era::Undecided if enveloped => {
                era::check_envelope(params)?;
                tracing::info!(session = %self.name, "client speaks protocol 2026-07-28 (stateless)");
                self.era = Era::Modern;

                Ok(Shape::Modern { cacheable })
            }
            Era::Undecided => Ok(Shape::Handshake),
        }
    }

    /// Answers later, from a task, so other requests are served meanwhile.
    fn spawn_answer(
        &mut self,
        id: RequestId,
        work: impl std::future::Future<Output = Result<Value, RpcError>> + Send + 'static,
    ) {
        let outbox = self.outbox.clone();
        let in_flight = self.in_flight.clone();
        self.tasks.spawn(async move {
            let answer = work.await;
            if in_flight.finish(&id) {
                outbox.respond(&id, answer).await;
            }
        });
    }

    async fn answer(&self, id: &RequestId, answer: Result<Value, RpcError>) {
        if self.in_flight.finish(id) {
            self.outbox.respond(id, answer).await;
        }
    }

    fn initialize(&mut self, params: &Params, server: &ServerIdentity) -> Result<Value, RpcError> {
        if let Era::Handshake { .. } = self.era {
            return Err(RpcError::new(
                ErrorCode::InvalidRequest,
                "already initialized: initialize may be sent only once per session",
            ));
        }
        let params = params.object()?;
        let requested = match params.get("protocolVersion") {
            Some(Value::String(version)) => version.clone(),
            Some(other) => {
                return Err(RpcError::new(
                    ErrorCode::InvalidParams,
                    format!("protocolVersion must be a string, not {}", jsonrpc::kind_of(other)),
                ))
            }
            None => return Err(RpcError::new(ErrorCode::InvalidParams, "initialize needs protocolVersion")),
        };
        let version = era::negotiate(&requested);
        tracing::info!(session = %self.name, requested = %requested, agreed = %version, client = %client_name(&params), "client connected");
        self.era = Era::Handshake { version: version.to_string() };
        self.audience.lock().expect("audience").handshake_ready = true;
        Ok(json!({
            "protocolVersion": version,
            "capabilities": {"tools": {"listChanged": true}, "logging": {}},
            "serverInfo": server.server_info(),
            "instructions": server.instructions,
        }))
    }

    /// `logging/setLevel`: gateway events at or above this level reach the
    /// client as `notifications/message`.
    fn set_level(&mut self, params: &Params) -> Result<Value, RpcError> {
        let params = params.object()?;
        let name = params.get("level").and_then(Value::as_str).unwrap_or_default();
        let level = LogLevel::parse(name).ok_or_else(|| {
            RpcError::new(
                ErrorCode::InvalidParams,
                format!("unknown level {name:?}; use one of {}", LogLevel::names().join(", ")),
            )
        })?;
        self.audience.lock().expect("audience").log_level = level;
        Ok(json!({}))
    }

    /// `subscriptions/listen` (2026-07-28): acknowledge the notifications we
    /// honour (tool list changes), then keep the request open; changes are
    /// delivered on it until the client cancels it or the session ends.
    async fn listen(&mut self, id: RequestId, params: &Params) {
        let filter = match params.object().map(|p| p.get("notifications").cloned()) {
            Ok(Some(Value::Object(filter))) => filter,
            Ok(_) => {
                let error =
                    RpcError::new(ErrorCode::InvalidParams, "subscriptions/listen needs a `notifications` object");
                return self.answer(&id, Err(error)).await;
            }
            Err(error) => return self.answer(&id, Err(error)).await,
        };
        let mut honored = Map::new();
        if filter.get("toolsListChanged") == Some(&Value::Bool(true)) {
            honored.insert("toolsListChanged".into(), Value::Bool(true));
        }
        let stamp = json!({era::SUBSCRIPTION_ID_KEY: id.to_value()});
        self.outbox
            .send(jsonrpc::notification(
                "notifications/subscriptions/acknowledged",
                json!({"notifications": honored, "_meta": stamp}),
            ))
            .await;
        self.audience.lock().expect("audience").listens.push(id);
    }
}

/// `server/discover` (2026-07-28): what this server speaks.
fn discover(server: &ServerIdentity) -> Value {
    json!({
        "supportedVersions": MODERN_VERSIONS,
        "capabilities": {"tools": {"listChanged": true}},
        "instructions": server.instructions,
    })
}

fn client_name(params: &Map<String, Value>) -> String {
    let info = params.get("clientInfo");
    let field = |key| info.and_then(|i| i.get(key)).and_then(Value::as_str).unwrap_or("?");
    format!("{} {}", field("name"), field("version"))
}

async fn list_tools(gateway: Arc<Gateway>, params: Params) -> Result<Value, RpcError> {
    let params = params.object()?;
    let offset = match params.get("cursor") {
        None | Some(Value::Null) => 0,
        Some(Value::String(cursor)) => parse_cursor(cursor)?,
        Some(other) => {
            return Err(RpcError::new(
                ErrorCode::InvalidParams,
                format!("cursor must be a string, not {}", jsonrpc::kind_of(other)),
            ))
        }
    };
    // Truthful even for clients that ignore list_changed: bring the worker
    // up to date first, unless calls are running (then do not wait on them).
    if gateway.supervisor.is_idle() {
        gateway.supervisor.refresh().await;
    }
    let tools = match gateway.supervisor.catalogue().await {
        CatalogueState::Ready(catalogue) => catalogue.listing(),
        // Truthful: no engine, no tools. Calls explain why.
        _ => Vec::new(),
    };
    if offset > tools.len() {
        return Err(RpcError::new(
            ErrorCode::InvalidParams,
            format!("cursor {offset} is past the end of the tool list; list again from the start"),
        ));
    }
    let end = (offset + gateway.page_size.max(1)).min(tools.len());
    let mut result = json!({"tools": tools[offset..end]});
    if end < tools.len() {
        result["nextCursor"] = json!(format!("tools:{end}"));
    }
    Ok(result)
}

fn parse_cursor(cursor: &str) -> Result<usize, RpcError> {
    cursor.strip_prefix("tools:").and_then(|n| n.parse().ok()).ok_or_else(|| {
        RpcError::new(
            ErrorCode::InvalidParams,
            format!("invalid cursor {cursor:?}: use the nextCursor of a tools/list result"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_junk_is_refused() {
        assert_eq!(parse_cursor("tools:2").unwrap(), 2);
        for junk in ["", "2", "tools:", "tools:x", "other:1"] {
            assert_eq!(parse_cursor(junk).unwrap_err().code, ErrorCode::InvalidParams, "{junk}");
        }
    }
}
