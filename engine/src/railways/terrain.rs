//! Terrain: what a hex is, and what a terrain die allows (rulebook: Description of Dice).

use std::fmt;

use serde::{Deserialize, Serialize};

/// The terrain of a hex of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Terrain {
    /// Green hexes, without bright water or mountain dots.
    Plains,
    /// Brown hexes with white dots.
    Mountain,
    /// Hexes with any bright blue water.
    Water,
}

impl Terrain {
    /// The terrain's letter in a map's rows: `p`, `m` or `w`.
    pub const fn letter(self) -> char {
        match self {
            Terrain::Plains => 'p',
            Terrain::Mountain => 'm',
            Terrain::Water => 'w',
        }
    }

    /// The terrain of a map letter, if it is one.
    pub const fn from_letter(c: char) -> Option<Terrain> {
        match c {
            'p' => Some(Terrain::Plains),
            'm' => Some(Terrain::Mountain),
            'w' => Some(Terrain::Water),
            _ => None,
        }
    }
}

impl fmt::Display for Terrain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Terrain::Plains => "plains",
            Terrain::Mountain => "mountain",
            Terrain::Water => "water",
        })
    }
}

/// A face of a terrain die: the terrain the tiles of its pair may be built on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TerrainFace {
    /// Plains only.
    Plains,
    /// Mountains only.
    Mountain,
    /// Water only.
    Water,
    /// Mountain, plains or water.
    Any,
}

impl TerrainFace {
    /// Whether a tile under this face may go on a hex of `terrain`. Building over another
    /// player's tile still needs the terrain beneath (rulebook: Build Track Tiles).
    pub const fn allows(self, terrain: Terrain) -> bool {
        matches!(
            (self, terrain),
            (TerrainFace::Any, _)
                | (TerrainFace::Plains, Terrain::Plains)
                | (TerrainFace::Mountain, Terrain::Mountain)
                | (TerrainFace::Water, Terrain::Water)
        )
    }
}

impl fmt::Display for TerrainFace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TerrainFace::Plains => "plains",
            TerrainFace::Mountain => "mountain",
            TerrainFace::Water => "water",
            TerrainFace::Any => "any",
        })
    }
}
