//! Memory soak of the warm project model (a benchmark, not a test): one
//! `rigor worker` on a scratch copy of a real tree, EDITS random edits of
//! every kind the differential test makes (bodies, methods added, renamed
//! and removed, classes and files added and deleted, `sig/` and config
//! edits, ...), a warm `check` after each and a `coverage` every tenth.
//! Prints the worker's resident set after the first warm check and every
//! tenth of the way, as ratios to the first: the bound is 1.5×.
//!
//! Usage: memory-soak --rigor BIN --tree DIR [--edits N] [--seed S]
//! (DIR holds `lib/`; it is copied, never edited).

use std::path::{Path, PathBuf};
use std::time::Instant;

use protocol_tests::warm::{copy_tree, Project, Rng, Worker};

/// The worker's resident set and its high-water mark, in KiB (Linux).
fn rss_kib(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|kib| kib.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// What kind of edit a log line describes ("method added", "deleted",
/// "sig/rigor.rbs"), without the file it names.
fn kind_of(edit: &str) -> String {
    let words: Vec<&str> = edit.split_whitespace().collect();
    let kind: Vec<&str> = words
        .iter()
        .take(2)
        .take_while(|w| !w.contains('/'))
        .map(|w| if w.starts_with('@') { "ivar" } else { w.trim_end_matches(':') })
        .collect();
    if kind.is_empty() {
        words.first().map_or_else(String::new, |w| w.to_string())
    } else {
        kind.join(" ")
    }
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

struct Options {
    rigor: PathBuf,
    tree: PathBuf,
    edits: usize,
    seed: u64,
}

fn options() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let (mut rigor, mut tree, mut edits, mut seed) = (None, None, 1000, 2026);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--rigor" => rigor = Some(PathBuf::from(value()?)),
            "--tree" => tree = Some(PathBuf::from(value()?)),
            "--edits" => edits = value()?.parse().map_err(|e| format!("--edits: {e}"))?,
            "--seed" => seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(Options {
        rigor: rigor.ok_or("--rigor BIN is required")?,
        tree: tree.ok_or("--tree DIR is required")?,
        edits,
        seed,
    })
}

fn main() {
    let options = match options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("memory-soak: {message}\nusage: memory-soak --rigor BIN --tree DIR [--edits N] [--seed S]");
            std::process::exit(64);
        }
    };
    let scratch = tempfile::tempdir().expect("scratch directory");
    copy_tree(&options.tree.join("lib"), &scratch.path().join("lib"));
    let root = scratch.path().to_path_buf();
    let mut project = Project::new(root.clone(), "lib");
    let mut rng = Rng::new(options.seed);
    let mut worker = Worker::start(&options.rigor);
    let check = ["check", "--format=json", "--no-stats", "--", "lib"];
    let coverage = ["coverage", "--format=json", "lib"];
    let call = |worker: &mut Worker, argv: &[&str], root: &Path| {
        let (code, _, _) = worker.call(argv, root);
        assert!(code == 0 || code == 1, "`rigor {}` exited {code}", argv.join(" "));
    };
    // The cold call fills the model; the first warm call is the yardstick.
    call(&mut worker, &check, &root);
    call(&mut worker, &check, &root);
    let (first, _) = rss_kib(worker.pid());
    let mut rows = vec![(0, first)];
    let mut kinds: std::collections::BTreeMap<String, usize> = Default::default();
    let started = Instant::now();
    let every = (options.edits / 10).max(1);
    for step in 1..=options.edits {
        let edit = project.edit(&mut rng);
        *kinds.entry(kind_of(&edit)).or_default() += 1;
        call(&mut worker, &check, &root);
        if step % 10 == 0 {
            call(&mut worker, &coverage, &root);
        }
        if step % every == 0 || step == options.edits {
            rows.push((step, rss_kib(worker.pid()).0));
        }
    }
    let (last, peak) = rss_kib(worker.pid());
    println!(
        "memory soak: {} random edits of {} (seed {}), {:.0} s\n",
        options.edits,
        options.tree.display(),
        options.seed,
        started.elapsed().as_secs_f64()
    );
    println!("| edit/check cycles | worker RSS | vs first warm check |");
    println!("|---|---|---|");
    for (step, rss) in &rows {
        println!("| {step} | {:.1} MiB | {:.2}× |", mib(*rss), *rss as f64 / first.max(1) as f64);
    }
    let ratio = last as f64 / first.max(1) as f64;
    println!(
        "\npeak RSS over the soak: {:.1} MiB ({:.2}× the first warm check)",
        mib(peak),
        peak as f64 / first.max(1) as f64
    );
    println!(
        "after {} cycles: {ratio:.2}× the first warm check (bound 1.5×): {}",
        options.edits,
        if ratio <= 1.5 { "met" } else { "MISSED" }
    );
    let mut kinds: Vec<_> = kinds.into_iter().collect();
    kinds.sort_by_key(|kind| std::cmp::Reverse(kind.1));
    let mix: Vec<String> = kinds.iter().map(|(kind, n)| format!("{n} {kind}")).collect();
    println!("edits made: {}", mix.join(", "));
}
