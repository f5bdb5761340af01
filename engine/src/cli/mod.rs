//! The `rigor` command line. Every command writes to the writers in [`Io`],
//! never to the process's stdout, so the worker can run exactly this code
//! path with output captured in memory.

mod annotate;
mod baseline;
mod check;
mod check_ci;
mod coverage;
mod explain;
mod mcp;
mod sig_gen;
mod triage;
mod type_of;

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

pub const EXIT_OK: i32 = 0;
/// Diagnostics at or above `--fail-on` found, or a command failure (missing file, …).
pub const EXIT_FINDINGS: i32 = 1;
/// Bad command line: unknown command or flag, bad value, missing argument.
pub const EXIT_USAGE: i32 = 64;
/// A program this command needs is not installed.
pub const EXIT_UNAVAILABLE: i32 = 69;

/// Where a command reads and writes: injected, so output can be captured.
pub struct Io<'a> {
    pub out: &'a mut dyn Write,
    pub err: &'a mut dyn Write,
    /// Relative paths in arguments resolve against this directory.
    pub cwd: PathBuf,
}

/// How `run` was reached: from the real process, or inside a worker call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Process,
    InWorker,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum Format {
    #[default]
    Text,
    Json,
}

#[derive(Parser)]
#[command(
    name = "rigor",
    version = concat!(env!("CARGO_PKG_VERSION"), " (src ", env!("RIGOR_SOURCE_FINGERPRINT"), ")"),
    about = "Rigor: a Ruby type checker",
    disable_help_subcommand = true,
    arg_required_else_help = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check Ruby files and report diagnostics
    Check(check::Args),
    /// Record the current findings in a baseline file, so check reports only new ones
    Baseline(baseline::Args),
    /// Describe the rules this engine implements
    Explain(explain::Args),
    /// Summarise diagnostics: distribution, hotspots, selectors, hints
    Triage(triage::Args),
    /// Show the inferred type of the expression at FILE:LINE:COL
    TypeOf(type_of::Args),
    /// Reprint a file with the inferred type of each line as `#=> type`
    Annotate(annotate::Args),
    /// Measure how precisely expressions are typed, by tier
    Coverage(coverage::Args),
    /// Generate RBS signatures from inferred return types
    SigGen(sig_gen::Args),
    /// Serve the private worker protocol on stdin/stdout (used by rigor-mcp)
    Worker,
    /// Run the MCP gateway (executes `rigor-mcp` with the remaining arguments)
    #[command(disable_help_flag = true)]
    Mcp {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<OsString>,
    },
}

/// `--cache-dir DIR` on every command that builds the project model.
#[derive(clap::Args)]
pub(crate) struct CacheArgs {
    /// Keep the project model in DIR, so a fresh process starts warm
    /// (default: the config's `cache_dir:`, else none)
    #[arg(long, value_name = "DIR")]
    cache_dir: Option<PathBuf>,
}

impl CacheArgs {
    /// The flag beats the configuration's `cache_dir:`.
    fn apply(&self, config: &mut crate::config::Config, cwd: &std::path::Path) {
        if let Some(dir) = &self.cache_dir {
            config.cache_dir = Some(cwd.join(dir));
        }
    }
}

/// Runs `rigor <args>` (without the program name) and returns the exit code.
pub fn run<T: Into<OsString> + Clone>(args: impl IntoIterator<Item = T>, io: &mut Io<'_>, mode: Mode) -> i32 {
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    if let Some(command) = args.first().and_then(|c| c.to_str()) {
        let words: Vec<String> = args.iter().map(|a| a.to_string_lossy().into_owned()).collect();
        crate::failpoint::at_command(command, &words);
    }
    let argv = std::iter::once(OsString::from("rigor")).chain(args);
    let cli = match Cli::try_parse_from(argv) {
        Ok(cli) => cli,
        Err(error) => return report_parse_error(&error, io),
    };
    let outcome = match cli.command {
        Command::Check(args) => check::run(args, io),
        Command::Baseline(args) => baseline::run(args, io),
        Command::Explain(args) => explain::run(args, io),
        Command::Triage(args) => triage::run(args, io),
        Command::TypeOf(args) => type_of::run(args, io),
        Command::Annotate(args) => annotate::run(args, io),
        Command::Coverage(args) => coverage::run(args, io),
        Command::SigGen(args) => sig_gen::run(args, io),
        Command::Worker | Command::Mcp { .. } if mode == Mode::InWorker => {
            usage_error(io, "this command cannot run inside a worker call")
        }
        Command::Worker => Ok(crate::worker::serve()),
        Command::Mcp { args } => Ok(mcp::exec_gateway(&args, io)),
    };
    match outcome {
        Ok(code) => code,
        // The reader went away (`rigor check | head`): nothing left to say.
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => EXIT_FINDINGS,
        Err(error) => {
            let _ = writeln!(io.err, "rigor: {error}");
            EXIT_FINDINGS
        }
    }
}

fn report_parse_error(error: &clap::Error, io: &mut Io<'_>) -> i32 {
    use clap::error::ErrorKind;
    match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = write!(io.out, "{}", error.render());
            EXIT_OK
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = write!(io.err, "{}", error.render());
            EXIT_USAGE
        }
        _ => {
            // clap's report spans several lines; the first says what was wrong.
            let rendered = error.render().to_string();
            let first = rendered.lines().next().unwrap_or("invalid arguments");
            let first = first.strip_prefix("error: ").unwrap_or(first);
            let _ = writeln!(io.err, "rigor: {first} (see `rigor --help`)");
            EXIT_USAGE
        }
    }
}

/// Prints a one-line usage error and returns the usage exit code.
fn usage_error(io: &mut Io<'_>, message: &str) -> std::io::Result<i32> {
    writeln!(io.err, "rigor: {message}")?;
    Ok(EXIT_USAGE)
}

/// Writes a value as pretty JSON followed by a newline.
fn write_json(out: &mut dyn Write, value: &impl serde::Serialize) -> std::io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    writeln!(out)
}
