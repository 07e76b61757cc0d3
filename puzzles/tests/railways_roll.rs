//! `railways-roll`: the solver's best and runner-up against a naive search of every use of the
//! roll, a small collection made and checked, a tampered answer and a tie caught, bad positions
//! refused.

use std::collections::{BTreeMap, BTreeSet};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use signalbox_engine::grid::hex::Hex;
use signalbox_engine::railways::colour::Colour;
use signalbox_engine::railways::dice::Roll;
use signalbox_engine::railways::game::{Action, Game};
use signalbox_engine::railways::record::roll_words;
use signalbox_engine::railways::track::Ends;
use signalbox_puzzles::collection::{self, Request};
use signalbox_puzzles::railways::roll::RAILWAYS_ROLL;
use signalbox_puzzles::railways::{Spec, small_game, write};
use signalbox_puzzles::{Kind, PuzzleError, Verdict};
use signalbox_solver::railways::link::min_link;

type Key = (BTreeSet<(Hex, Ends)>, [u32; 3]);

fn key(game: &Game) -> Key {
    let s = game.supply();
    let track = game.tiles().iter().filter(|t| t.owner == Colour::Blue).map(|t| (t.hex, t.ends)).collect();
    (track, [s.straight, s.curved, s.crossing])
}

/// Every end of turn of `roll` (both pairings, every sequence of legal builds, no cut), each
/// valued by the linker afresh: the fewest tiles still needed after the best, and after the best
/// of every other end; `None` past `budget` states.
fn naive(game: &Game, roll: Roll, budget: usize) -> Option<(usize, Option<usize>, usize)> {
    let mut ends: BTreeMap<Key, Option<usize>> = BTreeMap::new();
    let mut seen = BTreeSet::new();
    for crossed in [false, true] {
        let mut g = game.clone();
        g.apply(&Action::Roll { roll }).ok()?;
        g.apply(&Action::Pair { crossed }).ok()?;
        let mut stack = vec![g];
        while let Some(g) = stack.pop() {
            let used = g.slots().map_or([false; 4], |s| s.map(|(_, u)| u));
            if !seen.insert((key(&g), crossed, used)) {
                continue;
            }
            if seen.len() > budget {
                return None;
            }
            ends.entry(key(&g)).or_insert_with(|| min_link(&g, Colour::Blue).map(|(p, _)| p.tiles.len()));
            for b in g.legal_builds() {
                let mut n = g.clone();
                if n.apply(&b).is_ok() {
                    stack.push(n);
                }
            }
        }
    }
    let values: Vec<(Key, usize)> = ends.into_iter().filter_map(|(k, v)| v.map(|v| (k, v))).collect();
    let best = values.iter().map(|v| v.1).min()?;
    let count = values.iter().filter(|v| v.1 == best).count();
    let runner = if count > 1 { Some(best) } else { values.iter().filter(|v| v.1 != best).map(|v| v.1).min() };
    Some((best, runner, count))
}

/// A tiny position: a map of 6 by 5 or 6 hexes, blue's four cities, yellow's home, a gray city,
/// no track, and a roll.
fn tiny(seed: u64) -> Option<(Game, Roll, Value)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let spec = Spec { width: 6, height: rng.random_range(5..=6), yellow_cities: 1, grays: 1, rounds: 0, stop: 0 };
    let game = small_game(&mut rng, spec)?;
    let roll = Roll::random(&game.content().dice, &mut rng);
    let position = write(&game, false, None, Some(roll_words(roll)));
    Some((game, roll, position))
}

#[test]
fn the_best_and_the_runner_up_are_what_every_use_of_the_roll_gives() {
    let (mut ties, mut unique) = (0, 0);
    for seed in 0..2000u64 {
        let Some((game, roll, position)) = tiny(seed) else { continue };
        let solved = RAILWAYS_ROLL.solve(&position);
        let tie = solved.as_ref().is_ok_and(|s| s.proof.margin == Some(0.0));
        if tie && ties >= 15 {
            continue;
        }
        let Some((best, runner, count)) = naive(&game, roll, 20_000) else { continue };
        let solved = match solved {
            Ok(s) => s,
            // Refused only when no use lowers the tiles still needed, and no build ties with that.
            Err(PuzzleError::Unfit(m)) if m.contains("no use of") => {
                assert_eq!(min_link(&game, Colour::Blue).map(|(p, _)| p.tiles.len()), Some(best), "seed {seed}");
                assert!(runner.is_none_or(|r| r > best), "seed {seed}");
                continue;
            }
            Err(e) => panic!("seed {seed}: {e}"),
        };
        assert_eq!(solved.proof.best, best as f64, "seed {seed}");
        assert_eq!(solved.proof.runner_up, runner.map(|r| r as f64), "seed {seed}");
        assert_eq!(count == 1, !tie, "seed {seed}");
        let attempt = RAILWAYS_ROLL.attempt(&position, &solved.answer.text).expect("the answer reads");
        assert_eq!(attempt.value, Some(best as f64), "seed {seed}");
        assert_eq!(attempt.verdict, Verdict::Solved, "seed {seed}");
        if tie {
            ties += 1;
        } else {
            unique += 1;
        }
        if ties >= 15 && unique >= 15 {
            break;
        }
    }
    assert!(ties >= 15 && unique >= 15, "only {ties} ties and {unique} unique answers checked");
}

