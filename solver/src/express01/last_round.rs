//! The exact last round of Express 01 ("End of the Game": "finish the current round in full ...
//! Afterward, determine the winner"): once an end condition is met, or when the mover can meet it
//! this turn, the rest of the round is searched to the end of the game with every hand and deck
//! known. Rulings L1-L8 of `docs/rules/express-01.md`.
//!
//! The game tree is the engine's: every step is decided by [`Game::decider`] (the mover, or a
//! receiver of a bonus payment choosing the deck of their card). Under [`Opponents::MaxN`] each
//! decider maximises their own final capital (tie rule L2); under [`Opponents::Paranoid`] the
//! mover at the root maximises their margin over the strongest other player and everyone else
//! minimises it (L3). The search is memoised on states (two orders of the same steps, or two
//! turns leading to the same position, are searched once), applies the reductions L5 proves in
//! the round's last turn, and searches that turn as one player's optimisation cut by an
//! admissible bound (L6). [`super::naive_round`] is the reference it is tested against.

use std::cell::RefCell;
use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};

use signalbox_engine::express01::game::{Action, Game, Pair, Phase, Referee, Step};
use signalbox_engine::express01::network::Network;

use signalbox_engine::express01::route::RouteTask;

use super::expected::Capital;
use super::turn::{Limit, ends_turn, fingerprint, hash128};

/// How the players other than the mover choose (L2, L3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opponents {
    /// Max^n: every player maximises their own final capital (tie rule L2).
    MaxN,
    /// Paranoid: the mover maximises their final capital less the strongest other player's,
    /// every other player minimises it (L3).
    Paranoid,
}

/// One whole turn of the line: the seat that moved and its steps, from the action pair to the
/// step that ends the turn (the steps of receivers choosing their decks included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundTurn {
    /// The seat whose turn it is.
    pub seat: usize,
    /// The steps, in order.
    pub steps: Vec<Step>,
}

/// The exact last round: the line every player plays by the opponent model, and its end.
#[derive(Clone, Debug)]
pub struct LastRound {
    /// The rest of the round from the mover's turn to the end of the game, turn by turn.
    pub line: Vec<RoundTurn>,
    /// Every seat's final capital at the end of the line ("Determine the Winner").
    pub finals: Vec<u32>,
    /// Every seat's final capital by the opponent model: the finals of the line, or, when a
    /// card nobody has seen is drawn on the way (a game from the table, ruling T3), the
    /// expectation over every card that could come, each by its chance. The line then shows the
    /// face-down cards coming in number order, one of those completions.
    pub value: Vec<Capital>,
    /// Whether the line draws a card nobody has seen before a later step could use it: then
    /// `value` is an expectation (each of those draws searched for every card that could come,
    /// unless the search was stopped first).
    pub by_chance: bool,
    /// The winners at the end of the line ([`Game::winners`]: the most capital, then the most
    /// company shares).
    pub winners: Vec<usize>,
    /// Whether the search finished: then the line is the exact answer of the opponent model.
    /// `false` when the deadline cut it: the line is then the best found, completed by the
    /// default steps of L7.
    pub proven: bool,
    /// States searched.
    pub nodes: u64,
    /// Draws of a card nobody has seen searched as a chance, every card that could come (T3).
    pub chances: u64,
    /// The end was not reached yet: only the mover's turns that reach it were searched ("if you
    /// end the game now", L1).
    pub restricted: bool,
}

impl LastRound {
    /// The expected final capitals, each as a decimal, when the line draws a card nobody has
    /// seen before it could be used (T3); `None` when the line's finals are the value.
    pub fn expected(&self) -> Option<Vec<f64>> {
        self.by_chance.then(|| self.value.iter().map(|v| v.as_f64()).collect())
    }

    /// [`LastRound::expected`] in words, player by player (names in seat order): the sentence a
    /// text output adds after the finals of its line.
    pub fn expected_in_words(&self, names: &[String]) -> Option<String> {
        let expected = self.expected()?;
        let each: Vec<String> = names.iter().zip(&expected).map(|(n, v)| format!("{n} {v:.2}")).collect();
        Some(format!(
            "The line takes the face-down cards in number order, one of the ways they could come; over every card \
             that could come, each by its chance, the final capitals are expected to be {} (see “Answers never depend on what was never seen” in docs/rules/express-01.md).",
            each.join(", ")
        ))
    }

