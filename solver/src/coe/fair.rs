//! The fair-play value of a position of The Cubes of Europe (issue 19): the expected final score
//! under the best play when the future dice are uniform and the unseen cards come in a
//! uniformly random order, the reshuffle too. Rulings F1 to F7 in
//! `docs/rules/cubes-of-europe.md`.
//!
//! - **What is seen** (F1). A player sees the board, the cubes, the workers, the tucked cards,
//!   the discard (every card in it was laid face up) and the deck's top card; the order of the
//!   deck below its top ([`Game::hidden`]), the dice of later turns and the reshuffle order are
//!   not seen. Every function here first *blinds* the game ([`Blind`]): the same position with
//!   the hidden cards in a fixed order and a fixed future, so two games that agree on what is
//!   seen are one game to it, whatever their futures.
//! - **Decisions and chance** (F2). No card is turned and no die rolled within a turn, so a
//!   turn's decisions are one choice among the positions the turn can end in
//!   ([`turn_outcomes`]); chance comes between turns: the cards the end of the turn turns face up
//!   (the deck's new top, the cards a reshuffle deals) and the next roll ([`for_each_future`]).
//! - **Exact** (F3): [`Exact`] is expectimax over those, with a table of positions.
//! - **Estimated** (F4): [`rollouts`] play on by [`Policy::Playout`] over sampled futures and
//!   report the mean with its 95% interval.

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use rustc_hash::FxHashMap as HashMap;
use signalbox_engine::coe::instance::MAX_TURNS;
use signalbox_engine::coe::{Colour, Game, Instance, Move};

use super::exact::turn_outcomes;

/// The 21 rolls of two dice, smaller die first, each with its number of the 36 ordered rolls
/// (2 for two different numbers): the two orders of a roll are one position (ruling A9's
/// argument: the dice are used in either order).
pub fn rolls() -> impl Iterator<Item = ([u8; 2], u32)> {
    (1..=6u8).flat_map(|a| (a..=6u8).map(move |b| ([a, b], if a == b { 1 } else { 2 })))
}

/// A blind future for one board card: the hidden cards in increasing order, the reshuffle in
/// increasing order and every die a 1. A game rebound to it ([`Blind::game`]) keeps everything
/// the player sees and nothing else of its own future; the fair-play functions only ever look
/// at such games, and set each roll themselves.
pub struct Blind {
    instance: Instance,
}

impl Blind {
    /// The blind future of `game`'s board card.
    pub fn of(game: &Game<'_>) -> Blind {
        let board = game.board_card();
        let deck: Vec<u8> = (1..=9u8).filter(|&c| c != board).collect();
        Blind {
            instance: Instance {
                seed: None,
                board,
                deck,
                reshuffle: (1..=9).collect(),
                dice: vec![[1, 1]; MAX_TURNS],
                seen: None,
            },
        }
    }

    /// `game` with this blind future: the hidden cards sorted, later dice and the reshuffle the
    /// blind instance's.
    pub fn game<'d>(&'d self, game: &Game<'d>) -> Game<'d> {
        let mut hidden = game.hidden().to_vec();
        hidden.sort_unstable();
        // The board card is the game's own, and `hidden` is an order of its hidden cards.
        game.rebind(&self.instance, &hidden).unwrap_or_else(|_| game.clone())
    }

    /// The blind instance (for a future dealt on it: [`for_each_future`], [`rollouts`]).
    pub fn instance(&self) -> &Instance {
        &self.instance
    }
}

/// What identifies a position to the fair-play search: the engine's key (which names the
/// piles' cards as sets) and the order of what is seen in them: the deck's size and top card,
/// the discard in order.
pub type FairKey = (u128, u64);

/// The fair-play key of a position (see [`FairKey`]).
pub fn fair_key(game: &Game<'_>) -> FairKey {
    let mut x = game.deck().len() as u64;
    x = x << 4 | u64::from(game.deck().last().copied().unwrap_or(0));
    for &c in game.discard() {
        x = x << 4 | u64::from(c);
    }
    (game.key(), x)
}

/// Every ordered choice of `r` of `cards` (each once), in a fixed order.
fn arrangements(cards: &[u8], r: usize) -> Vec<Vec<u8>> {
    if r == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for (i, &c) in cards.iter().enumerate() {
        let rest: Vec<u8> = cards.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &x)| x).collect();
        for mut tail in arrangements(&rest, r - 1) {
            tail.insert(0, c);
            out.push(tail);
        }
    }
    out
}

