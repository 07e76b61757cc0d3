//! The proven best score of a game, by branch and bound over the positions at turn starts.
//!
//! 1. **Incumbent.** A beam search plays the game turn by turn, keeping the positions with the
//!    highest bound ([`upper_bound`]); its best line is the first incumbent.
//! 2. **Proof.** Depth-first branch and bound: a position whose bound cannot beat the incumbent
//!    is cut; children are searched highest bound first. A table remembers, per position key,
//!    an upper bound on its value (its static bound, or the best its searched children allowed),
//!    shared by the threads; rayon splits the first two turns' positions between them, with
//!    the incumbent score shared.
//! 3. **Line.** A serial search in the same fixed order (children by bound, ties by the engine's
//!    move order) takes the first line reaching the proven score: so one thread and many give
//!    the same line.
//!
//! A time limit stops the proof where it is: the answer is then the best line found and the
//! highest bound among the positions not searched, labelled not proven.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
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
    /// Worker threads; `None` uses rayon's default (one per core).
    pub threads: Option<usize>,
    /// Positions the beam search keeps per turn.
    pub beam: usize,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions { time_limit: None, threads: None, beam: 512 }
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
    let run = || Search::new(options).run(game);
    match options.threads {
        Some(n) => match rayon::ThreadPoolBuilder::new().num_threads(n.max(1)).build() {
            Ok(pool) => pool.install(run),
            Err(_) => run(),
        },
        None => run(),
    }
}

/// The shared state of one search.
struct Search {
    options: SolveOptions,
    deadline: Option<Instant>,
    timed_out: AtomicBool,
    best: AtomicU32,
    best_line: Mutex<Vec<Move>>,
    table: Table,
    dominance: Dominance,
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

/// Upper bounds on position values, by key.
struct Table(Sharded<u8>);

impl Table {
    fn get(&self, key: u128) -> Option<u32> {
        self.0.with(key, |m| m.get(&key).map(|&v| u32::from(v))).flatten()
    }

