//! Cube Express: the best turn for the player to move, by integer programming over the
//! locomotives' movements, pickups, deliveries and trades, with the tile choice enumerated around
//! it; a brute-force enumerator as its reference; and solitaire planning over several turns.

pub mod enumerate;
pub mod lp;
pub mod model;
pub mod naive;
pub mod plan;
pub mod search;
pub mod solo;
pub mod value;
