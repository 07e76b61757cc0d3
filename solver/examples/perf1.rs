//! perf probe
use signalbox_engine::express01::card::CompanyId;
use signalbox_engine::express01::route::{RouteRules, RouteTask};
use signalbox_solver::express01::instances::{Synthetic, synthetic};
use signalbox_solver::express01::{SearchOptions, best_routes};
fn main() {
    let net = synthetic(Synthetic { borders: 0.75, tracks: 2, stations: 0.3, ..Synthetic::new(200) }, 1);
    let t = RouteTask { company: CompanyId(0), max_cards: 20, rules: RouteRules::default() };
    for _ in 0..50 {
        let _ = best_routes(&net, t, &SearchOptions { threads: Some(1), ..SearchOptions::default() });
    }
}
