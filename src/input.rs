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

/// Reads a text file the user named; a missing or unreadable file is bad input.
pub fn read_text(path: &Path) -> anyhow::Result<String> {
    std::fs::read_to_string(path).map_err(|e| {
        let what = match e.kind() {
            std::io::ErrorKind::NotFound => "no such file".to_string(),
            std::io::ErrorKind::InvalidData => "not a UTF-8 text file".to_string(),
            _ => e.to_string(),
        };
        bad(format!("{}: cannot read: {what}", path.display()))
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

/// Refuses an output path that exists unless `force` is set: called before any work starts,
/// so that a long run is not lost to a name taken.
pub fn check_new(path: &Path, force: bool) -> anyhow::Result<()> {
    if path.exists() && !force {
        return Err(bad(format!("{}: already exists; pass --force to replace it", path.display())));
    }
    Ok(())
}

/// Writes an output file, refusing to replace an existing one unless `force` is set.
pub fn write_new(path: &Path, text: &str, force: bool) -> anyhow::Result<()> {
    check_new(path, force)?;
    std::fs::write(path, text).map_err(|e| {
        let what = match e.kind() {
            std::io::ErrorKind::NotFound => "no such folder".to_string(),
            _ => e.to_string(),
        };
        bad(format!("{}: cannot write: {what}", path.display()))
    })
}
