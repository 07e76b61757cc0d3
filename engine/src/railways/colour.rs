//! The four player colours and the cities' colours (rulebook: Game Board, Set up).

use std::fmt;

use serde::{Deserialize, Serialize};

/// A player colour, in turn order: Blue goes first, then Yellow, Red and Purple (rulebook: Set
/// up).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    /// Blue: home city Monterrey, in the south.
    Blue,
    /// Yellow: home city Los Angeles, in the west.
    Yellow,
    /// Red: home city Minneapolis, in the north.
    Red,
    /// Purple: home city Montreal, in the east.
    Purple,
}

impl Colour {
    /// The four colours in the rulebook's turn order.
    pub const ALL: [Colour; 4] = [Colour::Blue, Colour::Yellow, Colour::Red, Colour::Purple];

    /// The colour's place in [`Colour::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The colour's name in lower case.
    pub const fn name(self) -> &'static str {
        match self {
            Colour::Blue => "blue",
            Colour::Yellow => "yellow",
            Colour::Red => "red",
            Colour::Purple => "purple",
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

impl std::str::FromStr for Colour {
    type Err = String;
    fn from_str(s: &str) -> Result<Colour, String> {
        Colour::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown colour {s:?}: expected blue, yellow, red or purple"))
    }
}

/// Who a city belongs to: nobody (gray) or one colour. Written as `gray` or the colour's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", try_from = "String")]
pub enum CityColour {
    /// A gray city: anybody may link to it, each player with at most two connections.
    Gray,
    /// A city of this player colour: only its owner may enter it.
    #[serde(untagged)]
    Player(Colour),
}

impl TryFrom<String> for CityColour {
    type Error = String;
    fn try_from(s: String) -> Result<CityColour, String> {
        if s.eq_ignore_ascii_case("gray") {
            return Ok(CityColour::Gray);
        }
        s.parse()
            .map(CityColour::Player)
            .map_err(|_| format!("unknown city colour {s:?}: expected gray, blue, yellow, red or purple"))
    }
}
