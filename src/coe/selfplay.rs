//! `signalbox coe selfplay`: plays a range of seeds by a policy that sees only what a player
//! sees (docs/rules/cubes-of-europe.md), one JSON line each, and summarises: the score histogram, the share of each
//! rank, the win rate, the mean score with its 95% interval, and beside a `coe batch` file the
//! mean gap to the hindsight maximum.
//!
//! Like a batch file, a selfplay file (`--out`) is data to check, not to trust. Its first line
//! holds the settings every game was played under (policy, horizon, content, rule options); a
//! run with other settings is refused, naming both. Every seed line carries the moves played,
//! and reading the file replays each one: its score and rank must be what the rules engine
//! recomputes, or the line is named and refused. A torn last line (a run killed mid-write) is
//! dropped with a warning and its seed played again. The file is locked while a run writes it.
//!
//! Seeds are played on several threads at once, but the lines are written in seed order, so the
//! file is the same on any number of threads, and a run stopped and resumed writes the same file
//! as one run.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use signalbox_engine::coe::catalogue::{HOUSE_SET_LABEL, HOUSE_SET_TOML};
use signalbox_engine::coe::{Catalogue, Game, Instance, Move, Record, Rules, rank_of};
use signalbox_solver::coe::fair::{self, Estimate, Policy};

use super::batch::{self, RANKS, SeedLine, WINNING_SCORE};
use crate::input::{bad, text_or_embedded};
use crate::jsonl::{self, Format, Header, RunSettings};
use crate::shard::{Shard, ShardFile, Tag};

/// How each turn is chosen (docs/rules/cubes-of-europe.md). Every policy sees only what a player sees: the board,
/// the cubes, the workers, the cards face up and this turn's roll; never the deck below its top
/// card, the dice to come or the reshuffle order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum PolicyArg {
    /// The best expected score, exact once at most 2 turns are left (expectimax over every roll
    /// and card to come), before that by the playout evaluation. The slowest: a fraction of a
    /// second a game.
    Fair,
    /// The playout evaluation's best choice every turn (the last turn: the most points).
    Playout,
    /// The most points if the game ended after the turn.
    Greedy,
    /// A uniformly random legal move at every step (drawn from a generator seeded by the seed).
    Random,
}

impl PolicyArg {
    fn policy(self) -> Policy {
        match self {
            PolicyArg::Fair => Policy::Fair,
            PolicyArg::Playout => Policy::Playout,
            PolicyArg::Greedy => Policy::Greedy,
            PolicyArg::Random => Policy::Random,
        }
    }
}

