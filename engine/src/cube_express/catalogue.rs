//! The component set: read from a content file (TOML, `docs/formats/cube-express-content.md`)
//! and checked against every count and constraint of the rulebook. The embedded house set is one
//! such file.

use serde::Deserialize;

use super::colour::Colour;
use super::objective::{Condition, Objective};
use super::resource::{Resource, Resources};
use super::tile::{Centre, City, Factory, Players, Tile};
use crate::grid::square::{Cell, Sides};
pub use crate::set::{ContentError, SetSetup};

/// The embedded house set: our own components, not the publisher's (see the file's header).
pub const HOUSE_SET_TOML: &str = include_str!("../../data/cube_express/house.toml");

/// The label under which the embedded house set is named in messages.
pub const HOUSE_SET_LABEL: &str = "the house set";

/// Track tiles ("Game Components": 44 track tiles).
pub const TILES: usize = 44;
/// Objective cards ("Game Components": 14).
pub const OBJECTIVES: usize = 14;
/// Objective cards and market columns in play ("place one face up at each space above the
/// central game board"; the display has 4 tiles).
pub const COLUMNS: usize = 4;
/// Player colours, and starting tiles.
pub const COLOURS: usize = 4;
/// Spaces of the technology track.
pub const TECH_SPACES: usize = 6;
/// The largest coordinate of the start crossing and the starting tiles in a content file (the
/// rulebook sets no bound; this one keeps every cell a network can reach far from the limits of
/// the numbers).
pub const MAX_COORDINATE: i32 = 1_000_000;

/// A content file as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContentSetup {
    /// `[set]`.
    pub set: SetSetup,
    /// `[technology]`.
    pub technology: TechnologySetup,
    /// `[stock]`.
    pub stock: StockSides,
    /// `[back]`.
    pub back: BackSetup,
    /// `[start]`.
    pub start: StartSetup,
    /// `[[tile]]`.
    #[serde(default)]
    pub tile: Vec<TileSetup>,
    /// `[[objective]]`.
    #[serde(default)]
    pub objective: Vec<ObjectiveSetup>,
}

/// `[technology]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TechnologySetup {
    /// The six levels, left to right.
    pub levels: Vec<u8>,
}

/// `[stock]`: the two sides of the central board.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StockSides {
    /// The side for 2 players.
    pub two: StockSetup,
    /// The side for 3 and 4 players.
    pub more: StockSetup,
}

/// One side of the central board as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StockSetup {
    /// Victory points per space from space 0.
    pub vp: Vec<u16>,
    /// The three `$` spaces.
    pub dollars: Vec<usize>,
    /// `[majority, non_majority]` per column.
    pub objective_points: Vec<[u8; 2]>,
}

/// `[back]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BackSetup {
    /// Sides with track.
    pub tracks: String,
}

/// `[start]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartSetup {
    /// The start crossing's cell.
    pub crossing: Cell,
    /// The four starting tiles in seat order.
    #[serde(default)]
    pub tile: Vec<StartTileSetup>,
}

/// `[[start.tile]]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartTileSetup {
    /// Its colour.
    pub colour: Colour,
    /// Its cell.
    pub cell: Cell,
    /// Sides with track, as laid.
    pub tracks: String,
    /// Its city.
    pub city: CitySetup,
}

/// A city space as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CitySetup {
    /// House icons.
    pub houses: u8,
    /// Sides touched.
    pub sides: String,
}

/// A factory as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FactorySetup {
    /// Resources one delivery needs.
    pub needs: Vec<Resource>,
    /// Points of space A.
    pub a: u8,
    /// Points of space B.
    pub b: u8,
}

/// A centre action's name as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CentreSetup {
    /// Crossing.
    Crossing,
    /// Factory (with `gives`).
    Factory,
    /// Production facility (with `production`).
    Production,
    /// Train station (with `city`).
    Station,
}

/// `[[tile]]` as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TileSetup {
    /// 1 to 44.
    pub id: u8,
    /// Sides with track.
    pub tracks: String,
    /// The centre action.
    pub centre: CentreSetup,
    /// A factory centre's resource.
    pub gives: Option<Resource>,
    /// The back's icon.
    pub players: Players,
    /// Production facility.
    pub production: Option<Resource>,
    /// Factory.
    pub factory: Option<FactorySetup>,
    /// City space.
    pub city: Option<CitySetup>,
}

