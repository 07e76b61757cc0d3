//! `signalbox express01 analyse`: the review of a played game, turn by turn.

use std::path::PathBuf;

use signalbox_engine::express01::record::{self, SAMPLE_GAME_JSON};
use signalbox_solver::express01::analysis::{AnalysisError, AnalysisOptions, DEFAULT_STATES, analyse};

use super::load_content;
use crate::analysis::AnalyseFlags;
use crate::input::{bad, text_or_embedded};

/// The arguments of `express01 analyse`.
#[derive(clap::Args, Debug)]
pub struct AnalyseArgs {
    /// The game record (JSON, docs/formats/express01-record.md); default: the embedded sample
    /// game (3 players, Germany, seed 1, the greedy policy with every 4th turn random).
    record: Option<PathBuf>,
    #[command(flatten)]
    flags: AnalyseFlags,
    /// Stop each turn's search after this many states (the same cut on every machine, unlike
    /// --time-limit); 0: no cap.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_STATES)]
    states: u64,
    /// Content file (TOML, docs/formats/express01-content.md); default: the embedded house set.
    #[arg(long, value_name = "FILE")]
    content: Option<PathBuf>,
}

/// Runs `express01 analyse`.
pub fn run(a: AnalyseArgs) -> anyhow::Result<()> {
    a.flags.check_outputs()?;
    let (_, catalogue) = load_content(a.content.as_deref())?;
    let (label, text) = text_or_embedded(a.record.as_deref(), "the sample game", SAMPLE_GAME_JSON)?;
    other_game(&label, &text)?;
    let record = record::read(&label, &text).map_err(|e| bad(e.to_string()))?;
    let options = AnalysisOptions {
        states: (a.states > 0).then_some(a.states),
        time_limit: a.flags.time_limit,
        threads: a.flags.threads,
    };
    let bar = crate::flags::progress(record.turns.len() as u64, "turns", a.flags.quiet || a.flags.json);
    let analysis = analyse(&label, &record, &catalogue, &options, &|done| bar.set_position(done as u64));
    bar.finish_and_clear();
    let analysis = match analysis {
        Ok(a) => a,
        Err(AnalysisError::Record(e)) => return Err(bad(e.to_string())),
        Err(e) => return Err(e.into()),
    };
    let boards = signalbox_render::express01::review::turning_boards(&analysis);
    a.flags.finish(&analysis.review, &boards)
}

/// A JSON object that is not an Express 01 record is refused by name before its fields are read.
pub(crate) fn other_game(label: &str, text: &str) -> anyhow::Result<()> {
    let Ok(serde_json::Value::Object(v)) = serde_json::from_str::<serde_json::Value>(text) else { return Ok(()) };
    match v.get("game").and_then(|g| g.as_str()) {
        Some("express01") => Ok(()),
        Some(other) => Err(bad(format!(
            "{label}: a record of `{other}`, not of Express 01 (`\"game\": \"express01\"`; docs/formats/express01-record.md)"
        ))),
        None => Err(bad(format!(
            "{label}: not an Express 01 game record: no `\"game\": \"express01\"` (docs/formats/express01-record.md)"
        ))),
    }
}
