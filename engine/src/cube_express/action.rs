//! The actions of a turn, in the order a player takes them: trades at any time, laying a tile
//! (step I), moving and acting with the locomotives (step II), the market (step III) and the end
//! of the turn with the storage limit. A turn is a list of actions; a game record is a list of
//! turns.

use std::fmt;

use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

use super::resource::{Conversion, Resources};
use super::tagged;
use crate::grid::square::Cell;

/// How a station is paid (rulebook, step I.2, "Train Station"): cubes from the dividend area and
/// from storage, returned to the reserve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Payment {
    /// Dividends paid.
    #[serde(default)]
    pub dividends: u8,
    /// Coal paid.
    #[serde(default)]
    pub coal: u8,
    /// Wood paid.
    #[serde(default)]
    pub wood: u8,
    /// Iron paid.
    #[serde(default)]
    pub iron: u8,
}

impl Payment {
    /// The resources paid.
    pub const fn resources(&self) -> Resources {
        Resources { coal: self.coal, wood: self.wood, iron: self.iron }
    }

    /// All cubes paid.
    pub const fn total(&self) -> u8 {
        self.dividends + self.coal + self.wood + self.iron
    }
}

/// Laying a track tile from the hand (step I.1) and, if `act`, taking its centre action (I.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lay {
    /// The tile's id (it must be in the hand).
    pub tile: u8,
    /// Back side up.
    #[serde(default)]
    pub back: bool,
    /// The cell.
    pub cell: Cell,
    /// Quarter turns clockwise, 0 to 3.
    #[serde(default)]
    pub rotation: u8,
    /// Take the centre action (a front side only).
    #[serde(default)]
    pub act: bool,
    /// A station's payment (only when building a station).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pay: Payment,
}

fn is_zero(p: &Payment) -> bool {
    p.total() == 0
}

/// One action of a turn. As JSON, an object with `do` (the kind) and exactly that kind's fields
/// (`docs/formats/cube-express-position.md`); any other field is refused by name. A record may
/// also write it as a string in the words the text output prints ([`super::words`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "do", rename_all = "kebab-case")]
pub enum Action {
    /// A conversion on the player board (any time during the turn).
    Convert {
        /// Which.
        conversion: Conversion,
    },
    /// Sell stock: move the disc `spaces` left, taking as many cubes from the reserve as dividends
    /// (any time during the turn).
    Sell {
        /// Spaces, at least 1.
        spaces: u8,
    },
    /// Step I: lay a tile.
    Lay(Lay),
    /// Step I when no tile of the hand fits anywhere, front or back (ruling L3).
    NoLay,
    /// Step II: build the second locomotive at one of the player's stations for 1 coal and 1 iron.
    BuildLocomotive {
        /// The station's cell.
        at: Cell,
    },
    /// Step II: return 1 coal for 1 more movement point.
    Coal,
    /// Step II: move a locomotive onto the next tile (1 movement point).
    Move {
        /// 0 for the first locomotive, 1 for the second.
        locomotive: u8,
        /// The tile it moves onto.
        to: Cell,
    },
    /// Step II: take the resource of the production facility (or the start crossing's coal) on
    /// the tile the locomotive just moved onto.
    Pickup,
    /// Step II: deliver to the factory on the tile the locomotive just moved onto; the objective
    /// card (column 0 to 3) that receives the third cube, if any card can.
    Deliver {
        /// Column of the objective card, 0 to 3 from the left.
        objective: Option<u8>,
    },
    /// Step II: place a passenger in the city (with a station) the locomotive just moved into.
    Passenger,
    /// Step III: take the display tile in column `slot` (0 to 3 from the left) and, if `cube`,
    /// place a dividend on the objective card above it.
    Market {
        /// Column, 0 to 3.
        slot: u8,
        /// Place a dividend on that column's objective card.
        #[serde(default)]
        cube: bool,
    },
    /// Step III skipped: the final round, or an empty display.
    NoMarket,
    /// End the turn, discarding resources above the storage limit.
    End {
        /// What is discarded (exactly the excess).
        #[serde(default)]
        discard: Resources,
    },
}

/// Every action kind, as `do` names it.
const KINDS: &[&str] = &[
    "convert",
    "sell",
    "lay",
    "no-lay",
    "build-locomotive",
    "coal",
    "move",
    "pickup",
    "deliver",
    "passenger",
    "market",
    "no-market",
    "end",
];

/// Every field any action takes.
const FIELDS: &[&str] = &[
    "conversion",
    "spaces",
    "tile",
    "back",
    "cell",
    "rotation",
    "act",
    "pay",
    "at",
    "locomotive",
    "to",
    "objective",
    "slot",
    "cube",
    "discard",
];

impl<'de> Deserialize<'de> for Action {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Action, D::Error> {
        d.deserialize_any(ActionVisitor)
    }
}

struct ActionVisitor;

/// The fields of an action as read, each `None` until it is.
#[derive(Default)]
struct Slots {
    conversion: Option<Conversion>,
    spaces: Option<u8>,
    tile: Option<u8>,
    back: Option<bool>,
    cell: Option<Cell>,
    rotation: Option<u8>,
    act: Option<bool>,
    pay: Option<Payment>,
    at: Option<Cell>,
    locomotive: Option<u8>,
    to: Option<Cell>,
    objective: Option<Option<u8>>,
    slot: Option<u8>,
    cube: Option<bool>,
    discard: Option<Resources>,
}

