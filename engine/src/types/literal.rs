//! Literal values of constant types, and Ruby's `inspect` spelling of them.

/// A value known exactly. Floats are stored as bits so types stay `Eq + Hash`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Literal {
    Int(i64),
    Float(u64),
    // Shared, not owned: literal types are copied far more often than made.
    Str(std::sync::Arc<str>),
    Sym(std::sync::Arc<str>),
    Nil,
    True,
    False,
}

impl Literal {
    pub fn float(value: f64) -> Literal {
        // One NaN, and 0.0 == -0.0 are still distinct values in Ruby's inspect.
        Literal::Float(if value.is_nan() { f64::NAN.to_bits() } else { value.to_bits() })
    }

    pub fn as_float(&self) -> Option<f64> {
        match self {
            Literal::Float(bits) => Some(f64::from_bits(*bits)),
            _ => None,
        }
    }

    pub fn class_name(&self) -> &'static str {
        match self {
            Literal::Int(_) => "Integer",
            Literal::Float(_) => "Float",
            Literal::Str(_) => "String",
            Literal::Sym(_) => "Symbol",
            Literal::Nil => "NilClass",
            Literal::True => "TrueClass",
            Literal::False => "FalseClass",
        }
    }

    pub fn is_truthy(&self) -> bool {
        !matches!(self, Literal::Nil | Literal::False)
    }

    /// Ruby's `inspect` of the value.
    pub fn inspect(&self) -> String {
        match self {
            Literal::Int(value) => value.to_string(),
            Literal::Float(bits) => float_to_s(f64::from_bits(*bits)),
            Literal::Str(value) => inspect_string(value),
            Literal::Sym(name) => inspect_symbol(name),
            Literal::Nil => "nil".into(),
            Literal::True => "true".into(),
            Literal::False => "false".into(),
        }
    }
}

/// Ruby's `Float#to_s`: shortest round-trip digits, fixed notation for
/// moderate magnitudes (see below), else `d.ddde+XX`.
pub fn float_to_s(value: f64) -> String {
    if value.is_nan() {
        return "NaN".into();
    }
    if value.is_infinite() {
        return if value > 0.0 { "Infinity".into() } else { "-Infinity".into() };
    }
    if value == 0.0 {
        return if value.is_sign_negative() { "-0.0".into() } else { "0.0".into() };
    }
    // `{:e}` gives the shortest digits that round-trip: "1.2345e3".
    let shortest = format!("{:e}", value.abs());
    // Where two forms of that length round-trip and the value lies exactly
    // halfway (1e15 + 0.25), Ruby takes the one with an even last digit
    // ("1000000000000000.2"): so does `{:.N$e}`, rounding the exact value
    // half to even. (It may miss the round trip just below a power of two,
    // where the gap below is narrower: then the shortest form stands.)
    let digits_after_point = shortest.split_once('e').map_or(0, |(m, _)| m.len().saturating_sub(2));
    let nearest = format!("{:.*e}", digits_after_point, value.abs());
    let scientific = if nearest.parse::<f64>() == Ok(value.abs()) { nearest } else { shortest };
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let sign = if value < 0.0 { "-" } else { "" };
    // Position of the decimal point relative to the digit string.
    let point = exponent + 1;
    // As `flo_to_s`: a point inside the first 16 digits, or up to 15
    // digits before `.0`, or up to three zeros after `0.`; else exponent
    // form (1e15 is "1.0e+15", 1e15 + 0.5 is "1000000000000000.5").
    let fixed = match point {
        -3..=0 => true,
        1..=16 => (point as usize) < digits.len() || point <= 15,
        _ => false,
    };
    let text = if fixed {
        if point <= 0 {
            format!("0.{}{digits}", "0".repeat((-point) as usize))
        } else if point as usize >= digits.len() {
            format!("{digits}{}.0", "0".repeat(point as usize - digits.len()))
        } else {
            let (whole, fraction) = digits.split_at(point as usize);
            format!("{whole}.{fraction}")
        }
    } else {
        let (first, rest) = digits.split_at(1);
        let rest = if rest.is_empty() { "0" } else { rest };
        let exp_sign = if exponent < 0 { '-' } else { '+' };
        format!("{first}.{rest}e{exp_sign}{:02}", exponent.abs())
    };
    format!("{sign}{text}")
}

/// Ruby's `String#inspect` for a UTF-8 string.
pub fn inspect_string(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{1b}' => out.push_str("\\e"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{b}' => out.push_str("\\v"),
            '\u{c}' => out.push_str("\\f"),
            // `#{`, `#$` and `#@` would interpolate if read back.
            '#' if matches!(chars.peek(), Some('{' | '$' | '@')) => out.push_str("\\#"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

const OPERATOR_SYMBOLS: &[&str] = &[
    "+", "-", "*", "**", "/", "%", "==", "===", "=~", "!", "!=", "!~", "<=>", "<", "<=", ">", ">=", "<<", ">>", "&",
    "|", "^", "~", "+@", "-@", "[]", "[]=", "`",
];

/// Ruby's `Symbol#inspect`: `:name` when the name reads back as a symbol.
pub fn inspect_symbol(name: &str) -> String {
    if is_plain_symbol(name) {
        format!(":{name}")
    } else {
        format!(":{}", inspect_string(name))
    }
}

fn is_identifier(text: &str) -> bool {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) if c == '_' || c.is_alphabetic() || !c.is_ascii() => {}
        _ => return false,
    }
    chars.all(|c| c == '_' || c.is_alphanumeric() || !c.is_ascii())
}

