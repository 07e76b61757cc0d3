//! End-to-end tests of `signalbox coe`: instances from seeds and replays of game records.

use std::process::Command;

use serde_json::Value;

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_signalbox")).args(args).output().expect("the binary runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("signalbox-cli-coe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
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
