//! End-to-end tests of `signalbox coe analyse`: the sample game's review as JSON and as text,
//! the page written (and an existing page refused before any work), and bad records refused
//! with exit 2, naming the move and the rule.

mod support;

use serde_json::Value;

use support::run;

const SAMPLE: &str = include_str!("../src/coe/sample-game.json");

fn temp(name: &str, text: &str) -> std::path::PathBuf {
    let path = support::temp_path("coe-analyse", name);
    std::fs::write(&path, text).expect("write");
    path
}

/// The sample's review as JSON: one object with `decisions` (each with `played`, `best`,
/// `value_before`, `value_after`, `loss`) and `summary`, consistent; and the page written.
#[test]
fn the_sample_review_prints_as_json_and_writes_the_page() {
    let page = support::temp_path("coe-analyse", "sample.html");
    let _ = std::fs::remove_file(&page);
    let (code, out, err) = run(&["coe", "analyse", "--json", "--quiet", "--html", page.to_str().expect("path")]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(&out).expect("one JSON object");
    let decisions = v["decisions"].as_array().expect("decisions");
    let moves = serde_json::from_str::<Value>(SAMPLE).expect("the sample")["moves"].as_array().expect("moves").len();
    assert_eq!(decisions.len(), moves, "one decision per move");
    let mut total = 0.0;
    let mut fair_loss = 0.0;
    for (i, d) in decisions.iter().enumerate() {
        let (before, after, loss) =
            (d["value_before"].as_f64().unwrap(), d["value_after"].as_f64().unwrap(), d["loss"].as_f64().unwrap());
        assert!(loss >= 0.0 && (before - after - loss).abs() < 1e-9, "decision {i}: {d}");
        assert!(d["played"]["text"].is_string() && d["played"]["moves"]["move"].is_string(), "{d}");
        assert!(d["best"]["text"].is_string() && d["best"]["moves"]["move"].is_string(), "{d}");
        assert_eq!(d["index"], i + 1);
        let fair = &d["fair_play"];
        let (fb, fp, fl) =
            (fair["best"].as_f64().unwrap(), fair["played"].as_f64().unwrap(), fair["loss"].as_f64().unwrap());
        assert!(fl >= 0.0 && (fl - (fb - fp).max(0.0)).abs() < 1e-9, "decision {i}: {fair}");
        assert!(fair["exact"].is_boolean() && fair["half_width"].as_f64().unwrap() >= 0.0, "{fair}");
        fair_loss += fl;
        if i + 1 < decisions.len() {
            assert_eq!(d["value_after"], decisions[i + 1]["value_before"]);
        }
        total += loss;
    }
    assert!(total > 0.0, "the sample player loses points");
    // The split adds up: final = expected at the start + skill + luck, turn by turn.
    let split = &v["fair_play"];
    let f = |k: &str| split[k].as_f64().unwrap_or_else(|| panic!("{k} in {split}"));
    assert!(fair_loss > 0.0, "the sample player loses points by the fair-play values too");
    assert!((f("expected_at_start") + f("skill") + f("luck") - f("final_score")).abs() < 1e-9, "{split}");
    let turns = split["turns"].as_array().expect("the split turn by turn");
    let g = |t: &serde_json::Value, k: &str| t[k].as_f64().unwrap_or_else(|| panic!("{k} in {t}"));
    for t in turns {
        assert!((g(t, "expected") + g(t, "luck") + g(t, "skill") - g(t, "value_after")).abs() < 1e-9, "{t}");
    }
    assert!((turns.iter().map(|t| g(t, "luck")).sum::<f64>() - f("luck")).abs() < 1e-9, "{split}");
    // The last two turns are exact.
    assert!(decisions.last().expect("a decision")["fair_play"]["exact"].as_bool().unwrap());
    assert_eq!(v["summary"]["players"][0]["total_loss"].as_f64(), Some(total));
    assert!(!v["summary"]["turning_points"].as_array().expect("turning points").is_empty());
    assert!(v["measure"]["assumes"].as_str().expect("assumes").contains("hindsight"));
    let html = std::fs::read_to_string(&page).expect("the page is written");
    assert!(html.starts_with("<!DOCTYPE html>"), "{}", &html[..40.min(html.len())]);
    // The page exists now: a second run without --force is refused at once.
    let (code, _, err) = run(&["coe", "analyse", "--html", page.to_str().expect("path")]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--force") || err.contains("exists"), "{err}");
}

/// The text names the turning points, the proven maximum and the hindsight.
#[test]
fn the_sample_review_prints_as_text() {
    let (code, out, err) = run(&["coe", "analyse", "--quiet", "--threads", "1"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("turning points:") && out.contains("proven maximum"), "{out}");
    assert!(out.contains("hindsight") && out.contains("start space"), "{out}");
}

fn refused(name: &str, text: &str) -> String {
    let path = temp(name, text);
    let (code, _, err) = run(&["coe", "analyse", path.to_str().expect("path"), "--quiet"]);
    assert_eq!(code, Some(2), "{name}: {err}");
    err
}

/// The sample with its moves changed.
fn sample_with(edit: impl FnOnce(&mut Vec<Value>)) -> String {
    let mut v: Value = serde_json::from_str(SAMPLE).expect("the sample");
    let moves = v["moves"].as_array_mut().expect("moves");
    edit(moves);
    v.as_object_mut().expect("an object").remove("score");
    v.to_string()
}

#[test]
fn an_illegal_move_is_named_with_its_turn_and_rule() {
    // The second move repeated: die 1 is used already.
    let err = refused("illegal.json", &sample_with(|m| m.insert(2, m[1].clone())));
    assert!(err.contains("moves[2]") && err.contains("turn 1") && err.contains("already used"), "{err}");
}

/// A solo game has one player; a move out of its place (a choice no effect opened, a die while
/// an effect's choice is open) is its "wrong player".
#[test]
fn a_move_out_of_its_place_is_named() {
    let err = refused("no-choice.json", &sample_with(|m| m.insert(1, Value::String("white: gain red".into()))));
    assert!(err.contains("moves[1]") && err.contains("no effect's choice is open"), "{err}");
    let first_white =
        |m: &Vec<Value>| m.iter().position(|x| x.as_str().is_some_and(|s| s.starts_with("white:"))).unwrap();
    let err = refused(
        "choice-first.json",
        &sample_with(|m| {
            let i = first_white(m);
            m.remove(i);
        }),
    );
    assert!(err.contains("an effect's choice comes first") || err.contains("not legal now"), "{err}");
}

#[test]
fn a_record_of_another_game_is_refused() {
    let other = include_str!("fixtures/cube_express/illegal-position.json");
    let err = refused("other-game.json", other);
    assert!(err.contains("not a Cubes of Europe game record"), "{err}");
}

#[test]
fn a_truncated_file_and_an_unfinished_game_are_refused() {
    let err = refused("truncated.json", &SAMPLE[..SAMPLE.len() / 2]);
    assert!(err.contains("truncated.json:"), "{err}");
    let err = refused("unfinished.json", &sample_with(|m| m.truncate(12)));
    assert!(err.contains("before the game is over") && err.contains("12 moves"), "{err}");
    let err = refused("words.json", &sample_with(|m| m[3] = Value::String("die 0: place on hex 4".into())));
    assert!(err.contains("moves[3]") && err.contains("names the number it is turned to"), "{err}");
}

/// The format doc's complete example is the sample game, so it reads and replays.
#[test]
fn the_format_docs_example_is_the_sample() {
    let doc = include_str!("../docs/formats/coe-records.md");
    let from = doc.find("## A complete small example").expect("the section");
    let block = &doc[from..];
    let start = block.find("```json\n").expect("a JSON block") + "```json\n".len();
    let end = block[start..].find("```").expect("its end");
    assert_eq!(&block[start..start + end], SAMPLE);
}

/// One thread or two give the same review.
#[test]
fn the_review_is_the_same_on_one_thread_and_two() {
    let (code, one, err) = run(&["coe", "analyse", "--json", "--threads", "1"]);
    assert_eq!(code, Some(0), "{err}");
    let (_, two, _) = run(&["coe", "analyse", "--json", "--threads", "2"]);
    assert_eq!(one, two);
}

/// Under a tight time limit many searches stop short, yet the review ranks as turning points
/// only losses it is sure of: each turning point's loss range (from the proven bounds of its two
/// values) excludes zero, they come in the order of that sure part, and no value falls below
/// the score the game went on to reach (the game played is a line from every position).
#[test]
fn under_a_tight_time_limit_no_unproven_loss_is_a_turning_point() {
    let (code, out, err) =
        run(&["coe", "analyse", "--json", "--quiet", "--no-fair-play", "--time-limit", "0.01", "--threads", "1"]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(&out).expect("one JSON object");
    let decisions = v["decisions"].as_array().expect("decisions");
    let final_score = decisions.last().expect("a decision")["details"]["score_after"].as_f64().expect("the score");
    let unproven = decisions.iter().filter(|d| d["proven"] == false).count();
    assert!(unproven > 0, "the limit stopped no search: the test would not see an unproven value");
    let sure = |d: &Value| -> f64 {
        match d.get("ranges") {
            None => d["loss"].as_f64().expect("a loss"),
            Some(r) => {
                let before_low = r["before"]["low"].as_f64().expect("a low end");
                let after_high = r["after"]["high"].as_f64().expect("a high end");
                (before_low - after_high).max(0.0)
            }
        }
    };
    for d in decisions {
        assert_eq!(d["proven"] == false, d.get("ranges").is_some(), "an unproven decision has its ranges: {d}");
        let low = d
            .get("ranges")
            .map_or(d["value_before"].as_f64().expect("a value"), |r| r["before"]["low"].as_f64().expect("a low end"));
        assert!(low >= final_score, "decision {}: worth {low}, below the {final_score} the game reached", d["index"]);
    }
    let turning: Vec<usize> = v["summary"]["turning_points"]
        .as_array()
        .expect("turning points")
        .iter()
        .map(|i| i.as_u64().unwrap() as usize)
        .collect();
    let sure_of: Vec<f64> = turning.iter().map(|&i| sure(&decisions[i - 1])).collect();
    for (&i, &s) in turning.iter().zip(&sure_of) {
        assert!(s > 0.0, "turning point {i} is a loss the review is not sure of: {}", decisions[i - 1]);
    }
    assert!(sure_of.windows(2).all(|w| w[0] >= w[1]), "turning points out of order: {sure_of:?}");
    let largest_sure = decisions.iter().map(sure).fold(0.0, f64::max);
    assert_eq!(sure_of.first().copied().unwrap_or(0.0), largest_sure, "the first turning point is the surest loss");
}
