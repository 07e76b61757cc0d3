//! Drawing Railways Express: the hex map, the track built, a link plan and advised builds, and
//! the boards of a review's turning points.

pub mod picture;
pub mod review;
