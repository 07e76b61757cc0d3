//! End-to-end tests of `signalbox express01 analyse`: the review of a short record as JSON (the
//! shared review, checked against the engine's replay), the same on one thread and on two, as a
//! page and as text; and bad records (an illegal step, a truncated file, a record of another
//! game), each refused with exit code 2 naming the turn and the step.

mod support;

use serde_json::Value;
use signalbox_engine::express01::record::SAMPLE_GAME_JSON;
use signalbox_solver::analysis::Review;

use support::run;

fn temp(name: &str) -> std::path::PathBuf {
    support::temp_path("e01-analyse", name)
}

/// The first `turns` turns of the sample, written to a file.
fn short_record(name: &str, turns: usize) -> (String, Value) {
    let mut r: Value = serde_json::from_str(SAMPLE_GAME_JSON).expect("JSON");
    r["turns"].as_array_mut().expect("turns").truncate(turns);
    r.as_object_mut().expect("an object").remove("result");
    (write(name, &serde_json::to_string_pretty(&r).expect("JSON")), r)
}

fn write(name: &str, text: &str) -> String {
    let path = temp(name);
    std::fs::write(&path, text).expect("written");
    path.to_str().expect("path").to_string()
}

#[test]
fn a_short_record_is_reviewed_as_the_shared_review_the_same_on_any_thread_count() {
    let (path, record) = short_record("short.json", 6);
    let page = temp("review.html");
    let _ = std::fs::remove_file(&page);
    let page = page.to_str().expect("path");
    let json = |threads: &str, html: Option<&str>| {
        let mut args = vec!["express01", "analyse", &path, "--json", "--states", "3000", "--threads", threads];
        if let Some(h) = html {
            args.extend(["--html", h]);
        }
        let (code, out, err) = run(&args);
        assert_eq!(code, Some(0), "{err}");
        out
    };
    let one = json("1", Some(page));
    assert_eq!(one, json("2", None), "the same review on one thread and two");
    let review: Review = serde_json::from_str(&one).expect("the shared review");
    assert!(review.problems().is_empty(), "{:?}", review.problems());
    assert_eq!(review.game, "express01");
    assert_eq!(review.decisions.len(), 6);
    for (t, d) in review.decisions.iter().enumerate() {
        assert_eq!(d.kind, "turn");
        assert_eq!(d.played.moves, record["turns"][t]["steps"], "the played turn's steps are the record's");
        let steps: Vec<&str> = d.played.moves.as_array().expect("steps").iter().filter_map(Value::as_str).collect();
        assert_eq!(d.played.text, steps.join(", "));
        assert!(d.details["capitals"].as_array().is_some_and(|c| c.len() == 3));
    }
    assert!(review.measure.assumes.contains("Every hand and the order of every deck are known"));
    assert_eq!(review.charts.len(), 2);
    // The capitals at the end of the last turn (the end of round 2, before the government aid)
    // are the engine's replay of the record.
    let (code, replayed, err) = run(&["express01", "replay", &path, "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let replayed: Value = serde_json::from_str(&replayed).expect("JSON");
    let rounds = replayed["rounds"].as_array().expect("rounds");
    assert_eq!(rounds.len(), 2);
    let last = review.decisions.last().expect("a decision");
    assert_eq!(review.players.len(), 3);
    for (seat, name) in review.players.iter().enumerate() {
        assert_eq!(last.details["capitals"][seat], rounds[1]["capitals"][name], "{name}");
    }
    let html = std::fs::read_to_string(page).expect("the page");
    assert!(html.starts_with("<!DOCTYPE html>") && html.contains("Express 01"));
    // The page is refused before any work when it exists, unless --force.
    let (code, _, err) = run(&["express01", "analyse", "--html", page]);
    assert_eq!(code, Some(2));
    assert!(err.contains("already exists"), "{err}");
    // As text: the table and what the values assume.
    let (code, text, err) = run(&["express01", "analyse", &path, "--states", "3000"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        text.contains("capital lead at the end of the turn") && text.contains("docs/rules/express-01.md"),
        "{text}"
    );
    assert!(text.contains("the record stops after 6 turns"), "{text}");
}

#[test]
fn bad_records_exit_2_naming_the_turn_and_the_step() {
    // An illegal step: a card paid that is not in the hand.
    let (_, mut r) = short_record("illegal-base.json", 2);
    r["turns"][1]["steps"][1] = Value::from("pay 999");
    let illegal = write("illegal.json", &r.to_string());
    let (code, _, err) = run(&["express01", "analyse", &illegal]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("turns[1] (round 1, turn 2,") && err.contains("step 2 `pay 999`"), "{err}");

    // A truncated file: the line and column where it stops.
    let cut = &SAMPLE_GAME_JSON[..SAMPLE_GAME_JSON.len() / 2];
    let truncated = write("truncated.json", cut);
    let (code, _, err) = run(&["express01", "analyse", &truncated]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("truncated.json:") && err.contains("EOF"), "{err}");

    // Records of other games.
    let cube = write("cube.json", r#"{"players": 3, "seed": 15, "turns": [["end the turn"]]}"#);
    let (code, _, err) = run(&["express01", "analyse", &cube]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("not an Express 01 game record"), "{err}");
    let other = write("other.json", r#"{"record": 1, "game": "railways", "turns": []}"#);
    let (code, _, err) = run(&["express01", "analyse", &other]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("a record of `railways`, not of Express 01"), "{err}");
}
