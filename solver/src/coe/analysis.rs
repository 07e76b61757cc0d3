//! The review of a played game of The Cubes of Europe (issue 15): every decision of the record,
//! the best final score still reachable before it and after it, the loss, and the best move.
//!
//! **A decision is one [`Move`]** of the record: the start space, each die's use (with the
//! number it is turned to, the workers that pays and whether the free shift is taken), each
//! overflow return, each white gain, each red chain and each pass. The record writes them one
//! by one, so the review does too.
//!
//! **Values** are exact best final scores ([`super::search`]), knowing the future dice and cards
//! (hindsight): a loss is what the seed allowed, not what the player could see. The value of the
//! position before decision `k` is the solver's value of it; its line starts with the best move,
//! and the position after that move is worth exactly as much (the line reaches the value from
//! there, and a position is worth no more than the one it follows from), so `best_value_after`
//! is `value_before` without another search. The value after the move played is the value
//! before the next decision (or the final score after the last).
//!
//! **Reuse.** One set of search tables serves every position of the game
//! ([`super::search::Tables`]); a position after a move that leads where the solver's line goes
//! takes the rest of the line and its value without a search (the line reaches it, and it is
//! worth no more than the position before); any other position is searched with the value
//! before it as a known upper bound ([`super::search::solve_reusing`]), which ends the search as
//! soon as a line reaches it. [`AnalyseOptions::reuse`] off solves the position before every
//! decision from scratch instead, for the bench's comparison and the tests.
//!
//! **Sample game.** [`sample_record`] plays a seed as a plausible player would: the fair policy,
//! which sees only what a player sees, except on [`SAMPLE_MISTAKES`] turns drawn from the seed,
//! where it slips to another ending of the turn that looks good (one of the three the playout
//! evaluation rates highest after the fair policy's).

use rand::seq::index::sample;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde_json::json;
use signalbox_engine::coe::game::turn_steps;
use signalbox_engine::coe::{Catalogue, Game, Instance, Move, Record, Rules, rank_of};

use super::exact::turn_outcomes;
use super::fair::{self, Blind};
use super::search::{SolveOptions, Solved, Tables, solve_reusing};
use crate::analysis::{
    Axis, Better, Chart, Choice, Decision, FairPlay, FairSplit, Measure, Point, Range, Ranges, Review, Series,
    Thresholds, TurnSplit,
};

/// How to analyse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalyseOptions {
    /// The search of each position (its time limit applies to each position searched).
    pub solve: SolveOptions,
    /// Reuse work between positions (the default); off, every position before a decision is
    /// solved from scratch.
    pub reuse: bool,
    /// The fair-play values (ruling F6): `Some(n)` values every decision without knowing the
    /// future, estimates by `n` playouts each; `None` leaves them out.
    pub fair_samples: Option<usize>,
}

impl Default for AnalyseOptions {
    fn default() -> Self {
        AnalyseOptions { solve: SolveOptions::default(), reuse: true, fair_samples: None }
    }
}

/// A review, with what drawing its turning points needs.
#[derive(Clone, Debug)]
pub struct Analysed {
    /// The review.
    pub review: Review,
    /// The best move at each decision, in order (the move played where it loses nothing).
    pub best: Vec<Move>,
    /// Positions searched from scratch or with reuse (each a call of the solver).
    pub searches: usize,
}

/// Why a record cannot be analysed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnalyseError {
    /// The record does not replay.
    #[error(transparent)]
    Replay(#[from] signalbox_engine::coe::ReplayError),
    /// The record stops before the game is over.
    #[error(
        "{file}: field `moves`: the record stops at turn {turn} before the game is over (after {moves} moves); a review needs the whole game"
    )]
    Unfinished {
        /// The file.
        file: String,
        /// The turn it stops in, from 1.
        turn: usize,
        /// How many moves it holds.
        moves: usize,
    },
}

/// What a solve found for one position: its value (best found), its bound, whether proven, and
/// the line from it.
#[derive(Clone, Debug)]
struct Known {
    value: u32,
    upper: u32,
    proven: bool,
    line: Vec<Move>,
}

impl Known {
    fn of(s: Solved) -> Known {
        Known { value: s.score, upper: s.upper_bound, proven: s.proven, line: s.line }
    }

