//! Railways Express: the fewest tiles that link a player's cities ([`link`]).

pub mod link;
pub mod policy;
