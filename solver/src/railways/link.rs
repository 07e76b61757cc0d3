//! The fewest track tiles a player must still build to link all four of their cities within
//! the tile supply, exactly, with the tiles to build in an order the rules allow.
//!
//! A player's track never branches except at cities: a tile joins two sides, and new track
//! leaves only an end of the track or a linked city (rulings G1, B1 in
//! `docs/rules/railways-express.md`). So a plan is a tree over the player's network as it
//! stands (R) and the cities still to link, whose edges are paths of new tiles, in a graph of
//! *ports* (a hex entered through one of its sides, one node each; a tile is an edge of cost 1
//! from the port it is entered by to the port its other end leads to; leaving a city costs
//! nothing), built with petgraph. Every tree over R and the cities to link is tried (Prüfer
//! sequences). Paths of one plan may not share a hex (one tile per player per hex, ruling G3)
//! nor overload a gray city (two connections, B2); such conflicts are resolved by conflict-based
//! search: a plan with a conflict is split into two, one path or the other kept off the
//! contested hex or city, and plans are taken best-first by a lower bound.
//!
//! The search runs in two passes (ruling T2 states why neither loses a plan):
//!
//! 1. *Without the supply*: each edge its shortest path (petgraph's A*), each tree the sum a
//!    lower bound; the first plan without a conflict has the fewest tiles on the board. If its
//!    tiles fit the supply in some order the rules allow ([`super::supply::arrange`]), it is the
//!    answer: no plan within the supply can have fewer tiles. This is the common case.
//! 2. *Within the supply*, only when that plan does not fit: each edge's paths are all the
//!    Pareto-best ones by (tiles, what they draw from the supply: [`Draw`]), found by a label
//!    search capped by the plan's bound, and a tree's bound is the fewest tiles of a choice of
//!    one path per edge whose draws together pass [`Draw::may_fit`] (a relaxation of the order
//!    rule of the crossing tiles). A bound with no such choice is raised by one. A plan without
//!    a conflict that passes the relaxation but fits in no order is split by its ports: for each
//!    path and each port it uses, a child keeps that path off that port (every other plan
//!    without a conflict differs from it in some path, and a conflict-free path that uses every
//!    port of another uses its tiles). The first plan taken that fits has the fewest tiles
//!    within the supply; an exhausted queue means none fits.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, VecDeque};
use std::rc::Rc;
use std::time::Instant;

use petgraph::Direction;
use petgraph::graph::{DiGraph, EdgeIndex, EdgeReference, NodeIndex};
use petgraph::visit::EdgeRef;
use rustc_hash::FxHashMap as HashMap;
use signalbox_engine::grid::hex::Hex;
use signalbox_engine::railways::catalogue::{CityId, Supply};
use signalbox_engine::railways::colour::{CityColour, Colour};
use signalbox_engine::railways::game::{GRAY_CONNECTIONS, Game};
use signalbox_engine::railways::options::{Curve, GrayExits};
use signalbox_engine::railways::track::{Ends, Side, TileKind};

use super::supply::{Chain, Draw, arrange, mask};

/// A node of the port graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Node {
    /// A hex entered through a side: a tile laid here has an end on that side.
    Port(Hex, Side),
    /// A city not yet linked (the player's own, or gray).
    City(CityId),
    /// The player's network as it stands: its track and the cities it links.
    Network,
}

/// An edge: a tile laid (cost 1), or a move out of a city (cost 0); the gray city whose
/// connection it uses, if any; what the tile draws from the supply (its kind, and whether it is
/// laid over another player's tile).
#[derive(Clone, Copy, Debug)]
struct Step {
    tile: Option<(Hex, Ends)>,
    gray: Option<CityId>,
    draw: Draw,
}

impl Step {
    const fn cost(&self) -> u32 {
        if self.tile.is_some() { 1 } else { 0 }
    }
}

/// One end of a plan's path: the network or a city to link.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Terminal {
    Network,
    City(CityId),
}

/// The hexes of a map by their place in the rectangle of axial coordinates around them: what a
/// hash map of hexes would give, by an index.
struct Grid {
    q0: i32,
    r0: i32,
    width: i32,
    height: i32,
    /// Each place's hex number (from 0, in the order of the map's hexes), `u32::MAX` for none.
    cells: Vec<u32>,
}

impl Grid {
    fn new(hexes: impl Iterator<Item = Hex> + Clone) -> Grid {
        let (mut q0, mut r0, mut q1, mut r1) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
        for h in hexes.clone() {
            (q0, r0, q1, r1) = (q0.min(h.q), r0.min(h.r), q1.max(h.q), r1.max(h.r));
        }
        let (width, height) = if q0 > q1 { (0, 0) } else { (q1 - q0 + 1, r1 - r0 + 1) };
        let mut grid = Grid { q0, r0, width, height, cells: vec![u32::MAX; (width * height) as usize] };
        for (i, h) in hexes.enumerate() {
            if let Some(c) = grid.cell(h) {
                grid.cells[c] = i as u32;
            }
        }
        grid
    }

    fn cell(&self, h: Hex) -> Option<usize> {
        let (q, r) = (h.q.wrapping_sub(self.q0), h.r.wrapping_sub(self.r0));
        ((0..self.width).contains(&q) && (0..self.height).contains(&r)).then(|| (r * self.width + q) as usize)
    }

    /// The hex's number, if it is one of the map's.
    fn index(&self, h: Hex) -> Option<usize> {
        self.cell(h).map(|c| self.cells[c]).filter(|&i| i != u32::MAX).map(|i| i as usize)
    }
}

/// A side's number, 0 to 5.
fn side_index(s: Side) -> usize {
    Side::ALL.iter().position(|&x| x == s).unwrap_or(0)
}

