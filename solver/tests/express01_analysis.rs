//! The review of an Express 01 game: the embedded sample is the generator's; a game whose turns
//! are the search's own best turns loses nothing at any turn; a worse turn put in loses exactly
//! the naive search's best less that turn's evaluation, both computed from scratch; and the
//! search within a state budget is the search of `turn.rs` when the budget is not reached.

use signalbox_engine::express01::card::CardNumber;
use signalbox_engine::express01::catalogue::Catalogue;
use signalbox_engine::express01::game::{Game, Phase, Step};
use signalbox_engine::express01::position::{Position, PositionSetup, deck_names};
use signalbox_engine::express01::record::{Record, Recorder, SAMPLE_GAME_JSON, StartSetup, read, replay};
use signalbox_engine::express01::round::Length;
use signalbox_solver::express01::analysis::{
    AnalysisOptions, SAMPLE_MAP, SAMPLE_MISTAKE_EVERY, SAMPLE_PLAYERS, SAMPLE_SEED, analyse, last_round_start,
    sample_record,
};
use signalbox_solver::express01::selfplay::{BestRoute, MAX_ROUNDS, Policy, play_out, policy_rng};
use signalbox_solver::express01::turn::{Limit, best_turn, best_turns, ends_turn, evaluation, naive_best};

/// The embedded sample game is what the generator makes (`SIGNALBOX_WRITE_SAMPLE=1` writes it
/// instead: `SIGNALBOX_WRITE_SAMPLE=1 cargo test --release -p signalbox-solver --test
/// express01_analysis the_sample_game_is_the_generators`).
#[test]
fn the_sample_game_is_the_generators() {
    let catalogue = Catalogue::house();
    let record = sample_record(&catalogue, SAMPLE_MAP, SAMPLE_SEED, &SAMPLE_PLAYERS, SAMPLE_MISTAKE_EVERY)
        .expect("the sample game");
    let text = format!("{}\n", serde_json::to_string_pretty(&record).expect("JSON"));
    if std::env::var_os("SIGNALBOX_WRITE_SAMPLE").is_some() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/data/express01/sample-game.json");
        std::fs::write(path, &text).expect("written");
        return;
    }
    assert!(text == SAMPLE_GAME_JSON, "the embedded sample game is not the generator's: regenerate it");
    let replayed = replay("sample", &record, &catalogue, &BestRoute, &mut |_, _| {}).expect("replays");
    assert!(replayed.game.is_over(), "the sample game is complete");
}

/// A start of a turn of a self-played game with each hand cut to `keep` cards (the rest put at
/// the bottom of their decks) and the black engine out of the round, so that every turn's search
/// is exact and fast.
fn small_start(catalogue: &Catalogue, seed: u64, round: u32, keep: usize) -> PositionSetup {
    let start = StartSetup::new("germany", seed, ["A", "B", "C"].map(String::from).to_vec(), Length::Short);
    let position = Position::from_setup(start.position(catalogue).expect("a start"), catalogue).expect("legal");
    let mut game = Game::from_position(&position).expect("a game");
    let mut at = None;
    play_out(&mut game, Policy::Random, &mut policy_rng(seed), MAX_ROUNDS, &mut |g, _| {
        if at.is_none() && *g.phase() == Phase::Pair && g.round() == round {
            at = Some(g.to_setup());
        }
    });
    let mut s = at.expect("the round is reached");
    if s.black_engine.take().is_some() {
        s.black_engine_used = true;
    }
    for p in &mut s.players {
        let rest: Vec<u16> = p.hand.drain(keep.min(p.hand.len())..).collect();
        for n in rest {
            let card = catalogue.card(CardNumber(n)).expect("a card");
            let deck = deck_names(&catalogue.maps[0].kinds)
                .into_iter()
                .find(|(_, (k, st))| *k == card.kind && *st == card.stage)
                .map(|(name, _)| name)
                .expect("a deck");
            s.decks.as_mut().expect("decks").entry(deck.to_string()).or_default().insert(0, n);
        }
    }
    s
}

