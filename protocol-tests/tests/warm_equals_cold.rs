//! Warm equals cold: after every one of a seeded sequence of random edits
//! to a copy of a Ruby project, the persistent worker's `check` output is
//! byte for byte a fresh process's. On the bundled cross-file fixture
//! project, and on `RIGOR_WARM_CORPUS` (a directory holding `lib/`: a
//! slice of Debian's rubocop, which `scripts/test` fetches).
//! `scripts/warm-vs-cold` runs a longer sequence on whole corpora.

use protocol_tests::warm::{copy_tree, run, Project};
use protocol_tests::{bin, fixtures};

fn edits() -> usize {
    std::env::var("RIGOR_WARM_EDITS").ok().and_then(|n| n.parse().ok()).unwrap_or(60)
}

fn differential(source: &std::path::Path, edits: usize) {
    let scratch = tempfile::tempdir().expect("scratch");
    copy_tree(source, scratch.path());
    let mut project = Project::new(scratch.path().to_path_buf(), "lib");
    let seed = std::env::var("RIGOR_WARM_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(2026);
    let mut steps = 0;
    run(&bin("rigor"), &mut project, seed, edits, |_, step| {
        steps += 1;
        eprintln!("{:>3}. {} (warm {:?}, cold {:?})", steps, step.edit, step.warm, step.cold);
    });
    assert_eq!(steps, edits);
}

#[test]
fn warm_check_equals_cold_check_after_each_random_edit() {
    differential(&fixtures().join("warm-project"), edits());
}

/// The same on real code: `scripts/test` points `RIGOR_WARM_CORPUS` at a
/// slice of Debian's rubocop.
#[test]
fn warm_check_equals_cold_check_on_a_real_corpus() {
    let Some(corpus) = std::env::var_os("RIGOR_WARM_CORPUS") else {
        eprintln!("RIGOR_WARM_CORPUS is not set (scripts/test sets it): nothing to compare");
        return;
    };
    let edits = std::env::var("RIGOR_WARM_CORPUS_EDITS").ok().and_then(|n| n.parse().ok()).unwrap_or(50);
    differential(std::path::Path::new(&corpus), edits);
}

#[test]
fn the_fixture_project_is_analysed_across_files() {
    // The differential test is only worth something if the model matters:
    // the fixture's cross-file typo is found, and cross-file calls are typed.
    let rigor = bin("rigor");
    let root = fixtures().join("warm-project");
    let out = std::process::Command::new(&rigor)
        .args(["check", "--format=json", "--no-stats", "--", "lib"])
        .current_dir(&root)
        .output()
        .expect("rigor check");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("undefined method `lable` for Shop::Item"), "{text}");
    // A private helper's parameter is what another file's call passes.
    assert!(text.contains("undefined method `upcase` for 3"), "{text}");
    // ...and one it hands on is what its callers' callers pass.
    assert!(text.contains("undefined method `downcase` for 7"), "{text}");
    let typed = std::process::Command::new(&rigor)
        .args(["type-of", "--format=json", "lib/report.rb:14:52"])
        .current_dir(&root)
        .output()
        .expect("rigor type-of");
    let answer: serde_json::Value = serde_json::from_slice(&typed.stdout).expect("json");
    assert_eq!(answer["type"], "1024", "{answer}");
}

/// Edits one file of the project in place; the edit must apply.
fn edit(path: &std::path::Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).expect("read the file to edit");
    let edited = text.replace(from, to);
    assert_ne!(edited, text, "the fixture still has the line the edit follows");
    std::fs::write(path, edited).expect("write the edit");
}

/// The warm worker's `check` of `lib` (stats left out) equals a fresh
/// process's, byte for byte.
fn assert_warm_equals_cold(rigor: &std::path::Path, worker: &mut protocol_tests::warm::Worker, root: &std::path::Path) {
    let cold = std::process::Command::new(rigor)
        .args(["check", "--format=json", "--no-stats", "--", "lib"])
        .current_dir(root)
        .output()
        .expect("cold rigor check");
    let (_, warm_plain, _) = worker.call(&["check", "--format=json", "--no-stats", "--", "lib"], root);
    assert_eq!(warm_plain, String::from_utf8_lossy(&cold.stdout));
}

/// The fixture project with `lib/shop/till.rb`, whose `Till#change`
/// calls `Money#rounded`, which `Money` lacks (see
/// [`add_the_missing_method`]).
fn project_calling_a_missing_method() -> tempfile::TempDir {
    let scratch = tempfile::tempdir().expect("scratch");
    copy_tree(&fixtures().join("warm-project"), scratch.path());
    std::fs::write(
        scratch.path().join("lib/shop/till.rb"),
        "module Shop\n  class Till\n    def change = Money.new(5).rounded\n  end\nend\n",
    )
    .expect("till.rb");
    scratch
}

