//! The review of a played Railways Express game (`railways analyse`): every turn of the record
//! judged by the expected turns still needed, the same reckoning as the best use of a roll
//! ([`super::roll::best_use`]), with every player's tiles still needed and win chances after
//! the turn ([`super::odds::odds`]). What the values are and what they leave out: ruling A1 in
//! `docs/rules/railways-express.md`.
//!
//! Each turn gives up to two decisions, numbered in the order played:
//! - **re-roll** (only when the player has a cube in hand after rolling): keep the first roll or
//!   spend a cube on rolling one or two dice again. Valued as `plan --roll` values re-rolls: by
//!   the expected turns after this one with the plan of the position held fixed
//!   ([`super::race::Race::reroll`], averaged over the new faces). Only the first choice of the
//!   turn is judged; later re-rolls are listed in its details.
//! - **builds**: the pairing and the tiles built with the roll as it finally lay. The value of an
//!   end of turn is the expected turns after this one to build the fewest tiles still needed,
//!   exact for the plan the linker finds then ([`super::link::link`],
//!   [`super::race::expected_turns`]); `value_before` is the value of the best use
//!   ([`super::roll::best_use`]) and `value_after` the value of the builds played, valued the
//!   same way.
//!
//! Reuse between positions: the analysis walks the record once, each turn's game built from the
//! last by the engine; the mover's plan after the turn (needed for the value of the builds
//! played) is also the mover's tiles still needed for the chart; and each other player keeps
//! the plan found for them while it still replays on the board and the straight and curved piles
//! each hold at least its tiles (ruling A2: only then is it still a minimum plan), so most turns
//! link one player, not four. [`AnalysisOptions::reuse`] off relinks every player on every turn
//! and re-replays the record for each turn (the bench's "from scratch").

use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;

use signalbox_engine::grid::hex::Hex;
use signalbox_engine::railways::catalogue::{Content, Supply};
use signalbox_engine::railways::colour::Colour;
use signalbox_engine::railways::dice::{Die, Roll};
use signalbox_engine::railways::game::{Action, Game, Phase};
use signalbox_engine::railways::options::Options;
use signalbox_engine::railways::record::{Move, RecordSetup};
use signalbox_engine::railways::track::Ends;

use super::link::{LinkPlan, Linked, link};
use super::odds::{OddsOptions, odds};
use super::policy::play_turn;
use super::race::{Course, Race, expected_turns};
use super::roll::{best_use, reroll_options};
use crate::analysis::{
    Axis, Better, Chart, Choice, Decision, Measure, Point, Range, Ranges, Review, Series, Thresholds,
};

/// Where the labels start, in expected turns: a race is won or lost by a turn, so giving away
/// a tenth of one is an inaccuracy, three tenths a mistake and six tenths, most of a turn, a
/// blunder (`docs/formats/analysis.md`).
pub const THRESHOLDS: Thresholds = Thresholds { inaccuracy: 0.1, mistake: 0.3, blunder: 0.6 };

/// How a game is analysed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalysisOptions {
    /// Games played out after each turn for the win chances (default [`DEFAULT_GAMES`]; 0 leaves
    /// the win chances out). Each turn plays games from seeds `seed` to `seed + games - 1`.
    pub games: usize,
    /// The seed of the first game of each turn's win chances (default 1).
    pub seed: u64,
    /// The time each turn's searches may take (`None`: no limit); a search cut short makes the
    /// turn's values not proven.
    pub time_limit: Option<Duration>,
    /// Reuse work between turns (default true); false analyses each turn from scratch (for the
    /// bench: the review is the same either way).
    pub reuse: bool,
    /// The first record turn (from 0) to analyse (default 0); the turns before it are only
    /// replayed. For benches and partial reviews.
    pub from_turn: usize,
}

/// Win-chance games per turn by default: 24 games give intervals about 20 points either side of
/// an even chance; enough to see a race turn, and the time per turn a game of four players
/// allows.
pub const DEFAULT_GAMES: usize = 24;

