//! Supervision of the one engine worker. An actor task owns the worker
//! process; callers talk to it through a control queue and watch the
//! catalogue it publishes. The worker's state is an explicit enum.

mod locate;
pub mod process;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot, watch};

use crate::catalogue::{Catalogue, EngineInfo};
use process::{Hello, Reply, SpawnSpec, WorkerProcess};

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
}

/// Why a call produced no result from the engine.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CallFailure {
    #[error("the Rigor engine is not available: {0}")]
    Unavailable(String),
    #[error("the engine worker {0}")]
    WorkerDied(String),
    #[error("the engine worker broke the protocol: {0}")]
    Protocol(String),
    #[error("the engine worker rejected the request: {0}")]
    Rejected(String),
    #[error("timed out after {0} s; the engine worker was stopped and will be restarted")]
    TimedOut(u64),
    #[error("the gateway is shutting down")]
    ShuttingDown,
}

/// A finished call and the worker that ran it.
#[derive(Debug, Clone)]
pub struct CallOutcome {
    pub reply: Reply,
    pub worker_pid: u32,
    pub engine: EngineInfo,
}

/// What clients may currently be told about tools.
#[derive(Clone)]
pub enum CatalogueState {
    Starting,
    Ready(Arc<Catalogue>),
    Unavailable(String),
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
    reply: oneshot::Sender<Result<CallOutcome, CallFailure>>,
}

enum Control {
    Call(CallJob),
}

enum WorkerState {
    /// No worker: never started, or the last one ended; start on demand.
    Stopped,
    Running {
        process: Box<WorkerProcess>,
        hello: Hello,
    },
    /// The last start failed; the next call tries again.
    Unavailable {
        reason: String,
    },
}

#[derive(Clone)]
pub struct SupervisorHandle {
    control: mpsc::Sender<Control>,
    catalogue: watch::Receiver<CatalogueState>,
    shutdown: watch::Sender<bool>,
    finished: watch::Receiver<bool>,
}

impl SupervisorHandle {
    /// Starts the supervisor and, at once, the worker.
    pub fn spawn(config: SupervisorConfig) -> SupervisorHandle {
        let (control_tx, control_rx) = mpsc::channel(64);
        let (catalogue_tx, catalogue_rx) = watch::channel(CatalogueState::Starting);
        let (shutdown_tx, shutdown_rx) = watch::channel(false);
        let (finished_tx, finished_rx) = watch::channel(false);
        let supervisor = Supervisor { config, state: WorkerState::Stopped, catalogue: catalogue_tx, next_request: 0 };
        tokio::spawn(async move {
            supervisor.run(control_rx, shutdown_rx).await;
            let _ = finished_tx.send(true);
        });
        SupervisorHandle { control: control_tx, catalogue: catalogue_rx, shutdown: shutdown_tx, finished: finished_rx }
    }

    /// The catalogue once the worker has started (or failed to).
    pub async fn catalogue(&self) -> CatalogueState {
        let mut receiver = self.catalogue.clone();
        let settled = receiver.wait_for(|state| !matches!(state, CatalogueState::Starting)).await;
        match settled {
            Ok(state) => state.clone(),
            Err(_) => CatalogueState::Unavailable("the supervisor has stopped".into()),
        }
    }

    /// Catalogue updates, for announcing changes to clients.
    pub fn watch_catalogue(&self) -> watch::Receiver<CatalogueState> {
        self.catalogue.clone()
    }

    /// Queues `argv` for the worker; calls are served one at a time, in the
    /// order they were submitted. Await the returned call for its outcome.
    pub async fn submit(&self, argv: Vec<String>, cwd: PathBuf, timeout: Option<Duration>) -> PendingCall {
        let (reply, answer) = oneshot::channel();
        let job = CallJob { argv, cwd, timeout, reply };
        let queued = self.control.send(Control::Call(job)).await.is_ok();
        PendingCall { answer: queued.then_some(answer) }
    }

