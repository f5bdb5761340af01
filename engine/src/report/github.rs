//! GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=…::message`
//! lines, which the runner turns into annotations on the pull request.

use std::io::Write;

use super::{rule_id, Run, SourceLines};
use crate::diagnostic::Severity;

/// Columns are in UTF-16 code units, as GitHub counts them (as in SARIF).
pub fn write(run: &Run<'_>, lines: &mut SourceLines, out: &mut dyn Write) -> std::io::Result<()> {
    for d in run.diagnostics {
        let command = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        writeln!(
            out,
            "::{command} file={},line={},col={},title={}::{}",
            escape_property(&d.path),
            d.line,
            lines.utf16_column(&d.path, d.line, d.column),
            escape_property(rule_id(d)),
            escape_data(&d.message)
        )?;
    }
    Ok(())
}

/// The escaping GitHub's runner undoes in a command's message.
pub fn escape_data(text: &str) -> String {
    text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// Property values also escape the separators `:` and `,`.
pub fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_what_the_runner_unescapes() {
        assert_eq!(escape_data("100%\r\nnext: a,b"), "100%25%0D%0Anext: a,b");
        assert_eq!(escape_property("a:b,c%"), "a%3Ab%2Cc%25");
    }
}
