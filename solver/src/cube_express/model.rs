//! The integer program of one turn, for a given lay: a time-expanded network of the locomotives'
//! moves (one unit of flow per locomotive run, one layer per movement point) with the resources,
//! reserve, dividends and movement points tracked along the turn's timeline, and every trade
//! point of ruling S3 (`docs/rules/cube-express.md`) as integer variables. Its optimum is the
//! best plan of the turn with that lay; [`TurnModel::plan`] reads the plan back as engine actions.
//!
//! The timeline: trades, the lay (with a station's payment as variables), then two locomotive
//! runs (the first run's locomotive finishes before the second moves), each step being a trade
//! point, a move, a trade point, a pickup, a trade point, a delivery, a trade point, a passenger;
//! then trades, the market, and the discard down to the storage limit.

use std::collections::HashMap;

use good_lp::{Expression, Variable};
use signalbox_engine::cube_express::action::{Action, Lay, Payment};
use signalbox_engine::cube_express::board::{Board, Piece, Placed};
use signalbox_engine::cube_express::catalogue::COLUMNS;
use signalbox_engine::cube_express::game::{Game, OBJECTIVE_LIMIT, TOKEN_VP, TRACK_STATIONS};
use signalbox_engine::cube_express::options::{CrossingDividends, Passengers, StationPayment};
use signalbox_engine::cube_express::resource::{Conversion, Resource, Resources};
use signalbox_engine::cube_express::tile::{Centre, Factory};
use signalbox_engine::grid::square::Cell;

use super::lp::{Kind, Program, Solved};
use super::value::{Weights, objective_weights};

/// Where a locomotive run starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    /// An existing locomotive (0 or 1) where it stands.
    Loco(u8),
    /// The second locomotive, built on this station.
    New(Cell),
}

/// The variables of one trade point (two rounds of conversions, building the second locomotive,
/// coal for movement points).
#[derive(Clone, Debug, Default)]
struct TradePoint {
    conv: Vec<[Option<Variable>; 4]>,
    build: Option<Variable>,
    coal: Option<Variable>,
}

#[derive(Clone, Debug, Default)]
struct Step {
    before_move: TradePoint,
    pickup: Vec<(Resource, Variable)>,
    before_deliver: TradePoint,
    deliver: Vec<(usize, Variable)>,
    objective: Vec<(u8, Variable)>,
    passenger: Vec<(usize, Variable)>,
}

#[derive(Clone, Debug, Default)]
struct Run {
    sources: Vec<(Source, Variable)>,
    /// (source index, tiles entered in order, variable).
    paths: Vec<(usize, Vec<usize>, Variable)>,
    steps: Vec<Step>,
}

/// Running quantities along the timeline, as expressions in the program's variables.
#[derive(Clone)]
struct Ledger {
    store: [Expression; 3],
    reserve: Expression,
    dividends: Expression,
    coal_spent: Expression,
    moves: Expression,
}

impl Ledger {
    /// Names every running quantity ([`Program::name`]), so that the rows after this point of
    /// the timeline repeat one variable each instead of every term so far.
    fn settle(&mut self, prog: &mut Program) {
        let Ledger { store, reserve, dividends, coal_spent, moves } = self;
        for e in store.iter_mut().chain([reserve, dividends, coal_spent, moves]) {
            *e = prog.name(std::mem::take(e));
        }
    }
}

/// The fewest steps from any of `starts` to each node along `next` (each node's successors);
/// `usize::MAX` when none.
pub(crate) fn distances(next: &[Vec<usize>], starts: impl IntoIterator<Item = usize>) -> Vec<usize> {
    let mut dist = vec![usize::MAX; next.len()];
    let mut queue = std::collections::VecDeque::new();
    for u in starts {
        if dist[u] == usize::MAX {
            dist[u] = 0;
            queue.push_back(u);
        }
    }
    while let Some(u) = queue.pop_front() {
        for &v in &next[u] {
            if dist[v] == usize::MAX {
                dist[v] = dist[u] + 1;
                queue.push_back(v);
            }
        }
    }
    dist
}

fn ri(r: Resource) -> usize {
    match r {
        Resource::Coal => 0,
        Resource::Wood => 1,
        Resource::Iron => 2,
    }
}

/// A factory on the board after the lay.
#[derive(Clone, Copy, Debug)]
struct FactorySite {
    cell: usize,
    factory: Factory,
    first_free: bool,
}

/// The integer program of one turn with a given lay.
pub struct TurnModel {
    program: Program,
    objective: Expression,
    reader: Reader,
    /// Value added by the lay that the variables do not carry (stations, city growth, tokens).
    pub constant: i32,
    /// The program's inputs apart from `constant`: equal signatures, equal programs.
    pub signature: String,
}

/// Facts about a lay the program needs.
struct LayEffect {
    board: Board,
    tech: u8,
    station_vp: i32,
    station_token: bool,
    built_station: bool,
    owns: bool,
}

