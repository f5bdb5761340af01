//! Facts of one file that make "this method does not exist" unsafe to
//! say: methods the code probes before calling (`respond_to?`), code that
//! rescues NoMethodError, refinements, objects given methods one by one.

use rustc_hash::FxHashSet as HashSet;
use std::ops::Range;

use ruby_prism::Node;

use crate::syntax::{literal_truthiness, name};

#[derive(Debug, Default)]
pub struct Hazards {
    /// Method names the file asks about (`respond_to?(:m)`, `defined?(x.m)`).
    pub probed: HashSet<String>,
    /// Byte ranges of code whose NoMethodError is rescued, and of
    /// `defined?` operands.
    rescued: Vec<Range<usize>>,
    /// Byte ranges of `defined?` operands alone: code Ruby never runs.
    never_run: Vec<Range<usize>>,
    /// Byte ranges of conditionals on the Ruby running (`case
    /// RUBY_ENGINE`, `if RUBY_VERSION >= "1.9"`): each branch is written
    /// for some Ruby, not necessarily the one the signatures describe.
    version_switched: Vec<Range<usize>>,
    /// Byte ranges of branches a literal condition never takes (`if false`,
    /// `true ? a : b`'s `b`, `false && x`'s `x`): written, never run.
    dead: Vec<Range<usize>>,
    /// `using`: refinements may add methods anywhere in the file.
    pub refines: bool,
    /// `obj.extend(M)` or `class << obj`: one object gains methods its
    /// class lacks.
    pub extends_objects: bool,
}

/// Methods whose symbol argument names a method the code asks about.
const PROBES: &[&str] = &[
    "respond_to?",
    "method_defined?",
    "public_method_defined?",
    "private_method_defined?",
    "protected_method_defined?",
    "instance_method",
    "public_instance_method",
    "method",
    "public_method",
    "singleton_method",
];

/// Constants that tell which Ruby runs.
const RUBY_IDENTITY: &[&str] =
    &["RUBY_VERSION", "RUBY_ENGINE", "RUBY_ENGINE_VERSION", "RUBY_PATCHLEVEL", "RUBY_PLATFORM", "RUBY_RELEASE_DATE"];

/// Rescued classes that catch NoMethodError.
const CATCHES_NO_METHOD: &[&str] = &["NoMethodError", "NameError", "StandardError", "Exception"];

