//! Records of whole games (`docs/formats/express01-record.md`): the start (a seed, or a position),
//! then every turn's steps in the readable form of [`super::notation`], and optionally the result.
//! [`replay`] plays a record with every rule checked; [`Recorder`] writes one as a game is played.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::catalogue::Catalogue;
use super::game::{Game, GameError, Phase, Referee, Step, StepError};
use super::position::{OptionsSetup, Position, PositionSetup};
use super::round::Length;
use super::setup::{SetupError, new_game_shown};
use crate::source::{SyntaxError, parse_json};

/// The embedded sample game (`express01 analyse` without a file): a 3-player short Germany game,
/// seed 1, played by the greedy policy with every 4th turn random
/// (`signalbox_solver::express01::analysis::sample_record`; `docs/formats/express01-record.md`
/// says how to regenerate it).
pub const SAMPLE_GAME_JSON: &str = include_str!("../../data/express01/sample-game.json");

/// The record format's version.
pub const RECORD_FORMAT: u32 = 1;

/// A record as written.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The format version, 1.
    pub record: u32,
    /// `express01`.
    pub game: String,
    /// Free text (who played, with which policy).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// A new game from a seed; or else `position` gives the start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<StartSetup>,
    /// The start position, when the game does not start from a seed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<PositionSetup>,
    /// The turns, in the order played.
    #[serde(default)]
    pub turns: Vec<TurnRecord>,
    /// The result, when the game is over; checked on replay when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<ResultRecord>,
}

/// A new game from a seed (`express01 new`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct StartSetup {
    /// The map id.
    pub map: String,
    /// The seed (rulings G1, G2).
    pub seed: u64,
    /// The players in seat order.
    pub players: Vec<String>,
    /// Short or long.
    #[serde(default)]
    pub length: Length,
    /// The rule options.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<OptionsSetup>,
    /// The card each player chose to show for the turn order, in seat order; absent: each shows
    /// their highest card (ruling G2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shown: Option<Vec<u16>>,
}

impl StartSetup {
    /// A new game with the default options and the cards shown by ruling G2.
    pub fn new(map: &str, seed: u64, players: Vec<String>, length: Length) -> StartSetup {
        StartSetup { map: map.to_string(), seed, players, length, options: None, shown: None }
    }

    /// The start position of this new game.
    pub fn position(&self, catalogue: &Catalogue) -> Result<PositionSetup, SetupError> {
        let mut setup = new_game_shown(catalogue, &self.map, &self.players, self.seed, self.shown.as_deref())?;
        setup.length = Some(self.length);
        setup.options = self.options;
        Ok(setup)
    }
}

/// One turn: who played it, when, and its steps.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct TurnRecord {
    /// The round.
    pub round: u32,
    /// The turn within the round, from 1.
    pub turn: usize,
    /// The player whose turn it is.
    pub player: String,
    /// The steps, in the readable form.
    pub steps: Vec<String>,
}

/// The end of a game: each player's capital and the winners.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ResultRecord {
    /// Capital by player name.
    pub capitals: BTreeMap<String, u32>,
    /// The winners (more than one when the victory is shared).
    pub winners: Vec<String>,
}

/// Why a record does not replay.
#[derive(Clone, Debug, thiserror::Error)]
pub enum RecordError {
    /// Not JSON of the record's shape.
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    /// The header is wrong.
    #[error("{file}: {message}")]
    Header {
        /// The file.
        file: String,
        /// What is wrong.
        message: String,
    },
    /// The start position is not legal.
    #[error("{file}: the start position is not legal:\n{problems}")]
    Start {
        /// The file.
        file: String,
        /// The problems, one per line.
        problems: String,
    },
    /// A turn's label does not match the game.
    #[error("{file}: turns[{index}]: {message}")]
    Turn {
        /// The file.
        file: String,
        /// Index in `turns`.
        index: usize,
        /// What is wrong.
        message: String,
    },
    /// An illegal or unreadable step.
    #[error(transparent)]
    Step(Box<StepFailure>),
    /// The stated result is not the game's.
    #[error("{file}: result: {message}")]
    Result {
        /// The file.
        file: String,
        /// What differs.
        message: String,
    },
}

/// An illegal or unreadable step of a record, named by its place and the rule.
#[derive(Clone, Debug, thiserror::Error)]
#[error("{file}: turns[{index}] (round {round}, turn {turn}, {player}), step {step} `{text}`{action}: {message}")]
pub struct StepFailure {
    /// The file.
    pub file: String,
    /// Index in `turns`.
    pub index: usize,
    /// The round.
    pub round: u32,
    /// The turn.
    pub turn: usize,
    /// The mover.
    pub player: String,
    /// Step number within the turn, from 1.
    pub step: usize,
    /// The step as written.
    pub text: String,
    /// The action, as ` (A: expand)`, or empty.
    pub action: String,
    /// The rule broken.
    pub message: String,
}

