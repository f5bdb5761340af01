use ruby_prism::Node;

use crate::diagnostic::{EvidenceTier, Severity};
use crate::infer::{Callee, Side};
use crate::rules::project::Owner;
use crate::rules::{Finding, RuleContext, RuleInfo};

pub static RULE: RuleInfo = RuleInfo {
    id: "call.self-undefined-method",
    aliases: &["self-undefined-method"],
    summary: "A call on the implicit `self` in a method of a standalone class (no superclass, no mixins) that neither the class, Object nor the project defines. Off in every profile: opt in with severity_overrides.",
    fires_when: &[
        "a call with no receiver, directly in an instance method body of a class written without a superclass or mixins, opened in one file only",
        "the class, Object, Kernel and every project definition lack the method",
    ],
    does_not_fire_when: &[
        "the class has a superclass, includes, extends or prepends anything, or defines `method_missing`",
        "the call is inside a block (which another object may run), or the name is defined anywhere in the project",
        "the class is a module, or is subclassed in the project (a subclass may define the method)",
        "the file loads a library outside the project and Ruby's standard library (a gem may add the method)",
    ],
    example: "class B\n  def o = lid\nend",
    authored: Severity::Warning,
    by_profile: [None, None, None],
    evidence: EvidenceTier::Low,
    since: "0.1.0",
    check,
};

fn check(cx: &RuleContext<'_, '_>, out: &mut Vec<Finding>) {
    if cx.sees_unseen_code() {
        return;
    }
    let blocks: Vec<std::ops::Range<usize>> = cx
        .nodes()
        .iter()
        .filter(|node| matches!(node, Node::BlockNode { .. } | Node::LambdaNode { .. }))
        .map(|node| node.location().start() as usize..node.location().end() as usize)
        .collect();
    for call in cx.calls() {
        if call.receiver.is_some() || cx.project.defines_anywhere(&call.method) {
            continue;
        }
        let inference = cx.inference();
        let Some(def) = inference
            .index
            .defs
            .iter()
            .filter(|def| {
                let l = def.node.location();
                (l.start() as usize..l.end() as usize).contains(&call.anchor)
            })
            .min_by_key(|def| def.node.location().end() - def.node.location().start())
        else {
            continue;
        };
        let def_range = def.node.location().start() as usize..def.node.location().end() as usize;
        if blocks.iter().any(|b| b.contains(&call.anchor) && def_range.contains(&b.start)) {
            continue;
        }
        let Some((class, Side::Instance)) = &def.owner else { continue };
        let Some(user) = inference.index.class(class) else { continue };
        let standalone = !user.is_module
            && matches!(user.superclass, crate::infer::Superclass::Implicit)
            && user.includes.is_empty()
            && user.extends.is_empty()
            && user.prepends.is_empty()
            && !user.unknown_mixins
            && !user.has_method_missing;
        if !standalone || cx.project.is_spread(class) || cx.project.has_subclasses(class) || cx.env.has_class(class) {
            continue;
        }
        let missing = matches!(inference.lookup(class, Side::Instance, &call.method), Callee::Missing { .. })
            && cx.env.instance_method("Object", &call.method).is_none()
            && !super::core_gaps::defined_at_run_time(
                &["Object", "Kernel", "BasicObject"],
                Owner::Instance,
                &call.method,
            )
            && !super::stdlib_methods::adds(&["Object", "Kernel"], Owner::Instance, &call.method)
            && !cx.project.any_dynamic(&[class]);
        if missing {
            out.push(
                Finding::new(&RULE, call.anchor, format!("undefined method `{}` for self ({class})", call.method))
                    .on_call(class, &call.method),
            );
        }
    }
}
