//! Where a result stands: a seed and a final score placed against the seed's proven maximum
//! (the best score knowing every die and card to come, `coe batch`) and among the fair policy's
//! games of a range of seeds (`coe selfplay --policy fair`: the best expected score without
//! knowing the future, rulebook "End of Game" ranks).
//!
//! The figures come from a table with a line per seed, `seed,maximum,upper_bound,fair`, written
//! by `cargo run --release --example coe_fair_play_report` from the reports' batch and fair-play
//! files; [`HOUSE_TABLE`] is the one in `reports/` for the house set, default rules, seeds 1 to
//! 10,000 (format: `docs/formats/coe-standing.md`).

use serde::Serialize;
use signalbox_engine::coe::rank_of;

/// The table of `reports/cubes-of-europe-standings.csv`: the house set, default rules, whole
/// games, seeds 1 to 10,000.
pub const HOUSE_TABLE: &str = include_str!("../../../reports/cubes-of-europe-standings.csv");

/// One seed's line of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeedLine {
    /// The seed.
    pub seed: u64,
    /// The best score found knowing the future; proven when it equals `upper_bound`.
    pub maximum: u32,
    /// No line of play scores more.
    pub upper_bound: u32,
    /// The fair policy's score on the seed.
    pub fair: u32,
}

/// A table of seeds, read and checked.
#[derive(Clone, Debug)]
pub struct Table {
    lines: Vec<SeedLine>,
}

/// Why a table cannot be read: its line and what was expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {expected}")]
pub struct TableError {
    /// The line, from 1.
    pub line: usize,
    /// What was expected there.
    pub expected: String,
}

impl Table {
    /// Reads a table: a header `seed,maximum,upper_bound,fair`, then a line per seed in rising
    /// order, each maximum at most its upper bound and the fair score at most the upper bound;
    /// lines starting with `#` are notes.
    pub fn parse(text: &str) -> Result<Table, TableError> {
        let mut lines = Vec::new();
        let mut header = false;
        for (k, raw) in text.lines().enumerate() {
            let line = raw.trim();
            let fail = |expected: &str| TableError { line: k + 1, expected: expected.to_owned() };
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if !header {
                if line != "seed,maximum,upper_bound,fair" {
                    return Err(fail("the header `seed,maximum,upper_bound,fair`"));
                }
                header = true;
                continue;
            }
            let fields: Vec<&str> = line.split(',').map(str::trim).collect();
            let [seed, maximum, upper_bound, fair] = fields.as_slice() else {
                return Err(fail("four numbers: seed, maximum, upper bound, fair score"));
            };
            let number =
                |s: &str, what: &str| s.parse::<u32>().map_err(|_| fail(&format!("{what}: a number, not `{s}`")));
            let seed = seed.parse::<u64>().map_err(|_| fail(&format!("the seed: a number, not `{seed}`")))?;
            let l = SeedLine {
                seed,
                maximum: number(maximum, "the maximum")?,
                upper_bound: number(upper_bound, "the upper bound")?,
                fair: number(fair, "the fair score")?,
            };
            if l.maximum > l.upper_bound || l.fair > l.upper_bound {
                return Err(fail("a maximum and a fair score no greater than the upper bound"));
            }
            if lines.last().is_some_and(|p: &SeedLine| p.seed >= seed) {
                return Err(fail("the seeds in rising order, each once"));
            }
            lines.push(l);
        }
        if lines.is_empty() {
            return Err(TableError { line: text.lines().count(), expected: "at least one seed".into() });
        }
        Ok(Table { lines })
    }

    /// The seeds' lines, in rising order.
    pub fn lines(&self) -> &[SeedLine] {
        &self.lines
    }

    /// Where `score` on `seed` stands; refused when the table's bound for the seed says no line
    /// of play scores that much.
    pub fn standing(&self, seed: u64, score: u32) -> Result<Standing, ImpossibleScore> {
        let games = self.lines.len();
        let above = self.lines.iter().filter(|l| l.fair > score).count();
        let equal = self.lines.iter().filter(|l| l.fair == score).count();
        let below = games - above - equal;
        let line = self.lines.binary_search_by_key(&seed, |l| l.seed).ok().map(|i| self.lines[i]);
        if let Some(l) = line.filter(|l| score > l.upper_bound) {
            return Err(ImpossibleScore { seed, score, upper_bound: l.upper_bound });
        }
        let mean = self.lines.iter().map(|l| f64::from(l.fair)).sum::<f64>() / games as f64;
        Ok(Standing {
            seed,
            score,
            rank_name: rank_of(score).to_owned(),
            maximum: line.map(|l| Maximum {
                score: l.maximum,
                upper_bound: l.upper_bound,
                proven: l.maximum == l.upper_bound,
                short_of_it: l.maximum.saturating_sub(score),
            }),
            fair_on_seed: line.map(|l| l.fair),
            among_fair: AmongFair {
                first_seed: self.lines[0].seed,
                last_seed: self.lines[games - 1].seed,
                games,
                above,
                equal,
                below,
                place: above + 1,
                percentile: round1(100.0 * (below as f64 + equal as f64 / 2.0) / games as f64),
                mean: round2(mean),
            },
        })
    }
}

