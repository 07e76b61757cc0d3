//! The arguments that start a new game, shared by `express01 new`, `play` and `selfplay`.

use std::path::PathBuf;

use signalbox_engine::express01::position::OptionsSetup;
use signalbox_engine::express01::record::StartSetup;
use signalbox_engine::express01::round::Length;

use crate::input::bad;

/// The players' names when none are given.
const NAMES: [&str; 4] = ["Anna", "Ben", "Clara", "David"];

/// A new game: players, seed, map, length.
#[derive(clap::Args, Debug, Clone)]
pub struct StartArgs {
    /// Players, 2 to 4.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u8).range(2..=4))]
    pub players: u8,
    /// The players' names in seat order, separated by commas (default: Anna, Ben, Clara, David).
    #[arg(long, value_name = "A,B,..", value_delimiter = ',')]
    pub names: Vec<String>,
    /// The seed: it shuffles the decks, deals the hands and so sets the turn order
    /// (docs/rules/express-01.md).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// The map: germany or usa.
    #[arg(long, default_value = "germany")]
    pub map: String,
    /// The long game: it ends after the round in which 24 base cards are upgraded or 4 decks are
    /// used up (default: the short game, 12 or 3).
    #[arg(long)]
    pub long: bool,
    /// The card each player shows for the turn order, in seat order (each from their hand; the
    /// highest shown moves first). Default: each shows their highest card (docs/rules/express-01.md).
    #[arg(long, value_name = "C,C,..", value_delimiter = ',')]
    pub shown: Vec<u16>,
    /// Content file (TOML) with the maps and card faces; default: the embedded house set.
    #[arg(long, value_name = "FILE")]
    pub content: Option<PathBuf>,
}

impl StartArgs {
    /// The players' names: as given, or the default names.
    pub fn names(&self) -> anyhow::Result<Vec<String>> {
        if self.names.is_empty() {
            return Ok(NAMES[..usize::from(self.players)].iter().map(|s| s.to_string()).collect());
        }
        if self.names.len() != usize::from(self.players) {
            return Err(bad(format!("--names: {} names for --players {}", self.names.len(), self.players)));
        }
        Ok(self.names.iter().map(|n| n.trim().to_string()).collect())
    }

    /// The new game as a record's start.
    pub fn start(&self) -> anyhow::Result<StartSetup> {
        Ok(StartSetup {
            map: self.map.clone(),
            seed: self.seed,
            players: self.names()?,
            length: if self.long { Length::Long } else { Length::Short },
            options: None::<OptionsSetup>,
            shown: (!self.shown.is_empty()).then(|| self.shown.clone()),
        })
    }
}
