//! `static.*`: results the signatures say must not be used.

pub mod value_use_void;
