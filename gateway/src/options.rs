//! The command line of `rigor-mcp`: the server (default), and one-shot
//! helpers that speak MCP to an in-process session.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::mcp::framing::DEFAULT_MAX_LINE_BYTES;

pub const EXIT_USAGE: i32 = 64;

#[derive(Parser, Debug)]
#[command(
    name = "rigor-mcp",
    version,
    about = "An MCP server (stdio) for Rigor, the Ruby type checker, backed by one persistent engine worker",
    disable_help_subcommand = true
)]
pub struct Cli {
    #[command(flatten)]
    pub server: ServerOptions,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Serve MCP on stdin/stdout (the default)
    Serve,
    /// Call one tool and print its result, then exit (0 ok, 1 isError, 2 failure)
    Call(CallArgs),
    /// Print the tool catalogue and exit
    Tools {
        /// Print the whole tools/list result as JSON
        #[arg(long)]
        json: bool,
    },
    /// Open an MCP session on a running gateway's control socket: JSON-RPC
    /// lines from stdin, answers on stdout (or one call with --call)
    Attach(AttachArgs),
    /// Print a --trace file readably
    Trace {
        /// The trace file
        file: PathBuf,
        /// Keep printing records as they are appended
        #[arg(long, short)]
        follow: bool,
    },
}

#[derive(Args, Debug)]
pub struct AttachArgs {
    /// The socket a gateway listens on (its --control PATH)
    pub socket: PathBuf,
    /// Call this tool instead of relaying stdin
    #[arg(long, value_name = "TOOL")]
    pub call: Option<String>,
    /// Arguments for --call: one JSON object, or key=value pairs
    #[arg(requires = "call")]
    pub arguments: Vec<String>,
    /// With --call: print the whole result as JSON
    #[arg(long, requires = "call")]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct CallArgs {
    /// The tool to call, e.g. rigor_check
    pub tool: String,
    /// Arguments: one JSON object, or key=value pairs (a value is parsed as
    /// JSON when it is valid JSON, else taken as a string; a single value
    /// for an array parameter becomes a one-element array)
    pub arguments: Vec<String>,
    /// Print the whole result as JSON instead of its text
    #[arg(long)]
    pub json: bool,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Transport {
    #[default]
    Stdio,
    /// MCP Streamable HTTP at /mcp (see the --host, --port and security flags)
    Http,
}

#[derive(Args, Debug, Clone)]
pub struct ServerOptions {
    /// Transport: stdio, or Streamable HTTP at http://HOST:PORT/mcp
    #[arg(long, value_enum, default_value_t, global = true)]
    pub transport: Transport,
    #[command(flatten)]
    pub http: crate::http::HttpOptions,
    /// Session-default Rigor configuration for tools that take `config`
    #[arg(long, value_name = "PATH", global = true)]
    pub config: Option<PathBuf>,
    /// Engine executable (default: `rigor` beside this program, else on PATH)
    #[arg(long, value_name = "PATH", global = true)]
    pub engine: Option<PathBuf>,
    /// Project root: the working directory of every call (default: current directory)
    #[arg(long, value_name = "DIR", global = true)]
    pub root: Option<PathBuf>,
    /// Log level for stderr (error, warn, info, debug, trace); overrides RUST_LOG
    #[arg(long, value_name = "LEVEL", global = true)]
    pub log_level: Option<String>,
    /// Deadline of one tool call, in seconds
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0, global = true)]
    pub call_timeout: f64,
    /// Restart the worker when these files or directories change (repeatable)
    #[arg(long, value_name = "PATH", global = true)]
    pub watch: Vec<PathBuf>,
    /// Run this shell command (in the root) before restarting; if it fails,
    /// the last good worker keeps serving and answers carry its first error
    #[arg(long, value_name = "COMMAND", global = true)]
    pub build: Option<String>,
    /// How long a build may take, in seconds
    #[arg(long, value_name = "SECONDS", default_value_t = 600.0, global = true)]
    pub build_timeout: f64,
    /// Do not warm a new worker up: by default, while no call waits, the
    /// gateway runs the call its hello names (Rigor: a check of the
    /// configured paths) so the first real call finds the project model built
    #[arg(long, global = true)]
    pub no_warm_up: bool,
    /// Never restart the worker for code changes (not even a new engine executable)
    #[arg(long, global = true, conflicts_with_all = ["watch", "build", "dev"])]
    pub no_reload: bool,
    /// Work on this repository: watch the engine's sources, rebuild it with
    /// cargo, and serve from the freshly built binary
    #[arg(long, global = true, conflicts_with = "engine")]
    pub dev: bool,
    /// Pass this environment variable to the engine worker (repeatable); it
    /// otherwise gets only a small allowlist and RIGOR_* variables
    #[arg(long, value_name = "NAME", global = true)]
    pub pass_env: Vec<String>,
    /// Also accept MCP sessions on this Unix socket (mode 0600), e.g. from
    /// `rigor-mcp attach PATH` in another terminal
    #[arg(long, value_name = "PATH", global = true)]
    pub control: Option<PathBuf>,
    /// Append every message (client and worker) to this file as JSON lines
    #[arg(long, value_name = "FILE", global = true)]
    pub trace: Option<PathBuf>,
    /// Tools per tools/list page
    #[arg(long, value_name = "N", default_value_t = 50, global = true)]
    pub tools_page_size: usize,
    /// Longest accepted incoming message, in bytes (over HTTP: the body; 413 beyond it)
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_LINE_BYTES, global = true)]
    pub max_line_bytes: usize,
}

/// Parses the command line; on a usage error prints one line and returns
/// the exit code to use.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Cli, i32> {
    use clap::error::ErrorKind;
    match Cli::try_parse_from(args) {
        Ok(cli) => Ok(cli),
        Err(error) => match error.kind() {
            ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                // Help goes to stderr: stdout is for MCP messages only.
                eprint!("{}", error.render());
                Err(0)
            }
            _ => {
                let rendered = error.render().to_string();
                let first = rendered.lines().next().unwrap_or("invalid arguments");
                eprintln!("rigor-mcp: {} (see `rigor-mcp --help`)", first.strip_prefix("error: ").unwrap_or(first));
                Err(EXIT_USAGE)
            }
        },
    }
}
