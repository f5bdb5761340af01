//! Deeply nested Ruby (generated code, `1 + 1 + …` a million times) makes
//! every recursive tree walk deep. Rather than trusting a fixed depth limit,
//! walkers call [`ensure_room`] on the way down; when the thread's stack runs
//! low it unwinds to [`guarded`], which reports the file as too deep instead
//! of crashing the process.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

/// Stack that must stay free below the current frame.
const RED_ZONE: usize = 256 * 1024;

/// Stack size for threads that analyse files.
pub const ANALYSIS_STACK: usize = 256 * 1024 * 1024;

struct TooDeep;

/// Call on entering each node of a recursive walk.
#[inline]
pub fn ensure_room() {
    if stacker::remaining_stack().is_some_and(|left| left < RED_ZONE) {
        // resume_unwind skips the panic hook: this is control flow, not a bug.
        resume_unwind(Box::new(TooDeep));
    }
}

#[derive(Debug, PartialEq)]
pub enum Failure {
    TooDeep,
    Panic(String),
}

/// Runs `work`, turning a too-deep unwind or a panic into a `Failure`.
pub fn guarded<T>(work: impl FnOnce() -> T) -> Result<T, Failure> {
    catch_unwind(AssertUnwindSafe(work)).map_err(|payload| {
        if payload.is::<TooDeep>() {
            Failure::TooDeep
        } else if let Some(text) = payload.downcast_ref::<&str>() {
            Failure::Panic((*text).to_string())
        } else if let Some(text) = payload.downcast_ref::<String>() {
            Failure::Panic(text.clone())
        } else {
            Failure::Panic("unknown panic".to_string())
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recurse(n: u64) -> u64 {
        ensure_room();
        let pad = [n; 64];
        if n == 0 {
            0
        } else {
            recurse(n - 1) + std::hint::black_box(pad)[0] % 2
        }
    }

    #[test]
    fn deep_recursion_unwinds_instead_of_overflowing() {
        let outcome = std::thread::Builder::new()
            .stack_size(2 * 1024 * 1024)
            .spawn(|| guarded(|| recurse(10_000_000)))
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(outcome, Err(Failure::TooDeep));
    }

    #[test]
    fn shallow_work_passes_through() {
        assert_eq!(guarded(|| recurse(10)), Ok(5));
    }
}
