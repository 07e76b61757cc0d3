//! Railways Express: the analysis of a played game (`railways analyse`) with reuse between turns
//! against each turn analysed from scratch (the record replayed from the set-up and every player
//! linked afresh), in the same run, on the embedded sample game (four players on the house map).
//!
//! Group `railways_analyse/{reuse,scratch}/last-<n>`: the sample's last `n` turns analysed (the turns
//! before them only replayed), the default win-chance games per turn. Before timing both run once
//! and must give the same review with no problem in it; the answer (decisions, total loss) is
//! written to `answer.json` next to criterion's estimates.
//!
//! First, the whole sample is analysed once with reuse and timed with a clock (the issue's
//! target: a 4-player game under 2 minutes on 2 cores), written to
//! `railways_analyse/whole/sample/answer.json`.
//!
//! With `RX_ANALYSE_FULL=1`, the whole sample is also analysed once each way, timed with a
//! clock, and the time of each part of a turn is measured on its own (the best use of the roll,
//! the linker, the win chances), printed on standard error:
//!
//! ```text
//! cargo bench --bench railways_analyse
//! RX_ANALYSE_FULL=1 cargo bench --bench railways_analyse -- --test
//! ```

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion};
use serde_json::json;
use signalbox_engine::railways::catalogue::Content;
use signalbox_engine::railways::game::{Action, Game};
use signalbox_engine::railways::record::{Move, RecordSetup, SAMPLE_GAME_JSON, read};
use signalbox_solver::analysis::Review;
use signalbox_solver::railways::analysis::{AnalysisOptions, analyse};
use signalbox_solver::railways::link::link;
use signalbox_solver::railways::odds::{OddsOptions, odds};
use signalbox_solver::railways::roll::best_use;

#[path = "support/criterion_dir.rs"]
mod criterion_dir;
use criterion_dir::criterion_dir;

/// The sample's last turns analysed by the timed cases.
const LAST: usize = 3;

fn write_answer(group: &str, function: &str, parameter: &str, answer: serde_json::Value) {
    let dir = criterion_dir().join(group).join(function).join(parameter);
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join("answer.json"), answer.to_string());
}

fn review(content: &Arc<Content>, record: &RecordSetup, reuse: bool, from_turn: usize) -> Review {
    let options = AnalysisOptions { reuse, from_turn, ..AnalysisOptions::default() };
    analyse(content.clone(), record, "sample".into(), options, &|| {}).expect("a review").review
}

fn sample() -> (Arc<Content>, RecordSetup) {
    let content = Arc::new(Content::house());
    let (record, _) = read(content.clone(), "sample", SAMPLE_GAME_JSON).expect("the sample replays");
    (content, record)
}

fn slice(c: &mut Criterion) {
    let (content, record) = sample();
    let from = record.turns.len() - LAST;
    let with = review(&content, &record, true, from);
    let without = review(&content, &record, false, from);
    assert_eq!(with, without, "reuse changed the review");
    assert!(with.problems().is_empty(), "{:?}", with.problems());
    let case = format!("last-{LAST}");
    let total: f64 = with.decisions.iter().map(|d| d.loss).sum();
    write_answer("railways_analyse", "reuse", &case, json!({"decisions": with.decisions.len(), "total_loss": total}));
    write_answer(
        "railways_analyse",
        "scratch",
        &case,
        json!({"decisions": without.decisions.len(), "total_loss": total}),
    );
    let mut group = c.benchmark_group("railways_analyse");
    group.sample_size(10).measurement_time(Duration::from_secs(10));
    for (name, reuse) in [("reuse", true), ("scratch", false)] {
        group.bench_with_input(BenchmarkId::new(name, &case), &reuse, |b, &reuse| {
            b.iter(|| review(black_box(&content), &record, reuse, from))
        });
    }
    group.finish();
}

/// The whole sample each way, and the parts of a turn timed on their own.
fn full() {
    let (content, record) = sample();
    for reuse in [true, false] {
        let started = Instant::now();
        let r = review(&content, &record, reuse, 0);
        eprintln!(
            "whole sample ({} turns, {} decisions), reuse {reuse}: {:.1} s",
            record.turns.len(),
            r.decisions.len(),
            started.elapsed().as_secs_f64()
        );
    }
    let (mut best, mut links, mut chances) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    let mut game = Game::new(content.clone(), &record.seats, record.options, record.seed).expect("a game");
    for moves in &record.turns {
        let roll = moves
            .iter()
            .rev()
            .find_map(|m| match m.action() {
                Action::Roll { roll } | Action::Reroll { roll, .. } => Some(roll),
                _ => None,
            })
            .expect("a roll");
        let colour = game.players()[game.active()].colour;
        let t = Instant::now();
        black_box(best_use(&game, roll, None));
        best += t.elapsed();
        for m in moves {
            game.apply(&Move::action(m)).expect("legal");
        }
        let t = Instant::now();
        black_box(link(&game, colour, None));
        links += t.elapsed();
        if !game.is_over() {
            let t = Instant::now();
            black_box(odds(
                &game,
                OddsOptions { games: Some(AnalysisOptions::default().games), ..OddsOptions::default() },
                &|| {},
            ));
            chances += t.elapsed();
        }
    }
    eprintln!(
        "parts over the sample: best use of the roll {:.1} s, one link a turn {:.1} s, win chances {:.1} s",
        best.as_secs_f64(),
        links.as_secs_f64(),
        chances.as_secs_f64()
    );
}

/// The whole sample with reuse, timed once against the target.
fn whole() {
    let (content, record) = sample();
    let started = Instant::now();
    let r = review(&content, &record, true, 0);
    let seconds = started.elapsed().as_secs_f64();
    eprintln!("railways analyse, the whole sample with reuse: {seconds:.1} s (target: under 2 minutes)");
    write_answer(
        "railways_analyse",
        "whole",
        "sample",
        json!({ "seconds": seconds, "turns": record.turns.len(), "decisions": r.decisions.len(),
                "games": AnalysisOptions::default().games, "target": 120.0 }),
    );
}

fn main() {
    whole();
    if std::env::var_os("RX_ANALYSE_FULL").is_some() {
        full();
    }
    let mut c = Criterion::default().configure_from_args();
    slice(&mut c);
    c.final_summary();
}
