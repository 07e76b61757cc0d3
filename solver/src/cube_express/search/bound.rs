//! An upper bound on what the rest of a turn can still bring from a position of the search, so
//! that lines which cannot beat the best found are cut (ruling S3, "Lines that cannot beat the
//! best", `docs/rules/cube-express.md`).
//!
//! The bound relaxes the turn. Resources have no kind, and a table, kept for each network and
//! filled as the search asks for its cells, gives the most that entries onto tiles and resources
//! can bring:
//!
//! - an entry costs one movement point; a movement point more costs a coal ("spend 1 coal for 1
//!   additional movement point"), counted here as any resource, as often as the player could
//!   still raise coal (held, made by conversions, or one for each pickup);
//! - an entry picks up a resource, or delivers to a factory (a factory whose first space is free
//!   at its first space's points and two spaces of stock, any other at its second space's and
//!   one, with the dividend for two or more resources and the best objective cube for three),
//!   or both where a factory stands on a facility;
//! - at the end, each resource is converted into a dividend or discarded at its best.
//!
//! The map enters through what can be reached: the locomotives' runs left, each from its tile,
//! within every movement point the player can still raise (counting a resource more for each
//! facility on the way), give the factories the table may deliver to, how often, and whose first
//! spaces it may take (each once). Added to the table are the passengers the reachable cities
//! have room for, the market's best objective cube, the second locomotive, the `$` cubes and the
//! 9-VP token the reachable stock spaces hold, and every sale that gains. Each part is at least
//! what the turn can bring by it, so the sum is admissible.

use rustc_hash::FxHashMap;
use signalbox_engine::cube_express::game::TOKEN_VP;

use super::{DELIVERED, ENTERED, NONE, Network, PARKED, PASSENGER, PICKED, Rules, State};
use crate::cube_express::model::distances;

/// Most entries the table covers: movement points left, one for the tile just entered, and the
/// coal still to be raised (coal turns into entries, so the table holds every entry a position
/// it answers for can reach).
const ENTRIES: usize = 16;
/// Most resources held plus entries the table covers.
const HELD: usize = 32;
/// Deliveries (and first spaces) are counted up to this; the last count means "this many or
/// more", with no limit.
const MANY: usize = 3;
/// The farthest distance the bound tells apart (a network has at most 64 tiles).
const DISTANCES: usize = 64;
/// The bound of a position the table does not cover: no line is cut there.
const UNBOUNDED: i32 = i32::MAX / 4;

/// One kind of entry onto a factory: the factory's index, the resources it takes (one fewer when
/// it picks one up on the same tile), the coal it may raise, its points, and whether it takes the
/// factory's first space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Entry {
    factory: u8,
    takes: i32,
    raises: i32,
    gain: i32,
    first: bool,
}

/// Most factories within reach the table tells apart.
const FACTORIES: usize = 16;

/// A cell of the table: the worth of a stock space (less 1), the factories whose first space may
/// still be taken and those that may be delivered to (bits by factory), the deliveries left
/// ([`MANY`]: no limit), entries, resources held and coal still to raise.
fn at(space: usize, firsts: u16, reachable: u16, deliveries: usize, entries: usize, held: usize, coal: usize) -> u64 {
    (space as u64) << 56
        | u64::from(firsts) << 40
        | u64::from(reachable) << 24
        | (deliveries as u64) << 20
        | (entries as u64) << 14
        | (held as u64) << 7
        | coal as u64
}

