//! The review of a played Cubes of Europe game (`coe::analysis`): the solver's own line loses
//! nothing; one decision changed to a worse legal move loses exactly what the naive search says
//! at that decision and nothing elsewhere; every value is the naive search's value of that
//! position on its own; with reuse and from scratch the values agree; the embedded sample game
//! is what its generator plays.
//!
//! The sample game is regenerated and compared by `sample_game_is_what_the_generator_plays`;
//! `SIGNALBOX_WRITE_SAMPLE=1 cargo test -p signalbox-solver --test coe_analysis sample` rewrites
//! `src/coe/sample-game.json` instead.

use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use signalbox_engine::coe::{Catalogue, Game, Instance, Move, Record, Rules};
use signalbox_solver::analysis::Review;
use signalbox_solver::coe::analysis::{AnalyseOptions, Analysed, SAMPLE_SEED, analyse, sample_record};
use signalbox_solver::coe::naive;
use signalbox_solver::coe::search::{SolveOptions, solve};

const SAMPLE: &str = include_str!("../../src/coe/sample-game.json");

fn review_of(catalogue: &Catalogue, record: &Record, reuse: bool) -> Analysed {
    let options = AnalyseOptions { reuse, ..AnalyseOptions::default() };
    analyse(catalogue, record, "test", options, &|_| {}).unwrap_or_else(|e| panic!("{e}"))
}

/// The consistency every review keeps: no problem, no negative loss, proven values.
fn consistent(review: &Review) {
    assert!(review.problems().is_empty(), "{:?}", review.problems());
    assert!(review.decisions.iter().all(|d| d.loss >= 0.0 && d.proven));
    assert!(review.decisions.windows(2).all(|w| w[0].value_after == w[1].value_before || w[1].loss == 0.0));
}

/// The naive search's value of the position before each decision, and of the end.
fn naive_values(catalogue: &Catalogue, record: &Record, rules: Rules) -> Vec<f64> {
    let mut game = Game::new(catalogue, &record.instance, rules);
    let mut out = Vec::new();
    for &mv in &record.moves {
        out.push(f64::from(naive::best(&game).0));
        game.play(mv).expect("legal");
    }
    out.push(f64::from(game.score().total()));
    out
}

/// The solver's line, as a record, reviewed: no decision loses anything, every value is the
/// proven maximum, the best move is the move played, and the values are the naive search's
/// of each position (games of two turns, 30 seeds).
#[test]
fn the_solvers_own_line_loses_nothing() {
    let catalogue = Catalogue::house();
    for seed in 0..30 {
        let instance = Instance::from_seed(seed);
        let rules = Rules { max_turns: Some(2), ..Rules::default() };
        let game = Game::new(&catalogue, &instance, rules);
        let solved = solve(&game, SolveOptions::default());
        let record = Record::new(instance.clone(), rules, solved.line.clone());
        let a = review_of(&catalogue, &record, true);
        consistent(&a.review);
        assert_eq!(a.searches, 1, "seed {seed}: the line's tail needs no second search");
        let naive = naive_values(&catalogue, &record, rules);
        for d in &a.review.decisions {
            assert_eq!(d.loss, 0.0, "seed {seed}: decision {} of the solver's line", d.index);
            assert_eq!(d.value_before, f64::from(solved.score));
            assert_eq!(d.value_after, naive[d.index], "seed {seed}: decision {}", d.index);
            assert_eq!(d.best.moves, d.played.moves);
        }
        assert!(a.review.summary.turning_points.is_empty());
    }
}

/// A whole game: the solver's line of seed 2 loses nothing, with one search.
#[test]
fn a_whole_games_optimal_line_loses_nothing() {
    let catalogue = Catalogue::house();
    let instance = Instance::from_seed(2);
    let solved = solve(&Game::new(&catalogue, &instance, Rules::default()), SolveOptions::default());
    let record = Record::new(instance.clone(), Rules::default(), solved.line.clone());
    let a = review_of(&catalogue, &record, true);
    consistent(&a.review);
    assert_eq!(a.searches, 1);
    assert!(a.review.decisions.iter().all(|d| d.loss == 0.0 && d.value_after == f64::from(solved.score)));
}

