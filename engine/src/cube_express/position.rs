//! Positions and game records as JSON (`docs/formats/cube-express-position.md`): a position is a
//! [`State`] at the start of a turn, checked against every rule before it becomes a [`Game`]; a
//! record is a setup (players, seed, options) and the turns played, replayed by the engine.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::action::Action;
use super::board::Piece;
use super::catalogue::{COLUMNS, Content, OBJECTIVES};
use super::colour::Colour;
use super::game::{
    CUBES, Ending, Game, Illegal, NEUTRAL_CUBES, OBJECTIVE_LIMIT, SetupError, State, TOKENS, TRACK_STATIONS, hand_size,
};
use super::options::Options;
use super::score::final_scores;
use super::table::TableStart;
use super::tile::Centre;
use crate::grid::square::Cell;
use crate::source::{SyntaxError, bullet_list};

/// The embedded sample position (`signalbox cube-express plan` with no file): a 3-player game
/// of the house set a few turns in.
pub const SAMPLE_POSITION_JSON: &str = include_str!("../../data/cube_express/sample-position.json");

/// The embedded sample game record (`signalbox cube-express analyse` with no file): a complete
/// 3-player game of the house set played by a deliberately imperfect player, made by
/// `signalbox_solver::cube_express::analysis::sample_record` (`docs/formats/cube-express-position.md`
/// says how to regenerate it).
pub const SAMPLE_GAME_JSON: &str = include_str!("../../data/cube_express/sample-game.json");

/// Why a position was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// Not JSON, or not the format.
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    /// The format, but not a position the rules allow.
    #[error("{file}: not a legal position ({}):\n{}", count(problems.len()), bullet_list(problems))]
    Invalid {
        /// The file's name.
        file: String,
        /// Every problem found, each naming its field.
        problems: Vec<String>,
    },
}

/// "1 problem", "2 problems".
fn count(n: usize) -> String {
    if n == 1 { "1 problem".to_string() } else { format!("{n} problems") }
}

/// Reads and checks a position file.
pub fn read_position(content: Arc<Content>, file: &str, text: &str) -> Result<Game, PositionError> {
    let state: State = crate::source::parse_json(file, text)?;
    from_state(content, &state).map_err(|problems| PositionError::Invalid { file: file.to_string(), problems })
}

/// The game a state describes, or every rule it breaks.
pub fn from_state(content: Arc<Content>, state: &State) -> Result<Game, Vec<String>> {
    let problems = check(&content, state);
    if !problems.is_empty() {
        return Err(problems);
    }
    let mut game = Game::from_state_unchecked(content, state);
    let scores = final_scores(&game);
    game.set_banked(&scores.iter().map(|s| s.banked()).collect::<Vec<_>>());
    Ok(game)
}

