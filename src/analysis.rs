//! What every game's `analyse` shares: its flags, the check of the `--html` path before any work,
//! and the printing of a [`Review`] as text, as JSON or as a page.

use std::path::PathBuf;
use std::time::Duration;

use comfy_table::{ContentArrangement, Table, presets::UTF8_FULL_CONDENSED};
use signalbox_render::page::{self, TurningBoards};
use signalbox_solver::analysis::{Label, Review, number};

use crate::input::{check_new, write_new};

/// The flags of `analyse`, the same in every game.
#[derive(clap::Args, Debug, Clone)]
pub struct AnalyseFlags {
    /// Print the review as one JSON object: `decisions` (each with `played`, `best`,
    /// `value_before`, `value_after` and `loss`), `summary` (per player, the turning points,
    /// every decision ranked by loss), `measure` and `charts`.
    #[arg(long)]
    pub json: bool,
    /// Also write the review as one self-contained HTML page (inline pictures and style, no
    /// network): the summary, a chart of the game, the move table and the turning points drawn.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Replace the page if the file exists.
    #[arg(long)]
    pub force: bool,
    /// Search threads (default: one per core); the review is the same on any number.
    #[arg(long, value_name = "T", allow_negative_numbers = true, value_parser = crate::flags::threads)]
    pub threads: Option<usize>,
    /// Stop each position's search after this many seconds; the values it could not prove are
    /// labelled not proven.
    #[arg(long, value_name = "S", allow_negative_numbers = true, value_parser = crate::flags::seconds)]
    pub time_limit: Option<Duration>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

impl AnalyseFlags {
    /// Checks the `--html` path before any work: an existing file without `--force` is bad input.
    pub fn check_outputs(&self) -> anyhow::Result<()> {
        if let Some(path) = &self.html {
            check_new(path, self.force)?;
        }
        Ok(())
    }

    /// Prints the review (JSON or text) and writes the page if asked for.
    pub fn finish(&self, review: &Review, boards: &[TurningBoards]) -> anyhow::Result<()> {
        if let Some(path) = &self.html {
            write_new(path, &page::review_page(review, boards), self.force)?;
        }
        if self.json {
            say!("{}", serde_json::to_string_pretty(review)?);
        } else {
            print_text(review);
            if let Some(path) = &self.html {
                say!("page: {}", path.display());
            }
        }
        Ok(())
    }
}

fn print_text(review: &Review) {
    let m = &review.measure;
    say!("{}", review.title);
    say!(
        "values: {} ({} are lost; {} is better)",
        m.name,
        m.unit,
        match m.better {
            signalbox_solver::analysis::Better::Higher => "higher",
            signalbox_solver::analysis::Better::Lower => "lower",
        }
    );
    if !m.assumes.is_empty() {
        say!("{}", m.assumes);
    }
    for fact in &review.facts {
        say!("{fact}");
    }
    if !review.summary.proven {
        say!(
            "not proven: a limit stopped some searches short; their values are shown as the ranges they lie in, and a loss is claimed only where its range excludes zero"
        );
    }
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    // Long moves (a whole Cube Express turn) wrap inside their cells: to the terminal's width,
    // else to $COLUMNS, else to 160 columns.
    let width = table.width().or_else(|| std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok())).unwrap_or(160);
    table.set_content_arrangement(ContentArrangement::Dynamic).set_width(width);
    let solo = review.players.len() <= 1;
    let mut header = vec!["#", "turn"];
    if !solo {
        header.push("player");
    }
    header.extend(["decision", "played", "best", "before", "after", "loss", "label"]);
    // The second value, which does not know the future, where the game computes it.
    let fair = review.decisions.iter().any(|d| d.fair_play.is_some());
    if fair {
        header.extend(["fair play", "fair loss"]);
    }
    table.set_header(header);
    for d in &review.decisions {
        let mut row = vec![d.index.to_string(), d.turn.to_string()];
        if !solo {
            row.push(review.players.get(d.player).cloned().unwrap_or_default());
        }
        let best = if d.lost_nothing() { "=".to_owned() } else { d.best.text.clone() };
        row.extend([
            d.kind.clone(),
            d.played.text.clone(),
            best,
            d.before_text(),
            d.after_text(),
            d.loss_text(m.better),
            d.label.map_or("", Label::words).to_owned(),
        ]);
        if fair {
            let (value, loss) = d.fair_play.as_ref().map_or((String::new(), String::new()), |f| {
                let pm = if f.exact { String::new() } else { format!(" ±{:.1}", f.half_width) };
                (format!("{:.2}{pm}", f.played), format!("{:.2}", f.loss))
            });
            row.extend([value, loss]);
        }
        table.add_row(row);
    }
    say!("{table}");
    if let Some(split) = review.fair_play.as_ref().filter(|f| !f.turns.is_empty()) {
        let mut luck = Table::new();
        luck.load_preset(UTF8_FULL_CONDENSED);
        luck.set_content_arrangement(ContentArrangement::Dynamic).set_width(width);
        luck.set_header(["turn", "chance", "expected before", "luck", "skill", "after"]);
        for t in &split.turns {
            luck.add_row([
                if t.turn == 0 { "start".to_owned() } else { t.turn.to_string() },
                t.chance.clone(),
                format!("{:.2}", t.expected),
                format!("{:+.2}", t.luck),
                format!("{:+.2}", t.skill),
                format!("{:.2}", t.value_after),
            ]);
        }
        say!(
            "luck and skill turn by turn (luck: the expected final score after the roll and cards less before them; skill: after the turn's decisions less after the turn the reference player would have played; expected + luck + skill = after):"
        );
        say!("{luck}");
    }
    if review.summary.turning_points.is_empty() {
        say!(
            "turning points: none, {}",
            if review.summary.proven { "no decision lost anything" } else { "no decision surely lost anything" }
        );
    } else {
        say!("turning points:");
        for &i in &review.summary.turning_points {
            if let Some(d) = review.decision(i) {
                say!(
                    "  #{} (turn {}, {}): lost {} {}; played {}; best {}",
                    d.index,
                    d.turn,
                    d.kind,
                    d.loss_text(m.better),
                    m.unit,
                    d.played.text,
                    d.best.text
                );
            }
        }
    }
    for p in &review.summary.players {
        say!(
            "{}: {} decisions, {} lost nothing, total loss {} {}, largest {}; {}",
            p.name,
            p.decisions,
            p.lost_nothing,
            number(p.total_loss),
            m.unit,
            number(p.largest_loss),
            p.labels_in_words()
        );
    }
    let t = &m.thresholds;
    say!(
        "labels: a loss of at least {} {unit} is an inaccuracy, {} a mistake, {} a blunder; accuracy counts each decision 100 less 100 for each {} {unit} lost, at least 0",
        number(t.inaccuracy),
        number(t.mistake),
        number(t.blunder),
        number(t.blunder),
        unit = m.unit
    );
}
