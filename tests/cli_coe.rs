//! End-to-end tests of `signalbox coe`: instances from seeds and replays of game records.

mod support;

use std::process::Command;

use serde_json::Value;

use support::run;

fn temp(name: &str, text: &str) -> std::path::PathBuf {
    let path = support::temp_path("coe", name);
    std::fs::write(&path, text).expect("write");
    path
}

#[test]
fn an_instance_prints_as_text_and_as_json_and_is_the_same_each_time() {
    let (code, text, _) = run(&["coe", "instance", "--seed", "7"]);
    assert_eq!(code, Some(0));
    assert!(text.contains("Board:") && text.contains("Dice:"), "{text}");
    let (_, a, _) = run(&["coe", "instance", "--seed", "7", "--json"]);
    let (_, b, _) = run(&["coe", "instance", "--seed", "7", "--json"]);
    assert_eq!(a, b);
    let v: Value = serde_json::from_str(&a).expect("JSON");
    assert_eq!(v["seed"], 7);
    assert_eq!(v["deck"].as_array().map(Vec::len), Some(8));
    assert_eq!(v["reshuffle"].as_array().map(Vec::len), Some(9));
}

#[test]
fn a_record_replays_and_a_bad_one_is_named() {
    let (_, instance, _) = run(&["coe", "instance", "--seed", "3", "--json"]);
    let instance: Value = serde_json::from_str(&instance).expect("JSON");
    let board = instance["board"].as_u64().expect("board id");
    assert!((1..=9).contains(&board));
    // An empty game: no move yet, the score of an empty board (workers 1: no point).
    let record = serde_json::json!({ "instance": instance, "moves": [] });
    let path = temp("empty.json", &record.to_string());
    let (code, out, err) = run(&["coe", "replay", path.to_str().expect("path"), "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["over"], false);
    assert_eq!(v["score"], 0, "nothing placed, one worker: no points");
    // A move that cannot come first is refused, naming its index.
    let bad = serde_json::json!({ "instance": instance, "moves": [{ "move": "worker", "die": 0 }] });
    let path = temp("bad.json", &bad.to_string());
    let (code, _, err) = run(&["coe", "replay", path.to_str().expect("path")]);
    assert_eq!(code, Some(2));
    assert!(err.contains("moves[0]") && err.contains("start space"), "{err}");
    // A malformed record names the line.
    let path = temp("malformed.json", "{\n  \"instance\": ,\n}");
    let (code, _, err) = run(&["coe", "replay", path.to_str().expect("path")]);
    assert_eq!(code, Some(2));
    assert!(err.contains("malformed.json:2:"), "{err}");
}

#[test]
fn a_game_played_from_input_ends_and_its_record_replays_to_the_same_score() {
    let dir = std::env::temp_dir().join(format!("signalbox-cli-coe-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let record = dir.join("game.json");
    let _ = std::fs::remove_file(&record);
    let mut child = Command::new(env!("CARGO_BIN_EXE_signalbox"))
        .args(["coe", "play", "--seed", "9", "--max-turns", "3", "--record", record.to_str().expect("path")])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        // Always the first listed move; a line that is not a move number is refused and asked again.
        let _ = stdin.write_all("x\n".as_bytes());
        for _ in 0..200 {
            let _ = stdin.write_all(b"1\n");
        }
    }
    let out = child.wait_with_output().expect("ends");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("is not a listed move number"), "{text}");
    let line = text.lines().find(|l| l.starts_with("Game over")).expect("the game ends");
    let played: u64 =
        line.split("score ").nth(1).and_then(|s| s.split(' ').next()).and_then(|s| s.parse().ok()).expect("a score");
    let (code, out, err) = run(&["coe", "replay", record.to_str().expect("path"), "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["score"].as_u64(), Some(played));
    assert_eq!(v["over"], true);
}

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/coe/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn solve_prints_a_proven_maximum_and_its_json_replays_to_the_same_score() {
    // A whole game (seed 4 solves in about a second) and a shortened one.
    for args in [vec!["--seed", "4"], vec!["--seed", "11", "--max-turns", "6"]] {
        let mut text_args = vec!["coe", "solve"];
        text_args.extend(&args);
        let (code, text, err) = run(&text_args);
        assert_eq!(code, Some(0), "{err}");
        assert!(text.contains("Maximum score (proven):"), "{text}");
        assert!(text.contains("Perfect-score bound") && text.contains("turn  1 (first die "), "{text}");
        let mut json_args = text_args.clone();
        json_args.push("--json");
        let (code, out, err) = run(&json_args);
        assert_eq!(code, Some(0), "{err}");
        let v: Value = serde_json::from_str(&out).expect("JSON");
        assert_eq!(v["proven"], true);
        assert_eq!(v["upper_bound"], v["score"]);
        assert!(v["perfect_bound"].as_u64() >= v["score"].as_u64());
        let claimed = v["score"].as_u64().expect("a score");
        assert!(text.contains(&format!("Maximum score (proven): {claimed} (")), "text and JSON differ: {text}");
        let path = temp(&format!("solved-{}.json", args.join("-")), &out);
        let (code, replayed, err) = run(&["coe", "replay", path.to_str().expect("path"), "--json"]);
        assert_eq!(code, Some(0), "{err}");
        let r: Value = serde_json::from_str(&replayed).expect("JSON");
        assert_eq!(r["score"].as_u64(), Some(claimed), "replay recomputes the claimed score");
        assert_eq!(r["over"], true);
        // The same record claiming one point more is refused, naming the field.
        let mut tampered = v.clone();
        tampered["score"] = serde_json::json!(claimed + 1);
        let path = temp("tampered.json", &tampered.to_string());
        let (code, _, err) = run(&["coe", "replay", path.to_str().expect("path")]);
        assert_eq!(code, Some(2));
        assert!(err.contains("`score`") && err.contains(&format!("moves score {claimed}")), "{err}");
    }
}

#[test]
fn a_time_limit_gives_the_best_line_found_with_a_bound_marked_not_proven() {
    let (code, out, err) = run(&["coe", "solve", "--seed", "21", "--time-limit", "0.3", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["proven"], false, "seed 21 takes seconds to prove");
    assert!(v["upper_bound"].as_u64() > v["score"].as_u64());
    let path = temp("limited.json", &out);
    let (code, _, err) = run(&["coe", "replay", path.to_str().expect("path")]);
    assert_eq!(code, Some(0), "the best line found still replays: {err}");
    let (_, text, _) = run(&["coe", "solve", "--seed", "21", "--time-limit", "0.3"]);
    assert!(text.contains("NOT PROVEN") && text.contains("No line scores more than"), "{text}");
}

#[test]
fn an_instance_file_solves_like_its_seed() {
    let (_, instance, _) = run(&["coe", "instance", "--seed", "3", "--json"]);
    let path = temp("instance-3.json", &instance);
    let (code, a, err) =
        run(&["coe", "solve", "--instance", path.to_str().expect("path"), "--max-turns", "4", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let (_, b, _) = run(&["coe", "solve", "--seed", "3", "--max-turns", "4", "--json"]);
    assert_eq!(a, b);
}

#[test]
fn bad_instances_flags_and_content_are_refused_with_exit_code_2() {
    let house = std::fs::read_to_string(format!("{}/engine/data/coe/house.toml", env!("CARGO_MANIFEST_DIR")))
        .expect("the house set");
    let content = temp("bad-content.toml", &house.replacen("\"W4 G6 G5\"", "\"W4 G6 Q5\"", 1));
    let bad_batch = fixture("bad-batch.jsonl");
    let copy = temp("bad-batch.jsonl", &std::fs::read_to_string(&bad_batch).expect("fixture"));
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["solve".into(), "--instance".into(), fixture("malformed-instance.json")], "malformed-instance.json:5:"),
        (vec!["solve".into(), "--instance".into(), fixture("repeated-card-instance.json")], "deck"),
        (vec!["solve".into(), "--instance".into(), fixture("no-such-file.json")], "no such file"),
        (vec!["solve".into(), "--seed".into(), "1".into(), "--time-limit".into(), "-1".into()], "--time-limit"),
        (vec!["solve".into(), "--seed".into(), "1".into(), "--threads".into(), "0".into()], "--threads"),
        (vec!["solve".into()], "--seed"),
        (vec!["batch".into(), "--seeds".into(), "9..2".into()], "--seeds"),
        (vec!["batch".into(), "--seeds".into(), "1-5".into()], "--seeds"),
        (vec!["batch".into(), "--seeds".into(), "1..3".into(), "--out".into(), copy.display().to_string()], "line 1"),
        (
            vec!["solve".into(), "--seed".into(), "1".into(), "--content".into(), content.display().to_string()],
            "bad-content.toml",
        ),
    ];
    for (args, expected) in cases {
        let mut full = vec!["coe".to_string()];
        full.extend(args.iter().cloned());
        let refs: Vec<&str> = full.iter().map(String::as_str).collect();
        let (code, _, err) = run(&refs);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: expected `{expected}` in: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    // The batch file with a bad line is left as it was.
    assert_eq!(
        std::fs::read_to_string(&copy).expect("still there"),
        std::fs::read_to_string(&bad_batch).expect("fixture")
    );
}

#[test]
fn a_batch_writes_a_line_per_seed_and_a_rerun_skips_the_seeds_already_solved() {
    let dir = std::env::temp_dir().join(format!("signalbox-cli-coe-batch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out = dir.join("seeds.jsonl");
    let _ = std::fs::remove_file(&out);
    let out_s = out.to_str().expect("path");
    let (code, text, err) = run(&["coe", "batch", "--seeds", "1..3", "--max-turns", "3", "--out", out_s]);
    assert_eq!(code, Some(0), "{err}");
    assert!(text.contains("Seeds 1 to 3: 3 solved, 3 proven optimal"), "{text}");
    assert!(text.contains("Winnable (Expert or better)") && text.contains("Solve time: median"), "{text}");
    let first = std::fs::read_to_string(&out).expect("written");
    assert_eq!(first.lines().count(), 4, "the settings line, then a line per seed");
    let (code, text, err) = run(&["coe", "batch", "--seeds", "1..4", "--max-turns", "3", "--out", out_s, "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let second = std::fs::read_to_string(&out).expect("written");
    assert_eq!(second.lines().count(), 5, "only seed 4 is added");
    assert!(second.starts_with(&first), "the lines already there are kept");
    assert!(err.contains("3 seeds already in the output file"), "{err}");
    let summary: Value = serde_json::from_str(&text).expect("JSON summary");
    assert_eq!(summary["seeds"], 4);
    // Each line's score is the solver's, as `coe solve` gives it.
    for line in second.lines().skip(1) {
        let v: Value = serde_json::from_str(line).expect("a JSON line");
        let seed = v["seed"].as_u64().expect("seed").to_string();
        let (_, solved, _) = run(&["coe", "solve", "--seed", &seed, "--max-turns", "3", "--json"]);
        let s: Value = serde_json::from_str(&solved).expect("JSON");
        assert_eq!(v["score"], s["score"], "seed {seed}");
    }
}

#[test]
fn solve_draws_the_board_and_will_not_overwrite_a_file() {
    let dir = std::env::temp_dir().join(format!("signalbox-cli-coe-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let svg = dir.join("board.svg");
    let _ = std::fs::remove_file(&svg);
    let path = svg.to_str().expect("path");
    let (code, text, err) = run(&["coe", "solve", "--seed", "2", "--max-turns", "4", "--svg", path]);
    assert_eq!(code, Some(0), "{err}");
    let picture = std::fs::read_to_string(&svg).expect("written");
    assert_eq!(picture.matches("<title>hex ").count(), 19, "one hex each");
    assert!(picture.contains("the turn its cube was placed"), "a legend");
    // As many numbered cubes as the text's board shows filled hexes.
    let filled = text.matches('[').count();
    assert_eq!(picture.matches("<circle").count(), filled + 1, "one per filled hex, one in the legend: {text}");
    let (code, _, err) = run(&["coe", "solve", "--seed", "2", "--max-turns", "4", "--svg", path]);
    assert_eq!(code, Some(2));
    assert!(err.contains("already exists") && err.contains("--force"), "{err}");
    let (code, _, err) = run(&["coe", "solve", "--seed", "2", "--max-turns", "4", "--svg", path, "--force"]);
    assert_eq!(code, Some(0), "{err}");
}

// The free shift as the player's choice, and the dice numbered from 0 in text as in records.

/// The hand-built position of the fixture (six workers, the track's top; die 0 one step from a
/// blue hex, die 1 one step from a green hex the blue cube opens) with the last turn's two moves.
fn free_shift_record(blue: Value, green: Value) -> String {
    let text = std::fs::read_to_string(fixture("free-shift-at-the-top.json")).expect("fixture");
    let mut record: Value = serde_json::from_str(&text).expect("JSON");
    let moves = record["moves"].as_array_mut().expect("moves");
    moves.push(blue);
    moves.push(green);
    record.to_string()
}

fn replayed_score(name: &str, record: &str) -> (Option<i32>, Option<u64>, String) {
    let path = temp(name, record);
    let (code, out, err) = run(&["coe", "replay", path.to_str().expect("path"), "--json"]);
    let score = serde_json::from_str::<Value>(&out).ok().and_then(|v| v["score"].as_u64());
    (code, score, err)
}

#[test]
fn a_record_says_which_die_takes_the_free_shift_and_paying_first_scores_more() {
    let place = |die: u8, face: u8, hex: u8, free: Option<bool>| {
        let mut m = serde_json::json!({ "move": "place", "die": die, "face": face, "hex": hex });
        if let Some(f) = free {
            m["free_shift"] = Value::Bool(f);
        }
        m
    };
    let (code, free_first, err) =
        replayed_score("free-first.json", &free_shift_record(place(0, 4, 5, Some(true)), place(1, 5, 10, None)));
    assert_eq!(code, Some(0), "{err}");
    let (code, paid_first, err) =
        replayed_score("paid-first.json", &free_shift_record(place(0, 4, 5, Some(false)), place(1, 5, 10, Some(true))));
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(paid_first, free_first.map(|s| s + 1), "a worker more at the end is a point more");
    // Without the field, as older records: the free shift on the first die turned.
    let (_, unsaid, _) = replayed_score("unsaid.json", &free_shift_record(place(0, 4, 5, None), place(1, 5, 10, None)));
    assert_eq!(unsaid, free_first);
    // Twice in a turn is refused, naming the move and the rule.
    let twice = free_shift_record(place(0, 4, 5, Some(true)), place(1, 5, 10, Some(true)));
    let (code, _, err) = replayed_score("twice.json", &twice);
    assert_eq!(code, Some(2));
    assert!(err.contains("moves[4]") && err.contains("already taken this turn"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn bad_rules_in_a_record_are_refused_naming_the_field() {
    let text = std::fs::read_to_string(fixture("free-shift-at-the-top.json")).expect("fixture");
    for (field, value, expected) in [
        ("start_workers", serde_json::json!(7), "start_workers"),
        ("tucked_at_start", serde_json::json!([2]), "tucked_at_start: 2"),
        ("tucked_at_start", serde_json::json!([5, 5]), "listed twice"),
    ] {
        let mut record: Value = serde_json::from_str(&text).expect("JSON");
        record["rules"][field] = value;
        let (code, _, err) = replayed_score("bad-rules.json", &record.to_string());
        assert_eq!(code, Some(2), "{field}: {err}");
        assert!(err.contains("field `rules`") && err.contains(expected), "{field}: {err}");
    }
}

#[test]
fn solve_text_names_the_dice_as_its_json_record_numbers_them() {
    let args = ["coe", "solve", "--seed", "4", "--max-turns", "3"];
    let (code, text, err) = run(&args);
    assert_eq!(code, Some(0), "{err}");
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let (_, out, _) = run(&json_args);
    let record: Value = serde_json::from_str(&out).expect("JSON");
    let from_json: Vec<u64> = record["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .filter_map(|m| m.get("die").and_then(Value::as_u64))
        .collect();
    // Every "first die ..." or "second die ..." of the line's moves, after each turn's header:
    // the JSON's die 0 and die 1.
    let mut from_text = Vec::new();
    for line in text.lines().filter(|l| l.trim_start().starts_with("turn ")) {
        let (header, moves) = line.split_once("): ").expect("a turn line");
        assert!(header.contains("(first die ") && header.contains(", second die "), "{line}");
        for part in moves.split("; ") {
            if part.starts_with("first die") {
                from_text.push(0);
            } else if part.starts_with("second die") {
                from_text.push(1);
            }
        }
    }
    assert!(!from_json.is_empty());
    assert_eq!(from_text, from_json, "{text}");
    assert!(from_json.iter().all(|&d| d <= 1));
}

/// `coe standing`: the seed's maximum and the score's place and percentile among the fair
/// player's games, recomputed here from the shipped table; text and JSON agree; a score no line
/// reaches and a bad table are refused with exit 2.
#[test]
fn standing_places_a_score_among_the_fair_players_games() {
    let table = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/reports/cubes-of-europe-standings.csv"))
        .expect("the table");
    let rows: Vec<Vec<u32>> = table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("seed"))
        .map(|l| l.split(',').map(|x| x.parse().expect("a number")).collect())
        .collect();
    assert_eq!(rows.len(), 10_000);
    let unproven = rows.iter().find(|r| r[1] != r[2]).expect("an unproven seed").clone();
    for (seed, score) in [(1u32, 35u32), (2, 12), (unproven[0], unproven[1])] {
        let row = rows.iter().find(|r| r[0] == seed).expect("the seed's row");
        let (code, out, err) =
            run(&["coe", "standing", "--seed", &seed.to_string(), "--score", &score.to_string(), "--json"]);
        assert_eq!(code, Some(0), "{err}");
        let v: Value = serde_json::from_str(&out).expect("JSON");
        let above = rows.iter().filter(|r| r[3] > score).count() as u64;
        let equal = rows.iter().filter(|r| r[3] == score).count() as u64;
        assert_eq!(v["among_fair"]["above"], above);
        assert_eq!(v["among_fair"]["equal"], equal);
        assert_eq!(v["among_fair"]["place"], above + 1);
        let percentile = 100.0 * (10_000 - above - equal) as f64 / 10_000.0 + 50.0 * equal as f64 / 10_000.0;
        assert!((v["among_fair"]["percentile"].as_f64().expect("a number") - percentile).abs() <= 0.05, "{v}");
        assert_eq!(v["maximum"]["score"], row[1]);
        assert_eq!(v["maximum"]["proven"], row[1] == row[2]);
        assert_eq!(v["fair_on_seed"], row[3]);
        let (_, text, _) = run(&["coe", "standing", "--seed", &seed.to_string(), "--score", &score.to_string()]);
        assert!(text.contains(&format!("place {} of 10000", above + 1)), "{text}");
        assert!(text.contains(if row[1] == row[2] { "proven" } else { "not proven" }), "{text}");
    }
    let (code, _, err) = run(&["coe", "standing", "--seed", "1", "--score", "60"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("no line of play scores 60 on seed 1"), "{err}");
    let bad = std::env::temp_dir().join(format!("signalbox-standing-{}.csv", std::process::id()));
    std::fs::write(&bad, "seed,maximum,upper_bound,fair\n1,44,44,30\n2,forty,44,30\n").expect("write");
    let (code, _, err) =
        run(&["coe", "standing", "--seed", "1", "--score", "30", "--table", bad.to_str().expect("path")]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("line 3") && err.contains("the maximum: a number"), "{err}");
    let _ = std::fs::remove_file(&bad);
}
