//! The positions of the Cube Express puzzles: made from a candidate number by a seeded game, and
//! read back from a puzzle file with every rule of the engine checked.

use std::sync::{Arc, OnceLock};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use signalbox_engine::cube_express::catalogue::Content;
use signalbox_engine::cube_express::game::{Game, Phase, State};
use signalbox_engine::cube_express::options::Options;
use signalbox_engine::cube_express::position::from_state;
use signalbox_solver::cube_express::analysis::random_turn;
use signalbox_solver::cube_express::value::{Weights, value};

use crate::puzzle::PuzzleError;

/// The only component set a puzzle position names: the embedded house set
/// (`engine/data/cube_express/house.toml`).
pub const CONTENT: &str = "house";

/// The embedded house set, read once.
pub fn house() -> Arc<Content> {
    static HOUSE: OnceLock<Arc<Content>> = OnceLock::new();
    HOUSE.get_or_init(|| Arc::new(Content::house())).clone()
}

/// Random turns tried for each turn played before the position; the best-valued one is played.
const TRIES: usize = 3;

/// Most turns played before the position (at least one).
const MOST_TURNS: u32 = 10;

/// Most resources the player to move may hold (each one widens the trades the search follows).
const MOST_RESOURCES: u8 = 4;

/// The position of a puzzle file: `{"content": "house", "game": POSITION}`, `POSITION` in the
/// engine's position format (`docs/formats/cube-express-position.md`).
pub fn to_value(game: &Game) -> Value {
    json!({ "content": CONTENT, "game": game.state() })
}

/// Reads a puzzle's position: the content must be the house set and the game a legal position
/// at the start of a turn (every rule the engine checks, each problem named by its field).
pub fn read(position: &Value) -> Result<Game, PuzzleError> {
    let bad = |why: String| PuzzleError::Position(why);
    let Some(object) = position.as_object() else {
        return Err(bad("expected an object with \"content\" and \"game\"".to_string()));
    };
    if let Some(field) = object.keys().find(|k| *k != "content" && *k != "game") {
        return Err(bad(format!("unknown field {field:?}: expected \"content\" and \"game\"")));
    }
    match object.get("content").map(|c| c.as_str()) {
        Some(Some(CONTENT)) => {}
        Some(other) => {
            return Err(bad(format!(
                "content: expected {CONTENT:?} (the embedded house set), found {}",
                other.map_or_else(|| object["content"].to_string(), |s| format!("{s:?}"))
            )));
        }
        None => return Err(bad(format!("content: missing (expected {CONTENT:?}, the embedded house set)"))),
    }
    let game = object.get("game").ok_or_else(|| bad("game: missing (a Cube Express position)".to_string()))?;
    let state: State = serde_json::from_value(game.clone()).map_err(|e| bad(format!("game: {e}")))?;
    let game = from_state(house(), &state)
        .map_err(|problems| bad(format!("game: not a legal position: {}", problems.join("; "))))?;
    if game.phase() != Phase::Lay || game.is_over() {
        return Err(bad("game: not the start of a turn".to_string()));
    }
    Ok(game)
}

/// The candidate position numbered `candidate`: a ChaCha8 generator seeded with it draws the
/// player count (2 or 3) and how many turns to play (1 to 10); the game is set up from the
/// candidate as its seed (ruling G1), and each turn is the best-valued (ruling V1) of three random
/// legal turns ([`random_turn`], from the same generator). Refused, with the reason, when the game
/// ends first, when the player to move holds more than four resources (a slow search), or when
/// fewer than two tile faces can be laid (no choice to make).
pub fn make(candidate: u64) -> Result<Game, &'static str> {
    let mut rng = ChaCha8Rng::seed_from_u64(candidate);
    let players = rng.random_range(2..=3usize);
    let turns = rng.random_range(1..=MOST_TURNS);
    let weights = Weights::default();
    let mut game = Game::new(house(), players, candidate, Options::default()).map_err(|_| "no setup")?;
    for _ in 0..turns {
        let mut best: Option<(i32, Game)> = None;
        for _ in 0..TRIES {
            let Some((_, after)) = random_turn(&game, &mut rng) else { continue };
            let v = value(&game, &after, &weights);
            if best.as_ref().is_none_or(|(b, _)| v > *b) {
                best = Some((v, after));
            }
        }
        game = best.ok_or("no random turn")?.1;
        if game.is_over() {
            return Err("the game ended");
        }
    }
    let me = &game.players()[usize::from(game.active())];
    if me.store.total() > MOST_RESOURCES {
        return Err("too many resources");
    }
    if crate::cube_express::answer::placements(&game).len() < 2 {
        return Err("fewer than two lays");
    }
    Ok(game)
}