/// The bound for one network under one turn's rules.
pub(super) struct Bound {
    /// The kinds of entry onto a factory, one list for each worth of a stock space from 1;
    /// `None` when the weights are outside what the bound covers (a negative resource weight, or
    /// more factories within reach than the table tells apart).
    kinds: Option<Vec<Vec<Entry>>>,
    /// The table's cells computed so far (each line of pickups and coal at once, when first
    /// needed).
    cells: FxHashMap<u64, i32>,
    /// A facility is within reach.
    pickups: bool,
    seat: usize,
    /// Every stock sale that gains, by the disc's space: `sales[s]` for a disc on space `s`.
    sales: Vec<i32>,
    /// Each stock space's points over the one below (`rise[0]` is 0).
    rise: Vec<i32>,
    /// The most a stock space is worth to the tables (one table for each worth from 1).
    spaces: usize,
    dollars: [u8; 3],
    max: u8,
    /// The market's best objective cube (0 when none gains or the market is closed).
    market: i32,
    /// The second locomotive (0 when it is worth nothing or no station is within reach).
    locomotive: i32,
    /// Whether a station is within reach (a second locomotive could start a run there).
    stations: bool,
    resource: i32,
    limit: i32,
    /// The tiles within 1 to `d` moves of each tile, by `from * (DISTANCES + 1) + d`.
    balls: Vec<u64>,
    /// Tiles with a factory, and each one's factory index.
    factories: u64,
    factory_of: Vec<u8>,
    /// Tiles with a production facility, by resource (coal, wood, iron).
    facilities: [u64; 3],
    /// Tiles in a station city, and each one's city index.
    cities: u64,
    city_of: Vec<u8>,
}

impl Bound {
    /// The bound of `net` under `rules`.
    pub(super) fn new(net: &Network, rules: &Rules) -> Bound {
        let w = rules.weights.resource;
        let vp = &rules.vp;
        let mut rise = vec![0];
        rise.extend(vp.windows(2).map(|p| p[1] - p[0]));
        let mut sales = vec![0];
        for &r in &rise[1..] {
            sales.push(sales.last().copied().unwrap_or(0) + (1 - r).max(0));
        }
        let spaces = rise.iter().copied().max().unwrap_or(0).max(1) as usize;
        let cube = if rules.solo { 0 } else { rules.objective_weights.iter().copied().max().unwrap_or(0).max(0) };
        let market = match &rules.market {
            Some(open) => open.iter().map(|&c| rules.objective_weights[usize::from(c)] - 1).max().unwrap_or(0).max(0),
            None => 0,
        };
        let stations = net.sites.iter().any(|s| s.station);
        // The locomotive's weight, less what its coal and iron are worth to the rest of the turn
        // beyond the table's count of them (a resource is worth its weight, or 1 as a dividend
        // by conversion, whichever is less).
        let locomotive = if stations { (rules.weights.locomotive - 2 * w.clamp(0, 1)).max(0) } else { 0 };
        let tiles = net.sites.len();
        let next: Vec<Vec<usize>> =
            net.sites.iter().map(|s| s.exits.iter().map(|&e| usize::from(e)).collect()).collect();
        let mut balls = vec![0u64; tiles * (DISTANCES + 1)];
        for from in 0..tiles.min(64) {
            let dist = distances(&next, [from]);
            let row = &mut balls[from * (DISTANCES + 1)..][..=DISTANCES];
            // Each tile in the ring at its distance, then every ring within each distance.
            for (to, &d) in dist.iter().enumerate().take(64) {
                if (1..=DISTANCES).contains(&d) {
                    row[d] |= 1u64 << to;
                }
            }
            for d in 1..=DISTANCES {
                row[d] |= row[d - 1];
            }
        }
        let mut factories = 0u64;
        let mut factory_of = vec![0u8; tiles];
        let mut facilities = [0u64; 3];
        let mut cities = 0u64;
        let mut city_of = vec![0u8; tiles];
        for (i, site) in net.sites.iter().enumerate().take(64) {
            if let Some(k) = site.factory {
                factories |= 1u64 << i;
                factory_of[i] = k;
            }
            if let Some((kind, _)) = site.production {
                facilities[usize::from(kind)] |= 1u64 << i;
            }
            if let Some(c) = site.city {
                cities |= 1u64 << i;
                city_of[i] = c;
            }
        }
        let factory_list: Vec<(u8, u8)> =
            net.sites.iter().enumerate().filter_map(|(i, s)| s.factory.map(|k| (i as u8, k))).collect();
        let kinds = (w >= 0 && tiles <= 64 && net.factories.len() <= FACTORIES)
            .then(|| {
                let factories: Vec<(u8, i32, u8, u8, bool)> = factory_list
                    .iter()
                    .map(|&(site, k)| {
                        let f = net.factories[usize::from(k)];
                        let count: u8 = f.needs.iter().sum();
                        (k, i32::from(count), f.a, f.b, net.sites[usize::from(site)].production.is_some())
                    })
                    .collect();
                (1..=spaces as i32).map(|u| entries_of(&factories, w, cube, u)).collect::<Option<Vec<_>>>()
            })
            .flatten();
        Bound {
            kinds,
            cells: FxHashMap::default(),
            pickups: facilities.iter().any(|&f| f != 0),
            seat: rules.seat,
            sales,
            rise,
            spaces,
            dollars: rules.dollars,
            max: rules.max,
            market,
            locomotive,
            stations,
            resource: w,
            limit: i32::from(net.tech),
            balls,
            factories,
            factory_of,
            facilities,
            cities,
            city_of,
        }
    }