    /// What is known of the position after the line's first move: the rest of the line.
    fn tail(&self) -> Known {
        Known { value: self.value, upper: self.upper, proven: self.proven, line: self.line[1..].to_vec() }
    }
}

/// The decision's kind, in a few words.
pub fn kind(game: &Game<'_>, mv: Move) -> String {
    use signalbox_engine::coe::game::Pending;
    match mv {
        Move::Start { .. } => "start space".into(),
        Move::Gain { die, .. } | Move::Place { die, .. } | Move::Worker { die } => signalbox_engine::coe::die_name(die),
        Move::Chain { .. } => "red chain".into(),
        Move::Take { .. } => "white gain".into(),
        Move::Return { .. } => "overflow return".into(),
        Move::Pass => match game.pending() {
            Some(Pending::Red) => "red chain".into(),
            Some(Pending::White) => "white gain".into(),
            _ => "pass".into(),
        },
    }
}

/// The workers a die's use pays and whether it takes the free shift (ruling A8), as the engine
/// plays it: `(0, false)` for other moves.
pub fn workers_spent(game: &Game<'_>, mv: Move) -> (u8, bool) {
    let (die, face, free_shift) = match mv {
        Move::Gain { die, face, free_shift, .. } | Move::Place { die, face, free_shift, .. } => (die, face, free_shift),
        _ => return (0, false),
    };
    let Some(shows) = game.dice()[usize::from(die)] else { return (0, false) };
    let steps = turn_steps(shows, face);
    let free = steps > 0 && free_shift.unwrap_or(true) && game.free_shift_open();
    (steps - u8::from(free), free)
}

/// Where the labels start, in points of final score: a rank is four points wide (Journeyman
/// 26 to 29, Expert 30 to 33), so a blunder costs a whole rank and a mistake half of one; half
/// a point, the smallest loss an estimate tells apart, is an inaccuracy
/// (`docs/formats/analysis.md`).
pub const THRESHOLDS: Thresholds = Thresholds { inaccuracy: 0.5, mistake: 2.0, blunder: 4.0 };

/// The text of the measure's hindsight sentence.
pub const HINDSIGHT: &str = "These values know the future: every die still to roll and every card still to come \
(hindsight). A loss is what the seed allowed, not what the player could see at the table.";

