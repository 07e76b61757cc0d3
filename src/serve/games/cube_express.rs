//! Cube Express on the analysis board: a game record replayed by the engine one action at a
//! time, as `cube-express play` takes them.
//!
//! **Steps.** A step is one action of the record (a lay, a locomotive's move onto the next tile,
//! a pickup, a delivery, a trade, the market, the end of the turn), in the words the engine
//! describes it with and the table's menu prints (`cube-express play`), which `play` reads back.
//! A game from the table (a record with `table`, no seed) also holds each tile turned up from the
//! face-down stack to refill the display: that is a chance step (`tile 12`) right after the
//! market step that takes a tile from the display, as `play --table` asks for it. A dealt game
//! (a record with `seed`) has no chance step: its seed fixes the stack, so the tile turned up
//! is the stack's top tile, not a step of the record.
//!
//! **Choices.** Every legal action of the engine at the position (`Game::legal_actions`), grouped
//! by what it does; where the next step is the tile turned up, every tile still face down. A
//! turn start lists every lay of the hand (each tile, side, cell, rotation, with and without its
//! centre action, each station payment): some hundreds at most, so none is left out; should a
//! position ever have more than [`MAX_CHOICES`], the lays beyond the cap are left out (the other
//! actions are always listed).

use std::sync::{Arc, OnceLock};

use signalbox_engine::cube_express::action::{Action, ordinal};
use signalbox_engine::cube_express::catalogue::Content;
use signalbox_engine::cube_express::game::{Game, Illegal, Phase};
use signalbox_engine::cube_express::options::Options;
use signalbox_engine::cube_express::position::{Record, SAMPLE_GAME_JSON, Seat, read_game_record};
use signalbox_engine::cube_express::score::{final_scores, winners};
use signalbox_engine::cube_express::words::parse_action;
use signalbox_render::cube_express::picture::plan_svg;
use signalbox_render::walk::{Choice, DecisionAt, Reviewed, Step, Walk};
use signalbox_solver::cube_express::analysis::{AnalysisError, analyse};
use signalbox_solver::cube_express::plan::PlanOptions;

use super::{AdviseCall, Kind, Open};
use crate::cube_express::table::{CubeTable, tile_number};

/// The most choices listed at one position; lays beyond it are left out (no position of the
/// house set comes near it).
pub const MAX_CHOICES: usize = 2000;

/// The embedded house set, read once.
fn content() -> Arc<Content> {
    static HOUSE: OnceLock<Arc<Content>> = OnceLock::new();
    HOUSE.get_or_init(|| Arc::new(Content::house())).clone()
}

/// The bundled sample game: the record `cube-express analyse` reviews when given no file.
pub fn sample() -> Box<dyn Open> {
    match open("the sample game", SAMPLE_GAME_JSON) {
        Ok(game) => game,
        Err(e) => panic!("the embedded sample game replays (its tests say so): {e}"),
    }
}

/// Reads a record the user gave, named `label` in messages, with the readers of
/// `cube-express play FILE` (and so of `replay` and `analyse`): a bad file gets the message the
/// CLI prints for it.
pub fn open(label: &str, text: &str) -> Result<Box<dyn Open>, String> {
    let record = read_game_record(label, text).map_err(|e| e.to_string())?;
    // The CLI's own check of a record to go on with: every finished turn, then the turn in
    // progress (`unfinished`).
    CubeTable::new(content(), record.clone(), label)?;
    let mut setup = record.clone();
    setup.turns.clear();
    setup.seats.clear();
    setup.drawn.clear();
    setup.unfinished = None;
    let mut entries = Vec::new();
    let mut game = record.start(content(), label).map_err(|e| e.to_string())?;
    let unfinished = record.unfinished.as_ref().map(|(a, d)| (a.clone(), *d));
    let turns = record.turns.iter().enumerate().map(|(t, a)| (a.clone(), record.drawn.get(t).copied().flatten()));
    for (actions, drawn) in turns.chain(unfinished) {
        for action in actions {
            entries.push(Entry::Act(action));
            if matches!(action, Action::Market { .. })
                && game.stack_hidden()
                && game.refills()
                && let Some(tile) = drawn
            {
                let _ = game.draw_next(tile);
                entries.push(Entry::Drawn(tile));
            }
            let _ = game.apply(&action);
        }
    }
    Ok(Box::new(CubeGame::build(label, setup, entries)?))
}

