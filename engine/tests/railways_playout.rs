//! 200 games of Railways Express from seeds with uniformly random legal actions, 2, 3 and 4
//! players, the Service Bounties in half of them: after every action the position keeps every
//! invariant ([`Game::problems`]: tiles only where legal, gray-city limits, entries, cube and
//! tile counts, the linked cities recomputed from the track), and at the start of every turn the
//! position reads back from its own JSON form with every check of a position file (crossing
//! tiles included). Full games, played to the end with
//! a policy that builds towards its cities, are in `solver/tests/railways_games.rs`.

use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use signalbox_engine::railways::catalogue::Content;
use signalbox_engine::railways::colour::Colour;
use signalbox_engine::railways::game::{Action, Game, Phase};
use signalbox_engine::railways::options::{Curve, GrayExits, Options};

#[test]
fn two_hundred_random_games_keep_the_invariants_after_every_action() {
    let content = Arc::new(Content::house());
    let mut built = 0;
    let mut crossings = 0;
    for seed in 0..200u64 {
        let players = 2 + (seed % 3) as usize;
        let options = Options {
            service_bounties: seed.is_multiple_of(2),
            curve: if seed % 5 == 4 { Curve::Sharp } else { Curve::Gentle },
            gray_exits: if seed % 7 == 6 { GrayExits::OwnCitiesOnly } else { GrayExits::Allowed },
        };
        let mut game = Game::new(content.clone(), &Colour::ALL[..players], options, seed).expect("a game");
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xfeed);
        while !game.is_over() && game.turns() < 40 {
            let action = game.random_action(&mut rng).expect("a game not over has an action");
            if let Err(e) = game.apply(&action) {
                panic!("seed {seed}: the listed {action} was refused: {e}");
            }
            built += usize::from(matches!(action, Action::Build { .. }));
            let problems = game.problems();
            assert!(problems.is_empty(), "seed {seed}, turn {}, after {action}: {problems:?}", game.turns());
            if game.phase() == Phase::Roll {
                let again = Game::from_setup(content.clone(), &game.to_setup()).unwrap_or_else(|p| {
                    panic!("seed {seed}, turn {}: the position reads back with {p:?}", game.turns())
                });
                assert_eq!(again.to_setup(), game.to_setup());
                crossings += again.tiles().iter().filter(|t| t.crossing).count();
            }
        }
    }
    assert!(built > 10_000, "only {built} tiles built: the games hardly moved");
    assert!(crossings > 100, "only {crossings} crossing tiles read back");
}
