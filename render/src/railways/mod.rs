//! Drawing Railways Express: the hex map, the track built, a link plan and advised builds.

pub mod picture;
