//! `signalbox cube-express ...`: Cube Express commands.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Subcommand;
use serde_json::json;
use signalbox_engine::cube_express::catalogue::{Content, ContentError, HOUSE_SET_LABEL, HOUSE_SET_TOML};
use signalbox_engine::cube_express::describe::plural;
use signalbox_engine::cube_express::game::Game;
use signalbox_engine::cube_express::options::Options;
use signalbox_engine::cube_express::position::{
    Checked, FileKind, SAMPLE_POSITION_JSON, check_file, read_game_record, read_position, read_record,
};
use signalbox_engine::cube_express::score::{final_scores, winners};
use signalbox_solver::cube_express::advice::TurnAdvice;
use signalbox_solver::cube_express::lp::Backend;
use signalbox_solver::cube_express::plan::{Method, PlanOptions, plan_turn};
use signalbox_solver::cube_express::solo::{Budget, Why, exhaustive, points, replay as replay_solo};

use crate::input::{bad, check_new, text_or_embedded, write_new};

pub(crate) mod analyse;
mod play;
mod selfplay;
pub(crate) mod table;

/// Cube Express commands.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// The start of a game as a record: dealt from a seed, or entered from what the table shows
    /// (the objective cards, the first player, each player's tiles, the display; no stack order).
    ///
    /// Examples:
    ///   signalbox cube-express new --seed 7 --players 3 --out game.json
    ///   signalbox cube-express new --players 2 --objectives 3,7,9,12 --first red --hands 1,2,3/4,5,6 --display 10,11,12,13 --out game.json
    #[command(verbatim_doc_comment)]
    New(play::NewArgs),
    /// Plays a game turn by turn, the record saved after every step: a dealt game (--seed), or a
    /// game at the table (--table), where signalbox never shuffles and asks for each tile turned
    /// up from the stack. Actions are typed in the words the menu prints, or as menu numbers;
    /// `undo`, `board`, `help`, `quit`.
    ///
    /// Examples:
    ///   signalbox cube-express play --seed 7 --players 3 --record game.json
    ///   signalbox cube-express play --table --players 2 --objectives 3,7,9,12 --first red --hands 1,2,3/4,5,6 --display 10,11,12,13 --record game.json
    ///   signalbox cube-express play --table game.json
    #[command(verbatim_doc_comment)]
    Play(play::PlayArgs),
    /// A whole game from a seed played by a built-in policy: the planner's best turn every turn
    /// (`advise`), which sees only what the player sees. Prints JSON: the seed, the scores, the
    /// winners and the record (`replay` and `analyse` read it).
    ///
    /// Examples:
    ///   signalbox cube-express selfplay --seed 7 --players 3
    ///   signalbox cube-express selfplay --seed 7 --players 2 --out game.json
    #[command(verbatim_doc_comment)]
    Selfplay(selfplay::SelfplayArgs),
    /// The best turn for the player to move: the tile and its action, both locomotives'
    /// movements, pickups, deliveries, passengers, trades, the market, and its value.
    ///
    /// The default method searches every lay of the hand (tile, side, cell, rotation, with and
    /// without its centre action, every payment) and, for each, every legal order of the rest of
    /// the turn: the locomotives' paths, pickups, deliveries and passengers in any order on a
    /// tile, conversions, coal, stock sales and the second locomotive at any point, the market's
    /// objective cube and the discard (docs/rules/cube-express.md, "What the planner maximises"
    /// and docs/rules/cube-express.md). `--method program` solves one integer program per lay instead, as a
    /// cross-check; if its backend fails, the search answers. The best plan is replayed and
    /// re-valued from scratch by the rules engine before it is printed. With no POSITION, an
    /// embedded sample position is planned.
    ///
    /// Examples:
    /// POSITION may be a game record: with --turn T, the position before turn T (from 1; default:
    /// the turn to play next). A record or position is cut to what the table saw first: the
    /// planner never reads the order of the face-down stack, only how many tiles it holds
    /// (docs/rules/cube-express.md), so what nobody saw cannot change the answer.
    ///
    /// Examples:
    ///   signalbox cube-express advise
    ///   signalbox cube-express advise position.json --json > plan.json
    ///   signalbox cube-express advise game.json --turn 5
    ///   signalbox cube-express plan position.json --svg plan.svg
    ///   signalbox cube-express advise position.json --time-limit 0.5
    ///   signalbox cube-express advise --method program --lp-backend cbc    (a build with --features cbc)
    #[command(verbatim_doc_comment, visible_alias = "plan")]
    Advise(PlanArgs),
    /// Solitaire planning: the most points a solitaire game from SEED can bank in its first K
    /// turns, a line of turns that banks them, and the proof.
    ///
    /// The solitaire game (docs/rules/cube-express.md): one player with the
    /// 2-player tiles and stock value track; the seed's tile order, one tile in hand, drawn one
    /// per turn; no market and no objective cards. The score is the points banked: dividends,
    /// factory cubes, passengers, stations, the stock value track, 9-VP tokens.
    ///
    /// Every position the K turns can reach is searched (every lay, and every legal order of
    /// movements, pickups, deliveries, passengers and trades, with only the reduction that keeps
    /// every end position, docs/rules/cube-express.md; positions that differ only in points kept once), so the
    /// score is proven: the upper bound equals it. The line is replayed and re-scored by the
    /// rules engine; the last turn is the best turn of the exact best-turn search, valuing points
    /// banked alone. The search grows about a hundredfold with each turn: K = 2 takes under a
    /// second, K = 3 about a minute on 2 cores. The positions it keeps between turns stay within
    /// --memory (256 MB by default); with --time-limit S it stops after S seconds. Stopped, it
    /// prints the best line found so far, labelled not proven: a stopped search has no upper
    /// bound.
    ///
    /// Examples:
    ///   signalbox cube-express solo --seed 1 --turns 2
    ///   signalbox cube-express solo --seed 7 --turns 1 --json
    ///   signalbox cube-express solo --seed 1 --turns 2 --svg line.svg
    ///   signalbox cube-express solo --seed 1 --turns 3 --time-limit 10 --threads 2
    #[command(verbatim_doc_comment)]
    Solo(SoloArgs),
    /// Checks a position or a game record (and the content) and lists every problem found, or
    /// says it is legal. Exit code 0: legal; 2: problems (or an unreadable file).
    ///
    /// The file's fields tell what it is (docs/formats/cube-express-position.md): a position (an
    /// object with `board`) is checked against every rule, each problem named by its field (such
    /// as `board[3].cell`); a game record (`players` as a number, `seed` or `table`, `turns`) is replayed
    /// with every action checked, and its first illegal action is named as `turns[t][a]` (the
    /// replay cannot go past it). A bad --content file is listed as the problem.
    ///
    /// Examples:
    ///   signalbox cube-express check position.json
    ///   signalbox cube-express check game.json --json
    ///   signalbox cube-express check position.json --content my-set.toml
    #[command(verbatim_doc_comment)]
    Check(CheckArgs),
    /// Replays a game record and prints each player's score, recomputed by the rules engine.
    ///
    /// A record is JSON: `players`, `seed` (or `table`, what the table showed at the start),
    /// `options` and `turns`, each turn a list of actions (docs/formats/cube-express-position.md).
    /// An illegal action is named as `turns[t][a]`, a wrong tile turned up as `turns[t].drawn`.
    Replay(ReplayArgs),
    /// The review of a played game: every turn of every player with the played turn's value and
    /// the best turn's value (docs/rules/cube-express.md, by the best-turn planner), the loss, the best turn, the
    /// turning points, the running scores and the final scores recomputed by the rules engine.
    ///
    /// RECORD is a game record (docs/formats/cube-express-position.md, "Record"); without it, an
    /// embedded sample game (3 players, seed 15, a player who makes a few seeded mistakes). A
    /// record that does not replay is refused naming the turn, the action and the rule (exit 2).
    /// A record of a game from the table is first cut to what the table saw (a stack order it holds
    /// is dropped); no value needs a tile still face down (docs/rules/cube-express.md), so none is estimated.
    /// The values are each turn's own (V1: points banked and a documented evaluation of what the
    /// turn leaves), from what the player sees at the table; the best turn is the planner's
    /// (`cube-express plan`). With --time-limit S each position's search stops after S seconds
    /// and the values it could not prove are labelled not proven.
    ///
    /// Examples:
    ///   signalbox cube-express analyse
    ///   signalbox cube-express analyse game.json --json > review.json
    ///   signalbox cube-express analyse game.json --html review.html
    #[command(verbatim_doc_comment)]
    Analyse(analyse::AnalyseArgs),
}