/// Analyses a whole game: the record must replay and reach the end of the game. `progress` is
/// called with the number of decisions done after each.
pub fn analyse(
    catalogue: &Catalogue,
    record: &Record,
    file: &str,
    options: AnalyseOptions,
    progress: &dyn Fn(usize),
) -> Result<Analysed, AnalyseError> {
    let (end, score) = record.replay(catalogue, file)?;
    if !end.is_over() {
        return Err(AnalyseError::Unfinished {
            file: file.to_owned(),
            turn: end.turn() + 1,
            moves: record.moves.len(),
        });
    }
    if !record.instance.is_dealt() {
        return Ok(analyse_table(catalogue, record, file, options, progress));
    }
    let rules = record.rules.to_rules(&record.instance).expect("the record replayed, so its rules are legal");
    let instance = &record.instance;
    // The positions before each decision, then the end.
    let mut positions = vec![Game::new(catalogue, instance, rules)];
    for &mv in &record.moves {
        let mut next = positions.last().expect("the start").clone();
        next.play_unchecked(mv);
        positions.push(next);
    }
    let mut searches = 0usize;
    let mut known: Vec<Known> = Vec::with_capacity(positions.len());
    let tables = Tables::new();
    for (i, game) in positions.iter().enumerate() {
        let k = if game.is_over() {
            let s = game.score().total();
            Known { value: s, upper: s, proven: true, line: Vec::new() }
        } else if !options.reuse {
            searches += 1;
            Known::of(solve_reusing(game, options.solve, &Tables::new(), None))
        } else if let Some(prev) = i.checked_sub(1).map(|j| &known[j]) {
            let mut best_after = positions[i - 1].clone();
            best_after.play_unchecked(prev.line[0]);
            if best_after.key() == game.key() {
                prev.tail()
            } else {
                searches += 1;
                Known::of(solve_reusing(game, options.solve, &tables, prev.proven.then_some(prev.value)))
            }
        } else {
            searches += 1;
            Known::of(solve_reusing(game, options.solve, &tables, None))
        };
        // The game played is a line from every position of it: a search a limit stopped never
        // values a position below the score the game went on to reach.
        let reached = score.total();
        let k = if k.value < reached {
            Known {
                value: reached,
                upper: k.upper.max(reached),
                proven: k.upper <= reached,
                line: record.moves[i..].to_vec(),
            }
        } else {
            k
        };
        known.push(k);
        if i > 0 {
            progress(i);
        }
    }
    let fair = options.fair_samples.map(|n| {
        crate::threads::install(options.solve.threads, || fair_values(&positions, &record.moves, n, fair::HORIZON))
    });
    let mut decisions = Vec::with_capacity(record.moves.len());
    let mut best_moves = Vec::with_capacity(record.moves.len());
    for (i, &mv) in record.moves.iter().enumerate() {
        let (game, after) = (&positions[i], &positions[i + 1]);
        let (before, after_known) = (&known[i], &known[i + 1]);
        let best_mv = *before.line.first().expect("a game not over has a line of at least one move");
        // A time limit may leave the value before below what the move played reaches: the best
        // found is then the move played.
        let (value_before, best) =
            if after_known.value >= before.value { (after_known.value, mv) } else { (before.value, best_mv) };
        let (spent, free) = workers_spent(game, mv);
        let choice =
            |m: Move| Choice { text: m.to_string(), moves: serde_json::to_value(m).expect("a move serialises") };
        let details = json!({
            "dice": game.dice(),
            "workers_before": game.workers(),
            "workers_spent": spent,
            "free_shift": free,
            "legal_moves": game.legal_moves().len(),
            "score_before": game.score().total(),
            "score_after": after.score().total(),
            "upper_bound_before": before.upper.max(value_before),
            "upper_bound_after": after_known.upper.max(after_known.value),
        });
        decisions.push(Decision {
            index: i + 1,
            turn: game.turn() + 1,
            player: 0,
            kind: kind(game, mv),
            played: choice(mv),
            best: choice(best),
            value_before: f64::from(value_before),
            value_after: f64::from(after_known.value),
            best_value_after: f64::from(value_before),
            loss: Decision::loss_of(Better::Higher, f64::from(value_before), f64::from(after_known.value)),
            proven: before.proven && after_known.proven,
            ranges: (!(before.proven && after_known.proven)).then(|| Ranges {
                before: Range { low: f64::from(value_before), high: Some(f64::from(before.upper.max(value_before))) },
                after: Range {
                    low: f64::from(after_known.value),
                    high: Some(f64::from(after_known.upper.max(after_known.value))),
                },
                estimated: false,
            }),
            label: None,
            fair_play: fair.as_ref().map(|f| f.decisions[i].clone()),
            details,
        });
        best_moves.push(best);
    }
    let start_value = known.first().map(|k| k.value);
    let measure = Measure {
        name: "best final score reachable".into(),
        unit: "points".into(),
        better: Better::Higher,
        assumes: HINDSIGHT.into(),
        thresholds: THRESHOLDS,
    };
    let title = match instance.seed {
        Some(seed) => format!("The Cubes of Europe · seed {seed} · final score {}", score.total()),
        None => format!("The Cubes of Europe · {file} · final score {}", score.total()),
    };
    let mut review = Review::new("coe", title, vec!["player".into()], measure, decisions);
    let maximum = start_value.unwrap_or(score.total());
    let proven = review.summary.proven;
    review.facts = vec![
        format!("final score {score}"),
        format!(
            "the seed's {} maximum: {maximum} ({}); the game reached {} of it, {} below",
            if proven { "proven" } else { "best found (not proven)" },
            rank_of(maximum),
            score.total(),
            maximum.saturating_sub(score.total())
        ),
        format!(
            "{} of {} decisions lost nothing",
            review.summary.players[0].lost_nothing, review.summary.players[0].decisions
        ),
    ];
    if fair.is_some() {
        let split = crate::threads::install(options.solve.threads, || {
            fair_split(catalogue, &positions, &record.moves, options.fair_samples.unwrap_or(0))
        });
        review.facts.push(split_in_words(&split));
        review.fair_play = Some(split);
    }
    let point = |x: usize, y: f64| Point { x: x as f64, y, low: None, high: None };
    review.charts = vec![Chart {
        title: "Best final score reachable after each decision".into(),
        axis: Axis::Decision,
        x_label: "decision (0: the start)".into(),
        y_label: "points".into(),
        series: vec![
            Series {
                name: "best final score reachable".into(),
                player: Some(0),
                points: review
                    .decisions
                    .first()
                    .map(|d| point(0, d.value_before))
                    .into_iter()
                    .chain(review.decisions.iter().map(|d| point(d.index, d.value_after)))
                    .collect(),
            },
            score_series(&review),
        ],
    }];
    if let Some(f) = &fair {
        review.charts[0].series.push(Series { name: "fair-play value".into(), player: None, points: f.points() });
    }
    Ok(Analysed { review, best: best_moves, searches })
}

