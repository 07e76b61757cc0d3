//! `signalbox coe standing`: where a seed's score stands.

use std::path::PathBuf;

use signalbox_solver::coe::standing::{HOUSE_TABLE, Table};

use crate::input::{bad, read_text};

/// Options of `coe standing`.
#[derive(clap::Args, Debug)]
pub struct StandingArgs {
    /// The seed the game was dealt from (`coe new --seed`, `coe play --seed`).
    #[arg(long)]
    seed: u64,
    /// The game's final score.
    #[arg(long)]
    score: u32,
    /// A table of seeds (docs/formats/coe-standing.md); default: the house set's seeds 1 to
    /// 10,000 of reports/cubes-of-europe-standings.csv, built in.
    #[arg(long, value_name = "FILE")]
    table: Option<PathBuf>,
    /// Print the answer as one JSON object.
    #[arg(long)]
    json: bool,
}

/// Runs `coe standing`.
pub fn run(a: StandingArgs) -> anyhow::Result<()> {
    let table = match &a.table {
        Some(path) => {
            let text = read_text(path)?;
            Table::parse(&text).map_err(|e| bad(format!("{}: {e}", path.display())))?
        }
        None => Table::parse(HOUSE_TABLE).map_err(|e| bad(format!("the built-in table: {e}")))?,
    };
    let standing = table.standing(a.seed, a.score).map_err(|e| bad(e.to_string()))?;
    if a.json {
        say!("{}", serde_json::to_string_pretty(&standing)?);
    } else {
        say!("{}", standing.to_string().trim_end());
    }
    Ok(())
}
