//! `signalbox express01 play`: hot-seat play of a whole game in the terminal. The board is drawn
//! when a turn starts; each step names the player who chooses (the mover, or a receiver of a bonus
//! payment), shows that player's hand only, and offers the legal steps as a menu (grouped by
//! kind when long) or typed in the readable form (`docs/formats/express01-record.md`).

use std::io::BufRead;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use signalbox_engine::express01::game::{Game, Step};
use signalbox_engine::express01::position::Position;
use signalbox_engine::express01::record::{self, Record, Recorder};
use signalbox_render::express01::text;
use signalbox_solver::express01::selfplay::BestRoute;

use crate::input::{bad, check_new};

/// A menu longer than this is shown grouped: first the kinds of step, then the choices.
const MENU_LIMIT: usize = 24;

/// Arguments of `express01 play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// Start from this position (JSON with decks, docs/formats/express01-position.md) instead of
    /// a new game.
    #[arg(conflicts_with_all = ["players", "names", "seed", "map", "long", "shown"])]
    position: Option<PathBuf>,
    #[command(flatten)]
    start: super::start::StartArgs,
    /// Write the game record (JSON, docs/formats/express01-record.md) to this file after every
    /// finished turn and at the end, with the result.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Replace an existing --record file.
    #[arg(long)]
    force: bool,
    /// Play a game at the table: signalbox never shuffles; it asks for each card drawn from
    /// face-down cards as it comes, and saves the record after every step. A new game takes
    /// each player's dealt cards with --hand; POSITION is then a table record to go on with
    /// (saved to itself unless --record names another file).
    #[arg(long)]
    table: bool,
    /// With --table, a new game: the six cards dealt to a player (`201,207,...`), once per
    /// player in seat order.
    #[arg(long, value_name = "C,C,..", requires = "table")]
    hand: Vec<String>,
}

/// The help shown for `?` and `help`.
const HELP: &str = "\
Type the number of a menu entry, or a step in the readable form:
  A+B, B+A, C+D                      the action pair (A expand, B shares, C bonus, D turn order)
  pay 236, pay engine                pay one card's worth (in A, or towards a share's price in B)
  build 501 on 009 [turned] [depth N]  lay card 501 on the cell of base card 009
  buy red, take 103 [depth N], take 103 from NAME   buy a share, then take its card
  bonus red pays 5 [with engine]     the bonus payment of a company
  draw route-blue                    take the top card of a deck
  swap NAME                          exchange turn order cards
  done                               end the action (or decline)
Commands: board (draw the table again), a kind of step such as build (open its group),
  back (up one menu), help or ?, quit.
Cells are named by their base card; depth 0 is the top of a deck.";

/// The kind of a step, as the grouped menu names it.
fn kind(step: &Step) -> &'static str {
    match step {
        Step::Pair(_) => "action pair",
        Step::Pay(_) => "pay",
        Step::Build(_) => "build",
        Step::Buy(_) => "buy",
        Step::Take(_) => "take",
        Step::Bonus { .. } => "bonus",
        Step::Draw(_) => "draw",
        Step::Swap(_) => "swap",
        Step::Done => "done",
    }
}

/// The kind of step named `name` (one of [`kind`]'s names), or `done`.
fn kind_named(name: &str) -> &'static str {
    ["action pair", "pay", "build", "buy", "take", "bonus", "draw", "swap"]
        .into_iter()
        .find(|k| *k == name)
        .unwrap_or("done")
}

/// Where the player is in the grouped menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Level {
    /// Every legal step, or their kinds when there are many.
    Top,
    /// The steps of one kind, or (builds, when many) the cells.
    Kind(&'static str),
    /// The builds on one cell.
    Cell(usize),
}

/// An entry of a menu: a step, or a group to open.
#[derive(Clone, Debug)]
enum Entry {
    Step(Step),
    Group(Level, String),
}

