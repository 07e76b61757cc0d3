//! Positions: the cards on the board, the players' hands, shares and base cards, turn order, the
//! black engine, the decks, and a pending bonus payment. Read from JSON
//! (`docs/formats/express01-position.md`), checked once, then trusted.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::{Deserialize, Serialize};

use super::card::{Card, CardKind, CardNumber, CompanyId, Stage};
use super::catalogue::Catalogue;
use super::network::{NetCell, Network};
use super::payout::Holder;
use super::round::Length;
use super::route::{LengthRule, RouteRules};
use crate::source::{Location, SyntaxError, parse_json};

/// The embedded sample position: a built Germany network with a pending bonus payment.
pub const SAMPLE_POSITION_JSON: &str = include_str!("../../data/express01/sample-position.json");

/// The label under which the embedded sample is named in messages.
pub const SAMPLE_POSITION_LABEL: &str = "the sample position";

/// The embedded whole-game position of `express01 advise`: a turn start of a self-played game
/// (made by `signalbox_solver::express01::game_positions::advice_sample`).
pub const ADVICE_SAMPLE_JSON: &str = include_str!("../../data/express01/advice-sample.json");

/// How the CLI names the embedded advice sample.
pub const ADVICE_SAMPLE_LABEL: &str = "the sample game's position";

// ---- the file as written ----

/// A position as written in a file; [`Position::from_setup`] checks it.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionSetup {
    /// The map id.
    pub map: String,
    /// Free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Cards lying on cells; a cell not listed still holds its base card.
    #[serde(default)]
    pub board: Vec<PlacementSetup>,
    /// The players.
    #[serde(default)]
    pub players: Vec<PlayerSetup>,
    /// The name of the player who owns the black engine, if anyone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_engine: Option<String>,
    /// The decks, top card first, by deck name (`route-yellow`, `through-red`, ...). When given,
    /// every upgrade card of the map must be accounted for exactly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decks: Option<BTreeMap<String, Vec<u16>>>,
    /// How many cards at the top of each deck lie face up (cards paid or replaced go back face
    /// up, "Each card spent this way is put face up on top of the deck"); decks not named have
    /// none.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub face_up: BTreeMap<String, usize>,
    /// The round being played, from 1 ("Playing the Game"); absent: 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    /// The game length agreed ("End of the Game": short or long); absent: short.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length: Option<Length>,
    /// Whether the black engine was used this round, and so lies discarded until the next
    /// government aid ("After you have used the black engine ... you must discard it").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub black_engine_used: bool,
    /// Whether an end condition was met during this round, so that the game ends with it
    /// ("finish the current round in full"; ruling G4).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub end_reached: bool,
    /// The rule options where players could differ (`docs/rules/express-01.md`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<OptionsSetup>,
    /// A bonus payment to be made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bonus_payment: Option<PaymentSetup>,
    /// A position from the table (`docs/formats/express01-position.md`, "A game from the table";
    /// ruling T2): the order of the face-down cards of each deck was never seen. `decks` may then
    /// be left out or list only some cards (the face-up ones on top, as `face_up` counts them);
    /// every card of the map found nowhere else lies face down in its deck, and the order given
    /// below the face-up cards is not used ("Shuffle the individual decks").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub table: bool,
}

/// The rule options of a game as written; absent fields take the defaults.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct OptionsSetup {
    /// How the bonus route's length is counted (ruling R11).
    #[serde(default)]
    pub route_length: LengthRule,
    /// How often the USA expansion's bonus for reaching the West is given (ruling G8).
    #[serde(default)]
    pub west_bonus: WestBonus,
    /// Whether the two route upgrades one card pays for may both be on the same cell (ruling G7).
    #[serde(default)]
    pub same_cell_twice: SameCellTwice,
}

/// Whether one card paid may buy two route upgrades of the same cell, yellow then red
/// ("upgrade up to 2 route cards"; ruling G7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SameCellTwice {
    /// Allowed: each upgrade is checked on the board as the one before left it. Default.
    #[default]
    Allowed,
    /// Not allowed: the two route upgrades of one card are on two cells ("2 route cards").
    Forbidden,
}

/// How often the bonus for reaching the West is given (USA expansion, rule b; ruling G8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WestBonus {
    /// Once in the game, to the first player to upgrade any of the western cards ("The first
    /// player who reaches the West gets a bonus"). Default.
    #[default]
    Once,
    /// Once for each western card, to the player who upgrades it first.
    EachCard,
}

impl WestBonus {
    /// The name used in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            WestBonus::Once => "once",
            WestBonus::EachCard => "each-card",
        }
    }
}

/// The rules of a whole game: its length and the options (`docs/rules/express-01.md`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct GameRules {
    /// Short or long ("End of the Game").
    pub length: Length,
    /// How the bonus route's length is counted (R11).
    pub route: RouteRules,
    /// The bonus for reaching the West (G8).
    pub west_bonus: WestBonus,
    /// Two route upgrades of one cell for one card paid (G7).
    pub same_cell_twice: SameCellTwice,
}

