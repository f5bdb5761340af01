//! Who may talk to the endpoint: DNS-rebinding protection (the `Host` and
//! `Origin` headers must name loopback, the configured host or an allowed
//! origin; else 403) and, with `--auth-token-file`, a bearer token (else 401).

use std::path::Path;

use axum::http::{header, HeaderMap, StatusCode};
use axum::response::Response;

use super::reply;

pub struct Guard {
    token: Option<String>,
    /// `scheme://host[:port]`, lowercased, without a trailing slash.
    origins: Vec<String>,
    /// Host names (without port) that `Host` may carry besides loopback.
    hosts: Vec<String>,
}

/// Reads the token: the file's first line, trimmed; it must not be empty.
pub fn read_token(file: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("--auth-token-file {}: {e}", file.display()))?;
    let token = text.lines().next().unwrap_or("").trim().to_string();
    if token.is_empty() {
        return Err(format!(
            "--auth-token-file {}: the file is empty; put the token on its first line",
            file.display()
        ));
    }
    Ok(token)
}

impl Guard {
    pub fn new(token: Option<String>, allow_origin: &[String], bind_host: &str) -> Result<Guard, String> {
        let mut origins = Vec::new();
        let mut hosts = vec![bind_host.to_ascii_lowercase()];
        for origin in allow_origin {
            let normal = origin.trim_end_matches('/').to_ascii_lowercase();
            let host = origin_host(&normal).ok_or_else(|| {
                format!("--allow-origin {origin}: expected scheme://host[:port], e.g. https://app.example.com")
            })?;
            hosts.push(host.to_string());
            origins.push(normal);
        }
        Ok(Guard { token, origins, hosts })
    }

    /// `Ok` when the request may proceed; otherwise the refusal to send.
    #[allow(clippy::result_large_err)]
    pub fn check(&self, headers: &HeaderMap) -> Result<(), Response> {
        // With a token, a rebinding page cannot authenticate anyway, and
        // clients of a non-loopback bind name it in many ways.
        let host = headers.get(header::HOST).filter(|_| self.token.is_none());
        if let Some(host) = host {
            let host = host.to_str().unwrap_or("").to_ascii_lowercase();
            let name = strip_port(&host);
            if !is_loopback_name(name) && !self.hosts.iter().any(|h| h == name) {
                return Err(reply::refusal(
                    StatusCode::FORBIDDEN,
                    format!("Host {host:?} is not allowed (DNS-rebinding protection): use a loopback address"),
                ));
            }
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("").trim_end_matches('/').to_ascii_lowercase();
            let loopback = origin_host(&origin).is_some_and(is_loopback_name);
            if !loopback && !self.origins.contains(&origin) {
                return Err(reply::refusal(
                    StatusCode::FORBIDDEN,
                    format!("Origin {origin:?} is not allowed (DNS-rebinding protection); start rigor-mcp with --allow-origin {origin} to accept it"),
                ));
            }
        }
        if let Some(token) = &self.token {
            let given = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).and_then(bearer);
            let problem = match given {
                None => "missing `Authorization: Bearer <token>` (this server was started with --auth-token-file)",
                Some(given) if !same(given.as_bytes(), token.as_bytes()) => "wrong bearer token",
                Some(_) => return Ok(()),
            };
            let mut refusal = reply::refusal(StatusCode::UNAUTHORIZED, problem.to_string());
            refusal.headers_mut().insert(header::WWW_AUTHENTICATE, "Bearer".parse().expect("header value"));
            return Err(refusal);
        }
        Ok(())
    }
}

fn bearer(value: &str) -> Option<&str> {
    let (scheme, token) = value.trim().split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

/// Compares in time that depends only on the lengths.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The host of `scheme://host[:port]`, if it has that shape.
fn origin_host(origin: &str) -> Option<&str> {
    let (scheme, rest) = origin.split_once("://")?;
    if scheme.is_empty() || rest.is_empty() || rest.contains('/') {
        return None;
    }
    Some(strip_port(rest))
}

fn strip_port(authority: &str) -> &str {
    if let Some(rest) = authority.strip_prefix('[') {
        // An IPv6 literal: keep the brackets' content.
        return rest.split(']').next().unwrap_or(rest);
    }
    authority.rsplit_once(':').map_or(authority, |(host, _)| host)
}

fn is_loopback_name(host: &str) -> bool {
    host == "localhost" || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        pairs.iter().map(|(k, v)| (k.clone(), v.parse().unwrap())).collect()
    }

    fn status(guard: &Guard, pairs: &[(header::HeaderName, &str)]) -> u16 {
        match guard.check(&headers(pairs)) {
            Ok(()) => 200,
            Err(response) => response.status().as_u16(),
        }
    }

    #[test]
    fn loopback_hosts_and_origins_pass_others_get_403() {
        let guard = Guard::new(None, &["https://app.example.com/".into()], "127.0.0.1").unwrap();
        for host in ["127.0.0.1:8765", "localhost:1", "[::1]:9", "localhost"] {
            assert_eq!(status(&guard, &[(header::HOST, host)]), 200, "{host}");
        }
        assert_eq!(status(&guard, &[(header::HOST, "evil.example.com")]), 403);
        assert_eq!(status(&guard, &[(header::ORIGIN, "http://localhost:3000")]), 200);
        assert_eq!(status(&guard, &[(header::ORIGIN, "https://app.example.com")]), 200);
        for origin in ["http://evil.example.com", "null", "http://127.0.0.1.evil.com", "https://app.example.com:444"] {
            assert_eq!(status(&guard, &[(header::ORIGIN, origin)]), 403, "{origin}");
        }
    }

    #[test]
    fn a_token_is_required_when_configured() {
        let guard = Guard::new(Some("s3cret".into()), &[], "0.0.0.0").unwrap();
        assert_eq!(status(&guard, &[]), 401);
        assert_eq!(status(&guard, &[(header::AUTHORIZATION, "Bearer nope")]), 401);
        assert_eq!(status(&guard, &[(header::AUTHORIZATION, "Basic s3cret")]), 401);
        assert_eq!(status(&guard, &[(header::AUTHORIZATION, "Bearer s3cret")]), 200);
        assert_eq!(status(&guard, &[(header::AUTHORIZATION, "bearer s3cret")]), 200);
    }

    #[test]
    fn malformed_allowed_origins_are_refused() {
        assert!(Guard::new(None, &["app.example.com".into()], "127.0.0.1").is_err());
        assert!(Guard::new(None, &["https://a.com/path".into()], "127.0.0.1").is_err());
    }
}
