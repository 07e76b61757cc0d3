//! The exact bonus route search.
//!
//! The rules (rulebook, "C) Initiate One Bonus Payment"; rulings in `docs/rules/express-01.md`):
//! the route starts and ends at different stations, reaches no station twice, includes a station
//! of the company, and travels at most as many cards as the company has shares issued. It pays 1
//! per station plus 1 per "+1". Among routes paying the same, the one travelling fewer cards is
//! preferred, then the one whose station sequence comes first in station order (cells in map
//! order, `s1` before `s2`; a route and its reverse are the same route, shown from the end that
//! comes first).
//!
//! The search runs on the [`StationGraph`]: depth-first over hops, with
//! - two admissible bounds, both fractional knapsacks over the stations not yet reached that lie
//!   within the cards left: the *entry* bound weighs a station by the fewest borders of any hop
//!   into it; the *pair* bound by half the borders to its two nearest other stations (a station
//!   in the middle of a route is entered from one and left to another); the smaller counts;
//! - a transposition table: a state (station, arrival track, stations reached) seen before with
//!   at least as many cards left cannot do better now;
//! - rayon across start stations, sharing the best payout found so far (small networks run on
//!   one thread, which is quicker for them).
//!
//! The best payout and its card count are found first (in parallel, every start station of a
//! best route finding one); then a serial search in station order, from the first such start
//! station, finds the first route reaching them, so the answer does not depend on the number of
//! threads.

use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use rustc_hash::FxHashMap as HashMap;
use signalbox_engine::express01::network::{Network, StationRef};
use signalbox_engine::express01::route::{Route, RouteTask};

use super::hops::{PARALLEL_FROM, StateId, StationGraph};
use super::station_set::StationSet;

/// The largest weight the bounds tell apart; heavier stations count as this heavy.
const MAX_WEIGHT: u32 = 31;

/// The most station classes: two values (1, or 2 with "+1") times weights 0 to [`MAX_WEIGHT`].
const MAX_CLASSES: usize = 2 * (MAX_WEIGHT as usize + 1);

/// The class of a station that no knapsack counts.
const UNCOUNTED: u8 = u8::MAX;

/// The pair bound counts a station's second-nearest neighbour as at most this many borders away.
const SECOND_CAP: u32 = 3;

/// Stations grouped by (value, weight) for a knapsack bound, with a table of how many of each
/// class lie within reach of each station for each number of borders left.
struct Classes {
    /// The classes (value, weight), by value per weight, best first.
    classes: Vec<(u32, u32)>,
    /// Each station's class; [`UNCOUNTED`] for stations without a weight (never in `counts`).
    class_of: Vec<u8>,
    /// `[(station * span + borders left) * classes + class]`: stations of the class within reach.
    counts: Vec<u16>,
}

impl Classes {
    /// Classes of the stations with a weight (`None`: no hop reaches the station); `dist` is the
    /// station distance matrix clipped to the budget (`u16::MAX` beyond), `span` = budget + 1.
    fn new(value: &[u32], weight: &[Option<u32>], dist: &[u16], span: usize) -> Classes {
        let n = value.len();
        let class = |v: usize| weight[v].map(|w| (value[v], w.min(MAX_WEIGHT)));
        let mut classes: Vec<(u32, u32)> = (0..n).filter_map(class).collect();
        classes
            .sort_by(|a, b| (u64::from(b.0) * u64::from(a.1)).cmp(&(u64::from(a.0) * u64::from(b.1))).then(a.cmp(b)));
        classes.dedup();
        let class_of: Vec<u8> = (0..n)
            .map(|v| class(v).and_then(|c| classes.iter().position(|&x| x == c)).map_or(UNCOUNTED, |k| k as u8))
            .collect();
        let k = classes.len();
        let mut counts = vec![0u16; n * span * k];
        let fill = |(s, rows): (usize, &mut [u16])| {
            // Stations first reached at each distance, then summed over the distances.
            for v in (0..n).filter(|&v| v != s && weight[v].is_some()) {
                let d = usize::from(dist[s * n + v]);
                if d < span {
                    rows[d * k + usize::from(class_of[v])] += 1;
                }
            }
            for r in 1..span {
                for c in 0..k {
                    rows[r * k + c] += rows[(r - 1) * k + c];
                }
            }
        };
        let rows = (span * k).max(1);
        if n < PARALLEL_FROM {
            counts.chunks_mut(rows).enumerate().for_each(fill);
        } else {
            counts.par_chunks_mut(rows).enumerate().for_each(fill);
        }
        Classes { classes, class_of, counts }
    }

