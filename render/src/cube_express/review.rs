//! The boards of a Cube Express review's turning points (issue 15): for each, the network before
//! the turn, after the turn played and after the best turn, each drawn by [`super::picture`]
//! with the turn's tile outlined and its locomotive paths numbered.

use signalbox_solver::cube_express::analysis::Analysis;

use crate::page::{Board, TurningBoards};

/// The three boards of each turning point of `analysis`, in the order of the review's turning
/// points.
pub fn turning_boards(analysis: &Analysis) -> Vec<TurningBoards> {
    analysis.review.summary.turning_points.iter().filter_map(|&index| boards_of(analysis, index)).collect()
}

/// The three boards of every decision of `analysis` (before the turn, after the turn played,
/// after the best turn), in the review's order of decisions: [`turning_boards`] is this,
/// restricted to the turning points.
pub fn decision_boards(analysis: &Analysis) -> Vec<TurningBoards> {
    analysis.review.decisions.iter().filter_map(|d| boards_of(analysis, d.index)).collect()
}

/// The three boards of decision `index` (from 1), if the review has it.
fn boards_of(analysis: &Analysis, index: usize) -> Option<TurningBoards> {
    let review = &analysis.review;
    let d = review.decision(index)?;
    let t = index.checked_sub(1)?;
    let before = analysis.games.get(t)?;
    let colour = &d.details["colour"];
    let colour = colour.as_str().unwrap_or("the player");
    let board = |caption: String, actions: &[_], title: String| Board {
        caption,
        svg: super::picture::plan_svg(before, actions, &title),
    };
    Some(TurningBoards {
        decision: index,
        before: board(
            format!("before turn {}: {colour} to play", d.turn),
            &[],
            format!("Turn {} · before: {colour} to play", d.turn),
        ),
        played: board(
            format!("played: value {}", d.value_after),
            analysis.played.get(t)?,
            format!("Turn {} · played by {colour} · value {}", d.turn, d.value_after),
        ),
        best: board(
            format!("best: value {}", d.value_before),
            analysis.best.get(t)?,
            format!("Turn {} · best turn · value {}", d.turn, d.value_before),
        ),
    })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use signalbox_engine::cube_express::catalogue::Content;
    use signalbox_engine::cube_express::position::{SAMPLE_GAME_JSON, read_record};
    use signalbox_solver::cube_express::analysis::analyse;
    use signalbox_solver::cube_express::plan::PlanOptions;

    use super::*;

    /// The first turns of the sample (the second loses something): one set of boards per turning
    /// point, each a whole `<svg>` element that can be inlined (no XML declaration, no ids, an
    /// opaque background), the played and the best turn drawn differently.
    #[test]
    fn each_turning_point_has_three_inlinable_boards() {
        let mut record = read_record("sample", SAMPLE_GAME_JSON).expect("the sample");
        record.turns.truncate(3);
        let analysis =
            analyse(Arc::new(Content::house()), &record, "sample", &PlanOptions::default(), &|_| ()).expect("analysed");
        let boards = turning_boards(&analysis);
        assert_eq!(boards.len(), analysis.review.summary.turning_points.len());
        assert!(!boards.is_empty());
        crate::page::assert_inlinable(&boards);
    }

    /// Every decision has its boards, and the turning points' boards are those of their
    /// decisions.
    #[test]
    fn the_turning_boards_are_the_decision_boards_of_the_turning_points() {
        let mut record = read_record("sample", SAMPLE_GAME_JSON).expect("the sample");
        record.turns.truncate(3);
        let analysis =
            analyse(Arc::new(Content::house()), &record, "sample", &PlanOptions::default(), &|_| ()).expect("analysed");
        let all = decision_boards(&analysis);
        assert_eq!(all.iter().map(|b| b.decision).collect::<Vec<_>>(), [1, 2, 3]);
        let turning = turning_boards(&analysis);
        for (b, &index) in turning.iter().zip(&analysis.review.summary.turning_points) {
            let d = &all[index - 1];
            assert_eq!(
                (b.decision, &b.before.svg, &b.played.svg, &b.best.svg),
                (index, &d.before.svg, &d.played.svg, &d.best.svg)
            );
        }
    }
}
