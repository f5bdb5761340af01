//! The `/mcp` endpoint: POST carries one JSON-RPC message, GET opens the
//! session's server-to-client stream, DELETE ends the session. Everything
//! about MCP itself is the session's business; this only decides which
//! session a message belongs to and how its answer travels back.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use http_body_util::{BodyExt, LengthLimitError, Limited};
use serde_json::Value;

use super::relay::{Out, Refused, Relay, Waiting};
use super::{reply, sse, Endpoint, PATH};
use crate::mcp::jsonrpc::{classify, ErrorCode, Incoming, Params, RequestId};
use crate::session::era;
use crate::session::{HANDSHAKE_VERSIONS, MODERN_VERSIONS};

const SESSION_HEADER: &str = "mcp-session-id";
const VERSION_HEADER: &str = "mcp-protocol-version";

type Shared = State<Arc<Endpoint>>;

pub fn router(endpoint: Arc<Endpoint>) -> Router {
    Router::new().route(PATH, post(on_post).get(on_get).delete(on_delete)).with_state(endpoint)
}

async fn on_post(State(endpoint): Shared, headers: HeaderMap, body: Body) -> Response {
    if let Err(refusal) = endpoint.guard.check(&headers) {
        return refusal;
    }
    if !header_text(&headers, header::CONTENT_TYPE)
        .is_some_and(|t| t.to_ascii_lowercase().starts_with("application/json"))
    {
        return reply::refusal(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "POST bodies must be `Content-Type: application/json`".into(),
        );
    }
    let limit = endpoint.gateway.max_line_bytes;
    let body = match Limited::new(body, limit).collect().await {
        Ok(collected) => collected.to_bytes().to_vec(),
        Err(error) if error.is::<LengthLimitError>() => {
            return reply::refusal(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("the message exceeds the limit of {limit} bytes (--max-line-bytes)"),
            )
        }
        Err(error) => return reply::refusal(StatusCode::BAD_REQUEST, format!("cannot read the request body: {error}")),
    };
    let session = header_text(&headers, SESSION_HEADER);
    let (id, method, params) = match classify(&body) {
        Incoming::Invalid { id, error } => {
            let answer = crate::mcp::jsonrpc::error_response(id.as_ref(), &error);
            return reply::json(StatusCode::BAD_REQUEST, answer.to_string());
        }
        Incoming::Request { id, method, params } => (id, method, params),
        Incoming::Notification { method, params } => {
            return from_client(&endpoint, session, &headers, body, Some((&method, &params))).await
        }
        Incoming::Response => return from_client(&endpoint, session, &headers, body, None).await,
    };
    if method != "initialize" {
        if let Err(refusal) = check_version(&headers) {
            return refusal;
        }
    }
    let stream = streams_progress(&method, &params) && accepts(&headers, "text/event-stream");
    let progress = stream.then(|| progress_token(&params)).flatten();
    let relay = match session {
        Some(session) => match endpoint.sessions.get(session) {
            Some(relay) => relay,
            None => return unknown_session(),
        },
        None if method == "initialize" => return initialize(&endpoint, id, body).await,
        // 2026-07-28 requests carry their version: each is a session of its own.
        None if era::has_envelope(&params) || method == "server/discover" => {
            endpoint.sessions.stateless(endpoint.gateway.clone())
        }
        None => {
            return reply::error(
                StatusCode::BAD_REQUEST,
                Some(&id),
                ErrorCode::InvalidRequest,
                format!("{method} needs an Mcp-Session-Id header: send `initialize` first (or use 2026-07-28 request envelopes)"),
            )
        }
    };
    let waiting = match relay.request(&id, progress.as_ref(), body).await {
        Ok(waiting) => waiting,
        Err(refused) => return refused_request(&id, refused),
    };
    if stream {
        sse::request_stream(relay, id, waiting, endpoint.abandon.clone())
    } else {
        answer_as_json(&endpoint, &id, waiting).await
    }
}

/// `initialize` without a session id: a new session, registered (and its
/// id sent back) only if the handshake succeeds.
async fn initialize(endpoint: &Endpoint, id: RequestId, body: Vec<u8>) -> Response {
    let relay = match endpoint.sessions.start(endpoint.gateway.clone()) {
        Ok(relay) => relay,
        Err(full) => {
            return reply::error(
                StatusCode::SERVICE_UNAVAILABLE,
                Some(&id),
                ErrorCode::InternalError,
                format!("too many sessions open (the limit is {}, --max-sessions); end one with DELETE", full.0),
            )
        }
    };
    let waiting = match relay.request(&id, None, body).await {
        Ok(waiting) => waiting,
        Err(refused) => return refused_request(&id, refused),
    };
    let mut response = answer_as_json(endpoint, &id, waiting).await;
    if response.status() == StatusCode::OK && succeeded(&response) {
        let session = endpoint.sessions.register(relay.clone());
        let value = HeaderValue::from_str(&session).expect("hex is a valid header value");
        response.headers_mut().insert(SESSION_HEADER, value);
    } else {
        relay.close();
    }
    response
}

/// Did this JSON answer carry a result (rather than an error)?
fn succeeded(response: &Response) -> bool {
    response.extensions().get::<Succeeded>().is_some()
}

#[derive(Clone, Copy)]
struct Succeeded;

