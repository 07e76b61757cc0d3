//! Grids the games share.

pub mod hex;
pub mod square;