fn check(content: &Content, s: &State) -> Vec<String> {
    let mut p: Vec<String> = Vec::new();
    let n = s.players.len();
    if !(1..=4).contains(&n) {
        p.push(format!("players: Cube Express is for 2 to 4 players (or 1, solitaire), found {n}"));
        return p;
    }
    let hand = hand_size(n);
    if n == 1 {
        // Ruling O1: no display and no objective cards in play.
        if s.display.iter().any(Option::is_some) {
            p.push("display: a solitaire game has no display (every column null)".to_string());
        }
        if s.cubes.iter().any(|row| row.iter().any(|&x| x > 0)) {
            p.push("cubes: a solitaire game has no objective cards in play (every count 0)".to_string());
        }
    }
    for (seat, pl) in s.players.iter().enumerate() {
        if pl.colour != content.starts[seat].colour {
            p.push(format!(
                "players[{seat}].colour: seat {seat} plays {}, found {}",
                content.starts[seat].colour, pl.colour
            ));
        }
        if pl.built > TRACK_STATIONS {
            p.push(format!("players[{seat}].built: at most {TRACK_STATIONS} stations come from the track"));
        }
        if pl.stock > content.stock(n).max() {
            p.push(format!("players[{seat}].stock: the track ends at space {}", content.stock(n).max()));
        }
        if pl.stock == content.stock(n).max() && !pl.reached_max {
            p.push(format!("players[{seat}].reached_max: a disc on the maximum has reached it"));
        }
        if pl.hand.len() > hand {
            p.push(format!("players[{seat}].hand: at most {hand} tiles"));
        }
    }
    if usize::from(s.first) >= n || usize::from(s.active) >= n {
        p.push(format!("first/active: seats are 0 to {}", n - 1));
    }
    if matches!(s.ending, Ending::Over) {
        p.push("ending: the game is over; a position is a turn to play".to_string());
    }

    // Tiles: each used tile exactly once.
    let mut places: BTreeMap<u8, Vec<String>> = BTreeMap::new();
    let mut put = |id: u8, place: String| places.entry(id).or_default().push(place);
    s.stack.iter().flatten().for_each(|&id| put(id, "stack".into()));
    s.display.iter().enumerate().for_each(|(c, d)| d.iter().for_each(|&id| put(id, format!("display[{c}]"))));
    for (seat, pl) in s.players.iter().enumerate() {
        pl.hand.iter().for_each(|&id| put(id, format!("players[{seat}].hand")));
    }
    for (i, t) in s.board.iter().enumerate() {
        if let Some(id) = t.piece.tile() {
            put(id, format!("board[{i}]"));
        }
    }
    for t in &content.tiles {
        let used = t.players.used_with(n);
        match (used, places.get(&t.id).map(Vec::len).unwrap_or(0)) {
            // Without `stack`, a tile in no other place is face down in the stack (ruling A2).
            (true, 0) if s.stack.is_none() => {}
            (true, 0) => p.push(format!("tile {}: missing (not in the stack, display, hands or board)", t.id)),
            (true, 1) | (false, 0) => {}
            (false, _) => p.push(format!("tile {}: not used with {n} players (its back icon)", t.id)),
            (true, _) => p.push(format!("tile {}: in more than one place ({})", t.id, places[&t.id].join(", "))),
        }
    }
    for id in places.keys() {
        if content.tile(*id).is_none() {
            p.push(format!("tile {id}: no such tile in the content"));
        }
    }

    // Board.
    let tile_problems = p.len();
    let mut cells: BTreeMap<Cell, usize> = BTreeMap::new();
    for (i, t) in s.board.iter().enumerate() {
        if let Some(j) = cells.insert(t.cell, i) {
            p.push(format!("board[{i}].cell: {} holds board[{j}] already", t.cell));
        }
        let rotation = match t.piece {
            Piece::Front { rotation, .. } | Piece::Back { rotation, .. } => rotation,
            _ => 0,
        };
        if rotation > 3 {
            p.push(format!("board[{i}].piece.rotation: expected 0 to 3, found {rotation}"));
        }
        match t.piece {
            Piece::Crossing if t.cell != content.crossing => {
                p.push(format!("board[{i}]: the start crossing lies at {}", content.crossing))
            }
            Piece::Start { seat } => match content.starts.get(usize::from(seat)) {
                Some(st) if st.cell != t.cell => {
                    p.push(format!("board[{i}]: starting tile {seat} lies at {}", st.cell))
                }
                None => p.push(format!("board[{i}].piece.seat: expected 0 to 3")),
                _ => {}
            },
            _ => {}
        }
    }
    if !s.board.iter().any(|t| t.piece == Piece::Crossing) {
        p.push("board: the start crossing is missing".to_string());
    }
    for seat in 0..4u8 {
        if !s.board.iter().any(|t| t.piece == Piece::Start { seat }) {
            p.push(format!("board: starting tile {seat} is missing (all five starting tiles are always used)"));
        }
    }
    if p.len() > tile_problems {
        return p;
    }
    // Every tile was laid beside the network with a track joining it (rulebook, step I.1;
    // ruling L1), so every tile is joined to the start crossing through shared sides with track
    // on both tiles. (This also keeps every cell within a few steps of the crossing.)
    for i in unjoined(content, s) {
        let t = &s.board[i];
        let what = match t.piece {
            Piece::Start { seat } => format!("starting tile {seat}"),
            piece => format!("tile {}", piece.tile().unwrap_or(0)),
        };
        p.push(format!(
            "board[{i}].cell: {what} at {} is not joined to the network: no track leads from it, through the tiles \
             beside it, to the start crossing at {} (a tile is laid beside the network with a track joining it, \
             rulebook step I.1)",
            t.cell, content.crossing
        ));
    }
    if p.len() > tile_problems {
        return p;
    }
    let game = Game::from_state_unchecked(Arc::new(content.clone()), s);
    let board = game.board();
    for (i, t) in board.tiles().iter().enumerate() {
        for (side, nb) in t.cell.neighbours() {
            if let Some(o) = board.at(nb)
                && t.face.tracks.contains(side) != o.face.tracks.contains(side.opposite())
            {
                p.push(format!("board[{i}]: its {} side does not match the track of the tile at {nb}", side.letter()));
            }
        }
        let seat_ok = |x: Option<u8>, what: &str, p: &mut Vec<String>| {
            if x.is_some_and(|x| usize::from(x) >= n) {
                p.push(format!("board[{i}].{what}: seats are 0 to {}", n - 1));
            }
        };
        seat_ok(t.owner, "owner", &mut p);
        seat_ok(t.station, "station", &mut p);
        seat_ok(t.first, "first", &mut p);
        seat_ok(t.laid_by, "laid_by", &mut p);
        if t.owner.is_some() && !(t.face.centre == Some(Centre::Production)) {
            p.push(format!("board[{i}].owner: only a production centre's facility can be owned"));
        }
        if let Some(st) = t.station {
            let ok = match t.piece {
                Piece::Start { seat } => seat == st,
                _ => t.face.centre == Some(Centre::Station),
            };
            if !ok {
                p.push(format!(
                    "board[{i}].station: a station stands on its colour's starting tile or a station centre"
                ));
            }
        }
        if t.face.factory.is_none() && (t.first.is_some() || t.later != [0; 4]) {
            p.push(format!("board[{i}]: factory cubes on a tile without a factory"));
        }
        if t.first.is_none() && t.later != [0; 4] {
            p.push(format!("board[{i}].later: the second space fills only after the first"));
        }
        if t.passengers.iter().skip(n).any(|&x| x > 0) || t.later.iter().skip(n).any(|&x| x > 0) {
            p.push(format!("board[{i}]: cubes of a seat not in the game"));
        }
    }
    let cities = board.cities();
    for (i, t) in board.tiles().iter().enumerate() {
        let passengers: u8 = t.passengers.iter().sum();
        if passengers > 0 {
            match cities.city_of[i] {
                Some(c) if cities.station[c].is_some() => {}
                _ => p.push(format!("board[{i}].passengers: passengers wait only in cities with a station")),
            }
        }
    }
    for c in 0..cities.houses.len() {
        let stations = (0..board.tiles().len())
            .filter(|&i| cities.city_of[i] == Some(c) && board.tiles()[i].station.is_some())
            .count();
        if stations > 1 {
            p.push(format!("board: a city has {stations} stations (at most one)"));
        }
        if cities.passengers[c] > cities.houses[c] {
            p.push(format!(
                "board: a city holds {} passengers for {} house icons",
                cities.passengers[c], cities.houses[c]
            ));
        }
    }
    for (seat, pl) in s.players.iter().enumerate() {
        let stations = board.tiles().iter().filter(|t| t.station == Some(seat as u8)).count();
        if stations != usize::from(pl.built) + 1 {
            p.push(format!(
                "players[{seat}].built: {} stations from the track, but {stations} stations on the map (the start station counts)",
                pl.built
            ));
        }
        for (l, loco) in pl.locomotives.iter().enumerate() {
            match loco {
                Some(c) if board.at(*c).is_none() => {
                    p.push(format!("players[{seat}].locomotives[{l}]: no tile at {c}"))
                }
                None if l == 0 => {
                    p.push(format!("players[{seat}].locomotives[0]: the first locomotive is always on the map"))
                }
                _ => {}
            }
        }
        let cubes = game.cubes_of(seat);
        if cubes != u32::from(CUBES) {
            p.push(format!("players[{seat}]: {cubes} cubes counted in every place, expected {CUBES}"));
        }
    }
    // Objectives.
    let mut ids = s.objectives.to_vec();
    ids.sort_unstable();
    ids.dedup();
    if ids.len() != COLUMNS || ids.iter().any(|&id| id == 0 || usize::from(id) > OBJECTIVES) {
        p.push(format!("objectives: expected {COLUMNS} different objective ids from 1 to {OBJECTIVES}"));
    }
    for (c, row) in s.cubes.iter().enumerate() {
        if row.iter().any(|&x| x > OBJECTIVE_LIMIT) {
            p.push(format!("cubes[{c}]: at most {OBJECTIVE_LIMIT} cubes of a player on an objective card"));
        }
    }
    let neutral = if n == 2 { NEUTRAL_CUBES } else { 0 };
    if s.neutral != [neutral; COLUMNS] {
        p.push(format!("neutral: {neutral} cubes of an unused colour on each card with {n} players"));
    }
    let held: u8 = s.players.iter().map(|pl| pl.tokens).sum();
    if u16::from(s.tokens) + u16::from(held) != u16::from(TOKENS) {
        p.push(format!("tokens: {} left and {held} held, expected {TOKENS} in all", s.tokens));
    }
    p
}

