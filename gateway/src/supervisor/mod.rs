//! Supervision of the one engine worker. An actor task owns the worker
//! process; callers talk to it through a control queue and watch the
//! catalogue it publishes. The worker's state is an explicit enum.

mod backoff;
mod environment;
mod freshness;
mod locate;
pub mod process;

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{broadcast, mpsc, oneshot, watch};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use crate::argv::SessionDefaults;
use crate::catalogue::{Catalogue, EngineInfo};
use crate::events::{GatewayEvent, LogLevel};
use crate::identity::{ServerIdentity, DEFAULT_ENV_PREFIX};

use crate::reload::{watcher, ReloadConfig};
use backoff::Backoff;
use freshness::{CodeState, Freshness, Verdict};
use process::{Hello, Reply, SpawnSpec, WorkerProcess};

pub use environment::WorkerEnvironment;
pub use locate::locate;

#[derive(Debug, Clone)]
pub struct SupervisorConfig {
    /// `--engine`, if given.
    pub engine: Option<PathBuf>,
    /// The worker's working directory.
    pub root: PathBuf,
    pub hello_timeout: Duration,
    /// Deadline of one call unless its tool says otherwise.
    pub call_timeout: Duration,
    pub environment: WorkerEnvironment,
    /// Watched paths and build; `None` is `--no-reload` (not even the
    /// engine executable is tracked).
    pub reload: Option<ReloadConfig>,
    /// Warm new workers up (see `Supervisor::warm_up`), synthesising the
    /// warm-up call with these session defaults; `None`: never.
    pub warm_up: Option<SessionDefaults>,
}

/// Why a call produced no result from the engine.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CallFailure {
    #[error("the engine is not available: {0}")]
    Unavailable(String),
    #[error("{0}")]
    WorkerDied(String),
    /// The worker was gone before it read the request; the call is retried
    /// once on a fresh worker, and reported only if that fails too.
    #[error("{0}")]
    NotDelivered(String),
    #[error("the engine worker broke the protocol: {0}")]
    Protocol(String),
    #[error("the engine worker rejected the request: {0}")]
    Rejected(String),
    #[error("timed out after {0} s; the engine worker was stopped and a fresh one started")]
    TimedOut(String),
    #[error("cancelled by the client")]
    Cancelled,
    #[error("the gateway is shutting down")]
    ShuttingDown,
}

impl CallFailure {
    /// Whether the worker that produced this failure can keep serving.
    fn leaves_worker_usable(&self) -> bool {
        matches!(self, CallFailure::Rejected(_) | CallFailure::Unavailable(_) | CallFailure::ShuttingDown)
    }
}

/// A finished call and the worker that ran it.
#[derive(Debug, Clone)]
pub struct CallOutcome {
    pub reply: Reply,
    pub worker_pid: u32,
    pub engine: EngineInfo,
    /// Said with every answer while the code served is not the latest.
    pub notice: Option<String>,
    /// Set on the first answer after a reload: how long it took.
    pub reload: Option<ReloadTiming>,
}

/// The cost of one reload, as the first answer from the new code reports it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReloadTiming {
    pub build: Duration,
    /// Stopping the old worker, starting the new one, reading its hello.
    pub restart: Duration,
}

/// What the supervisor is busy with, for progress notifications.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Activity {
    Idle,
    Rebuilding,
    Restarting,
    /// Running a new worker's warm-up call: calls wait for it.
    WarmingUp,
}

/// What clients may currently be told about tools.
#[derive(Clone)]
pub enum CatalogueState {
    Starting,
    Ready(Arc<Catalogue>),
    Unavailable(Unavailable),
}

/// Why there is no worker, and when the next attempt is.
#[derive(Clone, Debug)]
pub struct Unavailable {
    pub reason: String,
    pub failures: u32,
    pub retry_at: Option<Instant>,
}