/// Arguments of `coe selfplay`.
#[derive(clap::Args, Debug)]
pub struct SelfplayArgs {
    /// The seeds, `A..B` (both included), e.g. `1..100`. Each seed fixes a game: the board card,
    /// the deck, the reshuffle and every die; the policy sees of it only what a player sees.
    #[arg(long, value_name = "A..B")]
    seeds: String,
    /// How each turn is chosen.
    #[arg(long, value_enum, default_value_t = PolicyArg::Fair)]
    policy: PolicyArg,
    /// Append one JSON line per seed here (`{"seed", "policy", "score", "rank", "moves"}`, in
    /// seed order); seeds already in the file are replayed, checked and not played again, so an
    /// interrupted run resumes. The file's first line records the settings; a run with other
    /// settings is refused.
    #[arg(long, value_name = "FILE.jsonl")]
    out: Option<PathBuf>,
    /// Play only part K of N of the seeds: those whose position in the range (counting from 0)
    /// leaves K-1 when divided by N. The N shards' files, joined by `signalbox merge`, make the
    /// file one run writes. Needs --out.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse, requires = "out")]
    shard: Option<Shard>,
    /// A `coe batch --out` file of the same games (same content and --max-turns): the summary
    /// adds the mean hindsight maximum (the proven best score, knowing the future) and the mean
    /// gap between it and the policy's score, over the seeds the file has proven. Its lines are
    /// replayed and checked.
    #[arg(long, value_name = "BATCH.jsonl")]
    hindsight: Option<PathBuf>,
    /// Games played at once (default: one per core). The lines and the summary do not depend on
    /// it; only the time does.
    #[arg(long, value_name = "T", allow_negative_numbers = true, value_parser = crate::flags::threads)]
    threads: Option<usize>,
    /// Start no game after S seconds: the games played so far are written and summarised, and a
    /// rerun with the same --out goes on from there.
    #[arg(long, value_name = "S", allow_negative_numbers = true, value_parser = crate::flags::seconds)]
    time_limit: Option<std::time::Duration>,
    /// End each game after K turns (a shortened game, for quick trials); default: whole games.
    #[arg(long, value_name = "K")]
    max_turns: Option<usize>,
    /// Content file (TOML, docs/formats/coe-content.md); default: the embedded house set.
    #[arg(long, value_name = "FILE")]
    content: Option<PathBuf>,
    /// Print the summary as one JSON object.
    #[arg(long)]
    json: bool,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

/// The selfplay file format.
const FORMAT: u32 = 1;

/// The first line of a selfplay file: what every game in it was played under.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The selfplay file format (1).
    pub format: u32,
    /// The policy that chose the moves.
    pub policy: Policy,
    /// How many turns from the end the fair policy computes exactly.
    pub horizon: usize,
    /// The content's label (the house set, or the file passed with `--content`).
    pub content: String,
    /// A fingerprint of the content's text (as `coe batch` takes it).
    pub content_fingerprint: String,
    /// The top of the workers track.
    pub max_workers: u8,
    /// The shortened game's last turn, if any.
    pub max_turns: Option<usize>,
    /// The playout evaluation's weights (`fair::WEIGHTS`, docs/rules/cubes-of-europe.md), which the fair and
    /// playout policies choose by: a file played under other weights is another policy.
    pub weights: String,
}

/// The playout evaluation's weights as the settings line records them.
fn weights() -> String {
    let w = fair::WEIGHTS;
    format!(
        "territory {} held {} worker {} frontier {} placeable {} colour {}",
        w.territory, w.held, w.worker, w.frontier, w.placeable, w.colour
    )
}

/// The command's name in shard tags and messages.
pub const COMMAND: &str = "coe selfplay";

/// Two runs agree when the policy, its horizon, the content's text (not its label) and the rule
/// options agree.
impl PartialEq for Settings {
    fn eq(&self, other: &Settings) -> bool {
        (
            self.format,
            self.policy,
            self.horizon,
            &self.content_fingerprint,
            self.max_workers,
            self.max_turns,
            &self.weights,
        ) == (
            other.format,
            other.policy,
            other.horizon,
            &other.content_fingerprint,
            other.max_workers,
            other.max_turns,
            &other.weights,
        )
    }
}

fn turns(t: Option<usize>) -> String {
    t.map_or_else(|| "whole games".to_string(), |k| format!("--max-turns {k}"))
}

fn policy_name(p: Policy) -> String {
    serde_json::to_value(p).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_else(|| format!("{p:?}"))
}

impl Settings {
    /// The rule options the games were played under.
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
        let mut out = Vec::new();
        if self.format != run.format {
            out.push(format!("format: the file has {}, this run {}", self.format, run.format));
        }
        if self.weights != run.weights {
            out.push(format!("playout weights: the file has {}, this run {}", self.weights, run.weights));
        }
        if self.policy != run.policy {
            out.push(format!(
                "--policy: the file has {}, this run {}",
                policy_name(self.policy),
                policy_name(run.policy)
            ));
        }
        if self.horizon != run.horizon {
            out.push(format!(
                "horizon: the file has {}, this signalbox {} (a file of another version)",
                self.horizon, run.horizon
            ));
        }
        out.extend(jsonl::content_difference(self.content(), run.content()));
        if self.max_workers != run.max_workers {
            out.push(format!("--max-workers: the file has {}, this run {}", self.max_workers, run.max_workers));
        }
        if self.max_turns != run.max_turns {
            out.push(format!("turns: the file has {}, this run {}", turns(self.max_turns), turns(run.max_turns)));
        }
        out
    }
}