/// The port graph of one player in one position.
struct Ports {
    graph: DiGraph<Node, Step>,
    /// The board's hexes, numbered.
    grid: Grid,
    /// Each port's node, by hex number and side (`None`: no new tile of the player goes there).
    port: Vec<Option<NodeIndex>>,
    city: HashMap<CityId, NodeIndex>,
    network: NodeIndex,
    /// How many more connections each gray city takes from the player.
    room: HashMap<CityId, usize>,
    /// The hexes a new tile of the player may go on.
    free: u32,
}

impl Ports {
    /// The port graph of `colour` in `game`, without the tiles in `forbidden` (a plan that may
    /// not lay them).
    fn new(game: &Game, colour: Colour, forbidden: &BTreeSet<(Hex, Ends)>) -> Ports {
        let content = game.content();
        let options = game.options();
        let seat = game.seat(colour).unwrap_or(0);
        let linked = &game.players()[seat].linked;
        let mut graph = DiGraph::with_capacity(6 * content.hexes.len() + content.cities.len() + 1, 0);
        let network = graph.add_node(Node::Network);
        let grid = Grid::new(content.hexes.keys().copied());
        let n = content.hexes.len();
        // The board's tiles read once, by hex number: the player's own, whether any tile is
        // there, and the sides some tile there has an end on.
        let mut mine: Vec<Option<Ends>> = vec![None; n];
        let mut occupied = vec![false; n];
        let mut ends_at = vec![0u8; n];
        let mut city_at: Vec<Option<CityId>> = vec![None; n];
        for (&h, &c) in &content.city_at {
            if let Some(i) = grid.index(h) {
                city_at[i] = Some(c);
            }
        }
        for t in game.tiles() {
            let Some(i) = grid.index(t.hex) else { continue };
            if t.owner == colour {
                mine[i] = Some(t.ends);
            }
            occupied[i] = true;
            for s in t.ends.sides() {
                ends_at[i] |= 1 << side_index(s);
            }
        }
        // What lies on a hex: its number, and the city there.
        let city_on = |h: Hex| -> Option<CityId> {
            match grid.index(h) {
                Some(i) => city_at[i],
                None => content.city_at.get(&h).copied(),
            }
        };
        // Whether a tile on `h` may enter `city` (across side `s` of `h`): no other tile on `h`
        // enters it already.
        let side_free = |h: Hex, s: Side| grid.index(h).is_none_or(|i| ends_at[i] & (1 << side_index(s)) == 0);
        let mut room = HashMap::default();
        for c in content.gray_cities() {
            room.insert(c, GRAY_CONNECTIONS.saturating_sub(game.connections(colour, c)));
        }
        // The ports, hex by hex in the map's order: the hexes of the board a new tile of the
        // player may go on.
        let mut port: Vec<Option<NodeIndex>> = vec![None; 6 * n];
        let mut free = 0;
        for (i, &h) in content.hexes.keys().enumerate() {
            if city_at[i].is_none() && mine[i].is_none() {
                free += 1;
                for s in Side::ALL {
                    port[6 * i + side_index(s)] = Some(graph.add_node(Node::Port(h, s)));
                }
            }
        }
        let port_at = |h: Hex, s: Side| grid.index(h).and_then(|i| port[6 * i + side_index(s)]);
        let mut city = HashMap::default();
        for (c, info) in content.cities.iter().enumerate() {
            let enterable = match info.colour {
                CityColour::Gray => room[&c] > 0,
                CityColour::Player(o) => o == colour,
            };
            if enterable && !linked.contains(&c) {
                city.insert(c, graph.add_node(Node::City(c)));
            }
        }
        // What lies across side `x` of hex `h`, as a node to arrive at, with the gray city the
        // arrival connects to.
        let arrive = |h: Hex, x: Side| -> Option<(NodeIndex, Option<CityId>)> {
            let n = x.step(h);
            if let Some(c) = city_on(n) {
                let info = &content.cities[c];
                let gray = (info.colour == CityColour::Gray).then_some(c);
                if !side_free(h, x) {
                    return None;
                }
                return if linked.contains(&c) {
                    let ok = match info.colour {
                        CityColour::Gray => room[&c] > 0,
                        CityColour::Player(o) => o == colour,
                    };
                    ok.then_some((network, gray))
                } else {
                    city.get(&c).map(|&i| (i, gray))
                };
            }
            if let Some(ends) = grid.index(n).and_then(|i| mine[i]) {
                return ends.has(x.opposite()).then_some((network, None));
            }
            port_at(n, x.opposite()).map(|i| (i, None))
        };
        let exits = |s: Side| -> [Side; 3] {
            match options.curve {
                Curve::Gentle => [s.opposite(), s.turn(2), s.turn(-2)],
                Curve::Sharp => [s.opposite(), s.turn(1), s.turn(-1)],
            }
        };
        // The edges are added in the order of their ends, source then target (edges alike in
        // the order found): the network's, then each port's in the order of the nodes, then each
        // unlinked city's (their nodes come in that order).
        let mut from_network: Vec<(NodeIndex, Step)> = Vec::new();
        let mut from_cities: Vec<(NodeIndex, NodeIndex, Step)> = Vec::new();
        // Leaving a city: its unlinked node, or the network for a linked city the player may
        // build out of (own cities; gray ones under GrayExits::Allowed with room left).
        for (c, info) in content.cities.iter().enumerate() {
            let gray = info.colour == CityColour::Gray;
            let from = if linked.contains(&c) {
                let may = match info.colour {
                    CityColour::Gray => options.gray_exits == GrayExits::Allowed && room[&c] > 0,
                    CityColour::Player(o) => o == colour,
                };
                if !may {
                    continue;
                }
                network
            } else if gray && options.gray_exits == GrayExits::OwnCitiesOnly {
                // Entered, a gray city is not left: no passing through.
                continue;
            } else {
                match city.get(&c) {
                    Some(&i) => i,
                    None => continue,
                }
            };
            for s in Side::ALL {
                let n = s.step(info.hex);
                if let Some(to) = port_at(n, s.opposite())
                    && side_free(n, s.opposite())
                {
                    let step = Step { tile: None, gray: gray.then_some(c), draw: Draw::default() };
                    if from == network {
                        from_network.push((to, step));
                    } else {
                        from_cities.push((from, to, step));
                    }
                }
            }
        }
        // The open ends of the player's track lead to ports too.
        for t in game.tiles().iter().filter(|t| t.owner == colour) {
            for x in t.ends.sides() {
                if let Some(to) = port_at(x.step(t.hex), x.opposite()) {
                    from_network.push((to, Step { tile: None, gray: None, draw: Draw::default() }));
                }
            }
        }
        graph.reserve_edges(18 * free as usize + from_network.len() + from_cities.len());
        from_network.sort_by_key(|&(b, _)| b);
        for (b, step) in from_network {
            graph.add_edge(network, b, step);
        }
        // A tile on a hex holding other players' tiles is laid over one (ruling T1).
        for (i, &h) in content.hexes.keys().enumerate() {
            for s in Side::ALL {
                let Some(from) = port[6 * i + side_index(s)] else { continue };
                // At most three edges, sorted by target as they come (a stable insertion sort).
                let none = (network, Step { tile: None, gray: None, draw: Draw::default() });
                let mut out = [none; 3];
                let mut k = 0;
                for x in exits(s) {
                    if let (Some((to, gray)), Some(ends)) = (arrive(h, x), Ends::new(s, x))
                        && !forbidden.contains(&(h, ends))
                    {
                        let kind = ends.kind(options.curve).unwrap_or(TileKind::Curved);
                        let draw = Draw::tile(kind, occupied[i]);
                        out[k] = (to, Step { tile: Some((h, ends)), gray, draw });
                        let mut j = k;
                        while j > 0 && out[j - 1].0 > out[j].0 {
                            out.swap(j - 1, j);
                            j -= 1;
                        }
                        k += 1;
                    }
                }
                for &(b, step) in &out[..k] {
                    graph.add_edge(from, b, step);
                }
            }
        }
        // Each city's edges together (found city by city), sorted by target.
        from_cities.sort_by_key(|&(a, b, _)| (a, b));
        for (a, b, step) in from_cities {
            graph.add_edge(a, b, step);
        }
        Ports { graph, grid, port, city, network, room, free }
    }

