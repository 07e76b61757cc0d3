//! The boards of an Express 01 review's turning points (issue 18): for each, the board before the
//! turn, after the turn played and after the best turn, each drawn by [`super::picture`]; a turn
//! with a bonus payment shows the best route of that payment.

use signalbox_engine::express01::game::{Game, Step};
use signalbox_engine::express01::route::RouteTask;
use signalbox_solver::analysis::number;
use signalbox_solver::express01::analysis::Analysis;
use signalbox_solver::express01::route::{SearchOptions, best_routes};

use crate::page::{Board, TurningBoards};

/// The board after `steps` from `before`, with the best route of the turn's bonus payment if it
/// has one, titled `title`.
fn board_after(before: &Game<'_>, steps: &[Step], title: &str) -> String {
    let mut g = before.clone();
    let mut route = None;
    for &s in steps {
        if let Step::Bonus { company, .. } = s {
            let task = RouteTask { company, max_cards: g.issued(company), rules: g.rules().route };
            route = best_routes(&g.network(), task, &SearchOptions::default()).routes.into_iter().next();
        }
        g.play_unchecked(s);
    }
    super::picture::board_svg(&g.network(), route.as_ref().map(|r| &r.route), title)
}

/// The three boards of each turning point of `analysis`, in the order of the review's turning
/// points.
pub fn turning_boards(analysis: &Analysis<'_>) -> Vec<TurningBoards> {
    analysis.review.summary.turning_points.iter().filter_map(|&index| boards_of(analysis, index)).collect()
}

/// The three boards of every decision of `analysis` (before, played, best), in the review's order
/// of decisions; [`turning_boards`] is these for the turning points.
pub fn decision_boards(analysis: &Analysis<'_>) -> Vec<TurningBoards> {
    analysis.review.decisions.iter().filter_map(|d| boards_of(analysis, d.index)).collect()
}

/// The three boards of decision `index` (from 1) of `analysis`.
fn boards_of(analysis: &Analysis<'_>, index: usize) -> Option<TurningBoards> {
    let review = &analysis.review;
    let d = review.decision(index)?;
    let t = index - 1;
    let turn = analysis.turns.get(t)?;
    let name = review.players.get(d.player).map_or("the player", String::as_str);
    let (round, within) = (turn.before.round(), turn.before.turn());
    let at = format!("Round {round}, turn {within}");
    Some(TurningBoards {
        decision: index,
        before: Board {
            caption: format!("before turn {}: {name} to play", d.turn),
            svg: board_after(&turn.before, &[], &format!("{at} · before: {name} to play")),
        },
        played: Board {
            caption: format!("played: value {}", number(d.value_after)),
            svg: board_after(
                &turn.before,
                &turn.steps,
                &format!("{at} · played by {name} · value {}", number(d.value_after)),
            ),
        },
        best: Board {
            caption: format!("best: value {}", number(d.value_before)),
            svg: board_after(
                &turn.before,
                analysis.best.get(t)?,
                &format!("{at} · best turn · value {}", number(d.value_before)),
            ),
        },
    })
}

#[cfg(test)]
mod tests {
    use signalbox_engine::express01::catalogue::Catalogue;
    use signalbox_engine::express01::record::{SAMPLE_GAME_JSON, read};
    use signalbox_solver::express01::analysis::{AnalysisOptions, analyse};

    use super::*;

    /// The first turns of the sample, each searched a little: one set of boards per turning
    /// point, each a whole `<svg>` element that can be inlined (no XML declaration, no ids, an
    /// opaque background), the played and the best turn drawn differently.
    #[test]
    fn each_turning_point_has_three_inlinable_boards() {
        let catalogue = Catalogue::house();
        let mut record = read("sample", SAMPLE_GAME_JSON).expect("the sample");
        record.turns.truncate(8);
        record.result = None;
        let options = AnalysisOptions { states: Some(5_000), time_limit: None, threads: Some(1) };
        let analysis = analyse("sample", &record, &catalogue, &options, &|_| ()).expect("analysed");
        let boards = turning_boards(&analysis);
        assert_eq!(boards.len(), analysis.review.summary.turning_points.len());
        assert!(!boards.is_empty());
        crate::page::assert_inlinable(&boards);
    }
}