    /// The fractional knapsack over the stations within reach (`at` = station * span + borders
    /// left) less `removed`, with capacity `cap`; stops early once the value reaches `need`.
    fn knapsack(&self, at: usize, removed: &[u32], cap: u32, need: u32) -> u32 {
        let k = self.classes.len();
        let table = &self.counts[at * k..(at + 1) * k];
        let mut minus = [0u16; MAX_CLASSES];
        for &v in removed {
            if let Some(m) = minus.get_mut(usize::from(self.class_of[v as usize])) {
                *m += 1;
            }
        }
        let mut cap = cap;
        let mut whole = 0u32;
        for ((&(value, weight), &have), &gone) in self.classes.iter().zip(table).zip(&minus) {
            let count = u32::from(have - gone);
            if count == 0 {
                continue;
            }
            if count * weight <= cap {
                whole += count * value; // all of the class fits (weightless ones always do)
                cap -= count * weight;
            } else {
                // `weight > 0` here. The class fills the knapsack: whole items, then a fraction.
                let take = cap / weight;
                return whole + take * value + value * (cap - take * weight) / weight;
            }
            if whole >= need {
                return whole;
            }
        }
        whole
    }
}

/// Options of the search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// How many distinct routes to return, best first. Default 1; at least 1.
    pub top: usize,
    /// Stop after this long and return the best found with an upper bound, not proven.
    /// Default: none.
    pub time_limit: Option<Duration>,
    /// Worker threads; `None` uses rayon's default (one per core). Results do not depend on it.
    pub threads: Option<usize>,
    /// Most entries of the transposition table per start station. Default 4,000,000.
    pub table_limit: usize,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions { top: 1, time_limit: None, threads: None, table_limit: 4_000_000 }
    }
}

/// A route found by the search, with its certificate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RouteSolution {
    /// The certificate: every track run, in order. The engine checks it with
    /// [`Route::check`].
    pub route: Route,
    /// The payout the search computed.
    pub payout: u32,
    /// The cards travelled, by the task's length rule.
    pub cards: u32,
    /// The stations in route order.
    pub stations: Vec<StationRef>,
}

/// What the search returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RouteAnswer {
    /// The best routes found, best first (at most `top`). Empty if no legal route exists.
    pub routes: Vec<RouteSolution>,
    /// No route pays more than this. Equal to the best payout when proven.
    pub upper_bound: u32,
    /// Whether the search finished: the first route is optimal and the list is complete.
    pub proven: bool,
    /// Search nodes visited.
    pub nodes: u64,
}

/// Finds the best bonus routes for `task` on `network`.
pub fn best_routes(network: &Network, task: RouteTask, options: &SearchOptions) -> RouteAnswer {
    crate::threads::install(options.threads, || Solver::new(network, task, options).solve())
}

/// Best payout and cards as one number, larger is better.
fn pack(payout: u32, cards: u32) -> u64 {
    (u64::from(payout) << 32) | u64::from(u32::MAX - cards)
}

fn unpack(key: u64) -> (u32, u32) {
    ((key >> 32) as u32, u32::MAX - (key as u32))
}

struct Solver<'a> {
    network: &'a Network,
    g: StationGraph,
    company: Vec<bool>,
    start_cost: u32,
    max_cards: u32,
    /// Borders the route may cross.
    budget: u32,
    /// Fewest borders from station to station over the hops (`u16::MAX`: more than the budget).
    dist: Vec<u16>,
    /// The entry bound's classes: weight = the fewest borders of a hop into the station.
    entry: Classes,
    /// The pair bound's classes: weight = the two nearest other stations' borders, the second
    /// capped at [`SECOND_CAP`] (in half borders per station).
    pair: Classes,
    /// Each station's nearest other station, in borders.
    nearest: Vec<u32>,
    /// For each station and borders left: the company's stations within reach.
    company_counts: Vec<u16>,
    /// For each state: its hops in the order phase 1 tries them (cheap and valuable first).
    greedy: Vec<Vec<u32>>,
    options: &'a SearchOptions,
    deadline: Option<Instant>,
    aborted: AtomicBool,
    best: AtomicU64,
    nodes: AtomicU64,
}

