//! `signalbox railways ...`: Railways Express commands.

mod analyse;
pub mod odds_file;
mod play;
pub(crate) mod table;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Subcommand;
use serde_json::json;
use signalbox_engine::grid::hex::Hex;
use signalbox_engine::railways::catalogue::{Content, ContentError, HOUSE_MAP_LABEL, HOUSE_MAP_TOML, Supply};
use signalbox_engine::railways::colour::{CityColour, Colour};
use signalbox_engine::railways::dice::Roll;
use signalbox_engine::railways::game::{Action, Game};
use signalbox_engine::railways::position::{PositionError, SAMPLE_POSITION_JSON, SAMPLE_POSITION_LABEL};
use signalbox_engine::railways::record::{Move, Replay, read, replay, replay_setup};
use signalbox_engine::railways::track::Ends;
use signalbox_solver::railways::advice::{self, PlanAdvice};
use signalbox_solver::railways::link::{Linked, NoPlan, link_all};
use signalbox_solver::railways::odds::{Odds, OddsOptions, odds, play_games, tally};
use signalbox_solver::railways::roll::{Advice, best_use};

use crate::input::{bad, check_new, read_text, text_or_embedded, write_new};

/// Railways Express commands.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// How far each player really is from linking their four cities: the fewest tiles each must
    /// still build within the tile supply, proven, and one plan that builds that few for the
    /// player to move (or --player).
    ///
    /// A plan is a tree of new track over the player's network and the cities still to link:
    /// tiles only on hexes between the cities, one tile of the player per hex, no entry into
    /// another colour's city, at most two connections to a gray city, each city side entered
    /// once, the curves of the game's options, and every tile from the supply the position has
    /// left (shared by all players): a straight or curved tile from its pile, a tile over another
    /// player's a crossing tile while any is left (docs/rules/railways-express.md).
    /// When no plan fits the supply, it says so (JSON: "tiles": null and a "reason"). Terrain
    /// does not change the count (a die face builds anywhere) but is printed for each tile, and
    /// it sets the expected turns each plan takes under the dice (exact for that plan, by dynamic
    /// programming; the other players and re-rolls left out). The plan is replayed by the rules
    /// engine before it is printed. With no POSITION, an embedded sample position is planned.
    /// Tiles, slots and dice are numbered from 0, as in the JSON.
    ///
    /// Examples:
    ///   signalbox railways plan
    ///   signalbox railways plan position.json --player red --svg plan.svg
    ///   signalbox railways plan --json
    ///   signalbox railways plan --roll SS,SC,plains,any
    ///
    /// With --roll: every pairing and every sequence of legal builds is searched. A build lowers
    /// the fewest tiles still needed by one at most, and by none when it leaves every minimum
    /// plan, which can still pay: it may turn the track so that the next tiles fit the dice. So
    /// four builds do not always take four off the count (the sample goes from 14 to 11 with
    /// the advised four: one of them leaves every minimum plan). The ends of turn that leave
    /// the fewest tiles any use of the roll leaves, or one more, are compared by the expected
    /// turns still needed afterwards: exact, by dynamic programming over the plan found then,
    /// under the dice alone (re-rolls and the other players left out). Each re-roll of one or
    /// two dice is valued the same way, averaged over the new faces, with the plan of the
    /// position held fixed.
    ///
    /// POSITION may also be a game record (docs/formats/railways-position.md, Record; a table
    /// record as `railways play --table` saves it): the position is the start of record turn
    /// --turn N (from 1; default: the turn under way, or the next), and the roll is the one
    /// rolled in that turn, if any. Only what was seen by then is used: later turns never
    /// change the advice. `plan` is another name for `advise`.
    ///
    ///   signalbox railways advise game.json --turn 12
    #[command(verbatim_doc_comment, alias = "plan")]
    Advise(PlanArgs),
    /// Checks a position (and --content) against every rule and lists every problem found, or
    /// says it is legal. Exit code 0 for a legal position, 2 for an illegal one. A game record
    /// (a table record too) is replayed with every move checked.
    ///
    /// Examples:
    ///   signalbox railways check position.json
    ///   signalbox railways check position.json --content board.toml --json
    #[command(verbatim_doc_comment)]
    Check(CheckArgs),
    /// Replays a game record (docs/formats/railways-position.md, Record) with every rule
    /// checked and prints the result: the turns played, who linked which city on which turn,
    /// who linked all four, the winners once the game is over, and each player's state. An
    /// illegal move is named by its place, turns[t][a] (from 0), and exits with code 2.
    ///
    /// Examples:
    ///   signalbox railways replay game.json
    ///   signalbox railways replay game.json --json
    #[command(verbatim_doc_comment)]
    Replay(ReplayArgs),
    /// Each player's chance to win from the position, by playing it out many times: every
    /// player follows its minimum link plan and plays each roll at its best for that plan (the
    /// pairing and builds that leave the fewest expected turns, and a re-roll with a cube when
    /// one lowers them; the same reckoning as plan --roll with the plan held fixed). Prints each
    /// chance with its 95% interval; a progress bar on a terminal.
    ///
    /// Game i rolls its dice from seed SEED + i, so the answer for a number of games is the same
    /// on every machine and thread count. With --time-limit, games are played until the limit
    /// (or --games) and the number played is reported: the same answer as --games with that
    /// number.
    ///
    /// Examples:
    ///   signalbox railways odds
    ///   signalbox railways odds position.json --games 5000 --json
    ///   signalbox railways odds --time-limit 60 --threads 2
    #[command(verbatim_doc_comment)]
    Odds(OddsArgs),
    /// The review of a played game (docs/formats/railways-position.md, Record), turn by turn:
    /// the roll, any re-roll, the builds played and the best use of the roll (as plan --roll
    /// finds it), the expected turns lost (lower is better: see docs/rules/railways-express.md),
    /// every player's tiles still needed and win chances after the turn (with their 95%
    /// intervals, from --games games per turn), the turning points and a summary per player.
    /// With no RECORD, an embedded sample game of four players (some turns played one build
    /// short on purpose). Decision turns count from 1: turn N is the record's turns[N-1].
    ///
    /// Examples:
    ///   signalbox railways analyse
    ///   signalbox railways analyse game.json --html review.html
    ///   signalbox railways analyse --json --games 100
    #[command(verbatim_doc_comment)]
    Analyse(analyse::AnalyseArgs),
    /// The start of a game as a record: at the table (the players roll) or dealt from a seed
    /// (signalbox rolls every die). `railways play RECORD` goes on with it.
    ///
    /// Examples:
    ///   signalbox railways new --out game.json
    ///   signalbox railways new --players blue,red --seed 7 --out seed7.json
    ///   signalbox railways play --table game.json
    #[command(verbatim_doc_comment)]
    New(play::NewArgs),
    /// Plays a game in the terminal, one step a line (lines can come from a file: `< steps.txt`).
    ///
    /// With --table, a game played at the table: signalbox never rolls. It asks for each roll as
    /// it is rolled (track dice then terrain dice: `ss sc p a`), takes the pairing (`p` straight,
    /// `x` crossed), a re-roll with a cube (`reroll` and the dice after), each build as the sides
    /// and the hex (`e-w 5 4`, the hex as [column, row] everywhere) or by its menu number, and
    /// `end`; a turn with no build left ends by itself. The record is saved after every step,
    /// so a crash loses nothing. `undo` takes back the last step, `board` draws the table again,
    /// `help` lists the words. With --seed, signalbox rolls the dice from the seed.
    ///
    /// Examples:
    ///   signalbox railways play --table --record game.json
    ///   signalbox railways play --table --players red,blue --record game.json
    ///   signalbox railways play game.json --table
    ///   signalbox railways play --seed 7 --record seed7.json
    #[command(verbatim_doc_comment)]
    Play(play::PlayArgs),
    /// A whole game played by the built-in player: every player follows its minimum link plan
    /// and plays each roll at its best for it (as `odds` plays games out), the dice from --seed.
    ///
    /// Examples:
    ///   signalbox railways selfplay --seed 3
    ///   signalbox railways selfplay --players blue,red --seed 3 --out game.json
    #[command(verbatim_doc_comment)]
    Selfplay(play::SelfplayArgs),
}

