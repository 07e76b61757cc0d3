//! An Express 01 position (JSON) read against the house set: parsed and checked, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use signalbox_engine::express01::Catalogue;
use std::sync::LazyLock;

static HOUSE: LazyLock<Catalogue> = LazyLock::new(Catalogue::house);

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        match signalbox_engine::express01::Position::from_json("fuzz.json", text, &HOUSE) {
            Ok(position) => {
                let _ = position.network();
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
});
