//! `railways odds --shard K/N --out FILE`: a shard's games, one JSON line each, and `signalbox
//! merge` of the shards into the file `railways odds --games G --out FILE` writes.
//!
//! A shard's file (docs/formats/railways-position.md, "Odds files") starts with the settings
//! every game was played under (the position, by its label and a fingerprint of its canonical
//! JSON; the content's fingerprint; the seats; the seed; the games of the whole run) with the
//! shard's tag, and then holds one line per game of its part: the game's index, its winners, its
//! turns and whether it ended. The merge counts the outcomes of games `0..G` in order with the
//! count the unsharded run uses ([`tally`]), so its file is the run's, apart from `seconds`.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use signalbox_engine::railways::colour::Colour;
use signalbox_engine::railways::game::Game;
use signalbox_solver::railways::odds::{Outcome, TURN_LIMIT, tally};

use crate::input::{bad, check_new, read_text, write_new};
use crate::shard::{Shard, ShardFile, Tag, part_problems};

/// The command's name in shard tags and messages.
pub const COMMAND: &str = "railways odds";

/// The shard file format.
const FORMAT: u32 = 1;

/// The first line's settings: what every game of the run is played from.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The shard file format (1).
    pub format: u32,
    /// The position's label (its file, or the embedded sample).
    pub position: String,
    /// A fingerprint of the position's canonical JSON (FNV-1a, 64 bits, hexadecimal): the same
    /// position written another way has the same fingerprint.
    pub position_fingerprint: String,
    /// The content's label.
    pub content: String,
    /// A fingerprint of the content's text.
    pub content_fingerprint: String,
    /// The players in seat order (the order of the chances).
    pub seats: Vec<Colour>,
    /// The seed of game 0's dice; game `i` rolls from `seed + i`.
    pub seed: u64,
    /// The games of the whole run, `0..games`.
    pub games: usize,
    /// The turns after which a game is given up.
    pub turn_limit: u32,
}

impl Settings {
    /// The settings of a run of `games` games from `game`.
    pub fn of(label: &str, game: &Game, (content, content_text): (&str, &str), seed: u64, games: usize) -> Settings {
        let canonical = serde_json::to_string(&game.to_setup()).unwrap_or_default();
        Settings {
            format: FORMAT,
            position: label.to_string(),
            position_fingerprint: crate::coe::batch::Settings::fingerprint(&canonical),
            content: content.to_string(),
            content_fingerprint: crate::coe::batch::Settings::fingerprint(content_text),
            seats: game.players().iter().map(|p| p.colour).collect(),
            seed,
            games,
            turn_limit: TURN_LIMIT,
        }
    }

    /// The work the shards split, as their tags name it.
    pub fn work(&self) -> String {
        format!(
            "games 0..{} from seed {} of position {}",
            self.games.saturating_sub(1),
            self.seed,
            self.position_fingerprint
        )
    }

    /// What differs between two shards' settings (labels aside), for messages.
    fn differences(&self, other: &Settings) -> Vec<String> {
        let mut out = Vec::new();
        if self.format != other.format {
            out.push(format!("format {} and {}", self.format, other.format));
        }
        if self.position_fingerprint != other.position_fingerprint {
            out.push(format!(
                "position {} (fingerprint {}) and {} (fingerprint {})",
                self.position, self.position_fingerprint, other.position, other.position_fingerprint
            ));
        }
        if self.content_fingerprint != other.content_fingerprint {
            out.push(format!(
                "content {} (fingerprint {}) and {} (fingerprint {})",
                self.content, self.content_fingerprint, other.content, other.content_fingerprint
            ));
        }
        if self.seats != other.seats {
            out.push(format!("seats {:?} and {:?}", self.seats, other.seats));
        }
        if self.seed != other.seed {
            out.push(format!("--seed {} and {}", self.seed, other.seed));
        }
        if self.games != other.games {
            out.push(format!("--games {} and {}", self.games, other.games));
        }
        if self.turn_limit != other.turn_limit {
            out.push(format!("turn limit {} and {}", self.turn_limit, other.turn_limit));
        }
        out
    }
}

/// The first line of a shard's file.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    settings: Settings,
    shard: Tag,
    /// The seconds the shard's games took.
    seconds: f64,
}

/// One game: a line of a shard's file.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct GameLine {
    /// The game's index, from 0 (its dice from `seed + game`).
    game: u64,
    winners: Vec<Colour>,
    turns: u32,
    finished: bool,
}

/// Writes a shard's file: the settings line with the tag of `part`, then a line per game of
/// `indices` with its outcome.
pub fn write(
    path: &Path,
    force: bool,
    settings: &Settings,
    part: Shard,
    seconds: f64,
    played: (&[u64], &[Outcome]),
) -> anyhow::Result<()> {
    let tag = Tag { command: COMMAND.to_string(), part, work: settings.work() };
    let header = Header { settings: settings.clone(), shard: tag, seconds };
    let mut text = serde_json::to_string(&header)? + "\n";
    for (&game, o) in played.0.iter().zip(played.1) {
        let line = GameLine { game, winners: o.winners.clone(), turns: o.turns, finished: o.finished };
        text += &serde_json::to_string(&line)?;
        text.push('\n');
    }
    write_new(path, &text, force)
}

