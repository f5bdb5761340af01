//! What each file loads, and whether code the engine cannot see may run
//! before it: a gem or any library outside the project and Ruby's own
//! standard library can add methods to any class (minitest gives every
//! object `stub`, rss gives Time `w3cdtf`). A file that loads such code,
//! itself or through the project files it requires, is one where call
//! rules cannot be sure a method is missing or takes other arguments.
//! A core extension library (ActiveSupport, a `core_ext` feature) exists
//! to add methods to core classes, and a library that loads one is written
//! against them everywhere: the files it loads (required, or autoloaded by
//! constant name) run after it, so they are not judged either.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use ruby_prism::{CallNode, Node};

use crate::syntax::name;

/// One `require`, `require_relative`, `load` or `autoload`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Required {
    /// `require_relative "x"`: a path from the requiring file's directory.
    Relative(String),
    /// `require "x/y"`: a feature looked up in the load path.
    Feature(String),
    /// `autoload :RouteSet` without a path (`ActiveSupport::Autoload`
    /// finds the file from the constant's name): the project files named
    /// like it (`route_set.rb`).
    Constant(String),
    /// A computed name, or `Bundler.require`: anything may load.
    Unknown,
}

/// Ruby 3.1's own libraries (default gems and extensions) whose additions
/// to core classes the standard library signatures describe, or that add
/// none. Bundled gems (minitest, test-unit, rake, rss, ...) are not here:
/// they are gems like any other.
const STANDARD_LIBRARIES: &[&str] = &[
    "English",
    "abbrev",
    "base64",
    "benchmark",
    "bigdecimal",
    "cgi",
    "coverage",
    "csv",
    "date",
    "delegate",
    "did_you_mean",
    "digest",
    "drb",
    "erb",
    "error_highlight",
    "etc",
    "expect",
    "fcntl",
    "fiddle",
    "fileutils",
    "find",
    "forwardable",
    "getoptlong",
    "ipaddr",
    "irb",
    "json",
    "logger",
    "monitor",
    "mutex_m",
    "net",
    "nkf",
    "objspace",
    "observer",
    "open-uri",
    "open3",
    "openssl",
    "optionparser",
    "optparse",
    "ostruct",
    "pathname",
    "pp",
    "prettyprint",
    "pstore",
    "psych",
    "pty",
    "racc",
    "random",
    "rbconfig",
    "rdoc",
    "readline",
    "reline",
    "resolv",
    "resolv-replace",
    "rinda",
    "ripper",
    "rubygems",
    "securerandom",
    "set",
    "shellwords",
    "singleton",
    "socket",
    "stringio",
    "strscan",
    "syslog",
    "tempfile",
    "time",
    "timeout",
    "tmpdir",
    "tsort",
    "un",
    "unicode_normalize",
    "uri",
    "weakref",
    "yaml",
    "zlib",
    "io/console",
    "enc",
    // Features the interpreter provides itself: `require "rational"` only
    // returns false on Ruby 3.1 ($LOADED_FEATURES lists them).
    "thread",
    "rational",
    "complex",
    "enumerator",
    "fiber",
    "ruby2_keywords",
];

