//! `signalbox coe batch`: solve a range of seeds, one JSON line each, and summarise.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use signalbox_engine::coe::{Catalogue, Instance};

use super::solve::{SearchArgs, solve_checked};
use crate::input::{bad, read_text};

/// Arguments of `coe batch`.
#[derive(clap::Args, Debug)]
pub struct BatchArgs {
    /// The seeds, `A..B` (both included), e.g. `1..200`.
    #[arg(long, value_name = "A..B")]
    seeds: String,
    /// Append one JSON line per seed here; seeds already in the file are not solved again.
    #[arg(long, value_name = "FILE.jsonl")]
    out: Option<PathBuf>,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
}

/// One seed's result: a line of the output file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SeedLine {
    /// The seed.
    pub seed: u64,
    /// The best score found.
    pub score: u32,
    /// Its rank.
    pub rank: String,
    /// Whether it is proven the maximum.
    pub proven: bool,
    /// No line scores more.
    pub upper_bound: u32,
    /// The perfect-score bound.
    pub perfect_bound: u32,
    /// Positions searched.
    pub positions: u64,
    /// Wall time, seconds.
    pub seconds: f64,
}

fn parse_range(text: &str) -> anyhow::Result<(u64, u64)> {
    let err = || bad(format!("--seeds: expected A..B with A <= B (e.g. 1..200), got `{text}`"));
    let (a, b) = text.split_once("..").ok_or_else(err)?;
    let a: u64 = a.trim().parse().map_err(|_| err())?;
    let b: u64 = b.trim().trim_start_matches('=').parse().map_err(|_| err())?;
    if a > b {
        return Err(err());
    }
    Ok((a, b))
}

/// The lines already in an output file; a malformed line is bad input (named by its number).
fn read_done(path: &std::path::Path) -> anyhow::Result<BTreeMap<u64, SeedLine>> {
    let mut done = BTreeMap::new();
    if !path.exists() {
        return Ok(done);
    }
    let text = read_text(path)?;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let parsed: SeedLine = serde_json::from_str(line)
            .map_err(|e| bad(format!("{}: line {}: not a batch result line: {e}", path.display(), i + 1)))?;
        done.insert(parsed.seed, parsed);
    }
    Ok(done)
}

/// Runs `coe batch`.
pub fn run(a: BatchArgs, catalogue: &Catalogue) -> anyhow::Result<()> {
    let (from, to) = parse_range(&a.seeds)?;
    let rules = a.search.rules()?;
    let options = a.search.options();
    let mut done = match &a.out {
        Some(path) => read_done(path)?,
        None => BTreeMap::new(),
    };
    let todo: Vec<u64> = (from..=to).filter(|s| !done.contains_key(s)).collect();
    let mut file = match &a.out {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| bad(format!("{}: cannot write: {e}", path.display())))?,
        ),
        None => None,
    };
    let bar = crate::flags::progress(todo.len() as u64, "seeds", false);
    if todo.len() as u64 != to - from + 1 {
        eprintln!("{} seeds already in the output file: skipped", (to - from + 1) - todo.len() as u64);
    }
    for seed in todo {
        bar.set_message(format!("· seed {seed}"));
        let instance = Instance::from_seed(seed);
        let c = solve_checked(catalogue, &instance, rules, options)?;
        let line = SeedLine {
            seed,
            score: c.solved.score,
            rank: c.score.rank().to_string(),
            proven: c.solved.proven,
            upper_bound: c.solved.upper_bound,
            perfect_bound: c.solved.perfect_bound,
            positions: c.solved.positions,
            seconds: (c.seconds * 1000.0).round() / 1000.0,
        };
        if let Some(f) = file.as_mut() {
            writeln!(f, "{}", serde_json::to_string(&line)?)?;
            f.flush()?;
        }
        done.insert(seed, line);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let lines: Vec<&SeedLine> = done.range(from..=to).map(|(_, l)| l).collect();
    let summary = Summary::of(&lines);
    if a.json {
        say!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        for l in summary.text(from, to) {
            say!("{l}");
        }
    }
    Ok(())
}

