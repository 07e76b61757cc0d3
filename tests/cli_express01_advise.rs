//! `signalbox express01 advise`: the best turn of the embedded sample, its alternatives, the
//! JSON's turn replayed with every rule checked to its value, the same answer on 1 and 2
//! threads, and bad input.

mod support;

use serde_json::Value;
use signalbox_engine::express01::catalogue::Catalogue;
use signalbox_engine::express01::game::Game;
use signalbox_engine::express01::position::{ADVICE_SAMPLE_JSON, Position};
use signalbox_solver::express01::selfplay::BestRoute;
use signalbox_solver::express01::turn::evaluation;
use support::{run, temp_path};

#[test]
fn advise_prints_the_best_turn_with_its_value_and_alternatives_and_says_what_it_assumes() {
    let (code, out, err) = run(&["express01", "advise"]);
    assert_eq!(code, Some(0), "{err}");
    for needle in [
        "to move",
        "Assumed known: every hand and the order of every deck",
        "Evaluation:",
        "Best turn: value",
        "(proven)",
        "Alternatives",
        "Capitals after it",
    ] {
        assert!(out.contains(needle), "{needle:?} missing:\n{out}");
    }
}

#[test]
fn the_json_turn_replays_to_its_value_and_threads_do_not_change_the_answer() {
    let (code, one, err) = run(&["express01", "advise", "--json", "--threads", "1"]);
    assert_eq!(code, Some(0), "{err}");
    let (code, two, err) = run(&["express01", "advise", "--json", "--threads", "2"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(one, two, "the answer depends on the thread count");
    let v: Value = serde_json::from_str(&one).expect("JSON");
    assert_eq!(v["proven"], true);
    assert!(v["assumes"].as_str().is_some_and(|s| s.contains("every hand")));
    let catalogue = Catalogue::house();
    let position = Position::from_json("sample", ADVICE_SAMPLE_JSON, &catalogue).expect("the sample");
    let start = Game::from_position(&position).expect("a game");
    for turn in std::iter::once(&v["best"]).chain(v["alternatives"].as_array().expect("a list")) {
        let mut game = start.clone();
        let steps = turn["steps"].as_array().expect("steps");
        for (i, s) in steps.iter().enumerate() {
            if i + 1 == steps.len() {
                assert_eq!(i64::from(evaluation(&game, start.mover())), turn["value"].as_i64().expect("a value"));
            }
            let step = game.parse_step(s.as_str().expect("a step")).expect("a step in words");
            game.play(step, &BestRoute).unwrap_or_else(|e| panic!("{s}: {e}"));
        }
    }
    assert!(v["best"]["value"].as_i64() >= v["alternatives"][0]["value"].as_i64());
}

#[test]
fn advise_refuses_bad_input_with_exit_2() {
    let no_decks = temp_path("express01-advise", "no-decks.json");
    std::fs::write(&no_decks, signalbox_engine::express01::position::SAMPLE_POSITION_JSON).expect("written");
    let svg = temp_path("express01-advise", "after.svg");
    std::fs::write(&svg, "keep").expect("written");
    for args in [
        vec!["express01", "advise", no_decks.to_str().expect("a path")],
        vec!["express01", "advise", "--svg", svg.to_str().expect("a path")],
        vec!["express01", "advise", "--top", "0"],
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, Some(2), "{args:?}: {out}{err}");
        assert!(err.contains("error:"), "{args:?}: {err}");
    }
    assert_eq!(std::fs::read_to_string(&svg).expect("kept"), "keep");
}

#[test]
fn on_an_end_of_game_position_advise_prints_the_exact_last_round_and_its_line_replays() {
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/express01/last-round.json");
    let (code, out, err) = run(&["express01", "advise", fixture]);
    assert_eq!(code, Some(0), "{err}");
    for needle in ["The exact last round, every player for themselves", "proven", "Final capitals:"] {
        assert!(out.contains(needle), "{needle:?} missing:\n{out}");
    }
    let (code, json, err) = run(&["express01", "advise", fixture, "--json", "--opponents", "paranoid"]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(&json).expect("JSON");
    let last = &v["last_round"];
    assert_eq!(last["proven"], true, "{last}");
    let catalogue = Catalogue::house();
    let text = std::fs::read_to_string(fixture).expect("the fixture");
    let position = Position::from_json("fixture", &text, &catalogue).expect("legal");
    let mut game = Game::from_position(&position).expect("a game");
    for turn in last["line"].as_array().expect("a line") {
        for s in turn["steps"].as_array().expect("steps") {
            let step = game.parse_step(s.as_str().expect("a step")).expect("a step in words");
            game.play(step, &BestRoute).unwrap_or_else(|e| panic!("{s}: {e}"));
        }
    }
    assert!(game.is_over(), "the line plays the round to the end of the game");
    for (p, f) in last["finals"].as_array().expect("finals").iter().enumerate() {
        assert_eq!(i64::from(game.capital(p).total()), f["capital"].as_i64().expect("a capital"));
    }
}
