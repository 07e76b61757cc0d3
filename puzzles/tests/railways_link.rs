//! `railways-link`: the solver's best and runner-up against a naive brute force, a small
//! collection made and checked, a tampered answer and a tie caught, bad positions refused.

use std::collections::{BTreeSet, HashSet};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use signalbox_engine::grid::hex::Hex;
use signalbox_engine::railways::colour::Colour;
use signalbox_engine::railways::game::Game;
use signalbox_engine::railways::track::{Ends, TileKind};
use signalbox_puzzles::collection::{self, Request};
use signalbox_puzzles::railways::link::RAILWAYS_LINK;
use signalbox_puzzles::railways::{Spec, small_game, write};
use signalbox_puzzles::{Kind, PuzzleError, Verdict};

/// A set of tiles.
type Tiles = BTreeSet<(Hex, Ends)>;

/// The fewest tiles of a set blue can lay that links its cities, and the fewest of such a set
/// that lacks some tile of `answer`, by laying every set of tiles through the engine, smallest
/// first (each set once, with the supply it leaves); `None` past `budget` sets.
fn naive(game: &Game, answer: &BTreeSet<(Hex, Ends)>, budget: usize) -> Option<(usize, Option<usize>)> {
    let blue = Colour::Blue;
    let curve = game.options().curve;
    let all: Vec<Ends> = [TileKind::Straight, TileKind::Curved].iter().flat_map(|&k| Ends::all(k, curve)).collect();
    let mut level: Vec<(Tiles, Game)> = vec![(BTreeSet::new(), game.clone())];
    let mut seen: HashSet<(Tiles, [u32; 3])> = HashSet::new();
    let (mut best, mut runner): (Option<usize>, Option<usize>) = (None, None);
    for size in 1..=12 {
        let mut next = Vec::new();
        for (tiles, g) in &level {
            let seat = g.seat(blue)?;
            let mut near: BTreeSet<Hex> = BTreeSet::new();
            for t in g.tiles().iter().filter(|t| t.owner == blue) {
                near.extend(t.hex.neighbours());
            }
            for &c in &g.players()[seat].linked {
                near.extend(g.content().cities[c].hex.neighbours());
            }
            for &hex in &near {
                for &ends in &all {
                    let Ok(after) = g.with_track(blue, &[(hex, ends)]) else { continue };
                    let mut more = tiles.clone();
                    more.insert((hex, ends));
                    let s = after.supply();
                    if !seen.insert((more.clone(), [s.straight, s.curved, s.crossing])) {
                        continue;
                    }
                    if seen.len() > budget {
                        return None;
                    }
                    if after.has_linked_all(blue) {
                        best.get_or_insert(size);
                        if !answer.is_subset(&more) {
                            runner.get_or_insert(size);
                        }
                        continue;
                    }
                    next.push((more, after));
                }
            }
        }
        if runner.is_some() || next.is_empty() {
            break;
        }
        level = next;
    }
    best.map(|b| (b, runner))
}

fn tiles_of(game: &Game, text: &str) -> BTreeSet<(Hex, Ends)> {
    text.split(';')
        .map(|p| {
            let p = p.trim().trim_start_matches("build ");
            let (ends, at) = p.split_once(" on ").expect("a tile");
            let sides: Vec<String> = ends.split('-').map(String::from).collect();
            let ends = Ends::try_from([
                sides[0].clone().try_into().expect("a side"),
                sides[1].clone().try_into().expect("a side"),
            ])
            .expect("a track");
            let nums: Vec<i32> = at
                .trim_matches(|c| c == '[' || c == ']')
                .split(',')
                .map(|n| n.trim().parse().expect("a number"))
                .collect();
            let hex = *game
                .content()
                .offsets
                .iter()
                .find(|&(_, &o)| o == (nums[0], nums[1]))
                .map(|(h, _)| h)
                .expect("a hex of the map");
            (hex, ends)
        })
        .collect()
}

