//! `signalbox coe new`: the start of a game as a record, dealt from a seed or entered from what
//! the table shows.

use std::path::PathBuf;

use signalbox_engine::coe::{Catalogue, Instance, Record, Rules};

use crate::input::{bad, check_new};

/// Arguments of `coe new`.
#[derive(clap::Args, Debug)]
pub struct NewArgs {
    /// Deal the game from a seed: it fixes the board card, every card to come and every roll.
    #[arg(long, conflicts_with = "board", required_unless_present = "board")]
    seed: Option<u64>,
    /// A game at the table: the card laid board side up (its number 1 to 9 or its name).
    #[arg(long, value_name = "CARD")]
    board: Option<String>,
    /// With --board: the cards turned up to form the market, as they came: the one that starts
    /// the market (the discard), then the deck's top (`2,8`, numbers or names).
    #[arg(long, value_name = "A,B", requires = "board")]
    market: Option<String>,
    /// End the game after K turns (a shortened game).
    #[arg(long, value_name = "K")]
    max_turns: Option<usize>,
    /// Write the record to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Replace the --out file if it exists.
    #[arg(long)]
    force: bool,
    /// Content file (TOML); default: the embedded house set.
    #[arg(long, value_name = "FILE")]
    pub content: Option<PathBuf>,
}

/// Runs `coe new`.
pub fn run(a: NewArgs, catalogue: &Catalogue) -> anyhow::Result<()> {
    if let Some(out) = &a.out {
        check_new(out, a.force)?;
    }
    let rules = Rules { max_turns: a.max_turns, ..Rules::default() };
    let instance = match (a.seed, &a.board) {
        (Some(seed), _) => Instance::from_seed(seed),
        (None, Some(board)) => {
            let board = super::play::card_id(catalogue, board).map_err(|m| bad(format!("--board: {m}")))?;
            let market = match &a.market {
                Some(text) => text
                    .split(',')
                    .map(|c| super::play::card_id(catalogue, c).map_err(|m| bad(format!("--market: {m}"))))
                    .collect::<anyhow::Result<Vec<u8>>>()?,
                None => Vec::new(),
            };
            if market.len() > 2 {
                return Err(bad("--market: two cards at most: the one that starts the market, then the deck's top"));
            }
            Instance::table(None, board, &market, &[], &[]).map_err(|m| bad(format!("--market: {m}")))?
        }
        (None, None) => return Err(bad("give --seed N, or --board CARD for a game at the table")),
    };
    let record = Record::new(instance, rules, Vec::new());
    record.replay(catalogue, "the new game").map_err(|e| bad(e.to_string()))?;
    let text = record.to_json_in_words();
    crate::table::write_new_game(a.out.as_deref(), &text)
}
