//! What argument lists a `def` takes, as Ruby 3 binds them: how many
//! positional arguments, and which keywords.

use ruby_prism::{DefNode, Node};

/// The arguments a `def` accepts.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct DefArity {
    /// Fewest and most positional arguments (`None`: no upper bound).
    pub positional: (usize, Option<usize>),
    pub keywords: Keywords,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum Keywords {
    /// No keyword parameters: keywords given make one more positional
    /// argument, a Hash.
    Positional,
    /// `**nil`: keywords are refused.
    Refused,
    /// Keyword parameters: their names, and whether `**rest` takes others.
    Named { required: Vec<String>, optional: Vec<String>, rest: bool },
}

/// What is wrong with an argument list, as Ruby's ArgumentError says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mismatch {
    /// Too few or too many positional arguments (with every required
    /// keyword, as Ruby adds them, given or not).
    Count {
        given: usize,
        required_keywords: Vec<String>,
    },
    Unknown(Vec<String>),
    Missing(Vec<String>),
    NoKeywords,
}

impl DefArity {
    /// `None` when it forwards (`...`): what it takes is another method's.
    pub fn of(def: &DefNode<'_>) -> Option<DefArity> {
        let Some(parameters) = def.parameters() else {
            return Some(DefArity { positional: (0, Some(0)), keywords: Keywords::Positional });
        };
        let keywords = match parameters.keyword_rest() {
            Some(Node::ForwardingParameterNode { .. }) => return None,
            Some(Node::NoKeywordsParameterNode { .. }) => Keywords::Refused,
            rest => {
                let (mut required, mut optional) = (Vec::new(), Vec::new());
                for keyword in parameters.keywords().iter() {
                    match keyword {
                        Node::RequiredKeywordParameterNode { .. } => {
                            required.push(super::name_text(keyword.as_required_keyword_parameter_node()?.name()))
                        }
                        Node::OptionalKeywordParameterNode { .. } => {
                            optional.push(super::name_text(keyword.as_optional_keyword_parameter_node()?.name()))
                        }
                        _ => return None,
                    }
                }
                let rest = rest.is_some();
                if required.is_empty() && optional.is_empty() && !rest {
                    Keywords::Positional
                } else {
                    Keywords::Named {
                        required: required.into_iter().map(String::from).collect(),
                        optional: optional.into_iter().map(String::from).collect(),
                        rest,
                    }
                }
            }
        };
        let min = parameters.requireds().len() + parameters.posts().len();
        let max = match parameters.rest() {
            Some(_) => None,
            None => Some(min + parameters.optionals().len()),
        };
        Some(DefArity { positional: (min, max), keywords })
    }

    /// What Ruby refuses in a call passing `positional` plain arguments
    /// and then the literal keywords `keywords` (`None`: no keywords).
    pub fn refuses(&self, positional: usize, keywords: Option<&[String]>) -> Option<Mismatch> {
        let given = match (&self.keywords, keywords) {
            (Keywords::Positional, Some(_)) => positional + 1,
            (Keywords::Refused, Some(_)) => return Some(Mismatch::NoKeywords),
            _ => positional,
        };
        let (min, max) = self.positional;
        let required: &[String] = match &self.keywords {
            Keywords::Named { required, .. } => required,
            _ => &[],
        };
        if given < min || max.is_some_and(|max| given > max) {
            return Some(Mismatch::Count { given, required_keywords: required.to_vec() });
        }
        let Keywords::Named { required, optional, rest } = &self.keywords else { return None };
        let given_names = keywords.unwrap_or_default();
        let missing: Vec<String> = required.iter().filter(|k| !given_names.contains(k)).cloned().collect();
        if !missing.is_empty() {
            return Some(Mismatch::Missing(missing));
        }
        // A key given twice is named once, where it was given last (as Ruby
        // keeps it).
        let unknown: Vec<String> = given_names
            .iter()
            .enumerate()
            .filter(|(at, k)| !required.contains(k) && !optional.contains(k) && !given_names[at + 1..].contains(k))
            .map(|(_, k)| k.clone())
            .collect();
        (!unknown.is_empty() && !rest).then_some(Mismatch::Unknown(unknown))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::ParsedFile;

    fn arity(source: &str) -> Option<DefArity> {
        let parsed = ParsedFile::parse(source.as_bytes());
        let root = parsed.root();
        let program = root.as_program_node().unwrap();
        let node = program.statements().body().first().unwrap();
        DefArity::of(&node.as_def_node().unwrap())
    }

    fn names(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn keywords_bind_as_ruby_3_binds_them() {
        let item = arity("def initialize(name:, price: 0) = nil").unwrap();
        assert_eq!(item.refuses(0, Some(&names(&["name"]))), None);
        assert_eq!(item.refuses(0, Some(&names(&["price"]))), Some(Mismatch::Missing(names(&["name"]))));
        assert_eq!(item.refuses(0, Some(&names(&["name", "cost"]))), Some(Mismatch::Unknown(names(&["cost"]))));
        assert_eq!(item.refuses(0, None), Some(Mismatch::Missing(names(&["name"]))));
        assert_eq!(item.refuses(2, None), Some(Mismatch::Count { given: 2, required_keywords: names(&["name"]) }));
        // Keywords never fill a positional parameter of a method that takes keywords.
        let tag = arity("def tag(label, color: 1) = nil").unwrap();
        assert_eq!(
            tag.refuses(0, Some(&names(&["label"]))),
            Some(Mismatch::Count { given: 0, required_keywords: vec![] })
        );
        let both = arity("def m(a, name:, b:) = a").unwrap();
        let required = names(&["name", "b"]);
        assert_eq!(
            both.refuses(0, Some(&names(&["name"]))),
            Some(Mismatch::Count { given: 0, required_keywords: required })
        );
        let tag = arity("def tag(x: 1) = x").unwrap();
        assert_eq!(tag.refuses(0, Some(&names(&["y", "z", "y"]))), Some(Mismatch::Unknown(names(&["z", "y"]))));
        // `**rest` takes any keyword.
        let open = arity("def m(a:, **opts) = nil").unwrap();
        assert_eq!(open.refuses(0, Some(&names(&["a", "b"]))), None);
        // Without keyword parameters, keywords are one Hash argument.
        let plain = arity("def m(h) = h").unwrap();
        assert_eq!(plain.refuses(0, Some(&names(&["a"]))), None);
        assert_eq!(
            plain.refuses(1, Some(&names(&["a"]))),
            Some(Mismatch::Count { given: 2, required_keywords: vec![] })
        );
        assert_eq!(arity("def m(**nil) = 1").unwrap().refuses(0, Some(&names(&["a"]))), Some(Mismatch::NoKeywords));
        assert_eq!(arity("def m(...) = n(...)"), None);
    }
}
