//! Checkstyle XML, the lint interchange format reviewdog, Jenkins and
//! others read: a `<file>` per checked file, an `<error>` per diagnostic.

use std::io::Write;

use super::xml::{escape, DECLARATION};
use super::{rule_id, Run};

pub fn write(run: &Run<'_>, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "{DECLARATION}")?;
    writeln!(out, r#"<checkstyle version="4.3">"#)?;
    for file in run.files {
        let found: Vec<_> = run.diagnostics.iter().filter(|d| &d.path == file).collect();
        if found.is_empty() {
            writeln!(out, r#"  <file name="{}"/>"#, escape(file))?;
            continue;
        }
        writeln!(out, r#"  <file name="{}">"#, escape(file))?;
        for d in found {
            writeln!(
                out,
                r#"    <error line="{}" column="{}" severity="{}" message="{}" source="{}"/>"#,
                d.line,
                d.column,
                d.severity.as_str(),
                escape(&d.message),
                escape(rule_id(d))
            )?;
        }
        writeln!(out, "  </file>")?;
    }
    writeln!(out, "</checkstyle>")
}
