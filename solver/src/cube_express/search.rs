//! The exact best turn by search: every lay (tile, side, cell, rotation, action, payment), and
//! for each a memoised search over step II and the market in which every legal action of the
//! rulebook is a move of the search at every point: conversions, stock sales, coal and the second
//! locomotive whenever the rules allow them ("anytime during their turn"; "Selling Stocks: at any
//! time during their turn"), pickup, delivery and passenger on a tile in any order, each
//! locomotive's every path.
//!
//! Its reductions are proven in ruling S3 (`docs/rules/cube-express.md`):
//!
//! - **Trades as late as they can be.** After a trade `T` from position `p`, an event `E` (a move,
//!   a pickup, a delivery, a passenger, the market, the lay), or a trade of a lower rank, is
//!   searched only when swapping them fails: `E` is illegal at `p`, or `T` is illegal after `E`,
//!   or `E` then `T` reaches another position than `T` then `E`. Checked on the positions
//!   themselves, not argued rule by rule. This one keeps every end position of the turn, so
//!   [`end_positions`] (for planning several turns) makes it alone.
//! - **Moves towards nothing.** A move onto a tile from which no tile with a facility, a factory
//!   or a city where a passenger may wait is reachable within every movement point the player
//!   can still raise is not searched: stopping the locomotive there instead leaves at least as
//!   much.
//! - **What no longer matters this turn is forgotten:** a finished locomotive's tile, and after
//!   the market everything but the cubes, the disc and the objective cubes; the discard takes
//!   coal, then wood, then iron.
//!
//! Positions are compact (the player's cubes, the discs, the locomotives, the run's visited
//! tiles, what the turn has placed on the map) and searched once each per network; lays that
//! leave the same network within reach share one search. The best plan is replayed by the
//! engine and re-valued from scratch by [`super::value::value`].

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use rustc_hash::FxHashMap;
use signalbox_engine::cube_express::action::{Action, Lay};
use signalbox_engine::cube_express::catalogue::COLUMNS;
use signalbox_engine::cube_express::game::{Game, GameKey, OBJECTIVE_LIMIT, Phase};
use signalbox_engine::cube_express::options::Passengers;
use signalbox_engine::cube_express::resource::{Conversion, Resource, Resources};
use signalbox_engine::grid::square::Cell;

use super::model::distances;
use super::value::{Weights, objective_weights, value};
use bound::Bound;

mod bound;

const NONE: u8 = u8::MAX;
/// The tile of a locomotive that has finished its movement (it no longer matters).
const PARKED: u8 = u8::MAX - 1;
const ENTERED: u8 = 1;
const PICKED: u8 = 2;
const DELIVERED: u8 = 4;
const PASSENGER: u8 = 8;
/// The value of a position from which the search follows no line: every step from it is
/// searched from another position (a trade that can wait).
const DEAD: i32 = i32::MIN;

/// Most cities with a station (each has one at most: 4 players, 6 stations each).
const CITIES: usize = 24;

/// A step of the search: one engine action, with the second locomotive's station and the
/// moved-onto tile as indices into the network.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Step {
    Convert(u8),
    Sell,
    Coal,
    Build(u8),
    Move(u8, u8),
    Pickup,
    Deliver(Option<u8>),
    Passenger,
    Market(Option<(u8, bool)>),
    End,
    /// The end of the turn discarding exactly these resources (coal, wood, iron): every discard
    /// is a step of its own when every end position is wanted ([`end_positions`]).
    Discard([u8; 3]),
}

impl Step {
    const fn is_trade(self) -> bool {
        matches!(self, Step::Convert(_) | Step::Sell | Step::Coal | Step::Build(_))
    }

    /// The order in which consecutive trades are searched when either order reaches the same
    /// position.
    const fn rank(self) -> u8 {
        match self {
            Step::Convert(k) => k,
            Step::Sell => 4,
            Step::Coal => 5,
            Step::Build(_) => 6,
            _ => 7,
        }
    }
}

/// The position within step II or after the market, for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct State {
    /// 0: step II (the market not yet taken); 1: after the market.
    stage: u8,
    /// The trade that led here (the position before it is this one with it undone), if the last
    /// step was a trade.
    last: Option<Step>,
    store: [u8; 3],
    reserve: u8,
    dividends: u8,
    /// Every seat's stock value (other seats rise when the player picks up at their facility).
    stock: [u8; 4],
    /// Seats that have reached the stock maximum, as bits.
    reached: u8,
    /// The player's `$` cubes still on the track, as bits.
    dollars: u8,
    /// 9-VP tokens left in the box.
    tokens: u8,
    /// Movement points left (coal spent adds).
    mp: u8,
    /// Each locomotive's tile, [`NONE`] if not built.
    loco: [u8; 2],
    /// The locomotive moving now, [`NONE`] before the first move.
    current: u8,
    /// Locomotives that have finished, as bits.
    finished: u8,
    /// What has happened on the current tile of the moving locomotive ([`ENTERED`] and the rest).
    entry: u8,
    /// Tiles the moving locomotive has been on this turn.
    visited: u64,
    /// Factories (by index) whose first space is free.
    first_free: u64,
    /// The player's cubes on each objective card.
    objective: [u8; COLUMNS],
    /// Room for passengers per station city (by index).
    room: [u8; CITIES],
}

impl std::hash::Hash for State {
    /// The fields packed into a few words (hashing them one by one costs more than the search's
    /// other work on a position).
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        let last = match self.last {
            None => 0u64,
            Some(Step::Build(at)) => 16 + u64::from(at),
            Some(step) => 1 + u64::from(step.rank()),
        };
        let small = u64::from(self.stage)
            | last << 8
            | u64::from(self.store[0]) << 16
            | u64::from(self.store[1]) << 24
            | u64::from(self.store[2]) << 32
            | u64::from(self.reserve) << 40
            | u64::from(self.dividends) << 48
            | u64::from(self.mp) << 56;
        let more = u64::from(u32::from_le_bytes(self.stock))
            | u64::from(self.reached) << 32
            | u64::from(self.dollars) << 40
            | u64::from(self.tokens) << 48
            | u64::from(self.entry) << 56;
        let locos = u64::from(self.loco[0])
            | u64::from(self.loco[1]) << 8
            | u64::from(self.current) << 16
            | u64::from(self.finished) << 24
            | u64::from(u32::from_le_bytes(self.objective)) << 32;
        h.write_u64(small);
        h.write_u64(more);
        h.write_u64(locos);
        h.write_u64(self.visited);
        h.write_u64(self.first_free);
        for chunk in self.room.chunks_exact(8) {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            h.write_u64(u64::from_le_bytes(word));
        }
    }
}

