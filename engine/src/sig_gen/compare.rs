//! Is a declared return type strictly wider than the inferred one? Only a
//! sure "yes" makes a method `tighter_return`; anything unsure, and any
//! sign that inference saw less than the author meant, keeps the
//! declaration (`equivalent`).

use crate::rbs::ast::RType;
use crate::rbs::{bind, Environment};
use crate::types::{erase, Literal, Type};

use super::rtype_text::rbs_text;

/// Alias chains deeper than this are not followed.
const MAX_ALIAS_DEPTH: u8 = 8;

/// Would the inferred type, written as the method's return, be a strictly
/// tighter declaration than `declared` (the union of the overloads' returns)?
/// `literal_body`: the body ends in a literal written out, so a literal
/// return is the author's own contract rather than a computed value.
pub fn is_tighter(env: &Environment, declared: &RType, inferred: &Type, literal_body: bool) -> bool {
    if matches!(inferred, Type::Bot | Type::Top | Type::Dynamic(_)) || inferred.has_unknown() {
        return false;
    }
    let declared_members = flatten(env, declared, 0);
    if declared_members.iter().any(|m| matches!(m, RType::Untyped | RType::Void)) {
        return false;
    }
    let inferred_members: Vec<String> = inferred.members().iter().map(erase).collect();
    let mut declared_spellings: Vec<String> = declared_members.iter().map(rbs_text).collect();
    declared_spellings.sort();
    declared_spellings.dedup();
    let mut inferred_spellings = inferred_members.clone();
    inferred_spellings.sort();
    inferred_spellings.dedup();
    if declared_spellings == inferred_spellings {
        return false;
    }
    // Every member the author declared must still be there: a member the
    // inference lost (`nil` after `return nil unless ...`) is more likely
    // missed than impossible.
    if declared_members.len() > 1 && !declared_spellings.iter().all(|d| inferred_spellings.contains(d)) {
        return false;
    }
    // A computed value that happens to be a literal is not the contract.
    let has_value_literal = inferred
        .members()
        .iter()
        .any(|m| matches!(m, Type::Constant(l) if !matches!(l, Literal::Nil | Literal::True | Literal::False)));
    if has_value_literal && !literal_body {
        return false;
    }
    inferred.members().iter().all(|member| declared_members.iter().any(|d| accepts(env, d, member, 0)))
}

/// A declared type as its union members, aliases and `T?` opened up.
fn flatten(env: &Environment, ty: &RType, depth: u8) -> Vec<RType> {
    match ty {
        RType::Union(members) => members.iter().flat_map(|m| flatten(env, m, depth)).collect(),
        RType::Optional(inner) => {
            let mut members = flatten(env, inner, depth);
            members.push(RType::Nil);
            members
        }
        RType::Bool => vec![RType::Literal(Literal::True), RType::Literal(Literal::False)],
        RType::Alias { name, args } if depth < MAX_ALIAS_DEPTH => match env.alias(name) {
            Some(alias) => flatten(env, &alias.ty.substitute(&bind(&alias.params, args)), depth + 1),
            None => vec![RType::Untyped],
        },
        RType::Class { name, args } if args.is_empty() && &**name == "NilClass" => vec![RType::Nil],
        other => vec![other.clone()],
    }
}

/// Surely every value of `ty` (one member, not a union) is a `declared`?
fn accepts(env: &Environment, declared: &RType, ty: &Type, depth: u8) -> bool {
    match declared {
        RType::Top => true,
        RType::Nil => *ty == Type::nil(),
        RType::Bool => matches!(ty, Type::Constant(Literal::True | Literal::False)),
        RType::Literal(literal) => *ty == Type::Constant(literal.clone()),
        RType::Optional(_) | RType::Union(_) | RType::Alias { .. } => {
            depth < MAX_ALIAS_DEPTH && flatten(env, declared, depth + 1).iter().any(|d| accepts(env, d, ty, depth + 1))
        }
        RType::Intersection(members) => members.iter().all(|d| accepts(env, d, ty, depth)),
        RType::Singleton(name) => matches!(ty, Type::Singleton(class) if inherits(env, class, name)),
        RType::Tuple(declared) => match ty {
            Type::Tuple(elements) if elements.len() == declared.len() => {
                declared.iter().zip(elements).all(|(d, e)| e.members().iter().all(|m| accepts(env, d, m, depth)))
            }
            _ => false,
        },
        RType::Class { name, args } => accepts_class(env, name, args, ty),
        // Interfaces, `self`, type variables, procs, records: not judged.
        _ => false,
    }
}