/// A tiny position: a map of 5 or 6 by 4 or 5 hexes, blue's four cities, yellow's home, a gray
/// city, no track (yellow, with its home only, would end the game on its first turn).
fn tiny(seed: u64) -> Option<(Game, Value)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let spec = Spec {
        width: rng.random_range(5..=6),
        height: rng.random_range(4..=5),
        yellow_cities: 1,
        grays: 1,
        rounds: 0,
        stop: 0,
    };
    let game = small_game(&mut rng, spec)?;
    let position = write(&game, false, Some(Colour::Blue), None);
    Some((game, position))
}

#[test]
fn the_best_and_the_runner_up_are_what_laying_every_set_of_tiles_finds() {
    // Ties are common on maps this small: once fifteen are checked, only unique answers are.
    let (mut ties, mut unique) = (0, 0);
    for seed in 0..3000u64 {
        let Some((game, position)) = tiny(seed) else { continue };
        let Ok(solved) = RAILWAYS_LINK.solve(&position) else { continue };
        let tie = solved.proof.margin == Some(0.0);
        if tie && ties >= 15 {
            continue;
        }
        let answer = tiles_of(&game, &solved.answer.text);
        let Some((best, runner)) = naive(&game, &answer, 20_000) else { continue };
        assert_eq!(solved.proof.best, best as f64, "seed {seed}");
        assert_eq!(answer.len(), best, "seed {seed}");
        // The runner-up: the brute force stops at the first size with one, or when no set is left.
        assert_eq!(solved.proof.runner_up, runner.map(|r| r as f64), "seed {seed}");
        let attempt = RAILWAYS_LINK.attempt(&position, &solved.answer.text).expect("the answer reads");
        assert_eq!(attempt.value, Some(best as f64), "seed {seed}");
        if tie {
            ties += 1;
        } else {
            unique += 1;
        }
        if ties >= 15 && unique >= 12 {
            break;
        }
    }
    assert!(ties >= 15 && unique >= 12, "only {ties} ties and {unique} unique answers checked");
}

fn request(count: usize) -> Request {
    Request {
        count,
        seed: 11,
        difficulty: None,
        theme: None,
        margin: None,
        max_candidates: 2_000,
        per_difficulty: None,
    }
}

#[test]
fn a_collection_is_made_checked_and_its_answers_solve_it() {
    let made = collection::make(&RAILWAYS_LINK, &request(6), &|_| {}).expect("a collection");
    assert_eq!(made.puzzles.len(), 6);
    for p in &made.puzzles {
        assert_eq!(collection::check_puzzle(p), Vec::<String>::new(), "{}", p.id);
        let a = RAILWAYS_LINK.attempt(&p.position, &p.answer.text).expect("the answer reads");
        assert_eq!(a.verdict, Verdict::Solved, "{}", p.id);
        // Lenient words: upper case, other spaces, the kind named, the tiles in reverse.
        let loose: Vec<String> = p
            .answer
            .text
            .split("; ")
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .map(|t| t.to_uppercase().replace("BUILD ", "build  "))
            .collect();
        let a = RAILWAYS_LINK.attempt(&p.position, &loose.join(" ;\n")).expect("loose words read");
        assert_eq!(a.verdict, Verdict::Solved, "{}: {loose:?}", p.id);
        let svg = RAILWAYS_LINK.picture(&p.position, Some(&p.answer)).expect("a picture");
        assert!(svg.starts_with("<svg") && svg.contains("plan tile"), "{}", p.id);
    }
    // Late positions on the house map are among them.
    assert!(made.puzzles.iter().any(|p| p.position["map"] == "house"), "no house map position");
    let again = collection::make(&RAILWAYS_LINK, &request(6), &|_| {}).expect("a collection");
    assert_eq!(again.puzzles, made.puzzles, "the same seed makes the same puzzles");
}

