//! Mutation tests of every input format: seeded mutants of real files (the fixtures, the embedded
//! samples, files the commands write), each given to the command that reads the format. Every
//! run must end with exit code 0 (a legal file) or 2 (bad input, with a message naming the file),
//! never a panic or another failure, within a time bound.
//!
//! `SIGNALBOX_FUZZ_CASES=N` sets the mutants per format (default 2,000 in the normal test run);
//! `SIGNALBOX_FUZZ_SEED=S` starts another series. The coverage-guided targets are in `fuzz/`.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rand::{RngExt as _, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use support::{run, temp_path};

/// The longest a command may take on one mutant.
const TIME_BOUND: Duration = Duration::from_secs(20);

fn cases() -> usize {
    std::env::var("SIGNALBOX_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(2000)
}

fn series() -> u64 {
    std::env::var("SIGNALBOX_FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(0)
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// Text a command prints to standard output, for seed files the tests write themselves.
fn output_of(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, Some(0), "{args:?}: {err}");
    out
}

/// Values that break parsers and checks: wrong types, extremes, empties.
const ODD_VALUES: [&str; 16] = [
    "null",
    "true",
    "-1",
    "0",
    "1e309",
    "18446744073709551616",
    "4294967296",
    "255",
    "256",
    "\"\"",
    "\"red\"",
    "[]",
    "{}",
    "[0, 0]",
    "1.5",
    "\"\\u0000\"",
];

/// A mutant of `seed`: structural edits of its JSON (a value replaced, removed, duplicated, a
/// field added) or, for other files, byte edits (flips, cuts, repeats, odd tokens, truncation).
fn mutate(seed: &[u8], rng: &mut ChaCha8Rng) -> Vec<u8> {
    if rng.random_bool(0.6)
        && let Ok(mut value) = serde_json::from_slice::<Value>(seed)
    {
        for _ in 0..rng.random_range(1..=3) {
            mutate_json(&mut value, rng);
        }
        return serde_json::to_vec_pretty(&value).expect("JSON");
    }
    let mut bytes = seed.to_vec();
    for _ in 0..rng.random_range(1..=4) {
        mutate_bytes(&mut bytes, rng);
    }
    bytes
}

fn mutate_json(at: &mut Value, rng: &mut ChaCha8Rng) {
    // Go down a random path, then edit there.
    let deeper = rng.random_bool(0.8);
    match at {
        Value::Array(items) if !items.is_empty() && deeper => {
            let i = rng.random_range(0..items.len());
            return mutate_json(&mut items[i], rng);
        }
        Value::Object(map) if !map.is_empty() && deeper => {
            let i = rng.random_range(0..map.len());
            return mutate_json(map.values_mut().nth(i).expect("in range"), rng);
        }
        _ => {}
    }
    let token = ODD_VALUES[rng.random_range(0..ODD_VALUES.len())];
    let odd: Value = serde_json::from_str(token).unwrap_or_else(|_| Value::String(token.to_string()));
    match (rng.random_range(0..6), &mut *at) {
        (0, Value::Array(items)) if !items.is_empty() => {
            let i = rng.random_range(0..items.len());
            items.remove(i);
        }
        (1, Value::Array(items)) if !items.is_empty() => {
            let i = rng.random_range(0..items.len());
            let copy = items[i].clone();
            items.insert(i, copy);
        }
        (2, Value::Object(map)) if !map.is_empty() => {
            let i = rng.random_range(0..map.len());
            let key = map.keys().nth(i).expect("in range").clone();
            map.remove(&key);
        }
        (3, Value::Object(map)) => {
            map.insert("unexpected".into(), odd);
        }
        (4, Value::Number(n)) => {
            let delta: i64 = [-2, -1, 1, 2, 7][rng.random_range(0..5)];
            *at = Value::from(n.as_i64().unwrap_or(0).saturating_add(delta));
        }
        _ => *at = odd,
    }
}

fn mutate_bytes(bytes: &mut Vec<u8>, rng: &mut ChaCha8Rng) {
    if bytes.is_empty() {
        bytes.extend_from_slice(b"{");
        return;
    }
    let i = rng.random_range(0..bytes.len());
    match rng.random_range(0..7) {
        0 => bytes[i] ^= 1 << rng.random_range(0..8),
        1 => {
            let end = (i + rng.random_range(1..16)).min(bytes.len());
            bytes.drain(i..end);
        }
        2 => {
            let end = (i + rng.random_range(1..32)).min(bytes.len());
            let copy = bytes[i..end].to_vec();
            bytes.splice(i..i, copy);
        }
        3 => {
            let token = ODD_VALUES[rng.random_range(0..ODD_VALUES.len())].as_bytes().to_vec();
            bytes.splice(i..i, token);
        }
        4 => bytes.truncate(i),
        5 => bytes[i] = [b'0', b'9', b'-', b'"', b'\n', 0xff, b'[', b'='][rng.random_range(0..8)],
        _ => {
            if bytes[i].is_ascii_digit() {
                bytes[i] = b'0' + rng.random_range(0..10u8);
            } else {
                bytes.insert(i, b'9');
            }
        }
    }
}

/// Runs `args` (with `{}` replaced by the mutant's path) within the time bound.
fn run_bounded(args: &[String]) -> (Option<i32>, String, Duration) {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_signalbox"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if started.elapsed() > TIME_BOUND {
            child.kill().expect("kill");
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let out = child.wait_with_output().expect("output");
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned(), started.elapsed())
}

/// Feeds `cases()` mutants of each seed file to the command `args` (`{}` stands for the mutant's
/// path) and checks every outcome.
fn fuzz(format: &str, seeds: &[Vec<u8>], extension: &str, args: &[&str]) {
    fuzz_with(format, seeds, extension, args, &[]);
}

/// As [`fuzz`], for a format read beside another file (content beside a position): a refusal
/// names the mutant or one of `others`.
fn fuzz_with(format: &str, seeds: &[Vec<u8>], extension: &str, args: &[&str], others: &[&str]) {
    let mut rng = ChaCha8Rng::seed_from_u64(series() ^ fnv(format));
    let path = temp_path("fuzz", &format!("{}.{extension}", format.replace(' ', "-")));
    let shown = path.display().to_string();
    let args: Vec<String> = args.iter().map(|a| if *a == "{}" { shown.clone() } else { (*a).to_string() }).collect();
    let mut outcomes = [0usize; 2];
    for case in 0..cases() {
        let seed = &seeds[case % seeds.len()];
        let mutant = mutate(seed, &mut rng);
        std::fs::write(&path, &mutant).expect("write the mutant");
        let (code, err, took) = run_bounded(&args);
        let keep = || {
            let kept = temp_path("fuzz", &format!("failing-{}-{case}.{extension}", format.replace(' ', "-")));
            std::fs::write(&kept, &mutant).expect("keep the mutant");
            kept.display().to_string()
        };
        assert!(took <= TIME_BOUND, "{format} case {case}: over {TIME_BOUND:?} (kept as {})", keep());
        assert!(!err.contains("panicked"), "{format} case {case}: a panic (kept as {}): {err}", keep());
        match code {
            Some(0) => outcomes[0] += 1,
            Some(2) => {
                outcomes[1] += 1;
                let named = err.contains(&shown) || others.iter().any(|o| err.contains(o));
                assert!(named, "{format} case {case}: the message names no file (kept as {}): {err}", keep());
            }
            other => panic!("{format} case {case}: exit {other:?} (kept as {}): {err}", keep()),
        }
    }
    // Mutants that stay legal and mutants that are refused both occur, or the mutation is blind.
    assert!(outcomes[1] > 0, "{format}: no mutant was refused");
    eprintln!("{format}: {} legal, {} refused", outcomes[0], outcomes[1]);
}

fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

fn read(path: &str) -> Vec<u8> {
    std::fs::read(repo(path)).expect("seed file")
}

#[test]
fn express01_positions() {
    let mut seeds = vec![read("engine/data/express01/sample-position.json")];
    for name in ["unknown-card.json", "open-track-border.json", "payment-no-share.json", "share-count-mismatch.json"] {
        seeds.push(read(&format!("tests/fixtures/express01/{name}")));
    }
    fuzz("express01 position", &seeds, "json", &["express01", "check", "{}"]);
}

#[test]
fn express01_content() {
    let seeds = [read("engine/data/express01/house.toml")];
    fuzz_with(
        "express01 content",
        &seeds,
        "toml",
        &["express01", "check", "--content", "{}"],
        &["the sample position"],
    );
}

#[test]
fn express01_answers() {
    let seeds = [output_of(&["express01", "route", "--json"]).into_bytes()];
    fuzz("express01 answer", &seeds, "json", &["express01", "replay", "{}"]);
}

#[test]
fn coe_instances() {
    let seeds: Vec<Vec<u8>> =
        (1..=3).map(|s| output_of(&["coe", "instance", "--seed", &s.to_string(), "--json"]).into_bytes()).collect();
    fuzz("coe instance", &seeds, "json", &["coe", "check", "{}"]);
}

#[test]
fn coe_records() {
    let seeds: Vec<Vec<u8>> = (1..=2)
        .map(|s| output_of(&["coe", "solve", "--seed", &s.to_string(), "--max-turns", "4", "--json"]).into_bytes())
        .collect();
    fuzz("coe record", &seeds, "json", &["coe", "replay", "{}"]);
}

#[test]
fn coe_batch_files() {
    let out = temp_path("fuzz", "seed-batch.jsonl");
    let _ = std::fs::remove_file(&out);
    output_of(&["coe", "batch", "--seeds", "1..3", "--max-turns", "3", "--out", out.to_str().expect("path")]);
    let seeds = [std::fs::read(&out).expect("batch file")];
    fuzz("coe batch", &seeds, "jsonl", &["coe", "check", "{}"]);
}

#[test]
fn coe_content() {
    let seeds = [read("engine/data/coe/house.toml")];
    let instance = temp_path("fuzz", "content-instance.json");
    std::fs::write(&instance, output_of(&["coe", "instance", "--seed", "1", "--json"])).expect("write");
    let instance = instance.to_str().expect("path");
    fuzz_with("coe content", &seeds, "toml", &["coe", "check", instance, "--content", "{}"], &[instance]);
}

#[test]
fn mutation_is_seeded() {
    let seed = read("engine/data/express01/sample-position.json");
    let a: Vec<Vec<u8>> = {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        (0..20).map(|_| mutate(&seed, &mut rng)).collect()
    };
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let b: Vec<Vec<u8>> = (0..20).map(|_| mutate(&seed, &mut rng)).collect();
    assert_eq!(a, b);
    assert!(a.iter().any(|m| m != &seed));
}

#[test]
fn cube_express_positions() {
    let mut seeds = vec![read("engine/data/cube_express/sample-position.json")];
    for name in ["city-bridge.json", "sale-mid-turn.json"] {
        seeds.push(read(&format!("tests/fixtures/cube_express/regressions/{name}")));
    }
    seeds.push(read("tests/fixtures/cube_express/detached-tile.json"));
    fuzz("cube-express position", &seeds, "json", &["cube-express", "check", "{}"]);
}

#[test]
fn cube_express_records() {
    use signalbox_engine::cube_express::action::Action;
    use signalbox_engine::cube_express::catalogue::Content;
    use signalbox_engine::cube_express::game::Game;
    use signalbox_engine::cube_express::options::Options;
    use signalbox_engine::cube_express::position::Record;
    let seeds: Vec<Vec<u8>> = [(2, 4), (3, 9)]
        .into_iter()
        .map(|(players, seed)| {
            let mut game =
                Game::new(std::sync::Arc::new(Content::house()), players, seed, Options::default()).expect("setup");
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut turns: Vec<Vec<Action>> = vec![Vec::new()];
            while !game.is_over() && turns.len() <= 8 {
                let a = game.random_action(&mut rng).expect("an action");
                let before = game.turns_played();
                game.apply(&a).expect("legal");
                turns.last_mut().expect("a turn").push(a);
                if game.turns_played() != before {
                    turns.push(Vec::new());
                }
            }
            let record = Record::new(players, seed, Options::default(), turns);
            serde_json::to_vec_pretty(&record).expect("JSON")
        })
        .collect();
    fuzz("cube-express record", &seeds, "json", &["cube-express", "check", "{}"]);
}

#[test]
fn cube_express_content() {
    let seeds = [read("engine/data/cube_express/house.toml")];
    let position = repo("engine/data/cube_express/sample-position.json");
    let position = position.to_str().expect("path");
    fuzz_with(
        "cube-express content",
        &seeds,
        "toml",
        &["cube-express", "check", position, "--content", "{}"],
        &[position],
    );
}

#[test]
fn railways_positions() {
    let seeds = [read("engine/data/railways/sample-position.json"), read("tests/fixtures/railways/bad-entry.json")];
    fuzz("railways position", &seeds, "json", &["railways", "check", "{}"]);
}

#[test]
fn railways_records() {
    use signalbox_engine::railways::catalogue::Content;
    use signalbox_engine::railways::colour::Colour;
    use signalbox_engine::railways::game::Game;
    use signalbox_engine::railways::options::Options;
    use signalbox_engine::railways::record::{Move, RecordSetup};
    let content = std::sync::Arc::new(Content::house());
    let seeds: Vec<Vec<u8>> = [3u64, 8]
        .into_iter()
        .map(|seed| {
            let seats = vec![Colour::Red, Colour::Purple];
            let mut game = Game::new(content.clone(), &seats, Options::default(), seed).expect("a game");
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut turns: Vec<Vec<Move>> = vec![Vec::new()];
            while !game.is_over() && turns.len() <= 10 {
                let Some(action) = game.random_action(&mut rng) else { break };
                let before = game.turns();
                game.apply(&action).expect("legal");
                turns.last_mut().expect("a turn").push(Move::from_action(&content, &action));
                if game.turns() != before {
                    turns.push(Vec::new());
                }
            }
            turns.retain(|t| !t.is_empty());
            serde_json::to_vec_pretty(&RecordSetup { seats, options: Options::default(), seed, turns }).expect("JSON")
        })
        .collect();
    fuzz("railways record", &seeds, "json", &["railways", "replay", "{}"]);
}

#[test]
fn railways_content() {
    let seeds = [read("engine/data/railways/house.toml")];
    fuzz_with(
        "railways content",
        &seeds,
        "toml",
        &["railways", "check", "--content", "{}"],
        &["the house map", "the sample position"],
    );
}
