//! The track network of a board as a graph (petgraph): stations and the borders between cards
//! are nodes, each printed track is an edge.

use std::collections::HashMap;
use std::fmt;

use petgraph::graph::{EdgeIndex, NodeIndex, UnGraph};

use super::card::{CardNumber, CompanyId, Station};
use super::map::Beyond;
use super::side::{Endpoint, Side, Track};

/// One cell of the board as the network sees it: where it lies, what it faces, and the tracks
/// and stations of the card lying there, turned as the card lies (board orientation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetCell {
    /// The cell's label: its base card number (`009`), or an index for synthetic boards.
    pub label: CardNumber,
    /// A name (the city of the base card), for pictures and messages.
    pub name: Option<String>,
    /// The card lying here, if the board came from a position.
    pub card: Option<CardNumber>,
    /// Row, 0 at the north.
    pub row: usize,
    /// Left edge in half card widths.
    pub x: i32,
    /// What each side faces.
    pub beyond: [Beyond; 6],
    /// Tracks in board orientation.
    pub tracks: Vec<Track>,
    /// Stations (`s1`, `s2`).
    pub stations: Vec<Station>,
}

/// A station on the board: the cell index and the station's index on its card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StationRef {
    /// The cell index in [`Network::cells`].
    pub cell: usize,
    /// 0 for `s1`, 1 for `s2`.
    pub index: u8,
}

/// A node of the network graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    /// A station.
    Station(StationRef),
    /// The border between a cell's side and what lies beyond; shared by both cells' tracks
    /// when a card lies beyond.
    Port {
        /// The cell.
        cell: usize,
        /// Its side.
        side: Side,
        /// The cell beyond and its facing side, when a train can cross.
        across: Option<usize>,
    },
}

/// An edge of the network graph: one printed track on one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rail {
    /// The cell whose card carries the track.
    pub cell: usize,
    /// The track, in board orientation.
    pub track: Track,
}

/// The track network of a board.
#[derive(Clone, Debug)]
pub struct Network {
    /// Company colours, indexed by [`CompanyId`].
    pub companies: Vec<String>,
    /// The cells.
    pub cells: Vec<NetCell>,
    /// The graph: stations and ports as nodes, tracks as edges.
    pub graph: UnGraph<Node, Rail>,
    stations: Vec<(StationRef, NodeIndex)>,
    endpoints: HashMap<(usize, Endpoint), NodeIndex>,
}

impl Network {
    /// Builds the graph of a board. Tracks ending at a side join the port of that side; two
    /// cells that touch share one port, so their tracks connect there.
    /// Fails if a track ends at a station its cell does not have.
    pub fn new(companies: Vec<String>, cells: Vec<NetCell>) -> Result<Network, MissingStation> {
        let mut graph = UnGraph::new_undirected();
        let mut stations = Vec::new();
        let mut endpoints = HashMap::new();
        for (c, cell) in cells.iter().enumerate() {
            for i in 0..cell.stations.len() {
                let s = StationRef { cell: c, index: i as u8 };
                let n = graph.add_node(Node::Station(s));
                stations.push((s, n));
                endpoints.insert((c, Endpoint::Station(i as u8)), n);
            }
        }
        for (c, cell) in cells.iter().enumerate() {
            for track in &cell.tracks {
                let (a, b) = track.ends();
                let na = port_or_station(&mut graph, &mut endpoints, &cells, c, a)?;
                let nb = port_or_station(&mut graph, &mut endpoints, &cells, c, b)?;
                graph.add_edge(na, nb, Rail { cell: c, track: *track });
            }
        }
        Ok(Network { companies, cells, graph, stations, endpoints })
    }

    /// Every station, in cell order.
    pub fn stations(&self) -> impl Iterator<Item = (StationRef, NodeIndex)> + '_ {
        self.stations.iter().copied()
    }

    /// The printed station behind a reference.
    pub fn station(&self, s: StationRef) -> Station {
        self.cells[s.cell].stations[usize::from(s.index)]
    }

    /// The graph node of an endpoint of a cell, if a track touches it.
    pub fn node(&self, cell: usize, end: Endpoint) -> Option<NodeIndex> {
        self.endpoints.get(&(cell, end)).copied()
    }

    /// The graph edge of a track on a cell, if the card carries it.
    pub fn rail(&self, cell: usize, track: Track) -> Option<EdgeIndex> {
        let (a, b) = track.ends();
        let (na, nb) = (self.node(cell, a)?, self.node(cell, b)?);
        self.graph.edges_connecting(na, nb).find(|e| e.weight().cell == cell && e.weight().track == track).map(|e| {
            use petgraph::visit::EdgeRef;
            e.id()
        })
    }

    /// Whether some station of `company` lies on the board.
    pub fn has_station_of(&self, company: CompanyId) -> bool {
        self.stations().any(|(s, _)| self.station(s).company == Some(company))
    }

    /// A station's label: `009` on a card with one station, `061/s2` on a double station.
    pub fn station_label(&self, s: StationRef) -> String {
        let cell = &self.cells[s.cell];
        if cell.stations.len() == 1 { cell.label.to_string() } else { format!("{}/s{}", cell.label, s.index + 1) }
    }

    /// The company colour of a station, or `neutral`.
    pub fn company_label(&self, company: Option<CompanyId>) -> &str {
        company.map_or("neutral", |c| self.companies[c.0 as usize].as_str())
    }

    /// The index of the cell labelled `label`.
    pub fn cell_index(&self, label: CardNumber) -> Option<usize> {
        self.cells.iter().position(|c| c.label == label)
    }
}

fn port_or_station(
    graph: &mut UnGraph<Node, Rail>,
    endpoints: &mut HashMap<(usize, Endpoint), NodeIndex>,
    cells: &[NetCell],
    cell: usize,
    end: Endpoint,
) -> Result<NodeIndex, MissingStation> {
    if let Some(&n) = endpoints.get(&(cell, end)) {
        return Ok(n);
    }
    let Endpoint::Side(side) = end else {
        return Err(MissingStation { cell: cells[cell].label, end });
    };
    let across = cells[cell].beyond[side.index()].passable_cell();
    let n = graph.add_node(Node::Port { cell, side, across });
    endpoints.insert((cell, end), n);
    if let Some(other) = across {
        endpoints.insert((other, Endpoint::Side(side.facing())), n);
    }
    Ok(n)
}

/// A track of a board ends at a station its card does not have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cell {cell}: a track ends at {end}, a station the card does not have")]
pub struct MissingStation {
    /// The cell's label.
    pub cell: CardNumber,
    /// The endpoint.
    pub end: Endpoint,
}

impl fmt::Display for StationRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cell#{}/s{}", self.cell, self.index + 1)
    }
}
