//! Express 01 bonus routes: the exact search (`best_routes`) against the naive enumerator of
//! every walk (`naive::best_route`), in the same run.
//!
//! Groups (criterion ids `<group>/<function>/<parameter>`):
//! - `germany/{solver,naive}/len<L>`: the house Germany board densely built
//!   (`house_position(&catalogue, "germany", 1.0, GERMANY_SEED)`), the company of its pending
//!   bonus payment, route lengths 5, 10, 15, 20.
//! - `synthetic/{solver,naive}/cards<C>_len<L>`: synthetic brick-layout networks of 50, 200 and
//!   1,000 cards (the dense preset [`preset`], seed [`SYNTHETIC_SEED`], company 0), lengths 10,
//!   20, 40. The naive enumerator runs only where one run takes under about 2 s; see
//!   [`naive_skip`].
//!
//! Every case is first run once outside the timing (the probe): it gives the reference answer,
//! whose certificate the engine checks, and picks the sampling (cases over 2 ms get flat
//! sampling with fewer samples so the whole run stays within minutes). Every timed iteration's
//! answer is then compared with the reference outside the timed region, and where both run the
//! solver's answer must equal the naive one (payout, cards and station sequence).
//!
//! Besides criterion's `estimates.json`, each case writes `answer.json` next to them and the run
//! writes `express01_route-run.json` in the criterion directory; `examples/performance_report.rs`
//! turns these into `reports/performance.md`:
//!
//! ```text
//! cargo bench --bench express01_route
//! cargo run --release --example performance_report
//! ```

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use criterion::{BenchmarkGroup, BenchmarkId, Criterion, SamplingMode, measurement::WallTime};
use serde_json::{Value, json};

#[path = "support/criterion_dir.rs"]
mod criterion_dir;
use criterion_dir::criterion_dir;
use signalbox_engine::express01::card::CompanyId;
use signalbox_engine::express01::catalogue::Catalogue;
use signalbox_engine::express01::network::{Network, StationRef};
use signalbox_engine::express01::position::Position;
use signalbox_engine::express01::route::{RouteRules, RouteTask};
use signalbox_solver::express01::instances::{Synthetic, house_position, synthetic};
use signalbox_solver::express01::{SearchOptions, best_routes, naive};

/// Seed of the Germany position.
const GERMANY_SEED: u64 = 1;
/// Route lengths on Germany.
const GERMANY_LENGTHS: [u32; 4] = [5, 10, 15, 20];
/// Seed of the synthetic networks.
const SYNTHETIC_SEED: u64 = 1;
/// Synthetic network sizes, in cards.
const SYNTHETIC_CARDS: [usize; 3] = [50, 200, 1000];
/// Route lengths on the synthetic networks.
const SYNTHETIC_LENGTHS: [u32; 3] = [10, 20, 40];

/// The dense synthetic preset: a rail across three borders in four, up to two extra tracks a
/// card, a station on three cards in ten; roughly square, three companies.
fn preset(cards: usize) -> Synthetic {
    Synthetic { borders: 0.75, tracks: 2, stations: 0.3, ..Synthetic::new(cards) }
}

/// Why the naive enumerator is not run on a synthetic case, if it is not. Decided by measuring
/// one naive run of each case on the 2-core bench machine (seed 1): from length 10 to 20 it
/// grows by a factor of 6 (50 cards) to 120 (1,000 cards); at 1,000 cards and length 20 one run
/// takes about 1 s, at 200 cards and length 40 it did not finish in 7 minutes.
fn naive_skip(cards: usize, length: u32) -> Option<Skip> {
    match (cards, length) {
        (200, 40) => Some(Skip {
            reason: "one run did not finish within 7 minutes (tried once and stopped; by then its table of routes \
                     held 3.9 GB)",
            at_least_seconds: Some(420.0),
        }),
        (1000, 40) => Some(Skip {
            reason: "not tried: one run at length 20 takes about 1 s and grew by 120 to 170 times from length 10 \
                     to 20, and at 200 cards length 40 did not finish in 7 minutes",
            at_least_seconds: None,
        }),
        _ => None,
    }
}

/// A case the naive enumerator is left out of.
#[derive(Clone, Copy, Debug)]
struct Skip {
    /// Why, for the report.
    reason: &'static str,
    /// What one run was seen to take at least, if it was tried.
    at_least_seconds: Option<f64>,
}

/// What an answer is compared on: payout, cards, station sequence.
type Key = Option<(u32, u32, Vec<StationRef>)>;

/// Whether this is a measuring run (`cargo bench`), not a test (`cargo test --benches`,
/// `cargo bench -- --test`), a listing or a profile: only then are the side files written.
fn bench_mode() -> bool {
    let args: Vec<String> = std::env::args().collect();
    args.iter().any(|a| a == "--bench")
        && !args.iter().any(|a| a == "--test" || a == "--list" || a.starts_with("--profile-time"))
}

