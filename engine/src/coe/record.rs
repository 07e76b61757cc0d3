//! Game records (JSON): an instance, the rule options and the moves, replayed by the engine to
//! recompute the score. A solver's answer is such a record, so the engine checks it on its own.

use serde::{Deserialize, Serialize};

use super::catalogue::Catalogue;
use super::game::{Chance, Game, IllegalMove, Move, Rules, Score};
use super::instance::Instance;
use crate::source::{SyntaxError, parse_json};

/// The rule options as written in a record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesSetup {
    /// The top of the workers track (default 6).
    #[serde(default = "default_max_workers")]
    pub max_workers: u8,
    /// Shortened games: the turn after which the game ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_turns: Option<usize>,
    /// The workers at the start (default 1; for tests, ruling G2).
    #[serde(default = "default_start_workers", skip_serializing_if = "is_default_start")]
    pub start_workers: u8,
    /// Card ids tucked under the board before the first turn (default none; for tests, ruling G2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tucked_at_start: Vec<u8>,
}

fn default_max_workers() -> u8 {
    Rules::default().max_workers
}

fn default_start_workers() -> u8 {
    Rules::default().start_workers
}

fn is_default_start(n: &u8) -> bool {
    *n == default_start_workers()
}

impl RulesSetup {
    /// The rule options, checked against the instance ([`Rules::check`]; each id tucked at the
    /// start a card other than the board, once).
    pub fn to_rules(&self, instance: &Instance) -> Result<Rules, String> {
        let mut tucked = 0u16;
        for &id in &self.tucked_at_start {
            if !(1..=9).contains(&id) || id == instance.board {
                return Err(format!("tucked_at_start: {id} is not a card id 1 to 9 other than the board"));
            }
            if tucked >> id & 1 == 1 {
                return Err(format!("tucked_at_start: card {id} is listed twice"));
            }
            tucked |= 1 << id;
        }
        let rules = Rules {
            max_workers: self.max_workers,
            max_turns: self.max_turns,
            start_workers: self.start_workers,
            tucked_at_start: tucked,
        };
        rules.check(instance)?;
        Ok(rules)
    }
}

impl From<Rules> for RulesSetup {
    fn from(r: Rules) -> RulesSetup {
        RulesSetup {
            max_workers: r.max_workers,
            max_turns: r.max_turns,
            start_workers: r.start_workers,
            tucked_at_start: r.tucked_at_start_ids().collect(),
        }
    }
}

/// A game record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// What chance fixed.
    pub instance: Instance,
    /// The rule options.
    #[serde(default = "default_rules")]
    pub rules: RulesSetup,
    /// The moves, in order: each a JSON object, or the move in the words `coe solve` prints
    /// (`"die 1 as 4: place on hex 7"`, [`super::words`]).
    #[serde(deserialize_with = "super::words::moves_in_words_or_objects")]
    pub moves: Vec<Move>,
    /// The final score the moves reach, as a solver claims it: replay checks it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<u32>,
    /// The rank of that score (carried, not checked).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank: Option<String>,
    /// Whether a solver proved that no line scores more (carried).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proven: Option<bool>,
    /// A solver's bound: no line scores more than this (carried).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upper_bound: Option<u32>,
    /// The instance's perfect-score bound (carried).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub perfect_bound: Option<u32>,
}

/// A turn as messages name it: `setup` for turn 0, `turn N` after.
pub fn turn_words(turn: usize) -> String {
    if turn == 0 { "setup".to_owned() } else { format!("turn {turn}") }
}

/// Where an instance holds a chance event, for messages.
fn chance_field(chance: &Chance) -> String {
    match *chance {
        Chance::Deck { index } => format!("`deck[{index}]`"),
        Chance::Reshuffle { index } => format!("`reshuffle[{index}]`, the cards as they came up after the reshuffle"),
        Chance::Roll { turn } => format!("`dice[{turn}]`"),
    }
}

fn default_rules() -> RulesSetup {
    Rules::default().into()
}

/// Why a record does not replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// Not JSON of the expected shape.
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    /// The rule options are not legal for the instance.
    #[error("{file}: field `rules`: {message}")]
    Rules {
        /// The file.
        file: String,
        /// What is wrong.
        message: String,
    },
    /// The instance is not legal.
    #[error("{file}: field `instance`: {message}")]
    Instance {
        /// The file.
        file: String,
        /// What is wrong.
        message: String,
    },
    /// The record claims a score its moves do not reach.
    #[error("{file}: field `score`: the record claims {claimed} but its moves score {replayed}")]
    Score {
        /// The file.
        file: String,
        /// The claimed score.
        claimed: u32,
        /// The recomputed score.
        replayed: u32,
    },
    /// A table record's move comes after a card or a roll the record does not hold: the game
    /// cannot go on without it.
    #[error(
        "{file}: field `moves[{index}]` ({}): the record does not hold {chance}, which the table saw before this move; add it to `instance` ({})",
        turn_words(*turn),
        chance_field(chance)
    )]
    Unseen {
        /// The file.
        file: String,
        /// The move's index.
        index: usize,
        /// The turn it was played in, from 1; 0 for the setup.
        turn: usize,
        /// What is missing.
        chance: Chance,
    },
    /// A move is illegal where it stands.
    #[error("{file}: field `moves[{index}]` ({}): {error}", turn_words(*turn))]
    Illegal {
        /// The file.
        file: String,
        /// The move's index.
        index: usize,
        /// The turn it was played in, from 1; 0 for the setup (the start space).
        turn: usize,
        /// Why.
        error: IllegalMove,
    },
}

