//! The review of a played Cube Express game (issue 15): every turn of every player, with the
//! played turn's value and the best turn's value by ruling V1 (`docs/rules/cube-express.md`,
//! "What the planner maximises"; the best turn by [`super::plan::plan_turn`]), the loss, the best
//! turn itself, the running scores and the final scores recomputed by the engine. It fills the
//! shared [`Review`] (`solver::analysis`).
//!
//! Each turn is a decision: `value_before` is the value of the best turn (the planner's), its
//! `best_value_after` is that turn replayed on its own by the engine and valued from the
//! positions before and after it, and `value_after` is the played turn's value computed the same
//! way ([`super::value::value`]), so `loss = value_before - value_after`.
//!
//! The work is shared between positions: the record is replayed once, each position before a
//! turn taken from the one after the turn before (not replayed from the setup), and the
//! positions are planned side by side on the threads (each plan gives the same answer on any
//! number of threads, so the review does too); a played turn that ends where the best turn does
//! is not valued again. [`analyse_from_scratch`] does each decision on its own (the record
//! replayed from the setup to that turn, one plan after the other), for the bench and the tests.
//!
//! The sample game ([`sample_record`]) is made by [`SamplePlayer`]: every player plays the
//! planner's best turn, except at seeded turns a plausible mistake (the best-valued of a few
//! random legal turns that is worse than the best).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use signalbox_engine::cube_express::action::Action;
use signalbox_engine::cube_express::catalogue::Content;
use signalbox_engine::cube_express::game::Game;
use signalbox_engine::cube_express::options::Options;
use signalbox_engine::cube_express::position::{Record, RecordError};
use signalbox_engine::cube_express::score::{final_scores, winners};

use super::plan::{PlanError, PlanOptions, TurnPlan, certify, plan_turn};
use super::value::{parts, value};
use crate::analysis::{
    Axis, Better, Chart, Choice, Decision, Measure, Point, Range, Ranges, Review, Series, Thresholds,
};

/// Why a record could not be analysed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnalysisError {
    /// The record does not replay (the turn and action named, with the rule).
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The planner failed on a position of the record: a solver bug, reported.
    #[error("turn {turn}: the planner failed: {error}")]
    Plan {
        /// The turn, from 1.
        turn: usize,
        /// Why.
        error: PlanError,
    },
}

/// The review of a game and what it was computed from, for the pictures of its turning points.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The review.
    pub review: Review,
    /// The game before each turn, and after the last one (`decisions + 1` games).
    pub games: Vec<Game>,
    /// Each turn as played.
    pub played: Vec<Vec<Action>>,
    /// Each turn's best turn (the played turn when it is worth more than a best found in a
    /// time limit).
    pub best: Vec<Vec<Action>>,
}

/// One turn analysed.
struct Turn {
    best: Vec<Action>,
    best_value: i32,
    best_positions: u64,
    proven: bool,
    /// The planner's upper bound on the best turn's value, where a time limit stopped it.
    upper_bound: Option<i32>,
    played_value: i32,
    /// The best turn, replayed on its own and valued.
    best_replayed: i32,
}

