//! The best turn of Express 01 by a stated evaluation, searched exactly over the turn's choices
//! (rulings A1-A10 of `docs/rules/express-01.md`), and the naive reference it is tested against.
//!
//! The evaluation of a turn is the mover's capital less the strongest opponent's, when the turn
//! ends (A1). Its value depends on the end of the turn only, so the search is over the states a
//! turn can reach: a depth-first search that visits each state once, keeps the best end found,
//! and cuts a state whose admissible bound cannot beat it (A2; the bound while building is
//! `turn_bound`, A6). Choices proven not to change the value are taken once: the deck of each
//! card of a bonus payment and the exchange of D) (A3), B) after A) (A4), copies of a card and
//! the order within decks where no top card can still be drawn (A5), "A) then B)" as "B) then
//! A)" with no purchase (A7). The rest of an A) is searched by `turn_expand` with payments named
//! when a build needs their card (A8, A9).

use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::time::Instant;

use signalbox_engine::express01::game::{Action, Budget, Game, Pair, Phase, Referee, Source, Spend, Step};
use signalbox_engine::express01::position::WestBonus;

use super::turn_bound::{PrepCache, expand_upper};
use super::turn_expand;

/// The evaluation of a state for `player` (A1): their capital less the highest capital of the
/// other players.
pub fn evaluation(game: &Game<'_>, player: usize) -> i32 {
    let own = game.capital(player).total() as i32;
    let best_other = (0..game.seats().len()).filter(|&p| p != player).map(|p| game.capital(p).total()).max();
    own - best_other.map_or(0, |c| c as i32)
}

/// Where a search stops short of the end: after a number of states (the same answer on every
/// machine), or at a moment (the answer then depends on the machine's speed). Either stop makes
/// the answer "not proven".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limit {
    /// At most this many states (for the best turn: in each action pair's search).
    pub states: Option<u64>,
    /// At this moment.
    pub deadline: Option<Instant>,
}

impl Limit {
    /// No limit: the search runs to its end and the answer is proven.
    pub fn none() -> Limit {
        Limit::default()
    }

    /// A deadline only.
    pub fn until(deadline: Instant) -> Limit {
        Limit { states: None, deadline: Some(deadline) }
    }

    /// Whether a search that has visited `nodes` states must stop (the clock is read every 1024).
    pub fn reached(&self, nodes: u64) -> bool {
        self.states.is_some_and(|s| nodes > s)
            || (nodes.is_multiple_of(1024) && self.deadline.is_some_and(crate::stop::passed))
    }
}

/// A turn: its steps from the pair to the step that ends it, and its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    /// The steps, in order; the last one ends the turn.
    pub steps: Vec<Step>,
    /// The evaluation at the end of the turn (A1).
    pub value: i32,
}

/// What a search found: the best turns, whether the best is proven, and the work done.
#[derive(Clone, Debug)]
pub struct TurnAnswer {
    /// The best turns, best first, each a different plan (`plan`: pair, purchases and their
    /// sources, upgrades, bonus, exchange; ties in the search's order); at most the `top` asked
    /// for, at least one.
    pub turns: Vec<Turn>,
    /// Whether the search finished: then `turns[0]` is proven best and every turn not listed is
    /// worth no more than the last one listed.
    pub proven: bool,
    /// An upper bound on the best turn's value: `turns[0].value` when proven, otherwise what the
    /// bound of A2 still allows.
    pub bound: i32,
    /// States visited.
    pub nodes: u64,
    /// Lines the game refused when played out: always 0 unless the search has a defect (the
    /// tests check it).
    pub refused: u64,
    /// A game from the table where the turn can draw the West's card (USA rule b) from a deck
    /// whose top lies face down, and a line through that draw could beat the best turn: those
    /// lines are valued with the card in number order (ruling T3), one of the ways it could
    /// come, so the best is not proven and `bound` covers every card.
    pub unseen: bool,
}

impl TurnAnswer {
    /// The best turn found.
    pub fn best(&self) -> &Turn {
        &self.turns[0]
    }
}

/// A 128-bit hash, for the visited sets and memos of the searches (a game is kilobytes; millions
/// of states are visited): two hashers with unrelated algorithms; a collision of both is not to
/// be expected among the states of any search.
pub(crate) fn hash128<T: Hash + ?Sized>(x: &T) -> u128 {
    let mut a = rustc_hash::FxHasher::default();
    x.hash(&mut a);
    let mut b = std::collections::hash_map::DefaultHasher::new();
    x.hash(&mut b);
    (u128::from(a.finish()) << 64) | u128::from(b.finish())
}

