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
//!   holding of its companies less `p`'s. Station cards come in kinds (their companies), each
//!   kind at most as often as copies of its cards are not in another player's hand. For every
//!   `k` and `t` the hand can pay, the bound takes the best `k` stations within distance `t`,
//!   each base counted once for each kind it lists and each kind at most its copies; plus the
//!   largest rise of pairs with `k` station bases and `min(t, route bases)` route bases, less
//!   the cheapest payment of `k` station upgrades and `t` route upgrades. West bonuses still
//!   possible add a card each, which can also pay.
//! - In the B) before A), each purchase leaves the mover's capital unchanged or costs 1 (the
//!   black engine), and a share taken from `p` lowers `p`'s capital by at most 1 (the black
//!   engine's part of the price is not handed over, whether it is still to pay or has paid part
//!   of the purchase under way). The cards the B) spends are not there to pay in A): for every
//!   split of the hand into `s` cards for shares and the rest for A), the shares bought can
//!   raise the mover's holding of each company by `s` over its price (plus the purchase under
//!   way), no more than the share cards there are to be had (the decks', the mover's hand's,
//!   which a payment puts on a deck, and the other players'), and lower `p`'s by as many less
//!   the company's share cards still in the decks (all of them must be bought before one is
//!   taken from a player, rulebook "Acquire Shares").

use signalbox_engine::express01::card::{CardKind, CardNumber, CompanyId};
use signalbox_engine::express01::game::{Budget, Game, Phase};
use signalbox_engine::express01::map::Beyond;
use signalbox_engine::express01::position::{Placement, WestBonus};

/// Far: a cell no chain of builds can make buildable.
const FAR: i32 = i32::MAX / 4;

/// What the bound of A6 reads of a state: the game (for the content, the players and their
/// holdings, which do not change in A)) and the parts that the search of A) tracks itself.
pub(crate) struct View<'a, 'c> {
    /// The game the view starts from.
    pub g: &'a Game<'c>,
    /// The board now.
    pub board: &'a [Placement],
    /// The mover's cards in hand now.
    pub hand: i32,
    /// Whether the black engine can still pay.
    pub engine: bool,
    /// The budget of the card paid last.
    pub budget: Budget,
    /// The mover's route and station base cards now.
    pub r: i32,
    /// See `r`.
    pub st: i32,
    /// Every player's capital now.
    pub capitals: Vec<i32>,
    /// Base cards upgraded now (0: the game's first build is still to come).
    pub upgraded: usize,
    /// West bonuses still to come.
    pub west: i32,
}

impl<'a, 'c> View<'a, 'c> {
    /// The view of a game as it stands.
    fn of(g: &'a Game<'c>, mover: usize) -> View<'a, 'c> {
        let catalogue = g.catalogue();
        let map = g.map();
        let board = g.board();
        let at_base = |c: usize| board[c].card == map.cells[c].base;
        let pile = |k: CardKind| {
            g.seats()[mover].base_cards.iter().filter(|&&n| catalogue.card(n).is_some_and(|c| c.kind == k)).count()
                as i32
        };
        let west_cells: Vec<usize> = map.west_bonus.iter().filter_map(|&b| map.cell_of(b)).collect();
        let west = i32::from(matches!(g.phase(), Phase::Expand { west: true, .. }))
            + match g.rules().west_bonus {
                WestBonus::Once => i32::from(!west_cells.is_empty() && west_cells.iter().all(|&c| at_base(c))),
                WestBonus::EachCard => west_cells.iter().filter(|&&c| at_base(c)).count() as i32,
            };
        View {
            g,
            board,
            hand: g.seats()[mover].hand.len() as i32,
            engine: g.black_engine() == Some(mover) && !g.engine_used(),
            budget: match g.phase() {
                Phase::Expand { budget, .. } => *budget,
                _ => Budget::Spent,
            },
            r: pile(CardKind::BaseRoute),
            st: pile(CardKind::BaseStation),
            capitals: (0..g.seats().len()).map(|p| g.capital(p).total() as i32).collect(),
            upgraded: g.upgraded(),
            west,
        }
    }
}

