//! Drawing Cube Express: the network after a planned turn or a solitaire line.

pub mod picture;
