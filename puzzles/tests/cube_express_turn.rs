//! The `cube-express-turn` puzzles: the solver's best value, runner-up and every placement's best
//! value against a naive enumeration of every turn; collections made and checked; a tampered
//! answer, a tie and illegal positions caught; a player's words read and scored.

use std::collections::HashMap;

use rayon::prelude::*;
use serde_json::{Value, json};
use signalbox_engine::cube_express::action::Action;
use signalbox_engine::cube_express::game::Game;
use signalbox_puzzles::collection::{self, Request, check_puzzle, make_one};
use signalbox_puzzles::cube_express::answer::{self, Placement};
use signalbox_puzzles::cube_express::{BestTurn, position, solution};
use signalbox_puzzles::{Kind, PuzzleError, Verdict, find};
use signalbox_solver::cube_express::naive;
use signalbox_solver::cube_express::search::{StartBest, best_by_start, best_turn};
use signalbox_solver::cube_express::value::{Weights, value};

const KIND: BestTurn = BestTurn;

/// The placement of the turn that ended in `after`, read from the board alone: the one tile on
/// it that `before` does not have (nothing when no tile was laid).
fn laid(before: &Game, after: &Game) -> Placement {
    let new: Vec<_> = after.board().tiles().iter().filter(|t| before.board().at(t.cell).is_none()).collect();
    match new.as_slice() {
        [] => Placement::Nothing,
        [t] => Placement::Laid { cell: t.cell, face: t.face },
        more => panic!("a turn laid {} tiles", more.len()),
    }
}

/// Every placement's best value by the naive reference: every end position of every order of
/// every legal action (`naive::for_each_end`, no reduction but positions seen before), valued
/// by the engine and grouped by the tile the end position has that the start has not.
fn naive_placements(game: &Game) -> HashMap<Placement, i32> {
    let weights = Weights::default();
    let mut best: HashMap<Placement, i32> = HashMap::new();
    naive::for_each_end(game, &mut |after| {
        let v = value(game, after, &weights);
        let e = best.entry(laid(game, after)).or_insert(v);
        *e = (*e).max(v);
    });
    best
}

/// The kind's positions among candidates 0 to 99 whose search is small enough for the naive
/// reference (at most 5,000 positions), at most `count` of them, in candidate order.
fn small_positions(count: usize) -> Vec<(u64, Game)> {
    let mut found: Vec<(u64, Game)> = (0..100u64)
        .into_par_iter()
        .filter_map(|c| position::make(c).ok().map(|g| (c, g)))
        .filter(|(_, g)| solution::solve(g).is_ok_and(|s| s.positions <= 5_000))
        .collect();
    found.truncate(count);
    found
}

#[test]
fn the_best_and_the_runner_up_match_a_naive_enumeration_of_every_turn() {
    let positions = small_positions(14);
    assert!(positions.len() >= 10, "only {} small positions", positions.len());
    let outcomes: Vec<(bool, usize)> = positions
        .par_iter()
        .map(|(c, game)| {
            let s = solution::solve(game).expect("solved");
            let naive = naive_placements(game);
            // Every placement's best value, not only the two best.
            let mine: HashMap<Placement, i32> = s.placements.iter().copied().collect();
            assert_eq!(mine.len(), s.placements.len(), "candidate {c}: a placement listed twice");
            assert_eq!(mine, naive, "candidate {c}: the placements' best values differ");
            let mut values: Vec<i32> = naive.values().copied().collect();
            values.sort_unstable_by(|a, b| b.cmp(a));
            assert_eq!(s.value, values[0], "candidate {c}: the best value");
            assert_eq!(s.runner_up(), values.get(1).copied(), "candidate {c}: the runner-up");
            assert_eq!(naive.get(&s.placement()), Some(&s.value), "candidate {c}: the answer's placement");
            // The answer replays in the engine to its value, and reads back from its words.
            let after = game.play_turn(&s.actions).expect("the answer replays");
            assert_eq!(value(game, &after, &Weights::default()), s.value, "candidate {c}");
            let text = answer::text(game, &s.actions);
            assert_eq!(answer::parse(&text).expect("the words read"), s.actions, "candidate {c}: {text}");
            (s.runner_up().is_some_and(|r| r < s.value), s.placements.len())
        })
        .collect();
    let unique = outcomes.iter().filter(|o| o.0).count();
    assert!(unique >= 3 && unique < outcomes.len(), "{unique} of {} unique: both kinds are compared", outcomes.len());
}

