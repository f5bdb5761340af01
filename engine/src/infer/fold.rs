//! Folding pure core methods on literal receivers and arguments: `1 + 2`
//! is `3`, `"a".upcase` is `"A"`. Only methods whose result is fixed by
//! their inputs, and only where Ruby's result is certain (ASCII-only case
//! mapping, checked integer arithmetic); anything else is left to RBS.

use std::cmp::Ordering;

use super::calls::Arg;
use crate::types::{float_to_s, inspect_string, inspect_symbol, Literal, Type};

/// Largest string a fold may build (`"a" * n`).
const MAX_FOLDED_STRING: usize = 4096;

/// Classes whose instances are never `nil`/`false` and whose `nil?` and
/// `!` are the core ones.
const CORE_VALUE_CLASSES: &[&str] = &[
    "Integer",
    "Float",
    "String",
    "Symbol",
    "Array",
    "Hash",
    "Range",
    "Regexp",
    "Proc",
    "Rational",
    "Complex",
    "Time",
    "Encoding",
    "MatchData",
    "Method",
    "Class",
    "Module",
    "IO",
    "File",
    "Struct",
    "Exception",
    "Thread",
];

/// Whether a block changes what a folded method gives: these iterate with
/// one and give the receiver back (`"ab".bytes { }` is `"ab"`).
pub fn block_form_differs(method: &str) -> bool {
    matches!(method, "bytes" | "chars")
}

pub fn fold(receiver: &Type, method: &str, args: &[Arg]) -> Option<Type> {
    let values: Option<Vec<&Literal>> = args
        .iter()
        .map(|a| match a {
            Arg::Value(Type::Constant(literal)) => Some(literal),
            _ => None,
        })
        .collect();
    if let Some(answer) = identity(receiver, method, args) {
        return Some(answer);
    }
    let Type::Constant(literal) = receiver else { return None };
    let values = values?;
    match (literal, values.as_slice()) {
        (Literal::Int(a), []) => integer_unary(*a, method),
        (Literal::Int(a), [Literal::Int(b)]) => integer_binary(*a, method, *b),
        (Literal::Int(a), [Literal::Float(b)]) => int_float_compare(*a, method, f64::from_bits(*b), false)
            .or_else(|| float_binary(*a as f64, method, f64::from_bits(*b))),
        (Literal::Float(a), []) => float_unary(f64::from_bits(*a), method),
        (Literal::Float(a), [Literal::Float(b)]) => float_binary(f64::from_bits(*a), method, f64::from_bits(*b)),
        (Literal::Float(a), [Literal::Int(b)]) => int_float_compare(*b, method, f64::from_bits(*a), true)
            .or_else(|| float_binary(f64::from_bits(*a), method, *b as f64)),
        (Literal::Str(s), []) => string_unary(s, method),
        (Literal::Str(s), [argument]) => string_binary(s, method, argument),
        (Literal::Sym(s), []) => symbol_unary(s, method),
        (Literal::Sym(a), [Literal::Sym(b)]) => compare_like(a, method, b),
        (Literal::Nil, []) => nil_unary(method),
        (Literal::True | Literal::False | Literal::Nil, [other]) => boolean_binary(literal.is_truthy(), method, other),
        (Literal::True | Literal::False, []) => match method {
            "to_s" | "inspect" => Some(Type::string(literal.inspect())),
            _ => None,
        },
        _ => None,
    }
}

