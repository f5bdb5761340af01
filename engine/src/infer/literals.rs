//! Literal values: numbers, strings and symbols (as constants when their
//! text is certain), interpolation, array and hash literals (tuples and
//! shapes), ranges and splats.

use ruby_prism::Node;

use super::flow::State;
use super::{Frame, Inferrer};
use crate::types::{union, Literal, Shape, ShapeField, Type};

/// Array and hash literals larger than this are typed by their element
/// classes (a table of a thousand numbers is `Array[Integer]`).
pub(super) const MAX_EXACT_ELEMENTS: usize = 64;

/// The value of an integer literal, when it fits.
pub fn integer_value(node: &ruby_prism::IntegerNode<'_>) -> Option<i64> {
    let value = node.value();
    let (negative, digits) = value.to_u32_digits();
    let mut value: i128 = 0;
    for digit in digits.iter().rev() {
        value = value.checked_mul(1 << 32)?.checked_add(i128::from(*digit))?;
        if value > i128::from(i64::MAX) + 1 {
            return None;
        }
    }
    let value = if negative { -value } else { value };
    i64::try_from(value).ok()
}

/// A string literal's type: its value when it is UTF-8 text. In a file
/// whose magic comment names another encoding, only ASCII is the same
/// text (`"é".length` counts bytes there).
pub fn string_type(bytes: &[u8], binary: bool, utf8_source: bool) -> Type {
    match std::str::from_utf8(bytes) {
        Ok(text) if !binary && (utf8_source || text.is_ascii()) => Type::string(text),
        _ => Type::nominal("String"),
    }
}

/// `"…".bytes` of a plain string literal: its bytes, whatever its
/// encoding (`?\M-0` is the one byte 0xB0, no UTF-8 text), while short.
pub fn literal_bytes(node: &Node<'_>) -> Option<Type> {
    let string = node.as_string_node()?;
    let bytes = string.unescaped();
    (bytes.len() <= MAX_EXACT_ELEMENTS).then(|| Type::Tuple(bytes.iter().map(|b| Type::int(i64::from(*b))).collect()))
}

pub fn symbol_type(bytes: &[u8], utf8_source: bool) -> Type {
    match std::str::from_utf8(bytes) {
        Ok(text) if utf8_source || text.is_ascii() => Type::symbol(text),
        _ => Type::nominal("Symbol"),
    }
}

/// Is the source UTF-8 (no magic comment naming another encoding in its
/// first two lines)?
pub fn utf8_source(source: &[u8]) -> bool {
    for line in source.split(|&b| b == b'\n').take(2) {
        let line = crate::syntax::decoded(line).to_ascii_lowercase();
        if !line.trim_start().starts_with('#') {
            continue;
        }
        if let Some(at) = line.find("coding") {
            let rest = line[at + "coding".len()..].trim_start_matches([':', '=', ' ', '\t']);
            let name: String =
                rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').collect();
            if !name.is_empty() {
                return matches!(name.as_str(), "utf-8" | "utf8" | "us-ascii" | "ascii");
            }
        }
    }
    true
}

pub(super) fn range_type(left: Option<Type>, right: Option<Type>) -> Type {
    // A beginless or endless range (`(1..)`, `(..3)`, `1..nil`) answers
    // `begin` or `end` with nil, which its signature's element type (what
    // `each` yields) cannot say: nothing is said of it.
    let open = [&left, &right].into_iter().any(|end| end.as_ref().is_none_or(|t| *t == Type::nil()));
    if open {
        return Type::generic("Range", vec![Type::untyped()]);
    }
    let ends: Vec<Type> = [left, right].into_iter().flatten().map(crate::types::widen_literals).collect();
    let element = union(ends);
    // Ends of one class (`Time.now..deadline`): Ruby built the range only
    // if they compare, and `begin`, `end`, `min` give one of them. Ends
    // of different classes stay unknown.
    let element = match element {
        Type::Bot => Type::untyped(),
        Type::Nominal { .. } => element,
        _ => Type::untyped(),
    };
    Type::generic("Range", vec![element])
}

/// `*x`: the array it spreads.
pub fn splat_type(ty: &Type) -> Type {
    match ty {
        Type::Tuple(_) => ty.clone(),
        Type::Nominal { class, .. } if &**class == "Array" => ty.clone(),
        Type::Constant(Literal::Nil) => Type::Tuple(vec![]),
        _ => Type::untyped(),
    }
}

