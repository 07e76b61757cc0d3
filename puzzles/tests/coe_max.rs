//! The `coe-max` kind: its proof against a naive enumeration of every line, collections made and
//! checked, tampered puzzles caught, illegal positions refused.

use std::collections::BTreeMap;

use signalbox_engine::coe::{Game, Move};
use signalbox_puzzles::coe::line::{Values, walk};
use signalbox_puzzles::coe::position::{self, Checked};
use signalbox_puzzles::coe::{CoeMax, words};
use signalbox_puzzles::collection::{self, Request, check_puzzle, make_one};
use signalbox_puzzles::{Kind, Puzzle, PuzzleError, Verdict};

/// A turn's ending as the kind's rulings define a choice, written again here: the engine's key,
/// or for a game over its placed cubes, tucked cards and workers.
fn ending(game: &Game<'_>) -> (bool, u128) {
    if game.is_over() {
        let tucked = game.tucked().iter().fold(0u128, |m, &c| m | 1 << c);
        (true, (u128::from(game.placed()) << 32) | (tucked << 8) | u128::from(game.workers()))
    } else {
        (false, game.key())
    }
}

/// Every line of play from `game` to the end, each move tried from every move a record can write
/// (not the engine's move list) and kept when the rules allow it: per sequence of turn endings,
/// the best final score of a line through them. No memo, no cut.
fn naive(game: &Game<'_>, every: &[Move], ends: &mut Vec<(bool, u128)>, out: &mut BTreeMap<Vec<(bool, u128)>, u32>) {
    if game.is_over() {
        let s = game.score().total();
        let e = out.entry(ends.clone()).or_insert(s);
        *e = (*e).max(s);
        return;
    }
    for &mv in every {
        if game.check(mv).is_err() {
            continue;
        }
        let mut next = game.clone();
        next.play_unchecked(mv);
        if next.is_over() || next.turn() > game.turn() {
            ends.push(ending(&next));
            naive(&next, every, ends, out);
            ends.pop();
        } else {
            naive(&next, every, ends, out);
        }
    }
}

/// The kind's best and runner-up agree with the naive enumeration on many small positions (the
/// candidates' positions cut to one or two turns by `max_turns`), and the answer replays to the
/// best.
#[test]
fn best_and_runner_up_agree_with_every_line() {
    let kind = CoeMax;
    // Every move a record can write but the start (made already), each die use with the free
    // shift said (taken or paid: unsaid plays as one of them, ruling A8).
    let every: Vec<Move> = Move::every()
        .into_iter()
        .filter(|m| {
            !matches!(
                m,
                Move::Start { .. } | Move::Gain { free_shift: None, .. } | Move::Place { free_shift: None, .. }
            )
        })
        .collect();
    let (mut checked, mut unique, mut with_runner_up) = (0, 0, 0);
    for candidate in 0..40u64 {
        let Ok(made) = position::make(candidate) else { continue };
        let mut short = made.clone();
        let turn = made.game().turn();
        short.rules.max_turns = Some(turn + 1 + (candidate % 4 == 0) as usize);
        let value = short.to_value();
        let solved = kind.solve(&value).expect("solves");
        let game = short.game();
        let mut lines = BTreeMap::new();
        naive(&game, &every, &mut Vec::new(), &mut lines);
        let best = lines.values().copied().max().expect("a line");
        assert_eq!(solved.proof.best, f64::from(best), "candidate {candidate}: the best");
        // The answer's endings, replayed in the engine.
        let answer: Vec<Move> = signalbox_puzzles::coe::read_line(&solved.answer.text).expect("reads");
        let mut g = game.clone();
        let mut ends = Vec::new();
        for mv in answer {
            let turn = g.turn();
            g.play(mv).expect("the answer is legal");
            if g.is_over() || g.turn() > turn {
                ends.push(ending(&g));
            }
        }
        assert!(g.is_over());
        assert_eq!(f64::from(g.score().total()), solved.proof.best, "candidate {candidate}: the answer's score");
        assert_eq!(lines.get(&ends).copied(), Some(best), "candidate {candidate}: the answer's endings reach the best");
        let runner_up = lines.iter().filter(|(e, _)| **e != ends).map(|(_, &s)| f64::from(s)).max_by(f64::total_cmp);
        assert_eq!(solved.proof.runner_up, runner_up, "candidate {candidate}: the runner-up");
        assert_eq!(solved.proof.margin, runner_up.map(|r| f64::from(best) - r));
        checked += 1;
        unique += usize::from(solved.proof.margin.is_some_and(|m| m > 0.0));
        with_runner_up += usize::from(runner_up.is_some());
    }
    assert!(checked >= 30 && unique >= 5 && with_runner_up >= 25, "{checked} checked, {unique} unique");
}