/// The review of `record`, titled `title`, with the work shared between positions (see the
/// module). `progress` is told each time a turn has been planned (how many so far).
pub fn analyse(
    content: Arc<Content>,
    record: &Record,
    title: &str,
    options: &PlanOptions,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Analysis, AnalysisError> {
    use rayon::prelude::*;
    let games = record.games(content, title)?;
    let done = AtomicUsize::new(0);
    let inner = PlanOptions { threads: None, ..*options };
    let turns: Vec<Result<Turn, AnalysisError>> = crate::threads::install(options.threads, || {
        (0..record.turns.len())
            .into_par_iter()
            .map(|t| {
                let turn = analyse_turn(&games[t], &games[t + 1], t, &inner);
                progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                turn
            })
            .collect()
    });
    let turns = turns.into_iter().collect::<Result<Vec<_>, _>>()?;
    Ok(assemble(title, games, &record.turns, turns, options))
}

/// The same review, each decision computed on its own: the record replayed from the setup to
/// that turn, then the position planned, one turn after the other on `options.threads`.
pub fn analyse_from_scratch(
    content: Arc<Content>,
    record: &Record,
    title: &str,
    options: &PlanOptions,
) -> Result<Analysis, AnalysisError> {
    let mut turns = Vec::with_capacity(record.turns.len());
    for t in 0..record.turns.len() {
        let upto = Record { turns: record.turns[..=t].to_vec(), ..record.clone() };
        let games = upto.games(content.clone(), title)?;
        turns.push(analyse_turn(&games[t], &games[t + 1], t, options)?);
    }
    let games = record.games(content, title)?;
    Ok(assemble(title, games, &record.turns, turns, options))
}

/// The turn from `before` to `after` (turn index `t`): the best turn, its value replayed on its
/// own, and the played turn's value.
fn analyse_turn(before: &Game, after: &Game, t: usize, options: &PlanOptions) -> Result<Turn, AnalysisError> {
    let failed = |error| AnalysisError::Plan { turn: t + 1, error };
    let plan: TurnPlan = plan_turn(before, options).map_err(failed)?;
    let proven = plan.proven();
    // The planner's value of its own best turn, checked against the turn replayed on its own.
    let (best_after, best_replayed) = certify(before, &plan.actions, &options.weights)
        .map_err(|(i, e)| failed(PlanError::Certificate(format!("the best turn's action {i} does not replay: {e}"))))?;
    if best_replayed != plan.value {
        return Err(failed(PlanError::Certificate(format!(
            "the planner valued its turn {}, the engine {best_replayed}",
            plan.value
        ))));
    }
    let played_value =
        if best_after.key() == after.key() { plan.value } else { value(before, after, &options.weights) };
    Ok(Turn {
        best: plan.actions,
        best_value: plan.value,
        best_positions: plan.positions,
        proven,
        upper_bound: plan.upper_bound,
        played_value,
        best_replayed,
    })
}

/// A turn in words on one line: its steps joined by "; ", the end of the turn left out unless it
/// discards.
pub fn turn_text(game: &Game, actions: &[Action]) -> String {
    let shown: Vec<String> = game
        .describe_turn(actions)
        .into_iter()
        .zip(actions)
        .filter(|(_, a)| !matches!(a, Action::End { discard } if discard.total() == 0))
        .map(|(w, _)| w)
        .collect();
    if shown.is_empty() { "end the turn".to_string() } else { shown.join("; ") }
}

/// What the values of a Cube Express review measure.
pub fn measure() -> Measure {
    Measure {
        name: "value of the turn".to_string(),
        unit: "value points".to_string(),
        better: Better::Higher,
        assumes: "Each turn is valued on its own (see “The value of a turn” in docs/rules/cube-express.md): the points it banks \
                  plus a documented evaluation of what it leaves (resources, facilities, the second locomotive, \
                  technology, objective cubes). The best turn is the best-turn planner's, from what the player \
                  sees at the table (the hand, the display, the board); a loss is in value points of that turn, \
                  not in final-score points."
            .to_string(),
        thresholds: THRESHOLDS,
    }
}

/// Where the labels start, in value points (a value point is about a point of final score): a
/// turn banks a few points, so losing a point of it is an inaccuracy, three a mistake and six,
/// about a whole turn's worth, a blunder (`docs/formats/analysis.md`).
pub const THRESHOLDS: Thresholds = Thresholds { inaccuracy: 1.0, mistake: 3.0, blunder: 6.0 };

fn assemble(
    title: &str,
    games: Vec<Game>,
    played: &[Vec<Action>],
    turns: Vec<Turn>,
    options: &PlanOptions,
) -> Analysis {
    let better = Better::Higher;
    let colours: Vec<String> = games[0].players().iter().map(|p| p.colour.to_string()).collect();
    let scores: Vec<Vec<i32>> = games.iter().map(|g| final_scores(g).iter().map(|s| s.total()).collect()).collect();
    let mut decisions = Vec::with_capacity(turns.len());
    let mut best_turns = Vec::with_capacity(turns.len());
    for (t, turn) in turns.into_iter().enumerate() {
        let (before, after) = (&games[t], &games[t + 1]);
        let seat = usize::from(before.active());
        // A best turn found within a time limit can be worth less than the turn played; then
        // the turn played is the best known.
        let (best, best_value, best_replayed) = if turn.played_value > turn.best_value {
            (played[t].clone(), turn.played_value, turn.played_value)
        } else {
            (turn.best, turn.best_value, turn.best_replayed)
        };
        let played_parts = parts(before, after, &options.weights);
        let best_parts = before.play_turn(&best).ok().map(|g| parts(before, &g, &options.weights));
        decisions.push(Decision {
            index: t + 1,
            turn: t + 1,
            player: seat,
            kind: "turn".to_string(),
            played: Choice { text: turn_text(before, &played[t]), moves: json!(played[t]) },
            best: Choice { text: turn_text(before, &best), moves: json!(best) },
            value_before: f64::from(best_value),
            value_after: f64::from(turn.played_value),
            best_value_after: f64::from(best_replayed),
            loss: Decision::loss_of(better, f64::from(best_value), f64::from(turn.played_value)),
            proven: turn.proven,
            // Unproven, the best turn lies between the best found and the planner's bound; the
            // turn played is valued exactly.
            ranges: (!turn.proven).then(|| Ranges {
                before: Range {
                    low: f64::from(best_value),
                    high: turn.upper_bound.map(|b| f64::from(b.max(best_value))),
                },
                after: Range::exact(f64::from(turn.played_value)),
                estimated: false,
            }),
            label: None,
            fair_play: None,
            details: json!({
                "colour": colours[seat],
                "scores_before": scores[t],
                "scores_after": scores[t + 1],
                "played_parts": played_parts,
                "best_parts": best_parts,
                "positions": turn.best_positions,
            }),
        });
        best_turns.push(best);
    }
    let mut review = Review::new("cube-express", title.to_string(), colours.clone(), measure(), decisions);
    review.charts = charts(&colours, &scores, &review);
    review.facts = facts(games.last().expect("the setup at least"), &colours, played.len());
    Analysis { review, games, played: played.to_vec(), best: best_turns }
}

/// Each player's score over the turns, and each player's cumulative loss.
fn charts(colours: &[String], scores: &[Vec<i32>], review: &Review) -> Vec<Chart> {
    let point = |x: usize, y: f64| Point { x: x as f64, y, low: None, high: None };
    let score = Chart {
        title: "Scores after each turn (final scoring as if the game ended then)".to_string(),
        axis: Axis::Turn,
        x_label: "turn (0: the start)".to_string(),
        y_label: "points".to_string(),
        series: colours
            .iter()
            .enumerate()
            .map(|(seat, c)| Series {
                name: c.clone(),
                player: Some(seat),
                points: scores.iter().enumerate().map(|(x, s)| point(x, f64::from(s[seat]))).collect(),
            })
            .collect(),
    };
    let loss = Chart {
        title: "Cumulative loss of each player".to_string(),
        axis: Axis::Turn,
        x_label: "turn (0: the start)".to_string(),
        y_label: "value points lost".to_string(),
        series: colours
            .iter()
            .enumerate()
            .map(|(seat, c)| {
                let mut total = 0.0;
                let mut points = vec![point(0, 0.0)];
                for d in &review.decisions {
                    if d.player == seat {
                        total += d.loss;
                    }
                    points.push(point(d.turn, total));
                }
                Series { name: c.clone(), player: Some(seat), points }
            })
            .collect(),
    };
    vec![score, loss]
}

/// The final scores recomputed by the engine, and how the game ended.
fn facts(end: &Game, colours: &[String], turns: usize) -> Vec<String> {
    let scores = final_scores(end);
    let list: Vec<String> = colours.iter().zip(&scores).map(|(c, s)| format!("{c} {}", s.total())).collect();
    let win: Vec<&str> = winners(end).iter().map(|&w| colours[w].as_str()).collect();
    let state = if end.is_over() {
        format!("the game is over after {turns} turns")
    } else {
        format!("the record stops after {turns} turns, before the game's end (scores as if it ended now)")
    };
    vec![
        format!("Final scores, recomputed by the rules engine from the record: {} ({state}).", list.join(", ")),
        format!(
            "Winner: {} (ties: more stations on the map, then the stock value; see “Final scoring” in docs/rules/cube-express.md).",
            win.join(" and ")
        ),
    ]
}

/// How [`sample_record`]'s deliberately imperfect player plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SamplePlayer {
    /// The chance of a mistake at each turn (drawn from a ChaCha8 generator seeded with the
    /// record's seed).
    pub mistakes: f64,
    /// How many random legal turns a mistake is chosen from (the best-valued one worse than the
    /// planner's).
    pub tries: usize,
    /// Stop after this many turns (`None`: play until the game ends).
    pub turns: Option<usize>,
}

