//! One MCP client session: the lifecycle (initialize first), dispatch of
//! each message, and exactly one answer per request.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use crate::gateway::Gateway;
use crate::mcp::connection::{Connection, Outbox};
use crate::mcp::framing::Frame;
use crate::mcp::jsonrpc::{self, classify, ErrorCode, Incoming, Params, RequestId, RpcError};
use crate::supervisor::{Activity, CatalogueState};
use crate::tool_call;

/// Handshake-era versions we speak, newest first.
pub const SUPPORTED_VERSIONS: &[&str] = &["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/// How many calls may wait for validation before the session stops reading.
const CALL_QUEUE: usize = 256;

/// After stdin closes, calls in flight get this long to finish.
const DRAIN_GRACE: Duration = Duration::from_millis(800);

const INSTRUCTIONS: &str = "Rigor is a Ruby type checker. Call rigor_check with paths (files or directories relative to the project root) before proposing a refactor; it returns JSON diagnostics, and finding diagnostics is a normal result. rigor_triage summarises a whole project; rigor_explain describes a rule.";

/// Requests being answered, each with the token that cancels it. An id may
/// not be reused while in flight; a cancelled request gets no answer.
#[derive(Clone, Default)]
struct InFlight(Arc<Mutex<HashMap<RequestId, CancellationToken>>>);

impl InFlight {
    /// Registers a request; `None` when its id is already in flight.
    fn begin(&self, id: &RequestId) -> Option<CancellationToken> {
        let mut requests = self.0.lock().expect("in-flight map");
        if requests.contains_key(id) {
            return None;
        }
        let token = CancellationToken::new();
        requests.insert(id.clone(), token.clone());
        Some(token)
    }

    fn cancel(&self, id: &RequestId) -> bool {
        match self.0.lock().expect("in-flight map").get(id) {
            Some(token) => {
                token.cancel();
                true
            }
            None => false,
        }
    }

    /// Ends a request; true when its answer should be sent.
    fn finish(&self, id: &RequestId) -> bool {
        self.0.lock().expect("in-flight map").remove(id).is_some_and(|token| !token.is_cancelled())
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Lifecycle {
    /// Only `initialize` and `ping` are served.
    AwaitingInitialize,
    Ready {
        version: String,
    },
}

struct Session {
    gateway: Arc<Gateway>,
    outbox: Outbox,
    lifecycle: Lifecycle,
    in_flight: InFlight,
    tasks: JoinSet<()>,
    /// `tools/call` requests in arrival order, to the call pipeline.
    calls: mpsc::Sender<QueuedCall>,
}

/// Serves one client until its input ends, then lets calls in flight finish
/// (for a short grace) so that piped input still gets its answers.
pub async fn serve(mut connection: Connection, gateway: Arc<Gateway>) {
    let in_flight = InFlight::default();
    let (calls, queue) = mpsc::channel(CALL_QUEUE);
    let pipeline = tokio::spawn(call_pipeline(gateway.clone(), connection.outgoing.clone(), in_flight.clone(), queue));
    let mut session = Session {
        gateway: gateway.clone(),
        outbox: connection.outgoing.clone(),
        lifecycle: Lifecycle::AwaitingInitialize,
        in_flight,
        tasks: JoinSet::new(),
        calls,
    };
    let (ready_tx, ready_rx) = tokio::sync::watch::channel(false);
    let announcer = tokio::spawn(announce_catalogue_changes(gateway, connection.outgoing.clone(), ready_rx));
    while let Some(frame) = connection.incoming.recv().await {
        session.handle(frame).await;
        let _ = ready_tx.send(matches!(session.lifecycle, Lifecycle::Ready { .. }));
        while session.tasks.try_join_next().is_some() {}
    }
    tracing::debug!("client input ended");
    drop(session.calls);
    let drained = tokio::time::timeout(DRAIN_GRACE, async {
        let _ = pipeline.await;
        while session.tasks.join_next().await.is_some() {}
    })
    .await;
    if drained.is_err() {
        tracing::warn!("calls still running after input ended were abandoned");
    }
    announcer.abort();
}

impl Session {
    async fn handle(&mut self, frame: Frame) {
        let line = match frame {
            Frame::Line(line) => line,
            Frame::TooLong { bytes } => {
                let error = RpcError::new(
                    ErrorCode::InvalidRequest,
                    format!(
                        "message of {bytes} bytes exceeds the limit of {} bytes (--max-line-bytes); it was skipped",
                        self.gateway.max_line_bytes
                    ),
                );
                return self.outbox.send(jsonrpc::error_response(None, &error)).await;
            }
        };
        match classify(&line) {
            Incoming::Invalid { id, error } => self.outbox.send(jsonrpc::error_response(id.as_ref(), &error)).await,
            Incoming::Response => tracing::debug!("ignoring a response from the client"),
            Incoming::Notification { method, params } => self.notification(&method, &params),
            Incoming::Request { id, method, params } => self.request(id, &method, params).await,
        }
    }

    fn notification(&mut self, method: &str, params: &Params) {
        match method {
            "notifications/initialized" => tracing::debug!("client initialized"),
            "notifications/cancelled" => self.cancel(params),
            other => tracing::debug!("ignoring notification {other}"),
        }
    }

    /// `notifications/cancelled`: a queued call is dropped, a running one is
    /// stopped (its worker replaced); either way it gets no answer.
    fn cancel(&mut self, params: &Params) {
        let Ok(params) = params.object() else { return };
        let Some(id) = params.get("requestId").and_then(RequestId::from_value) else {
            tracing::debug!("cancellation without a usable requestId ignored");
            return;
        };
        let reason = params.get("reason").and_then(Value::as_str).unwrap_or("no reason given");
        if self.in_flight.cancel(&id) {
            tracing::info!("request {id} cancelled by the client: {reason}");
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
        let immediate = match (method, &self.lifecycle) {
            ("ping", _) => Ok(json!({})),
            ("initialize", Lifecycle::AwaitingInitialize) => self.initialize(&params),
            ("initialize", Lifecycle::Ready { .. }) => Err(RpcError::new(
                ErrorCode::InvalidRequest,
                "already initialized: initialize may be sent only once per session",
            )),
            ("tools/list" | "tools/call", Lifecycle::AwaitingInitialize) => Err(RpcError::new(
                ErrorCode::InvalidRequest,
                format!("not initialized: send `initialize` before {method}"),
            )),
            ("tools/list", Lifecycle::Ready { .. }) => {
                return self.spawn_answer(id, list_tools(self.gateway.clone(), params))
            }
            ("tools/call", Lifecycle::Ready { .. }) => {
                // Through the pipeline, so calls reach the worker in arrival order.
                if self.calls.send(QueuedCall { id: id.clone(), params, cancel }).await.is_err() {
                    let error = RpcError::new(ErrorCode::InternalError, "the call pipeline has stopped");
                    self.answer(&id, Err(error)).await;
                }
                return;
            }
            (other, _) => Err(RpcError::new(ErrorCode::MethodNotFound, format!("method not found: {other}"))),
        };
        self.answer(&id, immediate).await;
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
                outbox.send(to_message(&id, answer)).await;
            }
        });
    }

    async fn answer(&self, id: &RequestId, answer: Result<Value, RpcError>) {
        if self.in_flight.finish(id) {
            self.outbox.send(to_message(id, answer)).await;
        }
    }

    fn initialize(&mut self, params: &Params) -> Result<Value, RpcError> {
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
        let version = negotiate(&requested);
        tracing::info!(requested = %requested, agreed = %version, client = %client_name(&params), "client connected");
        self.lifecycle = Lifecycle::Ready { version: version.to_string() };
        Ok(json!({
            "protocolVersion": version,
            "capabilities": {"tools": {"listChanged": true}},
            "serverInfo": {"name": "rigor-mcp", "title": "Rigor", "version": env!("CARGO_PKG_VERSION")},
            "instructions": INSTRUCTIONS,
        }))
    }
}

/// The requested version if we speak it, else our newest.
pub fn negotiate(requested: &str) -> &'static str {
    SUPPORTED_VERSIONS.iter().find(|v| **v == requested).copied().unwrap_or(SUPPORTED_VERSIONS[0])
}

