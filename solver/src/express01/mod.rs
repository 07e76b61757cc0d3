//! Express 01: the optimal bonus route.
//!
//! - [`hops`]: the station graph: the fewest cards from a station to each other station.
//! - [`route`]: the exact route search (branch and bound, rayon across start stations).
//! - [`naive`]: a deliberately naive enumerator of every walk, the reference the search is
//!   tested and benchmarked against.
//! - [`naive_game`]: the legal steps of a whole game by brute force, the reference
//!   `Game::legal` is tested and benchmarked against.
//! - [`selfplay`]: whole games played by a built-in policy.
//! - [`analysis`]: the review of a played game, turn by turn, and the sample game.
//! - [`turn_within`]: the best-turn search stopped after a number of states (the same answer on
//!   every machine).
//! - [`instances`]: random boards for tests and benchmarks: house-set boards and synthetic
//!   track networks.

pub mod analysis;
pub mod hops;
pub mod instances;
pub mod naive;
pub mod naive_game;
pub mod route;
pub mod selfplay;
pub mod station_set;
pub mod turn;
pub mod turn_within;

pub use route::{RouteAnswer, RouteSolution, SearchOptions, best_routes};
