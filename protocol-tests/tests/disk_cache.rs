//! The persistent cache (`--cache-dir`, `cache_dir:`): a fresh process
//! starts warm from it and answers exactly as one without it; a corrupt,
//! truncated or foreign cache is ignored with one warning and rebuilt; an
//! unwritable one warns once and the run goes on.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use protocol_tests::warm::{copy_tree, run_with_disk_cache, Project, Worker};
use protocol_tests::{bin, fixtures};
use serde_json::Value;

/// A scratch copy of the cross-file fixture project.
fn project() -> tempfile::TempDir {
    let scratch = tempfile::tempdir().expect("scratch");
    copy_tree(&fixtures().join("warm-project"), scratch.path());
    scratch
}

fn check(root: &Path, flags: &[&str]) -> Output {
    Command::new(bin("rigor"))
        .args(["check", "--format=json"])
        .args(flags)
        .args(["--", "lib"])
        .current_dir(root)
        .output()
        .expect("rigor check")
}

fn cache_flag(dir: &Path) -> String {
    format!("--cache-dir={}", dir.display())
}

/// The answer without its timing and cache figures.
fn answer(output: &Output) -> Value {
    let mut value: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    value.as_object_mut().expect("object").remove("stats");
    value
}

fn figures(output: &Output) -> Value {
    let value: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    value["stats"]["cache"].clone()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn warnings(output: &Output) -> usize {
    stderr(output).lines().filter(|line| line.contains("cache warning")).count()
}

/// The cache's pack files (one per project root and engine build).
fn packs(cache: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for build in std::fs::read_dir(cache).expect("cache dir").flatten() {
        for entry in std::fs::read_dir(build.path()).expect("build dir").flatten() {
            if entry.file_name().to_string_lossy().ends_with(".pack") {
                out.push(entry.path());
            }
        }
    }
    out.sort();
    out
}

/// A pack's entries, each whole: magic (8), format (4), build length (2),
/// build, context and content hash (32), payload length (8), checksum (8),
/// payload.
fn split_entries(bytes: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let build = u16::from_le_bytes([bytes[at + 12], bytes[at + 13]]) as usize;
        let length_at = at + 14 + build + 32;
        let length = u64::from_le_bytes(bytes[length_at..length_at + 8].try_into().expect("8 bytes")) as usize;
        let end = length_at + 16 + length;
        out.push(&bytes[at..end]);
        at = end;
    }
    out
}

/// The file an entry is for: its payload opens with the root and the path,
/// each a postcard string (a varint length, then the bytes).
fn entry_path(entry: &[u8]) -> String {
    let build = u16::from_le_bytes([entry[12], entry[13]]) as usize;
    let mut at = 14 + build + 32 + 16;
    let mut string = || {
        let (mut length, mut shift) = (0usize, 0);
        loop {
            let byte = entry[at];
            at += 1;
            length |= usize::from(byte & 0x7f) << shift;
            shift += 7;
            if byte & 0x80 == 0 {
                break;
            }
        }
        at += length;
        String::from_utf8_lossy(&entry[at - length..at]).into_owned()
    };
    let root = string();
    format!("{root}/{}", string())
}

/// How many files the cache holds entries for (an edited file's older
/// entries, superseded, do not count).
fn entries(cache: &Path) -> usize {
    let mut files = std::collections::BTreeSet::new();
    for pack in packs(cache) {
        files.extend(split_entries(&std::fs::read(pack).expect("pack")).into_iter().map(entry_path));
    }
    files.len()
}

