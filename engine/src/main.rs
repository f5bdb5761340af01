use std::io::Write;

use rigor_engine::cli::{self, Io, Mode};

// Inference allocates many small types; mimalloc makes `check` over a
// large tree noticeably faster than the system allocator (scripts/corpus).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    // Unlocked handles: code that prints directly (it should not) must not
    // deadlock against a lock held here.
    let mut out = std::io::stdout();
    let mut err = std::io::stderr();
    let cwd = std::env::current_dir().unwrap_or_else(|_| "/".into());
    let code = {
        let mut io = Io { out: &mut out, err: &mut err, cwd };
        cli::run(std::env::args_os().skip(1), &mut io, Mode::Process)
    };
    let _ = out.flush();
    std::process::exit(code);
}
