//! A deliberately naive search: every legal move at every step, to the end of the game, keeping
//! the best final score. No pruning, no transposition table; for shortened games only.
//!
//! It does not take its moves from [`Game::legal_moves`], whose narrowing it is meant to check:
//! it tries every move a record can write ([`Move::every`]), each die use both with the free
//! shift taken and paid for, the second die of a double as well as the first (ruling A9), and
//! keeps those the rules allow ([`Game::check`]).

use std::sync::OnceLock;

use signalbox_engine::coe::{Game, Move};

/// Every move a record can write, the free shift said (taken or paid) on every die use, by
/// kind: the start spaces, each die's uses, and the choices effects open.
struct Candidates {
    start: Vec<Move>,
    die: [Vec<Move>; 2],
    choice: Vec<Move>,
}

fn candidates() -> &'static Candidates {
    static ALL: OnceLock<Candidates> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut c = Candidates { start: Vec::new(), die: [Vec::new(), Vec::new()], choice: Vec::new() };
        for mv in Move::every() {
            match mv {
                Move::Gain { free_shift: None, .. } | Move::Place { free_shift: None, .. } => {}
                Move::Start { .. } => c.start.push(mv),
                Move::Gain { die, .. } | Move::Place { die, .. } | Move::Worker { die } => {
                    c.die[usize::from(die)].push(mv)
                }
                Move::Chain { .. } | Move::Take { .. } | Move::Return { .. } | Move::Pass => c.choice.push(mv),
            }
        }
        c
    })
}

/// The moves of the kind the rules ask for now (a start space first, an open effect's choice
/// before any die, a die not yet used), each still to be checked.
pub(crate) fn asked(game: &Game<'_>) -> [&'static [Move]; 2] {
    let c = candidates();
    if !game.is_started() {
        [&c.start, &[]]
    } else if game.pending().is_some() {
        [&c.choice, &[]]
    } else {
        let dice = game.dice();
        let unused = |i: usize| if dice[i].is_some() { c.die[i].as_slice() } else { &[] };
        [unused(0), unused(1)]
    }
}

/// The best final score reachable from `game`, and the first line of moves (in the order of
/// [`Move::every`]) that reaches it.
pub fn best(game: &Game<'_>) -> (u32, Vec<Move>) {
    if game.is_over() {
        return (game.score().total(), Vec::new());
    }
    let mut best: Option<(u32, Vec<Move>)> = None;
    for mv in asked(game).into_iter().flatten().copied() {
        if game.check(mv).is_err() {
            continue;
        }
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