/// A new game dealt from a seed with no step played, as `cube-express new --seed SEED` makes it
/// (3 players, the default options).
pub fn new_game(seed: u64) -> Result<Box<dyn Open>, String> {
    let setup = Record::new(3, seed, Options::default(), Vec::new());
    Ok(Box::new(CubeGame::build(&format!("a new game from seed {seed}"), setup, Vec::new())?))
}

/// One step: an action of the active player, or the tile turned up from the face-down stack
/// (a game from the table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Entry {
    /// An action.
    Act(Action),
    /// The tile turned up into the display by the market step just before.
    Drawn(u8),
}

/// The position before a step: the turn's start and its actions so far.
#[derive(Clone, Debug)]
struct Pos {
    /// The game at the start of the turn (with the tile it turned up put on top of the stack,
    /// once known).
    start: Game,
    /// The turn's actions applied so far.
    done: Vec<Action>,
    /// The game now: `start` after `done`.
    game: Game,
    /// A market action waiting for the tile turned up into its column.
    pending: Option<Action>,
    /// The tile this turn turned up, once known.
    drawn: Option<u8>,
}

/// An open Cube Express game.
struct CubeGame {
    /// Names the game in titles and messages.
    label: String,
    /// The record's setup (players, seed or table, options), no turn.
    setup: Record,
    /// The steps.
    entries: Vec<Entry>,
    /// The position before each step, and at the end (`entries.len() + 1`).
    positions: Vec<Pos>,
    /// The finished turns: actions, tile turned up, and the player's colour.
    turns: Vec<(Vec<Action>, Option<u8>, Seat)>,
    /// For each finished turn, the step that starts it and the step after its last.
    spans: Vec<(usize, usize)>,
    /// The walk.
    walk: Walk,
}

impl CubeGame {
    /// The game of `setup` after `entries`, each checked by the engine; an illegal step is
    /// refused with the engine's reason.
    fn build(label: &str, setup: Record, entries: Vec<Entry>) -> Result<CubeGame, String> {
        let start = setup.start(content(), label).map_err(|e| e.to_string())?;
        let mut pos = Pos { start: start.clone(), done: Vec::new(), game: start, pending: None, drawn: None };
        let mut positions = Vec::with_capacity(entries.len() + 1);
        let mut steps = Vec::with_capacity(entries.len());
        let mut turns = Vec::new();
        let mut spans = Vec::new();
        let mut turn_start = 0;
        for (i, entry) in entries.iter().enumerate() {
            let game = &pos.game;
            let seat = usize::from(game.active());
            let colour = game.players()[seat].colour;
            steps.push(Step {
                turn: game.turns_played() as usize + 1,
                player: colour.to_string(),
                text: match entry {
                    Entry::Act(a) => game.describe(a),
                    Entry::Drawn(tile) => format!("tile {tile}"),
                },
                chance: matches!(entry, Entry::Drawn(_)),
            });
            positions.push(pos.clone());
            let turns_before = game.turns_played();
            match *entry {
                Entry::Drawn(tile) => {
                    let Some(market) = pos.pending.take() else {
                        return Err(format!(
                            "tile {tile}: no tile is turned up now (a tile is turned up from the face-down stack only \
                             when the market takes one from the display; rulebook, step III)"
                        ));
                    };
                    let refill = |e: Illegal| {
                        format!("{e} (rulebook, step III: the top tile of the face-down stack refills the display)")
                    };
                    pos.start.draw_next(tile).map_err(refill)?;
                    pos.game.draw_next(tile).map_err(refill)?;
                    let words = pos.game.describe(&market);
                    pos.game.apply(&market).map_err(|e| format!("{e} (\"{words}\")"))?;
                    pos.done.push(market);
                    pos.drawn = Some(tile);
                }
                Entry::Act(action) => {
                    if let Some(market) = pos.pending {
                        let column = match market {
                            Action::Market { slot, .. } => ordinal(slot),
                            _ => String::new(),
                        };
                        return Err(format!(
                            "the tile turned up from the face-down stack into the {column} display column comes first \
                             (rulebook, step III: the top tile of the stack refills the display): give its number"
                        ));
                    }
                    let words = pos.game.describe(&action);
                    if matches!(action, Action::Market { .. }) && pos.game.refills() && pos.game.stack_hidden() {
                        let mut after = pos.game.clone();
                        after.apply(&action).map_err(|e| format!("{e} (\"{words}\")"))?;
                        pos.pending = Some(action);
                    } else {
                        pos.game.apply(&action).map_err(|e| format!("{e} (\"{words}\")"))?;
                        pos.done.push(action);
                    }
                }
            }
            if pos.game.turns_played() != turns_before {
                turns.push((std::mem::take(&mut pos.done), pos.drawn.take(), Seat::Colour(colour)));
                spans.push((turn_start, i + 1));
                turn_start = i + 1;
                pos.start = pos.game.clone();
            }
        }
        let players: Vec<String> = pos.game.players().iter().map(|p| p.colour.to_string()).collect();
        positions.push(pos);
        let title = match setup.seed {
            Some(seed) => format!("Cube Express · {label} · {} players, seed {seed}", setup.players),
            None => format!("Cube Express · {label} · {} players, a game from the table", setup.players),
        };
        let mut game = CubeGame {
            label: label.to_string(),
            setup,
            entries,
            positions,
            turns,
            spans,
            walk: Walk { game: "cube-express".to_string(), title, players, steps, next: String::new() },
        };
        game.walk.next = game.situation(game.entries.len());
        Ok(game)
    }