/// A game record: how the game was set up and every turn, each a list of actions. A turn is
/// written as the list itself, or as `{"player": ..., "actions": [...], "drawn": ...}` naming who
/// takes it (a seat from 0 or a colour), which the replay checks, and the tile it turned up to
/// refill the display. The setup is a seed (a game dealt by signalbox) or `table`: what the
/// table showed at the start, with no order of the face-down stack (a game from the table).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "RawRecord")]
pub struct Record {
    /// Number of players, 2 to 4.
    pub players: usize,
    /// The setup's seed (a dealt game); `None` for a game from the table.
    pub seed: Option<u64>,
    /// What the table showed at the start (a game from the table); `None` for a dealt game.
    pub table: Option<TableStart>,
    /// The rule options.
    pub options: Options,
    /// The turns in order.
    pub turns: Vec<Vec<Action>>,
    /// For each turn, the seat the record says takes it (`None`: not said). Shorter than
    /// `turns` when the last turns say nothing; empty for a record of plain lists.
    pub seats: Vec<Option<Seat>>,
    /// For each turn, the tile it turned up from the stack to refill the display (`None`: none
    /// said). Shorter than `turns` when the last turns say nothing. A game from the table says
    /// it for every turn that turns a tile up; a dealt game may say it, and the replay checks it.
    pub drawn: Vec<Option<u8>>,
    /// The turn in progress at the table when the record was saved: its actions so far and the
    /// tile it turned up, if any (`unfinished` in the file; a table session saves after every
    /// step). The replay stops before it; `play --table` goes on with it.
    pub unfinished: Option<(Vec<Action>, Option<u8>)>,
}

