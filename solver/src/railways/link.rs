//! The fewest track tiles a player must still build to link all four of their cities, exactly,
//! with the tiles to build.
//!
//! A player's track never branches except at cities: a tile joins two sides, and new track
//! leaves only an end of the track or a linked city (rulings G1, B1 in
//! `docs/rules/railways-express.md`). So a plan is a tree over the player's network as it
//! stands (R) and the cities still to link, whose edges are paths of new tiles. Each path is a
//! shortest path in a graph of *ports* (a hex entered through one of its sides, one node each;
//! a tile is an edge of cost 1 from the port it is entered by to the port its other end leads
//! to; leaving a city costs nothing), built with petgraph and searched with its A*. The Steiner
//! tree over the four terminals (Dreyfus-Wagner's recursion, with branching allowed only at the
//! cities) is then every tree over R and the cities to link, each edge its shortest path: a
//! lower bound. Paths of one plan may not share a hex (one tile per player per hex, ruling G3) nor
//! overload a gray city (two connections, B2); such conflicts are resolved by conflict-based
//! search: a plan with a conflict is split into two, one path or the other kept off the
//! contested hex or city, and plans are taken best-first, so the first plan without a conflict
//! has the fewest tiles.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap};

use petgraph::graph::{DiGraph, EdgeIndex, NodeIndex};
use petgraph::visit::{EdgeFiltered, EdgeRef};
use signalbox_engine::grid::hex::Hex;
use signalbox_engine::railways::catalogue::CityId;
use signalbox_engine::railways::colour::{CityColour, Colour};
use signalbox_engine::railways::game::{GRAY_CONNECTIONS, Game};
use signalbox_engine::railways::options::{Curve, GrayExits};
use signalbox_engine::railways::track::{Ends, Side};

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
/// connection it uses, if any.
#[derive(Clone, Copy, Debug)]
struct Step {
    tile: Option<(Hex, Ends)>,
    gray: Option<CityId>,
}

/// One end of a plan's path: the network or a city to link.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Terminal {
    Network,
    City(CityId),
}

/// The port graph of one player in one position.
struct Ports {
    graph: DiGraph<Node, Step>,
    port: HashMap<(Hex, Side), NodeIndex>,
    city: HashMap<CityId, NodeIndex>,
    network: NodeIndex,
    /// How many more connections each gray city takes from the player.
    room: HashMap<CityId, usize>,
}

impl Ports {
    fn new(game: &Game, colour: Colour) -> Ports {
        let content = game.content();
        let options = game.options();
        let seat = game.seat(colour).unwrap_or(0);
        let linked = &game.players()[seat].linked;
        let mut graph = DiGraph::new();
        let network = graph.add_node(Node::Network);
        let mut port: HashMap<(Hex, Side), NodeIndex> = HashMap::new();
        // Hexes a new tile of the player may go on.
        let free = |h: Hex| {
            content.terrain(h).is_some() && !content.city_at.contains_key(&h) && game.track(colour, h).is_none()
        };
        // Whether a tile on `h` may enter `city` (across side `s` of `h`): no other tile on `h`
        // enters it already.
        let side_free = |h: Hex, s: Side| !game.tiles_on(h).any(|t| t.ends.has(s));
        let mut room = HashMap::new();
        for c in content.gray_cities() {
            room.insert(c, GRAY_CONNECTIONS.saturating_sub(game.connections(colour, c)));
        }
        for &h in content.hexes.keys() {
            if free(h) {
                for s in Side::ALL {
                    port.insert((h, s), graph.add_node(Node::Port(h, s)));
                }
            }
        }
        let mut city = HashMap::new();
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
            if let Some(&c) = content.city_at.get(&n) {
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
            if let Some(ends) = game.track(colour, n) {
                return ends.has(x.opposite()).then_some((network, None));
            }
            port.get(&(n, x.opposite())).map(|&i| (i, None))
        };
        let exits = |s: Side| -> Vec<Side> {
            match options.curve {
                Curve::Gentle => vec![s.opposite(), s.turn(2), s.turn(-2)],
                Curve::Sharp => vec![s.opposite(), s.turn(1), s.turn(-1)],
            }
        };
        let mut edges = Vec::new();
        for (&(h, s), &from) in &port {
            for x in exits(s) {
                if let (Some((to, gray)), Some(ends)) = (arrive(h, x), Ends::new(s, x)) {
                    edges.push((from, to, Step { tile: Some((h, ends)), gray }));
                }
            }
        }
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
                if let Some(&to) = port.get(&(n, s.opposite()))
                    && side_free(n, s.opposite())
                {
                    edges.push((from, to, Step { tile: None, gray: gray.then_some(c) }));
                }
            }
        }
        // The open ends of the player's track lead to ports too.
        for t in game.tiles().iter().filter(|t| t.owner == colour) {
            for x in t.ends.sides() {
                if let Some(&to) = port.get(&(x.step(t.hex), x.opposite())) {
                    edges.push((network, to, Step { tile: None, gray: None }));
                }
            }
        }
        edges.sort_by_key(|&(a, b, _)| (a, b));
        for (a, b, step) in edges {
            graph.add_edge(a, b, step);
        }
        Ports { graph, port, city, network, room }
    }

    fn node(&self, t: Terminal) -> Option<NodeIndex> {
        match t {
            Terminal::Network => Some(self.network),
            Terminal::City(c) => self.city.get(&c).copied(),
        }
    }
}

