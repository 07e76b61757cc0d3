//! An admissible upper bound on the final score reachable from a position: the best score of a
//! relaxed game that keeps the counting of dice, cubes and workers and drops adjacency, die
//! numbers and the order of play.
//!
//! **The relaxation.** Choose which empty hexes `S` still get a cube, and which market cards
//! still get tucked. With `D` dice left and `I` cubes held:
//! - every cube placed needs a placement: a die, or a red cube's extra placement (one per red in
//!   `S`, plus a red choice already open); so `die placements >= |S| - red(S)`, and at least one
//!   die places when `S` is not empty and no red choice is open;
//! - every cube placed needs a cube: held, gained by a die, or gained by a white cube (one per
//!   white in `S`, plus a white choice already open); so `die gains >= |S| - I - white(S)`;
//! - the dice left over can at best each gain a worker (a die always can); blue cubes and the
//!   `placed-gains-worker` colour gain one more each, doubled by `worker-bonus`; the dice spend
//!   at least the fewest workers that turn them to their uses ([`DieCosts`]), one step less each
//!   where the free shift is in play or in reach; the workers at the end are at most
//!   `min(top, workers + gains - spent)`. In a line, each gain adds at most its count (the top
//!   only takes away), each spend takes exactly its count, and the free shift takes a step off
//!   one die a turn at most, whichever die the player gives it to: so whatever the order of
//!   gains and spends, the line ends with no more workers (ruling S2);
//! - a card is tucked only by a yellow cube: the new effects number at most the yellows in `S`
//!   plus those placed this turn, taken from the cards still in the market piles.
//!
//! Every real line of play is a choice of this kind that meets these counts (its placed hexes,
//! its tucked cards, its dice spent on placements, gains and workers), and scores no more than
//! the relaxation gives the same choice, so the best choice bounds every line. The choice is
//! solved exactly by enumeration: per colour, the best value of filling `m` of its empty hexes
//! (which territories it completes, the completed colour, green and per-placed points), then
//! every combination of counts per colour, for every admissible set of new effects.

use signalbox_engine::coe::card::TERRITORY_POINTS;
use signalbox_engine::coe::game::{Pending, turn_steps};
use signalbox_engine::coe::{Colour, Effect, Game};

/// The effect parameters the relaxation scores with.
#[derive(Clone, Copy, Debug, Default)]
struct Scoring {
    /// Points per placed cube, per colour.
    per_placed: [u32; 5],
    /// Extra points per filled territory, by size.
    full_bonus: [u32; 5],
    /// 1 point per worker instead of per 2.
    per_worker: bool,
    /// Each worker gain gains one more.
    worker_bonus: bool,
    /// Placing this colour gains a worker.
    gains_worker: [bool; 5],
}

impl Scoring {
    fn add(&mut self, e: Effect) {
        match e {
            Effect::PointsPerPlaced { colour, points } => self.per_placed[colour.index()] += points,
            Effect::PointsPerFullTerritory { size, points } => {
                if let Some(b) = self.full_bonus.get_mut(size) {
                    *b += points;
                }
            }
            Effect::PointsPerWorker => self.per_worker = true,
            Effect::WorkerBonus => self.worker_bonus = true,
            Effect::PlacedGainsWorker { colour } => self.gains_worker[colour.index()] = true,
            Effect::InventorySize { .. } | Effect::FreeShift | Effect::GainOuter => {}
        }
    }

    /// Whether the effect changes what the relaxation scores.
    fn matters(e: Effect) -> bool {
        !matches!(e, Effect::InventorySize { .. } | Effect::FreeShift | Effect::GainOuter)
    }
}