/// Where the components and the position come from.
#[derive(clap::Args, Debug, Clone)]
struct Sources {
    /// A position (JSON, docs/formats/railways-position.md); default: the embedded sample.
    position: Option<PathBuf>,
    /// Content file (TOML, docs/formats/railways-content.md); default: the embedded house map.
    #[arg(long, value_name = "FILE")]
    content: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
struct PlanArgs {
    #[command(flatten)]
    sources: Sources,
    /// The player to plan for (blue, yellow, red, purple); default: the player to move.
    #[arg(long, value_name = "COLOUR")]
    player: Option<String>,
    /// The dice the player to move has rolled, as four faces: the track dice (SS, CC, SC) and
    /// the terrain dice (plains, mountain, water, any), e.g. `SS,SC,plains,any`. Prints the best
    /// use of the roll and whether a re-roll with a cube pays.
    #[arg(long, value_name = "DICE")]
    roll: Option<String>,
    /// Print JSON: `tiles` (the fewest, or null with a `reason`), `proven`, `at_least` (a lower
    /// bound), `plan` (each tile's hex, sides, kind, terrain and whether it takes a crossing
    /// tile), `draws` and `supply` (the piles before the plan), `to_link`, every player's fewest
    /// tiles and expected turns, and with --roll the advice (`roll`).
    #[arg(long)]
    json: bool,
    /// Draw the map, the track and the plan to FILE (SVG); with --roll, the advised builds too.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Replace an existing --svg file.
    #[arg(long)]
    force: bool,
    /// Stop searching after S seconds (the whole command): each player's answer is then the
    /// plan if one was found, else a lower bound, labelled not proven.
    #[arg(long, value_name = "S", allow_negative_numbers = true, value_parser = crate::flags::seconds)]
    time_limit: Option<Duration>,
    /// Threads (default: one per core): the players are planned side by side, and the builds of
    /// --roll. The answer does not depend on it.
    #[arg(long, value_name = "T", allow_negative_numbers = true, value_parser = crate::flags::threads)]
    threads: Option<usize>,
    /// With a record: the position at the start of record turn N (from 1); default: the turn
    /// under way, or the next one.
    #[arg(long, value_name = "N")]
    turn: Option<usize>,
}

#[derive(clap::Args, Debug)]
struct CheckArgs {
    #[command(flatten)]
    sources: Sources,
    /// Print JSON: `legal`, `file` (the file with the problems), `problems` (every one found),
    /// and for a legal position its summary.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args, Debug)]
struct ReplayArgs {
    /// A game record (JSON, docs/formats/railways-position.md, Record).
    record: PathBuf,
    /// Content file (TOML, docs/formats/railways-content.md); default: the embedded house map.
    #[arg(long, value_name = "FILE")]
    content: Option<PathBuf>,
    /// Print JSON: `turns`, `over`, `under_way`, `active`, `triggered`, `winners`, `links`
    /// (turn, colour, city), `completed` (the turn each player linked its four cities), `players`
    /// (cubes, tiles, linked cities) and `supply`.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args, Debug)]
struct OddsArgs {
    #[command(flatten)]
    sources: Sources,
    /// Games to play out (default 500, or as many as the --time-limit allows; 500 give intervals
    /// about 4 points either side of an even chance).
    #[arg(long)]
    games: Option<usize>,
    /// The seed of the first game's dice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play games until S seconds have passed (and at most --games), and report how many.
    #[arg(long, value_name = "S", allow_negative_numbers = true, value_parser = crate::flags::seconds)]
    time_limit: Option<Duration>,
    /// Threads (default: one per core). The answer for a number of games does not depend on it.
    #[arg(long, value_name = "T", allow_negative_numbers = true, value_parser = crate::flags::threads)]
    threads: Option<usize>,
    /// Print JSON: each player's `chance` and `interval`, `games`, `stopped`, `mean_turns`.
    #[arg(long)]
    json: bool,
    /// Write the JSON that --json prints to FILE (refused if it exists, before any game is
    /// played, unless --force). With --shard, the shard's file: its games' outcomes, for
    /// `signalbox merge`.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Replace an existing --out file.
    #[arg(long)]
    force: bool,
    /// Play only part K of N of the --games: the games i (from 0) that leave K-1 when divided
    /// by N, game i rolling from seed + i as in the whole run. The N shards' files, joined by
    /// `signalbox merge`, make the file `--games G --out FILE` writes. Needs --out and --games.
    #[arg(
        long,
        value_name = "K/N",
        value_parser = crate::shard::Shard::parse,
        requires_all = ["out", "games"],
        conflicts_with = "time_limit"
    )]
    shard: Option<crate::shard::Shard>,
}

/// Runs a Railways Express command.
pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        Command::Advise(a) => plan(a),
        Command::New(a) => play::run_new(a),
        Command::Play(a) => play::run_play(a),
        Command::Selfplay(a) => play::run_selfplay(a),
        Command::Check(a) => check(&a),
        Command::Replay(a) => run_replay(&a),
        Command::Odds(a) => run_odds(a),
        Command::Analyse(a) => analyse::run(a),
    }
}

