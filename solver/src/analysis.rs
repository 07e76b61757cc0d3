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

/// The label of a decision, as chess players know them: by the loss the review is sure of
/// ([`Decision::sure_loss`]) against the game's [`Thresholds`] (`docs/formats/analysis.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Label {
    /// Surely lost nothing.
    Best,
    /// Lost less than an inaccuracy.
    Good,
    /// Lost at least the game's inaccuracy threshold.
    Inaccuracy,
    /// Lost at least the game's mistake threshold.
    Mistake,
    /// Lost at least the game's blunder threshold.
    Blunder,
    /// A search stopped short and the loss's range reaches zero: nothing is claimed.
    #[serde(rename = "not proven")]
    NotProven,
}

impl Label {
    /// Every label, best first.
    pub const ALL: [Label; 6] =
        [Label::Best, Label::Good, Label::Inaccuracy, Label::Mistake, Label::Blunder, Label::NotProven];

    /// The label in words, as text, page and JSON readers see it.
    pub fn words(self) -> &'static str {
        match self {
            Label::Best => "best",
            Label::Good => "good",
            Label::Inaccuracy => "inaccuracy",
            Label::Mistake => "mistake",
            Label::Blunder => "blunder",
            Label::NotProven => "not proven",
        }
    }
}

/// Where a game's labels start, in its loss unit: a sure loss of at least `inaccuracy` is an
/// inaccuracy, of at least `mistake` a mistake, of at least `blunder` a blunder; a smaller
/// loss above zero is good. Each game's values and their reasons: `docs/formats/analysis.md`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Thresholds {
    /// The smallest inaccuracy.
    pub inaccuracy: f64,
    /// The smallest mistake.
    pub mistake: f64,
    /// The smallest blunder; a decision's accuracy falls to 0 there.
    pub blunder: f64,
}

impl Thresholds {
    /// The label of a decision by these thresholds.
    pub fn label(&self, d: &Decision, better: Better) -> Label {
        if d.surely_lost_nothing(better) {
            return Label::Best;
        }
        if !d.claimed(better) {
            return if d.proven || d.ranges.is_some_and(|r| r.estimated) { Label::Good } else { Label::NotProven };
        }
        let loss = d.sure_loss(better);
        if loss >= self.blunder - TOLERANCE {
            Label::Blunder
        } else if loss >= self.mistake - TOLERANCE {
            Label::Mistake
        } else if loss >= self.inaccuracy - TOLERANCE {
            Label::Inaccuracy
        } else {
            Label::Good
        }
    }

    /// A decision's accuracy, 0 to 100: `100 * (1 - loss / blunder)`, at least 0, from the sure
    /// loss; `None` for a decision labelled not proven.
    pub fn accuracy(&self, d: &Decision, better: Better) -> Option<f64> {
        (self.label(d, better) != Label::NotProven)
            .then(|| 100.0 * (1.0 - d.sure_loss(better) / self.blunder).clamp(0.0, 1.0))
    }
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
    /// Where the labels start, in the unit of a loss.
    pub thresholds: Thresholds,
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

/// A game's final score split into the expected score at the start, the skill of the decisions
/// and the luck of the chance events, turn by turn ([`TurnSplit`]), by one value: the expected
/// final score when a fixed reference player plays on. `final_score = expected_at_start + skill
/// + luck` exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FairSplit {
    /// The final score.
    pub final_score: f64,
    /// The value of the start.
    pub expected_at_start: f64,
    /// The turns' skill, added up: what the decisions made of the value against the reference
    /// player's turns (above 0 where they did better).
    pub skill: f64,
    /// The chance events' luck, added up: zero on average.
    pub luck: f64,
    /// The playouts behind each estimated value.
    pub samples: usize,
    /// Whether every value is exact.
    pub exact: bool,
    /// The split turn by turn: the luck of each turn's roll and cards and the skill of its
    /// decisions, which add up to `luck` and `skill`.
    #[serde(default)]
    pub turns: Vec<TurnSplit>,
}