impl State {
    /// The most coal the player could spend before the next pickup: coal held, and what
    /// conversions could make (2 iron into 1 wood, 2 wood into 1 coal).
    fn coal_possible(&self) -> u16 {
        let [coal, wood, iron] = self.store.map(u16::from);
        coal + (wood + iron / 2) / 2
    }
}

/// A factory as the search sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Factory {
    needs: [u8; 3],
    a: u8,
    b: u8,
}

/// A tile as the search sees it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Site {
    cell: Cell,
    exits: Vec<u8>,
    /// The facility's resource and owner.
    production: Option<(u8, Option<u8>)>,
    factory: Option<u8>,
    /// The station city's index, if the tile is in a city with a station and passengers are on.
    city: Option<u8>,
    /// One of the player's stations is on it.
    station: bool,
    /// Fewest moves to a tile with a facility, a factory or a station city (`u8::MAX`: none).
    to_feature: u8,
}

/// The network within reach after a lay, and what the turn's rules need of it: equal networks
/// (same tiles within reach, same technology level) are searched once.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Network {
    sites: Vec<Site>,
    factories: Vec<Factory>,
    /// The technology level after the lay: movement points and storage limit.
    tech: u8,
}

/// What does not change during the turn.
struct Rules {
    seat: usize,
    solo: bool,
    weights: Weights,
    objective_weights: [i32; COLUMNS],
    vp: Vec<i32>,
    dollars: [u8; 3],
    max: u8,
    /// Display columns holding a tile, when the market is open.
    market: Option<Vec<u8>>,
}

/// The memo of one network: each position's best value from there and the step that reaches it,
/// or, where the search cut every line that could not beat a floor, a value at most that floor
/// that bounds the best (`false`: not exact).
type Memo = FxHashMap<State, (i32, Step, bool)>;

/// Why the search stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped;

struct Searcher<'a> {
    net: &'a Network,
    rules: &'a Rules,
    /// What the rest of the turn can still bring, for cutting lines (`None`: nothing is cut).
    bound: Option<&'a mut Bound>,
    memo: Memo,
    deadline: Option<Instant>,
    stop: &'a AtomicBool,
    nodes: u64,
    /// Successor lists to reuse, one per depth of the recursion.
    buffers: Vec<Vec<(Step, State, i32)>>,
    /// A quick first pass under a deadline: no trades before the market and no second
    /// locomotive (a subset of the plans, so its best is a plan, found fast).
    quick: bool,
    /// Every end position is wanted ([`end_positions`]): nothing that only a single turn's
    /// value ignores is left out (a finished locomotive's tile, moves towards nothing, what
    /// the market's normalisation drops), and every discard is a step of its own.
    complete: bool,
}

fn bit(i: u8) -> u64 {
    1u64 << i
}

fn ri(r: Resource) -> usize {
    match r {
        Resource::Coal => 0,
        Resource::Wood => 1,
        Resource::Iron => 2,
    }
}

impl Rules {
    /// The rules of the turn of the player to move in `game`, valued by `weights` and the
    /// objective cards' `objective_weights`.
    fn new(game: &Game, weights: &Weights, objective_weights: [i32; COLUMNS]) -> Rules {
        let track = game.track();
        let display = game.display();
        let open: Vec<u8> = (0..COLUMNS as u8).filter(|&c| display[usize::from(c)].is_some()).collect();
        Rules {
            seat: usize::from(game.active()),
            solo: game.is_solo(),
            weights: *weights,
            objective_weights,
            vp: track.vp.iter().map(|&v| i32::from(v)).collect(),
            dollars: track.dollars,
            max: track.max(),
            market: if game.in_final_round() || open.is_empty() { None } else { Some(open) },
        }
    }

    /// Raises `seat`'s disc by `spaces` (rulebook, "Stock Value Track"); the player's points.
    fn rise(&self, s: &mut State, seat: usize, spaces: u8) -> i32 {
        let mut gain = 0;
        let me = seat == self.seat;
        for _ in 0..spaces {
            if s.stock[seat] >= self.max {
                break;
            }
            s.stock[seat] += 1;
            let at = s.stock[seat];
            if me {
                gain += self.vp[usize::from(at)] - self.vp[usize::from(at - 1)];
                if let Some(i) = self.dollars.iter().position(|&d| d == at)
                    && s.dollars & (1 << i) != 0
                {
                    s.dollars &= !(1 << i);
                    s.dividends += 1;
                    gain += 1;
                }
            }
            if at == self.max && s.reached & (1 << seat) == 0 {
                s.reached |= 1 << seat;
                if s.tokens > 0 {
                    s.tokens -= 1;
                    if me {
                        gain += signalbox_engine::cube_express::game::TOKEN_VP;
                    }
                }
            }
        }
        gain
    }
}

