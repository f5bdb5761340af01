use std::io::Write;

use rigor_engine::cli::{self, Io, Mode};

// Inference allocates many small types; mimalloc makes `check` over a
// large tree noticeably faster than the system allocator (scripts/corpus).
#[global_allocator]
static ALLOCATOR: Allocator = Allocator;

/// mimalloc, asked for plain blocks when the alignment is a word's or
/// less: every block mimalloc hands out is word-aligned, and its aligned
/// entry points cost twice the instructions per call.
struct Allocator;

const WORD: usize = std::mem::size_of::<usize>();

unsafe impl std::alloc::GlobalAlloc for Allocator {
    #[inline]
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        if layout.align() <= WORD {
            libmimalloc_sys::mi_malloc(layout.size()).cast()
        } else {
            libmimalloc_sys::mi_malloc_aligned(layout.size(), layout.align()).cast()
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        if layout.align() <= WORD {
            libmimalloc_sys::mi_zalloc(layout.size()).cast()
        } else {
            libmimalloc_sys::mi_zalloc_aligned(layout.size(), layout.align()).cast()
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: std::alloc::Layout) {
        libmimalloc_sys::mi_free(ptr.cast());
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        if layout.align() <= WORD {
            libmimalloc_sys::mi_realloc(ptr.cast(), new_size).cast()
        } else {
            libmimalloc_sys::mi_realloc_aligned(ptr.cast(), new_size, layout.align()).cast()
        }
    }
}

fn main() {
    // Unlocked handles: code that prints directly (it should not) must not
    // deadlock against a lock held here.
    let mut out = std::io::stdout();
    let mut err = std::io::stderr();
    let cwd = std::env::current_dir().unwrap_or_else(|_| "/".into());
    rigor_engine::workspace::one_shot_process();
    let code = {
        let mut io = Io { out: &mut out, err: &mut err, cwd };
        cli::run(std::env::args_os().skip(1), &mut io, Mode::Process)
    };
    let _ = out.flush();
    std::process::exit(code);
}
