//! End-to-end tests of `signalbox cube-express analyse`: the review of the embedded sample game
//! as JSON (parsed and checked against the engine's replay) and as a page, a record of a few
//! turns as text, and bad records (an illegal move, a move for the wrong player, a record of
//! another game, a truncated file), each refused with exit code 2 naming the move and the rule.

mod support;

use serde_json::Value;
use signalbox_engine::cube_express::position::{Record, SAMPLE_GAME_JSON, read_record};

use support::run;

fn temp(name: &str) -> std::path::PathBuf {
    support::temp_path("ce-analyse", name)
}

fn sample() -> Record {
    read_record("sample", SAMPLE_GAME_JSON).expect("the sample reads")
}

/// The first `turns` turns of the sample, written to a file.
fn short_record(name: &str, turns: usize) -> (std::path::PathBuf, Value) {
    let mut r: Value = serde_json::from_str(SAMPLE_GAME_JSON).expect("JSON");
    r["turns"].as_array_mut().expect("turns").truncate(turns);
    let path = temp(name);
    std::fs::write(&path, serde_json::to_string_pretty(&r).expect("JSON")).expect("written");
    (path, r)
}

fn write(name: &str, text: &str) -> String {
    let path = temp(name);
    std::fs::write(&path, text).expect("written");
    path.to_str().expect("path").to_string()
}

