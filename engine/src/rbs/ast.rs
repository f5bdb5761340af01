//! Signatures as owned data: what the engine keeps of each RBS declaration
//! after the parser's arena is gone.

use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

use crate::types::{Literal, Name};

/// A type as RBS writes it. Names are absolute once the environment has
/// resolved them (see `env::Resolver`).
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub enum RType {
    Class {
        name: Name,
        args: Vec<RType>,
    },
    Interface {
        name: Name,
        args: Vec<RType>,
    },
    Alias {
        name: Name,
        args: Vec<RType>,
    },
    Singleton(Name),
    Var(Arc<str>),
    SelfType,
    Instance,
    ClassType,
    Bool,
    Nil,
    #[default]
    Untyped,
    Top,
    Bot,
    Void,
    Literal(Literal),
    Optional(Box<RType>),
    Union(Vec<RType>),
    Intersection(Vec<RType>),
    Tuple(Vec<RType>),
    /// Symbol-keyed record: (key, type, required).
    Record(Vec<(String, RType, bool)>),
    Proc(Box<Function>),
}

impl RType {
    /// Replaces type variables bound in `map`.
    pub fn substitute(&self, map: &HashMap<Arc<str>, RType>) -> RType {
        if map.is_empty() {
            return self.clone();
        }
        let each = |types: &[RType]| types.iter().map(|t| t.substitute(map)).collect::<Vec<_>>();
        match self {
            RType::Var(name) => map.get(name).cloned().unwrap_or_else(|| self.clone()),
            RType::Class { name, args } => RType::Class { name: name.clone(), args: each(args) },
            RType::Interface { name, args } => RType::Interface { name: name.clone(), args: each(args) },
            RType::Alias { name, args } => RType::Alias { name: name.clone(), args: each(args) },
            RType::Optional(inner) => RType::Optional(Box::new(inner.substitute(map))),
            RType::Union(types) => RType::Union(each(types)),
            RType::Intersection(types) => RType::Intersection(each(types)),
            RType::Tuple(types) => RType::Tuple(each(types)),
            RType::Record(fields) => {
                RType::Record(fields.iter().map(|(k, t, r)| (k.clone(), t.substitute(map), *r)).collect())
            }
            RType::Proc(function) => RType::Proc(Box::new(function.substitute(map))),
            other => other.clone(),
        }
    }

    /// Visits every name this type mentions, mutably (for resolution).
    pub fn names_mut(&mut self, visit: &mut dyn FnMut(&mut Name)) {
        match self {
            RType::Class { name, args } | RType::Interface { name, args } | RType::Alias { name, args } => {
                visit(name);
                args.iter_mut().for_each(|a| a.names_mut(visit));
            }
            RType::Singleton(name) => visit(name),
            RType::Optional(inner) => inner.names_mut(visit),
            RType::Union(types) | RType::Intersection(types) | RType::Tuple(types) => {
                types.iter_mut().for_each(|t| t.names_mut(visit))
            }
            RType::Record(fields) => fields.iter_mut().for_each(|(_, t, _)| t.names_mut(visit)),
            RType::Proc(function) => function.names_mut(visit),
            _ => {}
        }
    }
}

/// A parameter list and return type: `(Integer, ?String, *Symbol, key: bool) -> T`.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct Function {
    pub required: Vec<RType>,
    pub optional: Vec<RType>,
    pub rest: Option<RType>,
    pub trailing: Vec<RType>,
    pub required_keywords: Vec<(String, RType)>,
    pub optional_keywords: Vec<(String, RType)>,
    pub rest_keywords: Option<RType>,
    /// `(?) -> T`: any arguments.
    pub untyped_params: bool,
    pub returns: RType,
}

impl Function {
    pub fn substitute(&self, map: &HashMap<Arc<str>, RType>) -> Function {
        let each = |types: &[RType]| types.iter().map(|t| t.substitute(map)).collect::<Vec<_>>();
        let keywords =
            |kws: &[(String, RType)]| kws.iter().map(|(k, t)| (k.clone(), t.substitute(map))).collect::<Vec<_>>();
        Function {
            required: each(&self.required),
            optional: each(&self.optional),
            rest: self.rest.as_ref().map(|t| t.substitute(map)),
            trailing: each(&self.trailing),
            required_keywords: keywords(&self.required_keywords),
            optional_keywords: keywords(&self.optional_keywords),
            rest_keywords: self.rest_keywords.as_ref().map(|t| t.substitute(map)),
            untyped_params: self.untyped_params,
            returns: self.returns.substitute(map),
        }
    }

