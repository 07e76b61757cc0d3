//! The railway network: the tiles on the table, where a tile may be laid (rulebook, step I.1),
//! which tiles a locomotive can travel between, and the cities the city spaces form.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::catalogue::Content;
use super::tile::Face;
use crate::grid::square::Cell;

/// What lies on a cell. As JSON, `{"kind": ...}` with that kind's fields; any other field is
/// refused by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Piece {
    /// The start crossing: coal for every locomotive moving onto or over it.
    Crossing,
    /// The starting tile of the colour at this seat (index into the content's starting tiles).
    Start {
        /// Seat, 0 to 3.
        seat: u8,
    },
    /// A track tile, front side up.
    Front {
        /// Tile id.
        tile: u8,
        /// Quarter turns clockwise, 0 to 3.
        rotation: u8,
    },
    /// A track tile, back side up.
    Back {
        /// Tile id.
        tile: u8,
        /// Quarter turns clockwise, 0 to 3.
        rotation: u8,
    },
}

impl<'de> Deserialize<'de> for Piece {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Piece, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Piece;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a piece: an object with `kind` and its fields")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Piece, A::Error> {
                let (mut seat, mut tile, mut rotation) = (None, None, None);
                let t = super::tagged::read(map, "a piece", "kind", &["seat", "tile", "rotation"], |name, map| {
                    match name {
                        "seat" => seat = Some(map.next_value()?),
                        "tile" => tile = Some(map.next_value()?),
                        _ => rotation = Some(map.next_value()?),
                    }
                    Ok(())
                })?;
                match t.kind.as_str() {
                    "crossing" => t.allow(&[]).map(|()| Piece::Crossing),
                    "start" => t.allow(&["seat"]).and_then(|()| Ok(Piece::Start { seat: t.need(seat, "seat")? })),
                    "front" | "back" => {
                        t.allow(&["tile", "rotation"])?;
                        let (tile, rotation) = (t.need(tile, "tile")?, t.need(rotation, "rotation")?);
                        Ok(if t.kind == "front" {
                            Piece::Front { tile, rotation }
                        } else {
                            Piece::Back { tile, rotation }
                        })
                    }
                    _ => Err(t.unknown(&["crossing", "start", "front", "back"])),
                }
            }
        }
        d.deserialize_map(V)
    }
}

impl Piece {
    /// The face it shows, turned.
    pub fn face(self, content: &Content) -> Option<Face> {
        Some(match self {
            Piece::Crossing => Face {
                production: Some(super::resource::Resource::Coal),
                ..Face::back(crate::grid::square::Sides::ALL)
            },
            Piece::Start { seat } => {
                let s = content.starts.get(usize::from(seat))?;
                Face { city: Some(s.city), ..Face::back(s.tracks) }
            }
            Piece::Front { tile, rotation } => content.tile(tile)?.front(rotation),
            Piece::Back { tile, rotation } => {
                content.tile(tile)?;
                Face::back(content.back.rotated(rotation))
            }
        })
    }

    /// The track tile's id, for a laid track tile.
    pub const fn tile(self) -> Option<u8> {
        match self {
            Piece::Front { tile, .. } | Piece::Back { tile, .. } => Some(tile),
            Piece::Crossing | Piece::Start { .. } => None,
        }
    }
}

/// A tile on the table with the cubes and stations on it; as plain data, one entry of a
/// position's `board` (`docs/formats/cube-express-position.md`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Placed {
    /// Its cell.
    pub cell: Cell,
    /// What it is.
    pub piece: Piece,
    /// What it shows, turned: derived from `piece` and the content, so not written to files; a
    /// game computes it when it reads a position.
    #[serde(skip)]
    pub face: Face,
    /// The player (seat index) who laid it; none for the starting tiles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub laid_by: Option<u8>,
    /// The owner of its production facility (the possession marker).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<u8>,
    /// The owner of its train station.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub station: Option<u8>,
    /// Passengers per player.
    #[serde(default, skip_serializing_if = "is_empty4")]
    pub passengers: [u8; 4],
    /// The player on its factory's first space (A).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first: Option<u8>,
    /// Cubes per player on its factory's second space (B).
    #[serde(default, skip_serializing_if = "is_empty4")]
    pub later: [u8; 4],
}