fn accepts_class(env: &Environment, name: &str, args: &[RType], ty: &Type) -> bool {
    match (name, ty) {
        ("Object" | "BasicObject", _) => !matches!(ty, Type::Dynamic(_) | Type::Top),
        ("NilClass", _) => *ty == Type::nil(),
        ("TrueClass", _) => *ty == Type::Constant(Literal::True),
        ("FalseClass", _) => *ty == Type::Constant(Literal::False),
        ("Module", Type::Singleton(_)) => true,
        ("Class", Type::Singleton(class)) => env.class(class).is_some_and(|_| !env.is_module(class)),
        // A tuple or shape is a fixed layout, not the collection's contract.
        (_, Type::Tuple(_) | Type::Shape(_) | Type::Singleton(_)) => false,
        _ => {
            let Some(class) = ty.class_name() else { return false };
            if !inherits(env, class, name) {
                return false;
            }
            let generic = env.class(name).is_some_and(|decl| !decl.type_params.is_empty());
            match ty {
                // Arguments must match exactly: `Array[untyped]` is a
                // deliberate choice, and generics here are not covariant.
                Type::Nominal { class, args: inferred } if generic => {
                    &**class == name
                        && args.len() == inferred.len()
                        && args.iter().zip(inferred.iter()).all(|(d, i)| rbs_text(d) == erase(i))
                }
                _ => !generic || args.iter().all(|a| matches!(a, RType::Untyped)),
            }
        }
    }
}

/// Is `sub` the class `sup` or a descendant the signatures know of?
fn inherits(env: &Environment, sub: &str, sup: &str) -> bool {
    sub == sup || env.inherits(sub, sup)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::union;

    const CORE: &str = "class BasicObject\nend\nclass Object < BasicObject\nend\nclass Numeric\nend\nclass Integer < Numeric\nend\nclass Float < Numeric\nend\nclass String\nend\nclass Symbol\nend\nclass Array[unchecked out Elem]\nend\ntype maybe_int = Integer?\ninterface _ToS\n  def to_s: () -> String\nend\n";

    /// The signatures above plus `T#m` returning `declared`.
    fn env_with(declared: &str) -> (Environment, RType) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.rbs"), format!("{CORE}class T\n  def m: () -> {declared}\nend\n")).unwrap();
        let signatures = crate::rbs::load_directories(&[dir.path().to_path_buf()]);
        assert!(signatures.warnings.is_empty(), "{declared}: {:?}", signatures.warnings);
        let env = signatures.env;
        let returns = env.instance_method("T", "m").expect("T#m").overloads[0].function.returns.clone();
        (env, returns)
    }

    #[test]
    fn a_wider_declaration_is_tighter_only_when_surely_so() {
        let yes = |d: &str, t: Type, literal: bool| {
            let (env, declared) = env_with(d);
            is_tighter(&env, &declared, &t, literal)
        };
        assert!(yes("Numeric", Type::nominal("Integer"), false));
        assert!(yes("Object", Type::nominal("String"), false));
        assert!(yes("top", union([Type::nominal("Integer"), Type::nominal("Float")]), false));
        assert!(yes("Integer", Type::int(1), true), "a literal the body writes out");
        assert!(!yes("Integer", Type::int(1), false), "a computed literal is not the contract");
        assert!(!yes("Integer", Type::nominal("Integer"), false), "equal");
        assert!(!yes("Integer", Type::IntRange { min: Some(0), max: None }, false), "erases to the same");
        assert!(!yes("bool", union([Type::Constant(Literal::True), Type::Constant(Literal::False)]), false));
        assert!(!yes("Integer?", Type::nominal("Integer"), false), "nil was declared and is gone");
        assert!(!yes("maybe_int", Type::nominal("Integer"), false), "through an alias too");
        assert!(!yes("(Integer | String)", Type::nominal("Integer"), false));
        assert!(!yes("String", Type::nominal("Integer"), false), "a mismatch is not tighter");
        assert!(!yes("untyped", Type::nominal("Integer"), false));
        assert!(!yes("void", Type::nominal("Integer"), false));
        assert!(!yes("Integer", Type::Bot, false), "a method that always raises is left alone");
        assert!(!yes("Array[untyped]", Type::generic("Array", vec![Type::nominal("Integer")]), false));
        assert!(!yes("Array[Integer]", Type::Tuple(vec![Type::int(1)]), true), "a tuple is not the contract");
        assert!(!yes("Numeric", union([Type::nominal("Integer"), Type::untyped()]), false));
        assert!(!yes("_ToS", Type::nominal("String"), false), "interfaces are not judged");
    }
}
