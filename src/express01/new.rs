//! `signalbox express01 new`: the start position of a new game from a seed.

use std::path::PathBuf;

use anyhow::Context as _;
use signalbox_engine::express01::capital::capital;
use signalbox_engine::express01::position::Position;

use super::start::StartArgs;
use crate::input::{bad, check_new, write_new};

#[derive(clap::Args, Debug)]
pub struct NewArgs {
    #[command(flatten)]
    game: StartArgs,
    /// Write the start position (JSON, docs/formats/express01-position.md) to this file.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Replace an existing --out file.
    #[arg(long)]
    force: bool,
    /// Print the start position as JSON instead of the summary.
    #[arg(long)]
    json: bool,
    /// A game at the table (docs/rules/express-01.md): no deck is shuffled; each player's dealt cards are
    /// given with --hand. Writes the start as a table record (docs/formats/express01-record.md,
    /// "A game from the table"), the input of `express01 play --table`.
    #[arg(long)]
    table: bool,
    /// With --table: the six cards dealt to a player (`201,207,...`), once per player in seat
    /// order.
    #[arg(long, value_name = "C,C,..", requires = "table")]
    hand: Vec<String>,
}

/// Writes the start of a game at the table as a record.
fn run_table(a: &NewArgs) -> anyhow::Result<()> {
    let (_, catalogue) = super::load_content(a.game.content.as_deref())?;
    if a.hand.is_empty() {
        return Err(bad("--table: give each player's six dealt cards with --hand (once per player, in seat order)"));
    }
    let setup = super::play::table_start(&a.game, &a.hand, &catalogue)?;
    let position = Position::from_setup(setup.clone(), &catalogue).map_err(|e| {
        let problems: Vec<String> = e.problems.iter().map(ToString::to_string).collect();
        bad(format!("--hand: {}", problems.join("; ")))
    })?;
    let game = signalbox_engine::express01::game::Game::from_position(&position).map_err(|e| bad(e.to_string()))?;
    let record = signalbox_engine::express01::record::Recorder::from_position(
        setup,
        Some("played at the table (signalbox express01 play --table)".into()),
    );
    let text = serde_json::to_string_pretty(&record.finish(&game)).context("the record as JSON")? + "\n";
    crate::table::write_new_game(a.out.as_deref(), &text)
}

pub fn run(a: NewArgs) -> anyhow::Result<()> {
    if let Some(out) = &a.out {
        check_new(out, a.force)?;
    }
    if a.table {
        return run_table(&a);
    }
    let start = a.game.start()?;
    let (_, catalogue) = super::load_content(a.game.content.as_deref())?;
    let setup = start.position(&catalogue).map_err(|e| bad(format!("--map/--names/--shown: {e}")))?;
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
    say!(
        "Express 01 on {} ({}), seed {}: a new {} game",
        position.map().name,
        catalogue.label(),
        start.seed,
        if a.game.long { "long" } else { "short" }
    );
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
