//! Parsing with Prism, and the small syntactic questions rules ask about nodes.

pub mod arity;
pub mod node_kind;
pub mod version;
pub mod walk;

use ruby_prism::{Location, Node, ParseResult};

use crate::source::LineIndex;
pub use version::RubyVersion;

/// One parsed Ruby file. Prism's tree borrows the source bytes.
pub struct ParsedFile<'a> {
    pub source: &'a [u8],
    pub result: ParseResult<'a>,
    /// Where lines start, worked out when a position is first asked for:
    /// the passes that only infer never ask.
    lines: std::cell::OnceCell<LineIndex>,
}

impl<'a> ParsedFile<'a> {
    pub fn parse(source: &'a [u8]) -> Self {
        Self::parse_as(source, RubyVersion::Latest)
    }

    /// Parses with the grammar of one Ruby version (`target_ruby:`).
    pub fn parse_as(source: &'a [u8], version: RubyVersion) -> Self {
        ParsedFile { source, result: version.parse_source(source), lines: std::cell::OnceCell::new() }
    }

    pub fn lines(&self) -> &LineIndex {
        self.lines.get_or_init(|| LineIndex::new(self.source))
    }

    pub fn root(&self) -> Node<'_> {
        self.result.node()
    }

    /// Parse errors as (byte offset, message).
    pub fn errors(&self) -> Vec<(usize, String)> {
        self.result
            .errors()
            .map(|error| {
                let offset = error.location().start() as usize;
                (offset, String::from_utf8_lossy(error.message()).into_owned())
            })
            .collect()
    }
}

self_cell::self_cell!(
    struct OwnedParse {
        owner: std::sync::Arc<[u8]>,
        #[covariant]
        dependent: ParsedFile,
    }
);

/// A file's parse that owns its source, so one call's passes (facts,
/// exports, analysis) can share it instead of parsing the file again
/// each: a parse is a sixth of a cold check's instructions.
pub struct Tree(OwnedParse);

// SAFETY: a `Tree` owns its parser and arena outright (nothing else
// points into them), and Prism keeps no per-thread state: moving one to
// another thread is moving a box. It is not `Sync`: one thread at a
// time reads it.
unsafe impl Send for Tree {}

impl Tree {
    pub fn parse(source: std::sync::Arc<[u8]>, version: RubyVersion) -> Tree {
        Tree(OwnedParse::new(source, |bytes| ParsedFile::parse_as(bytes, version)))
    }

    pub fn parsed(&self) -> &ParsedFile<'_> {
        self.0.borrow_dependent()
    }

    /// Whether this parsed these very bytes (the same shared buffer).
    pub fn is_of(&self, source: &std::sync::Arc<[u8]>) -> bool {
        std::sync::Arc::ptr_eq(self.0.borrow_owner(), source)
    }
}

pub fn start(location: &Location<'_>) -> usize {
    location.start() as usize
}

pub fn text<'a>(location: &Location<'a>) -> String {
    lossy(location.as_slice())
}

pub fn name(id: ruby_prism::ConstantId<'_>) -> String {
    lossy(id.as_slice())
}

/// The name as text borrowed from the parser, copied only when it is not
/// UTF-8: for the hot paths that only look at a name (a call's method).
pub fn name_text<'pr>(id: ruby_prism::ConstantId<'pr>) -> std::borrow::Cow<'pr, str> {
    decoded(id.as_slice())
}

