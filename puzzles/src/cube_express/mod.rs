//! Cube Express puzzles: the best turn (`cube-express-turn`). A position at the start of a turn;
//! the question is the turn worth the most value points (ruling V1 of `docs/rules/cube-express.md`);
//! the answer is unique when every turn that lays another face, or lays it elsewhere, is worth
//! at least the margin less (ruling Z1 there, "Puzzles").

pub mod answer;
pub mod position;
pub mod solution;

use std::collections::BTreeMap;

use serde_json::{Value, json};
use signalbox_engine::cube_express::action::Action;
use signalbox_engine::cube_express::game::Game;
use signalbox_engine::cube_express::resource::Resource;
use signalbox_engine::cube_express::tile::Centre;
use signalbox_render::cube_express::picture::plan_svg;
use signalbox_solver::analysis::Better;
use signalbox_solver::cube_express::value::{Weights, value};

use crate::kind::{Kind, Theme};
use crate::puzzle::{Answer, Attempt, Difficulty, Grade, Proof, PuzzleError, Solved, Verdict};
use answer::Placement;
use solution::Solution;

/// The best turn of a Cube Express position.
#[derive(Clone, Copy, Debug, Default)]
pub struct BestTurn;

/// The themes of [`BestTurn`], by name (ruling Z4).
const THEMES: &[Theme] = &[
    Theme { name: "conversion-chain", description: "The turn converts a resource that an earlier conversion made." },
    Theme { name: "first-delivery", description: "The turn delivers to a factory whose first space (A) is free." },
    Theme {
        name: "join-city",
        description: "The tile laid joins its city space to a city with a station, whose station gains 3 points per house icon.",
    },
    Theme { name: "second-locomotive", description: "The turn builds the second locomotive." },
    Theme { name: "station", description: "The tile laid is a station centre, and the turn builds the station." },
    Theme { name: "stock-sale", description: "The turn sells stock for dividends." },
];

/// A rating below this is easy.
const MEDIUM: f64 = 2.0;
/// A rating at or above this is hard.
const HARD: f64 = 5.0;

/// Other placements within this many value points of the best count as close (factor `close`).
const CLOSE: i32 = 4;

impl BestTurn {
    fn solved(game: &Game) -> Result<(Solution, Placement), PuzzleError> {
        let solution = solution::solve(game)?;
        let greedy = greedy_placement(game);
        Ok((solution, greedy))
    }
}

/// The simple technique's placement: the lay worth the most on its own, its centre action
/// included (the value right after it, before any trade or movement; the first among equals).
pub fn greedy_placement(game: &Game) -> Placement {
    let weights = Weights::default();
    let mut best: Option<(i32, Placement)> = None;
    for lay in game.legal_lays() {
        let mut after = game.clone();
        if after.apply_in_place(&Action::Lay(lay)).is_err() {
            continue;
        }
        let v = value(game, &after, &weights);
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, Placement::of(game, Some(&lay))));
        }
    }
    best.map_or(Placement::Nothing, |(_, p)| p)
}

/// The themes of a turn played from `game`, sorted by name (ruling Z4).
pub fn themes(game: &Game, actions: &[Action]) -> Vec<String> {
    let mut found: Vec<&str> = Vec::new();
    let mut g = game.clone();
    let mut made: Vec<Resource> = Vec::new();
    for a in actions {
        match a {
            Action::BuildLocomotive { .. } => found.push("second-locomotive"),
            Action::Sell { .. } => found.push("stock-sale"),
            Action::Convert { conversion } => {
                let (from, to, _) = conversion.recipe();
                if made.contains(&from) {
                    found.push("conversion-chain");
                }
                made.push(to);
            }
            Action::Deliver { .. } => {
                let here = g.moving().and_then(|(_, visited)| visited.last().copied());
                if here.and_then(|c| g.board().at(c)).is_some_and(|t| t.face.factory.is_some() && t.first.is_none()) {
                    found.push("first-delivery");
                }
            }
            Action::Lay(lay) => {
                if let Some(face) = g.lay_face(lay) {
                    if lay.act && face.centre == Some(Centre::Station) {
                        found.push("station");
                    }
                    if let Ok(Some(growth)) = g.board().check_lay(lay.cell, &face)
                        && growth.station.is_some()
                    {
                        found.push("join-city");
                    }
                }
            }
            _ => {}
        }
        if g.apply(a).is_err() {
            break;
        }
    }
    found.sort_unstable();
    found.dedup();
    found.into_iter().map(str::to_string).collect()
}

/// The grade of a solution (ruling Z3): the factors, the rating and the difficulty.
pub fn grade(solution: &Solution, greedy: Placement) -> Grade {
    let steps = solution.actions.iter().filter(|a| !matches!(a, Action::End { .. })).count();
    let trades = solution
        .actions
        .iter()
        .filter(|a| {
            matches!(a, Action::Convert { .. } | Action::Sell { .. } | Action::Coal | Action::BuildLocomotive { .. })
        })
        .count();
    let close = solution.placements[1..].iter().filter(|(_, v)| solution.value - v <= CLOSE).count();
    let margin = solution.runner_up().map_or(0, |r| solution.value - r);
    let greedy_finds = greedy == solution.placement();
    let mut factors = BTreeMap::new();
    factors.insert("greedy_finds".to_string(), f64::from(u8::from(greedy_finds)));
    factors.insert("steps".to_string(), steps as f64);
    factors.insert("trades".to_string(), trades as f64);
    factors.insert("close".to_string(), close as f64);
    factors.insert("margin".to_string(), f64::from(margin));
    let rating = 4.0 * f64::from(u8::from(!greedy_finds))
        + 0.1 * (close.min(30) as f64)
        + 0.5 * trades as f64
        + 0.2 * steps as f64
        - 0.5 * f64::from(margin.min(4));
    let rating = (rating * 1000.0).round() / 1000.0;
    Grade { difficulty: Difficulty::of_rating(rating, MEDIUM, HARD), rating, factors }
}