    /// An upper bound on the best value from `s` to the end of the turn, `coal` the coal the
    /// player can still raise from what it holds ([`UNBOUNDED`] where the table does not reach).
    pub(super) fn of(&mut self, s: &State, coal: u16) -> i32 {
        if self.kinds.is_none() {
            return UNBOUNDED;
        }
        let stock = usize::from(s.stock[self.seat]);
        let Some(&sales) = self.sales.get(stock) else { return UNBOUNDED };
        let held: usize = s.store.iter().map(|&c| usize::from(c)).sum();
        if s.stage != 0 {
            return sales + end(self.resource, self.limit, held as i32);
        }
        let entries = usize::from(s.mp) + usize::from(s.entry & ENTERED != 0);
        let coal = usize::from(coal);
        if entries + coal > ENTRIES || entries + held > HELD {
            return UNBOUNDED;
        }
        let reach = self.reach(s, usize::from(s.mp) + coal);
        // The moves to the first tile that has anything are moves without an entry that counts.
        let (entries, coal) = match reach.nearest {
            None => (usize::from(s.entry & ENTERED != 0), 0),
            Some(d) => {
                let lost = d.saturating_sub(1);
                let moves = usize::from(s.mp);
                (entries - lost.min(moves), coal.saturating_sub(lost.saturating_sub(moves)))
            }
        };
        let rises = 2 * reach.deliveries.min(reach.entries);
        let top = (stock + rises).min(usize::from(self.max));
        let space = self.rise[(stock + 1).min(top + 1)..=top].iter().copied().max().unwrap_or(1).max(1) as usize;
        let table = self.cell(
            space.min(self.spaces) - 1,
            reach.firsts,
            reach.reachable,
            reach.deliveries.min(MANY),
            entries,
            held,
            coal,
        );
        let locomotive = if s.loco[1] == NONE { self.locomotive } else { 0 };
        let token = if s.tokens > 0 && s.reached & (1 << self.seat) == 0 && top >= usize::from(self.max) {
            TOKEN_VP
        } else {
            0
        };
        let dollars = (0..3).filter(|&i| s.dollars & (1 << i) != 0 && usize::from(self.dollars[i]) <= top).count();
        table + reach.room.min(reach.entries as i32) + self.market + locomotive + dollars as i32 + token + sales
    }

    /// The tiles within 1 to `d` moves of `from`.
    fn ball(&self, from: u8, d: usize) -> u64 {
        self.balls.get(usize::from(from) * (DISTANCES + 1) + d.min(DISTANCES)).copied().unwrap_or(!0)
    }