    /// The node of the port of `hex` entered across `side`, if a new tile of the player may go
    /// there.
    fn port(&self, hex: Hex, side: Side) -> Option<NodeIndex> {
        self.grid.index(hex).and_then(|i| self.port[6 * i + side_index(side)])
    }

    fn node(&self, t: Terminal) -> Option<NodeIndex> {
        match t {
            Terminal::Network => Some(self.network),
            Terminal::City(c) => self.city.get(&c).copied(),
        }
    }
}

/// What one path of a plan must avoid.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
struct Avoid {
    ports: BTreeSet<NodeIndex>,
    grays: BTreeSet<CityId>,
}

/// A path of new tiles: its edges in order.
#[derive(Clone, Debug)]
struct Path {
    edges: Vec<EdgeIndex>,
    cost: u32,
}

/// Whether a path to `to` avoiding `avoid` may take edge `e`: not onto an avoided port or an
/// avoided gray city's connection, and into no city but `to` and the gray cities it may pass.
fn allowed(ports: &Ports, to: NodeIndex, avoid: &Avoid, e: EdgeReference<'_, Step>) -> bool {
    let t = e.target();
    if avoid.ports.contains(&t) || e.weight().gray.is_some_and(|c| avoid.grays.contains(&c)) {
        return false;
    }
    match ports.graph[t] {
        Node::City(c) => t == to || ports.room.contains_key(&c) && !avoid.grays.contains(&c),
        _ => true,
    }
}

/// The shortest path between two terminals avoiding `avoid` and the cities to link other than
/// its ends.
fn shortest(ports: &Ports, a: Terminal, b: Terminal, avoid: &Avoid) -> Option<Path> {
    let (from, to) = (ports.node(a)?, ports.node(b)?);
    let g = &ports.graph;
    let (total, nodes) = cheapest(ports, from, to, avoid)?;
    // The edges along the node path: the cheapest allowed edge between each pair.
    let mut edges = Vec::new();
    for w in nodes.windows(2) {
        let e = g
            .edges_connecting(w[0], w[1])
            .filter(|e| allowed(ports, to, avoid, *e))
            .min_by_key(|e| (e.weight().cost(), e.id()))?;
        edges.push(e.id());
    }
    Some(Path { edges, cost: total })
}

/// A cheapest path from `from` to `to` over the edges [`allowed`] for `to` and `avoid`: its
/// tiles and its nodes. The search is petgraph's A* with a zero estimate (a Dijkstra search with
/// the same open queue, popped and pushed in the same order, so it returns the same path among
/// equally cheap ones), its scores and predecessors kept in vectors by node index.
fn cheapest(ports: &Ports, from: NodeIndex, to: NodeIndex, avoid: &Avoid) -> Option<(u32, Vec<NodeIndex>)> {
    /// An open node by its cost, the cheapest first; equal costs compare equal (as petgraph's
    /// `MinScored`).
    struct Open(u32, NodeIndex);
    impl PartialEq for Open {
        fn eq(&self, other: &Open) -> bool {
            self.0 == other.0
        }
    }
    impl Eq for Open {}
    impl PartialOrd for Open {
        fn partial_cmp(&self, other: &Open) -> Option<std::cmp::Ordering> {
            Some(self.cmp(other))
        }
    }
    impl Ord for Open {
        fn cmp(&self, other: &Open) -> std::cmp::Ordering {
            other.0.cmp(&self.0)
        }
    }
    let g = &ports.graph;
    let n = g.node_count();
    let mut score = vec![u32::MAX; n];
    let mut came_from: Vec<Option<NodeIndex>> = vec![None; n];
    let mut open = BinaryHeap::new();
    score[from.index()] = 0;
    open.push(Open(0, from));
    while let Some(Open(cost, node)) = open.pop() {
        if node == to {
            let mut path = vec![to];
            let mut at = to;
            while let Some(previous) = came_from[at.index()] {
                path.push(previous);
                at = previous;
            }
            path.reverse();
            return Some((score[to.index()], path));
        }
        if score[node.index()] < cost {
            continue;
        }
        score[node.index()] = cost;
        for e in g.edges(node) {
            if !allowed(ports, to, avoid, e) {
                continue;
            }
            let next = e.target();
            let c = cost + e.weight().cost();
            if c >= score[next.index()] {
                continue;
            }
            score[next.index()] = c;
            came_from[next.index()] = Some(node);
            open.push(Open(c, next));
        }
    }
    None
}

