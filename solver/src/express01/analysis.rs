//! The review of a played Express 01 game (issue 18, "Analysis"): every turn of the record with
//! the best turn by the evaluation of ruling A1 (`docs/rules/express-01.md`: the mover's capital
//! less the strongest opponent's at the end of the turn, [`evaluation`]), the played turn's value
//! by the same evaluation, the loss, each bonus payment checked against the best route, and the
//! capitals over the game. It fills the shared [`Review`] (`solver::analysis`).
//!
//! Each complete turn is a decision of kind `turn`. The value of a turn is the evaluation of the
//! game just before the step that ends it (the `done` or `swap`), for the mover: the end of the
//! turn, before the next round's government aid. `value_before` is the best turn's value (the
//! search of [`super::turn`], within [`AnalysisOptions::states`] states a turn and the time
//! limit); `best_value_after` is that turn replayed with every rule checked and valued again;
//! `value_after` is the played turn's value. A search cut short is marked not proven; when the
//! played turn is worth more than the best found, the played turn is the best.
//!
//! Every hand and the order of every deck are known to the search, as after the game (ruling
//! G15); the review says so ([`measure`]).
//!
//! The last round of a finished game is searched exactly from its first turn
//! ([`Analysis::last_round`], `super::last_round`, max^n): the line, the final capitals and the
//! winners, beside what was played; in the facts and in that turn's `details.last_round`.
//!
//! The sample game ([`sample_record`]) is a self-played game with mistakes: every turn the greedy
//! policy's (S2), except every [`SAMPLE_MISTAKE_EVERY`]-th turn, which is random (S1).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rand::seq::IndexedRandom;
use serde_json::json;
use signalbox_engine::express01::card::CardNumber;
use signalbox_engine::express01::catalogue::Catalogue;
use signalbox_engine::express01::game::{Game, GameError, Phase, Step};
use signalbox_engine::express01::position::Position;
use signalbox_engine::express01::record::{Record, RecordError, Recorder, StartSetup, replay};
use signalbox_engine::express01::round::Length;
use signalbox_engine::express01::route::RouteTask;

use super::route::{SearchOptions, best_routes};
use super::selfplay::{BestRoute, MAX_ROUNDS, Policy, play_out, policy_rng};
use super::turn::{Limit, best_turns};
use super::turn::{TurnAnswer, ends_turn, evaluation};
use crate::analysis::{
    Axis, Better, Chart, Choice, Decision, Measure, Point, Range, Ranges, Review, Series, Thresholds,
};

/// Where the labels start, in capital points of the lead: games are won by a few points, so
/// one point given away is an inaccuracy, three a mistake and six, about a third of a winner's
/// capital, a blunder (`docs/formats/analysis.md`).
pub const THRESHOLDS: Thresholds = Thresholds { inaccuracy: 1.0, mistake: 3.0, blunder: 6.0 };

/// The states the best-turn search visits a turn by default: about two seconds on one core of
/// the reference machine, and the same cut on every machine.
pub const DEFAULT_STATES: u64 = 400_000;

/// How the turns are searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalysisOptions {
    /// At most this many states a turn (`None`: no cap). The review is the same on every machine
    /// and thread count as long as no time limit cuts a search first.
    pub states: Option<u64>,
    /// At most this long a turn (a search cut by it depends on the machine's speed).
    pub time_limit: Option<Duration>,
    /// Threads (turns are searched side by side); `None`: one per core.
    pub threads: Option<usize>,
}

impl Default for AnalysisOptions {
    fn default() -> AnalysisOptions {
        AnalysisOptions { states: Some(DEFAULT_STATES), time_limit: None, threads: None }
    }
}

/// Why a record could not be analysed.
#[derive(Clone, Debug, thiserror::Error)]
pub enum AnalysisError {
    /// The record does not replay (the turn and the step named, with the rule).
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The best turn found does not replay with every rule checked, or not to its value: a solver
    /// bug, reported.
    #[error("turn {turn}: the best turn found does not check: {message}")]
    Certificate {
        /// The turn, from 1.
        turn: usize,
        /// What failed.
        message: String,
    },
    /// The sample game could not be set up.
    #[error("the sample game: {0}")]
    Sample(String),
}