#[test]
fn a_fresh_process_starts_warm_from_the_disk_cache_and_answers_the_same() {
    let root = project();
    let cache = root.path().join("cache");
    let plain = check(root.path(), &["--no-stats"]);
    let first = check(root.path(), &[&cache_flag(&cache)]);
    assert_eq!(answer(&first), answer(&plain), "a cold run filling the cache answers as one without");
    let files = figures(&first)["project_files"].as_u64().expect("project files");
    assert!(files >= 4, "{}", figures(&first));
    assert_eq!(entries(&cache) as u64, files, "one entry per project file");

    let second = check(root.path(), &[&cache_flag(&cache)]);
    assert_eq!(answer(&second), answer(&first));
    assert_eq!(second.status.code(), first.status.code());
    let cache_figures = figures(&second);
    assert_eq!(cache_figures["disk_loaded"], files, "{cache_figures}");
    for derived in ["facts_derived", "exports_derived", "reanalysed", "reinferred"] {
        assert_eq!(cache_figures[derived], 0, "{derived}: {cache_figures}");
    }
    assert_eq!(warnings(&second), 0, "{}", stderr(&second));
    // Without stats the bytes are the same too.
    let (a, b) = (check(root.path(), &["--no-stats", &cache_flag(&cache)]), check(root.path(), &["--no-stats"]));
    assert_eq!(a.stdout, b.stdout);
}

#[test]
fn an_edit_between_processes_is_seen_and_only_what_it_touches_is_redone() {
    let root = project();
    let cache = root.path().join("cache");
    check(root.path(), &[&cache_flag(&cache)]);
    let file = root.path().join("lib/report.rb");
    let mut text = std::fs::read_to_string(&file).expect("read");
    text.push_str("\nShop::Item.new(1).rigor_typo_between_runs\n");
    std::fs::write(&file, text).expect("edit");
    let cached = check(root.path(), &[&cache_flag(&cache)]);
    let plain = check(root.path(), &[]);
    assert_eq!(answer(&cached), answer(&plain));
    assert!(String::from_utf8_lossy(&cached.stdout).contains("rigor_typo_between_runs"), "the edit is seen");
    let cache_figures = figures(&cached);
    assert_eq!(cache_figures["facts_derived"], 1, "{cache_figures}");
    let files = cache_figures["project_files"].as_u64().expect("files");
    assert!(cache_figures["reanalysed"].as_u64().expect("reanalysed") < files, "{cache_figures}");
    // A deleted file's entry goes with it.
    let before = entries(&cache);
    std::fs::remove_file(&file).expect("delete");
    let after_delete = check(root.path(), &[&cache_flag(&cache)]);
    assert_eq!(answer(&after_delete), answer(&check(root.path(), &[])));
    assert_eq!(entries(&cache), before - 1, "no entry left behind for a file that is gone");
}

/// Breaks an entry's bytes one way.
type Corruption = fn(&[u8]) -> Vec<u8>;

/// Ways to break an entry: each must be ignored with one warning.
fn corruptions() -> Vec<(&'static str, Corruption)> {
    vec![
        ("truncated", |bytes| bytes[..bytes.len() / 2].to_vec()),
        ("empty", |_| Vec::new()),
        ("header only", |bytes| bytes[..20.min(bytes.len())].to_vec()),
        ("a flipped payload byte", |bytes| {
            let mut out = bytes.to_vec();
            let at = out.len() - 3;
            out[at] ^= 0x5a;
            out
        }),
        ("garbage", |bytes| (0..bytes.len()).map(|i| (i * 7 + 3) as u8).collect()),
        ("another build id", |bytes| {
            // magic (8), format (4), build length (2), then the build id.
            let mut out = bytes.to_vec();
            let len = u16::from_le_bytes([out[12], out[13]]) as usize;
            for byte in &mut out[14..14 + len] {
                *byte = if *byte == b'0' { b'1' } else { b'0' };
            }
            out
        }),
        ("another format", |bytes| {
            let mut out = bytes.to_vec();
            out[8..12].copy_from_slice(&99u32.to_le_bytes());
            out
        }),
    ]
}