/// The fewest tiles from every node to `to` avoiding `avoid` (`u32::MAX`: none), by a 0-1
/// breadth-first search backwards.
fn distances(ports: &Ports, to: NodeIndex, avoid: &Avoid) -> Vec<u32> {
    let g = &ports.graph;
    let mut dist = vec![u32::MAX; g.node_count()];
    let mut queue = VecDeque::from([to]);
    dist[to.index()] = 0;
    while let Some(v) = queue.pop_front() {
        let dv = dist[v.index()];
        for e in g.edges_directed(v, Direction::Incoming) {
            if !allowed(ports, to, avoid, e) {
                continue;
            }
            let (u, w) = (e.source(), e.weight().cost());
            if dv + w < dist[u.index()] {
                dist[u.index()] = dv + w;
                if w == 0 { queue.push_front(u) } else { queue.push_back(u) }
            }
        }
    }
    dist
}

/// An edge's Pareto-best paths: each with its tiles and its (masked) draw, none with both at
/// least another's; `capped` when some path was cut off for being longer than the cap.
struct Frontier {
    paths: Vec<(Draw, Path)>,
    capped: bool,
}

/// Every Pareto-best path from `a` to `b` avoiding `avoid` with at most `cap` tiles, by the
/// tiles and the draw (the counts `mask` keeps), whose draw may fit `supply`; `dist` are the
/// fewest tiles to `b` ([`distances`]), which cut off paths that cannot end within the cap. A
/// label search by tiles, one label per path prefix kept unless another at the same node has no
/// more tiles and no larger count.
fn frontier(
    ports: &Ports,
    (a, b): (Terminal, Terminal),
    avoid: &Avoid,
    dist: &[u32],
    cap: u32,
    mask: [bool; 4],
    supply: Supply,
) -> Frontier {
    struct Label {
        node: NodeIndex,
        cost: u32,
        draw: Draw,
        parent: Option<(usize, EdgeIndex)>,
    }
    let (Some(from), Some(to)) = (ports.node(a), ports.node(b)) else {
        return Frontier { paths: Vec::new(), capped: false };
    };
    let g = &ports.graph;
    let mut capped = false;
    if dist[from.index()] > cap {
        return Frontier { paths: Vec::new(), capped: dist[from.index()] != u32::MAX };
    }
    let mut arena = vec![Label { node: from, cost: 0, draw: Draw::default(), parent: None }];
    let mut buckets: Vec<Vec<usize>> = vec![Vec::new(); cap as usize + 1];
    buckets[0].push(0);
    let mut kept: HashMap<NodeIndex, Vec<usize>> = HashMap::default();
    let beaten = |kept: &HashMap<NodeIndex, Vec<usize>>, arena: &[Label], node, cost, draw: Draw| {
        kept.get(&node).is_some_and(|l| l.iter().any(|&j| arena[j].cost <= cost && arena[j].draw.within(draw)))
    };
    for c in 0..=cap as usize {
        let mut k = 0;
        // Edges of no tile add to this bucket while it is read.
        while k < buckets[c].len() {
            let i = buckets[c][k];
            k += 1;
            let (node, cost, draw) = (arena[i].node, arena[i].cost, arena[i].draw);
            if beaten(&kept, &arena, node, cost, draw) {
                continue;
            }
            kept.entry(node).or_default().push(i);
            if node == to {
                continue;
            }
            for e in g.edges(node) {
                let v = e.target();
                let dv = dist[v.index()];
                if dv == u32::MAX || !allowed(ports, to, avoid, e) {
                    continue;
                }
                let next = cost + e.weight().cost();
                if next + dv > cap {
                    capped = true;
                    continue;
                }
                let d = draw + e.weight().draw.masked(mask);
                if !d.may_fit(supply) || beaten(&kept, &arena, v, next, d) {
                    continue;
                }
                arena.push(Label { node: v, cost: next, draw: d, parent: Some((i, e.id())) });
                buckets[next as usize].push(arena.len() - 1);
            }
        }
    }
    let ends = kept.remove(&to).unwrap_or_default();
    let mut paths = Vec::new();
    for &i in &ends {
        let (cost, draw) = (arena[i].cost, arena[i].draw);
        if ends.iter().any(|&j| j != i && arena[j].cost <= cost && arena[j].draw.within(draw)) {
            continue;
        }
        let mut edges = Vec::new();
        let mut at = i;
        while let Some((p, e)) = arena[at].parent {
            edges.push(e);
            at = p;
        }
        edges.reverse();
        paths.push((draw, Path { edges, cost }));
    }
    paths.sort_by_key(|(d, p)| (p.cost, *d));
    Frontier { paths, capped }
}