/// The summary of a batch.
#[derive(Debug, Serialize)]
pub struct Summary {
    /// Seeds counted.
    pub seeds: usize,
    /// Seeds whose score is proven the maximum.
    pub proven: usize,
    /// Seeds per best score.
    pub histogram: BTreeMap<u32, usize>,
    /// Share of seeds per rank.
    pub ranks: BTreeMap<String, f64>,
    /// Share of seeds winnable (Expert or better), by the best score found.
    pub winnable: f64,
    /// Mean gap between the perfect-score bound and the best score.
    pub mean_perfect_gap: f64,
    /// Seeds not proven (time limit reached): seed, best score found, upper bound.
    pub unproven: Vec<(u64, u32, u32)>,
    /// Median solve time, seconds.
    pub median_seconds: f64,
    /// 99th percentile of the solve time, seconds.
    pub p99_seconds: f64,
    /// Seeds solved (and proven) within one second.
    pub proven_within_1s: usize,
    /// Longest solve time, seconds.
    pub max_seconds: f64,
}

const RANKS: [&str; 5] = ["Novice", "Apprentice", "Journeyman", "Expert", "Master"];

impl Summary {
    fn of(lines: &[&SeedLine]) -> Summary {
        let n = lines.len().max(1) as f64;
        let mut histogram = BTreeMap::new();
        let mut ranks: BTreeMap<String, f64> = RANKS.iter().map(|r| (r.to_string(), 0.0)).collect();
        for l in lines {
            *histogram.entry(l.score).or_insert(0) += 1;
            *ranks.entry(l.rank.clone()).or_insert(0.0) += 1.0 / n;
        }
        let mut times: Vec<f64> = lines.iter().map(|l| l.seconds).collect();
        times.sort_by(f64::total_cmp);
        let median_seconds = if times.is_empty() { 0.0 } else { times[times.len() / 2] };
        let p99_seconds = if times.is_empty() {
            0.0
        } else {
            times[((times.len() as f64 * 0.99).ceil() as usize).clamp(1, times.len()) - 1]
        };
        Summary {
            seeds: lines.len(),
            proven: lines.iter().filter(|l| l.proven).count(),
            histogram,
            winnable: lines.iter().filter(|l| l.score >= 30).count() as f64 / n,
            ranks,
            mean_perfect_gap: lines.iter().map(|l| f64::from(l.perfect_bound - l.score)).sum::<f64>() / n,
            unproven: lines.iter().filter(|l| !l.proven).map(|l| (l.seed, l.score, l.upper_bound)).collect(),
            median_seconds,
            p99_seconds,
            proven_within_1s: lines.iter().filter(|l| l.proven && l.seconds <= 1.0).count(),
            max_seconds: times.last().copied().unwrap_or(0.0),
        }
    }

    fn text(&self, from: u64, to: u64) -> Vec<String> {
        let mut out = vec![format!(
            "Seeds {from} to {to}: {} solved, {} proven optimal{}",
            self.seeds,
            self.proven,
            if self.proven < self.seeds { " (the rest: best found, with an upper bound)" } else { "" }
        )];
        out.push("Best score  seeds".into());
        let most = self.histogram.values().copied().max().unwrap_or(1).max(1);
        for (score, count) in &self.histogram {
            out.push(format!("{score:>10}  {count:>5}  {}", "#".repeat((count * 40).div_ceil(most))));
        }
        out.push("Rank        share".into());
        for r in RANKS {
            out.push(format!("{r:<10}  {:>5.1}%", 100.0 * self.ranks.get(r).copied().unwrap_or(0.0)));
        }
        out.push(format!("Winnable (Expert or better): {:.1}%", 100.0 * self.winnable));
        out.push(format!("Mean gap to the perfect-score bound: {:.2}", self.mean_perfect_gap));
        out.push(format!(
            "Solve time: median {:.2} s, 99th percentile {:.2} s, maximum {:.2} s; {} seeds proven within 1 s",
            self.median_seconds, self.p99_seconds, self.max_seconds, self.proven_within_1s
        ));
        if !self.unproven.is_empty() {
            let list: Vec<String> = self
                .unproven
                .iter()
                .map(|(seed, score, upper)| format!("seed {seed}: {score} (at most {upper})"))
                .collect();
            out.push(format!("Not proven within the time limit: {}", list.join(", ")));
        }
        out
    }
}
