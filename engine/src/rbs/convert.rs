//! From the RBS parser's nodes (`ruby-rbs`, the RBS project's own parser)
//! to owned declarations. Names stay as written here (a leading `::` marks
//! an absolute one); the environment resolves them once every file is in.

use std::sync::Arc;

use ruby_rbs::node::{self as rbs, Node as RNode};

use super::ast::{AliasDecl, Block, ClassDecl, DeclKind, Function, MethodType, RType, TypeApp};
use crate::types::{Literal, Name};

/// What one file declares, before merging.
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FileDecls {
    pub classes: Vec<ClassDecl>,
    pub aliases: Vec<(Name, AliasDecl)>,
    pub constants: Vec<(Name, RType)>,
    pub globals: Vec<(String, RType)>,
    /// (class, singleton?, new name, old name)
    pub method_aliases: Vec<(Name, bool, String, String)>,
    /// (class, singleton?, method): `def m: ...` with `...`, adding overloads.
    pub overloading: Vec<(Name, bool, String)>,
}

/// Parses one file's text; `Err` carries the parser's message.
pub fn convert_file(text: &str) -> Result<FileDecls, String> {
    let signature = rbs::parse(text)?;
    let mut out = FileDecls::default();
    for declaration in signature.declarations().iter() {
        declaration_into(&declaration, &[], &mut out);
    }
    Ok(out)
}

fn symbol(node: &rbs::SymbolNode<'_>) -> String {
    crate::syntax::decoded(node.as_bytes()).into_owned()
}

/// `A::B` as written, with a leading `::` when absolute.
fn type_name(node: &rbs::TypeNameNode<'_>) -> String {
    let namespace = node.namespace();
    let mut text = String::new();
    if namespace.absolute() {
        text.push_str("::");
    }
    for segment in namespace.path().iter() {
        if let RNode::Symbol(segment) = segment {
            text.push_str(&symbol(&segment));
            text.push_str("::");
        }
    }
    text.push_str(&symbol(&node.name()));
    text
}

/// The absolute name a declaration introduces inside `outer`.
fn declared_name(outer: &[String], node: &rbs::TypeNameNode<'_>) -> (Name, Vec<String>) {
    let written = type_name(node);
    let mut path: Vec<String> = if written.starts_with("::") { Vec::new() } else { outer.to_vec() };
    path.extend(written.trim_start_matches("::").split("::").map(str::to_string));
    (Name::from(path.join("::")), path)
}

fn type_params(list: &rbs::NodeList<'_>) -> Vec<Arc<str>> {
    list.iter()
        .filter_map(|param| match param {
            RNode::TypeParam(param) => Some(Arc::from(symbol(&param.name()))),
            _ => None,
        })
        .collect()
}

fn declaration_into(node: &RNode<'_>, outer: &[String], out: &mut FileDecls) {
    match node {
        RNode::Class(class) => {
            let (name, path) = declared_name(outer, &class.name());
            let mut decl = ClassDecl::new(name, DeclKind::Class);
            decl.type_params = type_params(&class.type_params());
            decl.superclass =
                class.super_class().map(|s| TypeApp { name: type_name(&s.name()).into(), args: types(&s.args()) });
            members_into(&class.members(), &path, &mut decl, out);
            out.classes.push(decl);
        }
        RNode::Module(module) => {
            let (name, path) = declared_name(outer, &module.name());
            let mut decl = ClassDecl::new(name, DeclKind::Module);
            decl.type_params = type_params(&module.type_params());
            members_into(&module.members(), &path, &mut decl, out);
            out.classes.push(decl);
        }
        RNode::Interface(interface) => {
            let (name, path) = declared_name(outer, &interface.name());
            let mut decl = ClassDecl::new(name, DeclKind::Interface);
            decl.type_params = type_params(&interface.type_params());
            members_into(&interface.members(), &path, &mut decl, out);
            out.classes.push(decl);
        }
        RNode::TypeAlias(alias) => {
            let (name, _) = declared_name(outer, &alias.name());
            out.aliases
                .push((name, AliasDecl { params: type_params(&alias.type_params()), ty: rtype(&alias.type_()) }));
        }
        RNode::Constant(constant) => {
            let (name, _) = declared_name(outer, &constant.name());
            out.constants.push((name, rtype(&constant.type_())));
        }
        RNode::Global(global) => out.globals.push((symbol(&global.name()), rtype(&global.type_()))),
        RNode::ClassAlias(alias) => {
            let (name, _) = declared_name(outer, &alias.new_name());
            let old: Name = type_name(&alias.old_name()).into();
            // An alias is a constant holding the old class object.
            out.constants.push((name, RType::Singleton(old)));
        }
        RNode::ModuleAlias(alias) => {
            let (name, _) = declared_name(outer, &alias.new_name());
            let old: Name = type_name(&alias.old_name()).into();
            out.constants.push((name, RType::Singleton(old)));
        }
        _ => {}
    }
}