/// One decision of the solver's line changed to a worse legal move (drawn from a seeded
/// generator among the moves the naive search values lower), the game played on by the
/// solver from there: that decision loses exactly the naive search's difference, every other
/// decision nothing, every value is the naive value of its position, and the review from
/// scratch has the same values (games of two and three turns, 16 seeds).
#[test]
fn one_worse_move_loses_exactly_its_loss_there() {
    let catalogue = Catalogue::house();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(15);
    let mut checked = 0;
    for seed in 0..16 {
        let instance = Instance::from_seed(seed);
        let rules = Rules { max_turns: Some(if seed % 8 == 0 { 3 } else { 2 }), ..Rules::default() };
        let start = Game::new(&catalogue, &instance, rules);
        let line = solve(&start, SolveOptions::default()).line;
        let at = rng.random_range(0..line.len());
        let mut game = start.clone();
        for &mv in &line[..at] {
            game.play(mv).expect("legal");
        }
        let before = naive::best(&game).0;
        let worse: Vec<(Move, u32)> = game
            .legal_moves()
            .into_iter()
            .map(|mv| {
                let mut g = game.clone();
                g.play(mv).expect("listed");
                (mv, naive::best(&g).0)
            })
            .filter(|&(_, v)| v < before)
            .collect();
        let Some(&(mistake, after)) = worse.choose(&mut rng) else { continue };
        let mut moves = line[..at].to_vec();
        moves.push(mistake);
        game.play(mistake).expect("legal");
        if !game.is_over() {
            moves.extend(solve(&game, SolveOptions::default()).line);
        }
        let record = Record::new(instance.clone(), rules, moves);
        let a = review_of(&catalogue, &record, true);
        consistent(&a.review);
        let naive = naive_values(&catalogue, &record, rules);
        for d in &a.review.decisions {
            let expected = if d.index == at + 1 { f64::from(before - after) } else { 0.0 };
            assert_eq!(d.loss, expected, "seed {seed}: decision {} (the mistake is {})", d.index, at + 1);
            assert_eq!(d.value_before, naive[d.index - 1], "seed {seed}: decision {}", d.index);
            assert_eq!(d.value_after, naive[d.index], "seed {seed}: decision {}", d.index);
        }
        assert_eq!(a.review.summary.turning_points, vec![at + 1]);
        let mistake_decision = &a.review.decisions[at];
        let best: Move = serde_json::from_value(mistake_decision.best.moves.clone()).expect("a move");
        let mut g = Game::new(&catalogue, &instance, rules);
        for &mv in &line[..at] {
            g.play(mv).expect("legal");
        }
        g.play(best).expect("the best move is legal");
        assert_eq!(naive::best(&g).0, before, "seed {seed}: the best move keeps the value");
        let scratch = review_of(&catalogue, &record, false);
        consistent(&scratch.review);
        let values =
            |r: &Review| r.decisions.iter().map(|d| (d.value_before, d.value_after, d.loss)).collect::<Vec<_>>();
        assert_eq!(values(&scratch.review), values(&a.review), "seed {seed}: reuse and scratch differ");
        assert!(scratch.searches >= a.searches);
        checked += 1;
    }
    assert!(checked >= 12, "only {checked} seeds had a worse move");
}

/// A record that stops before the end of the game is refused, naming where it stops.
#[test]
fn an_unfinished_record_is_refused() {
    let catalogue = Catalogue::house();
    let record: Record = Record::from_json("sample", SAMPLE).expect("the sample reads");
    let mut cut = record.clone();
    cut.moves.truncate(10);
    cut.score = None;
    let err = analyse(&catalogue, &cut, "cut.json", AnalyseOptions::default(), &|_| {}).expect_err("unfinished");
    assert!(err.to_string().contains("before the game is over"), "{err}");
}

/// The embedded sample game is what the sample player plays on its seed, and its review finds
/// the mistakes: consistent, proven, and at least one decision losing points.
#[test]
fn sample_game_is_what_the_generator_plays() {
    let catalogue = Catalogue::house();
    let record = sample_record(&catalogue, SAMPLE_SEED, Rules::default());
    let text = record.to_json_in_words();
    if std::env::var_os("SIGNALBOX_WRITE_SAMPLE").is_some() {
        std::fs::write(concat!(env!("CARGO_MANIFEST_DIR"), "/../src/coe/sample-game.json"), &text).expect("writes");
        return;
    }
    assert_eq!(text, SAMPLE, "the sample game changed; rerun with SIGNALBOX_WRITE_SAMPLE=1 to rewrite it");
    let a = review_of(&catalogue, &record, true);
    consistent(&a.review);
    assert!(a.review.decisions.iter().any(|d| d.loss > 0.0), "the sample player's mistakes lose points");
    // Where the game follows the proven line, its line is reused: fewer searches than decisions
    // (a search from scratch before every decision would make one each).
    let n = a.review.decisions.len();
    assert!(a.searches < n, "{} searches for {n} decisions", a.searches);
}

/// A time limit too short for any proof gives the best values found, marked not proven, and
/// a review still consistent: no negative loss, the value before each decision its best move's.
#[test]
fn a_time_limit_gives_best_found_values_marked_not_proven() {
    let catalogue = Catalogue::house();
    let record: Record = Record::from_json("sample", SAMPLE).expect("the sample reads");
    let solve = SolveOptions { time_limit: Some(std::time::Duration::from_millis(1)), ..SolveOptions::default() };
    let a = analyse(&catalogue, &record, "sample", AnalyseOptions { solve, reuse: true, fair_samples: None }, &|_| {})
        .expect("analyses");
    assert!(a.review.problems().is_empty(), "{:?}", a.review.problems());
    assert!(a.review.decisions.iter().all(|d| d.loss >= 0.0));
    assert!(!a.review.summary.proven, "a millisecond proves no whole game");
    let last = a.review.decisions.last().expect("decisions");
    assert_eq!(last.value_after, f64::from(record.score.expect("the sample claims its score")));
}
