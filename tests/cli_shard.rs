//! `--shard K/N` and `signalbox merge`: the shards of a `coe batch` and of a `puzzles make`, run
//! in a shuffled order, merge into what one run writes (byte for byte, apart from each seed
//! line's `seconds`); a missing, duplicated, unfinished or foreign shard is refused and named,
//! and so is a shard's file resumed as another part.

mod support;

use std::path::Path;

use serde_json::Value;
use support::{files, fresh, ok, temp_path};

fn s(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// A batch file's lines as JSON, each seed line without the work it took: its `seconds`, and its
/// `positions`, which on more than one thread depend on the threads' timing (docs/formats/shards.md).
fn without_work(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .expect("the file")
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).expect("JSON");
            if let Some(o) = v.as_object_mut() {
                o.remove("seconds");
                o.remove("positions");
            }
            v
        })
        .collect()
}

/// Runs `args` and expects bad input naming each of `named`.
fn refused(args: &[&str], named: &[&str]) -> String {
    support::refused(args, None, named)
}

#[test]
fn coe_batch_shards_merge_into_the_single_run() {
    let whole = fresh("shard-coe", "whole.jsonl");
    ok(&["coe", "batch", "--seeds", "3..14", "--max-turns", "3", "--out", s(&whole)]);
    let part = |k: u64| temp_path("shard-coe", &format!("part-{k}.jsonl"));
    for k in [3, 1, 2] {
        let _ = std::fs::remove_file(part(k));
        let shard = format!("{k}/3");
        let out =
            ok(&["coe", "batch", "--seeds", "3..14", "--max-turns", "3", "--shard", &shard, "--out", s(&part(k))]);
        assert!(out.contains(&format!("shard {k}/3: 4 solved")), "{out}");
    }
    // The parts are dealt round: part 2 of 3 holds the seeds at positions 1, 4, 7, 10.
    let seeds: Vec<u64> = std::fs::read_to_string(part(2))
        .expect("part 2")
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str::<Value>(l).expect("JSON")["seed"].as_u64().expect("a seed"))
        .collect();
    assert_eq!(seeds, vec![4, 7, 10, 13]);

    let merged = fresh("shard-coe", "merged.jsonl");
    ok(&["merge", s(&merged), s(&part(2)), s(&part(3)), s(&part(1))]);
    assert_eq!(without_work(&merged), without_work(&whole));
    assert!(!std::fs::read_to_string(&merged).expect("merged").contains("\"shard\""));
    ok(&["coe", "check", s(&merged)]);

    // An existing output is kept unless --force.
    refused(&["merge", s(&merged), s(&part(1)), s(&part(2)), s(&part(3))], &["already exists", "--force"]);
    let again = fresh("shard-coe", "again.jsonl");
    refused(&["merge", s(&again), s(&part(1)), s(&part(3))], &["shard 2/3 is missing"]);
    let copy = fresh("shard-coe", "copy-of-1.jsonl");
    std::fs::copy(part(1), &copy).expect("copy");
    refused(
        &["merge", s(&again), s(&part(1)), s(&copy), s(&part(2))],
        &["shard 1/3 is given 2 times", "copy-of-1.jsonl", "shard 3/3 is missing"],
    );
    refused(&["merge", s(&again), s(&part(1)), s(&part(2)), s(&whole)], &["whole.jsonl", "no `shard`"]);
    assert!(!again.exists(), "a refused merge writes nothing");

    // A shard that has not finished its part (its last line lost) is named with the seed it lacks.
    let text = std::fs::read_to_string(part(3)).expect("part 3");
    let short: Vec<&str> = text.lines().take(4).collect();
    let unfinished = fresh("shard-coe", "unfinished-3.jsonl");
    std::fs::write(&unfinished, short.join("\n") + "\n").expect("write");
    refused(
        &["merge", s(&again), s(&part(1)), s(&part(2)), s(&unfinished)],
        &["unfinished-3.jsonl", "lacks seeds 14", "rerun"],
    );

    // Shards of other settings, or of another range, are not parts of this run.
    let other = fresh("shard-coe", "other-3.jsonl");
    ok(&["coe", "batch", "--seeds", "3..14", "--max-turns", "2", "--shard", "3/3", "--out", s(&other)]);
    refused(
        &["merge", s(&again), s(&part(1)), s(&part(2)), s(&other)],
        &["other-3.jsonl", "other settings", "--max-turns"],
    );
    let range = fresh("shard-coe", "range-3.jsonl");
    ok(&["coe", "batch", "--seeds", "3..15", "--max-turns", "3", "--shard", "3/3", "--out", s(&range)]);
    refused(
        &["merge", s(&again), s(&part(1)), s(&part(2)), s(&range)],
        &["range-3.jsonl", "seeds 3..15", "seeds 3..14"],
    );

    // A shard's file is resumed only by the same part of the same run.
    let before = std::fs::read(part(1)).expect("part 1");
    refused(
        &["coe", "batch", "--seeds", "3..14", "--max-turns", "3", "--shard", "2/3", "--out", s(&part(1))],
        &["shard 1/3", "shard 2/3"],
    );
    refused(&["coe", "batch", "--seeds", "3..14", "--max-turns", "3", "--out", s(&part(1))], &["a whole run"]);
    assert_eq!(std::fs::read(part(1)).expect("part 1"), before);
    refused(&["coe", "batch", "--seeds", "3..14", "--shard", "4/3", "--out", s(&part(1))], &["--shard", "K/N"]);
}

