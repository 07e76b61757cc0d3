//! The Cubes of Europe solver against the naive search, on games shortened to a few turns
//! (`Rules::max_turns`): the same best score on 500 seeds and more, every line replayed and
//! re-scored by the engine, one thread and two giving the same line, and the bound never below
//! the naive value, also in the middle of a turn.

use rand::SeedableRng;
use rand::seq::IndexedRandom;
use signalbox_engine::coe::{Catalogue, Game, Instance, Record, Rules};
use signalbox_solver::coe::bound::upper_bound;
use signalbox_solver::coe::naive;
use signalbox_solver::coe::search::{SolveOptions, solve};

fn check(catalogue: &Catalogue, instance: &Instance, rules: Rules) -> u32 {
    let game = Game::new(catalogue, instance, rules);
    let (best, _) = naive::best(&game);
    let one = solve(&game, SolveOptions { threads: Some(1), ..SolveOptions::default() });
    let seed = instance.seed;
    assert!(one.proven, "seed {seed:?}");
    assert_eq!(one.score, best, "seed {seed:?}: the solver disagrees with the naive search");
    assert_eq!(one.upper_bound, best);
    assert!(one.perfect_bound >= best, "seed {seed:?}: the perfect-score bound is below the optimum");
    let record = Record::new(instance.clone(), rules, one.line.clone());
    let (end, score) = record.replay(catalogue, "line").expect("the line replays");
    assert!(end.is_over());
    assert_eq!(score.total(), best, "seed {seed:?}: the line does not score what the solver claims");
    best
}

#[test]
fn the_solver_agrees_with_the_naive_search_on_500_two_turn_games() {
    let catalogue = Catalogue::house();
    let rules = Rules { max_turns: Some(2), ..Rules::default() };
    let mut scores = std::collections::BTreeSet::new();
    for seed in 1..=520u64 {
        scores.insert(check(&catalogue, &Instance::from_seed(seed), rules));
    }
    assert!(scores.len() >= 3, "the games should not all score alike: {scores:?}");
}

#[test]
fn the_solver_agrees_with_the_naive_search_on_three_turn_games() {
    let catalogue = Catalogue::house();
    let rules = Rules { max_turns: Some(3), ..Rules::default() };
    for seed in 1000..1040u64 {
        check(&catalogue, &Instance::from_seed(seed), rules);
    }
}

#[test]
fn with_a_lower_workers_track_the_solver_still_agrees() {
    let catalogue = Catalogue::house();
    for (seed, max_workers) in (2000..2060u64).zip([2u8, 3, 4, 8].into_iter().cycle()) {
        check(&catalogue, &Instance::from_seed(seed), Rules { max_workers, max_turns: Some(2), ..Rules::default() });
    }
}

/// Random positions, at turn starts and in the middle of turns (with a die left or a choice
/// open), two turns before the end: the bound is never below the naive best.
#[test]
fn the_bound_is_never_below_the_best_score() {
    let catalogue = Catalogue::house();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let mut checked = 0;
    for seed in 0..300u64 {
        let instance = Instance::from_seed(seed);
        let turns = [3usize, 5, 8, 11][seed as usize % 4];
        let rules = Rules { max_turns: Some(turns), ..Rules::default() };
        let mut game = Game::new(&catalogue, &instance, rules);
        // Random play until two turns remain, then a few more random moves into the turn.
        while !game.is_over() && game.turn() + 2 < turns {
            let mv = *game.legal_moves().choose(&mut rng).expect("moves");
            game.play_unchecked(mv);
        }
        for _ in 0..(seed % 3) {
            if game.is_over() {
                break;
            }
            let mv = *game.legal_moves().choose(&mut rng).expect("moves");
            game.play_unchecked(mv);
        }
        let (best, _) = naive::best(&game);
        assert!(upper_bound(&game) >= best, "seed {seed}: bound {} below the best {best}", upper_bound(&game));
        checked += 1;
    }
    assert_eq!(checked, 300);
}

/// Two threads give the same score and the same line as one, on longer games and on whole
/// games (seeds whose best line the proof finds beyond the beam's, and one where the beam's
/// line is already best).
#[test]
fn one_thread_and_two_give_the_same_line() {
    let catalogue = Catalogue::house();
    for (seed, max_turns) in
        [(1u64, Some(6)), (2, Some(6)), (3, Some(6)), (4, Some(8)), (19, None), (5, None), (4, None)]
    {
        let instance = Instance::from_seed(seed);
        let rules = Rules { max_turns, ..Rules::default() };
        let game = Game::new(&catalogue, &instance, rules);
        let one = solve(&game, SolveOptions { threads: Some(1), ..SolveOptions::default() });
        let two = solve(&game, SolveOptions { threads: Some(2), ..SolveOptions::default() });
        assert!(one.proven && two.proven);
        assert_eq!((one.score, &one.line), (two.score, &two.line), "seed {seed}");
    }
}