/// An upper bound on the evaluation at the end of the turn, for a state in which the mover can
/// still build and no bonus payment can come (A6). `shares_ahead`: the state is in the B) that
/// comes before A).
pub(crate) fn expand_upper(g: &Game<'_>, mover: usize, shares_ahead: bool, preps: &mut PrepCache) -> i32 {
    let view = View::of(g, mover);
    let pending = match g.phase() {
        Phase::Buying { company, .. } | Phase::Taking { company, .. } => g.stations(*company) as i32,
        _ => 0,
    };
    // The black engine's part of a price is not handed over: a share taken from `p` can lower
    // `p`'s capital by 1, when the engine can still pay or has paid part of the purchase under way.
    let engine_part = match g.phase() {
        Phase::Buying { company, left, paid } => g.stations(*company) as i32 - *left as i32 - paid.len() as i32,
        Phase::Taking { company, paid, .. } => g.stations(*company) as i32 - paid.len() as i32,
        _ => 0,
    };
    let engine_take = i32::from((view.engine && shares_ahead) || engine_part > 0);
    bound(&view, preps.get(g, mover), mover, shares_ahead) + pending + engine_take
}

/// The last [`Prep`] computed in a search, with what it was computed from: the other players'
/// hands and the share cards in the decks. Within one turn these change only when a share is
/// bought, so most states reuse it.
#[derive(Default)]
pub(crate) struct PrepCache {
    key: u128,
    prep: Option<Prep>,
}

impl PrepCache {
    /// The [`Prep`] of `g` for `mover`, computed again only when what it reads has changed
    /// (`g` is always a state of the same game: the same content and map).
    pub(crate) fn get(&mut self, g: &Game<'_>, mover: usize) -> &Prep {
        let shares = share_cards(g, g.decks().iter().flat_map(|d| d.cards.iter()));
        let hands: Vec<&[CardNumber]> =
            g.seats().iter().enumerate().filter(|&(p, _)| p != mover).map(|(_, s)| s.hand.as_slice()).collect();
        let key = super::turn::hash128(&(mover, hands, shares));
        if self.key != key {
            self.key = key;
            self.prep = None;
        }
        self.prep.get_or_insert_with(|| Prep::new(g, mover))
    }
}

/// The rise of the mover's own capital (not the margin) that the rest of an A) to come can
/// bring, by the argument of A6 with no opponent: for the last turn of a game, where only the
/// mover's own final capital counts (L6). `shares_ahead`: in the B) before A).
pub(crate) fn own_expand_gain(g: &Game<'_>, mover: usize, shares_ahead: bool) -> i32 {
    let view = View::of(g, mover);
    let own = view.capitals[mover];
    bound_for(&view, &Prep::new(g, mover), mover, shares_ahead, true) - own
}

/// What the bound reads of the station cards, computed once for a state's other players' hands:
/// the kinds of station card (the companies of a card's stations) with the copies of their
/// cards not in another player's hand, and the kinds each station base lists.
pub(crate) struct Prep {
    kinds: Vec<(Vec<CompanyId>, i32)>,
    takes: Vec<Vec<usize>>,
    /// Every company a kind of station card lists.
    companies: Vec<CompanyId>,
    /// The share cards of each company in the decks (by company number).
    in_decks: Vec<i32>,
}

