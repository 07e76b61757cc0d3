//! The actions of a turn, in the order a player takes them: trades at any time, laying a tile
//! (step I), moving and acting with the locomotives (step II), the market (step III) and the end
//! of the turn with the storage limit. A turn is a list of actions; a game record is a list of
//! turns.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::resource::{Conversion, Resources};
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

/// One action of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "kebab-case", deny_unknown_fields)]
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

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::Convert { conversion } => write!(f, "convert {conversion}"),
            Action::Sell { spaces } => write!(f, "sell {spaces} stock space(s) for dividends"),
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
            Action::Move { locomotive, to } => write!(f, "locomotive {} moves to {to}", locomotive + 1),
            Action::Pickup => write!(f, "pick up"),
            Action::Deliver { objective: Some(c) } => write!(f, "deliver (objective cube to column {})", c + 1),
            Action::Deliver { objective: None } => write!(f, "deliver"),
            Action::Passenger => write!(f, "place a passenger"),
            Action::Market { slot, cube } => {
                write!(
                    f,
                    "take display tile {}{}",
                    slot + 1,
                    if cube { " and place a dividend on its objective" } else { "" }
                )
            }
            Action::NoMarket => write!(f, "no market"),
            Action::End { discard } if discard.total() > 0 => write!(f, "end the turn, discarding {discard}"),
            Action::End { .. } => write!(f, "end the turn"),
        }
    }
}