/// The hidden order (bottom first) that turns `first` face up first, then the rest sorted.
fn hidden_order(hidden: &[u8], first: &[u8]) -> Vec<u8> {
    let mut order: Vec<u8> = hidden.iter().copied().filter(|c| !first.contains(c)).collect();
    order.sort_unstable();
    order.extend(first.iter().rev());
    order
}

/// Calls `f(probability, position)` for every way chance can go after `line` is played from
/// `h` (a position where the player is to move, turn start or mid-turn), ruling F2: the cards
/// the turn's end turns face up (ordered choices of the hidden cards, and after a reshuffle of
/// the pile's cards), then the next roll (21 rolls, weighted). A position where the game is over
/// is called once per deal, without a roll. The probabilities add up to 1.
///
/// The deal is made by rebinding `h` to futures that turn the chosen cards up first
/// ([`Game::rebind`]); the line is replayed on each. `blind` must be the blind future of `h`'s
/// board card.
pub fn for_each_future(blind: &Blind, h: &Game<'_>, line: &[Move], f: &mut dyn FnMut(f64, &Game<'_>)) {
    fn play<'g>(g: &Game<'g>, line: &[Move]) -> Game<'g> {
        let mut g = g.clone();
        for &mv in line {
            g.play_unchecked(mv);
        }
        g
    }
    let base_hidden = {
        let mut v = h.hidden().to_vec();
        v.sort_unstable();
        v
    };
    let Ok(base) = h.rebind(&blind.instance, &base_hidden) else { return };
    let first = play(&base, line);
    let roll_on = |p: f64, g: &Game<'_>, f: &mut dyn FnMut(f64, &Game<'_>)| {
        if g.is_over() || !g.is_started() {
            f(p, g);
            return;
        }
        for (roll, n) in rolls() {
            let mut next = g.clone();
            // A turn's start, started and not over: the roll is accepted.
            if next.set_roll(roll).is_ok() {
                f(p * f64::from(n) / 36.0, &next);
            }
        }
    };
    if first.turn() == h.turn() {
        // The start space only: no card moves, the first roll comes.
        roll_on(1.0, &first, f);
        return;
    }
    let reshuffled = first.is_reshuffled() && !h.is_reshuffled();
    // Hidden cards turned up by this turn's end: the deck's new tops, or tucked before a
    // reshuffle (from the top of the hidden order in both cases).
    let up = if reshuffled {
        base_hidden.iter().filter(|c| first.tucked().contains(c)).count()
    } else {
        base_hidden.len() - first.hidden().len()
    };
    let hidden_deals = arrangements(&base_hidden, up);
    let p_hidden = 1.0 / hidden_deals.len() as f64;
    for deal in hidden_deals {
        let order = hidden_order(&base_hidden, &deal);
        let Ok(g0) = h.rebind(&blind.instance, &order) else { continue };
        let g1 = play(&g0, line);
        if !reshuffled || g1.is_over() {
            // After the reshuffle, a game over scores only its board, tucks and workers.
            roll_on(p_hidden, &g1, f);
            continue;
        }
        // The reshuffle deals the discard's cards and the deck's top, from the piles' cards.
        let mut pile: Vec<u8> = g1.deck().iter().chain(g1.discard()).copied().collect();
        pile.sort_unstable();
        let dealt = g1.discard().len() + usize::from(!g1.deck().is_empty());
        let deals = arrangements(&pile, dealt);
        let p_deal = p_hidden / deals.len() as f64;
        for d in deals {
            let mut instance = blind.instance.clone();
            let rest = (1..=9u8).filter(|c| !d.contains(c));
            instance.reshuffle = d.iter().copied().chain(rest).collect();
            let Ok(g0) = h.rebind(&instance, &order) else { continue };
            roll_on(p_deal, &play(&g0, line), f);
        }
    }
}

/// Exact fair-play values by expectimax over turns and chance (ruling F3), with a table of
/// positions by [`fair_key`]. For positions near the end: each turn multiplies the work by
/// about 150 deals and rolls times the turn's outcomes.
pub struct Exact<'b> {
    blind: &'b Blind,
    memo: HashMap<FairKey, f64>,
    last_turn_search: bool,
    /// Positions valued (table entries made).
    pub positions: u64,
}

