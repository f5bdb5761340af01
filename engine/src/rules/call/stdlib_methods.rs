//! Methods the standard library adds to core classes when required
//! (`io/console` gives `IO.console`, `json` gives `Object#to_json`). Check
//! loads only the core signatures, so a call the standard library answers
//! is not reported: the rbs gem's `stdlib/` signatures are read, once per
//! process and only when a rule is about to report a missing method.

use std::sync::OnceLock;

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

/// Does a standard library declare `method` on one of `classes`?
pub fn adds(classes: &[&str], side: Owner, method: &str) -> bool {
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
