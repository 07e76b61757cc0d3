//! The integer program against the brute-force enumerator on random small positions: for each
//! position and a few of its lays, both must find the same best value, and the program's plan
//! must replay in the engine to that value.

use std::sync::Arc;

use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use signalbox_engine::cube_express::catalogue::Content;
use signalbox_engine::cube_express::game::{Game, Phase};
use signalbox_engine::cube_express::options::Options;
use signalbox_engine::cube_express::position::from_state;
use signalbox_engine::cube_express::resource::Resource;
use signalbox_solver::cube_express::enumerate::{Limits, enumerate};
use signalbox_solver::cube_express::plan::{PlanOptions, certify, lay_candidates, solve_lay};

/// A position a few random turns into a game, then shaken: resources, dividends, stock and
/// objective cubes moved about (cubes conserved), so that trades, deliveries, $ spaces, the stock
/// maximum and full objective cards all come up.
fn random_position(content: &Arc<Content>, rng: &mut ChaCha8Rng) -> Option<Game> {
    let players = rng.random_range(2..=4usize);
    let mut game = Game::new(content.clone(), players, rng.random(), Options::default()).ok()?;
    let turns = rng.random_range(0..=8);
    while game.turns_played() < turns && !game.is_over() {
        let a = game.random_action(rng)?;
        game.apply(&a).ok()?;
    }
    if game.is_over() || game.phase() != Phase::Lay {
        return None;
    }
    let mut s = game.state();
    let seat = usize::from(s.active);
    let p = &mut s.players[seat];
    for _ in 0..rng.random_range(0..=5) {
        if p.reserve > 0 {
            p.reserve -= 1;
            let r = *[Resource::Coal, Resource::Wood, Resource::Iron].choose(rng)?;
            *p.store.get_mut(r) += 1;
        }
    }
    if rng.random_bool(0.3) {
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
    if rng.random_bool(0.2) {
        for c in 0..4 {
            let n = rng.random_range(0..=5u8).min(p.reserve);
            p.reserve -= n;
            s.cubes[c][seat] += n;
        }
    }
    from_state(content.clone(), &s).ok()
}

#[test]
fn the_program_matches_the_enumerator_on_random_positions() {
    let content = Arc::new(Content::house());
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let options = PlanOptions::default();
    let (mut positions, mut lays, mut skipped) = (0, 0, 0);
    let target: usize = std::env::var("CE_POSITIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(500);
    while positions < target {
        let Some(game) = random_position(&content, &mut rng) else { continue };
        positions += 1;
        let candidates = lay_candidates(&game);
        let chosen: Vec<_> = candidates.sample(&mut rng, 2).cloned().collect();
        for lay in chosen {
            let limits = Limits { plans: Some(3_000_000), lay: Some(lay), ..Limits::default() };
            let t = std::time::Instant::now();
            let brute = enumerate(&game, &options.weights, &limits);
            let te = t.elapsed();
            if !brute.complete {
                skipped += 1;
                continue;
            }
            lays += 1;
            let t = std::time::Instant::now();
            let program = solve_lay(&game, lay.as_ref(), &options).expect("the backend runs");
            if std::env::var("CE_VERBOSE").is_ok() {
                eprintln!("{positions}: {} plans in {te:?}, program in {:?}", brute.plans, t.elapsed());
            }
            let context = format!("position {positions} {:?} lay {lay:?}", game.state());
            match (&brute.best, &program) {
                (None, None) => {}
                (Some(b), Some((v, actions))) => {
                    let (_, checked) = certify(&game, actions, &options.weights).unwrap_or_else(|(i, e)| {
                        panic!("{context}: the program's plan is illegal at {i}: {e}\n{actions:?}")
                    });
                    assert_eq!(checked, *v, "{context}: the program misjudges its plan {actions:?}");
                    assert_eq!(
                        *v, b.value,
                        "{context}: program {v} {actions:?}\nenumerator {} {:?}",
                        b.value, b.actions
                    );
                }
                (b, p) => panic!("{context}: enumerator {b:?}, program {p:?}"),
            }
        }
    }
    assert!(skipped * 20 <= lays, "too many enumerations cut short: {skipped} of {}", lays + skipped);
}
