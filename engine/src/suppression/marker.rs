//! Reading one comment as a suppression marker: `# rigor:disable <tokens>`
//! (its own line), `# rigor:disable-file <tokens>` (the whole file), or a
//! `rigor:` word that looks like a marker but is not Rigor's grammar.

/// What a comment says, if it is a marker at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Marker {
    /// `rigor:disable`: the comment's own line. Tokens may be empty.
    Line(Vec<String>),
    /// `rigor:disable-file`: the whole file. Tokens may be empty.
    File(Vec<String>),
    /// `rigor:disable-next-line`, `rigor:enable`, …: suppresses nothing.
    Unknown(String),
}

impl Marker {
    /// The marker as written, for messages.
    pub fn spelling(&self) -> String {
        match self {
            Marker::Line(_) => "rigor:disable".into(),
            Marker::File(_) => "rigor:disable-file".into(),
            Marker::Unknown(word) => format!("rigor:{word}"),
        }
    }
}

/// The marker in a comment's text (`# ...`), if any: the first `#`
/// followed by optional blanks and `rigor:` that forms one.
pub fn parse(text: &str) -> Option<Marker> {
    text.match_indices('#').find_map(|(at, _)| {
        let after = text[at + 1..].trim_start_matches([' ', '\t']).strip_prefix("rigor:")?;
        let word_length = after.bytes().take_while(|b| is_word_or_hyphen(*b)).count();
        let (word, tail) = after.split_at(word_length);
        match word {
            "disable" | "disable-file" => {
                let tokens = tokens(tail)?;
                Some(if word == "disable" { Marker::Line(tokens) } else { Marker::File(tokens) })
            }
            _ if is_out_of_grammar(word) && (is_blank(tail) || is_rule_list(tail)) => {
                Some(Marker::Unknown(word.to_string()))
            }
            _ => None,
        }
    })
}

/// The tokens after `rigor:disable[-file]`: a blank, then a run of rule-ish
/// characters split at blanks and commas. `None` when the keyword runs on
/// into other text (`rigor:disable: see docs`), which is prose, not a marker.
fn tokens(tail: &str) -> Option<Vec<String>> {
    if is_blank(tail) {
        return Some(Vec::new());
    }
    if !tail.starts_with([' ', '\t']) {
        return None;
    }
    let list_length = tail.bytes().take_while(|b| is_rule_char(*b)).count();
    Some(tail[..list_length].split([' ', '\t', ',']).filter(|t| !t.is_empty()).map(str::to_string).collect())
}

/// `disable-<anything but file>` or `enable[-<anything>]`.
fn is_out_of_grammar(word: &str) -> bool {
    let disable_variant = word.strip_prefix("disable-").is_some_and(|rest| !rest.is_empty() && rest != "file");
    let enable = word == "enable" || word.strip_prefix("enable-").is_some_and(|rest| !rest.is_empty());
    disable_variant || enable
}

/// Blanks and commas only (or nothing).
fn is_blank(text: &str) -> bool {
    text.bytes().all(|b| matches!(b, b' ' | b'\t' | b'\r' | b','))
}

/// ` call.undefined-method, flow`: what a rule list after a marker looks
/// like, as opposed to prose mentioning a marker (`<rule>`, backticks).
fn is_rule_list(text: &str) -> bool {
    text.starts_with([' ', '\t']) && text.bytes().all(is_rule_char)
}

fn is_word_or_hyphen(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

fn is_rule_char(b: u8) -> bool {
    is_word_or_hyphen(b) || matches!(b, b'.' | b',' | b' ' | b'\t' | b'\r')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(tokens: &[&str]) -> Option<Marker> {
        Some(Marker::Line(tokens.iter().map(|t| t.to_string()).collect()))
    }

    #[test]
    fn markers_and_their_tokens() {
        assert_eq!(parse("# rigor:disable flow.dead-assignment"), line(&["flow.dead-assignment"]));
        assert_eq!(parse("#rigor:disable a, b,c  d"), line(&["a", "b", "c", "d"]));
        assert_eq!(parse("# rigor:disable flow # because"), line(&["flow"]));
        assert_eq!(parse("# note # rigor:disable flow"), line(&["flow"]));
        assert_eq!(parse("# rigor:disable-file all"), Some(Marker::File(vec!["all".into()])));
        assert_eq!(parse("# rigor:disable"), line(&[]));
        assert_eq!(parse("# rigor:disable , "), line(&[]));
        assert_eq!(parse("# rigor:disable-file"), Some(Marker::File(vec![])));
    }

    #[test]
    fn look_alikes_are_unknown_markers_and_prose_is_nothing() {
        assert_eq!(parse("# rigor:disable-next-line call"), Some(Marker::Unknown("disable-next-line".into())));
        assert_eq!(parse("# rigor:enable"), Some(Marker::Unknown("enable".into())));
        assert_eq!(parse("# rigor:enable-file flow, call"), Some(Marker::Unknown("enable-file".into())));
        assert_eq!(parse("# rigor:disable-files x"), Some(Marker::Unknown("disable-files".into())));
        for prose in [
            "# use rigor:disable to silence a rule",
            "# rigor:disable: see the manual",
            "# rigor:enable `<rule>` is not supported",
            "# rigor:frobnicate x",
            "# rigor:disabled x",
            "# nothing here",
        ] {
            assert_eq!(parse(prose), None, "{prose}");
        }
    }
}