/// `n` and the noun, singular for one.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `x` with a negative zero made positive, for printing (an empty sum of floats is -0.0).
fn plain(x: f64) -> f64 {
    x + 0.0
}

pub(crate) fn load_content(content: Option<&Path>) -> anyhow::Result<(String, Arc<Content>)> {
    let (label, text) = text_or_embedded(content, HOUSE_MAP_LABEL, HOUSE_MAP_TOML)?;
    let content = Content::from_toml(&label, &text).map(Arc::new).map_err(|e| bad(e.to_string()))?;
    Ok((label, content))
}

fn load(sources: &Sources) -> anyhow::Result<(String, Game)> {
    let (_, content) = load_content(sources.content.as_deref())?;
    let (label, text) = text_or_embedded(sources.position.as_deref(), SAMPLE_POSITION_LABEL, SAMPLE_POSITION_JSON)?;
    let game = Game::from_json(content, &label, &text).map_err(|e| bad(e.to_string()))?;
    Ok((label, game))
}

/// Whether `text` is a game record (its `turns` a list of turns) rather than a position.
fn is_record(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text).ok().is_some_and(|v| v.get("turns").is_some_and(|t| t.is_array()))
}

/// The position `advise` answers: a position file, or the start of record turn `turn` (from 1;
/// default the turn under way, or the next) with the roll rolled in it. Only the record's turns
/// before it and that roll are read: nothing that was not yet seen.
fn load_advised(sources: &Sources, turn: Option<usize>) -> anyhow::Result<(String, Game, Option<Roll>)> {
    let (_, content) = load_content(sources.content.as_deref())?;
    let (label, text) = text_or_embedded(sources.position.as_deref(), SAMPLE_POSITION_LABEL, SAMPLE_POSITION_JSON)?;
    if !is_record(&text) {
        if turn.is_some() {
            return Err(bad(format!("--turn: {label} is a position, not a game record")));
        }
        let game = Game::from_json(content, &label, &text).map_err(|e| bad(e.to_string()))?;
        return Ok((label, game, None));
    }
    let (mut record, replayed) = read(content.clone(), &label, &text).map_err(|e| bad(e.to_string()))?;
    let played = record.turns.len();
    let n = match turn {
        Some(0) => return Err(bad("--turn 0: turns count from 1")),
        Some(n) if n > played + 1 || (n == played + 1 && replayed.game.is_over()) => {
            return Err(bad(format!("--turn {n}: {label} holds {played} turns")));
        }
        Some(n) => n,
        None if replayed.under_way || replayed.game.is_over() => played.max(1),
        None => played + 1,
    };
    let roll = record.turns.get(n - 1).and_then(|t| t.first()).and_then(|m| match m {
        Move::Roll { roll, .. } => Some(*roll),
        _ => None,
    });
    record.turns.truncate(n - 1);
    let game = replay_setup(content, &label, &record).map_err(|e| bad(e.to_string()))?.game;
    let label = format!("{label}, turn {n}");
    Ok((label, game, roll))
}

