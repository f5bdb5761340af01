//! Where the rbs gem is: the `ruby` on PATH is asked once, and its answer
//! kept in the user's cache directory until something it depends on
//! changes (the binary, RubyGems' environment, an installed gem). A fake
//! `ruby` counts the questions.

use std::path::{Path, PathBuf};
use std::process::Command;

struct Setup {
    _dir: tempfile::TempDir,
    root: PathBuf,
    project: PathBuf,
    bin: PathBuf,
    gems: PathBuf,
    asked: PathBuf,
}

const FAKE_RUBY: &str = r#"
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    const char *count = getenv("FAKE_RUBY_COUNT");
    FILE *log = count ? fopen(count, "a") : NULL;
    if (log) { fputs("asked\n", log); fclose(log); }
    const char *gem = getenv("FAKE_RUBY_GEM");
    const char *path = getenv("FAKE_RUBY_GEM_PATH");
    printf("%s\n%s", gem ? gem : "", path ? path : "");
    return 0;
}
"#;

fn setup() -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    let bin = root.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(root.join("fake_ruby.c"), FAKE_RUBY).unwrap();
    let built = Command::new("cc")
        .arg(root.join("fake_ruby.c"))
        .arg("-o")
        .arg(bin.join("ruby"))
        .status()
        .expect("a C compiler (cc) builds the fake ruby");
    assert!(built.success());
    let gem = root.join("gem");
    std::fs::create_dir_all(gem.join("core")).unwrap();
    std::fs::write(gem.join("core/object.rbs"), "class Object\nend\nclass Integer\n  def succ: () -> Integer\nend\n")
        .unwrap();
    let gems = root.join("gems");
    std::fs::create_dir_all(gems.join("specifications")).unwrap();
    let project = root.join("project");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(project.join("a.rb"), "x = 1.succ\n").unwrap();
    Setup { asked: root.join("asked"), _dir: dir, root, project, bin, gems }
}

impl Setup {
    /// Runs `rigor check` with the fake `ruby` first on PATH; returns how
    /// many times it has been asked so far.
    fn check(&self, extra: &[(&str, &str)]) -> usize {
        let path = format!("{}:{}", self.bin.display(), std::env::var("PATH").unwrap_or_default());
        let mut command = Command::new(env!("CARGO_BIN_EXE_rigor"));
        command
            .args(["check", "--format", "json", "a.rb"])
            .current_dir(&self.project)
            .env("PATH", path)
            .env("XDG_CACHE_HOME", self.root.join("cache"))
            .env("FAKE_RUBY_COUNT", &self.asked)
            .env("FAKE_RUBY_GEM", self.root.join("gem"))
            .env("FAKE_RUBY_GEM_PATH", &self.gems)
            .env_remove("RIGOR_RBS_PATH")
            .env_remove("GEM_HOME");
        for (name, value) in extra {
            command.env(name, value);
        }
        let output = command.output().expect("rigor runs");
        let json: serde_json::Value = serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|_| panic!("JSON out: {}", String::from_utf8_lossy(&output.stderr)));
        assert!(json.get("config_warnings").is_none(), "the fake gem's signatures load without a warning: {json}");
        std::fs::read_to_string(&self.asked).map_or(0, |text| text.lines().count())
    }

    fn cache_file(&self) -> PathBuf {
        self.root.join("cache/rigor/rbs-gem.json")
    }
}

/// Moves a directory's mtime away from what was recorded, as installing a
/// gem does to `specifications/`.
fn touch_later(dir: &Path, seconds: u64) {
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(seconds);
    std::fs::write(dir.join("rbs-9.9.9.gemspec"), "").unwrap();
    std::fs::File::open(dir).unwrap().set_modified(later).unwrap();
}

