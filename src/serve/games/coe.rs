//! The Cubes of Europe on the analysis board: a game record (docs/formats/coe-records.md)
//! replayed by the rules engine, one step per entry of the record's `moves` (the start space,
//! each die's use, each red chain, white gain, overflow return and pass), as `coe play` enters
//! them one at a time.
//!
//! Chance steps. A record whose instance holds the whole future (a seed's deal, as `coe new
//! --seed N` and `coe play --seed N` write it, or every card and roll written out) has none: the
//! cards and rolls are dealt by the instance as the moves reach them, exactly as `coe play
//! --seed` plays them, and each board shows the roll and the market. A game from the table (an
//! instance holding only what the table saw, `coe play --table`) has a chance step for each card
//! turned up and each roll rolled, in the order the table session asks for them, typed as it
//! types them (the card's name, `roll 3 5`): there the choices at a chance step are the cards
//! that can come up or the 21 rolls, and a fork there tries another card or roll. A fork keeps
//! what the record held: a dealt game keeps its seed's future (so its review still knows it),
//! a table game keeps the cards and rolls of the steps before the fork.

use std::str::FromStr as _;
use std::sync::LazyLock;

use signalbox_engine::coe::game::Pending;
use signalbox_engine::coe::{Catalogue, Chance, Colour, Game, Instance, Move, Record, Rules, dice_words, rank_of};
use signalbox_render::coe::picture::position_svg;
use signalbox_render::coe::review::decision_boards;
use signalbox_render::walk::{Choice, DecisionAt, Reviewed, Step, Walk};
use signalbox_solver::coe::analysis::{AnalyseOptions, analyse};
use signalbox_solver::coe::search::SolveOptions;

use super::{AdviseCall, Kind, Open};
use crate::coe::analyse::{SAMPLE, read_record};
use crate::coe::table::CoeTable;
use crate::table::TableGame as _;

/// The house set, as every `coe` command loads it without `--content`.
static HOUSE: LazyLock<Catalogue> = LazyLock::new(Catalogue::house);

/// The one player's name (the review's `players`).
const PLAYER: &str = "player";

/// The sample game's name, as `coe analyse` names it in its review and messages.
const SAMPLE_LABEL: &str = "the sample game";

/// Playouts per fair-play value: `coe analyse`'s default `--fair-samples`.
const FAIR_SAMPLES: usize = 32;

/// One step of the walk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Entry {
    /// An entry of the record's `moves`.
    Move(Move),
    /// A card turned up at the table.
    Card {
        /// Which card of which deck it was.
        chance: Chance,
        /// The card's id.
        id: u8,
    },
    /// A roll rolled at the table.
    Roll([u8; 2]),
}

/// An open Cubes of Europe game.
struct Coe {
    /// The record's name in messages (the review's title and its errors).
    label: String,
    /// The whole record (its claims kept while it is not forked).
    record: Record,
    /// Whether the cards and rolls are steps: a table record whose chance events replay one by
    /// one as the table session enters them.
    stepped: bool,
    /// The steps, in order.
    entries: Vec<Entry>,
    walk: Walk,
}

/// The bundled sample game: the record `coe analyse` reviews when given no file.
pub fn sample() -> Box<dyn Open> {
    Box::new(Coe::opened(SAMPLE_LABEL, SAMPLE).expect("the embedded sample game replays"))
}

/// Reads a record the user gave, named `label` in messages, with the reader of `coe analyse`
/// (which tells a record of another game apart) and the replay of `coe replay`: a bad file gets
/// their message.
pub fn open(label: &str, text: &str) -> Result<Box<dyn Open>, String> {
    Ok(Box::new(Coe::opened(label, text)?))
}

/// A new game as `coe new --seed N` deals it: the seed's board card, cards and rolls, the
/// default rules, no move played.
pub fn new_game(seed: u64) -> Result<Box<dyn Open>, String> {
    let record = Record::new(Instance::from_seed(seed), Rules::default(), Vec::new());
    Ok(Box::new(Coe::new(format!("seed {seed}"), format!("seed {seed}"), record)?))
}

/// A card by its id and name: `7 Rhine`.
fn card_words(id: u8) -> String {
    HOUSE.card(id).map_or_else(|| id.to_string(), |c| format!("{id} {}", c.name))
}

/// A card as the table session takes it when it comes up: its name.
fn card_text(id: u8) -> String {
    HOUSE.card(id).map_or_else(|| id.to_string(), |c| c.name.clone())
}

/// A roll as the table session takes it.
fn roll_text(roll: [u8; 2]) -> String {
    format!("roll {} {}", roll[0], roll[1])
}