/// What one file's code requires as it loads, in order. A `require` in a
/// method body runs only if the method is called (lazy loading of optional
/// features, or a `require` wrapper), so it is not counted.
pub fn requirements(nodes: &[Node<'_>]) -> Vec<Required> {
    let bodies: Vec<std::ops::Range<usize>> = nodes
        .iter()
        .filter(|n| matches!(n, Node::DefNode { .. }))
        .map(|n| n.location().start() as usize..n.location().end() as usize)
        .collect();
    nodes
        .iter()
        .filter(|node| !bodies.iter().any(|body| body.contains(&(node.location().start() as usize))))
        .filter_map(|node| requirement(&node.as_call_node()?))
        .collect()
}

/// What one call loads, if it is a `require`, `require_relative`, `load`,
/// `autoload` or `Bundler.require`.
pub fn requirement(call: &CallNode<'_>) -> Option<Required> {
    let method = name(call.name());
    // `send(:require, path)`, `method(:load)`: loads what nobody can read.
    if matches!(method.as_str(), "send" | "__send__" | "public_send" | "method" | "public_method") {
        let first = call.arguments().and_then(|a| a.arguments().iter().next());
        let loads = first.as_ref().and_then(|f| f.as_symbol_node()).is_some_and(|symbol| {
            matches!(symbol.unescaped(), b"require" | b"require_relative" | b"load" | b"autoload")
        });
        return loads.then_some(Required::Unknown);
    }
    if let Some(receiver) = call.receiver() {
        let written = crate::syntax::constant_path_text(&receiver);
        if written.as_deref() == Some("Bundler") && method == "require" {
            return Some(Required::Unknown);
        }
        if written.as_deref() != Some("Kernel") {
            return None;
        }
    }
    let arguments: Vec<Node<'_>> = call.arguments().map(|a| a.arguments().iter().collect()).unwrap_or_default();
    let path = match (method.as_str(), arguments.as_slice()) {
        ("require" | "require_relative" | "load", [path, ..]) => path,
        ("autoload", [_, path, ..]) => path,
        ("autoload", [constant]) => {
            let symbol = constant.as_symbol_node()?;
            return Some(Required::Constant(crate::syntax::decoded(symbol.unescaped()).into_owned()));
        }
        _ => return None,
    };
    let literal = path.as_string_node().map(|s| crate::syntax::decoded(s.unescaped()).into_owned());
    Some(match (literal, method.as_str()) {
        (Some(path), "require_relative") => Required::Relative(path),
        (Some(path), _) => Required::Feature(path),
        (None, _) => from_this_directory(path).map_or(Required::Unknown, Required::Relative),
    })
}

/// Paths spelled from the file's own place: `File.expand_path("x",
/// __dir__)`, `File.expand_path("../x", __FILE__)`, `File.join(__dir__,
/// "x")`, `"#{__dir__}/x"`: the path relative to the file's directory.
fn from_this_directory(node: &Node<'_>) -> Option<String> {
    let literal = |n: &Node<'_>| n.as_string_node().map(|s| crate::syntax::decoded(s.unescaped()).into_owned());
    let is_dir = |n: &Node<'_>| n.as_call_node().is_some_and(|c| name(c.name()) == "__dir__" && c.receiver().is_none());
    let is_file = |n: &Node<'_>| matches!(n, Node::SourceFileNode { .. });
    if let Some(call) = node.as_call_node() {
        let on_file = call.receiver().as_ref().and_then(crate::syntax::constant_path_text).as_deref() == Some("File");
        let arguments: Vec<Node<'_>> = call.arguments().map(|a| a.arguments().iter().collect()).unwrap_or_default();
        return match (on_file, name(call.name()).as_str(), arguments.as_slice()) {
            (true, "expand_path", [path, base]) if is_dir(base) => literal(path),
            (true, "expand_path", [path, base]) if is_file(base) => {
                literal(path).and_then(|p| p.strip_prefix("../").map(str::to_string))
            }
            (true, "join", [base, path]) if is_dir(base) => literal(path),
            _ => None,
        };
    }
    let interpolated = node.as_interpolated_string_node()?;
    let parts: Vec<Node<'_>> = interpolated.parts().iter().collect();
    let [first, rest] = parts.as_slice() else { return None };
    let embedded = first.as_embedded_statements_node()?.statements()?.body().iter().next()?;
    if !is_dir(&embedded) {
        return None;
    }
    literal(rest)?.strip_prefix('/').map(str::to_string)
}

/// The project's files and what they load; which of them may see code
/// from outside the project and the standard library.
#[derive(Debug, Default, Clone, serde::Serialize, serde::Deserialize)]
pub struct LoadGraph {
    files: HashMap<String, Vec<Required>>,
    /// Files that load unseen code (or whose project requirements do).
    exposed: HashSet<String>,
    /// Files loaded, directly or not, by one that loaded a core extension.
    extended: HashSet<String>,
}

impl LoadGraph {
    pub fn add(&mut self, path: &str, required: Vec<Required>) {
        self.files.insert(normalize(path), required);
    }

    pub fn merge(&mut self, other: LoadGraph) {
        self.files.extend(other.files);
    }

    /// Works out which files load unseen code, directly or through the
    /// project files they require, and which files run after a core
    /// extension library.
    pub fn settle(&mut self) {
        let mut edges: HashMap<&str, Vec<String>> = HashMap::default();
        let mut exposed: HashSet<String> = HashSet::default();
        let mut extended: HashSet<String> = HashSet::default();
        // Files by their name as a constant spells it, for `autoload :Name`:
        // built once, not per autoload.
        let mut by_constant: HashMap<String, Vec<String>> = HashMap::default();
        if self.files.values().flatten().any(|r| matches!(r, Required::Constant(_))) {
            for file in self.files.keys() {
                let stem = file.rsplit('/').next().unwrap_or(file).trim_end_matches(".rb");
                by_constant.entry(constant_spelling(stem)).or_default().push(file.clone());
            }
            by_constant.values_mut().for_each(|files| files.sort());
        }
        for (file, required) in &self.files {
            for requirement in required {
                match self.resolve(file, requirement, &by_constant) {
                    Resolved::Project(targets) => edges.entry(file.as_str()).or_default().extend(targets),
                    Resolved::Standard => {}
                    Resolved::Unseen => {
                        exposed.insert(file.clone());
                        if is_core_extension(requirement) {
                            extended.insert(file.clone());
                        }
                        if *requirement == Required::Unknown {
                            // A computed path is most often built from the
                            // file's own place (`Dir["#{__dir__}/x/*.rb"]`):
                            // it may load any file below it.
                            let directory = file.rsplit_once('/').map_or(String::new(), |(d, _)| format!("{d}/"));
                            let below = self.files.keys().filter(|f| f.starts_with(&directory) && *f != file);
                            edges.entry(file.as_str()).or_default().extend(below.cloned());
                        }
                    }
                }
            }
        }
        // Whoever requires a file that loads unseen code loads it too.
        for set in [&mut exposed, &mut extended] {
            loop {
                let before = set.len();
                for (file, targets) in &edges {
                    if targets.iter().any(|t| set.contains(t)) {
                        set.insert(file.to_string());
                    }
                }
                if set.len() == before {
                    break;
                }
            }
        }
        // What a file that loaded a core extension loads runs after it (an
        // autoloaded Rails file calling String#squish). Only that way:
        // the file's other loaders need not have loaded the extension.
        let mut pending: Vec<String> = extended.iter().cloned().collect();
        while let Some(file) = pending.pop() {
            for target in edges.get(file.as_str()).into_iter().flatten() {
                if extended.insert(target.clone()) {
                    pending.push(target.clone());
                }
            }
        }
        self.exposed = exposed;
        self.extended = extended;
    }

    /// May code the engine cannot see have run before this file's code?
    pub fn sees_unseen_code(&self, path: &str) -> bool {
        let path = normalized(path);
        self.exposed.contains(&*path) || self.extended.contains(&*path)
    }

    /// May that code have given `nil` this method? Where only a core
    /// extension ran first, only the methods such libraries give every
    /// object (`nil.blank?`): `nil.length` still raises.
    pub fn unseen_code_may_give_nil(&self, path: &str, method: &str) -> bool {
        let path = normalized(path);
        self.exposed.contains(&*path) || (self.extended.contains(&*path) && EVERY_OBJECT_EXTENSIONS.contains(&method))
    }

    fn resolve(&self, file: &str, requirement: &Required, by_constant: &HashMap<String, Vec<String>>) -> Resolved {
        match requirement {
            Required::Unknown => Resolved::Unseen,
            Required::Constant(constant) => match by_constant.get(&constant_spelling(constant)) {
                Some(targets) => Resolved::Project(targets.clone()),
                None => Resolved::Unseen,
            },
            Required::Relative(path) => {
                let directory = file.rsplit_once('/').map_or("", |(dir, _)| dir);
                let joined = if directory.is_empty() { path.clone() } else { format!("{directory}/{path}") };
                let target = normalize(&with_extension(&joined));
                if self.files.contains_key(&target) {
                    Resolved::Project(vec![target])
                } else {
                    Resolved::Unseen
                }
            }
            Required::Feature(feature) => {
                let wanted = with_extension(feature.trim_start_matches("./"));
                let suffix = format!("/{wanted}");
                // Every file it may name: which one the load path finds
                // first is not known (and a map's order is no answer).
                let mut in_project: Vec<String> =
                    self.files.keys().filter(|f| **f == wanted || f.ends_with(&suffix)).cloned().collect();
                if !in_project.is_empty() {
                    in_project.sort();
                    return Resolved::Project(in_project);
                }
                let first = feature.split('/').next().unwrap_or(feature);
                let standard = STANDARD_LIBRARIES.contains(&first)
                    || STANDARD_LIBRARIES.contains(&feature.trim_end_matches(".so"))
                    || STANDARD_LIBRARIES.contains(&first.trim_end_matches(".so"));
                if standard {
                    Resolved::Standard
                } else {
                    Resolved::Unseen
                }
            }
        }
    }
}

/// What ActiveSupport's `core_ext/object` gives every object, nil too.
const EVERY_OBJECT_EXTENSIONS: &[&str] = &[
    "acts_like?",
    "as_json",
    "blank?",
    "deep_dup",
    "duplicable?",
    "html_safe?",
    "in?",
    "instance_values",
    "instance_variable_names",
    "presence",
    "presence_in",
    "present?",
    "to_param",
    "to_query",
    "try",
    "try!",
    "with_options",
];

/// ActiveSupport, and the Rails libraries that load it when required.
const RAILS_FRAMEWORKS: &[&str] = &[
    "active_support",
    "rails",
    "action_view",
    "action_controller",
    "action_dispatch",
    "action_mailer",
    "action_cable",
    "active_record",
    "active_model",
    "active_job",
    "active_storage",
];

/// A file stem or a constant name as both spell it: `route_set` and
/// `RouteSet` are `routeset`.
pub fn constant_spelling(name: &str) -> String {
    name.replace('_', "").to_ascii_lowercase()
}

/// A library that exists to add methods to core classes: ActiveSupport
/// (`active_support`, `active_support/rails`, ...), a Rails framework
/// that loads it (`action_view` adds `String#html_safe`), or any
/// `core_ext` feature (`active_support/core_ext/string/filters`,
/// `foo/core_ext`).
fn is_core_extension(requirement: &Required) -> bool {
    match requirement {
        Required::Feature(feature) => {
            let library = feature.split('/').next().unwrap_or_default();
            RAILS_FRAMEWORKS.contains(&library) || feature.split('/').any(|p| p == "core_ext")
        }
        // `require_relative "../core_ext/array"` (sshkit's own).
        Required::Relative(path) => path.split('/').any(|p| p == "core_ext"),
        _ => false,
    }
}

enum Resolved {
    Project(Vec<String>),
    Standard,
    Unseen,
}

fn with_extension(path: &str) -> String {
    if path.ends_with(".rb") {
        path.to_string()
    } else {
        format!("{path}.rb")
    }
}

/// `./a/../b/c.rb` is `b/c.rb`; a path that needs nothing is borrowed
/// (this is asked at every call a rule judges).
fn normalized(path: &str) -> std::borrow::Cow<'_, str> {
    if path.split('/').any(|part| matches!(part, "" | "." | "..")) {
        std::borrow::Cow::Owned(normalize(path))
    } else {
        std::borrow::Cow::Borrowed(path)
    }
}

