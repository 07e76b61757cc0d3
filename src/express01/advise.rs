//! `signalbox express01 advise`: the best turn of the player to move, by a stated evaluation,
//! with every hand and the order of every deck known (docs/rules/express-01.md).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use signalbox_engine::express01::game::{Game, Phase};
use signalbox_engine::express01::position::{ADVICE_SAMPLE_JSON, ADVICE_SAMPLE_LABEL, Position};
use signalbox_engine::express01::record;
use signalbox_solver::express01::advice::Advice;
use signalbox_solver::express01::analysis::TABLE_ASSUMES;
use signalbox_solver::express01::last_round::{LastRound, Opponents, last_round};
use signalbox_solver::express01::selfplay::BestRoute;
use signalbox_solver::express01::turn::{Limit, TurnAnswer, best_turns_on, evaluation};

use crate::input::{bad, check_new, text_or_embedded, write_new};

/// What the evaluation is, in the words the output prints.
pub const EVALUATION: &str = "the mover's capital less the strongest opponent's capital at the end of the turn, before \
                              the next round's government aid (see “The evaluation” in docs/rules/express-01.md)";

/// Why a best turn at the table is not proven where the West's card could come face down.
const UNSEEN: &str = "the West's card could come from face-down cards: the turns through it are valued with the \
     cards in number order, one of the ways they could come (see “Answers never depend on what was never seen” in docs/rules/express-01.md)";

/// What the answer assumes known.
pub const ASSUMES: &str = "every hand and the order of every deck are known, as in the position (open hands, as after \
                           a game)";

/// The opponent model of the exact last round.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum OpponentsArg {
    /// Every player maximises their own final capital.
    Maxn,
    /// Every other player minimises the mover's final lead.
    Paranoid,
}

/// The game at the start of turn `turn` (from 1) of a record, replayed with every rule checked;
/// without `turn`, where the record ends (the start of its unfinished turn, if any).
fn at_turn<'c>(
    label: &str,
    text: &str,
    catalogue: &'c signalbox_engine::express01::Catalogue,
    turn: Option<usize>,
) -> anyhow::Result<(String, Game<'c>)> {
    let record = record::read(label, text).map_err(|e| bad(e.to_string()))?;
    let mut starts: Vec<Game<'c>> = Vec::new();
    let replayed = record::replay(label, &record, catalogue, &BestRoute, &mut |g, _| {
        if *g.phase() == Phase::Pair {
            starts.push(g.clone());
        }
    })
    .map_err(|e| bad(e.to_string()))?;
    match turn {
        Some(n) => match n.checked_sub(1).and_then(|i| starts.get(i)) {
            Some(g) => Ok((format!("{label}, turn {n}"), g.clone())),
            None => Err(bad(format!("--turn: {label} has turns 1 to {}", starts.len()))),
        },
        None if *replayed.game.phase() == Phase::Pair || replayed.game.is_over() => {
            Ok((format!("{label}, its end"), replayed.game))
        }
        None => Ok((format!("{label}, turn {}", starts.len()), starts.pop().unwrap_or(replayed.game))),
    }
}

