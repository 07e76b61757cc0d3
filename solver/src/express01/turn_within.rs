//! The best turn within a limit that does not depend on the machine: the search of
//! [`super::turn::best_turns`] (rulings A1-A4 of `docs/rules/express-01.md`), with the same order,
//! visited sets, bound and reductions, stopped after a number of states as well as (optionally)
//! at a deadline. A review of a game must be the same on every machine and thread count, and a
//! wall-clock deadline alone cuts the search at a different state on each run; a state budget
//! cuts it at the same state everywhere. Without a limit it is `best_turns` exactly (a test
//! checks that the two agree).
//!
//! This is a copy of the search of `turn.rs` with one more way to stop; when `best_turns` takes a
//! state budget, this module goes.

use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::time::Instant;

use signalbox_engine::express01::card::{CardKind, CompanyId};
use signalbox_engine::express01::game::{Action, Budget, Game, Pair, Phase, Referee, Step};

use super::turn::{Turn, TurnAnswer, ends_turn, evaluation};

/// Where a best-turn search stops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limit {
    /// At most this many states visited (the same answer on every machine).
    pub states: Option<u64>,
    /// At this moment (the answer then depends on the machine's speed).
    pub deadline: Option<Instant>,
}

/// The `top` best turns from `game` as [`super::turn::best_turns`] finds them, stopped at `limit`:
/// then the answer is not proven, and its bound is what the bound of A2 still allows.
pub fn best_turns_within(game: &Game<'_>, referee: &dyn Referee, top: usize, limit: Limit) -> TurnAnswer {
    let mover = game.mover();
    let mut s = Search {
        mover,
        top: top.max(1),
        seen: HashSet::new(),
        ends: HashSet::new(),
        found: Vec::new(),
        nodes: 0,
        line: Vec::new(),
        limit,
        stopped: false,
    };
    let root_bound = evaluation(game, mover) + gain_bound(game, mover);
    s.visit(game, referee);
    let mut turns = s.found;
    if turns.is_empty() {
        turns.push(Turn { steps: Vec::new(), value: evaluation(game, mover) });
    }
    let proven = !s.stopped;
    let bound = if proven { turns[0].value } else { root_bound.max(turns[0].value) };
    TurnAnswer { turns, proven, bound, nodes: s.nodes }
}

/// A 128-bit fingerprint of a game's state, as `turn.rs` keys its visited sets.
fn fingerprint(game: &Game<'_>) -> u128 {
    let mut a = rustc_hash::FxHasher::default();
    game.hash(&mut a);
    let mut b = std::collections::hash_map::DefaultHasher::new();
    game.hash(&mut b);
    (u128::from(a.finish()) << 64) | u128::from(b.finish())
}

struct Search {
    mover: usize,
    top: usize,
    seen: HashSet<u128>,
    ends: HashSet<u128>,
    found: Vec<Turn>,
    nodes: u64,
    line: Vec<Step>,
    limit: Limit,
    stopped: bool,
}

impl Search {
    fn threshold(&self) -> Option<i32> {
        (self.found.len() >= self.top).then(|| self.found[self.top - 1].value)
    }

    fn offer(&mut self, end: &Game<'_>, value: i32) {
        if self.threshold().is_some_and(|t| value <= t) || !self.ends.insert(fingerprint(end)) {
            return;
        }
        let at = self.found.iter().position(|t| t.value < value).unwrap_or(self.found.len());
        self.found.insert(at, Turn { steps: self.line.clone(), value });
        self.found.truncate(self.top);
    }

    /// Whether the limit is reached before visiting one more state.
    fn out_of_time(&mut self) -> bool {
        if !self.stopped {
            let states = self.limit.states.is_some_and(|n| self.nodes > n);
            let late = self.nodes.is_multiple_of(1024) && self.limit.deadline.is_some_and(|d| Instant::now() >= d);
            self.stopped = states || late;
        }
        self.stopped
    }

    fn visit(&mut self, g: &Game<'_>, referee: &dyn Referee) {
        self.nodes += 1;
        if self.out_of_time() {
            return;
        }
        if let Some(t) = self.threshold()
            && evaluation(g, self.mover) + gain_bound(g, self.mover) <= t
        {
            return;
        }
        for step in choices(g, referee) {
            let mut h = g.clone();
            h.play_unchecked(step);
            self.line.push(step);
            if ends_turn(g, &h) {
                let value = evaluation(g, self.mover);
                self.offer(g, value);
            } else if self.seen.insert(fingerprint(&h)) {
                self.visit(&h, referee);
            }
            self.line.pop();
        }
    }
}

