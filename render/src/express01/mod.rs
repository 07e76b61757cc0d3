//! Drawing Express 01: the cards, tracks and stations of a board, and a bonus route.

pub mod picture;
