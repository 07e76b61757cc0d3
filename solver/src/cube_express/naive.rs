//! The exhaustive reference for the best turn: every order of every legal engine action of the
//! turn, searched depth first, each finished turn valued by [`super::value::value`].
//!
//! The rulebook lets a player trade whenever they like ("Playing the Game": conversions
//! "anytime during their turn"; "Selling Stocks": "at any time during their turn"), so this
//! search takes [`Game::legal_actions`] at every point as it is (trades, every lay with every
//! payment, every move, coal, the second locomotive, pickups, deliveries to each objective
//! column and passengers in any order, each market choice, each end-of-turn discard) and follows
//! each one. The one reduction is that a position reached again by another sequence (the same
//! [`GameKey`], mid-turn state included) is not searched again: its futures are the same.
//! Nothing else is pruned: no canonical order, no bound, no value cut-off. It is slow on
//! purpose, a check for faster planners.

use std::hash::{BuildHasher, Hash, Hasher};

use rustc_hash::{FxBuildHasher, FxHashSet};
use signalbox_engine::cube_express::action::{Action, Lay, Payment};
use signalbox_engine::cube_express::game::{Game, GameKey, Phase};

use super::value::{Weights, value};

/// Bounds on the search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Stop once this many distinct positions have been expanded (default: no limit).
    pub positions: Option<u64>,
    /// Only turns whose step I action is this lay, its payment aside (`Some(None)`:
    /// [`Action::NoLay`]), if given. Trades before it are still searched.
    pub lay: Option<Option<Lay>>,
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    /// The best turn's value and actions (ending with [`Action::End`]), the first found among
    /// equal values; `None` if the turn has no plan (the game is over, or not at the start of a
    /// turn, or the lay limit matches no lay).
    pub best: Option<(i32, Vec<Action>)>,
    /// Distinct positions expanded (each position's legal actions taken once).
    pub positions: u64,
    /// Whether the search ran to the end (no position limit was hit).
    pub complete: bool,
}

/// A [`GameKey`] with its hash computed once (the set hashes it again when it grows); equal
/// only when the keys are equal.
struct Keyed {
    hash: u64,
    key: GameKey,
}

impl Keyed {
    fn of(game: &Game) -> Keyed {
        let key = game.key();
        Keyed { hash: FxBuildHasher.hash_one(&key), key }
    }
}

impl PartialEq for Keyed {
    fn eq(&self, other: &Keyed) -> bool {
        self.hash == other.hash && self.key == other.key
    }
}

impl Eq for Keyed {}

impl Hash for Keyed {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

struct Search<'a> {
    limits: &'a Limits,
    turns: u32,
    seen: FxHashSet<Keyed>,
    path: Vec<Action>,
    /// Called with each finished turn's game and its actions.
    visit: &'a mut dyn FnMut(&Game, &[Action]),
    positions: u64,
    stopped: bool,
}

/// A lay without its payment, or `None` for [`Action::NoLay`].
fn unpaid(lay: Option<Lay>) -> Option<Lay> {
    lay.map(|l| Lay { pay: Payment::default(), ..l })
}

/// Searches every sequence of legal actions of the turn of the player to move in `game` (at the
/// start of a turn) within `limits`, calling `visit` once with each game the turn ends in and
/// the actions of the first line found to it; the positions expanded, and whether the search
/// ran to the end.
fn walk(game: &Game, limits: &Limits, visit: &mut dyn FnMut(&Game, &[Action])) -> (u64, bool) {
    let mut s = Search {
        limits,
        turns: game.turns_played(),
        seen: FxHashSet::default(),
        path: Vec::new(),
        visit,
        positions: 0,
        stopped: false,
    };
    if game.phase() == Phase::Lay && !game.is_over() {
        s.seen.insert(Keyed::of(game));
        s.expand(game);
    }
    (s.positions, !s.stopped)
}

/// Calls `visit` once with each game the turn of the player to move in `game` (at the start of
/// a turn) can end in, by the same search as [`best_turn`] (every sequence of legal actions,
/// positions deduplicated by [`GameKey`]); the number of positions expanded.
pub fn for_each_end(game: &Game, visit: &mut dyn FnMut(&Game)) -> u64 {
    walk(game, &Limits::default(), &mut |after, _| visit(after)).0
}

/// The best turn for the player to move in `game` (at the start of a turn, step I), by searching
/// every sequence of legal actions to the end of the turn, within `limits`.
pub fn best_turn(game: &Game, weights: &Weights, limits: &Limits) -> Reference {
    let mut best: Option<(i32, Vec<Action>)> = None;
    let (positions, complete) = walk(game, limits, &mut |after, actions| {
        let v = value(game, after, weights);
        if best.as_ref().is_none_or(|(b, _)| v > *b) {
            best = Some((v, actions.to_vec()));
        }
    });
    Reference { best, positions, complete }
}