/// `[[objective]]` as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectiveSetup {
    /// 1 to 14.
    pub id: u8,
    /// Display name.
    pub name: String,
    /// The card's text.
    pub text: String,
    /// What the engine checks.
    pub condition: Condition,
}

/// One side of the central board, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StockTrack {
    /// Victory points per space from space 0; the last space is the maximum.
    pub vp: Vec<u16>,
    /// The three `$` spaces, ascending.
    pub dollars: [u8; 3],
    /// `(majority, non_majority)` points per column, left to right.
    pub objective_points: [(u8, u8); COLUMNS],
}

impl StockTrack {
    /// The maximum space, which ends the game.
    pub fn max(&self) -> u8 {
        (self.vp.len() - 1) as u8
    }
}

/// A starting tile, checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StartTile {
    /// Its colour.
    pub colour: Colour,
    /// Its cell.
    pub cell: Cell,
    /// Sides with track.
    pub tracks: Sides,
    /// Its city; the colour's first station stands here.
    pub city: City,
}

/// A checked component set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Content {
    /// Display name.
    pub name: String,
    /// signalbox's own set.
    pub house_set: bool,
    /// Free text.
    pub note: String,
    /// The technology track: the level with 0 to 5 stations built from it.
    pub levels: [u8; TECH_SPACES],
    /// The central board's side for 2 players.
    pub two: StockTrack,
    /// The side for 3 and 4 players.
    pub more: StockTrack,
    /// The back's tracks, unrotated.
    pub back: Sides,
    /// The start crossing's cell.
    pub crossing: Cell,
    /// The starting tiles in seat order.
    pub starts: [StartTile; COLOURS],
    /// The 44 track tiles; tile `id` at index `id - 1`.
    pub tiles: Vec<Tile>,
    /// The 14 objective cards; card `id` at index `id - 1`.
    pub objectives: Vec<Objective>,
}

impl Content {
    /// The embedded house set.
    pub fn house() -> Content {
        match Content::from_toml(HOUSE_SET_LABEL, HOUSE_SET_TOML) {
            Ok(content) => content,
            Err(e) => panic!("the embedded house set is checked by the tests: {e}"),
        }
    }

    /// Reads and checks a content file.
    pub fn from_toml(file: &str, text: &str) -> Result<Content, ContentError> {
        let setup: ContentSetup = crate::source::parse_toml(file, text)?;
        setup.check().map_err(|problems| ContentError::Invalid { file: file.to_string(), problems })
    }

    /// The board side for `players` players (a solitaire game uses the 2-player side).
    pub fn stock(&self, players: usize) -> &StockTrack {
        if players <= 2 { &self.two } else { &self.more }
    }

    /// Track tile `id`, if there is one.
    pub fn tile(&self, id: u8) -> Option<&Tile> {
        self.tiles.get(usize::from(id).wrapping_sub(1))
    }

    /// Objective card `id`, if there is one.
    pub fn objective(&self, id: u8) -> Option<&Objective> {
        self.objectives.get(usize::from(id).wrapping_sub(1))
    }
}

fn sides(field: &str, text: &str, min: usize, problems: &mut Vec<String>) -> Sides {
    match Sides::parse(text) {
        Some(s) if s.len() >= min => s,
        _ => {
            problems.push(format!("{field}: expected {min} to 4 different side letters of N, E, S, W, found {text:?}"));
            Sides::NONE
        }
    }
}

fn city(field: &str, c: &CitySetup, problems: &mut Vec<String>) -> City {
    if !(1..=3).contains(&c.houses) {
        problems.push(format!("{field}.houses: expected 1 to 3 house icons, found {}", c.houses));
    }
    City { houses: c.houses, sides: sides(&format!("{field}.sides"), &c.sides, 1, problems) }
}

