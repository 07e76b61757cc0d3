//! Railways Express puzzles (`docs/rules/railways-express.md`, Puzzles): the fewest tiles that
//! link a player's cities ([`link`]) and the best use of a roll ([`roll`]).
//!
//! What both kinds share lives here: the position a puzzle file holds (a map, small and written
//! out in the file or the embedded house map, and a position on it: `docs/formats/puzzles.md`),
//! read back with every rule checked; the small maps the candidates are made on; the words of a
//! tile; and the picture.

pub mod link;
pub mod roll;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, OnceLock};

use rand::seq::IndexedRandom;
use rand::{Rng, RngExt};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use signalbox_engine::grid::hex::Hex;
use signalbox_engine::railways::catalogue::{City, Content, Supply, offset_to_hex};
use signalbox_engine::railways::colour::{CityColour, Colour};
use signalbox_engine::railways::dice::DiceFaces;
use signalbox_engine::railways::game::{Action, Game, Phase};
use signalbox_engine::railways::options::Options;
use signalbox_engine::railways::position::PositionSetup;
use signalbox_engine::railways::terrain::Terrain;
use signalbox_engine::railways::track::{Ends, Side};

use crate::puzzle::PuzzleError;

/// The largest small map a puzzle file may hold, in columns and rows (the house map is 24 by 18).
const MOST_SIDE: usize = 30;

/// A puzzle's position as its file holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzlePosition {
    /// `"house"` (the embedded house map) or a small map written out ([`SmallMap`]).
    pub map: Value,
    /// The position on it, at the start of a turn (`docs/formats/railways-position.md`).
    pub position: PositionSetup,
    /// The player whose cities are to be linked (the fewest tiles).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<Colour>,
    /// The roll of the player to move, in a record's words (`SS,SC,plains,any`; the best use).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roll: Option<String>,
}

/// A small map written out in a puzzle file: the rows of a content file
/// (`docs/formats/railways-content.md`), its cities, dice and tile supply, without the house
/// map's counts (any number of cities; one home city for each colour that plays).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SmallMap {
    /// The map's name.
    pub name: String,
    /// Rows of pointy-top hexes from north to south, odd rows half a hex further east; one
    /// letter a hex: `p` plains, `m` mountain, `w` water, `.` no hex.
    pub rows: Vec<String>,
    /// The cities.
    pub cities: Vec<SmallCity>,
    /// The dice faces.
    pub dice: DiceFaces,
    /// The tile supply at the start of the game.
    pub tiles: Supply,
}

/// A city of a small map.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SmallCity {
    /// Its name.
    pub name: String,
    /// Column and row in `rows`, from 0.
    pub at: [i32; 2],
    /// `gray` or a player colour.
    pub colour: CityColour,
    /// The home city of its colour.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub home: bool,
}

/// The embedded house map, read once.
fn house() -> Arc<Content> {
    static HOUSE: OnceLock<Arc<Content>> = OnceLock::new();
    HOUSE.get_or_init(|| Arc::new(Content::house())).clone()
}

fn bad(what: impl Into<String>) -> PuzzleError {
    PuzzleError::Position(what.into())
}

impl SmallMap {
    /// The checked content of the map, or what is wrong with it (by field).
    pub fn content(&self, seats: &[Colour]) -> Result<Content, PuzzleError> {
        if self.rows.is_empty() || self.rows.len() > MOST_SIDE {
            return Err(bad(format!("map.rows: expected 1 to {MOST_SIDE} rows, found {}", self.rows.len())));
        }
        let mut hexes = BTreeMap::new();
        for (row, text) in self.rows.iter().enumerate() {
            if text.chars().count() > MOST_SIDE {
                return Err(bad(format!("map.rows[{row}]: more than {MOST_SIDE} hexes")));
            }
            for (col, c) in text.chars().enumerate() {
                if c == '.' {
                    continue;
                }
                let t = Terrain::from_letter(c)
                    .ok_or_else(|| bad(format!("map.rows[{row}], column {col}: expected p, m, w or ., found {c:?}")))?;
                hexes.insert(offset_to_hex(col as i32, row as i32), t);
            }
        }
        let cities: Vec<City> = self
            .cities
            .iter()
            .map(|c| City {
                name: c.name.clone(),
                hex: offset_to_hex(c.at[0], c.at[1]),
                colour: c.colour,
                home: c.home,
            })
            .collect();
        for (i, c) in self.cities.iter().enumerate() {
            if c.home && c.colour == CityColour::Gray {
                return Err(bad(format!("map.cities[{i}]: a gray city is nobody's home")));
            }
        }
        for &colour in seats {
            let homes = cities.iter().filter(|c| c.home && c.colour == CityColour::Player(colour)).count();
            if homes != 1 {
                return Err(bad(format!("map.cities: {colour} plays, so it needs one home city, not {homes}")));
            }
        }
        Content::from_parts(&self.name, hexes, cities, self.dice.clone(), self.tiles)
            .map_err(|e| bad(format!("map: {e}")))
    }