fn add_the_missing_method(root: &std::path::Path) {
    edit(
        &root.join("lib/shop/money.rb"),
        "    def to_s = format_cents(cents)\n",
        "    def to_s = format_cents(cents)\n\n    def rounded = cents\n",
    );
}

#[test]
fn a_method_added_to_a_class_reanalyses_only_the_files_that_look_it_up() {
    // Dependencies are per method name: `Till` looks up `Money#rounded`
    // (missing, then present), `Cart` uses `Money` for other methods only.
    // Adding `rounded` re-derives the exports of `money.rb` and `till.rb`
    // alone, re-checks them and at most one more file, and the answer is
    // still a cold run's.
    let rigor = bin("rigor");
    let scratch = project_calling_a_missing_method();
    let root = scratch.path();
    let argv = ["check", "--format=json", "--", "lib"];
    let mut worker = protocol_tests::warm::Worker::start(&rigor);
    let (_, before, _) = worker.call(&argv, root);
    assert!(before.contains("rounded"), "the call to a missing method is reported first: {before}");
    add_the_missing_method(root);
    let (_, warm, _) = worker.call(&argv, root);
    let stats: serde_json::Value = serde_json::from_str(&warm).expect("json");
    let cache = &stats["stats"]["cache"];
    assert_eq!(cache["exports_derived"], serde_json::json!(2), "{cache}");
    let reanalysed = cache["reanalysed"].as_u64().expect("reanalysed");
    assert!((2..=3).contains(&reanalysed), "money.rb, till.rb and at most one more of 7: {cache}");
    assert_eq!(cache["index"], serde_json::json!("rebuilt"), "{cache}");
    assert!(!warm.contains("`rounded`"), "the method is found now: {warm}");
    assert_warm_equals_cold(&rigor, &mut worker, root);
}

#[test]
fn a_worker_whose_work_after_an_answer_fails_answers_on_as_a_cold_run() {
    // Between calls the worker lists what its answers read. Should that
    // work fail, the worker must stay up and answer as a cold run: after
    // `Money#rounded` is added, `till.rb` no longer reports it missing.
    let rigor = bin("rigor");
    let scratch = project_calling_a_missing_method();
    let root = scratch.path();
    let argv = ["check", "--format=json", "--", "lib"];
    let mut worker = protocol_tests::warm::Worker::start_with_env(&rigor, &[("RIGOR_FAILPOINT", "after-answer:panic")]);
    let (_, before, _) = worker.call(&argv, root);
    assert!(before.contains("rounded"), "{before}");
    // Long past the moment the worker takes itself as idle and fails.
    std::thread::sleep(std::time::Duration::from_millis(300));
    add_the_missing_method(root);
    let (_, after, _) = worker.call(&argv, root);
    assert!(!after.contains("`rounded`"), "the method is found now: {after}");
    assert_warm_equals_cold(&rigor, &mut worker, root);
}

#[test]
fn a_body_edit_that_changes_nothing_others_read_reanalyses_one_file() {
    // Early cutoff: `Money#to_s` gains a statement, which changes neither
    // the file's interface nor its exports, so no other file's analysis is
    // looked at again; and the answer is still a cold run's. (Not
    // `initialize`: whether it only keeps its arguments is part of the
    // interface.)
    let rigor = bin("rigor");
    let scratch = tempfile::tempdir().expect("scratch");
    copy_tree(&fixtures().join("warm-project"), scratch.path());
    let root = scratch.path();
    let argv = ["check", "--format=json", "--", "lib"];
    let mut worker = protocol_tests::warm::Worker::start(&rigor);
    worker.call(&argv, root);
    edit(
        &root.join("lib/shop/money.rb"),
        "    def to_s = format_cents(cents)\n",
        "    def to_s\n      audit = cents.to_s\n      format_cents(cents)\n    end\n",
    );
    let (_, warm, _) = worker.call(&argv, root);
    let stats: serde_json::Value = serde_json::from_str(&warm).expect("json");
    let cache = &stats["stats"]["cache"];
    assert_eq!(cache["reread"], serde_json::json!(1), "{cache}");
    assert_eq!(cache["exports_derived"], serde_json::json!(1), "{cache}");
    assert_eq!(cache["reanalysed"], serde_json::json!(1), "{cache}");
    assert_eq!(cache["index"], serde_json::json!("cut off"), "{cache}");
    assert_warm_equals_cold(&rigor, &mut worker, root);
}