impl<'pr> Inferrer<'pr, '_> {
    pub(super) fn interpolated(
        &mut self,
        parts: ruby_prism::NodeList<'pr>,
        state: &mut State,
        frame: &Frame,
        fold: bool,
    ) -> Type {
        let mut text = Some(String::new());
        for part in parts.iter() {
            let ty = self.expr(&part, state, frame);
            match (&mut text, ty, matches!(part, Node::StringNode { .. })) {
                (Some(buffer), Type::Constant(Literal::Str(piece)), true) => buffer.push_str(&piece),
                _ => text = None,
            }
        }
        match text {
            // Adjacent literals: `"a" "b"` is one string.
            Some(text) if fold => Type::string(text),
            _ => Type::nominal("String"),
        }
    }

    /// An element put into a new array or hash: a variable's value (or
    /// one of a variable's elements) is now reachable two ways, and a
    /// mutation through either changes what both hold.
    fn shared_element(&mut self, element: &Node<'pr>, ty: Type, state: &mut State) -> Type {
        let shared =
            ty.has_mutable_contents() && (super::assign::is_variable_read(element) || self.may_be_an_element(element));
        self.escape(element, state);
        if shared {
            ty.forget_contents()
        } else {
            ty
        }
    }

    pub(super) fn array(&mut self, node: &Node<'pr>, state: &mut State, frame: &Frame) -> Type {
        let Some(array) = node.as_array_node() else { return Type::untyped() };
        let mut elements = Vec::new();
        let mut exact = true;
        let mut loose = Vec::new();
        for element in array.elements().iter() {
            let ty = self.expr(&element, state, frame);
            let ty = self.shared_element(&element, ty, state);
            // `[*x]` copies x's elements: containers held by both now.
            let ty = match element.as_splat_node().and_then(|splat| splat.expression()) {
                Some(inner)
                    if ty.has_nested_mutable_contents()
                        && (super::assign::is_variable_read(&inner) || self.may_be_an_element(&inner)) =>
                {
                    ty.forget_nested_contents()
                }
                _ => ty,
            };
            match (&element, &ty) {
                (Node::SplatNode { .. }, Type::Tuple(inner)) => elements.extend(inner.iter().cloned()),
                (Node::SplatNode { .. }, other) => {
                    exact = false;
                    loose.push(match other {
                        Type::Nominal { class, args } if &**class == "Array" && args.len() == 1 => args[0].clone(),
                        _ => Type::untyped(),
                    });
                }
                _ => elements.push(ty),
            }
        }
        if exact && elements.len() <= MAX_EXACT_ELEMENTS {
            Type::Tuple(elements)
        } else {
            let element = union(elements.into_iter().map(crate::types::widen_literals).chain(loose));
            Type::generic("Array", vec![element])
        }
    }

    pub(super) fn hash(&mut self, elements: ruby_prism::NodeList<'pr>, state: &mut State, frame: &Frame) -> Type {
        let mut fields: Vec<ShapeField> = Vec::new();
        let mut keys = Vec::new();
        let mut values = Vec::new();
        let mut shaped = true;
        let mut open = false;
        for element in elements.iter() {
            match &element {
                Node::AssocNode { .. } => {
                    let Some(assoc) = element.as_assoc_node() else { continue };
                    let key = self.expr(&assoc.key(), state, frame);
                    let value = self.expr(&assoc.value(), state, frame);
                    let value = self.shared_element(&assoc.value(), value, state);
                    self.record(&element, &value);
                    match &key {
                        Type::Constant(Literal::Sym(symbol)) => {
                            fields.retain(|f| *f.key != **symbol);
                            fields.push(ShapeField {
                                key: symbol.to_string(),
                                ty: value.clone(),
                                optional: false,
                                readonly: false,
                            });
                        }
                        _ => shaped = false,
                    }
                    keys.push(key);
                    values.push(value);
                }
                Node::AssocSplatNode { .. } => {
                    let ty = self.expr(&element, state, frame);
                    if let Some(value) = element.as_assoc_splat_node().and_then(|s| s.value()) {
                        self.escape(&value, state);
                    }
                    match ty {
                        Type::Shape(shape) if !shape.open => {
                            for field in shape.fields {
                                fields.retain(|f| f.key != field.key);
                                keys.push(Type::symbol(field.key.clone()));
                                values.push(field.ty.clone());
                                fields.push(field);
                            }
                        }
                        Type::Nominal { class, args } if &*class == "Hash" && args.len() == 2 => {
                            open = true;
                            keys.push(args[0].clone());
                            values.push(args[1].clone());
                        }
                        _ => {
                            open = true;
                            keys.push(Type::untyped());
                            values.push(Type::untyped());
                        }
                    }
                }
                _ => {
                    self.expr(&element, state, frame);
                    shaped = false;
                }
            }
        }
        if shaped && !open && fields.len() <= MAX_EXACT_ELEMENTS {
            return Type::Shape(Shape { fields, open: false });
        }
        let key = union(keys.into_iter().map(crate::types::widen_literals));
        let value = union(values.into_iter().map(crate::types::widen_literals));
        let (key, value) = if key == Type::Bot { (Type::untyped(), Type::untyped()) } else { (key, value) };
        Type::generic("Hash", vec![key, value])
    }
}
