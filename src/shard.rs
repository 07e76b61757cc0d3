//! `--shard K/N` and `signalbox merge`: one run's work split into parts that run anywhere (the
//! tasks of a Slurm job array, the hosts of GNU parallel), then joined into the file one run
//! writes.
//!
//! The part is fixed and documented: the work is a sequence (seeds from the first, games from
//! the first, puzzle candidates from 0), and shard K of N takes the items whose position in it,
//! counting from 0, leaves K − 1 when divided by N. Dealt round like cards, every shard gets
//! easy and hard items alike, and the N shards together take each item exactly once.
//!
//! A shard's file is the command's own file with a `shard` tag in its first line: the command,
//! the part and the whole work. `signalbox merge` reads the tags, checks that the shards are of
//! one command, one work and one set of settings, that each part is there once, and that each
//! shard finished its part; then it writes what the command writes without `--shard`.

use std::collections::BTreeMap;
use std::fmt;
use std::io::{BufRead as _, BufReader, Read as _};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::input::bad;

/// One part of a run's work: shard `index` of `count` (both from 1; `index` at most `count`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Shard {
    index: u64,
    count: u64,
}

impl Shard {
    /// The whole work, as a run without `--shard` does it.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Shard `index` of `count`, if `1 <= index <= count`.
    pub fn new(index: u64, count: u64) -> Option<Shard> {
        (1..=count).contains(&index).then_some(Shard { index, count })
    }

    /// The shard's number, from 1.
    pub fn index(self) -> u64 {
        self.index
    }

    /// How many shards the work is split into.
    pub fn count(self) -> u64 {
        self.count
    }

    /// Whether the item at `position` of the work (counting from 0) is this shard's.
    pub fn takes(self, position: u64) -> bool {
        position % self.count == self.index - 1
    }

    /// The seeds of `from..=to` that are this shard's, in order.
    pub fn seeds(self, from: u64, to: u64) -> impl Iterator<Item = u64> {
        (from..=to).filter(move |s| self.takes(s - from))
    }

