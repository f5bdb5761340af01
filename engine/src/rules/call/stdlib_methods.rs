//! Methods the standard library adds to core classes when required
//! (`io/console` gives `IO.console`, `json` gives `Object#to_json`). Check
//! loads only the core signatures, so a call the standard library answers
//! is not reported: the rbs gem's `stdlib/` signatures are read, once per
//! process and only when a rule is about to report a missing method, with
//! what they leave out (`data/rbs_stdlib_gaps.txt`, made by
//! `scripts/rbs-stdlib-gaps`: `bigdecimal/util` gives `Float#to_d`).

use rustc_hash::FxHashSet as HashSet;
use std::sync::OnceLock;

use super::core_gaps;

use crate::rbs::{self, Environment};
use crate::rules::project::Owner;

/// The standard library's signatures (without the core).
pub fn environment() -> &'static Environment {
    static STDLIB: OnceLock<Environment> = OnceLock::new();
    STDLIB.get_or_init(|| match rbs::locate::rbs_gem() {
        Ok(gem) => rbs::load_directories(&[gem.join("stdlib")]).env,
        Err(_) => Environment::default(),
    })
}

const GAPS: &str = include_str!("../../../data/rbs_stdlib_gaps.txt");

fn gaps() -> &'static HashSet<&'static str> {
    static LISTED: OnceLock<HashSet<&'static str>> = OnceLock::new();
    LISTED.get_or_init(|| core_gaps::parse(GAPS))
}

/// Does a standard library declare `method` on one of `classes`, or add
/// it though its signatures do not say so?
pub fn adds(classes: &[&str], side: Owner, method: &str) -> bool {
    if core_gaps::listed(gaps(), classes, side, method) {
        return true;
    }
    let env = environment();
    classes.iter().chain(["Object", "Kernel", "Module", "Class"].iter()).any(|class| {
        env.class(class).is_some_and(|decl| match side {
            Owner::Instance => decl.instance_methods.contains_key(method),
            Owner::Singleton => {
                decl.singleton_methods.contains_key(method) || decl.instance_methods.contains_key(method)
            }
        })
    })
}