impl<'a> Solver<'a> {
    fn new(network: &'a Network, task: RouteTask, options: &'a SearchOptions) -> Solver<'a> {
        let start_cost = task.rules.length.start_cost();
        let budget = task.max_cards.saturating_sub(start_cost);
        let g = StationGraph::new(network, budget);
        let n = g.stations.len();
        // No route crosses more borders than the dearest hop into each station, summed: a
        // larger budget changes nothing, so the tables are sized by the smaller.
        let mut dearest = vec![0u64; n];
        for hops in &g.hops {
            for h in hops {
                dearest[h.station as usize] = dearest[h.station as usize].max(u64::from(h.cost));
            }
        }
        let budget = budget.min(u32::try_from(dearest.iter().sum::<u64>()).unwrap_or(u32::MAX));
        let company: Vec<bool> = g.stations.iter().map(|&s| network.station(s).company == Some(task.company)).collect();
        let adj = cheapest_hops(&g);
        let dist: Vec<u16> =
            all_distances(&adj, budget).into_iter().map(|d| if d <= budget { d as u16 } else { u16::MAX }).collect();
        let span = budget as usize + 1;
        let min_in: Vec<Option<u32>> = g.min_in.iter().map(|&w| (w != u32::MAX).then_some(w)).collect();
        let entry = Classes::new(&g.value, &min_in, &dist, span);
        // The two nearest other stations of each station, by the fewest borders of a hop either way.
        let near = nearest_two(&adj);
        let nearest: Vec<u32> = near.iter().map(|m| m[0]).collect();
        let pair_weight: Vec<Option<u32>> = (0..n)
            .map(|v| (min_in[v].is_some() && near[v][0] != u32::MAX).then(|| near[v][0] + near[v][1].min(SECOND_CAP)))
            .collect();
        let pair = Classes::new(&g.value, &pair_weight, &dist, span);
        let mut company_counts = vec![0u16; n * span];
        for (s, rows) in company_counts.chunks_mut(span).enumerate() {
            for v in (0..n).filter(|&v| v != s && min_in[v].is_some() && company[v]) {
                let d = usize::from(dist[s * n + v]);
                if d < span {
                    rows[d] += 1;
                }
            }
            for r in 1..span {
                rows[r] += rows[r - 1];
            }
        }
        let greedy = g
            .hops
            .iter()
            .map(|hops| {
                let mut idx: Vec<u32> = (0..hops.len() as u32).collect();
                idx.sort_by_key(|&i| {
                    let h = hops[i as usize];
                    (h.cost, std::cmp::Reverse(g.value[h.station as usize]), h.station, h.to)
                });
                idx
            })
            .collect();
        Solver {
            network,
            g,
            company,
            start_cost,
            max_cards: task.max_cards,
            budget,
            dist,
            entry,
            pair,
            nearest,
            company_counts,
            greedy,
            options,
            deadline: options.time_limit.map(|t| Instant::now() + t),
            aborted: AtomicBool::new(false),
            best: AtomicU64::new(0),
            nodes: AtomicU64::new(0),
        }
    }

    fn n(&self) -> usize {
        self.g.stations.len()
    }

    fn solve(&self) -> RouteAnswer {
        if self.max_cards < self.start_cost || self.n() < 2 {
            return self.answer(Vec::new(), 0, true);
        }
        match self.n() {
            0..=64 => self.solve_with::<[u64; 1]>(),
            65..=128 => self.solve_with::<[u64; 2]>(),
            129..=256 => self.solve_with::<[u64; 4]>(),
            257..=512 => self.solve_with::<[u64; 8]>(),
            513..=1024 => self.solve_with::<[u64; 16]>(),
            _ => self.solve_with::<Box<[u64]>>(),
        }
    }

    fn answer(&self, routes: Vec<RouteSolution>, upper_bound: u32, proven: bool) -> RouteAnswer {
        RouteAnswer { routes, upper_bound, proven, nodes: self.nodes.load(Ordering::Relaxed) }
    }

    fn solve_with<S: StationSet>(&self) -> RouteAnswer {
        let mut starts: Vec<usize> = (0..self.n()).collect();
        let root = |s: usize| self.root_bound(s);
        starts.sort_by_key(|&s| (std::cmp::Reverse(root(s)), s));
        if self.options.top > 1 {
            return self.top_routes::<S>(&starts);
        }
        // Phase 1: the best (payout, cards), in parallel.
        let from = |&s: &usize| {
            let mut run = Run::<S>::new(self, s);
            let done = run.improve(self.g.start_state(s), 0, 0);
            (done, run.best_key, std::mem::take(&mut run.best_path))
        };
        let results: Vec<(bool, u64, Vec<StateId>)> = if self.n() < PARALLEL_FROM {
            starts.iter().map(from).collect()
        } else {
            starts.par_iter().with_max_len(1).map(from).collect()
        };
        let proven = results.iter().all(|r| r.0);
        let best_key = self.best.load(Ordering::Relaxed);
        if best_key == 0 {
            let ub = if proven { 0 } else { self.open_bound(&starts, &results) };
            return self.answer(Vec::new(), ub, proven);
        }
        let (payout, cards) = unpack(best_key);
        if !proven {
            let path = results.iter().filter(|r| r.1 == best_key).map(|r| r.2.clone()).next().unwrap_or_default();
            let ub = self.open_bound(&starts, &results).max(payout);
            return self.answer(vec![self.solution(&path)], ub, false);
        }
        // Phase 2: the first route in station order reaching (payout, cards). It starts at the
        // first station from which phase 1 reached the best: no earlier one can.
        let first_start = starts.iter().zip(&results).filter(|(_, r)| r.1 == best_key).map(|(&s, _)| s).min();
        let mut run = Run::<S>::new(self, 0);
        for s in first_start.unwrap_or(0)..self.n() {
            run.restart(s);
            let mut levels = Vec::new();
            let root = [Reach { state: self.g.start_state(s), used: 0, parent: u32::MAX }];
            match run.first(&root, 0, payout, cards - self.start_cost, &mut levels) {
                Some(true) => {
                    drop(run); // counts its nodes
                    return self.answer(vec![self.solution(&trace(&levels))], payout, true);
                }
                Some(false) => {}
                None => break, // time ran out
            }
        }
        drop(run);
        // Time ran out in phase 2: any route with the best key will do, labelled not proven.
        let path = results.iter().filter(|r| r.1 == best_key).map(|r| r.2.clone()).next().unwrap_or_default();
        self.answer(vec![self.solution(&path)], payout, false)
    }

    fn open_bound(&self, starts: &[usize], results: &[(bool, u64, Vec<StateId>)]) -> u32 {
        starts.iter().zip(results).filter(|(_, r)| !r.0).map(|(&s, _)| self.root_bound(s)).max().unwrap_or(0)
    }

    fn root_bound(&self, s: usize) -> u32 {
        let path = [self.g.start_state(s)];
        self.bound(s, &path, self.budget, self.company[s], u32::MAX).map_or(0, |extra| self.g.value[s] + extra)
    }

    /// The most payout the stations not yet reached could still add from station `cur` with
    /// `rem` borders left; `None` if the route could not include a company station any more.
    /// `path` holds the states of the route so far (its stations are the ones reached).
    ///
    /// A fractional knapsack: each station within `rem` borders of `cur` (by the fewest borders
    /// between stations) is an item worth its value and weighing the fewest borders of any hop
    /// into it; a route reaching a set of stations crosses at least the sum of their weights.
    /// Stations are counted by class (value, weight) from a table, less the stations reached;
    /// the count stops early once it reaches `need` (the answer is then at least `need`).
    fn bound(&self, cur: usize, path: &[StateId], rem: u32, has_company: bool, need: u32) -> Option<u32> {
        let n = self.n();
        let at = cur * (self.budget as usize + 1) + rem as usize;
        // The stations reached that would otherwise count: within reach, not the current one.
        let mut buffer = [0u32; 32];
        let mut spill = Vec::new();
        let mut len = 0;
        for &st in path {
            let v = self.g.state_station[st as usize];
            if v as usize != cur && u32::from(self.dist[cur * n + v as usize]) <= rem {
                if len < buffer.len() {
                    buffer[len] = v;
                    len += 1;
                } else {
                    spill.push(v);
                }
            }
        }
        let removed: &[u32] = if spill.is_empty() {
            &buffer[..len]
        } else {
            spill.extend_from_slice(&buffer);
            &spill
        };
        if !has_company {
            let reached = removed.iter().filter(|&&v| self.company[v as usize]).count() as u32;
            if u32::from(self.company_counts[at]) == reached {
                return None;
            }
        }
        // Pair bound, in half borders: the route crosses at least half the nearest-neighbour
        // costs of its first station, both of each middle station, one of its last station.
        let cap = (2 * rem + SECOND_CAP).saturating_sub(self.nearest[cur].min(2 * rem + SECOND_CAP));
        let pair = self.pair.knapsack(at, removed, cap, need);
        if pair < need {
            return Some(pair);
        }
        let entry = self.entry.knapsack(at, removed, rem, need.min(pair));
        Some(entry.min(pair))
    }

    fn timed_out(&self) -> bool {
        if self.aborted.load(Ordering::Relaxed) {
            return true;
        }
        if let Some(d) = self.deadline
            && crate::stop::passed(d)
        {
            self.aborted.store(true, Ordering::Relaxed);
            return true;
        }
        false
    }

    fn solution(&self, path: &[StateId]) -> RouteSolution {
        let route = self.g.certificate(self.network, path);
        let stations: Vec<StationRef> =
            path.iter().map(|&st| self.g.stations[self.g.state_station[st as usize] as usize]).collect();
        let payout = stations.iter().map(|&s| self.network.station(s).value()).sum();
        let borders: u32 = path
            .windows(2)
            .map(|w| self.g.hops[w[0] as usize].iter().find(|h| h.to == w[1]).map_or(0, |h| h.cost))
            .sum();
        RouteSolution { route, payout, cards: borders + self.start_cost, stations }
    }

    /// Every route with a payout among the `top` best, by enumeration with the bound; serial.
    fn top_routes<S: StationSet>(&self, starts: &[usize]) -> RouteAnswer {
        let mut run = Run::<S>::new(self, 0);
        let mut complete = true;
        for &s in starts {
            run.restart(s);
            let mut path = vec![self.g.start_state(s)];
            if !run.enumerate(self.g.start_state(s), 0, 0, &mut path) {
                complete = false;
                break;
            }
        }
        let mut found: Vec<(Vec<u32>, u32, u32, Vec<StateId>)> = std::mem::take(&mut run.found)
            .into_iter()
            .map(|(seq, (payout, borders, path))| (seq, payout, borders, path))
            .collect();
        drop(run); // counts its nodes
        found.sort_by(|a, b| b.1.cmp(&a.1).then(a.2.cmp(&b.2)).then(a.0.cmp(&b.0)));
        found.truncate(self.options.top);
        let routes: Vec<RouteSolution> = found
            .iter()
            .map(|(seq, _, _, path)| {
                let forward: Vec<u32> = path.iter().map(|&st| self.g.state_station[st as usize]).collect();
                let sol = self.solution(path);
                if &forward == seq {
                    sol
                } else {
                    let route = sol.route.reversed();
                    let mut stations = sol.stations.clone();
                    stations.reverse();
                    RouteSolution { route, stations, ..sol }
                }
            })
            .collect();
        let best = routes.first().map_or(0, |r| r.payout);
        let ub = if complete { best } else { starts.iter().map(|&s| self.root_bound(s)).max().unwrap_or(0).max(best) };
        self.answer(routes, ub, complete)
    }
}