    /// Each turn of the line from `game` (the game it was searched from): the seat and its steps
    /// in the record's words.
    pub fn in_words(&self, game: &Game<'_>) -> Vec<(usize, Vec<String>)> {
        let mut g = game.clone();
        self.line
            .iter()
            .map(|t| {
                let (words, after) = g.describe_steps(&t.steps);
                g = after;
                (t.seat, words)
            })
            .collect()
    }
}

/// The exact last round from `game`, at the start of a turn (`Phase::Pair`), by the opponent
/// model; with a deadline, the best line found when it passes (`proven: false`, L7).
///
/// `None` when the game is not in its last round (the end is not reached and no turn of the
/// mover reaches it), when it is not at the start of a turn or over, or when the deadline passed
/// before any line of a restricted search (L1) was found.
pub fn last_round(game: &Game<'_>, referee: &dyn Referee, opponents: Opponents, limit: Limit) -> Option<LastRound> {
    if *game.phase() != Phase::Pair || game.is_over() {
        return None;
    }
    let restricted = !game.end_reached();
    let referee = &Remembered { referee, payouts: RefCell::new(HashMap::new()) };
    let mut s = Search {
        referee,
        opponents,
        root: game.mover(),
        restricted,
        memo: HashMap::new(),
        last_turns: HashMap::new(),
        nodes: 0,
        chances: 0,
        limit,
        stopped: false,
    };
    let value = s.value(game, true)?;
    // The line: the best step of each state, from the memo; a last turn's steps from its search.
    let mut steps = Vec::new();
    let mut by_chance = false;
    let mut g = game.clone();
    while !g.is_over() {
        let key = fingerprint(&g);
        if let Some((_, turn)) = s.last_turns.get(&key).filter(|_| *g.phase() == Phase::Pair) {
            for &step in turn {
                g.play_unchecked(step);
                steps.push(step);
            }
            continue;
        }
        let Some(Some((_, step))) = s.memo.get(&key) else { return None };
        by_chance |= g.draws_unseen(*step);
        g.play_unchecked(*step);
        steps.push(*step);
    }
    let line = split_turns(game, &steps);
    let winners = g.winners();
    let finals = capitals(&g);
    Some(LastRound {
        line,
        finals,
        value,
        by_chance,
        winners,
        proven: !s.stopped,
        nodes: s.nodes,
        chances: s.chances,
        restricted,
    })
}

/// The steps of a line cut into whole turns.
fn split_turns(game: &Game<'_>, steps: &[Step]) -> Vec<RoundTurn> {
    let mut out: Vec<RoundTurn> = Vec::new();
    let mut g = game.clone();
    let mut current = RoundTurn { seat: g.mover(), steps: Vec::new() };
    for &step in steps {
        let before = g.clone();
        g.play_unchecked(step);
        current.steps.push(step);
        if ends_turn(&before, &g) {
            let next = RoundTurn { seat: g.mover(), steps: Vec::new() };
            out.push(std::mem::replace(&mut current, next));
        }
    }
    if !current.steps.is_empty() {
        out.push(current);
    }
    out
}

/// Every seat's capital now.
fn capitals(game: &Game<'_>) -> Vec<u32> {
    (0..game.seats().len()).map(|p| game.capital(p).total()).collect()
}

/// Every seat's capital now, as values of the search.
fn capital_values(game: &Game<'_>) -> Vec<Capital> {
    (0..game.seats().len()).map(|p| Capital::whole(i64::from(game.capital(p).total()))).collect()
}

/// The highest capital of the seats other than `player`.
fn strongest_other(finals: &[Capital], player: usize) -> Capital {
    finals.iter().enumerate().filter(|&(p, _)| p != player).map(|(_, &c)| c).max().unwrap_or(Capital::whole(0))
}

/// The others' finals in seat order.
fn others(finals: &[Capital], player: usize) -> impl Iterator<Item = Capital> + '_ {
    finals.iter().enumerate().filter(move |&(p, _)| p != player).map(|(_, &c)| c)
}

/// Max^n preference of `player` (L2): `Greater` when `a` is better for them than `b`. Own
/// capital higher; then the strongest other lower; then the others' capitals in seat order,
/// lexicographically lower.
fn maxn_order(player: usize, a: &[Capital], b: &[Capital]) -> Ordering {
    a[player]
        .cmp(&b[player])
        .then_with(|| strongest_other(b, player).cmp(&strongest_other(a, player)))
        .then_with(|| others(b, player).cmp(others(a, player)))
}