/// The words of a step.
fn entry_text(entry: &Entry) -> String {
    match entry {
        Entry::Move(mv) => mv.to_string(),
        Entry::Card { id, .. } => card_text(*id),
        Entry::Roll(roll) => roll_text(*roll),
    }
}

/// The turn a position is in, from 1 (the start space is in turn 1).
fn turn_of(game: &Game<'_>) -> usize {
    game.turn() + 1
}

/// The chance event a table game waits for, if the steps are chance steps.
fn waiting(game: &Game<'_>, stepped: bool) -> Option<Chance> {
    if stepped { game.unseen() } else { None }
}

/// Where the walk ends, in words.
fn next_words(game: &Game<'_>, stepped: bool) -> String {
    if game.is_over() {
        let total = game.score().total();
        return format!("game over after {} turns: score {total} ({})", game.turn(), rank_of(total));
    }
    if let Some(chance) = waiting(game, stepped) {
        return match chance {
            Chance::Roll { turn } => format!("turn {}: roll both dice and enter the roll", turn + 1),
            _ => format!("turn {}: enter {chance}", turn_of(game)),
        };
    }
    if !game.is_started() {
        return format!("{PLAYER} to play: choose the start space (a yellow hex)");
    }
    match game.pending() {
        Some(pending) => format!("{PLAYER} to play, turn {}: {pending}", turn_of(game)),
        None => format!("{PLAYER} to play, turn {} ({}): use a die", turn_of(game), dice_words(game.dice())),
    }
}

/// The group a legal move is listed in, in the words a player uses.
fn group_of(game: &Game<'_>, mv: Move) -> String {
    let die = |d: u8| signalbox_engine::coe::die_name(d);
    match mv {
        Move::Start { .. } => "the start space".into(),
        Move::Place { die: d, .. } => format!("{}: place a cube", die(d)),
        Move::Gain { die: d, .. } => format!("{}: gain a cube", die(d)),
        Move::Worker { .. } => "gain a worker".into(),
        Move::Chain { .. } => "red: another cube".into(),
        Move::Take { .. } => "white: gain a cube".into(),
        Move::Return { .. } => "return a cube (the inventory is over full)".into(),
        Move::Pass => match game.pending() {
            Some(Pending::Red) => "red: another cube".into(),
            Some(Pending::White) => "white: gain a cube".into(),
            _ => "pass".into(),
        },
    }
}

impl Coe {
    /// Reads and replays a record as `coe analyse` and `coe replay` do.
    fn opened(label: &str, text: &str) -> Result<Coe, String> {
        let record = read_record(label, text).map_err(|e| e.to_string())?;
        record.replay(&HOUSE, label).map_err(|e| e.to_string())?;
        let title = match (label, record.instance.seed) {
            (SAMPLE_LABEL, Some(seed)) => format!("The sample game (seed {seed})"),
            (_, Some(seed)) if record.instance.is_dealt() => format!("{label} (seed {seed})"),
            _ => label.to_owned(),
        };
        Coe::new(label.to_owned(), title, record)
    }

    /// The open game of a record that replays.
    fn new(label: String, title: String, record: Record) -> Result<Coe, String> {
        record.replay(&HOUSE, &label).map_err(|e| e.to_string())?;
        let (stepped, entries) = match record.instance.is_table().then(|| table_entries(&record, &label)) {
            Some(Ok(entries)) => (true, entries),
            // A table record whose cards do not come up one by one as the table session asks
            // for them (written by hand): its moves are its steps.
            Some(Err(_)) | None => (false, record.moves.iter().map(|&mv| Entry::Move(mv)).collect()),
        };
        let mut coe = Coe {
            label,
            record,
            stepped,
            entries,
            walk: Walk {
                game: Kind::Coe.command().into(),
                title,
                players: vec![PLAYER.into()],
                steps: vec![],
                next: String::new(),
            },
        };
        let mut steps = Vec::with_capacity(coe.entries.len());
        for (i, entry) in coe.entries.iter().enumerate() {
            let position = coe.record_at(i);
            let (game, _) = position.replay(&HOUSE, &coe.label).map_err(|e| e.to_string())?;
            let turn = match entry {
                Entry::Move(_) | Entry::Card { .. } => turn_of(&game),
                Entry::Roll(_) => match game.unseen() {
                    Some(Chance::Roll { turn }) => turn + 1,
                    _ => turn_of(&game),
                },
            };
            let chance = !matches!(entry, Entry::Move(_));
            steps.push(Step { turn, player: PLAYER.into(), text: entry_text(entry), chance });
        }
        let end = coe.record_at(coe.entries.len());
        let (game, _) = end.replay(&HOUSE, &coe.label).map_err(|e| e.to_string())?;
        coe.walk.next = next_words(&game, coe.stepped);
        coe.walk.steps = steps;
        Ok(coe)
    }

