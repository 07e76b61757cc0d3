//! The whole game as a state machine ("Playing the Game" to "Determine the Winner", and "The Game
//! with the USA Expansion"): rounds with the government aid, turns in turn order card order, the
//! three action pairs, the black engine, and the end.
//!
//! A turn is played in *steps*, each one choice: the action pair; in A) a card paid, then each
//! upgrade it buys; in B) the company of a share, each card of its price, then the share card
//! taken; in C) the company (and the black engine), then each receiver's deck; in D) the player
//! to exchange turn order cards with; and `done` to end an action. [`Game::legal`] lists the steps
//! allowed now, [`Game::play`] checks and plays one, [`Game::play_unchecked`] plays one trusted
//! step for search, and [`Game::problems`] recomputes every invariant from scratch.
//!
//! The engine does not search: the bonus route's payout ("You have to choose the route that
//! grants the highest possible bonus payment") is asked of a [`Referee`], which the solver
//! provides. The rulings are G1-G15 of `docs/rules/express-01.md`.

use std::sync::Arc;

use super::capital::{Capital, capital, stations_of};
use super::card::{Card, CardKind, CardNumber, CompanyId};
use super::catalogue::Catalogue;
use super::expand::{Upgrade, UpgradeProblem, check_upgrade};
use super::map::Map;
use super::network::Network;
use super::payout::payment_order;
use super::position::{
    Deck, GameRules, IllegalPosition, Placement, PlacementSetup, PlayerSetup, Position, PositionSetup, SameCellTwice,
    WestBonus, network_of,
};
use super::round::{self, TurnCard};
use super::route::RouteTask;

/// Decides what the bonus route must pay: the best payout of any legal route for the task, or
/// `None` when no legal route exists. The solver's exact search implements it.
pub trait Referee {
    /// The best payout of `task` on `network`.
    fn best_payout(&self, network: &Network, task: RouteTask) -> Option<u32>;
}

/// The three action pairs ("Taking Your Turn").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pair {
    /// 1st pair: A) expand the network, then B) acquire shares.
    ExpandShares,
    /// 2nd pair: B) acquire shares, then A) expand the network.
    SharesExpand,
    /// 3rd pair: C) one bonus payment, then D) change the turn order.
    BonusOrder,
}

impl Pair {
    /// All three, in the rulebook's order.
    pub const ALL: [Pair; 3] = [Pair::ExpandShares, Pair::SharesExpand, Pair::BonusOrder];

    /// The two actions, in order.
    pub fn actions(self) -> [Action; 2] {
        match self {
            Pair::ExpandShares => [Action::Expand, Action::Shares],
            Pair::SharesExpand => [Action::Shares, Action::Expand],
            Pair::BonusOrder => [Action::Bonus, Action::Order],
        }
    }

    /// `A+B`, `B+A` or `C+D`.
    pub fn name(self) -> &'static str {
        match self {
            Pair::ExpandShares => "A+B",
            Pair::SharesExpand => "B+A",
            Pair::BonusOrder => "C+D",
        }
    }
}

/// The four actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// A) Expand the network.
    Expand,
    /// B) Acquire shares.
    Shares,
    /// C) Initiate one bonus payment.
    Bonus,
    /// D) Change the turn order.
    Order,
}

impl Action {
    /// `A: expand` and so on, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Action::Expand => "A: expand",
            Action::Shares => "B: shares",
            Action::Bonus => "C: bonus payment",
            Action::Order => "D: turn order",
        }
    }
}

/// What pays one card's worth of a cost ("General Rules": cards in hand; "The Black Engine":
/// "Use it as active capital").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Spend {
    /// A card from the hand, put face up on top of its deck.
    Card(CardNumber),
    /// The black engine, then discarded until the next government aid.
    Engine,
}

/// One upgrade ("A) Expand the Network"): the card taken from its deck and laid on a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Build {
    /// The cell (index in the map's cell order).
    pub cell: usize,
    /// The upgrade card.
    pub card: CardNumber,
    /// Laid turned 180 degrees.
    pub turned: bool,
    /// Where in its deck the copy taken lies, 0 for the top ("the deck's order otherwise
    /// unchanged": with two copies in a deck, which one is taken matters).
    pub depth: usize,
}

/// Where a bought share comes from ("B) Acquire Shares").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Source {
    /// From a route deck: the card and its depth in the deck (0: top).
    Deck {
        /// The share card.
        card: CardNumber,
        /// Its depth in its deck.
        depth: usize,
    },
    /// From another player, when the decks hold no share of the company ("and only then").
    Player {
        /// The player (seat index).
        player: usize,
        /// The share card.
        card: CardNumber,
    },
}

/// One choice of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Step {
    /// Choose the action pair (at the start of a turn).
    Pair(Pair),
    /// Pay one card's worth: in A) for up to 2 route upgrades or 1 station upgrade; in B) towards
    /// the price of the share being bought.
    Pay(Spend),
    /// One upgrade, bought by the last card paid in A).
    Build(Build),
    /// Start buying a share of the company in B); its price is the company's stations.
    Buy(CompanyId),
    /// Take the share card once its price is paid.
    Take(Source),
    /// C): the company's train runs and pays `payout` (the best any route pays), with or without
    /// the black engine as one more share of the initiator.
    Bonus {
        /// The company.
        company: CompanyId,
        /// Whether the initiator uses the black engine as a share.
        engine: bool,
        /// The payout: the best route's.
        payout: u32,
    },
    /// Take the top card of a deck (index in [`Game::decks`]): a receiver of a bonus payment, or
    /// the mover's bonus for reaching the West (USA).
    Draw(usize),
    /// D): exchange turn order cards with this player (seat index).
    Swap(usize),
    /// End the current action (or decline the bonus for reaching the West).
    Done,
}

/// Which part of a turn the game is in: what the next step decides.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The start of a turn: the action pair.
    Pair,
    /// In A): pay for upgrades, build what was paid for, or end the action.
    Expand {
        /// What the last card paid still buys.
        budget: Budget,
        /// The bonus for reaching the West is due: draw or decline first.
        west: bool,
    },
    /// In B), between purchases: buy a share or end the action.
    Shares,
    /// In B): paying the price of a share of `company`.
    Buying {
        /// The company.
        company: CompanyId,
        /// Cards of the price still to pay.
        left: u32,
        /// Cards paid so far, in order (on top of their decks).
        paid: Vec<CardNumber>,
    },
    /// In B): the price paid, the share card to take.
    Taking {
        /// The company.
        company: CompanyId,
        /// The cards paid, in order: on their decks, or handed to the player whose share is taken.
        paid: Vec<CardNumber>,
        /// Whether the share comes from the decks (they hold one), or else from a player.
        from_decks: bool,
    },
    /// C): choose the company, or skip the payment.
    Bonus,
    /// C): the payment handed out; each receiver in turn takes the top card of a deck.
    Paying {
        /// The receivers still to take a card, in order.
        queue: Vec<usize>,
    },
    /// D): exchange turn order cards, or not.
    Order,
    /// The game is over.
    Over,
}

/// What a card paid in A) still buys ("upgrade up to 2 route cards, or upgrade 1 station card").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Budget {
    /// Nothing: pay a card to build.
    Spent,
    /// A fresh card: two route upgrades or one station upgrade.
    Fresh,
    /// One route upgrade left; the first was on this cell.
    OneRoute(usize),
}

