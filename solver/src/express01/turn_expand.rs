//! The rest of an A) ("Expand the network") in the best-turn search, with each card paid named
//! only when it matters (ruling A8 of `docs/rules/express-01.md`).
//!
//! A card paid in A) goes on top of its deck, from where any card can be picked again for a
//! build (rulebook, "General Rules": "You can indeed build tracks with cards that have just been
//! discarded"). Where no draw from a deck's top can follow in the turn (A5), which card was paid
//! matters only when that card is later built: otherwise only the number of cards paid counts
//! (capital counts cards in hand). So this search pays "a card of the hand" and names it when a
//! later build takes a card that is still in the hand: that build's card is the one an earlier
//! payment (not yet named) put on its deck. Payments never named are named at the end from what
//! is left in the hand. Every line found this way is a legal line of the game (the names can be
//! filled in as said), and every legal line is found (name each payment as the game did), so
//! the best value is the same; the line is then played out in the game with every rule checked.
//!
//! Two moves are left out because a move always does as well (A9): paying a card while the card
//! paid before bought nothing (pay later, when the next build needs it: the builds then have at
//! least the budgets they had) and ending the action with a card paid for nothing (it costs a
//! card and changes no capital).

use std::collections::HashSet;
use std::hash::Hash;

use signalbox_engine::express01::card::{CardKind, CardNumber};
use signalbox_engine::express01::expand::{Upgrade, check_upgrade};
use signalbox_engine::express01::game::{Budget, Build, Game, Phase, Referee, Spend, Step};
use signalbox_engine::express01::position::Placement;

use super::turn::hash128;
use super::turn_bound::{Prep, View, bound};

/// What the search of A) reports to and asks of the turn search around it.
pub(crate) trait Sink {
    /// The value a line must beat to count, if any.
    fn threshold(&self) -> Option<i32>;
    /// Counts a state; true when the search must stop (the deadline passed).
    fn tick(&mut self) -> bool;
    /// A line of A) ending with its `done`, played out in the game (`steps`, and the game
    /// before and after the last step), worth `value` at the end of the action.
    fn finish(&mut self, steps: Vec<Step>, before: &Game<'_>, after: Game<'_>, value: i32);
    /// A line found that the game refused when played out (a defect; the tests count them).
    fn refused(&mut self);
}

/// One move of the search of A).
#[derive(Clone, Copy, Debug)]
enum Move {
    /// A card of the hand paid, named later.
    Pay,
    /// The black engine paid.
    PayEngine,
    /// An upgrade; `from_hand` when its card is one an earlier payment put on its deck.
    Build { cell: usize, card: CardNumber, turned: bool, from_hand: bool },
}

/// The state of A) as this search keeps it.
#[derive(Clone, PartialEq, Eq, Hash)]
struct State {
    board: Vec<Placement>,
    /// Copies of each card in the decks (by the card's place in `Ctx::numbers`).
    deck: Vec<u8>,
    /// Copies of each card in the hand, not yet named for a payment.
    hand: Vec<u8>,
    /// Cards in `hand`.
    hand_len: i32,
    /// Payments made and not yet named.
    owed: i32,
    budget: Budget,
    engine: bool,
    /// Cards paid (named or not) and whether the black engine paid.
    paid: i32,
    engine_paid: bool,
    /// Base cards taken: route, station.
    routes: i32,
    stations: i32,
    /// Change of each company's stations.
    adds: Vec<i32>,
    upgraded: usize,
}

struct Ctx<'a, 'c> {
    g: &'a Game<'c>,
    mover: usize,
    /// Capitals, holdings and base piles at the entry.
    capitals: Vec<i32>,
    holdings: Vec<Vec<i32>>,
    r: i32,
    st: i32,
    prep: Prep,
    /// The content's card numbers in order, and each card number's place among them.
    numbers: Vec<CardNumber>,
    index: Vec<usize>,
    seen: HashSet<u128>,
    line: Vec<Move>,
    stop: bool,
}