    /// What the locomotives can still reach from `s` with `raise` moves (movement points left
    /// and the coal the player can raise from what it holds).
    fn reach(&self, s: &State, raise: usize) -> Reach {
        let here = usize::from(s.entry & ENTERED != 0);
        let room_all: i32 = s.room.iter().map(|&r| i32::from(r)).sum();
        let open = Reach {
            nearest: Some(1),
            deliveries: usize::MAX,
            firsts: s.first_free as u16,
            reachable: u16::MAX,
            room: room_all,
            entries: raise + 2 * self.facilities.iter().map(|f| f.count_ones() as usize).sum::<usize>() + here,
        };
        // A second locomotive could still start a run at any station.
        if s.loco[1] == NONE && self.stations {
            return open;
        }
        let mut runs: [Option<(u8, u64)>; 2] = [None, None];
        for (l, run) in runs.iter_mut().enumerate() {
            let tile = s.loco[l];
            if tile == NONE || tile == PARKED || s.finished & (1 << l) != 0 {
                continue;
            }
            // The moving locomotive goes on with its run; the other starts one of its own.
            *run = Some(if s.current == l as u8 { (tile, s.visited) } else { (tile, 1u64 << tile) });
        }
        // The tiles each run can enter within `far` moves.
        let area = |far: usize| runs.map(|r| r.map_or(0, |(from, visited)| self.ball(from, far) & !visited));
        // Each facility on the way may give a resource more, and so more coal.
        // The facility on the tile just entered, if its pickup is still to come.
        let pending: [usize; 3] = std::array::from_fn(|kind| {
            let here = if s.current == NONE { NONE } else { s.loco[usize::from(s.current)] };
            let on = here < 64 && self.facilities[kind] & (1u64 << here) != 0;
            usize::from(s.entry & ENTERED != 0 && s.entry & PICKED == 0 && on)
        });
        let mut far = 0;
        loop {
            let [a, b] = area(far);
            let picked =
                |kind: usize| (a & self.facilities[kind]).count_ones() + (b & self.facilities[kind]).count_ones();
            let store: [usize; 3] = std::array::from_fn(|k| usize::from(s.store[k]) + pending[k] + picked(k) as usize);
            let more = usize::from(s.mp) + store[0] + (store[1] + store[2] / 2) / 2;
            if more <= far {
                break;
            }
            far = more;
        }
        let [a, b] = area(far);
        let features = self.factories | self.facilities[0] | self.facilities[1] | self.facilities[2] | self.cities;
        let nearest = (1..=far.min(DISTANCES))
            .find(|&d| runs.iter().flatten().any(|&(from, visited)| self.ball(from, d) & !visited & features != 0));
        let mut deliveries = ((a & self.factories).count_ones() + (b & self.factories).count_ones()) as usize;
        let mut reachable = 0u64;
        for tile in bits((a | b) & self.factories) {
            reachable |= 1u64 << self.factory_of[tile];
        }
        let mut cities = 0u64;
        for tile in bits((a | b) & self.cities) {
            cities |= 1u64 << self.city_of[tile];
        }
        // The tile just entered.
        if s.entry & ENTERED != 0 && s.current != NONE {
            let here = s.loco[usize::from(s.current)];
            let tile = 1u64 << here;
            if s.entry & DELIVERED == 0 && self.factories & tile != 0 {
                deliveries += 1;
                reachable |= 1u64 << self.factory_of[usize::from(here)];
            }
            if s.entry & PASSENGER == 0 && self.cities & tile != 0 {
                cities |= 1u64 << self.city_of[usize::from(here)];
            }
        }
        let room =
            s.room.iter().enumerate().filter(|&(c, _)| cities & (1u64 << c) != 0).map(|(_, &r)| i32::from(r)).sum();
        Reach {
            nearest,
            deliveries,
            firsts: (s.first_free & reachable) as u16,
            reachable: reachable as u16,
            room,
            entries: far + here,
        }
    }
}

/// The tiles (bits) of `mask`, each as its index.
fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            i
        })
    })
}

/// What the rest of the turn can reach, by [`Bound::reach`].
struct Reach {
    /// Fewest moves to a tile with a factory, a facility or a station city not yet entered in
    /// its run (`None`: none within reach).
    nearest: Option<usize>,
    /// Deliveries (each run once at each factory it can reach, and the tile just entered).
    deliveries: usize,
    /// Factories within reach whose first space is free (bits by factory).
    firsts: u16,
    /// Factories within reach (bits by factory).
    reachable: u16,
    /// Passenger room in the station cities within reach.
    room: i32,
    /// Most entries onto tiles.
    entries: usize,
}

/// The most the end of the turn brings with `held` resources at weight `w` each, over a storage
/// limit of `limit`: each converted into a dividend when that is worth more than keeping it,
/// else each over the limit converted or discarded.
fn end(w: i32, limit: i32, held: i32) -> i32 {
    if w <= 1 { held * (1 - w) } else { (held - limit).max(0) * (1 - w) }
}

