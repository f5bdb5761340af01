//! Modules mixed into one object: its methods may answer ahead of the
//! object's class's. Run through the CLI, as a project (what tells a
//! lookup which modules objects are extended with is the project's).

mod cli_probe;

use std::path::Path;

fn probed_in(dir: &Path) -> String {
    cli_probe::probed(dir, "lib/use.rb", "probe")
}

fn project(usage: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("lib")).unwrap();
    std::fs::write(
        dir.path().join("lib/kinds.rb"),
        "module M\n  def name = nil\nend\nclass K\n  def name = \"k\"\nend\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("lib/use.rb"), usage).unwrap();
    dir
}

/// Ruby gives nil in each mixed-in case: M's `name` answers first.
#[test]
fn a_module_mixed_into_one_object_may_answer_its_methods() {
    let plain = project("o = K.new\nprobe = (o.name)\n");
    assert_eq!(probed_in(plain.path()), "\"k\"");
    let extended = project("o = K.new\no.extend(M)\nprobe = (o.name)\n");
    assert_eq!(probed_in(extended.path()), "\"k\"?");
    // `class << o; include M; end` is `o.extend(M)` written another way.
    let included = project("o = K.new\nclass << o\n  include M\nend\nprobe = (o.name)\n");
    assert_eq!(probed_in(included.path()), "\"k\"?");
    let prepended =
        project("def build\n  o = K.new\n  class << o\n    prepend M\n  end\n  o\nend\nprobe = (build.name)\n");
    assert_eq!(probed_in(prepended.path()), "\"k\"?");
    // A method of its own there is no module.
    let own = project("o = K.new\nclass << o\n  def other = 1\nend\nprobe = (o.name)\n");
    assert_eq!(probed_in(own.path()), "\"k\"");
}
