//! `signalbox coe ...`: The Cubes of Europe commands.

use std::path::{Path, PathBuf};

use clap::Subcommand;
use serde_json::json;
use signalbox_engine::coe::catalogue::{Catalogue, HOUSE_SET_LABEL, HOUSE_SET_TOML};
use signalbox_engine::coe::{Instance, Record};

use crate::input::{bad, read_text, text_or_embedded};

mod advise;
pub(crate) mod analyse;
pub mod batch;
pub mod selfplay;

mod new;
mod play;
mod solve;
mod standing;
pub(crate) mod table;

/// The Cubes of Europe commands.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Everything a seed fixes: board card, deck order, reshuffle order, dice.
    ///
    /// The seed draws the board card, the market deck in order, the reshuffle order and every
    /// die roll (docs/rules/cubes-of-europe.md; the derivation is in the engine's
    /// `coe::instance`). The yellow start space stays the player's choice.
    ///
    /// Examples:
    ///   signalbox coe instance --seed 1
    ///   signalbox coe instance --seed 1 --json > game.json
    #[command(verbatim_doc_comment)]
    Instance(InstanceArgs),
    /// The start of a game as a record: dealt from a seed, or a game at the table entered from
    /// what it shows (the board card, and the market's two cards if they are out already).
    ///
    /// A table record holds only what was seen; `coe play --table RECORD` goes on with it.
    ///
    /// Examples:
    ///   signalbox coe new --seed 7 --out seed7.json
    ///   signalbox coe new --board 5 --market 2,8 --out game.json
    ///   signalbox coe play --table game.json
    #[command(verbatim_doc_comment)]
    New(new::NewArgs),
    /// Plays a game in the terminal: the board is drawn, the legal moves listed; type a move in
    /// the words signalbox prints or its number (one per line; lines can come from a file:
    /// `< moves.txt`).
    ///
    /// With --table, a game played at the table: signalbox never rolls or shuffles. It asks for
    /// each card as it comes up (its number or name) and each roll as it is rolled (`3 5`), takes
    /// each move in words or by its number, and saves the record after every step, so a crash
    /// loses nothing. `undo` takes back the last step, `board` draws the table again, `help`
    /// lists the words, `quit` stops (the record is kept; go on with `coe play --table RECORD`).
    /// The record holds only what the table saw, and `coe analyse` reviews it.
    ///
    /// Examples:
    ///   signalbox coe play --seed 1 --record game.json
    ///   signalbox coe play --table --board 5 --record game.json
    ///   signalbox coe play --table game.json
    ///   signalbox coe analyse game.json
    #[command(verbatim_doc_comment)]
    Play(play::PlayArgs),
    /// The proven maximum score of a seed (or an entered instance) and the line that reaches it.
    ///
    /// The search tries every decision of the game (the start space, every use of both dice,
    /// every choice red, white and overflow open) and proves nothing scores more: a beam search
    /// finds a first line, then branch and bound over turn positions with an admissible bound
    /// cuts whatever cannot beat it. The line is replayed and re-scored by the rules engine
    /// before it is printed. The perfect-score bound is the bound of the start, before search.
    /// With --time-limit the best line found so far is printed with an upper bound, marked not
    /// proven. One thread or many give the same score and line.
    ///
    /// Examples:
    ///   signalbox coe solve --seed 1
    ///   signalbox coe solve --seed 7 --time-limit 30 --json > best.json
    ///   signalbox coe solve --seed 1 --svg seed1.svg
    ///   signalbox coe replay best.json
    ///   signalbox coe instance --seed 3 --json > table.json   (edit the dice)
    ///   signalbox coe solve --instance table.json
    #[command(verbatim_doc_comment)]
    Solve(solve::SolveArgs),
    /// Solves a range of seeds: a progress bar, one JSON line per seed, then a summary (score
    /// histogram, share of each rank, share winnable, solve times).
    ///
    /// With --out, each seed's line is appended as soon as it is solved, and a rerun with the
    /// same file skips the seeds already there (so an interrupted batch resumes).
    ///
    /// Examples:
    ///   signalbox coe batch --seeds 1..200 --out seeds.jsonl --time-limit 60
    #[command(verbatim_doc_comment)]
    Batch(batch::BatchArgs),
    /// Replays a game record and prints the score the rules engine recomputes.
    ///
    /// A record is JSON: `instance` (as `coe instance --json` prints it), `rules`
    /// (`max_workers`, optional `max_turns`) and `moves`. An illegal move is named by its index.
    Replay(ReplayArgs),
    /// Checks a file and says what is wrong, or that it is sound: an instance (`coe instance
    /// --json`), a game record (replayed move by move, its claimed score checked) or a batch file
    /// (`coe batch --out`: its settings, and every line replayed and checked); the kind is told by
    /// the file's fields.
    ///
    /// Examples:
    ///   signalbox coe check table.json
    ///   signalbox coe check best.json --json
    ///   signalbox coe check seeds.jsonl
    #[command(verbatim_doc_comment)]
    Check(CheckArgs),
    /// Reviews a played game decision by decision: the best final score still reachable before
    /// and after each move (exact, knowing the future dice and cards), the loss, the best move,
    /// the turning points; without RECORD, an embedded sample game.
    ///
    /// Only a seed's own deal is reviewed knowing the future. A game entered at the table (`coe
    /// play --table`), or any record that is not exactly a seed's deal, is reviewed from what the
    /// table saw: each value is the expected final score over the cards and dice still to come
    /// (exact in the last 2 turns, else estimated with a 95% interval; docs/rules/cubes-of-europe.md).
    ///
    /// A decision is one move of the record: the start space, each die's use (its number, the
    /// workers it pays, the free shift), each red chain, white gain, overflow return and pass.
    /// Moves may be written in the words `coe solve` prints (docs/formats/coe-records.md).
    ///
    /// Examples:
    ///   signalbox coe analyse
    ///   signalbox coe analyse game.json --html game.html
    ///   signalbox coe analyse game.json --json > review.json
    #[command(verbatim_doc_comment)]
    Analyse(analyse::AnalyseArgs),
    /// The best use of a roll without knowing the future: every legal use of the roll ranked by
    /// its fair-play value (the expected final score under the best play when the dice to come
    /// are uniform and the unseen cards come in a random order), with its 95% interval where it
    /// is estimated, and the hindsight maximum beside it for contrast.
    ///
    /// Positions with at most 2 turns left are valued exactly (expectimax over every roll and
    /// card to come); earlier ones by playouts (docs/rules/cubes-of-europe.md).
    ///
    /// Examples:
    ///   signalbox coe advise --seed 1 --turn 1 --roll 3,5
    ///   signalbox coe advise --seed 1 --turn 11 --roll 2,6 --json
    ///   signalbox coe advise game.json --roll 4,4
    #[command(verbatim_doc_comment)]
    Advise(advise::AdviseArgs),
    /// Plays a range of seeds by a policy that sees only what a player sees: a progress bar, one
    /// JSON line per seed, then a summary (score histogram, rank shares, win rate, mean, and the
    /// mean gap to the hindsight maximum where a `coe batch` file gives it).
    ///
    /// Examples:
    ///   signalbox coe selfplay --seeds 1..100 --policy fair
    ///   signalbox coe selfplay --seeds 1..1000 --policy greedy --out greedy.jsonl --hindsight reports/cubes-of-europe-seeds.jsonl
    #[command(verbatim_doc_comment)]
    Selfplay(selfplay::SelfplayArgs),
    /// Where a result stands: a seed and a final score give the seed's maximum (the best score
    /// knowing every die and card to come, proven by `coe batch`), and the score's place and
    /// percentile among the fair player's games of seeds 1 to 10,000 (the player of `coe selfplay
    /// --policy fair`, who sees only what a player sees; reports/cubes-of-europe-fair-play.md).
    ///
    /// Examples:
    ///   signalbox coe standing --seed 1 --score 35
    ///   signalbox coe standing --seed 648 --score 39 --json
    #[command(verbatim_doc_comment)]
    Standing(standing::StandingArgs),
}

