//! Between RBS types and inference types: instantiating a signature for a
//! receiver, asking whether an argument fits a parameter (to pick an
//! overload), and binding a method's type variables from its arguments.

use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

use super::index::Superclass;
use super::Inferrer;
use crate::rbs::ast::RType;
use crate::types::{union, Literal, Name, Shape, ShapeField, Type};

/// Alias chains deeper than this are treated as unknown.
const MAX_ALIAS_DEPTH: u8 = 8;

/// What `self`, `instance`, `class` and type variables stand for.
pub struct TypeContext<'c> {
    pub self_type: &'c Type,
    pub instance: &'c Type,
    pub class: &'c Type,
    pub vars: &'c HashMap<Arc<str>, Type>,
}

/// Does an argument fit a parameter?
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    Yes,
    Maybe,
    No,
}

impl Fit {
    fn all(fits: impl IntoIterator<Item = Fit>) -> Fit {
        let mut result = Fit::Yes;
        for fit in fits {
            match fit {
                Fit::No => return Fit::No,
                Fit::Maybe => result = Fit::Maybe,
                Fit::Yes => {}
            }
        }
        result
    }

    fn any(fits: impl IntoIterator<Item = Fit>) -> Fit {
        let mut result = Fit::No;
        for fit in fits {
            match fit {
                Fit::Yes => return Fit::Yes,
                Fit::Maybe => result = Fit::Maybe,
                Fit::No => {}
            }
        }
        result
    }
}

/// Is one class (or module) an ancestor of another?
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    Is,
    IsNot,
    Unknown,
}

impl Inferrer<'_, '_> {
    /// An RBS type with nothing to substitute (globals, constants).
    pub fn rbs_type_plain(&self, rtype: &RType) -> Type {
        let untyped = Type::untyped();
        let vars = HashMap::default();
        let context = TypeContext { self_type: &untyped, instance: &untyped, class: &untyped, vars: &vars };
        self.rbs_type(rtype, &context)
    }

    pub fn rbs_type(&self, rtype: &RType, context: &TypeContext<'_>) -> Type {
        self.convert(rtype, context, 0)
    }

    fn convert(&self, rtype: &RType, cx: &TypeContext<'_>, depth: u8) -> Type {
        match rtype {
            RType::Class { name, args } => match &**name {
                "NilClass" => Type::nil(),
                "TrueClass" => Type::Constant(Literal::True),
                "FalseClass" => Type::Constant(Literal::False),
                _ => {
                    let mut converted: Vec<Type> = args.iter().map(|a| self.convert(a, cx, depth)).collect();
                    let arity = self.env.class(name).map_or(0, |d| d.type_params.len());
                    while converted.len() < arity {
                        converted.push(Type::untyped());
                    }
                    Type::Nominal { class: name.clone(), args: converted.into() }
                }
            },
            RType::Interface { .. } => Type::untyped(),
            RType::Alias { name, args } => {
                let Some(alias) = self.env.alias(name) else { return Type::untyped() };
                if depth >= MAX_ALIAS_DEPTH {
                    return Type::untyped();
                }
                let map = crate::rbs::bind(&alias.params, args);
                self.convert(&alias.ty.substitute(&map), cx, depth + 1)
            }
            RType::Singleton(name) => Type::Singleton(name.clone()),
            RType::Var(var) => cx.vars.get(var).cloned().unwrap_or_else(Type::untyped),
            RType::SelfType => cx.self_type.clone(),
            RType::Instance => cx.instance.clone(),
            RType::ClassType => cx.class.clone(),
            RType::Bool => Type::bool(),
            RType::Nil => Type::nil(),
            RType::Untyped => Type::untyped(),
            RType::Top | RType::Void => Type::Top,
            RType::Bot => Type::Bot,
            RType::Literal(literal) => Type::Constant(literal.clone()),
            RType::Optional(inner) => union([self.convert(inner, cx, depth), Type::nil()]),
            RType::Union(types) => union(types.iter().map(|t| self.convert(t, cx, depth))),
            RType::Intersection(types) => types
                .iter()
                .find(|t| matches!(t, RType::Class { .. }))
                .map_or_else(Type::untyped, |t| self.convert(t, cx, depth)),
            RType::Tuple(types) => Type::Tuple(types.iter().map(|t| self.convert(t, cx, depth)).collect()),
            RType::Record(fields) => Type::Shape(Shape {
                fields: fields
                    .iter()
                    .map(|(key, ty, required)| ShapeField {
                        key: key.clone(),
                        ty: self.convert(ty, cx, depth),
                        optional: !required,
                        readonly: false,
                    })
                    .collect(),
                open: false,
            }),
            RType::Proc(_) => Type::nominal("Proc"),
        }
    }