fn lay_effect(game: &Game, lay: Option<&Lay>) -> Option<LayEffect> {
    let seat = game.active();
    let s = usize::from(seat);
    let mut board = game.board().clone();
    let mut effect = LayEffect {
        board: board.clone(),
        tech: game.tech_level(s),
        station_vp: 0,
        station_token: false,
        built_station: false,
        owns: false,
    };
    let Some(lay) = lay else { return Some(effect) };
    let face = game.lay_face(lay)?;
    let growth = board.check_lay(lay.cell, &face).ok()?;
    let piece = if lay.back {
        Piece::Back { tile: lay.tile, rotation: lay.rotation }
    } else {
        Piece::Front { tile: lay.tile, rotation: lay.rotation }
    };
    let mut placed = Placed::new(lay.cell, piece, face, Some(seat));
    if let Some(g) = growth
        && g.station == Some(seat)
    {
        effect.station_vp += g.station_gain();
    }
    if lay.act {
        match face.centre? {
            Centre::Station => {
                let p = &game.players()[s];
                if p.built >= TRACK_STATIONS || growth.is_some_and(|g| g.station.is_some()) {
                    return None;
                }
                placed.station = Some(seat);
                effect.built_station = true;
                effect.station_vp += 3 * i32::from(growth.map_or(0, |g| g.houses));
                effect.tech = game.content().levels[usize::from(p.built + 1)];
                effect.station_token = p.built + 1 == TRACK_STATIONS && game.tokens_left() > 0;
            }
            Centre::Production => {
                placed.owner = Some(seat);
                effect.owns = true;
            }
            Centre::Crossing | Centre::Factory(_) => {}
        }
    }
    board.put(placed);
    effect.board = board;
    Some(effect)
}

