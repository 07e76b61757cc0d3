//! Writes `reports/cubes-of-europe-seeds.md`: the proven best score, with hindsight, of every
//! seed in a range of The Cubes of Europe, from `reports/cubes-of-europe-seeds.jsonl`.
//!
//! ```text
//! cargo build --release
//! cargo run --release --example coe_seeds_report -- 1..10000
//! ```
//!
//! It runs `target/release/signalbox coe batch --seeds A..B --out reports/cubes-of-europe-seeds.jsonl
//! --time-limit 60` (which re-reads and checks every line, and solves only the seeds the file
//! lacks), then the second pass: each seed not proven within that limit again, alone, with
//! `coe batch --seeds S..S --out reports/cubes-of-europe-seeds-unproven.jsonl --time-limit 600
//! --threads 2` (also resumed where the file ends), and writes the page from the two files.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The first pass's limit, seconds a seed.
const FIRST_LIMIT: &str = "60";
/// The second pass's limit, seconds a seed.
const SECOND_LIMIT: &str = "600";
/// The seeds of the checked-in file solved on two threads (the run of 2026-12-01); the rest
/// were solved on one thread each, two shards at once.
const TWO_THREAD_SEEDS: std::ops::RangeInclusive<u64> = 1..=1000;
/// The lowest score ranked Master (rulebook, the rank chart).
const MASTER: u64 = 34;

/// How the checked-in file was made: what the files cannot say.
const RUN: &str = "\
The file was made in two steps, with the same settings line (house set cards, default rules,
whole games, a 60-second limit a seed), so it is one run's file:

- **Seeds 1 to 1,000**: the run of 2026-12-01 (58 minutes, 2 threads a seed, built from commit
  `ded98d2`).
