//! Express 01: the card game of railway networks in Germany and the USA.
//!
//! - [`side`]: card sides, track endpoints, tracks.
//! - [`card`]: card faces.
//! - [`map`]: the maps (base card layout, what lies beyond the edges).
//! - [`catalogue`]: the content file (TOML) and the embedded house set.
//! - [`position`]: positions (JSON) and their validation.
//! - [`network`]: the track network as a graph.
//! - [`route`]: bonus routes: rules, certificate check, payout.
//! - [`payout`]: handing out a bonus payment.
//! - [`setup`]: a new game from a seed.
//! - [`capital`]: a player's capital (government aid, the winner).
//! - [`expand`]: one upgrade of "A) Expand the Network", checked.
//! - [`round`]: turn order cards, the government aid's receiver, the end conditions.

pub mod capital;
pub mod card;
pub mod catalogue;
pub mod expand;
pub mod game;
pub mod map;
pub mod network;
pub mod notation;
pub mod payout;
pub mod position;
pub mod record;
pub mod round;
pub mod route;
pub mod setup;
pub mod side;

pub use capital::{Capital, capital, stations_of};
pub use card::{Card, CardKind, CardNumber, CompanyId, Stage, Station};
pub use catalogue::{Catalogue, ContentError, ContentProblem};
pub use game::{Action, Budget, Build, Game, GameError, Pair, Phase, Referee, Source, Spend, StepError};
pub use map::{Beyond, Map};
pub use network::{NetCell, Network, StationRef};
pub use payout::{Holder, distribute, payment_order};
pub use position::{Payment, Position, PositionError, PositionProblem, PositionSetup};
pub use route::{LengthRule, Route, RouteError, RouteRules, RouteScore, RouteTask, Step};
pub use setup::{SetupError, new_game};
pub use side::{Endpoint, Side, Track};
