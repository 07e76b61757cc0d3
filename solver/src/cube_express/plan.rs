//! The best turn for the player to move, by one of two exact methods: the search over every
//! legal order of the turn ([`super::search`], the default), or every lay (tile, side, cell,
//! rotation, with and without its centre action) around one integer program each
//! ([`super::model::TurnModel`]) for the movements, pickups, deliveries, passengers, trades,
//! market and discard (the cross-check). A backend failure of the programs falls back to the
//! search. The winning plan is replayed by the engine and re-valued from scratch by
//! [`super::value::value`] before it is returned.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use signalbox_engine::cube_express::action::{Action, Lay};
use signalbox_engine::cube_express::game::{Game, Illegal, Phase};

use super::lp::{Backend, LpError, solve_feasible};
use super::model::TurnModel;
use super::value::{Weights, value};

/// The exact method that plans a turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// The search over every legal order of the turn ([`super::search::best_turn`]).
    #[default]
    Search,
    /// One integer program per lay ([`super::model::TurnModel`]); a backend failure falls back
    /// to the search.
    Program,
}

impl Method {
    /// The method's name on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Method::Search => "search",
            Method::Program => "program",
        }
    }
}

impl std::str::FromStr for Method {
    type Err = String;
    fn from_str(s: &str) -> Result<Method, String> {
        match s {
            "search" => Ok(Method::Search),
            "program" => Ok(Method::Program),
            _ => Err(format!("unknown method {s:?}: expected search or program")),
        }
    }
}

/// How to plan.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlanOptions {
    /// The method (default the search).
    pub method: Method,
    /// The integer-programming backend of [`Method::Program`] (default microlp).
    pub backend: Backend,
    /// The evaluation's weights (default [`Weights::default`]).
    pub weights: Weights,
    /// A time limit: for the whole plan with the search; per integer program with the programs
    /// (default none).
    pub time_limit: Option<Duration>,
    /// Threads (default `None`: one per core). The plan does not depend on it.
    pub threads: Option<usize>,
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
    /// Integer programs solved (the others were cut off by their LP relaxation's bound). With
    /// more than one thread it may vary from run to run, with the order the programs finish in;
    /// the plan and its value do not.
    pub programs: usize,
    /// Distinct programs (lays with the same signature share one), each bounded by its LP
    /// relaxation.
    pub distinct: usize,
    /// With a time limit: an upper bound on the best value (the largest of the plan's value and
    /// the bounds of what was not searched or solved in time), so `value == upper_bound` proves
    /// the plan optimal; `None` without a time limit (every search finished, every program was
    /// solved to optimality or cut off by its bound).
    pub upper_bound: Option<i32>,
    /// The method that found the plan.
    pub method: Method,
    /// Positions searched (the search).
    pub positions: u64,
    /// Why the method asked for was not the one used, if it was not (a backend failure).
    pub fallback: Option<String>,
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

/// The state of [`plan_turn`]'s search, shared by its workers.
struct Search {
    /// The best plan so far: its value, its lay's candidate index, its actions.
    best: Option<(i32, usize, Vec<Action>)>,
    /// The highest bound of a program not solved in time.
    unfinished: Option<i32>,
    /// Integer programs solved.
    programs: usize,
    /// A backend failure, which stops the search.
    error: Option<LpError>,
}

impl Search {
    /// Whether a plan of value `v` with candidate `i` would replace the best so far: a higher
    /// value, or the same value for an earlier candidate (so the answer does not depend on the
    /// order the programs finish in).
    fn beats(&self, v: i32, i: usize) -> bool {
        self.best.as_ref().is_none_or(|&(bv, bi, _)| v > bv || (v == bv && i < bi))
    }
}

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
    let Some(model) = TurnModel::new(game, lay, &options.weights) else { return Ok(None) };
    let (program, objective, reader) = model.into_program();
    let solved = solve_feasible(program, objective.clone(), options.backend, options.time_limit)?;
    Ok(solved.map(|s| (s.eval(&objective).round() as i32, reader.plan(&s))))
}

/// The best turn for the player to move in `game` by `options.method`; a backend failure of the
/// programs falls back to the search (the reason in [`TurnPlan::fallback`]). The plan is
/// replayed and re-valued from scratch by the engine before it is returned.
pub fn plan_turn(game: &Game, options: &PlanOptions) -> Result<TurnPlan, PlanError> {
    crate::threads::install(options.threads, || plan_on_this_pool(game, options))
}

fn plan_on_this_pool(game: &Game, options: &PlanOptions) -> Result<TurnPlan, PlanError> {
    if game.is_over() {
        return Err(PlanError::GameOver);
    }
    if game.phase() != Phase::Lay {
        return Err(PlanError::MidTurn);
    }
    match options.method {
        Method::Search => plan_by_search(game, options),
        // Whatever stops the programs (a backend failure, or a time limit before any program was
        // solved), the search answers.
        Method::Program => match plan_by_programs(game, options) {
            Err(PlanError::Lp(e)) => {
                let mut plan = plan_by_search(game, options)?;
                plan.fallback = Some(format!("{e}; planned by the search instead"));
                Ok(plan)
            }
            other => other,
        },
    }
}