fn stock(field: &str, s: &StockSetup, problems: &mut Vec<String>) -> StockTrack {
    if s.vp.len() < 6 || s.vp.len() > 100 {
        problems.push(format!("{field}.vp: expected 6 to 100 spaces, found {}", s.vp.len()));
    }
    if s.vp.windows(2).any(|w| w[1] < w[0]) {
        problems.push(format!("{field}.vp: the points must never decrease along the track"));
    }
    let max = s.vp.len().saturating_sub(1);
    let mut dollars = [0u8; 3];
    if s.dollars.len() != 3 {
        problems.push(format!("{field}.dollars: expected the three $ spaces, found {}", s.dollars.len()));
    } else {
        let mut d = s.dollars.clone();
        d.sort_unstable();
        d.dedup();
        if d.len() != 3 || d.iter().any(|&x| x <= 1 || x >= max) {
            problems.push(format!(
                "{field}.dollars: expected three different spaces above the start space 1 and below the maximum {max}, found {:?}",
                s.dollars
            ));
        } else {
            dollars = [d[0] as u8, d[1] as u8, d[2] as u8];
        }
    }
    let mut objective_points = [(0, 0); COLUMNS];
    if s.objective_points.len() != COLUMNS {
        problems.push(format!(
            "{field}.objective_points: expected {COLUMNS} pairs [majority, non_majority], found {}",
            s.objective_points.len()
        ));
    } else {
        for (i, &[maj, non]) in s.objective_points.iter().enumerate() {
            if maj < non {
                problems.push(format!(
                    "{field}.objective_points[{i}]: the majority points {maj} are below the non-majority points {non}"
                ));
            }
            objective_points[i] = (maj, non);
        }
    }
    StockTrack { vp: s.vp.clone(), dollars, objective_points }
}

