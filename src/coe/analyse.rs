//! `signalbox coe analyse`: the review of a played game, decision by decision (issue 15).

use std::path::PathBuf;

use signalbox_engine::coe::{Catalogue, Record};
use signalbox_solver::coe::analysis::{AnalyseOptions, analyse};
use signalbox_solver::coe::search::SolveOptions;

use crate::analysis::AnalyseFlags;
use crate::input::{bad, read_text};

/// The embedded sample game: seed 1 played by the sample player (`coe::analysis::sample_record`).
pub const SAMPLE: &str = include_str!("sample-game.json");

/// Arguments of `coe analyse`.
#[derive(clap::Args, Debug)]
pub struct AnalyseArgs {
    /// The game record (JSON, docs/formats/coe-records.md); default: the embedded sample game.
    record: Option<PathBuf>,
    #[command(flatten)]
    flags: AnalyseFlags,
    /// Content file (TOML); default: the embedded house set.
    #[arg(long, value_name = "FILE")]
    pub content: Option<PathBuf>,
    /// Playouts per estimated fair-play value (the second value of each decision, which does
    /// not know the future; docs/rules/cubes-of-europe.md). The last 2 turns are exact whatever N is.
    #[arg(long, value_name = "N", default_value_t = 32, value_parser = clap::value_parser!(u32).range(2..=100_000))]
    pub fair_samples: u32,
    /// Leave out the fair-play values (and the split into skill and luck).
    #[arg(long)]
    pub no_fair_play: bool,
}

/// Runs `coe analyse`.
pub fn run(a: AnalyseArgs) -> anyhow::Result<()> {
    a.flags.check_outputs()?;
    let catalogue: &Catalogue = &super::load_content(a.content.as_deref())?;
    let (label, text) = match &a.record {
        Some(path) => (path.display().to_string(), read_text(path)?),
        None => ("the sample game".to_owned(), SAMPLE.to_owned()),
    };
    let record = read_record(&label, &text)?;
    let bar = crate::flags::progress(record.moves.len() as u64, "decisions", a.flags.quiet || a.flags.json);
    let options = AnalyseOptions {
        solve: SolveOptions { time_limit: a.flags.time_limit, threads: a.flags.threads, ..SolveOptions::default() },
        reuse: true,
        fair_samples: (!a.no_fair_play).then_some(a.fair_samples as usize),
    };
    let analysed = analyse(catalogue, &record, &label, options, &|done| bar.set_position(done as u64));
    bar.finish_and_clear();
    let analysed = analysed.map_err(|e| bad(e.to_string()))?;
    let rules = record.rules.to_rules(&record.instance).map_err(bad)?;
    let boards = signalbox_render::coe::review::turning_boards(
        catalogue,
        &record.instance,
        rules,
        &record.moves,
        &analysed.review,
        &analysed.best,
    );
    a.flags.finish(&analysed.review, &boards)
}

/// Reads a record, telling a record of another game apart from a broken one.
pub(crate) fn read_record(label: &str, text: &str) -> anyhow::Result<Record> {
    if let Ok(serde_json::Value::Object(map)) = serde_json::from_str::<serde_json::Value>(text)
        && !map.contains_key("instance")
    {
        let fields: Vec<&str> = map.keys().map(String::as_str).take(6).collect();
        return Err(bad(format!(
            "{label}: not a Cubes of Europe game record: it has no field `instance` (its fields: {}); a record holds `instance`, `rules` and `moves` (docs/formats/coe-records.md)",
            fields.join(", ")
        )));
    }
    Record::from_json(label, text).map_err(|e| bad(e.to_string()))
}
