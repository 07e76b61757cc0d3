//! Positions as JSON: the seats, the tiles on the board, the cubes in hand, whose turn, and the
//! Service Bounties; everything else (the linked cities, the cubes on the cities and in the
//! reserve, the supply) follows from those and is recomputed. A position is read at the start of
//! a turn, checked against every invariant ([`Game::problems`]), with clear errors.
//! Format: `docs/formats/railways-position.md`.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::source::{SyntaxError, bullet_list, parse_json};

use super::catalogue::{Content, offset_to_hex};
use super::colour::{CityColour, Colour};
use super::dice::{Die, Roll};
use super::game::{Action, CUBES_PER_COLOUR, Game, Phase, Placed};
use super::options::Options;
use super::track::Ends;

/// The embedded sample position (four players, twelve turns into a game on the house map).
pub const SAMPLE_POSITION_JSON: &str = include_str!("../../data/railways/sample-position.json");

/// The label under which the sample is named in messages.
pub const SAMPLE_POSITION_LABEL: &str = "<embedded sample position>";

/// A position as written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionSetup {
    /// The rule options.
    #[serde(default)]
    pub options: Options,
    /// The colours in turn order.
    pub seats: Vec<Colour>,
    /// Whose turn it is (default the first seat).
    #[serde(default)]
    pub active: Option<Colour>,
    /// Turns completed.
    #[serde(default)]
    pub turns: u32,
    /// The tiles on the board, in the order laid.
    #[serde(default)]
    pub tiles: Vec<TileSetup>,
    /// Cubes in hand by colour (default 2 each).
    #[serde(default)]
    pub cubes: BTreeMap<Colour, u8>,
    /// With the Service Bounties: the face-up cards' cities, and the deck's from the top.
    #[serde(default)]
    pub bounties: Vec<String>,
    /// The bounty deck's cities, top first.
    #[serde(default)]
    pub bounty_deck: Vec<String>,
    /// The colour whose turn triggered the end, if any.
    #[serde(default)]
    pub triggered: Option<Colour>,
}

/// A tile as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TileSetup {
    /// Column and row of its hex in the map's rows, from 0.
    pub at: [i32; 2],
    /// The two sides its track joins: `e`, `ne`, `nw`, `w`, `sw`, `se`.
    pub ends: Ends,
    /// Whose track it is.
    pub owner: Colour,
    /// Whether it is a crossing tile (default false).
    #[serde(default)]
    pub crossing: bool,
}

/// Why a position was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// Not JSON, or not the format.
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    /// The format, but not a position the rules allow.
    #[error("{file}: not a legal position, {} problem(s):\n{}", problems.len(), bullet_list(problems))]
    Invalid {
        /// The file's name.
        file: String,
        /// Every problem found.
        problems: Vec<String>,
    },
}

impl Game {
    /// Reads and checks a position.
    pub fn from_json(content: Arc<Content>, file: &str, text: &str) -> Result<Game, PositionError> {
        let setup: PositionSetup = parse_json(file, text)?;
        Game::from_setup(content, &setup)
            .map_err(|problems| PositionError::Invalid { file: file.to_string(), problems })
    }

    /// The embedded sample position on the house map.
    pub fn sample() -> Game {
        match Game::from_json(Arc::new(Content::house()), SAMPLE_POSITION_LABEL, SAMPLE_POSITION_JSON) {
            Ok(game) => game,
            Err(e) => panic!("the embedded sample is checked by the tests: {e}"),
        }
    }