impl TurnModel {
    /// The program of the turn of the player to move in `game` (at the start of a turn) with
    /// `lay` (`None`: no tile fits). `None` when the lay itself is impossible.
    pub fn new(game: &Game, lay: Option<&Lay>, weights: &Weights) -> Option<TurnModel> {
        let seat = usize::from(game.active());
        let me = &game.players()[seat];
        let effect = lay_effect(game, lay)?;
        let board = &effect.board;
        let mut prog = Program::new();
        let mut objective = Expression::from(0.0);
        let mut constant = effect.station_vp;
        let int = |n: u32| Kind::Integer(n);

        let store0 = me.store;
        let mut led = Ledger {
            store: [f64::from(store0.coal).into(), f64::from(store0.wood).into(), f64::from(store0.iron).into()],
            reserve: f64::from(me.reserve).into(),
            dividends: f64::from(me.dividends).into(),
            coal_spent: 0.0.into(),
            moves: 0.0.into(),
        };
        let dividends0 = f64::from(me.dividends);

        // Trades before the lay, then a stock sale (after the conversions, which may free reserve).
        let mut held = u32::from(store0.total());
        let centre = lay.filter(|l| l.act).and_then(|l| game.lay_face(l)).and_then(|f| f.centre);
        let every_order =
            centre == Some(Centre::Station) && game.options().station_payment == StationPayment::DividendsOnly;
        let pre =
            trade_point(&mut prog, &mut led, Spec { held, convert: true, build: false, coal: false, every_order });
        // A sale before the lay pays for the lay's action, or lowers the disc so that rises near
        // the maximum are not wasted; any other sale may as well wait for the end (ruling S3).
        let need = match lay.filter(|l| l.act).and_then(|l| game.lay_face(l)).and_then(|f| f.centre) {
            Some(Centre::Station) => usize::from(game.content().levels[usize::from(me.built.min(TRACK_STATIONS))]),
            Some(Centre::Production) => 1,
            _ => 0,
        };
        let factories_after = effect.board.tiles().iter().filter(|t| t.face.factory.is_some()).count();
        let capped = (usize::from(me.stock) + 4 * factories_after).saturating_sub(usize::from(game.track().max()));
        let sale_pre_max = (need + capped).min(usize::from(me.stock));
        let sale_pre = prog.var(int(sale_pre_max as u32));
        led.reserve -= sale_pre;
        led.dividends += sale_pre;
        prog.geq(led.reserve.clone(), 0.0);

        // The lay's centre action.
        let mut pay = None;
        match centre {
            Some(Centre::Crossing) => {
                let l = lay?;
                let face = game.lay_face(l)?;
                let tracks = match game.options().crossing_dividends {
                    CrossingDividends::AllTracks => face.tracks.len(),
                    CrossingDividends::JoinedTracks => {
                        face.tracks.iter().filter(|&s| game.board().at(l.cell.step(s)).is_some()).count()
                    }
                } as f64;
                // Exactly min(2 per track, reserve).
                let got = prog.var(int(2 * 4));
                let short = prog.var(Kind::Binary);
                prog.leq(Expression::from(got), 2.0 * tracks);
                prog.leq(Expression::from(got), led.reserve.clone());
                prog.geq(Expression::from(got), 2.0 * tracks - 30.0 * short);
                prog.geq(Expression::from(got), led.reserve.clone() - 30.0 * (1.0 - short));
                led.reserve -= got;
                led.dividends += got;
            }
            Some(Centre::Factory(r)) => {
                held += 1;
                led.reserve -= 1.0;
                prog.geq(led.reserve.clone(), 0.0);
                led.store[ri(r)] += 1.0;
            }
            Some(Centre::Production) => {
                led.dividends -= 1.0;
                prog.geq(led.dividends.clone(), 0.0);
            }
            Some(Centre::Station) => {
                let cost = f64::from(game.content().levels[usize::from(me.built)]);
                let only_dividends = game.options().station_payment == StationPayment::DividendsOnly;
                let vars = [prog.var(int(30)), prog.var(int(30)), prog.var(int(30)), prog.var(int(30))];
                let mut total = Expression::from(0.0);
                for &v in &vars {
                    total += v;
                }
                prog.eq(total, cost);
                led.dividends -= vars[0];
                prog.geq(led.dividends.clone(), 0.0);
                for r in 0..3 {
                    led.store[r] -= vars[r + 1];
                    prog.geq(led.store[r].clone(), 0.0);
                    if only_dividends {
                        prog.eq(Expression::from(vars[r + 1]), 0.0);
                    }
                }
                led.reserve += cost;
                pay = Some(vars);
            }
            None => {}
        }
        if effect.station_token {
            constant += TOKEN_VP;
        }

        // The network after the lay.
        let cells: Vec<Cell> = board.tiles().iter().map(|t| t.cell).collect();
        let index: HashMap<Cell, usize> = cells.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        // Each tile's successors (the tiles its exits lead to), and its predecessors.
        let next: Vec<Vec<usize>> = cells.iter().map(|&c| board.exits(c).map(|n| index[&n]).collect()).collect();
        let mut previous: Vec<Vec<usize>> = vec![Vec::new(); cells.len()];
        for (u, out) in next.iter().enumerate() {
            for &v in out {
                previous[v].push(u);
            }
        }
        let own_stations: Vec<Cell> =
            board.tiles().iter().filter(|t| t.station == Some(seat as u8)).map(|t| t.cell).collect();
        let mut sources: Vec<Source> = Vec::new();
        for (l, loco) in me.locomotives.iter().enumerate() {
            if loco.is_some() {
                sources.push(Source::Loco(l as u8));
            }
        }
        if me.locomotives[1].is_none() {
            sources.extend(own_stations.iter().map(|&c| Source::New(c)));
        }
        let source_cell = |s: Source| match s {
            Source::Loco(l) => me.locomotives[usize::from(l)].map(|c| index[&c]),
            Source::New(c) => Some(index[&c]),
        };
        // Distance from the nearest source, to drop moves no run can reach in time.
        let dist = distances(&next, sources.iter().filter_map(|&s| source_cell(s)));
        // What each tile offers.
        let tiles = board.tiles();
        let factories: Vec<FactorySite> = tiles
            .iter()
            .enumerate()
            .filter_map(|(i, t)| {
                t.face.factory.map(|f| FactorySite { cell: i, factory: f, first_free: t.first.is_none() })
            })
            .collect();
        let cities = board.cities();
        let passengers_on = game.options().passengers == Passengers::StationCities;
        let city_room: Vec<i64> = (0..cities.houses.len())
            .map(|c| {
                if passengers_on && cities.station[c].is_some() {
                    i64::from(cities.houses[c]) - i64::from(cities.passengers[c])
                } else {
                    0
                }
            })
            .collect();
        let ow = objective_weights(game, seat);
        let mut cubes: [Expression; COLUMNS] = std::array::from_fn(|c| f64::from(game.objective_cubes(c)[seat]).into());
        let objective_cubes0 = cubes.clone();
        let card_can_fill = (0..COLUMNS)
            .all(|c| usize::from(game.objective_cubes(c)[seat]) + 2 * factories.len() >= usize::from(OBJECTIVE_LIMIT));

        // Locomotive runs.
        let mut runs: Vec<Run> = Vec::new();
        let mut news: Expression = 0.0.into();
        let mut builds: Vec<Variable> = Vec::new();
        let mut deliveries: Vec<Vec<Variable>> = vec![Vec::new(); factories.len()];
        let mut passengers_total: Expression = 0.0.into();
        let mut city_use: Vec<Expression> = vec![0.0.into(); cities.houses.len()];
        // The resource the lay's factory centre gives, if any.
        let centre_gives = match centre {
            Some(Centre::Factory(r)) => Some(r),
            _ => None,
        };
        // Building needs a coal and an iron, which conversions can make from any resources:
        // possible when the turn can hold two resources at once.
        let facilities =
            tiles.iter().enumerate().filter(|(i, t)| t.face.production.is_some() && dist[*i] < cells.len()).count();
        let two_resources = usize::from(store0.total()) + usize::from(centre_gives.is_some()) + 2 * facilities >= 2;
        let can_build = me.locomotives[1].is_none() && !own_stations.is_empty() && two_resources;
        let run_count = if me.locomotives[1].is_some() || can_build { 2 } else { 1 };
        // Moves are paid by the technology level and by coal. Coal comes from storage, the lay,
        // at most one pickup per facility in reach per run, and conversions (2 wood into 1 coal,
        // 2 iron into 1 wood), so the turn has at most this many moves.
        let gives = |r: Resource| usize::from(centre_gives == Some(r));
        let mut horizon = usize::from(effect.tech);
        loop {
            let reach = |r: Resource| {
                run_count
                    * tiles
                        .iter()
                        .enumerate()
                        .filter(|(i, t)| t.face.production == Some(r) && dist[*i] <= horizon)
                        .count()
            };
            let iron = usize::from(store0.iron) + gives(Resource::Iron) + reach(Resource::Iron);
            let wood = usize::from(store0.wood) + gives(Resource::Wood) + reach(Resource::Wood) + iron / 2;
            let coal = usize::from(store0.coal) + gives(Resource::Coal) + reach(Resource::Coal) + wood / 2;
            let next = (usize::from(effect.tech) + coal).min(cells.len().saturating_sub(1));
            if next <= horizon {
                horizon = next;
                break;
            }
            horizon = next;
        }
        // How far each tile is from the nearest thing to do (a facility, a factory, a city with
        // room for a passenger): a move that cannot reach one in time gains nothing.
        let features = tiles.iter().enumerate().filter(|&(i, t)| {
            t.face.production.is_some()
                || t.face.factory.is_some()
                || cities.city_of[i].is_some_and(|c| city_room[c] > 0)
        });
        let to_feature = distances(&previous, features.map(|(i, _)| i));
        // Whether the reserve can run short before the end of step II; if not, trades before
        // pickups and passengers are never needed (ruling S3) and are left out. Before then the
        // reserve pays for a stock sale before the lay (only to pay for the lay's action), the
        // crossing's dividends or the factory centre's resource, one pickup per facility in
        // reach per run, and the passengers the cities in reach have room for.
        let centre_take = match centre {
            Some(Centre::Crossing) => 8,
            Some(Centre::Factory(_)) => 1,
            _ => 0,
        };
        let pickups_max = run_count
            * tiles.iter().enumerate().filter(|(i, t)| t.face.production.is_some() && dist[*i] <= horizon).count();
        let passengers_max: i64 = (0..cities.houses.len())
            .filter(|&c| (0..tiles.len()).any(|i| cities.city_of[i] == Some(c) && dist[i] <= horizon))
            .map(|c| city_room[c].max(0))
            .sum();
        let consumption = sale_pre_max + centre_take + pickups_max + passengers_max as usize;
        let tight = usize::from(me.reserve) < consumption;
        let tech = usize::from(effect.tech);
        if !can_build {
            sources.retain(|s| matches!(s, Source::Loco(_)));
        }
        for r in 0..run_count {
            let mut run = Run::default();
            let mut chosen: Expression = 0.0.into();
            for &s in &sources {
                let v = prog.var(Kind::Binary);
                chosen += v;
                if let Source::New(_) = s {
                    news += v;
                }
                run.sources.push((s, v));
            }
            prog.leq(chosen, 1.0);
            // Every simple path a run can take that ends on a tile with something to do.
            for (si, &(src, sv)) in run.sources.clone().iter().enumerate() {
                let Some(start) = source_cell(src) else { continue };
                let mut stack: Vec<Vec<usize>> = vec![vec![start]];
                while let Some(path) = stack.pop() {
                    let here = *path.last().unwrap_or(&start);
                    if path.len() > 1 && to_feature[here] == 0 {
                        let z = prog.var(Kind::Binary);
                        run.paths.push((si, path[1..].to_vec(), z));
                    }
                    if path.len() > horizon {
                        continue;
                    }
                    for &b in &next[here] {
                        if !path.contains(&b) && to_feature[b].saturating_add(path.len()) <= horizon {
                            let mut longer = path.clone();
                            longer.push(b);
                            stack.push(longer);
                        }
                    }
                }
                let mut from_here: Expression = 0.0.into();
                for &(i, _, z) in &run.paths {
                    if i == si {
                        from_here += z;
                    }
                }
                prog.leq(from_here, sv);
            }
            // No step beyond the longest path.
            let steps = run.paths.iter().map(|(_, p, _)| p.len()).max().unwrap_or(0).max(1);
            for tau in 0..steps.min(horizon) {
                let mut step = Step::default();
                let build_here = can_build && ((r == 0 && (tau == 0 || tight)) || (r == 1 && tau == 0));
                let coal_here = r == 1 || tau >= tech || tight;
                let spec = Spec {
                    held,
                    convert: coal_here || build_here,
                    build: build_here,
                    coal: coal_here,
                    every_order: false,
                };
                step.before_move = trade_point(&mut prog, &mut led, spec);
                builds.extend(step.before_move.build);
                let build_before_move = step.before_move.build;
                let mut moved: Expression = 0.0.into();
                let mut into: Vec<Expression> = vec![0.0.into(); cells.len()];
                for &(_, ref path, z) in &run.paths {
                    if let Some(&v) = path.get(tau) {
                        moved += z;
                        into[v] += z;
                    }
                }
                led.moves += moved.clone();
                prog.leq(led.moves.clone(), led.coal_spent.clone() + f64::from(effect.tech));
                // Trades before a move serve that move (coal) or the locomotive built for it.
                let mut serves = moved.clone();
                if let Some(b) = build_before_move {
                    serves += b;
                }
                gate(&mut prog, &step.before_move, serves, held);
                if !tight && let Some(c) = step.before_move.coal {
                    prog.leq(Expression::from(c), moved.clone());
                }

                // Pickup.
                for res in Resource::ALL {
                    let mut here: Expression = 0.0.into();
                    let mut any = false;
                    for (v, t) in tiles.iter().enumerate() {
                        if t.face.production == Some(res) && dist[v] <= tau + 1 {
                            here += into[v].clone();
                            any = true;
                        }
                    }
                    if any {
                        let p = prog.var(Kind::Binary);
                        prog.leq(Expression::from(p), here);
                        led.store[ri(res)] += p;
                        led.reserve -= p;
                        step.pickup.push((res, p));
                    }
                }
                held += u32::from(!step.pickup.is_empty());
                prog.geq(led.reserve.clone(), 0.0);

                // Passenger.
                for (c, &room) in city_room.iter().enumerate() {
                    if room <= 0 {
                        continue;
                    }
                    let mut here: Expression = 0.0.into();
                    let mut any = false;
                    for (v, _) in tiles.iter().enumerate() {
                        if cities.city_of[v] == Some(c) && dist[v] <= tau + 1 {
                            here += into[v].clone();
                            any = true;
                        }
                    }
                    if any {
                        let p = prog.var(Kind::Binary);
                        prog.leq(Expression::from(p), here);
                        led.reserve -= p;
                        passengers_total += p;
                        city_use[c] += p;
                        step.passenger.push((c, p));
                    }
                }
                prog.geq(led.reserve.clone(), 0.0);

                // Delivery.
                if factories.iter().any(|f| dist[f.cell] <= tau + 1) {
                    let spec = Spec {
                        held,
                        convert: true,
                        build: can_build && r == 0 && tight,
                        coal: tight,
                        every_order: false,
                    };
                    step.before_deliver = trade_point(&mut prog, &mut led, spec);
                }
                builds.extend(step.before_deliver.build);
                let mut cube_due: Expression = 0.0.into();
                for (f, site) in factories.iter().enumerate() {
                    if dist[site.cell] > tau + 1 {
                        continue;
                    }
                    let d = prog.var(Kind::Binary);
                    prog.leq(Expression::from(d), into[site.cell].clone());
                    let needs = site.factory.needs;
                    for res in Resource::ALL {
                        led.store[ri(res)] -= f64::from(needs.get(res)) * d;
                    }
                    let n = needs.total();
                    if n >= 2 {
                        led.dividends += d;
                    }
                    if n >= 3 {
                        cube_due += d;
                    }
                    step.deliver.push((f, d));
                    deliveries[f].push(d);
                }
                let mut delivered: Expression = 0.0.into();
                for &(_, d) in &step.deliver {
                    delivered += d;
                }
                gate(&mut prog, &step.before_deliver, delivered, held);
                for res in 0..3 {
                    prog.geq(led.store[res].clone(), 0.0);
                }
                if !step.deliver.is_empty() && game.is_solo() {
                    // No objective cards in a solitaire game: the cube returns to the reserve
                    // (ruling O1).
                    led.reserve += cube_due;
                } else if !step.deliver.is_empty() {
                    // The objective cube: compulsory on a card with room; skipped only when none
                    // has, and then it returns to the reserve (ruling D1). No card fills up
                    // this turn unless every card can reach the limit with one cube per
                    // delivery a run can make.
                    let skip = card_can_fill.then(|| prog.var(Kind::Binary));
                    let mut placed: Expression = 0.0.into();
                    if let Some(skip) = skip {
                        led.reserve += skip;
                        placed += skip;
                    }
                    for (c, on_card) in cubes.iter_mut().enumerate() {
                        if let Some(skip) = skip {
                            let room = f64::from(OBJECTIVE_LIMIT) - on_card.clone();
                            prog.leq(room, f64::from(OBJECTIVE_LIMIT) * (1.0 - skip));
                        }
                        let o = prog.var(Kind::Binary);
                        *on_card += o;
                        prog.leq(on_card.clone(), f64::from(OBJECTIVE_LIMIT));
                        placed += o;
                        step.objective.push((c as u8, o));
                    }
                    prog.eq(placed, cube_due.clone());
                    if let Some(skip) = skip {
                        prog.leq(Expression::from(skip), cube_due);
                    }
                }

                run.steps.push(step);
            }
            runs.push(run);
        }
        // Each locomotive runs at most once; the new one is built once, before it moves.
        for &s in &sources {
            if let Source::Loco(_) = s {
                let mut uses: Expression = 0.0.into();
                for run in &runs {
                    for &(t, v) in &run.sources {
                        if t == s {
                            uses += v;
                        }
                    }
                }
                prog.leq(uses, 1.0);
            }
        }
        prog.leq(news.clone(), 1.0);
        let mut built: Expression = 0.0.into();
        for &b in &builds {
            built += b;
        }
        prog.eq(built, news.clone());
        if can_build {
            // The first run's new locomotive is built before its first move (point 0 of run 0).
            let mut new_first: Expression = 0.0.into();
            for &(s, v) in &runs[0].sources {
                if let Source::New(_) = s {
                    new_first += v;
                }
            }
            if let Some(b) = runs[0].steps.first().and_then(|s| s.before_move.build) {
                prog.geq(Expression::from(b), new_first);
            } else {
                prog.eq(new_first, 0.0);
            }
        }
        for (c, e) in city_use.into_iter().enumerate() {
            if city_room[c] > 0 {
                prog.leq(e, city_room[c] as f64);
            }
        }

        // End of step II: trades and a stock sale.
        let end = trade_point(
            &mut prog,
            &mut led,
            Spec { held, convert: true, build: false, coal: true, every_order: false },
        );
        let max = game.track().max();
        // A sale at the end gains a dividend per space and loses the points between the spaces;
        // with no space worth less than the one below by under a point, only one space is ever
        // worth selling (to pay for the market's cube).
        let vps = &game.track().vp;
        let steep = vps.windows(2).all(|w| w[1] > w[0]);
        let sale_end_max = if steep { 1 } else { usize::from(max) };
        let sale_end = prog.var(int(sale_end_max as u32));
        led.reserve -= sale_end;
        led.dividends += sale_end;
        prog.geq(led.reserve.clone(), 0.0);

        // The stock value track.
        let mut rise: Expression = 0.0.into();
        let mut factory_points: Expression = 0.0.into();
        for (f, site) in factories.iter().enumerate() {
            if deliveries[f].is_empty() {
                continue;
            }
            let mut count: Expression = 0.0.into();
            for &d in &deliveries[f] {
                count += d;
            }
            let (a, b) = (f64::from(site.factory.a), f64::from(site.factory.b));
            if site.first_free {
                let g = prog.var(Kind::Binary);
                prog.leq(Expression::from(g), count.clone());
                prog.leq(count.clone(), deliveries[f].len() as f64 * g);
                rise += 2.0 * g + (count.clone() - g);
                factory_points += a * g + b * (count - g);
            } else {
                rise += count.clone();
                factory_points += b * count;
            }
        }
        let s0 = usize::from(me.stock);
        let max_u = usize::from(max);
        // The most the deliveries can raise the disc. Each delivery raises it 1, and the first
        // to a factory 1 more. Each uses up at least one resource (conversions only ever turn
        // two into one), so there are no more deliveries than resources the turn can hold
        // (storage, the lay's factory centre, the pickups in reach); and a run delivers only at
        // the factories its path enters. A tight window keeps the LP relaxation of the track's
        // points (steeper above the kink, the `$` spaces, the maximum's token) close to the
        // integer optimum, which makes the programs quicker to solve and to cut off.
        let reachable: Vec<usize> = (0..factories.len()).filter(|&f| !deliveries[f].is_empty()).collect();
        let resources_max = usize::from(store0.total()) + usize::from(centre_gives.is_some()) + pickups_max;
        let deliveries_max = resources_max.min(run_count * reachable.len());
        let firsts = reachable.iter().filter(|&&f| factories[f].first_free).count();
        let path_rise = |path: &[usize]| -> usize {
            factories.iter().filter(|f| path.contains(&f.cell)).map(|f| if f.first_free { 2 } else { 1 }).sum()
        };
        let runs_rise: usize =
            runs.iter().map(|run| run.paths.iter().map(|(_, p, _)| path_rise(p)).max().unwrap_or(0)).sum();
        let rise_max: usize = (deliveries_max + firsts.min(deliveries_max)).min(runs_rise);
        prog.leq(rise.clone(), rise_max as f64);
        // The disc's highest space this turn, and its last: a window around the start (a sale
        // before the lay, the rises of the deliveries in reach, a sale at the end).
        let top = (s0 + rise_max).min(max_u);
        let low = s0.saturating_sub(sale_pre_max);
        let bottom = low.saturating_sub(sale_end_max);
        let peak: Vec<(usize, Variable)> = (low..=top).map(|v| (v, prog.var(Kind::Binary))).collect();
        let finish: Vec<(usize, Variable)> = (bottom..=top).map(|v| (v, prog.var(Kind::Binary))).collect();
        let mut one: Expression = 0.0.into();
        let mut at: Expression = 0.0.into();
        let mut one_f: Expression = 0.0.into();
        let mut at_f: Expression = 0.0.into();
        let mut vp: Expression = 0.0.into();
        let vps = &game.track().vp;
        for &(v, x) in &peak {
            one += x;
            at += v as f64 * x;
        }
        for &(v, x) in &finish {
            one_f += x;
            at_f += v as f64 * x;
            vp += f64::from(vps[v]) * x;
        }
        let at_max = peak.iter().find(|&&(v, _)| v == max_u).map(|&(_, x)| x);
        prog.eq(one, 1.0);
        prog.eq(one_f, 1.0);
        match at_max {
            Some(m) => {
                // Rises stop at the maximum.
                let big = rise_max as f64 + 1.0;
                let over = prog.var(int(rise_max as u32 + 1));
                prog.eq(at.clone(), s0 as f64 - sale_pre + rise - over);
                prog.leq(Expression::from(over), big * m);
            }
            None => prog.eq(at.clone(), s0 as f64 - sale_pre + rise),
        }
        prog.eq(at_f, at - sale_end);
        let track = game.track();
        for (i, &d) in track.dollars.iter().enumerate() {
            if me.dollars[i] {
                for &(v, x) in &peak {
                    if v >= usize::from(d) {
                        led.dividends += x;
                    }
                }
            }
        }
        let tokens_after_station = game.tokens_left().saturating_sub(u8::from(effect.station_token));
        let max_token = !me.reached_max && tokens_after_station > 0;

        // Market.
        let mut market = Vec::new();
        let display = game.display();
        let market_open = !game.in_final_round() && display.iter().any(Option::is_some);
        let market_slot = if market_open { display.iter().position(Option::is_some).map(|s| s as u8) } else { None };
        if market_open {
            let mut any: Expression = 0.0.into();
            for (slot, d) in display.iter().enumerate() {
                if d.is_some() {
                    let m = prog.var(Kind::Binary);
                    any += m;
                    cubes[slot] += m;
                    prog.leq(cubes[slot].clone(), f64::from(OBJECTIVE_LIMIT));
                    led.dividends -= m;
                    market.push((slot as u8, m));
                }
            }
            prog.leq(any, 1.0);
            prog.geq(led.dividends.clone(), 0.0);
        }

        // Storage limit.
        let discard = [prog.var(int(60)), prog.var(int(60)), prog.var(int(60))];
        let mut held: Expression = 0.0.into();
        for (stored, &thrown) in led.store.iter().zip(&discard) {
            let kept = stored.clone() - thrown;
            prog.geq(kept.clone(), 0.0);
            held += kept;
        }
        prog.leq(held.clone(), f64::from(effect.tech));

        // The value (super::value::value, term by term).
        objective += led.dividends.clone() - dividends0;
        objective += factory_points;
        objective += passengers_total;
        objective += vp - f64::from(game.track().vp[usize::from(me.stock)]);
        if max_token && let Some(m) = at_max {
            objective += f64::from(TOKEN_VP) * m;
        }
        for c in 0..COLUMNS {
            objective += f64::from(ow[c]) * (cubes[c].clone() - objective_cubes0[c].clone());
        }
        objective += f64::from(weights.resource) * (held - f64::from(store0.total()));
        objective += f64::from(weights.locomotive) * news;
        if effect.owns {
            constant += weights.facility;
        }
        if effect.built_station {
            constant += weights.technology * (i32::from(effect.tech) - i32::from(game.tech_level(seat)));
        }
        objective += f64::from(constant);

        // Everything the program depends on but the constant, in a canonical form: two lays with
        // the same signature have the same best movements, trades and market.
        let mut signature = format!(
            "{:?}|{}|{}|{}|{}|{}|{}|{}|",
            centre.map(|c| match c {
                Centre::Crossing =>
                    format!("crossing{}", lay.and_then(|l| game.lay_face(l)).map_or(0, |f| f.tracks.len())),
                other => format!("{other:?}"),
            }),
            effect.tech,
            effect.station_token,
            sale_pre_max,
            horizon,
            run_count,
            can_build,
            tight
        );
        let mut seen: Vec<usize> = Vec::new();
        for run in &runs {
            for &(si, ref path, _) in &run.paths {
                signature.push_str(&format!("{:?}>", run.sources[si].0));
                for &v in path {
                    signature.push_str(&format!("{},{};", cells[v].x, cells[v].y));
                    if !seen.contains(&v) {
                        seen.push(v);
                    }
                }
                signature.push('/');
            }
        }
        seen.sort_unstable();
        for v in seen {
            let t = &tiles[v];
            let city = cities.city_of[v].map(|c| {
                let first = (0..tiles.len()).find(|&i| cities.city_of[i] == Some(c)).map(|i| cells[i]);
                (first, city_room[c])
            });
            signature.push_str(&format!(
                "{:?}{:?}{:?}{:?}{:?}|",
                cells[v],
                t.face.production,
                t.face.factory,
                t.first.is_none(),
                city
            ));
        }
        signature.push_str(&format!("{own_stations:?}"));
        let reader =
            Reader { lay: lay.copied(), pre, sale_pre, pay, runs, end, sale_end, market, market_slot, discard, cells };
        Some(TurnModel { program: prog, objective, reader, constant, signature })
    }

