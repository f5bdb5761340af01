//! Parameter types from the project's call sites (`parameter_inference`):
//! a private helper's parameters are what its callers pass; a method some
//! call may reach unseen keeps `untyped` ones.

mod cli_probe;

use std::path::Path;

/// Copies a fixture project into a scratch directory (with an optional
/// `.rigor.yml`), so runs never write next to the sources.
fn fixture(name: &str, config: Option<&str>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/params").join(name).join("lib");
    std::fs::create_dir(dir.path().join("lib")).unwrap();
    for entry in std::fs::read_dir(source).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.path().join("lib").join(path.file_name().unwrap())).unwrap();
    }
    if let Some(config) = config {
        std::fs::write(dir.path().join(".rigor.yml"), config).unwrap();
    }
    dir
}

/// The type of the first `needle = ...` assignment's value in `lib/file`
/// (a probe local that reads the parameter).
fn probed(dir: &Path, file: &str, needle: &str) -> String {
    cli_probe::probed(dir, &format!("lib/{file}"), needle)
}

#[test]
fn a_private_helper_takes_what_its_callers_pass() {
    let dir = fixture("typed", None);
    let at = |needle| probed(dir.path(), "greeter.rb", needle);
    assert_eq!(at("text_probe"), "String");
    assert_eq!(at("width_probe"), "3");
    // Never passed: only the default's own value.
    assert_eq!(at("fill_probe"), "String");
    assert_eq!(at("word_probe"), "String");
    // Passed once, defaulted once.
    assert_eq!(at("count_probe"), "1 | 2");
    // No call at all: nothing is known.
    assert_eq!(at("never_probe"), "untyped");
    // Public: callers outside the project may pass anything.
    assert_eq!(at("value_probe"), "untyped");
}

#[test]
fn the_policy_is_configurable() {
    let all = fixture("typed", Some("parameter_inference: all\n"));
    assert_eq!(probed(all.path(), "greeter.rb", "value_probe"), "1");
    let off = fixture("typed", Some("parameter_inference: off\n"));
    assert_eq!(probed(off.path(), "greeter.rb", "text_probe"), "untyped");
    assert_eq!(probed(off.path(), "greeter.rb", "width_probe"), "untyped");
}

#[test]
fn a_name_something_may_call_unseen_keeps_untyped_parameters() {
    let dir = fixture("escapes", None);
    for probe in [
        "sent_probe",
        "callback_probe",
        "splat_probe",
        "ghost_probe",
        "hook_probe",
        "visit_probe",
        "eval_probe",
        "raised_probe",
        "dug_probe",
        "divmod_probe",
        "div_probe",
    ] {
        assert_eq!(probed(dir.path(), "escapes.rb", probe), "untyped", "{probe}");
    }
}

#[test]
fn a_module_helper_is_typed_from_its_includers_in_other_files() {
    let dir = fixture("cross", None);
    assert_eq!(probed(dir.path(), "formatting.rb", "pad_text_probe"), "String");
    assert_eq!(probed(dir.path(), "formatting.rb", "pad_width_probe"), "10 | 2.5");
}

#[test]
fn a_private_writer_takes_what_every_write_form_passes() {
    // `self.total += 2.5`, `self.label ||= "or"`, `self.label, @o = :many,
    // 2`, `for self.step in ["a"]` and `rescue => self.failure` call the
    // writer as surely as `self.x = v` does (Ruby passes each value).
    let dir = fixture("writers", None);
    let at = |needle| probed(dir.path(), "writers.rb", needle);
    assert_eq!(at("total_probe"), "0 | 3.5");
    assert_eq!(at("label_probe"), "1 | :many | String");
    assert_eq!(at("step_probe"), "1 | String");
    assert_eq!(at("failure_probe"), "StandardError?");
}

#[test]
fn a_send_by_a_name_no_text_spells_may_reach_any_private_method() {
    let sent = fixture("dynamic_send", None);
    assert_eq!(probed(sent.path(), "svc.rb", "helper_probe"), "untyped");
    // `public_send` cannot call it: what `run` passes stands.
    let public = fixture("dynamic_public_send", None);
    assert_eq!(probed(public.path(), "svc.rb", "helper_probe"), "1");
    // Unless every method is typed from its calls.
    let all = fixture("dynamic_public_send", Some("parameter_inference: all\n"));
    assert_eq!(probed(all.path(), "svc.rb", "helper_probe"), "untyped");
}

