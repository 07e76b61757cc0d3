//! A collection as a printable book (drawn by `signalbox-render`'s book page): each puzzle's
//! board and question by difficulty, then the answer key with each answer drawn.

use signalbox_render::book::{Book, BookPuzzle};
use signalbox_solver::analysis::Better;

use crate::collection::Collection;
use crate::kind::find;
use crate::puzzle::{Difficulty, Puzzle, PuzzleError, amount, number};

/// The proof of a puzzle in a line: the best value and the runner-up's.
pub fn proof_line(puzzle: &Puzzle, unit: &str, better: Better) -> String {
    let best = format!("Best: {}", amount(puzzle.proof.best, unit));
    match (puzzle.proof.runner_up, puzzle.proof.margin) {
        (Some(r), Some(m)) => format!(
            "{best}; every other answer {} {} at best ({} {}).",
            if better == Better::Higher { "reaches" } else { "needs" },
            number(r),
            amount(m, unit),
            if better == Better::Higher { "less" } else { "more" }
        ),
        _ => format!("{best}; no other answer is legal."),
    }
}

/// The grade of a puzzle in a line: the difficulty, the rating and its factors.
pub fn grade_line(puzzle: &Puzzle) -> String {
    let factors: Vec<String> =
        puzzle.grade.factors.iter().map(|(k, v)| format!("{} {}", k.replace('_', " "), number(*v))).collect();
    format!("{}, rating {} ({})", puzzle.grade.difficulty, number(puzzle.grade.rating), factors.join(", "))
}

/// The book of a collection, titled `title` (default: the puzzle kind's title).
pub fn book(collection: &Collection, title: Option<&str>) -> Result<Book, PuzzleError> {
    let m = &collection.manifest;
    let kind = find(&m.kind)?;
    let mut puzzles = Vec::with_capacity(collection.puzzles.len());
    for p in &collection.puzzles {
        puzzles.push(BookPuzzle {
            id: p.id.clone(),
            difficulty: p.grade.difficulty.name().to_string(),
            question: p.question.clone(),
            board: kind.picture(&p.position, None)?,
            answer: p.answer.text.clone(),
            answer_board: kind.picture(&p.position, Some(&p.answer))?,
            proof: proof_line(p, kind.unit(), kind.better()),
            grade: grade_line(p),
            themes: p.themes.clone(),
        });
    }
    Ok(Book {
        game: kind.game().to_string(),
        title: title.map_or_else(|| kind.title().to_string(), str::to_owned),
        intro: vec![
            format!(
                "Each puzzle has exactly one answer: the solver searched every other distinct answer, and \
                 each falls short of it by at least {}.",
                amount(m.margin, kind.unit())
            ),
            format!(
                "The puzzles are graded easy, medium or hard: a puzzle is harder when the simple technique \
                 ({}) misses its answer, when other answers come close to it, and when the answer is longer. \
                 The rating's formula is in docs/formats/puzzles.md; the answer key gives each puzzle's grade.",
                kind.simple_technique()
            ),
            "To check an answer of your own: signalbox puzzles try PUZZLE.json \"ANSWER\", in the words the \
             answer key uses."
                .to_string(),
        ],
        themes: kind.themes().iter().map(|t| (t.name.to_string(), t.description.to_string())).collect(),
        command: m.command.clone(),
        chapters: Difficulty::ALL.iter().map(|d| d.name().to_string()).collect(),
        puzzles,
    })
}
