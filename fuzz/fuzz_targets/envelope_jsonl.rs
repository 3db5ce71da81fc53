//! Any bytes as a JSONL envelope file: envelopes or one positioned input error.
#![no_main]

use std::io::Cursor;

use libfuzzer_sys::fuzz_target;
use protocolarc::envelope::read_jsonl;
use protocolarc::InputError;

fuzz_target!(|data: &[u8]| {
    let result = read_jsonl(Cursor::new(data), "fuzz.jsonl", "fuzz.jsonl", |_| Ok::<(), InputError>(()));
    if let Err(e) = result {
        assert!(e.line() >= 1 && e.column() >= 1, "{e}");
    }
});