fn members_into(members: &rbs::NodeList<'_>, path: &[String], decl: &mut ClassDecl, out: &mut FileDecls) {
    // After a `private` member, definitions are private until `public`.
    let mut private_section = false;
    for member in members.iter() {
        match &member {
            RNode::MethodDefinition(method) => {
                let name = symbol(&method.name());
                let overloads: Vec<MethodType> = method
                    .overloads()
                    .iter()
                    .filter_map(|overload| match overload {
                        RNode::MethodDefinitionOverload(overload) => method_type(&overload.method_type()),
                        _ => None,
                    })
                    .collect();
                let (instance, singleton) = match method.kind() {
                    rbs::MethodDefinitionKind::Instance => (true, false),
                    rbs::MethodDefinitionKind::Singleton => (false, true),
                    rbs::MethodDefinitionKind::SingletonInstance => (true, true),
                };
                if instance {
                    let private = match method.visibility() {
                        rbs::MethodDefinitionVisibility::Private => true,
                        rbs::MethodDefinitionVisibility::Public => false,
                        _ => private_section || method.kind() == rbs::MethodDefinitionKind::SingletonInstance,
                    };
                    if private {
                        decl.private_instance.insert(name.clone());
                    } else if !method.overloading() {
                        decl.private_instance.remove(&name);
                    }
                }
                for (wanted, is_singleton) in [(instance, false), (singleton, true)] {
                    if !wanted {
                        continue;
                    }
                    if method.overloading() {
                        out.overloading.push((decl.name.clone(), is_singleton, name.clone()));
                    }
                    let table = if is_singleton { &mut decl.singleton_methods } else { &mut decl.instance_methods };
                    table.entry(name.clone()).or_default().extend(overloads.iter().cloned());
                }
            }
            RNode::Alias(alias) => {
                let singleton = matches!(alias.kind(), rbs::AliasKind::Singleton);
                out.method_aliases.push((
                    decl.name.clone(),
                    singleton,
                    symbol(&alias.new_name()),
                    symbol(&alias.old_name()),
                ));
            }
            RNode::AttrReader(attr) => {
                attribute(decl, &symbol(&attr.name()), rtype(&attr.type_()), attr.kind(), true, false)
            }
            RNode::AttrWriter(attr) => {
                attribute(decl, &symbol(&attr.name()), rtype(&attr.type_()), attr.kind(), false, true)
            }
            RNode::AttrAccessor(attr) => {
                attribute(decl, &symbol(&attr.name()), rtype(&attr.type_()), attr.kind(), true, true)
            }
            RNode::Include(include) => {
                decl.includes.push(TypeApp { name: type_name(&include.name()).into(), args: types(&include.args()) })
            }
            RNode::Extend(extend) => {
                decl.extends.push(TypeApp { name: type_name(&extend.name()).into(), args: types(&extend.args()) })
            }
            RNode::Prepend(prepend) => {
                decl.prepends.push(TypeApp { name: type_name(&prepend.name()).into(), args: types(&prepend.args()) })
            }
            RNode::InstanceVariable(ivar) => {
                decl.instance_variables.insert(symbol(&ivar.name()), rtype(&ivar.type_()));
            }
            RNode::Class(_)
            | RNode::Module(_)
            | RNode::Interface(_)
            | RNode::TypeAlias(_)
            | RNode::Constant(_)
            | RNode::ClassAlias(_)
            | RNode::ModuleAlias(_) => declaration_into(&member, path, out),
            RNode::Private(_) => private_section = true,
            RNode::Public(_) => private_section = false,
            _ => {}
        }
    }
}

