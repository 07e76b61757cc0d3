//! `railways-roll`: the use of a given roll (a pairing of the dice and the builds) that leaves
//! the fewest tiles still to build, when exactly one end of turn leaves that few
//! (`docs/rules/railways-express.md`, Puzzles P5 to P8).
//!
//! Every pairing and every sequence of legal builds is searched, as
//! [`signalbox_solver::railways::roll::best_use`] searches them, each end of turn valued by the
//! fewest tiles still needed ([`min_link`]); the search keeps to the calling thread. A node
//! whose every end must leave more than one tile above the fewest found is cut (a build lowers
//! the fewest tiles by one at most, ruling T2), which loses no end within one tile of the best:
//! the answer's own shorter uses are among them, so the runner-up is always found.

use std::collections::{BTreeMap, BTreeSet};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use signalbox_engine::grid::hex::Hex;
use signalbox_engine::railways::colour::Colour;
use signalbox_engine::railways::dice::Roll;
use signalbox_engine::railways::game::{Action, Game};
use signalbox_engine::railways::record::{Move, roll_words};
use signalbox_engine::railways::terrain::Terrain;
use signalbox_engine::railways::track::Ends;
use signalbox_solver::analysis::Better;
use signalbox_solver::railways::link::min_link;
use signalbox_solver::railways::roll::{Key, Tiles, key, on_plan, slots_used};

use super::{Read, Spec, built, over_other, parts, picture, read, small_game, write};
use crate::kind::{Kind, Theme};
use crate::puzzle::{Answer, Attempt, Difficulty, Grade, Proof, PuzzleError, Solved, Verdict};

/// The kind.
pub struct RailwaysRoll;

/// The kind, for [`crate::kinds`].
pub static RAILWAYS_ROLL: RailwaysRoll = RailwaysRoll;

const THEMES: &[Theme] = &[
    Theme {
        name: "crossed-pairing",
        description: "The answer pairs first track die with second terrain die (and the second with the first): the pairing as rolled cannot do it.",
    },
    Theme { name: "crossing", description: "The answer lays a tile over another player's track." },
    Theme { name: "link-city", description: "The answer links one of the player's cities this turn." },
    Theme { name: "rough-terrain", description: "The answer builds on a mountain or water hex." },
    Theme {
        name: "switch-route",
        description: "The answer leaves the plan the linker finds for the position: another route of as few tiles fits the dice better.",
    },
];

/// Rating thresholds: below `MEDIUM` easy, below `HARD` medium.
const MEDIUM: f64 = 3.0;
const HARD: f64 = 4.6;

/// An end of turn: the first way found to it and the fewest tiles still needed after it.
#[derive(Clone, Debug)]
pub(crate) struct End {
    pub(crate) crossed: bool,
    pub(crate) builds: Vec<Action>,
    pub(crate) remaining: usize,
}

/// What the search finds: every end of turn that leaves at most one tile more than the fewest
/// (and maybe some others), the position's plan, and the work.
pub(crate) struct Search {
    pub(crate) ends: BTreeMap<Key, End>,
    pub(crate) plan: Vec<(Hex, Ends)>,
    pub(crate) work: u64,
}

/// The roll of a roll position, and its player (the player to move).
fn roll_of(read: &Read) -> Result<(Roll, Colour), PuzzleError> {
    let text = read.written.roll.as_ref().ok_or_else(|| PuzzleError::Position("roll: missing".into()))?;
    let roll: Roll = text.parse().map_err(|e: String| PuzzleError::Position(format!("roll: {e}")))?;
    if read.written.player.is_some() {
        return Err(PuzzleError::Position("player: a roll position is the player to move's; leave it out".into()));
    }
    let colour = read.game.players()[read.game.active()].colour;
    let mut rolled = read.game.clone();
    rolled.apply(&Action::Roll { roll }).map_err(|e| PuzzleError::Position(format!("roll: {e}")))?;
    Ok((roll, colour))
}

