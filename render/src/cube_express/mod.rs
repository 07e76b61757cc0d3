//! Drawing Cube Express: the network after a planned turn or a solitaire line, and the boards of
//! a review's turning points.

pub mod picture;
pub mod review;