/// Pure methods of a collection the receiver's type pins down: a tuple
/// (below), or `sum` of an `Array[Integer]` (Integer; 0 when empty).
pub fn collection(receiver: &Type, method: &str, args: &[&Type]) -> Option<Type> {
    match receiver {
        Type::Tuple(elements) => tuple(elements, method, args),
        Type::Nominal { class, args: element } if &**class == "Array" && method == "sum" && args.is_empty() => {
            match &element[..] {
                [Type::Nominal { class, .. }] if &**class == "Integer" => Some(Type::nominal("Integer")),
                [Type::IntRange { .. }] => Some(Type::nominal("Integer")),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Pure methods of a tuple whose elements are all literals (`[1, 2].sum`).
/// Only where Ruby's answer is certain: integer sums without overflow,
/// `min`/`max` among integers or among symbols, `include?` decided by
/// literal equality. Anything else is left to RBS.
pub fn tuple(elements: &[Type], method: &str, args: &[&Type]) -> Option<Type> {
    if let ("sum", [], Some(sum)) = (method, args, numeric_sum(elements)) {
        return Some(sum);
    }
    let literals: Vec<&Literal> = elements
        .iter()
        .map(|e| match e {
            Type::Constant(literal) => Some(literal),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let integers: Option<Vec<i64>> = literals
        .iter()
        .map(|l| match l {
            Literal::Int(v) => Some(*v),
            _ => None,
        })
        .collect();
    match (method, args) {
        ("sum", []) => {
            let integers = integers?;
            integers
                .iter()
                .try_fold(0i64, |acc, v| acc.checked_add(*v))
                .map(Type::int)
                .or(Some(Type::nominal("Integer")))
        }
        ("min" | "max", []) if literals.is_empty() => Some(Type::nil()),
        ("min" | "max", []) => {
            let pick_max = method == "max";
            if let Some(integers) = integers {
                let best = if pick_max { integers.iter().max() } else { integers.iter().min() };
                return best.map(|v| Type::int(*v));
            }
            let symbols: Vec<&str> = literals
                .iter()
                .map(|l| match l {
                    Literal::Sym(s) => Some(&**s),
                    _ => None,
                })
                .collect::<Option<_>>()?;
            let best = if pick_max { symbols.iter().max() } else { symbols.iter().min() };
            best.map(|s| Type::symbol(*s))
        }
        ("include?" | "member?", [Type::Constant(wanted)]) => {
            let mut answer = false;
            for literal in &literals {
                answer |= element_equality(literal, wanted)?;
            }
            Some(boolean(answer))
        }
        _ => None,
    }
}

/// `sum` of numbers that are not all literals: Integer when every element
/// is one, Float when one is a Float and the rest are Integers or Floats.
fn numeric_sum(elements: &[Type]) -> Option<Type> {
    let class = |e: &Type| match e {
        Type::Constant(Literal::Int(_)) | Type::IntRange { .. } => Some(false),
        Type::Constant(Literal::Float(_)) => Some(true),
        Type::Nominal { class, .. } if &**class == "Integer" => Some(false),
        Type::Nominal { class, .. } if &**class == "Float" => Some(true),
        _ => None,
    };
    let floats: Vec<bool> = elements.iter().map(class).collect::<Option<_>>()?;
    let all_literal_ints = elements.iter().all(|e| matches!(e, Type::Constant(Literal::Int(_))));
    if all_literal_ints {
        return None;
    }
    Some(Type::nominal(if floats.contains(&true) { "Float" } else { "Integer" }))
}

fn boolean(value: bool) -> Type {
    Type::Constant(if value { Literal::True } else { Literal::False })
}

/// `nil?`, `!`, `==` and friends, decided by what the receiver can be.
fn identity(receiver: &Type, method: &str, args: &[Arg]) -> Option<Type> {
    let core = |ty: &Type| match ty {
        Type::Constant(_) | Type::Tuple(_) | Type::Shape(_) | Type::IntRange { .. } => true,
        Type::Nominal { class, .. } => CORE_VALUE_CLASSES.contains(&&**class),
        _ => false,
    };
    match (method, args) {
        ("nil?", []) if receiver.members().iter().all(core) => {
            let may_nil = receiver.may_be_nil();
            let only_nil = receiver.members().iter().all(|m| *m == Type::nil());
            Some(if only_nil {
                boolean(true)
            } else if may_nil {
                Type::bool()
            } else {
                boolean(false)
            })
        }
        ("!", []) if receiver.members().iter().all(core) => {
            Some(match (receiver.may_be_truthy(), receiver.may_be_falsy()) {
                (true, false) => boolean(false),
                (false, true) => boolean(true),
                _ => Type::bool(),
            })
        }
        ("==" | "!=", [Arg::Value(Type::Constant(other))]) => {
            let Type::Constant(literal) = receiver else { return None };
            let equal = literal_equality(literal, other)?;
            Some(boolean(if method == "!=" { !equal } else { equal }))
        }
        ("eql?", [Arg::Value(Type::Constant(other))]) => {
            let Type::Constant(literal) = receiver else { return None };
            Some(boolean(literal_eql(literal, other)))
        }
        ("equal?", [Arg::Value(Type::Constant(other))]) => {
            let Type::Constant(literal) = receiver else { return None };
            literal_identity(literal, other).map(boolean)
        }
        _ => None,
    }
}

/// `a == b` for literals, when Ruby's answer is certain.
fn literal_equality(a: &Literal, b: &Literal) -> Option<bool> {
    match (a, b) {
        (Literal::Int(x), Literal::Float(y)) | (Literal::Float(y), Literal::Int(x)) => {
            Some(int_float_cmp(*x, f64::from_bits(*y)) == Some(Ordering::Equal))
        }
        (Literal::Float(x), Literal::Float(y)) => Some(f64::from_bits(*x) == f64::from_bits(*y)),
        // nil, booleans and symbols compare by identity with anything.
        (Literal::Nil | Literal::True | Literal::False | Literal::Sym(_), _)
        | (_, Literal::Nil | Literal::True | Literal::False | Literal::Sym(_)) => Some(a == b),
        (Literal::Int(_), Literal::Int(_)) | (Literal::Str(_), Literal::Str(_)) => Some(a == b),
        (Literal::Int(_), Literal::Str(_)) | (Literal::Str(_), Literal::Int(_)) => Some(false),
        _ => None,
    }
}

/// What a collection's search (`include?`, Ruby's `rb_equal`) finds of
/// an element: the same object, or `==`. A NaN is not `==` to itself but
/// may be the very object searched for (`[x].include?(x)` is true).
fn element_equality(a: &Literal, b: &Literal) -> Option<bool> {
    if literal_equality(a, b)? {
        return Some(true);
    }
    literal_identity(a, b)
}

/// `a.eql?(b)`: the same class and the same value (`1.eql?(1.0)` is false).
fn literal_eql(a: &Literal, b: &Literal) -> bool {
    match (a, b) {
        // NaN is not eql? to itself.
        (Literal::Float(x), Literal::Float(y)) => f64::from_bits(*x) == f64::from_bits(*y),
        _ => a == b,
    }
}

/// `a.equal?(b)`: the same object. Immediates (nil, booleans, symbols,
/// fixnums, flonums) are one object per value; two values of different
/// classes or contents are never one object; two equal strings, bignums or
/// heap floats may or may not be (`s.equal?(s)`), so that is not folded.
fn literal_identity(a: &Literal, b: &Literal) -> Option<bool> {
    const FIXNUM: std::ops::Range<i64> = -(1 << 62)..(1 << 62);
    match (a, b) {
        (Literal::Nil | Literal::True | Literal::False | Literal::Sym(_), _)
        | (_, Literal::Nil | Literal::True | Literal::False | Literal::Sym(_)) => Some(a == b),
        (Literal::Int(x), Literal::Int(y)) if x != y || FIXNUM.contains(x) => Some(x == y),
        (Literal::Float(x), Literal::Float(y)) if x != y || is_flonum(f64::from_bits(*x)) => Some(x == y),
        (Literal::Str(x), Literal::Str(y)) if x != y => Some(false),
        (
            Literal::Int(_) | Literal::Float(_) | Literal::Str(_),
            Literal::Int(_) | Literal::Float(_) | Literal::Str(_),
        ) if std::mem::discriminant(a) != std::mem::discriminant(b) => Some(false),
        _ => None,
    }
}

/// Whether 64-bit CRuby keeps this float in the reference itself (a
/// flonum: 0.0 and exponents in a middle range), so equal ones are one
/// object; others live on the heap.
fn is_flonum(value: f64) -> bool {
    let bits = value.to_bits();
    let tag = (bits >> 60) & 0x7;
    bits == 0 || (bits != 0x3000_0000_0000_0000 && (tag == 3 || tag == 4))
}

/// Ruby compares an Integer with a Float exactly, not through the
/// Integer's nearest double (`2**53 + 1 > 2.0**53` is true): the order
/// of `int` against `float`, `None` against NaN.
fn int_float_cmp(int: i64, float: f64) -> Option<Ordering> {
    const TWO_TO_63: f64 = 9_223_372_036_854_775_808.0;
    if float.is_nan() {
        return None;
    }
    if float >= TWO_TO_63 {
        return Some(Ordering::Less);
    }
    if float < -TWO_TO_63 {
        return Some(Ordering::Greater);
    }
    let whole = float.trunc();
    // Exact: `whole` is an integer within i64's range.
    match int.cmp(&(whole as i64)) {
        Ordering::Equal => 0.0.partial_cmp(&(float - whole)),
        order => Some(order),
    }
}

/// A comparison between an Integer and a Float, decided exactly; `swapped`
/// when the Float is the receiver. `None` for other methods.
fn int_float_compare(int: i64, method: &str, float: f64, swapped: bool) -> Option<Type> {
    let order = int_float_cmp(int, float);
    let order = if swapped { order.map(Ordering::reverse) } else { order };
    let holds = |wanted: &[Ordering]| boolean(order.is_some_and(|o| wanted.contains(&o)));
    match method {
        "<" => Some(holds(&[Ordering::Less])),
        "<=" => Some(holds(&[Ordering::Less, Ordering::Equal])),
        ">" => Some(holds(&[Ordering::Greater])),
        ">=" => Some(holds(&[Ordering::Greater, Ordering::Equal])),
        "==" | "===" => Some(holds(&[Ordering::Equal])),
        "!=" => Some(boolean(order != Some(Ordering::Equal))),
        "<=>" => Some(order.map_or_else(Type::nil, |o| Type::int(o as i64))),
        _ => None,
    }
}

/// Ruby's `Float#%` (`flodivmod`): C's fmod, moved to the divisor's sign.
/// `x - y * (x / y).floor` is not it: `5.5 % 0.1` is 0.0999999999999997.
fn float_mod(x: f64, y: f64) -> f64 {
    let mut modulo = if x == 0.0 || (y.is_infinite() && !x.is_infinite()) { x } else { x % y };
    if y * modulo < 0.0 {
        modulo += y;
    }
    modulo
}

fn floor_div(a: i64, b: i64) -> Option<i64> {
    let q = a.checked_div(b)?;
    Some(if a % b != 0 && ((a < 0) != (b < 0)) { q - 1 } else { q })
}

fn floor_mod(a: i64, b: i64) -> Option<i64> {
    let r = a.checked_rem(b)?;
    Some(if r != 0 && ((r < 0) != (b < 0)) { r + b } else { r })
}

fn integer_binary(a: i64, method: &str, b: i64) -> Option<Type> {
    let int = |v: Option<i64>| v.map(Type::int);
    match method {
        "+" => int(a.checked_add(b)),
        "-" => int(a.checked_sub(b)),
        "*" => int(a.checked_mul(b)),
        // Dividing by zero raises ZeroDivisionError: the call never returns.
        "/" | "div" | "%" | "modulo" | "divmod" if b == 0 => Some(Type::Bot),
        "/" | "div" => int(floor_div(a, b)),
        "%" | "modulo" => int(floor_mod(a, b)),
        "divmod" => Some(Type::Tuple(vec![Type::int(floor_div(a, b)?), Type::int(floor_mod(a, b)?)])),
        "remainder" if b != 0 => int(a.checked_rem(b)),
        "**" | "pow" if (0..64).contains(&b) => int(a.checked_pow(b as u32)),
        "&" => Some(Type::int(a & b)),
        "|" => Some(Type::int(a | b)),
        "^" => Some(Type::int(a ^ b)),
        "<<" if (0..63).contains(&b) => int(a.checked_mul(1i64.checked_shl(b as u32)?)),
        ">>" if (0..64).contains(&b) => Some(Type::int(a >> b)),
        // Both exact as doubles, the quotient is rounded once, as Ruby's;
        // past 2**53 Ruby divides out their gcd first (rounding once),
        // where converting each would round twice.
        "fdiv" if a.unsigned_abs() < 1 << 53 && b.unsigned_abs() < 1 << 53 => Some(Type::float(a as f64 / b as f64)),
        "gcd" => Some(Type::int(gcd(a, b)?)),
        _ => compare_like(&a, method, &b),
    }
}

fn gcd(a: i64, b: i64) -> Option<i64> {
    let (mut a, mut b) = (a.checked_abs()?, b.checked_abs()?);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    Some(a)
}

fn integer_unary(a: i64, method: &str) -> Option<Type> {
    match method {
        "to_s" | "inspect" => Some(Type::string(a.to_string())),
        "to_i" | "to_int" | "floor" | "ceil" | "round" | "truncate" | "ord" | "+@" | "itself" | "freeze" | "dup" => {
            Some(Type::int(a))
        }
        "to_f" => Some(Type::float(a as f64)),
        "-@" => a.checked_neg().map(Type::int),
        "~" => Some(Type::int(!a)),
        "abs" | "magnitude" => a.checked_abs().map(Type::int),
        "succ" | "next" => a.checked_add(1).map(Type::int),
        "pred" => a.checked_sub(1).map(Type::int),
        "zero?" => Some(boolean(a == 0)),
        "positive?" => Some(boolean(a > 0)),
        "negative?" => Some(boolean(a < 0)),
        "even?" => Some(boolean(a % 2 == 0)),
        "odd?" => Some(boolean(a % 2 != 0)),
        "integer?" | "finite?" => Some(boolean(true)),
        "nonzero?" => Some(if a == 0 { Type::nil() } else { Type::int(a) }),
        "bit_length" => Some(Type::int(i64::from(64 - if a < 0 { (!a).leading_zeros() } else { a.leading_zeros() }))),
        "chr" if (0..128).contains(&a) => Some(Type::string(char::from(a as u8).to_string())),
        "size" => Some(Type::int(8)),
        _ => None,
    }
}

fn float_unary(a: f64, method: &str) -> Option<Type> {
    let to_int = |v: f64| {
        if v.is_finite() && v.abs() < 9.0e15 {
            Some(Type::int(v as i64))
        } else {
            None
        }
    };
    match method {
        "to_s" | "inspect" => Some(Type::string(float_to_s(a))),
        "to_f" | "+@" | "itself" | "freeze" | "dup" => Some(Type::float(a)),
        "-@" => Some(Type::float(-a)),
        "abs" | "magnitude" => Some(Type::float(a.abs())),
        "to_i" | "to_int" | "truncate" => to_int(a.trunc()),
        "floor" => to_int(a.floor()),
        "ceil" => to_int(a.ceil()),
        // Ruby rounds half away from zero, as f64::round does.
        "round" => to_int(a.round()),
        "zero?" => Some(boolean(a == 0.0)),
        "nan?" => Some(boolean(a.is_nan())),
        "finite?" => Some(boolean(a.is_finite())),
        "infinite?" => Some(if a.is_infinite() { Type::int(if a > 0.0 { 1 } else { -1 }) } else { Type::nil() }),
        "positive?" => Some(boolean(a > 0.0)),
        "negative?" => Some(boolean(a < 0.0)),
        _ => None,
    }
}

fn float_binary(a: f64, method: &str, b: f64) -> Option<Type> {
    match method {
        "+" => Some(Type::float(a + b)),
        "-" => Some(Type::float(a - b)),
        "*" => Some(Type::float(a * b)),
        "/" | "fdiv" | "quo" => Some(Type::float(a / b)),
        "%" | "modulo" if b != 0.0 => Some(Type::float(float_mod(a, b))),
        // A negative base to a fractional power is Complex in Ruby.
        "**" if a >= 0.0 || b.fract() == 0.0 => Some(Type::float(a.powf(b))),
        "<" => Some(boolean(a < b)),
        "<=" => Some(boolean(a <= b)),
        ">" => Some(boolean(a > b)),
        ">=" => Some(boolean(a >= b)),
        "==" | "===" => Some(boolean(a == b)),
        "!=" => Some(boolean(a != b)),
        "<=>" => Some(match a.partial_cmp(&b) {
            Some(order) => Type::int(order as i64),
            None => Type::nil(),
        }),
        _ => None,
    }
}

fn compare_like<T: PartialOrd + PartialEq>(a: &T, method: &str, b: &T) -> Option<Type> {
    match method {
        "<" => Some(boolean(a < b)),
        "<=" => Some(boolean(a <= b)),
        ">" => Some(boolean(a > b)),
        ">=" => Some(boolean(a >= b)),
        // `eql?` and `equal?` are `identity`'s: an equal pair of bignums
        // or strings need not be one object.
        "==" | "===" => Some(boolean(a == b)),
        "!=" => Some(boolean(a != b)),
        "<=>" => a.partial_cmp(b).map(|order| Type::int(order as i64)),
        _ => None,
    }
}

const RUBY_WHITESPACE: &[char] = &[' ', '\t', '\n', '\u{b}', '\u{c}', '\r'];

fn string_unary(s: &str, method: &str) -> Option<Type> {
    let ascii = s.is_ascii();
    match method {
        "to_s" | "to_str" | "itself" | "dup" | "+@" | "-@" | "freeze" | "clone" => Some(Type::string(s)),
        "length" | "size" => Some(Type::int(s.chars().count() as i64)),
        "bytesize" => Some(Type::int(s.len() as i64)),
        "empty?" => Some(boolean(s.is_empty())),
        "to_sym" | "intern" => Some(Type::symbol(s)),
        "inspect" if ascii => Some(Type::string(inspect_string(s))),
        // `dump` writes other control bytes as `\xNN` where `inspect`
        // writes `\uNNNN`: the same only for printable text.
        "dump" if s.bytes().all(|b| (0x20..0x7f).contains(&b)) => Some(Type::string(inspect_string(s))),
        "upcase" if ascii => Some(Type::string(s.to_ascii_uppercase())),
        "downcase" if ascii => Some(Type::string(s.to_ascii_lowercase())),
        "capitalize" if ascii => {
            let mut chars = s.chars();
            Some(Type::string(match chars.next() {
                Some(first) => first.to_ascii_uppercase().to_string() + &chars.as_str().to_ascii_lowercase(),
                None => String::new(),
            }))
        }
        "swapcase" if ascii => Some(Type::string(
            s.chars()
                .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
                .collect::<String>(),
        )),
        "reverse" => Some(Type::string(s.chars().rev().collect::<String>())),
        "strip" if !s.contains('\0') => Some(Type::string(s.trim_matches(RUBY_WHITESPACE))),
        "lstrip" if !s.contains('\0') => Some(Type::string(s.trim_start_matches(RUBY_WHITESPACE))),
        "rstrip" if !s.contains('\0') => Some(Type::string(s.trim_end_matches(RUBY_WHITESPACE))),
        "chomp" => Some(Type::string(
            s.strip_suffix("\r\n").or_else(|| s.strip_suffix('\n')).or_else(|| s.strip_suffix('\r')).unwrap_or(s),
        )),
        "ord" => s.chars().next().map(|c| Type::int(i64::from(u32::from(c)))),
        "bytes" if s.len() <= 64 => Some(Type::Tuple(s.bytes().map(|b| Type::int(i64::from(b))).collect())),
        "chars" => Some(Type::Tuple(s.chars().map(|c| Type::string(c.to_string())).take(64).collect()))
            .filter(|_| s.chars().count() <= 64),
        _ => None,
    }
}

fn string_binary(s: &str, method: &str, argument: &Literal) -> Option<Type> {
    match (method, argument) {
        ("+", Literal::Str(other)) if s.len() + other.len() <= MAX_FOLDED_STRING => {
            Some(Type::string(format!("{s}{other}")))
        }
        ("*", Literal::Int(n)) if *n >= 0 && s.len().saturating_mul(*n as usize) <= MAX_FOLDED_STRING => {
            Some(Type::string(s.repeat(*n as usize)))
        }
        // ASCII only: an index counts characters, which are bytes there.
        ("[]" | "slice", Literal::Int(at)) if s.is_ascii() => {
            let at = if *at < 0 { at.checked_add(s.len() as i64)? } else { *at };
            Some(match usize::try_from(at).ok().and_then(|at| s.get(at..at + 1)) {
                Some(char) => Type::string(char),
                None => Type::nil(),
            })
        }
        ("index", Literal::Str(other)) if s.is_ascii() && other.is_ascii() => {
            Some(s.find(&**other).map_or_else(Type::nil, |at| Type::int(at as i64)))
        }
        ("rindex", Literal::Str(other)) if s.is_ascii() && other.is_ascii() => {
            Some(s.rfind(&**other).map_or_else(Type::nil, |at| Type::int(at as i64)))
        }
        ("start_with?", Literal::Str(other)) => Some(boolean(s.starts_with(&**other))),
        ("end_with?", Literal::Str(other)) => Some(boolean(s.ends_with(&**other))),
        ("include?", Literal::Str(other)) => Some(boolean(s.contains(&**other))),
        (_, Literal::Str(other)) => compare_like(&s, method, &&**other),
        _ => None,
    }
}

fn symbol_unary(s: &str, method: &str) -> Option<Type> {
    let ascii = s.is_ascii();
    match method {
        "to_s" | "id2name" | "name" => Some(Type::string(s)),
        "to_sym" | "itself" | "freeze" | "dup" => Some(Type::symbol(s)),
        "length" | "size" => Some(Type::int(s.chars().count() as i64)),
        "empty?" => Some(boolean(s.is_empty())),
        "inspect" => Some(Type::string(inspect_symbol(s))),
        "upcase" if ascii => Some(Type::symbol(s.to_ascii_uppercase())),
        "downcase" if ascii => Some(Type::symbol(s.to_ascii_lowercase())),
        _ => None,
    }
}

fn nil_unary(method: &str) -> Option<Type> {
    match method {
        "to_s" => Some(Type::string("")),
        "to_a" => Some(Type::Tuple(Vec::new())),
        "to_i" => Some(Type::int(0)),
        "to_f" => Some(Type::float(0.0)),
        "inspect" => Some(Type::string("nil")),
        "to_h" => Some(Type::Shape(crate::types::Shape { fields: Vec::new(), open: false })),
        _ => None,
    }
}

fn boolean_binary(receiver: bool, method: &str, other: &Literal) -> Option<Type> {
    match method {
        "&" => Some(boolean(receiver && other.is_truthy())),
        "|" => Some(boolean(receiver || other.is_truthy())),
        "^" => Some(boolean(receiver != other.is_truthy())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{display, union};

    fn f(receiver: Type, method: &str, args: Vec<Type>) -> Option<String> {
        let args: Vec<Arg> = args.into_iter().map(Arg::Value).collect();
        fold(&receiver, method, &args).map(|t| display(&t))
    }

    #[test]
    fn integer_arithmetic_is_rubys() {
        assert_eq!(f(Type::int(1), "+", vec![Type::int(2)]).as_deref(), Some("3"));
        assert_eq!(f(Type::int(-7), "/", vec![Type::int(2)]).as_deref(), Some("-4"));
        assert_eq!(f(Type::int(-7), "%", vec![Type::int(2)]).as_deref(), Some("1"));
        assert_eq!(f(Type::int(7), "/", vec![Type::int(0)]).as_deref(), Some("bot"));
        assert_eq!(f(Type::int(i64::MAX), "+", vec![Type::int(1)]), None);
        assert_eq!(f(Type::int(2), "**", vec![Type::int(10)]).as_deref(), Some("1024"));
        assert_eq!(f(Type::int(1), "+", vec![Type::float(0.5)]).as_deref(), Some("1.5"));
        assert_eq!(f(Type::int(3), "<", vec![Type::int(4)]).as_deref(), Some("true"));
        assert_eq!(f(Type::int(3), "to_s", vec![]).as_deref(), Some("\"3\""));
    }

    #[test]
    fn strings_fold_only_where_certain() {
        assert_eq!(f(Type::string("ab"), "upcase", vec![]).as_deref(), Some("\"AB\""));
        assert_eq!(f(Type::string("é"), "upcase", vec![]), None);
        assert_eq!(f(Type::string("a"), "+", vec![Type::string("b")]).as_deref(), Some("\"ab\""));
        assert_eq!(f(Type::string("héllo"), "length", vec![]).as_deref(), Some("5"));
        assert_eq!(f(Type::string(" x \n"), "strip", vec![]).as_deref(), Some("\"x\""));
        assert_eq!(f(Type::symbol("a"), "to_s", vec![]).as_deref(), Some("\"a\""));
    }

    fn t(elements: Vec<Type>, method: &str, args: Vec<Type>) -> Option<String> {
        let args: Vec<&Type> = args.iter().collect();
        tuple(&elements, method, &args).map(|t| display(&t))
    }

    #[test]
    fn literal_tuples_fold_like_ruby() {
        let ints = || vec![Type::int(3), Type::int(1), Type::int(2)];
        assert_eq!(t(ints(), "sum", vec![]).as_deref(), Some("6"));
        assert_eq!(t(vec![], "sum", vec![]).as_deref(), Some("0"));
        assert_eq!(t(vec![Type::int(i64::MAX), Type::int(1)], "sum", vec![]).as_deref(), Some("Integer"));
        assert_eq!(t(vec![Type::float(0.1), Type::float(0.2)], "sum", vec![]).as_deref(), Some("Float"));
        assert_eq!(t(vec![Type::string("a")], "sum", vec![]), None);
        assert_eq!(t(ints(), "min", vec![]).as_deref(), Some("1"));
        assert_eq!(t(ints(), "max", vec![]).as_deref(), Some("3"));
        assert_eq!(t(vec![], "max", vec![]).as_deref(), Some("nil"));
        assert_eq!(t(vec![Type::symbol("b"), Type::symbol("a")], "min", vec![]).as_deref(), Some(":a"));
        assert_eq!(t(vec![Type::int(1), Type::symbol("a")], "min", vec![]), None);
        assert_eq!(t(ints(), "include?", vec![Type::int(2)]).as_deref(), Some("true"));
        assert_eq!(t(ints(), "include?", vec![Type::float(2.0)]).as_deref(), Some("true"));
        assert_eq!(t(ints(), "include?", vec![Type::string("2")]).as_deref(), Some("false"));
        // Ruby: `x = 0.0 / 0.0; [x].include?(x)` is true (the same object).
        let nan = || Type::float(f64::NAN);
        assert_eq!(t(vec![nan()], "include?", vec![nan()]), None);
        assert_eq!(t(vec![Type::int(1), nan()], "member?", vec![nan()]), None);
        assert_eq!(t(vec![Type::int(1), Type::nominal("String")], "include?", vec![Type::int(1)]), None);
        assert_eq!(t(ints(), "max", vec![Type::int(2)]), None);
    }

    #[test]
    fn identity_methods_follow_what_the_receiver_can_be() {
        assert_eq!(f(Type::nil(), "nil?", vec![]).as_deref(), Some("true"));
        assert_eq!(f(Type::nominal("String"), "nil?", vec![]).as_deref(), Some("false"));
        assert_eq!(f(union([Type::nominal("String"), Type::nil()]), "nil?", vec![]).as_deref(), Some("bool"));
        assert_eq!(f(Type::nominal("Foo"), "nil?", vec![]), None);
        assert_eq!(f(Type::int(1), "==", vec![Type::float(1.0)]).as_deref(), Some("true"));
        assert_eq!(f(Type::symbol("a"), "==", vec![Type::string("a")]).as_deref(), Some("false"));
        assert_eq!(f(Type::Constant(Literal::False), "!", vec![]).as_deref(), Some("true"));
    }

    /// Each answer is what Debian's ruby 3.1 gives; before, each of these
    /// folded to another value (`1.eql?(1.0)` was true, `5.5 % 0.1` 0.0).
    #[test]
    fn equality_identity_and_float_edges_are_rubys() {
        let big = 9_007_199_254_740_993; // 2**53 + 1: no double holds it
        let float = |v: f64| Type::float(v);
        // eql? wants the same class; == compares across numeric classes.
        assert_eq!(f(Type::int(1), "eql?", vec![float(1.0)]).as_deref(), Some("false"));
        assert_eq!(f(float(1.0), "eql?", vec![Type::int(1)]).as_deref(), Some("false"));
        assert_eq!(f(Type::int(1), "eql?", vec![Type::int(1)]).as_deref(), Some("true"));
        assert_eq!(f(Type::string("b"), "eql?", vec![Type::string("b")]).as_deref(), Some("true"));
        // equal? is identity: certain for immediates and for unequal values.
        assert_eq!(f(Type::int(1), "equal?", vec![float(1.0)]).as_deref(), Some("false"));
        assert_eq!(f(Type::int(3), "equal?", vec![Type::int(3)]).as_deref(), Some("true"));
        assert_eq!(f(Type::int(1 << 62), "equal?", vec![Type::int(1 << 62)]), None);
        assert_eq!(f(float(1.0), "equal?", vec![float(1.0)]).as_deref(), Some("true"));
        assert_eq!(f(float(1e300), "equal?", vec![float(1e300)]), None);
        assert_eq!(f(Type::string("a"), "equal?", vec![Type::string("a")]), None);
        assert_eq!(f(Type::string("a"), "equal?", vec![Type::string("b")]).as_deref(), Some("false"));
        assert_eq!(f(Type::symbol("a"), "equal?", vec![Type::symbol("a")]).as_deref(), Some("true"));
        // An Integer and a Float compare exactly.
        assert_eq!(f(Type::int(big), "==", vec![float(9_007_199_254_740_992.0)]).as_deref(), Some("false"));
        assert_eq!(f(Type::int(big), ">", vec![float(9_007_199_254_740_992.0)]).as_deref(), Some("true"));
        assert_eq!(f(float(9_007_199_254_740_992.0), "<", vec![Type::int(big)]).as_deref(), Some("true"));
        assert_eq!(f(float(9_007_199_254_740_992.0), "<=>", vec![Type::int(big)]).as_deref(), Some("-1"));
        assert_eq!(f(Type::int(2), "<=>", vec![float(f64::NAN)]).as_deref(), Some("nil"));
        assert_eq!(f(Type::int(2), "<", vec![float(2.5)]).as_deref(), Some("true"));
        assert_eq!(f(Type::int(-2), "<", vec![float(-2.5)]).as_deref(), Some("false"));
        assert_eq!(f(Type::int(i64::MAX), "<", vec![float(9.3e18)]).as_deref(), Some("true"));
        // Float#% is fmod moved to the divisor's sign.
        assert_eq!(f(float(5.5), "%", vec![float(0.1)]).as_deref(), Some("0.0999999999999997"));
        assert_eq!(f(float(-5.5), "%", vec![float(0.1)]).as_deref(), Some("3.0531133177191805e-16"));
        assert_eq!(f(float(-7.0), "%", vec![Type::int(2)]).as_deref(), Some("1.0"));
        assert_eq!(f(float(7.0), "modulo", vec![Type::int(-2)]).as_deref(), Some("-1.0"));
        assert_eq!(f(Type::int(7), "%", vec![float(2.5)]).as_deref(), Some("2.0"));
        // fdiv by a divisor past 2**53 divides exactly in Ruby: not folded.
        assert_eq!(f(Type::int((1 << 62) - 1), "fdiv", vec![Type::int(big)]), None);
        assert_eq!(f(Type::int(1), "fdiv", vec![Type::int(4)]).as_deref(), Some("0.25"));
        // Ruby: 3002399751580331.0 (converting the dividend first rounds twice).
        assert_eq!(f(Type::int(9007199254740993), "fdiv", vec![Type::int(3)]), None);
    }
}