    /// The class of a value of this type, for method lookup and fits.
    pub fn class_of(ty: &Type) -> Option<Name> {
        match ty {
            Type::Singleton(_) => Some(Name::from("Class")),
            other => other.class_name().map(Name::from),
        }
    }

    /// Is `sub` the class or module `sup`, or does it inherit or include it?
    pub fn relation(&self, sub: &str, sup: &str) -> Relation {
        if sub == sup || sup == "BasicObject" {
            return Relation::Is;
        }
        if sup == "Object" || sup == "Kernel" {
            return if sub == "BasicObject" { Relation::IsNot } else { Relation::Is };
        }
        if self.index.class_shape(sub).is_none() {
            return if self.env.has_class(sub) {
                if self.env.inherits(sub, sup) {
                    Relation::Is
                } else {
                    Relation::IsNot
                }
            } else {
                Relation::Unknown
            };
        }
        let ancestors = self.index.ancestor_names(self.env, sub);
        if ancestors.iter().any(|a| &**a == sup) {
            return Relation::Is;
        }
        if self.ancestry_open(sub) {
            Relation::Unknown
        } else {
            Relation::IsNot
        }
    }

    /// Does a user class's ancestry leave this file's and the signatures' view?
    pub fn ancestry_open(&self, class: &str) -> bool {
        let mut current = Some(Name::from(class));
        let mut guard = 0;
        while let Some(name) = current.take() {
            guard += 1;
            if guard > 64 {
                return true;
            }
            let Some(user) = self.index.class(&name) else {
                return !self.env.has_class(&name);
            };
            if user.unknown_mixins
                || user.includes.iter().any(|m| self.index.class(m).is_none() && !self.env.has_class(m))
            {
                return true;
            }
            current = match &user.superclass {
                Superclass::Known(parent) => Some(parent.clone()),
                Superclass::Implicit => None,
                Superclass::Unknown => return true,
            };
        }
        false
    }

    pub fn is_module(&self, name: &str) -> bool {
        match self.index.class_shape(name) {
            Some(user) => user.is_module,
            None => self.env.is_module(name),
        }
    }

    /// An instance of a class, generic arguments unknown.
    pub fn instance_of(&self, class: &str) -> Type {
        match class {
            "NilClass" => Type::nil(),
            "TrueClass" => Type::Constant(Literal::True),
            "FalseClass" => Type::Constant(Literal::False),
            _ => {
                let arity = self.env.class(class).map_or(0, |d| d.type_params.len());
                Type::generic(class, vec![Type::untyped(); arity])
            }
        }
    }

