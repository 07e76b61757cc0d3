//! `express01-route`, the best bonus route: a built board, the company sending off a train and
//! its route length (its issued shares); which route must the train take? (rulebook, "C)
//! Initiate One Bonus Payment": "You have to choose the route that grants the highest possible
//! bonus payment".) Rulings: `docs/rules/express-01.md`, "Puzzles"; the position and the answer
//! words: `docs/formats/puzzles.md`, "express01-route".
//!
//! Two routes are distinct when their station sequences differ and are not each other's reverse
//! (R18). A puzzle's best payout is reached by exactly one distinct route; the runner-up is the
//! best payout of any other distinct route.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use signalbox_engine::express01::card::CardNumber;
use signalbox_engine::express01::catalogue::Catalogue;
use signalbox_engine::express01::network::{Network, StationRef};
use signalbox_engine::express01::position::Position;
use signalbox_engine::express01::route::{Route, RouteRules, RouteScore, RouteTask, Step};
use signalbox_engine::express01::side::{Endpoint, Track};
use signalbox_solver::analysis::Better;
use signalbox_solver::express01::hops::{StateId, StationGraph};
use signalbox_solver::express01::instances::house_position;
use signalbox_solver::express01::{RouteSolution, SearchOptions, best_routes};

use crate::kind::{Kind, Theme};
use crate::puzzle::{Answer, Attempt, Difficulty, Grade, Proof, PuzzleError, Solved, Verdict};

/// The kind `express01-route`.
#[derive(Clone, Copy, Debug, Default)]
pub struct BestRoute;

/// The themes, by name (sorted as they are listed).
const THEMES: &[Theme] = &[
    Theme {
        name: "black-engine",
        description: "The initiator uses the black engine, which does not lengthen the route (see “Issued shares” in docs/rules/express-01.md): one card \
                      more would pay more.",
    },
    Theme {
        name: "double-station",
        description: "The route takes both stations of a double station card (USA; see “Double stations” in docs/rules/express-01.md).",
    },
    Theme {
        name: "long-haul",
        description: "The route travels exactly as many cards as the company's shares allow (see “Route length: what counts” in docs/rules/express-01.md).",
    },
    Theme {
        name: "loop",
        description: "The route runs some station-free track twice: it loops round to turn (see “No reversing” and “Reusing track” in docs/rules/express-01.md).",
    },
    Theme {
        name: "terminal-end",
        description: "The route starts or ends at a station with a single track, which no route can pass \
                      (see “Terminal stations” in docs/rules/express-01.md).",
    },
];

/// The rating thresholds: below `MEDIUM` easy, below `HARD` medium, else hard.
const MEDIUM: f64 = 2.9;
/// See [`MEDIUM`].
const HARD: f64 = 4.2;

/// The most distinct routes the near-best enumeration lists before it gives up on a position.
const MOST_LISTED: usize = 4096;

/// The stations a candidate board must have at least.
const FEWEST_STATIONS: usize = 4;

/// The route lengths a candidate is made with (the company's shares are topped up to a length
/// drawn from these, as far as the spare share cards allow).
const LENGTH: (u32, u32) = (4, 12);

/// The densities of the boards (the chance of each further upgrade stage, see
/// [`house_position`]).
const DENSITY: (f64, f64) = (0.8, 1.0);

/// The least best payout of a candidate.
const LEAST_PAYOUT: u32 = 4;

fn house() -> &'static Catalogue {
    static HOUSE: OnceLock<Catalogue> = OnceLock::new();
    HOUSE.get_or_init(Catalogue::house)
}

/// A position of the kind, read and checked: the board, the payment and the route task.
struct Board {
    position: Position<'static>,
    network: Network,
    task: RouteTask,
    company: String,
    player: String,
    black_engine: bool,
}

