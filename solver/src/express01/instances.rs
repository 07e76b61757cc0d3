//! Random boards for tests and benchmarks, from a seed (ChaCha8, so a seed gives the same board
//! on every machine).
//!
//! - [`synthetic`]: a brick wall of cards with random tracks and stations, free of the house
//!   set's catalogue (any track shape, any number of stations).
//! - [`house_position`]: a legal position on a map of a content set: every card reached from its
//!   base by the upgrade lists, no open track into the sea or a border, no card used twice.

use rand::seq::{IndexedRandom, SliceRandom};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use signalbox_engine::express01::card::{CardNumber, CompanyId, Station};
use signalbox_engine::express01::catalogue::Catalogue;
use signalbox_engine::express01::map::{Beyond, neighbour_slot};
use signalbox_engine::express01::network::{NetCell, Network};
use signalbox_engine::express01::position::{PaymentSetup, PlacementSetup, PlayerSetup, PositionSetup};
use signalbox_engine::express01::side::{Endpoint, Side, Track};

/// The shape of a synthetic board.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Synthetic {
    /// Cards in all.
    pub cards: usize,
    /// Cards per row.
    pub width: usize,
    /// Share of cards that carry a station (0 to 1).
    pub stations: f64,
    /// Chance that a rail crosses a border between two cards (0 to 1).
    pub borders: f64,
    /// Extra tracks per card (switches, crossings), at most.
    pub tracks: usize,
    /// Companies.
    pub companies: usize,
}

impl Synthetic {
    /// A board of `cards` cards, roughly square, about one card in three a station, a rail across
    /// half the borders, up to one extra track a card.
    pub fn new(cards: usize) -> Synthetic {
        let width = ((cards as f64).sqrt().ceil() as usize).max(1);
        Synthetic { cards, width, stations: 0.35, borders: 0.5, tracks: 1, companies: 3 }
    }
}

/// A random synthetic network from a seed.
pub fn synthetic(shape: Synthetic, seed: u64) -> Network {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let width = shape.width.max(1);
    let slots: Vec<(usize, i32)> =
        (0..shape.cards).map(|i| (i / width, 2 * (i % width) as i32 - ((i / width) % 2) as i32)).collect();
    let at: std::collections::HashMap<(usize, i32), usize> = slots.iter().enumerate().map(|(i, &s)| (s, i)).collect();
    let companies: Vec<String> = (0..shape.companies.max(1)).map(|i| format!("c{}", i + 1)).collect();
    // Which borders a rail crosses: decided once per border, so both cards' tracks meet there.
    let mut crossing = std::collections::HashMap::new();
    for (i, &(row, x)) in slots.iter().enumerate() {
        for side in Side::ALL {
            let key = match neighbour_slot(row, x, side).and_then(|s| at.get(&s)) {
                Some(&j) if j < i => continue,
                Some(_) => (i, side),
                None => (i, side),
            };
            let inside = neighbour_slot(row, x, side).and_then(|s| at.get(&s)).is_some();
            let p = if inside { shape.borders } else { shape.borders / 6.0 };
            crossing.insert(key, rng.random_bool(p));
        }
    }
    let crosses = |i: usize, side: Side| match neighbour_slot(slots[i].0, slots[i].1, side).and_then(|s| at.get(&s)) {
        Some(&j) if j < i => crossing[&(j, side.facing())],
        _ => crossing[&(i, side)],
    };
    let cells = slots
        .iter()
        .enumerate()
        .map(|(i, &(row, x))| {
            let beyond = Side::ALL.map(|side| match neighbour_slot(row, x, side).and_then(|s| at.get(&s)) {
                Some(&j) => Beyond::Cell(j),
                None => Beyond::Open,
            });
            let mut stations = Vec::new();
            if rng.random_bool(shape.stations) {
                let n = if rng.random_bool(0.1) { 2 } else { 1 };
                for _ in 0..n {
                    let company = if rng.random_bool(0.25) {
                        None
                    } else {
                        Some(CompanyId(rng.random_range(0..companies.len()) as u8))
                    };
                    stations.push(Station { company, bonus: rng.random_bool(0.3) });
                }
            }
            let active: Vec<Endpoint> = Side::ALL.into_iter().filter(|&s| crosses(i, s)).map(Endpoint::Side).collect();
            let mut ends = active.clone();
            ends.extend((0..stations.len()).map(|k| Endpoint::Station(k as u8)));
            let mut tracks: Vec<Track> = Vec::new();
            let add = |t: Option<Track>, tracks: &mut Vec<Track>| {
                if let Some(t) = t
                    && !tracks.contains(&t)
                {
                    tracks.push(t);
                }
            };
            // Every crossing side gets a track, to a station or to another side.
            for &a in &active {
                let to_station = !stations.is_empty() && rng.random_bool(0.6);
                let b = if to_station {
                    Endpoint::Station(rng.random_range(0..stations.len()) as u8)
                } else {
                    *ends.choose(&mut rng).unwrap_or(&a)
                };
                add(Track::new(a, b), &mut tracks);
            }
            // Stations with no track yet get one if any side crosses.
            for k in 0..stations.len() {
                let s = Endpoint::Station(k as u8);
                if !tracks.iter().any(|t| t.touches(s))
                    && let Some(&a) = active.choose(&mut rng)
                {
                    add(Track::new(s, a), &mut tracks);
                }
            }
            // A few more: switches and crossings.
            for _ in 0..rng.random_range(0..=shape.tracks) {
                if let (Some(&a), Some(&b)) = (ends.choose(&mut rng), ends.choose(&mut rng)) {
                    add(Track::new(a, b), &mut tracks);
                }
            }
            tracks.sort();
            NetCell { label: CardNumber(i as u16 + 1), name: None, card: None, row, x, beyond, tracks, stations }
        })
        .collect();
    // Every track ends at a station its cell has: built so above.
    Network::new(companies, cells).unwrap_or_else(|e| unreachable!("synthetic cells are built consistent: {e}"))
}

