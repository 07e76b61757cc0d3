//! Cube Express: tile laying, locomotives and cube economics for 2 to 4 players
//! (`shared/rulebooks/cube-express.txt`; rulings in `docs/rules/cube-express.md`).
//!
//! The components come from a content file ([`catalogue`]); the embedded house set is signalbox's
//! own, not the publisher's. [`game::Game`] is the state machine: a turn is a list of
//! [`action::Action`]s, each checked against every rule.

pub mod action;
pub mod board;
pub mod catalogue;
pub mod colour;
pub mod describe;
pub mod game;
pub mod objective;
pub mod options;
pub mod position;
pub mod resource;
pub mod score;
pub mod table;
mod tagged;
pub mod tile;
pub mod words;
