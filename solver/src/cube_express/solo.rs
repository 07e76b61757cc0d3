//! Solitaire planning (rulings O1 to O3, `docs/rules/cube-express.md`): the most points a
//! solitaire game can score in its first K turns, and a line of turns that scores them.
//!
//! [`exhaustive`] searches every position the K turns can reach, turn by turn: every position
//! each turn can end in ([`super::search::end_positions`]: every lay and every legal order, with
//! only the reduction that keeps every end position) from each position of the turn before, each
//! replayed by the engine; positions that differ only in the points banked kept once with the most
//! points (what follows a position does not depend on its points). It is exact, and its cost grows
//! quickly with K. It may stop at a deadline, or when the positions it keeps would pass a memory
//! budget: then its line is the best found so far, not proven, and it has no upper bound.

use rustc_hash::FxHashMap as HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use rayon::prelude::*;
use signalbox_engine::cube_express::action::Action;
use signalbox_engine::cube_express::game::{Game, GameKey, Illegal, Player};

use super::search::{best_turn, end_positions};
use super::value::Weights;

/// A solitaire line and its score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SoloPlan {
    /// The points banked at the start.
    pub start: i32,
    /// The points banked after the line (ruling O2).
    pub score: i32,
    /// Each turn's actions, in order (fewer than K when the game ends first).
    pub turns: Vec<Vec<Action>>,
    /// Distinct positions searched at the start of each turn (the first: the start alone).
    pub positions: Vec<usize>,
    /// Turn plans played through the engine.
    pub plans: u64,
    /// Turn plans of the search that the engine refused (a solver bug: the score is then not
    /// proven, and callers must say so).
    pub rejected: u64,
    /// `None` when the search finished, so that the score is proven best; when the deadline
    /// stopped it, where.
    pub stopped: Option<Stopped>,
}

/// What may stop the search before it ends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// No more positions are begun after this instant.
    pub deadline: Option<Instant>,
    /// The most bytes the positions kept between turns may take (an estimate from their sizes,
    /// counted, so the same on every machine); the search stops cleanly rather than pass it.
    pub memory: Option<usize>,
}

/// Why the search stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// The deadline passed.
    Time,
    /// The positions kept would have passed the memory budget.
    Memory,
}

/// Where a deadline or the memory budget stopped the search: during a turn, or after a turn
/// searched in full but before the next. The line is then the better of two: the position with the most points that
/// the stopped turn reached, and the one with the most points at the start of that turn, each carried on to K turns by [`hold_turn`]s. Its score is one the game reaches,
/// not a proven best, and the search gives no upper bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped {
    /// The turn (from 1) whose positions were being searched.
    pub turn: usize,
    /// Positions of that turn searched to the end.
    pub searched: usize,
    /// Positions of that turn in all.
    pub positions: usize,
    /// Turns of the line that were filled with [`hold_turn`]s.
    pub held: usize,
    /// Why it stopped.
    pub why: Why,
}

/// The solitaire player's points banked.
pub fn points(game: &Game) -> i32 {
    game.players()[0].banked
}

/// Everything that decides the rest of the game: the position with the points banked left out.
fn key(game: &Game) -> GameKey {
    game.key_points_aside()
}

struct Reached {
    game: Game,
    line: Vec<Vec<Action>>,
}

/// The bytes a kept position takes, counted from its parts (the game, its key in the index and
/// its line) and scaled by [`OVERHEAD`]: an estimate the same on every machine, for the memory
/// budget.
fn footprint(r: &Reached) -> usize {
    OVERHEAD * parts(r)
}

/// The process's peak memory per byte of [`parts`] counted, as measured on `cube-express solo
/// --seed 1 --turns 3` (what the parts leave out: allocator rounding, the board's derived
/// structures, the index's table, the searches in flight).
const OVERHEAD: usize = 2;

/// The bytes of a kept position's parts.
fn parts(r: &Reached) -> usize {
    use std::mem::size_of;
    let tiles = std::mem::size_of_val(r.game.board().tiles());
    let players: usize = r.game.players().iter().map(|p| size_of::<Player>() + p.hand.len()).sum();
    let game = size_of::<Game>() + 2 * tiles + players + 64;
    let key = size_of::<GameKey>() + tiles + players;
    let line: usize = r.line.iter().map(|t| size_of::<Vec<Action>>() + t.len() * size_of::<Action>()).sum();
    size_of::<Reached>() + game + key + line
}

/// The best-turn search's weights for the last turn: points banked alone (a solitaire game has
/// no objective cards, and nothing held is worth anything once the turns are over).
const POINTS_ONLY: Weights = Weights { resource: 0, facility: 0, locomotive: 0, technology: 0 };

/// Positions of a turn searched between two checks of the memory budget (a constant, so that
/// where the search stops does not depend on the number of threads).
const CHUNK: usize = 64;

