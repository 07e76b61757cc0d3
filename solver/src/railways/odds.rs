//! Win chances by simulation: games played out from a position, every player following its
//! minimum link plan and playing each roll at its best for it ([`super::policy::play_turn`]),
//! the dice drawn from seeded generators (game `i` from seed `seed + i`). Games are played in
//! rounds of a few per thread and counted in order, so a time limit stops after a whole number
//! of games `0..n`, and the answer for `n` games is the same whatever the thread count and
//! however the run was stopped.

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use signalbox_engine::railways::colour::Colour;
use signalbox_engine::railways::game::Game;

use super::policy::play_turn;

/// Turns after which a simulated game is given up (none of the house map's games comes near).
pub const TURN_LIMIT: u32 = 1000;

/// One player's chance to win.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Chance {
    /// The colour.
    pub colour: Colour,
    /// Wins, a shared victory counting as a share.
    pub wins: f64,
    /// The estimated chance: wins over games.
    pub chance: f64,
    /// The 95% confidence interval of the chance (Wilson's score interval).
    pub interval: (f64, f64),
}

/// The outcome of a simulation.
#[derive(Clone, Debug, PartialEq)]
pub struct Odds {
    /// Each player's chance, in seat order.
    pub chances: Vec<Chance>,
    /// Games played.
    pub games: usize,
    /// The mean number of turns the games took from the position to their end.
    pub mean_turns: f64,
    /// Games given up at [`TURN_LIMIT`] (counted as nobody's win).
    pub unfinished: usize,
    /// Whether the time limit stopped the run before the games asked for were played.
    pub stopped: bool,
}

/// Wilson's 95% score interval for `wins` successes in `n` trials.
pub fn wilson(wins: f64, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let z = 1.959_963_984_540_054_f64;
    let p = wins / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// How many games to play, and on how many threads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OddsOptions {
    /// Games to play at most (`None`: until the time limit; one of the two must be given).
    pub games: Option<usize>,
    /// Stop starting games after this long, and count the games played (`None`: no limit).
    pub time_limit: Option<Duration>,
    /// The seed of game 0's dice; game `i` rolls from `seed + i`.
    pub seed: u64,
    /// Threads (default: rayon's, one per core). The answer does not depend on it.
    pub threads: Option<usize>,
}

/// How one simulated game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winners (more than one: a shared victory; none: the game did not end).
    pub winners: Vec<Colour>,
    /// The turns it took from the position.
    pub turns: u32,
    /// Whether it ended within [`TURN_LIMIT`].
    pub finished: bool,
}

/// Plays games from `game` as `options` say and counts the winners; `progress` is told each
/// finished game.
pub fn odds(game: &Game, options: OddsOptions, progress: &(dyn Fn() + Sync)) -> Odds {
    let deadline = options.time_limit.map(|t| Instant::now() + t);
    let cap = options.games.unwrap_or(if deadline.is_some() { usize::MAX } else { 0 });
    let outcomes = crate::threads::install(options.threads, || {
        let round = 2 * rayon::current_num_threads().max(1);
        let mut outcomes: Vec<Outcome> = Vec::new();
        while outcomes.len() < cap && deadline.is_none_or(|d| !crate::stop::passed(d)) {
            let from = outcomes.len();
            let to = from.saturating_add(round).min(cap);
            let played: Vec<_> = (from..to)
                .into_par_iter()
                .map(|i| {
                    let outcome = play_game(game, options.seed, i as u64);
                    progress();
                    outcome
                })
                .collect();
            outcomes.extend(played);
        }
        outcomes
    });
    let seats: Vec<Colour> = game.players().iter().map(|p| p.colour).collect();
    let mut odds = tally(&seats, &outcomes);
    odds.stopped = odds.games < options.games.unwrap_or(usize::MAX) && deadline.is_some();
    odds
}

/// Plays the games `indices` (game `i` rolling its dice from `seed + i`) on `threads` threads
/// (default: rayon's), their outcomes in the order of `indices`; `progress` is told each finished
/// game. The games `0..n` give what [`odds`] counts for `n` games.
pub fn play_games(
    game: &Game,
    seed: u64,
    indices: &[u64],
    threads: Option<usize>,
    progress: &(dyn Fn() + Sync),
) -> Vec<Outcome> {
    crate::threads::install(threads, || {
        indices
            .par_iter()
            .map(|&i| {
                let outcome = play_game(game, seed, i);
                progress();
                outcome
            })
            .collect()
    })
}