/// A state a station sequence can end in, with the borders used to get there and the index of
/// the state it came from in the previous level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Reach {
    state: StateId,
    used: u32,
    parent: u32,
}

/// The states of the route found by phase 2, from its levels: the last level's cheapest state,
/// and its parents back to the start.
fn trace(levels: &[Vec<Reach>]) -> Vec<StateId> {
    let mut states = Vec::with_capacity(levels.len());
    let Some(last) = levels.last() else { return states };
    let mut at = last.iter().enumerate().min_by_key(|(_, r)| r.used).map_or(0, |(i, _)| i);
    for level in levels.iter().rev() {
        let Some(r) = level.get(at) else { break };
        states.push(r.state);
        at = r.parent as usize;
    }
    states.reverse();
    states
}

/// One thread's search from one start station.
struct Run<'s, 'a, S: StationSet> {
    solver: &'s Solver<'a>,
    visited: S,
    has_company: usize,
    path: Vec<StateId>,
    table: HashMap<(StateId, S), u32>,
    best_key: u64,
    best_path: Vec<StateId>,
    ticks: u64,
    /// Top-K enumeration: canonical station sequence -> (payout, borders, path).
    found: HashMap<Vec<u32>, (u32, u32, Vec<StateId>)>,
    payouts: BinaryHeap<std::cmp::Reverse<u32>>,
}

