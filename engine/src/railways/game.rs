//! The game as a state machine (rulebook: General Play): each turn the dice are rolled (a
//! chance action carrying the faces), the player may spend cubes to roll one or two dice again,
//! pairs the dice, builds up to four tiles, and ends the turn. Every action is checked against
//! every rule before it changes anything.

use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::sync::Arc;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::grid::hex::Hex;

use super::catalogue::{At, CityId, Content, Supply};
use super::colour::{CityColour, Colour};
use super::dice::{Die, Roll, Slot};
use super::options::{GrayExits, Options};
use super::track::{Ends, Side, TileKind};

/// Cubes of each colour (rulebook: Components, 120 cubes in 4 colours).
pub const CUBES_PER_COLOUR: u8 = 30;
/// Cubes each player starts with in hand (rulebook: Set up).
pub const CUBES_IN_HAND: u8 = 2;
/// Cubes set on each of a player's cities other than home (rulebook: Set up).
pub const CUBES_ON_OWN_CITY: u8 = 2;
/// Connections each player may make to one gray city (rulebook: Build Track Tiles).
pub const GRAY_CONNECTIONS: usize = 2;
/// Service Bounty cards face up at once (rulebook: Rules for Cards).
pub const BOUNTIES_SHOWN: usize = 4;

/// A tile on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Placed {
    /// Its hex.
    pub hex: Hex,
    /// The sides its track joins.
    pub ends: Ends,
    /// Whose track it is.
    pub owner: Colour,
    /// Whether it took a crossing tile from the supply (ruling T1).
    #[serde(default)]
    pub crossing: bool,
}

/// A player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The colour.
    pub colour: Colour,
    /// Cubes in hand, for re-rolls.
    pub cubes: u8,
    /// The cities the player's track has linked, the home city included.
    pub linked: BTreeSet<CityId>,
}

/// Where the turn stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "phase")]
pub enum Phase {
    /// The dice are to be rolled.
    Roll,
    /// The dice lie: the player may spend cubes to roll again, then pairs them.
    Reroll,
    /// The dice are paired: the player builds with the four slots, in any order.
    Build {
        /// The pairing ([`Roll::pairs`]).
        crossed: bool,
        /// The slots used so far.
        used: [bool; 4],
    },
    /// The game is over.
    Over,
}

/// One step of a turn.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "action")]
pub enum Action {
    /// The four dice as they fell.
    Roll {
        /// The faces.
        roll: Roll,
    },
    /// A cube spent to roll one or two dice again, and the dice as they lie after.
    Reroll {
        /// The dice rolled again.
        dice: Vec<Die>,
        /// All four dice afterwards.
        roll: Roll,
    },
    /// The pairing of the dice.
    Pair {
        /// False: first track die with first terrain die (and the second with the second); true: first track die with terrain
        /// die 1.
        crossed: bool,
    },
    /// A tile built with slot `slot` of the pairing.
    Build {
        /// The hex.
        hex: Hex,
        /// Its track.
        ends: Ends,
        /// The slot (0 and 1: the first pair's tiles; 2 and 3: the second's).
        slot: u8,
    },
    /// The end of the turn.
    End,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Roll { roll } => write!(f, "roll {roll}"),
            Action::Reroll { dice, roll } => {
                let dice: Vec<String> = dice.iter().map(ToString::to_string).collect();
                write!(f, "spend a cube to roll {} again: {roll}", dice.join(" and "))
            }
            Action::Pair { crossed } => write!(f, "pair the dice {}", if *crossed { "crossed" } else { "straight" }),
            Action::Build { hex, ends, slot } => write!(f, "build {ends} on {} with slot {slot}", At(*hex)),
            Action::End => f.write_str("end the turn"),
        }
    }
}

/// Why an action was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    /// The action does not fit the phase.
    #[error("not now: {}", phase_words(*.0))]
    Phase(Phase),
    /// A re-roll without a cube in hand.
    #[error("no cube in hand to spend on a re-roll")]
    NoCube,
    /// A re-roll of no dice, more than two, or one die twice.
    #[error("a re-roll takes one or two different dice")]
    RerollDice,
    /// A re-roll that changed a die it did not roll.
    #[error("{0} was not rolled again but changed")]
    Unrolled(Die),
    /// A face the dice do not have.
    #[error("the dice have no face {0}")]
    NoFace(String),
    /// A slot already used or out of range.
    #[error("slot {0} is used or does not exist")]
    Slot(u8),
    /// A track the slot's tile cannot lay.
    #[error("a {kind} tile cannot lay the track {ends}")]
    Kind {
        /// The slot's tile.
        kind: TileKind,
        /// The track.
        ends: Ends,
    },
    /// The hex is off the board, a city, or the wrong terrain.
    #[error("{0}")]
    Hex(String),
    /// The tile joins no track or city the player may build from.
    #[error("the tile on {} extends none of your track and leaves none of your linked cities", At(*.0))]
    Unjoined(Hex),
    /// A city the tile may not enter.
    #[error("{0}")]
    Entry(String),
    /// The supply has no tile of the kind.
    #[error("the supply has no {0} tile left")]
    Supply(String),
}

