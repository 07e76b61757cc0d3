//! Drawing The Cubes of Europe: the board after a line of play, and the boards of a review.

pub mod market;
pub mod picture;
pub mod review;