#[test]
fn coverage_counts_again_only_what_changed_while_the_index_stands() {
    kept_per_file_while_the_index_stands(&["coverage", "--format=json", "lib"]);
}

#[test]
fn sig_gen_infers_again_only_what_changed_while_the_index_stands() {
    kept_per_file_while_the_index_stands(&["sig-gen", "--format=json", "--params=observed", "lib"]);
    kept_per_file_while_the_index_stands(&["sig-gen", "--format=json", "--include-private", "lib"]);
    // Each way of generating keeps its own parts: asked in turn of one
    // model, each answers as a cold run.
    let rigor = bin("rigor");
    let root = fixtures().join("warm-project");
    let mut worker = protocol_tests::warm::Worker::start(&rigor);
    for flags in [&[][..], &["--include-private"], &["--params=observed"], &[]] {
        let mut argv = vec!["sig-gen", "--format=json"];
        argv.extend_from_slice(flags);
        argv.push("lib");
        let (_, warm, _) = worker.call(&argv, &root);
        let cold = std::process::Command::new(&rigor).args(&argv).current_dir(&root).output().expect("cold sig-gen");
        assert_eq!(warm, String::from_utf8_lossy(&cold.stdout), "`{}`", argv.join(" "));
    }
}

/// `argv` (a command that reads nothing but inference) on a warm model
/// keeps each file's part while its bytes and the project index stand:
/// nothing is derived again with nothing changed, one file after an edit
/// the index does not see (cut off), every file after one it does. Each
/// answer is a cold run's.
fn kept_per_file_while_the_index_stands(argv: &[&str]) {
    let rigor = bin("rigor");
    let scratch = tempfile::tempdir().expect("scratch");
    copy_tree(&fixtures().join("warm-project"), scratch.path());
    let root = scratch.path();
    let mut worker = protocol_tests::warm::Worker::start(&rigor);
    let derived = |worker: &mut protocol_tests::warm::Worker| {
        let (_, out, result) = worker.call(argv, root);
        let cold = std::process::Command::new(&rigor).args(argv).current_dir(root).output().expect("cold run");
        assert_eq!(out, String::from_utf8_lossy(&cold.stdout), "warm and cold `{}` differ", argv.join(" "));
        let cache = result["meta"]["cache"].clone();
        (cache["reanalysed"].as_u64().expect("figures"), cache["index"].as_str().unwrap_or_default().to_string())
    };
    let (first, _) = derived(&mut worker);
    assert!(first > 3, "every file is derived the first time: {first}");
    assert_eq!(derived(&mut worker), (0, "kept".to_string()), "nothing changed");
    // A body edit that changes nothing another file reads: one file.
    edit(
        &root.join("lib/shop/money.rb"),
        "    def to_s = format_cents(cents)\n",
        "    def to_s\n      audit = cents.to_s\n      format_cents(cents)\n    end\n",
    );
    assert_eq!(derived(&mut worker), (1, "cut off".to_string()));
    // A new method changes the index: every file again.
    edit(&root.join("lib/shop/money.rb"), "    def to_s\n", "    def rounded = cents.round\n    def to_s\n");
    assert_eq!(derived(&mut worker).0, first);
    assert_eq!(derived(&mut worker).0, 0);
}

/// A warm worker checks `lib/u.rb` (whose `U#m` another file calls),
/// `lib/use.rb` (`U.new.m.bogus_call`) and `lib/other.rb`; then
/// `other.rb` becomes `edited`, which changes what `U#m` returns though
/// neither `u.rb` nor `use.rb` changed. Each warm answer must be a fresh
/// process's; returns them, before and after.
fn warm_answers_across_an_edit_of_another_file(u: &str, edited: &str) -> (String, String) {
    warm_answers_across_an_edit(u, "y = 1\n", edited)
}

/// The same, with `other.rb` holding `other` before the edit.
fn warm_answers_across_an_edit(u: &str, other: &str, edited: &str) -> (String, String) {
    let rigor = bin("rigor");
    let scratch = tempfile::tempdir().expect("scratch");
    let root = scratch.path();
    std::fs::create_dir_all(root.join("lib")).expect("lib");
    std::fs::write(root.join("lib/u.rb"), u).expect("u.rb");
    std::fs::write(root.join("lib/use.rb"), "U.new.m.bogus_call\n").expect("use.rb");
    std::fs::write(root.join("lib/other.rb"), other).expect("other.rb");
    let argv = ["check", "--format=json", "--no-stats", "--", "lib"];
    let mut worker = protocol_tests::warm::Worker::start(&rigor);
    let (_, before, _) = worker.call(&argv, root);
    assert_warm_equals_cold(&rigor, &mut worker, root);
    std::fs::write(root.join("lib/other.rb"), edited).expect("edit other.rb");
    let (_, after, _) = worker.call(&argv, root);
    assert_warm_equals_cold(&rigor, &mut worker, root);
    (before, after)
}

