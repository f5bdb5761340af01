//! `call.*`: method calls the signatures and this project's definitions
//! say will fail.

pub mod core_gaps;
pub mod site;
pub mod stdlib_methods;
pub mod undefined_method;