impl Hazards {
    pub fn of(nodes: &[Node<'_>]) -> Hazards {
        let mut hazards = Hazards::default();
        // Conditionals and their predicates' ranges, and where the file
        // reads a constant naming the Ruby: matched once all are seen.
        let mut conditionals: Vec<(Range<usize>, Range<usize>)> = Vec::new();
        let mut identity_reads: Vec<usize> = Vec::new();
        for node in nodes {
            match node {
                Node::IfNode { .. } => {
                    let node_if = node.as_if_node().expect("an if");
                    conditionals.push((range(node), range(&node_if.predicate())));
                    let dead = match literal_truthiness(&node_if.predicate()) {
                        Some(true) => node_if.subsequent(),
                        Some(false) => node_if.statements().map(|s| s.as_node()),
                        None => None,
                    };
                    hazards.dead.extend(dead.map(|dead| range(&dead)));
                }
                Node::UnlessNode { .. } => {
                    let unless = node.as_unless_node().expect("an unless");
                    conditionals.push((range(node), range(&unless.predicate())));
                    let dead = match literal_truthiness(&unless.predicate()) {
                        Some(true) => unless.statements().map(|s| s.as_node()),
                        Some(false) => unless.else_clause().map(|e| e.as_node()),
                        None => None,
                    };
                    hazards.dead.extend(dead.map(|dead| range(&dead)));
                }
                Node::AndNode { .. } => {
                    let and = node.as_and_node().expect("an and");
                    if literal_truthiness(&and.left()) == Some(false) {
                        hazards.dead.push(range(&and.right()));
                    }
                }
                Node::OrNode { .. } => {
                    let or = node.as_or_node().expect("an or");
                    if literal_truthiness(&or.left()) == Some(true) {
                        hazards.dead.push(range(&or.right()));
                    }
                }
                Node::CaseNode { .. } => {
                    if let Some(predicate) = node.as_case_node().expect("a case").predicate() {
                        conditionals.push((range(node), range(&predicate)));
                    }
                }
                Node::ConstantReadNode { .. } | Node::ConstantPathNode { .. } => {
                    let named = crate::syntax::constant_path_text(node);
                    if named.is_some_and(|text| RUBY_IDENTITY.contains(&text.trim_start_matches("::"))) {
                        identity_reads.push(node.location().start() as usize);
                    }
                }
                Node::CallNode { .. } => hazards.call(node),
                Node::DefinedNode { .. } => {
                    let defined = node.as_defined_node().expect("a defined? node");
                    let value = defined.value();
                    hazards.rescued.push(range(&value));
                    hazards.never_run.push(range(&value));
                    if let Some(call) = value.as_call_node() {
                        hazards.probed.insert(name(call.name()));
                    }
                }
                Node::RescueModifierNode { .. } => {
                    let modifier = node.as_rescue_modifier_node().expect("a rescue modifier");
                    hazards.rescued.push(range(&modifier.expression()));
                }
                Node::BeginNode { .. } => hazards.begin(node),
                Node::SingletonClassNode { .. } => {
                    let singleton = node.as_singleton_class_node().expect("a singleton class");
                    if !matches!(singleton.expression(), Node::SelfNode { .. }) {
                        hazards.extends_objects = true;
                    }
                }
                _ => {}
            }
        }
        if !identity_reads.is_empty() {
            hazards.version_switched = conditionals
                .into_iter()
                .filter(|(_, predicate)| identity_reads.iter().any(|read| predicate.contains(read)))
                .map(|(whole, _)| whole)
                .collect();
        }
        hazards
    }

    /// Is the code at this offset in a branch a literal condition never
    /// takes?
    pub fn dead(&self, offset: usize) -> bool {
        self.dead.iter().any(|r| r.contains(&offset))
    }

    /// Is the code at this offset in a conditional on the Ruby running?
    pub fn version_switched(&self, offset: usize) -> bool {
        self.version_switched.iter().any(|r| r.contains(&offset))
    }

    /// Is the code at this offset inside a rescue of NoMethodError or a
    /// `defined?`?
    pub fn rescues_no_method(&self, offset: usize) -> bool {
        self.rescued.iter().any(|r| r.contains(&offset))
    }

    /// Is the code at this offset inside a `defined?` operand (never run)?
    pub fn never_runs(&self, offset: usize) -> bool {
        self.never_run.iter().any(|r| r.contains(&offset))
    }

    fn call(&mut self, node: &Node<'_>) {
        let call = node.as_call_node().expect("a call");
        let method = name(call.name());
        let arguments: Vec<Node<'_>> = call.arguments().map(|a| a.arguments().iter().collect()).unwrap_or_default();
        if PROBES.contains(&method.as_str()) {
            if let Some(first) = arguments.first() {
                if let Some(symbol) = first.as_symbol_node() {
                    self.probed.insert(crate::syntax::decoded(symbol.unescaped()).into_owned());
                } else if let Some(string) = first.as_string_node() {
                    self.probed.insert(crate::syntax::decoded(string.unescaped()).into_owned());
                }
            }
        }
        match method.as_str() {
            "using" if call.receiver().is_none() => self.refines = true,
            "extend" => {
                let on_object = call.receiver().is_some_and(|r| {
                    !matches!(r, Node::SelfNode { .. } | Node::ConstantReadNode { .. } | Node::ConstantPathNode { .. })
                });
                if on_object {
                    self.extends_objects = true;
                }
            }
            _ => {}
        }
    }

    /// A `begin` (or a `def` body with `rescue`) whose clauses catch
    /// NoMethodError: its statements are covered.
    fn begin(&mut self, node: &Node<'_>) {
        let begin = node.as_begin_node().expect("a begin");
        let Some(statements) = begin.statements() else { return };
        let mut clause = begin.rescue_clause();
        while let Some(rescue) = clause {
            let exceptions: Vec<Node<'_>> = rescue.exceptions().iter().collect();
            let catches = exceptions.is_empty()
                || exceptions.iter().any(|e| {
                    crate::syntax::constant_path_text(e)
                        .is_some_and(|text| CATCHES_NO_METHOD.contains(&text.trim_start_matches("::")))
                        || !matches!(e, Node::ConstantReadNode { .. } | Node::ConstantPathNode { .. })
                });
            if catches {
                self.rescued.push(range(&statements.as_node()));
                return;
            }
            clause = rescue.subsequent();
        }
    }
}

fn range(node: &Node<'_>) -> Range<usize> {
    let location = node.location();
    location.start() as usize..location.end() as usize
}