/// The best turn by [`super::search::best_turn`], its time limit for the whole search.
fn plan_by_search(game: &Game, options: &PlanOptions) -> Result<TurnPlan, PlanError> {
    let deadline = options.time_limit.map(|t| Instant::now() + t);
    let Some(found) = super::search::best_turn(game, &options.weights, deadline) else {
        return Err(PlanError::Certificate("the search found no legal turn".to_string()));
    };
    let (after, checked) = checked(game, &found.actions, &options.weights)?;
    if checked != found.value {
        return Err(PlanError::Certificate(format!(
            "the search valued the plan {}, the engine {checked}",
            found.value
        )));
    }
    Ok(TurnPlan {
        value: found.value,
        after,
        lays: found.lays,
        programs: 0,
        distinct: found.networks,
        upper_bound: options.time_limit.map(|_| found.upper_bound),
        method: Method::Search,
        positions: found.positions,
        fallback: None,
        actions: found.actions,
    })
}

/// The engine's replay of a plan and its value, or why it failed (a solver bug, reported).
fn checked(game: &Game, actions: &[Action], weights: &Weights) -> Result<(Game, i32), PlanError> {
    certify(game, actions, weights).map_err(|(i, e)| {
        PlanError::Certificate(format!(
            "action {i} ({}) is illegal: {e}",
            actions.get(i).map_or("end".to_string(), |a| a.to_string())
        ))
    })
}

