//! The exact linker against a deliberately naive brute force on small random maps
//! ([`reference`]): the fewest tiles must agree, and the linker's plan must replay in the engine
//! (`Game::with_track`) and link all four cities with exactly that many tiles.

use rayon::prelude::*;
use signalbox_engine::railways::colour::Colour;
use signalbox_solver::railways::link::min_link;
use signalbox_solver::railways::reference::{brute_force, small_game};

fn check(index: u64) -> bool {
    let Some(game) = small_game(index) else { return false };
    let Some(expected) = brute_force(&game, 6, 40_000) else { return false };
    let found = min_link(&game, Colour::Blue);
    let context = format!("instance {index}: options {:?}, tiles {:?}", game.options(), game.tiles());
    match (expected, found) {
        (None, None) => {}
        (Some(n), Some((plan, _))) => {
            assert_eq!(plan.tiles.len(), n, "{context}: the linker's plan {:?}", plan.tiles);
            let after = game
                .with_track(Colour::Blue, &plan.tiles)
                .unwrap_or_else(|(i, e)| panic!("{context}: tile {i} of {:?} refused: {e}", plan.tiles));
            assert!(after.has_linked_all(Colour::Blue), "{context}: the plan {:?} does not link", plan.tiles);
        }
        (e, f) => panic!("{context}: brute force {e:?}, linker {:?}", f.map(|(p, _)| p.tiles)),
    }
    true
}

#[test]
fn the_linker_matches_brute_force_on_500_small_random_maps() {
    // Instances in batches until 500 are within the brute force's reach (most are; a few need
    // more tiles or sets than it is given).
    let mut checked = 0;
    let mut next = 0u64;
    while checked < 500 && next < 3000 {
        checked += (next..next + 64).into_par_iter().filter(|&i| check(i)).count();
        next += 64;
    }
    assert!(checked >= 500, "only {checked} of {next} instances within the brute force's reach");
}
