//! The component catalogue: maps and card faces, read from a content file (TOML) and checked
//! against every count and constraint of the rulebook. The embedded house set is one such file.
//! Format: `docs/formats/express01-content.md`.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::Deserialize;

use super::card::{Card, CardKind, CardNumber, CompanyId, Share, Stage, Station};
use super::map::{Beyond, Map, lay_rows};
use super::side::{Side, Track};
use crate::source::{SyntaxError, parse_toml};

/// The embedded house set: our own card faces, not the publisher's (see the file's header).
pub const HOUSE_SET_TOML: &str = include_str!("../../data/express01/house.toml");

/// The label under which the embedded house set is named in messages.
pub const HOUSE_SET_LABEL: &str = "the house set";

// ---- the file as written ----

/// A content file as written: anything TOML can hold in this shape. [`Catalogue::from_setup`]
/// checks it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContentSetup {
    /// The set's description.
    pub set: SetSetup,
    /// The maps.
    #[serde(default)]
    pub map: Vec<MapSetup>,
    /// The cards.
    #[serde(default)]
    pub card: Vec<CardSetup>,
}

/// `[set]`: what the content is.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetSetup {
    /// Display name.
    pub name: String,
    /// Whether this is signalbox's own authored set rather than a transcription.
    #[serde(default)]
    pub house_set: bool,
    /// Free text.
    #[serde(default)]
    pub note: String,
    /// The company colours.
    pub companies: Vec<String>,
}

/// `[[map]]` as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapSetup {
    /// Map id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Rows from north to south.
    pub rows: Vec<RowSetup>,
    /// The upgrade kinds played here.
    pub kinds: Vec<CardKind>,
    /// Base cards allowed for the first build.
    #[serde(default)]
    pub first_build: Vec<u16>,
    /// Base cards giving the first-to-the-West bonus.
    #[serde(default)]
    pub west_bonus: Vec<u16>,
    /// What lies beyond outer sides not named in `edge`.
    pub default_edge: EdgeKind,
    /// Named outer sides.
    #[serde(default)]
    pub edge: Vec<EdgeSetup>,
    /// Pairs of neighbouring base cards with a blockade between.
    #[serde(default)]
    pub blockades: Vec<[u16; 2]>,
}

/// One row of a map.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RowSetup {
    /// The first card's left edge, in half card widths.
    pub offset: i32,
    /// The base cards, west to east.
    pub cards: Vec<u16>,
}

/// What lies beyond an outer side, as written.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum EdgeKind {
    /// The sea.
    Sea,
    /// A neighbouring country.
    Border,
    /// Open track allowed.
    Open,
}

/// `edge` entries of a map.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EdgeSetup {
    /// The cell (base card number).
    pub cell: u16,
    /// Its outer sides named here.
    pub sides: Vec<Side>,
    /// What lies beyond them.
    pub kind: EdgeKind,
}

/// A track as written (`"w-e"`), checked when read.
#[derive(Clone, Copy, Debug)]
pub struct TrackName(pub Track);

impl<'de> Deserialize<'de> for TrackName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse::<Track>().map(TrackName).map_err(serde::de::Error::custom)
    }
}

/// `[[card]]` as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardSetup {
    /// Printed number.
    pub number: u16,
    /// Kind.
    pub kind: CardKind,
    /// Stage (base kinds: `base`).
    pub stage: Option<Stage>,
    /// Identical copies (default 1).
    pub copies: Option<u16>,
    /// Name.
    pub name: Option<String>,
    /// Base cards: map id.
    pub map: Option<String>,
    /// Tracks.
    #[serde(default)]
    pub tracks: Vec<TrackName>,
    /// Stations.
    #[serde(default)]
    pub stations: Vec<StationSetup>,
    /// Share engine.
    pub share: Option<ShareSetup>,
    /// Water tower.
    #[serde(default)]
    pub water_tower: bool,
    /// Upgrade numbers.
    #[serde(default)]
    pub upgrades: Vec<u16>,
}

/// A station as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StationSetup {
    /// Company colour or `neutral`.
    pub company: String,
    /// "+1" icon.
    #[serde(default)]
    pub bonus: bool,
}

/// A share engine as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShareSetup {
    /// Company colour.
    pub company: String,
    /// The printed total.
    pub total: u16,
}

// ---- problems ----