impl GameRules {
    /// The rules as a position writes them.
    pub fn options(&self) -> OptionsSetup {
        OptionsSetup {
            route_length: self.route.length,
            west_bonus: self.west_bonus,
            same_cell_twice: self.same_cell_twice,
        }
    }
}

/// A deck of a position or a game: its cards bottom first (the top is the last, so that cards
/// go on and come off the top cheaply), and how many at the top lie face up.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Deck {
    /// The deck's name (`route-yellow`, ...).
    pub name: &'static str,
    /// The kind of card it holds.
    pub kind: CardKind,
    /// The stage of card it holds.
    pub stage: Stage,
    /// The cards, bottom first.
    pub cards: Vec<CardNumber>,
    /// How many cards at the top lie face up.
    pub face_up: usize,
}

impl Deck {
    /// The card at `depth` from the top.
    pub fn at(&self, depth: usize) -> Option<CardNumber> {
        self.cards.len().checked_sub(depth + 1).map(|i| self.cards[i])
    }

    /// The top card.
    pub fn top(&self) -> Option<CardNumber> {
        self.cards.last().copied()
    }
}

/// A card lying on a cell.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlacementSetup {
    /// The cell, named by its base card's number.
    pub cell: u16,
    /// The card lying there.
    pub card: u16,
    /// Whether it is turned 180 degrees.
    #[serde(default)]
    pub turned: bool,
}

/// A player as written.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerSetup {
    /// Name.
    pub name: String,
    /// The turn order card (1 to 4).
    pub turn_order: u8,
    /// Whether the turn order card shows its back ("The train has left").
    #[serde(default)]
    pub turn_taken: bool,
    /// Cards in hand.
    #[serde(default)]
    pub hand: Vec<u16>,
    /// Share cards lying in front of the player.
    #[serde(default)]
    pub shares: Vec<u16>,
    /// Optional summary of the shares per company; checked against `shares`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub share_counts: Option<BTreeMap<String, u32>>,
    /// Base cards lying face down in front of the player.
    #[serde(default)]
    pub base_cards: Vec<u16>,
}

/// A pending bonus payment as written; both fields may be left to the command line.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaymentSetup {
    /// The company sending off the train.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub company: Option<String>,
    /// The player initiating the payment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// Whether the initiator uses the black engine as one more share for the payment.
    #[serde(default)]
    pub use_black_engine: bool,
}

// ---- problems ----