    /// The position before step `at`, clamped to the end.
    fn at(&self, at: usize) -> &Pos {
        let i = at.min(self.positions.len() - 1);
        &self.positions[i]
    }

    /// Where the game stands before step `at`: the turn (from 1), whose it is and what they
    /// decide; `None` when the game is over.
    fn to_do(&self, at: usize) -> Option<(u32, String, String)> {
        let pos = self.at(at);
        let game = &pos.game;
        if game.is_over() {
            return None;
        }
        let colour = game.players()[usize::from(game.active())].colour;
        let what = match (pos.pending, game.phase()) {
            (Some(Action::Market { slot, .. }), _) => {
                format!("the tile turned up from the stack into the {} display column", ordinal(slot))
            }
            (_, Phase::Lay) => "step I, lay a tile".to_string(),
            (_, Phase::Move) => "step II, move (the market ends it)".to_string(),
            (_, Phase::End) => "after the market, end the turn".to_string(),
        };
        Some((game.turns_played() + 1, colour.to_string(), what))
    }

    /// Where the game stands before step `at`, in words: whose turn and what they decide, or
    /// the result with the final scores.
    fn situation(&self, at: usize) -> String {
        match self.to_do(at) {
            Some((turn, colour, what)) => format!("{colour} to play: turn {turn}, {what}"),
            None => {
                let game = &self.at(at).game;
                let colours: Vec<String> = game.players().iter().map(|p| p.colour.to_string()).collect();
                let best: Vec<String> = winners(game).iter().map(|&w| colours[w].clone()).collect();
                let scores: Vec<String> =
                    colours.iter().zip(final_scores(game)).map(|(c, s)| format!("{c} {}", s.total())).collect();
                format!(
                    "Game over after {} turns: {}; winner {}",
                    game.turns_played(),
                    scores.join(", "),
                    best.join(" and ")
                )
            }
        }
    }

