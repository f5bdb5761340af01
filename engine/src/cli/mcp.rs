//! `rigor mcp …` hands over to the gateway binary, so ADR-33's documented
//! `rigor mcp --transport stdio` works with the Rust gateway.

use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;

use super::{Io, EXIT_UNAVAILABLE};

const GATEWAY: &str = "rigor-mcp";

/// The gateway beside this executable, else the one on PATH.
fn locate_gateway() -> Option<PathBuf> {
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join(GATEWAY)))
        .filter(|path| path.is_file());
    beside.or_else(|| which::which(GATEWAY).ok())
}

pub fn exec_gateway(args: &[OsString], io: &mut Io<'_>) -> i32 {
    let Some(gateway) = locate_gateway() else {
        let _ = writeln!(
            io.err,
            "rigor: cannot find `{GATEWAY}` beside this executable or on PATH; build it with `cargo build -p rigor-gateway`"
        );
        return EXIT_UNAVAILABLE;
    };
    let _ = io.out.flush();
    // exec only returns on failure.
    let error = std::process::Command::new(&gateway).args(args).exec();
    let _ = writeln!(io.err, "rigor: cannot run {}: {error}", gateway.display());
    EXIT_UNAVAILABLE
}
