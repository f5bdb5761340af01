use crate::diagnostic::{EvidenceTier, Severity};
use crate::rules::call::site::shown;
use crate::rules::def::visibility::Visibility;
use crate::rules::{Finding, RuleContext, RuleInfo};
use crate::types::Type;

pub static RULE: RuleInfo = RuleInfo {
    id: "def.method-visibility-mismatch",
    aliases: &["method-visibility-mismatch"],
    summary: "A private method of a project class called with an explicit receiver: NoMethodError (private method called).",
    fires_when: &[
        "the receiver is written (not `self`) and typed as an instance of a class of this file, opened in this file only",
        "the class's own body makes the method private (`private` before the `def`, `private :m`, `private def m`), and it is the project's only definition of that name",
    ],
    does_not_fire_when: &[
        "the receiver is `self` (Ruby allows `self.m` for private methods since 2.7) or implicit",
        "the receiver is untyped or a union, or the class is opened in several files or subclassed in the project",
        "the method is public or protected, or defined more than once in the project (a subclass may make it public)",
        "the project defines `method_missing` anywhere (Ruby hands the call to it instead of raising)",
        "the project makes the name public other than in the class's body (`K.send(:public, :m)`, `K.class_eval { public :m }`), or calls `public` with names computed at run time",
    ],
    example: "class Secret\n  private\n  def hidden = 1\nend\nSecret.new.hidden",
    authored: Severity::Error,
    by_profile: [Some(Severity::Warning), Some(Severity::Error), Some(Severity::Error)],
    evidence: EvidenceTier::High,
    since: "0.1.0",
    check,
};

fn check(cx: &RuleContext<'_, '_>, out: &mut Vec<Finding>) {
    let classes = cx.visibilities();
    if classes.values().all(|c| c.methods.values().all(|m| m.visibility != Visibility::Private)) {
        return;
    }
    for call in cx.calls() {
        let Some(receiver) = call.explicit_receiver() else { continue };
        let Some(ty @ Type::Nominal { class, .. }) = cx.type_of(receiver) else { continue };
        let Some(methods) = classes.get(&**class) else { continue };
        let Some(defined) = methods.methods.get(&*call.method) else { continue };
        let sure = defined.visibility == Visibility::Private
            && cx.project.def_count(&call.method) == 1
            && !cx.project.defined_dynamically(&call.method)
            && !cx.project.made_public_elsewhere(&call.method)
            && !cx.project.is_spread(class)
            && !cx.project.has_subclasses(class)
            && cx.project.def_count("method_missing") == 0
            && !cx.project.defined_dynamically("method_missing");
        if sure {
            let receiver_type = shown(ty);
            out.push(
                Finding::new(&RULE, call.anchor, format!("private method `{}` called on {receiver_type}", call.method))
                    .on_call(&receiver_type, &call.method),
            );
        }
    }
}