/// One turn of a [`FairSplit`]: the chance that opened it and the decisions that followed, so
/// that `expected + luck + skill = value_after`, and each turn's `value_after` is the next
/// turn's `expected` (the last turn's is the final score).
///
/// The luck of a chance event is the value after it less the expected value before it (the
/// definition backgammon analysers use): the value before the roll and cards is that of the
/// position the previous turn ended in, which is the expectation, over every roll and card that
/// could come, of the value after them; so luck is zero in expectation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TurnSplit {
    /// The turn, from 1; the choice of a start space, before the first roll, is turn 0.
    pub turn: usize,
    /// What chance gave at the turn's start, in words ("rolled 2 and 5, card 4 came up");
    /// empty for the start space, which no chance precedes.
    pub chance: String,
    /// The expected final score before the chance.
    pub expected: f64,
    /// The value after the chance less `expected`.
    pub luck: f64,
    /// The value after the turn's decisions less the value of the turn the reference player
    /// would have played from the same position.
    pub skill: f64,
    /// The value of the position the turn ended in (the final score after the last).
    pub value_after: f64,
    /// The turn's first and last decisions (numbered from 1).
    pub decisions: [usize; 2],
    /// Whether every value of the turn is exact (otherwise estimates by playouts).
    pub exact: bool,
}

/// Whether two summaries agree, their numbers up to the last digits a JSON round trip may change.
fn same_summary(a: &Summary, b: &Summary) -> bool {
    let close = |x: f64, y: f64| (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1.0);
    let players = a.players.len() == b.players.len()
        && a.players.iter().zip(&b.players).all(|(p, q)| {
            p.player == q.player
                && p.name == q.name
                && p.decisions == q.decisions
                && p.lost_nothing == q.lost_nothing
                && close(p.total_loss, q.total_loss)
                && close(p.largest_loss, q.largest_loss)
                && p.labels == q.labels
                && match (p.accuracy, q.accuracy) {
                    (Some(x), Some(y)) => close(x, y),
                    (x, y) => x == y,
                }
        });
    players && a.turning_points == b.turning_points && a.ranked == b.ranked && a.proven == b.proven
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
    /// Where a value is not proven, the ranges the values lie in (absent when both are
    /// proven): the true loss then lies in [`Decision::loss_range`], and the review claims it
    /// only where that range excludes zero.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ranges: Option<Ranges>,
    /// The label by the game's thresholds, which [`Review::new`] fills (`None` before).
    #[serde(default)]
    pub label: Option<Label>,
    /// The fair-play values, when computed (`null` until a fair-play analysis fills them).
    pub fair_play: Option<FairPlay>,
    /// Whatever else the game reports for this decision (the roll, the running scores, the win
    /// chances), as the game's analysis documents it.
    pub details: serde_json::Value,
}

/// The range a value lies in: proven bounds where a search stopped short, or a 95% interval
/// where the value is an estimate.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Range {
    /// The low end.
    pub low: f64,
    /// The high end; `None` where nothing bounds the value (a stopped search that gives no
    /// bound).
    pub high: Option<f64>,
}

impl Range {
    /// A proven value: the range of one point.
    pub fn exact(v: f64) -> Range {
        Range { low: v, high: Some(v) }
    }
}

/// The ranges of a decision's two values, where they are not proven.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ranges {
    /// The value before the decision (the value after the best move).
    pub before: Range,
    /// The value after the move played.
    pub after: Range,
    /// Whether the ranges are 95% intervals of estimates (playouts) rather than proven bounds.
    pub estimated: bool,
}

impl Decision {
    /// The range the true loss lies in: the loss itself where both values are proven. The low
    /// end is never negative; the high end is `None` where a value has no bound.
    pub fn loss_range(&self, better: Better) -> (f64, Option<f64>) {
        let Some(r) = &self.ranges else { return (self.loss, Some(self.loss)) };
        let (low, high) = match better {
            Better::Higher => (r.after.high.map_or(0.0, |h| r.before.low - h), r.before.high.map(|h| h - r.after.low)),
            Better::Lower => (r.before.high.map_or(0.0, |h| r.after.low - h), r.after.high.map(|h| h - r.before.low)),
        };
        (if low <= TOLERANCE { 0.0 } else { low }, high.map(|h| h.max(0.0)))
    }

