//! `signalbox cube-express analyse`: the review of a played game, turn by turn.

use std::path::PathBuf;

use signalbox_engine::cube_express::position::{SAMPLE_GAME_JSON, read_game_record};
use signalbox_solver::cube_express::analysis::{AnalysisError, analyse as review_of};
use signalbox_solver::cube_express::plan::PlanOptions;

use crate::analysis::AnalyseFlags;
use crate::input::{bad, text_or_embedded};

/// The arguments of `cube-express analyse`.
#[derive(clap::Args, Debug)]
pub struct AnalyseArgs {
    /// The game record (JSON, docs/formats/cube-express-position.md, "Record"); default: the
    /// embedded sample game (3 players, seed 15, a deliberately imperfect player).
    record: Option<PathBuf>,
    #[command(flatten)]
    flags: AnalyseFlags,
    /// Content file (TOML, docs/formats/cube-express-content.md); default: the embedded house set.
    #[arg(long, value_name = "FILE")]
    content: Option<PathBuf>,
}

/// What the review does with the tiles nobody saw (docs/rules/cube-express.md), said in every review.
pub const UNSEEN: &str = "Tiles still face down: not used. No value needs the order of the stack, only how many \
     tiles it holds, so no expectation over unseen tiles is taken";

/// Runs `cube-express analyse`.
pub fn run(a: AnalyseArgs) -> anyhow::Result<()> {
    a.flags.check_outputs()?;
    let content = super::load_content(a.content.as_deref())?;
    let (label, text) = text_or_embedded(a.record.as_deref(), "the sample game", SAMPLE_GAME_JSON)?;
    let record = read_game_record(&label, &text).map_err(|e| bad(e.to_string()))?;
    // A game from the table is cut to what the table saw (docs/rules/cube-express.md): a stack order it may hold
    // is dropped, so what nobody saw cannot change the review.
    let record = match record.table {
        Some(_) => record.seen(content.clone(), &label).map_err(|e| bad(e.to_string()))?,
        None => record,
    };
    let options = PlanOptions { time_limit: a.flags.time_limit, threads: a.flags.threads, ..PlanOptions::default() };
    let bar = crate::flags::progress(record.turns.len() as u64, "turns", a.flags.quiet || a.flags.json);
    let title = match record.seed {
        Some(seed) => format!("Cube Express · {label} · {} players, seed {seed}", record.players),
        None => format!("Cube Express · {label} · {} players, a game from the table", record.players),
    };
    let analysis = review_of(content, &record, &label, &options, &|done| bar.set_position(done as u64));
    bar.finish_and_clear();
    let mut analysis = match analysis {
        Ok(a) => a,
        Err(AnalysisError::Record(e)) => return Err(bad(e.to_string())),
        Err(e) => return Err(e.into()),
    };
    analysis.review.title = title;
    analysis.review.facts.push(UNSEEN.to_string());
    let boards = signalbox_render::cube_express::review::turning_boards(&analysis);
    a.flags.finish(&analysis.review, &boards)
}
