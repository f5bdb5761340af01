//! Who in a session hears about changes: a handshake-era client (once
//! initialized) gets `notifications/tools/list_changed` and, at its chosen
//! level, gateway events as `notifications/message`; a 2026-07-28 client
//! gets list changes only on the `subscriptions/listen` streams it opened.

use std::sync::{Arc, Mutex};

use serde_json::{json, Value};

use super::era::{self, SUBSCRIPTION_ID_KEY};
use crate::events::LogLevel;
use crate::gateway::Gateway;
use crate::mcp::connection::Outbox;
use crate::mcp::jsonrpc::{self, RequestId};
use crate::supervisor::CatalogueState;

pub struct Audience {
    pub handshake_ready: bool,
    /// Gateway events at or above this level are forwarded (handshake era).
    pub log_level: LogLevel,
    /// Open `subscriptions/listen` requests that asked for tool list changes.
    pub listens: Vec<RequestId>,
}

impl Default for Audience {
    fn default() -> Self {
        // Until the client chooses, only what needs attention: crashes,
        // failed builds.
        Audience { handshake_ready: false, log_level: LogLevel::Warning, listens: Vec::new() }
    }
}

pub type SharedAudience = Arc<Mutex<Audience>>;

/// The final frame of a listen stream that ends gracefully.
pub fn listen_closed(id: &RequestId, server: &crate::identity::ServerIdentity) -> Value {
    let mut result = json!({"_meta": {SUBSCRIPTION_ID_KEY: id.to_value()}});
    era::decorate_modern(&mut result, false, server);
    result
}

/// Watches the catalogue and gateway events for the session's lifetime.
pub async fn announce(gateway: Arc<Gateway>, outbox: Outbox, audience: SharedAudience) {
    let mut updates = gateway.supervisor.watch_catalogue();
    let mut events = gateway.supervisor.subscribe_events();
    let listing = |state: &CatalogueState| match state {
        CatalogueState::Ready(catalogue) => Some(catalogue.listing()),
        CatalogueState::Unavailable(_) => Some(Vec::new()),
        CatalogueState::Starting => None,
    };
    let mut last = listing(&updates.borrow_and_update());
    loop {
        tokio::select! {
            changed = updates.changed() => {
                if changed.is_err() {
                    return;
                }
                let Some(current) = listing(&updates.borrow_and_update()) else { continue };
                if last.as_ref().is_some_and(|previous| *previous != current) {
                    for message in list_changed_messages(&audience) {
                        outbox.send(message).await;
                    }
                }
                last = Some(current);
            }
            event = events.recv() => {
                let event = match event {
                    Ok(event) => event,
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(_) => return,
                };
                let wanted = {
                    let audience = audience.lock().expect("audience");
                    audience.handshake_ready && event.level >= audience.log_level
                };
                if wanted {
                    let params = json!({"level": event.level.as_str(), "logger": "rigor-mcp", "data": event.message});
                    outbox.send(jsonrpc::notification("notifications/message", params)).await;
                }
            }
        }
    }
}

fn list_changed_messages(audience: &SharedAudience) -> Vec<Value> {
    let audience = audience.lock().expect("audience");
    let mut messages = Vec::new();
    if audience.handshake_ready {
        tracing::info!("tool catalogue changed; notifying the client");
        messages.push(jsonrpc::notification("notifications/tools/list_changed", json!({})));
    }
    for id in &audience.listens {
        let stamp = json!({"_meta": {SUBSCRIPTION_ID_KEY: id.to_value()}});
        messages.push(jsonrpc::notification("notifications/tools/list_changed", stamp));
    }
    messages
}
