use signalbox_engine::express01::card::CompanyId;
use signalbox_engine::express01::catalogue::Catalogue;
use signalbox_engine::express01::position::Position;
use signalbox_engine::express01::route::{RouteRules, RouteTask};
use signalbox_solver::express01::instances::{Synthetic, house_position, synthetic};
use signalbox_solver::express01::naive;
fn main() {
    let mut hist = std::collections::BTreeMap::new();
    for seed in 0..300u64 {
        let shape = Synthetic { cards: 2 + (seed as usize % 34), width: 2 + (seed as usize % 5), stations: 0.4, borders: 0.55, tracks: 2, companies: 3 };
        let n = synthetic(shape, seed);
        let t = RouteTask { company: CompanyId(0), max_cards: (seed % 9) as u32, rules: RouteRules::default() };
        let r = naive::ranked(&n, t);
        *hist.entry(("syn", r.first().map_or(0, |x| x.1), r.len().min(10))).or_insert(0) += 1;
    }
    let c = Catalogue::house();
    for seed in 0..100u64 {
        let s = house_position(&c, if seed % 2 == 0 { "germany" } else { "usa" }, 0.85, seed).unwrap();
        let p = Position::from_setup(s, &c).unwrap_or_else(|e| panic!("{:?}", e.1));
        let n = p.network();
        let t = RouteTask { company: CompanyId((seed % 4) as u8), max_cards: 2 + (seed % 10) as u32, rules: RouteRules::default() };
        let r = naive::ranked(&n, t);
        *hist.entry(("house", r.first().map_or(0, |x| x.1), r.len().min(10))).or_insert(0) += 1;
    }
    for (k, v) in hist { println!("{k:?} {v}"); }
}