impl Prep {
    /// The station kinds of `g` for `mover`.
    pub(crate) fn new(g: &Game<'_>, mover: usize) -> Prep {
        let catalogue = g.catalogue();
        let map = g.map();
        let seats = g.seats();
        let copies_left = |n| -> i32 {
            let Some(card) = catalogue.card(n) else { return 0 };
            let held: usize = seats
                .iter()
                .enumerate()
                .filter(|&(p, _)| p != mover)
                .map(|(_, s)| s.hand.iter().filter(|&&h| h == n).count())
                .sum();
            (i32::from(card.copies) - held as i32).max(0)
        };
        let mut kinds: Vec<(Vec<CompanyId>, i32)> = Vec::new();
        let mut counted: Vec<CardNumber> = Vec::new();
        let mut takes = vec![Vec::new(); map.cells.len()];
        for (c, cell) in map.cells.iter().enumerate() {
            let Some(base) = catalogue.card(cell.base) else { continue };
            if base.kind != CardKind::BaseStation {
                continue;
            }
            for &n in &base.upgrades {
                let Some(card) = catalogue.card(n) else { continue };
                let left = copies_left(n);
                if left == 0 {
                    continue;
                }
                let mut companies: Vec<CompanyId> = card.stations.iter().filter_map(|s| s.company).collect();
                companies.sort_unstable();
                let q = match kinds.iter().position(|(k, _)| *k == companies) {
                    Some(q) => q,
                    None => {
                        kinds.push((companies, 0));
                        kinds.len() - 1
                    }
                };
                if !counted.contains(&n) {
                    counted.push(n);
                    kinds[q].1 += left;
                }
                if !takes[c].contains(&q) {
                    takes[c].push(q);
                }
            }
        }
        let companies = {
            let mut out: Vec<CompanyId> = kinds.iter().flat_map(|(k, _)| k.iter().copied()).collect();
            out.sort_unstable();
            out.dedup();
            out
        };
        let in_decks = share_cards(g, g.decks().iter().flat_map(|d| d.cards.iter()));
        Prep { kinds, takes, companies, in_decks }
    }
}

/// The bound of A6 on a view (see the module's comment).
pub(crate) fn bound(v: &View<'_, '_>, prep: &Prep, mover: usize, shares_ahead: bool) -> i32 {
    bound_for(v, prep, mover, shares_ahead, false)
}