/// The paranoid key's order for the root player (L3): `Greater` when `a` is better for the root.
/// The margin (own less the strongest other) higher; then own higher; then the others' capitals
/// in seat order, lexicographically lower.
fn paranoid_order(root: usize, a: &[Capital], b: &[Capital]) -> Ordering {
    let margin = |f: &[Capital]| f[root].minus(strongest_other(f, root));
    margin(a).cmp(&margin(b)).then_with(|| a[root].cmp(&b[root])).then_with(|| others(b, root).cmp(others(a, root)))
}

/// A referee that asks each question once: the best payout depends on the board's tracks and
/// stations and the task only, and many states of a round share a board.
struct Remembered<'r> {
    referee: &'r dyn Referee,
    payouts: RefCell<HashMap<u128, Option<u32>>>,
}

impl Referee for Remembered<'_> {
    fn best_payout(&self, network: &Network, task: RouteTask) -> Option<u32> {
        let key = hash128(&PayoutQuestion(network, task));
        if let Some(&v) = self.payouts.borrow().get(&key) {
            return v;
        }
        let v = self.referee.best_payout(network, task);
        self.payouts.borrow_mut().insert(key, v);
        v
    }
}

/// What a best payout depends on: the board's cards, tracks and stations, and the task.
struct PayoutQuestion<'n>(&'n Network, RouteTask);

impl Hash for PayoutQuestion<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        for c in &self.0.cells {
            c.card.hash(state);
            c.tracks.hash(state);
            c.stations.hash(state);
        }
        (self.1.company, self.1.max_cards, self.1.rules).hash(state);
    }
}

/// Whether `game` is in the round's last turn: every other turn order card shows its back, so
/// nobody moves after this turn (an exchange in D can only be with a player who has moved, and
/// keeps every side, ruling G12).
fn in_last_turn(game: &Game<'_>) -> bool {
    let mover = game.mover();
    game.turn_cards().iter().enumerate().all(|(p, c)| p == mover || c.flipped)
}

struct Search<'r> {
    referee: &'r dyn Referee,
    opponents: Opponents,
    root: usize,
    restricted: bool,
    /// The value of each state searched and its best step (`None`: no line, L1).
    memo: HashMap<u128, Option<(Vec<Capital>, Step)>>,
    /// The last turns searched whole (L6): from the turn's start, the finals and the turn's steps.
    last_turns: HashMap<u128, (Vec<Capital>, Vec<Step>)>,
    nodes: u64,
    chances: u64,
    limit: Limit,
    stopped: bool,
}