fn attribute(decl: &mut ClassDecl, name: &str, ty: RType, kind: rbs::AttributeKind, reader: bool, writer: bool) {
    let table = match kind {
        rbs::AttributeKind::Instance => &mut decl.instance_methods,
        rbs::AttributeKind::Singleton => &mut decl.singleton_methods,
    };
    if reader {
        if kind == rbs::AttributeKind::Instance {
            decl.readers.insert(name.to_string());
        }
        let function = Function { returns: ty.clone(), ..Function::default() };
        table.entry(name.to_string()).or_default().push(MethodType { type_params: vec![], function, block: None });
    }
    if writer {
        let function = Function { required: vec![ty.clone()], returns: ty, ..Function::default() };
        table.entry(format!("{name}=")).or_default().push(MethodType { type_params: vec![], function, block: None });
    }
}

fn method_type(node: &RNode<'_>) -> Option<MethodType> {
    let RNode::MethodType(method) = node else { return None };
    let block = method.block().map(|block| Block { required: block.required(), function: function(&block.type_()) });
    Some(MethodType { type_params: type_params(&method.type_params()), function: function(&method.type_()), block })
}

fn function(node: &RNode<'_>) -> Function {
    match node {
        RNode::FunctionType(f) => {
            let params = |list: rbs::NodeList<'_>| list.iter().map(|p| param(&p)).collect::<Vec<_>>();
            let keywords = |hash: rbs::RBSHash<'_>| {
                hash.iter()
                    .filter_map(|(key, value)| match key {
                        RNode::Symbol(key) => Some((symbol(&key), param(&value))),
                        _ => None,
                    })
                    .collect::<Vec<_>>()
            };
            Function {
                required: params(f.required_positionals()),
                optional: params(f.optional_positionals()),
                rest: f.rest_positionals().map(|p| param(&p)),
                trailing: params(f.trailing_positionals()),
                required_keywords: keywords(f.required_keywords()),
                optional_keywords: keywords(f.optional_keywords()),
                rest_keywords: f.rest_keywords().map(|p| param(&p)),
                untyped_params: false,
                returns: rtype(&f.return_type()),
            }
        }
        RNode::UntypedFunctionType(f) => {
            Function { untyped_params: true, returns: rtype(&f.return_type()), ..Function::default() }
        }
        _ => Function { untyped_params: true, ..Function::default() },
    }
}

fn param(node: &RNode<'_>) -> RType {
    match node {
        RNode::FunctionParam(p) => rtype(&p.type_()),
        other => rtype(other),
    }
}

fn types(list: &rbs::NodeList<'_>) -> Vec<RType> {
    list.iter().map(|t| rtype(&t)).collect()
}

fn rtype(node: &RNode<'_>) -> RType {
    match node {
        RNode::ClassInstanceType(t) => RType::Class { name: type_name(&t.name()).into(), args: types(&t.args()) },
        RNode::InterfaceType(t) => RType::Interface { name: type_name(&t.name()).into(), args: types(&t.args()) },
        RNode::AliasType(t) => RType::Alias { name: type_name(&t.name()).into(), args: types(&t.args()) },
        RNode::ClassSingletonType(t) => RType::Singleton(type_name(&t.name()).into()),
        RNode::VariableType(t) => RType::Var(Arc::from(symbol(&t.name()))),
        RNode::SelfType(_) => RType::SelfType,
        RNode::InstanceType(_) => RType::Instance,
        RNode::ClassType(_) => RType::ClassType,
        RNode::BoolType(_) => RType::Bool,
        RNode::NilType(_) => RType::Nil,
        RNode::AnyType(_) => RType::Untyped,
        RNode::TopType(_) => RType::Top,
        RNode::BottomType(_) => RType::Bot,
        RNode::VoidType(_) => RType::Void,
        RNode::LiteralType(t) => literal(&t.literal()),
        RNode::OptionalType(t) => RType::Optional(Box::new(rtype(&t.type_()))),
        RNode::UnionType(t) => RType::Union(types(&t.types())),
        RNode::IntersectionType(t) => RType::Intersection(types(&t.types())),
        RNode::TupleType(t) => RType::Tuple(types(&t.types())),
        RNode::RecordType(t) => RType::Record(
            t.all_fields()
                .iter()
                .filter_map(|(key, value)| {
                    let RNode::Symbol(key) = key else { return None };
                    match value {
                        RNode::RecordFieldType(field) => Some((symbol(&key), rtype(&field.type_()), field.required())),
                        other => Some((symbol(&key), rtype(&other), true)),
                    }
                })
                .collect(),
        ),
        RNode::ProcType(t) => RType::Proc(Box::new(function(&t.type_()))),
        _ => RType::Untyped,
    }
}

