//! The proven best score of a game, by branch and bound over the positions at turn starts.
//!
//! 1. **Incumbent.** A beam search plays the game turn by turn, keeping the positions with the
//!    highest bound ([`upper_bound`]); its best line is the first incumbent.
//! 2. **Proof.** The first two turns (the start space and turn 1) are split into pieces in a
//!    fixed order, searched on rayon's threads by depth-first branch and bound: a position
//!    whose upper bound cannot beat the best score found (by any thread) is cut; children are
//!    searched highest static bound first, ties in the engine's move order. Shared tables
//!    remember, per position, the lowest upper bound known, and per skeleton (the position less
//!    its cubes held and workers) the positions searched, which cut the positions they dominate
//!    (ruling S1).
//! 3. **Line.** When the proven maximum beats the beam's line, the pieces are searched again in
//!    order for the first line reaching it (cutting what cannot reach it), so one thread and
//!    many give the same line.
//!
//! A time limit or a budget of positions stops the proof where it is: the answer is then the
//! best line found and the highest bound among the positions not searched, labelled not proven.
//! A budget is counted work, so the search runs on one thread in the fixed order when one is
//! set: where it stops, and so the answer, is then the same on any machine, load and thread
//! count. A time limit is read from the clock and gives no such promise.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use rustc_hash::FxHashMap as HashMap;
use signalbox_engine::coe::{Game, Move};

use super::bound::upper_bound;
use super::exact::turn_outcomes;

/// How to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    /// Stop the proof after this long and return the best line found with an upper bound.
    pub time_limit: Option<Duration>,
    /// Stop the proof after expanding this many positions, as [`SolveOptions::time_limit`]
    /// does; the search then runs on one thread, so the answer is the same everywhere.
    pub positions: Option<u64>,
    /// Worker threads; `None` uses rayon's default (one per core).
    pub threads: Option<usize>,
    /// Positions the beam search keeps per turn.
    pub beam: usize,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions { time_limit: None, positions: None, threads: None, beam: 512 }
    }
}

/// The answer: a line, its score, and how far it is proven.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// The best final score found.
    pub score: u32,
    /// The line reaching it, from the given position.
    pub line: Vec<Move>,
    /// No line scores more than this. Equal to `score` when proven.
    pub upper_bound: u32,
    /// Whether `score` is proven the maximum.
    pub proven: bool,
    /// The perfect-score bound: [`upper_bound`] of the given position, before any search.
    pub perfect_bound: u32,
    /// Positions expanded by the proof.
    pub positions: u64,
    /// The score of the beam search's line, the first incumbent.
    pub beam_score: u32,
}

/// Solves a game: the best score reachable from `game`, with its line.
pub fn solve(game: &Game<'_>, options: SolveOptions) -> Solved {
    solve_reusing(game, options, &Tables::new(), None)
}

/// Solves a game as [`solve`] does, keeping what the search learns in `tables` for the next
/// position of the same game, and stopping as soon as a line reaches `at_most`, a known upper
/// bound on the value of `game` (the value of the position it came from).
///
/// The tables hold only true upper bounds on the values of positions (the static bound, and
/// what searching a position's children proved), so a later search may cut with them whatever
/// came before it; the answer (score, line, proof) is the one [`solve`] gives, only found sooner.
/// Tables belong to one game: one catalogue, one instance, one set of rule options (a position's
/// key says nothing of them). `at_most` must be a true upper bound (a proven value of a position
/// `game` follows from); with it the score is the same and the line may be another line of that
/// score (the first the search meets).
pub fn solve_reusing(game: &Game<'_>, options: SolveOptions, tables: &Tables, at_most: Option<u32>) -> Solved {
    // A budget of positions is counted on one thread, in the fixed order, so that where it
    // stops does not depend on how threads meet.
    let threads = if options.positions.is_some() { Some(1) } else { options.threads };
    crate::threads::install(threads, || Search::new(options, tables, at_most).run(game))
}