impl<'a> Searcher<'a> {
    /// A search of `net` under `rules` with an empty memo, stopped by `stop` or at `deadline`.
    fn new(net: &'a Network, rules: &'a Rules, stop: &'a AtomicBool, deadline: Option<Instant>) -> Searcher<'a> {
        Searcher {
            net,
            rules,
            bound: None,
            memo: Memo::default(),
            deadline,
            stop,
            nodes: 0,
            buffers: Vec::new(),
            quick: false,
            complete: false,
        }
    }
}

impl Searcher<'_> {
    /// The position after `step` and the points it brings, or `None` when it is illegal.
    fn apply(&self, s: &State, step: Step) -> Option<(State, i32)> {
        let r = self.rules;
        let w = r.weights.resource;
        let mut n = *s;
        // Nothing follows the end of the turn: a trade there is no trade of this turn (and so
        // never a swap for one before the end).
        if n.stage == 2 {
            return None;
        }
        n.last = if step.is_trade() { Some(step) } else { None };
        let gain = match step {
            Step::Convert(k) => {
                let (from, to, dividend) = Conversion::ALL[usize::from(k)].recipe();
                if n.store[ri(from)] < 2 {
                    return None;
                }
                n.store[ri(from)] -= 2;
                n.store[ri(to)] += 1;
                if dividend {
                    n.dividends += 1;
                    1 - w
                } else {
                    n.reserve += 1;
                    -w
                }
            }
            Step::Sell => {
                let st = n.stock[r.seat];
                if st == 0 || n.reserve == 0 {
                    return None;
                }
                n.stock[r.seat] -= 1;
                n.reserve -= 1;
                n.dividends += 1;
                1 + r.vp[usize::from(st - 1)] - r.vp[usize::from(st)]
            }
            Step::Coal => {
                if n.stage != 0 || n.store[0] == 0 {
                    return None;
                }
                n.store[0] -= 1;
                n.reserve += 1;
                n.mp += 1;
                -w
            }
            Step::Build(at) => {
                if n.stage != 0 || n.loco[1] != NONE || n.store[0] == 0 || n.store[2] == 0 {
                    return None;
                }
                n.store[0] -= 1;
                n.store[2] -= 1;
                n.reserve += 2;
                n.loco[1] = at;
                r.weights.locomotive - 2 * w
            }
            Step::Move(l, t) => {
                let from = n.loco[usize::from(l)];
                if n.stage != 0 || from == NONE || from == PARKED {
                    return None;
                }
                if n.current != l {
                    if n.finished & (1 << l) != 0 {
                        return None;
                    }
                    if n.current != NONE {
                        // A finished locomotive's tile no longer matters this turn: positions
                        // that differ only in it are one.
                        n.finished |= 1 << n.current;
                        if !self.complete {
                            n.loco[usize::from(n.current)] = PARKED;
                        }
                    }
                    n.current = l;
                    n.visited = bit(from);
                    n.entry = 0;
                }
                if n.mp == 0 || n.visited & bit(t) != 0 || !self.net.sites[usize::from(from)].exits.contains(&t) {
                    return None;
                }
                n.mp -= 1;
                n.visited |= bit(t);
                n.entry = ENTERED;
                n.loco[usize::from(l)] = t;
                0
            }
            Step::Pickup => {
                let site = self.here(&n)?;
                let (res, owner) = site.production?;
                if n.entry & PICKED != 0 || n.reserve == 0 {
                    return None;
                }
                n.entry |= PICKED;
                n.reserve -= 1;
                n.store[usize::from(res)] += 1;
                if let Some(o) = owner
                    && usize::from(o) != r.seat
                {
                    r.rise(&mut n, usize::from(o), 1);
                }
                w
            }
            Step::Deliver(column) => {
                let site = self.here(&n)?;
                let f = self.net.factories[usize::from(site.factory?)];
                if n.entry & DELIVERED != 0 || (0..3).any(|i| n.store[i] < f.needs[i]) {
                    return None;
                }
                n.entry |= DELIVERED;
                let count: u8 = f.needs.iter().sum();
                for i in 0..3 {
                    n.store[i] -= f.needs[i];
                }
                let mut gain = -w * i32::from(count);
                if count >= 2 {
                    n.dividends += 1;
                    gain += 1;
                }
                let room = |c: usize| n.objective[c] < OBJECTIVE_LIMIT;
                let placeable = count >= 3 && !r.solo && (0..COLUMNS).any(room);
                match column {
                    Some(c) if !placeable || !room(usize::from(c)) => return None,
                    Some(c) => {
                        n.objective[usize::from(c)] += 1;
                        gain += r.objective_weights[usize::from(c)];
                    }
                    None if placeable => return None,
                    None => n.reserve += u8::from(count >= 3),
                }
                let index = site.factory?;
                let first = n.first_free & bit(index) != 0;
                if first {
                    n.first_free &= !bit(index);
                    gain += i32::from(f.a);
                } else {
                    gain += i32::from(f.b);
                }
                gain + r.rise(&mut n, r.seat, if first { 2 } else { 1 })
            }
            Step::Passenger => {
                let site = self.here(&n)?;
                let city = usize::from(site.city?);
                if n.entry & PASSENGER != 0 || n.room[city] == 0 || n.reserve == 0 {
                    return None;
                }
                n.entry |= PASSENGER;
                n.room[city] -= 1;
                n.reserve -= 1;
                1
            }
            Step::Market(choice) => {
                if n.stage != 0 {
                    return None;
                }
                // After the market only the cubes, the disc and the objective cubes matter (trades
                // and the discard): positions that differ only in the rest are one (not when every
                // end position is wanted).
                n.stage = 1;
                n.last = None;
                if !self.complete {
                    n = State {
                        stage: 1,
                        last: None,
                        store: n.store,
                        reserve: n.reserve,
                        dividends: n.dividends,
                        stock: [0; 4],
                        reached: 0,
                        dollars: 0,
                        tokens: 0,
                        mp: 0,
                        loco: [NONE; 2],
                        current: NONE,
                        finished: 0,
                        entry: 0,
                        visited: 0,
                        first_free: 0,
                        objective: n.objective,
                        room: [0; CITIES],
                    };
                    n.stock[r.seat] = s.stock[r.seat];
                }
                match (&r.market, choice) {
                    (None, None) => 0,
                    (Some(open), Some((slot, cube))) if open.contains(&slot) => {
                        if cube {
                            let c = usize::from(slot);
                            if n.dividends == 0 || n.objective[c] >= OBJECTIVE_LIMIT {
                                return None;
                            }
                            n.dividends -= 1;
                            n.objective[c] += 1;
                            r.objective_weights[c] - 1
                        } else {
                            0
                        }
                    }
                    _ => return None,
                }
            }
            Step::End => {
                if n.stage != 1 {
                    return None;
                }
                n.stage = 2;
                let total: u8 = n.store.iter().sum();
                -w * i32::from(total.saturating_sub(self.net.tech))
            }
            Step::Discard(d) => {
                let total: u8 = n.store.iter().sum();
                let excess = total.saturating_sub(self.net.tech);
                if n.stage != 1 || d.iter().sum::<u8>() != excess || (0..3).any(|i| d[i] > n.store[i]) {
                    return None;
                }
                n.stage = 2;
                for (held, &gone) in n.store.iter_mut().zip(&d) {
                    *held -= gone;
                    n.reserve += gone;
                }
                // What only this turn's movement used is gone with it.
                n.mp = 0;
                n.visited = 0;
                n.entry = 0;
                n.current = NONE;
                n.finished = 0;
                -w * i32::from(excess)
            }
        };
        Some((n, gain))
    }

    /// The tile the moving locomotive has just entered, if it may act there.
    fn here(&self, s: &State) -> Option<&Site> {
        if s.stage != 0 || s.entry & ENTERED == 0 || s.current == NONE {
            return None;
        }
        self.net.sites.get(usize::from(s.loco[usize::from(s.current)]))
    }

    /// The position before the trade that led to `s`.
    fn undo(&self, s: &State, trade: Step) -> State {
        let mut p = *s;
        p.last = None;
        match trade {
            Step::Convert(k) => {
                let (from, to, dividend) = Conversion::ALL[usize::from(k)].recipe();
                p.store[ri(from)] += 2;
                p.store[ri(to)] -= 1;
                if dividend {
                    p.dividends -= 1;
                } else {
                    p.reserve -= 1;
                }
            }
            Step::Sell => {
                p.stock[self.rules.seat] += 1;
                p.reserve += 1;
                p.dividends -= 1;
            }
            Step::Coal => {
                p.store[0] += 1;
                p.reserve -= 1;
                p.mp -= 1;
            }
            Step::Build(_) => {
                p.store[0] += 1;
                p.store[2] += 1;
                p.reserve -= 2;
                p.loco[1] = NONE;
            }
            _ => {}
        }
        p
    }

