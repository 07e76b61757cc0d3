//! Express 01 puzzles.
//!
//! - [`route`]: `express01-route`, the best bonus route: a built board, a company and its
//!   route length; the route the rules require (rulebook, "C) Initiate One Bonus Payment":
//!   "You have to choose the route that grants the highest possible bonus payment").

pub mod route;

pub use route::BestRoute;
