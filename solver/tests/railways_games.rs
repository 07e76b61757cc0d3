//! 200 full games of Railways Express from seeds, 2, 3 and 4 players (the Service Bounties in half
//! of them), every player following its minimum link plan ([`policy::play_turn`]): after every
//! action the position keeps every invariant ([`Game::problems`]: tiles only where legal,
//! gray-city limits, entries, cube and tile counts, the linked cities recomputed from the
//! track), and every game ends, with winners who linked their four cities.

use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use signalbox_engine::railways::catalogue::Content;
use signalbox_engine::railways::colour::Colour;
use signalbox_engine::railways::game::Game;
use signalbox_engine::railways::options::Options;
use signalbox_solver::railways::policy::play_turn;

/// Far more turns than any game needs (the plans are about 20 tiles, built 1 to 4 a turn).
const TURN_LIMIT: u32 = 400;

fn game(seed: u64) -> (u32, usize) {
    let content = Arc::new(Content::house());
    let players = 2 + (seed % 3) as usize;
    let options = Options { service_bounties: seed.is_multiple_of(2), ..Options::default() };
    let mut game = Game::new(content, &Colour::ALL[..players], options, seed).expect("a game");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    while !game.is_over() && game.turns() < TURN_LIMIT {
        let before = game.clone();
        let actions = play_turn(&mut game, &mut rng).unwrap_or_else(|(a, e)| panic!("seed {seed}: {a} refused: {e}"));
        // Every action of the turn again, one by one, with the invariants after each.
        let mut replay = before;
        for a in &actions {
            replay.apply(a).unwrap_or_else(|e| panic!("seed {seed}: {a} refused on replay: {e}"));
            let problems = replay.problems();
            assert!(problems.is_empty(), "seed {seed}, turn {}, after {a}: {problems:?}", replay.turns());
        }
    }
    assert!(game.is_over(), "seed {seed}: not over after {TURN_LIMIT} turns");
    let winners = game.winners();
    assert!(!winners.is_empty() && winners.iter().all(|&w| game.has_linked_all(w)), "seed {seed}: winners {winners:?}");
    (game.turns(), winners.len())
}

#[test]
fn two_hundred_full_games_keep_the_invariants_every_turn_and_end() {
    let results: Vec<(u32, usize)> = (0..200u64).into_par_iter().map(game).collect();
    let turns: u32 = results.iter().map(|r| r.0).sum();
    // A race of about 20 tiles a player lasts more than 5 rounds and far fewer than 100.
    assert!(results.iter().all(|r| r.0 > 10), "a game ended implausibly early: {results:?}");
    assert!(turns / 200 < 200, "games last {} turns on average", turns / 200);
}