impl Board {
    /// Reads a position (the Express 01 position format on the embedded house set) with its
    /// pending bonus payment; the route length is the company's issued shares (R11, R12).
    fn read(value: &Value) -> Result<Board, PuzzleError> {
        let text = serde_json::to_string(value).map_err(|e| PuzzleError::Position(e.to_string()))?;
        let position = Position::from_json("puzzle field `position`", &text, house())
            .map_err(|e| PuzzleError::Position(e.to_string()))?;
        let payment =
            position.payment(None, None, None).map_err(|p| PuzzleError::Position(format!("bonus_payment: {p}")))?;
        let max_cards = position.issued_shares(payment.company);
        let network = position.network();
        let task = RouteTask { company: payment.company, max_cards, rules: RouteRules::default() };
        let company = house().company_name(payment.company).to_string();
        let player = position.players()[payment.player].name.clone();
        Ok(Board { position, network, task, company, player, black_engine: payment.use_black_engine })
    }
}

/// The distinct routes paying at least the best less one, best first by R18's order (and maybe
/// some paying less, the runner-up among them), and the search work of listing them.
struct Near {
    routes: Vec<RouteSolution>,
    work: u64,
}

/// Lists every distinct route paying at least the best payout less one: the solver's top-K
/// enumeration (complete for every payout at or above its K-th), with K multiplied by four
/// until the K-th route pays less than the best less one, or fewer than K routes exist.
fn near_best(network: &Network, task: RouteTask) -> Result<Near, PuzzleError> {
    let mut top = 4;
    let mut work = 0;
    loop {
        let answer = best_routes(network, task, &SearchOptions { top, ..SearchOptions::default() });
        work += answer.nodes;
        if !answer.proven {
            return Err(PuzzleError::Solver("the route enumeration did not finish".into()));
        }
        let Some(best) = answer.routes.first().map(|r| r.payout) else {
            return Ok(Near { routes: Vec::new(), work });
        };
        let complete = answer.routes.len() < top || answer.routes[top - 1].payout + 1 < best;
        if complete {
            return Ok(Near { routes: answer.routes, work });
        }
        if top >= MOST_LISTED {
            return Err(PuzzleError::Solver(format!("more than {MOST_LISTED} routes pay within one of the best")));
        }
        top *= 4;
    }
}

/// A station sequence read from whichever end comes first (R18: a route and its reverse are one
/// route).
fn canonical(stations: &[StationRef]) -> Vec<StationRef> {
    let mut rev = stations.to_vec();
    rev.reverse();
    if rev.as_slice() < stations { rev } else { stations.to_vec() }
}

/// The answer words of a station sequence: station labels joined by ` - `.
fn words(network: &Network, stations: &[StationRef]) -> String {
    stations.iter().map(|&s| network.station_label(s)).collect::<Vec<_>>().join(" - ")
}

/// The simple technique, a greedy walk: from each station in turn, the train repeatedly runs
/// to the not yet reached station that adds most to the payout (a "+1" station before another),
/// on ties the one fewest cards away, then the first in station order, while it fits in the
/// cards left; where no station fits, the walk ends. Each walk that is a legal route (two
/// stations, one of the company) is a candidate; the technique answers the best candidate by
/// R18's order. Returns its station sequence (canonical) and payout, or `None` if no walk is a
/// legal route.
fn greedy(network: &Network, task: RouteTask) -> Option<(Vec<StationRef>, u32)> {
    let start_cost = task.rules.length.start_cost();
    let budget = task.max_cards.checked_sub(start_cost)?;
    let g = StationGraph::new(network, budget);
    let n = g.stations.len();
    let company = |v: usize| network.station(g.stations[v]).company == Some(task.company);
    let mut best: Option<(u32, u32, Vec<StationRef>)> = None;
    for s in 0..n {
        let mut visited = vec![false; n];
        visited[s] = true;
        let mut state = g.start_state(s);
        let mut used = 0;
        let mut seq = vec![s];
        loop {
            let next = g.hops[state as usize]
                .iter()
                .filter(|h| used + h.cost <= budget && !visited[h.station as usize])
                .max_by_key(|h| (g.value[h.station as usize], std::cmp::Reverse((h.cost, h.station, h.to))));
            let Some(h) = next else { break };
            visited[h.station as usize] = true;
            used += h.cost;
            state = h.to;
            seq.push(h.station as usize);
        }
        if seq.len() < 2 || !seq.iter().any(|&v| company(v)) {
            continue;
        }
        let payout: u32 = seq.iter().map(|&v| g.value[v]).sum();
        let stations = canonical(&seq.iter().map(|&v| g.stations[v]).collect::<Vec<_>>());
        let candidate = (payout, used + start_cost, stations);
        let better = match &best {
            None => true,
            Some(b) => {
                (candidate.0, std::cmp::Reverse(candidate.1), std::cmp::Reverse(&candidate.2))
                    > (b.0, std::cmp::Reverse(b.1), std::cmp::Reverse(&b.2))
            }
        };
        if better {
            best = Some(candidate);
        }
    }
    best.map(|(payout, _, stations)| (stations, payout))
}

