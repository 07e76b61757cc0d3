use std::time::Instant;
use signalbox_engine::coe::{Catalogue, Game, Instance, Rules};
use signalbox_solver::coe::fair::{self, Policy};

fn main() {
    let catalogue = Catalogue::house();
    let n: u64 = std::env::var("N").ok().and_then(|s| s.parse().ok()).unwrap_or(40);
    for policy in [Policy::Greedy, Policy::Playout, Policy::Fair, Policy::Random] {
        let t = Instant::now();
        let mut total = 0u32;
        for seed in 0..n {
            let instance = Instance::from_seed(seed);
            let g = Game::new(&catalogue, &instance, Rules::default());
            let (_, end) = fair::play_out(&g, policy, fair::HORIZON, seed);
            total += end.score().total();
        }
        println!("{policy:?}: mean {:.2} in {:.2} s/game", total as f64 / n as f64, t.elapsed().as_secs_f64() / n as f64);
    }
    // Advice timing at turn 1.
    let instance = Instance::from_seed(1);
    let mut g = Game::new(&catalogue, &instance, Rules::default());
    let (line, _) = fair::play_out(&g, Policy::Playout, 2, 1);
    g.play(line[0]).unwrap();
    let t = Instant::now();
    let opts = fair::value_options(&g, 2, 64);
    println!("turn 1: {} options in {:.2} s; best {:?}", opts.len(), t.elapsed().as_secs_f64(), opts.first().map(|o| (o.value, o.half_width)));
}
