//! The open HTTP sessions by `Mcp-Session-Id`: random 128-bit ids, a cap on
//! how many may be open, and expiry of idle ones.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::relay::Relay;
use super::Endpoint;
use crate::gateway::Gateway;

pub struct Sessions {
    open: Mutex<HashMap<String, Arc<Relay>>>,
    cap: usize,
    idle: Duration,
    /// Numbers sessions for logs (`http-1`, `http-2`…).
    count: AtomicU64,
}

/// The cap is reached.
#[derive(Debug)]
pub struct Full(pub usize);

impl Sessions {
    pub fn new(cap: usize, idle: Duration) -> Sessions {
        Sessions { open: Mutex::new(HashMap::new()), cap, idle, count: AtomicU64::new(0) }
    }

    /// A session not yet registered: it gets an id once `initialize` succeeds.
    pub fn start(&self, gateway: Arc<Gateway>) -> Result<Arc<Relay>, Full> {
        if self.open.lock().expect("sessions").len() >= self.cap {
            return Err(Full(self.cap));
        }
        Ok(Relay::open(gateway, self.name("http")))
    }

    /// A one-request session for a 2026-07-28 (stateless) request.
    pub fn stateless(&self, gateway: Arc<Gateway>) -> Arc<Relay> {
        Relay::open(gateway, self.name("http-stateless"))
    }

    fn name(&self, prefix: &str) -> String {
        format!("{prefix}-{}", self.count.fetch_add(1, Ordering::Relaxed) + 1)
    }

    /// Registers an initialized session and returns its new id.
    pub fn register(&self, relay: Arc<Relay>) -> String {
        let id = new_id();
        tracing::info!(session = %relay.name(), "HTTP session opened");
        self.open.lock().expect("sessions").insert(id.clone(), relay);
        id
    }

    pub fn get(&self, id: &str) -> Option<Arc<Relay>> {
        let relay = self.open.lock().expect("sessions").get(id).cloned()?;
        relay.touch();
        Some(relay)
    }

    /// Ends a session (DELETE); false when the id is unknown.
    pub fn end(&self, id: &str) -> bool {
        let Some(relay) = self.open.lock().expect("sessions").remove(id) else { return false };
        tracing::info!(session = %relay.name(), "HTTP session ended by the client");
        relay.close();
        true
    }

    pub fn close_all(&self) {
        for (_, relay) in self.open.lock().expect("sessions").drain() {
            relay.close();
        }
    }

    fn expire(&self) {
        self.open.lock().expect("sessions").retain(|_, relay| {
            let idle = relay.idle_for(self.idle);
            if idle {
                tracing::info!(session = %relay.name(), "HTTP session expired after {:?} idle", self.idle);
                relay.close();
            }
            !idle
        });
    }
}

/// Sweeps idle sessions away for the endpoint's lifetime.
pub async fn expire_idle(endpoint: Arc<Endpoint>) {
    let period = (endpoint.sessions.idle / 4).clamp(Duration::from_millis(50), Duration::from_secs(30));
    loop {
        tokio::time::sleep(period).await;
        endpoint.sessions.expire();
    }
}

/// 128 random bits from the OS, as 32 hex digits (visible ASCII, as the
/// spec requires of session ids).
fn new_id() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the OS random source");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn ids_are_32_hex_digits_and_differ() {
        let (a, b) = (super::new_id(), super::new_id());
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }
}
