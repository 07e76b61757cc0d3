//! The review of a played game, written once for every game: each decision of the record with
//! the value of the position before it, the value after the move played and after the best
//! move, the loss, the turning points and a summary per player. Each game's analysis
//! (`coe::analysis`, `cube_express::analysis`, `railways::analysis`) fills a [`Review`]; the CLI
//! prints it as text or JSON and `signalbox-render` draws it as a page.
//!
//! A value is always "what the solver says the position is worth", in the game's unit
//! ([`Measure`]), and a loss is never negative: `loss = value_before - value_after` when higher
//! is better, `value_after - value_before` when lower is better. The value before a decision is
//! the value after the best move, so a move that loses nothing has `loss == 0`.

use serde::{Deserialize, Serialize};

/// Below this a loss counts as none (values of some games are averages of floating-point sums).
pub const TOLERANCE: f64 = 1e-9;

/// Which way a value is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Better {
    /// A larger value is better (scores, value points).
    Higher,
    /// A smaller value is better (expected turns to finish).
    Lower,
}

/// What the values of a review measure, and what they assume.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measure {
    /// The value's name, as the text output and the page print it ("best final score reachable").
    pub name: String,
    /// The unit of a loss ("points", "value points", "expected turns").
    pub unit: String,
    /// Which way is better.
    pub better: Better,
    /// What the values assume, in a sentence the report prints as it is (for example that they
    /// know the future dice and cards).
    pub assumes: String,
}

/// One move, as the text output words it and as the record format writes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Choice {
    /// The move in words, as the game's text output prints it.
    pub text: String,
    /// The move in the record format of the game (what a record file would hold for it).
    pub moves: serde_json::Value,
}

/// A second value of a decision, computed without knowledge a player at the table lacks (The
/// Cubes of Europe fills it: `solver::coe::fair`; the other games leave it `null`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FairPlay {
    /// The fair-play value of the position after the move played.
    pub played: f64,
    /// The fair-play value of the position after the best move by that value.
    pub best: f64,
    /// The fair-play loss.
    pub loss: f64,
    /// The best move by the fair-play value, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_move: Option<String>,
    /// Whether both values are exact (otherwise estimates by playouts).
    #[serde(default)]
    pub exact: bool,
    /// Half the width of the 95% interval of the estimates (0 when exact).
    #[serde(default)]
    pub half_width: f64,
}

/// A game's final score split by the fair-play values: the expected score at the start, the
/// skill (the fair-play losses, added and negated) and the luck (the rest), so that
/// `final_score = expected_at_start + skill + luck`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FairSplit {
    /// The final score.
    pub final_score: f64,
    /// The fair-play value of the start: the expected final score under the best play.
    pub expected_at_start: f64,
    /// Minus the sum of the fair-play losses (0 or less).
    pub skill: f64,
    /// The rest: what the dice and the cards gave or took.
    pub luck: f64,
    /// The playouts behind each estimated value.
    pub samples: usize,
    /// Whether every value is exact.
    pub exact: bool,
}

/// One decision of a played game and what the solver says of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    /// The decision's number in the game, from 1.
    pub index: usize,
    /// The turn it belongs to, from 1.
    pub turn: usize,
    /// The seat of the player who decided, from 0 (0 in a solo game).
    pub player: usize,
    /// What kind of decision it is, in a few words ("start space", "die 0", "turn").
    pub kind: String,
    /// The move played.
    pub played: Choice,
    /// The best move (the move played when it loses nothing).
    pub best: Choice,
    /// The value of the position before the decision: the value after the best move.
    pub value_before: f64,
    /// The value of the position after the move played.
    pub value_after: f64,
    /// The value after the best move, computed on its own (equal to `value_before`; kept so a
    /// reader can check that it is).
    pub best_value_after: f64,
    /// What the move played lost, never negative.
    pub loss: f64,
    /// Whether both values are proven (false when a time limit cut a search short).
    pub proven: bool,
    /// The fair-play values, when computed (`null` until a fair-play analysis fills them).
    pub fair_play: Option<FairPlay>,
    /// Whatever else the game reports for this decision (the roll, the running scores, the win
    /// chances), as the game's analysis documents it.
    pub details: serde_json::Value,
}

impl Decision {
    /// The loss of a move from the two values, never negative (a value after the move played
    /// better than the best, which only an inexact value could give, counts as no loss).
    pub fn loss_of(better: Better, before: f64, after: f64) -> f64 {
        let loss = match better {
            Better::Higher => before - after,
            Better::Lower => after - before,
        };
        if loss <= TOLERANCE { 0.0 } else { loss }
    }

