//! `signalbox coe selfplay`: a policy that sees only what a player sees plays a range of seeds.
//! The summary and the lines; the file the same on any number of threads and across a resumed
//! run; every line replays to its score; a torn last line redone; other settings refused; the
//! gap to the hindsight maxima of a `coe batch` file.

mod support;

use std::path::{Path, PathBuf};

use serde_json::Value;
use signalbox_engine::coe::catalogue::{HOUSE_SET_LABEL, HOUSE_SET_TOML};
use signalbox_engine::coe::{Catalogue, Instance, Move, Record, Rules};
use support::{run, seed_file, seeds_in, temp_path};

/// The checked-in batch file of whole games, seeds 1 to 1000 (proven maxima).
fn hindsight_file() -> String {
    format!("{}/reports/cubes-of-europe-seeds.jsonl", env!("CARGO_MANIFEST_DIR"))
}

/// A path for a new file (any old one removed).
fn fresh(name: &str) -> PathBuf {
    support::fresh("coe-selfplay", name)
}

fn selfplay(seeds: &str, extra: &[&str]) -> (Option<i32>, String, String) {
    let mut args = vec!["coe", "selfplay", "--seeds", seeds];
    args.extend_from_slice(extra);
    run(&args)
}

/// Runs `coe selfplay` writing `out`, and expects success.
fn played(out: &Path, seeds: &str, extra: &[&str]) -> String {
    let mut args = vec!["--out", out.to_str().expect("path")];
    args.extend_from_slice(extra);
    let (code, text, err) = selfplay(seeds, &args);
    assert_eq!(code, Some(0), "{err}");
    text
}

/// Runs `coe selfplay` and expects it refused (exit 2, no panic) with every `expected` in the
/// message, and `out` (if given) left as it was.
fn refused(seeds: &str, extra: &[&str], out: Option<&Path>, expected: &[&str]) {
    let mut args = vec!["coe", "selfplay", "--seeds", seeds];
    args.extend(out.map(|p| ["--out", p.to_str().expect("path")]).into_iter().flatten());
    args.extend_from_slice(extra);
    support::refused(&args, out, expected);
}

/// The summary as JSON, without its timing (which differs run to run).
fn summary(text: &str) -> Value {
    let mut v: Value = serde_json::from_str(text).expect("a JSON summary");
    for timing in ["seconds_per_game", "wall_seconds", "threads", "played"] {
        v.as_object_mut().expect("object").remove(timing);
    }
    v
}

