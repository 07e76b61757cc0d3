//! `signalbox`: a workbench that solves and analyses positions of railway and cube board games.
//!
//! The binary is thin: it parses the command line, calls the `signalbox-engine` and
//! `signalbox-solver` libraries, and prints. Exit codes: 0 done, 1 an internal failure or a
//! check that fails (`puzzles check` on a bad puzzle, `puzzles try` on an answer that does not
//! solve the puzzle), 2 bad input (a missing file, malformed or illegal content, a bad flag).
#![forbid(unsafe_code)]

/// Prints a line to standard output (see [`output::line`]): like `println!`, but a closed pipe
/// ends the program quietly instead of panicking.
macro_rules! say {
    () => {
        $crate::output::line(format_args!(""))
    };
    ($($arg:tt)*) => {
        $crate::output::line(format_args!($($arg)*))
    };
}

mod analysis;
mod coe;
mod cube_express;
mod express01;
mod flags;
mod input;
mod jsonl;
mod output;
mod puzzles;
mod railways;
mod serve;
mod shard;
mod table;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Solves and analyses positions of railway and cube board games.
///
/// Every exact answer is proven and comes with a certificate (the route, the move line) that
/// the rules engine checks on its own. Component data is signalbox's own house set unless you
/// pass the real components with --content.
#[derive(Parser, Debug)]
#[command(name = "signalbox", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    game: Game,
}

#[derive(Subcommand, Debug)]
enum Game {
    /// Express 01, the card game of railway networks (Germany and USA maps).
    #[command(name = "express01")]
    Express01(express01::Args),
    /// The Cubes of Europe, the solo dice game: the proven best score of a seed, batches, play.
    #[command(name = "coe")]
    Coe(coe::Args),
    /// Cube Express, tile laying for 2 to 4 players: the best turn by integer programming.
    #[command(name = "cube-express")]
    CubeExpress(cube_express::Args),
    /// Railways Express, the dice-driven track race: the fewest tiles to link each player's
    /// cities, and the win chances.
    #[command(name = "railways")]
    Railways(railways::Args),
    /// Puzzle collections of every game: make them from a seed, check them, show and try one,
    /// print a book.
    #[command(name = "puzzles")]
    Puzzles(puzzles::Args),
    /// Joins the files of the shards of one run (`--shard K/N` on `coe batch`, `coe selfplay`,
    /// `express01 selfplay --seeds`, `railways odds` and `puzzles make`) into the file (for
    /// `puzzles make`, the collection folder) the run without --shard writes, in any order the
    /// shards finished. Refuses shards of different settings or runs, parts given twice or
    /// missing, and shards that have not finished their part, naming them. Shard K of N takes
    /// the items (seeds, games, candidates) whose position from 0 leaves K-1 divided by N
    /// (docs/formats/shards.md); deploy/ runs the shards on Slurm or GNU parallel.
    ///
    /// Examples:
    ///   signalbox coe batch --seeds 1..1000 --shard 3/8 --out part-3.jsonl   (on each of 8 machines)
    ///   signalbox merge seeds.jsonl part-*.jsonl
    ///   signalbox railways odds --games 20000 --shard 2/4 --out odds-2.jsonl
    ///   signalbox merge odds.json odds-*.jsonl
    ///   signalbox puzzles make --game coe --count 30 --seed 1 --shard 1/2 --out coe-1.jsonl
    ///   signalbox merge coe-puzzles coe-*.jsonl
    #[command(verbatim_doc_comment)]
    Merge(shard::MergeArgs),
    /// The analysis board: a local web app to open a game, step through it, review it, ask the
    /// best move at any position, try other moves and solve puzzles, for all four games.
    Serve(serve::Args),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS };
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if e.downcast_ref::<input::BadInput>().is_some() {
                eprintln!("error: {e}");
                ExitCode::from(2)
            } else {
                eprintln!("error: {e:#}");
                ExitCode::from(1)
            }
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.game {
        Game::Express01(args) => express01::run(args),
        Game::Coe(args) => coe::run(args),
        Game::CubeExpress(args) => cube_express::run(args),
        Game::Railways(args) => railways::run(args),
        Game::Puzzles(args) => puzzles::run(args),
        Game::Merge(args) => shard::run(args),
        Game::Serve(args) => serve::run(args),
    }
}