/// The fingerprint of a game's state.
pub(crate) fn fingerprint(game: &Game<'_>) -> u128 {
    hash128(game)
}

/// A game hashed with the order within its decks left out (A5).
struct OrderFree<'a, 'c>(&'a Game<'c>);

impl Hash for OrderFree<'_, '_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash_ignoring_deck_order(state);
    }
}

/// The key of a state in the search's visited sets (A5): its fingerprint, with the order of
/// the cards within decks left out when no draw from a deck's top can still come in the turn.
fn key(game: &Game<'_>) -> u128 {
    if !order_free(game) {
        return fingerprint(game);
    }
    hash128(&OrderFree(game)) ^ 1
}

/// What tells two turns apart for the list of best turns: their plan. The action pair, the
/// companies bought and where each share came from (the decks, or which player), the upgrades
/// (cell, card, turned), the black engine paid or not, the bonus company and the black engine
/// as a share, the exchange. Which cards of the hand paid, which copy or which share card of a
/// company was taken, and which decks the bonus cards came from do not make a different plan.
fn plan(steps: &[Step]) -> u128 {
    let mut parts: Vec<(u8, u64)> = Vec::new();
    let mut buying = None;
    for step in steps {
        match *step {
            Step::Pair(p) => parts.push((0, p as u64)),
            Step::Buy(c) => buying = Some(u64::from(c.0)),
            Step::Take(Source::Deck { .. }) => parts.push((1, buying.unwrap_or(0) << 8 | 0xff)),
            Step::Take(Source::Player { player, .. }) => parts.push((1, buying.unwrap_or(0) << 8 | player as u64)),
            Step::Build(b) => parts.push((2, (b.cell as u64) << 20 | u64::from(b.card.0) << 1 | u64::from(b.turned))),
            Step::Pay(Spend::Engine) => parts.push((3, 0)),
            Step::Bonus { company, engine, .. } => parts.push((4, u64::from(company.0) << 1 | u64::from(engine))),
            Step::Swap(p) => parts.push((5, p as u64)),
            _ => {}
        }
    }
    parts.sort_unstable();
    hash128(&parts)
}

/// Whether the order of the cards within the decks can no longer change the value of the turn
/// (A5): the rest of the turn takes cards from decks only by number, at any depth (builds,
/// shares), never from a top, unless a West bonus (USA rule b) can still be drawn, or a bonus
/// payment is being drawn. Capital does not look at decks.
fn order_free(g: &Game<'_>) -> bool {
    if matches!(g.phase(), Phase::Bonus | Phase::Paying { .. }) || g.pair().is_none() {
        // Before the pair is chosen, C) may still come; within C) the draws take tops.
        return false;
    }
    if matches!(g.phase(), Phase::Expand { west: true, .. }) {
        return false;
    }
    let west = g.map().west_bonus.iter().filter_map(|&b| g.map().cell_of(b)).collect::<Vec<_>>();
    if west.is_empty() || !expand_ahead(g) {
        return true;
    }
    let at_base = |c: &usize| g.board()[*c].card == g.map().cells[*c].base;
    match g.rules().west_bonus {
        WestBonus::Once => !west.iter().all(at_base),
        WestBonus::EachCard => !west.iter().any(at_base),
    }
}

/// Whether the mover may still build in this turn.
fn expand_ahead(g: &Game<'_>) -> bool {
    let (pair, action) = (g.pair(), g.action());
    pair.is_none()
        || matches!(
            (pair, action),
            (Some(Pair::ExpandShares), Some(Action::Expand)) | (Some(Pair::SharesExpand), Some(_))
        )
}

/// Whether the step that led from `game` to `after` ended the mover's turn: the game is at the
/// start of a turn again (the next player's, or the next round's), or over.
pub fn ends_turn(game: &Game<'_>, after: &Game<'_>) -> bool {
    after.is_over() || (*after.phase() == Phase::Pair && *game.phase() != Phase::Pair)
}

