//! Where a piece of input came from, for error messages that name the file, line and column.

use std::fmt;

/// A place in an input text: the file's name and, where known, the line and column (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The file's name as the user gave it, or a label such as `<embedded house set>`.
    pub file: String,
    /// The line, 1-based, where known.
    pub line: Option<usize>,
    /// The column, 1-based, where known.
    pub column: Option<usize>,
}

impl Location {
    /// A location naming only a file.
    pub fn file(file: impl Into<String>) -> Self {
        Location { file: file.into(), line: None, column: None }
    }

    /// The location of byte `offset` in `text`, read from `file`.
    pub fn at_offset(file: impl Into<String>, text: &str, offset: usize) -> Self {
        let offset = offset.min(text.len());
        let before = &text[..offset];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        Location { file: file.into(), line: Some(line), column: Some(column) }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        Ok(())
    }
}

/// A syntax error in a TOML or JSON input: where, and what the parser expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{location}: {message}")]
pub struct SyntaxError {
    /// Where the parser stopped.
    pub location: Location,
    /// The parser's own message (what it expected).
    pub message: String,
}

/// The most problems a message lists one by one; the rest are counted.
pub const LISTED_PROBLEMS: usize = 25;

/// Problems as an indented bullet list, the first [`LISTED_PROBLEMS`] in full, then a count.
pub fn bullet_list<P: fmt::Display>(problems: &[P]) -> String {
    let mut lines: Vec<String> = problems.iter().take(LISTED_PROBLEMS).map(|p| format!("  - {p}")).collect();
    if problems.len() > LISTED_PROBLEMS {
        lines.push(format!("  ... and {} more problems", problems.len() - LISTED_PROBLEMS));
    }
    lines.join("\n")
}

/// Parses `text` as TOML into `T`, naming `file`, line and column on failure.
pub fn parse_toml<T: serde::de::DeserializeOwned>(file: &str, text: &str) -> Result<T, SyntaxError> {
    toml::from_str(text).map_err(|e| {
        let location = match e.span() {
            Some(span) => Location::at_offset(file, text, span.start),
            None => Location::file(file),
        };
        SyntaxError { location, message: e.message().trim().to_string() }
    })
}

/// Parses `text` as JSON into `T`, naming `file`, line and column, and the field (as a path
/// such as `players[0].turn_order`) on failure.
pub fn parse_json<T: serde::de::DeserializeOwned>(file: &str, text: &str) -> Result<T, SyntaxError> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = serde_path_to_error::deserialize::<_, T>(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let error = e.into_inner();
        let field = if path == "." || error.is_syntax() || error.is_eof() { None } else { Some(path) };
        json_error(file, &error, field)
    })?;
    de.end().map_err(|e| json_error(file, &e, None))?;
    Ok(value)
}

fn json_error(file: &str, e: &serde_json::Error, field: Option<String>) -> SyntaxError {
    let location = if e.line() == 0 {
        Location::file(file)
    } else {
        Location { file: file.to_string(), line: Some(e.line()), column: Some(e.column().max(1)) }
    };
    let message = e.to_string();
    // serde_json appends " at line L column C"; the location already says it.
    let message = match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message,
    };
    let message = match field {
        Some(path) => format!("field `{path}`: {message}"),
        None => message,
    };
    SyntaxError { location, message }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_become_lines_and_columns() {
        let text = "ab\ncd\nef";
        assert_eq!(Location::at_offset("f", text, 0).to_string(), "f:1:1");
        assert_eq!(Location::at_offset("f", text, 4).to_string(), "f:2:2");
        assert_eq!(Location::at_offset("f", text, 6).to_string(), "f:3:1");
    }

    #[test]
    fn json_errors_name_line_and_column() {
        let err = parse_json::<serde_json::Value>("p.json", "{\n  \"a\": ,\n}").unwrap_err();
        assert_eq!(err.location.line, Some(2));
        assert!(err.to_string().starts_with("p.json:2:"), "{err}");
    }

    #[test]
    fn json_errors_name_the_field() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct P {
            players: Vec<Q>,
        }
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Q {
            turn_order: u8,
        }
        let err = parse_json::<P>("p.json", "{\"players\": [{\"turn_order\": \"x\"}]}").unwrap_err();
        assert!(err.message.contains("players[0].turn_order"), "{err}");
        let err = parse_json::<P>("p.json", "").unwrap_err();
        assert_eq!(err.location.column, Some(1), "{err}");
        let err = parse_json::<P>("p.json", "{\"players\": []} x").unwrap_err();
        assert!(err.message.contains("trailing"), "{err}");
    }

    #[test]
    fn toml_errors_name_line_and_column() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct T {
            a: u32,
        }
        let err = parse_toml::<T>("c.toml", "\n\na = \"x\"\n").unwrap_err();
        assert_eq!(err.location.line, Some(3));
        assert!(err.message.contains("expected"), "{err}");
    }
}
