//! Wiring: options → supervisor → session over stdio (or in memory).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::argv::SessionDefaults;
use crate::control;
use crate::gateway::Gateway;
use crate::mcp::connection::Connection;

use crate::options::ServerOptions;
use crate::reload::{dev, BuildCommand, ReloadConfig};
use crate::session;
use crate::supervisor::{SupervisorConfig, SupervisorHandle, WorkerEnvironment};

const HELLO_TIMEOUT: Duration = Duration::from_secs(20);

/// Checks the options and starts the supervisor (and so the worker).
/// `serving`: a server for clients that come and go (not a one-shot
/// `call` or `tools`), whose workers are warmed up unless `--no-warm-up`.
pub fn start_gateway(options: &ServerOptions, serving: bool) -> Result<Arc<Gateway>, String> {
    let cwd = std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
    let root = match &options.root {
        Some(root) => std::fs::canonicalize(cwd.join(root)).map_err(|e| format!("--root {}: {e}", root.display()))?,
        None => cwd.clone(),
    };
    if !root.is_dir() {
        return Err(format!("--root {}: not a directory", root.display()));
    }
    let mut session_defaults = SessionDefaults::new();
    if let Some(config) = &options.config {
        let absolute: PathBuf = cwd.join(config);
        if !absolute.is_file() {
            return Err(format!("--config {}: no such file", config.display()));
        }
        session_defaults.insert("config".into(), absolute.to_string_lossy().into_owned());
    }
    for (flag, seconds) in [("--call-timeout", options.call_timeout), ("--build-timeout", options.build_timeout)] {
        if !(seconds.is_finite() && seconds > 0.0) {
            return Err(format!("{flag} {seconds}: must be a positive number of seconds"));
        }
    }
    let (engine, reload) = reload_setup(options, &cwd, &root)?;
    let supervisor = SupervisorHandle::spawn(SupervisorConfig {
        engine,
        root: root.clone(),
        hello_timeout: HELLO_TIMEOUT,
        call_timeout: Duration::from_secs_f64(options.call_timeout),
        environment: WorkerEnvironment { pass: options.pass_env.clone() },
        reload,
        warm_up: (serving && !options.no_warm_up).then(|| session_defaults.clone()),
    });
    if options.tools_page_size == 0 {
        return Err("--tools-page-size must be at least 1".into());
    }
    if let Some(path) = &options.trace {
        crate::trace::init(&cwd.join(path))?;
    }
    Ok(Arc::new(Gateway {
        supervisor,
        root,
        session_defaults,
        max_line_bytes: options.max_line_bytes,
        page_size: options.tools_page_size,
    }))
}

/// The engine to run and what reloads it: `--dev`, `--watch`/`--build`,
/// or by default just the engine executable; nothing with `--no-reload`.
fn reload_setup(
    options: &ServerOptions,
    cwd: &Path,
    root: &Path,
) -> Result<(Option<PathBuf>, Option<ReloadConfig>), String> {
    if options.no_reload {
        return Ok((options.engine.clone(), None));
    }
    let build_timeout = Duration::from_secs_f64(options.build_timeout);
    if options.dev {
        let setup = dev::resolve(cwd, build_timeout)?;
        tracing::info!(repository = %setup.repository.display(), engine = %setup.engine.display(), "--dev: watching the engine's sources");
        return Ok((Some(setup.engine), Some(setup.reload)));
    }
    let mut watch = Vec::new();
    for path in &options.watch {
        let absolute = cwd.join(path);
        if !absolute.exists() {
            return Err(format!("--watch {}: no such file or directory", path.display()));
        }
        watch.push(absolute);
    }
    let build = options.build.as_ref().map(|shell| BuildCommand {
        shell: shell.clone(),
        directory: root.to_path_buf(),
        timeout: build_timeout,
    });
    Ok((options.engine.clone(), Some(ReloadConfig { watch, build })))
}

/// Serves MCP on stdin/stdout until EOF or a termination signal, then stops
/// the worker. Returns the exit code.
pub async fn serve_stdio(gateway: Arc<Gateway>, control: Option<&Path>) -> i32 {
    // Bound before serving, so a refused socket is a start-up error.
    let control = match control.map(control::bind).transpose() {
        Ok(control) => control,
        Err(problem) => {
            eprintln!("rigor-mcp: {problem}");
            return crate::options::EXIT_USAGE;
        }
    };
    let _socket_file = control.map(|(listener, guard)| {
        tracing::info!("accepting sessions on the control socket");
        tokio::spawn(control::accept(listener, gateway.clone()));
        guard
    });
    let (connection, writer) = Connection::stdio(gateway.max_line_bytes);
    let session = tokio::spawn(session::serve(connection, gateway.clone()));
    tokio::select! {
        _ = session => tracing::debug!("session ended"),
        signal = termination_signal() => tracing::info!("received {signal}; shutting down"),
    }
    gateway.supervisor.shutdown().await;
    // Everything queued for the client is written before we exit.
    writer.finish(Duration::from_millis(500)).await;
    0
}

pub(crate) async fn termination_signal() -> &'static str {
    use tokio::signal::unix::{signal, SignalKind};
    let mut term = signal(SignalKind::terminate()).expect("SIGTERM handler");
    let mut int = signal(SignalKind::interrupt()).expect("SIGINT handler");
    let mut hup = signal(SignalKind::hangup()).expect("SIGHUP handler");
    tokio::select! {
        _ = term.recv() => "SIGTERM",
        _ = int.recv() => "SIGINT",
        _ = hup.recv() => "SIGHUP",
    }
}
