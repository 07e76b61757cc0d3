//! The boards of a Railways Express review's turning points: for each, the position before the
//! turn with the mover's plan, after the turn as played and after the best use of the roll, each
//! drawn by [`super::picture::position_svg`] (the turn's builds drawn solid on a dark edge, the
//! plan still to build hollow).

use signalbox_solver::analysis::Review;
use signalbox_solver::railways::analysis::Analysis;

use crate::page::{Board, TurningBoards};

use super::picture::position_svg;

/// The three boards of each turning point of `analysis`'s review, in the review's order.
pub fn turning_boards(analysis: &Analysis) -> Vec<TurningBoards> {
    analysis.review.summary.turning_points.iter().filter_map(|&i| boards_of(analysis, i)).collect()
}

/// The three boards of every decision of `analysis`'s review (the turning points' boards among
/// them, drawn alike), in the review's order of decisions.
pub fn decision_boards(analysis: &Analysis) -> Vec<TurningBoards> {
    analysis.review.decisions.iter().filter_map(|d| boards_of(analysis, d.index)).collect()
}

/// The three boards of decision `i` (from 1) of `analysis`'s review, if it has its positions.
fn boards_of(analysis: &Analysis, i: usize) -> Option<TurningBoards> {
    let review: &Review = &analysis.review;
    let d = review.decision(i)?;
    let b = analysis.boards.iter().find(|b| b.decision == i)?;
    let head = format!("Decision {} · turn {} · {} ({})", d.index, d.turn, b.colour, d.kind);
    let tiles = |n: usize| format!("{n} tiles still to build (hollow)");
    let board = |caption: String, svg: String| Board { caption, svg };
    let before = board(
        format!("before: {} to play", b.colour),
        position_svg(&b.before, b.colour, &b.before_plan, &[], &[head.clone(), tiles(b.before_plan.len())]),
    );
    let played = board(
        format!("played: {}", d.played.text),
        position_svg(
            &b.played,
            b.colour,
            &b.played_plan,
            &b.played_builds,
            &[format!("{head}: played"), format!("{} expected turns still needed", two_places(d.value_after))],
        ),
    );
    let best = board(
        format!("best: {}", d.best.text),
        position_svg(
            &b.best,
            b.colour,
            &b.best_plan,
            &b.best_builds,
            &[format!("{head}: best"), format!("{} expected turns still needed", two_places(d.best_value_after))],
        ),
    );
    Some(TurningBoards { decision: i, before, played, best })
}

/// A value to two places.
fn two_places(v: f64) -> String {
    format!("{v:.2}")
}
