//! End-to-end tests of `signalbox railways analyse`: the JSON review of a short record (parsed
//! here: every decision with its played and best move, values and loss; the summary; the page
//! with its turning-point boards), a record written in words, and bad records, which exit 2
//! before any work, naming the move and the rule: an illegal move, a move for the wrong player, a
//! record of another game, a truncated file, and an existing page without --force.

mod support;

use serde_json::Value;
use signalbox_engine::railways::record::{Move, RecordSetup, SAMPLE_GAME_JSON};

use support::run;

fn temp(name: &str) -> std::path::PathBuf {
    support::temp_path("rx-analyse", name)
}

/// The embedded sample's first `turns` turns, as a record file.
fn sample_prefix(name: &str, turns: usize, change: impl Fn(&mut RecordSetup)) -> String {
    let mut record: RecordSetup = serde_json::from_str(SAMPLE_GAME_JSON).expect("the sample reads");
    record.turns.truncate(turns);
    change(&mut record);
    let path = temp(name);
    std::fs::write(&path, serde_json::to_string_pretty(&record).expect("JSON")).expect("write");
    path.display().to_string()
}

#[test]
fn the_json_review_of_two_turns_has_every_decision_with_its_values_and_the_page_its_boards() {
    let record = sample_prefix("two.json", 2, |_| {});
    let page = temp("two.html");
    let _ = std::fs::remove_file(&page);
    let (code, out, err) =
        run(&["railways", "analyse", &record, "--json", "--games", "2", "--html", &page.display().to_string()]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(&out).expect("one JSON object");
    let decisions = v["decisions"].as_array().expect("decisions");
    // Each of the two turns judges its builds; a player with a cube in hand also its re-roll.
    assert!(decisions.iter().filter(|d| d["kind"] == "builds").count() == 2, "{out}");
    for d in decisions {
        for field in ["played", "best"] {
            assert!(d[field]["text"].is_string() && d[field]["moves"].is_array(), "{d}");
        }
        let (before, after, loss) = (
            d["value_before"].as_f64().expect("a value"),
            d["value_after"].as_f64().expect("a value"),
            d["loss"].as_f64().expect("a loss"),
        );
        assert!(loss >= 0.0 && (loss - (after - before).max(0.0)).abs() < 1e-9, "{d}");
        assert_eq!(d["best_value_after"], d["value_before"]);
        let after_turn = &d["details"]["after"]["players"];
        assert_eq!(after_turn.as_array().map(Vec::len), Some(4), "{d}");
        assert!(after_turn[0]["tiles"].as_u64().is_some() && after_turn[0]["win"]["low"].as_f64().is_some(), "{d}");
    }
    assert_eq!(decisions[0]["turn"], 1);
    assert_eq!(v["measure"]["better"], "lower");
    let summary = &v["summary"];
    assert_eq!(summary["players"].as_array().map(Vec::len), Some(4));
    assert_eq!(summary["ranked"].as_array().map(Vec::len), Some(decisions.len()));
    // The record's first turn is the sample's, played one build short: a loss, so a turning point.
    let turning = summary["turning_points"].as_array().expect("turning points");
    assert!(!turning.is_empty(), "{summary}");
    let charts = v["charts"].as_array().expect("charts");
    assert_eq!(charts.len(), 2);
    // The start and each of the two turns.
    assert_eq!(charts[0]["series"][0]["points"].as_array().map(Vec::len), Some(3));
    assert_eq!(charts[0]["axis"], "turn");
    let html = std::fs::read_to_string(&page).expect("the page");
    assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
    // The page is not this game's to draw; the boards are: an existing page is refused.
    let (code, _, err) = run(&["railways", "analyse", &record, "--html", &page.display().to_string()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("already exists") && err.contains("--force"), "{err}");
}

#[test]
fn a_record_in_words_reads_as_the_same_moves() {
    let record: RecordSetup = serde_json::from_str(SAMPLE_GAME_JSON).expect("the sample reads");
    let words: Vec<Vec<String>> = record.turns.iter().map(|t| t.iter().map(Move::to_string).collect()).collect();
    let again: Vec<Vec<Move>> =
        words.iter().map(|t| t.iter().map(|w| w.parse().expect("a move in words")).collect()).collect();
    assert_eq!(again, record.turns);
    let bad: Result<Move, String> = "build e-q on [1, 2] with slot 0".parse();
    assert!(bad.expect_err("no side q").contains("unknown side"));
}

fn refused(name: &str, text: &str) -> String {
    let path = temp(name);
    std::fs::write(&path, text).expect("write");
    let (code, out, err) = run(&["railways", "analyse", &path.display().to_string(), "--games", "0"]);
    assert_eq!(code, Some(2), "{name}: {out}{err}");
    assert!(out.is_empty(), "{name}: work was done: {out}");
    err
}

#[test]
fn bad_records_exit_2_naming_the_move_and_the_rule() {
    // An illegal move: a tile on a hex of nobody's track.
    let record: RecordSetup = serde_json::from_str(SAMPLE_GAME_JSON).expect("the sample reads");
    let mut illegal = record.clone();
    illegal.turns.truncate(3);
    let a = illegal.turns[2].iter().position(|m| matches!(m, Move::Build { .. })).expect("a build");
    if let Move::Build { at, .. } = &mut illegal.turns[2][a] {
        *at = [0, 0];
    }
    let err = refused("illegal.json", &serde_json::to_string(&illegal).expect("JSON"));
    assert!(err.contains(&format!("turns[2][{a}] (build")), "{err}");
    // The move for the wrong player: turn 1 is yellow's.
    let text =
        serde_json::to_string(&record.turns[..2]).expect("JSON").replace("\"player\":\"yellow\"", "\"player\":\"red\"");
    let wrong = format!("{{\"seats\": [\"blue\", \"yellow\", \"red\", \"purple\"], \"seed\": 7, \"turns\": {text}}}");
    let err = refused("wrong-player.json", &wrong);
    assert!(err.contains("turns[1][0] (red rolls") && err.contains("yellow's") && err.contains("rulebook"), "{err}");
    // A record of another game (a Cubes of Europe record).
    let err = refused("coe.json", r#"{"seed": 3, "start": 4, "moves": []}"#);
    assert!(
        err.contains("coe.json") && (err.contains("seed") || err.contains("start") || err.contains("seats")),
        "{err}"
    );
    // A truncated file.
    let err = refused("truncated.json", &SAMPLE_GAME_JSON[..SAMPLE_GAME_JSON.len() / 2]);
    assert!(err.contains("truncated.json:") && err.contains("EOF while parsing"), "{err}");
}
