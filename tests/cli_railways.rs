//! End-to-end tests of `signalbox railways`: the plan of the embedded sample, its JSON (replayed
//! here by the engine) and picture, plans within a short supply (the regression position) and
//! none within it, check, replay of a played game record, the odds, and bad input.

mod support;

use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use signalbox_engine::railways::catalogue::{Content, offset_to_hex};
use signalbox_engine::railways::colour::Colour;
use signalbox_engine::railways::dice::Roll;
use signalbox_engine::railways::game::{Action, Game, Phase};
use signalbox_engine::railways::options::Options;
use signalbox_engine::railways::position::{SAMPLE_POSITION_JSON, SAMPLE_POSITION_LABEL};
use signalbox_engine::railways::record::{Move, RecordSetup};
use signalbox_engine::railways::track::Ends;
use signalbox_solver::railways::link::min_link;
use signalbox_solver::railways::policy::play_turn;

use support::run;

fn temp(name: &str) -> std::path::PathBuf {
    support::temp_path("rx", name)
}

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/railways/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The tiles of a plan's JSON, as the engine takes them.
fn tiles_of(plan: &[Value]) -> Vec<(signalbox_engine::grid::hex::Hex, Ends)> {
    plan.iter()
        .map(|t| {
            let at = &t["at"];
            let hex = offset_to_hex(at[0].as_i64().unwrap_or(-1) as i32, at[1].as_i64().unwrap_or(-1) as i32);
            let ends: Ends = serde_json::from_value(t["ends"].clone()).expect("two sides");
            (hex, ends)
        })
        .collect()
}

