//! Writes `engine/data/railways/sample-position.json`, the embedded sample position: four players
//! on the house map, seed 7, twelve turns played by the plan-following players of `solver/src/railways/policy.rs`.
//!
//! ```text
//! cargo run --release --example railways_sample
//! ```

use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use signalbox_engine::railways::catalogue::Content;
use signalbox_engine::railways::colour::Colour;
use signalbox_engine::railways::game::Game;
use signalbox_engine::railways::options::Options;
use signalbox_solver::railways::policy::play_turn;

fn main() -> anyhow::Result<()> {
    let content = Arc::new(Content::house());
    let mut game = Game::new(content, &Colour::ALL, Options::default(), 7).map_err(anyhow::Error::msg)?;
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    while game.turns() < 12 {
        play_turn(&mut game, &mut rng).map_err(|(a, e)| anyhow::anyhow!("{a} refused: {e}"))?;
    }
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/engine/data/railways/sample-position.json");
    std::fs::write(path, serde_json::to_string_pretty(&game.to_setup())? + "\n")?;
    println!("wrote {path}");
    Ok(())
}