    /// Whether the move played lost nothing.
    pub fn lost_nothing(&self) -> bool {
        self.loss <= TOLERANCE
    }
}

/// One player's total.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerSummary {
    /// The seat, from 0.
    pub player: usize,
    /// The player's name as the review prints it.
    pub name: String,
    /// How many decisions the player made.
    pub decisions: usize,
    /// How many of them lost nothing.
    pub lost_nothing: usize,
    /// The sum of the player's losses.
    pub total_loss: f64,
    /// The player's largest single loss.
    pub largest_loss: f64,
}

/// The summary of a review.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// One line per player.
    pub players: Vec<PlayerSummary>,
    /// The indexes (from 1) of the turning points: the three largest losses, largest first
    /// (ties to the earlier decision); fewer when fewer decisions lost anything.
    pub turning_points: Vec<usize>,
    /// The indexes (from 1) of every decision, largest loss first (ties to the earlier).
    pub ranked: Vec<usize>,
    /// Whether every value of the review is proven.
    pub proven: bool,
}

/// One point of a chart: a decision or turn on the x axis, a value on the y axis, and an
/// optional interval around it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// Where on the x axis (a decision's index or a turn).
    pub x: f64,
    /// The value.
    pub y: f64,
    /// The low end of an interval around `y`, if the value is an estimate.
    pub low: Option<f64>,
    /// The high end of the interval.
    pub high: Option<f64>,
}

/// One line of a chart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Series {
    /// The line's name in the legend.
    pub name: String,
    /// The seat it belongs to (for its colour and marker), or none for a line of the game.
    pub player: Option<usize>,
    /// Its points, by x.
    pub points: Vec<Point>,
}

/// What the x axis of a chart counts, so that a page can mark the turning points on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Axis {
    /// Decisions by their index (from 1; a point at x = i is the position after decision i, 0
    /// the start).
    Decision,
    /// Turns (from 1; a point at x = t is the position after turn t, 0 the start).
    Turn,
}

/// A chart of the game over time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Chart {
    /// The chart's title.
    pub title: String,
    /// What the x axis counts.
    pub axis: Axis,
    /// The x axis's label.
    pub x_label: String,
    /// What the y axis measures.
    pub y_label: String,
    /// Its lines.
    pub series: Vec<Series>,
}

/// The review of a played game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Review {
    /// The game's command name (`coe`, `cube-express`, `railways`).
    pub game: String,
    /// A title for the review (the record's name, the seed).
    pub title: String,
    /// The players' names by seat.
    pub players: Vec<String>,
    /// What the values measure.
    pub measure: Measure,
    /// Every decision of the record, in the order played.
    pub decisions: Vec<Decision>,
    /// The summary, computed from the decisions by [`Review::new`].
    pub summary: Summary,
    /// Charts of the game over time.
    pub charts: Vec<Chart>,
    /// Facts about the game as a whole, printed under the summary (the final scores).
    pub facts: Vec<String>,
    /// The final score split into the expected score, skill and luck, where the fair-play values
    /// are computed (The Cubes of Europe).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fair_play: Option<FairSplit>,
}

impl Review {
    /// A review of these decisions, with its summary and turning points computed.
    pub fn new(game: &str, title: String, players: Vec<String>, measure: Measure, decisions: Vec<Decision>) -> Review {
        let summary = summarise(&players, &decisions);
        Review {
            game: game.to_owned(),
            title,
            players,
            measure,
            decisions,
            summary,
            charts: Vec::new(),
            facts: Vec::new(),
            fair_play: None,
        }
    }

    /// The decision with this index (from 1).
    pub fn decision(&self, index: usize) -> Option<&Decision> {
        index.checked_sub(1).and_then(|i| self.decisions.get(i))
    }

    /// What is inconsistent in the review, one sentence each (empty when all is well): a loss
    /// that is negative or does not match the two values, a value before a decision that is not
    /// the best move's value after it, decisions out of order, a summary that does not add up.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (i, d) in self.decisions.iter().enumerate() {
            let at = format!("decision {}", d.index);
            if d.index != i + 1 {
                out.push(format!("{at} is number {} in the list", i + 1));
            }
            if d.loss < 0.0 {
                out.push(format!("{at} has a negative loss {}", d.loss));
            }
            let expected = Decision::loss_of(self.measure.better, d.value_before, d.value_after);
            if (expected - d.loss).abs() > 1e-6 {
                out.push(format!("{at}: loss {} but the values give {expected}", d.loss));
            }
            if (d.value_before - d.best_value_after).abs() > 1e-6 {
                out.push(format!(
                    "{at}: value before {} but the best move leads to {}",
                    d.value_before, d.best_value_after
                ));
            }
            if d.player >= self.players.len().max(1) {
                out.push(format!("{at} is by seat {}, which the game does not have", d.player));
            }
        }
        if self.summary != summarise(&self.players, &self.decisions) {
            out.push("the summary does not match the decisions".to_owned());
        }
        out
    }
}

