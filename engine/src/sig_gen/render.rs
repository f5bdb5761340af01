//! Writing RBS: one method declaration line, checked with the RBS parser
//! itself, and the class or module block that holds it.

use super::walk::Param;

/// What a method declaration is made of.
pub struct MethodParts<'a> {
    pub name: &'a str,
    /// `self.` for singleton methods, `self?.` for module functions.
    pub prefix: &'a str,
    pub params: &'a [Param],
    /// Types of the positional parameters, in order (`untyped` unless observed).
    pub positional_types: &'a [String],
    /// Return types to try in order: the precise one, then a widened one.
    pub returns: &'a [String],
    pub private: bool,
}

/// The first spelling of the method that RBS parses, or the last error.
pub fn method_line(parts: &MethodParts<'_>) -> Result<String, String> {
    let mut last_error = String::from("nothing to render");
    let params = [parameter_list(parts.params, parts.positional_types), "(?)".to_string()];
    let names = [parts.name.to_string(), format!("`{}`", parts.name)];
    for returns in parts.returns {
        for params in &params {
            for name in &names {
                let visibility = if parts.private { "private " } else { "" };
                let line = format!("{visibility}def {}{name}: {params} -> {}", parts.prefix, grouped(returns));
                match parses(&line) {
                    Ok(()) => return Ok(line),
                    Err(error) => last_error = error,
                }
            }
        }
    }
    Err(last_error)
}

/// Does this member parse inside a class body?
fn parses(member: &str) -> Result<(), String> {
    ruby_rbs::node::parse(&format!("class RigorSigGenCheck\n  {member}\nend\n")).map(|_| ())
}

/// A return union in parentheses, so `|` cannot read as another overload.
fn grouped(returns: &str) -> String {
    if has_top_level_bar(returns) {
        format!("({returns})")
    } else {
        returns.to_string()
    }
}

fn has_top_level_bar(text: &str) -> bool {
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in text.chars() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            '|' if depth == 0 => return true,
            _ => {}
        }
    }
    false
}

/// `(untyped, ?untyped, *untyped, k: untyped) ?{ (*untyped) -> untyped }`.
fn parameter_list(params: &[Param], positional_types: &[String]) -> String {
    let mut positional = positional_types.iter();
    let mut next_type = || positional.next().cloned().unwrap_or_else(|| "untyped".to_string());
    let mut out = Vec::new();
    let mut block = false;
    for param in params {
        match param {
            Param::Required | Param::Trailing => out.push(next_type()),
            Param::Optional => out.push(format!("?{}", next_type())),
            Param::Rest => out.push("*untyped".into()),
            Param::Keyword(name) => out.push(format!("{name}: untyped")),
            Param::OptionalKeyword(name) => out.push(format!("?{name}: untyped")),
            Param::KeywordRest => out.push("**untyped".into()),
            Param::NoKeywords => {}
            Param::Block => block = true,
            // `...` takes anything; spelt out, since older RBS has no `(?)`.
            Param::Forwarding => {
                out.extend(["*untyped".to_string(), "**untyped".to_string()]);
                block = true;
            }
        }
    }
    let block = if block { " ?{ (*untyped) -> untyped }" } else { "" };
    format!("({}){block}", out.join(", "))
}

/// How a class or module block opens.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    pub is_module: bool,
    /// `[unchecked out Elem]` or empty.
    pub type_params: String,
    pub superclass: Option<String>,
}

impl Header {
    /// `class Cart[T] < Base`, for a block named `name`.
    pub fn opening(&self, name: &str) -> String {
        let keyword = if self.is_module { "module" } else { "class" };
        let superclass = match (&self.superclass, self.is_module) {
            (Some(superclass), false) => format!(" < {superclass}"),
            _ => String::new(),
        };
        format!("{keyword} {name}{}{superclass}", self.type_params)
    }
}

/// A namespace wrapper around a nested block (`module Shop`).
#[derive(Debug, Clone, PartialEq)]
pub struct Wrapper {
    /// What the wrapper line names (`A`, or `X::A` when X is declared).
    pub name: String,
    pub header: Header,
}

