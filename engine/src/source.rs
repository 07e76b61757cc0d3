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

/// Parses `text` as TOML into `T`, naming `file`, line and column, and the field (as a path such
/// as `cards[12].share`) on failure.
pub fn parse_toml<T: serde::de::DeserializeOwned>(file: &str, text: &str) -> Result<T, SyntaxError> {
    let locate = |e: &toml::de::Error| match e.span() {
        Some(span) => Location::at_offset(file, text, span.start),
        None => Location::file(file),
    };
    let de = toml::Deserializer::parse(text)
        .map_err(|e| SyntaxError { location: locate(&e), message: plain(e.message().trim()) })?;
    serde_path_to_error::deserialize::<_, T>(de).map_err(|e| {
        let path = e.path().to_string();
        let error = e.into_inner();
        let message = plain(error.message().trim());
        let message = if path == "." || path.is_empty() { message } else { format!("field `{path}`: {message}") };
        SyntaxError { location: locate(&error), message }
    })
}

/// A parser's message in the words of the file, not of the program: "expected struct ShareSetup"
/// becomes "expected a table", "expected enum Kind" becomes "expected one of the names allowed
/// here", and the like.
pub fn plain(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    loop {
        let next = ["tuple struct ", "struct ", "enum "]
            .iter()
            .filter_map(|w| rest.find(w).map(|i| (i, *w)))
            .min_by_key(|&(i, w)| (i, std::cmp::Reverse(w.len())));
        let Some((i, word)) = next else { break };
        let after = &rest[i + word.len()..];
        let name_len = after.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(after.len());
        out.push_str(&rest[..i]);
        if name_len > 0 && after.starts_with(char::is_uppercase) {
            if !out.ends_with("a ") && !out.ends_with("an ") {
                out.push_str(if word == "enum " { "" } else { "a " });
            }
            out.push_str(if word == "enum " { "one of the names allowed here" } else { "table" });
            rest = &after[name_len..];
        } else {
            out.push_str(word);
            rest = after;
        }
    }
    out.push_str(rest);
    out
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
    let message = plain(&e.to_string());
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
    fn messages_speak_of_the_file_not_the_program() {
        assert_eq!(
            plain("invalid type: string \"red\", expected struct ShareSetup"),
            "invalid type: string \"red\", expected a table"
        );
        assert_eq!(
            plain("expected enum Colour or a tuple struct Pair"),
            "expected one of the names allowed here or a table"
        );
        assert_eq!(plain("a struct field, an enum value"), "a struct field, an enum value");
    }

    #[test]
    fn toml_errors_name_the_field() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct T {
            cards: Vec<Share>,
        }
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Share {
            share: Inner,
        }
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Inner {
            total: u8,
        }
        let err =
            parse_toml::<T>("c.toml", "[[cards]]\nshare = { total = 1 }\n[[cards]]\nshare = \"red\"\n").unwrap_err();
        assert!(err.message.contains("field `cards[1].share`"), "{err}");
        assert!(!err.message.contains("Inner"), "{err}");
        assert_eq!(err.location.line, Some(4), "{err}");
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
