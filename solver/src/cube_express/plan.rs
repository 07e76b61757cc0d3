//! The best turn for the player to move: every lay (tile, side, cell, rotation, with and without
//! its centre action) around one integer program each ([`super::model::TurnModel`]) for the
//! movements, pickups, deliveries, passengers, trades, market and discard. The winning plan is
//! replayed by the engine and re-valued by [`super::value::value`] before it is returned.

use std::time::Duration;

use signalbox_engine::cube_express::action::{Action, Lay};
use signalbox_engine::cube_express::game::{Game, Illegal, Phase};

use super::lp::{Backend, LpError, solve};
use super::model::TurnModel;
use super::value::{Weights, value};

/// How to plan.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlanOptions {
    /// The integer-programming backend (default microlp).
    pub backend: Backend,
    /// The evaluation's weights (default [`Weights::default`]).
    pub weights: Weights,
    /// A time limit per integer program (default none).
    pub time_limit: Option<Duration>,
}

/// A planned turn with its certificate: the engine played `actions` from the position and valued
/// the result.
#[derive(Clone, Debug)]
pub struct TurnPlan {
    /// The turn's actions, in order.
    pub actions: Vec<Action>,
    /// Its value ([`super::value::value`]).
    pub value: i32,
    /// The game after the turn.
    pub after: Game,
    /// Lays considered.
    pub lays: usize,
    /// Integer programs solved.
    pub programs: usize,
    /// With a time limit: an upper bound on the best value (the largest LP relaxation over the
    /// programs), so `value == upper_bound` proves the plan optimal; `None` without a time limit
    /// (every program was solved to optimality).
    pub upper_bound: Option<i32>,
}

impl TurnPlan {
    /// Whether the plan is proven optimal.
    pub fn proven(&self) -> bool {
        self.upper_bound.is_none_or(|b| b <= self.value)
    }
}

/// Why no plan was returned.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The position is not the start of a turn.
    #[error("the position is not the start of a turn")]
    MidTurn,
    /// The backend failed.
    #[error(transparent)]
    Lp(#[from] LpError),
    /// The program's plan did not replay, or replayed to another value: a solver bug, reported
    /// rather than hidden.
    #[error("the planned turn failed its check: {0}")]
    Certificate(String),
}

/// A solved program: its value, its constant, and its plan.
type Solution = (i32, i32, Vec<Action>);

/// Every lay to consider: each legal placement without its action, and with it where the tile
/// has one (the program decides whether it can be paid). `None` alone when no tile fits.
pub fn lay_candidates(game: &Game) -> Vec<Option<Lay>> {
    let mut out = Vec::new();
    for lay in game.legal_lays().into_iter().filter(|l| !l.act) {
        out.push(Some(lay));
        if game.lay_face(&lay).is_some_and(|f| f.centre.is_some()) {
            out.push(Some(Lay { act: true, ..lay }));
        }
    }
    if out.is_empty() {
        out.push(None);
    }
    out
}

/// Checks a plan: the engine plays it from `game` and values it.
pub fn certify(game: &Game, actions: &[Action], weights: &Weights) -> Result<(Game, i32), (usize, Illegal)> {
    let after = game.play_turn(actions)?;
    let v = value(game, &after, weights);
    Ok((after, v))
}

