use ruby_prism::Node;

use super::suggest::{closest, offered};
use crate::diagnostic::{EvidenceTier, Severity};
use crate::rules::{Finding, RuleContext, RuleInfo};

pub static RULE: RuleInfo = RuleInfo {
    id: "call.unresolved-toplevel",
    aliases: &["unresolved-toplevel"],
    summary: "A call at the top level, on the implicit `self` (main), that nothing defines: no `def` in the project, no Kernel or Object method.",
    fires_when: &[
        "a call with no receiver, outside any class, module, method or block, names a method that no `def` (or macro) in the project defines and that Object and Kernel lack",
        "the message offers Object's and Kernel's methods (private ones too, `puts`) and the file's top-level `def`s one slip away (`pust`: did you mean `puts`?)",
    ],
    does_not_fire_when: &[
        "the name is defined by a top-level `def` or any definition in the project, or is a Kernel/Object method (`puts`, `require`)",
        "the call is inside a class, module, method or block (a DSL's block may run with another `self`)",
        "the file reads code from strings or uses `method_missing` at the top level",
        "the file loads (itself or through the project files it requires) a library outside the project and Ruby's standard library: a gem's DSL may define the method",
        "the file is loaded (required, or autoloaded by constant name) after a core extension library (ActiveSupport, a `core_ext` feature): its methods may be that library's",
    ],
    example: "frobnicate(1)",
    authored: Severity::Warning,
    by_profile: [None, Some(Severity::Warning), Some(Severity::Error)],
    evidence: EvidenceTier::Low,
    since: "0.1.0",
    check,
};

/// Methods of the top-level object `main` itself, and the Rigor::Testing
/// helpers dump.type and assert.type-mismatch read.
const MAIN_METHODS: &[&str] =
    &["include", "public", "private", "define_method", "using", "to_s", "inspect", "dump_type", "assert_type"];

fn check(cx: &RuleContext<'_, '_>, out: &mut Vec<Finding>) {
    let scopes: Vec<std::ops::Range<usize>> = cx
        .nodes()
        .iter()
        .filter(|node| {
            matches!(
                node,
                Node::ClassNode { .. }
                    | Node::ModuleNode { .. }
                    | Node::SingletonClassNode { .. }
                    | Node::DefNode { .. }
                    | Node::BlockNode { .. }
                    | Node::LambdaNode { .. }
            )
        })
        .map(|node| node.location().start() as usize..node.location().end() as usize)
        .collect();
    if cx.project.any_dynamic(&[]) || cx.sees_unseen_code() {
        return;
    }
    for call in cx.calls() {
        if call.receiver.is_some() || scopes.iter().any(|scope| scope.contains(&call.anchor)) {
            continue;
        }
        let method = &*call.method;
        if MAIN_METHODS.contains(&method)
            || cx.project.defines_anywhere(method)
            || cx.env.instance_method("Object", method).is_some()
            || super::core_gaps::defined_at_run_time(
                &["Object", "Kernel", "BasicObject"],
                crate::rules::project::Owner::Instance,
                method,
            )
            || super::stdlib_methods::adds(&["Object", "Kernel"], crate::rules::project::Owner::Instance, method)
        {
            continue;
        }
        let meant = offered(&closest(method, main_answers(cx, &scopes)));
        out.push(
            Finding::new(
                &RULE,
                call.anchor,
                format!("`{method}` is called at the top level, but nothing defines it{meant}"),
            )
            .on_call("Object", method),
        );
    }
}

/// What a call on main may mean: Object's and Kernel's methods, private
/// ones too (`puts`), and the `def`s this file makes at the top level.
fn main_answers(cx: &RuleContext<'_, '_>, scopes: &[std::ops::Range<usize>]) -> Vec<String> {
    let mut names: Vec<String> = ["Object", "Kernel", "BasicObject"]
        .iter()
        .filter_map(|class| cx.env.class(class))
        .flat_map(|decl| decl.instance_methods.keys().cloned())
        .collect();
    for node in cx.nodes() {
        let Some(def) = node.as_def_node() else { continue };
        let start = node.location().start() as usize;
        let nested = scopes.iter().any(|scope| scope.start < start && scope.contains(&start));
        if def.receiver().is_none() && !nested {
            names.push(crate::syntax::name(def.name()));
        }
    }
    names.sort_unstable();
    names.dedup();
    names
}
