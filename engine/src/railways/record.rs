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
use super::dice::{Die, Roll, TrackFace};
use super::game::{Action, Game, Phase};
use super::options::Options;
use super::position::PositionError;
use super::track::{Ends, Side};

/// The label of the embedded sample game in messages.
pub const SAMPLE_GAME_LABEL: &str = "the sample game";

/// The embedded sample game: four players on the house map, made by
/// `signalbox_solver::railways::analysis::sample_game` (format: `docs/formats/railways-position.md`).
pub const SAMPLE_GAME_JSON: &str = include_str!("sample-game.json");

/// A game record as written: the set-up (seats, options, seed) and every turn's moves. A move is
/// an object ([`Move`]) or a line of words as the text output prints it ([`Move::from_str`]).
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
    #[serde(deserialize_with = "moves")]
    pub turns: Vec<Vec<Move>>,
}

/// A move as a record may write it: an object or words.
struct Written(Move);

impl<'de> Deserialize<'de> for Written {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Written, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Written;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a move: an object with an \"action\", or words such as \"roll SS,SC,plains,any\"")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Written, E> {
                s.parse().map(Written).map_err(E::custom)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Written, A::Error> {
                Move::deserialize(serde::de::value::MapAccessDeserializer::new(map)).map(Written)
            }
        }
        d.deserialize_any(Visit)
    }
}

fn moves<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Vec<Move>>, D::Error> {
    let turns: Vec<Vec<Written>> = Deserialize::deserialize(d)?;
    Ok(turns.into_iter().map(|t| t.into_iter().map(|w| w.0).collect()).collect())
}

/// A move as a record writes it: [`Action`] with hexes as `[column, row]` of the map's rows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "action", deny_unknown_fields)]
pub enum Move {
    /// The four dice as they fell, and optionally whose turn the record says it is (checked
    /// against the seat order).
    Roll {
        /// The faces.
        roll: Roll,
        /// The player rolling (`None`: not written; the seat order decides).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<Colour>,
    },
    /// A cube spent to roll one or two dice again, and all four dice after.
    Reroll {
        /// The dice rolled again.
        dice: Vec<Die>,
        /// The faces after.
        roll: Roll,
    },
    /// The pairing: false pairs first track die with first terrain die (and the second with the second), true first track die
    /// with second terrain die.
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
            Move::Roll { roll, .. } => Action::Roll { roll: *roll },
            Move::Reroll { dice, roll } => Action::Reroll { dice: dice.clone(), roll: *roll },
            Move::Pair { crossed } => Action::Pair { crossed: *crossed },
            &Move::Build { at, ends, slot } => Action::Build { hex: offset_to_hex(at[0], at[1]), ends, slot },
            Move::End => Action::End,
        }
    }

    /// The record's form of an action on `content`'s map.
    pub fn from_action(content: &Content, action: &Action) -> Move {
        match action {
            Action::Roll { roll } => Move::Roll { roll: *roll, player: None },
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

/// The two letters of a track face in words (`SS`, `CC`, `SC`).
fn track_letters(face: TrackFace) -> &'static str {
    match face {
        TrackFace::StraightStraight => "SS",
        TrackFace::CurvedCurved => "CC",
        TrackFace::StraightCurved => "SC",
    }
}

/// A roll in the words a record accepts: `SS,SC,plains,any`.
pub fn roll_words(roll: Roll) -> String {
    format!("{},{},{},{}", track_letters(roll.track[0]), track_letters(roll.track[1]), roll.terrain[0], roll.terrain[1])
}

impl fmt::Display for Move {
    /// The words [`Move::from_str`] reads back: `roll SS,SC,plains,any` (`red rolls ...` with
    /// the player), `reroll first terrain die and second track die: SS,CC,water,any`, `pair straight`
    /// or `pair crossed`, `build e-w on [5, 4] with slot 0`, `end`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Roll { roll, player: None } => write!(f, "roll {}", roll_words(*roll)),
            Move::Roll { roll, player: Some(c) } => write!(f, "{c} rolls {}", roll_words(*roll)),
            Move::Reroll { dice, roll } => {
                let dice: Vec<String> = dice.iter().map(ToString::to_string).collect();
                write!(f, "reroll {}: {}", dice.join(" and "), roll_words(*roll))
            }
            Move::Pair { crossed } => f.write_str(if *crossed { "pair crossed" } else { "pair straight" }),
            Move::Build { at, ends, slot } => write!(f, "build {ends} on [{}, {}] with slot {slot}", at[0], at[1]),
            Move::End => f.write_str("end"),
        }
    }
}