/// The first best of the per-start search is the best-turn search's answer.
#[test]
fn the_best_start_is_the_best_turn() {
    for c in [3u64, 5, 11, 17] {
        let game = position::make(c).expect("a position");
        let (starts, _) = best_by_start(&game, &Weights::default());
        let first = starts
            .iter()
            .fold(None::<&StartBest>, |b, s| if b.is_none_or(|b| s.value > b.value) { Some(s) } else { b });
        let found = best_turn(&game, &Weights::default(), None).expect("a turn");
        let first = first.expect("a start");
        assert_eq!((first.value, &first.actions), (found.value, &found.actions), "candidate {c}");
    }
}

fn request(count: usize, seed: u64) -> Request {
    Request { count, seed, difficulty: None, theme: None, margin: None, max_candidates: 400, per_difficulty: None }
}

#[test]
fn a_collection_is_made_and_every_puzzle_checks_and_solves() {
    let made = collection::make(&KIND, &request(6, 11), &|_| {}).expect("made");
    assert_eq!(made.puzzles.len(), 6, "{:?}", made.manifest.stats);
    assert!(!made.manifest.short);
    for p in &made.puzzles {
        assert_eq!(p.kind, "cube-express-turn");
        assert_eq!(p.margin, 2.0);
        assert!(p.proof.clear_by(2.0), "{}: {:?}", p.id, p.proof);
        // A puzzle the simple technique misses is never easy (ruling Z3).
        assert_eq!(KIND.simple_finds(&p.position).expect("solved"), p.grade.factors["greedy_finds"] == 1.0);
        if p.grade.factors["greedy_finds"] == 0.0 {
            assert_ne!(p.grade.difficulty, signalbox_puzzles::Difficulty::Easy, "{}", p.id);
        }
        assert_eq!(check_puzzle(p), Vec::<String>::new(), "{}", p.id);
        let a = KIND.attempt(&p.position, &p.answer.text).expect("the answer reads");
        assert_eq!(a.verdict, Verdict::Solved, "{}: {}", p.id, p.answer.text);
        assert_eq!(a.value, Some(p.proof.best));
        // Case and spaces do not matter.
        let shouted = p.answer.text.to_uppercase().replace("; ", " ;\n  ");
        assert_eq!(KIND.attempt(&p.position, &shouted).expect("read").verdict, Verdict::Solved, "{}", p.id);
        // The short form of each action (as error messages print it) reads too.
        let moves: Vec<Action> = serde_json::from_value(p.answer.moves.clone()).expect("the moves");
        let short: Vec<String> = moves.iter().map(ToString::to_string).collect();
        assert_eq!(KIND.attempt(&p.position, &short.join("; ")).expect("read").verdict, Verdict::Solved, "{}", p.id);
        for t in &p.themes {
            assert!(KIND.themes().iter().any(|k| k.name == t), "{}: theme {t}", p.id);
        }
        assert!(KIND.picture(&p.position, Some(&p.answer)).expect("drawn").starts_with("<svg"));
    }
    // The kind is listed, and the same seed makes the same collection.
    assert_eq!(find("cube-express-turn").expect("listed").name(), KIND.name());
    let again = collection::make(&KIND, &request(6, 11), &|_| {}).expect("made");
    assert_eq!(again.puzzles, made.puzzles);
}

/// The runner-up's turn: the best turn of the best other placement.
fn runner_up_turn(game: &Game) -> Vec<Action> {
    let s = solution::solve(game).expect("solved");
    let (starts, _) = best_by_start(game, &Weights::default());
    let other = s.placements[1];
    starts
        .into_iter()
        .filter(|st| Placement::of(game, st.lay.as_ref()) == other.0)
        .find(|st| st.value == other.1)
        .expect("the runner-up's start")
        .actions
}

