//! Any bytes as a puzzle file: read, solve, verify (see `latin::fuzzing`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| latin::fuzzing::puzzle_file(data));