fn content_label(content: &Content) -> String {
    let mark = if content.house_set { " (house map, not the publisher's board)" } else { "" };
    format!("{}{mark}", content.name)
}

/// A hex as the map's rows number it: `[column, row]`.
fn at(game: &Game, hex: Hex) -> [i32; 2] {
    advice::at(game, hex)
}

fn city_names(game: &Game, cities: &[usize]) -> Vec<String> {
    advice::city_names(game, cities)
}

fn supply_text(s: Supply) -> String {
    advice::supply_words(s)
}

fn plan(a: PlanArgs) -> anyhow::Result<()> {
    crate::flags::stop_on_interrupt(a.time_limit);
    if let Some(path) = &a.svg {
        check_new(path, a.force)?;
    }
    let (label, game, rolled) = load_advised(&a.sources, a.turn)?;
    let player = match &a.player {
        Some(p) => {
            let c: Colour = p.parse().map_err(|e: String| bad(format!("--player: {e}")))?;
            if game.seat(c).is_none() {
                return Err(bad(format!("--player {c}: {c} does not play in {label}")));
            }
            c
        }
        None => game.players()[game.active()].colour,
    };
    let roll: Option<Roll> = match &a.roll {
        None if a.player.is_none()
            || a.player.as_deref().and_then(|p| p.parse::<Colour>().ok())
                == Some(game.players()[game.active()].colour) =>
        {
            rolled
        }
        None => None,
        Some(r) => {
            let roll: Roll = r.parse().map_err(|e: String| bad(format!("--roll: {e}")))?;
            let faces = &game.content().dice;
            if roll.track.iter().any(|f| !faces.track.contains(f))
                || roll.terrain.iter().any(|f| !faces.terrain.contains(f))
            {
                return Err(bad(format!("--roll {r}: the dice have no such face")));
            }
            if player != game.players()[game.active()].colour {
                return Err(bad(format!(
                    "--roll: the roll is for the player to move, {}",
                    game.players()[game.active()].colour
                )));
            }
            if game.is_over() {
                return Err(bad(format!("{label}: the game is over")));
            }
            Some(roll)
        }
    };
    // The output file is checked before any work starts.
    if let Some(path) = &a.svg
        && path.exists()
        && !a.force
    {
        return Err(bad(format!("{}: already exists; pass --force to replace it", path.display())));
    }
    let started = Instant::now();
    let deadline = a.time_limit.map(|t| started + t);
    let (all, advice): (Vec<(Colour, Linked)>, Option<Advice>) = signalbox_solver::threads::install(a.threads, || {
        let all: Vec<(Colour, Linked)> = link_all(&game, deadline).into_iter().map(|(c, l, _)| (c, l)).collect();
        let mine_found = all.iter().any(|(c, l)| *c == player && l.plan().is_some());
        let advice = roll.filter(|_| mine_found).and_then(|r| best_use(&game, r, deadline));
        (all, advice)
    });
    eprintln!("Planned in {:.1} ms.", started.elapsed().as_secs_f64() * 1e3);
    let supply = game.supply();
    let mine = &all.iter().find(|(c, _)| *c == player).map(|(_, l)| l.clone()).unwrap_or(Linked::None(NoPlan::Board));
    let plan = mine.plan().cloned();
    // The certificate: the engine builds the plan from the position, each tile from the supply,
    // and the cities are linked.
    let built: Option<Game> = match &plan {
        Some(p) => {
            let after = game
                .with_track(player, &p.tiles)
                .map_err(|(i, e)| anyhow::anyhow!("the plan's tile {i} failed its check: {e}"))?;
            anyhow::ensure!(after.has_linked_all(player), "the plan does not link {player}'s cities");
            Some(after)
        }
        None => None,
    };
    let answer = PlanAdvice::new(label.as_str(), &game, player, &all, built.as_ref(), advice.as_ref());
    let terrain = |hex: Hex| game.content().terrain(hex).map_or("?".to_string(), |t| t.to_string());
    let kind = |ends: Ends| ends.kind(game.options().curve).map_or("?".to_string(), |k| k.to_string());
    if let Some(path) = &a.svg {
        let title = match (&plan, mine) {
            (Some(p), _) => format!("{player}: {} to link all four cities", count(p.tiles.len(), "tile", "tiles")),
            (None, Linked::None(NoPlan::Supply { .. })) => format!("{player}: no plan within the supply"),
            (None, Linked::Stopped { at_least }) => format!("{player}: at least {at_least} tiles (stopped)"),
            (None, _) => format!("{player}: no way to link all four cities"),
        };
        let mut title = vec![title];
        if let (Some(r), Some(adv)) = (roll, &advice) {
            title.push(format!("Roll {r}: {} advised", count(adv.best.builds.len(), "build", "builds")));
        }
        let tiles = plan.as_ref().map_or(&[][..], |p| &p.tiles[..]);
        let advised: Vec<(Hex, Ends)> = advice
            .iter()
            .flat_map(|adv| &adv.best.builds)
            .filter_map(|b| match *b {
                Action::Build { hex, ends, .. } => Some((hex, ends)),
                _ => None,
            })
            .collect();
        write_new(
            path,
            &signalbox_render::railways::picture::position_svg(&game, player, tiles, &advised, &title),
            a.force,
        )?;
    }
    if a.json {
        say!("{}", serde_json::to_string_pretty(&answer)?);
        return Ok(());
    }
    let mover = game.players()[game.active()].colour;
    say!(
        "Railways Express · {label} · {}, {mover} to play after {}",
        count(game.players().len(), "player", "players"),
        count(game.turns() as usize, "turn", "turns")
    );
    say!("Map: {}", content_label(game.content()));
    say!("Supply left (shared by all players): {}", supply_text(supply));
    say!(
        "Fewest tiles still to build within the supply to link all four cities{}, and the turns that plan takes on average:",
        if all.iter().all(|(_, l)| !matches!(l, Linked::Stopped { .. })) { " (proven)" } else { "" }
    );
    for ((c, l), t) in all.iter().zip(answer.players.iter().map(|p| p.expected_turns)) {
        match l {
            Linked::Plan(p) => {
                let linked = 4 - p.to_link.len();
                let t = t.map_or("-".to_string(), |t| format!("{t:.2}"));
                let n = p.tiles.len();
                let tiles = if n == 1 { "tile " } else { "tiles" };
                say!("  {c:<7} {n:>3} {tiles}  {t:>6} turns  ({linked} of 4 cities linked)");
            }
            Linked::None(NoPlan::Board) => say!("  {c:<7}   -    no way left on the board to link all four cities"),
            Linked::None(NoPlan::Supply { board }) => {
                say!("  {c:<7}   -    no plan within the supply ({board} tiles on the board)")
            }
            Linked::Stopped { at_least } => {
                say!("  {c:<7} >={at_least:>2} tiles  stopped at the time limit: a lower bound, the fewest not proven")
            }
        }
    }
    say!();
    match (&plan, mine) {
        (None, Linked::Stopped { at_least }) => say!(
            "{player}: stopped at the time limit before a plan was found, so the fewest tiles are not proven; every plan within the supply has at least {}.",
            count(*at_least, "tile", "tiles")
        ),
        (None, Linked::None(NoPlan::Supply { board })) => say!(
            "{player}: no plan within the supply. The fewest tiles on the board are {board}, but the supply left ({}) cannot provide any plan in an order the rules allow.",
            supply_text(supply)
        ),
        (None, _) => say!("{player} cannot link all four cities any more."),
        (Some(p), _) if p.tiles.is_empty() => say!("{player} has linked all four cities."),
        (Some(p), _) => {
            say!(
                "{player}: {} to link {}:",
                count(p.tiles.len(), "tile", "tiles"),
                city_names(&game, &p.to_link).join(", ")
            );
            for (i, &(hex, ends)) in p.tiles.iter().enumerate() {
                let [c, r] = at(&game, hex);
                let pile = if answer.plan.get(i).is_some_and(|t| t.crossing) { ", a crossing tile" } else { "" };
                say!("  {i:>3}. {:<8} {ends:<6} on [{c}, {r}] ({}{pile})", kind(ends), terrain(hex));
            }
            if let Some(d) = answer.draws {
                say!("From the supply: {}.", supply_text(d));
            }
            say!(
                "Checked: the rules engine built these {} from the position, in this order, each from the supply, and {player}'s four cities are linked.",
                count(p.tiles.len(), "tile", "tiles")
            );
        }
    }
    if let (Some(roll), Some(adv)) = (roll, &advice) {
        say!();
        say!("Roll: {roll}");
        let b = &adv.best;
        let searched = if adv.complete { "" } else { "; stopped at the time limit: the best of those searched" };
        say!(
            "Best use ({} compared{searched}): pair {} and build {}:",
            count(adv.considered, "end of turn", "ends of turn"),
            if b.crossed {
                "first track die with second terrain die (and the second with the first)"
            } else {
                "first track die with first terrain die (and the second with the second)"
            },
            b.builds.len()
        );
        for (i, action) in b.builds.iter().enumerate() {
            if let &Action::Build { hex, ends, slot } = action {
                let [c, r] = at(&game, hex);
                say!("  {i:>3}. {:<8} {ends:<6} on [{c}, {r}] ({}), slot {slot}", kind(ends), terrain(hex));
            }
        }
        say!(
            "Afterwards: {} still to build, {:.2} expected turns more (exact for the plan then, under the dice alone).",
            count(b.remaining, "tile", "tiles"),
            b.turns
        );
        match adv.rerolls.first() {
            None => say!("No cube in hand: no re-roll."),
            Some(r) => {
                let dice: Vec<String> = r.dice.iter().map(ToString::to_string).collect();
                let verdict = if r.turns + 1e-9 < adv.keep { "re-roll" } else { "keep the roll" };
                say!(
                    "Re-roll? Reckoned alike, with the position's plan held fixed (the use above may re-plan): keeping the roll {:.2} expected turns more, re-rolling {} {:.2} (the best of {} re-rolls, one cube): {verdict}.",
                    adv.keep,
                    dice.join(" and "),
                    r.turns,
                    adv.rerolls.len()
                );
            }
        }
    } else if roll.is_some() {
        say!();
        match mine {
            Linked::Stopped { .. } => say!("No advice for the roll: its plan was not found within the time limit."),
            _ if plan.is_some() => say!("No advice for the roll: the time limit came first."),
            _ => say!("{player} cannot link all four cities within the supply: no use of the roll helps."),
        }
    }
    if let Some(path) = &a.svg {
        say!("Picture: {}", path.display());
    }
    Ok(())
}

