//! Collections: made from a seed (byte for byte the same on any number of threads), written as one
//! JSON file per puzzle and a manifest, read back and checked against a fresh solve.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::kind::{Kind, find};
use crate::puzzle::{Difficulty, FORMAT, Puzzle, PuzzleError, Verdict, differences};

/// The manifest's file name in a collection folder.
pub const MANIFEST: &str = "collection.json";

/// Candidate numbers stay below this (ten digits), so that ids are short.
const CANDIDATES: u64 = 10_000_000_000;

/// Candidates are solved in parallel in chunks of this many; the result does not depend on it.
const CHUNK: u64 = 24;

/// The candidate number of the `index`-th candidate of a collection made from `seed` (a
/// SplitMix64 step of both, reduced to ten digits). Documented in `docs/formats/puzzles.md`, so
/// that it never changes.
pub fn candidate_number(seed: u64, index: u64) -> u64 {
    let mut z = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(index).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) % CANDIDATES
}

/// A puzzle's id: its kind and candidate number.
pub fn id(kind: &dyn Kind, candidate: u64) -> String {
    format!("{}-{candidate}", kind.name())
}

/// Reads an id (`coe-max-1234567`) back into its kind and candidate number.
pub fn parse_id(text: &str) -> Result<(&'static dyn Kind, u64), PuzzleError> {
    let (name, number) = text
        .rsplit_once('-')
        .ok_or_else(|| PuzzleError::Answer(format!("{text:?} is not a puzzle id (KIND-NUMBER)")))?;
    let kind = find(name)?;
    let candidate = number
        .parse::<u64>()
        .ok()
        .filter(|&c| c < CANDIDATES)
        .ok_or_else(|| PuzzleError::Answer(format!("{text:?}: {number:?} is not a candidate number")))?;
    Ok((kind, candidate))
}

/// Why a candidate made no puzzle.
#[derive(Clone, Debug, PartialEq)]
pub enum Rejected {
    /// The candidate made no position worth solving (the kind's reason).
    NoPosition(&'static str),
    /// Another distinct answer reaches the best value too.
    NotUnique,
    /// The answer is best, but by less than the margin asked for.
    NotClear,
    /// The position holds no puzzle of the kind (the kind's solver says why).
    Unfit(String),
    /// The kind's solver could not answer.
    Failed(String),
}

impl Rejected {
    /// A short name for the statistics of a manifest.
    pub fn reason(&self) -> String {
        match self {
            Rejected::NoPosition(r) => (*r).to_string(),
            Rejected::NotUnique => "two answers tie".to_string(),
            Rejected::NotClear => "margin too small".to_string(),
            Rejected::Unfit(_) => "nothing to find".to_string(),
            Rejected::Failed(_) => "solver failed".to_string(),
        }
    }
}

/// Makes the puzzle of one candidate, or says why there is none.
pub fn make_one(kind: &dyn Kind, candidate: u64, margin: f64) -> Result<Puzzle, Rejected> {
    let position = kind.position(candidate).map_err(Rejected::NoPosition)?;
    let solved = kind.solve(&position).map_err(|e| match e {
        PuzzleError::Unfit(why) => Rejected::Unfit(why),
        e => Rejected::Failed(e.to_string()),
    })?;
    if solved.proof.tied() {
        return Err(Rejected::NotUnique);
    }
    if !solved.proof.clear_by(margin) {
        return Err(Rejected::NotClear);
    }
    let question = kind.question(&position).map_err(|e| Rejected::Failed(e.to_string()))?;
    Ok(Puzzle {
        format: FORMAT,
        id: id(kind, candidate),
        game: kind.game().to_string(),
        kind: kind.name().to_string(),
        candidate,
        margin,
        question,
        position,
        answer: solved.answer,
        grade: solved.grade,
        themes: solved.themes,
        proof: solved.proof,
    })
}

/// What to make.
#[derive(Clone, Debug)]
pub struct Request {
    /// How many puzzles.
    pub count: usize,
    /// The collection's seed.
    pub seed: u64,
    /// Keep only puzzles of this difficulty.
    pub difficulty: Option<Difficulty>,
    /// Keep only puzzles with this theme.
    pub theme: Option<String>,
    /// Keep only puzzles whose answer beats every other by this much (the kind's default if
    /// `None`).
    pub margin: Option<f64>,
    /// Give up after this many candidates (the collection is then short, and says so).
    pub max_candidates: u64,
    /// How many puzzles of each difficulty at most, in a collection that mixes them (`None`: no
    /// limit). With `count` 30 and `per_difficulty` 10 a collection holds ten of each.
    pub per_difficulty: Option<usize>,
}

/// Counts of what a collection's making went through; no time in it, so that a collection is the
/// same byte for byte whenever it is made.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// Candidates looked at, up to the last one kept.
    pub candidates: u64,
    /// Puzzles kept.
    pub kept: u64,
    /// Candidates passed over, by reason.
    pub rejected: BTreeMap<String, u64>,
    /// Puzzles kept, by difficulty.
    pub difficulties: BTreeMap<String, u64>,
    /// Puzzles kept, by theme (a puzzle counts once for each of its themes).
    pub themes: BTreeMap<String, u64>,
}

