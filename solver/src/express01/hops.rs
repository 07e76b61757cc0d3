//! The station graph of a network.
//!
//! Between two stops a train runs along station-free track, which it may use any number of
//! times, so only the fewest cards between them matter, together with the track it arrives
//! on (it may not leave a station by the track it came in on). A *hop* goes from a station,
//! leaving by any track but the one it arrived on, to another station, arriving on a given
//! track, crossing a given number of card borders.

use std::collections::VecDeque;

use petgraph::graph::{EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef;
use rayon::prelude::*;
use signalbox_engine::express01::network::{Network, Node, StationRef};
use signalbox_engine::express01::route::{Route, Step};

/// Networks with at least this many stations are searched on several threads; smaller ones are
/// quicker on one.
pub const PARALLEL_FROM: usize = 48;

/// A search state: a station, and the track slot it was reached by (or the start slot).
pub type StateId = u32;

/// A hop to another station: the state reached and the borders crossed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hop {
    /// The state reached: station and arrival track.
    pub to: StateId,
    /// The station reached (index into [`StationGraph::stations`]).
    pub station: u32,
    /// Card borders crossed: each adds one card to the route.
    pub cost: u32,
}

/// The stations of a network and the hops between them.
#[derive(Clone, Debug)]
pub struct StationGraph {
    /// The directed tracks, for walks between stations.
    pub rails: Rails,
    /// The stations in order (cell order, then `s1` before `s2`).
    pub stations: Vec<StationRef>,
    /// Each station's graph node.
    pub nodes: Vec<NodeIndex>,
    /// Each station's tracks (graph edges), in edge order.
    pub exits: Vec<Vec<EdgeIndex>>,
    /// The first state id of each station; its states are the arrival slots, then the start slot.
    pub first_state: Vec<StateId>,
    /// For each state: the station.
    pub state_station: Vec<u32>,
    /// For each state: the hops onward, ordered by station, then cost, then arrival slot.
    pub hops: Vec<Vec<Hop>>,
    /// Each station's value in a payout (1, or 2 with "+1").
    pub value: Vec<u32>,
    /// The fewest borders crossed by any hop into each station (`u32::MAX` if none).
    pub min_in: Vec<u32>,
}

