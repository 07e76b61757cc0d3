//! `signalbox cube-express play`: a game entered as it is played. At the table (`--table`)
//! signalbox never shuffles: it asks for each tile turned up from the face-down stack as it comes,
//! and takes the actions in the words it prints (or a menu number). The record holds only what
//! the table saw (docs/formats/cube-express-position.md, "A game from the table").

use std::sync::Arc;

use signalbox_engine::cube_express::action::Action;
use signalbox_engine::cube_express::board::Piece;
use signalbox_engine::cube_express::catalogue::Content;
use signalbox_engine::cube_express::game::{Game, Phase};
use signalbox_engine::cube_express::position::{Record, Seat};
use signalbox_engine::cube_express::score::{final_scores, winners};
use signalbox_engine::cube_express::words::parse_action;

use crate::table::{Ask, TableGame};

/// A Cube Express game being entered: its record (the turns finished) and the turn in progress.
pub struct CubeTable {
    content: Arc<Content>,
    record: Record,
    /// The game after the record's finished turns.
    finished: Game,
    /// The actions of the turn in progress.
    current: Vec<Action>,
    /// The tile the turn in progress turned up, if any.
    drawn: Option<u8>,
    /// A market action waiting for the tile turned up into its column.
    pending: Option<Action>,
}

impl CubeTable {
    /// A session on `record` (a new game or one to go on with): it must replay, the unfinished
    /// turn included.
    pub fn new(content: Arc<Content>, mut record: Record, file: &str) -> Result<CubeTable, String> {
        let finished = record.replay(content.clone(), file).map_err(|e| e.to_string())?;
        let (current, drawn) = record.unfinished.take().unwrap_or_default();
        let mut table = CubeTable { content, record, finished, current: Vec::new(), drawn: None, pending: None };
        table.drawn = drawn;
        for (i, a) in current.iter().enumerate() {
            let mut g = table.game();
            g.apply(a).map_err(|e| format!("{file}: unfinished.actions[{i}]: {e}"))?;
            table.current.push(*a);
        }
        Ok(table)
    }

    /// The game now: the finished turns, then the turn in progress.
    fn game(&self) -> Game {
        let mut g = self.finished.clone();
        if let Some(tile) = self.drawn {
            // Checked when it was entered.
            let _ = g.draw_next(tile);
        }
        for a in &self.current {
            let _ = g.apply(a);
        }
        g
    }

    fn rebuild(&mut self) {
        self.finished = self.record.replay(self.content.clone(), "the game").expect("a record that replayed");
    }

    /// The action a line names: a listed action's words exactly, or any action in words.
    fn read(&self, game: &Game, line: &str) -> Result<Action, String> {
        let wanted = line.trim().to_lowercase();
        if let Some(a) = game.legal_actions().into_iter().find(|a| game.describe(a).to_lowercase() == wanted) {
            return Ok(a);
        }
        parse_action(line).map_err(|why| format!("{why}; type `help` for the words, or a menu number"))
    }

    fn take(&mut self, action: Action) -> Result<String, String> {
        let game = self.game();
        let words = game.describe(&action);
        let mut after = game.clone();
        after.apply(&action).map_err(|e| format!("{e} (\"{words}\")"))?;
        self.current.push(action);
        if after.turns_played() != game.turns_played() {
            let seat = usize::from(game.active());
            let t = self.record.turns.len();
            self.record.turns.push(std::mem::take(&mut self.current));
            self.record.seats.resize(t, None);
            self.record.seats.push(Some(Seat::Colour(game.players()[seat].colour)));
            self.record.drawn.resize(t, None);
            self.record.drawn.push(self.drawn.take());
            self.rebuild();
        }
        Ok(words)
    }
}

/// A tile named by its number.
pub(crate) fn tile_number(text: &str) -> Result<u8, String> {
    let t = text.trim().trim_start_matches("tile").trim();
    t.parse::<u8>().map_err(|_| format!("`{}` is not a tile: give the number printed on the tile", text.trim()))
}

impl TableGame for CubeTable {
    fn record_json(&self) -> String {
        let mut record = self.record.clone();
        if !self.current.is_empty() || self.drawn.is_some() {
            record.unfinished = Some((self.current.clone(), self.drawn));
        }
        serde_json::to_string_pretty(&record).expect("a record is JSON") + "\n"
    }

    fn board(&self) -> String {
        draw(&self.game())
    }

    fn ask(&self) -> Ask {
        let game = self.game();
        if game.is_over() {
            return Ask { over: true, ..Ask::default() };
        }
        if let Some(Action::Market { slot, .. }) = self.pending {
            let unseen: Vec<String> = game.unseen_tiles().iter().map(u8::to_string).collect();
            return Ask {
                question: format!(
                    "The tile turned up from the stack into display column {slot} (its number; face down now: {}):",
                    unseen.join(", ")
                ),
                ..Ask::default()
            };
        }
        let seat = usize::from(game.active());
        let step = match game.phase() {
            Phase::Lay => "step I, lay a tile",
            Phase::Move => "step II, move (the market ends it)",
            Phase::End => "after the market, end the turn",
        };
        let menu = game.legal_actions().iter().map(|a| game.describe(a)).collect();
        Ask {
            question: format!(
                "{}, turn {}, {step}: an action in words or a number",
                game.players()[seat].colour,
                game.turns_played() + 1
            ),
            menu,
            over: false,
            show_board: self.current.is_empty(),
        }
    }