/// Where the turn stands, in words, for a step refused as out of turn (rulebook: General Play).
fn phase_words(phase: Phase) -> &'static str {
    match phase {
        Phase::Roll => "the four dice are to be rolled first",
        Phase::Reroll => "the dice lie: re-roll with a cube or pair them first",
        Phase::Build { .. } => "the dice are paired: build with the free slots or end the turn",
        Phase::Over => "the game is over",
    }
}

/// The state of a game.
#[derive(Clone, Debug)]
pub struct Game {
    pub(super) content: Arc<Content>,
    pub(super) options: Options,
    pub(super) players: Vec<Player>,
    pub(super) tiles: Vec<Placed>,
    /// Each hex's tiles, as indices into `tiles`.
    pub(super) at: HashMap<Hex, Vec<usize>>,
    pub(super) roll: Option<Roll>,
    pub(super) phase: Phase,
    pub(super) active: usize,
    /// Turns completed.
    pub(super) turns: u32,
    pub(super) supply: Supply,
    /// The common reserve, by colour.
    pub(super) reserve: [u8; 4],
    /// Cubes on each city, by colour.
    pub(super) city_cubes: Vec<[u8; 4]>,
    /// The face-up Service Bounties and the deck (top last).
    pub(super) bounties: Vec<CityId>,
    pub(super) bounty_deck: Vec<CityId>,
    /// The seat whose turn triggered the end.
    pub(super) triggered: Option<usize>,
}

impl Game {
    /// A new game for the colours of `seats` in turn order (2 to 4 different colours; with four,
    /// the rulebook's order Blue, Yellow, Red, Purple is usual but not enforced), from `seed`
    /// (the Service Bounty deck's shuffle, drawn from a ChaCha8 generator).
    pub fn new(content: Arc<Content>, seats: &[Colour], options: Options, seed: u64) -> Result<Game, String> {
        let distinct: BTreeSet<Colour> = seats.iter().copied().collect();
        if !(2..=4).contains(&seats.len()) || distinct.len() != seats.len() {
            return Err(format!("a game has 2 to 4 players of different colours, not {seats:?}"));
        }
        let mut city_cubes = vec![[0u8; 4]; content.cities.len()];
        let mut reserve = [0u8; 4];
        let mut players = Vec::new();
        for &colour in seats {
            let k = colour.index();
            let mut placed = 0u8;
            for (c, city) in content.cities.iter().enumerate() {
                let n = match city.colour {
                    CityColour::Gray => 1,
                    CityColour::Player(o) if o == colour && !city.home => CUBES_ON_OWN_CITY,
                    CityColour::Player(_) => 0,
                };
                city_cubes[c][k] = n;
                placed += n;
            }
            // Ruling C1: what the components leave after the set-up goes to the reserve.
            reserve[k] = CUBES_PER_COLOUR - placed - CUBES_IN_HAND;
            let home = content.home(colour);
            players.push(Player { colour, cubes: CUBES_IN_HAND, linked: BTreeSet::from([home]) });
        }
        let (mut bounties, mut bounty_deck) = (Vec::new(), Vec::new());
        if options.service_bounties {
            let mut deck = content.gray_cities();
            deck.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
            for _ in 0..BOUNTIES_SHOWN {
                bounties.extend(deck.pop());
            }
            bounty_deck = deck;
        }
        let supply = content.supply;
        Ok(Game {
            content,
            options,
            players,
            tiles: Vec::new(),
            at: HashMap::new(),
            roll: None,
            phase: Phase::Roll,
            active: 0,
            turns: 0,
            supply,
            reserve,
            city_cubes,
            bounties,
            bounty_deck,
            triggered: None,
        })
    }

    /// The components.
    pub fn content(&self) -> &Arc<Content> {
        &self.content
    }

    /// The rule options.
    pub fn options(&self) -> Options {
        self.options
    }

    /// The players in turn order.
    pub fn players(&self) -> &[Player] {
        &self.players
    }

    /// The seat of the player to move.
    pub fn active(&self) -> usize {
        self.active
    }

    /// The seat of `colour`, if it plays.
    pub fn seat(&self, colour: Colour) -> Option<usize> {
        self.players.iter().position(|p| p.colour == colour)
    }

    /// Every tile on the board, in the order laid.
    pub fn tiles(&self) -> &[Placed] {
        &self.tiles
    }