impl Default for AnalysisOptions {
    fn default() -> Self {
        AnalysisOptions { games: DEFAULT_GAMES, seed: 1, time_limit: None, reuse: true, from_turn: 0 }
    }
}

/// The positions around one decision, for pictures: the mover, and the game and plan before the
/// decision, after the move played and after the best move (the builds of the turn drawn
/// apart).
#[derive(Clone, Debug)]
pub struct DecisionBoards {
    /// The decision's index (from 1).
    pub decision: usize,
    /// The player who decided.
    pub colour: Colour,
    /// The game at the start of the turn.
    pub before: Game,
    /// The mover's plan then.
    pub before_plan: Vec<(Hex, Ends)>,
    /// The game after the turn as played.
    pub played: Game,
    /// The mover's plan after it.
    pub played_plan: Vec<(Hex, Ends)>,
    /// The tiles the turn built.
    pub played_builds: Vec<(Hex, Ends)>,
    /// The game after the best use of the roll.
    pub best: Game,
    /// The mover's plan after it.
    pub best_plan: Vec<(Hex, Ends)>,
    /// The tiles the best use builds.
    pub best_builds: Vec<(Hex, Ends)>,
}

/// A review with the positions behind each decision.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The review (decisions, summary, charts, facts).
    pub review: Review,
    /// The positions of each decision, in order.
    pub boards: Vec<DecisionBoards>,
}

/// A player's plan as the analysis keeps it: the plan, its fewest tiles and its expected turns.
#[derive(Clone, Debug)]
struct Kept {
    plan: Option<LinkPlan>,
    tiles: Option<usize>,
    turns: Option<f64>,
    proven: bool,
}

fn kept(game: &Game, found: Linked) -> Kept {
    match found {
        Linked::Plan(p) => {
            let turns = expected_turns(&Course::of(&p, game.content(), game.options().curve), game.content());
            Kept { tiles: Some(p.tiles.len()), turns: Some(turns), plan: Some(p), proven: true }
        }
        Linked::None(_) => Kept { plan: None, tiles: None, turns: None, proven: true },
        Linked::Stopped { .. } => Kept { plan: None, tiles: None, turns: None, proven: false },
    }
}

/// Whether `plan`, found for `colour` before another player built, is still a minimum plan
/// (ruling A2): it replays on the board now, and the straight and curved piles each hold at
/// least its tiles.
fn still_minimum(game: &Game, colour: Colour, plan: &LinkPlan) -> bool {
    let s: Supply = game.supply();
    let n = plan.tiles.len() as u32;
    s.straight >= n && s.curved >= n && game.with_track(colour, &plan.tiles).is_ok()
}

/// A turn of the record split into its parts.
struct Turn {
    roll: Roll,
    rerolls: Vec<(Vec<Die>, Roll)>,
    crossed: bool,
    builds: Vec<Action>,
}

fn split_turn(moves: &[Move]) -> Option<Turn> {
    let roll = moves.iter().find_map(|m| match m {
        Move::Roll { roll, .. } => Some(*roll),
        _ => None,
    })?;
    let mut turn = Turn { roll, rerolls: Vec::new(), crossed: false, builds: Vec::new() };
    for m in moves {
        match m.action() {
            Action::Reroll { dice, roll } => turn.rerolls.push((dice, roll)),
            Action::Pair { crossed } => turn.crossed = crossed,
            b @ Action::Build { .. } => turn.builds.push(b),
            _ => {}
        }
    }
    Some(turn)
}

/// The tiles of a list of build actions.
fn tiles_of(builds: &[Action]) -> Vec<(Hex, Ends)> {
    builds
        .iter()
        .filter_map(|a| match *a {
            Action::Build { hex, ends, .. } => Some((hex, ends)),
            _ => None,
        })
        .collect()
}

