//! The boards of a review's turning points (issue 15): for each, the position before the
//! decision, after the move played and after the best move, drawn by [`super::picture`] with
//! a line of state under the title (turn, dice left, workers, inventory, score so far) and the
//! cube the move placed outlined.

use signalbox_engine::coe::{Catalogue, Colour, Game, Instance, Move, Rules};
use signalbox_solver::analysis::Review;

use super::picture::position_svg;
use crate::page::{Board, TurningBoards};

/// The state under a picture's title.
fn state(game: &Game<'_>) -> String {
    let held: Vec<String> = Colour::ALL
        .iter()
        .filter(|c| game.inventory()[c.index()] > 0)
        .map(|c| format!("{} {c}", game.inventory()[c.index()]))
        .collect();
    format!(
        "{} · {} · workers {} · inventory {} · score so far {}",
        if game.is_over() { "game over".to_owned() } else { format!("turn {}", game.turn() + 1) },
        signalbox_engine::coe::dice_words(game.dice()),
        game.workers(),
        if held.is_empty() { "empty".to_owned() } else { held.join(", ") },
        game.score().total()
    )
}

/// The three boards of each turning point of `review`, a review of the game `moves` (from the
/// start of `instance` under `rules`); `best` holds the best move of each decision, in order.
pub fn turning_boards(
    catalogue: &Catalogue,
    instance: &Instance,
    rules: Rules,
    moves: &[Move],
    review: &Review,
    best: &[Move],
) -> Vec<TurningBoards> {
    boards_of(catalogue, instance, rules, moves, review, best, &review.summary.turning_points)
}

/// The three boards of every decision of `review` (before it, after the move played, after the
/// best move), in the review's order of decisions, drawn as [`turning_boards`] draws them; a
/// decision whose best move `best` lacks is left out.
pub fn decision_boards(
    catalogue: &Catalogue,
    instance: &Instance,
    rules: Rules,
    moves: &[Move],
    review: &Review,
    best: &[Move],
) -> Vec<TurningBoards> {
    let every: Vec<usize> = review.decisions.iter().map(|d| d.index).collect();
    boards_of(catalogue, instance, rules, moves, review, best, &every)
}

/// The three boards of the decisions numbered `indices` (from 1), in that order.
fn boards_of(
    catalogue: &Catalogue,
    instance: &Instance,
    rules: Rules,
    moves: &[Move],
    review: &Review,
    best: &[Move],
    indices: &[usize],
) -> Vec<TurningBoards> {
    let picture = |line: &[Move], title: &str, note: &str| {
        let mut game = Game::new(catalogue, instance, rules);
        for &mv in line {
            game.play_unchecked(mv);
        }
        position_svg(catalogue, instance, rules, line, title, &[state(&game), note.to_owned()], true)
    };
    indices
        .iter()
        .filter_map(|&index| {
            let d = review.decision(index)?;
            let k = index.checked_sub(1)?;
            let before_line = moves.get(..k)?;
            let played_line = moves.get(..=k)?;
            let mut best_line = before_line.to_vec();
            best_line.push(*best.get(k)?);
            let value = |v: f64| crate::page::escape(&format!("{v}"));
            let before = Board {
                caption: format!("before decision {index} (best reachable {})", value(d.value_before)),
                svg: picture(
                    before_line,
                    &format!("Before decision {index}"),
                    &format!("best reachable {}", value(d.value_before)),
                ),
            };
            let played = Board {
                caption: format!("played: {} (best reachable {})", d.played.text, value(d.value_after)),
                svg: picture(
                    played_line,
                    &format!("Played: {}", d.played.text),
                    &format!("best reachable after it {}", value(d.value_after)),
                ),
            };
            let best = Board {
                caption: format!("best: {} (best reachable {})", d.best.text, value(d.best_value_after)),
                svg: picture(
                    &best_line,
                    &format!("Best: {}", d.best.text),
                    &format!("best reachable after it {}", value(d.best_value_after)),
                ),
            };
            Some(TurningBoards { decision: index, before, played, best })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use signalbox_solver::analysis::{Better, Choice, Decision, Measure};

    /// Each turning point gets three whole `<svg>` elements, without an XML declaration or ids,
    /// on an opaque background.
    #[test]
    fn three_whole_pictures_per_turning_point() {
        let catalogue = Catalogue::house();
        let instance = Instance::from_seed(1);
        let mut game = Game::new(&catalogue, &instance, Rules::default());
        let mut moves = Vec::new();
        for _ in 0..4 {
            let mv = game.legal_moves()[0];
            game.play(mv).expect("listed");
            moves.push(mv);
        }
        let choice = |m: Move| Choice { text: m.to_string(), moves: serde_json::Value::Null };
        let decisions: Vec<Decision> = moves
            .iter()
            .enumerate()
            .map(|(i, &m)| Decision {
                index: i + 1,
                turn: 1,
                player: 0,
                kind: "die 0".into(),
                played: choice(m),
                best: choice(m),
                value_before: 10.0,
                value_after: if i == 2 { 8.0 } else { 10.0 },
                best_value_after: 10.0,
                loss: if i == 2 { 2.0 } else { 0.0 },
                proven: true,
                ranges: None,
                label: None,
                fair_play: None,
                details: serde_json::Value::Null,
            })
            .collect();
        let measure = Measure {
            name: "v".into(),
            unit: "points".into(),
            better: Better::Higher,
            assumes: String::new(),
            thresholds: signalbox_solver::coe::analysis::THRESHOLDS,
        };
        let review = Review::new("coe", "t".into(), vec!["player".into()], measure, decisions);
        let boards = turning_boards(&catalogue, &instance, Rules::default(), &moves, &review, &moves);
        assert_eq!(boards.len(), 1);
        for b in [&boards[0].before, &boards[0].played, &boards[0].best] {
            assert!(b.svg.starts_with("<svg") && b.svg.trim_end().ends_with("</svg>"), "{}", &b.svg[..60]);
            assert!(!b.svg.contains("<?xml") && !b.svg.contains(" id="));
            assert!(b.svg.contains("fill=\"white\""), "an opaque background");
        }
    }
}