#[derive(clap::Args, Debug)]
struct CheckArgs {
    /// The file: an instance, a game record or a batch file.
    file: PathBuf,
    /// Print one JSON object: `{"file", "legal", "summary"}` or `{"file", "legal": false, "problems"}`.
    #[arg(long)]
    json: bool,
    /// Content file (TOML); default: the embedded house set.
    #[arg(long, value_name = "FILE")]
    content: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
struct InstanceArgs {
    /// The seed.
    #[arg(long)]
    seed: u64,
    /// Print JSON (an instance, as game records and `--instance` files hold it).
    #[arg(long)]
    json: bool,
    /// Content file (TOML, docs/formats/coe-content.md); default: the embedded house set.
    #[arg(long, value_name = "FILE")]
    content: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
struct ReplayArgs {
    /// The game record.
    record: PathBuf,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// Content file (TOML); default: the embedded house set.
    #[arg(long, value_name = "FILE")]
    content: Option<PathBuf>,
}

/// Runs a Cubes of Europe command.
pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        Command::Instance(a) => instance(a),
        Command::Replay(a) => replay(a),
        Command::Check(a) => check(a),
        Command::Solve(a) => {
            let catalogue = load_content(a.search.content.as_deref())?;
            solve::run(a, &catalogue)
        }
        Command::Batch(a) => {
            let (catalogue, text) = content(a.search.content.as_deref())?;
            batch::run(a, &catalogue, &text)
        }
        Command::Analyse(a) => analyse::run(a),
        Command::Advise(a) => advise::run(a),
        Command::Selfplay(a) => selfplay::run(a),
        Command::Standing(a) => standing::run(a),
        Command::New(a) => {
            let catalogue = load_content(a.content.as_deref())?;
            new::run(a, &catalogue)
        }
        Command::Play(a) => {
            let catalogue = load_content(a.content.as_deref())?;
            play::run(a, &catalogue)
        }
    }
}

