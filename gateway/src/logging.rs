//! Logs go to stderr, never stdout: stdout carries MCP messages only. On a
//! terminal (a person watching terminal A) they are short and coloured.

use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::time::FormatTime;
use tracing_subscriber::EnvFilter;

/// `HH:MM:SS.mmm` (UTC): enough to follow a session by eye.
struct ClockTime;

impl FormatTime for ClockTime {
    fn format_time(&self, w: &mut Writer<'_>) -> std::fmt::Result {
        write!(w, "{}", &crate::trace::timestamp()[11..23])
    }
}

/// `level` (from --log-level) beats RUST_LOG, which beats `default`.
pub fn init(level: Option<&str>, default: &str) -> Result<(), String> {
    let filter = match level {
        Some(level) => EnvFilter::try_new(level).map_err(|e| format!("--log-level {level}: {e}"))?,
        None => EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default)),
    };
    let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).with_target(false);
    if terminal {
        builder.with_ansi(true).with_timer(ClockTime).compact().init();
    } else {
        builder.with_ansi(false).init();
    }
    Ok(())
}
