//! Server-sent event streams (axum's SSE): a request's stream (its
//! progress, then its answer, then the end) and a session's GET stream.

use std::convert::Infallible;
use std::sync::Arc;

use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream::{self, Stream};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::relay::{Out, Relay, Waiting};
use crate::mcp::jsonrpc::{self, ErrorCode, RequestId, RpcError};

/// The answer to a request whose session ended first: every request with an
/// id gets one answer.
pub fn unanswered(id: &RequestId) -> String {
    let error = RpcError::new(ErrorCode::InternalError, "the session ended before this request was answered");
    jsonrpc::error_response(Some(id), &error).to_string()
}

/// A request's messages as SSE. Ends after the answer, on cancellation, or
/// when the shutdown grace is over (`abandon`). Holds the relay so a
/// stateless session lives as long as its one request.
pub fn request_stream(relay: Arc<Relay>, id: RequestId, waiting: Waiting, abandon: CancellationToken) -> Response {
    struct State {
        waiting: Option<Waiting>,
        _relay: Arc<Relay>,
        id: RequestId,
        abandon: CancellationToken,
    }
    let state = State { waiting: Some(waiting), _relay: relay, id, abandon };
    let events = stream::unfold(state, |mut state| async move {
        let waiting = state.waiting.as_mut()?;
        let data = tokio::select! {
            out = waiting.recv() => match out {
                Some(Out::Note(line)) => line,
                Some(Out::Answer { line, .. }) => {
                    state.waiting = None;
                    line
                }
                Some(Out::Cancelled) => return None,
                None => {
                    state.waiting = None;
                    unanswered(&state.id)
                }
            },
            () = state.abandon.cancelled() => return None,
        };
        Some((Ok::<_, Infallible>(Event::default().data(data)), state))
    });
    sse(events)
}

/// A GET stream: ends when the session closes or the server stops.
pub fn standalone_stream(messages: mpsc::Receiver<String>, stopping: CancellationToken) -> Response {
    let events = stream::unfold((messages, stopping), |(mut messages, stopping)| async move {
        let line = tokio::select! {
            line = messages.recv() => line?,
            () = stopping.cancelled() => return None,
        };
        Some((Ok::<_, Infallible>(Event::default().data(line)), (messages, stopping)))
    });
    sse(events)
}

fn sse(events: impl Stream<Item = Result<Event, Infallible>> + Send + 'static) -> Response {
    // Comments every 15 s keep proxies from closing a quiet stream and
    // reveal a client that went away.
    Sse::new(events).keep_alive(KeepAlive::default()).into_response()
}
