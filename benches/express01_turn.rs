//! Express 01 best turn: the exact search against the naive reference in the same run, and how
//! the search's time grows with the cards in hand.
//!
//! Groups (criterion ids `<group>/<function>/<parameter>`):
//! - `express01_turn/{search,naive}/small`: the best turn of [`SMALL`] small positions (the
//!   first of the 500 of the agreement test's kind: hands of at most one card, random and greedy
//!   self-play on both maps), `turn::best_turns` against `turn::naive_best`, per iteration all
//!   positions. Before timing both must give the same value at every position.
//! - `express01_turn/growth/hand-<h>`: not timed by criterion. Mid-game positions of greedy
//!   self-played 3-player short games (every third turn start from round 4 of seeds 1 and 2 on
//!   both maps, hands of 8 to 12 cards), each hand cut to `h` cards (all for `h` = 12), the best
//!   turn searched once with a [`LIMIT`] deadline on one thread; the times, the median and how
//!   many were proven are written to `answer.json`.
//!
//! `examples/performance_report.rs` turns them into the "Express 01 best turn" section of
//! `reports/performance.md`:
//!
//! ```text
//! cargo bench --bench express01_turn
//! cargo run --release --example performance_report
//! ```

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, SamplingMode};
use serde_json::json;
use signalbox_engine::express01::catalogue::Catalogue;
use signalbox_engine::express01::game::Game;
use signalbox_engine::express01::round::Length;
use signalbox_solver::express01::game_positions::{Cut, agreement_positions, cut, game_of, turn_starts};
use signalbox_solver::express01::selfplay::{BestRoute, Policy};
use signalbox_solver::express01::turn::{Limit, best_turns, naive_best};

#[path = "support/answer.rs"]
mod answer;
#[path = "support/criterion_dir.rs"]
mod criterion_dir;
use answer::{bench_mode, write_answer};

/// Small positions timed against the naive reference.
const SMALL: usize = 40;
/// The deadline of each search of the growth measurement.
const LIMIT: Duration = Duration::from_secs(5);
/// The hand sizes of the growth measurement (12: the whole hand).
const HANDS: [usize; 5] = [2, 4, 6, 8, 12];

/// Mid-game positions with 8 to 12 cards in the mover's hand.
fn mid_game(catalogue: &Catalogue) -> Vec<Game<'_>> {
    let mut out = Vec::new();
    for map in ["germany", "usa"] {
        for seed in 1..=2 {
            for (i, setup) in
                turn_starts(catalogue, map, seed, 3, Length::Short, Policy::Greedy).into_iter().enumerate()
            {
                if i < 9 || i % 3 != 0 {
                    continue;
                }
                let Some(game) = game_of(catalogue, setup) else { continue };
                let hand = game.seats()[game.mover()].hand.len();
                if (8..=12).contains(&hand) {
                    out.push(game);
                }
            }
        }
    }
    out
}

fn growth(catalogue: &Catalogue) {
    let games = mid_game(catalogue);
    for h in HANDS {
        let mut times = Vec::new();
        let mut proven = 0;
        for game in &games {
            let setup = game.to_setup();
            let shape =
                Cut { hand: if h >= 12 { usize::MAX } else { h }, engine: true, mover_shares: true, shares: None };
            let Some(g) = game_of(catalogue, cut(catalogue, setup, game.mover(), shape)) else { continue };
            let t = Instant::now();
            let found = best_turns(&g, &BestRoute, 1, Limit::until(t + LIMIT));
            times.push(t.elapsed().as_secs_f64());
            proven += usize::from(found.proven);
        }
        let mut sorted = times.clone();
        sorted.sort_by(f64::total_cmp);
        let median = sorted.get(sorted.len() / 2).copied().unwrap_or(0.0);
        let answer = json!({
            "hand": if h >= 12 { "whole".to_string() } else { h.to_string() },
            "positions": times.len(),
            "proven": proven,
            "limit_seconds": LIMIT.as_secs_f64(),
            "median_seconds": median,
            "seconds": times,
        });
        write_answer("express01_turn", "growth", &format!("hand-{h}"), &answer);
    }
}

fn main() {
    let catalogue = Catalogue::house();
    let small = agreement_positions(&catalogue, SMALL);
    let expected: Vec<i32> = small.iter().map(|g| naive_best(g, &BestRoute).expect("a turn ends")).collect();
    let found: Vec<i32> = small.iter().map(|g| best_turns(g, &BestRoute, 1, Limit::none()).best().value).collect();
    assert_eq!(found, expected, "the search and the naive reference agree before timing");
    write_answer("express01_turn", "search", "small", &json!({ "positions": small.len() }));
    write_answer("express01_turn", "naive", "small", &json!({ "positions": small.len() }));
    let mut c = Criterion::default().configure_from_args();
    {
        let mut group = c.benchmark_group("express01_turn");
        group.sampling_mode(SamplingMode::Flat).sample_size(10).warm_up_time(Duration::from_secs(1));
        group.measurement_time(Duration::from_secs(10));
        group.bench_function(BenchmarkId::new("search", "small"), |b| {
            b.iter(|| {
                small.iter().map(|g| black_box(best_turns(g, &BestRoute, 1, Limit::none()).best().value)).sum::<i32>()
            })
        });
        group.bench_function(BenchmarkId::new("naive", "small"), |b| {
            b.iter(|| small.iter().map(|g| black_box(naive_best(g, &BestRoute).unwrap_or(0))).sum::<i32>())
        });
        group.finish();
    }
    if bench_mode() {
        growth(&catalogue);
    }
    c.final_summary();
}
