//! A game from the table (`docs/formats/cube-express-position.md`, "A game from the table"): the
//! start as the table showed it, with no seed and no order of the face-down stack. The objective
//! cards, the first player, the hands and the display are what the players set out; the rest of
//! the tiles used with this player count are face down in the stack, in an order nobody knows
//! (docs/rules/cube-express.md, "At the table", rulings A1 and A2).

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::catalogue::{COLUMNS, Content};
use super::game::{Dealt, Game, HAND, hand_size};
use super::options::Options;
use super::position::Seat;

/// What the table shows at the start of a game (rulebook, "Setup"): the four objective cards
/// above the board, who plays first, each player's three tiles and the four tiles of the display.
/// The stack is optional: a game from the table does not know its order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableStart {
    /// Who takes the first turn: a seat from 0 or a colour.
    pub first: Seat,
    /// The objective cards' ids, columns 0 to 3 from the left.
    pub objectives: [u8; COLUMNS],
    /// Each player's tiles, in seat order (ruling A1: each player tells their own three tiles).
    pub hands: Vec<Vec<u8>>,
    /// The display's tiles, columns 0 to 3.
    pub display: [u8; COLUMNS],
    /// The face-down stack, bottom first (the last is turned up next), where it is known (a
    /// record cut from a dealt game); absent at the table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stack: Option<Vec<u8>>,
}

impl TableStart {
    /// The start of a dealt game as the table saw it: the seed's objective cards, first player,
    /// hands and display, and no stack.
    pub fn of(game: &Game) -> TableStart {
        TableStart {
            first: Seat::Colour(game.players()[usize::from(game.first_player())].colour),
            objectives: game.objectives(),
            hands: game.players().iter().map(|p| p.hand.clone()).collect(),
            display: game.display().map(|d| d.unwrap_or(0)),
            stack: None,
        }
    }

    /// The seat `first` names among `players` players of `content`.
    pub fn first_seat(&self, content: &Content, players: usize) -> Option<usize> {
        (0..players.min(content.starts.len())).find(|&s| self.first.names(s, content.starts[s].colour))
    }

    /// The game at the start, or every problem found, each naming its field (`table.hands[1][2]`).
    pub fn game(&self, content: Arc<Content>, players: usize, options: Options) -> Result<Game, Vec<String>> {
        let mut p = Vec::new();
        if !(2..=4).contains(&players) {
            p.push(format!("players: a game from the table is for 2 to 4 players, found {players}"));
            return Err(p);
        }
        let first = self.first_seat(&content, players);
        if first.is_none() {
            let colours: Vec<String> = (0..players).map(|s| format!("{s} ({})", content.starts[s].colour)).collect();
            p.push(format!("table.first: {} does not play; the seats are {}", self.first, colours.join(", ")));
        }
        let mut ids = self.objectives.to_vec();
        for (c, &id) in self.objectives.iter().enumerate() {
            if !content.objectives.iter().any(|o| o.id == id) {
                p.push(format!("table.objectives[{c}]: no objective card {id} (they are numbered 1 to 14)"));
            }
        }
        ids.sort_unstable();
        ids.dedup();
        if ids.len() != COLUMNS {
            p.push("table.objectives: four different objective cards lie above the board".to_string());
        }
        let mut places: BTreeMap<u8, Vec<String>> = BTreeMap::new();
        let mut put = |id: u8, place: String| places.entry(id).or_default().push(place);
        let hand = hand_size(players);
        if self.hands.len() != players {
            p.push(format!("table.hands: one hand per player, {players}, found {}", self.hands.len()));
        }
        for (s, h) in self.hands.iter().enumerate() {
            if h.len() != hand {
                p.push(format!("table.hands[{s}]: each player starts with {HAND} tiles, found {}", h.len()));
            }
            h.iter().enumerate().for_each(|(i, &id)| put(id, format!("table.hands[{s}][{i}]")));
        }
        self.display.iter().enumerate().for_each(|(c, &id)| put(id, format!("table.display[{c}]")));
        if let Some(stack) = &self.stack {
            stack.iter().enumerate().for_each(|(i, &id)| put(id, format!("table.stack[{i}]")));
        }
        for (&id, at) in &places {
            match content.tile(id) {
                None => p.push(format!("{}: no tile {id} in this set", at[0])),
                Some(t) if !t.players.used_with(players) => {
                    p.push(format!("{}: tile {id} is not used with {players} players (its back icon)", at[0]))
                }
                Some(_) if at.len() > 1 => p.push(format!("{}: tile {id} is also at {}", at[1], at[0])),
                Some(_) => {}
            }
        }
        let rest: Vec<u8> = content
            .tiles
            .iter()
            .filter(|t| t.players.used_with(players) && !places.contains_key(&t.id))
            .map(|t| t.id)
            .collect();
        if let Some(stack) = &self.stack
            && !rest.is_empty()
        {
            let missing: Vec<String> = rest.iter().map(u8::to_string).collect();
            p.push(format!(
                "table.stack: the stack holds every other tile; missing {} (or leave `stack` out)",
                missing.join(", ")
            ));
            let _ = stack;
        }
        if !p.is_empty() {
            return Err(p);
        }
        let (stack, hidden) = match &self.stack {
            Some(stack) => (stack.clone(), false),
            None => (rest, true),
        };
        let dealt = Dealt {
            hands: self.hands.clone(),
            display: self.display.map(Some),
            objectives: self.objectives,
            stack,
            hidden,
            first: first.unwrap_or(0) as u8,
        };
        Ok(Game::assemble(content, options, None, dealt))
    }
}