/// Searches the rest of the A) that `g` is in (phase `Expand`, no West bonus pending, A5 holds)
/// and reports every line that can beat the sink's threshold.
pub(crate) fn search(g: &Game<'_>, sink: &mut dyn Sink) {
    let mover = g.mover();
    let catalogue = g.catalogue();
    // Counts of cards are kept by each card's place in number order (card numbers run to 665
    // with gaps; there are a few hundred cards).
    let size = catalogue.cards().map(|c| usize::from(c.number.0) + 1).max().unwrap_or(0);
    let mut numbers: Vec<CardNumber> = catalogue.cards().map(|c| c.number).collect();
    numbers.sort_unstable();
    numbers.dedup();
    let mut index = vec![usize::MAX; size];
    for (i, n) in numbers.iter().enumerate() {
        index[usize::from(n.0)] = i;
    }
    let mut deck = vec![0u8; numbers.len()];
    for d in g.decks() {
        for &n in &d.cards {
            deck[index[usize::from(n.0)]] += 1;
        }
    }
    let mut hand = vec![0u8; numbers.len()];
    for &n in &g.seats()[mover].hand {
        hand[index[usize::from(n.0)]] += 1;
    }
    let companies = catalogue.companies.len();
    let pile = |k: CardKind| {
        g.seats()[mover].base_cards.iter().filter(|&&n| catalogue.card(n).is_some_and(|c| c.kind == k)).count() as i32
    };
    let Phase::Expand { budget, .. } = *g.phase() else { return };
    let state = State {
        board: g.board().to_vec(),
        deck,
        hand,
        hand_len: g.seats()[mover].hand.len() as i32,
        owed: 0,
        budget,
        engine: g.black_engine() == Some(mover) && !g.engine_used(),
        paid: 0,
        engine_paid: false,
        routes: 0,
        stations: 0,
        adds: vec![0; companies],
        upgraded: g.upgraded(),
    };
    let mut cx = Ctx {
        g,
        mover,
        capitals: (0..g.seats().len()).map(|p| g.capital(p).total() as i32).collect(),
        holdings: (0..g.seats().len())
            .map(|p| {
                (0..companies)
                    .map(|c| g.holding(p, signalbox_engine::express01::card::CompanyId(c as u8)) as i32)
                    .collect()
            })
            .collect(),
        r: pile(CardKind::BaseRoute),
        st: pile(CardKind::BaseStation),
        prep: Prep::new(g, mover),
        numbers,
        index,
        seen: HashSet::new(),
        line: Vec::new(),
        stop: false,
    };
    cx.visit(&state, sink);
}

impl Ctx<'_, '_> {
    fn capitals_of(&self, s: &State) -> Vec<i32> {
        let pairs = (self.r + s.routes).min(self.st + s.stations) - self.r.min(self.st);
        (0..self.capitals.len())
            .map(|p| {
                let stations: i32 = self.holdings[p].iter().zip(&s.adds).map(|(h, a)| h * a).sum();
                let mut c = self.capitals[p] + stations;
                if p == self.mover {
                    c += pairs - s.paid - 2 * i32::from(s.engine_paid);
                }
                c
            })
            .collect()
    }

    fn value_of(&self, s: &State) -> i32 {
        let caps = self.capitals_of(s);
        let best_other = (0..caps.len()).filter(|&p| p != self.mover).map(|p| caps[p]).max();
        caps[self.mover] - best_other.unwrap_or(0)
    }

    fn upper(&self, s: &State) -> i32 {
        let view = View {
            g: self.g,
            board: &s.board,
            hand: s.hand_len - s.owed,
            engine: s.engine,
            budget: s.budget,
            r: self.r + s.routes,
            st: self.st + s.stations,
            capitals: self.capitals_of(s),
            upgraded: s.upgraded,
            west: 0,
        };
        bound(&view, &self.prep, self.mover, false)
    }

    fn visit(&mut self, s: &State, sink: &mut dyn Sink) {
        if self.stop || sink.tick() {
            self.stop = true;
            return;
        }
        if let Some(t) = sink.threshold()
            && self.upper(s) <= t
        {
            return;
        }
        // Ending the action (not with a card paid for nothing, A9).
        // The game's first turn must build (its station) before the action ends.
        if s.upgraded > 0 && (s.budget != Budget::Fresh || s.paid + i32::from(s.engine_paid) == 0) {
            let value = self.value_of(s);
            if sink.threshold().is_none_or(|t| value > t) {
                self.report(s, value, sink);
            }
        }
        for (next, mv) in self.moves(s) {
            if self.stop {
                return;
            }
            if self.seen.insert(hash128(&next)) {
                self.line.push(mv);
                self.visit(&next, sink);
                self.line.pop();
            }
        }
    }