#[test]
fn a_small_range_prints_its_summary_and_one_line_per_seed() {
    let out = fresh("small.jsonl");
    let text = played(&out, "1..6", &["--policy", "greedy"]);
    for expected in [
        "Seeds 1 to 6: 6 games played by the greedy policy",
        "Score  games",
        "Rank        share",
        "Novice",
        "Master",
        "Win rate (Expert or better, 30 or more):",
        "Mean score:",
        "(95% interval)",
        "s per game (6 games played",
    ] {
        assert!(text.contains(expected), "expected `{expected}` in:\n{text}");
    }
    let (settings, lines) = seed_file(&out);
    let s = &settings["settings"];
    assert_eq!(s["format"], 1);
    assert_eq!(s["policy"], "greedy");
    assert_eq!(s["horizon"], 2);
    assert_eq!(s["max_workers"], 6);
    assert_eq!(s["max_turns"], Value::Null);
    assert!(s["content"].as_str().is_some_and(|c| c.contains("house set")), "{settings}");
    assert_eq!(s["content_fingerprint"].as_str().map(str::len), Some(16), "{settings}");
    assert_eq!(lines.len(), 6);
    for (l, seed) in lines.iter().zip(1u64..) {
        let keys: Vec<&str> = l.as_object().expect("object").keys().map(String::as_str).collect();
        assert_eq!(keys, ["seed", "policy", "score", "rank", "moves"], "{l}");
        assert_eq!(l["seed"], seed);
        assert_eq!(l["policy"], "greedy");
        let score = u32::try_from(l["score"].as_u64().expect("score")).expect("u32");
        assert_eq!(l["rank"], signalbox_engine::coe::rank_of(score));
        assert!(l["moves"].as_array().is_some_and(|m| m.len() > 10), "{l}");
    }

    // The JSON summary agrees with the lines.
    let (code, json, err) = selfplay("1..6", &["--policy", "greedy", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(&json).expect("JSON");
    let scores: Vec<f64> = lines.iter().map(|l| l["score"].as_f64().expect("score")).collect();
    let mean = scores.iter().sum::<f64>() / 6.0;
    let sd = (scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / 5.0).sqrt();
    assert_eq!((v["from"].as_u64(), v["to"].as_u64(), v["seeds"].as_u64()), (Some(1), Some(6), Some(6)));
    assert_eq!(v["policy"], "greedy");
    assert!((v["mean_score"].as_f64().expect("mean") - mean).abs() < 1e-9, "{v}");
    assert!((v["mean_half_width"].as_f64().expect("half width") - 1.96 * sd / 6f64.sqrt()).abs() < 1e-9, "{v}");
    let wins = scores.iter().filter(|&&s| s >= 30.0).count() as f64 / 6.0;
    assert!((v["win_rate"].as_f64().expect("win rate") - wins).abs() < 1e-9, "{v}");
    let histogram_total: u64 = v["histogram"].as_object().expect("histogram").values().filter_map(Value::as_u64).sum();
    assert_eq!(histogram_total, 6);
    let shares: f64 = v["ranks"].as_object().expect("ranks").values().filter_map(Value::as_f64).sum();
    assert!((shares - 1.0).abs() < 1e-9, "{v}");
    assert_eq!(v["hindsight"], Value::Null);
    assert!(v["seconds_per_game"].as_f64().is_some_and(|s| s >= 0.0), "{v}");
}

#[test]
fn the_output_is_the_same_on_one_thread_or_two() {
    // The fair policy (exact near the end) in three-turn games, and the random policy in whole
    // games: the files byte for byte, the summaries but for the time.
    for (policy, turns) in [("fair", Some("3")), ("random", None), ("playout", None)] {
        let mut extra = vec!["--policy", policy];
        if let Some(k) = turns {
            extra.extend(["--max-turns", k]);
        }
        let mut files = Vec::new();
        let mut summaries = Vec::new();
        for threads in ["1", "2"] {
            let out = fresh(&format!("threads-{policy}-{threads}.jsonl"));
            let mut args = extra.clone();
            args.extend(["--threads", threads, "--json"]);
            summaries.push(summary(&played(&out, "1..9", &args)));
            files.push(std::fs::read(&out).expect("file"));
        }
        assert_eq!(files[0], files[1], "{policy}: the files differ between 1 and 2 threads");
        assert_eq!(summaries[0], summaries[1], "{policy}");
        assert_eq!(summaries[0]["seeds"], 9);
    }
}

#[test]
fn a_run_resumes_where_its_file_ends_and_writes_what_one_run_writes() {
    let resumed = fresh("resumed.jsonl");
    played(&resumed, "1..4", &["--policy", "random"]);
    let mut args = vec!["--out", resumed.to_str().expect("path"), "--policy", "random", "--json"];
    let (code, json, err) = selfplay("1..8", &args);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("4 seeds already in the output file"), "{err}");
    let v: Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!((v["seeds"].as_u64(), v["played"].as_u64()), (Some(8), Some(4)), "{v}");

    let single = fresh("single.jsonl");
    played(&single, "1..8", &["--policy", "random"]);
    assert_eq!(std::fs::read(&resumed).expect("file"), std::fs::read(&single).expect("file"));

    // Nothing left to play: the summary comes from the file alone, and the file is unchanged.
    args.retain(|a| *a != "--json");
    let (code, text, err) = selfplay("3..6", &args);
    assert_eq!(code, Some(0), "{err}");
    assert!(text.contains("Seeds 3 to 6: 4 games") && text.contains("no game played"), "{text}");
    assert_eq!(std::fs::read(&resumed).expect("file"), std::fs::read(&single).expect("file"));
}

#[test]
fn every_line_replays_to_its_score_and_a_line_that_does_not_is_refused() {
    let catalogue = Catalogue::from_toml(HOUSE_SET_LABEL, HOUSE_SET_TOML).expect("the house set");
    for policy in ["fair", "playout", "greedy", "random"] {
        let out = fresh(&format!("replay-{policy}.jsonl"));
        played(&out, "1..2", &["--policy", policy]);
        let (_, lines) = seed_file(&out);
        for l in &lines {
            let seed = l["seed"].as_u64().expect("seed");
            let moves: Vec<Move> = serde_json::from_value(l["moves"].clone()).expect("moves");
            let record = Record::new(Instance::from_seed(seed), Rules::default(), moves);
            let (game, score) = record.replay(&catalogue, "line").expect("the moves replay");
            assert!(game.is_over(), "{policy}, seed {seed}: the game is played to its end");
            assert_eq!(Some(u64::from(score.total())), l["score"].as_u64(), "{policy}, seed {seed}");
            assert_eq!(l["rank"], score.rank(), "{policy}, seed {seed}");
        }
    }

    // A line that claims another score, or whose moves are not legal, is named and refused.
    let out = fresh("tampered-base.jsonl");
    played(&out, "1..3", &["--policy", "greedy"]);
    let text = std::fs::read_to_string(&out).expect("file");
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    let mut more = lines[2].clone();
    more["score"] = Value::from(more["score"].as_u64().expect("score") + 1);
    let mut illegal = lines[2].clone();
    illegal["moves"][0] = serde_json::json!({ "move": "pass" });
    let mut short = lines[2].clone();
    short["moves"].as_array_mut().expect("moves").pop();
    let mut rank = lines[2].clone();
    rank["rank"] = Value::from("Master");
    let mut policy = lines[2].clone();
    policy["policy"] = Value::from("fair");
    for (i, (line, expected)) in [
        (more, "its moves score"),
        (illegal, "do not replay"),
        (short, "stop before the game ends"),
        (rank, "is not the rank of score"),
        (policy, "played by the fair policy"),
    ]
    .into_iter()
    .enumerate()
    {
        let mut body = lines.clone();
        body[2] = line;
        let path = fresh(&format!("tampered-{i}.jsonl"));
        let body: Vec<String> = body.iter().map(Value::to_string).collect();
        std::fs::write(&path, body.join("\n") + "\n").expect("write");
        refused("1..4", &["--policy", "greedy"], Some(&path), &["line 3", "seed 2", expected]);
    }
}

#[test]
fn a_torn_last_line_is_dropped_with_a_warning_and_its_seed_played_again() {
    let whole = fresh("torn-whole.jsonl");
    played(&whole, "1..4", &["--policy", "greedy"]);
    let out = fresh("torn.jsonl");
    played(&out, "1..3", &["--policy", "greedy"]);
    let text = std::fs::read_to_string(&out).expect("file");
    std::fs::write(&out, &text[..text.len() - 40]).expect("tear the last line");
    let (code, _, err) = selfplay("1..4", &["--out", out.to_str().expect("path"), "--policy", "greedy"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("line 4 is incomplete") && err.contains("played again"), "{err}");
    assert_eq!(std::fs::read(&out).expect("file"), std::fs::read(&whole).expect("file"));

    // A whole last line that only lacks its newline is kept, and the next line starts anew.
    let text = std::fs::read_to_string(&out).expect("file");
    std::fs::write(&out, text.trim_end()).expect("drop the newline");
    played(&out, "1..5", &["--policy", "greedy"]);
    assert_eq!(seeds_in(&out), vec![1, 2, 3, 4, 5]);

    // A torn line that is not the last is no crash's doing: refused.
    let text = std::fs::read_to_string(&out).expect("file");
    let mut lines: Vec<&str> = text.lines().collect();
    lines[2] = &lines[2][..20];
    std::fs::write(&out, lines.join("\n") + "\n").expect("write");
    refused("1..5", &["--policy", "greedy"], Some(&out), &["line 3", "not a selfplay line"]);
}

#[test]
fn a_run_under_other_settings_is_refused_naming_both() {
    let out = fresh("settings.jsonl");
    played(&out, "1..2", &["--policy", "greedy", "--max-turns", "3"]);
    refused(
        "1..2",
        &["--policy", "random", "--max-turns", "3"],
        Some(&out),
        &["--policy: the file has greedy, this run random"],
    );
    refused("1..2", &["--policy", "greedy"], Some(&out), &["turns: the file has --max-turns 3, this run whole games"]);
    refused("1..2", &["--max-turns", "3"], Some(&out), &["--policy: the file has greedy, this run fair"]);
    let house =
        std::fs::read_to_string(format!("{}/engine/data/coe/house.toml", env!("CARGO_MANIFEST_DIR"))).expect("house");
    let content = temp_path("coe-selfplay", "other-content.toml");
    std::fs::write(&content, format!("{house}\n# the same cards, another file\n")).expect("write");
    refused(
        "1..2",
        &["--policy", "greedy", "--max-turns", "3", "--content", content.to_str().expect("path")],
        Some(&out),
        &["content: the file has"],
    );
    // A `coe batch` file is not a selfplay file.
    let batch = fresh("a-batch.jsonl");
    let (code, _, err) =
        run(&["coe", "batch", "--seeds", "1..1", "--max-turns", "3", "--out", batch.to_str().expect("path")]);
    assert_eq!(code, Some(0), "{err}");
    refused("1..1", &["--max-turns", "3"], Some(&batch), &["a `coe batch` file", "line 1"]);
    // The same settings: the file is read, checked and extended.
    played(&out, "1..3", &["--policy", "greedy", "--max-turns", "3"]);
    assert_eq!(seeds_in(&out), vec![1, 2, 3]);
}

#[test]
fn a_file_another_run_is_writing_is_refused() {
    let out = fresh("locked.jsonl");
    played(&out, "1..1", &["--policy", "greedy"]);
    let holder = std::fs::OpenOptions::new().append(true).open(&out).expect("open");
    holder.try_lock().expect("the test takes the lock");
    refused("1..2", &["--policy", "greedy"], Some(&out), &["another `coe selfplay` is writing this file"]);
    holder.unlock().expect("unlock");
    played(&out, "1..2", &["--policy", "greedy"]);
    assert_eq!(seeds_in(&out), vec![1, 2]);
}

#[test]
fn the_gap_to_the_hindsight_maximum_is_the_batch_score_minus_the_selfplay_score() {
    let file = hindsight_file();
    let maxima: Vec<Value> = std::fs::read_to_string(&file)
        .expect("the batch file")
        .lines()
        .skip(1)
        .take(3)
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    let out = fresh("hindsight.jsonl");
    let json = played(&out, "1..3", &["--policy", "greedy", "--hindsight", &file, "--json"]);
    let v: Value = serde_json::from_str(&json).expect("JSON");
    let (_, lines) = seed_file(&out);
    let mut gaps = Vec::new();
    for (line, max) in lines.iter().zip(&maxima) {
        assert_eq!(line["seed"], max["seed"]);
        assert_eq!(max["proven"], true);
        let gap = max["score"].as_f64().expect("maximum") - line["score"].as_f64().expect("score");
        assert!(gap >= 0.0, "no policy beats the maximum: {line} {max}");
        gaps.push(gap);
    }
    let h = &v["hindsight"];
    assert_eq!(h["seeds"], 3, "{v}");
    let mean = |xs: &[f64]| xs.iter().sum::<f64>() / xs.len() as f64;
    let maxima_scores: Vec<f64> = maxima.iter().map(|m| m["score"].as_f64().expect("score")).collect();
    assert!((h["mean_gap"].as_f64().expect("gap") - mean(&gaps)).abs() < 1e-9, "{h}");
    assert!((h["mean_maximum"].as_f64().expect("maximum") - mean(&maxima_scores)).abs() < 1e-9, "{h}");

    // One seed: the gap is that seed's maximum minus its score; the text says so too.
    let (code, text, err) = selfplay("2..2", &["--policy", "greedy", "--hindsight", &file]);
    assert_eq!(code, Some(0), "{err}");
    assert!(text.contains(&format!("mean gap {:.2}", gaps[1])), "{text}");
    assert!(text.contains(&format!("mean {:.2} over 1 seeds", maxima_scores[1])), "{text}");
}

#[test]
fn a_hindsight_file_of_other_games_is_refused() {
    let file = hindsight_file();
    refused(
        "1..2",
        &["--policy", "greedy", "--max-turns", "3", "--hindsight", &file],
        None,
        &[&file, "turns: the file has whole games, this run --max-turns 3"],
    );
    // A selfplay file, a missing file, a folder and an empty file are not batch files.
    let selfplay_file = fresh("not-a-batch.jsonl");
    played(&selfplay_file, "1..1", &["--policy", "greedy"]);
    let path = selfplay_file.to_str().expect("path");
    refused(
        "1..1",
        &["--policy", "greedy", "--hindsight", path],
        None,
        &["a `coe selfplay` file", "not a `coe batch` file"],
    );
    refused("1..1", &["--hindsight", "/no/such/batch.jsonl"], None, &["no such file"]);
    let dir = temp_path("coe-selfplay", "a-folder");
    std::fs::create_dir_all(&dir).expect("dir");
    refused("1..1", &["--hindsight", dir.to_str().expect("path")], None, &["not a regular file"]);
    let empty = fresh("empty.jsonl");
    std::fs::write(&empty, "").expect("write");
    refused("1..1", &["--hindsight", empty.to_str().expect("path")], None, &["empty file"]);
    // A batch line that does not replay is named.
    let text = std::fs::read_to_string(&file).expect("the batch file");
    let mut lines: Vec<String> = text.lines().take(3).map(str::to_string).collect();
    let mut second: Value = serde_json::from_str(&lines[2]).expect("JSON");
    second["score"] = Value::from(45);
    lines[2] = second.to_string();
    let bad = fresh("bad-batch.jsonl");
    std::fs::write(&bad, lines.join("\n") + "\n").expect("write");
    refused("1..2", &["--policy", "greedy", "--hindsight", bad.to_str().expect("path")], None, &["line 3", "seed 2"]);
}

#[test]
fn bad_input_is_refused_before_any_work() {
    for seeds in ["", "7", "1..", "a..b", "5..1", "1-3", "-1..3"] {
        let (code, _, err) = run(&["coe", "selfplay", &format!("--seeds={seeds}")]);
        assert_eq!(code, Some(2), "{seeds}: {err}");
        assert!(err.contains("--seeds") && !err.contains("panicked"), "{seeds}: {err}");
    }
    refused("1..1", &["--policy", "best"], None, &["invalid value 'best'", "fair", "greedy"]);
    refused("1..1", &["--threads", "0"], None, &["--threads"]);
    let dir = temp_path("coe-selfplay", "out-folder");
    std::fs::create_dir_all(&dir).expect("dir");
    refused("1..1", &["--out", dir.to_str().expect("path")], None, &["not a regular file"]);
    refused("1..1", &["--out", "/no/such/folder/x.jsonl"], None, &["no such folder"]);
    let garbage = fresh("garbage.jsonl");
    std::fs::write(&garbage, "hello\n").expect("write");
    refused("1..1", &["--policy", "greedy"], Some(&garbage), &["line 1", "not the settings line"]);
    refused("1..1", &["--content", "/no/such/content.toml"], None, &["no such file"]);
}

#[test]
fn help_teaches_the_policies_and_the_files() {
    let (code, text, _) = run(&["coe", "selfplay", "--help"]);
    assert_eq!(code, Some(0));
    for expected in [
        "--seeds <A..B>",
        "--policy",
        "fair",
        "playout",
        "greedy",
        "random",
        "--out",
        "--hindsight",
        "--threads",
        "--max-turns",
        "sees only what a player sees",
        "Examples:",
    ] {
        assert!(text.contains(expected), "expected `{expected}` in:\n{text}");
    }
}

/// `--time-limit`: no game starts after the limit; what was played is written and summarised,
/// the run says it stopped, and a rerun on the same file goes on to the end.
#[test]
fn a_time_limit_stops_the_run_and_a_rerun_goes_on() {
    let out = support::temp_path("coe-selfplay", "time-limit.jsonl");
    let _ = std::fs::remove_file(&out);
    let path = out.to_str().expect("path");
    let (code, text, err) = run(&[
        "coe",
        "selfplay",
        "--seeds",
        "1..400",
        "--policy",
        "playout",
        "--out",
        path,
        "--time-limit",
        "0.001",
        "--json",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert!(v["stopped"].as_str().expect("stopped").contains("--time-limit"), "{v}");
    let (code, text, err) =
        run(&["coe", "selfplay", "--seeds", "1..400", "--policy", "playout", "--out", path, "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert!(v["stopped"].is_null(), "{v}");
    assert_eq!(v["seeds"], 400);
}

#[test]
fn shards_merged_make_the_file_one_run_writes_and_a_wrong_set_of_shards_is_refused() {
    let common = ["--policy", "greedy", "--max-turns", "3", "--quiet"];
    let whole = fresh("shards-whole.jsonl");
    played(&whole, "1..8", &common);
    let (code, whole_json, err) = selfplay("1..8", &[&common[..], &["--json"]].concat());
    assert_eq!(code, Some(0), "{err}");
    let parts: Vec<PathBuf> = (1..=3).map(|k| fresh(&format!("shard-{k}.jsonl"))).collect();
    for k in support::shuffled(3) {
        let part = format!("{k}/3");
        let text = played(&parts[k as usize - 1], "1..8", &[&common[..], &["--shard", &part]].concat());
        assert!(text.contains(&format!("Seeds 1 to 8, shard {part}:")), "{text}");
    }
    // Shard K of 3 plays the seeds at positions K-1, K+2, ... of 1..8.
    assert_eq!(seeds_in(&parts[0]), [1, 4, 7]);
    assert_eq!(seeds_in(&parts[1]), [2, 5, 8]);
    assert_eq!(seeds_in(&parts[2]), [3, 6]);
    let (settings, _) = seed_file(&parts[1]);
    assert_eq!(settings["shard"], serde_json::json!({"command": "coe selfplay", "part": "2/3", "work": "seeds 1..8"}));

    let merged = fresh("shards-merged.jsonl");
    let paths: Vec<&Path> = [2, 0, 1].iter().map(|&i| parts[i].as_path()).collect();
    let (code, json, err) = support::merge(&merged, &paths, &["--json"]);
    assert_eq!(code, Some(0), "{err}");
    // No line of a selfplay file holds a time, so the merged file is the whole run's, byte for byte.
    assert_eq!(std::fs::read(&merged).expect("merged"), std::fs::read(&whole).expect("whole"));
    assert_eq!(summary(&json), summary(&whole_json));

    let refused_out = fresh("shards-refused.jsonl");
    let refused_merge = |shards: &[&Path], expected: &[&str]| {
        support::merge_refused(&refused_out, shards, expected);
    };
    let (p1, p2, p3) = (parts[0].as_path(), parts[1].as_path(), parts[2].as_path());
    refused_merge(&[p1, p3], &["shard 2/3 is missing"]);
    refused_merge(&[p1, p2, p2, p3], &["shard 2/3 is given 2 times"]);
    // A shard that has not finished its part: its last seed missing.
    let short = fresh("shard-2-short.jsonl");
    let text = std::fs::read_to_string(p2).expect("shard 2");
    let kept: Vec<&str> = text.lines().take(3).collect();
    std::fs::write(&short, kept.join("\n") + "\n").expect("write");
    refused_merge(&[p1, &short, p3], &["shard-2-short.jsonl (shard 2/3)", "lacks seeds 8"]);
    // A shard played under other settings.
    let other = fresh("shard-2-other.jsonl");
    played(&other, "1..8", &["--policy", "random", "--max-turns", "3", "--quiet", "--shard", "2/3"]);
    refused_merge(&[p1, &other, p3], &["shard-2-other.jsonl", "--policy"]);

    // A shard's file is resumed by that shard only.
    refused(
        "1..8",
        &[&common[..], &["--shard", "1/3"]].concat(),
        Some(p2),
        &["written by shard 2/3 of coe selfplay's seeds 1..8", "this run is shard 1/3"],
    );
    refused("1..8", &common, Some(p2), &["written by shard 2/3", "a whole run (no --shard)"]);
    refused("1..8", &["--shard", "2/3"], None, &["--out"]);
}