    /// The loss the review is sure of: the loss where both values are proven; an estimate's
    /// loss where its interval excludes zero (otherwise 0); where a search stopped short, the
    /// low end of [`Decision::loss_range`], which the bounds prove.
    pub fn sure_loss(&self, better: Better) -> f64 {
        match self.ranges {
            None if self.proven => self.loss,
            None => 0.0,
            Some(r) if r.estimated && self.claimed(better) => self.loss,
            Some(r) if r.estimated => 0.0,
            Some(_) => self.loss_range(better).0,
        }
    }

    /// Whether the move played surely lost nothing: a proven loss of 0, an estimate that puts
    /// it first, or bounds that leave no room for a loss.
    pub fn surely_lost_nothing(&self, better: Better) -> bool {
        match self.ranges {
            None => self.proven && self.lost_nothing(),
            Some(r) if r.estimated => self.lost_nothing(),
            Some(_) => self.loss_range(better).1.is_some_and(|h| h <= TOLERANCE),
        }
    }

    /// The value before the decision as a review prints it: the number where proven,
    /// otherwise the range it lies in ("31 to 40", "at least 31").
    pub fn before_text(&self) -> String {
        range_text(self.value_before, self.ranges.map(|r| r.before))
    }

    /// The value after the move played, as [`Decision::before_text`] prints it.
    pub fn after_text(&self) -> String {
        range_text(self.value_after, self.ranges.map(|r| r.after))
    }

    /// The loss as a review prints it: the number where both values are proven, otherwise the
    /// range it lies in ("0 to 14", "at least 3").
    pub fn loss_text(&self, better: Better) -> String {
        if self.ranges.is_none() {
            return number(self.loss);
        }
        match self.loss_range(better) {
            (low, Some(high)) if (high - low).abs() < TOLERANCE => number(low),
            (low, Some(high)) => format!("{} to {}", number(low), number(high)),
            (low, None) if low <= TOLERANCE => "not known".to_owned(),
            (low, None) => format!("at least {}", number(low)),
        }
    }

    /// Whether the review claims a loss here: both values proven and a loss, or a range of
    /// the loss that excludes zero (an unproven decision without ranges claims nothing).
    pub fn claimed(&self, better: Better) -> bool {
        match self.ranges {
            None => self.proven && !self.lost_nothing(),
            Some(_) => self.loss_range(better).0 > TOLERANCE,
        }
    }

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
    /// How many of them surely lost nothing ([`Decision::surely_lost_nothing`]).
    pub lost_nothing: usize,
    /// The sum of the losses the review is sure of ([`Decision::sure_loss`]).
    pub total_loss: f64,
    /// The player's largest single loss the review is sure of.
    pub largest_loss: f64,
    /// How many decisions have each label, best first ([`Label::ALL`]'s order); labels
    /// nobody earned are left out.
    pub labels: std::collections::BTreeMap<Label, usize>,
    /// The mean accuracy of the player's decisions ([`Thresholds::accuracy`]), 0 to 100;
    /// `None` when none has one.
    pub accuracy: Option<f64>,
}

impl PlayerSummary {
    /// The player's accuracy and labels in words: "accuracy 87%: 20 best, 2 good, 1 mistake".
    pub fn labels_in_words(&self) -> String {
        let counts: Vec<String> = self
            .labels
            .iter()
            .map(|(label, n)| match (label, *n) {
                (Label::Inaccuracy | Label::Mistake | Label::Blunder, n) if n != 1 => format!("{n} {}s", label.words()),
                (_, n) => format!("{n} {}", label.words()),
            })
            .collect();
        let accuracy =
            self.accuracy.map_or_else(|| "no accuracy (nothing proven)".to_owned(), |a| format!("accuracy {a:.0}%"));
        format!("{accuracy}: {}", counts.join(", "))
    }
}