/// The choice of one path per edge with the fewest tiles, at most `most`, whose draws together
/// may fit `supply`: each edge's path index, and the tiles.
fn combine(fronts: &[Rc<Frontier>], most: u32, supply: Supply) -> Option<(Vec<usize>, u32)> {
    fn walk(
        fronts: &[Rc<Frontier>],
        supply: Supply,
        chosen: &mut Vec<usize>,
        cost: u32,
        draw: Draw,
        best: &mut Option<(Vec<usize>, u32)>,
        most: u32,
    ) {
        let i = chosen.len();
        if i == fronts.len() {
            if best.as_ref().is_none_or(|b| cost < b.1) {
                *best = Some((chosen.clone(), cost));
            }
            return;
        }
        let rest: u32 = fronts[i + 1..].iter().map(|f| f.paths.first().map_or(0, |p| p.1.cost)).sum();
        for (k, (d, p)) in fronts[i].paths.iter().enumerate() {
            let limit = best.as_ref().map_or(most, |b| b.1.saturating_sub(1).min(most));
            if cost + p.cost + rest > limit {
                break;
            }
            let d = draw + *d;
            if !d.may_fit(supply) {
                continue;
            }
            chosen.push(k);
            walk(fronts, supply, chosen, cost + p.cost, d, best, most);
            chosen.pop();
        }
    }
    if fronts.iter().any(|f| f.paths.is_empty()) {
        return None;
    }
    let mut best = None;
    walk(fronts, supply, &mut Vec::new(), 0, Draw::default(), &mut best, most);
    best
}

/// Every tree over `nodes` (Prüfer sequences), each as its edges.
fn trees(nodes: &[Terminal]) -> Vec<Vec<(Terminal, Terminal)>> {
    let n = nodes.len();
    if n < 2 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    let count = n.pow((n - 2) as u32);
    for code in 0..count {
        let mut seq = Vec::new();
        let mut x = code;
        for _ in 0..n - 2 {
            seq.push(x % n);
            x /= n;
        }
        let mut degree = vec![1; n];
        for &s in &seq {
            degree[s] += 1;
        }
        let mut edges = Vec::new();
        for &s in &seq {
            let leaf = (0..n).find(|&i| degree[i] == 1).unwrap_or(0);
            edges.push((nodes[leaf], nodes[s]));
            degree[leaf] -= 1;
            degree[s] -= 1;
        }
        let rest: Vec<usize> = (0..n).filter(|&i| degree[i] == 1).collect();
        if let [u, v] = rest[..] {
            edges.push((nodes[u], nodes[v]));
        }
        // Paths to or from the network are searched from the network: the way they are built.
        for e in &mut edges {
            if e.1 == Terminal::Network {
                *e = (e.1, e.0);
            }
        }
        out.push(edges);
    }
    out
}

/// A minimum plan: the tiles to build, in an order the rules and the supply allow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkPlan {
    /// The tiles, each built from the network as it grows.
    pub tiles: Vec<(Hex, Ends)>,
    /// The cities still to link when the plan starts.
    pub to_link: Vec<CityId>,
    /// The same tiles as the plan's paths, each path's tiles in building order (a path after
    /// the one it starts from).
    pub paths: Vec<PlanPath>,
}

/// One path of a plan: new track from the network or a city to a city to link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanPath {
    /// Where it starts: `None` for the network as it stands, else a city linked by an earlier
    /// path of the plan.
    pub from: Option<CityId>,
    /// The city it links.
    pub to: CityId,
    /// Its tiles in the order they are built.
    pub tiles: Vec<(Hex, Ends)>,
}

/// How much work the search did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkStats {
    /// Trees over the terminals (each a lower bound).
    pub trees: usize,
    /// Plans taken from the queue without the supply (the first pass).
    pub expanded: usize,
    /// Plans taken from the queue within the supply (the second pass; 0 when the first pass's
    /// plan fits the supply).
    pub supply_expanded: usize,
    /// Plans of the second pass without a conflict whose draws may fit but that fit in no order
    /// the rules allow, split by their ports.
    pub order_splits: usize,
}

/// Why there is no plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoPlan {
    /// No tiles on the board link the cities, however many the supply had: the cities are cut
    /// off (by other players' entries into a city, a full gray city, the map).
    Board,
    /// Plans exist on the board, the fewest with `board` tiles, but none fits the supply.
    Supply {
        /// The fewest tiles of a plan were the supply endless.
        board: usize,
    },
}

/// The linker's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Linked {
    /// The fewest tiles within the supply, proven, with a plan.
    Plan(LinkPlan),
    /// No plan, proven.
    None(NoPlan),
    /// The search reached its deadline first: every plan within the supply has at least
    /// `at_least` tiles.
    Stopped {
        /// The lower bound proven so far.
        at_least: usize,
    },
}

impl Linked {
    /// The plan, if one was found.
    pub fn plan(&self) -> Option<&LinkPlan> {
        match self {
            Linked::Plan(p) => Some(p),
            _ => None,
        }
    }
}

/// A candidate plan of the conflict-based search: a tree, what each path avoids, the paths.
#[derive(Clone, Debug)]
struct Candidate {
    edges: Vec<(Terminal, Terminal)>,
    avoid: Vec<Avoid>,
    paths: Vec<Path>,
}

impl Candidate {
    fn cost(&self) -> u32 {
        self.paths.iter().map(|p| p.cost).sum()
    }
}

/// The first conflict of a candidate: two paths (or one path twice) on one hex, as the two
/// (path, port) uses; or two paths using more of a gray city than it has room for.
enum Conflict {
    Hex([(usize, NodeIndex); 2], Hex),
    Gray([usize; 2], CityId),
}