    /// The tiles on `hex`.
    pub fn tiles_on(&self, hex: Hex) -> impl Iterator<Item = &Placed> {
        self.at.get(&hex).into_iter().flatten().map(|&i| &self.tiles[i])
    }

    /// The track of `colour` on `hex`, if any (a player never has two tiles on one hex).
    pub fn track(&self, colour: Colour, hex: Hex) -> Option<Ends> {
        self.tiles_on(hex).find(|t| t.owner == colour).map(|t| t.ends)
    }

    /// The dice as they lie, once rolled this turn.
    pub fn roll(&self) -> Option<Roll> {
        self.roll
    }

    /// The phase of the turn.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Turns completed.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// The tiles left in the supply.
    pub fn supply(&self) -> Supply {
        self.supply
    }

    /// The common reserve's cubes of `colour`.
    pub fn reserve(&self, colour: Colour) -> u8 {
        self.reserve[colour.index()]
    }

    /// The cubes of `colour` on city `city`.
    pub fn cubes_on(&self, city: CityId, colour: Colour) -> u8 {
        self.city_cubes[city][colour.index()]
    }

    /// The face-up Service Bounties.
    pub fn bounties(&self) -> &[CityId] {
        &self.bounties
    }

    /// The Service Bounty deck below the face-up cards put in an order drawn from `seed` (a
    /// ChaCha8 generator): what the table has not seen, filled in one way. A play-out from a
    /// position draws it so, and never reads the order a record's seed or a position wrote
    /// (rulebook: Rules for Cards, the deck is shuffled; ruling K2 in
    /// `docs/rules/railways-express.md`).
    pub fn shuffle_unseen_bounties(&mut self, seed: u64) {
        self.bounty_deck.sort_unstable();
        self.bounty_deck.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// The slots of the paired dice, with whether each is used.
    pub fn slots(&self) -> Option<[(Slot, bool); 4]> {
        match (self.phase, self.roll) {
            (Phase::Build { crossed, used }, Some(roll)) => {
                let s = roll.slots(crossed);
                Some(std::array::from_fn(|i| (s[i], used[i])))
            }
            _ => None,
        }
    }

    /// Whether `colour` has linked all four cities of its colour (rulebook: Objective).
    pub fn has_linked_all(&self, colour: Colour) -> bool {
        self.seat(colour)
            .is_some_and(|s| self.content.cities_of(colour).iter().all(|c| self.players[s].linked.contains(c)))
    }

    /// The winners once the game is over: the players who linked all four cities, the most cubes
    /// in hand among them breaking a tie, sharing the victory if still tied (rulebook: Ending
    /// and Winning the Game). Empty while the game goes on.
    pub fn winners(&self) -> Vec<Colour> {
        if !self.is_over() {
            return Vec::new();
        }
        let done: Vec<&Player> = self.players.iter().filter(|p| self.has_linked_all(p.colour)).collect();
        let most = done.iter().map(|p| p.cubes).max().unwrap_or(0);
        done.iter().filter(|p| p.cubes == most).map(|p| p.colour).collect()
    }

    /// The connections of `colour` to city `city`: its tiles with an end facing the city.
    pub fn connections(&self, colour: Colour, city: CityId) -> usize {
        let hex = self.content.cities[city].hex;
        Side::ALL.iter().filter(|&&s| self.track(colour, s.step(hex)).is_some_and(|e| e.has(s.opposite()))).count()
    }

    /// Whether some tile (of anybody) on the hex across `side` of `city` enters the city.
    fn entered_from(&self, city: CityId, side: Side) -> bool {
        let hex = self.content.cities[city].hex;
        self.tiles_on(side.step(hex)).any(|t| t.ends.has(side.opposite()))
    }

    /// Why the active player may not lay `ends` on `hex` with slot `slot`, or `Ok`.
    pub fn check_build(&self, hex: Hex, ends: Ends, slot: u8) -> Result<(), Illegal> {
        let Phase::Build { crossed, used } = self.phase else { return Err(Illegal::Phase(self.phase)) };
        let roll = self.roll.ok_or(Illegal::Phase(self.phase))?;
        if usize::from(slot) >= 4 || used[usize::from(slot)] {
            return Err(Illegal::Slot(slot));
        }
        self.check_tile(self.active, hex, ends, roll.slots(crossed)[usize::from(slot)])
    }

    /// Why the player in `seat` may not lay `ends` on `hex` with a tile of `slot`, or `Ok`:
    /// every rule of building but the dice (ruling B1 to B3, G1 to G3, T1).
    fn check_tile(&self, seat: usize, hex: Hex, ends: Ends, s: Slot) -> Result<(), Illegal> {
        if ends.kind(self.options.curve) != Some(s.kind) {
            return Err(Illegal::Kind { kind: s.kind, ends });
        }
        let Some(terrain) = self.content.terrain(hex) else {
            return Err(Illegal::Hex(format!("{} is not a hex of the board", At(hex))));
        };
        if let Some(&c) = self.content.city_at.get(&hex) {
            return Err(Illegal::Hex(format!(
                "{} is the city of {}; tiles go between cities",
                At(hex),
                self.content.cities[c].name
            )));
        }
        if !s.terrain.allows(terrain) {
            return Err(Illegal::Hex(format!(
                "{} is {terrain}, and the slot's terrain die shows {}",
                At(hex),
                s.terrain
            )));
        }
        let me = &self.players[seat];
        if self.track(me.colour, hex).is_some() {
            return Err(Illegal::Hex(format!("{} already holds a tile of yours", At(hex))));
        }
        if self.supply.left(s.kind, self.takes_crossing(hex)) == 0 {
            return Err(Illegal::Supply(s.kind.to_string()));
        }
        let mut anchored = false;
        for side in ends.sides() {
            let beyond = side.step(hex);
            if let Some(&city) = self.content.city_at.get(&beyond) {
                let c = &self.content.cities[city];
                let name = &c.name;
                match c.colour {
                    CityColour::Player(o) if o != me.colour => {
                        return Err(Illegal::Entry(format!("{name} is a {o} city: only {o} may enter it")));
                    }
                    CityColour::Gray if self.connections(me.colour, city) >= GRAY_CONNECTIONS => {
                        return Err(Illegal::Entry(format!(
                            "you already have {GRAY_CONNECTIONS} connections to the gray city {name}"
                        )));
                    }
                    _ => {}
                }
                if self.entered_from(city, side.opposite()) {
                    return Err(Illegal::Entry(format!("another tile on {} already enters {name}", At(hex))));
                }
                let leaves = c.colour != CityColour::Gray || self.options.gray_exits == GrayExits::Allowed;
                anchored |= leaves && me.linked.contains(&city);
            } else if self.track(me.colour, beyond).is_some_and(|e| e.has(side.opposite())) {
                anchored = true;
            }
        }
        if anchored { Ok(()) } else { Err(Illegal::Unjoined(hex)) }
    }

    /// Every build the active player may make now, one slot for slots alike.
    pub fn legal_builds(&self) -> Vec<Action> {
        let Phase::Build { crossed, used } = self.phase else { return Vec::new() };
        let Some(roll) = self.roll else { return Vec::new() };
        let slots = roll.slots(crossed);
        let me = &self.players[self.active];
        // The hexes a tile may go on: next to an end of the player's track or to a linked city.
        let mut hexes: BTreeSet<Hex> = BTreeSet::new();
        for t in self.tiles.iter().filter(|t| t.owner == me.colour) {
            for side in t.ends.sides() {
                hexes.insert(side.step(t.hex));
            }
        }
        for &c in &me.linked {
            hexes.extend(self.content.cities[c].hex.neighbours());
        }
        let mut out = Vec::new();
        for hex in hexes {
            let mut tried: Vec<Slot> = Vec::new();
            for (k, &slot) in slots.iter().enumerate() {
                if used[k] || tried.contains(&slot) {
                    continue;
                }
                tried.push(slot);
                for ends in Ends::all(slot.kind, self.options.curve) {
                    if self.check_build(hex, ends, k as u8).is_ok() {
                        out.push(Action::Build { hex, ends, slot: k as u8 });
                    }
                }
            }
        }
        out
    }

    /// Every action the player to move may take now; the chance actions (rolls) are not listed.
    pub fn legal_actions(&self) -> Vec<Action> {
        match self.phase {
            Phase::Roll | Phase::Over => Vec::new(),
            Phase::Reroll => vec![Action::Pair { crossed: false }, Action::Pair { crossed: true }],
            Phase::Build { .. } => {
                let mut out = self.legal_builds();
                out.push(Action::End);
                out
            }
        }
    }

    fn check_faces(&self, roll: &Roll) -> Result<(), Illegal> {
        for f in roll.track {
            if !self.content.dice.track.contains(&f) {
                return Err(Illegal::NoFace(f.to_string()));
            }
        }
        for f in roll.terrain {
            if !self.content.dice.terrain.contains(&f) {
                return Err(Illegal::NoFace(f.to_string()));
            }
        }
        Ok(())
    }

    /// Plays `action`, or says why it is illegal and changes nothing.
    pub fn apply(&mut self, action: &Action) -> Result<(), Illegal> {
        match (action, self.phase) {
            (Action::Roll { roll }, Phase::Roll) => {
                self.check_faces(roll)?;
                self.roll = Some(*roll);
                self.phase = Phase::Reroll;
            }
            (Action::Reroll { dice, roll }, Phase::Reroll) => {
                let seat = self.active;
                if self.players[seat].cubes == 0 {
                    return Err(Illegal::NoCube);
                }
                let mut distinct = dice.clone();
                distinct.sort_by_key(|d| format!("{d:?}"));
                distinct.dedup();
                if dice.is_empty() || dice.len() > 2 || distinct.len() != dice.len() {
                    return Err(Illegal::RerollDice);
                }
                self.check_faces(roll)?;
                let before = self.roll.ok_or(Illegal::Phase(self.phase))?;
                for i in 0..2u8 {
                    for (die, same) in [
                        (Die::Track(i), before.track[usize::from(i)] == roll.track[usize::from(i)]),
                        (Die::Terrain(i), before.terrain[usize::from(i)] == roll.terrain[usize::from(i)]),
                    ] {
                        if !same && !dice.contains(&die) {
                            return Err(Illegal::Unrolled(die));
                        }
                    }
                }
                let colour = self.players[seat].colour;
                self.players[seat].cubes -= 1;
                self.reserve[colour.index()] += 1;
                self.roll = Some(*roll);
            }
            (Action::Pair { crossed }, Phase::Reroll) => {
                self.phase = Phase::Build { crossed: *crossed, used: [false; 4] };
            }
            (&Action::Build { hex, ends, slot }, Phase::Build { crossed, mut used }) => {
                self.check_build(hex, ends, slot)?;
                self.build(self.active, hex, ends);
                used[usize::from(slot)] = true;
                self.phase = Phase::Build { crossed, used };
            }
            (Action::End, Phase::Build { .. }) => self.end_turn(),
            (_, phase) => return Err(Illegal::Phase(phase)),
        }
        Ok(())
    }

    /// Lays `tiles` for `colour` in the order given, each checked against every rule of building
    /// but the dice (any tile of its kind on any terrain): the game afterwards, or the first tile
    /// refused and why. A plan's certificate: the solver's tiles replayed by the rules.
    pub fn with_track(&self, colour: Colour, tiles: &[(Hex, Ends)]) -> Result<Game, (usize, Illegal)> {
        let seat = self.seat(colour).ok_or((0, Illegal::Entry(format!("{colour} does not play"))))?;
        let mut game = self.clone();
        for (i, &(hex, ends)) in tiles.iter().enumerate() {
            let kind = ends
                .kind(self.options.curve)
                .ok_or_else(|| (i, Illegal::Hex(format!("no tile lays the track {ends} on {}", At(hex)))))?;
            game.check_tile(seat, hex, ends, Slot { kind, terrain: super::terrain::TerrainFace::Any })
                .map_err(|e| (i, e))?;
            game.build(seat, hex, ends);
        }
        Ok(game)
    }

    /// Whether a tile laid on `hex` now is a crossing tile: laid over another player's tile
    /// while any crossing tile is left (ruling T1).
    fn takes_crossing(&self, hex: Hex) -> bool {
        self.tiles_on(hex).next().is_some() && self.supply.crossing > 0
    }

    /// Lays a checked tile for the player in `seat`: the supply, the links, the cubes and the
    /// bounties.
    fn build(&mut self, seat: usize, hex: Hex, ends: Ends) {
        let colour = self.players[seat].colour;
        let crossing = self.takes_crossing(hex);
        let kind = ends.kind(self.options.curve).unwrap_or(TileKind::Curved);
        *self.supply.pile(kind, crossing) -= 1;
        self.at.entry(hex).or_default().push(self.tiles.len());
        self.tiles.push(Placed { hex, ends, owner: colour, crossing });
        for side in ends.sides() {
            let Some(&city) = self.content.city_at.get(&side.step(hex)) else { continue };
            if !self.players[seat].linked.insert(city) {
                continue;
            }
            // A new link: the player's cubes on the city (one on a gray city, two on one of its
            // own), and a face-up bounty's cube from the reserve.
            let k = colour.index();
            self.players[seat].cubes += self.city_cubes[city][k];
            self.city_cubes[city][k] = 0;
            if let Some(i) = self.bounties.iter().position(|&b| b == city) {
                self.bounties.remove(i);
                self.bounties.extend(self.bounty_deck.pop());
                if self.reserve[k] > 0 {
                    self.reserve[k] -= 1;
                    self.players[seat].cubes += 1;
                }
            }
        }
    }

    fn end_turn(&mut self) {
        let colour = self.players[self.active].colour;
        if self.triggered.is_none() && self.has_linked_all(colour) {
            self.triggered = Some(self.active);
        }
        self.turns += 1;
        self.active = (self.active + 1) % self.players.len();
        self.roll = None;
        // Equal turns: the round ends with the last seat (rulebook: Ending and Winning).
        self.phase = if self.triggered.is_some() && self.active == 0 { Phase::Over } else { Phase::Roll };
    }

    /// The cubes of `colour` everywhere: in hand, in the reserve, on the cities. Always
    /// [`CUBES_PER_COLOUR`] for a colour in play.
    pub fn cube_count(&self, colour: Colour) -> u32 {
        let k = colour.index();
        let hand: u32 = self.players.iter().filter(|p| p.colour == colour).map(|p| u32::from(p.cubes)).sum();
        hand + u32::from(self.reserve[k]) + self.city_cubes.iter().map(|c| u32::from(c[k])).sum::<u32>()
    }

    /// Every rule the position breaks, recomputed from scratch: tiles on board hexes between the
    /// cities, one per player per hex, no entry into another colour's city, one entry per city
    /// side, at most two connections per player to a gray city, every tile joined to its owner's
    /// home city, the linked cities those the track enters, 30 cubes per colour, 231 tiles.
    /// Empty for every position the rules can reach.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        let content = &self.content;
        let mut seen: BTreeSet<(Hex, Colour)> = BTreeSet::new();
        for t in &self.tiles {
            if content.terrain(t.hex).is_none() || content.city_at.contains_key(&t.hex) {
                out.push(format!("a {} tile on {}, not a hex between the cities", t.owner, At(t.hex)));
            }
            if !seen.insert((t.hex, t.owner)) {
                out.push(format!("two {} tiles on {}", t.owner, At(t.hex)));
            }
            if t.ends.kind(self.options.curve).is_none() {
                out.push(format!("the {} tile on {} lays {}, which no tile has", t.owner, At(t.hex), t.ends));
            }
        }
        for (c, city) in content.cities.iter().enumerate() {
            for side in Side::ALL {
                let entries = self.tiles_on(side.step(city.hex)).filter(|t| t.ends.has(side.opposite())).count();
                if entries > 1 {
                    out.push(format!("{} is entered {entries} times from its {side} side", city.name));
                }
            }
            for p in &self.players {
                let n = self.connections(p.colour, c);
                match city.colour {
                    CityColour::Gray if n > GRAY_CONNECTIONS => {
                        out.push(format!("{} has {n} connections to the gray city {}", p.colour, city.name));
                    }
                    CityColour::Player(o) if o != p.colour && n > 0 => {
                        out.push(format!("{} enters {}, a {o} city", p.colour, city.name));
                    }
                    _ => {}
                }
            }
        }
        for p in &self.players {
            let (reached, cities) = self.network(p.colour);
            let own = self.tiles.iter().filter(|t| t.owner == p.colour).count();
            if reached.len() != own {
                let n = own - reached.len();
                let tiles = if n == 1 { "tile" } else { "tiles" };
                out.push(format!("{} has {n} {tiles} not joined to its home city", p.colour));
            }
            if cities != p.linked {
                out.push(format!("{} is said to have linked {:?}, its track links {:?}", p.colour, p.linked, cities));
            }
            let count = self.cube_count(p.colour);
            if count != u32::from(CUBES_PER_COLOUR) {
                let cubes = if count == 1 { "cube" } else { "cubes" };
                out.push(format!("{} has {count} {cubes} in all, not {CUBES_PER_COLOUR}", p.colour));
            }
        }
        let laid = self.tiles.len() as u32;
        if self.supply.total() + laid != content.supply.total() {
            out.push(format!(
                "{laid} tiles laid and {} in the supply do not make the set's tiles",
                self.supply.total()
            ));
        }
        out
    }

