//! `puzzles make --shard K/N`: one part of a collection's candidates, in a file that resumes, and
//! `signalbox merge` of the parts into the collection one run makes.
//!
//! The part's file (`--out FILE`, JSON lines, docs/formats/puzzles.md): first the settings line
//! (`{"settings": {...}, "shard": {...}}`: the request, and the part); then one line per
//! candidate of the part in order, `{"candidate": I, "puzzle": {...}}` or `{"candidate": I,
//! "rejected": "reason"}`; last `{"done": {"kept": N}}` once the part has done enough (see
//! `collection::make_part`). A rerun of the same command resumes after the last whole line.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufRead as _, BufReader, Write as _};
use std::path::Path;

use serde::{Deserialize, Serialize};
use signalbox_puzzles::collection::{self, Outcome, Request};
use signalbox_puzzles::{Difficulty, Kind, Puzzle};

use crate::input::bad;
use crate::shard::{Shard, ShardFile, Tag, check_tag, part_problems};

/// The command's name in shard tags.
pub const COMMAND: &str = "puzzles make";

/// The format of a part's file.
const FORMAT: u32 = 1;

/// What a part was made under: the request, with the margin the kind's default resolves to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    format: u32,
    kind: String,
    seed: u64,
    count: usize,
    difficulty: Option<Difficulty>,
    theme: Option<String>,
    margin: f64,
    per_difficulty: Option<usize>,
    max_candidates: u64,
}

impl Settings {
    /// The settings of a request for a kind.
    pub fn new(kind: &dyn Kind, r: &Request) -> Settings {
        Settings {
            format: FORMAT,
            kind: kind.name().to_string(),
            seed: r.seed,
            count: r.count,
            difficulty: r.difficulty,
            theme: r.theme.clone(),
            margin: r.margin.unwrap_or(kind.default_margin()),
            per_difficulty: r.per_difficulty,
            max_candidates: r.max_candidates,
        }
    }

    fn request(&self) -> Request {
        Request {
            count: self.count,
            seed: self.seed,
            difficulty: self.difficulty,
            theme: self.theme.clone(),
            margin: Some(self.margin),
            max_candidates: self.max_candidates,
            per_difficulty: self.per_difficulty,
        }
    }