/// The summary of a review.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// One line per player.
    pub players: Vec<PlayerSummary>,
    /// The indexes (from 1) of the turning points: the three largest claimed losses
    /// ([`Decision::claimed`]), ranked by the loss the review is sure of
    /// ([`Decision::sure_loss`]), largest first, ties to the earlier decision; fewer when fewer
    /// decisions surely lost anything. A loss between values a stopped search left unproven is
    /// never ranked by its face value.
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
    pub fn new(
        game: &str,
        title: String,
        players: Vec<String>,
        measure: Measure,
        mut decisions: Vec<Decision>,
    ) -> Review {
        for d in &mut decisions {
            d.label = Some(measure.thresholds.label(d, measure.better));
        }
        let summary = summarise(&players, &decisions, &measure);
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
        for d in &self.decisions {
            let label = self.measure.thresholds.label(d, self.measure.better);
            if d.label != Some(label) {
                out.push(format!(
                    "decision {} is labelled {:?}, but its loss makes it {}",
                    d.index,
                    d.label,
                    label.words()
                ));
            }
        }
        if !same_summary(&self.summary, &summarise(&self.players, &self.decisions, &self.measure)) {
            out.push("the summary does not match the decisions".to_owned());
        }
        out
    }
}

/// A value, or the range it lies in where it is not proven.
fn range_text(value: f64, range: Option<Range>) -> String {
    match range {
        None => number(value),
        Some(Range { low, high: Some(high) }) if (high - low).abs() < TOLERANCE => number(low),
        Some(Range { low, high: Some(high) }) => format!("{} to {}", number(low), number(high)),
        Some(Range { low, high: None }) if low <= TOLERANCE => "not known".to_owned(),
        Some(Range { low, high: None }) => format!("at least {}", number(low)),
    }
}

/// A value as reviews print it: whole numbers without decimals, others to 3 places.
pub fn number(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 { format!("{}", v.round() as i64) } else { format!("{v:.3}") }
}

