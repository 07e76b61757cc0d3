use rand::{RngExt, SeedableRng};
use signalbox_engine::coe::{Catalogue, Game, Instance, Rules};
use signalbox_solver::coe::exact::turn_outcomes;
use signalbox_solver::coe::fair::{Weights, evaluate, WEIGHTS};

fn mean(catalogue: &Catalogue, w: &Weights, seeds: std::ops::Range<u64>) -> f64 {
    let n = seeds.end - seeds.start;
    let mut total = 0u32;
    for seed in seeds {
        let instance = Instance::from_seed(seed);
        let mut g = Game::new(catalogue, &instance, Rules::default());
        while !g.is_over() {
            let outs = turn_outcomes(&g);
            let last = g.turns_left_at_most() <= 1;
            let mut best = (0, f64::NEG_INFINITY);
            for (i, (o, _)) in outs.iter().enumerate() {
                let v = if last { o.score().total() as f64 } else { evaluate(o, w) };
                if v > best.1 + 1e-12 { best = (i, v); }
            }
            g = outs.into_iter().nth(best.0).unwrap().0;
        }
        total += g.score().total();
    }
    total as f64 / n as f64
}

fn main() {
    let catalogue = Catalogue::house();
    let seeds = 100_000..100_400;
    let mut best = WEIGHTS;
    let mut best_v = mean(&catalogue, &best, seeds.clone());
    println!("start {best_v:.3} {best:?}");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    for round in 0..240 {
        let mut w = best;
        let f = |x: f64, r: &mut rand_chacha::ChaCha8Rng| (x + r.random_range(-0.6..0.6f64)).max(0.0);
        match round % 6 { 0 => w.territory = f(w.territory, &mut rng), 1 => w.held = f(w.held, &mut rng), 2 => w.worker = f(w.worker, &mut rng), 3 => w.frontier = f(w.frontier, &mut rng), 4 => w.placeable = f(w.placeable, &mut rng), _ => w.colour = f(w.colour, &mut rng) }
        let v = mean(&catalogue, &w, seeds.clone());
        if v > best_v { best_v = v; best = w; println!("{round}: {v:.3} {w:?}"); }
    }
    println!("held-out: {:.3}", mean(&catalogue, &best, 200_000..200_400));
}
