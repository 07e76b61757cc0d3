//! A Cubes of Europe game record (JSON), or an instance within one: parsed and replayed with
//! checked play against the house set, and every error put into words, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use signalbox_engine::coe::{Catalogue, Record};
use std::sync::LazyLock;

static HOUSE: LazyLock<Catalogue> = LazyLock::new(Catalogue::house);

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match Record::from_json("fuzz.json", text)
        .map(|record| record.replay(&HOUSE, "fuzz.json").map(|(g, s)| (g.is_over(), s.total(), s.rank())))
    {
        Ok(Ok(_)) => {}
        Ok(Err(e)) | Err(e) => {
            let _ = e.to_string();
        }
    }
});