/// One complete turn of a record: the game at its start and its steps.
#[derive(Clone, Debug)]
pub struct PlayedTurn<'c> {
    /// The game at the start of the turn (`Phase::Pair`).
    pub before: Game<'c>,
    /// The steps, the last one ending the turn.
    pub steps: Vec<Step>,
    /// The steps as the record writes them.
    pub texts: Vec<String>,
    /// For each step, the card it drew as the record tells it (a game from the table, ruling
    /// T2), so that the turn replays with the cards that came.
    pub told: Vec<Option<CardNumber>>,
}

/// The exact last round of a finished game, as the last-round search reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct LastRound {
    /// The index (from 0) of the first turn of the last round among the review's decisions.
    pub first_turn: usize,
    /// What the search says of it, in its own words and JSON.
    pub details: serde_json::Value,
}

/// The review of a game and what it was computed from, for the pictures of its turning points.
#[derive(Clone, Debug)]
pub struct Analysis<'c> {
    /// The review.
    pub review: Review,
    /// Each complete turn as played.
    pub turns: Vec<PlayedTurn<'c>>,
    /// The game after the last complete turn.
    pub end: Game<'c>,
    /// Each turn's best turn (the played turn when it is worth at least the best found).
    pub best: Vec<Vec<Step>>,
    /// The exact last round (`None` when the game did not end).
    pub last_round: Option<LastRound>,
}

/// What a review or an advice assumes of a game from the table (rulings T1-T3): the hands as
/// entered, the face-down cards' order never seen.
pub const TABLE_ASSUMES: &str = "A game from the table: every hand is known as entered (see “Every hand is entered” in docs/rules/express-01.md); the order of the face-down \
     cards of each deck was never seen and the answer does not depend on it (see “Answers never depend on what was never seen” in docs/rules/express-01.md): a turn's value counts the cards in \
     a hand, not which cards, and the cards a bonus payment draws come after everything the turn can still do, so the \
     value of a turn is exact, the same for every order of the cards never seen (its expectation over them); the exact \
     last round takes the expectation over every card that could come where a later turn could use it; the West's card \
     drawn face down in the same turn is taken in number order, one completion of what was never seen, the same \
     whatever order the file gives, and where a turn through it could beat the best whatever card came, the best is \
     marked not proven with a bound that holds for every card.";

/// What the values of an Express 01 review measure.
pub fn measure(options: &AnalysisOptions) -> Measure {
    measure_for(options, false)
}

/// What the values of an Express 01 review measure, for a game from the table or not.
pub fn measure_for(options: &AnalysisOptions, table: bool) -> Measure {
    let cut = match (options.states, options.time_limit) {
        (Some(n), Some(t)) => format!("each turn's search stops after {n} states or {} s", t.as_secs_f64()),
        (Some(n), None) => format!("each turn's search stops after {n} states"),
        (None, Some(t)) => format!("each turn's search stops after {} s", t.as_secs_f64()),
        (None, None) => "each turn's search runs to the end".to_string(),
    };
    Measure {
        name: "capital lead at the end of the turn".to_string(),
        unit: "capital points".to_string(),
        better: Better::Higher,
        assumes: format!(
            "{} A turn's value is \
             the mover's capital less the strongest opponent's at the end of the turn, before the next round's \
             government aid (see “The evaluation” in docs/rules/express-01.md); the best turn is searched over that turn's choices alone, and {cut} \
             (a search cut short is marked not proven; its loss is against the best turn found).",
            if table {
                TABLE_ASSUMES
            } else {
                "Every hand and the order of every deck are known, as after the game (see “What the engine knows, and what a player sees” in docs/rules/express-01.md)."
            }
        ),
        thresholds: THRESHOLDS,
    }
}

/// The complete turns of `record` (replayed with every rule checked), and the game after the
/// last of them. A record whose last turn is unfinished ends with the turn before it.
pub fn turns_of<'c>(
    file: &str,
    record: &Record,
    catalogue: &'c Catalogue,
) -> Result<(Vec<PlayedTurn<'c>>, Game<'c>), AnalysisError> {
    let mut turns: Vec<PlayedTurn<'c>> = Vec::new();
    let replayed = replay(file, record, catalogue, &BestRoute, &mut |g, step| {
        if *g.phase() == Phase::Pair {
            turns.push(PlayedTurn { before: g.clone(), steps: Vec::new(), texts: Vec::new(), told: Vec::new() });
        }
        if let Some(t) = turns.last_mut() {
            t.steps.push(step);
            // At the table the card told lies on top of its deck when the draw is checked.
            let told = match step {
                Step::Draw(d) if g.is_table() => g.decks().get(d).and_then(|deck| deck.top()),
                _ => None,
            };
            t.told.push(told);
        }
    })?;
    for (t, r) in turns.iter_mut().zip(&record.turns) {
        t.texts.clone_from(&r.steps);
    }
    let mut end = replayed.game;
    if !end.is_over() && *end.phase() != Phase::Pair {
        // The last turn is unfinished: the review stops at its start.
        if let Some(open) = turns.pop() {
            end = open.before;
        }
    }
    Ok((turns, end))
}

