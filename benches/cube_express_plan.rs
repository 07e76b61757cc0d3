//! Cube Express: the best-turn search (`plan_turn`, the default method) and the turn's integer
//! programs (`--method program`) against the brute-force enumerator of every canonical plan, on
//! positions with growing numbers of plans, in the same run.
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
use signalbox_solver::cube_express::enumerate::{Limits, enumerate};
use signalbox_solver::cube_express::lp::Backend;
use signalbox_solver::cube_express::plan::{Method, PlanOptions, plan_turn};

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

criterion::criterion_group!(benches, bench);
criterion::criterion_main!(benches);