/// One reason a position is not legal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PositionProblem {
    /// The map id is not in the content.
    #[error("map: `{map}` is not a map of this content (maps: {known})")]
    UnknownMap {
        /// As written.
        map: String,
        /// The maps known.
        known: String,
    },
    /// A board entry names a cell the map does not have.
    #[error("board[{entry}]: cell {cell} is not a cell of this map")]
    UnknownCell {
        /// Index in `board`.
        entry: usize,
        /// The cell.
        cell: CardNumber,
    },
    /// A cell is listed twice on the board.
    #[error("board[{entry}]: cell {cell} is already listed")]
    CellTwice {
        /// Index in `board`.
        entry: usize,
        /// The cell.
        cell: CardNumber,
    },
    /// A card number that is no card.
    #[error("{place}: card {card} is not a card of this content")]
    UnknownCard {
        /// Where.
        place: String,
        /// The number.
        card: CardNumber,
    },
    /// A card that cannot lie on this cell (wrong map, kind, or not reachable by upgrades).
    #[error("cell {cell}: card {card} cannot lie here: {reason}")]
    CardNotForCell {
        /// The cell.
        cell: CardNumber,
        /// The card.
        card: CardNumber,
        /// Why.
        reason: String,
    },
    /// An open track heads for the sea, a border or the blockade ("At the borders of the game
    /// board, however, open tracks are forbidden").
    #[error("cell {cell}: card {card}{turned} has a track heading for {beyond} at side {side}")]
    OpenTrack {
        /// The cell.
        cell: CardNumber,
        /// The card.
        card: CardNumber,
        /// " (turned)" when turned.
        turned: &'static str,
        /// The side in board orientation.
        side: String,
        /// What lies beyond.
        beyond: &'static str,
    },
    /// A card is used more often than it exists.
    #[error("card {card} is used {used} times ({places}), but the set has {copies}")]
    CardOverused {
        /// The card.
        card: CardNumber,
        /// Uses found.
        used: u32,
        /// Where.
        places: String,
        /// Copies in the set.
        copies: u16,
    },
    /// With decks given, a card is missing from the position.
    #[error("card {card} is missing: decks were given, so every card must be somewhere ({found} of {copies} found)")]
    CardMissing {
        /// The card.
        card: CardNumber,
        /// Found.
        found: u32,
        /// Copies.
        copies: u16,
    },
    /// A card in a place where cards of its kind cannot be.
    #[error("{place}: card {card} is a {kind} card and cannot be here")]
    WrongPlace {
        /// Where.
        place: String,
        /// The card.
        card: CardNumber,
        /// Its kind.
        kind: CardKind,
    },
    /// A card among a player's shares that shows no engine.
    #[error("player {player}, shares: card {card} shows no company engine, so it is not a share")]
    NotAShare {
        /// The player.
        player: String,
        /// The card.
        card: CardNumber,
    },
    /// A stated share count that differs from the share cards.
    #[error("player {player}, share_counts: {company} is given as {stated}, but the share cards hold {counted}")]
    ShareCountMismatch {
        /// The player.
        player: String,
        /// The company.
        company: String,
        /// As written.
        stated: u32,
        /// Counted from cards.
        counted: u32,
    },
    /// A company name that is not in the content.
    #[error("{place}: unknown company `{company}` (companies: {known})")]
    UnknownCompany {
        /// Where.
        place: String,
        /// As written.
        company: String,
        /// The companies.
        known: String,
    },
    /// Wrong number of players.
    #[error("players: {0} players; Express 01 is played by 1 to 4 (one player board each)")]
    PlayerCount(usize),
    /// Two players with one name.
    #[error("players: the name `{0}` is used twice")]
    DuplicatePlayer(String),
    /// Turn order cards not numbered 1 to n.
    #[error("players: turn order cards must be 1 to {players}, once each; found {found}")]
    TurnOrder {
        /// Players.
        players: usize,
        /// Numbers found.
        found: String,
    },
    /// A player name that is no player.
    #[error("{place}: no player is named `{name}`")]
    UnknownPlayer {
        /// Where.
        place: String,
        /// As written.
        name: String,
    },
    /// A deck name that is not a deck of this map.
    #[error("decks: `{deck}` is not a deck of this map (decks: {known})")]
    UnknownDeck {
        /// As written.
        deck: String,
        /// The decks.
        known: String,
    },
    /// More face-up cards than the deck holds.
    #[error("face_up: deck {deck} holds {held}, so {face_up} cards cannot lie face up")]
    FaceUp {
        /// The deck.
        deck: String,
        /// Its cards.
        held: usize,
        /// As written.
        face_up: usize,
    },
    /// Face-up cards named for a position without decks.
    #[error("face_up: given without `decks`")]
    FaceUpWithoutDecks,
    /// Round 0.
    #[error("round: rounds are numbered from 1")]
    RoundZero,
    /// The black engine both used this round and owned.
    #[error(
        "black_engine_used: a used black engine is discarded until the next government aid, so it cannot be owned by {0}"
    )]
    UsedEngineOwned(String),
    /// The initiator holds no share of the company ("You may only select a company of which
    /// you own at least one share").
    #[error("bonus payment: {player} owns no share of {company}, so cannot send off its train")]
    PaymentNoShare {
        /// The player.
        player: String,
        /// The company.
        company: String,
    },
    /// The company has no station ("and of which there is at least one station in the network").
    #[error("bonus payment: {company} has no station in the network")]
    PaymentNoStation {
        /// The company.
        company: String,
    },
    /// The initiator does not own the black engine they want to use.
    #[error("bonus payment: {player} does not own the black engine")]
    BlackEngineNotOwned {
        /// The player.
        player: String,
    },
    /// The payment is missing its company or player.
    #[error("bonus payment: no {what} given; name it in the position's `bonus_payment` or with --{what}")]
    PaymentIncomplete {
        /// `company` or `player`.
        what: &'static str,
    },
}

/// The decks of a position from the table (ruling T2): the cards listed at the top of each deck
/// that lie face up, as written; below them, face down, every card of the deck's kind and stage
/// that is nowhere else, in number order, the lowest on top (the order never seen is not used).
fn table_decks(
    catalogue: &Catalogue,
    setup: &PositionSetup,
    deck_names: &BTreeMap<&'static str, (CardKind, Stage)>,
    uses: &BTreeMap<CardNumber, Vec<String>>,
    problems: &mut Vec<PositionProblem>,
) -> Vec<Deck> {
    let mut all = Vec::new();
    for deck in setup.face_up.keys().filter(|k| !deck_names.contains_key(k.as_str())) {
        problems.push(PositionProblem::UnknownDeck {
            deck: deck.clone(),
            known: deck_names.keys().copied().collect::<Vec<_>>().join(", "),
        });
    }
    for (&name, &(kind, stage)) in deck_names {
        let listed: Vec<CardNumber> = setup
            .decks
            .as_ref()
            .and_then(|d| d.get(name))
            .map(|d| d.iter().map(|&n| CardNumber(n)).collect())
            .unwrap_or_default();
        let face_up = setup.face_up.get(name).copied().unwrap_or(0);
        if face_up > listed.len() {
            problems.push(PositionProblem::FaceUp { deck: name.to_string(), held: listed.len(), face_up });
        }
        let face_up = face_up.min(listed.len());
        // Face down: every copy of the deck's cards not used elsewhere (the listed face-up cards
        // count as used), in number order with the lowest on top.
        let mut down: Vec<CardNumber> = Vec::new();
        for card in catalogue.cards().filter(|c| c.kind == kind && c.stage == stage) {
            let used = uses.get(&card.number).map_or(0, |p| p.iter().filter(|w| !w.starts_with("deck ")).count());
            let up = listed[..face_up].iter().filter(|&&n| n == card.number).count();
            let left = usize::from(card.copies).saturating_sub(used + up);
            down.extend(std::iter::repeat_n(card.number, left));
        }
        down.sort_unstable_by(|a, b| b.cmp(a));
        let mut cards = down;
        cards.extend(listed[..face_up].iter().rev());
        all.push(Deck { name, kind, stage, cards, face_up });
    }
    all
}

