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
use super::game::{CUBES_PER_COLOUR, Game, Phase, Placed};
use super::options::Options;
use super::track::Ends;

/// The embedded sample position (four players, twelve turns into a game on the house map).
pub const SAMPLE_POSITION_JSON: &str = include_str!("../../data/railways/sample-position.json");

/// The label under which the sample is named in messages.
pub const SAMPLE_POSITION_LABEL: &str = "the sample position";

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
    #[error("{file}: not a legal position, {}:\n{}", problem_count(problems.len()), bullet_list(problems))]
    Invalid {
        /// The file's name.
        file: String,
        /// Every problem found.
        problems: Vec<String>,
    },
}

/// "1 problem", "2 problems".
fn problem_count(n: usize) -> String {
    format!("{n} {}", if n == 1 { "problem" } else { "problems" })
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
            // Ruling T1: a tile over another player's is a crossing tile while any is left.
            let under = game.tiles_on(hex).find(|u| u.owner != t.owner).map(|u| u.owner);
            match (t.crossing, under) {
                (true, None) => {
                    problems.push(format!(
                        "{field}: a crossing tile, but no earlier tile of another player lies on {:?} (see “The tile supply” in docs/rules/railways-express.md)",
                        t.at
                    ));
                    continue;
                }
                (false, Some(other)) if game.supply.crossing > 0 => problems.push(format!(
                    "{field}: laid over {other}'s tile on {:?} while {} crossing tiles were left, so it is a crossing tile (\"crossing\": true; see “The tile supply” in docs/rules/railways-express.md)",
                    t.at, game.supply.crossing
                )),
                _ => {}
            }
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

#[cfg(test)]
mod tests {
    use super::*;

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
    fn a_tile_over_another_players_is_a_crossing_tile_while_any_is_left() {
        // Random four-player games until one has a crossing tile.
        let content = Arc::new(Content::house());
        let game = (0..50u64)
            .find_map(|seed| {
                let mut g = Game::new(content.clone(), &Colour::ALL, Options::default(), seed).ok()?;
                g.play_random(seed, 60).ok()?;
                g.tiles().iter().any(|t| t.crossing).then_some(g)
            })
            .expect("a game with a crossing tile");
        let mut setup = game.to_setup();
        let i = setup.tiles.iter().position(|t| t.crossing).expect("a crossing tile");
        setup.tiles[i].crossing = false;
        let e = Game::from_setup(content.clone(), &setup).expect_err("a stacked tile while crossings are left");
        assert!(
            e.iter().any(|p| p.starts_with(&format!("tiles[{i}]: laid over")) && p.contains("The tile supply")),
            "{e:?}"
        );
        let mut setup = game.to_setup();
        let j = setup.tiles.iter().position(|t| !t.crossing).expect("a plain tile");
        setup.tiles[j].crossing = true;
        let e = Game::from_setup(content, &setup).expect_err("a crossing tile over nothing");
        assert!(e.iter().any(|p| p.starts_with(&format!("tiles[{j}]: a crossing tile, but"))), "{e:?}");
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
        assert!(e.contains("blue has 1 tile not joined to its home city") && e.contains("1 problem:"), "{e}");
    }
}