impl Serialize for Record {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Out<'a> {
            players: usize,
            #[serde(skip_serializing_if = "Option::is_none")]
            seed: Option<u64>,
            #[serde(skip_serializing_if = "Option::is_none")]
            table: Option<&'a TableStart>,
            options: Options,
            turns: Vec<TurnOut<'a>>,
            #[serde(skip_serializing_if = "Option::is_none")]
            unfinished: Option<TurnOut<'a>>,
        }
        #[derive(Serialize)]
        #[serde(untagged)]
        enum TurnOut<'a> {
            List(&'a [Action]),
            Object {
                #[serde(skip_serializing_if = "Option::is_none")]
                player: Option<Seat>,
                actions: &'a [Action],
                #[serde(skip_serializing_if = "Option::is_none")]
                drawn: Option<u8>,
            },
        }
        let turns = self
            .turns
            .iter()
            .enumerate()
            .map(|(t, actions)| {
                let drawn = self.drawn.get(t).copied().flatten();
                let player = if self.table.is_some() { self.seats.get(t).copied().flatten() } else { None };
                if drawn.is_none() && player.is_none() {
                    TurnOut::List(actions)
                } else {
                    TurnOut::Object { player, actions, drawn }
                }
            })
            .collect();
        let unfinished =
            self.unfinished.as_ref().map(|(actions, drawn)| TurnOut::Object { player: None, actions, drawn: *drawn });
        Out {
            players: self.players,
            seed: self.seed,
            table: self.table.as_ref(),
            options: self.options,
            turns,
            unfinished,
        }
        .serialize(s)
    }
}

/// Who takes a turn, as a record names it: a seat from 0, or a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Seat {
    /// A seat, from 0.
    Number(u8),
    /// A colour (`red`, `blue`, `yellow`, `green`).
    Colour(Colour),
}