/// Builds in words, as the record accepts them: `pair straight; build e-w on [5, 4] with slot 0`.
pub fn builds_text(content: &Content, crossed: bool, builds: &[Action]) -> String {
    let mut parts = vec![Move::Pair { crossed }.to_string()];
    parts.extend(builds.iter().map(|b| Move::from_action(content, b).to_string()));
    if builds.is_empty() {
        parts.push("no build".to_owned());
    }
    parts.join("; ")
}

fn builds_moves(content: &Content, crossed: bool, builds: &[Action]) -> serde_json::Value {
    let mut moves = vec![Move::Pair { crossed }];
    moves.extend(builds.iter().map(|b| Move::from_action(content, b)));
    moves.push(Move::End);
    serde_json::to_value(moves).unwrap_or_default()
}

fn reroll_text(dice: &[Die]) -> String {
    if dice.is_empty() {
        return "keep the roll".to_owned();
    }
    let dice: Vec<String> = dice.iter().map(ToString::to_string).collect();
    format!("reroll {}", dice.join(" and "))
}

/// Plays `actions` on a clone of `game`.
fn after(game: &Game, actions: &[Action]) -> Game {
    let mut g = game.clone();
    for a in actions {
        // The actions come from a record already replayed by the engine, or from the advice
        // (replayed in its tests): a refusal leaves the game where it stands.
        if g.apply(a).is_err() {
            break;
        }
    }
    g
}

