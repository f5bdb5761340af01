//! How types print: the reference's display, which type-of, annotate and
//! coverage all show.

use super::{inspect_string, Literal, Shape, Type};
use crate::types::literal::is_bare_key;

pub fn display(ty: &Type) -> String {
    let mut out = String::new();
    write_type(ty, &mut out);
    out
}

/// What [`display`] prints, borrowed where the type's display is a name it
/// already holds: a union sorts its members by display, and most are a
/// bare class, `nil` or `untyped`.
pub fn display_key(ty: &Type) -> std::borrow::Cow<'_, str> {
    use std::borrow::Cow::Borrowed;
    match ty {
        Type::Top => Borrowed("top"),
        Type::Bot => Borrowed("bot"),
        Type::Dynamic(None) => Borrowed("untyped"),
        Type::Dynamic(Some(facet)) if **facet == Type::Top => Borrowed("untyped"),
        Type::Nominal { class, args } if args.is_empty() => Borrowed(class),
        Type::Constant(Literal::Nil) => Borrowed("nil"),
        Type::Constant(Literal::True) => Borrowed("true"),
        Type::Constant(Literal::False) => Borrowed("false"),
        _ => display(ty).into(),
    }
}

fn write_type(ty: &Type, out: &mut String) {
    match ty {
        Type::Top => out.push_str("top"),
        Type::Bot => out.push_str("bot"),
        Type::Dynamic(facet) => match facet.as_deref() {
            None | Some(Type::Top) => out.push_str("untyped"),
            Some(facet) => {
                out.push_str("Dynamic[");
                write_type(facet, out);
                out.push(']');
            }
        },
        Type::Constant(literal) => out.push_str(&literal.inspect()),
        Type::Nominal { class, args } => {
            out.push_str(class);
            write_args(args, out);
        }
        Type::Singleton(class) => {
            out.push_str("singleton(");
            out.push_str(class);
            out.push(')');
        }
        Type::IntRange { min, max } => out.push_str(&range_name(*min, *max)),
        Type::Tuple(elements) => {
            out.push('[');
            write_list(elements, out);
            out.push(']');
        }
        Type::Shape(shape) => write_shape(shape, out),
        Type::Union(members) => write_union(members, out),
    }
}

fn write_args(args: &[Type], out: &mut String) {
    if !args.is_empty() {
        out.push('[');
        write_list(args, out);
        out.push(']');
    }
}

fn write_list(types: &[Type], out: &mut String) {
    for (i, ty) in types.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_type(ty, out);
    }
}

fn range_name(min: Option<i64>, max: Option<i64>) -> String {
    match (min, max) {
        (None, None) => "int".into(),
        (Some(1), None) => "positive-int".into(),
        (Some(0), None) => "non-negative-int".into(),
        (None, Some(-1)) => "negative-int".into(),
        (None, Some(0)) => "non-positive-int".into(),
        (min, max) => {
            let min = min.map_or("min".to_string(), |v| v.to_string());
            let max = max.map_or("max".to_string(), |v| v.to_string());
            format!("int<{min}, {max}>")
        }
    }
}

fn write_shape(shape: &Shape, out: &mut String) {
    if shape.fields.is_empty() {
        out.push_str(if shape.open { "{ ... }" } else { "{}" });
        return;
    }
    out.push_str("{ ");
    for (i, field) in shape.fields.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        if field.readonly {
            out.push_str("readonly ");
        }
        if field.optional {
            out.push('?');
        }
        if is_bare_key(&field.key) {
            out.push_str(&field.key);
        } else {
            out.push_str(&inspect_string(&field.key));
        }
        out.push_str(": ");
        write_type(&field.ty, out);
    }
    if shape.open {
        out.push_str(", ...");
    }
    out.push_str(" }");
}