/// An upper bound on the final score reachable from `game`.
pub fn upper_bound(game: &Game<'_>) -> u32 {
    if game.is_over() {
        return game.score().total();
    }
    if !game.is_started() {
        return game
            .legal_moves()
            .into_iter()
            .map(|mv| {
                let mut g = game.clone();
                g.play_unchecked(mv);
                upper_bound(&g)
            })
            .max()
            .unwrap_or(0);
    }
    let board = game.board();
    let placed = game.placed();
    let filled = |i: usize| placed >> i & 1 == 1;
    let empties: [Vec<usize>; 5] = Colour::ALL.map(|c| board.of_colour(c).filter(|&i| !filled(i)).collect());

    // Dice, cubes and open choices.
    let dice = game.dice_ahead().count() as u32;
    let open_red = game.pending_all().iter().filter(|p| **p == Pending::Red).count() as u32;
    let open_white = game.pending_all().iter().filter(|p| **p == Pending::White).count() as u32;
    let workers = u32::from(game.workers());
    let max_workers = u32::from(game.rules().max_workers);

    // Effects in play, and those a yellow could still tuck.
    let mut now = Scoring::default();
    game.effects().for_each(|e| now.add(e));
    let yellows_now = u32::from(game.yellows_this_turn());
    let empty_yellows = empties[Colour::Yellow.index()].len() as u32;
    let tucks = yellows_now + empty_yellows;
    let reach: Vec<Effect> =
        tuckable(game, tucks).into_iter().filter_map(|id| game.catalogue().card(id)).map(|c| c.market.effect).collect();
    let mut candidates: Vec<Effect> = Vec::new();
    for &e in &reach {
        if Scoring::matters(e) && !candidates.contains(&e) {
            candidates.push(e);
        }
    }
    let relaxed = Relaxed::new(game, &empties);
    let counts = Counts {
        dice,
        held: game.inventory().map(u32::from),
        open_red,
        open_white,
        workers,
        max_workers,
        costs: DieCosts::new(game, &empties, &reach),
    };
    // With `y` yellows placed from now, `y + yellows_now` new effects at most: for a given `y`,
    // more effects never score less, so only sets of that size (or all candidates) count.
    let mut best = 0;
    let n_cand = candidates.len() as u32;
    for subset in 0u32..(1 << n_cand) {
        let size = subset.count_ones();
        let mut scoring = now;
        for (j, &e) in candidates.iter().enumerate() {
            if subset >> j & 1 == 1 {
                scoring.add(e);
            }
        }
        // With fewer yellows than the tucks need, the set is out of reach; with more, a larger
        // set would be open too (unless this one holds every candidate).
        if size < yellows_now.min(n_cand) {
            continue;
        }
        let lowest = size.saturating_sub(yellows_now);
        if lowest > empty_yellows {
            continue;
        }
        let highest = if size == n_cand { empty_yellows } else { lowest };
        best = relaxed.best(&counts, &scoring, lowest, highest, best);
    }
    best
}

/// The dice, cubes, choices and workers of a position.
struct Counts {
    dice: u32,
    /// Cubes held, per colour.
    held: [u32; 5],
    open_red: u32,
    open_white: u32,
    workers: u32,
    max_workers: u32,
    costs: DieCosts,
}

/// The fewest workers the dice left spend turning themselves to a use.
///
/// A die that places a cube turns at least to the nearest number of an empty hex; a die that
/// gains a cube of a colour turns at least to the nearest face of a square of that colour on a
/// card that can be in the market on its turn (before the reshuffle: the deck's top card then
/// or a card already in the discard by then; after it, any card in the piles; an outer square
/// counts, at no cost, where `gain-outer` is in play or on a card a tuck can still reach). A
/// free shift in play or in such reach takes one step off every die (a line takes it off one
/// die a turn at most, and only where it chooses to; ruling A8). Different uses take different
/// dice, so the cheapest dice of each use, added, spend no more than any real line.
struct DieCosts {
    /// The prefix sums of the sorted placement costs: `place[q]` for `q` die placements.
    place: Vec<u32>,
    /// Per colour, the sorted costs of gaining a cube of that colour.
    gain: [Vec<u32>; 5],
}

fn steps(from: u8, to: u8) -> u32 {
    u32::from(turn_steps(from, to))
}

impl DieCosts {
    /// The costs of the dice ahead; `reach`: the effects a tuck can still bring into play.
    fn new(game: &Game<'_>, empties: &[Vec<usize>; 5], reach: &[Effect]) -> DieCosts {
        let board = game.board();
        let catalogue = game.catalogue();
        let reachable = |e: Effect| game.effects().any(|x| x == e) || reach.contains(&e);
        let free = u32::from(reachable(Effect::FreeShift));
        let outer = reachable(Effect::GainOuter);
        let numbers: u8 = empties.iter().flatten().fold(0, |m, &i| m | 1 << board.hexes[i].number);
        let deck = game.deck();
        // `cheapest[v][c]`: the fewest steps from a die showing v to a square giving colour c,
        // over the cards that can be in the market by the turn at hand (a growing set).
        let mut cheapest = [[u32::MAX; 5]; 7];
        let mut seen: Vec<u8> = Vec::new();
        let mut add = |id: u8, cheapest: &mut [[u32; 5]; 7]| {
            if seen.contains(&id) {
                return;
            }
            seen.push(id);
            let Some(card) = catalogue.card(id) else { return };
            let m = &card.market;
            for sq in &m.central {
                for v in 1..=6u8 {
                    let d = steps(v, sq.face);
                    for c in Colour::ALL {
                        if sq.colour == c || (outer && m.outer.contains(&c)) {
                            let slot = &mut cheapest[usize::from(v)][c.index()];
                            *slot = (*slot).min(d);
                        }
                    }
                }
            }
        };
        for &id in game.discard() {
            add(id, &mut cheapest);
        }
        let mut place = Vec::new();
        let mut gain: [Vec<u32>; 5] = Default::default();
        let mut added_turn = None;
        for (turn, v) in game.dice_ahead() {
            if added_turn != Some(turn) {
                added_turn = Some(turn);
                if !game.is_reshuffled() && turn >= deck.len() {
                    for id in game.market_cards() {
                        add(id, &mut cheapest);
                    }
                } else if let Some(&top) = deck.len().checked_sub(1 + turn).and_then(|i| deck.get(i)) {
                    add(top, &mut cheapest);
                }
            }
            let to_number = (1..=6u8).filter(|n| numbers >> n & 1 == 1).map(|n| steps(v, n)).min().unwrap_or(u32::MAX);
            place.push(to_number.saturating_sub(free));
            for c in Colour::ALL {
                gain[c.index()].push(cheapest[usize::from(v)][c.index()].saturating_sub(free));
            }
        }
        place.sort_unstable();
        let mut prefix = vec![0u32];
        for d in place {
            prefix.push(prefix.last().copied().unwrap_or(0).saturating_add(d));
        }
        for g in &mut gain {
            g.sort_unstable();
        }
        DieCosts { place: prefix, gain }
    }