impl<'b> Exact<'b> {
    /// An empty table for positions of `blind`'s board card.
    pub fn new(blind: &'b Blind) -> Exact<'b> {
        Exact { blind, memo: HashMap::default(), last_turn_search: true, positions: 0 }
    }

    /// Whether a turn that is surely the last is valued by [`last_turn_best`] (the default) or,
    /// off, by the general expectimax over its endings: the benchmark's baseline, the same values.
    pub fn with_last_turn_search(mut self, on: bool) -> Exact<'b> {
        self.last_turn_search = on;
        self
    }

    /// The fair-play value of a position where the player is to move (the roll known), or of a
    /// game over (its score): the best, over the positions the turn can end in, of their
    /// expected values.
    pub fn value(&mut self, h: &Game<'_>) -> f64 {
        if h.is_over() {
            return f64::from(h.score().total());
        }
        let key = fair_key(h);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let best = match last_turn_best(h).filter(|_| self.last_turn_search) {
            Some(score) => f64::from(score),
            None => {
                let mut best = f64::NEG_INFINITY;
                for (_, line) in turn_outcomes(h) {
                    best = best.max(self.expectation(h, &line));
                }
                best
            }
        };
        self.positions += 1;
        self.memo.insert(key, best);
        best
    }

    /// The expected fair-play value after `line` is played from `h`: over the cards turned up
    /// and the next roll, of the value of the position reached.
    pub fn expectation(&mut self, h: &Game<'_>, line: &[Move]) -> f64 {
        let mut total = 0.0;
        let blind = self.blind;
        for_each_future(blind, h, line, &mut |p, g| total += p * self.value(g));
        total
    }
}

/// The best final score of the game's last turn, when `h`'s turn is surely the last and its end
/// cannot tuck a hidden card: then no chance is left, and every ending is a final score (ruling
/// F3). A depth-first search over the legal moves, each position once; `None` when the turn may
/// not be the last (the search meets a next turn) or when the turn's tucks could reach below
/// the deck's top (more yellow hexes empty than cards in the discard).
pub fn last_turn_best(h: &Game<'_>) -> Option<u32> {
    if h.turns_left_at_most() > 1 || !h.is_started() {
        return None;
    }
    let empty_yellow = h.board().of_colour(Colour::Yellow).filter(|&i| h.placed() >> i & 1 == 0).count()
        + usize::from(h.yellows_this_turn());
    if empty_yellow > h.discard().len() {
        return None;
    }
    let mut best = None;
    let mut seen: rustc_hash::FxHashSet<u128> = rustc_hash::FxHashSet::default();
    let mut stack = vec![h.clone()];
    while let Some(g) = stack.pop() {
        for mv in g.legal_moves() {
            let mut next = g.clone();
            next.play_unchecked(mv);
            if next.is_over() {
                best = best.max(Some(next.score().total()));
            } else if next.turn() != h.turn() {
                return None;
            } else if seen.insert(next.key()) {
                stack.push(next);
            }
        }
    }
    best
}

/// The weights of the playout evaluation ([`evaluate`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Per point of an unfilled territory, times the square of its share filled.
    pub territory: f64,
    /// Per cube held that a hex of its colour could still take.
    pub held: f64,
    /// Per worker, beyond what workers score (a worker turns a die), times the share of the
    /// game left.
    pub worker: f64,
    /// Per empty hex touching a cube (where a die can place), times the share of the game left.
    pub frontier: f64,
    /// Per cube held that an empty hex of its colour touching a cube could take now.
    pub placeable: f64,
    /// Per colour not completed, times the square of its share placed.
    pub colour: f64,
}

/// The weights [`Policy::Playout`] plays by (ruling F5).
pub const WEIGHTS: Weights =
    Weights { territory: 1.42, held: 1.24, worker: 0.31, frontier: 0.56, placeable: 0.06, colour: 1.13 };