/// A player in a game. The cards of each pile are kept in number order (a hand has no order), so
/// that two games holding the same cards compare equal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Seat {
    /// Name.
    pub name: String,
    /// Cards in hand, in number order.
    pub hand: Vec<CardNumber>,
    /// Share cards in front of the player, in number order.
    pub shares: Vec<CardNumber>,
    /// Base cards face down in front of the player, in number order.
    pub base_cards: Vec<CardNumber>,
}

/// Puts a card into a pile kept in number order.
fn insert_sorted(pile: &mut Vec<CardNumber>, card: CardNumber) {
    let at = pile.partition_point(|&c| c <= card);
    pile.insert(at, card);
}

/// Takes a card out of a pile kept in number order.
fn remove_sorted(pile: &mut Vec<CardNumber>, card: CardNumber) {
    if let Ok(at) = pile.binary_search(&card) {
        pile.remove(at);
    }
}

/// What a game looks up often, built once per catalogue and map.
#[derive(Debug)]
struct Tables<'c> {
    catalogue: &'c Catalogue,
    map: usize,
    /// Cards by number.
    cards: Vec<Option<&'c Card>>,
    /// Each card's deck, by number.
    deck_of: Vec<Option<u8>>,
    /// The cells of the western cards (USA rule b).
    west: Vec<usize>,
}

impl<'c> Tables<'c> {
    fn new(catalogue: &'c Catalogue, map: usize, decks: &[Deck]) -> Tables<'c> {
        let top = catalogue.cards().map(|c| usize::from(c.number.0)).max().unwrap_or(0) + 1;
        let mut cards = vec![None; top];
        let mut deck_of = vec![None; top];
        for c in catalogue.cards() {
            cards[usize::from(c.number.0)] = Some(c);
            deck_of[usize::from(c.number.0)] =
                decks.iter().position(|d| d.kind == c.kind && d.stage == c.stage).map(|i| i as u8);
        }
        let m = &catalogue.maps[map];
        let west = m.west_bonus.iter().filter_map(|&b| m.cell_of(b)).collect();
        Tables { catalogue, map, cards, deck_of, west }
    }

    fn card(&self, n: CardNumber) -> &'c Card {
        // Every card number in a game was checked against the catalogue.
        #[allow(clippy::expect_used)]
        self.cards.get(usize::from(n.0)).copied().flatten().expect("a card of the catalogue")
    }

    fn deck(&self, n: CardNumber) -> Option<usize> {
        self.deck_of.get(usize::from(n.0)).copied().flatten().map(usize::from)
    }

    fn map(&self) -> &'c Map {
        &self.catalogue.maps[self.map]
    }
}

/// Why a step cannot be played now; each names the rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StepError {
    /// The game is over.
    #[error("the game is over")]
    Over,
    /// A step of another part of the turn.
    #[error("not now: {now}")]
    NotNow {
        /// What the game expects.
        now: String,
    },
    /// The first turn's obligation.
    #[error(
        "on the first turn the first player must choose A+B and build a station (\"On turn number one, the first player ... must choose the 1st action pair and build a station\")"
    )]
    FirstTurn,
    /// A card not in the mover's hand.
    #[error("card {0} is not in the hand")]
    NotInHand(CardNumber),
    /// The black engine is not the mover's to use.
    #[error(
        "the black engine is not yours to use now (\"The black engine may be used by its owner during his turn\", once, then discarded)"
    )]
    NoEngine,
    /// Nothing paid for this upgrade.
    #[error(
        "nothing paid for this upgrade (\"For each card that you return ... you may either upgrade up to 2 route cards, or upgrade 1 station card\")"
    )]
    Unpaid,
    /// A station upgrade after a route upgrade on the same card paid.
    #[error(
        "a card paid buys up to 2 route upgrades or 1 station upgrade, not both (\"upgrade up to 2 route cards, or upgrade 1 station card\")"
    )]
    Mixed,
    /// The second route upgrade of a card paid on the cell of the first, with the option
    /// `same-cell-twice = forbidden`.
    #[error("the two route upgrades of one card are on two cells (option same-cell-twice: forbidden)")]
    SameCell,
    /// The upgrade breaks a rule of the board.
    #[error(transparent)]
    Upgrade(#[from] UpgradeProblem),
    /// No such card at that depth of its deck.
    #[error("card {card} is not at depth {depth} of deck {deck}")]
    NotInDeck {
        /// The card.
        card: CardNumber,
        /// Asked depth.
        depth: usize,
        /// The deck.
        deck: &'static str,
    },
    /// A company without a station.
    #[error("{0} has no station in the network (\"only ... companies that have at least one station in the network\")")]
    NoStation(String),
    /// Too few cards for a price.
    #[error("a share of {company} costs {price} cards and only {have} can be paid")]
    CannotPay {
        /// The company.
        company: String,
        /// The price.
        price: u32,
        /// Cards and the black engine available.
        have: u32,
    },
    /// No share of the company can be had.
    #[error(
        "no share of {0} can be taken, from the decks or from another player (\"you cannot acquire a share of that company\")"
    )]
    NoShare(String),
    /// The card taken is not a share of the company.
    #[error("card {card} is not a share of {company}")]
    NotAShare {
        /// The card.
        card: CardNumber,
        /// The company.
        company: String,
    },
    /// A share taken from a player while the decks hold one.
    #[error(
        "the decks hold a share of {0}, so none may be taken from a player (\"If there is no share of the desired company left in the decks (and only then)\")"
    )]
    DecksHoldOne(String),
    /// A share taken from the decks while they hold none.
    #[error("the decks hold no share of {0}; take it from another player")]
    DecksHoldNone(String),
    /// A share taken from the black engine's owner, oneself, or a player without it.
    #[error("{player} cannot give up share {card}: {why}")]
    CannotTakeFrom {
        /// The player.
        player: String,
        /// The card.
        card: CardNumber,
        /// Why.
        why: &'static str,
    },
    /// A bonus payment of a company the mover holds no share of.
    #[error("you own no share of {0} (\"You may only select a company of which you own at least one share\")")]
    NoShareHeld(String),
    /// No legal route.
    #[error("no legal route of {0}: the train cannot run")]
    NoRoute(String),
    /// A payout that is not the best route's.
    #[error(
        "the route must pay the most any route pays, {best}, not {stated} (\"You have to choose the route that grants the highest possible bonus payment\")"
    )]
    Payout {
        /// As stated.
        stated: u32,
        /// The best.
        best: u32,
    },
    /// An empty deck, or no such deck.
    #[error("deck {0} is empty")]
    EmptyDeck(String),
    /// No such deck.
    #[error("no deck {0}")]
    NoDeck(usize),
    /// An exchange with oneself or nobody.
    #[error("exchange turn order cards with another player (\"the turn order card of any other player\")")]
    SwapWith,
    /// A card told for a draw whose top card is known, and is another.
    #[error("the top card of {deck} is {top}, not {card}")]
    TopIs {
        /// The deck.
        deck: &'static str,
        /// Its top card.
        top: CardNumber,
        /// The card told.
        card: CardNumber,
    },
    /// A card told for a draw from face-down cards that is not among them.
    #[error(
        "card {card} cannot come from {deck}: it is not among its face-down cards (each card exists as often as the box holds it; the others are on the board, in a hand, in front of a player or face up); it is one of {could}"
    )]
    CannotCome {
        /// The deck.
        deck: &'static str,
        /// The card told.
        card: CardNumber,
        /// The cards that could come, by number.
        could: String,
    },
    /// A draw from face-down cards in a game from the table, with no card told.
    #[error(
        "the card drawn from {0} is not told: at the table each card drawn from face-down cards is named as it comes (`draw {0} 212`)"
    )]
    Untold(&'static str),
    /// The purchase of a share that would leave no share to take.
    #[error(
        "after this card no share of {0} could be taken: the decks would hold none and no other player may give one up"
    )]
    LastPay(String),
}