impl std::str::FromStr for Move {
    type Err = String;
    /// A move in words, as the text output prints it (case and extra spaces do not matter):
    /// `roll SS,SC,plains,any` (or `red rolls SS,SC,plains,any`, or `roll` with the faces'
    /// full names), `reroll first terrain die: SS,SC,water,any` (one or two dice joined by `and`,
    /// then all four dice after), `pair straight` or `pair crossed`,
    /// `build [straight|curved] e-w on [5, 4] [with] slot 0`, `end` (or `end the turn`).
    fn from_str(text: &str) -> Result<Move, String> {
        let s = text.trim().to_ascii_lowercase();
        let words: Vec<&str> = s.split_whitespace().collect();
        let fail = |why: &str| format!("{text:?} is not a move: {why}");
        match words.as_slice() {
            ["roll", rest @ ..] => {
                Ok(Move::Roll { roll: rest.concat().parse().map_err(|e: String| fail(&e))?, player: None })
            }
            [colour, "rolls", rest @ ..] => {
                let player = colour.parse().map_err(|e: String| fail(&e))?;
                Ok(Move::Roll { roll: rest.concat().parse().map_err(|e: String| fail(&e))?, player: Some(player) })
            }
            ["reroll" | "re-roll", ..] => {
                let body = s.split_once(char::is_whitespace).map_or("", |(_, b)| b);
                let (dice, roll) =
                    body.split_once(':').ok_or_else(|| fail("expected the dice, a colon, then all four dice"))?;
                let dice = dice
                    .split(" and ")
                    .map(|d| match d.split_whitespace().collect::<Vec<_>>().as_slice() {
                        [n @ ("first" | "second"), "track", "die"] => Ok(Die::Track(u8::from(*n == "second"))),
                        [n @ ("first" | "second"), "terrain", "die"] => Ok(Die::Terrain(u8::from(*n == "second"))),
                        // The older words, numbered from 0.
                        ["track", "die", i @ ("0" | "1")] => Ok(Die::Track(u8::from(*i == "1"))),
                        ["terrain", "die", i @ ("0" | "1")] => Ok(Die::Terrain(u8::from(*i == "1"))),
                        _ => Err(fail(&format!(
                            "{:?} is not a die: expected the first or second track die, the first or second terrain die",
                            d.trim()
                        ))),
                    })
                    .collect::<Result<Vec<Die>, String>>()?;
                let roll = roll.replace(char::is_whitespace, "").parse().map_err(|e: String| fail(&e))?;
                Ok(Move::Reroll { dice, roll })
            }
            ["pair", "straight"] | ["pair", "the", "dice", "straight"] => Ok(Move::Pair { crossed: false }),
            ["pair", "crossed"] | ["pair", "the", "dice", "crossed"] => Ok(Move::Pair { crossed: true }),
            ["build", ..] => {
                let (ends, rest) = s["build".len()..]
                    .trim_start()
                    .trim_start_matches("straight")
                    .trim_start_matches("curved")
                    .trim_start()
                    .split_once(" on ")
                    .ok_or_else(|| fail("expected build <sides> on [column, row] with slot <n>"))?;
                let sides: Vec<Side> = ends
                    .trim()
                    .split('-')
                    .map(|p| Side::try_from(p.trim().to_string()))
                    .collect::<Result<_, _>>()
                    .map_err(|e| fail(&e))?;
                let [a, b] = sides.as_slice() else { return Err(fail("expected two sides such as e-w")) };
                let ends = Ends::new(*a, *b).ok_or_else(|| fail("a track joins two different sides"))?;
                let (at, slot) = rest.split_once(']').ok_or_else(|| fail("expected [column, row]"))?;
                let at: Vec<i32> = at
                    .trim()
                    .trim_start_matches('[')
                    .split(',')
                    .map(|n| n.trim().parse::<i32>())
                    .collect::<Result<_, _>>()
                    .map_err(|_| fail("expected [column, row] as two whole numbers"))?;
                let [c, r] = at.as_slice() else { return Err(fail("expected [column, row]")) };
                let slot = match slot.split_whitespace().collect::<Vec<_>>().as_slice() {
                    ["with", "slot", n] | ["slot", n] | [",", "slot", n] => n.parse::<u8>().ok(),
                    _ => None,
                }
                .ok_or_else(|| fail("expected the slot after the hex: with slot 0 to 3"))?;
                Ok(Move::Build { at: [*c, *r], ends, slot })
            }
            ["end"] | ["end", "the", "turn"] => Ok(Move::End),
            _ => Err(fail("expected roll, reroll, pair, build or end")),
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
    read(content, file, text).map(|(_, r)| r)
}

/// Reads a game record and replays it as [`replay`] does, giving the record as written as well.
/// A roll that names its player (`"player"`, or `red rolls ...`) is checked against the seat
/// order: a move for the wrong player is refused, named, with the rule.
pub fn read(content: Arc<Content>, file: &str, text: &str) -> Result<(RecordSetup, Replay), PositionError> {
    let record: RecordSetup = parse_json(file, text)?;
    let replayed = replay_setup(content, file, &record)?;
    Ok((record, replayed))
}

/// Replays a record already read (see [`replay`]); `file` names it in errors.
pub fn replay_setup(content: Arc<Content>, file: &str, record: &RecordSetup) -> Result<Replay, PositionError> {
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
            if let Move::Roll { player: Some(p), .. } = m
                && *p != colour
            {
                return Err(invalid(format!(
                    "turns[{t}][{a}] ({m}): turn {t} is {colour}'s (seat {seat}), not {p}'s: the turns go round the seats in order, {} (rulebook: 3. End Your Turn, pass the dice to the player on your left)",
                    record.seats.iter().map(|c| c.name()).collect::<Vec<_>>().join(", ")
                )));
            }
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
