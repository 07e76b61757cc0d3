//! `signalbox express01 selfplay --seeds A..B`: a game per seed, one checked JSON line each, a
//! summary over the seeds; a resumed run, a torn last line, other settings refused; shards
//! merged into the file one run writes.

mod support;

use std::path::{Path, PathBuf};

use serde_json::Value;
use support::{run, seed_file, seeds_in};

/// A path for a new file (any old one removed).
fn fresh(name: &str) -> PathBuf {
    support::fresh("express01-selfplay", name)
}

/// Runs `express01 selfplay --seeds SEEDS` with `extra`.
fn selfplay(seeds: &str, extra: &[&str]) -> (Option<i32>, String, String) {
    let mut args = vec!["express01", "selfplay", "--seeds", seeds];
    args.extend_from_slice(extra);
    run(&args)
}

/// Runs it writing `out`, and expects success.
fn played(out: &Path, seeds: &str, extra: &[&str]) -> String {
    let mut args = vec!["--out", out.to_str().expect("path")];
    args.extend_from_slice(extra);
    let (code, text, err) = selfplay(seeds, &args);
    assert_eq!(code, Some(0), "{err}");
    text
}

/// Expects a refusal (exit 2, no panic) naming every `expected`, `out` left as it was.
fn refused(seeds: &str, out: &Path, extra: &[&str], expected: &[&str]) {
    let mut args = vec!["express01", "selfplay", "--seeds", seeds, "--out", out.to_str().expect("path")];
    args.extend_from_slice(extra);
    support::refused(&args, Some(out), expected);
}

#[test]
fn each_seed_is_the_single_game_of_that_seed_and_the_summary_counts_the_lines() {
    let out = fresh("small.jsonl");
    let text = played(&out, "3..6", &["--players", "2"]);
    assert!(text.contains("Seeds 3 to 6: 4 games of Express 01 played by the random policy"), "{text}");
    let (settings, lines) = seed_file(&out);
    assert_eq!(settings["settings"]["players"], serde_json::json!(["Anna", "Ben"]));
    assert_eq!(settings["settings"]["policy"], "random");
    assert_eq!(seeds_in(&out), [3, 4, 5, 6]);
    // Each line is the game `selfplay --seed S` plays.
    for l in &lines {
        let seed = l["seed"].to_string();
        let (code, single, err) = run(&["express01", "selfplay", "--players", "2", "--seed", &seed, "--json"]);
        assert_eq!(code, Some(0), "{err}");
        let single: Value = serde_json::from_str(&single).expect("JSON");
        assert_eq!(l["record"], single["record"], "seed {seed}");
        assert_eq!(l["result"], single["result"], "seed {seed}");
        assert_eq!(l["ending"], single["ending"], "seed {seed}");
    }
    // The JSON summary is the lines' count.
    let (code, json, err) = selfplay("3..6", &["--players", "2", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let summary: Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(summary["games"], 4);
    let wins: Vec<f64> =
        summary["seats"].as_array().expect("seats").iter().map(|s| s["wins"].as_f64().expect("wins")).collect();
    for (seat, name) in ["Anna", "Ben"].iter().enumerate() {
        let expected: f64 = lines
            .iter()
            .map(|l| {
                let w = l["result"]["winners"].as_array().expect("winners");
                if w.iter().any(|x| x == name) { 1.0 / w.len() as f64 } else { 0.0 }
            })
            .sum();
        assert!((wins[seat] - expected).abs() < 1e-9, "{name}: {summary}");
    }
}

#[test]
fn a_run_resumes_a_torn_line_is_played_again_and_bad_lines_or_settings_are_refused() {
    let whole = fresh("resume-whole.jsonl");
    played(&whole, "1..5", &[]);
    let out = fresh("resume.jsonl");
    played(&out, "1..3", &[]);
    let text = std::fs::read_to_string(&out).expect("file");
    // A torn last line: half of seed 3's line.
    let cut = text.trim_end().rfind('\n').expect("lines") + 1 + 40;
    std::fs::write(&out, &text[..cut]).expect("write");
    let (code, _, err) = selfplay("1..5", &["--out", out.to_str().expect("path")]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("line 4 is incomplete"), "{err}");
    assert_eq!(std::fs::read(&out).expect("out"), std::fs::read(&whole).expect("whole"));
    refused("1..5", &out, &["--policy", "greedy"], &["--policy: the file has random, this run greedy"]);
    refused("1..5", &out, &["--map", "usa"], &["--map: the file has germany, this run usa"]);
    // A line whose result is not its record's.
    let tampered = fresh("tampered.jsonl");
    let text = std::fs::read_to_string(&whole).expect("whole");
    let mut lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    lines[2]["rounds"] = serde_json::json!(lines[2]["rounds"].as_u64().expect("rounds") + 1);
    std::fs::write(&tampered, lines.iter().map(|l| l.to_string() + "\n").collect::<String>()).expect("write");
    refused("1..5", &tampered, &[], &["line 3: seed 2: rounds"]);
    let (code, _, err) = selfplay("1..5", &["--seed", "4"]);
    assert_eq!(code, Some(2), "{err}");
    let (code, _, err) = selfplay("5..1", &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--seeds"), "{err}");
}

#[test]
fn shards_merged_make_the_file_one_run_writes_and_a_wrong_set_of_shards_is_refused() {
    let whole = fresh("shards-whole.jsonl");
    played(&whole, "1..8", &[]);
    let parts: Vec<PathBuf> = (1..=3).map(|k| fresh(&format!("shard-{k}.jsonl"))).collect();
    for k in support::shuffled(3) {
        let part = format!("{k}/3");
        let text = played(&parts[k as usize - 1], "1..8", &["--shard", &part]);
        assert!(text.contains(&format!("Seeds 1 to 8, shard {part}:")), "{text}");
    }
    assert_eq!(seeds_in(&parts[1]), [2, 5, 8]);
    assert_eq!(seeds_in(&parts[2]), [3, 6]);
    assert_eq!(seed_file(&parts[1]).0["shard"]["command"], "express01 selfplay");
    let merged = fresh("shards-merged.jsonl");
    let paths: Vec<&Path> = [2, 0, 1].iter().map(|&i| parts[i].as_path()).collect();
    let (code, _, err) = support::merge(&merged, &paths, &[]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(std::fs::read(&merged).expect("merged"), std::fs::read(&whole).expect("whole"));

    let refused_out = fresh("shards-refused.jsonl");
    let refused_merge = |shards: &[&Path], expected: &[&str]| {
        support::merge_refused(&refused_out, shards, expected);
    };
    let (p1, p2, p3) = (parts[0].as_path(), parts[1].as_path(), parts[2].as_path());
    refused_merge(&[p1, p3], &["shard 2/3 is missing"]);
    refused_merge(&[p2, p1, p2, p3], &["shard 2/3 is given 2 times"]);
    let other = fresh("shard-2-greedy.jsonl");
    played(&other, "1..8", &["--shard", "2/3", "--policy", "greedy"]);
    refused_merge(&[p1, &other, p3], &["shard-2-greedy.jsonl", "--policy"]);
    refused("1..8", p2, &["--shard", "3/3"], &["written by shard 2/3 of express01 selfplay's seeds 1..8"]);
    refused("1..8", p2, &[], &["a whole run (no --shard)"]);
}
