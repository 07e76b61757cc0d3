//! The Cubes of Europe's puzzles: `coe-max`, reach the proven maximum. Rulings:
//! `docs/rules/cubes-of-europe.md`, "Puzzles"; the position's format: `docs/formats/puzzles.md`.
//!
//! A position is a seeded game played some turns in ([`position`]), with two or three turns
//! left and every die and card to come known; the answer is the line of play to the end that
//! reaches the best final score, proven unique turn by turn ([`line`]).

pub mod line;
pub mod position;

use std::collections::BTreeMap;

use serde_json::{Value, json};
use signalbox_engine::coe::game::Pending;
use signalbox_engine::coe::{Colour, Game, Move};
use signalbox_solver::analysis::Better;
use signalbox_solver::coe::analysis::workers_spent;
use signalbox_solver::coe::bound::upper_bound;

use crate::kind::{Kind, Theme};
use crate::puzzle::{Answer, Attempt, Difficulty, Grade, Proof, PuzzleError, Solved, Verdict};
use line::{Walk, walk};
use position::Checked;

/// The `coe-max` kind: from a position some turns into a seeded game, reach the proven maximum.
#[derive(Clone, Copy, Debug, Default)]
pub struct CoeMax;

/// The themes of `coe-max`, each detected from the answer line (ruling P5).
pub const THEMES: &[Theme] = &[
    Theme {
        name: "red-chain",
        description: "a red cube's extra placement puts another red cube on the board, so the chain goes on",
    },
    Theme { name: "territory", description: "the line completes a territory of four hexes (10 points)" },
    Theme {
        name: "tuck-timing",
        description: "a yellow cube is placed before the last turn, so the card it tucks acts for the rest of the line",
    },
    Theme { name: "white-gain", description: "a white cube's gain brings a cube that the same turn places" },
    Theme {
        name: "worker-saving",
        description: "a die gains a worker that a later turn of the line spends to turn a die",
    },
];

/// The rating's thresholds: below `MEDIUM` easy, below `HARD` medium, else hard.
const MEDIUM: f64 = 3.2;
const HARD: f64 = 5.3;

/// The separator between turns in an answer's words.
const TURNS: &str = " | ";
/// The separator between the moves of a turn.
const MOVES: &str = "; ";

/// The answer in words: each turn's moves joined by `; `, the turns by ` | `.
pub fn words(turns: &[Vec<Move>]) -> String {
    turns
        .iter()
        .map(|t| t.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(MOVES))
        .collect::<Vec<_>>()
        .join(TURNS)
}

/// Reads a line of moves: moves separated by `;`, `|` or new lines (where a turn ends is the
/// engine's to know), each in the words of [`Move`]'s display.
pub fn read_line(text: &str) -> Result<Vec<Move>, PuzzleError> {
    let moves: Vec<Move> = text
        .split([';', '|', '\n'])
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .enumerate()
        .map(|(i, t)| t.parse::<Move>().map_err(|e| PuzzleError::Answer(format!("move {i}: {e}"))))
        .collect::<Result<_, _>>()?;
    if moves.is_empty() {
        return Err(PuzzleError::Answer(
            "no moves: expected the moves to the end of the game, separated by `;` (turns by `|`)".into(),
        ));
    }
    Ok(moves)
}

/// A line replayed from the puzzle's start: the turns' moves as played, and the final game; or
/// the rule the first illegal move breaks.
fn replay<'c>(start: &Game<'c>, moves: &[Move]) -> Result<(Vec<Vec<Move>>, Game<'c>), String> {
    let mut game = start.clone();
    let mut turns: Vec<Vec<Move>> = Vec::new();
    let mut turn = usize::MAX;
    for (i, &mv) in moves.iter().enumerate() {
        if game.turn() != turn {
            turn = game.turn();
            turns.push(Vec::new());
        }
        game.play(mv).map_err(|e| format!("move {i} (turn {}): {e}", game.turn() + 1))?;
        if let Some(t) = turns.last_mut() {
            t.push(mv);
        }
    }
    if !game.is_over() {
        let what = match game.pending() {
            Some(p) => format!("an effect's choice is open ({p})"),
            None => format!("turn {} is still to play", game.turn() + 1),
        };
        return Err(format!("the line stops before the game is over: {what}; give every move to the end"));
    }
    Ok((turns, game))
}

