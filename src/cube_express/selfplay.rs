//! `signalbox cube-express selfplay`: a whole game from a seed played by a built-in policy, as a
//! JSON record with its scores.

use std::path::PathBuf;

use serde_json::json;
use signalbox_engine::cube_express::game::Game;
use signalbox_engine::cube_express::options::Options;
use signalbox_engine::cube_express::position::Record;
use signalbox_engine::cube_express::score::{final_scores, winners};
use signalbox_solver::cube_express::plan::{PlanOptions, plan_turn};

use crate::input::{bad, check_new, write_new};

/// Arguments of `cube-express selfplay`.
#[derive(clap::Args, Debug)]
pub struct SelfplayArgs {
    /// The seed of the game (the deal and the stack's order).
    #[arg(long)]
    seed: u64,
    /// Players, 2 to 4.
    #[arg(long, value_name = "N", default_value_t = 3)]
    players: usize,
    /// Write the JSON to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Replace the --out file if it exists.
    #[arg(long)]
    force: bool,
    /// Content file (TOML); default: the embedded house set.
    #[arg(long, value_name = "FILE")]
    content: Option<PathBuf>,
}

/// Runs `cube-express selfplay`: prints (or writes) `{seed, players, policy, turns, scores,
/// winners, record}`. The policy is the planner's best turn every turn (`advise`).
pub fn run(a: SelfplayArgs) -> anyhow::Result<()> {
    if let Some(out) = &a.out {
        check_new(out, a.force)?;
    }
    let content = super::load_content(a.content.as_deref())?;
    let mut game = Game::new(content.clone(), a.players, a.seed, Options::default()).map_err(|e| bad(e.to_string()))?;
    let mut turns = Vec::new();
    while !game.is_over() {
        // The planner's best turn, from what the player sees (docs/rules/cube-express.md).
        let actions = plan_turn(&game.seen(), &PlanOptions::default())?.actions;
        game =
            game.play_turn(&actions).map_err(|(i, e)| anyhow::anyhow!("the policy's action {i} was refused: {e}"))?;
        turns.push(actions);
    }
    let record = Record::new(a.players, a.seed, Options::default(), turns);
    let scores = final_scores(&game);
    let colours: Vec<_> = game.players().iter().map(|p| p.colour).collect();
    let out = json!({
        "seed": a.seed,
        "players": a.players,
        "policy": "best",
        "turns": record.turns.len(),
        "scores": colours.iter().zip(&scores).map(|(c, s)| json!({"player": c, "total": s.total()})).collect::<Vec<_>>(),
        "winners": winners(&game).iter().map(|&w| colours[w]).collect::<Vec<_>>(),
        "record": record,
    });
    let text = serde_json::to_string_pretty(&out)? + "\n";
    match &a.out {
        Some(path) => {
            write_new(path, &text, a.force)?;
            say!("Wrote {}", path.display());
        }
        None => say!("{}", text.trim_end()),
    }
    Ok(())
}
