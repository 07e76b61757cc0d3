//! One puzzle as its file holds it (`docs/formats/puzzles.md`), what a solver says of a position,
//! and what a player's answer is worth.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

/// The puzzle file format's version; a file of another version is refused with its number.
pub const FORMAT: u32 = 1;

/// How hard a puzzle is, as its kind grades it from what the solver needed (never from a guess).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Difficulty {
    /// Found by the simple technique the kind names (a greedy walk, a one-step look).
    Easy,
    /// Between the two.
    Medium,
    /// Needs the full search: close alternatives, long lines, much search work.
    Hard,
}

impl Difficulty {
    /// All three, easiest first (the order of a book's chapters).
    pub const ALL: [Difficulty; 3] = [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard];

    /// The word used on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        }
    }

    /// Parses `easy`, `medium` or `hard`.
    pub fn parse(text: &str) -> Option<Difficulty> {
        Difficulty::ALL.into_iter().find(|d| d.name() == text.trim())
    }

    /// The difficulty of a rating on a kind's scale: below `medium` easy, below `hard` medium,
    /// else hard.
    pub fn of_rating(rating: f64, medium: f64, hard: f64) -> Difficulty {
        if rating < medium {
            Difficulty::Easy
        } else if rating < hard {
            Difficulty::Medium
        } else {
            Difficulty::Hard
        }
    }
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The grade of a puzzle: its difficulty, the rating it came from, and the factors the rating
/// was computed from (each kind documents its own).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Grade {
    /// The difficulty, from the rating by the kind's thresholds.
    pub difficulty: Difficulty,
    /// The rating: larger is harder; each kind states its scale and thresholds.
    pub rating: f64,
    /// The factors by name (for example "decisions", "routes_within_one", "greedy_finds"), as
    /// numbers (a yes/no factor is 1 or 0).
    pub factors: BTreeMap<String, f64>,
}

/// The answer of a puzzle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    /// The answer in words, exactly as `puzzles try` accepts it from a player.
    pub text: String,
    /// The answer in the game's own format (a route, a move line, a turn's actions, a plan).
    pub moves: serde_json::Value,
}

/// What proves the answer unique: the best value, the best value of every other distinct answer,
/// and the search work it took.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Proof {
    /// The answer's value, in the kind's unit.
    pub best: f64,
    /// The best value of any other distinct answer, or `None` where there is no other answer.
    pub runner_up: Option<f64>,
    /// How much better the answer is than the runner-up (in the kind's direction: positive when
    /// the answer is better); `None` where there is no runner-up.
    pub margin: Option<f64>,
    /// The search work of the proof in a count that is the same on every machine (nodes, routes
    /// or plans looked at), never a time.
    pub work: u64,
    /// Whatever else the kind's proof keeps (for example the decisions of a line that are free).
    #[serde(default, skip_serializing_if = "serde_json::Value::is_null")]
    pub details: serde_json::Value,
}

impl Proof {
    /// Whether another distinct answer reaches the best value too (a margin of 0): not unique.
    pub fn tied(&self) -> bool {
        self.margin.is_some_and(|m| m.abs() < 1e-9)
    }

    /// Whether the answer beats every other by at least `margin` (always true with no runner-up).
    pub fn clear_by(&self, margin: f64) -> bool {
        self.margin.is_none_or(|m| m + 1e-9 >= margin)
    }
}

/// What a kind's solver says of a position: the answer, its proof, its grade and its themes.
/// Making a puzzle and checking one both compute this, from the position alone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Solved {
    /// The best answer.
    pub answer: Answer,
    /// Its proof of uniqueness.
    pub proof: Proof,
    /// Its grade.
    pub grade: Grade,
    /// The themes detected from the answer, by the kind's names, sorted.
    pub themes: Vec<String>,
}

/// One puzzle file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Puzzle {
    /// The format version ([`FORMAT`]).
    pub format: u32,
    /// The puzzle's id: its kind and candidate number (`coe-max-1234567`); `puzzles show ID`
    /// makes it again from the id alone.
    pub id: String,
    /// The game (`express01`, `coe`, `cube-express`, `railways`).
    pub game: String,
    /// The kind ([`crate::Kind::name`]).
    pub kind: String,
    /// The candidate number the position was made from.
    pub candidate: u64,
    /// The margin the answer must clear over every other distinct answer (in the kind's unit).
    pub margin: f64,
    /// The question, in words.
    pub question: String,
    /// The position in the game's own format (what the kind's solver reads).
    pub position: serde_json::Value,
    /// The answer.
    pub answer: Answer,
    /// The grade.
    pub grade: Grade,
    /// The themes, sorted.
    pub themes: Vec<String>,
    /// The proof of uniqueness.
    pub proof: Proof,
}

/// How a player's answer compares with the best.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// The answer is the puzzle's answer.
    Solved,
    /// A legal answer that is worse than the best by `loss`.
    Short {
        /// How much worse, in the kind's unit (never negative).
        loss: f64,
    },
    /// Not a legal answer; `reason` says which rule it breaks.
    Illegal {
        /// The rule broken, in words.
        reason: String,
    },
}

