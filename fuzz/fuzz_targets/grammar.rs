//! Any bytes as a grammar file and a puzzle of its type, split at the first zero byte: read, solve, verify (see
//! `latin::fuzzing`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| latin::fuzzing::grammar(data));
