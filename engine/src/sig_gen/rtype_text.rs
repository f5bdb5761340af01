//! Spelling a signature type back in RBS (`Integer?`, `Array[String]`),
//! for "was: T" and for comparing a declaration with an inferred type.

use crate::rbs::ast::{Function, RType};

pub fn rbs_text(ty: &RType) -> String {
    match ty {
        RType::Class { name, args } | RType::Interface { name, args } | RType::Alias { name, args } => {
            with_args(name, args)
        }
        RType::Singleton(name) => format!("singleton({name})"),
        RType::Var(name) => name.to_string(),
        RType::SelfType => "self".into(),
        RType::Instance => "instance".into(),
        RType::ClassType => "class".into(),
        RType::Bool => "bool".into(),
        RType::Nil => "nil".into(),
        RType::Untyped => "untyped".into(),
        RType::Top => "top".into(),
        RType::Bot => "bot".into(),
        RType::Void => "void".into(),
        RType::Literal(literal) => literal.inspect(),
        RType::Optional(inner) => format!("{}?", grouped(inner)),
        RType::Union(members) => members.iter().map(grouped_in_union).collect::<Vec<_>>().join(" | "),
        RType::Intersection(members) => members.iter().map(grouped).collect::<Vec<_>>().join(" & "),
        RType::Tuple(members) if members.is_empty() => "[ ]".into(),
        RType::Tuple(members) => format!("[{}]", members.iter().map(rbs_text).collect::<Vec<_>>().join(", ")),
        RType::Record(fields) => {
            let fields: Vec<String> = fields
                .iter()
                .map(|(key, ty, required)| format!("{}{key}: {}", if *required { "" } else { "?" }, rbs_text(ty)))
                .collect();
            format!("{{ {} }}", fields.join(", "))
        }
        RType::Proc(function) => format!("^{}", function_text(function)),
    }
}

fn with_args(name: &str, args: &[RType]) -> String {
    if args.is_empty() {
        name.to_string()
    } else {
        format!("{name}[{}]", args.iter().map(rbs_text).collect::<Vec<_>>().join(", "))
    }
}

/// A member of `T?` or `A & B`: compound types need parentheses.
fn grouped(ty: &RType) -> String {
    match ty {
        RType::Union(_) | RType::Intersection(_) | RType::Proc(_) | RType::Optional(_) => format!("({})", rbs_text(ty)),
        // `:a?` is the symbol `:a?`.
        RType::Literal(crate::types::Literal::Sym(_)) => format!("({})", rbs_text(ty)),
        _ => rbs_text(ty),
    }
}

/// A member of `A | B`: intersections bind tighter, procs do not.
fn grouped_in_union(ty: &RType) -> String {
    match ty {
        RType::Union(_) | RType::Proc(_) => format!("({})", rbs_text(ty)),
        _ => rbs_text(ty),
    }
}

fn function_text(function: &Function) -> String {
    if function.untyped_params {
        return format!("(?) -> {}", rbs_text(&function.returns));
    }
    let mut params: Vec<String> = function.required.iter().map(rbs_text).collect();
    params.extend(function.optional.iter().map(|t| format!("?{}", rbs_text(t))));
    params.extend(function.rest.iter().map(|t| format!("*{}", rbs_text(t))));
    params.extend(function.trailing.iter().map(rbs_text));
    params.extend(function.required_keywords.iter().map(|(k, t)| format!("{k}: {}", rbs_text(t))));
    params.extend(function.optional_keywords.iter().map(|(k, t)| format!("?{k}: {}", rbs_text(t))));
    params.extend(function.rest_keywords.iter().map(|t| format!("**{}", rbs_text(t))));
    format!("({}) -> {}", params.join(", "), rbs_text(&function.returns))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Literal;

    #[test]
    fn types_are_spelt_as_rbs_writes_them() {
        let class = |name: &str| RType::Class { name: name.into(), args: vec![] };
        assert_eq!(rbs_text(&RType::Optional(Box::new(class("Integer")))), "Integer?");
        assert_eq!(rbs_text(&RType::Optional(Box::new(RType::Union(vec![class("A"), class("B")])))), "(A | B)?");
        assert_eq!(rbs_text(&RType::Class { name: "Array".into(), args: vec![class("String")] }), "Array[String]");
        assert_eq!(rbs_text(&RType::Literal(Literal::Str("a".into()))), "\"a\"");
        assert_eq!(rbs_text(&RType::Tuple(vec![])), "[ ]");
        assert_eq!(
            rbs_text(&RType::Record(vec![("a".into(), class("Integer"), true), ("b".into(), RType::Nil, false)])),
            "{ a: Integer, ?b: nil }"
        );
        let proc = RType::Proc(Box::new(Function { returns: RType::Void, ..Function::default() }));
        assert_eq!(rbs_text(&RType::Union(vec![proc, RType::Nil])), "(^() -> void) | nil");
    }
}