    /// The record of the position before step `at` (clamped to the end): the moves of the steps
    /// before it, and for a table game the cards and rolls of those steps; no claims.
    fn record_at(&self, at: usize) -> Record {
        let before = &self.entries[..at.min(self.entries.len())];
        let moves: Vec<Move> =
            before.iter().filter_map(|e| if let Entry::Move(mv) = e { Some(*mv) } else { None }).collect();
        let instance = if self.stepped {
            let (mut deck, mut reshuffle, mut dice) = (Vec::new(), Vec::new(), Vec::new());
            for entry in before {
                match *entry {
                    Entry::Card { chance: Chance::Reshuffle { .. }, id } => reshuffle.push(id),
                    Entry::Card { id, .. } => deck.push(id),
                    Entry::Roll(roll) => dice.push(roll),
                    Entry::Move(_) => {}
                }
            }
            let i = &self.record.instance;
            Instance::table(i.seed, i.board, &deck, &reshuffle, &dice).unwrap_or_else(|_| i.clone())
        } else {
            self.record.instance.clone()
        };
        let mut record = Record::new(instance, Rules::default(), moves);
        record.rules = self.record.rules.clone();
        record
    }

    /// A fork: this game's title and name, another record.
    fn fork(&self, record: Record) -> Result<Coe, String> {
        let title = if self.walk.title.ends_with("(another line)") {
            self.walk.title.clone()
        } else {
            format!("{} (another line)", self.walk.title)
        };
        Coe::new(self.label.clone(), title, record)
    }

    /// The notes under a board's title: the state, the choice open, the market, the effects.
    fn notes(&self, game: &Game<'_>, record: &Record) -> Vec<String> {
        let waiting = waiting(game, self.stepped);
        let held: Vec<String> = Colour::ALL
            .iter()
            .filter(|c| game.inventory()[c.index()] > 0)
            .map(|c| format!("{} {c}", game.inventory()[c.index()]))
            .collect();
        let dice = if matches!(waiting, Some(Chance::Roll { .. })) || !game.is_started() {
            "dice not rolled yet".to_owned()
        } else {
            dice_words(game.dice())
        };
        let mut notes = vec![
            format!("{dice} · workers {} · score so far {}", game.workers(), game.score().total()),
            format!("inventory: {}", if held.is_empty() { "empty".to_owned() } else { held.join(", ") }),
        ];
        if let (Some(pending), None) = (game.pending(), waiting) {
            notes.push(format!("to choose: {pending}"));
        }
        if !game.is_over() {
            // At the table, a card is known once it came up in the pass now in play.
            let seen = record.instance.seen();
            let i = &record.instance;
            let known = |id: u8| {
                !i.is_table()
                    || if game.is_reshuffled() {
                        i.reshuffle[..seen.reshuffle.min(i.reshuffle.len())].contains(&id)
                    } else {
                        i.deck[..seen.deck.min(i.deck.len())].contains(&id)
                    }
            };
            let [deck, discard] = game.market();
            for (id, what) in [(deck, "deck card"), (discard, "discard card")] {
                let Some(id) = id else { continue };
                let words = match HOUSE.card(id) {
                    Some(card) if known(id) => {
                        let squares: Vec<String> =
                            card.market.central.iter().map(|s| format!("{} {}", s.face, s.colour)).collect();
                        format!("{} · {}", card_words(id), squares.join(", "))
                    }
                    _ => "not turned up yet".to_owned(),
                };
                notes.push(format!("{what}: {words}"));
            }
        }
        if !game.tucked().is_empty() {
            let tucked: Vec<String> = game.tucked().iter().map(|&id| card_text(id)).collect();
            for (k, names) in tucked.chunks(4).enumerate() {
                notes.push(format!("{}{}", if k == 0 { "tucked: " } else { "" }, names.join(", ")));
            }
        }
        notes
    }

