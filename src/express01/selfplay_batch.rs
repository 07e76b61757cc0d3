//! `signalbox express01 selfplay --seeds A..B`: a game per seed played by a built-in policy, one
//! JSON line each (`--out`), and a summary: each seat's wins and mean capital, the games' length.
//!
//! The file (docs/formats/express01-record.md, "Self-play files") is data to check, not to
//! trust: its first line holds the settings every game was played under (policy, players, map,
//! length, cards shown, content); a run with other settings is refused, naming the differences.
//! Every line holds the game's record, and reading the file replays each with every rule
//! checked: its result, its ending and its rounds must be what the replay gives, or the line is
//! named and refused. A torn last line is dropped with a warning and its seed played again; the
//! file is locked while a run writes it. With `--shard K/N` a run plays part of the seeds, and
//! `signalbox merge` joins the parts into the file one run writes.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write as _;
use std::path::Path;

use serde::{Deserialize, Serialize};
use signalbox_engine::express01::catalogue::Catalogue;
use signalbox_engine::express01::position::Position;
use signalbox_engine::express01::record::{self, Record, ResultRecord, StartSetup};
use signalbox_engine::express01::round::Length;
use signalbox_solver::express01::selfplay::{BestRoute, Ending, MAX_ROUNDS, Policy, selfplay};

use crate::input::bad;
use crate::jsonl::{self, Format, RunSettings};
use crate::shard::{Shard, ShardFile, Tag};

/// The command's name in shard tags and messages.
pub const COMMAND: &str = "express01 selfplay";

/// The file format.
const FORMAT: u32 = 1;

/// The first line of a self-play file: what every game in it was played under.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The file format (1).
    pub format: u32,
    /// The policy of every seat (`random`, `greedy`).
    pub policy: String,
    /// The players' names in seat order.
    pub players: Vec<String>,
    /// The map id.
    pub map: String,
    /// Short or long.
    pub length: Length,
    /// The cards shown for the turn order, if given (`--shown`).
    pub shown: Option<Vec<u16>>,
    /// The content's label.
    pub content: String,
    /// A fingerprint of the content's text (FNV-1a, 64 bits, hexadecimal).
    pub content_fingerprint: String,
    /// The round after which a game is stopped unfinished.
    pub max_rounds: u32,
}

impl Settings {
    /// The new game of `seed` under these settings.
    fn start(&self, seed: u64) -> StartSetup {
        StartSetup {
            map: self.map.clone(),
            seed,
            players: self.players.clone(),
            length: self.length,
            options: None,
            shown: self.shown.clone(),
        }
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

    /// What differs between `self` (the file's) and `run`'s settings, for messages.
    fn differences(&self, run: &Settings) -> Vec<String> {
        let mut out = Vec::new();
        let mut differ = |what: &str, file: String, this: String| {
            if file != this {
                out.push(format!("{what}: the file has {file}, this run {this}"));
            }
        };
        differ("format", self.format.to_string(), run.format.to_string());
        differ("--policy", self.policy.clone(), run.policy.clone());
        differ("players", self.players.join(","), run.players.join(","));
        differ("--map", self.map.clone(), run.map.clone());
        differ("length", self.length.name().to_string(), run.length.name().to_string());
        differ("--shown", format!("{:?}", self.shown), format!("{:?}", run.shown));
        differ("round limit", self.max_rounds.to_string(), run.max_rounds.to_string());
        out.extend(jsonl::content_difference(self.content(), run.content()));
        out
    }
}

/// Two runs agree when everything but the content's label agrees.
impl PartialEq for Settings {
    fn eq(&self, other: &Settings) -> bool {
        self.differences(other).is_empty()
    }
}

/// One game: a line of the file.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameLine {
    /// The seed.
    pub seed: u64,
    /// The policy that played it.
    pub policy: String,
    /// `over` (ended by the rules) or `round-limit` (stopped unfinished).
    pub ending: String,
    /// Each player's capital and the winners, when the game is over.
    pub result: Option<ResultRecord>,
    /// The rounds played (the round the game ended in).
    pub rounds: u32,
    /// The game's record (docs/formats/express01-record.md): reading the file replays it.
    pub record: Record,
}

fn ending_name(e: Ending) -> &'static str {
    match e {
        Ending::Over => "over",
        Ending::RoundLimit => "round-limit",
    }
}

/// How a self-play file reads: its lines are replayed under `catalogue`.
struct Lines<'c> {
    catalogue: &'c Catalogue,
}

impl Format for Lines<'_> {
    type Settings = Settings;
    type Line = GameLine;
    const COMMAND: &'static str = COMMAND;
    const DOES: &'static str = "played";

    fn line(&self, text: &str, settings: &Settings) -> Result<(u64, GameLine), String> {
        let line: GameLine = serde_json::from_str(text).map_err(|e| format!("not a self-play line: {e}"))?;
        line.check(self.catalogue, settings).map_err(|m| format!("seed {}: {m}", line.seed))?;
        Ok((line.seed, line))
    }
}

