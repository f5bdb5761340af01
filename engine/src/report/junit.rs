//! JUnit XML, the test report CI systems render: one test case per checked
//! file, each finding in it a `<failure>`.

use std::io::Write;

use super::xml::{escape, DECLARATION};
use super::{rule_id, Run};

pub fn write(run: &Run<'_>, out: &mut dyn Write) -> std::io::Result<()> {
    let failing = run.files.iter().filter(|file| run.diagnostics.iter().any(|d| &d.path == *file)).count();
    writeln!(out, "{DECLARATION}")?;
    writeln!(out, r#"<testsuites name="rigor" tests="{}" failures="{failing}" errors="0">"#, run.files.len())?;
    writeln!(
        out,
        r#"  <testsuite name="rigor check" tests="{}" failures="{failing}" errors="0" skipped="0">"#,
        run.files.len()
    )?;
    for file in run.files {
        let found: Vec<_> = run.diagnostics.iter().filter(|d| &d.path == file).collect();
        let name = escape(file);
        if found.is_empty() {
            writeln!(out, r#"    <testcase name="{name}" classname="{name}"/>"#)?;
            continue;
        }
        writeln!(out, r#"    <testcase name="{name}" classname="{name}">"#)?;
        for d in found {
            let location =
                format!("{}:{}:{}: {}: {} [{}]", d.path, d.line, d.column, d.severity.as_str(), d.message, rule_id(d));
            writeln!(
                out,
                r#"      <failure message="{}" type="{}">{}</failure>"#,
                escape(&format!("{}:{}: {}", d.line, d.column, d.message)),
                escape(rule_id(d)),
                escape(&location)
            )?;
        }
        writeln!(out, "    </testcase>")?;
    }
    writeln!(out, "  </testsuite>")?;
    writeln!(out, "</testsuites>")
}
