//! A turn as a puzzle's answer: what makes two turns the same answer (the face they lay and
//! where, [`Placement`]), the turn in words, and a player's words read back into actions.

use signalbox_engine::cube_express::action::{Action, Lay};
use signalbox_engine::cube_express::game::Game;
use signalbox_engine::cube_express::tile::Face;
use signalbox_engine::cube_express::words::{EXPECTED, parse_action};
use signalbox_engine::grid::square::Cell;
use signalbox_solver::cube_express::analysis::turn_text;

use crate::puzzle::PuzzleError;

/// What a turn lays in step I: the face that lies on the cell after it (the tile's side and
/// turn as the board shows them), or nothing when no tile fits (ruling L3). Two turns are the
/// same answer of a puzzle when they lay the same face on the same cell (`docs/rules/cube-express.md`,
/// "Puzzles").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Placement {
    /// No tile fits anywhere: `no-lay`.
    Nothing,
    /// `face` laid on `cell`.
    Laid {
        /// The cell.
        cell: Cell,
        /// The face as it lies there.
        face: Face,
    },
}

impl Placement {
    /// The placement of `lay` in `game` (`None`: no lay); `Nothing` also for a tile the content
    /// does not have (the engine refuses such a lay).
    pub fn of(game: &Game, lay: Option<&Lay>) -> Placement {
        match lay.and_then(|l| Some((l.cell, game.lay_face(l)?))) {
            Some((cell, face)) => Placement::Laid { cell, face },
            None => Placement::Nothing,
        }
    }

    /// The placement of a turn's actions: that of its lay.
    pub fn of_turn(game: &Game, actions: &[Action]) -> Placement {
        let lay = actions.iter().find_map(|a| if let Action::Lay(l) = a { Some(*l) } else { None });
        Placement::of(game, lay.as_ref())
    }
}

/// Every placement the player to move can make, each once, in the engine's order of lays.
pub fn placements(game: &Game) -> Vec<Placement> {
    let mut out: Vec<Placement> = Vec::new();
    for lay in game.legal_lays() {
        let p = Placement::of(game, Some(&lay));
        if !out.contains(&p) {
            out.push(p);
        }
    }
    if out.is_empty() {
        out.push(Placement::Nothing);
    }
    out
}

/// A turn in words, as the review prints it: each action in the words of
/// [`Game::describe_turn`], joined by "; ", the end of the turn left out unless it discards.
pub fn text(game: &Game, actions: &[Action]) -> String {
    turn_text(game, actions)
}

/// The clause a lay's words may end with, after a ";" ("; the city of red's station grows to
/// ..."), which belongs to the lay.
const LAY_CLAUSE: &str = "the city of";

/// The steps of a turn in words: split at each ";" outside brackets, a lay's city clause kept
/// with its lay, white space (line breaks too) read as one space, blank steps dropped.
fn steps(words: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut depth = 0i32;
    let mut current = String::new();
    let push = |current: &mut String, out: &mut Vec<String>| {
        let step = current.trim().to_string();
        current.clear();
        if step.is_empty() {
            return;
        }
        match out.last_mut() {
            Some(last) if step.to_lowercase().starts_with(LAY_CLAUSE) => {
                last.push_str("; ");
                last.push_str(&step);
            }
            _ => out.push(step),
        }
    };
    for c in words.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            _ => {}
        }
        if c == ';' && depth <= 0 {
            push(&mut current, &mut out);
        } else if c.is_whitespace() {
            // Line breaks and runs of spaces are one space.
            if !current.ends_with(' ') {
                current.push(' ');
            }
        } else {
            current.push(c);
        }
    }
    push(&mut current, &mut out);
    out
}

/// Reads a turn in words (the steps of [`text`], separated by ";"; case, spaces and line
/// breaks do not matter, the end of the turn may be left out): its actions, ending with the end
/// of the turn. The error names the step (from 1) that is not an action, and what was expected.
pub fn parse(words: &str) -> Result<Vec<Action>, PuzzleError> {
    let steps = steps(words);
    if steps.is_empty() {
        return Err(PuzzleError::Answer(format!("no actions: expected a turn as {EXPECTED}, separated by \";\"")));
    }
    let mut actions = Vec::with_capacity(steps.len() + 1);
    for (i, step) in steps.iter().enumerate() {
        let action = parse_action(step).map_err(|e| PuzzleError::Answer(format!("step {}: {e}", i + 1)))?;
        actions.push(action);
    }
    if !matches!(actions.last(), Some(Action::End { .. })) {
        actions.push(Action::End { discard: Default::default() });
    }
    Ok(actions)
}