#[test]
fn a_corrupt_cache_is_ignored_with_one_warning_and_rebuilt() {
    let root = project();
    let plain = check(root.path(), &[]);
    for (what, corrupt) in corruptions() {
        let cache = root.path().join(format!("cache-{}", what.replace(' ', "-")));
        check(root.path(), &[&cache_flag(&cache)]);
        // Every entry broken the same way: still exactly one warning (none
        // when every entry is emptied away: an empty pack is a sound one).
        for pack in packs(&cache) {
            let bytes = std::fs::read(&pack).expect("pack");
            let broken: Vec<u8> = split_entries(&bytes).into_iter().flat_map(corrupt).collect();
            std::fs::write(&pack, broken).expect("corrupt");
        }
        let broken = check(root.path(), &[&cache_flag(&cache)]);
        assert_eq!(answer(&broken), answer(&plain), "{what}: the answer is a cold run's");
        assert_eq!(broken.status.code(), plain.status.code(), "{what}");
        let expected = usize::from(what != "empty");
        assert_eq!(warnings(&broken), expected, "{what}: one warning\n{}", stderr(&broken));
        assert_eq!(figures(&broken)["disk_loaded"], 0, "{what}");
        // Rebuilt: the next process reads it back, silently.
        let healed = check(root.path(), &[&cache_flag(&cache)]);
        assert_eq!(answer(&healed), answer(&plain), "{what}");
        assert_eq!(warnings(&healed), 0, "{what}: {}", stderr(&healed));
        assert_eq!(figures(&healed)["disk_loaded"], figures(&healed)["project_files"], "{what}");
    }
}

#[test]
fn entries_after_a_damaged_one_still_load_and_the_pack_is_mended() {
    let root = project();
    let cache = root.path().join("cache");
    let first = check(root.path(), &[&cache_flag(&cache)]);
    let files = figures(&first)["project_files"].as_u64().expect("files");
    let pack = packs(&cache).pop().expect("a pack");
    let bytes = std::fs::read(&pack).expect("pack");
    // The first entry's payload flipped, and a torn entry (a writer that
    // died mid-append) at the end.
    let entries = split_entries(&bytes);
    let mut damaged = entries[0].to_vec();
    let last = damaged.len() - 1;
    damaged[last] ^= 0x5a;
    for entry in &entries[1..] {
        damaged.extend_from_slice(entry);
    }
    damaged.extend_from_slice(&entries[1][..entries[1].len() / 2]);
    std::fs::write(&pack, damaged).expect("damage");
    let broken = check(root.path(), &[&cache_flag(&cache)]);
    assert_eq!(answer(&broken), answer(&first));
    assert_eq!(warnings(&broken), 1, "{}", stderr(&broken));
    assert_eq!(figures(&broken)["disk_loaded"].as_u64(), Some(files - 1), "all but the damaged entry load");
    let mended = check(root.path(), &[&cache_flag(&cache)]);
    assert_eq!(warnings(&mended), 0, "{}", stderr(&mended));
    assert_eq!(figures(&mended)["disk_loaded"].as_u64(), Some(files));
    assert_eq!(split_entries(&std::fs::read(&pack).expect("pack")).len() as u64, files, "rewritten without the damage");
}

#[test]
fn an_unwritable_cache_warns_once_and_the_run_goes_on() {
    let root = project();
    // A file where the directory should be: nothing can be created under it.
    let blocked = root.path().join("not-a-directory");
    std::fs::write(&blocked, "x").expect("file");
    let plain = check(root.path(), &[]);
    let run = check(root.path(), &[&cache_flag(&blocked.join("cache"))]);
    assert_eq!(answer(&run), answer(&plain));
    assert_eq!(warnings(&run), 1, "{}", stderr(&run));
    assert!(stderr(&run).contains("running without it"), "{}", stderr(&run));
}

