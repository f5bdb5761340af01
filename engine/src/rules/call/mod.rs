//! `call.*`: method calls the signatures and this project's definitions
//! say will fail.

pub mod argument_type_mismatch;
pub mod callee;
pub mod core_gaps;
pub mod possible_nil_receiver;
pub mod site;
pub mod stdlib_methods;
pub mod undefined_method;
pub mod wrong_arity;