/// Why a position could not be read.
#[derive(Clone, Debug, thiserror::Error)]
pub enum PositionError {
    /// Not JSON of the expected shape.
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    /// Legal JSON, illegal position; every problem is listed and the setup is kept.
    #[error("{file}: not a legal Express 01 position:\n{}", list(.problems))]
    Invalid {
        /// The file.
        file: String,
        /// Every problem.
        problems: Vec<PositionProblem>,
        /// The setup as read, for the caller to keep or repair.
        setup: Box<PositionSetup>,
    },
}

fn list(problems: &[PositionProblem]) -> String {
    crate::source::bullet_list(problems)
}

/// A setup that is not a legal position: the setup as given, and every problem found.
#[derive(Clone, Debug)]
pub struct IllegalPosition {
    /// The setup, unchanged.
    pub setup: PositionSetup,
    /// Every problem.
    pub problems: Vec<PositionProblem>,
}

// ---- the checked position ----

/// A card lying on a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// The card.
    pub card: CardNumber,
    /// Turned 180 degrees.
    pub turned: bool,
}

/// A player of a checked position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// Name.
    pub name: String,
    /// Turn order card number.
    pub turn_order: u8,
    /// Whether the turn order card shows its back.
    pub turn_taken: bool,
    /// Cards in hand.
    pub hand: Vec<CardNumber>,
    /// Share cards.
    pub shares: Vec<CardNumber>,
    /// Base cards in front of the player.
    pub base_cards: Vec<CardNumber>,
}

/// A bonus payment: who starts it, for which company, with or without the black engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Payment {
    /// The company.
    pub company: CompanyId,
    /// The initiating player (index into [`Position::players`]).
    pub player: usize,
    /// Whether the initiator uses the black engine as a share.
    pub use_black_engine: bool,
}

/// A legal Express 01 position.
#[derive(Clone, Debug)]
pub struct Position<'c> {
    catalogue: &'c Catalogue,
    map: usize,
    board: Vec<Placement>,
    players: Vec<Player>,
    black_engine: Option<usize>,
    payment: Option<PaymentSetup>,
    decks: Option<Vec<Deck>>,
    round: u32,
    rules: GameRules,
    engine_used: bool,
    end_reached: bool,
    table: bool,
}

