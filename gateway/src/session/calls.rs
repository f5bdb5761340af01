//! `tools/call` requests: validated and queued one after another, so the
//! worker sees them in arrival order; each outcome is awaited in its own
//! task, reporting progress when the client asked for it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use super::in_flight::InFlight;
use super::Shape;
use crate::gateway::Gateway;
use crate::mcp::connection::Outbox;
use crate::mcp::jsonrpc::{self, Params, RequestId, RpcError};
use crate::supervisor::Activity;
use crate::tool_call;

/// How often a long call reports that it is still running.
const PROGRESS_INTERVAL: Duration = Duration::from_secs(5);

pub struct QueuedCall {
    pub id: RequestId,
    pub params: Params,
    pub cancel: CancellationToken,
    pub shape: Shape,
}

pub async fn pipeline(
    gateway: Arc<Gateway>,
    outbox: Outbox,
    in_flight: InFlight,
    mut queue: mpsc::Receiver<QueuedCall>,
    session: String,
) {
    let mut waiting = JoinSet::new();
    while let Some(QueuedCall { id, params, cancel, shape }) = queue.recv().await {
        let progress_token = progress_token(&params);
        let tool = params
            .object()
            .ok()
            .and_then(|p| p.get("name").and_then(Value::as_str).map(str::to_string))
            .unwrap_or_default();
        let started = Instant::now();
        let prepared = tool_call::prepare(&gateway, &params, cancel).await;
        let outbox = outbox.clone();
        let in_flight = in_flight.clone();
        let activity = gateway.supervisor.watch_activity();
        let session = session.clone();
        let gateway = gateway.clone();
        waiting.spawn(async move {
            let answer = match progress_token {
                Some(token) => with_progress(prepared.answer(), activity, &outbox, token).await,
                None => prepared.answer().await,
            };
            let server = gateway.supervisor.identity();
            log_call(&session, &tool, &server.meta_key, started.elapsed(), &answer);
            if in_flight.finish(&id) {
                outbox.respond(&id, shape.finish(answer, &server)).await;
            } else {
                tracing::info!(%session, %tool, "call {id} cancelled; no answer sent");
            }
        });
        while waiting.try_join_next().is_some() {}
    }
    while waiting.join_next().await.is_some() {}
}

/// One concise line per call: what a person watching terminal A wants.
fn log_call(session: &str, tool: &str, meta_key: &str, took: Duration, answer: &Result<Value, RpcError>) {
    if !tracing::enabled!(tracing::Level::WARN) {
        return;
    }
    let ms = took.as_secs_f64() * 1e3;
    match answer {
        Ok(result) => {
            let worker = &result["_meta"][meta_key];
            let exit = worker["exit_code"].as_i64().map_or("-".to_string(), |c| c.to_string());
            let pid = worker["pid"].as_u64().map_or("-".to_string(), |p| p.to_string());
            if result["isError"] == true {
                let why = result["content"][0]["text"].as_str().unwrap_or("").lines().next().unwrap_or("");
                tracing::warn!(session, "{tool} failed in {ms:.1} ms (exit {exit}, worker {pid}): {why}");
            } else {
                tracing::info!(session, "{tool} {ms:.1} ms, exit {exit}, worker {pid}");
            }
        }
        Err(error) => tracing::warn!(session, "{tool} refused in {ms:.1} ms: {}", error.message),
    }
}

/// `params._meta.progressToken`, when the client asked for progress.
fn progress_token(params: &Params) -> Option<Value> {
    let Params::Object(params) = params else { return None };
    params.get("_meta")?.get("progressToken").filter(|t| t.is_string() || t.is_number()).cloned()
}

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
            Activity::WarmingUp => Some("the engine is warming up (building its project model)…".to_string()),
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