impl GameLine {
    /// Checks a line read from a file: its policy and start are the file's, and its record
    /// replays with every rule checked to its ending, its result and its rounds.
    fn check(&self, catalogue: &Catalogue, settings: &Settings) -> Result<(), String> {
        if self.policy != settings.policy {
            return Err(format!(
                "played by the {} policy, but the file's settings name {}",
                self.policy, settings.policy
            ));
        }
        if self.record.start.as_ref() != Some(&settings.start(self.seed)) {
            return Err("its record does not start from the seed's new game under the file's settings".to_string());
        }
        let replayed = record::replay("the line's record", &self.record, catalogue, &BestRoute, &mut |_, _| {})
            .map_err(|e| format!("its record does not replay: {e}"))?;
        let game = &replayed.game;
        let over = game.is_over();
        match (self.ending.as_str(), over) {
            ("over", true) | ("round-limit", false) => {}
            ("over" | "round-limit", _) => {
                return Err(format!(
                    "ending {:?}, but its record {}",
                    self.ending,
                    if over { "ends the game" } else { "stops before the game ends" }
                ));
            }
            (other, _) => return Err(format!("ending {other:?}: expected \"over\" or \"round-limit\"")),
        }
        if !over && game.round() < settings.max_rounds {
            return Err(format!(
                "its record stops in round {}, before the round limit {}",
                game.round(),
                settings.max_rounds
            ));
        }
        let result = over.then(|| record::result_of(game));
        if self.result != result {
            return Err(format!("its result {:?} is not its record's, {:?}", self.result, result));
        }
        if self.rounds != game.round() {
            return Err(format!("rounds {}: its record ends in round {}", self.rounds, game.round()));
        }
        Ok(())
    }
}

/// Plays seed `seed` under `settings` and replays its record (the certificate check).
fn play(catalogue: &Catalogue, settings: &Settings, policy: Policy, seed: u64) -> anyhow::Result<GameLine> {
    let played = selfplay(catalogue, &settings.start(seed), policy, settings.max_rounds)
        .map_err(|e| bad(format!("--map/--names/--shown: {e}")))?;
    let line = GameLine {
        seed,
        policy: settings.policy.clone(),
        ending: ending_name(played.ending).to_string(),
        result: played.game.is_over().then(|| record::result_of(&played.game)),
        rounds: played.game.round(),
        record: played.record,
    };
    line.check(catalogue, settings).map_err(|m| anyhow::anyhow!("internal error: seed {seed}: {m}"))?;
    Ok(line)
}

/// The settings of a run.
pub fn settings(start: &StartSetup, policy: Policy, content: (&str, &str)) -> Settings {
    Settings {
        format: FORMAT,
        policy: policy.name().to_string(),
        players: start.players.clone(),
        map: start.map.clone(),
        length: start.length,
        shown: start.shown.clone(),
        content: content.0.to_string(),
        content_fingerprint: crate::coe::batch::Settings::fingerprint(content.1),
        max_rounds: MAX_ROUNDS,
    }
}