fn request(count: usize, seed: u64) -> Request {
    Request { count, seed, difficulty: None, theme: None, margin: None, max_candidates: 400, per_difficulty: None }
}

/// A collection is made, every puzzle checks clean against a fresh solve, and its answer solves
/// it; an answer in other spacing and case, and in another order of a turn's moves, solves too.
/// The text of a picture's `<text>` elements, joined by spaces, entities read.
fn drawn_text(svg: &str) -> String {
    let mut out = Vec::new();
    for part in svg.split("<text").skip(1) {
        let Some(body) = part.split_once('>').map(|x| x.1) else { continue };
        let body = body.split("</text>").next().unwrap_or("");
        out.push(
            body.replace("&apos;", "'")
                .replace("&quot;", "\"")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&"),
        );
    }
    out.join(" ").split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn a_collection_checks_clean_and_its_answers_solve() {
    let kind = CoeMax;
    let made = collection::make(&kind, &request(6, 7), &|_| {}).expect("makes");
    assert_eq!(made.puzzles.len(), 6);
    for p in &made.puzzles {
        assert_eq!(check_puzzle(p), Vec::<String>::new(), "{}", p.id);
        let a = kind.attempt(&p.position, &p.answer.text).expect("reads");
        assert_eq!(a.verdict, Verdict::Solved, "{}", p.id);
        let shouted = p.answer.text.to_uppercase().replace(' ', "  ").replace(" | ", "\n");
        assert_eq!(kind.attempt(&p.position, &shouted).expect("reads").verdict, Verdict::Solved, "{}", p.id);
        assert!(!p.question.is_empty());
        let svg = kind.picture(&p.position, Some(&p.answer)).expect("draws");
        assert!(svg.starts_with("<svg") && svg.contains("the answer places"));
        let question = kind.picture(&p.position, None).expect("draws without the answer");
        // Every card that can come up before the end, its squares and its effect, the effects in
        // play and every die are drawn: the puzzle can be solved on paper.
        let checked = Checked::read(&p.position).expect("reads");
        let game = checked.game();
        let left = position::turns_left(&game);
        let coming = game.deck().iter().rev().skip(1).take(left);
        for &id in game.market().iter().flatten().chain(coming).chain(game.tucked()) {
            let card = position::catalogue().card(id).expect("a card");
            assert!(
                question.contains(&format!(">{} {}<", card.id, card.name)) || question.contains(&card.name),
                "{}: card {id}",
                p.id
            );
            let words = card.market.text.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(drawn_text(&question).contains(&words), "{}: the effect of card {id}", p.id);
        }
        let text = drawn_text(&question);
        let dice = text.split("The dice, turn by turn").nth(1).expect("the dice are drawn");
        let mut expected = String::new();
        let mut turn = None;
        for (t, face) in game.dice_ahead() {
            if turn != Some(t) {
                expected.push_str(&format!(" turn {}", game.turn() + 1 + t));
                turn = Some(t);
            }
            expected.push_str(&format!(" {face}"));
        }
        assert!(dice.starts_with(&expected), "{}: the dice{expected}, drawn{dice}", p.id);
        assert!(text.contains("The market"), "{}", p.id);
        for t in &p.themes {
            assert!(kind.themes().iter().any(|x| x.name == t), "{t}");
        }
    }
    let again = collection::make(&kind, &request(6, 7), &|_| {}).expect("makes");
    assert_eq!(again.puzzles, made.puzzles, "the same seed makes the same collection");
}

/// The puzzle of a candidate, made by hand from its solve whatever the margin.
fn by_hand(candidate: u64) -> Puzzle {
    let kind = CoeMax;
    let position = kind.position(candidate).expect("a position");
    let solved = kind.solve(&position).expect("solves");
    Puzzle {
        format: signalbox_puzzles::puzzle::FORMAT,
        id: collection::id(&kind, candidate),
        game: "coe".into(),
        kind: "coe-max".into(),
        candidate,
        margin: 1.0,
        question: kind.question(&position).expect("asks"),
        position,
        answer: solved.answer,
        grade: solved.grade,
        themes: solved.themes,
        proof: solved.proof,
    }
}

/// An answer replaced by another legal line (the runner-up's first turn, then its best) is
/// caught, and scores short; a position where two choices tie is caught as not unique.
#[test]
fn tampered_puzzles_are_caught() {
    let kind = CoeMax;
    let candidate = (0..200u64).find(|&c| make_one(&kind, c, 1.0).is_ok()).expect("a puzzle");
    let mut puzzle = make_one(&kind, candidate, 1.0).expect("a puzzle");
    let checked = Checked::read(&puzzle.position).expect("reads");
    let game = checked.game();
    let w = walk(&game);
    let first = &w.decisions[0];
    let (other, _) = first
        .choices
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != first.chosen)
        .max_by_key(|(_, c)| c.value)
        .expect("another choice");
    let rest = walk(&first.choices[other].end);
    let mut turns = vec![first.choices[other].moves.clone()];
    turns.extend(rest.turns());
    let text = words(&turns);
    let attempt = kind.attempt(&puzzle.position, &text).expect("reads");
    assert_eq!(
        attempt.verdict,
        Verdict::Short { loss: puzzle.proof.best - f64::from(first.choices[other].value) },
        "the other line scores its value"
    );
    puzzle.answer.text = text;
    let problems = check_puzzle(&puzzle);
    assert!(problems.iter().any(|p| p.contains("the solver's is")), "{problems:?}");
    assert!(problems.iter().any(|p| p.contains("does not solve it")), "{problems:?}");

    let tie = (0..200u64)
        .find(|&c| {
            kind.position(c).is_ok_and(|p| kind.solve(&p).is_ok_and(|s| s.proof.margin.is_some_and(|m| m == 0.0)))
        })
        .expect("a candidate with a tie");
    assert!(matches!(make_one(&kind, tie, 1.0), Err(collection::Rejected::NotUnique)));
    let problems = check_puzzle(&by_hand(tie));
    assert!(problems.iter().any(|p| p.starts_with("not unique")), "{problems:?}");
}

