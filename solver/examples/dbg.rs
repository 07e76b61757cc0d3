//! debug
use signalbox_engine::express01::card::CompanyId;
use signalbox_engine::express01::route::{RouteRules, RouteTask};
use signalbox_solver::express01::instances::{Synthetic, synthetic};
use signalbox_solver::express01::{SearchOptions, best_routes};
fn main() {
    let mut total = 0;
    for (n, l, b, seed) in [
        (200, 20, 0.75, 1),
        (200, 20, 0.75, 2),
        (200, 20, 0.75, 3),
        (200, 20, 0.85, 2),
        (200, 20, 0.95, 1),
        (200, 40, 0.75, 1),
        (1000, 20, 0.75, 1),
    ] {
        let net = synthetic(Synthetic { borders: b, tracks: 2, stations: 0.3, ..Synthetic::new(n) }, seed);
        let t = RouteTask { company: CompanyId(0), max_cards: l, rules: RouteRules::default() };
        let r = best_routes(&net, t, &SearchOptions { threads: Some(1), ..SearchOptions::default() });
        print!("{n}/{l}/{b}/{seed}: {} nodes; ", r.nodes);
        total += r.nodes;
    }
    println!("total {total}");
}
