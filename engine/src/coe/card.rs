//! The double-sided cards: a board side (19 hexes) and a market side (three central squares,
//! outer squares, a yellow text box).

use super::colour::Colour;
use crate::grid::hex::{Hex, hexagon};

/// The board's radius: a hexagon of 19 hexes.
pub const RADIUS: i32 = 2;

/// Territory points by size ("End of Game": 1, 3, 6, 10 points for 1 to 4 hexes).
pub const TERRITORY_POINTS: [u32; 5] = [0, 1, 3, 6, 10];

/// One hex of a board side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoardHex {
    /// Where it lies.
    pub hex: Hex,
    /// Its colour: the colour of cube placed on it.
    pub colour: Colour,
    /// Its number: the die number needed to place a cube on it.
    pub number: u8,
}

/// A board side, validated: 19 hexes in reading order, with its territories.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// The hexes, in reading order (see [`hexagon`]).
    pub hexes: Vec<BoardHex>,
    /// For each hex (by index), the indices of its neighbours.
    pub neighbours: Vec<Vec<usize>>,
    /// The territories: groups of adjacent hexes of one colour, each a list of hex indices.
    pub territories: Vec<Vec<usize>>,
}

impl Board {
    /// A board from its hexes in reading order (colour and number), with neighbours and
    /// territories worked out. The caller has checked there are 19.
    pub fn new(cells: &[(Colour, u8)]) -> Board {
        let places = hexagon(RADIUS);
        let hexes: Vec<BoardHex> =
            places.iter().zip(cells).map(|(&hex, &(colour, number))| BoardHex { hex, colour, number }).collect();
        let neighbours: Vec<Vec<usize>> =
            hexes.iter().map(|a| (0..hexes.len()).filter(|&j| hexes[j].hex.touches(a.hex)).collect()).collect();
        let mut territory_of = vec![usize::MAX; hexes.len()];
        let mut territories: Vec<Vec<usize>> = Vec::new();
        for start in 0..hexes.len() {
            if territory_of[start] != usize::MAX {
                continue;
            }
            let id = territories.len();
            let mut members = vec![start];
            territory_of[start] = id;
            let mut i = 0;
            while i < members.len() {
                let h = members[i];
                for &n in &neighbours[h] {
                    if territory_of[n] == usize::MAX && hexes[n].colour == hexes[h].colour {
                        territory_of[n] = id;
                        members.push(n);
                    }
                }
                i += 1;
            }
            members.sort_unstable();
            territories.push(members);
        }
        Board { hexes, neighbours, territories }
    }

    /// The points all territories are worth when filled (30 on every legal board).
    pub fn territory_total(&self) -> u32 {
        self.territories.iter().map(|t| TERRITORY_POINTS.get(t.len()).copied().unwrap_or(0)).sum()
    }

    /// The hexes of a colour.
    pub fn of_colour(&self, colour: Colour) -> impl Iterator<Item = usize> + '_ {
        (0..self.hexes.len()).filter(move |&i| self.hexes[i].colour == colour)
    }
}

/// A central square of a market side: a die face and the colour of cube it gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Square {
    /// The die face, 1 to 6.
    pub face: u8,
    /// The cube colour.
    pub colour: Colour,
}

/// What a yellow text box does once its card is tucked under the board ("Cube Effects":
/// Yellow). Each kind's exact timing is ruled in `docs/rules/cubes-of-europe.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Deserialize, serde::Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Effect {
    /// At the end, `points` per placed cube of `colour`.
    PointsPerPlaced {
        /// The colour counted.
        colour: Colour,
        /// Points per cube.
        points: u32,
    },
    /// At the end, 1 point per worker instead of 1 per 2.
    PointsPerWorker,
    /// At the end, `points` more for each filled territory of `size` hexes.
    PointsPerFullTerritory {
        /// Territory size.
        size: usize,
        /// Points each.
        points: u32,
    },
    /// Each time you gain a worker, gain one more.
    WorkerBonus,
    /// The inventory holds `size` cubes.
    InventorySize {
        /// The inventory's size.
        size: usize,
    },
    /// Once per turn, modify a die by 1 without spending a worker.
    FreeShift,
    /// When gaining a cube, you may take the colour of an outer square of the same card.
    GainOuter,
    /// When you place a cube of `colour`, gain a worker.
    PlacedGainsWorker {
        /// The colour.
        colour: Colour,
    },
}

/// A market side, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Market {
    /// The three central squares.
    pub central: [Square; 3],
    /// The outer squares' colours.
    pub outer: Vec<Colour>,
    /// The yellow text box as printed.
    pub text: String,
    /// What it does.
    pub effect: Effect,
}

/// A double-sided card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Card {
    /// Its id, 1 to 9.
    pub id: u8,
    /// Display name.
    pub name: String,
    /// The board side.
    pub board: Board,
    /// The market side.
    pub market: Market,
}
