//! The rows of a literal array of arrays or hashes, as an iterating block
//! gets them.
//!
//! An element handed to a block is bound the way a signature's type
//! variable is (`forget_exact`: `[1, "a"]` becomes `Array[Integer |
//! String]`), since the block may keep it or change it. Taken apart at
//! once (`rows.each { |n, s| }`), or read as a hash the block holds alone,
//! a row of a literal that nobody else can reach is what the literal says:
//! each `n` is an Integer, never nil.

use ruby_prism::{Node, Visit};

use crate::types::{union, widen_literals, Literal, Shape, Type};

/// Array methods that give their block each element alone, one at a time.
const ELEMENT_BY_ELEMENT: &[&str] = &[
    "each",
    "map",
    "collect",
    "flat_map",
    "collect_concat",
    "filter_map",
    "select",
    "filter",
    "reject",
    "find",
    "detect",
    "find_index",
    "index",
    "sum",
    "count",
    "any?",
    "all?",
    "none?",
    "one?",
    "min_by",
    "max_by",
    "sort_by",
    "group_by",
    "partition",
    "to_h",
    "uniq",
    "take_while",
    "drop_while",
    "each_entry",
];

/// What the block of `method` on `receiver` may take each element as,
/// when `receiver` is a literal array of same-length arrays (or of
/// hashes) and the block takes each apart or holds it alone: one row
/// type, literals widened (`[Integer, String]`, `{ name: String, age:
/// Integer }`). `None` leaves the element as the signature binds it.
/// `outer_nested` says whether the block reads or writes a local of the
/// code around it that holds nested arrays or hashes: through it (the
/// receiver's own local among them, see [`fresh_rows`]) the block could
/// change a row before it comes.
pub fn row_type(
    receiver: &Type,
    method: &str,
    yielded: Option<&[Type]>,
    block: &ruby_prism::BlockNode<'_>,
    outer_nested: impl Fn(&[u8]) -> bool,
) -> Option<Type> {
    let Type::Tuple(elements) = receiver else { return None };
    if elements.is_empty() || !ELEMENT_BY_ELEMENT.contains(&method) || yielded?.len() != 1 {
        return None;
    }
    let row = if elements.iter().all(|e| matches!(e, Type::Tuple(_))) {
        if !takes_apart(block) {
            return None;
        }
        same_length_row(elements)?
    } else if elements.iter().all(|e| matches!(e, Type::Shape(_))) {
        union(elements.iter().map(widen_fields))
    } else {
        return None;
    };
    if reads_outer_nested(block, &outer_nested) {
        return None;
    }
    Some(row)
}

/// The key under which a local's rows, fresh from a literal, are kept
/// among the flow's stable reads (not Ruby source: no read's text
/// matches it; a write to the local forgets it, as any code that may
/// change the rows does).
pub fn rows_key(local: &str) -> String {
    format!("\u{0}rows {local}")
}

/// `[[1, "a"], [2, "b"]]` (or an array of hash literals) written as an
/// array literal, whose rows nobody but the local assigned it can reach:
/// its type, as the literal says.
pub fn fresh_rows(value: &Node<'_>, ty: Option<&Type>) -> Option<Type> {
    let elements = value.as_array_node()?.elements();
    let all_literal = elements.iter().all(|e| matches!(e, Node::ArrayNode { .. } | Node::HashNode { .. }));
    match ty? {
        Type::Tuple(rows) if all_literal && !rows.is_empty() => {
            let rows_shaped =
                rows.iter().all(|r| matches!(r, Type::Tuple(_))) || rows.iter().all(|r| matches!(r, Type::Shape(_)));
            rows_shaped.then(|| ty.cloned()).flatten()
        }
        _ => None,
    }
}

/// Longest `each_cons` window given as a tuple.
const MAX_WINDOW: i64 = 16;

/// `each_cons(2)`'s block gets windows of exactly two elements, where the
/// signature says only `Array[Elem]`: `[Elem, Elem]`, so `|a, b|` takes
/// two elements, neither of them `nil`. `None` for any other call.
pub fn cons_window(method: &str, args: &[super::calls::Arg], yielded: Option<&[Type]>) -> Option<Type> {
    let ([super::calls::Arg::Value(Type::Constant(Literal::Int(n)))], "each_cons") = (args, method) else {
        return None;
    };
    let [Type::Nominal { class, args: element }] = yielded? else { return None };
    match (&**class, &element[..]) {
        ("Array", [element]) if (1..=MAX_WINDOW).contains(n) => Some(Type::Tuple(vec![element.clone(); *n as usize])),
        _ => None,
    }
}

/// `[[1, "a"], [2, "b"]]` → `[Integer, String]`; `None` when the rows'
/// lengths differ.
fn same_length_row(rows: &[Type]) -> Option<Type> {
    let Type::Tuple(first) = &rows[0] else { return None };
    let width = first.len();
    let mut columns: Vec<Vec<Type>> = vec![Vec::new(); width];
    for row in rows {
        let Type::Tuple(cells) = row else { return None };
        if cells.len() != width {
            return None;
        }
        for (column, cell) in columns.iter_mut().zip(cells) {
            column.push(widen_literals(cell.forget_exact()));
        }
    }
    Some(Type::Tuple(columns.into_iter().map(union).collect()))
}

/// A hash row with its fields' literals widened (nested containers lose
/// their exact contents, as anything taken out of a container does).
fn widen_fields(row: &Type) -> Type {
    let Type::Shape(shape) = row else { return row.clone() };
    let mut fields = shape.fields.clone();
    for field in &mut fields {
        field.ty = widen_literals(field.ty.forget_exact());
    }
    Type::Shape(Shape { fields, open: shape.open })
}

/// Does the block take its one value apart: `|a, b|`, `|a, *rest|`, or
/// `|(a, b)|`?
fn takes_apart(block: &ruby_prism::BlockNode<'_>) -> bool {
    let Some(list) = block.parameters().and_then(|p| p.as_block_parameters_node()).and_then(|p| p.parameters()) else {
        return false;
    };
    let positional = list.requireds().iter().count() + list.optionals().iter().count() + list.posts().iter().count();
    let first_destructures = list.requireds().iter().next().is_some_and(|r| matches!(r, Node::MultiTargetNode { .. }));
    positional > 1 || (positional == 1 && (list.rest().is_some() || first_destructures))
}

/// Does the block use a local of the code around it that holds nested
/// containers (the receiver itself, or an alias of it)?
fn reads_outer_nested(block: &ruby_prism::BlockNode<'_>, outer_nested: &impl Fn(&[u8]) -> bool) -> bool {
    struct Outer<'f, F> {
        outer_nested: &'f F,
        found: bool,
    }
    impl<'pr, F: Fn(&[u8]) -> bool> Visit<'pr> for Outer<'_, F> {
        fn visit_local_variable_read_node(&mut self, node: &ruby_prism::LocalVariableReadNode<'pr>) {
            self.found |= node.depth() > 0 && (self.outer_nested)(node.name().as_slice());
        }
        fn visit_local_variable_write_node(&mut self, node: &ruby_prism::LocalVariableWriteNode<'pr>) {
            self.found |= node.depth() > 0 && (self.outer_nested)(node.name().as_slice());
            ruby_prism::visit_local_variable_write_node(self, node);
        }
    }
    let mut outer = Outer { outer_nested, found: false };
    if let Some(body) = block.body() {
        outer.visit(&body);
    }
    outer.found
}