    /// The LP relaxation of the program and its objective, to bound the best value with this
    /// lay from above.
    pub fn relaxation(&self) -> (Program, Expression) {
        (self.program.relaxation(), self.objective.clone())
    }

    /// The program and its objective, to solve.
    pub fn into_program(self) -> (Program, Expression, Reader) {
        (self.program, self.objective, self.reader)
    }
}

/// Reads a solution of a [`TurnModel`] back as the turn's actions.
pub struct Reader {
    lay: Option<Lay>,
    pre: TradePoint,
    sale_pre: Variable,
    pay: Option<[Variable; 4]>,
    runs: Vec<Run>,
    end: TradePoint,
    sale_end: Variable,
    market: Vec<(u8, Variable)>,
    market_slot: Option<u8>,
    discard: [Variable; 3],
    cells: Vec<Cell>,
}

fn count(s: &Solved, v: Option<Variable>) -> u32 {
    v.map_or(0, |v| s.int(v).max(0) as u32)
}

/// The conversions of one round in an order the engine accepts (each round's inputs were held at
/// its start, so any order works; this one is fixed).
fn trades(s: &Solved, p: &TradePoint, out: &mut Vec<Action>, build_at: Option<Cell>) {
    for round in &p.conv {
        for (k, v) in round.iter().enumerate() {
            for _ in 0..count(s, *v) {
                out.push(Action::Convert { conversion: Conversion::ALL[k] });
            }
        }
    }
    if count(s, p.build) > 0
        && let Some(at) = build_at
    {
        out.push(Action::BuildLocomotive { at });
    }
    for _ in 0..count(s, p.coal) {
        out.push(Action::Coal);
    }
}

