//! Result files of one JSON line per seed, as the batch commands write them: a settings line
//! first (with a shard's tag in a shard's file), then a line per seed, each checked when read.
//! A torn last line (a run killed while writing it) is dropped with a warning and its seed done
//! again; the file is locked while a run appends to it. `signalbox merge` joins the files of a
//! run's shards into the file one run writes. Generic over the settings and the line, so each
//! command supplies only how to read and check its own.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::path::Path;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::input::{bad, check_new, write_new};
use crate::shard::{ShardFile, Tag, check_tag, part_problems};

/// The longest line a result file may hold (a seed line with its record is some kilobytes).
pub const MAX_LINE: usize = 1 << 20;

/// The settings line, as written: `{"settings": {...}}`, and in a shard's file the shard's tag.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header<S> {
    /// The settings every line was written under.
    pub settings: S,
    /// The shard's tag, in a shard's file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Tag>,
}

/// A command's settings line: what the runs that write one file must share.
pub trait RunSettings: PartialEq + Serialize + DeserializeOwned {
    /// The file format this signalbox reads and writes.
    const FORMAT: u32;
    /// The file format the line names.
    fn format(&self) -> u32;
    /// The content the settings name: its label and its fingerprint.
    fn content(&self) -> (&str, &str);
    /// What differs between a file's settings (`self`) and another's, for messages.
    fn differences(&self, other: &Self) -> Vec<String>;
}

/// The content line of [`RunSettings::differences`]: `None` when the two fingerprints agree.
/// Each side is a label and a fingerprint, as [`RunSettings::content`] gives them.
pub fn content_difference((label, print): (&str, &str), (run_label, run_print): (&str, &str)) -> Option<String> {
    (print != run_print).then(|| {
        format!("content: the file has {label} (fingerprint {print}), this run {run_label} (fingerprint {run_print})")
    })
}

/// How a command's file reads: its name in messages, and its two kinds of line.
pub trait Format {
    /// The settings line's settings: two runs agree when they are equal.
    type Settings: RunSettings;
    /// A seed line.
    type Line: Serialize;
    /// The command, as typed after `signalbox` (`express01 selfplay`).
    const COMMAND: &'static str;
    /// What a run does to a seed, in messages (`solved`, `played`).
    const DOES: &'static str;
    /// Reads and checks a seed line under the file's settings: its seed and the line.
    fn line(&self, text: &str, settings: &Self::Settings) -> Result<(u64, Self::Line), String>;

    /// Tells a settings line that is another command's by its JSON (`None`: not told apart).
    fn foreign(_line: &serde_json::Value) -> Option<String> {
        None
    }

    /// Reads (and checks the format of) the settings line: the settings and the shard's tag. A
    /// seed line in its place, or another command's settings ([`Format::foreign`]), is named.
    fn header(text: &str) -> Result<(Self::Settings, Option<Tag>), String> {
        let header: Header<Self::Settings> = serde_json::from_str(text).map_err(|e| {
            let value = serde_json::from_str::<serde_json::Value>(text).ok();
            match value.as_ref() {
                Some(v) if v.get("seed").is_some() => format!(
                    "a seed line where the settings line belongs: not a `{}` file; start a new file",
                    Self::COMMAND
                ),
                Some(v) => Self::foreign(v)
                    .unwrap_or_else(|| format!("not the settings line of a `{}` file: {e}", Self::COMMAND)),
                None => format!("not the settings line of a `{}` file: {e}", Self::COMMAND),
            }
        })?;
        let (found, reads) = (header.settings.format(), <Self::Settings as RunSettings>::FORMAT);
        if found != reads {
            return Err(format!("`{}` file format {found}: this signalbox reads format {reads}", Self::COMMAND));
        }
        Ok((header.settings, header.shard))
    }
}

/// What reading a file found: its settings, its checked lines, and what a run killed while
/// writing may have left at its end.
pub struct Scan<F: Format> {
    /// The settings line (`None` for an empty file).
    pub settings: Option<F::Settings>,
    /// The shard's tag, in a shard's file.
    pub tag: Option<Tag>,
    /// The seed lines, by seed.
    pub lines: BTreeMap<u64, F::Line>,
    /// A torn last line: its number and the byte offset where it starts.
    pub torn: Option<(usize, u64)>,
    /// The last line is whole but lacks its newline.
    pub unterminated: bool,
}

