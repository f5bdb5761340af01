//! RBS erasure: the nearest type RBS can spell (reference section 3).

use super::{Literal, Type};
use crate::types::literal::is_bare_key;

pub fn erase(ty: &Type) -> String {
    match ty {
        Type::Top => "top".into(),
        Type::Bot => "bot".into(),
        Type::Dynamic(_) => "untyped".into(),
        Type::Constant(Literal::Float(_)) => "Float".into(),
        Type::Constant(literal) => literal.inspect(),
        Type::Nominal { class, args } if args.is_empty() => class.to_string(),
        Type::Nominal { class, args } => {
            format!("{class}[{}]", args.iter().map(erase).collect::<Vec<_>>().join(", "))
        }
        Type::Singleton(class) => format!("singleton({class})"),
        Type::IntRange { .. } => "Integer".into(),
        Type::Tuple(elements) if elements.is_empty() => "[ ]".into(),
        Type::Tuple(elements) => format!("[{}]", elements.iter().map(erase).collect::<Vec<_>>().join(", ")),
        Type::Shape(shape) if shape.open => "Hash[top, top]".into(),
        Type::Shape(shape) if shape.fields.is_empty() => "Hash[untyped, untyped]".into(),
        Type::Shape(shape) if shape.fields.iter().all(|f| is_bare_key(&f.key)) => {
            let fields: Vec<String> = shape
                .fields
                .iter()
                .map(|f| format!("{}{}: {}", if f.optional { "?" } else { "" }, f.key, erase(&f.ty)))
                .collect();
            format!("{{ {} }}", fields.join(", "))
        }
        Type::Shape(shape) => {
            let values: Vec<Type> = shape.fields.iter().map(|f| f.ty.clone()).collect();
            format!("Hash[Symbol, {}]", erase(&super::union(values)))
        }
        Type::Union(members) => erase_union(members),
    }
}

fn erase_union(members: &[Type]) -> String {
    if members.iter().any(|m| matches!(m, Type::Dynamic(_))) {
        return "untyped".into();
    }
    let mut erased: Vec<String> = members.iter().map(erase).collect();
    erased.sort();
    erased.dedup();
    let has_bool = erased.iter().any(|e| e == "true") && erased.iter().any(|e| e == "false");
    if has_bool {
        erased.retain(|e| e != "true" && e != "false");
        erased.push("bool".into());
        erased.sort();
    }
    let has_nil = erased.iter().any(|e| e == "nil");
    erased.retain(|e| e != "nil");
    match (erased.len(), has_nil) {
        (0, true) => "nil".into(),
        (1, true) if !erased[0].contains(' ') || erased[0].starts_with('[') || erased[0].starts_with('{') => {
            format!("{}?", erased[0])
        }
        (_, true) => format!("{} | nil", erased.join(" | ")),
        _ => erased.join(" | "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{union, Shape, ShapeField};

    #[test]
    fn erasure_keeps_rbs_literals_and_widens_the_rest() {
        assert_eq!(erase(&Type::int(3)), "3");
        assert_eq!(erase(&Type::float(1.5)), "Float");
        assert_eq!(erase(&Type::string("hi")), "\"hi\"");
        assert_eq!(erase(&Type::IntRange { min: Some(0), max: None }), "Integer");
        assert_eq!(erase(&union([Type::untyped(), Type::int(1)])), "untyped");
        assert_eq!(erase(&union([Type::float(1.0), Type::float(2.0), Type::nil()])), "Float?");
        assert_eq!(erase(&Type::Tuple(vec![Type::int(1), Type::float(2.0)])), "[1, Float]");
        let shape = |open| {
            Type::Shape(Shape {
                fields: vec![ShapeField { key: "a".into(), ty: Type::int(1), optional: false, readonly: false }],
                open,
            })
        };
        assert_eq!(erase(&shape(false)), "{ a: 1 }");
        assert_eq!(erase(&shape(true)), "Hash[top, top]");
    }
}
