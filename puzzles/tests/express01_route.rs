//! The `express01-route` kind: its proof against a naive enumeration of every route, collections
//! made and checked, tampered files caught, illegal positions refused.

use std::collections::BTreeMap;

use signalbox_puzzles::collection::{candidate_number, make_one};
use signalbox_puzzles::{Kind, find};

fn kind() -> &'static dyn Kind {
    find("express01-route").expect("the kind is listed")
}

/// The shares of difficulties and themes, the rejection rate and the time per kept puzzle over
/// many candidates (a measurement, not a check):
/// `cargo test --release -p signalbox-puzzles --test express01_route -- --ignored --nocapture`.
#[test]
#[ignore]
fn measure() {
    let kind = kind();
    let started = std::time::Instant::now();
    let mut kept = 0;
    let mut rejected = BTreeMap::<String, usize>::new();
    let mut difficulties = BTreeMap::<String, usize>::new();
    let mut themes = BTreeMap::<String, usize>::new();
    let mut greedy = 0;
    let tries: u64 = std::env::var("TRIES").ok().and_then(|t| t.parse().ok()).unwrap_or(400);
    let mut ratings = Vec::new();
    let mut slowest = (0.0, 0);
    for i in 0..tries {
        let c = candidate_number(1, i);
        let t = std::time::Instant::now();
        match make_one(kind, c, 1.0) {
            Ok(p) => {
                if kept == 0 {
                    println!("{}", signalbox_puzzles::collection::to_json(&p));
                }
                kept += 1;
                *difficulties.entry(p.grade.difficulty.to_string()).or_default() += 1;
                for t in &p.themes {
                    *themes.entry(t.clone()).or_default() += 1;
                }
                greedy += p.grade.factors["greedy_finds"] as usize;
                ratings.push((p.grade.rating, p.grade.factors.clone()));
            }
            Err(r) => *rejected.entry(r.reason()).or_default() += 1,
        }
        let s = t.elapsed().as_secs_f64();
        if s > slowest.0 {
            slowest = (s, c);
        }
    }
    let secs = started.elapsed().as_secs_f64();
    println!("candidates {tries}, kept {kept}, {:.3} s per kept puzzle, slowest {slowest:?}", secs / kept as f64);
    println!("rejected {rejected:?}");
    println!("difficulties {difficulties:?}");
    println!("themes {themes:?}");
    println!("greedy finds {greedy}");
    ratings.sort_by(|a, b| a.0.total_cmp(&b.0));
    for q in [0.1, 0.25, 0.33, 0.5, 0.67, 0.75, 0.9] {
        let r = &ratings[((ratings.len() as f64) * q) as usize];
        println!("q{q}: {:.2} {:?}", r.0, r.1);
    }
}

use serde_json::Value;
use signalbox_engine::express01::catalogue::Catalogue;
use signalbox_engine::express01::network::Network;
use signalbox_engine::express01::position::Position;
use signalbox_engine::express01::route::{RouteRules, RouteTask};
use signalbox_puzzles::collection::{Request, check_puzzle, make};
use signalbox_puzzles::{PuzzleError, Verdict};
use signalbox_solver::express01::naive;

/// The board and the route task of a position, read here on their own.
fn board(position: &Value, catalogue: &Catalogue) -> (Network, RouteTask) {
    let text = position.to_string();
    let position = Position::from_json("test", &text, catalogue).expect("a legal position");
    let payment = position.payment(None, None, None).expect("a pending payment");
    let task = RouteTask {
        company: payment.company,
        max_cards: position.issued_shares(payment.company),
        rules: RouteRules::default(),
    };
    (position.network(), task)
}

/// The first candidates of a seed that make positions.
fn positions(seed: u64, count: usize) -> Vec<(u64, Value)> {
    let kind = kind();
    (0..).map(|i| candidate_number(seed, i)).filter_map(|c| kind.position(c).ok().map(|p| (c, p))).take(count).collect()
}

/// The proof against the naive enumeration of every walk: the best payout, the runner-up's
/// payout (the best of every other station sequence, a sequence and its reverse being one), the
/// routes within one point, the answer's station sequence; and the answer replayed scores best.
#[test]
fn the_proof_agrees_with_every_route_enumerated() {
    let kind = kind();
    let catalogue = Catalogue::house();
    let mut ties = 0;
    for (c, position) in positions(7, 400) {
        let solved = kind.solve(&position).unwrap_or_else(|e| panic!("candidate {c}: {e}"));
        let (network, task) = board(&position, &catalogue);
        let ranked = naive::ranked(&network, task);
        let best = ranked[0].1;
        assert_eq!(solved.proof.best, f64::from(best), "candidate {c}: best");
        let runner_up = ranked.get(1).map(|r| f64::from(r.1));
        assert_eq!(solved.proof.runner_up, runner_up, "candidate {c}: runner-up");
        assert_eq!(solved.proof.margin, runner_up.map(|r| f64::from(best) - r), "candidate {c}: margin");
        let within = ranked[1..].iter().filter(|r| r.1 + 1 >= best).count();
        assert_eq!(solved.grade.factors["routes_within_one"], within as f64, "candidate {c}: within one");
        let words: Vec<String> = ranked[0].0.iter().map(|&s| network.station_label(s)).collect();
        assert_eq!(solved.answer.text, words.join(" - "), "candidate {c}: the answer");
        assert_eq!(solved.answer.moves["cards"], ranked[0].2, "candidate {c}: cards");
        let attempt = kind.attempt(&position, &solved.answer.text).expect("the answer reads");
        assert_eq!(attempt.verdict, Verdict::Solved, "candidate {c}");
        assert_eq!(attempt.value, Some(f64::from(best)), "candidate {c}: the answer replayed");
        if runner_up == Some(f64::from(best)) {
            ties += 1;
        }
        // The runner-up, replayed, scores what the enumeration says and is not the answer.
        if let Some(route) = solved.proof.details["runner_up_route"].as_str() {
            let a = kind.attempt(&position, route).expect("the runner-up reads");
            assert_eq!(a.value, runner_up, "candidate {c}: the runner-up replayed");
            assert_eq!(a.verdict, Verdict::Short { loss: f64::from(best) - runner_up.unwrap_or(0.0) });
        }
    }
    assert!(ties > 0, "some positions tie, so the runner-up is tested at the best too");
}