/// The kinds of entry onto the `factories` (index, resources needed, the two spaces' points, a
/// facility on the same tile) at resource weight `w`, the best objective cube worth `cube`, a
/// stock space worth `u`; `None` if a delivery took nothing but raised coal (a cycle of entries
/// that gain: no factory needs nothing).
fn entries_of(factories: &[(u8, i32, u8, u8, bool)], w: i32, cube: i32, u: i32) -> Option<Vec<Entry>> {
    let mut kinds: Vec<Entry> = Vec::new();
    for &(factory, count, a, b, facility) in factories {
        let extra = i32::from(count >= 2) + if count >= 3 { cube } else { 0 } - w * count;
        for (first, points) in [(true, i32::from(a) + 2 * u), (false, i32::from(b) + u)] {
            kinds.push(Entry { factory, takes: count, raises: 0, gain: points + extra, first });
            if facility {
                kinds.push(Entry { factory, takes: count - 1, raises: 1, gain: points + extra + w, first });
            }
        }
    }
    (!kinds.iter().any(|e| e.takes < 0 || (e.takes == 0 && e.raises > 0))).then_some(kinds)
}

impl Bound {
    /// The most `entries` entries, `held` resources and `coal` coal still to raise can bring,
    /// delivering only to the factories `reachable`, taking the first spaces of `firsts` at most,
    /// with at most `deliveries` deliveries ([`MANY`]: no limit), a stock space worth
    /// `space + 1`.
    #[allow(clippy::too_many_arguments)]
    fn cell(
        &mut self,
        space: usize,
        firsts: u16,
        reachable: u16,
        deliveries: usize,
        entries: usize,
        held: usize,
        coal: usize,
    ) -> i32 {
        let i = at(space, firsts, reachable, deliveries, entries, held, coal);
        if let Some(&v) = self.cells.get(&i) {
            return v;
        }
        self.line(space, firsts, reachable, deliveries, entries + held, entries + coal);
        self.cells.get(&i).copied().unwrap_or(UNBOUNDED)
    }

    /// Computes the cells of one line: a level (entries plus resources held, which pickups and
    /// coal keep and deliveries lower) and the entries plus coal (which pickups and coal keep).
    fn line(&mut self, space: usize, firsts: u16, reachable: u16, deliveries: usize, level: usize, line: usize) {
        let w = self.resource;
        let less = if deliveries == MANY { MANY } else { deliveries.saturating_sub(1) };
        let cells: Vec<(usize, usize, usize)> = (0..=ENTRIES.min(level).min(line))
            .filter(|&e| level - e <= HELD && line - e <= ENTRIES)
            .map(|e| (e, level - e, line - e))
            .collect();
        let count = self.kinds.as_ref().map_or(0, |k| k[space].len());
        let mut base = Vec::with_capacity(cells.len());
        for &(e, r, q) in &cells {
            let mut best = end(w, self.limit, r as i32);
            if e > 0 && deliveries > 0 {
                for k in 0..count {
                    let Some(kind) = self.kinds.as_ref().map(|kinds| kinds[space][k]) else { continue };
                    let bit = 1u16 << kind.factory;
                    if reachable & bit == 0 || (kind.first && firsts & bit == 0) {
                        continue;
                    }
                    let (r2, q2) = (r as i32 - kind.takes, q + kind.raises as usize);
                    if r2 < 0 || q2 > ENTRIES {
                        continue;
                    }
                    let f = if kind.first { firsts & !bit } else { firsts };
                    best = best.max(kind.gain + self.cell(space, f, reachable, less, e - 1, r2 as usize, q2));
                }
            }
            base.push(best);
        }
        // Pickups lower the entries by one and raise the rest; coal the other way.
        let mut up = base.clone();
        if self.pickups {
            for i in 1..up.len() {
                up[i] = up[i].max(up[i - 1].saturating_add(w));
            }
        }
        let mut down = base;
        for i in (0..down.len().saturating_sub(1)).rev() {
            down[i] = down[i].max(down[i + 1].saturating_sub(w));
        }
        for (i, &(e, r, q)) in cells.iter().enumerate() {
            self.cells.insert(at(space, firsts, reachable, deliveries, e, r, q), up[i].max(down[i]));
        }
    }
}
