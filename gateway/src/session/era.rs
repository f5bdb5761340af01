//! The two protocol eras a session can speak. The handshake era
//! (2024-11-05 … 2025-11-25) starts with `initialize`; in the stateless
//! 2026-07-28 era every request carries its protocol version and client
//! capabilities in `params._meta`. A connection's first request decides its
//! era, as the reference SDKs do; a later request from the other era is
//! refused with a clear error.

use serde_json::{json, Value};

use crate::identity::ServerIdentity;
use crate::mcp::jsonrpc::{kind_of, ErrorCode, Params, RpcError};

/// Handshake-era versions we speak, newest first.
pub const HANDSHAKE_VERSIONS: &[&str] = &["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
/// Stateless-era versions we speak.
pub const MODERN_VERSIONS: &[&str] = &["2026-07-28"];

pub const PROTOCOL_VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";
pub const CLIENT_CAPABILITIES_KEY: &str = "io.modelcontextprotocol/clientCapabilities";
pub const SERVER_INFO_KEY: &str = "io.modelcontextprotocol/serverInfo";
pub const SUBSCRIPTION_ID_KEY: &str = "io.modelcontextprotocol/subscriptionId";

#[derive(Debug, Clone, PartialEq)]
pub enum Era {
    /// No request yet (only `ping` and `server/discover` so far).
    Undecided,
    Handshake {
        version: String,
    },
    Modern,
}

/// The requested handshake version if we speak it, else our newest.
pub fn negotiate(requested: &str) -> &'static str {
    HANDSHAKE_VERSIONS.iter().find(|v| **v == requested).copied().unwrap_or(HANDSHAKE_VERSIONS[0])
}

fn meta(params: &Params) -> Option<&Value> {
    match params {
        Params::Object(object) => object.get("_meta"),
        _ => None,
    }
}

/// Does this request carry a 2026-07-28 envelope (a protocol version in `_meta`)?
pub fn has_envelope(params: &Params) -> bool {
    meta(params).and_then(|m| m.get(PROTOCOL_VERSION_KEY)).is_some()
}

/// Checks a stateless-era request's envelope: both keys present, and a
/// version we serve (else -32022 naming what we support).
pub fn check_envelope(params: &Params) -> Result<(), RpcError> {
    let meta = meta(params).and_then(Value::as_object).ok_or_else(|| {
        RpcError::new(
            ErrorCode::InvalidParams,
            format!("params._meta must be an object carrying {PROTOCOL_VERSION_KEY:?} and {CLIENT_CAPABILITIES_KEY:?} (2026-07-28 requests carry their protocol version)"),
        )
    })?;
    let missing: Vec<&str> =
        [PROTOCOL_VERSION_KEY, CLIENT_CAPABILITIES_KEY].into_iter().filter(|k| !meta.contains_key(*k)).collect();
    if !missing.is_empty() {
        return Err(RpcError::new(
            ErrorCode::InvalidParams,
            format!("params._meta is missing the required key(s): {}", missing.join(", ")),
        ));
    }
    match &meta[PROTOCOL_VERSION_KEY] {
        Value::String(version) if MODERN_VERSIONS.contains(&version.as_str()) => Ok(()),
        Value::String(version) => Err(unsupported_version(version)),
        other => Err(RpcError::new(
            ErrorCode::InvalidParams,
            format!("{PROTOCOL_VERSION_KEY} must be a string, not {}", kind_of(other)),
        )),
    }
}

pub fn unsupported_version(requested: &str) -> RpcError {
    RpcError::new(
        ErrorCode::UnsupportedProtocolVersion,
        format!(
            "unsupported protocol version {requested:?}; this server speaks {} per request, or {} through initialize",
            MODERN_VERSIONS.join(", "),
            HANDSHAKE_VERSIONS.join(", ")
        ),
    )
    .with_data(json!({"supported": MODERN_VERSIONS, "requested": requested}))
}

/// Stateless-era result fields: `resultType`, the server's identity in
/// `_meta`, and for cacheable results (lists, discover) caching directives.
pub fn decorate_modern(result: &mut Value, cacheable: bool, server: &ServerIdentity) {
    let Some(object) = result.as_object_mut() else { return };
    object.insert("resultType".into(), json!("complete"));
    if cacheable {
        // The catalogue changes on reload: never cache it.
        object.insert("ttlMs".into(), json!(0));
        object.insert("cacheScope".into(), json!("private"));
    }
    let meta = object.entry("_meta").or_insert_with(|| json!({}));
    if let Some(meta) = meta.as_object_mut() {
        meta.insert(SERVER_INFO_KEY.into(), server.server_info());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Map;

    fn params(value: Value) -> Params {
        match value {
            Value::Object(map) => Params::Object(map),
            other => Params::Other(other),
        }
    }

    #[test]
    fn negotiation_echoes_supported_versions_and_offers_the_newest_otherwise() {
        for version in HANDSHAKE_VERSIONS {
            assert_eq!(negotiate(version), *version);
        }
        assert_eq!(negotiate("1999-01-01"), "2025-11-25");
        assert_eq!(negotiate("2026-07-28"), "2025-11-25");
    }

    #[test]
    fn envelopes_are_checked_in_order() {
        let good = params(json!({"_meta": {PROTOCOL_VERSION_KEY: "2026-07-28", CLIENT_CAPABILITIES_KEY: {}}}));
        assert!(has_envelope(&good));
        assert_eq!(check_envelope(&good), Ok(()));
        assert!(!has_envelope(&Params::Object(Map::new())));
        let cases = [
            (json!({}), -32602),
            (json!({"_meta": 3}), -32602),
            (json!({"_meta": {PROTOCOL_VERSION_KEY: "2026-07-28"}}), -32602),
            (json!({"_meta": {PROTOCOL_VERSION_KEY: 5, CLIENT_CAPABILITIES_KEY: {}}}), -32602),
            (json!({"_meta": {PROTOCOL_VERSION_KEY: "2031-01-01", CLIENT_CAPABILITIES_KEY: {}}}), -32022),
        ];
        for (value, code) in cases {
            let error = check_envelope(&params(value.clone())).unwrap_err();
            assert_eq!(error.code.code(), code, "{value}");
        }
        let unsupported = check_envelope(&params(
            json!({"_meta": {PROTOCOL_VERSION_KEY: "2031-01-01", CLIENT_CAPABILITIES_KEY: {}}}),
        ))
        .unwrap_err();
        assert_eq!(unsupported.data, Some(json!({"supported": ["2026-07-28"], "requested": "2031-01-01"})));
    }

    #[test]
    fn modern_results_carry_result_type_server_info_and_cache_directives() {
        let mut result = json!({"tools": [], "_meta": {"rigor/worker": {"pid": 1}}});
        decorate_modern(&mut result, true, &ServerIdentity::default());
        assert_eq!(result["resultType"], json!("complete"));
        assert_eq!(result["ttlMs"], json!(0));
        assert_eq!(result["cacheScope"], json!("private"));
        assert_eq!(result["_meta"]["rigor/worker"]["pid"], json!(1));
        assert_eq!(result["_meta"][SERVER_INFO_KEY]["name"], json!("rigor-mcp"));
        let mut call = json!({"content": []});
        decorate_modern(&mut call, false, &ServerIdentity::default());
        assert!(call.get("ttlMs").is_none());
    }
}
