//! Railways Express: the exact linker (`min_link`) against the naive brute force
//! (`reference::brute_force`) on small random maps, in the same run, and the linker alone on the
//! full house map (the brute force cannot reach 20 tiles there).
//!
//! Group `rx_link/{linker,brute}/<case>`: each case is a small random game
//! (`reference::small_game`) whose answer the brute force reaches; before timing both run once and
//! must agree. Group `rx_full/linker/<case>`: the house map, four players, a seeded game after
//! some turns of the plan-following player, timed for blue (the first seat); the case's answer is
//! every player's fewest tiles. Group `rx_short/linker/<case>`: a new game on the house map with
//! the straight pile cut to a few tiles (the curved pile makes up the 231), so the first pass's
//! plan overdraws it and the second pass searches within the supply.
//! Each case writes `answer.json` next to criterion's estimates; `examples/performance_report.rs`
//! turns them into `reports/performance.md`:
//!
//! ```text
//! cargo bench --bench railways_link
//! cargo run --release --example performance_report
//! ```

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use signalbox_engine::railways::catalogue::{Content, HOUSE_MAP_TOML};
use signalbox_engine::railways::colour::Colour;
use signalbox_engine::railways::game::Game;
use signalbox_engine::railways::options::Options;
use signalbox_engine::railways::track::TileKind;
use signalbox_solver::railways::link::min_link;
use signalbox_solver::railways::policy::play_turn;
use signalbox_solver::railways::reference::{brute_force, small_game};

#[path = "support/criterion_dir.rs"]
mod criterion_dir;
use criterion_dir::criterion_dir;

/// Small random games: the first of these indices whose answer has 3, 4, 5 and 6 tiles.
const SMALL: std::ops::Range<u64> = 0..400;
/// Full-map games: (seed, turns played).
const FULL: [(u64, u32); 3] = [(1, 0), (2, 12), (3, 24)];

fn write_answer(group: &str, function: &str, parameter: &str, answer: serde_json::Value) {
    let dir = criterion_dir().join(group).join(function).join(parameter);
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join("answer.json"), answer.to_string());
}

fn small(c: &mut Criterion) {
    let mut group = c.benchmark_group("rx_link");
    group.sample_size(10).measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_millis(300));
    let mut wanted = vec![3usize, 4, 5, 6];
    for index in SMALL {
        if wanted.is_empty() {
            break;
        }
        let Some(game) = small_game(index) else { continue };
        let Some(Some(n)) = brute_force(&game, 6, 400_000) else { continue };
        let Some(k) = wanted.iter().position(|&w| w == n) else { continue };
        wanted.remove(k);
        let (plan, stats) = min_link(&game, Colour::Blue).expect("the brute force found a plan");
        assert_eq!(plan.tiles.len(), n, "small game {index}: the linker disagrees with the brute force");
        let case = format!("t{n}-i{index}");
        let answer =
            json!({"tiles": n, "hexes": game.content().hexes.len(), "trees": stats.trees, "expanded": stats.expanded});
        write_answer("rx_link", "linker", &case, answer.clone());
        write_answer("rx_link", "brute", &case, answer);
        group.bench_with_input(BenchmarkId::new("linker", &case), &game, |b, g| {
            b.iter(|| min_link(black_box(g), Colour::Blue))
        });
        group.bench_with_input(BenchmarkId::new("brute", &case), &game, |b, g| {
            b.iter(|| brute_force(black_box(g), 6, 400_000))
        });
    }
    group.finish();
}

fn full(c: &mut Criterion) {
    let mut group = c.benchmark_group("rx_full");
    group.sample_size(20).measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_millis(300));
    let content = Arc::new(Content::house());
    for (seed, turns) in FULL {
        let mut game = Game::new(content.clone(), &Colour::ALL, Options::default(), seed).expect("a game");
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while game.turns() < turns && !game.is_over() {
            play_turn(&mut game, &mut rng).expect("the policy plays legal turns");
        }
        let fewest: Vec<Option<usize>> =
            Colour::ALL.iter().map(|&c| min_link(&game, c).map(|(p, _)| p.tiles.len())).collect();
        let case = format!("s{seed}-t{turns}");
        write_answer(
            "rx_full",
            "linker",
            &case,
            json!({"tiles": fewest, "hexes": content.hexes.len(), "laid": game.tiles().len()}),
        );
        group.bench_with_input(BenchmarkId::new("linker", &case), &game, |b, g| {
            b.iter(|| min_link(black_box(g), Colour::Blue))
        });
    }
    group.finish();
}

fn short(c: &mut Criterion) {
    let mut group = c.benchmark_group("rx_short");
    group.sample_size(10).measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_millis(300));
    for straight in [0u32, 3] {
        let text = HOUSE_MAP_TOML
            .replace("straight = 100", &format!("straight = {straight}"))
            .replace("curved = 100", &format!("curved = {}", 200 - straight));
        let content = Arc::new(Content::from_toml("short.toml", &text).expect("the house map, cut"));
        let game = Game::new(content.clone(), &Colour::ALL, Options::default(), 1).expect("a game");
        let (plan, stats) = min_link(&game, Colour::Blue).expect("a plan within the supply");
        let straight_used =
            plan.tiles.iter().filter(|(_, e)| e.kind(game.options().curve) == Some(TileKind::Straight)).count();
        assert!(straight_used <= straight as usize, "the plan overdraws the straight pile");
        let case = format!("s{straight}");
        write_answer(
            "rx_short",
            "linker",
            &case,
            json!({"tiles": plan.tiles.len(), "straight": straight, "supply_expanded": stats.supply_expanded}),
        );
        group.bench_with_input(BenchmarkId::new("linker", &case), &game, |b, g| {
            b.iter(|| min_link(black_box(g), Colour::Blue))
        });
    }
    group.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    small(&mut c);
    full(&mut c);
    short(&mut c);
    c.final_summary();
}
