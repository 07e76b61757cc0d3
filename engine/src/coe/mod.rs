//! The Cubes of Europe: the solo dice game of placing cubes on a map of Europe.
//!
//! - [`colour`]: the five cube colours.
//! - [`card`]: the double-sided cards: board and market sides, yellow effects.
//! - [`catalogue`]: the card set (TOML) and the embedded house set.
//! - [`instance`]: what a seed fixes: board card, deck order, reshuffle order, dice.
//! - [`game`]: the rules as a state machine: legal moves, checked and fast play, scoring.
//! - [`record`]: game records (JSON) that the engine replays and re-scores.
//! - [`stack`]: small inline stacks for the card piles and pending choices.
//! - [`words`]: moves read from the words the text output prints.

pub mod card;
pub mod catalogue;
pub mod colour;
pub mod game;
pub mod instance;
pub mod record;
pub mod stack;
pub mod words;

pub use card::{Board, Card, Effect, Market, Square};
pub use catalogue::{Catalogue, ContentError, ContentProblem};
pub use colour::Colour;
pub use game::{Chance, Game, IllegalMove, Move, Refusal, Rules, Score, card_name, dice_words, die_name, rank_of};
pub use instance::{Instance, Seen};
pub use record::{Record, ReplayError};
