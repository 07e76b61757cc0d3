//! The components: the map (hexes, terrain, cities), the dice faces and the tile supply, read
//! from a content file (TOML) and checked against every count the rulebook states. The embedded
//! house map is one such file. Format: `docs/formats/railways-content.md`.

use std::collections::{BTreeMap, HashMap};

use serde::Deserialize;

use crate::grid::hex::Hex;
pub use crate::set::{ContentError, SetSetup};
use crate::source::parse_toml;

use super::colour::{CityColour, Colour};
use super::dice::{DiceFaces, TrackFace};
use super::terrain::{Terrain, TerrainFace};
use super::track::TileKind;

/// The embedded house map: our own board, not the publisher's (see the file's header).
pub const HOUSE_MAP_TOML: &str = include_str!("../../data/railways/house.toml");

/// The label under which the embedded house map is named in messages.
pub const HOUSE_MAP_LABEL: &str = "the house map";

/// Gray cities on the board (rulebook: Game Board).
pub const GRAY_CITIES: usize = 18;

/// Cities of each player colour, the home city among them (rulebook: Game Board).
pub const CITIES_PER_COLOUR: usize = 4;

/// Track tiles in the game (rulebook: Components).
pub const TRACK_TILES: u32 = 231;

// ---- the file as written ----

/// A content file as written. [`Content::from_toml`] checks it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContentSetup {
    /// What the set is.
    pub set: SetSetup,
    /// The board.
    pub map: MapSetup,
    /// The cities.
    #[serde(default)]
    pub city: Vec<CitySetup>,
    /// The dice faces.
    pub dice: DiceFaces,
    /// The tile supply.
    pub tiles: Supply,
}

/// `[map]` as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapSetup {
    /// Rows of pointy-top hexes from north to south, odd rows half a hex further east; one
    /// letter a hex: `p` plains, `m` mountain, `w` water, `.` no hex.
    pub rows: Vec<String>,
}

/// `[[city]]` as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CitySetup {
    /// The city's name.
    pub name: String,
    /// Column and row in `rows`, from 0.
    pub at: [i32; 2],
    /// Gray or a player colour.
    pub colour: CityColour,
    /// The colour's home city.
    #[serde(default)]
    pub home: bool,
}

/// `[tiles]`: the common supply of track tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Supply {
    /// Straight tiles.
    pub straight: u32,
    /// Curved tiles.
    pub curved: u32,
    /// Crossing tiles (laid over another player's tile while any is left; ruling T1).
    pub crossing: u32,
}

impl Supply {
    /// The pile a tile of `kind` is taken from: the crossing tiles for a `crossing` tile laid
    /// over another player's tile (ruling T1), else the tiles of its kind.
    pub fn pile(&mut self, kind: TileKind, crossing: bool) -> &mut u32 {
        match (crossing, kind) {
            (true, _) => &mut self.crossing,
            (false, TileKind::Straight) => &mut self.straight,
            (false, TileKind::Curved) => &mut self.curved,
        }
    }

    /// The tiles left in that pile.
    pub fn left(mut self, kind: TileKind, crossing: bool) -> u32 {
        *self.pile(kind, crossing)
    }

    /// The tiles in all.
    pub fn total(&self) -> u32 {
        self.straight + self.curved + self.crossing
    }
}

// ---- the checked content ----

/// A city's number: its place in [`Content::cities`].
pub type CityId = usize;

/// A city of the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct City {
    /// Its name.
    pub name: String,
    /// Its hex.
    pub hex: Hex,
    /// Gray or a player colour.
    pub colour: CityColour,
    /// The home city of its colour.
    pub home: bool,
}

/// The checked components of a game.
#[derive(Clone, Debug)]
pub struct Content {
    /// The set's name.
    pub name: String,
    /// Whether this is signalbox's own house map rather than a transcription.
    pub house_set: bool,
    /// Every hex of the board and its terrain (cities' hexes included).
    pub hexes: BTreeMap<Hex, Terrain>,
    /// The rows as written, for pictures: each hex's column and row.
    pub offsets: HashMap<Hex, (i32, i32)>,
    /// The cities.
    pub cities: Vec<City>,
    /// The city on a hex.
    pub city_at: HashMap<Hex, CityId>,
    /// The dice faces.
    pub dice: DiceFaces,
    /// The tile supply at the start.
    pub supply: Supply,
}

/// The axial hex of column `col`, row `row` of a map whose odd rows sit half a hex further east.
pub const fn offset_to_hex(col: i32, row: i32) -> Hex {
    Hex::new(col - (row - (row & 1)) / 2, row)
}