/// The bound of A6, on the margin over each opponent, or (`own_only`) on the mover's capital.
fn bound_for(v: &View<'_, '_>, prep: &Prep, mover: usize, shares_ahead: bool, own_only: bool) -> i32 {
    let g = v.g;
    let catalogue = g.catalogue();
    let map = g.map();
    let board = v.board;
    let seats = g.seats();
    // Cards that can pay: the hand, and the cards West bonuses still to come may add.
    let hand = v.hand + v.west;
    let engine = v.engine;
    let own = v.capitals[mover];

    let distance = distances(g, board, v.upgraded);
    let at_base = |c: usize| board[c].card == map.cells[c].base;
    let kind_of = |c: usize| catalogue.card(map.cells[c].base).map(|b| b.kind);
    let route_bases =
        (0..board.len()).filter(|&c| at_base(c) && kind_of(c) == Some(CardKind::BaseRoute)).count() as i32;
    let (r, st) = (v.r, v.st);

    let (free, free_route_only) = match v.budget {
        Budget::Fresh => (true, false),
        Budget::OneRoute(_) => (true, true),
        Budget::Spent => (false, false),
    };
    let units = hand + i32::from(engine);
    let west = v.west;
    // In the B) before A): the purchase under way (paid, or being paid) and the share cards of
    // each company in the decks, which must all be bought before one is taken from a player.
    let pending = match g.phase() {
        Phase::Buying { company, .. } | Phase::Taking { company, .. } if shares_ahead => Some(*company),
        _ => None,
    };
    let companies = &prep.companies;
    let in_decks = |company: CompanyId| prep.in_decks.get(usize::from(company.0)).copied().unwrap_or(0);
    // Shares of `company` that `s` cards spent in the B) before A) can buy (each costs the
    // company's stations, at least 1), with the purchase under way.
    // No more than there are share cards to take: those in the decks, those in the mover's
    // hand (paid, a card goes on its deck, from where it can be taken) and the other players'.
    let supply = |company: CompanyId| -> i32 { in_decks(company) + share_supply_beyond_decks(g, mover, company) };
    let bought = |company: CompanyId, s: i32| -> i32 {
        let price = g.stations(company) as i32;
        let under_way = i32::from(pending == Some(company));
        let more = if shares_ahead && price > 0 { (s / price).min((supply(company) - under_way).max(0)) } else { 0 };
        more + under_way
    };
    // Of those, the most that can be taken from a player: only once the decks hold none.
    let taken = |company: CompanyId, s: i32| -> i32 {
        let price = g.stations(company) as i32;
        let more = if shares_ahead && price > 0 { s / price } else { 0 };
        (more - in_decks(company)).max(0) + i32::from(pending == Some(company))
    };
    let kinds = &prep.kinds;
    // For every distance `t` a plan's route builds can reach: the station bases within it, and
    // for each kind how many of them list it, at most the kind's capacity (the entries of the
    // bound below: the best `k` entries bound any `k` of a plan's stations, each base counted
    // for every kind it lists, which only raises the bound).
    let reach = (2 * units + 3).max(1) as usize;
    let nk = kinds.len();
    let mut cells_at = vec![0i32; reach];
    let mut n_at = vec![0i32; reach * nk];
    for (c, (&d, takes)) in distance.iter().zip(&prep.takes).enumerate() {
        if !at_base(c) || d >= FAR || takes.is_empty() {
            continue;
        }
        let d = d as usize;
        if d < reach {
            cells_at[d] += 1;
            for &q in takes {
                n_at[d * nk + q] += 1;
            }
        }
    }
    let farthest = (0..reach).rev().find(|&t| cells_at[t] > 0).unwrap_or(0) as i32;
    let useful_t = farthest.max(route_bases);
    for t in 1..reach {
        cells_at[t] += cells_at[t - 1];
        for q in 0..nk {
            n_at[t * nk + q] += n_at[(t - 1) * nk + q];
        }
    }
    for t in 0..reach {
        for (q, (_, cap)) in kinds.iter().enumerate() {
            n_at[t * nk + q] = n_at[t * nk + q].min(*cap).max(0);
        }
    }

    let opponents: Vec<usize> = (0..seats.len()).filter(|&p| p != mover).collect();
    let margins: Vec<(i32, Option<usize>)> = if opponents.is_empty() || own_only {
        vec![(own, None)]
    } else {
        opponents.iter().map(|&p| (own - v.capitals[p], Some(p))).collect()
    };
    // Cards the B) before A) can spend on shares; the rest is what A) can pay (a purchase leaves
    // capital unchanged, so only the cards it takes from A) and the shares it adds count).
    let spends = if shares_ahead { units } else { 0 };
    let mut best_bound = i32::MAX;
    for (margin, p) in margins {
        let mut best = 0;
        for s in 0..=spends {
            // Spending a card more on shares buys nothing more unless it completes a price:
            // then only A) has a card less, which cannot raise the bound.
            if s > 0 && !companies.iter().any(|&c| g.stations(c) > 0 && s % g.stations(c) as i32 == 0) {
                continue;
            }
            let gain = |company: CompanyId| -> i32 {
                let mine = g.holding(mover, company) as i32 + bought(company, s);
                let theirs = p.map_or(0, |p| (g.holding(p, company) as i32 - taken(company, s)).max(0));
                mine - theirs
            };
            let worth: Vec<i32> = kinds.iter().map(|(k, _)| k.iter().map(|&c| gain(c)).sum()).collect();
            let mut order: Vec<usize> = (0..nk).collect();
            order.sort_by_key(|&q| std::cmp::Reverse(worth[q]));
            let units = units - s;
            let hand = hand - s.min(hand);
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
            // Past the farthest station and every route base, more route builds only cost more.
            let max_t = (2 * units + 2).min(useful_t);
            for t in 0..=max_t {
                let at = (t as usize).min(reach - 1);
                let cells = cells_at[at];
                let a = t.min(route_bases);
                // The best `k` entries, for every `k` the hand can pay.
                let mut value = |k: i32, sum: i32| -> bool {
                    let Some(paid) = cost(k, t) else { return false };
                    let pairs = (r + a).min(st + k) - r.min(st);
                    best = best.max(sum + pairs - paid);
                    true
                };
                if !value(0, 0) {
                    continue;
                }
                let (mut k, mut sum) = (0, 0);
                'entries: for &q in &order {
                    for _ in 0..n_at[at * nk + q] {
                        if k == cells {
                            break 'entries;
                        }
                        // Each station more costs at least a card and adds at most one pair, so
                        // entries worth nothing more (they come best first) cannot raise it.
                        if k >= 1 && worth[q] <= 0 {
                            break 'entries;
                        }
                        k += 1;
                        sum += worth[q];
                        if !value(k, sum) {
                            break 'entries;
                        }
                    }
                }
            }
        }
        let bound = margin + best + west;
        best_bound = best_bound.min(bound);
    }
    best_bound
}

