//! Grids the games share.

pub mod hex;
