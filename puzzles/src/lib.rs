//! Puzzle collections of the signalbox games, built on `signalbox-engine` and `signalbox-solver`.
//!
//! A puzzle is a position and a question with exactly one answer, and the proof of it: the
//! solver's best value, the runner-up's value and the margin between them. Every puzzle comes from
//! a candidate number, so a collection is made again from its seed, byte for byte, on any number
//! of threads ([`collection::make`]); every puzzle file is solved again and checked by
//! [`collection::check`], so a file edited by hand (a wrong answer, a position where two answers
//! tie) is caught and named.
//!
//! Each kind of puzzle ([`Kind`]) lives in its game's folder; [`kinds`] lists them all.

pub mod book;
pub mod coe;
pub mod collection;
pub mod cube_express;
pub mod express01;
pub mod kind;
pub mod puzzle;
pub mod railways;

pub use kind::{Kind, Theme, find, kinds, of_game};
pub use puzzle::{Answer, Attempt, Difficulty, Grade, Proof, Puzzle, PuzzleError, Solved, Verdict};