impl<'de> Visitor<'de> for ActionVisitor {
    type Value = Action;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an action: an object with `do` and that action's fields, or the action in words")
    }

    fn visit_str<E: serde::de::Error>(self, words: &str) -> Result<Action, E> {
        super::words::parse_action(words).map_err(E::custom)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Action, A::Error> {
        let mut s = Slots::default();
        let t = tagged::read(map, "an action", "do", FIELDS, |name, map| {
            match name {
                "conversion" => s.conversion = Some(map.next_value()?),
                "spaces" => s.spaces = Some(map.next_value()?),
                "tile" => s.tile = Some(map.next_value()?),
                "back" => s.back = Some(map.next_value()?),
                "cell" => s.cell = Some(map.next_value()?),
                "rotation" => s.rotation = Some(map.next_value()?),
                "act" => s.act = Some(map.next_value()?),
                "pay" => s.pay = Some(map.next_value()?),
                "at" => s.at = Some(map.next_value()?),
                "locomotive" => s.locomotive = Some(map.next_value()?),
                "to" => s.to = Some(map.next_value()?),
                "objective" => s.objective = Some(map.next_value()?),
                "slot" => s.slot = Some(map.next_value()?),
                "cube" => s.cube = Some(map.next_value()?),
                _ => s.discard = Some(map.next_value()?),
            }
            Ok(())
        })?;
        let action = match t.kind.as_str() {
            "convert" => {
                t.allow(&["conversion"])?;
                Action::Convert { conversion: t.need(s.conversion, "conversion")? }
            }
            "sell" => {
                t.allow(&["spaces"])?;
                Action::Sell { spaces: t.need(s.spaces, "spaces")? }
            }
            "lay" => {
                t.allow(&["tile", "back", "cell", "rotation", "act", "pay"])?;
                Action::Lay(Lay {
                    tile: t.need(s.tile, "tile")?,
                    back: s.back.unwrap_or(false),
                    cell: t.need(s.cell, "cell")?,
                    rotation: s.rotation.unwrap_or(0),
                    act: s.act.unwrap_or(false),
                    pay: s.pay.unwrap_or_default(),
                })
            }
            "no-lay" => {
                t.allow(&[])?;
                Action::NoLay
            }
            "build-locomotive" => {
                t.allow(&["at"])?;
                Action::BuildLocomotive { at: t.need(s.at, "at")? }
            }
            "coal" => {
                t.allow(&[])?;
                Action::Coal
            }
            "move" => {
                t.allow(&["locomotive", "to"])?;
                Action::Move { locomotive: t.need(s.locomotive, "locomotive")?, to: t.need(s.to, "to")? }
            }
            "pickup" => {
                t.allow(&[])?;
                Action::Pickup
            }
            "deliver" => {
                t.allow(&["objective"])?;
                Action::Deliver { objective: s.objective.flatten() }
            }
            "passenger" => {
                t.allow(&[])?;
                Action::Passenger
            }
            "market" => {
                t.allow(&["slot", "cube"])?;
                Action::Market { slot: t.need(s.slot, "slot")?, cube: s.cube.unwrap_or(false) }
            }
            "no-market" => {
                t.allow(&[])?;
                Action::NoMarket
            }
            "end" => {
                t.allow(&["discard"])?;
                Action::End { discard: s.discard.unwrap_or_default() }
            }
            _ => return Err(t.unknown(KINDS)),
        };
        Ok(action)
    }
}

/// A locomotive, a display column or an objective card's column in words, from its number in
/// records (0 for the first): `first`, `second`, `third`, `fourth`.
pub fn ordinal(n: u8) -> String {
    match n {
        0 => "first".into(),
        1 => "second".into(),
        2 => "third".into(),
        3 => "fourth".into(),
        n => format!("{}th", u16::from(n) + 1),
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::Convert { conversion } => write!(f, "convert {conversion}"),
            Action::Sell { spaces } => {
                write!(f, "sell {} of stock for dividends", super::describe::plural(spaces, "space"))
            }
            Action::Lay(l) => {
                write!(
                    f,
                    "lay tile {} {} at {}, turned {}",
                    l.tile,
                    if l.back { "back up" } else { "front up" },
                    l.cell,
                    l.rotation
                )?;
                if l.act {
                    write!(f, ", take its action")?;
                    if l.pay.total() > 0 {
                        let p = l.pay;
                        write!(f, " (pay {} dividends, {})", p.dividends, p.resources())?;
                    }
                }
                Ok(())
            }
            Action::NoLay => write!(f, "no tile fits: lay nothing"),
            Action::BuildLocomotive { at } => write!(f, "build the second locomotive at the station on {at}"),
            Action::Coal => write!(f, "spend 1 coal for 1 movement point"),
            Action::Move { locomotive, to } => write!(f, "the {} locomotive moves to {to}", ordinal(locomotive)),
            Action::Pickup => write!(f, "pick up"),
            Action::Deliver { objective: Some(c) } => {
                write!(f, "deliver (objective cube to the {} column's card)", ordinal(c))
            }
            Action::Deliver { objective: None } => write!(f, "deliver"),
            Action::Passenger => write!(f, "place a passenger"),
            Action::Market { slot, cube } => {
                write!(
                    f,
                    "take the tile in the {} display column{}",
                    ordinal(slot),
                    if cube { " and place a dividend on the objective card above it" } else { "" }
                )
            }
            Action::NoMarket => write!(f, "no market"),
            Action::End { discard } if discard.total() > 0 => write!(f, "end the turn, discarding {discard}"),
            Action::End { .. } => write!(f, "end the turn"),
        }
    }
}