fn literal(node: &RNode<'_>) -> RType {
    match node {
        RNode::Integer(i) => {
            let text: String = i.string_representation().as_str().chars().filter(|c| *c != '_').collect();
            match text.parse::<i64>() {
                Ok(value) => RType::Literal(Literal::Int(value)),
                Err(_) => RType::Class { name: "::Integer".into(), args: vec![] },
            }
        }
        RNode::String(s) => RType::Literal(Literal::Str(s.string().as_str().into())),
        RNode::Symbol(s) => RType::Literal(Literal::Sym(symbol(s).into())),
        RNode::Bool(b) => RType::Literal(if b.value() { Literal::True } else { Literal::False }),
        _ => RType::Untyped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_methods_and_types_convert() {
        let decls = convert_file(
            "module M\n  class C[T] < Base[T]\n    include Enumerable[T]\n    def m: (Integer, ?String, *Symbol, k: bool) { (T) -> void } -> Array[T]\n         | () -> ::Foo::Bar?\n    def self.s: () -> singleton(C)\n    attr_reader name: String\n    alias other m\n  end\n  VERSION: String\n  type t = Integer | \"a\"\nend\n$g: IO\n",
        )
        .unwrap();
        let c = decls.classes.iter().find(|c| &*c.name == "M::C").unwrap();
        assert_eq!(c.type_params, vec![Arc::<str>::from("T")]);
        assert_eq!(c.superclass.as_ref().unwrap().name.as_ref(), "Base");
        let m = &c.instance_methods["m"];
        assert_eq!(m.len(), 2);
        assert_eq!(m[0].function.required.len(), 1);
        assert_eq!(m[0].function.positional_arity(), (1, None));
        assert!(m[0].block.as_ref().is_some_and(|b| b.required));
        assert_eq!(
            m[1].function.returns,
            RType::Optional(Box::new(RType::Class { name: "::Foo::Bar".into(), args: vec![] }))
        );
        assert!(c.singleton_methods.contains_key("s"));
        assert!(c.instance_methods.contains_key("name"));
        assert_eq!(decls.method_aliases[0].2, "other");
        assert_eq!(decls.constants[0].0.as_ref(), "M::VERSION");
        assert_eq!(decls.aliases[0].0.as_ref(), "M::t");
        assert_eq!(decls.globals[0].0, "$g");
    }

    #[test]
    fn private_instance_methods_are_recorded() {
        let decls = convert_file(
            "module K\n  def self?.f: () -> String\n  def g: () -> String\n  private def h: () -> String\n  private\n  def i: () -> String\n  public def j: () -> String\n  public\n  def k: () -> String\nend\n",
        )
        .unwrap();
        let k = &decls.classes[0];
        let mut private: Vec<&str> = k.private_instance.iter().map(String::as_str).collect();
        private.sort();
        assert_eq!(private, ["f", "h", "i"]);
        // A module function's singleton side is public.
        assert!(k.singleton_methods.contains_key("f"));
    }

    #[test]
    fn parse_errors_are_reported_not_raised() {
        assert!(convert_file("class { end").is_err());
    }
}