impl<S: StationSet> Drop for Run<'_, '_, S> {
    fn drop(&mut self) {
        self.solver.nodes.fetch_add(self.ticks, Ordering::Relaxed);
    }
}

impl<'s, 'a, S: StationSet> Run<'s, 'a, S> {
    fn new(solver: &'s Solver<'a>, start: usize) -> Self {
        let mut run = Run {
            solver,
            visited: S::empty(solver.n()),
            has_company: 0,
            path: Vec::new(),
            table: HashMap::default(),
            best_key: 0,
            best_path: Vec::new(),
            ticks: 0,
            found: HashMap::default(),
            payouts: BinaryHeap::new(),
        };
        run.restart(start);
        run
    }

    fn restart(&mut self, start: usize) {
        let n = self.solver.n();
        self.visited = S::empty(n);
        self.visited.flip(start);
        self.has_company = usize::from(self.solver.company[start]);
        self.path = vec![self.solver.g.start_state(start)];
        self.table.clear();
    }

    fn tick(&mut self) -> bool {
        self.ticks += 1;
        self.ticks % 1024 == 1 && self.solver.timed_out()
    }

    fn station(&self, state: StateId) -> usize {
        self.solver.g.state_station[state as usize] as usize
    }

    fn push(&mut self, state: StateId) {
        let v = self.station(state);
        self.visited.flip(v);
        self.has_company += usize::from(self.solver.company[v]);
        self.path.push(state);
    }