impl std::fmt::Display for Unavailable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.reason)?;
        if let Some(retry_at) = self.retry_at {
            let wait = retry_at.saturating_duration_since(Instant::now()).as_secs_f64();
            write!(f, " (failed {} time(s) in a row; the gateway tries again in {wait:.1} s)", self.failures)?;
        }
        Ok(())
    }
}

/// A call in the worker's queue.
pub struct PendingCall {
    answer: Option<oneshot::Receiver<Result<CallOutcome, CallFailure>>>,
}

impl PendingCall {
    pub async fn outcome(self) -> Result<CallOutcome, CallFailure> {
        match self.answer {
            Some(answer) => answer.await.unwrap_or(Err(CallFailure::ShuttingDown)),
            None => Err(CallFailure::ShuttingDown),
        }
    }
}

struct CallJob {
    argv: Vec<String>,
    cwd: PathBuf,
    timeout: Option<Duration>,
    /// Cancelled by the client: skip it if still queued, stop it if running.
    cancel: CancellationToken,
    /// The gateway's own warm-up, not a client's call.
    warm_up: bool,
    reply: oneshot::Sender<Result<CallOutcome, CallFailure>>,
}

enum Control {
    Call(CallJob),
    /// Bring the worker up to date with the code, then answer.
    Refresh(oneshot::Sender<()>),
    /// Watched files changed (a debounced burst).
    FilesChanged,
}

/// What woke the supervisor up.
enum Event {
    Control(Control),
    RetryStart,
    /// The idle worker died or broke the protocol.
    WorkerLost(String),
    Shutdown,
}

/// A worker that dies idle sooner than this after starting is restarted
/// with a growing delay, so an engine that cannot stay up does not spin.
const QUICK_DEATH: Duration = Duration::from_secs(2);

enum WorkerState {
    /// No worker; the next call starts one.
    Stopped,
    Running {
        process: Box<WorkerProcess>,
        hello: Box<Hello>,
        started: Instant,
    },
    /// Starting failed; calls fail fast until the retry time, when the
    /// supervisor tries again by itself.
    Failing(Unavailable),
}

#[derive(Clone)]
pub struct SupervisorHandle {
    control: mpsc::Sender<Control>,
    catalogue: watch::Receiver<CatalogueState>,
    activity: watch::Receiver<Activity>,
    shutdown: watch::Sender<bool>,
    finished: watch::Receiver<bool>,
    /// Calls submitted and not yet answered.
    queued: Arc<AtomicUsize>,
    events: broadcast::Sender<GatewayEvent>,
}

impl SupervisorHandle {
    /// Starts the supervisor and, at once, the worker.
    pub fn spawn(config: SupervisorConfig) -> SupervisorHandle {
        let (control_tx, control_rx) = mpsc::channel(64);
        let (catalogue_tx, catalogue_rx) = watch::channel(CatalogueState::Starting);
        let (activity_tx, activity_rx) = watch::channel(Activity::Idle);
        let (shutdown_tx, shutdown_rx) = watch::channel(false);
        let (finished_tx, finished_rx) = watch::channel(false);
        let mut freshness = Freshness::default();
        let mut watcher = None;
        if let Some(reload) = &config.reload {
            freshness.enabled = true;
            freshness.watch = reload.watch.clone();
            freshness.build = reload.build.clone();
            // Directories are watched recursively; files through their
            // parent, since saving by rename replaces the file's inode.
            let (directories, mut files): (Vec<PathBuf>, Vec<PathBuf>) =
                reload.watch.iter().cloned().partition(|p| p.is_dir());
            files.extend(locate(config.engine.as_deref()).ok());
            let (changed_tx, changed_rx) = mpsc::channel(4);
            let started = watcher::spawn(&directories, &files, changed_tx);
            freshness.last_event = Some(started.last_event.clone());
            watcher = Some(started);
            tokio::spawn(forward_file_changes(changed_rx, control_tx.clone()));
        }
        let queued = Arc::new(AtomicUsize::new(0));
        let (events, _) = broadcast::channel(64);
        let supervisor = Supervisor {
            queued: queued.clone(),
            events: events.clone(),
            config,
            state: WorkerState::Stopped,
            backoff: Backoff::default(),
            churn: Backoff::default(),
            restart_at: None,
            warm_pending: false,
            catalogue: catalogue_tx,
            activity: activity_tx,
            freshness,
            last_reload: None,
            engine_path: None,
            env_prefix: DEFAULT_ENV_PREFIX.to_string(),

            next_request: 0,
            deadline: Box::pin(tokio::time::sleep(Duration::ZERO)),
            _watcher: watcher,
        };
        tokio::spawn(async move {
            supervisor.run(control_rx, shutdown_rx).await;
            let _ = finished_tx.send(true);
        });
        SupervisorHandle {
            control: control_tx,
            catalogue: catalogue_rx,
            activity: activity_rx,
            shutdown: shutdown_tx,
            finished: finished_rx,
            queued,
            events,
        }
    }