fn summarise(players: &[String], decisions: &[Decision], measure: &Measure) -> Summary {
    let better = measure.better;
    let mut ranked: Vec<&Decision> = decisions.iter().collect();
    ranked.sort_by(|a, b| b.loss.total_cmp(&a.loss).then(a.index.cmp(&b.index)));
    let mut sure: Vec<(f64, usize)> =
        decisions.iter().filter(|d| d.claimed(better)).map(|d| (d.sure_loss(better), d.index)).collect();
    sure.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let turning_points = sure.iter().take(3).map(|&(_, index)| index).collect();
    let seats = players.len().max(1);
    let players = (0..seats)
        .map(|seat| {
            let mine: Vec<&Decision> = decisions.iter().filter(|d| d.player == seat).collect();
            PlayerSummary {
                player: seat,
                name: players.get(seat).cloned().unwrap_or_else(|| format!("seat {seat}")),
                decisions: mine.len(),
                lost_nothing: mine.iter().filter(|d| d.surely_lost_nothing(better)).count(),
                total_loss: mine.iter().map(|d| d.sure_loss(better)).sum(),
                largest_loss: mine.iter().map(|d| d.sure_loss(better)).fold(0.0, f64::max),
                labels: mine.iter().fold(std::collections::BTreeMap::new(), |mut m, d| {
                    *m.entry(measure.thresholds.label(d, better)).or_insert(0) += 1;
                    m
                }),
                accuracy: {
                    let each: Vec<f64> = mine.iter().filter_map(|d| measure.thresholds.accuracy(d, better)).collect();
                    (!each.is_empty()).then(|| each.iter().sum::<f64>() / each.len() as f64)
                },
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
            ranges: None,
            label: None,
            fair_play: None,
            details: serde_json::Value::Null,
        }
    }

    fn measure() -> Measure {
        Measure {
            name: "score".into(),
            unit: "points".into(),
            better: Better::Higher,
            assumes: String::new(),
            thresholds: Thresholds { inaccuracy: 1.0, mistake: 2.0, blunder: 3.0 },
        }
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

    /// A loss between values a stopped search left unproven is never a turning point by its
    /// face value, even the largest: turning points are ranked by the loss the review is sure
    /// of, and an estimate counts only where its interval excludes zero.
    #[test]
    fn turning_points_are_ranked_by_the_loss_the_review_is_sure_of() {
        let bounded = |index, before: f64, after: f64, after_high: f64| {
            let mut d = decision(index, 0, before, after);
            d.proven = false;
            d.ranges = Some(Ranges {
                before: Range { low: before, high: Some(before + 1.0) },
                after: Range { low: after, high: Some(after_high) },
                estimated: false,
            });
            d
        };
        let estimate = |index, before: f64, after: f64, half: f64| {
            let mut d = decision(index, 0, before, after);
            d.proven = false;
            d.ranges = Some(Ranges {
                before: Range { low: before - half, high: Some(before + half) },
                after: Range { low: after - half, high: Some(after + half) },
                estimated: true,
            });
            d
        };
        let ds = vec![
            bounded(1, 31.0, 26.0, 40.0), // loss 5, but the value after may be 40: not claimed
            decision(2, 0, 26.0, 25.0),   // a proven loss of 1
            estimate(3, 25.0, 23.0, 0.5), // 2 ± 1: clear of zero
            estimate(4, 23.0, 20.0, 2.0), // 3 ± 4: not claimed
            bounded(5, 20.0, 16.0, 17.0), // at least 3 lost, proven, though neither value is
        ];
        assert_eq!(ds[0].loss_range(Better::Higher), (0.0, Some(6.0)));
        assert_eq!(ds[4].loss_range(Better::Higher), (3.0, Some(5.0)));
        assert!(!ds[0].claimed(Better::Higher) && ds[4].claimed(Better::Higher));
        let r = Review::new("test", "t".into(), vec!["a".into()], measure(), ds);
        assert_eq!(r.summary.turning_points, vec![5, 3, 2]);
        assert_eq!(r.summary.players[0].lost_nothing, 0);
        assert_eq!(r.summary.players[0].total_loss, 3.0 + 1.0 + 2.0);
        assert_eq!(r.summary.ranked[0], 1, "every decision is still ranked by its loss");
    }

    /// Labels follow the thresholds on the sure loss (inaccuracy 1, mistake 2, blunder 3
    /// here); a loss whose range reaches zero is not proven and has no accuracy; a player's
    /// accuracy is the mean of the others.
    #[test]
    fn labels_and_accuracy_follow_the_thresholds() {
        let mut unsure = decision(6, 0, 10.0, 8.0);
        unsure.proven = false;
        unsure.ranges = Some(Ranges {
            before: Range { low: 10.0, high: Some(11.0) },
            after: Range { low: 8.0, high: Some(10.5) },
            estimated: false,
        });
        let ds = vec![
            decision(1, 0, 10.0, 10.0),
            decision(2, 0, 10.0, 9.5),
            decision(3, 0, 10.0, 9.0),
            decision(4, 0, 10.0, 8.0),
            decision(5, 0, 10.0, 7.0),
            unsure,
        ];
        let r = Review::new("test", "t".into(), vec!["a".into()], measure(), ds);
        let labels: Vec<Label> = r.decisions.iter().map(|d| d.label.expect("labelled")).collect();
        assert_eq!(
            labels,
            [Label::Best, Label::Good, Label::Inaccuracy, Label::Mistake, Label::Blunder, Label::NotProven]
        );
        let p = &r.summary.players[0];
        let expected = (100.0 + 100.0 * (1.0 - 0.5 / 3.0) + 100.0 * (2.0 / 3.0) + 100.0 / 3.0 + 0.0) / 5.0;
        assert!((p.accuracy.expect("an accuracy") - expected).abs() < 1e-9, "{:?}", p.accuracy);
        assert_eq!(p.labels.values().sum::<usize>(), 6);
        assert_eq!(
            p.labels_in_words(),
            "accuracy 57%: 1 best, 1 good, 1 inaccuracy, 1 mistake, 1 blunder, 1 not proven"
        );
        assert!(r.problems().is_empty(), "{:?}", r.problems());
    }
}
