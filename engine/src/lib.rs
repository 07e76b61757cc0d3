//! The rules of the signalbox games as pure data and state machines.
//!
//! One module per game. Each module holds the component catalogue (with the embedded house set),
//! positions and their validation, and the scoring rules. Search lives in `signalbox-solver`.
#![forbid(unsafe_code)]

pub mod coe;
pub mod cube_express;
pub mod express01;
pub mod grid;
pub mod railways;
pub mod set;
pub mod source;