    /// The fewest workers for `places` die placements and die gains covering `need` cubes per
    /// colour, `whites` of them instead gained by white cubes (which take the dearest).
    fn spend(&self, places: u32, need: [u32; 5], whites: u32) -> u32 {
        let mut total = self.place.get(places as usize).copied().unwrap_or(u32::MAX);
        let wanted: u32 = need.iter().sum();
        let mut left = wanted.saturating_sub(whites);
        let mut at = [0usize; 5];
        while left > 0 {
            let mut pick: Option<(u32, usize)> = None;
            for c in 0..5 {
                if (at[c] as u32) < need[c] {
                    let cost = self.gain[c].get(at[c]).copied().unwrap_or(u32::MAX);
                    if pick.is_none_or(|(b, _)| cost < b) {
                        pick = Some((cost, c));
                    }
                }
            }
            let Some((cost, c)) = pick else { break };
            total = total.saturating_add(cost);
            at[c] += 1;
            left -= 1;
        }
        total
    }
}

/// The cards that `tucks` more tucks could take. A tuck takes the discard's top card at the end
/// of a turn; earlier tucks only uncover cards below, so with `tucks` tucks in all, each takes
/// one of the top `tucks` cards of the discard as it would be without them. Without them, the
/// discard at the end of the turn `j` turns from now is today's discard plus the deck's top `j`
/// cards; a turn beyond the current deck (the reshuffle still to come) could see any card.
fn tuckable(game: &Game<'_>, tucks: u32) -> Vec<u8> {
    if tucks == 0 {
        return Vec::new();
    }
    let turns = game.turns_left_at_most();
    let deck = game.deck();
    if !game.is_reshuffled() && turns > deck.len() {
        return game.market_cards().collect();
    }
    let mut pile: Vec<u8> = game.discard().to_vec();
    let mut out: Vec<u8> = Vec::new();
    for j in 0..turns {
        if let Some(&moved) = j.checked_sub(1).and_then(|_| deck.len().checked_sub(j)).and_then(|i| deck.get(i)) {
            pile.push(moved);
        }
        // With fewer cards in the discard than tucks, a tuck can take the deck's top card.
        let mut view = pile.clone();
        if let Some(&top) = deck.len().checked_sub(j + 1).and_then(|i| deck.get(i)) {
            view.insert(0, top);
        }
        for &c in view.iter().rev().take(tucks as usize) {
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    out
}

/// How filling a set of a colour's empty hexes scores, independent of effects.
#[derive(Clone, Copy, Default)]
struct Filling {
    /// Hexes filled.
    m: u32,
    /// Territories completed, by size.
    completed: [u32; 5],
    /// Whether the colour becomes complete.
    colour: bool,
}

/// The relaxed game of a position: the points already certain and, per colour, every way of
/// filling its empty hexes.
struct Relaxed {
    /// Filled territories by size, and complete colours, now.
    completed: [u32; 5],
    colours_complete: u32,
    /// Cubes on the board, per colour.
    on_board: [u32; 5],
    /// Per colour, every subset of its empty hexes.
    fillings: [Vec<Filling>; 5],
}

impl Relaxed {
    fn new(game: &Game<'_>, empties: &[Vec<usize>; 5]) -> Relaxed {
        let board = game.board();
        let placed = game.placed();
        let filled = |i: usize| placed >> i & 1 == 1;
        let mut completed = [0; 5];
        for t in &board.territories {
            if t.iter().all(|&i| filled(i)) {
                completed[t.len()] += 1;
            }
        }
        let colours_complete = empties.iter().filter(|e| e.is_empty()).count() as u32;
        let on_board = Colour::ALL.map(|c| board.of_colour(c).filter(|&i| filled(i)).count() as u32);
        let fillings = Colour::ALL.map(|c| {
            let e = &empties[c.index()];
            let open: Vec<&Vec<usize>> = board
                .territories
                .iter()
                .filter(|t| board.hexes[t[0]].colour == c && !t.iter().all(|&i| filled(i)))
                .collect();
            (0u32..(1 << e.len()))
                .map(|mask| {
                    let bits: u32 =
                        e.iter().enumerate().filter(|(j, _)| mask >> j & 1 == 1).map(|(_, &i)| 1 << i).sum();
                    let mut f = Filling {
                        m: mask.count_ones(),
                        colour: mask.count_ones() as usize == e.len(),
                        ..Filling::default()
                    };
                    f.colour &= !e.is_empty();
                    for t in &open {
                        if t.iter().all(|&i| filled(i) || bits >> i & 1 == 1) {
                            f.completed[t.len()] += 1;
                        }
                    }
                    f
                })
                .collect()
        });
        Relaxed { completed, colours_complete, on_board, fillings }
    }

    /// The best relaxed score with these effects, with between `lowest` and `highest` yellows
    /// still placed.
    fn best(&self, k: &Counts, scoring: &Scoring, lowest: u32, highest: u32, floor: u32) -> u32 {
        let territory = |size: usize| TERRITORY_POINTS[size] + scoring.full_bonus[size];
        let per_cube = |c: Colour| scoring.per_placed[c.index()] + u32::from(c == Colour::Green);
        let mut base = self.colours_complete;
        for size in 1..5 {
            base += self.completed[size] * territory(size);
        }
        for c in Colour::ALL {
            base += self.on_board[c.index()] * per_cube(c);
        }
        // The best value of filling m hexes of each colour.
        let tables: [[Option<u32>; 5]; 5] = Colour::ALL.map(|c| {
            let mut table = [None; 5];
            for f in &self.fillings[c.index()] {
                let v = f.m * per_cube(c)
                    + u32::from(f.colour)
                    + (1..5).map(|size| f.completed[size] * territory(size)).sum::<u32>();
                let slot = &mut table[f.m as usize];
                *slot = Some(slot.map_or(v, |old: u32| old.max(v)));
            }
            table
        });
        let len = |c: Colour| self.fillings[c.index()].len().trailing_zeros();
        let mult = 1 + u32::from(scoring.worker_bonus);
        let mut best = floor;
        for y in lowest..=highest.min(len(Colour::Yellow)) {
            let vy = tables[Colour::Yellow.index()][y as usize].unwrap_or(0);
            for r in 0..=len(Colour::Red) {
                let vr = tables[Colour::Red.index()][r as usize].unwrap_or(0);
                for w in 0..=len(Colour::White) {
                    let vw = tables[Colour::White.index()][w as usize].unwrap_or(0);
                    for b in 0..=len(Colour::Blue) {
                        let vb = tables[Colour::Blue.index()][b as usize].unwrap_or(0);
                        for g in 0..=len(Colour::Green) {
                            let counts = [r, b, g, w, y];
                            let n = r + b + g + w + y;
                            let chains = r + k.open_red;
                            let die_places = n.saturating_sub(chains).max(u32::from(n > 0 && k.open_red == 0));
                            let need = [
                                r.saturating_sub(k.held[0]),
                                b.saturating_sub(k.held[1]),
                                g.saturating_sub(k.held[2]),
                                w.saturating_sub(k.held[3]),
                                y.saturating_sub(k.held[4]),
                            ];
                            let whites = w + k.open_white;
                            let gains = need.iter().sum::<u32>().saturating_sub(whites);
                            let used = die_places + gains;
                            if used > k.dice {
                                break; // more greens only need more dice
                            }
                            let mut events = (k.dice - used) + b;
                            for c in Colour::ALL {
                                if scoring.gains_worker[c.index()] {
                                    events += counts[c.index()];
                                }
                            }
                            let vg = tables[Colour::Green.index()][g as usize].unwrap_or(0);
                            let cubes = base + vr + vw + vb + vg + vy;
                            let most_workers = k.max_workers.max(k.workers);
                            if cubes + if scoring.per_worker { most_workers } else { most_workers / 2 } <= best {
                                continue; // even a full workers track would not beat the best
                            }
                            let spent = k.costs.spend(die_places, need, whites);
                            let Some(workers) = (k.workers + events * mult).checked_sub(spent) else {
                                continue;
                            };
                            let workers = workers.min(most_workers);
                            let worker_points = if scoring.per_worker { workers } else { workers / 2 };
                            best = best.max(cubes + worker_points);
                        }
                    }
                }
            }
        }
        best
    }
}
