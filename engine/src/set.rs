//! The `[set]` table every content file opens with: what the component set is.

use serde::Deserialize;

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