fn game_of<'c>(catalogue: &'c Catalogue, setup: &PositionSetup) -> Game<'c> {
    Game::from_position(&Position::from_setup(setup.clone(), catalogue).expect("legal")).expect("a game")
}

/// The evaluation at the end of a turn played from `before` (before its last step).
fn played_value(before: &Game<'_>, steps: &[Step]) -> i32 {
    let mut g = before.clone();
    let (last, rest) = steps.split_last().expect("a turn has steps");
    for &s in rest {
        g.play(s, &BestRoute).expect("legal");
    }
    let v = evaluation(&g, before.mover());
    let mut h = g.clone();
    h.play(*last, &BestRoute).expect("legal");
    assert!(ends_turn(&g, &h), "the last step ends the turn");
    v
}

/// A record from `setup` of `turns` turns: each the search's best, except turn `worse` (from 0),
/// where the first pair's turn of a random walk worth less than the best is played. Returns the
/// record and, for the worse turn, the naive best and its value, computed from scratch.
fn record_of(
    catalogue: &Catalogue,
    setup: &PositionSetup,
    turns: usize,
    worse: Option<usize>,
) -> (Record, Option<(i32, i32)>) {
    let mut game = game_of(catalogue, setup);
    let mut recorder = Recorder::from_position(setup.clone(), None);
    let mut lost = None;
    let mut rng = policy_rng(9);
    for t in 0..turns {
        if game.is_over() {
            break;
        }
        let best = best_turn(&game, &BestRoute);
        assert!(best.proven);
        let steps = if Some(t) == worse {
            // Random turns until one is worth less than the best.
            let naive = naive_best(&game, &BestRoute).expect("a turn ends");
            let steps = (0..200)
                .map(|_| {
                    let mut g = game.clone();
                    let mut line = Vec::new();
                    loop {
                        let legal = g.legal(&BestRoute);
                        let s = *rand::seq::IndexedRandom::choose(legal.as_slice(), &mut rng).expect("a step");
                        let before = g.clone();
                        g.play_unchecked(s);
                        line.push(s);
                        if ends_turn(&before, &g) {
                            return line;
                        }
                    }
                })
                .find(|line| played_value(&game, line) < naive)
                .expect("a worse turn among 200 random ones");
            lost = Some((naive, played_value(&game, &steps)));
            steps
        } else {
            best.best().steps.clone()
        };
        for s in steps {
            recorder.step(&game, s);
            game.play(s, &BestRoute).expect("legal");
        }
    }
    (recorder.finish(&game), lost)
}

fn exact() -> AnalysisOptions {
    AnalysisOptions { states: None, time_limit: None, threads: Some(1) }
}

#[test]
fn the_searchs_own_turns_lose_nothing_and_a_worse_turn_loses_exactly_its_difference() {
    let catalogue = Catalogue::house();
    for (seed, round) in [(1, 3), (4, 5)] {
        let setup = small_start(&catalogue, seed, round, 1);
        let (record, _) = record_of(&catalogue, &setup, 4, None);
        let a = analyse("own", &record, &catalogue, &exact(), &|_| ()).expect("analysed");
        let r = &a.review;
        assert!(r.problems().is_empty(), "{:?}", r.problems());
        assert_eq!(r.decisions.len(), 4);
        for d in &r.decisions {
            assert!(d.proven && d.lost_nothing(), "seed {seed}: decision {} lost {}", d.index, d.loss);
            assert_eq!(d.played.moves, serde_json::to_value(&record.turns[d.index - 1].steps).expect("JSON"));
        }
        assert!(r.summary.turning_points.is_empty());

        let (record, lost) = record_of(&catalogue, &setup, 4, Some(1));
        let (naive, value) = lost.expect("a worse turn");
        let a = analyse("worse", &record, &catalogue, &exact(), &|_| ()).expect("analysed");
        let r = &a.review;
        assert!(r.problems().is_empty(), "{:?}", r.problems());
        let d = &r.decisions[1];
        assert_eq!((d.value_before, d.value_after), (f64::from(naive), f64::from(value)));
        assert_eq!(d.loss, f64::from(naive - value));
        assert_eq!(r.summary.turning_points.first(), Some(&2));
        for d in r.decisions.iter().filter(|d| d.index != 2) {
            assert!(d.lost_nothing(), "seed {seed}: decision {} lost {}", d.index, d.loss);
        }
        // The details: the capitals after each turn are the engine's.
        let last = r.decisions.last().expect("a decision");
        let caps: Vec<u32> = (0..3).map(|p| a.end.capital(p).total()).collect();
        if !a.end.is_over() && a.end.round() == last.details["round"].as_u64().expect("a round") as u32 {
            assert_eq!(last.details["capitals"], serde_json::json!(caps));
        }
    }
}

