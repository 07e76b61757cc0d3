//! `signalbox puzzles ...`: puzzle collections of every game: make, check, show, try, book.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context as _;
use clap::Subcommand;
use serde_json::json;
use signalbox_puzzles::collection::{self, Collection, Request};
use signalbox_puzzles::puzzle::number;
use signalbox_puzzles::{Difficulty, Kind, Puzzle, PuzzleError, kinds};

use crate::input::{bad, check_new, write_new};
use crate::shard::Shard;

pub mod part;

/// Puzzle collections: positions with exactly one answer, proven, graded and themed.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Makes a collection: candidates from the seed, each solved, kept when its answer beats
    /// every other distinct answer by the margin and it matches the filters, until COUNT are
    /// kept. One JSON file per puzzle and a manifest (collection.json) in --out. The same seed
    /// makes the same collection, byte for byte, on any number of threads.
    ///
    /// The kinds (see `signalbox puzzles kinds`): express01 (the best bonus route), coe (reach
    /// the maximum), cube-express (the best turn), railways-link (the fewest tiles),
    /// railways-roll (use this roll). --game takes a kind, or a game with one kind.
    ///
    /// Examples:
    ///   signalbox puzzles make --game coe --count 10 --seed 1 --out coe-puzzles
    ///   signalbox puzzles make --game railways-roll --count 5 --seed 7 --difficulty hard --out hard
    ///   signalbox puzzles make --game express01 --count 30 --seed 1 --per-difficulty 10 --out book1
    #[command(verbatim_doc_comment)]
    Make {
        /// The kind of puzzle: a kind's name, or a game with one kind.
        #[arg(long, value_name = "G")]
        game: String,
        /// How many puzzles.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
        count: u32,
        /// The collection's seed.
        #[arg(long, value_name = "S")]
        seed: u64,
        /// Keep only puzzles of this difficulty: easy, medium or hard.
        #[arg(long, value_parser = difficulty)]
        difficulty: Option<Difficulty>,
        /// Keep only puzzles with this theme (`signalbox puzzles kinds` lists each kind's).
        #[arg(long, value_name = "T")]
        theme: Option<String>,
        /// Keep only puzzles whose answer beats every other by at least M (the kind's unit; the
        /// default is the kind's: 2 value points for cube-express, 1 elsewhere).
        #[arg(long, value_name = "M", value_parser = margin)]
        margin: Option<f64>,
        /// At most P puzzles of each difficulty (a mixed collection: --count 30
        /// --per-difficulty 10 keeps ten of each).
        #[arg(long, value_name = "P", value_parser = clap::value_parser!(u32).range(1..))]
        per_difficulty: Option<u32>,
        /// Give up after this many candidates (the default: 400 per puzzle asked for); the
        /// collection is then short, and says so.
        #[arg(long, value_name = "C")]
        max_candidates: Option<u64>,
        /// The folder to write (created; must be empty unless --force). With --shard, the part's
        /// file.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Make only part K of N: the candidates whose index leaves K-1 when divided by N, until
        /// the part alone has COUNT puzzles. The part's file (--out) resumes when run again;
        /// `signalbox merge DIR PARTS...` makes of the N parts the collection one run makes.
        #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
        shard: Option<Shard>,
        /// Replace the collection in --out.
        #[arg(long)]
        force: bool,
        /// Worker threads (default: one per core); the collection does not depend on it.
        #[arg(long, value_parser = crate::flags::threads)]
        threads: Option<usize>,
        /// No progress bar.
        #[arg(long)]
        quiet: bool,
        /// Print the manifest's statistics as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Solves every puzzle again and checks its answer, its uniqueness (the runner-up and the
    /// margin), its grade and its themes; names each puzzle that fails (exit 1). Takes
    /// collection folders and puzzle files.
    ///
    /// Examples:
    ///   signalbox puzzles check puzzles/collections/coe-max
    ///   signalbox puzzles check puzzles/collections/*
    #[command(verbatim_doc_comment)]
    Check {
        /// Collection folders or puzzle files.
        #[arg(required = true, value_name = "DIR|FILE")]
        paths: Vec<PathBuf>,
        /// Worker threads (default: one per core).
        #[arg(long, value_parser = crate::flags::threads)]
        threads: Option<usize>,
        /// Print the result per puzzle as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Shows a puzzle: its question, grade and board (--svg), and with --answer its answer and
    /// proof. An id (KIND-NUMBER) makes the puzzle again from its number alone.
    ///
    /// Examples:
    ///   signalbox puzzles show puzzles/collections/coe-max/coe-max-123.json --svg board.svg
    ///   signalbox puzzles show coe-max-123 --answer
    #[command(verbatim_doc_comment)]
    Show {
        /// A puzzle file or a puzzle id.
        #[arg(value_name = "ID|FILE")]
        puzzle: String,
        /// Also print the answer and its proof (and draw the answer with --svg).
        #[arg(long)]
        answer: bool,
        /// Draw the board into this SVG file.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
        /// Replace an existing --svg file.
        #[arg(long)]
        force: bool,
        /// Print the puzzle file's JSON.
        #[arg(long)]
        json: bool,
    },
    /// Checks a player's answer: solved, or legal and short of the best by how much, or
    /// illegal and why. The answer is given in the words of the answer key. Exits 0 when the
    /// answer solves the puzzle, 1 when it does not (short of the best, or not legal), 2 when
    /// the puzzle or the answer cannot be read.
    ///
    /// Examples:
    ///   signalbox puzzles try coe-max-1066428519 "second die: gain a worker; first die: gain a worker | second die as 3: gain white (deck card, square 2); first die as 5: place on hex 14; white: gain red"
    ///   signalbox puzzles try puzzles/collections/coe-max/coe-max-1066428519.json "pass" --json
    #[command(verbatim_doc_comment)]
    Try {
        /// A puzzle file or a puzzle id.
        #[arg(value_name = "ID|FILE")]
        puzzle: String,
        /// The answer, in words.
        answer: String,
        /// Print the verdict as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Writes a printable book of a collection: the puzzles with their boards by difficulty,
    /// then the answer key with each answer drawn; and a PDF beside it, printed by headless
    /// Chromium (Debian's `chromium`, or the program in SIGNALBOX_CHROMIUM).
    ///
    /// Examples:
    ///   signalbox puzzles book puzzles/collections/coe-max --html coe-book.html
    ///   signalbox puzzles book puzzles/collections/railways-roll --html club.html --title "Club night: one roll"
    #[command(verbatim_doc_comment)]
    Book {
        /// The collection folder.
        dir: PathBuf,
        /// The book's title (default: the kind of puzzle's, such as "Reach the maximum").
        #[arg(long)]
        title: Option<String>,
        /// The book's HTML file.
        #[arg(long, value_name = "FILE")]
        html: PathBuf,
        /// The PDF file (default: the HTML file's name with .pdf).
        #[arg(long, value_name = "FILE", conflicts_with = "no_pdf")]
        pdf: Option<PathBuf>,
        /// Write the HTML only.
        #[arg(long)]
        no_pdf: bool,
        /// Replace existing files.
        #[arg(long)]
        force: bool,
    },
    /// Lists the kinds of puzzle: game, unit, themes, grading.
    Kinds {
        /// As JSON.
        #[arg(long)]
        json: bool,
    },
}

fn difficulty(text: &str) -> Result<Difficulty, String> {
    Difficulty::parse(text).ok_or_else(|| format!("expected easy, medium or hard, got {text:?}"))
}

fn margin(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(m) if m.is_finite() && m > 0.0 => Ok(m),
        _ => Err(format!("expected a margin above 0, got {text:?}")),
    }
}

/// The kind a `--game` names: a kind's name, or a game that has exactly one kind.
fn resolve(game: &str) -> anyhow::Result<&'static dyn Kind> {
    let all = kinds();
    if let Some(k) = all.iter().find(|k| k.name() == game) {
        return Ok(*k);
    }
    let of: Vec<_> = all.iter().filter(|k| k.game() == game).collect();
    match of.as_slice() {
        [one] => Ok(**one),
        [] => Err(bad(format!(
            "--game {game:?}: no such kind; the kinds are {}",
            all.iter().map(|k| k.name()).collect::<Vec<_>>().join(", ")
        ))),
        many => Err(bad(format!(
            "--game {game}: the game has {} kinds of puzzle; name one: {}",
            many.len(),
            many.iter().map(|k| k.name()).collect::<Vec<_>>().join(", ")
        ))),
    }
}