/// One puzzle as the manifest lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The id.
    pub id: String,
    /// The file, relative to the collection folder.
    pub file: String,
    /// Its difficulty.
    pub difficulty: Difficulty,
    /// Its themes.
    pub themes: Vec<String>,
}

/// A collection's manifest (`collection.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// The format version.
    pub format: u32,
    /// The kind.
    pub kind: String,
    /// The game.
    pub game: String,
    /// The kind's title.
    pub title: String,
    /// The seed.
    pub seed: u64,
    /// How many puzzles were asked for.
    pub count: usize,
    /// The difficulty asked for, if any.
    pub difficulty: Option<Difficulty>,
    /// The theme asked for, if any.
    pub theme: Option<String>,
    /// The margin every answer clears.
    pub margin: f64,
    /// At most this many of each difficulty, if set.
    pub per_difficulty: Option<usize>,
    /// The command that makes this collection again.
    pub command: String,
    /// Whether the collection holds fewer puzzles than asked (the candidate limit was reached).
    pub short: bool,
    /// The puzzles, in the order they were found.
    pub puzzles: Vec<Entry>,
    /// What the making went through.
    pub stats: Stats,
}

/// A collection: the manifest and its puzzles.
#[derive(Clone, Debug, PartialEq)]
pub struct Collection {
    /// The manifest.
    pub manifest: Manifest,
    /// The puzzles, in the manifest's order.
    pub puzzles: Vec<Puzzle>,
}

/// The command line that makes a collection of this request again.
pub fn command(kind: &dyn Kind, request: &Request, margin: f64) -> String {
    let mut c =
        format!("signalbox puzzles make --game {} --count {} --seed {}", kind.name(), request.count, request.seed);
    if let Some(d) = request.difficulty {
        c += &format!(" --difficulty {d}");
    }
    if let Some(t) = &request.theme {
        c += &format!(" --theme {t}");
    }
    if (margin - kind.default_margin()).abs() > 1e-12 {
        c += &format!(" --margin {}", crate::puzzle::number(margin));
    }
    if let Some(p) = request.per_difficulty {
        c += &format!(" --per-difficulty {p}");
    }
    c
}

/// A candidate's outcome as the acceptance sees it: its puzzle, or why it made none (the
/// [`Rejected::reason`] the statistics count).
pub type Outcome = Result<Puzzle, String>;

/// The outcome of the `index`-th candidate of a collection made from `seed`.
fn outcome(kind: &dyn Kind, seed: u64, index: u64, margin: f64) -> Outcome {
    make_one(kind, candidate_number(seed, index), margin).map_err(|r| r.reason())
}

/// The filters and the count, applied to candidates' outcomes in order: what [`make`] keeps.
/// Also run on the candidates of one shard alone ([`make_part`]), to know when the shard has done
/// enough.
pub struct Acceptance<'a> {
    request: &'a Request,
    puzzles: Vec<Puzzle>,
    stats: Stats,
    per: BTreeMap<Difficulty, usize>,
    pending: BTreeMap<String, u64>,
    taken: u64,
}