/// The entries of the menu at `level`.
fn entries(game: &Game<'_>, legal: &[Step], level: Level) -> Vec<Entry> {
    let steps = |keep: &dyn Fn(&Step) -> bool| legal.iter().filter(|s| keep(s)).map(|&s| Entry::Step(s)).collect();
    match level {
        Level::Top if legal.len() <= MENU_LIMIT => steps(&|_| true),
        Level::Top => {
            let mut kinds: Vec<&'static str> = Vec::new();
            for s in legal {
                if !kinds.contains(&kind(s)) {
                    kinds.push(kind(s));
                }
            }
            kinds
                .into_iter()
                .map(|k| {
                    let of_kind: Vec<Step> = legal.iter().filter(|s| kind(s) == k).copied().collect();
                    match of_kind.as_slice() {
                        [one] => Entry::Step(*one),
                        many => Entry::Group(Level::Kind(k), format!("{k} ({} choices)", many.len())),
                    }
                })
                .collect()
        }
        Level::Kind("build") if legal.iter().filter(|s| matches!(s, Step::Build(_))).count() > MENU_LIMIT => {
            let mut cells: Vec<usize> = Vec::new();
            for s in legal {
                if let Step::Build(b) = s
                    && !cells.contains(&b.cell)
                {
                    cells.push(b.cell);
                }
            }
            cells
                .into_iter()
                .map(|c| {
                    let n = legal.iter().filter(|s| matches!(s, Step::Build(b) if b.cell == c)).count();
                    let base = game.map().cells[c].base;
                    let city = game.catalogue().card(base).and_then(|b| b.name.clone()).unwrap_or_default();
                    Entry::Group(Level::Cell(c), format!("build on {base} {city} ({n} choices)"))
                })
                .collect()
        }
        Level::Kind(k) => steps(&|s| kind(s) == k),
        Level::Cell(c) => steps(&|s| matches!(s, Step::Build(b) if b.cell == c)),
    }
}

/// The level above `level`.
fn up(level: Level) -> Level {
    match level {
        Level::Cell(_) => Level::Kind("build"),
        _ => Level::Top,
    }
}

/// Writes the record through a temporary file renamed over it, so that the file always holds a
/// whole record.
fn save(path: &Path, record: &Record) -> anyhow::Result<()> {
    let text = serde_json::to_string_pretty(record).context("the record as JSON")? + "\n";
    let name = path.file_name().map_or_else(|| "record".into(), |n| n.to_string_lossy().into_owned());
    let temporary = path.with_file_name(format!(".{name}.partial"));
    let cannot = |e: std::io::Error| bad(format!("{}: cannot write: {e}", path.display()));
    std::fs::write(&temporary, text).map_err(cannot)?;
    std::fs::rename(&temporary, path).map_err(cannot)
}

/// Each player's capital, `Anna 12, Ben 9`.
fn capitals(game: &Game<'_>, values: &[u32]) -> String {
    game.seats().iter().zip(values).map(|(s, v)| format!("{} {v}", s.name)).collect::<Vec<_>>().join(", ")
}

/// The hands given with --hand, one per player.
pub fn hands(given: &[String]) -> anyhow::Result<Vec<Vec<u16>>> {
    given
        .iter()
        .enumerate()
        .map(|(i, h)| {
            h.split([',', ' '])
                .filter(|c| !c.trim().is_empty())
                .map(|c| {
                    c.trim().parse::<u16>().map_err(|_| {
                        bad(format!(
                            "--hand {}: `{}` is not a card number (the hand as `201,207,...`)",
                            i + 1,
                            c.trim()
                        ))
                    })
                })
                .collect()
        })
        .collect()
}

/// The start of a new game at the table from the arguments (docs/rules/express-01.md).
pub fn table_start(
    start: &super::start::StartArgs,
    hand: &[String],
    catalogue: &signalbox_engine::express01::Catalogue,
) -> anyhow::Result<signalbox_engine::express01::position::PositionSetup> {
    let hands = hands(hand)?;
    let names = start.names()?;
    let shown = (!start.shown.is_empty()).then_some(start.shown.as_slice());
    let mut setup = signalbox_engine::express01::setup::table_game(catalogue, &start.map, &names, &hands, shown)
        .map_err(|e| bad(format!("--hand/--names/--shown: {e}")))?;
    setup.length = Some(if start.long {
        signalbox_engine::express01::round::Length::Long
    } else {
        signalbox_engine::express01::round::Length::Short
    });
    Ok(setup)
}

