//! Express 01 on the analysis board: a record (docs/formats/express01-record.md) replayed by the
//! engine with every rule checked, one step of the record at a time.
//!
//! A step is one step of a turn as the record lists it and the terminal `play` menu offers it
//! (`A+B`, `pay 236`, `build 501 on 009`, `buy red`, `take 103`, `bonus red pays 5`,
//! `draw route-blue by Anna`, `swap Ben`, `done`). A game dealt from a seed has no chance step:
//! every deck's order is known from the seed, and a draw is the player's choice of deck. In a
//! game from the table, a draw from face-down cards tells the card that came
//! (`draw route-blue 212 by Anna`): that step is a chance step, and its choices are every card
//! that could come.
//!
//! The rules are the embedded house set's, as the CLI's without `--content`.

use std::sync::OnceLock;

use clap::Parser as _;
use signalbox_engine::express01::card::CardNumber;
use signalbox_engine::express01::catalogue::Catalogue;
use signalbox_engine::express01::game::{Game, Phase, Step as Move, StepError};
use signalbox_engine::express01::position::{Position, PositionSetup};
use signalbox_engine::express01::record::{self, Record, Recorder, SAMPLE_GAME_JSON, StartSetup};
use signalbox_render::express01::picture::board_svg;
use signalbox_render::express01::review::decision_boards;
use signalbox_render::walk::{Choice, DecisionAt, Reviewed, Step, Walk};
use signalbox_solver::express01::analysis::{AnalysisOptions, DEFAULT_STATES, analyse};
use signalbox_solver::express01::selfplay::BestRoute;

use super::{AdviseCall, Kind, Open};

/// The label of the bundled sample, as `express01 analyse` names it.
const SAMPLE_LABEL: &str = "the sample game";

/// The note a game begun on the board carries in its record.
const NOTE: &str = "played on the analysis board (signalbox serve)";

/// More builds than this at a position are grouped by the cell they are on, as the terminal
/// menu groups them.
const BUILD_GROUP_LIMIT: usize = 24;

/// At most this many choices are listed at a position. The engine's legal steps at any position
/// of a game of Express 01 stay far below it (the most are the builds of a card paid, a few
/// hundred); past it, each group keeps its share of the list and the rest are left out (they
/// can still be typed).
const MAX_CHOICES: usize = 2000;

/// The content every game on the board is played with: the embedded house set.
fn catalogue() -> &'static Catalogue {
    static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();
    CATALOGUE.get_or_init(Catalogue::house)
}

/// Where a record starts.
#[derive(Clone, Debug)]
enum Origin {
    /// A new game from a seed.
    Seed(StartSetup),
    /// A position (a game from the table among them).
    Position(PositionSetup),
}

/// One step played: the game before it, the step, and the card a draw brought where nobody had
/// seen it (a game from the table).
#[derive(Clone, Debug)]
struct Played {
    before: Game<'static>,
    step: Move,
    told: Option<CardNumber>,
}

/// An Express 01 game open on the board.
#[derive(Clone, Debug)]
struct Express01 {
    /// The name of the record in messages and titles.
    label: String,
    /// Where the record starts.
    origin: Origin,
    /// The record's note.
    note: Option<String>,
    /// Every step, in order.
    played: Vec<Played>,
    /// The game after the last step.
    end: Game<'static>,
    /// The walk, computed from the above.
    walk: Walk,
}

/// The bundled sample game: the record `express01 analyse` reviews without a file.
pub fn sample() -> Box<dyn Open> {
    // The embedded sample replays: the engine's own tests check it; a failure is a build defect.
    let game = open_game(SAMPLE_LABEL, SAMPLE_GAME_JSON).expect("the embedded sample game replays");
    Box::new(game)
}

/// Reads a record the user gave, named `label` in messages: the same checks and messages as
/// `express01 analyse FILE` (a JSON object of another game is refused by name, then the record
/// is read and replayed with every rule checked).
pub fn open(label: &str, text: &str) -> Result<Box<dyn Open>, String> {
    Ok(Box::new(open_game(label, text)?))
}