impl Reader {
    /// The plan a solution describes, as engine actions.
    pub fn plan(&self, s: &Solved) -> Vec<Action> {
        let mut out = Vec::new();
        trades(s, &self.pre, &mut out, None);
        let k = count(s, Some(self.sale_pre));
        if k > 0 {
            out.push(Action::Sell { spaces: k as u8 });
        }
        match self.lay {
            Some(mut lay) => {
                if let Some(p) = self.pay {
                    let n = |i: usize| count(s, Some(p[i])) as u8;
                    lay.pay = Payment { dividends: n(0), coal: n(1), wood: n(2), iron: n(3) };
                }
                out.push(Action::Lay(lay));
            }
            None => out.push(Action::NoLay),
        }
        // Where the new locomotive is built, if at all.
        let new_at = self.runs.iter().flat_map(|r| r.sources.iter()).find_map(|&(src, v)| match src {
            Source::New(c) if s.int(v) == 1 => Some(c),
            _ => None,
        });
        for run in &self.runs {
            let loco = run.sources.iter().find(|&&(_, v)| s.int(v) == 1).map(|&(src, _)| match src {
                Source::Loco(l) => l,
                Source::New(_) => 1,
            });
            let path: &[usize] =
                run.paths.iter().find(|&&(_, _, z)| s.int(z) == 1).map_or(&[], |(_, p, _)| p.as_slice());
            for (tau, step) in run.steps.iter().enumerate() {
                trades(s, &step.before_move, &mut out, new_at);
                let Some(&to) = path.get(tau) else {
                    // The trade point before a delivery may hold trades even past the run's end.
                    trades(s, &step.before_deliver, &mut out, new_at);
                    continue;
                };
                out.push(Action::Move { locomotive: loco.unwrap_or(0), to: self.cells[to] });
                if step.pickup.iter().any(|&(_, p)| s.int(p) == 1) {
                    out.push(Action::Pickup);
                }
                if step.passenger.iter().any(|&(_, p)| s.int(p) == 1) {
                    out.push(Action::Passenger);
                }
                trades(s, &step.before_deliver, &mut out, new_at);
                if step.deliver.iter().any(|&(_, d)| s.int(d) == 1) {
                    let objective = step.objective.iter().find(|&&(_, o)| s.int(o) == 1).map(|&(c, _)| c);
                    out.push(Action::Deliver { objective });
                }
            }
        }
        trades(s, &self.end, &mut out, new_at);
        let k = count(s, Some(self.sale_end));
        if k > 0 {
            out.push(Action::Sell { spaces: k as u8 });
        }
        match self.market.iter().find(|&&(_, m)| s.int(m) == 1) {
            Some(&(slot, _)) => out.push(Action::Market { slot, cube: true }),
            None => match self.market_slot {
                Some(slot) => out.push(Action::Market { slot, cube: false }),
                None => out.push(Action::NoMarket),
            },
        }
        let n = |i: usize| count(s, Some(self.discard[i])) as u8;
        out.push(Action::End { discard: Resources { coal: n(0), wood: n(1), iron: n(2) } });
        out
    }
}