impl Seat {
    /// Whether this names `seat`, whose colour is `colour`.
    pub fn names(self, seat: usize, colour: Colour) -> bool {
        match self {
            Seat::Number(n) => usize::from(n) == seat,
            Seat::Colour(c) => c == colour,
        }
    }
}

impl std::fmt::Display for Seat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Seat::Number(n) => write!(f, "seat {n}"),
            Seat::Colour(c) => write!(f, "{c}"),
        }
    }
}

/// A record as written: each turn a list of actions or an object naming its player.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRecord {
    players: usize,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    table: Option<TableStart>,
    #[serde(default)]
    options: Options,
    #[serde(default)]
    turns: Vec<RawTurn>,
    #[serde(default)]
    unfinished: Option<RawTurn>,
}

impl TryFrom<RawRecord> for Record {
    type Error = String;

    fn try_from(raw: RawRecord) -> Result<Record, String> {
        match (&raw.seed, &raw.table) {
            (Some(_), Some(_)) => {
                return Err("a record has `seed` (a dealt game) or `table` (a game from the table), not both".into());
            }
            (None, None) => {
                return Err("missing field `seed` or `table`: a record starts from a seed (a dealt game) or from \
                            what the table showed (`table`)"
                    .into());
            }
            _ => {}
        }
        let mut seats: Vec<Option<Seat>> = raw.turns.iter().map(|t| t.player).collect();
        while seats.last().is_some_and(Option::is_none) {
            seats.pop();
        }
        let mut drawn: Vec<Option<u8>> = raw.turns.iter().map(|t| t.drawn).collect();
        while drawn.last().is_some_and(Option::is_none) {
            drawn.pop();
        }
        Ok(Record {
            players: raw.players,
            seed: raw.seed,
            table: raw.table,
            options: raw.options,
            turns: raw.turns.into_iter().map(|t| t.actions).collect(),
            seats,
            drawn,
            unfinished: raw.unfinished.map(|t| (t.actions, t.drawn)),
        })
    }
}

/// One turn as written.
struct RawTurn {
    player: Option<Seat>,
    actions: Vec<Action>,
    drawn: Option<u8>,
}

impl<'de> Deserialize<'de> for RawTurn {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<RawTurn, D::Error> {
        d.deserialize_any(TurnVisitor)
    }
}

struct TurnVisitor;

impl<'de> serde::de::Visitor<'de> for TurnVisitor {
    type Value = RawTurn;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a turn: a list of actions, or an object with `player`, `actions` and `drawn`")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<RawTurn, A::Error> {
        let mut actions = Vec::new();
        while let Some(a) = seq.next_element()? {
            actions.push(a);
        }
        Ok(RawTurn { player: None, actions, drawn: None })
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<RawTurn, A::Error> {
        use serde::de::Error;
        let (mut player, mut actions, mut drawn) = (None, None, None);
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "player" if player.is_none() => player = Some(map.next_value::<Seat>()?),
                "actions" if actions.is_none() => actions = Some(map.next_value::<Vec<Action>>()?),
                "drawn" if drawn.is_none() => drawn = Some(map.next_value::<u8>()?),
                "player" | "actions" | "drawn" => {
                    return Err(A::Error::custom(format_args!("duplicate field `{key}` in a turn")));
                }
                _ => {
                    return Err(A::Error::custom(format_args!(
                        "unknown field `{key}` in a turn: its fields are `player`, `actions` and `drawn`"
                    )));
                }
            }
        }
        let actions = actions.ok_or_else(|| A::Error::custom("missing field `actions` in a turn"))?;
        Ok(RawTurn { player, actions, drawn })
    }
}

