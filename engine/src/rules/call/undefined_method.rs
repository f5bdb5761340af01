use super::site::{guarded_elsewhere, misspelled_ivar, receiver_class, shown, surely_missing, trusted_receiver};
use super::suggest::{near_names, offered};
use crate::diagnostic::{EvidenceTier, Severity};
use crate::rules::{Finding, RuleContext, RuleInfo};
use crate::types::Type;

pub static RULE: RuleInfo = RuleInfo {
    id: "call.undefined-method",
    aliases: &["undefined-method"],
    summary: "A method called on a receiver whose class, with all its ancestors, does not define it: NoMethodError.",
    fires_when: &[
        "the receiver is written (not implicit `self`, not `self.`) and typed as one class: a literal, an instance of a signature or project class, a class object, a tuple or a hash shape",
        "neither that class, nor any ancestor, nor the project's own definitions (reopened classes, modules, `define_method`, attribute macros, delegators) provide the method; `nil.foo` lands here",
        "the receiver is an instance variable no code in view assigns, spelled one slip from one its class writes (`@nmae` beside `@name`, not a plural such as `@item` beside `@items`), in a class opened in one file, not subclassed, not reopened under another name and given no computed module, and the file spells it once (a second mention may guard it: `@nmae.upcase if @nmae`): it is nil",
        "the message offers the receiver's public methods one slip away, as Ruby's did_you_mean would (`did you mean `total`?`)",
    ],
    does_not_fire_when: &[
        "the call is in a conditional on the Ruby running (`if RUBY_VERSION >= \"1.9\"`, `case RUBY_ENGINE`): each branch is written for some Ruby, maybe not the one the signatures describe",
        "the call is in a branch a literal condition never takes (`if false`, `true ? a : b`, `false && x`), which never runs (flow.unreachable-branch reports the branch)",
        "the receiver type is untyped, `top` or a union (a possibly-nil receiver is call.possible-nil-receiver)",
        "the class's ancestry leaves what this file and the signatures show, or it has `method_missing`, or code is evaluated from strings in it",
        "the file probes the method (`respond_to?(:m)`, `defined?(x.m)`), rescues NoMethodError around the call, uses refinements, or extends single objects",
        "the receiver may be a subclass instance and a subclass (in the signatures or the project) defines the method",
        "the receiver is an instance variable or a method of `self` in a class opened in several files or subclassed in the project, or is typed `nil` only through such state",
        "the method is one Ruby defines at run time though the core signatures omit it, or one a standard library adds to core classes",
        "the file loads (itself or through the project files it requires) a library outside the project and Ruby's standard library: a gem may add or change methods of any class",
        "the file is loaded (required, or autoloaded by constant name) after a core extension library (ActiveSupport, a `core_ext` feature): its methods may be that library's",
    ],
    example: "\"hi\".shout",
    authored: Severity::Error,
    by_profile: [Some(Severity::Error), Some(Severity::Error), Some(Severity::Error)],
    evidence: EvidenceTier::High,
    since: "0.1.0",
    check,
};

fn check(cx: &RuleContext<'_, '_>, out: &mut Vec<Finding>) {
    if cx.hazards().refines || cx.hazards().extends_objects {
        return;
    }
    for call in cx.calls_for_this_ruby() {
        let Some(receiver) = call.explicit_receiver() else { continue };
        let Some(ty) = cx.type_of(receiver) else { continue };
        let ty = if call.is_safe_navigation() { ty.without_nil() } else { ty.clone() };
        if receiver_class(&ty).is_none()
            || !trusted_receiver(cx, receiver, &ty)
            || !surely_missing(cx, &ty, &call.method)
            || guarded_elsewhere(cx, call)
        {
            continue;
        }
        let receiver_type = shown(&ty);
        let mut message = format!("undefined method `{}` for {receiver_type}", call.method);
        if let Some(meant) = misspelled_ivar(cx, receiver).filter(|_| ty == Type::nil()) {
            let read = crate::syntax::text(&receiver.location());
            message += &format!(" (`{read}` is never assigned: did you mean `{meant}`?)");
        }
        message += &offered(&near_names(cx, &ty, &call.method));
        out.push(Finding::new(&RULE, call.anchor, message).on_call(&receiver_type, &call.method));
    }
}