/// The shares of `company` the mover can still acquire in a B), beyond the share cards in the
/// decks: the share cards in the mover's hand (paid for a share, a card goes on its deck, from
/// where it can be taken) and the other players' shares (rulebook, "Acquire Shares").
pub(crate) fn share_supply_beyond_decks(g: &Game<'_>, mover: usize, company: CompanyId) -> i32 {
    let hand = share_cards(g, &g.seats()[mover].hand).get(usize::from(company.0)).copied().unwrap_or(0);
    let others: i32 = (0..g.seats().len()).filter(|&q| q != mover).map(|q| g.holding(q, company) as i32).sum();
    hand + others
}

/// How many of `cards` are shares of each company (by company number): route cards showing its
/// engine (rulebook, "Acquire Shares").
fn share_cards<'a>(g: &Game<'_>, cards: impl IntoIterator<Item = &'a CardNumber>) -> Vec<i32> {
    let catalogue = g.catalogue();
    let mut counts = vec![0; catalogue.companies.len()];
    for share in cards.into_iter().filter_map(|&n| catalogue.card(n).and_then(|c| c.share)) {
        if let Some(count) = counts.get_mut(usize::from(share.company.0)) {
            *count += 1;
        }
    }
    counts
}

/// For each cell still at its base card, the fewest route builds before it can be built (A6):
/// 0 when a neighbour has a track ending at their shared side; otherwise through a neighbour
/// already built that can still be upgraded (1), or a neighbour at its base, which needs its own
/// distance plus its build when it is a route base (a station base on the way is free). On the
/// game's first build every cell is at distance 0 (the first station needs no track).
fn distances(g: &Game<'_>, board: &[Placement], upgraded: usize) -> Vec<i32> {
    let catalogue = g.catalogue();
    let map = g.map();
    let n = board.len();
    if upgraded == 0 {
        return vec![0; n];
    }
    // Each cell: the sides its card has a track ending at (one bit a side), whether it is still
    // at its base card, whether that base is a route base, and whether its card can be upgraded.
    let mut tracks = vec![0u8; n];
    let mut base = vec![false; n];
    let mut route_base = vec![false; n];
    let mut upgradable = vec![false; n];
    for c in 0..n {
        let Some(card) = catalogue.card(board[c].card) else { continue };
        for t in &card.tracks {
            let (a, b) = t.oriented(board[c].turned).ends();
            for side in [a, b].into_iter().filter_map(|e| e.side()) {
                tracks[c] |= 1 << side.index();
            }
        }
        base[c] = board[c].card == map.cells[c].base;
        route_base[c] = card.kind == CardKind::BaseRoute;
        upgradable[c] = !card.upgrades.is_empty();
    }
    // A shortest path whose steps weigh 0 or 1: each base cell starts at what a neighbour not
    // at its base offers, and a base neighbour `m` offers its own distance plus its build when
    // it is a route base (a breadth-first search with a double-ended queue).
    let mut d = vec![FAR; n];
    let mut into: Vec<[usize; 6]> = vec![[usize::MAX; 6]; n];
    let mut queue = std::collections::VecDeque::with_capacity(2 * n);
    for c in (0..n).filter(|&c| base[c]) {
        for side in signalbox_engine::express01::side::Side::ALL {
            let Beyond::Cell(m) = map.cells[c].beyond[side.index()] else { continue };
            let via = if tracks[m] & (1 << side.facing().index()) != 0 {
                0
            } else if !base[m] {
                if upgradable[m] { 1 } else { FAR }
            } else {
                into[m][side.index()] = c;
                FAR
            };
            d[c] = d[c].min(via);
        }
    }
    for c in (0..n).filter(|&c| d[c] == 0) {
        queue.push_back(c);
    }
    for c in (0..n).filter(|&c| d[c] == 1) {
        queue.push_back(c);
    }
    while let Some(m) = queue.pop_front() {
        let w = i32::from(route_base[m]);
        for &c in into[m].iter().filter(|&&c| c != usize::MAX) {
            if d[m] + w < d[c] {
                d[c] = d[m] + w;
                if w == 0 {
                    queue.push_front(c);
                } else {
                    queue.push_back(c);
                }
            }
        }
    }
    d
}