/// Why a record does not replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// Not JSON, or not the format.
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    /// The setup is impossible.
    #[error("{file}: {error}")]
    Setup {
        /// The file's name.
        file: String,
        /// Why.
        error: SetupError,
    },
    /// An action is illegal.
    #[error("{file}: turns[{turn}][{action}] ({colour}'s turn, {what}): {error}")]
    Illegal {
        /// The file's name.
        file: String,
        /// Turn index.
        turn: usize,
        /// The colour of the player whose turn it is.
        colour: Colour,
        /// Action index within the turn.
        action: usize,
        /// The action.
        what: String,
        /// Why.
        error: Illegal,
    },
    /// The file is not a Cube Express game record (a position, or another game's file).
    #[error("{file}: {what} (docs/formats/cube-express-position.md, \"Record\")")]
    NotARecord {
        /// The file's name.
        file: String,
        /// What it is.
        what: String,
    },
    /// What a record of a game from the table says the table showed at the start is not
    /// possible.
    #[error("{file}: the start at the table is not possible ({}):\n{}", count(problems.len()), bullet_list(problems))]
    Table {
        /// The file's name.
        file: String,
        /// Every problem, each naming its field.
        problems: Vec<String>,
    },
    /// A turn's tile turned up from the stack is wrong or missing (rulebook, step III: the
    /// player turns up the top tile of the face-down stack into the empty space).
    #[error("{file}: turns[{turn}].drawn: {why}")]
    Drawn {
        /// The file's name.
        file: String,
        /// Turn index.
        turn: usize,
        /// Why.
        why: String,
    },
    /// A turn names a player who is not the one to play (rulebook, "Playing the Game": the
    /// players take their turns in clockwise order, the first player's marker never moves).
    #[error(
        "{file}: turns[{turn}].player: the record gives this turn to {named}, but it is {colour}'s turn (seat {seat}; \
         players take their turns in seat order from the first player, rulebook \"Playing the Game\")"
    )]
    WrongPlayer {
        /// The file's name.
        file: String,
        /// Turn index.
        turn: usize,
        /// Who the record names.
        named: Seat,
        /// The seat to play.
        seat: usize,
        /// Its colour.
        colour: Colour,
    },
}

impl Record {
    /// A record of plain turns (no player named).
    pub fn new(players: usize, seed: u64, options: Options, turns: Vec<Vec<Action>>) -> Record {
        Record {
            players,
            seed: Some(seed),
            table: None,
            options,
            turns,
            seats: Vec::new(),
            drawn: Vec::new(),
            unfinished: None,
        }
    }

    /// A record of a game from the table, no turn played yet.
    pub fn table(players: usize, start: TableStart, options: Options) -> Record {
        Record {
            players,
            seed: None,
            table: Some(start),
            options,
            turns: Vec::new(),
            seats: Vec::new(),
            drawn: Vec::new(),
            unfinished: None,
        }
    }

    /// The game at the start: the seed's deal, or what the table showed.
    pub fn start(&self, content: Arc<Content>, file: &str) -> Result<Game, RecordError> {
        match (&self.table, self.seed) {
            (Some(start), _) => start
                .game(content, self.players, self.options)
                .map_err(|problems| RecordError::Table { file: file.to_string(), problems }),
            (None, seed) => Game::new(content, self.players, seed.unwrap_or(0), self.options)
                .map_err(|error| RecordError::Setup { file: file.to_string(), error }),
        }
    }

    /// The record as the table saw it (ruling A2): the start as the table showed it (the
    /// objective cards, the first player, the hands, the display) and each turn's tile turned up
    /// as it came, with no seed and no order of the face-down stack. What `analyse` and `advise`
    /// read, so that what nobody saw cannot change their answers.
    pub fn seen(&self, content: Arc<Content>, file: &str) -> Result<Record, RecordError> {
        let games = self.games(content, file)?;
        let mut start = match &self.table {
            Some(t) => t.clone(),
            None => TableStart::of(&games[0]),
        };
        start.stack = None;
        let drawn = (0..self.turns.len())
            .map(|t| {
                let (before, after) = (&games[t], &games[t + 1]);
                (after.stack().len() < before.stack().len())
                    .then(|| after.display().iter().flatten().copied().find(|d| !before.display().contains(&Some(*d))))
                    .flatten()
            })
            .collect();
        let seats = (0..self.turns.len())
            .map(|t| Some(Seat::Colour(games[t].players()[usize::from(games[t].active())].colour)))
            .collect();
        Ok(Record {
            players: self.players,
            seed: None,
            table: Some(start),
            options: self.options,
            turns: self.turns.clone(),
            seats,
            drawn,
            unfinished: None,
        })
    }

    /// Replays the record, checking every action: the game after the last turn.
    pub fn replay(&self, content: Arc<Content>, file: &str) -> Result<Game, RecordError> {
        let mut games = self.games(content, file)?;
        Ok(games.pop().expect("the setup at least"))
    }

