//! XML text for the Checkstyle and JUnit reports.

/// `text` escaped for an attribute value or element text. Characters XML
/// 1.0 forbids (most C0 controls) would make the document unreadable, so
/// they become U+FFFD.
pub fn escape(text: &str) -> String {
    let allowed: String =
        text.chars().map(|c| if c < ' ' && !matches!(c, '\t' | '\n' | '\r') { '\u{FFFD}' } else { c }).collect();
    // Newlines in attributes would be normalised to spaces by readers.
    quick_xml::escape::escape(allowed.as_str()).replace('\n', "&#10;").replace('\r', "&#13;")
}

pub const DECLARATION: &str = r#"<?xml version="1.0" encoding="UTF-8"?>"#;