    /// The record of the game: the finished turns, and the turn in progress as `unfinished`
    /// (a market still waiting for its tile is left out, as `play` saves it).
    fn to_record(&self) -> Record {
        let mut record = self.setup.clone();
        for (actions, drawn, seat) in &self.turns {
            record.turns.push(actions.clone());
            record.drawn.push(*drawn);
            record.seats.push(Some(*seat));
        }
        while record.drawn.last().is_some_and(Option::is_none) {
            record.drawn.pop();
        }
        let last = self.at(self.entries.len());
        if !last.done.is_empty() || last.drawn.is_some() {
            record.unfinished = Some((last.done.clone(), last.drawn));
        }
        record
    }

    /// The record of the finished turns only, as `analyse` reads it.
    fn finished_record(&self) -> Record {
        let mut record = self.to_record();
        record.unfinished = None;
        record
    }
}

/// The group a choice is listed in: what the action does, as a player says it.
fn group_of(action: &Action) -> String {
    match action {
        Action::Convert { .. } => "convert cubes".to_string(),
        Action::Sell { .. } => "sell stock".to_string(),
        Action::Lay(lay) => format!("lay tile {}", lay.tile),
        Action::NoLay => "lay a tile".to_string(),
        Action::BuildLocomotive { .. } => "build the second locomotive".to_string(),
        Action::Coal => "spend coal to move further".to_string(),
        Action::Move { locomotive, .. } => format!("move the {} locomotive", ordinal(*locomotive)),
        Action::Pickup | Action::Deliver { .. } | Action::Passenger => "on the tile just entered".to_string(),
        Action::Market { .. } | Action::NoMarket => "the market".to_string(),
        Action::End { .. } => "end the turn".to_string(),
    }
}

impl Open for CubeGame {
    fn kind(&self) -> Kind {
        Kind::CubeExpress
    }

    fn walk(&self) -> &Walk {
        &self.walk
    }

    fn board(&self, at: usize) -> String {
        let at = at.min(self.entries.len());
        let pos = self.at(at);
        let title = match self.to_do(at) {
            Some((turn, colour, what)) => format!("Turn {turn} · {colour} to play: {what}"),
            None => self.situation(at),
        };
        plan_svg(&pos.start, &pos.done, &title)
    }

    fn choices(&self, at: usize) -> Vec<Choice> {
        let pos = self.at(at);
        let game = &pos.game;
        if game.is_over() {
            return Vec::new();
        }
        if pos.pending.is_some() {
            return game
                .stack()
                .iter()
                .map(|t| Choice { group: "the tile turned up".to_string(), text: format!("tile {t}"), chance: true })
                .collect();
        }
        let actions = game.legal_actions();
        let others = actions.iter().filter(|a| !matches!(a, Action::Lay(_))).count();
        let mut lays_left = MAX_CHOICES.saturating_sub(others);
        let mut out = Vec::new();
        for a in &actions {
            if matches!(a, Action::Lay(_)) {
                if lays_left == 0 {
                    continue;
                }
                lays_left -= 1;
            }
            out.push(Choice { group: group_of(a), text: game.describe(a), chance: false });
        }
        out
    }

    fn play(&self, at: usize, text: &str) -> Result<Box<dyn Open>, String> {
        let at = at.min(self.entries.len());
        let pos = self.at(at);
        let entry = if pos.pending.is_some() {
            Entry::Drawn(tile_number(text)?)
        } else {
            // As the table reads a typed step: a listed action's words exactly, or any action in
            // words (`cube-express play`).
            let wanted = text.trim().to_lowercase();
            let game = &pos.game;
            match game.legal_actions().into_iter().find(|a| game.describe(a).to_lowercase() == wanted) {
                Some(a) => Entry::Act(a),
                None => Entry::Act(parse_action(text)?),
            }
        };
        let mut entries = self.entries[..at].to_vec();
        entries.push(entry);
        Ok(Box::new(CubeGame::build(&self.label, self.setup.clone(), entries)?))
    }

    fn record(&self) -> String {
        match serde_json::to_string_pretty(&self.to_record()) {
            Ok(text) => text + "\n",
            Err(e) => unreachable!("a record is JSON: {e}"),
        }
    }