/// The column and row of `hex` in a map whose odd rows sit half a hex further east: the inverse
/// of [`offset_to_hex`], the one way signalbox names a hex to players, in files, messages and
/// pictures (`[5, 4]`).
pub const fn hex_to_offset(hex: Hex) -> [i32; 2] {
    [hex.q + (hex.r - (hex.r & 1)) / 2, hex.r]
}

/// A hex as players name it: `[column, row]` of the map's rows ([`hex_to_offset`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct At(pub Hex);

impl std::fmt::Display for At {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [c, r] = hex_to_offset(self.0);
        write!(f, "[{c}, {r}]")
    }
}

impl Content {
    /// The embedded house map.
    pub fn house() -> Content {
        match Content::from_toml(HOUSE_MAP_LABEL, HOUSE_MAP_TOML) {
            Ok(content) => content,
            Err(e) => panic!("the embedded house map is checked by the tests: {e}"),
        }
    }

    /// Reads and checks a content file.
    pub fn from_toml(file: &str, text: &str) -> Result<Content, ContentError> {
        let setup: ContentSetup = parse_toml(file, text)?;
        setup.check().map_err(|problems| ContentError::Invalid { file: file.to_string(), problems })
    }

    /// A content from its parts, without the rulebook's counts: small maps for tests and
    /// puzzles. Each colour that plays needs one home city; cities may not share a hex.
    pub fn from_parts(
        name: &str,
        hexes: BTreeMap<Hex, Terrain>,
        cities: Vec<City>,
        dice: DiceFaces,
        supply: Supply,
    ) -> Result<Content, String> {
        let mut city_at = HashMap::new();
        for (i, c) in cities.iter().enumerate() {
            if !hexes.contains_key(&c.hex) {
                return Err(format!("{} is on {}, not a hex of the map", c.name, At(c.hex)));
            }
            if city_at.insert(c.hex, i).is_some() {
                return Err(format!("two cities on {}", At(c.hex)));
            }
        }
        let offsets = hexes.keys().map(|&h| (h, (h.q + (h.r - (h.r & 1)) / 2, h.r))).collect();
        Ok(Content { name: name.to_string(), house_set: false, hexes, offsets, cities, city_at, dice, supply })
    }

    /// The terrain of `hex`, `None` off the board.
    pub fn terrain(&self, hex: Hex) -> Option<Terrain> {
        self.hexes.get(&hex).copied()
    }

    /// The home city of `colour`.
    pub fn home(&self, colour: Colour) -> CityId {
        self.cities
            .iter()
            .position(|c| c.home && c.colour == CityColour::Player(colour))
            .unwrap_or_else(|| unreachable!("a checked content has a home city per colour"))
    }

    /// The cities of `colour`, its home city first.
    pub fn cities_of(&self, colour: Colour) -> Vec<CityId> {
        let mut out: Vec<CityId> =
            (0..self.cities.len()).filter(|&c| self.cities[c].colour == CityColour::Player(colour)).collect();
        out.sort_by_key(|&c| !self.cities[c].home);
        out
    }

    /// The gray cities, in the file's order.
    pub fn gray_cities(&self) -> Vec<CityId> {
        (0..self.cities.len()).filter(|&c| self.cities[c].colour == CityColour::Gray).collect()
    }
}

