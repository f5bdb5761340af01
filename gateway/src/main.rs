use rigor_gateway::options::{self, Command, EXIT_USAGE};
use rigor_gateway::{logging, oneshot, server};

fn main() {
    let cli = match options::parse(std::env::args_os()) {
        Ok(cli) => cli,
        Err(code) => std::process::exit(code),
    };
    // One-shot commands print results; only problems belong in their log.
    let default_level = if matches!(cli.command, None | Some(Command::Serve)) { "info" } else { "warn" };
    if let Err(problem) = logging::init(cli.server.log_level.as_deref(), default_level) {
        eprintln!("rigor-mcp: {problem}");
        std::process::exit(EXIT_USAGE);
    }
    // One thread: every hop between tasks stays on it, which keeps a warm
    // call's latency near the pipe round trips it cannot avoid.
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("tokio runtime");
    let code = runtime.block_on(async {
        let gateway = match server::start_gateway(&cli.server) {
            Ok(gateway) => gateway,
            Err(problem) => {
                eprintln!("rigor-mcp: {problem}");
                return EXIT_USAGE;
            }
        };
        match &cli.command {
            None | Some(Command::Serve) => server::serve_stdio(gateway).await,
            Some(Command::Call(args)) => oneshot::call(gateway, args).await,
            Some(Command::Tools { json }) => oneshot::tools(gateway, *json).await,
        }
    });
    // Exit without waiting for the runtime: a blocked stdin read would
    // otherwise hold the process open after shutdown.
    std::process::exit(code);
}
