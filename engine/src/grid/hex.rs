//! Hexagonal grids in axial coordinates `(q, r)` (pointy or flat drawing alike): the six
//! neighbours of `(q, r)` differ by `(±1, 0)`, `(0, ±1)`, `(1, -1)` or `(-1, 1)`.

use std::fmt;

/// A hex in axial coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub struct Hex {
    /// Column.
    pub q: i32,
    /// Row.
    pub r: i32,
}

/// The six directions, clockwise from east.
pub const DIRECTIONS: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

impl Hex {
    /// The hex at `(q, r)`.
    pub const fn new(q: i32, r: i32) -> Hex {
        Hex { q, r }
    }

    /// The six neighbours, clockwise from east.
    pub fn neighbours(self) -> [Hex; 6] {
        DIRECTIONS.map(|(dq, dr)| Hex::new(self.q + dq, self.r + dr))
    }

    /// The number of steps between two hexes.
    pub fn distance(self, other: Hex) -> i32 {
        let (dq, dr) = (self.q - other.q, self.r - other.r);
        (dq.abs() + dr.abs() + (dq + dr).abs()) / 2
    }

    /// Whether two hexes touch.
    pub fn touches(self, other: Hex) -> bool {
        self.distance(other) == 1
    }
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.q, self.r)
    }
}

/// The hexes of a hexagon of the given radius around `(0, 0)`, in reading order: rows `r` from
/// `-radius` to `radius`, each from its smallest `q`. Radius 2 gives 19 hexes in rows of
/// 3, 4, 5, 4, 3.
pub fn hexagon(radius: i32) -> Vec<Hex> {
    (-radius..=radius).flat_map(|r| hexagon_row(radius, r)).collect()
}

/// The hexes of row `r` of a hexagon of the given radius, west to east.
pub fn hexagon_row(radius: i32, r: i32) -> Vec<Hex> {
    let first = (-radius).max(-radius - r);
    let last = radius.min(radius - r);
    (first..=last).map(|q| Hex::new(q, r)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radius_two_hexagon_has_rows_of_3_4_5_4_3() {
        let rows: Vec<usize> = (-2..=2).map(|r| hexagon_row(2, r).len()).collect();
        assert_eq!(rows, vec![3, 4, 5, 4, 3]);
        let all: Vec<Hex> = (-2..=2).flat_map(|r| hexagon_row(2, r)).collect();
        assert_eq!(all.len(), 19);
        assert!(all.iter().all(|h| h.distance(Hex::new(0, 0)) <= 2));
        assert_eq!(hexagon(2).len(), 19);
    }

    #[test]
    fn neighbours_are_at_distance_one_and_symmetric() {
        let h = Hex::new(1, -2);
        for n in h.neighbours() {
            assert_eq!(n.distance(h), 1);
            assert!(n.neighbours().contains(&h));
        }
        assert_eq!(Hex::new(0, 0).distance(Hex::new(2, -1)), 2);
    }
}
