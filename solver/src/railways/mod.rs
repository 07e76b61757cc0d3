//! Railways Express: the fewest tiles that link a player's cities ([`link`], checked against
//! [`reference`]), the expected turns to build a plan under the dice ([`race`]), the best use of
//! a roll ([`roll`]), a player that plays by them ([`policy`]), and win chances by simulation
//! ([`odds`]); and the review of a played game turn by turn ([`analysis`]).

pub mod advice;
pub mod analysis;
pub mod link;
pub mod odds;
pub mod policy;
pub mod race;
pub mod reference;
pub mod roll;
pub mod supply;