fn request(count: usize) -> Request {
    Request { count, seed: 3, difficulty: None, theme: None, margin: None, max_candidates: 2_000, per_difficulty: None }
}

#[test]
fn a_collection_is_made_checked_and_its_answers_solve_it() {
    let made = collection::make(&RAILWAYS_ROLL, &request(6), &|_| {}).expect("a collection");
    assert_eq!(made.puzzles.len(), 6);
    for p in &made.puzzles {
        assert_eq!(collection::check_puzzle(p), Vec::<String>::new(), "{}", p.id);
        // Lenient words: upper case, line ends, an end of turn.
        let loose = format!("{};\nEND", p.answer.text.to_uppercase().replace("; ", " ;\n "));
        let a = RAILWAYS_ROLL.attempt(&p.position, &loose).expect("loose words read");
        assert_eq!(a.verdict, Verdict::Solved, "{}: {loose:?}", p.id);
        let svg = RAILWAYS_ROLL.picture(&p.position, Some(&p.answer)).expect("a picture");
        assert!(svg.starts_with("<svg") && svg.contains("this turn's build"), "{}", p.id);
    }
}

#[test]
fn a_tampered_answer_and_a_tie_are_caught() {
    let made = collection::make(&RAILWAYS_ROLL, &request(1), &|_| {}).expect("a collection");
    let good = &made.puzzles[0];
    // Another legal answer: the answer without its last build.
    let mut tampered = good.clone();
    let parts: Vec<&str> = good.answer.text.split("; ").collect();
    tampered.answer.text = parts[..parts.len() - 1].join("; ");
    let problems = collection::check_puzzle(&tampered);
    assert!(problems.iter().any(|p| p.starts_with("the answer is")), "{problems:?}");
    assert!(problems.iter().any(|p| p.contains("does not solve it")), "{problems:?}");
    let a = RAILWAYS_ROLL.attempt(&good.position, &tampered.answer.text).expect("it reads");
    assert!(matches!(a.verdict, Verdict::Short { loss } if loss >= 1.0), "{a:?}");
    // An illegal use: the answer's first build twice.
    let twice = format!("{}; {}", parts[..2].join("; "), parts[1]);
    let a = RAILWAYS_ROLL.attempt(&good.position, &twice).expect("it reads");
    assert!(matches!(&a.verdict, Verdict::Illegal { reason } if reason.starts_with("move 2")), "{a:?}");
    // A position where two uses tie, put in a puzzle file by hand.
    let tie = (0..200u64)
        .filter_map(|i| RAILWAYS_ROLL.position(collection::candidate_number(5, i)).ok())
        .find(|p| RAILWAYS_ROLL.solve(p).is_ok_and(|s| s.proof.margin == Some(0.0)))
        .expect("a tie");
    let solved = RAILWAYS_ROLL.solve(&tie).expect("solved");
    let mut tied = good.clone();
    tied.position = tie;
    tied.answer = solved.answer;
    tied.proof = solved.proof;
    tied.grade = solved.grade;
    tied.themes = solved.themes;
    let problems = collection::check_puzzle(&tied);
    assert!(problems.iter().any(|p| p.starts_with("not unique")), "{problems:?}");
}

#[test]
fn a_position_edited_into_an_illegal_one_is_refused() {
    let made = collection::make(&RAILWAYS_ROLL, &request(1), &|_| {}).expect("a collection");
    let good = made.puzzles[0].position.clone();
    let refused = |edit: &dyn Fn(&mut Value), says: &str| {
        let mut p = good.clone();
        edit(&mut p);
        match RAILWAYS_ROLL.solve(&p) {
            Err(PuzzleError::Position(m)) => assert!(m.contains(says), "{m}"),
            other => panic!("not refused as a position ({says}): {other:?}"),
        }
        assert!(matches!(RAILWAYS_ROLL.attempt(&p, "pair straight"), Err(PuzzleError::Position(_))));
    };
    refused(&|p| p["roll"] = Value::String("SS,XX,plains,any".into()), "roll:");
    refused(&|p| p["roll"] = Value::Null, "roll: missing");
    refused(&|p| p["player"] = Value::String("blue".into()), "player:");
    refused(
        &|p| {
            let tiles = p["position"]["tiles"].as_array_mut().expect("tiles");
            tiles.push(serde_json::json!({"at": [0, 0], "ends": ["e", "w"], "owner": "yellow", "crossing": true}));
        },
        "not a legal position",
    );
    refused(&|p| p["map"]["tiles"]["straight"] = Value::from(-1), "map:");
    assert!(matches!(RAILWAYS_ROLL.attempt(&good, "fly away"), Err(PuzzleError::Answer(_))));
    assert!(matches!(RAILWAYS_ROLL.attempt(&good, "build e-w on [1, 1] with slot 0"), Err(PuzzleError::Answer(_))));
}