    fn review(&self, progress: &(dyn Fn(usize, usize) + Sync)) -> Result<(Reviewed, Vec<String>), String> {
        let content = content();
        let label = self.label.as_str();
        let record = self.finished_record();
        // As `cube-express analyse`: a game from the table is cut to what the table saw.
        let record = match record.table {
            Some(_) => record.seen(content.clone(), label).map_err(|e| e.to_string())?,
            None => record,
        };
        let options = PlanOptions { time_limit: None, threads: None, ..PlanOptions::default() };
        let total = record.turns.len();
        progress(0, total);
        let mut analysis = match analyse(content, &record, label, &options, &|done| progress(done, total)) {
            Ok(a) => a,
            Err(AnalysisError::Record(e)) => return Err(e.to_string()),
            Err(e) => return Err(e.to_string()),
        };
        analysis.review.title = self.walk.title.clone();
        analysis.review.facts.push(crate::cube_express::analyse::UNSEEN.to_string());
        let boards = signalbox_render::cube_express::review::decision_boards(&analysis);
        let mut at = Vec::with_capacity(analysis.review.decisions.len());
        let mut best = Vec::with_capacity(analysis.review.decisions.len());
        for d in &analysis.review.decisions {
            let (before, after) = d
                .turn
                .checked_sub(1)
                .and_then(|t| self.spans.get(t).copied())
                .unwrap_or((self.entries.len(), self.entries.len()));
            at.push(DecisionAt { before, after });
            best.push(boards.iter().find(|b| b.decision == d.index).map(|b| b.best.svg.clone()).unwrap_or_default());
        }
        Ok((Reviewed { review: analysis.review, at }, best))
    }

    fn advise(&self, at: usize) -> Option<AdviseCall> {
        let at = at.min(self.entries.len());
        let pos = self.at(at);
        if pos.game.is_over() || !pos.done.is_empty() || pos.pending.is_some() || pos.drawn.is_some() {
            return None;
        }
        let turn = pos.game.turns_played() as usize + 1;
        Some(AdviseCall { file: self.record(), args: vec!["--turn".to_string(), turn.to_string()] })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sample, with the step index of each turn's start.
    fn sample_game() -> Box<dyn Open> {
        sample()
    }

    /// The first `turns` turns of the sample as a record.
    fn sample_turns(turns: usize) -> String {
        let mut record = read_game_record("sample", SAMPLE_GAME_JSON).expect("the sample reads");
        record.turns.truncate(turns);
        serde_json::to_string_pretty(&record).expect("a record is JSON")
    }

    /// The sample as a game from the table (its stack order dropped): every tile turned up is a
    /// chance step.
    fn table_game() -> Box<dyn Open> {
        let record = read_game_record("sample", SAMPLE_GAME_JSON).expect("the sample reads");
        let seen = record.seen(content(), "sample").expect("the sample replays");
        let text = serde_json::to_string_pretty(&seen).expect("a record is JSON");
        open("the table game", &text).expect("the table record opens")
    }

    #[test]
    fn the_sample_walks_and_every_board_is_svg() {
        let game = sample_game();
        let walk = game.walk();
        assert_eq!(walk.game, "cube-express");
        assert_eq!(walk.players, ["red", "blue", "yellow"]);
        assert!(walk.steps.len() > 100, "{} steps", walk.steps.len());
        assert!(walk.steps.iter().all(|s| !s.chance), "a dealt game has no chance step");
        assert_eq!(walk.steps[0].turn, 1);
        assert!(walk.next.starts_with("Game over after 26 turns"), "{}", walk.next);
        for at in 0..=walk.steps.len() + 3 {
            let svg = game.board(at);
            assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "board {at}");
        }
        assert!(game.board(0).contains("Turn 1 · "));
        assert!(game.choices(walk.steps.len()).is_empty(), "the game is over");
    }

    #[test]
    fn the_record_reads_back_as_the_same_walk() {
        let game = sample_game();
        let again = open("again", &game.record()).expect("the record reads back");
        assert_eq!(again.walk().steps, game.walk().steps);
        assert_eq!(again.walk().next, game.walk().next);
        let table = table_game();
        let again = open("again", &table.record()).expect("the table record reads back");
        assert_eq!(again.walk().steps, table.walk().steps);
    }

