//! The exact linker against a deliberately naive brute force on small random maps and supplies
//! ([`reference`]): the fewest tiles within the supply must agree (or both find none), and the
//! linker's plan must replay in the engine (`Game::with_track`, which takes each tile from the
//! supply) and link all four cities with exactly that many tiles. And the regression position
//! whose one straight tile the first linker overdrew.

use std::sync::Arc;

use rayon::prelude::*;
use signalbox_engine::railways::catalogue::Content;
use signalbox_engine::railways::colour::Colour;
use signalbox_engine::railways::game::Game;
use signalbox_engine::railways::track::TileKind;
use signalbox_solver::railways::link::{Linked, NoPlan, link};
use signalbox_solver::railways::reference::{brute_force, small_game};

/// What one instance exercised.
#[derive(Default)]
struct Seen {
    checked: usize,
    /// The first pass's plan did not fit the supply, and the second pass found one that does.
    second_pass: usize,
    /// Plans on the board, none within the supply.
    short: usize,
}

/// Instance `index` against the brute force with at most `limit` tiles and `budget` positions.
fn check(index: u64, limit: usize, budget: usize) -> Seen {
    let Some(game) = small_game(index) else { return Seen::default() };
    let Some(expected) = brute_force(&game, limit, budget) else { return Seen::default() };
    let (found, stats) = link(&game, Colour::Blue, None);
    let context =
        format!("instance {index}: options {:?}, supply {:?}, tiles {:?}", game.options(), game.supply(), game.tiles());
    match (expected, &found) {
        (None, Linked::None(_)) => {}
        (Some(n), Linked::Plan(plan)) => {
            assert_eq!(plan.tiles.len(), n, "{context}: the linker's plan {:?}", plan.tiles);
            let after = game
                .with_track(Colour::Blue, &plan.tiles)
                .unwrap_or_else(|(i, e)| panic!("{context}: tile {i} of {:?} refused: {e}", plan.tiles));
            assert!(after.has_linked_all(Colour::Blue), "{context}: the plan {:?} does not link", plan.tiles);
        }
        (e, f) => panic!("{context}: brute force {e:?}, linker {f:?}"),
    }
    Seen {
        checked: 1,
        second_pass: usize::from(stats.supply_expanded > 0 && matches!(found, Linked::Plan(_))),
        short: usize::from(matches!(found, Linked::None(NoPlan::Supply { .. }))),
    }
}

#[test]
fn the_linker_matches_brute_force_on_500_small_random_maps_and_supplies() {
    // Instances in batches until 500 are within the brute force's reach (most are; a few need
    // more tiles or positions than it is given).
    let mut seen = Seen::default();
    let mut next = 0u64;
    while seen.checked < 500 && next < 3000 {
        for s in (next..next + 64).into_par_iter().map(|i| check(i, 6, 40_000)).collect::<Vec<_>>() {
            seen.checked += s.checked;
            seen.second_pass += s.second_pass;
            seen.short += s.short;
        }
        next += 64;
    }
    assert!(seen.checked >= 500, "only {} of {next} instances within the brute force's reach", seen.checked);
    // The supplies were small enough to matter: both the second pass and "none within the
    // supply" were reached and checked.
    assert!(seen.second_pass >= 5, "the second pass found only {} plans", seen.second_pass);
    assert!(seen.short >= 50, "only {} instances had plans on the board but none within the supply", seen.short);
}

#[test]
fn plans_that_fit_the_supply_in_no_order_are_split_and_the_answer_still_matches() {
    // Small games (found by a scan of the first 40,000) where the second pass meets a plan
    // whose draws may fit but whose over tiles take the last crossing tile in the wrong order.
    let cases = [1081u64, 8618, 15447, 27773, 29963, 34591, 35445, 37190];
    cases.into_par_iter().for_each(|index| {
        let game = small_game(index).expect("a game");
        let (_, stats) = link(&game, Colour::Blue, None);
        assert!(stats.order_splits > 0, "instance {index} no longer needs the split: {stats:?}");
        assert_eq!(check(index, 8, 2_000_000).checked, 1, "instance {index} out of the brute force's reach");
    });
}

fn fixture(name: &str) -> String {
    let path = format!("{}/../tests/fixtures/railways/regressions/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn short_supply_regression_links_blue_with_five_tiles_within_the_one_straight_tile() {
    let content = Content::from_toml("short-supply.toml", &fixture("short-supply.toml")).expect("the content");
    assert_eq!(content.supply.straight, 1);
    let game = Game::from_json(Arc::new(content), "short-supply.json", &fixture("short-supply.json")).expect("legal");
    let (found, stats) = link(&game, Colour::Blue, None);
    let Linked::Plan(plan) = found else { panic!("no plan: {found:?}") };
    assert_eq!(plan.tiles.len(), 5, "{plan:?}");
    assert!(stats.supply_expanded > 0, "the board's fewest tiles overdraw the straight pile");
    let curve = game.options().curve;
    // Five tiles link blue's cities with the one straight tile or none; the linker's plan uses
    // at most the one, and the engine lays it from the supply.
    let straight = plan.tiles.iter().filter(|(_, e)| e.kind(curve) == Some(TileKind::Straight)).count();
    assert!(straight <= 1, "{plan:?}");
    let after = game.with_track(Colour::Blue, &plan.tiles).expect("the plan replays");
    assert!(after.has_linked_all(Colour::Blue));
    assert_eq!(after.supply().straight, 1 - straight as u32);
    // The brute force agrees that no plan within the supply is shorter.
    assert_eq!(brute_force(&game, 5, 2_000_000), Some(Some(5)));
}
