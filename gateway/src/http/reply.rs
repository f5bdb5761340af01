//! HTTP responses that carry JSON-RPC: answers, and refusals whose body is
//! a JSON-RPC error so that clients can show why.

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::mcp::jsonrpc::{self, ErrorCode, RequestId, RpcError};

/// A JSON body (one JSON-RPC message) with this status.
pub fn json(status: StatusCode, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// An error answer to `id` (null when unknown) with this status.
pub fn error(status: StatusCode, id: Option<&RequestId>, code: ErrorCode, message: String) -> Response {
    json(status, jsonrpc::error_response(id, &RpcError::new(code, message)).to_string())
}

/// A request refused before it reached a session (403, 401, 404…).
pub fn refusal(status: StatusCode, message: String) -> Response {
    error(status, None, ErrorCode::InvalidRequest, message)
}

pub fn accepted() -> Response {
    StatusCode::ACCEPTED.into_response()
}