#[derive(clap::Args, Debug)]
struct CheckArgs {
    /// The position or game record (JSON).
    file: PathBuf,
    /// Print JSON: `file`, `kind` (`position`, `record` or null), `legal`, `problems`.
    #[arg(long)]
    json: bool,
    /// Content file (TOML, docs/formats/cube-express-content.md); default: the embedded house set.
    #[arg(long, value_name = "FILE")]
    content: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
struct ReplayArgs {
    /// The game record (JSON).
    record: PathBuf,
    /// Print JSON: the scores by part, the winners, whether the game is over.
    #[arg(long)]
    json: bool,
    /// Content file (TOML); default: the embedded house set.
    #[arg(long, value_name = "FILE")]
    content: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
struct SoloArgs {
    /// The seed of the solitaire game (its tile order).
    #[arg(long)]
    seed: u64,
    /// Turns to plan, from the start of the game (1 or more).
    #[arg(long, value_name = "K")]
    turns: usize,
    /// Print JSON: `score`, `bound`, `gap`, `proven`, `line` (each turn's actions).
    #[arg(long)]
    json: bool,
    /// Draw the network after the line, the tiles laid with their turns and every turn's
    /// locomotive paths to FILE (SVG).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Replace an existing --svg file.
    #[arg(long)]
    force: bool,
    /// Stop after S seconds and print the best line found so far, labelled not proven (a stopped
    /// search gives no upper bound).
    #[arg(long, value_name = "S", allow_negative_numbers = true, value_parser = crate::flags::seconds)]
    time_limit: Option<Duration>,
    /// The most memory the positions kept between turns may take, in MB; at it the search stops
    /// cleanly with the best line found so far, labelled not proven. The estimate is counted from
    /// the positions' sizes, so where it stops does not depend on the machine.
    #[arg(long, value_name = "MB", default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    memory: u64,
    /// Threads (default: one per core). The answer does not depend on it.
    #[arg(long, value_name = "T", allow_negative_numbers = true, value_parser = crate::flags::threads)]
    threads: Option<usize>,
    /// Content file (TOML, docs/formats/cube-express-content.md); default: the embedded house set.
    #[arg(long, value_name = "FILE")]
    content: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
struct PlanArgs {
    /// A position or a game record (JSON, docs/formats/cube-express-position.md); default: the
    /// embedded sample position.
    position: Option<PathBuf>,
    /// With a game record: the position before turn T (from 1); default: the turn to play next.
    #[arg(long, value_name = "T")]
    turn: Option<usize>,
    /// Print JSON: `value`, `proven`, `upper_bound`, `plan` (the actions), the value by part
    /// (`parts`), the `method` with its counts, and `fallback` (why the programs did not answer).
    #[arg(long)]
    json: bool,
    /// Draw the network with the tile laid and each locomotive's path to FILE (SVG).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Replace an existing --svg file.
    #[arg(long)]
    force: bool,
    /// The exact method: search (every legal order of the turn, the default) or program (one
    /// integer program per lay, the cross-check; a backend failure falls back to the search).
    #[arg(long, value_name = "NAME", default_value = "search")]
    method: String,
    /// The integer-programming backend of --method program: microlp (built in), lpsolve (a build
    /// with --features lpsolve) or cbc (a build with --features cbc).
    #[arg(long, value_name = "NAME", default_value = "microlp")]
    lp_backend: String,
    /// Stop after S seconds (the whole command with the search; each program with --method
    /// program) and print the best plan found with an upper bound, labelled not proven.
    #[arg(long, value_name = "S", allow_negative_numbers = true, value_parser = crate::flags::seconds)]
    time_limit: Option<Duration>,
    /// Threads (default: one per core). The answer does not depend on it.
    #[arg(long, value_name = "T", allow_negative_numbers = true, value_parser = crate::flags::threads)]
    threads: Option<usize>,
    /// Content file (TOML, docs/formats/cube-express-content.md); default: the embedded house set.
    #[arg(long, value_name = "FILE")]
    content: Option<PathBuf>,
}

/// Runs a Cube Express command.
pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        Command::New(a) => play::new(a),
        Command::Play(a) => play::play(a),
        Command::Advise(a) => plan(a),
        Command::Selfplay(a) => selfplay::run(a),
        Command::Solo(a) => solo(a),
        Command::Check(a) => check(a),
        Command::Replay(a) => replay(a),
        Command::Analyse(a) => analyse::run(a),
    }
}

fn check(a: CheckArgs) -> anyhow::Result<()> {
    let label = a.file.display().to_string();
    let text = crate::input::read_text(&a.file)?;
    let (content_label, content_text) = text_or_embedded(a.content.as_deref(), HOUSE_SET_LABEL, HOUSE_SET_TOML)?;
    let checked = match Content::from_toml(&content_label, &content_text) {
        Ok(content) => check_file(Arc::new(content), &label, &text),
        Err(ContentError::Syntax(e)) => Checked { kind: None, problems: vec![e.to_string()], game: None },
        Err(ContentError::Invalid { file, problems }) => {
            Checked { kind: None, problems: problems.iter().map(|p| format!("{file}: {p}")).collect(), game: None }
        }
    };
    let kind = checked.kind.map_or("Cube Express file", FileKind::name);
    if a.json {
        let out = json!({
            "file": label,
            "kind": checked.kind,
            "legal": checked.problems.is_empty(),
            "problems": checked.problems,
        });
        say!("{}", serde_json::to_string_pretty(&out)?);
        if !checked.problems.is_empty() {
            return Err(bad(format!("{label}: not a legal {kind} ({})", plural(checked.problems.len(), "problem"))));
        }
        return Ok(());
    }
    let Some(game) = checked.game.filter(|_| checked.problems.is_empty()) else {
        let list: Vec<String> = checked.problems.iter().map(|p| format!("  - {p}")).collect();
        return Err(bad(format!(
            "{label}: not a legal {kind} ({}):\n{}",
            plural(checked.problems.len(), "problem"),
            list.join("\n")
        )));
    };
    let players = game.players();
    let n = if game.is_solo() { "1 player, solitaire".to_string() } else { plural(players.len(), "player") };
    let colour = players[usize::from(game.active())].colour;
    let content = if content_label == HOUSE_SET_LABEL { "the house set".to_string() } else { content_label };
    match checked.kind {
        Some(FileKind::Record) => say!(
            "{label}: a legal Cube Express game record: {n}, {} replayed, {} (content: {content})",
            plural(game.turns_played(), "turn"),
            if game.is_over() { "game over".to_string() } else { format!("{colour} to play next") }
        ),
        _ => say!(
            "{label}: a legal Cube Express position: {n}, turn {}, {colour} to play (content: {content})",
            game.turns_played() + 1
        ),
    }
    Ok(())
}

fn solo(a: SoloArgs) -> anyhow::Result<()> {
    if a.turns == 0 {
        return Err(bad("--turns 0: expected at least one turn"));
    }
    if let Some(path) = &a.svg {
        check_new(path, a.force)?;
    }
    let content = load_content(a.content.as_deref())?;
    let game = Game::solo(content.clone(), a.seed, Options::default()).map_err(|e| bad(e.to_string()))?;
    let bar = crate::flags::progress(1, "positions", a.json);
    let started = Instant::now();
    let budget = Budget {
        deadline: a.time_limit.map(|t| started + t),
        memory: Some(usize::try_from(a.memory.saturating_mul(1 << 20)).unwrap_or(usize::MAX)),
    };
    let found = signalbox_solver::threads::install(a.threads, || {
        exhaustive(&game, a.turns, &budget, &|turn, searched, positions| {
            bar.set_message(format!("· turn {turn}"));
            bar.set_length(positions as u64);
            bar.set_position(searched as u64);
        })
    });
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    if found.rejected > 0 {
        anyhow::bail!(
            "the engine refused {} of the search: a solver bug, so no score is claimed",
            plural(found.rejected, "turn plan")
        );
    }
    let games = replay_solo(&game, &found.turns).map_err(|e| anyhow::anyhow!("the line does not replay: {e}"))?;
    let checked = games.last().map_or(found.start, points);
    if checked != found.score {
        anyhow::bail!("the engine scores the line {checked}, the search {}", found.score);
    }
    let proven = found.stopped.is_none();
    if let Some(path) = &a.svg {
        let claim = if proven {
            format!("best score {}", found.score)
        } else {
            format!("score {} (found, not proven)", found.score)
        };
        let title = format!("Cube Express solitaire · seed {} · {} · {claim}", a.seed, plural(a.turns, "turn"));
        write_new(path, &signalbox_render::cube_express::picture::line_svg(&game, &found.turns, &title), a.force)?;
    }
    if a.json {
        let out = json!({
            "seed": a.seed,
            "turns": a.turns,
            "turns_played": found.turns.len(),
            "start": found.start,
            "score": found.score,
            "bound": proven.then_some(found.score),
            "gap": proven.then_some(0),
            "proven": proven,
            "method": "exhaustive",
            "stopped": found.stopped.map(|s| json!({
                "turn": s.turn,
                "searched": s.searched,
                "positions": s.positions,
                "held_turns": s.held,
                "why": match s.why { Why::Time => "time", Why::Memory => "memory" },
            })),
            "line": found.turns,
            "positions": found.positions,
            "plans": found.plans,
        });
        say!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    say!("Cube Express solitaire · seed {} · {}", a.seed, plural(a.turns, "turn"));
    say!("Content: {}", content_label(&content));
    let searched: Vec<String> = found.positions.iter().map(usize::to_string).collect();
    match found.stopped {
        None => say!(
            "Best score: {} (from {}), proven by exhaustive search: bound {}, gap 0 (positions searched per turn: {}; {})",
            found.score,
            found.start,
            found.score,
            searched.join(", "),
            plural(found.plans, "turn end")
        ),
        Some(s) => {
            let what = match s.why {
                Why::Time => "the time limit".to_string(),
                Why::Memory => format!("the memory budget ({} MB, --memory)", a.memory),
            };
            say!(
                "Score found: {} (from {}), not proven: {what} stopped the exhaustive search during turn {} ({} of {} searched). A stopped search gives no upper bound.",
                found.score,
                found.start,
                s.turn,
                s.searched,
                plural(s.positions, "position")
            );
            if s.held > 0 {
                say!(
                    "The line is the best position reached, carried on by {} that lay the tile banking the most at once and move nothing.",
                    plural(s.held, "turn")
                );
            }
        }
    }
    for (t, (actions, g)) in found.turns.iter().zip(&games).enumerate() {
        let after = games.get(t + 1).map_or(points(g), points);
        say!("Turn {} (points banked: {} before the turn, {after} after):", t + 1, points(g));
        for (i, words) in g.describe_turn(actions).iter().enumerate() {
            say!("  {:>2}. {words}", i + 1);
        }
    }
    if found.turns.len() < a.turns {
        say!("The game ended after turn {}.", found.turns.len());
    }
    say!("Checked: the rules engine replayed the line and scored it {checked}.");
    eprintln!("Searched in {seconds:.2} s.");
    Ok(())
}

fn replay(a: ReplayArgs) -> anyhow::Result<()> {
    let content = load_content(a.content.as_deref())?;
    let label = a.record.display().to_string();
    let text = crate::input::read_text(&a.record)?;
    let record = read_record(&label, &text).map_err(|e| bad(e.to_string()))?;
    let game = record.replay(content, &label).map_err(|e| bad(e.to_string()))?;
    let scores = final_scores(&game);
    let winners = winners(&game);
    let colours: Vec<_> = game.players().iter().map(|p| p.colour).collect();
    if a.json {
        let out = json!({
            "turns": record.turns.len(),
            "over": game.is_over(),
            "scores": colours.iter().zip(&scores).map(|(c, s)| json!({ "player": c, "total": s.total(), "parts": s })).collect::<Vec<_>>(),
            "winners": winners.iter().map(|&w| colours[w]).collect::<Vec<_>>(),
        });
        say!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    say!(
        "{label}: {}, {}",
        plural(record.turns.len(), "turn"),
        if game.is_over() { "game over" } else { "game not over (scores as if it ended now)" }
    );
    for (c, s) in colours.iter().zip(&scores) {
        say!(
            "  {c:<6} {:>3}  (objectives {}, passengers {}, factories {}, stations {}, stock {}, dividends {}, tokens {})",
            s.total(),
            s.objectives,
            s.passengers,
            s.factories,
            s.stations,
            s.stock,
            s.dividends,
            s.tokens
        );
    }
    let names: Vec<String> = winners.iter().map(|&w| colours[w].to_string()).collect();
    say!("Winner: {}", names.join(" and "));
    Ok(())
}

fn load_content(path: Option<&Path>) -> anyhow::Result<Arc<Content>> {
    let (label, text) = text_or_embedded(path, HOUSE_SET_LABEL, HOUSE_SET_TOML)?;
    Content::from_toml(&label, &text).map(Arc::new).map_err(|e| bad(e.to_string()))
}

/// The position a file holds, or the one before turn `turn` (from 1) of the game record it holds
/// (default: the turn to play next), the record cut to what the table saw.
fn load_position(content: Arc<Content>, path: Option<&Path>, turn: Option<usize>) -> anyhow::Result<(String, Game)> {
    let (label, text) = text_or_embedded(path, "the sample position", SAMPLE_POSITION_JSON)?;
    let is_record = matches!(serde_json::from_str::<serde_json::Value>(&text),
        Ok(serde_json::Value::Object(o)) if o.get("players").is_some_and(serde_json::Value::is_number));
    if !is_record {
        if turn.is_some() {
            return Err(bad(format!("--turn: {label} is a position, not a game record")));
        }
        let game = read_position(content, &label, &text).map_err(|e| bad(e.to_string()))?;
        return Ok((label, game));
    }
    let record = read_game_record(&label, &text).map_err(|e| bad(e.to_string()))?;
    let seen = record.seen(content.clone(), &label).map_err(|e| bad(e.to_string()))?;
    let mut games = seen.games(content, &label).map_err(|e| bad(e.to_string()))?;
    let t = turn.unwrap_or(games.len());
    if t == 0 || t > games.len() {
        return Err(bad(format!(
            "--turn {t}: {label} has {} played; give 1 to {}",
            plural(games.len() - 1, "turn"),
            games.len()
        )));
    }
    let label = format!("{label}, before turn {t}");
    Ok((label, games.swap_remove(t - 1)))
}

fn plan(a: PlanArgs) -> anyhow::Result<()> {
    crate::flags::stop_on_interrupt(a.time_limit);
    let backend: Backend = a.lp_backend.parse().map_err(bad)?;
    if !Backend::available().contains(&backend) {
        return Err(bad(format!(
            "--lp-backend {backend}: this build has no {backend} backend (build with --features {backend})"
        )));
    }
    if let Some(path) = &a.svg {
        check_new(path, a.force)?;
    }
    let content = load_content(a.content.as_deref())?;
    let (label, game) = load_position(content.clone(), a.position.as_deref(), a.turn)?;
    let game = game.seen();
    if game.is_over() {
        return Err(bad(format!("{label}: the game is over")));
    }
    let method: Method = a.method.parse().map_err(|e: String| bad(format!("--method: {e}")))?;
    let options =
        PlanOptions { method, backend, time_limit: a.time_limit, threads: a.threads, ..PlanOptions::default() };
    let started = Instant::now();
    let planned = plan_turn(&game, &options)?;
    let seconds = started.elapsed().as_secs_f64();
    let advice = TurnAdvice::new(label.as_str(), &game, &planned, &options, analyse::UNSEEN);
    let colour = advice.player;
    if let Some(path) = &a.svg {
        let title = format!("Cube Express · {label} · {colour} to play · value {}", planned.value);
        write_new(path, &signalbox_render::cube_express::picture::plan_svg(&game, &planned.actions, &title), a.force)?;
    }
    let proven = advice.proven;
    if a.json {
        say!("{}", serde_json::to_string_pretty(&advice)?);
        return Ok(());
    }
    say!("Cube Express · {label} · {colour} to play (turn {})", game.turns_played() + 1);
    say!("Content: {}", content_label(&content));
    let label_proven = match (proven, planned.upper_bound) {
        (true, _) => " (optimal)".to_string(),
        (false, Some(b)) => format!(" (time limit: best found, not proven; at most {b})"),
        (false, None) => " (not proven)".to_string(),
    };
    let how = match planned.method {
        Method::Search => format!(
            "search: {}, {} searched, {}",
            plural(planned.lays, "lay"),
            plural(planned.distinct, "network"),
            plural(planned.positions as usize, "position")
        ),
        Method::Program => format!(
            "programs: {}, {}, {} solved, the rest cut off by their LP bound; {backend}",
            plural(planned.lays, "lay"),
            plural(planned.distinct, "distinct program"),
            planned.programs
        ),
    };
    say!("Best turn{label_proven}: value {} ({how})", planned.value);
    eprintln!("Planned in {seconds:.2} s.");
    if let Some(why) = &planned.fallback {
        say!("Note: the programs failed ({why}).");
    }
    for (i, words) in advice.words.iter().enumerate() {
        say!("  {:>2}. {words}", i + 1);
    }
    let by_part = &advice.parts;
    say!(
        "Value {}: banked {:+} (dividends, factories, passengers, stations, stock, tokens), objective cubes {:+}, resources {:+}, facilities {:+}, locomotive {:+}, technology {:+}",
        planned.value,
        by_part.banked,
        by_part.objectives,
        by_part.resources,
        by_part.facilities,
        by_part.locomotive,
        by_part.technology
    );
    say!("Checked: the rules engine replayed the plan and valued it {}.", planned.value);
    say!("{}.", analyse::UNSEEN);
    Ok(())
}

/// The content's name, marked when it is the house set.
fn content_label(content: &Content) -> String {
    let mark = if content.house_set { " (house set, not the publisher's components)" } else { "" };
    format!("{}{mark}", content.name)
}