/// Arguments of `express01 advise`.
#[derive(clap::Args, Debug)]
pub struct AdviseArgs {
    /// A whole-game position (JSON, docs/formats/express01-position.md) at the start of a turn,
    /// or a game record (docs/formats/express01-record.md, see --turn); default: an embedded sample (round 7 of a self-played 3-player game).
    position: Option<PathBuf>,
    /// Content file (TOML, docs/formats/express01-content.md); default: the embedded house set.
    #[arg(long, value_name = "FILE")]
    content: Option<PathBuf>,
    /// With a game record: advise at the start of its turn N (from 1; default: where the record
    /// ends).
    #[arg(long, value_name = "N")]
    turn: Option<usize>,
    /// How many turns to list: the best and the next best, each a different plan (pair,
    /// purchases and where from, upgrades, bonus, exchange).
    #[arg(long, default_value_t = 3, value_name = "K")]
    top: usize,
    /// Stop searching after this many seconds and print the best found, marked "not proven"
    /// (the best turn with an upper bound on its value). The answer then depends on the
    /// machine's speed; --states does not.
    #[arg(long, value_name = "S", allow_negative_numbers = true, value_parser = crate::flags::seconds)]
    time_limit: Option<Duration>,
    /// Stop each search after N states (the best turn: N for each action pair; the last round: N)
    /// and print the best found, marked "not proven"; 0 for no limit. The same answer on every
    /// machine.
    #[arg(long, value_name = "N", default_value_t = 2_000_000)]
    states: u64,
    /// Threads for the search (the answer is the same for any number).
    #[arg(long, value_name = "T", allow_negative_numbers = true, value_parser = crate::flags::threads, default_value_t = 2)]
    threads: usize,
    /// How the other players choose in the exact last round: `maxn`, each maximises their own
    /// final capital (docs/rules/express-01.md); `paranoid`, each minimises the mover's
    /// final lead (docs/rules/express-01.md).
    #[arg(long, value_enum, default_value_t = OpponentsArg::Maxn)]
    opponents: OpponentsArg,
    /// Draw the board after the best turn to FILE (SVG).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Replace an existing --svg file.
    #[arg(long)]
    force: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `express01 advise`.
pub fn run(a: AdviseArgs) -> anyhow::Result<()> {
    crate::flags::stop_on_interrupt(a.time_limit);
    if let Some(out) = &a.svg {
        check_new(out, a.force)?;
    }
    if a.top == 0 {
        return Err(bad("--top: expected at least 1"));
    }
    let (_, catalogue) = super::load_content(a.content.as_deref())?;
    let (label, text) = text_or_embedded(a.position.as_deref(), ADVICE_SAMPLE_LABEL, ADVICE_SAMPLE_JSON)?;
    let (label, game) = if super::record::is_record(&text) {
        at_turn(&label, &text, &catalogue, a.turn)?
    } else {
        if a.turn.is_some() {
            return Err(bad(format!("--turn: {label} is a position, not a game record")));
        }
        let position = Position::from_json(&label, &text, &catalogue).map_err(|e| bad(e.to_string()))?;
        (label.clone(), Game::from_position(&position).map_err(|e| bad(format!("{label}: {e}")))?)
    };
    let assumes = if game.is_table() { TABLE_ASSUMES } else { ASSUMES };
    if *game.phase() != Phase::Pair {
        return Err(bad(format!("{label}: the game is over; there is no turn to advise")));
    }
    // One deadline for the whole command: the best turns and the last round share it.
    let deadline = a.time_limit.map(|d| Instant::now() + d);
    let limit = || Limit { states: (a.states > 0).then_some(a.states), deadline };
    // Whole mid-game hands take minutes (the sample about 2 on 2 cores): the elapsed time shows.
    let budget = if a.states > 0 {
        format!("up to {} states for each action pair", a.states)
    } else {
        "no limit on states".into()
    };
    let spinner = crate::flags::spinner(&format!("searching every turn ({budget})"), a.json);
    let answer = best_turns_on(&game, &BestRoute, a.top, limit(), a.threads);
    let opponents = match a.opponents {
        OpponentsArg::Maxn => Opponents::MaxN,
        OpponentsArg::Paranoid => Opponents::Paranoid,
    };
    let last = last_round(&game, &BestRoute, opponents, limit());
    spinner.finish_and_clear();
    let mover = game.mover();
    let name = |p: usize| game.seats()[p].name.clone();
    let turns: Vec<(Vec<String>, Game<'_>, i32)> = answer
        .turns
        .iter()
        .map(|t| {
            let (words, after) = game.describe_steps(&t.steps);
            (words, after, t.value)
        })
        .collect();
    let capitals = |g: &Game<'_>| -> Vec<(String, u32)> {
        (0..g.seats().len()).map(|p| (g.seats()[p].name.clone(), g.capital(p).total())).collect()
    };
    if let Some(out) = &a.svg {
        let after = &turns[0].1;
        let title = format!("{label}: after {}'s best turn (value {:+})", name(mover), turns[0].2);
        write_new(out, &signalbox_render::express01::picture::board_svg(&after.network(), None, &title), a.force)?;
    }
    if a.json {
        let out = Advice::new(
            label.clone(),
            &game,
            &answer,
            last.as_ref().map(|l| (l, model(a.opponents).to_owned())),
            assumes,
            EVALUATION,
            UNSEEN,
        );
        say!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    let stop = stop_words(a.states, a.time_limit);
    print!("{}", text_of(&label, &game, &answer, &turns, &capitals, &stop, assumes));
    if let Some(l) = &last {
        print!("{}", last_round_text(&game, l, a.opponents, &stop));
    }
    Ok(())
}

/// Where the searches stopped, in words ("2000000 states", "10 s").
fn stop_words(states: u64, time: Option<Duration>) -> String {
    let mut parts = Vec::new();
    if states > 0 {
        parts.push(format!("{states} states"));
    }
    if let Some(t) = time {
        parts.push(format!("{} s", t.as_secs_f64()));
    }
    parts.join(" or ")
}

/// Each turn of a last-round line in words, with its player's name.
fn line_in_words(game: &Game<'_>, l: &LastRound) -> Vec<(String, Vec<String>)> {
    l.in_words(game).into_iter().map(|(seat, words)| (game.seats()[seat].name.clone(), words)).collect()
}

fn model(o: OpponentsArg) -> &'static str {
    match o {
        OpponentsArg::Maxn => {
            "every player for themselves: each maximises their own final capital (see “Max^n, and its tie rule” in docs/rules/express-01.md)"
        }
        OpponentsArg::Paranoid => {
            "paranoid: every other player minimises the mover's final lead (see “Paranoid” in docs/rules/express-01.md)"
        }
    }
}

fn last_round_text(game: &Game<'_>, l: &LastRound, o: OpponentsArg, stop: &str) -> String {
    let mut out = String::from("\nThe exact last round");
    if l.restricted {
        out += " if the game ends this turn (some turns of the mover reach the end)";
    }
    out += &format!(
        ", {}{}:\n",
        model(o),
        if l.proven { ", proven".to_string() } else { format!(", not proven: the best line found within {stop}") }
    );
    for (who, words) in line_in_words(game, l) {
        out += &format!("  {who}: {}\n", words.join(", "));
    }
    let finals: Vec<String> =
        (0..game.seats().len()).map(|p| format!("{} {}", game.seats()[p].name, l.finals[p])).collect();
    let winners: Vec<String> = l.winners.iter().map(|&p| game.seats()[p].name.clone()).collect();
    out += &format!(
        "  Final capitals: {}; {} {}.\n",
        finals.join(", "),
        winners.join(" and "),
        if winners.len() > 1 { "share the victory" } else { "wins" }
    );
    let names: Vec<String> = game.seats().iter().map(|s| s.name.clone()).collect();
    if let Some(words) = l.expected_in_words(&names) {
        out += &format!("  {words}\n");
    }
    out += &format!("  {} states searched.\n", l.nodes);
    out
}

fn text_of(
    label: &str,
    game: &Game<'_>,
    answer: &TurnAnswer,
    turns: &[(Vec<String>, Game<'_>, i32)],
    capitals: &dyn Fn(&Game<'_>) -> Vec<(String, u32)>,
    stop: &str,
    assumes: &str,
) -> String {
    let mover = game.mover();
    let name = &game.seats()[mover].name;
    let caps = |g: &Game<'_>| capitals(g).iter().map(|(n, c)| format!("{n} {c}")).collect::<Vec<_>>().join(", ");
    let mut out = format!(
        "Express 01 · {label} · round {}, turn {}: {name} to move\nAssumed known: {}.\nEvaluation: {EVALUATION}.\nCapitals now: {} (value now {:+}).\n\n",
        game.round(),
        game.turn(),
        assumes.trim_end_matches('.'),
        caps(game),
        evaluation(game, mover),
    );
    let (words, after, value) = &turns[0];
    let proof = if answer.proven {
        "proven".to_string()
    } else if answer.unseen {
        format!("{UNSEEN}; no turn is worth more than {:+} whatever card comes: not proven", answer.bound)
    } else {
        format!("best found within {stop}; no turn is worth more than {:+}: not proven", answer.bound)
    };
    out += &format!("Best turn: value {value:+} ({proof})\n");
    for (i, w) in words.iter().enumerate() {
        out += &format!("  {:>2}. {w}\n", i + 1);
    }
    out += &format!("  Capitals after it: {}\n", caps(after));
    if turns.len() > 1 {
        out += "\nAlternatives (each a different plan: pair, purchases, upgrades, bonus or exchange):\n";
        for (words, _, value) in &turns[1..] {
            out += &format!("  {value:+}: {}\n", words.join(", "));
        }
    }
    out += &format!("\n{} states searched.\n", answer.nodes);
    out
}