/// The search (see the module documentation).
pub(crate) fn search(game: &Game, roll: Roll, colour: Colour) -> Result<Search, PuzzleError> {
    let mut rolled = game.clone();
    rolled.apply(&Action::Roll { roll }).map_err(|e| PuzzleError::Position(format!("roll: {e}")))?;
    let Some((start, _)) = min_link(&rolled, colour) else {
        return Err(PuzzleError::Position(format!("{colour} cannot link its cities any more (within the supply)")));
    };
    if start.tiles.is_empty() {
        return Err(PuzzleError::Position(format!("{colour} has linked all its cities already")));
    }
    let mut memo: BTreeMap<Key, Option<Vec<(Hex, Ends)>>> = BTreeMap::new();
    memo.insert(key(&rolled, colour), Some(start.tiles.clone()));
    let mut seen: BTreeSet<(Key, bool, [bool; 4])> = BTreeSet::new();
    let mut ends: BTreeMap<Key, End> = BTreeMap::new();
    let mut fewest = start.tiles.len();
    let mut work = 0u64;
    for crossed in [false, true] {
        let mut paired = rolled.clone();
        paired.apply(&Action::Pair { crossed }).map_err(|e| PuzzleError::Solver(e.to_string()))?;
        let mut stack: Vec<(Game, Vec<Action>, Tiles)> = vec![(paired, Vec::new(), start.tiles.clone())];
        while let Some((g, builds, plan)) = stack.pop() {
            let remaining = plan.len();
            let (here, slots) = (key(&g, colour), slots_used(&g));
            let left = slots.iter().filter(|&&u| !u).count();
            if remaining.saturating_sub(left) > fewest + 1 || !seen.insert((here.clone(), crossed, slots)) {
                continue;
            }
            work += 1;
            fewest = fewest.min(remaining);
            ends.entry(here).or_insert_with(|| End { crossed, builds: builds.clone(), remaining });
            let mut children = Vec::new();
            for b in g.legal_builds() {
                let mut n = g.clone();
                if n.apply(&b).is_err() {
                    continue;
                }
                let k = key(&n, colour);
                if seen.contains(&(k.clone(), crossed, slots_used(&n))) {
                    continue;
                }
                let tiles = match on_plan(&n, colour, &plan, &b) {
                    Some(t) => Some(t),
                    None => memo
                        .entry(k)
                        .or_insert_with(|| {
                            work += 1;
                            min_link(&n, colour).map(|(p, _)| p.tiles)
                        })
                        .clone(),
                };
                if let Some(tiles) = tiles {
                    let mut more = builds.clone();
                    more.push(b);
                    children.push((n, more, tiles));
                }
            }
            // The stack pops the last first: the fewest tiles last.
            children.sort_by_key(|c| std::cmp::Reverse(c.2.len()));
            stack.extend(children);
        }
    }
    Ok(Search { ends, plan: start.tiles, work })
}

/// The answer's end and the runner-up's value (the search always records the use of no builds,
/// so there is an end).
fn rank(s: &Search) -> Result<(Key, End, Option<usize>), PuzzleError> {
    let (bk, be) = s
        .ends
        .iter()
        .min_by_key(|(_, e)| e.remaining)
        .map(|(k, e)| (k.clone(), e.clone()))
        .ok_or_else(|| PuzzleError::Solver("no end of turn".into()))?;
    let runner = s.ends.iter().filter(|(k, _)| **k != bk).map(|(_, e)| e.remaining).min();
    Ok((bk, be, runner))
}

/// The moves of a use: the pairing and the builds, in a record's form.
fn moves(game: &Game, crossed: bool, builds: &[Action]) -> Vec<Move> {
    let mut out = vec![Move::Pair { crossed }];
    out.extend(builds.iter().map(|b| Move::from_action(game.content(), b)));
    out
}

/// The simple technique: for each pairing, build the first tile of the position's plan (in its
/// order) that a free slot allows, again and again; the pairing that lays more wins (straight on
/// a tie).
pub(crate) fn simple(game: &Game, roll: Roll, plan: &[(Hex, Ends)]) -> Option<(bool, Vec<Action>)> {
    let mut best: Option<(bool, Vec<Action>)> = None;
    for crossed in [false, true] {
        let mut g = game.clone();
        g.apply(&Action::Roll { roll }).ok()?;
        g.apply(&Action::Pair { crossed }).ok()?;
        let mut builds = Vec::new();
        let mut left: Vec<(Hex, Ends)> = plan.to_vec();
        'lay: loop {
            for (i, &(hex, ends)) in left.iter().enumerate() {
                for slot in 0..4u8 {
                    let b = Action::Build { hex, ends, slot };
                    if g.apply(&b).is_ok() {
                        builds.push(b);
                        left.remove(i);
                        continue 'lay;
                    }
                }
            }
            break;
        }
        if best.as_ref().is_none_or(|(_, b)| builds.len() > b.len()) {
            best = Some((crossed, builds));
        }
    }
    best
}

/// The end of a use replayed from the position: the game after, or which move fails and why.
fn replay(game: &Game, roll: Roll, moves: &[Move]) -> Result<Game, String> {
    let mut g = game.clone();
    g.apply(&Action::Roll { roll }).map_err(|e| e.to_string())?;
    for (i, m) in moves.iter().enumerate() {
        g.apply(&m.action()).map_err(|e| format!("move {i} ({m}): {e}"))?;
    }
    Ok(g)
}

fn words(moves: &[Move]) -> String {
    moves.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
}

