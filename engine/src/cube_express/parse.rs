//! Parsing Cube Express files: content (TOML) and positions and records (JSON), with messages
//! that name the file, the line and column, and the field path (`tile[3].factory.needs`), and
//! say what was expected in the format's words (a whole number from 0 to 255, a table), never
//! the name of a Rust type.

use crate::source::{Location, SyntaxError};

/// Parses a content file, naming the field path of a value of the wrong shape.
pub(crate) fn toml<T: serde::de::DeserializeOwned>(file: &str, text: &str) -> Result<T, SyntaxError> {
    let error = |e: &toml::de::Error, path: Option<String>| {
        let location = match e.span() {
            Some(span) => Location::at_offset(file, text, span.start),
            None => Location::file(file),
        };
        let message = plain(e.message().trim(), "a table");
        let message = match path.filter(|p| !p.is_empty() && p != ".") {
            Some(path) => format!("field `{path}`: {message}"),
            None => message,
        };
        SyntaxError { location, message }
    };
    let de = toml::Deserializer::parse(text).map_err(|e| error(&e, None))?;
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        error(e.inner(), Some(path))
    })
}

/// Parses a position or a record.
pub(crate) fn json<T: serde::de::DeserializeOwned>(file: &str, text: &str) -> Result<T, SyntaxError> {
    crate::source::parse_json(file, text).map_err(|e| SyntaxError { message: plain(&e.message, "an object"), ..e })
}

/// A parser's message in the format's words: what serde calls `u8` is a whole number from 0 to
/// 255, a `struct` or `map` is a table (`record`: "a table" in TOML, "an object" in JSON), a
/// `sequence` is an array.
fn plain(message: &str, record: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::plain;

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
}