#[test]
fn a_method_given_to_one_object_in_another_file_reaches_a_warm_answer() {
    // `def obj.upcase` (or a refinement of it) anywhere means no call of
    // `upcase` is folded (`"a".upcase` is `String`, not `"A"`): the warm
    // model learns it from the file that gains it.
    let (before, after) = warm_answers_across_an_edit_of_another_file(
        "class U\n  def m = \"a\".upcase\nend\n",
        "y = 1\no = +\"\"\ndef o.upcase = 2\n",
    );
    assert!(before.contains("undefined method `bogus_call` for \\\"A\\\""), "{before}");
    assert!(after.contains("undefined method `bogus_call` for String"), "`upcase` is not folded now: {after}");
}

#[test]
fn a_core_method_moved_to_another_core_class_in_another_file_reaches_a_warm_answer() {
    // `a.first` after `a.size > 0` is an element while no file gives an
    // Array a `shift` of its own: Set's may have one, Array's may not. The
    // same method name stays redefined somewhere: only its class moves.
    let (before, after) = warm_answers_across_an_edit(
        "class U\n  def m\n    a = [1].select(&:odd?)\n    a.size > 0 ? a.first : 0\n  end\nend\n",
        "class Set\n  def shift = 1\nend\n",
        "class Array\n  def shift = 1\nend\n",
    );
    assert!(before.contains("undefined method `bogus_call` for Integer"), "{before}");
    assert!(!after.contains("bogus_call"), "the guard no longer holds: {after}");
}

#[test]
fn a_core_method_moved_between_core_classes_reaches_a_warm_type() {
    // As above, asked through `type-of`: the return `use.rb` reads is the
    // one `u.rb`'s walk found, kept while what it read answers the same.
    let rigor = bin("rigor");
    let scratch = tempfile::tempdir().expect("scratch");
    let root = scratch.path();
    std::fs::create_dir_all(root.join("lib")).expect("lib");
    let u = "class U\n  def m\n    a = [1].select(&:odd?)\n    a.size > 0 ? a.first : 0\n  end\nend\n";
    std::fs::write(root.join("lib/u.rb"), u).expect("u.rb");
    std::fs::write(root.join("lib/use.rb"), "U.new.m.bogus_call\n").expect("use.rb");
    std::fs::write(root.join("lib/other.rb"), "class Set\n  def shift = 1\nend\n").expect("other.rb");
    let argv = ["type-of", "--format=json", "lib/use.rb:1:7"];
    let mut worker = protocol_tests::warm::Worker::start(&rigor);
    let cold = |root: &std::path::Path| {
        let out = std::process::Command::new(&rigor).args(argv).current_dir(root).output().expect("rigor");
        String::from_utf8(out.stdout).expect("utf-8")
    };
    let (_, before, _) = worker.call(&argv, root);
    assert!(before.contains("\"type\": \"Integer\""), "{before}");
    assert_eq!(before, cold(root));
    std::fs::write(root.join("lib/other.rb"), "class Array\n  def shift = 1\nend\n").expect("edit other.rb");
    let (_, after, _) = worker.call(&argv, root);
    assert!(after.contains("\"type\": \"Integer?\""), "{after}");
    assert_eq!(after, cold(root));
}

#[test]
fn a_constant_removed_by_name_in_another_file_reaches_a_warm_answer() {
    // `U#m` returns `LIMIT`, 1 as assigned; once another file removes and
    // sets `LIMIT` by name, it may be anything.
    let (before, after) = warm_answers_across_an_edit_of_another_file(
        "LIMIT = 1\nclass U\n  def m = LIMIT\nend\n",
        "y = 1\nObject.send(:remove_const, :LIMIT)\nObject.const_set(:LIMIT, \"x\")\n",
    );
    assert!(before.contains("undefined method `bogus_call` for 1"), "{before}");
    assert!(!after.contains("bogus_call"), "`LIMIT` may be anything now: {after}");
}