impl StationGraph {
    /// Builds the station graph; hops costing more than `max_cost` borders are left out.
    pub fn new(network: &Network, max_cost: u32) -> StationGraph {
        let stations: Vec<StationRef> = network.stations().map(|(s, _)| s).collect();
        let nodes: Vec<NodeIndex> = network.stations().map(|(_, n)| n).collect();
        let station_of_node = |n: NodeIndex| match network.graph[n] {
            Node::Station(s) => stations.binary_search(&s).ok(),
            Node::Port { .. } => None,
        };
        let exits: Vec<Vec<EdgeIndex>> = nodes
            .iter()
            .map(|&n| {
                let mut e: Vec<EdgeIndex> = network.graph.edges(n).map(|e| e.id()).collect();
                e.sort();
                e
            })
            .collect();
        let mut first_state = Vec::with_capacity(stations.len());
        let mut state_station = Vec::new();
        for (i, ex) in exits.iter().enumerate() {
            first_state.push(state_station.len() as StateId);
            state_station.extend(std::iter::repeat_n(i as u32, ex.len() + 1));
        }
        // Per station and exit track: the fewest borders to each (station, arrival track).
        let rails = Rails::new(network);
        let from_station = |walker: &mut Walker<'_>, i: usize| -> Vec<Vec<(u32, usize, u32)>> {
            exits[i]
                .iter()
                .map(|&e| {
                    let mut arrivals = Vec::new();
                    for (arrival, cost) in walker.search(nodes[i], &[e], max_cost) {
                        let Some(t) = station_of_node(arrival.node) else { continue };
                        if t == i {
                            continue;
                        }
                        let slot = exits[t].binary_search(&arrival.edge).unwrap_or(0);
                        arrivals.push((t as u32, slot, cost));
                    }
                    arrivals
                })
                .collect()
        };
        // Small networks are quicker on one thread than handed to others.
        let per_exit: Vec<Vec<Vec<(u32, usize, u32)>>> = if stations.len() < PARALLEL_FROM {
            let mut walker = Walker::new(network, &rails);
            (0..stations.len()).map(|i| from_station(&mut walker, i)).collect()
        } else {
            (0..stations.len()).into_par_iter().map_init(|| Walker::new(network, &rails), from_station).collect()
        };
        let mut hops = vec![Vec::new(); state_station.len()];
        for i in 0..stations.len() {
            for entry in 0..=exits[i].len() {
                // Leaving by any track but the arrival one; the fewest borders to each state.
                let mut best: Vec<Hop> = per_exit[i]
                    .iter()
                    .enumerate()
                    .filter(|&(x, _)| x != entry)
                    .flat_map(|(_, arrivals)| arrivals)
                    .map(|&(t, slot, cost)| Hop { to: first_state[t as usize] + slot as StateId, station: t, cost })
                    .collect();
                best.sort_unstable_by_key(|h| (h.to, h.cost));
                best.dedup_by_key(|h| h.to);
                best.sort_unstable_by_key(|h| (h.station, h.cost, h.to));
                hops[(first_state[i] as usize) + entry] = best;
            }
        }
        let value: Vec<u32> = stations.iter().map(|&s| network.station(s).value()).collect();
        let mut min_in = vec![u32::MAX; stations.len()];
        for list in &hops {
            for h in list {
                let m = &mut min_in[h.station as usize];
                *m = (*m).min(h.cost);
            }
        }
        StationGraph { stations, nodes, exits, first_state, state_station, hops, value, min_in, rails }
    }

    /// The start state of a station.
    pub fn start_state(&self, station: usize) -> StateId {
        self.first_state[station] + self.exits[station].len() as StateId
    }

    /// Turns a sequence of states (a start state, then each hop's target) into the route
    /// certificate: the tracks the train runs, taking for each hop the fewest borders, the
    /// first found in graph order.
    pub fn certificate(&self, network: &Network, states: &[StateId]) -> Route {
        let mut walker = Walker::new(network, &self.rails);
        let mut steps = Vec::new();
        for pair in states.windows(2) {
            let (from, to) = (pair[0], pair[1]);
            let s = self.state_station[from as usize] as usize;
            let slot = (from - self.first_state[s]) as usize;
            let allowed: Vec<EdgeIndex> =
                self.exits[s].iter().enumerate().filter(|&(x, _)| x != slot).map(|(_, &e)| e).collect();
            let t = self.state_station[to as usize] as usize;
            let want_edge = self.exits[t][(to - self.first_state[t]) as usize];
            // The hop's cost bounds the search: no need to look further.
            let cost = self.hops[from as usize].iter().find(|h| h.to == to).map_or(u32::MAX - 1, |h| h.cost);
            steps.extend(walker.path(self.nodes[s], &allowed, self.nodes[t], want_edge, cost));
        }
        Route { steps }
    }
}

/// An arrival of a station-free walk: the node reached and the track it came by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Arrival {
    /// The node reached.
    pub node: NodeIndex,
    /// The track (graph edge) the walk arrived by.
    pub edge: EdgeIndex,
}

/// Breadth-first search over directed tracks from `start` leaving by `exits`: every station
/// reached without passing another station, with the fewest card borders crossed, up to
/// `max_cost`. At a border the walk continues on the other card's tracks only (no reversing).
pub fn walk_from(network: &Network, start: NodeIndex, exits: &[EdgeIndex], max_cost: u32) -> Vec<(Arrival, u32)> {
    Walker::new(network, &Rails::new(network)).search(start, exits, max_cost)
}

const UNSEEN: u32 = u32::MAX;
const ROOT: u32 = u32::MAX - 1;

/// Where each directed track leads, and which directed tracks continue it, laid out once in
/// flat arrays. A directed track is `2 * edge + d`, `d = 0` running from the edge's source to
/// its target.
#[derive(Clone, Debug)]
pub struct Rails {
    /// The node each directed track runs towards.
    towards: Vec<NodeIndex>,
    /// Whether that node is a station.
    at_station: Vec<bool>,
    /// `next[next_start[d]..next_start[d + 1]]`: the directed tracks continuing `d` across a
    /// card border (the other card's tracks only: no reversing).
    next_start: Vec<u32>,
    next: Vec<u32>,
}