#[test]
fn a_tampered_answer_and_a_tie_are_caught() {
    let made = collection::make(&RAILWAYS_LINK, &request(1), &|_| {}).expect("a collection");
    let good = &made.puzzles[0];
    // Another legal answer: the best plan without the answer's first tile.
    let read: Value = good.position.clone();
    let (game, colour) = {
        let setup = serde_json::from_value::<signalbox_puzzles::railways::PuzzlePosition>(read).expect("a position");
        let map: signalbox_puzzles::railways::SmallMap = serde_json::from_value(setup.map).expect("a small map");
        let content = std::sync::Arc::new(map.content(&setup.position.seats).expect("a map"));
        (Game::from_setup(content, &setup.position).expect("a game"), setup.player.expect("a player"))
    };
    let answer = tiles_of(&game, &good.answer.text);
    let first = *answer.iter().next().expect("a tile");
    let other = signalbox_solver::railways::link::link_without(&game, colour, &BTreeSet::from([first]), None)
        .0
        .plan()
        .expect("another plan")
        .clone();
    let mut tampered = good.clone();
    tampered.answer.text = other
        .tiles
        .iter()
        .map(|&(h, e)| {
            let (c, r) = game.content().offsets[&h];
            format!("build {e} on [{c}, {r}]")
        })
        .collect::<Vec<_>>()
        .join("; ");
    let problems = collection::check_puzzle(&tampered);
    assert!(problems.iter().any(|p| p.starts_with("the answer is")), "{problems:?}");
    assert!(problems.iter().any(|p| p.contains("does not solve it")), "{problems:?}");
    let a = RAILWAYS_LINK.attempt(&good.position, &tampered.answer.text).expect("it reads");
    assert!(matches!(a.verdict, Verdict::Short { loss } if loss >= 1.0), "{a:?}");
    // A position where two plans tie, put in a puzzle file by hand.
    let tie = (0..200u64)
        .filter_map(|i| RAILWAYS_LINK.position(collection::candidate_number(5, i)).ok())
        .find(|p| RAILWAYS_LINK.solve(p).is_ok_and(|s| s.proof.margin == Some(0.0)))
        .expect("a tie");
    let solved = RAILWAYS_LINK.solve(&tie).expect("solved");
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
    let made = collection::make(&RAILWAYS_LINK, &request(1), &|_| {}).expect("a collection");
    let good = made.puzzles[0].position.clone();
    let refused = |edit: &dyn Fn(&mut Value), says: &str| {
        let mut p = good.clone();
        edit(&mut p);
        match RAILWAYS_LINK.solve(&p) {
            Err(PuzzleError::Position(m)) => assert!(m.contains(says), "{m}"),
            other => panic!("not refused as a position ({says}): {other:?}"),
        }
        assert!(matches!(RAILWAYS_LINK.attempt(&p, "build e-w on [0, 0]"), Err(PuzzleError::Position(_))));
    };
    // A blue tile far from blue's track.
    refused(
        &|p| {
            let tiles = p["position"]["tiles"].as_array_mut().expect("tiles");
            tiles.push(serde_json::json!({"at": [0, 0], "ends": ["e", "w"], "owner": "blue"}));
        },
        "not a legal position",
    );
    refused(&|p| p["map"]["rows"][0] = Value::String("ppxp".into()), "expected p, m, w or .");
    refused(
        &|p| {
            let cities = p["map"]["cities"].as_array_mut().expect("cities");
            cities.retain(|c| c["home"] != Value::Bool(true) || c["colour"] != "yellow");
        },
        "yellow plays, so it needs one home city",
    );
    refused(&|p| p["player"] = Value::String("red".into()), "red does not play");
    refused(&|p| p["map"] = Value::String("elsewhere".into()), "not a map");
    refused(&|p| p["position"]["turns"] = Value::String("three".into()), "not a Railways puzzle position");
    // An unreadable answer.
    assert!(matches!(RAILWAYS_LINK.attempt(&good, "build e-e on [1, 1]"), Err(PuzzleError::Answer(_))));
    assert!(matches!(RAILWAYS_LINK.attempt(&good, "somewhere nice"), Err(PuzzleError::Answer(_))));
}