/// A shard's file, read and checked line by line: its header and its games' outcomes by index.
fn read(shard: &ShardFile) -> anyhow::Result<(Header, BTreeMap<u64, Outcome>)> {
    let name = shard.name();
    let text = read_text(&shard.path)?;
    let mut lines = text.lines().enumerate();
    let header: Header = match lines.next() {
        Some((_, l)) => serde_json::from_str(l)
            .map_err(|e| bad(format!("{name}: line 1: not the settings line of a `railways odds` shard: {e}")))?,
        None => return Err(bad(format!("{name}: empty"))),
    };
    if header.settings.format != FORMAT {
        return Err(bad(format!(
            "{name}: line 1: shard file format {}: this signalbox reads format {FORMAT}",
            header.settings.format
        )));
    }
    if header.shard.work != header.settings.work() {
        return Err(bad(format!(
            "{name}: line 1: the tag's work {:?} is not its settings' ({:?})",
            header.shard.work,
            header.settings.work()
        )));
    }
    let mut outcomes = BTreeMap::new();
    let mut first_line: BTreeMap<u64, usize> = BTreeMap::new();
    for (i, l) in lines {
        let number = i + 1;
        let at = |m: String| bad(format!("{name}: line {number}: {m}"));
        let line: GameLine = serde_json::from_str(l).map_err(|e| at(format!("not a game line: {e}")))?;
        if let Some(earlier) = first_line.insert(line.game, number) {
            return Err(at(format!("game {} is also on line {earlier}", line.game)));
        }
        if let Some(c) = line.winners.iter().find(|c| !header.settings.seats.contains(c)) {
            return Err(at(format!("game {}: winner {c} does not play", line.game)));
        }
        if line.winners.iter().enumerate().any(|(k, c)| line.winners[..k].contains(c)) {
            return Err(at(format!("game {}: a winner named twice", line.game)));
        }
        if !line.finished && !line.winners.is_empty() {
            return Err(at(format!("game {}: not finished, yet it has winners", line.game)));
        }
        if line.turns > header.settings.turn_limit {
            return Err(at(format!("game {}: {} turns, beyond the turn limit", line.game, line.turns)));
        }
        outcomes.insert(line.game, Outcome { winners: line.winners, turns: line.turns, finished: line.finished });
    }
    Ok((header, outcomes))
}

/// Joins the files of the shards of one `railways odds --games G --shard K/N` into the file
/// `railways odds --games G --out OUT` writes: the odds counted from every game's outcome in
/// game order, by the count the unsharded run uses; `seconds` is the shards' sum. Refuses
/// shards of other settings (position, content, seats, seed, games) and shards that lack games
/// of their part or hold others, each named.
pub fn merge(shards: &[ShardFile], out: &Path, force: bool, json: bool) -> anyhow::Result<()> {
    check_new(out, force)?;
    let mut first: Option<(String, Settings)> = None;
    let mut outcomes: BTreeMap<u64, Outcome> = BTreeMap::new();
    let mut seconds = 0.0;
    let mut problems = Vec::new();
    for shard in shards {
        let (header, found) = read(shard)?;
        if header.shard != shard.tag {
            return Err(bad(format!("{}: its first line changed while it was read", shard.name())));
        }
        if let Some((other, settings)) = &first {
            let differ = settings.differences(&header.settings);
            if !differ.is_empty() {
                return Err(bad(format!(
                    "{} and {other} are shards of other runs ({}): give the shards of one run",
                    shard.name(),
                    differ.join("; ")
                )));
            }
        }
        let games = header.settings.games as u64;
        let part = shard.tag.part;
        let lacks: Vec<u64> = (0..games).filter(|&i| part.takes(i) && !found.contains_key(&i)).collect();
        let extra: Vec<u64> = found.keys().copied().filter(|&i| i >= games || !part.takes(i)).collect();
        // A shard's file is written whole when its games are done: rerun, it does not resume.
        problems.extend(
            part_problems(shard, "games", &lacks, &extra)
                .map(|m| m.replace("rerun its command (it resumes)", "run it again with --force")),
        );
        seconds += header.seconds;
        first.get_or_insert((shard.name(), header.settings));
        outcomes.extend(found);
    }
    if !problems.is_empty() {
        return Err(bad(problems.join("\n")));
    }
    let (_, settings) = first.expect("at least one shard");
    let all: Vec<Outcome> = outcomes.into_values().collect();
    let result = tally(&settings.seats, &all);
    let value = super::odds_json(&settings.position, &result, settings.seed);
    let mut kept = value.clone();
    kept["seconds"] = serde_json::json!(seconds);
    write_new(out, &(serde_json::to_string_pretty(&kept)? + "\n"), force)?;
    eprintln!("wrote {}: {} games from {} shards", out.display(), result.games, shards.len());
    if json {
        say!("{}", serde_json::to_string_pretty(&value)?);
    } else {
        say!("Railways Express · {} · {} shards merged", settings.position, shards.len());
        super::say_chances(&result, &super::seed_words(settings.seed, result.games), seconds);
    }
    Ok(())
}