/// One reason a content file is not a valid Express 01 component set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ContentProblem {
    /// A company colour is listed twice.
    #[error("[set] companies: `{0}` is listed twice")]
    DuplicateCompany(String),
    /// `neutral` is not a company.
    #[error("[set] companies: `neutral` is reserved for white stations")]
    NeutralCompany,
    /// Two cards share a number.
    #[error("card {0}: the number appears twice")]
    DuplicateCard(CardNumber),
    /// A card of the rulebook's component list is missing.
    #[error("card {number}: missing (the rulebook lists a {kind} card {number})")]
    MissingCard {
        /// The number.
        number: CardNumber,
        /// Its kind by the rulebook.
        kind: CardKind,
    },
    /// A card number the rulebook does not list.
    #[error("card {0}: not a number of the rulebook's component list")]
    UnknownNumber(CardNumber),
    /// The kind does not match the rulebook's numbering.
    #[error("card {number}, field `kind`: `{found}`, but the rulebook's number {number} is a {expected} card")]
    WrongKind {
        /// The card.
        number: CardNumber,
        /// As written.
        found: CardKind,
        /// By the rulebook.
        expected: CardKind,
    },
    /// The stage does not match the rulebook's numbering.
    #[error("card {number}, field `stage`: `{found}`, but the rulebook's number {number} is of stage `{expected}`")]
    WrongStage {
        /// The card.
        number: CardNumber,
        /// As written.
        found: &'static str,
        /// By the rulebook.
        expected: &'static str,
    },
    /// The copies do not match the rulebook's counts.
    #[error("card {number}, field `copies`: {found}, but the rulebook has {expected}")]
    WrongCopies {
        /// The card.
        number: CardNumber,
        /// As written.
        found: u16,
        /// By the rulebook.
        expected: u16,
    },
    /// A company name not in `[set] companies`.
    #[error("card {number}, field `{field}`: unknown company `{company}` (companies: {known})")]
    UnknownCompany {
        /// The card.
        number: CardNumber,
        /// `stations` or `share`.
        field: &'static str,
        /// As written.
        company: String,
        /// The companies of `[set]`.
        known: String,
    },
    /// A base card names no map, or an unknown map.
    #[error("card {number}, field `map`: {message}")]
    BaseMap {
        /// The card.
        number: CardNumber,
        /// What is wrong.
        message: String,
    },
    /// A field that this kind of card may not have.
    #[error("card {number}, field `{field}`: a {kind} card has none")]
    FieldNotAllowed {
        /// The card.
        number: CardNumber,
        /// The field.
        field: &'static str,
        /// Its kind.
        kind: CardKind,
    },
    /// The number of stations does not fit the kind.
    #[error("card {number}, field `stations`: a {kind} card has {expected} station(s), found {found}")]
    StationCount {
        /// The card.
        number: CardNumber,
        /// Its kind.
        kind: CardKind,
        /// Stations listed.
        found: usize,
        /// Stations required.
        expected: usize,
    },
    /// The tracks at a station do not fit the kind.
    #[error("card {number}, field `tracks`: the station of a {kind} card has {expected} track(s), found {found}")]
    StationTracks {
        /// The card.
        number: CardNumber,
        /// Its kind.
        kind: CardKind,
        /// Tracks found at the station.
        found: usize,
        /// What the kind requires.
        expected: &'static str,
    },
    /// A track names a station the card does not have.
    #[error("card {number}, field `tracks`: `{track}` ends at a station the card does not have")]
    TrackToMissingStation {
        /// The card.
        number: CardNumber,
        /// The track.
        track: Track,
    },
    /// A track listed twice.
    #[error("card {number}, field `tracks`: `{track}` is listed twice")]
    DuplicateTrack {
        /// The card.
        number: CardNumber,
        /// The track.
        track: Track,
    },
    /// An upgrade card with no track.
    #[error("card {0}, field `tracks`: an upgrade card needs at least one track")]
    NoTracks(CardNumber),
    /// A share total that does not match the deck.
    #[error(
        "card {number}, field `share`: the engine says {printed} {company} shares in its deck, but the deck holds {counted}"
    )]
    ShareTotal {
        /// The card.
        number: CardNumber,
        /// The company.
        company: String,
        /// Printed.
        printed: u16,
        /// Counted.
        counted: u16,
    },
    /// An upgrade number that is no card.
    #[error("card {number}, field `upgrades`: {upgrade} is not a card of this set")]
    UnknownUpgrade {
        /// The card.
        number: CardNumber,
        /// The upgrade.
        upgrade: CardNumber,
    },
    /// An upgrade that skips or repeats a stage, or changes the kind in a way the rules forbid.
    #[error(
        "card {number}, field `upgrades`: {upgrade} is a {to_stage} {to_kind} card; a {from_stage} {from_kind} card is replaced by a {expected_stage} card of a kind it may become"
    )]
    UpgradeNotAllowed {
        /// The card.
        number: CardNumber,
        /// The upgrade.
        upgrade: CardNumber,
        /// The card's stage.
        from_stage: &'static str,
        /// The card's kind.
        from_kind: CardKind,
        /// The upgrade's stage.
        to_stage: &'static str,
        /// The upgrade's kind.
        to_kind: CardKind,
        /// The stage required.
        expected_stage: &'static str,
    },
    /// An upgrade that cannot keep the old card's tracks, water tower or station companies.
    #[error(
        "card {number}, field `upgrades`: {upgrade} cannot replace it in either orientation (it must keep every track, the water tower's alignment and each station's company)"
    )]
    UpgradeLosesTrack {
        /// The card.
        number: CardNumber,
        /// The upgrade.
        upgrade: CardNumber,
    },
    /// A problem with a map.
    #[error("map `{map}`: {message}")]
    Map {
        /// The map id.
        map: String,
        /// What is wrong.
        message: String,
    },
}