impl Record {
    /// A record of moves with no claims.
    pub fn new(instance: Instance, rules: Rules, moves: Vec<Move>) -> Record {
        Record {
            instance,
            rules: rules.into(),
            moves,
            score: None,
            rank: None,
            proven: None,
            upper_bound: None,
            perfect_bound: None,
        }
    }

    /// The record as JSON for a reader: the instance and rules on a line each, then one move a
    /// line in the words `coe solve` prints ([`super::words`]), then the claims. It reads back
    /// as the same record.
    pub fn to_json_in_words(&self) -> String {
        let compact = |v: serde_json::Value| v.to_string();
        let mut fields = vec![
            format!("  \"instance\": {}", compact(serde_json::to_value(&self.instance).expect("serialises"))),
            format!("  \"rules\": {}", compact(serde_json::to_value(&self.rules).expect("serialises"))),
        ];
        let moves: Vec<String> =
            self.moves.iter().map(|m| format!("    {}", serde_json::Value::String(m.to_string()))).collect();
        fields.push(format!("  \"moves\": [\n{}\n  ]", moves.join(",\n")));
        let mut claims = serde_json::to_value(self).expect("serialises");
        if let Some(map) = claims.as_object_mut() {
            for key in ["instance", "rules", "moves"] {
                map.remove(key);
            }
            for (key, value) in map.iter() {
                fields.push(format!("  {}: {}", serde_json::Value::String(key.clone()), compact(value.clone())));
            }
        }
        format!("{{\n{}\n}}\n", fields.join(",\n"))
    }

    /// Reads a record from JSON text; `file` names it in messages.
    pub fn from_json(file: &str, text: &str) -> Result<Record, ReplayError> {
        Ok(parse_json(file, text)?)
    }

    /// The record as far as the table saw it: its moves, and of its instance only the cards and
    /// rolls the moves revealed ([`Game::seen_instance`]), with no claims. Two records that
    /// differ only in what was never seen give the same one. `None` when it does not replay.
    pub fn seen(&self, catalogue: &Catalogue) -> Option<Record> {
        let (game, _) = self.replay(catalogue, "").ok()?;
        let instance = game.seen_instance();
        Some(Record {
            instance,
            rules: self.rules.clone(),
            moves: self.moves.clone(),
            score: None,
            rank: None,
            proven: None,
            upper_bound: None,
            perfect_bound: None,
        })
    }

    /// Replays every move with checked play; returns the game reached and its score. A table
    /// record ([`Instance::is_table`]) may stop where the table waits for a card or a roll
    /// ([`Game::unseen`] of the game reached), but no move may come after one it does not hold.
    pub fn replay<'c>(&'c self, catalogue: &'c Catalogue, file: &str) -> Result<(Game<'c>, Score), ReplayError> {
        self.instance.check().map_err(|message| ReplayError::Instance { file: file.to_string(), message })?;
        let rules = self
            .rules
            .to_rules(&self.instance)
            .map_err(|message| ReplayError::Rules { file: file.to_string(), message })?;
        let mut game = Game::new(catalogue, &self.instance, rules);
        for (index, &mv) in self.moves.iter().enumerate() {
            let turn = if game.is_started() { game.turn() + 1 } else { 0 };
            if let Some(chance) = game.unseen() {
                return Err(ReplayError::Unseen { file: file.to_string(), index, turn, chance });
            }
            game.play(mv).map_err(|error| ReplayError::Illegal { file: file.to_string(), index, turn, error })?;
        }
        let score = game.score();
        if let Some(claimed) = self.score.filter(|&c| c != score.total()) {
            return Err(ReplayError::Score { file: file.to_string(), claimed, replayed: score.total() });
        }
        Ok((game, score))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::seq::IndexedRandom;

    /// A random game written as a record, read back and replayed, gives the same score; a
    /// record with a move changed is refused at that move.
    #[test]
    fn records_round_trip_and_replay() {
        let catalogue = Catalogue::house();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
        for seed in 0..50 {
            let instance = Instance::from_seed(seed);
            let mut game = Game::new(&catalogue, &instance, Rules::default());
            let mut moves = Vec::new();
            while !game.is_over() {
                let mv = *game.legal_moves().choose(&mut rng).expect("moves");
                game.play(mv).expect("legal");
                moves.push(mv);
            }
            let record = Record::new(instance.clone(), Rules::default(), moves);
            let text = serde_json::to_string_pretty(&record).expect("serialises");
            let back = Record::from_json("r.json", &text).expect("reads back");
            assert_eq!(back, record);
            let (_, score) = back.replay(&catalogue, "r.json").expect("replays");
            assert_eq!(score, game.score());
            let words = record.to_json_in_words();
            assert_eq!(Record::from_json("w.json", &words).expect("reads back in words"), record);
            let mut bad = record.clone();
            bad.moves[1] = Move::Start { hex: 0 };
            match bad.replay(&catalogue, "r.json") {
                Err(ReplayError::Illegal { index: 1, .. }) => {}
                other => panic!("expected move 1 refused, got {other:?}"),
            }
        }
    }
}
