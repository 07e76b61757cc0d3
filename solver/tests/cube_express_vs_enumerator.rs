//! The integer program against the brute-force enumerator on random small positions: for each
//! position and one of its lays, both must find the same best value, and the program's plan must
//! replay in the engine to that value; on every 25th position, the whole turn as well. A quarter
//! of the positions are solitaire games.
//!
//! `CE_POSITIONS=N` changes the number of positions; the heavier variant (more resources, two lays
//! per position) is ignored in the suite:
//! `cargo test --release -p signalbox-solver --test cube_express_vs_enumerator -- --ignored`.

use std::sync::Arc;

use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use signalbox_engine::cube_express::catalogue::Content;
use signalbox_solver::cube_express::enumerate::{Limits, enumerate};
use signalbox_solver::cube_express::plan::{Method, PlanOptions, certify, lay_candidates, plan_turn, solve_lay};

#[path = "support/positions.rs"]
mod positions;
use positions::{Shake, random_position};

/// Checks one position: (lays compared, enumerations cut short).
fn check(content: &Arc<Content>, index: u64, shake: Shake) -> (usize, usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(2026 ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let game = loop {
        if let Some(g) = random_position(content, &mut rng, shake) {
            break g;
        }
    };
    let options = PlanOptions::default();
    let (mut compared, mut cut) = (0, 0);
    let candidates = lay_candidates(&game);
    let chosen: Vec<_> = candidates.sample(&mut rng, shake.lays).cloned().collect();
    for lay in chosen {
        let limits = Limits { plans: Some(shake.plans), lay: Some(lay), ..Limits::default() };
        let brute = enumerate(&game, &options.weights, &limits);
        if !brute.complete {
            cut += 1;
            continue;
        }
        compared += 1;
        let program = solve_lay(&game, lay.as_ref(), &options).expect("the backend runs");
        let context = format!("position {index} {:?} lay {lay:?}", game.state());
        match (&brute.best, &program) {
            (None, None) => {}
            (Some(b), Some((v, actions))) => {
                let (_, checked) = certify(&game, actions, &options.weights).unwrap_or_else(|(i, e)| {
                    panic!("{context}: the program's plan is illegal at {i}: {e}\n{actions:?}")
                });
                assert_eq!(checked, *v, "{context}: the program misjudges its plan {actions:?}");
                assert_eq!(*v, b.value, "{context}: program {v} {actions:?}\nenumerator {} {:?}", b.value, b.actions);
            }
            (b, p) => panic!("{context}: enumerator {b:?}, program {p:?}"),
        }
    }
    if index.is_multiple_of(25) {
        let brute = enumerate(&game, &options.weights, &Limits { plans: Some(shake.plans), ..Limits::default() });
        if brute.complete {
            let programs = PlanOptions { method: Method::Program, ..options };
            let planned = plan_turn(&game, &programs).expect("a plan");
            assert_eq!(Some(planned.value), brute.best.map(|b| b.value), "position {index}: whole turn");
        }
    }
    (compared, cut)
}

fn run(positions: u64, shake: Shake) {
    let content = Arc::new(Content::house());
    let results: Vec<(usize, usize)> = (0..positions).into_par_iter().map(|i| check(&content, i, shake)).collect();
    let compared: usize = results.iter().map(|r| r.0).sum();
    let cut: usize = results.iter().map(|r| r.1).sum();
    assert!(cut * 20 <= compared, "too many enumerations cut short: {cut} of {}", compared + cut);
    assert!(compared >= positions as usize * shake.lays * 9 / 10);
}

fn positions(default: u64) -> u64 {
    std::env::var("CE_POSITIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

#[test]
fn the_program_matches_the_enumerator_on_500_random_positions() {
    run(positions(500), Shake { turns: 6, resources: 3, lays: 1, plans: 1_000_000, narrowed: false });
}

#[test]
#[ignore = "heavy: about 10 minutes on 2 cores"]
fn the_program_matches_the_enumerator_on_heavier_positions() {
    run(positions(200), Shake { turns: 8, resources: 5, lays: 2, plans: 6_000_000, narrowed: false });
}