#[cfg(test)]
mod tests {
    //! The bound of the B) before A) against the naive search, where it narrows most: every
    //! share card of a company already issued (a share can then only be taken from a player) and
    //! hands of two cards.

    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use signalbox_engine::express01::card::{CardNumber, CompanyId};
    use signalbox_engine::express01::catalogue::Catalogue;
    use signalbox_engine::express01::game::{Pair, Phase, Step};
    use signalbox_engine::express01::position::PositionSetup;
    use signalbox_engine::express01::round::Length;

    use super::{expand_upper, share_supply_beyond_decks};
    use crate::express01::game_positions::{Cut, cut, game_of, turn_starts};
    use crate::express01::selfplay::{BestRoute, Policy};
    use crate::express01::turn::{fingerprint, naive_best};

    /// `setup` with every share card of `company` left in the decks handed to the players after
    /// `mover`, in turn, or (`to_mover`) all to the mover: then no share of it can be bought.
    fn issue_all(
        catalogue: &Catalogue,
        mut setup: PositionSetup,
        mover: usize,
        company: CompanyId,
        to_mover: bool,
    ) -> PositionSetup {
        let is_share =
            |n: u16| catalogue.card(CardNumber(n)).and_then(|c| c.share).is_some_and(|s| s.company == company);
        let mut moved = Vec::new();
        for cards in setup.decks.iter_mut().flat_map(|d| d.values_mut()) {
            moved.extend(cards.iter().copied().filter(|&n| is_share(n)));
            cards.retain(|&n| !is_share(n));
        }
        let players = setup.players.len();
        for (i, n) in moved.into_iter().enumerate() {
            let p = &mut setup.players[if to_mover { mover } else { (mover + 1 + i % (players - 1)) % players }];
            p.shares.push(n);
            p.shares.sort_unstable();
            p.share_counts = None;
        }
        setup
    }

    #[test]
    fn the_bound_before_building_holds_where_a_company_has_no_share_left_in_the_decks() {
        let catalogue = Catalogue::house();
        let mut rng = ChaCha8Rng::seed_from_u64(35);
        let (mut checked, mut taking, mut positions, mut scarce) = (0, 0, 0, 0);
        // The share cards handed to the other players (they can be taken from them), or to the
        // mover (then at most the others' earlier shares can be had: the bound's supply).
        for (seed, to_mover) in (1..=8u64).flat_map(|seed| [(seed, false), (seed, true)]) {
            let map = if seed.is_multiple_of(2) { "usa" } else { "germany" };
            for (i, setup) in
                turn_starts(&catalogue, map, seed, 3, Length::Short, Policy::Greedy).into_iter().enumerate()
            {
                if i % 4 != (seed % 4) as usize || i < 4 {
                    continue;
                }
                let Some(full) = game_of(&catalogue, setup.clone()) else { continue };
                let mover = full.mover();
                // The company of the mover's with the most stations: its shares are worth buying.
                let Some(company) = (0..catalogue.companies.len() as u8)
                    .map(CompanyId)
                    .filter(|&c| full.stations(c) > 0 && full.holding(mover, c) > 0)
                    .max_by_key(|&c| full.stations(c))
                else {
                    continue;
                };
                // The black engine kept in half of them, with one card in hand (it pays as one).
                let engine = seed.is_multiple_of(2) == i.is_multiple_of(2);
                let shape = Cut { hand: if engine { 1 } else { 2 }, engine, mover_shares: true, shares: None };
                let setup = issue_all(&catalogue, cut(&catalogue, setup, mover, shape), mover, company, to_mover);
                let Some(game) = game_of(&catalogue, setup) else { continue };
                let mut g = game.clone();
                if !g.legal(&BestRoute).contains(&Step::Pair(Pair::SharesExpand)) {
                    continue;
                }
                positions += 1;
                g.play_unchecked(Step::Pair(Pair::SharesExpand));
                // A random walk through the B): the bound holds at every state of it.
                while matches!(g.phase(), Phase::Shares | Phase::Buying { .. } | Phase::Taking { .. }) {
                    let exact = naive_best(&g, &BestRoute).expect("a turn ends");
                    let bound = expand_upper(&g, mover, true, &mut super::PrepCache::default());
                    assert!(
                        bound >= exact,
                        "seed {seed} turn start {i}: bound {bound} under {exact} at {:?}",
                        g.phase()
                    );
                    checked += 1;
                    if matches!(g.phase(), Phase::Taking { from_decks: false, .. }) {
                        taking += 1;
                    }
                    let others: u32 = (0..g.seats().len()).filter(|&p| p != mover).map(|p| g.holding(p, company)).sum();
                    if to_mover && others <= 1 {
                        scarce += 1;
                    }
                    let steps = g.legal(&BestRoute);
                    // Buy the emptied company where it can, to reach the takes from players.
                    let step = steps
                        .iter()
                        .copied()
                        .find(|s| *s == Step::Buy(company) && rng.random_bool(0.8))
                        .unwrap_or_else(|| steps[rng.random_range(0..steps.len())]);
                    g.play_unchecked(step);
                }
            }
        }
        assert!(
            positions >= 24 && checked >= 80 && taking >= 5 && scarce >= 10,
            "{positions} positions, {checked} states, {taking} takes from a player, {scarce} with at most one share \
             to be had"
        );
    }