    pub fn names_mut(&mut self, visit: &mut dyn FnMut(&mut Name)) {
        for t in self.required.iter_mut().chain(&mut self.optional).chain(&mut self.trailing) {
            t.names_mut(visit);
        }
        for (_, t) in self.required_keywords.iter_mut().chain(&mut self.optional_keywords) {
            t.names_mut(visit);
        }
        for t in self.rest.iter_mut().chain(&mut self.rest_keywords) {
            t.names_mut(visit);
        }
        self.returns.names_mut(visit);
    }

    /// Fewest and most positional arguments (`None`: no upper bound).
    pub fn positional_arity(&self) -> (usize, Option<usize>) {
        let min = self.required.len() + self.trailing.len();
        let max = if self.rest.is_some() || self.untyped_params { None } else { Some(min + self.optional.len()) };
        (min, max)
    }

    /// The type of each of the first `count` positional arguments, when
    /// `count` positionals fit this function.
    pub fn positional_types(&self, count: usize) -> Option<Vec<&RType>> {
        let (min, max) = self.positional_arity();
        if self.untyped_params || count < min || max.is_some_and(|max| count > max) {
            return None;
        }
        let mut types: Vec<&RType> = self.required.iter().collect();
        let extra = count - min;
        types.extend(self.optional.iter().take(extra));
        if extra > self.optional.len() {
            if let Some(rest) = &self.rest {
                types.extend(std::iter::repeat_n(rest, extra - self.optional.len()));
            }
        }
        types.extend(self.trailing.iter());
        Some(types)
    }
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Block {
    pub required: bool,
    pub function: Function,
}

/// One overload: `[U] (A) { (B) -> U } -> Array[U]`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MethodType {
    pub type_params: Vec<Arc<str>>,
    pub function: Function,
    pub block: Option<Block>,
}

impl MethodType {
    pub fn names_mut(&mut self, visit: &mut dyn FnMut(&mut Name)) {
        self.function.names_mut(visit);
        if let Some(block) = &mut self.block {
            block.function.names_mut(visit);
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum DeclKind {
    Class,
    Module,
    Interface,
}

/// A mixin or superclass reference: `Enumerable[Elem]`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TypeApp {
    pub name: Name,
    pub args: Vec<RType>,
}

/// Everything known about one class, module or interface, merged over all
/// the declarations that reopen it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ClassDecl {
    pub name: Name,
    pub kind: DeclKind,
    pub type_params: Vec<Arc<str>>,
    pub superclass: Option<TypeApp>,
    pub includes: Vec<TypeApp>,
    pub prepends: Vec<TypeApp>,
    pub extends: Vec<TypeApp>,
    pub instance_methods: HashMap<String, Vec<MethodType>>,
    pub singleton_methods: HashMap<String, Vec<MethodType>>,
    pub instance_variables: HashMap<String, RType>,
    /// Instance methods declared private (`def self?.` module functions,
    /// `private def`, a `private` section): a call with a written receiver
    /// other than `self` cannot reach them.
    #[serde(default)]
    pub private_instance: rustc_hash::FxHashSet<String>,
    /// Instance methods declared `attr_reader` or `attr_accessor`: they
    /// give the same value until something writes the attribute.
    #[serde(default)]
    pub readers: rustc_hash::FxHashSet<String>,
}

impl ClassDecl {
    pub fn new(name: Name, kind: DeclKind) -> ClassDecl {
        ClassDecl {
            name,
            kind,
            type_params: Vec::new(),
            superclass: None,
            includes: Vec::new(),
            prepends: Vec::new(),
            extends: Vec::new(),
            instance_methods: HashMap::default(),
            singleton_methods: HashMap::default(),
            instance_variables: HashMap::default(),
            private_instance: Default::default(),
            readers: Default::default(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AliasDecl {
    pub params: Vec<Arc<str>>,
    pub ty: RType,
}
