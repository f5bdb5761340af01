//! `call.*`: method calls the signatures and this project's definitions
//! say will fail.

pub mod accepts;
pub mod argument_type_mismatch;
pub mod callee;
pub mod core_gaps;
pub mod possible_nil_receiver;
pub mod raise_non_exception;
pub mod self_undefined_method;
pub mod site;
pub mod stdlib_methods;
pub mod suggest;
pub mod undefined_method;
pub mod unresolved_toplevel;
pub mod wrong_arity;
