//! The three resources and a player's storage (rulebook, "What a Cube Can Be"), and the four
//! conversions on the player board ("anytime during their turn").

use std::fmt;

use serde::{Deserialize, Serialize};

/// A resource: a cube in one of the three storage areas.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Resource {
    /// Coal: also 1 extra movement point per cube spent.
    Coal,
    /// Wood.
    Wood,
    /// Iron.
    Iron,
}

impl Resource {
    /// The three resources.
    pub const ALL: [Resource; 3] = [Resource::Coal, Resource::Wood, Resource::Iron];

    /// The resource's name in lower case.
    pub const fn name(self) -> &'static str {
        match self {
            Resource::Coal => "coal",
            Resource::Wood => "wood",
            Resource::Iron => "iron",
        }
    }
}

impl fmt::Display for Resource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Counts of coal, wood and iron: a storage, a delivery's needs, a discard.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Resources {
    /// Coal.
    #[serde(default)]
    pub coal: u8,
    /// Wood.
    #[serde(default)]
    pub wood: u8,
    /// Iron.
    #[serde(default)]
    pub iron: u8,
}

impl Resources {
    /// No resources.
    pub const NONE: Resources = Resources { coal: 0, wood: 0, iron: 0 };

    /// One cube of `r`.
    pub fn one(r: Resource) -> Resources {
        let mut x = Resources::NONE;
        *x.get_mut(r) = 1;
        x
    }

    /// The count of `r`.
    pub const fn get(&self, r: Resource) -> u8 {
        match r {
            Resource::Coal => self.coal,
            Resource::Wood => self.wood,
            Resource::Iron => self.iron,
        }
    }

    /// The count of `r`, to change.
    pub fn get_mut(&mut self, r: Resource) -> &mut u8 {
        match r {
            Resource::Coal => &mut self.coal,
            Resource::Wood => &mut self.wood,
            Resource::Iron => &mut self.iron,
        }
    }

    /// All cubes.
    pub const fn total(&self) -> u8 {
        self.coal + self.wood + self.iron
    }

    /// Whether every count of `other` is at most this one's.
    pub const fn covers(&self, other: &Resources) -> bool {
        self.coal >= other.coal && self.wood >= other.wood && self.iron >= other.iron
    }

    /// These counts less `other`'s, or `None` where one would go below zero.
    pub fn minus(&self, other: &Resources) -> Option<Resources> {
        Some(Resources {
            coal: self.coal.checked_sub(other.coal)?,
            wood: self.wood.checked_sub(other.wood)?,
            iron: self.iron.checked_sub(other.iron)?,
        })
    }
}

impl fmt::Display for Resources {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> =
            Resource::ALL.iter().filter(|&&r| self.get(r) > 0).map(|&r| format!("{} {r}", self.get(r))).collect();
        if parts.is_empty() { f.write_str("nothing") } else { f.write_str(&parts.join(", ")) }
    }
}

/// A conversion printed on the player board, "as indicated by the arrows".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Conversion {
    /// 2 coal into 1 wood, the other cube to the reserve.
    CoalToWood,
    /// 2 wood into 1 iron, the other cube to the reserve.
    WoodToIron,
    /// 2 iron into 1 wood and 1 dividend.
    IronToWood,
    /// 2 wood into 1 coal and 1 dividend.
    WoodToCoal,
}

impl Conversion {
    /// The four conversions.
    pub const ALL: [Conversion; 4] =
        [Conversion::CoalToWood, Conversion::WoodToIron, Conversion::IronToWood, Conversion::WoodToCoal];

    /// What it takes (2 cubes of one resource), what it gives, and whether a dividend comes too.
    pub const fn recipe(self) -> (Resource, Resource, bool) {
        match self {
            Conversion::CoalToWood => (Resource::Coal, Resource::Wood, false),
            Conversion::WoodToIron => (Resource::Wood, Resource::Iron, false),
            Conversion::IronToWood => (Resource::Iron, Resource::Wood, true),
            Conversion::WoodToCoal => (Resource::Wood, Resource::Coal, true),
        }
    }
}

impl fmt::Display for Conversion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (from, to, dividend) = self.recipe();
        write!(f, "2 {from} into 1 {to}{}", if dividend { " and 1 dividend" } else { "" })
    }
}
