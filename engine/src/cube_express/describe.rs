//! Actions in words, for a person reading a plan: each says what it takes and what it gives,
//! from which tile, for whom, as the active player would take it in the game at hand. Pieces are
//! numbered as in the files, from 0: locomotive 0 and 1, display and objective columns 0 to 3,
//! seats 0 to 3 (`docs/formats/cube-express-position.md`).

use super::action::{Action, Lay, ordinal};
use super::board::Piece;
use super::game::Game;
use super::resource::Resources;
use super::tile::Centre;
use crate::grid::square::Cell;

/// `n` and `noun`, plural unless `n` is 1 ("1 dividend", "2 dividends").
pub fn plural(n: impl std::fmt::Display, noun: &str) -> String {
    let n = n.to_string();
    if n == "1" { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

/// Resources as counted cubes ("2 coal and 1 iron"; "nothing").
fn cubes(r: &Resources) -> String {
    let parts: Vec<String> = super::resource::Resource::ALL
        .iter()
        .filter(|&&x| r.get(x) > 0)
        .map(|&x| format!("{} {x}", r.get(x)))
        .collect();
    match parts.as_slice() {
        [] => "nothing".to_string(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

impl Game {
    /// `action` in words, as the active player would take it now (before it is applied): the
    /// tile laid and its centre action's yield; where a locomotive moves from and to, with the
    /// movement points left; what a pickup takes from which facility and whose stock rises; what
    /// a delivery takes to which factory and where its cubes go; whose cube a passenger is and in
    /// which city; which display column and tile the market takes. An action that is not legal now
    /// is described without its effects.
    pub fn describe(&self, action: &Action) -> String {
        let seat = usize::from(self.active());
        let me = &self.players()[seat];
        let colour = me.colour;
        let here: Option<Cell> = self.moving().and_then(|(_, visited)| visited.last().copied());
        let at_here = |what: &str| here.map_or_else(|| what.to_string(), |c| format!("{what} on {c}"));
        let after = {
            let mut g = self.clone();
            g.apply(action).ok().map(|()| g)
        };
        let after_me = after.as_ref().map(|g| &g.players()[seat]);
        match *action {
            Action::Convert { conversion } => {
                let (_, _, dividend) = conversion.recipe();
                format!(
                    "convert {conversion}{}",
                    if dividend { "" } else { " (the other cube goes back to the reserve)" }
                )
            }
            Action::Sell { spaces } => format!(
                "sell {} of stock (disc from space {} to {}) for {} from the reserve",
                plural(spaces, "space"),
                me.stock,
                me.stock.saturating_sub(spaces),
                plural(spaces, "dividend")
            ),
            Action::Lay(lay) => self.describe_lay(&lay, after.as_ref()),
            Action::NoLay => "no tile of the hand fits anywhere, either side up: lay nothing".to_string(),
            Action::BuildLocomotive { at } => {
                format!("build the second locomotive at {colour}'s station on {at}, for 1 coal and 1 iron")
            }
            Action::Coal => match after.as_ref() {
                Some(g) => format!("spend 1 coal for 1 more movement point ({} left)", g.movement_left()),
                None => "spend 1 coal for 1 more movement point".to_string(),
            },
            Action::Move { locomotive, to } => {
                let from = me.locomotives.get(usize::from(locomotive)).copied().flatten();
                let from = from.map_or_else(String::new, |c| format!(" from {c}"));
                match after.as_ref() {
                    Some(g) => format!(
                        "the {} locomotive moves{from} to {to} ({} left)",
                        ordinal(locomotive),
                        plural(g.movement_left(), "movement point")
                    ),
                    None => format!("the {} locomotive moves{from} to {to}", ordinal(locomotive)),
                }
            }
            Action::Pickup => {
                let tile = here.and_then(|c| self.board().at(c));
                let Some((tile, r)) = tile.and_then(|t| Some((t, t.face.production?))) else {
                    return at_here("pick up");
                };
                if tile.piece == Piece::Crossing {
                    return format!("pick up 1 {r} at the start crossing on {} (nobody owns it)", tile.cell);
                }
                let owner = match tile.owner {
                    None => "nobody owns it".to_string(),
                    Some(o) if usize::from(o) == seat => format!("{colour}'s own: no stock rise"),
                    Some(o) => {
                        let c = self.players()[usize::from(o)].colour;
                        format!("{c} owns it: {c}'s stock +1")
                    }
                };
                format!("pick up 1 {r} from the production facility on {} ({owner})", tile.cell)
            }
            Action::Deliver { objective } => {
                let tile = here.and_then(|c| self.board().at(c));
                let Some((tile, factory)) = tile.and_then(|t| Some((t, t.face.factory?))) else {
                    return at_here("deliver");
                };
                let n = factory.needs.total();
                let space = if tile.first.is_none() {
                    format!("space A ({}, stock +2)", plural(factory.a, "point"))
                } else {
                    format!("space B ({}, stock +1)", plural(factory.b, "point"))
                };
                let mut out =
                    format!("deliver {} to the factory on {}: a cube on its {space}", cubes(&factory.needs), tile.cell);
                if n >= 2 {
                    out.push_str(", a dividend");
                }
                if n >= 3 {
                    match objective {
                        Some(c) => {
                            let card = self.content().objective(self.objectives()[usize::from(c) % 4]);
                            let name = card.map_or_else(String::new, |o| format!(" ({})", o.name));
                            out.push_str(&format!(", and a cube on the {} column's objective card{name}", ordinal(c)));
                        }
                        None if self.is_solo() => {
                            out.push_str(", and the third cube back to the reserve (no objective card in play)")
                        }
                        None => out.push_str(", and the third cube back to the reserve (no objective card has room)"),
                    }
                }
                out
            }
            Action::Passenger => {
                let Some(c) = here else { return "place a passenger".to_string() };
                let board = self.board();
                let cities = board.cities();
                let city = board.index_of(c).and_then(|i| cities.city_of[i]);
                match city {
                    Some(k) => {
                        let station = cities.station[k].map_or_else(
                            || "no station".to_string(),
                            |o| format!("{}'s station", self.players()[usize::from(o)].colour),
                        );
                        format!(
                            "place a passenger ({colour} cube from the reserve) in the city on {c} ({station}; \
                             now {} for {})",
                            plural(cities.passengers[k] + 1, "passenger"),
                            plural(cities.houses[k], "house icon")
                        )
                    }
                    None => format!("place a passenger on {c}"),
                }
            }
            Action::Market { slot, cube } => {
                let tile = self.display().get(usize::from(slot)).copied().flatten();
                let tile = tile.map_or_else(|| "the tile".to_string(), |t| format!("tile {t}"));
                let card = self.objectives().get(usize::from(slot)).and_then(|&id| self.content().objective(id));
                let name = card.map_or_else(String::new, |o| format!(" ({})", o.name));
                format!(
                    "take {tile} from the {} display column{}",
                    ordinal(slot),
                    if cube {
                        format!(" and place a dividend on the objective card above it{name}")
                    } else {
                        String::new()
                    }
                )
            }
            Action::NoMarket => {
                if self.is_solo() {
                    "no market (a solitaire game has no display)".to_string()
                } else if self.in_final_round() {
                    "no market (the final round)".to_string()
                } else {
                    "no market (the display is empty)".to_string()
                }
            }
            Action::End { discard } if discard.total() > 0 => {
                format!("end the turn, discarding {} (storage limit {})", cubes(&discard), self.tech_level(seat))
            }
            Action::End { .. } => match after_me {
                Some(p) if p.hand.len() > me.hand.len() && self.is_solo() => {
                    format!("end the turn and draw tile {}", p.hand.last().copied().unwrap_or(0))
                }
                _ => "end the turn".to_string(),
            },
        }
    }

    fn describe_lay(&self, lay: &Lay, after: Option<&Game>) -> String {
        let seat = usize::from(self.active());
        let me = &self.players()[seat];
        let turned = match lay.rotation {
            0 => "not turned".to_string(),
            r => format!("turned {} clockwise", plural(r, "quarter turn")),
        };
        let Some(tile) = self.content().tile(lay.tile) else { return format!("lay tile {}", lay.tile) };
        if lay.back {
            return format!("lay tile {} back up (plain track, no action) on {}, {turned}", lay.tile, lay.cell);
        }
        let mut out = format!(
            "lay tile {} ({} centre, tracks {} as printed) front up on {}, {turned}",
            lay.tile,
            tile.centre.name(),
            tile.tracks,
            lay.cell
        );
        let after_me = after.map(|g| &g.players()[seat]);
        if !lay.act {
            out.push_str(", without its centre action");
        } else {
            match (tile.centre, after_me) {
                (Centre::Crossing, Some(p)) => out.push_str(&format!(
                    ", and take its crossing action: {} from the reserve",
                    plural(p.dividends.saturating_sub(me.dividends), "dividend")
                )),
                (Centre::Factory(r), _) => out.push_str(&format!(", and take its factory action: 1 {r} into storage")),
                (Centre::Production, _) => out.push_str(&format!(
                    ", and take ownership of its {} production facility for 1 dividend",
                    tile.production.map_or("", |r| r.name())
                )),
                (Centre::Station, p) => {
                    let pay = &lay.pay;
                    let mut paid = Vec::new();
                    if pay.dividends > 0 {
                        paid.push(plural(pay.dividends, "dividend"));
                    }
                    if pay.resources().total() > 0 {
                        paid.push(cubes(&pay.resources()));
                    }
                    out.push_str(&format!(", and build a station there, paying {}", paid.join(" and ")));
                    if let (Some(_), Some(g)) = (p, after) {
                        out.push_str(&format!(
                            " (technology level {} to {})",
                            self.tech_level(seat),
                            g.tech_level(seat)
                        ));
                    }
                }
                (Centre::Crossing, None) => out.push_str(", and take its crossing action"),
            }
        }
        // A city space that grows the city of a station raises that station.
        if let Some(face) = self.lay_face(lay)
            && let Ok(Some(growth)) = self.board().check_lay(lay.cell, &face)
            && let Some(owner) = growth.station
        {
            out.push_str(&format!(
                "; the city of {}'s station grows to {} (+{})",
                self.players().get(usize::from(owner)).map_or_else(|| "a".to_string(), |p| p.colour.to_string()),
                plural(growth.houses, "house icon"),
                plural(growth.station_gain(), "point")
            ));
        }
        out
    }
}

impl Game {
    /// A turn's actions in words, one per step, each described as taken at that point of the
    /// turn (see [`Game::describe`]), from this game at the start of the turn. An action that
    /// does not apply is described as it stands, and the rest from the game before it.
    pub fn describe_turn(&self, actions: &[Action]) -> Vec<String> {
        let mut g = self.clone();
        actions
            .iter()
            .map(|a| {
                let words = g.describe(a);
                let _ = g.apply(a);
                words
            })
            .collect()
    }
}