fn is_empty4(x: &[u8; 4]) -> bool {
    *x == [0; 4]
}

impl Placed {
    /// A bare tile: no cubes, no station.
    pub fn new(cell: Cell, piece: Piece, face: Face, laid_by: Option<u8>) -> Placed {
        Placed {
            cell,
            piece,
            face,
            laid_by,
            owner: None,
            station: None,
            passengers: [0; 4],
            first: None,
            later: [0; 4],
        }
    }
}

/// Why a tile cannot lie on a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LayError {
    /// A tile lies there already.
    #[error("cell {0} is taken")]
    Taken(Cell),
    /// No tile is orthogonally adjacent.
    #[error("cell {0} is not beside any tile")]
    Alone(Cell),
    /// A shared side has track on one tile only.
    #[error("the {side} side at {cell} does not match its neighbour's track")]
    Mismatch {
        /// The cell.
        cell: Cell,
        /// The side, as a letter.
        side: char,
    },
    /// No track joins the network.
    #[error("no track at {0} joins the network")]
    Unjoined(Cell),
    /// The tile's city space would join two cities that both have a station.
    #[error("the tile at {0} would join two cities that both have a station")]
    JoinsStations(Cell),
}

/// What laying a tile with a city space does to the cities (rulebook, step I.1 and "Train
/// Stations": a station is worth 3 VP per house icon of its whole city).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CityGrowth {
    /// House icons of the city that holds a station before the lay (0 when none of the joined
    /// cities has one): what that station was worth a third of.
    pub station_houses: u16,
    /// House icons of the city the new space is part of after the lay: every city it joins and
    /// its own icons.
    pub houses: u16,
    /// The owner of the station in the joined cities, if any (at most one: ruling L2).
    pub station: Option<u8>,
}

impl CityGrowth {
    /// The points the existing station's owner gains: 3 per house icon the station's city gains
    /// (the icons of the other joined cities and of the new space).
    pub fn station_gain(&self) -> i32 {
        if self.station.is_some() { 3 * (i32::from(self.houses) - i32::from(self.station_houses)) } else { 0 }
    }
}

/// The cities: which tiles' city spaces form one city, its house icons and its station.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cities {
    /// For each placed tile (board order), its city's index.
    pub city_of: Vec<Option<usize>>,
    /// House icons per city.
    pub houses: Vec<u16>,
    /// Station owner per city (at most one station per city; see `docs/rules/cube-express.md`).
    pub station: Vec<Option<u8>>,
    /// Passengers per city, all players.
    pub passengers: Vec<u16>,
}

/// The tiles on the table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Board {
    placed: Vec<Placed>,
    index: HashMap<Cell, usize>,
}

impl Board {
    /// The tiles in the order they were laid (the five starting tiles first).
    pub fn tiles(&self) -> &[Placed] {
        &self.placed
    }

    /// The tile on `cell` and its index.
    pub fn at(&self, cell: Cell) -> Option<&Placed> {
        self.index.get(&cell).map(|&i| &self.placed[i])
    }

    /// The index of the tile on `cell`.
    pub fn index_of(&self, cell: Cell) -> Option<usize> {
        self.index.get(&cell).copied()
    }

    /// The tile on `cell`, to change.
    pub fn at_mut(&mut self, cell: Cell) -> Option<&mut Placed> {
        self.index.get(&cell).map(|&i| &mut self.placed[i])
    }

    /// Puts a tile down without any check (setup and positions read from files, after checks).
    pub fn put(&mut self, placed: Placed) {
        self.index.insert(placed.cell, self.placed.len());
        self.placed.push(placed);
    }

