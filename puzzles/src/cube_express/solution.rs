//! The exact solution of a best-turn puzzle: the best turn, and the best value of every other
//! placement (the runner-up is the best of them), from the best-turn search's best turn from
//! each start of step II ([`best_by_start`]).

use signalbox_engine::cube_express::action::Action;
use signalbox_engine::cube_express::game::Game;
use signalbox_solver::cube_express::plan::certify;
use signalbox_solver::cube_express::search::best_by_start;
use signalbox_solver::cube_express::value::Weights;

use super::answer::Placement;
use crate::puzzle::PuzzleError;

/// A position solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The best turn: the first best of the search's starts (ending with [`Action::End`]).
    pub actions: Vec<Action>,
    /// Its value (ruling V1), replayed and re-valued by the engine.
    pub value: i32,
    /// The best value of each placement, the answer's first, then by value (best first), equal
    /// values in the order the search meets them.
    pub placements: Vec<(Placement, i32)>,
    /// Positions the search looked at.
    pub positions: u64,
    /// Starts of step II searched (trades before the lay, and the lay with its action and payment).
    pub starts: usize,
}

impl Solution {
    /// The answer's placement.
    pub fn placement(&self) -> Placement {
        self.placements[0].0
    }

    /// The best value of any other placement, if there is another.
    pub fn runner_up(&self) -> Option<i32> {
        self.placements.get(1).map(|p| p.1)
    }
}

/// Solves `game` (at the start of a turn) on the calling thread with the default weights.
pub fn solve(game: &Game) -> Result<Solution, PuzzleError> {
    let weights = Weights::default();
    let (starts, positions) = best_by_start(game, &weights);
    let count = starts.len();
    let mut placements: Vec<(Placement, i32)> = Vec::new();
    let mut best: Option<&Vec<Action>> = None;
    let mut best_value = i32::MIN;
    for s in &starts {
        if s.value > best_value {
            best_value = s.value;
            best = Some(&s.actions);
        }
        let p = Placement::of(game, s.lay.as_ref());
        match placements.iter_mut().find(|(q, _)| *q == p) {
            Some((_, v)) => *v = (*v).max(s.value),
            None => placements.push((p, s.value)),
        }
    }
    let actions = best.cloned().ok_or_else(|| PuzzleError::Solver("the search found no legal turn".to_string()))?;
    let answer = Placement::of_turn(game, &actions);
    // The answer's placement first, then the others by value; a stable sort keeps the search's
    // order among equals.
    placements.sort_by_key(|&(p, v)| (p != answer, std::cmp::Reverse(v)));
    let (_, value) = certify(game, &actions, &weights)
        .map_err(|(i, e)| PuzzleError::Solver(format!("the best turn's step {} does not replay: {e}", i + 1)))?;
    if value != best_value || placements[0].1 != value {
        return Err(PuzzleError::Solver(format!("the search valued the best turn {best_value}, the engine {value}")));
    }
    let actions = simplest(game, actions, value, &weights);
    Ok(Solution { actions, value, placements, positions, starts: count })
}

/// `actions` (a turn from `game` worth `value`) with every action left out that can be left out
/// without changing the turn's value (trying the last first, again until none can), every stock
/// sale as small as it can be, and no market cube that gains nothing (ruling Z2). The search
/// breaks ties between equal lines by the order of its steps, trades first, so its line may hold
/// a sale or a conversion that gains nothing; the answer of a puzzle should not.
fn simplest(game: &Game, mut actions: Vec<Action>, value: i32, weights: &Weights) -> Vec<Action> {
    let same = |candidate: &[Action]| certify(game, candidate, weights).is_ok_and(|(_, v)| v == value);
    'again: loop {
        for i in (0..actions.len()).rev() {
            let mut candidate = actions.clone();
            match actions[i] {
                Action::Lay(_) | Action::NoLay | Action::NoMarket | Action::End { .. } => continue,
                Action::Market { cube: false, .. } => continue,
                Action::Market { slot, cube: true } => candidate[i] = Action::Market { slot, cube: false },
                Action::Sell { spaces } if spaces > 1 => candidate[i] = Action::Sell { spaces: spaces - 1 },
                _ => {
                    candidate.remove(i);
                }
            }
            if same(&candidate) {
                actions = candidate;
                continue 'again;
            }
        }
        return actions;
    }
}
