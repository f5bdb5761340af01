//! `flow.*`: control- and data-flow facts visible in one file.

pub mod always_raises;
pub mod always_truthy_condition;
pub mod dead_assignment;
pub mod duplicate_hash_key;
pub mod return_in_ensure;
pub mod shadowed_rescue_clause;
pub mod unreachable_branch;
pub mod unreachable_clause;
