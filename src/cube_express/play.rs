//! `signalbox cube-express new` and `play`: the start of a game as a record (dealt from a seed or
//! entered from what the table shows), and a game entered turn by turn ([`super::table`]).

use std::path::PathBuf;

use signalbox_engine::cube_express::options::Options;
use signalbox_engine::cube_express::position::{Record, Seat, read_game_record};
use signalbox_engine::cube_express::table::TableStart;

use super::table::CubeTable;
use crate::input::{bad, check_new, read_text};

/// How a game starts: from a seed, or from what the table shows.
#[derive(clap::Args, Debug)]
pub struct StartArgs {
    /// Deal the game from a seed: it fixes the objective cards, the first player, the hands, the
    /// display and the order of the face-down stack.
    #[arg(long, conflicts_with_all = ["objectives", "first", "hands", "display"])]
    seed: Option<u64>,
    /// Players, 2 to 4.
    #[arg(long, value_name = "N", default_value_t = 3)]
    players: usize,
    /// At the table: the objective cards above the board, columns 0 to 3 (`3,7,9,12`).
    #[arg(long, value_name = "A,B,C,D")]
    objectives: Option<String>,
    /// At the table: who plays first (a colour, or a seat from 0).
    #[arg(long, value_name = "COLOUR")]
    first: Option<String>,
    /// At the table: each player's three tiles in seat order, players apart by `/` (`1,2,3/4,5,6`).
    #[arg(long, value_name = "A,B,C/D,E,F")]
    hands: Option<String>,
    /// At the table: the display's tiles, columns 0 to 3 (`10,11,12,13`).
    #[arg(long, value_name = "A,B,C,D")]
    display: Option<String>,
}

fn numbers(flag: &str, text: &str) -> anyhow::Result<Vec<u8>> {
    text.split(',')
        .map(|n| {
            n.trim()
                .parse::<u8>()
                .map_err(|_| bad(format!("{flag}: `{}` is not a number (give numbers apart by commas)", n.trim())))
        })
        .collect()
}

fn four(flag: &str, text: &str) -> anyhow::Result<[u8; 4]> {
    let v = numbers(flag, text)?;
    v.as_slice().try_into().map_err(|_| bad(format!("{flag}: four numbers, columns 0 to 3; found {}", v.len())))
}

impl StartArgs {
    /// The record of the game before its first turn.
    pub fn record(&self) -> anyhow::Result<Record> {
        if let Some(seed) = self.seed {
            return Ok(Record::new(self.players, seed, Options::default(), Vec::new()));
        }
        let missing: Vec<&str> = [
            ("--objectives", self.objectives.is_none()),
            ("--first", self.first.is_none()),
            ("--hands", self.hands.is_none()),
            ("--display", self.display.is_none()),
        ]
        .iter()
        .filter(|(_, m)| *m)
        .map(|(f, _)| *f)
        .collect();
        if !missing.is_empty() {
            return Err(bad(format!("give --seed N, or what the table shows: {} missing", missing.join(", "))));
        }
        let first = self.first.as_deref().unwrap_or_default().trim().to_lowercase();
        let first = match first.parse::<u8>() {
            Ok(n) => Seat::Number(n),
            Err(_) => serde_json::from_value(serde_json::Value::String(first.clone()))
                .map(Seat::Colour)
                .map_err(|_| bad(format!("--first: `{first}` is not a colour (red, blue, yellow, green) or a seat")))?,
        };
        let hands = self
            .hands
            .as_deref()
            .unwrap_or_default()
            .split('/')
            .map(|h| numbers("--hands", h))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let start = TableStart {
            first,
            objectives: four("--objectives", self.objectives.as_deref().unwrap_or_default())?,
            hands,
            display: four("--display", self.display.as_deref().unwrap_or_default())?,
            stack: None,
        };
        Ok(Record::table(self.players, start, Options::default()))
    }
}

/// Arguments of `cube-express new`.
#[derive(clap::Args, Debug)]
pub struct NewArgs {
    #[command(flatten)]
    start: StartArgs,
    /// Write the record to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Replace the --out file if it exists.
    #[arg(long)]
    force: bool,
    /// Content file (TOML); default: the embedded house set.
    #[arg(long, value_name = "FILE")]
    content: Option<PathBuf>,
}

/// Runs `cube-express new`.
pub fn new(a: NewArgs) -> anyhow::Result<()> {
    if let Some(out) = &a.out {
        check_new(out, a.force)?;
    }
    let content = super::load_content(a.content.as_deref())?;
    let record = a.start.record()?;
    record.replay(content, "the new game").map_err(|e| bad(e.to_string()))?;
    let text = serde_json::to_string_pretty(&record)? + "\n";
    crate::table::write_new_game(a.out.as_deref(), &text)
}

/// Arguments of `cube-express play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// Go on with this record (as `cube-express new` writes it or a session saves it); the session
    /// saves to it unless --record names another file.
    game: Option<PathBuf>,
    /// Play a game at the table: signalbox never shuffles; it asks for each tile turned up from
    /// the face-down stack as it comes. A new game at the table takes --objectives, --first,
    /// --hands and --display.
    #[arg(long)]
    table: bool,
    #[command(flatten)]
    start: StartArgs,
    /// Save the record here after every step.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Replace the record file if it exists.
    #[arg(long)]
    force: bool,
    /// Content file (TOML); default: the embedded house set.
    #[arg(long, value_name = "FILE")]
    content: Option<PathBuf>,
}

/// Runs `cube-express play`.
pub fn play(a: PlayArgs) -> anyhow::Result<()> {
    let content = super::load_content(a.content.as_deref())?;
    let (record, label, save) = match &a.game {
        Some(path) => {
            let label = path.display().to_string();
            let record = read_game_record(&label, &read_text(path)?).map_err(|e| bad(e.to_string()))?;
            let save = match &a.record {
                Some(out) => {
                    check_new(out, a.force)?;
                    out.clone()
                }
                None => path.clone(),
            };
            (record, label, save)
        }
        None => {
            if a.table && a.start.seed.is_some() {
                return Err(bad(
                    "--table: a game at the table has no seed: give what the table shows (--objectives, --first, --hands, --display)",
                ));
            }
            if !a.table && a.start.seed.is_none() {
                return Err(bad("give --seed N for a dealt game, or --table for a game at the table"));
            }
            let Some(out) = &a.record else {
                return Err(bad("give --record FILE: the record is saved there after every step"));
            };
            check_new(out, a.force)?;
            (a.start.record()?, "the new game".to_string(), out.clone())
        }
    };
    if a.table && record.seed.is_some() {
        return Err(bad(format!(
            "{label}: field `seed`: a dealt game holds the order of the face-down stack; play it without --table"
        )));
    }
    let mut table = CubeTable::new(content, record, &label).map_err(bad)?;
    crate::table::session(&mut table, Some(&save))
}
