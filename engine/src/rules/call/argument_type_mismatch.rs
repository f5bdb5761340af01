use super::callee::{resolve, Target};
use super::site::{shown, Call};
use crate::diagnostic::{EvidenceTier, Severity};
use crate::rbs::ast::RType;
use crate::rules::{Finding, RuleContext, RuleInfo};
use crate::types::Type;

pub static RULE: RuleInfo = RuleInfo {
    id: "call.argument-type-mismatch",
    aliases: &["argument-type-mismatch"],
    summary: "An argument no overload of the method accepts: nil, or a value of one core class the parameter's type and implicit conversions exclude.",
    fires_when: &[
        "the method is a signature method of a receiver typed as one signature class, and some overload takes this many positional arguments",
        "in every such overload some argument is rejected: it is `nil` where the parameter does not allow nil, or a literal or instance of one core class that is not the parameter's class (nor a descendant), does not convert implicitly (`to_int`, `to_str`, `to_ary`, `to_hash`, `to_proc`, `to_io`; numbers convert to each other), and lacks a method the parameter's interface needs",
    ],
    does_not_fire_when: &[
        "the argument is untyped, a union, a class object, or an instance of a project class (which may define conversions)",
        "the method is a coercing operator (`+ - * / % ** < > <= >= <=>`): the argument's `coerce` decides",
        "the parameter is untyped, a type variable, `self`, `bool` (Ruby takes any object for truth), a literal type or an intersection",
        "the call passes a splat, keywords, a block argument or forwards (`...`), or the project redefines the method",
    ],
    example: "\"abc\".center(nil)",
    authored: Severity::Error,
    by_profile: [Some(Severity::Warning), Some(Severity::Error), Some(Severity::Error)],
    evidence: EvidenceTier::High,
    since: "0.1.0",
    check,
};

/// Operators whose argument may answer through `coerce`.
const COERCING: &[&str] = &["+", "-", "*", "/", "%", "**", "<", ">", "<=", ">=", "<=>", "==", "===", "!="];

const NUMERIC: &[&str] = &["Integer", "Float", "Rational", "Complex", "Numeric"];

/// Implicit conversions: a parameter of the class accepts an object with the method.
const CONVERSIONS: &[(&str, &str)] = &[
    ("Integer", "to_int"),
    ("String", "to_str"),
    ("Array", "to_ary"),
    ("Hash", "to_hash"),
    ("Proc", "to_proc"),
    ("IO", "to_io"),
    ("Regexp", "to_str"),
    ("Symbol", "to_str"),
];

/// Alias chains deeper than this are not followed.
const MAX_DEPTH: u8 = 8;

fn check(cx: &RuleContext<'_, '_>, out: &mut Vec<Finding>) {
    for node in cx.nodes() {
        let Some(call) = Call::of(node) else { continue };
        let Some(positional) = &call.positional else { continue };
        if positional.is_empty() || COERCING.contains(&call.method.as_str()) {
            continue;
        }
        let Some(args) = positional.iter().map(|a| concrete_argument(cx, a)).collect::<Option<Vec<_>>>() else {
            // Only calls whose every argument is concrete can be judged whole.
            continue;
        };
        let Some((receiver, Target::Signature { class, overloads, .. })) = resolve(cx, &call) else { continue };
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
            match params.iter().zip(&args).position(|(param, arg)| rejects(cx, param, arg, 0)) {
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

/// An argument's type when it is one concrete core value: `nil`, a literal,
/// or an instance of a signature class the project does not reopen.
fn concrete_argument(cx: &RuleContext<'_, '_>, node: &ruby_prism::Node<'_>) -> Option<Type> {
    let ty = cx.type_of(node)?;
    let class = match ty {
        Type::Constant(_) | Type::IntRange { .. } | Type::Tuple(_) | Type::Shape(_) | Type::Nominal { .. } => {
            ty.class_name()?
        }
        _ => return None,
    };
    (cx.env.has_class(class) && !cx.project.opens(class)).then(|| ty.clone())
}

/// Does the parameter surely refuse the argument?
fn rejects(cx: &RuleContext<'_, '_>, param: &RType, arg: &Type, depth: u8) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    let is_nil = *arg == Type::nil();
    let Some(class) = arg.class_name() else { return false };
    match param {
        RType::Nil => !is_nil,
        RType::Optional(inner) => !is_nil && rejects(cx, inner, arg, depth + 1),
        RType::Union(members) => members.iter().all(|m| rejects(cx, m, arg, depth + 1)),
        RType::Alias { name, args } => match cx.env.alias(name) {
            Some(alias) => {
                let map = crate::rbs::bind(&alias.params, args);
                rejects(cx, &alias.ty.substitute(&map), arg, depth + 1)
            }
            None => false,
        },
        RType::Class { name, .. } => !accepts_class(cx, name, class),
        RType::Tuple(_) => !accepts_class(cx, "Array", class),
        RType::Record(_) => !accepts_class(cx, "Hash", class),
        RType::Singleton(_) => true,
        RType::Interface { name, .. } => match cx.env.class(name) {
            Some(interface) => interface.instance_methods.keys().any(|method| !responds(cx, class, method)),
            None => false,
        },
        RType::Proc(_) => !responds(cx, class, "to_proc") && class != "Proc",
        // Untyped, top, void, variables, self, instance, class, bool (any
        // object is a truth value), literal types, intersections, bottom.
        _ => false,
    }
}

/// Does a parameter of class `name` take an instance of `class`?
fn accepts_class(cx: &RuleContext<'_, '_>, name: &str, class: &str) -> bool {
    let inference = cx.inference();
    if inference.relation(class, name) != crate::infer::Relation::IsNot || !cx.env.has_class(name) {
        return true;
    }
    if NUMERIC.contains(&name) && NUMERIC.contains(&class) {
        return true;
    }
    CONVERSIONS.iter().any(|(target, method)| *target == name && responds(cx, class, method))
}

fn responds(cx: &RuleContext<'_, '_>, class: &str, method: &str) -> bool {
    cx.env.instance_method(class, method).is_some()
        || super::core_gaps::defined_at_run_time(&[class], crate::rules::project::Owner::Instance, method)
        || cx.project.defines_anywhere(method)
}
