//! Cube Express: the best-turn search (`plan_turn`, the default method) and the turn's integer
//! programs (`--method program`) against the brute-force enumerator of every canonical plan, on
//! positions with growing numbers of plans, in the same run.
//!
//! Group `ce_bound/{search,uncut}/<case>`: the regression positions, the search with its bound
//! against the search without it ([`bench_bound`]).
//!
//! Group `ce_full/program/<case>`: late positions ([`FULL`], a board of 20 tiles or more), the
//! program alone, for the full-board target.
//!
//! Group `ce_plan/{program,enumerator}/<case>` (and `program-cbc` in a build with `--features
//! cbc`): each case is the position [`CASES`] names (players, seed, turns of random play,
//! `Game::after_random_turns`). Before timing, both run once: their best values must agree, and
//! the program's plan is replayed by the engine (inside `plan_turn`). Each case writes
//! `answer.json` (plans, value, lays, programs) next to criterion's estimates;
//! `examples/performance_report.rs` turns them into `reports/performance.md`:
//!
//! ```text
//! cargo bench --bench cube_express_plan
//! cargo run --release --example performance_report
//! ```

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, SamplingMode};
use serde_json::json;
use signalbox_engine::cube_express::catalogue::Content;
use signalbox_engine::cube_express::game::Game;
use signalbox_engine::cube_express::options::Options;
use signalbox_engine::cube_express::position::read_position;
use signalbox_solver::cube_express::enumerate::{Limits, enumerate};
use signalbox_solver::cube_express::lp::Backend;
use signalbox_solver::cube_express::plan::{Method, PlanOptions, plan_turn};
use signalbox_solver::cube_express::search::{best_turn, best_turn_uncut};
use signalbox_solver::cube_express::value::Weights;

#[path = "support/criterion_dir.rs"]
mod criterion_dir;
use criterion_dir::criterion_dir;

/// The positions: (players, seed, turns of random play).
const CASES: [(usize, u64, u32); 6] = [(2, 1, 0), (3, 4, 6), (2, 1, 2), (3, 2, 3), (2, 3, 5), (4, 5, 8)];
/// Late positions (a full board), the program alone (the enumerator takes minutes there).
const FULL: [(usize, u64, u32); 1] = [(3, 7, 18)];

fn write_answer(function: &str, parameter: &str, answer: serde_json::Value) {
    write_group_answer("ce_plan", function, parameter, answer);
}

fn write_group_answer(group: &str, function: &str, parameter: &str, answer: serde_json::Value) {
    let dir = criterion_dir().join(group).join(function).join(parameter);
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join("answer.json"), answer.to_string());
}

fn bench(c: &mut Criterion) {
    let content = Arc::new(Content::house());
    let mut group = c.benchmark_group("ce_plan");
    group.sample_size(10).sampling_mode(SamplingMode::Flat).warm_up_time(Duration::from_millis(200));
    for (players, seed, turns) in CASES {
        let game = Game::after_random_turns(content.clone(), players, seed, turns, Options::default()).expect("setup");
        let id = format!("p{players}-s{seed}-t{turns}");
        let options = PlanOptions { method: Method::Program, ..PlanOptions::default() };
        let search = PlanOptions::default();
        let planned = plan_turn(&game, &options).expect("a plan");
        let searched = plan_turn(&game, &search).expect("a plan");
        let brute = enumerate(&game, &options.weights, &Limits::default());
        let best = brute.best.as_ref().map(|b| b.value);
        assert_eq!(best, Some(planned.value), "{id}: the program and the enumerator disagree");
        assert!(searched.value >= planned.value, "{id}: the search is below the program");
        write_answer(
            "search",
            &id,
            json!({ "value": searched.value, "lays": searched.lays, "positions": searched.positions }),
        );
        group.bench_with_input(BenchmarkId::new("search", &id), &game, |b, g| {
            b.iter(|| black_box(plan_turn(g, &search).map(|p| p.value).ok()))
        });
        let answer = json!({
            "plans": brute.plans,
            "value": planned.value,
            "lays": planned.lays,
            "programs": planned.programs,
        });
        write_answer("program", &id, answer.clone());
        write_answer("enumerator", &id, answer.clone());
        group.bench_with_input(BenchmarkId::new("program", &id), &game, |b, g| {
            b.iter(|| black_box(plan_turn(g, &options).map(|p| p.value).ok()))
        });
        group.bench_with_input(BenchmarkId::new("enumerator", &id), &game, |b, g| {
            b.iter(|| black_box(enumerate(g, &options.weights, &Limits::default()).plans))
        });
        if Backend::available().contains(&Backend::Cbc) {
            let cbc = PlanOptions { backend: Backend::Cbc, ..options };
            let v = plan_turn(&game, &cbc).expect("a plan").value;
            assert_eq!(v, planned.value, "{id}: CBC and microlp disagree");
            write_answer("program-cbc", &id, answer);
            group.bench_with_input(BenchmarkId::new("program-cbc", &id), &game, |b, g| {
                b.iter(|| black_box(plan_turn(g, &cbc).map(|p| p.value).ok()))
            });
        }
    }
    group.finish();
    let mut group = c.benchmark_group("ce_full");
    group.sample_size(10).sampling_mode(SamplingMode::Flat).warm_up_time(Duration::from_millis(200));
    for (players, seed, turns) in FULL {
        let game = Game::after_random_turns(content.clone(), players, seed, turns, Options::default()).expect("setup");
        let id = format!("p{players}-s{seed}-t{turns}");
        let options = PlanOptions { method: Method::Program, ..PlanOptions::default() };
        let search = PlanOptions::default();
        let searched = plan_turn(&game, &search).expect("a plan");
        write_group_answer(
            "ce_full",
            "search",
            &id,
            json!({ "tiles": game.board().tiles().len(), "value": searched.value, "positions": searched.positions }),
        );
        group.bench_with_input(BenchmarkId::new("search", &id), &game, |b, g| {
            b.iter(|| black_box(plan_turn(g, &search).map(|p| p.value).ok()))
        });
        let planned = plan_turn(&game, &options).expect("a plan");
        let answer = json!({
            "tiles": game.board().tiles().len(),
            "value": planned.value,
            "lays": planned.lays,
            "programs": planned.programs,
        });
        write_group_answer("ce_full", "program", &id, answer);
        group.bench_with_input(BenchmarkId::new("program", &id), &game, |b, g| {
            b.iter(|| black_box(plan_turn(g, &options).map(|p| p.value).ok()))
        });
    }
    group.finish();
}