#[test]
fn ruby_is_asked_once_until_what_its_answer_depends_on_changes() {
    let setup = setup();
    assert_eq!(setup.check(&[]), 1, "the first run asks");
    assert!(setup.cache_file().is_file(), "and keeps the answer");
    assert_eq!(setup.check(&[]), 1, "the next run takes the kept answer");

    touch_later(&setup.gems.join("specifications"), 60);
    assert_eq!(setup.check(&[]), 2, "a gem installed where Ruby searched: asked again");
    assert_eq!(setup.check(&[]), 2);

    assert_eq!(setup.check(&[("GEM_HOME", "/elsewhere")]), 3, "RubyGems' environment changed: asked again");
    assert_eq!(setup.check(&[("GEM_HOME", "/elsewhere")]), 3);

    std::fs::write(setup.cache_file(), b"{\"key\": trunc").unwrap();
    assert_eq!(setup.check(&[("GEM_HOME", "/elsewhere")]), 4, "a broken entry is asked again, not trusted");

    // Another binary at the same path (an upgraded Ruby).
    let ruby = setup.bin.join("ruby");
    let mut bytes = std::fs::read(&ruby).unwrap();
    bytes.extend_from_slice(b"\0upgraded");
    std::fs::remove_file(&ruby).unwrap();
    std::fs::write(&ruby, bytes).unwrap();
    let mut permissions = std::fs::metadata(&ruby).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&ruby, permissions).unwrap();
    assert_eq!(setup.check(&[("GEM_HOME", "/elsewhere")]), 5, "a new ruby binary: asked again");
    assert_eq!(setup.check(&[("GEM_HOME", "/elsewhere")]), 5);
}

#[test]
fn a_ruby_that_is_a_script_is_asked_every_time() {
    let setup = setup();
    // A version manager's shim picks a Ruby by directory and environment.
    let shim = setup.bin.join("ruby");
    std::fs::rename(&shim, setup.bin.join("real-ruby")).unwrap();
    std::fs::write(&shim, format!("#!/bin/sh\nexec {} \"$@\"\n", setup.bin.join("real-ruby").display())).unwrap();
    let mut permissions = std::fs::metadata(&shim).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&shim, permissions).unwrap();
    assert_eq!(setup.check(&[]), 1);
    assert_eq!(setup.check(&[]), 2);
    assert!(!setup.cache_file().exists(), "nothing kept for a script");
}

/// The rules' findings on `1.frobnicate`, which only a loaded `Integer`
/// signature lets `call.undefined-method` judge.
fn findings(setup: &Setup) -> Vec<String> {
    std::fs::write(setup.project.join("a.rb"), "x = 1.succ\n1.frobnicate\n").unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_rigor"))
        .args(["check", "--format", "json", "a.rb"])
        .current_dir(&setup.project)
        .env("XDG_CACHE_HOME", setup.root.join("cache"))
        .env("RIGOR_RBS_PATH", setup.root.join("gem"))
        .output()
        .expect("rigor runs");
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON out");
    json["diagnostics"].as_array().unwrap().iter().map(|d| format!("{} {}", d["rule"], d["message"])).collect()
}

fn entries(setup: &Setup) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for build in std::fs::read_dir(setup.root.join("cache/rigor/signatures")).unwrap().flatten() {
        for entry in std::fs::read_dir(build.path()).unwrap().flatten() {
            if entry.path().extension().is_some_and(|e| e == "bin") {
                found.push(entry.path());
            }
        }
    }
    found.sort();
    found
}

#[test]
fn parsed_signature_files_are_kept_by_content_and_a_damaged_entry_is_parsed_again() {
    let setup = setup();
    let first = findings(&setup);
    assert!(first.iter().any(|f| f.contains("frobnicate")), "the signatures judged the call: {first:?}");
    let kept = entries(&setup);
    assert_eq!(kept.len(), 1, "one entry for the one signature file");
    let whole = std::fs::read(&kept[0]).unwrap();
    assert_eq!(findings(&setup), first, "read back from the entry, the same findings");

    std::fs::write(&kept[0], &whole[..whole.len() / 2]).unwrap();
    assert_eq!(findings(&setup), first, "a truncated entry is parsed again, not trusted");
    assert_eq!(std::fs::read(&kept[0]).unwrap(), whole, "and written over whole");

    let core = setup.root.join("gem/core/object.rbs");
    let mut text = std::fs::read_to_string(&core).unwrap();
    text.push_str("class Integer\n  def frobnicate: () -> Integer\nend\n");
    std::fs::write(&core, text).unwrap();
    assert!(findings(&setup).iter().all(|f| !f.contains("frobnicate")), "an edited file is parsed anew");
    assert_eq!(entries(&setup).len(), 2, "under its new content");
}
