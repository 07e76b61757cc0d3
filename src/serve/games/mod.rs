//! The four games as the analysis board sees them: an open game ([`Open`]) is a record replayed
//! by the game's engine, walked step by step, with its boards, the legal choices at every step, a
//! fork that plays one more step, its review and the command that advises at a step. Each game
//! fills it in its own module from its engine, solver and pictures, with the CLI's own readers
//! (so a bad upload gets the CLI's message).

use signalbox_render::walk::{Choice, Reviewed, Walk};

pub mod coe;
pub mod cube_express;
pub mod express01;
pub mod railways;

/// The games, by their command names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Express 01 (`express01`).
    Express01,
    /// The Cubes of Europe (`coe`).
    Coe,
    /// Cube Express (`cube-express`).
    CubeExpress,
    /// Railways Express (`railways`).
    Railways,
}

impl Kind {
    /// Every game, in the order the board lists them.
    pub const ALL: [Kind; 4] = [Kind::Express01, Kind::Coe, Kind::CubeExpress, Kind::Railways];

    /// The command name (`express01`, `coe`, `cube-express`, `railways`).
    pub fn command(self) -> &'static str {
        match self {
            Kind::Express01 => "express01",
            Kind::Coe => "coe",
            Kind::CubeExpress => "cube-express",
            Kind::Railways => "railways",
        }
    }

    /// The game's name as players say it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Express01 => "Express 01",
            Kind::Coe => "The Cubes of Europe",
            Kind::CubeExpress => "Cube Express",
            Kind::Railways => "Railways Express",
        }
    }

    /// The game of a command name.
    pub fn from_command(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.command() == name)
    }

    /// The game's bundled sample game.
    pub fn sample(self) -> Box<dyn Open> {
        match self {
            Kind::Express01 => express01::sample(),
            Kind::Coe => coe::sample(),
            Kind::CubeExpress => cube_express::sample(),
            Kind::Railways => railways::sample(),
        }
    }

    /// Reads a record (or a position, where the game has a position format) that the user gave,
    /// named `label` in messages; a bad file gets the message the CLI prints for it.
    pub fn open(self, label: &str, text: &str) -> Result<Box<dyn Open>, String> {
        match self {
            Kind::Express01 => express01::open(label, text),
            Kind::Coe => coe::open(label, text),
            Kind::CubeExpress => cube_express::open(label, text),
            Kind::Railways => railways::open(label, text),
        }
    }

    /// A new game from a seed (the hidden parts shuffled by the seed), with no step played.
    pub fn new_game(self, seed: u64) -> Result<Box<dyn Open>, String> {
        match self {
            Kind::Express01 => express01::new_game(seed),
            Kind::Coe => coe::new_game(seed),
            Kind::CubeExpress => cube_express::new_game(seed),
            Kind::Railways => railways::new_game(seed),
        }
    }
}

/// The game a record's text says it is: its `"game"` field, or for The Cubes of Europe, whose
/// records name no game, its `"instance"` (docs/formats/coe-records.md).
pub fn named_in(text: &str) -> Option<Kind> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    match value.get("game").and_then(|g| g.as_str()) {
        Some(name) => Kind::from_command(name),
        None => value.get("instance").map(|_| Kind::Coe),
    }
}

/// A review placed on the walk with the board after the best move of each decision (SVG), or why
/// the game could not be reviewed.
pub type ReviewResult = Result<(Reviewed, Vec<String>), String>;

/// How to ask the CLI for the best move at a step: `signalbox <game> advise FILE ARGS...`, where
/// FILE holds `file`. The server adds `--json`, `--svg` and `--time-limit`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdviseCall {
    /// The text of the position or record file the command reads.
    pub file: String,
    /// The arguments after the file (`--turn 3`).
    pub args: Vec<String>,
}

/// An open game: a record replayed by the game's engine. Steps are numbered from 0; the board
/// "at" step `i` is the position before step `i`, and at `walk().steps.len()` the position where
/// the record ends.
pub trait Open: Send + Sync {
    /// The game.
    fn kind(&self) -> Kind;

    /// The game's title, players and steps.
    fn walk(&self) -> &Walk;

    /// The board before step `at` (at the end for `at == steps.len()`), as SVG, titled with the
    /// turn and whose move it is.
    fn board(&self, at: usize) -> String;

    /// Every legal move at step `at`, or the chance events that may come there (the dice as they
    /// fell, the card drawn), grouped; empty where the game is over.
    fn choices(&self, at: usize) -> Vec<Choice>;

    /// The game up to step `at`, then `text` (a move or chance event in the words of the record
    /// format): a new open game that forks this one. An illegal or unreadable step is refused
    /// with the engine's reason, naming the rule in words.
    fn play(&self, at: usize, text: &str) -> Result<Box<dyn Open>, String>;

    /// The game as a record file in the CLI's format (`replay` reads it back).
    fn record(&self) -> String;

    /// The review of the game, the same library call and defaults as `analyse`; `progress` is
    /// told (done, total) as it goes. With it, the board after the best move of each decision
    /// (SVG), in the review's order of decisions.
    fn review(&self, progress: &(dyn Fn(usize, usize) + Sync)) -> ReviewResult;

    /// The CLI call that advises at step `at`, or `None` where the game is over or the CLI cannot
    /// advise there.
    fn advise(&self, at: usize) -> Option<AdviseCall>;
}