/// What searches of one game learn and share: per position the lowest upper bound on its value
/// known, and per skeleton the positions searched (ruling S1).
pub struct Tables {
    table: Table,
    dominance: Dominance,
}

impl Tables {
    /// Empty tables.
    pub fn new() -> Tables {
        Tables { table: Table(Sharded::new()), dominance: Dominance(Sharded::new()) }
    }

    /// How many positions the tables hold a bound for.
    pub fn len(&self) -> usize {
        self.table.0.shards.iter().map(|s| s.lock().map_or(0, |m| m.len())).sum()
    }

    /// Whether the tables hold nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Default for Tables {
    fn default() -> Self {
        Tables::new()
    }
}

/// The shared state of one search.
struct Search<'t> {
    options: SolveOptions,
    deadline: Option<Instant>,
    stopped: AtomicBool,
    /// The best score any task has found.
    found: AtomicU32,
    /// A known upper bound on the root's value: a line reaching it ends the search.
    at_most: u32,
    table: &'t Table,
    dominance: &'t Dominance,
    positions: std::sync::atomic::AtomicU64,
}

/// A map by position key in shards, so that threads rarely wait for each other.
struct Sharded<V> {
    shards: Vec<Mutex<HashMap<u128, V>>>,
}

const SHARDS: usize = 64;

impl<V> Sharded<V> {
    fn new() -> Sharded<V> {
        Sharded { shards: (0..SHARDS).map(|_| Mutex::new(HashMap::default())).collect() }
    }

    /// Runs `f` on the shard holding `key`; `None` if a thread panicked holding it.
    fn with<R>(&self, key: u128, f: impl FnOnce(&mut HashMap<u128, V>) -> R) -> Option<R> {
        let h = (key ^ (key >> 64)) as u64;
        let shard = &self.shards[(h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58) as usize % SHARDS];
        shard.lock().ok().map(|mut m| f(&mut m))
    }
}

/// Per position key: its static bound ([`upper_bound`]) and the lowest upper bound on its value
/// known (the static bound, or what its searched children allowed).
struct Table(Sharded<(u8, u8)>);

impl Table {
    fn get(&self, key: u128) -> Option<(u32, u32)> {
        self.0.with(key, |m| m.get(&key).map(|&(s, u)| (u32::from(s), u32::from(u)))).flatten()
    }

    /// Records the static bound of a position first seen.
    fn put_static(&self, key: u128, bound: u32) {
        let v = bound.min(255) as u8;
        self.0.with(key, |m| {
            m.entry(key).or_insert((v, v));
        });
    }

    /// Records `value <= upper`, keeping the lower of two bounds.
    fn put(&self, key: u128, upper: u32) {
        let v = upper.min(255) as u8;
        self.0.with(key, |m| {
            m.entry(key).and_modify(|old| old.1 = old.1.min(v)).or_insert((v, v));
        });
    }
}

/// A searched position's inventory, workers and upper bound, under its skeleton key.
type Searched = ([u8; 5], u8, u8);

/// Per skeleton key ([`Game::skeleton_key`]): the inventories and workers searched, with an
/// upper bound on their value. A position holding no more cubes (as a multiset) and no more
/// workers than one of them is worth no more than it (ruling S1).
struct Dominance(Sharded<Vec<Searched>>);

impl Dominance {
    /// The lowest upper bound of a searched position dominating this one.
    fn get(&self, game: &Game<'_>) -> Option<u32> {
        let (inv, w) = (game.inventory(), game.workers());
        let key = game.skeleton_key();
        self.0
            .with(key, |m| {
                m.get(&key)?
                    .iter()
                    .filter(|(i, ww, _)| *ww >= w && i.iter().zip(&inv).all(|(a, b)| a >= b))
                    .map(|e| u32::from(e.2))
                    .min()
            })
            .flatten()
    }

