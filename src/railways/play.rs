//! `signalbox railways new`, `play` and `selfplay`: a game's record started, played step by
//! step (at the table or from a seed), or played by the built-in player.

use std::path::PathBuf;

use serde_json::json;
use signalbox_engine::railways::colour::Colour;
use signalbox_engine::railways::options::Options;
use signalbox_engine::railways::record::{RecordSetup, replay_setup};
use signalbox_solver::railways::analysis::sample_game;

use super::table::{RailwaysTable, record_text};
use crate::input::{bad, check_new, read_text};

/// Who plays and with which options.
#[derive(clap::Args, Debug, Clone)]
pub struct Seats {
    /// The colours in turn order, comma-separated (2 to 4 of blue, yellow, red, purple); default
    /// all four in the rulebook's order: blue, yellow, red, purple.
    #[arg(long, value_name = "COLOURS")]
    players: Option<String>,
    /// Play with the optional Service Bounty cards (rulebook: Rules for Cards); a seed deals them.
    #[arg(long)]
    service_bounties: bool,
    /// Content file (TOML, docs/formats/railways-content.md); default: the embedded house map.
    #[arg(long, value_name = "FILE")]
    content: Option<PathBuf>,
}

impl Seats {
    fn colours(&self) -> anyhow::Result<Vec<Colour>> {
        match &self.players {
            None => Ok(vec![Colour::Blue, Colour::Yellow, Colour::Red, Colour::Purple]),
            Some(list) => list
                .split(',')
                .map(|c| c.trim().parse::<Colour>().map_err(|e| bad(format!("--players: {e}"))))
                .collect(),
        }
    }

    fn options(&self) -> Options {
        Options { service_bounties: self.service_bounties, ..Options::default() }
    }
}

/// Arguments of `railways new`.
#[derive(clap::Args, Debug)]
pub struct NewArgs {
    #[command(flatten)]
    seats: Seats,
    /// Deal the game from a seed (signalbox then rolls every die, and deals the Service Bounty
    /// cards); without it, a game at the table, where the players roll.
    #[arg(long)]
    seed: Option<u64>,
    /// Write the record to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Replace the --out file if it exists.
    #[arg(long)]
    force: bool,
}

/// Runs `railways new`.
pub fn run_new(a: NewArgs) -> anyhow::Result<()> {
    if let Some(out) = &a.out {
        check_new(out, a.force)?;
    }
    let (_, content) = super::load_content(a.seats.content.as_deref())?;
    let table = RailwaysTable::new(content, &a.seats.colours()?, a.seats.options(), a.seed).map_err(bad)?;
    let mut record = table.record().clone();
    // The record of a new game holds no move: a seeded game's first roll is made when it is played.
    record.turns.clear();
    let text = record_text(&record, a.seed.is_some());
    crate::table::write_new_game(a.out.as_deref(), &text)
}

/// Arguments of `railways play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// Go on with this record (as `railways new` writes it or a session saves it); the session
    /// saves to it unless --record names another file.
    game: Option<PathBuf>,
    #[command(flatten)]
    seats: Seats,
    /// Play a game at the table: signalbox never rolls; it asks for each roll as it is rolled
    /// and saves the record after every step.
    #[arg(long, conflicts_with = "seed")]
    table: bool,
    /// A new game whose dice signalbox rolls from this seed.
    #[arg(long)]
    seed: Option<u64>,
    /// Save the record here after every step (needed for a new game at the table).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Replace the --record file if it exists.
    #[arg(long)]
    force: bool,
}