#[test]
fn plan_prints_each_players_fewest_tiles_and_the_json_plan_links_in_the_engine() {
    let (code, text, err) = run(&["railways", "plan"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(text.contains("Fewest tiles still to build") && text.contains("Checked: the rules engine built"), "{text}");
    assert!(text.contains("4 players, blue to play after 12 turns"), "{text}");
    // Numbered from 0, as the JSON's plan array.
    assert!(text.contains("\n    0. ") && !text.contains("turn 13"), "{text}");
    for player in ["blue", "red"] {
        let (code, out, err) = run(&["railways", "plan", "--player", player, "--json"]);
        assert_eq!(code, Some(0), "{err}");
        let v: Value = serde_json::from_str(&out).expect("JSON");
        let n = v["tiles"].as_u64().expect("tiles") as usize;
        let plan = v["plan"].as_array().expect("plan");
        assert_eq!(plan.len(), n);
        assert_eq!(v["reason"], Value::Null);
        // The test's own replay: the engine builds the tiles from the sample and links the cities.
        let game = Game::from_json(Arc::new(Content::house()), SAMPLE_POSITION_LABEL, SAMPLE_POSITION_JSON)
            .expect("the sample");
        let colour: Colour = player.parse().expect("a colour");
        let after = game.with_track(colour, &tiles_of(plan)).expect("the plan is legal");
        assert!(after.has_linked_all(colour), "{player}'s plan links its cities");
        // The text's count for the player is the JSON's.
        assert!(text.contains(&format!("{player:<7} {n:>3} tiles")), "{text}");
        let mine = v["players"].as_array().expect("players").iter().find(|p| p["colour"] == player).cloned();
        let turns = mine.and_then(|p| p["expected_turns"].as_f64()).expect("expected turns");
        assert!(turns >= (n as f64 / 4.0).ceil(), "at most four tiles a turn: {turns} turns for {n} tiles");
        let drawn: u64 = ["straight", "curved", "crossing"].iter().map(|k| v["draws"][k].as_u64().unwrap_or(0)).sum();
        assert_eq!(drawn as usize, n, "every tile from one pile");
    }
}

#[test]
fn short_supply_regression_plans_five_tiles_within_the_one_straight_tile() {
    let position = fixture("regressions/short-supply.json");
    let content = fixture("regressions/short-supply.toml");
    let (code, text, err) = run(&["railways", "plan", &position, "--content", &content, "--player", "blue"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(text.contains("blue: 5 tiles to link"), "{text}");
    let (code, out, err) = run(&["railways", "plan", &position, "--content", &content, "--player", "blue", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["tiles"].as_u64(), Some(5), "{v}");
    assert_eq!(v["supply"]["straight"].as_u64(), Some(1));
    let plan = v["plan"].as_array().expect("plan");
    let straight = plan.iter().filter(|t| t["kind"] == "straight").count();
    assert!(straight <= 1, "the supply has one straight tile: {v}");
    assert_eq!(v["draws"]["straight"].as_u64(), Some(straight as u64));
    let text = std::fs::read_to_string(&content).expect("the content");
    let board = Content::from_toml("short-supply.toml", &text).expect("the content");
    let game = Game::from_json(Arc::new(board), "p.json", &std::fs::read_to_string(&position).expect("the position"))
        .expect("legal");
    let after = game.with_track(Colour::Blue, &tiles_of(plan)).expect("the plan replays within the supply");
    assert!(after.has_linked_all(Colour::Blue));
}

#[test]
fn no_plan_within_the_supply_is_said_and_exits_0() {
    // The regression map with no straight or curved tile left: the crossing tiles only go over
    // other players' track, and there is none.
    let text = std::fs::read_to_string(fixture("regressions/short-supply.toml")).expect("the content");
    let text = text
        .replace("straight = 1", "straight = 0")
        .replace("curved = 199", "curved = 0")
        .replace("crossing = 31", "crossing = 231");
    let content = temp("no-supply.toml");
    std::fs::write(&content, text).expect("written");
    let content = content.to_str().expect("a path");
    let position = fixture("regressions/short-supply.json");
    let (code, out, err) = run(&["railways", "plan", &position, "--content", content, "--player", "blue", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["tiles"], Value::Null, "{v}");
    assert!(v["reason"].as_str().is_some_and(|r| r.starts_with("no plan within the supply")), "{v}");
    assert_eq!(v["proven"], true);
    let (code, text, _) = run(&["railways", "plan", &position, "--content", content, "--player", "blue"]);
    assert_eq!(code, Some(0));
    assert!(text.contains("blue: no plan within the supply"), "{text}");
}

#[test]
fn plan_with_a_roll_advises_a_use_the_engine_plays_and_the_re_rolls() {
    // The sample with two cubes in blue's hand, to pay for a re-roll.
    let mut position: Value = serde_json::from_str(SAMPLE_POSITION_JSON).expect("the sample");
    position["cubes"]["blue"] = 2.into();
    let file = temp("two-cubes.json");
    std::fs::write(&file, position.to_string()).expect("written");
    let path = file.to_str().expect("a path");
    let (code, out, err) = run(&["railways", "plan", path, "--roll", "SS,SC,plains,any", "--json", "--threads", "2"]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(&out).expect("JSON");
    let advice = &v["roll"];
    assert_eq!(advice["complete"], true);
    let mut game = Game::from_json(Arc::new(Content::house()), path, &position.to_string()).expect("the position");
    let roll: Roll = "SS,SC,plains,any".parse().expect("a roll");
    game.apply(&Action::Roll { roll }).expect("the roll");
    game.apply(&Action::Pair { crossed: advice["crossed"].as_bool().expect("crossed") }).expect("the pairing");
    for b in advice["builds"].as_array().expect("builds") {
        let hex = offset_to_hex(b["at"][0].as_i64().unwrap_or(-1) as i32, b["at"][1].as_i64().unwrap_or(-1) as i32);
        let ends: Ends = serde_json::from_value(b["ends"].clone()).expect("two sides");
        // Slots from 0, as everywhere.
        let slot = b["slot"].as_u64().expect("slot") as u8;
        game.apply(&Action::Build { hex, ends, slot }).expect("the advised build is legal");
    }
    let colour = game.players()[game.active()].colour;
    let left = min_link(&game, colour).map(|(p, _)| p.tiles.len() as u64);
    assert_eq!(left, advice["remaining"].as_u64(), "the tiles left after the advised use");
    assert!(advice["turns"].as_f64().expect("turns") > 0.0);
    let rerolls = advice["rerolls"].as_array().expect("rerolls");
    assert_eq!(rerolls.len(), 10, "four single dice and six pairs");
    let turns: Vec<f64> = rerolls.iter().map(|r| r["turns"].as_f64().expect("turns")).collect();
    assert!(turns.windows(2).all(|w| w[0] <= w[1]), "best first: {turns:?}");
    // One thread gives the same advice.
    let (_, one, _) = run(&["railways", "plan", path, "--roll", "SS,SC,plains,any", "--json", "--threads", "1"]);
    let one: Value = serde_json::from_str(&one).expect("JSON");
    assert_eq!(one["roll"], v["roll"]);
    let svg = temp("roll.svg");
    let _ = std::fs::remove_file(&svg);
    let svg_path = svg.to_str().expect("a path");
    let (code, text, _) = run(&["railways", "plan", path, "--roll", "SS,SC,plains,any", "--svg", svg_path]);
    assert_eq!(code, Some(0));
    assert!(text.contains("Best use") && text.contains("Re-roll?") && text.contains("first track die"), "{text}");
    let picture = std::fs::read_to_string(&svg).expect("written");
    let builds = advice["builds"].as_array().map_or(0, Vec::len);
    assert_eq!(picture.matches("this turn's build ").count(), builds, "one advised track per build");
    // Without a cube, no re-roll is offered.
    position["cubes"]["blue"] = 0.into();
    std::fs::write(&file, position.to_string()).expect("written");
    let (_, out, _) = run(&["railways", "plan", path, "--roll", "SS,SC,plains,any", "--json"]);
    let v: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["roll"]["rerolls"].as_array().map(Vec::len), Some(0));
}

#[test]
fn plan_draws_the_plan_and_never_overwrites_without_force() {
    let svg = temp("plan.svg");
    let _ = std::fs::remove_file(&svg);
    let path = svg.to_str().expect("a path");
    let (code, _, err) = run(&["railways", "plan", "--svg", path]);
    assert_eq!(code, Some(0), "{err}");
    let picture = std::fs::read_to_string(&svg).expect("written");
    let (_, out, _) = run(&["railways", "plan", "--json"]);
    let n = serde_json::from_str::<Value>(&out).expect("JSON")["tiles"].as_u64().expect("tiles");
    assert_eq!(picture.matches("plan tile ").count() as u64, n, "one plan track per plan tile");
    assert!(picture.contains("Legend"), "the picture explains itself");
    // An existing file is refused before any work, with or without a time limit.
    let (code, _, err) = run(&["railways", "plan", "--svg", path, "--time-limit", "0.001"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("already exists; pass --force"), "{err}");
}

#[test]
fn plan_with_a_tiny_time_limit_answers_and_says_whether_it_is_proven() {
    let (code, out, err) = run(&["railways", "plan", "--json", "--time-limit", "0.000001"]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(&out).expect("JSON");
    // Stopped: no plan and a lower bound, or (on a fast machine) the proven plan.
    match v["tiles"].as_u64() {
        Some(n) => assert_eq!(v["at_least"].as_u64(), Some(n), "{v}"),
        None => {
            assert_eq!(v["proven"], false, "{v}");
            assert!(v["at_least"].as_u64().is_some(), "{v}");
        }
    }
    let (code, _, err) = run(&["railways", "plan", "--time-limit", "0"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("above 0"), "{err}");
    let (code, _, err) = run(&["railways", "plan", "--threads", "0"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("threads"), "{err}");
}

#[test]
fn check_says_legal_or_lists_every_problem() {
    let (code, out, err) = run(&["railways", "check"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("a legal Railways Express position: 4 players"), "{out}");
    let (code, out, _) = run(&["railways", "check", "--json"]);
    assert_eq!(code, Some(0));
    let v: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["legal"], true);
    assert_eq!(v["tiles"].as_u64(), Some(26));
    // Two problems in one file: both listed.
    let mut position: Value = serde_json::from_str(SAMPLE_POSITION_JSON).expect("the sample");
    position["tiles"][0]["owner"] = "green".into();
    let broken = temp("broken.json");
    std::fs::write(&broken, position.to_string()).expect("written");
    let (code, _, err) = run(&["railways", "check", broken.to_str().expect("a path")]);
    assert_eq!(code, Some(2));
    assert!(err.contains("tiles[0].owner") && err.contains("green"), "{err}");
    let mut position: Value = serde_json::from_str(SAMPLE_POSITION_JSON).expect("the sample");
    position["cubes"] = serde_json::json!({"blue": 29, "red": 1});
    position["tiles"][3]["crossing"] = true.into();
    std::fs::write(&broken, position.to_string()).expect("written");
    let (code, out, _) = run(&["railways", "check", broken.to_str().expect("a path"), "--json"]);
    assert_eq!(code, Some(2));
    let v: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["legal"], false);
    let problems: Vec<&str> = v["problems"].as_array().expect("problems").iter().filter_map(Value::as_str).collect();
    assert!(problems.iter().any(|p| p.starts_with("cubes.blue")), "{problems:?}");
    assert!(problems.iter().any(|p| p.starts_with("tiles[3]: a crossing tile")), "{problems:?}");
    // A broken content file is checked too.
    let (code, _, err) = run(&["railways", "check", "--content", &fixture("bad-entry.json")]);
    assert_eq!(code, Some(2));
    assert!(err.contains("bad-entry.json:"), "{err}");
    let (code, _, err) = run(&["railways", "check", &fixture("bad-entry.json")]);
    assert_eq!(code, Some(2));
    assert!(err.contains("tiles[1]: purple does not play") && err.contains("1 problem:"), "{err}");
}

/// A record of a whole two-player game, played by the plan-following players.
fn played_record(seed: u64) -> (RecordSetup, Game) {
    let content = Arc::new(Content::house());
    let seats = vec![Colour::Red, Colour::Purple];
    let mut game = Game::new(content.clone(), &seats, Options::default(), seed).expect("a game");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut turns = Vec::new();
    while !game.is_over() {
        assert_eq!(game.phase(), Phase::Roll);
        let actions = play_turn(&mut game, &mut rng).expect("the policy plays legal turns");
        turns.push(actions.iter().map(|a| Move::from_action(&content, a)).collect());
    }
    (RecordSetup { seats, options: Options::default(), seed, turns }, game)
}

#[test]
fn replay_prints_the_result_of_a_record_and_names_an_illegal_move() {
    let (record, game) = played_record(4);
    let file = temp("game.json");
    std::fs::write(&file, serde_json::to_string_pretty(&record).expect("JSON")).expect("written");
    let path = file.to_str().expect("a path");
    let (code, out, err) = run(&["railways", "replay", path, "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["over"], true);
    assert_eq!(v["turns"].as_u64(), Some(u64::from(game.turns())));
    let winners: Vec<Colour> = serde_json::from_value(v["winners"].clone()).expect("winners");
    assert_eq!(winners, game.winners());
    let completed = v["completed"].as_object().expect("completed");
    assert!(winners.iter().all(|w| completed.contains_key(w.name())), "{v}");
    // Every link the JSON lists is one of the player's cities in the final position.
    for l in v["links"].as_array().expect("links") {
        let colour: Colour = serde_json::from_value(l["colour"].clone()).expect("a colour");
        let seat = game.seat(colour).expect("a seat");
        let linked = city_of(&game, l["city"].as_str().expect("a name"));
        assert!(game.players()[seat].linked.contains(&linked), "{l}");
    }
    let (code, text, _) = run(&["railways", "replay", path]);
    assert_eq!(code, Some(0));
    assert!(text.contains("the game is over") && text.contains("Winner") && text.contains("Links:"), "{text}");
    // A build with a slot its dice do not have, named by its place.
    let mut broken = record.clone();
    let (t, a) = broken
        .turns
        .iter()
        .enumerate()
        .find_map(|(t, turn)| turn.iter().position(|m| matches!(m, Move::Build { .. })).map(|a| (t, a)))
        .expect("a build");
    if let Move::Build { slot, .. } = &mut broken.turns[t][a] {
        *slot = 4;
    }
    std::fs::write(&file, serde_json::to_string(&broken).expect("JSON")).expect("written");
    let (code, _, err) = run(&["railways", "replay", path]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(&format!("turns[{t}][{a}] (build")) && err.contains("slot 4 is used or does not exist"),
        "{err}"
    );
    // An unknown field, named by its JSON path.
    let mut odd: Value = serde_json::to_value(&record).expect("JSON");
    odd["turns"][0][0]["speed"] = 3.into();
    std::fs::write(&file, odd.to_string()).expect("written");
    let (code, _, err) = run(&["railways", "replay", path]);
    assert_eq!(code, Some(2));
    assert!(err.contains("turns[0][0]") && err.contains("speed"), "{err}");
}

fn city_of(game: &Game, name: &str) -> usize {
    game.content().cities.iter().position(|c| c.name == name).expect("a city of the map")
}

#[test]
fn odds_prints_every_players_chance_with_an_interval() {
    let (code, out, err) = run(&["railways", "odds", "--games", "40", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(&out).expect("JSON");
    let chances = v["chances"].as_array().expect("chances");
    assert_eq!(chances.len(), 4);
    let mut total = 0.0;
    for c in chances {
        let p = c["chance"].as_f64().expect("chance");
        let (lo, hi) = (c["interval"][0].as_f64().expect("lo"), c["interval"][1].as_f64().expect("hi"));
        assert!(lo <= p && p <= hi && lo >= 0.0 && hi <= 1.0, "{c}");
        total += p;
    }
    assert!((total - 1.0).abs() < 1e-9, "the chances of finished games sum to one: {total}");
    assert!(!out.contains("-0.0"), "no negative zero: {out}");
    let (code, text, _) = run(&["railways", "odds", "--games", "40", "--threads", "1"]);
    assert_eq!(code, Some(0));
    assert!(text.contains("95% interval") && !text.contains("-0.0"), "{text}");
    // The same games on one thread as on the default pool.
    let (_, one, _) = run(&["railways", "odds", "--games", "40", "--json", "--threads", "1"]);
    let one: Value = serde_json::from_str(&one).expect("JSON");
    assert_eq!(one["chances"], v["chances"]);
    // One game is one game.
    let (_, text, _) = run(&["railways", "odds", "--games", "1"]);
    assert!(text.contains("over 1 game played out") && text.contains("seed 1)"), "{text}");
}

#[test]
fn odds_with_a_time_limit_reports_the_games_played_and_matches_that_many() {
    let (code, out, err) = run(&["railways", "odds", "--time-limit", "0.5", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["stopped"], true);
    let n = v["games"].as_u64().expect("games");
    assert!(n > 0);
    let (_, again, _) = run(&["railways", "odds", "--games", &n.to_string(), "--json", "--threads", "1"]);
    let again: Value = serde_json::from_str(&again).expect("JSON");
    assert_eq!(again["chances"], v["chances"], "the same {n} games");
    assert_eq!(again["stopped"], false);
}

#[test]
fn bad_input_is_named_and_exits_2() {
    let (code, _, err) = run(&["railways", "plan", &fixture("bad-entry.json")]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("bad-entry.json") && err.contains("tiles[1]: purple does not play"), "{err}");
    let (code, _, err) = run(&["railways", "plan", "--player", "green"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("unknown colour"), "{err}");
    let (code, _, err) = run(&["railways", "plan", "--roll", "SS,XX,plains,any"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--roll") && err.contains("not a track face"), "{err}");
    let (code, _, err) = run(&["railways", "plan", "--roll", "SS,SC,plains,any", "--player", "red"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("the roll is for the player to move"), "{err}");
    let (code, _, err) = run(&["railways", "odds", "--games", "0"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--games 0"), "{err}");
    let (code, _, err) = run(&["railways", "plan", "no-such-file.json"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("no such file"), "{err}");
    let (code, _, err) = run(&["railways", "replay", "no-such-record.json"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("no such file"), "{err}");
    // Content errors name the city colour expected, not a type of the program.
    let text = std::fs::read_to_string(fixture("regressions/short-supply.toml")).expect("the content");
    let content = temp("green.toml");
    std::fs::write(&content, text.replacen("colour = \"blue\"", "colour = \"green\"", 1)).expect("written");
    let (code, _, err) = run(&["railways", "check", "--content", content.to_str().expect("a path")]);
    assert_eq!(code, Some(2));
    assert!(err.contains("expected gray, blue, yellow, red or purple") && !err.contains("CityColour"), "{err}");
    assert!(!err.contains("panicked"));
}

/// The JSON of an odds file without its `seconds` (the time differs run to run).
fn odds_without_time(path: &std::path::Path) -> Value {
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(path).expect("the odds file")).expect("JSON");
    assert!(v["seconds"].as_f64().is_some(), "{v}");
    v.as_object_mut().expect("object").remove("seconds");
    v
}

#[test]
fn odds_out_writes_what_json_prints_and_refuses_an_existing_file_before_playing() {
    let out = temp("odds-out.json");
    let _ = std::fs::remove_file(&out);
    let path = out.to_str().expect("path");
    let (code, printed, err) = run(&["railways", "odds", "--games", "6", "--json", "--out", path]);
    assert_eq!(code, Some(0), "{err}");
    let mut printed: Value = serde_json::from_str(&printed).expect("JSON");
    printed.as_object_mut().expect("object").remove("seconds");
    assert_eq!(odds_without_time(&out), printed);
    let before = std::fs::read(&out).expect("the file");
    let (code, _, err) = run(&["railways", "odds", "--games", "100000", "--out", path]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains(path) && err.contains("--force"), "{err}");
    assert_eq!(std::fs::read(&out).expect("the file"), before);
    let (code, _, err) = run(&["railways", "odds", "--games", "3", "--out", path, "--force"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(odds_without_time(&out)["games"], 3);
}

#[test]
fn odds_shards_merged_are_the_whole_run_and_a_wrong_set_of_shards_is_refused() {
    let file = |name: &str| {
        let p = temp(name);
        let _ = std::fs::remove_file(&p);
        p
    };
    let odds = |extra: &[&str]| {
        let mut args = vec!["railways", "odds", "--seed", "4"];
        args.extend_from_slice(extra);
        run(&args)
    };
    let whole = file("odds-whole.json");
    let (code, _, err) = odds(&["--games", "20", "--out", whole.to_str().expect("path")]);
    assert_eq!(code, Some(0), "{err}");
    // The sample's first 20 games from seed 4 hold a shared victory: the shares are summed in
    // game order by the merge as by the run.
    let shards: Vec<std::path::PathBuf> = (1..=3).map(|k| file(&format!("odds-shard-{k}.jsonl"))).collect();
    for k in support::shuffled(3) {
        let path = &shards[k as usize - 1];
        let part = format!("{k}/3");
        let (code, text, err) = odds(&["--games", "20", "--shard", &part, "--out", path.to_str().expect("path")]);
        assert_eq!(code, Some(0), "{err}");
        assert!(text.contains(&format!("shard {part} of --games 20")), "{text}");
    }
    let games_in = |path: &std::path::Path| -> Vec<u64> {
        let text = std::fs::read_to_string(path).expect("shard");
        let mut lines = text.lines();
        let first: Value = serde_json::from_str(lines.next().expect("line 1")).expect("JSON");
        assert_eq!(first["shard"]["command"], "railways odds", "{first}");
        lines.map(|l| serde_json::from_str::<Value>(l).expect("JSON")["game"].as_u64().expect("game")).collect()
    };
    assert_eq!(games_in(&shards[1]), [1, 4, 7, 10, 13, 16, 19]);
    assert_eq!(games_in(&shards[2]), [2, 5, 8, 11, 14, 17]);

    let merged = file("odds-merged.json");
    let paths: Vec<&std::path::Path> = [1, 2, 0].iter().map(|&i| shards[i].as_path()).collect();
    let (code, _, err) = support::merge(&merged, &paths, &[]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(odds_without_time(&merged), odds_without_time(&whole));
    let shared = odds_without_time(&whole)["chances"]
        .as_array()
        .expect("chances")
        .iter()
        .any(|c| c["wins"].as_f64().is_some_and(|w| w.fract() != 0.0));
    assert!(shared, "a shared victory among the games");

    let refused_out = file("odds-refused.json");
    let refused_merge = |shards: &[&std::path::Path], expected: &[&str]| {
        support::merge_refused(&refused_out, shards, expected);
    };
    let (s1, s2, s3) = (shards[0].as_path(), shards[1].as_path(), shards[2].as_path());
    refused_merge(&[s1, s3], &["shard 2/3 is missing"]);
    refused_merge(&[s1, s2, s3, s2], &["shard 2/3 is given 2 times"]);
    // A shard with a game missing.
    let short = file("odds-shard-2-short.jsonl");
    let text = std::fs::read_to_string(s2).expect("shard");
    std::fs::write(&short, text.lines().take(4).collect::<Vec<_>>().join("\n") + "\n").expect("write");
    refused_merge(&[s1, &short, s3], &["odds-shard-2-short.jsonl (shard 2/3)", "lacks games 10, 13, 16, 19"]);
    // Shards of another position, or another seed.
    let other = file("odds-shard-2-other.jsonl");
    let regression = fixture("regressions/short-supply.json");
    let args = ["--games", "20", "--shard", "2/3", "--out", other.to_str().expect("path")];
    let (code, _, err) = run(&[&["railways", "odds", &regression, "--seed", "4"][..], &args].concat());
    assert_eq!(code, Some(0), "{err}");
    refused_merge(&[s1, &other, s3], &["odds-shard-2-other.jsonl", "of position"]);
    let args = ["--seed", "5", "--force", "--games", "20", "--shard", "2/3", "--out", other.to_str().expect("path")];
    let (code, _, err) = run(&[&["railways", "odds"][..], &args].concat());
    assert_eq!(code, Some(0), "{err}");
    refused_merge(&[s1, &other, s3], &["odds-shard-2-other.jsonl", "from seed 5"]);

    // A shard's file is not taken over by another shard, and --shard needs --out and --games.
    let before = std::fs::read(s2).expect("shard");
    let (code, _, err) = odds(&["--games", "20", "--shard", "1/3", "--out", s2.to_str().expect("path")]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("already exists"), "{err}");
    assert_eq!(std::fs::read(s2).expect("shard"), before);
    for (args, flag) in [
        (&["--games", "20", "--shard", "1/3"][..], "--out"),
        (&["--shard", "1/3", "--out", "x.jsonl"][..], "--games"),
        (&["--games", "20", "--time-limit", "1", "--shard", "1/3", "--out", "x.jsonl"][..], "--time-limit"),
    ] {
        let (code, _, err) = odds(args);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains(flag), "{err}");
    }
}
