//! Railways Express: a dice-driven race to link one's four cities with track on a hex map, for
//! 2 to 4 players (`shared/rulebooks/railways-express.txt`; rulings in
//! `docs/rules/railways-express.md`).
//!
//! The components come from a content file ([`catalogue`]); the embedded house map is
//! signalbox's own, not the publisher's. [`game::Game`] is the state machine: a turn is a list of
//! [`game::Action`]s, each checked against every rule.

pub mod catalogue;
pub mod colour;
pub mod dice;
pub mod game;
pub mod options;
pub mod position;
pub mod record;
pub mod terrain;
pub mod track;