/// Why a content file could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ContentError {
    /// The file is not TOML of the expected shape.
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    /// The file parsed, but breaks rules; every problem is listed.
    #[error("{file}: not a valid Express 01 content file:\n{}", list(.problems))]
    Invalid {
        /// The file.
        file: String,
        /// Every problem found.
        problems: Vec<ContentProblem>,
    },
}

fn list(problems: &[ContentProblem]) -> String {
    crate::source::bullet_list(problems)
}

// ---- the checked catalogue ----

/// A validated component set: maps and cards. Built once at the boundary, then trusted.
#[derive(Clone, Debug)]
pub struct Catalogue {
    /// Display name of the set.
    pub name: String,
    /// Whether it is signalbox's own authored house set.
    pub house_set: bool,
    /// Free text.
    pub note: String,
    /// The company colours; [`CompanyId`] indexes this list.
    pub companies: Vec<String>,
    /// The maps.
    pub maps: Vec<Map>,
    /// The cards, in number order.
    cards: Vec<Card>,
    /// For each number, the card's place in `cards` (`u32::MAX`: no such card).
    slots: Vec<u32>,
}

impl Catalogue {
    /// The embedded house set.
    pub fn house() -> Catalogue {
        // The house set is checked by this crate's tests; a failure here is a build defect.
        #[allow(clippy::expect_used)]
        Catalogue::from_toml(HOUSE_SET_LABEL, HOUSE_SET_TOML).expect("the embedded house set is valid")
    }

    /// Reads and checks a content file's text; `file` names it in messages.
    pub fn from_toml(file: &str, text: &str) -> Result<Catalogue, ContentError> {
        let setup: ContentSetup = parse_toml(file, text)?;
        Catalogue::from_setup(setup).map_err(|problems| ContentError::Invalid { file: file.to_string(), problems })
    }