    fn pop(&mut self) {
        if let Some(state) = self.path.pop() {
            let v = self.station(state);
            self.visited.flip(v);
            self.has_company -= usize::from(self.solver.company[v]);
        }
    }

    /// Phase 1: improves the shared best from this state. Returns false if time ran out.
    fn improve(&mut self, state: StateId, payout_before: u32, used: u32) -> bool {
        if self.tick() {
            return false;
        }
        let sv = self.solver;
        let cur = self.station(state);
        let payout = payout_before + sv.g.value[cur];
        let cards = used + sv.start_cost;
        let has_company = self.has_company > 0;
        if self.path.len() >= 2 && has_company {
            let key = pack(payout, cards);
            if key > self.best_key {
                self.best_key = key;
                self.best_path = self.path.clone();
            }
            sv.best.fetch_max(key, Ordering::Relaxed);
        }
        let rem = sv.budget - used;
        // Go on only if some extension could beat the best: pay more, or as much on fewer cards.
        let (best_payout, best_cards) = unpack(sv.best.load(Ordering::Relaxed));
        // Ties are explored too, so that every start station of a best route finds one: phase 2
        // then starts from the first of them.
        let need = (best_payout + u32::from(cards > best_cards)).saturating_sub(payout).max(1);
        match sv.bound(cur, &self.path, rem, has_company, need) {
            Some(extra) if extra >= need => {}
            _ => return true,
        }
        if self.path.len() >= 2 && self.table.len() < sv.options.table_limit {
            let key = (state, self.visited.clone());
            match self.table.get_mut(&key) {
                Some(seen) if *seen >= rem => return true,
                Some(seen) => *seen = rem,
                None => {
                    self.table.insert(key, rem);
                }
            }
        }
        let hops = &sv.g.hops[state as usize];
        for &i in &sv.greedy[state as usize] {
            let h = hops[i as usize];
            if h.cost > rem {
                break; // the greedy order is by cost first
            }
            if self.visited.contains(h.station as usize) {
                continue;
            }
            self.push(h.to);
            let ok = self.improve(h.to, payout, used + h.cost);
            self.pop();
            if !ok {
                return false;
            }
        }
        true
    }