/// Why a game cannot start from a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// A whole game needs the decks.
    #[error("a whole game needs the decks: the position gives none (`decks`, docs/formats/express01-position.md)")]
    NoDecks,
    /// The position has fewer than 2 players.
    #[error("a whole game needs 2 to 4 players; the position has {0}")]
    Players(usize),
}

/// A game of Express 01: the whole state, and where in a turn it is.
#[derive(Clone, Debug)]
pub struct Game<'c> {
    t: Arc<Tables<'c>>,
    rules: GameRules,
    board: Vec<Placement>,
    seats: Vec<Seat>,
    cards: Vec<TurnCard>,
    decks: Vec<Deck>,
    engine: Option<usize>,
    engine_used: bool,
    round: u32,
    end_reached: bool,
    phase: Phase,
    mover: usize,
    pair: Option<Pair>,
    /// 0 in the pair's first action, 1 in its second.
    part: u8,
    /// Running counts, checked by [`Game::problems`]: each company's stations on the board.
    stations: Vec<u32>,
    /// Each player's shares of each company.
    holdings: Vec<Vec<u32>>,
    /// Cells whose card is no longer the base card.
    upgraded: usize,
    /// A game from the table: the face-down cards of each deck are kept in number order, the
    /// lowest on top, because their order was never seen; each card drawn from them is told as it
    /// comes ([`Game::reveal`], ruling T2). Not part of the state compared.
    table: bool,
}

impl<'c> Game<'c> {
    /// A game from a checked position (which must give the decks). A position whose turn order
    /// cards all show their backs is at the end of a round: the game ends there if an end
    /// condition was met, or else the next round begins with the government aid (ruling G13).
    pub fn from_position(position: &Position<'c>) -> Result<Game<'c>, GameError> {
        let decks = position.decks().ok_or(GameError::NoDecks)?;
        if !(2..=4).contains(&position.players().len()) {
            return Err(GameError::Players(position.players().len()));
        }
        let catalogue = position.catalogue();
        let map_index = catalogue.maps.iter().position(|m| std::ptr::eq(m, position.map())).unwrap_or(0);
        let decks: Vec<Deck> = decks.to_vec();
        let t = Arc::new(Tables::new(catalogue, map_index, &decks));
        let seats = position
            .players()
            .iter()
            .map(|p| Seat {
                name: p.name.clone(),
                hand: sorted(&p.hand),
                shares: sorted(&p.shares),
                base_cards: sorted(&p.base_cards),
            })
            .collect();
        let cards =
            position.players().iter().map(|p| TurnCard { number: p.turn_order, flipped: p.turn_taken }).collect();
        let mut game = Game {
            t,
            rules: position.rules(),
            board: position.board().to_vec(),
            seats,
            cards,
            decks,
            engine: position.black_engine(),
            engine_used: position.engine_used(),
            round: position.round(),
            end_reached: position.end_reached(),
            phase: Phase::Pair,
            mover: 0,
            pair: None,
            part: 0,
            stations: Vec::new(),
            holdings: Vec::new(),
            upgraded: 0,
            table: position.is_table(),
        };
        game.recount();
        match round::to_move(&game.cards) {
            Some(m) => game.mover = m,
            None => game.end_round(),
        }
        Ok(game)
    }

    /// Recomputes the running counts from the cards.
    fn recount(&mut self) {
        let companies = self.t.catalogue.companies.len();
        let mut stations = vec![0u32; companies];
        let mut upgraded = 0;
        for (p, cell) in self.board.iter().zip(&self.t.map().cells) {
            upgraded += usize::from(p.card != cell.base);
            for s in &self.t.card(p.card).stations {
                if let Some(c) = s.company {
                    stations[usize::from(c.0)] += 1;
                }
            }
        }
        let holdings = self
            .seats
            .iter()
            .map(|s| {
                let mut h = vec![0u32; companies];
                for &n in &s.shares {
                    if let Some(share) = self.t.card(n).share {
                        h[usize::from(share.company.0)] += 1;
                    }
                }
                h
            })
            .collect();
        self.stations = stations;
        self.holdings = holdings;
        self.upgraded = upgraded;
    }

    // ---- what the game shows ----

    /// The content.
    pub fn catalogue(&self) -> &'c Catalogue {
        self.t.catalogue
    }

