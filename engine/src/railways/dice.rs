//! The four dice: two track dice and two terrain dice, rolled together and paired one track die
//! with one terrain die (rulebook: 1. Roll All 4 Dice).

use std::fmt;

use rand::Rng;
use rand::RngExt;
use serde::{Deserialize, Serialize};

use super::terrain::TerrainFace;
use super::track::TileKind;

/// A face of a track die: the two tiles its pair builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TrackFace {
    /// Two straight tiles.
    StraightStraight,
    /// Two curved tiles.
    CurvedCurved,
    /// One straight and one curved tile.
    StraightCurved,
}

impl TrackFace {
    /// The two tiles of the face.
    pub const fn tiles(self) -> [TileKind; 2] {
        match self {
            TrackFace::StraightStraight => [TileKind::Straight, TileKind::Straight],
            TrackFace::CurvedCurved => [TileKind::Curved, TileKind::Curved],
            TrackFace::StraightCurved => [TileKind::Straight, TileKind::Curved],
        }
    }
}

impl fmt::Display for TrackFace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TrackFace::StraightStraight => "double straight",
            TrackFace::CurvedCurved => "double curved",
            TrackFace::StraightCurved => "straight & curved",
        })
    }
}

/// The six faces of each die kind (a content file may change them; the house set's are ruling
/// D1 in `docs/rules/railways-express.md`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiceFaces {
    /// The track dice's six faces.
    pub track: [TrackFace; 6],
    /// The terrain dice's six faces.
    pub terrain: [TerrainFace; 6],
}

/// The four dice as they lie: dice 0 and 1 are the track dice, 2 and 3 the terrain dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Roll {
    /// The two track dice.
    pub track: [TrackFace; 2],
    /// The two terrain dice.
    pub terrain: [TerrainFace; 2],
}

/// Which dice to roll again (a re-roll with a cube takes one or two dice; rulebook: Cubes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Die {
    /// Track die 0 or 1.
    Track(u8),
    /// Terrain die 0 or 1.
    Terrain(u8),
}

/// A die as a player names it: the first or the second track or terrain die, in the order a
/// roll writes them (`SS,CC,plains,any`: the track dice, then the terrain dice).
impl fmt::Display for Die {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Die::Track(i) => write!(f, "{} track die", if *i == 0 { "first" } else { "second" }),
            Die::Terrain(i) => write!(f, "{} terrain die", if *i == 0 { "first" } else { "second" }),
        }
    }
}

impl Roll {
    /// A roll of all four dice.
    pub fn random<R: Rng + ?Sized>(faces: &DiceFaces, rng: &mut R) -> Roll {
        let mut track = || faces.track[rng.random_range(0..6)];
        let t = [track(), track()];
        let mut terrain = || faces.terrain[rng.random_range(0..6)];
        Roll { track: t, terrain: [terrain(), terrain()] }
    }

    /// The roll a ChaCha8 generator seeded with `seed` makes: a game whose dice signalbox rolls
    /// from a seed (`railways play --seed`) draws each roll so, whatever was played before.
    pub fn seeded(faces: &DiceFaces, seed: u64) -> Roll {
        Roll::random(faces, &mut <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed))
    }

    /// This roll with `dice` rolled again by a ChaCha8 generator seeded with `seed`.
    pub fn reroll_seeded(self, faces: &DiceFaces, dice: &[Die], seed: u64) -> Roll {
        self.reroll(faces, dice, &mut <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed))
    }

    /// This roll with `dice` rolled again.
    pub fn reroll<R: Rng + ?Sized>(mut self, faces: &DiceFaces, dice: &[Die], rng: &mut R) -> Roll {
        for die in dice {
            match *die {
                Die::Track(i) => self.track[usize::from(i) & 1] = faces.track[rng.random_range(0..6)],
                Die::Terrain(i) => self.terrain[usize::from(i) & 1] = faces.terrain[rng.random_range(0..6)],
            }
        }
        self
    }

    /// The two pairs of a pairing: `crossed` false pairs first track die with first terrain die and
    /// second track die with second terrain die; true pairs them the other way (dice numbered from 0).
    pub const fn pairs(self, crossed: bool) -> [(TrackFace, TerrainFace); 2] {
        let (a, b) = if crossed { (1, 0) } else { (0, 1) };
        [(self.track[0], self.terrain[a]), (self.track[1], self.terrain[b])]
    }

    /// The four tiles a pairing allows, each with the terrain it may go on.
    pub fn slots(self, crossed: bool) -> [Slot; 4] {
        let [(t0, g0), (t1, g1)] = self.pairs(crossed);
        let [a, b] = t0.tiles();
        let [c, d] = t1.tiles();
        [
            Slot { kind: a, terrain: g0 },
            Slot { kind: b, terrain: g0 },
            Slot { kind: c, terrain: g1 },
            Slot { kind: d, terrain: g1 },
        ]
    }
}

impl fmt::Display for Roll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, {}; {}, {}", self.track[0], self.track[1], self.terrain[0], self.terrain[1])
    }
}

impl std::str::FromStr for Roll {
    type Err = String;
    /// Four faces separated by commas: the two track dice (`SS`, `CC` or `SC`, or
    /// `straight-straight`, `curved-curved`, `straight-curved`), then the two terrain dice
    /// (`plains`, `mountain`, `water`, `any`, or their first letters). Example: `SS,SC,plains,any`.
    fn from_str(s: &str) -> Result<Roll, String> {
        let parts: Vec<String> = s.split(',').map(|p| p.trim().to_ascii_lowercase()).collect();
        let [a, b, g, h] = parts.as_slice() else {
            return Err(format!("expected four faces like SS,SC,plains,any, found {s:?}"));
        };
        let track = |t: &str| match t {
            "ss" | "straight-straight" => Ok(TrackFace::StraightStraight),
            "cc" | "curved-curved" => Ok(TrackFace::CurvedCurved),
            "sc" | "cs" | "straight-curved" => Ok(TrackFace::StraightCurved),
            _ => Err(format!("{t:?} is not a track face: expected SS, CC or SC")),
        };
        let terrain = |t: &str| match t {
            "p" | "plains" => Ok(TerrainFace::Plains),
            "m" | "mountain" => Ok(TerrainFace::Mountain),
            "w" | "water" => Ok(TerrainFace::Water),
            "a" | "any" => Ok(TerrainFace::Any),
            _ => Err(format!("{t:?} is not a terrain face: expected plains, mountain, water or any")),
        };
        Ok(Roll { track: [track(a)?, track(b)?], terrain: [terrain(g)?, terrain(h)?] })
    }
}

/// One tile a paired roll allows: its kind and the terrain it may be built on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Slot {
    /// Straight or curved.
    pub kind: TileKind,
    /// The terrain die of its pair.
    pub terrain: TerrainFace,
}
