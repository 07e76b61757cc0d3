//! Writes `reports/cubes-of-europe-standings.csv`, the table `signalbox coe standing` places a
//! result with: for each seed, its best score knowing the future and the bound no line passes
//! (from `reports/cubes-of-europe-seeds.jsonl`, and `reports/cubes-of-europe-seeds-unproven.jsonl`
//! where its longer search proved more), and the fair policy's score on it (from the
//! `coe selfplay --policy fair` file that `coe_fair_play_report` plays).
//!
//! ```text
//! cargo run --release --example coe_fair_play_report -- 1..10000
//! cargo run --release --example coe_standings_table -- target/fair-play/fair.jsonl
//! ```
//!
//! Both files are read as they are (`coe check` replays batch files, `coe selfplay` replays its
//! own file when it resumes); seeds missing from either are refused, so the table covers the
//! fair file's seeds exactly.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use serde_json::Value;

/// Each seed's line of a JSON-lines file (the settings line skipped).
fn seed_lines(path: &Path) -> Result<BTreeMap<u64, Value>, Box<dyn std::error::Error>> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = BTreeMap::new();
    for (k, line) in text.lines().enumerate() {
        let v: Value = serde_json::from_str(line).map_err(|e| format!("{}:{}: {e}", path.display(), k + 1))?;
        if let Some(seed) = v.get("seed").and_then(Value::as_u64) {
            out.insert(seed, v);
        }
    }
    Ok(out)
}

fn number(v: &Value, field: &str, path: &Path, seed: u64) -> Result<u64, String> {
    v.get(field).and_then(Value::as_u64).ok_or_else(|| format!("{}: seed {seed} has no `{field}`", path.display()))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fair_path = std::env::args().nth(1).map_or_else(|| root.join("target/fair-play/fair.jsonl"), Into::into);
    let seeds_path = root.join("reports/cubes-of-europe-seeds.jsonl");
    let second_path = root.join("reports/cubes-of-europe-seeds-unproven.jsonl");
    let fair = seed_lines(&fair_path)?;
    let batch = seed_lines(&seeds_path)?;
    let second = seed_lines(&second_path)?;
    let mut out = String::new();
    writeln!(out, "# The Cubes of Europe, house set, default rules, whole games: each seed's best score knowing")?;
    writeln!(out, "# every die and card (`maximum`, proven when it equals `upper_bound`) and the fair policy's")?;
    writeln!(out, "# score. Written by `cargo run --release --example coe_standings_table -- FAIR.jsonl` from")?;
    writeln!(out, "# reports/cubes-of-europe-seeds.jsonl, reports/cubes-of-europe-seeds-unproven.jsonl and the")?;
    writeln!(out, "# `coe selfplay --policy fair` file of `coe_fair_play_report` (docs/formats/coe-standing.md).")?;
    writeln!(out, "seed,maximum,upper_bound,fair")?;
    for (&seed, f) in &fair {
        let b = batch.get(&seed).ok_or_else(|| format!("{}: no seed {seed}", seeds_path.display()))?;
        let (mut maximum, mut bound) =
            (number(b, "score", &seeds_path, seed)?, number(b, "upper_bound", &seeds_path, seed)?);
        if let Some(s) = second.get(&seed) {
            maximum = maximum.max(number(s, "score", &second_path, seed)?);
            bound = bound.min(number(s, "upper_bound", &second_path, seed)?);
        }
        writeln!(out, "{seed},{maximum},{bound},{}", number(f, "score", &fair_path, seed)?)?;
    }
    let target = root.join("reports/cubes-of-europe-standings.csv");
    let part = target.with_extension("csv.part");
    std::fs::write(&part, out)?;
    std::fs::rename(&part, &target)?;
    eprintln!("wrote {} ({} seeds)", target.display(), fair.len());
    Ok(())
}