/// A new game from `seed` with no step played, as `express01 new --seed SEED` deals it: three
/// players (Anna, Ben, Clara), Germany, the short game.
pub fn new_game(seed: u64) -> Result<Box<dyn Open>, String> {
    #[derive(clap::Parser)]
    struct NewGame {
        #[command(flatten)]
        start: crate::express01::start::StartArgs,
    }
    let args = NewGame::try_parse_from(["new", "--seed", &seed.to_string()]).map_err(|e| e.to_string())?;
    let start = args.start.start().map_err(|e| e.to_string())?;
    let label = format!("a new game from seed {seed}");
    let setup = start.position(catalogue()).map_err(|e| format!("{label}: {e}"))?;
    let game = start_game(&label, setup)?;
    Ok(Box::new(Express01::new(label, Origin::Seed(start), Some(NOTE.to_string()), Vec::new(), game)))
}

/// The game of a start position, or why it cannot start.
fn start_game(label: &str, setup: PositionSetup) -> Result<Game<'static>, String> {
    let position = Position::from_setup(setup, catalogue()).map_err(|e| {
        let problems: Vec<String> = e.problems.iter().map(ToString::to_string).collect();
        format!("{label}: the start position is not legal: {}", problems.join("; "))
    })?;
    Game::from_position(&position).map_err(|e| format!("{label}: {e}"))
}

/// Reads and replays a record as `express01 analyse` does, then walks its steps.
fn open_game(label: &str, text: &str) -> Result<Express01, String> {
    crate::express01::analyse::other_game(label, text).map_err(|e| e.to_string())?;
    let (record, _) = record::read_and_replay(label, text, catalogue(), &BestRoute).map_err(|e| e.to_string())?;
    from_record(label, &record)
}

/// The game of a record already replayed with every rule checked, step by step.
fn from_record(label: &str, record: &Record) -> Result<Express01, String> {
    let setup = record::start_position(label, record, catalogue()).map_err(|e| e.to_string())?;
    let origin = match (&record.start, &record.position) {
        (Some(start), _) => Origin::Seed(start.clone()),
        (None, _) => Origin::Position(setup.clone()),
    };
    let mut game = start_game(label, setup)?;
    let mut played = Vec::new();
    for turn in &record.turns {
        for text in &turn.steps {
            let (step, told, next) = apply(&game, text, false).map_err(|m| format!("{label}: {m}"))?;
            played.push(Played { before: std::mem::replace(&mut game, next), step, told });
        }
    }
    Ok(Express01::new(label.to_string(), origin, record.note.clone(), played, game))
}

/// Reads `text` as a step at `game` and plays it with every rule checked: the step, the card it
/// told as drawn where nobody had seen it, and the game after it. `typed`: read as the terminal
/// `play` reads a typed step (a card told with a draw only in a game from the table); otherwise
/// as a record is read. An unreadable or illegal step is refused in the words the terminal
/// prints, with the rule it breaks.
fn apply(game: &Game<'static>, text: &str, typed: bool) -> Result<(Move, Option<CardNumber>, Game<'static>), String> {
    let text = text.trim();
    let (step, told) = if typed && !game.is_table() { (game.parse_step(text)?, None) } else { game.parse_told(text)? };
    let refuse = |e: StepError| format!("`{text}`: not allowed: {e}");
    game.check(step, &BestRoute).map_err(refuse)?;
    let unseen = game.draws_unseen(step);
    let mut next = game.clone();
    match (step, told) {
        (Move::Draw(d), Some(card)) => {
            next.reveal(d, card).map_err(refuse)?;
            next.check(step, &BestRoute).map_err(refuse)?;
        }
        (Move::Draw(d), None) if unseen => {
            let name = game.decks().get(d).map_or("the deck", |deck| deck.name);
            return Err(refuse(StepError::Untold(name)));
        }
        _ => {}
    }
    next.play_unchecked(step);
    Ok((step, told.filter(|_| unseen), next))
}

/// The kind of a step, as the choices group it.
fn group_of(game: &Game<'_>, step: Move, by_cell: bool) -> String {
    match step {
        Move::Pair(_) => "action pair".into(),
        Move::Pay(_) => "pay a card".into(),
        Move::Build(b) if by_cell => {
            let base = game.map().cells.get(b.cell).map(|c| c.base);
            let city = base.and_then(|base| game.catalogue().card(base)).and_then(|c| c.name.clone());
            match (base, city) {
                (Some(base), Some(city)) => format!("build on {base} {city}"),
                (Some(base), None) => format!("build on {base}"),
                _ => "build".into(),
            }
        }
        Move::Build(_) => "build".into(),
        Move::Buy(_) => "buy a share".into(),
        Move::Take(_) => "take the share".into(),
        Move::Bonus { .. } => "bonus payment".into(),
        Move::Draw(_) => "draw a card".into(),
        Move::Swap(_) => "swap turn order".into(),
        Move::Done => "done".into(),
    }
}