/// A bonus payment in a record is checked against the best route: the optimum is the payout the
/// rules require, which a legal record pays.
#[test]
fn each_bonus_payment_is_checked_against_the_best_route() {
    let catalogue = Catalogue::house();
    let record = read("sample", SAMPLE_GAME_JSON).expect("the sample");
    let options = AnalysisOptions { states: Some(2_000), time_limit: None, threads: Some(1) };
    let a = analyse("sample", &record, &catalogue, &options, &|_| ()).expect("analysed");
    assert!(a.review.problems().is_empty(), "{:?}", a.review.problems());
    let bonuses: Vec<_> = a.review.decisions.iter().filter(|d| !d.details["bonus"].is_null()).collect();
    assert!(!bonuses.is_empty(), "the sample has a bonus payment");
    for d in bonuses {
        let b = &d.details["bonus"];
        assert_eq!(b["payout"], b["optimum"], "decision {}", d.index);
        assert_eq!(b["optimal"], true);
        assert!(b["route_stations"].as_array().is_some_and(|s| s.len() >= 2));
        assert!(d.played.text.contains(&format!(
            "bonus {} pays {}",
            b["company"].as_str().expect("a company"),
            b["payout"]
        )));
    }
    assert_eq!(a.review.charts.len(), 2);
    assert_eq!(a.review.charts[0].series[0].points.len(), a.review.decisions.len() + 1);
    // The last round, for the exact last-round search: the turns of the final round.
    let first = last_round_start(&a.turns, &a.end).expect("the sample game is over");
    let last = a.end.round();
    assert!(a.turns[first..].iter().all(|t| t.before.round() == last));
    assert!(first > 0 && a.turns[first - 1].before.round() < last);
    let last = a.last_round.as_ref().expect("the last round is searched");
    assert_eq!(last.first_turn, first);
    assert!(last.details["proven"].is_boolean() && last.details["played_finals"].is_array());
}

/// A state limit the search does not reach changes nothing; one it reaches makes the answer not
/// proven, with a bound above the best value.
#[test]
fn a_state_limit_not_reached_changes_nothing() {
    let catalogue = Catalogue::house();
    for (seed, round) in [(2, 2), (3, 4), (5, 6)] {
        let game = game_of(&catalogue, &small_start(&catalogue, seed, round, 2));
        let full = best_turns(&game, &BestRoute, 3, Limit::none());
        let within = best_turns(&game, &BestRoute, 3, Limit { states: Some(full.nodes), deadline: None });
        assert!(within.proven && full.proven);
        assert_eq!(within.turns, full.turns);
        assert_eq!(within.nodes, full.nodes);
        if full.nodes > 10 {
            let cut = best_turns(&game, &BestRoute, 1, Limit { states: Some(1), deadline: None });
            assert!(!cut.proven && cut.bound >= full.best().value && cut.best().value <= full.best().value);
        }
    }
}