/// Every end of the turn reachable from `game` (at the start of a turn, or within it) with its
/// value, by a plain search over every legal step: each state is expanded once (two orders of
/// the same steps reach the same state), nothing is cut and no choice is left out. The reference
/// of the tests; exponential.
pub fn naive_best(game: &Game<'_>, referee: &dyn Referee) -> Option<i32> {
    let mover = game.mover();
    let mut seen: HashSet<u128> = HashSet::new();
    let mut stack = vec![game.clone()];
    let mut best: Option<i32> = None;
    while let Some(g) = stack.pop() {
        for step in g.legal(referee) {
            let mut h = g.clone();
            h.play_unchecked(step);
            if ends_turn(&g, &h) {
                // The step ending a turn is a `done` or an exchange: it moves no capital, and what
                // follows it (the next round's government aid) is not the turn's.
                let v = evaluation(&g, mover);
                best = Some(best.map_or(v, |b| b.max(v)));
            } else if seen.insert(fingerprint(&h)) {
                stack.push(h);
            }
        }
    }
    best
}

/// The exact best turn from `game` (A2, A3): the highest evaluation any legal continuation of the
/// turn reaches, with a turn reaching it.
pub fn best_turn<R: Referee + Sync + ?Sized>(game: &Game<'_>, referee: &R) -> TurnAnswer {
    best_turns(game, referee, 1, Limit::none())
}

/// The `top` best turns from `game` (A2, A3), each a different plan, searched
/// exactly on one thread; at the limit, the search stops and the answer says it is not proven,
/// with an upper bound on the best value. The same as [`best_turns_on`] with one
/// thread.
pub fn best_turns<R: Referee + Sync + ?Sized>(game: &Game<'_>, referee: &R, top: usize, limit: Limit) -> TurnAnswer {
    best_turns_with(game, referee, top, limit, &|jobs| jobs.into_iter().map(|job| job()).collect())
}

/// As [`best_turns`], with the action pairs of a turn start searched on `threads` threads. The
/// answer does not depend on the number of threads: the bonus payment's pair is searched first,
/// then each other pair on its own with the value the first pair reached to beat, and the turns
/// found are merged in the pairs' order.
pub fn best_turns_on<R: Referee + Sync + ?Sized>(
    game: &Game<'_>,
    referee: &R,
    top: usize,
    limit: Limit,
    threads: usize,
) -> TurnAnswer {
    use rayon::prelude::*;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads.max(1)).build();
    let run = |jobs: Vec<Job<'_>>| -> Vec<Part> {
        match &pool {
            Ok(pool) => pool.install(|| jobs.into_par_iter().map(|job| job()).collect()),
            Err(_) => jobs.into_iter().map(|job| job()).collect(),
        }
    };
    best_turns_with(game, referee, top, limit, &run)
}

/// A referee seen through `dyn`, whatever its own type.
struct Dyn<'r, R: ?Sized>(&'r R);

impl<R: Referee + ?Sized> Referee for Dyn<'_, R> {
    fn best_payout(
        &self,
        network: &signalbox_engine::express01::network::Network,
        task: signalbox_engine::express01::route::RouteTask,
    ) -> Option<u32> {
        self.0.best_payout(network, task)
    }
}

/// What one pair's search found.
struct Part {
    found: Vec<Turn>,
    stopped: bool,
    nodes: u64,
    refused: u64,
    /// The pair's bound (A2).
    upper: i32,
    /// The bound (A2) at the draws of a card nobody has seen, whatever card comes (T3).
    unseen: Option<i32>,
}

type Job<'a> = Box<dyn FnOnce() -> Part + Send + 'a>;