    /// Does `arg` fit the parameter type `param`?
    pub fn fits(&self, param: &RType, arg: &Type, depth: u8) -> Fit {
        match arg {
            Type::Bot => return Fit::Yes,
            Type::Dynamic(_) | Type::Top => return Fit::Maybe,
            Type::Union(members) => {
                let fits: Vec<Fit> = members.iter().map(|m| self.fits(param, m, depth)).collect();
                return if fits.iter().all(|f| *f == Fit::Yes) {
                    Fit::Yes
                } else if fits.iter().all(|f| *f == Fit::No) {
                    Fit::No
                } else {
                    Fit::Maybe
                };
            }
            _ => {}
        }
        let exact = matches!(
            arg,
            Type::Constant(_) | Type::Tuple(_) | Type::Shape(_) | Type::IntRange { .. } | Type::Singleton(_)
        );
        match param {
            RType::Untyped | RType::Top | RType::Void | RType::Var(_) => Fit::Yes,
            RType::Bot => Fit::No,
            RType::SelfType | RType::Instance | RType::ClassType | RType::Proc(_) | RType::Record(_) => Fit::Maybe,
            RType::Bool => match arg {
                Type::Constant(Literal::True | Literal::False) => Fit::Yes,
                _ => Fit::Maybe,
            },
            RType::Nil => match arg {
                Type::Constant(Literal::Nil) => Fit::Yes,
                _ if exact => Fit::No,
                Type::Nominal { class, .. }
                    if self.relation(class, "NilClass") == Relation::IsNot && !self.is_module(class) =>
                {
                    Fit::No
                }
                _ => Fit::Maybe,
            },
            RType::Literal(literal) => match arg {
                Type::Constant(value) if value == literal => Fit::Yes,
                Type::Constant(_) => Fit::No,
                Type::Nominal { class, .. } if &**class == literal.class_name() => Fit::Maybe,
                _ if exact => Fit::No,
                // A value of another class is never the literal (a Range
                // is not `0`).
                _ if self.fits_class(literal.class_name(), arg, exact) == Fit::No => Fit::No,
                _ => Fit::Maybe,
            },
            RType::Optional(inner) => match arg {
                Type::Constant(Literal::Nil) => Fit::Yes,
                _ => self.fits(inner, arg, depth),
            },
            RType::Union(types) => Fit::any(types.iter().map(|t| self.fits(t, arg, depth))),
            RType::Intersection(types) => Fit::all(types.iter().map(|t| self.fits(t, arg, depth))),
            RType::Alias { name, args } => {
                if depth >= MAX_ALIAS_DEPTH {
                    return Fit::Maybe;
                }
                match self.env.alias(name) {
                    Some(alias) => {
                        let map = crate::rbs::bind(&alias.params, args);
                        self.fits(&alias.ty.substitute(&map), arg, depth + 1)
                    }
                    None => Fit::Maybe,
                }
            }
            RType::Interface { name, .. } => self.fits_interface(name, arg),
            RType::Tuple(types) => match arg {
                Type::Tuple(elements) if elements.len() == types.len() => {
                    Fit::all(types.iter().zip(elements).map(|(t, e)| self.fits(t, e, depth)))
                }
                Type::Tuple(_) => Fit::No,
                Type::Nominal { class, .. } if &**class == "Array" => Fit::Maybe,
                _ if exact => Fit::No,
                _ => Fit::Maybe,
            },
            RType::Singleton(name) => match arg {
                Type::Singleton(class) => match self.relation(class, name) {
                    Relation::Is => Fit::Yes,
                    Relation::IsNot => Fit::No,
                    Relation::Unknown => Fit::Maybe,
                },
                _ if exact => Fit::No,
                _ => Fit::Maybe,
            },
            RType::Class { name, args } => {
                let fit = self.fits_class(name, arg, exact);
                if fit != Fit::Yes || args.is_empty() {
                    return fit;
                }
                // `Range[Float]` is a Range, but not a `Range[Integer]`:
                // the type arguments decide, where the argument says them.
                let given: Vec<Type> = match arg {
                    Type::Nominal { class, args: given } if class == name && given.len() == args.len() => {
                        given.to_vec()
                    }
                    Type::Tuple(elements) if &**name == "Array" && args.len() == 1 => {
                        vec![union(elements.iter().cloned())]
                    }
                    Type::Nominal { .. } | Type::Tuple(_) => return Fit::Maybe,
                    _ => return fit,
                };
                Fit::all(args.iter().zip(&given).map(|(param, given)| self.fits(param, given, depth)))
            }
        }
    }

    fn fits_class(&self, name: &str, arg: &Type, exact: bool) -> Fit {
        let Some(class) = Inferrer::class_of(arg) else { return Fit::Maybe };
        let class = match (arg, &*class) {
            (Type::Singleton(of), "Class") if self.is_module(of) => Name::from("Module"),
            _ => class,
        };
        match self.relation(&class, name) {
            Relation::Is => Fit::Yes,
            Relation::Unknown => Fit::Maybe,
            Relation::IsNot if exact => Fit::No,
            // A subclass of the argument's class might still be one.
            Relation::IsNot if self.is_module(name) || self.is_module(&class) => Fit::Maybe,
            Relation::IsNot if self.relation(name, &class) == Relation::Is => Fit::Maybe,
            Relation::IsNot => Fit::No,
        }
    }

