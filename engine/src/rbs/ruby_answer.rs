//! Where the `ruby` on PATH keeps its rbs gem, remembered across runs.
//!
//! Asking costs 60 to 80 ms (RubyGems reads every installed gemspec),
//! more than parsing the core signatures themselves, and a one-shot run
//! would pay it every time. The answer is kept in the user's cache
//! directory (`$XDG_CACHE_HOME/rigor`, else `~/.cache/rigor`) under a key
//! of everything it depends on:
//! - the Ruby binary (its real path, size, mtime, inode);
//! - the environment variables RubyGems reads;
//! - the gem directories Ruby searched (`Gem.path`), each with the mtime
//!   of its `specifications/`, which installing or removing a gem changes.
//!
//! A `ruby` that is a script (rbenv's or asdf's shims, which pick a Ruby
//! by the directory and the environment) is asked every time.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use wait_timeout::ChildExt;

use serde::{Deserialize, Serialize};

/// What RubyGems reads to decide where gems are.
const GEM_ENVIRONMENT: &[&str] = &[
    "GEM_HOME",
    "GEM_PATH",
    "GEM_SPEC_CACHE",
    "RUBYOPT",
    "RUBYLIB",
    "RUBYGEMS_GEMDEPS",
    "BUNDLE_GEMFILE",
    "BUNDLE_PATH",
    "HOME",
    "XDG_DATA_HOME",
];

/// How long Ruby may take to answer. It takes 60 to 80 ms; one that hangs
/// (a `RUBYOPT` library waiting on the network) must not hang every run.
const ANSWER_WITHIN: Duration = Duration::from_secs(20);

/// Bumped when the entry's meaning changes.
const FORMAT: u32 = 1;

/// Prints the rbs gem's directory (or nothing), then `Gem.path`, a line each.
const QUESTION: &str = "begin; print Gem::Specification.find_by_name('rbs').gem_dir; rescue Exception; end; \
                        print \"\\n\"; begin; print Gem.path.join(\"\\n\"); rescue Exception; end";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Key {
    format: u32,
    ruby: PathBuf,
    /// (size, mtime in ns, inode) of the binary.
    binary: (u64, i128, u64),
    environment: Vec<(String, Option<String>)>,
}

#[derive(Debug, Serialize, Deserialize)]
struct Entry {
    key: Key,
    /// Each searched gem directory, with its `specifications/` mtime.
    searched: Vec<(PathBuf, Option<i128>)>,
    answer: Option<PathBuf>,
}

/// The rbs gem directory `ruby` reports (it may hold no `core/`: the
/// caller checks), from the cache when nothing it depends on changed.
pub fn rbs_gem_dir(ruby: &Path) -> Option<PathBuf> {
    let Some(key) = key_of(ruby) else { return ask(ruby, ANSWER_WITHIN)?.answer };
    let file = cache_file();
    if let Some(entry) = file.as_deref().and_then(read_entry) {
        if entry.key == key && entry.searched.iter().all(|(dir, seen)| specifications_mtime(dir) == *seen) {
            return entry.answer;
        }
    }
    // A Ruby that did not answer in time is asked again next run.
    let answer = ask(ruby, ANSWER_WITHIN)?;
    let entry = Entry { key, searched: answer.searched, answer: answer.answer };
    if let Some(file) = file {
        write_entry(&file, &entry);
    }
    entry.answer
}

/// What one question to Ruby found.
struct Answer {
    answer: Option<PathBuf>,
    searched: Vec<(PathBuf, Option<i128>)>,
}

/// `None`: Ruby did not answer within `deadline` (it is killed). A Ruby
/// that cannot be started answers nothing, which is kept like any answer.
fn ask(ruby: &Path, deadline: Duration) -> Option<Answer> {
    let output = match Command::new(ruby)
        .args(["-e", QUESTION])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    {
        Ok(mut child) => {
            let stop = |mut child: std::process::Child| {
                let _ = child.kill();
                let _ = child.wait();
            };
            // Read beside the wait, so that no answer fills the pipe and
            // stalls Ruby until the deadline.
            let Some(mut stdout) = child.stdout.take() else {
                stop(child);
                return None;
            };
            let reader = std::thread::spawn(move || {
                let mut bytes = Vec::new();
                let _ = stdout.read_to_end(&mut bytes);
                bytes
            });
            match child.wait_timeout(deadline) {
                Ok(Some(_)) => String::from_utf8(reader.join().unwrap_or_default()).unwrap_or_default(),
                // Still running (or not to be waited for): the reader is
                // left to end with the pipe.
                _ => {
                    stop(child);
                    return None;
                }
            }
        }
        Err(_) => String::new(),
    };
    let mut lines = output.lines();
    let answer = lines.next().map(str::trim).filter(|dir| !dir.is_empty()).map(PathBuf::from);
    let searched = lines
        .map(str::trim)
        .filter(|dir| !dir.is_empty())
        .map(|dir| (PathBuf::from(dir), specifications_mtime(Path::new(dir))))
        .collect();
    Some(Answer { answer, searched })
}

