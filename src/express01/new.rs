//! `signalbox express01 new`: the start position of a new game from a seed.

use std::path::PathBuf;

use anyhow::Context as _;
use signalbox_engine::express01::capital::capital;
use signalbox_engine::express01::catalogue::Catalogue;
use signalbox_engine::express01::position::{Position, PositionSetup};
use signalbox_engine::express01::setup::new_game;

use crate::input::{bad, check_new, write_new};

/// The players' names when none are given.
const NAMES: [&str; 4] = ["Anna", "Ben", "Clara", "David"];

/// What starts a new game: the players, the seed and the map (shared by `new` and `play`).
#[derive(clap::Args, Debug, Clone)]
pub struct StartArgs {
    /// Players, 2 to 4.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u8).range(2..=4))]
    players: u8,
    /// The players' names in seat order, separated by commas (default: Anna, Ben, Clara, David).
    #[arg(long, value_name = "A,B,..", value_delimiter = ',')]
    names: Vec<String>,
    /// The seed: it shuffles the decks, deals the hands and so sets the turn order
    /// (docs/rules/express-01.md, G1 and G2).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// The map: germany or usa.
    #[arg(long, default_value = "germany")]
    pub map: String,
}

impl StartArgs {
    /// The players' names: those given (as many as `--players`), or the default names.
    pub fn names(&self) -> anyhow::Result<Vec<String>> {
        if self.names.is_empty() {
            Ok(NAMES[..usize::from(self.players)].iter().map(|s| s.to_string()).collect())
        } else if self.names.len() != usize::from(self.players) {
            Err(bad(format!("--names: {} names for --players {}", self.names.len(), self.players)))
        } else {
            Ok(self.names.iter().map(|n| n.trim().to_string()).collect())
        }
    }

    /// The start position of the new game (rulebook, "Setup"; rulings G1 and G2).
    pub fn setup(&self, catalogue: &Catalogue) -> anyhow::Result<PositionSetup> {
        let names = self.names()?;
        new_game(catalogue, &self.map, &names, self.seed).map_err(|e| bad(format!("--map/--names: {e}")))
    }
}

/// Arguments of `express01 new`.
#[derive(clap::Args, Debug)]
pub struct NewArgs {
    #[command(flatten)]
    start: StartArgs,
    /// Content file (TOML) with the maps and card faces; default: the embedded house set.
    #[arg(long, value_name = "FILE")]
    content: Option<PathBuf>,
    /// Write the start position (JSON, docs/formats/express01-position.md) to this file.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Replace an existing --out file.
    #[arg(long)]
    force: bool,
    /// Print the start position as JSON instead of the summary.
    #[arg(long)]
    json: bool,
}

pub fn run(a: NewArgs) -> anyhow::Result<()> {
    if let Some(out) = &a.out {
        check_new(out, a.force)?;
    }
    let (_, catalogue) = super::load_content(a.content.as_deref())?;
    let setup = a.start.setup(&catalogue)?;
    let json = serde_json::to_string_pretty(&setup).context("the position as JSON")?;
    let position = Position::from_setup(setup.clone(), &catalogue)
        .map_err(|e| anyhow::anyhow!("the new game is not a legal position: {:?}", e.problems))?;
    if let Some(out) = &a.out {
        write_new(out, &(json.clone() + "\n"), a.force)?;
    }
    if a.json {
        say!("{json}");
        return Ok(());
    }
    say!("Express 01 on {} ({}), seed {}: a new game", position.map().name, catalogue.label(), a.start.seed);
    let mut seats: Vec<usize> = (0..position.players().len()).collect();
    seats.sort_by_key(|&s| position.players()[s].turn_order);
    for s in seats {
        let p = &position.players()[s];
        let hand: Vec<String> = p.hand.iter().map(|c| c.0.to_string()).collect();
        let engine = if position.black_engine() == Some(s) { ", the black engine" } else { "" };
        say!(
            "turn order {}: {} · hand {} · capital {}{engine}",
            p.turn_order,
            p.name,
            hand.join(" "),
            capital(&position, s, false).total()
        );
    }
    if let Some(decks) = &setup.decks {
        let sizes: Vec<String> = decks.iter().map(|(name, cards)| format!("{name} {}", cards.len())).collect();
        say!("decks: {}", sizes.join(", "));
    }
    if let Some(out) = &a.out {
        say!("wrote {}", out.display());
    }
    Ok(())
}