/// The review of a record already replayed by the engine
/// ([`signalbox_engine::railways::record::replay_setup`]): `title` heads it; `progress` is told
/// each turn analysed. Runs on the current rayon pool; the review does not depend on its size.
pub fn analyse(
    content: Arc<Content>,
    record: &RecordSetup,
    title: String,
    options: AnalysisOptions,
    progress: &(dyn Fn() + Sync),
) -> Result<Analysis, String> {
    let mut game = Game::new(content.clone(), &record.seats, record.options, record.seed)?;
    let colours: Vec<Colour> = record.seats.clone();
    let mut plans: Vec<Option<Kept>> = vec![None; colours.len()];
    let mut decisions: Vec<Decision> = Vec::new();
    let mut boards: Vec<DecisionBoards> = Vec::new();
    // Per turn: each player's tiles still needed and win chance (with its interval).
    let mut tiles_series: Vec<Vec<Point>> = vec![Vec::new(); colours.len()];
    let mut win_series: Vec<Vec<Point>> = vec![Vec::new(); colours.len()];
    let mut under_way = false;
    let mut charted = false;
    for (t, moves) in record.turns.iter().enumerate() {
        if game.is_over() || game.phase() != Phase::Roll {
            break;
        }
        if t < options.from_turn {
            for m in moves {
                game.apply(&m.action()).map_err(|e| format!("turns[{t}]: {e}"))?;
            }
            progress();
            continue;
        }
        if !options.reuse {
            // From scratch: the turn's game replayed from the set-up.
            let mut fresh = Game::new(content.clone(), &record.seats, record.options, record.seed)?;
            for m in record.turns[..t].iter().flatten() {
                fresh.apply(&m.action()).map_err(|e| e.to_string())?;
            }
            game = fresh;
            plans = vec![None; colours.len()];
        }
        if !charted {
            // The charts start from the position before the first turn analysed.
            charted = true;
            let x = t as f64;
            for (s, &c) in colours.iter().enumerate() {
                let k = kept(&game, link(&game, c, options.time_limit.map(|l| Instant::now() + l)).0);
                if let Some(n) = k.tiles {
                    tiles_series[s].push(Point { x, y: n as f64, low: None, high: None });
                }
                if options.reuse {
                    plans[s] = Some(k);
                }
            }
            for (s, c) in win_chances(&game, options).iter().enumerate() {
                win_series[s].push(Point { x, y: c.0, low: Some(c.1), high: Some(c.2) });
            }
        }
        let Some(turn) = split_turn(moves) else { break };
        if moves.last() != Some(&Move::End) {
            // A last turn under way is not judged: its builds may not be all.
            under_way = true;
            break;
        }
        let deadline = options.time_limit.map(|l| Instant::now() + l);
        let seat = game.active();
        let colour = colours[seat];
        let start = game.clone();
        // The played turn's end.
        let mut played_game = game.clone();
        for m in moves {
            played_game.apply(&m.action()).map_err(|e| format!("turns[{t}]: {e}"))?;
        }
        // The mover's plan at the start (for the re-roll and the picture).
        let mut rolled = start.clone();
        rolled.apply(&Action::Roll { roll: turn.roll }).map_err(|e| e.to_string())?;
        let start_found = link(&rolled, colour, deadline).0;
        let start_plan = start_found.plan().cloned();
        let mut turn_proven = !matches!(start_found, Linked::Stopped { .. });
        let cubes = start.players()[seat].cubes;
        // The re-roll decision.
        if cubes > 0
            && let Some(plan) = &start_plan
            && !plan.tiles.is_empty()
        {
            let course = Course::of(plan, &content, start.options().curve);
            let mut race = Race::new(&course, &content);
            let state = vec![0u8; course.paths.len()];
            let keep = race.choose(&state, turn.roll).2;
            let mut options_valued: Vec<(Vec<Die>, f64)> = vec![(Vec::new(), keep)];
            for dice in reroll_options() {
                let v = race.reroll(&state, turn.roll, &dice);
                options_valued.push((dice, v));
            }
            let played_dice = turn.rerolls.first().map(|r| r.0.clone()).unwrap_or_default();
            let played_value = options_valued.iter().find(|(d, _)| *d == played_dice).map_or(keep, |o| o.1);
            let (best_dice, best_value) = options_valued
                .iter()
                .fold((Vec::new(), f64::INFINITY), |b, (d, v)| if *v < b.1 - 1e-12 { (d.clone(), *v) } else { b });
            let index = decisions.len() + 1;
            let played_moves: Vec<Move> = match turn.rerolls.first() {
                Some((dice, roll)) => vec![Move::Reroll { dice: dice.clone(), roll: *roll }],
                None => Vec::new(),
            };
            let later: Vec<serde_json::Value> =
                turn.rerolls.iter().skip(1).map(|(d, r)| json!({"dice": d, "roll": r})).collect();
            decisions.push(Decision {
                index,
                turn: t + 1,
                player: seat,
                kind: "re-roll".to_owned(),
                played: Choice { text: reroll_text(&played_dice), moves: serde_json::to_value(played_moves).unwrap_or_default() },
                // The dice after a re-roll are not known before it: the move without them.
                best: Choice {
                    text: reroll_text(&best_dice),
                    moves: if best_dice.is_empty() { json!([]) } else { json!([{"action": "reroll", "dice": best_dice}]) },
                },
                value_before: best_value,
                value_after: played_value,
                best_value_after: best_value,
                loss: Decision::loss_of(Better::Lower, best_value, played_value),
                proven: turn_proven,
                ranges: (!turn_proven).then(|| unknown(best_value)),
                label: None,
                fair_play: None,
                details: json!({
                    "record_turn": t,
                    "colour": colour,
                    "roll": turn.roll,
                    "cubes": cubes,
                    "keep": keep,
                    "rerolls": options_valued.iter().skip(1).map(|(d, v)| json!({"dice": d, "turns": v})).collect::<Vec<_>>(),
                    "later_rerolls": later,
                    "tiles": plan.tiles.len(),
                }),
            });
            let best_game = after(&start, &[Action::Roll { roll: turn.roll }]);
            boards.push(DecisionBoards {
                decision: index,
                colour,
                before: start.clone(),
                before_plan: plan.tiles.clone(),
                played: played_game.clone(),
                played_plan: Vec::new(),
                played_builds: Vec::new(),
                best: best_game,
                best_plan: plan.tiles.clone(),
                best_builds: Vec::new(),
            });
        }
        // The builds decision: the roll as it finally lay.
        let final_roll = turn.rerolls.last().map_or(turn.roll, |r| r.1);
        let advice = if start_plan.is_some() { best_use(&start, final_roll, deadline) } else { None };
        let mut paired = start.clone();
        paired.apply(&Action::Roll { roll: final_roll }).map_err(|e| e.to_string())?;
        let played_track: Vec<(Hex, Ends)> = tiles_of(&turn.builds);
        let played_end = after(&paired, &[vec![Action::Pair { crossed: turn.crossed }], turn.builds.clone()].concat());
        let played_kept = kept(&played_end, link(&played_end, colour, deadline).0);
        turn_proven &= played_kept.proven;
        if let Some(adv) = &advice {
            turn_proven &= adv.complete;
            let best_actions = [vec![Action::Pair { crossed: adv.best.crossed }], adv.best.builds.clone()].concat();
            let best_end = after(&paired, &best_actions);
            let played_value = played_kept.turns.unwrap_or(f64::INFINITY);
            // A use played that the search valued below its best (only when the search was cut
            // short) is the best.
            let played_is_best = played_value < adv.best.turns;
            let (best_value, best_text, best_moves, best_remaining) = if played_is_best {
                (
                    played_value,
                    builds_text(&content, turn.crossed, &turn.builds),
                    builds_moves(&content, turn.crossed, &turn.builds),
                    played_kept.tiles,
                )
            } else {
                (
                    adv.best.turns,
                    builds_text(&content, adv.best.crossed, &adv.best.builds),
                    builds_moves(&content, adv.best.crossed, &adv.best.builds),
                    Some(adv.best.remaining),
                )
            };
            let index = decisions.len() + 1;
            let played_moves: Vec<Move> = moves
                .iter()
                .filter(|m| matches!(m, Move::Pair { .. } | Move::Build { .. } | Move::End))
                .cloned()
                .collect();
            let best_plan = link(&best_end, colour, deadline).0.plan().map(|p| p.tiles.clone()).unwrap_or_default();
            decisions.push(Decision {
                index,
                turn: t + 1,
                player: seat,
                kind: "builds".to_owned(),
                played: Choice {
                    text: builds_text(&content, turn.crossed, &turn.builds),
                    moves: serde_json::to_value(played_moves).unwrap_or_default(),
                },
                best: Choice { text: best_text, moves: best_moves },
                value_before: best_value,
                value_after: played_value,
                best_value_after: best_value,
                loss: Decision::loss_of(Better::Lower, best_value, played_value),
                proven: turn_proven,
                ranges: (!turn_proven).then(|| unknown(best_value)),
                label: None,
                fair_play: None,
                details: json!({
                    "record_turn": t,
                    "colour": colour,
                    "roll": final_roll,
                    "tiles_before": start_plan.as_ref().map(|p| p.tiles.len()),
                    "tiles_played": played_kept.tiles,
                    "tiles_best": best_remaining,
                    "fewest": adv.fewest,
                    "considered": adv.considered,
                    "complete": adv.complete,
                }),
            });
            boards.push(DecisionBoards {
                decision: index,
                colour,
                before: start.clone(),
                before_plan: start_plan.as_ref().map(|p| p.tiles.clone()).unwrap_or_default(),
                played: played_end.clone(),
                played_plan: played_kept.plan.as_ref().map(|p| p.tiles.clone()).unwrap_or_default(),
                played_builds: played_track.clone(),
                best: best_end,
                best_plan,
                best_builds: tiles_of(&adv.best.builds),
            });
        }
        // After the turn: every player's tiles still needed, and the win chances.
        game = played_game;
        plans[seat] = Some(played_kept);
        for (s, &c) in colours.iter().enumerate() {
            let reusable = options.reuse
                && plans[s].as_ref().is_some_and(|k| match &k.plan {
                    Some(p) => s == seat || still_minimum(&game, c, p),
                    None => false,
                });
            if !reusable {
                plans[s] = Some(kept(&game, link(&game, c, deadline).0));
            }
        }
        let x = (t + 1) as f64;
        for (s, k) in plans.iter().enumerate() {
            if let Some(n) = k.as_ref().and_then(|k| k.tiles) {
                tiles_series[s].push(Point { x, y: n as f64, low: None, high: None });
            }
        }
        let chances = win_chances(&game, options);
        for (s, c) in chances.iter().enumerate() {
            win_series[s].push(Point { x, y: c.0, low: Some(c.1), high: Some(c.2) });
        }
        // Attach the after-turn facts to this turn's decisions.
        let players: Vec<serde_json::Value> = colours
            .iter()
            .enumerate()
            .map(|(s, c)| {
                let k = plans[s].as_ref();
                json!({
                    "colour": c,
                    "tiles": k.and_then(|k| k.tiles),
                    "expected_turns": k.and_then(|k| k.turns),
                    "cubes": game.players()[s].cubes,
                    "win": chances.get(s).map(|w| json!({"chance": w.0, "low": w.1, "high": w.2})),
                })
            })
            .collect();
        for d in decisions.iter_mut().filter(|d| d.turn == t + 1) {
            if let Some(obj) = d.details.as_object_mut() {
                obj.insert(
                    "after".to_owned(),
                    json!({"players": players, "games": options.games, "seed": options.seed}),
                );
            }
        }
        progress();
    }
    let names: Vec<String> = colours.iter().map(|c| c.name().to_owned()).collect();
    let measure = Measure {
        name: "expected turns still needed".to_owned(),
        unit: "expected turns".to_owned(),
        better: Better::Lower,
        assumes: "Each value is the expected number of turns after this one to build the fewest tiles still needed, exact for the plan found then, under the dice alone: the other players, later re-rolls and later changes of plan are left out (see “What a turn's value is, and what it leaves out” in docs/rules/railways-express.md). A re-roll is valued with the plan of the position held fixed.".to_owned(),
        thresholds: THRESHOLDS,
    };
    let mut review = Review::new("railways", title, names.clone(), measure, decisions);
    review.charts.push(Chart {
        title: "Win chances after each turn".to_owned(),
        axis: Axis::Turn,
        x_label: "turn".to_owned(),
        y_label: "chance to win".to_owned(),
        series: names
            .iter()
            .enumerate()
            .map(|(s, n)| Series { name: n.clone(), player: Some(s), points: win_series[s].clone() })
            .collect(),
    });
    review.charts.push(Chart {
        title: "Tiles still needed after each turn".to_owned(),
        axis: Axis::Turn,
        x_label: "turn".to_owned(),
        y_label: "fewest tiles to link all four cities".to_owned(),
        series: names
            .iter()
            .enumerate()
            .map(|(s, n)| Series { name: n.clone(), player: Some(s), points: tiles_series[s].clone() })
            .collect(),
    });
    review.facts.push(match options.games {
        0 => format!("{} turns played; win chances left out", record.turns.len()),
        n => format!(
            "{} turns played; win chances after each turn from {n} games (seeds {} to {})",
            record.turns.len(),
            options.seed,
            options.seed + n as u64 - 1
        ),
    });
    if under_way {
        review.facts.push("the last turn of the record is under way: it is not judged".to_owned());
    }
    if game.is_over() {
        let winners: Vec<&str> = game.winners().iter().map(|c| c.name()).collect();
        review
            .facts
            .push(format!("winner: {}", if winners.is_empty() { "none".to_owned() } else { winners.join(", ") }));
    }
    Ok(Analysis { review, boards })
}