/// Why a station sequence is no legal route, or its route: the walk of fewest cards through the
/// stations in order (over the station graph), checked and scored by the engine.
fn route_of(network: &Network, task: RouteTask, stations: &[StationRef]) -> Result<(Route, RouteScore), String> {
    if stations.len() < 2 {
        return Err("the route must start at a station and end at a different station".into());
    }
    for (i, s) in stations.iter().enumerate() {
        if stations[..i].contains(s) {
            return Err(format!(
                "station {} is approached twice (see “Stations on the route always count” in docs/rules/express-01.md)",
                network.station_label(*s)
            ));
        }
    }
    if !stations.iter().any(|&s| network.station(s).company == Some(task.company)) {
        return Err(format!(
            "the route has no {} station (at least one station must be of the selected company)",
            network.companies[usize::from(task.company.0)]
        ));
    }
    let start_cost = task.rules.length.start_cost();
    let budget = task.max_cards.saturating_sub(start_cost);
    // Hops up to any length, so that a route too long is told apart from one that cannot run.
    let g = StationGraph::new(network, u32::MAX / 4);
    let index: Vec<usize> =
        stations.iter().map(|s| g.stations.binary_search(s).unwrap_or(usize::MAX)).collect::<Vec<_>>();
    if index.contains(&usize::MAX) {
        return Err("a station of the route is not on the board".into());
    }
    // Fewest borders to each state of each station in turn, with the state it came from.
    let mut levels: Vec<BTreeMap<StateId, (u32, StateId)>> = Vec::new();
    let start = g.start_state(index[0]);
    levels.push(BTreeMap::from([(start, (0, start))]));
    for (k, &t) in index.iter().enumerate().skip(1) {
        let mut next: BTreeMap<StateId, (u32, StateId)> = BTreeMap::new();
        for (&state, &(used, _)) in &levels[k - 1] {
            for h in g.hops[state as usize].iter().filter(|h| h.station as usize == t) {
                let e = next.entry(h.to).or_insert((u32::MAX, state));
                if used + h.cost < e.0 {
                    *e = (used + h.cost, state);
                }
            }
        }
        if next.is_empty() {
            return Err(format!(
                "no track runs from {} to {} without passing another station or reversing (see “Stations on the route always count” and “No reversing” in docs/rules/express-01.md)",
                network.station_label(stations[k - 1]),
                network.station_label(stations[k])
            ));
        }
        levels.push(next);
    }
    let Some((&last, &(used, _))) = levels.last().and_then(|l| l.iter().min_by_key(|(s, (u, _))| (*u, **s))) else {
        return Err("the route is empty".into());
    };
    if used > budget {
        return Err(format!(
            "the route travels at least {} cards; the company's {} shares allow {} (see “Route length: what counts” in docs/rules/express-01.md)",
            used + start_cost,
            task.max_cards,
            task.max_cards
        ));
    }
    let mut states = vec![last];
    let mut at = last;
    for level in levels.iter().skip(1).rev() {
        at = level[&at].1;
        states.push(at);
    }
    states.reverse();
    let route = g.certificate(network, &states);
    let score = route.check(network, task).map_err(|e| e.to_string())?;
    Ok((route, score))
}

