//! The Cubes of Europe fair play (`coe advise`, `coe selfplay --policy fair`): the exact value of
//! every option two turns from the end with the last turn valued by a search of its moves
//! (`fair::last_turn_best`) against the general expectimax over its endings, in the same run;
//! and the advice of the first turn by playouts (the `coe advise` default, 96 playouts each).
//!
//! Before timing, both exact methods value every option of each position and must agree to
//! 1e-9 (the benchmark fails otherwise); one measured pass prints the ratio and writes it to
//! `answer.json` under `coe_fair/exact/search/turn11`.
//!
//! ```text
//! cargo bench --bench coe_fair
//! ```

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, SamplingMode};
use serde_json::json;
use signalbox_engine::coe::{Catalogue, Game, Instance, Rules};
use signalbox_solver::coe::exact::turn_outcomes;
use signalbox_solver::coe::fair::{self, Blind, Exact, Policy};

#[path = "support/criterion_dir.rs"]
mod criterion_dir;
use criterion_dir::criterion_dir;

/// Seeds 1 to 4 played by the fair policy to the start of the turn two from the end.
fn positions<'c>(catalogue: &'c Catalogue, instances: &'c [Instance]) -> Vec<Game<'c>> {
    instances
        .iter()
        .map(|instance| {
            let mut g = Game::new(catalogue, instance, Rules::default());
            let mut rng = fair::rng(0);
            while !g.is_started() || g.turns_left_at_most() > 2 {
                for mv in fair::choose_turn(&g, Policy::Fair, fair::HORIZON, &mut rng) {
                    g.play(mv).expect("the fair policy's move is legal");
                }
            }
            g
        })
        .collect()
}

/// Every option's exact value, the last turn searched or not.
fn values(g: &Game<'_>, search: bool) -> Vec<f64> {
    let blind = Blind::of(g);
    let h = blind.game(g);
    turn_outcomes(&h)
        .iter()
        .map(|(_, line)| Exact::new(&blind).with_last_turn_search(search).expectation(&h, line))
        .collect()
}

fn bench(c: &mut Criterion) {
    let catalogue = Catalogue::house();
    let instances: Vec<Instance> = (1..=4).map(Instance::from_seed).collect();
    let games = positions(&catalogue, &instances);
    let time = |search: bool| {
        let start = Instant::now();
        let v: Vec<Vec<f64>> = games.iter().map(|g| values(g, search)).collect();
        (v, start.elapsed().as_secs_f64())
    };
    let (fast, t_fast) = time(true);
    let (slow, t_slow) = time(false);
    for (a, b) in fast.iter().flatten().zip(slow.iter().flatten()) {
        assert!((a - b).abs() < 1e-9, "the two exact methods disagree: {a} against {b}");
    }
    println!(
        "exact, two turns from the end, 4 positions: search {t_fast:.3} s, expectimax {t_slow:.3} s, ratio {:.1}",
        t_slow / t_fast
    );
    let dir = criterion_dir().join("coe_fair/exact/search/turn11");
    let _ = std::fs::create_dir_all(&dir);
    let answer = json!({ "search_s": t_fast, "expectimax_s": t_slow, "ratio": t_slow / t_fast, "options": fast.iter().map(Vec::len).sum::<usize>() });
    let _ = std::fs::write(dir.join("answer.json"), answer.to_string());

    let mut group = c.benchmark_group("coe_fair/exact");
    group.sampling_mode(SamplingMode::Flat).sample_size(10).measurement_time(Duration::from_secs(20));
    for (name, search) in [("search", true), ("expectimax", false)] {
        group.bench_with_input(BenchmarkId::new(name, "turn11"), &search, |b, &search| {
            b.iter(|| games.iter().map(|g| values(g, search).len()).sum::<usize>())
        });
    }
    group.finish();

    let instance = Instance::from_seed(1);
    let mut g = Game::new(&catalogue, &instance, Rules::default());
    let mut rng = fair::rng(1);
    for mv in fair::choose_turn(&g, Policy::Fair, fair::HORIZON, &mut rng) {
        g.play(mv).expect("legal");
    }
    g.set_roll([3, 5]).expect("a turn's start");
    let mut group = c.benchmark_group("coe_fair/advise");
    group.sampling_mode(SamplingMode::Flat).sample_size(10).measurement_time(Duration::from_secs(30));
    group.bench_function(BenchmarkId::new("playouts96", "seed1-turn1"), |b| {
        b.iter(|| black_box(fair::value_options(&g, fair::HORIZON, 96)).len())
    });
    group.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