#[test]
fn a_parameter_handed_on_from_another_file_reaches_a_warm_answer() {
    // `U#second` gets what `U#first` is given, which only another file's
    // call says: neither `u.rb` nor `use.rb` changes when it does.
    let (before, after) = warm_answers_across_an_edit(
        "class U\n  def m = 2\n\n  private\n\n  def first(x) = second(x)\n  def second(y) = y.bogus_call\nend\n",
        "class U\n  def kick = first(1)\nend\n",
        "class U\n  def kick = first(:sym)\nend\n",
    );
    assert!(before.contains("undefined method `bogus_call` for 1"), "{before}");
    assert!(after.contains("undefined method `bogus_call` for :sym"), "{after}");
}

#[test]
fn a_file_whose_types_stood_is_checked_again_when_what_they_read_changes() {
    // `U#m` returns `untyped` first, which reads the same before and after
    // the exports are folded in, so `use.rb`'s types from the export pass
    // stand and its report is made from them. When `m` comes to return 1,
    // that report must go: it read `U#m` through those types.
    let rigor = bin("rigor");
    let scratch = tempfile::tempdir().expect("scratch");
    let root = scratch.path();
    std::fs::create_dir_all(root.join("lib")).expect("lib");
    std::fs::write(root.join("lib/u.rb"), "class U\n  def m = unknown_thing\nend\n").expect("u.rb");
    std::fs::write(root.join("lib/use.rb"), "U.new.m.bogus_call\n").expect("use.rb");
    let argv = ["check", "--format=json", "--no-stats", "--", "lib"];
    let mut worker = protocol_tests::warm::Worker::start(&rigor);
    let (_, before, _) = worker.call(&argv, root);
    assert!(!before.contains("bogus_call"), "{before}");
    std::fs::write(root.join("lib/u.rb"), "class U\n  def m = 1\nend\n").expect("edit u.rb");
    let (_, after, _) = worker.call(&argv, root);
    assert!(after.contains("undefined method `bogus_call` for 1"), "{after}");
    assert_warm_equals_cold(&rigor, &mut worker, root);
}

#[test]
fn a_constructor_that_comes_to_call_back_reaches_a_warm_answer() {
    // `Basket#initialize` hands itself to `Label.new` before assigning
    // `@items`. While `Label#initialize` (another file) only keeps its
    // argument, nothing can read `@items` first; once it calls the basket
    // back, `@items` may be nil when `add` runs (Ruby: NoMethodError).
    let rigor = bin("rigor");
    let scratch = tempfile::tempdir().expect("scratch");
    let root = scratch.path();
    std::fs::create_dir_all(root.join("lib")).expect("lib");
    std::fs::write(
        root.join("lib/basket.rb"),
        "class Basket\n  def initialize\n    @name = Label.new(self)\n    @items = []\n  end\n\n  def add(item)\n    @items.push(item)\n  end\nend\n",
    )
    .expect("basket.rb");
    std::fs::write(root.join("lib/label.rb"), "class Label\n  def initialize(owner)\n    @owner = owner\n  end\nend\n")
        .expect("label.rb");
    let argv = ["check", "--format=json", "--no-stats", "--", "lib"];
    let mut worker = protocol_tests::warm::Worker::start(&rigor);
    let (_, before, _) = worker.call(&argv, root);
    assert!(!before.contains("possible-nil-receiver"), "{before}");
    assert_warm_equals_cold(&rigor, &mut worker, root);
    edit(&root.join("lib/label.rb"), "    @owner = owner\n", "    @owner = owner\n    owner.add(:label)\n");
    let (_, after, _) = worker.call(&argv, root);
    assert!(after.contains("possible-nil-receiver"), "{after}");
    assert_warm_equals_cold(&rigor, &mut worker, root);
}

#[test]
fn a_class_allocated_in_another_file_reaches_a_warm_answer() {
    // `U#initialize` assigns `@s`, so `@s.upcase` is safe while every U is
    // made by `new`; once another file allocates one, `@s` may be nil
    // (Ruby: `U.allocate.m` raises NoMethodError).
    let (before, after) = warm_answers_across_an_edit_of_another_file(
        "class U\n  def initialize\n    @s = \"a\"\n  end\n\n  def m = @s.upcase\nend\n",
        "y = 1\nU.allocate\n",
    );
    assert!(!before.contains("possible-nil-receiver"), "{before}");
    assert!(after.contains("possible-nil-receiver"), "{after}");
}

