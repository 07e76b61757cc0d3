//! The exact best score of a game, by dynamic programming over the positions at the start of
//! each turn: a turn's every line of play is expanded, the lines are merged by the position they
//! lead to (same key, same future), and each position's best final score is remembered.
//!
//! Exact, but without bounds or dominance the positions grow about sevenfold a turn (seed 1:
//! 5,695 positions after 4 turns, about a million after 7), so it serves shortened games, as a
//! second reference for the whole-game solver ([`super::search`]), which shares its turn
//! expansion ([`turn_outcomes`]).

use rustc_hash::FxHashMap as HashMap;
use signalbox_engine::coe::{Game, Move};

/// What the search found: the best final score and a line of play reaching it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The best final score.
    pub score: u32,
    /// A line of moves from the given game reaching it.
    pub line: Vec<Move>,
    /// Positions (at turn starts) evaluated.
    pub positions: usize,
}

/// Solves a game exactly.
pub fn solve(game: &Game<'_>) -> Solution {
    let mut memo: HashMap<u128, u32> = HashMap::default();
    let score = value(game, &mut memo);
    let positions = memo.len();
    // Walk the best line from the root using the table.
    let mut line = Vec::new();
    let mut at = game.clone();
    while !at.is_over() {
        let mut chosen = None;
        for (next, moves) in turn_outcomes(&at) {
            if value(&next, &mut memo) == score {
                chosen = Some((next, moves));
                break;
            }
        }
        let Some((next, moves)) = chosen else { break };
        line.extend(moves);
        at = next;
    }
    Solution { score, line, positions }
}

/// The best final score from a position at a turn boundary (or the start, or the end).
fn value(game: &Game<'_>, memo: &mut HashMap<u128, u32>) -> u32 {
    if game.is_over() {
        return game.score().total();
    }
    let key = game.key();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut best = 0;
    for (next, _) in turn_outcomes(game) {
        best = best.max(value(&next, memo));
    }
    memo.insert(key, best);
    best
}

/// Every distinct position one turn (or the start choice) can lead to, with a line reaching it;
/// in a fixed order. Every legal move is followed: both dice first, the free shift taken and
/// declined (ruling A8); only the second die of a double is left to the first (ruling A9).
pub fn turn_outcomes<'c>(game: &Game<'c>) -> Vec<(Game<'c>, Vec<Move>)> {
    let turn = game.turn();
    let starting = !game.is_started();
    let mut out: Vec<(Game<'c>, Vec<Move>)> = Vec::new();
    let mut seen: HashMap<u128, ()> = HashMap::default();
    let mut stack: Vec<(Game<'c>, Vec<Move>)> = vec![(game.clone(), Vec::new())];
    while let Some((g, line)) = stack.pop() {
        for mv in g.legal_moves() {
            let mut next = g.clone();
            next.play_unchecked(mv);
            let mut l = line.clone();
            l.push(mv);
            let done = next.is_over() || next.turn() > turn || (starting && next.is_started());
            if done {
                if seen.insert(next.key(), ()).is_none() {
                    out.push((next, l));
                }
            } else {
                stack.push((next, l));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use signalbox_engine::coe::{Catalogue, Instance, Record, Rules};

    /// The dynamic programme agrees with the naive search on shortened games, and its line
    /// replays in the engine to its score.
    #[test]
    fn agrees_with_the_naive_search() {
        let catalogue = Catalogue::house();
        for seed in 0..40 {
            let instance = Instance::from_seed(seed);
            let rules = Rules { max_turns: Some(2), ..Rules::default() };
            let game = Game::new(&catalogue, &instance, rules);
            let exact = solve(&game);
            let (naive, _) = super::super::naive::best(&game);
            assert_eq!(exact.score, naive, "seed {seed}");
            let record = Record::new(instance.clone(), rules, exact.line.clone());
            let (end, score) = record.replay(&catalogue, "exact").expect("the line is legal");
            assert!(end.is_over());
            assert_eq!(score.total(), exact.score);
        }
    }
}