impl<'c> Position<'c> {
    /// Reads a position from JSON text; `file` names it in messages.
    pub fn from_json(file: &str, text: &str, catalogue: &'c Catalogue) -> Result<Position<'c>, PositionError> {
        // JSON arrays would also fill a record field by field; the format asks for objects.
        let value: serde_json::Value = parse_json(file, text)?;
        objects_where_expected(&value).map_err(|message| SyntaxError { location: Location::file(file), message })?;
        let setup: PositionSetup = parse_json(file, text)?;
        Position::from_setup(setup, catalogue).map_err(|e| PositionError::Invalid {
            file: file.to_string(),
            problems: e.problems,
            setup: Box::new(e.setup),
        })
    }

    /// The embedded sample position on the given content.
    pub fn sample(catalogue: &'c Catalogue) -> Result<Position<'c>, PositionError> {
        Position::from_json(SAMPLE_POSITION_LABEL, SAMPLE_POSITION_JSON, catalogue)
    }

    /// Checks a setup; on failure returns it with every problem found.
    pub fn from_setup(setup: PositionSetup, catalogue: &'c Catalogue) -> Result<Position<'c>, Box<IllegalPosition>> {
        let mut problems = Vec::new();
        let Some((map_index, map)) = catalogue.map(&setup.map) else {
            let known = catalogue.maps.iter().map(|m| m.id.as_str()).collect::<Vec<_>>().join(", ");
            problems.push(PositionProblem::UnknownMap { map: setup.map.clone(), known });
            return Err(Box::new(IllegalPosition { setup, problems }));
        };
        let known_companies = catalogue.companies.join(", ");

        // Uses of each card, with where, for the conservation check.
        let mut uses: BTreeMap<CardNumber, Vec<String>> = BTreeMap::new();
        let card_at = |uses: &mut BTreeMap<CardNumber, Vec<String>>,
                       place: String,
                       n: u16,
                       problems: &mut Vec<PositionProblem>|
         -> Option<&'c Card> {
            let number = CardNumber(n);
            match catalogue.card(number) {
                Some(card) => {
                    uses.entry(number).or_default().push(place);
                    Some(card)
                }
                None => {
                    problems.push(PositionProblem::UnknownCard { place, card: number });
                    None
                }
            }
        };

        // The board.
        let mut board: Vec<Option<Placement>> = vec![None; map.cells.len()];
        for (entry, p) in setup.board.iter().enumerate() {
            let cell_number = CardNumber(p.cell);
            let Some(cell) = map.cell_of(cell_number) else {
                problems.push(PositionProblem::UnknownCell { entry, cell: cell_number });
                continue;
            };
            if board[cell].is_some() {
                problems.push(PositionProblem::CellTwice { entry, cell: cell_number });
                continue;
            }
            let Some(card) = card_at(&mut uses, format!("cell {cell_number}"), p.card, &mut problems) else { continue };
            let placement = Placement { card: card.number, turned: p.turned };
            if let Err(reason) = reachable(catalogue, map.cells[cell].base, placement, &map.kinds) {
                problems.push(PositionProblem::CardNotForCell { cell: cell_number, card: card.number, reason });
            } else {
                for t in &card.tracks {
                    let (a, b) = t.oriented(p.turned).ends();
                    for side in [a, b].into_iter().filter_map(|e| e.side()) {
                        let beyond = map.cells[cell].beyond[side.index()];
                        if !beyond.allows_track() {
                            problems.push(PositionProblem::OpenTrack {
                                cell: cell_number,
                                card: card.number,
                                turned: if p.turned { " (turned)" } else { "" },
                                side: side.to_string(),
                                beyond: beyond.describe(),
                            });
                        }
                    }
                }
            }
            board[cell] = Some(placement);
        }
        let board: Vec<Placement> = board
            .iter()
            .zip(&map.cells)
            .map(|(p, cell)| p.unwrap_or(Placement { card: cell.base, turned: false }))
            .collect();
        for (p, cell) in board.iter().zip(&map.cells) {
            if p.card == cell.base {
                uses.entry(cell.base).or_default().push(format!("cell {}", cell.base));
            }
        }

        // The players.
        if !(1..=4).contains(&setup.players.len()) {
            problems.push(PositionProblem::PlayerCount(setup.players.len()));
        }
        let mut names = HashSet::new();
        let mut players = Vec::new();
        for ps in &setup.players {
            if !names.insert(ps.name.as_str()) {
                problems.push(PositionProblem::DuplicatePlayer(ps.name.clone()));
            }
            let mut player = Player {
                name: ps.name.clone(),
                turn_order: ps.turn_order,
                turn_taken: ps.turn_taken,
                hand: Vec::new(),
                shares: Vec::new(),
                base_cards: Vec::new(),
            };
            for &n in &ps.hand {
                let place = format!("player {}, hand", ps.name);
                if let Some(card) = card_at(&mut uses, place.clone(), n, &mut problems) {
                    if card.kind.is_base() || !map.kinds.contains(&card.kind) {
                        problems.push(PositionProblem::WrongPlace { place, card: card.number, kind: card.kind });
                    }
                    player.hand.push(card.number);
                }
            }
            let mut counted: BTreeMap<CompanyId, u32> = BTreeMap::new();
            for &n in &ps.shares {
                if let Some(card) = card_at(&mut uses, format!("player {}, shares", ps.name), n, &mut problems) {
                    match card.share {
                        Some(share) => *counted.entry(share.company).or_default() += 1,
                        None => {
                            problems.push(PositionProblem::NotAShare { player: ps.name.clone(), card: card.number })
                        }
                    }
                    player.shares.push(card.number);
                }
            }
            if let Some(stated) = &ps.share_counts {
                for (company, &n) in stated {
                    match catalogue.company(company) {
                        None => problems.push(PositionProblem::UnknownCompany {
                            place: format!("player {}, share_counts", ps.name),
                            company: company.clone(),
                            known: known_companies.clone(),
                        }),
                        Some(c) => {
                            let have = counted.get(&c).copied().unwrap_or(0);
                            if have != n {
                                problems.push(PositionProblem::ShareCountMismatch {
                                    player: ps.name.clone(),
                                    company: company.clone(),
                                    stated: n,
                                    counted: have,
                                });
                            }
                        }
                    }
                }
                for (&c, &have) in &counted {
                    let name = catalogue.company_name(c);
                    if !stated.contains_key(name) {
                        problems.push(PositionProblem::ShareCountMismatch {
                            player: ps.name.clone(),
                            company: name.to_string(),
                            stated: 0,
                            counted: have,
                        });
                    }
                }
            }
            for &n in &ps.base_cards {
                let place = format!("player {}, base_cards", ps.name);
                if let Some(card) = card_at(&mut uses, place.clone(), n, &mut problems) {
                    if !card.kind.is_base() || card.map != Some(map_index) {
                        problems.push(PositionProblem::WrongPlace { place, card: card.number, kind: card.kind });
                    }
                    player.base_cards.push(card.number);
                }
            }
            players.push(player);
        }
        let mut orders: Vec<u8> = players.iter().map(|p| p.turn_order).collect();
        orders.sort_unstable();
        if !orders.iter().enumerate().all(|(i, &o)| usize::from(o) == i + 1) {
            problems.push(PositionProblem::TurnOrder {
                players: players.len(),
                found: orders.iter().map(u8::to_string).collect::<Vec<_>>().join(", "),
            });
        }
        let player_index = |name: &str| players.iter().position(|p| p.name == name);
        let black_engine = match &setup.black_engine {
            None => None,
            Some(name) => {
                let found = player_index(name);
                if found.is_none() {
                    problems.push(PositionProblem::UnknownPlayer { place: "black_engine".into(), name: name.clone() });
                }
                found
            }
        };

        // The decks.
        let deck_names = deck_names(&map.kinds);
        if let Some(decks) = &setup.decks {
            for (deck, cards) in decks {
                let Some(&(kind, stage)) = deck_names.get(deck.as_str()) else {
                    problems.push(PositionProblem::UnknownDeck {
                        deck: deck.clone(),
                        known: deck_names.keys().copied().collect::<Vec<_>>().join(", "),
                    });
                    continue;
                };
                for &n in cards {
                    let place = format!("deck {deck}");
                    if let Some(card) = card_at(&mut uses, place.clone(), n, &mut problems)
                        && (card.kind != kind || card.stage != stage)
                    {
                        problems.push(PositionProblem::WrongPlace { place, card: card.number, kind: card.kind });
                    }
                }
            }
        }
        for (&number, places) in &uses {
            let Some(card) = catalogue.card(number) else { continue };
            let used = places.len() as u32;
            if used > u32::from(card.copies) {
                problems.push(PositionProblem::CardOverused {
                    card: number,
                    used,
                    places: places.join(", "),
                    copies: card.copies,
                });
            }
        }
        let mut checked_decks = None;
        if setup.table {
            checked_decks = Some(table_decks(catalogue, &setup, &deck_names, &uses, &mut problems));
        } else if let Some(decks) = &setup.decks {
            let mut all = Vec::new();
            for (&name, &(kind, stage)) in &deck_names {
                // Written top first, kept bottom first.
                let cards: Vec<CardNumber> =
                    decks.get(name).map(|d| d.iter().rev().map(|&n| CardNumber(n)).collect()).unwrap_or_default();
                let face_up = setup.face_up.get(name).copied().unwrap_or(0);
                if face_up > cards.len() {
                    problems.push(PositionProblem::FaceUp { deck: name.to_string(), held: cards.len(), face_up });
                }
                all.push(Deck { name, kind, stage, cards, face_up });
            }
            for deck in setup.face_up.keys().filter(|k| !deck_names.contains_key(k.as_str())) {
                problems.push(PositionProblem::UnknownDeck {
                    deck: deck.clone(),
                    known: deck_names.keys().copied().collect::<Vec<_>>().join(", "),
                });
            }
            checked_decks = Some(all);
        } else if !setup.face_up.is_empty() {
            problems.push(PositionProblem::FaceUpWithoutDecks);
        }
        if setup.round == Some(0) {
            problems.push(PositionProblem::RoundZero);
        }
        if setup.black_engine_used
            && let Some(name) = &setup.black_engine
        {
            problems.push(PositionProblem::UsedEngineOwned(name.clone()));
        }
        let options = setup.options.unwrap_or_default();
        let rules = GameRules {
            length: setup.length.unwrap_or_default(),
            route: RouteRules { length: options.route_length },
            west_bonus: options.west_bonus,
            same_cell_twice: options.same_cell_twice,
        };
        let decks_known =
            !setup.table && setup.decks.as_ref().is_some_and(|d| d.keys().all(|k| deck_names.contains_key(k.as_str())));
        if decks_known {
            for card in catalogue.cards() {
                let of_map =
                    if card.kind.is_base() { card.map == Some(map_index) } else { map.kinds.contains(&card.kind) };
                let found = uses.get(&card.number).map_or(0, |p| p.len() as u32);
                if of_map && found < u32::from(card.copies) {
                    problems.push(PositionProblem::CardMissing { card: card.number, found, copies: card.copies });
                }
            }
        }

        let position = Position {
            catalogue,
            map: map_index,
            board,
            players,
            black_engine,
            payment: setup.bonus_payment.clone(),
            decks: checked_decks,
            round: setup.round.unwrap_or(1),
            rules,
            engine_used: setup.black_engine_used,
            end_reached: setup.end_reached,
            table: setup.table,
        };
        if let Some(ps) = &setup.bonus_payment {
            if let Some(company) = &ps.company
                && catalogue.company(company).is_none()
            {
                problems.push(PositionProblem::UnknownCompany {
                    place: "bonus_payment.company".into(),
                    company: company.clone(),
                    known: known_companies.clone(),
                });
            }
            if let Some(player) = &ps.player
                && position.player_index(player).is_none()
            {
                problems.push(PositionProblem::UnknownPlayer {
                    place: "bonus_payment.player".into(),
                    name: player.clone(),
                });
            }
            if problems.is_empty()
                && let (Some(_), Some(_)) = (&ps.company, &ps.player)
                && let Err(p) = position.payment(None, None, None)
            {
                problems.push(p);
            }
        }
        if problems.is_empty() { Ok(position) } else { Err(Box::new(IllegalPosition { setup, problems })) }
    }

    /// Whether the position is from the table: the order of the face-down cards of its decks was
    /// never seen, and they are kept in number order (ruling T2).
    pub fn is_table(&self) -> bool {
        self.table
    }

    /// The content this position uses.
    pub fn catalogue(&self) -> &'c Catalogue {
        self.catalogue
    }

    /// The map.
    pub fn map(&self) -> &'c super::map::Map {
        &self.catalogue.maps[self.map]
    }

