//! The game as a state machine (rulebook, "Setup", "Gameplay", "End of Turn", "End of Game",
//! "Cube Effects"): a [`Game`] holds everything that changes; [`Game::legal_moves`] lists the
//! choices open now, [`Game::play`] checks and makes one. Rulings: `docs/rules/cubes-of-europe.md`.
//!
//! Every decision is one [`Move`]: choosing the start space, using a die (to gain a cube, place a
//! cube or gain a worker, naming the number the die is turned to and whether the free shift
//! turns it a step), and the choices effects open
//! (where a red cube's extra cube goes, which colour white gains, which cube goes back when the
//! inventory overflows). Turn ends, tucks and reshuffles happen by themselves.

use std::fmt;

use super::card::{Board, Effect, TERRITORY_POINTS};
use super::catalogue::Catalogue;
use super::colour::Colour;
use super::instance::{Instance, Seen};
use super::stack::Stack;

/// Rule options where players could reasonably differ, and the engine's options for tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The top of the workers track (ruling A2). Default 6.
    pub max_workers: u8,
    /// End the game after this many turns (for tests against naive search); `None` plays the
    /// whole game. Default `None` (ruling G1).
    pub max_turns: Option<usize>,
    /// The workers on the track when the game begins ("Setup": the "1" space). Default 1; other
    /// values exist for tests (ruling G2). A value above `max_workers` is taken as `max_workers`.
    pub start_workers: u8,
    /// Cards tucked under the board before the first turn, their effects in play from the start:
    /// bit `id` set for card `id` (1 to 9). Default none; for tests (ruling G2). They leave the
    /// deck (the rest keeps its order); the board card and ids outside 1 to 9 are ignored.
    pub tucked_at_start: u16,
}

impl Default for Rules {
    fn default() -> Self {
        Rules { max_workers: 6, max_turns: None, start_workers: 1, tucked_at_start: 0 }
    }
}

impl Rules {
    /// Checks the options against an instance: a workers track of 1 to 20, the start within it,
    /// the cards tucked at the start card ids 1 to 9 other than the board.
    pub fn check(&self, instance: &Instance) -> Result<(), String> {
        if !(1..=20).contains(&self.max_workers) {
            return Err(format!("max_workers: expected 1 to 20, got {}", self.max_workers));
        }
        if self.start_workers > self.max_workers {
            return Err(format!(
                "start_workers: {} is above the top of the workers track ({})",
                self.start_workers, self.max_workers
            ));
        }
        for id in 0..16u8 {
            if self.tucked_at_start >> id & 1 == 1 && (!(1..=9).contains(&id) || id == instance.board) {
                return Err(format!("tucked_at_start: {id} is not a card id 1 to 9 other than the board"));
            }
        }
        Ok(())
    }

    /// The ids of the cards tucked at the start, in increasing order.
    pub fn tucked_at_start_ids(&self) -> impl Iterator<Item = u8> + '_ {
        (1..=9u8).filter(|&id| self.tucked_at_start >> id & 1 == 1)
    }
}

/// One decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(tag = "move", rename_all = "kebab-case")]
pub enum Move {
    /// Setup: the yellow hex the first cube starts on.
    Start {
        /// The hex (index in reading order).
        hex: u8,
    },
    /// Use a die to gain a cube: the die, turned to `face`, goes on central square `square` of
    /// market card `card` (0 the deck's top card, 1 the discard's), and a cube of `colour` comes
    /// from the supply if it has one (the square's colour, or an outer square's colour of that
    /// card under the `gain-outer` effect).
    Gain {
        /// Which die of the turn (0 or 1).
        die: u8,
        /// The number the die is turned to.
        face: u8,
        /// 0: the deck's top card; 1: the discard's top card.
        card: u8,
        /// The central square, 0 to 2.
        square: u8,
        /// The colour taken.
        colour: Colour,
        /// Whether the die takes the free shift (see [`Move::Place`]).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        free_shift: Option<bool>,
    },
    /// Use a die to place a cube on `hex` (its number must equal `face`).
    Place {
        /// Which die (0 or 1).
        die: u8,
        /// The number the die is turned to.
        face: u8,
        /// The hex.
        hex: u8,
        /// Whether one step of the turning is the free shift of the `free-shift` effect ("once per
        /// turn, you may modify a die by +1 or -1 without spending a worker"; ruling A8), the other
        /// steps paid with workers. `Some(true)`: it is (refused when the effect is not in play,
        /// was used this turn, or the die needs no turning); `Some(false)`: every step is paid;
        /// `None` (records written before the choice existed): it is whenever it can be. Legal
        /// moves say `Some(..)` where the free shift is open and the die is turned, `None`
        /// elsewhere.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        free_shift: Option<bool>,
    },
    /// Use a die to gain a worker.
    Worker {
        /// Which die (0 or 1).
        die: u8,
    },
    /// Red's extra cube: place a cube from the inventory on `hex`.
    Chain {
        /// The hex.
        hex: u8,
    },
    /// White's gain: a cube of `colour` (shown in the market).
    Take {
        /// The colour.
        colour: Colour,
    },
    /// The inventory overflowed: return a cube of `colour` to the supply.
    Return {
        /// The colour.
        colour: Colour,
    },
    /// Decline red's extra cube or white's gain.
    Pass,
}

impl fmt::Display for Move {
    /// The move as a player says it: the first or the second die (the roll's order), hexes by
    /// the numbers the board picture writes on them (0 to 18), the deck's or the discard's card
    /// (the market's left and right card) and its central squares 1 to 3 from the top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shift = |free_shift: Option<bool>| match free_shift {
            Some(true) => " (free shift)",
            Some(false) => " (no free shift)",
            None => "",
        };
        match *self {
            Move::Start { hex } => write!(f, "start on hex {hex}"),
            Move::Gain { die, face, card, square, colour, free_shift } => write!(
                f,
                "{} as {face}{}: gain {colour} ({}, square {})",
                die_name(die),
                shift(free_shift),
                card_name(card),
                u16::from(square) + 1
            ),
            Move::Place { die, face, hex, free_shift } => {
                write!(f, "{} as {face}{}: place on hex {hex}", die_name(die), shift(free_shift))
            }
            Move::Worker { die } => write!(f, "{}: gain a worker", die_name(die)),
            Move::Chain { hex } => write!(f, "red: place on hex {hex}"),
            Move::Take { colour } => write!(f, "white: gain {colour}"),
            Move::Return { colour } => write!(f, "return {colour}"),
            Move::Pass => write!(f, "pass"),
        }
    }
}

/// A die in words: die 0 of a record is the roll's first die, die 1 its second.
pub fn die_name(die: u8) -> String {
    match die {
        0 => "first die".into(),
        1 => "second die".into(),
        d => format!("die {d}"),
    }
}

/// A market card in words: card 0 of a record is the deck's top card (the market's left card),
/// card 1 the discard's top card (its right card).
pub fn card_name(card: u8) -> String {
    match card {
        0 => "deck card".into(),
        1 => "discard card".into(),
        c => format!("card {c}"),
    }
}

/// The dice still to use, in words: `first die 2, second die 4`; `no die left` when both are
/// used.
pub fn dice_words(dice: [Option<u8>; 2]) -> String {
    let left: Vec<String> =
        dice.iter().enumerate().filter_map(|(i, d)| d.map(|v| format!("{} {v}", die_name(i as u8)))).collect();
    if left.is_empty() { "no die left".into() } else { left.join(", ") }
}

impl Move {
    /// Every move a record can write for a board of 19 hexes (ruling C1), legal or not, each
    /// die use with the free shift taken, declined and left unsaid: for exhaustive checks of
    /// [`Game::check`] against [`Game::legal_moves`], and for the naive reference search.
    pub fn every() -> Vec<Move> {
        const HEXES: u8 = 19;
        let shifts = [None, Some(true), Some(false)];
        let mut out: Vec<Move> = (0..HEXES).map(|hex| Move::Start { hex }).collect();
        for die in 0..2u8 {
            for face in 1..=6u8 {
                for free_shift in shifts {
                    for card in 0..2u8 {
                        for square in 0..3u8 {
                            for colour in Colour::ALL {
                                out.push(Move::Gain { die, face, card, square, colour, free_shift });
                            }
                        }
                    }
                    out.extend((0..HEXES).map(|hex| Move::Place { die, face, hex, free_shift }));
                }
            }
            out.push(Move::Worker { die });
        }
        out.extend((0..HEXES).map(|hex| Move::Chain { hex }));
        out.extend(Colour::ALL.map(|colour| Move::Take { colour }));
        out.extend(Colour::ALL.map(|colour| Move::Return { colour }));
        out.push(Move::Pass);
        out
    }