/// A block for `name` (already shortened to what follows the wrappers)
/// holding `members`; blank members stay blank lines.
pub fn block(wrappers: &[Wrapper], name: &str, header: &Header, members: &[String]) -> String {
    let mut out = String::new();
    for (depth, wrapper) in wrappers.iter().enumerate() {
        out.push_str(&format!("{}{}\n", "  ".repeat(depth), wrapper.header.opening(&wrapper.name)));
    }
    let indent = "  ".repeat(wrappers.len());
    out.push_str(&format!("{indent}{}\n", header.opening(name)));
    for member in members {
        if member.is_empty() {
            out.push('\n');
        } else {
            out.push_str(&format!("{indent}  {member}\n"));
        }
    }
    out.push_str(&format!("{indent}end\n"));
    for depth in (0..wrappers.len()).rev() {
        out.push_str(&format!("{}end\n", "  ".repeat(depth)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(params: &[Param], types: &[&str], returns: &[&str]) -> Result<String, String> {
        let types: Vec<String> = types.iter().map(|t| t.to_string()).collect();
        let returns: Vec<String> = returns.iter().map(|t| t.to_string()).collect();
        method_line(&MethodParts {
            name: "m",
            prefix: "",
            params,
            positional_types: &types,
            returns: &returns,
            private: false,
        })
    }

    #[test]
    fn method_lines_parse_and_unions_are_grouped() {
        assert_eq!(line(&[], &[], &["Integer"]), Ok("def m: () -> Integer".into()));
        assert_eq!(
            line(&[Param::Required, Param::Required], &["String"], &["1 | :a"]),
            Ok("def m: (String, untyped) -> (1 | :a)".into())
        );
        assert_eq!(line(&[], &[], &["\"a|b\""]), Ok("def m: () -> \"a|b\"".into()));
        let all = [
            Param::Required,
            Param::Optional,
            Param::Rest,
            Param::Trailing,
            Param::Keyword("k".into()),
            Param::OptionalKeyword("o".into()),
            Param::KeywordRest,
            Param::Block,
        ];
        assert_eq!(
            line(&all, &[], &["void"]),
            Ok("def m: (untyped, ?untyped, *untyped, untyped, k: untyped, ?o: untyped, **untyped) ?{ (*untyped) -> untyped } -> void".into())
        );
        assert_eq!(
            line(&[Param::Required, Param::Forwarding], &[], &["void"]),
            Ok("def m: (untyped, *untyped, **untyped) ?{ (*untyped) -> untyped } -> void".into())
        );
        // An unparsable precise return falls back to the widened one.
        assert_eq!(line(&[], &[], &["1 |", "Integer"]), Ok("def m: () -> Integer".into()));
        assert!(line(&[], &[], &["1 |"]).is_err());
    }

    #[test]
    fn odd_method_names_are_written_so_they_parse() {
        for name in ["[]=", "+@", "!", "<=>", "foo?", "bar=", "`", "class", "type", "self", "Upper"] {
            let returns = ["nil".to_string()];
            let line = method_line(&MethodParts {
                name,
                prefix: "self.",
                params: &[],
                positional_types: &[],
                returns: &returns,
                private: true,
            });
            assert!(line.is_ok(), "{name}: {line:?}");
        }
    }

    #[test]
    fn blocks_nest_inside_wrappers() {
        let header = Header { is_module: false, type_params: String::new(), superclass: Some("Base".into()) };
        let module = Header { is_module: true, type_params: String::new(), superclass: None };
        let wrappers = [Wrapper { name: "Shop".into(), header: module }];
        let text = block(&wrappers, "Cart", &header, &["def total: () -> Integer".into()]);
        assert_eq!(text, "module Shop\n  class Cart < Base\n    def total: () -> Integer\n  end\nend\n");
        assert!(ruby_rbs::node::parse(&text).is_ok());
    }
}
