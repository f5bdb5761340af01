//! `--control PATH`: a local Unix socket on which a running gateway accepts
//! more MCP sessions (terminal B attaching to terminal A). Every session
//! shares the one worker and its reloads; ids are per session; change
//! notifications reach every session.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tokio::net::UnixListener;

use crate::gateway::Gateway;
use crate::mcp::connection::Connection;
use crate::session;

/// The socket file, removed when this is dropped.
pub struct ControlSocket {
    path: PathBuf,
}

impl Drop for ControlSocket {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Binds `path` (mode 0600). Refuses if another gateway is listening
/// there; removes a stale socket left by one that died.
pub fn bind(path: &Path) -> Result<(UnixListener, ControlSocket), String> {
    if path.exists() {
        if std::os::unix::net::UnixStream::connect(path).is_ok() {
            return Err(format!("--control {}: another gateway is listening there", path.display()));
        }
        let is_socket = std::fs::symlink_metadata(path)
            .map(|m| std::os::unix::fs::FileTypeExt::is_socket(&m.file_type()))
            .unwrap_or(false);
        if !is_socket {
            return Err(format!("--control {}: exists and is not a socket; refusing to replace it", path.display()));
        }
        std::fs::remove_file(path)
            .map_err(|e| format!("--control {}: cannot remove the stale socket: {e}", path.display()))?;
    }
    let listener = UnixListener::bind(path).map_err(|e| format!("--control {}: {e}", path.display()))?;
    let guard = ControlSocket { path: path.to_path_buf() };
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
        .map_err(|e| format!("--control {}: {e}", path.display()))?;
    Ok((listener, guard))
}

/// Accepts sessions until the gateway stops.
pub async fn accept(listener: UnixListener, gateway: Arc<Gateway>) {
    let mut count = 0u64;
    loop {
        match listener.accept().await {
            Ok((stream, _)) => {
                count += 1;
                let name = format!("control-{count}");
                tracing::info!(session = %name, "attached through the control socket");
                let connection = Connection::socket(stream, gateway.max_line_bytes, &name);
                let gateway = gateway.clone();
                tokio::spawn(async move {
                    session::serve(connection, gateway).await;
                    tracing::info!(session = %name, "detached");
                });
            }
            Err(error) => {
                tracing::warn!("control socket: {error}");
                return;
            }
        }
    }
}