/// A player's use in words: `pair straight|crossed`, then builds `build e-w on [c, r] with slot
/// n`, separated by `;`, an `end` allowed last.
fn parse_use(text: &str) -> Result<Vec<Move>, PuzzleError> {
    let mut out = Vec::new();
    let all = parts(text);
    for (i, part) in all.iter().enumerate() {
        let m: Move = part.parse().map_err(PuzzleError::Answer)?;
        match (&m, i) {
            (Move::Pair { .. }, 0) | (Move::Build { .. }, 1..) => out.push(m),
            (Move::End, _) if i + 1 == all.len() && i > 0 => {}
            _ => {
                return Err(PuzzleError::Answer(format!(
                    "{part:?}: expected pair straight or pair crossed first, then builds such as build e-w on [5, 4] with slot 0"
                )));
            }
        }
    }
    if out.is_empty() {
        return Err(PuzzleError::Answer("expected pair straight or pair crossed, then the builds".into()));
    }
    Ok(out)
}

impl Kind for RailwaysRoll {
    fn name(&self) -> &'static str {
        "railways-roll"
    }
    fn game(&self) -> &'static str {
        "railways"
    }
    fn title(&self) -> &'static str {
        "Use this roll"
    }
    fn unit(&self) -> &'static str {
        "tiles still needed"
    }
    fn better(&self) -> Better {
        Better::Lower
    }
    fn themes(&self) -> &'static [Theme] {
        THEMES
    }
    fn grading(&self) -> &'static str {
        "Factors: builds (tiles the answer lays), simple_finds (1 when laying the position's plan's tiles in order as the dice allow finds it), switch_route (1 when the answer leaves that plan), crossed (1 when the answer pairs the dice crossed), near (ends of turn that leave one tile more). Rating = 2 x (1 - simple_finds) + switch_route + crossed / 2 + builds / 4 + min(near, 20) / 20; easy below 3, medium below 4.6, hard from 4.6."
    }
    fn simple_technique(&self) -> &'static str {
        "laying as many tiles of the position's plan as the dice allow, in the plan's order"
    }

    fn position(&self, candidate: u64) -> Result<Value, &'static str> {
        let mut rng = ChaCha8Rng::seed_from_u64(candidate);
        let spec = Spec {
            width: rng.random_range(7..=9),
            height: rng.random_range(6..=7),
            yellow_cities: 4,
            grays: rng.random_range(1..=2),
            rounds: rng.random_range(1..=4),
            stop: 6,
        };
        let game = small_game(&mut rng, spec).ok_or("no game on the map drawn")?;
        let roll = Roll::random(&game.content().dice, &mut rng);
        match min_link(&game, Colour::Blue) {
            None => Err("blue cannot link its cities"),
            Some((p, _)) if p.tiles.len() < 4 => Err("fewer than four tiles still to build"),
            Some(_) => Ok(write(&game, false, None, Some(roll_words(roll)))),
        }
    }

    fn question(&self, position: &Value) -> Result<String, PuzzleError> {
        let read = read(position)?;
        let (roll, colour) = roll_of(&read)?;
        Ok(format!(
            "{colour} rolls {}: which pairing and builds leave the fewest tiles still to build? Answer as `pair straight` or `pair crossed`, then `build e-w on [column, row] with slot n` for each tile, separated by `;`.",
            roll_words(roll)
        ))
    }

    fn solve(&self, position: &Value) -> Result<Solved, PuzzleError> {
        let read = read(position)?;
        let (roll, colour) = roll_of(&read)?;
        let game = &read.game;
        let s = search(game, roll, colour)?;
        let (best_key, best, runner) = rank(&s)?;
        if best.builds.is_empty() && runner.is_none_or(|r| r > best.remaining) {
            return Err(PuzzleError::Unfit(format!(
                "no use of {} lowers the tiles {colour} still needs",
                roll_words(roll)
            )));
        }
        let ms = moves(game, best.crossed, &best.builds);
        // The certificate: the engine replays the use and the linker values its end.
        let after = replay(game, roll, &ms).map_err(PuzzleError::Solver)?;
        if min_link(&after, colour).map(|(p, _)| p.tiles.len()) != Some(best.remaining)
            || key(&after, colour) != best_key
        {
            return Err(PuzzleError::Solver("the best use does not replay to its value".into()));
        }
        let tiles = built(&best.builds);
        let on: BTreeSet<(Hex, Ends)> = s.plan.iter().copied().collect();
        let switch = tiles.iter().any(|t| !on.contains(t));
        let simple_finds = simple(game, roll, &s.plan)
            .is_some_and(|(c, b)| replay(game, roll, &moves(game, c, &b)).is_ok_and(|g| key(&g, colour) == best_key));
        let near = s.ends.values().filter(|e| e.remaining == best.remaining + 1).count();
        let rating = 2.0 * f64::from(u8::from(!simple_finds))
            + f64::from(u8::from(switch))
            + f64::from(u8::from(best.crossed)) / 2.0
            + tiles.len() as f64 / 4.0
            + near.min(20) as f64 / 20.0;
        let factors = BTreeMap::from([
            ("builds".to_string(), tiles.len() as f64),
            ("simple_finds".to_string(), f64::from(u8::from(simple_finds))),
            ("switch_route".to_string(), f64::from(u8::from(switch))),
            ("crossed".to_string(), f64::from(u8::from(best.crossed))),
            ("near".to_string(), near as f64),
        ]);
        let mut themes = BTreeSet::new();
        if best.crossed {
            themes.insert("crossed-pairing");
        }
        if tiles.iter().any(|&(h, _)| over_other(game, colour, h)) {
            themes.insert("crossing");
        }
        let seat = game.active();
        let own = game.content().cities_of(colour);
        if own.iter().any(|c| after.players()[seat].linked.contains(c) && !game.players()[seat].linked.contains(c)) {
            themes.insert("link-city");
        }
        if tiles.iter().any(|&(h, _)| matches!(game.content().terrain(h), Some(Terrain::Mountain | Terrain::Water))) {
            themes.insert("rough-terrain");
        }
        if switch {
            themes.insert("switch-route");
        }
        let proof = Proof {
            best: best.remaining as f64,
            runner_up: runner.map(|r| r as f64),
            margin: runner.map(|r| r as f64 - best.remaining as f64),
            work: s.work,
            details: json!({"before": s.plan.len(), "ends_compared": s.ends.len()}),
        };
        Ok(Solved {
            answer: Answer { text: words(&ms), moves: serde_json::to_value(&ms).unwrap_or(Value::Null) },
            proof,
            grade: Grade { difficulty: Difficulty::of_rating(rating, MEDIUM, HARD), rating, factors },
            themes: themes.into_iter().map(String::from).collect(),
        })
    }

    fn attempt(&self, position: &Value, text: &str) -> Result<Attempt, PuzzleError> {
        let read = read(position)?;
        let (roll, colour) = roll_of(&read)?;
        let game = &read.game;
        let ms = parse_use(text)?;
        let understood = words(&ms);
        let s = search(game, roll, colour)?;
        let (best_key, best, _) = rank(&s)?;
        let best_value = best.remaining as f64;
        let illegal = |reason: String| Attempt {
            verdict: Verdict::Illegal { reason },
            value: None,
            best: best_value,
            understood: understood.clone(),
        };
        let after = match replay(game, roll, &ms) {
            Ok(g) => g,
            Err(reason) => return Ok(illegal(reason)),
        };
        let Some((plan, _)) = min_link(&after, colour) else {
            return Ok(illegal(format!("after these builds {colour} can no longer link its cities")));
        };
        let value = plan.tiles.len() as f64;
        let verdict =
            if key(&after, colour) == best_key { Verdict::Solved } else { Verdict::Short { loss: value - best_value } };
        Ok(Attempt { verdict, value: Some(value), best: best_value, understood })
    }

    fn simple_finds(&self, position: &Value) -> Result<bool, PuzzleError> {
        let read = read(position)?;
        let (roll, colour) = roll_of(&read)?;
        let game = &read.game;
        let s = search(game, roll, colour)?;
        let (best_key, _, _) = rank(&s)?;
        Ok(simple(game, roll, &s.plan)
            .is_some_and(|(c, b)| replay(game, roll, &moves(game, c, &b)).is_ok_and(|g| key(&g, colour) == best_key)))
    }

    fn picture(&self, position: &Value, answer: Option<&Answer>) -> Result<String, PuzzleError> {
        let read = read(position)?;
        let (roll, colour) = roll_of(&read)?;
        let game = &read.game;
        let mut title = vec![format!(
            "Railways Express: {colour} rolls {}; the use that leaves the fewest tiles",
            roll_words(roll)
        )];
        let (mut plan, mut advised) = (Vec::new(), Vec::new());
        if let Some(a) = answer {
            let ms = parse_use(&a.text)?;
            let after = replay(game, roll, &ms).map_err(PuzzleError::Answer)?;
            advised = ms
                .iter()
                .filter_map(|m| match m.action() {
                    Action::Build { hex, ends, .. } => Some((hex, ends)),
                    _ => None,
                })
                .collect();
            if let Some((p, _)) = min_link(&after, colour) {
                plan = p.tiles;
            }
            title.push(format!(
                "Answer: {} builds, then {} tiles still to build (drawn hollow)",
                advised.len(),
                plan.len()
            ));
        }
        Ok(picture(game, colour, &plan, &advised, &title))
    }
}