#[test]
fn a_private_method_made_public_under_a_computed_name_keeps_untyped_parameters() {
    for name in ["opened_by_computed_name", "opened_by_send"] {
        let dir = fixture(name, None);
        assert_eq!(probed(dir.path(), "svc.rb", "helper_probe"), "untyped", "{name}");
    }
}

#[test]
fn code_run_from_unseen_text_or_a_caller_named_as_a_value_may_reach_any_private_method() {
    // `instance_eval(File.read(path))`: a `Configfile` may say `port 8080`.
    let loaded = fixture("code_from_text", None);
    assert_eq!(probed(loaded.path(), "config.rb", "port_probe"), "untyped");
    // `send(:send, "hel" + "per", 5)`: `send` itself is what is sent.
    let named = fixture("caller_named", None);
    assert_eq!(probed(named.path(), "report.rb", "title_probe"), "untyped");
    // `ERB.new(text).result(binding)`: a template runs in this scope.
    let template = fixture("erb_binding", None);
    assert_eq!(probed(template.path(), "page.rb", "pad_probe"), "untyped");
}

#[test]
fn a_default_value_that_assigns_an_earlier_parameter_leaves_it_unknown() {
    let dir = fixture("default_closure", None);
    assert_eq!(probed(dir.path(), "rep.rb", "closure_probe"), "untyped");
    // A default that only reads it leaves what the callers pass.
    assert_eq!(probed(dir.path(), "rep.rb", "plain_probe"), "String");
}

#[test]
fn a_method_given_to_object_calls_every_classs_private_methods() {
    let dir = fixture("object_reopened", None);
    assert_eq!(probed(dir.path(), "report.rb", "helper_probe"), "5 | String");
}

#[test]
fn a_parameter_handed_on_as_it_came_is_what_the_callers_callers_pass() {
    let dir = fixture("forwarded", None);
    let at = |needle| probed(dir.path(), "report.rb", needle);
    // render → header → centred → banner: two methods away.
    assert_eq!(at("line_probe"), "String");
    // walk passes itself its accumulator: only the outside call counts.
    assert_eq!(at("acc_probe"), ":start");
    // Reassigned before it is handed on (to a Symbol, here).
    assert_eq!(at("reassigned_probe"), "untyped");
    // Rebound unseen (`binding.local_variable_set`) before it is handed on.
    assert_eq!(at("rebound_probe"), "untyped");
    // The block's own `title` is not the method's String.
    assert_eq!(at("shadowed_probe"), "untyped");
    // ping → pong → ping: a cycle through another method.
    assert_eq!(at("ping_probe"), "untyped");
}

/// A module mixed in where no class body shows it (from outside the class,
/// at the top level, into Object, into a singleton class, into one object)
/// has callers no relative of its lists: its methods keep `untyped`
/// parameters (Ruby 3.1: `shout` also gets 2.5, "r", :r).
#[test]
fn a_module_mixed_in_where_no_class_body_shows_it_keeps_untyped_parameters() {
    let helpers = "module Helpers\n  private\n\n  def shout(n)\n    shout_probe = n\n    n\n  end\nend\n";
    let bar = "class Bar\n  include Helpers\n  def run = shout(1)\nend\n";
    let mixers = [
        "class Qux\n  def go = shout(2.5)\nend\nQux.include(Helpers)\n",
        "include Helpers\nclass Report\n  def title = shout(\"r\")\nend\n",
        "class Object\n  include Helpers\nend\nclass Report\n  def title = shout(\"r\")\nend\n",
        "class Report\n  class << self\n    include Helpers\n    def title = shout(:r)\n  end\nend\n",
        "class Report\n  def title = shout(\"r\")\nend\nReport.new.extend(Helpers)\n",
    ];
    for mixer in mixers {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("lib")).unwrap();
        for (file, source) in [("helpers.rb", helpers), ("bar.rb", bar), ("mixer.rb", mixer)] {
            std::fs::write(dir.path().join("lib").join(file), source).unwrap();
        }
        assert_eq!(probed(dir.path(), "helpers.rb", "shout_probe"), "untyped", "{mixer}");
    }
    // Included in class bodies alone: typed from those classes' calls.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("lib")).unwrap();
    let report = "class Report\n  include Helpers\n  def title = shout(\"r\")\nend\n";
    for (file, source) in [("helpers.rb", helpers), ("bar.rb", bar), ("report.rb", report)] {
        std::fs::write(dir.path().join("lib").join(file), source).unwrap();
    }
    assert_eq!(probed(dir.path(), "helpers.rb", "shout_probe"), "1 | String");
}