    /// The die a move uses, if it uses one.
    pub fn die(&self) -> Option<u8> {
        match *self {
            Move::Gain { die, .. } | Move::Place { die, .. } | Move::Worker { die } => Some(die),
            _ => None,
        }
    }
}

/// A choice an effect has opened, to be made before anything else.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Pending {
    /// Return a cube: the inventory holds more than it may.
    #[default]
    Overflow,
    /// Red: place another cube, or pass.
    Red,
    /// White: gain a cube of a market colour, or pass.
    White,
}

impl fmt::Display for Pending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Pending::Overflow => "return a cube (the inventory is over full)",
            Pending::Red => "red's extra cube (a hex, or pass)",
            Pending::White => "white's gain (a colour, or pass)",
        })
    }
}

/// Why a move is illegal now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{mv} is not legal now: {reason}")]
pub struct IllegalMove {
    /// The move.
    pub mv: Move,
    /// Why.
    pub reason: Refusal,
}

/// The rule a move breaks ([`Game::check`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
    /// The game has ended.
    #[error("the game is over")]
    Over,
    /// Nothing comes before the start space ("Setup").
    #[error("the game starts by choosing a yellow start space")]
    NotStarted,
    /// A start on a hex that is not yellow.
    #[error("hex {0} is not one of the yellow start spaces")]
    NotAStartSpace(u8),
    /// A second start.
    #[error("the start space is already chosen")]
    Started,
    /// A hex beyond the board.
    #[error("there is no hex {0} (hexes are 0 to 18)")]
    NoHex(u8),
    /// A hex already holding a cube.
    #[error("hex {0} already holds a cube")]
    Filled(u8),
    /// A hex touching no cube ("adjacent to a hex already containing a cube").
    #[error("hex {0} touches no cube")]
    Alone(u8),
    /// A cube the inventory does not hold.
    #[error("the inventory holds no {0} cube")]
    NotHeld(Colour),
    /// White's gain of a colour no market square shows (ruling A4).
    #[error("no market square shows {0}")]
    NotInMarket(Colour),
    /// An effect's choice is open and comes first.
    #[error("an effect's choice comes first: {0}")]
    ChoiceFirst(Pending),
    /// A choice no effect has opened.
    #[error("no effect's choice is open")]
    NoChoice,
    /// A die other than 0 and 1.
    #[error("there is no {} (a turn has a first and a second die)", die_name(*.0))]
    NoDie(u8),
    /// A die already used this turn.
    #[error("the {} is already used this turn", die_name(*.0))]
    DieUsed(u8),
    /// A face other than 1 to 6.
    #[error("a die shows 1 to 6, not {0}")]
    NoFace(u8),
    /// The free shift without its card tucked.
    #[error("the free shift is not in play (no free-shift card is tucked)")]
    NoFreeShift,
    /// A second free shift in a turn.
    #[error("the free shift was already taken this turn")]
    FreeShiftUsed,
    /// The free shift on a die that needs no turning (ruling A8).
    #[error("the die needs no turning, so there is no free shift to take")]
    NothingToTurn,
    /// Not enough workers to turn the die.
    #[error("turning the die from {from} to {to} costs {cost} worker(s); {held} on the track")]
    TooFewWorkers {
        /// The die's number.
        from: u8,
        /// The number asked for.
        to: u8,
        /// The workers it costs.
        cost: u8,
        /// The workers on the track.
        held: u8,
    },
    /// A market card that is not there.
    #[error("the market has no {} now", card_name(*.0))]
    NoCard(u8),
    /// A central square other than 0 to 2.
    #[error("there is no square {} on a market card (its central squares are 1 to 3 from the top)", u16::from(*.0) + 1)]
    NoSquare(u8),
    /// A square of another face.
    #[error("square {} of the {} shows {shows}, not {face}", u16::from(*square) + 1, card_name(*card))]
    WrongFace {
        /// The card.
        card: u8,
        /// The square.
        square: u8,
        /// Its face.
        shows: u8,
        /// The face asked for.
        face: u8,
    },
    /// A colour the square does not give.
    #[error("square {} of the {} gives {gives}, not {colour}", u16::from(*square) + 1, card_name(*card))]
    WrongColour {
        /// The card.
        card: u8,
        /// The square.
        square: u8,
        /// The colour it gives.
        gives: Colour,
        /// The colour asked for.
        colour: Colour,
    },
    /// A hex of another number.
    #[error("hex {hex} needs a {number}, not a {face}")]
    WrongNumber {
        /// The hex.
        hex: u8,
        /// Its number.
        number: u8,
        /// The face asked for.
        face: u8,
    },
}

/// The steps that turn a die showing `from` to show `to`, going round 1-6-1 the shorter way
/// ("Using Workers": each step a worker, and a 1 may become a 6 or a 6 a 1).
pub fn turn_steps(from: u8, to: u8) -> u8 {
    let d = (i16::from(from) - i16::from(to)).rem_euclid(6) as u8;
    d.min(6 - d)
}

/// A chance event a table game waits for ([`Game::unseen`]): what the table must tell before
/// the game goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chance {
    /// The card turned up from the first deck: `index` 0 starts the market (the discard), 1 is
    /// the deck's top at the start, and each later one the deck's new top.
    Deck {
        /// Its place in the deck's order, from 0.
        index: usize,
    },
    /// The next card of the reshuffled deck to come up, from 0 in the order they came up.
    Reshuffle {
        /// Its place in the reshuffled deck's order, from 0.
        index: usize,
    },
    /// The roll of a turn.
    Roll {
        /// The turn, from 0.
        turn: usize,
    },
}

impl fmt::Display for Chance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Chance::Deck { index: 0 } => write!(f, "the card that starts the market"),
            Chance::Deck { .. } => write!(f, "the card now on top of the deck"),
            Chance::Reshuffle { .. } => write!(f, "the next card of the reshuffled deck"),
            Chance::Roll { turn } => write!(f, "the roll of turn {}", turn + 1),
        }
    }
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Game<'c> {
    catalogue: &'c Catalogue,
    instance: &'c Instance,
    rules: Rules,
    /// Hexes holding a cube (bit per hex).
    placed: u32,
    /// Cubes in the inventory, per colour.
    inventory: [u8; 5],
    workers: u8,
    /// Turns completed.
    turn: usize,
    /// Dice of this turn still to use.
    dice: [Option<u8>; 2],
    /// The market deck, top card last.
    deck: Stack<u8, 9>,
    /// The market discard, top card last.
    discard: Stack<u8, 9>,
    /// Cards tucked under the board, in order.
    tucked: Stack<u8, 9>,
    /// Whether the deck has been reshuffled.
    reshuffled: bool,
    /// The reshuffled deck as it was formed, top card first (empty before the reshuffle).
    second: Stack<u8, 9>,
    /// Yellow cubes placed this turn.
    yellows: u8,
    /// Whether the free shift (effect) was used this turn.
    free_shift_used: bool,
    /// Choices effects have opened, the last first.
    pending: Stack<Pending, 8>,
    started: bool,
    over: bool,
}