impl Default for SamplePlayer {
    fn default() -> SamplePlayer {
        SamplePlayer { mistakes: 0.25, tries: 6, turns: None }
    }
}

/// The embedded sample game's setup: 3 players, seed 15.
pub const SAMPLE_SEED: u64 = 15;
/// The embedded sample game's player count.
pub const SAMPLE_PLAYERS: usize = 3;

/// A complete game (until the game's end, ruling E1, or `player.turns` turns) from `seed` with `players` players, each
/// turn the planner's best turn, except, with the chance `player.mistakes`, the best-valued of
/// `player.tries` random legal turns ([`Game::random_action`]) that is worth less than the best
/// (the best when none is). Deterministic: the same record on every machine and thread count.
pub fn sample_record(
    content: Arc<Content>,
    players: usize,
    seed: u64,
    player: SamplePlayer,
    options: &PlanOptions,
) -> Result<Record, AnalysisError> {
    use rand::RngExt;
    let mut game = Game::new(content, players, seed, Options::default())
        .map_err(|error| AnalysisError::Record(RecordError::Setup { file: "the sample game".to_string(), error }))?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut turns = Vec::new();
    while !game.is_over() && player.turns.is_none_or(|n| turns.len() < n) {
        let t = turns.len();
        let plan = plan_turn(&game, options).map_err(|error| AnalysisError::Plan { turn: t + 1, error })?;
        let mut chosen = (plan.actions, plan.after);
        if rng.random_bool(player.mistakes) {
            let mut worse: Option<(i32, Vec<Action>, Game)> = None;
            for _ in 0..player.tries {
                let Some((actions, after)) = random_turn(&game, &mut rng) else { continue };
                let v = value(&game, &after, &options.weights);
                if v < plan.value && worse.as_ref().is_none_or(|(w, _, _)| v > *w) {
                    worse = Some((v, actions, after));
                }
            }
            if let Some((_, actions, after)) = worse {
                chosen = (actions, after);
            }
        }
        turns.push(chosen.0);
        game = chosen.1;
    }
    Ok(Record::new(players, seed, Options::default(), turns))
}

/// One random legal turn from `game`, by [`Game::random_action`], and the game after it.
pub fn random_turn(game: &Game, rng: &mut ChaCha8Rng) -> Option<(Vec<Action>, Game)> {
    let mut g = game.clone();
    let mut actions = Vec::new();
    let start = game.turns_played();
    while g.turns_played() == start {
        let a = g.random_action(rng)?;
        g.apply(&a).ok()?;
        actions.push(a);
        if actions.len() > 500 {
            return None;
        }
    }
    Some((actions, g))
}
