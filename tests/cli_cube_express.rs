//! End-to-end tests of `signalbox cube-express`: the plan of the embedded sample and of a file,
//! its JSON and picture, and bad input.

mod support;

use std::sync::Arc;

use serde_json::Value;
use signalbox_engine::cube_express::action::Action;
use signalbox_engine::cube_express::catalogue::Content;
use signalbox_engine::cube_express::game::Game;
use signalbox_engine::cube_express::options::Options;
use signalbox_engine::cube_express::position::{SAMPLE_POSITION_JSON, read_position};
use signalbox_solver::cube_express::value::{Weights, value};

use support::run;

fn temp(name: &str) -> std::path::PathBuf {
    support::temp_path("ce", name)
}

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/cube_express/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn plan_prints_a_checked_plan_and_json_and_svg_show_the_same_plan() {
    let (code, text, err) = run(&["cube-express", "plan"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(text.contains("Best turn (optimal): value"), "{text}");
    let svg = temp("plan.svg");
    let _ = std::fs::remove_file(&svg);
    let (code, out, err) = run(&["cube-express", "plan", "--json", "--svg", svg.to_str().expect("path")]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(&out).expect("JSON");
    let claimed = v["value"].as_i64().expect("a value");
    assert!(text.contains(&format!("value {claimed} (")), "text and JSON differ: {text}");
    // The JSON plan replays in the engine from the sample to the value claimed.
    let actions: Vec<Action> = serde_json::from_value(v["plan"].clone()).expect("actions");
    let content = Arc::new(Content::house());
    let game = read_position(content, "sample", SAMPLE_POSITION_JSON).expect("the sample");
    let after = game.play_turn(&actions).expect("the plan is legal");
    assert_eq!(i64::from(value(&game, &after, &Weights::default())), claimed);
    assert_eq!(
        text.lines().filter(|l| l.trim_start().chars().next().is_some_and(|c| c.is_ascii_digit())).count(),
        actions.len()
    );
    // The picture draws the tile laid and every locomotive move of that plan.
    let picture = std::fs::read_to_string(&svg).expect("the SVG");
    assert!(picture.starts_with("<svg") && picture.contains("#ff7f0e"), "the laid tile is outlined");
    let moves = actions.iter().filter(|a| matches!(a, Action::Move { .. })).count();
    if moves > 0 {
        assert!(picture.contains("<polyline"), "the locomotive path is drawn");
    }
    // An existing picture is not replaced without --force.
    let (code, _, err) = run(&["cube-express", "plan", "--svg", svg.to_str().expect("path")]);
    assert_eq!(code, Some(2));
    assert!(err.contains("already exists") && err.contains("--force"), "{err}");
}

#[test]
fn a_whole_game_record_replays_to_the_scores_the_engine_computes() {
    use rand::SeedableRng;
    use signalbox_engine::cube_express::game::Game;
    use signalbox_engine::cube_express::options::Options;
    use signalbox_engine::cube_express::position::Record;
    use signalbox_engine::cube_express::score::final_scores;
    let content = Arc::new(Content::house());
    let mut game = Game::new(content, 3, 21, Options::default()).expect("setup");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(21);
    let mut turns: Vec<Vec<Action>> = vec![Vec::new()];
    while !game.is_over() {
        let a = game.random_action(&mut rng).expect("an action");
        let before = game.turns_played();
        game.apply(&a).expect("legal");
        turns.last_mut().expect("a turn").push(a);
        if game.turns_played() != before {
            turns.push(Vec::new());
        }
    }
    turns.pop();
    let record = Record { players: 3, seed: 21, options: Options::default(), turns };
    let path = temp("game.json");
    std::fs::write(&path, serde_json::to_string(&record).expect("JSON")).expect("write");
    let (code, out, err) = run(&["cube-express", "replay", path.to_str().expect("path"), "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["over"], true);
    let totals: Vec<i64> = final_scores(&game).iter().map(|s| i64::from(s.total())).collect();
    let replayed: Vec<i64> =
        v["scores"].as_array().expect("scores").iter().map(|s| s["total"].as_i64().expect("total")).collect();
    assert_eq!(replayed, totals);
    // An illegal action is named by its turn and place.
    let mut bad = record.clone();
    bad.turns[3].insert(0, Action::Market { slot: 0, cube: false });
    std::fs::write(&path, serde_json::to_string(&bad).expect("JSON")).expect("write");
    let (code, _, err) = run(&["cube-express", "replay", path.to_str().expect("path")]);
    assert_eq!(code, Some(2));
    assert!(err.contains("turns[3][0]"), "{err}");
}

#[test]
fn a_time_limit_reports_the_best_plan_found_with_an_upper_bound() {
    let (code, out, err) = run(&["cube-express", "plan", "--time-limit", "0.3", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(&out).expect("JSON");
    let (value, bound) = (v["value"].as_i64().expect("value"), v["upper_bound"].as_i64().expect("bound"));
    assert!(value <= bound, "{out}");
    assert_eq!(v["proven"].as_bool(), Some(value == bound));
    let (_, exact, _) = run(&["cube-express", "plan", "--json"]);
    let exact: Value = serde_json::from_str(&exact).expect("JSON");
    assert!(exact["value"].as_i64().expect("value") <= bound, "the bound holds the optimum");
}

#[test]
fn bad_input_is_refused_with_exit_code_2_and_a_clear_message() {
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["plan".into(), fixture("malformed-position.json")], "malformed-position.json:3:"),
        (vec!["plan".into(), fixture("illegal-position.json")], "27 cubes counted"),
        (vec!["plan".into(), fixture("illegal-position.json")], "in more than one place"),
        (vec!["plan".into(), fixture("no-such-file.json")], "no such file"),
        (vec!["plan".into(), "--lp-backend".into(), "glpk".into()], "expected microlp, lpsolve or cbc"),
        (vec!["plan".into(), "--time-limit".into(), "-1".into()], "seconds above 0"),
        (vec!["plan".into(), "--content".into(), fixture("illegal-position.json")], "illegal-position.json:1:"),
    ];
    for (args, expected) in cases {
        let mut all = vec!["cube-express".to_string()];
        all.extend(args);
        let refs: Vec<&str> = all.iter().map(String::as_str).collect();
        let (code, _, err) = run(&refs);
        assert_eq!(code, Some(2), "{all:?}: {err}");
        assert!(err.contains(expected), "{all:?}: expected {expected:?} in {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[cfg(not(feature = "cbc"))]
#[test]
fn a_backend_not_built_in_is_named() {
    let (code, _, err) = run(&["cube-express", "plan", "--lp-backend", "cbc"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--features cbc"), "{err}");
}

#[test]
fn solo_prints_a_proven_line_that_the_engine_replays_to_its_score() {
    let (code, out, err) = run(&["cube-express", "solo", "--seed", "3", "--turns", "1", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let json: Value = serde_json::from_str(&out).expect("JSON");
    let score = json["score"].as_i64().expect("score");
    assert_eq!(json["bound"].as_i64(), Some(score));
    assert_eq!(json["gap"].as_i64(), Some(0));
    assert_eq!(json["proven"], Value::Bool(true));
    let line: Vec<Vec<Action>> = serde_json::from_value(json["line"].clone()).expect("the line's actions");
    assert_eq!(line.len(), 1);
    // Replayed here, independently of the command.
    let content = Arc::new(Content::house());
    let mut game = Game::solo(content, 3, Options::default()).expect("setup");
    for turn in &line {
        game = game.play_turn(turn).expect("a legal turn");
    }
    assert_eq!(i64::from(game.players()[0].banked), score);
    assert!(score > json["start"].as_i64().expect("start"), "the first turn banks points");

    let svg = temp("solo.svg");
    let _ = std::fs::remove_file(&svg);
    let (code, text, err) =
        run(&["cube-express", "solo", "--seed", "3", "--turns", "1", "--svg", svg.to_str().expect("path")]);
    assert_eq!(code, Some(0), "{err}");
    let picture = std::fs::read_to_string(&svg).expect("the picture is written");
    assert!(picture.contains(&format!("score {score}")), "{picture}");
    // One path per locomotive run of the line.
    let runs: usize = line
        .iter()
        .map(|turn| {
            let locos: Vec<u8> = turn
                .iter()
                .filter_map(|a| if let Action::Move { locomotive, .. } = a { Some(*locomotive) } else { None })
                .collect();
            locos.iter().enumerate().filter(|&(i, l)| i == 0 || locos[i - 1] != *l).count()
        })
        .sum();
    assert_eq!(picture.matches("<polyline").count(), runs, "{picture}");
    let (code, _, err) =
        run(&["cube-express", "solo", "--seed", "3", "--turns", "1", "--svg", svg.to_str().expect("path")]);
    assert_eq!(code, Some(2), "an existing picture is kept without --force: {err}");
    assert!(text.contains(&format!("Best score: {score} ")), "{text}");
    assert!(text.contains(&format!("Checked: the rules engine replayed the line and scored it {score}.")), "{text}");

    for bad in [&["--seed", "3", "--turns", "0"][..], &["--seed", "x", "--turns", "1"], &["--turns", "1"]] {
        let mut args = vec!["cube-express", "solo"];
        args.extend(bad);
        let (code, _, err) = run(&args);
        assert_eq!(code, Some(2), "{bad:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// The regression positions: each plan in the JSON has its value, proven, and the bound equal to
/// it; the engine's value is printed as checked.
#[test]
fn the_regression_positions_get_their_best_values() {
    for (name, value) in [("city-bridge", 17), ("deliver-then-passenger", 14), ("sale-mid-turn", 19)] {
        let path = fixture(&format!("regressions/{name}.json"));
        let (code, out, err) = run(&["cube-express", "plan", &path, "--json", "--threads", "1"]);
        assert_eq!(code, Some(0), "{name}: {err}");
        let v: Value = serde_json::from_str(&out).expect("JSON");
        assert_eq!(v["value"].as_i64(), Some(value), "{name}");
        assert_eq!(v["proven"].as_bool(), Some(true), "{name}");
        assert_eq!(v["upper_bound"].as_i64(), Some(value), "{name}");
        assert_eq!(v["method"].as_str(), Some("search"), "{name}");
    }
    let (code, _, err) = run(&["cube-express", "plan", "--threads", "0"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--threads"), "{err}");
    let (code, _, err) = run(&["cube-express", "plan", "--method", "guess"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("search or program"), "{err}");
}

/// A very short time limit still prints a legal plan with an upper bound at least the best.
#[test]
fn a_tiny_time_limit_still_gives_a_plan_and_a_bound() {
    let path = fixture("regressions/backend-failure.json");
    let (code, out, err) = run(&["cube-express", "plan", &path, "--time-limit", "0.01", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(&out).expect("JSON");
    assert!(v["plan"].as_array().is_some_and(|p| !p.is_empty()), "{out}");
    assert!(v["upper_bound"].as_i64().expect("bound") >= 17, "{out}");
}

/// The programs stopped by their time limit before any is solved still leave the user a plan:
/// the search answers, and the JSON says why.
#[test]
fn programs_out_of_time_fall_back_to_the_search() {
    let (code, out, err) = run(&["cube-express", "plan", "--method", "program", "--time-limit", "0.000001", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["method"].as_str(), Some("search"), "{out}");
    assert!(v["fallback"].as_str().is_some_and(|f| f.contains("time limit")), "{out}");
    assert!(v["plan"].as_array().is_some_and(|p| !p.is_empty()), "{out}");
}
