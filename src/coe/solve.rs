//! `signalbox coe solve`: the proven best score of a seed or an entered instance, its line, and
//! the perfect-score bound.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use signalbox_engine::coe::{Catalogue, Game, Instance, Move, Record, Rules, Score};
use signalbox_solver::coe::search::{SolveOptions, Solved, solve};

use super::play::draw;
use crate::input::{bad, check_new, read_text, write_new};

/// Which game to solve or play: a seed, or an instance file (one of them; `coe play --table`
/// takes neither).
#[derive(clap::Args, Debug, Clone)]
#[group(multiple = false)]
pub struct Source {
    /// The seed (it fixes the board card, the deck, the reshuffle and every die).
    #[arg(long)]
    pub seed: Option<u64>,
    /// An instance file (JSON, as `coe instance --json` prints it): the cards and rolls of a game
    /// played at the table.
    #[arg(long, value_name = "FILE")]
    pub instance: Option<PathBuf>,
}

impl Source {
    /// The instance named, checked.
    pub fn load(&self) -> anyhow::Result<Instance> {
        match (&self.instance, self.seed) {
            (Some(path), _) => {
                let label = path.display().to_string();
                let text = read_text(path)?;
                let instance: Instance =
                    signalbox_engine::source::parse_json(&label, &text).map_err(|e| bad(e.to_string()))?;
                instance.check().map_err(|m| bad(format!("{label}: {m}")))?;
                if instance.is_table() {
                    return Err(bad(format!(
                        "{label}: the instance holds only what a table saw ({} of 8 deck cards, {} rolls): this needs every card and roll of the game; for advice that does not know the future use `coe advise` on a record",
                        instance.seen().deck,
                        instance.seen().dice
                    )));
                }
                Ok(instance)
            }
            (None, Some(seed)) => Ok(Instance::from_seed(seed)),
            (None, None) => Err(bad("give --seed N or --instance FILE")),
        }
    }

    /// How outputs name the game.
    pub fn label(&self, instance: &Instance) -> String {
        match (&self.instance, instance.seed) {
            (Some(path), _) => path.display().to_string(),
            (None, Some(seed)) => format!("seed {seed}"),
            (None, None) => "instance".into(),
        }
    }
}

/// Search options shared by `solve` and `batch`.
#[derive(clap::Args, Debug, Clone)]
pub struct SearchArgs {
    /// Stop after S seconds and report the best line found with an upper bound, not proven.
    #[arg(long, value_name = "S", allow_negative_numbers = true, value_parser = crate::flags::seconds)]
    pub time_limit: Option<Duration>,
    /// Threads (default: one per core). The answer does not depend on it.
    #[arg(long, value_name = "T", allow_negative_numbers = true, value_parser = crate::flags::threads)]
    pub threads: Option<usize>,
    /// End the game after K turns (a shortened game, as the tests use).
    #[arg(long, value_name = "K")]
    pub max_turns: Option<usize>,
    /// The top of the workers track (docs/rules/cubes-of-europe.md).
    #[arg(long, value_name = "N", default_value_t = 6)]
    pub max_workers: u8,
    /// Content file (TOML); default: the embedded house set.
    #[arg(long, value_name = "FILE")]
    pub content: Option<PathBuf>,
}

impl SearchArgs {
    /// The rule options.
    pub fn rules(&self) -> anyhow::Result<Rules> {
        if !(1..=20).contains(&self.max_workers) {
            return Err(bad(format!("--max-workers: expected 1 to 20, got {}", self.max_workers)));
        }
        Ok(Rules { max_workers: self.max_workers, max_turns: self.max_turns, ..Rules::default() })
    }

    /// The solver's options.
    pub fn options(&self) -> SolveOptions {
        SolveOptions { time_limit: self.time_limit, threads: self.threads, ..SolveOptions::default() }
    }
}

/// Arguments of `coe solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    source: Source,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Print one JSON object: a game record (it replays with `coe replay`) with `score`, `rank`,
    /// `proven`, `upper_bound` and `perfect_bound`.
    #[arg(long)]
    json: bool,
    /// Also draw the board at the end of the line as an SVG picture (each filled hex marked with
    /// the turn its cube went down).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Replace the picture file if it exists.
    #[arg(long)]
    force: bool,
}

/// A solved game, replayed by the engine: the certificate check.
pub struct Checked {
    /// The solver's answer.
    pub solved: Solved,
    /// The score the engine recomputes from the line.
    pub score: Score,
    /// Wall time.
    pub seconds: f64,
}