/// Reads the answer words: station labels (`009`, `061/s2`) in route order, separated by `-`,
/// `,`, `>`, `→` or spaces; case and spaces do not matter. A label naming no station of the
/// board is returned as `Err(Ok(reason))` (an illegal answer), an unreadable text as
/// `Err(Err(error))`.
fn parse_words(network: &Network, text: &str) -> Result<Vec<StationRef>, Result<String, PuzzleError>> {
    let expected = "station labels in route order, such as `009 - 013 - 061/s2`";
    let cleaned: String =
        text.to_lowercase().chars().map(|c| if matches!(c, '-' | ',' | '>' | '→' | ';') { ' ' } else { c }).collect();
    let tokens: Vec<&str> = cleaned.split_whitespace().collect();
    if tokens.is_empty() {
        return Err(Err(PuzzleError::Answer(format!("no stations; expected {expected}"))));
    }
    let mut out = Vec::new();
    for token in tokens {
        let (number, station) = match token.split_once('/') {
            Some((n, s)) => (n, Some(s)),
            None => (token, None),
        };
        let number: u16 = number
            .parse()
            .map_err(|_| Err(PuzzleError::Answer(format!("`{token}` is not a station label; expected {expected}"))))?;
        let index: Option<u8> = match station {
            None => None,
            Some("s1") => Some(0),
            Some("s2") => Some(1),
            Some(_) => {
                return Err(Err(PuzzleError::Answer(format!(
                    "`{token}`: a station of a card is `s1` or `s2`; expected {expected}"
                ))));
            }
        };
        let Some(cell) = network.cell_index(CardNumber(number)) else {
            return Err(Ok(format!("there is no cell {}", CardNumber(number))));
        };
        let count = network.cells[cell].stations.len();
        let label = CardNumber(number);
        let k = match (index, count) {
            (_, 0) => return Err(Ok(format!("the card on cell {label} has no station"))),
            (None, 1) => 0,
            (None, _) => {
                return Err(Err(PuzzleError::Answer(format!(
                    "cell {label} has two stations: name one as {label}/s1 or {label}/s2"
                ))));
            }
            (Some(k), c) if usize::from(k) < c => k,
            (Some(k), _) => return Err(Ok(format!("the card on cell {label} has no station s{}", k + 1))),
        };
        out.push(StationRef { cell, index: k });
    }
    Ok(out)
}

/// The answer's steps as the answer's `moves` hold them (cells by label, as `express01 route
/// --json` prints them).
fn steps_json(network: &Network, route: &Route) -> Value {
    Value::Array(
        route
            .steps
            .iter()
            .map(|s| json!({ "cell": network.cells[s.cell].label.to_string(), "from": s.from.to_string(), "to": s.to.to_string() }))
            .collect(),
    )
}

/// Reads the steps of an answer's `moves` back into a route.
fn steps_of(network: &Network, moves: &Value) -> Result<Route, PuzzleError> {
    let bad = |what: String| PuzzleError::Answer(format!("the answer's moves: {what}"));
    let steps = moves.get("steps").and_then(Value::as_array).ok_or_else(|| bad("no `steps` list".into()))?;
    let mut route = Route::default();
    for (i, s) in steps.iter().enumerate() {
        let field = |name: &str| {
            s.get(name).and_then(Value::as_str).ok_or_else(|| bad(format!("steps[{i}].{name}: expected a string")))
        };
        let cell = field("cell")?
            .parse::<u16>()
            .ok()
            .and_then(|n| network.cell_index(CardNumber(n)))
            .ok_or_else(|| bad(format!("steps[{i}].cell: no such cell")))?;
        let from: Endpoint = field("from")?.parse().map_err(|e| bad(format!("steps[{i}].from: {e}")))?;
        let to: Endpoint = field("to")?.parse().map_err(|e| bad(format!("steps[{i}].to: {e}")))?;
        route.steps.push(Step { cell, from, to });
    }
    Ok(route)
}

