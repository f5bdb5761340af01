//! Fingerprints that identify a finding across runs: the rule, the file and
//! the text of the line (without its indentation), numbered among equal
//! ones. Moving code up or down, or re-indenting it, keeps them; editing
//! the line itself makes a new finding.

use std::collections::HashMap;

use sha2::{Digest, Sha256};

use super::{rule_id, SourceLines};
use crate::diagnostic::Diagnostic;

/// One fingerprint per diagnostic, in the order given.
pub fn fingerprints(diagnostics: &[&Diagnostic], lines: &mut SourceLines) -> Vec<String> {
    let mut seen: HashMap<[u8; 32], usize> = HashMap::new();
    diagnostics
        .iter()
        .map(|diagnostic| {
            let text = lines.line(&diagnostic.path, diagnostic.line).map(<[u8]>::trim_ascii).unwrap_or_default();
            let mut key = Sha256::new();
            for part in [rule_id(diagnostic).as_bytes(), diagnostic.path.as_bytes(), text] {
                key.update((part.len() as u64).to_le_bytes());
                key.update(part);
            }
            let key: [u8; 32] = key.finalize().into();
            let occurrence = seen.entry(key).or_insert(0);
            *occurrence += 1;
            let mut numbered = Sha256::new();
            numbered.update(key);
            numbered.update((*occurrence as u64).to_le_bytes());
            hex(&numbered.finalize())
        })
        .collect()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
