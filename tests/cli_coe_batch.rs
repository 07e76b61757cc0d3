//! `signalbox coe batch --out FILE`: the file is data to check, not to trust. Settings recorded
//! and compared, every line replayed and checked, a torn last line recovered, one writer at a
//! time, bounded reading.

mod support;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use support::{run, seeds_in, temp_path};

fn batch(out: &Path, seeds: &str, extra: &[&str]) -> (Option<i32>, String, String) {
    let mut args = vec!["coe", "batch", "--seeds", seeds, "--out", out.to_str().expect("path")];
    args.extend_from_slice(extra);
    run(&args)
}

/// A fresh batch file of seeds 1 to 2 in three-turn games.
fn fresh(tag: &str) -> PathBuf {
    let out = temp_path("coe-batch", tag);
    let _ = std::fs::remove_file(&out);
    let (code, _, err) = batch(&out, "1..2", &["--max-turns", "3"]);
    assert_eq!(code, Some(0), "{err}");
    out
}

/// Runs `coe batch` writing `out` and expects bad input naming each of `expected`, the file left
/// as it was.
fn refused(out: &Path, seeds: &str, extra: &[&str], expected: &[&str]) {
    let mut args = vec!["coe", "batch", "--seeds", seeds, "--out", out.to_str().expect("path")];
    args.extend_from_slice(extra);
    support::refused(&args, Some(out), expected);
}

#[test]
fn the_regression_file_is_refused_as_it_is_and_each_of_its_claims_is_refused_on_a_real_line() {
    let regression =
        format!("{}/tests/fixtures/coe/regressions/batch-line-claims-too-much.jsonl", env!("CARGO_MANIFEST_DIR"));
    let copy = temp_path("coe-batch", "regression.jsonl");
    std::fs::copy(&regression, &copy).expect("copy");
    refused(&copy, "1..1", &[], &["line 1", "settings line"]);

    // Each claim of the regression's lines, grafted onto a real line of a real file.
    let good = fresh("claims-base.jsonl");
    let text = std::fs::read_to_string(&good).expect("file");
    let mut lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    let claims: Vec<Value> = std::fs::read_to_string(&regression)
        .expect("regression")
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    let mut cases: Vec<(Value, &str)> = Vec::new();
    for claim in &claims {
        let mut whole = lines[1].clone();
        for (k, v) in claim.as_object().expect("object") {
            whole[k] = v.clone();
        }
        whole["seed"] = lines[1]["seed"].clone();
        cases.push((whole, "seed 1"));
    }
    for field in ["score", "rank", "upper_bound", "perfect_bound", "seconds"] {
        let mut one = lines[1].clone();
        one[field] = claims[0][field].clone();
        cases.push((one, field_message(field)));
    }
    for (i, (line, expected)) in cases.into_iter().enumerate() {
        lines[1] = line;
        let out = temp_path("coe-batch", &format!("claim-{i}.jsonl"));
        let body: Vec<String> = lines.iter().map(Value::to_string).collect();
        std::fs::write(&out, body.join("\n") + "\n").expect("write");
        refused(&out, "1..2", &["--max-turns", "3"], &["line 2", expected]);
    }
}

fn field_message(field: &str) -> &'static str {
    match field {
        "score" => "its moves score",
        "rank" => "is not the rank of score",
        "upper_bound" => "upper_bound",
        "perfect_bound" => "perfect-score bound is",
        _ => "seconds",
    }
}

