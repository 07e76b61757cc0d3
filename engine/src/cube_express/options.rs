//! Named options for the rulings where players could reasonably differ
//! (`docs/rules/cube-express.md`).

use serde::{Deserialize, Serialize};

/// What may pay for a train station (ruling T1; the rulebook's list of sources is cut off).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StationPayment {
    /// Dividends and resources, mixed at will (default).
    #[default]
    DividendsAndResources,
    /// Dividends only.
    DividendsOnly,
}

/// Whether passengers are played (ruling P1; the rulebook scores them but never says how they
/// are placed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Passengers {
    /// A locomotive entering a tile of a city with a station may place one passenger there from
    /// the reserve, while the city holds fewer passengers than it has house icons (default).
    #[default]
    StationCities,
    /// No passengers.
    Off,
}

/// How many tracks a crossing pays for (ruling C1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CrossingDividends {
    /// Every track on the tile: all run into the crossing (default).
    #[default]
    AllTracks,
    /// Only tracks that join a neighbouring tile when it is laid.
    JoinedTracks,
}

/// The rule options of a game. Defaults are the rulings' first choices.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Ruling T1.
    pub station_payment: StationPayment,
    /// Ruling P1.
    pub passengers: Passengers,
    /// Ruling C1.
    pub crossing_dividends: CrossingDividends,
}
