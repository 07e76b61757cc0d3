//! probe
use signalbox_engine::express01::card::CompanyId;
use signalbox_engine::express01::route::{RouteRules, RouteTask};
use signalbox_solver::express01::instances::{Synthetic, synthetic};
use signalbox_solver::express01::{SearchOptions, best_routes, naive};
use std::time::Instant;
fn main() {
    for borders in [0.6, 0.75, 0.85, 0.95] {
        for seed in 1..4 {
            let net = synthetic(Synthetic { borders, tracks: 2, stations: 0.3, ..Synthetic::new(200) }, seed);
            let t = RouteTask { company: CompanyId(0), max_cards: 20, rules: RouteRules::default() };
            let a = Instant::now();
            for _ in 0..20 {
                let _ = best_routes(&net, t, &SearchOptions::default());
            }
            let ts = a.elapsed() / 20;
            let a = Instant::now();
            let nv = naive::best_route(&net, t).map(|x| x.1);
            let tn = a.elapsed();
            println!(
                "borders {borders} seed {seed}: solver {ts:?} naive {tn:?} ratio {:.0} ({nv:?})",
                tn.as_secs_f64() / ts.as_secs_f64()
            );
        }
    }
}