    /// The map as written from a content made by [`Content::from_parts`] on offsets from 0.
    fn of(content: &Content) -> SmallMap {
        let (mut width, mut height) = (0, 0);
        for &(c, r) in content.offsets.values() {
            width = width.max(c + 1);
            height = height.max(r + 1);
        }
        let mut rows = vec![vec!['.'; width as usize]; height as usize];
        for (h, t) in &content.hexes {
            let (c, r) = content.offsets[h];
            rows[r as usize][c as usize] = t.letter();
        }
        SmallMap {
            name: content.name.clone(),
            rows: rows.into_iter().map(|r| r.into_iter().collect()).collect(),
            cities: content
                .cities
                .iter()
                .map(|c| {
                    let (col, row) = content.offsets[&c.hex];
                    SmallCity { name: c.name.clone(), at: [col, row], colour: c.colour, home: c.home }
                })
                .collect(),
            dice: content.dice.clone(),
            tiles: content.supply,
        }
    }
}

/// A puzzle's position read and checked: the file's form and the game.
pub(crate) struct Read {
    pub(crate) written: PuzzlePosition,
    pub(crate) game: Game,
}

/// Reads a puzzle's position: the map (`"house"` or a small map) and the position on it, every
/// rule checked (`Game::from_setup`); a fault is a [`PuzzleError::Position`] naming the field.
pub(crate) fn read(position: &Value) -> Result<Read, PuzzleError> {
    let written: PuzzlePosition =
        serde_json::from_value(position.clone()).map_err(|e| bad(format!("not a Railways puzzle position: {e}")))?;
    let content = match &written.map {
        Value::String(s) if s == "house" => house(),
        Value::String(s) => return Err(bad(format!("map: {s:?} is not a map; expected \"house\" or a small map"))),
        m => {
            let small: SmallMap = serde_json::from_value(m.clone()).map_err(|e| bad(format!("map: {e}")))?;
            Arc::new(small.content(&written.position.seats)?)
        }
    };
    if written.position.seats.iter().collect::<BTreeSet<_>>().len() != written.position.seats.len() {
        return Err(bad("position.seats: a colour sits twice"));
    }
    let game = Game::from_setup(content, &written.position)
        .map_err(|problems| bad(format!("position: not a legal position: {}", problems.join("; "))))?;
    if game.is_over() || game.phase() != Phase::Roll {
        return Err(bad("position: the game is over"));
    }
    Ok(Read { written, game })
}

/// The position of a puzzle file from its game: its map written out (or `"house"` when
/// `house_map`), the position, and the player (a link position) or the roll (a roll position).
pub fn write(game: &Game, house_map: bool, player: Option<Colour>, roll: Option<String>) -> Value {
    let map = if house_map { Value::String("house".into()) } else { json(&SmallMap::of(game.content())) };
    json(&PuzzlePosition { map, position: game.to_setup(), player, roll })
}

fn json<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// A hex as `[column, row]` of the map's rows.
pub(crate) fn at(game: &Game, hex: Hex) -> [i32; 2] {
    game.content().offsets.get(&hex).map_or([hex.q, hex.r], |&(c, r)| [c, r])
}

/// A tile in words: `build e-w on [5, 4]`.
pub(crate) fn tile_words(game: &Game, (hex, ends): (Hex, Ends)) -> String {
    let [c, r] = at(game, hex);
    format!("build {ends} on [{c}, {r}]")
}