    fn describe(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    settings: Settings,
    shard: Tag,
}

/// A line after the settings line.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum Line {
    Kept { candidate: u64, puzzle: Box<Puzzle> },
    Rejected { candidate: u64, rejected: String },
    Done { done: Done },
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Done {
    kept: usize,
}

/// A part's file, read.
struct Read {
    header: Option<Header>,
    outcomes: Vec<(u64, Outcome)>,
    done: Option<usize>,
    /// The byte length of the whole lines (a torn last line starts there).
    whole: u64,
    torn: Option<usize>,
}

/// Reads a part's file; `part` is checked: its candidates in order, each of its own.
fn read(file: &File, name: &str) -> anyhow::Result<Read> {
    let mut r = Read { header: None, outcomes: Vec::new(), done: None, whole: 0, torn: None };
    let mut reader = BufReader::new(file);
    let mut buf = String::new();
    let mut number = 0usize;
    loop {
        buf.clear();
        let n = reader.read_line(&mut buf).map_err(|e| bad(format!("{name}: cannot read: {e}")))?;
        if n == 0 {
            break;
        }
        number += 1;
        let complete = buf.ends_with('\n');
        let at = |m: String| bad(format!("{name}: line {number}: {m}"));
        if r.done.is_some() {
            return Err(at("a line after the part's `done` line".into()));
        }
        let Some(header) = &r.header else {
            let h: Header = serde_json::from_str(&buf)
                .map_err(|e| at(format!("not the settings line of a `puzzles make --shard` file: {e}")))?;
            if h.settings.format != FORMAT {
                return Err(at(format!("format {}: this signalbox reads format {FORMAT}", h.settings.format)));
            }
            r.header = Some(h);
            r.whole += n as u64;
            continue;
        };
        let line = match serde_json::from_str::<Line>(&buf) {
            Ok(line) => line,
            Err(_) if !complete => {
                r.torn = Some(number);
                break;
            }
            Err(e) => return Err(at(format!("not a line of a part's file: {e}"))),
        };
        let part = header.shard.part;
        let expected = r.outcomes.last().map_or(part.index() - 1, |(i, _)| i + part.count());
        let (candidate, outcome) = match line {
            Line::Done { done } => {
                r.done = Some(done.kept);
                r.whole += n as u64;
                continue;
            }
            Line::Kept { candidate, puzzle } => {
                let number = collection::candidate_number(header.settings.seed, candidate);
                if puzzle.kind != header.settings.kind || puzzle.candidate != number {
                    return Err(at(format!(
                        "candidate {candidate}: the puzzle is {}, expected {}-{number}",
                        puzzle.id, header.settings.kind
                    )));
                }
                (candidate, Ok(*puzzle))
            }
            Line::Rejected { candidate, rejected } => (candidate, Err(rejected)),
        };
        if candidate != expected {
            return Err(at(format!("candidate {candidate}: expected candidate {expected}, the next of shard {part}")));
        }
        r.outcomes.push((candidate, outcome));
        r.whole += n as u64;
    }
    Ok(r)
}

/// Runs `puzzles make --shard K/N --out FILE`: makes the part's candidates, appending each
/// outcome, and resumes a file of the same settings and part (`force`: start it anew).
pub fn make(
    kind: &dyn Kind,
    request: &Request,
    part: Shard,
    out: &Path,
    force: bool,
    threads: Option<usize>,
    quiet: bool,
) -> anyhow::Result<()> {
    let name = out.display().to_string();
    if out.is_dir() {
        return Err(bad(format!("{name}: a folder; with --shard, --out names the part's file")));
    }
    let settings = Settings::new(kind, request);
    let tag = Tag { command: COMMAND.to_string(), part, work: format!("candidates 0..{}", request.max_candidates) };
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(out)
        .map_err(|e| bad(format!("{name}: cannot open for writing: {e}")))?;
    if file.try_lock().is_err() {
        return Err(bad(format!("{name}: another `puzzles make` is writing this file")));
    }
    if force {
        file.set_len(0).map_err(|e| bad(format!("{name}: cannot replace: {e}")))?;
    }
    let found = read(&file, &name)?;
    if let Some(h) = &found.header {
        if h.settings != settings {
            return Err(bad(format!(
                "{name}: made under other settings ({}); this run: {}; give the same settings or another --out",
                h.settings.describe(),
                settings.describe()
            )));
        }
        check_tag(Some(&h.shard), Some(&tag)).map_err(|m| bad(format!("{name}: {m}")))?;
    }
    if let Some(number) = found.torn {
        eprintln!("warning: {name}: line {number} is incomplete (the part stopped while writing it): dropped");
        file.set_len(found.whole)?;
    }
    if found.header.is_none() {
        writeln!(file, "{}", serde_json::to_string(&Header { settings: settings.clone(), shard: tag })?)?;
    }
    if let Some(kept) = found.done {
        say!("{name}: shard {part} was already done: {kept} puzzles kept of {} candidates", found.outcomes.len());
        return Ok(());
    }
    let resumed = found.outcomes.len();
    let bar = crate::flags::progress(request.count as u64, "puzzles", quiet);
    let mut tried = resumed;
    let made = signalbox_solver::threads::install(threads, || {
        collection::make_part(
            kind,
            request,
            (part.index(), part.count()),
            found.outcomes,
            &mut |candidate, outcome| {
                tried += 1;
                let line = match outcome {
                    Ok(p) => Line::Kept { candidate, puzzle: Box::new(p.clone()) },
                    Err(r) => Line::Rejected { candidate, rejected: r.clone() },
                };
                writeln!(file, "{}", serde_json::to_string(&line).map_err(std::io::Error::other)?)
            },
            &|kept| bar.set_position(kept as u64),
        )
    })
    .map_err(|e| bad(e.to_string()))?;
    bar.finish_and_clear();
    let kept = made.map_err(|e| bad(format!("{name}: cannot write: {e}")))?;
    writeln!(file, "{}", serde_json::to_string(&Line::Done { done: Done { kept } })?)?;
    file.flush()?;
    say!(
        "shard {part}: {kept} puzzles kept of {tried} candidates{} ({name}); `signalbox merge DIR` the {} parts' files",
        if resumed > 0 { format!(", {resumed} of them resumed") } else { String::new() },
        part.count()
    );
    Ok(())
}

/// Joins the parts' files of one `puzzles make --shard` into the collection one run makes, in
/// the folder `out`: the same files, byte for byte.
pub fn merge(shards: &[ShardFile], out: &Path, force: bool, json: bool) -> anyhow::Result<()> {
    collection::check_out_dir(out, force).map_err(|e| bad(e.to_string()))?;
    let mut first: Option<(String, Settings)> = None;
    let mut outcomes = BTreeMap::new();
    let mut problems = Vec::new();
    for shard in shards {
        let name = shard.name();
        let file = File::open(&shard.path).map_err(|e| bad(format!("{name}: cannot read: {e}")))?;
        let found = read(&file, &name)?;
        let header = found.header.ok_or_else(|| bad(format!("{name}: empty")))?;
        match &first {
            Some((other, s)) if *s != header.settings => {
                return Err(bad(format!(
                    "{name}: made under other settings than {other} ({} against {}): give the parts of one run",
                    header.settings.describe(),
                    s.describe()
                )));
            }
            Some(_) => {}
            None => first = Some((name.clone(), header.settings)),
        }
        if found.done.is_none() {
            let lacks = [found.outcomes.last().map_or(shard.tag.part.index() - 1, |(i, _)| i + shard.tag.part.count())];
            problems.extend(part_problems(shard, "candidates from", &lacks, &[]));
        }
        outcomes.extend(found.outcomes);
    }
    if !problems.is_empty() {
        return Err(bad(problems.join("\n")));
    }
    let (_, settings) = first.ok_or_else(|| bad("no shard files given"))?;
    let kind = signalbox_puzzles::find(&settings.kind).map_err(|e| bad(e.to_string()))?;
    let request = settings.request();
    let made = collection::walk_parts(&request, &outcomes)
        .map_err(|i| bad(format!("candidate {i} is in no part's file: the parts do not make the collection")))?
        .finish(kind);
    collection::write(out, &made, force).map_err(|e| bad(e.to_string()))?;
    eprintln!("merged {} parts ({} candidates made)", shards.len(), outcomes.len());
    super::print_made(&made, out, None, json);
    Ok(())
}