/// Plays a game at the table ([`super::table::Express01Table`]): a new one from --hand, or one a
/// table record holds.
fn run_table(a: &PlayArgs) -> anyhow::Result<()> {
    let (_, catalogue) = super::load_content(a.start.content.as_deref())?;
    let (mut table, save) = match &a.position {
        Some(path) => {
            let label = path.display().to_string();
            let text = crate::input::read_text(path)?;
            let table = if super::record::is_record(&text) {
                let record = record::read(&label, &text).map_err(|e| bad(e.to_string()))?;
                super::table::Express01Table::resume(&catalogue, &record, &label).map_err(bad)?
            } else {
                // A table position (`"table": true`) to start from.
                let (_, position) = super::load_position(Some(path), &catalogue)?;
                if !position.is_table() {
                    return Err(bad(format!(
                        "{label}: field `table`: not a position from the table; a position with the deck order is played without --table"
                    )));
                }
                let setup: signalbox_engine::express01::position::PositionSetup =
                    serde_json::from_str(&text).map_err(|e| bad(format!("{label}: {e}")))?;
                super::table::Express01Table::new(&catalogue, setup).map_err(|m| bad(format!("{label}: {m}")))?
            };
            match &a.record {
                Some(out) => {
                    check_new(out, a.force)?;
                    (table, out.clone())
                }
                None => (table, path.clone()),
            }
        }
        None => {
            if a.hand.is_empty() {
                return Err(bad(
                    "--table: give each player's six dealt cards with --hand (once per player, in seat order), or the table record to go on with",
                ));
            }
            let Some(out) = &a.record else {
                return Err(bad("--table: give --record FILE: the record is saved there after every step"));
            };
            check_new(out, a.force)?;
            let setup = table_start(&a.start, &a.hand, &catalogue)?;
            (
                super::table::Express01Table::new(&catalogue, setup).map_err(|m| bad(format!("--hand: {m}")))?,
                out.clone(),
            )
        }
    };
    crate::table::session(&mut table, Some(&save))
}