    /// Phase 2: depth first over station sequences in station order, so the first route found
    /// is the one whose sequence comes first. A sequence may end in several states (arrival
    /// tracks) with different borders used; `level` holds them all, so that the sequences
    /// continuing from any of them are tried together, in order. Whether a route reaches exactly
    /// `target` payout within `budget` borders; on success `levels` holds the levels of the
    /// route found (see [`trace`]). `None` if time ran out.
    fn first(
        &mut self,
        level: &[Reach],
        payout_before: u32,
        target: u32,
        budget: u32,
        levels: &mut Vec<Vec<Reach>>,
    ) -> Option<bool> {
        if self.tick() {
            return None;
        }
        let sv = self.solver;
        let cur = self.station(level[0].state);
        let payout = payout_before + sv.g.value[cur];
        let has_company = self.has_company > 0;
        if self.path.len() >= 2 && has_company && payout == target {
            levels.push(level.to_vec());
            return Some(true);
        }
        let used = level.iter().map(|r| r.used).min().unwrap_or(budget);
        let need = target.saturating_sub(payout).max(1);
        match sv.bound(cur, &self.path, budget - used, has_company, need) {
            Some(extra) if extra >= need => {}
            _ => return Some(false),
        }
        // States already known to fail with at least as many borders left are dropped.
        let live: Vec<(usize, Reach)> = level
            .iter()
            .copied()
            .enumerate()
            .filter(|(_, r)| self.table.get(&(r.state, self.visited.clone())).is_none_or(|&f| f < budget - r.used))
            .collect();
        let mut next: Vec<(u32, Reach)> = Vec::new();
        for &(i, r) in &live {
            for h in &sv.g.hops[r.state as usize] {
                if r.used + h.cost <= budget && !self.visited.contains(h.station as usize) {
                    next.push((h.station, Reach { state: h.to, used: r.used + h.cost, parent: i as u32 }));
                }
            }
        }
        next.sort_by_key(|(t, r)| (*t, r.state, r.used, r.parent));
        next.dedup_by_key(|(_, r)| r.state); // the fewest borders for each state
        levels.push(level.to_vec());
        let mut i = 0;
        while i < next.len() {
            let t = next[i].0;
            let j = next[i..].iter().position(|(x, _)| *x != t).map_or(next.len(), |k| i + k);
            let group: Vec<Reach> = next[i..j].iter().map(|(_, r)| *r).collect();
            self.push(group[0].state);
            let found = self.first(&group, payout, target, budget, levels);
            self.pop();
            if found != Some(false) {
                return found;
            }
            i = j;
        }
        levels.pop();
        for (_, r) in live {
            if self.table.len() < sv.options.table_limit {
                let e = self.table.entry((r.state, self.visited.clone())).or_insert(budget - r.used);
                *e = (*e).max(budget - r.used);
            }
        }
        Some(false)
    }

    /// Top-K: records every route whose payout may be among the `top` best. Returns false if
    /// time ran out.
    fn enumerate(&mut self, state: StateId, payout_before: u32, used: u32, path: &mut Vec<StateId>) -> bool {
        if self.tick() {
            return false;
        }
        let sv = self.solver;
        let cur = self.station(state);
        let payout = payout_before + sv.g.value[cur];
        let has_company = self.has_company > 0;
        if self.path.len() >= 2 && has_company {
            let seq: Vec<u32> = self.path.iter().map(|&st| sv.g.state_station[st as usize]).collect();
            let mut rev = seq.clone();
            rev.reverse();
            let canonical = seq.min(rev);
            match self.found.get_mut(&canonical) {
                Some(entry) => {
                    if used < entry.1 {
                        *entry = (payout, used, self.path.clone());
                    }
                }
                None => {
                    self.found.insert(canonical, (payout, used, self.path.clone()));
                    self.payouts.push(std::cmp::Reverse(payout));
                    if self.payouts.len() > sv.options.top {
                        self.payouts.pop();
                    }
                }
            }
        }
        let rem = sv.budget - used;
        let threshold = if self.payouts.len() >= sv.options.top { self.payouts.peek().map_or(0, |r| r.0) } else { 0 };
        let need = threshold.saturating_sub(payout).max(1);
        match sv.bound(cur, &self.path, rem, has_company, need) {
            Some(extra) if extra >= need => {}
            _ => return true,
        }
        for &h in &sv.g.hops[state as usize] {
            if h.cost > rem || self.visited.contains(h.station as usize) {
                continue;
            }
            self.push(h.to);
            path.push(h.to);
            let ok = self.enumerate(h.to, payout, used + h.cost, path);
            path.pop();
            self.pop();
            if !ok {
                return false;
            }
        }
        true
    }
}

/// The cheapest hop from each station to each other, whatever the tracks: `[from][to]` as
/// adjacency lists, from a dense matrix (`u32::MAX`: no hop).
fn cheapest_hops(g: &StationGraph) -> Vec<Vec<(u32, u32)>> {
    let n = g.stations.len();
    let mut matrix = vec![u32::MAX; n * n];
    for (state, hops) in g.hops.iter().enumerate() {
        let s = g.state_station[state] as usize;
        for h in hops {
            let m = &mut matrix[s * n + h.station as usize];
            *m = (*m).min(h.cost);
        }
    }
    matrix
        .chunks(n.max(1))
        .map(|row| row.iter().enumerate().filter(|(_, c)| **c != u32::MAX).map(|(t, &c)| (t as u32, c)).collect())
        .collect()
}

