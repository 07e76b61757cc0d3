//! End-to-end tests of `signalbox cube-express`: the plan of the embedded sample and of a file,
//! its JSON, text and picture, the solitaire search with its time limit and threads, `check` of
//! positions and records, and bad input.

mod support;

use std::sync::Arc;

use serde_json::Value;
use signalbox_engine::cube_express::action::{Action, ordinal};
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
    // The text names the pieces the JSON numbers from 0: the first locomotive, the first
    // display column.
    let mut g = game.clone();
    for a in &actions {
        match *a {
            Action::Move { locomotive, to } => {
                assert!(text.contains(&format!("the {} locomotive moves from", ordinal(locomotive))), "{text}");
                assert!(text.contains(&format!("to {to}")), "{text}");
            }
            Action::Market { slot, .. } => {
                let tile = g.display()[usize::from(slot)].expect("a display tile");
                assert!(
                    text.contains(&format!("take tile {tile} from the {} display column", ordinal(slot))),
                    "{text}"
                );
            }
            _ => {}
        }
        g.apply(a).expect("legal");
    }
    assert!(!text.contains("(s)"), "{text}");
    // The picture draws the tile laid and every locomotive move of that plan, with its legend,
    // its coordinates and nothing outside its canvas.
    let picture = std::fs::read_to_string(&svg).expect("the SVG");
    assert!(picture.starts_with("<svg") && picture.contains("#ff7f0e"), "the laid tile is outlined");
    assert_fits(&picture);
    for words in ["Legend", "the tile laid by the plan", "path of the first locomotive", "[x, y]"] {
        assert!(picture.contains(words), "{words}");
    }
    let moves = actions.iter().filter(|a| matches!(a, Action::Move { .. })).count();
    if moves > 0 {
        assert!(picture.contains("<polyline"), "the locomotive path is drawn");
    }
    // An existing picture is not replaced without --force.
    let (code, _, err) = run(&["cube-express", "plan", "--svg", svg.to_str().expect("path")]);
    assert_eq!(code, Some(2));
    assert!(err.contains("already exists") && err.contains("--force"), "{err}");
}

/// Every drawn element of `svg` lies inside its view box, which is filled by an opaque
/// background.
fn assert_fits(svg: &str) {
    let number = |tag: &str, from: &str| -> Option<f64> {
        let start = from.find(&format!(" {tag}=\""))? + tag.len() + 3;
        from[start..].split('"').next()?.parse().ok()
    };
    let head = &svg[..svg.find('>').expect("a tag")];
    let (w, h) = (number("width", head).expect("width"), number("height", head).expect("height"));
    assert!(
        svg.contains(&format!("<rect fill=\"white\" height=\"{h}\" width=\"{w}\" x=\"0\" y=\"0\"/>")),
        "background"
    );
    for element in svg.split('<').skip(2) {
        let tag = &element[..element.find('>').unwrap_or(element.len())];
        let x = number("x", tag).or_else(|| number("cx", tag)).or_else(|| number("x1", tag));
        let y = number("y", tag).or_else(|| number("cy", tag)).or_else(|| number("y1", tag));
        let right = x.map(|x| x + number("width", tag).unwrap_or(0.0));
        let bottom = y.map(|y| y + number("height", tag).unwrap_or(0.0));
        for (v, max) in [(x, w), (y, h), (right, w), (bottom, h)] {
            if let Some(v) = v {
                assert!((0.0..=max).contains(&v), "outside the canvas {w} x {h}: <{tag}>");
            }
        }
        if element.starts_with("text") {
            // A text's width is estimated: it must end inside the canvas too.
            let words = element.split('>').nth(1).unwrap_or("").trim();
            let size = number("font-size", tag).unwrap_or(12.0);
            let start = x.unwrap_or(0.0)
                - if tag.contains("middle") { words.chars().count() as f64 * size * 0.28 } else { 0.0 };
            assert!(start >= 0.0 && start + words.chars().count() as f64 * size * 0.55 <= w, "text cut off: {words}");
        }
    }
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
    let record = Record::new(3, 21, Options::default(), turns);
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
    // `check` tells a record by its fields and replays it.
    let (code, out, err) = run(&["cube-express", "check", path.to_str().expect("path")]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("a legal Cube Express game record: 3 players") && out.contains("game over"), "{out}");
    // An unknown field inside an action is refused by its path.
    let mut v: Value = serde_json::to_value(&record).expect("JSON");
    v["turns"][2][0]["from"] = Value::from(1);
    let odd = temp("odd-game.json");
    std::fs::write(&odd, v.to_string()).expect("write");
    let (code, out, err) = run(&["cube-express", "check", odd.to_str().expect("path"), "--json"]);
    assert_eq!(code, Some(2), "{err}");
    let checked: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!((checked["kind"].as_str(), checked["legal"].as_bool()), (Some("record"), Some(false)), "{out}");
    assert!(
        checked["problems"][0].as_str().is_some_and(|p| p.contains("turns[2][0]") && p.contains("`from`")),
        "{out}"
    );
    // An illegal action is named by its turn and place.
    let mut bad = record.clone();
    bad.turns[3].insert(0, Action::Market { slot: 0, cube: false });
    std::fs::write(&path, serde_json::to_string(&bad).expect("JSON")).expect("write");
    let (code, _, err) = run(&["cube-express", "replay", path.to_str().expect("path")]);
    assert_eq!(code, Some(2));
    assert!(err.contains("turns[3][0]"), "{err}");
    let (code, _, err) = run(&["cube-express", "check", path.to_str().expect("path")]);
    assert_eq!(code, Some(2));
    assert!(err.contains("not a legal game record (1 problem)") && err.contains("turns[3][0]"), "{err}");
}

