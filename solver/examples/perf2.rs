//! perf probe: wall time
use signalbox_engine::express01::card::CompanyId;
use signalbox_engine::express01::route::{RouteRules, RouteTask};
use signalbox_solver::express01::instances::{Synthetic, synthetic};
use signalbox_solver::express01::{SearchOptions, best_routes};
use std::time::Instant;
fn main() {
    let net = synthetic(Synthetic { borders: 0.75, tracks: 2, stations: 0.3, ..Synthetic::new(200) }, 1);
    let t = RouteTask { company: CompanyId(0), max_cards: 20, rules: RouteRules::default() };
    for th in [None, Some(1)] {
        let mut best = f64::MAX;
        for _ in 0..5 {
            let a = Instant::now();
            for _ in 0..20 {
                let _ = best_routes(&net, t, &SearchOptions { threads: th, ..SearchOptions::default() });
            }
            best = best.min(a.elapsed().as_secs_f64() / 20.0);
        }
        println!("threads {th:?}: {:.3} ms", best * 1e3);
    }
}