fn conflict(ports: &Ports, paths: &[Path]) -> Option<Conflict> {
    let g = &ports.graph;
    let mut hexes: HashMap<Hex, (usize, NodeIndex)> = HashMap::default();
    let mut gray: BTreeMap<CityId, Vec<usize>> = BTreeMap::new();
    for (i, p) in paths.iter().enumerate() {
        for &e in &p.edges {
            let step = g[e];
            if let Some((hex, _)) = step.tile {
                let (from, _) = g.edge_endpoints(e)?;
                if let Some(&first) = hexes.get(&hex) {
                    return Some(Conflict::Hex([first, (i, from)], hex));
                }
                hexes.insert(hex, (i, from));
            }
            if let Some(city) = step.gray {
                let users = gray.entry(city).or_default();
                users.push(i);
                if users.len() > ports.room.get(&city).copied().unwrap_or(0) {
                    let other = users.iter().copied().find(|&u| u != i).unwrap_or(i);
                    return Some(Conflict::Gray([other, i], city));
                }
            }
        }
    }
    None
}

/// The avoid sets of the children of a plan with `conflict`: one for each of the two paths
/// involved (a path that meets itself on a hex keeps off one of its two ports there).
fn split(ports: &Ports, avoid: &[Avoid], conflict: Conflict) -> Vec<(usize, Avoid)> {
    match conflict {
        Conflict::Hex(uses, hex) => uses
            .iter()
            .map(|&(path, port)| {
                let mut a = avoid[path].clone();
                if uses[0].0 == uses[1].0 {
                    a.ports.insert(port);
                } else {
                    a.ports.extend(Side::ALL.iter().filter_map(|&s| ports.port(hex, s)));
                }
                (path, a)
            })
            .collect(),
        Conflict::Gray(users, city) => users
            .iter()
            .map(|&path| {
                let mut a = avoid[path].clone();
                a.grays.insert(city);
                (path, a)
            })
            .collect(),
    }
}

/// The fewest tiles `colour` must build to link all four of its cities in `game` within the
/// tile supply, with a plan, and the search's statistics; `None` when no plan exists or none
/// fits the supply. Exact: checked against a brute force in the tests, and every plan is
/// replayed by the engine ([`Game::with_track`]).
pub fn min_link(game: &Game, colour: Colour) -> Option<(LinkPlan, LinkStats)> {
    match link(game, colour, None) {
        (Linked::Plan(p), stats) => Some((p, stats)),
        _ => None,
    }
}

/// The linker with a deadline: the fewest tiles within the supply and a plan, or why there is
/// none, or (past `deadline`) the lower bound proven so far. See the module documentation.
pub fn link(game: &Game, colour: Colour, deadline: Option<Instant>) -> (Linked, LinkStats) {
    match link_at_most(game, colour, deadline, usize::MAX) {
        (Some(linked), stats) => (linked, stats),
        // Nothing has more tiles than usize::MAX.
        (None, stats) => (Linked::None(NoPlan::Board), stats),
    }
}

/// The linker ([`link`]) told that plans of more than `most` tiles do not matter: its answer
/// when that has at most `most` tiles (the same plan: both searches take plans by their bound,
/// lowest first, and this one stops at the first bound above `most`), `None` when every plan
/// has more, and maybe when none fits the supply.
pub(crate) fn link_at_most(
    game: &Game,
    colour: Colour,
    deadline: Option<Instant>,
    most: usize,
) -> (Option<Linked>, LinkStats) {
    link_avoiding(game, colour, deadline, most, &BTreeSet::new(), u64::MAX)
}

/// The linker ([`link`]) over the plans that lay none of the tiles in `forbidden` (a hex and a
/// track): the fewest tiles of such a plan within the supply, exactly. Removing tiles from the
/// port graph leaves a graph of the same kind, so every argument of ruling T2 holds for it; the
/// puzzles of the fewest tiles find the best plan other than an answer by forbidding each of its
/// tiles in turn.
///
/// With `steps`, the search stops after that many plans taken from its queues (both passes)
/// and answers [`Linked::Stopped`] with the bound proven so far: a limit that, unlike a
/// deadline, stops at the same place on every machine.
pub fn link_without(
    game: &Game,
    colour: Colour,
    forbidden: &BTreeSet<(Hex, Ends)>,
    steps: Option<u64>,
) -> (Linked, LinkStats) {
    match link_avoiding(game, colour, None, usize::MAX, forbidden, steps.unwrap_or(u64::MAX)) {
        (Some(linked), stats) => (linked, stats),
        (None, stats) => (Linked::None(NoPlan::Board), stats),
    }
}

