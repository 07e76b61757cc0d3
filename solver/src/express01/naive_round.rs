//! The naive reference of the exact last round ([`super::last_round`]): plain max^n (or
//! paranoid minimax) over every legal step sequence to the end of the game. Every step of
//! [`Game::legal`] is searched, for whichever player [`Game::decider`] names; nothing is left out
//! and nothing is cut; states are merged only when they are equal games (the memo is keyed by the
//! game itself). The tie rules (L2, L3 of `docs/rules/express-01.md`) are written out here a
//! second time, as key vectors, so that the search's comparisons are checked, not shared.
//! A draw of a card nobody has seen (a game from the table) is a chance: its value is the mean
//! over every card that could come, weighted by its face-down copies (ruling T3).
//! Exponential: for positions with a card or two in each hand.

use std::collections::HashMap;

use signalbox_engine::express01::game::{Game, Phase, Referee, Step};

use super::expected::Capital;
use super::last_round::Opponents;

/// The final capitals of the exact last round from `game` (at the start of a turn) by the
/// opponent model, or `None` when the game is not in its last round: the end is not reached
/// and no turn of the mover reaches it (then only the mover's turns that reach it are searched,
/// L1).
pub fn naive_last_round(game: &Game<'_>, referee: &dyn Referee, opponents: Opponents) -> Option<Vec<Capital>> {
    naive_last_round_within(game, referee, opponents, usize::MAX).flatten()
}

/// [`naive_last_round`], giving up (`None`) once it has searched more than `max_states`
/// distinct states; `Some(answer)` when it finished. For tests that pick the positions small
/// enough for the reference.
pub fn naive_last_round_within(
    game: &Game<'_>,
    referee: &dyn Referee,
    opponents: Opponents,
    max_states: usize,
) -> Option<Option<Vec<Capital>>> {
    if *game.phase() != Phase::Pair || game.is_over() {
        return Some(None);
    }
    let mut n = Naive {
        referee,
        opponents,
        root: game.mover(),
        restricted: !game.end_reached(),
        memo: HashMap::new(),
        max_states,
        gave_up: false,
    };
    let v = n.value(game, true);
    (!n.gave_up).then_some(v)
}

struct Naive<'r, 'c> {
    referee: &'r dyn Referee,
    opponents: Opponents,
    root: usize,
    restricted: bool,
    memo: HashMap<Game<'c>, Option<Vec<Capital>>>,
    max_states: usize,
    gave_up: bool,
}

impl<'c> Naive<'_, 'c> {
    /// The key a decider maximises: for max^n, own capital, minus the strongest other's, minus
    /// each other's in seat order; for paranoid, the root's margin, the root's capital, minus
    /// each other's in seat order (the root maximises it, the others minimise it).
    fn key(&self, decider: usize, finals: &[Capital]) -> Vec<Capital> {
        let me = match self.opponents {
            Opponents::MaxN => decider,
            Opponents::Paranoid => self.root,
        };
        let zero = Capital::whole(0);
        let rest: Vec<Capital> = (0..finals.len()).filter(|&p| p != me).map(|p| finals[p]).collect();
        let strongest = rest.iter().copied().max().unwrap_or(zero);
        let own = finals[me];
        let mut key = match self.opponents {
            Opponents::MaxN => vec![own, zero.minus(strongest)],
            Opponents::Paranoid => vec![own.minus(strongest), own],
        };
        key.extend(rest.iter().map(|&c| zero.minus(c)));
        if self.opponents == Opponents::Paranoid && decider != self.root {
            for k in &mut key {
                *k = zero.minus(*k);
            }
        }
        key
    }

    fn value(&mut self, g: &Game<'c>, root_turn: bool) -> Option<Vec<Capital>> {
        if g.is_over() {
            return Some((0..g.seats().len()).map(|p| Capital::whole(i64::from(g.capital(p).total()))).collect());
        }
        if let Some(v) = self.memo.get(g) {
            return v.clone();
        }
        if self.gave_up || self.memo.len() >= self.max_states {
            self.gave_up = true;
            return None;
        }
        let decider = g.decider();
        let mut best: Option<(Vec<Capital>, Vec<Capital>)> = None;
        for step in g.legal(self.referee) {
            let mut h = g.clone();
            h.play_unchecked(step);
            let turn_ends = h.is_over() || (*h.phase() == Phase::Pair && *g.phase() != Phase::Pair);
            if root_turn && turn_ends && self.restricted && !h.end_reached() {
                continue;
            }
            let v = match step {
                Step::Draw(d) if g.draws_unseen(step) => {
                    // Every card that could come, by its copies.
                    let mut each: Vec<(u32, Vec<Capital>)> = Vec::new();
                    for (card, copies) in g.could_come_with_copies(d) {
                        let mut h = g.clone();
                        if h.reveal(d, card).is_err() {
                            return None;
                        }
                        h.play_unchecked(step);
                        match self.value(&h, root_turn && !turn_ends) {
                            Some(v) => each.push((copies, v)),
                            None => {
                                each.clear();
                                break;
                            }
                        }
                    }
                    (!each.is_empty()).then(|| {
                        (0..g.seats().len())
                            .map(|p| Capital::mean(&each.iter().map(|(w, v)| (*w, v[p])).collect::<Vec<_>>()))
                            .collect()
                    })
                }
                _ => self.value(&h, root_turn && !turn_ends),
            };
            let Some(v) = v else { continue };
            let k = self.key(decider, &v);
            if best.as_ref().is_none_or(|(bk, _)| k > *bk) {
                best = Some((k, v));
            }
        }
        let out = best.map(|(_, v)| v);
        self.memo.insert(g.clone(), out.clone());
        out
    }
}