/// Source bytes as text, as `String::from_utf8_lossy` decodes them, but
/// borrowed at once when they are ASCII: names and most source are, and
/// the validators cost more than the ASCII check on short spans.
pub fn decoded(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    if bytes.is_ascii() {
        // SAFETY: ASCII bytes are valid UTF-8.
        return std::borrow::Cow::Borrowed(unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// The local a node reads or writes (`x`, `x = 1`, `x += 1`, `x ||= 1`,
/// a target of `x, y = ...`), as the parser spells it.
pub fn local_name<'pr>(node: &Node<'pr>) -> Option<&'pr [u8]> {
    let id = match node {
        Node::LocalVariableReadNode { .. } => node.as_local_variable_read_node()?.name(),
        Node::LocalVariableWriteNode { .. } => node.as_local_variable_write_node()?.name(),
        Node::LocalVariableTargetNode { .. } => node.as_local_variable_target_node()?.name(),
        Node::LocalVariableOperatorWriteNode { .. } => node.as_local_variable_operator_write_node()?.name(),
        Node::LocalVariableOrWriteNode { .. } => node.as_local_variable_or_write_node()?.name(),
        Node::LocalVariableAndWriteNode { .. } => node.as_local_variable_and_write_node()?.name(),
        _ => return None,
    };
    Some(id.as_slice())
}

/// Source bytes as text: valid UTF-8 (nearly always) is checked by the
/// fast validator, and only the rest goes through the lossy decoder.
fn lossy(bytes: &[u8]) -> String {
    decoded(bytes).into_owned()
}

/// `A::B` as written (`::A` when rooted), or `None` when the path is
/// computed (`foo::B`, `Struct.new(:a)`).
pub fn constant_path_text(node: &Node<'_>) -> Option<String> {
    match node {
        Node::ConstantReadNode { .. } => Some(name(node.as_constant_read_node()?.name())),
        Node::ConstantPathNode { .. } => {
            let path = node.as_constant_path_node()?;
            let last = name(path.name()?);
            match path.parent() {
                None => Some(format!("::{last}")),
                Some(parent) => Some(format!("{}::{last}", constant_path_text(&parent)?)),
            }
        }
        _ => None,
    }
}

/// Is a call with this receiver sent to a class object: a constant
/// (`Box.send(m)`), or `self` where `self` is a class (in a class body or
/// a class method, or in an instance method of a module or of `Module` or
/// `Class` reopened, whose `self` is whatever class it reaches; not in an
/// instance method of a class, whose `self` is an instance)? Both walkers
/// that follow method-making calls ask it.
pub fn sends_to_a_class_object(
    receiver: Option<Node<'_>>,
    in_instance_method: bool,
    in_module_of_classes: bool,
) -> bool {
    match receiver {
        None | Some(Node::SelfNode { .. }) => !in_instance_method || in_module_of_classes,
        Some(receiver) => constant_path_text(&receiver).is_some(),
    }
}

/// The method names a string of Ruby code defines with `def`, when its
/// text says them; `None` when a name is interpolated or the code is not
/// a string literal.
pub fn evaluated_definitions(code: &Node<'_>) -> Option<Vec<String>> {
    let patterns = evaluated_definition_patterns(code)?;
    patterns.into_iter().map(|(name, _, exact)| exact.then_some(name)).collect()
}

/// The names a string of Ruby code defines with `def`, as prefix and
/// suffix around whatever an interpolation puts in (`"def on_#{t}(node)"`:
/// `on_` and ``; a name written out is its own prefix, with `exact`).
/// `None` when the code is not a string literal.
pub fn evaluated_definition_patterns(code: &Node<'_>) -> Option<Vec<(String, String, bool)>> {
    let mut text = String::new();
    if let Some(string) = code.as_string_node() {
        text.push_str(&decoded(string.unescaped()));
    } else if let Some(interpolated) = code.as_interpolated_string_node() {
        for part in interpolated.parts().iter() {
            match part.as_string_node() {
                Some(string) => text.push_str(&decoded(string.unescaped())),
                None => text.push('\u{0}'),
            }
        }
    } else {
        return None;
    }
    let name_char = |c: char| c.is_alphanumeric() || matches!(c, '_' | '?' | '!' | '=');
    let mut found = Vec::new();
    for (at, _) in text.match_indices("def ") {
        let rest = text[at + 4..].trim_start();
        let rest = rest.strip_prefix("self.").unwrap_or(rest);
        let prefix: String = rest.chars().take_while(|c| name_char(*c)).collect();
        let after = &rest[prefix.len()..];
        match after.strip_prefix('\u{0}') {
            None if prefix.is_empty() => found.push((String::new(), String::new(), false)),
            None => found.push((prefix, String::new(), true)),
            Some(tail) => {
                let suffix: String = tail.chars().take_while(|c| name_char(*c)).collect();
                let more = tail[suffix.len()..].starts_with('\u{0}');
                found.push((prefix, if more { String::new() } else { suffix }, false));
            }
        }
    }
    Some(found)
}

/// Strips redundant parentheses: `((x))` is `x`.
pub fn unparenthesize<'pr>(node: Node<'pr>) -> Node<'pr> {
    let mut node = node;
    loop {
        let Some(parens) = node.as_parentheses_node() else {
            return node;
        };
        let Some(body) = parens.body() else {
            return node;
        };
        let inner = match body.as_statements_node() {
            Some(statements) if statements.body().len() == 1 => statements.body().first(),
            Some(_) => None,
            None => Some(body),
        };
        match inner {
            Some(inner) => node = inner,
            None => return node,
        }
    }
}

