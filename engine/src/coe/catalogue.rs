//! The card set: read from a content file (TOML, `docs/formats/coe-content.md`) and checked
//! against every count and constraint of the rulebook. The embedded house set is one such file.

use serde::Deserialize;

use super::card::{Board, Card, Effect, Market, Square, TERRITORY_POINTS};
use super::colour::Colour;
pub use crate::set::SetSetup;
use crate::source::{SyntaxError, bullet_list, parse_toml};

/// The embedded house set: our own card faces, not the publisher's (see the file's header).
pub const HOUSE_SET_TOML: &str = include_str!("../../data/coe/house.toml");

/// The label under which the embedded house set is named in messages.
pub const HOUSE_SET_LABEL: &str = "the house set";

/// The number of cards ("Required Components": 9 double-sided cards).
pub const CARDS: usize = 9;

/// Row lengths of a board, north to south.
pub const ROWS: [usize; 5] = [3, 4, 5, 4, 3];

/// A content file as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContentSetup {
    /// The set's description.
    pub set: SetSetup,
    /// The cards.
    #[serde(default)]
    pub card: Vec<CardSetup>,
}

/// `[[card]]` as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardSetup {
    /// 1 to 9.
    pub id: u8,
    /// Display name.
    pub name: String,
    /// The board side.
    pub board: BoardSetup,
    /// The market side.
    pub market: MarketSetup,
}

/// `[card.board]` as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardSetup {
    /// Five rows of hexes like `"R3 B1 G6"`.
    pub rows: Vec<String>,
}

/// `[card.market]` as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MarketSetup {
    /// The three central squares.
    pub central: Vec<Square>,
    /// The outer squares' colours.
    #[serde(default)]
    pub outer: Vec<Colour>,
    /// The yellow text box.
    pub text: String,
    /// What it does.
    pub effect: Effect,
}

/// One reason a content file is not a valid card set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ContentProblem {
    /// Not nine cards.
    #[error("the set has {0} cards; the game has 9")]
    CardCount(usize),
    /// An id outside 1 to 9, or used twice.
    #[error("card {0}, field `id`: ids are 1 to 9, each once")]
    BadId(u8),
    /// A board's rows are not of 3, 4, 5, 4, 3 hexes.
    #[error("card {card}, field `board.rows`: {message}")]
    Rows {
        /// The card.
        card: u8,
        /// What is wrong.
        message: String,
    },
    /// A colour appears on the wrong number of hexes.
    #[error("card {card}, board: {found} {colour} hexes; a board has {expected} (one per cube)")]
    ColourCount {
        /// The card.
        card: u8,
        /// The colour.
        colour: Colour,
        /// Found.
        found: usize,
        /// Required.
        expected: usize,
    },
    /// Territories not worth 30 in all.
    #[error("card {card}, board: its territories are worth {total} points in all; the rulebook says always 30")]
    TerritoryTotal {
        /// The card.
        card: u8,
        /// Their worth.
        total: u32,
    },
    /// A market side's central squares are wrong.
    #[error("card {card}, field `market.central`: {message}")]
    Central {
        /// The card.
        card: u8,
        /// What is wrong.
        message: String,
    },
    /// An effect's parameter out of range.
    #[error("card {card}, field `market.effect`: {message}")]
    Effect {
        /// The card.
        card: u8,
        /// What is wrong.
        message: String,
    },
}

/// Why a content file could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ContentError {
    /// Not TOML of the expected shape.
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    /// Breaks rules; every problem is listed.
    #[error("{file}: not a valid Cubes of Europe card set:\n{}", bullet_list(.problems))]
    Invalid {
        /// The file.
        file: String,
        /// Every problem.
        problems: Vec<ContentProblem>,
    },
}

/// A validated card set.
#[derive(Clone, Debug)]
pub struct Catalogue {
    /// Display name.
    pub name: String,
    /// signalbox's own authored set.
    pub house_set: bool,
    /// Free text.
    pub note: String,
    /// The nine cards, by id (index 0 is card 1).
    pub cards: Vec<Card>,
}

