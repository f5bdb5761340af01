//! `--trace FILE`: every message in and out of every session, and every
//! worker request and response, appended as JSON lines with a timestamp,
//! direction and session. `rigor-mcp trace FILE` prints them readably.

use std::fs::File;
use std::io::Write;
use std::sync::{Mutex, OnceLock};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};

static TRACE: OnceLock<Mutex<File>> = OnceLock::new();

/// Starts tracing to `path` (appending). Only the first call has an effect.
pub fn init(path: &std::path::Path) -> Result<(), String> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("--trace {}: {e}", path.display()))?;
    let _ = TRACE.set(Mutex::new(file));
    Ok(())
}

fn record(direction: &str, session: &str, message: Value) {
    let Some(file) = TRACE.get() else { return };
    let mut line = json!({"ts": timestamp(), "dir": direction, "session": session, "message": message}).to_string();
    line.push('\n');
    // One write per record, so readers following the file see whole lines.
    let _ = file.lock().unwrap_or_else(|e| e.into_inner()).write_all(line.as_bytes());
}

pub fn enabled() -> bool {
    TRACE.get().is_some()
}

/// A client message as it arrived (kept as text when it is not JSON).
pub fn incoming_bytes(session: &str, bytes: &[u8]) {
    if enabled() {
        let message = serde_json::from_slice(bytes)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(bytes).into_owned()));
        record("in", session, message);
    }
}

pub fn incoming(session: &str, message: &Value) {
    if enabled() {
        record("in", session, message.clone());
    }
}

pub fn outgoing(session: &str, message: &Value) {
    if enabled() {
        record("out", session, message.clone());
    }
}

pub fn to_worker(pid: u32, message: &Value) {
    if enabled() {
        record("to-worker", &format!("worker-{pid}"), message.clone());
    }
}

pub fn from_worker(pid: u32, message: &Value) {
    if enabled() {
        record("from-worker", &format!("worker-{pid}"), message.clone());
    }
}

/// `2026-11-30T06:12:01.123Z`, without a date library.
pub fn timestamp() -> String {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    let seconds = now.as_secs();
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    let (year, month, day) = civil_from_days(days as i64);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60,
        now.subsec_millis()
    )
}

/// Days since 1970-01-01 to (year, month, day): Howard Hinnant's algorithm.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates_are_right() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(20_787), (2026, 11, 30));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }
}
