//! `signalbox express01 ...`: Express 01 commands.

mod advise;
pub(crate) mod analyse;
mod new;
mod play;
mod record;
mod replay;
mod route;
mod selfplay;
pub mod selfplay_batch;
pub(crate) mod start;
mod table;

use std::path::{Path, PathBuf};

use clap::{Subcommand, ValueEnum};
use signalbox_engine::express01::catalogue::{Catalogue, HOUSE_SET_LABEL, HOUSE_SET_TOML};
use signalbox_engine::express01::position::{Position, PositionError};
use signalbox_engine::express01::route::LengthRule;

use crate::input::{bad, read_text, text_or_embedded};

/// Express 01 commands.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// The optimal bonus route of a position, proven, with who receives which cards.
    ///
    /// The route pays 1 per station plus 1 per "+1", starts and ends at different stations,
    /// reaches no station twice, includes a station of the company, and travels at most as
    /// many cards as the company has shares issued (rulebook, "C) Initiate One Bonus Payment").
    /// Rulings on what the rulebook leaves open: docs/rules/express-01.md.
    ///
    /// Without POSITION, an embedded sample position is used (a built Germany network with a
    /// pending bonus payment).
    ///
    /// Examples:
    ///   signalbox express01 route
    ///   signalbox express01 route game.json --company red --player Peter
    ///   signalbox express01 route game.json --top 5 --json
    ///   signalbox express01 route --svg route.svg
    #[command(verbatim_doc_comment)]
    Route(route::RouteArgs),
    /// Checks a position or a game record (and the content) and says what is wrong, or that it
    /// is legal. A record is replayed with every rule checked.
    ///
    /// Examples:
    ///   signalbox express01 check table.json
    ///   signalbox express01 check game.json --json
    #[command(verbatim_doc_comment)]
    Check(CheckArgs),
    /// Replays a game record with every rule checked and prints each round's capitals and the
    /// winner; or replays a bonus route answer (as `route --json` prints it) on its position.
    ///
    /// A record (docs/formats/express01-record.md) starts from a seed or a position and lists
    /// every turn's steps; an illegal step is named by round, turn, player and action, with the
    /// rule it breaks (exit 2). A route answer is checked step by step: the payout, the cards and
    /// the cards each player receives.
    ///
    /// Examples:
    ///   signalbox express01 selfplay --seed 7 --record game.json
    ///   signalbox express01 replay game.json
    ///   signalbox express01 route --json > answer.json
    ///   signalbox express01 replay answer.json --position table.json
    #[command(verbatim_doc_comment)]
    Replay(replay::ReplayArgs),
    /// The start position of a new game: the decks shuffled by the seed, six blue route cards
    /// dealt to each player, the turn order from the highest cards shown, the black engine with
    /// turn order 1 (rulebook, "Setup"; docs/rules/express-01.md, G1 and G2). The same seed is
    /// the same game on every machine.
    ///
    /// With --table, a game at the table: nothing is shuffled; each player's six dealt cards are
    /// given with --hand, and the start is written as a table record for `play --table`
    /// (docs/rules/express-01.md).
    ///
    /// Examples:
    ///   signalbox express01 new --players 3 --seed 7
    ///   signalbox express01 new --players 4 --map usa --names Ann,Bo,Cy,Di --out start.json
    ///   signalbox express01 new --table --players 2 --names Ann,Bo --hand 236,230,221,212,207,201 --hand 233,228,219,215,209,204 --out game.json
    #[command(verbatim_doc_comment)]
    New(new::NewArgs),
    /// A whole game played by a built-in policy, from a seed: every seat random (each legal
    /// step equally likely) or greedy (the action pair raising the mover's capital most this
    /// turn). The same seed and policy play the same game on every machine.
    ///
    /// Examples:
    ///   signalbox express01 selfplay --players 3 --seed 7
    ///   signalbox express01 selfplay --players 4 --map usa --long --policy greedy --record game.json
    #[command(verbatim_doc_comment)]
    Selfplay(selfplay::SelfplayArgs),
    /// The best turn of the player to move, searched exactly over the turn's choices: the
    /// action pair, the cards paid, the upgrades (cell, card, turned or not), the shares and
    /// where from, the bonus company and the black engine, the turn order exchange. By a stated
    /// evaluation: the mover's capital less the strongest opponent's at the end of the turn
    /// (docs/rules/express-01.md). It assumes every hand and the order of every deck
    /// known, as after a game or with open hands, and says so; for a game from the table, the
    /// order of the face-down cards was never seen and the answer does not depend on it (docs/rules/express-01.md).
    /// POSITION may be a game record: the advice is at the start of its turn --turn N.
    ///
    /// In the last round (an end condition met, or met by some turn of the mover), the rest of
    /// the round is also searched to the end of the game: every remaining turn, each player
    /// maximising their own final capital (or, with --opponents paranoid, minimising the
    /// mover's lead); it prints the line, the final capitals and the winner.
    ///
    /// Without POSITION, an embedded sample (a whole game in round 7) is used. A search cut
    /// short by --time-limit prints the best found, "not proven" (the best turn with an upper
    /// bound).
    ///
    /// Examples:
    ///   signalbox express01 advise
    ///   signalbox express01 advise game.json --top 5 --json
    ///   signalbox express01 advise game.json --time-limit 10 --svg after.svg
    ///   signalbox express01 advise last-round.json --opponents paranoid
    ///   signalbox express01 advise game.json --turn 12
    #[command(verbatim_doc_comment)]
    Advise(advise::AdviseArgs),
    /// Hot-seat play of a whole game in the terminal: the board drawn when a turn starts, the
    /// hand of the player who chooses shown (only theirs), the legal steps offered as menus
    /// (grouped by kind when long) or typed in the readable form. Input is read line by line
    /// from standard input; `help` shows the notation, `board` redraws, `quit` stops.
    ///
    /// With --table, a game played with real cards (docs/rules/express-01.md): signalbox
    /// never shuffles; after each draw from face-down cards it asks which card came; `undo`
    /// takes back the last step; the record is saved after every step.
    ///
    /// Examples:
    ///   signalbox express01 play --players 2 --names Ann,Bo --record game.json
    ///   signalbox express01 play start.json --record game.json --force
    ///   signalbox express01 play --table --players 2 --names Ann,Bo --hand 236,230,221,212,207,201 --hand 233,228,219,215,209,204 --record game.json
    ///   signalbox express01 play --table game.json
    #[command(verbatim_doc_comment)]
    Play(play::PlayArgs),
    /// The review of a played game: every turn's best turn and loss by the capital lead at the
    /// end of the turn (the mover's capital less the strongest opponent's), each bonus payment
    /// checked against the best route, the capitals over the game, the turning points.
    ///
    /// Every hand and the order of every deck are assumed known, as after the game; a game from
    /// the table is reviewed without the order of its face-down cards, which nobody saw (docs/rules/express-01.md). Each turn's
    /// search stops after --states states (default 400000, the same on every machine) or
    /// --time-limit seconds; a search cut short is marked not proven. Without RECORD, the
    /// embedded sample game (3 players, Germany, seed 1, greedy with every 4th turn random).
    ///
    /// Examples:
    ///   signalbox express01 analyse
    ///   signalbox express01 analyse game.json --json
    ///   signalbox express01 analyse --html review.html
    #[command(verbatim_doc_comment)]
    Analyse(analyse::AnalyseArgs),
}