    /// The card on each cell, in the map's cell order.
    pub fn board(&self) -> &[Placement] {
        &self.board
    }

    /// The players.
    pub fn players(&self) -> &[Player] {
        &self.players
    }

    /// The owner of the black engine.
    pub fn black_engine(&self) -> Option<usize> {
        self.black_engine
    }

    /// The decks in name order, when the position gives them.
    pub fn decks(&self) -> Option<&[Deck]> {
        self.decks.as_deref()
    }

    /// The round being played, from 1.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// The game's length and options.
    pub fn rules(&self) -> GameRules {
        self.rules
    }

    /// Whether the black engine was used this round.
    pub fn engine_used(&self) -> bool {
        self.engine_used
    }

    /// Whether an end condition was met this round (ruling G4).
    pub fn end_reached(&self) -> bool {
        self.end_reached
    }

    /// The player with this name.
    pub fn player_index(&self, name: &str) -> Option<usize> {
        self.players.iter().position(|p| p.name == name)
    }

    /// Shares of a company a player holds.
    pub fn shares_of(&self, player: usize, company: CompanyId) -> u32 {
        self.players[player]
            .shares
            .iter()
            .filter(|&&n| self.catalogue.card(n).and_then(|c| c.share).is_some_and(|s| s.company == company))
            .count() as u32
    }

