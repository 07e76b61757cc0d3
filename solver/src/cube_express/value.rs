//! The value of a turn for the player who takes it: the points it banks at final-scoring values,
//! plus a documented evaluation of what it leaves behind (`docs/rules/cube-express.md`, "What the
//! planner maximises"). Computed from the games before and after the turn only, so the engine's
//! replay of a plan re-scores it independently of the solver that found it.

use signalbox_engine::cube_express::catalogue::COLUMNS;
use signalbox_engine::cube_express::game::Game;
use signalbox_engine::cube_express::score::{achieves, final_scores};

/// The evaluation's weights, in victory points. All integers, so plan values compare exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Each resource in storage at the end of the turn (default 1: two resources convert into one
    /// and a dividend, so conversions into dividends neither gain nor lose). At least 1, so a
    /// plan never discards more than the storage limit asks.
    pub resource: i32,
    /// Each production facility owned (default 2: the stock rises it may bring).
    pub facility: i32,
    /// The second locomotive (default 4).
    pub locomotive: i32,
    /// Each technology level (default 2: movement and storage for the turns to come).
    pub technology: i32,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights { resource: 1, facility: 2, locomotive: 4, technology: 2 }
    }
}

/// What one more cube on each objective card is worth to `seat` now: the card's non-majority
/// points if `seat` achieves it now, else 0.
pub fn objective_weights(game: &Game, seat: usize) -> [i32; COLUMNS] {
    let points = game.track().objective_points;
    std::array::from_fn(|c| if achieves(game, seat, c) { i32::from(points[c].1) } else { 0 })
}

fn owned(game: &Game, seat: usize) -> i32 {
    game.board().tiles().iter().filter(|t| t.owner == Some(seat as u8)).count() as i32
}

/// A value by part.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Parts {
    /// Points banked: dividends, factory cubes, passengers, stations, stock value, tokens.
    pub banked: i32,
    /// Objective cubes at their weights.
    pub objectives: i32,
    /// Resources held.
    pub resources: i32,
    /// Production facilities owned.
    pub facilities: i32,
    /// The second locomotive.
    pub locomotive: i32,
    /// The technology level.
    pub technology: i32,
}

impl Parts {
    /// The total.
    pub fn total(&self) -> i32 {
        self.banked + self.objectives + self.resources + self.facilities + self.locomotive + self.technology
    }
}

/// The points `seat` has banked (every final-scoring point but the objective cards), computed
/// from scratch by the engine's final scoring: cities found again from the tiles, not carried.
fn banked(game: &Game, seat: usize) -> i32 {
    final_scores(game)[seat].banked()
}

/// [`value`] by part.
pub fn parts(before: &Game, after: &Game, weights: &Weights) -> Parts {
    let seat = usize::from(before.active());
    let (b, a) = (&before.players()[seat], &after.players()[seat]);
    let objectives = objective_weights(before, seat);
    let loco = |p: &signalbox_engine::cube_express::game::Player| i32::from(p.locomotives[1].is_some());
    Parts {
        banked: banked(after, seat) - banked(before, seat),
        objectives: (0..COLUMNS)
            .map(|c| {
                (i32::from(after.objective_cubes(c)[seat]) - i32::from(before.objective_cubes(c)[seat])) * objectives[c]
            })
            .sum(),
        resources: weights.resource * (i32::from(a.store.total()) - i32::from(b.store.total())),
        facilities: weights.facility * (owned(after, seat) - owned(before, seat)),
        locomotive: weights.locomotive * (loco(a) - loco(b)),
        technology: weights.technology * (i32::from(after.tech_level(seat)) - i32::from(before.tech_level(seat))),
    }
}

/// The value of going from `before` to `after` for the player to move in `before`:
/// points banked (dividends, factory cubes, passengers, stations, the stock value, 9-VP tokens),
/// objective cubes at [`objective_weights`] of `before`, and the weights for resources held,
/// facilities owned, the second locomotive and the technology level.
pub fn value(before: &Game, after: &Game, weights: &Weights) -> i32 {
    parts(before, after, weights).total()
}