/// What may follow `$` in a global that is not an identifier: `$1`,
/// `$~`, `$-w`.
fn is_global_special(rest: &str) -> bool {
    let mut chars = rest.chars();
    match (chars.next(), chars.as_str()) {
        (Some('0'), tail) => tail.is_empty(),
        (Some(c), _) if c.is_ascii_digit() => rest.chars().all(|c| c.is_ascii_digit()),
        (Some('-'), tail) => tail.chars().count() == 1 && tail.chars().all(|c| c == '_' || c.is_alphanumeric()),
        (Some(c), "") => "~*$?!@/\\;,.=:<>\"&`'+".contains(c),
        _ => false,
    }
}

fn is_plain_symbol(name: &str) -> bool {
    if OPERATOR_SYMBOLS.contains(&name) {
        return true;
    }
    if let Some(rest) = name.strip_prefix('$') {
        return is_identifier(rest) || is_global_special(rest);
    }
    if let Some(rest) = name.strip_prefix("@@").or_else(|| name.strip_prefix('@')) {
        return is_identifier(rest);
    }
    let body = name.strip_suffix(['?', '!', '=']).unwrap_or(name);
    is_identifier(body)
}

/// Is this a symbol key that prints bare in a hash shape (`name:`)?
pub fn is_bare_key(name: &str) -> bool {
    let body = name.strip_suffix(['?', '!']).unwrap_or(name);
    is_identifier(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_like_ruby() {
        let cases = [
            (1.0, "1.0"),
            (1.5, "1.5"),
            (-2.25, "-2.25"),
            (0.1, "0.1"),
            (0.0001, "0.0001"),
            (0.00001, "1.0e-05"),
            // Debian's ruby 3.1: fifteen digits before `.0` at most, but
            // sixteen before a fraction.
            (1e14, "100000000000000.0"),
            (999999999999999.0, "999999999999999.0"),
            (1e15, "1.0e+15"),
            (1e15 + 0.5, "1000000000000000.5"),
            (1234567890123456.0, "1.234567890123456e+15"),
            (1e16, "1.0e+16"),
            (123456789.125, "123456789.125"),
            (1.0 / 3.0, "0.3333333333333333"),
            // Two shortest forms, the value exactly between: Ruby 3.1 takes
            // the even last digit.
            (1e15 + 0.25, "1000000000000000.2"),
            (1e14 + 0.125, "100000000000000.12"),
            (74721684898053.62, "74721684898053.62"),
            (-580849985303447.2, "-580849985303447.2"),
            (f64::INFINITY, "Infinity"),
            (-0.0, "-0.0"),
        ];
        for (value, expected) in cases {
            assert_eq!(float_to_s(value), expected, "{value}");
        }
    }

    #[test]
    fn strings_and_symbols_inspect_like_ruby() {
        assert_eq!(inspect_string("a\"b\\c\n"), r#""a\"b\\c\n""#);
        assert_eq!(inspect_string("#{x} #y"), r#""\#{x} #y""#);
        assert_eq!(inspect_string("é\u{1}"), "\"é\\u0001\"");
        assert_eq!(inspect_symbol("a"), ":a");
        assert_eq!(inspect_symbol("empty?"), ":empty?");
        assert_eq!(inspect_symbol("name="), ":name=");
        assert_eq!(inspect_symbol("[]="), ":[]=");
        assert_eq!(inspect_symbol("@iv"), ":@iv");
        assert_eq!(inspect_symbol("a b"), ":\"a b\"");
        assert_eq!(inspect_symbol("9a"), ":\"9a\"");
        assert_eq!(inspect_symbol("Foo"), ":Foo");
    }

    #[test]
    fn global_variable_symbols_inspect_like_ruby() {
        // What Debian's ruby 3.1 prints for each.
        let cases = [
            ("$a", ":$a"),
            ("$1", ":$1"),
            ("$12", ":$12"),
            ("$0", ":$0"),
            ("$05", ":\"$05\""),
            ("$~", ":$~"),
            ("$&", ":$&"),
            ("$:", ":$:"),
            ("$-w", ":$-w"),
            ("$-_", ":$-_"),
            ("$-ww", ":\"$-ww\""),
            ("$-", ":\"$-\""),
            ("$", ":\"$\""),
            ("$%", ":\"$%\""),
            ("$10a", ":\"$10a\""),
        ];
        for (name, expected) in cases {
            assert_eq!(inspect_symbol(name), expected, "{name}");
        }
    }
}
