use super::accepts::{rejects, responds, Passing, PATH_TAKERS};
use super::callee::{resolve, Target};
use super::site::shown;
use crate::diagnostic::{EvidenceTier, Severity};
use crate::rules::{Finding, RuleContext, RuleInfo};
use crate::types::Type;

pub static RULE: RuleInfo = RuleInfo {
    id: "call.argument-type-mismatch",
    aliases: &["argument-type-mismatch"],
    summary: "An argument no overload of the method accepts: nil, or a value of one core class the parameter's type and implicit conversions exclude.",
    fires_when: &[
        "the method is a signature method of a receiver typed as one signature class, and some overload takes this many positional arguments",
        "in every such overload some argument is rejected: it is `nil` where the parameter does not allow nil, or a scalar literal or instance of one core class (not an array or hash) that is not the parameter's class (nor a descendant), does not convert implicitly (`to_int`, `to_str`, `to_ary`, `to_hash`, `to_proc`, `to_io`; numbers convert to each other; `to_path` where File, File::Stat, Dir, IO, FileTest, FileUtils, Pathname, Kernel, Logger, CSV or Tempfile take a path), and lacks a method the parameter's interface needs",
    ],
    does_not_fire_when: &[
        "the call is in a conditional on the Ruby running (`if RUBY_VERSION >= \"1.9\"`, `case RUBY_ENGINE`): each branch is written for some Ruby, maybe not the one the signatures describe",
        "the call is in a branch a literal condition never takes (`if false`, `true ? a : b`, `false && x`), which never runs (flow.unreachable-branch reports the branch)",
        "the argument is untyped, a union, a class object, an array or hash (C functions often flatten them), or an instance of a project class (which may define conversions)",
        "the method is an equality (`==`, `===`, `!=`), or an arithmetic or comparison operator (`+ - * / % ** < > <= >= <=>`) on a number given an argument with `coerce`: the argument decides",
        "the parameter is untyped, a type variable, `self`, `bool` (Ruby takes any object for truth), a literal type or an intersection",
        "the call passes a splat, keywords, a block argument or forwards (`...`), or the project redefines the method",
        "the file loads (itself or through the project files it requires) a library outside the project and Ruby's standard library: a gem may add or change methods of any class",
        "the file is loaded (required, or autoloaded by constant name) after a core extension library (ActiveSupport, a `core_ext` feature): its methods may be that library's",
    ],
    example: "\"abc\".center(nil)",
    authored: Severity::Error,
    by_profile: [Some(Severity::Warning), Some(Severity::Error), Some(Severity::Error)],
    evidence: EvidenceTier::High,
    since: "0.1.0",
    check,
};

/// Operators every object answers for any argument.
const EQUALITIES: &[&str] = &["==", "===", "!=", "equal?", "eql?"];

/// Operators a number hands to an argument of another class's `coerce`
/// (`1 + BigDecimal("2")`). Elsewhere (`"total: " + 3`) nothing coerces.
const COERCING: &[&str] = &["+", "-", "*", "/", "%", "**", "<", ">", "<=", ">=", "<=>"];

fn check(cx: &RuleContext<'_, '_>, out: &mut Vec<Finding>) {
    for call in cx.calls_for_this_ruby() {
        let Some(positional) = &call.positional else { continue };
        if positional.is_empty() || EQUALITIES.contains(&&*call.method) {
            continue;
        }
        let Some(args) = positional.iter().map(|a| concrete_argument(cx, a)).collect::<Option<Vec<_>>>() else {
            // Only calls whose every argument is concrete can be judged whole.
            continue;
        };
        let Some((receiver, Target::Signature { class, overloads, .. })) = resolve(cx, call) else { continue };
        if COERCING.contains(&&*call.method) && coerced(cx, &receiver, &args) {
            continue;
        }
        let passing = if PATH_TAKERS.contains(&&*class) { Passing::Path } else { Passing::Argument };
        let mut applicable = 0;
        let mut culprit = None;
        for overload in overloads {
            let function = &overload.function;
            if function.untyped_params || !function.required_keywords.is_empty() {
                applicable = 0;
                break;
            }
            let Some(params) = function.positional_types(args.len()) else { continue };
            applicable += 1;
            match params.iter().zip(&args).position(|(param, arg)| rejects(cx, param, arg, passing)) {
                Some(index) => culprit = culprit.or(Some(index)),
                None => {
                    applicable = 0;
                    break;
                }
            }
        }
        let (true, Some(index)) = (applicable > 0, culprit) else { continue };
        let receiver_type = shown(&receiver);
        out.push(
            Finding::new(
                &RULE,
                call.anchor,
                format!(
                    "argument {} of {class}#{} ({}) is not accepted by any overload",
                    index + 1,
                    call.method,
                    shown(&args[index])
                ),
            )
            .on_call(&receiver_type, &call.method),
        );
    }
}

/// Whether a number's operator may hand the arguments to their `coerce`.
fn coerced(cx: &RuleContext<'_, '_>, receiver: &Type, args: &[Type]) -> bool {
    let number = receiver
        .class_name()
        .is_none_or(|class| cx.inference().relation(class, "Numeric") != crate::infer::Relation::IsNot);
    number && args.iter().any(|arg| arg.class_name().is_none_or(|class| responds(cx, class, "coerce")))
}

/// An argument's type when it is one concrete core scalar: `nil`, or a
/// literal or instance of a signature class the project does not reopen.
/// Arrays and hashes are left out: C functions often flatten them where
/// the signatures say otherwise (`File.join([a, b])`).
fn concrete_argument(cx: &RuleContext<'_, '_>, node: &ruby_prism::Node<'_>) -> Option<Type> {
    let ty = cx.type_of(node)?;
    let class = match ty {
        Type::Constant(_) | Type::IntRange { .. } | Type::Nominal { .. } => ty.class_name()?,
        _ => return None,
    };
    if matches!(class, "Array" | "Hash") {
        return None;
    }
    (cx.env.has_class(class) && !cx.project.opens(class)).then(|| ty.clone())
}