/// The key for `ruby`, or `None` when its answer cannot be kept (a
/// script, or a binary that cannot be looked at).
fn key_of(ruby: &Path) -> Option<Key> {
    let real = std::fs::canonicalize(ruby).ok()?;
    if is_script(&real) {
        return None;
    }
    let meta = std::fs::metadata(&real).ok()?;
    let environment = GEM_ENVIRONMENT.iter().map(|name| (name.to_string(), std::env::var(name).ok())).collect();
    Some(Key { format: FORMAT, ruby: real, binary: (meta.len(), mtime_ns(&meta)?, inode(&meta)), environment })
}

fn is_script(path: &Path) -> bool {
    use std::io::Read;
    let mut start = [0u8; 2];
    std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut start)).map_or(true, |()| start == *b"#!")
}

fn specifications_mtime(dir: &Path) -> Option<i128> {
    mtime_ns(&std::fs::metadata(dir.join("specifications")).ok()?)
}

fn mtime_ns(meta: &std::fs::Metadata) -> Option<i128> {
    let modified = meta.modified().ok()?;
    Some(match modified.duration_since(std::time::UNIX_EPOCH) {
        Ok(after) => after.as_nanos() as i128,
        Err(before) => -(before.duration().as_nanos() as i128),
    })
}

#[cfg(unix)]
fn inode(meta: &std::fs::Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::ino(meta)
}

#[cfg(not(unix))]
fn inode(_: &std::fs::Metadata) -> u64 {
    0
}

/// `rbs-gem.json` in the user's cache directory.
fn cache_file() -> Option<PathBuf> {
    Some(crate::cache_files::user_cache_dir()?.join("rbs-gem.json"))
}

/// A missing, unreadable or foreign entry is no entry: Ruby is asked.
fn read_entry(file: &Path) -> Option<Entry> {
    serde_json::from_slice(&std::fs::read(file).ok()?).ok()
}

/// A directory that cannot be written keeps no entry: Ruby is asked next time.
fn write_entry(file: &Path, entry: &Entry) {
    let Some(dir) = file.parent() else { return };
    if let (Ok(()), Ok(text)) = (std::fs::create_dir_all(dir), serde_json::to_vec(entry)) {
        let _ = crate::cache_files::write_atomically(file, &text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;
    use std::time::Instant;

    fn fake_ruby(dir: &Path, body: &str) -> PathBuf {
        let path = dir.join("ruby");
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    #[test]
    fn a_ruby_that_answers_gives_its_gem_dir_and_search_path() {
        let dir = tempfile::tempdir().unwrap();
        let ruby = fake_ruby(dir.path(), "printf '/x/rbs-3\\n/gems/a\\n/gems/b'");
        let answer = ask(&ruby, Duration::from_secs(20)).expect("answered");
        assert_eq!(answer.answer, Some(PathBuf::from("/x/rbs-3")));
        let searched: Vec<_> = answer.searched.into_iter().map(|(dir, _)| dir).collect();
        assert_eq!(searched, [PathBuf::from("/gems/a"), PathBuf::from("/gems/b")]);
    }

    #[test]
    fn a_ruby_that_hangs_is_stopped_at_the_deadline_and_gives_no_answer() {
        let dir = tempfile::tempdir().unwrap();
        let ruby = fake_ruby(dir.path(), "exec sleep 30");
        let started = Instant::now();
        assert!(ask(&ruby, Duration::from_millis(300)).is_none());
        assert!(started.elapsed() < Duration::from_secs(10), "waited {:?}", started.elapsed());
    }

    #[test]
    fn a_ruby_that_cannot_start_answers_nothing() {
        let answer = ask(Path::new("/nonexistent/ruby"), Duration::from_secs(1)).expect("an empty answer");
        assert_eq!(answer.answer, None);
        assert!(answer.searched.is_empty());
    }
}
