//! A game of Cube Express as a state machine: setup for 2 to 4 players from a seed, the actions
//! of a turn applied one at a time with every rule checked, the legal actions at any point, and
//! the end of the game (rulebook, "Setup", "Playing the Game", "End of the Game").

use std::sync::Arc;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::action::{Action, Lay, Payment};
use super::board::{Board, CityGrowth, LayError, Piece, Placed};
use super::catalogue::{COLUMNS, Content, StockTrack};
use super::colour::Colour;
use super::options::{CrossingDividends, Options, Passengers, StationPayment};
use super::resource::{Conversion, Resource, Resources};
use super::tile::{Centre, Face};
use crate::grid::square::Cell;

/// Cubes per player ("100 Wooden cubes (25 per player)").
pub const CUBES: u8 = 25;
/// Tiles in a hand ("each player always has 3 track tiles on their hand").
pub const HAND: usize = 3;
/// Stations on the technology track at the start (the sixth stands on the starting tile).
pub const TRACK_STATIONS: u8 = 5;
/// 9-VP tokens in the box.
pub const TOKENS: u8 = 6;
/// Points of a 9-VP token.
pub const TOKEN_VP: i32 = 9;
/// Most cubes of one player on one objective card ("No player may have more than 5 cubes").
pub const OBJECTIVE_LIMIT: u8 = 5;
/// Cubes of an unused colour on each objective card with 2 players.
pub const NEUTRAL_CUBES: u8 = 3;
/// Dividends at the start.
pub const START_DIVIDENDS: u8 = 2;

/// One player's pieces and cubes off the map.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Player {
    /// The player's colour.
    pub colour: Colour,
    /// Cubes in the reserve (multi-purpose cubes).
    pub reserve: u8,
    /// Cubes in the dividend area (1 VP each at the end).
    pub dividends: u8,
    /// Resources in storage.
    pub store: Resources,
    /// Stations built from the technology track, 0 to 5.
    pub built: u8,
    /// The space of the disc on the stock value track.
    pub stock: u8,
    /// Whether the cube on each of the three `$` spaces is still there.
    pub dollars: [bool; 3],
    /// The cells of the locomotives; the second is `None` until built.
    pub locomotives: [Option<Cell>; 2],
    /// 9-VP tokens held.
    pub tokens: u8,
    /// Whether the player has reached the stock maximum (one token at most for it).
    pub reached_max: bool,
    /// Tile ids in hand.
    pub hand: Vec<u8>,
    /// The running score: every point banked so far except the objective cards, kept up to date
    /// as cubes move (checked against [`super::score::final_scores`] by the tests). Not part of
    /// the position format: recomputed when a position is read.
    #[serde(skip)]
    pub banked: i32,
}

/// How the game is ending (rulebook, "End of the Game"). As JSON, `{"state": ...}` with `left`
/// for the final round only; any other field is refused by name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "state", rename_all = "kebab-case")]
pub enum Ending {
    /// No end condition yet.
    #[default]
    Playing,
    /// A player built the last station or reached the stock maximum: the round is finished, then
    /// the game ends.
    RoundEnd,
    /// The stack ran out: a final round without market, `left` turns to go.
    FinalRound {
        /// Turns still to play.
        left: u8,
    },
    /// The game is over.
    Over,
}

impl<'de> Deserialize<'de> for Ending {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Ending, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Ending;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object with `state`")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Ending, A::Error> {
                let mut left = None;
                let t = super::tagged::read(map, "the ending", "state", &["left"], |_, map| {
                    left = Some(map.next_value()?);
                    Ok(())
                })?;
                match t.kind.as_str() {
                    "playing" => t.allow(&[]).map(|()| Ending::Playing),
                    "round-end" => t.allow(&[]).map(|()| Ending::RoundEnd),
                    "final-round" => {
                        t.allow(&["left"]).and_then(|()| Ok(Ending::FinalRound { left: t.need(left, "left")? }))
                    }
                    "over" => t.allow(&[]).map(|()| Ending::Over),
                    _ => Err(t.unknown(&["playing", "round-end", "final-round", "over"])),
                }
            }
        }
        d.deserialize_map(V)
    }
}

/// Where the active player is in their turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// Step I: a tile is to be laid (trades allowed).
    #[default]
    Lay,
    /// Step II: locomotives (ends with the market, step III).
    Move,
    /// After the market: trades, then the end of the turn.
    End,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
struct Entry {
    picked: bool,
    delivered: bool,
    passenger: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
struct Movement {
    coal: u8,
    used: u8,
    current: Option<u8>,
    finished: [bool; 2],
    visited: Vec<Cell>,
    entry: Option<Entry>,
}

/// Everything about a game that its actions can change, mid-turn state included, as one value
/// to compare and hash: two games with equal keys (and the same content) have the same legal
/// actions and the same futures. For searches that must not visit a position twice.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameKey {
    players: Vec<Player>,
    board: Vec<Placed>,
    stack: usize,
    display: [Option<u8>; COLUMNS],
    cubes: [[u8; 4]; COLUMNS],
    tokens: u8,
    active: u8,
    turns: u32,
    ending: Ending,
    phase: Phase,
    movement: Movement,
}