/// Waits for the answer and sends it as `application/json`.
async fn answer_as_json(endpoint: &Endpoint, id: &RequestId, mut waiting: Waiting) -> Response {
    loop {
        let out = tokio::select! {
            out = waiting.recv() => out,
            () = endpoint.abandon.cancelled() => {
                return reply::error(StatusCode::SERVICE_UNAVAILABLE, Some(id), ErrorCode::InternalError,
                    "the server is shutting down; this request was not finished".into());
            }
        };
        match out {
            Some(Out::Note(_)) => continue,
            Some(Out::Answer { line, succeeded }) => {
                let mut response = reply::json(StatusCode::OK, line);
                if succeeded {
                    response.extensions_mut().insert(Succeeded);
                }
                return response;
            }
            // Cancelled by the client: no answer, by the spec.
            Some(Out::Cancelled) => return reply::accepted(),
            None => return reply::json(StatusCode::OK, sse::unanswered(id)),
        }
    }
}

/// A notification (`Some`) or a response (`None`) from the client: 202.
async fn from_client(
    endpoint: &Endpoint,
    session: Option<&str>,
    headers: &HeaderMap,
    body: Vec<u8>,
    notification: Option<(&str, &Params)>,
) -> Response {
    if let Err(refusal) = check_version(headers) {
        return refusal;
    }
    let Some(session) = session else {
        // A stateless client's notification concerns no open request.
        return reply::accepted();
    };
    let Some(relay) = endpoint.sessions.get(session) else { return unknown_session() };
    if relay.forward(body).await.is_err() {
        return unknown_session();
    }
    if let Some(("notifications/cancelled", params)) = notification {
        let cancelled = params.object().ok().and_then(|p| p.get("requestId").and_then(RequestId::from_value));
        if let Some(id) = cancelled {
            relay.cancelled(&id);
        }
    }
    reply::accepted()
}

async fn on_get(State(endpoint): Shared, headers: HeaderMap) -> Response {
    let relay = match session_of(&endpoint, &headers) {
        Ok(relay) => relay,
        Err(refusal) => return refusal,
    };
    if !accepts(&headers, "text/event-stream") {
        return reply::refusal(
            StatusCode::NOT_ACCEPTABLE,
            "GET opens an event stream: send `Accept: text/event-stream`".into(),
        );
    }
    sse::standalone_stream(relay.open_stream(), endpoint.stopping.clone())
}

async fn on_delete(State(endpoint): Shared, headers: HeaderMap) -> Response {
    if let Err(refusal) = session_of(&endpoint, &headers) {
        return refusal;
    }
    let session = header_text(&headers, SESSION_HEADER).unwrap_or_default();
    if endpoint.sessions.end(session) {
        axum::response::IntoResponse::into_response(StatusCode::OK)
    } else {
        unknown_session()
    }
}

/// The checks GET and DELETE share: guard, version, a known session.
#[allow(clippy::result_large_err)]
fn session_of(endpoint: &Endpoint, headers: &HeaderMap) -> Result<Arc<Relay>, Response> {
    endpoint.guard.check(headers)?;
    check_version(headers)?;
    let Some(session) = header_text(headers, SESSION_HEADER) else {
        return Err(reply::refusal(StatusCode::BAD_REQUEST, "an Mcp-Session-Id header is required".into()));
    };
    endpoint.sessions.get(session).ok_or_else(unknown_session)
}

fn unknown_session() -> Response {
    reply::refusal(
        StatusCode::NOT_FOUND,
        "unknown or expired Mcp-Session-Id: send `initialize` again to start a new session".into(),
    )
}

fn refused_request(id: &RequestId, refused: Refused) -> Response {
    match refused {
        Refused::Duplicate => reply::error(
            StatusCode::OK,
            Some(id),
            ErrorCode::InvalidRequest,
            format!("duplicate request id {id}: a request with this id is still in progress"),
        ),
        Refused::Gone => unknown_session(),
    }
}

/// `MCP-Protocol-Version`, when sent, must be a version we speak (400).
#[allow(clippy::result_large_err)]
fn check_version(headers: &HeaderMap) -> Result<(), Response> {
    let Some(version) = header_text(headers, VERSION_HEADER) else { return Ok(()) };
    if HANDSHAKE_VERSIONS.contains(&version) || MODERN_VERSIONS.contains(&version) {
        return Ok(());
    }
    Err(reply::refusal(
        StatusCode::BAD_REQUEST,
        format!(
            "unsupported MCP-Protocol-Version {version:?}; this server speaks {}",
            [MODERN_VERSIONS, HANDSHAKE_VERSIONS].concat().join(", ")
        ),
    ))
}

/// Requests whose response may carry messages before the answer: a call
/// that asked for progress, and a listen stream. Everything else is
/// answered as plain JSON, which costs the client least.
fn streams_progress(method: &str, params: &Params) -> bool {
    method == "subscriptions/listen" || (method == "tools/call" && progress_token(params).is_some())
}

fn progress_token(params: &Params) -> Option<Value> {
    let Params::Object(params) = params else { return None };
    params.get("_meta")?.get("progressToken").filter(|t| t.is_string() || t.is_number()).cloned()
}

/// Does `Accept` allow `kind`? No header at all allows anything.
fn accepts(headers: &HeaderMap, kind: &str) -> bool {
    let Some(accept) = header_text(headers, header::ACCEPT) else { return true };
    accept
        .split(',')
        .map(|part| part.split(';').next().unwrap_or("").trim())
        .any(|range| range == kind || range == "*/*")
}

fn header_text(headers: &HeaderMap, name: impl header::AsHeaderName) -> Option<&str> {
    headers.get(name).and_then(|value| value.to_str().ok())
}
