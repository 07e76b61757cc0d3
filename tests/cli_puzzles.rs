//! End-to-end tests of `signalbox puzzles`: every kind makes a collection that checks, the same
//! on one and two threads byte for byte; a tampered answer fails the check with the puzzle
//! named; `show` and `try` read files and ids; bad input exits 2 before any work.

mod support;

use std::path::{Path, PathBuf};

use serde_json::Value;
use support::{files, run};

/// The kinds, as `puzzles kinds --json` lists them.
fn kinds() -> Vec<String> {
    let (code, out, err) = run(&["puzzles", "kinds", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(&out).expect("JSON");
    v.as_array().expect("a list").iter().map(|k| k["kind"].as_str().expect("a name").to_string()).collect()
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir = support::temp_path("puzzles", name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn make(kind: &str, count: &str, seed: &str, threads: &str, out: &Path) {
    let (code, _, err) = run(&[
        "puzzles",
        "make",
        "--game",
        kind,
        "--count",
        count,
        "--seed",
        seed,
        "--threads",
        threads,
        "--quiet",
        "--out",
        out.to_str().expect("path"),
    ]);
    assert_eq!(code, Some(0), "{kind}: {err}");
}

#[test]
fn there_are_five_kinds_across_the_four_games() {
    let k = kinds();
    for name in ["express01-route", "coe-max", "cube-express-turn", "railways-link", "railways-roll"] {
        assert!(k.iter().any(|x| x == name), "{name} missing from {k:?}");
    }
}

/// Acceptance 1 and 3: `make` then `check` exits 0 for every kind; one thread and two threads
/// make the same files byte for byte; a tampered answer fails with the puzzle named (exit 1).
#[test]
fn every_kind_makes_a_collection_that_checks_the_same_on_any_thread_count() {
    for kind in kinds() {
        let one = fresh_dir(&format!("{kind}-1"));
        let two = fresh_dir(&format!("{kind}-2"));
        make(&kind, "3", "11", "1", &one);
        make(&kind, "3", "11", "2", &two);
        let made = files(&one);
        assert_eq!(made.len(), 4, "{kind}: three puzzles and a manifest");
        assert!(made == files(&two), "{kind}: one thread and two threads differ");
        let (code, out, err) = run(&["puzzles", "check", one.to_str().expect("path")]);
        assert_eq!(code, Some(0), "{kind}: {out}{err}");
        assert!(out.contains("3 puzzles checked: 3 good, 0 failed"), "{kind}: {out}");

        let manifest: Value =
            serde_json::from_slice(&std::fs::read(one.join("collection.json")).expect("manifest")).expect("JSON");
        let entry = &manifest["puzzles"][1];
        let (id, file) = (entry["id"].as_str().expect("id"), one.join(entry["file"].as_str().expect("file")));
        let mut puzzle: Value = serde_json::from_slice(&std::fs::read(&file).expect("puzzle")).expect("JSON");

        // The answer, tried as a player would: solved.
        let answer = puzzle["answer"]["text"].as_str().expect("the answer's words").to_string();
        let (code, out, err) = run(&["puzzles", "try", file.to_str().expect("path"), &answer, "--json"]);
        assert_eq!(code, Some(0), "{kind}: {err}");
        let verdict: Value = serde_json::from_str(&out).expect("JSON");
        assert_eq!(verdict["verdict"], "solved", "{kind}: {out}");

        // The id alone makes the same puzzle again.
        let (code, out, err) = run(&["puzzles", "show", id, "--json"]);
        assert_eq!(code, Some(0), "{kind}: {err}");
        assert_eq!(serde_json::from_str::<Value>(&out).expect("JSON"), puzzle, "{kind}: the id makes another puzzle");

        // The first puzzle's answer put in the second: the check names the second.
        let other: Value = serde_json::from_slice(
            &std::fs::read(one.join(manifest["puzzles"][0]["file"].as_str().expect("file"))).expect("puzzle"),
        )
        .expect("JSON");
        puzzle["answer"] = other["answer"].clone();
        std::fs::write(&file, serde_json::to_string_pretty(&puzzle).expect("JSON")).expect("tampered");
        let (code, out, _) = run(&["puzzles", "check", one.to_str().expect("path")]);
        assert_eq!(code, Some(1), "{kind}: a tampered answer passed: {out}");
        assert!(out.contains(&format!("FAIL {id}")) && out.contains("1 failed"), "{kind}: {out}");
        let _ = std::fs::remove_dir_all(&one);
        let _ = std::fs::remove_dir_all(&two);
    }
}

#[test]
fn bad_input_exits_2_before_any_work() {
    let (code, _, err) = run(&["puzzles", "make", "--game", "chess", "--count", "1", "--seed", "1", "--out", "x"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("no such kind") && err.contains("coe-max"), "{err}");
    let (code, _, err) = run(&["puzzles", "make", "--game", "railways", "--count", "1", "--seed", "1", "--out", "x"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("railways-link") && err.contains("railways-roll"), "{err}");

    let full = fresh_dir("full");
    std::fs::create_dir_all(&full).expect("a folder");
    std::fs::write(full.join("mine.txt"), "keep").expect("a file");
    let (code, _, err) = run(&[
        "puzzles",
        "make",
        "--game",
        "coe",
        "--count",
        "1",
        "--seed",
        "1",
        "--out",
        full.to_str().expect("path"),
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("not empty") && err.contains("--force"), "{err}");

    let (code, _, err) = run(&["puzzles", "check", "/no/such/collection"]);
    assert_eq!(code, Some(2), "{err}");
    let bad = full.join("bad.json");
    std::fs::write(&bad, "{ \"format\": 1,\n  \"id\": }").expect("a bad file");
    let (code, _, err) = run(&["puzzles", "show", bad.to_str().expect("path")]);
    assert_eq!(code, Some(2));
    assert!(err.contains("bad.json") && err.contains("line 2"), "{err}");
    let (code, _, err) = run(&["puzzles", "show", "coe-max-12x"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("not a candidate number"), "{err}");
    let (code, _, err) =
        run(&["puzzles", "make", "--game", "coe", "--count", "1", "--seed", "1", "--theme", "nope", "--out", "y"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("no theme"), "{err}");
    let _ = std::fs::remove_dir_all(&full);
}

/// `puzzles try`'s examples, as `--help` prints them, run: the shipped puzzle's answer solves it
/// (exit 0), and an answer that does not exits 1 with the verdict (JSON too).
#[test]
fn the_try_examples_work_and_the_exit_code_tells_solved_from_not() {
    let (code, help, err) = run(&["puzzles", "try", "--help"]);
    assert_eq!(code, Some(0), "{err}");
    let examples: Vec<&str> = help.lines().map(str::trim).filter(|l| l.starts_with("signalbox puzzles try ")).collect();
    assert_eq!(examples.len(), 2, "{help}");
    for (example, solved) in examples.iter().zip([true, false]) {
        // `signalbox puzzles try ID "ANSWER" [--json]`: the answer is the quoted part.
        let rest = example.trim_start_matches("signalbox puzzles try ");
        let (puzzle, tail) = rest.split_once(' ').expect("a puzzle and an answer");
        let answer = tail.split('"').nth(1).expect("a quoted answer");
        let mut args = vec!["puzzles", "try", puzzle, answer];
        if tail.ends_with("--json") {
            args.push("--json");
        }
        // Tests run in the package's folder, where the example's relative path leads.
        let (code, out, err) = run(&args);
        if solved {
            assert_eq!(code, Some(0), "{example}: {out}{err}");
            assert!(out.contains("solved: 25 points, the best"), "{example}: {out}");
        } else {
            assert_eq!(code, Some(1), "{example}: {out}{err}");
            let verdict: Value = serde_json::from_str(&out).expect("the verdict as JSON");
            assert_ne!(verdict["verdict"], "solved", "{out}");
            assert!(err.contains("does not solve the puzzle"), "{err}");
        }
    }
}