/// Where the components and the position come from.
#[derive(clap::Args, Debug, Clone)]
pub struct Sources {
    /// Position file (JSON, docs/formats/express01-position.md); default: the embedded sample.
    /// `check` also takes a game record (docs/formats/express01-record.md).
    pub position: Option<PathBuf>,
    /// Content file (TOML, docs/formats/express01-content.md) with the maps and card faces;
    /// default: the embedded house set.
    #[arg(long, value_name = "FILE")]
    pub content: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
struct CheckArgs {
    #[command(flatten)]
    sources: Sources,
    /// Print one JSON object: `{"file", "legal", "summary"}` or `{"file", "legal": false, "problems"}`.
    #[arg(long)]
    json: bool,
}

/// How route length is counted (see docs/rules/express-01.md).
#[derive(ValueEnum, Clone, Copy, Debug, Default)]
pub enum LengthArg {
    /// Every card the train is on counts, the start card included (default).
    #[default]
    AllCards,
    /// The start card is free; each card moved onto counts.
    CardsEntered,
}

impl From<LengthArg> for LengthRule {
    fn from(a: LengthArg) -> LengthRule {
        match a {
            LengthArg::AllCards => LengthRule::AllCards,
            LengthArg::CardsEntered => LengthRule::CardsEntered,
        }
    }
}

/// Runs an Express 01 command.
pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        Command::Route(a) => route::run(a),
        Command::Check(a) => check(&a),
        Command::Replay(a) => replay::run(a),
        Command::New(a) => new::run(a),
        Command::Selfplay(a) => selfplay::run(a),
        Command::Play(a) => play::run(a),
        Command::Advise(a) => advise::run(a),
        Command::Analyse(a) => analyse::run(a),
    }
}