    /// Submits and waits.
    pub async fn call(
        &self,
        argv: Vec<String>,
        cwd: PathBuf,
        timeout: Option<Duration>,
    ) -> Result<CallOutcome, CallFailure> {
        self.submit(argv, cwd, timeout).await.outcome().await
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
    catalogue: watch::Sender<CatalogueState>,
    next_request: u64,
}

impl Supervisor {
    async fn run(mut self, mut control: mpsc::Receiver<Control>, mut shutdown: watch::Receiver<bool>) {
        self.ensure_running().await;
        loop {
            let message = tokio::select! {
                _ = shutdown.wait_for(|stop| *stop) => break,
                message = control.recv() => message,
            };
            match message {
                Some(Control::Call(job)) => {
                    let outcome = self.serve(&job, &mut shutdown).await;
                    let _ = job.reply.send(outcome);
                }
                None => break,
            }
        }
        control.close();
        while let Ok(Control::Call(job)) = control.try_recv() {
            let _ = job.reply.send(Err(CallFailure::ShuttingDown));
        }
        self.stop_worker().await;
    }

    /// Starts a worker unless one is running; publishes the catalogue.
    async fn ensure_running(&mut self) {
        if matches!(self.state, WorkerState::Running { .. }) {
            return;
        }
        self.state = match self.start().await {
            Ok((process, hello)) => {
                let (catalogue, problems) = Catalogue::build(hello.engine.clone(), &hello.tools);
                for problem in problems {
                    tracing::error!("engine catalogue: {problem}");
                }
                tracing::info!(pid = process.pid(), engine = %hello.engine, tools = ?catalogue.names(), "worker ready");
                self.catalogue.send_replace(CatalogueState::Ready(Arc::new(catalogue)));
                WorkerState::Running { process: Box::new(process), hello }
            }
            Err(reason) => {
                tracing::error!("engine unavailable: {reason}");
                self.catalogue.send_replace(CatalogueState::Unavailable(reason.clone()));
                WorkerState::Unavailable { reason }
            }
        };
    }

    async fn start(&self) -> Result<(WorkerProcess, Hello), String> {
        let program = locate(self.config.engine.as_deref())?;
        let spec = SpawnSpec { program, root: self.config.root.clone(), hello_timeout: self.config.hello_timeout };
        WorkerProcess::start(&spec).await
    }

    async fn serve(&mut self, job: &CallJob, shutdown: &mut watch::Receiver<bool>) -> Result<CallOutcome, CallFailure> {
        self.ensure_running().await;
        let (process, hello) = match &mut self.state {
            WorkerState::Running { process, hello } => (process, hello),
            WorkerState::Unavailable { reason } => return Err(CallFailure::Unavailable(reason.clone())),
            WorkerState::Stopped => return Err(CallFailure::Unavailable("the worker is not running".into())),
        };
        self.next_request += 1;
        let deadline = job.timeout.unwrap_or(self.config.call_timeout);
        let engine = hello.engine.clone();
        let worker_pid = process.pid();
        let outcome = tokio::select! {
            result = process.call(self.next_request, &job.argv, &job.cwd) => result,
            _ = tokio::time::sleep(deadline) => Err(CallFailure::TimedOut(deadline.as_secs())),
            _ = shutdown.wait_for(|stop| *stop) => Err(CallFailure::ShuttingDown),
        };
        match &outcome {
            // A clean per-request rejection leaves the worker usable.
            Ok(_) | Err(CallFailure::Rejected(_)) => {}
            Err(failure) => {
                tracing::warn!(pid = worker_pid, "worker discarded: {failure}");
                self.stop_worker().await;
            }
        }
        outcome.map(|reply| CallOutcome { reply, worker_pid, engine })
    }

    async fn stop_worker(&mut self) {
        if let WorkerState::Running { process, .. } = std::mem::replace(&mut self.state, WorkerState::Stopped) {
            let pid = process.pid();
            (*process).stop().await;
            tracing::debug!(pid, "worker stopped");
        }
    }
}