impl Catalogue {
    /// The embedded house set.
    pub fn house() -> Catalogue {
        // The house set is checked by this crate's tests; a failure here is a build defect.
        #[allow(clippy::expect_used)]
        Catalogue::from_toml(HOUSE_SET_LABEL, HOUSE_SET_TOML).expect("the embedded house set is valid")
    }

    /// Reads and checks a content file's text.
    pub fn from_toml(file: &str, text: &str) -> Result<Catalogue, ContentError> {
        let setup: ContentSetup = parse_toml(file, text)?;
        Catalogue::from_setup(setup).map_err(|problems| ContentError::Invalid { file: file.to_string(), problems })
    }

    /// Checks a setup; every problem is returned.
    pub fn from_setup(setup: ContentSetup) -> Result<Catalogue, Vec<ContentProblem>> {
        let mut problems = Vec::new();
        if setup.card.len() != CARDS {
            problems.push(ContentProblem::CardCount(setup.card.len()));
        }
        let mut seen = [false; CARDS + 1];
        let mut cards = Vec::new();
        for cs in &setup.card {
            let id = cs.id;
            if !(1..=CARDS as u8).contains(&id) || std::mem::replace(&mut seen[usize::from(id)], true) {
                problems.push(ContentProblem::BadId(id));
            }
            let board = check_board(id, &cs.board, &mut problems);
            let market = check_market(id, &cs.market, &mut problems);
            if let (Some(board), Some(market)) = (board, market) {
                cards.push(Card { id, name: cs.name.clone(), board, market });
            }
        }
        cards.sort_by_key(|c| c.id);
        if problems.is_empty() {
            Ok(Catalogue { name: setup.set.name, house_set: setup.set.house_set, note: setup.set.note, cards })
        } else {
            Err(problems)
        }
    }

    /// The card with this id.
    pub fn card(&self, id: u8) -> Option<&Card> {
        self.cards.iter().find(|c| c.id == id)
    }

    /// A line saying what the set is, for outputs.
    pub fn label(&self) -> String {
        if self.house_set {
            format!("{} (house set: authored for signalbox, not the publisher's cards)", self.name)
        } else {
            self.name.clone()
        }
    }
}

fn check_board(card: u8, bs: &BoardSetup, problems: &mut Vec<ContentProblem>) -> Option<Board> {
    let mut err = |message: String| problems.push(ContentProblem::Rows { card, message });
    if bs.rows.len() != ROWS.len() {
        err(format!("{} rows; a board has 5 (of 3, 4, 5, 4, 3 hexes)", bs.rows.len()));
        return None;
    }
    let mut cells = Vec::new();
    let mut ok = true;
    for (r, (row, &len)) in bs.rows.iter().zip(&ROWS).enumerate() {
        let hexes: Vec<&str> = row.split_whitespace().collect();
        if hexes.len() != len {
            err(format!("row {} has {} hexes; it has {len}", r + 1, hexes.len()));
            ok = false;
            continue;
        }
        for (i, h) in hexes.iter().enumerate() {
            let mut chars = h.chars();
            let colour = chars.next().and_then(Colour::from_letter);
            let number = chars.as_str().parse::<u8>().ok().filter(|n| (1..=6).contains(n));
            match (colour, number) {
                (Some(c), Some(n)) => cells.push((c, n)),
                _ => {
                    err(format!(
                        "row {}, hex {}: `{h}` is not a colour letter (R, B, G, W, Y) and a number 1 to 6",
                        r + 1,
                        i + 1
                    ));
                    ok = false;
                }
            }
        }
    }
    if !ok {
        return None;
    }
    let board = Board::new(&cells);
    let before = problems.len();
    for colour in Colour::ALL {
        let found = board.of_colour(colour).count();
        if found != colour.count() {
            problems.push(ContentProblem::ColourCount { card, colour, found, expected: colour.count() });
        }
    }
    if problems.len() == before && board.territory_total() != 30 {
        problems.push(ContentProblem::TerritoryTotal { card, total: board.territory_total() });
    }
    debug_assert!(board.territories.iter().all(|t| t.len() < TERRITORY_POINTS.len()) || problems.len() > before);
    (problems.len() == before).then_some(board)
}