/// The best plan with `lay` (`None`: no tile fits) by its integer program: its value and actions,
/// or `None` when nothing can be done with that lay (its action cannot be paid).
pub fn solve_lay(game: &Game, lay: Option<&Lay>, options: &PlanOptions) -> Result<Option<(i32, Vec<Action>)>, LpError> {
    let Some(model) = TurnModel::new(game, lay, &options.weights, false) else { return Ok(None) };
    let (program, objective, reader) = model.into_program();
    match solve(program, objective.clone(), options.backend, options.time_limit) {
        Ok(solved) => Ok(Some((solved.eval(&objective).round() as i32, reader.plan(&solved)))),
        Err(LpError::Infeasible) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The best turn for the player to move in `game`. Lays whose programs are the same (the same
/// signature: the tile changes nothing the locomotives can use) share one solve; the programs run
/// in parallel; the best plan (the first candidate among equals) is replayed and re-valued by the
/// engine.
pub fn plan_turn(game: &Game, options: &PlanOptions) -> Result<TurnPlan, PlanError> {
    use rayon::prelude::*;
    if game.is_over() {
        return Err(PlanError::GameOver);
    }
    if game.phase() != Phase::Lay {
        return Err(PlanError::MidTurn);
    }
    let candidates = lay_candidates(game);
    // One program per signature; remember each candidate's constant.
    // (signature, the candidate it was built for, its program)
    let mut groups: Vec<(String, usize, TurnModel)> = Vec::new();
    let mut members: Vec<Option<(usize, i32)>> = Vec::with_capacity(candidates.len());
    for (i, lay) in candidates.iter().enumerate() {
        let Some(model) = TurnModel::new(game, lay.as_ref(), &options.weights, false) else {
            members.push(None);
            continue;
        };
        let constant = model.constant;
        match groups.iter().position(|(sig, _, _)| *sig == model.signature) {
            Some(g) => members.push(Some((g, constant))),
            None => {
                members.push(Some((groups.len(), constant)));
                groups.push((model.signature.clone(), i, model));
            }
        }
    }
    let programs = groups.len();
    // Under a time limit a program may stop early: bound each program by its LP relaxation
    // (one per signature, shifted by each member's constant).
    let upper_bound = match options.time_limit {
        None => None,
        Some(_) => {
            let relaxed: Vec<Result<Option<f64>, LpError>> = groups
                .par_iter()
                .map(|&(_, i, ref model)| {
                    let lay = candidates[i].as_ref();
                    let Some(relaxation) = TurnModel::new(game, lay, &options.weights, true) else { return Ok(None) };
                    let (program, objective, _) = relaxation.into_program();
                    match solve(program, objective.clone(), options.backend, None) {
                        Ok(s) => Ok(Some(s.eval(&objective) - f64::from(model.constant))),
                        Err(LpError::Infeasible) => Ok(None),
                        Err(e) => Err(e),
                    }
                })
                .collect();
            let mut relaxed_values = Vec::with_capacity(relaxed.len());
            for r in relaxed {
                relaxed_values.push(r?);
            }
            members
                .iter()
                .flatten()
                .filter_map(|&(g, constant)| relaxed_values[g].map(|v| (v + f64::from(constant) - 1e-6).ceil() as i32))
                .max()
        }
    };
    let solved: Vec<Result<Option<Solution>, LpError>> = groups
        .into_par_iter()
        .map(|(_, _, model)| {
            let constant = model.constant;
            let (program, objective, reader) = model.into_program();
            match solve(program, objective.clone(), options.backend, options.time_limit) {
                Ok(s) => Ok(Some((s.eval(&objective).round() as i32, constant, reader.plan(&s)))),
                Err(LpError::Infeasible | LpError::TimeLimit) => Ok(None),
                Err(e) => Err(e),
            }
        })
        .collect();
    let mut results = Vec::with_capacity(solved.len());
    for r in solved {
        results.push(r?);
    }
    let mut best: Option<(i32, Vec<Action>)> = None;
    for (lay, member) in candidates.iter().zip(&members) {
        let Some((g, constant)) = member else { continue };
        let Some((v, group_constant, actions)) = &results[*g] else { continue };
        let v = v - group_constant + constant;
        if best.as_ref().is_none_or(|(b, _)| v > *b) {
            let actions = actions
                .iter()
                .map(|a| match (a, lay) {
                    (Action::Lay(paid), Some(l)) => Action::Lay(Lay { pay: paid.pay, ..*l }),
                    _ => *a,
                })
                .collect();
            best = Some((v, actions));
        }
    }
    let Some((v, actions)) = best else {
        return Err(match options.time_limit {
            Some(_) => PlanError::Lp(LpError::TimeLimit),
            None => PlanError::Certificate("no lay gave a feasible program".to_string()),
        });
    };
    let (after, checked) = certify(game, &actions, &options.weights).map_err(|(i, e)| {
        PlanError::Certificate(format!(
            "action {i} ({}) is illegal: {e}",
            actions.get(i).map_or("end".to_string(), |a| a.to_string())
        ))
    })?;
    if checked != v {
        return Err(PlanError::Certificate(format!("the program valued the plan {v}, the engine {checked}")));
    }
    Ok(TurnPlan { actions, value: v, after, lays: candidates.len(), programs, upper_bound })
}