/// Solves an instance and replays the line in the engine; a line the engine refuses or scores
/// differently is an internal error.
pub fn solve_checked(
    catalogue: &Catalogue,
    instance: &Instance,
    rules: Rules,
    options: SolveOptions,
) -> anyhow::Result<Checked> {
    let game = Game::new(catalogue, instance, rules);
    let start = Instant::now();
    let solved = solve(&game, options);
    let seconds = start.elapsed().as_secs_f64();
    let record = Record::new(instance.clone(), rules, solved.line.clone());
    let (end, score) = record
        .replay(catalogue, "solver line")
        .map_err(|e| anyhow::anyhow!("internal error: the solver's line does not replay: {e}"))?;
    if !end.is_over() || score.total() != solved.score {
        anyhow::bail!(
            "internal error: the solver claims {} but its line scores {} (game over: {})",
            solved.score,
            score.total(),
            end.is_over()
        );
    }
    Ok(Checked { solved, score, seconds })
}

/// Runs `coe solve`.
pub fn run(a: SolveArgs, catalogue: &Catalogue) -> anyhow::Result<()> {
    if let Some(path) = &a.svg {
        check_new(path, a.force)?;
    }
    let instance = a.source.load()?;
    let rules = a.search.rules()?;
    let options = a.search.options();
    let spinner = crate::flags::spinner(&format!("solving {}", a.source.label(&instance)), a.json);
    let checked = solve_checked(catalogue, &instance, rules, options);
    spinner.finish_and_clear();
    let checked = checked?;
    let s = &checked.solved;
    if let Some(path) = &a.svg {
        let title = format!(
            "{} · {} {}",
            a.source.label(&instance),
            if s.proven { "maximum" } else { "best found" },
            checked.score.total()
        );
        write_new(
            path,
            &signalbox_render::coe::picture::board_svg(catalogue, &instance, rules, &s.line, &title),
            a.force,
        )?;
    }
    if a.json {
        let mut record = Record::new(instance.clone(), rules, s.line.clone());
        record.score = Some(s.score);
        record.rank = Some(checked.score.rank().to_string());
        record.proven = Some(s.proven);
        record.upper_bound = Some(s.upper_bound);
        record.perfect_bound = Some(s.perfect_bound);
        say!("{}", serde_json::to_string_pretty(&record)?);
        return Ok(());
    }
    let label = a.source.label(&instance);
    let board = catalogue.card(instance.board).map_or_else(|| instance.board.to_string(), |c| c.name.clone());
    say!("The Cubes of Europe · {label} · board card {} {board} · {}", instance.board, catalogue.label());
    let mut end = Game::new(catalogue, &instance, rules);
    for &mv in &s.line {
        end.play_unchecked(mv);
    }
    say!("{}", draw(&end));
    if s.proven {
        say!("Maximum score (proven): {}", checked.score);
    } else {
        say!("Best score found (NOT PROVEN, time limit reached): {}", checked.score);
        say!("No line scores more than {} (gap {}).", s.upper_bound, s.upper_bound - s.score);
    }
    say!("Perfect-score bound {} (gap {}).", s.perfect_bound, s.perfect_bound.saturating_sub(s.score));
    // The work done is not part of the answer (threads share it out differently).
    eprintln!("Searched {} positions in {:.2} s.", s.positions, checked.seconds);
    say!("The line, replayed and re-scored by the rules engine:");
    for line in turn_by_turn(catalogue, &instance, rules, &s.line) {
        say!("{line}");
    }
    Ok(())
}

/// The line grouped by turn: the start, then each turn's dice (numbered from 0, as moves and
/// records number them) and moves.
pub fn turn_by_turn(catalogue: &Catalogue, instance: &Instance, rules: Rules, line: &[Move]) -> Vec<String> {
    let mut game = Game::new(catalogue, instance, rules);
    let mut out = Vec::new();
    let mut current: Vec<String> = Vec::new();
    let mut header = String::from("  setup");
    for &mv in line {
        let turn = game.turn();
        let started = game.is_started();
        if current.is_empty() && started {
            header = format!("  turn {:>2} ({})", turn + 1, super::play::dice_text(&game));
        }
        current.push(mv.to_string());
        let tucked = game.tucked().len();
        game.play_unchecked(mv);
        for &id in &game.tucked()[tucked..] {
            let card = catalogue.card(id);
            let name = card.map_or_else(|| id.to_string(), |c| format!("{id} {}", c.name));
            let text = card.map_or_else(String::new, |c| format!(": \"{}\"", c.market.text));
            current.push(format!("tuck {name}{text}"));
        }
        if game.turn() != turn || !started || game.is_over() {
            out.push(format!("{header}: {}", current.join("; ")));
            current.clear();
        }
    }
    if !current.is_empty() {
        out.push(format!("{header}: {}", current.join("; ")));
    }
    out
}
