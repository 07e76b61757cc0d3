//! Skill and luck in a review of The Cubes of Europe (`coe::analysis`, `fair::playout_value`):
//! on every turn of three reviewed games the expected score before the turn, the luck of its
//! roll and cards and the skill of its decisions add up to the value after it, and the game's to
//! its final score; and the luck of a roll and cards is zero on average: drawn many times from
//! the same position, its mean lies within four standard errors of zero.

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use signalbox_engine::coe::instance::MAX_TURNS;
use signalbox_engine::coe::{Catalogue, Game, Instance, Move, Record, Rules};
use signalbox_solver::analysis::FairSplit;
use signalbox_solver::coe::analysis::{AnalyseOptions, analyse, sample_record};
use signalbox_solver::coe::fair::{self, Policy};

/// A whole game of `seed` played by the fair policy, as a record of the table (no seed named, so
/// the review values it by what the table saw alone).
fn table_game(catalogue: &Catalogue, seed: u64) -> Record {
    let mut instance = Instance::from_seed(seed);
    let game = Game::new(catalogue, &instance, Rules::default());
    let (moves, end) = fair::play_out(&game, Policy::Fair, fair::HORIZON, seed);
    assert!(end.is_over(), "seed {seed}: the policy ends the game");
    let score = end.score().total();
    instance.seed = None;
    let mut record = Record::new(instance, Rules::default(), moves);
    record.score = Some(score);
    record
}

/// The positions before each move of `record`, then the end.
fn positions<'c>(catalogue: &'c Catalogue, record: &'c Record) -> Vec<Game<'c>> {
    let mut game = Game::new(catalogue, &record.instance, record.rules.to_rules(&record.instance).expect("rules"));
    let mut out = vec![game.clone()];
    for &mv in &record.moves {
        game.play(mv).expect("the record replays");
        out.push(game.clone());
    }
    out
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn expected_skill_and_luck_add_up_to_the_final_score_on_every_turn_of_three_games() {
    let catalogue = Catalogue::house();
    let options = AnalyseOptions { fair_samples: Some(8), ..AnalyseOptions::default() };
    let sample = sample_record(&catalogue, 1, Rules::default());
    let records = [sample, table_game(&catalogue, 2), table_game(&catalogue, 3)];
    for (n, record) in records.iter().enumerate() {
        let review = analyse(&catalogue, record, "test", options, &|_| {}).expect("the game reviews").review;
        let split: &FairSplit = review.fair_play.as_ref().expect("a skill and luck split");
        let turns = &split.turns;
        assert!(turns.len() >= 10, "game {n}: a turn for the start and each turn played");
        // The turns cover every decision once, in order.
        assert_eq!(turns[0].decisions[0], 1, "game {n}");
        assert_eq!(turns.last().expect("turns").decisions[1], review.decisions.len(), "game {n}");
        for w in turns.windows(2) {
            assert_eq!(w[0].decisions[1] + 1, w[1].decisions[0], "game {n}: turns follow each other");
            assert!(close(w[0].value_after, w[1].expected), "game {n}: one turn's end is the next one's start");
        }
        for t in turns {
            assert!(
                close(t.expected + t.luck + t.skill, t.value_after),
                "game {n}, turn {}: {} {:+} {:+} is not {}",
                t.turn,
                t.expected,
                t.luck,
                t.skill,
                t.value_after
            );
        }
        assert_eq!(turns[0].luck, 0.0, "game {n}: no chance comes before the start space");
        assert!(close(turns[0].expected, split.expected_at_start), "game {n}");
        assert!(close(turns.last().expect("turns").value_after, split.final_score), "game {n}");
        assert!(close(split.final_score, f64::from(record.score.expect("a score"))), "game {n}");
        assert!(close(turns.iter().map(|t| t.luck).sum(), split.luck), "game {n}");
        assert!(close(turns.iter().map(|t| t.skill).sum(), split.skill), "game {n}");
        assert!(close(split.expected_at_start + split.skill + split.luck, split.final_score), "game {n}");
        // Each luck is the value after the chance less the value before it, each computed on its
        // own here: the reference player's value at the turn's start, and the value of the
        // turn before as played.
        let games = positions(&catalogue, record);
        for (k, t) in turns.iter().enumerate().skip(1) {
            let (a, b) = (turns[k - 1].decisions[0] - 1, turns[k - 1].decisions[1] - 1);
            let before = fair::playout_expectation(&games[a], &record.moves[a..=b], 8).mean;
            let after = fair::playout_value(&games[t.decisions[0] - 1], 8).mean;
            assert!(
                close(t.luck, after - before),
                "game {n}, turn {}: luck {} is not {after} - {before}",
                t.turn,
                t.luck
            );
            assert!(!t.chance.is_empty(), "game {n}, turn {}: the chance is told", t.turn);
        }
    }
}

/// A future drawn at random for `h`: the hidden cards in a random order, every die and the
/// reshuffle drawn uniformly; `h` rebound to it.
fn drawn<'i>(h: &Game<'_>, instance: &'i mut Option<Instance>, rng: &mut ChaCha8Rng) -> (Vec<u8>, &'i Instance) {
    let mut hidden = h.hidden().to_vec();
    hidden.shuffle(rng);
    let board = h.board_card();
    let mut reshuffle: Vec<u8> = (1..=9).collect();
    reshuffle.shuffle(rng);
    let dice = (0..MAX_TURNS).map(|_| [rng.random_range(1..=6u8), rng.random_range(1..=6u8)]).collect();
    let deck = (1..=9u8).filter(|&c| c != board).collect();
    (hidden, instance.insert(Instance { seed: None, board, deck, reshuffle, dice, seen: None }))
}