/// The themes of an answer (see [`THEMES`]), sorted.
fn themes_of(board: &Board, route: &Route, score: &RouteScore, best: u32) -> Vec<String> {
    let network = &board.network;
    let mut themes = Vec::new();
    if board.black_engine {
        let longer = RouteTask { max_cards: board.task.max_cards + 1, ..board.task };
        let more = best_routes(network, longer, &SearchOptions::default()).routes.first().map_or(0, |r| r.payout);
        if more > best {
            themes.push("black-engine");
        }
    }
    let cells_with_both = score.stations.iter().any(|s| {
        network.cells[s.station.cell].stations.len() > 1
            && score.stations.iter().filter(|t| t.station.cell == s.station.cell).count() > 1
    });
    if cells_with_both {
        themes.push("double-station");
    }
    if score.cards == board.task.max_cards {
        themes.push("long-haul");
    }
    let mut runs: Vec<(usize, Option<Track>)> =
        route.steps.iter().map(|s| (s.cell, Track::new(s.from, s.to))).collect();
    runs.sort();
    if runs.windows(2).any(|w| w[0] == w[1]) {
        themes.push("loop");
    }
    let single_track = |s: StationRef| {
        network.node(s.cell, Endpoint::Station(s.index)).is_some_and(|n| network.graph.edges(n).count() == 1)
    };
    if [score.stations.first(), score.stations.last()].into_iter().flatten().any(|s| single_track(s.station)) {
        themes.push("terminal-end");
    }
    themes.sort_unstable();
    themes.into_iter().map(str::to_string).collect()
}

/// The grade from its factors: `routes_within_one` (other distinct routes paying the best less
/// one), `cards` (the answer's length), `greedy_finds` (1 if the greedy walk finds the answer),
/// `work` (route search nodes of the proof).
fn grade(within_one: usize, cards: u32, greedy_finds: bool, work: u64) -> Grade {
    let rating = 1.5 * (1.0 + within_one as f64).log2()
        + 0.25 * f64::from(cards)
        + if greedy_finds { 0.0 } else { 3.0 }
        + 0.5 * (1.0 + work as f64).log10();
    let rating = (rating * 1000.0).round() / 1000.0;
    let factors = BTreeMap::from([
        ("routes_within_one".to_string(), within_one as f64),
        ("cards".to_string(), f64::from(cards)),
        ("greedy_finds".to_string(), if greedy_finds { 1.0 } else { 0.0 }),
        ("work".to_string(), work as f64),
    ]);
    Grade { difficulty: Difficulty::of_rating(rating, MEDIUM, HARD), rating, factors }
}