/// The content file named (or the house set) with its text, which batch files fingerprint.
pub fn content(path: Option<&Path>) -> anyhow::Result<(Catalogue, String)> {
    let (label, text) = text_or_embedded(path, HOUSE_SET_LABEL, HOUSE_SET_TOML)?;
    let catalogue = Catalogue::from_toml(&label, &text).map_err(|e| bad(e.to_string()))?;
    Ok((catalogue, text))
}

fn load_content(path: Option<&Path>) -> anyhow::Result<Catalogue> {
    let (label, text) = text_or_embedded(path, HOUSE_SET_LABEL, HOUSE_SET_TOML)?;
    Catalogue::from_toml(&label, &text).map_err(|e| bad(e.to_string()))
}

fn name(catalogue: &Catalogue, id: u8) -> String {
    catalogue.card(id).map_or_else(|| id.to_string(), |c| format!("{id} {}", c.name))
}

fn instance(a: InstanceArgs) -> anyhow::Result<()> {
    let catalogue = load_content(a.content.as_deref())?;
    let instance = Instance::from_seed(a.seed);
    if a.json {
        say!("{}", serde_json::to_string_pretty(&instance)?);
        return Ok(());
    }
    say!("The Cubes of Europe · seed {}", a.seed);
    say!("Content:   {}", catalogue.label());
    say!("Board:     card {}", name(&catalogue, instance.board));
    let names = |ids: &[u8]| ids.iter().map(|&i| name(&catalogue, i)).collect::<Vec<_>>().join(", ");
    say!("Deck:      {} (top first; the first card starts the market)", names(&instance.deck));
    say!("Reshuffle: {} (the cards then in the market, in this order)", names(&instance.reshuffle));
    let dice: Vec<String> = instance.dice.iter().map(|d| format!("{}{}", d[0], d[1])).collect();
    say!("Dice:      {} (one pair per turn)", dice.join(" "));
    Ok(())
}

