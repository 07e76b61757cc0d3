//! Bonus routes: the rules a train's route must follow, and the payout it earns (rulebook,
//! "C) Initiate One Bonus Payment": "Determine the Route" and "Payment of the Bonus").
//!
//! A route is given as a certificate, the list of tracks the train runs along, and checked here
//! independently of any search. Rulings on what the rulebook leaves open are in
//! `docs/rules/express-01.md`.

use std::collections::HashSet;

use super::card::CompanyId;
use super::network::{Network, StationRef};
use super::side::{Endpoint, Track};

/// How the length of a route is counted against the company's issued shares ("For each issued
/// share of the selected company the train can travel exactly one card of the game board").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LengthRule {
    /// Every card the train is on counts, the start card included; a card entered again counts
    /// again. The rulebook's example: 5 shares allow "a route of no more than 5 cards". Default.
    #[default]
    AllCards,
    /// Only cards the train moves onto count: the start card is free.
    CardsEntered,
}

impl LengthRule {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            LengthRule::AllCards => "all-cards",
            LengthRule::CardsEntered => "cards-entered",
        }
    }

    /// What the start card costs: 1 under [`LengthRule::AllCards`], else 0.
    pub fn start_cost(self) -> u32 {
        match self {
            LengthRule::AllCards => 1,
            LengthRule::CardsEntered => 0,
        }
    }
}

/// The options of the route rules where players could reasonably differ.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RouteRules {
    /// How route length is counted. Default [`LengthRule::AllCards`].
    pub length: LengthRule,
}

/// One stretch of a route: the train runs along one track of one card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Step {
    /// The cell.
    pub cell: usize,
    /// Where the train enters the track (board orientation).
    pub from: Endpoint,
    /// Where it leaves the track.
    pub to: Endpoint,
}

/// A route certificate: the tracks in the order the train runs them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Route {
    /// The steps.
    pub steps: Vec<Step>,
}

/// What a route is checked against: the company, its route length, and the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RouteTask {
    /// The company sending off the train.
    pub company: CompanyId,
    /// The most cards the route may travel: the company's issued shares.
    pub max_cards: u32,
    /// Rule options.
    pub rules: RouteRules,
}

/// One station of a scored route.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StationScore {
    /// The station.
    pub station: StationRef,
    /// Its company, `None` for neutral.
    pub company: Option<CompanyId>,
    /// Whether it shows "+1".
    pub bonus: bool,
    /// What it adds: 1, or 2 with "+1".
    pub value: u32,
}

/// A checked route's payout and what it is made of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RouteScore {
    /// The bonus payment: 1 per station, plus 1 per "+1".
    pub payout: u32,
    /// Cards travelled, counted by the length rule.
    pub cards: u32,
    /// The stations in route order.
    pub stations: Vec<StationScore>,
    /// The cells in route order, one entry each time the train is on a card.
    pub cells: Vec<usize>,
}

/// Why a route breaks the rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RouteError {
    /// No steps.
    #[error("the route is empty")]
    Empty,
    /// A step names a cell that does not exist.
    #[error("step {step}: no such cell")]
    NoSuchCell {
        /// Step index, 0-based.
        step: usize,
    },
    /// A step runs along a track the card does not have.
    #[error("step {step}: the card on cell {cell} has no track {track}")]
    NoSuchTrack {
        /// Step index.
        step: usize,
        /// The cell's label.
        cell: String,
        /// The track.
        track: String,
    },
    /// The route does not start at a station ("The route must start at a station").
    #[error("the route must start at a station")]
    StartNotStation,
    /// The route does not end at a station ("and end at a different station").
    #[error("the route must end at a station")]
    EndNotStation,
    /// Two consecutive steps do not join.
    #[error("step {step} does not continue where step {} ends", step - 1)]
    Broken {
        /// Step index.
        step: usize,
    },
    /// A step runs back along the track just used.
    #[error("step {step}: the train may not reverse")]
    Reversal {
        /// Step index.
        step: usize,
    },
    /// A station is reached twice ("No station may be approached more than once").
    #[error("station {station} is approached twice")]
    StationTwice {
        /// The station's label.
        station: String,
    },
    /// Too many cards ("For each issued share ... exactly one card").
    #[error("the route travels {cards} cards; the company's shares allow {max}")]
    TooLong {
        /// Cards travelled.
        cards: u32,
        /// Allowed.
        max: u32,
    },
    /// No station of the company ("At least one station on the route must be a station of the
    /// selected company").
    #[error("the route has no station of the company")]
    NoCompanyStation,
}