/// One game: a line of the output file.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameLine {
    /// The seed.
    pub seed: u64,
    /// The policy that played it.
    pub policy: Policy,
    /// The final score.
    pub score: u32,
    /// Its rank.
    pub rank: String,
    /// The moves played (reading the file replays them).
    pub moves: Vec<Move>,
}

impl GameLine {
    /// Checks a line read from a file: the policy is the file's, its moves replay to the end of
    /// the game and to its score, and the rank is the score's.
    fn check(&self, catalogue: &Catalogue, settings: &Settings) -> Result<(), String> {
        if self.policy != settings.policy {
            return Err(format!(
                "played by the {} policy, but the file's settings name {}",
                policy_name(self.policy),
                policy_name(settings.policy)
            ));
        }
        let record = Record::new(Instance::from_seed(self.seed), settings.rules(), self.moves.clone());
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
        Ok(())
    }
}

/// How a selfplay file reads: its lines are replayed under `catalogue`.
struct Lines<'c> {
    catalogue: &'c Catalogue,
}

impl Format for Lines<'_> {
    type Settings = Settings;
    type Line = GameLine;
    const COMMAND: &'static str = COMMAND;
    const DOES: &'static str = "played";

    /// A `coe batch` file's settings line is told apart.
    fn foreign(line: &serde_json::Value) -> Option<String> {
        line.pointer("/settings/time_limit").is_some().then(|| {
            "the settings line of a `coe batch` file (solved games), not of a `coe selfplay` file; give another --out"
                .to_string()
        })
    }

    fn line(&self, text: &str, settings: &Settings) -> Result<(u64, GameLine), String> {
        let line: GameLine = serde_json::from_str(text).map_err(|e| format!("not a selfplay line: {e}"))?;
        line.check(self.catalogue, settings).map_err(|m| format!("seed {}: {m}", line.seed))?;
        Ok((line.seed, line))
    }
}

/// Reads a `coe batch` file for `--hindsight`: its lines replayed and checked by the batch
/// reader, its settings (content, rule options) those of this run.
fn read_hindsight(path: &Path, catalogue: &Catalogue, run: &Settings) -> anyhow::Result<BTreeMap<u64, SeedLine>> {
    let name = path.display();
    if std::fs::metadata(path).is_ok_and(|meta| !meta.is_file()) {
        return Err(bad(format!("{name}: not a regular file; --hindsight needs a `coe batch --out` file")));
    }
    let file = File::open(path).map_err(|e| {
        bad(format!(
            "{name}: cannot read: {}",
            match e.kind() {
                std::io::ErrorKind::NotFound => "no such file".to_string(),
                _ => e.to_string(),
            }
        ))
    })?;
    let scan = batch::scan(&file, catalogue, |found| {
        let mut differ = Vec::new();
        differ.extend(jsonl::content_difference(found.content(), run.content()));
        if found.max_workers != run.max_workers {
            differ.push(format!("--max-workers: the file has {}, this run {}", found.max_workers, run.max_workers));
        }
        if found.max_turns != run.max_turns {
            differ.push(format!("turns: the file has {}, this run {}", turns(found.max_turns), turns(run.max_turns)));
        }
        if differ.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "solved under other settings than this run's ({}): its maxima are not of these games; give a \
                 `coe batch` file of the same settings",
                differ.join("; ")
            ))
        }
    })
    .map_err(|m| {
        if m.starts_with("line 1:") && is_selfplay_file(path) {
            bad(format!(
                "{name}: a `coe selfplay` file (a policy's games), not a `coe batch` file; --hindsight needs the \
                 maxima a `coe batch --out` file holds"
            ))
        } else {
            bad(format!("{name}: {m}"))
        }
    })?;
    if scan.settings.is_none() {
        return Err(bad(format!(
            "{name}: an empty file: no settings line; --hindsight needs a `coe batch --out` file"
        )));
    }
    if let Some((number, _)) = scan.torn {
        eprintln!("warning: {name}: line {number} is incomplete (a batch stopped while writing it): left out");
    }
    Ok(scan.lines)
}

