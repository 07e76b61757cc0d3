//! A played game as the analysis board (`signalbox serve`) walks it: the list of its steps (moves
//! and chance events, in the words of each game's record format), the legal choices at a step,
//! and a review placed on those steps. These are the answers the board's server sends; every
//! game fills them from its own engine and draws its boards with its own pictures.

use serde::{Deserialize, Serialize};
use signalbox_solver::analysis::Review;

/// One step of a game: a player's move or a chance event (a roll, a card turned up), as the move
/// list shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// The turn the step belongs to, from 1.
    pub turn: usize,
    /// The player who chose it, by name; for a chance event, the player it happened to.
    pub player: String,
    /// The step in the words of the game's record format (the CLI's readable form), so that the
    /// same words typed at `play` enter it.
    pub text: String,
    /// A chance event (dice rolled, a card drawn or turned up), not a player's choice.
    pub chance: bool,
}

/// The whole of an open game: what it is, who plays, and its steps in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Walk {
    /// The game's command name (`express01`, `coe`, `cube-express`, `railways`).
    pub game: String,
    /// A title for the game (the record's name, the seed).
    pub title: String,
    /// The players' names by seat.
    pub players: Vec<String>,
    /// Every step of the record, in the order played.
    pub steps: Vec<Step>,
    /// Where the record ends, in words: whose turn it is and what they decide next, or the
    /// result when the game is over.
    pub next: String,
}

/// A move or a chance event that may be entered at a position: legal by the engine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Choice {
    /// The group it is shown in (the kind of move, or the element of the board it uses: a hex,
    /// a cell, a card, a die).
    pub group: String,
    /// The move in the words of the game's record format; entering these words plays it.
    pub text: String,
    /// A chance event (the dice as they fell, the card drawn), not a player's choice.
    pub chance: bool,
}

/// Where a reviewed decision lies on the walk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DecisionAt {
    /// The step whose board is the position before the decision.
    pub before: usize,
    /// The step whose board is the position after the move played.
    pub after: usize,
}

/// A review (as `analyse --json` prints it) with each decision placed on the walk, in the
/// review's order of decisions.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Reviewed {
    /// The review, the same as `analyse --json` prints.
    pub review: Review,
    /// Where each decision of the review lies on the walk.
    pub at: Vec<DecisionAt>,
}
