//! Express 01 whole games: self-play speed, and the legal steps against the naive reference, in
//! the same run. Everything runs on one thread (the global rayon pool, which the route search uses, has one).
//!
//! Groups (criterion ids `<group>/<function>/<parameter>`):
//! - `express01_selfplay/random/<map>`: [`GAMES`] whole short 3-player games with the random
//!   policy (`selfplay`, seeds 1 to [`GAMES`]) per iteration, on the house Germany and USA maps.
//!   Before timing each game is played once: it must end by the rules, its final state must have
//!   no problem, and its record must replay with every rule checked to the same final state; every
//!   timed iteration's final states are compared with these outside the timed region.
//! - `express01_legal/{legal,naive}/<map>`: the legal steps of every position of a fixed sample
//!   (`naive_game::selfplay_positions`: the 3-player random game of seed 1, up to
//!   [`PER_KIND`] positions for each part of a turn, with and without a card that may be built or
//!   taken from just under a deck's face-up boundary), `Game::legal` against
//!   `naive_game::naive_legal`, per iteration all positions. Before timing both must reach the
//!   same set of games at every position.
//!
//! Each case writes `answer.json` next to criterion's estimates; `examples/performance_report.rs`
//! turns them into the "Express 01 game" section of `reports/performance.md`:
//!
//! ```text
//! cargo bench --bench express01_game
//! cargo run --release --example performance_report
//! ```

use std::collections::HashSet;
use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, SamplingMode};
use serde_json::{Value, json};
use signalbox_engine::express01::catalogue::Catalogue;
use signalbox_engine::express01::game::{Game, Step};
use signalbox_engine::express01::record::{StartSetup, replay};
use signalbox_engine::express01::round::Length;
use signalbox_solver::express01::naive_game::{StateKey, naive_legal, outcome, selfplay_positions};
use signalbox_solver::express01::selfplay::{BestRoute, Ending, MAX_ROUNDS, Policy, selfplay};

#[path = "support/answer.rs"]
mod answer;
#[path = "support/criterion_dir.rs"]
mod criterion_dir;
use answer::write_answer;

/// Games per iteration of the self-play case (seeds 1 to `GAMES`).
const GAMES: u64 = 5;
/// Positions per part of a turn in the legal-step sample.
const PER_KIND: usize = 3;
/// The maps.
const MAPS: [&str; 2] = ["germany", "usa"];

/// The load average (1, 5, 15 min) as `/proc/loadavg` gives it, empty where it does not.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

fn start(map: &str, seed: u64) -> StartSetup {
    StartSetup::new(map, seed, ["Ada", "Bo", "Cy"].map(String::from).to_vec(), Length::Short)
}

/// The final position of each game of one iteration, as JSON.
fn play_games(catalogue: &Catalogue, map: &str) -> Vec<String> {
    (1..=GAMES)
        .map(|seed| {
            let played = selfplay(catalogue, &start(map, seed), Policy::Random, MAX_ROUNDS).expect("a new game");
            serde_json::to_string(&played.game.to_setup()).unwrap_or_default()
        })
        .collect()
}

/// The probe of one map's games: each ends by the rules, is sound, and replays to the same end.
fn probe_games(catalogue: &Catalogue, map: &str) -> (Vec<String>, Value) {
    let mut ends = Vec::new();
    let (mut steps, mut rounds, mut turns) = (0usize, 0u64, 0usize);
    for seed in 1..=GAMES {
        let played = selfplay(catalogue, &start(map, seed), Policy::Random, MAX_ROUNDS).expect("a new game");
        assert_eq!(played.ending, Ending::Over, "{map} seed {seed}: the game ends by the rules");
        assert!(played.game.problems().is_empty(), "{map} seed {seed}: {:?}", played.game.problems());
        let again = replay("self-play", &played.record, catalogue, &BestRoute, &mut |_, _| ())
            .unwrap_or_else(|e| panic!("{map} seed {seed}: the record does not replay: {e}"));
        let end = serde_json::to_string(&played.game.to_setup()).unwrap_or_default();
        assert_eq!(serde_json::to_string(&again.game.to_setup()).unwrap_or_default(), end, "{map} seed {seed}");
        steps += again.steps;
        rounds += u64::from(played.game.round());
        turns += played.record.turns.len();
        ends.push(end);
    }
    let answer = json!({
        "map": map,
        "players": 3,
        "policy": "random",
        "length": "short",
        "games": GAMES,
        "steps": steps,
        "turns": turns,
        "rounds": rounds,
        "load_average": load_average(),
    });
    (ends, answer)
}

fn selfplay_group(c: &mut Criterion, catalogue: &Catalogue) {
    let mut group = c.benchmark_group("express01_selfplay");
    group.sampling_mode(SamplingMode::Flat).sample_size(10).warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(10));
    for map in MAPS {
        let (ends, answer) = probe_games(catalogue, map);
        write_answer("express01_selfplay", "random", map, &answer);
        group.bench_function(BenchmarkId::new("random", map), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let t = Instant::now();
                    let got = black_box(play_games(catalogue, map));
                    total += t.elapsed();
                    assert_eq!(got, ends, "{map}: an iteration's games changed");
                }
                total
            })
        });
    }
    group.finish();
}

/// The set of games the steps lead to.
fn reached(game: &Game<'_>, steps: &[Step]) -> HashSet<StateKey> {
    steps.iter().map(|&s| outcome(game, s)).collect()
}

fn legal_group(c: &mut Criterion, catalogue: &Catalogue) {
    let referee = BestRoute;
    let mut group = c.benchmark_group("express01_legal");
    group.sampling_mode(SamplingMode::Flat).sample_size(10).warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(8));
    for map in MAPS {
        let positions = selfplay_positions(catalogue, &start(map, 1), Policy::Random, PER_KIND).expect("a new game");
        let mut listed = 0usize;
        let mut naive_listed = 0usize;
        for game in &positions {
            let legal = game.legal(&referee);
            let naive = naive_legal(game, &referee);
            assert_eq!(reached(game, &legal), reached(game, &naive), "{map}: legal and naive disagree");
            listed += legal.len();
            naive_listed += naive.len();
        }
        assert_eq!(listed, naive_listed, "{map}: one step per game reached");
        let answer = json!({
            "map": map,
            "positions": positions.len(),
            "legal_steps": listed,
            "source": "the 3-player random game of seed 1",
        });
        write_answer("express01_legal", "legal", map, &answer);
        write_answer("express01_legal", "naive", map, &answer);
        group.bench_function(BenchmarkId::new("legal", map), |b| {
            b.iter(|| positions.iter().map(|g| black_box(g.legal(&referee)).len()).sum::<usize>())
        });
        group.bench_function(BenchmarkId::new("naive", map), |b| {
            b.iter(|| positions.iter().map(|g| black_box(naive_legal(g, &referee)).len()).sum::<usize>())
        });
    }
    group.finish();
}

fn main() {
    let catalogue = Catalogue::house();
    // One core: the route search's rayon work runs on the one thread of the global pool.
    rayon::ThreadPoolBuilder::new().num_threads(1).build_global().expect("the global pool is not yet built");
    let mut c = Criterion::default().without_plots().configure_from_args();
    selfplay_group(&mut c, &catalogue);
    legal_group(&mut c, &catalogue);
    c.final_summary();
}