/// Whether the file's first line is the settings line of a selfplay file.
fn is_selfplay_file(path: &Path) -> bool {
    let Ok(file) = File::open(path) else { return false };
    let mut first = Vec::new();
    if BufReader::new(file).take(jsonl::MAX_LINE as u64).read_until(b'\n', &mut first).is_err() {
        return false;
    }
    serde_json::from_slice::<Header<Settings>>(&first).is_ok()
}

/// Plays one seed by `policy` and replays the moves in the engine (the certificate check): a
/// line the engine refuses, that stops before the end, or scores otherwise is an internal error.
fn play_seed(catalogue: &Catalogue, rules: Rules, policy: Policy, seed: u64) -> anyhow::Result<(GameLine, f64)> {
    let instance = Instance::from_seed(seed);
    let game = Game::new(catalogue, &instance, rules);
    let start = Instant::now();
    let (moves, end) = fair::play_out(&game, policy, fair::HORIZON, seed);
    let seconds = start.elapsed().as_secs_f64();
    let record = Record::new(instance.clone(), rules, moves.clone());
    let (replayed, score) = record
        .replay(catalogue, "the policy's line")
        .map_err(|e| anyhow::anyhow!("internal error: seed {seed}: the policy's moves do not replay: {e}"))?;
    if !end.is_over() || !replayed.is_over() || score.total() != end.score().total() {
        anyhow::bail!(
            "internal error: seed {seed}: the policy stopped after {} moves (game over: {}), score {} (replayed: {})",
            moves.len(),
            end.is_over(),
            end.score().total(),
            score.total()
        );
    }
    let line = GameLine { seed, policy, score: score.total(), rank: rank_of(score.total()).to_string(), moves };
    Ok((line, seconds))
}

/// Plays the seeds of `part` of `from..=to` not in `skip` on `threads` threads, and hands each
/// game to `each` in seed order (whatever order they finish in), with the seconds it took. At
/// `deadline` no game starts and no more are handed on: games still being played are left (not
/// written, so a rerun plays them), and their threads end with the process.
fn play_in_order(
    catalogue: &Catalogue,
    (rules, policy): (Rules, Policy),
    (from, to, part): (u64, u64, Shard),
    skip: &BTreeMap<u64, GameLine>,
    threads: usize,
    deadline: Option<Instant>,
    mut each: impl FnMut(GameLine, f64) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    use std::sync::Arc;
    let last = to - from;
    let next = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let catalogue = Arc::new(catalogue.clone());
    let skipped: Arc<std::collections::BTreeSet<u64>> = Arc::new(skip.keys().copied().collect());
    let (tx, rx) = mpsc::channel::<(u64, anyhow::Result<(GameLine, f64)>)>();
    for _ in 0..threads.max(1) {
        let tx = tx.clone();
        let (next, stop, catalogue, skipped) = (next.clone(), stop.clone(), catalogue.clone(), skipped.clone());
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) && deadline.is_none_or(|d| Instant::now() < d) {
                let offset = next.fetch_add(1, Ordering::Relaxed);
                if offset > last {
                    break;
                }
                let seed = from + offset;
                if skipped.contains(&seed) || !part.takes(offset) {
                    continue;
                }
                if tx.send((offset, play_seed(&catalogue, rules, policy, seed))).is_err() {
                    break;
                }
            }
        });
    }
    drop(tx);
    let mut pending = BTreeMap::new();
    let mut want: u64 = 0;
    let mut outcome = Ok(());
    'receive: loop {
        let received = match deadline {
            None => rx.recv().ok(),
            Some(d) => rx.recv_timeout(d.saturating_duration_since(Instant::now())).ok(),
        };
        let Some((offset, result)) = received else { break };
        pending.insert(offset, result);
        while want <= last {
            if skip.contains_key(&(from + want)) || !part.takes(want) {
                want += 1;
                continue;
            }
            let Some(result) = pending.remove(&want) else { break };
            if let Err(e) = result.and_then(|(line, seconds)| each(line, seconds)) {
                outcome = Err(e);
                break 'receive;
            }
            want += 1;
        }
    }
    stop.store(true, Ordering::Relaxed);
    outcome
}