/// What one path of a plan must avoid.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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

/// The shortest path between two terminals avoiding `avoid` and the cities to link other than
/// its ends.
fn shortest(ports: &Ports, a: Terminal, b: Terminal, avoid: &Avoid) -> Option<Path> {
    let (from, to) = (ports.node(a)?, ports.node(b)?);
    let g = &ports.graph;
    let allowed = |e: petgraph::graph::EdgeReference<'_, Step>| {
        let t = e.target();
        if avoid.ports.contains(&t) || e.weight().gray.is_some_and(|c| avoid.grays.contains(&c)) {
            return false;
        }
        match g[t] {
            Node::City(c) => t == to || ports.room.contains_key(&c) && !avoid.grays.contains(&c),
            _ => true,
        }
    };
    let view = EdgeFiltered::from_fn(g, allowed);
    let (total, nodes) =
        petgraph::algo::astar(&view, from, |n| n == to, |e| u32::from(e.weight().tile.is_some()), |_| 0)?;
    // The edges along the node path: the cheapest allowed edge between each pair.
    let mut edges = Vec::new();
    for w in nodes.windows(2) {
        let e = g
            .edges_connecting(w[0], w[1])
            .filter(|e| allowed(*e))
            .min_by_key(|e| (u32::from(e.weight().tile.is_some()), e.id()))?;
        edges.push(e.id());
    }
    Some(Path { edges, cost: total })
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

/// A minimum plan: the tiles to build, in an order the rules allow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkPlan {
    /// The tiles, each built from the network as it grows.
    pub tiles: Vec<(Hex, Ends)>,
    /// The cities still to link when the plan starts.
    pub to_link: Vec<CityId>,
    /// The same tiles as the plan's paths, in the order of `tiles`.
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
    /// Plans taken from the queue (conflict-based search).
    pub expanded: usize,
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