/// The themes of an answer line (ruling P5), found by replaying its turns from the start.
fn themes(start: &Game<'_>, turns: &[Vec<Move>]) -> Vec<String> {
    let board = start.board();
    let mut game = start.clone();
    let (mut red, mut tuck, mut white, mut saving, mut territory) = (false, false, false, false, false);
    let mut banked = false;
    let last = turns.len().saturating_sub(1);
    for (t, moves) in turns.iter().enumerate() {
        let mut gained_worker = false;
        let mut taken: Vec<Colour> = Vec::new();
        for &mv in moves {
            let placed = match mv {
                Move::Place { hex, .. } | Move::Chain { hex } => Some(board.hexes[usize::from(hex)].colour),
                _ => None,
            };
            if matches!(mv, Move::Chain { .. }) && placed == Some(Colour::Red) {
                red = true;
            }
            if placed == Some(Colour::Yellow) && t < last {
                tuck = true;
            }
            if let Some(c) = placed
                && let Some(k) = taken.iter().position(|&x| x == c)
            {
                taken.swap_remove(k);
                white = true;
            }
            if let Move::Take { colour } = mv
                && game.pending() == Some(Pending::White)
            {
                taken.push(colour);
            }
            if banked && workers_spent(&game, mv).0 > 0 {
                saving = true;
            }
            if matches!(mv, Move::Worker { .. }) && t < last {
                gained_worker = true;
            }
            game.play_unchecked(mv);
        }
        banked |= gained_worker;
    }
    let before = start.placed();
    let after = game.placed();
    let filled = |p: u32, hexes: &[usize]| hexes.iter().all(|&i| p >> i & 1 == 1);
    for t in &board.territories {
        if t.len() >= 4 && !filled(before, t) && filled(after, t) {
            territory = true;
        }
    }
    let mut out = Vec::new();
    for (on, name) in [
        (red, "red-chain"),
        (territory, "territory"),
        (tuck, "tuck-timing"),
        (white, "white-gain"),
        (saving, "worker-saving"),
    ] {
        if on {
            out.push(name.to_string());
        }
    }
    out
}

/// The dice still to roll, a turn's pair as `3-5`.
fn dice_words(game: &Game<'_>) -> Vec<String> {
    let dice: Vec<u8> = game.dice_ahead().map(|(_, d)| d).collect();
    dice.chunks(2).map(|d| d.iter().map(u8::to_string).collect::<Vec<_>>().join("-")).collect()
}

/// The simple technique: a greedy walk with one turn of lookahead, each turn the ending with the
/// highest bound on the final score ([`upper_bound`], the solver's relaxed game; ties: the higher
/// score if the game ended there, then the engine's order); its final score.
pub fn greedy(start: &Game<'_>) -> u32 {
    let mut game = start.clone();
    while !game.is_over() {
        let outcomes = signalbox_solver::coe::exact::turn_outcomes(&game);
        let Some((next, _)) = outcomes
            .into_iter()
            .enumerate()
            .max_by_key(|(i, (g, _))| (upper_bound(g), g.score().total(), std::cmp::Reverse(*i)))
            .map(|(_, o)| o)
        else {
            break;
        };
        game = next;
    }
    game.score().total()
}

/// The grade of a walk (ruling P4).
fn grade(walk: &Walk<'_>, greedy_finds: bool) -> Grade {
    let best = f64::from(walk.best);
    let decisions = walk.decisions.len() as f64;
    let margin = walk.runner_up().map_or(3.0, |r| best - f64::from(r));
    let close = walk
        .decisions
        .iter()
        .flat_map(|d| d.choices.iter().enumerate().filter(move |&(i, _)| i != d.chosen))
        .filter(|(_, c)| f64::from(c.value) + 1.0 >= best)
        .count() as f64;
    let choices: f64 = walk.decisions.iter().map(|d| d.choices.len() as f64).sum();
    let work = (walk.work.max(1) as f64).log10();
    let rating = (decisions - 2.0)
        + 1.5 * (3.0 - margin.min(3.0)) / 2.0
        + (1.0 + close).log2()
        + (work - 3.0).max(0.0)
        + if greedy_finds { 0.0 } else { 1.5 };
    let rating = (rating * 1000.0).round() / 1000.0;
    let mut factors = BTreeMap::new();
    factors.insert("decisions".to_string(), decisions);
    factors.insert("margin".to_string(), margin);
    factors.insert("close_choices".to_string(), close);
    factors.insert("choices".to_string(), choices);
    factors.insert("log10_work".to_string(), (work * 1000.0).round() / 1000.0);
    factors.insert("greedy_finds".to_string(), if greedy_finds { 1.0 } else { 0.0 });
    Grade { difficulty: Difficulty::of_rating(rating, MEDIUM, HARD), rating, factors }
}

