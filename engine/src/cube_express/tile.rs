//! Track tiles: the front (tracks, centre action, features beside the track) and the plain back
//! (rulebook, "I. Expand the Railway Network"), and a tile as it lies on the board.

use serde::{Deserialize, Serialize};

use super::resource::{Resource, Resources};
use crate::grid::square::Sides;

/// The action in a tile's centre, taken only when the tile is played (rulebook, step I.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Centre {
    /// 2 dividends for each track connected to the crossing.
    Crossing,
    /// The resource shown, once, from the reserve into storage.
    Factory(Resource),
    /// Ownership of the tile's production facility for 1 dividend.
    Production,
    /// A train station, paid with cubes equal to the technology level.
    Station,
}

impl Centre {
    /// The centre's name as in content files.
    pub const fn name(self) -> &'static str {
        match self {
            Centre::Crossing => "crossing",
            Centre::Factory(_) => "factory",
            Centre::Production => "production",
            Centre::Station => "station",
        }
    }
}

/// A factory beside the track: what one delivery needs and the points of its two spaces
/// (rulebook, "Actions During Movement": the first supplier takes space A, later ones B).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Factory {
    /// The resources one delivery needs.
    pub needs: Resources,
    /// Victory points of the first space (A, one cube).
    pub a: u8,
    /// Victory points of the second space (B, any number of cubes).
    pub b: u8,
}

/// A city space beside the track: its house icons (3 VP each for a station in the city) and the
/// sides it touches. City spaces of two tiles touching the same shared side form one city.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct City {
    /// House icons.
    pub houses: u8,
    /// The tile sides the city space touches.
    pub sides: Sides,
}

impl City {
    /// The city space after `quarter_turns` quarter turns clockwise.
    pub const fn rotated(self, quarter_turns: u8) -> City {
        City { houses: self.houses, sides: self.sides.rotated(quarter_turns) }
    }
}

/// The player-count icon on a tile's back (rulebook, "Setup").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Players {
    /// No icon: used with any number of players.
    #[serde(rename = "all")]
    All,
    /// The 4-player-plus icon: removed with 2 players.
    #[serde(rename = "4+")]
    FourPlus,
    /// The 4-player icon: removed with 2 and 3 players.
    #[serde(rename = "4")]
    Four,
}

impl Players {
    /// Whether a tile with this icon is used with `players` players (a solitaire game, 1 player,
    /// uses the 2-player tiles).
    pub const fn used_with(self, players: usize) -> bool {
        match self {
            Players::All => true,
            Players::FourPlus => players >= 3,
            Players::Four => players >= 4,
        }
    }
}

/// One of the 44 track tiles, front side as printed (unrotated).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tile {
    /// 1 to 44.
    pub id: u8,
    /// Sides with track.
    pub tracks: Sides,
    /// The centre action.
    pub centre: Centre,
    /// The icon on the back.
    pub players: Players,
    /// The production facility beside the track, if any: its resource.
    pub production: Option<Resource>,
    /// The factory beside the track, if any.
    pub factory: Option<Factory>,
    /// The city space beside the track, if any.
    pub city: Option<City>,
}

/// A tile as it lies on the board, turned: what movement, cities and scoring see. The default
/// is a blank face (no track, nothing on it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Face {
    /// Sides with track, as laid.
    pub tracks: Sides,
    /// The centre action (none on a back side, a starting tile or the start crossing).
    pub centre: Option<Centre>,
    /// The production facility's resource; the start crossing's coal counts as one.
    pub production: Option<Resource>,
    /// The factory.
    pub factory: Option<Factory>,
    /// The city space, sides as laid.
    pub city: Option<City>,
}

impl Tile {
    /// The front side after `quarter_turns` quarter turns clockwise.
    pub fn front(&self, quarter_turns: u8) -> Face {
        Face {
            tracks: self.tracks.rotated(quarter_turns),
            centre: Some(self.centre),
            production: self.production,
            factory: self.factory,
            city: self.city.map(|c| c.rotated(quarter_turns)),
        }
    }
}

impl Face {
    /// The plain back side with `tracks` (already turned).
    pub const fn back(tracks: Sides) -> Face {
        Face { tracks, centre: None, production: None, factory: None, city: None }
    }
}