/// What a trade point may hold, from what the program can know beforehand.
#[derive(Clone, Copy, Debug, Default)]
struct Spec {
    /// An upper bound on the resources held here.
    held: u32,
    /// Whether conversions may help here.
    convert: bool,
    /// Whether the second locomotive may be built here.
    build: bool,
    /// Whether coal may be spent here (step II).
    coal: bool,
    /// Every order of conversions (a round per conversion) instead of two rounds: before a
    /// station's lay paid with dividends only, where chains of conversions (2 coal into a wood,
    /// 2 wood into a coal and a dividend, again) are the way to raise the dividends.
    every_order: bool,
}

/// Adds a trade point at the current place of the timeline: up to two rounds of conversions (or a
/// round per conversion, [`Spec::every_order`])
/// (each round's inputs held at its start; a second round only when a chain is possible),
/// building the second locomotive, and coal spent for movement points. Variables that the bound
/// on resources held rules out are left out.
/// Trades at `point` only when `event` happens (ruling S3: a trade before a locomotive event
/// serves that event). A point holds at most `held` trades (each uses up a resource).
fn gate(prog: &mut Program, point: &TradePoint, event: Expression, held: u32) {
    let mut trades: Expression = 0.0.into();
    let mut any = false;
    for v in point.conv.iter().flatten().flatten().chain(point.build.iter()).chain(point.coal.iter()) {
        trades += *v;
        any = true;
    }
    if any {
        prog.leq(trades, f64::from(held + 1) * event);
    }
}