fn best_turns_with<R: Referee + Sync + ?Sized>(
    game: &Game<'_>,
    referee: &R,
    top: usize,
    limit: Limit,
    run: &dyn Fn(Vec<Job<'_>>) -> Vec<Part>,
) -> TurnAnswer {
    let mover = game.mover();
    let top = top.max(1);
    let search_from = |start: &Game<'_>, first: Option<Step>, threshold: Option<i32>| -> Part {
        let mut s = Search::new(mover, top, limit, threshold);
        let referee: &dyn Referee = &Dyn(referee);
        let upper = match first {
            None => {
                s.visit(start, referee);
                upper(start, mover, &mut s.preps)
            }
            Some(step) => {
                let mut h = start.clone();
                h.play_unchecked(step);
                s.line.push(step);
                s.visit(&h, referee);
                upper(&h, mover, &mut s.preps)
            }
        };
        Part { found: s.found, stopped: s.stopped, nodes: s.nodes, refused: s.refused, upper, unseen: s.unseen }
    };
    let parts: Vec<Part> = if *game.phase() == Phase::Pair {
        let pairs = choices(game, &Dyn(referee));
        let (bonus, rest): (Vec<Step>, Vec<Step>) = pairs.into_iter().partition(|s| *s == Step::Pair(Pair::BonusOrder));
        let mut parts: Vec<Part> = bonus.iter().map(|&p| search_from(game, Some(p), None)).collect();
        let threshold = parts.first().and_then(|p| (p.found.len() >= top).then(|| p.found[top - 1].value));
        let jobs: Vec<Job<'_>> =
            rest.into_iter().map(|p| -> Job<'_> { Box::new(move || search_from(game, Some(p), threshold)) }).collect();
        // The jobs borrow the referee, which is shared only when it is `Sync` (`best_turns_on`).
        parts.extend(run(jobs));
        parts
    } else {
        vec![search_from(game, None, None)]
    };
    let mut turns: Vec<Turn> = parts.iter().flat_map(|p| p.found.iter().cloned()).collect();
    turns.sort_by_key(|t| std::cmp::Reverse(t.value));
    turns.truncate(top);
    if turns.is_empty() {
        turns.push(Turn { steps: Vec::new(), value: evaluation(game, mover) });
    }
    // A line through a card nobody has seen could beat the best only where its bound does (T3).
    let unseen = parts.iter().filter_map(|p| p.unseen).max().filter(|&u| u > turns[0].value);
    let proven = parts.iter().all(|p| !p.stopped) && unseen.is_none();
    let bound = parts
        .iter()
        .map(|p| if p.stopped { p.upper.max(p.found.first().map_or(i32::MIN, |t| t.value)) } else { i32::MIN })
        .fold(turns[0].value, i32::max)
        .max(unseen.unwrap_or(i32::MIN));
    TurnAnswer {
        turns,
        proven,
        bound,
        nodes: parts.iter().map(|p| p.nodes).sum(),
        refused: parts.iter().map(|p| p.refused).sum(),
        unseen: unseen.is_some(),
    }
}

struct Search {
    mover: usize,
    top: usize,
    seen: HashSet<u128>,
    ends: HashSet<u128>,
    /// The best turns found, best first.
    found: Vec<Turn>,
    nodes: u64,
    line: Vec<Step>,
    limit: Limit,
    stopped: bool,
    /// Lines of A) the game refused when played out (a defect; the tests assert none).
    refused: u64,
    /// A value known to be reached elsewhere, which a turn must beat.
    floor: Option<i32>,
    /// The highest bound (A2) at a draw of a card nobody has seen (T3).
    unseen: Option<i32>,
    /// What the bound reads of the other players' hands, kept while they do not change.
    preps: PrepCache,
}

impl Search {
    fn new(mover: usize, top: usize, limit: Limit, floor: Option<i32>) -> Search {
        Search {
            mover,
            top,
            seen: HashSet::new(),
            ends: HashSet::new(),
            found: Vec::new(),
            nodes: 0,
            line: Vec::new(),
            limit,
            stopped: false,
            refused: 0,
            floor,
            unseen: None,
            preps: PrepCache::default(),
        }
    }

    /// The value a turn must beat to enter the list.
    fn threshold(&self) -> Option<i32> {
        let own = (self.found.len() >= self.top).then(|| self.found[self.top - 1].value);
        own.max(self.floor)
    }

    fn offer(&mut self, value: i32) {
        if self.threshold().is_some_and(|t| value <= t) || !self.ends.insert(plan(&self.line)) {
            return;
        }
        let at = self.found.iter().position(|t| t.value < value).unwrap_or(self.found.len());
        self.found.insert(at, Turn { steps: self.line.clone(), value });
        self.found.truncate(self.top);
    }

    /// Counts a state; whether the deadline has passed.
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if !self.stopped && self.limit.reached(self.nodes) {
            self.stopped = true;
        }
        self.stopped
    }

    fn visit(&mut self, g: &Game<'_>, referee: &dyn Referee) {
        if self.tick() {
            return;
        }
        if let Some(t) = self.threshold()
            && upper(g, self.mover, &mut self.preps) <= t
        {
            return;
        }
        if matches!(g.phase(), Phase::Expand { budget: Budget::Spent, west: false })
            && g.action() == Some(Action::Expand)
            && order_free(g)
        {
            // A8: the rest of A) with the cards paid named when they matter.
            let mut sink = ExpandSink { search: self, referee };
            turn_expand::search(g, &mut sink);
            return;
        }
        for step in choices(g, referee) {
            if g.draws_unseen(step) {
                // The West's card from a face-down top: searched with the card in number order;
                // the bound here holds whatever card comes (T3).
                let b = upper(g, self.mover, &mut self.preps);
                self.unseen = Some(self.unseen.map_or(b, |u| u.max(b)));
            }
            let mut h = g.clone();
            h.play_unchecked(step);
            self.line.push(step);
            if ends_turn(g, &h) {
                let value = evaluation(g, self.mover);
                self.offer(value);
            } else if self.seen.insert(key(&h)) {
                self.visit(&h, referee);
            }
            self.line.pop();
        }
    }
}