#[test]
fn a_method_named_as_a_core_one_that_comes_to_run_its_block_elsewhere_reaches_a_warm_answer() {
    // `Runner.run`'s block writes main's `@v` while `run` only calls it;
    // once another file's `run` instance_execs its block, the write may
    // land in a `U`, whose `@v` is then anyone's.
    let (before, after) = warm_answers_across_an_edit_of_another_file(
        "class U\n  def initialize = (@v = 1)\n  def m = @v\nend\nclass Runner\n  def self.run(o, &b) = b.call(o)\nend\nRunner.run(U.new) { @v = \"s\" }\n",
        "y = 1\nclass Runner\n  def self.run(o, &b) = o.instance_exec(&b)\nend\n",
    );
    assert!(before.contains("undefined method `bogus_call` for 1"), "{before}");
    assert!(!after.contains("bogus_call"), "`@v` may be anything now: {after}");
}

#[test]
fn a_method_made_under_a_computed_name_in_another_file_reaches_a_warm_answer() {
    // `U#m` is `false` until a file that already reopens `U` comes to make
    // methods under computed names there: then its `m` may be theirs. (The
    // class's shape stays; only what one method name reads changes.)
    let (before, after) = warm_answers_across_an_edit(
        "class U\n  def m = false\nend\n",
        "class U\n  def z = 1\nend\n",
        "class U\n  def z = 1\n  %w[m].map(&:to_sym).each { |n| define_method(n) { 1 } }\nend\n",
    );
    assert!(before.contains("undefined method `bogus_call` for false"), "{before}");
    assert!(!after.contains("bogus_call"), "`m` may be define_method's now: {after}");
}

#[test]
fn a_method_made_from_outside_under_a_computed_name_reaches_a_warm_answer() {
    // Another file comes to give `U` a method under a name held in a
    // local (`U.define_method(n)`): `U#m` may be that one now.
    let (before, after) = warm_answers_across_an_edit_of_another_file(
        "class U\n  def m = false\nend\n",
        "n = :m\nU.define_method(n) { 1 }\n",
    );
    assert!(before.contains("undefined method `bogus_call` for false"), "{before}");
    assert!(!after.contains("bogus_call"), "`m` may be define_method's now: {after}");
}

#[test]
fn a_module_that_comes_to_make_methods_for_its_includers_reaches_a_warm_answer() {
    // `U` includes `Concern`, whose `included` hook extends it with
    // `ClassMethods`; once `ClassMethods#field` makes accessors under
    // computed names, `U#m` may be one of them.
    let concern = |field: &str| {
        format!(
            "module Concern\n  def self.included(base) = base.extend(ClassMethods)\n  module ClassMethods\n    def field(n) = {field}\n  end\nend\n"
        )
    };
    let (before, after) = warm_answers_across_an_edit(
        "class U\n  include Concern\n  def m = 1\nend\n",
        &concern("n"),
        &concern("attr_accessor(n)"),
    );
    assert!(before.contains("undefined method `bogus_call` for 1"), "{before}");
    assert!(!after.contains("bogus_call"), "`U#m` may be an accessor now: {after}");
}

#[test]
fn output_pointed_elsewhere_in_another_file_reaches_a_warm_answer() {
    // `puts "x"` between the emptiness guard and `a.first` keeps the
    // narrowing while `$stdout` is Ruby's own; once another file points it
    // at an object of the program's, the write may run that code.
    let (before, after) = warm_answers_across_an_edit_of_another_file(
        "class U\n  def m\n    a = [1, 3].select(&:odd?)\n    return 0 if a.empty?\n    puts \"x\"\n    a.first\n  end\nend\n",
        "y = 1\n$stdout = Object.new\n",
    );
    assert!(before.contains("undefined method `bogus_call` for Integer\""), "{before}");
    assert!(!after.contains("undefined method `bogus_call` for Integer\""), "`a.first` may be nil now: {after}");
}

#[test]
fn a_maker_module_extended_into_objects_in_another_file_reaches_a_warm_answer() {
    // `Maker#field` makes accessors for whatever extends it; once another
    // file extends some object with it, any class's `m` may be one.
    let (before, after) = warm_answers_across_an_edit_of_another_file(
        "class U\n  def m = 1\nend\nmodule Maker\n  def field(n) = attr_accessor(n)\nend\n",
        "y = 1\nx = Object.new\nx.extend(Maker)\n",
    );
    assert!(before.contains("undefined method `bogus_call` for 1"), "{before}");
    assert!(!after.contains("bogus_call"), "`U#m` may be an accessor now: {after}");
}

