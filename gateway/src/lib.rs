//! rigor-mcp: an MCP server on stdio in front of one persistent Rigor
//! engine worker. Data flows one way: mcp (framing, JSON-RPC) → session
//! (lifecycle, dispatch) → tool_call (catalogue, argv) → supervisor (the
//! worker process).

pub mod argv;
pub mod attach;
pub mod catalogue;
pub mod client;
pub mod confine;
pub mod control;
pub mod events;
pub mod gateway;
pub mod http;
pub mod identity;
pub mod logging;
pub mod mcp;
pub mod oneshot;
pub mod options;
pub mod reload;
pub mod server;
pub mod session;
pub mod supervisor;
pub mod tool_call;
pub mod trace;
pub mod trace_view;
