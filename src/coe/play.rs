//! `signalbox coe play`: play a seed in the terminal, the board drawn after every move.

use std::io::BufRead;
use std::path::PathBuf;

use signalbox_engine::coe::card::RADIUS;
use signalbox_engine::coe::{Catalogue, Colour, Game, Move, Record, Rules};
use signalbox_engine::grid::hex::hexagon_row;

use crate::input::{bad, check_new, write_new};

/// Arguments of `coe play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    source: super::solve::Source,
    /// End after this many turns (a shortened game).
    #[arg(long, value_name = "K")]
    max_turns: Option<usize>,
    /// Write the game record here when the game ends (or input runs out).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Replace the record file if it exists.
    #[arg(long)]
    force: bool,
    /// Content file (TOML); default: the embedded house set.
    #[arg(long, value_name = "FILE")]
    pub content: Option<PathBuf>,
}

/// The board as text: one line per row, each hex its colour letter and number, `[..]` where a
/// cube lies.
pub fn draw(game: &Game<'_>) -> String {
    let board = game.board();
    let mut out = String::new();
    let mut index = 0;
    for r in -RADIUS..=RADIUS {
        let row = hexagon_row(RADIUS, r);
        out.push_str(&"   ".repeat(r.unsigned_abs() as usize));
        for _ in &row {
            let h = &board.hexes[index];
            let cell = format!("{}{}", h.colour.letter(), h.number);
            if game.placed() >> index & 1 == 1 {
                out.push_str(&format!("[{cell}]"));
            } else {
                out.push_str(&format!(" {cell} "));
            }
            out.push_str(&format!("{index:<2}"));
            index += 1;
        }
        out.push('\n');
    }
    out
}

/// The dice of the turn still to use, by their numbers in moves and records (0 and 1):
/// `die 0: 2, die 1: 4`; `no die left` when both are used.
pub fn dice_text(game: &Game<'_>) -> String {
    let dice: Vec<String> =
        game.dice().iter().enumerate().filter_map(|(i, d)| d.map(|v| format!("die {i}: {v}"))).collect();
    if dice.is_empty() { "no die left".into() } else { dice.join(", ") }
}

fn status(game: &Game<'_>, catalogue: &Catalogue) -> String {
    let inventory: Vec<String> = Colour::ALL
        .iter()
        .filter(|c| game.inventory()[c.index()] > 0)
        .map(|c| format!("{} {c}", game.inventory()[c.index()]))
        .collect();
    let market: Vec<String> = game
        .market()
        .iter()
        .flatten()
        .filter_map(|&id| catalogue.card(id))
        .map(|c| {
            let squares: Vec<String> = c.market.central.iter().map(|s| format!("{}:{}", s.face, s.colour)).collect();
            format!("{} [{}]", c.name, squares.join(" "))
        })
        .collect();
    format!(
        "turn {} · {}{} · workers {} · inventory {} · market {} · score so far {}",
        game.turn() + 1,
        dice_text(game),
        if game.free_shift_open() { " · free shift open" } else { "" },
        game.workers(),
        if inventory.is_empty() { "empty".into() } else { inventory.join(", ") },
        market.join(" | "),
        game.score().total()
    )
}

/// Plays a game from standard input: each line is the number of a listed move.
pub fn run(a: PlayArgs, catalogue: &Catalogue) -> anyhow::Result<()> {
    if let Some(path) = &a.record {
        check_new(path, a.force)?;
    }
    let instance = a.source.load()?;
    let rules = Rules { max_turns: a.max_turns, ..Rules::default() };
    let mut game = Game::new(catalogue, &instance, rules);
    let mut moves: Vec<Move> = Vec::new();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    while !game.is_over() {
        say!("{}", draw(&game));
        say!("{}", status(&game, catalogue));
        let legal = game.legal_moves();
        for (i, m) in legal.iter().enumerate() {
            say!("  {:>3}. {m}", i + 1);
        }
        say!("move number (or q to stop):");
        let Some(line) = lines.next() else { break };
        let line = line.map_err(|e| bad(format!("standard input: {e}")))?;
        let line = line.trim();
        if line == "q" {
            break;
        }
        let Some(mv) = line.parse::<usize>().ok().and_then(|n| n.checked_sub(1)).and_then(|i| legal.get(i)) else {
            say!("`{line}` is not a listed move number");
            continue;
        };
        game.play(*mv).map_err(|e| anyhow::anyhow!("internal error: a listed move was refused: {e}"))?;
        moves.push(*mv);
    }
    say!("{}", draw(&game));
    let score = game.score();
    say!("{} after {} turns: score {score}", if game.is_over() { "Game over" } else { "Stopped" }, game.turn());
    if let Some(path) = &a.record {
        let record = Record::new(instance.clone(), rules, moves);
        write_new(path, &serde_json::to_string_pretty(&record)?, a.force)?;
        say!("Record: {}", path.display());
    }
    Ok(())
}