/// The turn search seen from the search of A): lines of A) are continued to the end of the
/// turn (B) after A) ends at once, A4) and offered.
struct ExpandSink<'s, 'r> {
    search: &'s mut Search,
    referee: &'r dyn Referee,
}

impl turn_expand::Sink for ExpandSink<'_, '_> {
    fn threshold(&self) -> Option<i32> {
        self.search.threshold()
    }

    fn tick(&mut self) -> bool {
        self.search.tick()
    }

    fn finish(&mut self, steps: Vec<Step>, before: &Game<'_>, after: Game<'_>, value: i32) {
        let depth = self.search.line.len();
        self.search.line.extend_from_slice(&steps);
        if ends_turn(before, &after) {
            debug_assert_eq!(evaluation(before, self.search.mover), value);
            self.search.offer(value);
        } else if self.search.seen.insert(key(&after)) {
            self.search.visit(&after, self.referee);
        }
        self.search.line.truncate(depth);
    }

    fn refused(&mut self) {
        self.search.refused += 1;
    }
}

/// The steps the search tries (A3): every legal step, except that a receiver's deck and the
/// exchange of D) are taken once (`done`, the first deck), and B) after A) is ended at once.
fn choices(g: &Game<'_>, referee: &dyn Referee) -> Vec<Step> {
    let mut steps = match g.phase() {
        Phase::Paying { .. } => return g.legal(referee).into_iter().take(1).collect(),
        Phase::Order => return vec![Step::Done],
        Phase::Shares if g.pair() == Some(Pair::ExpandShares) => return vec![Step::Done],
        Phase::Pair => {
            // A7: "A) then B)" reaches no evaluation that "B) then A)" with no purchase does not.
            let steps = g.legal(referee);
            if steps.contains(&Step::Pair(Pair::SharesExpand)) {
                return steps.into_iter().filter(|s| *s != Step::Pair(Pair::ExpandShares)).collect();
            }
            steps
        }
        _ => g.legal(referee),
    };
    if order_free(g) {
        // A5: copies of one card at different depths leave decks that differ only in order.
        let mut seen = HashSet::new();
        steps.retain(|s| match *s {
            Step::Build(b) => seen.insert((0u8, b.cell, b.card, b.turned)),
            Step::Take(Source::Deck { card, .. }) => seen.insert((1u8, 0, card, false)),
            _ => true,
        });
    }
    steps
}

/// An upper bound on the evaluation any continuation of the turn from `g` reaches (A2, A6).
fn upper(g: &Game<'_>, mover: usize, preps: &mut PrepCache) -> i32 {
    match (g.pair(), g.phase()) {
        (Some(Pair::SharesExpand), Phase::Shares | Phase::Buying { .. } | Phase::Taking { .. }) => {
            expand_upper(g, mover, true, preps)
        }
        (Some(Pair::SharesExpand | Pair::ExpandShares), Phase::Expand { .. }) => expand_upper(g, mover, false, preps),
        // Before the pair: building (either order, A4 and A7) or a bonus payment.
        (None, _) => expand_upper(g, mover, true, preps).max(evaluation(g, mover) + bonus_gain(g, mover)),
        _ => evaluation(g, mover) + bonus_gain(g, mover),
    }
}

/// An upper bound on how much the evaluation can still rise in C) and D) (A2): the mover gains
/// at most the cards of the payment (at most two a station on the board, or the cards still due
/// to them in a payment under way); nothing in them lowers another player's capital, and D)
/// moves none. Elsewhere (the B) after A), ended at once by A4) nothing rises.
fn bonus_gain(g: &Game<'_>, mover: usize) -> i32 {
    match g.phase() {
        Phase::Pair | Phase::Bonus => {
            let catalogue = g.catalogue();
            let stations: usize =
                g.board().iter().filter_map(|p| catalogue.card(p.card)).map(|c| c.stations.len()).sum();
            2 * stations as i32
        }
        Phase::Paying { queue } => queue.iter().filter(|&&p| p == mover).count() as i32,
        _ => 0,
    }
}