    /// The game of a position, or every problem found.
    pub fn from_setup(content: Arc<Content>, setup: &PositionSetup) -> Result<Game, Vec<String>> {
        let mut game =
            Game::new(content.clone(), &setup.seats, setup.options, 0).map_err(|e| vec![format!("seats: {e}")])?;
        let mut problems = Vec::new();
        for (i, t) in setup.tiles.iter().enumerate() {
            let hex = offset_to_hex(t.at[0], t.at[1]);
            let field = format!("tiles[{i}]");
            if game.seat(t.owner).is_none() {
                problems.push(format!("{field}: {} does not play", t.owner));
                continue;
            }
            if content.terrain(hex).is_none() {
                problems.push(format!("{field}: at = {:?} is not a hex of the map", t.at));
                continue;
            }
            let Some(kind) = t.ends.kind(setup.options.curve) else {
                problems.push(format!("{field}: no tile lays {} (curves are {:?})", t.ends, setup.options.curve));
                continue;
            };
            let left = game.supply.pile(kind, t.crossing);
            if *left == 0 {
                problems.push(format!(
                    "{field}: the set has no more {} tiles",
                    if t.crossing { "crossing".to_string() } else { kind.to_string() }
                ));
                continue;
            }
            *left -= 1;
            game.at.entry(hex).or_default().push(game.tiles.len());
            game.tiles.push(Placed { hex, ends: t.ends, owner: t.owner, crossing: t.crossing });
        }
        // The links follow from the track; a linked city has given up its cubes.
        for seat in 0..game.players.len() {
            let colour = game.players[seat].colour;
            let (_, linked) = game.network(colour);
            for &c in &linked {
                game.city_cubes[c][colour.index()] = 0;
            }
            game.players[seat].linked = linked;
            let hand = setup.cubes.get(&colour).copied().unwrap_or(super::game::CUBES_IN_HAND);
            game.players[seat].cubes = hand;
            let on_cities: u32 = game.city_cubes.iter().map(|c| u32::from(c[colour.index()])).sum();
            match u32::from(CUBES_PER_COLOUR).checked_sub(on_cities + u32::from(hand)) {
                Some(r) => game.reserve[colour.index()] = r as u8,
                None => problems.push(format!(
                    "cubes.{colour}: {hand} in hand and {on_cities} still on cities are more than the {CUBES_PER_COLOUR} cubes of a colour"
                )),
            }
        }
        for colour in setup.cubes.keys() {
            if game.seat(*colour).is_none() {
                problems.push(format!("cubes.{colour}: {colour} does not play"));
            }
        }
        game.active = match setup.active {
            None => 0,
            Some(c) => game.seat(c).unwrap_or_else(|| {
                problems.push(format!("active: {c} does not play"));
                0
            }),
        };
        game.turns = setup.turns;
        game.triggered = setup.triggered.and_then(|c| {
            let seat = game.seat(c);
            if seat.is_none() || !game.has_linked_all(c) {
                problems.push(format!("triggered: {c} has not linked its four cities"));
            }
            seat
        });
        if game.triggered.is_some() && game.active == 0 {
            problems.push("triggered: the round is over, so the game would be over".to_string());
        }
        let city = |name: &String, field: &str, problems: &mut Vec<String>| {
            let c = content.cities.iter().position(|c| &c.name == name && c.colour == CityColour::Gray);
            if c.is_none() {
                problems.push(format!("{field}: {name:?} is not a gray city of the map"));
            }
            c
        };
        let written = !(setup.bounties.is_empty() && setup.bounty_deck.is_empty());
        match (setup.options.service_bounties, written) {
            (true, true) => {
                game.bounties = setup.bounties.iter().filter_map(|n| city(n, "bounties", &mut problems)).collect();
                game.bounty_deck =
                    setup.bounty_deck.iter().rev().filter_map(|n| city(n, "bounty_deck", &mut problems)).collect();
            }
            (false, true) => problems.push("bounties: the options do not play the Service Bounties".to_string()),
            // Without cards written, a game with the bounties deals them from seed 0.
            (_, false) => {}
        }
        game.phase = Phase::Roll;
        problems.extend(game.problems());
        if problems.is_empty() { Ok(game) } else { Err(problems) }
    }

    /// The position as written, at the start of a turn (the dice of a turn under way are not
    /// part of a position).
    pub fn to_setup(&self) -> PositionSetup {
        let offset = |h| self.content.offsets.get(&h).map_or([h.q, h.r], |&(c, r)| [c, r]);
        PositionSetup {
            options: self.options,
            seats: self.players.iter().map(|p| p.colour).collect(),
            active: Some(self.players[self.active].colour),
            turns: self.turns,
            tiles: self
                .tiles
                .iter()
                .map(|t| TileSetup { at: offset(t.hex), ends: t.ends, owner: t.owner, crossing: t.crossing })
                .collect(),
            cubes: self.players.iter().map(|p| (p.colour, p.cubes)).collect(),
            bounties: self.bounties.iter().map(|&c| self.content.cities[c].name.clone()).collect(),
            bounty_deck: self.bounty_deck.iter().rev().map(|&c| self.content.cities[c].name.clone()).collect(),
            triggered: self.triggered.map(|s| self.players[s].colour),
        }
    }
}

/// A game record as written: the set-up (seats, options, seed) and every turn's actions.
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
    /// Each turn's actions, in order.
    pub turns: Vec<Vec<Move>>,
}

/// An action as a record writes it: [`Action`] with hexes as `[column, row]` of the map's rows.
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
    /// The pairing: false pairs the first track die with the first terrain die.
    Pair {
        /// The other pairing.
        crossed: bool,
    },
    /// A tile built with slot `slot` (1 to 4).
    Build {
        /// Column and row of the hex.
        at: [i32; 2],
        /// The two sides the track joins.
        ends: Ends,
        /// The slot, 1 to 4.
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
            &Move::Build { at, ends, slot } => {
                Action::Build { hex: offset_to_hex(at[0], at[1]), ends, slot: slot.wrapping_sub(1) }
            }
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
                Move::Build { at, ends, slot: slot + 1 }
            }
            Action::End => Move::End,
        }
    }
}