    /// The map.
    pub fn map(&self) -> &'c Map {
        self.t.map()
    }

    /// The rules of this game.
    pub fn rules(&self) -> GameRules {
        self.rules
    }

    /// The card on each cell.
    pub fn board(&self) -> &[Placement] {
        &self.board
    }

    /// The players, in seat order.
    pub fn seats(&self) -> &[Seat] {
        &self.seats
    }

    /// The turn order cards, by seat.
    pub fn turn_cards(&self) -> &[TurnCard] {
        &self.cards
    }

    /// The decks, in name order.
    pub fn decks(&self) -> &[Deck] {
        &self.decks
    }

    /// The black engine's owner.
    pub fn black_engine(&self) -> Option<usize> {
        self.engine
    }

    /// Whether the black engine was used this round.
    pub fn engine_used(&self) -> bool {
        self.engine_used
    }

    /// The round, from 1.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// The turn within the round, from 1: the turn order cards already flipped, plus one.
    pub fn turn(&self) -> usize {
        self.cards.iter().filter(|c| c.flipped).count() + usize::from(!matches!(self.phase, Phase::Over))
    }

    /// Whether an end condition was met this round (ruling G4).
    pub fn end_reached(&self) -> bool {
        self.end_reached
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// Where in the turn the game is.
    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    /// The player whose turn it is.
    pub fn mover(&self) -> usize {
        self.mover
    }

    /// The action pair chosen this turn.
    pub fn pair(&self) -> Option<Pair> {
        self.pair
    }

    /// The action being played, if any.
    pub fn action(&self) -> Option<Action> {
        match self.phase {
            Phase::Expand { .. } => Some(Action::Expand),
            Phase::Shares | Phase::Buying { .. } | Phase::Taking { .. } => Some(Action::Shares),
            Phase::Bonus | Phase::Paying { .. } => Some(Action::Bonus),
            Phase::Order => Some(Action::Order),
            Phase::Pair | Phase::Over => None,
        }
    }

    /// The player who makes the next choice: a receiver taking a card of a bonus payment, or else
    /// the mover.
    pub fn decider(&self) -> usize {
        match &self.phase {
            Phase::Paying { queue } => queue.first().copied().unwrap_or(self.mover),
            _ => self.mover,
        }
    }

    /// Each company's stations on the board: a share's price and its worth in capital.
    pub fn stations(&self, company: CompanyId) -> u32 {
        self.stations.get(usize::from(company.0)).copied().unwrap_or(0)
    }

    /// A player's shares of a company.
    pub fn holding(&self, player: usize, company: CompanyId) -> u32 {
        self.holdings[player][usize::from(company.0)]
    }

    /// Issued shares of a company: the bonus route's length ("Determine the Route").
    pub fn issued(&self, company: CompanyId) -> u32 {
        self.holdings.iter().map(|h| h[usize::from(company.0)]).sum()
    }

    /// Base cards upgraded: cells whose card is no longer the base card.
    pub fn upgraded(&self) -> usize {
        self.upgraded
    }

    /// Decks holding no card.
    pub fn empty_decks(&self) -> usize {
        self.decks.iter().filter(|d| d.cards.is_empty()).count()
    }

    /// A player's capital, from the running counts ("Government Aid", "Determine the Winner";
    /// ruling G3).
    pub fn capital(&self, player: usize) -> Capital {
        let s = &self.seats[player];
        let share_stations: Vec<u32> =
            self.holdings[player].iter().zip(&self.stations).filter(|(h, _)| **h > 0).map(|(h, st)| h * st).collect();
        let kind = |k: CardKind| s.base_cards.iter().filter(|&&n| self.t.card(n).kind == k).count();
        Capital::of(
            s.hand.len(),
            &share_stations,
            kind(CardKind::BaseRoute),
            kind(CardKind::BaseStation),
            self.engine == Some(player) && !self.engine_used,
        )
    }

    /// The winners when the game is over ("Determine the Winner"): the most capital, then the
    /// most company shares; more than one when the victory is shared.
    pub fn winners(&self) -> Vec<usize> {
        let key = |p: usize| (self.capital(p).total(), self.seats[p].shares.len());
        let best = (0..self.seats.len()).map(key).max();
        (0..self.seats.len()).filter(|&p| Some(key(p)) == best).collect()
    }

    /// The track network of the board.
    pub fn network(&self) -> Network {
        network_of(self.t.catalogue, self.t.map(), &self.board)
    }

    /// The company's name.
    pub fn company_name(&self, company: CompanyId) -> &'c str {
        self.t.catalogue.company_name(company)
    }

    // ---- the position ----

    /// The whole state in the position format (`docs/formats/express01-position.md`). Between
    /// turns it is a position to save; within a turn it is a snapshot for checking, which does not
    /// record the part of the turn played.
    pub fn to_setup(&self) -> PositionSetup {
        let map = self.t.map();
        // The piles are kept in number order, as a position writes them.
        let numbers = |v: &[CardNumber]| v.iter().map(|c| c.0).collect::<Vec<u16>>();
        PositionSetup {
            map: map.id.clone(),
            note: None,
            board: self
                .board
                .iter()
                .zip(&map.cells)
                .filter(|(p, c)| p.card != c.base)
                .map(|(p, c)| PlacementSetup { cell: c.base.0, card: p.card.0, turned: p.turned })
                .collect(),
            players: self
                .seats
                .iter()
                .zip(&self.cards)
                .map(|(s, c)| PlayerSetup {
                    name: s.name.clone(),
                    turn_order: c.number,
                    turn_taken: c.flipped,
                    hand: numbers(&s.hand),
                    shares: numbers(&s.shares),
                    share_counts: None,
                    base_cards: numbers(&s.base_cards),
                })
                .collect(),
            black_engine: self.engine.map(|p| self.seats[p].name.clone()),
            // From the table, only the face-up cards: the order below them was never seen.
            decks: Some(
                self.decks
                    .iter()
                    .filter(|d| !self.table || d.face_up > 0)
                    .map(|d| {
                        let shown = if self.table { d.face_up } else { d.cards.len() };
                        (d.name.to_string(), d.cards.iter().rev().take(shown).map(|c| c.0).collect())
                    })
                    .collect(),
            ),
            face_up: self.decks.iter().filter(|d| d.face_up > 0).map(|d| (d.name.to_string(), d.face_up)).collect(),
            round: Some(self.round),
            length: Some(self.rules.length),
            black_engine_used: self.engine_used,
            end_reached: self.end_reached,
            options: (self.rules.options() != Default::default()).then(|| self.rules.options()),
            bonus_payment: None,
            table: self.table,
        }
    }

    // ---- the table: what was never seen ----

    /// Whether this is a game from the table (ruling T2): the order of the face-down cards was
    /// never seen.
    pub fn is_table(&self) -> bool {
        self.table
    }

    /// Whether `step` draws a card nobody has seen yet: a draw from a deck whose top lies face
    /// down, in a game from the table. The card that comes is then told with [`Game::reveal`].
    pub fn draws_unseen(&self, step: Step) -> bool {
        match step {
            Step::Draw(d) => self.table && self.decks.get(d).is_some_and(|d| d.face_up == 0 && !d.cards.is_empty()),
            _ => false,
        }
    }

    /// The cards that may come from the face-down part of deck `d`, each number once, in number
    /// order: every card of the deck's kind and stage not seen anywhere else.
    pub fn could_come(&self, d: usize) -> Vec<CardNumber> {
        let Some(deck) = self.decks.get(d) else { return Vec::new() };
        let mut cards = deck.cards[..deck.cards.len() - deck.face_up].to_vec();
        cards.sort_unstable();
        cards.dedup();
        cards
    }

    /// The cards that may come from the face-down part of deck `d`, each number once in number
    /// order, with how many copies of it lie face down: the chances of a draw nobody has seen
    /// (ruling T3), each card coming with probability copies / face-down cards.
    pub fn could_come_with_copies(&self, d: usize) -> Vec<(CardNumber, u32)> {
        let Some(deck) = self.decks.get(d) else { return Vec::new() };
        let down = &deck.cards[..deck.cards.len() - deck.face_up];
        let copies = |c: CardNumber| down.iter().filter(|&&x| x == c).count() as u32;
        self.could_come(d).into_iter().map(|c| (c, copies(c))).collect()
    }

    /// The table tells the card that comes from deck `d`: in a game from the table, with the top
    /// face down, `card` is put on top of the face-down cards (any order of them is as good as
    /// another: it was never seen) and counts as seen; otherwise the top card is known and must
    /// be `card`. The draw itself is the step [`Step::Draw`] that follows.
    pub fn reveal(&mut self, d: usize, card: CardNumber) -> Result<(), StepError> {
        let Some(deck) = self.decks.get_mut(d) else { return Err(StepError::NoDeck(d)) };
        let name = deck.name;
        let Some(top) = deck.top() else { return Err(StepError::EmptyDeck(name.to_string())) };
        if !self.table || deck.face_up > 0 {
            return if top == card { Ok(()) } else { Err(StepError::TopIs { deck: name, top, card }) };
        }
        let down = deck.cards.len() - deck.face_up;
        // Face down, the lowest number is on top: the copy of `card` nearest the top.
        match deck.cards[..down].iter().rposition(|&c| c == card) {
            Some(i) => {
                let c = deck.cards.remove(i);
                deck.cards.push(c);
                deck.face_up = 1;
                Ok(())
            }
            None => {
                let could: Vec<String> = self.could_come(d).iter().map(ToString::to_string).collect();
                Err(StepError::CannotCome { deck: name, card, could: could.join(" ") })
            }
        }
    }

    /// Every broken invariant, recomputed from scratch: the state written as a position and
    /// checked as any position file is (every card exactly once, each card lawful on its cell, the
    /// turn order cards), then the running counts, the capitals and the turn against that
    /// position. Empty for a sound game.
    pub fn problems(&self) -> Vec<String> {
        let setup = self.to_setup();
        let position = match Position::from_setup(setup, self.t.catalogue) {
            Ok(p) => p,
            Err(e) => {
                let IllegalPosition { problems, .. } = *e;
                return problems.iter().map(ToString::to_string).collect();
            }
        };
        let mut out = Vec::new();
        if position.board().len() != self.t.map().cells.len() {
            out.push(format!(
                "the board has {} cards, the map {} cells",
                position.board().len(),
                self.t.map().cells.len()
            ));
        }
        for c in 0..self.t.catalogue.companies.len() {
            let company = CompanyId(c as u8);
            let name = self.company_name(company);
            if stations_of(&position, company) != self.stations[c] {
                out.push(format!(
                    "{name}: {} stations counted, {} on the board",
                    self.stations[c],
                    stations_of(&position, company)
                ));
            }
            for p in 0..self.seats.len() {
                if position.shares_of(p, company) != self.holdings[p][c] {
                    out.push(format!(
                        "{}: {} shares of {name} counted, {} held",
                        self.seats[p].name,
                        self.holdings[p][c],
                        position.shares_of(p, company)
                    ));
                }
            }
        }
        let upgraded = position.board().iter().zip(&self.t.map().cells).filter(|(p, c)| p.card != c.base).count();
        if upgraded != self.upgraded {
            out.push(format!("{} base cards upgraded counted, {upgraded} on the board", self.upgraded));
        }
        for p in 0..self.seats.len() {
            let fresh = capital(&position, p, self.engine_used).total();
            if fresh != self.capital(p).total() {
                out.push(format!(
                    "{}: capital {} running, {fresh} from scratch",
                    self.seats[p].name,
                    self.capital(p).total()
                ));
            }
        }
        if self.engine_used && self.engine.is_some() {
            out.push("the black engine is used and still owned".into());
        }
        for seat in &self.seats {
            for (what, pile) in [("hand", &seat.hand), ("shares", &seat.shares), ("base cards", &seat.base_cards)] {
                if !pile.is_sorted() {
                    out.push(format!("{}: the {what} are not kept in number order", seat.name));
                }
            }
        }
        match self.phase {
            Phase::Over => {
                if !self.end_reached || self.cards.iter().any(|c| !c.flipped) {
                    out.push("the game is over before the round ended with an end condition met".into());
                }
            }
            _ => {
                if self.cards[self.mover].flipped {
                    out.push(format!("{} moves with a flipped turn order card", self.seats[self.mover].name));
                }
                if self.phase == Phase::Pair && round::to_move(&self.cards) != Some(self.mover) {
                    out.push(format!("{} moves out of turn order", self.seats[self.mover].name));
                }
            }
        }
        out
    }

    // ---- legal steps ----

    /// Every step allowed now, for [`Game::decider`]. The steps of one part of the turn (the pair,
    /// then each action's choices): a whole turn is a sequence of them.
    pub fn legal(&self, referee: &dyn Referee) -> Vec<Step> {
        let mut out = Vec::new();
        match &self.phase {
            Phase::Over => {}
            Phase::Pair => {
                if self.upgraded == 0 {
                    out.push(Step::Pair(Pair::ExpandShares));
                } else {
                    out.extend(Pair::ALL.map(Step::Pair));
                }
            }
            Phase::Expand { west: true, .. } => {
                out.extend(self.nonempty_decks().map(Step::Draw));
                out.push(Step::Done);
            }
            Phase::Expand { budget, west: false } => {
                out.extend(self.spends().map(Step::Pay));
                if *budget != Budget::Spent {
                    self.builds(*budget, &mut |b| out.push(Step::Build(b)));
                }
                if self.upgraded > 0 {
                    out.push(Step::Done);
                }
            }
            Phase::Shares => {
                for c in 0..self.t.catalogue.companies.len() {
                    let company = CompanyId(c as u8);
                    if self.check_buy(company).is_ok() {
                        out.push(Step::Buy(company));
                    }
                }
                out.push(Step::Done);
            }
            Phase::Buying { company, left, .. } => {
                let company = *company;
                for s in self.spends() {
                    if *left > 1 || self.last_pay_keeps_a_share(company, s) {
                        out.push(Step::Pay(s));
                    }
                }
            }
            Phase::Taking { company, from_decks, .. } => {
                let company = *company;
                if *from_decks {
                    for d in &self.decks {
                        for depth in 0..d.cards.len() {
                            let card = d.cards[d.cards.len() - 1 - depth];
                            if self.is_share_of(card, company) && first_copy_at(d, card, depth) {
                                out.push(Step::Take(Source::Deck { card, depth }));
                            }
                        }
                    }
                } else {
                    for p in 0..self.seats.len() {
                        if self.may_give_up(p) {
                            let mut cards: Vec<CardNumber> = self.seats[p]
                                .shares
                                .iter()
                                .copied()
                                .filter(|&n| self.is_share_of(n, company))
                                .collect();
                            // In number order already: equal copies are neighbours.
                            cards.dedup();
                            out.extend(cards.into_iter().map(|card| Step::Take(Source::Player { player: p, card })));
                        }
                    }
                }
            }
            Phase::Bonus => {
                for company in self.bonus_companies() {
                    let Some(payout) = self.best_payout(company, referee) else { continue };
                    out.push(Step::Bonus { company, engine: false, payout });
                    if self.engine_available() {
                        out.push(Step::Bonus { company, engine: true, payout });
                    }
                }
                out.push(Step::Done);
            }
            Phase::Paying { .. } => out.extend(self.nonempty_decks().map(Step::Draw)),
            Phase::Order => {
                out.extend((0..self.seats.len()).filter(|&p| p != self.mover).map(Step::Swap));
                out.push(Step::Done);
            }
        }
        out
    }

    fn nonempty_decks(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.decks.len()).filter(|&d| !self.decks[d].cards.is_empty())
    }

    /// The distinct ways to pay one card's worth: each card number in hand, and the black engine.
    fn spends(&self) -> impl Iterator<Item = Spend> + '_ {
        // The hand is in number order: equal copies are neighbours.
        let mut hand = self.seats[self.mover].hand.clone();
        hand.dedup();
        hand.into_iter().map(Spend::Card).chain(self.engine_available().then_some(Spend::Engine))
    }

    fn engine_available(&self) -> bool {
        self.engine == Some(self.mover) && !self.engine_used
    }

    /// Every upgrade the budget allows now, each (cell, card, turned, copy) once.
    pub fn builds(&self, budget: Budget, out: &mut dyn FnMut(Build)) {
        let map = self.t.map();
        let first = self.upgraded == 0;
        for cell in 0..self.board.len() {
            let on = self.t.card(self.board[cell].card);
            for &n in &on.upgrades {
                let Some(card) = self.t.cards.get(usize::from(n.0)).copied().flatten() else { continue };
                if let Budget::OneRoute(first_cell) = budget
                    && (card.kind != CardKind::Route || !self.second_on(first_cell, cell))
                {
                    continue;
                }
                let Some(d) = self.t.deck(n) else { continue };
                let deck = &self.decks[d];
                let depths: Vec<usize> =
                    (0..deck.cards.len()).filter(|&k| deck.at(k) == Some(n) && first_copy_at(deck, n, k)).collect();
                if depths.is_empty() {
                    continue;
                }
                for turned in [false, true] {
                    let u = Upgrade { cell, card: n, turned };
                    if check_upgrade(self.t.catalogue, map, &self.board, u, first).is_ok() {
                        for &depth in &depths {
                            out(Build { cell, card: n, turned, depth });
                        }
                    }
                }
            }
        }
    }

    /// Whether the second route upgrade of a card paid may be on `cell` after the first on
    /// `first_cell` (option G7).
    fn second_on(&self, first_cell: usize, cell: usize) -> bool {
        self.rules.same_cell_twice == SameCellTwice::Allowed || first_cell != cell
    }

    fn is_share_of(&self, card: CardNumber, company: CompanyId) -> bool {
        self.t.card(card).share.is_some_and(|s| s.company == company)
    }

    fn decks_hold_share(&self, company: CompanyId) -> bool {
        self.decks
            .iter()
            .filter(|d| d.kind == CardKind::Route)
            .any(|d| d.cards.iter().any(|&c| self.is_share_of(c, company)))
    }

    /// Whether another player may give up a share: not the mover, not the black engine's owner
    /// ("You may never take away shares from the owner of the black engine").
    fn may_give_up(&self, p: usize) -> bool {
        p != self.mover && self.engine != Some(p)
    }

    fn a_player_gives_up(&self, company: CompanyId) -> bool {
        (0..self.seats.len()).any(|p| self.may_give_up(p) && self.holding(p, company) > 0)
    }

    fn last_pay_keeps_a_share(&self, company: CompanyId, s: Spend) -> bool {
        self.decks_hold_share(company)
            || self.a_player_gives_up(company)
            || matches!(s, Spend::Card(n) if self.is_share_of(n, company))
    }

    fn check_buy(&self, company: CompanyId) -> Result<(), StepError> {
        let name = || self.company_name(company).to_string();
        let price = self.stations(company);
        if price == 0 {
            return Err(StepError::NoStation(name()));
        }
        let have = self.seats[self.mover].hand.len() as u32 + u32::from(self.engine_available());
        if have < price {
            return Err(StepError::CannotPay { company: name(), price, have });
        }
        let in_hand = self.seats[self.mover].hand.iter().any(|&n| self.is_share_of(n, company));
        if !(self.decks_hold_share(company) || self.a_player_gives_up(company) || in_hand) {
            return Err(StepError::NoShare(name()));
        }
        Ok(())
    }

    fn bonus_companies(&self) -> impl Iterator<Item = CompanyId> + '_ {
        (0..self.t.catalogue.companies.len())
            .map(|c| CompanyId(c as u8))
            .filter(|&c| self.holding(self.mover, c) > 0 && self.stations(c) > 0)
    }

    fn best_payout(&self, company: CompanyId, referee: &dyn Referee) -> Option<u32> {
        let task = RouteTask { company, max_cards: self.issued(company), rules: self.rules.route };
        referee.best_payout(&self.network(), task)
    }

    // ---- checking a step ----

    fn not_now(&self) -> StepError {
        if self.phase == Phase::Over {
            return StepError::Over;
        }
        StepError::NotNow { now: self.expecting() }
    }

    /// What the game expects now, in words.
    pub fn expecting(&self) -> String {
        match &self.phase {
            Phase::Over => "nothing: the game is over".to_string(),
            Phase::Pair => "choose the action pair (A+B, B+A or C+D)".to_string(),
            Phase::Expand { west: true, .. } => {
                "the bonus for reaching the West: draw the top card of a deck, or done to decline".into()
            }
            Phase::Expand { budget: Budget::Spent, .. } => "in A: pay a card, or done".into(),
            Phase::Expand { .. } => "in A: build, pay another card, or done".into(),
            Phase::Shares => "in B: buy a share, or done".into(),
            Phase::Buying { company, left, .. } => {
                format!("in B: pay {left} more card(s) for the share of {}", self.company_name(*company))
            }
            Phase::Taking { company, .. } => format!("in B: take the share of {}", self.company_name(*company)),
            Phase::Bonus => "in C: choose the company (bonus), or done".into(),
            Phase::Paying { queue } => format!(
                "in C: {} takes the top card of a deck (draw)",
                queue.first().map_or("nobody", |&p| self.seats[p].name.as_str())
            ),
            Phase::Order => "in D: swap turn order cards, or done".into(),
        }
    }

    fn check_spend(&self, s: Spend) -> Result<(), StepError> {
        match s {
            Spend::Card(n) if self.seats[self.mover].hand.contains(&n) => Ok(()),
            Spend::Card(n) => Err(StepError::NotInHand(n)),
            Spend::Engine if self.engine_available() => Ok(()),
            Spend::Engine => Err(StepError::NoEngine),
        }
    }

    fn check_draw(&self, d: usize) -> Result<(), StepError> {
        match self.decks.get(d) {
            None => Err(StepError::NoDeck(d)),
            Some(deck) if deck.cards.is_empty() => Err(StepError::EmptyDeck(deck.name.to_string())),
            Some(_) => Ok(()),
        }
    }

    /// Whether `step` may be played now, and if not, the rule it breaks.
    pub fn check(&self, step: Step, referee: &dyn Referee) -> Result<(), StepError> {
        match (&self.phase, step) {
            (Phase::Over, _) => Err(StepError::Over),
            (Phase::Pair, Step::Pair(p)) => {
                if self.upgraded == 0 && p != Pair::ExpandShares {
                    Err(StepError::FirstTurn)
                } else {
                    Ok(())
                }
            }
            (Phase::Expand { west: true, .. }, Step::Draw(d)) => self.check_draw(d),
            (Phase::Expand { west: true, .. }, Step::Done) => Ok(()),
            (Phase::Expand { west: false, .. }, Step::Pay(s)) => self.check_spend(s),
            (Phase::Expand { west: false, budget }, Step::Build(b)) => self.check_build(*budget, b),
            (Phase::Expand { west: false, .. }, Step::Done) => {
                if self.upgraded == 0 {
                    Err(StepError::FirstTurn)
                } else {
                    Ok(())
                }
            }
            (Phase::Shares, Step::Buy(c)) => {
                if usize::from(c.0) >= self.t.catalogue.companies.len() {
                    return Err(StepError::NoStation(format!("company {}", c.0)));
                }
                self.check_buy(c)
            }
            (Phase::Shares, Step::Done) => Ok(()),
            (Phase::Buying { company, left, .. }, Step::Pay(s)) => {
                self.check_spend(s)?;
                if *left == 1 && !self.last_pay_keeps_a_share(*company, s) {
                    return Err(StepError::LastPay(self.company_name(*company).to_string()));
                }
                Ok(())
            }
            (Phase::Taking { company, from_decks, .. }, Step::Take(source)) => {
                self.check_take(*company, *from_decks, source)
            }
            (Phase::Bonus, Step::Bonus { company, engine, payout }) => {
                let name = || self.company_name(company).to_string();
                if usize::from(company.0) >= self.t.catalogue.companies.len() {
                    return Err(StepError::NoShareHeld(format!("company {}", company.0)));
                }
                if self.holding(self.mover, company) == 0 {
                    return Err(StepError::NoShareHeld(name()));
                }
                if self.stations(company) == 0 {
                    return Err(StepError::NoStation(name()));
                }
                if engine && !self.engine_available() {
                    return Err(StepError::NoEngine);
                }
                match self.best_payout(company, referee) {
                    None => Err(StepError::NoRoute(name())),
                    Some(best) if best != payout => Err(StepError::Payout { stated: payout, best }),
                    Some(_) => Ok(()),
                }
            }
            (Phase::Bonus, Step::Done) => Ok(()),
            (Phase::Paying { .. }, Step::Draw(d)) => self.check_draw(d),
            (Phase::Order, Step::Swap(p)) => {
                if p == self.mover || p >= self.seats.len() {
                    Err(StepError::SwapWith)
                } else {
                    Ok(())
                }
            }
            (Phase::Order, Step::Done) => Ok(()),
            _ => Err(self.not_now()),
        }
    }

    fn check_build(&self, budget: Budget, b: Build) -> Result<(), StepError> {
        if budget == Budget::Spent {
            return Err(StepError::Unpaid);
        }
        let Some(card) = self.t.cards.get(usize::from(b.card.0)).copied().flatten() else {
            return Err(UpgradeProblem::Unknown { cell: b.cell, card: b.card }.into());
        };
        if let Budget::OneRoute(first_cell) = budget {
            if card.kind != CardKind::Route {
                return Err(StepError::Mixed);
            }
            if !self.second_on(first_cell, b.cell) {
                return Err(StepError::SameCell);
            }
        }
        let u = Upgrade { cell: b.cell, card: b.card, turned: b.turned };
        check_upgrade(self.t.catalogue, self.t.map(), &self.board, u, self.upgraded == 0)?;
        let deck = self.t.deck(b.card).map(|d| &self.decks[d]);
        match deck {
            Some(d) if d.at(b.depth) == Some(b.card) => Ok(()),
            Some(d) => Err(StepError::NotInDeck { card: b.card, depth: b.depth, deck: d.name }),
            None => Err(UpgradeProblem::NotPlayed { card: b.card, kind: card.kind }.into()),
        }
    }

    fn check_take(&self, company: CompanyId, from_decks: bool, source: Source) -> Result<(), StepError> {
        let name = || self.company_name(company).to_string();
        match source {
            Source::Deck { card, depth } => {
                if !from_decks {
                    return Err(StepError::DecksHoldNone(name()));
                }
                let known = self.t.cards.get(usize::from(card.0)).copied().flatten();
                if known.is_none_or(|c| c.share.is_none_or(|s| s.company != company)) {
                    return Err(StepError::NotAShare { card, company: name() });
                }
                let deck = self.t.deck(card).map(|d| &self.decks[d]);
                match deck {
                    Some(d) if d.at(depth) == Some(card) => Ok(()),
                    Some(d) => Err(StepError::NotInDeck { card, depth, deck: d.name }),
                    None => Err(StepError::NotAShare { card, company: name() }),
                }
            }
            Source::Player { player, card } => {
                if from_decks {
                    return Err(StepError::DecksHoldOne(name()));
                }
                let Some(seat) = self.seats.get(player) else { return Err(StepError::SwapWith) };
                let why = if player == self.mover {
                    Some("a share is taken from another player")
                } else if self.engine == Some(player) {
                    Some("the owner of the black engine keeps their shares (\"Company shares are secure\")")
                } else if !seat.shares.contains(&card) {
                    Some("the card is not among their shares")
                } else {
                    None
                };
                if let Some(why) = why {
                    return Err(StepError::CannotTakeFrom { player: seat.name.clone(), card, why });
                }
                if !self.is_share_of(card, company) {
                    return Err(StepError::NotAShare { card, company: name() });
                }
                Ok(())
            }
        }
    }

    // ---- playing a step ----

    /// Checks `step` and plays it.
    pub fn play(&mut self, step: Step, referee: &dyn Referee) -> Result<(), StepError> {
        self.check(step, referee)?;
        self.play_unchecked(step);
        Ok(())
    }

    /// Plays a step known to be legal (from [`Game::legal`], or checked before); a step that is not
    /// may leave the game in a state [`Game::problems`] reports.
    pub fn play_unchecked(&mut self, step: Step) {
        match step {
            Step::Pair(p) => {
                self.pair = Some(p);
                self.part = 0;
                self.begin(p.actions()[0]);
            }
            Step::Pay(s) => {
                self.spend(s);
                match &mut self.phase {
                    Phase::Expand { budget, .. } => *budget = Budget::Fresh,
                    Phase::Buying { company, left, paid } => {
                        if let Spend::Card(n) = s {
                            paid.push(n);
                        }
                        *left -= 1;
                        if *left == 0 {
                            let (company, paid) = (*company, std::mem::take(paid));
                            let from_decks = self.decks_hold_share(company);
                            self.phase = Phase::Taking { company, paid, from_decks };
                        }
                    }
                    _ => {}
                }
            }
            Step::Build(b) => self.build(b),
            Step::Buy(company) => {
                self.phase = Phase::Buying { company, left: self.stations(company), paid: Vec::new() };
            }
            Step::Take(source) => self.take(source),
            Step::Bonus { company, engine, payout } => {
                let turn_orders: Vec<u8> = self.cards.iter().map(|c| c.number).collect();
                let caps: Vec<u32> = (0..self.seats.len())
                    .map(|p| self.holding(p, company) + u32::from(engine && p == self.mover))
                    .collect();
                let queue = payment_order(payout, &turn_orders, &caps, self.mover);
                if engine {
                    // "After you have received your payment, you must discard the black engine."
                    self.engine = None;
                    self.engine_used = true;
                }
                self.phase = Phase::Paying { queue };
                self.settle_payment();
            }
            Step::Draw(d) => {
                let receiver = self.decider();
                self.draw(receiver, d);
                match &mut self.phase {
                    Phase::Expand { west, .. } => *west = false,
                    Phase::Paying { queue } => {
                        queue.remove(0);
                        self.settle_payment();
                    }
                    _ => {}
                }
            }
            Step::Swap(p) => {
                round::exchange(&mut self.cards, self.mover, p);
                self.finish_action();
            }
            Step::Done => match &mut self.phase {
                Phase::Expand { west: west @ true, .. } => *west = false,
                _ => self.finish_action(),
            },
        }
    }

    fn begin(&mut self, action: Action) {
        self.phase = match action {
            Action::Expand => Phase::Expand { budget: Budget::Spent, west: false },
            Action::Shares => Phase::Shares,
            Action::Bonus => Phase::Bonus,
            Action::Order => Phase::Order,
        };
    }

    /// The end of an action: the end conditions are checked ("Check at the end of every action"),
    /// then the pair's second action begins, or the turn ends.
    fn finish_action(&mut self) {
        if self.rules.length.ends(self.upgraded, self.empty_decks()) {
            self.end_reached = true;
        }
        match (self.part, self.pair) {
            (0, Some(p)) => {
                self.part = 1;
                self.begin(p.actions()[1]);
            }
            _ => self.end_turn(),
        }
    }

    /// "Once you have completed your turn, you flip your turn order card over to its back."
    fn end_turn(&mut self) {
        round::end_turn(&mut self.cards, self.mover);
        self.pair = None;
        self.part = 0;
        match round::to_move(&self.cards) {
            Some(m) => {
                self.mover = m;
                self.phase = Phase::Pair;
            }
            None => self.end_round(),
        }
    }

    /// The end of a round: the game ends if an end condition was met during it; otherwise the
    /// cards are flipped back and the next round begins with the government aid.
    fn end_round(&mut self) {
        if self.end_reached {
            self.phase = Phase::Over;
            return;
        }
        round::new_round(&mut self.cards);
        self.round += 1;
        let capitals: Vec<u32> = (0..self.seats.len()).map(|p| self.capital(p).total()).collect();
        self.engine = round::government_aid(&capitals, &self.cards);
        self.engine_used = false;
        self.mover = round::to_move(&self.cards).unwrap_or(0);
        self.phase = Phase::Pair;
        self.pair = None;
        self.part = 0;
    }

    /// Pays one card's worth: a card to the top of its deck, face up, or the black engine discarded.
    fn spend(&mut self, s: Spend) {
        match s {
            Spend::Card(n) => {
                remove_sorted(&mut self.seats[self.mover].hand, n);
                self.put_on_deck(n);
            }
            Spend::Engine => {
                self.engine = None;
                self.engine_used = true;
            }
        }
    }

    fn put_on_deck(&mut self, n: CardNumber) {
        if let Some(d) = self.t.deck(n) {
            let deck = &mut self.decks[d];
            deck.cards.push(n);
            deck.face_up += 1;
        }
    }

    /// Takes the card at `depth` out of its deck.
    fn take_from_deck(&mut self, n: CardNumber, depth: usize) {
        if let Some(d) = self.t.deck(n) {
            let deck = &mut self.decks[d];
            if let Some(i) = deck.cards.len().checked_sub(depth + 1) {
                deck.cards.remove(i);
                if depth < deck.face_up {
                    deck.face_up -= 1;
                }
            }
        }
    }

    fn draw(&mut self, player: usize, d: usize) {
        let deck = &mut self.decks[d];
        if let Some(card) = deck.cards.pop() {
            deck.face_up = deck.face_up.saturating_sub(1);
            insert_sorted(&mut self.seats[player].hand, card);
        }
    }

    fn build(&mut self, b: Build) {
        let new = self.t.card(b.card);
        let cell = b.cell;
        let old = self.board[cell];
        let old_card = self.t.card(old.card);
        let was_base = old_card.kind.is_base();
        // The West (USA rule b): due before this build lands when the cell is a western card still
        // showing its base, and (option `once`) no western card was upgraded before.
        let west_due = was_base
            && self.t.west.contains(&cell)
            && match self.rules.west_bonus {
                WestBonus::EachCard => true,
                WestBonus::Once => self.t.west.iter().all(|&w| self.board[w].card == self.t.map().cells[w].base),
            };
        self.take_from_deck(b.card, b.depth);
        self.board[cell] = Placement { card: b.card, turned: b.turned };
        for s in &old_card.stations {
            if let Some(c) = s.company {
                self.stations[usize::from(c.0)] -= 1;
            }
        }
        for s in &new.stations {
            if let Some(c) = s.company {
                self.stations[usize::from(c.0)] += 1;
            }
        }
        if was_base {
            self.upgraded += 1;
            insert_sorted(&mut self.seats[self.mover].base_cards, old.card);
        } else {
            self.put_on_deck(old.card);
        }
        if let Phase::Expand { budget, west } = &mut self.phase {
            *budget = match (*budget, new.kind) {
                (Budget::Fresh, CardKind::Route) => Budget::OneRoute(cell),
                _ => Budget::Spent,
            };
            *west = west_due;
        }
    }

    fn take(&mut self, source: Source) {
        let Phase::Taking { paid, .. } = std::mem::replace(&mut self.phase, Phase::Shares) else { return };
        let card = match source {
            Source::Deck { card, depth } => {
                self.take_from_deck(card, depth);
                card
            }
            Source::Player { player, card } => {
                // "the paid cards are not returned to their decks but are handed to this player"
                for &n in paid.iter().rev() {
                    if let Some(d) = self.t.deck(n) {
                        let deck = &mut self.decks[d];
                        if deck.cards.last() == Some(&n) {
                            deck.cards.pop();
                            deck.face_up = deck.face_up.saturating_sub(1);
                        }
                    }
                    insert_sorted(&mut self.seats[player].hand, n);
                }
                remove_sorted(&mut self.seats[player].shares, card);
                if let Some(s) = self.t.card(card).share {
                    self.holdings[player][usize::from(s.company.0)] -= 1;
                }
                card
            }
        };
        insert_sorted(&mut self.seats[self.mover].shares, card);
        if let Some(s) = self.t.card(card).share {
            self.holdings[self.mover][usize::from(s.company.0)] += 1;
        }
    }

    /// Ends the payment when every receiver has taken a card, or when no deck holds a card (the
    /// rest is not paid; ruling G11).
    fn settle_payment(&mut self) {
        if let Phase::Paying { queue } = &self.phase
            && (queue.is_empty() || self.decks.iter().all(|d| d.cards.is_empty()))
        {
            self.finish_action();
        }
    }
}