/// A quick estimate of the final score of a position from what is seen: the score if the game
/// ended now, plus the partial territories, the cubes held, the workers and the open hexes,
/// weighted ([`WEIGHTS`]). Nothing it reads depends on the hidden cards or the future dice.
pub fn evaluate(game: &Game<'_>, w: &Weights) -> f64 {
    let score = f64::from(game.score().total());
    if game.is_over() {
        return score;
    }
    let board = game.board();
    let placed = game.placed();
    let filled = |i: usize| placed >> i & 1 == 1;
    let mut territory = 0.0;
    for t in &board.territories {
        let n = t.iter().filter(|&&i| filled(i)).count();
        if n < t.len() {
            let points = f64::from(signalbox_engine::coe::card::TERRITORY_POINTS.get(t.len()).copied().unwrap_or(0));
            let share = n as f64 / t.len() as f64;
            territory += points * share * share;
        }
    }
    let inventory = game.inventory();
    let held: u32 = Colour::ALL
        .iter()
        .map(|&c| {
            let empty = board.of_colour(c).filter(|&i| !filled(i)).count() as u32;
            u32::from(inventory[c.index()]).min(empty)
        })
        .sum();
    let open = |i: usize| !filled(i) && board.neighbours[i].iter().any(|&n| filled(n));
    let frontier = (0..board.hexes.len()).filter(|&i| open(i)).count();
    let mut placeable = 0u32;
    let mut colours = 0.0;
    for &c in &Colour::ALL {
        let open_of = board.of_colour(c).filter(|&i| open(i)).count() as u32;
        placeable += u32::from(inventory[c.index()]).min(open_of);
        let all = board.of_colour(c).count();
        let done = board.of_colour(c).filter(|&i| filled(i)).count();
        if done < all {
            let share = done as f64 / all as f64;
            colours += share * share;
        }
    }
    let left = game.turns_left_at_most() as f64 / 12.0;
    score
        + w.territory * territory
        + w.held * f64::from(held)
        + w.placeable * f64::from(placeable)
        + w.colour * colours
        + left * (w.worker * f64::from(game.workers()) + w.frontier * frontier as f64)
}

/// How a turn is chosen (ruling F5). Every policy sees only what a player sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Policy {
    /// The fair policy: the exact best expected score once the game has at most `horizon` turns
    /// left ([`Exact`]), before that the playout evaluation's best.
    Fair,
    /// The playout policy: the playout evaluation's best ([`evaluate`]) except the last turn,
    /// which it plays exactly.
    Playout,
    /// The most points if the game ended after the turn; ties: the first in the engine's order.
    Greedy,
    /// A uniformly random legal move at every step, from a generator seeded by the seed.
    Random,
}

/// How far the fair policy and [`value_options`] compute exactly: positions with at most this
/// many turns left, the turn to move included (ruling F3).
pub const HORIZON: usize = 2;

/// Whether a position is valued exactly: at most `horizon` turns left, the turn to move
/// included (or the game over).
pub fn is_exact(game: &Game<'_>, horizon: usize) -> bool {
    game.is_over() || game.turns_left_at_most() <= horizon
}

/// The outcome a policy picks among `outcomes` of the position `h` (blinded), by index; `None`
/// for [`Policy::Random`], which moves one step at a time.
pub fn pick(
    policy: Policy,
    blind: &Blind,
    h: &Game<'_>,
    outcomes: &[(Game<'_>, Vec<Move>)],
    horizon: usize,
) -> Option<usize> {
    let best_by = |value: &mut dyn FnMut(&Game<'_>, &[Move]) -> f64| {
        let mut best: Option<(usize, f64)> = None;
        for (i, (g, line)) in outcomes.iter().enumerate() {
            let v = value(g, line);
            if best.is_none_or(|(_, b)| v > b + 1e-12) {
                best = Some((i, v));
            }
        }
        best.map(|(i, _)| i)
    };
    match policy {
        Policy::Random => None,
        Policy::Greedy => best_by(&mut |g, _| f64::from(g.score().total())),
        Policy::Fair if is_exact(h, horizon) => {
            let mut exact = Exact::new(blind);
            best_by(&mut |_, line| exact.expectation(h, line))
        }
        Policy::Playout if h.turns_left_at_most() <= 1 => best_by(&mut |g, _| f64::from(g.score().total())),
        Policy::Fair | Policy::Playout => best_by(&mut |g, _| evaluate(g, &WEIGHTS)),
    }
}

/// An estimated value: the mean of `samples` playouts and the half-width of its 95% interval
/// (normal approximation, 1.96 standard errors).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Estimate {
    /// The mean final score.
    pub mean: f64,
    /// Half the width of the 95% interval.
    pub half_width: f64,
    /// The playouts.
    pub samples: usize,
}

impl Estimate {
    /// The estimate of a sample of final scores.
    pub fn of(scores: &[f64]) -> Estimate {
        let n = scores.len();
        let mean = scores.iter().sum::<f64>() / n.max(1) as f64;
        let var = if n > 1 { scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1) as f64 } else { 0.0 };
        Estimate { mean, half_width: 1.96 * (var / n.max(1) as f64).sqrt(), samples: n }
    }
}