fn puzzle_error(e: PuzzleError) -> anyhow::Error {
    bad(e.to_string())
}

/// A puzzle from a file, or made again from its id.
fn load(text: &str) -> anyhow::Result<Puzzle> {
    let path = Path::new(text);
    if path.exists() || text.ends_with(".json") {
        return collection::read_puzzle(path).map_err(puzzle_error);
    }
    let (kind, candidate) = collection::parse_id(text)
        .map_err(|e| bad(format!("{text:?}: neither a puzzle file nor a puzzle id ({e})")))?;
    collection::make_one(kind, candidate, kind.default_margin())
        .map_err(|r| bad(format!("{text}: candidate {candidate} of {} makes no puzzle: {}", kind.name(), r.reason())))
}

/// Runs a puzzles command.
pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        Command::Make {
            game,
            count,
            seed,
            difficulty,
            theme,
            margin,
            per_difficulty,
            max_candidates,
            out,
            shard,
            force,
            threads,
            quiet,
            json,
        } => {
            let kind = resolve(&game)?;
            if shard.is_none() {
                collection::check_out_dir(&out, force).map_err(puzzle_error)?;
            }
            let request = Request {
                count: count as usize,
                seed,
                difficulty,
                theme,
                margin,
                max_candidates: max_candidates.unwrap_or(u64::from(count) * 400),
                per_difficulty: per_difficulty.map(|p| p as usize),
            };
            if let Some(part) = shard {
                return part::make(kind, &request, part, &out, force, threads, quiet || json);
            }
            let bar = crate::flags::progress(u64::from(count), "puzzles", quiet || json);
            let started = Instant::now();
            let made = signalbox_solver::threads::install(threads, || {
                collection::make(kind, &request, &|kept| bar.set_position(kept as u64))
            })
            .map_err(puzzle_error)?;
            bar.finish_and_clear();
            let seconds = started.elapsed().as_secs_f64();
            collection::write(&out, &made, force).map_err(puzzle_error)?;
            print_made(&made, &out, Some(seconds), json);
            if made.manifest.short {
                eprintln!(
                    "warning: only {} of {} puzzles within {} candidates; raise --max-candidates or loosen the filters",
                    made.puzzles.len(),
                    count,
                    request.max_candidates
                );
            }
            Ok(())
        }
        Command::Check { paths, threads, json } => check(&paths, threads, json),
        Command::Show { puzzle, answer, svg, force, json } => {
            if let Some(svg) = &svg {
                check_new(svg, force)?;
            }
            let p = load(&puzzle)?;
            let kind = signalbox_puzzles::find(&p.kind).map_err(puzzle_error)?;
            if json {
                say!("{}", collection::to_json(&p).trim_end());
            } else {
                say!("{} · {} · {}", p.id, kind.title(), p.grade.difficulty);
                say!("{}", p.question);
                if answer {
                    say!("answer: {}", p.answer.text);
                    say!("{}", signalbox_puzzles::book::proof_line(&p, kind.unit(), kind.better()));
                    say!("grade: {}", signalbox_puzzles::book::grade_line(&p));
                    say!("themes: {}", if p.themes.is_empty() { "none".to_string() } else { p.themes.join(", ") });
                }
            }
            if let Some(svg) = &svg {
                let picture = kind.picture(&p.position, answer.then_some(&p.answer)).map_err(puzzle_error)?;
                write_new(svg, &picture, force)?;
            }
            Ok(())
        }
        Command::Try { puzzle, answer, json } => {
            let p = load(&puzzle)?;
            let kind = signalbox_puzzles::find(&p.kind).map_err(puzzle_error)?;
            let attempt = kind.attempt(&p.position, &answer).map_err(puzzle_error)?;
            let solved = attempt.solved();
            if json {
                say!("{}", serde_json::to_string_pretty(&attempt).context("the verdict as JSON")?);
                anyhow::ensure!(solved, "the answer does not solve the puzzle");
                return Ok(());
            }
            say!("read as: {}", attempt.understood);
            say!("{}", attempt.verdict_words(kind.unit()));
            anyhow::ensure!(solved, "the answer does not solve the puzzle");
            Ok(())
        }
        Command::Book { dir, title, html, pdf, no_pdf, force } => {
            let pdf = (!no_pdf).then(|| pdf.unwrap_or_else(|| html.with_extension("pdf")));
            check_new(&html, force)?;
            if let Some(pdf) = &pdf {
                check_new(pdf, force)?;
            }
            let made = collection::read(&dir).map_err(puzzle_error)?;
            let book = signalbox_puzzles::book::book(&made, title.as_deref()).map_err(puzzle_error)?;
            let page = signalbox_render::book::book_page(&book);
            write_new(&html, &page, force)?;
            say!("wrote {} ({} puzzles)", html.display(), made.puzzles.len());
            if let Some(pdf) = pdf {
                print_pdf(&html, &pdf)?;
                say!("wrote {}", pdf.display());
            }
            Ok(())
        }
        Command::Kinds { json } => {
            let all = kinds();
            if json {
                let list: Vec<_> = all
                    .iter()
                    .map(|k| {
                        json!({
                            "kind": k.name(), "game": k.game(), "title": k.title(), "unit": k.unit(),
                            "default_margin": k.default_margin(), "grading": k.grading(),
                            "simple_technique": k.simple_technique(),
                            "themes": k.themes().iter().map(|t| json!({"name": t.name, "description": t.description})).collect::<Vec<_>>(),
                        })
                    })
                    .collect();
                say!("{}", serde_json::to_string_pretty(&list).context("the kinds as JSON")?);
                return Ok(());
            }
            for k in all {
                say!(
                    "{} ({}): {}; in {}, default margin {}",
                    k.name(),
                    k.game(),
                    k.title(),
                    k.unit(),
                    number(k.default_margin())
                );
                say!("  grading: {}", k.grading());
                for t in k.themes() {
                    say!("  theme {}: {}", t.name, t.description);
                }
            }
            Ok(())
        }
    }
}