/// The truthiness of a literal whose value is fixed by its spelling, or
/// `None` for anything computed at run time.
pub fn literal_truthiness(node: &Node<'_>) -> Option<bool> {
    match unparenthesize(node_clone(node)) {
        Node::NilNode { .. } | Node::FalseNode { .. } => Some(false),
        Node::TrueNode { .. }
        | Node::IntegerNode { .. }
        | Node::FloatNode { .. }
        | Node::RationalNode { .. }
        | Node::ImaginaryNode { .. }
        | Node::StringNode { .. }
        | Node::SymbolNode { .. } => Some(true),
        _ => None,
    }
}

/// A key of a hash literal whose value is known from its spelling alone.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum LiteralKey {
    Symbol(Vec<u8>),
    String(Vec<u8>),
    Integer(bool, Vec<u32>),
    Nil,
    True,
    False,
}

impl LiteralKey {
    pub fn of(node: &Node<'_>) -> Option<LiteralKey> {
        match node {
            Node::SymbolNode { .. } => Some(LiteralKey::Symbol(node.as_symbol_node()?.unescaped().to_vec())),
            Node::StringNode { .. } => Some(LiteralKey::String(node.as_string_node()?.unescaped().to_vec())),
            Node::IntegerNode { .. } => {
                let value = node.as_integer_node()?.value();
                let (negative, digits) = value.to_u32_digits();
                let mut digits = digits.to_vec();
                while digits.len() > 1 && digits.last() == Some(&0) {
                    digits.pop();
                }
                let is_zero = digits.iter().all(|&d| d == 0);
                Some(LiteralKey::Integer(negative && !is_zero, digits))
            }
            Node::NilNode { .. } => Some(LiteralKey::Nil),
            Node::TrueNode { .. } => Some(LiteralKey::True),
            Node::FalseNode { .. } => Some(LiteralKey::False),
            _ => None,
        }
    }

    /// Ruby's inspect of the key, for messages.
    pub fn display(&self) -> String {
        match self {
            LiteralKey::Symbol(bytes) => {
                let text = decoded(bytes);
                let plain = !text.is_empty()
                    && text
                        .chars()
                        .enumerate()
                        .all(|(i, c)| c == '_' || c.is_alphabetic() || (i > 0 && c.is_ascii_digit()));
                if plain {
                    format!(":{text}")
                } else {
                    format!(":{text:?}")
                }
            }
            LiteralKey::String(bytes) => format!("{:?}", decoded(bytes)),
            LiteralKey::Integer(negative, digits) => integer_display(*negative, digits),
            LiteralKey::Nil => "nil".into(),
            LiteralKey::True => "true".into(),
            LiteralKey::False => "false".into(),
        }
    }
}