/// Runs `coe selfplay`.
pub fn run(a: SelfplayArgs) -> anyhow::Result<()> {
    let (from, to) = batch::parse_range(&a.seeds)?;
    let (label, content_text) = text_or_embedded(a.content.as_deref(), HOUSE_SET_LABEL, HOUSE_SET_TOML)?;
    let catalogue = Catalogue::from_toml(&label, &content_text).map_err(|e| bad(e.to_string()))?;
    let rules = Rules { max_turns: a.max_turns, ..Rules::default() };
    let policy = a.policy.policy();
    let settings = Settings {
        format: FORMAT,
        policy,
        horizon: fair::HORIZON,
        content: catalogue.label(),
        content_fingerprint: batch::Settings::fingerprint(&content_text),
        max_workers: rules.max_workers,
        max_turns: rules.max_turns,
        weights: weights(),
    };
    let hindsight = match &a.hindsight {
        Some(path) => Some((path.display().to_string(), read_hindsight(path, &catalogue, &settings)?)),
        None => None,
    };
    let part = a.shard.unwrap_or(Shard::WHOLE);
    let tag = Tag::of(COMMAND, a.shard, Tag::seed_work(from, to));
    let (mut out, done) = match &a.out {
        Some(path) => {
            let (file, done) = jsonl::open_out(&Lines { catalogue: &catalogue }, path, &settings, tag.as_ref())?;
            (Some(file), done)
        }
        None => (None, BTreeMap::new()),
    };
    let in_range = part.seeds(from, to).filter(|s| done.contains_key(s)).count() as u64;
    let total = part.seeds(from, to).count() as u64;
    if in_range > 0 {
        eprintln!("{in_range} seeds already in the output file: replayed, checked, skipped");
    }
    let threads =
        a.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get));
    let bar = crate::flags::progress(total - in_range, "games", a.quiet || a.json);
    let started = Instant::now();
    let mut played: BTreeMap<u64, GameLine> = BTreeMap::new();
    let mut game_seconds = 0.0;
    let deadline = a.time_limit.map(|t| started + t);
    let result =
        play_in_order(&catalogue, (rules, policy), (from, to, part), &done, threads, deadline, |line, seconds| {
            if let Some(f) = out.as_mut() {
                writeln!(f, "{}", serde_json::to_string(&line)?)?;
                f.flush()?;
            }
            bar.set_message(format!("· seed {} scored {}", line.seed, line.score));
            bar.inc(1);
            game_seconds += seconds;
            played.insert(line.seed, line);
            Ok(())
        });
    bar.finish_and_clear();
    result?;
    let wall_seconds = started.elapsed().as_secs_f64();
    let mut lines: Vec<&GameLine> = part.seeds(from, to).filter_map(|s| done.get(&s)).collect();
    lines.extend(played.values());
    lines.sort_by_key(|l| l.seed);
    let timing = Timing { played: played.len(), game_seconds, wall_seconds, threads };
    let mut summary = Summary::of(from, to, policy, &lines, hindsight.as_ref(), &timing)?;
    summary.shard = a.shard;
    let missing = total.saturating_sub(lines.len() as u64);
    let stopped = (missing > 0).then(|| {
        format!(
            "stopped by --time-limit: {missing} of {total} seeds not played (the summary is of the {} played); rerun with the same --out to go on",
            lines.len()
        )
    });
    if a.json {
        let mut v = serde_json::to_value(&summary)?;
        v["stopped"] = serde_json::json!(stopped);
        say!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        for l in summary.text() {
            say!("{l}");
        }
        if let Some(note) = &stopped {
            say!("{note}");
        }
    }
    Ok(())
}

