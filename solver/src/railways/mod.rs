//! Railways Express: the fewest tiles that link a player's cities ([`link`]), a player that
//! follows its plan ([`policy`]), and win chances by simulation ([`odds`]).

pub mod link;
pub mod odds;
pub mod policy;
pub mod race;
pub mod reference;
pub mod roll;
