//! File events in the background, so a rebuild starts at the save rather
//! than at the next call. Bursts (formatters, safe-save by rename, git
//! checkout) are debounced into one signal. Events are only a hint: the
//! fingerprint taken before each call is what decides.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use notify::{EventKind, RecursiveMode, Watcher as _};
use tokio::sync::mpsc;

/// Quiet time that ends a burst of events.
pub const QUIET: Duration = Duration::from_millis(50);
/// A burst that never goes quiet still signals after this long.
const LONGEST_BURST: Duration = Duration::from_secs(1);

/// When the last relevant event arrived; shared with the supervisor so a
/// call that races a burst can wait for it to settle.
#[derive(Clone, Default)]
pub struct LastEvent(Arc<Mutex<Option<Instant>>>);

impl LastEvent {
    fn touch(&self) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
    }

    pub fn get(&self) -> Option<Instant> {
        *self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Keeps the OS watcher alive; dropping it stops watching.
pub struct Watcher {
    _inner: Option<notify::RecommendedWatcher>,
    pub last_event: LastEvent,
}

/// Watches `directories` recursively and `files` individually (through
/// their parent directory, because editors replace a file on save).
/// `changed` receives one message per burst.
pub fn spawn(directories: &[PathBuf], files: &[PathBuf], changed: mpsc::Sender<()>) -> Watcher {
    let last_event = LastEvent::default();
    let (raw_tx, raw_rx) = mpsc::unbounded_channel::<()>();
    let watched_files: Vec<PathBuf> = files.to_vec();
    let recorder = last_event.clone();
    let handler = move |event: notify::Result<notify::Event>| {
        let Ok(event) = event else { return };
        if matches!(event.kind, EventKind::Access(_)) {
            return;
        }
        let relevant = event.paths.iter().any(|path| is_relevant(path, &watched_files));
        if relevant {
            recorder.touch();
            let _ = raw_tx.send(());
        }
    };
    let mut inner = match notify::recommended_watcher(handler) {
        Ok(watcher) => watcher,
        Err(error) => {
            tracing::warn!("cannot watch files ({error}); changes are still detected before each call");
            return Watcher { _inner: None, last_event };
        }
    };
    let targets = directories
        .iter()
        .map(|d| (d.clone(), RecursiveMode::Recursive))
        .chain(files.iter().filter_map(|f| f.parent().map(|p| (p.to_path_buf(), RecursiveMode::NonRecursive))));
    for (path, mode) in targets {
        if let Err(error) = inner.watch(&path, mode) {
            let hint = if error.to_string().contains("No space left") || error.to_string().contains("limit") {
                " (the inotify watch limit is reached: raise fs.inotify.max_user_watches)"
            } else {
                ""
            };
            tracing::warn!(
                "cannot watch {}: {error}{hint}; changes are still detected before each call",
                path.display()
            );
        }
    }
    tokio::spawn(debounce(raw_rx, changed));
    Watcher { _inner: Some(inner), last_event }
}

/// Events under build output or VCS metadata, and neighbours of a watched
/// file, are noise.
fn is_relevant(path: &Path, files: &[PathBuf]) -> bool {
    let noisy = path.components().any(|c| matches!(c.as_os_str().to_str(), Some("target" | ".git" | "node_modules")));
    if noisy && !files.iter().any(|f| f == path) {
        return false;
    }
    let in_file_parent = files.iter().any(|f| f.parent() == path.parent());
    !in_file_parent || files.iter().any(|f| f == path)
}

async fn debounce(mut raw: mpsc::UnboundedReceiver<()>, changed: mpsc::Sender<()>) {
    while raw.recv().await.is_some() {
        let burst_started = Instant::now();
        loop {
            match tokio::time::timeout(QUIET, raw.recv()).await {
                Ok(Some(())) if burst_started.elapsed() < LONGEST_BURST => continue,
                Ok(None) => return,
                _ => break,
            }
        }
        if changed.send(()).await.is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_burst_of_saves_is_one_signal() {
        let dir = tempfile::tempdir().unwrap();
        let (tx, mut rx) = mpsc::channel(8);
        let watcher = spawn(&[dir.path().to_path_buf()], &[], tx);
        tokio::time::sleep(Duration::from_millis(50)).await;
        for i in 0..20 {
            std::fs::write(dir.path().join(format!("f{}.rs", i % 3)), format!("{i}")).unwrap();
            let temp = dir.path().join(".tmp-save");
            std::fs::write(&temp, "x").unwrap();
            std::fs::rename(&temp, dir.path().join("saved.rs")).unwrap();
        }
        let first = tokio::time::timeout(Duration::from_secs(3), rx.recv()).await;
        assert!(first.is_ok(), "the burst was signalled");
        let second = tokio::time::timeout(Duration::from_millis(300), rx.recv()).await;
        assert!(second.is_err(), "only once");
        assert!(watcher.last_event.get().is_some());
    }

    #[test]
    fn events_next_to_a_watched_file_are_ignored_but_the_file_counts() {
        let file = PathBuf::from("/x/target/debug/rigor");
        assert!(is_relevant(&file, std::slice::from_ref(&file)));
        assert!(!is_relevant(Path::new("/x/target/debug/other"), std::slice::from_ref(&file)));
        assert!(!is_relevant(Path::new("/repo/target/debug/x.o"), &[]));
        assert!(is_relevant(Path::new("/repo/engine/src/lib.rs"), &[]));
    }
}