/// Each player's capital in words, `Anna 30 · Ben 25`.
fn capitals(game: &Game<'_>) -> String {
    game.seats()
        .iter()
        .enumerate()
        .map(|(p, s)| format!("{} {}", s.name, game.capital(p).total()))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The winners and the verb, `Anna wins`, `Anna and Ben share the victory`.
fn result(game: &Game<'_>) -> String {
    let winners: Vec<&str> = game.winners().iter().map(|&p| game.seats()[p].name.as_str()).collect();
    let verb = if winners.len() > 1 { "share the victory" } else { "wins" };
    format!("{} {verb}", winners.join(" and "))
}

impl Express01 {
    /// The open game of these steps, its walk computed.
    fn new(label: String, origin: Origin, note: Option<String>, played: Vec<Played>, end: Game<'static>) -> Self {
        let walk = Walk {
            game: Kind::Express01.command().to_string(),
            title: String::new(),
            players: Vec::new(),
            steps: Vec::new(),
            next: String::new(),
        };
        let mut game = Express01 { label, origin, note, played, end, walk };
        game.walk = game.compute_walk();
        game
    }

    /// The game before step `at` (clamped to the end).
    fn game_at(&self, at: usize) -> &Game<'static> {
        self.played.get(at).map_or(&self.end, |p| &p.before)
    }

    /// The steps at which a turn starts (the action pair is chosen), in order.
    fn turn_starts(&self) -> Vec<usize> {
        self.played.iter().enumerate().filter(|(_, p)| *p.before.phase() == Phase::Pair).map(|(k, _)| k).collect()
    }

    /// The walk of the game: its title, players, steps and where it ends.
    fn compute_walk(&self) -> Walk {
        let first = self.game_at(0);
        let from = match &self.origin {
            Origin::Seed(s) => format!("seed {}", s.seed),
            Origin::Position(_) if first.is_table() => "a game from the table".into(),
            Origin::Position(_) => "from a position".into(),
        };
        let title = format!(
            "{} · {} players, {}, {} game, {from}",
            self.label,
            first.seats().len(),
            first.map().name,
            first.rules().length.name()
        );
        let mut turn = 0;
        let steps = self
            .played
            .iter()
            .map(|p| {
                if *p.before.phase() == Phase::Pair || turn == 0 {
                    turn += 1;
                }
                Step {
                    turn,
                    player: p.before.seats()[p.before.decider()].name.clone(),
                    text: p.before.describe_told(p.step, p.told),
                    chance: p.told.is_some(),
                }
            })
            .collect();
        let end = &self.end;
        let next = if end.is_over() {
            format!("Game over after round {}: {}; {}", end.round(), capitals(end), result(end))
        } else {
            format!(
                "Round {}, turn {}: {} to play: {}",
                end.round(),
                end.turn(),
                end.seats()[end.decider()].name,
                end.expecting()
            )
        };
        Walk {
            game: Kind::Express01.command().to_string(),
            title,
            players: first.seats().iter().map(|s| s.name.clone()).collect(),
            steps,
            next,
        }
    }

    /// The record of the game, as `express01 play --record` writes it.
    fn to_record(&self) -> Record {
        let mut recorder = match &self.origin {
            Origin::Seed(start) => Recorder::from_seed(start.clone(), self.note.clone()),
            Origin::Position(setup) => Recorder::from_position(setup.clone(), self.note.clone()),
        };
        for p in &self.played {
            recorder.step_told(&p.before, p.step, p.told);
        }
        recorder.finish(&self.end)
    }
}

impl Open for Express01 {
    fn kind(&self) -> Kind {
        Kind::Express01
    }

    fn walk(&self) -> &Walk {
        &self.walk
    }

    fn board(&self, at: usize) -> String {
        let g = self.game_at(at);
        let title = if g.is_over() {
            format!("Round {} · game over: {}", g.round(), result(g))
        } else {
            format!("Round {}, turn {} · {} to play", g.round(), g.turn(), g.seats()[g.decider()].name)
        };
        board_svg(&g.network(), None, &title)
    }