    /// Reloads, restarts and build failures, as they happen.
    pub fn subscribe_events(&self) -> broadcast::Receiver<GatewayEvent> {
        self.events.subscribe()
    }

    /// Whether no call is queued or running.
    pub fn is_idle(&self) -> bool {
        self.queued.load(Ordering::SeqCst) == 0
    }

    /// Brings the worker up to date with the code (a rebuild, a restart)
    /// before the caller reads the catalogue.
    pub async fn refresh(&self) {
        let (done, wait) = oneshot::channel();
        if self.control.send(Control::Refresh(done)).await.is_ok() {
            let _ = wait.await;
        }
    }

    /// What the supervisor is doing (for progress notifications).
    pub fn watch_activity(&self) -> watch::Receiver<Activity> {
        self.activity.clone()
    }

    /// The catalogue once the worker has started (or failed to).
    pub async fn catalogue(&self) -> CatalogueState {
        let mut receiver = self.catalogue.clone();
        let settled = receiver.wait_for(|state| !matches!(state, CatalogueState::Starting)).await;
        match settled {
            Ok(state) => state.clone(),
            Err(_) => CatalogueState::Unavailable(Unavailable {
                reason: "the supervisor has stopped".into(),
                failures: 0,
                retry_at: None,
            }),
        }
    }

    /// Who the server is now: the running engine's identity, else the
    /// defaults (Rigor's).
    pub fn identity(&self) -> Arc<ServerIdentity> {
        match &*self.catalogue.borrow() {
            CatalogueState::Ready(catalogue) => catalogue.server.clone(),
            _ => Arc::new(ServerIdentity::default()),
        }
    }

    /// Catalogue updates, for announcing changes to clients.
    pub fn watch_catalogue(&self) -> watch::Receiver<CatalogueState> {
        self.catalogue.clone()
    }

    /// Queues `argv` for the worker; calls are served one at a time, in the
    /// order they were submitted. Await the returned call for its outcome.
    pub async fn submit(
        &self,
        argv: Vec<String>,
        cwd: PathBuf,
        timeout: Option<Duration>,
        cancel: CancellationToken,
    ) -> PendingCall {
        let (reply, answer) = oneshot::channel();
        let job = CallJob { argv, cwd, timeout, cancel, warm_up: false, reply };
        self.queued.fetch_add(1, Ordering::SeqCst);
        let queued = self.control.send(Control::Call(job)).await.is_ok();
        if !queued {
            self.queued.fetch_sub(1, Ordering::SeqCst);
        }
        PendingCall { answer: queued.then_some(answer) }
    }

    /// Submits and waits.
    pub async fn call(
        &self,
        argv: Vec<String>,
        cwd: PathBuf,
        timeout: Option<Duration>,
    ) -> Result<CallOutcome, CallFailure> {
        self.submit(argv, cwd, timeout, CancellationToken::new()).await.outcome().await
    }