    /// Checks a content setup against the rulebook; every problem is returned.
    pub fn from_setup(setup: ContentSetup) -> Result<Catalogue, Vec<ContentProblem>> {
        let mut problems = Vec::new();
        let companies = setup.set.companies.clone();
        let mut seen = HashSet::new();
        for c in &companies {
            if c == "neutral" {
                problems.push(ContentProblem::NeutralCompany);
            } else if !seen.insert(c.as_str()) {
                problems.push(ContentProblem::DuplicateCompany(c.clone()));
            }
        }
        let company = |name: &str| companies.iter().position(|c| c == name).map(|i| CompanyId(i as u8));
        let known = companies.join(", ");
        let map_ids: Vec<&str> = setup.map.iter().map(|m| m.id.as_str()).collect();

        let mut cards = BTreeMap::new();
        for cs in &setup.card {
            let number = CardNumber(cs.number);
            if cards.contains_key(&number) {
                problems.push(ContentProblem::DuplicateCard(number));
                continue;
            }
            if let Some(card) = check_card(cs, &company, &known, &map_ids, &mut problems) {
                cards.insert(number, card);
            }
        }
        check_rulebook_numbers(&cards, &mut problems);
        check_shares(&cards, &companies, &mut problems);
        check_upgrades(&cards, &mut problems);

        let mut maps = Vec::new();
        for (index, ms) in setup.map.iter().enumerate() {
            if let Some(map) = check_map(index, ms, &cards, &mut problems) {
                maps.push(map);
            }
        }
        let mut ids = HashSet::new();
        for m in &maps {
            if !ids.insert(m.id.clone()) {
                problems.push(ContentProblem::Map { map: m.id.clone(), message: "the id is used twice".into() });
            }
        }
        if problems.is_empty() {
            Ok(Catalogue {
                name: setup.set.name,
                house_set: setup.set.house_set,
                note: setup.set.note,
                companies,
                maps,
                slots: slots_of(&cards),
                cards: cards.into_values().collect(),
            })
        } else {
            Err(problems)
        }
    }

    /// The card with this number.
    pub fn card(&self, number: CardNumber) -> Option<&Card> {
        let slot = *self.slots.get(usize::from(number.0))?;
        self.cards.get(slot as usize)
    }

    /// Every card, by number.
    pub fn cards(&self) -> impl Iterator<Item = &Card> {
        self.cards.iter()
    }

    /// The map with this id.
    pub fn map(&self, id: &str) -> Option<(usize, &Map)> {
        self.maps.iter().enumerate().find(|(_, m)| m.id == id)
    }

    /// The company with this colour.
    pub fn company(&self, name: &str) -> Option<CompanyId> {
        self.companies.iter().position(|c| c == name).map(|i| CompanyId(i as u8))
    }

    /// A company's colour.
    pub fn company_name(&self, id: CompanyId) -> &str {
        &self.companies[id.0 as usize]
    }

    /// A line saying what the set is, for outputs.
    pub fn label(&self) -> String {
        if self.house_set {
            format!("{} (house set: authored for signalbox, not the publisher's cards)", self.name)
        } else {
            self.name.clone()
        }
    }
}

