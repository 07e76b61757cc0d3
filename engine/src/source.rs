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
        .map_err(|e| SyntaxError { location: locate(&e), message: plain(e.message().trim(), "a table") })?;
    serde_path_to_error::deserialize::<_, T>(de).map_err(|e| {
        let path = e.path().to_string();
        let error = e.into_inner();
        let message = plain(error.message().trim(), "a table");
        let message = if path == "." || path.is_empty() { message } else { format!("field `{path}`: {message}") };
        SyntaxError { location: locate(&error), message }
    })
}

/// A parser's message in the words of the file, not of the program: "expected struct ShareSetup"
/// becomes "expected a table" (`record` names what a record is in the format: "a table" in TOML,
/// "an object" in JSON), "expected u8" becomes "expected a whole number from 0 to 255", "a
/// sequence" becomes "an array", and an enum's name "one of the names the format lists".
pub fn plain(message: &str, record: &str) -> String {
    const NUMBERS: [(&str, &str); 10] = [
        ("u8", "a whole number from 0 to 255"),
        ("u16", "a whole number from 0 to 65535"),
        ("u32", "a whole number from 0 to 4294967295"),
        ("u64", "a whole number of 0 or more"),
        ("usize", "a whole number of 0 or more"),
        ("i8", "a whole number from -128 to 127"),
        ("i16", "a whole number from -32768 to 32767"),
        ("i32", "a whole number from -2147483648 to 2147483647"),
        ("i64", "a whole number"),
        ("f64", "a number"),
    ];
    let message = message.replace("invalid type: sequence", "invalid type: array").replace(
        "invalid type: map",
        &format!("invalid type: {}", record.trim_start_matches("a ").trim_start_matches("an ")),
    );
    let mut out = String::with_capacity(message.len());
    let mut rest = message.as_str();
    while let Some(i) = rest.find("expected ") {
        out.push_str(&rest[..i + "expected ".len()]);
        rest = &rest[i + "expected ".len()..];
        let word_end = |s: &str| s.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).unwrap_or(s.len());
        let (replacement, skip) = if let Some(after) =
            ["struct variant ", "struct ", "internally tagged enum "].iter().find_map(|p| rest.strip_prefix(p))
        {
            (record.to_string(), rest.len() - after.len() + word_end(after))
        } else if let Some(after) = rest.strip_prefix("enum ") {
            ("one of the names the format lists".to_string(), rest.len() - after.len() + word_end(after))
        } else if let Some(after) = rest.strip_prefix("a map") {
            (record.to_string(), rest.len() - after.len())
        } else if let Some(after) = rest.strip_prefix("a sequence") {
            ("an array".to_string(), rest.len() - after.len())
        } else {
            let word = &rest[..word_end(rest)];
            match NUMBERS.iter().find(|(rust, _)| *rust == word) {
                Some((_, words)) => (words.to_string(), word.len()),
                None => (String::new(), 0),
            }
        };
        out.push_str(&replacement);
        rest = &rest[skip..];
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
    let message = plain(&e.to_string(), "an object");
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
    fn rust_type_names_become_the_formats_words() {
        assert_eq!(
            plain("invalid type: integer `5`, expected struct SetSetup", "a table"),
            "invalid type: integer `5`, expected a table"
        );
        assert_eq!(
            plain("invalid value: integer `800`, expected u8", "a table"),
            "invalid value: integer `800`, expected a whole number from 0 to 255"
        );
        assert_eq!(
            plain("invalid type: string \"x\", expected a sequence", "an object"),
            "invalid type: string \"x\", expected an array"
        );
        assert_eq!(
            plain("invalid type: map, expected u16 or so", "an object"),
            "invalid type: object, expected a whole number from 0 to 65535 or so"
        );
        assert_eq!(
            plain("unknown field `x`, expected `a` or `b`", "a table"),
            "unknown field `x`, expected `a` or `b`"
        );
        assert_eq!(
            plain("invalid length 1, expected an array of length 2", "a table"),
            "invalid length 1, expected an array of length 2"
        );
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
