//! `signalbox coe advise`: every use of a roll ranked by its fair-play value (issue 19), the
//! hindsight maximum beside it.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use signalbox_engine::coe::{Catalogue, Chance, Game, Instance, Move, Record, Rules};
use signalbox_solver::coe::advice::Advice;
use signalbox_solver::coe::fair::{self, Policy, Valued};
use signalbox_solver::coe::search::{SolveOptions, solve};

use crate::input::{bad, read_text};

/// Arguments of `coe advise`.
#[derive(clap::Args, Debug)]
pub struct AdviseArgs {
    /// A game record (JSON, docs/formats/coe-records.md) whose moves stop where the advice is
    /// wanted: at a turn's start (then --roll may name the roll) or within a turn.
    #[arg(conflicts_with_all = ["seed", "turn"])]
    position: Option<PathBuf>,
    /// The seed: its board and market; the turns before --turn are played by the fair policy,
    /// which sees only what a player sees.
    #[arg(long)]
    seed: Option<u64>,
    /// The turn to advise on, from 1 (with --seed). Default 1.
    #[arg(long, value_name = "T", requires = "seed")]
    turn: Option<usize>,
    /// The roll, two numbers 1 to 6: `3,5`. Default: the dice the position already shows.
    #[arg(long, value_name = "A,B", value_parser = parse_roll)]
    roll: Option<[u8; 2]>,
    /// Playouts per option where values are estimated (docs/rules/cubes-of-europe.md): more narrows the intervals
    /// (their width falls as one over the square root), and takes longer.
    #[arg(long, value_name = "N", default_value_t = 96, value_parser = clap::value_parser!(u32).range(2..=100_000))]
    samples: u32,
    /// Print only the K best options (default: every one).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..))]
    top: Option<u32>,
    /// Skip the hindsight maximum (a search knowing the future dice and cards).
    #[arg(long)]
    no_hindsight: bool,
    /// Stop after this many seconds for the whole command: the hindsight search has what the
    /// valuing of the roll's uses leaves (the best found, marked not proven, with its bound). The
    /// answer then depends on the machine's speed and load; --states does not.
    #[arg(long, value_name = "S", allow_negative_numbers = true, value_parser = crate::flags::seconds)]
    time_limit: Option<Duration>,
    /// Stop the hindsight search after N positions (the best found, marked not proven, with its
    /// bound); 0 for no limit. The same answer on every machine, load and thread count.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_STATES)]
    states: u64,
    /// Threads (default: one per core). The answer does not depend on it.
    #[arg(long, value_name = "T", allow_negative_numbers = true, value_parser = crate::flags::threads)]
    threads: Option<usize>,
    /// End the game after K turns (a shortened game; with --seed).
    #[arg(long, value_name = "K", requires = "seed")]
    max_turns: Option<usize>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Draw the board after the best use of the roll to FILE (SVG), the cubes it places
    /// outlined.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Replace an existing --svg file.
    #[arg(long)]
    force: bool,
    /// Content file (TOML); default: the embedded house set.
    #[arg(long, value_name = "FILE")]
    content: Option<PathBuf>,
}

/// The hindsight search's default budget of positions: a few seconds on one core.
pub const DEFAULT_STATES: u64 = 20_000;

fn parse_roll(text: &str) -> Result<[u8; 2], String> {
    let parts: Vec<&str> = text.split([',', ' ']).filter(|p| !p.is_empty()).collect();
    let dice: Vec<u8> = parts.iter().filter_map(|p| p.trim().parse::<u8>().ok()).collect();
    match dice[..] {
        [a, b] if parts.len() == 2 && (1..=6).contains(&a) && (1..=6).contains(&b) => Ok([a, b]),
        _ => Err(format!("expected two dice 1 to 6 as A,B (e.g. 3,5), got `{text}`")),
    }
}