/// Reads a file: the settings line, accepted by `settings_ok`, then every seed line, checked by
/// the format. A failure names the line; a seed given twice is refused.
pub fn scan<F: Format>(
    format: &F,
    file: &File,
    settings_ok: impl Fn(&F::Settings) -> Result<(), String>,
) -> Result<Scan<F>, String> {
    let mut scan = Scan { settings: None, tag: None, lines: BTreeMap::new(), torn: None, unterminated: false };
    let mut reader = BufReader::new(file);
    let mut buf = Vec::new();
    let mut offset: u64 = 0;
    let mut number = 0usize;
    let mut first_line: BTreeMap<u64, usize> = BTreeMap::new();
    loop {
        buf.clear();
        let read = reader
            .by_ref()
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)
            .map_err(|e| format!("cannot read: {e}"))?;
        if read == 0 {
            break;
        }
        number += 1;
        let complete = buf.last() == Some(&b'\n');
        if !complete && buf.len() > MAX_LINE {
            return Err(format!("line {number}: longer than {MAX_LINE} bytes: not a `{}` file", F::COMMAND));
        }
        let text = std::str::from_utf8(&buf).map_err(|e| {
            format!("line {number}: not UTF-8 text: byte {} of the line (counting from 0)", e.valid_up_to())
        })?;
        let parsed = match &scan.settings {
            None => F::header(text).and_then(|(s, tag)| settings_ok(&s).map(|()| (s, tag))).map(|(s, tag)| {
                scan.settings = Some(s);
                scan.tag = tag;
                None
            }),
            Some(settings) => format.line(text, settings).map(Some),
        };
        match parsed {
            Ok(line) => {
                scan.unterminated = !complete;
                if let Some((seed, line)) = line {
                    if let Some(earlier) = first_line.insert(seed, number) {
                        return Err(format!("line {number}: seed {seed} is also on line {earlier}"));
                    }
                    scan.lines.insert(seed, line);
                }
            }
            Err(_) if !complete && serde_json::from_slice::<serde_json::Value>(&buf).is_err() => {
                scan.torn = Some((number, offset));
                break;
            }
            Err(message) => return Err(format!("line {number}: {message}")),
        }
        offset += read as u64;
    }
    Ok(scan)
}

/// Opens (or creates) a file to append to: takes its lock, reads and checks every line (the
/// file's settings must be the run's, `settings`, and its tag `tag`), mends what a killed run left
/// (a torn last line dropped, a missing last newline added), and writes the settings line of a
/// new file. Returns the file and the lines already there.
pub fn open_out<F: Format>(
    format: &F,
    path: &Path,
    settings: &F::Settings,
    tag: Option<&Tag>,
) -> anyhow::Result<(File, BTreeMap<u64, F::Line>)> {
    let name = path.display();
    if std::fs::metadata(path).is_ok_and(|meta| !meta.is_file()) {
        return Err(bad(format!("{name}: not a regular file; --out needs a file to append to")));
    }
    let mut file = std::fs::OpenOptions::new().read(true).append(true).create(true).open(path).map_err(|e| {
        let what = match e.kind() {
            std::io::ErrorKind::NotFound => "no such folder".to_string(),
            _ => e.to_string(),
        };
        bad(format!("{name}: cannot open for writing: {what}"))
    })?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            return Err(bad(format!(
                "{name}: another `{}` is writing this file; wait for it to finish, or give another --out",
                F::COMMAND
            )));
        }
        Err(std::fs::TryLockError::Error(e)) => return Err(bad(format!("{name}: cannot lock: {e}"))),
    }
    let settings_ok = |found: &F::Settings| {
        if found == settings {
            Ok(())
        } else {
            Err(format!(
                "{} under other settings ({}); give the same settings or another --out",
                F::DOES,
                found.differences(settings).join("; ")
            ))
        }
    };
    let scan = scan(format, &file, settings_ok).map_err(|m| bad(format!("{name}: {m}")))?;
    if scan.settings.is_some() {
        check_tag(scan.tag.as_ref(), tag).map_err(|m| bad(format!("{name}: {m}")))?;
    }
    if let Some((number, offset)) = scan.torn {
        eprintln!(
            "warning: {name}: line {number} is incomplete (a run stopped while writing it): dropped; its seed is {} again",
            F::DOES
        );
        file.set_len(offset)?;
    } else if scan.unterminated {
        file.write_all(b"\n")?;
    }
    if scan.settings.is_none() {
        writeln!(file, "{}", serde_json::to_string(&Header { settings, shard: tag.cloned() })?)?;
        file.flush()?;
    }
    Ok((file, scan.lines))
}