/// Why an action is not allowed now.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The action belongs to another step of the turn.
    #[error("not allowed now ({0})")]
    WrongStep(&'static str),
    /// Not enough of something.
    #[error("not enough {what}: {need} needed, {have} held")]
    Short {
        /// What is short.
        what: &'static str,
        /// Needed.
        need: u8,
        /// Held.
        have: u8,
    },
    /// The tile is not in the hand.
    #[error("tile {0} is not in the hand")]
    NotInHand(u8),
    /// A rotation other than 0 to 3.
    #[error("rotation {0}: expected 0 to 3")]
    Rotation(u8),
    /// The tile does not fit.
    #[error(transparent)]
    Lay(#[from] LayError),
    /// `no-lay` while a tile fits.
    #[error("a tile of the hand fits; one must be laid")]
    MustLay,
    /// The centre action cannot be taken.
    #[error("the centre action cannot be taken: {0}")]
    Centre(&'static str),
    /// A station payment that is wrong.
    #[error("the station costs {cost} cubes, paid {paid}")]
    Payment {
        /// The cost.
        cost: u8,
        /// What was paid.
        paid: u8,
    },
    /// A locomotive that cannot move this way.
    #[error("the {} locomotive cannot move to {to}: {why}", super::action::ordinal(*.locomotive))]
    Move {
        /// 0 for the first, 1 for the second.
        locomotive: u8,
        /// Target.
        to: Cell,
        /// Why.
        why: &'static str,
    },
    /// An action at a tile that does not offer it.
    #[error("nothing to {0} here")]
    NotHere(&'static str),
    /// The objective card choice is wrong.
    #[error("objective column: {0}")]
    Objective(&'static str),
    /// The market choice is wrong.
    #[error("market: {0}")]
    Market(&'static str),
    /// The discard is wrong.
    #[error("discard: {0}")]
    Discard(String),
    /// A tile named as turned up from the stack that is not face down there (rulebook, step
    /// III: the refill is the top tile of the face-down stack).
    #[error("tile {tile} cannot be turned up from the face-down stack: {why}")]
    NotInStack {
        /// The tile named.
        tile: u8,
        /// Where it is instead.
        why: String,
    },
}

/// A first deal: what [`Game::assemble`] sets out.
pub(crate) struct Dealt {
    /// Each seat's hand.
    pub hands: Vec<Vec<u8>>,
    /// The display.
    pub display: [Option<u8>; COLUMNS],
    /// The objective cards in play.
    pub objectives: [u8; COLUMNS],
    /// The stack, bottom first.
    pub stack: Vec<u8>,
    /// Whether the stack's order is unknown.
    pub hidden: bool,
    /// The first player.
    pub first: u8,
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Game {
    content: Arc<Content>,
    options: Options,
    seed: Option<u64>,
    players: Vec<Player>,
    board: Board,
    stack: Vec<u8>,
    /// Whether the stack's order is unknown (a game from the table, or a position without
    /// `stack`): the stack then holds the tiles nobody has seen, in increasing id order, as
    /// stand-ins whose number is right and whose order means nothing; [`Game::draw_next`] names the
    /// tile turned up before a refill.
    hidden: bool,
    display: [Option<u8>; COLUMNS],
    objectives: [u8; COLUMNS],
    cubes: [[u8; 4]; COLUMNS],
    neutral: [u8; COLUMNS],
    tokens: u8,
    first: u8,
    active: u8,
    turns: u32,
    ending: Ending,
    phase: Phase,
    movement: Movement,
}

/// Why a game cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// Not 2 to 4 players.
    #[error("Cube Express is for 2 to 4 players, not {0}")]
    Players(usize),
    /// Too few tiles for the hands and the display.
    #[error("the content leaves {0} tiles for this player count: too few for the hands and the display")]
    Tiles(usize),
}

/// Everything a game's state holds, as plain data: the position format
/// (`docs/formats/cube-express-position.md`) reads and writes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    /// The rule options.
    #[serde(default)]
    pub options: Options,
    /// The seed of the setup, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The players in seat order.
    pub players: Vec<Player>,
    /// The tiles on the table, in the order laid.
    pub board: Vec<Placed>,
    /// The face-down stack, bottom first (the last id is drawn next); absent (`None`) where its
    /// order is not known, as at the table: the stack is then every tile used with this player
    /// count that is not on the board, in a hand or in the display.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stack: Option<Vec<u8>>,
    /// The display, columns 0 to 3 (`null` for an empty space).
    pub display: [Option<u8>; COLUMNS],
    /// The objective cards' ids, columns 0 to 3.
    pub objectives: [u8; COLUMNS],
    /// Cubes per column per seat.
    pub cubes: [[u8; 4]; COLUMNS],
    /// Cubes of the unused colour per column (2 players).
    pub neutral: [u8; COLUMNS],
    /// 9-VP tokens left in the box.
    pub tokens: u8,
    /// The first player's seat.
    pub first: u8,
    /// The active player's seat.
    pub active: u8,
    /// Turns played so far.
    pub turns: u32,
    /// How the game is ending.
    pub ending: Ending,
}

impl Game {
    /// A new game for `players` players (2 to 4) from a seed. A ChaCha8 generator seeded with
    /// `seed` draws, in this order: the shuffle of the tiles used for this player count (the
    /// stack, last drawn first), the shuffle of the 14 objective cards (the first four in play,
    /// left to right), and the first player. Hands are dealt 3 tiles each in seat order, then the
    /// display, columns 0 to 3.
    pub fn new(content: Arc<Content>, players: usize, seed: u64, options: Options) -> Result<Game, SetupError> {
        if !(2..=4).contains(&players) {
            return Err(SetupError::Players(players));
        }
        Game::set_up(content, players, seed, options)
    }

    /// A solitaire game from a seed (ruling O1, `docs/rules/cube-express.md`): one player in
    /// seat 0 with the 2-player tiles and stock value track, the tile stack shuffled as for
    /// [`Game::new`] with 2 players, a hand of one tile (the next tile of the stack, refilled at
    /// the end of every turn), no display and no objective cards in play.
    pub fn solo(content: Arc<Content>, seed: u64, options: Options) -> Result<Game, SetupError> {
        Game::set_up(content, 1, seed, options)
    }

    fn set_up(content: Arc<Content>, players: usize, seed: u64, options: Options) -> Result<Game, SetupError> {
        let solo = players == 1;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut stack: Vec<u8> = content.tiles.iter().filter(|t| t.players.used_with(players)).map(|t| t.id).collect();
        let needed = if solo { 2 } else { HAND * players + COLUMNS + 1 };
        if stack.len() < needed {
            return Err(SetupError::Tiles(stack.len()));
        }
        stack.shuffle(&mut rng);
        let mut cards: Vec<u8> = content.objectives.iter().map(|o| o.id).collect();
        cards.shuffle(&mut rng);
        let first = rand::RngExt::random_range(&mut rng, 0..players as u8);
        let mut hands = vec![Vec::new(); players];
        for hand in &mut hands {
            for _ in 0..hand_size(players) {
                hand.extend(stack.pop());
            }
        }
        let mut display = [None; COLUMNS];
        if !solo {
            for d in &mut display {
                *d = stack.pop();
            }
        }
        let objectives = [cards[0], cards[1], cards[2], cards[3]];
        let dealt = Dealt { hands, display, objectives, stack, hidden: false, first };
        Ok(Game::assemble(content, options, Some(seed), dealt))
    }

    /// A game from its first deal: the starting tiles, the players' pieces and cubes, and what
    /// `dealt` holds. The tiles are not checked.
    pub(crate) fn assemble(content: Arc<Content>, options: Options, seed: Option<u64>, dealt: Dealt) -> Game {
        let Dealt { hands, display, objectives, stack, hidden, first } = dealt;
        let players = hands.len();
        let mut board = Board::default();
        let crossing = Piece::Crossing;
        board.put(Placed::new(content.crossing, crossing, face(&content, crossing), None));
        for (seat, s) in content.starts.iter().enumerate() {
            let piece = Piece::Start { seat: seat as u8 };
            let mut placed = Placed::new(s.cell, piece, face(&content, piece), None);
            if seat < players {
                placed.station = Some(seat as u8);
            }
            board.put(placed);
        }
        let two = players == 2;
        let track = content.stock(players).clone();
        let ps: Vec<Player> = hands
            .into_iter()
            .enumerate()
            .map(|(seat, hand)| {
                let s = content.starts[seat];
                Player {
                    colour: s.colour,
                    reserve: CUBES - START_DIVIDENDS - 3,
                    dividends: START_DIVIDENDS,
                    store: Resources::NONE,
                    built: 0,
                    stock: 1,
                    dollars: [true; 3],
                    locomotives: [Some(s.cell), None],
                    tokens: 0,
                    reached_max: false,
                    hand,
                    banked: 0,
                }
            })
            .collect();
        let mut game = Game {
            content,
            options,
            seed,
            players: ps,
            board,
            stack,
            hidden,
            display,
            objectives,
            cubes: [[0; 4]; COLUMNS],
            neutral: [if two { NEUTRAL_CUBES } else { 0 }; COLUMNS],
            tokens: TOKENS,
            first,
            active: first,
            turns: 0,
            ending: Ending::Playing,
            phase: Phase::Lay,
            movement: Movement::default(),
        };
        let cities = game.board.cities();
        for seat in 0..players {
            let p = &mut game.players[seat];
            p.banked = i32::from(p.dividends) + i32::from(track.vp[usize::from(p.stock)]);
        }
        for (i, placed) in game.board.tiles().iter().enumerate() {
            if let (Some(s), Some(c)) = (placed.station, cities.city_of[i]) {
                game.players[usize::from(s)].banked += 3 * i32::from(cities.houses[c]);
            }
        }
        game
    }

    /// The game described by `state`, without checks; [`super::position`] checks states read
    /// from files before calling this.
    pub(crate) fn from_state_unchecked(content: Arc<Content>, state: &State) -> Game {
        let mut board = Board::default();
        for p in &state.board {
            let Some(face) = p.piece.face(&content) else { continue };
            board.put(Placed { face, ..p.clone() });
        }
        let mut game = Game {
            content,
            options: state.options,
            seed: state.seed,
            players: state.players.clone(),
            board,
            stack: Vec::new(),
            hidden: state.stack.is_none(),
            display: state.display,
            objectives: state.objectives,
            cubes: state.cubes,
            neutral: state.neutral,
            tokens: state.tokens,
            first: state.first,
            active: state.active,
            turns: state.turns,
            ending: state.ending,
            phase: Phase::Lay,
            movement: Movement::default(),
        };
        match &state.stack {
            Some(stack) => game.stack = stack.clone(),
            None => game.stack = game.unseen_tiles(),
        }
        game
    }

    /// The tiles used with this player count that nobody has seen: not on the board, in a hand or
    /// in the display, in increasing id order (the stack as a set).
    pub fn unseen_tiles(&self) -> Vec<u8> {
        let n = self.players.len().max(2);
        let seen = |id: u8| {
            self.board.tiles().iter().any(|t| t.piece.tile() == Some(id))
                || self.display.contains(&Some(id))
                || self.players.iter().any(|p| p.hand.contains(&id))
        };
        self.content.tiles.iter().filter(|t| t.players.used_with(n) && !seen(t.id)).map(|t| t.id).collect()
    }

    /// Whether the stack's order is unknown (a game from the table; docs/rules/cube-express.md,
    /// "At the table"): the stack holds the tiles nobody has seen as stand-ins.
    pub fn stack_hidden(&self) -> bool {
        self.hidden
    }

    /// The game as the table sees it: the stack's order forgotten, its tiles kept as the set of
    /// tiles nobody has seen (ruling A2). What the planner answers does not change: it never reads
    /// the stack's order, only how many tiles it holds.
    pub fn seen(&self) -> Game {
        let mut g = self.clone();
        g.stack.sort_unstable();
        g.hidden = true;
        g
    }

    /// Names the tile the next refill turns up from the stack (a tile drawn at the table): it is
    /// put on top of the stack. Refused when no tile of the stack is that one; where the stack's
    /// order is known, when it is not the top tile.
    pub fn draw_next(&mut self, tile: u8) -> Result<(), Illegal> {
        let Some(i) = self.stack.iter().position(|&t| t == tile) else {
            return Err(Illegal::NotInStack { tile, why: self.where_is(tile) });
        };
        if !self.hidden && i + 1 != self.stack.len() {
            return Err(Illegal::NotInStack {
                tile,
                why: format!("the stack's next tile is {}", self.stack.last().copied().unwrap_or(0)),
            });
        }
        let t = self.stack.remove(i);
        self.stack.push(t);
        Ok(())
    }

    /// Where a tile that is not face down lies, in words.
    fn where_is(&self, tile: u8) -> String {
        if self.content.tile(tile).is_none() {
            return "no tile has that number in this set".to_string();
        }
        if let Some(t) = self.board.tiles().iter().find(|t| t.piece.tile() == Some(tile)) {
            return format!("it lies on the map at {}", t.cell);
        }
        if let Some(c) = self.display.iter().position(|&d| d == Some(tile)) {
            return format!("it lies in the {} display column", super::action::ordinal(c as u8));
        }
        if let Some(p) = self.players.iter().find(|p| p.hand.contains(&tile)) {
            return format!("it is in {}'s hand", p.colour);
        }
        if self.stack.is_empty() {
            return "the stack is empty".to_string();
        }
        format!("it is not used with {} players (its back icon)", self.players.len())
    }

    /// Whether the next market step refills the display from the stack (a tile is turned up).
    pub fn refills(&self) -> bool {
        !self.stack.is_empty() && !self.is_solo()
    }

    /// Sets the running scores (after reading a position).
    pub(crate) fn set_banked(&mut self, banked: &[i32]) {
        for (p, &b) in self.players.iter_mut().zip(banked) {
            p.banked = b;
        }
    }

    /// The game as plain data (at the start of a turn: the position format has no mid-turn
    /// state).
    pub fn state(&self) -> State {
        State {
            options: self.options,
            seed: self.seed,
            players: self.players.clone(),
            board: self.board.tiles().to_vec(),
            stack: (!self.hidden).then(|| self.stack.clone()),
            display: self.display,
            objectives: self.objectives,
            cubes: self.cubes,
            neutral: self.neutral,
            tokens: self.tokens,
            first: self.first,
            active: self.active,
            turns: self.turns,
            ending: self.ending,
        }
    }

    /// The game's [`GameKey`]: every part an action can change, mid-turn state included.
    pub fn key(&self) -> GameKey {
        GameKey {
            players: self.players.clone(),
            board: self.board.tiles().to_vec(),
            stack: self.stack.len(),
            display: self.display,
            cubes: self.cubes,
            tokens: self.tokens,
            active: self.active,
            turns: self.turns,
            ending: self.ending,
            phase: self.phase,
            movement: self.movement.clone(),
        }
    }

    /// [`Game::key`] with every player's points banked left out: two games with equal keys have
    /// the same futures and differ at most in the points banked so far (rulebook, "Final
    /// Scoring": the points still to come depend on the pieces, not on the points already won).
    pub fn key_points_aside(&self) -> GameKey {
        let mut key = self.key();
        for p in &mut key.players {
            p.banked = 0;
        }
        key
    }

    /// The component set.
    pub fn content(&self) -> &Arc<Content> {
        &self.content
    }

    /// The rule options.
    pub fn options(&self) -> Options {
        self.options
    }

    /// The seed of the setup, if any.
    pub fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// Whether this is a solitaire game (one player, ruling O1).
    pub fn is_solo(&self) -> bool {
        self.players.len() == 1
    }

    /// The players in seat order.
    pub fn players(&self) -> &[Player] {
        &self.players
    }

    /// The tiles on the table.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The face-down stack, bottom first.
    pub fn stack(&self) -> &[u8] {
        &self.stack
    }

    /// The display, columns 0 to 3.
    pub fn display(&self) -> [Option<u8>; COLUMNS] {
        self.display
    }

    /// The objective cards' ids, columns 0 to 3.
    pub fn objectives(&self) -> [u8; COLUMNS] {
        self.objectives
    }

    /// Each seat's cubes on the objective card of `column`.
    pub fn objective_cubes(&self, column: usize) -> [u8; 4] {
        self.cubes[column]
    }

    /// The unused colour's cubes on the objective card of `column` (2 players).
    pub fn neutral_cubes(&self, column: usize) -> u8 {
        self.neutral[column]
    }

    /// 9-VP tokens left.
    pub fn tokens_left(&self) -> u8 {
        self.tokens
    }

    /// The first player's seat.
    pub fn first_player(&self) -> u8 {
        self.first
    }

    /// The active player's seat.
    pub fn active(&self) -> u8 {
        self.active
    }

    /// Turns played so far.
    pub fn turns_played(&self) -> u32 {
        self.turns
    }

    /// How the game is ending.
    pub fn ending(&self) -> Ending {
        self.ending
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.ending == Ending::Over
    }

    /// Where the active player is in their turn.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Whether this turn is in the final round (no market).
    pub fn in_final_round(&self) -> bool {
        matches!(self.ending, Ending::FinalRound { .. })
    }

    /// The central board's side in use.
    pub fn track(&self) -> &StockTrack {
        self.content.stock(self.players.len())
    }

    /// A seat's technology level: movement points and storage limit (the number on the empty
    /// space left of the leftmost unbuilt station).
    pub fn tech_level(&self, seat: usize) -> u8 {
        self.content.levels[usize::from(self.players[seat].built.min(TRACK_STATIONS))]
    }

    /// Movement points still available to the active player this turn without more coal.
    pub fn movement_left(&self) -> u8 {
        (self.tech_level(self.seat()) + self.movement.coal).saturating_sub(self.movement.used)
    }

    /// The locomotive moving now and the tiles it has been on this turn (its start first).
    pub fn moving(&self) -> Option<(u8, &[Cell])> {
        self.movement.current.map(|l| (l, self.movement.visited.as_slice()))
    }

    /// Cubes a seat has in every place, which the rules keep at 25: reserve, dividends, storage,
    /// `$` spaces, possession markers, passengers, factory spaces and objective cards.
    pub fn cubes_of(&self, seat: usize) -> u32 {
        let p = &self.players[seat];
        let s = seat as u8;
        let mut n = u32::from(p.reserve) + u32::from(p.dividends) + u32::from(p.store.total());
        n += p.dollars.iter().filter(|&&d| d).count() as u32;
        for t in self.board.tiles() {
            n += u32::from(t.owner == Some(s)) + u32::from(t.passengers[seat]);
            n += u32::from(t.first == Some(s)) + u32::from(t.later[seat]);
        }
        n + self.cubes.iter().map(|c| u32::from(c[seat])).sum::<u32>()
    }

    fn seat(&self) -> usize {
        usize::from(self.active)
    }

    fn me(&mut self) -> &mut Player {
        let s = self.seat();
        &mut self.players[s]
    }

    /// The face a lay would show.
    pub fn lay_face(&self, lay: &Lay) -> Option<Face> {
        let piece = if lay.back {
            Piece::Back { tile: lay.tile, rotation: lay.rotation }
        } else {
            Piece::Front { tile: lay.tile, rotation: lay.rotation }
        };
        piece.face(&self.content)
    }

    /// Moves a seat's disc up `spaces` (rulebook, "Stock Value Track"): a `$` cube passed goes
    /// to the dividends; the maximum gives a 9-VP token once and ends the game after the round.
    fn rise(&mut self, seat: usize, spaces: u8) {
        let track = self.content.stock(self.players.len()).clone();
        let max = track.max();
        for _ in 0..spaces {
            let p = &mut self.players[seat];
            if p.stock >= max {
                break;
            }
            let before = track.vp[usize::from(p.stock)];
            p.stock += 1;
            p.banked += i32::from(track.vp[usize::from(p.stock)]) - i32::from(before);
            if let Some(i) = track.dollars.iter().position(|&d| d == p.stock)
                && p.dollars[i]
            {
                p.dollars[i] = false;
                p.dividends += 1;
                p.banked += 1;
            }
            if p.stock == max && !p.reached_max {
                p.reached_max = true;
                self.award_token(seat);
            }
        }
    }

    fn award_token(&mut self, seat: usize) {
        if self.tokens > 0 {
            self.tokens -= 1;
            let p = &mut self.players[seat];
            p.tokens += 1;
            p.banked += TOKEN_VP;
        }
        if self.ending == Ending::Playing {
            self.ending = Ending::RoundEnd;
        }
    }

    fn trade(&mut self, action: &Action) -> Result<(), Illegal> {
        let track_vp = self.track().vp.clone();
        let p = self.me();
        match *action {
            Action::Convert { conversion } => {
                let (from, to, dividend) = conversion.recipe();
                let have = p.store.get(from);
                if have < 2 {
                    return Err(Illegal::Short { what: from.name(), need: 2, have });
                }
                *p.store.get_mut(from) -= 2;
                *p.store.get_mut(to) += 1;
                if dividend {
                    p.dividends += 1;
                    p.banked += 1;
                } else {
                    p.reserve += 1;
                }
            }
            Action::Sell { spaces } => {
                if spaces == 0 {
                    return Err(Illegal::Short { what: "stock spaces to sell (at least 1)", need: 1, have: 0 });
                }
                if p.stock < spaces {
                    return Err(Illegal::Short { what: "stock value", need: spaces, have: p.stock });
                }
                if p.reserve < spaces {
                    return Err(Illegal::Short { what: "reserve cubes", need: spaces, have: p.reserve });
                }
                let before = track_vp[usize::from(p.stock)];
                p.stock -= spaces;
                p.reserve -= spaces;
                p.dividends += spaces;
                p.banked += i32::from(spaces) + i32::from(track_vp[usize::from(p.stock)]) - i32::from(before);
            }
            _ => return Err(Illegal::WrongStep("not a trade")),
        }
        Ok(())
    }

    /// Whether any tile of the active player's hand fits anywhere, either side up.
    pub fn can_lay(&self) -> bool {
        let frontier = self.board.frontier();
        self.players[self.seat()].hand.iter().any(|&tile| {
            [false, true].into_iter().any(|back| {
                (0..4).any(|rotation| {
                    let lay = Lay { tile, back, cell: Cell::new(0, 0), rotation, act: false, pay: Payment::default() };
                    self.lay_face(&lay)
                        .is_some_and(|face| frontier.iter().any(|&c| self.board.check_lay(c, &face).is_ok()))
                })
            })
        })
    }

    fn lay(&mut self, lay: &Lay) -> Result<(), Illegal> {
        let seat = self.seat();
        if lay.rotation > 3 {
            return Err(Illegal::Rotation(lay.rotation));
        }
        let Some(pos) = self.players[seat].hand.iter().position(|&t| t == lay.tile) else {
            return Err(Illegal::NotInHand(lay.tile));
        };
        let Some(face) = self.lay_face(lay) else { return Err(Illegal::NotInHand(lay.tile)) };
        let growth = self.board.check_lay(lay.cell, &face)?;
        if !lay.act && lay.pay.total() > 0 {
            return Err(Illegal::Centre("a payment without building a station"));
        }
        let mut placed = Placed::new(
            lay.cell,
            if lay.back {
                Piece::Back { tile: lay.tile, rotation: lay.rotation }
            } else {
                Piece::Front { tile: lay.tile, rotation: lay.rotation }
            },
            face,
            Some(seat as u8),
        );
        if lay.act {
            match face.centre {
                None => return Err(Illegal::Centre("a back side has no action")),
                Some(Centre::Station) => {}
                Some(_) if lay.pay.total() > 0 => return Err(Illegal::Centre("only a station is paid for")),
                Some(_) => {}
            }
        }
        // A city grown by this tile raises the score of the station already in it.
        if let Some(g) = growth
            && let Some(owner) = g.station
        {
            self.players[usize::from(owner)].banked += g.station_gain();
        }
        if lay.act {
            let p = &mut self.players[seat];
            match face.centre {
                Some(Centre::Crossing) => {
                    let tracks = match self.options.crossing_dividends {
                        CrossingDividends::AllTracks => face.tracks.len(),
                        CrossingDividends::JoinedTracks => {
                            face.tracks.iter().filter(|&s| self.board.at(lay.cell.step(s)).is_some()).count()
                        }
                    } as u8;
                    let n = (2 * tracks).min(p.reserve);
                    p.reserve -= n;
                    p.dividends += n;
                    p.banked += i32::from(n);
                }
                Some(Centre::Factory(r)) => {
                    if p.reserve == 0 {
                        return Err(Illegal::Short { what: "reserve cubes", need: 1, have: 0 });
                    }
                    p.reserve -= 1;
                    *p.store.get_mut(r) += 1;
                }
                Some(Centre::Production) => {
                    if p.dividends == 0 {
                        return Err(Illegal::Short { what: "dividends", need: 1, have: 0 });
                    }
                    p.dividends -= 1;
                    p.banked -= 1;
                    placed.owner = Some(seat as u8);
                }
                Some(Centre::Station) => {
                    if p.built >= TRACK_STATIONS {
                        return Err(Illegal::Centre("no station left on the technology track"));
                    }
                    if growth.is_some_and(|g| g.station.is_some()) {
                        return Err(Illegal::Centre("the city has a station already"));
                    }
                    let cost = self.content.levels[usize::from(p.built)];
                    if lay.pay.total() != cost {
                        return Err(Illegal::Payment { cost, paid: lay.pay.total() });
                    }
                    if self.options.station_payment == StationPayment::DividendsOnly && lay.pay.resources().total() > 0
                    {
                        return Err(Illegal::Centre("stations are paid with dividends only (option station-payment)"));
                    }
                    if p.dividends < lay.pay.dividends {
                        return Err(Illegal::Short { what: "dividends", need: lay.pay.dividends, have: p.dividends });
                    }
                    let Some(store) = p.store.minus(&lay.pay.resources()) else {
                        return Err(Illegal::Short {
                            what: "resources for the payment",
                            need: lay.pay.resources().total(),
                            have: p.store.total(),
                        });
                    };
                    p.dividends -= lay.pay.dividends;
                    p.banked -= i32::from(lay.pay.dividends);
                    p.store = store;
                    p.reserve += cost;
                    p.built += 1;
                    placed.station = Some(seat as u8);
                    let houses = growth.map_or(0, |g| g.houses);
                    p.banked += 3 * i32::from(houses);
                    if p.built == TRACK_STATIONS {
                        self.award_token(seat);
                    }
                }
                None => {}
            }
        }
        self.players[seat].hand.remove(pos);
        self.board.put(placed);
        Ok(())
    }

    fn entry(&mut self, what: &'static str) -> Result<(Cell, &mut Entry), Illegal> {
        let cell = self.movement.visited.last().copied();
        match (cell, self.movement.entry.as_mut()) {
            (Some(cell), Some(entry)) => Ok((cell, entry)),
            _ => Err(Illegal::NotHere(what)),
        }
    }

    fn step(&mut self, action: &Action) -> Result<(), Illegal> {
        let seat = self.seat();
        match *action {
            Action::BuildLocomotive { at } => {
                if self.players[seat].locomotives[1].is_some() {
                    return Err(Illegal::WrongStep("the second locomotive is built already"));
                }
                if self.board.at(at).and_then(|t| t.station) != Some(seat as u8) {
                    return Err(Illegal::NotHere("station of yours to build a locomotive at"));
                }
                let p = &mut self.players[seat];
                if p.store.coal == 0 || p.store.iron == 0 {
                    return Err(Illegal::Short {
                        what: "coal and iron (1 each)",
                        need: 2,
                        have: p.store.coal.min(1) + p.store.iron.min(1),
                    });
                }
                p.store.coal -= 1;
                p.store.iron -= 1;
                p.reserve += 2;
                p.locomotives[1] = Some(at);
            }
            Action::Coal => {
                let p = &mut self.players[seat];
                if p.store.coal == 0 {
                    return Err(Illegal::Short { what: "coal", need: 1, have: 0 });
                }
                p.store.coal -= 1;
                p.reserve += 1;
                self.movement.coal += 1;
            }
            Action::Move { locomotive, to } => {
                let err = |why| Illegal::Move { locomotive, to, why };
                let Some(&Some(from)) = self.players[seat].locomotives.get(usize::from(locomotive)) else {
                    return Err(err("no such locomotive"));
                };
                if self.movement.current != Some(locomotive) {
                    if self.movement.finished[usize::from(locomotive)] {
                        return Err(err("it has finished its movement this turn"));
                    }
                    if let Some(c) = self.movement.current {
                        self.movement.finished[usize::from(c)] = true;
                    }
                    self.movement.current = Some(locomotive);
                    self.movement.visited = vec![from];
                    self.movement.entry = None;
                }
                if self.movement_left() == 0 {
                    return Err(err("no movement points left"));
                }
                if !self.board.exits(from).any(|c| c == to) {
                    return Err(err("no track leads there"));
                }
                if self.movement.visited.contains(&to) {
                    return Err(err("it has been on that tile this turn (forward only)"));
                }
                self.movement.used += 1;
                self.movement.visited.push(to);
                self.movement.entry = Some(Entry::default());
                self.players[seat].locomotives[usize::from(locomotive)] = Some(to);
            }
            Action::Pickup => {
                let (cell, entry) = self.entry("to pick up")?;
                if entry.picked {
                    return Err(Illegal::NotHere("more to pick up on this entry"));
                }
                let Some(tile) = self.board.at(cell) else { return Err(Illegal::NotHere("to pick up")) };
                let (Some(r), owner) = (tile.face.production, tile.owner) else {
                    return Err(Illegal::NotHere("to pick up (no production facility)"));
                };
                let p = &mut self.players[seat];
                if p.reserve == 0 {
                    return Err(Illegal::Short { what: "reserve cubes", need: 1, have: 0 });
                }
                p.reserve -= 1;
                *p.store.get_mut(r) += 1;
                if let Some(o) = owner
                    && usize::from(o) != seat
                {
                    self.rise(usize::from(o), 1);
                }
                if let Ok((_, e)) = self.entry("") {
                    e.picked = true;
                }
            }
            Action::Deliver { objective } => {
                let (cell, entry) = self.entry("to deliver to")?;
                if entry.delivered {
                    return Err(Illegal::NotHere("more to deliver on this entry (one delivery per action)"));
                }
                let Some(tile) = self.board.at(cell) else { return Err(Illegal::NotHere("to deliver to")) };
                let Some(factory) = tile.face.factory else {
                    return Err(Illegal::NotHere("to deliver to (no factory)"));
                };
                let first = tile.first.is_none();
                let solo = self.is_solo();
                let p = &mut self.players[seat];
                let Some(store) = p.store.minus(&factory.needs) else {
                    return Err(Illegal::Short {
                        what: "resources for the delivery",
                        need: factory.needs.total(),
                        have: p.store.total(),
                    });
                };
                let rooms: Vec<u8> = if solo {
                    Vec::new()
                } else {
                    (0..COLUMNS as u8).filter(|&c| self.cubes[usize::from(c)][seat] < OBJECTIVE_LIMIT).collect()
                };
                p.store = store;
                // The delivered cubes themselves: the first to the factory, the second to the
                // dividends, the third to an objective card with room, if any (ruling D1).
                let n = factory.needs.total();
                if n >= 2 {
                    p.dividends += 1;
                    p.banked += 1;
                }
                let placeable = n >= 3 && !rooms.is_empty();
                match objective {
                    Some(c) if !placeable || !rooms.contains(&c) => {
                        return Err(Illegal::Objective(if n < 3 {
                            "a delivery of fewer than 3 resources places no objective cube"
                        } else {
                            "that card cannot take another cube of yours (5 at most)"
                        }));
                    }
                    Some(c) => self.cubes[usize::from(c)][seat] += 1,
                    None if placeable => {
                        return Err(Illegal::Objective("a delivery places a cube on an objective card of your choice"));
                    }
                    None => p.reserve += u8::from(n >= 3),
                }
                let tile = self.board.at_mut(cell).ok_or(Illegal::NotHere("to deliver to"))?;
                let points = if first {
                    tile.first = Some(seat as u8);
                    factory.a
                } else {
                    tile.later[seat] += 1;
                    factory.b
                };
                self.players[seat].banked += i32::from(points);
                self.rise(seat, if first { 2 } else { 1 });
                if let Ok((_, e)) = self.entry("") {
                    e.delivered = true;
                }
            }
            Action::Passenger => {
                if self.options.passengers == Passengers::Off {
                    return Err(Illegal::WrongStep("passengers are off (option passengers)"));
                }
                let (cell, entry) = self.entry("to place a passenger")?;
                if entry.passenger {
                    return Err(Illegal::NotHere("room for a second passenger on this entry"));
                }
                let cities = self.board.cities();
                let Some(i) = self.board.index_of(cell) else { return Err(Illegal::NotHere("to place a passenger")) };
                let Some(c) = cities.city_of[i] else { return Err(Illegal::NotHere("to place a passenger (no city)")) };
                if cities.station[c].is_none() {
                    return Err(Illegal::NotHere("to place a passenger (the city has no station)"));
                }
                if cities.passengers[c] >= cities.houses[c] {
                    return Err(Illegal::NotHere("room for a passenger (one per house icon)"));
                }
                let p = &mut self.players[seat];
                if p.reserve == 0 {
                    return Err(Illegal::Short { what: "reserve cubes", need: 1, have: 0 });
                }
                p.reserve -= 1;
                p.banked += 1;
                if let Some(t) = self.board.at_mut(cell) {
                    t.passengers[seat] += 1;
                }
                if let Ok((_, e)) = self.entry("") {
                    e.passenger = true;
                }
            }
            _ => return Err(Illegal::WrongStep("not a locomotive action")),
        }
        Ok(())
    }

    fn market(&mut self, action: &Action) -> Result<(), Illegal> {
        let seat = self.seat();
        let open = self.display.iter().any(Option::is_some);
        match *action {
            Action::NoMarket => {
                if !self.in_final_round() && open {
                    return Err(Illegal::Market("a display tile must be taken"));
                }
            }
            Action::Market { slot, cube } => {
                if self.in_final_round() {
                    return Err(Illegal::Market("no market in the final round"));
                }
                let Some(Some(tile)) = self.display.get(usize::from(slot)).copied() else {
                    return Err(Illegal::Market("no tile in that column"));
                };
                if cube {
                    let p = &self.players[seat];
                    if p.dividends == 0 {
                        return Err(Illegal::Short { what: "dividends", need: 1, have: 0 });
                    }
                    if self.cubes[usize::from(slot)][seat] >= OBJECTIVE_LIMIT {
                        return Err(Illegal::Objective("that card holds 5 of your cubes"));
                    }
                    self.cubes[usize::from(slot)][seat] += 1;
                    let p = &mut self.players[seat];
                    p.dividends -= 1;
                    p.banked -= 1;
                }
                self.players[seat].hand.push(tile);
                self.display[usize::from(slot)] = self.stack.pop();
                if self.stack.is_empty() && self.ending == Ending::Playing {
                    self.ending = Ending::FinalRound { left: self.players.len() as u8 + 1 };
                }
            }
            _ => return Err(Illegal::WrongStep("not a market action")),
        }
        Ok(())
    }

    fn end(&mut self, discard: &Resources) -> Result<(), Illegal> {
        let seat = self.seat();
        let limit = self.tech_level(seat);
        let solo = self.is_solo();
        let p = &mut self.players[seat];
        let excess = p.store.total().saturating_sub(limit);
        if discard.total() != excess {
            return Err(Illegal::Discard(format!(
                "{} resources held, storage limit {limit}: discard exactly {excess}, not {}",
                p.store.total(),
                discard.total()
            )));
        }
        let Some(store) = p.store.minus(discard) else {
            return Err(Illegal::Discard(format!("cannot discard {discard} from {}", p.store)));
        };
        p.store = store;
        p.reserve += discard.total();
        // A solitaire game draws the next tile instead of taking one from the market; emptying
        // the stack starts the final round, one more turn (ruling O1).
        if solo {
            p.hand.extend(self.stack.pop());
            if self.stack.is_empty() && self.ending == Ending::Playing {
                self.ending = Ending::FinalRound { left: 2 };
            }
        }
        // Next turn.
        self.turns += 1;
        let n = self.players.len() as u8;
        self.active = (self.active + 1) % n;
        self.ending = match self.ending {
            Ending::RoundEnd if self.active == self.first => Ending::Over,
            Ending::FinalRound { left } if left <= 1 => Ending::Over,
            Ending::FinalRound { left } => Ending::FinalRound { left: left - 1 },
            e => e,
        };
        self.phase = Phase::Lay;
        self.movement = Movement::default();
        Ok(())
    }

    /// Applies one action of the active player, checking every rule. On an error the game is
    /// unchanged.
    pub fn apply(&mut self, action: &Action) -> Result<(), Illegal> {
        let mut next = self.clone();
        next.apply_in_place(action)?;
        *self = next;
        Ok(())
    }

    /// Applies one action; on an error the game may be partly changed (for search, which
    /// discards it).
    pub fn apply_in_place(&mut self, action: &Action) -> Result<(), Illegal> {
        if self.is_over() {
            return Err(Illegal::GameOver);
        }
        match (self.phase, action) {
            (_, Action::Convert { .. } | Action::Sell { .. }) => self.trade(action),
            (Phase::Lay, Action::Lay(lay)) => {
                self.lay(lay)?;
                self.phase = Phase::Move;
                Ok(())
            }
            (Phase::Lay, Action::NoLay) => {
                if self.can_lay() {
                    return Err(Illegal::MustLay);
                }
                self.phase = Phase::Move;
                Ok(())
            }
            (Phase::Move, Action::Market { .. } | Action::NoMarket) => {
                self.market(action)?;
                self.phase = Phase::End;
                Ok(())
            }
            (Phase::Move, _) if !matches!(action, Action::Lay(_) | Action::NoLay | Action::End { .. }) => {
                self.step(action)
            }
            (Phase::End, Action::End { discard }) => self.end(discard),
            (Phase::Lay, _) => Err(Illegal::WrongStep("step I: lay a tile first")),
            (Phase::Move, _) => Err(Illegal::WrongStep("step II: move, or take the market to finish it")),
            (Phase::End, _) => Err(Illegal::WrongStep("after the market: trade or end the turn")),
        }
    }

    /// Plays a whole turn: the game after `actions`, or the index of the first illegal action and
    /// why. The turn must end with [`Action::End`].
    pub fn play_turn(&self, actions: &[Action]) -> Result<Game, (usize, Illegal)> {
        let mut next = self.clone();
        let start = self.turns;
        for (i, a) in actions.iter().enumerate() {
            if next.turns != start {
                return Err((i, Illegal::WrongStep("the turn has ended")));
            }
            next.apply_in_place(a).map_err(|e| (i, e))?;
        }
        if next.turns == start {
            return Err((actions.len(), Illegal::WrongStep("the turn does not end")));
        }
        Ok(next)
    }

    /// Every payment of `cost` cubes from the active player's dividends and storage allowed by
    /// the options.
    pub fn payments(&self, cost: u8) -> Vec<Payment> {
        let p = &self.players[self.seat()];
        let only_dividends = self.options.station_payment == StationPayment::DividendsOnly;
        let mut out = Vec::new();
        for coal in 0..=p.store.coal {
            for wood in 0..=p.store.wood {
                for iron in 0..=p.store.iron {
                    let r = coal + wood + iron;
                    if r > cost || (only_dividends && r > 0) {
                        continue;
                    }
                    let dividends = cost - r;
                    if dividends <= p.dividends {
                        out.push(Payment { dividends, coal, wood, iron });
                    }
                }
            }
        }
        out
    }

    /// Every legal lay of the active player: each tile of the hand, each side, cell and rotation
    /// giving a different face, with and without its centre action (and each station payment).
    pub fn legal_lays(&self) -> Vec<Lay> {
        let seat = self.seat();
        let frontier = self.board.frontier();
        let mut out = Vec::new();
        let mut hand = self.players[seat].hand.clone();
        hand.sort_unstable();
        hand.dedup();
        for &tile in &hand {
            for back in [false, true] {
                let mut faces: Vec<Face> = Vec::new();
                for rotation in 0..4 {
                    let base = Lay { tile, back, cell: Cell::new(0, 0), rotation, act: false, pay: Payment::default() };
                    let Some(face) = self.lay_face(&base) else { continue };
                    if faces.contains(&face) {
                        continue;
                    }
                    faces.push(face);
                    for &cell in &frontier {
                        let lay = Lay { cell, ..base };
                        let Ok(growth) = self.board.check_lay(cell, &face) else { continue };
                        out.push(lay);
                        for act in self.centre_choices(&lay, &face, growth) {
                            out.push(act);
                        }
                    }
                }
            }
        }
        out
    }

    fn centre_choices(&self, lay: &Lay, face: &Face, growth: Option<CityGrowth>) -> Vec<Lay> {
        let p = &self.players[self.seat()];
        let act = Lay { act: true, ..*lay };
        match face.centre {
            None => Vec::new(),
            Some(Centre::Crossing) => vec![act],
            Some(Centre::Factory(_)) if p.reserve > 0 => vec![act],
            Some(Centre::Production) if p.dividends > 0 => vec![act],
            Some(Centre::Station) if p.built < TRACK_STATIONS => {
                if growth.is_some_and(|g| g.station.is_some()) {
                    return Vec::new();
                }
                let cost = self.content.levels[usize::from(p.built)];
                self.payments(cost).into_iter().map(|pay| Lay { pay, ..act }).collect()
            }
            Some(_) => Vec::new(),
        }
    }

    /// Every legal next action of the active player (trades included; stock sales of every size).
    pub fn legal_actions(&self) -> Vec<Action> {
        if self.is_over() {
            return Vec::new();
        }
        let mut out: Vec<Action> = Vec::new();
        let seat = self.seat();
        let p = &self.players[seat];
        for conversion in Conversion::ALL {
            if p.store.get(conversion.recipe().0) >= 2 {
                out.push(Action::Convert { conversion });
            }
        }
        for spaces in 1..=p.stock.min(p.reserve) {
            out.push(Action::Sell { spaces });
        }
        match self.phase {
            Phase::Lay => {
                let lays = self.legal_lays();
                if lays.is_empty() {
                    out.push(Action::NoLay);
                }
                out.extend(lays.into_iter().map(Action::Lay));
            }
            Phase::Move => {
                let mut probe = self.clone();
                let mut candidates = vec![Action::Coal, Action::Pickup, Action::Passenger];
                for c in 0..COLUMNS as u8 {
                    candidates.push(Action::Deliver { objective: Some(c) });
                }
                candidates.push(Action::Deliver { objective: None });
                if p.locomotives[1].is_none() {
                    for t in self.board.tiles() {
                        if t.station == Some(seat as u8) {
                            candidates.push(Action::BuildLocomotive { at: t.cell });
                        }
                    }
                }
                for (l, at) in p.locomotives.iter().enumerate() {
                    if let Some(at) = at {
                        for to in self.board.exits(*at) {
                            candidates.push(Action::Move { locomotive: l as u8, to });
                        }
                    }
                }
                for slot in 0..COLUMNS as u8 {
                    candidates.push(Action::Market { slot, cube: false });
                    candidates.push(Action::Market { slot, cube: true });
                }
                candidates.push(Action::NoMarket);
                for a in candidates {
                    if probe.apply_in_place(&a).is_ok() {
                        out.push(a);
                        probe = self.clone();
                    } else {
                        probe.clone_from(self);
                    }
                }
            }
            Phase::End => {
                let limit = self.tech_level(seat);
                let excess = p.store.total().saturating_sub(limit);
                for coal in 0..=p.store.coal.min(excess) {
                    for wood in 0..=p.store.wood.min(excess - coal) {
                        let iron = excess - coal - wood;
                        if iron <= p.store.iron {
                            out.push(Action::End { discard: Resources { coal, wood, iron } });
                        }
                    }
                }
            }
        }
        out
    }

    /// The game `turns` turns after the setup of `seed`, every turn played with
    /// [`Game::random_action`] drawn from a ChaCha8 generator seeded with `seed` (positions for
    /// tests and benchmarks; the same on every machine). Stops early if the game ends. One
    /// player plays the solitaire game ([`Game::solo`]).
    pub fn after_random_turns(
        content: Arc<Content>,
        players: usize,
        seed: u64,
        turns: u32,
        options: Options,
    ) -> Result<Game, SetupError> {
        let mut game = if players == 1 {
            Game::solo(content, seed, options)?
        } else {
            Game::new(content, players, seed, options)?
        };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while game.turns < turns
            && let Some(a) = game.random_action(&mut rng)
        {
            if game.apply(&a).is_err() {
                break;
            }
        }
        Ok(game)
    }

    /// A random legal action, for playouts: locomotive actions are favoured during step II (so
    /// random games pick up and deliver), a tile's centre action when laying, and trades are
    /// rare. `None` when the game is over.
    pub fn random_action<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Option<Action> {
        use rand::RngExt;
        use rand::seq::IndexedRandom;
        let actions = self.legal_actions();
        let pick = |pool: Vec<&Action>, rng: &mut R| pool.choose(rng).map(|a| **a);
        let of = |f: fn(&Action) -> bool| actions.iter().filter(|a| f(a)).collect::<Vec<_>>();
        if self.phase == Phase::Move && rng.random_bool(0.85) {
            let useful = of(|a| {
                matches!(
                    a,
                    Action::Move { .. }
                        | Action::Pickup
                        | Action::Deliver { .. }
                        | Action::Passenger
                        | Action::BuildLocomotive { .. }
                )
            });
            if let Some(a) = pick(useful, rng) {
                return Some(a);
            }
        }
        if self.phase == Phase::Lay
            && rng.random_bool(0.7)
            && let Some(a) = pick(of(|a| matches!(a, Action::Lay(l) if l.act)), rng)
        {
            return Some(a);
        }
        if rng.random_bool(0.9)
            && let Some(a) = pick(of(|a| !matches!(a, Action::Convert { .. } | Action::Sell { .. })), rng)
        {
            return Some(a);
        }
        actions.choose(rng).copied()
    }

    /// The resource a production facility on `cell` gives, if any.
    pub fn production_at(&self, cell: Cell) -> Option<Resource> {
        self.board.at(cell).and_then(|t| t.face.production)
    }
}

/// Tiles in a hand with `players` players: [`HAND`], or one in a solitaire game (ruling O1).
pub const fn hand_size(players: usize) -> usize {
    if players == 1 { 1 } else { HAND }
}

fn face(content: &Content, piece: Piece) -> Face {
    piece.face(content).unwrap_or(Face::back(crate::grid::square::Sides::NONE))
}
