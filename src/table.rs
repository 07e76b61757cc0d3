//! Playing at the table (`GAME play --table`): what every game's table session shares.
//!
//! In a table session signalbox never rolls or shuffles. Each line the players type is one
//! step: a move (in the words the text output prints, or the number of a menu entry) or a chance
//! event as it happened at the table (the dice rolled, the card or tile turned up). The record is
//! written after every step, through a temporary file renamed over it, so a crash loses nothing;
//! it holds only what the table has seen, and `analyse` reads it. The commands `undo` (take back
//! the last step), `board` (draw the table again), `help` (or `?`) and `quit` are the same in
//! every game.

use std::io::BufRead;
use std::path::Path;

use crate::input::bad;

/// What a table session asks for next.
#[derive(Clone, Debug, Default)]
pub struct Ask {
    /// The question, one line: whose move, or which chance event (`the roll of turn 3`).
    pub question: String,
    /// The choices offered as a menu, in the words the session accepts; empty where the answer
    /// is typed (a roll, a card).
    pub menu: Vec<String>,
    /// The game is over: nothing more is asked.
    pub over: bool,
    /// Draw the table before asking (a new turn, a new player): set where the table changed more
    /// than the last step shows.
    pub show_board: bool,
}

/// One game's side of a table session: its record, what it asks, and how it takes a line.
pub trait TableGame {
    /// The record as it is saved (JSON text, the game's record format).
    fn record_json(&self) -> String;
    /// The table drawn as text: the board and what each player may see.
    fn board(&self) -> String;
    /// What is asked next.
    fn ask(&self) -> Ask;
    /// Takes one line: a move in words or a chance event. On success, the step in words as the
    /// record holds it; on refusal, a message naming the rule, and nothing is changed.
    fn enter(&mut self, line: &str) -> Result<String, String>;
    /// Takes back the last step: on success, what was taken back in words.
    fn undo(&mut self) -> Result<String, String>;
    /// The words this game takes, for `help`.
    fn help(&self) -> String;
    /// The closing line when the game is over or the input ends (the score, the winner).
    fn summary(&self) -> String;
}

/// The commands every table session takes, for `help`.
pub const COMMANDS: &str = "Commands: undo (take back the last step), board (draw the table again), help or ?, quit.\n\
A number picks that menu entry; anything else is read as a move or a chance event in words.";

/// Writes `text` to `path` through a temporary file in the same folder renamed over it, so that
/// the file always holds a whole record.
pub fn save_atomic(path: &Path, text: &str) -> anyhow::Result<()> {
    let name = path.file_name().map_or_else(|| "record".into(), |n| n.to_string_lossy().into_owned());
    let temporary = path.with_file_name(format!(".{name}.partial"));
    let cannot = |e: std::io::Error| bad(format!("{}: cannot write: {e}", path.display()));
    std::fs::write(&temporary, text).map_err(cannot)?;
    std::fs::rename(&temporary, path).map_err(cannot)
}

/// Writes the record of a new game (`new`) to `out` through [`save_atomic`] and says so, or
/// prints it when no file is named.
pub fn write_new_game(out: Option<&Path>, text: &str) -> anyhow::Result<()> {
    match out {
        Some(out) => {
            save_atomic(out, text)?;
            say!("Wrote {}", out.display());
        }
        None => say!("{}", text.trim_end()),
    }
    Ok(())
}

/// Runs a table session on standard input: asks, takes a line, saves the record to `record`
/// after every step (and once at the start), until the game is over, `quit` or the input ends.
pub fn session(game: &mut dyn TableGame, record: Option<&Path>) -> anyhow::Result<()> {
    let stdin = std::io::stdin();
    session_on(game, record, &mut stdin.lock())
}

fn session_on(game: &mut dyn TableGame, record: Option<&Path>, input: &mut dyn BufRead) -> anyhow::Result<()> {
    let save = |game: &dyn TableGame| -> anyhow::Result<()> {
        match record {
            Some(path) => save_atomic(path, &game.record_json()),
            None => Ok(()),
        }
    };
    save(game)?;
    say!("{}", game.board());
    let mut line = String::new();
    let mut stepped = false;
    loop {
        let ask = game.ask();
        if ask.over {
            break;
        }
        if ask.show_board && stepped {
            say!("{}", game.board());
        }
        stepped = false;
        say!("{}", ask.question);
        for (i, choice) in ask.menu.iter().enumerate() {
            say!("  {:>3}. {choice}", i + 1);
        }
        line.clear();
        if input.read_line(&mut line).map_err(|e| bad(format!("standard input: {e}")))? == 0 {
            break;
        }
        let typed = line.trim();
        match typed.to_ascii_lowercase().as_str() {
            "" => continue,
            "quit" | "q" => break,
            "help" | "?" => {
                say!("{}\n{COMMANDS}", game.help());
                continue;
            }
            "board" => {
                say!("{}", game.board());
                continue;
            }
            "undo" => {
                match game.undo() {
                    Ok(words) => {
                        save(game)?;
                        say!("taken back: {words}");
                    }
                    Err(why) => say!("{why}"),
                }
                continue;
            }
            _ => {}
        }
        let chosen = match typed.parse::<usize>() {
            Ok(n) if !ask.menu.is_empty() => match n.checked_sub(1).and_then(|i| ask.menu.get(i)) {
                Some(choice) => choice.clone(),
                None => {
                    say!("{n} is not in the menu (1 to {}); type a move in words or help", ask.menu.len());
                    continue;
                }
            },
            _ => typed.to_string(),
        };
        match game.enter(&chosen) {
            Ok(words) => {
                save(game)?;
                say!("> {words}");
                stepped = true;
            }
            Err(why) => say!("not taken: {why}"),
        }
    }
    say!("{}", game.summary());
    if let Some(path) = record {
        say!("Record: {}", path.display());
    }
    Ok(())
}