fn request(count: usize, seed: u64) -> Request {
    Request { count, seed, difficulty: None, theme: None, margin: None, max_candidates: 10_000, per_difficulty: None }
}

/// A collection made from a seed checks clean, every answer replays as solved, and it is made
/// the same again.
#[test]
fn a_collection_checks_clean() {
    let kind = kind();
    let made = make(kind, &request(6, 11), &|_| {}).expect("made");
    assert_eq!(made.puzzles.len(), 6);
    for p in &made.puzzles {
        assert_eq!(check_puzzle(p), Vec::<String>::new(), "{}", p.id);
        let a = kind.attempt(&p.position, &p.answer.text).expect("reads");
        assert_eq!(a.verdict, Verdict::Solved, "{}", p.id);
        // The same route, read from its other end and in other case and spacing, solves it too.
        let mut reversed: Vec<&str> = p.answer.text.split(" - ").collect();
        reversed.reverse();
        let a = kind.attempt(&p.position, &reversed.join(",").to_uppercase()).expect("reads");
        assert_eq!(a.verdict, Verdict::Solved, "{}: reversed", p.id);
        let svg = kind.picture(&p.position, Some(&p.answer)).expect("drawn");
        assert!(svg.starts_with("<svg") && svg.contains("route-step"), "{}", p.id);
    }
    let again = make(kind, &request(6, 11), &|_| {}).expect("made");
    assert_eq!(again.puzzles, made.puzzles);
}

/// A wrong answer in a file is caught, and so is a position where two routes tie.
#[test]
fn tampered_files_are_caught() {
    let kind = kind();
    let made = make(kind, &request(3, 12), &|_| {}).expect("made");
    let p = made.puzzles.iter().find(|p| p.proof.runner_up.is_some()).expect("a puzzle with a runner-up");
    let mut wrong = p.clone();
    wrong.answer.text = p.proof.details["runner_up_route"].as_str().expect("named").to_string();
    let problems = check_puzzle(&wrong);
    assert!(problems.iter().any(|m| m.contains("the solver's is")), "{problems:?}");
    assert!(problems.iter().any(|m| m.contains("does not solve it")), "{problems:?}");

    // A candidate whose best is reached by two distinct routes, put in a file by hand.
    let (c, position) = (0..)
        .map(|i| candidate_number(12, i))
        .filter_map(|c| kind.position(c).ok().map(|p| (c, p)))
        .find(|(_, pos)| kind.solve(pos).is_ok_and(|s| s.proof.margin == Some(0.0)))
        .expect("some candidate ties");
    let solved = kind.solve(&position).expect("solves");
    let mut tie = p.clone();
    tie.id = format!("express01-route-{c}");
    tie.candidate = c;
    tie.question = kind.question(&position).expect("asks");
    tie.position = position;
    tie.answer = solved.answer;
    tie.grade = solved.grade;
    tie.themes = solved.themes;
    tie.proof = solved.proof;
    let problems = check_puzzle(&tie);
    assert!(problems.iter().any(|m| m.starts_with("not unique")), "{problems:?}");
}

/// A position edited into an illegal one, or into one of another shape, is refused with what is
/// wrong; so are unreadable and illegal answers.
#[test]
fn illegal_positions_and_answers_are_named() {
    let kind = kind();
    let (_, position) = positions(13, 1).remove(0);
    type Edit = fn(&mut Value);
    let edits: [(&str, Edit); 6] = [
        ("999", |p| p["board"][0]["card"] = 999.into()),
        ("mars", |p| p["map"] = "mars".into()),
        ("company", |p| p["bonus_payment"] = Value::Null),
        ("purple", |p| p["bonus_payment"]["company"] = "purple".into()),
        ("player", |p| p["players"] = Value::Array(Vec::new())),
        ("expected an object", |p| *p = Value::Array(Vec::new())),
    ];
    for (what, edit) in edits {
        let mut p = position.clone();
        edit(&mut p);
        for result in [kind.solve(&p).map(|_| ()), kind.attempt(&p, "001 - 002").map(|_| ())] {
            match result {
                Err(PuzzleError::Position(m)) => assert!(m.contains(what), "{what}: {m}"),
                other => panic!("{what}: expected a position error, got {other:?}"),
            }
        }
    }
    let solved = kind.solve(&position).expect("solves");
    let first = solved.answer.text.split(" - ").next().expect("a station").to_string();
    for text in ["", "nowhere", "009/s7"] {
        assert!(matches!(kind.attempt(&position, text), Err(PuzzleError::Answer(_))), "{text:?}");
    }
    for text in [first.clone(), format!("{first} - {first}"), "999 - 001".to_string()] {
        let a = kind.attempt(&position, &text).expect("reads");
        assert!(matches!(a.verdict, Verdict::Illegal { .. }), "{text:?}: {:?}", a.verdict);
    }
}