    fn fits_interface(&self, name: &str, arg: &Type) -> Fit {
        let (Some(interface), Some(class)) = (self.env.class(name), Inferrer::class_of(arg)) else {
            return Fit::Maybe;
        };
        let side = if matches!(arg, Type::Singleton(_)) { super::Side::Singleton } else { super::Side::Instance };
        let lookup_class = match arg {
            Type::Singleton(of) => of.clone(),
            _ => class,
        };
        let all_found = interface
            .instance_methods
            .keys()
            .all(|method| !matches!(self.lookup(&lookup_class, side, method), super::lookup::Callee::Missing { .. }));
        if all_found {
            Fit::Yes
        } else {
            Fit::Maybe
        }
    }

    /// Binds the method's own type variables (`[U]`) found in `pattern`
    /// from the type that flows into it.
    pub fn bind_vars(&self, pattern: &RType, actual: &Type, vars: &mut HashMap<Arc<str>, Type>, own: &[Arc<str>]) {
        match pattern {
            RType::Var(var) if own.contains(var) => {
                // The argument may be mutated by the callee: only its class is sure.
                let settled = actual.forget_exact();
                let merged = match vars.get(var) {
                    Some(existing) => union([existing.clone(), settled]),
                    None => settled,
                };
                vars.insert(var.clone(), merged);
            }
            RType::Optional(inner) => self.bind_vars(inner, &actual.without_nil(), vars, own),
            RType::Class { name, args } => {
                let actual_args: Vec<Type> = match actual {
                    Type::Nominal { class, args } if class == name => args.to_vec(),
                    Type::Tuple(elements) if &**name == "Array" => {
                        vec![union(elements.iter().map(|e| crate::types::widen_literals(e.clone())))]
                    }
                    _ => return,
                };
                for (pattern, actual) in args.iter().zip(&actual_args) {
                    self.bind_vars(pattern, actual, vars, own);
                }
            }
            RType::Tuple(patterns) => {
                if let Type::Tuple(elements) = actual {
                    for (pattern, element) in patterns.iter().zip(elements) {
                        self.bind_vars(pattern, element, vars, own);
                    }
                }
            }
            // `_Each[A]` (`Set.new([1, 2])`, `a.zip(b)`): what the argument's
            // `each` yields, for the core collections whose `each` the
            // project leaves alone.
            RType::Interface { name, args } if &**name == "_Each" && args.len() == 1 => {
                if let Some(yielded) = self.each_yields(actual) {
                    self.bind_vars(&args[0], &yielded, vars, own);
                }
            }
            // `_ToAry[U]` (`[1] + ["a"]`): an array's `to_ary` is itself.
            RType::Interface { name, args } if &**name == "_ToAry" && args.len() == 1 => {
                let element = match actual {
                    Type::Tuple(elements) => union(elements.iter().map(|e| crate::types::widen_literals(e.clone()))),
                    Type::Nominal { class, args } if &**class == "Array" && args.len() == 1 => args[0].clone(),
                    _ => return,
                };
                self.bind_vars(&args[0], &element, vars, own);
            }
            _ => {}
        }
    }

    /// What `each` on a core collection yields one element at a time (a
    /// Hash: a `[key, value]` pair), or `None` when not known.
    fn each_yields(&self, actual: &Type) -> Option<Type> {
        if self.index.core_redefined("each") {
            return None;
        }
        match actual {
            Type::Tuple(elements) => Some(union(elements.iter().map(|e| crate::types::widen_literals(e.clone())))),
            Type::Nominal { class, args } => match (&**class, &args[..]) {
                ("Array" | "Set" | "Range" | "Enumerator", [element, ..]) => Some(element.clone()),
                ("Hash", [key, value]) => Some(Type::Tuple(vec![key.clone(), value.clone()])),
                _ => None,
            },
            _ => None,
        }
    }
}
