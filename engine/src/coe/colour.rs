//! The five cube colours (rulebook, "Required Components": 4 red, 4 blue, 4 green, 4 white,
//! 3 yellow cubes; the black cube marks workers).

use std::fmt;

/// A cube and hex colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    /// Red: placing one lets you place another cube at once ("Cube Effects").
    Red,
    /// Blue: placing one may gain a worker.
    Blue,
    /// Green: worth 1 point at the end.
    Green,
    /// White: placing one may gain a cube of a colour in the market.
    White,
    /// Yellow: placing one tucks the rightmost market card at the end of the turn.
    Yellow,
}

impl Colour {
    /// All colours, in the rulebook's order.
    pub const ALL: [Colour; 5] = [Colour::Red, Colour::Blue, Colour::Green, Colour::White, Colour::Yellow];

    /// How many cubes (and board hexes) of this colour there are.
    pub fn count(self) -> usize {
        if self == Colour::Yellow { 3 } else { 4 }
    }

    /// The letter used on boards in content files.
    pub fn letter(self) -> char {
        match self {
            Colour::Red => 'R',
            Colour::Blue => 'B',
            Colour::Green => 'G',
            Colour::White => 'W',
            Colour::Yellow => 'Y',
        }
    }

    /// The colour written with this letter.
    pub fn from_letter(c: char) -> Option<Colour> {
        Colour::ALL.into_iter().find(|col| col.letter() == c)
    }

    /// The lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::Blue => "blue",
            Colour::Green => "green",
            Colour::White => "white",
            Colour::Yellow => "yellow",
        }
    }

    /// Index in [`Colour::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