    /// Every step to search from `s`, in a fixed order.
    fn steps(&self, s: &State, out: &mut Vec<Step>) {
        out.clear();
        // Steps [`Searcher::apply`] would refuse at once are left out here (the order of the
        // rest is kept).
        for k in 0..4 {
            let (from, _, _) = Conversion::ALL[usize::from(k)].recipe();
            if s.store[ri(from)] >= 2 {
                out.push(Step::Convert(k));
            }
        }
        if s.stock[self.rules.seat] > 0 && s.reserve > 0 {
            out.push(Step::Sell);
        }
        if s.stage == 1 {
            if self.complete {
                let excess = s.store.iter().sum::<u8>().saturating_sub(self.net.tech);
                for coal in 0..=s.store[0].min(excess) {
                    for wood in 0..=s.store[1].min(excess - coal) {
                        let iron = excess - coal - wood;
                        if iron <= s.store[2] {
                            out.push(Step::Discard([coal, wood, iron]));
                        }
                    }
                }
            } else {
                out.push(Step::End);
            }
            return;
        }
        if self.quick && !(s.current == NONE && s.entry == 0) {
            out.clear();
        }
        if s.store[0] > 0 {
            out.push(Step::Coal);
        }
        if s.loco[1] == NONE && !self.quick && s.store[0] > 0 && s.store[2] > 0 {
            for (i, site) in self.net.sites.iter().enumerate() {
                if site.station {
                    out.push(Step::Build(i as u8));
                }
            }
        }
        if let Some(site) = self.here(s) {
            if site.production.is_some() && s.entry & PICKED == 0 && s.reserve > 0 {
                out.push(Step::Pickup);
            }
            if site.city.is_some() && s.entry & PASSENGER == 0 && s.reserve > 0 {
                out.push(Step::Passenger);
            }
            if site.factory.is_some() && s.entry & DELIVERED == 0 {
                out.push(Step::Deliver(None));
                for c in 0..COLUMNS as u8 {
                    out.push(Step::Deliver(Some(c)));
                }
            }
        }
        let extra = s.coal_possible();
        for l in 0..2u8 {
            let at = s.loco[usize::from(l)];
            if at == NONE || at == PARKED {
                continue;
            }
            for &t in &self.net.sites[usize::from(at)].exits {
                // A move onto a tile from which nothing can be reached in time is not searched.
                let to = self.net.sites[usize::from(t)].to_feature;
                if self.complete || u16::from(to) <= u16::from(s.mp.saturating_sub(1)) + extra {
                    out.push(Step::Move(l, t));
                }
            }
        }
        match &self.rules.market {
            None => out.push(Step::Market(None)),
            Some(open) => {
                if let Some(&first) = open.first() {
                    out.push(Step::Market(Some((first, false))));
                }
                for &slot in open {
                    out.push(Step::Market(Some((slot, true))));
                }
            }
        }
    }

    /// Whether event `e` after trade `t` (from `p`, the position before it, to `s`) may be left
    /// out: `e` then `t` is legal from `p` and reaches the same position as `t` then `e`.
    fn swappable(&self, p: &State, s: &State, t: Step, e: Step) -> bool {
        let Some((after_e, _)) = self.apply(p, e) else { return false };
        let Some((mut swapped, _)) = self.apply(&after_e, t) else { return false };
        let Some((mut direct, _)) = self.apply(s, e) else { return false };
        swapped.last = None;
        direct.last = None;
        swapped == direct
    }

    /// The steps searched from `s`, with the positions they lead to and the points they bring:
    /// every legal step, except that after a trade an event that could come first, and a trade
    /// of a lower rank that could, are searched from the position before it (ruling S3).
    fn successors(&self, s: &State, out: &mut Vec<(Step, State, i32)>) {
        let mut steps = Vec::with_capacity(32);
        self.steps(s, &mut steps);
        out.clear();
        let parent = s.last.map(|t| (t, self.undo(s, t)));
        for step in steps {
            if let Some((t, p)) = parent
                && (!step.is_trade() || step.rank() < t.rank())
                && self.swappable(&p, s, t, step)
            {
                continue;
            }
            if let Some((next, gain)) = self.apply(s, step) {
                out.push((step, next, gain));
            }
        }
    }

    /// Whether to go on: not once any search of the turn has been stopped or the deadline has
    /// passed (then every search is stopped).
    fn check(&self) -> Result<(), Stopped> {
        if self.stop.load(Ordering::Relaxed) {
            return Err(Stopped);
        }
        if self.deadline.is_some_and(crate::stop::passed) {
            self.stop.store(true, Ordering::Relaxed);
            return Err(Stopped);
        }
        Ok(())
    }