/// The best turn by integer programs. Lays whose programs are the same (the same signature: the
/// tile changes nothing the locomotives can use) share one program; each program is bounded by
/// its LP relaxation, and the integer programs run in parallel from the highest bound down until
/// no bound can beat the best plan, each first asked only for a value that beats the best so far;
/// the best plan (the first candidate among equals) is replayed and re-valued by the engine.
fn plan_by_programs(game: &Game, options: &PlanOptions) -> Result<TurnPlan, PlanError> {
    use rayon::prelude::*;
    let candidates = lay_candidates(game);
    // The programs, built in parallel; then one per signature, remembering each candidate's
    // group and constant.
    let built: Vec<Option<TurnModel>> =
        candidates.par_iter().map(|lay| TurnModel::new(game, lay.as_ref(), &options.weights)).collect();
    let mut groups: Vec<TurnModel> = Vec::new();
    let mut by_signature: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut members: Vec<Option<(usize, i32)>> = Vec::with_capacity(candidates.len());
    for model in built {
        let Some(model) = model else {
            members.push(None);
            continue;
        };
        let g = *by_signature.entry(model.signature.clone()).or_insert(groups.len());
        members.push(Some((g, model.constant)));
        if g == groups.len() {
            groups.push(model);
        }
    }
    // Bound every program by its LP relaxation (shifted by each member's constant), then solve
    // the integer programs from the highest bound down, skipping a program once none of its lays
    // can beat the best plan found (a higher value, or the same value for an earlier lay). The
    // answer is the one every program solved would give: the best value, for the first lay
    // among equals.
    let relaxed: Vec<Option<f64>> = groups
        .par_iter()
        .map(|model| {
            let (program, objective) = model.relaxation();
            let solved = solve_feasible(program, objective.clone(), options.backend, None)?;
            Ok(solved.map(|s| s.eval(&objective) - f64::from(model.constant)))
        })
        .collect::<Result<_, LpError>>()?;
    // Per group: its members (candidate index, bound on the value with that lay).
    let mut bounded: Vec<Vec<(usize, i32)>> = vec![Vec::new(); groups.len()];
    for (i, &member) in members.iter().enumerate() {
        if let Some((g, constant)) = member
            && let Some(lp) = relaxed[g]
        {
            bounded[g].push((i, (lp + f64::from(constant) + 1e-6).floor() as i32));
        }
    }
    let mut order: Vec<usize> = (0..groups.len()).filter(|&g| !bounded[g].is_empty()).collect();
    let top = |g: usize| bounded[g].iter().map(|&(i, b)| (b, std::cmp::Reverse(i))).max();
    order.sort_by_key(|&g| std::cmp::Reverse(top(g)));
    let distinct = groups.len();
    let models: Vec<Mutex<Option<TurnModel>>> = groups.into_iter().map(|m| Mutex::new(Some(m))).collect();
    // Workers take the programs in that order; the shared search holds the best plan so far.
    let search = Mutex::new(Search { best: None, unfinished: None, programs: 0, error: None });
    let next = AtomicUsize::new(0);
    fn lock(m: &Mutex<Search>) -> std::sync::MutexGuard<'_, Search> {
        m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
    rayon::scope(|scope| {
        for _ in 0..rayon::current_num_threads().max(1) {
            scope.spawn(|_| {
                while let Some(&g) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let least;
                    {
                        let mut s = lock(&search);
                        if s.error.is_some() {
                            return;
                        }
                        if !bounded[g].iter().any(|&(i, b)| s.beats(b, i)) {
                            continue;
                        }
                        s.programs += 1;
                        least = s.best.as_ref().map(|&(bv, bi, _)| (bv, bi));
                    }
                    let taken = models[g].lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
                    let Some(model) = taken else { continue };
                    let constant = model.constant;
                    let (program, objective, reader) = model.into_program();
                    // With a best plan found, first ask only for a program value that would beat it
                    // (the solver then cuts off every branch that cannot): infeasible means none of
                    // the lays can. A program that can is solved again without that row, so its
                    // plan does not depend on when the best was found.
                    let cutoff = least.and_then(|(bv, bi)| {
                        bounded[g]
                            .iter()
                            .filter_map(|&(i, _)| members[i].map(|(_, c)| bv - c + constant + i32::from(i > bi)))
                            .min()
                    });
                    if let Some(target) = cutoff {
                        let mut cut = program.clone();
                        cut.geq(objective.clone(), f64::from(target) - 0.5);
                        match solve_feasible(cut, objective.clone(), options.backend, options.time_limit) {
                            Ok(None) => continue,
                            Ok(Some(_)) | Err(LpError::TimeLimit) => {}
                            Err(e) => {
                                lock(&search).error = Some(e);
                                return;
                            }
                        }
                    }
                    let result = solve_feasible(program, objective.clone(), options.backend, options.time_limit);
                    let mut s = lock(&search);
                    let solved = match result {
                        Ok(Some(solved)) => solved,
                        Ok(None) => continue,
                        Err(LpError::TimeLimit) => {
                            // Not solved in time: its lays are bounded by the relaxation only.
                            s.unfinished = s.unfinished.max(bounded[g].iter().map(|&(_, b)| b).max());
                            continue;
                        }
                        Err(e) => {
                            s.error = Some(e);
                            return;
                        }
                    };
                    let v = solved.eval(&objective).round() as i32 - constant;
                    let actions = reader.plan(&solved);
                    for &(i, _) in &bounded[g] {
                        let Some((_, constant)) = members[i] else { continue };
                        if s.beats(v + constant, i) {
                            let lay = candidates[i];
                            let actions = actions
                                .iter()
                                .map(|a| match (a, lay) {
                                    (Action::Lay(paid), Some(l)) => Action::Lay(Lay { pay: paid.pay, ..l }),
                                    _ => *a,
                                })
                                .collect();
                            s.best = Some((v + constant, i, actions));
                        }
                    }
                }
            });
        }
    });
    let Search { best, unfinished, programs, error } =
        search.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(e) = error {
        return Err(e.into());
    }
    let upper_bound =
        options.time_limit.map(|_| unfinished.into_iter().chain(best.as_ref().map(|b| b.0)).max().unwrap_or(0));
    let best = best.map(|(v, _, actions)| (v, actions));
    let Some((v, actions)) = best else {
        return Err(match options.time_limit {
            Some(_) => PlanError::Lp(LpError::TimeLimit),
            None => PlanError::Certificate("no lay gave a feasible program".to_string()),
        });
    };
    let (after, checked) = checked(game, &actions, &options.weights)?;
    if checked != v {
        return Err(PlanError::Certificate(format!("the program valued the plan {v}, the engine {checked}")));
    }
    Ok(TurnPlan {
        actions,
        value: v,
        after,
        lays: candidates.len(),
        programs,
        distinct,
        upper_bound,
        method: Method::Program,
        positions: 0,
        fallback: None,
    })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use signalbox_engine::cube_express::catalogue::Content;
    use signalbox_engine::cube_express::options::Options;

    use super::*;

    /// The plan, not only its value, is the same on one thread and on four, by either method:
    /// networks searched in parallel and programs cut off by their bound never change the
    /// answer, whatever order the others finish in.
    #[test]
    fn the_plan_does_not_depend_on_the_thread_count() {
        let content = Arc::new(Content::house());
        for ((players, seed, turns), method) in [(3, 4, 6), (2, 1, 2), (2, 3, 5)]
            .into_iter()
            .flat_map(|case| [(case, Method::Search), (case, Method::Program)])
        {
            let game =
                Game::after_random_turns(content.clone(), players, seed, turns, Options::default()).expect("setup");
            let on = |threads: usize| {
                plan_turn(&game, &PlanOptions { method, threads: Some(threads), ..PlanOptions::default() })
                    .expect("a plan")
            };
            let (one, four) = (on(1), on(4));
            assert_eq!(
                (one.value, &one.actions),
                (four.value, &four.actions),
                "p{players}-s{seed}-t{turns} {method:?}"
            );
            assert!(one.programs <= one.distinct);
        }
    }
}