impl Route {
    /// Checks the route against the rules on this network and scores it. This is the engine's
    /// own judgement, independent of any solver.
    pub fn check(&self, network: &Network, task: RouteTask) -> Result<RouteScore, RouteError> {
        let first = self.steps.first().ok_or(RouteError::Empty)?;
        let last = self.steps.last().ok_or(RouteError::Empty)?;
        for (i, step) in self.steps.iter().enumerate() {
            let cell = network.cells.get(step.cell).ok_or(RouteError::NoSuchCell { step: i })?;
            let track = Track::new(step.from, step.to);
            if !track.is_some_and(|t| cell.tracks.contains(&t)) {
                return Err(RouteError::NoSuchTrack {
                    step: i,
                    cell: cell.label.to_string(),
                    track: format!("{}-{}", step.from, step.to),
                });
            }
        }
        let Endpoint::Station(start) = first.from else { return Err(RouteError::StartNotStation) };
        let Endpoint::Station(_) = last.to else { return Err(RouteError::EndNotStation) };

        let mut stations = vec![StationRef { cell: first.cell, index: start }];
        let mut cells = vec![first.cell];
        for (i, pair) in self.steps.windows(2).enumerate() {
            let (a, b) = (pair[0], pair[1]);
            let step = i + 1;
            match a.to {
                Endpoint::Station(k) => {
                    if b.cell != a.cell || b.from != a.to {
                        return Err(RouteError::Broken { step });
                    }
                    stations.push(StationRef { cell: a.cell, index: k });
                }
                Endpoint::Side(side) => {
                    let across = network.cells[a.cell].beyond[side.index()].passable_cell();
                    if across != Some(b.cell) || b.from != Endpoint::Side(side.facing()) {
                        return Err(RouteError::Broken { step });
                    }
                    cells.push(b.cell);
                }
            }
            if b.cell == a.cell && b.from == a.to && b.to == a.from {
                return Err(RouteError::Reversal { step });
            }
        }
        if let Endpoint::Station(k) = last.to {
            stations.push(StationRef { cell: last.cell, index: k });
        }
        let mut seen = HashSet::new();
        for s in &stations {
            if !seen.insert(*s) {
                return Err(RouteError::StationTwice { station: network.station_label(*s) });
            }
        }
        let cards = cells.len() as u32 - 1 + task.rules.length.start_cost();
        if cards > task.max_cards {
            return Err(RouteError::TooLong { cards, max: task.max_cards });
        }
        let scored: Vec<StationScore> = stations
            .iter()
            .map(|&s| {
                let st = network.station(s);
                StationScore { station: s, company: st.company, bonus: st.bonus, value: st.value() }
            })
            .collect();
        if !scored.iter().any(|s| s.company == Some(task.company)) {
            return Err(RouteError::NoCompanyStation);
        }
        Ok(RouteScore { payout: scored.iter().map(|s| s.value).sum(), cards, stations: scored, cells })
    }

    /// The stations the route reaches, in order (without checking the route).
    pub fn stations(&self) -> Vec<StationRef> {
        let mut out = Vec::new();
        if let Some(first) = self.steps.first()
            && let Endpoint::Station(k) = first.from
        {
            out.push(StationRef { cell: first.cell, index: k });
        }
        for step in &self.steps {
            if let Endpoint::Station(k) = step.to {
                out.push(StationRef { cell: step.cell, index: k });
            }
        }
        out
    }

    /// The same route run the other way.
    pub fn reversed(&self) -> Route {
        Route { steps: self.steps.iter().rev().map(|s| Step { cell: s.cell, from: s.to, to: s.from }).collect() }
    }
}
