//! Reports: a solved grid as text a person reads, or as JSON a program reads.

pub mod json;
pub mod text;