fn trade_point(prog: &mut Program, led: &mut Ledger, spec: Spec) -> TradePoint {
    led.settle(prog);
    let mut point = TradePoint::default();
    let rounds = match spec.held {
        _ if !spec.convert => 0,
        0 | 1 => 0,
        2 => 1,
        // Each conversion uses up a resource, so at most held - 1 follow one another.
        held if spec.every_order => held - 1,
        _ => 2,
    };
    point.conv = vec![[None; 4]; rounds as usize];
    for round in 0..rounds as usize {
        let start = led.store.clone();
        let mut uses: [Expression; 3] = [0.0.into(), 0.0.into(), 0.0.into()];
        for (k, conversion) in Conversion::ALL.into_iter().enumerate() {
            let (from, to, dividend) = conversion.recipe();
            let v = prog.var(Kind::Integer(spec.held / 2));
            uses[ri(from)] += 2.0 * v;
            led.store[ri(from)] -= 2.0 * v;
            led.store[ri(to)] += v;
            if dividend {
                led.dividends += v;
            } else {
                led.reserve += v;
            }
            point.conv[round][k] = Some(v);
        }
        for r in 0..3 {
            prog.leq(uses[r].clone(), start[r].clone());
        }
    }
    if spec.build && spec.held >= 2 {
        let b = prog.var(Kind::Binary);
        led.store[0] -= b;
        led.store[2] -= b;
        led.reserve += 2.0 * b;
        point.build = Some(b);
    }
    if spec.coal && spec.held >= 1 {
        let c = prog.var(Kind::Integer(spec.held));
        led.store[0] -= c;
        led.reserve += c;
        led.coal_spent += c;
        point.coal = Some(c);
    }
    if rounds > 0 || point.build.is_some() || point.coal.is_some() {
        for r in 0..3 {
            prog.geq(led.store[r].clone(), 0.0);
        }
    }
    point
}
