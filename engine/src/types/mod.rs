//! The type model (reference section 3): what the inferrer knows about a
//! value. Types are plain owned trees; unions are kept normalised by
//! [`union`] so equal types compare equal.

mod display;
mod erasure;
mod literal;
mod tier;
mod union;

use std::sync::Arc;

pub use display::{display, display_key};
pub use erasure::erase;
pub use literal::{float_to_s, inspect_string, inspect_symbol, is_bare_key, Literal};
pub use tier::Tier;
pub use union::{join, join_positions, union, widen_literals};

/// A class or module name, absolute, without a leading `::` (`File::Stat`).
pub type Name = Arc<str>;

#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Type {
    /// Every value: nothing is known, and nothing is assumed.
    Top,
    /// No value: the expression never completes (`raise`, `return`).
    Bot,
    /// Gradual typing's unknown, `untyped`, when its facet is `None`.
    /// `untyped` is the commonest type of all: without a facet it is
    /// copied and dropped without touching the heap.
    Dynamic(Option<Box<Type>>),
    /// Exactly one value, known from its spelling (`3`, `"hi"`, `:a`, `nil`).
    Constant(Literal),
    /// An instance of a class, with its type arguments (`Array[Integer]`).
    Nominal { class: Name, args: Arc<[Type]> },
    /// The class object itself (`singleton(Hash)`).
    Singleton(Name),
    /// Integers within bounds; `None` is unbounded on that side.
    IntRange { min: Option<i64>, max: Option<i64> },
    /// An array of known length and element types.
    Tuple(Vec<Type>),
    /// A symbol-keyed hash of known keys.
    Shape(Shape),
    /// One of several types; built only through [`union`], so flat and
    /// sorted, and never changed after: its members are shared by copies.
    Union(Arc<[Type]>),
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Shape {
    pub fields: Vec<ShapeField>,
    /// Open shapes may hold keys beyond the listed ones.
    pub open: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct ShapeField {
    /// The symbol key's name (`name` for `name:`).
    pub key: String,
    pub ty: Type,
    pub optional: bool,
    pub readonly: bool,
}

impl Type {
    pub fn untyped() -> Type {
        Type::Dynamic(None)
    }

    pub fn nil() -> Type {
        Type::Constant(Literal::Nil)
    }

    pub fn bool() -> Type {
        union([Type::Constant(Literal::True), Type::Constant(Literal::False)])
    }

    pub fn int(value: i64) -> Type {
        Type::Constant(Literal::Int(value))
    }

    pub fn string(value: impl Into<std::sync::Arc<str>>) -> Type {
        Type::Constant(Literal::Str(value.into()))
    }

    pub fn symbol(value: impl Into<std::sync::Arc<str>>) -> Type {
        Type::Constant(Literal::Sym(value.into()))
    }

    pub fn float(value: f64) -> Type {
        Type::Constant(Literal::float(value))
    }

    /// An instance of a class without type arguments (`Integer`).
    pub fn nominal(class: &str) -> Type {
        Type::Nominal { class: Name::from(class), args: Arc::from([]) }
    }

    pub fn generic(class: &str, args: Vec<Type>) -> Type {
        Type::Nominal { class: Name::from(class), args: args.into() }
    }

    pub fn singleton(class: &str) -> Type {
        Type::Singleton(Name::from(class))
    }

    pub fn non_negative_int() -> Type {
        Type::IntRange { min: Some(0), max: None }
    }

    pub fn is_untyped(&self) -> bool {
        matches!(self, Type::Dynamic(_))
    }

    /// Does any part of this type say "unknown" (a Dynamic or Top member)?
    pub fn has_unknown(&self) -> bool {
        match self {
            Type::Dynamic(_) | Type::Top => true,
            Type::Union(members) => members.iter().any(Type::has_unknown),
            _ => false,
        }
    }

    /// The members of a union, or the type itself.
    pub fn members(&self) -> &[Type] {
        match self {
            Type::Union(members) => members,
            other => std::slice::from_ref(other),
        }
    }

    /// Could a value of this type be `nil` or `false`? Unknown types can.
    pub fn may_be_falsy(&self) -> bool {
        self.members().iter().any(|m| match m {
            Type::Constant(Literal::Nil | Literal::False) | Type::Top | Type::Dynamic(_) => true,
            Type::Nominal { class, .. } => matches!(&**class, "NilClass" | "FalseClass" | "Object" | "BasicObject"),
            _ => false,
        })
    }

    /// Could a value of this type be anything but `nil` and `false`?
    pub fn may_be_truthy(&self) -> bool {
        self.members().iter().any(|m| match m {
            Type::Constant(Literal::Nil | Literal::False) | Type::Bot => false,
            Type::Nominal { class, .. } => !matches!(&**class, "NilClass" | "FalseClass"),
            _ => true,
        })
    }

    /// The part of this type a truthy value can have (`if x` then-branch).
    pub fn truthy_part(&self) -> Type {
        self.filter_members(|m| match m {
            Type::Constant(Literal::Nil | Literal::False) => None,
            Type::Nominal { class, .. } if matches!(&**class, "NilClass" | "FalseClass") => None,
            other => Some(other.clone()),
        })
    }

    /// The part of this type a falsy value can have (`if x` else-branch).
    pub fn falsy_part(&self) -> Type {
        self.filter_members(|m| match m {
            Type::Constant(Literal::Nil | Literal::False) => Some(m.clone()),
            Type::Nominal { class, .. } if &**class == "NilClass" => Some(Type::nil()),
            Type::Nominal { class, .. } if &**class == "FalseClass" => Some(Type::Constant(Literal::False)),
            Type::Nominal { class, .. } if matches!(&**class, "Object" | "BasicObject") => {
                Some(union([Type::nil(), Type::Constant(Literal::False)]))
            }
            // Whatever it was, a falsy value is nil or false.
            Type::Dynamic(_) | Type::Top => Some(union([Type::nil(), Type::Constant(Literal::False)])),
            _ => None,
        })
    }

    /// This type without `nil` (`x.nil?` else-branch, after `x&.`).
    pub fn without_nil(&self) -> Type {
        self.filter_members(|m| match m {
            Type::Constant(Literal::Nil) => None,
            Type::Nominal { class, .. } if &**class == "NilClass" => None,
            other => Some(other.clone()),
        })
    }

    /// The `nil` part of this type (`x.nil?` then-branch).
    pub fn nil_part(&self) -> Type {
        self.filter_members(|m| match m {
            Type::Constant(Literal::Nil) => Some(Type::nil()),
            Type::Nominal { class, .. } if matches!(&**class, "NilClass" | "Object" | "BasicObject") => {
                Some(Type::nil())
            }
            Type::Dynamic(_) | Type::Top => Some(Type::nil()),
            _ => None,
        })
    }

    pub fn may_be_nil(&self) -> bool {
        self.nil_part() != Type::Bot
    }

    fn filter_members(&self, keep: impl Fn(&Type) -> Option<Type>) -> Type {
        union(self.members().iter().filter_map(keep))
    }

    /// The class whose methods a value of this type answers to, when there is
    /// exactly one (`1` → Integer, `[1, "a"]` → Array).
    pub fn class_name(&self) -> Option<&str> {
        match self {
            Type::Constant(literal) => Some(literal.class_name()),
            Type::Nominal { class, .. } => Some(class),
            Type::IntRange { .. } => Some("Integer"),
            Type::Tuple(_) => Some("Array"),
            Type::Shape(_) => Some("Hash"),
            _ => None,
        }
    }
}