    /// Replays the record, checking every action and every turn's named player: the game at
    /// the setup and after each turn (`turns.len() + 1` games).
    pub fn games(&self, content: Arc<Content>, file: &str) -> Result<Vec<Game>, RecordError> {
        let mut game = self.start(content, file)?;
        let mut games = Vec::with_capacity(self.turns.len() + 1);
        for (turn, actions) in self.turns.iter().enumerate() {
            let drawn = self.drawn.get(turn).copied().flatten();
            let before = game.stack().len();
            if let Some(tile) = drawn {
                game.draw_next(tile).map_err(|e| RecordError::Drawn {
                    file: file.to_string(),
                    turn,
                    why: format!("{e} (rulebook, step III: the top tile of the face-down stack refills the display)"),
                })?;
            }
            let seat = usize::from(game.active());
            if let Some(Some(named)) = self.seats.get(turn)
                && !game.is_over()
                && !named.names(seat, game.players()[seat].colour)
            {
                return Err(RecordError::WrongPlayer {
                    file: file.to_string(),
                    turn,
                    named: *named,
                    seat,
                    colour: game.players()[seat].colour,
                });
            }
            let next = game.play_turn(actions).map_err(|(action, error)| RecordError::Illegal {
                file: file.to_string(),
                turn,
                colour: game.players()[seat].colour,
                action,
                what: actions.get(action).map_or("end of the list".to_string(), |a| a.to_string()),
                error,
            })?;
            let drew = next.stack().len() < before;
            if drew && drawn.is_none() && game.stack_hidden() {
                return Err(RecordError::Drawn {
                    file: file.to_string(),
                    turn,
                    why: "missing: the turn refills the display from the face-down stack, whose order a game from \
                          the table does not know; say which tile was turned up"
                        .to_string(),
                });
            }
            if drawn.is_some() && !drew {
                return Err(RecordError::Drawn {
                    file: file.to_string(),
                    turn,
                    why: "this turn turns no tile up (no market, or the stack is empty)".to_string(),
                });
            }
            games.push(std::mem::replace(&mut game, next));
        }
        games.push(game);
        Ok(games)
    }
}

/// Reads a record file.
pub fn read_record(file: &str, text: &str) -> Result<Record, SyntaxError> {
    crate::source::parse_json(file, text)
}

/// Reads a file that should be a Cube Express game record, saying what it is when it is not:
/// a Cube Express position, or a record of another game of signalbox (told by its fields:
/// Railways Express records have `seats`, The Cubes of Europe's `instance` and `moves`).
/// Otherwise as [`read_record`]: a syntax error (a truncated file) names the line and column.
pub fn read_game_record(file: &str, text: &str) -> Result<Record, RecordError> {
    if let Ok(serde_json::Value::Object(o)) = serde_json::from_str::<serde_json::Value>(text) {
        let what = if o.contains_key("map") {
            Some("an Express 01 position (it has `map`), not a Cube Express record")
        } else if o.contains_key("board") {
            Some(
                "a Cube Express position (it has `board`), not a game record: a record is the setup (`players`, `seed`) and the turns played",
            )
        } else if o.contains_key("seats") {
            Some("a Railways Express record (it has `seats`), not a Cube Express one")
        } else if o.contains_key("instance") || o.contains_key("moves") {
            Some("a record of The Cubes of Europe (it has `instance` and `moves`), not a Cube Express one")
        } else {
            None
        };
        if let Some(what) = what {
            return Err(RecordError::NotARecord { file: file.to_string(), what: what.to_string() });
        }
    }
    Ok(read_record(file, text)?)
}

/// The board entries (indices) not joined to the start crossing: reached neither from it nor
/// from a tile joined to it across a side with track on both tiles. Steps only from tiles
/// reached, so cells far from the crossing are never stepped from.
fn unjoined(content: &Content, s: &State) -> Vec<usize> {
    let index: BTreeMap<Cell, usize> = s.board.iter().enumerate().map(|(i, t)| (t.cell, i)).collect();
    let faces: Vec<_> = s.board.iter().map(|t| t.piece.face(content).unwrap_or_default()).collect();
    let mut joined = vec![false; s.board.len()];
    let mut queue: Vec<usize> = index.get(&content.crossing).copied().into_iter().collect();
    if let Some(&start) = queue.first() {
        joined[start] = true;
    }
    while let Some(i) = queue.pop() {
        for side in faces[i].tracks.iter() {
            let Some(&j) = index.get(&s.board[i].cell.step(side)) else { continue };
            if !joined[j] && faces[j].tracks.contains(side.opposite()) {
                joined[j] = true;
                queue.push(j);
            }
        }
    }
    (0..s.board.len()).filter(|&i| !joined[i]).collect()
}