/// `./a/../b/c.rb` is `b/c.rb`.
fn normalize(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::walk::all_nodes;
    use crate::syntax::ParsedFile;

    fn graph(files: &[(&str, &str)]) -> LoadGraph {
        let mut graph = LoadGraph::default();
        for (path, source) in files {
            let parsed = ParsedFile::parse(source.as_bytes());
            graph.add(path, requirements(&all_nodes(&parsed.root())));
        }
        graph.settle();
        graph
    }

    #[test]
    fn gems_expose_their_requirers_and_whoever_requires_those() {
        let g = graph(&[
            ("test/helper.rb", "require \"minitest/autorun\"\n"),
            ("test/test_a.rb", "require_relative \"helper\"\n"),
            ("test/test_b.rb", "require \"set\"\nrequire \"lib/thing\"\n"),
            ("lib/thing.rb", "require \"json\"\nrequire_relative \"../lib/other\"\n"),
            ("lib/other.rb", ""),
            ("lib/dynamic.rb", "require name\n"),
            ("lib/missing.rb", "require_relative \"nowhere\"\n"),
            ("lib/lazy.rb", "def load_plugin(name)\n  require name\nend\n"),
            ("lib/spelled.rb", "autoload :A, File.expand_path(\"other\", __dir__)\nrequire File.expand_path(\"../other\", __FILE__)\nrequire File.join(__dir__, \"other\")\nautoload :B, \"#{__dir__}/other\"\n"),
        ]);
        assert!(!g.sees_unseen_code("lib/lazy.rb"), "a require in a method body runs only when called");
        assert!(!g.sees_unseen_code("lib/spelled.rb"), "paths spelled from the file's directory resolve");
        assert!(g.sees_unseen_code("test/helper.rb"));
        assert!(g.sees_unseen_code("./test/test_a.rb"));
        assert!(!g.sees_unseen_code("test/test_b.rb"), "standard libraries and project files are seen");
        assert!(!g.sees_unseen_code("lib/thing.rb"));
        assert!(g.sees_unseen_code("lib/dynamic.rb"));
        assert!(g.sees_unseen_code("lib/missing.rb"));
    }

    #[test]
    fn what_a_core_extension_loader_loads_runs_after_the_extension() {
        let g = graph(&[
            // actionpack's shape: the entry loads ActiveSupport, then
            // autoloads by constant name; those files require others.
            (
                "lib/action_dispatch.rb",
                "require \"active_support\"\nmodule ActionDispatch\n  extend ActiveSupport::Autoload\n  autoload :RouteSet\nend\n",
            ),
            ("lib/action_dispatch/routing/route_set.rb", "require \"action_controller/metal/exceptions\"\n"),
            ("lib/action_controller/metal/exceptions.rb", ""),
            // Required by an extended file and by one that is not: the
            // extension is not pushed back onto its other loader.
            ("lib/tools.rb", "require_relative \"action_controller/metal/exceptions\"\n"),
            // An ordinary gem exposes only its requirers, not what they load.
            ("lib/rubocop.rb", "require \"rainbow\"\nrequire_relative \"rubocop/cop\"\n"),
            ("lib/rubocop/cop.rb", ""),
            ("lib/plain.rb", "require \"foo/core_ext/string\"\nrequire_relative \"leaf\"\n"),
            ("lib/leaf.rb", ""),
            // haml's shape: a Rails framework loads ActiveSupport's core
            // extensions (`String#html_safe`).
            ("lib/template.rb", "require \"action_view\"\nrequire_relative \"helpers\"\n"),
            ("lib/helpers.rb", ""),
            ("lib/lonely.rb", "autoload :Nowhere\n"),
            // activemodel's shape: a computed require of its own directory.
            (
                "lib/active_model/validations.rb",
                "require \"active_support/core_ext/array/extract_options\"\nDir[File.expand_path(\"validations/*.rb\", __dir__)].each { |file| require file }\n",
            ),
            ("lib/active_model/validations/helper_methods.rb", ""),
            ("lib/elsewhere/thing.rb", ""),
            // sshkit's shape: its own core_ext beside it, outside the project.
            ("sshkit/all.rb", "require_relative \"../core_ext/array\"\nrequire_relative \"command\"\n"),
            ("sshkit/command.rb", ""),
        ]);
        assert!(g.sees_unseen_code("lib/action_dispatch.rb"));
        assert!(g.sees_unseen_code("lib/action_dispatch/routing/route_set.rb"), "autoloaded by constant name");
        assert!(g.sees_unseen_code("lib/action_controller/metal/exceptions.rb"), "required by an autoloaded file");
        assert!(!g.sees_unseen_code("lib/tools.rb"), "loading an extended file does not load the extension");
        assert!(g.sees_unseen_code("lib/rubocop.rb"));
        assert!(!g.sees_unseen_code("lib/rubocop/cop.rb"), "only core extensions flow to what their loader loads");
        assert!(g.sees_unseen_code("lib/leaf.rb"), "any core_ext feature is a core extension");
        assert!(g.sees_unseen_code("lib/helpers.rb"), "a Rails framework is a core extension");
        assert!(g.sees_unseen_code("lib/lonely.rb"), "an autoload no project file answers loads unseen code");
        assert!(g.sees_unseen_code("lib/active_model/validations/helper_methods.rb"), "a computed require below it");
        assert!(!g.sees_unseen_code("lib/elsewhere/thing.rb"), "a computed require loads from its own directory");
        assert!(g.sees_unseen_code("sshkit/command.rb"), "a core_ext path of its own counts too");
        // A core extension gives nil a few methods, not every one.
        let exceptions = "lib/action_controller/metal/exceptions.rb";
        assert!(g.unseen_code_may_give_nil(exceptions, "blank?"));
        assert!(!g.unseen_code_may_give_nil(exceptions, "length"), "nil.length raises with ActiveSupport too");
        assert!(g.unseen_code_may_give_nil("lib/rubocop.rb", "length"), "what a gem gives nil is not known");
        assert!(!g.unseen_code_may_give_nil("lib/rubocop/cop.rb", "blank?"));
    }
}