/// A position edited into an illegal one is refused with what is wrong, by every method.
#[test]
fn illegal_positions_are_refused() {
    let kind = CoeMax;
    let good = kind.position((0..50).find(|&c| kind.position(c).is_ok()).expect("a position")).expect("a position");
    let edit = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut v = good.clone();
        f(&mut v);
        v
    };
    let cases: Vec<(serde_json::Value, &str)> = vec![
        (edit(&|v| v["set"] = "other".into()), "house set"),
        (edit(&|v| v["instance"]["dice"][0][0] = 9.into()), "dice[0]"),
        (edit(&|v| v["rules"]["max_workers"] = 0.into()), "max_workers"),
        (edit(&|v| v["moves"][3] = "first die as 9: place on hex 3".into()), "moves[3]"),
        (edit(&|v| v["moves"][2] = "fly to the moon".into()), "moves[2]"),
        (edit(&|v| v["moves"].as_array_mut().expect("moves").truncate(1)), "turns can still be played"),
        (edit(&|v| v["moves"].as_array_mut().expect("moves").clear()), "start space"),
        (edit(&|v| v["extra"] = 1.into()), "unknown field"),
        (serde_json::json!([1, 2]), "not a coe-max position"),
    ];
    for (value, says) in cases {
        for result in [
            kind.solve(&value).map(|_| ()),
            kind.question(&value).map(|_| ()),
            kind.attempt(&value, "pass").map(|_| ()),
            kind.picture(&value, None).map(|_| ()),
        ] {
            match result {
                Err(PuzzleError::Position(m)) => assert!(m.contains(says), "{m:?} should say {says:?}"),
                other => panic!("expected a position error saying {says:?}, got {other:?}"),
            }
        }
    }
    // Moves stopping inside a turn.
    let checked = Checked::read(&good).expect("reads");
    let mut inside = checked.clone();
    let game = checked.game();
    inside.moves.push(game.legal_moves()[0]);
    match Checked::read(&inside.to_value()) {
        Err(PuzzleError::Position(m)) => assert!(m.contains("inside turn"), "{m}"),
        other => panic!("expected a position error, got {other:?}"),
    }
}