impl Rails {
    /// Lays out the directed tracks of a network.
    pub fn new(network: &Network) -> Rails {
        let g = &network.graph;
        let n = 2 * g.edge_count();
        let mut towards = Vec::with_capacity(n);
        for e in g.edge_indices() {
            let (s, t) = g.edge_endpoints(e).unwrap_or_default();
            towards.push(t);
            towards.push(s);
        }
        let at_station: Vec<bool> = towards.iter().map(|&v| matches!(g[v], Node::Station(_))).collect();
        let mut next_start = Vec::with_capacity(n + 1);
        let mut next = Vec::new();
        for (d, &node) in towards.iter().enumerate() {
            next_start.push(next.len() as u32);
            if let Node::Port { across: Some(_), .. } = g[node] {
                let here = g[EdgeIndex::new(d / 2)].cell;
                for e in g.edges(node) {
                    if e.weight().cell != here {
                        // Leaving `node`: forward when `node` is the edge's stored source.
                        let forward = g.edge_endpoints(e.id()).is_some_and(|(s, _)| s == node);
                        next.push(2 * e.id().index() as u32 + u32::from(!forward));
                    }
                }
            }
        }
        next_start.push(next.len() as u32);
        Rails { towards, at_station, next_start, next }
    }
}

/// Breadth-first search state over directed tracks, reused between searches.
struct Walker<'n> {
    network: &'n Network,
    rails: &'n Rails,
    parent: Vec<u32>,
    cost: Vec<u32>,
    stamp: Vec<u32>,
    round: u32,
    queue: VecDeque<u32>,
}

impl<'n> Walker<'n> {
    fn new(network: &'n Network, rails: &'n Rails) -> Self {
        let n = rails.towards.len();
        Walker {
            network,
            rails,
            parent: vec![UNSEEN; n],
            cost: vec![0; n],
            stamp: vec![0; n],
            round: 0,
            queue: VecDeque::new(),
        }
    }

    fn directed(&self, e: EdgeIndex, towards: NodeIndex) -> u32 {
        let forward = self.network.graph.edge_endpoints(e).is_some_and(|(_, t)| t == towards);
        2 * e.index() as u32 + u32::from(!forward)
    }

    fn visit(&mut self, d: u32, parent: u32, cost: u32) -> bool {
        let i = d as usize;
        if self.stamp[i] == self.round {
            return false;
        }
        self.stamp[i] = self.round;
        self.parent[i] = parent;
        self.cost[i] = cost;
        true
    }

    fn search(&mut self, start: NodeIndex, exits: &[EdgeIndex], max_cost: u32) -> Vec<(Arrival, u32)> {
        let g = &self.network.graph;
        self.round += 1;
        self.queue.clear();
        for &e in exits {
            let Some((a, b)) = g.edge_endpoints(e) else { continue };
            let d = self.directed(e, if a == start { b } else { a });
            if self.visit(d, ROOT, 0) {
                self.queue.push_back(d);
            }
        }
        let mut arrivals = Vec::new();
        while let Some(d) = self.queue.pop_front() {
            let cost = self.cost[d as usize];
            if self.rails.at_station[d as usize] {
                arrivals.push((
                    Arrival { node: self.rails.towards[d as usize], edge: EdgeIndex::new((d / 2) as usize) },
                    cost,
                ));
                continue;
            }
            if cost + 1 > max_cost {
                continue;
            }
            let rails = self.rails;
            let (from, to) = (rails.next_start[d as usize] as usize, rails.next_start[d as usize + 1] as usize);
            for &nd in &rails.next[from..to] {
                if self.visit(nd, d, cost + 1) {
                    self.queue.push_back(nd);
                }
            }
        }
        arrivals
    }

    /// The steps from `start` (leaving by `exits`) to `goal`, arriving by `goal_edge`, with the
    /// fewest borders (at most `max_cost`).
    fn path(
        &mut self,
        start: NodeIndex,
        exits: &[EdgeIndex],
        goal: NodeIndex,
        goal_edge: EdgeIndex,
        max_cost: u32,
    ) -> Vec<Step> {
        self.search(start, exits, max_cost);
        let mut chain = Vec::new();
        let mut d = self.directed(goal_edge, goal);
        while d != ROOT && d != UNSEEN && self.stamp[d as usize] == self.round {
            chain.push(d);
            d = self.parent[d as usize];
        }
        chain.reverse();
        chain
            .into_iter()
            .map(|d| step(self.network, EdgeIndex::new((d / 2) as usize), self.rails.towards[d as usize]))
            .collect()
    }
}

/// The step of running along `edge` towards the node `towards`.
pub fn step(network: &Network, edge: EdgeIndex, towards: NodeIndex) -> Step {
    let rail = network.graph[edge];
    let (a, b) = rail.track.ends();
    // The network adds each track as an edge from its end `a` to its end `b`.
    let runs_forward = network.graph.edge_endpoints(edge).is_some_and(|(_, t)| t == towards);
    let (from, to) = if runs_forward { (a, b) } else { (b, a) };
    Step { cell: rail.cell, from, to }
}
