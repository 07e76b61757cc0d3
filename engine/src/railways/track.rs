//! Track tiles on hexes: a tile joins two of its hex's six sides (ruling G1 in
//! `docs/rules/railways-express.md`: a straight tile joins opposite sides, a curved tile two
//! sides one apart by default, or two neighbouring sides with [`Curve::Sharp`]).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::grid::hex::{DIRECTIONS, Hex};

/// The kind of a track tile (rulebook: Description of Dice).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TileKind {
    /// A straight tile.
    Straight,
    /// A curved tile.
    Curved,
}

impl fmt::Display for TileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            TileKind::Straight => "straight",
            TileKind::Curved => "curved",
        })
    }
}

/// Which sides a curved tile joins (ruling G1: the rulebook shows no tile).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Curve {
    /// Two sides with one side between them: the track turns by 60 degrees (default).
    #[default]
    Gentle,
    /// Two neighbouring sides: the track turns by 120 degrees.
    Sharp,
}

/// A side of a hex, numbered clockwise from east as [`DIRECTIONS`]: 0 east, 1 north-east,
/// 2 north-west, 3 west, 4 south-west, 5 south-east.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Side(u8);

impl Side {
    /// The six sides in order.
    pub const ALL: [Side; 6] = [Side(0), Side(1), Side(2), Side(3), Side(4), Side(5)];
    const NAMES: [&'static str; 6] = ["e", "ne", "nw", "w", "sw", "se"];

    /// Side `i` (taken modulo 6).
    pub const fn new(i: u8) -> Side {
        Side(i % 6)
    }

    /// Its number, 0 to 5.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The side facing it across the border.
    pub const fn opposite(self) -> Side {
        Side((self.0 + 3) % 6)
    }

    /// The side `k` steps clockwise (negative: anticlockwise).
    pub const fn turn(self, k: i8) -> Side {
        Side(((self.0 as i8 + k).rem_euclid(6)) as u8)
    }

    /// The hex across this side of `hex`.
    pub const fn step(self, hex: Hex) -> Hex {
        let (dq, dr) = DIRECTIONS[self.0 as usize];
        Hex::new(hex.q + dq, hex.r + dr)
    }

    /// Its name: `e`, `ne`, `nw`, `w`, `sw` or `se`.
    pub const fn name(self) -> &'static str {
        Side::NAMES[self.0 as usize]
    }
}

impl TryFrom<String> for Side {
    type Error = String;
    fn try_from(s: String) -> Result<Side, String> {
        Side::NAMES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(&s))
            .map(|i| Side(i as u8))
            .ok_or_else(|| format!("unknown side {s:?}: expected e, ne, nw, w, sw or se"))
    }
}

impl From<Side> for String {
    fn from(s: Side) -> String {
        s.name().to_string()
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The track of one tile: the two sides it joins, smaller first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "[Side; 2]", into = "[Side; 2]")]
pub struct Ends([Side; 2]);

impl Ends {
    /// The track joining `a` and `b`; `None` when they are the same side.
    pub fn new(a: Side, b: Side) -> Option<Ends> {
        match a.cmp(&b) {
            std::cmp::Ordering::Less => Some(Ends([a, b])),
            std::cmp::Ordering::Greater => Some(Ends([b, a])),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// The two sides.
    pub const fn sides(self) -> [Side; 2] {
        self.0
    }

    /// Whether the track runs to `side`.
    pub fn has(self, side: Side) -> bool {
        self.0.contains(&side)
    }

    /// The other end of the track entering at `side`.
    pub fn other(self, side: Side) -> Option<Side> {
        match self.0 {
            [a, b] if a == side => Some(b),
            [a, b] if b == side => Some(a),
            _ => None,
        }
    }

    /// The tile that lays this track under `curve`: straight for opposite sides, curved for the
    /// curve's angle; `None` for a track no tile has.
    pub fn kind(self, curve: Curve) -> Option<TileKind> {
        let [a, b] = self.0;
        let apart = (b.0 - a.0).min(6 - (b.0 - a.0));
        match (apart, curve) {
            (3, _) => Some(TileKind::Straight),
            (2, Curve::Gentle) | (1, Curve::Sharp) => Some(TileKind::Curved),
            _ => None,
        }
    }

    /// Every track a tile of `kind` can lay under `curve`: 3 straight, 6 curved.
    pub fn all(kind: TileKind, curve: Curve) -> Vec<Ends> {
        let mut out = Vec::new();
        for a in 0..6u8 {
            for b in a + 1..6 {
                let e = Ends([Side(a), Side(b)]);
                if e.kind(curve) == Some(kind) {
                    out.push(e);
                }
            }
        }
        out
    }
}

impl TryFrom<[Side; 2]> for Ends {
    type Error = String;
    fn try_from([a, b]: [Side; 2]) -> Result<Ends, String> {
        Ends::new(a, b).ok_or_else(|| format!("a track joins two different sides, not {a} and {b}"))
    }
}

impl From<Ends> for [Side; 2] {
    fn from(e: Ends) -> [Side; 2] {
        e.0
    }
}

impl fmt::Display for Ends {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&format!("{}-{}", self.0[0], self.0[1]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_straight_and_six_curved_tracks_under_either_curve() {
        for curve in [Curve::Gentle, Curve::Sharp] {
            assert_eq!(Ends::all(TileKind::Straight, curve).len(), 3);
            assert_eq!(Ends::all(TileKind::Curved, curve).len(), 6);
        }
        let gentle = Ends::new(Side::new(0), Side::new(2)).expect("two sides");
        assert_eq!(gentle.kind(Curve::Gentle), Some(TileKind::Curved));
        assert_eq!(gentle.kind(Curve::Sharp), None);
        assert_eq!(gentle.other(Side::new(2)), Some(Side::new(0)));
    }

    #[test]
    fn a_side_steps_to_the_neighbour_across_it_and_back() {
        let h = Hex::new(2, -1);
        for s in Side::ALL {
            assert!(s.step(h).touches(h));
            assert_eq!(s.opposite().step(s.step(h)), h);
        }
    }
}