fn client_name(params: &serde_json::Map<String, Value>) -> String {
    let info = params.get("clientInfo");
    let field = |key| info.and_then(|i| i.get(key)).and_then(Value::as_str).unwrap_or("?");
    format!("{} {}", field("name"), field("version"))
}

struct QueuedCall {
    id: RequestId,
    params: Params,
    cancel: CancellationToken,
}

/// Validates and queues calls one after another (so the worker sees them in
/// arrival order), then awaits each outcome in its own task.
async fn call_pipeline(
    gateway: Arc<Gateway>,
    outbox: Outbox,
    in_flight: InFlight,
    mut queue: mpsc::Receiver<QueuedCall>,
) {
    let mut waiting = JoinSet::new();
    while let Some(QueuedCall { id, params, cancel }) = queue.recv().await {
        let progress_token = progress_token(&params);
        let prepared = tool_call::prepare(&gateway, &params, cancel).await;
        let outbox = outbox.clone();
        let in_flight = in_flight.clone();
        let activity = gateway.supervisor.watch_activity();
        waiting.spawn(async move {
            let answer = match progress_token {
                Some(token) => with_progress(prepared.answer(), activity, &outbox, token).await,
                None => prepared.answer().await,
            };
            if in_flight.finish(&id) {
                outbox.send(to_message(&id, answer)).await;
            }
        });
        while waiting.try_join_next().is_some() {}
    }
    while waiting.join_next().await.is_some() {}
}