fn check_card(
    cs: &CardSetup,
    company: &impl Fn(&str) -> Option<CompanyId>,
    known: &str,
    map_ids: &[&str],
    problems: &mut Vec<ContentProblem>,
) -> Option<Card> {
    let number = CardNumber(cs.number);
    let kind = cs.kind;
    let before = problems.len();
    let stage = match (kind.is_base(), cs.stage) {
        (true, None | Some(Stage::Base)) => Stage::Base,
        (false, Some(s)) if s != Stage::Base => s,
        (_, found) => {
            problems.push(ContentProblem::WrongStage {
                number,
                found: found.map_or("(none)", Stage::name),
                expected: if kind.is_base() { "base" } else { "yellow, red or blue" },
            });
            Stage::Base
        }
    };
    let mut stations = Vec::new();
    for st in &cs.stations {
        let c = if st.company == "neutral" {
            None
        } else {
            match company(&st.company) {
                Some(c) => Some(c),
                None => {
                    problems.push(ContentProblem::UnknownCompany {
                        number,
                        field: "stations",
                        company: st.company.clone(),
                        known: known.to_string(),
                    });
                    None
                }
            }
        };
        stations.push(Station { company: c, bonus: st.bonus });
    }
    let share = match &cs.share {
        None => None,
        Some(_) if kind != CardKind::Route => {
            problems.push(ContentProblem::FieldNotAllowed { number, field: "share", kind });
            None
        }
        Some(sh) => match company(&sh.company) {
            Some(c) => Some(Share { company: c, total: sh.total }),
            None => {
                problems.push(ContentProblem::UnknownCompany {
                    number,
                    field: "share",
                    company: sh.company.clone(),
                    known: known.to_string(),
                });
                None
            }
        },
    };
    let map = match (kind.is_base(), &cs.map) {
        (true, Some(m)) => match map_ids.iter().position(|id| id == m) {
            Some(i) => Some(i),
            None => {
                problems.push(ContentProblem::BaseMap { number, message: format!("no map has the id `{m}`") });
                None
            }
        },
        (true, None) => {
            problems.push(ContentProblem::BaseMap { number, message: "a base card names its map".into() });
            None
        }
        (false, Some(_)) => {
            problems.push(ContentProblem::FieldNotAllowed { number, field: "map", kind });
            None
        }
        (false, None) => None,
    };
    let mut tracks: Vec<Track> = Vec::new();
    for t in &cs.tracks {
        let t = t.0;
        let (a, b) = t.ends();
        if [a, b].iter().any(|e| e.station().is_some_and(|i| usize::from(i) >= stations.len())) {
            problems.push(ContentProblem::TrackToMissingStation { number, track: t });
        }
        if tracks.contains(&t) {
            problems.push(ContentProblem::DuplicateTrack { number, track: t });
        } else {
            tracks.push(t);
        }
    }
    let expected_stations = match kind {
        CardKind::Terminal | CardKind::Through | CardKind::Central => 1,
        CardKind::Double => 2,
        _ => 0,
    };
    if stations.len() != expected_stations {
        if expected_stations == 0 {
            problems.push(ContentProblem::FieldNotAllowed { number, field: "stations", kind });
        } else {
            problems.push(ContentProblem::StationCount {
                number,
                kind,
                found: stations.len(),
                expected: expected_stations,
            });
        }
    }
    if kind.is_base() && !tracks.is_empty() {
        problems.push(ContentProblem::FieldNotAllowed { number, field: "tracks", kind });
    }
    if !kind.is_base() && tracks.is_empty() {
        problems.push(ContentProblem::NoTracks(number));
    }
    for i in 0..stations.len().min(expected_stations) {
        let n = tracks.iter().filter(|t| t.touches(super::side::Endpoint::Station(i as u8))).count();
        let (ok, expected) = match kind {
            CardKind::Terminal => (n == 1, "exactly 1"),
            CardKind::Through => (n == 2, "exactly 2"),
            CardKind::Central => (n >= 3, "3 or more"),
            _ => (n >= 1, "at least 1"),
        };
        if !ok {
            problems.push(ContentProblem::StationTracks { number, kind, found: n, expected });
        }
    }
    let copies = cs.copies.unwrap_or(1);
    (problems.len() == before).then(|| Card {
        number,
        kind,
        stage,
        copies,
        name: cs.name.clone(),
        map,
        tracks,
        stations,
        share,
        water_tower: cs.water_tower,
        upgrades: cs.upgrades.iter().map(|&u| CardNumber(u)).collect(),
    })
}

/// The rulebook's component list ("Components" and "The Game with the USA Expansion"):
/// number ranges with their kind, stage and copies.
pub const RULEBOOK_NUMBERS: &[(u16, u16, CardKind, Stage, u16)] = &[
    (1, 35, CardKind::BaseRoute, Stage::Base, 1),
    (51, 80, CardKind::BaseRoute, Stage::Base, 1),
    (101, 108, CardKind::Route, Stage::Yellow, 3),
    (121, 145, CardKind::Route, Stage::Red, 1),
    (201, 236, CardKind::Route, Stage::Blue, 1),
    (301, 303, CardKind::Double, Stage::Yellow, 1),
    (331, 338, CardKind::Double, Stage::Red, 1),
    (361, 366, CardKind::Double, Stage::Blue, 1),
    (401, 410, CardKind::Terminal, Stage::Yellow, 1),
    (431, 436, CardKind::Terminal, Stage::Red, 1),
    (461, 462, CardKind::Terminal, Stage::Blue, 1),
    (501, 512, CardKind::Through, Stage::Yellow, 1),
    (531, 546, CardKind::Through, Stage::Red, 1),
    (561, 565, CardKind::Through, Stage::Blue, 1),
    (601, 606, CardKind::Central, Stage::Yellow, 1),
    (630, 635, CardKind::Central, Stage::Red, 1),
    (665, 665, CardKind::Central, Stage::Blue, 1),
];

/// The place of each card number in the list of cards in number order.
fn slots_of(cards: &BTreeMap<CardNumber, Card>) -> Vec<u32> {
    let size = cards.keys().map(|n| usize::from(n.0) + 1).max().unwrap_or(0);
    let mut slots = vec![u32::MAX; size];
    for (i, n) in cards.keys().enumerate() {
        slots[usize::from(n.0)] = i as u32;
    }
    slots
}