fn unix_now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

/// The commit checked out, and the engine and solver files that differ from it, when the run
/// starts (read-only git queries; empty if git is not available). The binary was built a
/// moment earlier from the same tree.
fn source_state() -> (String, Vec<String>) {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default()
    };
    let commit = git(&["rev-parse", "--short", "HEAD"]).trim().to_string();
    let changed = git(&["status", "--porcelain", "--", "engine", "solver/src"])
        .lines()
        .map(|l| l.get(3..).unwrap_or(l).to_string())
        .collect();
    (commit, changed)
}

/// Writes a JSON file, creating its directory; benchmark side files are best effort.
fn write_json(path: PathBuf, value: &Value) {
    if !bench_mode() {
        return;
    }
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if let Err(e) = std::fs::write(&path, format!("{value:#}\n")) {
        eprintln!("could not write {}: {e}", path.display());
    }
}

/// One board to benchmark on.
struct Board {
    network: Network,
    company: CompanyId,
    /// Description for the report.
    info: Value,
}

fn germany_board() -> Board {
    let catalogue = Catalogue::house();
    let setup = house_position(&catalogue, "germany", 1.0, GERMANY_SEED).expect("the house set has the Germany map");
    let position = match Position::from_setup(setup, &catalogue) {
        Ok(p) => p,
        Err(e) => panic!("random Germany position is illegal: {e:?}"),
    };
    let company = position.payment(None, None, None).map_or(CompanyId(0), |p| p.company);
    let network = position.network();
    let info = json!({
        "board": "house Germany, densely built",
        "seed": GERMANY_SEED,
        "density": 1.0,
        "company": catalogue.company_name(company),
    });
    Board { network, company, info }
}

fn synthetic_board(cards: usize) -> Board {
    let shape = preset(cards);
    let network = synthetic(shape, SYNTHETIC_SEED);
    let info = json!({
        "board": "synthetic",
        "seed": SYNTHETIC_SEED,
        "preset": format!("{shape:?}"),
        "company": "c1",
    });
    Board { network, company: CompanyId(0), info }
}

fn solver_key(network: &Network, task: RouteTask) -> Key {
    let answer = best_routes(network, task, &SearchOptions::default());
    answer.routes.first().map(|r| (r.payout, r.cards, r.stations.clone()))
}

fn naive_key(network: &Network, task: RouteTask) -> Key {
    naive::best_route(network, task).map(|(stations, payout, cards, _)| (payout, cards, stations))
}

/// Sets the sampling from one run's time: plenty of samples for fast cases, ten flat samples
/// (one run each for slow cases) for slow ones.
fn configure(group: &mut BenchmarkGroup<'_, WallTime>, one_run: Duration) {
    if one_run <= Duration::from_millis(2) {
        group
            .sampling_mode(SamplingMode::Auto)
            .sample_size(50)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(3));
    } else if one_run <= Duration::from_millis(50) {
        group
            .sampling_mode(SamplingMode::Flat)
            .sample_size(20)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(3));
    } else {
        group
            .sampling_mode(SamplingMode::Flat)
            .sample_size(10)
            .warm_up_time(Duration::from_millis(1))
            .measurement_time(one_run.mul_f64(10.0 * 1.2));
    }
}

/// Benchmarks one routine on one case. `reference` is the answer of one untimed run (the
/// probe), which took `probe`; every timed iteration's answer is compared with it outside the
/// timed region. Returns the reference, or `None` if criterion did not select the case.
#[allow(clippy::too_many_arguments)]
fn bench_case(
    group: &mut BenchmarkGroup<'_, WallTime>,
    group_name: &str,
    function: &str,
    parameter: &str,
    board: &Board,
    task: RouteTask,
    run: &dyn Fn() -> Key,
    (reference, probe): (Key, Duration),
    extra: Value,
) -> Option<Key> {
    configure(group, probe);
    let mut ran = false;
    group.bench_function(BenchmarkId::new(function, parameter), |b| {
        ran = true;
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let start = Instant::now();
                let key = black_box(run());
                total += start.elapsed();
                assert_eq!(key, reference, "{group_name}/{function}/{parameter}: an iteration's answer changed");
            }
            total
        });
    });
    if !ran {
        return None;
    }
    let stations = board.network.stations().count();
    let (payout, cards, route) = match &reference {
        Some((p, c, s)) => (json!(p), json!(c), json!(s.len())),
        None => (Value::Null, Value::Null, Value::Null),
    };
    let path = criterion_dir().join(group_name).join(function).join(parameter).join("answer.json");
    write_json(
        path,
        &json!({
            "group": group_name,
            "function": function,
            "parameter": parameter,
            "cells": board.network.cells.len(),
            "stations": stations,
            "length": task.max_cards,
            "payout": payout,
            "cards": cards,
            "route_stations": route,
            "probe_seconds": probe.as_secs_f64(),
            "skipped": Value::Null,
            "measured_at": unix_now(),
            "board": board.info,
            "extra": extra,
        }),
    );
    Some(reference)
}

