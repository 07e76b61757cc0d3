//! `signalbox express01 selfplay`: a whole game played by a built-in policy.

use std::path::PathBuf;

use anyhow::Context as _;
use clap::ValueEnum;
use serde_json::json;
use signalbox_engine::express01::record;
use signalbox_solver::express01::selfplay::{BestRoute, Ending, MAX_ROUNDS, Policy, selfplay};

use super::start::StartArgs;
use crate::input::{bad, check_new, write_new};

/// The policy that plays every seat.
#[derive(ValueEnum, Clone, Copy, Debug, Default)]
pub enum PolicyArg {
    /// Each step uniformly among the legal steps (docs/rules/express-01.md).
    #[default]
    Random,
    /// The action pair raising the mover's capital most this turn, over sampled turns (docs/rules/express-01.md).
    Greedy,
}

/// Arguments of `express01 selfplay`.
#[derive(clap::Args, Debug)]
pub struct SelfplayArgs {
    #[command(flatten)]
    game: StartArgs,
    /// The policy of every seat.
    #[arg(long, value_enum, default_value_t = PolicyArg::Random)]
    policy: PolicyArg,
    /// Write the game's record (JSON, docs/formats/express01-record.md) to this file.
    #[arg(long, value_name = "FILE", conflicts_with = "seeds")]
    record: Option<PathBuf>,
    /// Play a game per seed of `A..B` (both included; each seed as --seed takes it) instead of
    /// one game, and print a summary: each seat's wins and mean capital, the games' length.
    #[arg(long, value_name = "A..B", conflicts_with = "seed")]
    seeds: Option<String>,
    /// With --seeds: append one JSON line per seed here (the game's record, ending, result and
    /// rounds, in seed order; docs/formats/express01-record.md). Seeds already in the file are
    /// replayed, checked and not played again, so an interrupted run resumes. The first line
    /// records the settings; a run with other settings is refused.
    #[arg(long, value_name = "FILE.jsonl", requires = "seeds")]
    out: Option<PathBuf>,
    /// With --seeds: play only part K of N of the seeds, those whose position in the range
    /// (counting from 0) leaves K-1 when divided by N. The N shards' files, joined by
    /// `signalbox merge`, make the file one run writes. Needs --out.
    #[arg(long, value_name = "K/N", value_parser = crate::shard::Shard::parse, requires_all = ["seeds", "out"])]
    shard: Option<crate::shard::Shard>,
    /// Replace an existing --record file.
    #[arg(long)]
    force: bool,
    /// Print one JSON object (the record, the capitals of each round and the result; with
    /// --seeds, the summary).
    #[arg(long)]
    json: bool,
}

/// Runs `express01 selfplay`.
pub fn run(a: SelfplayArgs) -> anyhow::Result<()> {
    if let Some(out) = &a.record {
        check_new(out, a.force)?;
    }
    let start = a.game.start()?;
    let policy = match a.policy {
        PolicyArg::Random => Policy::Random,
        PolicyArg::Greedy => Policy::Greedy,
    };
    if let Some(seeds) = &a.seeds {
        let range = crate::coe::batch::parse_range(seeds)?;
        let (_, content_text) = crate::input::text_or_embedded(
            a.game.content.as_deref(),
            signalbox_engine::express01::catalogue::HOUSE_SET_LABEL,
            signalbox_engine::express01::catalogue::HOUSE_SET_TOML,
        )?;
        let (_, catalogue) = super::load_content(a.game.content.as_deref())?;
        return super::selfplay_batch::run(
            range,
            &start,
            policy,
            (&catalogue, &content_text),
            a.out.as_deref(),
            a.shard,
            a.json,
        );
    }
    let (_, catalogue) = super::load_content(a.game.content.as_deref())?;
    let played =
        selfplay(&catalogue, &start, policy, MAX_ROUNDS).map_err(|e| bad(format!("--map/--names/--shown: {e}")))?;
    let text = serde_json::to_string_pretty(&played.record).context("the record as JSON")?;
    // The record is replayed as any record file is, so what is printed is what replay gives.
    let replayed = record::replay("<self-played game>", &played.record, &catalogue, &BestRoute, &mut |_, _| {})
        .map_err(|e| anyhow::anyhow!("the self-played game does not replay: {e}"))?;
    if let Some(out) = &a.record {
        write_new(out, &(text.clone() + "\n"), a.force)?;
    }
    if played.ending == Ending::RoundLimit {
        eprintln!("note: the game did not end within {MAX_ROUNDS} rounds; the record stops there");
    }
    if a.json {
        let out = json!({
            "policy": policy.name(),
            "ending": match played.ending { Ending::Over => "over", Ending::RoundLimit => "round-limit" },
            "rounds": super::record::rounds_json(&replayed.game, &replayed.rounds),
            "result": played.record.result,
            "record": played.record,
        });
        say!("{}", serde_json::to_string_pretty(&out).context("the game as JSON")?);
        return Ok(());
    }
    say!("{} by the {} policy", super::record::describe_start(&played.record, &played.game), policy.name());
    for line in super::record::summary(&replayed.game, &replayed.rounds) {
        say!("{line}");
    }
    say!("{} steps in {} turns", replayed.steps, played.record.turns.len());
    if let Some(out) = &a.record {
        say!("wrote {} (signalbox express01 replay {} checks it)", out.display(), out.display());
    }
    Ok(())
}