/// Members are already sorted by display; `true | false` shows as `bool`
/// and a single member with `nil` as `T?`.
fn write_union(members: &[Type], out: &mut String) {
    let is = |literal: Literal| members.iter().any(|m| *m == Type::Constant(literal.clone()));
    let has_bool = is(Literal::True) && is(Literal::False);
    let has_nil = is(Literal::Nil);
    let mut shown: Vec<String> = members
        .iter()
        .filter(|m| match m {
            Type::Constant(Literal::True | Literal::False) => !has_bool,
            Type::Constant(Literal::Nil) => false,
            _ => true,
        })
        .map(display)
        .collect();
    if has_bool {
        shown.push("bool".into());
        shown.sort();
    }
    if has_nil && shown.len() == 1 {
        // `:a?` would read as the symbol `:a?` (in RBS too): `(:a)?`.
        let symbol = members.iter().any(|m| matches!(m, Type::Constant(Literal::Sym(_))));
        if symbol {
            out.push('(');
        }
        out.push_str(&shown[0]);
        if symbol {
            out.push(')');
        }
        out.push('?');
        return;
    }
    if has_nil {
        shown.push("nil".into());
    }
    out.push_str(&shown.join(" | "));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{union, ShapeField};

    #[test]
    fn carriers_print_like_the_reference() {
        assert_eq!(display(&Type::untyped()), "untyped");
        assert_eq!(
            display(&Type::generic("Hash", vec![Type::nominal("Symbol"), Type::nominal("String")])),
            "Hash[Symbol, String]"
        );
        assert_eq!(display(&Type::singleton("Hash")), "singleton(Hash)");
        assert_eq!(display(&Type::Tuple(vec![Type::int(1), Type::string("two")])), "[1, \"two\"]");
        assert_eq!(display(&Type::IntRange { min: Some(1), max: None }), "positive-int");
        assert_eq!(display(&Type::IntRange { min: Some(5), max: None }), "int<5, max>");
        assert_eq!(display(&Type::IntRange { min: Some(-2), max: Some(3) }), "int<-2, 3>");
        let shape = Type::Shape(Shape {
            fields: vec![
                ShapeField { key: "name".into(), ty: Type::string("A"), optional: false, readonly: false },
                ShapeField { key: "age".into(), ty: Type::int(30), optional: true, readonly: false },
                ShapeField { key: "a b".into(), ty: Type::int(1), optional: false, readonly: true },
            ],
            open: true,
        });
        assert_eq!(display(&shape), "{ name: \"A\", ?age: 30, readonly \"a b\": 1, ... }");
        assert_eq!(display(&Type::Shape(Shape { fields: vec![], open: false })), "{}");
    }

    #[test]
    fn display_key_is_the_display() {
        let every_kind = [
            Type::Top,
            Type::Bot,
            Type::untyped(),
            Type::Dynamic(Some(Box::new(Type::Top))),
            Type::Dynamic(Some(Box::new(Type::nominal("String")))),
            Type::nominal("String"),
            Type::generic("Array", vec![Type::nominal("Integer")]),
            Type::singleton("Hash"),
            Type::nil(),
            Type::Constant(Literal::True),
            Type::Constant(Literal::False),
            Type::int(3),
            Type::string("a"),
            Type::IntRange { min: Some(0), max: None },
            Type::Tuple(vec![Type::int(1)]),
            Type::Shape(Shape { fields: vec![], open: true }),
            union([Type::nominal("String"), Type::nil()]),
        ];
        for ty in &every_kind {
            assert_eq!(display_key(ty), display(ty));
        }
        // Only what prints as a name it holds is borrowed.
        assert!(matches!(display_key(&Type::nominal("String")), std::borrow::Cow::Borrowed("String")));
        assert!(matches!(display_key(&Type::int(3)), std::borrow::Cow::Owned(_)));
    }

    #[test]
    fn unions_show_bool_and_optional() {
        assert_eq!(display(&Type::bool()), "bool");
        assert_eq!(display(&union([Type::nominal("String"), Type::nil()])), "String?");
        assert_eq!(display(&union([Type::bool(), Type::nil()])), "bool?");
        assert_eq!(display(&union([Type::nominal("String"), Type::int(1), Type::nil()])), "1 | String | nil");
        assert_eq!(display(&union([Type::nominal("String"), Type::bool()])), "String | bool");
    }
}