    /// Stops the worker (a call in flight is abandoned) and waits until it is gone.
    pub async fn shutdown(&self) {
        let _ = self.shutdown.send(true);
        let mut finished = self.finished.clone();
        let _ = finished.wait_for(|done| *done).await;
    }
}

struct Supervisor {
    config: SupervisorConfig,
    state: WorkerState,
    backoff: Backoff,
    /// Delays restarts of workers that keep dying soon after starting.
    churn: Backoff,
    /// When a worker that died idle is started again (state `Stopped`).
    restart_at: Option<Instant>,
    /// The running worker was started fresh (the first start, or new code)
    /// and has not been warmed up yet. A worker started to replace one that
    /// failed is never warmed: if the warm-up is what kills it, it would
    /// otherwise be killed again and again.
    warm_pending: bool,
    catalogue: watch::Sender<CatalogueState>,
    activity: watch::Sender<Activity>,
    freshness: Freshness,
    /// The timing of a reload not yet reported to a caller.
    last_reload: Option<ReloadTiming>,
    /// The engine executable found at the last launch.
    engine_path: Option<PathBuf>,
    /// Variables with this prefix reach the worker: its hello says which.
    env_prefix: String,
    next_request: u64,
    /// The running call's deadline: one timer, moved later at each call, so
    /// arming it never has to wake the runtime's driver (a new, earlier
    /// timer would, with a syscall per call).
    deadline: std::pin::Pin<Box<tokio::time::Sleep>>,
    queued: Arc<AtomicUsize>,
    events: broadcast::Sender<GatewayEvent>,
    _watcher: Option<watcher::Watcher>,
}

impl Supervisor {
    /// Tells every session (that wants to hear it) what just happened.
    fn emit(&self, level: LogLevel, message: String) {
        let _ = self.events.send(GatewayEvent { level, message });
    }
}

async fn forward_file_changes(mut changed: mpsc::Receiver<()>, control: mpsc::Sender<Control>) {
    while changed.recv().await.is_some() {
        if control.send(Control::FilesChanged).await.is_err() {
            return;
        }
    }
}

impl Supervisor {
    async fn run(mut self, mut control: mpsc::Receiver<Control>, mut shutdown: watch::Receiver<bool>) {
        self.refresh().await;
        if matches!(self.state, WorkerState::Stopped) && self.freshness.build_failed.is_none() {
            self.start_worker().await;
        }
        self.warm_pending = matches!(self.state, WorkerState::Running { .. });
        loop {
            if self.warm_pending && self.queued.load(Ordering::SeqCst) == 0 {
                self.warm_up(&mut shutdown).await;
            }
            let retry_at = match &self.state {
                WorkerState::Failing(unavailable) => unavailable.retry_at,
                WorkerState::Stopped => self.restart_at,
                WorkerState::Running { .. } => None,
            };
            let event = tokio::select! {
                _ = shutdown.wait_for(|stop| *stop) => Event::Shutdown,
                _ = sleep_until(retry_at) => Event::RetryStart,
                message = control.recv() => message.map_or(Event::Shutdown, Event::Control),
                reason = idle_loss(&mut self.state) => Event::WorkerLost(reason),
            };
            let job = match event {
                Event::Shutdown => break,
                // A failing engine is retried in the background, so it
                // recovers (and clients hear of its tools) without a call.
                Event::RetryStart => {
                    self.start_worker().await;
                    continue;
                }
                // Noticed at once, not at the next call: replace it now.
                Event::WorkerLost(reason) => {
                    self.replace_lost_worker(reason).await;
                    continue;
                }
                // Rebuild at the save, not at the next call.
                Event::Control(Control::FilesChanged) => {
                    self.refresh().await;
                    continue;
                }
                Event::Control(Control::Refresh(done)) => {
                    self.refresh().await;
                    let _ = done.send(());
                    continue;
                }
                Event::Control(Control::Call(job)) => job,
            };
            if job.cancel.is_cancelled() {
                // Cancelled while queued: removed without an answer.
                self.queued.fetch_sub(1, Ordering::SeqCst);
                let _ = job.reply.send(Err(CallFailure::Cancelled));
                continue;
            }
            // No stale answers: a call made after an edit runs the edit.
            self.refresh().await;
            let outcome = self.serve(&job, &mut shutdown).await;
            if outcome.is_ok() {
                self.churn.reset();
            }
            let broke_worker = matches!(&outcome, Err(failure) if !failure.leaves_worker_usable());
            let failure_kind = outcome.as_ref().err().cloned();

            self.queued.fetch_sub(1, Ordering::SeqCst);
            let _ = job.reply.send(outcome);
            if broke_worker && !*shutdown.borrow() {
                if failure_kind != Some(CallFailure::Cancelled) {
                    let what = failure_kind.map(|f| f.to_string()).unwrap_or_default();
                    let what = what.lines().next().unwrap_or_default();
                    self.emit(
                        LogLevel::Warning,
                        format!("the engine worker failed during a call ({what}); starting a fresh one"),
                    );
                }
                // Replace it now, so the next call does not wait for the start.
                self.stop_worker().await;
                self.start_worker().await;
            }
        }
        control.close();
        while let Ok(message) = control.try_recv() {
            if let Control::Call(job) = message {
                self.queued.fetch_sub(1, Ordering::SeqCst);
                let _ = job.reply.send(Err(CallFailure::ShuttingDown));
            }
        }
        self.stop_worker().await;
    }