impl<'c> Game<'c> {
    /// A new game: the board card laid, the market created from the instance's deck, the worker
    /// on 1 ("Setup"). The first move chooses the start space.
    pub fn new(catalogue: &'c Catalogue, instance: &'c Instance, rules: Rules) -> Game<'c> {
        let tucked: Stack<u8, 9> = rules.tucked_at_start_ids().filter(|&id| id != instance.board).collect();
        let mut deck: Stack<u8, 9> =
            instance.deck.iter().rev().copied().filter(|id| !tucked.as_slice().contains(id)).collect();
        let mut discard = Stack::default();
        if let Some(top) = deck.pop() {
            discard.push(top);
        }
        Game {
            catalogue,
            instance,
            rules,
            placed: 0,
            inventory: [0; 5],
            workers: rules.start_workers.min(rules.max_workers),
            turn: 0,
            dice: [None, None],
            deck,
            discard,
            tucked,
            reshuffled: false,
            second: Stack::default(),
            yellows: 0,
            free_shift_used: false,
            pending: Stack::default(),
            started: false,
            over: false,
        }
    }

    /// The board side.
    pub fn board(&self) -> &'c Board {
        &self.card(self.instance.board).board
    }

    /// The id of the card laid board side up ("Setup").
    pub fn board_card(&self) -> u8 {
        self.instance.board
    }

    fn card(&self, id: u8) -> &'c super::card::Card {
        // Instances are checked: ids are 1 to 9.
        &self.catalogue.cards[usize::from(id - 1)]
    }

    /// The effects in play (tucked cards).
    pub fn effects(&self) -> impl Iterator<Item = Effect> + '_ {
        self.tucked.as_slice().iter().map(|&id| self.card(id).market.effect)
    }

    fn has(&self, e: Effect) -> bool {
        self.effects().any(|x| x == e)
    }

    /// The card set.
    pub fn catalogue(&self) -> &'c Catalogue {
        self.catalogue
    }

    /// The rule options.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The cards in the market piles (deck and discard), which may still be tucked.
    pub fn market_cards(&self) -> impl Iterator<Item = u8> + '_ {
        self.deck.as_slice().iter().chain(self.discard.as_slice()).copied()
    }

    /// The most turns still to be played, counting this one if it has begun: the deck's cards
    /// (one moves each turn), then at most one fewer than the cards left for the reshuffle, never
    /// beyond the dice or a shortened game's end.
    pub fn turns_left_at_most(&self) -> usize {
        if self.over {
            return 0;
        }
        let by_deck = if self.reshuffled {
            self.deck.len()
        } else {
            // The reshuffled deck holds the market cards then, less the one that starts the
            // market and one per yellow hex then empty. Every yellow placed before then tucks a
            // card (the piles are never empty) and fills a yellow hex, so the cards it leaves
            // are at most the piles' cards now less the yellow hexes empty now and the tucks
            // this turn still owes.
            let empty_yellow = self.board().of_colour(Colour::Yellow).filter(|&i| self.placed >> i & 1 == 0).count();
            let owed = usize::from(self.yellows);
            self.deck.len() + (self.deck.len() + self.discard.len()).saturating_sub(1 + empty_yellow + owed)
        };
        let by_dice = self.instance.dice.len().saturating_sub(self.turn);
        let by_rules = self.rules.max_turns.map_or(usize::MAX, |m| m.saturating_sub(self.turn));
        by_deck.min(by_dice).min(by_rules)
    }

    /// The dice still to use, each with how many turns from now it is rolled (0: this turn's
    /// unused dice), over every turn the game can still last ([`Game::turns_left_at_most`]).
    pub fn dice_ahead(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        let left = self.turns_left_at_most();
        // Before the start and after the end no die is in play: every turn left is still to roll.
        let begun = usize::from(self.dice != [None, None]);
        let now = self.dice.iter().flatten().map(|&v| (0, v));
        let later = self.instance.dice.iter().skip(self.turn + begun).take(left.saturating_sub(begun));
        now.chain(later.enumerate().flat_map(move |(k, pair)| pair.iter().map(move |&v| (k + begun, v))))
    }

    /// Whether the start space has been chosen.
    pub fn is_started(&self) -> bool {
        self.started
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Turns completed.
    pub fn turn(&self) -> usize {
        self.turn
    }

    /// Workers on the track.
    pub fn workers(&self) -> u8 {
        self.workers
    }

    /// Hexes holding a cube, as a bit set by hex index.
    pub fn placed(&self) -> u32 {
        self.placed
    }

    /// Cubes in the inventory, per colour (in [`Colour::ALL`] order).
    pub fn inventory(&self) -> [u8; 5] {
        self.inventory
    }

    /// Cards tucked under the board.
    pub fn tucked(&self) -> &[u8] {
        self.tucked.as_slice()
    }

    /// The dice of this turn still to use.
    pub fn dice(&self) -> [Option<u8>; 2] {
        self.dice
    }

    /// The market: the deck's top card and the discard's top card, where there are.
    pub fn market(&self) -> [Option<u8>; 2] {
        [self.deck.last(), self.discard.last()]
    }

    /// The market deck, its top card last.
    pub fn deck(&self) -> &[u8] {
        self.deck.as_slice()
    }

    /// The market discard, its top card last.
    pub fn discard(&self) -> &[u8] {
        self.discard.as_slice()
    }

    /// Whether the deck has been reshuffled (the second deck is in play).
    pub fn is_reshuffled(&self) -> bool {
        self.reshuffled
    }

    /// The choice that must be made next, if an effect opened one.
    pub fn pending(&self) -> Option<Pending> {
        self.pending.last()
    }

    /// The choices effects have opened and not yet made, the next one last.
    pub fn pending_all(&self) -> &[Pending] {
        self.pending.as_slice()
    }

    /// Yellow cubes placed this turn: each tucks a card when the turn ends.
    pub fn yellows_this_turn(&self) -> u8 {
        self.yellows
    }

    fn capacity(&self) -> u8 {
        self.effects()
            .filter_map(|e| match e {
                Effect::InventorySize { size } => Some(size as u8),
                _ => None,
            })
            .max()
            .unwrap_or(3)
    }

    fn held(&self) -> u8 {
        self.inventory.iter().sum()
    }

    /// Cubes of a colour still in the supply.
    pub fn supply(&self, colour: Colour) -> u8 {
        let board = self.board();
        let on_board = board.of_colour(colour).filter(|&i| self.placed >> i & 1 == 1).count() as u8;
        colour.count() as u8 - on_board - self.inventory[colour.index()]
    }

    /// Whether the free shift can still be taken this turn: the effect in play, not yet used.
    pub fn free_shift_open(&self) -> bool {
        !self.free_shift_used && self.has(Effect::FreeShift)
    }

    /// Whether a die turned `steps` steps takes the free shift, as a move's `free_shift` says
    /// (`None`: whenever it can); an error says why a free shift asked for cannot be taken.
    fn takes_free_shift(&self, steps: u8, free_shift: Option<bool>) -> Result<bool, Refusal> {
        match free_shift {
            None => Ok(steps > 0 && self.free_shift_open()),
            Some(false) => Ok(false),
            Some(true) if !self.has(Effect::FreeShift) => Err(Refusal::NoFreeShift),
            Some(true) if self.free_shift_used => Err(Refusal::FreeShiftUsed),
            Some(true) if steps == 0 => Err(Refusal::NothingToTurn),
            Some(true) => Ok(true),
        }
    }

    /// The workers a die showing `from` spends to show `to` (steps around 1-6-1, one of them the
    /// free shift where the move takes it), or why it cannot.
    fn shift_cost(&self, from: u8, to: u8, free_shift: Option<bool>) -> Result<u8, Refusal> {
        let steps = turn_steps(from, to);
        let cost = steps - u8::from(self.takes_free_shift(steps, free_shift)?);
        if cost > self.workers {
            return Err(Refusal::TooFewWorkers { from, to, cost, held: self.workers });
        }
        Ok(cost)
    }

    fn spend_shift(&mut self, from: u8, to: u8, free_shift: Option<bool>) {
        let steps = turn_steps(from, to);
        let free = self.takes_free_shift(steps, free_shift).unwrap_or(false);
        self.free_shift_used |= free;
        self.workers -= steps - u8::from(free);
    }

    fn gain_worker(&mut self) {
        let n = 1 + u8::from(self.has(Effect::WorkerBonus));
        self.workers = (self.workers + n).min(self.rules.max_workers);
    }

    /// Whether a cube may go on hex `i`: empty, touching a cube, and a cube of its colour held.
    fn can_place(&self, i: usize) -> bool {
        let board = self.board();
        self.placed >> i & 1 == 0
            && board.neighbours[i].iter().any(|&n| self.placed >> n & 1 == 1)
            && self.inventory[board.hexes[i].colour.index()] > 0
    }

    /// Every legal move now, in a fixed order: every move [`Game::check`] allows, less the second
    /// die's when both dice show the same number (ruling A9); a die use says whether it takes the
    /// free shift wherever that is open and the die is turned, both ways (ruling A8).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        if self.over {
            return out;
        }
        let board = self.board();
        if !self.started {
            return board.of_colour(Colour::Yellow).map(|i| Move::Start { hex: i as u8 }).collect();
        }
        match self.pending() {
            Some(Pending::Overflow) => {
                return Colour::ALL
                    .into_iter()
                    .filter(|c| self.inventory[c.index()] > 0)
                    .map(|colour| Move::Return { colour })
                    .collect();
            }
            Some(Pending::Red) => {
                out.extend((0..board.hexes.len()).filter(|&i| self.can_place(i)).map(|i| Move::Chain { hex: i as u8 }));
                out.push(Move::Pass);
                return out;
            }
            Some(Pending::White) => {
                out.extend(self.market_colours().into_iter().map(|colour| Move::Take { colour }));
                out.push(Move::Pass);
                return out;
            }
            None => {}
        }
        let gain_outer = self.has(Effect::GainOuter);
        for die in 0..2u8 {
            let Some(value) = self.dice[usize::from(die)] else { continue };
            if die == 1 && self.dice[0] == Some(value) {
                continue; // both dice show the same: using either is the same move
            }
            for face in 1..=6u8 {
                // Where the free shift is open and the die is turned, both ways (ruling A8).
                let steps = turn_steps(value, face);
                let shifts: &[Option<bool>] =
                    if steps > 0 && self.free_shift_open() { &[Some(true), Some(false)] } else { &[None] };
                for &free_shift in shifts {
                    if self.shift_cost(value, face, free_shift).is_err() {
                        continue;
                    }
                    for (card_pos, card) in self.market().into_iter().enumerate() {
                        let Some(card) = card else { continue };
                        let market = &self.card(card).market;
                        for (square, sq) in market.central.iter().enumerate() {
                            if sq.face != face {
                                continue;
                            }
                            let mut colours = vec![sq.colour];
                            if gain_outer {
                                colours.extend(market.outer.iter().copied());
                            }
                            colours.sort();
                            colours.dedup();
                            for colour in colours {
                                let (card, square) = (card_pos as u8, square as u8);
                                out.push(Move::Gain { die, face, card, square, colour, free_shift });
                            }
                        }
                    }
                    for i in 0..board.hexes.len() {
                        if board.hexes[i].number == face && self.can_place(i) {
                            out.push(Move::Place { die, face, hex: i as u8, free_shift });
                        }
                    }
                }
            }
            out.push(Move::Worker { die });
        }
        out
    }

    /// The colours shown on the market's squares, central and outer (ruling A4).
    fn market_colours(&self) -> Vec<Colour> {
        let mut colours: Vec<Colour> = self
            .market()
            .into_iter()
            .flatten()
            .flat_map(|id| {
                let m = &self.card(id).market;
                m.central.iter().map(|s| s.colour).chain(m.outer.iter().copied()).collect::<Vec<_>>()
            })
            .collect();
        colours.sort();
        colours.dedup();
        colours
    }

    /// Makes a move after checking it is legal ([`Game::check`]); on failure the game is
    /// unchanged.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.check(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Whether a move is legal now, by the rules themselves, not by looking it up among
    /// [`Game::legal_moves`]: those are the legal moves less the second die's when both dice
    /// show the same number (ruling A9), with the free shift always said where it is a choice.
    /// Tests check the two against each other over [`Move::every`].
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        self.why_illegal(mv).map_err(|reason| IllegalMove { mv, reason })
    }

    fn why_illegal(&self, mv: Move) -> Result<(), Refusal> {
        let fail = |r: Refusal| Err(r);
        if self.over {
            return fail(Refusal::Over);
        }
        let board = self.board();
        if !self.started {
            return match mv {
                Move::Start { hex }
                    if board.hexes.get(usize::from(hex)).is_some_and(|h| h.colour == Colour::Yellow) =>
                {
                    Ok(())
                }
                Move::Start { hex } => fail(Refusal::NotAStartSpace(hex)),
                _ => fail(Refusal::NotStarted),
            };
        }
        let hex_open = |hex: u8| -> Result<(), Refusal> {
            let i = usize::from(hex);
            let Some(h) = board.hexes.get(i) else { return fail(Refusal::NoHex(hex)) };
            if self.placed >> i & 1 == 1 {
                fail(Refusal::Filled(hex))
            } else if !board.neighbours[i].iter().any(|&n| self.placed >> n & 1 == 1) {
                fail(Refusal::Alone(hex))
            } else if self.inventory[h.colour.index()] == 0 {
                fail(Refusal::NotHeld(h.colour))
            } else {
                Ok(())
            }
        };
        match (self.pending(), mv) {
            (_, Move::Start { .. }) => fail(Refusal::Started),
            (Some(Pending::Overflow), Move::Return { colour }) => {
                if self.inventory[colour.index()] == 0 {
                    fail(Refusal::NotHeld(colour))
                } else {
                    Ok(())
                }
            }
            (Some(Pending::Red), Move::Chain { hex }) => hex_open(hex),
            (Some(Pending::Red | Pending::White), Move::Pass) => Ok(()),
            (Some(Pending::White), Move::Take { colour }) => {
                if self.market_colours().contains(&colour) {
                    Ok(())
                } else {
                    fail(Refusal::NotInMarket(colour))
                }
            }
            (Some(p), _) => fail(Refusal::ChoiceFirst(p)),
            (None, Move::Chain { .. } | Move::Take { .. } | Move::Return { .. } | Move::Pass) => {
                fail(Refusal::NoChoice)
            }
            (None, Move::Worker { die }) => self.die_value(die).map(|_| ()),
            (None, Move::Gain { die, face, card, square, colour, free_shift }) => {
                let value = self.die_value(die)?;
                let Some(id) = self.market().get(usize::from(card)).copied().flatten() else {
                    return fail(Refusal::NoCard(card));
                };
                let market = &self.card(id).market;
                let Some(sq) = market.central.get(usize::from(square)) else { return fail(Refusal::NoSquare(square)) };
                if sq.face != face {
                    return fail(Refusal::WrongFace { card, square, shows: sq.face, face });
                }
                if sq.colour != colour && !(self.has(Effect::GainOuter) && market.outer.contains(&colour)) {
                    return fail(Refusal::WrongColour { card, square, gives: sq.colour, colour });
                }
                self.face_cost(value, face, free_shift).map(|_| ())
            }
            (None, Move::Place { die, face, hex, free_shift }) => {
                let value = self.die_value(die)?;
                let Some(h) = board.hexes.get(usize::from(hex)) else { return fail(Refusal::NoHex(hex)) };
                if h.number != face {
                    return fail(Refusal::WrongNumber { hex, number: h.number, face });
                }
                hex_open(hex)?;
                self.face_cost(value, face, free_shift).map(|_| ())
            }
        }
    }

    /// The number a die of this turn shows, or why it cannot be used.
    fn die_value(&self, die: u8) -> Result<u8, Refusal> {
        match self.dice.get(usize::from(die)) {
            None => Err(Refusal::NoDie(die)),
            Some(None) => Err(Refusal::DieUsed(die)),
            Some(&Some(v)) => Ok(v),
        }
    }

    /// The workers to turn a die showing `value` to `face`, or why it cannot be.
    fn face_cost(&self, value: u8, face: u8, free_shift: Option<bool>) -> Result<u8, Refusal> {
        if !(1..=6).contains(&face) {
            return Err(Refusal::NoFace(face));
        }
        self.shift_cost(value, face, free_shift)
    }

    /// Makes a move the caller knows is legal (from [`Game::legal_moves`]); for search. An
    /// illegal move may leave the game inconsistent or panic on arithmetic overflow in debug
    /// builds.
    pub fn play_unchecked(&mut self, mv: Move) {
        match mv {
            Move::Start { hex } => {
                self.placed |= 1 << hex;
                self.started = true;
                self.begin_turn();
            }
            Move::Gain { die, face, colour, free_shift, .. } => {
                self.use_die(die, face, free_shift);
                self.gain_cube(colour);
            }
            Move::Place { die, face, hex, free_shift } => {
                self.use_die(die, face, free_shift);
                self.place(usize::from(hex));
            }
            Move::Worker { die } => {
                self.dice[usize::from(die)] = None;
                self.gain_worker();
            }
            Move::Chain { hex } => {
                self.pending.pop();
                self.place(usize::from(hex));
            }
            Move::Take { colour } => {
                self.pending.pop();
                self.gain_cube(colour);
            }
            Move::Return { colour } => {
                self.pending.pop();
                self.inventory[colour.index()] -= 1;
            }
            Move::Pass => {
                self.pending.pop();
            }
        }
        if self.pending.is_empty() && self.dice == [None, None] && self.started && !self.over {
            self.end_turn();
        }
    }

    fn use_die(&mut self, die: u8, face: u8, free_shift: Option<bool>) {
        if let Some(value) = self.dice[usize::from(die)].take() {
            self.spend_shift(value, face, free_shift);
        }
    }

    fn gain_cube(&mut self, colour: Colour) {
        if self.supply(colour) == 0 {
            return; // ruling A5
        }
        self.inventory[colour.index()] += 1;
        if self.held() > self.capacity() {
            self.pending.push(Pending::Overflow);
        }
    }

    fn place(&mut self, i: usize) {
        let colour = self.board().hexes[i].colour;
        self.inventory[colour.index()] -= 1;
        self.placed |= 1 << i;
        if self.effects().any(|e| e == Effect::PlacedGainsWorker { colour }) {
            self.gain_worker();
        }
        match colour {
            Colour::Red => self.pending.push(Pending::Red),
            Colour::White => self.pending.push(Pending::White),
            Colour::Blue => self.gain_worker(), // always taken: a worker never hurts
            Colour::Yellow => self.yellows += 1,
            Colour::Green => {}
        }
    }

    fn begin_turn(&mut self) {
        if self.rules.max_turns.is_some_and(|m| self.turn >= m) || self.turn >= self.instance.dice.len() {
            self.over = true;
            return;
        }
        let [a, b] = self.instance.dice[self.turn];
        self.dice = [Some(a), Some(b)];
        self.free_shift_used = false;
        self.yellows = 0;
    }

    /// "End of Turn": tuck a card per yellow placed, move the deck's top card to the discard,
    /// reshuffle the first time the deck runs out, end the game the second time.
    fn end_turn(&mut self) {
        for _ in 0..self.yellows {
            let card = self.discard.pop().or_else(|| self.deck.pop());
            if let Some(card) = card {
                self.tucked.push(card);
            }
        }
        self.yellows = 0;
        if let Some(top) = self.deck.pop() {
            self.discard.push(top);
        }
        self.turn += 1;
        if self.deck.is_empty() {
            if self.reshuffled {
                self.over = true;
                return;
            }
            self.reshuffled = true;
            let mut cards: Vec<u8> = self.discard.as_slice().to_vec();
            cards.extend_from_slice(self.deck.as_slice());
            self.discard.clear();
            let order = &self.instance.reshuffle;
            cards.sort_by_key(|c| order.iter().position(|x| x == c));
            self.second = cards.iter().copied().collect();
            // Top card first in `order`: the deck keeps its top last.
            self.deck = cards.into_iter().rev().collect();
            if let Some(top) = self.deck.pop() {
                self.discard.push(top);
            }
            let board = self.board();
            let empty_yellow = board.of_colour(Colour::Yellow).filter(|&i| self.placed >> i & 1 == 0).count();
            for _ in 0..empty_yellow {
                if let Some(top) = self.deck.pop() {
                    self.discard.push(top);
                }
            }
            if self.deck.is_empty() {
                self.over = true; // ruling Y4
                return;
            }
        }
        self.begin_turn();
    }

    /// The dice of this turn become `roll` (rulebook, "Gameplay": "roll both dice"): what a
    /// player at the table rolled, in place of the instance's dice. Only at a turn's start: the
    /// game started and not over, no die used and no choice open.
    pub fn set_roll(&mut self, roll: [u8; 2]) -> Result<(), String> {
        if !self.started || self.over {
            return Err("a roll is set at the start of a turn of a game started and not over".into());
        }
        if self.dice.iter().any(Option::is_none) || !self.pending.is_empty() {
            return Err("a roll is set at the start of a turn, before any die is used".into());
        }
        if let Some(v) = roll.iter().find(|v| !(1..=6).contains(*v)) {
            return Err(format!("a die shows 1 to 6, not {v}"));
        }
        self.dice = [Some(roll[0]), Some(roll[1])];
        Ok(())
    }

    /// The cards whose order the player cannot see: the market deck below its top card (the top
    /// card is in the market, "Create Market"), bottom first. Every other card's place is seen:
    /// the board, the tucked cards, the discard (every card in it was laid face up) and the
    /// deck's top.
    pub fn hidden(&self) -> &[u8] {
        let deck = self.deck.as_slice();
        &deck[..deck.len().saturating_sub(1)]
    }

    /// The reshuffled deck as it was formed, top card first (empty before the reshuffle).
    pub fn second_deck(&self) -> &[u8] {
        self.second.as_slice()
    }

    /// How much of the instance the game has shown so far ([`Seen`]): the first deck's cards
    /// turned face up (in the instance's deck order, so tucked ones count), the reshuffled deck's
    /// cards that came up, and the turns whose roll was rolled.
    pub fn revealed(&self) -> Seen {
        let hidden = self.hidden();
        let deck = if self.reshuffled {
            self.instance.deck.len()
        } else {
            self.instance.deck.iter().position(|c| hidden.contains(c)).unwrap_or(self.instance.deck.len())
        };
        let reshuffle = if self.reshuffled { self.second.len() - hidden.len() } else { 0 };
        let dice = if !self.started {
            0
        } else if self.over {
            self.turn
        } else {
            self.turn + 1
        };
        Seen { deck, reshuffle, dice }
    }

    /// The reshuffled deck's cards that a table instance holds: the cards of the second deck
    /// among its given reshuffle cards (they come first in the deck's order).
    fn known_second(&self) -> usize {
        let given = &self.instance.reshuffle[..self.instance.seen().reshuffle.min(self.instance.reshuffle.len())];
        self.second.as_slice().iter().take_while(|c| given.contains(c)).count()
    }

    /// The first thing the game has shown that its instance does not hold: for a table instance
    /// ([`Instance::is_table`]), the card now turned up or the roll now rolled at the table, which
    /// must be entered before the game goes on; `None` for a whole instance, or when every card
    /// and roll shown is held.
    pub fn unseen(&self) -> Option<Chance> {
        let seen = self.instance.seen?;
        let shown = self.revealed();
        if shown.deck > seen.deck {
            return Some(Chance::Deck { index: seen.deck });
        }
        if self.reshuffled && shown.reshuffle > self.known_second() {
            return Some(Chance::Reshuffle { index: self.known_second() });
        }
        if shown.dice > seen.dice {
            return Some(Chance::Roll { turn: seen.dice });
        }
        None
    }

    /// The instance as far as the table has seen it now: the cards turned up and the rolls
    /// rolled so far, and nothing of the future, not even a seed (a table instance,
    /// [`Instance::table`]). Two
    /// games that differ only in what was never seen give the same one.
    pub fn seen_instance(&self) -> Instance {
        let shown = self.revealed();
        let held = self.instance.seen();
        let second = self.second.as_slice();
        let reshuffle =
            &second[..shown.reshuffle.min(if self.instance.is_table() { self.known_second() } else { second.len() })];
        let i = self.instance;
        Instance::table(
            None,
            i.board,
            &i.deck[..shown.deck.min(held.deck)],
            reshuffle,
            &i.dice[..shown.dice.min(held.dice)],
        )
        .unwrap_or_else(|_| i.clone())
    }

    /// The same position with another future: everything the player has seen kept (board,
    /// cubes, workers, the turn and its dice, the discard and the deck's top, the tucked cards,
    /// the choices open), the deck below its top ordered as `hidden` (bottom first, the same
    /// cards as [`Game::hidden`]), and the dice of later turns and the reshuffle order taken
    /// from `instance`. `instance` must be a checked instance ([`Instance::check`]) of the same
    /// board card; this is what the fair-play solver deals its futures with.
    pub fn rebind<'d>(&self, instance: &'d Instance, hidden: &[u8]) -> Result<Game<'d>, String>
    where
        'c: 'd,
    {
        if instance.board != self.instance.board {
            return Err(format!("the instance's board card is {}, not {}", instance.board, self.instance.board));
        }
        let mut now = self.hidden().to_vec();
        let mut asked = hidden.to_vec();
        now.sort_unstable();
        asked.sort_unstable();
        if now != asked {
            return Err(format!("hidden: {hidden:?} is not an order of the hidden cards {now:?}"));
        }
        let mut deck: Stack<u8, 9> = hidden.iter().copied().collect();
        if let Some(top) = self.deck.last() {
            deck.push(top);
        }
        Ok(Game {
            catalogue: self.catalogue,
            instance,
            rules: self.rules,
            placed: self.placed,
            inventory: self.inventory,
            workers: self.workers,
            turn: self.turn,
            dice: self.dice,
            deck,
            discard: self.discard,
            tucked: self.tucked,
            reshuffled: self.reshuffled,
            second: self.second,
            yellows: self.yellows,
            free_shift_used: self.free_shift_used,
            pending: self.pending,
            started: self.started,
            over: self.over,
        })
    }

    /// A compact identity of the position, for search: two games of the same instance and rules
    /// with the same key have the same future. It packs the placed cubes, the inventory, the
    /// workers, the turn, the market piles (their cards: the order of each pile follows from
    /// the instance), the tucked cards (their effects), the dice still to use, the pending
    /// choices, and the turn's yellow count and free shift.
    pub fn key(&self) -> u128 {
        let mut k = self.skeleton_key();
        for n in self.inventory {
            k = (k << 3) | u128::from(n);
        }
        (k << 5) | u128::from(self.workers) // up to 31: the track's top is at most 20
    }

    /// The key without the inventory and the workers: positions alike in everything else. Of
    /// two such positions, one holding every cube the other holds (and maybe more) and at
    /// least as many workers scores at least as much (ruling S1).
    pub fn skeleton_key(&self) -> u128 {
        let mask = |cards: &[u8]| cards.iter().fold(0u128, |m, &c| m | 1 << (c - 1));
        let mut k = u128::from(self.placed); // 19 bits
        let mut put = |value: u128, bits: u32| {
            k = (k << bits) | value;
        };
        put(self.turn as u128, 5);
        put(mask(self.discard.as_slice()), 9);
        put(mask(self.tucked.as_slice()), 9);
        put(u128::from(self.reshuffled), 1);
        for d in self.dice {
            put(u128::from(d.unwrap_or(0)), 3);
        }
        put(self.pending.len() as u128, 2);
        for p in self.pending.as_slice() {
            put(*p as u128, 2);
        }
        put(u128::from(self.yellows), 2);
        put(u128::from(self.free_shift_used), 1);
        put(u128::from(self.started), 1);
        put(u128::from(self.over), 1);
        k
    }

    /// The score as if the game ended now ("End of Game"), with its parts.
    pub fn score(&self) -> Score {
        let board = self.board();
        let filled = |hexes: &[usize]| hexes.iter().all(|&i| self.placed >> i & 1 == 1);
        let territories: u32 = board
            .territories
            .iter()
            .filter(|t| filled(t))
            .map(|t| TERRITORY_POINTS.get(t.len()).copied().unwrap_or(0))
            .sum();
        let colours =
            Colour::ALL.iter().filter(|&&c| board.of_colour(c).all(|i| self.placed >> i & 1 == 1)).count() as u32;
        let placed_of = |c: Colour| board.of_colour(c).filter(|&i| self.placed >> i & 1 == 1).count() as u32;
        let green = placed_of(Colour::Green);
        let mut yellow = 0;
        let mut per_worker = false;
        for e in self.effects() {
            match e {
                Effect::PointsPerPlaced { colour, points } => yellow += points * placed_of(colour),
                Effect::PointsPerFullTerritory { size, points } => {
                    yellow += points * board.territories.iter().filter(|t| t.len() == size && filled(t)).count() as u32
                }
                Effect::PointsPerWorker => per_worker = true,
                _ => {}
            }
        }
        let workers = if per_worker { u32::from(self.workers) } else { u32::from(self.workers) / 2 };
        Score { territories, colours, green, yellow, workers }
    }
}

