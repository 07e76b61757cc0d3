//! Square grids: cells `(x, y)` with `x` growing east and `y` growing south, and the four sides
//! of a square, clockwise from north.

use std::fmt;

/// A cell of a square grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[serde(from = "[i32; 2]", into = "[i32; 2]")]
pub struct Cell {
    /// Column, growing east.
    pub x: i32,
    /// Row, growing south.
    pub y: i32,
}

impl From<[i32; 2]> for Cell {
    fn from([x, y]: [i32; 2]) -> Cell {
        Cell { x, y }
    }
}

impl From<Cell> for [i32; 2] {
    fn from(c: Cell) -> [i32; 2] {
        [c.x, c.y]
    }
}

impl Cell {
    /// The cell at `(x, y)`.
    pub const fn new(x: i32, y: i32) -> Cell {
        Cell { x, y }
    }

    /// The neighbour across `side`.
    pub fn step(self, side: Side) -> Cell {
        let (dx, dy) = side.offset();
        Cell::new(self.x + dx, self.y + dy)
    }

    /// The four orthogonal neighbours with the side each lies across, clockwise from north.
    pub fn neighbours(self) -> [(Side, Cell); 4] {
        Side::ALL.map(|s| (s, self.step(s)))
    }

    /// The side of `self` that `other` lies across, if they are orthogonal neighbours.
    pub fn side_towards(self, other: Cell) -> Option<Side> {
        Side::ALL.into_iter().find(|&s| self.step(s) == other)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}, {}]", self.x, self.y)
    }
}

/// A side of a square, clockwise from north.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    /// North (towards smaller `y`).
    N,
    /// East.
    E,
    /// South.
    S,
    /// West.
    W,
}

impl Side {
    /// The four sides, clockwise from north.
    pub const ALL: [Side; 4] = [Side::N, Side::E, Side::S, Side::W];

    /// The side's index, clockwise from north (0 to 3).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The side with the given index modulo 4.
    pub const fn from_index(i: usize) -> Side {
        Side::ALL[i % 4]
    }

    /// The side facing this one across a shared edge.
    pub const fn opposite(self) -> Side {
        Side::from_index(self.index() + 2)
    }

    /// This side after `quarter_turns` quarter turns clockwise.
    pub const fn rotated(self, quarter_turns: u8) -> Side {
        Side::from_index(self.index() + quarter_turns as usize)
    }

    /// The step `(dx, dy)` to the neighbour across this side.
    pub const fn offset(self) -> (i32, i32) {
        match self {
            Side::N => (0, -1),
            Side::E => (1, 0),
            Side::S => (0, 1),
            Side::W => (-1, 0),
        }
    }

    /// The side's letter.
    pub const fn letter(self) -> char {
        match self {
            Side::N => 'N',
            Side::E => 'E',
            Side::S => 'S',
            Side::W => 'W',
        }
    }

    /// The side named by a letter `N`, `E`, `S` or `W`.
    pub fn from_letter(c: char) -> Option<Side> {
        Side::ALL.into_iter().find(|s| s.letter() == c)
    }
}

/// A set of sides of a square, as four bits (bit `i` for the side of index `i`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Sides(u8);

impl Sides {
    /// No side.
    pub const NONE: Sides = Sides(0);
    /// All four sides.
    pub const ALL: Sides = Sides(0b1111);

    /// The sides named by letters such as `"NES"`; `None` for any other character or a repeat.
    pub fn parse(text: &str) -> Option<Sides> {
        let mut sides = Sides::NONE;
        for c in text.chars() {
            let side = Side::from_letter(c)?;
            if sides.contains(side) {
                return None;
            }
            sides = sides.with(side);
        }
        Some(sides)
    }

    /// These sides and `side`.
    pub const fn with(self, side: Side) -> Sides {
        Sides(self.0 | 1 << side.index())
    }

    /// Whether `side` is in the set.
    pub const fn contains(self, side: Side) -> bool {
        self.0 & (1 << side.index()) != 0
    }

    /// The number of sides in the set.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The set after `quarter_turns` quarter turns clockwise.
    pub const fn rotated(self, quarter_turns: u8) -> Sides {
        let r = quarter_turns % 4;
        Sides(((self.0 << r) | (self.0 >> (4 - r))) & 0b1111)
    }

    /// The sides in the set, clockwise from north.
    pub fn iter(self) -> impl Iterator<Item = Side> {
        Side::ALL.into_iter().filter(move |&s| self.contains(s))
    }
}

impl fmt::Display for Sides {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.iter().try_for_each(|s| write!(f, "{}", s.letter()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_moves_north_to_east() {
        assert_eq!(Side::N.rotated(1), Side::E);
        assert_eq!(Side::W.rotated(1), Side::N);
        let ne = Sides::parse("NE").unwrap();
        assert_eq!(ne.rotated(1), Sides::parse("ES").unwrap());
        assert_eq!(ne.rotated(3), Sides::parse("WN").unwrap());
        assert_eq!(ne.rotated(4), ne);
    }

    #[test]
    fn steps_and_opposites_agree() {
        let c = Cell::new(2, -1);
        for (side, n) in c.neighbours() {
            assert_eq!(n.step(side.opposite()), c);
            assert_eq!(c.side_towards(n), Some(side));
        }
        assert_eq!(Sides::parse("NN"), None);
        assert_eq!(Sides::parse("NX"), None);
        assert_eq!(Sides::parse("WSEN").unwrap(), Sides::ALL);
    }
}