impl<'a> Acceptance<'a> {
    /// Nothing taken yet.
    pub fn new(request: &'a Request) -> Acceptance<'a> {
        Acceptance {
            request,
            puzzles: Vec::new(),
            stats: Stats::default(),
            per: BTreeMap::new(),
            pending: BTreeMap::new(),
            taken: 0,
        }
    }

    /// Whether `count` puzzles are kept.
    pub fn is_full(&self) -> bool {
        self.puzzles.len() >= self.request.count
    }

    /// The puzzles kept so far.
    pub fn kept(&self) -> usize {
        self.puzzles.len()
    }

    /// Takes the next candidate's outcome: keeps its puzzle if it matches the filters and its
    /// difficulty is not full. Returns whether it was kept. Nothing is taken once full.
    pub fn take(&mut self, outcome: Outcome) -> bool {
        if self.is_full() {
            return false;
        }
        self.taken += 1;
        let request = self.request;
        let reason = match outcome {
            Ok(p) if request.difficulty.is_some_and(|d| d != p.grade.difficulty) => "other difficulty".to_string(),
            Ok(p) if request.theme.as_ref().is_some_and(|t| !p.themes.contains(t)) => "other theme".to_string(),
            Ok(p)
                if request
                    .per_difficulty
                    .is_some_and(|n| self.per.get(&p.grade.difficulty).copied().unwrap_or(0) >= n) =>
            {
                "difficulty already full".to_string()
            }
            Ok(p) => {
                *self.per.entry(p.grade.difficulty).or_default() += 1;
                for (r, n) in std::mem::take(&mut self.pending) {
                    *self.stats.rejected.entry(r).or_default() += n;
                }
                self.stats.candidates = self.taken;
                self.puzzles.push(p);
                return true;
            }
            Err(r) => r,
        };
        *self.pending.entry(reason).or_default() += 1;
        false
    }

    /// The collection of what was kept (`short` if fewer than `count`).
    pub fn finish(self, kind: &dyn Kind) -> Collection {
        let Acceptance { request, puzzles, mut stats, pending, taken, .. } = self;
        let margin = request.margin.unwrap_or(kind.default_margin());
        let short = puzzles.len() < request.count;
        if short {
            for (r, n) in pending {
                *stats.rejected.entry(r).or_default() += n;
            }
            stats.candidates = taken;
        }
        stats.kept = puzzles.len() as u64;
        for p in &puzzles {
            *stats.difficulties.entry(p.grade.difficulty.name().to_string()).or_default() += 1;
            for t in &p.themes {
                *stats.themes.entry(t.clone()).or_default() += 1;
            }
        }
        let manifest = Manifest {
            format: FORMAT,
            kind: kind.name().to_string(),
            game: kind.game().to_string(),
            title: kind.title().to_string(),
            seed: request.seed,
            count: request.count,
            difficulty: request.difficulty,
            theme: request.theme.clone(),
            margin,
            per_difficulty: request.per_difficulty,
            command: command(kind, request, margin),
            short,
            puzzles: puzzles
                .iter()
                .map(|p| Entry {
                    id: p.id.clone(),
                    file: format!("{}.json", p.id),
                    difficulty: p.grade.difficulty,
                    themes: p.themes.clone(),
                })
                .collect(),
            stats,
        };
        Collection { manifest, puzzles }
    }
}

/// Refuses a theme the kind does not have.
fn check_theme(kind: &dyn Kind, request: &Request) -> Result<(), PuzzleError> {
    if let Some(theme) = &request.theme
        && !kind.themes().iter().any(|t| t.name == theme)
    {
        return Err(PuzzleError::Answer(format!(
            "the kind {} has no theme {theme:?}; its themes are {}",
            kind.name(),
            kind.themes().iter().map(|t| t.name).collect::<Vec<_>>().join(", ")
        )));
    }
    Ok(())
}

/// Makes a collection: candidates in order from the seed, each solved (in parallel, on the
/// current rayon pool), kept in candidate order when unique, clear by the margin and matching the
/// filters, until `count` are kept. `progress` is told the number kept so far.
pub fn make(kind: &dyn Kind, request: &Request, progress: &(dyn Fn(usize) + Sync)) -> Result<Collection, PuzzleError> {
    check_theme(kind, request)?;
    let margin = request.margin.unwrap_or(kind.default_margin());
    Ok(walk(request, &|i| outcome(kind, request.seed, i, margin), progress).finish(kind))
}

/// The walk of [`make`] over the outcomes `outcome` gives for each candidate index.
pub fn walk<'a>(
    request: &'a Request,
    outcome: &(dyn Fn(u64) -> Outcome + Sync),
    progress: &(dyn Fn(usize) + Sync),
) -> Acceptance<'a> {
    let mut accepted = Acceptance::new(request);
    let mut index = 0u64;
    while !accepted.is_full() && index < request.max_candidates {
        let end = (index + CHUNK).min(request.max_candidates);
        let results: Vec<Outcome> = (index..end).into_par_iter().map(outcome).collect();
        index = end;
        for result in results {
            if accepted.take(result) {
                progress(accepted.kept());
            }
        }
    }
    accepted
}

