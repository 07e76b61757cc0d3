//! Cube Express: the best turn for the player to move, by exact search over every legal order of
//! the turn ([`search`]), checked against a naive reference ([`naive`]); the same turn by integer
//! programming ([`model`], [`lp`], [`plan`]) with the older canonical enumerator as its reference
//! ([`enumerate`]); and solitaire planning over several turns ([`solo`]).

pub mod advice;
pub mod analysis;
pub mod enumerate;
pub mod lp;
pub mod model;
pub mod naive;
pub mod plan;
pub mod search;
pub mod solo;
pub mod value;