/// A score no line of play reaches on its seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no line of play scores {score} on seed {seed}: at most {upper_bound}, knowing every die and card")]
pub struct ImpossibleScore {
    /// The seed.
    pub seed: u64,
    /// The score given.
    pub score: u32,
    /// The most any line scores on the seed.
    pub upper_bound: u32,
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Where a seed's score stands: the answer of `coe standing`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    /// The seed.
    pub seed: u64,
    /// The final score.
    pub score: u32,
    /// The score's rank in the rulebook's words (Novice to Master).
    pub rank_name: String,
    /// The seed's maximum, where the table has the seed.
    pub maximum: Option<Maximum>,
    /// The fair policy's score on this seed, where the table has the seed.
    pub fair_on_seed: Option<u32>,
    /// The score among the fair policy's games of the table's seeds.
    pub among_fair: AmongFair,
}

/// A seed's best score knowing every die and card to come.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Maximum {
    /// The best score found.
    pub score: u32,
    /// No line scores more.
    pub upper_bound: u32,
    /// Whether the best score found is proven the most (it equals the upper bound).
    pub proven: bool,
    /// How far the score falls short of the best score found.
    pub short_of_it: u32,
}

/// A score among the fair policy's games.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct AmongFair {
    /// The table's first seed.
    pub first_seed: u64,
    /// The table's last seed.
    pub last_seed: u64,
    /// The fair policy's games: one per seed.
    pub games: usize,
    /// Games that scored more.
    pub above: usize,
    /// Games that scored the same.
    pub equal: usize,
    /// Games that scored less.
    pub below: usize,
    /// The score's place: one more than the games that scored more (ties share a place).
    pub place: usize,
    /// The percentile: the share of the games that scored less, with half of those that scored
    /// the same, in percent (one decimal).
    pub percentile: f64,
    /// The fair policy's mean score.
    pub mean: f64,
}

impl std::fmt::Display for Standing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "Seed {}, a score of {} ({}).", self.seed, self.score, self.rank_name)?;
        match self.maximum {
            Some(m) if m.proven => writeln!(
                f,
                "The seed's maximum, knowing every die and card to come: {}, proven; this score is {} short of it.",
                m.score, m.short_of_it
            )?,
            Some(m) => writeln!(
                f,
                "The seed's maximum, knowing every die and card to come: between {} and {} (not proven); this score is {} short of the best found.",
                m.score, m.upper_bound, m.short_of_it
            )?,
            None => writeln!(
                f,
                "The table has no seed {}: `signalbox coe solve --seed {}` proves its maximum.",
                self.seed, self.seed
            )?,
        }
        let a = self.among_fair;
        writeln!(
            f,
            "Among the fair player's {} games of seeds {} to {} (mean {:.2}): place {} of {} (ties share a place); {} scored more, {} the same, {} less: percentile {:.1}.",
            a.games, a.first_seed, a.last_seed, a.mean, a.place, a.games, a.above, a.equal, a.below, a.percentile
        )?;
        if let Some(fair) = self.fair_on_seed {
            writeln!(f, "The fair player, who sees only what a player sees, scored {fair} on this seed.")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "# a note\nseed,maximum,upper_bound,fair\n1,44,44,30\n2,40,42,35\n3,41,41,30\n4,39,39,20\n";

    #[test]
    fn a_score_is_placed_among_the_fair_games_with_ties_sharing_a_place() {
        let t = Table::parse(SMALL).expect("reads");
        let s = t.standing(2, 30).expect("a possible score");
        assert_eq!((s.among_fair.above, s.among_fair.equal, s.among_fair.below), (1, 2, 1));
        assert_eq!(s.among_fair.place, 2);
        assert_eq!(s.among_fair.percentile, 50.0);
        assert_eq!(s.maximum, Some(Maximum { score: 40, upper_bound: 42, proven: false, short_of_it: 10 }));
        assert_eq!(s.fair_on_seed, Some(35));
        let unknown = t.standing(9, 50).expect("no bound for a seed the table lacks");
        assert_eq!((unknown.maximum, unknown.among_fair.percentile), (None, 100.0));
        assert_eq!(t.standing(1, 0).expect("possible").among_fair.place, 5);
        assert_eq!(t.standing(2, 43), Err(ImpossibleScore { seed: 2, score: 43, upper_bound: 42 }));
    }

    #[test]
    fn a_bad_table_names_its_line() {
        let err = |t: &str| Table::parse(t).expect_err(t).to_string();
        assert!(err("seed,max\n").contains("line 1: the header"));
        assert!(err("seed,maximum,upper_bound,fair\n1,44,43,30\n").contains("line 2"));
        assert!(err("seed,maximum,upper_bound,fair\n2,44,44,30\n1,44,44,30\n").contains("rising order"));
        assert!(err("seed,maximum,upper_bound,fair\n1,x,44,30\n").contains("the maximum: a number"));
    }

    /// The shipped table reads and covers seeds 1 to 10,000.
    #[test]
    fn the_house_table_covers_its_seeds() {
        let t = Table::parse(HOUSE_TABLE).expect("the shipped table reads");
        assert_eq!(t.lines().len(), 10_000);
        assert_eq!((t.lines()[0].seed, t.lines()[9_999].seed), (1, 10_000));
    }
}
