//! Picking overloads and instantiating them: what a receiver's type
//! parameters stand for, which overloads fit the arguments, and the
//! method's own type variables bound from arguments and the block.

use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

use super::calls::{Arg, BlockArg};
use super::signature::Fit;
use super::Inferrer;
use crate::rbs::ast::{MethodType, RType};
use crate::types::{union, widen_literals, Name, Type};

/// A receiver's meaning for signature instantiation.
#[derive(Clone)]
pub(super) struct Receiver {
    pub(super) self_type: Type,
    pub(super) instance: Type,
    pub(super) class: Type,
    pub(super) vars: HashMap<Arc<str>, Type>,
}

/// Owner arguments without the method's own type parameters (which
/// shadow the class's).
pub(super) fn own_params_removed(
    owner_args: &HashMap<Arc<str>, RType>,
    overload: &MethodType,
) -> HashMap<Arc<str>, RType> {
    if overload.type_params.is_empty() {
        return owner_args.clone();
    }
    owner_args.iter().filter(|(k, _)| !overload.type_params.contains(k)).map(|(k, v)| (k.clone(), v.clone())).collect()
}

impl<'pr, 'a> Inferrer<'pr, 'a> {
    /// The overloads a call can take: the first that surely fits, else all
    /// that might.
    pub(super) fn select(
        &self,
        overloads: &'a [MethodType],
        owner_args: &HashMap<Arc<str>, RType>,
        receiver: &Receiver,
        args: &[Arg],
        block: &BlockArg<'pr>,
    ) -> Vec<&'a MethodType> {
        if matches!(block, BlockArg::Optional | BlockArg::Forwarded) {
            // A block that may be nil: what a call with one picks, and what
            // a call without one picks.
            let mut both = self.select(overloads, owner_args, receiver, args, &BlockArg::Other);
            for overload in self.select(overloads, owner_args, receiver, args, &BlockArg::None) {
                if !both.iter().any(|o| std::ptr::eq(*o, overload)) {
                    both.push(overload);
                }
            }
            return both;
        }
        let any_takes_block = overloads.iter().any(|o| o.block.is_some());
        let unknown_shape = args.iter().any(|a| matches!(a, Arg::Splat | Arg::Forward));
        let keywords = args.iter().find_map(|a| match a {
            Arg::Keywords(ty) => Some(ty),
            _ => None,
        });
        let positional: Vec<&Type> = args.iter().filter_map(Arg::positional).collect();
        let mut maybe = Vec::new();
        for overload in overloads {
            match (&overload.block, block.given()) {
                (None, true) if any_takes_block => continue,
                (Some(b), false) if b.required => continue,
                _ => {}
            }
            let function = &overload.function;
            if function.untyped_params || unknown_shape {
                maybe.push(overload);
                continue;
            }
            let takes_keywords = !function.required_keywords.is_empty()
                || !function.optional_keywords.is_empty()
                || function.rest_keywords.is_some();
            let mut positional = positional.clone();
            let keyword_hash;
            match keywords {
                Some(hash) if !takes_keywords => {
                    keyword_hash = hash.clone();
                    positional.push(&keyword_hash);
                }
                Some(hash) if !self.keywords_fit(function, hash) => continue,
                None if !function.required_keywords.is_empty() => continue,
                _ => {}
            }
            let Some(params) = function.positional_types(positional.len()) else { continue };
            let substituted: Vec<RType> =
                params.iter().map(|p| p.substitute(&own_params_removed(owner_args, overload))).collect();
            let keywords_fit = match keywords {
                Some(hash) if takes_keywords => self.keyword_values_fit(function, hash),
                _ => Fit::Yes,
            };
            let fit = substituted.iter().zip(&positional).fold(keywords_fit, |acc, (param, arg)| {
                let param = self.resolve_class_vars(param, receiver, overload);
                match (acc, self.fits(&param, arg, 0)) {
                    (Fit::No, _) | (_, Fit::No) => Fit::No,
                    (Fit::Maybe, _) | (_, Fit::Maybe) => Fit::Maybe,
                    _ => Fit::Yes,
                }
            });
            match fit {
                // An overload declared again with the same parameters and
                // another return (rbs 2.1's `Range#size`) answers too.
                Fit::Yes if maybe.is_empty() => {
                    return overloads.iter().filter(|other| same_parameters(other, overload)).collect()
                }
                Fit::Yes | Fit::Maybe => maybe.push(overload),
                Fit::No => {}
            }
        }
        maybe
    }

    /// A receiver's class variable in a parameter, when its argument is a
    /// plain class (so `Array[Integer]#push` wants an Integer).
    pub(super) fn resolve_class_vars(&self, param: &RType, receiver: &Receiver, overload: &MethodType) -> RType {
        match param {
            RType::Var(var) if overload.type_params.contains(var) => RType::Untyped,
            RType::Var(var) => match receiver.vars.get(var) {
                Some(Type::Nominal { class, args }) if args.is_empty() => {
                    RType::Class { name: class.clone(), args: vec![] }
                }
                _ => RType::Untyped,
            },
            other => other.clone(),
        }
    }

    pub(super) fn keywords_fit(&self, function: &crate::rbs::ast::Function, hash: &Type) -> bool {
        let Type::Shape(shape) = hash else { return true };
        let known =
            |key: &str| function.required_keywords.iter().chain(&function.optional_keywords).any(|(k, _)| k == key);
        let all_known = function.rest_keywords.is_some() || shape.fields.iter().all(|f| known(&f.key));
        let required_given = function.required_keywords.iter().all(|(k, _)| shape.fields.iter().any(|f| f.key == *k));
        all_known && (required_given || shape.open)
    }

    /// How the keyword values given fit their declared types: one that
    /// surely does not rules the overload out (`exception: false` is not
    /// `exception: true`); one that may not (`exception: flag`) leaves
    /// the other overloads in play.
    fn keyword_values_fit(&self, function: &crate::rbs::ast::Function, hash: &Type) -> Fit {
        let Type::Shape(shape) = hash else { return Fit::Yes };
        shape.fields.iter().fold(Fit::Yes, |acc, field| {
            let declared =
                function.required_keywords.iter().chain(&function.optional_keywords).find(|(k, _)| *k == field.key);
            let fit = declared.map_or(Fit::Yes, |(_, param)| self.fits(param, &field.ty, 0));
            match (acc, fit) {
                (Fit::No, _) | (_, Fit::No) => Fit::No,
                (Fit::Maybe, _) | (_, Fit::Maybe) => Fit::Maybe,
                _ => Fit::Yes,
            }
        })
    }

    pub(super) fn receiver_context(&self, receiver: &Type) -> Receiver {
        let (class, instance, class_type, args) = match receiver {
            Type::Singleton(class) => {
                let instance = self.instance_of(class);
                (Name::from("Class"), instance, Type::nominal("Class"), Vec::new())
            }
            Type::Nominal { class, args } => {
                (class.clone(), receiver.clone(), Type::Singleton(class.clone()), args.to_vec())
            }
            Type::Tuple(elements) => {
                let element = union(elements.iter().cloned().map(widen_literals));
                let element = if element == Type::Bot { Type::untyped() } else { element };
                let array = Type::generic("Array", vec![element.clone()]);
                (Name::from("Array"), array, Type::singleton("Array"), vec![element])
            }
            Type::Shape(shape) => {
                let (key, value) = if shape.fields.is_empty() || shape.open {
                    (Type::untyped(), Type::untyped())
                } else {
                    (Type::nominal("Symbol"), union(shape.fields.iter().map(|f| widen_literals(f.ty.clone()))))
                };
                let hash = Type::generic("Hash", vec![key.clone(), value.clone()]);
                (Name::from("Hash"), hash, Type::singleton("Hash"), vec![key, value])
            }
            other => {
                let class = Inferrer::class_of(other).unwrap_or_else(|| Name::from("Object"));
                (class.clone(), Type::nominal(&class), Type::Singleton(class), vec![])
            }
        };
        let vars = match self.env.class(&class) {
            Some(decl) => decl
                .type_params
                .iter()
                .enumerate()
                .map(|(i, p)| (p.clone(), args.get(i).cloned().unwrap_or_else(Type::untyped)))
                .collect(),
            None => HashMap::default(),
        };
        Receiver { self_type: receiver.clone(), instance, class: class_type, vars }
    }

    /// The receiver's class variables and the method's own variables bound
    /// from arguments (and the block's value, for `map`'s `U`).
    /// `C.new(args)` of a generic signature class: its type arguments as
    /// `initialize`'s overloads bind them from the arguments (`Set.new([1])`
    /// is a `Set[Integer]`, `Array.new(3, 0)` an `Array[Integer]`). A
    /// parameter some fitting overload leaves unbound stays `untyped`.
    pub(super) fn constructed_with_args(&self, class: &str, instance: Type, args: &[Arg]) -> Type {
        let Type::Nominal { args: untyped_args, .. } = &instance else { return instance };
        if untyped_args.is_empty()
            || args.is_empty()
            || self.index.class_shape(class).is_some()
            || self.index.core_redefined("initialize")
        {
            return instance;
        }
        let Some(params) = self.env.class(class).map(|decl| decl.type_params.clone()) else { return instance };
        let Some(found) = self.env.instance_method(class, "initialize").filter(|f| &*f.owner == class) else {
            return instance;
        };
        let receiver = self.receiver_context(&instance);
        let overloads = self.select(found.overloads, &found.owner_args, &receiver, args, &BlockArg::None);
        if overloads.is_empty() {
            return instance;
        }
        let mut bound: Vec<Vec<Type>> = vec![Vec::new(); params.len()];
        for overload in overloads {
            let mut own = overload.clone();
            own.type_params.extend(params.iter().cloned());
            let vars = self.method_vars(&own, &receiver, &HashMap::default(), args, None, false);
            for (param, types) in params.iter().zip(bound.iter_mut()) {
                types.push(vars.get(param).cloned().unwrap_or_else(Type::untyped));
            }
        }
        // What it holds may be held elsewhere too (`Range.new([1], [2]).begin
        // << "s"`): a container's class only.
        Type::generic(
            class,
            bound.into_iter().map(|types| widen_literals(union(types).forget_exact()).forget_contents()).collect(),
        )
    }

    pub(super) fn method_vars(
        &self,
        overload: &MethodType,
        receiver: &Receiver,
        owner_args: &HashMap<Arc<str>, RType>,
        args: &[Arg],
        block_value: Option<&Type>,
        fresh_rows: bool,
    ) -> HashMap<Arc<str>, Type> {
        let mut vars = receiver.vars.clone();
        if overload.type_params.is_empty() {
            return vars;
        }
        for param in &overload.type_params {
            vars.remove(param);
        }
        let function = overload.function.substitute(&own_params_removed(owner_args, overload));
        let mut own = HashMap::default();
        let positional: Vec<&Type> = args.iter().filter_map(Arg::positional).collect();
        if let Some(params) = function.positional_types(positional.len()) {
            for (param, arg) in params.iter().zip(&positional) {
                self.bind_vars(param, arg, &mut own, &overload.type_params);
            }
        }
        if let (Some(block), Some(value)) = (&overload.block, block_value) {
            let returns = block.function.returns.substitute(&own_params_removed(owner_args, overload));
            match (&returns, value) {
                // A new array each run (`map { |w| [w, w.size] }`): the rows
                // keep their shape, each element as a type variable binds it.
                (RType::Var(var), Type::Tuple(_)) if fresh_rows && overload.type_params.contains(var) => {
                    let row = value.settle_elements();
                    let merged = match own.get(var) {
                        Some(existing) => union([Type::clone(existing), row]),
                        None => row,
                    };
                    own.insert(var.clone(), merged);
                }
                _ => self.bind_vars(&returns, value, &mut own, &overload.type_params),
            }
        }
        vars.extend(own);
        vars
    }
}

/// Do two overloads take the same arguments (and block), whatever they
/// return?
fn same_parameters(a: &MethodType, b: &MethodType) -> bool {
    let (f, g) = (&a.function, &b.function);
    std::ptr::eq(a, b)
        || (a.type_params == b.type_params
            && f.untyped_params == g.untyped_params
            && (&f.required, &f.optional, &f.rest, &f.trailing) == (&g.required, &g.optional, &g.rest, &g.trailing)
            && (&f.required_keywords, &f.optional_keywords, &f.rest_keywords)
                == (&g.required_keywords, &g.optional_keywords, &g.rest_keywords)
            && a.block.as_ref().map(|b| (b.required, &b.function))
                == b.block.as_ref().map(|b| (b.required, &b.function)))
}
