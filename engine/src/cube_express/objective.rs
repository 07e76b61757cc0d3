//! Objective cards (rulebook, "III. Market" and "Final Scoring"): a text and a condition the
//! engine checks for each player at final scoring.

use std::fmt;

use serde::{Deserialize, Serialize};

/// What an objective counts. A player achieves the objective with at least `at_least` of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Measure {
    /// Train stations on the map (the start station counts).
    Stations,
    /// Technology level.
    Technology,
    /// Production facilities owned.
    Facilities,
    /// Different resources among the production facilities owned.
    FacilityResources,
    /// Different factories delivered to.
    Factories,
    /// First (A) factory spaces held.
    FirstDeliveries,
    /// Deliveries made (cubes on factories).
    Deliveries,
    /// Passengers placed.
    Passengers,
    /// House icons in the cities of the player's stations.
    Houses,
    /// Stock value (the space of the disc).
    Stock,
    /// Cubes in the dividend area.
    Dividends,
    /// Locomotives (2 once the second is built).
    Locomotives,
    /// Crossing tiles the player played front side up.
    Crossings,
    /// Resources in storage.
    Resources,
}

impl Measure {
    /// Every measure.
    pub const ALL: [Measure; 14] = [
        Measure::Stations,
        Measure::Technology,
        Measure::Facilities,
        Measure::FacilityResources,
        Measure::Factories,
        Measure::FirstDeliveries,
        Measure::Deliveries,
        Measure::Passengers,
        Measure::Houses,
        Measure::Stock,
        Measure::Dividends,
        Measure::Locomotives,
        Measure::Crossings,
        Measure::Resources,
    ];
}

/// An objective's condition: at least `at_least` of `kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    /// What is counted.
    pub kind: Measure,
    /// The least count that achieves the objective.
    pub at_least: u16,
}

/// One of the 14 objective cards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Objective {
    /// 1 to 14.
    pub id: u8,
    /// Display name.
    pub name: String,
    /// The card's text.
    pub text: String,
    /// What the engine checks.
    pub condition: Condition,
}

impl fmt::Display for Objective {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.name, self.text)
    }
}
