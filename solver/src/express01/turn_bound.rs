//! The admissible bound of the best-turn search while the mover may still build (ruling A6 of
//! `docs/rules/express-01.md`): no continuation of the turn from a state can reach a higher
//! evaluation than [`expand_upper`] says.
//!
//! The argument, for a state in A) or in the B) before an A) (pair "B) then A)"):
//!
//! - The evaluation is the mover's capital less the strongest opponent's. For every opponent
//!   `p`, the strongest opponent's capital at the end is at least `p`'s, so the evaluation at the
//!   end is at most `own_end - p_end`; the bound is the least of these over `p`.
//! - In A) capital moves only by (G3) a station card laid over a station base (every share of
//!   its companies, of every holder, gains 1), a base card taken (the mover's pairs), a card paid
//!   (the mover loses 1, the black engine 2) and the West bonus (the mover gains 1). Upgrades of
//!   upgrades move no capital: each station keeps its company (R7), so the count of every
//!   company's stations stays.
//! - A station base can be built only once a neighbouring card has a track ending at their
//!   shared side (G6). That track comes from a card already there, or from a build on the
//!   neighbour: one upgrade of a card already built (counted as one route build, which costs at
//!   most what it does), or the neighbour's own first build, which itself needs such a track.
//!   So the route builds a plan makes before a station base is buildable are at least the
//!   shortest such chain, with station bases on the way counted free (they may be stations of
//!   the plan). A plan building the station bases `S` and making `t` other builds has every
//!   member of `S` within distance `t`.
//! - What the plan's stations add for `p`'s margin is, for each station card, the mover's
//!   holding of its companies less `p`'s; the bound takes the best station card that is not in
//!   another player's hand, for each station base, and the best `k` of those within distance
//!   `t`, for every `k` and `t` the hand can pay; plus the largest rise of pairs with `k`
//!   station bases and `min(t, route bases)` route bases, less the cheapest payment of `k`
//!   station upgrades and `t` route upgrades.
//! - In the B) before A), each purchase leaves the mover's capital unchanged or costs 1 (the
//!   black engine), and a share taken from `p` lowers `p`'s capital by at most 1 (the black
//!   engine's part of the price is not handed over). The shares bought can raise the mover's
//!   holdings (at most one share a card in hand) and lower `p`'s (a share taken); the bound
//!   adds the hand to the mover's holdings and takes it from `p`'s.

use signalbox_engine::express01::card::{CardKind, CompanyId};
use signalbox_engine::express01::game::{Budget, Game, Phase};
use signalbox_engine::express01::map::Beyond;
use signalbox_engine::express01::position::WestBonus;

/// Far: a cell no chain of builds can make buildable.
const FAR: i32 = i32::MAX / 4;

