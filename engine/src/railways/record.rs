//! Game records as JSON: the set-up (seats, options, seed) and every turn's moves, replayed with
//! every rule checked. Format: `docs/formats/railways-position.md` (Record). Dice, slots, turns
//! and moves are numbered from 0, as everywhere in signalbox.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::source::parse_json;

use super::catalogue::{CityId, Content, offset_to_hex};
use super::colour::Colour;
use super::dice::{Die, Roll};
use super::game::{Action, Game, Phase};
use super::options::Options;
use super::position::PositionError;
use super::track::Ends;

/// A game record as written: the set-up (seats, options, seed) and every turn's moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordSetup {
    /// The colours in turn order.
    pub seats: Vec<Colour>,
    /// The rule options.
    #[serde(default)]
    pub options: Options,
    /// The seed of the set-up (the Service Bounty deck's order).
    #[serde(default)]
    pub seed: u64,
    /// Each turn's moves, in order; the last turn may be under way.
    pub turns: Vec<Vec<Move>>,
}

/// A move as a record writes it: [`Action`] with hexes as `[column, row]` of the map's rows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "action", deny_unknown_fields)]
pub enum Move {
    /// The four dice as they fell.
    Roll {
        /// The faces.
        roll: Roll,
    },
    /// A cube spent to roll one or two dice again, and all four dice after.
    Reroll {
        /// The dice rolled again.
        dice: Vec<Die>,
        /// The faces after.
        roll: Roll,
    },
    /// The pairing: false pairs track die 0 with terrain die 0 (and 1 with 1), true track die 0
    /// with terrain die 1.
    Pair {
        /// The other pairing.
        crossed: bool,
    },
    /// A tile built with slot `slot` (0 to 3: 0 and 1 the first pair's tiles, 2 and 3 the
    /// second's).
    Build {
        /// Column and row of the hex.
        at: [i32; 2],
        /// The two sides the track joins.
        ends: Ends,
        /// The slot, 0 to 3.
        slot: u8,
    },
    /// The end of the turn.
    End,
}

impl Move {
    /// The engine's action.
    pub fn action(&self) -> Action {
        match self {
            Move::Roll { roll } => Action::Roll { roll: *roll },
            Move::Reroll { dice, roll } => Action::Reroll { dice: dice.clone(), roll: *roll },
            Move::Pair { crossed } => Action::Pair { crossed: *crossed },
            &Move::Build { at, ends, slot } => Action::Build { hex: offset_to_hex(at[0], at[1]), ends, slot },
            Move::End => Action::End,
        }
    }

    /// The record's form of an action on `content`'s map.
    pub fn from_action(content: &Content, action: &Action) -> Move {
        match action {
            Action::Roll { roll } => Move::Roll { roll: *roll },
            Action::Reroll { dice, roll } => Move::Reroll { dice: dice.clone(), roll: *roll },
            Action::Pair { crossed } => Move::Pair { crossed: *crossed },
            &Action::Build { hex, ends, slot } => {
                let at = content.offsets.get(&hex).map_or([hex.q, hex.r], |&(c, r)| [c, r]);
                Move::Build { at, ends, slot }
            }
            Action::End => Move::End,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Build { at, ends, slot } => write!(f, "build {ends} on [{}, {}] with slot {slot}", at[0], at[1]),
            other => other.action().fmt(f),
        }
    }
}

/// A city linked during a replay: by whom, on which turn (from 0), and which city.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    /// The turn, from 0.
    pub turn: usize,
    /// The player.
    pub colour: Colour,
    /// The city.
    pub city: CityId,
}

/// A replayed record: the game after its last move, every link made, and the turn on which
/// each player linked its four cities.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The game after the last move.
    pub game: Game,
    /// Every city linked, in the order the links were made.
    pub links: Vec<Link>,
    /// The turn (from 0) on which each player linked its last city, by colour.
    pub completed: BTreeMap<Colour, usize>,
    /// Whether the last turn is under way (its moves stop before its end).
    pub under_way: bool,
}

