//! The answer of `coe advise`: every use of a roll valued without knowing the future (the fair
//! value of [`super::fair`]), with the hindsight line where the seed is known. One serde type,
//! printed by `--json` as it is.

use serde::Serialize;
use signalbox_engine::coe::{Game, Move, Record};

use super::fair::Valued;
use super::search::Solved;

/// The advice on a turn: its uses of the roll, best first.
#[derive(Clone, Debug, Serialize)]
pub struct Advice {
    /// The position, in words.
    pub position: String,
    /// The turn, from 1.
    pub turn: usize,
    /// The turns left at most, this one included.
    pub turns_left_at_most: usize,
    /// The turn's dice still to use.
    pub roll: [Option<u8>; 2],
    /// Whether every value is exact (at most 2 turns left).
    pub exact: bool,
    /// The playouts behind each estimate (0 when exact).
    pub samples: u32,
    /// The uses shown, best first.
    pub options: Vec<AdviceOption>,
    /// How many uses the roll has.
    pub options_total: usize,
    /// The best line knowing every die and card to come, where the seed is known.
    pub hindsight: Option<Hindsight>,
    /// The position as a record.
    pub record: Record,
}

/// One use of the roll.
#[derive(Clone, Debug, Serialize)]
pub struct AdviceOption {
    /// Its place, from 1.
    pub rank: usize,
    /// The expected final score.
    pub value: f64,
    /// The 95% interval's low end (the value when exact).
    pub low: f64,
    /// The 95% interval's high end.
    pub high: f64,
    /// Whether the value is exact.
    pub exact: bool,
    /// The playouts behind the estimate.
    pub samples: usize,
    /// The turn's moves, as records write them.
    pub moves: Vec<Move>,
    /// The same moves in words.
    pub words: Vec<String>,
}

/// The hindsight line: the proven best score knowing the future.
#[derive(Clone, Debug, Serialize)]
pub struct Hindsight {
    /// The best score found.
    pub score: u32,
    /// Whether it is proven the maximum.
    pub proven: bool,
    /// No line scores more.
    pub upper_bound: u32,
    /// The use of the roll its line starts with (a rank of `options`), where it is one of them.
    pub option: Option<usize>,
    /// The line's moves.
    pub moves: Vec<Move>,
}

impl Advice {
    /// The advice on `game`'s turn from its valued uses (`options`, best first; the first `shown`
    /// listed), the playouts per estimate, and the hindsight search with the index of the use
    /// its line starts with.
    pub fn new(
        position: String,
        game: &Game<'_>,
        options: &[Valued],
        shown: usize,
        samples: u32,
        hindsight: Option<(&Solved, Option<usize>)>,
        record: Record,
    ) -> Advice {
        let exact = options.first().is_some_and(|o| o.exact);
        Advice {
            position,
            turn: game.turn() + 1,
            turns_left_at_most: game.turns_left_at_most(),
            roll: game.dice(),
            exact,
            samples: if exact { 0 } else { samples },
            options: options
                .iter()
                .take(shown)
                .enumerate()
                .map(|(i, o)| AdviceOption {
                    rank: i + 1,
                    value: o.value,
                    low: o.value - o.half_width,
                    high: o.value + o.half_width,
                    exact: o.exact,
                    samples: o.samples,
                    moves: o.line.clone(),
                    words: o.line.iter().map(Move::to_string).collect(),
                })
                .collect(),
            options_total: options.len(),
            hindsight: hindsight.map(|(s, option)| Hindsight {
                score: s.score,
                proven: s.proven,
                upper_bound: s.upper_bound,
                option: option.map(|i| i + 1),
                moves: s.line.clone(),
            }),
            record,
        }
    }
}
