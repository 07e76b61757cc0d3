//! How the weights of the playout evaluation (`solver::coe::fair::WEIGHTS`, ruling F5) were
//! fitted: a coordinate search that changes one weight at a time by a random step and keeps the
//! change when the playout policy's mean final score on seeds 100,000 to 100,399 rises; then the
//! mean on seeds 200,000 to 200,399, which the search never saw.
//!
//! Two phases, as they were run: 150 rounds of steps up to 0.4 from a first guess, then 240 rounds
//! of steps up to 0.6 from the first phase's result rounded to two decimals. The second phase's
//! result, rounded, is `WEIGHTS`. About five minutes on one core:
//!
//! ```sh
//! cargo run --release -p signalbox-solver --example coe_fair_weights
//! ```

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use signalbox_engine::coe::{Catalogue, Game, Instance, Rules};
use signalbox_solver::coe::exact::turn_outcomes;
use signalbox_solver::coe::fair::{WEIGHTS, Weights, evaluate};

/// The playout policy's mean final score over `seeds` with weights `w`: each turn the ending of
/// highest evaluation, the last turn the ending of highest score.
fn mean(catalogue: &Catalogue, w: &Weights, seeds: std::ops::Range<u64>) -> f64 {
    let n = seeds.end - seeds.start;
    let mut total = 0u32;
    for seed in seeds {
        let instance = Instance::from_seed(seed);
        let mut g = Game::new(catalogue, &instance, Rules::default());
        while !g.is_over() {
            let last = g.turns_left_at_most() <= 1;
            let mut best: Option<(Game<'_>, f64)> = None;
            for (o, _) in turn_outcomes(&g) {
                let v = if last { f64::from(o.score().total()) } else { evaluate(&o, w) };
                if best.as_ref().is_none_or(|b| v > b.1 + 1e-12) {
                    best = Some((o, v));
                }
            }
            let Some((next, _)) = best else { break };
            g = next;
        }
        total += g.score().total();
    }
    f64::from(total) / n as f64
}

/// One phase of the coordinate search.
fn search(catalogue: &Catalogue, start: Weights, rounds: usize, step: f64) -> Weights {
    let fit = 100_000..100_400;
    let mut best = start;
    let mut best_v = mean(catalogue, &best, fit.clone());
    println!("start: {best_v:.3} {best:?}");
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for round in 0..rounds {
        let mut w = best;
        let delta = rng.random_range(-step..step);
        let slot = match round % 6 {
            0 => &mut w.territory,
            1 => &mut w.held,
            2 => &mut w.worker,
            3 => &mut w.frontier,
            4 => &mut w.placeable,
            _ => &mut w.colour,
        };
        *slot = (*slot + delta).max(0.0);
        let v = mean(catalogue, &w, fit.clone());
        if v > best_v {
            best_v = v;
            best = w;
            println!("round {round}: {v:.3} {w:?}");
        }
    }
    best
}

fn main() {
    let catalogue = Catalogue::house();
    let first = Weights { territory: 0.5, held: 0.6, worker: 0.4, frontier: 0.1, placeable: 0.0, colour: 0.0 };
    let one = search(&catalogue, first, 150, 0.4);
    let round = |x: f64| (x * 100.0).round() / 100.0;
    let rounded = Weights {
        territory: round(one.territory),
        held: round(one.held),
        worker: round(one.worker),
        frontier: round(one.frontier),
        placeable: round(one.placeable),
        colour: round(one.colour),
    };
    let two = search(&catalogue, rounded, 240, 0.6);
    println!("fitted: {two:?}");
    println!("WEIGHTS in use: {WEIGHTS:?}");
    for (name, w) in [("fitted", two), ("in use", WEIGHTS)] {
        println!("{name}: seeds 200000..200399 mean {:.3}", mean(&catalogue, &w, 200_000..200_400));
    }
}
