//! Any bytes as a `--lines` file: every puzzle line answered, in order (see `latin::fuzzing`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| latin::fuzzing::lines(data));
