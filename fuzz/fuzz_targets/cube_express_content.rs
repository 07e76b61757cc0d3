//! Cube Express content (TOML): parsed and validated, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Err(e) = signalbox_engine::cube_express::catalogue::Content::from_toml("fuzz.toml", text) {
            let _ = e.to_string();
        }
    }
});
