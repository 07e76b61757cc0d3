//! End-to-end tests of `signalbox railways`: the plan of the embedded sample, its JSON (replayed
//! here by the engine) and picture, the odds, and bad input.

mod support;

use std::sync::Arc;

use serde_json::Value;
use signalbox_engine::railways::catalogue::{Content, offset_to_hex};
use signalbox_engine::railways::colour::Colour;
use signalbox_engine::railways::dice::Roll;
use signalbox_engine::railways::game::{Action, Game};
use signalbox_engine::railways::position::{SAMPLE_POSITION_JSON, SAMPLE_POSITION_LABEL};
use signalbox_engine::railways::track::Ends;
use signalbox_solver::railways::link::min_link;

use support::run;

fn temp(name: &str) -> std::path::PathBuf {
    support::temp_path("rx", name)
}

#[test]
fn plan_prints_each_players_fewest_tiles_and_the_json_plan_links_in_the_engine() {
    let (code, text, err) = run(&["railways", "plan"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(text.contains("Fewest tiles still to build") && text.contains("Checked: the rules engine built"), "{text}");
    for player in ["blue", "red"] {
        let (code, out, err) = run(&["railways", "plan", "--player", player, "--json"]);
        assert_eq!(code, Some(0), "{err}");
        let v: Value = serde_json::from_str(&out).expect("JSON");
        let n = v["tiles"].as_u64().expect("tiles") as usize;
        let plan = v["plan"].as_array().expect("plan");
        assert_eq!(plan.len(), n);
        // The test's own replay: the engine builds the tiles from the sample and links the cities.
        let game = Game::from_json(Arc::new(Content::house()), SAMPLE_POSITION_LABEL, SAMPLE_POSITION_JSON)
            .expect("the sample");
        let tiles: Vec<_> = plan
            .iter()
            .map(|t| {
                let at = &t["at"];
                let hex = offset_to_hex(at[0].as_i64().unwrap_or(-1) as i32, at[1].as_i64().unwrap_or(-1) as i32);
                let ends: Ends = serde_json::from_value(t["ends"].clone()).expect("two sides");
                (hex, ends)
            })
            .collect();
        let colour: Colour = player.parse().expect("a colour");
        let after = game.with_track(colour, &tiles).expect("the plan is legal");
        assert!(after.has_linked_all(colour), "{player}'s plan links its cities");
        // The text's count for the player is the JSON's.
        assert!(text.contains(&format!("{player:<7} {n:>3} tiles")), "{text}");
        let mine = v["players"].as_array().expect("players").iter().find(|p| p["colour"] == player).cloned();
        let turns = mine.and_then(|p| p["expected_turns"].as_f64()).expect("expected turns");
        assert!(turns >= (n as f64 / 4.0).ceil(), "at most four tiles a turn: {turns} turns for {n} tiles");
    }
}

#[test]
fn plan_with_a_roll_advises_a_use_the_engine_plays_and_the_re_rolls() {
    // The sample with two cubes in blue's hand, to pay for a re-roll.
    let mut position: Value = serde_json::from_str(SAMPLE_POSITION_JSON).expect("the sample");
    position["cubes"]["blue"] = 2.into();
    let file = temp("two-cubes.json");
    std::fs::write(&file, position.to_string()).expect("written");
    let path = file.to_str().expect("a path");
    let (code, out, err) = run(&["railways", "plan", path, "--roll", "SS,SC,plains,any", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(&out).expect("JSON");
    let advice = &v["roll"];
    let mut game = Game::from_json(Arc::new(Content::house()), path, &position.to_string()).expect("the position");
    let roll: Roll = "SS,SC,plains,any".parse().expect("a roll");
    game.apply(&Action::Roll { roll }).expect("the roll");
    game.apply(&Action::Pair { crossed: advice["crossed"].as_bool().expect("crossed") }).expect("the pairing");
    for b in advice["builds"].as_array().expect("builds") {
        let hex = offset_to_hex(b["at"][0].as_i64().unwrap_or(-1) as i32, b["at"][1].as_i64().unwrap_or(-1) as i32);
        let ends: Ends = serde_json::from_value(b["ends"].clone()).expect("two sides");
        let slot = b["slot"].as_u64().expect("slot") as u8 - 1;
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
    let svg = temp("roll.svg");
    let _ = std::fs::remove_file(&svg);
    let svg_path = svg.to_str().expect("a path");
    let (code, text, _) = run(&["railways", "plan", path, "--roll", "SS,SC,plains,any", "--svg", svg_path]);
    assert_eq!(code, Some(0));
    assert!(text.contains("Best use") && text.contains("Re-roll?"), "{text}");
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
    assert_eq!(picture.matches("plan tile ").count() as u64, n, "one dashed track per plan tile");
    let (code, _, err) = run(&["railways", "plan", "--svg", path]);
    assert_eq!(code, Some(2));
    assert!(err.contains("already exists; pass --force"), "{err}");
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
    let (code, text, _) = run(&["railways", "odds", "--games", "40"]);
    assert_eq!(code, Some(0));
    assert!(text.contains("95% interval"), "{text}");
}

#[test]
fn bad_input_is_named_and_exits_2() {
    let fixture = format!("{}/tests/fixtures/railways/bad-entry.json", env!("CARGO_MANIFEST_DIR"));
    let (code, _, err) = run(&["railways", "plan", &fixture]);
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
    assert!(!err.contains("panicked"));
}
