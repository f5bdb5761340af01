//! Where things are in an RBS file: each class and module declaration
//! (qualified name, type parameters as written, byte ranges) and the
//! methods it declares. `--write` edits files by these ranges; headers
//! copy type parameters exactly, since RBS rejects a reopening whose
//! parameters differ.

use ruby_rbs::node::{self as rbs, Node as RNode};

#[derive(Debug, Clone, PartialEq)]
pub struct Decl {
    /// Fully qualified, without a leading `::`.
    pub name: String,
    pub is_module: bool,
    /// `[unchecked out Elem]` as written, or empty.
    pub type_params: String,
    /// Byte offset of the `class`/`module` keyword.
    pub start: usize,
    /// Byte offset of the closing `end` keyword.
    pub end_keyword: usize,
    pub methods: Vec<MethodDecl>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MethodDecl {
    pub name: String,
    pub instance: bool,
    pub singleton: bool,
    /// Byte range of the whole member (every overload); `None` for
    /// attributes, which are never replaced.
    pub range: Option<(usize, usize)>,
}

/// The declarations of an RBS file, outermost first; `Err` carries the
/// parser's message.
pub fn layout(text: &str) -> Result<Vec<Decl>, String> {
    let outcome = crate::stack_guard::guarded(|| {
        let signature = rbs::parse(text)?;
        let mut out = Vec::new();
        for declaration in signature.declarations().iter() {
            collect(&declaration, &[], text, &mut out);
        }
        Ok(out)
    });
    outcome.unwrap_or_else(|failure| Err(format!("the file could not be read ({failure:?})")))
}

fn collect(node: &RNode<'_>, outer: &[String], text: &str, out: &mut Vec<Decl>) {
    crate::stack_guard::ensure_room();
    let (name, is_module, params, members, start, end_keyword) = match node {
        RNode::Class(class) => (
            class.name(),
            false,
            class.type_params(),
            class.members(),
            class.keyword_location().start(),
            class.end_location().start(),
        ),
        RNode::Module(module) => (
            module.name(),
            true,
            module.type_params(),
            module.members(),
            module.keyword_location().start(),
            module.end_location().start(),
        ),
        _ => return,
    };
    let path = qualified(outer, &name);
    let mut decl = Decl {
        name: path.join("::"),
        is_module,
        type_params: type_params_text(&params, text),
        start: start as usize,
        end_keyword: end_keyword as usize,
        methods: Vec::new(),
    };
    let mut nested = Vec::new();
    for member in members.iter() {
        match &member {
            RNode::MethodDefinition(method) => {
                let (instance, singleton) = match method.kind() {
                    rbs::MethodDefinitionKind::Instance => (true, false),
                    rbs::MethodDefinitionKind::Singleton => (false, true),
                    rbs::MethodDefinitionKind::SingletonInstance => (true, true),
                };
                let location = method.location();
                decl.methods.push(MethodDecl {
                    name: symbol(&method.name()),
                    instance,
                    singleton,
                    range: Some((location.start() as usize, location.end() as usize)),
                });
            }
            RNode::AttrReader(attr) => decl.methods.push(attribute(symbol(&attr.name()), &attr.kind())),
            RNode::AttrWriter(attr) => decl.methods.push(attribute(format!("{}=", symbol(&attr.name())), &attr.kind())),
            RNode::AttrAccessor(attr) => {
                let name = symbol(&attr.name());
                decl.methods.push(attribute(format!("{name}="), &attr.kind()));
                decl.methods.push(attribute(name, &attr.kind()));
            }
            RNode::Alias(alias) => {
                let singleton = matches!(alias.kind(), rbs::AliasKind::Singleton);
                decl.methods.push(MethodDecl {
                    name: symbol(&alias.new_name()),
                    instance: !singleton,
                    singleton,
                    range: None,
                });
            }
            RNode::Class(_) | RNode::Module(_) => nested.push(member),
            _ => {}
        }
    }
    out.push(decl);
    for member in nested {
        collect(&member, &path, text, out);
    }
}

fn attribute(name: String, kind: &rbs::AttributeKind) -> MethodDecl {
    let singleton = matches!(kind, rbs::AttributeKind::Singleton);
    MethodDecl { name, instance: !singleton, singleton, range: None }
}

fn symbol(node: &rbs::SymbolNode<'_>) -> String {
    crate::syntax::decoded(node.as_bytes()).into_owned()
}

/// The segments of a declared name inside `outer` (`::A` is absolute).
fn qualified(outer: &[String], node: &rbs::TypeNameNode<'_>) -> Vec<String> {
    let namespace = node.namespace();
    let mut path: Vec<String> = if namespace.absolute() { Vec::new() } else { outer.to_vec() };
    for segment in namespace.path().iter() {
        if let RNode::Symbol(segment) = segment {
            path.push(symbol(&segment));
        }
    }
    path.push(symbol(&node.name()));
    path
}

fn type_params_text(params: &rbs::NodeList<'_>, text: &str) -> String {
    let ranges: Vec<(usize, usize)> = params
        .iter()
        .filter_map(|param| match param {
            RNode::TypeParam(param) => {
                let location = param.location();
                Some((location.start() as usize, location.end() as usize))
            }
            _ => None,
        })
        .collect();
    match (ranges.first(), ranges.last()) {
        (Some((start, _)), Some((_, end))) => text.get(*start..*end).map(|t| format!("[{t}]")).unwrap_or_default(),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_methods_and_ranges() {
        let text = "module A\n  class B[unchecked out T, U < Integer]\n    def m: () -> T\n         | (Integer) -> U\n    def self.s: () -> void\n    attr_reader x: Integer\n  end\nend\nclass ::C\nend\n";
        let decls = layout(text).unwrap();
        let names: Vec<&str> = decls.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["A", "A::B", "C"]);
        let b = &decls[1];
        assert_eq!(b.type_params, "[unchecked out T, U < Integer]");
        assert!(!b.is_module && decls[0].is_module);
        assert_eq!(&text[b.start..b.start + 5], "class");
        assert_eq!(&text[b.end_keyword..b.end_keyword + 3], "end");
        let m = &b.methods[0];
        let (start, end) = m.range.unwrap();
        assert_eq!(&text[start..end], "def m: () -> T\n         | (Integer) -> U");
        assert!(b.methods[1].singleton && !b.methods[1].instance);
        assert_eq!(b.methods[2].name, "x");
        assert!(layout("class {").is_err());
    }
}
