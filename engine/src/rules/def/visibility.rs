//! Method visibility as a class body sets it: `private` alone (for the defs
//! after it), `private :name`, `private def name`, and the same for
//! `public` and `protected`. Instance methods of classes (not modules).

use rustc_hash::FxHashMap as HashMap;

use ruby_prism::Node;

use crate::syntax::constant_path_text;
use crate::syntax::name;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Visibility {
    Public,
    Protected,
    Private,
}

impl Visibility {
    fn of(keyword: &str) -> Option<Visibility> {
        match keyword {
            "public" => Some(Visibility::Public),
            "protected" => Some(Visibility::Protected),
            "private" => Some(Visibility::Private),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Visibility::Public => "public",
            Visibility::Protected => "protected",
            Visibility::Private => "private",
        }
    }
}

/// One instance method a class body defines.
#[derive(Debug, Clone)]
pub struct Defined {
    pub visibility: Visibility,
    /// Offset of the method's name in its `def`.
    pub name_offset: usize,
}

/// Per class (as written, qualified by nesting): its superclass as written,
/// and its methods.
#[derive(Debug, Default)]
pub struct ClassMethods {
    pub superclass: Option<String>,
    pub methods: HashMap<String, Defined>,
}

pub fn collect(root: &Node<'_>) -> HashMap<String, ClassMethods> {
    let mut out = HashMap::default();
    walk(root, &[], &mut out);
    out
}

fn walk(node: &Node<'_>, lexical: &[String], out: &mut HashMap<String, ClassMethods>) {
    crate::stack_guard::ensure_room();
    if let Some(class) = node.as_class_node() {
        let Some(written) = constant_path_text(&class.constant_path()) else { return };
        let full = qualified(lexical, &written);
        let entry = out.entry(full.clone()).or_default();
        if let Some(superclass) = class.superclass().as_ref().and_then(constant_path_text) {
            entry.superclass = Some(superclass);
        }
        let mut nested = lexical.to_vec();
        nested.push(full.clone());
        if let Some(body) = class.body() {
            body_statements(&body, &full, &nested, out);
        }
        return;
    }
    if let Some(module) = node.as_module_node() {
        let Some(written) = constant_path_text(&module.constant_path()) else { return };
        let mut nested = lexical.to_vec();
        nested.push(qualified(lexical, &written));
        if let Some(body) = module.body() {
            for child in statements(&body) {
                walk(&child, &nested, out);
            }
        }
        return;
    }
    if let Some(program) = node.as_program_node() {
        for child in program.statements().body().iter() {
            walk(&child, lexical, out);
        }
    }
}

fn qualified(lexical: &[String], written: &str) -> String {
    match (written.strip_prefix("::"), lexical.last()) {
        (Some(absolute), _) => absolute.to_string(),
        (None, Some(outer)) => format!("{outer}::{written}"),
        (None, None) => written.to_string(),
    }
}

fn statements<'pr>(body: &Node<'pr>) -> Vec<Node<'pr>> {
    match body.as_statements_node() {
        Some(list) => list.body().iter().collect(),
        None => vec![crate::syntax::node_clone(body)],
    }
}

fn body_statements(body: &Node<'_>, class: &str, lexical: &[String], out: &mut HashMap<String, ClassMethods>) {
    let mut current = Visibility::Public;
    for statement in statements(body) {
        if let Some(def) = statement.as_def_node() {
            if def.receiver().is_none() {
                define(out, class, &def, current);
            }
            continue;
        }
        if let Some(call) = statement.as_call_node() {
            let Some(visibility) = Visibility::of(&name(call.name())) else { continue };
            if call.receiver().is_some() {
                continue;
            }
            let arguments: Vec<Node<'_>> = call.arguments().map(|a| a.arguments().iter().collect()).unwrap_or_default();
            if arguments.is_empty() {
                current = visibility;
            }
            for argument in arguments {
                if let Some(def) = argument.as_def_node() {
                    define(out, class, &def, visibility);
                } else if let Some(symbol) = argument.as_symbol_node() {
                    let method = crate::syntax::decoded(symbol.unescaped()).into_owned();
                    if let Some(entry) = out.get_mut(class).and_then(|c| c.methods.get_mut(&method)) {
                        entry.visibility = visibility;
                    }
                }
            }
            continue;
        }
        walk(&statement, lexical, out);
    }
}

fn define(out: &mut HashMap<String, ClassMethods>, class: &str, def: &ruby_prism::DefNode<'_>, visibility: Visibility) {
    let method = name(def.name());
    let name_offset = def.name_loc().start() as usize;
    out.entry(class.to_string()).or_default().methods.insert(method, Defined { visibility, name_offset });
}