/// The text of the measure's sentence for a game played at the table.
pub const TABLE: &str = "These values do not know the future: each is the expected final score over every die and \
card still to come, with the best play after (exact in the last two turns, otherwise estimated by playouts with a \
95% interval). They use only what the table saw, so a loss is what the player could have seen.";

/// The review of a game played at the table (its instance is no seed's deal, so only what the
/// table saw of it counts, [`Instance::is_dealt`]): every
/// decision valued by the fair-play value alone (ruling F6), from the record as the table saw
/// it ([`Record::seen`]), so nothing that was never seen can change it. `options.fair_samples`
/// gives the playouts per estimate (32 when `None`).
fn analyse_table(
    catalogue: &Catalogue,
    record: &Record,
    file: &str,
    options: AnalyseOptions,
    progress: &dyn Fn(usize),
) -> Analysed {
    let seen = record.seen(catalogue).unwrap_or_else(|| record.clone());
    let rules = seen.rules.to_rules(&seen.instance).unwrap_or_default();
    let mut positions = vec![Game::new(catalogue, &seen.instance, rules)];
    for &mv in &seen.moves {
        let mut next = positions.last().expect("the start").clone();
        next.play_unchecked(mv);
        positions.push(next);
    }
    let samples = options.fair_samples.unwrap_or(32);
    let fair =
        crate::threads::install(options.solve.threads, || fair_values(&positions, &seen.moves, samples, fair::HORIZON));
    progress(seen.moves.len());
    let score = positions.last().expect("the end").score();
    let choice = |m: Move| Choice { text: m.to_string(), moves: serde_json::to_value(m).expect("a move serialises") };
    let mut decisions = Vec::with_capacity(seen.moves.len());
    let mut best_moves = Vec::with_capacity(seen.moves.len());
    for (i, &mv) in seen.moves.iter().enumerate() {
        let (game, after) = (&positions[i], &positions[i + 1]);
        let f = &fair.decisions[i];
        let best = if f.loss > 0.0 { fair.best_moves[i].unwrap_or(mv) } else { mv };
        let (spent, free) = workers_spent(game, mv);
        let details = json!({
            "dice": game.dice(),
            "workers_before": game.workers(),
            "workers_spent": spent,
            "free_shift": free,
            "legal_moves": game.legal_moves().len(),
            "score_before": game.score().total(),
            "score_after": after.score().total(),
            "half_width": f.half_width,
        });
        decisions.push(Decision {
            index: i + 1,
            turn: game.turn() + 1,
            player: 0,
            kind: kind(game, mv),
            played: choice(mv),
            best: choice(best),
            value_before: f.best,
            value_after: f.played,
            best_value_after: f.best,
            loss: f.loss,
            proven: f.exact,
            ranges: (!f.exact).then_some(Ranges {
                before: Range { low: f.best - f.half_width, high: Some(f.best + f.half_width) },
                after: Range { low: f.played - f.half_width, high: Some(f.played + f.half_width) },
                estimated: true,
            }),
            label: None,
            fair_play: Some(f.clone()),
            details,
        });
        best_moves.push(best);
    }
    let measure = Measure {
        name: "expected final score".into(),
        unit: "points".into(),
        better: Better::Higher,
        assumes: TABLE.into(),
        thresholds: THRESHOLDS,
    };
    let title = format!("The Cubes of Europe · {file} · final score {}", score.total());
    let mut review = Review::new("coe", title, vec!["player".into()], measure, decisions);
    let split =
        crate::threads::install(options.solve.threads, || fair_split(catalogue, &positions, &seen.moves, samples));
    review.facts = vec![
        format!("final score {score}"),
        format!(
            "{} of {} decisions lost nothing by the expected final score",
            review.summary.players[0].lost_nothing, review.summary.players[0].decisions
        ),
        split_in_words(&split),
    ];
    review.fair_play = Some(split);
    review.charts = vec![Chart {
        title: "Expected final score after each decision".into(),
        axis: Axis::Decision,
        x_label: "decision (0: the start)".into(),
        y_label: "points".into(),
        series: vec![
            Series { name: "expected final score".into(), player: Some(0), points: fair.points() },
            score_series(&review),
        ],
    }];
    Analysed { review, best: best_moves, searches: 0 }
}

