//! The project model: what the project's files define, kept as owned facts
//! per file and merged into one index, below inference and the rules,
//! which consult it for everything a file does not define itself.
//!
//! Data flows one way: files (`sources`) → each file's facts (its
//! interface, the rules' project facts) → the project index (`index`) →
//! each file's analysis → reports. The workspace (`crate::workspace`)
//! drives it and keeps it warm across a worker's calls.

pub mod classes;
pub mod index;
pub mod params;
pub mod sources;