    /// Every move from `s`, stations over base cards first.
    fn moves(&self, s: &State) -> Vec<(State, Move)> {
        let g = self.g;
        let catalogue = g.catalogue();
        let map = g.map();
        let mut out: Vec<(i32, State, Move)> = Vec::new();
        if s.budget != Budget::Spent {
            for cell in 0..s.board.len() {
                let Some(on) = catalogue.card(s.board[cell].card) else { continue };
                for &n in &on.upgrades {
                    let Some(card) = catalogue.card(n) else { continue };
                    if let Budget::OneRoute(first) = s.budget
                        && (card.kind != CardKind::Route
                            || (g.rules().same_cell_twice
                                == signalbox_engine::express01::position::SameCellTwice::Forbidden
                                && first == cell))
                    {
                        continue;
                    }
                    let i = self.index[usize::from(n.0)];
                    let sources: &[bool] = match (s.deck[i] > 0, s.hand[i] > 0 && s.owed > 0) {
                        (true, true) => &[false, true],
                        (true, false) => &[false],
                        (false, true) => &[true],
                        (false, false) => continue,
                    };
                    for turned in [false, true] {
                        let u = Upgrade { cell, card: n, turned };
                        if check_upgrade(catalogue, map, &s.board, u, s.upgraded == 0).is_err() {
                            continue;
                        }
                        for &from_hand in sources {
                            let mut t = s.clone();
                            if from_hand {
                                t.hand[i] -= 1;
                                t.hand_len -= 1;
                                t.owed -= 1;
                            } else {
                                t.deck[i] -= 1;
                            }
                            let old = s.board[cell];
                            let old_card = catalogue.card(old.card).expect("a card on the board");
                            for st in &old_card.stations {
                                if let Some(c) = st.company {
                                    t.adds[usize::from(c.0)] -= 1;
                                }
                            }
                            for st in &card.stations {
                                if let Some(c) = st.company {
                                    t.adds[usize::from(c.0)] += 1;
                                }
                            }
                            let order = if old_card.kind.is_base() {
                                t.upgraded += 1;
                                match old_card.kind {
                                    CardKind::BaseRoute => t.routes += 1,
                                    _ => t.stations += 1,
                                }
                                if card.kind == CardKind::Route { 1 } else { 0 }
                            } else {
                                t.deck[self.index[usize::from(old.card.0)]] += 1;
                                2
                            };
                            t.board[cell] = Placement { card: n, turned };
                            t.budget = match (s.budget, card.kind) {
                                (Budget::Fresh, CardKind::Route) => Budget::OneRoute(cell),
                                _ => Budget::Spent,
                            };
                            out.push((order, t, Move::Build { cell, card: n, turned, from_hand }));
                        }
                    }
                }
            }
        }
        // A payment, only when the last one bought something (A9).
        if s.budget != Budget::Fresh {
            if s.hand_len - s.owed >= 1 {
                let mut t = s.clone();
                t.owed += 1;
                t.paid += 1;
                t.budget = Budget::Fresh;
                out.push((3, t, Move::Pay));
            }
            if s.engine {
                let mut t = s.clone();
                t.engine = false;
                t.engine_paid = true;
                t.budget = Budget::Fresh;
                out.push((4, t, Move::PayEngine));
            }
        }
        out.sort_by_key(|(order, _, _)| *order);
        out.into_iter().map(|(_, t, m)| (t, m)).collect()
    }

    /// Names the payments of the current line, plays it out in the game and reports it.
    fn report(&mut self, s: &State, value: i32, sink: &mut dyn Sink) {
        let mut named: Vec<Option<CardNumber>> = Vec::new();
        let mut open: Vec<usize> = Vec::new();
        for mv in &self.line {
            match *mv {
                Move::Pay => {
                    open.push(named.len());
                    named.push(None);
                }
                Move::Build { card, from_hand: true, .. } => {
                    let Some(at) = open.pop() else {
                        sink.refused();
                        return;
                    };
                    named[at] = Some(card);
                }
                _ => {}
            }
        }
        // The payments never named: cards left in the hand.
        let mut rest = s.hand.iter().enumerate().flat_map(|(n, &k)| std::iter::repeat_n(n, usize::from(k)));
        for at in open {
            let Some(n) = rest.next() else {
                sink.refused();
                return;
            };
            named[at] = Some(self.numbers[n]);
        }
        let mut game = self.g.clone();
        let mut steps = Vec::new();
        let mut pays = named.into_iter();
        let referee = NoReferee;
        for mv in &self.line {
            let step = match *mv {
                Move::Pay => Step::Pay(Spend::Card(pays.next().flatten().expect("named"))),
                Move::PayEngine => Step::Pay(Spend::Engine),
                Move::Build { cell, card, turned, .. } => {
                    let depth = game
                        .decks()
                        .iter()
                        .find_map(|d| (0..d.cards.len()).find(|&k| d.at(k) == Some(card)))
                        .unwrap_or(usize::MAX);
                    Step::Build(Build { cell, card, turned, depth })
                }
            };
            if game.play(step, &referee).is_err() {
                sink.refused();
                return;
            }
            steps.push(step);
        }
        let before = game.clone();
        if game.play(Step::Done, &referee).is_err() {
            sink.refused();
            return;
        }
        steps.push(Step::Done);
        sink.finish(steps, &before, game, value);
    }
}

/// A) never asks for a payout; a referee that has none.
struct NoReferee;

impl Referee for NoReferee {
    fn best_payout(
        &self,
        _network: &signalbox_engine::express01::network::Network,
        _task: signalbox_engine::express01::route::RouteTask,
    ) -> Option<u32> {
        None
    }
}
