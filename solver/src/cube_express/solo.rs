//! Solitaire planning (rulings O1 to O3, `docs/rules/cube-express.md`): the most points a
//! solitaire game can score in its first K turns, and a line of turns that scores them.
//!
//! [`exhaustive`] searches every position the K turns can reach, turn by turn: every position
//! each turn can end in ([`super::search::end_positions`]: every lay and every legal order, with
//! only the reduction that keeps every end position) from each position of the turn before, each
//! replayed by the engine; positions that differ only in the points banked kept once with the most
//! points (what follows a position does not depend on its points). It is exact, and its cost grows
//! quickly with K. Under a deadline it may stop: then its line is the best found so far, not
//! proven, and it has no upper bound.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use rayon::prelude::*;
use signalbox_engine::cube_express::action::Action;
use signalbox_engine::cube_express::game::{Game, Illegal};

use super::search::end_positions;

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

/// Where a deadline stopped the search: during a turn, or after a turn searched in full but
/// before the next. The line is then the better of two: the position with the most points that
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
}

/// The solitaire player's points banked.
pub fn points(game: &Game) -> i32 {
    game.players()[0].banked
}

/// Everything that decides the rest of the game: the position with the points banked left out.
fn key(game: &Game) -> String {
    let mut state = game.state();
    for p in &mut state.players {
        p.banked = 0;
    }
    format!("{state:?}")
}

struct Reached {
    game: Game,
    line: Vec<Vec<Action>>,
}

/// The most points the solitaire game `game` (at the start of a turn) can bank in `turns` turns,
/// by searching every position. Among lines with the most points, the first found in the
/// search's order, whatever the thread count. `progress(turn, searched, positions)` is called as
/// each position of a turn (from 1) has been searched. At `deadline`, if given, no more
/// positions are begun, and the answer is the best line found so far ([`SoloPlan::stopped`]).
pub fn exhaustive(
    game: &Game,
    turns: usize,
    deadline: Option<Instant>,
    progress: &(dyn Fn(usize, usize, usize) + Sync),
) -> SoloPlan {
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
        // Each position's end positions, and its counts of plans and refusals.
        type Found = (Vec<Reached>, u64, u64);
        let found: Vec<Option<Found>> = layer
            .par_iter()
            .map(|r| {
                if stop.load(Ordering::Relaxed) || deadline.is_some_and(crate::stop::passed) {
                    stop.store(true, Ordering::Relaxed);
                    return None;
                }
                if r.game.is_over() {
                    return Some((vec![Reached { game: r.game.clone(), line: r.line.clone() }], 0, 0));
                }
                let mut best: HashMap<String, usize> = HashMap::new();
                let mut out: Vec<Reached> = Vec::new();
                let lines = end_positions(&r.game);
                let n = lines.len() as u64;
                let mut refused = 0;
                for actions in lines {
                    // Every line is replayed by the engine; one that does not is a search bug,
                    // counted and reported rather than trusted.
                    let Ok(after) = r.game.play_turn(&actions) else {
                        refused += 1;
                        continue;
                    };
                    let k = if last { String::new() } else { key(&after) };
                    keep(&mut best, &mut out, k, points(&after), || Reached {
                        line: extend(&r.line, actions),
                        game: after,
                    });
                }
                progress(turn + 1, searched.fetch_add(1, Ordering::Relaxed) + 1, layer.len());
                Some((out, n, refused))
            })
            .collect();
        let done = found.iter().filter(|f| f.is_some()).count();
        let layer_len = layer.len();
        for (_, n, refused) in found.iter().flatten() {
            plans += n;
            rejected += refused;
        }
        // Stopped when a position of this turn was not searched, or when the time is up before
        // the next turn (the last turn's answer, when complete, is proven however late).
        let late = || !last && deadline.is_some_and(crate::stop::passed);
        let mut rest = found.into_iter().flatten().flat_map(|(reached, _, _)| reached);
        let mut next: Vec<Reached> = Vec::new();
        let mut complete = done == layer_len && !late();
        if complete {
            // Positions that differ only in points kept once, with the most points.
            let mut index: HashMap<String, usize> = HashMap::new();
            let mut merged = 0usize;
            for r in rest.by_ref() {
                let k = if last { String::new() } else { key(&r.game) };
                keep(&mut index, &mut next, k, points(&r.game), || r);
                merged += 1;
                if merged.is_multiple_of(1024) && late() {
                    complete = false;
                    break;
                }
            }
        }
        if complete && !late() {
            layer = next;
            continue;
        }
        // Stopped: the best position this turn reached and the best start of the turn, each
        // carried on to K turns by hold turns; the better line (this turn's on a tie).
        let best_reached = best_of(next.into_iter().chain(rest));
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
            stopped: Some(Stopped { turn: turn + 1, searched: done, positions: layer_len, held }),
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
/// points is kept there already (`index`: the place of each key in `out`).
fn keep(
    index: &mut HashMap<String, usize>,
    out: &mut Vec<Reached>,
    k: String,
    score: i32,
    make: impl FnOnce() -> Reached,
) {
    match index.get(&k) {
        Some(&i) if points(&out[i].game) >= score => {}
        Some(&i) => out[i] = make(),
        None => {
            index.insert(k, out.len());
            out.push(make());
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
            let found = exhaustive(&game, 2, None, &|_, _, _| {});
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
        let found = exhaustive(&game, 3, Some(std::time::Instant::now()), &|_, _, _| {});
        let stopped = found.stopped.expect("stopped");
        assert_eq!((stopped.turn, stopped.searched, stopped.held), (1, 0, 3));
        assert_eq!(found.turns.len(), 3);
        let games = replay(&game, &found.turns).expect("the line replays");
        assert_eq!(games.last().map(points), Some(found.score));
        assert!(found.score >= found.start);
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
        assert_eq!(exhaustive(&game, 1, None, &|_, _, _| {}).score, naive(&game, 1));
    }
}