/// A value as reviews print it: whole numbers without decimals, others to 3 places.
pub fn number(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 { format!("{}", v.round() as i64) } else { format!("{v:.3}") }
}

fn summarise(players: &[String], decisions: &[Decision]) -> Summary {
    let mut ranked: Vec<&Decision> = decisions.iter().collect();
    ranked.sort_by(|a, b| b.loss.total_cmp(&a.loss).then(a.index.cmp(&b.index)));
    let turning_points = ranked.iter().filter(|d| !d.lost_nothing()).take(3).map(|d| d.index).collect();
    let seats = players.len().max(1);
    let players = (0..seats)
        .map(|seat| {
            let mine: Vec<&Decision> = decisions.iter().filter(|d| d.player == seat).collect();
            PlayerSummary {
                player: seat,
                name: players.get(seat).cloned().unwrap_or_else(|| format!("seat {seat}")),
                decisions: mine.len(),
                lost_nothing: mine.iter().filter(|d| d.lost_nothing()).count(),
                total_loss: mine.iter().map(|d| d.loss).sum(),
                largest_loss: mine.iter().map(|d| d.loss).fold(0.0, f64::max),
            }
        })
        .collect();
    Summary {
        players,
        turning_points,
        ranked: ranked.iter().map(|d| d.index).collect(),
        proven: decisions.iter().all(|d| d.proven),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decision(index: usize, player: usize, before: f64, after: f64) -> Decision {
        let choice = |t: &str| Choice { text: t.to_owned(), moves: serde_json::Value::Null };
        Decision {
            index,
            turn: index,
            player,
            kind: "turn".to_owned(),
            played: choice("played"),
            best: choice("best"),
            value_before: before,
            value_after: after,
            best_value_after: before,
            loss: Decision::loss_of(Better::Higher, before, after),
            proven: true,
            fair_play: None,
            details: serde_json::Value::Null,
        }
    }

    fn measure() -> Measure {
        Measure { name: "score".into(), unit: "points".into(), better: Better::Higher, assumes: String::new() }
    }

    #[test]
    fn turning_points_are_the_three_largest_losses_ties_to_the_earlier() {
        let ds = vec![
            decision(1, 0, 10.0, 10.0),
            decision(2, 1, 10.0, 8.0),
            decision(3, 0, 8.0, 7.0),
            decision(4, 1, 7.0, 5.0),
            decision(5, 0, 5.0, 2.0),
        ];
        let r = Review::new("test", "t".into(), vec!["a".into(), "b".into()], measure(), ds);
        assert_eq!(r.summary.turning_points, vec![5, 2, 4]);
        assert_eq!(r.summary.ranked, vec![5, 2, 4, 3, 1]);
        assert_eq!(r.summary.players[0].total_loss, 4.0);
        assert_eq!(r.summary.players[0].lost_nothing, 1);
        assert_eq!(r.summary.players[1].largest_loss, 2.0);
        assert!(r.problems().is_empty(), "{:?}", r.problems());
    }

    #[test]
    fn a_review_without_losses_has_no_turning_point_and_bad_values_are_named() {
        let mut r = Review::new("test", "t".into(), vec!["a".into()], measure(), vec![decision(1, 0, 3.0, 3.0)]);
        assert!(r.summary.turning_points.is_empty());
        r.decisions[0].best_value_after = 4.0;
        r.decisions[0].loss = -1.0;
        let problems = r.problems();
        assert_eq!(problems.len(), 4, "{problems:?}");
    }

    #[test]
    fn a_loss_is_never_negative_whichever_way_is_better() {
        assert_eq!(Decision::loss_of(Better::Lower, 5.0, 6.5), 1.5);
        assert_eq!(Decision::loss_of(Better::Lower, 5.0, 4.0), 0.0);
        assert_eq!(Decision::loss_of(Better::Higher, 5.0, 6.0), 0.0);
    }
}