/// `check` says a legal position is legal, and lists every problem of another by its field, in
/// text and JSON, with exit code 2.
#[test]
fn check_lists_every_problem_or_says_the_position_is_legal() {
    let sample = "engine/data/cube_express/sample-position.json";
    let sample = format!("{}/{sample}", env!("CARGO_MANIFEST_DIR"));
    let (code, out, err) = run(&["cube-express", "check", &sample]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("a legal Cube Express position: 3 players, turn 7, red to play"), "{out}");
    let (code, out, _) = run(&["cube-express", "check", &sample, "--json"]);
    assert_eq!(code, Some(0));
    let v: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(
        (v["legal"].as_bool(), v["kind"].as_str(), v["problems"].as_array().map(Vec::len)),
        (Some(true), Some("position"), Some(0))
    );

    let (code, out, err) = run(&["cube-express", "check", &fixture("illegal-position.json"), "--json"]);
    assert_eq!(code, Some(2), "{err}");
    let v: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["legal"].as_bool(), Some(false));
    let problems: Vec<&str> = v["problems"].as_array().expect("problems").iter().filter_map(Value::as_str).collect();
    assert!(
        problems.iter().any(|p| p.contains("27 cubes counted"))
            && problems.iter().any(|p| p.contains("more than one place")),
        "{problems:?}"
    );
    let (code, _, err) = run(&["cube-express", "check", &fixture("illegal-position.json")]);
    assert_eq!(code, Some(2));
    assert!(err.contains("not a legal position (2 problems)") && err.contains("  - players[0]: 27 cubes"), "{err}");

    // A tile far from the network (ruling L1, rulebook step I.1) is refused, by plan too.
    for command in ["check", "plan"] {
        let (code, _, err) = run(&["cube-express", command, &fixture("detached-tile.json")]);
        assert_eq!(code, Some(2), "{command}: {err}");
        assert!(
            err.contains("board[10].cell: tile 1 at [1000000, 1] is not joined to the network"),
            "{command}: {err}"
        );
    }
    let (code, _, err) = run(&["cube-express", "check", &fixture("malformed-position.json")]);
    assert_eq!(code, Some(2));
    assert!(err.contains("malformed-position.json:3:"), "{err}");
    let neither = temp("neither.json");
    std::fs::write(&neither, "{\"tiles\": []}").expect("write");
    let (code, _, err) = run(&["cube-express", "check", neither.to_str().expect("path")]);
    assert_eq!(code, Some(2));
    assert!(err.contains("neither a position") && err.contains("nor a game record"), "{err}");
    // A bad content file is the problem listed.
    let content = temp("bad-content.toml");
    std::fs::write(
        &content,
        signalbox_engine::cube_express::catalogue::HOUSE_SET_TOML.replacen(
            "levels = [3, 4, 5, 6, 7, 8]",
            "levels = [3, 4, 5, 6, 7, 800]",
            1,
        ),
    )
    .expect("write");
    let (code, out, _) =
        run(&["cube-express", "check", &sample, "--content", content.to_str().expect("path"), "--json"]);
    assert_eq!(code, Some(2));
    assert!(out.contains("technology.levels[5]") && out.contains("from 0 to 255") && !out.contains("u8"), "{out}");
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
    assert!(
        text.contains(&format!("Turn 1 (points banked: {} before the turn, {score} after):", json["start"])),
        "{text}"
    );
    assert_fits(&picture);
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

