//! The Cubes of Europe solver: against the naive search on shortened games, and on whole games
//! with one thread and two, in the same run.
//!
//! Groups (criterion ids `<group>/<function>/<parameter>`):
//! - `coe_short/{solver,naive}/turns<K>`: seeds [`SHORT_SEEDS`] of games shortened to K turns
//!   (`Rules::max_turns`), all solved in one run; K = 2 and 3.
//! - `coe_full/solver/threads<T>`: seeds [`FULL_SEEDS`] of whole games, all solved in one run,
//!   with T = 1 and 2 threads.
//!
//! Before timing, every case runs once: where both run, the solver's and the naive search's
//! scores must agree, and every solver line is replayed and re-scored by the engine (the
//! benchmark fails otherwise). Each case writes `answer.json` (seeds and scores) next to
//! criterion's estimates; `examples/performance_report.rs` turns them into
//! `reports/performance.md`:
//!
//! ```text
//! cargo bench --bench coe_solve
//! cargo run --release --example performance_report
//! ```

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, SamplingMode};
use serde_json::json;
use signalbox_engine::coe::{Catalogue, Game, Instance, Record, Rules};
use signalbox_solver::coe::naive;
use signalbox_solver::coe::search::{SolveOptions, solve};

#[path = "support/criterion_dir.rs"]
mod criterion_dir;
use criterion_dir::criterion_dir;

/// The seeds of the shortened games.
const SHORT_SEEDS: std::ops::RangeInclusive<u64> = 1..=20;
/// The seeds of the whole games: the first five seeds.
const FULL_SEEDS: std::ops::RangeInclusive<u64> = 1..=5;

fn write_answer(group: &str, function: &str, parameter: &str, answer: serde_json::Value) {
    let dir = criterion_dir().join(group).join(function).join(parameter);
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join("answer.json"), answer.to_string());
}

/// Solves every seed; checks each line in the engine; the scores.
fn solve_all(catalogue: &Catalogue, seeds: &[u64], rules: Rules, threads: usize) -> Vec<u32> {
    seeds
        .iter()
        .map(|&seed| {
            let instance = Instance::from_seed(seed);
            let game = Game::new(catalogue, &instance, rules);
            let s = solve(&game, SolveOptions { threads: Some(threads), ..SolveOptions::default() });
            assert!(s.proven, "seed {seed}: not proven");
            let record = Record::new(instance.clone(), rules, s.line.clone());
            let (_, score) = record.replay(catalogue, "bench").expect("the line replays");
            assert_eq!(score.total(), s.score, "seed {seed}: the line scores otherwise");
            s.score
        })
        .collect()
}

fn naive_all(catalogue: &Catalogue, seeds: &[u64], rules: Rules) -> Vec<u32> {
    seeds
        .iter()
        .map(|&seed| {
            let instance = Instance::from_seed(seed);
            naive::best(&Game::new(catalogue, &instance, rules)).0
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let catalogue = Catalogue::house();
    let short: Vec<u64> = SHORT_SEEDS.collect();
    let mut group = c.benchmark_group("coe_short");
    group.sample_size(10).sampling_mode(SamplingMode::Flat).warm_up_time(Duration::from_millis(500));
    for turns in [2usize, 3] {
        let rules = Rules { max_turns: Some(turns), ..Rules::default() };
        let solver = solve_all(&catalogue, &short, rules, 1);
        let reference = naive_all(&catalogue, &short, rules);
        assert_eq!(solver, reference, "{turns} turns: the solver and the naive search disagree");
        let parameter = format!("turns{turns}");
        let answer = json!({ "seeds": short, "turns": turns, "scores": solver, "threads": 1 });
        write_answer("coe_short", "solver", &parameter, answer.clone());
        write_answer("coe_short", "naive", &parameter, answer);
        group.bench_function(BenchmarkId::new("solver", &parameter), |b| {
            b.iter(|| solve_all(&catalogue, black_box(&short), rules, 1))
        });
        group.bench_function(BenchmarkId::new("naive", &parameter), |b| {
            b.iter(|| naive_all(&catalogue, black_box(&short), rules))
        });
    }
    group.finish();

    let full: Vec<u64> = FULL_SEEDS.collect();
    let mut group = c.benchmark_group("coe_full");
    group.sample_size(10).sampling_mode(SamplingMode::Flat).warm_up_time(Duration::from_millis(1));
    group.measurement_time(Duration::from_secs(60));
    let rules = Rules::default();
    let one = solve_all(&catalogue, &full, rules, 1);
    let two = solve_all(&catalogue, &full, rules, 2);
    assert_eq!(one, two, "one thread and two disagree");
    for threads in [1usize, 2] {
        let parameter = format!("threads{threads}");
        write_answer("coe_full", "solver", &parameter, json!({ "seeds": full, "scores": one, "threads": threads }));
        group.bench_function(BenchmarkId::new("solver", &parameter), |b| {
            b.iter(|| solve_all(&catalogue, black_box(&full), rules, threads))
        });
    }
    group.finish();
}

criterion::criterion_group!(benches, bench);
criterion::criterion_main!(benches);