/// The steps the search tries (A3): every legal step, except that a receiver's deck and the
/// exchange of D) are taken once (`done`, the first deck), and B) after A) is ended at once.
fn choices(g: &Game<'_>, referee: &dyn Referee) -> Vec<Step> {
    match g.phase() {
        Phase::Paying { .. } => g.legal(referee).into_iter().take(1).collect(),
        Phase::Order => vec![Step::Done],
        Phase::Shares if g.pair() == Some(Pair::ExpandShares) => vec![Step::Done],
        _ => g.legal(referee),
    }
}

/// An upper bound on how much the evaluation can still rise before the turn ends (A2).
///
/// The mover's capital rises by building: a station adds the mover's shares of its companies and
/// the base card taken at most one pair; two route cards over base cards at most two pairs; each
/// card paid costs 1, the black engine 2. It rises by cards received (a bonus payment: at most 2 a
/// station on the board; the West: one card for each western card still at its base), and by a
/// share being bought (its worth, the company's stations, once its price is paid; a purchase not
/// yet begun adds nothing, since its price equals its worth). Shares bought before building (B+A)
/// raise what a station adds by at most one a card in hand. The strongest opponent's capital
/// falls by at most 1 in a turn: a share taken from them paid partly with the black engine (they
/// receive one card less than the share was worth); nothing else lowers it.
fn gain_bound(g: &Game<'_>, mover: usize) -> i32 {
    let hand = g.seats()[mover].hand.len() as i32;
    let engine = g.black_engine() == Some(mover) && !g.engine_used();
    let (pair, action) = (g.pair(), g.action());
    let first = pair.is_none();
    let expand_ahead = first
        || matches!(
            (pair, action),
            (Some(Pair::ExpandShares), Some(Action::Expand)) | (Some(Pair::SharesExpand), Some(_))
        );
    let shares_ahead = first || matches!((pair, action), (Some(Pair::SharesExpand), Some(Action::Shares)));
    let bonus_ahead = first || matches!(g.phase(), Phase::Bonus);
    let mut up = 0;
    if expand_ahead {
        let extra = if shares_ahead { hand } else { 0 };
        let held = |c: CompanyId| g.holding(mover, c) as i32 + extra;
        let catalogue = g.catalogue();
        // What a first station on each station base still unbuilt can add to the mover, best
        // first; and the route bases still unbuilt.
        let mut station_values: Vec<i32> = Vec::new();
        let mut route_bases = 0i32;
        for (p, cell) in g.board().iter().zip(&g.map().cells) {
            if p.card != cell.base {
                continue;
            }
            let Some(base) = catalogue.card(cell.base) else { continue };
            match base.kind {
                CardKind::BaseStation => station_values.push(
                    base.upgrades
                        .iter()
                        .filter_map(|&n| catalogue.card(n))
                        .map(|c| c.stations.iter().filter_map(|s| s.company).map(held).sum::<i32>())
                        .max()
                        .unwrap_or(0),
                ),
                _ => route_bases += 1,
            }
        }
        station_values.sort_unstable_by(|a, b| b.cmp(a));
        let seat = &g.seats()[mover];
        let kind = |k: CardKind| {
            seat.base_cards.iter().filter(|&&n| catalogue.card(n).is_some_and(|c| c.kind == k)).count() as i32
        };
        let (r, st) = (kind(CardKind::BaseRoute), kind(CardKind::BaseStation));
        // Units: a budget already paid (free), the cards in hand (1 each), the black engine (2).
        let (free, free_route_only) = match g.phase() {
            Phase::Expand { budget: Budget::Fresh, .. } => (1, false),
            Phase::Expand { budget: Budget::OneRoute(_), .. } => (1, true),
            _ => (0, false),
        };
        let units = free + hand + i32::from(engine);
        let cost = |k: i32| -> i32 {
            let paid = (k - free).max(0);
            paid.min(hand) + 2 * (paid - hand).max(0)
        };
        let mut best = 0;
        for a in 0..=units.min(station_values.len() as i32) {
            for b in 0..=(units - a) {
                if free_route_only && a > units - 1 {
                    continue;
                }
                let routes = (2 * b).min(route_bases);
                let stations: i32 = station_values[..a as usize].iter().sum();
                let pairs = (r + routes).min(st + a) - r.min(st);
                best = best.max(stations + pairs - cost(a + b));
            }
        }
        let west = g.map().west_bonus.len() as i32 + i32::from(matches!(g.phase(), Phase::Expand { west: true, .. }));
        up += best + west;
    }
    match g.phase() {
        Phase::Buying { company, .. } | Phase::Taking { company, .. } => up += g.stations(*company) as i32,
        Phase::Paying { queue } => up += queue.iter().filter(|&&p| p == mover).count() as i32,
        _ => {}
    }
    if bonus_ahead {
        let catalogue = g.catalogue();
        let stations: usize = g.board().iter().filter_map(|p| catalogue.card(p.card)).map(|c| c.stations.len()).sum();
        up = up.max(2 * stations as i32);
    }
    up + i32::from(engine && shares_ahead)
}