    /// The board before step `at`, or why it cannot be drawn.
    fn try_board(&self, at: usize) -> Result<String, String> {
        let at = at.min(self.entries.len());
        let record = self.record_at(at);
        let (game, _) = record.replay(&HOUSE, &self.label).map_err(|e| e.to_string())?;
        let title = if game.is_over() {
            let total = game.score().total();
            format!("Game over after {} turns · score {total} ({})", game.turn(), rank_of(total))
        } else if let Some(chance) = waiting(&game, self.stepped) {
            match chance {
                Chance::Roll { turn } => format!("Turn {} · the dice to roll", turn + 1),
                _ => format!("Turn {} · {chance} to turn up", turn_of(&game)),
            }
        } else if !game.is_started() {
            format!("Turn 1 · {PLAYER} to choose the start space")
        } else {
            format!("Turn {} · {PLAYER} to move", turn_of(&game))
        };
        let mark_last = at > 0 && matches!(self.entries.get(at - 1), Some(Entry::Move(_)));
        let notes = self.notes(&game, &record);
        Ok(position_svg(&HOUSE, &record.instance, game.rules(), &record.moves, &title, &notes, mark_last))
    }
}

/// The steps of a table record, cards and rolls among the moves, in the order the table session
/// asks for them ([`Game::unseen`]); an error where the record's cards do not come up so.
fn table_entries(record: &Record, label: &str) -> Result<Vec<Entry>, String> {
    let i = &record.instance;
    let seen = i.seen();
    let held_deck = &i.deck[..seen.deck.min(i.deck.len())];
    let held_reshuffle = &i.reshuffle[..seen.reshuffle.min(i.reshuffle.len())];
    let held_dice = &i.dice[..seen.dice.min(i.dice.len())];
    let (mut deck, mut reshuffle, mut dice) = (Vec::new(), Vec::new(), Vec::new());
    let mut entries = Vec::new();
    let mut moves = Vec::new();
    loop {
        let instance = Instance::table(i.seed, i.board, &deck, &reshuffle, &dice)?;
        let mut position = Record::new(instance, Rules::default(), moves.clone());
        position.rules = record.rules.clone();
        let (game, _) = position.replay(&HOUSE, label).map_err(|e| e.to_string())?;
        match game.unseen() {
            Some(chance) => {
                let entry = match chance {
                    Chance::Deck { index } => held_deck.get(index).map(|&id| Entry::Card { chance, id }),
                    Chance::Reshuffle { index } => held_reshuffle.get(index).map(|&id| Entry::Card { chance, id }),
                    Chance::Roll { turn } => held_dice.get(turn).map(|&roll| Entry::Roll(roll)),
                };
                let Some(entry) = entry else { break };
                match entry {
                    Entry::Card { chance: Chance::Reshuffle { .. }, id } => reshuffle.push(id),
                    Entry::Card { id, .. } => deck.push(id),
                    Entry::Roll(roll) => dice.push(roll),
                    Entry::Move(_) => {}
                }
                entries.push(entry);
            }
            None => {
                let Some(&mv) = record.moves.get(moves.len()) else { break };
                moves.push(mv);
                entries.push(Entry::Move(mv));
            }
        }
    }
    if moves != record.moves {
        return Err(format!("{label}: the moves do not replay with the cards and rolls as they came up"));
    }
    Ok(entries)
}

impl Open for Coe {
    fn kind(&self) -> Kind {
        Kind::Coe
    }

    fn walk(&self) -> &Walk {
        &self.walk
    }

    fn board(&self, at: usize) -> String {
        self.try_board(at).unwrap_or_else(|e| {
            let text = signalbox_render::page::escape(&e);
            format!(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 600 40\" width=\"600\" height=\"40\">\
                 <rect width=\"100%\" height=\"100%\" fill=\"white\"/><text x=\"10\" y=\"24\" font-family=\"sans-serif\" font-size=\"12\">{text}</text></svg>"
            )
        })
    }

    /// The legal moves from the engine, grouped by what they do (the start space, a die's
    /// placement or gain, a worker, red's and white's choices, the overflow's return); at a
    /// table game's chance step, the cards that can come up or the 21 rolls. A position never
    /// has more than a few hundred moves (two dice, six faces, the free shift either way, 19
    /// hexes and six squares), so all are listed.
    fn choices(&self, at: usize) -> Vec<Choice> {
        let record = self.record_at(at);
        let Ok((game, _)) = record.replay(&HOUSE, &self.label) else { return Vec::new() };
        if game.is_over() {
            return Vec::new();
        }
        match waiting(&game, self.stepped) {
            Some(chance @ Chance::Roll { .. }) => {
                let group = chance.to_string();
                (1..=6u8)
                    .flat_map(|a| (a..=6u8).map(move |b| [a, b]))
                    .map(|roll| Choice { group: group.clone(), text: roll_text(roll), chance: true })
                    .collect()
            }
            Some(chance) => {
                // The cards the table session takes there: those it accepts.
                let group = chance.to_string();
                (1..=9u8)
                    .filter(|&id| {
                        CoeTable::resume(&HOUSE, record.clone(), &self.label)
                            .is_ok_and(|mut table| table.enter(&card_text(id)).is_ok())
                    })
                    .map(|id| Choice { group: group.clone(), text: card_text(id), chance: true })
                    .collect()
            }
            None => game
                .legal_moves()
                .into_iter()
                .map(|mv| Choice { group: group_of(&game, mv), text: mv.to_string(), chance: false })
                .collect(),
        }
    }