    /// The tiles of `colour` joined to its home city (by hex) and the cities they link (home
    /// included), found by a search from the home city over the colour's track: a tile joins
    /// the next where their ends meet, and a city joins every tile of the colour entering it.
    pub fn network(&self, colour: Colour) -> (BTreeSet<Hex>, BTreeSet<CityId>) {
        let content = &self.content;
        let home = content.home(colour);
        let mut tiles = BTreeSet::new();
        let mut cities = BTreeSet::from([home]);
        let mut queue: Vec<(Hex, Side)> = Side::ALL.iter().map(|&s| (content.cities[home].hex, s)).collect();
        // Each item: a city's hex and a side to look across, or a tile's hex and an end.
        while let Some((from, side)) = queue.pop() {
            let to = side.step(from);
            if let Some(&city) = content.city_at.get(&to) {
                // A tile's end entering a city.
                if content.city_at.contains_key(&from) || !cities.insert(city) {
                    continue;
                }
                queue.extend(Side::ALL.iter().map(|&s| (to, s)));
                continue;
            }
            let Some(ends) = self.track(colour, to) else { continue };
            if !ends.has(side.opposite()) || !tiles.insert(to) {
                continue;
            }
            for s in ends.sides() {
                queue.push((to, s));
            }
        }
        (tiles, cities)
    }