#[test]
fn the_sample_review_as_json_matches_the_replay_and_the_page_is_written() {
    let page = temp("review.html");
    let _ = std::fs::remove_file(&page);
    let (code, out, err) =
        run(&["cube-express", "analyse", "--json", "--quiet", "--html", page.to_str().expect("path")]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(&out).expect("one JSON object");
    let decisions = v["decisions"].as_array().expect("decisions");
    let record = sample();
    assert_eq!(decisions.len(), record.turns.len());
    for (t, d) in decisions.iter().enumerate() {
        for field in ["played", "best", "value_before", "value_after", "loss"] {
            assert!(!d[field].is_null(), "decision {t} has no {field}");
        }
        let (before, after, loss) = (
            d["value_before"].as_f64().expect("a value"),
            d["value_after"].as_f64().expect("a value"),
            d["loss"].as_f64().expect("a loss"),
        );
        assert!(loss >= 0.0);
        assert_eq!(loss, before - after);
        assert_eq!(d["turn"].as_u64(), Some(t as u64 + 1));
        // The played turn's moves are the record's.
        assert_eq!(d["played"]["moves"], serde_json::to_value(&record.turns[t]).expect("JSON"));
        assert!(d["best"]["moves"].as_array().is_some_and(|m| !m.is_empty()));
    }
    let summary = &v["summary"];
    assert_eq!(summary["players"].as_array().map(Vec::len), Some(3));
    let turning = summary["turning_points"].as_array().expect("turning points");
    assert!(!turning.is_empty() && turning.len() <= 3);
    assert_eq!(v["charts"].as_array().map(Vec::len), Some(2));
    // The final scores are the engine's replay of the record.
    let path = write("sample.json", SAMPLE_GAME_JSON);
    let (code, replayed, err) = run(&["cube-express", "replay", &path, "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let replayed: Value = serde_json::from_str(&replayed).expect("JSON");
    let last = decisions.last().expect("a decision");
    for (seat, s) in replayed["scores"].as_array().expect("scores").iter().enumerate() {
        assert_eq!(last["details"]["scores_after"][seat], s["total"]);
        let fact = format!("{} {}", s["player"].as_str().expect("a colour"), s["total"]);
        assert!(v["facts"][0].as_str().is_some_and(|f| f.contains(&fact)), "{fact} not in {}", v["facts"]);
    }
    let html = std::fs::read_to_string(&page).expect("the page");
    assert!(html.starts_with("<!DOCTYPE html>"));
    // The page is refused before any work when it exists, unless --force.
    let (code, _, err) = run(&["cube-express", "analyse", "--html", page.to_str().expect("path")]);
    assert_eq!(code, Some(2));
    assert!(err.contains("already exists"), "{err}");
}

#[test]
fn a_short_record_prints_every_turn_with_its_values() {
    let (path, _) = short_record("short.json", 3);
    let (code, text, err) = run(&["cube-express", "analyse", path.to_str().expect("path"), "--threads", "1"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(text.contains("value of the turn") && text.contains("docs/rules/cube-express.md"), "{text}");
    assert!(text.contains("the record stops after 3 turns, before the game's end"), "{text}");
    for colour in ["red", "blue", "yellow"] {
        assert!(text.contains(&format!("{colour}: 1 decisions")), "{text}");
    }
    assert!(text.contains("the first locomotive moves from"), "{text}");
}

#[test]
fn bad_records_exit_2_naming_the_move_and_the_rule() {
    // An illegal move: a locomotive sent to a tile it cannot reach.
    let (_, mut r) = short_record("illegal-base.json", 2);
    let turn = r["turns"][1].as_array_mut().expect("a turn");
    let at = turn.iter().position(|a| a["do"] == "move").expect("a move");
    turn[at]["to"] = serde_json::json!([9, 9]);
    let illegal = write("illegal.json", &r.to_string());
    let (code, _, err) = run(&["cube-express", "analyse", &illegal]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains(&format!("turns[1][{at}] (blue's turn, the first locomotive moves to [9, 9])")), "{err}");
    assert!(err.contains("cannot move to [9, 9]"), "{err}");

    // A move for the wrong player: the second turn given to red, whose turn it is not.
    let (_, mut r) = short_record("wrong-base.json", 2);
    let actions = r["turns"][1].take();
    r["turns"][1] = serde_json::json!({"player": "red", "actions": actions});
    let wrong = write("wrong-player.json", &r.to_string());
    let (code, _, err) = run(&["cube-express", "analyse", &wrong]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("turns[1].player") && err.contains("it is blue's turn"), "{err}");
    // Naming the right player (by colour or seat) is accepted.
    r["turns"][1]["player"] = serde_json::json!(1);
    let right = write("right-player.json", &r.to_string());
    let (code, _, err) = run(&["cube-express", "check", &right]);
    assert_eq!(code, Some(0), "{err}");

    // A record of another game.
    let railways = write("railways.json", r#"{"seats": ["red", "blue"], "seed": 1, "turns": [[{"action": "end"}]]}"#);
    let (code, _, err) = run(&["cube-express", "analyse", &railways]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("a Railways Express record"), "{err}");
    let coe = write("coe.json", r#"{"instance": {"seed": 2}, "moves": []}"#);
    let (code, _, err) = run(&["cube-express", "analyse", &coe]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("The Cubes of Europe"), "{err}");

    // A truncated file: the line and column where it stops.
    let cut = &SAMPLE_GAME_JSON[..SAMPLE_GAME_JSON.len() / 2];
    let truncated = write("truncated.json", cut);
    let (code, _, err) = run(&["cube-express", "analyse", &truncated]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("truncated.json:1:") && err.contains("EOF"), "{err}");

    // A turn that does not end.
    let (_, mut r) = short_record("open-base.json", 1);
    r["turns"][0].as_array_mut().expect("a turn").pop();
    let open = write("open.json", &r.to_string());
    let (code, _, err) = run(&["cube-express", "analyse", &open]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("turns[0]") && err.contains("the turn does not end"), "{err}");
}

/// The complete small example of the record format (docs/formats/cube-express-position.md),
/// written in words, replays and is reviewed; the same turns as objects give the same review.
#[test]
fn the_documented_example_in_words_is_reviewed_like_its_objects() {
    let doc = include_str!("../docs/formats/cube-express-position.md");
    let start = doc.find("### A complete small example").expect("the example's section");
    let json = &doc[start..];
    let json = &json[json.find("```json\n").expect("a JSON block") + 8..];
    let json = &json[..json.find("```").expect("its end")];
    let words = write("example.json", json);
    let (code, out, err) = run(&["cube-express", "check", &words]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("2 turns replayed"), "{out}");
    let record = read_record("example", json).expect("reads");
    let objects = write("example-objects.json", &serde_json::to_string(&record).expect("JSON"));
    let review = |path: &str| {
        let (code, out, err) = run(&["cube-express", "analyse", path, "--json"]);
        assert_eq!(code, Some(0), "{err}");
        let mut v: Value = serde_json::from_str(&out).expect("JSON");
        v["title"] = Value::Null;
        v
    };
    let (a, b) = (review(&words), review(&objects));
    assert_eq!(a["decisions"].as_array().map(Vec::len), Some(2));
    assert_eq!(a, b);
    // Words that name no action are refused, naming the action.
    let bad = write("bad-words.json", r#"{"players": 2, "seed": 1, "turns": [["jump to [1, 0]"]]}"#);
    let (code, _, err) = run(&["cube-express", "analyse", &bad]);
    assert_eq!(code, Some(2));
    assert!(err.contains("\"jump to [1, 0]\"") && err.contains("the first locomotive moves to"), "{err}");
}
