//! The answer of `express01 advise`: the best turn of the player to move and the next best plans
//! (rulebook "A turn"; [`super::turn`]), and the exact last round where the game can end this
//! round ([`super::last_round`]). One serde type, printed by `--json` as it is.

use serde::Serialize;
use signalbox_engine::express01::game::Game;

use super::last_round::LastRound;
use super::turn::{TurnAnswer, evaluation};

/// The advice on a turn.
#[derive(Clone, Debug, Serialize)]
pub struct Advice {
    /// The position, in words.
    pub position: String,
    /// The round.
    pub round: u32,
    /// The turn within the round.
    pub turn: usize,
    /// The player to move.
    pub mover: String,
    /// What the answer assumes is known.
    pub assumes: String,
    /// How a turn is valued.
    pub evaluation: String,
    /// The value of the position before the turn.
    pub value_now: i32,
    /// The best turn.
    pub best: PlannedTurn,
    /// The next best plans, best first.
    pub alternatives: Vec<PlannedTurn>,
    /// Whether the best turn is proven.
    pub proven: bool,
    /// No turn is worth more.
    pub bound: i32,
    /// States searched.
    pub states: u64,
    /// The exact last round, where the game can end this round.
    pub last_round: Option<LastRoundAdvice>,
    /// Where a face-down card could change the answer, what that means.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unseen: Option<String>,
}

/// One turn: its steps in words, its value and every player's capital after it.
#[derive(Clone, Debug, Serialize)]
pub struct PlannedTurn {
    /// The steps in words.
    pub steps: Vec<String>,
    /// Its value.
    pub value: i32,
    /// Every player's name and capital after it.
    pub capitals_after: Vec<(String, u32)>,
}

/// The last round searched to the end of the game.
#[derive(Clone, Debug, Serialize)]
pub struct LastRoundAdvice {
    /// How the other players play, in words.
    pub opponents: String,
    /// Whether only the mover's turns that reach the end were searched.
    pub restricted: bool,
    /// Whether the line is proven.
    pub proven: bool,
    /// States searched.
    pub states: u64,
    /// Each turn of the line: the player and the steps in words.
    pub line: Vec<PlayerSteps>,
    /// Every player's final capital.
    pub finals: Vec<PlayerCapital<u32>>,
    /// The winners.
    pub winners: Vec<String>,
    /// Every player's expected final capital, where unseen cards make it a chance.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_finals: Option<Vec<PlayerCapital<f64>>>,
}

/// A player's turn in a line.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerSteps {
    /// The player.
    pub player: String,
    /// The steps in words.
    pub steps: Vec<String>,
}

/// A player's capital: a final capital (a whole number) or an expected one.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerCapital<T> {
    /// The player.
    pub player: String,
    /// The capital.
    pub capital: T,
}

impl Advice {
    /// The advice on `game` from the turn search's `answer` and the last round's `last` (with
    /// `opponents`, its model in words), saying what it `assumes` and how it values a turn.
    pub fn new(
        position: String,
        game: &Game<'_>,
        answer: &TurnAnswer,
        last: Option<(&LastRound, String)>,
        assumes: &str,
        evaluation_words: &str,
        unseen: &str,
    ) -> Advice {
        let names: Vec<String> = game.seats().iter().map(|s| s.name.clone()).collect();
        let mover = game.mover();
        let mut turns = answer.turns.iter().map(|t| {
            let (steps, after) = game.describe_steps(&t.steps);
            let capitals_after = (0..names.len()).map(|p| (names[p].clone(), after.capital(p).total())).collect();
            PlannedTurn { steps, value: t.value, capitals_after }
        });
        let best = turns.next().unwrap_or(PlannedTurn { steps: Vec::new(), value: 0, capitals_after: Vec::new() });
        Advice {
            position,
            round: game.round(),
            turn: game.turn(),
            mover: names[mover].clone(),
            assumes: assumes.to_owned(),
            evaluation: evaluation_words.to_owned(),
            value_now: evaluation(game, mover),
            best,
            alternatives: turns.collect(),
            proven: answer.proven,
            bound: answer.bound,
            states: answer.nodes,
            last_round: last.map(|(l, opponents)| LastRoundAdvice {
                opponents,
                restricted: l.restricted,
                proven: l.proven,
                states: l.nodes,
                line: l
                    .in_words(game)
                    .into_iter()
                    .map(|(seat, steps)| PlayerSteps { player: names[seat].clone(), steps })
                    .collect(),
                finals: (0..names.len())
                    .map(|p| PlayerCapital { player: names[p].clone(), capital: l.finals[p] })
                    .collect(),
                winners: l.winners.iter().map(|&p| names[p].clone()).collect(),
                expected_finals: l.expected().map(|e| {
                    (0..names.len()).map(|p| PlayerCapital { player: names[p].clone(), capital: e[p] }).collect()
                }),
            }),
            unseen: answer.unseen.then(|| unseen.to_owned()),
        }
    }
}