    /// All issued shares of a company: the train's route length ("Determine the Route"). The
    /// black engine does not count here.
    pub fn issued_shares(&self, company: CompanyId) -> u32 {
        (0..self.players.len()).map(|p| self.shares_of(p, company)).sum()
    }

    /// The track network of the board.
    pub fn network(&self) -> Network {
        network_of(self.catalogue, self.map(), &self.board)
    }

    /// The bonus payment to make: the position's pending payment with the given overrides
    /// (company colour, player name, black engine use), checked against the rules for selecting
    /// a company ("Select a Company").
    pub fn payment(
        &self,
        company: Option<&str>,
        player: Option<&str>,
        use_black_engine: Option<bool>,
    ) -> Result<Payment, PositionProblem> {
        let pending = self.payment.clone().unwrap_or_default();
        let known = self.catalogue.companies.join(", ");
        let company_name = company
            .map(str::to_string)
            .or(pending.company)
            .ok_or(PositionProblem::PaymentIncomplete { what: "company" })?;
        let player_name = player
            .map(str::to_string)
            .or(pending.player)
            .ok_or(PositionProblem::PaymentIncomplete { what: "player" })?;
        let company = self.catalogue.company(&company_name).ok_or_else(|| PositionProblem::UnknownCompany {
            place: "bonus payment".into(),
            company: company_name.clone(),
            known,
        })?;
        let player = self.player_index(&player_name).ok_or_else(|| PositionProblem::UnknownPlayer {
            place: "bonus payment".into(),
            name: player_name.clone(),
        })?;
        if self.shares_of(player, company) == 0 {
            return Err(PositionProblem::PaymentNoShare { player: player_name, company: company_name });
        }
        if !self.network().has_station_of(company) {
            return Err(PositionProblem::PaymentNoStation { company: company_name });
        }
        let use_black_engine = use_black_engine.unwrap_or(pending.use_black_engine);
        if use_black_engine && self.black_engine != Some(player) {
            return Err(PositionProblem::BlackEngineNotOwned { player: player_name });
        }
        Ok(Payment { company, player, use_black_engine })
    }

    /// The players as holders in a payment of this company.
    pub fn holders(&self, payment: Payment) -> Vec<Holder> {
        self.players
            .iter()
            .enumerate()
            .map(|(i, p)| Holder {
                name: p.name.clone(),
                turn_order: p.turn_order,
                shares: self.shares_of(i, payment.company),
                black_engine: payment.use_black_engine && i == payment.player,
            })
            .collect()
    }
}

