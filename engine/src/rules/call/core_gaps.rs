//! Methods Ruby's core defines at run time that the rbs gem's core
//! signatures leave out (`data/rbs_core_gaps.txt`, made by
//! `scripts/rbs-core-gaps`). A call of one of them is not an undefined
//! method, whatever the signatures say.

use rustc_hash::FxHashSet as HashSet;
use std::sync::OnceLock;

use crate::rules::project::Owner;

const LIST: &str = include_str!("../../../data/rbs_core_gaps.txt");

fn gaps() -> &'static HashSet<&'static str> {
    static GAPS: OnceLock<HashSet<&'static str>> = OnceLock::new();
    GAPS.get_or_init(|| parse(LIST))
}

/// The entries of a generated list (`Class#method`, `Class.method`).
pub fn parse(list: &'static str) -> HashSet<&'static str> {
    list.lines().filter(|line| !line.starts_with('#') && !line.is_empty()).collect()
}

/// Does one of `classes` (a receiver's class and its ancestors) define
/// `method` at run time though the signatures do not say so?
pub fn defined_at_run_time(classes: &[&str], side: Owner, method: &str) -> bool {
    listed(gaps(), classes, side, method)
}

/// Does `list` give one of `classes` the method, on `side`? Class objects
/// also answer to Module's and Class's instance methods.
pub fn listed(list: &HashSet<&str>, classes: &[&str], side: Owner, method: &str) -> bool {
    // One key buffer for every candidate: asked at most calls.
    let mut key = String::new();
    let mut has = |class: &str, separator: char| {
        key.clear();
        key.push_str(class);
        key.push(separator);
        key.push_str(method);
        list.contains(key.as_str())
    };
    classes.iter().any(|class| match side {
        Owner::Instance => has(class, '#'),
        Owner::Singleton => has(class, '.') || has(class, '#'),
    }) || (side == Owner::Singleton && ["Module", "Class"].iter().any(|c| has(c, '#')))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listed_methods_count_on_their_class_and_its_descendants() {
        assert!(defined_at_run_time(&["Proc", "Object"], Owner::Instance, "ruby2_keywords"));
        assert!(defined_at_run_time(&["File", "IO"], Owner::Singleton, "foreach"));
        assert!(!defined_at_run_time(&["String", "Object"], Owner::Instance, "shout"));
    }
}
