//! `signalbox coe batch`: solve a range of seeds, one JSON line each, and summarise.
//!
//! A batch file (`--out`) is data to check, not to trust. Its first line holds the settings every
//! line was solved under (content, rule options, time limit); a run with other settings is
//! refused, naming both. Every seed line carries its line of moves, and reading the file replays
//! each one: the score, its rank and its bounds must be what the rules engine and the bound
//! recompute, or the line is named and refused. A torn last line (a batch killed mid-write) is
//! dropped with a warning and its seed solved again. The file is locked while a batch writes it,
//! so a second batch on the same file is refused.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use signalbox_engine::coe::{Catalogue, Instance, Move, Record, Rules, rank_of};
use signalbox_solver::coe::bound::upper_bound;
use signalbox_solver::coe::search::SolveOptions;

use super::solve::{SearchArgs, solve_checked};
use crate::input::bad;
use crate::jsonl::{self, Format, RunSettings};
use crate::shard::{Shard, ShardFile, Tag};

/// Arguments of `coe batch`.
#[derive(clap::Args, Debug)]
pub struct BatchArgs {
    /// The seeds, `A..B` (both included), e.g. `1..200`.
    #[arg(long, value_name = "A..B")]
    seeds: String,
    /// Append one JSON line per seed here; seeds already in the file are checked and not solved
    /// again. The file's first line records the settings; a run with other settings is refused.
    #[arg(long, value_name = "FILE.jsonl")]
    out: Option<PathBuf>,
    /// Solve only part K of N of the seeds: those whose position in the range (counting from 0)
    /// leaves K-1 when divided by N. The N shards' files, joined by `signalbox merge`, make the
    /// file one run writes. Needs --out.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse, requires = "out")]
    shard: Option<Shard>,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
}

/// The first line of a batch file: what every line in it was solved under.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The batch file format (1).
    pub format: u32,
    /// The content's label (the house set, or the file passed with `--content`).
    pub content: String,
    /// A fingerprint of the content's text (FNV-1a, 64 bits, hexadecimal).
    pub content_fingerprint: String,
    /// The top of the workers track.
    pub max_workers: u8,
    /// The shortened game's last turn, if any.
    pub max_turns: Option<usize>,
    /// The time limit per seed, seconds, if any.
    pub time_limit: Option<f64>,
}

/// The command's name in shard tags and messages.
pub const COMMAND: &str = "coe batch";

const FORMAT: u32 = 1;

impl Settings {
    fn new(content_label: &str, content_text: &str, rules: Rules, options: SolveOptions) -> Settings {
        Settings {
            format: FORMAT,
            content: content_label.to_string(),
            content_fingerprint: Settings::fingerprint(content_text),
            max_workers: rules.max_workers,
            max_turns: rules.max_turns,
            time_limit: options.time_limit.map(|t| t.as_secs_f64()),
        }
    }

    /// The fingerprint of a content file's text.
    pub fn fingerprint(content_text: &str) -> String {
        format!("{:016x}", fnv1a(content_text.as_bytes()))
    }

    /// The settings in words, for messages.
    pub fn describe(&self) -> String {
        format!(
            "content {}, --max-workers {}, {}, {}",
            self.content,
            self.max_workers,
            self.max_turns.map_or_else(|| "whole games".to_string(), |k| format!("--max-turns {k}")),
            self.time_limit.map_or_else(|| "no time limit".to_string(), |s| format!("--time-limit {s}"))
        )
    }

    /// The rule options the lines were solved under.
    pub fn rules(&self) -> Rules {
        Rules { max_workers: self.max_workers, max_turns: self.max_turns, ..Rules::default() }
    }
}

impl RunSettings for Settings {
    const FORMAT: u32 = FORMAT;

    fn format(&self) -> u32 {
        self.format
    }

    fn content(&self) -> (&str, &str) {
        (&self.content, &self.content_fingerprint)
    }

    /// What differs between the file's settings (`self`) and this run's, for messages.
    fn differences(&self, run: &Settings) -> Vec<String> {
        let turns = |t: Option<usize>| t.map_or_else(|| "whole games".to_string(), |k| format!("--max-turns {k}"));
        let limit = |t: Option<f64>| t.map_or_else(|| "no time limit".to_string(), |s| format!("--time-limit {s}"));
        let mut out = Vec::new();
        out.extend(jsonl::content_difference(self.content(), run.content()));
        if self.max_workers != run.max_workers {
            out.push(format!("--max-workers: the file has {}, this run {}", self.max_workers, run.max_workers));
        }
        if self.max_turns != run.max_turns {
            out.push(format!("turns: the file has {}, this run {}", turns(self.max_turns), turns(run.max_turns)));
        }
        if self.time_limit != run.time_limit {
            out.push(format!(
                "time limit: the file has {}, this run {}",
                limit(self.time_limit),
                limit(run.time_limit)
            ));
        }
        out
    }
}

