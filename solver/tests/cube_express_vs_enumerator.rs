//! The integer program against the brute-force enumerator on random small positions: for each
//! position and one of its lays, both must find the same best value, and the program's plan must
//! replay in the engine to that value; on every 25th position, the whole turn as well. A quarter
//! of the positions are solitaire games.
//!
//! `CE_POSITIONS=N` changes the number of positions; the heavier variant (more resources, two lays
//! per position) is ignored in the suite:
//! `cargo test --release -p signalbox-solver --test cube_express_vs_enumerator -- --ignored`.

use std::sync::Arc;

use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use signalbox_engine::cube_express::catalogue::Content;
use signalbox_engine::cube_express::game::{Game, Phase};
use signalbox_engine::cube_express::options::Options;
use signalbox_engine::cube_express::position::from_state;
use signalbox_engine::cube_express::resource::Resource;
use signalbox_solver::cube_express::enumerate::{Limits, enumerate};
use signalbox_solver::cube_express::plan::{PlanOptions, certify, lay_candidates, plan_turn, solve_lay};

/// How hard the positions are.
#[derive(Clone, Copy)]
struct Shake {
    /// Most random turns before the position.
    turns: u32,
    /// Most resources moved from the reserve into storage.
    resources: u8,
    /// Lays tried per position.
    lays: usize,
    /// Plans an enumeration may value before it counts as cut short.
    plans: u64,
}

/// A position a few random turns into a game, then shaken: resources, dividends, stock and
/// objective cubes moved about (cubes conserved), so that trades, deliveries, `$` spaces, the
/// stock maximum, an empty reserve and full objective cards all come up.
fn random_position(content: &Arc<Content>, rng: &mut ChaCha8Rng, shake: Shake) -> Option<Game> {
    // One player: the solitaire game (no market, no objective cards).
    let players = rng.random_range(1..=4usize);
    let turns = rng.random_range(0..=shake.turns);
    let game = Game::after_random_turns(content.clone(), players, rng.random(), turns, Options::default()).ok()?;
    if game.is_over() || game.phase() != Phase::Lay {
        return None;
    }
    let mut s = game.state();
    let seat = usize::from(s.active);
    let p = &mut s.players[seat];
    for _ in 0..rng.random_range(0..=shake.resources) {
        if p.reserve > 0 {
            p.reserve -= 1;
            let r = *[Resource::Coal, Resource::Wood, Resource::Iron].choose(rng)?;
            *p.store.get_mut(r) += 1;
        }
    }
    if rng.random_bool(0.2) {
        // A nearly empty reserve.
        let keep = rng.random_range(0..=3);
        let moved = p.reserve.saturating_sub(keep);
        p.reserve -= moved;
        p.dividends += moved;
    }
    if rng.random_bool(0.3) {
        let track = content.stock(players).clone();
        let target = rng.random_range(p.stock..=track.max());
        for (i, &d) in track.dollars.iter().enumerate() {
            if d <= target && p.dollars[i] {
                p.dollars[i] = false;
                p.dividends += 1;
            }
        }
        p.stock = target;
        p.reached_max |= target == track.max();
    }
    if players > 1 && rng.random_bool(0.2) {
        for c in 0..4 {
            let n = rng.random_range(0..=5u8).min(p.reserve);
            p.reserve -= n;
            s.cubes[c][seat] += n;
        }
    }
    from_state(content.clone(), &s).ok()
}

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
            let planned = plan_turn(&game, &options).expect("a plan");
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
    run(positions(500), Shake { turns: 6, resources: 3, lays: 1, plans: 1_000_000 });
}

#[test]
#[ignore = "heavy: about 10 minutes on 2 cores"]
fn the_program_matches_the_enumerator_on_heavier_positions() {
    run(positions(200), Shake { turns: 8, resources: 5, lays: 2, plans: 6_000_000 });
}
