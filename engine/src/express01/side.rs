//! Card sides, track endpoints and tracks.
//!
//! Express 01 cards lie in a brick pattern (rulebook, "Setup": each row starts shifted to the
//! left), so a card touches six others: left, right, two above and two below. We name the six
//! sides like a hexagon's: `w`, `nw`, `ne`, `e`, `se`, `sw`. A card may be laid upright or turned
//! 180 degrees ("Expand the Network": "You may rotate the new card (placing it upside down)").

use std::fmt;
use std::str::FromStr;

/// One of the six sides of a card in the brick layout. Written in lower case in files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Left: the card to the left in the same row.
    W,
    /// Upper left: the left one of the two cards above.
    Nw,
    /// Upper right: the right one of the two cards above.
    Ne,
    /// Right: the card to the right in the same row.
    E,
    /// Lower right: the right one of the two cards below.
    Se,
    /// Lower left: the left one of the two cards below.
    Sw,
}

impl Side {
    /// All six sides, in clockwise order from the left.
    pub const ALL: [Side; 6] = [Side::W, Side::Nw, Side::Ne, Side::E, Side::Se, Side::Sw];

    /// The side's index in [`Side::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The side a card turned 180 degrees shows here: `w`/`e`, `nw`/`se`, `ne`/`sw` swap.
    pub fn turned(self) -> Side {
        Side::ALL[(self.index() + 3) % 6]
    }

    /// The side of the neighbouring card that faces this one across the shared border.
    pub fn facing(self) -> Side {
        self.turned()
    }

    /// The lower-case name used in files: `w`, `nw`, `ne`, `e`, `se`, `sw`.
    pub fn name(self) -> &'static str {
        ["w", "nw", "ne", "e", "se", "sw"][self.index()]
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Side {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Side::ALL
            .into_iter()
            .find(|side| side.name() == s)
            .ok_or_else(|| format!("`{s}` is not a side (expected one of w, nw, ne, e, se, sw)"))
    }
}

/// One end of a track on a card: a side, or one of the card's stations (`s1`, `s2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Endpoint {
    /// The track leaves the card through this side.
    Side(Side),
    /// The track ends at the card's station with this index (0 for `s1`, 1 for `s2`).
    Station(u8),
}

impl Endpoint {
    /// The endpoint as it lies on the board when the card is turned (or not).
    pub fn oriented(self, turned: bool) -> Endpoint {
        match self {
            Endpoint::Side(side) if turned => Endpoint::Side(side.turned()),
            other => other,
        }
    }

    /// The side, if this endpoint is one.
    pub fn side(self) -> Option<Side> {
        match self {
            Endpoint::Side(side) => Some(side),
            Endpoint::Station(_) => None,
        }
    }

    /// The station index, if this endpoint is a station.
    pub fn station(self) -> Option<u8> {
        match self {
            Endpoint::Station(index) => Some(index),
            Endpoint::Side(_) => None,
        }
    }
}

impl fmt::Display for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Endpoint::Side(side) => side.fmt(f),
            Endpoint::Station(index) => write!(f, "s{}", index + 1),
        }
    }
}

impl FromStr for Endpoint {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "s1" => Ok(Endpoint::Station(0)),
            "s2" => Ok(Endpoint::Station(1)),
            _ => s
                .parse::<Side>()
                .map(Endpoint::Side)
                .map_err(|_| format!("`{s}` is not a track endpoint (expected w, nw, ne, e, se, sw, s1 or s2)")),
        }
    }
}

/// A track printed on a card: a line joining two different endpoints. Stored with its ends in
/// order (`a < b`), so a track and its reverse are the same value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Track {
    a: Endpoint,
    b: Endpoint,
}

impl Track {
    /// The track between two endpoints, or `None` if they are the same.
    pub fn new(x: Endpoint, y: Endpoint) -> Option<Track> {
        match x.cmp(&y) {
            std::cmp::Ordering::Less => Some(Track { a: x, b: y }),
            std::cmp::Ordering::Greater => Some(Track { a: y, b: x }),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// The two ends, in order.
    pub fn ends(self) -> (Endpoint, Endpoint) {
        (self.a, self.b)
    }

    /// Whether the track touches this endpoint.
    pub fn touches(self, end: Endpoint) -> bool {
        self.a == end || self.b == end
    }

    /// The other end of the track, if `end` is one of its ends.
    pub fn other_end(self, end: Endpoint) -> Option<Endpoint> {
        if self.a == end {
            Some(self.b)
        } else if self.b == end {
            Some(self.a)
        } else {
            None
        }
    }

    /// The track as it lies on the board when its card is turned (or not).
    pub fn oriented(self, turned: bool) -> Track {
        // Both ends are different and stay different when turned.
        let (a, b) = (self.a.oriented(turned), self.b.oriented(turned));
        if a < b { Track { a, b } } else { Track { a: b, b: a } }
    }
}

impl fmt::Display for Track {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.a, self.b)
    }
}

impl FromStr for Track {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (x, y) = s
            .split_once('-')
            .ok_or_else(|| format!("`{s}` is not a track (expected two endpoints joined by `-`, like `w-e`)"))?;
        let (x, y) = (x.trim().parse::<Endpoint>()?, y.trim().parse::<Endpoint>()?);
        Track::new(x, y).ok_or_else(|| format!("track `{s}` joins an endpoint to itself"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turning_twice_is_the_identity_and_swaps_opposites() {
        for side in Side::ALL {
            assert_eq!(side.turned().turned(), side);
            assert_ne!(side.turned(), side);
        }
        assert_eq!(Side::W.turned(), Side::E);
        assert_eq!(Side::Nw.turned(), Side::Se);
        assert_eq!(Side::Ne.turned(), Side::Sw);
    }

    #[test]
    fn tracks_parse_normalise_and_turn() {
        let t: Track = "e-w".parse().unwrap();
        assert_eq!(t, "w-e".parse().unwrap());
        assert_eq!(t.oriented(true), t);
        let c: Track = "s1-nw".parse().unwrap();
        assert_eq!(c.oriented(true), "se-s1".parse().unwrap());
        assert!("w-w".parse::<Track>().is_err());
        assert!("w-x".parse::<Track>().is_err());
        assert!("we".parse::<Track>().is_err());
    }
}
