//! The brute-force enumerator of turn plans in the older canonical order: every plan it generates
//! is played through the engine and valued by [`super::value::value`]. It is the reference of the
//! integer programs (`--method program`), which share its order, and a baseline of the benchmark;
//! it is not complete: that order can miss plans (ruling S3, `docs/rules/cube-express.md`), so
//! the best turn and solitaire planning use [`super::search`], checked against
//! [`super::naive`].
//!
//! The order: trades (conversions, stock sales, coal for movement points, building the second
//! locomotive) before the lay and at the end of step II, every position they reach; before a
//! locomotive event (a move, a pickup, a delivery, a passenger) only when the event is impossible
//! without them, every position they reach from which it is possible; within one entry, pickup
//! before delivery before passenger.

use std::collections::HashSet;

use signalbox_engine::cube_express::action::{Action, Lay, Payment};
use signalbox_engine::cube_express::catalogue::COLUMNS;
use signalbox_engine::cube_express::game::{Game, Phase};
use signalbox_engine::cube_express::resource::Conversion;

use super::value::{Weights, value};

/// A turn plan: the actions, in order, and the value the engine gives them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The turn's actions, ending with [`Action::End`].
    pub actions: Vec<Action>,
    /// [`super::value::value`] of the game before and after them.
    pub value: i32,
}

/// Bounds on the enumeration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most trades in a row at one point (default: no limit; the positions trades can reach are
    /// finite, and each is searched once).
    pub trades: usize,
    /// Stop after this many plans (default: never).
    pub plans: Option<u64>,
    /// Only plans with this lay (its payment aside; `Some(None)`: no lay), if given.
    pub lay: Option<Option<Lay>>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { trades: usize::MAX, plans: None, lay: None }
    }
}

/// The result of an enumeration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Enumeration {
    /// The best plan (the first found among equals), if the turn has any.
    pub best: Option<Plan>,
    /// Plans valued.
    pub plans: u64,
    /// Whether every plan was valued (no plan limit was hit).
    pub complete: bool,
}

/// A plan's actions as [`for_each_plan`] finds them, without copying them.
#[derive(Clone, Copy, Debug)]
pub struct Actions<'a> {
    start: &'a [Action],
    end: [Action; 2],
}

impl Actions<'_> {
    /// The actions in order.
    pub fn to_vec(&self) -> Vec<Action> {
        let mut out = self.start.to_vec();
        out.extend(self.end);
        out
    }
}

struct Search<'a> {
    limits: Limits,
    /// Called with the game after each plan and the plan's actions.
    visit: &'a mut dyn FnMut(&Game, Actions<'_>),
    plans: u64,
    stopped: bool,
}

/// Where the current locomotive is within the entry onto its tile.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    /// No entry yet (start of step II, or after another locomotive's entry).
    None,
    /// Just moved onto a tile.
    Moved,
    /// Picked up.
    Picked,
    /// Delivered.
    Delivered,
    /// Placed a passenger.
    Passenger,
}

/// Every canonical plan for the player to move in `game` (at the start of a turn); the best one.
pub fn enumerate(game: &Game, weights: &Weights, limits: &Limits) -> Enumeration {
    let mut best: Option<Plan> = None;
    let (plans, complete) = for_each_plan(game, limits, &mut |after, actions| {
        let v = value(game, after, weights);
        if best.as_ref().is_none_or(|b| v > b.value) {
            best = Some(Plan { actions: actions.to_vec(), value: v });
        }
    });
    Enumeration { best, plans, complete }
}