/// Reads a tile in words: `[build] [straight|curved] e-w on [5, 4]` (case and spaces do not
/// matter); the rest after the hex is returned.
pub(crate) fn parse_tile(text: &str) -> Result<((Hex, Ends), String), String> {
    let s = text.trim().to_ascii_lowercase();
    let s = s.strip_prefix("build").unwrap_or(&s).trim_start();
    let s = s.strip_prefix("straight").or_else(|| s.strip_prefix("curved")).unwrap_or(s).trim_start();
    let fail = |why: &str| format!("{:?} is not a tile: {why} (expected build e-w on [column, row])", text.trim());
    let (sides, rest) = s.split_once(" on ").ok_or_else(|| fail("no \"on\""))?;
    let sides: Vec<Side> = sides
        .split('-')
        .map(|p| Side::try_from(p.trim().to_string()))
        .collect::<Result<_, _>>()
        .map_err(|e| fail(&e))?;
    let [a, b] = sides.as_slice() else { return Err(fail("expected two sides such as e-w")) };
    let ends = Ends::new(*a, *b).ok_or_else(|| fail("a track joins two different sides"))?;
    let rest = rest.trim_start();
    let (hex, after) = rest
        .strip_prefix('[')
        .and_then(|r| r.split_once(']'))
        .ok_or_else(|| fail("expected the hex as [column, row]"))?;
    let nums: Vec<i32> = hex
        .split(',')
        .map(|n| n.trim().parse::<i32>())
        .collect::<Result<_, _>>()
        .map_err(|_| fail("expected [column, row] as two whole numbers"))?;
    let [c, r] = nums.as_slice() else { return Err(fail("expected [column, row]")) };
    Ok(((offset_to_hex(*c, *r), ends), after.trim().to_string()))
}

/// The parts of an answer: split at `;` and at line ends, blanks left out.
pub(crate) fn parts(text: &str) -> Vec<&str> {
    text.split([';', '\n']).map(str::trim).filter(|p| !p.is_empty()).collect()
}

/// How a candidate's small map and game are made.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// Columns of the map.
    pub width: usize,
    /// Rows of the map.
    pub height: usize,
    /// Yellow's cities (1: its home only, and no turns are played, as yellow would end the game).
    pub yellow_cities: usize,
    /// Gray cities.
    pub grays: usize,
    /// Rounds played before the position at most (each: blue by the linker's plan, yellow at
    /// random), stopping before one when blue has at most `stop` tiles still to build.
    pub rounds: u32,
    /// See `rounds`.
    pub stop: usize,
}

/// The dice of the house set (ruling D1).
fn house_dice() -> DiceFaces {
    house().dice.clone()
}

/// A random small map and a game on it after some rounds, blue to move at the start of its
/// turn; `None` when the draw makes no such game (cities do not fit, the game ends).
pub fn small_game(rng: &mut ChaCha8Rng, spec: Spec) -> Option<Game> {
    let (w, h) = (spec.width as i32, spec.height as i32);
    let mut hexes = BTreeMap::new();
    for row in 0..h {
        for col in 0..w {
            if rng.random_range(0..14) == 0 {
                continue;
            }
            let t = match rng.random_range(0..10) {
                0..6 => Terrain::Plains,
                6..8 => Terrain::Mountain,
                _ => Terrain::Water,
            };
            hexes.insert(offset_to_hex(col, row), t);
        }
    }
    let spots: Vec<Hex> = hexes.keys().copied().collect();
    let mut cities: Vec<City> = Vec::new();
    let mut place = |rng: &mut ChaCha8Rng, name: String, colour: CityColour, home: bool, apart: i32| -> Option<()> {
        for _ in 0..60 {
            let hex = *spots.choose(rng)?;
            let same = |c: &City| c.colour == colour && colour != CityColour::Gray;
            if cities.iter().all(|c| c.hex.distance(hex) >= if same(c) { apart } else { 2 }) {
                cities.push(City { name, hex, colour, home });
                return Some(());
            }
        }
        None
    };
    let blue = CityColour::Player(Colour::Blue);
    let yellow = CityColour::Player(Colour::Yellow);
    let far = (w.min(h) / 2).max(2);
    for i in 0..4 {
        place(rng, if i == 0 { "Blue home".into() } else { format!("Blue {i}") }, blue, i == 0, far)?;
    }
    for i in 0..spec.yellow_cities {
        place(rng, if i == 0 { "Yellow home".into() } else { format!("Yellow {i}") }, yellow, i == 0, far)?;
    }
    for i in 0..spec.grays {
        place(rng, format!("Gray {i}"), CityColour::Gray, false, 2)?;
    }

    // Mostly the house set's supply; one map in five is short of one kind.
    let supply = match rng.random_range(0..10) {
        0 => Supply { straight: rng.random_range(2..7), curved: 100, crossing: rng.random_range(0..3) },
        1 => Supply { straight: 100, curved: rng.random_range(2..7), crossing: rng.random_range(0..3) },
        _ => Supply { straight: 100, curved: 100, crossing: 31 },
    };
    let content = Content::from_parts("small", hexes, cities, house_dice(), supply).ok()?;
    let mut game = Game::new(Arc::new(content), &[Colour::Blue, Colour::Yellow], Options::default(), 0).ok()?;
    let rounds = if spec.yellow_cities > 1 { spec.rounds } else { 0 };
    for _ in 0..rounds {
        if signalbox_solver::railways::link::min_link(&game, Colour::Blue)
            .is_none_or(|(p, _)| p.tiles.len() <= spec.stop)
        {
            break;
        }
        signalbox_solver::railways::policy::play_turn(&mut game, rng).ok()?;
        random_turn(&mut game, rng)?;
        if game.is_over() || game.has_linked_all(Colour::Yellow) || game.has_linked_all(Colour::Blue) {
            return None;
        }
    }
    Some(game)
}

