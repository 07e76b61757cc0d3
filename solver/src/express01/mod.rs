//! Express 01: the optimal bonus route, the whole game's best turn and last round, and the review of a game.
//!
//! - [`advice`]: the answer of `express01 advise`, the best turn and the last round.
//! - [`hops`]: the station graph: the fewest cards from a station to each other station.
//! - [`route`]: the exact route search (branch and bound, rayon across start stations).
//! - [`naive`]: a deliberately naive enumerator of every walk, the reference the search is
//!   tested and benchmarked against.
//! - [`naive_game`]: the legal steps of a whole game by brute force, the reference
//!   `Game::legal` is tested and benchmarked against.
//! - [`last_round`]: the exact last round of a game (max^n or paranoid), and
//!   [`naive_round`], the plain max^n over every legal step it is tested against.
//! - [`expected`]: exact expected capitals over the cards nobody has seen (a game from the
//!   table).
//! - [`selfplay`]: whole games played by a built-in policy.
//! - [`game_positions`]: turn starts of self-played games, cut down for naive searches.
//! - [`turn`]: the best turn of a whole game by a stated evaluation, exact, and its naive
//!   reference.
//! - [`analysis`]: the review of a played game, turn by turn, and the sample game.
//! - [`instances`]: random boards for tests and benchmarks: house-set boards and synthetic
//!   track networks.

pub mod advice;
pub mod analysis;
pub mod expected;
pub mod game_positions;
pub mod hops;
pub mod instances;
pub mod last_round;
pub mod naive;
pub mod naive_game;
pub mod naive_round;
pub mod route;
pub mod selfplay;
pub mod station_set;
pub mod turn;
mod turn_bound;
mod turn_expand;

pub use route::{RouteAnswer, RouteSolution, SearchOptions, best_routes};
