//! The answer of `cube-express advise`: the best turn for the player to move ([`super::plan`])
//! with its value by part, its words and how it was found, as one serde type. The CLI's `--json`,
//! its pages and the web board all print this type, so the answer is serialised the same way
//! everywhere (`docs/rules/cube-express.md`, "What the planner maximises").

use serde::Serialize;
use signalbox_engine::cube_express::action::Action;
use signalbox_engine::cube_express::colour::Colour;
use signalbox_engine::cube_express::game::Game;

use super::plan::{Method, PlanOptions, TurnPlan};
use super::value::{Parts, parts};

/// The best turn for the player to move, as `cube-express advise --json` prints it. The fields
/// are serialised in this order; the `Option` fields print `null` when they do not apply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TurnAdvice {
    /// What was planned: the file (or `the sample position`), and for a game record the turn
    /// (`..., before turn T`).
    pub position: String,
    /// The player to move, whose turn this is.
    pub player: Colour,
    /// The turn's value: points banked plus the documented evaluation of what the turn leaves
    /// ([`super::value::value`]; `docs/rules/cube-express.md`, "What the planner maximises").
    pub value: i32,
    /// Whether `value` is proven the best any turn reaches (no time limit stopped the method, or
    /// the bound of what it did not finish is no higher).
    pub proven: bool,
    /// An upper bound on the best value: `value` itself when there was no time limit
    /// ([`TurnPlan::upper_bound`]).
    pub upper_bound: i32,
    /// `value` by part: banked, objective cubes, resources, facilities, locomotive, technology
    /// ([`Parts`]).
    pub parts: Parts,
    /// The turn's actions, in order, as a game record writes them
    /// (`docs/formats/cube-express-position.md`).
    pub plan: Vec<Action>,
    /// Each action of `plan` in the words the text output prints.
    pub words: Vec<String>,
    /// The method that found the plan: `search` or `program` ([`Method::name`]).
    pub method: String,
    /// What the planner does with the tiles still face down (`docs/rules/cube-express.md`): the
    /// same sentence every review says.
    pub unseen: String,
    /// Why the method asked for was not the one used (a backend failure of the programs), or
    /// `null`.
    pub fallback: Option<String>,
    /// Lays considered (tile, side, cell, rotation, with and without its centre action).
    pub lays: usize,
    /// Positions searched.
    pub positions: u64,
    /// With the search: the distinct networks searched; `null` with the programs.
    pub networks: Option<usize>,
    /// With the programs: the integer programs solved (the rest cut off by their LP bound);
    /// `null` with the search.
    pub programs: Option<usize>,
    /// With the programs: the distinct programs (lays with the same signature share one);
    /// `null` with the search.
    pub distinct_programs: Option<usize>,
    /// With the programs: the integer-programming backend (`microlp`, `cbc`, `lpsolve`); `null`
    /// with the search.
    pub backend: Option<String>,
}

impl TurnAdvice {
    /// The advice for `planned`, the turn [`super::plan::plan_turn`] planned for `game` with
    /// `options`; `position` names what was planned, `unseen` is the sentence on the tiles still
    /// face down.
    pub fn new(
        position: impl Into<String>,
        game: &Game,
        planned: &TurnPlan,
        options: &PlanOptions,
        unseen: impl Into<String>,
    ) -> TurnAdvice {
        let seat = usize::from(game.active());
        let search = planned.method == Method::Search;
        let program = planned.method == Method::Program;
        TurnAdvice {
            position: position.into(),
            player: game.players()[seat].colour,
            value: planned.value,
            proven: planned.proven(),
            upper_bound: planned.upper_bound.unwrap_or(planned.value),
            parts: parts(game, &planned.after, &options.weights),
            plan: planned.actions.clone(),
            words: game.describe_turn(&planned.actions),
            method: planned.method.name().to_string(),
            unseen: unseen.into(),
            fallback: planned.fallback.clone(),
            lays: planned.lays,
            positions: planned.positions,
            networks: search.then_some(planned.distinct),
            programs: program.then_some(planned.programs),
            distinct_programs: program.then_some(planned.distinct),
            backend: program.then(|| options.backend.name().to_string()),
        }
    }
}