    /// An idle worker exited, was killed, closed its pipes or wrote garbage:
    /// start a fresh one now (or, if it died right after starting, soon).
    async fn replace_lost_worker(&mut self, reason: String) {
        let lived = match &self.state {
            WorkerState::Running { started, .. } => started.elapsed(),
            _ => Duration::ZERO,
        };
        let first_line = reason.lines().next().unwrap_or_default().to_string();
        tracing::warn!("{reason}");
        self.stop_worker().await;
        if lived < QUICK_DEATH {
            let delay = self.churn.next_delay();
            self.emit(
                LogLevel::Warning,
                format!("{first_line}; a fresh worker starts in {:.1} s or at the next call", delay.as_secs_f64()),
            );
            self.restart_at = Some(Instant::now() + delay);
            return;
        }
        self.churn.reset();
        self.emit(LogLevel::Warning, format!("{first_line}; starting a fresh one"));
        self.start_worker().await;
    }

    /// Starts a worker and publishes its catalogue; on failure, schedules
    /// the next attempt with a growing delay.
    async fn start_worker(&mut self) {
        self.restart_at = None;
        let now = self.current_code();
        let code = self.freshness.target(now).unwrap_or(now);

        match self.launch().await {
            Ok((process, hello)) => self.install(process, hello, code),
            Err(reason) => self.record_start_failure(reason, code),
        }
    }

    /// The code the engine runs now. The executable found at the last
    /// launch is remembered: this runs before every call.
    fn current_code(&self) -> CodeState {
        let engine = self.engine_path.clone().or_else(|| locate(self.config.engine.as_deref()).ok());
        self.freshness.code(engine.as_ref())
    }

    fn install(&mut self, process: WorkerProcess, hello: Hello, code: CodeState) {
        self.backoff.reset();
        let (catalogue, problems) = Catalogue::build(hello.engine.clone(), hello.server.clone(), &hello.tools);
        for problem in problems {
            tracing::error!("engine catalogue: {problem}");
        }
        tracing::info!(pid = process.pid(), engine = %hello.engine, tools = ?catalogue.names(), "worker ready");
        self.emit(LogLevel::Info, format!("engine worker started: pid {}, {}", process.pid(), hello.engine));
        self.catalogue.send_replace(CatalogueState::Ready(Arc::new(catalogue)));
        self.state =
            WorkerState::Running { process: Box::new(process), hello: Box::new(hello), started: Instant::now() };
        // Only a fresh start warms (its caller says so), never a replacement.
        self.warm_pending = false;
        self.freshness.serving = Some(code);
        self.freshness.start_failed = None;
    }