fn check_rulebook_numbers(cards: &BTreeMap<CardNumber, Card>, problems: &mut Vec<ContentProblem>) {
    let expected = |n: u16| RULEBOOK_NUMBERS.iter().find(|r| (r.0..=r.1).contains(&n));
    for card in cards.values() {
        match expected(card.number.0) {
            None => problems.push(ContentProblem::UnknownNumber(card.number)),
            Some(&(_, _, kind, stage, copies)) => {
                // Base cards are route or station bases; the rulebook does not say which.
                let kind_ok = if kind == CardKind::BaseRoute { card.kind.is_base() } else { card.kind == kind };
                if !kind_ok {
                    problems.push(ContentProblem::WrongKind { number: card.number, found: card.kind, expected: kind });
                }
                if card.stage != stage && card.kind == kind {
                    problems.push(ContentProblem::WrongStage {
                        number: card.number,
                        found: card.stage.name(),
                        expected: stage.name(),
                    });
                }
                if card.copies != copies {
                    problems.push(ContentProblem::WrongCopies {
                        number: card.number,
                        found: card.copies,
                        expected: copies,
                    });
                }
            }
        }
    }
    for &(first, last, kind, _, _) in RULEBOOK_NUMBERS {
        for n in first..=last {
            if !cards.contains_key(&CardNumber(n)) {
                problems.push(ContentProblem::MissingCard { number: CardNumber(n), kind });
            }
        }
    }
}

fn check_shares(cards: &BTreeMap<CardNumber, Card>, companies: &[String], problems: &mut Vec<ContentProblem>) {
    let mut counted: HashMap<(Stage, CompanyId), u16> = HashMap::new();
    for card in cards.values() {
        if let Some(share) = card.share {
            *counted.entry((card.stage, share.company)).or_default() += card.copies;
        }
    }
    for card in cards.values() {
        if let Some(share) = card.share {
            let n = counted[&(card.stage, share.company)];
            if n != share.total {
                problems.push(ContentProblem::ShareTotal {
                    number: card.number,
                    company: companies[share.company.0 as usize].clone(),
                    printed: share.total,
                    counted: n,
                });
            }
        }
    }
}

fn check_upgrades(cards: &BTreeMap<CardNumber, Card>, problems: &mut Vec<ContentProblem>) {
    for card in cards.values() {
        for &u in &card.upgrades {
            let Some(next) = cards.get(&u) else {
                problems.push(ContentProblem::UnknownUpgrade { number: card.number, upgrade: u });
                continue;
            };
            if card.stage.next() != Some(next.stage) || !card.kind.may_become(next.kind) {
                problems.push(ContentProblem::UpgradeNotAllowed {
                    number: card.number,
                    upgrade: u,
                    from_stage: card.stage.name(),
                    from_kind: card.kind,
                    to_stage: next.stage.name(),
                    to_kind: next.kind,
                    expected_stage: card.stage.next().map_or("(none: blue cards are final)", Stage::name),
                });
            } else if card.upgrade_orientations(false, next).is_empty() {
                problems.push(ContentProblem::UpgradeLosesTrack { number: card.number, upgrade: u });
            }
        }
    }
}