fn check_market(card: u8, ms: &MarketSetup, problems: &mut Vec<ContentProblem>) -> Option<Market> {
    let before = problems.len();
    if ms.central.len() != 3 {
        problems.push(ContentProblem::Central {
            card,
            message: format!("{} squares; a market side has 3", ms.central.len()),
        });
    }
    for (i, sq) in ms.central.iter().enumerate() {
        if !(1..=6).contains(&sq.face) {
            problems.push(ContentProblem::Central {
                card,
                message: format!("square {}: face {} is not 1 to 6", i + 1, sq.face),
            });
        }
    }
    match ms.effect {
        Effect::InventorySize { size } if !(1..=6).contains(&size) => {
            problems.push(ContentProblem::Effect { card, message: format!("inventory size {size} is not 1 to 6") })
        }
        Effect::PointsPerFullTerritory { size, .. } if !(1..=4).contains(&size) => {
            problems.push(ContentProblem::Effect { card, message: format!("territory size {size} is not 1 to 4") })
        }
        _ => {}
    }
    if problems.len() != before {
        return None;
    }
    let central = [ms.central[0], ms.central[1], ms.central[2]];
    Some(Market { central, outer: ms.outer.clone(), text: ms.text.clone(), effect: ms.effect })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_house_set_is_valid_and_labelled() {
        let c = Catalogue::from_toml(HOUSE_SET_LABEL, HOUSE_SET_TOML).unwrap_or_else(|e| panic!("{e}"));
        assert!(c.house_set && c.label().contains("house set"));
        assert_eq!(c.cards.len(), 9);
        for card in &c.cards {
            assert_eq!(card.board.territory_total(), 30, "card {}", card.id);
            assert_eq!(card.board.hexes.len(), 19);
        }
        // The rulebook's scoring example needs "1 point for each placed white cube".
        assert!(
            c.cards.iter().any(|k| k.market.effect == Effect::PointsPerPlaced { colour: Colour::White, points: 1 })
        );
    }

    fn problems(from: &str, to: &str) -> Vec<ContentProblem> {
        assert!(HOUSE_SET_TOML.contains(from), "fixture text `{from}` not found");
        match Catalogue::from_toml("t.toml", &HOUSE_SET_TOML.replacen(from, to, 1)) {
            Err(ContentError::Invalid { problems, .. }) => problems,
            other => panic!("expected problems, got {other:?}"),
        }
    }

    #[test]
    fn broken_sets_are_refused_with_the_card_named() {
        assert!(problems("id = 9", "id = 1").contains(&ContentProblem::BadId(1)));
        let text = HOUSE_SET_TOML;
        let at = text.find("rows = [").map(|i| i + "rows = [".len()).unwrap_or(0);
        let first_quote = text[at..].find('"').map(|i| at + i + 1).unwrap_or(0);
        // Turn the first hex of card 1 into another colour: the colour counts break.
        let hex = &text[first_quote..first_quote + 2];
        let other = if hex.starts_with('R') { "B" } else { "R" };
        let broken = format!("{}{}{}", &text[..first_quote], other, &text[first_quote + 1..]);
        match Catalogue::from_toml("t.toml", &broken) {
            Err(ContentError::Invalid { problems, .. }) => {
                assert!(
                    problems.iter().any(|p| matches!(p, ContentProblem::ColourCount { card: 1, .. })),
                    "{problems:?}"
                )
            }
            other => panic!("expected problems, got {other:?}"),
        }
    }

    #[test]
    fn a_malformed_hex_names_row_and_hex() {
        let at = HOUSE_SET_TOML.find("rows = [").unwrap_or(0);
        let q = HOUSE_SET_TOML[at..].find('"').map(|i| at + i + 1).unwrap_or(0);
        let broken = format!("{}X9{}", &HOUSE_SET_TOML[..q], &HOUSE_SET_TOML[q + 2..]);
        match Catalogue::from_toml("t.toml", &broken) {
            Err(ContentError::Invalid { problems, .. }) => {
                assert!(problems.iter().any(|p| p.to_string().contains("row 1, hex 1")), "{problems:?}")
            }
            other => panic!("expected problems, got {other:?}"),
        }
    }
}