    fn record_start_failure(&mut self, reason: String, code: CodeState) {
        let delay = self.backoff.next_delay();
        tracing::error!(
            "engine failed to start ({} in a row; next attempt in {:.1} s): {reason}",
            self.backoff.failures(),
            delay.as_secs_f64()
        );
        self.emit(LogLevel::Error, format!("the engine failed to start: {reason}"));
        self.freshness.start_failed = Some((code, reason.clone()));
        let unavailable =
            Unavailable { reason, failures: self.backoff.failures(), retry_at: Some(Instant::now() + delay) };
        self.catalogue.send_replace(CatalogueState::Unavailable(unavailable.clone()));
        self.state = WorkerState::Failing(unavailable);
    }

    async fn launch(&mut self) -> Result<(WorkerProcess, Hello), String> {
        let program = locate(self.config.engine.as_deref())?;
        self.engine_path = Some(program.clone());
        loop {
            let spec = SpawnSpec {
                program: program.clone(),
                root: self.config.root.clone(),
                hello_timeout: self.config.hello_timeout,
                environment: self.config.environment.resolve(&self.env_prefix),
            };
            let (mut process, hello) = WorkerProcess::start(&spec).await?;
            if hello.server.env_prefix == self.env_prefix {
                return Ok((process, hello));
            }
            // Its variables are known only from its hello: start it again
            // with them (once per engine that is not Rigor).
            tracing::info!(prefix = %hello.server.env_prefix, "the engine asks for its own variables; restarting it with them");
            self.env_prefix = hello.server.env_prefix.clone();
            process.kill().await;
        }
    }

    /// Rebuilds and restarts if the code changed since the worker started.
    /// A failed build keeps the last good worker serving (with a notice);
    /// the new worker is started before the old one stops, so a new engine
    /// that cannot start does not leave the gateway without one.
    async fn refresh(&mut self) {
        let mut code = self.current_code();
        let verdict = self.freshness.check(code);
        tracing::trace!(?verdict, ?code, serving = ?self.freshness.serving, "freshness");
        if verdict == Verdict::Current {
            return;
        }
        self.freshness.settle().await;
        code = self.current_code();
        let mut build_time = Duration::ZERO;
        if self.freshness.check(code) == Verdict::Rebuild {
            if let Some(build) = self.freshness.build.clone() {
                tracing::info!("engine sources changed; rebuilding with `{}`", build.shell);
                self.activity.send_replace(Activity::Rebuilding);
                let (outcome, took) = build.run().await;
                self.activity.send_replace(Activity::Idle);
                build_time = took;
                match outcome {
                    Ok(()) => {
                        tracing::info!("rebuild succeeded in {:.2} s", took.as_secs_f64());
                        self.freshness.build_failed = None;
                        self.freshness.built = Some(code.sources);
                        code = self.current_code();
                    }
                    Err(failure) => {
                        tracing::error!("rebuild failed after {:.2} s: {failure}", took.as_secs_f64());
                        self.emit(
                            LogLevel::Error,
                            format!(
                                "the engine rebuild failed; the last good build keeps serving. First error: {failure}"
                            ),
                        );
                        self.freshness.build_failed = Some((code.sources, failure.clone()));
                        if !matches!(self.state, WorkerState::Running { .. }) {
                            let reason = format!("the engine build failed: {failure}");
                            self.record_start_failure(reason, code);
                        }
                        return;
                    }
                }
            }
        }
        if self.freshness.check(code) != Verdict::Restart {
            return;
        }
        let Some(code) = self.freshness.target(code) else { return };

        self.activity.send_replace(Activity::Restarting);
        let restart_started = Instant::now();
        let launched = self.launch().await;
        match launched {
            Ok((process, hello)) => {
                let replaced = self.state_pid();
                self.stop_worker().await;
                self.install(process, hello, code);
                // New code (or the first start): its state is built anew.
                self.warm_pending = true;
                let timing = ReloadTiming { build: build_time, restart: restart_started.elapsed() };
                if replaced.is_none() && build_time.is_zero() {
                    // The first start, not a reload.
                    self.activity.send_replace(Activity::Idle);
                    return;
                }

                tracing::info!(
                    old_pid = ?replaced,
                    "reloaded: build {:.0} ms, restart {:.1} ms",
                    timing.build.as_secs_f64() * 1e3,
                    timing.restart.as_secs_f64() * 1e3
                );
                self.emit(
                    LogLevel::Notice,
                    format!(
                        "engine reloaded from changed code (build {:.0} ms, restart {:.0} ms)",
                        timing.build.as_secs_f64() * 1e3,
                        timing.restart.as_secs_f64() * 1e3
                    ),
                );
                self.last_reload = Some(timing);
            }
            Err(reason) if matches!(self.state, WorkerState::Running { .. }) => {
                tracing::error!("the new engine failed to start; the previous worker keeps serving: {reason}");
                self.freshness.start_failed = Some((code, reason));
            }
            Err(reason) => self.record_start_failure(reason, code),
        }
        self.activity.send_replace(Activity::Idle);
    }