impl Search<'_> {
    fn tick(&mut self) {
        self.nodes += 1;
        if !self.stopped && self.limit.reached(self.nodes) {
            self.stopped = true;
        }
    }

    /// Whether `a` is better than `b` for the decider `player` (L2, L3).
    fn better(&self, player: usize, a: &[Capital], b: &[Capital]) -> bool {
        match self.opponents {
            Opponents::MaxN => maxn_order(player, a, b) == Ordering::Greater,
            Opponents::Paranoid if player == self.root => paranoid_order(self.root, a, b) == Ordering::Greater,
            Opponents::Paranoid => paranoid_order(self.root, a, b) == Ordering::Less,
        }
    }

    /// Whether `player` ranks outcomes by a first key that the bound of L6 limits: their own
    /// capital (max^n), or the root's margin (paranoid, the root deciding).
    fn own_first(&self, player: usize) -> bool {
        self.opponents == Opponents::MaxN || player == self.root
    }

    /// The value of `g` (the finals the line from it reaches), `None` when no line may be played
    /// from it (a restricted root turn that cannot reach the end, L1). `root_turn`: `g` is in the
    /// root mover's turn.
    fn value(&mut self, g: &Game<'_>, root_turn: bool) -> Option<Vec<Capital>> {
        if g.is_over() {
            return Some(capital_values(g));
        }
        let key = fingerprint(g);
        if let Some(v) = self.memo.get(&key) {
            return v.as_ref().map(|(f, _)| f.clone());
        }
        if let Some((f, _)) = self.last_turns.get(&key) {
            return Some(f.clone());
        }
        self.tick();
        if *g.phase() == Phase::Pair && in_last_turn(g) && self.own_first(g.mover()) {
            let require_end = root_turn && self.restricted;
            let found = self.last_turn(g, require_end);
            return found.map(|(f, steps)| {
                self.last_turns.insert(key, (f.clone(), steps));
                f
            });
        }
        let decider = g.decider();
        let mut best: Option<(Vec<Capital>, Step)> = None;
        for step in self.choices(g, false) {
            let mut h = g.clone();
            h.play_unchecked(step);
            let ends = ends_turn(g, &h);
            if ends && root_turn && self.restricted && !h.end_reached() {
                continue;
            }
            let v = if g.draws_unseen(step) && !self.stopped {
                self.expected_draw(g, step, root_turn && !ends)
            } else {
                self.value(&h, root_turn && !ends)
            };
            let Some(v) = v else { continue };
            if best.as_ref().is_none_or(|(b, _)| self.better(decider, &v, b)) {
                best = Some((v, step));
            }
        }
        let out = best.as_ref().map(|(f, _)| f.clone());
        self.memo.insert(key, best);
        out
    }

    /// The value of drawing with `step` a card nobody has seen (T3): the expectation over every
    /// card that could come, each by its copies among the face-down cards; `None` when any of
    /// them leaves no line (L1).
    fn expected_draw(&mut self, g: &Game<'_>, step: Step, root_turn: bool) -> Option<Vec<Capital>> {
        let Step::Draw(d) = step else { return None };
        self.chances += 1;
        let mut outcomes: Vec<(u32, Vec<Capital>)> = Vec::new();
        for (card, copies) in g.could_come_with_copies(d) {
            let mut h = g.clone();
            h.reveal(d, card).ok()?;
            h.play_unchecked(step);
            outcomes.push((copies, self.value(&h, root_turn)?));
        }
        let seats = g.seats().len();
        Some((0..seats).map(|p| Capital::mean(&outcomes.iter().map(|(w, v)| (*w, v[p])).collect::<Vec<_>>())).collect())
    }

    /// The steps searched from `g` (L4, L5): every legal step, except in the round's last turn,
    /// where a receiver's deck and the exchange of D are taken once, and, when `single` (the
    /// decider ranks by own capital first), B) after A) is ended at once. Past the deadline, one
    /// default step (L7).
    fn choices(&self, g: &Game<'_>, single: bool) -> Vec<Step> {
        let mut legal = g.legal(self.referee);
        if self.stopped {
            let pick = legal.iter().position(|s| *s == Step::Done).unwrap_or(0);
            return legal.drain(..).nth(pick).into_iter().collect();
        }
        if !in_last_turn(g) {
            return legal;
        }
        match g.phase() {
            Phase::Paying { .. } => legal.truncate(1),
            Phase::Order => legal = vec![Step::Done],
            Phase::Shares if single && g.pair() == Some(Pair::ExpandShares) => legal = vec![Step::Done],
            _ => {}
        }
        legal
    }

    /// The round's last turn from its start `g`, for a decider ranking by own capital first (L6):
    /// a depth-first search over the turn's states, each visited once (the highest bound first),
    /// keeping the best end by the decider's order and cutting a state whose bound cannot reach
    /// the best end's first key.
    /// `require_end`: only ends with the end condition met count (L1).
    fn last_turn(&mut self, g: &Game<'_>, require_end: bool) -> Option<(Vec<Capital>, Vec<Step>)> {
        let mut t = LastTurn { mover: g.mover(), require_end, seen: HashSet::new(), best: None, line: Vec::new() };
        self.visit_last(&mut t, g);
        t.best
    }

    fn visit_last(&mut self, t: &mut LastTurn, g: &Game<'_>) {
        self.tick();
        if let Some((best, _)) = &t.best
            && !self.stopped
            && Capital::whole(self.first_key_bound(g, t.mover)) < self.first_key(t.mover, best)
        {
            return;
        }
        // The ends first; then the states after, the highest bound first (a good end found early
        // cuts more), each once.
        let mut next: Vec<(i64, Step, Game<'_>)> = Vec::new();
        for step in self.choices(g, true) {
            let mut h = g.clone();
            h.play_unchecked(step);
            if ends_turn(g, &h) {
                if !t.require_end || h.end_reached() {
                    let f = capital_values(&h);
                    if t.best.as_ref().is_none_or(|(b, _)| self.better(t.mover, &f, b)) {
                        let mut line = t.line.clone();
                        line.push(step);
                        t.best = Some((f, line));
                    }
                }
            } else {
                let bound = if self.stopped { 0 } else { self.first_key_bound(&h, t.mover) };
                next.push((bound, step, h));
            }
        }
        next.sort_by_key(|n| std::cmp::Reverse(n.0));
        for (_, step, h) in next {
            if self.stopped && t.best.is_some() {
                return;
            }
            if t.seen.insert(fingerprint(&h)) {
                t.line.push(step);
                self.visit_last(t, &h);
                t.line.pop();
            }
        }
    }

    /// The first component of the decider's order (L2, L3): own capital, or the root's margin.
    fn first_key(&self, player: usize, f: &[Capital]) -> Capital {
        match self.opponents {
            Opponents::MaxN => f[player],
            Opponents::Paranoid => f[self.root].minus(strongest_other(f, self.root)),
        }
    }

    /// An upper bound on the first key any end of the turn from `g` reaches (L6).
    fn first_key_bound(&self, g: &Game<'_>, mover: usize) -> i64 {
        let own = i64::from(g.capital(mover).total()) + own_gain_bound(g, mover);
        match self.opponents {
            Opponents::MaxN => own,
            Opponents::Paranoid => {
                let now = capitals(g);
                let strongest = now.iter().enumerate().filter(|&(p, _)| p != mover).map(|(_, &c)| c).max().unwrap_or(0);
                let engine = g.black_engine() == Some(mover) && !g.engine_used();
                own - (i64::from(strongest) - i64::from(engine))
            }
        }
    }
}