impl Kind for BestRoute {
    fn name(&self) -> &'static str {
        "express01-route"
    }

    fn game(&self) -> &'static str {
        "express01"
    }

    fn title(&self) -> &'static str {
        "The best bonus route"
    }

    fn unit(&self) -> &'static str {
        "cards paid"
    }

    fn better(&self) -> Better {
        Better::Higher
    }

    fn themes(&self) -> &'static [Theme] {
        THEMES
    }

    fn grading(&self) -> &'static str {
        "Factors: routes_within_one (other distinct routes paying the best less one), cards (the answer's \
         length), greedy_finds (1 if the greedy walk finds the answer), work (route search nodes of the proof). \
         Rating = 1.5 log2(1 + routes_within_one) + 0.25 cards + 3 (1 - greedy_finds) + 0.5 log10(1 + work); \
         easy below 2.9, medium below 4.2, hard from 4.2."
    }

    fn simple_technique(&self) -> &'static str {
        "a greedy walk: from each station, always on to the station adding most payout, the nearest on ties"
    }

    fn position(&self, candidate: u64) -> Result<Value, &'static str> {
        let mut rng = ChaCha8Rng::seed_from_u64(candidate);
        let map = if rng.random_bool(0.5) { "germany" } else { "usa" };
        let density = DENSITY.0 + (DENSITY.1 - DENSITY.0) * rng.random::<f64>();
        let seed: u64 = rng.random();
        let length = rng.random_range(LENGTH.0..=LENGTH.1);
        let black_engine = rng.random_bool(1.0 / 3.0);
        let mut setup = house_position(house(), map, density, seed).ok_or("no such map")?;
        let Some(payment) = setup.bonus_payment.as_mut() else { return Err("no company to pay") };
        if black_engine {
            setup.black_engine = payment.player.clone();
            payment.use_black_engine = true;
        }
        // More shares of the company, from the copies lying nowhere yet, to random players.
        let company = payment.company.as_deref().and_then(|c| house().company(c)).ok_or("no company to pay")?;
        let mut uses = BTreeMap::<u16, u16>::new();
        for n in setup.board.iter().map(|p| p.card).chain(setup.players.iter().flat_map(|p| p.shares.iter().copied())) {
            *uses.entry(n).or_default() += 1;
        }
        let mut spare: Vec<u16> = house()
            .cards()
            .filter(|c| c.share.is_some_and(|s| s.company == company))
            .flat_map(|c| {
                std::iter::repeat_n(
                    c.number.0,
                    usize::from(c.copies.saturating_sub(uses.get(&c.number.0).copied().unwrap_or(0))),
                )
            })
            .collect();
        let issued = |setup: &signalbox_engine::express01::position::PositionSetup| {
            setup
                .players
                .iter()
                .flat_map(|p| &p.shares)
                .filter(|&&n| house().card(CardNumber(n)).and_then(|c| c.share).is_some_and(|s| s.company == company))
                .count() as u32
        };
        while issued(&setup) < length && !spare.is_empty() {
            let card = spare.swap_remove(rng.random_range(0..spare.len()));
            let p = rng.random_range(0..setup.players.len());
            setup.players[p].shares.push(card);
        }
        setup.note = Some(format!("express01-route candidate {candidate}: {map}, density {density:.3}, seed {seed}"));
        let value = serde_json::to_value(&setup).map_err(|_| "the position does not serialise")?;
        let board = Board::read(&value).map_err(|_| "an illegal position")?;
        if board.network.stations().count() < FEWEST_STATIONS {
            return Err("too few stations");
        }
        if board.task.max_cards < LENGTH.0 {
            return Err("too short a route");
        }
        let best = best_routes(&board.network, board.task, &SearchOptions::default());
        match best.routes.first() {
            None => Err("no legal route"),
            Some(r) if r.payout < LEAST_PAYOUT => Err("too small a payout"),
            Some(_) => Ok(value),
        }
    }

    fn question(&self, position: &Value) -> Result<String, PuzzleError> {
        let board = Board::read(position)?;
        let n = board.task.max_cards;
        Ok(format!(
            "{} sends off the {} train on the {} board: {n} {} share{} {} issued{}. Which route must the train \
             take? Name its stations in order.",
            board.player,
            board.company,
            board.position.map().name,
            board.company,
            if n == 1 { "" } else { "s" },
            if n == 1 { "is" } else { "are" },
            if board.black_engine {
                format!(", and {} uses the black engine for the payment", board.player)
            } else {
                String::new()
            }
        ))
    }

    fn solve(&self, position: &Value) -> Result<Solved, PuzzleError> {
        let board = Board::read(position)?;
        let network = &board.network;
        let near = near_best(network, board.task)?;
        let Some(first) = near.routes.first() else {
            return Err(PuzzleError::Position(format!(
                "no legal route: no two stations, one of them {}, are joined within {} cards",
                board.company, board.task.max_cards
            )));
        };
        let score = first
            .route
            .check(network, board.task)
            .map_err(|e| PuzzleError::Solver(format!("the solver's route fails the rules check: {e}")))?;
        if (score.payout, score.cards) != (first.payout, first.cards) {
            return Err(PuzzleError::Solver("the engine scores the solver's route otherwise".into()));
        }
        let best = score.payout;
        let runner = near.routes.get(1);
        let within_one = near.routes[1..].iter().filter(|r| r.payout + 1 >= best).count();
        let greedy_finds =
            greedy(network, board.task).is_some_and(|(s, p)| p == best && s == canonical(&first.stations));
        let text = words(network, &first.stations);
        let moves = json!({
            "stations": first.stations.iter().map(|&s| network.station_label(s)).collect::<Vec<_>>(),
            "payout": best,
            "cards": score.cards,
            "steps": steps_json(network, &first.route),
        });
        let proof = Proof {
            best: f64::from(best),
            runner_up: runner.map(|r| f64::from(r.payout)),
            margin: runner.map(|r| f64::from(best) - f64::from(r.payout)),
            work: near.work,
            details: json!({
                "max_cards": board.task.max_cards,
                "routes_within_one": within_one,
                "runner_up_route": runner.map(|r| words(network, &r.stations)),
            }),
        };
        Ok(Solved {
            answer: Answer { text, moves },
            themes: themes_of(&board, &first.route, &score, best),
            grade: grade(within_one, score.cards, greedy_finds, near.work),
            proof,
        })
    }

    fn attempt(&self, position: &Value, answer: &str) -> Result<Attempt, PuzzleError> {
        let board = Board::read(position)?;
        let network = &board.network;
        let near = near_best(network, board.task)?;
        let best_route = near.routes.first();
        let best = best_route.map_or(0.0, |r| f64::from(r.payout));
        let stations = match parse_words(network, answer) {
            Ok(s) => s,
            Err(Ok(reason)) => {
                return Ok(Attempt {
                    verdict: Verdict::Illegal { reason },
                    value: None,
                    best,
                    understood: answer.trim().to_string(),
                });
            }
            Err(Err(e)) => return Err(e),
        };
        let understood = words(network, &stations);
        let (verdict, value) = match route_of(network, board.task, &stations) {
            Err(reason) => (Verdict::Illegal { reason }, None),
            Ok((_, score)) => {
                let value = f64::from(score.payout);
                let same = best_route.is_some_and(|r| canonical(&r.stations) == canonical(&stations));
                let verdict = if same { Verdict::Solved } else { Verdict::Short { loss: (best - value).max(0.0) } };
                (verdict, Some(value))
            }
        };
        Ok(Attempt { verdict, value, best, understood })
    }

    fn simple_finds(&self, position: &Value) -> Result<bool, PuzzleError> {
        let board = Board::read(position)?;
        let answer = best_routes(&board.network, board.task, &SearchOptions::default());
        let Some(first) = answer.routes.first() else { return Ok(false) };
        Ok(greedy(&board.network, board.task)
            .is_some_and(|(s, p)| p == first.payout && s == canonical(&first.stations)))
    }

    fn picture(&self, position: &Value, answer: Option<&Answer>) -> Result<String, PuzzleError> {
        let board = Board::read(position)?;
        let route = answer.map(|a| steps_of(&board.network, &a.moves)).transpose()?;
        let title = format!(
            "Express 01 · {} · {} train by {} · {} cards{}",
            board.position.map().name,
            board.company,
            board.player,
            board.task.max_cards,
            answer.map_or(String::new(), |a| format!(" · {}", a.text))
        );
        Ok(signalbox_render::express01::picture::board_svg(&board.network, route.as_ref(), &title))
    }
}