/// Runs `railways play`.
pub fn run_play(a: PlayArgs) -> anyhow::Result<()> {
    let (_, content) = super::load_content(a.seats.content.as_deref())?;
    let (mut table, save) = match &a.game {
        Some(path) => {
            let label = path.display().to_string();
            let text = read_text(path)?;
            let (record, seeded) = parse_record(&label, &text)?;
            if a.seed.is_some() || a.seats.players.is_some() || a.seats.service_bounties {
                return Err(bad(format!(
                    "{label}: a record keeps its own seats, options and seed; give them with `railways new`"
                )));
            }
            let dice = match (a.table, seeded) {
                (true, _) => None,
                (false, true) => Some(record.seed),
                (false, false) => {
                    return Err(bad(format!(
                        "{label}: field `seed`: the record has no seed, so its dice are rolled at the table: add --table"
                    )));
                }
            };
            let table = RailwaysTable::resume(content, record, dice, &label).map_err(bad)?;
            match &a.record {
                Some(out) => {
                    check_new(out, a.force)?;
                    (table, Some(out.clone()))
                }
                None => (table, Some(path.clone())),
            }
        }
        None => {
            if !a.table && a.seed.is_none() {
                return Err(bad("give --table for a game at the table, or --seed N for dice signalbox rolls"));
            }
            if a.table && a.record.is_none() {
                return Err(bad("--table: give --record FILE: the record is saved there after every step"));
            }
            if let Some(out) = &a.record {
                check_new(out, a.force)?;
            }
            let table = RailwaysTable::new(content, &a.seats.colours()?, a.seats.options(), a.seed)
                .map_err(|m| bad(format!("--players: {m}")))?;
            (table, a.record.clone())
        }
    };
    crate::table::session(&mut table, save.as_deref())
}

/// Arguments of `railways selfplay`.
#[derive(clap::Args, Debug)]
pub struct SelfplayArgs {
    /// The colours in turn order, comma-separated; default blue, yellow, red, purple.
    #[arg(long, value_name = "COLOURS")]
    players: Option<String>,
    /// The seed of the dice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Content file (TOML, docs/formats/railways-content.md); default: the embedded house map.
    #[arg(long, value_name = "FILE")]
    content: Option<PathBuf>,
    /// Write the game's record to this file (refused if it exists, unless --force).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Replace the --out file if it exists.
    #[arg(long)]
    force: bool,
    /// Print JSON: `seed`, `seats`, `turns`, `winners`, and `record` when written.
    #[arg(long)]
    json: bool,
}

/// Runs `railways selfplay`.
pub fn run_selfplay(a: SelfplayArgs) -> anyhow::Result<()> {
    if let Some(out) = &a.out {
        check_new(out, a.force)?;
    }
    let seats = Seats { players: a.players.clone(), service_bounties: false, content: None }.colours()?;
    let (_, content) = super::load_content(a.content.as_deref())?;
    let record = sample_game(content.clone(), &seats, a.seed, 0.0).map_err(bad)?;
    let game = replay_setup(content, "the game played", &record).map_err(|e| bad(e.to_string()))?.game;
    let winners = game.winners();
    if let Some(out) = &a.out {
        crate::table::save_atomic(out, &record_text(&record, true))?;
    }
    if a.json {
        say!(
            "{}",
            serde_json::to_string_pretty(&json!({
                "seed": a.seed,
                "seats": seats,
                "turns": game.turns(),
                "over": game.is_over(),
                "winners": winners,
                "record": a.out.as_ref().map(|p| p.display().to_string()),
            }))?
        );
        return Ok(());
    }
    let names: Vec<&str> = winners.iter().map(|c| c.name()).collect();
    say!(
        "Railways Express · seed {} · every player following its minimum link plan, each roll at its best for it",
        a.seed
    );
    say!(
        "{} after {} turns: {}",
        if game.is_over() { "Game over" } else { "Stopped" },
        game.turns(),
        match names.as_slice() {
            [] => "no winner".to_string(),
            [w] => format!("{w} wins"),
            many => format!("{} share the victory", many.join(", ")),
        }
    );
    if let Some(out) = &a.out {
        say!("Record: {}", out.display());
    }
    Ok(())
}

/// A record read for play: the set-up and moves, and whether it names a seed (a game whose dice
/// signalbox rolls); bad JSON or fields exit 2 naming the file and field.
pub fn parse_record(label: &str, text: &str) -> anyhow::Result<(RecordSetup, bool)> {
    let record: RecordSetup = signalbox_engine::source::parse_json(label, text).map_err(|e| bad(e.to_string()))?;
    let seeded = serde_json::from_str::<serde_json::Value>(text).ok().is_some_and(|v| v.get("seed").is_some());
    Ok((record, seeded))
}