/// For each station, the borders to its nearest and second-nearest other station (by the
/// cheapest hop either way between them); `u32::MAX` where there is none.
fn nearest_two(adj: &[Vec<(u32, u32)>]) -> Vec<[u32; 2]> {
    let n = adj.len();
    // Either way: a hop u -> v is also a cost between v and u.
    let mut both: Vec<Vec<(u32, u32)>> = adj.to_vec();
    for (u, list) in adj.iter().enumerate() {
        for &(v, c) in list {
            both[v as usize].push((u as u32, c));
        }
    }
    (0..n)
        .map(|v| {
            let list = &mut both[v];
            list.sort_unstable();
            list.dedup_by_key(|e| e.0); // the cheapest to each station
            let mut costs: Vec<u32> = list.iter().map(|e| e.1).collect();
            costs.sort_unstable();
            [costs.first().copied().unwrap_or(u32::MAX), costs.get(1).copied().unwrap_or(u32::MAX)]
        })
        .collect()
}

/// Up to this many stations, station distances come from Floyd-Warshall (short, branch-free
/// loops over rows), beyond from Dial's algorithm per station (in parallel).
const FLOYD_UP_TO: usize = 160;

/// [`all_distances`] by Floyd-Warshall.
fn floyd_warshall(adj: &[Vec<(u32, u32)>], budget: u32) -> Vec<u32> {
    let n = adj.len();
    let mut d = vec![u32::MAX; n * n];
    for (u, list) in adj.iter().enumerate() {
        d[u * n + u] = 0;
        for &(v, c) in list {
            let e = &mut d[u * n + v as usize];
            *e = (*e).min(c);
        }
    }
    for k in 0..n {
        let row_k: Vec<u32> = d[k * n..(k + 1) * n].to_vec();
        for i in 0..n {
            let dik = d[i * n + k];
            if dik == u32::MAX {
                continue;
            }
            for (dij, &dkj) in d[i * n..(i + 1) * n].iter_mut().zip(&row_k) {
                *dij = (*dij).min(dik.saturating_add(dkj));
            }
        }
    }
    for x in &mut d {
        if *x > budget {
            *x = u32::MAX;
        }
    }
    d
}

/// Fewest borders between stations over the hops, ignoring which stations were reached
/// (a lower bound on any route's cost between them). `u32::MAX` where more than `budget`.
fn all_distances(adj: &[Vec<(u32, u32)>], budget: u32) -> Vec<u32> {
    let n = adj.len();
    if n <= FLOYD_UP_TO {
        return floyd_warshall(adj, budget);
    }
    dial(adj, budget)
}

/// [`all_distances`] by Dial's algorithm from each station.
fn dial(adj: &[Vec<(u32, u32)>], budget: u32) -> Vec<u32> {
    let n = adj.len();
    let mut dist = vec![u32::MAX; n * n];
    // Dial's algorithm: one bucket per distance up to the budget.
    let from = |buckets: &mut Vec<Vec<u32>>, (src, row): (usize, &mut [u32])| {
        row[src] = 0;
        buckets[0].push(src as u32);
        for d in 0..=budget as usize {
            while let Some(u) = buckets[d].pop() {
                if row[u as usize] != d as u32 {
                    continue;
                }
                for &(v, c) in &adj[u as usize] {
                    let nd = d as u32 + c;
                    if nd <= budget && nd < row[v as usize] {
                        row[v as usize] = nd;
                        buckets[nd as usize].push(v);
                    }
                }
            }
        }
    };
    let buckets = || vec![Vec::new(); budget as usize + 1];
    if n < PARALLEL_FROM {
        let mut b = buckets();
        dist.chunks_mut(n.max(1)).enumerate().for_each(|x| from(&mut b, x));
    } else {
        dist.par_chunks_mut(n.max(1)).enumerate().for_each_init(buckets, from);
    }
    dist
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// Both ways of computing station distances agree, on random hop lists of every size.
    #[test]
    fn floyd_warshall_and_dial_agree() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for _ in 0..200 {
            let n = rng.random_range(1..70usize);
            let adj: Vec<Vec<(u32, u32)>> = (0..n)
                .map(|_| {
                    (0..rng.random_range(0..6))
                        .map(|_| (rng.random_range(0..n as u32), rng.random_range(0..5u32)))
                        .collect()
                })
                .collect();
            let budget = rng.random_range(0..15);
            assert_eq!(floyd_warshall(&adj, budget), dial(&adj, budget));
        }
    }
}