impl Search<'_> {
    /// Whether the lay limit lets `action` be taken in step I.
    fn allowed(&self, game: &Game, action: &Action) -> bool {
        let Some(only) = self.limits.lay else { return true };
        if game.phase() != Phase::Lay {
            return true;
        }
        match action {
            Action::Lay(l) => unpaid(Some(*l)) == unpaid(only),
            Action::NoLay => only.is_none(),
            _ => true,
        }
    }

    /// Takes every legal action of `game` (a position not expanded before, mid-turn): a finished
    /// turn is visited, any other new position expanded in turn.
    fn expand(&mut self, game: &Game) {
        if self.limits.positions.is_some_and(|l| self.positions >= l) {
            self.stopped = true;
            return;
        }
        self.positions += 1;
        let mut next = game.clone();
        for action in game.legal_actions() {
            if self.stopped {
                return;
            }
            if !self.allowed(game, &action) {
                continue;
            }
            next.clone_from(game);
            let applied = next.apply_in_place(&action).is_ok();
            debug_assert!(applied, "a legal action is refused: {action:?}");
            if !applied {
                continue;
            }
            if !self.seen.insert(Keyed::of(&next)) {
                continue;
            }
            self.path.push(action);
            if next.turns_played() != self.turns {
                (self.visit)(&next, &self.path);
            } else {
                self.expand(&next);
            }
            self.path.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Instant;

    use signalbox_engine::cube_express::catalogue::Content;
    use signalbox_engine::cube_express::options::Options;
    use signalbox_engine::cube_express::position::read_position;

    use super::super::enumerate;
    use super::*;

    fn fixture(name: &str) -> Game {
        let path = format!("{}/../tests/fixtures/cube_express/regressions/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("the fixture reads");
        read_position(Arc::new(Content::house()), name, &text).expect("the position reads")
    }

    /// Checks the best value of a regression position (one an independent full search reached)
    /// and that the best line replays in the engine to the value reported.
    fn reaches(name: &str, expected: i32) {
        let weights = Weights::default();
        let game = fixture(name);
        let t = Instant::now();
        let r = best_turn(&game, &weights, &Limits::default());
        let (v, actions) = r.best.clone().expect("a plan");
        eprintln!("{name}: value {v}, {} positions, {:?}", r.positions, t.elapsed());
        assert!(r.complete, "{name}");
        assert_eq!(v, expected, "{name}: {actions:?}");
        let after = game.play_turn(&actions).expect("the best line replays");
        assert_eq!(value(&game, &after, &weights), v, "{name}");
    }

    #[test]
    fn city_bridge_reaches_17() {
        reaches("city-bridge.json", 17);
    }

    #[test]
    fn deliver_then_passenger_reaches_14() {
        reaches("deliver-then-passenger.json", 14);
    }

    /// The largest of the three (about 1.9 million positions).
    #[test]
    #[ignore = "heavy: about 10 s and 2 GB"]
    fn sale_mid_turn_reaches_19() {
        reaches("sale-mid-turn.json", 19);
    }

    /// A position limit stops the search and says so; the lay limit keeps only that lay (with
    /// any payment) and is never above the unrestricted search.
    #[test]
    fn the_limits_restrict_the_search() {
        let weights = Weights::default();
        let game = fixture("city-bridge.json");
        let full = best_turn(&game, &weights, &Limits::default());
        let cut = best_turn(&game, &weights, &Limits { positions: Some(10), lay: None });
        assert!(!cut.complete);
        assert_eq!(cut.positions, 10);
        let exact = best_turn(&game, &weights, &Limits { positions: Some(full.positions), lay: None });
        assert!(exact.complete, "a limit the search does not exceed is no cut");
        let lay = game.legal_lays()[0];
        let only = best_turn(&game, &weights, &Limits { positions: None, lay: Some(Some(lay)) });
        let (v, actions) = only.best.expect("a plan with that lay");
        assert!(v <= full.best.expect("a plan").0);
        let laid: Vec<_> = actions.iter().filter(|a| matches!(a, Action::Lay(_) | Action::NoLay)).collect();
        assert!(matches!(laid.as_slice(), [Action::Lay(l)] if unpaid(Some(*l)) == unpaid(Some(lay))), "{actions:?}");
    }

    /// Every plan the old canonical enumerator finds is a sequence of legal actions, so the
    /// exhaustive search is never below it.
    #[test]
    fn it_is_never_below_the_canonical_enumerator() {
        let content = Arc::new(Content::house());
        let weights = Weights::default();
        for (players, seed, turns) in [
            (1, 1, 0),
            (1, 2, 1),
            (1, 1, 3),
            (1, 2, 5),
            (2, 1, 0),
            (2, 3, 1),
            (2, 4, 3),
            (2, 1, 4),
            (3, 4, 0),
            (3, 2, 2),
            (3, 11, 1),
            (3, 9, 2),
        ] {
            let game =
                Game::after_random_turns(content.clone(), players, seed, turns, Options::default()).expect("setup");
            let t = Instant::now();
            let r = best_turn(&game, &weights, &Limits::default());
            let naive_time = t.elapsed();
            let t = Instant::now();
            let e = enumerate::enumerate(&game, &weights, &enumerate::Limits::default());
            eprintln!(
                "p{players}-s{seed}-t{turns}: naive {:?} ({} positions, {naive_time:?}), enumerator {:?} ({} plans, {:?})",
                r.best.as_ref().map(|b| b.0),
                r.positions,
                e.best.as_ref().map(|b| b.value),
                e.plans,
                t.elapsed()
            );
            assert!(r.complete && e.complete);
            let (v, actions) = r.best.expect("a plan");
            let after = game.play_turn(&actions).expect("the best line replays");
            assert_eq!(value(&game, &after, &weights), v);
            assert!(v >= e.best.expect("a plan").value, "p{players}-s{seed}-t{turns}");
        }
    }
}