/// The solitaire search gives the same line on one thread and on two; under a time limit it
/// prints the best line found so far, of K turns, which the engine replays to its score, labelled
/// not proven with no bound.
#[test]
fn solo_is_the_same_on_any_thread_count_and_stops_at_its_time_limit() {
    let on = |threads: &str| {
        let (code, out, err) =
            run(&["cube-express", "solo", "--seed", "2", "--turns", "2", "--json", "--threads", threads]);
        assert_eq!(code, Some(0), "{err}");
        let v: Value = serde_json::from_str(&out).expect("JSON");
        (v["score"].clone(), v["line"].clone())
    };
    assert_eq!(on("1"), on("2"));

    let (code, out, err) =
        run(&["cube-express", "solo", "--seed", "1", "--turns", "4", "--time-limit", "0.2", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["proven"], Value::Bool(false), "{out}");
    assert!(v["bound"].is_null() && v["gap"].is_null(), "{out}");
    assert!(v["stopped"]["turn"].as_u64().is_some(), "{out}");
    let line: Vec<Vec<Action>> = serde_json::from_value(v["line"].clone()).expect("the line");
    assert_eq!(line.len(), 4);
    let mut game = Game::solo(Arc::new(Content::house()), 1, Options::default()).expect("setup");
    for turn in &line {
        game = game.play_turn(turn).expect("a legal turn");
    }
    assert_eq!(Some(i64::from(game.players()[0].banked)), v["score"].as_i64());
    let (code, text, err) = run(&["cube-express", "solo", "--seed", "1", "--turns", "4", "--time-limit", "0.2"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(text.contains("not proven") && text.contains("no upper bound"), "{text}");
    for bad in [&["--time-limit", "0"][..], &["--threads", "0"]] {
        let mut args = vec!["cube-express", "solo", "--seed", "1", "--turns", "1"];
        args.extend(bad);
        let (code, _, err) = run(&args);
        assert_eq!(code, Some(2), "{bad:?}: {err}");
    }
}

/// Five solitaire turns under a 600 MB address-space limit (`ulimit -v 600000`): the search
/// stops cleanly at its memory budget, before the limit, with a line of five turns the engine
/// replays to its score, labelled not proven; never an aborted allocation.
#[test]
fn solo_stops_at_its_memory_budget_under_an_address_space_limit() {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(r#"ulimit -v 600000 && exec "$0" cube-express solo --seed 1 --turns 5 --threads 2 --json"#)
        .arg(env!("CARGO_BIN_EXE_signalbox"))
        .output()
        .expect("sh runs");
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let v: Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(v["proven"], Value::Bool(false), "{stdout}");
    assert_eq!(v["stopped"]["why"], "memory", "{stdout}");
    let line: Vec<Vec<Action>> = serde_json::from_value(v["line"].clone()).expect("the line");
    assert_eq!(line.len(), 5);
    let mut game = Game::solo(Arc::new(Content::house()), 1, Options::default()).expect("setup");
    for turn in &line {
        game = game.play_turn(turn).expect("a legal turn");
    }
    assert_eq!(Some(i64::from(game.players()[0].banked)), v["score"].as_i64());
    let (code, text, err) = run(&["cube-express", "solo", "--seed", "1", "--turns", "3", "--memory", "8"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(text.contains("the memory budget (8 MB, --memory) stopped"), "{text}");
    let (code, _, err) = run(&["cube-express", "solo", "--seed", "1", "--turns", "1", "--memory", "0"]);
    assert_eq!(code, Some(2), "{err}");
}

/// An output picture that exists is refused before any work: before the content or the position
/// is even read.
#[test]
fn an_existing_picture_is_refused_before_any_work() {
    let svg = temp("taken.svg");
    std::fs::write(&svg, "taken").expect("write");
    let svg = svg.to_str().expect("path");
    let missing = fixture("no-such-content.toml");
    for args in [
        vec!["solo", "--seed", "1", "--turns", "3", "--svg", svg, "--content", &missing],
        vec!["plan", "--svg", svg, "--content", &missing],
    ] {
        let mut all = vec!["cube-express"];
        all.extend(args);
        let (code, _, err) = run(&all);
        assert_eq!(code, Some(2), "{all:?}");
        assert!(err.contains("already exists"), "{all:?}: {err}");
    }
}