impl Game {
    /// Replays a game record with every rule checked: the game after its last action, or the
    /// first illegal action named as `turns[t][a]`.
    pub fn from_record(content: Arc<Content>, file: &str, text: &str) -> Result<Game, PositionError> {
        let record: RecordSetup = parse_json(file, text)?;
        let invalid = |problem: String| PositionError::Invalid { file: file.to_string(), problems: vec![problem] };
        let mut game = Game::new(content, &record.seats, record.options, record.seed)
            .map_err(|e| invalid(format!("seats: {e}")))?;
        for (t, turn) in record.turns.iter().enumerate() {
            for (a, m) in turn.iter().enumerate() {
                let action = m.action();
                game.apply(&action).map_err(|e| invalid(format!("turns[{t}][{a}] ({action}): {e}")))?;
            }
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_replays_and_an_illegal_action_is_named() {
        let content = Arc::new(Content::house());
        let mut game =
            Game::new(content.clone(), &[Colour::Red, Colour::Purple], Options::default(), 3).expect("a game");
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(3);
        let mut turns: Vec<Vec<Move>> = Vec::new();
        while game.turns() < 6 {
            if game.phase() == Phase::Roll {
                turns.push(Vec::new());
            }
            let action = game.random_action(&mut rng).expect("an action");
            game.apply(&action).expect("legal");
            turns.last_mut().expect("a turn").push(Move::from_action(&content, &action));
        }
        let record =
            RecordSetup { seats: vec![Colour::Red, Colour::Purple], options: Options::default(), seed: 3, turns };
        let text = serde_json::to_string(&record).expect("JSON");
        let replayed = Game::from_record(content.clone(), "r.json", &text).expect("the record replays");
        assert_eq!(replayed.to_setup(), game.to_setup());
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
        let e = Game::from_record(content, "r.json", &serde_json::to_string(&broken).expect("JSON"))
            .expect_err("illegal")
            .to_string();
        assert!(e.contains(&format!("turns[{t}][{a}]")) && e.contains("not a hex of the board"), "{e}");
    }

    #[test]
    fn the_sample_reads_back_as_written() {
        let game = Game::sample();
        assert!(game.tiles().len() > 20, "the sample has track");
        let again = Game::from_setup(game.content().clone(), &game.to_setup()).expect("its own setup");
        assert_eq!(again.to_setup(), game.to_setup());
        assert_eq!(again.players(), game.players());
    }

    fn refused(text: &str) -> String {
        match Game::from_json(Arc::new(Content::house()), "p.json", text) {
            Ok(_) => panic!("accepted: {text}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn bad_positions_are_refused_with_the_field_and_the_reason() {
        let e = refused(r#"{"seats": ["blue", "yellow"], "turn": 3}"#);
        assert!(e.starts_with("p.json:1:") && e.contains("turn"), "{e}");
        let e = refused(r#"{"seats": ["blue", "blue"]}"#);
        assert!(e.contains("seats") && e.contains("different colours"), "{e}");
        let e = refused(
            r#"{"seats": ["blue", "yellow"], "tiles": [{"at": [99, 99], "ends": ["e", "w"], "owner": "blue"}]}"#,
        );
        assert!(e.contains("tiles[0]") && e.contains("not a hex of the map"), "{e}");
        let e = refused(
            r#"{"seats": ["blue", "yellow"], "tiles": [{"at": [12, 8], "ends": ["e", "ne"], "owner": "blue"}]}"#,
        );
        assert!(e.contains("tiles[0]") && e.contains("no tile lays e-ne"), "{e}");
        let e = refused(r#"{"seats": ["blue", "yellow"], "cubes": {"blue": 9}}"#);
        assert!(e.contains("cubes.blue") && e.contains("more than the 30"), "{e}");
        let e = refused(r#"{"seats": ["blue", "yellow"], "cubes": {"red": 1}}"#);
        assert!(e.contains("red does not play"), "{e}");
    }

    #[test]
    fn track_not_joined_to_its_home_is_refused() {
        // A blue straight tile somewhere in the middle of the map, far from Monterrey.
        let content = Content::house();
        let (&hex, _) = content
            .hexes
            .iter()
            .find(|(h, _)| !content.city_at.contains_key(h) && content.cities.iter().all(|c| c.hex.distance(**h) > 3))
            .expect("a hex far from every city");
        let (col, row) = content.offsets[&hex];
        let text = format!(
            r#"{{"seats": ["blue", "yellow"], "tiles": [{{"at": [{col}, {row}], "ends": ["e", "w"], "owner": "blue"}}]}}"#
        );
        let e = refused(&text);
        assert!(e.contains("blue has 1 tiles not joined to its home city"), "{e}");
    }
}