/// The track network of a board: each cell's card, laid as it lies. Every card on `board` must be
/// a card of the catalogue (a checked position's are).
pub fn network_of(catalogue: &Catalogue, map: &super::map::Map, board: &[Placement]) -> Network {
    let cells = map
        .cells
        .iter()
        .zip(board)
        .map(|(cell, p)| {
            // Every placed card was checked to exist.
            let card = catalogue.card(p.card);
            let base_name = catalogue.card(cell.base).and_then(|c| c.name.clone());
            NetCell {
                label: cell.base,
                name: base_name,
                card: Some(p.card),
                row: cell.row,
                x: cell.x,
                beyond: cell.beyond,
                tracks: card.map(|c| c.tracks.iter().map(|t| t.oriented(p.turned)).collect()).unwrap_or_default(),
                stations: card.map(|c| c.stations.clone()).unwrap_or_default(),
            }
        })
        .collect();
    Network::new(catalogue.companies.clone(), cells)
        .expect("the catalogue was checked: every track ends at a station its card has")
}

/// Checks that the records of a position are JSON objects, not arrays.
fn objects_where_expected(value: &serde_json::Value) -> Result<(), String> {
    use serde_json::Value;
    let object = |v: &Value, at: &str| match v {
        Value::Object(_) => Ok(()),
        other => Err(format!("field `{at}`: expected an object {{...}}, found {}", kind_of(other))),
    };
    object(value, ".")?;
    for list in ["board", "players"] {
        if let Some(Value::Array(items)) = value.get(list) {
            for (i, item) in items.iter().enumerate() {
                object(item, &format!("{list}[{i}]"))?;
                if let Some(counts) = item.get("share_counts").filter(|c| !c.is_null()) {
                    object(counts, &format!("{list}[{i}].share_counts"))?;
                }
            }
        }
    }
    for field in ["bonus_payment", "decks"] {
        if let Some(v) = value.get(field).filter(|v| !v.is_null()) {
            object(v, field)?;
        }
    }
    Ok(())
}

fn kind_of(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Null => "null",
        serde_json::Value::Object(_) => "an object",
    }
}

/// The decks of a map by name (`route-yellow`, ...): the kind and stage each holds.
pub fn deck_names(kinds: &[CardKind]) -> BTreeMap<&'static str, (CardKind, Stage)> {
    const NAMES: [(&str, CardKind, Stage); 15] = [
        ("route-yellow", CardKind::Route, Stage::Yellow),
        ("route-red", CardKind::Route, Stage::Red),
        ("route-blue", CardKind::Route, Stage::Blue),
        ("terminal-yellow", CardKind::Terminal, Stage::Yellow),
        ("terminal-red", CardKind::Terminal, Stage::Red),
        ("terminal-blue", CardKind::Terminal, Stage::Blue),
        ("through-yellow", CardKind::Through, Stage::Yellow),
        ("through-red", CardKind::Through, Stage::Red),
        ("through-blue", CardKind::Through, Stage::Blue),
        ("central-yellow", CardKind::Central, Stage::Yellow),
        ("central-red", CardKind::Central, Stage::Red),
        ("central-blue", CardKind::Central, Stage::Blue),
        ("double-yellow", CardKind::Double, Stage::Yellow),
        ("double-red", CardKind::Double, Stage::Red),
        ("double-blue", CardKind::Double, Stage::Blue),
    ];
    NAMES.iter().filter(|(_, k, _)| kinds.contains(k)).map(|&(n, k, s)| (n, (k, s))).collect()
}

/// Whether `placement` can lie on the cell of base card `base`: the card is the base itself, or
/// reached from it by a chain of listed upgrades, each keeping the tracks (and water tower
/// alignment) of the card before, ending in the given orientation.
pub fn reachable(
    catalogue: &Catalogue,
    base: CardNumber,
    placement: Placement,
    kinds: &[CardKind],
) -> Result<(), String> {
    let Some(card) = catalogue.card(placement.card) else { return Err("unknown card".into()) };
    if card.kind.is_base() {
        return if placement.card == base {
            if placement.turned { Err("a base card is never turned".into()) } else { Ok(()) }
        } else {
            Err(format!("it is a base card, and this cell's base card is {base}"))
        };
    }
    if !kinds.contains(&card.kind) {
        return Err(format!("{} cards are not played on this map", card.kind));
    }
    // Walk the upgrade chains from the base card, both orientations of each reached card.
    let mut frontier: Vec<(CardNumber, bool)> = vec![(base, false)];
    let mut seen: HashMap<(CardNumber, bool), ()> = HashMap::new();
    while let Some((n, turned)) = frontier.pop() {
        if (n, turned) == (placement.card, placement.turned) {
            return Ok(());
        }
        let Some(c) = catalogue.card(n) else { continue };
        for &u in &c.upgrades {
            let Some(next) = catalogue.card(u) else { continue };
            let orientations = if c.kind.is_base() { vec![false, true] } else { c.upgrade_orientations(turned, next) };
            for o in orientations {
                if seen.insert((u, o), ()).is_none() {
                    frontier.push((u, o));
                }
            }
        }
    }
    let any_orientation = [false, true].iter().any(|&o| seen.contains_key(&(placement.card, o)));
    Err(if any_orientation {
        "no chain of upgrades from the base card leaves it in this orientation (tracks or the water tower would not be kept)".into()
    } else {
        format!("it is not reachable from base card {base} by the cards' upgrade lists")
    })
}