impl ContentSetup {
    /// Checks every count and constraint; the content, or every problem found.
    pub fn check(self) -> Result<Content, Vec<String>> {
        let mut problems = Vec::new();
        let mut hexes = BTreeMap::new();
        let mut offsets = HashMap::new();
        let width = self.map.rows.first().map_or(0, |r| r.chars().count());
        if self.map.rows.is_empty() {
            problems.push("map.rows: expected at least one row".to_string());
        }
        for (row, text) in self.map.rows.iter().enumerate() {
            if text.chars().count() != width {
                problems.push(format!(
                    "map.rows[{row}]: expected {width} letters like row 0, found {}",
                    text.chars().count()
                ));
            }
            for (col, c) in text.chars().enumerate() {
                if c == '.' {
                    continue;
                }
                match Terrain::from_letter(c) {
                    Some(t) => {
                        let hex = offset_to_hex(col as i32, row as i32);
                        hexes.insert(hex, t);
                        offsets.insert(hex, (col as i32, row as i32));
                    }
                    None => problems.push(format!(
                        "map.rows[{row}], column {col}: expected p (plains), m (mountain), w (water) or . (no hex), found {c:?}"
                    )),
                }
            }
        }
        let mut cities = Vec::new();
        let mut city_at = HashMap::new();
        for (i, c) in self.city.iter().enumerate() {
            let field = format!("city[{i}] ({})", c.name);
            let hex = offset_to_hex(c.at[0], c.at[1]);
            if !hexes.contains_key(&hex) {
                problems.push(format!("{field}: at = {:?} is not a hex of the map", c.at));
            }
            if let Some(&other) = city_at.get(&hex) {
                let other: &City = &cities[other];
                problems.push(format!("{field}: at = {:?} is also the hex of {}", c.at, other.name));
            }
            if let Some(other) = cities.iter().find(|o: &&City| o.hex.touches(hex)) {
                problems.push(format!("{field}: touches {}; cities need a hex between them", other.name));
            }
            if cities.iter().any(|o: &City| o.name == c.name) {
                problems.push(format!("{field}: a second city of that name"));
            }
            if c.home && c.colour == CityColour::Gray {
                problems.push(format!("{field}: a gray city is nobody's home"));
            }
            city_at.entry(hex).or_insert(cities.len());
            cities.push(City { name: c.name.clone(), hex, colour: c.colour, home: c.home });
        }
        let gray = cities.iter().filter(|c| c.colour == CityColour::Gray).count();
        if gray != GRAY_CITIES {
            problems.push(format!("city: expected {GRAY_CITIES} gray cities, found {gray}"));
        }
        for colour in Colour::ALL {
            let of: Vec<&City> = cities.iter().filter(|c| c.colour == CityColour::Player(colour)).collect();
            if of.len() != CITIES_PER_COLOUR {
                problems.push(format!("city: expected {CITIES_PER_COLOUR} {colour} cities, found {}", of.len()));
            }
            let homes = of.iter().filter(|c| c.home).count();
            if homes != 1 {
                problems.push(format!("city: expected one {colour} home city (home = true), found {homes}"));
            }
        }
        if !self.dice.track.contains(&TrackFace::StraightStraight)
            && !self.dice.track.contains(&TrackFace::StraightCurved)
        {
            problems.push("dice.track: no face builds a straight tile".to_string());
        }
        if !self.dice.terrain.iter().any(|f| matches!(f, TerrainFace::Any))
            && [TerrainFace::Plains, TerrainFace::Mountain, TerrainFace::Water]
                .iter()
                .any(|f| !self.dice.terrain.contains(f))
        {
            problems.push("dice.terrain: some terrain can never be built on (no face allows it)".to_string());
        }
        let total = self.tiles.total();
        if total != TRACK_TILES {
            problems.push(format!(
                "tiles: expected {TRACK_TILES} track tiles in all, found {total} ({} straight, {} curved, {} crossing)",
                self.tiles.straight, self.tiles.curved, self.tiles.crossing
            ));
        }
        if problems.is_empty() {
            Ok(Content {
                name: self.set.name,
                house_set: self.set.house_set,
                hexes,
                offsets,
                cities,
                city_at,
                dice: self.dice,
                supply: self.tiles,
            })
        } else {
            Err(problems)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_house_map_has_the_rulebooks_counts_and_homes() {
        let content = Content::house();
        assert!(content.house_set);
        assert_eq!(content.gray_cities().len(), GRAY_CITIES);
        let homes = ["Monterrey", "Los Angeles", "Minneapolis", "Montreal"];
        for (colour, home) in Colour::ALL.into_iter().zip(homes) {
            let of = content.cities_of(colour);
            assert_eq!(of.len(), CITIES_PER_COLOUR);
            assert_eq!(content.cities[of[0]].name, home);
            assert_eq!(content.home(colour), of[0]);
        }
        assert_eq!(content.supply.total(), TRACK_TILES);
        // Every city is on the map with room around it.
        for c in &content.cities {
            let around = c.hex.neighbours().iter().filter(|n| content.terrain(**n).is_some()).count();
            assert!(around >= 3, "{} has {around} hexes around it", c.name);
        }
    }

    #[test]
    fn a_broken_content_file_names_every_problem() {
        let text = HOUSE_MAP_TOML.replace("straight = 100", "straight = 90").replacen("home = true", "home = false", 1);
        let e = Content::from_toml("m.toml", &text).expect_err("broken").to_string();
        assert!(e.contains("m.toml") && e.contains("expected 231 track tiles"), "{e}");
        assert!(e.contains("home city (home = true), found 0"), "{e}");
        let e = Content::from_toml("m.toml", "[set]\nname = 1").expect_err("not the format").to_string();
        assert!(e.starts_with("m.toml:2:"), "{e}");
    }
}