    /// The most shares of `company` the mover holds at the end of any B) from `g`, by a plain
    /// search over every step of it.
    fn most_held(g: &signalbox_engine::express01::game::Game<'_>, mover: usize, company: CompanyId) -> u32 {
        let mut best = g.holding(mover, company);
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![g.clone()];
        while let Some(h) = stack.pop() {
            for step in h.legal(&BestRoute) {
                let mut k = h.clone();
                k.play_unchecked(step);
                best = best.max(k.holding(mover, company));
                if matches!(k.phase(), Phase::Shares | Phase::Buying { .. } | Phase::Taking { .. })
                    && seen.insert(fingerprint(&k))
                {
                    stack.push(k);
                }
            }
        }
        best
    }

    #[test]
    fn no_purchase_gets_more_shares_than_the_bound_supposes_and_some_get_them_all() {
        let catalogue = Catalogue::house();
        let (mut positions, mut all) = (0, 0);
        for (seed, to_mover) in (1..=6u64).flat_map(|seed| [(seed, false), (seed, true)]) {
            let map = if seed.is_multiple_of(2) { "usa" } else { "germany" };
            for (i, setup) in
                turn_starts(&catalogue, map, seed, 3, Length::Short, Policy::Greedy).into_iter().enumerate()
            {
                if i % 5 != (seed % 5) as usize || i < 4 {
                    continue;
                }
                let Some(full) = game_of(&catalogue, setup.clone()) else { continue };
                let mover = full.mover();
                // The cheapest company with a station: the hand buys the most of it.
                let Some(company) = (0..catalogue.companies.len() as u8)
                    .map(CompanyId)
                    .filter(|&c| full.stations(c) > 0)
                    .min_by_key(|&c| full.stations(c))
                else {
                    continue;
                };
                let shape = Cut { hand: 4, engine: false, mover_shares: true, shares: None };
                let setup = issue_all(&catalogue, cut(&catalogue, setup, mover, shape), mover, company, to_mover);
                let Some(mut g) = game_of(&catalogue, setup) else { continue };
                if !g.legal(&BestRoute).contains(&Step::Pair(Pair::SharesExpand)) {
                    continue;
                }
                g.play_unchecked(Step::Pair(Pair::SharesExpand));
                positions += 1;
                let decks = g
                    .decks()
                    .iter()
                    .flat_map(|d| d.cards.iter())
                    .filter(|&&n| catalogue.card(n).and_then(|c| c.share).is_some_and(|s| s.company == company))
                    .count() as i32;
                let supply = decks + share_supply_beyond_decks(&g, mover, company);
                let got = (most_held(&g, mover, company) - g.holding(mover, company)) as i32;
                assert!(got <= supply, "seed {seed} turn start {i}: {got} shares bought, supply {supply}");
                all += i32::from(got == supply);
            }
        }
        assert!(positions >= 12 && all >= 4, "{positions} positions, {all} where every share to be had was bought");
    }
}