/// What [`merge`] joined: the seeds, the first shard's settings, and every line.
pub struct Merged<F: Format> {
    /// The first seed.
    pub from: u64,
    /// The last seed.
    pub to: u64,
    /// The settings the shards share (the first shard's).
    pub settings: F::Settings,
    /// Every shard's lines, by seed.
    pub lines: BTreeMap<u64, F::Line>,
}

/// Joins the files of the shards of one run of the command over `--seeds A..B` into the file the
/// run without `--shard` writes at `out` (the settings line, then a line per seed in seed order),
/// after checking each shard's settings against the first's and `content` (the label and the
/// fingerprint of the content the shards are read with), and that each holds exactly its part,
/// every line checked by the format. Returns what it wrote, for the command's summary.
pub fn merge<F: Format>(
    format: &F,
    shards: &[ShardFile],
    out: &Path,
    force: bool,
    (label, fingerprint): (&str, &str),
) -> anyhow::Result<Merged<F>> {
    check_new(out, force)?;
    let Some((from, to)) = shards[0].tag.seed_range() else {
        return Err(bad(format!("{}: shard work {:?}: expected seeds A..B", shards[0].name(), shards[0].tag.work)));
    };
    let mut first: Option<(String, F::Settings)> = None;
    let mut lines: BTreeMap<u64, F::Line> = BTreeMap::new();
    let mut problems = Vec::new();
    for shard in shards {
        let name = shard.name();
        let file = File::open(&shard.path).map_err(|e| bad(format!("{name}: cannot read: {e}")))?;
        let scan = scan(format, &file, |found| {
            let (content, found_fingerprint) = found.content();
            if found_fingerprint != fingerprint {
                return Err(format!(
                    "{} with content {content} (fingerprint {found_fingerprint}), read with {label} (fingerprint {fingerprint}); pass that content with --content",
                    F::DOES
                ));
            }
            match &first {
                Some((other, settings)) if found != settings => Err(format!(
                    "{} under other settings than {other} ({}): give the shards of one run",
                    F::DOES,
                    settings.differences(found).join("; ")
                )),
                _ => Ok(()),
            }
        })
        .map_err(|m| bad(format!("{name}: {m}")))?;
        if scan.tag.as_ref() != Some(&shard.tag) {
            return Err(bad(format!("{name}: its first line changed while it was read")));
        }
        if let Some((number, _)) = scan.torn {
            problems.push(format!("{name}: line {number} is incomplete: the shard stopped while writing it; rerun it"));
        }
        let settings = scan.settings.expect("a tagged file has a settings line");
        first.get_or_insert((name, settings));
        let part = shard.tag.part;
        let lacks: Vec<u64> = part.seeds(from, to).filter(|s| !scan.lines.contains_key(s)).collect();
        let extra: Vec<u64> =
            scan.lines.keys().copied().filter(|&s| !(from..=to).contains(&s) || !part.takes(s - from)).collect();
        problems.extend(part_problems(shard, "seeds", &lacks, &extra));
        lines.extend(scan.lines);
    }
    if !problems.is_empty() {
        return Err(bad(problems.join("\n")));
    }
    let (_, settings) = first.expect("at least one shard");
    let mut text = serde_json::to_string(&Header { settings: &settings, shard: None })? + "\n";
    for line in lines.values() {
        text += &serde_json::to_string(line)?;
        text.push('\n');
    }
    write_new(out, &text, force)?;
    eprintln!("wrote {}: {} seeds from {} shards", out.display(), lines.len(), shards.len());
    Ok(Merged { from, to, settings, lines })
}
