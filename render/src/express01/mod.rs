//! Drawing Express 01: the cards, tracks and stations of a board, and a bonus route (SVG), and a
//! game as terminal text.

pub mod picture;
pub mod review;
pub mod text;