/// A score and its parts ("End of Game").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Score {
    /// Filled territories, by the chart.
    pub territories: u32,
    /// 1 per completed colour.
    pub colours: u32,
    /// 1 per placed green cube.
    pub green: u32,
    /// From yellow effects.
    pub yellow: u32,
    /// 1 per 2 workers (or per worker with the effect).
    pub workers: u32,
}

impl fmt::Display for Score {
    /// The total, the rank and the parts, as outputs show them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}): territories {}, completed colours {}, green cubes {}, yellow effects {}, workers {}",
            self.total(),
            self.rank(),
            self.territories,
            self.colours,
            self.green,
            self.yellow,
            self.workers
        )
    }
}

impl Score {
    /// The total.
    pub fn total(&self) -> u32 {
        self.territories + self.colours + self.green + self.yellow + self.workers
    }

    /// The rank by the rulebook's chart.
    pub fn rank(&self) -> &'static str {
        rank_of(self.total())
    }
}

/// The rank a final score earns (rulebook, the rank chart after scoring: Novice up to 21, Apprentice 22 to
/// 25, Journeyman 26 to 29, Expert 30 to 33, Master 34 and more).
pub fn rank_of(total: u32) -> &'static str {
    match total {
        0..=21 => "Novice",
        22..=25 => "Apprentice",
        26..=29 => "Journeyman",
        30..=33 => "Expert",
        _ => "Master",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::seq::IndexedRandom;
    use rand::{RngExt, SeedableRng};

    /// Random playouts from seeded instances (a third with the test options of ruling G2): every
    /// generated move is legal by `play`, cubes and cards are conserved, limits hold, the turns
    /// left never exceed [`Game::turns_left_at_most`], and every game ends within its dice.
    #[test]
    fn random_playouts_keep_the_invariants() {
        let catalogue = Catalogue::house();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        for seed in 0..300u64 {
            let instance = Instance::from_seed(seed);
            let rules = if seed % 3 == 0 {
                busy_rules(&mut rng, &catalogue, &instance)
            } else {
                Rules { max_workers: rng.random_range(3..=8), ..Rules::default() }
            };
            let mut game = Game::new(&catalogue, &instance, rules);
            let mut steps = 0;
            while !game.is_over() {
                let moves = game.legal_moves();
                assert!(!moves.is_empty(), "seed {seed}: no legal move in a game not over");
                let mv = *moves.choose(&mut rng).expect("non-empty");
                game.play(mv).unwrap_or_else(|e| panic!("seed {seed}: generated move refused: {e}"));
                steps += 1;
                assert!(steps < 500, "seed {seed}: the game does not end");
                // Cubes conserved: placed + inventory + supply = the counts.
                for c in Colour::ALL {
                    let placed = game.board().of_colour(c).filter(|&i| game.placed() >> i & 1 == 1).count() as u8;
                    assert_eq!(placed + game.inventory()[c.index()] + game.supply(c), c.count() as u8);
                }
                if game.pending() != Some(Pending::Overflow) {
                    assert!(game.inventory().iter().sum::<u8>() <= game.capacity());
                }
                assert!(game.workers() <= rules.max_workers);
                if !game.is_over() {
                    let mut rest = game.clone();
                    let (turn, bound) = (rest.turn(), rest.turns_left_at_most());
                    while !rest.is_over() {
                        rest.dice = [None, None];
                        rest.pending.clear();
                        rest.end_turn();
                    }
                    assert!(
                        rest.turn() - turn <= bound,
                        "seed {seed}: {} turns left, bound {bound}",
                        rest.turn() - turn
                    );
                }
                // Cards conserved: board + deck + discard + tucked = 9.
                assert_eq!(1 + game.deck.len() + game.discard.len() + game.tucked.len(), 9);
            }
            assert!(game.turn() <= super::super::instance::MAX_TURNS);
            let first_deck = 8 - rules.tucked_at_start_ids().count();
            assert!(game.turn() + 1 >= first_deck, "seed {seed}: the first deck alone gives a turn a card but one");
        }
    }

    /// Rules for random tests that reach the free shift and the workers' top often: any top
    /// from 2 to 8, the workers starting anywhere on the track, cards (the free shift's in half
    /// the games) tucked at the start.
    fn busy_rules(rng: &mut impl rand::Rng, catalogue: &Catalogue, instance: &Instance) -> Rules {
        let max_workers = rng.random_range(2..=8u8);
        let free = catalogue.cards.iter().find(|c| c.market.effect == Effect::FreeShift).map_or(0, |c| c.id);
        let mut tucked = 0u16;
        for id in 1..=9u8 {
            let p = if id == free { 0.5 } else { 0.1 };
            if id != instance.board && rng.random_bool(p) {
                tucked |= 1 << id;
            }
        }
        Rules {
            max_workers,
            start_workers: rng.random_range(0..=max_workers),
            tucked_at_start: tucked,
            ..Rules::default()
        }
    }

    /// The generator against the rules: at every position of random games, every listed move
    /// passes [`Game::check`], and every move of [`Move::every`] that passes it reaches the
    /// position of a listed move (the second die's moves, when both dice show the same number,
    /// as the first die's: ruling A9). Free shifts taken and paid both appear.
    #[test]
    fn legal_moves_are_exactly_the_moves_the_rules_allow() {
        let catalogue = Catalogue::house();
        let every = Move::every();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(17);
        let (mut taken, mut paid) = (0, 0);
        for seed in 0..120u64 {
            let instance = Instance::from_seed(seed);
            let rules = busy_rules(&mut rng, &catalogue, &instance);
            rules.check(&instance).expect("valid rules");
            let mut game = Game::new(&catalogue, &instance, rules);
            while !game.is_over() {
                let legal = game.legal_moves();
                let mut reached = std::collections::HashSet::new();
                for &mv in &legal {
                    game.check(mv).unwrap_or_else(|e| panic!("seed {seed}: listed but refused: {e}"));
                    let mut next = game.clone();
                    next.play_unchecked(mv);
                    reached.insert(next.key());
                }
                for &mv in &every {
                    if game.check(mv).is_err() {
                        continue;
                    }
                    let same_dice = game.dice[0].is_some() && game.dice[0] == game.dice[1];
                    let mv = match mv {
                        Move::Gain { die: 1, face, card, square, colour, free_shift } if same_dice => {
                            Move::Gain { die: 0, face, card, square, colour, free_shift }
                        }
                        Move::Place { die: 1, face, hex, free_shift } if same_dice => {
                            Move::Place { die: 0, face, hex, free_shift }
                        }
                        Move::Worker { die: 1 } if same_dice => Move::Worker { die: 0 },
                        other => other,
                    };
                    assert!(
                        game.check(mv).is_ok(),
                        "seed {seed}: {mv} refused for the first die, allowed for the second"
                    );
                    let mut next = game.clone();
                    next.play_unchecked(mv);
                    assert!(
                        reached.contains(&next.key()),
                        "seed {seed}: {mv} is legal but reaches no listed move's position"
                    );
                    match mv {
                        Move::Gain { free_shift: Some(true), .. } | Move::Place { free_shift: Some(true), .. } => {
                            taken += 1
                        }
                        Move::Gain { free_shift: Some(false), .. } | Move::Place { free_shift: Some(false), .. }
                            if game.free_shift_open() =>
                        {
                            paid += 1
                        }
                        _ => {}
                    }
                }
                let mv = *legal.choose(&mut rng).expect("a game not over has a move");
                game.play(mv).expect("listed");
            }
        }
        assert!(taken > 100 && paid > 100, "free shifts taken {taken}, declined {paid}");
    }

    /// An illegal move is refused and leaves the game unchanged.
    #[test]
    fn checked_play_refuses_and_keeps_the_game() {
        let catalogue = Catalogue::house();
        let instance = Instance::from_seed(3);
        let mut game = Game::new(&catalogue, &instance, Rules::default());
        let before = format!("{game:?}");
        assert!(game.play(Move::Worker { die: 0 }).is_err(), "the start space comes first");
        assert!(game.play(Move::Start { hex: 9 }).is_err() || game.board().hexes[9].colour == Colour::Yellow);
        assert_eq!(format!("{game:?}"), before);
    }

    /// The rulebook's scoring example, on a house board: filled territories score by the chart,
    /// completed colours 1 each, placed greens 1 each, a tucked "1 point for each placed white
    /// cube" 1 per white, and 3 workers 1 point.
    #[test]
    fn scoring_follows_the_chart() {
        let catalogue = Catalogue::house();
        let white_card = catalogue
            .cards
            .iter()
            .find(|c| c.market.effect == Effect::PointsPerPlaced { colour: Colour::White, points: 1 })
            .map(|c| c.id)
            .expect("the house set has the rulebook's white effect");
        let instance = Instance::from_seed(1);
        let mut game = Game::new(&catalogue, &instance, Rules::default());
        let board = game.board().clone();
        // Fill every white and yellow hex and every hex of the first green territory.
        let mut placed = 0u32;
        for i in board.of_colour(Colour::White).chain(board.of_colour(Colour::Yellow)) {
            placed |= 1 << i;
        }
        let green_territory = board
            .territories
            .iter()
            .find(|t| board.hexes[t[0]].colour == Colour::Green)
            .expect("a green territory")
            .clone();
        for &i in &green_territory {
            placed |= 1 << i;
        }
        game.placed = placed;
        game.workers = 3;
        game.tucked = [white_card].into_iter().collect();
        let score = game.score();
        let filled_points: u32 = board
            .territories
            .iter()
            .filter(|t| t.iter().all(|&i| placed >> i & 1 == 1))
            .map(|t| TERRITORY_POINTS[t.len()])
            .sum();
        let expected_territories = {
            // White and yellow territories, all filled, plus the green one.
            let of = |c: Colour| -> u32 {
                board
                    .territories
                    .iter()
                    .filter(|t| board.hexes[t[0]].colour == c)
                    .map(|t| TERRITORY_POINTS[t.len()])
                    .sum()
            };
            of(Colour::White) + of(Colour::Yellow) + TERRITORY_POINTS[green_territory.len()]
        };
        assert_eq!(score.territories, filled_points);
        assert_eq!(score.territories, expected_territories);
        let greens_full = green_territory.len() == 4;
        assert_eq!(score.colours, 2 + u32::from(greens_full), "white and yellow completed");
        assert_eq!(score.green, green_territory.len() as u32);
        assert_eq!(score.yellow, 4, "four white cubes placed");
        assert_eq!(score.workers, 1, "3 workers give 1 point");
    }
}

