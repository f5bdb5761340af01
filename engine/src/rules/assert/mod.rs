//! `assert.*`: type expectations written in the code.

pub mod type_mismatch;