/// The most points the solitaire game `game` (at the start of a turn) can bank in `turns` turns,
/// by searching every position. Among lines with the most points, the first found in the
/// search's order, whatever the thread count. `progress(turn, searched, positions)` is called as
/// each position of a turn (from 1) has been searched. At the budget's deadline no more
/// positions are begun, and before the positions kept pass its memory the search stops; the
/// answer is then the best line found so far ([`SoloPlan::stopped`]).
pub fn exhaustive(
    game: &Game,
    turns: usize,
    budget: &Budget,
    progress: &(dyn Fn(usize, usize, usize) + Sync),
) -> SoloPlan {
    let deadline = budget.deadline;
    let mut layer = vec![Reached { game: game.clone(), line: Vec::new() }];
    let mut positions = Vec::new();
    let mut plans = 0;
    let mut rejected = 0;
    let stop = AtomicBool::new(false);
    for turn in 0..turns {
        if layer.iter().all(|r| r.game.is_over()) {
            break;
        }
        // After the last turn only the best position of each search matters.
        let last = turn + 1 == turns;
        positions.push(layer.len());
        let searched = AtomicUsize::new(0);
        let layer_bytes: usize = layer.iter().map(footprint).sum();
        // The positions this turn reaches, those that differ only in points kept once with the
        // most points; merged a chunk at a time, in the layer's order.
        let mut index: HashMap<Option<GameKey>, usize> = HashMap::default();
        let mut next: Vec<Reached> = Vec::new();
        let mut next_bytes = 0usize;
        let mut done = 0usize;
        let mut why = None;
        for chunk in layer.chunks(CHUNK) {
            // Each position's end positions with their keys, and its counts of plans and refusals.
            type Found = (Vec<(Option<GameKey>, Reached)>, u64, u64);
            let found: Vec<Option<Found>> = chunk
                .par_iter()
                .map(|r| {
                    if stop.load(Ordering::Relaxed) || deadline.is_some_and(crate::stop::passed) {
                        stop.store(true, Ordering::Relaxed);
                        return None;
                    }
                    if r.game.is_over() {
                        let k = (!last).then(|| key(&r.game));
                        return Some((vec![(k, Reached { game: r.game.clone(), line: r.line.clone() })], 0, 0));
                    }
                    if last {
                        // Only the most points matter after the last turn: the best turn by
                        // the exact best-turn search valuing points banked alone, replayed.
                        let found = best_turn(&r.game, &POINTS_ONLY, None)?;
                        let replayed = r.game.play_turn(&found.actions).ok();
                        let refused = u64::from(replayed.is_none());
                        let reached =
                            replayed.map(|after| (None, Reached { line: extend(&r.line, found.actions), game: after }));
                        progress(turn + 1, searched.fetch_add(1, Ordering::Relaxed) + 1, layer.len());
                        return Some((reached.into_iter().collect(), 1, refused));
                    }
                    let mut best: HashMap<Option<GameKey>, usize> = HashMap::default();
                    let mut out: Vec<Reached> = Vec::new();
                    let lines = end_positions(&r.game);
                    let n = lines.len() as u64;
                    let mut refused = 0;
                    for (i, actions) in lines.into_iter().enumerate() {
                        // Replaying a position's lines takes most of the time: the deadline is
                        // checked as they are replayed too, and a position left half done is
                        // not searched.
                        if i % 256 == 255 && deadline.is_some_and(crate::stop::passed) {
                            stop.store(true, Ordering::Relaxed);
                            return None;
                        }
                        // Every line is replayed by the engine; one that does not is a search bug,
                        // counted and reported rather than trusted.
                        let Ok(after) = r.game.play_turn(&actions) else {
                            refused += 1;
                            continue;
                        };
                        let k = (!last).then(|| key(&after));
                        keep(&mut best, &mut out, k, points(&after), || Reached {
                            line: extend(&r.line, actions),
                            game: after,
                        });
                    }
                    // Each kept position with its key, in the order found.
                    let mut keys: Vec<Option<Option<GameKey>>> = vec![None; out.len()];
                    for (k, i) in best {
                        keys[i] = Some(k);
                    }
                    let out = keys.into_iter().zip(out).map(|(k, r)| (k.flatten(), r)).collect();
                    progress(turn + 1, searched.fetch_add(1, Ordering::Relaxed) + 1, layer.len());
                    Some((out, n, refused))
                })
                .collect();
            for f in found {
                let Some((reached, n, refused)) = f else {
                    why = Some(Why::Time);
                    continue;
                };
                done += 1;
                plans += n;
                rejected += refused;
                for (i, (k, r)) in reached.into_iter().enumerate() {
                    // Merging is the search's one serial part: the deadline is checked in it too.
                    if i % 1024 == 1023 && deadline.is_some_and(crate::stop::passed) {
                        why = Some(Why::Time);
                        break;
                    }
                    next_bytes += keep(&mut index, &mut next, k, points(&r.game), || r);
                }
                if why.is_some() {
                    break;
                }
            }
            if why.is_some() {
                break;
            }
            if budget.memory.is_some_and(|m| layer_bytes + next_bytes > m) {
                why = Some(Why::Memory);
                break;
            }
        }
        // The last turn's answer, when complete, is proven however late; before it, the time
        // may run out between turns.
        if why.is_none() && !last && deadline.is_some_and(crate::stop::passed) {
            why = Some(Why::Time);
        }
        let Some(why) = why else {
            layer = next;
            continue;
        };
        // Stopped: the best position this turn reached and the best start of the turn, each
        // carried on to K turns by hold turns; the better line (this turn's on a tie).
        let best_reached = best_of(next);
        let held = |r: Option<Reached>| {
            let r = r?;
            let (mut at, mut line) = (r.game, r.line);
            let found = line.len();
            while line.len() < turns && !at.is_over() {
                let Some((actions, after)) = hold_turn(&at) else { break };
                line.push(actions);
                at = after;
            }
            Some((points(&at), line.len() - found, line))
        };
        let layer_len = layer.len();
        let start = best_of(layer);
        let best = [held(best_reached), held(start)].into_iter().flatten().reduce(|a, b| if b.0 > a.0 { b } else { a });
        let (score, held, line) = best.unwrap_or((points(game), 0, Vec::new()));
        return SoloPlan {
            start: points(game),
            score,
            turns: line,
            positions,
            plans,
            rejected,
            stopped: Some(Stopped { turn: turn + 1, searched: done, positions: layer_len, held, why }),
        };
    }
    let (score, turns) = best_of(layer).map_or((points(game), Vec::new()), |r| (points(&r.game), r.line));
    SoloPlan { start: points(game), score, turns, positions, plans, rejected, stopped: None }
}