- **Seeds 1,001 to 10,000**: from 2026-12-03 to 2026-12-04, in two shards on this 2-core
  machine, one thread a shard, about 18 seeds a minute in all, each shard resumed from its own
  file across several sittings, checked in as the parts grew and merged when both were done
  (the same as `deploy/parallel/run --jobs 2 2 ...`, README \"Running on a cluster\"):

```sh
cargo build --release
target/release/signalbox coe batch --seeds 1..10000 --shard 1/2 --threads 1 --time-limit 60 --out part-1-of-2.jsonl
target/release/signalbox coe batch --seeds 1..10000 --shard 2/2 --threads 1 --time-limit 60 --out part-2-of-2.jsonl
target/release/signalbox merge reports/cubes-of-europe-seeds.jsonl part-1-of-2.jsonl part-2-of-2.jsonl
```

The hindsight search and the rules (`solver/src/coe/search.rs`, `exact.rs`, `bound.rs`,
`engine/src/coe/`) are those of commit `80f0135` for every seed after 1,000. Every line is replayed and re-scored whenever the file is read (`signalbox coe check
reports/cubes-of-europe-seeds.jsonl`; format in `docs/formats/coe-records.md`).";

/// One seed's line of a `coe batch` file.
#[derive(Clone, Debug)]
struct Seed {
    seed: u64,
    score: u64,
    proven: bool,
    upper_bound: u64,
    perfect_bound: u64,
    positions: u64,
    seconds: f64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let seeds = std::env::args().nth(1).unwrap_or_else(|| "1..10000".into());
    let (from, to) = seeds.split_once("..").ok_or("the seeds: expected A..B")?;
    let range = from.parse::<u64>()?..=to.parse::<u64>()?;
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    let binary = target.join("release/signalbox");
    let first = root.join("reports/cubes-of-europe-seeds.jsonl");
    let second = root.join("reports/cubes-of-europe-seeds-unproven.jsonl");

    eprintln!("first pass: seeds {seeds}, {FIRST_LIMIT} s a seed");
    let batch = |seeds: &str, out: &Path, limit: &[&str]| -> Result<String, Box<dyn std::error::Error>> {
        let out = Command::new(&binary)
            .current_dir(root)
            .args(["coe", "batch", "--seeds", seeds])
            .args(limit)
            .arg("--out")
            .arg(out)
            .output()?;
        if !out.status.success() {
            return Err(format!("coe batch --seeds {seeds}: {}", String::from_utf8_lossy(&out.stderr)).into());
        }
        Ok(String::from_utf8(out.stdout)?)
    };
    let summary = batch(&seeds, &first, &["--time-limit", FIRST_LIMIT])?;
    let lines: Vec<Seed> = read(&first)?.into_iter().filter(|s| range.contains(&s.seed)).collect();
    let unproven: Vec<&Seed> = lines.iter().filter(|s| !s.proven).collect();
    // The page is written before the second pass and again after each of its seeds, so a pass
    // stopped part way leaves a whole page (its remaining seeds marked not run yet).
    let path = root.join("reports/cubes-of-europe-seeds.md");
    let write_page = || -> Result<(), Box<dyn std::error::Error>> {
        let again = if second.exists() { read(&second)? } else { Vec::new() };
        std::fs::write(&path, render(&seeds, &summary, &lines, &again))?;
        Ok(())
    };
    write_page()?;
    for (i, s) in unproven.iter().enumerate() {
        eprintln!("second pass: seed {} ({} of {}), {SECOND_LIMIT} s", s.seed, i + 1, unproven.len());
        batch(&format!("{0}..{0}", s.seed), &second, &["--time-limit", SECOND_LIMIT, "--threads", "2"])?;
        write_page()?;
    }
    eprintln!("wrote {}", path.display());
    Ok(())
}

/// The seed lines of a `coe batch` file (its first line is the settings).
fn read(path: &Path) -> Result<Vec<Seed>, Box<dyn std::error::Error>> {
    let mut seeds = Vec::new();
    for line in std::fs::read_to_string(path)?.lines().skip(1) {
        let v: Value = serde_json::from_str(line)?;
        let n = |k: &str| v[k].as_u64().ok_or_else(|| format!("{}: a line without `{k}`", path.display()));
        seeds.push(Seed {
            seed: n("seed")?,
            score: n("score")?,
            proven: v["proven"].as_bool() == Some(true),
            upper_bound: n("upper_bound")?,
            perfect_bound: n("perfect_bound")?,
            positions: n("positions")?,
            seconds: v["seconds"].as_f64().unwrap_or(f64::NAN),
        });
    }
    Ok(seeds)
}

/// The nearest-rank quantile `q` of sorted values.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() as f64 * q).ceil() as usize).clamp(1, sorted.len()) - 1]
}