/// Makes part `part` (from 1) of `parts` of a collection ([`walk_part`] of the kind's
/// candidates).
pub fn make_part<E>(
    kind: &dyn Kind,
    request: &Request,
    parts: (u64, u64),
    done: Vec<(u64, Outcome)>,
    sink: &mut dyn FnMut(u64, &Outcome) -> Result<(), E>,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Result<usize, E>, PuzzleError> {
    check_theme(kind, request)?;
    let margin = request.margin.unwrap_or(kind.default_margin());
    Ok(walk_part(request, parts, done, &|i| outcome(kind, request.seed, i, margin), sink, progress))
}

/// Walks part `part` (from 1) of `parts`: the candidates whose index leaves `part - 1` when
/// divided by `parts`, in order, until this part alone has kept `count` (by the filters of
/// [`Acceptance`]) or the candidate limit is reached; returns the number it kept. Every
/// candidate's outcome is given to `sink` in order, with its index. `done` holds the part's
/// outcomes already made (a resumed part), in order; they are taken again, not made again.
///
/// The parts' outcomes together decide the walk of [`make`] ([`walk_parts`]): when that walk
/// reaches a candidate past a part's last, it has already kept `count`. For each difficulty, it
/// has seen at least the part's candidates of that difficulty that pass the filters, so it has
/// kept at least as many of it as the part has (both capped by `per_difficulty`); the part's add
/// up to `count`. A part takes up to a whole run's work on its own candidates: the parts save
/// time where `max_candidates` is near what the collection needs.
pub fn walk_part<E>(
    request: &Request,
    (part, parts): (u64, u64),
    done: Vec<(u64, Outcome)>,
    outcome: &(dyn Fn(u64) -> Outcome + Sync),
    sink: &mut dyn FnMut(u64, &Outcome) -> Result<(), E>,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<usize, E> {
    let mut accepted = Acceptance::new(request);
    let mut next = part - 1;
    for (index, outcome) in done {
        accepted.take(outcome);
        next = index + parts;
    }
    progress(accepted.kept());
    while !accepted.is_full() && next < request.max_candidates {
        let mine: Vec<u64> = (0..CHUNK).map(|j| next + j * parts).take_while(|&i| i < request.max_candidates).collect();
        next = mine.last().copied().unwrap_or(next) + parts;
        let results: Vec<(u64, Outcome)> = mine.into_par_iter().map(|i| (i, outcome(i))).collect();
        for (index, result) in results {
            if accepted.is_full() {
                break;
            }
            sink(index, &result)?;
            if accepted.take(result) {
                progress(accepted.kept());
            }
        }
    }
    Ok(accepted.kept())
}

/// The walk of [`make`] over the outcomes of every part ([`walk_part`]), by candidate index;
/// `Err(index)` names the first candidate it needs that no part has.
pub fn walk_parts<'a>(request: &'a Request, outcomes: &BTreeMap<u64, Outcome>) -> Result<Acceptance<'a>, u64> {
    let mut accepted = Acceptance::new(request);
    let mut index = 0u64;
    while !accepted.is_full() && index < request.max_candidates {
        accepted.take(outcomes.get(&index).cloned().ok_or(index)?);
        index += 1;
    }
    Ok(accepted)
}

/// A value as the files hold it: pretty JSON and a final newline.
pub fn to_json<T: Serialize>(value: &T) -> String {
    let mut s = serde_json::to_string_pretty(value).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    s.push('\n');
    s
}

fn io_error(path: &Path, e: impl std::fmt::Display) -> PuzzleError {
    PuzzleError::File { path: path.display().to_string(), message: e.to_string() }
}

/// Whether `dir` can take a collection: it does not exist, or is empty, or `force` is set (its
/// old puzzle files and manifest are then replaced). A folder left half-written by a crash
/// (`DIR.partial`) is removed, not fatal.
pub fn check_out_dir(dir: &Path, force: bool) -> Result<(), PuzzleError> {
    if dir.exists() {
        if !dir.is_dir() {
            return Err(io_error(dir, "exists and is not a folder"));
        }
        let mut entries = std::fs::read_dir(dir).map_err(|e| io_error(dir, e))?;
        if entries.next().is_some() && !force {
            return Err(io_error(dir, "is not empty; pass --force to replace its collection"));
        }
    }
    Ok(())
}

fn partial_dir(dir: &Path) -> PathBuf {
    let mut name = dir.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".partial");
    dir.with_file_name(name)
}

