//! The Cubes of Europe: the best score of a seed.
//!
//! - [`advice`]: the answer of `coe advise`, every use of a roll valued.
//! - [`analysis`]: the review of a played game, decision by decision; the sample game.
//! - [`bound`]: an admissible upper bound on the final score from a position (a relaxed game).
//! - [`exact`]: the exact best score by dynamic programming over turn-start positions, for
//!   shortened games; and every outcome of a turn.
//! - [`search`]: the proven best score of a whole game, with its line: beam search for a first
//!   line, then branch and bound over turn positions on threads, then the canonical line.
//! - [`fair`]: the fair-play value: the expected final score under the best play without
//!   knowing the future dice and cards; exact near the end, estimated by playouts before.
//! - [`standing`]: where a seed's score stands against its maximum and the fair player's games.
//! - [`naive`]: a deliberately naive search over every line of play (no pruning, no table, its
//!   moves every move a record can write that the rules allow, not the engine's move list), the
//!   reference the solver is tested against on shortened games.

pub mod advice;
pub mod analysis;
pub mod bound;
pub mod exact;
pub mod fair;
pub mod fair_naive;
pub mod naive;
pub mod search;
pub mod standing;
