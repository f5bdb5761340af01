//! A file inferred again once the exports are folded in takes the export
//! pass's walk of each `def` whose reads stand (`infer::replay`). With
//! `RIGOR_REPLAY_CHECK` set, every such analysis is compared with a plain
//! inference of the same file and each difference is printed: these
//! tests hold the two equal on code that exercises what a replay must
//! reproduce (nested helpers, recursion, constants, loops, yields,
//! rescue bodies, ivars), through `check` (the rules' path) and
//! `coverage` (the type commands' path).

use std::path::Path;
use std::process::Command;

mod support;
use support::project;

const BASE: &str = "class Base
  def report(value)
    [value]
  end

  def config = { 'Enabled' => true }
end
";

/// `on_send` reads `Base#report`, whose return the exports change: it is
/// walked again, and what it calls is taken from the export pass.
const COP: &str = "require_relative 'base'

class Cop < Base
  MSG = 'use %s'
  LIMIT = [1, 2].freeze

  def initialize
    @count = 0
    @seen = []
  end

  def on_send(node)
    report(message(node)) if relevant?(node)
  end

  def message(node) = format(MSG, node.to_s)

  def relevant?(node)
    node.to_s.size < LIMIT.size && !@seen.include?(node)
  end

  def bump = @count += 1

  def counted(n)
    i = 0
    while i < n
      i += 1
    end
    i
  end

  def depth(n) = n > 0 ? depth(n - 1) + 1 : 0

  def even?(n) = n.zero? ? true : odd?(n - 1)

  def odd?(n) = n.zero? ? false : even?(n - 1)

  def parsed(text)
    Integer(text)
  rescue ArgumentError
    nil
  end

  def pairs
    yield 1, 'a'
    yield 2, 'b'
  end

  def joined
    out = []
    pairs { |n, s| out << \"#{n}#{s}\" }
    out.join(',')
  end

  def enabled? = config['Enabled'] == true

  def outer
    inner = -> (x) { x * 2 }
    inner.call(counted(3))
  end
end
";

const USE: &str = "require_relative 'cop'

cop = Cop.new
cop.on_send(:x)
cop.bump
cop.joined
cop.parsed('12')
";

/// Runs `rigor ARGS` in `dir` with the replay check on: stdout and stderr.
fn run_checked(dir: &Path, args: &[&str]) -> (String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_rigor"))
        .args(args)
        .env("RIGOR_REPLAY_CHECK", "1")
        .current_dir(dir)
        .output()
        .expect("rigor runs");
    (String::from_utf8_lossy(&output.stdout).into_owned(), String::from_utf8_lossy(&output.stderr).into_owned())
}

/// The counts the replay check printed after `prefix`, summed.
fn counted(stderr: &str, prefix: &str) -> usize {
    stderr
        .lines()
        .filter_map(|line| line.strip_prefix(prefix))
        .map(|n| n.trim().parse::<usize>().expect("a count"))
        .sum()
}

fn differences(stderr: &str) -> Vec<String> {
    stderr.lines().filter(|line| line.starts_with("REPLAY-DIFF")).map(String::from).collect()
}

/// Runs `rigor ARGS` in `dir` with the replay check on: stdout, and how
/// many `def`s the analyses took, and the differences found.
fn checked(dir: &Path, args: &[&str]) -> (String, usize, Vec<String>) {
    let (stdout, stderr) = run_checked(dir, args);
    (stdout, counted(&stderr, "REPLAY-TAKEN "), differences(&stderr))
}

fn fixture() -> tempfile::TempDir {
    project(&[("lib/base.rb", BASE), ("lib/cop.rb", COP), ("lib/use.rb", USE)])
}

#[test]
fn check_takes_standing_defs_and_infers_as_a_plain_walk_does() {
    let dir = fixture();
    let (stdout, taken, differences) = checked(dir.path(), &["check", "--format", "json", "--no-stats", "lib"]);
    assert!(differences.is_empty(), "replayed analysis differs from a plain one:\n{}", differences.join("\n"));
    assert!(taken >= 5, "the helpers on_send does not reach through Base#report are taken: {taken}");
    // The same report as a run whose export pass recorded nothing to take
    // (a one-file project has no exports changing under it).
    let _: serde_json::Value = serde_json::from_str(&stdout).expect("a JSON report");
}

/// Classes whose body is one `def`: their body's statements span exactly
/// the `def`, and are the class walk's, not the `def`'s.
const SOLO: &str = "require_relative 'base'

class Helper
  def twice(n) = n * 2
end

class Solo < Base
  def go(v)
    report(Helper.new.twice(v))
  end
end
";

#[test]
fn a_class_of_one_def_keeps_its_files_windows() {
    let dir = project(&[("lib/base.rb", BASE), ("lib/solo.rb", SOLO)]);
    let (_, taken, differences) = checked(dir.path(), &["check", "--format", "json", "--no-stats", "lib"]);
    assert!(differences.is_empty(), "replayed analysis differs from a plain one:\n{}", differences.join("\n"));
    // `go` reads `Base#report`, which the exports change; `twice` reads
    // nothing that changed and is taken.
    assert_eq!(taken, 1, "Helper#twice is taken, Solo#go walked again");
}

#[test]
fn coverage_takes_the_same_windows_through_the_type_commands_path() {
    let dir = fixture();
    let (stdout, taken, differences) = checked(dir.path(), &["coverage", "--format", "json", "lib"]);
    assert!(differences.is_empty(), "replayed types differ from a plain inference:\n{}", differences.join("\n"));
    assert!(taken >= 5, "coverage takes standing defs too: {taken}");
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("a JSON report");
    assert!(report["summary"]["precise_ratio"].as_f64().is_some());
}

#[test]
fn a_def_whose_read_changed_is_walked_again_with_the_folded_answer() {
    // `on_send` returns what `Base#report` returns: an Array once the
    // exports are in (the export pass saw `untyped`); a replay of the export
    // pass's walk would have kept `untyped`.
    let dir = fixture();
    let output = Command::new(env!("CARGO_BIN_EXE_rigor"))
        .args(["type-of", "--format", "json", "lib/cop.rb:13:5"])
        .current_dir(dir.path())
        .output()
        .expect("rigor runs");
    let answer: serde_json::Value = serde_json::from_slice(&output.stdout).expect("a JSON answer");
    assert_eq!(answer["type"], "[untyped]", "report(...) is typed from Base's def: {answer}");
}

/// Pass one reads `Base#report`, whose return the exports change, so an
/// analysis runs pass one again: `initialize` is walked again, while
/// `reset` and `add` read nothing that changed and are taken from the
/// export pass's pass one, with the instance variables they assign.
const TALLY: &str = "require_relative 'base'

class Tally < Base
  def initialize
    @log = report(1)
    reset
  end

  def reset
    @count = 0
    @names = []
  end

  def add(name)
    @names << name
    @count += 1
  end

  def count = @count

  def names = @names
end
";

/// How many `def`s the analyses' pass one took, and the differences found.
fn pass_one_taken(dir: &Path) -> (usize, Vec<String>) {
    let (_, stderr) = run_checked(dir, &["check", "--format", "json", "--no-stats", "lib"]);
    (counted(&stderr, "REPLAY-PASS-ONE-TAKEN "), differences(&stderr))
}

#[test]
fn a_pass_one_run_again_takes_the_defs_whose_reads_stand_with_their_assignments() {
    let dir = project(&[("lib/base.rb", BASE), ("lib/tally.rb", TALLY)]);
    let (taken, differences) = pass_one_taken(dir.path());
    assert!(differences.is_empty(), "replayed pass one differs from a plain one:\n{}", differences.join("\n"));
    assert_eq!(taken, 2, "reset and add are taken, initialize walked again");
    let output = Command::new(env!("CARGO_BIN_EXE_rigor"))
        .args(["check", "--format", "json", "lib"])
        .current_dir(dir.path())
        .output()
        .expect("rigor runs");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("a JSON report");
    let cache = &report["stats"]["cache"];
    assert_eq!(cache["pass_one_defs_standing"], 2, "the figures count them: {cache}");
    // What the taken `def`s assigned is in the table the readers see (as
    // in a cold walk: `initialize` calls `reset`, but whether it has run
    // is not followed through the call, so nil stays).
    let type_at = |position: &str| {
        let output = Command::new(env!("CARGO_BIN_EXE_rigor"))
            .args(["type-of", "--format", "json", position])
            .current_dir(dir.path())
            .output()
            .expect("rigor runs");
        let answer: serde_json::Value = serde_json::from_slice(&output.stdout).expect("a JSON answer");
        answer["type"].as_str().expect("a type").to_string()
    };
    assert_eq!(type_at("lib/tally.rb:19:15"), "0 | untyped | nil");
    assert_eq!(type_at("lib/tally.rb:21:15"), "Array[untyped]?");
}

/// `start` assigns `@mode` before it first calls `prepare`, which assigns
/// `@mode` too: taken alone, its assignment would come after `prepare`'s.
/// Its window is taken only when `prepare` was inferred before it.
const ORDERED: &str = "require_relative 'base'

class Ordered < Base
  def initialize
    @log = report(1)
    start
  end

  def start
    @mode = :start
    prepare
  end

  def prepare
    @mode = 'prepared'
  end

  def mode = @mode
end
";

#[test]
fn a_def_that_assigns_before_a_use_not_yet_inferred_is_walked() {
    let dir = project(&[("lib/base.rb", BASE), ("lib/ordered.rb", ORDERED)]);
    let (taken, differences) = pass_one_taken(dir.path());
    assert!(differences.is_empty(), "replayed pass one differs from a plain one:\n{}", differences.join("\n"));
    // `start` is met first (from `initialize`) with `prepare` not yet
    // inferred: walked. `prepare`, inferred inside it, is taken.
    assert_eq!(taken, 1, "only prepare is taken");
}

/// How many `def`s the export pass's pass two took from its pass one, and
/// the differences found.
fn export_taken(dir: &Path) -> (usize, Vec<String>) {
    let (_, stderr) = run_checked(dir, &["check", "--format", "json", "--no-stats", "lib"]);
    (counted(&stderr, "REPLAY-EXPORT-TAKEN "), differences(&stderr))
}

/// `initialize` calls `log` before it first calls `setup`, which calls
/// `log` too, with other arguments: the order of the two calls is the
/// order of `log`'s call shapes, which the project's parameter inference
/// reads. Pass two meets `initialize` before `setup` is inferred, so it
/// walks `initialize` again; `setup` and `log`, which read no instance
/// variable pass one had not learned, are taken from pass one.
const JOB: &str = "class Job
  def initialize
    @a = 1
    log(1)
    setup
  end

  def setup
    @b = 2
    log('x', 2)
  end

  def log(*args) = args

  def total = @a + @b
end

Job.new.total
";

#[test]
fn the_export_pass_takes_pass_ones_walks_keeping_the_order_of_what_they_record() {
    let dir = project(&[("lib/job.rb", JOB)]);
    let (taken, differences) = export_taken(dir.path());
    assert!(differences.is_empty(), "the export pass differs from a plain one:\n{}", differences.join("\n"));
    assert_eq!(taken, 2, "setup and log are taken; initialize, and total (which reads @a), are walked");
}