/// Writes a collection into `dir`: first into `DIR.partial` beside it, then moved into place, so
/// that a crash never leaves half a collection in `dir`. With `force` the old collection's files
/// (its manifest and `*.json` puzzles) are removed first; other files in `dir` are kept.
pub fn write(dir: &Path, collection: &Collection, force: bool) -> Result<(), PuzzleError> {
    check_out_dir(dir, force)?;
    let partial = partial_dir(dir);
    if partial.exists() {
        std::fs::remove_dir_all(&partial).map_err(|e| io_error(&partial, e))?;
    }
    std::fs::create_dir_all(&partial).map_err(|e| io_error(&partial, e))?;
    for p in &collection.puzzles {
        let path = partial.join(format!("{}.json", p.id));
        std::fs::write(&path, to_json(p)).map_err(|e| io_error(&path, e))?;
    }
    let path = partial.join(MANIFEST);
    std::fs::write(&path, to_json(&collection.manifest)).map_err(|e| io_error(&path, e))?;
    std::fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
    for entry in std::fs::read_dir(dir).map_err(|e| io_error(dir, e))? {
        let entry = entry.map_err(|e| io_error(dir, e))?;
        let path = entry.path();
        if path.extension().is_some_and(|x| x == "json") {
            std::fs::remove_file(&path).map_err(|e| io_error(&path, e))?;
        }
    }
    for entry in std::fs::read_dir(&partial).map_err(|e| io_error(&partial, e))? {
        let entry = entry.map_err(|e| io_error(&partial, e))?;
        let to = dir.join(entry.file_name());
        std::fs::rename(entry.path(), &to).map_err(|e| io_error(&to, e))?;
    }
    std::fs::remove_dir(&partial).map_err(|e| io_error(&partial, e))
}

/// A fault of the file (or text) named `label`.
fn label_error(label: &str, message: impl std::fmt::Display) -> PuzzleError {
    PuzzleError::File { path: label.to_string(), message: message.to_string() }
}

/// Reads a text file, naming it in a fault.
fn read_text(path: &Path) -> Result<String, PuzzleError> {
    std::fs::read_to_string(path).map_err(|e| io_error(path, format!("cannot read: {e}")))
}

/// Parses JSON text, naming `label` (the file it came from), the line and the column of a
/// fault; [`read_json`] is this on a file's text.
pub fn parse_json<T: serde::de::DeserializeOwned>(label: &str, text: &str) -> Result<T, PuzzleError> {
    serde_json::from_str(text).map_err(|e| label_error(label, format!("line {}, column {}: {e}", e.line(), e.column())))
}

/// Reads a JSON file, naming the file, the line and the column of a fault.
pub fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, PuzzleError> {
    parse_json(&path.display().to_string(), &read_text(path)?)
}

/// Parses one puzzle file's text, naming `label` (the file it came from) in a fault;
/// [`read_puzzle`] is this on a file's text.
pub fn parse_puzzle(label: &str, text: &str) -> Result<Puzzle, PuzzleError> {
    let value: serde_json::Value = parse_json(label, text)?;
    if let Some(f) = value.get("format").and_then(|f| f.as_u64())
        && f != u64::from(FORMAT)
    {
        return Err(label_error(label, format!("puzzle format {f}; this signalbox reads format {FORMAT}")));
    }
    serde_json::from_value(value).map_err(|e| label_error(label, format!("not a puzzle: {e}")))
}

/// Reads one puzzle file.
pub fn read_puzzle(path: &Path) -> Result<Puzzle, PuzzleError> {
    parse_puzzle(&path.display().to_string(), &read_text(path)?)
}

/// Gives a collection's puzzle file, by its name in the manifest: the label a fault names it by,
/// and its text.
pub type OpenFile<'a> = dyn FnMut(&str) -> Result<(String, String), PuzzleError> + 'a;

/// Parses a collection from its texts: the manifest's (named `label` in a fault), and each puzzle
/// file's, which `open` gives for a file name of the manifest as the file's label and text.
/// [`read`] is this on a folder's files.
pub fn parse(label: &str, manifest: &str, open: &mut OpenFile<'_>) -> Result<Collection, PuzzleError> {
    let manifest: Manifest = parse_json(label, manifest)?;
    let mut puzzles = Vec::with_capacity(manifest.puzzles.len());
    for e in &manifest.puzzles {
        let (label, text) = open(&e.file)?;
        puzzles.push(parse_puzzle(&label, &text)?);
    }
    Ok(Collection { manifest, puzzles })
}

/// Reads a collection folder: its manifest and each puzzle it lists.
pub fn read(dir: &Path) -> Result<Collection, PuzzleError> {
    let path = dir.join(MANIFEST);
    parse(&path.display().to_string(), &read_text(&path)?, &mut |file| {
        let path = dir.join(file);
        Ok((path.display().to_string(), read_text(&path)?))
    })
}

