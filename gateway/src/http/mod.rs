//! `--transport http`: MCP Streamable HTTP (protocol 2025-11-25) at `/mcp`,
//! on axum/hyper in the gateway's one-threaded runtime. Every HTTP session
//! is an ordinary [`crate::session`] on an in-memory connection, so they all
//! share the one worker, its reloads and its warm state, as control-socket
//! sessions do; a relay (`relay::Relay`) routes each session's messages to the
//! HTTP response waiting for them.

mod endpoint;
mod guard;
mod relay;
mod reply;
mod sessions;
mod sse;

use std::future::IntoFuture;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use tokio_util::sync::CancellationToken;

use crate::gateway::Gateway;
use crate::options::EXIT_USAGE;
use guard::Guard;
use sessions::Sessions;

/// The MCP endpoint's path.
pub const PATH: &str = "/mcp";

/// After a termination signal, calls in flight get this long to finish.
const SHUTDOWN_GRACE: Duration = Duration::from_millis(800);

#[derive(Args, Debug, Clone)]
pub struct HttpOptions {
    /// With --transport http: the address to listen on. A non-loopback
    /// address is refused unless --auth-token-file is given
    #[arg(long, value_name = "ADDRESS", default_value = "127.0.0.1", global = true)]
    pub host: String,
    /// With --transport http: the TCP port (0 picks a free one; the address
    /// is printed on stderr)
    #[arg(long, value_name = "N", default_value_t = 8765, global = true)]
    pub port: u16,
    /// With --transport http: every request must carry
    /// `Authorization: Bearer <the token in this file>`
    #[arg(long, value_name = "FILE", global = true)]
    pub auth_token_file: Option<PathBuf>,
    // The text is `--help`'s, where a bare URL reads as it should.
    #[allow(rustdoc::bare_urls)]
    /// With --transport http: also accept requests whose Origin is this
    /// (e.g. https://app.example.com); loopback origins are always accepted
    /// (repeatable)
    #[arg(long, value_name = "ORIGIN", global = true)]
    pub allow_origin: Vec<String>,
    /// With --transport http: end a session after this many seconds without
    /// requests or open streams
    #[arg(long, value_name = "SECONDS", default_value_t = 1800.0, global = true)]
    pub session_idle_timeout: f64,
    /// With --transport http: the most sessions open at once; `initialize`
    /// beyond it gets 503
    #[arg(long, value_name = "N", default_value_t = 1000, global = true)]
    pub max_sessions: usize,
}

/// What every request handler shares.
pub(crate) struct Endpoint {
    gateway: Arc<Gateway>,
    sessions: Sessions,
    guard: Guard,
    /// Cancelled on a termination signal: standalone streams end.
    stopping: CancellationToken,
    /// Cancelled when the shutdown grace is over: request streams end.
    abandon: CancellationToken,
}

/// A checked configuration and its bound socket: made before the worker
/// starts, so a refused flag is a one-line start-up error.
pub struct Listening {
    listener: tokio::net::TcpListener,
    sessions: Sessions,
    guard: Guard,
    /// `--control`: more sessions from local terminals, beside HTTP ones.
    control: Option<(tokio::net::UnixListener, crate::control::ControlSocket)>,
}

/// Checks the HTTP flags and binds the socket.
pub async fn listen(options: &HttpOptions, control: Option<&std::path::Path>) -> Result<Listening, String> {
    let idle = options.session_idle_timeout;
    if !(idle.is_finite() && idle > 0.0) {
        return Err(format!("--session-idle-timeout {idle}: must be a positive number of seconds"));
    }
    if options.max_sessions == 0 {
        return Err("--max-sessions must be at least 1".into());
    }
    let address = resolve(&options.host, options.port).await?;
    let token = match &options.auth_token_file {
        Some(file) => Some(guard::read_token(file)?),
        None if !address.ip().is_loopback() => {
            return Err(format!(
                "--host {}: a non-loopback address needs --auth-token-file (clients then send `Authorization: Bearer <token>`)",
                options.host
            ))
        }
        None => None,
    };
    let guard = Guard::new(token, &options.allow_origin, &options.host)?;
    let listener =
        tokio::net::TcpListener::bind(address).await.map_err(|e| format!("cannot listen on {address}: {e}"))?;
    let control = control.map(crate::control::bind).transpose()?;
    let sessions = Sessions::new(options.max_sessions, Duration::from_secs_f64(idle));
    Ok(Listening { listener, sessions, guard, control })
}

/// Serves MCP over HTTP until SIGTERM/SIGINT/SIGHUP, then stops the worker.
/// Returns the exit code.
pub async fn serve(gateway: Arc<Gateway>, listening: Listening) -> i32 {
    let code = match run(gateway.clone(), listening).await {
        Ok(()) => 0,
        Err(problem) => {
            eprintln!("rigor-mcp: {problem}");
            EXIT_USAGE
        }
    };
    gateway.supervisor.shutdown().await;
    code
}

async fn run(gateway: Arc<Gateway>, listening: Listening) -> Result<(), String> {
    let Listening { listener, sessions, guard, control } = listening;
    let bound = listener.local_addr().map_err(|e| format!("cannot read the bound address: {e}"))?;
    // Control-socket sessions share the worker with HTTP ones, as on stdio.
    let _socket_file = control.map(|(control, socket_file)| {
        tracing::info!("accepting sessions on the control socket");
        tokio::spawn(crate::control::accept(control, gateway.clone()));
        socket_file
    });
    let endpoint = Arc::new(Endpoint {
        gateway,
        sessions,
        guard,
        stopping: CancellationToken::new(),
        abandon: CancellationToken::new(),
    });
    let sweeper = tokio::spawn(sessions::expire_idle(endpoint.clone()));
    // Read by people and by tests that pass --port 0.
    eprintln!("rigor-mcp: serving MCP at http://{bound}{PATH}");
    tracing::info!("serving MCP Streamable HTTP at http://{bound}{PATH}");

    let stopping = endpoint.stopping.clone();
    // Answers are small and awaited: send each at once, not after Nagle's delay.
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
        let _ = tcp.set_nodelay(true);
    });
    let server = axum::serve(listener, endpoint::router(endpoint.clone()))
        .with_graceful_shutdown(async move {
            let signal = crate::server::termination_signal().await;
            tracing::info!("received {signal}; finishing calls in flight, then shutting down");
            stopping.cancel();
        })
        .into_future();
    let mut server = std::pin::pin!(server);
    tokio::select! {
        result = &mut server => result.map_err(|e| format!("HTTP server failed: {e}"))?,
        () = endpoint.stopping.cancelled() => {
            // Stop accepting (done by the graceful shutdown), let calls in
            // flight finish, then end whatever streams remain.
            endpoint.sessions.close_all();
            if tokio::time::timeout(SHUTDOWN_GRACE, &mut server).await.is_err() {
                endpoint.abandon.cancel();
                let _ = tokio::time::timeout(Duration::from_millis(200), &mut server).await;
            }
        }
    }
    sweeper.abort();
    Ok(())
}

/// `--host` and `--port` as a socket address (`localhost` is 127.0.0.1).
async fn resolve(host: &str, port: u16) -> Result<SocketAddr, String> {
    if host.eq_ignore_ascii_case("localhost") {
        return Ok(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port));
    }
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    if let Ok(ip) = bare.parse::<IpAddr>() {
        return Ok(SocketAddr::new(ip, port));
    }
    tokio::net::lookup_host((host, port))
        .await
        .map_err(|e| format!("--host {host}: {e}"))?
        .next()
        .ok_or_else(|| format!("--host {host}: no address"))
}
