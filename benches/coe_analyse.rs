//! The Cubes of Europe review of a played game (`coe analyse`): with reuse between positions
//! against every decision's position solved from scratch, in the same run.
//!
//! Before timing, one measured pass over the sample player's games of seeds 1 to 20 (whole
//! games, default rules, two threads): each analysed with reuse, the median and the slowest
//! printed against the issue's target (a whole game under 30 s at the median), and seed 1's
//! game analysed from scratch too; both reviews must give the same values (the benchmark fails
//! otherwise). The pass is written to `answer.json` under `coe_analyse/median20/reuse`.
//!
//! Groups (criterion ids `<group>/<function>/<parameter>`):
//! - `coe_analyse/{reuse,scratch}/turns6`: the sample player's games of seeds 1 to 5 shortened
//!   to 6 turns, all analysed in one run.
//! - `coe_analyse/reuse/seed1`: the embedded sample game (seed 1, whole).
//!
//! ```text
//! cargo bench --bench coe_analyse
//! ```

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, SamplingMode};
use serde_json::json;
use signalbox_engine::coe::{Catalogue, Record, Rules};
use signalbox_solver::coe::analysis::{AnalyseOptions, Analysed, analyse, sample_record};
use signalbox_solver::coe::search::SolveOptions;

#[path = "support/criterion_dir.rs"]
mod criterion_dir;
use criterion_dir::criterion_dir;

fn write_answer(group: &str, function: &str, parameter: &str, answer: serde_json::Value) {
    let dir = criterion_dir().join(group).join(function).join(parameter);
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join("answer.json"), answer.to_string());
}

fn options(reuse: bool) -> AnalyseOptions {
    AnalyseOptions { solve: SolveOptions { threads: Some(2), ..SolveOptions::default() }, reuse, fair_samples: None }
}

fn review(catalogue: &Catalogue, record: &Record, reuse: bool) -> Analysed {
    let a = analyse(catalogue, record, "bench", options(reuse), &|_| {}).expect("the record analyses");
    assert!(a.review.problems().is_empty(), "{:?}", a.review.problems());
    a
}

fn values(a: &Analysed) -> Vec<(f64, f64)> {
    a.review.decisions.iter().map(|d| (d.value_before, d.value_after)).collect()
}

fn median_pass(catalogue: &Catalogue) {
    let mut times = Vec::new();
    let mut searches = Vec::new();
    for seed in 1..=20u64 {
        let record = sample_record(catalogue, seed, Rules::default());
        let start = Instant::now();
        let a = review(catalogue, &record, true);
        times.push(start.elapsed().as_secs_f64());
        searches.push(a.searches);
    }
    let mut sorted = times.clone();
    sorted.sort_by(f64::total_cmp);
    let median = (sorted[9] + sorted[10]) / 2.0;
    let record = sample_record(catalogue, 1, Rules::default());
    let start = Instant::now();
    let scratch = review(catalogue, &record, false);
    let scratch_seconds = start.elapsed().as_secs_f64();
    let reuse = review(catalogue, &record, true);
    assert_eq!(values(&scratch), values(&reuse), "seed 1: reuse and scratch disagree");
    eprintln!(
        "coe analyse, seeds 1..20 with reuse: median {median:.2} s, slowest {:.2} s (target: under 30 s at the median); seed 1 from scratch {scratch_seconds:.2} s ({} searches), with reuse {:.2} s ({} searches)",
        sorted[19], scratch.searches, times[0], reuse.searches
    );
    write_answer(
        "coe_analyse",
        "median20",
        "reuse",
        json!({ "seeds": "1..20", "seconds": times, "searches": searches, "median": median, "target": 30.0,
                "seed1_scratch_seconds": scratch_seconds, "seed1_scratch_searches": scratch.searches }),
    );
}

fn bench(c: &mut Criterion) {
    let catalogue = Catalogue::house();
    median_pass(&catalogue);
    let rules = Rules { max_turns: Some(6), ..Rules::default() };
    let short: Vec<Record> = (1..=5u64).map(|seed| sample_record(&catalogue, seed, rules)).collect();
    for record in &short {
        assert_eq!(values(&review(&catalogue, record, true)), values(&review(&catalogue, record, false)));
    }
    let mut group = c.benchmark_group("coe_analyse");
    group.sample_size(10).sampling_mode(SamplingMode::Flat).warm_up_time(Duration::from_millis(1));
    group.measurement_time(Duration::from_secs(30));
    for reuse in [true, false] {
        let function = if reuse { "reuse" } else { "scratch" };
        write_answer("coe_analyse", function, "turns6", json!({ "seeds": "1..5", "turns": 6 }));
        group.bench_function(BenchmarkId::new(function, "turns6"), |b| {
            b.iter(|| short.iter().map(|r| review(&catalogue, black_box(r), reuse).searches).sum::<usize>())
        });
    }
    let sample = sample_record(&catalogue, 1, Rules::default());
    group.bench_function(BenchmarkId::new("reuse", "seed1"), |b| {
        b.iter(|| review(&catalogue, black_box(&sample), true))
    });
    group.finish();
}

criterion::criterion_group!(benches, bench);
criterion::criterion_main!(benches);