/// Checks one puzzle against a fresh solve of its position: the kind exists, the id matches the
/// kind and candidate, the answer is the solver's and scores as solved, the answer is unique and
/// clears the margin, and the proof, grade and themes are what the solver finds. Returns the
/// problems found (none: the puzzle is good).
pub fn check_puzzle(puzzle: &Puzzle) -> Vec<String> {
    match find(&puzzle.kind) {
        Ok(kind) => check_puzzle_of(kind, puzzle),
        Err(e) => vec![e.to_string()],
    }
}

/// [`check_puzzle`] with the kind given.
pub fn check_puzzle_of(kind: &dyn Kind, puzzle: &Puzzle) -> Vec<String> {
    let mut problems = Vec::new();
    if puzzle.kind != kind.name() {
        problems.push(format!("the kind is {:?}, checked as {}", puzzle.kind, kind.name()));
    }
    if puzzle.game != kind.game() {
        problems.push(format!("the game is {:?}; the kind {} is of {}", puzzle.game, kind.name(), kind.game()));
    }
    if puzzle.id != id(kind, puzzle.candidate) {
        problems.push(format!("the id {:?} is not the kind and candidate {}", puzzle.id, id(kind, puzzle.candidate)));
    }
    let fresh = match kind.solve(&puzzle.position) {
        Ok(s) => s,
        Err(e) => {
            problems.push(e.to_string());
            return problems;
        }
    };
    problems.extend(differences(puzzle, &fresh, puzzle.margin));
    match kind.attempt(&puzzle.position, &puzzle.answer.text) {
        Ok(a) if a.verdict == Verdict::Solved => {}
        Ok(a) => problems.push(format!("the answer {:?} does not solve it: {:?}", puzzle.answer.text, a.verdict)),
        Err(e) => problems.push(format!("the answer {:?}: {e}", puzzle.answer.text)),
    }
    match kind.question(&puzzle.position) {
        Ok(q) if q == puzzle.question => {}
        Ok(q) => problems.push(format!("the question is {:?}, the kind asks {q:?}", puzzle.question)),
        Err(e) => problems.push(e.to_string()),
    }
    problems
}

/// The problems of one puzzle file, by file.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    /// The puzzle's id (or the file's name where it could not be read).
    pub id: String,
    /// The file.
    pub file: PathBuf,
    /// What is wrong (empty: good).
    pub problems: Vec<String>,
}