    fn play(&self, at: usize, text: &str) -> Result<Box<dyn Open>, String> {
        let record = self.record_at(at);
        let next = if self.stepped && record.instance.is_table() {
            // As the table session enters a step: a card, a roll or a move.
            let mut table = CoeTable::resume(&HOUSE, record, &self.label)?;
            table.enter(text)?;
            Record::from_json(&self.label, &table.record_json()).map_err(|e| e.to_string())?
        } else {
            let (game, _) = record.replay(&HOUSE, &self.label).map_err(|e| e.to_string())?;
            if game.is_over() {
                return Err("the game is over".into());
            }
            let mv = Move::from_str(text).map_err(|e| e.to_string())?;
            game.clone().play(mv).map_err(|e| e.to_string())?;
            let mut next = record.clone();
            next.moves.push(mv);
            next
        };
        Ok(Box::new(self.fork(next)?))
    }

    fn record(&self) -> String {
        self.record.to_json_in_words()
    }

    fn review(&self, progress: &(dyn Fn(usize, usize) + Sync)) -> Result<(Reviewed, Vec<String>), String> {
        let record = &self.record;
        let total = record.moves.len();
        let options = AnalyseOptions {
            solve: SolveOptions { time_limit: None, threads: None, ..SolveOptions::default() },
            reuse: true,
            fair_samples: Some(FAIR_SAMPLES),
        };
        let analysed =
            analyse(&HOUSE, record, &self.label, options, &|done| progress(done, total)).map_err(|e| e.to_string())?;
        let rules = record.rules.to_rules(&record.instance)?;
        let boards = decision_boards(&HOUSE, &record.instance, rules, &record.moves, &analysed.review, &analysed.best);
        // Each move's step.
        let move_steps: Vec<usize> =
            self.entries.iter().enumerate().filter(|(_, e)| matches!(e, Entry::Move(_))).map(|(i, _)| i).collect();
        let mut at = Vec::with_capacity(analysed.review.decisions.len());
        let mut best = Vec::with_capacity(analysed.review.decisions.len());
        for d in &analysed.review.decisions {
            let step = d.index.checked_sub(1).and_then(|k| move_steps.get(k)).copied().unwrap_or(self.entries.len());
            at.push(DecisionAt { before: step, after: (step + 1).min(self.entries.len()) });
            best.push(boards.iter().find(|b| b.decision == d.index).map(|b| b.best.svg.clone()).unwrap_or_default());
        }
        Ok((Reviewed { review: analysed.review, at }, best))
    }