impl Kind for BestTurn {
    fn name(&self) -> &'static str {
        "cube-express-turn"
    }

    fn game(&self) -> &'static str {
        "cube-express"
    }

    fn title(&self) -> &'static str {
        "The best turn"
    }

    fn unit(&self) -> &'static str {
        "value points"
    }

    fn better(&self) -> Better {
        Better::Higher
    }

    fn default_margin(&self) -> f64 {
        2.0
    }

    fn themes(&self) -> &'static [Theme] {
        THEMES
    }

    fn grading(&self) -> &'static str {
        "Factors: greedy_finds (1 when the simple technique's lay, the lay worth the most on its own, is the \
         answer's), close (other placements within 4 value points of the best), trades (conversions, stock sales, \
         coal spent and the second locomotive in the answer), steps (the answer's actions, the end of the turn \
         aside) and margin (best minus runner-up). Rating = 4 x (1 - greedy_finds) + 0.1 x min(close, 30) + \
         0.5 x trades + 0.2 x steps - 0.5 x min(margin, 4); easy below 2, medium below 5, hard from 5 (so a \
         puzzle the simple technique misses is never easy)."
    }

    fn simple_technique(&self) -> &'static str {
        "the lay worth the most on its own, then the best play with it"
    }

    fn position(&self, candidate: u64) -> Result<Value, &'static str> {
        position::make(candidate).map(|g| position::to_value(&g))
    }

    fn question(&self, position: &Value) -> Result<String, PuzzleError> {
        let game = position::read(position)?;
        let seat = usize::from(game.active());
        let colour = game.players()[seat].colour.name();
        let colour = colour[..1].to_uppercase() + &colour[1..];
        Ok(format!(
            "{colour} to play in a {}-player game, after {} turns: which turn is worth the most value \
             points (see “The value of a turn” in docs/rules/cube-express.md)? Give its actions in order, separated by \";\": the lay, the locomotives' moves \
             and what they do on the way, the trades, and the market.",
            game.players().len(),
            game.turns_played()
        ))
    }

    fn solve(&self, position: &Value) -> Result<Solved, PuzzleError> {
        let game = position::read(position)?;
        let (solution, greedy) = BestTurn::solved(&game)?;
        let runner_up = solution.runner_up();
        let proof = Proof {
            best: f64::from(solution.value),
            runner_up: runner_up.map(f64::from),
            margin: runner_up.map(|r| f64::from(solution.value - r)),
            work: solution.positions,
            details: json!({
                "starts": solution.starts,
                "placements": solution.placements.len(),
            }),
        };
        Ok(Solved {
            answer: Answer { text: answer::text(&game, &solution.actions), moves: json!(solution.actions) },
            proof,
            grade: grade(&solution, greedy),
            themes: themes(&game, &solution.actions),
        })
    }

    fn attempt(&self, position: &Value, answer: &str) -> Result<Attempt, PuzzleError> {
        let game = position::read(position)?;
        let actions = answer::parse(answer)?;
        let understood = answer::text(&game, &actions);
        let solution = solution::solve(&game)?;
        let best = f64::from(solution.value);
        let after = match game.play_turn(&actions) {
            Ok(after) => after,
            Err((i, e)) => {
                let step = actions.get(i).map_or_else(|| "the end".to_string(), |a| format!("{a}"));
                return Ok(Attempt {
                    verdict: Verdict::Illegal { reason: format!("step {} ({step}): {e}", i + 1) },
                    value: None,
                    best,
                    understood,
                });
            }
        };
        let v = value(&game, &after, &Weights::default());
        let verdict = match v.cmp(&solution.value) {
            std::cmp::Ordering::Equal => Verdict::Solved,
            std::cmp::Ordering::Less => Verdict::Short { loss: f64::from(solution.value - v) },
            std::cmp::Ordering::Greater => {
                return Err(PuzzleError::Solver(format!(
                    "the answer is worth {v}, more than the search's best {}",
                    solution.value
                )));
            }
        };
        Ok(Attempt { verdict, value: Some(f64::from(v)), best, understood })
    }

    fn simple_finds(&self, position: &Value) -> Result<bool, PuzzleError> {
        let game = position::read(position)?;
        let (solution, greedy) = BestTurn::solved(&game)?;
        Ok(greedy == solution.placement())
    }

    fn picture(&self, position: &Value, answer: Option<&Answer>) -> Result<String, PuzzleError> {
        let game = position::read(position)?;
        let colour = game.players()[usize::from(game.active())].colour;
        match answer {
            None => Ok(plan_svg(&game, &[], &format!("Cube Express: {colour} to play. The best turn?"))),
            Some(a) => {
                // The moves as the file holds them, else the words.
                let actions: Vec<Action> = match serde_json::from_value(a.moves.clone()) {
                    Ok(actions) => actions,
                    Err(_) => answer::parse(&a.text)?,
                };
                Ok(plan_svg(&game, &actions, &format!("Cube Express: {colour} to play. The best turn")))
            }
        }
    }
}
