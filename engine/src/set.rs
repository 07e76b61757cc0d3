//! What the content files of the games share: the `[set]` table every one opens with (what the
//! component set is), and why a file was refused.

use serde::Deserialize;

use crate::source::{SyntaxError, bullet_list};

/// `[set]` as written: the set's name, whether it is signalbox's own house set, and free text.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetSetup {
    /// Display name.
    pub name: String,
    /// signalbox's own authored set rather than a transcription of the publisher's.
    #[serde(default)]
    pub house_set: bool,
    /// Free text.
    #[serde(default)]
    pub note: String,
}

/// `n` things, in the singular or the plural: "1 rule", "3 rules".
pub fn count(n: usize, thing: &str) -> String {
    if n == 1 { format!("1 {thing}") } else { format!("{n} {thing}s") }
}

/// Why a content file was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ContentError {
    /// Not TOML, or not the format.
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    /// The format, but the rulebook's counts or constraints do not hold.
    #[error("{file}: the content breaks {}:\n{}", count(problems.len(), "rule"), bullet_list(problems))]
    Invalid {
        /// The file's name.
        file: String,
        /// Every problem found.
        problems: Vec<String>,
    },
}