/// [`link_at_most`] without the tiles in `forbidden`.
fn link_avoiding(
    game: &Game,
    colour: Colour,
    deadline: Option<Instant>,
    most: usize,
    forbidden: &BTreeSet<(Hex, Ends)>,
    steps: u64,
) -> (Option<Linked>, LinkStats) {
    let most = u32::try_from(most).unwrap_or(u32::MAX);
    let mut stats = LinkStats::default();
    let Some(seat) = game.seat(colour) else { return (Some(Linked::None(NoPlan::Board)), stats) };
    let content = game.content();
    let linked = &game.players()[seat].linked;
    let to_link: Vec<CityId> = content.cities_of(colour).into_iter().filter(|c| !linked.contains(c)).collect();
    let ports = Ports::new(game, colour, forbidden);
    let mut terminals = vec![Terminal::Network];
    terminals.extend(to_link.iter().map(|&c| Terminal::City(c)));
    let all = trees(&terminals);
    stats.trees = all.len();
    let taken = std::cell::Cell::new(0u64);
    let past = || {
        taken.set(taken.get().saturating_add(1));
        taken.get() > steps || deadline.is_some_and(crate::stop::passed)
    };
    // Pass 1: without the supply.
    let mut cache: HashMap<(Terminal, Terminal), Option<Path>> = HashMap::default();
    let mut queue: BinaryHeap<(Reverse<u32>, Reverse<usize>)> = BinaryHeap::new();
    let mut candidates: Vec<Candidate> = Vec::new();
    for edges in &all {
        let mut paths = Vec::new();
        for &(a, b) in edges {
            match cache.entry((a, b)).or_insert_with(|| shortest(&ports, a, b, &Avoid::default())) {
                Some(p) => paths.push(p.clone()),
                None => break,
            }
        }
        if paths.len() == edges.len() {
            let c = Candidate { avoid: vec![Avoid::default(); edges.len()], edges: edges.clone(), paths };
            queue.push((Reverse(c.cost()), Reverse(candidates.len())));
            candidates.push(c);
        }
    }
    let board = loop {
        let Some((Reverse(cost), Reverse(i))) = queue.pop() else {
            return (Some(Linked::None(NoPlan::Board)), stats);
        };
        if past() {
            return (Some(Linked::Stopped { at_least: cost as usize }), stats);
        }
        if cost > most {
            return (None, stats);
        }
        stats.expanded += 1;
        let c = candidates[i].clone();
        let Some(found) = conflict(&ports, &c.paths) else { break c };
        for (path, avoid) in split(&ports, &c.avoid, found) {
            if avoid == c.avoid[path] {
                continue;
            }
            let (a, b) = c.edges[path];
            let Some(p) = shortest(&ports, a, b, &avoid) else { continue };
            let mut child = c.clone();
            child.avoid[path] = avoid;
            child.paths[path] = p;
            queue.push((Reverse(child.cost()), Reverse(candidates.len())));
            candidates.push(child);
        }
    };
    let fewest = board.cost();
    if let Some(p) = fitted(&ports, game, &board.edges, &board.paths, &to_link) {
        return (Some(Linked::Plan(p)), stats);
    }
    // Pass 2: within the supply.
    let answer = within_supply(&ports, game, &all, (fewest, most), &to_link, &past, &mut stats);
    let answer = match answer {
        Pass::Found(p) => Some(Linked::Plan(p)),
        Pass::Exhausted => Some(Linked::None(NoPlan::Supply { board: fewest as usize })),
        Pass::Stopped(b) => Some(Linked::Stopped { at_least: b as usize }),
        Pass::Beyond => None,
    };
    (answer, stats)
}

/// Every player's linker ([`link`]), in seat order, the players on rayon's threads (the answers
/// do not depend on their number).
pub fn link_all(game: &Game, deadline: Option<Instant>) -> Vec<(Colour, Linked, LinkStats)> {
    use rayon::prelude::*;
    let colours: Vec<Colour> = game.players().iter().map(|p| p.colour).collect();
    colours
        .into_par_iter()
        .map(|c| {
            let (linked, stats) = link(game, c, deadline);
            (c, linked, stats)
        })
        .collect()
}

/// How the second pass ended.
enum Pass {
    Found(LinkPlan),
    Exhausted,
    Stopped(u32),
    /// Every plan left has more tiles than the most asked for.
    Beyond,
}

/// A node of the second pass: a tree, what each path avoids, and a lower bound on its tiles.
#[derive(Clone)]
struct Bounded {
    edges: Vec<(Terminal, Terminal)>,
    avoid: Vec<Avoid>,
    bound: u32,
}

/// The second pass (see the module documentation): the fewest tiles of a plan within the
/// supply, every tree starting from `floor`, the fewest tiles on the board; [`Pass::Beyond`]
/// once every bound left is above `most`.
fn within_supply(
    ports: &Ports,
    game: &Game,
    all: &[Vec<(Terminal, Terminal)>],
    (floor, most): (u32, u32),
    to_link: &[CityId],
    past: &dyn Fn() -> bool,
    stats: &mut LinkStats,
) -> Pass {
    let supply = game.supply();
    // No plan has more tiles than the supply holds or the player has free hexes.
    let longest = supply.total().min(ports.free);
    let full = mask(supply, longest);
    let mut dists: HashMap<(Terminal, Avoid), Rc<Vec<u32>>> = HashMap::default();
    // Each edge's frontier by its ends, what it avoids, its cap and its mask.
    type FrontierKey = ((Terminal, Terminal), Avoid, u32, [bool; 4]);
    let mut fronts: HashMap<FrontierKey, Rc<Frontier>> = HashMap::default();
    let mut nodes: Vec<Bounded> = Vec::new();
    let mut queue: BinaryHeap<(Reverse<u32>, Reverse<usize>)> = BinaryHeap::new();
    let push = |nodes: &mut Vec<Bounded>, queue: &mut BinaryHeap<_>, node: Bounded| {
        queue.push((Reverse(node.bound), Reverse(nodes.len())));
        nodes.push(node);
    };
    for edges in all {
        let node = Bounded { edges: edges.clone(), avoid: vec![Avoid::default(); edges.len()], bound: floor };
        push(&mut nodes, &mut queue, node);
    }
    while let Some((Reverse(bound), Reverse(i))) = queue.pop() {
        if past() {
            return Pass::Stopped(bound);
        }
        if bound > most {
            return Pass::Beyond;
        }
        if bound > longest {
            continue;
        }
        stats.supply_expanded += 1;
        let node = nodes[i].clone();
        // Each edge's fewest tiles under its avoid set: the tree's plain lower bound.
        let mut dist = Vec::new();
        for (&(_, b), avoid) in node.edges.iter().zip(&node.avoid) {
            let d = dists
                .entry((b, avoid.clone()))
                .or_insert_with(|| match ports.node(b) {
                    Some(to) => Rc::new(distances(ports, to, avoid)),
                    None => Rc::new(vec![u32::MAX; ports.graph.node_count()]),
                })
                .clone();
            dist.push(d);
        }
        let fewest: Vec<u32> =
            node.edges.iter().zip(&dist).map(|(&(a, _), d)| ports.node(a).map_or(u32::MAX, |n| d[n.index()])).collect();
        if fewest.contains(&u32::MAX) {
            continue;
        }
        let sum: u32 = fewest.iter().sum();
        if sum > bound {
            push(&mut nodes, &mut queue, Bounded { bound: sum, ..node });
            continue;
        }
        let m = mask(supply, bound);
        let edge_fronts: Vec<Rc<Frontier>> = node
            .edges
            .iter()
            .enumerate()
            .map(|(e, &ends)| {
                let cap = bound - (sum - fewest[e]);
                fronts
                    .entry((ends, node.avoid[e].clone(), cap, m))
                    .or_insert_with(|| Rc::new(frontier(ports, ends, &node.avoid[e], &dist[e], cap, m, supply)))
                    .clone()
            })
            .collect();
        let Some((choice, _)) = combine(&edge_fronts, bound, supply) else {
            if m == full && edge_fronts.iter().all(|f| !f.capped) {
                // Every path of every edge was seen: the fewest tiles of any choice that fits,
                // or none at all.
                if let Some((_, cost)) = combine(&edge_fronts, u32::MAX, supply) {
                    push(&mut nodes, &mut queue, Bounded { bound: cost, ..node });
                }
            } else {
                push(&mut nodes, &mut queue, Bounded { bound: bound + 1, ..node });
            }
            continue;
        };
        let paths: Vec<Path> = choice.iter().enumerate().map(|(e, &k)| edge_fronts[e].paths[k].1.clone()).collect();
        let children: Vec<(usize, Avoid)> = match conflict(ports, &paths) {
            Some(found) => split(ports, &node.avoid, found),
            None => {
                if let Some(plan) = fitted(ports, game, &node.edges, &paths, to_link) {
                    return Pass::Found(plan);
                }
                // Fits in no order: every other plan differs from it at some port of some path.
                stats.order_splits += 1;
                let mut out = Vec::new();
                for (e, p) in paths.iter().enumerate() {
                    for &x in &p.edges {
                        let Some((_, port)) = ports.graph.edge_endpoints(x) else { continue };
                        if matches!(ports.graph[port], Node::Port(..)) {
                            let mut a = node.avoid[e].clone();
                            a.ports.insert(port);
                            out.push((e, a));
                        }
                    }
                }
                out
            }
        };
        for (path, avoid) in children {
            if avoid == node.avoid[path] {
                continue;
            }
            let mut child = node.clone();
            child.avoid[path] = avoid;
            push(&mut nodes, &mut queue, child);
        }
    }
    Pass::Exhausted
}