/// Runs `express01 selfplay --seeds A..B`: plays the seeds (of `shard`, if given) not already in
/// `out`, appends their lines, and prints the summary.
pub fn run(
    (from, to): (u64, u64),
    start: &StartSetup,
    policy: Policy,
    (catalogue, content_text): (&Catalogue, &str),
    out: Option<&Path>,
    shard: Option<Shard>,
    json: bool,
) -> anyhow::Result<()> {
    let settings = settings(start, policy, (&catalogue.label(), content_text));
    // A start the rules refuse is refused before the file is touched.
    let setup = settings.start(from).position(catalogue).map_err(|e| bad(format!("--map/--names/--shown: {e}")))?;
    Position::from_setup(setup, catalogue).map_err(|e| {
        bad(format!(
            "--map/--names/--shown: {}",
            e.problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
        ))
    })?;
    let part = shard.unwrap_or(Shard::WHOLE);
    let tag = Tag::of(COMMAND, shard, Tag::seed_work(from, to));
    let format = Lines { catalogue };
    let (mut file, mut done): (Option<File>, BTreeMap<u64, GameLine>) = match out {
        Some(path) => {
            let (file, done) = jsonl::open_out(&format, path, &settings, tag.as_ref())?;
            (Some(file), done)
        }
        None => (None, BTreeMap::new()),
    };
    let mine: Vec<u64> = part.seeds(from, to).collect();
    let todo: Vec<u64> = mine.iter().copied().filter(|s| !done.contains_key(s)).collect();
    if todo.len() != mine.len() {
        eprintln!("{} seeds already in the output file: replayed, checked, skipped", mine.len() - todo.len());
    }
    let bar = crate::flags::progress(todo.len() as u64, "games", json);
    for seed in todo {
        bar.set_message(format!("· seed {seed}"));
        let line = play(catalogue, &settings, policy, seed)?;
        if let Some(f) = file.as_mut() {
            writeln!(f, "{}", serde_json::to_string(&line)?)?;
            f.flush()?;
        }
        done.insert(seed, line);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let lines: Vec<&GameLine> = mine.iter().filter_map(|s| done.get(s)).collect();
    Summary::of((from, to), shard, &settings, &lines).print(json)
}

/// Joins the files of the shards of one `express01 selfplay --seeds A..B` into the file
/// `express01 selfplay --seeds A..B --out OUT` writes (the settings line, then a line per seed in
/// seed order), after checking each shard's settings against the first's and that each holds
/// exactly its part, every record replayed. `content_text` is the content the shards name.
pub fn merge(
    shards: &[ShardFile],
    out: &Path,
    force: bool,
    json: bool,
    catalogue: &Catalogue,
    content_text: &str,
) -> anyhow::Result<()> {
    let fingerprint = crate::coe::batch::Settings::fingerprint(content_text);
    let merged = jsonl::merge(&Lines { catalogue }, shards, out, force, (&catalogue.label(), &fingerprint))?;
    let all: Vec<&GameLine> = merged.lines.values().collect();
    Summary::of((merged.from, merged.to), None, &merged.settings, &all).print(json)
}

/// One seat over the games.
#[derive(Debug, Serialize)]
pub struct Seat {
    /// The player's name.
    pub player: String,
    /// Games won, a shared victory counting as a share.
    pub wins: f64,
    /// Wins over the games that ended.
    pub win_rate: f64,
    /// The mean final capital over the games that ended.
    pub mean_capital: f64,
}

/// The summary of a run.
#[derive(Debug, Serialize)]
pub struct Summary {
    /// The first seed.
    pub from: u64,
    /// The last seed.
    pub to: u64,
    /// The part of the seeds played, with `--shard`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// The policy.
    pub policy: String,
    /// Games counted.
    pub games: usize,
    /// Games that ended by the rules.
    pub over: usize,
    /// Games stopped at the round limit (nobody's win; left out of the capitals).
    pub round_limit: usize,
    /// Each seat, in seat order.
    pub seats: Vec<Seat>,
    /// The mean of the rounds the games took.
    pub mean_rounds: f64,
}

impl Summary {
    fn of((from, to): (u64, u64), shard: Option<Shard>, settings: &Settings, lines: &[&GameLine]) -> Summary {
        let ended: Vec<&ResultRecord> = lines.iter().filter_map(|l| l.result.as_ref()).collect();
        let n = ended.len().max(1) as f64;
        let seats = settings
            .players
            .iter()
            .map(|player| {
                // Summed from +0.0 in seed order: an empty sum of floats is -0.0.
                let wins = ended
                    .iter()
                    .filter(|r| r.winners.contains(player))
                    .fold(0.0, |sum, r| sum + 1.0 / r.winners.len() as f64);
                let capital: u64 = ended.iter().map(|r| u64::from(r.capitals.get(player).copied().unwrap_or(0))).sum();
                Seat { player: player.clone(), wins, win_rate: wins / n, mean_capital: capital as f64 / n }
            })
            .collect();
        let rounds: u64 = lines.iter().map(|l| u64::from(l.rounds)).sum();
        Summary {
            from,
            to,
            shard,
            policy: settings.policy.clone(),
            games: lines.len(),
            over: ended.len(),
            round_limit: lines.len() - ended.len(),
            seats,
            mean_rounds: rounds as f64 / lines.len().max(1) as f64,
        }
    }

    fn print(&self, json: bool) -> anyhow::Result<()> {
        if json {
            say!("{}", serde_json::to_string_pretty(self)?);
            return Ok(());
        }
        let part = self.shard.map(|k| format!(", shard {k}")).unwrap_or_default();
        say!(
            "Seeds {} to {}{part}: {} games of Express 01 played by the {} policy",
            self.from,
            self.to,
            self.games,
            self.policy
        );
        say!("Seat  player          wins   win rate  mean capital");
        for (i, s) in self.seats.iter().enumerate() {
            say!("{i:>4}  {:<12} {:>7.1}  {:>8.1}%  {:>12.2}", s.player, s.wins, 100.0 * s.win_rate, s.mean_capital);
        }
        say!("Games lasted {:.2} rounds on average.", self.mean_rounds);
        if self.round_limit > 0 {
            say!(
                "{} stopped at the round limit ({MAX_ROUNDS}) and count as nobody's win.",
                if self.round_limit == 1 { "1 game".to_string() } else { format!("{} games", self.round_limit) }
            );
        }
        Ok(())
    }
}