/// The skill and luck split of a game (`positions[i]` before `moves[i]`, then the end), turn by
/// turn, by one value: the expected final score when the playout player plays on
/// ([`fair::playout_expectation`], exact in the last turns). A turn's skill is the value after
/// its decisions less the value of the turn the playout player would have played; the luck of
/// the chance that opens a turn is the value after it (the playout player's turn from there)
/// less the value before it (of the position the turn before ended in), which is zero in
/// expectation. So every turn adds up exactly, and the game does:
/// `final = expected at the start + skill + luck`.
fn fair_split(catalogue: &Catalogue, positions: &[Game<'_>], moves: &[Move], samples: usize) -> FairSplit {
    let segment = |g: &Game<'_>| (g.turn(), g.is_started());
    // The turns: their first and last decisions (from 0).
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for i in 0..moves.len() {
        match spans.last_mut() {
            Some(span) if segment(&positions[span.0]) == segment(&positions[i]) => span.1 = i,
            _ => spans.push((i, i)),
        }
    }
    let valued: Vec<(fair::Estimate, fair::Estimate)> = spans
        .par_iter()
        .map(|&(a, b)| {
            let s = &positions[a];
            (fair::playout_value(s, samples), fair::playout_expectation(s, &moves[a..=b], samples))
        })
        .collect();
    let mut turns: Vec<TurnSplit> = Vec::with_capacity(spans.len());
    for (k, (&(a, b), (reference, played))) in spans.iter().zip(&valued).enumerate() {
        let game = &positions[a];
        let expected = if k == 0 { reference.mean } else { turns[k - 1].value_after };
        turns.push(TurnSplit {
            turn: if game.is_started() { game.turn() + 1 } else { 0 },
            chance: if a == 0 { String::new() } else { chance_words(catalogue, &positions[a - 1], game) },
            expected,
            luck: reference.mean - expected,
            skill: played.mean - reference.mean,
            value_after: played.mean,
            decisions: [a + 1, b + 1],
            exact: reference.samples == 0 && played.samples == 0,
        });
    }
    let final_score = positions.last().map_or(0.0, |g| f64::from(g.score().total()));
    if let Some(last) = turns.last_mut() {
        // The game is over after the last turn: its value is the final score.
        last.value_after = final_score;
    }
    FairSplit {
        final_score,
        expected_at_start: turns.first().map_or(final_score, |t| t.expected),
        skill: turns.iter().map(|t| t.skill).sum(),
        luck: turns.iter().map(|t| t.luck).sum(),
        samples,
        exact: turns.iter().all(|t| t.exact),
        turns,
    }
}

/// What chance gave between two positions, the second at a turn's start: the roll, and the
/// cards that came up in the market.
fn chance_words(catalogue: &Catalogue, before: &Game<'_>, after: &Game<'_>) -> String {
    let dice: Vec<u8> = after.dice().iter().flatten().copied().collect();
    let mut words = match dice[..] {
        [a, b] => format!("rolled {a} and {b}"),
        _ => String::from("no roll"),
    };
    let [top, _] = after.market();
    if let Some(card) = top.filter(|&c| before.market()[0] != Some(c) && !before.discard().contains(&c)) {
        let name = catalogue.card(card).map_or_else(|| format!("card {card}"), |c| format!("card {card}, {}", c.name));
        words.push_str(&format!("; {name} came up"));
    }
    if after.is_reshuffled() && !before.is_reshuffled() {
        words.push_str("; the cards were reshuffled");
    }
    words
}

/// The chart's line of the score so far: 0 at the start, then after each decision.
fn score_series(review: &Review) -> Series {
    let point = |x: usize, y: f64| Point { x: x as f64, y, low: None, high: None };
    Series {
        name: "score so far".into(),
        player: None,
        points: std::iter::once(point(0, 0.0))
            .chain(review.decisions.iter().map(|d| point(d.index, d.details["score_after"].as_f64().unwrap_or(0.0))))
            .collect(),
    }
}

impl FairValues {
    /// The fair-play value at the start and after each decision, as a chart's points with the
    /// 95% interval of each estimate.
    fn points(&self) -> Vec<Point> {
        let interval = |x: usize, y: f64, h: f64| {
            let (low, high) = if h > 0.0 { (Some(y - h), Some(y + h)) } else { (None, None) };
            Point { x: x as f64, y, low, high }
        };
        std::iter::once(interval(0, self.start, self.start_half_width))
            .chain(self.decisions.iter().enumerate().map(|(i, p)| interval(i + 1, p.played, p.half_width)))
            .collect()
    }
}

/// The fair-play values of a played game's decisions (ruling F6).
struct FairValues {
    /// Per decision.
    decisions: Vec<FairPlay>,
    /// Per decision, the best move by the fair-play value (`None` where the turn's end is the
    /// position itself).
    best_moves: Vec<Option<Move>>,
    /// The value of the start, and the half-width of its interval.
    start: f64,
    start_half_width: f64,
}

/// The fair-play value of every decision of a game: `positions[i]` is the position before move
/// `moves[i]` (ruling F6). Each turn's endings are valued once from the turn's first position
/// (exactly within `horizon` turns of the end, else by `samples` playouts each); a position
/// within the turn is worth the best of the endings it can still reach, found by their keys.
/// Where the values are estimates, the best ending is chosen on those playouts and valued, like
/// the ending played, on `samples` fresh ones, the same for both (so the choice's luck does not
/// count as the player's loss, and the two are compared on the same dice and cards).
fn fair_values(positions: &[Game<'_>], moves: &[Move], samples: usize, horizon: usize) -> FairValues {
    use rustc_hash::FxHashMap;
    let blind = Blind::of(&positions[0]);
    let mut table: FxHashMap<u128, fair::Valued> = FxHashMap::default();
    let mut fresh: FxHashMap<u128, (f64, f64)> = FxHashMap::default();
    let mut segment: Option<(usize, bool)> = None;
    let mut first = blind.game(&positions[0]);
    let mut out = Vec::with_capacity(moves.len());
    let mut best_moves = Vec::with_capacity(moves.len());
    let mut start = (0.0, 0.0);
    for (i, (p, &mv)) in positions.iter().zip(moves).enumerate() {
        let bp = blind.game(p);
        let id = (bp.turn(), bp.is_started());
        if segment != Some(id) {
            segment = Some(id);
            table = fair::value_outcomes(&blind, &bp, horizon, samples).into_iter().collect();
            fresh.clear();
            first = bp.clone();
        }
        // The value of an ending (by its key): exact, or on fresh playouts.
        let mut value = |key: u128| -> Option<(f64, f64, bool)> {
            let v = table.get(&key)?;
            if v.exact {
                return Some((v.value, 0.0, true));
            }
            let (m, h) = *fresh.entry(key).or_insert_with(|| {
                let e = fair::rollouts_in(&first, &v.line, samples..2 * samples);
                (e.mean, e.half_width)
            });
            Some((m, h, false))
        };
        // The best ending reachable from `g`, chosen by the table: its key and first move.
        let chosen = |g: &Game<'_>| -> Option<(u128, Option<Move>)> {
            let mut best: Option<(f64, u128, Option<Move>)> = None;
            for (end, line) in turn_outcomes(g) {
                if let Some(v) = table.get(&end.key())
                    && best.is_none_or(|b| v.value > b.0 + 1e-12)
                {
                    best = Some((v.value, end.key(), line.first().copied()));
                }
            }
            best.map(|(_, k, m)| (k, m))
        };
        let score = |g: &Game<'_>| (f64::from(g.score().total()), 0.0, true);
        let best_choice = chosen(&bp);
        let before = best_choice.and_then(|(k, _)| value(k)).unwrap_or_else(|| score(&bp));
        if i == 0 {
            start = (before.0, before.1);
        }
        let mut after = bp.clone();
        after.play_unchecked(mv);
        let ended = after.is_over() || after.turn() != bp.turn() || after.is_started() != bp.is_started();
        let key_after = if ended { Some(after.key()) } else { chosen(&after).map(|(k, _)| k) };
        let played = key_after.and_then(&mut value).unwrap_or_else(|| score(&after));
        best_moves.push(best_choice.and_then(|(_, m)| m));
        out.push(FairPlay {
            played: played.0,
            best: before.0,
            loss: Decision::loss_of(Better::Higher, before.0, played.0),
            best_move: best_choice.and_then(|(_, m)| m).map(|m| m.to_string()),
            exact: before.2 && played.2,
            half_width: before.1.max(played.1),
        });
    }
    FairValues { decisions: out, best_moves, start: start.0, start_half_width: start.1 }
}

/// How many turns the sample player slips on.
pub const SAMPLE_MISTAKES: usize = 3;

/// The seed of the embedded sample game.
pub const SAMPLE_SEED: u64 = 1;

/// A whole game of `seed` under `rules` played by the deliberately imperfect sample player (the
/// embedded sample: [`SAMPLE_SEED`], default rules), a plausible player's game: every turn the
/// fair policy's ([`fair::choose_turn`], which sees only what a player sees), except on
/// [`SAMPLE_MISTAKES`] turns drawn from the seed (ChaCha8 seeded with the seed; turns 2 to the
/// last but one of the fair policy's own game), where it slips: it plays one of the three other endings of the turn that the
/// playout evaluation ([`fair::evaluate`]) rates highest (drawn from the same generator; ties in
/// the engine's order).
pub fn sample_record(catalogue: &Catalogue, seed: u64, rules: Rules) -> Record {
    let instance = Instance::from_seed(seed);
    let mut game = Game::new(catalogue, &instance, rules);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // The turns the fair policy's own game lasts, to draw the slips from.
    let turns = fair::play_out(&game, fair::Policy::Fair, fair::HORIZON, seed).1.turn().max(3);
    let slips: Vec<usize> =
        sample(&mut rng, turns - 2, SAMPLE_MISTAKES.min(turns - 2)).into_iter().map(|i| i + 1).collect();
    let mut policy_rng = fair::rng(seed);
    let mut moves: Vec<Move> = Vec::new();
    let mut turn = 0usize;
    while !game.is_over() {
        let mut line = fair::choose_turn(&game, fair::Policy::Fair, fair::HORIZON, &mut policy_rng);
        if line.is_empty() {
            break;
        }
        if slips.contains(&turn) {
            let blind = Blind::of(&game);
            let bg = blind.game(&game);
            let mut others: Vec<(f64, Vec<Move>)> = turn_outcomes(&bg)
                .into_iter()
                .filter(|(_, l)| *l != line)
                .map(|(g, l)| (fair::evaluate(&g, &fair::WEIGHTS), l))
                .collect();
            others.sort_by(|a, b| b.0.total_cmp(&a.0));
            others.truncate(3);
            if !others.is_empty() {
                line = others.swap_remove(rng.random_range(0..others.len())).1;
            }
        }
        for mv in line {
            game.play_unchecked(mv);
            moves.push(mv);
        }
        turn += 1;
    }
    let mut record = Record::new(instance.clone(), rules, moves);
    record.score = Some(game.score().total());
    record
}

/// The skill and luck split in one sentence: the expectation at the start, the skill, the luck,
/// and the final score as their sum, with what each measures.
fn split_in_words(split: &FairSplit) -> String {
    format!(
        "skill and luck: {} = {:.2} expected at the start{} {:+.2} skill {:+.2} luck. All three are the expected final score \
         when a reference player plays on (it picks each turn by a quick estimate of the final score, the last turn \
         exactly): skill is what the decisions made of it against the turns that player would have played, luck what \
         the rolls and cards made of it (zero on average)",
        split.final_score,
        split.expected_at_start,
        if split.exact { "" } else { " (estimated)" },
        split.skill,
        split.luck,
    )
}
