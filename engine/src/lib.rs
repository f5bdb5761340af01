//! Rigor engine: parses Ruby with Prism, runs the rule catalogue, and
//! serves the same CLI either to a terminal or to the gateway's worker pipe.

/// Which build this is: a fingerprint of the engine's sources.
pub const BUILD: &str = concat!("src ", env!("RIGOR_SOURCE_FINGERPRINT"));

pub mod analysis;
pub mod baseline;
pub mod cache_files;
pub mod catalogue;
pub mod cli;
pub mod config;
pub mod diagnostic;
pub mod failpoint;
pub mod files;
pub mod infer;
pub mod model;
pub mod rbs;
pub mod report;
pub mod rules;
pub mod sig_gen;
pub mod signatures;
pub mod source;
pub mod stack_guard;
pub mod suppression;
pub mod syntax;
pub mod types;
pub mod worker;
pub mod workspace;