/// Two runs agree when the content's text (not its label: a file may be named another way), the
/// rule options and the time limit agree.
impl PartialEq for Settings {
    fn eq(&self, other: &Settings) -> bool {
        (self.format, &self.content_fingerprint, self.max_workers, self.max_turns, self.time_limit)
            == (other.format, &other.content_fingerprint, other.max_workers, other.max_turns, other.time_limit)
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

/// One seed's result: a line of the output file.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
    /// The line that reaches the score (the certificate: reading the file replays it).
    pub moves: Vec<Move>,
}

impl SeedLine {
    /// Checks a line read from a file against the rules: its moves replay to its score, the rank
    /// is the score's, and its bounds are in order with the perfect-score bound recomputed.
    fn check(&self, catalogue: &Catalogue, rules: Rules) -> Result<(), String> {
        if !(self.seconds.is_finite() && self.seconds >= 0.0) {
            return Err(format!("seconds {}: expected zero or more", self.seconds));
        }
        let record = Record::new(Instance::from_seed(self.seed), rules, self.moves.clone());
        let (game, score) =
            record.replay(catalogue, "the line").map_err(|e| format!("its moves do not replay: {e}"))?;
        if !game.is_over() {
            return Err(format!("its moves stop before the game ends (after {} moves)", self.moves.len()));
        }
        if score.total() != self.score {
            return Err(format!("it claims score {} but its moves score {}", self.score, score.total()));
        }
        if rank_of(self.score) != self.rank {
            return Err(format!(
                "rank {:?} is not the rank of score {} ({})",
                self.rank,
                self.score,
                rank_of(self.score)
            ));
        }
        let perfect = upper_bound(&signalbox_engine::coe::Game::new(catalogue, &record.instance, rules));
        if self.perfect_bound != perfect {
            return Err(format!("perfect_bound {}: the seed's perfect-score bound is {perfect}", self.perfect_bound));
        }
        if self.upper_bound < self.score || self.upper_bound > self.perfect_bound.max(self.score) {
            return Err(format!(
                "upper_bound {}: expected from the score {} to the perfect-score bound {}",
                self.upper_bound, self.score, self.perfect_bound
            ));
        }
        if self.proven && self.upper_bound != self.score {
            return Err(format!("proven, yet its upper_bound {} is above its score {}", self.upper_bound, self.score));
        }
        Ok(())
    }
}

/// Parses `--seeds A..B` (both included, A <= B).
pub fn parse_range(text: &str) -> anyhow::Result<(u64, u64)> {
    let err = || bad(format!("--seeds: expected A..B with A <= B (e.g. 1..200), got `{text}`"));
    let (a, b) = text.split_once("..").ok_or_else(err)?;
    let a: u64 = a.trim().parse().map_err(|_| err())?;
    let b: u64 = b.trim().trim_start_matches('=').parse().map_err(|_| err())?;
    if a > b {
        return Err(err());
    }
    Ok((a, b))
}

/// How a batch file reads: its lines are replayed under `catalogue`.
pub struct Lines<'c> {
    /// The content the lines are replayed under.
    pub catalogue: &'c Catalogue,
}

impl Format for Lines<'_> {
    type Settings = Settings;
    type Line = SeedLine;
    const COMMAND: &'static str = COMMAND;
    const DOES: &'static str = "solved";

    fn line(&self, text: &str, settings: &Settings) -> Result<(u64, SeedLine), String> {
        let line: SeedLine = serde_json::from_str(text).map_err(|e| format!("not a batch result line: {e}"))?;
        line.check(self.catalogue, settings.rules()).map_err(|m| format!("seed {}: {m}", line.seed))?;
        Ok((line.seed, line))
    }
}

/// Reads a batch file: the settings line, accepted by `settings_ok`, then every seed line, each
/// checked against the rules the settings name (see [`SeedLine`]). A failure names the line.
pub fn scan<'c>(
    file: &File,
    catalogue: &'c Catalogue,
    settings_ok: impl Fn(&Settings) -> Result<(), String>,
) -> Result<jsonl::Scan<Lines<'c>>, String> {
    jsonl::scan(&Lines { catalogue }, file, settings_ok)
}

