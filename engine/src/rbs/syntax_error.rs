//! Where the RBS parser stopped in a file it could not parse: ruby-rbs
//! gives a syntax error's message alone, its parser keeps the token.

use std::os::raw::c_char;

use ruby_rbs_sys::bindings::{
    rbs_encoding_t, rbs_encoding_type_t::RBS_ENCODING_UTF_8, rbs_encodings, rbs_parse_signature, rbs_parser_free,
    rbs_parser_new, rbs_string_new,
};

/// The line and column (both from 1) of the token the parser stopped
/// at, or `None` when `text` parses.
pub fn position(text: &str) -> Option<(usize, usize)> {
    let length = i32::try_from(text.len()).ok()?;
    // SAFETY: as ruby-rbs's own `parse`: the parser reads `text`, which
    // outlives it, and is freed before it returns; the error it points
    // to is read before then.
    unsafe {
        let start = text.as_ptr().cast::<c_char>();
        let string = rbs_string_new(start, start.add(text.len()));
        let encoding = &rbs_encodings[RBS_ENCODING_UTF_8 as usize] as *const rbs_encoding_t;
        let parser = rbs_parser_new(string, encoding, 0, length);
        let mut signature = std::ptr::null_mut();
        let parsed = rbs_parse_signature(parser, &mut signature);
        let at = match (*parser).error.as_ref() {
            Some(error) if !parsed => Some(error.token.range.start),
            _ => None,
        };
        rbs_parser_free(parser);
        let at = at?;
        Some((usize::try_from(at.line).ok()?, usize::try_from(at.column).ok()? + 1))
    }
}

#[cfg(test)]
mod tests {
    use super::position;

    #[test]
    fn a_syntax_error_is_placed_at_the_token_the_parser_stopped_at() {
        assert_eq!(position("class A\n  def x: () -> Integer\nend\n"), None);
        assert_eq!(position("class A\n  def x: () -> \nend\n"), Some((3, 1)));
        assert_eq!(position("class A\n  def x: (Integer a b) -> void\nend\n"), Some((2, 21)));
    }
}