/// Each player's capital at the end of a round, as replay reports it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RoundCapitals {
    /// The round.
    pub round: u32,
    /// Capital by seat.
    pub capitals: Vec<u32>,
}

/// A replayed record: the game at its end, and the capitals at the end of each round.
#[derive(Clone, Debug)]
pub struct Replayed<'c> {
    /// The game after the last step.
    pub game: Game<'c>,
    /// Capitals at the end of each round completed.
    pub rounds: Vec<RoundCapitals>,
    /// Steps played.
    pub steps: usize,
}

/// Reads a record's JSON text; `file` names it in messages.
pub fn read(file: &str, text: &str) -> Result<Record, RecordError> {
    Ok(parse_json(file, text)?)
}

/// Reads a record's JSON text and replays it with every rule checked ([`read`], then [`replay`]).
pub fn read_and_replay<'c>(
    file: &str,
    text: &str,
    catalogue: &'c Catalogue,
    referee: &dyn Referee,
) -> Result<(Record, Replayed<'c>), RecordError> {
    let record = read(file, text)?;
    let replayed = replay(file, &record, catalogue, referee, &mut |_, _| {})?;
    Ok((record, replayed))
}

/// The start position of a record.
pub fn start_position(file: &str, record: &Record, catalogue: &Catalogue) -> Result<PositionSetup, RecordError> {
    let header = |message: String| RecordError::Header { file: file.to_string(), message };
    if record.record != RECORD_FORMAT {
        return Err(header(format!(
            "record: format {} is not known (this signalbox reads {RECORD_FORMAT})",
            record.record
        )));
    }
    if record.game != "express01" {
        return Err(header(format!("game: `{}` is not express01", record.game)));
    }
    match (&record.start, &record.position) {
        (Some(s), None) => s.position(catalogue).map_err(|e| header(format!("start: {e}"))),
        (None, Some(p)) => Ok(p.clone()),
        _ => Err(header("give exactly one of `start` (a seed) and `position`".into())),
    }
}

/// Replays a record with every rule checked (the bonus payouts by `referee`), the turn labels
/// and the result too. `on_step` sees the game before each step and the step.
pub fn replay<'c>(
    file: &str,
    record: &Record,
    catalogue: &'c Catalogue,
    referee: &dyn Referee,
    on_step: &mut dyn FnMut(&Game<'c>, Step),
) -> Result<Replayed<'c>, RecordError> {
    let setup = start_position(file, record, catalogue)?;
    let position = Position::from_setup(setup, catalogue).map_err(|e| RecordError::Start {
        file: file.to_string(),
        problems: e.problems.iter().map(|p| format!("  - {p}")).collect::<Vec<_>>().join("\n"),
    })?;
    let mut game = Game::from_position(&position)
        .map_err(|e: GameError| RecordError::Start { file: file.to_string(), problems: format!("  - {e}") })?;
    let mut rounds = Vec::new();
    let mut steps = 0;
    for (index, turn) in record.turns.iter().enumerate() {
        let turn_error = |message: String| RecordError::Turn { file: file.to_string(), index, message };
        if game.is_over() {
            return Err(turn_error("the game is already over".into()));
        }
        if *game.phase() != Phase::Pair {
            return Err(turn_error(format!(
                "the turn before is not finished (the game expects {}); a turn starts only when the last one is over",
                game.expecting()
            )));
        }
        let mover = &game.seats()[game.mover()].name;
        if (turn.round, turn.turn, turn.player.as_str()) != (game.round(), game.turn(), mover.as_str()) {
            return Err(turn_error(format!(
                "labelled round {}, turn {}, {}; the game is at round {}, turn {}, {mover} to move",
                turn.round,
                turn.turn,
                turn.player,
                game.round(),
                game.turn()
            )));
        }
        let (round, number, player) = (game.round(), game.turn(), mover.clone());
        for (k, text) in turn.steps.iter().enumerate() {
            let step_error = |game: &Game<'_>, message: String| {
                RecordError::Step(Box::new(StepFailure {
                    file: file.to_string(),
                    index,
                    round,
                    turn: number,
                    player: player.clone(),
                    step: k + 1,
                    text: text.clone(),
                    action: game.action().map_or_else(String::new, |a| format!(" ({})", a.name())),
                    message,
                }))
            };
            if game.is_over() || game.round() != round || (k > 0 && *game.phase() == Phase::Pair) {
                return Err(step_error(
                    &game,
                    "the turn is already over; the steps after it belong to the next turn".into(),
                ));
            }
            let (step, told) = game.parse_told(text).map_err(|m| step_error(&game, m))?;
            // A card told as drawn is put where the draw takes it (ruling T2); a draw from cards
            // nobody has seen must tell it.
            match (step, told) {
                (Step::Draw(d), Some(card)) => {
                    game.check(step, referee).map_err(|e| step_error(&game, e.to_string()))?;
                    game.reveal(d, card).map_err(|e| step_error(&game, e.to_string()))?;
                }
                (Step::Draw(d), None) if game.draws_unseen(step) => {
                    let name = game.decks()[d].name;
                    return Err(step_error(&game, StepError::Untold(name).to_string()));
                }
                _ => {}
            }
            game.check(step, referee).map_err(|e| step_error(&game, e.to_string()))?;
            on_step(&game, step);
            let before = game.round();
            let capitals: Vec<u32> = (0..game.seats().len()).map(|p| game.capital(p).total()).collect();
            game.play_unchecked(step);
            steps += 1;
            if game.round() != before {
                rounds.push(RoundCapitals { round: before, capitals });
            } else if game.is_over() {
                rounds.push(RoundCapitals {
                    round: before,
                    capitals: (0..game.seats().len()).map(|p| game.capital(p).total()).collect(),
                });
            }
        }
    }
    if let Some(stated) = &record.result {
        let result_error = |message: String| RecordError::Result { file: file.to_string(), message };
        if !game.is_over() {
            return Err(result_error("a result is given, but the record ends before the game does".into()));
        }
        let actual = result_of(&game);
        if &actual != stated {
            return Err(result_error(format!(
                "stated capitals {:?} and winners {:?}; the game gives {:?} and {:?}",
                stated.capitals, stated.winners, actual.capitals, actual.winners
            )));
        }
    }
    Ok(Replayed { game, rounds, steps })
}