    /// The best value from `s` to the end of the turn, exact (`true`) when it is above `floor`;
    /// otherwise possibly only a bound on it, at most `floor` (`false`). Lines that cannot beat
    /// `floor` or the best line already found from `s` are cut by the bound (ruling S3, "Lines
    /// that cannot beat the best"); with `floor` at `i32::MIN` the value is always exact. The
    /// first best step is the one the search without cuts would choose: a step is cut only when
    /// it cannot beat a better or equal line found before it.
    fn solve(&mut self, s: &State, floor: i32) -> Result<(i32, bool), Stopped> {
        if s.stage == 2 {
            return Ok((0, true));
        }
        if let Some(&(v, _, exact)) = self.memo.get(s)
            && (exact || v <= floor)
        {
            return Ok((v, exact));
        }
        // A position whose bound cannot beat the floor is cut (not counted, not kept); with no
        // floor yet there is nothing to beat.
        if floor > DEAD / 2
            && let Some(bound) = self.bound.as_deref_mut()
        {
            let most = bound.of(s, s.coal_possible());
            if most <= floor {
                return Ok((most, false));
            }
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(4096) {
            self.check()?;
        }
        let mut steps = self.buffers.pop().unwrap_or_default();
        self.successors(s, &mut steps);
        let mut best = (DEAD, Step::End);
        // The most any cut line could reach, if a line was cut.
        let mut cut: Option<i32> = None;
        for &(step, next, gain) in &steps {
            let target = floor.max(best.0);
            let (rest, exact) = self.solve(&next, target.saturating_sub(gain))?;
            if rest == DEAD {
                continue;
            }
            let v = gain + rest;
            if !exact {
                cut = cut.max(Some(v));
            } else if v > best.0 {
                best = (v, step);
            }
        }
        self.buffers.push(steps);
        let (value, exact) = match cut {
            Some(cut) if best.0 <= floor => (best.0.max(cut), false),
            _ => (best.0, true),
        };
        self.memo.insert(*s, (value, best.1, exact));
        Ok((value, exact))
    }
}

/// An upper bound on the value from the start of step II `s` on `net`, for searches stopped by
/// the deadline: every factory delivered to twice (once per locomotive run) at its first space's
/// points with a dividend, the best objective cube and a two-space rise; every facility picked up
/// twice; every passenger room filled; the second locomotive; the market's cube; every `$` cube and
/// a token; and every possible sale at its best. Conversions, coal and discards never gain.
fn crude_bound(net: &Network, rules: &Rules, s: &State) -> i32 {
    let w = rules.weights.resource;
    let best_objective = rules.objective_weights.iter().copied().max().unwrap_or(0).max(0);
    let vp = &rules.vp;
    let top = vp.len().saturating_sub(1);
    let rise2 = (0..vp.len()).map(|i| vp[(i + 2).min(top)] - vp[i]).max().unwrap_or(0).max(0);
    let sale = (1..vp.len()).map(|i| 1 + vp[i - 1] - vp[i]).max().unwrap_or(0).max(0);
    let deliveries = 2 * net.factories.len() as i32;
    let delivered: i32 = net.factories.iter().map(|f| 2 * (i32::from(f.a.max(f.b)) + 1 + best_objective + rise2)).sum();
    let facilities = net.sites.iter().filter(|t| t.production.is_some()).count() as i32;
    let rooms: i32 = s.room.iter().map(|&r| i32::from(r)).sum();
    let build = if s.loco[1] == NONE { (rules.weights.locomotive - 2 * w).max(0) } else { 0 };
    let sales = (i32::from(s.stock[rules.seat]) + 2 * deliveries) * sale;
    delivered
        + 2 * facilities * w.max(0)
        + rooms
        + build
        + (best_objective - 1).max(0)
        + 3
        + signalbox_engine::cube_express::game::TOKEN_VP
        + sales
}

/// The network after a lay (the game `after`, in step II) within reach of the player's
/// locomotives and stations, and the start position of the search.
fn network(after: &Game, rules: &Rules) -> (Network, State) {
    let seat = rules.seat;
    let me = &after.players()[seat];
    let board = after.board();
    let tiles = board.tiles();
    let n = tiles.len();
    let index: HashMap<Cell, usize> = tiles.iter().enumerate().map(|(i, t)| (t.cell, i)).collect();
    let next: Vec<Vec<usize>> = tiles.iter().map(|t| board.exits(t.cell).map(|c| index[&c]).collect()).collect();
    let tech = after.tech_level(seat);
    // Every movement point the turn could have: the level, and a coal per resource the player
    // holds or could pick up (two per facility: one for each locomotive).
    let facilities = tiles.iter().filter(|t| t.face.production.is_some()).count();
    let horizon = usize::from(tech) + usize::from(me.store.total()) + 2 * facilities;
    let mut sources: Vec<usize> = me.locomotives.iter().flatten().map(|c| index[c]).collect();
    if me.locomotives[1].is_none() {
        sources.extend(tiles.iter().enumerate().filter(|(_, t)| t.station == Some(seat as u8)).map(|(i, _)| i));
    }
    let from_sources = distances(&next, sources.iter().copied());
    let within: Vec<usize> = (0..n).filter(|&i| from_sources[i] <= horizon).collect();
    let local: HashMap<usize, u8> = within.iter().enumerate().map(|(k, &i)| (i, k as u8)).collect();
    let cities = board.cities();
    let passengers = after.options().passengers == Passengers::StationCities;
    let mut city_index: HashMap<usize, u8> = HashMap::new();
    let mut room = [0u8; CITIES];
    let mut factories = Vec::new();
    let mut first_free = 0u64;
    let mut sites: Vec<Site> = Vec::with_capacity(within.len());
    for &i in &within {
        let t = &tiles[i];
        let city = cities.city_of[i].filter(|&c| passengers && cities.station[c].is_some()).and_then(|c| {
            let k = city_index.len();
            let id = *city_index.entry(c).or_insert(k as u8);
            if usize::from(id) < CITIES {
                let left = cities.houses[c].saturating_sub(cities.passengers[c]);
                room[usize::from(id)] = left.min(u16::from(u8::MAX)) as u8;
                Some(id)
            } else {
                None
            }
        });
        let factory = t.face.factory.map(|f| {
            let k = factories.len() as u8;
            factories.push(Factory { needs: [f.needs.coal, f.needs.wood, f.needs.iron], a: f.a, b: f.b });
            if t.first.is_none() {
                first_free |= bit(k);
            }
            k
        });
        sites.push(Site {
            cell: t.cell,
            exits: next[i].iter().filter_map(|j| local.get(j).copied()).collect(),
            production: t.face.production.map(|r| (ri(r) as u8, t.owner)),
            factory,
            city,
            station: t.station == Some(seat as u8),
            to_feature: u8::MAX,
        });
    }
    // Distances to the nearest feature, backwards along the exits.
    let mut previous: Vec<Vec<usize>> = vec![Vec::new(); sites.len()];
    for (u, s) in sites.iter().enumerate() {
        for &v in &s.exits {
            previous[usize::from(v)].push(u);
        }
    }
    let features = sites
        .iter()
        .enumerate()
        .filter(|(_, s)| s.production.is_some() || s.factory.is_some() || s.city.is_some())
        .map(|(i, _)| i);
    let to_feature = distances(&previous, features);
    for (s, d) in sites.iter_mut().zip(to_feature) {
        s.to_feature = d.min(usize::from(u8::MAX)) as u8;
    }
    let mut stock = [0u8; 4];
    let mut reached = 0u8;
    for (k, p) in after.players().iter().enumerate() {
        stock[k] = p.stock;
        if p.reached_max {
            reached |= 1 << k;
        }
    }
    let dollars = (0..3).filter(|&i| me.dollars[i]).fold(0u8, |m, i| m | (1 << i));
    let loco = me.locomotives.map(|c| c.and_then(|c| local.get(&index[&c]).copied()).unwrap_or(NONE));
    let state = State {
        stage: 0,
        last: None,
        store: [me.store.coal, me.store.wood, me.store.iron],
        reserve: me.reserve,
        dividends: me.dividends,
        stock,
        reached,
        dollars,
        tokens: after.tokens_left(),
        mp: tech,
        loco,
        current: NONE,
        finished: 0,
        entry: 0,
        visited: 0,
        first_free,
        objective: std::array::from_fn(|c| after.objective_cubes(c)[seat]),
        room,
    };
    (Network { sites, factories, tech }, state)
}

impl Searcher<'_> {
    /// The steps of the best line from `s`, as found by [`Searcher::solve`].
    fn line(&self, s: &State) -> Vec<Step> {
        let mut out = Vec::new();
        let mut at = *s;
        while at.stage != 2 {
            let Some(&(_, step, _)) = self.memo.get(&at) else { break };
            let Some((next, _)) = self.apply(&at, step) else { break };
            out.push(step);
            at = next;
        }
        out
    }

