//! Search and optimisation for the signalbox games, on top of `signalbox-engine`.
//!
//! Every exact answer comes with a certificate that the engine checks on its own.
#![forbid(unsafe_code)]

pub mod analysis;
pub mod coe;
pub mod cube_express;
pub mod express01;
pub mod railways;
pub mod stop;
pub mod threads;