    /// Records `value <= upper`, keeping the lower of two bounds.
    fn put(&self, key: u128, upper: u32) {
        let v = upper.min(255) as u8;
        self.0.with(key, |m| {
            m.entry(key).and_modify(|old| *old = (*old).min(v)).or_insert(v);
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

/// A child position with its bound and the moves reaching it.
type Child<'c> = (u32, Game<'c>, Vec<Move>);

impl Search {
    fn new(options: SolveOptions) -> Search {
        Search {
            options,
            deadline: options.time_limit.map(|t| Instant::now() + t),
            timed_out: AtomicBool::new(false),
            best: AtomicU32::new(0),
            best_line: Mutex::new(Vec::new()),
            table: Table(Sharded::new()),
            dominance: Dominance(Sharded::new()),
            positions: std::sync::atomic::AtomicU64::new(0),
        }
    }

    fn run(&self, game: &Game<'_>) -> Solved {
        let perfect_bound = upper_bound(game);
        let (beam_score, beam_line) = self.beam(game);
        self.offer(beam_score, &beam_line);
        let upper = self.proof(game);
        let best = self.best.load(Ordering::SeqCst);
        let proven = !self.timed_out.load(Ordering::SeqCst) && upper <= best;
        let line = if proven && beam_score == best {
            Some(beam_line)
        } else if proven {
            // The canonical line: the first, in the fixed order, reaching the proven score.
            let mut path = Vec::new();
            self.first_line(game, best, &mut path).then_some(path)
        } else {
            None
        };
        let line = line.unwrap_or_else(|| self.best_line.lock().map(|l| l.clone()).unwrap_or_default());
        Solved {
            score: best,
            line,
            upper_bound: upper.max(best).min(perfect_bound.max(best)),
            proven,
            perfect_bound,
            positions: self.positions.load(Ordering::Relaxed),
            beam_score,
        }
    }

    /// Records a complete line if it beats the incumbent.
    fn offer(&self, score: u32, line: &[Move]) {
        if let Ok(mut l) = self.best_line.lock() {
            let best = self.best.load(Ordering::SeqCst);
            if score > best || l.is_empty() {
                self.best.store(score.max(best), Ordering::SeqCst);
                if score >= best {
                    *l = line.to_vec();
                }
            }
        }
    }

    fn out_of_time(&self) -> bool {
        if self.timed_out.load(Ordering::Relaxed) {
            return true;
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.timed_out.store(true, Ordering::Relaxed);
            return true;
        }
        false
    }

    /// The bound of a position: its table entry, or its static bound (then recorded).
    fn bound(&self, game: &Game<'_>) -> u32 {
        if game.is_over() {
            return game.score().total();
        }
        let key = game.key();
        if let Some(u) = self.table.get(key) {
            return u;
        }
        let u = upper_bound(game);
        self.table.put(key, u);
        u
    }

    /// A position's children (every distinct outcome of its turn), highest bound first, ties in
    /// the engine's move order.
    fn children<'c>(&self, game: &Game<'c>) -> Vec<Child<'c>> {
        let outcomes = undominated(turn_outcomes(game));
        let mut out: Vec<Child<'c>> = outcomes.into_iter().map(|(g, m)| (self.bound(&g), g, m)).collect();
        out.sort_by_key(|c| std::cmp::Reverse(c.0));
        out
    }

    /// Beam search: turn by turn, the `beam` positions with the highest bound (ties: the current
    /// score, then the order found); the best final score and its line.
    fn beam(&self, game: &Game<'_>) -> (u32, Vec<Move>) {
        let mut layer: Vec<(Game<'_>, Vec<Move>)> = vec![(game.clone(), Vec::new())];
        let mut best: Option<(u32, Vec<Move>)> = None;
        while !layer.is_empty() {
            let mut next: Vec<(u32, u32, Game<'_>, Vec<Move>)> = Vec::new();
            let mut seen: HashMap<u128, ()> = HashMap::default();
            let expanded: Vec<Vec<Child<'_>>> = layer.par_iter().map(|(g, _)| self.children(g)).collect();
            for ((_, line), children) in layer.iter().zip(expanded) {
                for (b, child, moves) in children {
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
            next.truncate(self.options.beam.max(1));
            layer = next.into_iter().map(|(_, _, g, l)| (g, l)).collect();
        }
        best.unwrap_or_else(|| (game.score().total(), Vec::new()))
    }

    /// The proof: an upper bound on the value of `game` (equal to the incumbent when complete).
    fn proof(&self, game: &Game<'_>) -> u32 {
        // Split the first two turns (the start choice and turn 1) between threads.
        let b = self.bound(game);
        if b <= self.best.load(Ordering::SeqCst) {
            return b;
        }
        let mut tasks: Vec<(Game<'_>, Vec<Move>)> = Vec::new();
        let mut settled = 0;
        for (cb, child, moves) in self.children(game) {
            if child.is_over() || cb <= self.best.load(Ordering::SeqCst) {
                settled = settled.max(if child.is_over() { self.leaf(&child, &moves) } else { cb });
                continue;
            }
            for (gb, grandchild, more) in self.children(&child) {
                let mut line = moves.clone();
                line.extend(more);
                if grandchild.is_over() {
                    settled = settled.max(self.leaf(&grandchild, &line));
                } else if gb <= self.best.load(Ordering::SeqCst) {
                    settled = settled.max(gb);
                } else {
                    tasks.push((grandchild, line));
                }
            }
        }
        let explored = tasks
            .par_iter()
            .map(|(g, line)| {
                let mut path = line.clone();
                self.explore(g, &mut path)
            })
            .max()
            .unwrap_or(0);
        settled.max(explored)
    }

    /// A finished game: offer its line, return its score.
    fn leaf(&self, game: &Game<'_>, line: &[Move]) -> u32 {
        let s = game.score().total();
        self.offer(s, line);
        s
    }

    /// Branch and bound below `game`, reached by `path`: an upper bound on its value.
    fn explore(&self, game: &Game<'_>, path: &mut Vec<Move>) -> u32 {
        if game.is_over() {
            return self.leaf(game, path);
        }
        let bound = self.bound(game);
        if bound <= self.best.load(Ordering::Relaxed) || self.out_of_time() {
            return bound;
        }
        if let Some(u) = self.dominance.get(game).filter(|&u| u <= self.best.load(Ordering::Relaxed)) {
            self.table.put(game.key(), u);
            return u;
        }
        self.positions.fetch_add(1, Ordering::Relaxed);
        let mut upper = 0;
        for (cb, child, moves) in self.children(game) {
            let u = if cb <= self.best.load(Ordering::Relaxed) || self.out_of_time() {
                cb
            } else {
                let len = path.len();
                path.extend(moves);
                let u = self.explore(&child, path);
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

    /// The first line, in the fixed order, from `game` reaching `target`; `false` if none.
    fn first_line(&self, game: &Game<'_>, target: u32, path: &mut Vec<Move>) -> bool {
        if game.is_over() {
            return game.score().total() >= target;
        }
        for (cb, child, moves) in self.children(game) {
            if cb < target {
                break; // sorted: no later child reaches it either
            }
            let len = path.len();
            path.extend(moves);
            if self.first_line(&child, target, path) {
                return true;
            }
            path.truncate(len);
            // Nothing below reaches the target: remember it.
            self.table.put(child.key(), target - 1);
        }
        false
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
}