/// The file a content or position error is about, and every problem in it.
fn problems_of(error: &PositionError) -> (String, Vec<String>) {
    match error {
        PositionError::Syntax(e) => (e.location.file.clone(), vec![e.to_string()]),
        PositionError::Invalid { file, problems } => (file.clone(), problems.clone()),
    }
}

fn check(a: &CheckArgs) -> anyhow::Result<()> {
    let (content_label, text) = text_or_embedded(a.sources.content.as_deref(), HOUSE_MAP_LABEL, HOUSE_MAP_TOML)?;
    let refused = |file: String, what: &str, problems: Vec<String>| -> anyhow::Result<()> {
        let n = count(problems.len(), "problem", "problems");
        if a.json {
            say!("{}", serde_json::to_string_pretty(&json!({"legal": false, "file": file, "problems": problems}))?);
            return Err(bad(format!("{file}: {what}, {n}")));
        }
        let list: Vec<String> = problems.iter().map(|p| format!("  - {p}")).collect();
        Err(bad(format!("{file}: {what}, {n}:\n{}", list.join("\n"))))
    };
    let content = match Content::from_toml(&content_label, &text) {
        Ok(c) => Arc::new(c),
        Err(ContentError::Syntax(e)) => {
            return refused(e.location.file.clone(), "not a content file", vec![e.to_string()]);
        }
        Err(ContentError::Invalid { file, problems }) => return refused(file, "not legal content", problems),
    };
    let (label, text) = text_or_embedded(a.sources.position.as_deref(), SAMPLE_POSITION_LABEL, SAMPLE_POSITION_JSON)?;
    if is_record(&text) {
        // A game record: every move replayed with every rule checked.
        let replayed = match replay(content.clone(), &label, &text) {
            Ok(r) => r,
            Err(e) => {
                let what =
                    if matches!(e, PositionError::Syntax(_)) { "not a record file" } else { "not a legal record" };
                let (file, problems) = problems_of(&e);
                return refused(file, what, problems);
            }
        };
        let game = &replayed.game;
        let state = if game.is_over() {
            "the game is over".to_string()
        } else {
            format!("{} to play", game.players()[game.active()].colour)
        };
        if a.json {
            let out = json!({
                "legal": true,
                "record": label,
                "content": content_label,
                "problems": [],
                "turns": game.turns(),
                "under_way": replayed.under_way,
                "over": game.is_over(),
                "winners": game.winners(),
            });
            say!("{}", serde_json::to_string_pretty(&out)?);
            return Ok(());
        }
        say!("{content_label}: {}", content_label_of(&content));
        say!(
            "{label}: a legal Railways Express record: {} replayed, every move checked; {state}",
            count(game.turns() as usize + usize::from(replayed.under_way), "turn", "turns")
        );
        return Ok(());
    }
    let game = match Game::from_json(content.clone(), &label, &text) {
        Ok(g) => g,
        Err(e) => {
            let what =
                if matches!(e, PositionError::Syntax(_)) { "not a position file" } else { "not a legal position" };
            let (file, problems) = problems_of(&e);
            return refused(file, what, problems);
        }
    };
    let mover = game.players()[game.active()].colour;
    let colours: Vec<Colour> = game.players().iter().map(|p| p.colour).collect();
    let supply = game.supply();
    if a.json {
        let players: Vec<serde_json::Value> = game
            .players()
            .iter()
            .map(|p| {
                let own = content.cities_of(p.colour).iter().filter(|c| p.linked.contains(c)).count();
                json!({
                    "colour": p.colour,
                    "cubes": p.cubes,
                    "tiles": game.tiles().iter().filter(|t| t.owner == p.colour).count(),
                    "own_cities_linked": own,
                    "linked": city_names(&game, &p.linked.iter().copied().collect::<Vec<_>>()),
                })
            })
            .collect();
        let out = json!({
            "legal": true,
            "position": label,
            "content": content_label,
            "problems": [],
            "seats": colours,
            "active": mover,
            "turns": game.turns(),
            "over": game.is_over(),
            "tiles": game.tiles().len(),
            "supply": {"straight": supply.straight, "curved": supply.curved, "crossing": supply.crossing},
            "players": players,
        });
        say!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    say!("{content_label}: {}", content_label_of(&content));
    say!(
        "{label}: a legal Railways Express position: {} ({}), {mover} to play after {}, {} laid, supply left {}",
        count(colours.len(), "player", "players"),
        colours.iter().map(|c| c.name()).collect::<Vec<_>>().join(", "),
        count(game.turns() as usize, "turn", "turns"),
        count(game.tiles().len(), "tile", "tiles"),
        supply_text(supply)
    );
    Ok(())
}

fn content_label_of(content: &Content) -> String {
    let grays = content.cities.iter().filter(|c| c.colour == CityColour::Gray).count();
    format!(
        "{}: {} hexes, {} cities ({grays} gray), {} tiles",
        content_label(content),
        content.hexes.len(),
        content.cities.len(),
        content.supply.total()
    )
}

fn run_replay(a: &ReplayArgs) -> anyhow::Result<()> {
    let (_, content) = load_content(a.content.as_deref())?;
    let label = a.record.display().to_string();
    let text = read_text(&a.record)?;
    let Replay { game, links, completed, under_way } =
        replay(content.clone(), &label, &text).map_err(|e| bad(e.to_string()))?;
    let played = game.turns() as usize;
    let winners = game.winners();
    let triggered = game.to_setup().triggered;
    let active = (!game.is_over()).then(|| game.players()[game.active()].colour);
    let name = |c: usize| content.cities[c].name.clone();
    let own_linked = |colour: Colour| {
        let seat = game.seat(colour).unwrap_or(0);
        content.cities_of(colour).iter().filter(|c| game.players()[seat].linked.contains(c)).count()
    };
    let supply = game.supply();
    if a.json {
        let links: Vec<serde_json::Value> =
            links.iter().map(|l| json!({"turn": l.turn, "colour": l.colour, "city": name(l.city)})).collect();
        let players: Vec<serde_json::Value> = game
            .players()
            .iter()
            .map(|p| {
                json!({
                    "colour": p.colour,
                    "cubes": p.cubes,
                    "tiles": game.tiles().iter().filter(|t| t.owner == p.colour).count(),
                    "own_cities_linked": own_linked(p.colour),
                    "linked": p.linked.iter().map(|&c| name(c)).collect::<Vec<_>>(),
                })
            })
            .collect();
        let out = json!({
            "record": label,
            "turns": played,
            "over": game.is_over(),
            "under_way": under_way,
            "active": active,
            "triggered": triggered,
            "winners": winners,
            "links": links,
            "completed": completed,
            "players": players,
            "supply": {"straight": supply.straight, "curved": supply.curved, "crossing": supply.crossing},
        });
        say!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    let colours: Vec<&str> = game.players().iter().map(|p| p.colour.name()).collect();
    say!("Railways Express · {label} · {} ({})", count(colours.len(), "player", "players"), colours.join(", "));
    say!("Map: {}", content_label(&content));
    let state = match (game.is_over(), active) {
        (true, _) => "the game is over".to_string(),
        (false, Some(c)) if under_way => format!("the last turn is under way, {c} to play"),
        (false, Some(c)) => format!("the game goes on, {c} to play"),
        (false, None) => String::new(),
    };
    say!(
        "Replayed {} (numbered from 0), every move checked by the rules engine: {state}.",
        count(played + usize::from(under_way), "turn", "turns")
    );
    if links.is_empty() {
        say!("No city linked.");
    } else {
        say!("Links:");
        for l in &links {
            let kind = match content.cities[l.city].colour {
                CityColour::Gray => "gray",
                CityColour::Player(_) => "own",
            };
            say!("  turn {:>3}  {:<7} {} ({kind})", l.turn, l.colour, name(l.city));
        }
    }
    for (colour, turn) in &completed {
        let trigger = if triggered == Some(*colour) { ", which triggered the end" } else { "" };
        say!("{colour} linked all four cities on turn {turn}{trigger}.");
    }
    if game.is_over() {
        match winners.as_slice() {
            [] => say!("Winners: none."),
            [w] => say!("Winner: {w}."),
            many => {
                say!("Winners (a shared victory): {}.", many.iter().map(|c| c.name()).collect::<Vec<_>>().join(", "))
            }
        }
    }
    say!("Players:");
    for p in game.players() {
        say!(
            "  {:<7} {} of 4 own cities linked, {} linked in all, {} in hand, {} laid",
            p.colour,
            own_linked(p.colour),
            count(p.linked.len(), "city", "cities"),
            count(usize::from(p.cubes), "cube", "cubes"),
            count(game.tiles().iter().filter(|t| t.owner == p.colour).count(), "tile", "tiles")
        );
    }
    say!("Supply left: {}", supply_text(supply));
    Ok(())
}

fn run_odds(a: OddsArgs) -> anyhow::Result<()> {
    if a.games == Some(0) {
        return Err(bad("--games 0: expected at least one game"));
    }
    if let Some(out) = &a.out {
        check_new(out, a.force)?;
    }
    let (label, game) = load(&a.sources)?;
    if game.is_over() {
        return Err(bad(format!("{label}: the game is over")));
    }
    if let (Some(part), Some(out), Some(games)) = (a.shard, &a.out, a.games) {
        return run_odds_shard(&a, part, out, games, &label, &game);
    }
    let games = a.games.or(if a.time_limit.is_some() { None } else { Some(500) });
    let bar = crate::flags::progress(games.unwrap_or(0) as u64, "games", a.json);
    let started = Instant::now();
    let options = OddsOptions { games, time_limit: a.time_limit, seed: a.seed, threads: a.threads };
    let result = odds(&game, options, &|| {
        if games.is_none() {
            bar.inc_length(1);
        }
        bar.inc(1);
    });
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let value = odds_json(&label, &result, a.seed);
    if let Some(out) = &a.out {
        // The file keeps the time the games took, as a record of the run; the answer printed
        // does not, so it is the same on any machine.
        let mut kept = value.clone();
        kept["seconds"] = json!(seconds);
        write_new(out, &(serde_json::to_string_pretty(&kept)? + "\n"), a.force)?;
    }
    if a.json {
        say!("{}", serde_json::to_string_pretty(&value)?);
        return Ok(());
    }
    let mover = game.players()[game.active()].colour;
    say!("Railways Express · {label} · {mover} to play after {}", count(game.turns() as usize, "turn", "turns"));
    if result.stopped {
        say!(
            "Stopped at the time limit after {} (the answer --games {} gives).",
            count(result.games, "game", "games"),
            result.games
        );
    }
    say_chances(&result, &seed_words(a.seed, result.games), seconds);
    if let Some(out) = &a.out {
        say!("wrote {}", out.display());
    }
    Ok(())
}

/// `railways odds --shard K/N`: plays the part's games and writes the shard's file.
fn run_odds_shard(
    a: &OddsArgs,
    part: crate::shard::Shard,
    out: &Path,
    games: usize,
    label: &str,
    game: &Game,
) -> anyhow::Result<()> {
    let (content_label, content_text) =
        text_or_embedded(a.sources.content.as_deref(), HOUSE_MAP_LABEL, HOUSE_MAP_TOML)?;
    let settings = odds_file::Settings::of(label, game, (&content_label, &content_text), a.seed, games);
    let indices: Vec<u64> = (0..games as u64).filter(|&i| part.takes(i)).collect();
    let bar = crate::flags::progress(indices.len() as u64, "games", a.json);
    let started = Instant::now();
    let outcomes = play_games(game, a.seed, &indices, a.threads, &|| bar.inc(1));
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    odds_file::write(out, a.force, &settings, part, seconds, (&indices, &outcomes))?;
    let result = tally(&settings.seats, &outcomes);
    if a.json {
        let mut value = odds_json(label, &result, a.seed);
        value["shard"] = json!(part.to_string());
        say!("{}", serde_json::to_string_pretty(&value)?);
        return Ok(());
    }
    say!("Railways Express · {label} · shard {part} of --games {games}");
    let first = part.index() - 1;
    let words =
        format!("games {first}, {}, ... of 0 to {}, game i from seed {} + i", first + part.count(), games - 1, a.seed);
    say_chances(&result, &words, seconds);
    say!("wrote {} (signalbox merge joins the {} shards' files)", out.display(), part.count());
    Ok(())
}

/// The odds as `railways odds --json` prints them and `--out` writes them.
fn odds_json(label: &str, result: &Odds, seed: u64) -> serde_json::Value {
    let chances: Vec<serde_json::Value> = result
        .chances
        .iter()
        .map(|c| {
            json!({
                "colour": c.colour,
                "chance": plain(c.chance),
                "interval": [plain(c.interval.0), plain(c.interval.1)],
                "wins": plain(c.wins),
            })
        })
        .collect();
    json!({
        "position": label,
        "games": result.games,
        "stopped": result.stopped,
        "seed": seed,
        "chances": chances,
        "mean_turns": plain(result.mean_turns),
        "unfinished": result.unfinished,
    })
}

/// The seeds of `games` games from `seed`, in words.
fn seed_words(seed: u64, games: usize) -> String {
    if games == 1 { format!("seed {seed}") } else { format!("seeds {seed} to {}", seed + games as u64 - 1) }
}

/// Each player's win chance in words, the games' mean length and the unfinished games.
fn say_chances(result: &Odds, seeds: &str, seconds: f64) {
    if result.games == 0 {
        say!("No game was played.");
        return;
    }
    say!(
        "Win chances over {} played out (every player playing each roll at its best for its minimum link plan; {seeds}):",
        count(result.games, "game", "games"),
    );
    for c in &result.chances {
        say!(
            "  {:<7} {:>5.1}%   95% interval {:.1}% to {:.1}%",
            c.colour,
            plain(100.0 * c.chance),
            plain(100.0 * c.interval.0),
            plain(100.0 * c.interval.1)
        );
    }
    say!("Games lasted {:.1} more turns on average.", plain(result.mean_turns));
    eprintln!("Played in {seconds:.1} s.");
    if result.unfinished > 0 {
        say!(
            "{} did not end within the turn limit and count as nobody's win.",
            count(result.unfinished, "game", "games")
        );
    }
}