/// A random legal position on `map` of `catalogue`: each cell upgraded by a random number of
/// stages (`density` is the chance of each further stage, 0 to 1), 2 to 4 players with random
/// shares, and a pending bonus payment of a company with a station, by one of its holders.
pub fn house_position(catalogue: &Catalogue, map_id: &str, density: f64, seed: u64) -> Option<PositionSetup> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (_, map) = catalogue.map(map_id)?;
    let mut used: std::collections::HashMap<CardNumber, u16> = std::collections::HashMap::new();
    let mut order: Vec<usize> = (0..map.cells.len()).collect();
    order.shuffle(&mut rng);
    let mut board = Vec::new();
    let mut station_companies = Vec::new();
    for c in order {
        let cell = &map.cells[c];
        let fits = |n: CardNumber, turned: bool| {
            catalogue.card(n).is_some_and(|card| {
                card.tracks.iter().all(|t| {
                    let (a, b) = t.oriented(turned).ends();
                    [a, b].iter().filter_map(|e| e.side()).all(|s| cell.beyond[s.index()].allows_track())
                })
            })
        };
        let mut current: (CardNumber, bool) = (cell.base, false);
        while rng.random_bool(density) {
            let Some(card) = catalogue.card(current.0) else { break };
            let mut options = Vec::new();
            for &u in &card.upgrades {
                let Some(next) = catalogue.card(u) else { continue };
                if !map.kinds.contains(&next.kind) || used.get(&u).copied().unwrap_or(0) >= next.copies {
                    continue;
                }
                let turns =
                    if card.kind.is_base() { vec![false, true] } else { card.upgrade_orientations(current.1, next) };
                options.extend(turns.into_iter().filter(|&o| fits(u, o)).map(|o| (u, o)));
            }
            let Some(&choice) = options.choose(&mut rng) else { break };
            current = choice;
        }
        if current.0 != cell.base {
            *used.entry(current.0).or_default() += 1;
            board.push(PlacementSetup { cell: cell.base.0, card: current.0.0, turned: current.1 });
            if let Some(card) = catalogue.card(current.0) {
                station_companies.extend(card.stations.iter().filter_map(|s| s.company));
            }
        }
    }
    board.sort_by_key(|p| p.cell);
    // Players and shares.
    let n_players = rng.random_range(2..=4usize);
    let mut share_cards: Vec<CardNumber> = catalogue
        .cards()
        .filter(|c| c.share.is_some())
        .flat_map(|c| std::iter::repeat_n(c.number, usize::from(c.copies)))
        .filter(|n| used.get(n).copied().unwrap_or(0) == 0)
        .collect();
    share_cards.shuffle(&mut rng);
    let mut order: Vec<u8> = (1..=n_players as u8).collect();
    order.shuffle(&mut rng);
    let mut players: Vec<PlayerSetup> = order
        .iter()
        .enumerate()
        .map(|(i, &turn_order)| PlayerSetup {
            name: format!("P{}", i + 1),
            turn_order,
            turn_taken: false,
            hand: Vec::new(),
            shares: Vec::new(),
            share_counts: None,
            base_cards: Vec::new(),
        })
        .collect();
    let shares_out = rng.random_range(n_players..=n_players * 6).min(share_cards.len());
    for (k, n) in share_cards.into_iter().take(shares_out).enumerate() {
        let p = if k < n_players { k } else { rng.random_range(0..n_players) };
        players[p].shares.push(n.0);
    }
    // A company with a station and a holder.
    station_companies.sort();
    station_companies.dedup();
    let holder_of = |c: CompanyId| {
        players.iter().position(|p| {
            p.shares
                .iter()
                .any(|&n| catalogue.card(CardNumber(n)).and_then(|x| x.share).is_some_and(|s| s.company == c))
        })
    };
    let payable: Vec<CompanyId> = station_companies.into_iter().filter(|&c| holder_of(c).is_some()).collect();
    let bonus_payment = payable.choose(&mut rng).and_then(|&c| {
        holder_of(c).map(|p| PaymentSetup {
            company: Some(catalogue.company_name(c).to_string()),
            player: Some(players[p].name.clone()),
            use_black_engine: false,
        })
    });
    Some(PositionSetup {
        map: map_id.to_string(),
        note: Some(format!("random position, seed {seed}, density {density}")),
        board,
        players,
        black_engine: None,
        bonus_payment,
        ..PositionSetup::default()
    })
}
