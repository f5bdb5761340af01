//! The MCP message layer: newline framing on a byte stream, JSON-RPC 2.0
//! messages, and the connection that carries them. Hand-written because it
//! must control exactly what reaches stdout.

pub mod connection;
pub mod framing;
pub mod id_scan;
pub mod jsonrpc;