    /// The cells a locomotive on `cell` can travel onto: across each side with track that has a
    /// tile beside it.
    pub fn exits(&self, cell: Cell) -> impl Iterator<Item = Cell> + '_ {
        let tracks = self.at(cell).map(|p| p.face.tracks).unwrap_or_default();
        tracks.iter().map(move |s| cell.step(s)).filter(|c| self.index.contains_key(c))
    }

    /// The empty cells beside at least one tile, in a fixed order (by row, then column).
    pub fn frontier(&self) -> Vec<Cell> {
        let mut cells: Vec<Cell> = self
            .placed
            .iter()
            .flat_map(|p| p.cell.neighbours().map(|(_, c)| c))
            .filter(|c| !self.index.contains_key(c))
            .collect();
        cells.sort_by_key(|c| (c.y, c.x));
        cells.dedup();
        cells
    }

    /// Whether `face` may lie on `cell` (rulebook, step I.1): the cell is empty and beside a
    /// tile; on every shared side both tiles have track or neither has; at least one track joins
    /// the network; and its city space does not join two cities that both have a station.
    ///
    /// When it may and the face has a city space, what the lay does to the cities.
    pub fn check_lay(&self, cell: Cell, face: &Face) -> Result<Option<CityGrowth>, LayError> {
        if self.index.contains_key(&cell) {
            return Err(LayError::Taken(cell));
        }
        let mut beside = false;
        let mut joined = false;
        for (side, n) in cell.neighbours() {
            let Some(other) = self.at(n) else { continue };
            beside = true;
            let mine = face.tracks.contains(side);
            if mine != other.face.tracks.contains(side.opposite()) {
                return Err(LayError::Mismatch { cell, side: side.letter() });
            }
            joined |= mine;
        }
        if !beside {
            return Err(LayError::Alone(cell));
        }
        if !joined {
            return Err(LayError::Unjoined(cell));
        }
        let Some(city) = face.city else { return Ok(None) };
        let cities = self.cities();
        let joined = self.joined_cities(cell, face, &cities);
        let mut stations = joined.iter().filter(|&&c| cities.station[c].is_some());
        let with_station = stations.next().copied();
        if stations.next().is_some() {
            return Err(LayError::JoinsStations(cell));
        }
        let joined_houses: u16 = joined.iter().map(|&c| cities.houses[c]).sum();
        Ok(Some(CityGrowth {
            station_houses: with_station.map_or(0, |c| cities.houses[c]),
            houses: joined_houses + u16::from(city.houses),
            station: with_station.and_then(|c| cities.station[c]),
        }))
    }

    /// The cities a city space on `cell` would join, as city indices of `cities`.
    fn joined_cities(&self, cell: Cell, face: &Face, cities: &Cities) -> Vec<usize> {
        let Some(city) = face.city else { return Vec::new() };
        let mut joined: Vec<usize> = city
            .sides
            .iter()
            .filter_map(|side| {
                let i = self.index_of(cell.step(side))?;
                let other = self.placed[i].face.city?;
                other.sides.contains(side.opposite()).then_some(cities.city_of[i]).flatten()
            })
            .collect();
        joined.sort_unstable();
        joined.dedup();
        joined
    }

    /// The cities, computed from scratch: city spaces of tiles that touch the same shared side
    /// are one city.
    pub fn cities(&self) -> Cities {
        let n = self.placed.len();
        let mut parent: Vec<usize> = (0..n).collect();
        fn root(parent: &mut [usize], mut i: usize) -> usize {
            while parent[i] != i {
                parent[i] = parent[parent[i]];
                i = parent[i];
            }
            i
        }
        for (i, p) in self.placed.iter().enumerate() {
            let Some(city) = p.face.city else { continue };
            for side in city.sides.iter() {
                let Some(j) = self.index_of(p.cell.step(side)) else { continue };
                if self.placed[j].face.city.is_some_and(|c| c.sides.contains(side.opposite())) {
                    let (a, b) = (root(&mut parent, i), root(&mut parent, j));
                    parent[a.max(b)] = a.min(b);
                }
            }
        }
        let mut cities =
            Cities { city_of: vec![None; n], houses: Vec::new(), station: Vec::new(), passengers: Vec::new() };
        let mut number: HashMap<usize, usize> = HashMap::new();
        for (i, p) in self.placed.iter().enumerate() {
            let Some(city) = p.face.city else { continue };
            let r = root(&mut parent, i);
            let c = *number.entry(r).or_insert_with(|| {
                cities.houses.push(0);
                cities.station.push(None);
                cities.passengers.push(0);
                cities.houses.len() - 1
            });
            cities.city_of[i] = Some(c);
            cities.houses[c] += u16::from(city.houses);
            cities.passengers[c] += p.passengers.iter().map(|&x| u16::from(x)).sum::<u16>();
            if p.station.is_some() {
                cities.station[c] = p.station;
            }
        }
        cities
    }
}