impl Kind for CoeMax {
    fn name(&self) -> &'static str {
        "coe-max"
    }

    fn game(&self) -> &'static str {
        "coe"
    }

    fn title(&self) -> &'static str {
        "Reach the maximum"
    }

    fn unit(&self) -> &'static str {
        "points"
    }

    fn better(&self) -> Better {
        Better::Higher
    }

    fn themes(&self) -> &'static [Theme] {
        THEMES
    }

    fn grading(&self) -> &'static str {
        "Factors: decisions (turns to play, 2 or 3), margin (best less the runner-up, 3 when there is none), \
close_choices (other endings of the answer's turns worth at least best - 1), log10_work (positions searched), \
greedy_finds (1 when the greedy turn-by-turn walk reaches the best). Rating = (decisions - 2) \
+ 0.75 * (3 - min(margin, 3)) + log2(1 + close_choices) + max(0, log10_work - 3) + 1.5 if greedy misses. \
Easy below 3.2, medium below 5.3, hard from 5.3."
    }

    fn simple_technique(&self) -> &'static str {
        "a greedy walk: each turn, the ending with the highest bound on the final score (the solver's relaxed game)"
    }

    fn position(&self, candidate: u64) -> Result<Value, &'static str> {
        position::make(candidate).map(|c| c.to_value())
    }

    fn question(&self, position: &Value) -> Result<String, PuzzleError> {
        let checked = Checked::read(position)?;
        let game = checked.game();
        let dice = dice_words(&game);
        let best = line::Values::default().value(&game);
        Ok(format!(
            "Turn {} of a seeded game, {} to play (dice {}), every card to come known: play to the end and score \
{best}, the most the game allows. Give every move to the end; any order of a turn's moves reaching the same \
position is the same answer.",
            game.turn() + 1,
            signalbox_engine::set::count(dice.len(), "turn"),
            dice.join(", ")
        ))
    }

    fn solve(&self, position: &Value) -> Result<Solved, PuzzleError> {
        let checked = Checked::read(position)?;
        let game = checked.game();
        let walk = walk(&game);
        let turns = walk.turns();
        let text = words(&turns);
        let moves: Vec<Value> =
            turns.iter().map(|t| json!(t.iter().map(|m| m.to_string()).collect::<Vec<_>>())).collect();
        let runner_up = walk.runner_up();
        let best = f64::from(walk.best);
        let per_turn: Vec<Value> = walk
            .decisions
            .iter()
            .map(|d| {
                json!({
                    "turn": d.turn,
                    "choices": d.choices.len(),
                    "runner_up": d.runner_up(),
                })
            })
            .collect();
        let proof = Proof {
            best,
            runner_up: runner_up.map(f64::from),
            margin: runner_up.map(|r| best - f64::from(r)),
            work: walk.work,
            details: json!({ "decisions": per_turn }),
        };
        let greedy_finds = greedy(&game) == walk.best;
        Ok(Solved {
            answer: Answer { text, moves: Value::Array(moves) },
            proof,
            grade: grade(&walk, greedy_finds),
            themes: themes(&game, &turns),
        })
    }

    fn attempt(&self, position: &Value, answer: &str) -> Result<Attempt, PuzzleError> {
        let checked = Checked::read(position)?;
        let moves = read_line(answer)?;
        let game = checked.game();
        let best = line::Values::default().value(&game);
        Ok(match replay(&game, &moves) {
            Err(reason) => Attempt {
                verdict: Verdict::Illegal { reason },
                value: None,
                best: f64::from(best),
                understood: moves.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(MOVES),
            },
            Ok((turns, end)) => {
                let value = end.score().total();
                let verdict =
                    if value >= best { Verdict::Solved } else { Verdict::Short { loss: f64::from(best - value) } };
                Attempt { verdict, value: Some(f64::from(value)), best: f64::from(best), understood: words(&turns) }
            }
        })
    }

    fn simple_finds(&self, position: &Value) -> Result<bool, PuzzleError> {
        let checked = Checked::read(position)?;
        let game = checked.game();
        Ok(greedy(&game) == line::Values::default().value(&game))
    }

    fn picture(&self, position: &Value, answer: Option<&Answer>) -> Result<String, PuzzleError> {
        let checked = Checked::read(position)?;
        let game = checked.game();
        let mut line = checked.moves.clone();
        let from = line.len();
        let mut notes = Vec::new();
        let title;
        match answer {
            Some(a) => {
                let moves = read_line(&a.text)?;
                let (turns, end) = replay(&game, &moves).map_err(PuzzleError::Answer)?;
                for (turn, t) in (game.turn() + 1..).zip(&turns) {
                    notes.extend(t.iter().map(|mv| format!("turn {turn}: {mv}")));
                }
                line.extend(moves);
                title = format!("The answer scores {}", end.score().total());
            }
            None => {
                title = format!("Turn {}, {} turns to play", game.turn() + 1, position::turns_left(&game));
                let inv: Vec<String> = Colour::ALL
                    .iter()
                    .filter(|c| game.inventory()[c.index()] > 0)
                    .map(|c| format!("{} {c}", game.inventory()[c.index()]))
                    .collect();
                notes.push(format!(
                    "inventory: {}; workers {}",
                    if inv.is_empty() { "empty".to_string() } else { inv.join(", ") },
                    game.workers()
                ));
                notes.push(format!("dice to come: {}", dice_words(&game).join(", ")));
            }
        }
        let board = signalbox_render::coe::picture::answer_svg(
            position::catalogue(),
            &checked.instance,
            checked.rules,
            &line,
            from,
            &title,
            &notes,
        );
        // The question's position: the board, and beside it the cards and dice the question says
        // are known, so that it can be solved on paper.
        Ok(match answer {
            Some(_) => board,
            None => {
                let market = signalbox_render::coe::market::market_svg(&game, position::turns_left(&game));
                signalbox_render::coe::market::beside(&board, &market)
            }
        })
    }
}
