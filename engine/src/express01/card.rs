//! Cards: numbers, kinds, stages, stations and shares (rulebook, "Components" and
//! "Cards Explanation").

use std::fmt;

use super::side::{Endpoint, Track};

/// A printed card number, shown with three digits (`009`, `101`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct CardNumber(pub u16);

impl fmt::Display for CardNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:03}", self.0)
    }
}

/// The upgrade stage of a card. Upgrades go one stage at a time: base, yellow (1st), red (2nd),
/// blue (3rd) ("Expand the Network": "You may not skip a stage"). Written in lower case in files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// A base card of the game board.
    Base,
    /// 1st stage.
    Yellow,
    /// 2nd stage.
    Red,
    /// 3rd stage.
    Blue,
}

impl Stage {
    /// The stage an upgrade of this stage must have, if any.
    pub fn next(self) -> Option<Stage> {
        match self {
            Stage::Base => Some(Stage::Yellow),
            Stage::Yellow => Some(Stage::Red),
            Stage::Red => Some(Stage::Blue),
            Stage::Blue => None,
        }
    }

    /// The name used in files.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Base => "base",
            Stage::Yellow => "yellow",
            Stage::Red => "red",
            Stage::Blue => "blue",
        }
    }
}

/// What a card is ("Components", "Cards Explanation"). Written in kebab case in files
/// (`base-route`, `terminal`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CardKind {
    /// A base card of the board that becomes a route card.
    BaseRoute,
    /// A base card of the board that becomes a station card.
    BaseStation,
    /// A route card: track, no station; may show a company engine (a share).
    Route,
    /// A terminal station: its station has exactly one track, so a train can only start or end there.
    Terminal,
    /// A through station: its station has exactly two tracks.
    Through,
    /// A central station: its station has three or more tracks.
    Central,
    /// A double station (USA): two stations, one of a company and one neutral.
    Double,
}

impl CardKind {
    /// The name used in files.
    pub fn name(self) -> &'static str {
        match self {
            CardKind::BaseRoute => "base-route",
            CardKind::BaseStation => "base-station",
            CardKind::Route => "route",
            CardKind::Terminal => "terminal",
            CardKind::Through => "through",
            CardKind::Central => "central",
            CardKind::Double => "double",
        }
    }

    /// Whether this is a base card of the board.
    pub fn is_base(self) -> bool {
        matches!(self, CardKind::BaseRoute | CardKind::BaseStation)
    }

    /// Whether cards of this kind carry stations.
    pub fn has_stations(self) -> bool {
        matches!(self, CardKind::Terminal | CardKind::Through | CardKind::Central | CardKind::Double)
    }

    /// Whether a card of this kind may be replaced by one of kind `to` (our ruling on the kinds
    /// that upgrade lists may name; see `docs/rules/express-01.md`).
    pub fn may_become(self, to: CardKind) -> bool {
        use CardKind::*;
        match self {
            BaseRoute | Route => to == Route,
            BaseStation => to.has_stations(),
            Terminal => matches!(to, Terminal | Through | Central),
            Through => matches!(to, Through | Central),
            Central => to == Central,
            Double => to == Double,
        }
    }
}

impl fmt::Display for CardKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A company, as an index into the content's list of company colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CompanyId(pub u8);

/// A station printed on a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Station {
    /// The company the station belongs to; `None` for a neutral (white) station.
    pub company: Option<CompanyId>,
    /// Whether the station shows the "+1" icon: it adds 1 to a bonus payment ("Payment of the Bonus").
    pub bonus: bool,
}

impl Station {
    /// What the station adds to a bonus payment: 1, plus 1 for the "+1" icon.
    pub fn value(self) -> u32 {
        1 + u32::from(self.bonus)
    }
}

/// The engine icon of a route card that serves as a company share ("Acquire Shares").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Share {
    /// The company.
    pub company: CompanyId,
    /// The number printed next to the engine: the number of shares of that company in the deck.
    pub total: u16,
}

/// A card face, validated: tracks join existing endpoints and every kind's rules hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Card {
    /// The printed number.
    pub number: CardNumber,
    /// What the card is.
    pub kind: CardKind,
    /// Its stage.
    pub stage: Stage,
    /// How many identical cards carry this number.
    pub copies: u16,
    /// A name, such as the city of a base card.
    pub name: Option<String>,
    /// Base cards: the index of the map they belong to.
    pub map: Option<usize>,
    /// The tracks, as printed on the upright card.
    pub tracks: Vec<Track>,
    /// The stations (`s1`, `s2`).
    pub stations: Vec<Station>,
    /// The share engine, for route cards that serve as a share.
    pub share: Option<Share>,
    /// Whether the card shows a water tower (its upgrades keep its orientation).
    pub water_tower: bool,
    /// The numbers of the cards that may replace it.
    pub upgrades: Vec<CardNumber>,
}

impl Card {
    /// The tracks that touch an endpoint.
    pub fn tracks_at(&self, end: Endpoint) -> impl Iterator<Item = Track> + '_ {
        self.tracks.iter().copied().filter(move |t| t.touches(end))
    }

    /// Whether laying `next` over this card, turned as given, keeps every track of this card
    /// laid as given ("the new card must maintain all existing tracks of the upgraded card").
    pub fn kept_by(&self, self_turned: bool, next: &Card, next_turned: bool) -> bool {
        let board: Vec<Track> = next.tracks.iter().map(|t| t.oriented(next_turned)).collect();
        self.tracks.iter().all(|t| board.contains(&t.oriented(self_turned)))
    }

    /// The orientations (`false` upright, `true` turned) in which `next` may replace this card
    /// lying as `turned`: all tracks kept, the water tower's alignment kept, each station's
    /// company kept.
    pub fn upgrade_orientations(&self, turned: bool, next: &Card) -> Vec<bool> {
        let companies_kept =
            self.stations.iter().enumerate().all(|(i, s)| next.stations.get(i).is_some_and(|n| n.company == s.company));
        if !companies_kept {
            return Vec::new();
        }
        [false, true]
            .into_iter()
            .filter(|&next_turned| {
                (!self.water_tower || (next.water_tower && next_turned == turned))
                    && self.kept_by(turned, next, next_turned)
            })
            .collect()
    }
}