#[test]
fn puzzles_make_parts_merge_into_the_collection_one_run_makes() {
    let make = |extra: &[&str]| {
        let mut args = vec!["puzzles", "make", "--game", "coe", "--count", "3", "--seed", "5", "--quiet"];
        args.extend_from_slice(extra);
        args.iter().map(|a| a.to_string()).collect::<Vec<_>>()
    };
    let call = |args: Vec<String>| ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let whole = fresh("shard-puzzles", "whole");
    call(make(&["--out", s(&whole)]));
    let part = |k: u64| temp_path("shard-puzzles", &format!("part-{k}.jsonl"));
    for k in [2, 3, 1] {
        let _ = std::fs::remove_file(part(k));
        call(make(&["--shard", &format!("{k}/3"), "--out", s(&part(k))]));
    }
    // A part run again is done already, and its file is as it was.
    let before = std::fs::read(part(2)).expect("part 2");
    let out = call(make(&["--shard", "2/3", "--out", s(&part(2))]));
    assert!(out.contains("already done"), "{out}");
    assert_eq!(std::fs::read(part(2)).expect("part 2"), before);
    // With --force it is made anew, the same.
    let out = call(make(&["--shard", "2/3", "--force", "--out", s(&part(2))]));
    assert!(!out.contains("already done"), "{out}");
    assert_eq!(std::fs::read(part(2)).expect("part 2"), before);

    let merged = fresh("shard-puzzles", "merged");
    ok(&["merge", s(&merged), s(&part(3)), s(&part(1)), s(&part(2))]);
    assert_eq!(files(&merged), files(&whole), "the merged collection is the one run's, byte for byte");
    assert_eq!(files(&whole).len(), 4, "three puzzles and the manifest");

    let again = fresh("shard-puzzles", "again");
    refused(&["merge", s(&again), s(&part(1)), s(&part(2))], &["shard 3/3 is missing"]);
    refused(&["merge", s(&again), s(&part(1)), s(&part(2)), s(&part(2)), s(&part(3))], &["shard 2/3 is given 2 times"]);
    // A part stopped before its end (no `done` line) is named.
    let text = std::fs::read_to_string(part(1)).expect("part 1");
    let lines: Vec<&str> = text.lines().collect();
    let unfinished = fresh("shard-puzzles", "unfinished-1.jsonl");
    std::fs::write(&unfinished, lines[..lines.len() - 1].join("\n") + "\n").expect("write");
    refused(&["merge", s(&again), s(&unfinished), s(&part(2)), s(&part(3))], &["unfinished-1.jsonl", "not finished"]);
    // Resumed, the unfinished part ends as the finished one.
    call(make(&["--shard", "1/3", "--out", s(&unfinished)]));
    assert_eq!(std::fs::read(&unfinished).expect("resumed"), std::fs::read(part(1)).expect("part 1"));
    // Parts of another collection are refused.
    let other = fresh("shard-puzzles", "other-3.jsonl");
    ok(&[
        "puzzles",
        "make",
        "--game",
        "coe",
        "--count",
        "3",
        "--seed",
        "6",
        "--quiet",
        "--shard",
        "3/3",
        "--out",
        s(&other),
    ]);
    refused(&["merge", s(&again), s(&part(1)), s(&part(2)), s(&other)], &["other-3.jsonl", "other settings"]);
    assert!(!again.exists(), "a refused merge writes nothing");
}