/// Each player's win chance after the turn, with its 95% interval: from the game's end when it
/// is over (a shared victory shared), else by [`odds`] with the options' games and seed.
fn win_chances(game: &Game, options: AnalysisOptions) -> Vec<(f64, f64, f64)> {
    if game.is_over() {
        let winners = game.winners();
        return game
            .players()
            .iter()
            .map(|p| {
                let c = if winners.contains(&p.colour) { 1.0 / winners.len() as f64 } else { 0.0 };
                (c, c, c)
            })
            .collect();
    }
    if options.games == 0 {
        return Vec::new();
    }
    let o = odds(
        game,
        OddsOptions { games: Some(options.games), time_limit: None, seed: options.seed, threads: None },
        &|| {},
    );
    o.chances.iter().map(|c| (c.chance, c.interval.0, c.interval.1)).collect()
}

/// A sample game: every player follows [`play_turn`] (its minimum link plan, each roll at its
/// best for it), the dice from a ChaCha8 generator seeded with `seed`; on about one turn in
/// `1 / mistakes` (drawn from the same generator) the player ends the turn one build early, a
/// legal but (nearly always) worse use of the roll. Deterministic: the same seed gives the same
/// record.
pub fn sample_game(content: Arc<Content>, seats: &[Colour], seed: u64, mistakes: f64) -> Result<RecordSetup, String> {
    let options = Options::default();
    let mut game = Game::new(content.clone(), seats, options, seed)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut turns: Vec<Vec<Move>> = Vec::new();
    while !game.is_over() && game.turns() < super::odds::TURN_LIMIT {
        let mut played = game.clone();
        let mut actions = play_turn(&mut played, &mut rng).map_err(|(a, e)| format!("{a}: {e}"))?;
        let builds = actions.iter().filter(|a| matches!(a, Action::Build { .. })).count();
        if builds > 0 && rng.random_bool(mistakes) {
            // Drop the last build: the turn ends one tile early.
            let last = actions.iter().rposition(|a| matches!(a, Action::Build { .. })).unwrap_or(0);
            actions.remove(last);
        }
        let colour = game.players()[game.active()].colour;
        let mut moves = Vec::new();
        for a in &actions {
            game.apply(a).map_err(|e| format!("{a}: {e}"))?;
            let mut m = Move::from_action(&content, a);
            if let Move::Roll { player, .. } = &mut m {
                *player = Some(colour);
            }
            moves.push(m);
        }
        turns.push(moves);
    }
    Ok(RecordSetup { seats: seats.to_vec(), options, seed, turns })
}