    fn state_pid(&self) -> Option<u32> {
        match &self.state {
            WorkerState::Running { process, .. } => Some(process.pid()),
            _ => None,
        }
    }

    /// Runs one call; a call that never reached the worker (it had died)
    /// runs once more on a fresh worker, unseen by the client.
    async fn serve(&mut self, job: &CallJob, shutdown: &mut watch::Receiver<bool>) -> Result<CallOutcome, CallFailure> {
        match self.attempt(job, shutdown).await {
            Err(CallFailure::NotDelivered(reason)) if !*shutdown.borrow() && !job.cancel.is_cancelled() => {
                tracing::info!("{}; running the call on a fresh worker", reason.lines().next().unwrap_or_default());
                self.stop_worker().await;
                self.start_worker().await;
                self.attempt(job, shutdown).await
            }
            outcome => outcome,
        }
    }

    /// Runs the call a fresh worker's hello names as its warm-up (Rigor:
    /// a check of the configured paths, which builds the project model), so
    /// the first call a client makes finds that work done. It runs only
    /// while no call waits; calls that come meanwhile wait for it, as they
    /// would for any call, and are told so if they asked for progress. Its
    /// answer goes nowhere. A warm-up that breaks the worker is reported
    /// and the worker replaced, unwarmed.
    async fn warm_up(&mut self, shutdown: &mut watch::Receiver<bool>) {
        self.warm_pending = false;
        let Some(defaults) = self.config.warm_up.clone() else { return };
        let WorkerState::Running { hello, .. } = &self.state else { return };
        let Some(warm_up) = hello.warm_up.clone() else { return };
        let CatalogueState::Ready(catalogue) = self.catalogue.borrow().clone() else { return };
        let prepared = catalogue
            .get(&warm_up.tool)
            .ok_or_else(|| format!("its catalogue has no tool `{}`", warm_up.tool))
            .and_then(|tool| {
                tool.check_input(&warm_up.arguments)?;
                let arguments = warm_up.arguments.as_object().expect("checked when the hello was read");
                Ok((tool.template.synthesize(arguments, &defaults)?.argv, tool.timeout))
            });
        let (argv, timeout) = match prepared {
            Ok(prepared) => prepared,
            Err(problem) => {
                tracing::error!("the worker's warm-up call is not one it can take ({problem}); no warm-up");
                return;
            }
        };
        let (reply, _answer) = oneshot::channel();
        let cwd = self.config.root.clone();
        let job = CallJob { argv, cwd, timeout, cancel: CancellationToken::new(), warm_up: true, reply };
        tracing::debug!(tool = %warm_up.tool, argv = ?job.argv, "warming the worker up");
        // Counted as a running call: `tools/list` does not wait for it.
        self.queued.fetch_add(1, Ordering::SeqCst);
        self.activity.send_replace(Activity::WarmingUp);
        let started = Instant::now();
        // The reload's timing is for the first client call to report.
        let reload = self.last_reload.take();
        let outcome = self.attempt(&job, shutdown).await;
        self.last_reload = reload;
        self.activity.send_replace(Activity::Idle);
        self.queued.fetch_sub(1, Ordering::SeqCst);
        match outcome {
            Ok(outcome) => tracing::info!(
                pid = outcome.worker_pid,
                exit_code = outcome.reply.exit_code,
                "worker warmed up with {} in {:.0} ms",
                warm_up.tool,
                started.elapsed().as_secs_f64() * 1e3
            ),
            Err(CallFailure::ShuttingDown) => {}
            Err(failure) if failure.leaves_worker_usable() => {
                tracing::warn!("the worker's warm-up call failed: {failure}");
            }
            Err(failure) => {
                let what = failure.to_string();
                let what = what.lines().next().unwrap_or_default();
                let message =
                    format!("the engine worker failed while warming up ({what}); starting a fresh one, not warmed up");
                tracing::warn!("{message}");
                self.emit(LogLevel::Warning, message);
                if !*shutdown.borrow() {
                    self.stop_worker().await;
                    self.start_worker().await;
                }
            }
        }
    }