/// The luck of the chance after `line` from `h`, drawn `draws` times: the reference player's
/// value of the position reached (or, with `best_turn`, the value of its best turn by
/// [`fair::value_options`], the measure of each decision's loss) less the value of `line`. Returns the mean luck and its
/// standard error (the draws' spread and, where the value of `line` is estimated, its own).
fn luck_drawn(h: &Game<'_>, line: &[Move], draws: usize, samples: usize, seed: u64, best_turn: bool) -> (f64, f64) {
    // The value before, on many playouts: its own error is small beside the draws' spread.
    let before = fair::playout_expectation(h, line, 64 * samples);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut lucks = Vec::with_capacity(draws);
    for _ in 0..draws {
        let mut slot = None;
        let (hidden, instance) = drawn(h, &mut slot, &mut rng);
        let mut g = h.rebind(instance, &hidden).expect("a future of the same board card");
        for &mv in line {
            g.play(mv).expect("the line replays in any future");
        }
        let after = if best_turn && !g.is_over() {
            fair::value_options(&g, fair::HORIZON, samples)[0].value
        } else {
            fair::playout_value(&g, samples).mean
        };
        lucks.push(after - before.mean);
    }
    let n = lucks.len() as f64;
    let mean = lucks.iter().sum::<f64>() / n;
    let var = lucks.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let own = before.half_width / 1.96;
    (mean, (var / n + own * own).sqrt())
}

/// Tolerance: the mean luck of each position's draws lies within 4 standard errors of zero (a
/// false alarm about 1 time in 16,000 per position). Positions of a fair-policy game: before the
/// start space (the first roll), early and in the middle (values estimated by playouts), three
/// turns from the end (estimated before the chance, exact after) and two turns from the end
/// (exact). The test can fail: valued by the best turn after the chance where the value before
/// it is the playout player's, the luck at the start space is more than a point on average,
/// beyond the tolerance.
#[test]
fn luck_is_zero_on_average_over_many_rolls_and_cards() {
    let catalogue = Catalogue::house();
    let record = table_game(&catalogue, 5);
    let games = positions(&catalogue, &record);
    // The first position of each turn, and the turn played from it.
    let mut turns: Vec<(usize, usize)> = Vec::new();
    for i in 0..record.moves.len() {
        let key = |g: &Game<'_>| (g.turn(), g.is_started());
        match turns.last_mut() {
            Some(t) if key(&games[t.0]) == key(&games[i]) => t.1 = i,
            _ => turns.push((i, i)),
        }
    }
    let left = |t: &(usize, usize)| games[t.0].turns_left_at_most();
    let pick = |f: &dyn Fn(&(usize, usize)) -> bool| *turns.iter().find(|t| f(t)).expect("such a turn");
    let chosen = [
        ("the start space", turns[0], 300),
        ("the second turn", turns[2], 300),
        ("the middle", turns[6], 300),
        ("three turns from the end", pick(&|t| left(t) == 3), 300),
        ("two turns from the end", pick(&|t| left(t) == 2), 300),
    ];
    for (n, (what, (a, b), draws)) in chosen.into_iter().enumerate() {
        let (mean, se) = luck_drawn(&games[a], &record.moves[a..=b], draws, 16, 100 + n as u64, false);
        assert!(
            mean.abs() <= 4.0 * se + 1e-9,
            "{what}: the mean luck of {draws} draws is {mean:+.3}, standard error {se:.3}"
        );
        assert!(se > 0.0, "{what}: the draws differ");
    }
    let (a, b) = turns[0];
    let (mean, se) = luck_drawn(&games[a], &record.moves[a..=b], 150, 16, 100, true);
    assert!(
        mean > 4.0 * se,
        "valued by the best turn after the chance, the luck is {mean:+.3} (standard error {se:.3})"
    );
}
