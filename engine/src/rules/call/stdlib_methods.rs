//! Methods the standard library adds to core classes when required
//! (`io/console` gives `IO.console`, `json` gives `Object#to_json`). Check
//! loads only the core signatures, so a call the standard library answers
//! is not reported: the rbs gem's `stdlib/` signatures are read once per
//! process, when a rule is about to report a missing method, or ahead of
//! time when a check covers enough files to need them (`prefetch`).

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

/// Starts reading the standard library's signatures on a thread of its
/// own, so a whole-project check finds them ready instead of stalling an
/// analysis thread (and every other thread that asks meanwhile) while
/// they load. At most once per process; harmless if never needed.
pub fn prefetch() {
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        let _ = std::thread::Builder::new().name("stdlib-rbs".into()).spawn(|| {
            environment();
        });
    });
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
