//! The Cube Express review of a played game (issue 15): the planner's own best turns lose
//! nothing; one turn changed to a worse legal turn loses exactly the V1 difference at that turn,
//! with the values the planner gives those positions planned from scratch; the review is
//! consistent, the same on any thread count and with or without the work shared between
//! positions; the embedded sample game is the generator's.

use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use signalbox_engine::cube_express::catalogue::Content;
use signalbox_engine::cube_express::game::Game;
use signalbox_engine::cube_express::position::{Record, SAMPLE_GAME_JSON, from_state, read_record};
use signalbox_solver::analysis::Review;
use signalbox_solver::cube_express::analysis::{
    SAMPLE_PLAYERS, SAMPLE_SEED, SamplePlayer, analyse, analyse_from_scratch, random_turn, sample_record,
};
use signalbox_solver::cube_express::plan::{PlanOptions, plan_turn};
use signalbox_solver::cube_express::value::{Weights, value};

fn content() -> Arc<Content> {
    Arc::new(Content::house())
}

fn options() -> PlanOptions {
    PlanOptions::default()
}

/// The planner's own line: `turns` turns from the setup, each the planner's best.
fn planned(players: usize, seed: u64, turns: usize) -> Record {
    let player = SamplePlayer { mistakes: 0.0, tries: 0, turns: Some(turns) };
    sample_record(content(), players, seed, player, &options()).expect("a planned line")
}

fn review_of(record: &Record) -> Review {
    analyse(content(), record, "test", &options(), &|_| ()).expect("analysed").review
}

fn assert_consistent(review: &Review) {
    assert!(review.problems().is_empty(), "{:?}", review.problems());
    for d in &review.decisions {
        assert!(d.loss >= 0.0, "decision {} loses {}", d.index, d.loss);
        assert_eq!(d.value_before, d.best_value_after, "decision {}", d.index);
    }
}

/// The planner's value of the position, planned from scratch: a new game read back from the
/// position's state (no replay, nothing carried over).
fn planned_from_scratch(game: &Game) -> i32 {
    let fresh = from_state(content(), &game.state()).expect("the position reads back");
    plan_turn(&fresh, &options()).expect("a plan").value
}

/// The embedded sample game is what the generator makes (`SIGNALBOX_WRITE_SAMPLE=1` writes it
/// instead: `SIGNALBOX_WRITE_SAMPLE=1 cargo test -p signalbox-solver --test cube_express_analysis
/// the_sample_game_is_the_generators`).
#[test]
fn the_sample_game_is_the_generators() {
    let record = sample_record(content(), SAMPLE_PLAYERS, SAMPLE_SEED, SamplePlayer::default(), &options())
        .expect("the sample game");
    let text = format!("{}\n", serde_json::to_string(&record).expect("JSON"));
    if std::env::var_os("SIGNALBOX_WRITE_SAMPLE").is_some() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/data/cube_express/sample-game.json");
        std::fs::write(path, &text).expect("written");
        return;
    }
    let embedded = read_record("sample", SAMPLE_GAME_JSON).expect("the embedded sample reads");
    assert_eq!(embedded, record, "the embedded sample game is not the generator's: regenerate it");
    let end = record.replay(content(), "sample").expect("replays");
    assert!(end.is_over(), "the sample game is complete");
    let review = review_of(&record);
    assert_consistent(&review);
    assert!(review.summary.turning_points.len() == 3, "the sample's mistakes show");
}

