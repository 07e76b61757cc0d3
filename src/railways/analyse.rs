//! `signalbox railways analyse`: the review of a played game, turn by turn.

use std::path::PathBuf;

use signalbox_engine::railways::record::{SAMPLE_GAME_JSON, SAMPLE_GAME_LABEL, read};
use signalbox_render::railways::review::turning_boards;
use signalbox_solver::railways::analysis::{AnalysisOptions, DEFAULT_GAMES, analyse};

use crate::analysis::AnalyseFlags;
use crate::input::{bad, text_or_embedded};

/// The arguments of `railways analyse`.
#[derive(clap::Args, Debug)]
pub struct AnalyseArgs {
    /// A game record (JSON, docs/formats/railways-position.md, Record); default: the embedded
    /// sample game.
    record: Option<PathBuf>,
    /// Content file (TOML, docs/formats/railways-content.md); default: the embedded house map.
    #[arg(long, value_name = "FILE")]
    content: Option<PathBuf>,
    /// Games played out after each turn for the win chances (0: none).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_GAMES)]
    games: usize,
    /// The seed of the first of each turn's win-chance games (game i from SEED + i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    flags: AnalyseFlags,
}

/// Runs `railways analyse`.
pub fn run(a: AnalyseArgs) -> anyhow::Result<()> {
    a.flags.check_outputs()?;
    let (_, content) = super::load_content(a.content.as_deref())?;
    let (label, text) = text_or_embedded(a.record.as_deref(), SAMPLE_GAME_LABEL, SAMPLE_GAME_JSON)?;
    let (record, _) = read(content.clone(), &label, &text).map_err(|e| bad(e.to_string()))?;
    let options =
        AnalysisOptions { games: a.games, seed: a.seed, time_limit: a.flags.time_limit, reuse: true, from_turn: 0 };
    let bar = crate::flags::progress(record.turns.len() as u64, "turns", a.flags.quiet || a.flags.json);
    let title = format!("Railways Express · {label}");
    let analysis = signalbox_solver::threads::install(a.flags.threads, || {
        analyse(content, &record, title, options, &|| bar.inc(1))
    })
    .map_err(|e| bad(format!("{label}: {e}")))?;
    bar.finish_and_clear();
    let boards = turning_boards(&analysis);
    a.flags.finish(&analysis.review, &boards)
}