/// Plays a game from standard input, one line at a time.
pub fn run(a: PlayArgs) -> anyhow::Result<()> {
    if a.table {
        return run_table(&a);
    }
    if let Some(path) = &a.record {
        check_new(path, a.force)?;
    }
    let (_, catalogue) = super::load_content(a.start.content.as_deref())?;
    let (label, setup, start) = match &a.position {
        Some(path) => {
            let (label, position) = super::load_position(Some(path), &catalogue)?;
            if position.is_table() {
                return Err(bad(format!(
                    "{label}: a position from the table (the deck order never seen) is played with --table, which asks for each card drawn"
                )));
            }
            let game = Game::from_position(&position).map_err(|e| bad(format!("{label}: {e}")))?;
            (label, game.to_setup(), None)
        }
        None => {
            let start = a.start.start()?;
            let setup = start.position(&catalogue).map_err(|e| bad(format!("--map/--names/--shown: {e}")))?;
            (format!("a new game from seed {}", a.start.seed), setup, Some(start))
        }
    };
    let position = Position::from_setup(setup.clone(), &catalogue)
        .map_err(|e| bad(format!("{label}: not a legal position: {:?}", e.problems)))?;
    let mut game = Game::from_position(&position).map_err(|e| bad(format!("{label}: {e}")))?;
    let note = Some("played hot-seat (signalbox express01 play)".to_string());
    let mut recorder = match start {
        Some(start) => Recorder::from_seed(start, note),
        None => Recorder::from_position(setup, note),
    };
    let mut finished = recorder.finish(&game);
    let referee = BestRoute;

    say!(
        "Express 01 on {} ({}), {label}: hot-seat play; type help for the notation",
        game.map().name,
        catalogue.label()
    );
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut level = Level::Top;
    let mut legal: Option<Vec<Step>> = None;
    let mut show_table = true;
    let mut show_prompt = true;
    let mut stopped: Option<&str> = None;
    while !game.is_over() {
        let steps = legal.get_or_insert_with(|| game.legal(&referee));
        let menu = entries(&game, steps, level);
        if show_table {
            say!();
            say!("Round {}, turn {}: {} to move", game.round(), game.turn(), game.seats()[game.mover()].name);
            say!("{}", text::table(&game));
            show_table = false;
        }
        if show_prompt {
            let decider = game.decider();
            say!("{} chooses: {}", game.seats()[decider].name, game.expecting());
            say!("{}", text::hand(&game, decider));
            for (i, e) in menu.iter().enumerate() {
                match e {
                    Entry::Step(s) => say!("  {:>3}. {}", i + 1, game.describe(*s)),
                    Entry::Group(_, label) => say!("  {:>3}. {label} ...", i + 1),
                }
            }
            say!("choice (a number, a step, help, board, back or quit):");
            show_prompt = false;
        }
        let Some(line) = lines.next() else {
            stopped = Some("the input ended");
            break;
        };
        let line = line.map_err(|e| bad(format!("standard input: {e}")))?;
        let line = line.trim();
        let chosen = match line {
            "" => {
                show_prompt = true;
                continue;
            }
            "?" | "help" => {
                say!("{HELP}");
                show_prompt = true;
                continue;
            }
            "board" => {
                say!("{}", text::table(&game));
                show_prompt = true;
                continue;
            }
            "back" => {
                level = up(level);
                show_prompt = true;
                continue;
            }
            "quit" => {
                stopped = Some("quit");
                break;
            }
            _ if menu.iter().any(|e| matches!(e, Entry::Group(Level::Kind(k), _) if *k == line)) => {
                level = Level::Kind(kind_named(line));
                show_prompt = true;
                continue;
            }
            _ => match line.parse::<usize>() {
                Ok(n) => match n.checked_sub(1).and_then(|i| menu.get(i)) {
                    Some(Entry::Step(s)) => *s,
                    Some(Entry::Group(l, _)) => {
                        level = *l;
                        show_prompt = true;
                        continue;
                    }
                    None => {
                        say!("`{line}`: no such entry (the menu has 1 to {})", menu.len());
                        continue;
                    }
                },
                Err(_) => match game.parse_step(line) {
                    Ok(s) => match game.check(s, &referee) {
                        Ok(()) => s,
                        Err(e) => {
                            say!("`{line}`: not allowed: {e}");
                            continue;
                        }
                    },
                    Err(message) => {
                        say!("{message}");
                        continue;
                    }
                },
            },
        };
        say!("{}: {}", game.seats()[game.decider()].name, game.describe(chosen));
        let round = game.round();
        let before: Vec<u32> = (0..game.seats().len()).map(|p| game.capital(p).total()).collect();
        recorder.step(&game, chosen);
        game.play_unchecked(chosen);
        legal = None;
        level = Level::Top;
        show_prompt = true;
        if game.round() != round {
            say!("End of round {round}: capital {}", capitals(&game, &before));
        }
        if game.is_over() || *game.phase() == signalbox_engine::express01::Phase::Pair {
            finished = recorder.finish(&game);
            if let Some(path) = &a.record {
                save(path, &finished)?;
            }
            show_table = true;
        }
    }
    let values: Vec<u32> = (0..game.seats().len()).map(|p| game.capital(p).total()).collect();
    match stopped {
        None => {
            say!();
            say!("{}", text::table(&game));
            say!("Game over after round {}: capital {}", game.round(), capitals(&game, &values));
            let winners: Vec<&str> = game.winners().iter().map(|&p| game.seats()[p].name.as_str()).collect();
            say!("Winner{}: {}", if winners.len() > 1 { "s (shared)" } else { "" }, winners.join(", "));
        }
        Some(why) => {
            let open = usize::from(*game.phase() != signalbox_engine::express01::Phase::Pair);
            say!(
                "Stopped ({why}) in round {}, turn {}: capital {}{}",
                game.round(),
                game.turn(),
                capitals(&game, &values),
                if open == 1 { "; the unfinished turn is not recorded" } else { "" }
            );
        }
    }
    if let Some(path) = &a.record {
        save(path, &finished)?;
        say!(
            "Record: {} ({} turns{})",
            path.display(),
            finished.turns.len(),
            if game.is_over() { ", with the result" } else { "" }
        );
    }
    Ok(())
}
