//! What a kind of puzzle is: how a candidate position is made, solved, graded, drawn and how a
//! player's answer is scored. Each kind lives in its game's folder; [`kinds`] lists them.

use serde_json::Value;
use signalbox_solver::analysis::Better;

use crate::puzzle::{Answer, Attempt, PuzzleError, Solved};

/// A theme a kind can detect from a puzzle's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    /// The name used in files and by `--theme` (lower case, words joined by `-`).
    pub name: &'static str,
    /// What it means, in a sentence (printed by `puzzles themes` and the book).
    pub description: &'static str,
}

/// One kind of puzzle. Everything a kind says of a position comes from the position alone (the
/// JSON a puzzle file holds), so that `puzzles check` can solve a file again and compare.
///
/// Every method must give the same result on every machine and thread count: a kind's solve runs
/// on the calling thread, and its search work is counted, not timed.
pub trait Kind: Sync {
    /// The kind's name, used in ids, files and on the command line (`coe-max`).
    fn name(&self) -> &'static str;
    /// The game, as the CLI names it (`express01`, `coe`, `cube-express`, `railways`).
    fn game(&self) -> &'static str;
    /// The kind's title in a book ("The best bonus route").
    fn title(&self) -> &'static str;
    /// What a value measures, in a word or two ("points", "tiles", "value points").
    fn unit(&self) -> &'static str;
    /// Which way a value is better.
    fn better(&self) -> Better;
    /// The margin by which the answer must beat every other distinct answer unless the maker
    /// asks for another (in the kind's unit; with whole-number values 1 means "strictly best").
    fn default_margin(&self) -> f64 {
        1.0
    }
    /// The themes this kind detects.
    fn themes(&self) -> &'static [Theme];
    /// How the kind grades, in a sentence or two for the book and the report: the factors, the
    /// rating and its thresholds.
    fn grading(&self) -> &'static str;
    /// The simple technique whose success the report sets against the grades (for example "a
    /// greedy walk"), in a few words.
    fn simple_technique(&self) -> &'static str;

    /// The candidate position numbered `candidate` (in the game's format), or why that candidate
    /// makes no position worth solving (a short reason, counted in the collection's statistics).
    fn position(&self, candidate: u64) -> Result<Value, &'static str>;
    /// The question a puzzle of this position asks, in words.
    fn question(&self, position: &Value) -> Result<String, PuzzleError>;
    /// Solves the position: the best answer, the proof of its uniqueness (the runner-up), the
    /// grade and the themes. An error means the position is not one of this kind.
    fn solve(&self, position: &Value) -> Result<Solved, PuzzleError>;
    /// Scores a player's answer (in the words of [`Answer::text`]) against the best.
    fn attempt(&self, position: &Value, answer: &str) -> Result<Attempt, PuzzleError>;
    /// Whether the kind's simple technique finds the answer of the position.
    fn simple_finds(&self, position: &Value) -> Result<bool, PuzzleError>;
    /// The position drawn as a standalone SVG, with the answer drawn on it when given.
    fn picture(&self, position: &Value, answer: Option<&Answer>) -> Result<String, PuzzleError>;
}

/// Every kind of puzzle signalbox makes.
pub fn kinds() -> Vec<&'static dyn Kind> {
    vec![
        &crate::express01::BestRoute,
        &crate::coe::CoeMax,
        &crate::cube_express::BestTurn,
        &crate::railways::link::RAILWAYS_LINK,
        &crate::railways::roll::RAILWAYS_ROLL,
    ]
}

/// The kind of that name, or an error listing the kinds.
pub fn find(name: &str) -> Result<&'static dyn Kind, PuzzleError> {
    let all = kinds();
    all.iter().copied().find(|k| k.name() == name).ok_or_else(|| {
        PuzzleError::UnknownKind(name.to_string(), all.iter().map(|k| k.name()).collect::<Vec<_>>().join(", "))
    })
}

/// The kinds of a game, by the CLI's game name.
pub fn of_game(game: &str) -> Vec<&'static dyn Kind> {
    kinds().into_iter().filter(|k| k.game() == game).collect()
}
