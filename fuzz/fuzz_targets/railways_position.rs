//! A Railways Express position (JSON) read against the house set: parsed and checked, and its
//! legal actions listed, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use signalbox_engine::railways::catalogue::Content;
use std::sync::{Arc, LazyLock};

static HOUSE: LazyLock<Arc<Content>> = LazyLock::new(|| Arc::new(Content::house()));

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        match signalbox_engine::railways::game::Game::from_json(HOUSE.clone(), "fuzz.json", text) {
            Ok(game) => {
                let _ = game.legal_actions();
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
});