fn check_map(
    index: usize,
    ms: &MapSetup,
    cards: &BTreeMap<CardNumber, Card>,
    problems: &mut Vec<ContentProblem>,
) -> Option<Map> {
    let before = problems.len();
    let mut err = |message: String| problems.push(ContentProblem::Map { map: ms.id.clone(), message });
    let mut seen = HashSet::new();
    for row in &ms.rows {
        for &n in &row.cards {
            let number = CardNumber(n);
            match cards.get(&number) {
                None => err(format!("rows: {number} is not a card of this set")),
                Some(c) if !c.kind.is_base() => err(format!("rows: {number} is not a base card")),
                Some(_) => {}
            }
            if !seen.insert(number) {
                err(format!("rows: {number} is laid twice"));
            }
        }
    }
    let rows: Vec<(i32, Vec<CardNumber>)> =
        ms.rows.iter().map(|r| (r.offset, r.cards.iter().map(|&n| CardNumber(n)).collect())).collect();
    let mut named: HashMap<(CardNumber, Side), EdgeKind> = HashMap::new();
    for e in &ms.edge {
        for &s in &e.sides {
            named.insert((CardNumber(e.cell), s), e.kind);
        }
    }
    let blockades: Vec<(CardNumber, CardNumber)> =
        ms.blockades.iter().map(|&[a, b]| (CardNumber(a), CardNumber(b))).collect();
    let default_edge = ms.default_edge;
    let mut outer_used = HashSet::new();
    let cells = lay_rows(
        &rows,
        |cell, side| {
            outer_used.insert((cell, side));
            match named.get(&(cell, side)).copied().unwrap_or(default_edge) {
                EdgeKind::Sea => Beyond::Sea,
                EdgeKind::Border => Beyond::Border,
                EdgeKind::Open => Beyond::Open,
            }
        },
        &blockades,
    );
    for key in named.keys() {
        if !outer_used.contains(key) {
            err(format!("edge: side {} of cell {} is not an outer side of the map", key.1, key.0));
        }
    }
    let base_of_cell: HashMap<CardNumber, usize> = cells.iter().enumerate().map(|(i, c)| (c.base, i)).collect();
    for &(a, b) in &blockades {
        let touching = match (base_of_cell.get(&a), base_of_cell.get(&b)) {
            (Some(&i), Some(&j)) => cells[i].beyond.contains(&Beyond::Blockade(j)),
            _ => false,
        };
        if !touching {
            err(format!("blockades: {a} and {b} are not neighbouring cells of this map"));
        }
    }
    for list in [&ms.first_build, &ms.west_bonus] {
        for &n in list {
            if !seen.contains(&CardNumber(n)) {
                err(format!("{} is named as a special cell but is not on the map", CardNumber(n)));
            }
        }
    }
    for card in cards.values() {
        if card.kind.is_base() && card.map == Some(index) && !seen.contains(&card.number) {
            err(format!("rows: base card {} belongs to this map but is not laid", card.number));
        }
    }
    (problems.len() == before).then(|| {
        Map::new(
            ms.id.clone(),
            ms.name.clone(),
            cells,
            ms.kinds.clone(),
            ms.first_build.iter().map(|&n| CardNumber(n)).collect(),
            ms.west_bonus.iter().map(|&n| CardNumber(n)).collect(),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_house_set_is_valid_and_labelled() {
        let c = Catalogue::from_toml(HOUSE_SET_LABEL, HOUSE_SET_TOML).unwrap_or_else(|e| panic!("{e}"));
        assert!(c.house_set);
        assert!(c.label().contains("house set"));
        assert_eq!(c.map("germany").map(|(_, m)| m.cells.len()), Some(35));
        assert_eq!(c.map("usa").map(|(_, m)| m.cells.len()), Some(30));
        let upgrade_cards: u32 = c
            .cards()
            .filter(|k| matches!(k.kind, CardKind::Route | CardKind::Terminal | CardKind::Through | CardKind::Central))
            .map(|k| u32::from(k.copies))
            .sum();
        assert_eq!(upgrade_cards, 149, "the rulebook's 149 upgrade cards");
        assert_eq!(c.cards().filter(|k| k.kind == CardKind::Double).count(), 17);
    }

    fn broken(from: &str, to: &str) -> Vec<ContentProblem> {
        assert!(HOUSE_SET_TOML.contains(from), "fixture text `{from}` not found");
        let text = HOUSE_SET_TOML.replacen(from, to, 1);
        match Catalogue::from_toml("t.toml", &text) {
            Err(ContentError::Invalid { problems, .. }) => problems,
            other => panic!("expected problems, got {other:?}"),
        }
    }

    #[test]
    fn a_missing_card_is_named() {
        let problems = broken("number = 665", "number = 666");
        assert!(problems.contains(&ContentProblem::MissingCard { number: CardNumber(665), kind: CardKind::Central }));
        assert!(problems.contains(&ContentProblem::UnknownNumber(CardNumber(666))));
    }

    #[test]
    fn syntax_errors_name_the_line() {
        let text = HOUSE_SET_TOML.replacen("kind = \"route\"", "kind = \"rout\"", 1);
        let line = HOUSE_SET_TOML[..HOUSE_SET_TOML.find("kind = \"route\"").unwrap()].lines().count() + 1;
        match Catalogue::from_toml("t.toml", &text) {
            Err(ContentError::Syntax(e)) => {
                assert_eq!(e.location.line, Some(line));
                assert!(e.message.contains("rout"), "{e}");
            }
            other => panic!("expected a syntax error, got {other:?}"),
        }
    }
}