struct LastTurn {
    mover: usize,
    require_end: bool,
    seen: HashSet<u128>,
    best: Option<(Vec<Capital>, Vec<Step>)>,
    line: Vec<Step>,
}

/// An upper bound on the rise of the mover's capital from `g` to the end of the turn (L6).
///
/// In A) a card's worth (a card 1, the black engine 2) buys one station upgrade or two route
/// upgrades. Capital rises only by an upgrade over a base card (a station adds the mover's shares
/// of its companies, R7 keeps every later station's company; the base card taken raises the
/// pairs), by the bonus for reaching the West (a card, which can be paid again), by a share once
/// its price is paid (its worth, the company's stations) and by the cards of a bonus payment
/// (at most the cards in the decks, and at most two a station on the board). Shares bought
/// before A) raise a station's worth to the mover by at most one a card's worth.
fn own_gain_bound(g: &Game<'_>, mover: usize) -> i64 {
    let (pair, action) = (g.pair(), g.action());
    let expand_ahead = pair.is_none()
        || matches!(
            (pair, action),
            (Some(Pair::ExpandShares), Some(Action::Expand)) | (Some(Pair::SharesExpand), Some(_))
        );
    let shares_ahead = pair.is_none() || matches!((pair, action), (Some(Pair::SharesExpand), Some(Action::Shares)));
    let bonus_ahead = pair.is_none() || *g.phase() == Phase::Bonus;
    let mut expand = 0;
    if expand_ahead {
        expand = i64::from(super::turn_bound::own_expand_gain(g, mover, shares_ahead));
    }
    let mut bonus = 0;
    if bonus_ahead {
        let catalogue = g.catalogue();
        let stations: usize = g.board().iter().filter_map(|p| catalogue.card(p.card)).map(|c| c.stations.len()).sum();
        let in_decks: usize = g.decks().iter().map(|d| d.cards.len()).sum();
        bonus = (2 * stations).min(in_decks) as i64;
    }
    let mut up = expand.max(bonus);
    match g.phase() {
        Phase::Buying { company, .. } | Phase::Taking { company, .. } => up += i64::from(g.stations(*company)),
        Phase::Paying { queue } => up += queue.iter().filter(|&&p| p == mover).count() as i64,
        _ => {}
    }
    up
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(v: &[i64]) -> Vec<Capital> {
        v.iter().map(|&n| Capital::whole(n)).collect()
    }

    #[test]
    fn max_n_ties_go_to_the_strongest_other_lowest_then_the_others_lowest_in_seat_order() {
        // Own capital first.
        assert_eq!(maxn_order(0, &c(&[6, 9, 9]), &c(&[5, 0, 0])), Ordering::Greater);
        // Equal own: the strongest other lower wins.
        assert_eq!(maxn_order(1, &c(&[9, 6, 1]), &c(&[2, 6, 8])), Ordering::Less);
        // Equal own and strongest other: the others in seat order, lexicographically lower.
        assert_eq!(maxn_order(0, &c(&[5, 3, 4]), &c(&[5, 4, 2])), Ordering::Greater);
        assert_eq!(maxn_order(2, &c(&[1, 7, 3]), &c(&[1, 7, 3])), Ordering::Equal);
    }

    #[test]
    fn paranoid_ranks_the_margin_then_own_then_the_others_lowest() {
        assert_eq!(paranoid_order(0, &c(&[5, 6, 0]), &c(&[9, 11, 0])), Ordering::Greater);
        assert_eq!(paranoid_order(0, &c(&[5, 5, 0]), &c(&[4, 4, 0])), Ordering::Greater);
        assert_eq!(paranoid_order(0, &c(&[5, 5, 0]), &c(&[5, 5, 1])), Ordering::Greater);
    }
}