/// Checks a collection folder (in parallel): every file the manifest lists, every puzzle file in
/// the folder the manifest does not list, and the manifest's entries against the files. A folder
/// without a manifest is checked as a bag of puzzle files.
pub fn check_dir(dir: &Path) -> Result<Vec<Checked>, PuzzleError> {
    let manifest: Option<Manifest> =
        if dir.join(MANIFEST).exists() { Some(read_json(&dir.join(MANIFEST))?) } else { None };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| io_error(dir, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json") && p.file_name().is_some_and(|n| n != MANIFEST))
        .collect();
    files.sort();
    let mut out: Vec<Checked> = files
        .par_iter()
        .map(|file| {
            let name = file.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
            match read_puzzle(file) {
                Ok(p) => {
                    let mut problems = check_puzzle(&p);
                    if let Some(m) = &manifest {
                        match m.puzzles.iter().find(|e| e.id == p.id) {
                            None => problems.push("not listed in the manifest".to_string()),
                            Some(e) if e.difficulty != p.grade.difficulty || e.themes != p.themes => {
                                problems.push("the manifest's difficulty or themes differ from the file's".to_string())
                            }
                            Some(_) => {}
                        }
                        if p.kind != m.kind {
                            problems.push(format!("a {} puzzle in a {} collection", p.kind, m.kind));
                        }
                    }
                    Checked { id: p.id, file: file.clone(), problems }
                }
                Err(e) => Checked { id: name, file: file.clone(), problems: vec![e.to_string()] },
            }
        })
        .collect();
    if let Some(m) = &manifest {
        for e in &m.puzzles {
            let file = dir.join(&e.file);
            if !file.exists() {
                out.push(Checked {
                    id: e.id.clone(),
                    file,
                    problems: vec!["listed in the manifest, but the file is missing".to_string()],
                });
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    //! The collection machinery on a toy kind: pick the largest of a few numbers.
    use super::*;
    use crate::kind::Theme;
    use crate::puzzle::{Answer, Attempt, Grade, Proof, Solved};
    use serde_json::{Value, json};
    use signalbox_solver::analysis::Better;

    struct Largest;

    fn numbers(position: &Value) -> Result<Vec<i64>, PuzzleError> {
        position
            .get("numbers")
            .and_then(|n| n.as_array())
            .and_then(|a| a.iter().map(|x| x.as_i64()).collect::<Option<Vec<_>>>())
            .filter(|a| !a.is_empty())
            .ok_or_else(|| PuzzleError::Position("expected \"numbers\": a list of integers".into()))
    }

    impl Kind for Largest {
        fn name(&self) -> &'static str {
            "toy-largest"
        }
        fn game(&self) -> &'static str {
            "toy"
        }
        fn title(&self) -> &'static str {
            "The largest number"
        }
        fn unit(&self) -> &'static str {
            "points"
        }
        fn better(&self) -> Better {
            Better::Higher
        }
        fn themes(&self) -> &'static [Theme] {
            &[Theme { name: "even", description: "the answer is even" }]
        }
        fn grading(&self) -> &'static str {
            "the rating is the count of numbers"
        }
        fn simple_technique(&self) -> &'static str {
            "the first number"
        }
        fn position(&self, candidate: u64) -> Result<Value, &'static str> {
            if candidate.is_multiple_of(7) {
                return Err("no numbers");
            }
            let len = 2 + candidate % 5;
            Ok(json!({ "numbers": (0..len).map(|i| ((candidate >> (3 * i)) % 8) as i64).collect::<Vec<_>>() }))
        }
        fn question(&self, position: &Value) -> Result<String, PuzzleError> {
            Ok(format!("Which is the largest of {:?}?", numbers(position)?))
        }
        fn solve(&self, position: &Value) -> Result<Solved, PuzzleError> {
            let n = numbers(position)?;
            let (at, best) = n
                .iter()
                .enumerate()
                .max_by_key(|(i, x)| (**x, std::cmp::Reverse(*i)))
                .map(|(i, x)| (i, *x))
                .unwrap_or((0, 0));
            let runner = n.iter().enumerate().filter(|(i, _)| *i != at).map(|(_, x)| *x).max();
            Ok(Solved {
                answer: Answer { text: format!("{at}"), moves: json!(at) },
                proof: Proof {
                    best: best as f64,
                    runner_up: runner.map(|r| r as f64),
                    margin: runner.map(|r| (best - r) as f64),
                    work: n.len() as u64,
                    details: Value::Null,
                },
                grade: Grade {
                    difficulty: crate::Difficulty::of_rating(n.len() as f64, 4.0, 6.0),
                    rating: n.len() as f64,
                    factors: [("numbers".to_string(), n.len() as f64)].into(),
                },
                themes: if best % 2 == 0 { vec!["even".to_string()] } else { vec![] },
            })
        }
        fn attempt(&self, position: &Value, answer: &str) -> Result<Attempt, PuzzleError> {
            let n = numbers(position)?;
            let best = self.solve(position)?.proof.best;
            let i: usize = answer.trim().parse().map_err(|_| PuzzleError::Answer("expected a place".into()))?;
            Ok(match n.get(i) {
                None => Attempt {
                    verdict: Verdict::Illegal { reason: "no such place".into() },
                    value: None,
                    best,
                    understood: answer.into(),
                },
                Some(&v) if v as f64 == best => {
                    Attempt { verdict: Verdict::Solved, value: Some(best), best, understood: answer.into() }
                }
                Some(&v) => Attempt {
                    verdict: Verdict::Short { loss: best - v as f64 },
                    value: Some(v as f64),
                    best,
                    understood: answer.into(),
                },
            })
        }
        fn simple_finds(&self, position: &Value) -> Result<bool, PuzzleError> {
            Ok(self.solve(position)?.answer.moves == json!(0))
        }
        fn picture(&self, _: &Value, _: Option<&Answer>) -> Result<String, PuzzleError> {
            Ok("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".into())
        }
    }

    fn request(count: usize) -> Request {
        Request {
            count,
            seed: 5,
            difficulty: None,
            theme: None,
            margin: None,
            max_candidates: 10_000,
            per_difficulty: None,
        }
    }

    fn made_on(threads: usize, request: &Request) -> String {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
        let c = pool.install(|| make(&Largest, request, &|_| {})).expect("made");
        let mut all = to_json(&c.manifest);
        for p in &c.puzzles {
            all += &to_json(p);
        }
        all
    }

    #[test]
    fn a_collection_is_the_same_on_one_and_three_threads_and_keeps_only_clear_answers() {
        let r = request(40);
        assert_eq!(made_on(1, &r), made_on(3, &r));
        let c = make(&Largest, &r, &|_| {}).expect("made");
        assert_eq!(c.puzzles.len(), 40);
        assert!(!c.manifest.short);
        let s = &c.manifest.stats;
        assert_eq!(s.kept + s.rejected.values().sum::<u64>(), s.candidates, "every candidate counted once");
        assert!(s.rejected.contains_key("two answers tie") && s.rejected.contains_key("no numbers"));
        for p in &c.puzzles {
            assert!(p.proof.margin.is_none_or(|m| m >= 1.0));
            assert!(check_puzzle_of(&Largest, p).is_empty(), "{:?}", check_puzzle_of(&Largest, p));
        }
        let ids: std::collections::BTreeSet<_> = c.puzzles.iter().map(|p| &p.id).collect();
        assert_eq!(ids.len(), 40, "ids are distinct");
    }

    #[test]
    fn filters_and_limits_are_kept() {
        let mut r = request(9);
        r.per_difficulty = Some(3);
        let c = make(&Largest, &r, &|_| {}).expect("made");
        for d in Difficulty::ALL {
            assert_eq!(c.puzzles.iter().filter(|p| p.grade.difficulty == d).count(), 3, "{d}");
        }
        let mut r = request(5);
        r.difficulty = Some(Difficulty::Hard);
        r.theme = Some("even".into());
        let c = make(&Largest, &r, &|_| {}).expect("made");
        assert!(c.puzzles.iter().all(|p| p.grade.difficulty == Difficulty::Hard && p.themes == ["even"]));
        r.max_candidates = 3;
        let c = make(&Largest, &r, &|_| {}).expect("made");
        assert!(c.manifest.short && c.manifest.stats.candidates == 3);
        r.theme = Some("odd".into());
        assert!(make(&Largest, &r, &|_| {}).is_err(), "an unknown theme is refused");
    }

    #[test]
    fn a_tampered_answer_and_a_tie_are_named() {
        let c = make(&Largest, &request(3), &|_| {}).expect("made");
        let mut p = c.puzzles[0].clone();
        let n = numbers(&p.position).expect("numbers");
        let other = (0..n.len()).find(|i| json!(i) != p.answer.moves).expect("another place");
        p.answer = Answer { text: other.to_string(), moves: json!(other) };
        let problems = check_puzzle_of(&Largest, &p);
        assert!(problems.iter().any(|x| x.starts_with("the answer is")), "{problems:?}");
        let mut p = c.puzzles[0].clone();
        let best = p.proof.best as i64;
        let mut tied = n.clone();
        tied.push(best);
        p.position = json!({ "numbers": tied });
        let problems = check_puzzle_of(&Largest, &p);
        assert!(problems.iter().any(|x| x.starts_with("not unique")), "{problems:?}");
    }

    #[test]
    fn a_collection_is_written_whole_and_read_back() {
        let dir = std::env::temp_dir().join(format!("signalbox-toy-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let c = make(&Largest, &request(4), &|_| {}).expect("made");
        std::fs::create_dir_all(partial_dir(&dir)).expect("a stale partial folder");
        write(&dir, &c, false).expect("written");
        assert!(!partial_dir(&dir).exists(), "the partial folder of a crash is cleared");
        assert!(write(&dir, &c, false).is_err(), "a full folder is not replaced without force");
        std::fs::write(dir.join("notes.txt"), "mine").expect("a note");
        write(&dir, &c, true).expect("replaced with force");
        assert!(dir.join("notes.txt").exists(), "other files are kept");
        let manifest: Manifest = read_json(&dir.join(MANIFEST)).expect("the manifest");
        assert_eq!(manifest, c.manifest);
        for p in &c.puzzles {
            assert_eq!(&read_puzzle(&dir.join(format!("{}.json", p.id))).expect("a puzzle"), p);
        }
        std::fs::write(dir.join("bad.json"), "{\n  \"format\": 1,\n  \"id\": 3\n}").expect("a bad file");
        let err = read_puzzle(&dir.join("bad.json")).expect_err("refused").to_string();
        assert!(err.contains("bad.json") && err.contains("not a puzzle"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn candidate_numbers_are_fixed_and_ids_read_back() {
        // Pinned: a collection's seed names the same candidates forever.
        assert_eq!(
            [candidate_number(1, 0), candidate_number(1, 1), candidate_number(2024, 7)],
            [2194355700, 1066428519, 3368272577]
        );
        assert_ne!(candidate_number(1, 0), candidate_number(1, 1));
        assert_ne!(candidate_number(1, 0), candidate_number(2, 0));
        assert!((0..1000).all(|i| candidate_number(9, i) < CANDIDATES));
        assert!(parse_id("nothing").is_err() && parse_id("toy-largest-x").is_err());
    }
}