/// A number with thousands separated by commas.
fn count(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A list of seeds, at most `most` of them written out.
fn seed_list(seeds: &[u64], most: usize) -> String {
    let shown: Vec<String> = seeds.iter().take(most).map(u64::to_string).collect();
    match seeds.len().saturating_sub(most) {
        0 => shown.join(", "),
        more => format!("{} and {more} more", shown.join(", ")),
    }
}

/// The row of the proof-time table for one group of seeds.
fn time_row(name: &str, group: &[&Seed]) -> String {
    let mut times: Vec<f64> = group.iter().map(|s| s.seconds).collect();
    times.sort_by(f64::total_cmp);
    let proven = group.iter().filter(|s| s.proven).count();
    let within = |limit: f64| group.iter().filter(|s| s.proven && s.seconds <= limit).count();
    let mut positions: Vec<u64> = group.iter().map(|s| s.positions).collect();
    positions.sort_unstable();
    format!(
        "| {name} | {} | {} | {:.2} | {:.1} | {:.1} | {} | {} | {} |",
        count(group.len()),
        count(proven),
        quantile(&times, 0.5),
        quantile(&times, 0.9),
        quantile(&times, 0.99),
        count(within(1.0)),
        count(within(30.0)),
        count(positions.get(positions.len() / 2).copied().unwrap_or(0) as usize),
    )
}

fn render(seeds: &str, summary: &str, lines: &[Seed], again: &[Seed]) -> String {
    let mut s = String::new();
    let n = lines.len();
    let proven: Vec<&Seed> = lines.iter().filter(|l| l.proven).collect();
    let unproven: Vec<&Seed> = lines.iter().filter(|l| !l.proven).collect();
    let _ = writeln!(
        s,
        "# The Cubes of Europe: the proven best score of seeds {}\n",
        seeds.split("..").map(|x| x.parse().map_or(x.to_string(), count)).collect::<Vec<_>>().join(" to ")
    );
    let _ = writeln!(
        s,
        "Generated by `cargo run --release --example coe_seeds_report -- {seeds}` (after `cargo build --release`), which \
         re-reads `reports/cubes-of-europe-seeds.jsonl` with `signalbox coe batch --seeds {seeds} --out \
         reports/cubes-of-europe-seeds.jsonl --time-limit {FIRST_LIMIT}` (solving any seed it lacks), proves again each \
         seed not proven within that limit, alone, with {SECOND_LIMIT} seconds and two threads (into \
         `reports/cubes-of-europe-seeds-unproven.jsonl`), and writes this page from the two files. Each file starts with \
         its settings line, then one line per seed: score, rank, proven, upper bound, perfect-score bound, positions \
         searched, seconds, and the line of moves.\n"
    );
    let _ = writeln!(s, "{RUN}\n");
    let _ = writeln!(s, "The summary, as `coe batch` prints it:\n\n```text\n{}```\n", summary);

    // What the maxima say.
    let lowest = proven.iter().map(|l| l.score).min().unwrap_or(0);
    let lowest_seeds: Vec<u64> = proven.iter().filter(|l| l.score == lowest).map(|l| l.seed).collect();
    let below_master: Vec<u64> = lines.iter().filter(|l| l.score < MASTER).map(|l| l.seed).collect();
    let highest = proven.iter().map(|l| l.score).max().unwrap_or(0);
    let highest_count = proven.iter().filter(|l| l.score == highest).count();
    let mean = proven.iter().map(|l| l.score as f64).sum::<f64>() / proven.len().max(1) as f64;
    let _ = writeln!(s, "## What it says\n");
    let master = if below_master.is_empty() {
        format!(
            "**Every seed is winnable, and at Master rank, with perfect play.** The worst of the {} seeds allows {lowest} points ({} {}), well above Master's {MASTER}",
            count(n),
            if lowest_seeds.len() == 1 { "seed" } else { "seeds" },
            seed_list(&lowest_seeds, 10)
        )
    } else {
        format!(
            "**{} seeds of {} fall short of Master with perfect play** ({}); the worst allows {lowest}",
            count(below_master.len()),
            count(n),
            seed_list(&below_master, 20)
        )
    };
    let _ = writeln!(
        s,
        "- {master}; the mean proven maximum is {mean:.2}, and {} seeds reach the highest, {highest}. The maximum is a \
         hindsight score: the solver knows every future die roll and the order of every card, which a player at the \
         table does not (`reports/cubes-of-europe-fair-play.md` plays the same seeds without knowing them). It measures \
         what the cards and rolls allow, not how hard a seed is to play.",
        count(highest_count)
    );
    let mut gaps = std::collections::BTreeMap::<u64, usize>::new();
    for l in &proven {
        *gaps.entry(l.perfect_bound - l.score).or_default() += 1;
    }
    let gap_mean = proven.iter().map(|l| (l.perfect_bound - l.score) as f64).sum::<f64>() / proven.len().max(1) as f64;
    let gap_rows: Vec<String> =
        gaps.iter().map(|(g, c)| format!("{g}: {:.1}%", 100.0 * *c as f64 / proven.len().max(1) as f64)).collect();
    let _ = writeln!(
        s,
        "- **The perfect-score bound is close.** Over the proven seeds it lies {gap_mean:.2} points above the maximum on \
         average; the share of seeds by gap is {}. The bound is the solver's bound at the start, computed in \
         milliseconds (`solver/src/coe/bound.rs`); the search closes the rest.",
        gap_rows.join(", ")
    );

    // Proof times.
    let two: Vec<&Seed> = lines.iter().filter(|l| TWO_THREAD_SEEDS.contains(&l.seed)).collect();
    let one: Vec<&Seed> = lines.iter().filter(|l| !TWO_THREAD_SEEDS.contains(&l.seed)).collect();
    let _ = writeln!(s, "\n## Proof times\n");
    let _ = writeln!(
        s,
        "Seconds a seed within the {FIRST_LIMIT}-second limit (the time of an unproven seed is the limit), by the threads a \
         seed had; positions are turn-start positions searched after the beam search.\n"
    );
    let _ = writeln!(
        s,
        "| seeds | solved | proven | median s | 90th percentile s | 99th percentile s | proven within 1 s | proven within 30 s | median positions |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|");
    for (name, group) in [("2 threads (1 to 1,000)", &two), ("1 thread (the rest)", &one)] {
        if !group.is_empty() {
            let _ = writeln!(s, "{}", time_row(name, group));
        }
    }
    let _ = writeln!(
        s,
        "\nThe targets are a median of 1 s and a 99th percentile of 30 s on 2 cores: one thread a seed has half that \
         machine, so the second row is the slower measure; on it a hard seed is more often stopped by the limit."
    );

    // The second pass.
    let _ = writeln!(s, "\n## Seeds not proven within {FIRST_LIMIT} seconds\n");
    if unproven.is_empty() {
        let _ = writeln!(s, "None: every seed is proven.");
        return s;
    }
    let settled: Vec<(&Seed, Option<&Seed>)> =
        unproven.iter().map(|u| (*u, again.iter().find(|a| a.seed == u.seed))).collect();
    let proven_again: Vec<&(&Seed, Option<&Seed>)> =
        settled.iter().filter(|(_, a)| a.is_some_and(|a| a.proven)).collect();
    let already = proven_again.iter().filter(|(u, a)| a.is_some_and(|a| a.score == u.score)).count();
    let run = settled.iter().filter(|(_, a)| a.is_some()).count();
    let so_far = if run == unproven.len() {
        String::new()
    } else {
        format!(" (it has reached {} of them so far; the rest are marked not run yet)", count(run))
    };
    let _ = writeln!(
        s,
        "{} ({:.1}%) stopped at the limit with {} best line found and an upper bound. The second pass{so_far} \
         proved {} of them with {SECOND_LIMIT} seconds and two threads each; on {} of those the line found within the \
         first limit was already the best. What the search could not prove even so is listed with its best line and \
         bound, not proven.\n",
        if unproven.len() == 1 { "One seed".to_string() } else { format!("{} seeds", count(unproven.len())) },
        100.0 * unproven.len() as f64 / n.max(1) as f64,
        if unproven.len() == 1 { "its" } else { "their" },
        count(proven_again.len()),
        count(already),
    );
    let _ = writeln!(s, "| seed | within {FIRST_LIMIT} s | second pass | seconds |");
    let _ = writeln!(s, "|---|---|---|---|");
    for (u, a) in &settled {
        let (second, seconds) = match a {
            Some(a) if a.proven => (format!("**{}**, proven", a.score), format!("{:.1}", a.seconds)),
            Some(a) => (format!("{} (at most {}), not proven", a.score, a.upper_bound), format!("{:.1}", a.seconds)),
            None => ("not run yet".to_string(), String::new()),
        };
        let _ = writeln!(s, "| {} | {} (at most {}) | {second} | {seconds} |", u.seed, u.score, u.upper_bound);
    }
    s
}
