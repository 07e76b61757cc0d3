//! The position of a `coe-max` puzzle: a seeded instance, the rule options and the moves already
//! played (in the words `coe solve` prints), read and checked into a game at the start of a turn
//! with a few turns left; and the making of one from a candidate number.

use std::sync::OnceLock;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use signalbox_engine::coe::record::RulesSetup;
use signalbox_engine::coe::{Catalogue, Game, Instance, Move, Rules};
use signalbox_solver::coe::bound::upper_bound;
use signalbox_solver::coe::exact::turn_outcomes;

use crate::puzzle::PuzzleError;

/// The card set a position names: the embedded house set, the only one puzzles use.
pub const SET: &str = "house";

/// The most turns a puzzle position may leave to play: every alternative of every turn of the
/// answer is solved exactly, so a longer game would make a slow check (and a hand-edited file
/// must not be able to make it hang).
pub const MAX_TURNS_LEFT: usize = 3;

/// The embedded house set, read once.
pub fn catalogue() -> &'static Catalogue {
    static HOUSE: OnceLock<Catalogue> = OnceLock::new();
    HOUSE.get_or_init(Catalogue::house)
}

/// A position as its puzzle file holds it (`docs/formats/puzzles.md`, section `coe-max`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// The card set: `house` (the embedded house set).
    pub set: String,
    /// What chance fixed: the board card, the deck, the reshuffle and every die.
    pub instance: Instance,
    /// The rule options (the defaults: a whole game, a workers track of 6).
    pub rules: RulesSetup,
    /// The moves already played from the start, in words (`first die as 4: place on hex 7`).
    pub moves: Vec<String>,
}

/// A position read and checked: the instance, the rules and the moves, replayable into the
/// game at the puzzle's start ([`Checked::game`]).
#[derive(Clone, Debug)]
pub struct Checked {
    /// The instance.
    pub instance: Instance,
    /// The rules.
    pub rules: Rules,
    /// The moves already played.
    pub moves: Vec<Move>,
}

fn bad(message: impl Into<String>) -> PuzzleError {
    PuzzleError::Position(message.into())
}

impl Checked {
    /// Reads and checks a position: the set is the house set, the instance and rules are legal,
    /// every move is legal where it stands, and the game it reaches is at the start of a turn,
    /// not over, with at most [`MAX_TURNS_LEFT`] turns left.
    pub fn read(value: &serde_json::Value) -> Result<Checked, PuzzleError> {
        let setup: Setup =
            serde_json::from_value(value.clone()).map_err(|e| bad(format!("not a coe-max position: {e}")))?;
        if setup.set != SET {
            return Err(bad(format!(
                "field `set`: {:?}; coe-max puzzles use the embedded house set, {SET:?}",
                setup.set
            )));
        }
        setup.instance.check().map_err(|e| bad(format!("field `instance`: {e}")))?;
        let rules = setup.rules.to_rules(&setup.instance).map_err(|e| bad(format!("field `rules`: {e}")))?;
        let mut moves = Vec::with_capacity(setup.moves.len());
        for (i, text) in setup.moves.iter().enumerate() {
            moves.push(text.parse::<Move>().map_err(|e| bad(format!("field `moves[{i}]`: {e}")))?);
        }
        let checked = Checked { instance: setup.instance, rules, moves };
        {
            let mut game = Game::new(catalogue(), &checked.instance, checked.rules);
            for (i, &mv) in checked.moves.iter().enumerate() {
                game.play(mv).map_err(|e| bad(format!("field `moves[{i}]`: {e}")))?;
            }
            if !game.is_started() {
                return Err(bad("field `moves`: the start space is not chosen; a puzzle begins at a turn"));
            }
            if game.is_over() {
                return Err(bad("field `moves`: the game is over; nothing is left to play"));
            }
            if game.pending().is_some() || game.dice().iter().any(|d| d.is_none()) {
                return Err(bad(format!(
                    "field `moves`: they stop inside turn {}; a puzzle begins at the start of a turn",
                    game.turn() + 1
                )));
            }
            let left = turns_left(&game);
            if left > MAX_TURNS_LEFT {
                return Err(bad(format!(
                    "field `moves`: {left} turns can still be played; a coe-max puzzle leaves at most {MAX_TURNS_LEFT}"
                )));
            }
        }
        Ok(checked)
    }

    /// The game at the puzzle's start (the moves are known legal).
    pub fn game(&self) -> Game<'_> {
        let mut game = Game::new(catalogue(), &self.instance, self.rules);
        for &mv in &self.moves {
            game.play_unchecked(mv);
        }
        game
    }

    /// The position as its file holds it.
    pub fn to_value(&self) -> serde_json::Value {
        let setup = Setup {
            set: SET.to_string(),
            instance: self.instance.clone(),
            rules: self.rules.into(),
            moves: self.moves.iter().map(|m| m.to_string()).collect(),
        };
        serde_json::to_value(setup).unwrap_or(serde_json::Value::Null)
    }
}

/// The most turns still to play from a turn start ([`Game::turns_left_at_most`]): after the
/// reshuffle, one per card left in the deck (a tuck from the deck can only shorten it).
pub fn turns_left(game: &Game<'_>) -> usize {
    game.turns_left_at_most()
}

/// The candidate's position: the instance of seed `candidate`, a whole game by the default
/// rules, played in by [`play_in`] until 2 or 3 turns are left (drawn from the candidate).
pub fn make(candidate: u64) -> Result<Checked, &'static str> {
    let instance = Instance::from_seed(candidate);
    let rules = Rules::default();
    let mut rng = ChaCha8Rng::seed_from_u64(candidate);
    let left = rng.random_range(2..=3usize);
    let moves = play_in(&instance, rules, left, &mut rng)?;
    Ok(Checked { instance, rules, moves })
}

/// A plausible player's game up to the start of a turn with `left` turns to play, after the
/// reshuffle: the start space at random, then each turn one of the three outcomes of the turn
/// with the highest bound on the final score ([`upper_bound`]; ties in the engine's order),
/// drawn uniformly from the generator.
pub fn play_in(
    instance: &Instance,
    rules: Rules,
    left: usize,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<Move>, &'static str> {
    let mut game = Game::new(catalogue(), instance, rules);
    let mut moves = Vec::new();
    loop {
        if game.is_over() {
            return Err("the game ended before the puzzle's turns");
        }
        if game.is_started() && game.is_reshuffled() && game.deck().len() <= left {
            if game.deck().len() < 2 {
                return Err("fewer than two turns left");
            }
            return Ok(moves);
        }
        let mut outcomes: Vec<(u32, usize, Game<'_>, Vec<Move>)> =
            turn_outcomes(&game).into_iter().enumerate().map(|(i, (g, m))| (upper_bound(&g), i, g, m)).collect();
        outcomes.sort_by_key(|o| (std::cmp::Reverse(o.0), o.1));
        outcomes.truncate(3);
        if outcomes.is_empty() {
            return Err("a turn with no outcome");
        }
        let pick = rng.random_range(0..outcomes.len());
        let (_, _, next, line) = outcomes.swap_remove(pick);
        game = next;
        moves.extend(line);
    }
}
