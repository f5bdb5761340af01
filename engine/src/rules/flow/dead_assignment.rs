use rustc_hash::FxHashSet as HashSet;

use ruby_prism::{
    visit_call_node, visit_def_node, CallNode, ClassNode, DefNode, ForwardingSuperNode, LocalVariableAndWriteNode,
    LocalVariableOperatorWriteNode, LocalVariableOrWriteNode, LocalVariableReadNode, ModuleNode, Node,
    SingletonClassNode, StatementsNode, Visit,
};

use crate::diagnostic::{EvidenceTier, Severity};
use crate::rules::{Finding, RuleContext, RuleInfo};
use crate::stack_guard::ensure_room;
use crate::syntax::{name, start};

pub static RULE: RuleInfo = RuleInfo {
    id: "flow.dead-assignment",
    aliases: &["dead-assignment"],
    summary: "A local variable is assigned inside a method but its value is never read.",
    fires_when: &[
        "inside a `def`, a statement `x = …` assigns a local that is never read anywhere in that method (blocks included)",
        "the assignment is not the last statement of its sequence, so its value is not the result of anything",
    ],
    does_not_fire_when: &[
        "the name starts with `_`",
        "the write is an operator-assignment (`x += 1`, `x ||= 1`), a multiple assignment, a rescue target or a pattern capture",
        "the assignment is the last statement of a body or branch (it may be the method's or block's value)",
        "the assignment is used as a value (`foo(x = 1)`, `if (m = re.match(s))`)",
        "the method calls `binding`, `eval`, `local_variables` or a string `instance_eval`/`class_eval`/`module_eval`, or uses a bare `super` (which passes the current values of parameters)",
        "top-level code, class bodies and blocks outside any method",
    ],
    example: "def f\n  t = 1\n  2\nend",
    authored: Severity::Warning,
    by_profile: [Some(Severity::Info), Some(Severity::Warning), Some(Severity::Error)],
    evidence: EvidenceTier::Medium,
    since: "0.1.0",
    check,
};

fn check(cx: &RuleContext<'_, '_>, out: &mut Vec<Finding>) {
    let file = cx.parsed;
    let mut finder = Methods { out };
    finder.visit(&file.root());
}

/// Finds each `def` and analyses its body as one scope.
struct Methods<'f> {
    out: &'f mut Vec<Finding>,
}

impl<'pr> Visit<'pr> for Methods<'_> {
    fn visit_branch_node_enter(&mut self, _node: Node<'pr>) {
        ensure_room();
    }

    fn visit_def_node(&mut self, node: &DefNode<'pr>) {
        if let Some(body) = node.body() {
            let mut scope = MethodScope::default();
            scope.visit(&body);
            if !scope.reads_implicitly {
                let method = name(node.name());
                for (variable, offset) in scope.statement_writes {
                    if !variable.starts_with('_') && !scope.reads.contains(&variable) {
                        self.out.push(Finding::new(
                            &RULE,
                            offset,
                            format!("`{variable}` is assigned but never read in `{method}`"),
                        ));
                    }
                }
            }
        }
        // Nested defs are analysed as their own scopes.
        visit_def_node(self, node);
    }
}

/// Reads and statement-level writes of locals within one method body.
#[derive(Default)]
struct MethodScope {
    reads: HashSet<String>,
    /// (name, offset of the name) of `x = …` written as a non-final statement.
    statement_writes: Vec<(String, usize)>,
    /// `binding`, `eval`, `local_variables` or zsuper: locals are read in ways we cannot see.
    reads_implicitly: bool,
}

impl MethodScope {
    /// Notes a local read, copying its name only the first time.
    fn note_read(&mut self, id: ruby_prism::ConstantId<'_>) {
        let local = crate::syntax::name_text(id);
        if !self.reads.contains(&*local) {
            self.reads.insert(local.into_owned());
        }
    }
}

impl<'pr> Visit<'pr> for MethodScope {
    fn visit_branch_node_enter(&mut self, _node: Node<'pr>) {
        ensure_room();
    }

    fn visit_statements_node(&mut self, node: &StatementsNode<'pr>) {
        let body = node.body();
        let count = body.len();
        for (index, statement) in body.iter().enumerate() {
            if index + 1 < count {
                if let Some(write) = statement.as_local_variable_write_node() {
                    self.statement_writes.push((name(write.name()), start(&write.name_loc())));
                }
            }
        }
        ruby_prism::visit_statements_node(self, node);
    }

    fn visit_local_variable_read_node(&mut self, node: &LocalVariableReadNode<'pr>) {
        self.note_read(node.name());
    }

    fn visit_local_variable_operator_write_node(&mut self, node: &LocalVariableOperatorWriteNode<'pr>) {
        self.note_read(node.name());
        ruby_prism::visit_local_variable_operator_write_node(self, node);
    }

    fn visit_local_variable_or_write_node(&mut self, node: &LocalVariableOrWriteNode<'pr>) {
        self.note_read(node.name());
        ruby_prism::visit_local_variable_or_write_node(self, node);
    }

    fn visit_local_variable_and_write_node(&mut self, node: &LocalVariableAndWriteNode<'pr>) {
        self.note_read(node.name());
        ruby_prism::visit_local_variable_and_write_node(self, node);
    }

    fn visit_call_node(&mut self, node: &CallNode<'pr>) {
        let method = crate::syntax::name_text(node.name());
        let method = &*method;
        let implicit_self = node.receiver().is_none();
        // String evals see the caller's locals; block forms are ordinary reads.
        let string_eval = matches!(method, "instance_eval" | "class_eval" | "module_eval" | "class_exec")
            && node.block().is_none()
            && node.arguments().is_some();
        // `send(:binding)`, `method(:eval)`: the same, by name.
        let by_name = matches!(method, "send" | "__send__" | "method")
            && node.arguments().and_then(|a| a.arguments().iter().next()).is_some_and(|first| {
                first
                    .as_symbol_node()
                    .is_some_and(|s| matches!(s.unescaped(), b"binding" | b"eval" | b"local_variables"))
            });
        if (implicit_self && matches!(method, "binding" | "eval" | "local_variables")) || string_eval || by_name {
            self.reads_implicitly = true;
        }
        visit_call_node(self, node);
    }

    fn visit_forwarding_super_node(&mut self, node: &ForwardingSuperNode<'pr>) {
        self.reads_implicitly = true;
        ruby_prism::visit_forwarding_super_node(self, node);
    }

    // Nested scopes do not share this method's locals.
    fn visit_def_node(&mut self, _node: &DefNode<'pr>) {}
    fn visit_class_node(&mut self, _node: &ClassNode<'pr>) {}
    fn visit_module_node(&mut self, _node: &ModuleNode<'pr>) {}
    fn visit_singleton_class_node(&mut self, _node: &SingletonClassNode<'pr>) {}
}