/// The result of a finished game.
pub fn result_of(game: &Game<'_>) -> ResultRecord {
    ResultRecord {
        capitals: game.seats().iter().enumerate().map(|(p, s)| (s.name.clone(), game.capital(p).total())).collect(),
        winners: game.winners().iter().map(|&p| game.seats()[p].name.clone()).collect(),
    }
}

/// Writes a record as a game is played: call [`Recorder::step`] before each step is played, and
/// [`Recorder::finish`] at the end.
#[derive(Clone, Debug)]
pub struct Recorder {
    record: Record,
}

impl Recorder {
    /// A record of a new game from a seed.
    pub fn from_seed(start: StartSetup, note: Option<String>) -> Recorder {
        Recorder::new(Some(start), None, note)
    }

    /// A record of a game from a position.
    pub fn from_position(position: PositionSetup, note: Option<String>) -> Recorder {
        Recorder::new(None, Some(position), note)
    }

    fn new(start: Option<StartSetup>, position: Option<PositionSetup>, note: Option<String>) -> Recorder {
        Recorder {
            record: Record {
                record: RECORD_FORMAT,
                game: "express01".into(),
                note,
                start,
                position,
                turns: Vec::new(),
                result: None,
            },
        }
    }

    /// Records `step`, about to be played in `game`.
    pub fn step(&mut self, game: &Game<'_>, step: Step) {
        if *game.phase() == Phase::Pair || self.record.turns.is_empty() {
            self.record.turns.push(TurnRecord {
                round: game.round(),
                turn: game.turn(),
                player: game.seats()[game.mover()].name.clone(),
                steps: Vec::new(),
            });
        }
        if let Some(t) = self.record.turns.last_mut() {
            t.steps.push(game.describe(step));
        }
    }

    /// Records `step` with the card a draw brought, as a game from the table tells it
    /// ([`Game::describe_told`]).
    pub fn step_told(&mut self, game: &Game<'_>, step: Step, told: Option<super::card::CardNumber>) {
        self.step(game, step);
        if let (Some(t), Some(_)) = (self.record.turns.last_mut(), told)
            && let Some(last) = t.steps.last_mut()
        {
            *last = game.describe_told(step, told);
        }
    }

    /// The record so far; with the result when the game is over.
    pub fn finish(&self, game: &Game<'_>) -> Record {
        let mut record = self.record.clone();
        if game.is_over() {
            record.result = Some(result_of(game));
        }
        record
    }
}
