//! Drawing The Cubes of Europe: the board after a line of play.

pub mod picture;