    /// The engine actions of `steps` from `s`: consecutive sales as one, tiles as cells, the
    /// discard at the end taken coal first, then wood, then iron.
    fn actions(&self, s: &State, steps: &[Step]) -> Vec<Action> {
        let mut out: Vec<Action> = Vec::new();
        let mut at = *s;
        for &step in steps {
            let action = match step {
                Step::Convert(k) => Action::Convert { conversion: Conversion::ALL[usize::from(k)] },
                Step::Sell => {
                    if let Some(Action::Sell { spaces }) = out.last_mut() {
                        *spaces += 1;
                        at = self.apply(&at, step).map_or(at, |(n, _)| n);
                        continue;
                    }
                    Action::Sell { spaces: 1 }
                }
                Step::Coal => Action::Coal,
                Step::Build(i) => Action::BuildLocomotive { at: self.net.sites[usize::from(i)].cell },
                Step::Move(l, t) => Action::Move { locomotive: l, to: self.net.sites[usize::from(t)].cell },
                Step::Pickup => Action::Pickup,
                Step::Deliver(objective) => Action::Deliver { objective },
                Step::Passenger => Action::Passenger,
                Step::Market(None) => Action::NoMarket,
                Step::Market(Some((slot, cube))) => Action::Market { slot, cube },
                Step::End => {
                    let mut excess = at.store.iter().sum::<u8>().saturating_sub(self.net.tech);
                    let mut take = |have: u8| {
                        let t = have.min(excess);
                        excess -= t;
                        t
                    };
                    let coal = take(at.store[0]);
                    let wood = take(at.store[1]);
                    let iron = take(at.store[2]);
                    Action::End { discard: Resources { coal, wood, iron } }
                }
                Step::Discard([coal, wood, iron]) => Action::End { discard: Resources { coal, wood, iron } },
            };
            out.push(action);
            at = self.apply(&at, step).map_or(at, |(n, _)| n);
        }
        out
    }
}

/// A start of step II: the actions that lead there (trades, then the lay), the game then, and
/// the value of the turn so far.
struct Start {
    actions: Vec<Action>,
    value: i32,
    state: State,
}

/// The best turn found by [`best_turn`], with what the search did.
#[derive(Clone, Debug)]
pub struct Found {
    /// The turn's actions, in order (ending with [`Action::End`]).
    pub actions: Vec<Action>,
    /// Its value by the search (checked by the engine in [`super::plan::plan_turn`]).
    pub value: i32,
    /// Lays tried (each tile, side, cell, rotation, action and payment, after any trades).
    pub lays: usize,
    /// Distinct networks searched (lays that leave the same network within reach share one).
    pub networks: usize,
    /// Networks whose search finished (all of them unless stopped by the deadline).
    pub finished: usize,
    /// Positions searched.
    pub positions: u64,
    /// An upper bound on the best value: equal to `value` when every search finished.
    pub upper_bound: i32,
}

impl Found {
    /// Whether the plan is proven best: every search finished.
    pub fn proven(&self) -> bool {
        self.upper_bound <= self.value
    }
}

/// The steps of the turn before the lay that a search may take: conversions and one-space sales
/// ([`Action::Sell`] of several spaces is the same as that many sales of one).
fn trades() -> impl Iterator<Item = Action> {
    Conversion::ALL.into_iter().map(|conversion| Action::Convert { conversion }).chain([Action::Sell { spaces: 1 }])
}

/// The lays at `game`: every placement, and with its centre action (each payment for a station)
/// when `acting`; the engine decides which are legal.
fn lays_at(game: &Game, placements: &[Lay], acting: bool) -> Vec<Lay> {
    let mut out = Vec::new();
    for &lay in placements {
        if !acting {
            out.push(lay);
            continue;
        }
        let Some(face) = game.lay_face(&lay) else { continue };
        match face.centre {
            None => {}
            Some(signalbox_engine::cube_express::tile::Centre::Station) => {
                let p = &game.players()[usize::from(game.active())];
                let levels = &game.content().levels;
                let Some(&cost) = levels.get(usize::from(p.built)) else { continue };
                out.extend(game.payments(cost).into_iter().map(|pay| Lay { act: true, pay, ..lay }));
            }
            Some(_) => out.push(Lay { act: true, ..lay }),
        }
    }
    out
}

/// Every start of step II: the lays from the position itself, and the lays with a centre action
/// after trades before the lay (a lay without its action changes no cube, so it never needs a
/// trade before it). A trade sequence is followed by a lay only when the lay could not come
/// first with the last trade after it to the same position.
fn starts(game: &Game) -> Vec<(Vec<Action>, Game)> {
    let placements: Vec<Lay> = game.legal_lays().into_iter().filter(|l| !l.act).collect();
    let mut out: Vec<(Vec<Action>, Game)> = Vec::new();
    if placements.is_empty() {
        let mut g = game.clone();
        if g.apply_in_place(&Action::NoLay).is_ok() {
            out.push((vec![Action::NoLay], g));
        }
        return out;
    }
    // The trades before the lay, breadth first, each position once.
    struct Node {
        game: Game,
        actions: Vec<Action>,
        parent: Option<usize>,
    }
    let mut seen: std::collections::HashSet<GameKey> = std::collections::HashSet::new();
    seen.insert(game.key());
    let mut nodes = vec![Node { game: game.clone(), actions: Vec::new(), parent: None }];
    let mut i = 0;
    while i < nodes.len() {
        for t in trades() {
            let mut g = nodes[i].game.clone();
            if g.apply_in_place(&t).is_ok() && seen.insert(g.key()) {
                let mut actions = nodes[i].actions.clone();
                actions.push(t);
                nodes.push(Node { game: g, actions, parent: Some(i) });
            }
        }
        i += 1;
    }
    for node in &nodes {
        let lays = match node.parent {
            None => {
                let mut all = lays_at(&node.game, &placements, false);
                all.extend(lays_at(&node.game, &placements, true));
                all
            }
            Some(_) => lays_at(&node.game, &placements, true),
        };
        for lay in lays {
            let mut g = node.game.clone();
            if g.apply_in_place(&Action::Lay(lay)).is_err() {
                continue;
            }
            if let (Some(parent), Some(&trade)) = (node.parent, node.actions.last()) {
                let mut swapped = nodes[parent].game.clone();
                if swapped.apply_in_place(&Action::Lay(lay)).is_ok()
                    && swapped.apply_in_place(&trade).is_ok()
                    && swapped.key() == g.key()
                {
                    continue;
                }
            }
            let mut actions = node.actions.clone();
            actions.push(Action::Lay(lay));
            out.push((actions, g));
        }
    }
    out
}