/// Rule details, each on a position set up by hand.
#[cfg(test)]
mod rule_tests {
    use super::*;

    fn setup(catalogue: &Catalogue, instance: &Instance) -> Game<'static> {
        // Leaked for the test's lifetime: a game borrows its catalogue and instance.
        let catalogue: &'static Catalogue = Box::leak(Box::new(catalogue.clone()));
        let instance: &'static Instance = Box::leak(Box::new(instance.clone()));
        let mut game = Game::new(catalogue, instance, Rules::default());
        let start = game.board().of_colour(Colour::Yellow).next().expect("a yellow hex");
        game.play(Move::Start { hex: start as u8 }).expect("start");
        game
    }

    /// A hex of `colour` touching a placed cube, if any.
    fn touching(game: &Game<'_>, colour: Colour) -> Option<usize> {
        let board = game.board();
        (0..board.hexes.len()).find(|&i| {
            board.hexes[i].colour == colour
                && game.placed >> i & 1 == 0
                && board.neighbours[i].iter().any(|&n| game.placed >> n & 1 == 1)
        })
    }

    /// The id of the house card whose yellow box is the free shift.
    fn free_shift_card(catalogue: &Catalogue) -> u8 {
        catalogue.cards.iter().find(|c| c.market.effect == Effect::FreeShift).map(|c| c.id).expect("a free shift card")
    }

    #[test]
    fn turning_a_die_costs_a_worker_a_step_and_wraps_from_six_to_one() {
        let game = setup(&Catalogue::house(), &Instance::from_seed(1));
        let mut g = game.clone();
        g.workers = 1;
        assert_eq!(g.shift_cost(6, 1, None), Ok(1), "6 turns to 1 in one step");
        assert_eq!(g.shift_cost(1, 6, None), Ok(1));
        assert!(g.shift_cost(2, 4, None).is_err(), "two steps need two workers");
        g.workers = 3;
        assert_eq!(g.shift_cost(2, 5, None), Ok(3));
        assert_eq!(g.shift_cost(4, 4, None), Ok(0));
        assert_eq!(g.shift_cost(2, 5, Some(false)), Ok(3));
        assert!(g.shift_cost(2, 3, Some(true)).is_err(), "no free shift without its card");
    }

    /// The free shift is one step of a turning, the rest paid ("Clarifications": workers and
    /// yellow effects on a single die); it is taken only when the move says so (or, unsaid, when
    /// it can be), once a turn, and never on a die that needs no turning.
    #[test]
    fn the_free_shift_is_one_step_taken_when_the_move_says() {
        let catalogue = Catalogue::house();
        let mut g = setup(&catalogue, &Instance::from_seed(1));
        g.tucked = [free_shift_card(&catalogue)].into_iter().collect();
        g.workers = 2;
        assert_eq!(g.shift_cost(1, 4, Some(true)), Ok(2), "three steps: the free one and two workers");
        assert_eq!(g.shift_cost(1, 4, None), Ok(2), "unsaid: taken, as records before the choice meant");
        assert!(g.shift_cost(1, 4, Some(false)).is_err(), "three workers needed, two held");
        assert_eq!(g.shift_cost(3, 4, Some(false)), Ok(1));
        assert!(g.shift_cost(4, 4, Some(true)).is_err(), "a die showing its number has nothing to turn");
        assert_eq!(g.shift_cost(4, 4, None), Ok(0));
        g.free_shift_used = true;
        assert!(g.shift_cost(3, 4, Some(true)).is_err(), "once a turn");
        assert_eq!(g.shift_cost(3, 4, None), Ok(1), "unsaid and used: paid");
    }

    #[test]
    fn red_opens_a_free_placement_and_white_a_market_colour() {
        let catalogue = Catalogue::house();
        for seed in 0..40 {
            let game = setup(&catalogue, &Instance::from_seed(seed));
            let Some(red) = touching(&game, Colour::Red) else { continue };
            let mut g = game.clone();
            g.inventory = [1, 0, 0, 1, 0]; // a red and a white cube
            g.workers = 6;
            let face = g.board().hexes[red].number;
            g.play(Move::Place { die: 0, face, hex: red as u8, free_shift: None })
                .expect("the red hex touches the start");
            assert_eq!(g.pending(), Some(Pending::Red));
            let moves = g.legal_moves();
            assert!(moves.contains(&Move::Pass));
            assert!(moves.iter().all(|m| matches!(m, Move::Chain { .. } | Move::Pass)));
            // Every offered hex is white (the only cube left), empty and touching a cube.
            for m in &moves {
                if let Move::Chain { hex } = *m {
                    assert_eq!(g.board().hexes[usize::from(hex)].colour, Colour::White);
                }
            }
            if let Some(Move::Chain { hex }) = moves.iter().find(|m| matches!(m, Move::Chain { .. })).copied() {
                g.play(Move::Chain { hex }).expect("offered");
                assert_eq!(g.pending(), Some(Pending::White), "the white cube's effect follows");
                let takes: Vec<Colour> = g
                    .legal_moves()
                    .into_iter()
                    .filter_map(|m| if let Move::Take { colour } = m { Some(colour) } else { None })
                    .collect();
                assert_eq!(takes, g.market_colours(), "white gains a colour shown in the market");
                return;
            }
        }
        panic!("no seed gave a red hex next to the start with a white hex beyond");
    }

    #[test]
    fn a_full_inventory_returns_a_cube_of_the_players_choice() {
        let mut g = setup(&Catalogue::house(), &Instance::from_seed(2));
        g.inventory = [1, 1, 1, 0, 0];
        g.gain_cube(Colour::White);
        assert_eq!(g.pending(), Some(Pending::Overflow));
        let returns: Vec<Move> = g.legal_moves();
        assert_eq!(
            returns,
            vec![
                Move::Return { colour: Colour::Red },
                Move::Return { colour: Colour::Blue },
                Move::Return { colour: Colour::Green },
                Move::Return { colour: Colour::White },
            ],
            "any cube, the new one included"
        );
        g.play(Move::Return { colour: Colour::White }).expect("offered");
        assert_eq!(g.inventory, [1, 1, 1, 0, 0]);
    }

    #[test]
    fn two_yellows_tuck_two_cards_from_the_discard_top() {
        let mut g = setup(&Catalogue::house(), &Instance::from_seed(4));
        // After a few turns the discard holds several cards.
        for _ in 0..3 {
            g.dice = [None, None];
            g.end_turn();
        }
        let discard_before = g.discard.as_slice().to_vec();
        assert!(discard_before.len() >= 2);
        let moved_next = g.deck.last().expect("cards left");
        g.yellows = 2;
        g.dice = [None, None];
        g.end_turn();
        let n = discard_before.len();
        assert_eq!(g.tucked.as_slice(), &[discard_before[n - 1], discard_before[n - 2]], "the top, then the next");
        assert_eq!(g.discard.last(), Some(moved_next), "then the deck's top card moves");
    }

    #[test]
    fn the_reshuffle_follows_the_instance_and_deals_extras_for_empty_yellows() {
        let catalogue = Catalogue::house();
        let instance = Instance::from_seed(5);
        let mut g = setup(&catalogue, &instance);
        while !g.reshuffled {
            g.dice = [None, None];
            g.end_turn();
        }
        assert_eq!(g.turn, 7, "the first deck of 8 gives 7 turns");
        // The deck and discard now hold the 8 market cards in the reshuffle order.
        let mut now: Vec<u8> = g.discard.as_slice().to_vec();
        now.extend(g.deck.as_slice().iter().rev());
        let order: Vec<u8> = instance.reshuffle.iter().copied().filter(|&c| c != instance.board).collect();
        assert_eq!(now, order);
        // One card starts the market, then one per empty yellow hex (two: only the start is placed).
        assert_eq!(g.discard.len(), 1 + 2);
        while !g.is_over() {
            g.dice = [None, None];
            g.end_turn();
        }
        assert_eq!(g.turn, 7 + (8 - 3), "then the rest of the deck, a turn a card");
    }
}