    async fn attempt(
        &mut self,
        job: &CallJob,
        shutdown: &mut watch::Receiver<bool>,
    ) -> Result<CallOutcome, CallFailure> {
        match &self.state {
            WorkerState::Stopped => self.start_worker().await,
            WorkerState::Failing(Unavailable { retry_at: Some(at), .. }) if Instant::now() >= *at => {
                self.start_worker().await
            }
            _ => {}
        }
        let (process, hello) = match &mut self.state {
            WorkerState::Running { process, hello, .. } => (process, hello),
            WorkerState::Failing(unavailable) => return Err(CallFailure::Unavailable(unavailable.to_string())),
            WorkerState::Stopped => return Err(CallFailure::Unavailable("the worker is not running".into())),
        };
        self.next_request += 1;
        let deadline = job.timeout.unwrap_or(self.config.call_timeout);
        let engine = hello.engine.clone();
        let worker_pid = process.pid();
        self.deadline.as_mut().reset(Instant::now() + deadline);
        let outcome = tokio::select! {
            result = process.call(self.next_request, &job.argv, &job.cwd, job.warm_up) => result,
            _ = &mut self.deadline => Err(CallFailure::TimedOut(format_seconds(deadline))),
            _ = job.cancel.cancelled() => Err(CallFailure::Cancelled),
            _ = shutdown.wait_for(|stop| *stop) => Err(CallFailure::ShuttingDown),
        };
        if let Err(failure) = &outcome {
            if !failure.leaves_worker_usable() && !matches!(failure, CallFailure::NotDelivered(_)) {
                tracing::warn!(pid = worker_pid, "worker discarded: {failure}");
            }
        }
        let notice = self.freshness.notice();
        let reload = if outcome.is_ok() { self.last_reload.take() } else { None };
        outcome.map(|reply| CallOutcome { reply, worker_pid, engine, notice, reload })
    }

    async fn stop_worker(&mut self) {
        if let WorkerState::Running { process, .. } = std::mem::replace(&mut self.state, WorkerState::Stopped) {
            let pid = process.pid();
            (*process).stop().await;
            tracing::debug!(pid, "worker stopped");
        }
    }
}

/// Resolves when the running worker is lost; never while there is none.
async fn idle_loss(state: &mut WorkerState) -> String {
    match state {
        WorkerState::Running { process, .. } => process.lost().await,
        _ => std::future::pending().await,
    }
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}

/// `60`, `0.5`: seconds as people write them.
fn format_seconds(duration: Duration) -> String {
    let seconds = duration.as_secs_f64();
    if seconds.fract() == 0.0 {
        format!("{seconds:.0}")
    } else {
        format!("{seconds}")
    }
}