/// Joins the files of the shards of one `coe selfplay --seeds A..B` into the file `coe selfplay
/// --seeds A..B --out OUT` writes (the settings line, then a line per seed in seed order), after
/// checking each shard's settings against the first's and that each holds exactly its part,
/// every line replayed and checked. `content_text` is the content the shards name.
pub fn merge(
    shards: &[ShardFile],
    out: &Path,
    force: bool,
    json: bool,
    catalogue: &Catalogue,
    content_text: &str,
) -> anyhow::Result<()> {
    let fingerprint = batch::Settings::fingerprint(content_text);
    let merged = jsonl::merge(&Lines { catalogue }, shards, out, force, (&catalogue.label(), &fingerprint))?;
    let all: Vec<&GameLine> = merged.lines.values().collect();
    let timing = Timing { played: 0, game_seconds: 0.0, wall_seconds: 0.0, threads: 0 };
    let summary = Summary::of(merged.from, merged.to, merged.settings.policy, &all, None, &timing)?;
    if json {
        let mut v = serde_json::to_value(&summary)?;
        v["stopped"] = serde_json::Value::Null;
        say!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        for l in summary.results() {
            say!("{l}");
        }
    }
    Ok(())
}

/// How long the games of this run took.
struct Timing {
    played: usize,
    game_seconds: f64,
    wall_seconds: f64,
    threads: usize,
}

/// The policy's scores beside the hindsight maxima of a `coe batch` file.
#[derive(Debug, Serialize)]
pub struct Hindsight {
    /// The batch file.
    pub file: String,
    /// Seeds of the run whose maximum the file proves.
    pub seeds: usize,
    /// The mean hindsight maximum over those seeds.
    pub mean_maximum: f64,
    /// The policy's mean score over those seeds.
    pub mean_score: f64,
    /// The mean gap (hindsight maximum minus the policy's score) over those seeds.
    pub mean_gap: f64,
    /// Seeds of the run the file has a line for, but not proven (best found within its time
    /// limit): left out.
    pub unproven: Vec<u64>,
    /// Seeds of the run the file has no line for.
    pub missing: u64,
}

/// The summary of a selfplay run.
#[derive(Debug, Serialize)]
pub struct Summary {
    /// The first seed.
    pub from: u64,
    /// The last seed.
    pub to: u64,
    /// The policy.
    pub policy: Policy,
    /// The part of the seeds played, with `--shard`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// Games counted (played now or read from the output file).
    pub seeds: usize,
    /// Games per final score.
    pub histogram: BTreeMap<u32, usize>,
    /// Share of games per rank.
    pub ranks: BTreeMap<String, f64>,
    /// Share of games won (Expert or better: a score of 30 or more).
    pub win_rate: f64,
    /// The mean score.
    pub mean_score: f64,
    /// Half the width of the mean's 95% interval (1.96 standard deviations over √n).
    pub mean_half_width: f64,
    /// The gap to the hindsight maximum, with `--hindsight`.
    pub hindsight: Option<Hindsight>,
    /// Games played by this run (the rest were read from the output file).
    pub played: usize,
    /// Mean seconds per game played by this run (each game's own time; `None` if none played).
    pub seconds_per_game: Option<f64>,
    /// This run's wall time, seconds.
    pub wall_seconds: f64,
    /// Games played at once.
    pub threads: usize,
}

impl Summary {
    fn of(
        from: u64,
        to: u64,
        policy: Policy,
        lines: &[&GameLine],
        hindsight: Option<&(String, BTreeMap<u64, SeedLine>)>,
        timing: &Timing,
    ) -> anyhow::Result<Summary> {
        let n = lines.len().max(1) as f64;
        let (histogram, ranks) = batch::tally(lines.iter().map(|l| (l.score, l.rank.as_str())));
        let scores: Vec<f64> = lines.iter().map(|l| f64::from(l.score)).collect();
        let estimate = Estimate::of(&scores);
        let hindsight = match hindsight {
            Some((file, maxima)) => Some(Summary::hindsight(file, maxima, lines)?),
            None => None,
        };
        Ok(Summary {
            from,
            to,
            policy,
            shard: None,
            seeds: lines.len(),
            histogram,
            ranks,
            win_rate: lines.iter().filter(|l| l.score >= WINNING_SCORE).count() as f64 / n,
            mean_score: estimate.mean,
            mean_half_width: estimate.half_width,
            hindsight,
            played: timing.played,
            seconds_per_game: (timing.played > 0).then(|| timing.game_seconds / timing.played as f64),
            wall_seconds: timing.wall_seconds,
            threads: timing.threads,
        })
    }