/// Counts the outcomes of games played in order from a position whose players sit in `seats`
/// order: each player's wins (a shared victory counting as a share) and chance, the mean turns
/// and the unfinished games. The sums are taken in the order of `outcomes`, so the same outcomes
/// give the same numbers to the last bit; `stopped` is false.
pub fn tally(seats: &[Colour], outcomes: &[Outcome]) -> Odds {
    let games = outcomes.len();
    let chances = seats
        .iter()
        .map(|&colour| {
            // Summed from +0.0: an empty sum of floats is -0.0.
            let wins = outcomes
                .iter()
                .filter(|o| o.winners.contains(&colour))
                .fold(0.0, |sum, o| sum + 1.0 / o.winners.len() as f64);
            let chance = if games == 0 { 0.0 } else { wins / games as f64 };
            Chance { colour, wins, chance, interval: wilson(wins, games) }
        })
        .collect();
    let turns: u64 = outcomes.iter().map(|o| u64::from(o.turns)).sum();
    Odds {
        chances,
        games,
        mean_turns: if games == 0 { 0.0 } else { turns as f64 / games as f64 },
        unfinished: outcomes.iter().filter(|o| !o.finished).count(),
        stopped: false,
    }
}

/// Game `index` from `game`: the dice from `seed + index`, every player following its policy.
pub fn play_game(game: &Game, seed: u64, index: u64) -> Outcome {
    let mut g = game.clone();
    // The bounty cards not yet turned up come in an order of this game's own drawing, never
    // the one the position or the record's seed holds.
    g.shuffle_unseen_bounties(seed.wrapping_add(index));
    let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_add(index));
    let start = g.turns();
    while !g.is_over() && g.turns() - start < TURN_LIMIT {
        if play_turn(&mut g, &mut rng).is_err() {
            break;
        }
    }
    Outcome { winners: g.winners(), turns: g.turns() - start, finished: g.is_over() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilsons_interval_holds_the_estimate_and_narrows_with_more_games() {
        let (lo, hi) = wilson(30.0, 100);
        assert!(lo < 0.3 && 0.3 < hi && (0.21..0.22).contains(&lo) && (0.39..0.40).contains(&hi), "{lo} {hi}");
        let (lo2, hi2) = wilson(300.0, 1000);
        assert!(hi2 - lo2 < hi - lo);
        assert_eq!(wilson(0.0, 0), (0.0, 1.0));
    }

    #[test]
    fn the_odds_do_not_depend_on_the_thread_count_and_sum_to_one() {
        let game = Game::sample();
        let on = |threads: usize, games: usize| {
            let options = OddsOptions { games: Some(games), seed: 5, threads: Some(threads), ..OddsOptions::default() };
            odds(&game, options, &|| {})
        };
        let (one, three) = (on(1, 24), on(3, 24));
        assert_eq!(one, three);
        let total: f64 = one.chances.iter().map(|c| c.wins).sum();
        assert!((total - (one.games - one.unfinished) as f64).abs() < 1e-9, "{one:?}");
        assert!(one.chances.iter().all(|c| c.wins.is_sign_positive() && c.chance.is_sign_positive()), "{one:?}");
        // Stopped by a time limit after n games: the same as asking for n games.
        let options =
            OddsOptions { games: None, time_limit: Some(Duration::from_millis(300)), seed: 5, threads: Some(2) };
        let timed = odds(&game, options, &|| {});
        assert!(timed.stopped && timed.games > 0, "{timed:?}");
        let asked = on(1, timed.games);
        assert_eq!(asked.chances, timed.chances);
        assert!(!asked.stopped);
    }

    #[test]
    fn games_played_in_any_split_count_as_the_run_does() {
        let game = Game::sample();
        let options = OddsOptions { games: Some(10), seed: 3, threads: Some(2), ..OddsOptions::default() };
        let run = odds(&game, options, &|| {});
        let (even, odd): (Vec<u64>, Vec<u64>) = (0..10).partition(|i| i % 2 == 0);
        let a = play_games(&game, 3, &odd, Some(1), &|| {});
        let b = play_games(&game, 3, &even, Some(2), &|| {});
        let mut all: Vec<Outcome> = (0..10).map(|_| Outcome { winners: vec![], turns: 0, finished: false }).collect();
        for (i, o) in odd.iter().zip(a).chain(even.iter().zip(b)) {
            all[*i as usize] = o;
        }
        let seats: Vec<Colour> = game.players().iter().map(|p| p.colour).collect();
        assert_eq!(tally(&seats, &all), run);
        assert_eq!(all[7], play_game(&game, 3, 7));
    }
}
