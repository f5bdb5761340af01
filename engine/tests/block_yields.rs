//! A block given to a project method binds its parameters to what the
//! method's `yield`s pass (in another file here), where `yield` is the only
//! way the block runs; each answer is checked against Ruby running the
//! fixture too.

mod cli_probe;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn project() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/yields")
}

/// The type `type-of` gives the value of the `needle = ...` assignment.
fn probed(needle: &str) -> String {
    probed_in(&project(), needle)
}

fn probed_in(dir: &Path, needle: &str) -> String {
    cli_probe::probed(dir, "lib/reader.rb", needle)
}

/// Every value each probe held when Ruby ran the fixture: (class, inspect).
fn observed() -> BTreeMap<String, Vec<(String, String)>> {
    let script = r#"
        seen = Hash.new { |h, k| h[k] = [] }
        trace = TracePoint.new(:b_return) do |tp|
          tp.binding.local_variables.grep(/_probe\z/).each do |name|
            value = tp.binding.local_variable_get(name)
            seen[name.to_s] << [value.class.name, value.inspect]
          end
        end
        require "./lib/shelf"
        require "./lib/reader"
        trace.enable
        reader = Reader.new
        %i[titles mutated splat_pair whole_pair missing numbered forwarded called named uneven splatted archived].each { |m| reader.send(m) }
        trace.disable
        seen.each { |name, values| values.uniq.each { |c, i| puts [name, c, i].join("\t") } }
    "#;
    let output = Command::new("ruby").args(["-e", script]).current_dir(project()).output().expect("ruby runs");
    assert!(output.status.success(), "ruby failed: {}", String::from_utf8_lossy(&output.stderr));
    let mut seen: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for line in String::from_utf8(output.stdout).unwrap().lines() {
        let mut fields = line.splitn(3, '\t');
        let (name, class, inspect) = (fields.next().unwrap(), fields.next().unwrap(), fields.next().unwrap());
        seen.entry(name.to_string()).or_default().push((class.to_string(), inspect.to_string()));
    }
    seen
}

/// Does the inferred type (a union of simple members) admit the value?
fn admits(inferred: &str, class: &str, inspect: &str) -> bool {
    inferred.split(" | ").any(|member| {
        member == "untyped"
            || member == class
            || member.starts_with(&format!("{class}["))
            || member == inspect
            || (member == "nil" && class == "NilClass")
    })
}

#[test]
fn block_parameters_take_what_the_method_yields() {
    let expected = [
        // Two yields of two values each, unioned by position.
        ("title_probe", "String"),
        ("year_probe", "1815 | 1965"),
        // The string is changed between yields: only its class is known.
        ("text_probe", "String"),
        // One array yielded to two parameters splats.
        ("letter_probe", "Integer | String | nil"),
        ("whole_probe", "Array[Integer | String]"),
        // `yield` with nothing: the parameter is nil.
        ("absent_probe", "nil"),
        ("numbered_probe", "String"),
        // A named block passed on to Array#each, or called.
        ("forwarded_probe", "Integer"),
        ("kind_probe", ":new | :old"),
        // What else may run the block, or a yield that differs in shape.
        ("named_probe", "untyped"),
        ("uneven_probe", "untyped"),
        ("splat_probe", "untyped"),
        ("archived_probe", "untyped"),
    ];
    let seen = observed();
    for (probe, inferred) in expected {
        assert_eq!(probed(probe), inferred, "{probe}");
        let values = seen.get(probe).unwrap_or_else(|| panic!("Ruby never reached {probe}"));
        for (class, inspect) in values {
            assert!(admits(inferred, class, inspect), "{probe}: Ruby saw {inspect} ({class}), inferred {inferred}");
        }
    }
}

#[test]
fn a_subclass_override_that_yields_otherwise_leaves_the_block_unknown() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("lib")).unwrap();
    std::fs::write(
        dir.path().join("lib/shelf.rb"),
        "class Shelf\n  def each_book\n    yield \"dune\", 1965\n  end\nend\n",
    )
    .unwrap();
    let reader =
        "class Reader\n  def go(shelf)\n    Shelf.new.each_book { |title, year| probe = title; probe }\n  end\nend\n";
    std::fs::write(dir.path().join("lib/reader.rb"), reader).unwrap();
    assert_eq!(probed_in(dir.path(), "probe"), "String");
    // A subclass instance may be the receiver, and its override yields one value.
    std::fs::write(dir.path().join("lib/novel.rb"), "class Novel < Shelf\n  def each_book\n    yield :x\n  end\nend\n")
        .unwrap();
    assert_eq!(probed_in(dir.path(), "probe"), "untyped");
}