    /// A random action for the player to move, for tests of the rules: the dice from `rng` when
    /// they are to be rolled, a cube spent on a re-roll now and then, a random pairing, and any
    /// legal build, the turn ending at random or when no build is left. (A policy that plays to
    /// win is search, in `signalbox-solver`.)
    pub fn random_action<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Action> {
        use rand::RngExt;
        match self.phase {
            Phase::Over => None,
            Phase::Roll => Some(Action::Roll { roll: Roll::random(&self.content.dice, rng) }),
            Phase::Reroll => {
                let roll = self.roll?;
                if self.players[self.active].cubes > 0 && rng.random_range(0..8) == 0 {
                    let die = if rng.random() {
                        Die::Track(rng.random_range(0..2))
                    } else {
                        Die::Terrain(rng.random_range(0..2))
                    };
                    let dice = vec![die];
                    return Some(Action::Reroll {
                        dice: dice.clone(),
                        roll: roll.reroll(&self.content.dice, &dice, rng),
                    });
                }
                Some(Action::Pair { crossed: rng.random() })
            }
            Phase::Build { .. } => {
                let builds = self.legal_builds();
                if builds.is_empty() || rng.random_range(0..10) == 0 {
                    return Some(Action::End);
                }
                builds.get(rng.random_range(0..builds.len())).cloned()
            }
        }
    }