/// Calls `visit` with the game after each canonical plan of the turn of the player to move in
/// `game` (at the start of a turn) and the plan's actions; the number of plans and whether every
/// plan was visited (no plan limit was hit). Some positions the turn can end in may be missing
/// (the order is not complete; [`super::search::end_positions`] has them all).
pub fn for_each_plan(game: &Game, limits: &Limits, visit: &mut dyn FnMut(&Game, Actions<'_>)) -> (u64, bool) {
    let mut s = Search { limits: *limits, visit, plans: 0, stopped: false };
    if game.phase() == Phase::Lay && !game.is_over() {
        s.run(game);
    }
    (s.plans, !s.stopped)
}

fn conversions() -> impl Iterator<Item = Action> {
    Conversion::ALL.into_iter().map(|conversion| Action::Convert { conversion })
}

fn sells(game: &Game) -> Vec<Action> {
    let p = &game.players()[usize::from(game.active())];
    (1..=p.stock.min(p.reserve)).map(|spaces| Action::Sell { spaces }).collect()
}

fn builds(game: &Game) -> Vec<Action> {
    let seat = game.active();
    if game.players()[usize::from(seat)].locomotives[1].is_some() {
        return Vec::new();
    }
    game.board()
        .tiles()
        .iter()
        .filter(|t| t.station == Some(seat))
        .map(|t| Action::BuildLocomotive { at: t.cell })
        .collect()
}

/// Whether the active player holds what a trade takes (checked before copying the game to try
/// it; the engine still checks every rule).
fn affordable(game: &Game, trade: &Action) -> bool {
    let store = game.players()[usize::from(game.active())].store;
    match trade {
        Action::Convert { conversion } => store.get(conversion.recipe().0) >= 2,
        Action::Coal => store.coal >= 1,
        Action::BuildLocomotive { .. } => store.coal >= 1 && store.iron >= 1,
        _ => true,
    }
}

/// `game` after `trade`, with the actions so far and the trade, if the player can make it and
/// reaches a position not `seen` before (then marked seen).
fn traded(game: &Game, acts: &[Action], trade: Action, seen: &mut HashSet<String>) -> Option<(Game, Vec<Action>)> {
    if !affordable(game, &trade) {
        return None;
    }
    let mut next = game.clone();
    if next.apply_in_place(&trade).is_err() || !seen.insert(key(&next)) {
        return None;
    }
    let mut a = acts.to_vec();
    a.push(trade);
    Some((next, a))
}

fn key(game: &Game) -> String {
    format!("{:?}{:?}", game.players()[usize::from(game.active())], game.movement_left())
}

impl Search<'_> {
    fn run(&mut self, root: &Game) {
        let alphabet = |g: &Game| -> Vec<Action> { conversions().chain(sells(g)).collect() };
        for (g, acts) in self.closure(root, Vec::new(), &alphabet) {
            let lays: Vec<Action> =
                if g.can_lay() { g.legal_lays().into_iter().map(Action::Lay).collect() } else { vec![Action::NoLay] };
            for lay in lays {
                if let Some(only) = self.limits.lay {
                    let unpaid = match lay {
                        Action::Lay(l) => Some(Lay { pay: Payment::default(), ..l }),
                        _ => None,
                    };
                    if unpaid != only.map(|l| Lay { pay: Payment::default(), ..l }) {
                        continue;
                    }
                }
                let mut next = g.clone();
                if next.apply_in_place(&lay).is_ok() {
                    let mut a = acts.clone();
                    a.push(lay);
                    self.movement(next, a, Stage::None);
                }
            }
        }
    }

    /// Every game reachable from `game` by up to `limits.trades` trades from `alphabet`, each
    /// distinct player state once, with the trades taken.
    fn closure(
        &self,
        game: &Game,
        acts: Vec<Action>,
        alphabet: &dyn Fn(&Game) -> Vec<Action>,
    ) -> Vec<(Game, Vec<Action>)> {
        let mut seen = HashSet::new();
        seen.insert(key(game));
        let mut out = vec![(game.clone(), acts)];
        let mut frontier = 0;
        for _ in 0..self.limits.trades {
            let end = out.len();
            if frontier == end {
                break;
            }
            for i in frontier..end {
                for t in alphabet(&out[i].0) {
                    if let Some(next) = traded(&out[i].0, &out[i].1, t, &mut seen) {
                        out.push(next);
                    }
                }
            }
            frontier = end;
        }
        out
    }

    fn movement(&mut self, game: Game, acts: Vec<Action>, stage: Stage) {
        if self.stopped {
            return;
        }
        self.end_of_turn(&game, &acts);
        let seat = usize::from(game.active());
        let p = &game.players()[seat];
        let mut events: Vec<(Action, Stage)> = Vec::new();
        for l in 0..2u8 {
            let starts: Vec<_> = match p.locomotives[usize::from(l)] {
                Some(c) => vec![c],
                None => builds(&game)
                    .into_iter()
                    .filter_map(|b| if let Action::BuildLocomotive { at } = b { Some(at) } else { None })
                    .collect(),
            };
            for from in starts {
                for to in game.board().exits(from) {
                    events.push((Action::Move { locomotive: l, to }, Stage::Moved));
                }
            }
        }
        if stage != Stage::None {
            if stage < Stage::Picked {
                events.push((Action::Pickup, Stage::Picked));
            }
            if stage < Stage::Delivered {
                events.push((Action::Deliver { objective: None }, Stage::Delivered));
                for c in 0..COLUMNS as u8 {
                    events.push((Action::Deliver { objective: Some(c) }, Stage::Delivered));
                }
            }
            if stage < Stage::Passenger {
                events.push((Action::Passenger, Stage::Passenger));
            }
        }
        for (event, next_stage) in events {
            for (g, a) in self.enable(&game, &acts, &event) {
                self.movement(g, a, next_stage);
            }
        }
    }

    /// The ways to take `event` now: directly if possible, otherwise after trades (conversions,
    /// coal, building the second locomotive) that make it possible, one way to each position from
    /// which it is, searched breadth first (a trade sequence is not continued once the event is
    /// possible).
    fn enable(&self, game: &Game, acts: &[Action], event: &Action) -> Vec<(Game, Vec<Action>)> {
        let mut out = Vec::new();
        let mut next = game.clone();
        if next.apply_in_place(event).is_ok() {
            let mut a = acts.to_vec();
            a.push(*event);
            out.push((next, a));
            return out;
        }
        let mut seen = HashSet::new();
        seen.insert(key(game));
        let mut layer: Vec<(Game, Vec<Action>)> = vec![(game.clone(), acts.to_vec())];
        for depth in 0..=self.limits.trades {
            let mut deeper = Vec::new();
            for (g, a) in layer {
                let mut next = g.clone();
                if next.apply_in_place(event).is_ok() {
                    let mut a2 = a;
                    a2.push(*event);
                    out.push((next, a2));
                    continue;
                }
                if depth == self.limits.trades {
                    continue;
                }
                let alphabet: Vec<Action> = conversions().chain([Action::Coal]).chain(builds(&g)).collect();
                deeper.extend(alphabet.into_iter().filter_map(|t| traded(&g, &a, t, &mut seen)));
            }
            if deeper.is_empty() {
                break;
            }
            layer = deeper;
        }
        out
    }

    fn end_of_turn(&mut self, game: &Game, acts: &[Action]) {
        let alphabet = |g: &Game| -> Vec<Action> {
            conversions().chain(sells(g)).chain([Action::Coal]).chain(builds(g)).collect()
        };
        for (g, a) in self.closure(game, acts.to_vec(), &alphabet) {
            let display = g.display();
            let mut markets = Vec::new();
            if g.in_final_round() || display.iter().all(Option::is_none) {
                markets.push(Action::NoMarket);
            } else {
                if let Some(first) = display.iter().position(Option::is_some) {
                    markets.push(Action::Market { slot: first as u8, cube: false });
                }
                for (slot, d) in display.iter().enumerate() {
                    if d.is_some() {
                        markets.push(Action::Market { slot: slot as u8, cube: true });
                    }
                }
            }
            for market in markets {
                let mut m = g.clone();
                if m.apply_in_place(&market).is_err() {
                    continue;
                }
                for end in m.legal_actions().into_iter().filter(|x| matches!(x, Action::End { .. })) {
                    let mut e = m.clone();
                    if e.apply_in_place(&end).is_err() {
                        continue;
                    }
                    self.plans += 1;
                    (self.visit)(&e, Actions { start: &a, end: [market, end] });
                    if self.limits.plans.is_some_and(|l| self.plans >= l) {
                        self.stopped = true;
                        return;
                    }
                }
            }
        }
    }
}