/// The seed, seats and share of mistaken turns of the embedded sample game
/// (`engine/src/railways/sample-game.json`), which [`sample_game`] regenerates.
pub const SAMPLE_SEED: u64 = 7;
/// The share of turns played one build short in the sample game.
pub const SAMPLE_MISTAKES: f64 = 0.12;
/// The sample game's seats.
pub const SAMPLE_SEATS: [Colour; 4] = [Colour::Blue, Colour::Yellow, Colour::Red, Colour::Purple];

/// The sample game's record as JSON, one move a line (the checked-in file's text).
pub fn sample_text(record: &RecordSetup) -> String {
    let mut out = String::from("{\n");
    out.push_str(&format!("  \"seats\": {},\n", serde_json::to_string(&record.seats).unwrap_or_default()));
    out.push_str(&format!("  \"options\": {},\n", serde_json::to_string(&record.options).unwrap_or_default()));
    out.push_str(&format!("  \"seed\": {},\n", record.seed));
    out.push_str("  \"turns\": [\n");
    let turns: Vec<String> = record
        .turns
        .iter()
        .map(|turn| {
            let moves: Vec<String> = turn
                .iter()
                .map(|m| format!("    {}", serde_json::to_string(&m.to_string()).unwrap_or_default()))
                .collect();
            format!("   [\n{}\n   ]", moves.join(",\n"))
        })
        .collect();
    out.push_str(&turns.join(",\n"));
    out.push_str("\n  ]\n}\n");
    out
}

/// The ranges of a decision whose plans a time limit stopped: the best is at most the value
/// found and at least no turns; the value after the move played is not known. No loss is
/// claimed there.
fn unknown(best_value: f64) -> Ranges {
    Ranges {
        before: Range { low: 0.0, high: Some(best_value) },
        after: Range { low: 0.0, high: None },
        estimated: false,
    }
}
