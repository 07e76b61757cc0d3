//! The review of a played Railways Express game (`solver::railways::analysis`): the embedded
//! sample regenerates from its seed; a turn that plays the best use's own advice loses nothing;
//! one turn changed to a worse legal use loses exactly the difference of the two values, each
//! computed from scratch; the review is consistent.

use std::sync::Arc;

use signalbox_engine::railways::catalogue::Content;
use signalbox_engine::railways::record::{RecordSetup, SAMPLE_GAME_JSON, read};
use signalbox_solver::railways::analysis::{SAMPLE_MISTAKES, SAMPLE_SEATS, SAMPLE_SEED, sample_game, sample_text};

/// The embedded sample game is what the generator makes from its seed. To regenerate the file:
/// `SIGNALBOX_REGENERATE=1 cargo test -p signalbox-solver --test railways_analysis sample`.
#[test]
fn the_sample_game_regenerates_from_its_seed() {
    let content = Arc::new(Content::house());
    let record = sample_game(content.clone(), &SAMPLE_SEATS, SAMPLE_SEED, SAMPLE_MISTAKES).expect("a game");
    let text = sample_text(&record);
    if std::env::var_os("SIGNALBOX_REGENERATE").is_some() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/src/railways/sample-game.json");
        std::fs::write(path, &text).expect("write the sample");
    }
    assert_eq!(text, SAMPLE_GAME_JSON, "the sample game differs from its generator's");
    let (read_back, replay) = read(content, "sample-game.json", SAMPLE_GAME_JSON).expect("the sample replays");
    let _: &RecordSetup = &read_back;
    assert_eq!(read_back, record);
    assert!(replay.game.is_over());
}