/// The game just before the last step of `steps` played from `before`, and the game after all of
/// them, every step checked; or the first step that is refused.
fn play_turn<'c>(
    before: &Game<'c>,
    steps: &[Step],
    told: &[Option<CardNumber>],
) -> Result<(Game<'c>, Game<'c>), String> {
    let mut g = before.clone();
    let mut last = g.clone();
    for (i, &s) in steps.iter().enumerate() {
        if i > 0 && ends_turn(&last, &g) {
            return Err(format!("the turn ends before step {}", i + 1));
        }
        last = g.clone();
        let text = g.describe(s);
        if let (Step::Draw(d), Some(Some(card))) = (s, told.get(i)) {
            g.reveal(d, *card).map_err(|e| format!("step {} `{text}`: {e}", i + 1))?;
        }
        g.play(s, &BestRoute).map_err(|e| format!("step {} `{text}`: {e}", i + 1))?;
    }
    if steps.is_empty() || !ends_turn(&last, &g) {
        return Err("the steps do not end the turn".to_string());
    }
    Ok((last, g))
}

/// One turn analysed.
struct TurnReview {
    answer: TurnAnswer,
}

/// The review of `record` (`file` names it in messages), each turn's search within `options`.
/// `progress` is told each time a turn has been searched (how many so far).
pub fn analyse<'c>(
    file: &str,
    record: &Record,
    catalogue: &'c Catalogue,
    options: &AnalysisOptions,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Analysis<'c>, AnalysisError> {
    use rayon::prelude::*;
    let (turns, end) = turns_of(file, record, catalogue)?;
    let done = AtomicUsize::new(0);
    let searched: Vec<TurnReview> = crate::threads::install(options.threads, || {
        turns
            .par_iter()
            .map(|t| {
                let limit = Limit { states: options.states, deadline: options.time_limit.map(|d| Instant::now() + d) };
                let answer = best_turns(&t.before, &BestRoute, 1, limit);
                progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                TurnReview { answer }
            })
            .collect()
    });
    assemble(file, record, turns, end, searched, options)
}

