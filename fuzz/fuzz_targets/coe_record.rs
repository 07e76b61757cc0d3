//! A Cubes of Europe game record (JSON), or an instance within one: parsed and replayed with
//! checked play against the house set, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use signalbox_engine::coe::{Catalogue, Record};
use std::sync::LazyLock;

static HOUSE: LazyLock<Catalogue> = LazyLock::new(Catalogue::house);

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(record) = Record::from_json("fuzz.json", text) {
            if let Ok((game, score)) = record.replay(&HOUSE, "fuzz.json") {
                let _ = (game.is_over(), score.total(), score.rank());
            }
        }
    }
});
