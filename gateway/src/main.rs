use rigor_gateway::client::Client;
use rigor_gateway::options::{self, Command, Transport, EXIT_USAGE};
use rigor_gateway::{attach, http, logging, oneshot, server, trace_view};

// Every message becomes a few small JSON trees and strings: mimalloc makes
// that a visible part of a warm call's cost smaller (scripts/bench-gateway).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let cli = match options::parse(std::env::args_os()) {
        Ok(cli) => cli,
        Err(code) => std::process::exit(code),
    };
    if let Some(Command::Trace { file, follow }) = &cli.command {
        std::process::exit(trace_view::print(file, *follow));
    }
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
        if let Some(Command::Attach(args)) = &cli.command {
            return match &args.call {
                Some(tool) => oneshot::call(Client::attach(&args.socket).await, tool, &args.arguments, args.json).await,
                None => attach::raw(&args.socket).await,
            };
        }
        // The HTTP socket is bound first: a refused flag starts no worker.
        let serving = matches!(cli.command, None | Some(Command::Serve));
        let listening = match cli.server.transport {
            Transport::Http if serving => match http::listen(&cli.server.http, cli.server.control.as_deref()).await {
                Ok(listening) => Some(listening),
                Err(problem) => {
                    eprintln!("rigor-mcp: {problem}");
                    return EXIT_USAGE;
                }
            },
            _ => None,
        };
        let gateway = match server::start_gateway(&cli.server, serving) {
            Ok(gateway) => gateway,
            Err(problem) => {
                eprintln!("rigor-mcp: {problem}");
                return EXIT_USAGE;
            }
        };
        let code = match &cli.command {
            None | Some(Command::Serve) => {
                let control = cli.server.control.as_deref();
                return match listening {
                    Some(listening) => http::serve(gateway, listening).await,
                    None => server::serve_stdio(gateway, control).await,
                };
            }
            Some(Command::Call(args)) => {
                oneshot::call(Client::in_process(gateway.clone()).await, &args.tool, &args.arguments, args.json).await
            }
            Some(Command::Tools { json }) => oneshot::tools(Client::in_process(gateway.clone()).await, *json).await,
            Some(Command::Attach(_) | Command::Trace { .. }) => unreachable!("handled above"),
        };
        gateway.supervisor.shutdown().await;
        code
    });
    // Exit without waiting for the runtime: a blocked stdin read would
    // otherwise hold the process open after shutdown.
    std::process::exit(code);
}
