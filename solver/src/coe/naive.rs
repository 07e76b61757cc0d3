//! A deliberately naive search: every legal move at every step, to the end of the game, keeping
//! the best final score. No pruning, no transposition table; for shortened games only.

use signalbox_engine::coe::{Game, Move};

/// The best final score reachable from `game`, and the first line of moves (in the engine's move
/// order) that reaches it.
pub fn best(game: &Game<'_>) -> (u32, Vec<Move>) {
    if game.is_over() {
        return (game.score().total(), Vec::new());
    }
    let mut best: Option<(u32, Vec<Move>)> = None;
    for mv in game.legal_moves() {
        let mut next = game.clone();
        next.play_unchecked(mv);
        let (score, mut line) = self::best(&next);
        if best.as_ref().is_none_or(|b| score > b.0) {
            line.insert(0, mv);
            best = Some((score, line));
        }
    }
    // A game not over always has a legal move (tested by the engine's playouts).
    best.unwrap_or((game.score().total(), Vec::new()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::seq::IndexedRandom;
    use signalbox_engine::coe::{Catalogue, Instance, Record, Rules};

    /// On two-turn games, the naive line replays in the engine to the score it claims, and no
    /// random line beats it.
    #[test]
    fn the_naive_line_replays_to_its_score() {
        let catalogue = Catalogue::house();
        for seed in 0..10 {
            let instance = Instance::from_seed(seed);
            let rules = Rules { max_turns: Some(2), ..Rules::default() };
            let game = Game::new(&catalogue, &instance, rules);
            let (score, line) = best(&game);
            let record = Record::new(instance.clone(), rules, line);
            let (end, replayed) = record.replay(&catalogue, "naive").expect("the line is legal");
            assert!(end.is_over());
            assert_eq!(replayed.total(), score, "seed {seed}");
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            for _ in 0..100 {
                let mut g = game.clone();
                while !g.is_over() {
                    let mv = *g.legal_moves().choose(&mut rng).expect("moves");
                    g.play_unchecked(mv);
                }
                assert!(g.score().total() <= score, "seed {seed}: a random line beats the naive best");
            }
        }
    }
}