/// What a Cube Express JSON file holds, told by its fields (`docs/formats/cube-express-position.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FileKind {
    /// A position: an object with `board` (and `players` as a list).
    Position,
    /// A game record: an object with `players` as a number and `turns` as a list of turns.
    Record,
}

impl FileKind {
    /// The kind's name in messages.
    pub const fn name(self) -> &'static str {
        match self {
            FileKind::Position => "position",
            FileKind::Record => "game record",
        }
    }
}

/// A file checked by [`check_file`]: what it is, every problem found, and the game it describes
/// (the position, or the game after the record's last turn) when it has none.
#[derive(Clone, Debug)]
pub struct Checked {
    /// What the file holds; `None` when that cannot be told (not JSON, or neither kind's fields).
    pub kind: Option<FileKind>,
    /// Every problem found, each naming its field (a position), its action (`turns[t][a]`, a
    /// record: the replay stops at the first), or the line and column (syntax).
    pub problems: Vec<String>,
    /// The game, when there is no problem.
    pub game: Option<Game>,
}

/// Checks a position or a game record, told apart by its fields: a position against every rule
/// (every problem listed), a record by replaying it with every action checked (the first
/// illegal action named, as the replay cannot go past it).
pub fn check_file(content: Arc<Content>, file: &str, text: &str) -> Checked {
    let value: Result<serde_json::Value, _> = serde_json::from_str(text);
    let kind = match &value {
        Ok(serde_json::Value::Object(o)) if o.contains_key("board") => Some(FileKind::Position),
        Ok(serde_json::Value::Object(o)) if o.get("players").is_some_and(serde_json::Value::is_number) => {
            Some(FileKind::Record)
        }
        Ok(serde_json::Value::Object(o)) if o.get("turns").is_some_and(serde_json::Value::is_array) => {
            Some(FileKind::Record)
        }
        _ => None,
    };
    let refused = |kind, problems| Checked { kind, problems, game: None };
    match kind {
        Some(FileKind::Position) => match read_position(content, file, text) {
            Ok(game) => Checked { kind, problems: Vec::new(), game: Some(game) },
            Err(PositionError::Syntax(e)) => refused(kind, vec![e.to_string()]),
            Err(PositionError::Invalid { problems, .. }) => refused(kind, problems),
        },
        Some(FileKind::Record) => match read_record(file, text) {
            Err(e) => refused(kind, vec![e.to_string()]),
            Ok(record) => match record.replay(content, file) {
                Ok(game) => Checked { kind, problems: Vec::new(), game: Some(game) },
                Err(RecordError::Setup { error, .. }) => refused(kind, vec![format!("players: {error}")]),
                Err(RecordError::Illegal { turn, action, what, error, colour, .. }) => {
                    refused(kind, vec![format!("turns[{turn}][{action}] ({colour}'s turn, {what}): {error}")])
                }
                Err(
                    e @ (RecordError::WrongPlayer { .. }
                    | RecordError::NotARecord { .. }
                    | RecordError::Table { .. }
                    | RecordError::Drawn { .. }),
                ) => {
                    let said = e.to_string();
                    let said = said.strip_prefix(&format!("{file}: ")).map_or(said.clone(), str::to_string);
                    refused(kind, vec![said])
                }
                Err(RecordError::Syntax(e)) => refused(kind, vec![e.to_string()]),
            },
        },
        None => match value {
            Err(_) => {
                // Not JSON: the parser's own message, with its line and column.
                let e = crate::source::parse_json::<serde_json::Value>(file, text)
                    .err()
                    .map_or_else(|| format!("{file}: not JSON"), |e| e.to_string());
                refused(None, vec![e])
            }
            Ok(_) => refused(
                None,
                vec![format!(
                    "{file}: neither a position (an object with `board`) nor a game record (an object with `players` \
                     as a number, `seed` and `turns`); docs/formats/cube-express-position.md"
                )],
            ),
        },
    }
}