/// A player's answer, scored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Attempt {
    /// The verdict (in JSON its fields sit beside the others: `"verdict": "short", "loss": 2`).
    #[serde(flatten)]
    pub verdict: Verdict,
    /// The answer's value where it is legal.
    pub value: Option<f64>,
    /// The best value.
    pub best: f64,
    /// The answer as the kind understood it, in words.
    pub understood: String,
}

impl Attempt {
    /// Whether the answer solves the puzzle.
    pub fn solved(&self) -> bool {
        matches!(self.verdict, Verdict::Solved)
    }

    /// The verdict in words, values in `unit`: solved and by how much, short of the best by how
    /// much, or not legal and why (as `signalbox puzzles try` prints it).
    pub fn verdict_words(&self, unit: &str) -> String {
        match &self.verdict {
            Verdict::Solved => format!("solved: {}, the best", amount(self.best, unit)),
            Verdict::Short { loss } => format!(
                "not the answer: {} against the best {} ({} short)",
                self.value.map_or("?".to_string(), |v| amount(v, unit)),
                number(self.best),
                amount(*loss, unit)
            ),
            Verdict::Illegal { reason } => format!("not legal: {reason}"),
        }
    }
}

/// What can go wrong with a puzzle or a puzzle file.
#[derive(Debug, thiserror::Error)]
pub enum PuzzleError {
    /// The position in a puzzle file does not describe a legal position of its game.
    #[error("the position: {0}")]
    Position(String),
    /// A player's answer cannot be read.
    #[error("the answer: {0}")]
    Answer(String),
    /// No kind of that name.
    #[error("no puzzle kind {0:?}; the kinds are {1}")]
    UnknownKind(String, String),
    /// A file could not be read or written.
    #[error("{path}: {message}")]
    File {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// The position is legal but holds no puzzle of the kind (nothing to find); a candidate of
    /// such a position is passed over, and a puzzle file of one fails the check.
    #[error("no puzzle here: {0}")]
    Unfit(String),
    /// The solver could not answer (a limit was hit).
    #[error("the solver: {0}")]
    Solver(String),
}

/// The problems `puzzles check` finds in one puzzle, compared with a fresh solve of its position.
pub fn differences(puzzle: &Puzzle, fresh: &Solved, margin: f64) -> Vec<String> {
    let mut problems = Vec::new();
    if !fresh.proof.clear_by(margin) {
        match (fresh.proof.runner_up, fresh.proof.margin) {
            (Some(r), Some(_)) if fresh.proof.tied() => {
                problems.push(format!("not unique: another answer also reaches {}", number(r)))
            }
            (Some(r), _) => problems.push(format!(
                "not clear: the runner-up reaches {} against the best {}, a margin under {}",
                number(r),
                number(fresh.proof.best),
                number(margin)
            )),
            _ => problems.push("not unique".to_string()),
        }
    }
    if puzzle.answer.text != fresh.answer.text || puzzle.answer.moves != fresh.answer.moves {
        problems.push(format!("the answer is {:?}, the solver's is {:?}", puzzle.answer.text, fresh.answer.text));
    }
    if puzzle.proof != fresh.proof {
        problems.push(format!(
            "the proof differs: the file says best {} runner-up {}, the solver {} and {}",
            number(puzzle.proof.best),
            puzzle.proof.runner_up.map_or("none".into(), number),
            number(fresh.proof.best),
            fresh.proof.runner_up.map_or("none".into(), number)
        ));
    }
    if puzzle.grade != fresh.grade {
        problems.push(format!(
            "the grade is {} (rating {}), the solver's is {} (rating {})",
            puzzle.grade.difficulty,
            number(puzzle.grade.rating),
            fresh.grade.difficulty,
            number(fresh.grade.rating)
        ));
    }
    if puzzle.themes != fresh.themes {
        problems.push(format!("the themes are {:?}, the solver's are {:?}", puzzle.themes, fresh.themes));
    }
    problems
}

/// A number as text: an integer without decimals, otherwise three (the reviews' formatting).
pub use signalbox_solver::analysis::number;

/// An amount with its unit, the unit in the singular for exactly one ("1 point", "2 points",
/// "1 tile still needed"): the first word of the unit ending in `s` loses it.
pub fn amount(x: f64, unit: &str) -> String {
    if (x - 1.0).abs() > 1e-9 {
        return format!("{} {unit}", number(x));
    }
    let mut done = false;
    let words: Vec<String> = unit
        .split(' ')
        .map(|w| match w.strip_suffix('s') {
            Some(one) if !done => {
                done = true;
                one.to_string()
            }
            _ => w.to_string(),
        })
        .collect();
    format!("1 {}", words.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_of_a_unit_is_singular() {
        assert_eq!(amount(1.0, "value points"), "1 value point");
        assert_eq!(amount(1.0, "tiles still needed"), "1 tile still needed");
        assert_eq!(amount(2.0, "points"), "2 points");
        assert_eq!(amount(0.5, "points"), "0.500 points");
    }
}