#[test]
fn a_tampered_answer_and_a_tie_are_caught() {
    let made = collection::make(&KIND, &request(1, 5), &|_| {}).expect("made");
    let puzzle = &made.puzzles[0];
    let game = position::read(&puzzle.position).expect("reads");
    // The runner-up's turn as the answer: legal, worth the margin less, and not the answer.
    let other = runner_up_turn(&game);
    let mut tampered = puzzle.clone();
    tampered.answer.text = answer::text(&game, &other);
    tampered.answer.moves = json!(other);
    let problems = check_puzzle(&tampered);
    assert!(problems.iter().any(|p| p.starts_with("the answer is")), "{problems:?}");
    let a = KIND.attempt(&puzzle.position, &tampered.answer.text).expect("reads");
    assert_eq!(a.verdict, Verdict::Short { loss: puzzle.proof.margin.expect("a margin") });
    // A tie: a candidate whose best is reached by two placements, put in a file by hand.
    let (candidate, position) = (0..200u64)
        .filter_map(|c| KIND.position(c).ok().map(|p| (c, p)))
        .find(|(_, p)| KIND.solve(p).is_ok_and(|s| s.proof.margin == Some(0.0)))
        .expect("a tie");
    assert!(matches!(make_one(&KIND, candidate, 2.0), Err(collection::Rejected::NotUnique)));
    let solved = KIND.solve(&position).expect("solved");
    let mut tie = puzzle.clone();
    tie.id = collection::id(&KIND, candidate);
    tie.candidate = candidate;
    tie.question = KIND.question(&position).expect("asked");
    tie.position = position;
    tie.answer = solved.answer;
    tie.grade = solved.grade;
    tie.themes = solved.themes;
    tie.proof = solved.proof;
    let problems = check_puzzle(&tie);
    assert!(problems.iter().any(|p| p.starts_with("not unique")), "{problems:?}");
}

fn edited(position: &Value, edit: impl FnOnce(&mut Value)) -> Value {
    let mut p = position.clone();
    edit(&mut p);
    p
}

#[test]
fn an_illegal_position_is_refused_naming_what_is_wrong() {
    let position = KIND.position(3).expect("a position");
    let cases: Vec<(Value, &str)> = vec![
        (edited(&position, |p| p["game"]["players"][0]["reserve"] = json!(99)), "players[0]"),
        (edited(&position, |p| p["game"]["board"][5]["cell"] = json!([40, 40])), "board[5].cell"),
        (edited(&position, |p| p["game"]["players"][0]["reserve"] = json!("many")), "game:"),
        (edited(&position, |p| p["content"] = json!("publisher")), "content"),
        (edited(&position, |p| p["extra"] = json!(1)), "unknown field"),
        (edited(&position, |p| p["game"]["ending"] = json!({"state": "over"})), "over"),
        (json!([1, 2]), "expected an object"),
        (json!({"content": "house"}), "game: missing"),
    ];
    for (p, named) in cases {
        for result in [
            KIND.solve(&p).map(|_| ()),
            KIND.question(&p).map(|_| ()),
            KIND.attempt(&p, "end the turn").map(|_| ()),
            KIND.simple_finds(&p).map(|_| ()),
            KIND.picture(&p, None).map(|_| ()),
        ] {
            match result {
                Err(PuzzleError::Position(why)) => assert!(why.contains(named), "{named}: {why}"),
                other => panic!("{named}: {other:?}"),
            }
        }
    }
}

#[test]
fn a_players_words_are_read_checked_and_scored() {
    let position = KIND.position(3).expect("a position");
    let game = position::read(&position).expect("reads");
    let solved = KIND.solve(&position).expect("solved");
    // Words that name no action: the step and what was expected.
    match KIND.attempt(&position, "lay tile 1 front up on [0, 5]; jump over the crossing") {
        Err(PuzzleError::Answer(why)) => {
            assert!(why.contains("step 2") && why.contains("the first locomotive moves"), "{why}")
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(KIND.attempt(&position, " ; "), Err(PuzzleError::Answer(_))));
    // Readable but illegal: the rule broken, with the step.
    let a = KIND.attempt(&position, "the first locomotive moves to [9, 9]").expect("reads");
    match a.verdict {
        Verdict::Illegal { reason } => assert!(reason.starts_with("step 1"), "{reason}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(a.value, None);
    // A legal turn worse than the best: the loss.
    let lay = game.legal_lays()[0];
    let market = if game.display().iter().any(Option::is_some) {
        "take the tile in the first display column"
    } else {
        "no market"
    };
    let slot = game.display().iter().position(Option::is_some).unwrap_or(0);
    let market = market.replace("column 0", &format!("column {slot}"));
    let words = format!("{}; {market}", game.describe(&Action::Lay(lay)));
    let a = KIND.attempt(&position, &words).expect("reads");
    let v = a.value.expect("legal");
    assert!(v <= solved.proof.best);
    match a.verdict {
        Verdict::Short { loss } => assert_eq!(loss, solved.proof.best - v),
        Verdict::Solved => assert_eq!(v, solved.proof.best),
        other => panic!("{other:?}: {words}"),
    }
}
