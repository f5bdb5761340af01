//! Requests being answered, each with the token that cancels it. An id may
//! not be reused while in flight; a cancelled request gets no answer.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio_util::sync::CancellationToken;

use crate::mcp::jsonrpc::RequestId;

#[derive(Clone, Default)]
pub struct InFlight(Arc<Mutex<HashMap<RequestId, CancellationToken>>>);

impl InFlight {
    /// Registers a request; `None` when its id is already in flight.
    pub fn begin(&self, id: &RequestId) -> Option<CancellationToken> {
        let mut requests = self.0.lock().expect("in-flight map");
        if requests.contains_key(id) {
            return None;
        }
        let token = CancellationToken::new();
        requests.insert(id.clone(), token.clone());
        Some(token)
    }

    pub fn cancel(&self, id: &RequestId) -> bool {
        match self.0.lock().expect("in-flight map").get(id) {
            Some(token) => {
                token.cancel();
                true
            }
            None => false,
        }
    }

    /// Ends a request; true when its answer should be sent.
    pub fn finish(&self, id: &RequestId) -> bool {
        self.0.lock().expect("in-flight map").remove(id).is_some_and(|token| !token.is_cancelled())
    }
}