/// The free shift against the workers' top, on the hand-built position of
/// `tests/fixtures/coe/free-shift-at-the-top.json` (ruling A8).
#[cfg(test)]
mod free_shift_tests {
    use super::super::record::Record;
    use super::*;

    const AT_THE_TOP: &str = include_str!("../../../tests/fixtures/coe/free-shift-at-the-top.json");

    /// Six workers, the track's top; die 0 shows 3, one step from the blue hex 5 (4); die 1
    /// shows 4, one step from the green hex 10 (5), which touches no cube until the blue one is
    /// placed. The free shift on die 0 leaves 6 workers, blue's worker is lost to the top, and
    /// die 1 costs one: 5. Paying on die 0 leaves 5, blue brings back the sixth, and the free
    /// shift turns die 1: 6, a point more.
    #[test]
    fn at_the_top_the_free_shift_on_the_first_die_scores_less_than_paying() {
        let catalogue = Catalogue::house();
        let record = Record::from_json("free-shift-at-the-top.json", AT_THE_TOP).expect("the fixture reads");
        let (game, _) = record.replay(&catalogue, "free-shift-at-the-top.json").expect("the fixture replays");
        assert_eq!((game.workers(), game.rules().max_workers, game.dice()), (6, 6, [Some(3), Some(4)]));
        assert!(game.free_shift_open());
        let blue = |free_shift| Move::Place { die: 0, face: 4, hex: 5, free_shift };
        let green = |free_shift| Move::Place { die: 1, face: 5, hex: 10, free_shift };
        assert_eq!(game.check(green(Some(true))).map_err(|e| e.reason), Err(Refusal::Alone(10)), "blue comes first");
        let legal = game.legal_moves();
        assert!(legal.contains(&blue(Some(true))) && legal.contains(&blue(Some(false))), "both are offered");
        let end = |moves: [Move; 2]| {
            let mut g = game.clone();
            for mv in moves {
                g.play(mv).unwrap_or_else(|e| panic!("{e}"));
            }
            assert!(g.is_over());
            (g.workers(), g.score().total())
        };
        let free_first = end([blue(Some(true)), green(None)]);
        let paid_first = end([blue(Some(false)), green(Some(true))]);
        assert_eq!((free_first.0, paid_first.0), (5, 6));
        assert!(free_first.1 < paid_first.1, "free shift first {free_first:?}, paid first {paid_first:?}");
        assert_eq!(end([blue(None), green(None)]), free_first, "unsaid, the free shift goes to the first die turned");
        // Once taken, it is refused for the second die.
        let mut g = game.clone();
        g.play(blue(Some(true))).expect("legal");
        assert_eq!(g.check(green(Some(true))).map_err(|e| e.reason), Err(Refusal::FreeShiftUsed));
    }
}