#[test]
fn the_config_key_names_the_cache_and_the_worker_starts_warm_from_it() {
    let root = project();
    std::fs::write(root.path().join(".rigor.yml"), "cache_dir: .cache/rigor\n").expect("config");
    let first = check(root.path(), &[]);
    let value: Value = serde_json::from_slice(&first.stdout).expect("JSON");
    assert!(value.get("config_warnings").is_none(), "cache_dir is a known key: {value}");
    let cache = root.path().join(".cache/rigor");
    let files = figures(&first)["project_files"].as_u64().expect("files");
    assert_eq!(entries(&cache) as u64, files);
    // A new worker (an MCP client's, after a restart) reads it through the
    // same config key.
    let mut worker = Worker::start(&bin("rigor"));
    let (_, out, _) = worker.call(&["check", "--format=json", "--", "lib"], root.path());
    let value: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(value["stats"]["cache"]["disk_loaded"], files, "{}", value["stats"]);
    assert_eq!(value["stats"]["cache"]["reanalysed"], 0, "{}", value["stats"]);
    let mut expected = answer(&first);
    let mut got = value;
    got.as_object_mut().expect("object").remove("stats");
    expected.as_object_mut().expect("object").remove("stats");
    assert_eq!(got, expected);
    // The other commands that build the project read and write it too.
    let typed = Command::new(bin("rigor"))
        .args(["type-of", "--format=json", "lib/report.rb:14:52"])
        .current_dir(root.path())
        .output()
        .expect("type-of");
    let typed: Value = serde_json::from_slice(&typed.stdout).expect("JSON");
    assert_eq!(typed["type"], "1024", "{typed}");
}

#[test]
fn a_disk_cache_answers_as_no_cache_after_each_random_edit() {
    let edits = std::env::var("RIGOR_DISK_EDITS").ok().and_then(|n| n.parse().ok()).unwrap_or(20);
    let scratch = project();
    let cache = tempfile::tempdir().expect("cache");
    let mut project = Project::new(scratch.path().to_path_buf(), "lib");
    let mut steps = 0;
    run_with_disk_cache(&bin("rigor"), &mut project, cache.path(), 2027, edits, |_, step| {
        steps += 1;
        eprintln!("{steps:>3}. {} (cached {:?}, plain {:?})", step.edit, step.warm, step.cold);
    });
    assert_eq!(steps, edits);
}

/// The same on real code, when `scripts/test` points `RIGOR_WARM_CORPUS`
/// at a slice of Debian's rubocop.
#[test]
fn a_disk_cache_answers_as_no_cache_on_a_real_corpus() {
    let Some(corpus) = std::env::var_os("RIGOR_WARM_CORPUS") else {
        eprintln!("RIGOR_WARM_CORPUS is not set (scripts/test sets it): nothing to compare");
        return;
    };
    let edits = std::env::var("RIGOR_DISK_CORPUS_EDITS").ok().and_then(|n| n.parse().ok()).unwrap_or(15);
    let scratch = tempfile::tempdir().expect("scratch");
    copy_tree(Path::new(&corpus), scratch.path());
    let cache = tempfile::tempdir().expect("cache");
    let mut project = Project::new(scratch.path().to_path_buf(), "lib");
    run_with_disk_cache(&bin("rigor"), &mut project, cache.path(), 2028, edits, |step, s| {
        eprintln!("{:>3}. {} (cached {:?}, plain {:?})", step + 1, s.edit, s.warm, s.cold);
    });
}

#[test]
fn another_builds_directory_unused_for_a_week_is_removed_and_a_recent_one_kept() {
    let root = project();
    let cache = tempfile::tempdir().expect("cache");
    let stale = cache.path().join("v1-0123456789abcdef-feed");
    let recent = cache.path().join("v1-fedcba9876543210-beef");
    for dir in [&stale, &recent] {
        std::fs::create_dir_all(dir).expect("an older build's directory");
        std::fs::write(dir.join("entry"), b"old").expect("an old entry");
    }
    let eight_days_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(8 * 24 * 3600);
    std::fs::File::open(&stale).expect("open dir").set_modified(eight_days_ago).expect("age the directory");
    let run = check(root.path(), &[&cache_flag(cache.path())]);
    assert!(run.status.success() || run.status.code() == Some(1), "{}", stderr(&run));
    assert!(!stale.exists(), "a directory unused for eight days stays");
    assert!(recent.exists(), "a directory written to today was removed");
    let builds = std::fs::read_dir(cache.path()).expect("cache dir").count();
    assert_eq!(builds, 2, "the recent directory and this build's");
}
