//! Any text as a pasted puzzle ID or link (the first byte picks the form): read, solve, verify, write back (see
//! `latin::fuzzing`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| latin::fuzzing::pasted(data));