/// The plan of a conflict-free choice of paths in an order the rules and the supply allow, or
/// `None` when no such order fits the supply ([`arrange`]).
fn fitted(
    ports: &Ports,
    game: &Game,
    edges: &[(Terminal, Terminal)],
    paths: &[Path],
    to_link: &[CityId],
) -> Option<LinkPlan> {
    let mut plan = plan(ports, edges, paths, to_link.to_vec());
    let curve = game.options().curve;
    let chains: Vec<Chain> = plan
        .paths
        .iter()
        .map(|p| Chain {
            parent: p.from.and_then(|c| plan.paths.iter().position(|q| q.to == c)),
            tiles: p
                .tiles
                .iter()
                .map(|&(h, e)| (e.kind(curve).unwrap_or(TileKind::Curved), game.tiles_on(h).next().is_some()))
                .collect(),
        })
        .collect();
    let order = arrange(&chains, game.supply())?;
    plan.tiles = order.iter().map(|&(i, j)| plan.paths[i].tiles[j]).collect();
    Some(plan)
}

/// The tiles of a conflict-free candidate path by path: the tree's edges from the network
/// outwards, each path's tiles from the end already reached.
fn plan(ports: &Ports, edges: &[(Terminal, Terminal)], paths: &[Path], to_link: Vec<CityId>) -> LinkPlan {
    let g = &ports.graph;
    let mut reached: BTreeSet<Terminal> = BTreeSet::from([Terminal::Network]);
    let mut left: Vec<usize> = (0..edges.len()).collect();
    let mut tiles = Vec::new();
    let mut out = Vec::new();
    let city = |t: Terminal| match t {
        Terminal::Network => None,
        Terminal::City(c) => Some(c),
    };
    while !left.is_empty() {
        let Some(k) = left.iter().position(|&e| reached.contains(&edges[e].0) || reached.contains(&edges[e].1)) else {
            break;
        };
        let e = left.remove(k);
        let (a, b) = edges[e];
        let mut path: Vec<(Hex, Ends)> = paths[e].edges.iter().filter_map(|&x| g[x].tile).collect();
        let (from, to) = if reached.contains(&a) { (a, b) } else { (b, a) };
        if from != a {
            path.reverse();
        }
        tiles.extend(path.iter().copied());
        if let Some(to) = city(to) {
            out.push(PlanPath { from: city(from), to, tiles: path });
        }
        reached.insert(a);
        reached.insert(b);
    }
    LinkPlan { tiles, to_link, paths: out }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::railways::reference::small_game;

    #[test]
    fn the_linker_told_the_most_tiles_gives_the_same_answer_within_them_and_none_above() {
        let mut bounded = 0;
        for index in 0..700u64 {
            let Some(game) = small_game(index) else { continue };
            let (full, _) = link(&game, Colour::Blue, None);
            match &full {
                Linked::Plan(plan) => {
                    let n = plan.tiles.len();
                    assert_eq!(link_at_most(&game, Colour::Blue, None, n).0.as_ref(), Some(&full), "game {index}");
                    assert_eq!(link_at_most(&game, Colour::Blue, None, n + 3).0.as_ref(), Some(&full), "game {index}");
                    if n > 0 {
                        assert_eq!(link_at_most(&game, Colour::Blue, None, n - 1).0, None, "game {index}");
                        bounded += 1;
                    }
                }
                // No plan: none within any bound either, or none said.
                _ => assert!(link_at_most(&game, Colour::Blue, None, 3).0.is_none_or(|l| l == full), "game {index}"),
            }
        }
        assert!(bounded > 100, "only {bounded} games with a plan");
    }
}
