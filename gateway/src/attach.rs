//! `rigor-mcp attach PATH`: a session on a running gateway's control socket.
//! Raw JSON-RPC lines from stdin go to the gateway; its messages come back
//! on stdout, one per line (terminal B of split-terminal testing).

use std::path::Path;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

pub async fn raw(path: &Path) -> i32 {
    let stream = match tokio::net::UnixStream::connect(path).await {
        Ok(stream) => stream,
        Err(error) => {
            eprintln!(
                "rigor-mcp: cannot attach to {}: {error} (is a gateway running with --control {}?)",
                path.display(),
                path.display()
            );
            return 2;
        }
    };
    let (read, mut write) = stream.into_split();
    let printer = tokio::spawn(async move {
        let mut lines = BufReader::new(read).lines();
        let mut stdout = tokio::io::stdout();
        while let Ok(Some(line)) = lines.next_line().await {
            if stdout.write_all(format!("{line}\n").as_bytes()).await.is_err() || stdout.flush().await.is_err() {
                return;
            }
        }
    });
    // Read stdin on a thread: a terminal is not a pipe tokio can poll.
    let (tx, mut rx) = tokio::sync::mpsc::channel::<String>(16);
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if tx.blocking_send(line).is_err() {
                break;
            }
        }
    });
    while let Some(line) = rx.recv().await {
        if write.write_all(format!("{line}\n").as_bytes()).await.is_err() {
            eprintln!("rigor-mcp: the gateway closed the connection");
            return 2;
        }
    }
    // End of input: let the gateway answer what was sent, then finish.
    let _ = write.shutdown().await;
    let _ = tokio::time::timeout(std::time::Duration::from_secs(30), printer).await;
    0
}