    /// Parses `K/N` (a clap value parser).
    pub fn parse(text: &str) -> Result<Shard, String> {
        let err = || format!("expected K/N with 1 <= K <= N (e.g. 2/8: the second of eight parts), got {text:?}");
        let (k, n) = text.split_once('/').ok_or_else(err)?;
        let k: u64 = k.trim().parse().map_err(|_| err())?;
        let n: u64 = n.trim().parse().map_err(|_| err())?;
        Shard::new(k, n).ok_or_else(err)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Serialize for Shard {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Shard {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Shard, D::Error> {
        let text = String::deserialize(d)?;
        Shard::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// The tag in the first line of a shard's file: which command wrote it, which part of which work.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tag {
    /// The command, as typed after `signalbox` (`coe batch`).
    pub command: String,
    /// The part, `K/N`.
    pub part: Shard,
    /// The whole work the parts split, in the command's words (`seeds 1..40`).
    pub work: String,
}

impl Tag {
    /// The tag of `part` of `command`'s `work`; `None` for a run without `--shard`.
    pub fn of(command: &str, part: Option<Shard>, work: String) -> Option<Tag> {
        part.map(|part| Tag { command: command.to_string(), part, work })
    }

    /// The `work` of a seed range.
    pub fn seed_work(from: u64, to: u64) -> String {
        format!("seeds {from}..{to}")
    }

    /// The seed range of a `work` written by [`Tag::seed_work`].
    pub fn seed_range(&self) -> Option<(u64, u64)> {
        let (a, b) = self.work.strip_prefix("seeds ")?.split_once("..")?;
        let (a, b) = (a.parse().ok()?, b.parse().ok()?);
        (a <= b).then_some((a, b))
    }
}

/// Refuses to append to a file whose tag is not this run's: a shard's file resumed by another
/// shard or by an unsharded run, or the reverse. `found` is the file's tag, `run` this run's.
pub fn check_tag(found: Option<&Tag>, run: Option<&Tag>) -> Result<(), String> {
    let says = |t: Option<&Tag>| match t {
        None => "a whole run (no --shard)".to_string(),
        Some(t) => format!("shard {} of {}'s {}", t.part, t.command, t.work),
    };
    if found == run {
        Ok(())
    } else {
        Err(format!(
            "written by {}, and this run is {}; give the same --seeds and --shard, or another --out",
            says(found),
            says(run)
        ))
    }
}

/// A shard's file as `signalbox merge` sees it before the command reads it whole.
#[derive(Clone, Debug)]
pub struct ShardFile {
    /// The file.
    pub path: PathBuf,
    /// Its tag.
    pub tag: Tag,
}

impl ShardFile {
    /// The file's name, for messages.
    pub fn name(&self) -> String {
        self.path.display().to_string()
    }
}

/// Reads the tag of each file named: the `shard` field of its first line.
pub fn read_tags(paths: &[PathBuf]) -> anyhow::Result<Vec<ShardFile>> {
    paths
        .iter()
        .map(|path| {
            let line = first_line(path)?;
            let value: serde_json::Value = serde_json::from_str(&line).map_err(|e| {
                bad(format!(
                    "{}: line 1: not JSON ({e}); expected a shard's file (written with --shard)",
                    path.display()
                ))
            })?;
            let tag = value.get("shard").ok_or_else(|| {
                bad(format!(
                    "{}: line 1 has no `shard`: not written with --shard (a whole run's file needs no merge)",
                    path.display()
                ))
            })?;
            let tag: Tag = serde_json::from_value(tag.clone())
                .map_err(|e| bad(format!("{}: line 1: `shard`: {e}", path.display())))?;
            Ok(ShardFile { path: path.clone(), tag })
        })
        .collect()
}

/// The first line of a file, without its newline.
fn first_line(path: &Path) -> anyhow::Result<String> {
    let file = std::fs::File::open(path).map_err(|e| {
        bad(format!(
            "{}: cannot read: {}",
            path.display(),
            if e.kind() == std::io::ErrorKind::NotFound { "no such file".to_string() } else { e.to_string() }
        ))
    })?;
    let mut line = Vec::new();
    BufReader::new(file)
        .take(crate::input::MAX_INPUT)
        .read_until(b'\n', &mut line)
        .map_err(|e| bad(format!("{}: cannot read: {e}", path.display())))?;
    if line.is_empty() {
        return Err(bad(format!("{}: empty: a shard that has not started; run it", path.display())));
    }
    String::from_utf8(line)
        .map(|s| s.trim_end().to_string())
        .map_err(|_| bad(format!("{}: line 1: not UTF-8 text", path.display())))
}

/// Checks that the shards are the parts of one run: one command, one work, one count, and each
/// part exactly once; names the files that differ, the parts given twice and the parts missing.
pub fn check_parts(shards: &[ShardFile]) -> anyhow::Result<()> {
    let Some(first) = shards.first() else {
        return Err(bad("no shard files given"));
    };
    for s in shards {
        let t = &s.tag;
        if t.command != first.tag.command {
            return Err(bad(format!(
                "{} is a shard of `{}`, {} of `{}`: give the shards of one run",
                s.name(),
                t.command,
                first.name(),
                first.tag.command
            )));
        }
        if t.work != first.tag.work || t.part.count() != first.tag.part.count() {
            return Err(bad(format!(
                "{} is shard {} of {}, {} is shard {} of {}: give the shards of one run",
                s.name(),
                t.part,
                t.work,
                first.name(),
                first.tag.part,
                first.tag.work
            )));
        }
    }
    let mut by_part: BTreeMap<u64, Vec<&ShardFile>> = BTreeMap::new();
    for s in shards {
        by_part.entry(s.tag.part.index()).or_default().push(s);
    }
    let count = first.tag.part.count();
    let twice: Vec<String> = by_part
        .iter()
        .filter(|(_, files)| files.len() > 1)
        .map(|(k, files)| {
            format!(
                "shard {k}/{count} is given {} times ({})",
                files.len(),
                files.iter().map(|f| f.name()).collect::<Vec<_>>().join(", ")
            )
        })
        .collect();
    let missing: Vec<String> =
        (1..=count).filter(|k| !by_part.contains_key(k)).map(|k| format!("{k}/{count}")).collect();
    let mut problems = twice;
    if !missing.is_empty() {
        problems.push(format!(
            "shard{} {} {} missing",
            if missing.len() > 1 { "s" } else { "" },
            missing.join(", "),
            if missing.len() > 1 { "are" } else { "is" }
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(bad(format!("{} of {}: {}", first.tag.command, first.tag.work, problems.join("; "))))
    }
}

/// The items a shard lacks or has beyond its part, in words (`seeds 5, 9`), for messages;
/// `None` when it has exactly its part.
pub fn part_problems(shard: &ShardFile, what: &str, lacks: &[u64], extra: &[u64]) -> Option<String> {
    let list = |items: &[u64]| {
        let mut words: Vec<String> = items.iter().take(8).map(u64::to_string).collect();
        if items.len() > 8 {
            words.push(format!("and {} more", items.len() - 8));
        }
        words.join(", ")
    };
    let mut out = Vec::new();
    if !lacks.is_empty() {
        out.push(format!(
            "lacks {what} {} of its part: it has not finished; rerun its command (it resumes), then merge",
            list(lacks)
        ));
    }
    if !extra.is_empty() {
        out.push(format!("has {what} {} that are not its part's", list(extra)));
    }
    (!out.is_empty()).then(|| format!("{} (shard {}): {}", shard.name(), shard.tag.part, out.join("; ")))
}

/// Arguments of `signalbox merge`.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The file (or, for `puzzles make`, the folder) to write: what the run without --shard
    /// writes.
    #[arg(value_name = "OUT")]
    out: PathBuf,
    /// The shards' files, in any order: every part K/N of one run, each once.
    #[arg(value_name = "SHARD", required = true)]
    shards: Vec<PathBuf>,
    /// The content file the shards were run with (default: the embedded house set); their lines
    /// are replayed under it.
    #[arg(long, value_name = "FILE")]
    content: Option<PathBuf>,
    /// Replace OUT if it exists.
    #[arg(long)]
    force: bool,
    /// Print the merged run's summary as JSON.
    #[arg(long)]
    json: bool,
}

/// Runs `signalbox merge`.
pub fn run(a: MergeArgs) -> anyhow::Result<()> {
    let shards = read_tags(&a.shards)?;
    check_parts(&shards)?;
    let command = shards[0].tag.command.as_str();
    match command {
        crate::coe::batch::COMMAND => {
            crate::input::check_new(&a.out, a.force)?;
            let (catalogue, text) = crate::coe::content(a.content.as_deref())?;
            crate::coe::batch::merge(&shards, &a.out, a.force, a.json, &catalogue, &text)
        }
        crate::puzzles::part::COMMAND => crate::puzzles::part::merge(&shards, &a.out, a.force, a.json),
        crate::coe::selfplay::COMMAND => {
            crate::input::check_new(&a.out, a.force)?;
            let (catalogue, text) = crate::coe::content(a.content.as_deref())?;
            crate::coe::selfplay::merge(&shards, &a.out, a.force, a.json, &catalogue, &text)
        }
        crate::express01::selfplay_batch::COMMAND => {
            crate::input::check_new(&a.out, a.force)?;
            let (label, text) = crate::input::text_or_embedded(
                a.content.as_deref(),
                signalbox_engine::express01::catalogue::HOUSE_SET_LABEL,
                signalbox_engine::express01::catalogue::HOUSE_SET_TOML,
            )?;
            let catalogue = signalbox_engine::express01::catalogue::Catalogue::from_toml(&label, &text)
                .map_err(|e| bad(e.to_string()))?;
            crate::express01::selfplay_batch::merge(&shards, &a.out, a.force, a.json, &catalogue, &text)
        }
        crate::railways::odds_file::COMMAND => crate::railways::odds_file::merge(&shards, &a.out, a.force, a.json),
        other => Err(bad(format!("{}: a shard of `{other}`, which this signalbox cannot merge", shards[0].name()))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_the_work_once() {
        for n in 1..=7u64 {
            let mut seen = BTreeMap::new();
            for k in 1..=n {
                for s in Shard::new(k, n).unwrap().seeds(10, 40) {
                    *seen.entry(s).or_insert(0) += 1;
                }
            }
            assert_eq!(seen.keys().copied().collect::<Vec<_>>(), (10..=40).collect::<Vec<_>>());
            assert!(seen.values().all(|&c| c == 1));
        }
        assert_eq!(Shard::new(2, 3).unwrap().seeds(1, 10).collect::<Vec<_>>(), vec![2, 5, 8]);
    }

    #[test]
    fn parse_takes_k_of_n_only() {
        assert_eq!(Shard::parse("3/8"), Ok(Shard { index: 3, count: 8 }));
        for bad in ["0/4", "5/4", "4", "a/b", "1/0", "-1/4", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Shard::parse("2/5").unwrap().to_string(), "2/5");
    }
}