/// `params._meta.progressToken`, when the client asked for progress.
fn progress_token(params: &Params) -> Option<Value> {
    let Params::Object(params) = params else { return None };
    params.get("_meta")?.get("progressToken").filter(|t| t.is_string() || t.is_number()).cloned()
}

/// How often a long call reports that it is still running.
const PROGRESS_INTERVAL: Duration = Duration::from_secs(5);

/// Awaits `work`, sending `notifications/progress` while the engine is
/// rebuilt or restarted, and every few seconds while the call runs (some
/// clients reset their timeout on progress).
async fn with_progress(
    work: impl std::future::Future<Output = Result<Value, RpcError>>,
    mut activity: tokio::sync::watch::Receiver<Activity>,
    outbox: &Outbox,
    token: Value,
) -> Result<Value, RpcError> {
    tokio::pin!(work);
    let started = tokio::time::Instant::now();
    let mut progress = 0u64;
    let mut announce = |message: String| {
        progress += 1;
        jsonrpc::notification(
            "notifications/progress",
            json!({"progressToken": token, "progress": progress, "message": message}),
        )
    };
    let mut current = *activity.borrow_and_update();
    loop {
        let message = match current {
            Activity::Rebuilding => Some("rebuilding engine…".to_string()),
            Activity::Restarting => Some("restarting engine…".to_string()),
            Activity::Idle => None,
        };
        if let Some(message) = message {
            outbox.send(announce(message)).await;
        }
        tokio::select! {
            answer = &mut work => return answer,
            changed = activity.changed() => {
                if changed.is_err() {
                    return work.await;
                }
                current = *activity.borrow_and_update();
            }
            _ = tokio::time::sleep(PROGRESS_INTERVAL) => {
                outbox.send(announce(format!("still running ({} s)", started.elapsed().as_secs()))).await;
            }
        }
    }
}

fn to_message(id: &RequestId, answer: Result<Value, RpcError>) -> Value {
    match answer {
        Ok(result) => jsonrpc::response(id, result),
        Err(error) => jsonrpc::error_response(Some(id), &error),
    }
}

async fn list_tools(gateway: Arc<Gateway>, params: Params) -> Result<Value, RpcError> {
    let params = params.object()?;
    if let Some(cursor) = params.get("cursor").filter(|c| !c.is_null()) {
        return Err(RpcError::new(
            ErrorCode::InvalidParams,
            format!("unknown cursor {cursor}: this server returns every tool in one page"),
        ));
    }
    // Truthful even for clients that ignore list_changed: bring the worker
    // up to date first, unless calls are running (then do not wait on them).
    if gateway.supervisor.is_idle() {
        gateway.supervisor.refresh().await;
    }
    Ok(match gateway.supervisor.catalogue().await {
        CatalogueState::Ready(catalogue) => json!({"tools": catalogue.listing()}),
        // Truthful: no engine, no tools. Calls explain why.
        _ => json!({"tools": []}),
    })
}

/// Sends `notifications/tools/list_changed` when the worker's catalogue
/// changes (a reload, a restart with different tools), once the client is ready.
async fn announce_catalogue_changes(
    gateway: Arc<Gateway>,
    outbox: Outbox,
    mut ready: tokio::sync::watch::Receiver<bool>,
) {
    let mut updates = gateway.supervisor.watch_catalogue();
    let listing = |state: &CatalogueState| match state {
        CatalogueState::Ready(catalogue) => Some(catalogue.listing()),
        CatalogueState::Unavailable(_) => Some(Vec::new()),
        CatalogueState::Starting => None,
    };
    let mut last = listing(&updates.borrow_and_update());
    loop {
        if updates.changed().await.is_err() {
            return;
        }
        let current = listing(&updates.borrow_and_update());
        let Some(current) = current else { continue };
        if last.as_ref().is_some_and(|previous| *previous != current) && *ready.borrow_and_update() {
            tracing::info!("tool catalogue changed; notifying the client");
            outbox.send(jsonrpc::notification("notifications/tools/list_changed", json!({}))).await;
        }
        last = Some(current);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negotiation_echoes_supported_versions_and_offers_the_newest_otherwise() {
        for version in SUPPORTED_VERSIONS {
            assert_eq!(negotiate(version), *version);
        }
        assert_eq!(negotiate("1999-01-01"), "2025-11-25");
        assert_eq!(negotiate("2026-07-28"), "2025-11-25");
    }
}