    fn advise(&self, at: usize) -> Option<AdviseCall> {
        let record = self.record_at(at);
        let (game, _) = record.replay(&HOUSE, &self.label).ok()?;
        if game.is_over() || waiting(&game, self.stepped).is_some() {
            return None;
        }
        Some(AdviseCall { file: record.to_json_in_words(), args: Vec::new() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_svg(svg: &str) -> bool {
        svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>")
    }

    /// A game of seed 1 shortened to `turns` turns, its first legal move played each time, as a
    /// record's text.
    fn short_game(turns: usize) -> String {
        let instance = Instance::from_seed(1);
        let rules = Rules { max_turns: Some(turns), ..Rules::default() };
        let mut game = Game::new(&HOUSE, &instance, rules);
        let mut moves = Vec::new();
        while !game.is_over() {
            let mv = game.legal_moves()[0];
            game.play(mv).expect("listed");
            moves.push(mv);
        }
        Record::new(instance.clone(), rules, moves).to_json_in_words()
    }

    /// Plays the first choice at the end of the walk until the game is over.
    fn play_out(mut game: Box<dyn Open>) -> Box<dyn Open> {
        for _ in 0..200 {
            let at = game.walk().steps.len();
            let Some(choice) = game.choices(at).into_iter().next() else { return game };
            game = game.play(at, &choice.text).unwrap_or_else(|e| panic!("{}: {e}", choice.text));
        }
        panic!("the game did not end")
    }

    #[test]
    fn the_sample_walks_its_moves_and_draws_every_board() {
        let sample = sample();
        let walk = sample.walk();
        let record = Record::from_json("s", SAMPLE).expect("the sample reads");
        assert_eq!(walk.steps.len(), record.moves.len());
        assert_eq!(walk.players, vec![PLAYER.to_owned()]);
        assert!(walk.steps.iter().all(|s| !s.chance && s.player == PLAYER && s.turn >= 1));
        assert_eq!(
            walk.steps[0],
            Step { turn: 1, player: PLAYER.into(), text: "start on hex 9".into(), chance: false }
        );
        assert_eq!(walk.steps.last().map(|s| s.turn), Some(12));
        assert!(walk.next.starts_with("game over after 12 turns: score 29 (Journeyman)"), "{}", walk.next);
        for at in 0..=walk.steps.len() + 2 {
            let svg = sample.board(at);
            assert!(is_svg(&svg), "board {at}");
            assert!(svg.contains("Turn ") || svg.contains("Game over"), "board {at} is titled");
        }
        assert!(sample.board(1).contains("player to move"));
        assert!(sample.choices(walk.steps.len()).is_empty(), "the game is over");
    }

    #[test]
    fn a_record_written_reads_back_as_the_same_walk() {
        let sample = sample();
        let again = open("again.json", &sample.record()).expect("reads back");
        assert_eq!(again.walk().steps, sample.walk().steps);
        assert_eq!(again.walk().next, sample.walk().next);
        assert_eq!(again.record(), sample.record());
    }

    #[test]
    fn every_choice_plays_and_forks_one_step_on() {
        let sample = sample();
        for at in [0, 1, 2, 3, 14, 18, 19, 32] {
            let choices = sample.choices(at);
            assert!(!choices.is_empty(), "choices at {at}");
            assert!(
                choices.iter().any(|c| c.text == sample.walk().steps[at].text),
                "the move played is a choice at {at}"
            );
            for choice in choices {
                assert!(!choice.chance && !choice.group.is_empty());
                let forked = sample.play(at, &choice.text).unwrap_or_else(|e| panic!("{at}: {}: {e}", choice.text));
                let steps = &forked.walk().steps;
                assert_eq!(steps.len(), at + 1, "{at}: {}", choice.text);
                assert_eq!(steps[at].text, choice.text);
                assert_eq!(steps[..at], sample.walk().steps[..at]);
            }
        }
        let groups: Vec<String> = sample.choices(1).into_iter().map(|c| c.group).collect();
        assert!(
            groups.contains(&"first die: place a cube".to_owned())
                || groups.contains(&"first die: gain a cube".to_owned())
        );
        assert!(groups.contains(&"gain a worker".to_owned()));
        assert_eq!(sample.choices(0)[0].group, "the start space");
    }

    #[test]
    fn steps_that_break_a_rule_or_are_no_move_are_refused_in_words() {
        let sample = sample();
        let err = |at: usize, text: &str| sample.play(at, text).err().unwrap_or_else(|| panic!("{text} accepted"));
        let e = err(1, "move the train");
        assert!(e.contains("is not a move") && e.contains("start on hex"), "{e}");
        // The second die shows 4: turned to 5 it costs a worker; gaining red on the square that
        // gives white breaks the square's colour.
        let e = err(1, "second die as 5: gain red (deck card, square 3)");
        assert!(e.contains("is not legal now: square 3 of the deck card gives white, not red"), "{e}");
        let e = err(1, "first die as 2: place on hex 9");
        assert!(e.contains("is not legal now") && e.contains("hex 9"), "{e}");
        let e = err(1, "first die as 2: gain red (deck card, square 7)");
        assert!(e.contains("1 to 3"), "{e}");
        let e = err(3, "first die: gain a worker");
        assert!(e.contains("an effect's choice comes first: white's gain"), "{e}");
        let e = err(0, "second die: gain a worker");
        assert!(e.contains("the game starts by choosing a yellow start space"), "{e}");
        assert_eq!(err(33, "pass"), "the game is over");
        for text in
            ["", "   ", "die 255 as 255: place on hex 255", "first die as 9: gain red (card 200, square 0)", "\u{0}"]
        {
            let _ = sample.play(5, text);
        }
    }

    #[test]
    fn a_fork_is_a_record_that_reads_back() {
        let sample = sample();
        let choice = sample.choices(5).into_iter().last().expect("choices");
        let forked = sample.play(5, &choice.text).expect("a choice");
        let text = forked.record();
        assert!(Record::from_json("f", &text).is_ok());
        let again = open("forked.json", &text).expect("reads back");
        assert_eq!(again.walk().steps, forked.walk().steps);
        assert!(forked.walk().title.ends_with("(another line)"));
        let twice = forked.play(6, &forked.choices(6)[0].text).expect("a choice");
        assert_eq!(twice.walk().steps.len(), 7);
        assert!(twice.walk().title.ends_with("seed 1) (another line)"), "{}", twice.walk().title);
    }

    #[test]
    fn advice_is_asked_with_the_record_up_to_the_step() {
        let sample = sample();
        let call = sample.advise(1).expect("a turn's start");
        assert!(call.args.is_empty());
        let record = Record::from_json("a", &call.file).expect("a record");
        assert_eq!(record.moves.len(), 1);
        assert_eq!(record.instance, Instance::from_seed(1));
        assert!(sample.advise(2).is_some(), "within a turn too");
        assert!(sample.advise(33).is_none(), "the game is over");
        assert!(sample.advise(0).is_some(), "the start space");
    }

    #[test]
    fn a_bad_upload_gets_the_message_of_the_cli() {
        for text in [r#"{"game":"coe"}"#, "garbage", "", r#"{"instance": {"board": 5}, "moves": ["fly"]}"#] {
            let cli = read_record("up.json", text).err().map(|e| e.to_string());
            let ours = open("up.json", text).err();
            assert!(ours.is_some(), "{text}");
            assert_eq!(ours, cli, "{text}");
        }
        let e = open("up.json", r#"{"game":"coe"}"#).err().unwrap_or_default();
        assert!(e.contains("not a Cubes of Europe game record"), "{e}");
        // A move that breaks a rule: `coe replay`'s message.
        let bad = r#"{"instance": {"seed":1,"board":5,"deck":[2,8,1,7,9,4,3,6],"reshuffle":[8,2,5,4,6,3,9,7,1],"dice":[[2,4],[3,2],[5,2],[6,5],[3,3],[5,1],[1,6],[2,5],[1,3],[6,4],[6,1],[6,2],[3,3],[3,2]]}, "moves": ["start on hex 9", "pass"]}"#;
        let record = read_record("bad.json", bad).expect("reads");
        let cli = record.replay(&HOUSE, "bad.json").err().map(|e| e.to_string());
        assert_eq!(open("bad.json", bad).err(), cli);
        assert!(cli.is_some_and(|e| {
            e.contains("field `moves[1]` (turn 1): pass is not legal now: no effect's choice is open")
        }));
    }

    #[test]
    fn a_new_game_has_no_step_and_its_seed_deals_the_dice() {
        let game = new_game(7).expect("a new game");
        assert!(game.walk().steps.is_empty());
        assert!(game.walk().next.contains("choose the start space"), "{}", game.walk().next);
        let start = game.choices(0)[0].text.clone();
        let started = game.play(0, &start).expect("a start");
        let dice = Instance::from_seed(7).dice[0];
        assert!(
            started.walk().next.contains(&format!("first die {}, second die {}", dice[0], dice[1])),
            "{}",
            started.walk().next
        );
        assert!(started.board(1).contains(&format!("first die {}, second die {}", dice[0], dice[1])));
        let written = Record::from_json("n", &started.record()).expect("a record");
        assert_eq!(written.instance, Instance::from_seed(7));
    }

    /// A game at the table: the cards and rolls are chance steps, entered as the table session
    /// enters them; a fork tries another roll.
    #[test]
    fn at_the_table_the_cards_and_rolls_are_chance_steps() {
        let table = open("table.json", r#"{"instance": {"board": 5}, "rules": {"max_workers": 6}, "moves": []}"#)
            .expect("a table record");
        assert!(table.walk().steps.is_empty());
        assert!(table.walk().next.contains("the card that starts the market"), "{}", table.walk().next);
        let cards = table.choices(0);
        assert_eq!(cards.len(), 8, "every card but the board");
        assert!(cards.iter().all(|c| c.chance && c.text != "Danube"));
        let e = table.play(0, "Danube").err().unwrap_or_default();
        assert!(e.contains("board card"), "{e}");
        assert!(table.advise(0).is_none());
        let game = table.play(0, "Baltic").expect("a card");
        assert_eq!(table.choices(0).len(), 8);
        let game = game.play(1, "Rhine").expect("a card");
        let game = game.play(2, "start on hex 9").expect("the start");
        let rolls = game.choices(3);
        assert_eq!(rolls.len(), 21);
        assert!(rolls.iter().all(|c| c.chance));
        assert!(game.play(3, "first die: gain a worker").is_err(), "the roll comes first");
        let game = game.play(3, "roll 2 4").expect("a roll");
        let steps = &game.walk().steps;
        assert_eq!(
            steps.iter().map(|s| (s.text.as_str(), s.chance)).collect::<Vec<_>>(),
            [("Baltic", true), ("Rhine", true), ("start on hex 9", false), ("roll 2 4", true)]
        );
        assert!(game.walk().next.contains("first die 2, second die 4"), "{}", game.walk().next);
        assert!(game.advise(4).is_some());
        let again = open("again.json", &game.record()).expect("reads back");
        assert_eq!(again.walk().steps, game.walk().steps);
        let other = game.play(3, "roll 6 6").expect("another roll");
        assert_eq!(other.walk().steps.len(), 4);
        assert_eq!(other.walk().steps[3].text, "roll 6 6");
        for at in 0..=4 {
            assert!(is_svg(&game.board(at)));
        }
        assert!(game.board(3).contains("dice not rolled yet"));
    }

    /// `coe analyse`'s default playouts per fair-play value.
    #[test]
    fn the_review_takes_the_defaults_of_analyse() {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            analyse: crate::coe::analyse::AnalyseArgs,
        }
        let cli = <Cli as clap::Parser>::parse_from(["analyse"]);
        assert_eq!(cli.analyse.fair_samples as usize, FAIR_SAMPLES);
        assert!(!cli.analyse.no_fair_play);
    }

    /// A short dealt game reviewed: each decision on its move's step, and the board after the
    /// best move of each, the turning points' as `analyse --html` draws them.
    #[test]
    fn a_short_game_is_reviewed_decision_by_decision() {
        let game = open("short.json", &short_game(2)).expect("a short game");
        let calls = std::sync::Mutex::new(Vec::new());
        let (reviewed, best) = game
            .review(&|done, total| calls.lock().unwrap_or_else(|e| e.into_inner()).push((done, total)))
            .expect("a review");
        let n = game.walk().steps.len();
        assert_eq!(reviewed.review.decisions.len(), n);
        assert_eq!(best.len(), n);
        assert!(best.iter().all(|b| is_svg(b)));
        for (i, (d, at)) in reviewed.review.decisions.iter().zip(&reviewed.at).enumerate() {
            assert_eq!((at.before, at.after), (i, i + 1));
            assert_eq!(game.walk().steps[at.before].text, d.played.text);
        }
        assert!(!calls.lock().unwrap_or_else(|e| e.into_inner()).is_empty(), "progress told");
        // The turning points' boards are those of every decision, restricted.
        let record = Record::from_json("short.json", &short_game(2)).expect("reads");
        let options = AnalyseOptions { fair_samples: Some(FAIR_SAMPLES), ..AnalyseOptions::default() };
        let analysed = analyse(&HOUSE, &record, "short.json", options, &|_| {}).expect("analysed");
        let rules = record.rules.to_rules(&record.instance).expect("rules");
        let args = (&*HOUSE, &record.instance, rules, &record.moves[..], &analysed.review, &analysed.best[..]);
        let turning = signalbox_render::coe::review::turning_boards(args.0, args.1, args.2, args.3, args.4, args.5);
        let every = decision_boards(args.0, args.1, args.2, args.3, args.4, args.5);
        assert!(!turning.is_empty());
        for t in &turning {
            let d = every.iter().find(|b| b.decision == t.decision).expect("every decision");
            assert_eq!((&t.before.svg, &t.played.svg, &t.best.svg), (&d.before.svg, &d.played.svg, &d.best.svg));
        }
    }

    /// A short table game played out and reviewed: each decision lies on its move's step, past
    /// the chance steps.
    #[test]
    fn a_table_game_is_reviewed_on_its_move_steps() {
        let table = open(
            "table.json",
            r#"{"instance": {"board": 5}, "rules": {"max_workers": 6, "max_turns": 1}, "moves": []}"#,
        )
        .expect("a table record");
        let game = play_out(table);
        let steps = &game.walk().steps;
        assert!(steps.iter().any(|s| s.chance));
        assert!(game.walk().next.starts_with("game over"), "{}", game.walk().next);
        let (reviewed, best) = game.review(&|_, _| {}).expect("a review");
        assert_eq!(best.len(), reviewed.review.decisions.len());
        for (d, at) in reviewed.review.decisions.iter().zip(&reviewed.at) {
            assert_eq!(steps[at.before].text, d.played.text);
            assert_eq!(at.after, at.before + 1);
        }
    }
}