/// Marks a case the naive enumerator is not run on, so the report can say why.
fn record_skip(group_name: &str, parameter: &str, board: &Board, length: u32, skip: Skip) {
    let path = criterion_dir().join(group_name).join("naive").join(parameter).join("answer.json");
    write_json(
        path,
        &json!({
            "group": group_name,
            "function": "naive",
            "parameter": parameter,
            "cells": board.network.cells.len(),
            "stations": board.network.stations().count(),
            "length": length,
            "skipped": skip.reason,
            "at_least_seconds": skip.at_least_seconds,
            "measured_at": unix_now(),
            "board": board.info,
        }),
    );
}

/// The solver and, unless `skip` says why not, the naive enumerator on one case; where both
/// ran, their answers must agree.
fn solver_and_naive(
    group: &mut BenchmarkGroup<'_, WallTime>,
    group_name: &str,
    parameter: &str,
    board: &Board,
    length: u32,
    skip: Option<Skip>,
) {
    let task = RouteTask { company: board.company, max_cards: length, rules: RouteRules::default() };
    let network = &board.network;
    // The probe: one untimed run of each, giving the reference answer and the sampling. The
    // solver's certificate is checked and re-scored by the engine.
    let start = Instant::now();
    let answer = best_routes(network, task, &SearchOptions::default());
    let probe = start.elapsed();
    assert!(answer.proven, "{group_name}/{parameter}: the search finished");
    if let Some(r) = answer.routes.first() {
        let score = r
            .route
            .check(network, task)
            .unwrap_or_else(|e| panic!("{group_name}/{parameter}: certificate rejected: {e}"));
        assert_eq!(
            (score.payout, score.cards),
            (r.payout, r.cards),
            "{group_name}/{parameter}: engine re-scores the route alike"
        );
    }
    let reference = answer.routes.first().map(|r| (r.payout, r.cards, r.stations.clone()));
    let extra = json!({ "search_nodes": answer.nodes });
    let solver = bench_case(
        group,
        group_name,
        "solver",
        parameter,
        board,
        task,
        &|| solver_key(network, task),
        (reference, probe),
        extra,
    );
    let naive = match skip {
        Some(skip) => {
            if solver.is_some() {
                record_skip(group_name, parameter, board, length, skip);
            }
            None
        }
        None => {
            let start = Instant::now();
            let reference = naive_key(network, task);
            let probe = start.elapsed();
            bench_case(
                group,
                group_name,
                "naive",
                parameter,
                board,
                task,
                &|| naive_key(network, task),
                (reference, probe),
                Value::Null,
            )
        }
    };
    if let (Some(s), Some(n)) = (&solver, &naive) {
        assert_eq!(s, n, "{group_name}/{parameter}: the solver and the naive enumerator disagree");
    }
}

fn germany(c: &mut Criterion) {
    let board = germany_board();
    let mut group = c.benchmark_group("germany");
    for length in GERMANY_LENGTHS {
        solver_and_naive(&mut group, "germany", &format!("len{length}"), &board, length, None);
    }
    group.finish();
}

fn synthetic_networks(c: &mut Criterion) {
    let mut group = c.benchmark_group("synthetic");
    for cards in SYNTHETIC_CARDS {
        let board = synthetic_board(cards);
        for length in SYNTHETIC_LENGTHS {
            let parameter = format!("cards{cards}_len{length}");
            solver_and_naive(&mut group, "synthetic", &parameter, &board, length, naive_skip(cards, length));
        }
    }
    group.finish();
}

fn main() {
    let started = Instant::now();
    let started_at = unix_now();
    let load_before = load_average();
    let (commit, changed) = if bench_mode() { source_state() } else { (String::new(), Vec::new()) };
    let mut c = Criterion::default().without_plots().configure_from_args();
    germany(&mut c);
    synthetic_networks(&mut c);
    c.final_summary();
    let args: Vec<String> = std::env::args().skip(1).collect();
    write_json(
        criterion_dir().join("express01_route-run.json"),
        &json!({
            "started_at": started_at,
            "seconds": started.elapsed().as_secs_f64(),
            "threads": std::thread::available_parallelism().map_or(0, |n| n.get()),
            "load_average_before": load_before,
            "load_average_after": load_average(),
            "args": args,
            "commit": commit,
            "changed_sources": changed,
        }),
    );
}