fn integer_display(negative: bool, digits: &[u32]) -> String {
    // Long division by 10 over base-2^32 digits, least significant first.
    let mut rest: Vec<u32> = digits.to_vec();
    let mut out = Vec::new();
    loop {
        let mut remainder: u64 = 0;
        for digit in rest.iter_mut().rev() {
            let value = (remainder << 32) | u64::from(*digit);
            *digit = (value / 10) as u32;
            remainder = value % 10;
        }
        out.push(b'0' + remainder as u8);
        while rest.len() > 1 && rest.last() == Some(&0) {
            rest.pop();
        }
        if rest.iter().all(|&d| d == 0) {
            break;
        }
    }
    if negative {
        out.push(b'-');
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// Is this an Integer literal equal to zero (`0`, `0x0`, `-0`, `0_0`)?
pub fn is_integer_zero(node: &Node<'_>) -> bool {
    match unparenthesize(node_clone(node)).as_integer_node() {
        Some(integer) => integer.value().to_u32_digits().1.iter().all(|&d| d == 0),
        None => false,
    }
}

/// A second handle to an optional statement list (see `node_clone`).
pub fn copy_statements<'pr>(
    statements: &Option<ruby_prism::StatementsNode<'pr>>,
) -> Option<ruby_prism::StatementsNode<'pr>> {
    statements.as_ref().and_then(|s| s.as_node().as_statements_node())
}

/// A second handle to the same node. Prism's `Node` is not `Clone`, but it
/// holds only raw pointers into the parse arena and a marker, and has no
/// `Drop`, so a bitwise copy is exactly what its own `as_node` builds.
pub fn node_clone<'pr>(node: &Node<'pr>) -> Node<'pr> {
    // SAFETY: `Node` is plain data (pointers + PhantomData) without Drop;
    // the copy borrows the same arena for the same lifetime 'pr.
    unsafe { std::ptr::read(node) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_statement_key(src: &str) -> Option<LiteralKey> {
        let parsed = ParsedFile::parse(src.as_bytes());
        let root = parsed.root();
        let program = root.as_program_node().unwrap();
        let node = program.statements().body().first().unwrap();
        LiteralKey::of(&node)
    }

    #[test]
    fn integer_keys_compare_by_value_and_display_in_decimal() {
        assert_eq!(first_statement_key("0x10"), first_statement_key("16"));
        assert_eq!(first_statement_key("1_000").unwrap().display(), "1000");
        assert_eq!(
            first_statement_key("123456789012345678901234567890").unwrap().display(),
            "123456789012345678901234567890"
        );
        assert_eq!(first_statement_key("-5").unwrap().display(), "-5");
    }

    #[test]
    fn symbol_display_quotes_when_needed() {
        assert_eq!(first_statement_key(":a").unwrap().display(), ":a");
        assert_eq!(first_statement_key(":\"a b\"").unwrap().display(), ":\"a b\"");
        assert_eq!(first_statement_key("\"a\"").unwrap().display(), "\"a\"");
    }

    #[test]
    fn a_tree_read_on_another_thread_is_the_parse_of_its_own_bytes() {
        let source: std::sync::Arc<[u8]> = b"class A\n  def m(x) = x + 1\nend\n".to_vec().into();
        let tree = Tree::parse(source.clone(), RubyVersion::Latest);
        assert!(tree.is_of(&source));
        let copy: std::sync::Arc<[u8]> = source.to_vec().into();
        assert!(!tree.is_of(&copy), "equal bytes elsewhere are another file's");
        let seen = std::thread::spawn(move || {
            let parsed = tree.parsed();
            let root = parsed.root();
            (root.location().end() as usize, parsed.errors().len(), parsed.lines().position(10))
        })
        .join()
        .expect("read on its own thread");
        // The program ends at its last `end`, before the final newline.
        assert_eq!(seen, (source.len() - 1, 0, (2, 3)));
        let broken = Tree::parse(b"def m(\n".to_vec().into(), RubyVersion::Latest);
        assert!(!broken.parsed().errors().is_empty());
    }
}
