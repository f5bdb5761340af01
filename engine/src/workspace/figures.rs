//! What the warm model did for one call: reported in `check`'s stats and
//! in the worker's result, so a slow call can be told from a cold one.

use serde::Serialize;

#[derive(Debug, Clone, Default, Serialize)]
pub struct CacheFigures {
    /// Files of the project this call (the config's `paths` and the targets).
    pub project_files: usize,
    /// Files the workspace holds after the call.
    pub files_cached: usize,
    /// Files read again because their stat changed (new content or new files).
    pub reread: usize,
    /// Files read again because their stat could not be trusted, found unchanged.
    pub rehashed: usize,
    /// Files whose derived values were read from the persistent cache
    /// (`--cache-dir`), not in memory before the call.
    pub disk_loaded: usize,
    /// Files whose facts (classes, methods, constants) were derived again.
    pub facts_derived: usize,
    /// Files inferred again for what they export to the others.
    pub exports_derived: usize,
    /// Target files analysed again (the rest reused their last report).
    pub reanalysed: usize,
    /// Of those, files inferred again (the rest reused this call's export
    /// inference, the exports having changed nothing they read).
    pub reinferred: usize,
    /// Of those, files whose inference started after pass one, taking
    /// what the export pass's pass one learned of their instance variables
    /// (the exports having changed nothing that pass read).
    pub pass_one_reused: usize,
    /// The `def`s of the files inferred again whose export-pass walk read
    /// nothing the folded exports answer otherwise: the analysis takes
    /// each one's types where a cold walk would infer it, when what it used
    /// came out the same (see `infer::replay`).
    pub defs_standing: usize,
    /// The same for pass one, where it runs again: the `def`s whose walk
    /// by the export pass's pass one read nothing that changed, which the
    /// analysis's pass one takes (with the instance-variable assignments
    /// they made) where a cold walk would infer them.
    pub pass_one_defs_standing: usize,
    /// What became of the project index: `kept` (no file changed),
    /// `cut off` (files changed, but nothing another file reads: the last
    /// index stands), `refolded` (same structure, new exports) or `rebuilt`.
    pub index: &'static str,
    /// Time spent in the model, in milliseconds.
    pub millis: f64,
    /// The same, by step.
    pub phases: Phases,
}

/// Milliseconds per step of a call (see `workspace`).
#[derive(Debug, Clone, Default, Serialize)]
pub struct Phases {
    pub look: f64,
    pub disk: f64,
    pub facts: f64,
    pub structure: f64,
    pub exports: f64,
    pub fold: f64,
    pub analysis: f64,
}
