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

/// Array methods that give their block each element with one more value.
const PAIRED: &[&str] = &["each_with_index", "each_with_object"];

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
) -> Option<Vec<Type>> {
    let Type::Tuple(elements) = receiver else { return None };
    let yielded = yielded?;
    // `each_with_index { |(a, b), i| }`: the row first, then the index.
    let paired = PAIRED.contains(&method) && yielded.len() == 2;
    if elements.is_empty() || !(paired || (ELEMENT_BY_ELEMENT.contains(&method) && yielded.len() == 1)) {
        return None;
    }
    let row = if elements.iter().all(|e| matches!(e, Type::Tuple(_))) {
        let apart = if paired { first_destructures(block) } else { takes_apart(block) };
        if !apart {
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
    Some(if paired { vec![row, yielded[1].clone()] } else { vec![row] })
}

/// Of [`ELEMENT_BY_ELEMENT`], those whose answer holds none of the
/// elements: what the block gives (`map`), a count, an index, a truth.
const ANSWER_HOLDS_NO_ELEMENT: &[&str] = &[
    "map",
    "collect",
    "flat_map",
    "collect_concat",
    "filter_map",
    "sum",
    "count",
    "any?",
    "all?",
    "none?",
    "one?",
    "find_index",
    "index",
    "to_h",
];

/// Does the call leave the rows of an array of rows as they were (`pairs
/// = words.map { |w| [w, w.size] }`, then `pairs.map { |w, n| }`)? When
/// the block takes each row apart at once, and rows hold nothing mutable
/// for it to change, no code in the block can reach a row: not through
/// its parameters, nor through a local of the code around it that holds
/// nested containers (the receiver's own among them), and the answer
/// holds no row.
pub fn rows_stay_whole(
    method: &str,
    receiver: &Type,
    block: &ruby_prism::BlockNode<'_>,
    outer_nested: impl Fn(&[u8]) -> bool,
) -> bool {
    let plain_row = |row: &Type| match row {
        Type::Tuple(cells) => cells.iter().all(|c| !c.has_mutable_contents() && !c.has_nested_mutable_contents()),
        _ => false,
    };
    let rows_known = receiver.members().iter().all(|member| match member {
        Type::Nominal { class, args } if &**class == "Array" && args.len() == 1 => {
            args[0].members().iter().all(plain_row)
        }
        Type::Tuple(rows) => !rows.is_empty() && rows.iter().all(plain_row),
        _ => false,
    });
    ANSWER_HOLDS_NO_ELEMENT.contains(&method)
        && rows_known
        && takes_apart(block)
        && !reads_outer_nested(block, &outer_nested)
}

/// Of [`ELEMENT_BY_ELEMENT`], those that with no block give no enumerator.
const GIVE_NO_ENUMERATOR: &[&str] = &["sum", "count", "any?", "all?", "none?", "one?", "to_h", "uniq"];

/// Methods of an enumerator that give their block each element with one
/// more value (the index, the memo).
const WITH_MORE: &[&str] = &["with_index", "each_with_index", "with_object", "each_with_object"];

/// Is `inner` (called with no block and no argument) a method whose
/// enumerator a block call on it may take the rows of (see
/// [`chained_row_type`])?
pub fn enumerates_rows(inner: &str) -> bool {
    enumerates_one_by_one(inner) || inner == "each_with_index"
}

/// With no block and no argument, an enumerator of the elements one at a
/// time (`rows.map`).
fn enumerates_one_by_one(method: &str) -> bool {
    ELEMENT_BY_ELEMENT.contains(&method) && !GIVE_NO_ENUMERATOR.contains(&method)
}

/// [`row_type`] through an enumerator made at once of the literal rows and
/// run by this very call: `rows.map.with_index { |(n, s), i| }` (each
/// element, then the index) and `rows.each_with_index.map { |(n, s), i| }`
/// (each pair of element and index, taken apart).
pub fn chained_row_type(
    rows: &Type,
    inner: &str,
    method: &str,
    yielded: Option<&[Type]>,
    block: &ruby_prism::BlockNode<'_>,
    outer_nested: impl Fn(&[u8]) -> bool,
) -> Option<Vec<Type>> {
    let Type::Tuple(elements) = rows else { return None };
    let yielded = yielded?;
    if elements.is_empty() || !elements.iter().all(|e| matches!(e, Type::Tuple(_))) || !first_destructures(block) {
        return None;
    }
    let pair = |row: Type, more: &Type| -> Vec<Type> { vec![row, more.clone()] };
    let found = if enumerates_one_by_one(inner) && WITH_MORE.contains(&method) && yielded.len() == 2 {
        pair(same_length_row(elements)?, &yielded[1])
    } else if inner == "each_with_index"
        && ELEMENT_BY_ELEMENT.contains(&method)
        && yielded.len() == 1
        && positional_count(block) >= 2
    {
        // The pair comes as one array; a block of two parameters or more
        // takes it as its two values (which keeps the row a tuple).
        let Type::Tuple(given) = &yielded[0] else { return None };
        let [_, index] = &given[..] else { return None };
        pair(same_length_row(elements)?, index)
    } else {
        return None;
    };
    if reads_outer_nested(block, &outer_nested) {
        return None;
    }
    Some(found)
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

/// Longest window (`each_cons(n)`, `combination(n)`, ...) given as a tuple.
const MAX_WINDOW: i64 = 16;

/// Methods that give each of their arrays exactly `n` elements, `n` their
/// one argument: `each_cons(2)`'s windows, `combination(2)`'s pairs.
/// (`each_slice`'s last slice may be shorter.)
const FIXED_WIDTH: &[&str] =
    &["each_cons", "combination", "permutation", "repeated_combination", "repeated_permutation"];

/// Does `method` give arrays of exactly its argument's length, when its
/// argument is a literal? Such a call with no block is an enumerator
/// yielding one array at a time (not several values).
pub fn gives_fixed_width(method: &str) -> bool {
    FIXED_WIDTH.contains(&method)
}

/// The literal width `n` of a fixed-width call, if it is one.
fn fixed_width(method: &str, args: &[super::calls::Arg]) -> Option<usize> {
    let [super::calls::Arg::Value(Type::Constant(Literal::Int(n)))] = args else { return None };
    (gives_fixed_width(method) && (1..=MAX_WINDOW).contains(n)).then_some(*n as usize)
}

/// `Array[Elem]` as the tuple of `width` elements it always is.
fn as_window(array: &Type, width: usize) -> Option<Type> {
    let Type::Nominal { class, args: element } = array else { return None };
    match (&**class, &element[..]) {
        ("Array", [element]) => Some(Type::Tuple(vec![element.clone(); width])),
        _ => None,
    }
}

/// `each_cons(2)`'s block gets windows of exactly two elements (so do
/// `combination(2)`'s and `permutation(2)`'s), where the signature says
/// only `Array[Elem]`: `[Elem, Elem]`, so `|a, b|` takes two elements,
/// neither of them `nil`. `None` for any other call.
pub fn cons_window(method: &str, args: &[super::calls::Arg], yielded: Option<&[Type]>) -> Option<Type> {
    let width = fixed_width(method, args)?;
    let [array] = yielded? else { return None };
    as_window(array, width)
}

/// The same windows through an enumerator: `each_cons(2)` with no block
/// gives `Enumerator[[Elem, Elem], R]`, not `Enumerator[Array[Elem], R]`.
pub fn window_enumerator(method: &str, args: &[super::calls::Arg], result: &Type) -> Option<Type> {
    let width = fixed_width(method, args)?;
    let Type::Nominal { class, args: parts } = result else { return None };
    match (&**class, &parts[..]) {
        ("Enumerator", [array, rest]) => {
            Some(Type::Nominal { class: class.clone(), args: vec![as_window(array, width)?, rest.clone()].into() })
        }
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
    let positional = positional_count(block);
    positional > 1 || (positional == 1 && (list.rest().is_some() || first_destructures(block)))
}

/// The block's positional parameters, required, optional and after a rest.
fn positional_count(block: &ruby_prism::BlockNode<'_>) -> usize {
    let Some(list) = block.parameters().and_then(|p| p.as_block_parameters_node()).and_then(|p| p.parameters()) else {
        return 0;
    };
    list.requireds().iter().count() + list.optionals().iter().count() + list.posts().iter().count()
}

/// Does the block's first parameter take its value apart (`|(a, b), i|`)?
fn first_destructures(block: &ruby_prism::BlockNode<'_>) -> bool {
    let Some(list) = block.parameters().and_then(|p| p.as_block_parameters_node()).and_then(|p| p.parameters()) else {
        return false;
    };
    list.requireds().iter().next().is_some_and(|r| matches!(r, Node::MultiTargetNode { .. }))
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

/// `zip`'s rows when every argument is a literal array at least as long
/// as the receiver: no row is filled with `nil`, so each column is what
/// its array holds (`nil` only if it holds one).
pub fn zipped_in_full(receiver: &[Type], args: &[super::calls::Arg], result: &Type) -> Option<Type> {
    let Type::Nominal { class, args: rows } = result else { return None };
    let ("Array", [Type::Tuple(columns)]) = (&**class, &rows[..]) else { return None };
    if columns.len() != args.len() + 1 {
        return None;
    }
    let mut full = vec![columns[0].clone()];
    for (column, arg) in columns[1..].iter().zip(args) {
        let super::calls::Arg::Value(Type::Tuple(other)) = arg else { return None };
        if other.len() < receiver.len() {
            return None;
        }
        full.push(if other.iter().any(Type::may_be_nil) { column.clone() } else { column.without_nil() });
    }
    Some(Type::Nominal { class: class.clone(), args: vec![Type::Tuple(full)].into() })
}