fn assemble<'c>(
    file: &str,
    record: &Record,
    turns: Vec<PlayedTurn<'c>>,
    end: Game<'c>,
    searched: Vec<TurnReview>,
    options: &AnalysisOptions,
) -> Result<Analysis<'c>, AnalysisError> {
    let names: Vec<String> = end.seats().iter().map(|s| s.name.clone()).collect();
    let capitals_of = |g: &Game<'_>| (0..g.seats().len()).map(|p| g.capital(p).total()).collect::<Vec<u32>>();
    let mut decisions = Vec::with_capacity(turns.len());
    let mut best_turns = Vec::with_capacity(turns.len());
    // The capitals at the start, then at the end of each turn (as the evaluation counts them).
    let mut capitals: Vec<Vec<u32>> = vec![turns.first().map_or_else(|| capitals_of(&end), |t| capitals_of(&t.before))];
    for (t, (turn, review)) in turns.iter().zip(searched).enumerate() {
        let before = &turn.before;
        let mover = before.mover();
        let certificate = |message: String| AnalysisError::Certificate { turn: t + 1, message };
        let (played_end, _) =
            play_turn(before, &turn.steps, &turn.told).map_err(|m| certificate(format!("the played turn: {m}")))?;
        let played_value = evaluation(&played_end, mover);
        let found = review.answer.best();
        if review.answer.proven && played_value > found.value {
            return Err(certificate(format!(
                "the played turn is worth {played_value}, more than the proven best {}",
                found.value
            )));
        }
        // The best turn searched takes a card nobody has seen in number order (T3); the played
        // turn, the cards that came.
        let (best, told, best_value) = if played_value >= found.value || found.steps.is_empty() {
            (turn.steps.clone(), turn.told.clone(), played_value)
        } else {
            (found.steps.clone(), Vec::new(), found.value)
        };
        let (best_end, _) = play_turn(before, &best, &told).map_err(certificate)?;
        let best_replayed = evaluation(&best_end, mover);
        if best_replayed != best_value {
            return Err(certificate(format!("the search valued it {best_value}, the engine {best_replayed}")));
        }
        let best_texts = before.describe_steps(&best).0;
        let after_capitals = capitals_of(&played_end);
        capitals.push(after_capitals.clone());
        decisions.push(Decision {
            index: t + 1,
            turn: t + 1,
            player: mover,
            kind: "turn".to_string(),
            played: Choice { text: turn.texts.join(", "), moves: json!(turn.texts) },
            best: Choice { text: best_texts.join(", "), moves: json!(best_texts) },
            value_before: f64::from(best_value),
            value_after: f64::from(played_value),
            best_value_after: f64::from(best_replayed),
            loss: Decision::loss_of(Better::Higher, f64::from(best_value), f64::from(played_value)),
            proven: review.answer.proven,
            // Unproven, the best turn lies between the best found and the search's bound; the
            // turn played is valued exactly.
            ranges: (!review.answer.proven).then(|| Ranges {
                before: Range {
                    low: f64::from(best_value),
                    high: Some(f64::from(review.answer.bound.max(best_value))),
                },
                after: Range::exact(f64::from(played_value)),
                estimated: false,
            }),
            label: None,
            fair_play: None,
            details: json!({
                "round": before.round(),
                "turn_in_round": before.turn(),
                "capitals": after_capitals,
                "end_reached": played_end.end_reached(),
                "bound": review.answer.bound.max(best_value),
                "bonus": bonus_check(before, &turn.steps),
            }),
        });
        best_turns.push(best);
    }
    let from = record.start.as_ref().map_or_else(
        || if end.is_table() { "from the table".to_string() } else { "from a position".to_string() },
        |s| format!("seed {}", s.seed),
    );
    let title =
        format!("{file} · {} players, {} {} game, {from}", names.len(), end.map().id, end.rules().length.name());
    let mut review = Review::new("express01", title, names.clone(), measure_for(options, end.is_table()), decisions);
    review.charts = charts(&names, &capitals, &review);
    review.facts = facts(&end, record, turns.len());
    let last_round = exact_last_round(&turns, &end, &names, options);
    if let Some(l) = &last_round {
        review.facts.push(last_round_fact(l));
        if let Some(d) = review.decisions.get_mut(l.first_turn)
            && let Some(map) = d.details.as_object_mut()
        {
            map.insert("last_round".to_string(), l.details.clone());
        }
    }
    Ok(Analysis { review, turns, end, best: best_turns, last_round })
}

