//! `def.*`: what a method definition promises and what overrides keep.

pub mod ivar_write_mismatch;
pub mod method_visibility_mismatch;
pub mod override_visibility_reduced;
pub mod overrides;
pub mod return_type_mismatch;
pub mod signed;
pub mod visibility;