/// Every turn the planner's best: no turn loses anything, every value is proven, and each
/// value is the planner's for that position planned from scratch.
#[test]
fn the_planners_own_turns_lose_nothing() {
    for (players, seed, turns) in [(2, 3, 8), (3, 7, 7), (4, 2, 8)] {
        let record = planned(players, seed, turns);
        let review = review_of(&record);
        assert_consistent(&review);
        assert_eq!(review.decisions.len(), turns);
        let games = record.games(content(), "test").expect("replays");
        for d in &review.decisions {
            assert_eq!(d.loss, 0.0, "p{players} s{seed} turn {}", d.turn);
            assert_eq!(d.value_after, d.value_before);
            assert!(d.proven);
            assert_eq!(d.player, usize::from(games[d.turn - 1].active()));
            assert_eq!(d.value_before, f64::from(planned_from_scratch(&games[d.turn - 1])));
        }
        assert!(review.summary.turning_points.is_empty());
    }
}

/// One turn changed to a worse legal turn (a random one worth less than the best), the rest the
/// planner's from the position it leaves: that turn loses exactly the V1 difference, every
/// other turn nothing, and the values are the planner's for those positions from scratch.
#[test]
fn one_worse_turn_loses_exactly_its_difference() {
    let weights = Weights::default();
    for (players, seed, changed) in [(2, 5, 3), (3, 11, 4), (3, 4, 1), (4, 9, 5)] {
        let start = planned(players, seed, changed);
        let before = start.replay(content(), "test").expect("replays");
        let best = plan_turn(&before, &options()).expect("a plan").value;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (worse, after) = (0..200)
            .filter_map(|_| random_turn(&before, &mut rng))
            .find(|(_, after)| value(&before, after, &weights) < best)
            .expect("a worse legal turn");
        let played = value(&before, &after, &weights);
        // The planner's turns after it, from the position it leaves.
        let mut turns = start.turns.clone();
        turns.push(worse);
        let mut game = after;
        for _ in 0..3 {
            let plan = plan_turn(&game, &options()).expect("a plan");
            turns.push(plan.actions);
            game = plan.after;
        }
        let record = Record::new(players, seed, start.options, turns);
        let review = review_of(&record);
        assert_consistent(&review);
        let games = record.games(content(), "test").expect("replays");
        for d in &review.decisions {
            let here = &games[d.turn - 1];
            assert_eq!(d.value_before, f64::from(planned_from_scratch(here)), "p{players} s{seed} turn {}", d.turn);
            assert_eq!(d.value_after, f64::from(value(here, &games[d.turn], &weights)));
            if d.turn == changed + 1 {
                assert_eq!(d.loss, f64::from(best - played), "p{players} s{seed}");
                assert!(d.loss > 0.0);
            } else {
                assert_eq!(d.loss, 0.0, "p{players} s{seed} turn {}", d.turn);
            }
        }
        assert_eq!(review.summary.turning_points, vec![changed + 1]);
    }
}

/// The review does not depend on the thread count, nor on sharing the work between positions:
/// each decision computed on its own (the record replayed from the setup to it) is the same.
#[test]
fn the_review_is_the_same_on_any_thread_count_and_from_scratch() {
    let record = sample_record(content(), 3, 8, SamplePlayer { mistakes: 0.5, tries: 4, turns: Some(6) }, &options())
        .expect("a line");
    let on = |threads| {
        let o = PlanOptions { threads: Some(threads), ..options() };
        analyse(content(), &record, "test", &o, &|_| ()).expect("analysed").review
    };
    let one = on(1);
    assert_consistent(&one);
    assert_eq!(one, on(3));
    let scratch = analyse_from_scratch(content(), &record, "test", &options()).expect("analysed").review;
    assert_eq!(one, scratch);
}

/// A time limit that stops every search at once: the values are labelled not proven, the review
/// stays consistent and no loss is negative.
#[test]
fn a_time_limit_labels_the_values_not_proven() {
    let record = planned(3, 7, 4);
    let o = PlanOptions { time_limit: Some(std::time::Duration::ZERO), ..options() };
    let review = analyse(content(), &record, "test", &o, &|_| ()).expect("analysed").review;
    assert_consistent(&review);
    assert!(!review.summary.proven);
    assert!(review.decisions.iter().all(|d| !d.proven));
}