    /// Every choice at `at` plays, and the fork ends with it in the same words.
    fn every_choice_plays(game: &dyn Open, at: usize) -> usize {
        let choices = game.choices(at);
        assert!(!choices.is_empty(), "choices at {at}");
        let mut texts: Vec<&str> = choices.iter().map(|c| c.text.as_str()).collect();
        texts.sort_unstable();
        texts.dedup();
        assert_eq!(texts.len(), choices.len(), "the choices at {at} are told apart by their words");
        for c in &choices {
            let fork = game.play(at, &c.text).unwrap_or_else(|e| panic!("{at}: {}: {e}", c.text));
            let steps = &fork.walk().steps;
            assert_eq!(steps.len(), at + 1);
            assert_eq!(steps[at].text, c.text);
            assert_eq!(steps[at].chance, c.chance);
        }
        choices.len()
    }

    #[test]
    fn every_choice_is_accepted_by_play() {
        let game = sample_game();
        let steps = &game.walk().steps;
        // The start (every lay), the moves after it, the end of the first turn, a lay mid-game.
        let first_end = steps.iter().position(|s| s.text.starts_with("end the turn")).expect("an end");
        let mid = steps.iter().position(|s| s.turn == 12).expect("turn 12");
        for at in [0, 1, 2, first_end, mid, mid + 1] {
            every_choice_plays(game.as_ref(), at);
        }
        assert!(game.choices(0).iter().any(|c| c.group.starts_with("lay tile")));
        // The played step is among the choices.
        for at in [0, 1, mid] {
            assert!(game.choices(at).iter().any(|c| c.text == steps[at].text), "{at}");
        }
    }

    #[test]
    fn a_tile_turned_up_at_the_table_is_a_chance_step() {
        let game = table_game();
        let steps = &game.walk().steps;
        let at = steps.iter().position(|s| s.chance).expect("a tile turned up");
        assert!(steps[at].text.starts_with("tile "));
        assert!(steps[at - 1].text.starts_with("take tile"), "{}", steps[at - 1].text);
        let choices = game.choices(at);
        assert!(choices.iter().all(|c| c.chance && c.group == "the tile turned up"));
        assert!(choices.iter().any(|c| c.text == steps[at].text));
        let n = every_choice_plays(game.as_ref(), at);
        assert!(n > 1);
        // Not a tile now: refused in words; the market first needs its tile.
        let e = game.play(at, "end the turn").err().expect("refused");
        assert!(e.contains("not a tile"), "{e}");
        let other = choices.iter().find(|c| c.text != steps[at].text).expect("another tile");
        let fork = game.play(at, &other.text).expect("another tile");
        let e = fork.play(at, "tile 200").err().expect("no such tile");
        assert!(e.contains("no tile has that number"), "{e}");
        // A fork that stops at the market waits for its tile.
        let fork = game.play(at - 1, &steps[at - 1].text).expect("the market again");
        assert!(fork.walk().next.contains("the tile turned up"), "{}", fork.walk().next);
        assert!(fork.advise(at).is_none());
    }

    #[test]
    fn illegal_steps_are_refused_in_words() {
        let game = sample_game();
        let e = game.play(0, "fly to the moon").err().expect("refused");
        assert!(e.contains("in words") && e.contains("expected"), "{e}");
        let e = game.play(0, "the first locomotive moves to [0, 0]").err().expect("refused");
        assert!(e.contains("lay a tile first"), "{e}");
        let e = game.play(0, "lay tile 99 front up on [5, 5], not turned").err().expect("refused");
        assert!(e.contains("not in the hand"), "{e}");
        let e = game.play(0, "take the tile in the ninth display column").err().expect("refused");
        assert!(e.contains("display column"), "{e}");
        let e = game.play(0, "tile 3").err().expect("refused");
        assert!(e.contains("in words"), "{e}");
        for junk in
            ["", "   ", "lay tile", "lay tile 300 at [1, 1]", "sell 999 spaces", "end the turn, discarding 9 coal"]
        {
            assert!(game.play(0, junk).is_err(), "{junk}");
        }
        let end = game.walk().steps.len();
        let e = game.play(end, "end the turn").err().expect("the game is over");
        assert!(e.contains("the game is over"), "{e}");
    }