#[test]
fn a_parent_initialize_that_stops_calling_the_hook_reaches_a_warm_answer() {
    // `U#m` reads what `U#setup` assigns; the parent's `initialize` runs
    // `setup` first, until an edit of that other file takes the call out.
    let parent =
        |body: &str| format!("class Parent\n  def initialize\n    @n = 1\n{body}  end\n  def setup; end\nend\n");
    let (before, after) = warm_answers_across_an_edit(
        "class U < Parent\n  def setup\n    @list = [1]\n  end\n  def m = @list << 2\nend\n",
        &parent("    setup\n"),
        &parent(""),
    );
    assert!(!before.contains("call.possible-nil-receiver"), "{before}");
    assert!(after.contains("call.possible-nil-receiver"), "`@list` may be unset now: {after}");
}

#[test]
fn a_superclass_another_file_comes_to_open_reaches_a_warm_answer() {
    // `class C < P` in `module N` names `::P` while only this file opens
    // `N::P`, further down; once another file opens `N::P` too, it may
    // have loaded first, and `N::P` is the answer.
    let (before, after) = warm_answers_across_an_edit_of_another_file(
        "class P\n  def m = 1\nend\nmodule N\n  class C < P\n  end\n  class P\n    def m = \"s\"\n  end\nend\nclass U < N::C\nend\n",
        "module N\n  class P\n  end\nend\n",
    );
    assert!(before.contains("undefined method `bogus_call` for 1"), "{before}");
    assert!(after.contains("undefined method `bogus_call` for \\\"s\\\""), "{after}");
}

#[test]
fn a_constant_alias_another_file_comes_to_assign_reaches_a_warm_answer() {
    // `S.const_set(:KIND, ...)` sets `U::KIND` once another file makes `S`
    // an alias of `U`.
    let (before, after) = warm_answers_across_an_edit(
        "class U\n  KIND = 1\n  def m = KIND\nend\nS.const_set(:KIND, 2)\n",
        "module S\nend\n",
        "S = U\n",
    );
    assert!(before.contains("undefined method `bogus_call` for 1"), "{before}");
    assert!(!after.contains("bogus_call` for 1"), "`KIND` may be 2 now: {after}");
}

#[test]
fn a_parent_hook_that_comes_to_read_the_ivar_reaches_a_warm_answer() {
    // `U`'s `@list`, set after `super`, counts as set while the hook the
    // parent's `initialize` calls (in another file) does not read it; an
    // edit of that file's body makes it read `@list` first.
    let parent =
        |hook: &str| format!("class Parent\n  def initialize\n    check\n  end\n  def check\n{hook}  end\nend\n");
    let (before, after) = warm_answers_across_an_edit(
        "class U < Parent\n  def initialize\n    super\n    @list = [1]\n  end\n  def m = @list << 2\nend\n",
        &parent("    y = 1\n"),
        &parent("    p @list\n"),
    );
    assert!(!before.contains("call.possible-nil-receiver"), "{before}");
    assert!(after.contains("call.possible-nil-receiver"), "`@list` may be read unset now: {after}");
}

#[test]
fn a_module_mixed_in_from_outside_that_gains_the_method_reaches_a_warm_super() {
    // `U#m`'s `super` runs `P#m` until the module another file includes
    // into `U` from outside its body defines `m` too.
    let (before, after) = warm_answers_across_an_edit(
        "class P\n  def m = 1\nend\nclass U < P\n  def m = super\nend\n",
        "module M\n  def z = 1\nend\nU.include(M)\n",
        "module M\n  def m = \"s\"\nend\nU.include(M)\n",
    );
    assert!(before.contains("undefined method `bogus_call` for 1"), "{before}");
    assert!(!after.contains("bogus_call"), "`super` may run `M#m` now: {after}");
}

#[test]
fn a_class_another_file_comes_to_give_methods_reaches_a_warm_undefined_method() {
    // An empty `class Foo` is judged whole (nobody reopens a class to add
    // nothing); once another file gives it a method, it may be a class
    // code out of view creates, and is not. Whether it has methods is read
    // apart from which: the warm model must see that it came to have one.
    let (empty, given) = warm_answers_across_an_edit(
        "class U\n  def m = Foo.new\nend\n",
        "class Foo\nend\n",
        "class Foo\n  def baz = 1\nend\n",
    );
    assert!(empty.contains("undefined method `bogus_call` for Foo"), "{empty}");
    assert!(!given.contains("bogus_call"), "`Foo` may be reopened now: {given}");
}

