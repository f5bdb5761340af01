//! Whether a value surely does not fit an RBS type: as an argument (where
//! Ruby converts implicitly: `to_int`, `to_str`, numbers to each other) or
//! as a returned value (where it does not). Unsure is never "rejects".

use crate::rbs::ast::RType;
use crate::rules::RuleContext;
use crate::types::Type;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Passing {
    /// Passed to a parameter: implicit conversions apply.
    Argument,
    /// Returned where a signature promises a type: no conversion happens.
    Returned,
    /// Passed to a method that takes file paths (`File.read`, `Dir.exist?`):
    /// Ruby converts with `to_path` too (a `Pathname`, a `File`).
    Path,
}

/// Classes whose methods take their string arguments as file paths, which
/// Ruby converts with `to_path` (rbs 2.1 often says `String` alone).
pub const PATH_TAKERS: &[&str] =
    &["File", "Dir", "IO", "FileTest", "FileUtils", "Pathname", "Kernel", "File::Stat", "Logger", "CSV", "Tempfile"];

const NUMERIC: &[&str] = &["Integer", "Float", "Rational", "Complex", "Numeric"];

/// Implicit conversions: a parameter of the class accepts an object with the method.
const CONVERSIONS: &[(&str, &str)] = &[
    ("Integer", "to_int"),
    ("String", "to_str"),
    ("Array", "to_ary"),
    ("Hash", "to_hash"),
    ("Proc", "to_proc"),
    ("IO", "to_io"),
    ("Regexp", "to_str"),
    ("Symbol", "to_str"),
];

/// Alias chains deeper than this are not followed.
const MAX_DEPTH: u8 = 8;

/// Does the type surely refuse the value?
pub fn rejects(cx: &RuleContext<'_, '_>, param: &RType, arg: &Type, passing: Passing) -> bool {
    rejects_at(cx, param, arg, passing, 0)
}

fn rejects_at(cx: &RuleContext<'_, '_>, param: &RType, arg: &Type, passing: Passing, depth: u8) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    let is_nil = *arg == Type::nil();
    let Some(class) = arg.class_name() else { return false };
    // A class object nobody can name (`Class.new(StandardError)`) may be
    // any class: whatever its singleton methods are, or the class a
    // `singleton(...)` wants.
    let some_class_object = matches!(class, "Class" | "Module");
    match param {
        RType::Nil => !is_nil,
        RType::Optional(inner) => !is_nil && rejects_at(cx, inner, arg, passing, depth + 1),
        RType::Union(members) => members.iter().all(|m| rejects_at(cx, m, arg, passing, depth + 1)),
        RType::Alias { name, args } => match cx.env.alias(name) {
            Some(alias) => {
                let map = crate::rbs::bind(&alias.params, args);
                rejects_at(cx, &alias.ty.substitute(&map), arg, passing, depth + 1)
            }
            None => false,
        },
        RType::Class { name, .. } => !accepts_class(cx, name, class, passing),
        RType::Tuple(_) => !accepts_class(cx, "Array", class, passing),
        RType::Record(_) => !accepts_class(cx, "Hash", class, passing),
        RType::Singleton(_) => !some_class_object,
        RType::Interface { .. } if some_class_object => false,
        RType::Interface { name, .. } => match cx.env.class(name) {
            Some(interface) => interface.instance_methods.keys().any(|method| !responds(cx, class, method)),
            None => false,
        },
        RType::Proc(_) => class != "Proc" && (passing == Passing::Returned || !responds(cx, class, "to_proc")),
        // Untyped, top, void, variables, self, instance, class, bool (any
        // object is a truth value), literal types, intersections, bottom.
        _ => false,
    }
}

/// Does a type of class `name` take an instance of `class`?
fn accepts_class(cx: &RuleContext<'_, '_>, name: &str, class: &str, passing: Passing) -> bool {
    let inference = cx.inference();
    if inference.relation(class, name) != crate::infer::Relation::IsNot || !cx.env.has_class(name) {
        return true;
    }
    if passing == Passing::Returned {
        return false;
    }
    if NUMERIC.contains(&name) && NUMERIC.contains(&class) {
        return true;
    }
    CONVERSIONS.iter().any(|(target, method)| *target == name && responds(cx, class, method))
        || (passing == Passing::Path && name == "String" && responds(cx, class, "to_path"))
}

/// Whether instances of `class` may have `method` (signatures, methods
/// Ruby defines at run time, or any project definition of the name).
pub fn responds(cx: &RuleContext<'_, '_>, class: &str, method: &str) -> bool {
    cx.env.instance_method(class, method).is_some()
        || super::core_gaps::defined_at_run_time(&[class], crate::rules::project::Owner::Instance, method)
        || cx.project.defines_anywhere(method)
}