impl ContentSetup {
    /// Checks every count and constraint; the checked set, or every problem found.
    pub fn check(&self) -> Result<Content, Vec<String>> {
        let mut problems = Vec::new();
        let p = &mut problems;

        let mut levels = [0u8; TECH_SPACES];
        if self.technology.levels.len() != TECH_SPACES {
            p.push(format!(
                "technology.levels: expected {TECH_SPACES} numbers (the empty space and 5 stations), found {}",
                self.technology.levels.len()
            ));
        } else if self.technology.levels[0] == 0 || self.technology.levels.windows(2).any(|w| w[1] <= w[0]) {
            p.push("technology.levels: expected strictly increasing levels of at least 1".to_string());
        } else {
            levels.copy_from_slice(&self.technology.levels);
        }
        let two = stock("stock.two", &self.stock.two, p);
        let more = stock("stock.more", &self.stock.more, p);
        let back = sides("back.tracks", &self.back.tracks, 2, p);

        let crossing = self.start.crossing;
        let far = |c: Cell| c.x.abs() > MAX_COORDINATE || c.y.abs() > MAX_COORDINATE;
        if far(crossing) {
            p.push(format!(
                "start.crossing: expected coordinates from -{MAX_COORDINATE} to {MAX_COORDINATE}, found {crossing}"
            ));
        }
        let mut starts = Vec::new();
        if self.start.tile.len() != COLOURS {
            p.push(format!("start.tile: expected {COLOURS} starting tiles, found {}", self.start.tile.len()));
        }
        for (i, s) in self.start.tile.iter().enumerate() {
            let field = format!("start.tile[{i}]");
            let tracks = sides(&format!("{field}.tracks"), &s.tracks, 1, p);
            let city = city(&format!("{field}.city"), &s.city, p);
            match s.cell.side_towards(crossing) {
                _ if far(s.cell) => p.push(format!(
                    "{field}.cell: expected coordinates from -{MAX_COORDINATE} to {MAX_COORDINATE}, found {}",
                    s.cell
                )),
                _ if far(crossing) => {}
                None => p.push(format!("{field}.cell: {} is not beside the start crossing {crossing}", s.cell)),
                Some(side) if !tracks.contains(side) => {
                    p.push(format!("{field}.tracks: no track faces the start crossing (side {})", side.letter()))
                }
                Some(_) => {}
            }
            if self.start.tile[..i].iter().any(|t| t.colour == s.colour) {
                p.push(format!("{field}.colour: {} has a starting tile already", s.colour));
            }
            if self.start.tile[..i].iter().any(|t| t.cell == s.cell) {
                p.push(format!("{field}.cell: {} holds a starting tile already", s.cell));
            }
            starts.push(StartTile { colour: s.colour, cell: s.cell, tracks, city });
        }

        let mut tiles: Vec<Option<Tile>> = vec![None; TILES];
        if self.tile.len() != TILES {
            p.push(format!("tile: expected {TILES} track tiles, found {}", self.tile.len()));
        }
        for (i, t) in self.tile.iter().enumerate() {
            let field = format!("tile[{i}] (id {})", t.id);
            let tracks = sides(&format!("{field}.tracks"), &t.tracks, 2, p);
            let centre = match t.centre {
                CentreSetup::Crossing => Centre::Crossing,
                CentreSetup::Production => Centre::Production,
                CentreSetup::Station => Centre::Station,
                CentreSetup::Factory => match t.gives {
                    Some(r) => Centre::Factory(r),
                    None => {
                        p.push(format!("{field}.gives: a factory centre needs the resource it gives"));
                        Centre::Factory(Resource::Coal)
                    }
                },
            };
            if t.gives.is_some() && t.centre != CentreSetup::Factory {
                p.push(format!("{field}.gives: only a factory centre gives a resource"));
            }
            if t.centre == CentreSetup::Production && t.production.is_none() {
                p.push(format!("{field}.production: a production centre needs its production facility"));
            }
            if t.centre == CentreSetup::Station && t.city.is_none() {
                p.push(format!("{field}.city: a station centre needs a city space"));
            }
            let factory = t.factory.as_ref().map(|f| {
                let mut needs = Resources::NONE;
                for &r in &f.needs {
                    *needs.get_mut(r) = needs.get(r).saturating_add(1);
                }
                if !(1..=3).contains(&f.needs.len()) {
                    p.push(format!("{field}.factory.needs: expected 1 to 3 resources, found {}", f.needs.len()));
                }
                if f.a < f.b {
                    p.push(format!("{field}.factory: space A ({}) is worth less than space B ({})", f.a, f.b));
                }
                Factory { needs, a: f.a, b: f.b }
            });
            let city = t.city.as_ref().map(|c| city(&format!("{field}.city"), c, p));
            let tile = Tile { id: t.id, tracks, centre, players: t.players, production: t.production, factory, city };
            match tiles.get_mut(usize::from(t.id).wrapping_sub(1)) {
                None => p.push(format!("{field}.id: expected 1 to {TILES}")),
                Some(Some(_)) => p.push(format!("{field}.id: tile {} appears twice", t.id)),
                Some(slot) => *slot = Some(tile),
            }
        }

        let mut objectives: Vec<Option<Objective>> = vec![None; OBJECTIVES];
        if self.objective.len() != OBJECTIVES {
            p.push(format!("objective: expected {OBJECTIVES} objective cards, found {}", self.objective.len()));
        }
        for (i, o) in self.objective.iter().enumerate() {
            let field = format!("objective[{i}] (id {})", o.id);
            let card = Objective { id: o.id, name: o.name.clone(), text: o.text.clone(), condition: o.condition };
            match objectives.get_mut(usize::from(o.id).wrapping_sub(1)) {
                None => p.push(format!("{field}.id: expected 1 to {OBJECTIVES}")),
                Some(Some(_)) => p.push(format!("{field}.id: objective {} appears twice", o.id)),
                Some(slot) => *slot = Some(card),
            }
        }

        if !problems.is_empty() {
            return Err(problems);
        }
        let (Ok(starts), Some(tiles), Some(objectives)) = (
            <[StartTile; COLOURS]>::try_from(starts),
            tiles.into_iter().collect::<Option<Vec<_>>>(),
            objectives.into_iter().collect::<Option<Vec<_>>>(),
        ) else {
            return Err(vec!["the tiles, objectives or starting tiles are incomplete".to_string()]);
        };
        Ok(Content {
            name: self.set.name.clone(),
            house_set: self.set.house_set,
            note: self.set.note.clone(),
            levels,
            two,
            more,
            back,
            crossing,
            starts,
            tiles,
            objectives,
        })
    }
}