/// Replays a game record with every rule checked: each turn starts with the dice to be rolled
/// and, but for the last, ends with `end`; every move is checked by the engine. The first
/// illegal move is named as `turns[t][a]` (from 0) with the move and the reason.
pub fn replay(content: Arc<Content>, file: &str, text: &str) -> Result<Replay, PositionError> {
    let record: RecordSetup = parse_json(file, text)?;
    let invalid = |problem: String| PositionError::Invalid { file: file.to_string(), problems: vec![problem] };
    let mut game =
        Game::new(content, &record.seats, record.options, record.seed).map_err(|e| invalid(format!("seats: {e}")))?;
    let mut links = Vec::new();
    let mut completed = BTreeMap::new();
    let mut under_way = false;
    for (t, turn) in record.turns.iter().enumerate() {
        if game.is_over() {
            return Err(invalid(format!("turns[{t}]: the game ended after turn {}", t.saturating_sub(1))));
        }
        if turn.is_empty() {
            return Err(invalid(format!("turns[{t}]: a turn has at least a roll, a pairing and an end")));
        }
        for (a, m) in turn.iter().enumerate() {
            if a > 0 && game.phase() == Phase::Roll {
                return Err(invalid(format!(
                    "turns[{t}][{a}] ({m}): turn {t} has ended; the next turn's moves go in turns[{}]",
                    t + 1
                )));
            }
            let seat = game.active();
            let colour = game.players()[seat].colour;
            let before = game.players()[seat].linked.clone();
            game.apply(&m.action()).map_err(|e| invalid(format!("turns[{t}][{a}] ({m}): {e}")))?;
            for &city in game.players()[seat].linked.difference(&before) {
                links.push(Link { turn: t, colour, city });
            }
            if !completed.contains_key(&colour) && game.has_linked_all(colour) {
                completed.insert(colour, t);
            }
        }
        if game.phase() != Phase::Roll && !game.is_over() {
            if t + 1 < record.turns.len() {
                return Err(invalid(format!("turns[{t}]: the turn does not end with {{\"action\": \"end\"}}")));
            }
            under_way = true;
        }
    }
    Ok(Replay { game, links, completed, under_way })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::railways::colour::Colour;

    fn record(seed: u64, turns: u32) -> (Arc<Content>, RecordSetup, Game) {
        let content = Arc::new(Content::house());
        let mut game =
            Game::new(content.clone(), &[Colour::Red, Colour::Purple], Options::default(), seed).expect("a game");
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed);
        let mut moves: Vec<Vec<Move>> = Vec::new();
        while game.turns() < turns {
            if game.phase() == Phase::Roll {
                moves.push(Vec::new());
            }
            let action = game.random_action(&mut rng).expect("an action");
            game.apply(&action).expect("legal");
            moves.last_mut().expect("a turn").push(Move::from_action(&content, &action));
        }
        let setup =
            RecordSetup { seats: vec![Colour::Red, Colour::Purple], options: Options::default(), seed, turns: moves };
        (content, setup, game)
    }

    #[test]
    fn a_record_replays_and_an_illegal_move_is_named() {
        let (content, record, game) = record(3, 6);
        let text = serde_json::to_string(&record).expect("JSON");
        let replayed = replay(content.clone(), "r.json", &text).expect("the record replays");
        assert_eq!(replayed.game.to_setup(), game.to_setup());
        assert!(!replayed.under_way);
        // The first build, moved to a hex far from everything, is refused and named.
        let (t, a) = record
            .turns
            .iter()
            .enumerate()
            .find_map(|(t, turn)| turn.iter().position(|m| matches!(m, Move::Build { .. })).map(|a| (t, a)))
            .expect("a build in six turns");
        let mut broken = record.clone();
        if let Move::Build { at, .. } = &mut broken.turns[t][a] {
            *at = [99, 99];
        }
        let e = replay(content.clone(), "r.json", &serde_json::to_string(&broken).expect("JSON"))
            .expect_err("illegal")
            .to_string();
        assert!(e.contains(&format!("turns[{t}][{a}] (build")) && e.contains("on [99, 99]"), "{e}");
        assert!(e.contains("not a hex of the board"), "{e}");
        // Two turns run together, and a turn that does not end.
        let mut joined = record.clone();
        let second = joined.turns.remove(1);
        joined.turns[0].extend(second);
        let e = replay(content.clone(), "r.json", &serde_json::to_string(&joined).expect("JSON"))
            .expect_err("joined")
            .to_string();
        assert!(e.contains("turns[0][") && e.contains("turn 0 has ended"), "{e}");
        let mut open = record.clone();
        open.turns[0].pop();
        let e = replay(content, "r.json", &serde_json::to_string(&open).expect("JSON")).expect_err("open").to_string();
        assert!(e.contains("turns[0]: the turn does not end"), "{e}");
    }

    #[test]
    fn a_record_with_an_unknown_field_or_a_bad_move_names_its_path() {
        let content = Arc::new(Content::house());
        let text = r#"{"seats": ["blue", "red"], "turns": [[{"action": "roll", "roll": {"track": ["straight-straight", "curved-curved"], "terrain": ["plains", "any"]}, "speed": 3}]]}"#;
        let e = replay(content.clone(), "r.json", text).expect_err("unknown field").to_string();
        assert!(e.starts_with("r.json:1:") && e.contains("turns[0][0]") && e.contains("speed"), "{e}");
        let text = r#"{"seats": ["blue", "red"], "turns": [[{"action": "fly"}]]}"#;
        let e = replay(content, "r.json", text).expect_err("unknown move").to_string();
        assert!(e.contains("turns[0][0]") && e.contains("fly"), "{e}");
    }
}