/// Runs `coe batch`.
pub fn run(a: BatchArgs, catalogue: &Catalogue, content_text: &str) -> anyhow::Result<()> {
    let (from, to) = parse_range(&a.seeds)?;
    let rules = a.search.rules()?;
    let options = a.search.options();
    let settings = Settings::new(&catalogue.label(), content_text, rules, options);
    let part = a.shard.unwrap_or(Shard::WHOLE);
    let tag = Tag::of(COMMAND, a.shard, Tag::seed_work(from, to));
    let (mut out, mut done) = match &a.out {
        Some(path) => {
            let (file, done) = jsonl::open_out(&Lines { catalogue }, path, &settings, tag.as_ref())?;
            (Some(file), done)
        }
        None => (None, BTreeMap::new()),
    };
    let mine: Vec<u64> = part.seeds(from, to).collect();
    let todo: Vec<u64> = mine.iter().copied().filter(|s| !done.contains_key(s)).collect();
    let bar = crate::flags::progress(todo.len() as u64, "seeds", false);
    if todo.len() != mine.len() {
        eprintln!("{} seeds already in the output file: checked, skipped", mine.len() - todo.len());
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
            moves: c.solved.line.clone(),
        };
        if let Some(f) = out.as_mut() {
            writeln!(f, "{}", serde_json::to_string(&line)?)?;
            f.flush()?;
        }
        done.insert(seed, line);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let lines: Vec<&SeedLine> = mine.iter().filter_map(|s| done.get(s)).collect();
    let what = match a.shard {
        Some(part) => format!("Seeds {from} to {to}, shard {part}"),
        None => format!("Seeds {from} to {to}"),
    };
    print_summary(&Summary::of(&lines), &what, a.json)
}

fn print_summary(summary: &Summary, what: &str, json: bool) -> anyhow::Result<()> {
    if json {
        say!("{}", serde_json::to_string_pretty(summary)?);
    } else {
        for l in summary.text(what) {
            say!("{l}");
        }
    }
    Ok(())
}

/// Joins the files of the shards of one `coe batch --seeds A..B` into the file `coe batch --seeds
/// A..B --out OUT` writes (the settings line, then a line per seed in seed order), after checking
/// each shard's settings against the first's and that each holds exactly its part, every line
/// replayed and checked. `content_text` is the content the shards name.
pub fn merge(
    shards: &[ShardFile],
    out: &Path,
    force: bool,
    json: bool,
    catalogue: &Catalogue,
    content_text: &str,
) -> anyhow::Result<()> {
    let fingerprint = Settings::fingerprint(content_text);
    let merged = jsonl::merge(&Lines { catalogue }, shards, out, force, (&catalogue.label(), &fingerprint))?;
    let all: Vec<&SeedLine> = merged.lines.values().collect();
    print_summary(&Summary::of(&all), &format!("Seeds {} to {}", merged.from, merged.to), json)
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

/// The ranks, lowest first (rulebook, the rank chart).
pub const RANKS: [&str; 5] = ["Novice", "Apprentice", "Journeyman", "Expert", "Master"];

/// The lowest score ranked Expert, which counts as a victory (rulebook, the rank chart).
pub const WINNING_SCORE: u32 = 30;

/// Games per score, and the share of games per rank (every rank listed, counted then divided so
/// that the shares add up to 1).
pub(crate) fn tally<'a>(
    games: impl ExactSizeIterator<Item = (u32, &'a str)>,
) -> (BTreeMap<u32, usize>, BTreeMap<String, f64>) {
    let n = games.len().max(1) as f64;
    let mut histogram = BTreeMap::new();
    let mut counts: BTreeMap<String, usize> = RANKS.iter().map(|r| (r.to_string(), 0)).collect();
    for (score, rank) in games {
        *histogram.entry(score).or_insert(0) += 1;
        *counts.entry(rank.to_string()).or_insert(0) += 1;
    }
    (histogram, counts.into_iter().map(|(rank, c)| (rank, c as f64 / n)).collect())
}

impl Summary {
    fn of(lines: &[&SeedLine]) -> Summary {
        let n = lines.len().max(1) as f64;
        let (histogram, ranks) = tally(lines.iter().map(|l| (l.score, l.rank.as_str())));
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
            winnable: lines.iter().filter(|l| l.score >= WINNING_SCORE).count() as f64 / n,
            ranks,
            mean_perfect_gap: lines.iter().map(|l| f64::from(l.perfect_bound - l.score)).sum::<f64>() / n,
            unproven: lines.iter().filter(|l| !l.proven).map(|l| (l.seed, l.score, l.upper_bound)).collect(),
            median_seconds,
            p99_seconds,
            proven_within_1s: lines.iter().filter(|l| l.proven && l.seconds <= 1.0).count(),
            max_seconds: times.last().copied().unwrap_or(0.0),
        }
    }

    fn text(&self, what: &str) -> Vec<String> {
        let mut out = vec![format!(
            "{what}: {} solved, {} proven optimal{}",
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