fn print_made(made: &Collection, out: &Path, seconds: Option<f64>, json: bool) {
    let s = &made.manifest.stats;
    if json {
        let v = json!({"out": out.display().to_string(), "kind": made.manifest.kind, "short": made.manifest.short, "stats": s});
        say!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        return;
    }
    say!("{} {} puzzles in {} ({} candidates tried)", s.kept, made.manifest.kind, out.display(), s.candidates);
    if let Some(t) = seconds {
        eprintln!("Made in {t:.1} s.");
    }
    let list = |m: &std::collections::BTreeMap<String, u64>| {
        m.iter().map(|(k, v)| format!("{k} {v}")).collect::<Vec<_>>().join(", ")
    };
    say!("difficulty: {}", list(&s.difficulties));
    say!("themes: {}", if s.themes.is_empty() { "none".to_string() } else { list(&s.themes) });
    say!("passed over: {}", if s.rejected.is_empty() { "none".to_string() } else { list(&s.rejected) });
}

fn check(paths: &[PathBuf], threads: Option<usize>, json: bool) -> anyhow::Result<()> {
    let mut all = Vec::new();
    for path in paths {
        if path.is_dir() {
            let checked =
                signalbox_solver::threads::install(threads, || collection::check_dir(path)).map_err(puzzle_error)?;
            all.extend(checked);
        } else if path.exists() {
            let p = collection::read_puzzle(path).map_err(puzzle_error)?;
            all.push(collection::Checked {
                id: p.id.clone(),
                file: path.clone(),
                problems: collection::check_puzzle(&p),
            });
        } else {
            return Err(bad(format!("{}: no such file or folder", path.display())));
        }
    }
    let failed = all.iter().filter(|c| !c.problems.is_empty()).count();
    if json {
        let v: Vec<_> = all
            .iter()
            .map(|c| json!({"id": c.id, "file": c.file.display().to_string(), "ok": c.problems.is_empty(), "problems": c.problems}))
            .collect();
        say!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
    } else {
        for c in all.iter().filter(|c| !c.problems.is_empty()) {
            say!("FAIL {} ({})", c.id, c.file.display());
            for p in &c.problems {
                say!("  {p}");
            }
        }
        say!("{} puzzles checked: {} good, {failed} failed", all.len(), all.len() - failed);
    }
    if failed > 0 {
        anyhow::bail!("{failed} of {} puzzles failed the check", all.len());
    }
    Ok(())
}