    fn enter(&mut self, line: &str) -> Result<String, String> {
        if let Some(market) = self.pending {
            let tile = tile_number(line)?;
            let mut game = self.game();
            game.draw_next(tile).map_err(|e| {
                format!("{e} (rulebook, step III: the top tile of the face-down stack refills the display)")
            })?;
            self.drawn = Some(tile);
            self.pending = None;
            return match self.take(market) {
                Ok(words) => Ok(format!("{words}; tile {tile} turned up")),
                Err(e) => {
                    self.drawn = None;
                    self.pending = Some(market);
                    Err(e)
                }
            };
        }
        let game = self.game();
        let action = self.read(&game, line)?;
        if matches!(action, Action::Market { .. }) && game.refills() && game.stack_hidden() {
            let mut after = game.clone();
            after.apply(&action).map_err(|e| format!("{e} (\"{}\")", game.describe(&action)))?;
            self.pending = Some(action);
            return Ok(format!("{} (which tile is turned up?)", game.describe(&action)));
        }
        self.take(action)
    }

    fn undo(&mut self) -> Result<String, String> {
        if let Some(market) = self.pending.take() {
            return Ok(self.game().describe(&market));
        }
        if self.current.is_empty() {
            let Some(turn) = self.record.turns.pop() else {
                return Err("nothing to take back: no step entered yet".to_string());
            };
            let t = self.record.turns.len();
            self.record.seats.truncate(t);
            self.drawn = self.record.drawn.get(t).copied().flatten();
            self.record.drawn.truncate(t);
            self.rebuild();
            self.current = turn;
        }
        let last = self.current.pop().expect("a step");
        if matches!(last, Action::Market { .. }) {
            self.drawn = None;
        }
        Ok(self.game().describe(&last))
    }

    fn help(&self) -> String {
        format!(
            "Type an action in the words the menu prints (or its number): {}.\n\
             When a tile is taken from the display, type the number of the tile turned up from the stack.",
            signalbox_engine::cube_express::words::EXPECTED
        )
    }

    fn summary(&self) -> String {
        let game = self.game();
        let scores = final_scores(&game);
        let parts: Vec<String> =
            game.players().iter().zip(&scores).map(|(p, s)| format!("{} {}", p.colour, s.total())).collect();
        let best: Vec<String> = winners(&game).iter().map(|&w| game.players()[w].colour.to_string()).collect();
        if game.is_over() {
            format!(
                "Game over after {} turns: {}; winner {}",
                game.turns_played(),
                parts.join(", "),
                best.join(" and ")
            )
        } else {
            format!("Stopped after {} turns: {} (as if it ended now)", game.turns_played(), parts.join(", "))
        }
    }
}

/// The table as text: the objective cards and the display by column, each player's pieces and
/// hand, and the tiles on the map.
pub fn draw(game: &Game) -> String {
    let mut out = String::new();
    let columns: Vec<String> = (0..4)
        .map(|c| {
            let cubes: Vec<String> = game
                .players()
                .iter()
                .enumerate()
                .filter(|(s, _)| game.objective_cubes(c)[*s] > 0)
                .map(|(s, p)| format!("{} {}", p.colour, game.objective_cubes(c)[s]))
                .collect();
            let tile = game.display()[c].map_or("empty".to_string(), |t| format!("tile {t}"));
            let cubes = if cubes.is_empty() { String::new() } else { format!(" [{}]", cubes.join(", ")) };
            format!("column {c}: objective {}{cubes}, {tile}", game.objectives()[c])
        })
        .collect();
    out.push_str(&format!("Turn {} · {} tiles face down\n", game.turns_played() + 1, game.stack().len()));
    for c in columns {
        out.push_str(&format!("  {c}\n"));
    }
    for (s, p) in game.players().iter().enumerate() {
        let locos: Vec<String> = p.locomotives.iter().flatten().map(ToString::to_string).collect();
        let hand: Vec<String> = p.hand.iter().map(u8::to_string).collect();
        out.push_str(&format!(
            "  {}: reserve {}, dividends {}, store {}, stock {}, stations built {}, technology {}, locomotives at {}, hand {}\n",
            p.colour,
            p.reserve,
            p.dividends,
            p.store,
            p.stock,
            p.built,
            game.tech_level(s),
            locos.join(" and "),
            hand.join(", ")
        ));
    }
    let tiles: Vec<String> = game
        .board()
        .tiles()
        .iter()
        .filter_map(|t| match t.piece {
            Piece::Front { tile, rotation } => Some(format!("{} tile {tile} r{rotation}", t.cell)),
            Piece::Back { tile, rotation } => Some(format!("{} tile {tile} back r{rotation}", t.cell)),
            _ => None,
        })
        .collect();
    out.push_str(&format!(
        "  map: {}\n",
        if tiles.is_empty() { "the starting tiles".to_string() } else { tiles.join("; ") }
    ));
    out
}