/// A seed for the `i`th playout from `h`, from what is seen only. Every choice of the turn
/// meets the same `i`th future (common random numbers: the options are compared on the same
/// dice and cards, which narrows the spread of their differences).
fn playout_seed(h: &Game<'_>, i: usize) -> u64 {
    let (a, b) = fair_key(h);
    let mut x = (a as u64) ^ ((a >> 64) as u64).rotate_left(17) ^ b.rotate_left(31);
    for byte in (i as u64).to_le_bytes() {
        x = (x ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01B3);
    }
    x
}

/// A future drawn at random for `h`'s board card: the hidden cards shuffled, every later die
/// and the reshuffle order drawn uniformly.
fn sampled_future(h: &Game<'_>, rng: &mut ChaCha8Rng) -> (Instance, Vec<u8>) {
    let mut hidden = h.hidden().to_vec();
    hidden.sort_unstable();
    hidden.shuffle(rng);
    let board = h.board_card();
    let mut reshuffle: Vec<u8> = (1..=9).collect();
    reshuffle.shuffle(rng);
    let dice = (0..MAX_TURNS).map(|_| [rng.random_range(1..=6u8), rng.random_range(1..=6u8)]).collect();
    let deck = (1..=9u8).filter(|&c| c != board).collect();
    (Instance { seed: None, board, deck, reshuffle, dice, seen: None }, hidden)
}

/// One playout: `line` from `h` in a sampled future, then [`Policy::Playout`] to the end.
fn playout(h: &Game<'_>, line: &[Move], seed: u64) -> f64 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (instance, hidden) = sampled_future(h, &mut rng);
    let Ok(mut g) = h.rebind(&instance, &hidden) else { return f64::from(h.score().total()) };
    for &mv in line {
        g.play_unchecked(mv);
    }
    let blind = Blind::of(&g);
    while !g.is_over() {
        let outcomes = turn_outcomes(&g);
        // The playout policy is blind: it reads what is seen of each outcome only.
        let i = pick(Policy::Playout, &blind, &g, &outcomes, 0).unwrap_or(0);
        let Some((next, _)) = outcomes.into_iter().nth(i) else { break };
        g = next;
    }
    f64::from(g.score().total())
}

/// The estimated value of playing `line` from `h` (ruling F4): the mean final score of
/// `samples` playouts, each in a future drawn from a generator seeded by what is seen, played on
/// by [`Policy::Playout`]. The same on any number of threads.
pub fn rollouts(h: &Game<'_>, line: &[Move], samples: usize) -> Estimate {
    rollouts_in(h, line, 0..samples)
}

/// [`rollouts`] over the playouts numbered `range`: disjoint ranges are independent samples
/// (the review values its chosen moves on fresh playouts, ruling F6).
pub fn rollouts_in(h: &Game<'_>, line: &[Move], range: std::ops::Range<usize>) -> Estimate {
    let scores: Vec<f64> = range.into_par_iter().map(|i| playout(h, line, playout_seed(h, i))).collect();
    Estimate::of(&scores)
}

/// One choice of a turn, valued.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Valued {
    /// The moves of the turn (from the position valued).
    pub line: Vec<Move>,
    /// The fair-play value, exact or estimated.
    pub value: f64,
    /// Half the width of the 95% interval (0 when exact).
    pub half_width: f64,
    /// Whether `value` is exact.
    pub exact: bool,
    /// The playouts behind an estimate (0 when exact).
    pub samples: usize,
}

/// Every choice of the turn from `h` (the position where the player is to move; any game,
/// blinded here), valued: exactly where the position has at most `horizon` turns left, else by
/// `samples` playouts each. Best first; ties in the engine's order. The same on any number of
/// threads.
pub fn value_options(h: &Game<'_>, horizon: usize, samples: usize) -> Vec<Valued> {
    let blind = Blind::of(h);
    let h = blind.game(h);
    let mut out: Vec<Valued> = value_outcomes(&blind, &h, horizon, samples).into_iter().map(|(_, v)| v).collect();
    out.sort_by(|a, b| b.value.total_cmp(&a.value));
    out
}