fn conflict(ports: &Ports, c: &Candidate) -> Option<Conflict> {
    let g = &ports.graph;
    let mut hexes: HashMap<Hex, (usize, NodeIndex)> = HashMap::new();
    let mut gray: BTreeMap<CityId, Vec<usize>> = BTreeMap::new();
    for (i, p) in c.paths.iter().enumerate() {
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

/// The fewest tiles `colour` must build to link all four of its cities in `game`, with a plan,
/// and the search's statistics; `None` when no plan exists. Exact: checked against a brute
/// force in the tests, and every plan is replayed by the engine ([`Game::with_track`]).
pub fn min_link(game: &Game, colour: Colour) -> Option<(LinkPlan, LinkStats)> {
    let content = game.content();
    let seat = game.seat(colour)?;
    let linked = &game.players()[seat].linked;
    let to_link: Vec<CityId> = content.cities_of(colour).into_iter().filter(|c| !linked.contains(c)).collect();
    let ports = Ports::new(game, colour);
    let mut terminals = vec![Terminal::Network];
    terminals.extend(to_link.iter().map(|&c| Terminal::City(c)));
    let mut stats = LinkStats::default();
    // The shortest unconstrained path of each pair, shared by the trees.
    let mut cache: HashMap<(Terminal, Terminal), Option<Path>> = HashMap::new();
    let mut queue: BinaryHeap<(Reverse<u32>, Reverse<usize>)> = BinaryHeap::new();
    let mut candidates: Vec<Candidate> = Vec::new();
    for edges in trees(&terminals) {
        stats.trees += 1;
        let mut paths = Vec::new();
        for &(a, b) in &edges {
            let p = cache.entry((a, b)).or_insert_with(|| shortest(&ports, a, b, &Avoid::default())).clone();
            match p {
                Some(p) => paths.push(p),
                None => break,
            }
        }
        if paths.len() == edges.len() {
            let c = Candidate { avoid: vec![Avoid::default(); edges.len()], edges, paths };
            queue.push((Reverse(c.cost()), Reverse(candidates.len())));
            candidates.push(c);
        }
    }
    while let Some((_, Reverse(i))) = queue.pop() {
        stats.expanded += 1;
        let c = candidates[i].clone();
        let children: Vec<(usize, Avoid)> = match conflict(&ports, &c) {
            None => return Some((plan(&ports, &c, to_link), stats)),
            Some(Conflict::Hex(uses, hex)) => uses
                .iter()
                .map(|&(path, port)| {
                    let mut avoid = c.avoid[path].clone();
                    if uses[0].0 == uses[1].0 {
                        // One path twice on the hex: it keeps off one of the two ports.
                        avoid.ports.insert(port);
                    } else {
                        avoid.ports.extend(Side::ALL.iter().filter_map(|&s| ports.port.get(&(hex, s))));
                    }
                    (path, avoid)
                })
                .collect(),
            Some(Conflict::Gray(users, city)) => users
                .iter()
                .map(|&path| {
                    let mut avoid = c.avoid[path].clone();
                    avoid.grays.insert(city);
                    (path, avoid)
                })
                .collect(),
        };
        for (path, avoid) in children {
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
    }
    None
}

/// The tiles of a conflict-free candidate in an order the rules allow: the tree's edges from
/// the network outwards, each path's tiles from the end already reached.
fn plan(ports: &Ports, c: &Candidate, to_link: Vec<CityId>) -> LinkPlan {
    let g = &ports.graph;
    let mut reached: BTreeSet<Terminal> = BTreeSet::from([Terminal::Network]);
    let mut left: Vec<usize> = (0..c.edges.len()).collect();
    let mut tiles = Vec::new();
    let mut paths = Vec::new();
    let city = |t: Terminal| match t {
        Terminal::Network => None,
        Terminal::City(c) => Some(c),
    };
    while !left.is_empty() {
        let Some(k) = left.iter().position(|&e| reached.contains(&c.edges[e].0) || reached.contains(&c.edges[e].1))
        else {
            break;
        };
        let e = left.remove(k);
        let (a, b) = c.edges[e];
        let mut path: Vec<(Hex, Ends)> = c.paths[e].edges.iter().filter_map(|&x| g[x].tile).collect();
        let (from, to) = if reached.contains(&a) { (a, b) } else { (b, a) };
        if from != a {
            path.reverse();
        }
        tiles.extend(path.iter().copied());
        if let Some(to) = city(to) {
            paths.push(PlanPath { from: city(from), to, tiles: path });
        }
        reached.insert(a);
        reached.insert(b);
    }
    LinkPlan { tiles, to_link, paths }
}