fn sorted(cards: &[CardNumber]) -> Vec<CardNumber> {
    let mut v = cards.to_vec();
    v.sort_unstable();
    v
}

/// Two games are equal when their states are: the cards everywhere, the turn order cards, the
/// black engine, the round, the end, and where in the turn they are (the running counts follow
/// from these). Games of different contents or maps are never compared.
impl PartialEq for Game<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.state() == other.state()
    }
}

impl Eq for Game<'_> {}

impl std::hash::Hash for Game<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.state().hash(state);
    }
}

/// The fields of a game's state, for equality and hashing.
type State<'a> = (
    &'a GameRules,
    &'a [Placement],
    &'a [Seat],
    &'a [TurnCard],
    &'a [Deck],
    (Option<usize>, bool, u32, bool),
    (&'a Phase, usize, Option<Pair>, u8),
);

impl Game<'_> {
    fn state(&self) -> State<'_> {
        (
            &self.rules,
            &self.board,
            &self.seats,
            &self.cards,
            &self.decks,
            (self.engine, self.engine_used, self.round, self.end_reached),
            (&self.phase, self.mover, self.pair, self.part),
        )
    }
}

impl Game<'_> {
    /// Hashes the state as [`Hash`] does, except that each deck counts as the multiset of its
    /// cards: two games that differ only in the order of cards within decks (and in which lie
    /// face up) hash alike. A search that has shown the order cannot matter for what it asks
    /// (no draw from a deck's top is still to come) keys its visited states with this.
    pub fn hash_ignoring_deck_order<H: std::hash::Hasher>(&self, state: &mut H) {
        use std::hash::Hash;
        let (rules, board, seats, cards, decks, a, b) = self.state();
        (rules, board, seats, cards, a, b).hash(state);
        let mut pile: Vec<CardNumber> = Vec::new();
        for d in decks {
            pile.clear();
            pile.extend_from_slice(&d.cards);
            pile.sort_unstable();
            pile.hash(state);
        }
    }
}

/// Whether the copy of `card` at `depth` is the first of a run of equal cards on the same side
/// (face up or down): taking any copy of such a run leaves the same deck, so only the first is
/// listed.
fn first_copy_at(deck: &Deck, card: CardNumber, depth: usize) -> bool {
    depth == 0 || deck.at(depth - 1) != Some(card) || depth == deck.face_up
}
