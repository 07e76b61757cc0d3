//! `signalbox coe play`: play a seed in the terminal, the board drawn after every move.

use std::io::BufRead;
use std::path::PathBuf;

use signalbox_engine::coe::card::RADIUS;
use signalbox_engine::coe::{Catalogue, Colour, Game, Move, Record, Rules};
use signalbox_engine::grid::hex::hexagon_row;

use super::table::CoeTable;
use crate::input::{bad, check_new, read_text, write_new};

/// Arguments of `coe play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// With --table: go on with this table record (as `coe new --board` writes it or a table
    /// session saves it); the session saves to it unless --record names another file.
    #[arg(requires = "table", conflicts_with_all = ["seed", "instance", "board"])]
    game: Option<PathBuf>,
    #[command(flatten)]
    source: super::solve::Source,
    /// Play a game at the table: signalbox never rolls or shuffles; it asks for each card as it
    /// comes up and each roll as it is rolled, and saves the record after every step.
    #[arg(long, conflicts_with_all = ["seed", "instance"])]
    table: bool,
    /// With --table, a new game: the card laid board side up (its number 1 to 9 or its name).
    #[arg(long, value_name = "CARD", requires = "table")]
    board: Option<String>,
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

/// The dice of the turn still to use, as moves name them: `first die 2, second die 4`; `no die
/// left` when both are used.
pub fn dice_text(game: &Game<'_>) -> String {
    signalbox_engine::coe::dice_words(game.dice())
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

/// Plays a game at the table ([`super::table::CoeTable`]): a new one on `--board`, or one a
/// table record holds.
fn run_table(a: &PlayArgs, catalogue: &Catalogue) -> anyhow::Result<()> {
    let rules = Rules { max_turns: a.max_turns, ..Rules::default() };
    let (mut table, save) = match &a.game {
        Some(path) => {
            let label = path.display().to_string();
            let text = read_text(path)?;
            let record = Record::from_json(&label, &text).map_err(|e| bad(e.to_string()))?;
            if a.max_turns.is_some() {
                return Err(bad("--max-turns: a record keeps its own rules; give it with `coe new`"));
            }
            let table = CoeTable::resume(catalogue, record, &label).map_err(bad)?;
            match &a.record {
                Some(out) => {
                    check_new(out, a.force)?;
                    (table, out.clone())
                }
                None => (table, path.clone()),
            }
        }
        None => {
            let Some(board) = &a.board else {
                return Err(bad("--table: give --board CARD for a new game, or the table record to go on with"));
            };
            let board = card_id(catalogue, board).map_err(|m| bad(format!("--board: {m}")))?;
            let Some(out) = &a.record else {
                return Err(bad("--table: give --record FILE: the record is saved there after every step"));
            };
            check_new(out, a.force)?;
            (CoeTable::new(catalogue, board, rules).map_err(|m| bad(format!("--board: {m}")))?, out.clone())
        }
    };
    crate::table::session(&mut table, Some(&save))
}

/// A card named by its number (1 to 9) or its name.
pub fn card_id(catalogue: &Catalogue, text: &str) -> Result<u8, String> {
    let t = text.trim();
    if let Ok(id) = t.parse::<u8>() {
        return if catalogue.card(id).is_some() {
            Ok(id)
        } else {
            Err(format!("{id} is not a card: cards are numbered 1 to 9"))
        };
    }
    (1..=9u8).find(|&c| catalogue.card(c).is_some_and(|card| card.name.eq_ignore_ascii_case(t))).ok_or_else(|| {
        let names: Vec<String> =
            (1..=9u8).filter_map(|c| catalogue.card(c).map(|card| format!("{c} ({})", card.name))).collect();
        format!("`{t}` is not a card: give its number or name: {}", names.join(", "))
    })
}

/// Plays a game from standard input: each line is the number of a listed move.
pub fn run(a: PlayArgs, catalogue: &Catalogue) -> anyhow::Result<()> {
    if a.table {
        return run_table(&a, catalogue);
    }
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
