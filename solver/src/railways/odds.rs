//! Win chances by simulation: games played out from a position, every player following its
//! minimum link plan and playing each roll at its best for it ([`super::policy::play_turn`]), the dice drawn from seeded generators (game
//! `i` from seed `seed + i`, so the answer is the same whatever the thread count).

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

/// Plays `games` games from `game` and counts the winners; `progress` is told each finished
/// game.
pub fn odds(game: &Game, games: usize, seed: u64, progress: &(dyn Fn() + Sync)) -> Odds {
    let outcomes: Vec<(Vec<Colour>, u32, bool)> = (0..games)
        .into_par_iter()
        .map(|i| {
            let mut g = game.clone();
            let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_add(i as u64));
            let start = g.turns();
            while !g.is_over() && g.turns() - start < TURN_LIMIT {
                if play_turn(&mut g, &mut rng).is_err() {
                    break;
                }
            }
            progress();
            (g.winners(), g.turns() - start, g.is_over())
        })
        .collect();
    let chances = game
        .players()
        .iter()
        .map(|p| {
            let wins: f64 =
                outcomes.iter().filter(|(w, _, _)| w.contains(&p.colour)).map(|(w, _, _)| 1.0 / w.len() as f64).sum();
            let chance = if games == 0 { 0.0 } else { wins / games as f64 };
            Chance { colour: p.colour, wins, chance, interval: wilson(wins, games) }
        })
        .collect();
    let turns: u64 = outcomes.iter().map(|o| u64::from(o.1)).sum();
    Odds {
        chances,
        games,
        mean_turns: if games == 0 { 0.0 } else { turns as f64 / games as f64 },
        unfinished: outcomes.iter().filter(|o| !o.2).count(),
    }
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
        let on = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
            pool.install(|| odds(&game, 24, 5, &|| {}))
        };
        let (one, three) = (on(1), on(3));
        assert_eq!(one, three);
        let total: f64 = one.chances.iter().map(|c| c.wins).sum();
        assert!((total - (one.games - one.unfinished) as f64).abs() < 1e-9, "{one:?}");
    }
}
