//! `dump.*`: what the engine infers, printed where the code asks.

pub mod type_of;