/// Mid-game positions for the search's targets: the first [`MID`] of 2 to 4 players, seeds from 1,
/// `10 + 7 * seed % 21` random turns in, with 15 to 25 tiles on the board and the player to move at
/// technology level 4 or 5.
const MID: usize = 12;

fn mid_game(content: &Arc<Content>) -> Vec<(String, Game)> {
    let mut out = Vec::new();
    let mut seed = 0u64;
    while out.len() < MID && seed < 10_000 {
        seed += 1;
        let players = 2 + (seed % 3) as usize;
        let turns = 10 + (seed * 7 % 21) as u32;
        let Ok(g) = Game::after_random_turns(content.clone(), players, seed, turns, Options::default()) else {
            continue;
        };
        let tiles = g.board().tiles().len();
        let tech = g.tech_level(usize::from(g.active()));
        if !g.is_over() && (15..=25).contains(&tiles) && (4..=5).contains(&tech) {
            out.push((format!("p{players}-s{seed}-t{turns}"), g));
        }
    }
    out
}

/// Group `ce_mid/search/<case>`: the search on the mid-game positions, and on the regression
/// position whose programs made the backend fail.
fn bench_mid(c: &mut Criterion) {
    let content = Arc::new(Content::house());
    let mut group = c.benchmark_group("ce_mid");
    group.sample_size(10).sampling_mode(SamplingMode::Flat).warm_up_time(Duration::from_millis(200));
    let mut cases = mid_game(&content);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/cube_express/regressions/backend-failure.json");
    if let Ok(text) = std::fs::read_to_string(path)
        && let Ok(g) = signalbox_engine::cube_express::position::read_position(content.clone(), path, &text)
    {
        cases.push(("regression-backend-failure".to_string(), g));
    }
    let search = PlanOptions::default();
    for (id, game) in &cases {
        let planned = plan_turn(game, &search).expect("a plan");
        write_group_answer(
            "ce_mid",
            "search",
            id,
            json!({
                "tiles": game.board().tiles().len(),
                "tech": game.tech_level(usize::from(game.active())),
                "value": planned.value,
                "lays": planned.lays,
                "positions": planned.positions,
            }),
        );
        group.bench_with_input(BenchmarkId::new("search", id), game, |b, g| {
            b.iter(|| black_box(plan_turn(g, &search).map(|p| p.value).ok()))
        });
    }
    group.finish();
}

/// The regression positions whose search was slow or wrong, for group `ce_bound`.
const REGRESSIONS: [&str; 4] =
    ["two-locomotives-built", "slow-near-stock-max", "slow-heavy-mid-game", "backend-failure"];

/// Group `ce_bound/{search,uncut}/<case>`: the best-turn search with the bound of ruling S3
/// ("Lines that cannot beat the best") against the same search without it
/// (`search::best_turn_uncut`), on the regression positions, in the same run. Before timing, both
/// must give the same value and the same plan.
fn bench_bound(c: &mut Criterion) {
    let content = Arc::new(Content::house());
    let mut group = c.benchmark_group("ce_bound");
    group.sample_size(10).sampling_mode(SamplingMode::Flat).warm_up_time(Duration::from_millis(200));
    let weights = Weights::default();
    for name in REGRESSIONS {
        let path = format!("{}/tests/fixtures/cube_express/regressions/{name}.json", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("the regression position");
        let game = read_position(content.clone(), &path, &text).expect("the regression position reads");
        let cut = best_turn(&game, &weights, None).expect("a plan");
        let uncut = best_turn_uncut(&game, &weights).expect("a plan");
        assert_eq!((cut.value, &cut.actions), (uncut.value, &uncut.actions), "{name}: the bound changed the answer");
        write_group_answer(
            "ce_bound",
            "search",
            name,
            json!({ "value": cut.value, "proven": cut.proven(), "positions": cut.positions, "uncut": uncut.positions }),
        );
        group.bench_with_input(BenchmarkId::new("search", name), &game, |b, g| {
            b.iter(|| black_box(best_turn(g, &weights, None).map(|f| f.value)))
        });
        group.bench_with_input(BenchmarkId::new("uncut", name), &game, |b, g| {
            b.iter(|| black_box(best_turn_uncut(g, &weights).map(|f| f.value)))
        });
    }
    group.finish();
}

criterion::criterion_group!(benches, bench, bench_mid, bench_bound);
criterion::criterion_main!(benches);
