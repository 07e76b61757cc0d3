//! The maps: which base card lies where, and what lies beyond each side of each cell
//! (rulebook, "Setup" and "The Game with the USA Expansion").

use std::collections::HashMap;

use super::card::{CardKind, CardNumber};
use super::side::Side;

/// What a side of a cell faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Beyond {
    /// Another cell of the board (by index in [`Map::cells`]).
    Cell(usize),
    /// Another cell, but a blockade stands between (USA, 060 and 061): no track may cross or
    /// head for it (expansion rule d).
    Blockade(usize),
    /// The sea: open track may not head for it.
    Sea,
    /// A neighbouring country: open track may not head for it.
    Border,
    /// An edge where open track is allowed (USA, west and south: expansion rule c).
    Open,
}

impl Beyond {
    /// Whether a card may have a track ending at this side.
    pub fn allows_track(self) -> bool {
        matches!(self, Beyond::Cell(_) | Beyond::Open)
    }

    /// The neighbouring cell a train can move to across this side.
    pub fn passable_cell(self) -> Option<usize> {
        match self {
            Beyond::Cell(i) => Some(i),
            _ => None,
        }
    }

    /// A short description for messages.
    pub fn describe(self) -> &'static str {
        match self {
            Beyond::Cell(_) => "a neighbouring card",
            Beyond::Blockade(_) => "the blockade",
            Beyond::Sea => "the sea",
            Beyond::Border => "a neighbouring country",
            Beyond::Open => "an open edge",
        }
    }
}

/// One cell of a map: where it lies and what its sides face.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapCell {
    /// The base card that lies here at setup; cells are named by it (cell `009` is Berlin's).
    pub base: CardNumber,
    /// The row, 0 at the north.
    pub row: usize,
    /// The left edge of the card, in half card widths.
    pub x: i32,
    /// What each side faces, indexed by [`Side::index`].
    pub beyond: [Beyond; 6],
}

/// A validated map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    /// The id used on the command line and in positions (`germany`, `usa`).
    pub id: String,
    /// The display name.
    pub name: String,
    /// The cells, in the order of the rows.
    pub cells: Vec<MapCell>,
    /// The kinds of upgrade card played on this map.
    pub kinds: Vec<CardKind>,
    /// The base cards the first player may upgrade on the first turn (empty: any station base).
    pub first_build: Vec<CardNumber>,
    /// USA: base cards whose first upgrade gives a card (expansion rule b).
    pub west_bonus: Vec<CardNumber>,
    index: HashMap<CardNumber, usize>,
}

impl Map {
    /// A map from its cells (laid out by [`lay_rows`]) and its rules.
    pub fn new(
        id: String,
        name: String,
        cells: Vec<MapCell>,
        kinds: Vec<CardKind>,
        first_build: Vec<CardNumber>,
        west_bonus: Vec<CardNumber>,
    ) -> Map {
        let index = cells.iter().enumerate().map(|(i, c)| (c.base, i)).collect();
        Map { id, name, cells, kinds, first_build, west_bonus, index }
    }

    /// The index of the cell whose base card is `base`.
    pub fn cell_of(&self, base: CardNumber) -> Option<usize> {
        self.index.get(&base).copied()
    }

    /// Whether two cells touch (including across a blockade).
    pub fn touching(&self, a: usize, b: usize) -> Option<Side> {
        Side::ALL
            .into_iter()
            .find(|s| matches!(self.cells[a].beyond[s.index()], Beyond::Cell(c) | Beyond::Blockade(c) if c == b))
    }
}

/// Lays cards out in the brick pattern: `rows` are `(offset, base cards)` from north to south,
/// offsets in half card widths. `outer` says what lies beyond a side with no card; `blockades`
/// name pairs of neighbouring base cards with a blockade between. The caller has checked that
/// every number appears once.
pub fn lay_rows(
    rows: &[(i32, Vec<CardNumber>)],
    mut outer: impl FnMut(CardNumber, Side) -> Beyond,
    blockades: &[(CardNumber, CardNumber)],
) -> Vec<MapCell> {
    let placed: Vec<(CardNumber, usize, i32)> = rows
        .iter()
        .enumerate()
        .flat_map(|(r, (offset, cards))| cards.iter().enumerate().map(move |(i, &c)| (c, r, offset + 2 * i as i32)))
        .collect();
    let at: HashMap<(usize, i32), usize> = placed.iter().enumerate().map(|(i, &(_, r, x))| ((r, x), i)).collect();
    let blocked = |a: CardNumber, b: CardNumber| blockades.iter().any(|&(p, q)| (p, q) == (a, b) || (q, p) == (a, b));
    placed
        .iter()
        .map(|&(base, row, x)| {
            let beyond = Side::ALL.map(|side| match neighbour_slot(row, x, side).and_then(|slot| at.get(&slot)) {
                Some(&other) if blocked(base, placed[other].0) => Beyond::Blockade(other),
                Some(&other) => Beyond::Cell(other),
                None => outer(base, side),
            });
            MapCell { base, row, x, beyond }
        })
        .collect()
}

/// The `(row, x)` slot beyond `side` of a card at `row`, `x` in the brick layout, if the row exists.
pub fn neighbour_slot(row: usize, x: i32, side: Side) -> Option<(usize, i32)> {
    match side {
        Side::W => Some((row, x - 2)),
        Side::E => Some((row, x + 2)),
        Side::Nw => row.checked_sub(1).map(|r| (r, x - 1)),
        Side::Ne => row.checked_sub(1).map(|r| (r, x + 1)),
        Side::Sw => Some((row + 1, x - 1)),
        Side::Se => Some((row + 1, x + 1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brick_neighbours_face_each_other() {
        let rows =
            vec![(0, vec![CardNumber(1), CardNumber(2)]), (-1, vec![CardNumber(3), CardNumber(4), CardNumber(5)])];
        let cells = lay_rows(&rows, |_, _| Beyond::Border, &[]);
        let map = Map::new("t".into(), "t".into(), cells, vec![], vec![], vec![]);
        for (i, cell) in map.cells.iter().enumerate() {
            for side in Side::ALL {
                if let Beyond::Cell(j) = cell.beyond[side.index()] {
                    assert_eq!(map.cells[j].beyond[side.facing().index()], Beyond::Cell(i));
                }
            }
        }
        // Card 4 lies under the gap between 1 and 2: it touches both.
        let four = map.cell_of(CardNumber(4)).unwrap();
        assert_eq!(map.cells[four].beyond[Side::Nw.index()], Beyond::Cell(0));
        assert_eq!(map.cells[four].beyond[Side::Ne.index()], Beyond::Cell(1));
        assert_eq!(map.cells[0].beyond[Side::W.index()], Beyond::Border);
    }
}