    /// Every legal step (builds grouped by cell when there are more than 24 of them); in a game
    /// from the table, a draw from face-down cards as one chance choice for each card that could
    /// come. At most [`MAX_CHOICES`], each group keeping its share past it.
    fn choices(&self, at: usize) -> Vec<Choice> {
        let g = self.game_at(at);
        if g.is_over() {
            return Vec::new();
        }
        let legal = g.legal(&BestRoute);
        let by_cell = legal.iter().filter(|s| matches!(s, Move::Build(_))).count() > BUILD_GROUP_LIMIT;
        let mut out = Vec::new();
        for &s in &legal {
            match s {
                Move::Draw(d) if g.draws_unseen(s) => {
                    let deck = g.decks().get(d).map_or("a deck", |deck| deck.name);
                    for card in g.could_come(d) {
                        out.push(Choice {
                            group: format!("the card drawn from {deck}"),
                            text: g.describe_told(s, Some(card)),
                            chance: true,
                        });
                    }
                }
                _ => out.push(Choice { group: group_of(g, s, by_cell), text: g.describe(s), chance: false }),
            }
        }
        cap(out)
    }

    fn play(&self, at: usize, text: &str) -> Result<Box<dyn Open>, String> {
        let at = at.min(self.played.len());
        let before = self.game_at(at).clone();
        let (step, told, next) = apply(&before, text, true)?;
        let mut played = self.played[..at].to_vec();
        played.push(Played { before, step, told });
        Ok(Box::new(Express01::new(self.label.clone(), self.origin.clone(), self.note.clone(), played, next)))
    }

    fn record(&self) -> String {
        serde_json::to_string_pretty(&self.to_record()).unwrap_or_default() + "\n"
    }

    fn review(&self, progress: &(dyn Fn(usize, usize) + Sync)) -> Result<(Reviewed, Vec<String>), String> {
        let record = self.to_record();
        // The turns the review searches: the complete ones (an unfinished last turn is not).
        let open_turn = !self.end.is_over() && *self.end.phase() != Phase::Pair;
        let total = record.turns.len() - usize::from(open_turn && !record.turns.is_empty());
        let options = AnalysisOptions { states: Some(DEFAULT_STATES), time_limit: None, threads: None };
        let analysis = analyse(&self.label, &record, catalogue(), &options, &|done| progress(done, total))
            .map_err(|e| e.to_string())?;
        let boards = decision_boards(&analysis);
        let review = analysis.review;
        let best = review
            .decisions
            .iter()
            .map(|d| boards.iter().find(|b| b.decision == d.index).map(|b| b.best.svg.clone()).unwrap_or_default())
            .collect();
        let at = placements(&self.turn_starts(), self.played.len(), review.decisions.iter().map(|d| d.index));
        Ok((Reviewed { review, at }, best))
    }

    /// `express01 advise RECORD --turn N` at the start of a turn (`N` counted from 1 over the
    /// record), or the record alone where it ends at the start of a turn.
    fn advise(&self, at: usize) -> Option<AdviseCall> {
        let at = at.min(self.played.len());
        let g = self.game_at(at);
        if g.is_over() || *g.phase() != Phase::Pair {
            return None;
        }
        let args = if at == self.played.len() {
            Vec::new()
        } else {
            let n = self.turn_starts().iter().filter(|&&k| k <= at).count();
            vec!["--turn".to_string(), n.to_string()]
        };
        Some(AdviseCall { file: self.record(), args })
    }
}

/// Where each decision of a review lies on the walk: decision `index` (from 1) is the turn of
/// that number, from its first step to the first step of the next turn (or the end).
fn placements(starts: &[usize], steps: usize, decisions: impl Iterator<Item = usize>) -> Vec<DecisionAt> {
    decisions
        .map(|index| {
            let t = index.saturating_sub(1);
            let before = starts.get(t).copied().unwrap_or(steps);
            let after = starts.get(t + 1).copied().unwrap_or(steps);
            DecisionAt { before, after }
        })
        .collect()
}