    fn put(&self, game: &Game<'_>, upper: u32) {
        let key = game.skeleton_key();
        self.0.with(key, |m| m.entry(key).or_default().push((game.inventory(), game.workers(), upper.min(255) as u8)));
    }
}

/// A child position: its static bound (the search order), the lowest upper bound known on its
/// value (what cuts), the position and the moves reaching it.
type Child<'c> = (u32, u32, Game<'c>, Vec<Move>);

/// A task's incumbent: the best score it has found and the line reaching it.
#[derive(Clone, Debug)]
struct Incumbent {
    score: u32,
    line: Vec<Move>,
}

/// One piece of the proof's first two turns, in the fixed order.
enum Piece<'c> {
    /// A finished game, with its line.
    Leaf(u32, Vec<Move>),
    /// A position whose bound cannot beat the beam's line.
    Cut(u32),
    /// A position to search, with its line.
    Task(Game<'c>, Vec<Move>),
}

impl<'t> Search<'t> {
    fn new(options: SolveOptions, tables: &'t Tables, at_most: Option<u32>) -> Search<'t> {
        Search {
            options,
            deadline: options.time_limit.map(|t| Instant::now() + t),
            stopped: AtomicBool::new(false),
            found: AtomicU32::new(0),
            at_most: at_most.unwrap_or(u32::MAX),
            table: &tables.table,
            dominance: &tables.dominance,
            positions: std::sync::atomic::AtomicU64::new(0),
        }
    }

    /// Whether a line has reached the known upper bound, so nothing is left to prove.
    fn reached_cap(&self) -> bool {
        self.found.load(Ordering::Relaxed) >= self.at_most
    }

    fn run(&self, game: &Game<'_>) -> Solved {
        let perfect_bound = upper_bound(game);
        let beam = self.beam(game);
        let beam_score = beam.score;
        let (upper, best) = self.proof(game, beam);
        let proven = !self.stopped.load(Ordering::SeqCst) && upper <= best.score;
        Solved {
            score: best.score,
            line: best.line,
            upper_bound: upper.max(best.score).min(perfect_bound.max(best.score)),
            proven,
            perfect_bound,
            positions: self.positions.load(Ordering::Relaxed),
            beam_score,
        }
    }

    fn must_stop(&self) -> bool {
        if self.stopped.load(Ordering::Relaxed) {
            return true;
        }
        if self.deadline.is_some_and(crate::stop::passed)
            || self.options.positions.is_some_and(|n| self.positions.load(Ordering::Relaxed) >= n)
        {
            self.stopped.store(true, Ordering::Relaxed);
            return true;
        }
        false
    }

    /// A position's static bound and the lowest upper bound known on its value.
    fn bounds(&self, game: &Game<'_>) -> (u32, u32) {
        if game.is_over() {
            let s = game.score().total();
            return (s, s);
        }
        let key = game.key();
        if let Some(b) = self.table.get(key) {
            return b;
        }
        let b = upper_bound(game);
        self.table.put_static(key, b);
        (b, b)
    }

    /// A position's children (every distinct outcome of its turn), highest static bound first,
    /// ties in the engine's move order: a fixed order, whatever other threads have found.
    fn children<'c>(&self, game: &Game<'c>) -> Vec<Child<'c>> {
        let outcomes = undominated(turn_outcomes(game));
        let mut out: Vec<Child<'c>> = outcomes
            .into_iter()
            .map(|(g, m)| {
                let (b, u) = self.bounds(&g);
                (b, u, g, m)
            })
            .collect();
        out.sort_by_key(|c| std::cmp::Reverse(c.0));
        out
    }

    /// Beam search: turn by turn, the `beam` positions with the highest bound (ties: the current
    /// score, then the order found); the best final score and its line.
    fn beam(&self, game: &Game<'_>) -> Incumbent {
        let mut layer: Vec<(Game<'_>, Vec<Move>)> = vec![(game.clone(), Vec::new())];
        let mut best: Option<(u32, Vec<Move>)> = None;
        while !layer.is_empty() {
            let mut next: Vec<(u32, u32, Game<'_>, Vec<Move>)> = Vec::new();
            let mut seen: HashMap<u128, ()> = HashMap::default();
            let expanded: Vec<Vec<Child<'_>>> = layer.par_iter().map(|(g, _)| self.children(g)).collect();
            for ((_, line), children) in layer.iter().zip(expanded) {
                for (b, _, child, moves) in children {
                    let mut l = line.clone();
                    l.extend(moves);
                    if child.is_over() {
                        let s = child.score().total();
                        if best.as_ref().is_none_or(|(bs, _)| s > *bs) {
                            best = Some((s, l));
                        }
                    } else if seen.insert(child.key(), ()).is_none() {
                        next.push((b, child.score().total(), child, l));
                    }
                }
            }
            next.sort_by_key(|(b, s, _, _)| (std::cmp::Reverse(*b), std::cmp::Reverse(*s)));
            // Out of time: finish one line, quickly.
            next.truncate(if self.must_stop() { 1 } else { self.options.beam.max(1) });
            layer = next.into_iter().map(|(_, _, g, l)| (g, l)).collect();
        }
        let (score, line) = best.unwrap_or_else(|| (game.score().total(), Vec::new()));
        Incumbent { score, line }
    }

    /// The proof: an upper bound on the value of `game`, and the best line (equal when
    /// complete). The first two turns are split into pieces in a fixed order; every task starts
    /// from the beam's line and keeps its own incumbent, and the tasks' results are taken in
    /// that order, so the answer does not depend on the threads (the shared tables hold only
    /// true upper bounds, which cut only what cannot beat a task's incumbent).
    fn proof(&self, game: &Game<'_>, beam: Incumbent) -> (u32, Incumbent) {
        self.found.store(beam.score, Ordering::Relaxed);
        let (_, root) = self.bounds(game);
        let root = root.min(self.at_most);
        if root <= beam.score || game.is_over() {
            return (root.max(beam.score), beam);
        }
        let mut pieces: Vec<Piece<'_>> = Vec::new();
        for (_, cu, child, moves) in self.children(game) {
            if child.is_over() {
                pieces.push(Piece::Leaf(cu, moves));
            } else if cu <= beam.score {
                pieces.push(Piece::Cut(cu));
            } else {
                for (_, gu, grandchild, more) in self.children(&child) {
                    let mut line = moves.clone();
                    line.extend(more);
                    pieces.push(if grandchild.is_over() {
                        Piece::Leaf(gu, line)
                    } else if gu <= beam.score {
                        Piece::Cut(gu)
                    } else {
                        Piece::Task(grandchild, line)
                    });
                }
            }
        }
        let results: Vec<(u32, Option<Incumbent>)> = pieces
            .par_iter()
            .map(|piece| match piece {
                Piece::Leaf(score, line) => (*score, Some(Incumbent { score: *score, line: line.clone() })),
                Piece::Cut(bound) => (*bound, None),
                Piece::Task(g, line) => {
                    let mut local = Incumbent { score: beam.score, line: Vec::new() };
                    let mut path = line.clone();
                    let upper = self.explore(g, &mut path, &mut local);
                    (upper, (!local.line.is_empty()).then_some(local))
                }
            })
            .collect();
        let mut best = beam.clone();
        let mut upper = 0;
        for (u, found) in results {
            upper = upper.max(u);
            if let Some(found) = found.filter(|f| f.score > best.score) {
                best = found;
            }
        }
        let upper = upper.min(self.at_most);
        let proven = upper <= best.score && !self.must_stop();
        if proven && best.score > beam.score {
            // The line: the first, in the fixed order, reaching the proven score.
            if let Some(line) = self.first_line(&pieces, best.score) {
                best.line = line;
            }
        }
        (upper, best)
    }

    /// The first line, in the pieces' fixed order (and the fixed order of children below),
    /// scoring `target`: the pieces are searched on threads, and a piece stops as soon as an
    /// earlier one has found such a line, so the answer does not depend on the threads.
    fn first_line(&self, pieces: &[Piece<'_>], target: u32) -> Option<Vec<Move>> {
        let first = AtomicUsize::new(usize::MAX);
        let found: Vec<Option<Vec<Move>>> = pieces
            .par_iter()
            .enumerate()
            .map(|(index, piece)| {
                let line = match piece {
                    Piece::Leaf(score, line) => (*score >= target).then(|| line.clone()),
                    Piece::Cut(_) => None,
                    Piece::Task(g, line) => {
                        let mut path = line.clone();
                        self.seek(g, &mut path, target, index, &first)
                    }
                };
                if line.is_some() {
                    first.fetch_min(index, Ordering::SeqCst);
                }
                line
            })
            .collect();
        found.into_iter().flatten().next()
    }

    /// The first line below `game` in the fixed order scoring `target`; gives up (`None`) when
    /// an earlier piece than `index` has found one.
    fn seek(
        &self,
        game: &Game<'_>,
        path: &mut Vec<Move>,
        target: u32,
        index: usize,
        first: &AtomicUsize,
    ) -> Option<Vec<Move>> {
        if game.is_over() {
            return (game.score().total() >= target).then(|| path.clone());
        }
        if first.load(Ordering::Relaxed) < index || self.bounds(game).1 < target {
            return None;
        }
        if self.dominance.get(game).is_some_and(|u| u < target) {
            return None;
        }
        for (_, cu, child, moves) in self.children(game) {
            if cu < target {
                continue;
            }
            let len = path.len();
            path.extend(moves);
            if let Some(line) = self.seek(&child, path, target, index, first) {
                return Some(line);
            }
            path.truncate(len);
        }
        if first.load(Ordering::Relaxed) >= index {
            self.table.put(game.key(), target - 1); // searched through: nothing reaches it
        }
        None
    }

    /// What a task may cut: positions whose upper bound is at most the best any task has found
    /// (its own included).
    fn bar(&self, local: &Incumbent) -> u32 {
        local.score.max(self.found.load(Ordering::Relaxed))
    }

    /// Branch and bound below `game`, reached by `path`, improving on `local`: an upper bound
    /// on the value of `game`.
    fn explore(&self, game: &Game<'_>, path: &mut Vec<Move>, local: &mut Incumbent) -> u32 {
        if game.is_over() {
            let s = game.score().total();
            if s > local.score {
                *local = Incumbent { score: s, line: path.clone() };
                self.found.fetch_max(s, Ordering::Relaxed);
            }
            return s;
        }
        let (_, bound) = self.bounds(game);
        if bound <= self.bar(local) || self.must_stop() || self.reached_cap() {
            return bound;
        }
        if let Some(u) = self.dominance.get(game).filter(|&u| u <= self.bar(local)) {
            self.table.put(game.key(), u);
            return u;
        }
        self.positions.fetch_add(1, Ordering::Relaxed);
        let mut upper = 0;
        for (_, cu, child, moves) in self.children(game) {
            let u = if cu <= self.bar(local) || self.must_stop() || self.reached_cap() {
                cu
            } else {
                let len = path.len();
                path.extend(moves);
                let u = self.explore(&child, path, local);
                path.truncate(len);
                u
            };
            upper = upper.max(u);
        }
        let upper = upper.min(bound);
        self.table.put(game.key(), upper);
        self.dominance.put(game, upper);
        upper
    }
}

/// Drops every outcome another outcome dominates (same skeleton, a cube multiset containing
/// its own, at least its workers; ruling S1): the best of the rest is the best of all.
fn undominated<'c>(outcomes: Vec<(Game<'c>, Vec<Move>)>) -> Vec<(Game<'c>, Vec<Move>)> {
    let parts: Vec<(u128, [u8; 5], u8)> =
        outcomes.iter().map(|(g, _)| (g.skeleton_key(), g.inventory(), g.workers())).collect();
    let dominated = |i: usize| {
        let (k, inv, w) = parts[i];
        parts.iter().enumerate().any(|(j, &(kj, invj, wj))| {
            j != i && kj == k && wj >= w && invj.iter().zip(&inv).all(|(a, b)| a >= b) && (invj, wj) != (inv, w)
        })
    };
    let keep: Vec<bool> = (0..outcomes.len()).map(|i| !dominated(i)).collect();
    outcomes.into_iter().zip(keep).filter_map(|(o, k)| k.then_some(o)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use signalbox_engine::coe::{Catalogue, Instance, Record, Rules};

    /// Branch and bound agrees with the dynamic programme on shortened games, its line replays
    /// to its score, and one and two threads give the same score and line.
    #[test]
    fn agrees_with_the_dynamic_programme_and_across_threads() {
        let catalogue = Catalogue::house();
        for seed in 0..40 {
            let instance = Instance::from_seed(seed);
            let rules = Rules { max_turns: Some(3), ..Rules::default() };
            let game = Game::new(&catalogue, &instance, rules);
            let dp = super::super::exact::solve(&game);
            let one = solve(&game, SolveOptions { threads: Some(1), ..SolveOptions::default() });
            let two = solve(&game, SolveOptions { threads: Some(2), ..SolveOptions::default() });
            assert!(one.proven);
            assert_eq!(one.score, dp.score, "seed {seed}");
            assert_eq!(one.upper_bound, one.score);
            assert!(one.perfect_bound >= one.score);
            assert_eq!((one.score, &one.line), (two.score, &two.line), "seed {seed}: threads differ");
            let record = Record::new(instance.clone(), rules, one.line.clone());
            let (end, score) = record.replay(&catalogue, "search").expect("the line is legal");
            assert!(end.is_over());
            assert_eq!(score.total(), one.score, "seed {seed}");
        }
    }

    /// A budget of positions stops the proof at the same place on any thread count: the
    /// answer is the same on one thread and on four, a stopped one is labelled not proven with
    /// a true bound (at least the maximum), and a budget the proof fits in changes nothing.
    #[test]
    fn a_budget_of_positions_gives_the_same_answer_on_any_thread_count() {
        let catalogue = Catalogue::house();
        let mut stopped = 0;
        for seed in 0..12 {
            let instance = Instance::from_seed(seed);
            let rules = Rules { max_turns: Some(4), ..Rules::default() };
            let game = Game::new(&catalogue, &instance, rules);
            let whole = solve(&game, SolveOptions { threads: Some(2), ..SolveOptions::default() });
            assert!(whole.proven);
            for budget in [1, 5, 40, 1_000_000] {
                let with = |threads| {
                    solve(
                        &game,
                        SolveOptions { positions: Some(budget), threads: Some(threads), ..SolveOptions::default() },
                    )
                };
                let one = with(1);
                let four = with(4);
                assert_eq!(one, four, "seed {seed}, budget {budget}: threads differ");
                assert!(one.positions <= budget, "seed {seed}: {} positions past a budget of {budget}", one.positions);
                assert!(one.score <= whole.score && one.upper_bound >= whole.score, "seed {seed}, budget {budget}");
                if one.proven {
                    assert_eq!(one.score, whole.score, "seed {seed}, budget {budget}");
                } else {
                    stopped += 1;
                }
                let record = Record::new(instance.clone(), rules, one.line.clone());
                let (_, score) = record.replay(&catalogue, "search").expect("the line is legal");
                assert_eq!(score.total(), one.score, "seed {seed}, budget {budget}");
            }
            let ample =
                solve(&game, SolveOptions { positions: Some(1_000_000), threads: Some(2), ..SolveOptions::default() });
            assert_eq!((ample.score, ample.proven, &ample.line), (whole.score, true, &whole.line), "seed {seed}");
        }
        assert!(stopped > 0, "no budget stopped a proof: the test would not see a stop");
    }
}