/// The best turn for the player to move in `game` (at the start of a turn) by exact search,
/// stopping at `deadline` if given (then the best plan found and an upper bound). The same
/// answer on any number of threads: the best value, for the first start among equals.
pub fn best_turn(game: &Game, weights: &Weights, deadline: Option<Instant>) -> Option<Found> {
    search_turn(game, weights, deadline, true)
}

/// The best turn by the same search as [`best_turn`] with no line cut by the bound of ruling S3
/// ("Lines that cannot beat the best"): the same value and the same plan, searched over every
/// position; the baseline the bound is measured and tested against.
pub fn best_turn_uncut(game: &Game, weights: &Weights) -> Option<Found> {
    search_turn(game, weights, None, false)
}

/// [`best_turn`], cutting lines by the bound when `cut`.
fn search_turn(game: &Game, weights: &Weights, deadline: Option<Instant>, cut: bool) -> Option<Found> {
    use rayon::prelude::*;
    if game.is_over() || game.phase() != Phase::Lay {
        return None;
    }
    let rules = Rules::new(game, weights, objective_weights(game, usize::from(game.active())));
    // Every start of step II, grouped by the network it leaves within reach.
    let found = starts(game);
    let lays = found.len();
    let prepared: Vec<(Network, Start)> = found
        .into_par_iter()
        .map(|(actions, after)| {
            let (net, state) = network(&after, &rules);
            (net, Start { value: value(game, &after, weights), actions, state })
        })
        .collect();
    let groups = by_network(prepared);
    let mut bounds: Vec<Bound> = groups.par_iter().map(|(net, _)| Bound::new(net, &rules)).collect();
    // The most each network's starts can reach.
    let roots: Vec<i32> = groups
        .iter()
        .zip(&mut bounds)
        .map(|((net, members), bound)| {
            members.iter().map(|(_, m)| m.value.saturating_add(start_bound(net, &rules, bound, &m.state))).max()
        })
        .map(|b| b.unwrap_or(DEAD))
        .collect();
    // Each network's bound, taken by the one worker that searches it.
    let bounds: Vec<std::sync::Mutex<Bound>> = bounds.into_iter().map(std::sync::Mutex::new).collect();
    let stop = AtomicBool::new(false);
    let positions = AtomicU64::new(0);
    // The networks `which`, each searched for a turn worth more than `floor`: its best (value,
    // start index, actions), None if it has none, or Stopped.
    let run = |quick: bool, which: &[usize], floor: i32| -> Vec<(usize, Searched)> {
        which
            .par_iter()
            .map_init(Memo::default, |memo, &g| {
                let (net, members) = &groups[g];
                let mut bound = bounds[g].lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                // Each worker keeps its memo's room from one network to the next.
                memo.clear();
                let mut searcher = Searcher {
                    memo: std::mem::take(memo),
                    quick,
                    bound: cut.then_some(&mut *bound),
                    ..Searcher::new(net, &rules, &stop, deadline)
                };
                let result = search_network(&mut searcher, members, floor, &positions);
                *memo = std::mem::take(&mut searcher.memo);
                (g, result)
            })
            .collect()
    };
    // The networks that may reach the most are searched first, with nothing to beat; the others
    // then need to reach as much as the best of those (a fixed number, so that the positions
    // searched do not depend on the number of threads).
    let mut order: Vec<usize> = (0..groups.len()).collect();
    order.sort_by_key(|&g| (std::cmp::Reverse(roots[g]), g));
    let (first, others) = order.split_at(FIRST_SEARCHED.min(order.len()));
    // Under a deadline, a quick pass first, so that a plan is at hand when the full search is
    // stopped.
    let quick: Vec<(i32, usize, Vec<Action>)> = if deadline.is_some() {
        run(true, &order, i32::MIN).into_iter().filter_map(|(_, r)| r.ok().flatten()).collect()
    } else {
        Vec::new()
    };
    let mut results: Vec<Searched> = (0..groups.len()).map(|_| Ok(None)).collect();
    for (g, r) in run(false, first, i32::MIN) {
        results[g] = r;
    }
    let floor = results.iter().filter_map(|r| r.as_ref().ok().and_then(|b| b.as_ref().map(|b| b.0))).max();
    for (g, r) in run(false, others, floor.map_or(i32::MIN, |f| f - 1)) {
        results[g] = r;
    }
    let finished = results.iter().filter(|r| r.is_ok()).count();
    // Networks not searched to the end are bounded by their starts' bounds.
    let unfinished = results.iter().zip(&roots).filter(|(r, _)| r.is_err()).map(|(_, &b)| b).max();
    let results: Vec<(i32, usize, Vec<Action>)> = results.into_iter().filter_map(|r| r.ok().flatten()).collect();
    let best = results.iter().chain(&quick).fold(None::<&(i32, usize, Vec<Action>)>, |b, r| match b {
        Some(b) if b.0 > r.0 || (b.0 == r.0 && b.1 < r.1) => Some(b),
        _ => Some(r),
    });
    let (value, actions) = match best {
        Some((v, _, a)) => (*v, a.clone()),
        None => fallback(game, weights)?,
    };
    let upper_bound = unfinished.map_or(value, |b| b.max(value));
    Some(Found {
        actions,
        value,
        lays,
        networks: groups.len(),
        finished,
        positions: positions.into_inner(),
        upper_bound,
    })
}

/// The starts grouped by the network they leave within reach, in order of each network's first
/// start, each start with its index.
fn by_network(prepared: Vec<(Network, Start)>) -> Vec<(Network, Vec<(usize, Start)>)> {
    let mut groups: Vec<(Network, Vec<(usize, Start)>)> = Vec::new();
    let mut index: HashMap<Network, usize> = HashMap::new();
    for (i, (net, start)) in prepared.into_iter().enumerate() {
        let g = *index.entry(net.clone()).or_insert_with(|| {
            groups.push((net, Vec::new()));
            groups.len() - 1
        });
        groups[g].1.push((i, start));
    }
    groups
}

/// The best turn that begins with one start of step II, for [`best_by_start`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartBest {
    /// The start's lay (`None`: no tile fits, [`Action::NoLay`]).
    pub lay: Option<Lay>,
    /// The best turn that begins with the start's actions (trades before the lay, then the lay),
    /// ending with [`Action::End`].
    pub actions: Vec<Action>,
    /// Its value.
    pub value: i32,
}

