//! The proof of a `coe-max` puzzle: the exact value of every position of the remaining game, and
//! the answer line walked turn by turn with the value of every other distinct choice of each turn.
//!
//! **A decision is a turn.** The choices of a turn are the positions it can end in
//! ([`turn_outcomes`]: every legal move followed, lines merged by the position they reach), so
//! two orders of the same moves, or two moves that leave the same position, are one choice. A
//! turn that ends the game ends in a final position: there two endings are one choice when they
//! hold the same cubes on the board, the same tucked cards and the same workers, since cubes
//! left in the inventory score nothing and no move follows (the rest of the engine's key, the
//! piles and the inventory, no longer matters).

use std::collections::HashMap;

use signalbox_engine::coe::{Game, Move};
use signalbox_solver::coe::exact::turn_outcomes;

/// The best final score of every position searched, by the engine's key (positions inside a
/// turn too): a plain depth-first search over every legal move with a memo, no bound, no cut.
#[derive(Default)]
pub struct Values {
    memo: HashMap<u128, u32>,
}

impl Values {
    /// The best final score reachable from `game`.
    pub fn value(&mut self, game: &Game<'_>) -> u32 {
        if game.is_over() {
            return game.score().total();
        }
        let key = game.key();
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let mut best = 0;
        for mv in game.legal_moves() {
            let mut next = game.clone();
            next.play_unchecked(mv);
            best = best.max(self.value(&next));
        }
        self.memo.insert(key, best);
        best
    }

    /// The positions whose value was searched (the proof's work).
    pub fn work(&self) -> u64 {
        self.memo.len() as u64
    }
}

/// One choice of a turn: a line of moves reaching it (the first in the engine's order), the
/// position it ends in and its value.
#[derive(Clone, Debug)]
pub struct Choice<'c> {
    /// The moves of the turn.
    pub moves: Vec<Move>,
    /// The position at the end of the turn.
    pub end: Game<'c>,
    /// The best final score from there.
    pub value: u32,
}

/// One decision of the answer line: the turn and every distinct choice, the answer's marked.
#[derive(Clone, Debug)]
pub struct Decision<'c> {
    /// The turn, from 1.
    pub turn: usize,
    /// The distinct choices, in the engine's order.
    pub choices: Vec<Choice<'c>>,
    /// The index of the answer's choice: the first reaching the best value.
    pub chosen: usize,
}

impl Decision<'_> {
    /// The best value of the choices other than the answer's, if any.
    pub fn runner_up(&self) -> Option<u32> {
        self.choices.iter().enumerate().filter(|&(i, _)| i != self.chosen).map(|(_, c)| c.value).max()
    }
}

/// The answer line with its proof.
#[derive(Clone, Debug)]
pub struct Walk<'c> {
    /// The best final score.
    pub best: u32,
    /// The decisions, one per turn left.
    pub decisions: Vec<Decision<'c>>,
    /// Positions searched.
    pub work: u64,
}

impl Walk<'_> {
    /// The best value of any choice other than the answer's, over every decision.
    pub fn runner_up(&self) -> Option<u32> {
        self.decisions.iter().filter_map(Decision::runner_up).max()
    }

    /// The answer's moves, turn by turn.
    pub fn turns(&self) -> Vec<Vec<Move>> {
        self.decisions.iter().map(|d| d.choices[d.chosen].moves.clone()).collect()
    }
}

/// What makes two turn endings one choice: the engine's key, or for a game over the cubes on the
/// board, the tucked cards and the workers.
fn choice_key(game: &Game<'_>) -> (bool, u128) {
    if game.is_over() {
        let tucked = game.tucked().iter().fold(0u128, |m, &c| m | 1 << c);
        (true, (u128::from(game.placed()) << 32) | (tucked << 8) | u128::from(game.workers()))
    } else {
        (false, game.key())
    }
}

/// The distinct choices of the turn beginning at `game`, in the engine's order, each with its
/// value.
pub fn choices<'c>(game: &Game<'c>, values: &mut Values) -> Vec<Choice<'c>> {
    let mut seen: Vec<(bool, u128)> = Vec::new();
    let mut out = Vec::new();
    for (end, moves) in turn_outcomes(game) {
        let key = choice_key(&end);
        if seen.contains(&key) {
            continue;
        }
        seen.push(key);
        let value = values.value(&end);
        out.push(Choice { moves, end, value });
    }
    out
}

/// Walks the answer line from `game` (at a turn start) to the end: at each turn every distinct
/// choice and its value, the answer the first reaching the best.
pub fn walk<'c>(game: &Game<'c>) -> Walk<'c> {
    let mut values = Values::default();
    let best = values.value(game);
    let mut decisions = Vec::new();
    let mut at = game.clone();
    while !at.is_over() {
        let choices = choices(&at, &mut values);
        // The value of a position is the best of its turn's endings, so one reaches it.
        let Some(chosen) = choices.iter().position(|c| c.value == best) else { break };
        let next = choices[chosen].end.clone();
        decisions.push(Decision { turn: at.turn() + 1, choices, chosen });
        at = next;
    }
    Walk { best, decisions, work: values.work() }
}
