//! Named options for the rulings where players could reasonably differ
//! (`docs/rules/railways-express.md`).

use serde::{Deserialize, Serialize};

pub use super::track::Curve;

/// The rule options of a game. Defaults are the rulings' first choices.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Ruling G1: which sides a curved tile joins.
    pub curve: Curve,
    /// Ruling B1: whether track may be built out of a gray city the player has linked (its
    /// second connection there), not only out of the player's own cities.
    pub gray_exits: GrayExits,
    /// The optional Service Bounty deck (rulebook: Rules for Cards).
    pub service_bounties: bool,
}

/// Whether a gray city the player has linked lets their track go on from it (ruling B1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GrayExits {
    /// Yes: a linked gray city is entered and left, two connections in all (default).
    #[default]
    Allowed,
    /// No: only the player's own linked cities start new track.
    OwnCitiesOnly,
}
