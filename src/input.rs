//! Reading the user's files, and the errors that mean "bad input" (exit code 2).

use std::fmt;
use std::path::Path;

/// An error in what the user gave: a missing or unreadable file, malformed or illegal content,
/// a bad flag. The CLI prints it and exits with code 2.
#[derive(Debug)]
pub struct BadInput(pub String);

impl fmt::Display for BadInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadInput {}

/// Bad input, as an `anyhow` error.
pub fn bad(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(BadInput(message.into()))
}

/// The largest input file read (positions, records, instances and content are a few kilobytes).
pub const MAX_INPUT: u64 = 64 << 20;

/// Reads a text file the user named; a missing, unreadable, oversized or non-UTF-8 file is bad
/// input (a file that is not UTF-8 is named with the byte offset of its first bad byte).
pub fn read_text(path: &Path) -> anyhow::Result<String> {
    use std::io::Read as _;
    let cannot = |what: String| bad(format!("{}: cannot read: {what}", path.display()));
    let file = std::fs::File::open(path).map_err(|e| {
        cannot(match e.kind() {
            std::io::ErrorKind::NotFound => "no such file".to_string(),
            _ => e.to_string(),
        })
    })?;
    let mut bytes = Vec::new();
    file.take(MAX_INPUT + 1).read_to_end(&mut bytes).map_err(|e| cannot(e.to_string()))?;
    if bytes.len() as u64 > MAX_INPUT {
        return Err(cannot(format!("larger than {} MiB: not an input file of signalbox", MAX_INPUT >> 20)));
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        bad(format!("{}: not UTF-8 text: byte {at} (counting from 0) is not part of a UTF-8 character", path.display()))
    })
}

/// The text of the file the user named, or else an embedded default, with the label that names
/// it in messages.
pub fn text_or_embedded(path: Option<&Path>, label: &str, embedded: &str) -> anyhow::Result<(String, String)> {
    match path {
        Some(p) => Ok((p.display().to_string(), read_text(p)?)),
        None => Ok((label.to_string(), embedded.to_string())),
    }
}

/// Checks, before any work starts, that an output file can be written: not an existing file
/// unless `force` is set, not a folder, and in a folder that exists.
pub fn check_new(path: &Path, force: bool) -> anyhow::Result<()> {
    if path.is_dir() {
        return Err(bad(format!("{}: is a folder; give a file name", path.display())));
    }
    if path.exists() && !force {
        return Err(bad(format!("{}: already exists; pass --force to replace it", path.display())));
    }
    let folder = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !folder.is_dir() {
        return Err(bad(format!("{}: cannot write: no such folder {}", path.display(), folder.display())));
    }
    Ok(())
}

/// Writes an output file, refusing to replace an existing one unless `force` is set.
pub fn write_new(path: &Path, text: &str, force: bool) -> anyhow::Result<()> {
    check_new(path, force)?;
    std::fs::write(path, text).map_err(|e| bad(format!("{}: cannot write: {e}", path.display())))
}