#[test]
fn a_run_under_other_settings_is_refused_naming_both() {
    let out = fresh("settings.jsonl");
    refused(&out, "1..2", &[], &["turns: the file has --max-turns 3, this run whole games"]);
    refused(&out, "1..2", &["--max-turns", "3", "--max-workers", "5"], &["--max-workers: the file has 6, this run 5"]);
    refused(&out, "1..2", &["--max-turns", "3", "--time-limit", "9"], &["time limit: the file has no time limit"]);
    let house =
        std::fs::read_to_string(format!("{}/engine/data/coe/house.toml", env!("CARGO_MANIFEST_DIR"))).expect("house");
    let content = temp_path("coe-batch", "other-content.toml");
    std::fs::write(&content, format!("{house}\n# the same cards, another file\n")).expect("write");
    refused(
        &out,
        "1..2",
        &["--max-turns", "3", "--content", content.to_str().expect("path")],
        &["content: the file has"],
    );
    // The same settings: the file is read, checked and extended.
    let (code, _, err) = batch(&out, "1..3", &["--max-turns", "3"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(seeds_in(&out), vec![1, 2, 3]);
}

#[test]
fn a_torn_last_line_is_dropped_with_a_warning_and_its_seed_solved_again() {
    let out = fresh("torn.jsonl");
    let text = std::fs::read_to_string(&out).expect("file");
    std::fs::write(&out, &text[..text.len() - 40]).expect("tear the last line");
    let (code, _, err) = batch(&out, "1..3", &["--max-turns", "3"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("line 3 is incomplete") && err.contains("solved again"), "{err}");
    assert_eq!(seeds_in(&out), vec![1, 2, 3]);
    // A whole last line that only lacks its newline is kept, and the next line starts anew.
    let text = std::fs::read_to_string(&out).expect("file");
    std::fs::write(&out, text.trim_end()).expect("drop the newline");
    let (code, _, err) = batch(&out, "1..4", &["--max-turns", "3"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(seeds_in(&out), vec![1, 2, 3, 4]);
    // A torn line that is not the last is no crash's doing: refused.
    let text = std::fs::read_to_string(&out).expect("file");
    let mut lines: Vec<&str> = text.lines().collect();
    let torn = &lines[2][..20];
    lines[2] = torn;
    std::fs::write(&out, lines.join("\n") + "\n").expect("write");
    refused(&out, "1..4", &["--max-turns", "3"], &["line 3", "not a batch result line"]);
}

#[test]
fn what_is_not_a_batch_file_is_refused_before_it_is_read() {
    let dir = temp_path("coe-batch", "a-folder");
    std::fs::create_dir_all(&dir).expect("dir");
    let (code, _, err) = batch(&dir, "1..1", &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("not a regular file"), "{err}");
    if Path::new("/dev/full").exists() {
        let started = Instant::now();
        let (code, _, err) = batch(Path::new("/dev/full"), "1..1", &[]);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains("/dev/full: not a regular file"), "{err}");
        assert!(started.elapsed() < Duration::from_secs(60), "it does not read an endless file");
    }
    let out = temp_path("coe-batch", "binary.jsonl");
    let mut bytes = std::fs::read(fresh("binary-base.jsonl")).expect("file");
    bytes.extend_from_slice(b"{\"seed\": 3, \xff\xfe}\n");
    std::fs::write(&out, bytes).expect("write");
    refused(&out, "1..3", &["--max-turns", "3"], &["line 4", "not UTF-8"]);
}

/// kill -9 in the middle of a batch, then a rerun: every seed once. While the first batch runs, a
/// second on the same file is refused.
#[test]
fn a_killed_batch_resumes_and_a_second_writer_is_refused() {
    let out = temp_path("coe-batch", "killed.jsonl");
    let _ = std::fs::remove_file(&out);
    let path = out.to_str().expect("path");
    let args = ["coe", "batch", "--seeds", "1..40", "--max-turns", "5", "--out", path, "--threads", "1"];
    let mut child = Command::new(env!("CARGO_BIN_EXE_signalbox"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let started = Instant::now();
    while std::fs::read_to_string(&out).map_or(0, |t| t.lines().count()) < 3 {
        assert!(started.elapsed() < Duration::from_secs(120), "the batch writes its lines");
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    if child.try_wait().expect("wait").is_none() {
        let (code, _, err) = run(&args);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains("another `coe batch` is writing this file"), "{err}");
    }
    child.kill().expect("kill -9");
    child.wait().expect("reaped");
    let (code, _, err) = run(&args);
    assert_eq!(code, Some(0), "{err}");
    let mut seeds = seeds_in(&out);
    seeds.sort_unstable();
    assert_eq!(seeds, (1..=40).collect::<Vec<u64>>(), "every seed once");
    let mut f = std::fs::OpenOptions::new().append(true).open(&out).expect("open");
    f.write_all(b"").expect("the lock went with the process");
}