/// Every choice of the turn from the blinded position `h`, valued as [`value_options`] does, in
/// the engine's order, each with the key of the position it ends in (on `blind`'s future).
pub fn value_outcomes(blind: &Blind, h: &Game<'_>, horizon: usize, samples: usize) -> Vec<(u128, Valued)> {
    let outcomes = turn_outcomes(h);
    let exact = is_exact(h, horizon);
    outcomes
        .par_iter()
        .map(|(end, line)| {
            let valued = if exact {
                let v = Exact::new(blind).expectation(h, line);
                Valued { line: line.clone(), value: v, half_width: 0.0, exact: true, samples: 0 }
            } else {
                let e = rollouts(h, line, samples);
                Valued { line: line.clone(), value: e.mean, half_width: e.half_width, exact: false, samples }
            };
            (end.key(), valued)
        })
        .collect()
}

/// The generator [`choose_turn`] draws [`Policy::Random`]'s moves from, for a seed.
pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// The moves of the turn `policy` chooses from `game` (ruling F5), seeing only what a player
/// sees: the choice is made on the blinded game ([`Blind`]). For [`Policy::Random`], one random
/// legal move drawn from `rng`. Empty when the game is over.
pub fn choose_turn(game: &Game<'_>, policy: Policy, horizon: usize, rng: &mut ChaCha8Rng) -> Vec<Move> {
    if game.is_over() {
        return Vec::new();
    }
    if policy == Policy::Random {
        let legal = game.legal_moves();
        return legal.get(rng.random_range(0..legal.len().max(1))).copied().into_iter().collect();
    }
    let blind = Blind::of(game);
    let bg = blind.game(game);
    let outcomes = turn_outcomes(&bg);
    let i = pick(policy, &blind, &bg, &outcomes, horizon).unwrap_or(0);
    outcomes.into_iter().nth(i).map(|(_, line)| line).unwrap_or_default()
}

/// Plays `game` to its end by `policy` (ruling F5), seeing only what a player sees: each turn is
/// chosen by [`choose_turn`] and its moves played on `game` with the rules checked. `seed`
/// drives [`Policy::Random`] only. Returns the moves played and the game at its end.
pub fn play_out<'c>(game: &Game<'c>, policy: Policy, horizon: usize, seed: u64) -> (Vec<Move>, Game<'c>) {
    let mut g = game.clone();
    let mut moves = Vec::new();
    let mut rng = rng(seed);
    while !g.is_over() {
        let line = choose_turn(&g, policy, horizon, &mut rng);
        if line.is_empty() {
            break;
        }
        for mv in line {
            // The blinded game and `game` agree on everything a move depends on.
            if g.play(mv).is_err() {
                return (moves, g);
            }
            moves.push(mv);
        }
    }
    (moves, g)
}

/// The playout player's expected final score after `line` is played from `h` (a position where
/// the player is to move), when it plays every later turn ([`Policy::Playout`]): the value a
/// review splits a game's score by into skill and luck. Exact (an expectation over every card
/// and roll, ruling F2) when `h` has at most [`HORIZON`] turns left; otherwise estimated by the
/// playouts numbered `samples..2 * samples` ([`rollouts_in`]), which are exactly that player's
/// games, so the two agree in expectation. Its expectation over the chance after `line` is the
/// value, by [`playout_value`], of the position the chance leads to: so the luck of that chance
/// is zero in expectation.
pub fn playout_expectation(h: &Game<'_>, line: &[Move], samples: usize) -> Estimate {
    if is_exact(h, HORIZON) {
        let blind = Blind::of(h);
        let mut total = 0.0;
        for_each_future(&blind, h, line, &mut |p, g| total += p * exact_playout_value(&blind, g));
        return Estimate { mean: total, half_width: 0.0, samples: 0 };
    }
    rollouts_in(h, line, samples..2 * samples)
}

/// The playout player's expected final score from `h`, a position where the player is to move:
/// [`playout_expectation`] of the turn it plays ([`choose_turn`] by [`Policy::Playout`], which
/// draws nothing from its generator).
pub fn playout_value(h: &Game<'_>, samples: usize) -> Estimate {
    playout_expectation(h, &choose_turn(h, Policy::Playout, 0, &mut rng(0)), samples)
}

/// The exact value of [`playout_value`], by recursion over turns and chance (for positions near
/// the end only).
fn exact_playout_value(blind: &Blind, g: &Game<'_>) -> f64 {
    if g.is_over() {
        return f64::from(g.score().total());
    }
    let outcomes = turn_outcomes(g);
    let i = pick(Policy::Playout, blind, g, &outcomes, 0).unwrap_or(0);
    let Some((_, line)) = outcomes.get(i) else { return f64::from(g.score().total()) };
    let mut total = 0.0;
    for_each_future(blind, g, line, &mut |p, next| total += p * exact_playout_value(blind, next));
    total
}
