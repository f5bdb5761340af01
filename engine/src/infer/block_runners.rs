//! Which methods run the block they are given on another object.
//!
//! The index takes a block given to a method the signatures name (`each`,
//! `run`) to run with the `self` it was written under, so its ivar writes
//! are that `self`'s. A project method of the same name may not: `def
//! self.run(obj, &b) = obj.instance_exec(&b)`. Each `def` of such a name
//! is read here; the project joins what the files say
//! ([`crate::model::index::run_elsewhere`]).

use ruby_prism::{CallNode, Node, Visit};

use crate::rbs::Environment;
use crate::syntax::name_text;

/// What a method does with its block.
#[derive(Debug, Default, PartialEq)]
pub struct BlockUse {
    /// It runs it on another object, or keeps it to run later: it hands
    /// it to code that runs it elsewhere (`obj.instance_exec(&b)`,
    /// `define_method(name, &b)`), to a method the signatures do not name
    /// (a project's or a gem's, which may), or uses it other than by
    /// calling it (`@hooks << b`).
    pub elsewhere: bool,
    /// Methods the signatures name that it hands its block to
    /// (`@items.each(&b)`): it runs it elsewhere if one of those does.
    pub handed_to: Vec<String>,
}

/// Core methods that run a block with another `self`.
pub const RUN_ELSEWHERE: &[&str] = &[
    "instance_eval",
    "instance_exec",
    "class_eval",
    "class_exec",
    "module_eval",
    "module_exec",
    "define_method",
    "define_singleton_method",
];

/// What `def` does with the block it is given. A block only `yield`ed or
/// called (`b.call`, `b.()`, `b[]`), or asked after (`if b`), runs where
/// it was written.
pub fn block_use(def: &ruby_prism::DefNode<'_>, env: &Environment) -> BlockUse {
    let parameters = def.parameters();
    let block = parameters.as_ref().and_then(|p| p.block()).and_then(|b| b.as_block_parameter_node());
    let forwards =
        parameters.as_ref().is_some_and(|p| matches!(p.keyword_rest(), Some(Node::ForwardingParameterNode { .. })));
    if block.is_none() && !forwards {
        return BlockUse::default();
    }
    let named = block.as_ref().and_then(|b| b.name()).map(|n| n.as_slice().to_vec());
    let mut uses = Uses { env, named, found: BlockUse::default() };
    if let Some(body) = def.body() {
        uses.visit(&body);
    }
    uses.found.handed_to.sort();
    uses.found.handed_to.dedup();
    uses.found
}

struct Uses<'e> {
    env: &'e Environment,
    /// The block parameter's name (`None` for `&` alone or `...`).
    named: Option<Vec<u8>>,
    found: BlockUse,
}

impl Uses<'_> {
    fn is_block(&self, node: &Node<'_>) -> bool {
        match (node.as_local_variable_read_node(), &self.named) {
            (Some(read), Some(named)) => read.name().as_slice() == named.as_slice(),
            _ => false,
        }
    }

    /// The block handed on by `call`: as `&b`, `&`, or within `...`.
    fn hands_block(&self, call: &CallNode<'_>) -> bool {
        let handed = call.block().and_then(|b| b.as_block_argument_node()).is_some_and(|argument| {
            // `&` alone, or `&b`.
            argument.expression().as_ref().is_none_or(|a| self.is_block(a))
        });
        handed
            || call
                .arguments()
                .is_some_and(|a| a.arguments().iter().any(|a| matches!(a, Node::ForwardingArgumentsNode { .. })))
    }
}

impl<'pr> Visit<'pr> for Uses<'_> {
    fn visit_call_node(&mut self, call: &CallNode<'pr>) {
        if self.hands_block(call) {
            let method = name_text(call.name());
            // A send may call any of them.
            let sent = matches!(&*method, "send" | "__send__" | "public_send");
            if sent || RUN_ELSEWHERE.contains(&&*method) || !self.env.declares_method_named(&method) {
                self.found.elsewhere = true;
            } else {
                self.found.handed_to.push(method.into_owned());
            }
            // The `&b` itself is no other use of it.
            if let Some(receiver) = call.receiver() {
                self.visit(&receiver);
            }
            if let Some(arguments) = call.arguments() {
                self.visit_arguments_node(&arguments);
            }
            return;
        }
        // `b.call(x)`, `b.(x)`, `b[x]`: run here.
        if call.receiver().as_ref().is_some_and(|r| self.is_block(r)) {
            if let Some(arguments) = call.arguments() {
                self.visit_arguments_node(&arguments);
            }
            return;
        }
        ruby_prism::visit_call_node(self, call);
    }

    fn visit_local_variable_read_node(&mut self, read: &ruby_prism::LocalVariableReadNode<'pr>) {
        // Kept, returned or passed as a value: it may run anywhere later.
        if self.is_block(&read.as_node()) {
            self.found.elsewhere = true;
        }
    }

    fn visit_if_node(&mut self, node: &ruby_prism::IfNode<'pr>) {
        // `if b` / `b ? x : y` only asks whether there is one.
        if !self.is_block(&node.predicate()) {
            return ruby_prism::visit_if_node(self, node);
        }
        if let Some(statements) = node.statements() {
            self.visit_statements_node(&statements);
        }
        if let Some(subsequent) = node.subsequent() {
            self.visit(&subsequent);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::{ParsedFile, RubyVersion};

    fn use_of(source: &str) -> BlockUse {
        let parsed = ParsedFile::parse_as(source.as_bytes(), RubyVersion::Latest);
        let env = Environment::build(vec![crate::rbs::convert::convert_file(
            "class Array[E]\n  def each: () { (E) -> void } -> self\nend\n",
        )
        .unwrap()]);
        let mut found = None;
        for node in crate::syntax::walk::all_nodes(&parsed.root()) {
            if let Some(def) = node.as_def_node() {
                found = Some(block_use(&def, &env));
            }
        }
        found.expect("a def")
    }

    #[test]
    fn a_block_yielded_called_or_asked_after_runs_where_it_was_written() {
        for source in [
            "def run(x) = yield(x)",
            "def run(x, &b) = b.call(x)",
            "def run(x, &b) = b.(x)",
            "def run(x, &b) = b ? b[x] : x",
        ] {
            assert_eq!(use_of(source), BlockUse::default(), "{source}");
        }
    }

    #[test]
    fn a_block_run_on_another_object_kept_or_handed_to_unknown_code_runs_elsewhere() {
        for source in [
            "def run(o, &b) = o.instance_exec(&b)",
            "def run(o, &) = o.instance_eval(&)",
            "def run(...) = helper_nobody_declares(...)",
            "def run(&b) = (@hooks = [b])",
            "def run(&b) = b",
            "def run(m, &b) = define_method(m, &b)",
        ] {
            assert!(use_of(source).elsewhere, "{source}");
        }
    }

    #[test]
    fn a_block_handed_to_a_named_method_runs_elsewhere_if_that_one_does() {
        let handed = use_of("def run(items, &b) = items.each(&b)");
        assert!(!handed.elsewhere);
        assert_eq!(handed.handed_to, ["each"]);
        let handoffs = [("run".to_string(), "each".to_string()), ("go".to_string(), "run".to_string())];
        assert!(crate::model::index::run_elsewhere([], &handoffs).is_empty());
        let found = crate::model::index::run_elsewhere(["each"], &handoffs);
        assert!(found.contains("run") && found.contains("go"));
    }
}