/// A turn that banks the most points at once without moving, for carrying a stopped search's
/// line on to K turns: each legal lay (with or without its centre action, each payment) or no
/// lay, no market, and the end with the first legal discard; the first best lay in the engine's
/// order. It never loses points (a lay without its action banks nothing or more, as it may grow
/// a station's city), so the line's score is at least that of the position it starts from.
/// `None` only when the game is over.
pub fn hold_turn(game: &Game) -> Option<(Vec<Action>, Game)> {
    let lays: Vec<Action> = match game.legal_lays() {
        lays if lays.is_empty() => vec![Action::NoLay],
        lays => lays.into_iter().map(Action::Lay).collect(),
    };
    let mut best: Option<(Vec<Action>, Game)> = None;
    for lay in lays {
        let mut g = game.clone();
        if g.apply(&lay).is_err() {
            continue;
        }
        let Some(market) =
            g.legal_actions().into_iter().find(|a| matches!(a, Action::NoMarket | Action::Market { cube: false, .. }))
        else {
            continue;
        };
        if g.apply(&market).is_err() {
            continue;
        }
        let Some(end) = g.legal_actions().into_iter().find(|a| matches!(a, Action::End { .. })) else { continue };
        let actions = vec![lay, market, end];
        let Ok(after) = game.play_turn(&actions) else { continue };
        if best.as_ref().is_none_or(|(_, b)| points(&after) > points(b)) {
            best = Some((actions, after));
        }
    }
    best
}

/// The first of the positions with the most points, in the order found.
fn best_of(reached: impl IntoIterator<Item = Reached>) -> Option<Reached> {
    reached.into_iter().reduce(|a, b| if points(&b.game) > points(&a.game) { b } else { a })
}

/// Keeps the position `make` gives under key `k` in `out` unless one with at least `score`
/// points is kept there already (`index`: the place of each key in `out`); the bytes this adds
/// to what is kept ([`footprint`]; a replaced position's are taken off).
fn keep(
    index: &mut HashMap<Option<GameKey>, usize>,
    out: &mut Vec<Reached>,
    k: Option<GameKey>,
    score: i32,
    make: impl FnOnce() -> Reached,
) -> usize {
    match index.get(&k) {
        Some(&i) if points(&out[i].game) >= score => 0,
        Some(&i) => {
            let gone = footprint(&out[i]);
            out[i] = make();
            footprint(&out[i]).saturating_sub(gone)
        }
        None => {
            index.insert(k, out.len());
            out.push(make());
            out.last().map_or(0, footprint)
        }
    }
}

fn extend(line: &[Vec<Action>], turn: Vec<Action>) -> Vec<Vec<Action>> {
    let mut out = line.to_vec();
    out.push(turn);
    out
}