/// A game on the house map: four players, each following its plan
/// ([`signalbox_solver::railways::policy::play_turn`], the dice from `rng`), until `colour`
/// (blue, the first to move) has at most `stop` tiles still to build at the start of its turn;
/// `None` when the game ends first.
pub fn house_game(rng: &mut ChaCha8Rng, stop: usize) -> Option<Game> {
    let mut game = Game::new(house(), &Colour::ALL, Options::default(), 0).ok()?;
    for _ in 0..60 {
        let left = signalbox_solver::railways::link::min_link(&game, Colour::Blue)?.0.tiles.len();
        if left <= stop {
            return Some(game);
        }
        for _ in 0..4 {
            signalbox_solver::railways::policy::play_turn(&mut game, rng).ok()?;
        }
        if game.is_over() || Colour::ALL.iter().any(|&c| game.has_linked_all(c)) {
            return None;
        }
    }
    None
}

/// One turn of random actions ([`Game::random_action`]) for the player to move.
fn random_turn<R: Rng>(game: &mut Game, rng: &mut R) -> Option<()> {
    let turns = game.turns();
    while game.turns() == turns && !game.is_over() {
        let action = game.random_action(rng)?;
        game.apply(&action).ok()?;
    }
    Some(())
}

/// The builds of a list of actions, as tiles.
pub(crate) fn built(actions: &[Action]) -> Vec<(Hex, Ends)> {
    actions
        .iter()
        .filter_map(|a| match *a {
            Action::Build { hex, ends, .. } => Some((hex, ends)),
            _ => None,
        })
        .collect()
}

/// Whether a tile laid on `hex` in `game` lies over another player's tile.
pub(crate) fn over_other(game: &Game, colour: Colour, hex: Hex) -> bool {
    game.tiles_on(hex).any(|t| t.owner != colour)
}

/// The picture of a puzzle: the position, `plan` drawn hollow and `advised` solid.
pub(crate) fn picture(
    game: &Game,
    player: Colour,
    plan: &[(Hex, Ends)],
    advised: &[(Hex, Ends)],
    title: &[String],
) -> String {
    // The part of the map the puzzle is about: the player's cities and tiles, the tiles drawn,
    // and the fewest tiles that link the cities now, with two hexes round them.
    let mut region: Vec<Hex> =
        game.content().cities.iter().filter(|c| c.colour == CityColour::Player(player)).map(|c| c.hex).collect();
    region.extend(game.tiles().iter().filter(|t| t.owner == player).map(|t| t.hex));
    region.extend(plan.iter().chain(advised).map(|&(h, _)| h));
    if let Some((p, _)) = signalbox_solver::railways::link::min_link(game, player) {
        region.extend(p.tiles.iter().map(|&(h, _)| h));
    }
    signalbox_render::railways::picture::region_svg(game, player, plan, advised, title, &region, 2.0)
}