/// Loads the content: the file given, or the embedded house set.
pub fn load_content(path: Option<&Path>) -> anyhow::Result<(String, Catalogue)> {
    let (label, text) = text_or_embedded(path, HOUSE_SET_LABEL, HOUSE_SET_TOML)?;
    let catalogue = Catalogue::from_toml(&label, &text).map_err(|e| bad(e.to_string()))?;
    Ok((label, catalogue))
}

/// Loads the position: the file given, or the embedded sample.
pub fn load_position<'c>(path: Option<&Path>, catalogue: &'c Catalogue) -> anyhow::Result<(String, Position<'c>)> {
    let result = match path {
        Some(p) => {
            let text = read_text(p)?;
            let label = p.display().to_string();
            Position::from_json(&label, &text, catalogue).map(|pos| (label, pos))
        }
        None => Position::sample(catalogue).map(|pos| ("the sample position".to_string(), pos)),
    };
    result.map_err(|e: PositionError| bad(e.to_string()))
}

/// Each problem of an illegal position on its own, or the one syntax error.
fn problems_of(e: anyhow::Error) -> Vec<String> {
    e.to_string().split_once(":\n").filter(|(head, _)| head.ends_with("not a legal Express 01 position")).map_or_else(
        || vec![e.to_string()],
        |(_, list)| list.lines().map(|l| l.trim_start_matches([' ', '-']).to_string()).collect(),
    )
}

fn check(a: &CheckArgs) -> anyhow::Result<()> {
    if let Some(path) = &a.sources.position {
        let text = read_text(path)?;
        if record::is_record(&text) {
            return record::check(&path.display().to_string(), &text, a.sources.content.as_deref(), a.json);
        }
    }
    let (content_label, catalogue) = load_content(a.sources.content.as_deref())?;
    let label = a.sources.position.as_ref().map_or("the sample position".to_string(), |p| p.display().to_string());
    let found = match load_position(a.sources.position.as_deref(), &catalogue) {
        Ok((label, position)) => Ok(format!(
            "{content_label}: {} cards, maps {}\n{label}: a legal Express 01 position on map {} with {} players{}",
            catalogue.cards().count(),
            catalogue.maps.iter().map(|m| m.id.as_str()).collect::<Vec<_>>().join(", "),
            position.map().id,
            position.players().len(),
            if position.is_table() {
                format!(
                    ", a game from the table (the order of the face-down cards never seen) in round {}, {} game",
                    position.round(),
                    position.rules().length.name()
                )
            } else if position.decks().is_some() {
                format!(
                    ", a whole game (decks given) in round {}, {} game",
                    position.round(),
                    position.rules().length.name()
                )
            } else {
                String::new()
            }
        )),
        Err(e) => Err(problems_of(e)),
    };
    crate::output::check_result(&label, found, a.json)
}
