//! Cube Express: the review of the embedded sample game (3 players, a complete game of 26
//! turns), with the work shared between positions (`analyse`: one replay of the record, the
//! positions planned side by side) against each decision computed on its own
//! (`analyse_from_scratch`: the record replayed from the setup to each turn, one plan after the
//! other), in the same run (criterion ids `cube_express_analyse/{reuse,scratch}/sample`). The issue's target: a 3-player game analysed in under 20 s on 2
//! cores. Before timing, both run once and must give the same review.
//!
//! ```text
//! cargo bench --bench cube_express_analyse
//! ```

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, SamplingMode};
use serde_json::json;
use signalbox_engine::cube_express::catalogue::Content;
use signalbox_engine::cube_express::position::{SAMPLE_GAME_JSON, read_record};
use signalbox_solver::cube_express::analysis::{analyse, analyse_from_scratch};
use signalbox_solver::cube_express::plan::PlanOptions;

#[path = "support/criterion_dir.rs"]
mod criterion_dir;
use criterion_dir::criterion_dir;

fn write_answer(function: &str, answer: &serde_json::Value) {
    let dir = criterion_dir().join("cube_express_analyse").join(function).join("sample");
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join("answer.json"), answer.to_string());
}

fn bench(c: &mut Criterion) {
    let content = Arc::new(Content::house());
    let record = read_record("sample", SAMPLE_GAME_JSON).expect("the sample");
    let options = PlanOptions::default();
    let shared = analyse(content.clone(), &record, "sample", &options, &|_| ()).expect("analysed");
    let scratch = analyse_from_scratch(content.clone(), &record, "sample", &options).expect("analysed");
    assert_eq!(shared.review, scratch.review, "sharing the work changed the review");
    let answer = json!({
        "players": shared.review.players.len(),
        "decisions": shared.review.decisions.len(),
        "target": 20.0,
    });
    write_answer("reuse", &answer);
    write_answer("scratch", &answer);
    let mut group = c.benchmark_group("cube_express_analyse");
    group.sampling_mode(SamplingMode::Flat).sample_size(10).warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(40));
    group.bench_function(BenchmarkId::new("reuse", "sample"), |b| {
        b.iter(|| black_box(analyse(content.clone(), &record, "sample", &options, &|_| ()).expect("analysed")))
    });
    group.bench_function(BenchmarkId::new("scratch", "sample"), |b| {
        b.iter(|| black_box(analyse_from_scratch(content.clone(), &record, "sample", &options).expect("analysed")))
    });
    group.finish();
}

criterion::criterion_group!(benches, bench);
criterion::criterion_main!(benches);