    #[test]
    fn a_fork_reads_back_and_the_cli_reader_accepts_it() {
        let game = sample_game();
        let at = 3;
        let choice = game.choices(at).into_iter().find(|c| c.text != game.walk().steps[at].text).expect("choice");
        let fork = game.play(at, &choice.text).expect("plays");
        let record = fork.record();
        assert!(record.contains("\"unfinished\""), "a turn in progress is saved as unfinished");
        let again = open("fork", &record).expect("reads back");
        assert_eq!(again.walk().steps, fork.walk().steps);
        // A whole turn forked: the record holds it as a finished turn.
        let mut whole = fork;
        while whole.walk().steps.last().is_some_and(|s| s.turn == 1) {
            let at = whole.walk().steps.len();
            let c = whole.choices(at).into_iter().last().expect("a choice");
            whole = whole.play(at, &c.text).expect("plays");
        }
        let record = read_game_record("fork", &whole.record()).expect("the CLI reads it");
        assert_eq!(record.turns.len(), 1);
        record.replay(content(), "fork").expect("the CLI replays it");
    }

    #[test]
    fn advice_is_asked_at_a_turn_start() {
        let game = sample_game();
        let call = game.advise(0).expect("at the start");
        assert_eq!(call.args, ["--turn", "1"]);
        assert_eq!(call.file, game.record());
        assert!(game.advise(1).is_none(), "mid-turn");
        let second = game.walk().steps.iter().position(|s| s.turn == 2).expect("turn 2");
        assert_eq!(game.advise(second).expect("turn 2").args, ["--turn", "2"]);
        assert!(game.advise(game.walk().steps.len()).is_none(), "the game is over");
        let new = new_game(7).expect("a new game");
        assert!(new.walk().steps.is_empty());
        assert_eq!(new.advise(0).expect("the start").args, ["--turn", "1"]);
    }

    #[test]
    fn a_bad_upload_gets_the_cli_message() {
        for text in
            ["{\"game\":\"cube-express\"}", "garbage", "{\"players\": 3, \"seed\": 1, \"turns\": [[\"pick up\"]]}", ""]
        {
            let e = open("up.json", text).err().expect("refused");
            let cli = match read_game_record("up.json", text) {
                Err(e) => e.to_string(),
                Ok(r) => r.replay(content(), "up.json").expect_err("refused by the CLI").to_string(),
            };
            assert_eq!(e, cli);
            assert!(e.starts_with("up.json"), "{e}");
        }
    }

    #[test]
    fn a_new_game_has_no_step() {
        let game = new_game(7).expect("a new game");
        assert!(game.walk().steps.is_empty());
        assert!(game.walk().next.contains("to play: turn 1, step I, lay a tile"), "{}", game.walk().next);
        assert!(game.walk().title.contains("seed 7"));
        assert!(game.board(0).starts_with("<svg"));
        assert!(!game.choices(0).is_empty());
        let record = game.record();
        assert_eq!(read_game_record("new", &record).expect("reads").seed, Some(7));
    }

    #[test]
    fn the_review_is_placed_on_the_steps() {
        let game = open("short", &sample_turns(2)).expect("opens");
        let told = std::sync::Mutex::new(Vec::new());
        let (reviewed, best) =
            game.review(&|done, total| told.lock().expect("not poisoned").push((done, total))).expect("reviewed");
        assert_eq!(reviewed.review.decisions.len(), 2);
        assert_eq!(best.len(), 2);
        assert!(best.iter().all(|b| b.starts_with("<svg")));
        let second = game.walk().steps.iter().position(|s| s.turn == 2).expect("turn 2");
        let end = game.walk().steps.len();
        assert_eq!(reviewed.at, [DecisionAt { before: 0, after: second }, DecisionAt { before: second, after: end }]);
        assert!(told.lock().expect("not poisoned").contains(&(2, 2)));
    }
}