/// Runs `coe advise`.
pub fn run(a: AdviseArgs) -> anyhow::Result<()> {
    crate::flags::stop_on_interrupt(a.time_limit);
    if let Some(path) = &a.svg {
        crate::input::check_new(path, a.force)?;
    }
    let catalogue: &Catalogue = &super::load_content(a.content.as_deref())?;
    let record = position(&a, catalogue)?;
    // A game no seed dealt: only what the table saw of it, so nothing never seen can change
    // the advice.
    let at_table = !record.instance.is_dealt();
    let record = if at_table { record.seen(catalogue).unwrap_or(record) } else { record };
    let (mut game, _) = record.replay(catalogue, "position").map_err(|e| bad(e.to_string()))?;
    if game.is_over() {
        return Err(bad("the game is over: there is nothing to advise"));
    }
    match game.unseen() {
        Some(Chance::Roll { turn }) if a.roll.is_none() => {
            return Err(bad(format!(
                "the record stops before the roll of turn {}: give --roll A,B, the dice rolled",
                turn + 1
            )));
        }
        Some(chance @ (Chance::Deck { .. } | Chance::Reshuffle { .. })) => {
            return Err(bad(format!(
                "the record stops before {chance} came up: add it to the record (`coe play --table RECORD` asks for it)"
            )));
        }
        _ => {}
    }
    if let Some(roll) = a.roll {
        if game.dice().iter().any(Option::is_none) || game.pending().is_some() {
            return Err(bad(
                "--roll: the position is within a turn (a die is used or a choice is open); a roll is set at a turn's start",
            ));
        }
        game.set_roll(roll).map_err(|m| bad(format!("--roll: {m}")))?;
    }
    let start = Instant::now();
    let spinner = crate::flags::spinner("valuing every use of the roll", a.json);
    let options =
        signalbox_solver::threads::install(a.threads, || fair::value_options(&game, fair::HORIZON, a.samples as usize));
    let fair_seconds = start.elapsed().as_secs_f64();
    let hindsight = (!a.no_hindsight && !at_table).then(|| {
        let search = SolveOptions {
            // The limit is the whole command's: the hindsight search has what the valuing of
            // the roll's uses left of it.
            time_limit: a.time_limit.map(|t| t.saturating_sub(start.elapsed())),
            positions: (a.states > 0).then_some(a.states),
            threads: a.threads,
            ..SolveOptions::default()
        };
        let solved = solve(&game, search);
        let option = first_turn_match(&game, &solved.line, &options);
        (solved, option)
    });
    spinner.finish_and_clear();
    let exact = options.first().is_some_and(|o| o.exact);
    let shown = a.top.map_or(options.len(), |k| (k as usize).min(options.len()));
    let title = title(&a, &record, &game);
    if let (Some(path), Some(best)) = (&a.svg, options.first()) {
        let rules = record.rules.to_rules(&record.instance).map_err(bad)?;
        let mut line = record.moves.clone();
        line.extend(best.line.iter().cloned());
        let picture = signalbox_render::coe::picture::answer_svg(
            catalogue,
            &record.instance,
            rules,
            &line,
            record.moves.len(),
            &format!("{title}: after the best use of the roll"),
            &[],
        );
        crate::input::write_new(path, &picture, a.force)?;
    }
    if a.json {
        let out = Advice::new(
            title.clone(),
            &game,
            &options,
            shown,
            a.samples,
            hindsight.as_ref().map(|(s, option)| (s, *option)),
            record.clone(),
        );
        say!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    say!("The Cubes of Europe · {title}");
    say!("{}", super::play::draw(&game));
    if exact {
        say!(
            "{} uses of the roll, each valued exactly: the expected final score over every roll and card to come, best play after (see “Exact near the end” in docs/rules/cubes-of-europe.md).",
            options.len()
        );
    } else {
        say!(
            "{} uses of the roll, each estimated by {} playouts: the mean final score when play goes on by the playout policy over random dice and cards, with its 95% interval (see “Estimated before that” in docs/rules/cubes-of-europe.md).",
            options.len(),
            a.samples
        );
    }
    let mut table = comfy_table::Table::new();
    table.load_preset(comfy_table::presets::NOTHING);
    table.set_header(vec!["#", "value", "95% interval", "moves"]);
    for (i, o) in options.iter().take(shown).enumerate() {
        let interval = if o.exact {
            "exact".to_string()
        } else {
            format!("{:.2} to {:.2}", o.value - o.half_width, o.value + o.half_width)
        };
        let mark = match &hindsight {
            Some((_, Some(h))) if *h == i => "  <- hindsight's line",
            _ => "",
        };
        let words: Vec<String> = o.line.iter().map(Move::to_string).collect();
        table.add_row(vec![
            format!("{}", i + 1),
            format!("{:.2}", o.value),
            interval,
            format!("{}{mark}", words.join("; ")),
        ]);
    }
    say!("{table}");
    if shown < options.len() {
        say!("({} more; --top to show more)", options.len() - shown);
    }
    if at_table && !a.no_hindsight {
        say!("No hindsight maximum: it needs the dice and cards still to come, which the table has not seen.");
    }
    if let Some((s, option)) = &hindsight {
        let proven = if s.proven { "proven".to_string() } else { format!("not proven, at most {}", s.upper_bound) };
        let which = option
            .map_or_else(|| " (its turn is not among those shown)".to_string(), |i| format!(", by option {}", i + 1));
        say!(
            "Hindsight maximum: {} ({proven}){which}. It knows every die and card to come of this game; the values above do not.",
            s.score
        );
    }
    // The time taken is not part of the answer: it goes with the progress, to standard error.
    eprintln!("Valued in {fair_seconds:.2} s.");
    Ok(())
}

/// The record of the position asked for: a file, or a seed played to the start of a turn by
/// the fair policy.
fn position(a: &AdviseArgs, catalogue: &Catalogue) -> anyhow::Result<Record> {
    if let Some(path) = &a.position {
        let label = path.display().to_string();
        let text = read_text(path)?;
        let record = Record::from_json(&label, &text).map_err(|e| bad(e.to_string()))?;
        record.replay(catalogue, &label).map_err(|e| bad(e.to_string()))?;
        return Ok(record);
    }
    let Some(seed) = a.seed else {
        return Err(bad("give a POSITION (a game record) or --seed N [--turn T]"));
    };
    let turn = a.turn.unwrap_or(1);
    if turn == 0 {
        return Err(bad("--turn: turns count from 1"));
    }
    let instance = Instance::from_seed(seed);
    let rules = Rules { max_turns: a.max_turns, ..Rules::default() };
    let mut game = Game::new(catalogue, &instance, rules);
    let mut moves = Vec::new();
    let mut rng = fair::rng(seed);
    while !game.is_started() || game.turn() + 1 < turn {
        if game.is_over() {
            return Err(bad(format!(
                "--turn {turn}: seed {seed}'s game, played by the fair policy, ends after {} turns",
                game.turn()
            )));
        }
        for mv in fair::choose_turn(&game, Policy::Fair, fair::HORIZON, &mut rng) {
            game.play(mv).map_err(|e| anyhow::anyhow!("internal error: the fair policy's move is illegal: {e}"))?;
            moves.push(mv);
        }
    }
    if game.is_over() {
        return Err(bad(format!(
            "--turn {turn}: seed {seed}'s game, played by the fair policy, ends after {} turns",
            game.turn()
        )));
    }
    Ok(Record::new(instance.clone(), rules, moves))
}

fn title(a: &AdviseArgs, record: &Record, game: &Game<'_>) -> String {
    let source = match (&a.position, record.instance.seed) {
        (Some(path), _) => path.display().to_string(),
        (None, Some(seed)) => format!("seed {seed} (the turns before played by the fair policy)"),
        (None, None) => "instance".into(),
    };
    let dice: Vec<String> = game.dice().iter().flatten().map(u8::to_string).collect();
    format!(
        "{source} · turn {} (at most {} left) · roll {}",
        game.turn() + 1,
        game.turns_left_at_most(),
        dice.join(",")
    )
}

/// The option whose turn ends where the hindsight line's first turn does.
fn first_turn_match(game: &Game<'_>, line: &[Move], options: &[Valued]) -> Option<usize> {
    let end = |moves: &[Move]| {
        let mut g = game.clone();
        for &mv in moves {
            if g.play(mv).is_err() {
                return None;
            }
            if g.turn() != game.turn() || g.is_over() {
                return Some(g.key());
            }
        }
        Some(g.key())
    };
    let target = end(line)?;
    options.iter().position(|o| end(&o.line) == Some(target))
}