    /// Plays random actions ([`Game::random_action`], from a ChaCha8 generator seeded with
    /// `seed`) until `turns` turns are complete or the game ends; an action the engine refuses
    /// (a bug in the policy) is returned with the reason.
    pub fn play_random(&mut self, seed: u64, turns: u32) -> Result<(), (Action, Illegal)> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while self.turns < turns {
            let Some(action) = self.random_action(&mut rng) else { break };
            self.apply(&action).map_err(|e| (action, e))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::grid::hex::hexagon;
    use crate::railways::catalogue::City;
    use crate::railways::dice::{DiceFaces, TrackFace};
    use crate::railways::terrain::{Terrain, TerrainFace};

    /// A plains hexagon of radius 3: blue's home in the middle, its other cities east, north-west
    /// and south-west, yellow's only city (its home) in the north-east, a gray city west of blue's
    /// home.
    fn small() -> Game {
        let hexes: BTreeMap<Hex, Terrain> = hexagon(3).into_iter().map(|h| (h, Terrain::Plains)).collect();
        let city = |name: &str, q, r, colour, home| City { name: name.into(), hex: Hex::new(q, r), colour, home };
        let blue = CityColour::Player(Colour::Blue);
        let cities = vec![
            city("home", 0, 0, blue, true),
            city("east", 3, 0, blue, false),
            city("north", 0, -3, blue, false),
            city("south", -3, 3, blue, false),
            city("yellow", 3, -3, CityColour::Player(Colour::Yellow), true),
            city("gray", -2, 0, CityColour::Gray, false),
        ];
        let dice = DiceFaces { track: [TrackFace::StraightCurved; 6], terrain: [TerrainFace::Any; 6] };
        let supply = Supply { straight: 100, curved: 100, crossing: 31 };
        let content = Content::from_parts("small", hexes, cities, dice, supply).expect("a map");
        Game::new(Arc::new(content), &[Colour::Blue, Colour::Yellow], Options::default(), 1).expect("a game")
    }

    fn ends(a: u8, b: u8) -> Ends {
        Ends::new(Side::new(a), Side::new(b)).expect("two sides")
    }

    #[test]
    fn the_first_tile_leaves_the_home_city_and_a_link_takes_the_citys_cubes() {
        let game = small();
        let blue = Colour::Blue;
        // Not next to anything of blue's.
        assert!(matches!(game.with_track(blue, &[(Hex::new(1, 1), ends(0, 3))]), Err((0, Illegal::Unjoined(_)))));
        // East from home, then on to the east city: linked, its two cubes in hand.
        let after =
            game.with_track(blue, &[(Hex::new(1, 0), ends(0, 3)), (Hex::new(2, 0), ends(0, 3))]).expect("legal");
        let east = 1;
        assert!(after.players()[0].linked.contains(&east));
        assert_eq!(after.players()[0].cubes, CUBES_IN_HAND + CUBES_ON_OWN_CITY);
        assert_eq!(after.cubes_on(east, blue), 0);
        assert!(after.problems().is_empty(), "{:?}", after.problems());
        // A tile of blue's own on a hex it already holds.
        assert!(matches!(after.with_track(blue, &[(Hex::new(1, 0), ends(1, 4))]), Err((0, Illegal::Hex(_)))));
    }

    #[test]
    fn no_entry_into_another_colours_city_and_two_connections_to_a_gray_city() {
        let game = small();
        let blue = Colour::Blue;
        // North-east from home towards yellow's city: the second tile would enter it.
        let towards = [(Hex::new(1, -1), ends(1, 4)), (Hex::new(2, -2), ends(1, 4))];
        let e = game.with_track(blue, &towards);
        assert!(matches!(&e, Err((1, Illegal::Entry(m))) if m.contains("only yellow may enter")), "{e:?}");
        // West into the gray city (one connection, one cube), out of it again (two), and no third.
        let west = game.with_track(blue, &[(Hex::new(-1, 0), ends(0, 3))]).expect("legal");
        assert_eq!(west.connections(blue, 5), 1);
        assert_eq!(west.players()[0].cubes, CUBES_IN_HAND + 1);
        let out = west.with_track(blue, &[(Hex::new(-1, -1), ends(1, 4))]).expect("leaving the gray city");
        assert_eq!(out.connections(blue, 5), 2);
        let third = out.with_track(blue, &[(Hex::new(-2, -1), ends(2, 5))]);
        assert!(matches!(third, Err((0, Illegal::Entry(_)))), "{third:?}");
        // Under the strict reading, a gray city is not left.
        let mut strict = west.clone();
        strict.options.gray_exits = GrayExits::OwnCitiesOnly;
        assert!(matches!(strict.with_track(blue, &[(Hex::new(-1, -1), ends(1, 4))]), Err((0, Illegal::Unjoined(_)))));
    }

    #[test]
    fn a_reroll_costs_a_cube_and_changes_only_the_dice_rolled_again() {
        let mut game = small();
        let faces = game.content().dice.clone();
        let roll = Roll { track: [faces.track[0]; 2], terrain: [TerrainFace::Any; 2] };
        game.apply(&Action::Roll { roll }).expect("the roll");
        let mut other = roll;
        other.terrain[1] = TerrainFace::Water;
        let e = game.apply(&Action::Reroll { dice: vec![Die::Terrain(0)], roll: other });
        assert_eq!(e, Err(Illegal::NoFace("water".into())), "the small map's terrain dice only show any");
        let e = game.apply(&Action::Reroll { dice: vec![Die::Track(0), Die::Track(0)], roll });
        assert_eq!(e, Err(Illegal::RerollDice));
        for _ in 0..CUBES_IN_HAND {
            game.apply(&Action::Reroll { dice: vec![Die::Terrain(1)], roll }).expect("a cube to spend");
        }
        assert_eq!(game.apply(&Action::Reroll { dice: vec![Die::Terrain(1)], roll }), Err(Illegal::NoCube));
        assert_eq!(game.reserve(Colour::Blue), CUBES_PER_COLOUR - 6 - 1 - CUBES_IN_HAND + CUBES_IN_HAND);
        assert_eq!(game.cube_count(Colour::Blue), u32::from(CUBES_PER_COLOUR));
    }

    #[test]
    fn the_round_is_completed_after_the_trigger_and_the_game_ends() {
        // Yellow has linked its only city from the start: its first turn triggers the end, and
        // the round ends with it (yellow sits last).
        let mut game = small();
        let roll = Roll { track: [TrackFace::StraightCurved; 2], terrain: [TerrainFace::Any; 2] };
        for _ in 0..2 {
            for a in [Action::Roll { roll }, Action::Pair { crossed: false }, Action::End] {
                game.apply(&a).expect("legal");
            }
        }
        assert!(game.is_over());
        assert_eq!(game.winners(), vec![Colour::Yellow]);
        assert_eq!(game.apply(&Action::Roll { roll }), Err(Illegal::Phase(Phase::Over)));
    }

    #[test]
    fn a_build_needs_a_free_slot_of_its_kind() {
        let mut game = small();
        let roll = Roll { track: [TrackFace::StraightCurved; 2], terrain: [TerrainFace::Any; 2] };
        game.apply(&Action::Roll { roll }).expect("legal");
        game.apply(&Action::Pair { crossed: false }).expect("legal");
        let straight = Action::Build { hex: Hex::new(1, 0), ends: ends(0, 3), slot: 0 };
        game.apply(&straight).expect("slot 0 is a straight tile");
        let again = Action::Build { hex: Hex::new(2, 0), ends: ends(0, 3), slot: 0 };
        assert_eq!(game.apply(&again), Err(Illegal::Slot(0)));
        let curved = Action::Build { hex: Hex::new(2, 0), ends: ends(0, 3), slot: 1 };
        assert!(matches!(game.apply(&curved), Err(Illegal::Kind { kind: TileKind::Curved, .. })));
        assert_eq!(
            game.legal_builds().len(),
            game.legal_builds().iter().collect::<std::collections::HashSet<_>>().len()
        );
    }
}