/// An upper bound on the evaluation at the end of the turn, for a state in which the mover can
/// still build and no bonus payment can come (A6). `shares_ahead`: the state is in the B) that
/// comes before A).
pub(crate) fn expand_upper(g: &Game<'_>, mover: usize, shares_ahead: bool) -> i32 {
    let catalogue = g.catalogue();
    let map = g.map();
    let board = g.board();
    let seats = g.seats();
    let hand = seats[mover].hand.len() as i32;
    let engine = g.black_engine() == Some(mover) && !g.engine_used();
    let own = g.capital(mover).total() as i32;

    // Station cards a plan can lay: every copy not in another player's hand.
    let available = |n| {
        let Some(card) = catalogue.card(n) else { return false };
        let held: usize = seats
            .iter()
            .enumerate()
            .filter(|&(p, _)| p != mover)
            .map(|(_, s)| s.hand.iter().filter(|&&h| h == n).count())
            .sum();
        usize::from(card.copies) > held
    };

    let distance = distances(g);
    let at_base = |c: usize| board[c].card == map.cells[c].base;
    let kind_of = |c: usize| catalogue.card(map.cells[c].base).map(|b| b.kind);
    let route_bases = (0..board.len()).filter(|&c| at_base(c) && kind_of(c) == Some(CardKind::BaseRoute)).count() as i32;

    let pile = |k: CardKind| {
        seats[mover].base_cards.iter().filter(|&&n| catalogue.card(n).is_some_and(|c| c.kind == k)).count() as i32
    };
    let (r, st) = (pile(CardKind::BaseRoute), pile(CardKind::BaseStation));

    let (free, free_route_only) = match g.phase() {
        Phase::Expand { budget: Budget::Fresh, .. } => (true, false),
        Phase::Expand { budget: Budget::OneRoute(_), .. } => (true, true),
        _ => (false, false),
    };
    let units = hand + i32::from(engine);
    // Cards paid for `k` station upgrades and `t` route upgrades, if the hand can pay them.
    let cost = |k: i32, t: i32| -> Option<i32> {
        let budgets = k + (t + 1) / 2;
        let paid = match (free, free_route_only) {
            (false, _) => budgets,
            (true, false) => (budgets - 1).max(0),
            (true, true) if t >= 1 => k + t / 2,
            (true, true) => k,
        };
        (paid <= units).then(|| paid.min(hand) + 2 * (paid - hand).max(0))
    };

    let west_cells: Vec<usize> = map.west_bonus.iter().filter_map(|&b| map.cell_of(b)).collect();
    let west = i32::from(matches!(g.phase(), Phase::Expand { west: true, .. }))
        + match g.rules().west_bonus {
            WestBonus::Once => i32::from(!west_cells.is_empty() && west_cells.iter().all(|&c| at_base(c))),
            WestBonus::EachCard => west_cells.iter().filter(|&&c| at_base(c)).count() as i32,
        };
    let extra = if shares_ahead { units } else { 0 };
    let pending = match g.phase() {
        Phase::Buying { company, .. } | Phase::Taking { company, .. } => g.stations(*company) as i32,
        _ => 0,
    };
    let engine_take = i32::from(engine && shares_ahead);

    // The unbuilt station bases: distance and the cards that may lie on them.
    let stations: Vec<(usize, i32)> = (0..board.len())
        .filter(|&c| at_base(c) && kind_of(c) == Some(CardKind::BaseStation) && distance[c] < FAR)
        .map(|c| (c, distance[c]))
        .collect();
    let max_t = 2 * units + 2;

    let opponents: Vec<usize> = (0..seats.len()).filter(|&p| p != mover).collect();
    let margins: Vec<(i32, Option<usize>)> = if opponents.is_empty() {
        vec![(own, None)]
    } else {
        opponents.iter().map(|&p| (own - g.capital(p).total() as i32, Some(p))).collect()
    };
    let mut best_bound = i32::MAX;
    for (margin, p) in margins {
        let gain = |company: CompanyId| -> i32 {
            let mine = g.holding(mover, company) as i32 + extra;
            let theirs = p.map_or(0, |p| (g.holding(p, company) as i32 - extra).max(0));
            mine - theirs
        };
        // Each station base's best station card for this margin, and its distance.
        let mut values: Vec<(i32, i32)> = stations
            .iter()
            .map(|&(c, d)| {
                let base = catalogue.card(map.cells[c].base).expect("a base card");
                let v = base
                    .upgrades
                    .iter()
                    .filter(|&&n| available(n))
                    .filter_map(|&n| catalogue.card(n))
                    .map(|card| card.stations.iter().filter_map(|s| s.company).map(gain).sum::<i32>())
                    .max();
                (v.unwrap_or(i32::MIN / 4), d)
            })
            .filter(|&(v, _)| v > i32::MIN / 4)
            .collect();
        values.sort_unstable_by(|a, b| b.0.cmp(&a.0));
        let mut best = 0;
        for t in 0..=max_t {
            let within: Vec<i32> = values.iter().filter(|&&(_, d)| d <= t).map(|&(v, _)| v).collect();
            let mut sum = 0;
            for k in 0..=within.len() as i32 {
                if k > 0 {
                    sum += within[k as usize - 1];
                }
                let Some(paid) = cost(k, t) else { break };
                let a = t.min(route_bases);
                let pairs = (r + a).min(st + k) - r.min(st);
                best = best.max(sum + pairs - paid);
            }
        }
        let bound = margin + best + west + pending + engine_take;
        best_bound = best_bound.min(bound);
    }
    best_bound
}

/// For each cell still at its base card, the fewest route builds before it can be built (A6):
/// 0 when a neighbour has a track ending at their shared side; otherwise through a neighbour
/// already built that can still be upgraded (1), or a neighbour at its base, which needs its own
/// distance plus its build when it is a route base (a station base on the way is free). On the
/// game's first build every cell is at distance 0 (the first station needs no track).
fn distances(g: &Game<'_>) -> Vec<i32> {
    let catalogue = g.catalogue();
    let map = g.map();
    let board = g.board();
    let n = board.len();
    if g.upgraded() == 0 {
        return vec![0; n];
    }
    let at_base = |c: usize| board[c].card == map.cells[c].base;
    let card_on = |c: usize| catalogue.card(board[c].card);
    let track_at = |c: usize, side| {
        card_on(c).is_some_and(|card| {
            card.tracks.iter().any(|t| {
                let (a, b) = t.oriented(board[c].turned).ends();
                a.side() == Some(side) || b.side() == Some(side)
            })
        })
    };
    let mut d = vec![FAR; n];
    // Each base cell's neighbours: (neighbour, whether the neighbour has the facing track now).
    let neighbours: Vec<Vec<(usize, bool)>> = (0..n)
        .map(|c| {
            signalbox_engine::express01::side::Side::ALL
                .into_iter()
                .filter_map(|side| match map.cells[c].beyond[side.index()] {
                    Beyond::Cell(m) => Some((m, track_at(m, side.facing()))),
                    _ => None,
                })
                .collect()
        })
        .collect();
    loop {
        let mut changed = false;
        for c in 0..n {
            if !at_base(c) {
                continue;
            }
            let mut best = d[c];
            for &(m, track) in &neighbours[c] {
                let via = if track {
                    0
                } else if !at_base(m) {
                    if card_on(m).is_some_and(|card| !card.upgrades.is_empty()) { 1 } else { FAR }
                } else {
                    let route = catalogue.card(map.cells[m].base).is_some_and(|b| b.kind == CardKind::BaseRoute);
                    d[m].saturating_add(i32::from(route))
                };
                best = best.min(via);
            }
            if best < d[c] {
                d[c] = best;
                changed = true;
            }
        }
        if !changed {
            return d;
        }
    }
}