/// A player's answer: unreadable words, an illegal move, a line stopping short.
#[test]
fn answers_are_read_and_judged() {
    let kind = CoeMax;
    let position = kind.position((0..50).find(|&c| kind.position(c).is_ok()).expect("a position")).expect("a position");
    assert!(matches!(kind.attempt(&position, "move the train"), Err(PuzzleError::Answer(_))));
    assert!(matches!(kind.attempt(&position, " ; | "), Err(PuzzleError::Answer(_))));
    let a = kind.attempt(&position, "red: place on hex 3").expect("reads");
    assert!(matches!(&a.verdict, Verdict::Illegal { reason } if reason.contains("move 0")), "{a:?}");
    let a = kind.attempt(&position, "first die: gain a worker").expect("reads");
    assert!(matches!(&a.verdict, Verdict::Illegal { reason } if reason.contains("before the game is over")), "{a:?}");
    let checked = Checked::read(&position).expect("reads");
    let game = checked.game();
    assert_eq!(a.best, f64::from(Values::default().value(&game)));
}

/// The shares of a few hundred candidates: kept, difficulties, themes, time. Run with
/// `cargo test --release -p signalbox-puzzles --test coe_max -- --ignored --nocapture`.
#[test]
#[ignore]
fn measure_the_candidates() {
    let kind = CoeMax;
    let start = std::time::Instant::now();
    let count = std::env::var("COUNT").ok().and_then(|c| c.parse().ok()).unwrap_or(100);
    let made =
        collection::make(&kind, &Request { max_candidates: 100_000, ..request(count, 1) }, &|_| {}).expect("makes");
    let seconds = start.elapsed().as_secs_f64();
    let stats = &made.manifest.stats;
    println!(
        "{} kept of {} candidates ({:.1} per kept), {:.2} s ({:.3} s per kept) on {} threads",
        stats.kept,
        stats.candidates,
        stats.candidates as f64 / stats.kept.max(1) as f64,
        seconds,
        seconds / stats.kept.max(1) as f64,
        rayon::current_num_threads()
    );
    println!("rejected {:?}\ndifficulties {:?}\nthemes {:?}", stats.rejected, stats.difficulties, stats.themes);
    let simple = made.puzzles.iter().filter(|p| kind.simple_finds(&p.position).unwrap_or(false)).count();
    println!("the simple technique finds {simple} of {}", made.puzzles.len());
    let mut ratings: Vec<f64> = made.puzzles.iter().map(|p| p.grade.rating).collect();
    ratings.sort_by(f64::total_cmp);
    let n = ratings.len();
    if n > 0 {
        println!("rating terciles {} and {}", ratings[n / 3], ratings[2 * n / 3]);
    }
}
