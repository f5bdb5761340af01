//! What each file loads, and whether code the engine cannot see may run
//! before it: a gem or any library outside the project and Ruby's own
//! standard library can add methods to any class (minitest gives every
//! object `stub`, rss gives Time `w3cdtf`). A file that loads such code,
//! itself or through the project files it requires, is one where call rules
//! cannot be sure a method is missing or takes other arguments.

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
        _ => return None,
    };
    let literal = path.as_string_node().map(|s| String::from_utf8_lossy(s.unescaped()).into_owned());
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
    let literal = |n: &Node<'_>| n.as_string_node().map(|s| String::from_utf8_lossy(s.unescaped()).into_owned());
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
    exposed: HashSet<String>,
}

impl LoadGraph {
    pub fn add(&mut self, path: &str, required: Vec<Required>) {
        self.files.insert(normalize(path), required);
    }

    pub fn merge(&mut self, other: LoadGraph) {
        self.files.extend(other.files);
    }

    /// Works out which files load unseen code, directly or through the
    /// project files they require.
    pub fn settle(&mut self) {
        let mut edges: HashMap<&str, Vec<String>> = HashMap::default();
        let mut exposed: HashSet<String> = HashSet::default();
        for (file, required) in &self.files {
            for requirement in required {
                match self.resolve(file, requirement) {
                    Resolved::Project(target) => edges.entry(file.as_str()).or_default().push(target),
                    Resolved::Standard => {}
                    Resolved::Unseen => {
                        exposed.insert(file.clone());
                    }
                }
            }
        }
        // Whoever requires an exposed file is exposed too.
        loop {
            let before = exposed.len();
            for (file, targets) in &edges {
                if targets.iter().any(|t| exposed.contains(t)) {
                    exposed.insert(file.to_string());
                }
            }
            if exposed.len() == before {
                break;
            }
        }
        self.exposed = exposed;
    }

    /// May code the engine cannot see have run before this file's code?
    pub fn sees_unseen_code(&self, path: &str) -> bool {
        self.exposed.contains(&normalize(path))
    }

    fn resolve(&self, file: &str, requirement: &Required) -> Resolved {
        match requirement {
            Required::Unknown => Resolved::Unseen,
            Required::Relative(path) => {
                let directory = file.rsplit_once('/').map_or("", |(dir, _)| dir);
                let joined = if directory.is_empty() { path.clone() } else { format!("{directory}/{path}") };
                let target = normalize(&with_extension(&joined));
                if self.files.contains_key(&target) {
                    Resolved::Project(target)
                } else {
                    Resolved::Unseen
                }
            }
            Required::Feature(feature) => {
                let wanted = with_extension(feature.trim_start_matches("./"));
                let suffix = format!("/{wanted}");
                let in_project = self.files.keys().find(|f| **f == wanted || f.ends_with(&suffix));
                if let Some(target) = in_project {
                    return Resolved::Project(target.clone());
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

enum Resolved {
    Project(String),
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
}