fn replay(a: ReplayArgs) -> anyhow::Result<()> {
    let catalogue = load_content(a.content.as_deref())?;
    let label = a.record.display().to_string();
    let text = read_text(&a.record)?;
    let record = Record::from_json(&label, &text).map_err(|e| bad(e.to_string()))?;
    let (game, score) = record.replay(&catalogue, &label).map_err(|e| bad(e.to_string()))?;
    if a.json {
        let out = json!({
            "score": score.total(),
            "rank": score.rank(),
            "breakdown": score,
            "over": game.is_over(),
            "turns": game.turn(),
            "moves": record.moves.len(),
        });
        say!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    say!(
        "{label}: {} moves, {} turns{}",
        record.moves.len(),
        game.turn(),
        if game.is_over() { ", game over" } else { ", game not over (score so far)" }
    );
    say!("Score {score}");
    Ok(())
}

fn check(a: CheckArgs) -> anyhow::Result<()> {
    let (content_label, content_text) = text_or_embedded(a.content.as_deref(), HOUSE_SET_LABEL, HOUSE_SET_TOML)?;
    let catalogue = Catalogue::from_toml(&content_label, &content_text).map_err(|e| bad(e.to_string()))?;
    let label = a.file.display().to_string();
    if std::fs::metadata(&a.file).is_ok_and(|m| !m.is_file()) {
        return Err(bad(format!("{label}: not a regular file")));
    }
    let file = std::fs::File::open(&a.file).map_err(|e| bad(format!("{label}: cannot read: {e}")))?;
    let mut head = [0u8; 64];
    let n = std::io::Read::read(&mut (&file), &mut head).unwrap_or(0);
    let start = String::from_utf8_lossy(&head[..n]);
    let start = start.trim_start();
    let found = if start.starts_with("{\"settings\"") || start.starts_with("{\"seed\"") {
        check_batch(&file, &catalogue, &content_text)
    } else {
        check_json(&label, &read_text(&a.file)?, &catalogue)
    };
    crate::output::check_result(&label, found, a.json)
}

/// Checks a batch file, under the settings it records and the content given.
fn check_batch(file: &std::fs::File, catalogue: &Catalogue, content_text: &str) -> Result<String, Vec<String>> {
    use std::io::Seek as _;
    let mut file = file;
    file.rewind().map_err(|e| vec![format!("cannot read: {e}")])?;
    let fingerprint = batch::Settings::fingerprint(content_text);
    let scan = batch::scan(file, catalogue, |s| {
        if s.content_fingerprint == fingerprint {
            Ok(())
        } else {
            Err(format!(
                "solved with content {} (fingerprint {}), checked with {} (fingerprint {fingerprint}); pass that content with --content",
                s.content, s.content_fingerprint, catalogue.label()
            ))
        }
    })
    .map_err(|m| vec![m])?;
    let Some(settings) = scan.settings else {
        return Err(vec!["an empty file: no settings line".into()]);
    };
    let proven = scan.lines.values().filter(|l| l.proven).count();
    let mut summary = format!(
        "a sound batch file: {} seed line{} ({proven} proven), each replayed and checked; settings: {}",
        scan.lines.len(),
        if scan.lines.len() == 1 { "" } else { "s" },
        settings.describe()
    );
    if let Some((number, _)) = scan.torn {
        summary += &format!(
            "\nline {number} is incomplete (a batch stopped while writing it): the next batch on this file drops it and solves its seed again"
        );
    }
    Ok(summary)
}

/// Checks an instance or a game record, told apart by their fields.
fn check_json(label: &str, text: &str, catalogue: &Catalogue) -> Result<String, Vec<String>> {
    let value: serde_json::Value =
        signalbox_engine::source::parse_json(label, text).map_err(|e| vec![e.to_string()])?;
    if value.get("moves").is_some() {
        let record = Record::from_json(label, text).map_err(|e| vec![e.to_string()])?;
        let (game, score) = record.replay(catalogue, label).map_err(|e| vec![e.to_string()])?;
        Ok(format!(
            "a legal game record: {} move{}, {} turn{}{}; score {score}",
            record.moves.len(),
            if record.moves.len() == 1 { "" } else { "s" },
            game.turn(),
            if game.turn() == 1 { "" } else { "s" },
            if game.is_over() { ", game over" } else { ", game not over (score so far)" }
        ))
    } else if value.get("deck").is_some() {
        let instance: Instance = signalbox_engine::source::parse_json(label, text).map_err(|e| vec![e.to_string()])?;
        instance.check().map_err(|m| vec![format!("{label}: {m}")])?;
        Ok(format!(
            "a legal instance: board card {}, {} turns of dice",
            name(catalogue, instance.board),
            instance.dice.len()
        ))
    } else {
        Err(vec![format!(
            "{label}: not an instance (no field `deck`), a game record (no field `moves`) or a batch file (no settings line)"
        )])
    }
}