/// Why a solitaire line does not replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Replay {
    /// An action is illegal.
    #[error("turn {turn}, action {index}: {illegal}")]
    Illegal {
        /// The turn, from 0.
        turn: usize,
        /// The action within the turn, from 0.
        index: usize,
        /// Why.
        illegal: Illegal,
    },
    /// A turn does not end the turn.
    #[error("turn {0} does not end the turn")]
    Unfinished(usize),
}

/// Replays a solitaire line from `game` through the engine: the game at the start of each turn
/// and after the last (`game` first), or why not.
pub fn replay(game: &Game, turns: &[Vec<Action>]) -> Result<Vec<Game>, Replay> {
    let mut games = vec![game.clone()];
    for (turn, actions) in turns.iter().enumerate() {
        let g = games.last().unwrap_or(game);
        let next = g.play_turn(actions).map_err(|(index, illegal)| Replay::Illegal { turn, index, illegal })?;
        if next.turns_played() == g.turns_played() {
            return Err(Replay::Unfinished(turn));
        }
        games.push(next);
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use signalbox_engine::cube_express::catalogue::Content;
    use signalbox_engine::cube_express::options::Options;

    use super::*;

    /// The most points in `turns` turns by plain recursion over the naive reference's end
    /// positions (every order of every legal action), no position kept.
    fn naive(game: &Game, turns: usize) -> i32 {
        if turns == 0 || game.is_over() {
            return points(game);
        }
        let mut best = i32::MIN;
        super::super::naive::for_each_end(game, &mut |after| best = best.max(naive(after, turns - 1)));
        best
    }

    #[test]
    fn the_search_over_positions_matches_plain_recursion_and_replays() {
        let content = Arc::new(Content::house());
        for seed in 0..3 {
            let game = Game::solo(content.clone(), seed, Options::default()).expect("setup");
            let found = exhaustive(&game, 2, &Budget::default(), &|_, _, _| {});
            assert_eq!(found.stopped, None);
            assert_eq!(found.rejected, 0, "seed {seed}: every turn plan replays");
            assert_eq!(found.score, naive(&game, 2), "seed {seed}");
            let games = replay(&game, &found.turns).expect("the line replays");
            assert_eq!(games.last().map(points), Some(found.score), "seed {seed}: the engine's score of the line");
            assert_eq!(found.turns.len(), 2);
        }
    }

    /// A search stopped at once still gives a line of K turns that the engine replays, scoring at
    /// least the start, labelled stopped.
    #[test]
    fn a_stopped_search_still_gives_a_full_line_that_replays() {
        let content = Arc::new(Content::house());
        let game = Game::solo(content, 1, Options::default()).expect("setup");
        let found =
            exhaustive(&game, 3, &Budget { deadline: Some(std::time::Instant::now()), memory: None }, &|_, _, _| {});
        let stopped = found.stopped.expect("stopped");
        assert_eq!((stopped.turn, stopped.searched, stopped.held, stopped.why), (1, 0, 3, Why::Time));
        assert_eq!(found.turns.len(), 3);
        let games = replay(&game, &found.turns).expect("the line replays");
        assert_eq!(games.last().map(points), Some(found.score));
        assert!(found.score >= found.start);
    }

    /// A memory budget stops the search cleanly: a line of K turns that replays, labelled
    /// stopped by memory, the same on one thread and on three.
    #[test]
    fn a_memory_budget_stops_cleanly_with_a_full_line_the_same_on_any_thread_count() {
        let content = Arc::new(Content::house());
        let game = Game::solo(content, 1, Options::default()).expect("setup");
        // Enough for the first turn's positions, not for the second's.
        let budget = Budget { deadline: None, memory: Some(8_000_000) };
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
            pool.install(|| exhaustive(&game, 3, &budget, &|_, _, _| {}))
        };
        let found = run(1);
        let stopped = found.stopped.expect("stopped");
        assert_eq!((stopped.turn, stopped.why), (2, Why::Memory), "{stopped:?}");
        assert!(stopped.searched < stopped.positions);
        assert_eq!(found.turns.len(), 3);
        let games = replay(&game, &found.turns).expect("the line replays");
        assert_eq!(games.last().map(points), Some(found.score));
        assert_eq!(run(3), found);
    }

    /// The regression position where the older canonical order lost a point: a delivery's third
    /// cube returns to the empty reserve and becomes a passenger (14 by the best-turn value; the
    /// solitaire score here is the points banked).
    #[test]
    fn one_turn_matches_the_naive_reference_on_the_passenger_regression() {
        let content = Arc::new(Content::house());
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/fixtures/cube_express/regressions/deliver-then-passenger.json"
        );
        let text = std::fs::read_to_string(path).expect("the fixture");
        let game = signalbox_engine::cube_express::position::read_position(content, path, &text).expect("reads");
        assert_eq!(exhaustive(&game, 1, &Budget::default(), &|_, _, _| {}).score, naive(&game, 1));
    }
}