#[test]
fn a_namespace_module_that_comes_to_have_methods_reaches_a_warm_answer() {
    // `Foo.name` on a module the project opens only for constants may be
    // the gem's that creates it (untyped); once it has a method of its
    // own, the project defines it, and `Module#name` answers.
    let (before, after) = warm_answers_across_an_edit(
        "class U\n  def m = Foo.name.to_s\nend\n",
        "module Foo\n  X = 1\nend\n",
        "module Foo\n  def self.z = 1\nend\n",
    );
    assert!(!before.contains("bogus_call"), "{before}");
    assert!(after.contains("undefined method `bogus_call` for String"), "{after}");
}

#[test]
fn a_super_whose_target_alone_changes_reaches_a_warm_answer() {
    // `super` in `U#m` runs `Base#m`'s own body: 1, then 2. What a call on
    // a `Base` may return (`Other#m`'s Integer with it) reads the same
    // before and after, so only a print of the own body's return sees it.
    let (before, after) = warm_answers_across_an_edit(
        "class U < Base\n  def m = super.bogus_call\nend\n",
        "class Base\n  def m = 1\nend\nclass Other < Base\n  def m = Integer(\"3\")\nend\n",
        "class Base\n  def m = 2\nend\nclass Other < Base\n  def m = Integer(\"3\")\nend\n",
    );
    assert!(before.contains("undefined method `bogus_call` for 1"), "{before}");
    assert!(after.contains("undefined method `bogus_call` for 2"), "{after}");
}

#[test]
fn an_override_added_below_the_receivers_class_reaches_a_warm_answer() {
    // `kind` on a `U` runs `Base#kind` alone (1) while nothing below `U`
    // overrides it; once `V < U` does, it may be `V`'s ("v") too, and the
    // rule says nothing of a value that may be either.
    let (before, after) = warm_answers_across_an_edit(
        "class U < Base\n  def m = kind.bogus_call\nend\n",
        "class Base\n  def kind = 1\nend\n",
        "class Base\n  def kind = 1\nend\nclass V < U\n  def kind = \"v\"\nend\n",
    );
    assert!(before.contains("undefined method `bogus_call` for 1\""), "{before}");
    assert!(!after.contains("bogus_call"), "{after}");
}

#[test]
fn a_top_level_def_in_another_file_reaches_a_warm_answer() {
    // `rand(10)` is Kernel's until another file defines `rand` at the top
    // level: Object's own, which every object's implicit call runs first.
    let (before, after) = warm_answers_across_an_edit_of_another_file(
        "class U\n  def m = rand(10)\nend\n",
        "y = 1\ndef rand(*) = \"r\"\n",
    );
    assert!(before.contains("undefined method `bogus_call` for Integer"), "{before}");
    assert!(!after.contains("bogus_call"), "`rand` may be the top-level def now: {after}");
}

#[test]
fn a_parameter_added_in_another_file_reaches_a_warm_arity_check() {
    // `report.rb` calls `Item#tag` with one argument: right, then wrong
    // when `item.rb` makes it take two, then right again.
    let rigor = bin("rigor");
    let scratch = tempfile::tempdir().expect("scratch");
    copy_tree(&fixtures().join("warm-project"), scratch.path());
    let root = scratch.path();
    let argv = ["check", "--format=json", "--no-stats", "--", "lib"];
    let mut worker = protocol_tests::warm::Worker::start(&rigor);
    let (_, before, _) = worker.call(&argv, root);
    assert!(!before.contains("call.wrong-arity"), "{before}");
    let item = root.join("lib/shop/item.rb");
    edit(&item, "def tag(word)", "def tag(word, weight)");
    let (_, wrong, _) = worker.call(&argv, root);
    assert!(
        wrong.contains("wrong number of arguments to Shop::Item#tag on Shop::Item: given 1, expected 2"),
        "{wrong}"
    );
    assert_warm_equals_cold(&rigor, &mut worker, root);
    edit(&item, "def tag(word, weight)", "def tag(word, weight = 1)");
    let (_, right, _) = worker.call(&argv, root);
    assert!(!right.contains("call.wrong-arity"), "{right}");
    assert_warm_equals_cold(&rigor, &mut worker, root);
    // Made private by name in a third file: a receiver cannot reach it.
    edit(&item, "def tag(word, weight = 1)", "def tag(word, weight)");
    std::fs::write(root.join("lib/hide.rb"), "class Shop::Item\n  private :tag\nend\n").expect("hide.rb");
    let (_, hidden, _) = worker.call(&argv, root);
    assert!(!hidden.contains("call.wrong-arity"), "{hidden}");
    assert_warm_equals_cold(&rigor, &mut worker, root);
}