/// The choices, at most [`MAX_CHOICES`]: past it, each group keeps its share, the order kept.
fn cap(choices: Vec<Choice>) -> Vec<Choice> {
    if choices.len() <= MAX_CHOICES {
        return choices;
    }
    let mut groups: Vec<(&str, usize)> = Vec::new();
    for c in &choices {
        match groups.iter_mut().find(|(g, _)| *g == c.group) {
            Some((_, n)) => *n += 1,
            None => groups.push((&c.group, 1)),
        }
    }
    let total = choices.len();
    let keep: Vec<(String, usize)> =
        groups.iter().map(|(g, n)| (g.to_string(), (n * MAX_CHOICES / total).max(1))).collect();
    let mut taken: Vec<usize> = vec![0; keep.len()];
    choices
        .into_iter()
        .filter(|c| {
            let Some(i) = keep.iter().position(|(g, _)| *g == c.group) else { return false };
            taken[i] += 1;
            taken[i] <= keep[i].1
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first step at which the game is in each part of a turn, and a few turn starts.
    fn varied_positions(game: &dyn Open) -> Vec<usize> {
        let g = open_game(SAMPLE_LABEL, &game.record()).expect("the record reads back");
        let mut seen: Vec<std::mem::Discriminant<Phase>> = Vec::new();
        let mut at = vec![0, 1, 2];
        for (k, p) in g.played.iter().enumerate() {
            let d = std::mem::discriminant(p.before.phase());
            if !seen.contains(&d) {
                seen.push(d);
                at.push(k);
            }
        }
        at.push(g.played.len() / 2);
        at
    }

    /// The sample's walk: its steps by turn and player, each board a whole SVG picture, out of
    /// range clamped to the end.
    #[test]
    fn the_sample_walks_and_draws_every_board() {
        let game = sample();
        let walk = game.walk();
        assert_eq!(walk.game, "express01");
        assert_eq!(walk.players, ["Anna", "Ben", "Clara"]);
        assert!(walk.title.contains("seed 1"), "{}", walk.title);
        assert!(walk.steps.len() > 100);
        assert_eq!(walk.steps[0], Step { turn: 1, player: "Anna".into(), text: "A+B".into(), chance: false });
        assert!(walk.steps.iter().all(|s| !s.chance), "a game from a seed has no chance step");
        assert!(walk.steps.windows(2).all(|w| w[1].turn == w[0].turn || w[1].turn == w[0].turn + 1));
        assert!(walk.next.starts_with("Game over after round"), "{}", walk.next);
        for at in 0..=walk.steps.len() {
            let svg = game.board(at);
            assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "board {at}");
        }
        assert!(game.board(0).contains("Round 1, turn 1 · Anna to play"));
        assert_eq!(game.board(walk.steps.len() + 5), game.board(walk.steps.len()));
        assert!(game.choices(walk.steps.len()).is_empty(), "the game is over");
        assert!(game.choices(usize::MAX).is_empty());
    }

    /// The record written reads back to the same walk, and `replay` reads it as the original.
    #[test]
    fn the_record_reads_back_to_the_same_walk() {
        let game = sample();
        let text = game.record();
        let again = open("upload.json", &text).expect("the record reads back");
        assert_eq!(again.walk().steps, game.walk().steps);
        assert_eq!(again.walk().next, game.walk().next);
        let original = record::read_and_replay("a", SAMPLE_GAME_JSON, catalogue(), &BestRoute).expect("sample").1;
        let written = record::read_and_replay("b", &text, catalogue(), &BestRoute).expect("written").1;
        assert_eq!(original.game, written.game);
        assert_eq!(original.rounds, written.rounds);
        assert!(text.contains("\"result\""));
    }

    /// At positions of every part of a turn, every choice is played by its words and is the new
    /// last step of the fork, in the same words.
    #[test]
    fn every_choice_is_played_by_its_words() {
        let game = sample();
        let positions = varied_positions(game.as_ref());
        assert!(positions.len() >= 10, "{positions:?}");
        for at in positions {
            let choices = game.choices(at);
            assert!(!choices.is_empty(), "choices at {at}");
            for c in choices {
                assert!(!c.chance && !c.group.is_empty());
                let fork = game.play(at, &c.text).unwrap_or_else(|e| panic!("at {at}: `{}`: {e}", c.text));
                let steps = &fork.walk().steps;
                assert_eq!(steps.len(), at + 1);
                assert_eq!(steps[at].text, c.text, "at {at}");
                assert_eq!(steps[..at], game.walk().steps[..at]);
            }
        }
    }

    /// Unreadable and illegal steps are refused with the reason in words; odd input never panics.
    #[test]
    fn illegal_steps_are_refused_in_words() {
        let game = sample();
        let made_up = game.play(0, "fly to the moon").err().expect("refused");
        assert!(made_up.contains("not a step"), "{made_up}");
        let first = game.play(0, "B+A").err().expect("refused");
        assert!(first.contains("not allowed") && first.contains("first turn"), "{first}");
        let not_now = game.play(0, "build 404 on 028").err().expect("refused");
        assert!(not_now.contains("not now: choose the action pair"), "{not_now}");
        let hand = game.play(1, "pay 999").err().expect("refused");
        assert!(hand.contains("not in the hand"), "{hand}");
        let told = game.play(1, "draw route-blue 212").err().expect("refused");
        assert!(told.contains("only in a game from the table"), "{told}");
        for at in [0, 1, 2, 3, 20, 100, 10_000] {
            for text in [
                "",
                "   ",
                "pay",
                "pay engine",
                "build 1 on 2 depth 99999999",
                "build 404 on 028 depth",
                "build 404 on 028 depth 999",
                "build 404 on 028 turned turned depth 0",
                "take 103 depth 999",
                "take 103 from Anna",
                "draw route-blue 212",
                "take 103 from Nobody",
                "bonus red pays 99999 with engine",
                "bonus red pays -1",
                "draw nowhere by Anna",
                "swap Anna",
                "done done",
                "A+B",
                "\u{0}\u{ffff}",
            ] {
                let _ = game.play(at, text);
            }
        }
    }

    /// A fork's record reads back to the fork.
    #[test]
    fn a_fork_is_recorded_and_reads_back() {
        let game = sample();
        let at = 12;
        let choice = game.choices(at).pop().expect("a choice");
        let fork = game.play(at, &choice.text).expect("legal");
        let again = open("fork.json", &fork.record()).expect("the fork's record reads back");
        assert_eq!(again.walk().steps, fork.walk().steps);
        assert_eq!(again.walk().next, fork.walk().next);
        assert!(!fork.record().contains("\"result\""));
    }

    /// A new game has no step, its first player to choose the action pair.
    #[test]
    fn a_new_game_starts_empty() {
        let game = new_game(7).expect("a new game");
        assert!(game.walk().steps.is_empty());
        assert_eq!(game.walk().players, ["Anna", "Ben", "Clara"]);
        assert!(game.walk().next.contains("choose the action pair"), "{}", game.walk().next);
        assert!(game.walk().title.contains("seed 7"));
        assert!(!game.choices(0).is_empty());
        let record = game.record();
        assert!(record.contains("\"seed\": 7"), "{record}");
        assert!(open("new.json", &record).is_ok());
    }

    /// Advice at the start of a turn: the record with the turn's number; none mid-turn or when
    /// the game is over.
    #[test]
    fn advice_is_at_the_start_of_a_turn() {
        let game = sample();
        let call = game.advise(5).expect("the start of turn 2");
        assert_eq!(call.args, ["--turn", "2"]);
        assert_eq!(call.file, game.record());
        assert_eq!(game.advise(0).expect("turn 1").args, ["--turn", "1"]);
        assert!(game.advise(6).is_none(), "mid-turn");
        assert!(game.advise(game.walk().steps.len()).is_none(), "the game is over");
        let fork = game.play(5, "A+B").expect("legal");
        assert!(fork.advise(6).is_none());
        let fresh = new_game(3).expect("a new game");
        assert_eq!(fresh.advise(0).expect("the start").args, Vec::<String>::new());
    }

    /// A bad upload gets the message `express01 analyse FILE` prints (after "error: ").
    #[test]
    fn a_bad_upload_gets_the_cli_message() {
        let message = |text: &str| open("up.json", text).err().expect("refused");
        assert_eq!(message("{\"game\":\"express01\"}"), "up.json:1:20: missing field `record`");
        assert_eq!(message("garbage {"), "up.json:1:1: expected value");
        assert_eq!(
            message("{\"game\":\"coe\",\"record\":1}"),
            "up.json: a record of `coe`, not of Express 01 (`\"game\": \"express01\"`; docs/formats/express01-record.md)"
        );
        let mut broken: serde_json::Value = serde_json::from_str(SAMPLE_GAME_JSON).expect("json");
        broken["turns"][0]["steps"][0] = "B+A".into();
        let text = serde_json::to_string(&broken).expect("json");
        let m = message(&text);
        assert!(m.starts_with("up.json: turns[0] (round 1, turn 1, Anna), step 1 `B+A`"), "{m}");
    }

    /// Each decision of a review lies on its turn's first step and the next turn's.
    #[test]
    fn decisions_are_placed_on_their_turns() {
        let placed = placements(&[0, 5, 11], 14, [1, 2, 3].into_iter());
        assert_eq!(
            placed,
            [
                DecisionAt { before: 0, after: 5 },
                DecisionAt { before: 5, after: 11 },
                DecisionAt { before: 11, after: 14 }
            ]
        );
    }

    /// The review of a short fork (the sample's first turn and the second begun): one decision
    /// per complete turn, placed on the walk, with the board after each best turn.
    #[test]
    fn a_short_game_is_reviewed() {
        let game = sample().play(5, "A+B").expect("legal");
        let told = std::sync::Mutex::new(Vec::new());
        let (reviewed, boards) =
            game.review(&|done, total| told.lock().expect("lock").push((done, total))).expect("reviewed");
        assert_eq!(reviewed.review.decisions.len(), 1);
        assert_eq!(reviewed.at, [DecisionAt { before: 0, after: 5 }]);
        assert_eq!(boards.len(), 1);
        assert!(boards.iter().all(|b| b.starts_with("<svg")));
        assert_eq!(*told.lock().expect("lock"), [(1, 1)]);
    }

    /// The start of a 2-player game at the table, as `express01 new --table` writes it.
    const TABLE_START: &str = r#"{"record": 1, "game": "express01", "note": "played at the table", "position": {"map": "germany", "note": "a game at the table", "board": [], "players": [{"name": "Ann", "turn_order": 1, "turn_taken": false, "hand": [236, 230, 221, 212, 207, 201], "shares": [], "base_cards": []}, {"name": "Bo", "turn_order": 2, "turn_taken": false, "hand": [233, 228, 219, 215, 209, 204], "shares": [], "base_cards": []}], "black_engine": "Ann", "round": 1, "length": "short", "table": true}, "turns": []}"#;

    /// In a game from the table, a draw from face-down cards is a chance step: its choices are
    /// the cards that could come, each played by its words; a draw without its card is refused;
    /// the record reads back with the cards told.
    #[test]
    fn draws_at_the_table_are_chance_steps() {
        let mut game = open("table.json", TABLE_START).expect("opens");
        assert!(game.walk().title.contains("a game from the table"));
        let mut seed: u64 = 12345;
        let mut chances = 0;
        for k in 0..400 {
            let choices = game.choices(k);
            if choices.is_empty() {
                break;
            }
            for c in choices.iter().filter(|c| c.chance) {
                chances += 1;
                let fork = game.play(k, &c.text).unwrap_or_else(|e| panic!("`{}`: {e}", c.text));
                assert_eq!(fork.walk().steps[k], Step { chance: true, ..fork.walk().steps[k].clone() });
                assert_eq!(fork.walk().steps[k].text, c.text);
                let untold = c.text.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
                let refused = game.play(k, &untold).err().expect("a draw from face-down cards tells its card");
                assert!(refused.contains("is not told"), "{refused}");
            }
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let c = &choices[(seed >> 33) as usize % choices.len()];
            game = game.play(k, &c.text).expect("legal");
        }
        assert!(chances > 0);
        assert!(game.walk().steps.iter().any(|s| s.chance));
        let again = open("table.json", &game.record()).expect("reads back");
        assert_eq!(again.walk(), game.walk());
    }

    /// No more choices than the cap, each group keeping some.
    #[test]
    fn choices_are_capped_by_group() {
        let many: Vec<Choice> = (0..5000)
            .map(|i| Choice { group: if i < 10 { "a".into() } else { "b".into() }, text: i.to_string(), chance: false })
            .collect();
        let capped = cap(many);
        assert!(capped.len() <= MAX_CHOICES);
        assert!(capped.iter().any(|c| c.group == "a"));
    }
}