/// The best turn from each start of step II of the turn of the player to move in `game` (at the
/// start of a turn), by the same exact search as [`best_turn`] with no line cut by the bound (as
/// [`best_turn_uncut`]), on the calling thread: every
/// start (the trades before the lay and the lay: each tile, side, cell, rotation, action and
/// payment), in the search's order, with the best turn that begins with it; and the positions
/// searched. Every turn reaches its value, or less, from a start with the same lay (ruling S3:
/// moving a trade after the lay keeps the lay), so the best turn with a given lay is the best of
/// the starts with it, and the first best of all the starts is [`best_turn`]'s answer. Empty when
/// the game is over or not at the start of a turn.
pub fn best_by_start(game: &Game, weights: &Weights) -> (Vec<StartBest>, u64) {
    if game.is_over() || game.phase() != Phase::Lay {
        return (Vec::new(), 0);
    }
    let rules = Rules::new(game, weights, objective_weights(game, usize::from(game.active())));
    let prepared: Vec<(Network, Start)> = starts(game)
        .into_iter()
        .map(|(actions, after)| {
            let (net, state) = network(&after, &rules);
            (net, Start { value: value(game, &after, weights), actions, state })
        })
        .collect();
    let count = prepared.len();
    let stop = AtomicBool::new(false);
    let mut found: Vec<Option<StartBest>> = vec![None; count];
    let mut positions = 0;
    let mut memo = Memo::default();
    for (net, members) in by_network(prepared) {
        memo.clear();
        // No line is cut: the positions searched measure the position, not the bound (the
        // puzzles grade by them).
        let mut searcher = Searcher { memo: std::mem::take(&mut memo), ..Searcher::new(&net, &rules, &stop, None) };
        for (i, start) in &members {
            // Without a deadline nothing stops the search; with no floor every value is exact.
            let Ok((v, _)) = searcher.solve(&start.state, i32::MIN) else { continue };
            if v == DEAD {
                continue;
            }
            let lay = start.actions.iter().find_map(|a| if let Action::Lay(l) = a { Some(*l) } else { None });
            let mut actions = start.actions.clone();
            actions.extend(searcher.actions(&start.state, &searcher.line(&start.state)));
            found[*i] = Some(StartBest { lay, actions, value: v + start.value });
        }
        positions += searcher.nodes;
        memo = std::mem::take(&mut searcher.memo);
    }
    (found.into_iter().flatten().collect(), positions)
}

/// How many networks are searched before the others, with nothing to beat.
const FIRST_SEARCHED: usize = 2;

/// What the search of a network found: its best turn worth more than the floor asked for (its
/// value, its start's index and its actions), `None` when it has none, or `Stopped` by the
/// deadline.
type Searched = Result<Option<(i32, usize, Vec<Action>)>, Stopped>;

/// The most a start of step II `s` on `net` can bring: the least of the crude bound and the
/// search's bound.
fn start_bound(net: &Network, rules: &Rules, bound: &mut Bound, s: &State) -> i32 {
    crude_bound(net, rules, s).min(bound.of(s, s.coal_possible()))
}

/// The best of a network's starts worth more than `floor` ([`Searched`]); the first start among
/// equals.
fn search_network(
    searcher: &mut Searcher<'_>,
    members: &[(usize, Start)],
    floor: i32,
    positions: &AtomicU64,
) -> Searched {
    let mut best: Option<(i32, usize, State)> = None;
    for (i, start) in members {
        // A start that cannot beat `need` is cut by `solve` itself.
        let need = best.map_or(floor, |(v, _, _)| v.max(floor));
        // A search stopped elsewhere is not begun here (it would run 4,096 positions first).
        let solved = searcher.check().and_then(|()| searcher.solve(&start.state, need.saturating_sub(start.value)));
        let Ok((v, exact)) = solved else {
            positions.fetch_add(searcher.nodes, Ordering::Relaxed);
            return Err(Stopped);
        };
        if !exact || v == DEAD {
            continue;
        }
        let v = v + start.value;
        if v > need {
            best = Some((v, *i, start.state));
        }
    }
    positions.fetch_add(searcher.nodes, Ordering::Relaxed);
    let Some((v, i, state)) = best else { return Ok(None) };
    let Some(start) = members.iter().find(|(j, _)| *j == i).map(|(_, s)| s) else { return Ok(None) };
    let mut actions = start.actions.clone();
    actions.extend(searcher.actions(&state, &searcher.line(&state)));
    Ok(Some((v, i, actions)))
}

impl Searcher<'_> {
    /// Every position the turn can end in from `s`, each once, with the steps of one line that
    /// reaches it (after `path`).
    fn collect(
        &mut self,
        s: &State,
        path: &mut Vec<Step>,
        seen: &mut rustc_hash::FxHashSet<State>,
        out: &mut Vec<Vec<Step>>,
    ) {
        let mut steps = Vec::new();
        self.successors(s, &mut steps);
        for (step, next, _) in steps {
            let mut key = next;
            key.last = if next.stage == 2 { None } else { next.last };
            if !seen.insert(key) {
                continue;
            }
            path.push(step);
            if next.stage == 2 {
                out.push(path.clone());
            } else {
                self.collect(&next, path, seen, out);
            }
            path.pop();
        }
    }
}

/// One line of actions to each position the turn of the player to move in `game` (at the start
/// of a turn) can end in: every lay and payment and every legal order of the rest, with only the
/// reductions that keep every end position (trades as late as they can be, ruling S3). For
/// planning several turns, where the position a turn leaves matters, not only its value. Lines
/// may end in the same position when they leave it through different lays (the caller compares
/// the games).
pub fn end_positions(game: &Game) -> Vec<Vec<Action>> {
    if game.is_over() || game.phase() != Phase::Lay {
        return Vec::new();
    }
    let rules = Rules::new(game, &Weights::default(), [0; COLUMNS]);
    let stop = AtomicBool::new(false);
    let mut out = Vec::new();
    for (actions, after) in starts(game) {
        let (net, state) = network(&after, &rules);
        let mut searcher = Searcher { complete: true, ..Searcher::new(&net, &rules, &stop, None) };
        let mut lines = Vec::new();
        let mut seen = rustc_hash::FxHashSet::default();
        searcher.collect(&state, &mut Vec::new(), &mut seen, &mut lines);
        for steps in lines {
            let mut line = actions.clone();
            line.extend(searcher.actions(&state, &steps));
            out.push(line);
        }
    }
    out
}

/// A plan that is always legal, for when no search finished in time: the first lay (or none),
/// no movement, the market's leftmost tile, and the discard.
fn fallback(game: &Game, weights: &Weights) -> Option<(i32, Vec<Action>)> {
    let mut g = game.clone();
    let mut actions = Vec::new();
    let lay = game.legal_lays().into_iter().next().map_or(Action::NoLay, Action::Lay);
    g.apply_in_place(&lay).ok()?;
    actions.push(lay);
    let market =
        g.legal_actions().into_iter().find(|a| matches!(a, Action::Market { cube: false, .. } | Action::NoMarket))?;
    g.apply_in_place(&market).ok()?;
    actions.push(market);
    let end = g.legal_actions().into_iter().find(|a| matches!(a, Action::End { .. }))?;
    g.apply_in_place(&end).ok()?;
    actions.push(end);
    Some((value(game, &g, weights), actions))
}
