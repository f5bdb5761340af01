//! A small MCP client, for the one-shot commands: over an in-process
//! session (`rigor-mcp call`) or a running gateway's control socket
//! (`rigor-mcp attach PATH --call`). It speaks exactly what clients speak.

use std::path::Path;
use std::sync::Arc;

use serde_json::{json, Value};
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::net::unix::{OwnedReadHalf, OwnedWriteHalf};

use crate::gateway::Gateway;
use crate::mcp::connection::{Connection, MemoryClient};
use crate::mcp::framing::{Frame, LineReader, DEFAULT_MAX_LINE_BYTES};
use crate::session::{self, HANDSHAKE_VERSIONS};

enum Transport {
    Memory(MemoryClient),
    Socket { reader: LineReader<BufReader<OwnedReadHalf>>, writer: OwnedWriteHalf },
}

pub struct Client {
    transport: Transport,
    next_id: i64,
}

impl Client {
    /// A session inside this process, on `gateway`.
    pub async fn in_process(gateway: Arc<Gateway>) -> Result<Client, String> {
        let (connection, inner) = Connection::memory("oneshot");
        tokio::spawn(session::serve(connection, gateway));
        Client::initialized(Transport::Memory(inner)).await
    }

    /// A session on a running gateway's control socket.
    pub async fn attach(path: &Path) -> Result<Client, String> {
        let stream = tokio::net::UnixStream::connect(path)
            .await
            .map_err(|e| format!("cannot attach to {}: {e}", path.display()))?;
        let (read, writer) = stream.into_split();
        let reader = LineReader::new(BufReader::new(read), DEFAULT_MAX_LINE_BYTES * 64);
        Client::initialized(Transport::Socket { reader, writer }).await
    }

    async fn initialized(transport: Transport) -> Result<Client, String> {
        let mut client = Client { transport, next_id: 0 };
        let info = json!({"name": "rigor-mcp-oneshot", "version": env!("CARGO_PKG_VERSION")});
        client
            .request(
                "initialize",
                json!({"protocolVersion": HANDSHAKE_VERSIONS[0], "capabilities": {}, "clientInfo": info}),
            )
            .await?;
        client.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await?;
        Ok(client)
    }

    async fn send(&mut self, message: &Value) -> Result<(), String> {
        match &mut self.transport {
            Transport::Memory(inner) => {
                inner.send(message).await;
                Ok(())
            }
            Transport::Socket { writer, .. } => {
                let mut line = message.to_string();
                line.push('\n');
                writer.write_all(line.as_bytes()).await.map_err(|e| format!("the gateway went away: {e}"))
            }
        }
    }

    async fn receive(&mut self) -> Option<Value> {
        match &mut self.transport {
            Transport::Memory(inner) => inner.receive().await,
            Transport::Socket { reader, .. } => match reader.next_frame().await {
                Ok(Some(Frame::Line(line))) => serde_json::from_slice(&line).ok(),
                _ => None,
            },
        }
    }

    /// Sends a request and returns its result; a JSON-RPC error is `Err`.
    pub async fn request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})).await?;
        loop {
            let message = self.receive().await.ok_or("the session ended without answering")?;
            if message.get("id") != Some(&json!(id)) {
                continue; // a notification
            }
            if let Some(error) = message.get("error") {
                return Err(format!(
                    "{method} failed: {} (code {})",
                    error["message"].as_str().unwrap_or("?"),
                    error["code"]
                ));
            }
            return Ok(message.get("result").cloned().unwrap_or(Value::Null));
        }
    }
}
