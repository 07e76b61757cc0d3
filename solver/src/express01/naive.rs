//! A deliberately naive route enumerator: every walk on the track graph within the length,
//! following the rules step by step, with no pruning, no station graph and no table. It is the
//! reference that the exact search is tested and benchmarked against.

use std::collections::BTreeMap;

use petgraph::graph::{EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef;
use signalbox_engine::express01::network::{Network, Node, StationRef};
use signalbox_engine::express01::route::{Route, RouteTask, Step};

use super::hops::step;

/// Every legal route, by station sequence in canonical orientation (the one of a route and its
/// reverse whose station sequence comes first), with its payout and the fewest cards any walk
/// of that sequence travels, and that walk.
pub fn all_routes(network: &Network, task: RouteTask) -> BTreeMap<Vec<StationRef>, (u32, u32, Route)> {
    let mut out: BTreeMap<Vec<StationRef>, (u32, u32, Route)> = BTreeMap::new();
    let start_cost = task.rules.length.start_cost();
    if task.max_cards < start_cost {
        return out;
    }
    for (s, node) in network.stations() {
        let mut walk = Walk { network, task, start_cost, stations: vec![s], steps: Vec::new(), out: &mut out };
        for e in network.graph.edges(node) {
            walk.go(e.id(), node, 0);
        }
    }
    out
}

/// The best route by the rules' order (payout, then fewer cards, then station order) and its
/// payout and cards, or `None` if there is no legal route.
pub fn best_route(network: &Network, task: RouteTask) -> Option<(Vec<StationRef>, u32, u32, Route)> {
    ranked(network, task).into_iter().next()
}

/// Every legal route, best first.
pub fn ranked(network: &Network, task: RouteTask) -> Vec<(Vec<StationRef>, u32, u32, Route)> {
    let mut all: Vec<_> = all_routes(network, task).into_iter().map(|(k, (p, c, r))| (k, p, c, r)).collect();
    all.sort_by(|a, b| b.1.cmp(&a.1).then(a.2.cmp(&b.2)).then(a.0.cmp(&b.0)));
    all
}

struct Walk<'n, 'o> {
    network: &'n Network,
    task: RouteTask,
    start_cost: u32,
    stations: Vec<StationRef>,
    steps: Vec<Step>,
    out: &'o mut BTreeMap<Vec<StationRef>, (u32, u32, Route)>,
}

impl Walk<'_, '_> {
    /// Runs along `edge` away from `from`, having crossed `borders` card borders so far.
    fn go(&mut self, edge: EdgeIndex, from: NodeIndex, borders: u32) {
        let g = &self.network.graph;
        let Some((a, b)) = g.edge_endpoints(edge) else { return };
        let to = if a == from { b } else { a };
        self.steps.push(step(self.network, edge, to));
        match g[to] {
            Node::Station(s) => {
                if !self.stations.contains(&s) {
                    self.stations.push(s);
                    self.record(borders);
                    // Pass through the station by any other track.
                    for next in g.edges(to) {
                        if next.id() != edge {
                            self.go(next.id(), to, borders);
                        }
                    }
                    self.stations.pop();
                }
            }
            Node::Port { across: Some(_), .. } => {
                if self.start_cost + borders < self.task.max_cards {
                    let here = g[edge].cell;
                    for next in g.edges(to) {
                        if next.weight().cell != here {
                            self.go(next.id(), to, borders + 1);
                        }
                    }
                }
            }
            Node::Port { across: None, .. } => {}
        }
        self.steps.pop();
    }

    fn record(&mut self, borders: u32) {
        let company = self.stations.iter().any(|&s| self.network.station(s).company == Some(self.task.company));
        if !company {
            return;
        }
        let payout: u32 = self.stations.iter().map(|&s| self.network.station(s).value()).sum();
        let cards = self.start_cost + borders;
        let mut route = Route { steps: self.steps.clone() };
        let mut key = self.stations.clone();
        let mut rev = key.clone();
        rev.reverse();
        if rev < key {
            key = rev;
            route = route.reversed();
        }
        let entry = self.out.entry(key).or_insert((payout, cards, route.clone()));
        if cards < entry.1 {
            *entry = (payout, cards, route);
        }
    }
}
