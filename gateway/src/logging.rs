//! Logs go to stderr, never stdout: stdout carries MCP messages only.

use tracing_subscriber::EnvFilter;

/// `level` (from --log-level) beats RUST_LOG, which beats `default`.
pub fn init(level: Option<&str>, default: &str) -> Result<(), String> {
    let filter = match level {
        Some(level) => EnvFilter::try_new(level).map_err(|e| format!("--log-level {level}: {e}"))?,
        None => EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default)),
    };
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(ansi)
        .with_target(false)
        .init();
    Ok(())
}