/// Prints an HTML file to PDF with headless Chromium (tried twice: a headless browser started
/// on a busy machine now and then dies before it prints), through a temporary file renamed
/// into place, so a PDF that is there stays whole until the new one is printed.
fn print_pdf(html: &Path, pdf: &Path) -> anyhow::Result<()> {
    let program = std::env::var("SIGNALBOX_CHROMIUM").unwrap_or_else(|_| "chromium".to_owned());
    let html = std::fs::canonicalize(html).with_context(|| format!("{}", html.display()))?;
    let done = std::env::current_dir().context("the current folder")?.join(pdf);
    let target = done.with_extension("pdf.part");
    let mut last = None;
    for attempt in 0..2 {
        let _ = std::fs::remove_file(&target);
        let profile = std::env::temp_dir().join(format!("signalbox-print-{}-{attempt}", std::process::id()));
        let status = std::process::Command::new(&program)
            .args(["--headless", "--disable-gpu", "--no-sandbox", "--no-pdf-header-footer", "--no-first-run"])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(format!("--print-to-pdf={}", target.display()))
            .arg(format!("file://{}", html.display()))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status();
        let _ = std::fs::remove_dir_all(&profile);
        match status {
            Ok(s) if s.success() && target.exists() => {
                return std::fs::rename(&target, &done).with_context(|| format!("{}", done.display()));
            }
            Ok(s) => last = Some(format!("{program} could not print {} ({s})", pdf.display())),
            Err(e) => {
                let _ = std::fs::remove_file(&target);
                anyhow::bail!(
                    "cannot print the PDF: cannot start {program} ({e}); install Debian's chromium or pass --no-pdf"
                )
            }
        }
    }
    let _ = std::fs::remove_file(&target);
    anyhow::bail!("{}", last.unwrap_or_default())
}