    /// The gaps to the file's proven maxima. A policy scoring above a proven maximum shows the
    /// file's claim false: bad input.
    fn hindsight(file: &str, maxima: &BTreeMap<u64, SeedLine>, lines: &[&GameLine]) -> anyhow::Result<Hindsight> {
        let mut covered = 0usize;
        let (mut maximum_sum, mut score_sum) = (0.0, 0.0);
        let mut unproven = Vec::new();
        let mut missing = 0u64;
        for l in lines {
            match maxima.get(&l.seed) {
                Some(m) if m.proven => {
                    if l.score > m.score {
                        return Err(bad(format!(
                            "{file}: seed {}: claims the proven maximum {}, but the policy's game (replayed) scores {}",
                            l.seed, m.score, l.score
                        )));
                    }
                    covered += 1;
                    maximum_sum += f64::from(m.score);
                    score_sum += f64::from(l.score);
                }
                Some(_) => unproven.push(l.seed),
                None => missing += 1,
            }
        }
        let c = covered.max(1) as f64;
        Ok(Hindsight {
            file: file.to_string(),
            seeds: covered,
            mean_maximum: maximum_sum / c,
            mean_score: score_sum / c,
            mean_gap: (maximum_sum - score_sum) / c,
            unproven,
            missing,
        })
    }

    /// The summary in words, and the line of the time this run took.
    fn text(&self) -> Vec<String> {
        let mut out = self.results();
        out.push(self.time());
        out
    }

    /// The summary in words, without the time.
    fn results(&self) -> Vec<String> {
        let part = self.shard.map(|k| format!(", shard {k}")).unwrap_or_default();
        let mut out = vec![format!(
            "Seeds {} to {}{part}: {} games played by the {} policy (it sees only what a player sees)",
            self.from,
            self.to,
            self.seeds,
            policy_name(self.policy)
        )];
        out.push("Score  games".into());
        let most = self.histogram.values().copied().max().unwrap_or(1).max(1);
        for (score, count) in &self.histogram {
            out.push(format!("{score:>5}  {count:>5}  {}", "#".repeat((count * 40).div_ceil(most))));
        }
        out.push("Rank        share".into());
        for r in RANKS {
            out.push(format!("{r:<10}  {:>5.1}%", 100.0 * self.ranks.get(r).copied().unwrap_or(0.0)));
        }
        out.push(format!("Win rate (Expert or better, {WINNING_SCORE} or more): {:.1}%", 100.0 * self.win_rate));
        out.push(format!("Mean score: {:.2} ± {:.2} (95% interval)", self.mean_score, self.mean_half_width));
        if let Some(h) = &self.hindsight {
            if h.seeds == 0 {
                out.push(format!("Hindsight ({}): no proven maximum for these seeds", h.file));
            } else {
                out.push(format!(
                    "Hindsight maximum ({}): mean {:.2} over {} seeds; the policy's mean there {:.2}; mean gap {:.2}",
                    h.file, h.mean_maximum, h.seeds, h.mean_score, h.mean_gap
                ));
            }
            if !h.unproven.is_empty() {
                let list: Vec<String> = h.unproven.iter().map(u64::to_string).collect();
                out.push(format!("  left out, not proven in the file: seeds {}", list.join(", ")));
            }
            if h.missing > 0 {
                out.push(format!("  left out, not in the file: {} seeds", h.missing));
            }
        }
        out
    }

    /// The time this run took, in words.
    fn time(&self) -> String {
        match self.seconds_per_game {
            Some(s) => format!(
                "Time: {s:.3} s per game ({} game{} played in {:.2} s on {} thread{})",
                self.played,
                if self.played == 1 { "" } else { "s" },
                self.wall_seconds,
                self.threads,
                if self.threads == 1 { "" } else { "s" }
            ),
            None => "Time: no game played (every seed was already in the output file)".into(),
        }
    }
}