/// The exact last round of a finished game, searched from the start of its last round (max^n,
/// rulings L1-L8), with the same state cap as each turn.
fn exact_last_round(
    turns: &[PlayedTurn<'_>],
    end: &Game<'_>,
    names: &[String],
    options: &AnalysisOptions,
) -> Option<LastRound> {
    let first = last_round_start(turns, end)?;
    let before = &turns[first].before;
    let limit = Limit { states: options.states, deadline: options.time_limit.map(|d| Instant::now() + d) };
    let found = super::last_round::last_round(before, &BestRoute, super::last_round::Opponents::MaxN, limit)?;
    let line: Vec<serde_json::Value> = found
        .in_words(before)
        .into_iter()
        .map(|(seat, words)| json!({ "player": names[seat], "steps": words }))
        .collect();
    let played: Vec<u32> = (0..names.len()).map(|p| end.capital(p).total()).collect();
    let mut details = json!({
            "round": before.round(),
            "opponents": "every player maximises their own final capital",
            "proven": found.proven,
            "states": found.nodes,
            "line": line,
            "finals": found.finals,
            "winners": found.winners.iter().map(|&p| names[p].clone()).collect::<Vec<_>>(),
            "played_finals": played,
            "played_winners": end.winners().iter().map(|&p| names[p].clone()).collect::<Vec<_>>(),
    });
    // Past a card nobody has seen (a game from the table, T3): the expectation.
    if let (Some(expected), Some(words)) = (found.expected(), found.expected_in_words(names)) {
        details["expected_finals"] = json!(expected);
        details["expected_in_words"] = json!(words);
    }
    Some(LastRound { first_turn: first, details })
}

/// The last round in one line of the review's facts.
fn last_round_fact(l: &LastRound) -> String {
    let d = &l.details;
    let list = |v: &serde_json::Value| {
        v.as_array()
            .map(|a| a.iter().map(|x| x.to_string().trim_matches('"').to_string()).collect::<Vec<_>>().join(", "))
            .unwrap_or_default()
    };
    if d["proven"] != true {
        return format!(
            "The exact last round from round {} (every player maximising their own final capital) did not finish within {} states: it proves nothing about \
             the final capitals (as played: {}, {} winning).",
            d["round"],
            d["states"],
            list(&d["played_finals"]),
            list(&d["played_winners"]),
        );
    }
    let mut fact = format!(
        "The exact last round from round {} (every player maximising their own final capital; proven): \
         final capitals {} and {} winning; as played: {} and {}.",
        d["round"],
        list(&d["finals"]),
        list(&d["winners"]),
        list(&d["played_finals"]),
        list(&d["played_winners"]),
    );
    if let Some(words) = d["expected_in_words"].as_str() {
        fact = format!("{fact} {words}");
    }
    fact
}

/// The bonus payment of a turn checked against the best route: the company, the payout paid,
/// the optimum (the best route's payout) and that route's stations; `null` for a turn without
/// one.
fn bonus_check(before: &Game<'_>, steps: &[Step]) -> serde_json::Value {
    let mut g = before.clone();
    for &s in steps {
        if let Step::Bonus { company, engine, payout } = s {
            let network = g.network();
            let task = RouteTask { company, max_cards: g.issued(company), rules: g.rules().route };
            let answer = best_routes(&network, task, &SearchOptions::default());
            let best = answer.routes.first();
            return json!({
                "company": g.company_name(company),
                "with_engine": engine,
                "payout": payout,
                "optimum": best.map(|r| r.payout),
                "optimal": best.is_some_and(|r| r.payout == payout),
                "proven": answer.proven,
                "route_cards": best.map(|r| r.cards),
                "route_stations": best.map(|r| r.stations.iter().map(|&s| network.station_label(s)).collect::<Vec<_>>()),
            });
        }
        g.play_unchecked(s);
    }
    serde_json::Value::Null
}

/// Each player's capital over the turns, and the loss of each turn.
fn charts(names: &[String], capitals: &[Vec<u32>], review: &Review) -> Vec<Chart> {
    let point = |x: usize, y: f64| Point { x: x as f64, y, low: None, high: None };
    let capital = Chart {
        title: "Capital of each player at the end of each turn".to_string(),
        axis: Axis::Turn,
        x_label: "turn (0: the start)".to_string(),
        y_label: "capital".to_string(),
        series: names
            .iter()
            .enumerate()
            .map(|(seat, name)| Series {
                name: name.clone(),
                player: Some(seat),
                points: capitals.iter().enumerate().map(|(x, c)| point(x, f64::from(c[seat]))).collect(),
            })
            .collect(),
    };
    let loss = Chart {
        title: "Loss of each turn".to_string(),
        axis: Axis::Turn,
        x_label: "turn".to_string(),
        y_label: "capital points lost".to_string(),
        series: names
            .iter()
            .enumerate()
            .map(|(seat, name)| Series {
                name: name.clone(),
                player: Some(seat),
                points: review.decisions.iter().filter(|d| d.player == seat).map(|d| point(d.turn, d.loss)).collect(),
            })
            .collect(),
    };
    vec![capital, loss]
}

/// The final capitals and the winners, how the record ends, and the state of the last round's
/// exact search.
fn facts(end: &Game<'_>, record: &Record, turns: usize) -> Vec<String> {
    let list: Vec<String> =
        end.seats().iter().enumerate().map(|(p, s)| format!("{} {}", s.name, end.capital(p).total())).collect();
    let mut out = Vec::new();
    if end.is_over() {
        let win: Vec<&str> = end.winners().iter().map(|&w| end.seats()[w].name.as_str()).collect();
        out.push(format!(
            "Final capitals, recomputed by the rules engine from the record: {} (the game is over after {turns} turns, round {}).",
            list.join(", "),
            end.round()
        ));
        out.push(format!("Winner: {} (the most capital, then the most shares).", win.join(" and ")));
        out.push(
            "The last round is valued turn by turn like the others, and searched exactly from its first turn (below)."
                .to_string(),
        );
    } else {
        out.push(format!(
            "Capitals after the last complete turn: {} (the record stops after {turns} turns, in round {}, before the game's end).",
            list.join(", "),
            end.round()
        ));
    }
    if record.turns.len() > turns {
        out.push(format!(
            "The record's last turn is unfinished and is not reviewed ({} turns recorded).",
            record.turns.len()
        ));
    }
    out.push(if end.is_table() {
        "Assumed known: every hand as entered; the order of the face-down cards was never seen and no answer depends \
         on it (see “Every hand is entered” and “Answers never depend on what was never seen” in docs/rules/express-01.md). The evaluation: the mover's capital less the strongest opponent's at the end of the \
         turn (see “The evaluation” in docs/rules/express-01.md)."
            .to_string()
    } else {
        "Assumed known: every hand and the order of every deck, as after the game. The evaluation: the mover's capital \
         less the strongest opponent's at the end of the turn (see “The evaluation” in docs/rules/express-01.md)."
            .to_string()
    });
    out
}

/// The index (from 0) of the first turn of the last round among `turns`, when the game is over
/// after them: the turns the exact last-round search covers.
pub fn last_round_start(turns: &[PlayedTurn<'_>], end: &Game<'_>) -> Option<usize> {
    if !end.is_over() {
        return None;
    }
    let last = turns.last()?.before.round();
    turns.iter().position(|t| t.before.round() == last)
}

/// The embedded sample game's seed.
pub const SAMPLE_SEED: u64 = 1;
/// The embedded sample game's players.
pub const SAMPLE_PLAYERS: [&str; 3] = ["Anna", "Ben", "Clara"];
/// The embedded sample game's map.
pub const SAMPLE_MAP: &str = "germany";
/// Every this many turns the sample's player makes a random turn.
pub const SAMPLE_MISTAKE_EVERY: usize = 4;

/// A self-played game with mistakes: a new short game on `map` from `seed` with `players`, each
/// turn the greedy policy's (S2), except every `every`-th turn (the 4th, 8th, ... of the game),
/// which is random (S1: each step uniform among the legal steps). The policies' choices come
/// from one generator ([`policy_rng`] of the seed), so the game is the same on every machine.
/// Stops at the game's end or after [`MAX_ROUNDS`] rounds.
pub fn sample_record(
    catalogue: &Catalogue,
    map: &str,
    seed: u64,
    players: &[&str],
    every: usize,
) -> Result<Record, AnalysisError> {
    let start = StartSetup::new(map, seed, players.iter().map(|p| p.to_string()).collect(), Length::Short);
    let setup = start.position(catalogue).map_err(|e| AnalysisError::Sample(e.to_string()))?;
    let position = Position::from_setup(setup, catalogue).map_err(|e| {
        AnalysisError::Sample(e.problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))
    })?;
    let mut game = Game::from_position(&position).map_err(|e: GameError| AnalysisError::Sample(e.to_string()))?;
    let note = format!(
        "the sample game: the greedy policy, every {every}th turn random (signalbox_solver::express01::analysis::sample_record)"
    );
    let mut recorder = Recorder::from_seed(start, Some(note));
    let mut rng = policy_rng(seed);
    let mut t = 0;
    while !game.is_over() && game.round() <= MAX_ROUNDS {
        t += 1;
        let steps =
            if every > 0 && t % every == 0 { random_turn(&game, &mut rng) } else { greedy_turn(&game, &mut rng) };
        for s in steps {
            recorder.step(&game, s);
            game.play_unchecked(s);
        }
    }
    Ok(recorder.finish(&game))
}

/// A turn of uniformly random legal steps (S1).
fn random_turn(game: &Game<'_>, rng: &mut rand_chacha::ChaCha8Rng) -> Vec<Step> {
    let mut g = game.clone();
    let mut steps = Vec::new();
    loop {
        let s = *g.legal(&BestRoute).choose(rng).unwrap_or(&Step::Done);
        let before = g.clone();
        g.play_unchecked(s);
        steps.push(s);
        if ends_turn(&before, &g) {
            return steps;
        }
    }
}

/// The greedy policy's turn (S2): the first turn of the rest of the round played greedily.
fn greedy_turn(game: &Game<'_>, rng: &mut rand_chacha::ChaCha8Rng) -> Vec<Step> {
    let mut g = game.clone();
    let mut steps: Vec<Step> = Vec::new();
    let mut more = true;
    play_out(&mut g, Policy::Greedy, rng, game.round(), &mut |h, s| {
        if !steps.is_empty() && *h.phase() == Phase::Pair {
            more = false;
        }
        if more {
            steps.push(s);
        }
    });
    steps
}
